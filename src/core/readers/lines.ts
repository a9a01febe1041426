import { createReadStream } from 'node:fs';
import { invalidUtf8Bytes } from '../text/textFile';

/** Default cap on one line's length in bytes: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Default read chunk size: 1 MiB (fewer, larger reads are faster than the 64 KiB stream default). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * One line of a text file.
 * - `line`: 1-based line number (counting every `\n`, including skipped empty lines).
 * - `text`: the decoded line without its `\n`, a trailing `\r`, or a leading UTF-8 BOM; `null` when
 *   the line was longer than the cap and was skipped (`tooLong` is then `true` and `bytes` is the
 *   line's length in bytes).
 * - `offset`, `bytes`: where the line is in the file: its first byte, and its length in bytes without
 *   the `\n` (a trailing `\r` and a BOM included); reading those bytes again with `range` gives the line.
 * - `invalidBytes`: how many bytes of the line were not valid UTF-8 (each invalid sequence became
 *   U+FFFD in `text`); absent when the line is valid.
 */
export type Line =
  | { line: number; text: string; tooLong?: false; invalidBytes?: number; offset: number; bytes: number }
  | { line: number; text: null; tooLong: true; bytes: number; offset: number };

export interface LineReaderOptions {
  /** Lines longer than this many bytes are skipped and reported (`tooLong`). Default 64 MiB. */
  maxLineBytes?: number;
  /** Read chunk size in bytes. Default 1 MiB. */
  chunkBytes?: number;
  /** Checked between chunks; when aborted the reader throws `signal.reason`. */
  signal?: AbortSignal;
  /**
   * Reads only bytes `start .. end - 1` of the file (a line's `offset` and `offset + bytes`: that line
   * again); line numbers then count from 1 at `start`, and a BOM is stripped at `start`.
   */
  range?: { start: number; end: number };
  /** The bytes of `range`, already read: they are split instead of reading the file (which is not opened). */
  bytes?: Buffer;
}

const NL = 0x0a;

/** Whether a decoded line is empty or whitespace only (cheap: the usual JSON line starts with `{`). */
function isBlank(s: string): boolean {
  if (s.length === 0) return true;
  const c = s.charCodeAt(0);
  if (c > 0x20 && c !== 0xa0 && c < 0x2000) return false;
  return /^\s*$/.test(s);
}

/** UTF-8 length of a string, computed only when the character count cannot decide against `cap`. */
function overCap(s: string, cap: number): number | null {
  if (s.length > cap) return Buffer.byteLength(s, 'utf8');
  if (s.length * 3 <= cap) return null;
  const b = Buffer.byteLength(s, 'utf8');
  return b > cap ? b : null;
}

/**
 * Streams the lines of a file in batches (one batch per read chunk), the fast path for readers.
 *
 * Behaviour:
 * - Splits on `\n`; strips one trailing `\r` (CRLF files) and a UTF-8 BOM at the start of the file.
 * - Decodes UTF-8 with replacement: invalid byte sequences become U+FFFD, never an exception. (Each
 *   chunk is decoded up to its last `\n`; a `\n` byte never occurs inside a multi-byte sequence and
 *   an invalid sequence never swallows a following ASCII byte, so this equals decoding line by line.)
 * - Skips empty and whitespace-only lines (their numbers still count).
 * - Memory is bounded by one chunk plus one line of at most `maxLineBytes`: a longer line is not
 *   accumulated; it is reported once as `{ text: null, tooLong: true }` and skipped to its end.
 * - A last line without a final `\n` is yielded like any other line.
 *
 * Errors: I/O errors of the file (missing, unreadable) are thrown; content never throws.
 */
