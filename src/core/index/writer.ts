/**
 * Writing one results file's rows ({@link SampleWriter}): its records, read by the file's reader, become
 * samples, scores, problem-list facts, per-(model, problem) counts and diagnostics, after the checks
 * against what the file and the index already hold (duplicates, problems that share an id, seed shards,
 * sample indices). The writer knows nothing of formats (the readers give it records) and decides no
 * file's fate: indexer.ts chooses which files are written, removed or skipped.
 */
import { promises as fsp } from 'node:fs';
import { join, posix } from 'node:path';
import type { Diagnostic, FormatId, NamedScore, ProblemRecord, SampleRecord } from '../model';
import { type ReaderOptions, readFile } from '../readers';
import { DATE_TIME_TOKEN, datasetKey, fileStep } from '../readers/util';
import { DEFAULT_LEXICON, MarkerCounter } from '../text/markers';
import { codePoints, contentHash, plural } from '../text/strings';
import { DiagnosticCap } from './diagnosticCap';
import { readFileParallel } from './parallelRead';
import { searchText } from './search';
import { type SearchRowStatements, searchRowStatements, writeSearchParts } from './searchIndex';
import { type Database, type Statement } from './sqlite';
import { modelKey, problemKey, stepsJson } from './traceIndex';

/**
 * Full-text rows held back and inserted together (see SampleWriter.indexFile): few enough that the texts
 * they keep alive (about 0.6 KB a sample) add little to peak memory.
 */
const FTS_ROWS_AT_ONCE = 4096;

/** A row of the `files` table: a file of the folder as last indexed (`format` null: no results file). */
export interface FileRow {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  hash: string;
  status: string;
  format: string | null;
}

/**
 * Whether two result files are seed shards of one run: in the same folder, with names equal once a seed
 * or run number is taken out (`test_qwen.jsonl`, `test_qwen_seed1.jsonl`, `test_qwen-seed1.jsonl`,
 * `test_qwen.seed1.jsonl`, `test_qwen_seed_1.jsonl`, `test_qwen_s1.jsonl` (`s` with one or two digits: `test_qwen_s500.jsonl` is a
 * step, no shard), `test_qwen_run1.jsonl`;
 * `..._seed0_t1.0_s0_e-1.jsonl` and `..._seed1_t1.0_s0_e-1.jsonl`; `seed0_results.jsonl` and `seed1_results.jsonl`;
 * `samples_seed0_2025-01-01.jsonl` and `samples_seed1_2025-01-02.jsonl`: dates and times are taken out too when
 * both names carry a `seedN`; a dated re-run without seeds is a duplicate).
 * Paths are relative, `/`-separated.
 * Files that differ otherwise (`test_qwen.jsonl`, `test_qwen_v2.jsonl`) are not shards: a problem in both
 * is a duplicate, skipped.
 */
export function isSeedShard(a: string, b: string): boolean {
  if (a === b || posix.dirname(a) !== posix.dirname(b)) return false;
  const stem = (p: string, dated: boolean) =>
    posix
      .basename(p)
      // a date or time beside a seed (`samples_seed0_2025-01-01.jsonl`: trial 7 finding 4)
      .replace(dated ? DATE_TIME_TOKEN : /$^/, '')
      // `s` with three or more digits is a step, not a seed (`_s500`, `_s1000`; trial 7 finding 6)
      .replace(/[-_.](?:(?:seed|run)[-_]?\d+|s[-_]?\d{1,2})(?=[-_.]|$)/gi, '')
      // a stem that begins with its seed (`seed0_results.jsonl`, `s1.jsonl`; trial 6 finding 2)
      .replace(/^(?:seed[-_]?\d+|s\d{1,2})(?=[-_.]|$)/i, '')
      .toLowerCase();
  // dates are taken out only when both names carry a seed: a dated re-run (lm-eval's
  // `samples_gsm8k_2025-01-15T10-20-30.jsonl` beside `..._2025-01-16T...`) is a duplicate, not a shard
  const seeded = (p: string) => /(?:^|[-_.])seed[-_]?\d+(?=[-_.]|$)/i.test(posix.basename(p));
  return stem(a, false) === stem(b, false) || (seeded(a) && seeded(b) && stem(a, true) === stem(b, true));
}

/** The part of a cross-file duplicate diagnostic that names the file holding the first copy. */
export const DUPLICATE_OF = ' already indexed from ';

/** What tells two problems with one id apart: a record's question and reference answer (null: not given). */
export interface RecordFacts {
  question: string | null;
  reference: string | null;
}

/** The {@link RecordFacts} of a record. */
export function recordFacts(r: Pick<ProblemRecord, 'question' | 'referenceAnswer'>): RecordFacts {
  return { question: r.question || null, reference: r.referenceAnswer || null };
}

/** Whether two texts differ once whitespace is collapsed (the same text first, without copying it). */
function textsDiffer(a: string | null, b: string | null): boolean {
  if (a === b || a === null || b === null) return false;
  return a.replace(/\s+/g, ' ').trim() !== b.replace(/\s+/g, ' ').trim();
}

/**
 * What differs between the first record of a problem id and a later one of the same model (issue 32: two
 * different problems under one id are not duplicates): `question differs`, `reference answer differs`,
 * `question and reference answer differ`, or null when they are the same problem (whitespace aside; a side that gives no question, or no
 * reference, is not compared on it).
 */
export function problemDifference(first: RecordFacts, later: RecordFacts): string | null {
  const q = textsDiffer(first.question, later.question);
  const ref = textsDiffer(first.reference, later.reference);
  if (q && ref) return 'question and reference answer differ';
  return q ? 'question differs' : ref ? 'reference answer differs' : null;
}

/** What {@link SampleWriter.indexFile} is given about one file. */
interface IndexFileArgs {
  root: string;
  rel: string;
  abs: string;
  format: FormatId;
  size: number;
  mtimeMs: number;
  /** Content hash; for a new file still being computed while the file is read. */
  hash: Promise<string>;
  prev: FileRow | undefined;
  batchSize: number;
  /** Parse on a second thread ({@link readFileParallel}). */
  parallel: boolean;
  signal?: AbortSignal;
  readerOptions?: ReaderOptions;
  onBatch: (samplesSoFar: number) => void;
}

/** Prepared statements and caches for writing samples. */
export class SampleWriter {
  private readonly insertSample: Statement;
  private readonly insertFts: Statement | null;
  private readonly search: SearchRowStatements;
  private readonly insertSpan: Statement;
  private readonly upsertModel: Statement;
  private readonly upsertProblem: Statement;
  private readonly refreshStat: Statement;
  private readonly dropStat: Statement;
  private readonly insertEmpty: Statement;
  private readonly addEmptyStat: Statement;
  private readonly upsertRun: Statement;
  private readonly insertDiag: Statement;
  private readonly otherFileHas: Statement;
  private readonly nextIndexOf: Statement;
  private readonly setGrader: Statement;
  private readonly clearGrader: Statement;
  private readonly statOf: Statement;
  private readonly insertScore: Statement;
  private readonly insertInfo: Statement;
  private readonly samplesOfPair: Statement;
  private readonly verdictOf: Statement;
  private readonly moveSample: Statement;
  private readonly models = new Map<string, number>();
  private readonly problems = new Map<string, number>();

