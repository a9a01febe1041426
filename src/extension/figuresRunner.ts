import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteDriver } from '../core/index/sqlite';
import type { TraceIndex } from '../core/index/traceIndex';
import type { FiguresProgress } from '../shared/protocol';
import { runFiguresJob } from './figuresWorker';
import {
  FIGURES_NAMES,
  type FiguresJob,
  type FiguresKind,
  type FiguresRequest,
  type JobOf,
  type FiguresResults,
  validateFiguresReply,
} from './figuresWorkerProtocol';

/** Where a job reads: the index file (the worker opens it) and the host's connection (the in-process fallback). */
export interface FiguresSource {
  dbPath: string;
  index: TraceIndex;
}

/** A caller waiting for the figures of one key. */
interface Waiter {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: (p: FiguresProgress) => void;
}

/** A job of the queue: the newest request of its key; every caller of that key waits for it. */
interface Task {
  key: string;
  id: number;
  source: FiguresSource;
  job: FiguresJob;
  waiters: Waiter[];
  /** One Int32 shared with the worker: 1 once a newer request of the same key superseded this job. */
  cancel: SharedArrayBuffer;
}

/** The kind of figures queued after every other: the overview's markers, which no other view waits for. */
const LAST_KIND: FiguresKind = 'markers';

/**
 * Runs the figures jobs of ./figuresWorkerProtocol.ts in one lazily started worker thread (`workerPath`, normally
 * dist/figuresWorker.js), one at a time in arrival order, so that the extension host's main thread never runs a
 * bootstrap over every problem: the tree, the previews and the problem views stay responsive meanwhile.
 *
 * Jobs have a key (a folder and a kind of figures: one overview's Models tab, its Training tab, ...). A request
 * whose key has a job queued replaces that job's input (the newest roles, the newest index) and waits with its
 * callers; one whose key's job runs marks that job superseded (it stops at its next progress step) and queues its
 * own before every other job: every caller of the key, old and new, gets the new job's result (a re-index, a base
 * change: the old figures are stale). Callers get progress (`onProgress`): "waiting for …" while the job waits
 * behind another, then the job's own steps.
 *
 * Without the worker file (unit tests of the host without a bundle) jobs run in-process on the host's connection,
 * one at a time, on a later tick. A worker that crashes fails the running job's callers and is started again for
 * the next job.
 */
