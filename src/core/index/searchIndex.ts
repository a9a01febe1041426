/**
 * The full-text index built after the figures (issue 31): an indexing pass with `fts: false` writes the
 * samples and their counts only, so the figures are ready sooner; {@link buildSearchIndex} then gives every
 * sample not yet in the full-text index (`samples_fts`) its row, and the witnesses and parts the tree's
 * search filter asks first (`witness_fts`, `search_parts`, schema migration 13), reading the texts back from
 * the results files (./rowTexts, each text checked against its content hash). Pure core: no `vscode` import.
 *
 * Which samples are in the full-text index is told by `search_parts`: a part is a run of consecutive sample
 * ids of one file and problem written to samples_fts in one transaction with its row, and parts go with their
 * file's samples. So a sample is searchable exactly when a part covers its id, the build resumes where a
 * cancelled one stopped (each chunk is one transaction: its rows and parts commit together or not at all),
 * and what a search could not look through yet is counted ({@link searchIndexStatus}).
 */
import { open } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { readFile } from '../readers';
import { searchText } from './search';
import { contentHash } from '../text/strings';
import { type CachedRecord, readRowTexts, type SampleTextRow, SourceChangedError } from './rowTexts';
import type { Database, Statement } from './sqlite';
import type { TraceIndex } from './traceIndex';

/**
 * Witnesses per part (`witness_fts`, schema migration 13): the first this many samples of a part are also
 * rows of the small witness index, so that a query of words one of them holds is answered for its problem
 * without visiting samples_fts. 16 of 1024 samples are 1.6% more full-text rows.
 */
export const PART_WITNESSES = 16;

/** Samples per transaction of {@link buildSearchIndex}: short enough that another writer waits little. */
const CHUNK_SAMPLES = 4096;

/** Meta key of the folder the index's paths are relative to (indexer.ts `ROOT_KEY`; not imported: no cycle). */
const ROOT_META = 'root';

/** How much of the index the full-text index covers. */
export interface SearchIndexStatus {
  /** Samples in the index. */
  samples: number;
  /** Samples in the full-text index (a search looks through these). */
  indexed: number;
}

/**
 * How much of the index is searchable: `indexed` of `samples` (equal when the full-text index is complete).
 * Two aggregate queries (the parts' lengths add up to the samples they cover). Never throws for an empty index.
 */
export function searchIndexStatus(index: TraceIndex): SearchIndexStatus {
  const db = index.db;
  return db.transaction(() => ({
    samples: db.prepare('SELECT count(*) FROM samples').pluck().get() as number,
    indexed: db.prepare('SELECT coalesce(sum(last_id - first_id + 1), 0) FROM search_parts').pluck().get() as number,
  }))();
}

/**
 * SQL condition (on the alias `s` of `samples`) that the sample is in no part: not yet in the full-text
 * index. One seek of `search_parts`' primary key per sample.
 */
export const NOT_SEARCHABLE_SQL =
  'coalesce((SELECT last_id FROM search_parts WHERE first_id <= s.id ORDER BY first_id DESC LIMIT 1), -1) < s.id';

/** Statements writing full-text rows of samples and their parts (shared by the indexer's inline writing). */
export interface SearchRowStatements {
  insertFts: Statement;
  insertWitness: Statement;
  insertPart: Statement;
}

/** Prepares {@link SearchRowStatements} on `db`. The index is contentless: given search.ts `searchText` of each text (a string, or its UTF-8 bytes CAST to TEXT). */
export function searchRowStatements(db: Database): SearchRowStatements {
  return {
    insertFts: db.prepare('INSERT INTO samples_fts(rowid, text) VALUES (?, CAST(? AS TEXT))'),
    insertWitness: db.prepare('INSERT INTO witness_fts(rowid, text) VALUES (?, CAST(? AS TEXT))'),
    insertPart: db.prepare('INSERT INTO search_parts (first_id, last_id, witnesses, file_id) VALUES (?, ?, ?, ?)'),
  };
}

/**
 * Writes the witnesses and parts (`witness_fts`, `search_parts`, schema migration 13) of samples just given
 * to samples_fts: `ids` their row ids (ascending), `texts` what samples_fts was given for each, `pids` their
 * problems' row ids, `fileIds` their files' (one number: every sample of that file). Consecutive ids of one
 * file and problem make one part; its first {@link PART_WITNESSES} samples are rows of `witness_fts` (rowid =
 * the sample's id, the same text as in samples_fts). Inside the caller's transaction.
 */
export function writeSearchParts(
  st: Pick<SearchRowStatements, 'insertWitness' | 'insertPart'>,
  fileIds: number | readonly number[],
  ids: readonly (number | bigint)[],
  texts: readonly (string | Uint8Array)[],
  pids: readonly number[],
): void {
  const fileOf = (i: number) => (typeof fileIds === 'number' ? fileIds : fileIds[i]);
  let i = 0;
  while (i < ids.length) {
    const first = Number(ids[i]);
    let j = i + 1;
    while (
      j < ids.length &&
      pids[j] === pids[i] &&
      fileOf(j) === fileOf(i) &&
      Number(ids[j]) === Number(ids[j - 1]) + 1
    )
      j++;
    const witnesses = Math.min(PART_WITNESSES, j - i);
    for (let k = 0; k < witnesses; k++) st.insertWitness.run(first + k, texts[i + k]);
    st.insertPart.run(first, Number(ids[j - 1]), witnesses, fileOf(i));
    i = j;
  }
}

