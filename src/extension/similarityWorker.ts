/**
 * Worker-thread entry that computes similarity (nearest base samples, novel spans, word diffs) and
 * maj@k curves off the extension host's main thread. Bundled to dist/similarityWorker.js. Pure core only: no `vscode`.
 * Messages: in `{ id, job, list? }` (a SimilarityJob, SimilarityFilesJob, NoveltyJob, MajorityJob of ./panelData or
 * the warm-up), out `{ id, result }` or `{ id, error, changed? }`, and before them `{ id, list }` when the request
 * asked for the list's stage. One stage of one job runs at a time ({@link StageScheduler}): a job whose sample
 * list is not out yet goes before the later stages (baseline, paths) of a job whose list is, in arrival order
 * among each; other jobs are one stage. Texts come in with the job, or the places
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
  similarityStages,
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

/**
 * A job as stages for {@link StageScheduler}: a similarity job's three (./panelData similarityStages), after
 * reading its texts for a SimilarityFilesJob (SourceChangedError when a file changed since indexing); any other
 * job is one stage (runJob). The value at the end is runJob's result.
 */
export async function* jobStages(
  job: SimilarityWorkerJob,
  onList?: (list: SimilarityBody) => void,
): AsyncGenerator<void, unknown, void> {
  if (job.kind === 'problemFiles') return yield* similarityStages(await readSimilarityFilesJob(job), true, onList);
  if (job.kind === 'problem') return yield* similarityStages(job, true, onList);
  return runJob(job);
}

/**
 * Runs the worker's jobs one stage at a time. The next stage is the first stage not run of the oldest job whose
 * sample list is not out yet (a job without a list stage counts as such until it ends); when every job's list is
 * out, the next stage of the oldest job. So a problem the user opens while an earlier problem's baseline and
 * paths are still to come gets its list after at most one stage of the earlier job (0.13-0.25 s of CPU each at
 * 1024 x 1024), not after all of them. Messages that came in during a stage are taken in before the next is
 * chosen (two turns of the event loop between stages). `post` gets the replies in the worker's protocol.
 */
export class StageScheduler {
  private readonly tasks: { id: number; steps: AsyncGenerator<void, unknown, void>; listed: { done: boolean } }[] = [];
  private draining = false;

  constructor(private readonly post: (reply: SimilarityWorkerReply) => void) {}

  /** Queues a request; its first stage runs now when nothing else runs. */
  add(m: SimilarityWorkerRequest): void {
    const listed = { done: false };
    const onList = m.list
      ? (list: SimilarityBody) => {
          listed.done = true;
          this.post({ id: m.id, list });
        }
      : undefined;
    this.tasks.push({ id: m.id, listed, steps: jobStages(m.job, onList) });
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.tasks.length > 0) {
      const task = this.tasks.find((t) => !t.listed.done) ?? this.tasks[0];
      try {
        const step = await task.steps.next();
        if (step.done) {
          this.tasks.splice(this.tasks.indexOf(task), 1);
          this.post({ id: task.id, result: step.value });
        }
      } catch (e) {
        this.tasks.splice(this.tasks.indexOf(task), 1);
        const changed = e instanceof SourceChangedError ? { file: e.file, line: e.line } : undefined;
        this.post({ id: task.id, error: (e as Error).message, ...(changed ? { changed } : {}) });
      }
      // two turns: a message that arrived during the stage is read in the poll phase between them
      await new Promise<void>((r) => setImmediate(() => setImmediate(r)));
    }
    this.draining = false;
  }
}

const port = parentPort;
if (port) {
  const scheduler = new StageScheduler((reply) => port.postMessage(reply));
  port.on('message', (m: SimilarityWorkerRequest) => scheduler.add(m));
}
