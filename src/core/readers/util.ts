/**
 * Small helpers shared by the readers: diagnostics, JSON line parsing, value coercion and path names.
 * Pure; no `vscode` import.
 */
import { distance as levenshtein } from 'fastest-levenshtein';
import { open, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { encodeReferenceList } from '../answers/reference';
import type { Diagnostic, ReadEvent } from '../model';
import {
  DATE_TIME_TOKEN,
  isJobFolder,
  isLoggingToolFolder,
  isRunOutputFolder,
  MODEL_FOLDER_WORD,
  MODEL_NAME_HINT,
  RUN_OUTPUT_WORDS,
} from '../grouping/nameTokens';
import { stripSeedTokens } from '../grouping/seeds';
import {
  invalidUtf8Bytes,
  invalidUtf8Message,
  isUnsafeInteger,
  nonFiniteMessage,
  parseExactIntegers,
  parseJsonTolerant,
  stripBom,
} from '../text/textFile';
import { readLineBatches, type LineReaderOptions } from './lines';
import { plural } from '../text/strings';
import type { ReaderContext } from './types';

/** Head size handed to `detect()`: the first 64 KiB of a file. */
export const HEAD_BYTES = 64 * 1024;

/** Largest whole-document JSON file (a JSON array or an Inspect `.json` log) parsed at once: 256 MiB. */
export const MAX_JSON_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** Builds a diagnostic event. */
export function diag(
  ctx: Pick<ReaderContext, 'relPath'>,
  line: number,
  message: string,
  severity: Diagnostic['severity'] = 'error',
): ReadEvent {
  return { kind: 'diagnostic', diagnostic: { file: ctx.relPath, line, message, severity } };
}

/** Reads up to `bytes` first bytes of a file (fewer when the file is shorter). */
export async function readHead(absPath: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const fh = await open(absPath, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Whether a buffer holds a NUL byte (the test for "binary file": text formats never contain NUL). */
export function hasNul(head: Buffer): boolean {
  return head.indexOf(0) !== -1;
}

/** A plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Short description of a JSON value's type for messages: `string`, `number`, `array`, `object`, `null`, ... */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Shortens a message part (model output in messages is untrusted and may be huge). */
export function clip(s: string, max = 80): string {
  return s.length <= max ? s : `${s.slice(0, max)}...`;
}

/**
 * Parse error message for `JSON.parse`, with nesting-depth failures (RangeError) named as such. With `at`
 * (the text parsed and the file's line its first line is), V8's position (`at position 83 (line 1
 * column 84)`, counted in the text given, so "line 1" for any JSONL line) is said as the file's line and
 * the column in UTF-16 code units, 1-based: `malformed JSON (Unterminated string in JSON at line 5, column 84)`
 * (trial 14 finding 4: "line 1" next to the diagnostic's line 5 contradicted it). A message without a
 * position (`Unexpected end of JSON input`) is kept as it is.
 */
export function jsonErrorMessage(err: unknown, at?: { text: string; line: number }): string {
  if (err instanceof RangeError) return `JSON nesting too deep (${clip(err.message)})`;
  let msg = err instanceof Error ? err.message : String(err);
  const pos = at ? /at position (\d+)(?: \(line \d+ column \d+\))?/.exec(msg) : null;
  if (at && pos) {
    const p = Math.min(Number(pos[1]), at.text.length);
    const before = at.text.slice(0, p);
    const nl = before.lastIndexOf('\n');
    const line = at.line + (before.match(/\n/g)?.length ?? 0);
    msg = msg.replace(pos[0], `at line ${line}, column ${p - nl}`);
  }
  return `malformed JSON (${clip(msg, 120)})`;
}

/** One parsed record of a JSONL file. */
export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
  /** The text that was parsed (for {@link exactIds}). */
  text: string;
  /** Where the line is in the file: first byte and length in bytes (lines.ts `Line`). */
  offset: number;
  bytes: number;
}

/** Whether a parsed JSON value holds an integer beyond 2^53 anywhere (iterative: deep nesting is fine). */
function hasUnsafeInteger(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (isUnsafeInteger(v)) return true;
    if (Array.isArray(v)) stack.push(...v);
    else if (isObject(v)) stack.push(...Object.values(v));
  }
  return false;
}

/**
 * `value` (parsed from `text`) with every integer beyond 2^53 read exactly from the source text, as
 * the string of its digits, for readers whose id can sit anywhere (a mapping file's path). Cheap: a
 * look for 16 digits in a row first, the second parse only when such an integer is there.
 */
export function withExactIntegers<T>(value: T, text: string): T {
  return /\d{16}/.test(text) && hasUnsafeInteger(value) ? (parseExactIntegers(text) as T) : value;
}

/**
 * The record with integers beyond 2^53 read exactly from its source text, when `id` (the value of
 * its problem-id field) is such an integer; else the record itself. Cheap: the second parse runs
 * only for those records.
 */
export function exactIds<T>(record: T, id: unknown, text: string): T {
  return isUnsafeInteger(id) ? (parseExactIntegers(text) as T) : record;
}

/**
 * Streams the JSON object records of a JSONL file, turning every bad line into a diagnostic:
 * - empty (or whitespace-only) file: error `empty file` at line 0, no records;
 * - NUL bytes in the first 64 KiB: error `binary file (NUL bytes in the first 64 KiB); not read`, line 0;
 * - a line over the line cap: error `line too long (N bytes > cap bytes); skipped`;
 * - a line that `JSON.parse` rejects (truncated lines included): error `malformed JSON (...)`, with
 *   `; truncated last line?` when it is the last line and the file does not end with a newline;
 *   too-deep nesting (RangeError): `JSON nesting too deep (...)`;
 * - Python's `NaN` / `Infinity` / `-Infinity` literals: the line is parsed again with each of them as
 *   `null` (a missing value), with a warning `N non-standard numbers (NaN, Infinity) read as missing values`;
 * - invalid UTF-8 bytes: replaced by U+FFFD, with a warning `invalid UTF-8: N bytes replaced by U+FFFD`;
 * - a JSON value that is not an object: error `record is not a JSON object (got array)`;
 * - several records on one line with no newline between them (`{...}{...}`): each is read as a record with its own
 *   span (its bytes), after one warning at the line counting them; each part that is no JSON object is an error of
 *   its own ({@link concatenatedValues}), so the diagnostics count every record lost.
 * A `.json` file of at most {@link WHOLE_JSON_DOCUMENT_BYTES} that is one pretty-printed JSON object (its first line
 * no JSON value of its own, the whole text one object: `json.dump(sample, f, indent=2)`) is one record, line 1, its
 * span the whole file (trial 12 leftovers: it was one `malformed JSON` error per line of a valid file); a `.json` file
 * whose first line is a JSON value is read line by line (JSONL saved as `.json`), and so is one that is no JSON
 * document as a whole (detection refuses it with one error: index.ts `detectFile`).
 * Aborting (`ctx.signal`) throws the signal's reason between records.
 */
export async function* readJsonLines(
  ctx: ReaderContext,
  options: LineReaderOptions = {},
): AsyncGenerator<JsonLine | ReadEvent> {
  // bytes already read (ctx.rangeBytes: one record read again) are parsed without opening the file
  const bytes = !options.range && ctx.range ? ctx.rangeBytes : undefined;
  if (!bytes && hasNul(await readHead(ctx.absPath))) {
    yield diag(ctx, 0, `binary file (NUL bytes in the first ${HEAD_BYTES / 1024} KiB); not read`);
    return;
  }
  const size = bytes ? bytes.length : (await stat(ctx.absPath)).size;
  if (!options.range && /\.json$/i.test(ctx.relPath) && size <= WHOLE_JSON_DOCUMENT_BYTES) {
    const whole = jsonDocumentRecord(ctx, bytes ?? (await readFile(ctx.absPath)));
    if (whole !== undefined) {
      yield* whole;
      return;
    }
  }
  const endsWithNewline = bytes ? true : await lastByteIsNewline(ctx.absPath, size);
  let any = false;
  let lastLine = 0;
  let pending: { line: number; error: unknown; text: string } | null = null;
  for await (const batch of readLineBatches(ctx.absPath, {
    ...options,
    signal: options.signal ?? ctx.signal,
    range: options.range ?? ctx.range,
    ...(bytes ? { bytes } : {}),
  })) {
    for (const l of batch) {
      any = true;
      if (pending) {
        yield diag(ctx, pending.line, jsonErrorMessage(pending.error, pending));
        pending = null;
      }
      lastLine = l.line;
      if (l.text === null) {
        yield diag(
          ctx,
          l.line,
          `line too long (${l.bytes} bytes > ${options.maxLineBytes ?? 64 * 1024 * 1024} bytes); skipped`,
        );
        continue;
      }
      if (l.invalidBytes) yield diag(ctx, l.line, invalidUtf8Message(l.invalidBytes), 'warning');
      let value: unknown;
      let text = l.text;
      try {
        value = JSON.parse(text);
      } catch (err) {
        let parsed: ReturnType<typeof parseJsonTolerant> | undefined;
        try {
          parsed = parseJsonTolerant(text);
        } catch {
          const raw = l.invalidBytes ? await lineBytes(ctx.absPath, l, options.range ?? ctx.range, bytes) : null;
          const several = severalRecords(ctx, l, raw);
          if (several) {
            yield* several;
            continue;
          }
          // held back one line so that the last line of a file can say "truncated"
          pending = { line: l.line, error: err, text };
          continue;
        }
        value = parsed.value;
        text = parsed.text;
        yield diag(ctx, l.line, nonFiniteMessage(parsed), 'warning');
      }
      if (!isObject(value)) {
        yield diag(ctx, l.line, `record is not a JSON object (got ${typeName(value)})`);
        continue;
      }
      yield { line: l.line, value, text, offset: l.offset, bytes: l.bytes };
    }
  }
  if (pending) {
    const truncated = pending.line === lastLine && !endsWithNewline && !(pending.error instanceof RangeError);
    yield diag(
      ctx,
      pending.line,
      jsonErrorMessage(pending.error, pending) + (truncated ? '; truncated last line?' : ''),
    );
  }
  if (!any) yield diag(ctx, 0, 'empty file');
}

/**
 * Where the JSON values written one after another on one line start and end (`{...}{...} {...}`: records a
 * writer put on one line, no newline between them), as byte ranges `[start, end)` of `bytes`: each value is an
 * object or an array whose brackets balance outside strings; whitespace between values is skipped; anything
 * else (text between values, an unfinished last value) is one range of its own, so that a caller counts it as
 * one record it could not read. Null when the line holds fewer than two ranges (one value, or no complete
 * value: a truncated line). Works on bytes: the characters it looks at (`{ } [ ] " \`) never occur inside a
 * multi-byte UTF-8 sequence.
 */
export function concatenatedValues(bytes: Uint8Array): { start: number; end: number }[] | null {
  const out: { start: number; end: number }[] = [];
  const n = bytes.length;
  const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(bytes[i])) i++;
    if (i >= n) break;
    const start = i;
    const open = bytes[i];
    if (open !== 0x7b && open !== 0x5b) {
      // not the start of a record: the rest of the line up to the next `{` is one unreadable range
      i++;
      while (i < n && bytes[i] !== 0x7b) i++;
      out.push({ start, end: i });
      continue;
    }
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = bytes[i];
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) {
        i++;
        break;
      }
    }
    out.push({ start, end: Math.min(i, n) });
  }
  return out.length >= 2 ? out : null;
}

