/**
 * Reading text and JSON the way every part of the core must: a UTF-8 byte order mark stripped,
 * invalid UTF-8 counted (not silently replaced), Python's non-standard `NaN` / `Infinity` numbers
 * tolerated (NaN missing, Infinity a number), and integers beyond 2^53 kept exact. Pure; no `vscode` import.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';

/** `text` without a leading UTF-8 byte order mark (U+FEFF). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A file's text as UTF-8, its byte order mark stripped (results, mapping files, summaries, CSV, configs). */
export async function readTextFile(path: string): Promise<string> {
  return stripBom(await readFile(path, 'utf8'));
}

/** Synchronous {@link readTextFile}. */
export function readTextFileSync(path: string): string {
  return stripBom(readFileSync(path, 'utf8'));
}

const REPLACEMENT = '\uFFFD';
const REPLACEMENT_UTF8 = Buffer.from(REPLACEMENT, 'utf8');

function countOf(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i !== -1; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

function countBytes(b: Uint8Array, seq: Buffer): number {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  let n = 0;
  for (let i = buf.indexOf(seq); i !== -1; i = buf.indexOf(seq, i + seq.length)) n++;
  return n;
}

/**
 * How many bytes of `bytes` were not valid UTF-8, given `decoded`, their decoding with replacement
 * (Node's `toString('utf8')`: each maximal invalid subsequence becomes one U+FFFD). 0 for valid UTF-8.
 * Exact: the decoded text re-encodes to the valid bytes plus 3 bytes per replacement character that
 * decoding introduced (those in `decoded` beyond the U+FFFD already encoded in the input).
 */
export function invalidUtf8Bytes(bytes: Uint8Array, decoded: string): number {
  if (!decoded.includes(REPLACEMENT) || isUtf8(bytes)) return 0;
  const introduced = countOf(decoded, REPLACEMENT) - countBytes(bytes, REPLACEMENT_UTF8);
  return bytes.byteLength - Buffer.byteLength(decoded, 'utf8') + 3 * introduced;
}

/** The message of an invalid-UTF-8 warning. */
export function invalidUtf8Message(bytes: number): string {
  return `invalid UTF-8: ${bytes} byte${bytes === 1 ? '' : 's'} replaced by U+FFFD`;
}

/**
 * Python's `json.dumps` writes `NaN`, `Infinity` and `-Infinity`, which JSON does not allow. Matches
 * them outside strings (a string is matched whole first, so text inside one is never touched).
 */
const NON_FINITE = /"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)(?![\w$])/g;

/** Result of {@link parseJsonTolerant}. */
export interface TolerantParse {
  value: unknown;
  /** How many `NaN` literals became `null` (a missing value). */
  nan: number;
  /** How many `Infinity` / `-Infinity` literals became the numbers `Infinity` / `-Infinity`. */
  infinite: number;
  /** `nan + infinite`: how many non-standard literals were read. */
  nonFinite: number;
  /** The text that was parsed (with those literals replaced: `null`, `1e999`, `-1e999`), for {@link parseExactIntegers}. */
  text: string;
}

/**
 * Parses JSON, tolerating Python's `NaN`, `Infinity` and `-Infinity` literals (outside strings), each counted:
 * `NaN` becomes `null`, a missing value; `Infinity` and `-Infinity` become the numbers they name (written
 * `1e999` and `-1e999`, which `JSON.parse` reads as them), so that a reward score of `-Infinity` is the lowest
 * score, not a missing one (issue 32). Fast path: `JSON.parse` alone; the substitution runs only when that
 * fails. Anything else that is not JSON still throws `JSON.parse`'s error.
 */
export function parseJsonTolerant(text: string): TolerantParse {
  try {
    return { value: JSON.parse(text), nan: 0, infinite: 0, nonFinite: 0, text };
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
    let nan = 0;
    let infinite = 0;
    const fixed = text.replace(NON_FINITE, (m: string, lit: string | undefined) => {
      if (lit === undefined) return m;
      if (lit === 'NaN') {
        nan++;
        return 'null';
      }
      infinite++;
      return lit === 'Infinity' ? '1e999' : '-1e999';
    });
    if (nan + infinite === 0) throw err;
    try {
      return { value: JSON.parse(fixed), nan, infinite, nonFinite: nan + infinite, text: fixed };
    } catch {
      throw err;
    }
  }
}

/** The message of the warning on a record with Python's non-standard numbers ({@link parseJsonTolerant}). */
export function nonFiniteMessage(p: Pick<TolerantParse, 'nan' | 'infinite'>): string {
  const s = (n: number) => (n === 1 ? '' : 's');
  const parts: string[] = [];
  if (p.nan > 0)
    parts.push(
      `${p.nan} non-standard number${s(p.nan)} (NaN) read as missing value${s(p.nan)} (a missing verdict leaves its sample ungraded: in no figure; a missing reward score leaves it out of best-of-k)`,
    );
  if (p.infinite > 0)
    parts.push(
      `${p.infinite} non-standard number${s(p.infinite)} (Infinity, -Infinity) read as number${s(p.infinite)} (a reward score of -Infinity is the lowest score, Infinity the highest; neither is a verdict)`,
    );
  return parts.join('; ');
}

/** Whether `v` is an integer that a double cannot hold exactly (|v| > 2^53 - 1). */
export function isUnsafeInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);
}

type SourceReviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Parses JSON with every integer beyond 2^53 kept as the string of its digits, read from the source
 * text (JSON.parse source text access, V8 >= 11.4: Node 22, VS Code's Electron), so that ids
 * `9196877626998784` and `9196877626998785` stay distinct. Where the runtime gives no source text,
 * the number stays a number. Slow path: call it only for a record whose id is {@link isUnsafeInteger}.
 */
export function parseExactIntegers(text: string): unknown {
  const reviver: SourceReviver = (_key, value, context) =>
    isUnsafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source) ? context.source : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}
