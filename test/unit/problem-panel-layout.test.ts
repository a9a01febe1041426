/**
 * A new problem view's first pass@k chart is drawn by the host at the chart layout a page of the same editor
 * group reported (trial 15 finding 1: one layout for every group drew a view opened in a narrow split at the
 * wide group's width), else at the last one reported anywhere, else 600 px; the layouts outlive the window
 * (globalState). The panel runs on a recording `vscode` stub with a fake webview, over a real index, with the
 * compiler and renderer bundles scripts/build.mjs builds.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as path from 'node:path';
import { join } from 'node:path';
import type * as esbuild from 'esbuild';
import { indexFolder } from '../../src/core/index/indexer';
import type { FolderSession } from '../../src/extension/session';
import type { ChartCompiler } from '../../src/extension/chartCompiler';
import type { HostMessage } from '../../src/shared/protocol';
import { GLYPH_COUNT } from '../../src/shared/glyphWidths';
import { rolloutLine, tempDir } from './helpers';
import { Emitter, fakePanel, loadWithStub, type PanelStubState, panelStub } from './vscodeStub';

const root = path.resolve(__dirname, '..', '..', '..');
const current: PanelStubState = { commands: new Map() };
const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
  '../../src/extension/session',
  { EventEmitter: Emitter },
);
const { registerPanels } = loadWithStub<{
  registerPanels: (c: unknown, g: () => FolderSession | undefined) => { dispose(): void; charts?: ChartCompiler }[];
}>('../../src/extension/problemPanel', panelStub(current));

/** The init written into the page (a JSON data block). */
function pageInit(html: string): Extract<HostMessage, { kind: 'init' }> | undefined {
  const m = /<script type="application\/json" id="ti-init">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]) : undefined;
}

const glyphs = { normal: new Array(GLYPH_COUNT).fill(50), bold: new Array(GLYPH_COUNT).fill(55) };

describe('problem view: the first drawing at the layout of its editor group', { timeout: 120_000 }, () => {
  let extension: string;

  before(async () => {
    // the extension's folder with the two host bundles, as scripts/build.mjs builds them
    extension = tempDir('ti-panel-layout-ext-');
    mkdirSync(join(extension, 'dist'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { builds } = require(path.join(root, 'scripts', 'build.mjs')) as {
      builds: (esbuild.BuildOptions & { outfile: string })[];
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const build = (require('esbuild') as typeof esbuild).build;
    for (const bundle of ['vegaLiteCompiler.js', 'vegaRenderer.js']) {
      const options = builds.find((b) => b.outfile === `dist/${bundle}`);
      assert.ok(options);
      await build({ ...options, absWorkingDir: root, outfile: join(extension, 'dist', bundle), sourcemap: false });
    }
  });

  test('per group, else the last reported, else 600 px; kept across a new window', async () => {
    const dir = tempDir('ti-panel-layout-');
    // one problem per open: a problem's view already open is revealed, not opened again
    writeFileSync(
      join(dir, 'r.jsonl'),
      `${[0, 1, 2, 3, 4, 5, 6].map((q) => rolloutLine(q, 'm', [true, false])).join('\n')}\n`,
    );
    const storage = tempDir('ti-panel-layout-storage-');
    const state = new Map<string, unknown>();
    const globalState = new Map<string, unknown>();
    const context = {
      storageUri: { fsPath: storage },
      globalStorageUri: { fsPath: storage },
      extensionUri: { fsPath: extension },
      workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
      globalState: {
        get: (k: string) => globalState.get(k),
        update: async (k: string, v: unknown) => globalState.set(k, JSON.parse(JSON.stringify(v))),
      },
    };
    const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'r' };
    const s = new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
    await indexFolder(s.index, dir);
    const [p0, p1, p2, p3, p4, p5, p6] = s.index.listProblems().map((p) => p.id);
    const window = async () => {
      current.commands = new Map();
      const disposables = registerPanels(context, () => s);
      await (disposables[0] as unknown as { charts: ChartCompiler }).charts.warm();
      return disposables;
    };
    /** Opens problem `problemId` in editor group `column`; the width of its first drawing, and its panel. */
    const open = async (problemId: number, column: number) => {
      const fake = fakePanel<HostMessage>();
      fake.panel.viewColumn = column;
      current.panel = fake.panel;
      await current.commands.get('traceInspector.openProblemView')!({ problemId });
      await sleep(20); // the page is written on a timer of its own, after the drawing
      const prefetched = pageInit(fake.panel.webview.html)?.prefetched;
      const svg = (prefetched?.request === 'getProblem' && prefetched.result.charts?.passk.svg) || '';
      return { width: Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]), fake };
    };
    let disposables = await window();
    // nothing reported yet: 600 px
    const first = await open(p0, 1);
    assert.equal(first.width, 600);
    // the view in group 1 reports 900 px; a view in group 2 (none there yet) gets the last one: 900 px
    first.fake.send({ id: 1, kind: 'chartLayout', layout: { width: 900, glyphs } });
    const second = await open(p1, 2);
    assert.equal(second.width, 900);
    // group 2's view reports 340 px: group 2 draws at 340, group 1 still at 900
    second.fake.send({ id: 1, kind: 'chartLayout', layout: { width: 340, glyphs } });
    assert.equal((await open(p2, 2)).width, 340);
    assert.equal((await open(p3, 1)).width, 900);
    for (const d of disposables) d.dispose();
    // a new window: the layouts are read back
    disposables = await window();
    assert.equal((await open(p4, 2)).width, 340);
    assert.equal((await open(p5, 1)).width, 900);
    assert.equal((await open(p6, 3)).width, 340, 'a group never reported: the last layout reported anywhere');
    for (const d of disposables) d.dispose();
    s.index.close();
  });
});