/** The bytes of a line as they are in the file (from `rangeBytes` when the caller read them): a line with invalid UTF-8 cannot be re-encoded from its text. */
async function lineBytes(
  absPath: string,
  l: { offset: number; bytes: number },
  range: { start: number } | undefined,
  given: Buffer | undefined,
): Promise<Buffer> {
  if (given) return given.subarray(l.offset - (range?.start ?? 0), l.offset - (range?.start ?? 0) + l.bytes);
  const fh = await open(absPath, 'r');
  try {
    const buf = Buffer.alloc(l.bytes);
    await fh.read(buf, 0, l.bytes, l.offset);
    return buf;
  } finally {
    await fh.close();
  }
}

/**
 * A line that holds several JSON records one after another ({@link concatenatedValues}) as those records, each
 * with its own span (its bytes in the file: reading them again gives that record alone), after one warning that
 * says how many records the line holds; each range that is no JSON object is an error of its own (`record 2 of 3
 * on this line: malformed JSON (...); skipped`), so the diagnostics count every record lost. `raw`: the line's
 * bytes as in the file (needed when it holds invalid UTF-8), else null (re-encoded from its text). Undefined
 * when the line is not several records.
 */
function severalRecords(
  ctx: ReaderContext,
  l: { line: number; text: string; offset: number; bytes: number },
  raw: Buffer | null,
): (JsonLine | ReadEvent)[] | undefined {
  let buf = raw ?? Buffer.from(l.text, 'utf8');
  // where the text starts in the line's bytes: after a BOM the line reader stripped (3 bytes; a stripped `\r` is 1)
  let lead = raw ? 0 : l.bytes - buf.length >= 3 ? 3 : 0;
  if (raw && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    buf = buf.subarray(3);
    lead = 3;
  }
  const spans = concatenatedValues(buf);
  if (!spans) return undefined;
  const out: (JsonLine | ReadEvent)[] = [
    diag(
      ctx,
      l.line,
      `${spans.length} JSON records on one line, with no newline between them: each read as a record of its own`,
      'warning',
    ),
  ];
  spans.forEach((sp, k) => {
    const what = `record ${k + 1} of ${spans.length} on this line`;
    const piece = buf.toString('utf8', sp.start, sp.end);
    let parsed: ReturnType<typeof parseJsonTolerant>;
    try {
      parsed = parseJsonTolerant(piece);
    } catch (err) {
      out.push(diag(ctx, l.line, `${what}: ${jsonErrorMessage(err)}; skipped`));
      return;
    }
    if (parsed.nonFinite) out.push(diag(ctx, l.line, `${what}: ${nonFiniteMessage(parsed)}`, 'warning'));
    if (!isObject(parsed.value)) {
      out.push(diag(ctx, l.line, `${what} is not a JSON object (got ${typeName(parsed.value)}); skipped`));
      return;
    }
    const offset = l.offset + lead + sp.start;
    out.push({ line: l.line, value: parsed.value, text: parsed.text, offset, bytes: sp.end - sp.start });
  });
  return out;
}

/** A `.json` file up to this size that is one pretty-printed JSON object is read as one record: 8 MiB. */
export const WHOLE_JSON_DOCUMENT_BYTES = 8 * 1024 * 1024;

/**
 * The events of a `.json` file's bytes that are one pretty-printed JSON object ({@link readJsonLines}): the record
 * (line 1, offset 0, the whole file's bytes), after a warning for invalid UTF-8 or non-finite numbers; undefined when
 * the bytes are not that (the first non-blank line is a JSON value of its own: JSONL, or one compact line; or the whole
 * text is no JSON object), so they are read line by line.
 */
function jsonDocumentRecord(ctx: ReaderContext, buf: Buffer): (JsonLine | ReadEvent)[] | undefined {
  const decoded = buf.toString('utf8');
  const text = stripBom(decoded);
  const lead = text.length - text.trimStart().length;
  try {
    parseJsonTolerant(text.slice(lead).split('\n', 1)[0]);
    return undefined;
  } catch {
    // not a JSON value on its own line: maybe one document over several lines
  }
  let parsed: ReturnType<typeof parseJsonTolerant>;
  try {
    parsed = parseJsonTolerant(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed.value)) return undefined;
  // the line the object starts on (blank lines before it aside)
  const line = 1 + text.slice(0, lead).split('\n').length - 1;
  const out: (JsonLine | ReadEvent)[] = [];
  const invalid = invalidUtf8Bytes(buf, decoded);
  if (invalid) out.push(diag(ctx, line, invalidUtf8Message(invalid), 'warning'));
  if (parsed.nonFinite) out.push(diag(ctx, line, nonFiniteMessage(parsed), 'warning'));
  out.push({ line, value: parsed.value, text: parsed.text, offset: 0, bytes: buf.length });
  return out;
}

async function lastByteIsNewline(absPath: string, size: number): Promise<boolean> {
  if (size === 0) return true;
  const fh = await open(absPath, 'r');
  try {
    const b = Buffer.alloc(1);
    await fh.read(b, 0, 1, size - 1);
    return b[0] === 0x0a;
  } finally {
    await fh.close();
  }
}

/** Whether an item of `readJsonLines` is a diagnostic event rather than a record. */
export function isEvent(x: JsonLine | ReadEvent): x is ReadEvent {
  return (x as ReadEvent).kind !== undefined;
}

/** How a correctness value was read. */
export type CorrectKind = 'bool' | 'number' | 'string' | 'null' | 'invalid';

/**
 * The number a string spells in decimal (`"1.0"`, `"1."`, `" 0.00 "`, `"-0"`, `".5"`, `"1e0"`: trimmed),
 * or null for any other value (`"0x1"`, `"Infinity"`, `""`, `"1/2"`, numbers, booleans). Python's
 * `str(float)` writes verdicts as `"1.0"` / `"0.0"` (trial 5 finding 4).
 */