  /**
   * @param counter measures each sample's text while it is written (pieces, reasoning markers: text/markers.ts);
   *   the index's lexicon (meta `markers_lexicon`) must be the counter's.
   */
  constructor(
    private readonly db: Database,
    fts: boolean,
    private readonly counter: MarkerCounter = new MarkerCounter(DEFAULT_LEXICON),
  ) {
    // The full-text index is contentless: it is given the text as searchText() prepares it (UTF-8 bytes
    // from the parallel reader are bound as a BLOB and CAST to TEXT).
    this.search = searchRowStatements(db);
    this.insertFts = fts ? this.search.insertFts : null;
    this.insertSample = db.prepare(
      `INSERT INTO samples (file_id, line, model_id, problem_id, sample_index, correct, extracted_answer,
         reward_score, finish_reason, token_count, content_hash, text, text_length, piece_count, markers)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?, ?)`,
    );
    this.moveSample = db.prepare(
      'UPDATE samples SET sample_index = :to WHERE file_id = :f AND model_id = :m AND problem_id = :p AND sample_index = :from',
    );
    this.upsertRun = db.prepare(
      `INSERT INTO sample_runs (first_id, last_id, problem_id, file_id) VALUES (?, ?, ?, ?)
       ON CONFLICT (first_id) DO UPDATE SET last_id = excluded.last_id`,
    );
    this.insertSpan = db.prepare(
      'INSERT INTO sample_spans (sample_id, rec_offset, rec_bytes, rec_pos) VALUES (?, ?, ?, ?)',
    );
    this.upsertModel = db.prepare(
      `INSERT INTO models (key, run, name, revision, name_source) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET name_source = excluded.name_source RETURNING id`,
    );
    this.upsertProblem = db.prepare(
      `INSERT INTO problems (key, dataset, problem_id, question, reference_answer, level) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET question = coalesce(problems.question, excluded.question),
         reference_answer = coalesce(problems.reference_answer, excluded.reference_answer),
         level = coalesce(problems.level, excluded.level)
       RETURNING id`,
    );
    this.refreshStat = db.prepare(
      `INSERT OR REPLACE INTO stats (model_id, problem_id, n, c, graded, scored)
       SELECT model_id, problem_id, count(*), coalesce(sum(correct = 1), 0), count(correct), count(reward_score)
         FROM samples WHERE model_id = ? AND problem_id = ? GROUP BY model_id, problem_id`,
    );
    this.dropStat = db.prepare(
      `DELETE FROM stats WHERE model_id = @m AND problem_id = @p
         AND NOT EXISTS (SELECT 1 FROM samples WHERE model_id = @m AND problem_id = @p)
         AND NOT EXISTS (SELECT 1 FROM empty_records WHERE model_id = @m AND problem_id = @p)`,
    );
    this.insertEmpty = db.prepare(
      'INSERT INTO empty_records (file_id, line, model_id, problem_id) VALUES (?, ?, ?, ?)',
    );
    this.addEmptyStat = db.prepare(
      'INSERT OR IGNORE INTO stats (model_id, problem_id, n, c, graded, scored) VALUES (?, ?, 0, 0, 0, 0)',
    );
    this.statOf = db.prepare('SELECT n, graded FROM stats WHERE model_id = ? AND problem_id = ?');
    // `origin` is the file whose reading gave the diagnostic; `file` the one it is shown on (a mapping
    // file for "this path matched nothing in x.json"). Re-reading a file replaces the diagnostics it gave.
    this.insertDiag = db.prepare(
      'INSERT INTO diagnostics (file, line, severity, message, origin, entry) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.setGrader = db.prepare(
      'INSERT INTO model_graders (model_id, grader) VALUES (?, ?) ON CONFLICT (model_id) DO UPDATE SET grader = excluded.grader',
    );
    this.clearGrader = db.prepare('DELETE FROM model_graders WHERE model_id = ?');
    this.insertScore = db.prepare(
      `INSERT INTO scores (file_id, line, record, problem_key, model_key, model_name, sample_index, scorer, value, steps, rule, defines)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertInfo = db.prepare(
      `INSERT INTO problem_info (file_id, line, record, problem_key, question, reference_answer, level, subject)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.samplesOfPair = db.prepare(
      'SELECT sample_index AS i, correct FROM samples WHERE model_id = ? AND problem_id = ? ORDER BY sample_index',
    );
    this.verdictOf = db.prepare(
      'SELECT correct FROM samples WHERE model_id = ? AND problem_id = ? AND sample_index = ? LIMIT 1',
    );
    // the file already holding samples of (model, problem), or an empty record of it
    this.otherFileHas = db.prepare(
      `SELECT path FROM files WHERE id = coalesce(
         (SELECT file_id FROM samples WHERE model_id = @m AND problem_id = @p AND file_id <> @f LIMIT 1),
         (SELECT file_id FROM empty_records WHERE model_id = @m AND problem_id = @p AND file_id <> @f LIMIT 1))`,
    );
    this.nextIndexOf = db.prepare(
      'SELECT coalesce(max(sample_index) + 1, 0) FROM samples WHERE model_id = @m AND problem_id = @p AND file_id <> @f',
    );
  }

  /**
   * The sample indices of (model, problem) already in the index, each with where it came from (a line
   * of the file `rel` being read, or the other file's path); an empty map without a look-up when
   * `look` is false (nothing of the pair indexed yet).
   */
  private takenIndices(
    mid: number,
    pid: number,
    rel: string,
    look: boolean,
  ): Map<number, { line: number; auto?: true } | { file: string }> {
    const out = new Map<number, { line: number; auto?: true } | { file: string }>();
    if (!look) return out;
    const rows = this.db
      .prepare(
        'SELECT s.sample_index AS i, s.line, f.path FROM samples s JOIN files f ON f.id = s.file_id WHERE s.model_id = ? AND s.problem_id = ?',
      )
      .all(mid, pid) as { i: number; line: number; path: string }[];
    for (const x of rows) if (!out.has(x.i)) out.set(x.i, x.path === rel ? { line: x.line } : { file: x.path });
    return out;
  }

  private modelId(run: string, record: ProblemRecord): number {
    const key = modelKey(run, record.model.name, record.model.revision);
    let id = this.models.get(key);
    if (id === undefined) {
      id = (
        this.upsertModel.get(key, run, record.model.name, record.model.revision ?? null, record.model.source) as {
          id: number;
        }
      ).id;
      this.models.set(key, id);
    }
    const grader = record.model.grader ?? null;
    if (this.graders.get(id) !== grader) {
      this.graders.set(id, grader);
      if (grader === null) this.clearGrader.run(id);
      else this.setGrader.run(id, grader);
    }
    return id;
  }

  /** The grader last written per model id in this pass (one UPDATE per model and change, not per record). */
  private readonly graders = new Map<number, string | null>();

  private problemId(record: ProblemRecord): number {
    const key = problemKey(record.dataset, record.problemId);
    let id = this.problems.get(key);
    if (id === undefined) {
      id = (
        this.upsertProblem.get(
          key,
          record.dataset,
          record.problemId,
          record.question ?? null,
          record.referenceAnswer ?? null,
          record.level ?? null,
        ) as {
          id: number;
        }
      ).id;
      this.problems.set(key, id);
    }
    return id;
  }

  /** Pairs (model, problem) that a file's samples and empty records belong to. */
  private pairsOf(fileId: number): { model_id: number; problem_id: number }[] {
    return this.db
      .prepare(
        `SELECT DISTINCT model_id, problem_id FROM samples WHERE file_id = @f
         UNION SELECT model_id, problem_id FROM empty_records WHERE file_id = @f`,
      )
      .all({ f: fileId }) as {
      model_id: number;
      problem_id: number;
    }[];
  }

  /**
   * Records that the samples with row ids `first .. last` (one record's, just inserted) belong to
   * problem `pid` in `sample_runs` (schema migration 12; what the tree's search filter maps full-text
   * matches to problems with): the run of the record before is extended when it is of the same file
   * and problem and ends right before, so a file of one-sample records makes one run per problem.
   */
  private noteRun(fileId: number, pid: number, first: number, last: number): void {
    const r = this.run;
    if (r && r.fileId === fileId && r.pid === pid && first === r.last + 1) r.last = last;
    else this.run = { fileId, pid, first, last };
    const run = this.run as { first: number; last: number };
    this.upsertRun.run(run.first, run.last, pid, fileId);
  }

  /** The run {@link noteRun} wrote last (extended while records of its file and problem follow). */
  private run: { fileId: number; pid: number; first: number; last: number } | null = null;

  /** Removes a file's witnesses (`witness_fts`) and parts. */
  private deletePartsOf(fileId: number): void {
    const parts = this.db
      .prepare('SELECT first_id AS f, witnesses AS w FROM search_parts WHERE file_id = ?')
      .all(fileId) as { f: number; w: number }[];
    const del = this.db.prepare('DELETE FROM witness_fts WHERE rowid = ?');
    for (const p of parts) for (let k = 0; k < p.w; k++) del.run(p.f + k);
    this.db.prepare('DELETE FROM search_parts WHERE file_id = ?').run(fileId);
  }

  private deleteSamplesOf(fileId: number): void {
    this.run = null;
    const pairs = this.pairsOf(fileId);
    this.deletePartsOf(fileId);
    this.db.prepare('DELETE FROM samples_fts WHERE rowid IN (SELECT id FROM samples WHERE file_id = ?)').run(fileId);
    this.db
      .prepare('DELETE FROM sample_spans WHERE sample_id IN (SELECT id FROM samples WHERE file_id = ?)')
      .run(fileId);
    this.db.prepare('DELETE FROM samples WHERE file_id = ?').run(fileId);
    this.db.prepare('DELETE FROM sample_runs WHERE file_id = ?').run(fileId);
    this.db.prepare('DELETE FROM scores WHERE file_id = ?').run(fileId);
    this.db.prepare('DELETE FROM problem_info WHERE file_id = ?').run(fileId);
    this.db.prepare('DELETE FROM empty_records WHERE file_id = ?').run(fileId);
    this.refreshPairs(pairs);
  }

  /** Recomputes (or drops, when neither samples nor an empty record are left) the counts of (model, problem) pairs. */
  private refreshPairs(pairs: readonly { model_id: number; problem_id: number }[]): void {
    for (const p of pairs) {
      this.refreshStat.run(p.model_id, p.problem_id);
      this.dropStat.run({ m: p.model_id, p: p.problem_id });
    }
  }

  /** Removes a file and its samples and diagnostics (inside the caller's transaction). */
  removeFile(fileId: number, path: string): void {
    this.deleteSamplesOf(fileId);
    this.db.prepare('DELETE FROM files WHERE id = ?').run(fileId);
    this.db.prepare('DELETE FROM diagnostics WHERE origin = ?').run(path);
  }

  /** Records a file-level error; an earlier good version of the file stays indexed. */
  recordFileError(rel: string, prev: FileRow | undefined, message: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM diagnostics WHERE origin = ?').run(rel);
      this.insertDiag.run(
        rel,
        0,
        'error',
        prev ? `${message} (keeping the previously indexed version)` : message,
        rel,
        null,
      );
    })();
  }

  /** Diagnostics found while detecting the next file's format, stored with that file. */
  pendingDiagnostics: Diagnostic[] = [];

  /** Records a file that holds no results (format null), replacing an earlier indexed version. */
  recordNonResult(
    rel: string,
    prev: FileRow | undefined,
    size: number,
    mtimeMs: number,
    hash: string,
    diagnostics: Diagnostic[],
  ): void {
    if (prev) this.removeFile(prev.id, rel);
    this.db.prepare('DELETE FROM diagnostics WHERE origin = ?').run(rel);
    this.db
      .prepare(
        `INSERT INTO files (path, size, mtime_ms, hash, format, status, samples, indexed_at) VALUES (?, ?, ?, ?, NULL, 'ready', 0, ?)`,
      )
      .run(rel, size, mtimeMs, hash, new Date().toISOString());
    const cap = new DiagnosticCap((line, severity, message, file, entry) =>
      this.insertDiag.run(file, line, severity, message, rel, entry ?? null),
    );
    for (const d of diagnostics) cap.add(d.line, d.severity, d.message, d.file || rel, d.entry);
    cap.finish();
  }

  /** Drops models and problems that no longer have samples (annotations are keyed by strings and stay). */
  pruneOrphans(): void {
    this.db.exec(`
      DELETE FROM models WHERE id NOT IN (SELECT DISTINCT model_id FROM stats);
      DELETE FROM model_graders WHERE model_id NOT IN (SELECT id FROM models);
      DELETE FROM problems WHERE id NOT IN (SELECT DISTINCT problem_id FROM stats);
      DELETE FROM similarity_cache WHERE problem_id NOT IN (SELECT id FROM problems) OR model_id NOT IN (SELECT id FROM models) OR base_model_id NOT IN (SELECT id FROM models);
    `);
    this.models.clear();
    this.graders.clear();
    this.problems.clear();
  }

  /** Stores one named score (keyed by strings; see schema migration 6 -> 7). */
  /**
   * The {@link RecordFacts} of the first record of (model `mid`, problem `pid`) in the file `other` (already
   * indexed), read again from that record's bytes (its span) with the file's reader; null when it has no span
   * (a whole-document or archive format, a record without samples) or cannot be read (then nothing is compared).
   */
  async factsIn(a: IndexFileArgs, other: string, mid: number, pid: number): Promise<RecordFacts | null> {
    const at = this.db
      .prepare(
        `SELECT f.format, sp.rec_offset AS start, sp.rec_bytes AS bytes FROM samples s JOIN files f ON f.id = s.file_id
           JOIN sample_spans sp ON sp.sample_id = s.id
          WHERE s.model_id = ? AND s.problem_id = ? AND f.path = ? ORDER BY s.line LIMIT 1`,
      )
      .get(mid, pid, other) as { format: FormatId | null; start: number; bytes: number } | undefined;
    if (!at) return null;
    const absPath = join(a.root, ...other.split('/'));
    const dir = posix.dirname(other);
    const range = { start: at.start, end: at.start + at.bytes };
    try {
      const fh = await fsp.open(absPath, 'r');
      const rangeBytes = Buffer.alloc(at.bytes);
      try {
        await fh.read(rangeBytes, 0, at.bytes, at.start);
      } finally {
        await fh.close();
      }
      const ctx = {
        root: a.root,
        relPath: other,
        absPath,
        run: dir === '.' ? '' : dir,
        range,
        rangeBytes,
        options: a.readerOptions,
      };
      for await (const ev of readFile(ctx, at.format ?? undefined))
        if (ev.kind === 'problem') return recordFacts(ev.record);
    } catch {
      // the other file cannot be read now: nothing to compare with
    }
    return null;
  }

  private storeScore(
    fileId: number,
    r: ProblemRecord,
    pk: string,
    mk: string | null,
    modelName: string | null,
    sampleIndex: number,
    sc: NamedScore,
    defines: boolean,
  ): void {
    this.insertScore.run(
      fileId,
      r.line,
      r.record ?? null,
      pk,
      mk,
      modelName,
      sampleIndex,
      sc.scorer,
      sc.value,
      sc.steps ? stepsJson(sc.steps) : null,
      sc.rule ?? null,
      defines ? 1 : 0,
    );
  }

  /**
   * Streams one file into the index. A replaced file is swapped in one transaction; a new file is
   * committed in batches with status `partial` until its last record. The records come from the
   * file's reader ({@link readFile}); what happens to each is {@link writeRecord}'s (the writer knows
   * nothing of formats: only of records, samples, scores and diagnostics).
   */
  async indexFile(a: IndexFileArgs): Promise<{ samples: number; cancelled: boolean }> {
    const db = this.db;
    const atomic = !!a.prev && a.prev.status === 'ready';
    const now = new Date().toISOString();
    let fileId: number;
    let samples = 0;
    let inBatch = 0;

    const knownHash = a.prev ? await a.hash : '';
    let commits = 0;
    // The full-text rows of the samples written in the open transaction, inserted just before it commits
    // or when {@link FTS_ROWS_AT_ONCE} are waiting. FTS5 writes its pending terms to disk as a new segment
    // when another statement of the transaction opens a statement savepoint (the model and problem
    // upserts and the stats refresh, once per record): rows inserted one by one between those made a
    // small segment per record, and merging them (the problem upsert took 12 ms a call in the CPU profile
    // of the indexing thread). Held back, FTS5 writes fewer, larger segments: the index phase took 7%
    // less CPU at the bench's quarter scale, for about 10 MB more peak memory.
    const ftsIds: (number | bigint)[] = [];
    const ftsTexts: (string | Uint8Array)[] = [];
    /** The problem of each held-back row (witnesses are written with them: ./searchIndex `writeSearchParts`). */
    const ftsPids: number[] = [];
    /** Holds back the full-text row of a sample just inserted (its row id, the sample, its problem's row id). */
    const holdFts = (id: number | bigint, s: SampleRecord, pid: number) => {
      if (this.insertFts) {
        ftsIds.push(id);
        ftsTexts.push(s.searchText ?? searchText(s.text));
        ftsPids.push(pid);
      }
    };
    const flushFts = () => {
      const ins = this.insertFts;
      if (ins && ftsIds.length > 0) {
        for (let i = 0; i < ftsIds.length; i++) ins.run(ftsIds[i], ftsTexts[i]);
        writeSearchParts(this.search, fileId, ftsIds, ftsTexts, ftsPids);
      }
      dropFts();
    };
    const dropFts = () => {
      ftsIds.length = 0;
      ftsTexts.length = 0;
      ftsPids.length = 0;
    };
    /** Ends the open transaction: COMMIT with its full-text rows, or ROLLBACK without them. */
    const end = (commit: boolean) => {
      if (commit) {
        flushFts();
        db.exec('COMMIT');
      } else {
        dropFts();
        db.exec('ROLLBACK');
      }
    };
    db.exec('BEGIN IMMEDIATE');
    try {
      // Replace (atomic) or redo a partial file: its old rows go first.
      fileId = this.openFileRow(a, knownHash, now);
      db.prepare('DELETE FROM diagnostics WHERE origin = ?').run(a.rel);
      const cap = new DiagnosticCap((line, severity, message, file, entry) =>
        this.insertDiag.run(file, line, severity, message, a.rel, entry ?? null),
      );
      for (const d of this.pendingDiagnostics) cap.add(d.line, d.severity, d.message, d.file || a.rel, d.entry);
      this.pendingDiagnostics = [];
      const p = newFilePass(a, fileId, (line, severity, message, file = a.rel, entry?) =>
        cap.add(entry ? 0 : line, severity, message, file, entry),
      );

      const ctx = {
        root: a.root,
        relPath: a.rel,
        absPath: a.abs,
        run: p.run,
        signal: a.signal,
        options: a.readerOptions,
      };
      // without the full-text rows (fts: false) the reader's thread does not prepare their texts either
      const parallelOpts = { noSearchText: this.insertFts === null, lexicon: this.counter.lexicon };
      for await (const ev of a.parallel ? readFileParallel(ctx, a.format, parallelOpts) : readFile(ctx, a.format)) {
        if (a.signal?.aborted) {
          this.flushStats(p);
          cap.finish();
          end(!atomic);
          return { samples: atomic ? 0 : samples, cancelled: true };
        }
        if (ev.kind === 'diagnostic') {
          const d = ev.diagnostic;
          p.diag(d.line, d.severity, d.message, d.file || a.rel, d.entry);
          continue;
        }
        if (ev.kind === 'ungrade') {
          this.writeUngrade(p, ev);
          continue;
        }
        const written = await this.writeRecord(p, ev.record, holdFts);
        samples += written;
        inBatch += written;
        if (ftsIds.length >= FTS_ROWS_AT_ONCE) flushFts();
        // The first batch of a new file is small, so its first problems are queryable at once.
        if (!atomic && inBatch >= (commits === 0 ? Math.min(a.batchSize, 2000) : a.batchSize)) {
          commits++;
          this.flushStats(p);
          db.prepare('UPDATE files SET samples = ? WHERE id = ?').run(samples, fileId);
          end(true);
          a.onBatch(samples);
          inBatch = 0;
          await new Promise((r) => setImmediate(r));
          db.exec('BEGIN IMMEDIATE');
        }
      }
      this.finishFile(p);
      cap.finish();
      if (a.signal?.aborted) {
        // The reader stopped early because of the abort: the file is incomplete.
        end(!atomic);
        return { samples: atomic ? 0 : samples, cancelled: true };
      }
      db.prepare(`UPDATE files SET status = 'ready', samples = ?, hash = ? WHERE id = ?`).run(
        samples,
        await a.hash,
        fileId,
      );
      end(true);
      a.onBatch(samples);
      return { samples, cancelled: false };
    } catch (e) {
      if (a.signal?.aborted) {
        // Readers may throw an AbortError when cancelled: same as a cancellation between records.
        if (db.inTransaction) {
          try {
            end(!atomic);
          } catch {
            // the full-text rows could not be written: nothing of this transaction is kept (the file
            // stays partial and is read again by the next pass)
            if (db.inTransaction) db.exec('ROLLBACK');
            return { samples: 0, cancelled: true };
          }
        }
        return { samples: atomic ? 0 : samples, cancelled: true };
      }
      dropFts();
      if (db.inTransaction) db.exec('ROLLBACK');
      // The file could not be read to the end: keep the previous state, report why.
      this.recordFileError(a.rel, a.prev, `indexing failed: ${(e as Error).message}`);
      return { samples: 0, cancelled: false };
    }
  }

  /** The file's row for this pass (status `partial`): its earlier row emptied of its old samples, or a new one. */
  private openFileRow(a: IndexFileArgs, knownHash: string, now: string): number {
    if (a.prev) {
      this.deleteSamplesOf(a.prev.id);
      this.db
        .prepare(
          `UPDATE files SET size = ?, mtime_ms = ?, hash = ?, format = ?, status = 'partial', samples = 0, indexed_at = ? WHERE id = ?`,
        )
        .run(a.size, a.mtimeMs, knownHash, a.format, now, a.prev.id);
      return a.prev.id;
    }
    return Number(
      this.db
        .prepare(
          `INSERT INTO files (path, size, mtime_ms, hash, format, status, samples, indexed_at) VALUES (?, ?, ?, ?, ?, 'partial', 0, ?)`,
        )
        .run(a.rel, a.size, a.mtimeMs, knownHash, a.format, now).lastInsertRowid,
    );
  }

  /** Recomputes the per-problem counts (`stats`) of the pairs written since the last time. */
  private flushStats(p: FilePass): void {
    for (const [mid, pid] of p.touched.values()) this.refreshStat.run(mid, pid);
    p.touched.clear();
  }

  /** Verdicts already written from numbers 0/1 of a file that turns out to hold scores: ungraded. */
  private writeUngrade(p: FilePass, ev: { lines: number[]; samples?: { line: number; sampleIndex: number }[] }): void {
    const db = this.db;
    const lines = JSON.stringify(ev.lines);
    const pairs = db
      .prepare(
        'SELECT DISTINCT model_id AS m, problem_id AS p FROM samples WHERE file_id = ? AND line IN (SELECT value FROM json_each(?))',
      )
      .all(p.fileId, lines) as { m: number; p: number }[];
    for (const { m, p: pid } of pairs) p.touched.set(`${m}:${pid}`, [m, pid]);
    db.prepare('UPDATE samples SET correct = NULL WHERE file_id = ? AND line IN (SELECT value FROM json_each(?))').run(
      p.fileId,
      lines,
    );
    // single samples (a line mixing 0/1 with word verdicts): by the index the reader gave, as stored
    for (const x of ev.samples ?? []) {
      const at = { f: p.fileId, l: x.line, i: x.sampleIndex + (p.shifted.get(x.line) ?? 0) };
      const row = db
        .prepare(
          'SELECT model_id AS m, problem_id AS p FROM samples WHERE file_id = :f AND line = :l AND sample_index = :i',
        )
        .get(at) as { m: number; p: number } | undefined;
      if (!row) continue;
      p.touched.set(`${row.m}:${row.p}`, [row.m, row.p]);
      db.prepare('UPDATE samples SET correct = NULL WHERE file_id = :f AND line = :l AND sample_index = :i').run(at);
    }
  }

  /**
   * Writes one record of the file: a problem list's facts, scores for other files' samples, or a problem's
   * samples (after the checks against what the file and the index already hold). Returns the samples written.
   */
  private async writeRecord(p: FilePass, r: ProblemRecord, holdFts: HoldFts): Promise<number> {
    // a dataset spelt two ways in the folder is written under one spelling (trial 9 finding 9)
    const spelling = p.a.readerOptions?.datasetSpellings?.[datasetKey(r.dataset)];
    if (spelling !== undefined) r.dataset = spelling;
    const where = r.record === undefined ? `line ${r.line}` : `record ${r.record}`;
    if (r.role === 'info') {
      this.writeInfo(p, r, where);
      return 0;
    }
    if (r.role === 'scores') {
      this.writeScoresOnly(p, r, where);
      return 0;
    }
    if (r.subject) {
      // a subject given with the samples: kept like a problem list's (table problem_info)
      const pk = problemKey(r.dataset, r.problemId);
      if (!p.infoSeen.has(pk)) {
        p.infoSeen.set(pk, where);
        this.insertInfo.run(p.fileId, r.line, r.record ?? null, pk, null, null, null, r.subject);
      }
    }
    const mid = this.modelId(r.model.run ?? p.run, r);
    const pid = this.problemId(r);
    const pair: Pair = { mid, pid, key: `${mid}:${pid}`, other: this.otherFileOf(p, mid, pid) };
    if (
      r.samples.some((x) => x.scores !== undefined && x.scores.length > 0) &&
      this.writeRecordScores(p, r, where, pair)
    )
      return 0;
    const state = await this.pairState(p, r, where, pair);
    if (state === null) return 0;
    if (r.samples.length === 0) {
      // still one of the model's problems: counted in "missing", never dropped
      this.insertEmpty.run(p.fileId, r.line, mid, pid);
      this.addEmptyStat.run(mid, pid);
      p.diag(
        r.line,
        'info',
        `problem ${JSON.stringify(r.problemId)} of model ${r.model.name} has no samples: it counts in "missing" of every figure of this model`,
      );
      return 0;
    }
    return this.writeSamples(p, r, state, pair, holdFts);
  }

  /** A problem list's record (facts about a problem, no samples): kept once per problem in `problem_info`. */
  private writeInfo(p: FilePass, r: ProblemRecord, where: string): void {
    const pk = problemKey(r.dataset, r.problemId);
    const first = p.infoSeen.get(pk);
    if (first !== undefined) {
      p.diag(
        r.line,
        'warning',
        `${where}: problem ${JSON.stringify(r.problemId)} is listed again (first at ${first}); skipped`,
      );
      return;
    }
    p.infoSeen.set(pk, where);
    this.insertInfo.run(
      p.fileId,
      r.line,
      r.record ?? null,
      pk,
      r.question ?? null,
      r.referenceAnswer ?? null,
      r.level ?? null,
      r.subject ?? null,
    );
  }

  /** Scores for samples other files define: stored by key, attached when read (TraceIndex.resolveScores). */
  private writeScoresOnly(p: FilePass, r: ProblemRecord, where: string): void {
    const pk = problemKey(r.dataset, r.problemId);
    const modelName = r.model.name === '' ? null : r.model.name;
    const stateKey = `${modelName ?? ''}\x1f${pk}`;
    let state = p.scoreState.get(stateKey);
    if (!state) p.scoreState.set(stateKey, (state = { next: 0 }));
    for (const sc of r.scores ?? []) {
      const index = sc.sampleIndex ?? state.next;
      state.next = Math.max(state.next, index + 1);
      if (firstScore(p, `${stateKey}\x1f${index}\x1f${sc.scorer}`, where, sc.scorer, index, r.problemId))
        this.storeScore(p.fileId, r, pk, null, modelName, index, sc, false);
    }
  }

  /** The file already holding samples of (model, problem) other than this one (or null), looked up once per pair. */
  private otherFileOf(p: FilePass, mid: number, pid: number): string | null {
    const key = `${mid}:${pid}`;
    let other = p.otherFile.get(key);
    if (other === undefined) {
      other = (this.otherFileHas.pluck().get({ m: mid, p: pid, f: p.fileId }) as string | undefined) ?? null;
      p.otherFile.set(key, other);
    }
    return other;
  }

  /**
   * A record whose samples carry named scores. The same samples in every file, each file with its
   * scorer's scores (RewardMATH's layout): the first file defines the samples; the others add their
   * scores, once their samples agree. True when the record is done with (its scores added to another
   * file's samples, or it repeats a problem of this file); false when its samples are written as usual
   * (per-problem records have their scores stored here, per-sample ones with their sample).
   */
  private writeRecordScores(p: FilePass, r: ProblemRecord, where: string, pair: Pair): boolean {
    const mk = modelKey(r.model.run ?? p.run, r.model.name, r.model.revision);
    const pk = problemKey(r.dataset, r.problemId);
    const defined = p.seen.get(pair.key);
    // (a per-sample record is one sample of its problem: the next record of the problem is its next
    // sample, never a repeat; repeated scores of one sample are caught by sample index)
    const firstAt = r.perSample
      ? undefined
      : (p.addedScores.get(pair.key) ?? (defined ? (defined.where ?? `line ${defined.line}`) : undefined));
    if (firstAt !== undefined) {
      p.dupScores.count += r.samples.reduce((a, x) => a + (x.scores?.length ?? 0), 0);
      p.dupScores.first ??= `${where}: problem ${JSON.stringify(r.problemId)} is given again (first at ${firstAt})`;
      return true;
    }
    const other = pair.other;
    if (other !== null && r.perSample) {
      this.addSampleScores(p, r, where, pair, mk, pk);
      return true;
    }
    if (other !== null) {
      p.addedScores.set(pair.key, where);
      const have = this.samplesOfPair.all(pair.mid, pair.pid) as { i: number; correct: number | null }[];
      const verdict = (c: boolean | null | undefined) => (c === null || c === undefined ? null : c ? 1 : 0);
      const differs =
        have.length !== r.samples.length ||
        r.samples.some((x, j) => have[j]?.i !== (x.sampleIndex ?? j) || have[j]?.correct !== verdict(x.correct));
      if (differs) {
        p.mismatch.count++;
        p.mismatch.first ??= `${where}: the samples of problem ${JSON.stringify(r.problemId)} differ from those indexed from ${other} (${have.length} there, ${r.samples.length} here, or another verdict at the same index); this file's scores are attached by sample index all the same`;
      }
      for (const x of r.samples)
        for (const sc of x.scores ?? []) this.storeScore(p.fileId, r, pk, mk, null, x.sampleIndex ?? 0, sc, true);
      return true;
    }
    // (a per-sample record's scores are stored with its sample, under the index it is given)
    if (!r.perSample)
      for (const x of r.samples)
        for (const sc of x.scores ?? []) this.storeScore(p.fileId, r, pk, mk, null, x.sampleIndex ?? 0, sc, true);
    return false;
  }

  /**
   * One per-sample record of a problem another file defined the samples of: its scores, by its sample
   * index (given, or the record's order among the problem's records in this file); a sample the other
   * file does not have, or has with another verdict, counts in the file's mismatch warning.
   */
  private addSampleScores(p: FilePass, r: ProblemRecord, where: string, pair: Pair, mk: string, pk: string): void {
    const counter = p.perSampleScored.get(pair.key) ?? { next: 0 };
    p.perSampleScored.set(pair.key, counter);
    for (const x of r.samples) {
      const index = x.sampleIndex ?? counter.next;
      counter.next = Math.max(counter.next, index + 1);
      const have = this.verdictOf.get(pair.mid, pair.pid, index) as { correct: number | null } | undefined;
      const verdict = x.correct === null || x.correct === undefined ? null : x.correct ? 1 : 0;
      if (have === undefined || have.correct !== verdict) {
        p.mismatch.count++;
        p.mismatch.first ??= `${where}: sample ${index} of problem ${JSON.stringify(r.problemId)} ${have === undefined ? 'is not' : 'has another verdict than the one'} indexed from ${pair.other}; this file's scores are attached by sample index all the same`;
      }
      for (const sc of x.scores ?? [])
        if (firstScore(p, `${pair.key}\x1f${index}\x1f${sc.scorer}`, where, sc.scorer, index, r.problemId))
          this.storeScore(p.fileId, r, pk, mk, null, index, sc, true);
    }
  }

  /**
   * The state of the record's (model, problem) in this file, created with its first record; null when the
   * record is skipped (said in a diagnostic): its id names another problem than the first record's, it
   * repeats a per-problem record of this file, or another file of the model has the problem (a re-run). A
   * record of a problem another file has samples of that is not skipped (per-sample records, seed shards)
   * is merged: its samples are numbered after the ones already indexed.
   */
  private async pairState(p: FilePass, r: ProblemRecord, where: string, pair: Pair): Promise<PairState | null> {
    const { mid, pid, other } = pair;
    // one-sample-per-line formats never give a record without samples; a mapping's per-sample record
    // is one sample even when it gives the sample's index (trial 5 finding 1)
    const perProblemRecord =
      !r.perSample && (r.samples.length === 0 || r.samples.some((s) => s.sampleIndex !== undefined));
    const ownIndex = r.perSample === true && r.samples.some((s) => s.sampleIndex !== undefined);
    let state = p.seen.get(pair.key);
    // the same id for another problem (its question or reference differs): skipped and said, never "duplicate"
    const facts = recordFacts(r);
    let firstFacts: RecordFacts | null = state?.facts ?? null;
    if (!state && other !== null) {
      let got = p.otherFacts.get(pair.key);
      if (!got) p.otherFacts.set(pair.key, (got = this.factsIn(p.a, other, mid, pid)));
      firstFacts = await got;
    }
    const differs = firstFacts && problemDifference(firstFacts, facts);
    if (differs) {
      const first = state
        ? `(first at line ${state.line}); skipped`
        : `from the problem${DUPLICATE_OF}${other}; skipped`;
      p.diag(
        r.line,
        'warning',
        `problem id ${JSON.stringify(r.problemId)} of model ${r.model.name} names two different problems: ${differs} ${first}`,
      );
      return null;
    }
    // A per-problem record of a problem a seed shard of this file already has (`test_qwen.jsonl` and
    // `test_qwen_seed1.jsonl`), or a per-sample record with its own index in such a shard: merged as
    // more samples below (indices shifted after those indexed), not skipped as a duplicate.
    const shard =
      other !== null && (perProblemRecord || ownIndex) && r.samples.length > 0 && isSeedShard(p.a.rel, other);
    if (other !== null && perProblemRecord && !shard) {
      p.crossDup.count++;
      p.crossDup.from.add(other);
      p.diag(
        r.line,
        'warning',
        `duplicate problem id ${JSON.stringify(r.problemId)} for model ${r.model.name}: already indexed from ${other}; skipped`,
      );
      return null;
    }
    const first = {
      line: r.line,
      mid,
      pid,
      problem: r.problemId,
      model: r.model.name,
      where,
      entry: recordEntry(r),
      facts,
    };
    if (other !== null && !state) {
      // A per-sample record of a (model, problem) another file has samples of (seed shards:
      // samples_seed0.jsonl, samples_seed1.jsonl): more samples of that problem, numbered after the
      // ones already indexed (files are indexed in path order). Said once per file.
      p.merged.problems++;
      p.merged.from.add(other);
      const next = this.nextIndexOf.pluck().get({ m: mid, p: pid, f: p.fileId }) as number;
      state = { ...first, next, ...(shard ? { offset: next } : {}) };
      if (shard) p.merged.perProblem = true;
      p.seen.set(pair.key, state);
      return state;
    }
    if (state && perProblemRecord) {
      p.diag(
        r.line,
        'warning',
        `duplicate problem id ${JSON.stringify(r.problemId)} (first at line ${state.line}); skipped`,
      );
      return null;
    }
    if (!state) {
      state = { ...first, next: 0 };
      p.seen.set(pair.key, state);
    }
    return state;
  }

  /**
   * The index a sample of `r` is written under, or null when that index is taken (a duplicate sample
   * index, said in a warning). A sample the reader gave no usable index is numbered here (the next free
   * index); one that takes an index a sample numbered here took before moves that sample on.
   */
  private sampleIndexFor(
    p: FilePass,
    r: ProblemRecord,
    s: SampleRecord,
    state: PairState,
    pair: Pair,
    ownIndex: boolean,
  ): number | null {
    let index =
      state.offset !== undefined && s.sampleIndex !== undefined
        ? state.offset + s.sampleIndex
        : (s.sampleIndex ?? state.next);
    if (state.offset !== undefined && s.sampleIndex !== undefined) p.shifted.set(r.line, state.offset);
    // a sample numbered here (its record gave no usable index, trial 6 finding 4)
    const auto = r.indexless === true && s.sampleIndex === undefined;
    if (ownIndex || auto || state.taken) {
      const taken = (state.taken ??= this.takenIndices(
        pair.mid,
        pair.pid,
        p.a.rel,
        pair.other !== null || state.next > 0,
      ));
      if (auto) {
        // never an index already taken (by this file or another): the next free one
        while (taken.has(index)) index++;
        taken.set(index, { line: r.line, auto: true });
        state.next = Math.max(state.next, index + 1);
      }
      const first = auto ? undefined : taken.get(index);
      if (first !== undefined && 'auto' in first) {
        // an index given now that a sample numbered here took before: that sample moves to the next
        // free index (both kept; the record without an index was named in the reader's warning)
        let to = Math.max(state.next, index + 1);
        while (taken.has(to)) to++;
        this.moveSample.run({ f: p.fileId, m: pair.mid, p: pair.pid, from: index, to });
        taken.set(to, first);
        state.next = to + 1;
        p.moved.add(first.line);
      } else if (first !== undefined) {
        const what = `duplicate sample index ${s.sampleIndex ?? index} of problem ${JSON.stringify(r.problemId)}`;
        p.diag(
          r.line,
          'warning',
          'file' in first
            ? `${what} for model ${r.model.name}: already indexed from ${first.file}; skipped`
            : `${what} (first at line ${first.line}); skipped`,
        );
        return null;
      }
      if (!auto) taken.set(index, { line: r.line });
    }
    state.next = Math.max(state.next, index + 1);
    return index;
  }

  /** Writes the samples of one record (with their spans, per-sample scores and held-back full-text rows). */
  private writeSamples(p: FilePass, r: ProblemRecord, state: PairState, pair: Pair, holdFts: HoldFts): number {
    const perProblemRecord = !r.perSample && r.samples.some((s) => s.sampleIndex !== undefined);
    const ownIndex = r.perSample === true && r.samples.some((s) => s.sampleIndex !== undefined);
    let written = 0;
    let firstId = 0;
    let lastId = 0;
    for (let pos = 0; pos < r.samples.length; pos++) {
      const s = r.samples[pos];
      const index = this.sampleIndexFor(p, r, s, state, pair, ownIndex);
      if (index === null) continue;
      const hash = s.contentHash ?? contentHash(s.text);
      if (!perProblemRecord) {
        // a per-sample record the same as the previous sample of its problem (a line pasted twice?):
        // kept, counted in one info (trial 5 finding 11a); only the previous one is compared (no memory per sample)
        const same = `${hash}\x1f${s.correct}`;
        if (state.last === same) {
          p.repeated.count++;
          p.repeated.first ??= { line: r.line, problem: r.problemId };
        }
        state.last = same;
      }
      // lengths and marker counts, from the text at hand (the parallel reader measured its samples already)
      const m = s.measures ?? this.counter.measure(s.text);
      const { lastInsertRowid } = this.insertSample.run(
        p.fileId,
        r.line,
        pair.mid,
        pair.pid,
        index,
        s.correct === null ? null : s.correct ? 1 : 0,
        s.extractedAnswer ?? null,
        // -Infinity / Infinity are the lowest / highest reward scores (kept); NaN is none
        typeof s.rewardScore === 'number' && !Number.isNaN(s.rewardScore) ? s.rewardScore : null,
        s.finishReason ?? null,
        typeof s.tokenCount === 'number' && Number.isFinite(s.tokenCount) ? Math.round(s.tokenCount) : null,
        hash,
        // A sample with a span is read from its file (sampleText.ts): no copy (schema migration 11).
        // Other formats keep the copy: UTF-8 bytes from the parallel reader are bound as a BLOB and
        // CAST to TEXT (same bytes).
        r.span ? '' : (s.textUtf8 ?? s.text),
        s.textLength ?? codePoints(s.text),
        m.pieces,
        m.markers.join(','),
      );
      // where the text is read again from (sampleText.ts): the record's bytes, the sample's position in it
      if (r.span) this.insertSpan.run(lastInsertRowid, r.span.offset, r.span.bytes, pos);
      if (r.perSample && s.scores && s.scores.length > 0) {
        const mk = modelKey(r.model.run ?? p.run, r.model.name, r.model.revision);
        const pk = problemKey(r.dataset, r.problemId);
        for (const sc of s.scores) this.storeScore(p.fileId, r, pk, mk, null, index, sc, true);
      }
      holdFts(lastInsertRowid, s, pair.pid);
      // the run starts at the first sample written, which is not the record's first when that one was skipped
      if (written === 0) firstId = Number(lastInsertRowid);
      lastId = Number(lastInsertRowid);
      written++;
    }
    // a record whose samples were all skipped wrote none: no run (a run from row id 0 claimed every sample before)
    if (written > 0) this.noteRun(p.fileId, pair.pid, firstId, lastId);
    p.touched.set(pair.key, [pair.mid, pair.pid]);
    return written;
  }

  /** End of the file: its per-problem counts, and the diagnostics that sum up the whole file. */
  private finishFile(p: FilePass): void {
    this.flushStats(p);
    const { diag } = p;
    if (p.dupScores.count > 0)
      diag(
        0,
        'warning',
        `${p.dupScores.count} score${p.dupScores.count === 1 ? '' : 's'} in this file repeat a sample and scorer already scored in it and are left out (the first kept); first: ${p.dupScores.first}`,
      );
    if (p.moved.size > 0) {
      const moved = p.moved;
      const lines = [...moved].slice(0, 5).join(', ') + (moved.size > 5 ? ', ...' : '');
      diag(
        Math.min(...moved),
        'info',
        `${plural(moved.size, 'sample')} without a usable sample index (line${moved.size === 1 ? '' : 's'} ${lines}), numbered by the indexer, moved to the next free index when a later record gave the index ${moved.size === 1 ? 'it' : 'they'} had taken (both samples kept)`,
      );
    }
    if (p.mismatch.count > 0)
      diag(
        0,
        'warning',
        `${p.mismatch.count} record${p.mismatch.count === 1 ? '' : 's'} of this file give samples unlike those already indexed; first: ${p.mismatch.first}`,
      );
    this.flushStats(p);
    this.reportUngraded(p);
    const { repeated, crossDup, merged } = p;
    if (repeated.count > 0 && repeated.first)
      diag(
        repeated.first.line,
        'info',
        `${repeated.count} sample${repeated.count === 1 ? '' : 's'} of this file repeat${repeated.count === 1 ? 's' : ''} the sample before it of the same problem exactly (same text and verdict; first at line ${repeated.first.line}, problem ${JSON.stringify(repeated.first.problem)}): kept as samples of their own (identical samples are common when sampling, short code completions above all: they count as separate samples, as they should; only a line pasted twice by mistake would need removing)`,
      );
    if (crossDup.count > 1) {
      // one line for the whole file (a dated re-run of an lm-eval task repeats every problem: trial 5 finding 11g)
      const from = [...crossDup.from].sort();
      diag(
        0,
        'warning',
        `${crossDup.count} problems of this file are already indexed for the same model from ${from.slice(0, 3).join(', ')}${from.length > 3 ? ', ...' : ''} (a re-run or a copy?): this file's records of them are left out, the first file's kept; to use this run instead, remove or exclude the other file`,
      );
    }
    if (merged.problems > 0) this.reportMerged(p);
  }

  /** The info (and, for files named by different training steps, the warning) on problems merged as seed shards. */
  private reportMerged(p: FilePass): void {
    const { merged, diag } = p;
    const from = [...merged.from].sort();
    // files named by different training steps are checkpoints, not seed shards (trial 5 finding 6)
    const step = fileStep(p.a.rel);
    const steps = [...new Set([step, ...from.map((f) => fileStep(f))])];
    if (step !== null && steps.length > 1)
      diag(
        0,
        'warning',
        `this file and ${from.slice(0, 3).join(', ')}${from.length > 3 ? ', ...' : ''} hold samples of the same model and problems but their names give different training steps (${steps.map((x) => x ?? 'none').join(', ')}): checkpoints, not seed shards, yet merged into one model below; give each step its own model (fields.model or fields.revision in the mapping, or one mapping "model" per step's folder)`,
      );
    diag(
      0,
      'info',
      `${merged.perProblem ? 'records (this file is a seed shard of the one named below)' : 'per-sample records'} of ${merged.problems} problem${merged.problems === 1 ? '' : 's'} that already ${merged.problems === 1 ? 'has' : 'have'} samples of the same model from ${from.slice(0, 3).join(', ')}${from.length > 3 ? ', ...' : ''}: read as more samples of those problems (seed shards), numbered after the ones already indexed; if this file is a copy, remove it (its samples would count twice)`,
    );
  }

  /**
   * The file's problems with samples but no graded one: an info each (left out of every figure); one
   * info for a model none of whose problems in this file has a graded sample (an Inspect log without
   * scores: one line, not one per problem), naming the first problems and counting them all.
   */
  private reportUngraded(p: FilePass): void {
    const { diag } = p;
    const byModel = new Map<
      number,
      {
        model: string;
        problems: number;
        ungraded: { line: number; problem: string; model: string; n: number; entry?: string }[];
      }
    >();
    for (const st of p.seen.values()) {
      let m = byModel.get(st.mid);
      if (!m) {
        m = { model: st.model, problems: 0, ungraded: [] };
        byModel.set(st.mid, m);
      }
      m.problems++;
      const row = this.statOf.get(st.mid, st.pid) as { n: number; graded: number } | undefined;
      if (row && row.n > 0 && row.graded === 0) {
        m.ungraded.push({ line: st.line, problem: st.problem, model: st.model, n: row.n, entry: st.entry });
      } else if (row && row.graded < row.n) {
        // some samples of a graded problem have no verdict: they are in no figure (n = graded samples)
        const u = row.n - row.graded;
        diag(
          st.line,
          'info',
          `problem ${JSON.stringify(st.problem)} of model ${st.model}: ${u} of its ${row.n} samples ${u === 1 ? 'has' : 'have'} no verdict (ungraded): ${u === 1 ? 'it is' : 'they are'} in no figure; its n is the ${row.graded} graded`,
          p.a.rel,
          st.entry,
        );
      }
    }
    for (const m of byModel.values()) {
      if (m.ungraded.length > 1 && m.ungraded.length === m.problems) {
        const names = m.ungraded.slice(0, 3).map((st) => JSON.stringify(st.problem));
        const samples = m.ungraded.reduce((sum, st) => sum + st.n, 0);
        // about the whole file: at its first record's line, or the whole archive (line 0) for an archive
        diag(
          m.ungraded[0].entry ? 0 : m.ungraded[0].line,
          'info',
          `model ${m.model} has no graded sample in this file: none of its ${m.problems} problems (${names.join(', ')}${m.problems > 3 ? ', ...' : ''}; ${samples} samples) has a verdict: they count in "missing" of every figure of this model`,
        );
        continue;
      }
      for (const st of m.ungraded) {
        diag(
          st.line,
          'info',
          `problem ${JSON.stringify(st.problem)} of model ${st.model} has no graded sample (${st.n} sample${st.n === 1 ? '' : 's'}, none with a verdict): it counts in "missing" of every figure of this model`,
          p.a.rel,
          st.entry,
        );
      }
    }
  }
}

