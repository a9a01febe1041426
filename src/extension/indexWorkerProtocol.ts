import type { AnswerCheckCounts, GraderAudit } from '../core/analyses/graderAudit';
import type { IndexProgress, IndexSummary } from '../core/index/indexer';
import type { SearchIndexProgress, SearchIndexSummary } from '../core/index/searchIndex';
import type { SqliteDriverName } from '../core/index/sqlite';

/**
 * Messages from the extension host to the indexing worker. `sqliteDriver` is the host's driver: the
 * worker uses the same one (two copies of SQLite on one database file in one process can corrupt it).
 */
export type WorkerRequest =
  | {
      type: 'index';
      root: string;
      dbPath: string;
      include: string[];
      exclude: string[];
      /** Setting `traceInspector.correctThreshold` (see IndexOptions.correctThreshold). */
      correctThreshold?: number;
      sqliteDriver: SqliteDriverName;
      /** Inspect scorer (`traceInspector.scorer`); empty: the default rule. */
      scorer: string;
      /** Inspect samples that errored without a score (`traceInspector.erroredSamples`): left out, or incorrect. */
      erroredSamples?: 'exclude' | 'incorrect';
      /** Absolute path of the mapping file given by `traceInspector.mappingFile`; empty: none. */
      mappingFile?: string;
    }
  /**
   * Builds the full-text index of the samples not in it yet (core `buildSearchIndex`), after a pass wrote the
   * figures: the worker replies `searchProgress` and then `searchDone`; `cancel` stops it between chunks.
   */
  | { type: 'searchIndex'; dbPath: string; sqliteDriver: SqliteDriverName }
  | { type: 'cancel' };

/** What the worker does after the files are read (the index then holds every figure): said to the host before it starts. */
export const AFTER_PASS_WORK = 'grader audit';

/** Messages from the indexing worker to the extension host. */
export type WorkerReply =
  | { type: 'progress'; progress: IndexProgress }
  /**
   * Every file is read (the pass's last batch is committed: every figure is final) and the worker now runs
   * `work` ({@link AFTER_PASS_WORK}) before `done`: the views stop saying "Indexing" and say what still runs.
   */
  | { type: 'afterPass'; work: string }
  /**
   * The pass finished. `graderAudit` (computed here, off the main thread: it canonicalises every
   * distinct answer) describes the whole index after the pass, and `answerCheck` its answer check's
   * disagreements (core `answerCheckDisagreements`, as entries: problem row id, then model row id and counts;
   * the tree's ⚑ markers); both absent with `graderAuditError` if they failed.
   * `sqliteDriver`: the driver the worker used (the host's).
   */
  | {
      type: 'done';
      summary: IndexSummary;
      graderAudit?: GraderAudit;
      answerCheck?: [number, [number, AnswerCheckCounts][]][];
      graderAuditError?: string;
      sqliteDriver: SqliteDriverName;
    }
  | { type: 'error'; message: string }
  /** How far the full-text index is built (at most every 250 ms, and at its start and end). */
  | { type: 'searchProgress'; progress: SearchIndexProgress }
  /** The full-text index build ended: complete, or stopped (`summary.cancelled`). */
  | { type: 'searchDone'; summary: SearchIndexSummary };