/** Progress of {@link buildSearchIndex}: `indexed` of `samples` are searchable (the filter says "search index: 40%"). */
export interface SearchIndexProgress extends SearchIndexStatus {
  /** Samples this build could not read (their results file changed since it was indexed): left out, counted. */
  unreadable: number;
}

/** What one {@link buildSearchIndex} did. */
export interface SearchIndexSummary extends SearchIndexProgress {
  /** Samples this build added to the full-text index. */
  added: number;
  /** Results files whose texts no longer match the index: marked for the next indexing pass (TraceIndex.markFileChanged). */
  changedFiles: string[];
  /** Stopped by the signal before every sample was added (what was added stays: the next build goes on from there). */
  cancelled: boolean;
  elapsedMs: number;
}

/** A sample to add: where its text is ({@link SampleTextRow}), its problem and file. */
interface PendingRow extends SampleTextRow {
  pid: number;
  fileId: number;
}

const PENDING_SELECT = `SELECT s.id, s.sample_index AS sampleIndex, s.correct, s.content_hash AS hash, s.line,
    f.path AS file, f.format, sp.rec_offset AS recOffset, sp.rec_bytes AS recBytes, sp.rec_pos AS recPos, s.text,
    s.problem_id AS pid, s.file_id AS fileId
  FROM samples s JOIN files f ON f.id = s.file_id LEFT JOIN sample_spans sp ON sp.sample_id = s.id
  WHERE s.id > ? AND f.status = 'ready' AND ${NOT_SEARCHABLE_SQL} ORDER BY s.id LIMIT ?`;

/** The most bytes {@link readFileRowTexts} reads at once to parse several records of a file together. */
const RANGE_READ_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The texts of `rows` (samples of one file, ascending ids), as ./rowTexts `readRowTexts` gives them (in row order,
 * each checked against its content hash), but the records of a file read together: the bytes from the first
 * record to the last in one read (at most {@link RANGE_READ_MAX_BYTES}) and parsed by the file's reader in one go,
 * each record's samples taken by its offset. A file of one sample per line is then one read and one parse per
 * chunk, not an open and a read per sample. Anything else (samples without a place in the file, a range too long,
 * a record not found or a text whose hash differs) goes through `readRowTexts`, which throws the
 * SourceChangedError naming the file when it changed.
 */
async function readFileRowTexts(
  root: string | undefined,
  rows: SampleTextRow[],
  cache: Map<string, CachedRecord>,
): Promise<string[]> {
  const placed = rows.filter((r) => r.recOffset !== null && r.recBytes !== null && r.recPos !== null);
  if (root === undefined || placed.length < 2 || placed.length !== rows.length) return readRowTexts(root, rows, cache);
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const r of placed) {
    start = Math.min(start, r.recOffset as number);
    end = Math.max(end, (r.recOffset as number) + (r.recBytes as number));
  }
  if (end - start > RANGE_READ_MAX_BYTES) return readRowTexts(root, rows, cache);
  const rel = rows[0].file;
  const absPath = join(root, ...rel.split('/'));
  const bytes = Buffer.allocUnsafe(end - start);
  const byOffset = new Map<number, string[]>();
  try {
    const fh = await open(absPath, 'r');
    try {
      for (let got = 0; got < bytes.length; ) {
        const { bytesRead } = await fh.read(bytes, got, bytes.length - got, start + got);
        if (bytesRead === 0) return readRowTexts(root, rows, cache);
        got += bytesRead;
      }
    } finally {
      await fh.close();
    }
    const dir = posix.dirname(rel);
    const ctx = { root, relPath: rel, absPath, run: dir === '.' ? '' : dir, range: { start, end }, rangeBytes: bytes };
    for await (const ev of readFile(ctx, rows[0].format ?? undefined)) {
      if (ev.kind !== 'problem' || !ev.record.span) continue;
      byOffset.set(
        ev.record.span.offset,
        ev.record.samples.map((x) => x.text),
      );
    }
  } catch {
    return readRowTexts(root, rows, cache);
  }
  const out: string[] = [];
  for (const r of rows) {
    const text = byOffset.get(r.recOffset as number)?.[r.recPos as number];
    if (text === undefined || contentHash(text) !== r.hash) return readRowTexts(root, rows, cache);
    out.push(text);
  }
  return out;
}

