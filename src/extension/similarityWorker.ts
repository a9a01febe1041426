/**
 * Worker-thread entry that computes similarity (nearest base samples, novel spans, word diffs) and
 * maj@k curves off the extension host's main thread. Bundled to dist/similarityWorker.js. Pure core only: no `vscode`.
 * Messages: in `{ id, job, list? }` (a SimilarityJob, NoveltyJob, MajorityJob of ./panelData or the warm-up),
 * out `{ id, result }` or `{ id, error }`, and before them `{ id, list }` when the request asked for the list's stage. Texts come in with the job, so the worker needs no database connection.
 */
import { parentPort } from 'node:worker_threads';
import {
  runMajorityJob,
  runNoveltyJob,
  runSimilarityJob,
  type MajorityJob,
  type NoveltyJob,
  type SimilarityBody,
  type SimilarityJob,
} from './panelData';
import { warmUpJob } from './similarityWarmup';

/**
 * One pass of the warm-up: the worker runs ./similarityWarmup's synthetic job and keeps nothing of it
 * (reply: null). SimilarityRunner.warm posts several, one at a time.
 */
export interface WarmUpJob {
  kind: 'warm';
}

export interface SimilarityWorkerRequest {
  id: number;
  job: SimilarityJob | NoveltyJob | MajorityJob | WarmUpJob;
  /** A similarity job's sample-list stage is posted first (`{ id, list }`), then the result. */
  list?: boolean;
}
export type SimilarityWorkerReply =
  | { id: number; result: unknown }
  | { id: number; error: string }
  | { id: number; list: SimilarityBody };

/**
 * Runs one job (also used in-process when the worker bundle is missing). `onList`: a similarity job's
 * sample-list stage (runSimilarityJob's `onList`), before the result.
 */
export function runJob(
  job: SimilarityJob | NoveltyJob | MajorityJob | WarmUpJob,
  onList?: (list: SimilarityBody) => void,
): unknown {
  if (job.kind === 'majority') return runMajorityJob(job);
  if (job.kind === 'warm') {
    runSimilarityJob(warmUpJob(), false);
    return null;
  }
  return job.kind === 'problem' ? runSimilarityJob(job, true, onList) : runNoveltyJob(job);
}

const port = parentPort;
if (port) {
  port.on('message', (m: SimilarityWorkerRequest) => {
    try {
      const onList = m.list
        ? (list: SimilarityBody) => port.postMessage({ id: m.id, list } satisfies SimilarityWorkerReply)
        : undefined;
      port.postMessage({ id: m.id, result: runJob(m.job, onList) } satisfies SimilarityWorkerReply);
    } catch (e) {
      port.postMessage({ id: m.id, error: (e as Error).message } satisfies SimilarityWorkerReply);
    }
  });
}