/** Holds back the full-text row of a sample just inserted (see SampleWriter.indexFile). */
type HoldFts = (id: number | bigint, s: SampleRecord, pid: number) => void;

/** A (model, problem) pair of the record being written: row ids, map key, and the other file holding samples of it (or null). */
interface Pair {
  mid: number;
  pid: number;
  key: string;
  other: string | null;
}

/** A (model, problem) of the file being written: its first line and the next free sample index (and, for a record that only added scores, where it was). */
interface PairState {
  line: number;
  next: number;
  mid: number;
  pid: number;
  problem: string;
  model: string;
  where?: string;
  /** A per-problem record of a seed shard: its sample indices are shifted by this (after the samples already indexed). */
  offset?: number;
  /**
   * Per-sample records that give their sample index (mapping `fields.sampleIndex`): every index
   * taken for this (model, problem), and where (a line of this file, or the other file holding it).
   */
  taken?: Map<number, { line: number; auto?: true } | { file: string }>;
  /** Per-sample records: the content hash and verdict of the previous sample (exact repeats are counted). */
  last?: string;
  /** An archive record (ProblemRecord `entries`): the entry its diagnostics name, its first ungraded sample's. */
  entry?: string;
  /** The question and reference answer of the pair's first record (a later record of another problem is told apart). */
  facts: RecordFacts;
}

