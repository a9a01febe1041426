/**
 * Reading sample texts from the results files at the places the index stores (issue 12: an index, not a
 * copy; see ./sampleText for the whole design). No database and no `vscode`: the extension host reads one
 * sample here, and the similarity worker thread reads a problem's texts here itself, off the host's thread.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FormatId } from '../model';
import { readFile } from '../readers';
import { contentHash } from '../text/strings';

/** A results file changed since it was indexed: a sample's text there is no longer the one indexed. */
export class SourceChangedError extends Error {
  constructor(
    /** The file, relative to the results folder (POSIX separators). */
    readonly file: string,
    /** 1-based line of the record. */
    readonly line: number,
  ) {
    super(
      `${file} changed since it was indexed (line ${line} no longer holds the sample indexed there); re-index the folder`,
    );
    this.name = 'SourceChangedError';
  }
}

/** Where a sample's text is, as the index stores it (rows of ./sampleText's `sampleTextRows`; plain data, posted to workers as is). */
export interface SampleTextRow {
  id: number;
  sampleIndex: number;
  correct: number | null;
  hash: string;
  line: number;
  file: string;
  format: FormatId | null;
  recOffset: number | null;
  recBytes: number | null;
  recPos: number | null;
  /** The copy kept in the index for a sample without a span ('' for one with a span: migration 11). */
  text: string | null;
}

/** How many parsed records a record cache keeps ({@link readRecord}): opening the samples of one problem one after another reads its record once. */
export const RECORD_CACHE_SIZE = 8;

/** A record's bytes as last read, and the sample texts its reader gave for them. */
export interface CachedRecord {
  bytes: Buffer;
  texts: string[];
}

/**
 * The sample texts of one record, read from its file: the texts of its samples in record order. One
 * open and one read of the record's bytes (`rec_offset`, `rec_bytes`), parsed by the file's
 * reader as when it was indexed (ReaderContext `rangeBytes`). The last {@link RECORD_CACHE_SIZE}
 * records read through an index are kept with their bytes: when the bytes read now are the same, the
 * record is not parsed again (same bytes, same texts; the caller still checks each text against its
 * content hash), so an edit of the file is seen whatever its size and times.
 * Throws a {@link SourceChangedError} when the file is gone or the bytes there no longer hold a record
 * with that many samples.
 */
async function readRecord(cache: Map<string, CachedRecord>, root: string, row: SampleTextRow): Promise<string[]> {
  const rel = row.file;
  const dir = posix.dirname(rel);
  const start = row.recOffset as number;
  const length = row.recBytes as number;
  const absPath = join(root, ...rel.split('/'));
  const key = `${rel}\u0000${start}\u0000${length}`;
  let fh: FileHandle;
  try {
    fh = await open(absPath, 'r');
  } catch {
    throw new SourceChangedError(rel, row.line);
  }
  try {
    const bytes = Buffer.allocUnsafe(length);
    try {
      for (let got = 0; got < length; ) {
        const { bytesRead } = await fh.read(bytes, got, length - got, start + got);
        // the file is shorter now than when it was indexed
        if (bytesRead === 0) throw new SourceChangedError(rel, row.line);
        got += bytesRead;
      }
    } catch {
      throw new SourceChangedError(rel, row.line);
    }
    const hit = cache.get(key);
    if (hit?.bytes.equals(bytes)) {
      cache.delete(key);
      cache.set(key, hit);
      return hit.texts;
    }
    const ctx = {
      root,
      relPath: rel,
      absPath,
      run: dir === '.' ? '' : dir,
      range: { start, end: start + length },
      rangeBytes: bytes,
    };
    const texts: string[] = [];
    let records = 0;
    try {
      for await (const ev of readFile(ctx, row.format ?? undefined)) {
        if (ev.kind !== 'problem') continue;
        records++;
        for (const s of ev.record.samples) texts.push(s.text);
      }
    } catch {
      throw new SourceChangedError(rel, row.line);
    }
    if (records !== 1) throw new SourceChangedError(rel, row.line);
    cache.delete(key);
    cache.set(key, { bytes, texts });
    if (cache.size > RECORD_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return texts;
  } finally {
    await fh.close();
  }
}

/**
 * How long (ms) {@link textsOf} works between turns of the event loop. Reading a problem's texts (parse of
 * each model's line, a content hash per sample) takes 100-250 ms of one thread; in the extension host a
 * command (opening the problem view the user just clicked) waited for all of it (issue 14: the panel's
 * frame started 150 ms later when the selection's similarity read was running).
 */
const TEXT_SLICE_MS = 8;

/** A turn of the event loop: messages and timers queued meanwhile run before the caller goes on. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The texts of `rows` (from ./sampleText's `sampleTextRows`), in row order: each record read once, every
 * text checked against its content hash. `root`: the folder the rows' paths are relative to (the index's); `cache`: records kept between calls (least recently used first, at most
 * {@link RECORD_CACHE_SIZE}; a new Map keeps nothing). Pure: no database, so a worker thread can run it (the
 * similarity worker reads a problem's texts itself, off the extension host's thread). Throws
 * {@link SourceChangedError} when a file changed since it was indexed, and an Error when a row has a place
 * in a file but `root` is undefined.
 */
export async function readRowTexts(
  root: string | undefined,
  rows: SampleTextRow[],
  cache: Map<string, CachedRecord> = new Map(),
): Promise<string[]> {
  const records = new Map<string, Promise<string[]>>();
  const out: string[] = [];
  let sliceStart = performance.now();
  for (const r of rows) {
    if (performance.now() - sliceStart > TEXT_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    let text: string | undefined;
    if (r.recOffset === null || r.recBytes === null || r.recPos === null) {
      text = r.text ?? undefined;
      if (text === undefined) throw new SourceChangedError(r.file, r.line);
    } else {
      const key = `${r.file}\u0000${r.recOffset}`;
      let rec = records.get(key);
      if (!rec) {
        if (root === undefined)
          throw new Error('the index does not say which folder it indexes; index the folder again');
        rec = readRecord(cache, root, r);
        records.set(key, rec);
      }
      text = (await rec)[r.recPos];
      if (text === undefined || contentHash(text) !== r.hash) throw new SourceChangedError(r.file, r.line);
    }
    out.push(text);
  }
  return out;
}