export function decimalString(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/**
 * Reads a correctness label. Policy:
 * - `true`/`false` as is; numbers `1`/`0` as true/false (kind `number`);
 * - strings `"true"`/`"false"`, `"yes"`/`"no"`, `"correct"`/`"incorrect"`, `"C"`/`"I"`, and decimal
 *   strings that spell 1 or 0 (`"1"`, `"1.0"`, `"1."`, `"0.00"`: {@link decimalString})
 *   (case-insensitive, trimmed) as true/false (kind `string`: callers warn once per file); a decimal
 *   string of another number (`"0.5"`) is not a verdict (kind `invalid`; {@link VerdictReader} reads it
 *   as the score it spells);
 * - `null`/missing: `null` (ungraded);
 * - anything else (other numbers, other strings, arrays, objects): `null`, kind `invalid` (callers warn).
 */
export function toCorrect(v: unknown): { value: boolean | null; kind: CorrectKind } {
  if (typeof v === 'boolean') return { value: v, kind: 'bool' };
  if (v === null || v === undefined) return { value: null, kind: 'null' };
  if (typeof v === 'number') {
    if (v === 1) return { value: true, kind: 'number' };
    if (v === 0) return { value: false, kind: 'number' };
    return { value: null, kind: 'invalid' };
  }
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true' || s === '1' || s === 'yes' || s === 'correct' || s === 'c')
      return { value: true, kind: 'string' };
    if (s === 'false' || s === '0' || s === 'no' || s === 'incorrect' || s === 'i')
      return { value: false, kind: 'string' };
    const n = decimalString(s);
    if (n === 1 || n === 0) return { value: n === 1, kind: 'string' };
  }
  return { value: null, kind: 'invalid' };
}

/**
 * The once-per-file warning for correctness values given as strings (`"yes"`, `"true"`, `"C"`): says
 * how the first one met (`v`, on the warning's line) was read, and which strings are verdicts, so a
 * `"yes"` is not explained as if it were `"true"`.
 * @param field the field's name in the message (`passed`, `score`, `fields.correct 'ok'`).
 */
export function stringVerdictWarning(field: string, v: unknown, value: boolean | null): string {
  const shown = typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : String(v);
  return `${field} values are strings; read as verdicts (${shown} here as ${value ? 'correct' : 'incorrect'}; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)`;
}

/** How a correctness value was read by a {@link VerdictReader}: as {@link toCorrect}, or `score` (a value of a column of scores). */
export type VerdictKind = CorrectKind | 'score';

/** The number a correctness value spells: a finite number, or a decimal string (`"1"`, `"1.0"`, `"0.5"`); else null. */
export function spelledNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return decimalString(v);
}

/**
 * Reads the correctness values of one column (field) of one file, telling verdicts from scores. ONE rule
 * per file and column (trial 6 finding 3), never per value:
 * - with a threshold x (`ctx.correctThreshold`, or the mapping's own `correctThreshold`): every value that
 *   spells a number (numbers and decimal strings alike: `1`, `"1"`, `"1.0"`, `"0.7"`) is a verdict,
 *   `value >= x` correct; booleans and words (`true`, `"yes"`, `"C"`) as {@link toCorrect}; an info
 *   diagnostic counts the values other than 0/1;
 * - without one, partial credit: a column whose values are verdicts (booleans, words, 0/1) and numbers strictly
 *   between 0 and 1 (`[true, 0.5, 0.5, false]`, `[1, 0, 0.5]`) holds verdicts with partial credit; pass requires
 *   full credit, so such a number is a graded sample NOT correct (as Inspect's `P`), and one warning per file
 *   counts them and says "partial credit counted as not correct" (trial 12 finding 6: they were ungraded, so n
 *   shrank by exactly the samples the grader judged not fully correct and pass@k rose);
 * - without one, scores: if the column holds a number outside [0, 1] (a rating `7`, a reward `-0.5`), or
 *   numbers strictly between 0 and 1 and no verdict at all (`[0.3, 0.25]`: a column of scores), the column
 *   holds scores, not verdicts, and EVERY value of it that
 *   spells a number is a score, ungraded: numbers and decimal strings (`1`, `"1"`, `"1.0"`) alike, also
 *   those read before the first score (an `ungrade` event names their lines, see model.ts `ReadEvent`),
 *   with one warning per file that says so and names the threshold option. So pass@k is never computed
 *   over a subset of samples chosen by their score value. Booleans and words (`true`, `"yes"`, `"C"`)
 *   cannot be scores and stay verdicts. Otherwise values are verdicts as {@link toCorrect}.
 *   (An `ungrade` names lines; on a line that also holds words or booleans it names the samples of the
 *   0/1 values by the index the reader gave them, so the words stay graded.)
 * The once-per-file "values are strings" warning is given by {@link finish}, only when the strings were
 * read as verdicts (so its wording matches what was done); callers do not warn about `string` kinds.
 * Readers that see every value before emitting records call {@link prescan} first and need no `ungrade`.
 */
export class VerdictReader {
  private readonly gradedLines: number[] = [];
  /** Samples graded from a 0/1 on lines that also hold word or boolean verdicts (those must stay graded). */
  private readonly gradedSamples: { line: number; sampleIndex: number }[] = [];
  /** The line being read: the sample indices of its 0/1 verdicts (undefined: not given), and whether it holds a word/boolean verdict. */
  private cur: { line: number; numeric: (number | undefined)[]; word: boolean } | null = null;
  private firstScore: { line: number; value: unknown } | null = null;
  private firstString: { line: number; value: unknown; read: boolean | null } | null = null;
  /** Values that spell a number outside [0, 1] (without a threshold). */
  private scores = 0;
  /** Values that spell a number strictly between 0 and 1 (without a threshold): partial credit or scores. */
  private partial = 0;
  private firstPartial: { line: number; value: unknown } | null = null;
  /** Boolean and word verdicts (`true`, `"yes"`, `"C"`): with 0/1 values, they make fractions partial credit. */
  private wordLike = 0;
  /** Whether {@link finish} found the column to hold scores (a number outside [0, 1], or fractions only). */
  private scoresAtFinish = false;
  /** Values spelling 0 or 1 (`1`, `"0"`, `"1.0"`): verdicts unless the column holds scores. */
  private verdictLike = 0;
  /** The spellings of the 0/1 values seen, in order of first sight (`1`, `"1.0"`), for the warning (trial 12 finding 19). */
  private readonly verdictSpellings = new Set<string>();
  private thresholded: { count: number; line: number } | null = null;

  constructor(
    private readonly ctx: Pick<ReaderContext, 'relPath'>,
    /** The field's name in messages (`score`, `correct`, `infos[].r`). */
    private readonly field: string,
    private readonly threshold: number | undefined,
  ) {}

  /**
   * Looks at every value of the column first: a value spelling a number outside [0, 1], or numbers strictly
   * between 0 and 1 without any verdict (boolean, word, 0/1) beside them, make all values scores; numbers
   * strictly between 0 and 1 beside verdicts stay partial credit (read as not correct).
   */
  prescan(values: Iterable<unknown>, line: number): void {
    if (this.threshold !== undefined) return;
    let fraction: unknown;
    let verdict = false;
    for (const v of values) {
      const n = spelledNumber(v);
      if (n !== null && (n < 0 || n > 1)) {
        this.firstScore = { line, value: v };
        return;
      }
      if (n !== null && n !== 0 && n !== 1) fraction ??= v;
      else if (n !== null || toCorrect(v).value !== null) verdict = true;
    }
    if (fraction !== undefined && !verdict) this.firstScore = { line, value: fraction };
  }

  /**
   * Reads one correctness value of the record at `line` (see the class policy). `sampleIndex`: the index
   * the reader gives the sample (when it gives one), so that a later `ungrade` of a line that mixes 0/1
   * values with words or booleans (`["true", "1", "no"]`) names only the samples graded from a 0/1.
   */
  read(v: unknown, line: number, sampleIndex?: number): { value: boolean | null; kind: VerdictKind } {
    const n = spelledNumber(v);
    if (this.threshold !== undefined) {
      if (n === null) return this.note(toCorrect(v), v, line);
      if (n !== 0 && n !== 1) {
        this.thresholded ??= { count: 0, line };
        this.thresholded.count++;
      }
      return { value: n >= this.threshold, kind: typeof v === 'string' ? 'string' : 'number' };
    }
    if (n !== null && (n < 0 || n > 1)) {
      this.firstScore ??= { line, value: v };
      this.scores++;
      return { value: null, kind: 'score' };
    }
    if (n !== null && n !== 0 && n !== 1) {
      // partial credit (not correct) unless the column turns out to hold scores (then ungraded by `ungrade`)
      this.firstPartial ??= { line, value: v };
      this.partial++;
      if (this.firstScore) return { value: null, kind: 'score' };
      this.line(line).numeric.push(sampleIndex);
      return { value: false, kind: 'number' };
    }
    const r = toCorrect(v);
    if (n === null || r.value === null) {
      // a word or boolean verdict: stays one even if the column turns out to hold scores
      if (r.value !== null) this.wordLike++;
      if (r.value !== null && !this.firstScore) this.line(line).word = true;
      return this.note(r, v, line);
    }
    // a 0/1 (number or string): a verdict unless the column holds scores
    this.verdictLike++;
    if (this.verdictSpellings.size < 8)
      this.verdictSpellings.add(typeof v === 'string' ? JSON.stringify(v) : String(v));
    if (this.firstScore) return { value: null, kind: 'score' };
    this.line(line).numeric.push(sampleIndex);
    return this.note(r, v, line);
  }

