import { createReadStream } from 'node:fs';

/** Default cap on one line's length in bytes: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Default read chunk size: 1 MiB (fewer, larger reads are faster than the 64 KiB stream default). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * One line of a text file.
 * - `line`: 1-based line number (counting every `\n`, including skipped empty lines).
 * - `offset`: byte offset of the line's first byte in the file (after a BOM on line 1).
 * - `text`: the decoded line without its `\n`, a trailing `\r`, or a leading UTF-8 BOM; `null` when
 *   the line was longer than the cap and was skipped (`tooLong` is then `true` and `bytes` is the
 *   line's length in bytes as far as it was read).
 */
export type Line =
  | { line: number; offset: number; text: string; tooLong?: false }
  | { line: number; offset: number; text: null; tooLong: true; bytes: number };

export interface LineReaderOptions {
  /** Lines longer than this many bytes are skipped and reported (`tooLong`). Default 64 MiB. */
  maxLineBytes?: number;
  /** Read chunk size in bytes. Default 1 MiB. */
  chunkBytes?: number;
  /** Checked between chunks; when aborted the reader throws `signal.reason`. */
  signal?: AbortSignal;
}

const NL = 0x0a;
const CR = 0x0d;

/** Whether a decoded line is empty or whitespace only (cheap for long lines: stops at the first non-blank). */
function isBlank(s: string): boolean {
  return s.length === 0 || /^\s*$/.test(s);
}

/**
 * Streams the lines of a file in batches (one batch per read chunk), the fast path for readers.
 *
 * Behaviour:
 * - Splits on `\n` bytes (a `\n` byte never occurs inside a multi-byte UTF-8 sequence, so splitting
 *   bytes before decoding is safe); strips one trailing `\r` (CRLF files) and a UTF-8 BOM at the
 *   start of the file.
 * - Decodes UTF-8 with replacement: invalid byte sequences become U+FFFD, never an exception.
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
  const stream = createReadStream(absPath, { highWaterMark: options.chunkBytes ?? CHUNK_BYTES });

  let lineNo = 1;
  /** Absolute byte offset of the start of the current chunk. */
  let chunkStart = 0;
  /** Start offset (absolute) of the line being accumulated across chunks. */
  let lineStart = 0;
  /** Parts of the current line carried over from earlier chunks. */
  let carry: Buffer[] = [];
  let carryBytes = 0;
  /** The current line exceeded the cap: drop bytes until its `\n`. */
  let skipping = false;
  let first = true;

  const emit = (out: Line[], buf: Buffer, start: number, end: number, offset: number): void => {
    // strip a trailing \r
    if (end > start && buf[end - 1] === CR) end--;
    if (end <= start) return;
    const text = buf.toString('utf8', start, end);
    if (!isBlank(text)) out.push({ line: lineNo, offset, text });
  };

  try {
    for await (const raw of stream) {
      if (signal?.aborted) throw signal.reason;
      let chunk = raw as Buffer;
      if (first) {
        first = false;
        if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
          chunk = chunk.subarray(3);
          chunkStart = 3;
          lineStart = 3;
        }
      }
      const out: Line[] = [];
      let pos = 0;
      const len = chunk.length;
      while (pos <= len) {
        const nl = chunk.indexOf(NL, pos);
        if (nl === -1) {
          // no end of line in the rest of this chunk: carry it over (unless the line is too long)
          const rest = len - pos;
          if (rest > 0 && !skipping) {
            if (carryBytes + rest > maxLine) {
              skipping = true;
              carryBytes += rest;
              carry = [];
            } else {
              carry.push(chunk.subarray(pos));
              carryBytes += rest;
            }
          } else if (rest > 0) {
            carryBytes += rest;
          }
          break;
        }
        // a line ends at nl
        if (skipping) {
          out.push({ line: lineNo, offset: lineStart, text: null, tooLong: true, bytes: carryBytes + (nl - pos) });
          skipping = false;
        } else if (carry.length > 0) {
          const total = carryBytes + (nl - pos);
          if (total > maxLine) {
            out.push({ line: lineNo, offset: lineStart, text: null, tooLong: true, bytes: total });
          } else {
            carry.push(chunk.subarray(pos, nl));
            const joined = Buffer.concat(carry, total);
            emit(out, joined, 0, joined.length, lineStart);
          }
        } else if (nl - pos > maxLine) {
          out.push({ line: lineNo, offset: lineStart, text: null, tooLong: true, bytes: nl - pos });
        } else {
          emit(out, chunk, pos, nl, lineStart);
        }
        carry = [];
        carryBytes = 0;
        lineNo++;
        pos = nl + 1;
        lineStart = chunkStart + pos;
      }
      chunkStart += len;
      if (out.length > 0) yield out;
    }
    // the last line, without a final \n
    if (skipping) {
      yield [{ line: lineNo, offset: lineStart, text: null, tooLong: true, bytes: carryBytes }];
    } else if (carry.length > 0) {
      const joined = Buffer.concat(carry, carryBytes);
      const out: Line[] = [];
      emit(out, joined, 0, joined.length, lineStart);
      if (out.length > 0) yield out;
    }
  } finally {
    stream.destroy();
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