/** What the writer keeps while it writes one file ({@link SampleWriter.indexFile}); counts said once per file at its end. */
interface FilePass {
  a: IndexFileArgs;
  fileId: number;
  /** The run folder of the file (its directory, `''` at the root). */
  run: string;
  /** Adds a diagnostic of the file (capped per message: {@link DiagnosticCap}). */
  diag: (line: number, severity: Diagnostic['severity'], message: string, file?: string, entry?: string) => void;
  /** Pairs (model, problem) written since their counts were last refreshed. */
  touched: Map<string, [number, number]>;
  /** Every (model, problem) of the file. */
  seen: Map<string, PairState>;
  /** Per (model, problem) another file has: that file's question and reference answer, read once ({@link SampleWriter.factsIn}). */
  otherFacts: Map<string, Promise<RecordFacts | null>>;
  otherFile: Map<string, string | null>;
  /** Lines of seed-shard records whose sample indices were shifted, and by how much (for `ungrade` of samples). */
  shifted: Map<number, number>;
  /** Samples numbered here that moved for an index a later record gave (trial 6 finding 4). */
  moved: Set<number>;
  /** Per-sample records of problems other files already have samples of (merged: seed shards). */
  merged: { problems: number; from: Set<string>; perProblem: boolean };
  /** Per-problem records skipped because another file of the model has the problem (a re-run?), and those files. */
  crossDup: { count: number; from: Set<string> };
  /** Per-sample records that repeat the previous sample of their problem exactly (text and verdict). */
  repeated: { count: number; first?: { line: number; problem: string } };
  /** Scores-only records: the next sample index per (model name, problem), for per-sample records without one. */
  scoreState: Map<string, { next: number }>;
  /** (model, problem) pairs whose samples another file defined and this file only added scores to, and where. */
  addedScores: Map<string, string>;
  /** Problems listed by a problem list, and where first. */
  infoSeen: Map<string, string>;
  /** Scores given twice for the same sample and scorer within this file, and where first. */
  scoreSeen: Map<string, string>;
  dupScores: { count: number; first?: string };
  /** Per-sample records adding scores to samples another file defined: the next sample index per (model, problem). */
  perSampleScored: Map<string, { next: number }>;
  /** Records whose samples differ from the copy another file defined. */
  mismatch: { count: number; first?: string };
}

