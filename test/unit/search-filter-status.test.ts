/**
 * While the full-text index is built after a pass (issue 31: core/index/searchIndex.ts), the search filter looks
 * through the samples already in it: the line above the tree says how far it is and how many samples it did not look
 * through, and says nothing once it is complete. The real Extension on a `vscode` stub; the folder session is a
 * stand-in whose full-text index the test sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Extension } from '../../src/extension/extension';
import { treeRefreshNeeded } from '../../src/extension/treeFilter';
import { loadExtension, passStandIn, recordingStatusItem } from './vscodeStub';

const { status } = recordingStatusItem();
const view: { message?: string; description?: string } = {};
const { Extension: Ext } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
  status,
  progress: [],
  treeView: {
    onDidChangeSelection: () => ({ dispose() {} }),
    onDidChangeVisibility: () => ({ dispose() {} }),
    selection: [],
    dispose() {},
    set message(m: string | undefined) {
      view.message = m;
    },
    set description(d: string | undefined) {
      view.description = d;
    },
  },
});

test('the search filter says "search index: 40%" and what it did not look through until the index is complete', () => {
  const ext = new Ext({ workspaceState: { get: () => undefined, update: async () => undefined } });
  const { session } = passStandIn(ext, 'mini');
  let built = { samples: 1000, indexed: 400 };
  let building = true;
  Object.defineProperty(session, 'searchIndexBuilding', { get: () => building });
  Object.assign(session, {
    searchIndex: () => built,
    index: { countProblems: () => 0, listProblems: () => [] },
  });
  (ext as unknown as { active: () => unknown }).active = () => session;
  ext.setFilter({ kind: 'search', query: 'sum of roots' });
  assert.match(view.message ?? '', /search index: 40%: 600 samples not searched yet$/);
  assert.match(view.description ?? '', /· search index: 40%$/);
  // the build stopped (a file changed, VS Code closed): the line says how to finish it
  building = false;
  ext.updateChrome();
  assert.match(
    view.message ?? '',
    /search index: 40%: 600 samples not searched yet \(run Index Folder to finish it\)$/,
  );
  // complete: nothing more said
  built = { samples: 1000, indexed: 1000 };
  ext.updateChrome();
  assert.doesNotMatch(view.message ?? '', /search index/);
  assert.doesNotMatch(view.description ?? '', /search index/);
  // another filter says nothing of the full-text index
  built = { samples: 1000, indexed: 400 };
  ext.setFilter({ kind: 'all' });
  assert.doesNotMatch(view.message ?? '', /search index/);
  ext.dispose();
});

test("the full-text index's progress refreshes the tree only under a search filter; a pass's end always", () => {
  // a refresh re-creates every row: an inline action clicked meanwhile reached "Open Problem View" without its row
  const kinds = ['all', 'failing', 'search', 'graderDisagreements'] as const;
  const table = kinds.map((k) => [
    k,
    treeRefreshNeeded('search', k),
    treeRefreshNeeded('afterPass', k),
    treeRefreshNeeded('passEnded', k),
  ]);
  assert.deepEqual(table, [
    ['all', false, false, true],
    ['failing', false, false, true],
    ['search', true, false, true],
    ['graderDisagreements', false, false, true],
  ]);
});
