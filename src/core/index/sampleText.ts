/**
 * Sample texts read on demand from the results files (issue 12: an index, not a copy). Pure core: no
 * `vscode` import.
 *
 * A sample of a line-based file (JSONL: the `qwen-math`, `rollouts`, `flat` and JSONL `mapping`
 * formats) records where its record is in the file (`sample_spans.rec_offset`, `rec_bytes`: the line's
 * first byte and length) and its position among the record's samples (`rec_pos`), schema migration 9. Its text is read
 * by running the file's reader over those bytes only (one open, one read and one parse of one line; a
 * per-problem line gives every sample of that problem and model at once; the last few records read are
 * kept with their bytes, so opening the samples of one problem one after another parses its line once),
 * and checked against the content hash
 * stored when it was indexed. A mismatch (the file was edited, truncated or replaced since) throws a
 * {@link SourceChangedError} naming the file: a wrong text is never returned. The index keeps no copy
 * of such a sample's text (schema migration 11), so this is the only way to it. Samples of other
 * formats (whole-document `.json`, Inspect `.eval` zips) and samples indexed before migration 9 (not
 * read again yet) have no span: their text comes from the copy the index keeps for them.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FormatId } from '../model';
import { readFile } from '../readers';
import { contentHash } from '../text';
import { ROOT_KEY } from './indexer';
import type { Statement } from './sqlite';
import type { TraceIndex } from './traceIndex';

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

/** Where a sample's text is, as the index stores it. */
interface TextRow {
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

const TEXT_ROW_SELECT = `SELECT s.id, s.sample_index AS sampleIndex, s.correct, s.content_hash AS hash, s.line,
    f.path AS file, f.format, sp.rec_offset AS recOffset, sp.rec_bytes AS recBytes, sp.rec_pos AS recPos, s.text
  FROM samples s JOIN files f ON f.id = s.file_id LEFT JOIN sample_spans sp ON sp.sample_id = s.id`;

/** How many parsed records each index keeps ({@link readRecord}): opening the samples of one problem one after another reads its record once. */
const RECORD_CACHE_SIZE = 8;

/** A record's bytes as last read, and the sample texts its reader gave for them. */
interface CachedRecord {
  bytes: Buffer;
  texts: string[];
}

/** Per index: its recently read records (a Map in least-recently-used-first order) and its prepared statements. */
interface IndexState {
  records: Map<string, CachedRecord>;
  one: Statement;
  pair: Statement;
}

const states = new WeakMap<TraceIndex, IndexState>();

function stateOf(index: TraceIndex): IndexState {
  let st = states.get(index);
  if (!st) {
    st = {
      records: new Map(),
      one: index.db.prepare(`${TEXT_ROW_SELECT} WHERE s.id = ?`),
      pair: index.db.prepare(`${TEXT_ROW_SELECT} WHERE s.problem_id = ? AND s.model_id = ? ORDER BY s.sample_index`),
    };
    states.set(index, st);
  }
  return st;
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
async function readRecord(index: TraceIndex, root: string, row: TextRow): Promise<string[]> {
  const rel = row.file;
  const dir = posix.dirname(rel);
  const start = row.recOffset as number;
  const length = row.recBytes as number;
  const absPath = join(root, ...rel.split('/'));
  const key = `${rel}\u0000${start}\u0000${length}`;
  const cache = stateOf(index).records;
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

/** The folder the index's file paths are relative to (set by indexFolder). */
function rootOf(index: TraceIndex): string {
  const root = index.getMeta(ROOT_KEY);
  if (root === undefined) throw new Error('the index does not say which folder it indexes; index the folder again');
  return root;
}

/** Texts of rows, reading each record once; checks every text against its content hash. */
async function textsOf(index: TraceIndex, rows: TextRow[]): Promise<string[]> {
  const records = new Map<string, Promise<string[]>>();
  const out: string[] = [];
  for (const r of rows) {
    let text: string | undefined;
    if (r.recOffset === null || r.recBytes === null || r.recPos === null) {
      text = r.text ?? undefined;
      if (text === undefined) throw new SourceChangedError(r.file, r.line);
    } else {
      const key = `${r.file}\u0000${r.recOffset}`;
      let rec = records.get(key);
      if (!rec) {
        rec = readRecord(index, rootOf(index), r);
        records.set(key, rec);
      }
      text = (await rec)[r.recPos];
      if (text === undefined || contentHash(text) !== r.hash) throw new SourceChangedError(r.file, r.line);
    }
    out.push(text);
  }
  return out;
}

/**
 * `read`, with the file of a {@link SourceChangedError} marked for the next indexing pass
 * (TraceIndex.markFileChanged): an edit that kept the file's size and modification time is otherwise
 * invisible to a pass, and the text would stay unreadable however often the folder is indexed again.
 */
async function changedFilesMarked<T>(index: TraceIndex, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (e instanceof SourceChangedError) index.markFileChanged(e.file);
    throw e;
  }
}

/**
 * The text of one sample, read from its results file (see the module comment), or undefined when no
 * sample has that id. Throws {@link SourceChangedError} when the file changed since it was indexed.
 */
export async function readSampleText(index: TraceIndex, sampleId: number): Promise<string | undefined> {
  const row = stateOf(index).one.get(sampleId) as TextRow | undefined;
  if (!row) return undefined;
  return (await changedFilesMarked(index, textsOf(index, [row])))[0];
}

/**
 * Texts (and verdicts) of every sample of a model for one problem, in sample order, read from the
 * results files (each record once: a per-problem line gives all of them in one read and one parse).
 * Throws {@link SourceChangedError} when a file changed since it was indexed.
 */
export async function readSampleTexts(
  index: TraceIndex,
  problemId: number,
  modelId: number,
): Promise<{ id: number; sampleIndex: number; correct: boolean | null; text: string }[]> {
  const rows = stateOf(index).pair.all(problemId, modelId) as TextRow[];
  const texts = await changedFilesMarked(index, textsOf(index, rows));
  return rows.map((r, i) => ({
    id: r.id,
    sampleIndex: r.sampleIndex,
    correct: r.correct === null ? null : r.correct === 1,
    text: texts[i],
  }));
}

/** Where sample texts are read from: the results files (FolderSession adds the user's notice when one changed). */
export interface TextSource {
  sampleText(sampleId: number): Promise<string | undefined>;
  sampleTexts(
    problemId: number,
    modelId: number,
  ): Promise<{ id: number; sampleIndex: number; correct: boolean | null; text: string }[]>;
}

/** The {@link TextSource} of an index: {@link readSampleText} and {@link readSampleTexts}. */
export function fileTextSource(index: TraceIndex): TextSource {
  return {
    sampleText: (id) => readSampleText(index, id),
    sampleTexts: (p, m) => readSampleTexts(index, p, m),
  };
}
