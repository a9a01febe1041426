import type { IndexProgress, IndexSummary } from '../core/index/indexer';

/** Messages from the extension host to the indexing worker. */
export type WorkerRequest =
  | {
      type: 'index';
      root: string;
      dbPath: string;
      include: string[];
      exclude: string[];
      /** Inspect scorer (`traceInspector.scorer`); empty: the default rule. */
      scorer: string;
      /** Absolute path of the mapping file given by `traceInspector.mappingFile`; empty: none. */
      mappingFile: string;
    }
  | { type: 'cancel' };

/** Messages from the indexing worker to the extension host. */
export type WorkerReply =
  | { type: 'progress'; progress: IndexProgress }
  | { type: 'done'; summary: IndexSummary }
  | { type: 'error'; message: string };