export async function* readLineBatches(absPath: string, options: LineReaderOptions = {}): AsyncGenerator<Line[]> {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const signal = options.signal;
  const range = options.range;
  if (range && range.end <= range.start) return;
  const stream: (AsyncIterable<Buffer> | Iterable<Buffer>) & { destroy?: () => void } = options.bytes
    ? [options.bytes]
    : createReadStream(absPath, {
        highWaterMark: options.chunkBytes ?? CHUNK_BYTES,
        ...(range ? { start: range.start, end: Math.max(range.start, range.end) - 1 } : {}),
      });
  /** Offset in the file of the current chunk's first byte. */
  let base = range?.start ?? 0;
  /** Offset in the file of the current line's first byte. */
  let lineStart = base;

  let lineNo = 1;
  /** Parts of the current line carried over from earlier chunks. */
  let carry: Buffer[] = [];
  let carryBytes = 0;
  /** The current line exceeded the cap: drop bytes until its `\n`. */
  let skipping = false;

  /** Adds the line of `bytes` bytes starting at `lineStart`, and moves `lineStart` past it and its `\n`. */
  const pushText = (out: Line[], text: string, bytes: number, invalidBytes = 0): void => {
    const offset = lineStart;
    lineStart += bytes + 1;
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1);
    // a UTF-8 BOM (decoded as U+FEFF) at the start of the file
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (isBlank(text)) return;
    const big = overCap(text, maxLine);
    if (big !== null) out.push({ line: lineNo, text: null, tooLong: true, bytes: big, offset });
    else if (invalidBytes > 0) out.push({ line: lineNo, text, invalidBytes, offset, bytes });
    else out.push({ line: lineNo, text, offset, bytes });
  };

  /** Decodes one line's bytes, counting invalid UTF-8 (the slow path, for chunks that hold a U+FFFD). */
  const pushBytes = (out: Line[], bytes: Buffer): void => {
    const text = bytes.toString('utf8');
    pushText(out, text, bytes.length, invalidUtf8Bytes(bytes, text));
  };

  /** Ends the carried line with `tail` (bytes of this chunk before its first `\n`). */
  const finishCarried = (out: Line[], tail: Buffer): void => {
    const total = carryBytes + tail.length;
    if (skipping || total > maxLine) {
      out.push({ line: lineNo, text: null, tooLong: true, bytes: total, offset: lineStart });
      lineStart += total + 1;
    } else {
      carry.push(tail);
      pushBytes(out, Buffer.concat(carry, total));
    }
    carry = [];
    carryBytes = 0;
    skipping = false;
    lineNo++;
  };

  /** Keeps bytes of an unfinished line, or only counts them once the line is over the cap. */
  const keep = (part: Buffer): void => {
    if (part.length === 0) return;
    carryBytes += part.length;
    if (skipping) return;
    if (carryBytes > maxLine) {
      skipping = true;
      carry = [];
    } else {
      carry.push(part);
    }
  };

  try {
    for await (const raw of stream) {
      if (signal?.aborted) throw signal.reason;
      const chunk = raw as Buffer;
      const out: Line[] = [];
      let pos = 0;
      const chunkBase = base;
      base += chunk.length;
      if (carryBytes > 0 || skipping) {
        const nl = chunk.indexOf(NL);
        if (nl === -1) {
          keep(chunk);
          continue;
        }
        finishCarried(out, chunk.subarray(0, nl));
        pos = nl + 1;
      }
      const last = chunk.lastIndexOf(NL);
      if (last >= pos) {
        // decode every whole line of the chunk at once, then split the string
        const str = chunk.toString('utf8', pos, last);
        let s = 0;
        if (str.includes('\uFFFD')) {
          // invalid UTF-8 somewhere (or a real U+FFFD): line by line, so each line's bytes are counted
          for (let b = pos; ; ) {
            const e = chunk.indexOf(NL, b);
            const end = e === -1 || e > last ? last : e;
            pushBytes(out, chunk.subarray(b, end));
            lineNo++;
            if (end === last) break;
            b = end + 1;
          }
          s = -1;
        }
        // the byte length of each line: from its first byte (lineStart) to its \n in the chunk
        const lineBytes = (): number => {
          const e = chunk.indexOf(NL, lineStart - chunkBase);
          return (e === -1 || e > last ? last : e) - (lineStart - chunkBase);
        };
        for (; s >= 0; ) {
          const e = str.indexOf('\n', s);
          if (e === -1) {
            pushText(out, s === 0 ? str : str.slice(s), lineBytes());
            lineNo++;
            break;
          }
          pushText(out, str.slice(s, e), lineBytes());
          lineNo++;
          s = e + 1;
        }
        pos = last + 1;
      }
      keep(chunk.subarray(pos));
      if (out.length > 0) yield out;
    }
    // the last line, without a final \n
    if (skipping) {
      yield [{ line: lineNo, text: null, tooLong: true, bytes: carryBytes, offset: lineStart }];
    } else if (carryBytes > 0) {
      const out: Line[] = [];
      pushBytes(out, Buffer.concat(carry, carryBytes));
      if (out.length > 0) yield out;
    }
  } finally {
    stream.destroy?.();
  }
}

/**
 * Streams the lines of a file one by one; same behaviour as {@link readLineBatches}
 * (1-based line numbers, `\r`/BOM stripped, empty lines skipped, over-long lines reported with
 * `text: null, tooLong: true`, invalid UTF-8 replaced by U+FFFD).
 */
export async function* readLines(absPath: string, options: LineReaderOptions = {}): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(absPath, options)) {
    for (const l of batch) yield l;
  }
}
