/**
 * Smoke test of the end-to-end harness: packages the throwaway extension in
 * test/fixtures/e2e/smoke-extension into a VSIX, installs it into a fresh code-server, opens a folder in
 * Chromium and drives the real workbench: activity-bar container, tree view, command palette, editor
 * text, webview content, window reload. Screenshots go to test-output/e2e/screenshots/smoke-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  activeEditorText,
  activeEditorTitle,
  clickTreeRow,
  expandTreeRow,
  freshRunDir,
  hasViewContainer,
  openViewContainer,
  outputChannelLog,
  packageVsix,
  reloadWindow,
  showTreeView,
  repoRoot,
  runCommand,
  screenshot,
  startSession,
  treeRowDetails,
  treeRows,
  visibleEditorLines,
  waitForNotification,
  waitForTreeRow,
  waitForViewContainer,
  waitUntil,
  webviewFrame,
  type Session,
} from './harness';

const CONTAINER = 'E2E Smoke';
const VIEW = 'Smoke Items';

describe('e2e harness smoke (code-server + Chromium)', { timeout: 600_000 }, () => {
  let s: Session;
  let workspace: string;

  before(async () => {
    const buildDir = freshRunDir('smoke-build');
    const vsix = await packageVsix(
      path.join(repoRoot, 'test', 'fixtures', 'e2e', 'smoke-extension'),
      path.join(buildDir, 'e2e-smoke.vsix'),
    );
    workspace = path.join(buildDir, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'a file in the opened folder\n');
    s = await startSession({ name: 'smoke', vsix, folder: workspace });
    console.log(`[smoke] server ready in ${s.timings.serverMs} ms, workbench in ${s.timings.workbenchMs} ms`);
  });

  after(async () => {
    await s?.close();
  });

  test('the opened folder is shown in the Explorer', async () => {
    await openViewContainer(s.page, 'Explorer');
    const rows = await waitUntil(
      s.page,
      async () => {
        const r = await treeRows(s.page, 'workspace').catch((): string[] => []);
        return r.includes('notes.txt') ? r : undefined;
      },
      { what: "notes.txt in the Explorer's folder view" },
    );
    assert.deepEqual(rows, ['notes.txt']);
  });

  test('the extension contributes an activity-bar container whose tree shows rows', async () => {
    await waitForViewContainer(s.page, CONTAINER);
    assert.equal(await hasViewContainer(s.page, CONTAINER), true);
    await openViewContainer(s.page, CONTAINER);
    await waitForTreeRow(s.page, VIEW, 'beta');
    assert.deepEqual(await treeRows(s.page, VIEW), ['alpha', 'beta']);

    await expandTreeRow(s.page, VIEW, 'beta');
    await waitForTreeRow(s.page, VIEW, 'beta-child-2');
    assert.deepEqual(await treeRowDetails(s.page, VIEW), [
      { label: 'alpha', description: 'desc-alpha', level: 1, expanded: undefined, selected: false },
      { label: 'beta', description: 'desc-beta', level: 1, expanded: true, selected: false },
      { label: 'beta-child-1', description: 'desc-beta-child-1', level: 2, expanded: undefined, selected: false },
      { label: 'beta-child-2', description: 'desc-beta-child-2', level: 2, expanded: undefined, selected: false },
    ]);
    await clickTreeRow(s.page, VIEW, 'beta-child-1');
    await waitUntil(
      s.page,
      async () => {
        const selected = (await treeRowDetails(s.page, VIEW)).filter((r) => r.selected).map((r) => r.label);
        return selected.length === 1 && selected[0] === 'beta-child-1';
      },
      { what: "'beta-child-1' to be the only selected row" },
    );
    await screenshot(s.page, 'smoke-tree');
  });

  test('a command run from the palette opens a document and shows a notification', async () => {
    await runCommand(s.page, 'E2E Smoke: Say Hello');
    await waitForNotification(s.page, 'E2E smoke says hello');
    await waitUntil(s.page, async () => (await visibleEditorLines(s.page))[0] === 'Hello from e2e smoke', {
      what: 'the greeting document in the editor',
    });
    const visible = await visibleEditorLines(s.page);
    // Monaco renders only the lines in view: the 201-line document is not all in the DOM
    assert.ok(visible.length > 5 && visible.length < 201, `rendered ${visible.length} lines`);
    assert.equal(visible[1], 'line 1:  two  spaces');

    const text = await activeEditorText(s.page);
    const lines = text.split('\n');
    assert.equal(lines.length, 201);
    assert.equal(lines[0], 'Hello from e2e smoke');
    assert.equal(lines[200], 'line 200:  two  spaces');
    // an untitled document's tab is named after its first line
    assert.equal(await activeEditorTitle(s.page), 'Hello from e2e smoke');
    await screenshot(s.page, 'smoke-command');
  });

  test('a webview panel runs its nonce script and its content is readable', async () => {
    await runCommand(s.page, 'E2E Smoke: Open Webview');
    const frame = await webviewFrame(s.page, 'e2e-smoke');
    assert.equal(await frame.locator('#greeting').textContent(), 'Hello webview');
    await waitUntil(s.page, async () => (await frame.locator('#count').textContent()) === '42', {
      what: "the webview's script to write 42",
    });
    assert.equal(await activeEditorTitle(s.page), 'Smoke Webview');
    await screenshot(s.page, 'smoke-webview');
  });

  test('running an unknown command fails with a message naming it', async () => {
    await assert.rejects(runCommand(s.page, 'E2E Smoke: No Such Command', { timeoutMs: 2000 }), (e: Error) => {
      assert.match(
        e.message,
        /Timed out after 2000 ms waiting for the command 'E2E Smoke: No Such Command' in the command palette \(offered: [^)]*\)/,
      );
      assert.match(e.message, /Screenshot: .*\.png/);
      return true;
    });
    await s.page.keyboard.press('Escape');
  });

  test('after a window reload the container and tree come back', async () => {
    const t0 = Date.now();
    await reloadWindow(s.page);
    console.log(`[smoke] window reloaded in ${Date.now() - t0} ms`);
    await showTreeView(s.page, CONTAINER, VIEW);
    await waitForTreeRow(s.page, VIEW, 'alpha');
    assert.deepEqual((await treeRows(s.page, VIEW)).slice(0, 2), ['alpha', 'beta']);
    // the first extension host has stopped, so what its output channel wrote is on disk
    await waitUntil(s.page, async () => outputChannelLog(s.server, 'E2E Smoke') !== '', {
      what: 'the output channel log',
    });
    assert.equal(outputChannelLog(s.server, 'E2E Smoke'), 'said hello to 201 lines\n');
    await screenshot(s.page, 'smoke-after-reload');
  });
});
