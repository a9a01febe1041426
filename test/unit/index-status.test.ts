/**
 * The status bar says "Indexing" for the whole of a pass (src/extension/extension.ts `index`). It used to
 * show the pair ("no models") from the moment the pass was asked for until the worker's first progress
 * message: the refresh at the start of a pass ran before the session counted as indexing and overwrote
 * "Indexing…". rewardModels.e2e waits for problem rows and for a status bar without "Indexing": the
 * tree's "Indexing…" row and that status bar satisfied it at the start of the first pass, and the overview
 * was opened on a half-built index (6, 10, 17 of the 22 scorers in CI), which looked like a second pass.
 * The real Extension on a `vscode` stub whose status bar item records its texts; the folder session is a
 * stand-in whose pass ends when the test says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Extension } from '../../src/extension/extension';
import { loadExtension, passStandIn, recordingStatusItem } from './vscodeStub';

const { status, texts } = recordingStatusItem();
const progressNotifications: string[] = [];
const { Extension: Ext } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
  status,
  progress: progressNotifications,
});

test('the status bar says Indexing from the start of a pass to its end, then the pair', async () => {
  const ext = new Ext({ workspaceState: { get: () => undefined } });
  // as FolderSession.reindex: marks the pass as running and fires its change event at once (the tree
  // shows "Indexing…"); the worker's first progress message comes later
  const pass0 = passStandIn(ext, 'rewardmath-22-scorers');
  const { session } = pass0;
  (ext as unknown as { active: () => unknown }).active = () => session;
  const pass = ext.index('auto');
  // before the worker said anything
  assert.match(status.text, /Indexing/, `the status bar at the start of the pass: ${JSON.stringify(texts)}`);
  pass0.report({ phase: 'index', filesDone: 2, filesTotal: 24, samples: 2000 });
  assert.equal(status.text, '$(sync~spin) Indexing 2/24 files, 2,000 samples');
  // a refresh while the pass runs (a committed batch shown) keeps it
  ext.onSessionChanged();
  assert.match(status.text, /Indexing 2\/24 files/);
  // a second request during the pass (Index Folder, a settings event) joins it: no second notification
  const second = ext.index('command');
  assert.equal(progressNotifications.length, 1);
  pass0.finish();
  await pass;
  await second;
  assert.equal(pass0.passes, 1);
  assert.equal(status.text, '$(beaker) no models');
  const firstPair = texts.findIndex((t) => !t.includes('Indexing'));
  assert.equal(firstPair, texts.length - 1, `no pair shown while indexing: ${JSON.stringify(texts)}`);
  ext.dispose();
});
