/**
 * Worker-thread entry that computes similarity (nearest base samples, novel spans, word diffs) and
 * maj@k curves off the extension host's main thread. Bundled to dist/similarityWorker.js. Pure core only: no `vscode`.
 * Messages: in `{ id, job, list? }` (a SimilarityJob, SimilarityFilesJob, NoveltyJob, MajorityJob of ./panelData or
 * the warm-up), out `{ id, result }` or `{ id, error, changed? }`, and before them `{ id, list }` when the request
 * asked for the list's stage. Jobs run one at a time in arrival order. Texts come in with the job, or the places
 * of the texts (SimilarityFilesJob: the worker reads the results files itself); the worker needs no database
 * connection.
 */
import { parentPort } from 'node:worker_threads';
import { SourceChangedError } from '../core/index/rowTexts';
import {
  readSimilarityFilesJob,
  runMajorityJob,
  runNoveltyJob,
  runSimilarityJob,
  type MajorityJob,
  type NoveltyJob,
  type SimilarityBody,
  type SimilarityFilesJob,
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
  job: SimilarityWorkerJob;
  /** A similarity job's sample-list stage is posted first (`{ id, list }`), then the result. */
  list?: boolean;
}
/** What the worker runs. */
export type SimilarityWorkerJob = SimilarityJob | SimilarityFilesJob | NoveltyJob | MajorityJob | WarmUpJob;

export type SimilarityWorkerReply =
  | { id: number; result: unknown }
  /** `changed`: the job failed because a results file changed since it was indexed (SourceChangedError). */
  | { id: number; error: string; changed?: { file: string; line: number } }
  | { id: number; list: SimilarityBody };

/**
 * Runs one job (also used in-process when the worker bundle is missing). `onList`: a similarity job's
 * sample-list stage (runSimilarityJob's `onList`), before the result. A SimilarityFilesJob reads its texts
 * first (asynchronously: the result is then a promise); SourceChangedError when a file changed since indexing.
 */
export function runJob(job: SimilarityWorkerJob, onList?: (list: SimilarityBody) => void): unknown {
  if (job.kind === 'majority') return runMajorityJob(job);
  if (job.kind === 'warm') {
    runSimilarityJob(warmUpJob(), false);
    return null;
  }
  if (job.kind === 'problemFiles') return readSimilarityFilesJob(job).then((j) => runSimilarityJob(j, true, onList));
  return job.kind === 'problem' ? runSimilarityJob(job, true, onList) : runNoveltyJob(job);
}

const port = parentPort;
if (port) {
  // one job at a time, in arrival order (a job reading its files must not let the next one start meanwhile)
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: SimilarityWorkerRequest) => {
    queue = queue.then(async () => {
      try {
        const onList = m.list
          ? (list: SimilarityBody) => port.postMessage({ id: m.id, list } satisfies SimilarityWorkerReply)
          : undefined;
        port.postMessage({ id: m.id, result: await runJob(m.job, onList) } satisfies SimilarityWorkerReply);
      } catch (e) {
        const changed = e instanceof SourceChangedError ? { file: e.file, line: e.line } : undefined;
        port.postMessage({
          id: m.id,
          error: (e as Error).message,
          ...(changed ? { changed } : {}),
        } satisfies SimilarityWorkerReply);
      }
    });
  });
}
