import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { modelLabels } from './labels';
import { migrate } from './schema';
import { type Database, type SqliteDriverName, openDatabase } from './sqlite';
import type { Diagnostic } from '../model';
import { ftsQuery } from './search';

/**
 * A sample that errored: finish reason `error` and no verdict (the model gave no output to grade or to vote with).
 * Left out of every figure over graded samples (no verdict) and of maj@k's votes (sampleScan `answersByProblem`).
 * With a verdict (Inspect's `--errored-samples incorrect`: a failure in n) it is an ordinary sample.
 */
export const ERRORED_SAMPLE = "(correct IS NULL AND finish_reason = 'error')";

export { ftsQuery } from './search';

export { UnsupportedRuntimeError } from './sqlite';

const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Separator inside composite string keys (ASCII unit separator: never in names or ids we accept). */
export const KEY_SEP = '\x1f';

/** Key of a problem that stays stable across re-indexing: `dataset \x1f problemId`. */
export function problemKey(dataset: string, problemId: string): string {
  return `${dataset}${KEY_SEP}${problemId}`;
}

/** Key of a model that stays stable across re-indexing: `run \x1f name \x1f revision`. */
export function modelKey(run: string, name: string, revision: string | null | undefined): string {
  return `${run}${KEY_SEP}${name}${KEY_SEP}${revision ?? ''}`;
}

/**
 * Human-readable model id used by the CLI report and the UI: `run:name@revision`, without the parts
 * that are empty (`name` alone for a model at the root without revision).
 */
export function modelDisplayId(run: string, name: string, revision: string | null | undefined): string {
  return `${run ? `${run}:` : ''}${name}${revision ? `@${revision}` : ''}`;
}

/** A model as stored, with its totals over all problems. */
export interface ModelRow {
  id: number;
  key: string;
  /** `run:name@revision` (see {@link modelDisplayId}). */
  displayId: string;
  run: string;
  name: string;
  revision: string | null;
  nameSource: 'data' | 'path';
  /** Short label for the UI: the name, plus the run when several runs hold a model of that name. */
  label: string;
  /** Every problem the model has a record of, with or without samples (the denominator of its figures). */
  problems: number;
  samples: number;
  correct: number;
  /** Samples with a reward-model score. */
  scored: number;
  /** Problems whose record has no samples (`code: []`, every sample unreadable). */
  emptyProblems: number;
  /** Problems with samples but none graded (no verdict: `score: null`, scores that are not verdicts). */
  ungradedProblems: number;
  /** Samples with a verdict (the others are ungraded: not in any figure). */
  graded: number;
  /** What gave the verdicts, when the format has a choice (an Inspect log's `scorer "match"`); null otherwise. */
  grader: string | null;
  /**
   * Some of the model's samples come from a file whose indexing did not finish (a pass cancelled or
   * interrupted while reading it): its figures cover part of that file.
   */
  partial: boolean;
}

/** A problem as stored. `id` is the row id (valid for this index only); `key` is stable. */
export interface ProblemRow {
  id: number;
  key: string;
  dataset: string;
  problemId: string;
  question: string | null;
  referenceAnswer: string | null;
  level: string | null;
  /** Subject (`Algebra`), from the samples' records or a problem list; null when unknown. */
  subject: string | null;
}

/**
 * Per (model, problem) counts: `n` samples, `c` correct, `graded` with a verdict, `scored` with a reward
 * score. A row with n = 0 is a problem whose record had no samples (schema migration 5).
 */
export interface StatRow {
  modelId: number;
  problemId: number;
  n: number;
  c: number;
  graded: number;
  scored: number;
}

/** One sample without its text (for lists and tree nodes). */
export interface SampleRow {
  id: number;
  modelId: number;
  problemId: number;
  sampleIndex: number;
  correct: boolean | null;
  extractedAnswer: string | null;
  rewardScore: number | null;
  finishReason: string | null;
  tokenCount: number | null;
  /** Length of the text in Unicode code points (stored while indexing: schema migration 11). */
  length: number;
  contentHash: string;
  file: string;
  line: number;
  /** Labels of the sample's annotation (empty when not annotated). */
  labels: string[];
  hasNote: boolean;
}

/** A sample with its full text (read from its results file: sampleText.ts). */
export interface SampleDetail extends SampleRow {
  text: string;
}

/** Which problems a problem list returns. `model`/`base` are model row ids. */
export type ProblemFilter =
  | { kind: 'all' }
  | { kind: 'failing'; model: number }
  | { kind: 'lost'; base: number; model: number }
  | { kind: 'gained'; base: number; model: number }
  | { kind: 'lowAccuracy'; model: number; threshold: number }
  /** Problems `model` solves rarely: 0 < c/graded <= threshold (its correct samples there are the likeliest lucky guesses). */
  | { kind: 'luckyGuess'; model: number; threshold: number }
  | { kind: 'level'; level: string }
  | { kind: 'label'; label: string }
  | { kind: 'search'; query: string };

/** Options for opening an index. */
export interface OpenOptions {
  readonly?: boolean;
  /** How long to wait for another process's lock, in ms (SQLite busy timeout). Default 10000. */
  busyTimeoutMs?: number;
  /**
   * The SQLite driver; default this process's ({@link sqliteDriver}). Only tests that write an index
   * with one driver and read it with the other set it (never both on one file at once).
   */
  driver?: SqliteDriverName;
}

/**
 * A problem's difficulty level (SQL over `problems p`): from its samples' records, else from a problem
 * list read through a `problemInfo` mapping (table `problem_info`, matched by problem key; the first
 * file in path order wins).
 */
export const PROBLEM_LEVEL_SQL = `coalesce(p.level, (SELECT i.level FROM problem_info i JOIN files fi ON fi.id = i.file_id
  WHERE i.problem_key = p.key AND i.level IS NOT NULL ORDER BY fi.path, i.line LIMIT 1))`;
/** A problem's subject (table `problem_info`: from a problem list, or given with the samples), first file in path order. */
export const PROBLEM_SUBJECT_SQL = `(SELECT i.subject FROM problem_info i JOIN files fi ON fi.id = i.file_id
  WHERE i.problem_key = p.key AND i.subject IS NOT NULL ORDER BY fi.path, i.line LIMIT 1)`;
const PROBLEM_REF_SQL = `coalesce(p.reference_answer, (SELECT i.reference_answer FROM problem_info i JOIN files fi ON fi.id = i.file_id
  WHERE i.problem_key = p.key AND i.reference_answer IS NOT NULL ORDER BY fi.path, i.line LIMIT 1))`;
