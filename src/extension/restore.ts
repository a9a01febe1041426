/**
 * What a window reload brings back, and how quietly (trial 13 findings 6 and 12): the re-check of an
 * existing index when the extension starts, and the tree's filter kept in workspace state. No `vscode`
 * import: the rules are unit-tested as they are (test/unit/restore.test.ts).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { IndexProgress, IndexSummary } from '../core/index/indexer';
import type { TreeFilter } from './treeFilter';

/**
 * Whether the pass that starts with the extension is a quiet re-check: the folder's index already holds
 * samples, so the tree and the tabs restored by a reload are served from it at once, and the pass only
 * checks that no results file changed (docs/open-a-folder.md, "Several folders, reloads, untrusted folders"). A quiet pass shows no notification,
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

/** The kinds of {@link TreeFilter} a kept value may name, and what each carries (JSON Schema, checked by Ajv). */
const filterKind = (kind: string, properties: Record<string, unknown> = {}, required: string[] = []) => ({
  properties: { kind: { const: kind }, ...properties },
  required: ['kind', ...required],
});
const THRESHOLD = { threshold: { type: 'number' } };
const STORED_TREE_FILTER_SCHEMA = {
  type: 'object',
  required: ['folder', 'filter'],
  properties: {
    folder: { type: 'string' },
    filter: {
      type: 'object',
      required: ['kind'],
      discriminator: { propertyName: 'kind' },
      oneOf: [
        filterKind('failing'),
        filterKind('lost'),
        filterKind('gained'),
        filterKind('graderDisagreements'),
        filterKind('lowAccuracy', THRESHOLD),
        filterKind('luckyGuess', THRESHOLD),
        filterKind('level', { level: { type: 'string' } }, ['level']),
        filterKind('label', { label: { type: 'string' } }, ['label']),
        filterKind('search', { query: { type: 'string', pattern: '\\S' } }, ['query']),
        filterKind(
          'training',
          { which: { enum: ['lost', 'late'] }, series: { type: 'string' }, title: { type: 'string' } },
          ['which'],
        ),
      ],
    },
  },
};

/** Checks a kept value against {@link STORED_TREE_FILTER_SCHEMA}, dropping the fields a filter kind does not have. */
let validateStored: ValidateFunction<StoredTreeFilter> | undefined;

/**
 * The tree's filter to restore for `folder` from the kept value `raw` (workspace state: checked, since an
 * older or newer version may have written it): undefined when nothing is kept, it is of another folder, or
 * it is not a filter this version knows (an unknown kind, a field of the wrong type, a blank search; then
 * the tree shows all problems, as before). Fields a known kind does not have are dropped. `raw` is not
 * changed (a copy is checked).
 */
export function restoredTreeFilter(raw: unknown, folder: string): TreeFilter | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  validateStored ??= new Ajv({ discriminator: true, removeAdditional: 'all', strict: false }).compile<StoredTreeFilter>(
    STORED_TREE_FILTER_SCHEMA,
  );
  const copy: unknown = structuredClone(raw);
  if (!validateStored(copy) || copy.folder !== folder) return undefined;
  return copy.filter;
}
