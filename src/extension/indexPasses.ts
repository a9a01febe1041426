/**
 * When a folder is indexed (again): one pass at a time per folder, and a pass only when it can change
 * the index. Pure (no `vscode` import), so the rules are unit-tested (test/unit/index-passes.test.ts).
 */

/** The settings a pass reads the folder with (session.ts `readSettings`): other values, another index. */
export interface PassInputs {
  include: readonly string[];
  exclude: readonly string[];
  correctThreshold: number | undefined;
  scorer: string;
  erroredSamples: 'exclude' | 'incorrect';
  /** The mapping file as the worker gets it: absolute, or empty for none. */
  mappingFile: string;
}

/**
 * A string equal for two {@link PassInputs} exactly when a pass with either reads the folder the same
 * way (arrays in their order: `include`/`exclude` globs are tried in order). `correctThreshold`
 * undefined (no threshold) differs from every number.
 */
export function passKey(x: PassInputs): string {
  return JSON.stringify([x.include, x.exclude, x.correctThreshold ?? null, x.scorer, x.mappingFile, x.erroredSamples]);
}

/**
 * The settings (under `traceInspector.`, package.json `contributes.configuration`) that a pass reads the
 * folder with, one per {@link PassInputs} field: a change of one of them may need a pass
 * ({@link PassQueue.isCurrent} tells whether the value in effect changed).
 */
export const PASS_SETTINGS = [
  'include',
  'exclude',
  'correctThreshold',
  'scorer',
  'mappingFile',
  'erroredSamples',
] as const;

/** What a queued request can be cancelled by: `vscode.CancellationToken` has this shape. */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A request waiting for the running pass to end. */
interface Waiting<R> {
  key: string;
  start: () => Promise<R>;
  resolve: (r: R | undefined) => void;
  reject: (e: unknown) => void;
  stopListening?: { dispose(): void };
}

/**
 * One folder's indexing passes, so that one start indexes once:
 * - a request while a pass with the same inputs runs joins it (resolves with its result);
 * - a request while a pass with other inputs runs, or because files changed while it runs, waits for
 *   it (it is queued), then starts its own: when the running pass ends, the first request queued starts
 *   its pass and every queued request with the same inputs joins it (one more pass, however many
 *   such requests came); requests with other inputs wait again;
 * - a queued request whose token is cancelled leaves the queue and resolves with `undefined` (no pass
 *   for it); {@link dropQueued} (Cancel Indexing) empties the queue the same way, so that stopping the
 *   running pass does not start the next one;
 * - {@link isCurrent} tells a settings change that leaves the inputs as they were (VS Code fires
 *   `onDidChangeConfiguration` for a key written again with its value, or set in another scope to the
 *   value in effect) from one that needs a pass.
 *
 * `R` is a pass's result (an index summary, undefined when cancelled or failed). A pass that throws
 * still ends: the next request starts a new one.
 */
export class PassQueue<R> {
  private running: { key: string; done: Promise<R> } | undefined;
  /** The inputs of the last pass started (also when cancelled: the user stopped it, a settings event must not restart it). */
  private lastKey: string | undefined;
  /** Requests waiting for the running pass, in the order they came. */
  private queue: Waiting<R>[] = [];

  /** Whether a pass runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** How many passes wait for the running one: distinct inputs among the queued requests (0 when none). */
  get queued(): number {
    return new Set(this.queue.map((w) => w.key)).size;
  }

  /** The running pass's result; undefined when none runs. */
  current(): Promise<R> | undefined {
    return this.running?.done;
  }

  /**
   * Whether the index is (or, once the running pass ends, will be) read with these inputs: true when
   * the running pass, else the last pass started, had the same key; false before any pass. (A queued
   * request does not count: it may still be dropped.)
   */
  isCurrent(key: string): boolean {
    return (this.running?.key ?? this.lastKey) === key;
  }

  /**
   * Runs `start` for a pass with inputs `key`, or joins / queues per the class rules. `start` is called
   * synchronously when nothing runs, so two requests in the same tick make one pass. With `folderChanged`
   * (the results files changed while a pass may be running: it may have read them before the change) the
   * request never joins a running pass: it is queued, like a request with other inputs. `token`
   * cancels the request while it is queued (resolves `undefined`, nothing started); once its pass runs,
   * stopping that pass is the caller's business. Resolves with the pass's result (or `undefined` when
   * dropped); rejects when the pass it ran or joined threw.
   */
  request(key: string, start: () => Promise<R>, folderChanged = false, token?: CancelToken): Promise<R | undefined> {
    if (this.running) {
      if (this.running.key === key && !folderChanged) return this.running.done;
      if (token?.isCancellationRequested) return Promise.resolve(undefined);
      return new Promise<R | undefined>((resolve, reject) => {
        const w: Waiting<R> = { key, start, resolve, reject };
        w.stopListening = token?.onCancellationRequested(() => {
          const i = this.queue.indexOf(w);
          if (i < 0) return;
          this.queue.splice(i, 1);
          w.stopListening?.dispose();
          resolve(undefined);
        });
        this.queue.push(w);
      });
    }
    if (token?.isCancellationRequested) return Promise.resolve(undefined);
    return this.startPass(key, start);
  }

  /**
   * Drops every queued request (Cancel Indexing: the running pass is stopped by the caller, and no
   * queued pass may start after it): each resolves with `undefined`. Returns how many passes were
   * dropped (distinct inputs, as {@link queued}); 0 when none waited.
   */
  dropQueued(): number {
    const dropped = this.queued;
    const waiting = this.queue;
    this.queue = [];
    for (const w of waiting) {
      w.stopListening?.dispose();
      w.resolve(undefined);
    }
    return dropped;
  }

  private startPass(key: string, start: () => Promise<R>): Promise<R> {
    this.lastKey = key;
    let done: Promise<R>;
    try {
      done = start();
    } catch (e) {
      done = Promise.reject(e);
    }
    const entry = { key, done };
    this.running = entry;
    const next = () => {
      if (this.running !== entry) return;
      this.running = undefined;
      this.startNext();
    };
    done.then(next, next);
    return done;
  }

  /** Starts the first queued request's pass; queued requests with its inputs join it. */
  private startNext(): void {
    const first = this.queue[0];
    if (!first) return;
    const joining = this.queue.filter((w) => w.key === first.key);
    this.queue = this.queue.filter((w) => w.key !== first.key);
    for (const w of joining) w.stopListening?.dispose();
    const done = this.startPass(first.key, first.start);
    for (const w of joining) done.then(w.resolve, w.reject);
  }
}