/** A fresh {@link FilePass} for the file `a`, written as file row `fileId`. */
function newFilePass(a: IndexFileArgs, fileId: number, diag: FilePass['diag']): FilePass {
  return {
    a,
    fileId,
    run: posix.dirname(a.rel) === '.' ? '' : posix.dirname(a.rel),
    diag,
    touched: new Map(),
    seen: new Map(),
    otherFacts: new Map(),
    otherFile: new Map(),
    shifted: new Map(),
    moved: new Set(),
    merged: { problems: 0, from: new Set(), perProblem: false },
    crossDup: { count: 0, from: new Set() },
    repeated: { count: 0 },
    scoreState: new Map(),
    addedScores: new Map(),
    infoSeen: new Map(),
    scoreSeen: new Map(),
    dupScores: { count: 0 },
    perSampleScored: new Map(),
    mismatch: { count: 0 },
  };
}

/**
 * Whether the score of `scorer` for sample `index` (under `dupKey`: the pair and index) is the first in
 * the file (then noted as given `where`); a second one is counted in the file's `dupScores` and left out.
 */
function firstScore(
  p: FilePass,
  dupKey: string,
  where: string,
  scorer: string,
  index: number,
  problem: string,
): boolean {
  const firstAt = p.scoreSeen.get(dupKey);
  if (firstAt !== undefined) {
    p.dupScores.count++;
    p.dupScores.first ??= `${where}: ${scorer} scores sample ${index} of problem ${JSON.stringify(problem)} again (first at ${firstAt})`;
    return false;
  }
  p.scoreSeen.set(dupKey, where);
  return true;
}

/** The archive entry a record's diagnostics name: its first sample without a verdict's, else its first sample's. */
function recordEntry(r: ProblemRecord): string | undefined {
  if (!r.entries || r.entries.length === 0) return undefined;
  const u = r.samples.findIndex((x) => x.correct === null);
  return r.entries[u] ?? r.entries[0];
}