  /** The bookkeeping of `line`, flushing the line before it into {@link gradedLines} / {@link gradedSamples}. */
  private line(line: number): { line: number; numeric: (number | undefined)[]; word: boolean } {
    if (this.cur?.line === line) return this.cur;
    this.flushLine();
    this.cur = { line, numeric: [], word: false };
    return this.cur;
  }

  private flushLine(): void {
    const c = this.cur;
    this.cur = null;
    if (!c || c.numeric.length === 0) return;
    // a line of 0/1 values only is ungraded whole; beside words, only its 0/1 samples (when their indices are known)
    if (!c.word || c.numeric.some((i) => i === undefined)) this.gradedLines.push(c.line);
    else for (const i of c.numeric) this.gradedSamples.push({ line: c.line, sampleIndex: i as number });
  }

  private note(r: { value: boolean | null; kind: CorrectKind }, v: unknown, line: number) {
    if (r.kind === 'string') this.firstString ??= { line, value: v, read: r.value };
    return r;
  }

  /**
   * Whether the column holds scores, not verdicts (a number outside [0, 1], or numbers strictly between 0 and 1
   * without any verdict; without a threshold): while reading, as far as seen; after {@link finish}, final.
   */
  holdsScores(): boolean {
    return this.firstScore !== null || this.scoresAtFinish;
  }

  /** The file's diagnostics about its scores (or string verdicts) and the `ungrade` event, after its last record. */
  finish(): ReadEvent[] {
    const out: ReadEvent[] = [];
    // numbers strictly between 0 and 1 and no verdict beside them: a column of scores, as a number outside [0, 1]
    const onlyFractions = this.partial > 0 && this.verdictLike + this.wordLike === 0;
    const scoreSeen = this.firstScore ?? (onlyFractions ? this.firstPartial : null);
    this.scoresAtFinish = scoreSeen !== null;
    if (scoreSeen) {
      const { line, value } = scoreSeen;
      const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
      const v = this.verdictLike;
      const scores = this.scores + this.partial;
      const n = scores + v;
      // the spellings this file holds, not every spelling a 0/1 could have (trial 12 finding 19)
      const also = v > 0 ? ` and its ${plural(v, 'value')} 0/1 (${[...this.verdictSpellings].join(', ')})` : '';
      out.push(
        diag(
          this.ctx,
          line,
          `${this.field} values are scores, not verdicts (values other than 0/1, e.g. ${shown}): every ${this.field} value of this file that spells a number is a score (numbers and numeric strings alike), so its ${plural(scores, 'score')} other than 0/1${also} ${n === 1 ? 'is' : 'are'} ungraded (true/false and words such as "yes" stay verdicts); to count a score >= x as correct, give --correct-threshold x (setting traceInspector.correctThreshold)`,
          'warning',
        ),
      );
      this.flushLine();
      if (this.gradedLines.length > 0 || this.gradedSamples.length > 0) {
        out.push({
          kind: 'ungrade',
          lines: this.gradedLines.splice(0),
          ...(this.gradedSamples.length > 0 ? { samples: this.gradedSamples.splice(0) } : {}),
        });
      }
    } else {
      if (this.firstPartial) {
        const { line, value } = this.firstPartial;
        const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
        out.push(
          diag(
            this.ctx,
            line,
            `${this.field}: ${plural(this.partial, 'sample')} with partial credit (a number strictly between 0 and 1 among verdicts, e.g. ${shown} here): partial credit counted as not correct (pass requires full credit; ${this.partial === 1 ? 'it stays' : 'they stay'} in n); to count a score >= x as correct, give --correct-threshold x (setting traceInspector.correctThreshold)`,
            'warning',
          ),
        );
      }
      if (this.firstString) {
        const { line, value, read } = this.firstString;
        out.push(diag(this.ctx, line, stringVerdictWarning(this.field, value, read), 'warning'));
      }
    }
    if (this.thresholded) {
      out.push(
        diag(
          this.ctx,
          this.thresholded.line,
          `${this.thresholded.count} ${this.field} values are scores other than 0/1, read as verdicts with the threshold ${this.threshold} (a score >= ${this.threshold} is correct)`,
          'info',
        ),
      );
    }
    return out;
  }
}

/**
 * Whether a configured correct value (a mapping's `correctValues` entry) matches a value of a file. Rule
 * (trial 6 finding 9): equal as JSON (`"passed"` and `"passed"`); or both spell the same number, numbers
 * and decimal strings alike (`1`, `"1"`, `"1.0"`, `" 1 "`, `"1e0"` are one value; `1` is not `"01x"`);
 * or a boolean and its text (`true` and `"true"`, any case, trimmed). Other strings match exactly (case
 * and spaces count: `"Passed"` is not `"passed"`).
 */
export function sameCorrectValue(configured: unknown, v: unknown): boolean {
  if (configured === v) return true;
  const a = spelledNumber(configured);
  if (a !== null) return a === spelledNumber(v);
  if (typeof configured === 'boolean') return typeof v === 'string' && v.trim().toLowerCase() === String(configured);
  if (typeof v === 'boolean') return typeof configured === 'string' && configured.trim().toLowerCase() === String(v);
  return false;
}

/** A string for a scalar (numbers and booleans stringified); `null` for null, missing, arrays and objects. */
export function toStr(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return null;
}

/**
 * A reference answer: a string or number as text ({@link toStr}); a list of them (accepted answers:
 * Inspect's `target: ["12", "twelve"]`, a JSON array in other formats) stored as answer equivalence
 * reads it (`encodeReferenceList`: one element as itself, several as a JSON array); else `null`.
 */
export function toReference(v: unknown): string | null {
  if (!Array.isArray(v)) return toStr(v);
  return encodeReferenceList(v.map(toStr).filter((x): x is string => x !== null));
}

/** A finite number, or `null` (numeric strings are accepted: `"3.5"` -> 3.5). */
export function toNum(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A string that names an infinite number: `inf`, `-inf`, `+Infinity`, `-infinity` (trimmed, any case); its sign, else 0. */
function infinitySign(s: string): number {
  const m = /^([+-]?)(?:inf|infinity)$/i.exec(s.trim());
  return m ? (m[1] === '-' ? -1 : 1) : 0;
}

/**
 * A score value (a reward model's score, a scorer's score): a number, or a string that spells one, where
 * `-Infinity` and `Infinity` are the lowest and highest scores, not missing values (issue 32): the numbers
 * themselves (a JSON number too large for a double, `-1e999`, and Python's `-Infinity` literal, which
 * {@link parseJsonTolerant} reads so, are such numbers), and the strings `-inf`, `inf`, `-Infinity`, `Infinity`
 * (any case, an optional `+`). NaN (the number, or a string `nan`) is a missing value: `null`, as is anything else.
 */
export function scoreNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v !== 'string') return null;
  const sign = infinitySign(v);
  if (sign !== 0) return sign * Number.POSITIVE_INFINITY;
  return toNum(v);
}

/**
 * A reward score from either a number or a list whose last element is the score (the Qwen2.5-Math
 * `pred_score` shape `[[3.5], [2.1]]`: per sample a list, last element = score), read by {@link scoreNumber}
 * (`-Infinity` is the lowest score). `null` otherwise.
 */
export function toScore(v: unknown): number | null {
  if (Array.isArray(v)) return v.length === 0 ? null : toScore(v[v.length - 1]);
  return scoreNumber(v);
}

/** Normalises a difficulty level: `"Level 3"` -> `"3"`, `3` -> `"3"`, other strings as is, else `null`. */
export function toLevel(v: unknown): string | null {
  const s = toStr(v);
  if (s === null) return null;
  const m = /^\s*level\s*(\d+)\s*$/i.exec(s);
  return m ? m[1] : s;
}

