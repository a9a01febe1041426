/**
 * After a window reload, a restored problem view or sample preview renders from the data its tab was last sent
 * (src/extension/restoreCache.ts) when the folder's index is not ready, and from the index when it is
 * (src/extension/problemPanel.ts `writeRestoredPage`): the page is written with that data in it, marked
 * `cachedAt` when it came from the cache; requests for it are answered from the cache until the session comes;
 * then the tab is told, and the index answers. The panel runs on a recording `vscode` stub with a fake webview,
 * over a real index.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import type { FolderSession } from '../../src/extension/session';
import {
  RESTORE_CACHE_MAX_BYTES,
  RESTORE_CACHE_MAX_ENTRIES,
  RestoreCache,
  restoreKey,
} from '../../src/extension/restoreCache';
import type { HostMessage, PanelState, ProblemData, SamplePreview } from '../../src/shared/protocol';
import { rolloutLine, tempDir } from './helpers';
import { Emitter, fakePanel, loadWithStub, type PanelStubState, panelStub } from './vscodeStub';

const current: PanelStubState = { commands: new Map(), serializers: new Map() };
const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
  '../../src/extension/session',
  { EventEmitter: Emitter },
);
const { registerPanels } = loadWithStub<{
  registerPanels: (c: unknown, g: () => FolderSession | undefined) => { dispose(): void }[];
}>('../../src/extension/problemPanel', panelStub(current));

type Init = Extract<HostMessage, { kind: 'init' }>;

/** Waits until `cond()` holds, checking every 5 ms, at most `ms` (then the assertions after it say what is missing). */
async function until(cond: () => boolean, ms = 3000): Promise<void> {
  for (const t0 = Date.now(); !cond() && Date.now() - t0 < ms; ) await sleep(5);
}
/** The init written into the page (src/extension/panelHtml.ts `initMessage`: a JSON data block). */
function pageInit(html: string): Init | undefined {
  const m = /<script type="application\/json" id="ti-init">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]) : undefined;
}

describe('restore cache: the file kept per tab', () => {
  test('keys: a problem view by its problem key, a preview by its sample keys; none without them', () => {
    const folder = 'file:///r';
    assert.equal(restoreKey({ view: 'problem', folder, problemKey: 'd\x1f1' }), 'problem\x1ffile:///r\x1fd\x1f1');
    assert.equal(
      restoreKey({ view: 'preview', folder, problemKey: 'd\x1f1', modelKey: 'm', sampleIndex: 3 }),
      'preview\x1ffile:///r\x1fd\x1f1\x1fm\x1f3',
    );
    assert.equal(restoreKey({ view: 'overview', folder }), undefined);
    assert.equal(restoreKey({ view: 'problem', folder, problemId: 4 }), undefined);
    assert.equal(restoreKey({ view: 'preview', problemKey: 'd\x1f1', modelKey: 'm', sampleIndex: 3 }), undefined);
  });

  test('a put is read back (before and after it is written), the newest entries kept, none over the size limit', async () => {
    const dir = tempDir('ti-restore-cache-');
    const cache = new RestoreCache(dir);
    cache.put('a', { n: 1 });
    assert.deepEqual(cache.get('a')?.data, { n: 1 }, 'a put not written yet is read back');
    cache.put('a', { n: 2 });
    cache.flush();
    assert.equal(readdirSync(dir).length, 1, 'the second put of a key replaced the first');
    assert.deepEqual(new RestoreCache(dir).get('a')?.data, { n: 2 }, 'read back from its file by another instance');
    assert.equal(new RestoreCache(dir).get('b'), undefined);
    for (let i = 0; i < RESTORE_CACHE_MAX_ENTRIES + 2; i++) {
      cache.put(`k${i}`, { i });
      cache.flush();
      await sleep(3); // distinct modification times
    }
    const again = new RestoreCache(dir);
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json')).length, RESTORE_CACHE_MAX_ENTRIES);
    assert.equal(again.get('a'), undefined, 'the oldest entries removed');
    assert.deepEqual(again.get(`k${RESTORE_CACHE_MAX_ENTRIES + 1}`)?.data, { i: RESTORE_CACHE_MAX_ENTRIES + 1 });
    cache.put('big', { text: 'x'.repeat(RESTORE_CACHE_MAX_BYTES) });
    cache.flush();
    assert.equal(new RestoreCache(dir).get('big'), undefined, 'data over the size limit is not kept');
    assert.equal(new RestoreCache(undefined).get('a'), undefined, 'no folder: nothing kept');
  });

  test('a file of another key (hash collision) or unreadable JSON is not taken', () => {
    const dir = tempDir('ti-restore-cache-');
    const cache = new RestoreCache(dir);
    cache.put('a', { n: 1 });
    cache.flush();
    const [file] = readdirSync(dir);
    const e = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    writeFileSync(join(dir, file), JSON.stringify({ ...e, key: 'b' }));
    assert.equal(new RestoreCache(dir).get('a'), undefined);
    writeFileSync(join(dir, file), '{');
    assert.equal(new RestoreCache(dir).get('a'), undefined);
  });
});

