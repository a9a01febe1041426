/**
 * The problem view computes its data (SQL and pass@k per model) once per open: the early init posted at
 * panel creation carries it, and the init answering the webview's `ready` reuses it instead of computing
 * it again (src/extension/problemPanel.ts). The panel runs on a recording `vscode` stub with a fake
 * webview, over a real index.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import type { FolderSession } from '../../src/extension/session';
import type { HostMessage } from '../../src/shared/protocol';
import { rolloutLine, tempDir } from './helpers';
import { Emitter, fakePanel, loadWithStub, type PanelStubState, panelStub } from './vscodeStub';

/** The webview panel the stub's createWebviewPanel gives, and the commands registered (set per test). */
const current: PanelStubState = { commands: new Map() };
// loaded once: a module is cached with the stub it was first loaded with
const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
  '../../src/extension/session',
  { EventEmitter: Emitter },
);
const { registerPanels } = loadWithStub<{
  registerPanels: (c: unknown, g: () => FolderSession | undefined) => { dispose(): void }[];
}>('../../src/extension/problemPanel', panelStub(current));

async function openProblemView() {
  const dir = tempDir('ti-panel-init-');
  writeFileSync(join(dir, 'r.jsonl'), `${rolloutLine(0, 'm', [true, false])}\n${rolloutLine(1, 'm', [false])}\n`);
  const storage = tempDir('ti-panel-storage-');
  const state = new Map<string, unknown>();
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: storage },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const log: string[] = [];
  const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'r' };
  const s = new Session(folder, context, { appendLine: (l: string) => log.push(l) }, { clear() {}, set() {} });
  await indexFolder(s.index, dir);
  // the problem data is computed with the folder's annotations, read once per computation: count them
  let computed = 0;
  const annotations = s.annotations;
  Object.defineProperty(s, 'annotations', {
    get: () => {
      computed++;
      return annotations;
    },
  });
  const fake = fakePanel<HostMessage>();
  current.panel = fake.panel;
  current.commands = new Map();
  const disposables = registerPanels(context, () => s);
  const problemId = s.index.listProblems()[0].id;
  await current.commands.get('traceInspector.openProblemView')!({ problemId });
  await sleep(5); // the early init is posted on a timer of its own
  return {
    s,
    fake,
    problemId,
    log,
    computed: () => computed,
    close: () => {
      for (const d of disposables) d.dispose();
      s.index.close();
    },
  };
}

const inits = (posted: HostMessage[]) =>
  posted.filter((m) => m.kind === 'init') as Extract<HostMessage, { kind: 'init' }>[];

/** The init written into the page (src/extension/panelHtml.ts `initMessage`: a JSON data block). */
function pageInit(html: string): Extract<HostMessage, { kind: 'init' }> | undefined {
  const m = /<script type="application\/json" id="ti-init">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]) : undefined;
}

describe('problem view: its data computed once per open', () => {
  test('the page is written with the init and its data; the init answering ready reuses it: one computation', async () => {
    const v = await openProblemView();
    assert.equal(inits(v.fake.posted).length, 0, 'nothing posted: the init is in the page');
    const written = pageInit(v.fake.panel.webview.html);
    assert.equal(written?.kind, 'init');
    assert.equal(v.computed(), 1);
    const early = written?.prefetched;
    assert.equal(early?.request, 'getProblem');
    assert.ok(early?.request === 'getProblem');
    assert.equal(early.problemId, v.problemId);
    assert.equal(early.result.problem.id, v.problemId);
    v.fake.send({ id: 1, kind: 'ready', view: 'problem' });
    await sleep(1);
    const all = inits(v.fake.posted);
    assert.equal(all.length, 1);
    assert.equal(v.computed(), 1, 'ready did not compute the problem data again');
    assert.deepEqual(all[0].prefetched, early, 'the same data');
    // a reloaded page (retainContextWhenHidden is off) says ready again: its data is read anew
    v.fake.send({ id: 2, kind: 'ready', view: 'problem' });
    await sleep(1);
    assert.equal(v.computed(), 2);
    assert.deepEqual(inits(v.fake.posted)[1].prefetched, early);
    v.close();
  });

  test('the index changed between the early init and ready: the data is computed again', async () => {
    const v = await openProblemView();
    v.s.fireChanged();
    await sleep(1);
    assert.ok(v.fake.posted.some((m) => m.kind === 'changed'));
    v.fake.send({ id: 1, kind: 'ready', view: 'problem' });
    await sleep(1);
    assert.equal(v.computed(), 2);
    v.close();
  });

  test('a failed prefetch is logged to the output channel (the webview’s request then reports it)', async () => {
    const v = await openProblemView();
    // the problem leaves the index (as a re-index that drops its file would) before the page is ready
    v.s.index.db.exec('DELETE FROM stats; DELETE FROM samples; DELETE FROM problems');
    v.s.fireChanged();
    v.fake.send({ id: 1, kind: 'ready', view: 'problem' });
    await sleep(1);
    assert.equal(inits(v.fake.posted)[0].prefetched, undefined, 'no stale data: computed again, and failed');
    assert.ok(
      v.log.some((l) =>
        /^\[problem view\] problem \d+: data not sent with the init: Problem \d+ is not in the index/.test(l),
      ),
      v.log.join('\n'),
    );
    v.close();
  });
});
