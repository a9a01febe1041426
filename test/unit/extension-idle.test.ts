/**
 * The extension's idle signal (src/extension/extension.ts `onIdle`), on which the problem panels warm the
 * similarity worker (issue 14): it fires only while the Problems tree is visible, the folder it shows has
 * samples and no indexing pass runs, a short delay after that became true; never during a pass (the
 * warm-up must not slow indexing or the tree's first paint). The real Extension on a `vscode` stub.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Extension } from '../../src/extension/extension';
import { Emitter, loadExtension } from './vscodeStub';

const disposable = { dispose() {} };
const visibility = new Emitter<unknown>();
const view = {
  visible: false,
  onDidChangeSelection: () => disposable,
  onDidChangeVisibility: visibility.event,
  selection: [],
  dispose() {},
};
const { Extension: Ext } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
  treeView: view,
  extra: { EventEmitter: Emitter },
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('onIdle fires after the tree is shown with samples indexed and no pass running, never during a pass', async () => {
  const ext = new Ext({ workspaceState: { get: () => undefined } });
  let fired = 0;
  ext.onIdle(() => fired++);
  let indexing = false;
  let samples = 0;
  let finish: (() => void) | undefined;
  const models = () => (samples ? [{ id: 1, samples, displayId: 'm', label: 'm' }] : []);
  const session = {
    folder: { name: 'f' },
    get isIndexing() {
      return indexing;
    },
    get passRunning() {
      return indexing;
    },
    indexSettingsCurrent: () => indexing,
    reindex: () => {
      indexing = true;
      ext.onSessionChanged();
      return new Promise((resolve) => {
        finish = () => {
          indexing = false;
          samples = 2048;
          ext.onSessionChanged();
          resolve({ cancelled: false, diagnostics: [] });
        };
      });
    },
    models,
    baseModel: () => undefined,
    focusModel: () => undefined,
    focusPending: () => false,
    baseModelIsGuess: () => false, // no pair notice (announcePair)
    focusModelIsChoice: () => false,
    indexIncomplete: () => false,
    shortLabel: () => 'm',
    index: { countProblems: () => 0, models },
  };
  (ext as unknown as { active: () => unknown }).active = () => session;
  try {
    // the tree hidden: nothing, even with samples
    samples = 1024;
    ext.onSessionChanged();
    await wait(450);
    assert.equal(fired, 0, 'not while the tree is hidden');
    // a pass starts while the tree is shown: nothing until it ends
    // (a re-index of an indexed folder: samples there all along)
    view.visible = true;
    const pass = ext.index('auto');
    visibility.fire({ visible: true });
    ext.onSessionChanged(); // a committed batch shown during the pass
    await wait(450);
    assert.equal(fired, 0, 'not during an indexing pass');
    finish!();
    await pass;
    assert.equal(fired, 0, 'not at once: after a delay');
    await wait(450);
    assert.equal(fired, 1, 'once after the pass ended');
    // the tree hidden and shown again: once more (a worker ended meanwhile is warmed again; the runner
    // skips a worker it warmed already)
    view.visible = false;
    visibility.fire({ visible: false });
    view.visible = true;
    visibility.fire({ visible: true });
    await wait(450);
    assert.equal(fired, 2);
    // a pass started within the delay cancels that firing
    view.visible = false;
    visibility.fire({ visible: false });
    view.visible = true;
    visibility.fire({ visible: true });
    const second = ext.index('auto');
    await wait(450);
    assert.equal(fired, 2, 'the conditions are checked again when the delay ends');
    finish!();
    await second;
    await wait(450);
    assert.equal(fired, 3);
  } finally {
    ext.dispose();
  }
});