/** A turn of the event loop (a cancel message, a progress post) between chunks. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Adds every sample of `index` that is not in the full-text index yet (see the module comment) to it, in
 * chunks of {@link CHUNK_SAMPLES} in sample id order, each chunk one write transaction: its samples are read
 * under that transaction (no pass can remove them meanwhile), their texts read from the results files and
 * checked against their content hashes ({@link readFileRowTexts}), then written with their parts. A file
 * whose texts changed since it was indexed is marked for the next pass and its samples are left out and
 * counted (`unreadable`): a wrong text is never indexed. Only samples of files read to the end (`status` ready)
 * are added: a file a pass left partial is read again by the next pass (and one an index from before schema
 * migration 13 left partial may still hold full-text rows without parts; FTS5 would take a second row of a rowid
 * without a word, and the sample would match the words of both). `signal` stops it between chunks (resolves with
 * `cancelled`; a later call goes on from there). `onProgress` is called after each chunk and at the end.
 * Cost: O(samples added) reads, parses and FTS5 inserts, plus a seek of `search_parts` per sample looked at.
 * Errors of the database are thrown (the chunk open then rolls back).
 */
export async function buildSearchIndex(
  index: TraceIndex,
  options: { signal?: AbortSignal; onProgress?: (p: SearchIndexProgress) => void; chunkSamples?: number } = {},
): Promise<SearchIndexSummary> {
  const started = Date.now();
  const db = index.db;
  const chunk = options.chunkSamples ?? CHUNK_SAMPLES;
  const st = searchRowStatements(db);
  const pending = db.prepare(PENDING_SELECT);
  const root = index.getMeta(ROOT_META);
  const changed = new Set<string>();
  const records = new Map<string, CachedRecord>();
  let status = searchIndexStatus(index);
  let added = 0;
  let unreadable = 0;
  let cursor = 0;
  let cancelled = false;
  const report = () => options.onProgress?.({ ...status, unreadable });
  report();
  // nothing to add (a complete index): no look at every sample
  for (; status.indexed < status.samples; ) {
    if (options.signal?.aborted) {
      cancelled = true;
      break;
    }
    db.exec('BEGIN IMMEDIATE');
    let rows: PendingRow[] = [];
    try {
      rows = pending.all(cursor, chunk) as PendingRow[];
      const ids: number[] = [];
      const texts: string[] = [];
      const pids: number[] = [];
      const fileIds: number[] = [];
      // the rows of one file at a time: a file that changed since it was indexed loses only its own samples
      let i = 0;
      while (i < rows.length) {
        let j = i + 1;
        while (j < rows.length && rows[j].fileId === rows[i].fileId) j++;
        const group = rows.slice(i, j);
        let got: string[] | undefined;
        if (!changed.has(group[0].file)) {
          try {
            got = await readFileRowTexts(root, group, records);
          } catch (e) {
            if (!(e instanceof SourceChangedError)) throw e;
            changed.add(e.file);
          }
        }
        if (got) {
          for (let k = 0; k < group.length; k++) {
            ids.push(group[k].id);
            texts.push(searchText(got[k]));
            pids.push(group[k].pid);
            fileIds.push(group[k].fileId);
          }
        } else unreadable += group.length;
        i = j;
      }
      for (let k = 0; k < ids.length; k++) st.insertFts.run(ids[k], texts[k]);
      writeSearchParts(st, fileIds, ids, texts, pids);
      db.exec('COMMIT');
      added += ids.length;
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw e;
    }
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1].id;
    status = searchIndexStatus(index);
    report();
    await nextTurn();
  }
  for (const f of changed) index.markFileChanged(f);
  status = searchIndexStatus(index);
  report();
  return {
    ...status,
    unreadable,
    added,
    changedFiles: [...changed].sort(),
    cancelled,
    elapsedMs: Date.now() - started,
  };
}

/**
 * Samples a search of the given models (row ids; undefined: every model) and verdict (`true` correct,
 * `false` incorrect, `null` ungraded; undefined: all) could not look through: those not in the full-text
 * index yet (its build runs, was cancelled, or a file changed since it was indexed). 0 without looking at a
 * sample when the full-text index is complete; else one pass over the samples asked for.
 */
export function unsearchedSamples(
  index: TraceIndex,
  filter: { models?: readonly number[]; correct?: boolean | null } = {},
): number {
  const status = searchIndexStatus(index);
  if (status.indexed >= status.samples) return 0;
  const where = [NOT_SEARCHABLE_SQL];
  const params: unknown[] = [];
  if (filter.models) {
    if (filter.models.length === 0) return 0;
    where.push(`s.model_id IN (${filter.models.map(() => '?').join(', ')})`);
    params.push(...filter.models);
  }
  if (filter.correct === true) where.push('s.correct = 1');
  else if (filter.correct === false) where.push('s.correct = 0');
  else if (filter.correct === null) where.push('s.correct IS NULL');
  return index.db
    .prepare(`SELECT count(*) FROM samples s WHERE ${where.join(' AND ')}`)
    .pluck()
    .get(...params) as number;
}

/** "search index: 40%": how far the full-text index is built, for a line that says a search is partial (floored: 100% only when complete). */
export function searchIndexPercent(status: SearchIndexStatus): string {
  if (status.samples === 0 || status.indexed >= status.samples) return '100%';
  return `${Math.min(99, Math.floor((100 * status.indexed) / status.samples))}%`;
}