/** File name without its directory and its last extension: `a/b/run.jsonl` -> `run`. */
export function fileStem(relPath: string): string {
  const base = path.posix.basename(relPath);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * The training step a file's name gives, as a revision (`step-100`), or null: a stem of digits only
 * (verl's `val_generations/100.jsonl`) or a step word and number in the stem (`global_step_100.jsonl`,
 * `step-100.jsonl`, `checkpoint_500.jsonl`, `val_step100.jsonl`; the words of series.ts
 * `DEFAULT_STEP_PATTERN`). Files of one model that differ by it are checkpoints, not seed shards
 * (trial 5 finding 6).
 */
export function fileStep(relPath: string): string | null {
  const stem = fileStem(relPath);
  if (/^\d+$/.test(stem)) return `step-${Number(stem)}`;
  const m = /(?<![a-z0-9])(?:global[_-]?step|steps?|checkpoint|ckpt|iter(?:ation)?)[-_=.]?(\d+)(?![a-z0-9])/i.exec(
    stem,
  );
  return m ? `step-${Number(m[1])}` : null;
}

/**
 * The words a results file is named by when it does not name its model (lower case): a stem made only of
 * these and seed tokens (`samples`, `results`, `samples_results`, `outputs`, `generations`, `completions`,
 * `preds`, `eval_results`, `seed0`) is generic, and the model is named after its folder ({@link pathModelName}).
 */
export const GENERIC_STEM_WORDS: ReadonlySet<string> = new Set([
  'sample',
  'samples',
  'result',
  'results',
  'generation',
  'generations',
  'generated',
  'completion',
  'completions',
  'pred',
  'preds',
  'prediction',
  'predictions',
  'response',
  'responses',
  'answer',
  'answers',
  'rollout',
  'rollouts',
  'trace',
  'traces',
  'eval',
  'evals',
  'evaluation',
  'model',
  // verl's validation outputs (`val_generations/`; trial 12 finding 14)
  'val',
  'validation',
  // folders of run outputs (trial 8 findings 6 and 8): `outputs`, Hydra's `multirun`, `out`, `logs` (nameTokens.ts)
  ...RUN_OUTPUT_WORDS,
]);

/**
 * Dataset names that name no model (lower case; trial 7 findings 3 and 10): a folder so named
 * (`Qwen2.5-7B/humaneval/samples.jsonl`) or a stem word (`humaneval_samples.jsonl_results.jsonl`) says what
 * was evaluated, not by which model.
 */
export const DATASET_WORDS: ReadonlySet<string> = new Set([
  'humaneval',
  'humanevalplus',
  'mbpp',
  'mbppplus',
  'livecodebench',
  'lcb',
  'apps',
  'codecontests',
  'gsm8k',
  'math',
  'math500',
  'aime',
  'aime24',
  'aime25',
  'amc',
  'amc23',
  'minerva',
  'minerva_math',
  'minerva_math500',
  'hendrycks_math',
  'gsm8k_cot',
  'mmlu_pro',
  'gpqa_diamond',
  'ifeval',
  'bbh',
  'aime2024',
  'aime2025',
  'olympiadbench',
  'gpqa',
  'mmlu',
  'arc',
  'svamp',
  'asdiv',
  'gaokao2023en',
  'college_math',
  'tabmwp',
  'mawps',
  'carp_en',
  'cn_middle_school',
  'sat_math',
  'game24',
]);

/**
 * The key a dataset name is matched by, whatever its spelling (trial 8 finding 1): lower case, without `-`, `_`,
 * `.` and spaces, a year at the end shortened to its last two digits (`MATH-500` -> `math500`, `humaneval_plus`
 * -> `humanevalplus`, `aime_2024` and `AIME24` -> `aime24`, `HumanEval` -> `humaneval`).
 */
export function datasetKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[-_.\s]+/g, '')
    .replace(/20(\d\d)$/, '$1');
}

/** {@link DATASET_WORDS} by {@link datasetKey}. */
const DATASET_KEYS: ReadonlySet<string> = new Set([...DATASET_WORDS].map(datasetKey));

/**
 * Whether a name (a folder, a stem or one word of it) spells a known dataset ({@link DATASET_WORDS}) in any
 * spelling {@link datasetKey} reads: `HumanEval`, `humaneval_plus`, `MATH-500`, `math_500`, `aime_2024`, `AIME24`;
 * or a version of one (`livecodebench_v5`, `mbpp-v2`: another dataset than `livecodebench`, by its key).
 */
export function isDatasetName(name: string): boolean {
  if (name === '') return false;
  const key = datasetKey(name);
  // a version of a known dataset (`livecodebench_v5`, `mbpp-v2`: trial 9 finding 7) is a dataset of its own
  return DATASET_KEYS.has(key) || DATASET_KEYS.has(key.replace(/v\d+$/, ''));
}

/**
 * The dataset a file's folders name: the nearest folder whose name is a known dataset in any spelling
 * ({@link isDatasetName}: `Qwen2.5-7B/MATH-500/samples.jsonl` -> `MATH-500`), as spelt; undefined when none does.
 * Readers take it as the dataset of records that name none (trial 7 finding 3, trial 8 finding 1), so two dataset
 * folders never fall into one `default` dataset.
 */
export function folderDataset(relPath: string, layoutDatasets: readonly string[] = []): string | undefined {
  return dirSegments(relPath)
    .reverse()
    .find((d) => isDatasetName(d) || layoutDatasets.includes(d));
}

/**
 * The dataset a file stem names (trial 9 findings 1 and 6): the first dataset in any spelling ({@link isDatasetName},
 * in one, two or three words: `gsm8k`, `MATH-500`, `aime_2024`) of a stem that names no model ({@link isGenericStem}:
 * `gsm8k`, `math500_samples`, `aime_2024_samples`, `gsm8k_rollouts`, `samples_t0.6_MATH-500`), as spelt; undefined
 * for stems that name a model (`Qwen2.5-Math-7B-gsm8k-sft`: the dataset word is the model's), and for stems without a
 * dataset (`samples`). Seed tokens, dates and a temperature are passed over. An lm-eval-harness stem
 * `samples_<task>_<date>` gives the task whole (`minerva_math_algebra`, not `minerva_math`). Pure.
 */
export function stemDataset(stem: string): string | undefined {
  // lm-eval-harness's `samples_<task>_<date>`: the task whole (`minerva_math_algebra`, a sub-task of
  // `minerva_math`; `mmlu_pro_math`), known dataset or not, never the first known dataset inside it
  const lmEvalTask = LM_EVAL_SAMPLES_STEM.exec(stem)?.[1];
  if (lmEvalTask !== undefined) return lmEvalTask;
  const temp = TEMPERATURE_TOKEN.exec(stem);
  const rest = temp ? stem.replace(TEMPERATURE_TOKEN, '') : stem;
  if (!isGenericStem(rest)) return undefined;
  const words = stripSeedTokens(rest.replace(DATE_TIME_TOKEN, ''))
    .split(/[-_.\s]+/)
    .filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    for (let len = Math.min(3, words.length - i); len >= 1; len--) {
      const parts = words.slice(i, i + len);
      if (isDatasetName(parts.join(''))) {
        // as spelt, with the stem's own separators (`MATH-500`, `aime_2024`)
        const m = new RegExp(parts.map(escapeRegExp).join('[-_.\\s]+')).exec(rest);
        return m ? m[0] : parts.join('_');
      }
    }
  }
  return undefined;
}

/** `s` with the characters a RegExp reads specially escaped. */
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The dataset a results file's path names (trial 9 findings 1 and 6): the file's stem ({@link stemDataset}:
 * `Qwen2.5-7B/math500.jsonl` -> `math500`, `gsm8k_rollouts.jsonl` -> `gsm8k`), else its nearest dataset folder
 * ({@link folderDataset}); undefined when neither names one. The stem is the file's own word for what it holds, so
 * files of one model named by different datasets are never seed shards of one dataset's problems.
 * @param stem the file name without the reader's extensions (`samples` of `samples.jsonl_results.jsonl`).
 */
export function pathDataset(relPath: string, stem: string, layoutDatasets: readonly string[] = []): string | undefined {
  return stemDataset(stem) ?? folderDataset(relPath, layoutDatasets);
}

/**
 * One spelling per dataset that the listed files spell in two or more ways (trial 9 finding 9): the base's
 * `MATH-500/` and the RL run's `math500/`, `aime_2024/` and `aime24/` are one dataset each ({@link datasetKey}), so
 * their problems are paired. The spellings are the known datasets ({@link isDatasetName}) in the files' folders and
 * stems ({@link stemDataset}); the one kept is the spelling of the most files, ties to the first in code-point order
 * (`MATH-500` before `math500`, `aime24` before `aime_2024`), whatever order the files are read in. Two spellings side by
 * side in one folder (`Qwen2.5-7B/HumanEvalPlus/` and `Qwen2.5-7B/humaneval-plus/`) stay two datasets. Pure.
 * @param relPaths the listed files, relative POSIX paths.
 * @returns spelling by {@link datasetKey}, only for datasets spelt two or more ways (empty when none is).
 */
export function datasetSpellings(relPaths: readonly string[]): Record<string, string> {
  const byKey = new Map<string, Map<string, number>>();
  // the folders that hold each spelling (the path before it): two spellings side by side in one folder
  // (`Qwen2.5-7B/HumanEvalPlus/` beside `Qwen2.5-7B/humaneval-plus/`) are two folders kept apart on purpose
  const holders = new Map<string, Map<string, string>>();
  const sideBySide = new Set<string>();
  const note = (name: string, holder: string) => {
    const key = datasetKey(name);
    const counts = byKey.get(key) ?? new Map<string, number>();
    counts.set(name, (counts.get(name) ?? 0) + 1);
    byKey.set(key, counts);
    const h = holders.get(key) ?? new Map<string, string>();
    const other = h.get(holder);
    if (other !== undefined && other !== name) sideBySide.add(key);
    h.set(holder, name);
    holders.set(key, h);
  };
  for (const rel of relPaths) {
    const dirs = dirSegments(rel);
    dirs.forEach((d, i) => {
      if (isDatasetName(d)) note(d, dirs.slice(0, i).join('/'));
    });
    const stem = stemDataset(fileStem(path.posix.basename(rel).replace(/(?:\.jsonl)?_results\.jsonl$/i, '.jsonl')));
    if (stem !== undefined) note(stem, dirs.join('/'));
  }
  const out: Record<string, string> = {};
  for (const [key, counts] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (counts.size < 2 || sideBySide.has(key)) continue;
    const [first] = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
    out[key] = first[0];
  }
  return out;
}