export class FiguresRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private queue: Task[] = [];
  private running: Task | undefined;
  /** Whether the last job ran in a worker thread (false: in-process fallback). */
  usedWorker = false;

  constructor(private readonly workerPath: string | undefined) {}

  /**
   * The figures of `job` on `source`, under `key` (see the class: a newer request of the same key supersedes
   * this one, and this call then resolves with the newer job's result). Rejects with the job's error.
   */
  run<K extends FiguresKind>(
    key: string,
    source: FiguresSource,
    job: JobOf<K>,
    onProgress?: (p: FiguresProgress) => void,
  ): Promise<FiguresResults[K]> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve: resolve as (v: unknown) => void, reject, onProgress };
      const queued = this.queue.find((t) => t.key === key);
      if (queued) {
        queued.source = source;
        queued.job = job;
        queued.waiters.push(waiter);
      } else if (this.running?.key === key) {
        const stale = this.running;
        Atomics.store(new Int32Array(stale.cancel), 0, 1);
        // its callers wait for the new job, which runs next (they asked for these figures first), unless it is
        // the markers' (after every other kind)
        const t = this.task(key, source, job, [...stale.waiters, waiter]);
        if (job.kind === LAST_KIND) this.queue.push(t);
        else this.queue.unshift(t);
        stale.waiters = [];
      } else {
        // the overview's markers (seconds of bootstraps on a large folder) wait for every other kind of figures
        const t = this.task(key, source, job, [waiter]);
        const before = job.kind === LAST_KIND ? -1 : this.queue.findIndex((q) => q.job.kind === LAST_KIND);
        if (before < 0) this.queue.push(t);
        else this.queue.splice(before, 0, t);
      }
      this.tellWaiting();
      this.next();
    });
  }

  /**
   * Drops the figures of `key` (a panel closed): a queued job leaves the queue, a running one is marked superseded;
   * their callers' promises reject with "cancelled".
   */
  cancel(key: string): void {
    const stopped = new Error('cancelled');
    for (const t of this.queue.filter((x) => x.key === key)) for (const w of t.waiters) w.reject(stopped);
    this.queue = this.queue.filter((t) => t.key !== key);
    if (this.running?.key === key) {
      Atomics.store(new Int32Array(this.running.cancel), 0, 1);
      for (const w of this.running.waiters) w.reject(stopped);
      this.running.waiters = [];
    }
  }

  /** Whether a job runs or waits. */
  get busy(): boolean {
    return this.running !== undefined || this.queue.length > 0;
  }

  private task(key: string, source: FiguresSource, job: FiguresJob, waiters: Waiter[]): Task {
    return { key, id: this.nextId++, source, job, waiters, cancel: new SharedArrayBuffer(4) };
  }

  /** Tells the callers of every queued job what they wait for. */
  private tellWaiting(): void {
    const ahead = this.running;
    if (!ahead) return;
    for (const t of this.queue)
      for (const w of t.waiters)
        w.onProgress?.({ stage: `waiting for ${FIGURES_NAMES[ahead.job.kind]}`, done: 0, total: 0 });
  }

  /** Starts the next job when none runs. */
  private next(): void {
    if (this.running || this.queue.length === 0) return;
    const t = this.queue.shift()!;
    this.running = t;
    this.tellWaiting();
    const finish = (ok: boolean, value: unknown) => {
      if (this.running === t) this.running = undefined;
      // an idle worker does not keep the process alive
      if (this.queue.length === 0) this.worker?.unref();
      for (const w of t.waiters) {
        if (ok) w.resolve(value);
        else w.reject(value as Error);
      }
      t.waiters = [];
      this.next();
    };
    const progress = (p: FiguresProgress) => {
      for (const w of t.waiters) w.onProgress?.(p);
    };
    if (!this.workerPath || !existsSync(this.workerPath)) {
      this.usedWorker = false;
      setImmediate(() => {
        runFiguresJob(t.source.index, t.job, (p) => {
          if (Atomics.load(new Int32Array(t.cancel), 0) !== 0) throw new Error('superseded by a newer request');
          progress(p);
        }).then(
          (v) => finish(true, v),
          (e) => finish(false, e),
        );
      });
      return;
    }
    this.usedWorker = true;
    const w = this.ensureWorker(this.workerPath);
    w.ref(); // while a job runs, as any pending I/O
    this.onReply = (raw) => {
      const m = validateFiguresReply(raw);
      if (typeof m === 'string') {
        finish(false, new Error(`figures worker: ${m}`));
        return;
      }
      if (m.id !== t.id) return;
      if (m.type === 'progress') progress(m.progress);
      else if (m.type === 'done') finish(true, m.result);
      else finish(false, new Error(m.message));
    };
    const request: FiguresRequest = {
      type: 'run',
      id: t.id,
      dbPath: t.source.dbPath,
      // the worker opens the index with this thread's driver (one SQLite per process)
      sqliteDriver: sqliteDriver().name,
      job: t.job,
      cancel: t.cancel,
    };
    w.postMessage(request);
  }

  /** Handles the running job's replies. */
  private onReply: (m: unknown) => void = () => undefined;

  private ensureWorker(path: string): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(path);
    w.on('message', (m: unknown) => this.onReply(m));
    const fail = (e: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.onReply = () => undefined;
      const t = this.running;
      this.running = undefined;
      for (const x of t?.waiters ?? []) x.reject(e);
      this.next();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`figures worker exited with code ${code}`)));
    w.unref();
    this.worker = w;
    return w;
  }

  /** Ends the worker thread (deactivate): every job running or queued fails with "figures worker stopped". */
  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    const stopped = new Error('figures worker stopped');
    for (const t of [...(this.running ? [this.running] : []), ...this.queue])
      for (const x of t.waiters) x.reject(stopped);
    this.running = undefined;
    this.queue = [];
    await w?.terminate();
  }
}