const PROBLEM_COLUMNS = `p.id, p.key, p.dataset, p.problem_id AS problemId, p.question,
  ${PROBLEM_REF_SQL} AS referenceAnswer, ${PROBLEM_LEVEL_SQL} AS level, ${PROBLEM_SUBJECT_SQL} AS subject`;

/**
 * A process reward model's step scores as stored (column `scores.steps`): a JSON list, with `-Infinity` and
 * `Infinity` written as the strings `"-Infinity"` / `"Infinity"` (JSON has no such numbers; they are the lowest
 * and highest scores, util.ts `scoreNumber`). {@link parseStepsJson} reads it back.
 */
export function stepsJson(steps: readonly number[]): string {
  return JSON.stringify(steps.map((x) => (Number.isFinite(x) ? x : String(x))));
}

/** The step scores of a {@link stepsJson} text. */
export function parseStepsJson(text: string): number[] {
  return (JSON.parse(text) as (number | string)[]).map(Number);
}

/**
 * Every scored and graded sample of one model (parameter: model row id), for best-of-k. Served by the
 * covering partial index `samples_scored` (schema migration 3) without reading the sample rows.
 */
export const SCORED_SAMPLES_SQL = `SELECT problem_id AS p, reward_score AS score, correct FROM samples
  WHERE model_id = ? AND reward_score IS NOT NULL AND correct IS NOT NULL`;

/** A named score attached to its sample (see {@link TraceIndex.resolveScores}). */
export interface AttachedScore {
  sampleId: number;
  modelId: number;
  problemId: number;
  sampleIndex: number;
  /** The sample's verdict. */
  correct: boolean | null;
  scorer: string;
  value: number;
  /** Step scores of a process reward model, when the score came from steps. */
  steps: number[] | null;
  rule: string | null;
  /** The file and 1-based line the score was read from. */
  file: string;
  line: number;
}

/** Named scores that attach to no single sample, grouped by file, scorer and reason. */
export interface UnattachedScores {
  /** The file that gave the scores. */
  file: string;
  scorer: string;
  reason: 'no-sample' | 'ambiguous' | 'conflict';
  count: number;
  /** Where the first one is: line, record (JSON documents), problem id and sample index. */
  first: { line: number; record: number | null; problemId: string; sampleIndex: number };
  /**
   * For `ambiguous`: the models whose samples it matched; for `conflict`: the file whose score is used;
   * for `no-sample`: JSON {@link NoSampleDetail} of the first score.
   */
  detail: string;
}

/**
 * Why a score attached to no sample (trial 6 finding 7), of the first one of its group: the keys looked
 * for, and which key found nothing:
 * - `problem`: no sample of any model has that (dataset, problem id);
 * - `model`: the problem has samples, but of other models (`models`: their names);
 * - `index`: the model has samples of the problem, but none at that sample index (`indices`: how many
 *   samples it has and their smallest and largest index).
 * Groups of `no-sample` scores are split by cause.
 */
export interface NoSampleDetail {
  /** The model looked for (its key's run:name:revision, or the name the file gives); null: any model. */
  model: string | null;
  dataset: string;
  cause: 'problem' | 'model' | 'index';
  models?: string[];
  /** `index`: the samples of the (first) model found: its name, how many, their smallest and largest index. */
  indices?: { model: string; n: number; min: number; max: number };
}

/** Result of {@link TraceIndex.resolveScores}. */
export interface ResolvedScores {
  attached: AttachedScore[];
  unattached: UnattachedScores[];
  /** Total of `unattached` counts. */
  unattachedCount: number;
}

/**
 * SQL ORDER BY terms putting problems (table alias `a`) in natural order: by dataset, integer ids first
 * by value, then the other ids by their text before a trailing number and that number by value
 * (`HumanEval/2` before `HumanEval/10`; trial 10 finding 8: they sorted as text, /0, /1, /10, /100),
 * a longer run of digits after a shorter one (ids past 2^63), and the id's text last (`07` before `7`).
 */
export function problemOrder(a: string): string {
  const id = `${a}.problem_id`;
  const prefix = `rtrim(${id}, '0123456789')`;
  const digits = `substr(${id}, length(${prefix}) + 1)`;
  return `${a}.dataset, CAST(${id} AS INTEGER) = ${id} DESC,
          CASE WHEN CAST(${id} AS INTEGER) = ${id} THEN CAST(${id} AS INTEGER) END,
          ${prefix}, length(ltrim(${digits}, '0')), ltrim(${digits}, '0'), ${id}`;
}

/**
 * The SQLite trace index: one database file per results folder. Opening applies pending
 * migrations; the database uses WAL so readers (tree, report) never block the indexer.
 * All query methods are synchronous and cheap (indexed). The connection runs on this process's SQLite
 * driver (better-sqlite3, or node:sqlite where better-sqlite3 cannot load: ./sqlite/driver.ts); an
 * index written by either opens with the other.
 */
export class TraceIndex {
  readonly db: Database;

  private constructor(db: Database) {
    this.db = db;
  }