/**
 * Whether a folder name reads as a model's: a base / RL word, a step or checkpoint ({@link MODEL_FOLDER_WORD}), or a
 * model size or family ({@link MODEL_NAME_HINT}): `Qwen2.5-7B-GRPO`, `llama-70b`, `exp1-sft`; not `bench_a`, `gsm8k`.
 */
export function looksLikeModelName(name: string): boolean {
  return MODEL_FOLDER_WORD.test(name) || MODEL_NAME_HINT.test(name);
}

/**
 * Folder names that the layout of a results folder shows to be datasets or configs, not models (trial 8 finding 1):
 * a folder that holds results files directly and sits under two or more different folders that name models
 * (`Qwen2.5-7B/my_bench/samples.jsonl` beside `Qwen2.5-7B-GRPO/my_bench/samples.jsonl`: `my_bench`, the
 * same name under each model, is what they were evaluated on). Not: names that already name no model (generic,
 * dataset, seed, date and temperature folders), numbers, and names with a base / RL word, a step or a seed
 * ({@link MODEL_FOLDER_WORD}: `exp1/sft/` beside `exp2/sft/` names the models `sft`), and names with a model size or
 * family ({@link MODEL_NAME_HINT}: `bench_a/Qwen2.5-7B/` beside `bench_b/Qwen2.5-7B/`). Under one model folder only, such
 * a folder is a dataset too when that model folder ({@link looksLikeModelName}) also holds results files directly or a
 * known dataset folder (`Qwen2.5-7B-GRPO/my_bench/` beside `Qwen2.5-7B-GRPO/samples.jsonl` or
 * `Qwen2.5-7B-GRPO/olympiadbench/`: trial 9 finding 7), so its problems are never paired with the base's problems of
 * another dataset. A folder above model folders beside a known dataset folder above model folders is one too
 * (`my_hard_set/Qwen2.5-7B-GRPO/` beside `gsm8k/Qwen2.5-7B/`: trial 12 finding 11). Sorted; pure.
 * @param relPaths the listed files, relative POSIX paths.
 */
export function layoutDatasetFolders(relPaths: readonly string[]): string[] {
  const parents = new Map<string, Set<string>>();
  // folders that hold results files directly, and folders with a known dataset folder below them
  const holders = new Set(relPaths.map((rel) => dirSegments(rel).join('/')));
  const withDataset = new Set<string>();
  for (const rel of relPaths) {
    const dirs = dirSegments(rel);
    if (dirs.length >= 2 && isDatasetName(dirs[dirs.length - 1])) withDataset.add(dirs.slice(0, -1).join('/'));
  }
  const besideData = new Set<string>();
  for (const rel of relPaths) {
    const dirs = dirSegments(rel);
    if (dirs.length < 2) continue;
    const b = dirs[dirs.length - 1];
    const a = dirs[dirs.length - 2];
    // a logging tool's own folders (`mlruns/0/<run id>/artifacts/`: trial 12 finding 4) are no dataset of any model
    if (isLoggingToolFolder(dirs, dirs.length - 1) || isLoggingToolFolder(dirs, dirs.length - 2)) continue;
    if (namesNoModel(b) || folderTemperature(b) !== undefined || /^\d+$/.test(b) || MODEL_FOLDER_WORD.test(b)) continue;
    if (MODEL_NAME_HINT.test(b)) continue;
    if (stripSeedTokens(b) !== b || b.replace(DATE_TIME_TOKEN, '') !== b) continue;
    if (namesNoModel(a) || folderTemperature(a) !== undefined) continue;
    const parent = dirs.slice(0, -1).join('/');
    parents.set(b, (parents.get(b) ?? new Set()).add(parent));
    // under one model folder only, beside that model's own results or a known dataset folder (trial 9 finding 7:
    // `Qwen2.5-7B-GRPO/my_bench/` beside `Qwen2.5-7B-GRPO/samples.jsonl`): another dataset of that model
    if (looksLikeModelName(a) && (holders.has(parent) || withDataset.has(parent))) besideData.add(b);
  }
  // benchmark folders above the model folders (`my_hard_set/Qwen2.5-7B-GRPO/` beside `gsm8k/Qwen2.5-7B/` and
  // `aime24/Qwen2.5-7B/`): a folder holding a model folder with results, beside a known dataset folder holding one
  // (trial 12 finding 11: its problems were dataset `default`)
  const benchmarks = new Map<string, { known: boolean; names: Set<string> }>();
  for (const rel of relPaths) {
    const dirs = dirSegments(rel);
    if (dirs.length < 2) continue;
    const b = dirs[dirs.length - 1];
    const a = dirs[dirs.length - 2];
    if (!looksLikeModelName(b) || looksLikeModelName(a)) continue;
    if (isLoggingToolFolder(dirs, dirs.length - 2) || folderTemperature(a) !== undefined || /^\d+$/.test(a)) continue;
    if (stripSeedTokens(a) !== a || a.replace(DATE_TIME_TOKEN, '') !== a) continue;
    const key = dirs.slice(0, -2).join('/');
    const g = benchmarks.get(key) ?? { known: false, names: new Set<string>() };
    if (isDatasetName(a)) g.known = true;
    else if (!namesNoModel(a)) g.names.add(a);
    benchmarks.set(key, g);
  }
  const above = [...benchmarks.values()].filter((g) => g.known).flatMap((g) => [...g.names]);
  return [
    ...new Set([...[...parents].filter(([b, s]) => s.size >= 2 || besideData.has(b)).map(([b]) => b), ...above]),
  ].sort();
}

/** A number-of-samples word of a file name (`n4`, `n16` of `samples_n4_temp0.6`): names no model. */
const SAMPLE_COUNT_WORD = /^n\d+$/;

/** A date or time in a name (nameTokens.ts); re-exported for the readers' callers. */
export { DATE_TIME_TOKEN };

/**
 * A sampling temperature in a file stem or folder name, with the separator before it: `t` and a decimal (`t0.6`,
 * `t1.0`) or the integer 0, 1 or 2 (`t0`, `t1`: trial 8 finding 2c; not `t5` of `flan-t5`), `t=` / `T=` and a number
 * (`T=0.8`, `t=0.6`: trial 12 finding 12), or `temp` / `tmp` / `temperature` and a number (`temp1`, `temp_1.0`,
 * `temp-0.6`, `temperature=0.7`, `tmp0.6`), or the word `greedy` (temperature 0; trial 9 finding 5). Groups: 1 the `t`,
 * 2 the `=` after it, 3 the word `temp` / `tmp` / `temperature`, 4 the number, 5 `greedy`.
 */
const TEMPERATURE_TOKEN =
  /(?:^|[-_.])(?:(?:(t)(?:(=)(?=\d)|(?=\d+\.\d|[0-2](?![\d.])))|(temp|tmp|temperature)[-_=]?)(\d+(?:\.\d+)?)|(greedy))(?=[-_.]|$)/i;

/**
 * The model-name variant of a {@link TEMPERATURE_TOKEN} match: as spelt (`t0.6`, `T0.6`, `temp1.0`, `tmp0.6`), `t` and
 * the number for `t=` / `T=` (`T=0.8` -> `t0.8`: a name keeps no `=`), `greedy` for greedy decoding (temperature 0:
 * `humaneval_greedy`, `samples-greedy`, a `greedy/` folder; trial 9 finding 5; index/labels.ts reads `_greedy` as t0).
 */
function temperatureVariant(temp: RegExpExecArray): string {
  if (temp[5] !== undefined) return 'greedy';
  if (temp[2] !== undefined) return `t${temp[4]}`;
  return `${temp[1] ?? temp[3]}${temp[4]}`;
}

/**
 * Sampling settings beside a temperature in a folder or file name (trial 12 finding 12): `sampling`, `top_p_0.95`,
 * `topp0.95`, `top_k_20`, `min_p_0.05`, `n8`, `max_tokens_4096`, in any order, with `-`, `_` or `.` between. A name
 * holding only these and a temperature (`sampling_temp_0.8_top_p_0.95`) names a sampling of the model, no model.
 */
const SAMPLING_SETTINGS_ONLY =
  /^(?:[-_.]*(?:sampling|top[-_]?p[-_=]?\d+(?:\.\d+)?|top[-_]?k[-_=]?\d+|min[-_]?p[-_=]?\d+(?:\.\d+)?|n\d+|max[-_]?tokens[-_=]?\d+))*[-_.]*$/i;

