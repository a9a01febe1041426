import type { GraderAudit } from '../core/graderAudit';
import type { IndexProgress, IndexSummary } from '../core/index/indexer';

/** Messages from the extension host to the indexing worker. */
export type WorkerRequest =
  | {
      type: 'index';
      root: string;
      dbPath: string;
      include: string[];
      exclude: string[];
      /** Setting `traceInspector.correctThreshold` (see IndexOptions.correctThreshold). */
      correctThreshold?: number;
      /** Inspect scorer (`traceInspector.scorer`); empty: the default rule. */
      scorer: string;
    }
  | { type: 'cancel' };

/** Messages from the indexing worker to the extension host. */
export type WorkerReply =
  | { type: 'progress'; progress: IndexProgress }
  /**
   * The pass finished. `graderAudit` (computed here, off the main thread: it canonicalises every
   * distinct answer) describes the whole index after the pass; absent with `graderAuditError` if it failed.
   */
  | { type: 'done'; summary: IndexSummary; graderAudit?: GraderAudit; graderAuditError?: string }
  | { type: 'error'; message: string };
