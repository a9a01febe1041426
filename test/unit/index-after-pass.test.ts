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
import { loadExtension, passStandIn, recordingStatusItem } from './vscodeStub';

test('the notification (and its Cancel) ends when every file is read; the status bar then says what still runs, never "done"', async () => {
  const { status, texts } = recordingStatusItem();
  const shown: string[] = [];
  const ended: string[] = [];
  const { Extension: Ext } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
    status: status,
    progress: shown,
    progressEnded: ended,
  });
  const ext = new Ext({ workspaceState: { get: () => undefined } });
  const pass0 = passStandIn(ext, 'p50k');
  const { session } = pass0;
  (ext as unknown as { active: () => unknown }).active = () => session;
  const pass = ext.index('command');
  pass0.report({ phase: 'index', filesDone: 2, filesTotal: 2, samples: 400_000 });
  assert.equal(status.text, '$(sync~spin) Indexing 2/2 files, 400,000 samples');
  // the worker: every file read (the indexer's last progress), then its grader audit starts
  pass0.report({ phase: 'done', filesDone: 2, filesTotal: 2, samples: 400_000 });
  pass0.afterPass();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(ended, ['Trace Inspector: indexing p50k'], 'the notification closed: nothing is left to cancel');
  assert.equal(status.text, '$(sync~spin) Indexed · grader audit…');
  assert.ok(!texts.some((t) => /done/.test(t)), `never "done" while work runs: ${JSON.stringify(texts)}`);
  let passEnded = false;
  void pass.then(() => {
    passEnded = true;
  });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(passEnded, false, 'the pass itself runs on');
  pass0.finish();
  await pass;
  assert.equal(status.text, '$(beaker) no models');
  ext.dispose();
});