/**
 * The temperature a folder's whole name gives (`t0.6`, `temp_1.0`, `temp0.6`, `t0`: trial 8 findings 2a and 2b;
 * `T=0.8`, `t=0.6`, `tmp0.6`, `temperature=0.7`, and a temperature with other sampling settings only,
 * `sampling_temp_0.8_top_p_0.95`: trial 12 finding 12), as a model-name variant (`t0.6`, `temp1.0`, `t0.8`), or
 * undefined when the name is anything else (`Qwen2.5-7B_t0.6`).
 */
export function folderTemperature(dir: string): string | undefined {
  const t = stemTemperature(dir);
  return t && SAMPLING_SETTINGS_ONLY.test(t.rest) ? t.variant : undefined;
}

/**
 * The sampling temperature a file stem gives ({@link TEMPERATURE_TOKEN}) as a model-name variant (`t0.6` of
 * `test_qwen-boxed_-1_seed0_t0.6_s0_e-1`, `temp1` of `samples_temp1`), with the stem without it (`rest`), or
 * undefined when the stem names no temperature.
 */
export function stemTemperature(stem: string): { variant: string; rest: string } | undefined {
  const temp = TEMPERATURE_TOKEN.exec(stem);
  return temp ? { variant: temperatureVariant(temp), rest: stem.replace(TEMPERATURE_TOKEN, '') } : undefined;
}

/** The lower-case words of a name (split at `-`, `_`, `.`, spaces), with multi-word datasets kept whole. */
function nameWords(s: string): string[] {
  let t = s.toLowerCase();
  // longest first: `minerva_math500` before `minerva_math`
  const multi = [...DATASET_WORDS].filter((d) => d.includes('_')).sort((a, b) => b.length - a.length);
  for (const d of multi) t = t.split(d).join(d.replace(/_/g, '\u0000'));
  return t
    .split(/[-_.\s]+/)
    .map((w) => w.replace(/\u0000/g, '_'))
    .filter((w) => w !== '');
}

/**
 * lm-eval-harness's samples file stem, `samples_<task>_<ISO date and time>` (`samples_minerva_math_algebra_2025-01-15T10-20-30.123456`):
 * names no model whatever the task (trial 9 finding 11); the model is lm-eval's output folder above it. Group 1 is the
 * task, the file's dataset ({@link stemDataset}).
 */
const LM_EVAL_SAMPLES_STEM = /^samples_(.+)_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?$/;

/**
 * lm-eval-harness's model folder (its `--output_path/<org>__<name>/`) as the model's id: `Qwen__Qwen2.5-7B` ->
 * `Qwen/Qwen2.5-7B` (trial 9 finding 11), for a folder holding lm-eval samples files only; other names unchanged.
 */
function lmEvalModelName(folder: string, stem: string): string {
  if (!LM_EVAL_SAMPLES_STEM.test(stem)) return folder;
  const m = /^([^_/][^/]*?)__([^_/].*)$/.exec(folder);
  return m && !m[2].includes('__') ? `${m[1]}/${m[2]}` : folder;
}

/**
 * Whether a file stem names no model (an empty stem too): once seed tokens, dates and times
 * ({@link DATE_TIME_TOKEN}) are out, only {@link GENERIC_STEM_WORDS}, datasets in any spelling ({@link isDatasetName},
 * also in two words: `MATH-500`, `aime_2024`) and numbers of samples (`n4`) are left (`samples`,
 * `samples_seed0_2025-01-01`, `humaneval_samples`, lm-eval's `samples_gsm8k_2025-01-15T10-20-30.123456`, `samples_n4`).
 */
export function isGenericStem(stem: string): boolean {
  if (LM_EVAL_SAMPLES_STEM.test(stem)) return true;
  const s = stripSeedTokens(stem.replace(DATE_TIME_TOKEN, ''));
  if (isDatasetName(s)) return true;
  const words = nameWords(s);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    // a dataset spelt in two words (`MATH-500`, `aime_2024`, `humaneval_plus`), before its first word alone:
    // `aime` and `math` are datasets too, and `2024` / `500` alone would make `aime_2024_samples` a model (trial 9 finding 1)
    if (i + 1 < words.length && isDatasetName(w + words[i + 1])) {
      i++;
      continue;
    }
    if (GENERIC_STEM_WORDS.has(w) || isDatasetName(w) || SAMPLE_COUNT_WORD.test(w)) continue;
    return false;
  }
  return true;
}

/**
 * Whether a folder is a results root that names no model (trial 12 finding 16): its name is made only of
 * {@link GENERIC_STEM_WORDS} (`results`, `eval_results`, `eval_outputs`, `evaluation_results`, `outputs`,
 * `generations`), case-insensitive. Dataset names are not roots (`gsm8k/` above model folders says what was
 * evaluated); an empty name is not one either.
 */
export function isResultsRootFolder(dir: string): boolean {
  const words = nameWords(dir).filter((w) => w !== '');
  return words.length > 0 && words.every((w) => GENERIC_STEM_WORDS.has(w));
}

/**
 * Whether a folder is a Hydra override folder (`override_dirname`: `key=value` joined with `,`) of a seed and
 * sampling settings only (`seed=0,temperature=0.6`, `temperature=1.0`; keys `seed`, `temperature`, `temp`,
 * `top_p`, `top_k`, `n`, `n_samples`, `num_samples`, `max_tokens`): a run setting, no model (trial 8 finding 3).
 * `model=qwen,seed=0` names a model: false.
 */
function isSamplingOverrides(dir: string): boolean {
  const parts = dir.split(',');
  return parts.every((p) =>
    /^(?:seed|run_seed|temperature|temp|top_p|top_k|n|n_samples|num_samples|max_tokens)=[-+.\w]+$/i.test(p),
  );
}

/**
 * Whether a folder names no model, so a generic file stem below it is named after a folder above it:
 * a generic or dataset folder ({@link isGenericStem}: `outputs`, `results`, `eval`, `generations`,
 * `humaneval`, `math500`), a seed folder (`seed0`, `s1`, Hydra's `seed=0`, `run_seed=1`), a date or time
 * (Hydra's `2025-01-15/10-20-30`), verl's `actor` / `huggingface` (`global_step_100/actor/huggingface`), or a
 * Hydra override folder of a seed and sampling settings ({@link isSamplingOverrides}: `seed=0,temperature=0.6`).
 */
function namesNoModel(dir: string): boolean {
  if (/^(?:actor|huggingface|hf|hf_model)$/i.test(dir)) return true;
  // run-output folders in one or more words (`lightning_logs`, wandb's `run-20250115_102030-abc123`: trial 9 finding 13)
  if (isRunOutputFolder(dir)) return true;
  // a dated run folder (`run_20250116_110000`, TensorBoard's `Jan15_10-20-30`; trial 8 finding 8)
  const undated = dir.replace(DATE_TIME_TOKEN, '');
  if (undated !== dir && /^[-_.]*(?:run|runs|exp|experiment|job)?[-_.]*$/i.test(undated)) return true;
  if (isSamplingOverrides(dir)) return true;
  return isGenericStem(dir);
}

/**
 * The model name a results file's path gives, from its stem (the file name without the reader's
 * extensions, e.g. `samples_seed0` of `samples_seed0.jsonl_results.jsonl`):
 * - seed tokens are taken out (`codegen-350M_samples_seed1` -> `codegen-350M_samples`): seed shards of one
 *   model get one name, their samples merged by the indexer; sizes stay (`llama-7b`), run numbers are seeds (`_run1`, `run-2/`: trial 8 finding 7);
 *   a leading `s<N>` is a model's own (`s1-32B`, `s1.1-7B`: trial 7 finding 8);
 * - a generic stem ({@link isGenericStem}: `samples`, `results`, `seed0`, `samples-s1`, `humaneval_samples`,
 *   `samples_seed0_2025-01-01`) names the model after the file's folder
 *   (`starcoder-sft/samples.jsonl_results.jsonl` -> `starcoder-sft`), so the base guess reads the folder's
 *   `sft` / `rl` (trial 6 finding 1), without the folder's seed tokens (`qwen-s0/results.jsonl` -> `qwen`);
 *   folders that name no model are passed over and the folder above is taken (trial 6 finding 2, trial 7
 *   findings 3 and 9): seed folders (`rl/seed1/`, `rl/seed=0/`), generic and dataset folders
 *   (`Qwen2.5-7B/outputs/`, `Qwen2.5-7B/humaneval/`), dates and times (`Qwen2.5-7B/2025-01-15/10-20-30/`) and
 *   verl's `actor/huggingface`, and a logging tool's folders below its logging folder (nameTokens.ts
 *   `isLoggingToolFolder`: `mlruns/0/<run id>/artifacts/`, wandb's `files/media/table/`, TensorBoard's `events/`).
 *   Under such folders only, the nearest one (`seed0/samples.jsonl` -> `seed0`:
 *   seed siblings); a file at the root keeps its stem without seeds;
 * - a temperature in a generic stem (`samples_t0.6`) is a variant of the folder's model, kept in the name
 *   (`Qwen2.5-7B/samples_t0.6.jsonl` -> `Qwen2.5-7B_t0.6`; trial 7 finding 4), and so is a temperature folder
 *   ({@link folderTemperature}: `Qwen2.5-7B/temp_1.0/samples.jsonl` -> `Qwen2.5-7B_temp1.0`; trial 8 finding 2a);
 *   a number of samples in the stem names nothing (`samples_n4_temp0.6` -> `Qwen2.5-7B_temp0.6`: finding 2c);
 * - `layoutDatasets` ({@link layoutDatasetFolders}): folders the layout shows to be datasets, passed over like
 *   dataset folders (`Qwen2.5-7B/my_bench/samples.jsonl` -> `Qwen2.5-7B`; trial 8 finding 1).
 * Returns a non-empty name.
 */
