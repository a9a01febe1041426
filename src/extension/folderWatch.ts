import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A results file's name, as the results watcher's glob `**\/*.{jsonl,json,eval}` matches it. */
export const RESULTS_FILE = /\.(jsonl|json|eval)$/i;

/**
 * Whether `dir` (an absolute path) is a directory holding a results file (`.jsonl`, `.json`, `.eval`) at any depth,
 * skipping the index's own `.trace-inspector` folders. Used when a directory is created in or moved into the results
 * folder: the file watcher reports the directory only, not the files inside it. False for a file, a missing path or
 * an unreadable directory. Stops at the first results file; reads at most `maxEntries` directory entries (linear in
 * the entries read, bounded), after which it answers true so that a large tree is re-indexed rather than missed.
 */
export function holdsResultsFiles(dir: string, maxEntries = 20_000): boolean {
  const queue = [dir];
  let read = 0;
  while (queue.length) {
    const d = queue.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++read > maxEntries) return true;
      if (e.isDirectory()) {
        if (e.name !== '.trace-inspector') queue.push(join(d, e.name));
      } else if (RESULTS_FILE.test(e.name)) return true;
    }
  }
  return false;
}
