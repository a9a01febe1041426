import type { GraderAudit } from '../core/graderAudit';
import type { IndexProgress, IndexSummary } from '../core/index/indexer';
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
  | { type: 'cancel' };

/** Messages from the indexing worker to the extension host. */
export type WorkerReply =
  | { type: 'progress'; progress: IndexProgress }
  /**
   * The pass finished. `graderAudit` (computed here, off the main thread: it canonicalises every
   * distinct answer) describes the whole index after the pass; absent with `graderAuditError` if it failed.
   * `sqliteDriver`: the driver the worker used (the host's).
   */
  | {
      type: 'done';
      summary: IndexSummary;
      graderAudit?: GraderAudit;
      graderAuditError?: string;
      sqliteDriver: SqliteDriverName;
    }
  | { type: 'error'; message: string };
