/**
 * A multi-root workspace in a real VS Code (code-server) in Chromium: two results folders (copies of
 * rlvr-probe-gsm8k/results_2048_batched, 30 problems, and qwen25-math-eval-example, 100 problems).
 * The tree shows one folder at a time, says which above the tree, and Choose Results Folder… switches
 * it (indexing the folder the first time); a sample of the second folder opens in the preview; the
 * choice survives a window reload. Screenshots: test-output/e2e/screenshots/multi-root-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  answerQuickInput,
  defaultVsixPath,
  moveMouseAway,
  outputRoot,
  reloadWindow,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  viewPane,
  waitUntil,
  webviewWith,
  workspaceCopy,
  type Session,
} from './harness';
import { RLVR_PROBE } from './rlvrProbe';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const QWEN = path.resolve(RLVR_PROBE, '..', 'qwen25-math-eval-example');

describe('a multi-root workspace: one results folder at a time, switched with a picker', { timeout: 600_000 }, () => {
  let s: Session;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    const probe = workspaceCopy(path.join(RLVR_PROBE, 'results_2048_batched'), 'multi-root-probe');
    const qwen = workspaceCopy(QWEN, 'multi-root-qwen');
    const file = path.join(outputRoot, 'workspace', 'multi-root.code-workspace');
    fs.writeFileSync(file, JSON.stringify({ folders: [{ path: probe }, { path: qwen }] }, null, 2));
    s = await startSession({
      name: 'multi-root',
      vsix,
      workspaceFile: file,
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });
  after(async () => {
    await s?.close();
  });

  const problems = async () => (await treeRowDetails(s.page, VIEW)).filter((r) => r.level === 1).length;
  const message = () =>
    viewPane(s.page, VIEW)
      .locator('.message')
      .first()
      .innerText()
      .catch(() => '');

  test('the first folder is shown, and the line above the tree names it', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(s.page, async () => ((await problems()) === 30 ? true : undefined), {
        timeoutMs: 120_000,
        what: 'the 30 problems of the first folder',
      });
      await waitUntil(s.page, async () => ((await message()).startsWith('multi-root-probe: ') ? true : undefined), {
        what: 'the folder named above the tree',
      });
    } catch (e) {
      await s.fail(e, 'multi-root-1');
    }
  });

  test('Choose Results Folder… shows the other folder (indexed on first show); its samples open in the preview', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Choose Results Folder…');
      await answerQuickInput(s.page, { pick: 'multi-root-qwen' });
      await waitUntil(
        s.page,
        async () => ((await problems()) >= 30 && (await message()).startsWith('multi-root-qwen') ? true : undefined),
        {
          timeoutMs: 120_000,
          what: 'the second folder in the tree',
        },
      );
      const m = await message();
      assert.ok(!m.includes('ppo'), `the pair is the second folder's model: ${m}`);
      await runCommand(s.page, 'Trace Inspector: Next Sample');
      const frame = await webviewWith(s.page, '#preview-text[data-rendered]', {
        what: 'a sample of the second folder',
      });
      const source = await frame.$eval('#preview-fields', (e) => e.textContent ?? '');
      assert.ok(source.includes('math_cot_100.jsonl'), source);
      await moveMouseAway(s.page);
      await screenshot(s.page, 'multi-root-1-second-folder');
    } catch (e) {
      await s.fail(e, 'multi-root-2');
    }
  });

  test('the choice of folder survives a window reload', async () => {
    try {
      await reloadWindow(s.page);
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(s.page, async () => ((await message()).startsWith('multi-root-qwen') ? true : undefined), {
        timeoutMs: 90_000,
        what: 'the second folder still shown after the reload',
      });
    } catch (e) {
      await s.fail(e, 'multi-root-3');
    }
  });
});