export function pathModelName(relPath: string, stem: string, layoutDatasets: readonly string[] = []): string {
  const trim = (s: string) => s.replace(/^[-_.]+|[-_.]+$/g, '');
  const unseeded = trim(stripSeedTokens(stem));
  const temp = TEMPERATURE_TOKEN.exec(stem);
  const rest = temp ? stem.replace(TEMPERATURE_TOKEN, '') : stem;
  if (!isGenericStem(rest)) return unseeded || stem;
  let variant = temp ? `_${temperatureVariant(temp)}` : '';
  const dirs = dirSegments(relPath);
  for (let i = dirs.length - 1; i >= 0; i--) {
    // a temperature folder (`Qwen2.5-7B/t0.6/samples.jsonl`): a sampling of the model above (trial 8 finding 2a)
    const folderTemp = folderTemperature(dirs[i]);
    if (folderTemp !== undefined) {
      if (variant === '') variant = `_${folderTemp}`;
      continue;
    }
    if (namesNoModel(dirs[i]) || layoutDatasets.includes(dirs[i]) || isJobFolder(dirs, i)) continue;
    // a logging tool's folders below its logging folder (`mlruns/0/<run id>/artifacts/`, wandb's `files/media/table/`,
    // TensorBoard's `events/`: trial 12 finding 4): the model is the folder above the logging folder
    if (isLoggingToolFolder(dirs, i)) continue;
    const named = trim(stripSeedTokens(dirs[i]));
    if (named !== '') return lmEvalModelName(named, stem) + variant;
  }
  if (dirs.length) {
    const last = dirs[dirs.length - 1];
    return folderTemperature(last) !== undefined ? last : last + variant;
  }
  return unseeded || stem || path.posix.basename(relPath);
}

/** Directory segments of a relative POSIX path (`a/b/c.jsonl` -> `['a', 'b']`). */
export function dirSegments(relPath: string): string[] {
  const dir = path.posix.dirname(relPath);
  return dir === '.' || dir === '' ? [] : dir.split('/').filter((s) => s.length > 0);
}

/**
 * Collects warnings that are reported once per file (e.g. "score values are strings"): the first
 * occurrence gives the line; later ones are counted and not reported.
 */
export class OncePerFile {
  private seen = new Set<string>();
  /** Returns a warning event the first time `key` is seen, else `null`. */
  warn(ctx: Pick<ReaderContext, 'relPath'>, key: string, line: number, message: string): ReadEvent | null {
    if (this.seen.has(key)) return null;
    this.seen.add(key);
    return diag(ctx, line, message, 'warning');
  }
}

/** Throws the abort reason when the context's signal is aborted (called between records). */
export function checkAbort(ctx: ReaderContext): void {
  if (ctx.signal?.aborted) throw ctx.signal.reason;
}

/** A parsed JSON document with the warnings its reading gave (invalid UTF-8, NaN / Infinity literals). */
export interface JsonDocument {
  value: unknown;
  warnings: ReadEvent[];
  /** The text that was parsed, for {@link parseExactIntegers}. */
  text: string;
}

/** 1-based line of a character offset in `text`. */
function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Reads a whole JSON document (an array file, an Inspect `.json` log). Files over `maxBytes` are not
 * parsed: an error diagnostic `file too large to parse as one JSON document (N bytes > cap)` is
 * returned instead. Empty files give `empty file`, NUL bytes `binary file`, parse failures
 * `malformed JSON (...)`; all at line 0 (position inside a one-document file is not a line). A BOM is
 * stripped; Python's `NaN` / `Infinity` become `null` with a warning (at the line of the first);
 * invalid UTF-8 is a warning at the line of the first replaced sequence.
 */
export async function readJsonDocument(
  ctx: ReaderContext,
  maxBytes = MAX_JSON_DOCUMENT_BYTES,
): Promise<JsonDocument | { error: ReadEvent }> {
  const size = (await stat(ctx.absPath)).size;
  if (size > maxBytes) {
    return {
      error: diag(ctx, 0, `file too large to parse as one JSON document (${size} bytes > ${maxBytes} bytes); not read`),
    };
  }
  const buf = await readFile(ctx.absPath);
  if (hasNul(buf.subarray(0, HEAD_BYTES))) {
    return { error: diag(ctx, 0, `binary file (NUL bytes in the first ${HEAD_BYTES / 1024} KiB); not read`) };
  }
  const decoded = buf.toString('utf8');
  const warnings: ReadEvent[] = [];
  const bad = invalidUtf8Bytes(buf, decoded);
  const text = stripBom(decoded);
  if (bad > 0) warnings.push(diag(ctx, lineAt(text, text.indexOf('\uFFFD')), invalidUtf8Message(bad), 'warning'));
  if (/^\s*$/.test(text)) return { error: diag(ctx, 0, 'empty file') };
  try {
    const parsed = parseJsonTolerant(text);
    if (parsed.nonFinite > 0) {
      const at = /(?<![\w"])(-?Infinity|NaN)(?![\w$])/.exec(text)?.index ?? 0;
      warnings.push(diag(ctx, lineAt(text, at), nonFiniteMessage(parsed), 'warning'));
    }
    return { value: parsed.value, warnings, text: parsed.text };
  } catch (err) {
    return { error: diag(ctx, 0, jsonErrorMessage(err, { text, line: 1 })) };
  }
}

/**
 * The known names closest to a misspelt one, for "did you mean": Levenshtein distance (fastest-levenshtein)
 * between lower-cased names, at most 1 for names of up to 3 characters, else max(2, floor(length / 3)) of
 * the longer (so `txt` -> `text`, `modle` -> `model`, `corect` -> `correct`, `problemID` -> `problemId`), the closest first; names that differ only in case
 * come first. Empty when nothing is that close.
 * @param name the unknown name; @param known the names allowed there.
 */
export function didYouMean(name: string, known: readonly string[], max = 3): string[] {
  const n = name.toLowerCase();
  const scored = known
    .map((k) => ({ k, d: levenshtein(n, k.toLowerCase()) }))
    .filter((x) => {
      const len = Math.max(n.length, x.k.length);
      return x.d <= (len <= 3 ? 1 : Math.max(2, Math.floor(len / 3))) && x.k !== name;
    })
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  return scored.slice(0, max).map((x) => x.k);
}

/**
 * How near a miss `text` is of some part of `hay` (case-insensitive): the smallest Levenshtein distance
 * between `text` and a window of `hay` of length |text| - 1 .. |text| + 1, when it is at most
 * max(1, floor(|text| / 3)) (`naive_cto` in `gpt-4_naive_cot_sample`: 2); null otherwise, and for texts
 * under 3 characters. For "did you mean" on substring filters.
 */
export function nearSubstring(text: string, hay: string): number | null {
  const t = text.toLowerCase();
  const h = hay.toLowerCase();
  if (t.length < 3) return null;
  const max = Math.max(1, Math.floor(t.length / 3));
  let best: number | null = null;
  for (let len = Math.max(1, t.length - 1); len <= t.length + 1; len++)
    for (let i = 0; i + len <= h.length; i++) {
      const d = levenshtein(t, h.slice(i, i + len));
      if (d <= max && (best === null || d < best)) best = d;
    }
  return best;
}

/**
 * The end of the diagnostic of a sample skipped for want of text, naming the verdict it had (trial 12
 * finding 8: a failed generation with `null` text is usually graded incorrect, so dropping it silently raises
 * pass@k): `, and its verdict (score true) is lost with it`; `''` when the sample had no verdict value
 * (`undefined` or `null`). `raw` is the verdict field's value as written, `field` its name. Pure.
 */
export function verdictLost(raw: unknown, field: string): string {
  if (raw === undefined || raw === null) return '';
  let shown: string;
  try {
    shown = JSON.stringify(raw) ?? String(raw);
  } catch {
    shown = String(raw);
  }
  if (shown.length > 40) shown = `${shown.slice(0, 40)}...`;
  return `, and its verdict (${field} ${shown}) is lost with it`;
}
