/**
 * The last data each restorable tab was sent (a problem view's problem, the sample preview's sample), kept in
 * the workspace's storage folder, so that after a window reload a restored tab renders at once even when the
 * folder's index is not ready (no session yet, or the index being built again and not holding the tab's
 * problem or sample yet). The host then tells the tab when the index changes, and the tab asks again: what
 * it shows is checked against the index as soon as the index can answer (docs/read-samples.md). No `vscode`
 * import: unit-tested as it is (test/unit/restoreCache.test.ts).
 *
 * One JSON file per tab key ({@link restoreKey}), at most {@link RESTORE_CACHE_MAX_ENTRIES} of them (the
 * oldest written are removed), none over {@link RESTORE_CACHE_MAX_BYTES}. Model output is kept there as it
 * was sent (the sample's text); it is rendered by the same webview code, inert, as when it came from the index.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROTOCOL_VERSION, type PanelState } from '../shared/protocol';

/** How many tabs' data are kept (the files written last). */
export const RESTORE_CACHE_MAX_ENTRIES = 24;
/** Data larger than this (bytes of JSON) is not kept: its tab waits for the index after a reload. */
export const RESTORE_CACHE_MAX_BYTES = 5_000_000;
/** A put is written this long after the last put of the same key (ms): stepping through samples writes once. */
export const RESTORE_CACHE_WRITE_DELAY_MS = 300;

/**
 * The key of the data a tab shows, from its state: the view, the folder and the stable keys of what it shows
 * (the problem's key; the sample's problem key, model key and index: row ids change when a folder is
 * indexed again). Undefined for a tab that shows nothing restorable (the overview, a state without keys).
 */
export function restoreKey(state: PanelState): string | undefined {
  if (state.folder === undefined) return undefined;
  if (state.view === 'problem' && state.problemKey !== undefined)
    return ['problem', state.folder, state.problemKey].join('\x1f');
  if (
    state.view === 'preview' &&
    state.problemKey !== undefined &&
    state.modelKey !== undefined &&
    state.sampleIndex !== undefined
  )
    return ['preview', state.folder, state.problemKey, state.modelKey, String(state.sampleIndex)].join('\x1f');
  return undefined;
}

/** What a file holds: the key (a hash collision or another version's file is not taken), when, and the data. */
interface Entry<T> {
  protocol: number;
  key: string;
  savedAt: number;
  data: T;
}

/** The kept data of restorable tabs, one file per key in `dir` (undefined: nothing is kept, e.g. no workspace). */
export class RestoreCache {
  private readonly due = new Map<string, { data: unknown; timer: NodeJS.Timeout }>();

  constructor(private readonly dir: string | undefined) {}

  private file(key: string): string | undefined {
    if (!this.dir) return undefined;
    return path.join(this.dir, `${createHash('sha1').update(key).digest('hex').slice(0, 24)}.json`);
  }

  /**
   * The data kept for `key` and when it was kept (epoch ms); undefined when none is, it is unreadable, or it
   * was written by another protocol version. A put not written yet is returned as it is.
   */
  get<T>(key: string): { savedAt: number; data: T } | undefined {
    const pending = this.due.get(key);
    if (pending) return { savedAt: Date.now(), data: pending.data as T };
    const file = this.file(key);
    if (!file) return undefined;
    try {
      const e = JSON.parse(fs.readFileSync(file, 'utf8')) as Entry<T>;
      if (e.protocol !== PROTOCOL_VERSION || e.key !== key || typeof e.savedAt !== 'number') return undefined;
      return { savedAt: e.savedAt, data: e.data };
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps `data` for `key`, written {@link RESTORE_CACHE_WRITE_DELAY_MS} after the last put of that key
   * (a later put replaces it). Writing never throws: a failed write keeps nothing (the tab then waits for the
   * index after a reload).
   */
  put(key: string, data: unknown): void {
    if (!this.dir) return;
    const before = this.due.get(key);
    if (before) clearTimeout(before.timer);
    const timer = setTimeout(() => {
      this.due.delete(key);
      this.write(key, data);
    }, RESTORE_CACHE_WRITE_DELAY_MS);
    timer.unref?.();
    this.due.set(key, { data, timer });
  }

  /** Writes every put not written yet, now (on dispose). */
  flush(): void {
    for (const [key, { data, timer }] of this.due) {
      clearTimeout(timer);
      this.write(key, data);
    }
    this.due.clear();
  }

  /** Writes one entry (through a temporary file and a rename), then removes the oldest beyond the limit. */
  private write(key: string, data: unknown): void {
    const file = this.file(key);
    if (!file || !this.dir) return;
    try {
      const text = JSON.stringify({
        protocol: PROTOCOL_VERSION,
        key,
        savedAt: Date.now(),
        data,
      } satisfies Entry<unknown>);
      if (Buffer.byteLength(text, 'utf8') > RESTORE_CACHE_MAX_BYTES) {
        fs.rmSync(file, { force: true });
        return;
      }
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(`${file}.tmp`, text);
      fs.renameSync(`${file}.tmp`, file);
      const files = fs
        .readdirSync(this.dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ f, t: fs.statSync(path.join(this.dir as string, f)).mtimeMs }))
        .sort((a, b) => b.t - a.t);
      for (const { f } of files.slice(RESTORE_CACHE_MAX_ENTRIES)) fs.rmSync(path.join(this.dir, f), { force: true });
    } catch {
      /* nothing kept: the tab waits for the index after a reload */
    }
  }
}
