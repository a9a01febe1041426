/**
 * What a window reload brings back, and how quietly (trial 13 findings 6 and 12): the re-check of an
 * existing index when the extension starts, and the tree's filter kept in workspace state. No `vscode`
 * import: the rules are unit-tested as they are (test/unit/restore.test.ts).
 */
import type { IndexProgress, IndexSummary } from '../core/index/indexer';
import type { TreeFilter } from './problemTree';

/**
 * Whether the pass that starts with the extension is a quiet re-check: the folder's index already holds
 * samples, so the tree and the tabs restored by a reload are served from it at once, and the pass only
 * checks that no results file changed (README "Using the extension"). A quiet pass shows no notification,
 * no "Indexing" in the tree or the status bar, and tells open views nothing, until it finds something to
 * read ({@link recheckFoundWork}). `indexedSamples`: samples in the index (0 for a new folder: a full,
 * announced pass). Only the pass at start-up (`atStart`): the passes asked for later (Index Folder, a
 * changed setting, another folder shown) are announced as before.
 */
export function isQuietRecheck(atStart: boolean, indexedSamples: number): boolean {
  return atStart && indexedSamples > 0;
}

/**
 * Whether a quiet re-check's progress message shows that it really indexes: samples were written (a
 * changed or new file is read; `samples` counts the samples written by this pass), or the pass reads every
 * file again (a `notice`: the index was built by older readers). From then on the pass is announced as
 * any other (the views say "Indexing…"). The per-file `index` messages of unchanged files write nothing.
 */
export function recheckFoundWork(p: IndexProgress): boolean {
  return p.samples > 0 || !!p.notice;
}

/**
 * Whether a finished pass changed what the views show: files read again or removed, annotations moved
 * with their samples or restored from the mirror file (`mirrorImported`: added + updated), or no summary
 * (the pass failed or was cancelled: the views re-read the index to be safe). A quiet re-check that
 * changed nothing refreshes no view (a restored problem view, preview or text tab is not drawn again).
 */
export function passChangedIndex(summary: IndexSummary | undefined, mirrorImported: number): boolean {
  if (!summary || summary.cancelled) return true;
  return (
    summary.filesIndexed > 0 || summary.filesRemoved > 0 || summary.annotationsReattached > 0 || mirrorImported > 0
  );
}

/** The workspace-state key of the tree's filter (one per workspace; it names the folder it applies to). */
export const TREE_FILTER_KEY = 'traceInspector.treeFilter';

/** The tree's filter as kept in workspace state: the folder it applies to (URI string) and the filter. */
export interface StoredTreeFilter {
  folder: string;
  filter: TreeFilter;
}

/**
 * The value to keep for the tree's filter of `folder`, or undefined to keep none: "All problems", and a
 * list of problems (`problems`: its row ids change when the folder is indexed again, so after a reload it
 * could name other problems; it is not kept). Search text, labels, levels, thresholds and training series
 * are kept as they are.
 */
export function storedTreeFilter(folder: string, filter: TreeFilter): StoredTreeFilter | undefined {
  if (filter.kind === 'all' || filter.kind === 'problems') return undefined;
  return { folder, filter };
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const str = (v: unknown): v is string => typeof v === 'string';

/**
 * The tree's filter to restore for `folder` from the kept value `raw` (workspace state: checked, since an
 * older or newer version may have written it): undefined when nothing is kept, it is of another folder, or
 * it is not a filter this version knows (then the tree shows all problems, as before).
 */
export function restoredTreeFilter(raw: unknown, folder: string): TreeFilter | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { folder: f, filter } = raw as { folder?: unknown; filter?: unknown };
  if (f !== folder || !filter || typeof filter !== 'object') return undefined;
  const x = filter as Record<string, unknown>;
  const optNum = (v: unknown) => v === undefined || num(v);
  const optStr = (v: unknown) => v === undefined || str(v);
  switch (x.kind) {
    case 'failing':
    case 'lost':
    case 'gained':
    case 'graderDisagreements':
      return { kind: x.kind };
    case 'lowAccuracy':
    case 'luckyGuess':
      return optNum(x.threshold)
        ? x.threshold === undefined
          ? { kind: x.kind }
          : { kind: x.kind, threshold: x.threshold as number }
        : undefined;
    case 'level':
      return str(x.level) ? { kind: 'level', level: x.level } : undefined;
    case 'label':
      return str(x.label) ? { kind: 'label', label: x.label } : undefined;
    case 'search':
      return str(x.query) && x.query.trim() !== '' ? { kind: 'search', query: x.query } : undefined;
    case 'training':
      if ((x.which !== 'lost' && x.which !== 'late') || !optStr(x.series) || !optStr(x.title)) return undefined;
      return {
        kind: 'training',
        which: x.which,
        ...(x.series !== undefined ? { series: x.series as string } : {}),
        ...(x.title !== undefined ? { title: x.title as string } : {}),
      };
    default:
      return undefined;
  }
}
