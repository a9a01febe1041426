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
  /** The mapping file as the worker gets it: absolute, or empty for none. */
  mappingFile: string;
}

/**
 * A string equal for two {@link PassInputs} exactly when a pass with either reads the folder the same
 * way (arrays in their order: `include`/`exclude` globs are tried in order). `correctThreshold`
 * undefined (no threshold) differs from every number.
 */
export function passKey(x: PassInputs): string {
  return JSON.stringify([x.include, x.exclude, x.correctThreshold ?? null, x.scorer, x.mappingFile]);
}

/**
 * One folder's indexing passes, so that one start indexes once:
 * - a request while a pass with the same inputs runs joins it (resolves with its result);
 * - a request while a pass with other inputs runs, or because files changed while it runs, waits for
 *   it, then starts its own (every request waiting so is folded into that one pass: the first to
 *   resume starts it, the others join);
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

  /** Whether a pass runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** The running pass's result; undefined when none runs. */
  current(): Promise<R> | undefined {
    return this.running?.done;
  }

  /**
   * Whether the index is (or, once the running pass ends, will be) read with these inputs: true when
   * the running pass, else the last pass started, had the same key; false before any pass.
   */
  isCurrent(key: string): boolean {
    return (this.running?.key ?? this.lastKey) === key;
  }

  /**
   * Runs `start` for a pass with inputs `key`, or joins / waits per the class rules. `start` is called
   * synchronously when nothing runs, so two requests in the same tick make one pass. With `folderChanged`
   * (the results files changed while a pass may be running: it may have read them before the change) the
   * request never joins a running pass: it waits for it, like a request with other inputs.
   */
  request(key: string, start: () => Promise<R>, folderChanged = false): Promise<R> {
    if (this.running) {
      if (this.running.key === key && !folderChanged) return this.running.done;
      const settled = this.running.done.then(
        () => undefined,
        () => undefined,
      );
      return settled.then(() => this.request(key, start));
    }
    this.lastKey = key;
    let done: Promise<R>;
    try {
      done = start();
    } catch (e) {
      done = Promise.reject(e);
    }
    const entry = { key, done };
    this.running = entry;
    const clear = () => {
      if (this.running === entry) this.running = undefined;
    };
    done.then(clear, clear);
    return done;
  }
}
