import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { SourceChangedError } from '../core/index/rowTexts';
import type {
  MajorityJob,
  NoveltyBody,
  NoveltyJob,
  SimilarityBody,
  SimilarityFilesJob,
  SimilarityJob,
} from './panelData';
import type { WarmUpJob } from './similarityWorker';
import type { MajorityData } from '../shared/protocol';
import { runJob, type SimilarityWorkerJob, type SimilarityWorkerReply } from './similarityWorker';

/**
 * Passes of the warm-up job (./similarityWarmup, 48 x 48 samples of 1.5k characters): one pass alone left the
 * first real job 0.2-0.3 s of CPU short of a JIT-warm one, three made it as fast (bench/problemSimilarity.bench.ts
 * --warm).
 */
const WARM_UP_PASSES = 3;

/**
 * Runs similarity jobs in one lazily started worker thread (`workerPath`, normally
 * dist/similarityWorker.js), one at a time in arrival order. When the worker file does not exist
 * (unit tests of the host code without a bundle) jobs run in-process on a later tick. A worker that
 * crashes fails the pending jobs and is restarted on the next job. `timeoutMs` bounds one job: a job
 * that takes longer fails and the worker is terminated (and restarted next time).
 */
export class SimilarityRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    {
      resolve: (v: unknown) => void;
      reject: (e: Error) => void;
      timer: NodeJS.Timeout;
      onList?: (list: SimilarityBody) => void;
    }
  >();
  /** Whether the last job ran in a worker thread (false: in-process fallback). */
  usedWorker = false;
  /** The worker that ran (or runs) the warm-up job: one warm-up per worker thread. */
  private warmed: Worker | undefined;
  /** When the last warm-up ended (epoch ms; undefined: none ended), for the e2e suite's timing. */
  warmedAt: number | undefined;

  constructor(
    private readonly workerPath: string | undefined,
    private readonly timeoutMs = 60_000,
  ) {}

  /**
   * Runs a job; for a similarity job, `onList` gets the sample list's stage before the result (see
   * runSimilarityJob), also when it runs in-process. A SimilarityFilesJob whose file changed since indexing
   * rejects with a SourceChangedError (file and line), in the worker as in-process.
   */
  run(job: SimilarityJob | SimilarityFilesJob, onList?: (list: SimilarityBody) => void): Promise<SimilarityBody>;
  run(job: NoveltyJob): Promise<NoveltyBody>;
  run(job: MajorityJob): Promise<MajorityData['curves']>;
  run(job: WarmUpJob): Promise<null>;
  run(job: SimilarityWorkerJob, onList?: (list: SimilarityBody) => void): Promise<unknown> {
    if (!this.workerPath || !existsSync(this.workerPath)) {
      this.usedWorker = false;
      return new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(runJob(job, onList));
          } catch (e) {
            reject(e as Error);
          }
        }),
      );
    }
    this.usedWorker = true;
    const w = this.ensureWorker(this.workerPath);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`similarity job took longer than ${this.timeoutMs} ms`));
        void this.worker?.terminate();
        this.worker = undefined;
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, onList });
      w.postMessage({ id, job, list: onList !== undefined });
    });
  }

  /**
   * Starts the worker thread now if it is not running (no job): a caller about to read a job's texts calls it
   * first, so the worker loads its bundle while the texts are read instead of after. No-op without a worker file.
   */
  start(): void {
    if (this.workerPath && existsSync(this.workerPath)) this.ensureWorker(this.workerPath);
  }

  /**
   * Starts the worker thread if it is not running and has it run the warm-up job (a small synthetic
   * similarity job, ./similarityWarmup, {@link WARM_UP_PASSES} times: 0.35-0.6 s of CPU in all), so that the
   * first real job finds the bundle parsed and the JIT warm. Called while the user is idle (the tree shown,
   * an indexing pass ended), never on a click's path: a job posted meanwhile waits for the pass that runs
   * (jobs run one at a time), and the warm-up stops there. Resolves true when
   * the warm-up ran, false when there is nothing to warm (no worker file: jobs run in-process), this worker
   * was warmed already, or the worker stopped (dispose, crash) before it finished.
   */
  async warm(): Promise<boolean> {
    if (!this.workerPath || !existsSync(this.workerPath)) return false;
    const w = this.ensureWorker(this.workerPath);
    if (this.warmed === w) return false;
    this.warmed = w;
    try {
      // one pass at a time: a job posted meanwhile waits for one pass at most (~0.15 s of CPU), not all
      for (let i = 0; i < WARM_UP_PASSES; i++) {
        if (this.worker !== w) return false;
        if (this.pending.size > 0) break; // a real job is queued: it runs next, the warm-up stops here
        await this.run({ kind: 'warm' });
      }
      this.warmedAt = Date.now();
      return true;
    } catch {
      return false;
    }
  }

  /** Whether a worker thread is running now (started and not ended). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private ensureWorker(path: string): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(path);
    w.on('message', (m: SimilarityWorkerReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if ('list' in m) {
        p.onList?.(m.list);
        return;
      }
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if ('error' in m)
        p.reject(m.changed ? new SourceChangedError(m.changed.file, m.changed.line) : new Error(m.error));
      else p.resolve(m.result);
    });
    const fail = (e: Error) => {
      if (this.worker === w) this.worker = undefined;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(e);
        this.pending.delete(id);
      }
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`similarity worker exited with code ${code}`)));
    w.unref();
    this.worker = w;
    return w;
  }

  /**
   * Ends the worker thread (deactivate): the jobs still pending, the warm-up among them, fail with
   * "similarity worker stopped". Resolves when the thread has ended.
   */
  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    const stopped = new Error('similarity worker stopped');
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(stopped);
    }
    this.pending.clear();
    await w?.terminate();
  }
}
