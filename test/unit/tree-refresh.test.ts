/**
 * Issue 14, e2e flake of "Open Problem View": a whole-tree refresh made VS Code's extension host forget
 * every row until it had fetched the root again, so a click on a problem row's inline action landing in
 * that window reached the command without its row (it then asked for a problem with a quick pick). The
 * tree refreshes every 2 s while indexing and when a pass ends. Now a refresh whose root rows are the
 * rows shown (same ids, same order) refreshes those row objects (VS Code keeps their handles); rows added,
 * removed or reordered still refresh the root, and VS Code's fetch of the root then gets the rows the
 * refresh compared (one root query per refresh, not two). Real SQLite and the real folder
 * rlvr-probe-gsm8k/results_1024_cuda, the real FolderSession and tree provider on a `vscode` stub whose
 * EventEmitter records what the tree fires.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import type { FolderSession } from '../../src/extension/session';
import type { Node, ProblemTreeProvider } from '../../src/extension/problemTree';
import { REAL, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_1024_cuda');

/** What the tree fired, in order (`undefined`: the whole tree; an array: those rows). */
const fired: (Node | Node[] | undefined)[] = [];
class RecordingEmitter {
  event = () => ({ dispose() {} });
  fire(x: Node | Node[] | undefined) {
    fired.push(x);
  }
  dispose() {}
}
// loaded first in this process: the tree module keeps this stub
const { ProblemTreeProvider: Tree, nodeId } = loadWithStub<{
  ProblemTreeProvider: new (g: () => unknown) => ProblemTreeProvider;
  nodeId: (n: Node) => string | undefined;
}>('../../src/extension/problemTree', { EventEmitter: RecordingEmitter });

function openSession(): FolderSession {
  const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
    '../../src/extension/session',
  );
  const state = new Map<string, unknown>();
  const storage = tempDir('ti-tree-refresh-');
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: storage },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const folder = { uri: { fsPath: RUN, toString: () => `file://${RUN}` }, name: 'results_1024_cuda' };
  return new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
}

const problemIds = (rows: Node[]) => rows.map((r) => (r.type === 'problem' ? r.problem.problemId : `(${r.type})`));

describe('a whole-tree refresh keeps the rows VS Code shows when they are the same rows', async () => {
  const s = openSession();
  const controller = new AbortController();
  // the first batch of rl_raw.jsonl only: some of the 30 problems
  await indexFolder(s.index, RUN, {
    batchSize: 40,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.phase === 'index' && p.samples > 0) controller.abort();
    },
  });
  s.fireChanged();
  const t = new Tree(() => s);
  /** The root queries (problem pages) the tree ran, in order. */
  const rootQueries: number[] = [];
  const listProblems = s.index.listProblems;
  s.index.listProblems = (...a: Parameters<typeof listProblems>) => {
    rootQueries.push(a[1] as number);
    return listProblems.apply(s.index, a);
  };

  test('before VS Code has fetched the root, a refresh is a root refresh', () => {
    fired.length = 0;
    t.refresh();
    assert.deepEqual(fired, [undefined]);
  });

  test('same rows: the refresh names the very row objects VS Code holds, with fresh data', () => {
    const shown = t.getChildren();
    assert.ok(shown.length >= 5 && shown.length < 30, `${shown.length} problems so far`);
    fired.length = 0;
    t.refresh();
    assert.equal(fired.length, 1);
    const f = fired[0] as Node | Node[] | undefined;
    assert.ok(Array.isArray(f), 'a refresh of rows, not of the root');
    assert.equal(f.length, shown.length);
    for (const [i, row] of f.entries()) assert.equal(row, shown[i], `row ${i} is the object VS Code holds`);
    // the tree item VS Code asks for next is the row's current one, under the same id
    for (const row of shown) assert.equal(t.getTreeItem(row).id, nodeId(row));
  });

  test('rows added (the rest of the folder indexed): a root refresh, then the new rows, queried once', async () => {
    const before = problemIds(t.getChildren());
    const rest = await indexFolder(s.index, RUN);
    assert.equal(rest.cancelled, false);
    s.fireChanged();
    fired.length = 0;
    rootQueries.length = 0;
    t.refresh();
    assert.deepEqual(fired, [undefined]);
    const after = t.getChildren();
    assert.equal(after.length, 30);
    // the rows the refresh compared are the rows VS Code gets: one root query, not one to compare and
    // one more to fetch (every 2 s while a pass adds problems)
    assert.equal(rootQueries.length, 1, 'one root query for a refresh and the fetch that follows');
    const afterIds = new Set(problemIds(after));
    assert.ok(before.every((id) => afterIds.has(id)));
    // until VS Code has fetched the root again, every refresh is a root refresh (and the fetch queries
    // the index then: the rows compared by an earlier refresh may be out of date)
    t.filter = { kind: 'failing' };
    t.refresh();
    t.filter = { kind: 'all' };
    fired.length = 0;
    t.refresh();
    t.refresh();
    assert.deepEqual(fired, [undefined, undefined]);
    const latest = t.getChildren();
    assert.equal(latest.length, 30);
    assert.ok(after.length > before.length);
    fired.length = 0;
    t.refresh();
    const f = fired[0] as Node | Node[] | undefined;
    assert.ok(Array.isArray(f) && f.length === 30 && f.every((row, i) => row === latest[i]));
  });

  test('the rows compared are not served after another change: a filter set before the fetch shows', async () => {
    const all = t.getChildren();
    assert.equal(all.length, 30);
    // a refresh that finds other rows (one problem fewer shown: a smaller page) ...
    const restore = s.index.listProblems;
    s.index.listProblems = (...a: Parameters<typeof restore>) => restore.apply(s.index, a).slice(1);
    t.refresh();
    s.index.listProblems = restore;
    // ... then a filter before VS Code fetched the root: the fetch gets the filter's rows
    t.filter = { kind: 'failing' };
    t.refresh();
    const failing = t.getChildren();
    assert.ok(failing.length < 29, `${failing.length} failing problems`);
    t.filter = { kind: 'all' };
    t.refresh();
    assert.equal(t.getChildren().length, 30);
  });

  test('rows removed (a filter): a root refresh', () => {
    t.getChildren();
    t.filter = { kind: 'failing' };
    fired.length = 0;
    t.refresh();
    assert.deepEqual(fired, [undefined]);
    const failing = t.getChildren();
    assert.ok(failing.length < 30, `${failing.length} failing problems`);
    t.filter = { kind: 'all' };
    t.refresh();
  });

  test('a refresh of one node stays a refresh of that node', () => {
    const rows = t.getChildren();
    fired.length = 0;
    t.refresh(rows[0]);
    assert.deepEqual(fired, [rows[0]]);
  });
});