  /**
   * Opens (creating if needed) the index at `dbPath` (`:memory:` for tests).
   * @throws UnsupportedRuntimeError when no SQLite driver can run here (the message says why for each);
   *   Error when the schema is newer than supported.
   */
  static open(dbPath: string, options: OpenOptions = {}): TraceIndex {
    if (dbPath !== ':memory:') mkdirSync(dirname(dbPath), { recursive: true });
    const db = openDatabase(dbPath, {
      readonly: !!options.readonly,
      timeoutMs: options.busyTimeoutMs ?? 10000,
      driver: options.driver,
    });
    try {
      if (!options.readonly) {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        migrate(db);
      }
      db.pragma('foreign_keys = OFF');
      db.pragma('cache_size = -32000');
    } catch (e) {
      db.close();
      throw e;
    }
    return new TraceIndex(db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Every model with totals, ordered by run then name. */
  models(): ModelRow[] {
    const rows = this.db
      .prepare(
        `SELECT m.id, m.key, m.run, m.name, m.revision, m.name_source AS nameSource, m.label, g.grader,
                count(s.problem_id) AS problems, coalesce(sum(s.n),0) AS samples,
                coalesce(sum(s.c),0) AS correct, coalesce(sum(s.scored),0) AS scored,
                coalesce(sum(s.n = 0),0) AS emptyProblems, coalesce(sum(s.n > 0 AND s.graded = 0),0) AS ungradedProblems,
                coalesce(sum(s.graded),0) AS graded
           FROM models m LEFT JOIN stats s ON s.model_id = m.id LEFT JOIN model_graders g ON g.model_id = m.id
          GROUP BY m.id ORDER BY m.run, m.name, m.revision`,
      )
      .all() as Omit<ModelRow, 'displayId' | 'partial'>[];
    const partial = this.partialModels();
    // Labels are stored when an indexing pass ends; a model whose file is still being read (or whose
    // pass was cancelled) has none yet: give it the label the pass would store, never an empty name.
    const fallback = rows.some((r) => r.label === '') ? modelLabels(rows) : undefined;
    // Natural order: step-100, step-300, ..., step-1000 (not the text order step-1000 before step-300); steps
    // written with k or m by their value (step_500 before step_1k; trial 8 finding 9).
    return rows
      .map((r, i) => ({
        ...r,
        partial: partial.has(r.id),
        label: r.label === '' && fallback ? fallback[i] : r.label,
        displayId: modelDisplayId(r.run, r.name, r.revision),
      }))
      .sort(
        (a, b) =>
          NATURAL.compare(scaledSteps(a.run), scaledSteps(b.run)) ||
          NATURAL.compare(scaledSteps(a.name), scaledSteps(b.name)) ||
          NATURAL.compare(a.revision ?? '', b.revision ?? ''),
      );
  }

  /** The path of a results file holding samples (or empty records) of a model, the first in path order; undefined when none. */
  firstFileOf(modelId: number): string | undefined {
    return (
      (this.db
        .prepare(
          `SELECT min(f.path) FROM files f WHERE f.id IN (SELECT file_id FROM samples WHERE model_id = ?
           UNION SELECT file_id FROM empty_records WHERE model_id = ?)`,
        )
        .pluck()
        .get(modelId, modelId) as string | undefined) ?? undefined
    );
  }

  /**
   * Results files whose indexing started but did not finish (a pass cancelled or interrupted while
   * reading them): while there are any, the index holds part of the folder. Files a cancelled pass
   * never reached are not known here.
   */
  partialFiles(): number {
    return this.db.prepare("SELECT count(*) FROM files WHERE status = 'partial'").pluck().get() as number;
  }

  /**
   * Models with samples or empty records from a file whose status is `partial` (its indexing started
   * but did not finish). One query over the few partial files (samples are indexed by file).
   */
  partialModels(): Set<number> {
    const ids = this.db
      .prepare(
        `SELECT DISTINCT model_id FROM samples WHERE file_id IN (SELECT id FROM files WHERE status = 'partial')
         UNION SELECT model_id FROM empty_records WHERE file_id IN (SELECT id FROM files WHERE status = 'partial')`,
      )
      .pluck()
      .all() as number[];
    return new Set(ids);
  }

  /** The model with row id `id`, or undefined. */
  model(id: number): ModelRow | undefined {
    return this.models().find((m) => m.id === id);
  }

  /** The problem with row id `id`, or undefined. */
  problem(id: number): ProblemRow | undefined {
    return this.db.prepare(`SELECT ${PROBLEM_COLUMNS} FROM problems p WHERE p.id = ?`).get(id) as
      | ProblemRow
      | undefined;
  }

  /**
   * The problems of the given row ids in natural problem order ({@link problemOrder}); ids of no problem are left
   * out. One query: O(k log k) for k ids, whatever the number of problems in the index.
   */
  problemsInOrder(ids: readonly number[]): ProblemRow[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare(
        `SELECT ${PROBLEM_COLUMNS} FROM problems p WHERE p.id IN (SELECT value FROM json_each(?))
          ORDER BY ${problemOrder('p')}`,
      )
      .all(JSON.stringify(ids)) as ProblemRow[];
  }

  /** Number of problems matching `filter`. */
  countProblems(filter: ProblemFilter = { kind: 'all' }, withModel?: number): number {
    const { where, params } = this.problemWhere(filter, withModel);
    return (this.db.prepare(`SELECT count(*) AS n FROM problems p WHERE ${where}`).get(...params) as { n: number }).n;
  }

  /**
   * One page of problems matching `filter`, in natural order of (dataset, problem id) — numeric ids
   * sort numerically. `offset`/`limit` page the result (limit <= 1,000,000). `withModel` keeps only the
   * problems that model has samples for.
   */
  listProblems(filter: ProblemFilter = { kind: 'all' }, offset = 0, limit = 200, withModel?: number): ProblemRow[] {
    const { where, params } = this.problemWhere(filter, withModel);
    return this.db
      .prepare(
        `SELECT ${PROBLEM_COLUMNS}
           FROM problems p WHERE ${where}
          ORDER BY ${problemOrder('p')}
          LIMIT ? OFFSET ?`,
      )
      .all(...params, Math.min(limit, 1_000_000), offset) as ProblemRow[];
  }

  private problemWhere(filter: ProblemFilter, withModel?: number): { where: string; params: unknown[] } {
    const base = this.filterWhere(filter);
    if (withModel === undefined) return base;
    return {
      where: `(${base.where}) AND p.id IN (SELECT problem_id FROM stats WHERE model_id = ?)`,
      params: [...base.params, withModel],
    };
  }

  private filterWhere(filter: ProblemFilter): { where: string; params: unknown[] } {
    switch (filter.kind) {
      case 'all':
        return { where: '1', params: [] };
      // A problem without samples or without a graded sample is neither failing nor solved: it has no verdict.
      case 'failing':
        return {
          where: 'p.id IN (SELECT problem_id FROM stats WHERE model_id = ? AND graded > 0 AND c = 0)',
          params: [filter.model],
        };
      case 'lost':
        return {
          where: `p.id IN (SELECT m.problem_id FROM stats m JOIN stats b ON b.problem_id = m.problem_id
                            WHERE m.model_id = ? AND b.model_id = ? AND m.graded > 0 AND m.c = 0 AND b.c > 0)`,
          params: [filter.model, filter.base],
        };
      case 'gained':
        return {
          where: `p.id IN (SELECT m.problem_id FROM stats m JOIN stats b ON b.problem_id = m.problem_id
                            WHERE m.model_id = ? AND b.model_id = ? AND m.c > 0 AND b.graded > 0 AND b.c = 0)`,
          params: [filter.model, filter.base],
        };
      case 'lowAccuracy':
        return {
          where:
            'p.id IN (SELECT problem_id FROM stats WHERE model_id = ? AND graded > 0 AND CAST(c AS REAL) / graded < ?)',
          params: [filter.model, filter.threshold],
        };
      case 'luckyGuess':
        // Over graded samples: an ungraded sample is not a verdict, so it is in neither c nor the denominator.
        return {
          where:
            'p.id IN (SELECT problem_id FROM stats WHERE model_id = ? AND graded > 0 AND c > 0 AND CAST(c AS REAL) / graded <= ?)',
          params: [filter.model, filter.threshold],
        };
      case 'level':
        return { where: `${PROBLEM_LEVEL_SQL} = ?`, params: [filter.level] };
      case 'label':
        return {
          where: `p.key IN (SELECT a.problem_key FROM annotations a, json_each(a.labels) j
                             WHERE a.deleted = 0 AND j.value = ?)`,
          params: [filter.label],
        };
      case 'search': {
        const fts = ftsQuery(filter.query);
        const ids = this.searchProblemIds(fts);
        if (ids) return { where: 'p.id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(ids)] };
        return {
          where:
            'p.id IN (SELECT s.problem_id FROM samples_fts f JOIN samples s ON s.id = f.rowid WHERE samples_fts MATCH ?)',
          params: [fts],
        };
      }
    }
  }

  /**
   * Row ids of the problems with at least one sample whose text holds every word of the full-text query
   * `fts` (search.ts `ftsQuery`), in no particular order, without visiting every match of words in most
   * samples:
   * 1. the witnesses (`witness_fts`, schema migration 13: the first samples of each part, a few per
   *    run) are asked first: a witness holding every word puts its problem in the result;
   * 2. the problems no witness proves are looked for in samples_fts: the matches' row ids walked along
   *    `sample_runs` (runs of consecutive sample ids of one file and problem) from the first run of such
   *    a problem to the last, stopping when every one of them is found (FTS5 does not skip ahead within
   *    a word's matches, so this costs what the matches before the last such run cost).
   * The result is the set the join of samples_fts through `samples` gives. Undefined (the caller then
   * joins through `samples`, same set) when the runs do not cover the samples exactly (their lengths do
   * not add up to the number of samples) or a witness or a match is not a sample of a run. One read transaction,
   * so that an indexing pass committing meanwhile is seen whole or not at all.
   */
  private searchProblemIds(fts: string): number[] | undefined {
    return this.db.transaction(() => {
      const runs = this.db
        .prepare('SELECT first_id AS f, last_id AS l, problem_id AS p FROM sample_runs ORDER BY first_id')
        .all() as { f: number; l: number; p: number }[];
      let covered = 0;
      for (const r of runs) covered += r.l - r.f + 1;
      if (covered !== (this.db.prepare('SELECT count(*) FROM samples').pluck().get() as number)) return undefined;
      const found = new Set<number>();
      const witnesses = this.db
        .prepare('SELECT rowid FROM witness_fts WHERE witness_fts MATCH ? ORDER BY rowid')
        .pluck()
        .all(fts) as number[];
      let j = 0;
      for (const id of witnesses) {
        while (j < runs.length && runs[j].l < id) j++;
        if (j === runs.length || runs[j].f > id) return undefined;
        found.add(runs[j].p);
      }
      const pending = runs.filter((r) => !found.has(r.p));
      if (pending.length > 0) {
        let missing = new Set(pending.map((r) => r.p)).size;
        const matches = this.db
          .prepare('SELECT rowid FROM samples_fts WHERE samples_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid')
          .pluck()
          .all(fts, pending[0].f, pending[pending.length - 1].l) as number[];
        // along every run, so that a match outside every run (runs not matching the samples) is seen
        j = 0;
        for (const id of matches) {
          while (j < runs.length && runs[j].l < id) j++;
          if (j === runs.length || runs[j].f > id) return undefined;
          const p = runs[j].p;
          if (found.has(p)) continue;
          found.add(p);
          if (--missing === 0) break;
        }
      }
      return [...found];
    })();
  }

  /** Per-model counts for one problem (the models with a record of it; n = 0 when that record had no samples). */
  problemStats(problemId: number): StatRow[] {
    return this.db
      .prepare(
        `SELECT model_id AS modelId, problem_id AS problemId, n, c, graded, scored FROM stats
          WHERE problem_id = ? ORDER BY model_id`,
      )
      .all(problemId) as StatRow[];
  }

  /** Per-problem counts of one model (every problem it has a record of; n = 0 for a record without samples). */
  modelStats(modelId: number): StatRow[] {
    return this.db
      .prepare(
        `SELECT model_id AS modelId, problem_id AS problemId, n, c, graded, scored FROM stats
          WHERE model_id = ? ORDER BY problem_id`,
      )
      .all(modelId) as StatRow[];
  }

  /** Every (model, problem) count row. */
  allStats(): StatRow[] {
    return this.db
      .prepare('SELECT model_id AS modelId, problem_id AS problemId, n, c, graded, scored FROM stats')
      .all() as StatRow[];
  }

  /** Distinct difficulty levels, sorted (numeric levels numerically). */
  levels(): string[] {
    const rows = (
      this.db.prepare(`SELECT DISTINCT ${PROBLEM_LEVEL_SQL} FROM problems p`).pluck().all() as (string | null)[]
    ).filter((l): l is string => l !== null);
    return rows.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  }

  /** Each problem's difficulty level (see {@link PROBLEM_LEVEL_SQL}), by problem row id; null when unknown. */
  levelByProblem(): Map<number, string | null> {
    const rows = this.db.prepare(`SELECT p.id, ${PROBLEM_LEVEL_SQL} AS level FROM problems p`).all() as {
      id: number;
      level: string | null;
    }[];
    return new Map(rows.map((r) => [r.id, r.level]));
  }

  /**
   * One page of a model's samples for one problem, in sample order. `correct` filters by verdict
   * (`null` = ungraded samples; undefined = all).
   */
  samples(
    problemId: number,
    modelId: number,
    options: { correct?: boolean | null; offset?: number; limit?: number; matching?: string } = {},
  ): SampleRow[] {
    let verdict = '';
    if (options.correct === true) verdict = 'AND s.correct = 1';
    else if (options.correct === false) verdict = 'AND s.correct = 0';
    else if (options.correct === null) verdict = 'AND s.correct IS NULL';
    const match =
      options.matching !== undefined ? 'AND s.id IN (SELECT rowid FROM samples_fts WHERE samples_fts MATCH ?)' : '';
    const params: unknown[] = [
      problemId,
      modelId,
      ...(options.matching !== undefined ? [ftsQuery(options.matching)] : []),
    ];
    const rows = this.db
      .prepare(
        `${SAMPLE_SELECT} WHERE s.problem_id = ? AND s.model_id = ? ${verdict} ${match}
          ORDER BY s.sample_index LIMIT ? OFFSET ?`,
      )
      .all(...params, options.limit ?? 200, options.offset ?? 0) as RawSample[];
    return rows.map(toSampleRow);
  }

  /**
   * Counts of a model's samples for one problem by verdict: from the per-(model, problem) stats
   * (O(1)), or, with `matching`, of the samples whose text matches that full-text query.
   */
  sampleCounts(
    problemId: number,
    modelId: number,
    matching?: string,
  ): { correct: number; incorrect: number; ungraded: number } {
    if (matching !== undefined) {
      const m = this.db
        .prepare(
          `SELECT coalesce(sum(correct = 1), 0) AS correct, coalesce(sum(correct = 0), 0) AS incorrect, coalesce(sum(correct IS NULL), 0) AS ungraded
             FROM samples WHERE problem_id = ? AND model_id = ? AND id IN (SELECT rowid FROM samples_fts WHERE samples_fts MATCH ?)`,
        )
        .get(problemId, modelId, ftsQuery(matching)) as { correct: number; incorrect: number; ungraded: number };
      return m;
    }
    const r = this.db
      .prepare('SELECT n, c, graded FROM stats WHERE problem_id = ? AND model_id = ?')
      .get(problemId, modelId) as { n: number; c: number; graded: number } | undefined;
    return r
      ? { correct: r.c, incorrect: r.graded - r.c, ungraded: r.n - r.graded }
      : { correct: 0, incorrect: 0, ungraded: 0 };
  }

  /** Models with at least one sample of the problem matching a full-text query (one FTS evaluation for all models). */
  matchingModels(problemId: number, query: string): Set<number> {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT model_id FROM samples
          WHERE problem_id = ? AND id IN (SELECT rowid FROM samples_fts WHERE samples_fts MATCH ?)`,
      )
      .pluck()
      .all(problemId, ftsQuery(query)) as number[];
    return new Set(rows);
  }

  /**
   * One sample without its text, or undefined. The text is read from its results file
   * (sampleText.ts `readSampleText`): the index keeps no copy of a JSONL sample's text.
   */
  sample(id: number): SampleRow | undefined {
    const r = this.db.prepare(`${SAMPLE_SELECT} WHERE s.id = ?`).get(id) as RawSample | undefined;
    return r ? toSampleRow(r) : undefined;
  }

  /** Row id of the sample at (problem key, model key, sample index), or undefined (ids change on re-index; keys do not). */
  findSample(problemKeyValue: string, modelKeyValue: string, sampleIndex: number): number | undefined {
    return this.db
      .prepare(
        `SELECT s.id FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
          WHERE p.key = ? AND m.key = ? AND s.sample_index = ?`,
      )
      .pluck()
      .get(problemKeyValue, modelKeyValue, sampleIndex) as number | undefined;
  }

  /**
   * Samples whose text matches a full-text query (FTS5 over sample text; the query is taken as a
   * phrase, so punctuation in it is not FTS syntax). Newest index state; at most `limit` rows.
   */
  search(query: string, limit = 200): SampleRow[] {
    const rows = this.db
      .prepare(
        `${SAMPLE_SELECT} WHERE s.id IN (SELECT rowid FROM samples_fts WHERE samples_fts MATCH ? LIMIT ?)
          ORDER BY s.problem_id, s.model_id, s.sample_index`,
      )
      .all(ftsQuery(query), limit) as RawSample[];
    return rows.map(toSampleRow);
  }

  /**
   * The full-text search of the CLI's `search` (the tree's search filter, by sample): samples whose
   * text holds every term of `query` (search.ts `ftsQuery`: any script, NFKC, case and Latin
   * diacritics folded), of the given models (row ids; undefined: every model) and verdict (`true`
   * correct, `false` incorrect, `null` ungraded; undefined: all). `total` counts every match, `problems`
   * the problems they are in; `samples` are the first `limit` (default 20; -1: every match) in problem order
   * (dataset, then problem id, numbers numerically), then model (run, name, revision), then sample index.
   */
  searchSamples(
    query: string,
    options: { models?: readonly number[]; correct?: boolean | null; limit?: number } = {},
  ): { total: number; problems: number; samples: SampleRow[] } {
    const where = ['samples_fts MATCH ?'];
    const params: unknown[] = [ftsQuery(query)];
    if (options.models) {
      if (options.models.length === 0) return { total: 0, problems: 0, samples: [] };
      where.push(`s.model_id IN (${options.models.map(() => '?').join(', ')})`);
      params.push(...options.models);
    }
    if (options.correct === true) where.push('s.correct = 1');
    else if (options.correct === false) where.push('s.correct = 0');
    else if (options.correct === null) where.push('s.correct IS NULL');
    const cond = where.join(' AND ');
    const counts = this.db
      .prepare(
        `SELECT count(*) AS total, count(DISTINCT s.problem_id) AS problems
           FROM samples_fts JOIN samples s ON s.id = samples_fts.rowid WHERE ${cond}`,
      )
      .get(...params) as { total: number; problems: number };
    const rows = this.db
      .prepare(
        `${SAMPLE_SELECT} JOIN samples_fts ON samples_fts.rowid = s.id WHERE ${cond}
          ORDER BY ${problemOrder('p')}, m.run, m.name, m.revision, s.sample_index
          LIMIT ?`,
      )
      .all(...params, options.limit ?? 20) as RawSample[];
    return { total: counts.total, problems: counts.problems, samples: rows.map(toSampleRow) };
  }

  /**
   * What a search of the given models (row ids; undefined: every model) and verdict (as in
   * {@link searchSamples}) looks through: `samples` indexed, and `problems` with at least one of them.
   * From the per-model, per-problem counts (`stats`); the denominators of `trace-inspector search`'s counts.
   */
  searchedCounts(options: { models?: readonly number[]; correct?: boolean | null } = {}): {
    samples: number;
    problems: number;
  } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.models) {
      if (options.models.length === 0) return { samples: 0, problems: 0 };
      where.push(`model_id IN (${options.models.map(() => '?').join(', ')})`);
      params.push(...options.models);
    }
    const count =
      options.correct === true
        ? 'c'
        : options.correct === false
          ? 'graded - c'
          : options.correct === null
            ? 'n - graded'
            : 'n';
    where.push(`${count} > 0`);
    return this.db
      .prepare(
        `SELECT coalesce(sum(${count}), 0) AS samples, count(DISTINCT problem_id) AS problems FROM stats WHERE ${where.join(' AND ')}`,
      )
      .get(...params) as { samples: number; problems: number };
  }

  /**
   * The lines that could not be read (diagnostics of severity `error` at a line > 0: a truncated or
   * malformed record, a record without its fields) in the files that hold samples of `modelId`, by file
   * and line. Their records are in no figure; a problem whose only record is one of them is a problem the
   * model "has no record of". A file no sample came from at all is not attributed to any model.
   */
  unreadableRecords(modelId: number): Diagnostic[] {
    return this.modelFileDiagnostics(modelId, `d.severity = 'error' AND (d.line > 0 OR d.entry IS NOT NULL)`);
  }

  /**
   * The diagnostics matching `where` (a condition on `diagnostics d`, no parameters) of the files where `modelId`
   * has samples, by file and line. Cost: one read of the matching diagnostics (most folders have none, and then
   * no sample is looked at); for each file they name, the file's samples up to the first of the model's
   * (`samples_by_file`), never every sample of the model.
   */
  private modelFileDiagnostics(modelId: number, where: string): Diagnostic[] {
    const any = this.db.prepare(`SELECT 1 FROM diagnostics d WHERE ${where} LIMIT 1`).get();
    if (any === undefined) return [];
    return this.db
      .prepare(
        `SELECT d.file, d.line, d.severity, d.message, d.entry FROM diagnostics d
          WHERE ${where}
            AND EXISTS (SELECT 1 FROM files f JOIN samples s ON s.file_id = f.id WHERE f.path = d.file AND s.model_id = ?)
          ORDER BY d.file, d.line`,
      )
      .all(modelId)
      .map(withEntry);
  }

  /**
   * {@link unreadableRecords} and, with them, the warnings of records read with samples cut off (severity
   * `warning`, `... has N samples but ... has M; keeping the first K`: the samples after the K-th are in no
   * figure) and of records skipped as a problem id already read (`duplicate problem id ...; skipped`), by file
   * and line: every line of `modelId`'s files that cost it samples, for the warning of
   * {@link unreadableWarning} (report.ts), which counts `N - K` samples for each cut.
   */
  recordsWithSamplesLost(modelId: number): Diagnostic[] {
    const cut = this.modelFileDiagnostics(
      modelId,
      `d.severity = 'warning' AND d.line > 0
        AND (d.message LIKE '% but % has %; keeping the first %' OR d.message LIKE 'duplicate problem id %; skipped'
          OR d.message LIKE 'and % more like this, the first at %: duplicate problem id %; skipped')`,
    );
    const all = [...this.unreadableRecords(modelId), ...cut];
    return all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  }

  /** The largest number of graded samples `modelId` has on one problem (0 when none). */
  maxGraded(modelId: number): number {
    return (
      (this.db
        .prepare('SELECT coalesce(max(graded), 0) FROM stats WHERE model_id = ?')
        .pluck()
        .get(modelId) as number) ?? 0
    );
  }

  /** Every stored diagnostic (of the files currently indexed), by file and line. */
  diagnostics(): Diagnostic[] {
    return this.db
      .prepare('SELECT file, line, severity, message, entry FROM diagnostics ORDER BY file, line, entry')
      .all()
      .map(withEntry);
  }

  /**
   * How many files of the folder were recognised as results, by format (`{ mapping: 2, inspect: 1 }`),
   * whether or not they gave samples: with no sample in the index, it tells "no file in a supported
   * format" from "every record failed".
   */
  resultFilesByFormat(): Record<string, number> {
    const rows = this.db
      .prepare('SELECT format, count(*) AS n FROM files WHERE format IS NOT NULL GROUP BY format')
      .all() as { format: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.format, r.n]));
  }

  /** Per-sample reward scores and verdicts of a model for one problem (for best-of-k). */
  scoredSamples(problemId: number, modelId: number): { score: number; correct: boolean }[] {
    return (
      this.db
        .prepare(
          `SELECT reward_score AS score, correct FROM samples
            WHERE problem_id = ? AND model_id = ? AND reward_score IS NOT NULL AND correct IS NOT NULL`,
        )
        .all(problemId, modelId) as { score: number; correct: number }[]
    ).map((r) => ({ score: r.score, correct: r.correct === 1 }));
  }

  /** Reward scores and verdicts of every scored, graded sample of a model, grouped by problem row id. */
  scoredSamplesByProblem(modelId: number): Map<number, { score: number; correct: boolean }[]> {
    const out = new Map<number, { score: number; correct: boolean }[]>();
    const rows = this.db.prepare(SCORED_SAMPLES_SQL).iterate(modelId) as IterableIterator<{
      p: number;
      score: number;
      correct: number;
    }>;
    for (const { p, score, correct } of rows) {
      let list = out.get(p);
      if (!list) out.set(p, (list = []));
      list.push({ score, correct: correct === 1 });
    }
    return out;
  }

  /**
   * Extracted answers and verdicts of every sample of one model, grouped by problem row id (for the
   * report's maj@k), in sample order. One query; samples without an extracted answer are included
   * (`answer: null`, a non-vote), those that errored are not ({@link ERRORED_SAMPLE}).
   */
  answersByProblem(modelId: number): Map<number, { answer: string | null; correct: boolean | null }[]> {
    const out = new Map<number, { answer: string | null; correct: boolean | null }[]>();
    const rows = this.db
      .prepare(
        `SELECT problem_id AS p, extracted_answer AS answer, correct FROM samples WHERE model_id = ? AND NOT ${ERRORED_SAMPLE} ORDER BY problem_id, sample_index`,
      )
      .iterate(modelId) as IterableIterator<{ p: number; answer: string | null; correct: number | null }>;
    for (const { p, answer, correct } of rows) {
      let list = out.get(p);
      if (!list) out.set(p, (list = []));
      list.push({ answer, correct: correct === null ? null : correct === 1 });
    }
    return out;
  }

  /** Per-sample extracted answers and verdicts of a model for one problem, in sample order, with sample ids (maj@k, answer in base). */
  answers(
    problemId: number,
    modelId: number,
  ): { id: number; answer: string | null; correct: boolean | null; errored: boolean }[] {
    return (
      this.db
        .prepare(
          `SELECT id, extracted_answer AS answer, correct, ${ERRORED_SAMPLE} AS errored FROM samples WHERE problem_id = ? AND model_id = ? ORDER BY sample_index`,
        )
        .all(problemId, modelId) as { id: number; answer: string | null; correct: number | null; errored: number }[]
    ).map((r) => ({
      id: r.id,
      answer: r.answer,
      correct: r.correct === null ? null : r.correct === 1,
      errored: r.errored === 1,
    }));
  }

  /**
   * Attaches every stored named score to its sample: the sample of the same problem key and sample
   * index, of the model the score names (its exact model for records that defined the samples, else
   * a model name, else any model). A score matching no sample, or samples of several models
   * (`ambiguous`), attaches to none; of several scores of one sample by one scorer (two files name the
   * same scorer) the first in (file path, line) order is used and the others are `conflict`. Nothing is
   * dropped silently: the unattached ones are returned, counted by file, scorer and reason.
   * `only.problemKey` limits the work to one problem's scores.
   */
  resolveScores(only?: { problemKey: string }): ResolvedScores {
    const attached: AttachedScore[] = [];
    const groups = new Map<string, UnattachedScores>();
    if (!this.db.prepare('SELECT 1 FROM scores LIMIT 1').get()) return { attached, unattached: [], unattachedCount: 0 };
    // one problem (the problem view's strips): the same rule on that problem's scores and samples only
    const pkWhere = only ? 'sc.problem_key = ?' : '1';
    const pkParams = only ? [only.problemKey] : [];
    type S = { id: number; mid: number; pid: number; mk: string; mn: string; correct: number | null };
    const byKey = new Map<string, S[]>();
    const rows = this.db
      .prepare(
        `SELECT p.key AS pk, s.sample_index AS i, s.id, s.model_id AS mid, s.problem_id AS pid, m.key AS mk, m.name AS mn, s.correct
           FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
          WHERE p.key IN (SELECT DISTINCT problem_key FROM scores sc WHERE ${pkWhere})`,
      )
      .iterate(...pkParams) as IterableIterator<S & { pk: string; i: number }>;
    /** Per problem key, per model key: its name and the count and range of its sample indices (to say why a score attaches to nothing). */
    const byProblem = new Map<string, Map<string, { mn: string; n: number; min: number; max: number }>>();
    for (const r of rows) {
      const k = `${r.pk}${KEY_SEP}${r.i}`;
      let l = byKey.get(k);
      if (!l) byKey.set(k, (l = []));
      l.push(r);
      let models = byProblem.get(r.pk);
      if (!models) byProblem.set(r.pk, (models = new Map()));
      const m = models.get(r.mk);
      if (!m) models.set(r.mk, { mn: r.mn, n: 1, min: r.i, max: r.i });
      else {
        m.n++;
        m.min = Math.min(m.min, r.i);
        m.max = Math.max(m.max, r.i);
      }
    }
    const used = new Map<string, string>();
    const scores = this.db
      .prepare(
        `SELECT f.path AS file, sc.line, sc.record, sc.problem_key AS pk, sc.model_key AS mk, sc.model_name AS mn,
                sc.sample_index AS i, sc.scorer, sc.value, sc.steps, sc.rule
           FROM scores sc JOIN files f ON f.id = sc.file_id WHERE ${pkWhere} ORDER BY f.path, sc.line, sc.rowid`,
      )
      .iterate(...pkParams) as IterableIterator<{
      file: string;
      line: number;
      record: number | null;
      pk: string;
      mk: string | null;
      mn: string | null;
      i: number;
      scorer: string;
      value: number;
      steps: string | null;
      rule: string | null;
    }>;
    for (const sc of scores) {
      const cands = (byKey.get(`${sc.pk}${KEY_SEP}${sc.i}`) ?? []).filter((x) =>
        sc.mk !== null ? x.mk === sc.mk : sc.mn === null || x.mn === sc.mn,
      );
      let reason: UnattachedScores['reason'] | null = null;
      let detail = '';
      let cause = '';
      if (cands.length === 0) {
        reason = 'no-sample';
        // what was looked for (trial 5 finding 8): the model (by key or name, or any) and the dataset;
        // and which key found nothing (trial 6 finding 7)
        const dataset = sc.pk.slice(0, sc.pk.indexOf(KEY_SEP));
        const model = sc.mk !== null ? sc.mk.split(KEY_SEP).filter(Boolean).join(':') : sc.mn;
        const models = byProblem.get(sc.pk);
        const mine = models
          ? [...models.entries()].filter(([mk, v]) =>
              sc.mk !== null ? mk === sc.mk : sc.mn === null || v.mn === sc.mn,
            )
          : [];
        const d: NoSampleDetail = {
          model,
          dataset,
          cause: !models ? 'problem' : mine.length === 0 ? 'model' : 'index',
        };
        if (d.cause === 'model' && models) d.models = [...new Set([...models.values()].map((v) => v.mn))].sort();
        if (d.cause === 'index') {
          const [, v] = mine[0];
          d.indices = { model: v.mn, n: v.n, min: v.min, max: v.max };
        }
        cause = d.cause;
        detail = JSON.stringify(d);
      } else if (cands.length > 1) {
        reason = 'ambiguous';
        detail = [...new Set(cands.map((x) => x.mk.split(KEY_SEP).filter(Boolean).join(':')))].join(', ');
      } else {
        const k = `${cands[0].id}${KEY_SEP}${sc.scorer}`;
        const prev = used.get(k);
        if (prev !== undefined) {
          reason = 'conflict';
          detail = prev;
        } else used.set(k, sc.file);
      }
      if (reason !== null) {
        const g = `${sc.file}${KEY_SEP}${sc.scorer}${KEY_SEP}${reason}${KEY_SEP}${cause}`;
        const e = groups.get(g);
        if (e) e.count++;
        else
          groups.set(g, {
            file: sc.file,
            scorer: sc.scorer,
            reason,
            count: 1,
            first: {
              line: sc.line,
              record: sc.record,
              problemId: sc.pk.slice(sc.pk.indexOf(KEY_SEP) + 1),
              sampleIndex: sc.i,
            },
            detail,
          });
        continue;
      }
      const x = cands[0];
      attached.push({
        sampleId: x.id,
        modelId: x.mid,
        problemId: x.pid,
        sampleIndex: sc.i,
        correct: x.correct === null ? null : x.correct === 1,
        scorer: sc.scorer,
        value: sc.value,
        steps: sc.steps ? parseStepsJson(sc.steps) : null,
        rule: sc.rule,
        file: sc.file,
        line: sc.line,
      });
    }
    const unattached = [...groups.values()];
    return { attached, unattached, unattachedCount: unattached.reduce((a, u) => a + u.count, 0) };
  }

  /**
   * Files whose records defined samples that another file had indexed first (so only their scores were
   * kept) and whose scores now match no sample: the file that had the samples was removed or changed.
   * Reading them again makes them define the samples.
   */
  filesWithUndefinedSamples(): string[] {
    return this.db
      .prepare(
        `SELECT DISTINCT f.path FROM scores sc JOIN files f ON f.id = sc.file_id
          WHERE sc.defines = 1 AND NOT EXISTS (
            SELECT 1 FROM models m JOIN problems p ON p.key = sc.problem_key
              JOIN samples s ON s.model_id = m.id AND s.problem_id = p.id AND s.sample_index = sc.sample_index
             WHERE m.key = sc.model_key)
          ORDER BY f.path`,
      )
      .pluck()
      .all() as string[];
  }

  /**
   * Problem lists (`problemInfo` mappings): per list file, how many listed problems match indexed
   * problems, how many have no samples (the first named), and how many indexed problems of the list's
   * datasets are not listed.
   */
  problemInfoCoverage(): {
    file: string;
    listed: number;
    matched: number;
    unmatchedFirst: number | null;
    notListed: number;
  }[] {
    const files = this.db
      .prepare('SELECT DISTINCT f.id, f.path FROM problem_info i JOIN files f ON f.id = i.file_id ORDER BY f.path')
      .all() as { id: number; path: string }[];
    return files.map((f) => {
      const r = this.db
        .prepare(
          `SELECT count(*) AS listed,
                  coalesce(sum(EXISTS (SELECT 1 FROM problems p JOIN stats st ON st.problem_id = p.id WHERE p.key = i.problem_key)), 0) AS matched,
                  min(CASE WHEN NOT EXISTS (SELECT 1 FROM problems p JOIN stats st ON st.problem_id = p.id WHERE p.key = i.problem_key)
                      THEN i.line END) AS unmatchedFirst
             FROM problem_info i WHERE i.file_id = ?`,
        )
        .get(f.id) as { listed: number; matched: number; unmatchedFirst: number | null };
      const notListed = this.db
        .prepare(
          `SELECT count(*) FROM problems p
            WHERE p.dataset IN (SELECT DISTINCT substr(problem_key, 1, instr(problem_key, char(31)) - 1) FROM problem_info WHERE file_id = ?)
              AND p.id IN (SELECT problem_id FROM stats)
              AND p.key NOT IN (SELECT problem_key FROM problem_info WHERE file_id = ?)`,
        )
        .pluck()
        .get(f.id, f.id) as number;
      return { file: f.path, ...r, notListed };
    });
  }

  /**
   * Forgets everything indexed from the results files (samples, named scores, problem lists, full-text index, counts, files,
   * diagnostics, models, problems, similarity cache) in one transaction, so that the next indexing
   * pass re-reads every file. Annotations are kept (they are keyed by strings, not row ids).
   */
  clearIndexedData(): void {
    this.db.transaction(() => {
      this.db.exec(`
        DELETE FROM samples_fts; DELETE FROM witness_fts; DELETE FROM search_parts; DELETE FROM sample_spans; DELETE FROM sample_runs; DELETE FROM samples; DELETE FROM empty_records; DELETE FROM stats; DELETE FROM files;
        DELETE FROM scores; DELETE FROM problem_info;
        DELETE FROM diagnostics; DELETE FROM similarity_cache; DELETE FROM model_graders; DELETE FROM models; DELETE FROM problems;
        DELETE FROM meta WHERE key IN ('fts_max_id', 'fts_missing');
      `);
    })();
  }

  /**
   * Makes the next indexing pass read `file` (relative to the folder, POSIX separators) again, whatever
   * its size and modification time say: called when a sample text read from it no longer matches its
   * content hash (sampleText.ts). A pass skips a file whose size and mtime are unchanged, so an edit that
   * keeps the size and puts the old mtime back would otherwise never be re-read. Its samples stay until
   * that pass. Best effort: returns false (and changes nothing) when the index is read-only or busy.
   */
  markFileChanged(file: string): boolean {
    try {
      return this.db.prepare(`UPDATE files SET hash = '', mtime_ms = -1 WHERE path = ?`).run(file).changes > 0;
    } catch {
      return false;
    }
  }

  /**
   * Whether results file `file` (relative path) is marked for the next pass by {@link markFileChanged} (a
   * read found it changed) and no pass has read it since. False for a file not in the index.
   */
  isFileMarkedChanged(file: string): boolean {
    return (
      this.db.prepare(`SELECT 1 FROM files WHERE path = ? AND hash = '' AND mtime_ms = -1`).pluck().get(file) !==
      undefined
    );
  }

  /** A metadata value. */
  getMeta(key: string): string | undefined {
    return (
      (this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? undefined
    );
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }
}

/** A sample row as SQLite returns it (verdict as 0/1, annotation labels as JSON). */
interface RawSample extends Omit<SampleRow, 'correct' | 'labels' | 'hasNote'> {
  correct: number | null;
  labels: string | null;
  note: string | null;
}

const SAMPLE_COLUMNS = `s.id, s.model_id AS modelId, s.problem_id AS problemId, s.sample_index AS sampleIndex, s.correct,
  s.extracted_answer AS extractedAnswer, s.reward_score AS rewardScore, s.finish_reason AS finishReason,
  s.token_count AS tokenCount, s.text_length AS length, s.content_hash AS contentHash, f.path AS file, s.line,
  a.labels, a.note`;
const SAMPLE_FROM = `FROM samples s JOIN files f ON f.id = s.file_id
  JOIN models m ON m.id = s.model_id JOIN problems p ON p.id = s.problem_id
  LEFT JOIN annotations a ON a.problem_key = p.key AND a.model_key = m.key AND a.sample_index = s.sample_index
                         AND a.content_hash = s.content_hash AND a.deleted = 0`;
const SAMPLE_SELECT = `SELECT ${SAMPLE_COLUMNS} ${SAMPLE_FROM}`;

function toSampleRow(r: RawSample): SampleRow {
  return {
    id: r.id,
    modelId: r.modelId,
    problemId: r.problemId,
    sampleIndex: r.sampleIndex,
    correct: r.correct === null ? null : r.correct === 1,
    extractedAnswer: r.extractedAnswer,
    rewardScore: r.rewardScore,
    finishReason: r.finishReason,
    tokenCount: r.tokenCount,
    length: r.length,
    contentHash: r.contentHash,
    file: r.file,
    line: r.line,
    labels: r.labels ? (JSON.parse(r.labels) as string[]) : [],
    hasNote: !!r.note,
  };
}

/**
 * A name with steps written with `k` or `m` spelt out (`step_1k` -> `step_1000`, `global_step_2.5k` ->
 * `global_step_2500`), for sorting models by step: `step_500` before `step_1k`.
 */
export function scaledSteps(s: string): string {
  return s.replace(
    /((?:global[_-]?step|step|ckpt|checkpoint|iter)[-_]?)(\d+(?:\.\d+)?)([km])(?![a-z0-9])/gi,
    (_all, word: string, n: string, unit: string) =>
      `${word}${Math.round(Number(n) * (unit.toLowerCase() === 'k' ? 1_000 : 1_000_000))}`,
  );
}

/** A diagnostics row as a {@link Diagnostic}: `entry` only when the row names one (an archive entry, not a line). */
function withEntry(row: unknown): Diagnostic {
  const { entry, ...d } = row as Diagnostic & { entry: string | null };
  return entry === null || entry === undefined ? d : { ...d, entry };
}
