/**
 * After a pass has read every file, the indexing worker runs the grader audit (seconds on a large folder) before the
 * pass ends. The views say so (issue 31: "Indexing done" in the status bar and the notification, still with its
 * Cancel, while the worker kept a core busy for 34 s, and the tree said "Indexing: figures so far"):
 * the Extension (on the `vscode` stub): the notification ends when every file is read, the status bar says
 * "Indexed · grader audit…", never "done". The session's side: session-after-pass.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Extension } from '../../src/extension/extension';
import { loadExtension, recordingStatusItem } from './vscodeStub';

test('the notification (and its Cancel) ends when every file is read; the status bar then says what still runs, never "done"', async () => {
  const { status: status2, texts: texts2 } = recordingStatusItem();
  const shown: string[] = [];
  const ended: string[] = [];
  const { Extension: Ext2 } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
    status: status2,
    progress: shown,
    progressEnded: ended,
  });
  const ext = new Ext2({ workspaceState: { get: () => undefined } });
  let state: 'reading' | 'after' | 'idle' = 'idle';
  let reported: ((p: unknown) => void) | undefined;
  let finish: (() => void) | undefined;
  const session = {
    folder: { name: 'p50k' },
    get isIndexing() {
      return state === 'reading';
    },
    get passRunning() {
      return state !== 'idle';
    },
    get afterPassWork() {
      return state === 'after' ? 'grader audit' : undefined;
    },
    indexSettingsCurrent: () => state !== 'idle',
    reindex: (_token: unknown, onProgress?: (p: unknown) => void) => {
      state = 'reading';
      reported = onProgress;
      ext.onSessionChanged();
      return new Promise((resolve) => {
        finish = () => {
          state = 'idle';
          ext.onSessionChanged();
          resolve({ cancelled: false, diagnostics: [] });
        };
      });
    },
    models: () => [],
    baseModel: () => undefined,
    focusModel: () => undefined,
    focusPending: () => false,
    baseModelIsGuess: () => true,
    focusModelIsChoice: () => false,
    indexIncomplete: () => state === 'reading',
    index: { countProblems: () => 0 },
  };
  (ext as unknown as { active: () => unknown }).active = () => session;
  const pass = ext.index('command');
  reported!({ phase: 'index', filesDone: 2, filesTotal: 2, samples: 400_000 });
  assert.equal(status2.text, '$(sync~spin) Indexing 2/2 files, 400,000 samples');
  // the worker: every file read (the indexer's last progress), then its grader audit starts
  reported!({ phase: 'done', filesDone: 2, filesTotal: 2, samples: 400_000 });
  state = 'after';
  ext.onSessionChanged();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(ended, ['Trace Inspector: indexing p50k'], 'the notification closed: nothing is left to cancel');
  assert.equal(status2.text, '$(sync~spin) Indexed · grader audit…');
  assert.ok(!texts2.some((t) => /done/.test(t)), `never "done" while work runs: ${JSON.stringify(texts2)}`);
  let passEnded = false;
  void pass.then(() => {
    passEnded = true;
  });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(passEnded, false, 'the pass itself runs on');
  finish!();
  await pass;
  assert.equal(status2.text, '$(beaker) no models');
  ext.dispose();
});