describe('restored tabs: from the index when it is ready, else from the restore cache', () => {
  test('a preview and a problem view restored with no session show the data kept; the index confirms it when the session comes', async () => {
    const dir = tempDir('ti-restore-');
    writeFileSync(
      join(dir, 'r.jsonl'),
      `${rolloutLine(0, 'm', [true, false], (q, i) => `# Sample ${q}.${i}\n\n$x^2$ and <script>alert(1)</script>`)}\n${rolloutLine(1, 'm', [false])}\n`,
    );
    const storage = tempDir('ti-restore-storage-');
    const wsState = new Map<string, unknown>();
    const context = {
      storageUri: { fsPath: storage },
      globalStorageUri: { fsPath: storage },
      extensionUri: { fsPath: storage },
      workspaceState: {
        get: (k: string) => wsState.get(k),
        update: async (k: string, v: unknown) => wsState.set(k, v),
      },
      globalState: { get: () => undefined, update: async () => undefined },
    };
    const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'r' };
    const s = new Session(folder, context, { appendLine() {} }, { clear() {}, set() {} });
    await indexFolder(s.index, dir);
    const problem = s.index.listProblems()[0];
    const sampleId = s.index.samples(problem.id, s.index.models()[0].id, { limit: 10 })[1].id;
    const ref = s.annotations.refOf(sampleId)!;
    const previewState: PanelState = {
      view: 'preview',
      folder: `file://${dir}`,
      sampleId,
      problemKey: ref.problemKey,
      modelKey: ref.modelKey,
      sampleIndex: ref.sampleIndex,
    };
    const problemState: PanelState = {
      view: 'problem',
      folder: `file://${dir}`,
      problemId: problem.id,
      problemKey: problem.key,
    };
    /** A window (re)load: the panels registered anew, the tabs restored by their serializers. */
    const reload = async (session: () => FolderSession | undefined) => {
      current.serializers = new Map();
      const disposables = registerPanels(context, session);
      const restore = async (type: string, state: PanelState) => {
        const fake = fakePanel<HostMessage>();
        await current.serializers!.get(type)!.deserializeWebviewPanel(fake.panel, state);
        await until(() => fake.panel.webview.html !== ''); // the page is written once the data is read
        return { fake, init: pageInit(fake.panel.webview.html), html: fake.panel.webview.html };
      };
      return {
        preview: await restore('traceInspector.samplePreview', previewState),
        problem: await restore('traceInspector.problemView', problemState),
        dispose: () => {
          for (const d of disposables) d.dispose();
        },
      };
    };

    // first window: the index ready; the tabs' pages come with their data from it, which is kept
    const first = await reload(() => s);
    const fresh = first.preview.init?.prefetched;
    assert.equal(fresh?.request, 'getSamplePreview');
    assert.ok(fresh?.request === 'getSamplePreview');
    assert.equal(fresh.result.cachedAt, undefined, 'from the index');
    assert.equal(fresh.result.text, '# Sample 0.1\n\n$x^2$ and <script>alert(1)</script>');
    assert.match(first.preview.html, /data-activated-at="\d+"/, 'a restored page says when the extension activated');
    const freshProblem = first.problem.init?.prefetched;
    assert.ok(freshProblem?.request === 'getProblem');
    assert.equal(freshProblem.result.problem.problemId, '0');
    first.dispose(); // writes the kept data

    // second window: no session yet (the index not ready): the same data, from the cache, marked
    let session: FolderSession | undefined;
    const second = await reload(() => session);
    const cached = second.preview.init?.prefetched;
    assert.ok(cached?.request === 'getSamplePreview', 'the preview page is written with data');
    assert.equal(cached.sampleId, sampleId);
    assert.equal(typeof cached.result.cachedAt, 'number', 'marked as kept from before the reload');
    assert.equal(cached.result.text, fresh.result.text);
    const cachedProblem = second.problem.init?.prefetched;
    assert.ok(cachedProblem?.request === 'getProblem', 'the problem view page is written with data');
    assert.equal(typeof cachedProblem.result.cachedAt, 'number');
    assert.deepEqual({ ...cachedProblem.result, cachedAt: undefined }, { ...freshProblem.result, cachedAt: undefined });
    // the tabs named as the kept data names them (the index cannot yet)
    assert.equal(second.preview.fake.panel.title, first.preview.fake.panel.title);
    assert.equal(second.problem.fake.panel.title, 'Problem 0 — Trace Inspector');
    // the page asks again while the index is not ready: the kept data again, nothing else
    second.preview.fake.send({ id: 7, kind: 'getSamplePreview', sampleId });
    second.problem.fake.send({ id: 8, kind: 'getSamples', problemId: problem.id, modelId: 1, offset: 0, limit: 10 });
    const replyTo = (posted: HostMessage[], id: number) =>
      posted.find((m) => (m.kind === 'reply' || m.kind === 'error') && m.replyTo === id);
    await until(() => !!replyTo(second.preview.fake.posted, 7) && !!replyTo(second.problem.fake.posted, 8));
    const again = replyTo(second.preview.fake.posted, 7);
    assert.ok(again?.kind === 'reply');
    assert.equal(typeof (again.result as SamplePreview).cachedAt, 'number');
    assert.equal(replyTo(second.problem.fake.posted, 8)?.kind, 'error', 'nothing but its own data from the cache');
    // the session comes: the tabs are told (within the 1 s poll), and the index answers, not the cache
    session = s;
    const told = (posted: HostMessage[]) => posted.some((m) => m.kind === 'changed' || m.kind === 'init');
    await until(() => told(second.preview.fake.posted) && told(second.problem.fake.posted), 5000);
    assert.ok(second.preview.fake.posted.some((m) => m.kind === 'changed' || m.kind === 'init'));
    assert.ok(second.problem.fake.posted.some((m) => m.kind === 'changed' || m.kind === 'init'));
    second.preview.fake.send({ id: 9, kind: 'getSamplePreview', sampleId });
    second.problem.fake.send({ id: 10, kind: 'getProblem', problemId: problem.id });
    await until(() => !!replyTo(second.preview.fake.posted, 9) && !!replyTo(second.problem.fake.posted, 10));
    const checked = replyTo(second.preview.fake.posted, 9);
    assert.ok(checked?.kind === 'reply');
    assert.equal((checked.result as SamplePreview).cachedAt, undefined, 'from the index once it is ready');
    const checkedProblem = replyTo(second.problem.fake.posted, 10);
    assert.ok(checkedProblem?.kind === 'reply');
    assert.equal((checkedProblem.result as ProblemData).cachedAt, undefined);
    second.dispose();
    s.index.close();
  });
});
