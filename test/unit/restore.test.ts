/**
 * What a window reload brings back (trial 13 findings 6 and 12; src/extension/restore.ts):
 * - the pass that starts with the extension on a folder whose index holds samples is a quiet re-check: the
 *   real FolderSession (on the `vscode` stub, its worker from dist/) runs it without counting as indexing
 *   and without telling the views anything when no file changed (the restored problem view, preview and
 *   text tab are not drawn again), and announces it as soon as it reads a changed file;
 * - the real Extension starts that pass with no progress notification and no "Indexing" in the status bar;
 * - the tree's filter survives the round trip through workspace state (JSON, as VS Code stores it).
 * Needs `npm run build` (dist/indexWorker.js).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FolderSession } from '../../src/extension/session';
import type { Extension } from '../../src/extension/extension';
import type { TreeFilter } from '../../src/extension/problemTree';
import {
  isQuietRecheck,
  passChangedIndex,
  recheckFoundWork,
  restoredTreeFilter,
  storedTreeFilter,
  TREE_FILTER_KEY,
} from '../../src/extension/restore';
import type { IndexSummary } from '../../src/core/index/indexer';
import { rolloutLine, tempDir } from './helpers';
import { Emitter, loadExtension, loadWithStub, recordingStatusItem } from './vscodeStub';

const FOLDER = 'file:///data/results';

describe('the tree filter kept in workspace state (trial 13 finding 12)', () => {
  const kept: TreeFilter[] = [
    { kind: 'failing' },
    { kind: 'lost' },
    { kind: 'gained' },
    { kind: 'graderDisagreements' },
    { kind: 'lowAccuracy' },
    { kind: 'lowAccuracy', threshold: 0.25 },
    { kind: 'luckyGuess', threshold: 0.125 },
    { kind: 'level', level: 'Level 5' },
    { kind: 'label', label: 'lucky guess' },
    { kind: 'search', query: 'boxed{42}' },
    { kind: 'training', which: 'lost' },
    { kind: 'training', which: 'late', series: 'ppo', title: 'Solved late in training: ppo' },
  ];
  for (const f of kept)
    test(`${JSON.stringify(f)} comes back as it was`, () => {
      const stored = storedTreeFilter(FOLDER, f);
      assert.deepEqual(stored, { folder: FOLDER, filter: f });
      // VS Code keeps workspace state as JSON
      assert.deepEqual(restoredTreeFilter(JSON.parse(JSON.stringify(stored)), FOLDER), f);
    });

  test('"All problems" and a list of problem row ids are not kept', () => {
    assert.equal(storedTreeFilter(FOLDER, { kind: 'all' }), undefined);
    assert.equal(storedTreeFilter(FOLDER, { kind: 'problems', problemIds: [3, 4], title: 'crossover' }), undefined);
  });

  test("another folder's filter, nothing kept, and values this version does not know are not restored", () => {
    assert.equal(restoredTreeFilter({ folder: 'file:///other', filter: { kind: 'lost' } }, FOLDER), undefined);
    assert.equal(restoredTreeFilter(undefined, FOLDER), undefined);
    assert.equal(restoredTreeFilter('lost', FOLDER), undefined);
    assert.equal(restoredTreeFilter({ folder: FOLDER, filter: { kind: 'newKind' } }, FOLDER), undefined);
    assert.equal(restoredTreeFilter({ folder: FOLDER, filter: { kind: 'label' } }, FOLDER), undefined);
    assert.equal(restoredTreeFilter({ folder: FOLDER, filter: { kind: 'search', query: '  ' } }, FOLDER), undefined);
    assert.equal(
      restoredTreeFilter({ folder: FOLDER, filter: { kind: 'luckyGuess', threshold: 'high' } }, FOLDER),
      undefined,
    );
    assert.equal(
      restoredTreeFilter({ folder: FOLDER, filter: { kind: 'training', which: 'early' } }, FOLDER),
      undefined,
    );
    // extra fields of a known kind are dropped, in the filter returned, not in the kept value
    const kept = { folder: FOLDER, filter: { kind: 'lost', problemIds: [1] } };
    assert.deepEqual(restoredTreeFilter(kept, FOLDER), { kind: 'lost' });
    assert.deepEqual(kept.filter, { kind: 'lost', problemIds: [1] });
    assert.deepEqual(
      restoredTreeFilter(
        { folder: FOLDER, filter: { kind: 'training', which: 'late', series: 's', extra: 1 } },
        FOLDER,
      ),
      { kind: 'training', which: 'late', series: 's' },
    );
  });
});

describe('the re-check when the extension starts (trial 13 finding 6)', () => {
  const summary = (over: Partial<IndexSummary>): IndexSummary =>
    ({ filesIndexed: 0, filesRemoved: 0, annotationsReattached: 0, cancelled: false, ...over }) as IndexSummary;

  test('quiet only at start-up and only on an index that holds samples', () => {
    assert.equal(isQuietRecheck(true, 192), true);
    assert.equal(isQuietRecheck(true, 0), false);
    assert.equal(isQuietRecheck(false, 192), false);
  });

  test('it turns into an announced pass when it writes samples or reads every file again', () => {
    assert.equal(recheckFoundWork({ phase: 'scan', filesDone: 0, filesTotal: 0, samples: 0 }), false);
    assert.equal(recheckFoundWork({ phase: 'index', file: 'a.jsonl', filesDone: 1, filesTotal: 2, samples: 0 }), false);
    assert.equal(recheckFoundWork({ phase: 'index', file: 'a.jsonl', filesDone: 1, filesTotal: 2, samples: 8 }), true);
    assert.equal(
      recheckFoundWork({ phase: 'scan', filesDone: 0, filesTotal: 0, samples: 0, notice: 're-reading 2 files' }),
      true,
    );
  });

  test('a pass changed the views when it read, removed or moved something, or did not finish', () => {
    assert.equal(passChangedIndex(summary({}), 0), false);
    assert.equal(passChangedIndex(summary({ filesIndexed: 1 }), 0), true);
    assert.equal(passChangedIndex(summary({ filesRemoved: 1 }), 0), true);
    assert.equal(passChangedIndex(summary({ annotationsReattached: 2 }), 0), true);
    assert.equal(passChangedIndex(summary({}), 1), true);
    assert.equal(passChangedIndex(summary({ cancelled: true }), 0), true);
    assert.equal(passChangedIndex(undefined, 0), true);
  });

  test('FolderSession: a quiet re-check of an unchanged folder tells the views nothing; of a changed file, it says it indexes', async () => {
    const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
      '../../src/extension/session',
      { EventEmitter: Emitter },
    );
    const dir = tempDir('ti-restore-');
    writeFileSync(
      join(dir, 'base.jsonl'),
      `${rolloutLine(0, 'base-model', [true, false])}\n${rolloutLine(1, 'base-model', [false, false])}\n`,
    );
    writeFileSync(join(dir, 'rl.jsonl'), `${rolloutLine(0, 'rl-model', [true, true])}\n`);
    const state = new Map<string, unknown>();
    const storage = tempDir('ti-restore-storage-');
    const context = {
      storageUri: { fsPath: storage },
      globalStorageUri: { fsPath: storage },
      // dist/indexWorker.js of this checkout (npm run build)
      extensionUri: { fsPath: resolve(__dirname, '..', '..', '..') },
      workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
    };
    const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'restore' };
    const s = new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
    try {
      const first = await s.reindex();
      assert.equal(first?.samples, 6);
      let fired = 0;
      let indexingWhenFired = false;
      s.onDidChange(() => {
        fired++;
        indexingWhenFired ||= s.isIndexing;
      });
      // the folder as it was: nothing is read, nothing is said
      const progress: number[] = [];
      const pass = s.reindex(undefined, (p) => progress.push(p.samples), false, true);
      assert.equal(s.isIndexing, false, 'a quiet re-check does not count as indexing');
      const unchanged = await pass;
      assert.equal(unchanged?.filesIndexed, 0);
      assert.equal(unchanged?.filesSkipped, 2);
      assert.equal(fired, 0, 'no view is told anything');
      assert.ok(progress.length > 0, 'the progress messages still reach the caller');
      // one results file changed while the window was closed: the re-check reads it and says so
      appendFileSync(join(dir, 'rl.jsonl'), `${rolloutLine(1, 'rl-model', [true, false])}\n`);
      const changed = await s.reindex(undefined, undefined, false, true);
      assert.equal(changed?.filesIndexed, 1);
      assert.equal(changed?.samples, 8);
      assert.ok(fired >= 2, `the views are told it indexes and when it ends (fired ${fired})`);
      assert.equal(indexingWhenFired, true, 'the views see "Indexing" while the changed file is read');
      assert.equal(s.isIndexing, false);
    } finally {
      s.dispose();
    }
  });
});

describe('Extension: the pass at start-up on an indexed folder shows nothing', () => {
  test('no notification, no "Indexing" in the status bar, no tree refresh; the filter kept is restored and written', async () => {
    const { status, texts } = recordingStatusItem();
    const notifications: string[] = [];
    const folderUri = 'file:///data/mini';
    const { Extension: Ext } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
      status,
      progress: notifications,
      workspaceFolders: [{ uri: { toString: () => folderUri, fsPath: '/data/mini' }, name: 'mini' }],
      isTrusted: true,
    });
    const state = new Map<string, unknown>([
      [TREE_FILTER_KEY, JSON.parse(JSON.stringify({ folder: folderUri, filter: { kind: 'lost' } }))],
    ]);
    const ext = new Ext({
      workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
    });
    assert.deepEqual(ext.tree.filter, { kind: 'lost' }, 'the filter chosen before the reload');
    let treeRefreshes = 0;
    ext.tree.refresh = () => {
      treeRefreshes++;
    };
    const quietArgs: unknown[] = [];
    let report: ((p: unknown) => void) | undefined;
    let finish: (() => void) | undefined;
    const model = { id: 1, key: 'm', samples: 192 };
    const session = {
      folder: { name: 'mini' },
      isIndexing: false,
      // the full-text index complete (the search filter's line says nothing of it)
      searchIndex: () => ({ samples: 192, indexed: 192 }),
      searchIndexBuilding: false,
      indexSettingsCurrent: () => false,
      reindex: (_t: unknown, onProgress: (p: unknown) => void, _changed: boolean, quiet: boolean) => {
        quietArgs.push(quiet);
        report = onProgress;
        return new Promise((r) => {
          finish = () => r({ cancelled: false, diagnostics: [] });
        });
      },
      models: () => [model],
      baseModel: () => model,
      focusModel: () => model,
      focusPending: () => false,
      baseModelIsGuess: () => false,
      focusModelIsChoice: () => true,
      indexIncomplete: () => false,
      shortLabel: () => 'mini-model',
      index: { countProblems: () => 12 },
    };
    (ext as unknown as { active: () => unknown }).active = () => session;
    (ext.tree as unknown as { resolveFilter: (s: unknown) => TreeFilter }).resolveFilter = () => ({ kind: 'all' });
    const pass = ext.autoIndex(true);
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(quietArgs, [true], 'the session is asked for a quiet re-check');
    report!({ phase: 'index', file: 'a.jsonl', filesDone: 1, filesTotal: 2, samples: 0 });
    finish!();
    await pass;
    assert.deepEqual(notifications, [], 'no progress notification, no view progress bar');
    assert.deepEqual(
      texts.filter((t) => t.includes('Indexing')),
      [],
      `the status bar: ${JSON.stringify(texts)}`,
    );
    assert.equal(treeRefreshes, 0, 'the tree is not drawn again');
    // the line above the tree counts the restored filter's problems (it said "0 problems" before the tree
    // had rendered: the e2e restore test)
    assert.match(String((ext.view as unknown as { message?: string }).message), /^Lost vs base: 12 problems · /); // "vs base": the fixture's model name shows no RL (s9-names)
    // a later pass (Index Folder) is announced as before
    const second = ext.index('command');
    await new Promise((r) => setTimeout(r, 0));
    finish!();
    await second;
    assert.equal(notifications.length, 1);
    assert.deepEqual(quietArgs, [true, false]);
    // choosing a filter keeps it; "All problems" keeps none
    ext.setFilter({ kind: 'search', query: 'boxed' });
    assert.deepEqual(state.get(TREE_FILTER_KEY), { folder: folderUri, filter: { kind: 'search', query: 'boxed' } });
    ext.setFilter({ kind: 'all' });
    assert.equal(state.get(TREE_FILTER_KEY), undefined);
    ext.dispose();
  });
});
