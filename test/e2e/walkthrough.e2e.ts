/**
 * Issue 15 end to end, in a real VS Code (code-server) in Chromium, starting from an empty window as a
 * new user would: the Get Started walkthrough "Inspect reasoning traces" opens, its first step's button
 * opens the example results folder shipped in the VSIX (a copy in the extension's global storage), the
 * Problems tree lists the example's problems (1,280 samples), and the last step's "Run Report in Terminal"
 * prints the report of that folder in a terminal (the CLI run by the extension host's own runtime).
 * Screenshots: test-output/e2e/screenshots/walkthrough-*.png (walkthrough-4-report-panel.png is the
 * walkthrough's own image of that step, media/walkthrough/report.png).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  answerQuickInput,
  defaultVsixPath,
  runCommand,
  screenshot,
  screenshotDir,
  showTreeView,
  startSession,
  treeRowDetails,
  waitForWorkbench,
  waitUntil,
  type Session,
} from './harness';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
/** Samples of the bundled example (examples/demo-results: 2 models x 40 problems x 16 samples). */
const EXAMPLE_SAMPLES = '1,280';

describe('the Get Started walkthrough in a real VS Code', { timeout: 900_000 }, () => {
  let s: Session;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({
      name: 'walkthrough',
      vsix,
      settings: {
        'workbench.colorTheme': 'Default Dark Modern',
        // the DOM renderer: the terminal's text is in the page, so the test can read the report
        'terminal.integrated.gpuAcceleration': 'off',
      },
    });
  });

  after(async () => {
    await s?.close();
  });

  test("the walkthrough opens and its first step's button opens the example folder", async () => {
    try {
      await runCommand(s.page, 'Welcome: Open Walkthrough...');
      await answerQuickInput(s.page, { pick: 'Inspect reasoning traces' });
      const button = s.page.locator('.gettingStartedContainer').getByText('Open Example Results Folder').first();
      await button.waitFor({ state: 'visible', timeout: 60_000 });
      for (const step of [
        'Open a results folder',
        'Read the Problems tree',
        'Open a problem view',
        'Annotate a sample',
        'Run the report from the terminal',
      ]) {
        assert.ok(
          await s.page.locator('.gettingStartedContainer').getByText(step, { exact: true }).first().isVisible(),
          `walkthrough step "${step}"`,
        );
      }
      // the step's image is shipped in the VSIX and loads
      const img = s.page.locator('.gettingStartedContainer .getting-started-media img').first();
      await waitUntil(
        s.page,
        async () =>
          (await img.evaluate((e: { naturalWidth: number }) => e.naturalWidth).catch(() => 0)) > 0 ? true : undefined,
        { timeoutMs: 30_000, what: "the first step's image" },
      );
      await screenshot(s.page, 'walkthrough-1-first-step');

      await button.click();
      // vscode.openFolder loads the workbench again, on the copied example folder
      await s.page.waitForURL(/folder=.*demo-results/, { timeout: 120_000 });
      await waitForWorkbench(s.page);
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        // the status bar shows the pair compared; its accessible label also says how many samples are indexed
        async () =>
          (await s.page.locator(`.part.statusbar [aria-label*="${EXAMPLE_SAMPLES} samples"]`).count()) > 0
            ? true
            : undefined,
        { timeoutMs: 300_000, what: `the example indexed (${EXAMPLE_SAMPLES} samples in the status bar's label)` },
      );
      // the first problems, each with both models' c/16
      await waitUntil(
        s.page,
        async () => {
          const top = (await treeRowDetails(s.page, VIEW)).filter((r) => r.level === 1).slice(0, 3);
          return top.map((r) => r.label).join() === '0,1,2' &&
            top.every((r) => /base \d+\/16 · model \d+\/16/.test(r.description))
            ? true
            : undefined;
        },
        { timeoutMs: 60_000, what: 'problems 0, 1, 2 with base c/16 and model c/16' },
      );
      await screenshot(s.page, 'walkthrough-2-example-folder');
    } catch (e) {
      await s.fail(e, 'walkthrough-1');
    }
  });

  test("the last step's Run Report in Terminal prints the example's report", async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Run Report in Terminal');
      const terminal = s.page.locator('.part.panel .xterm-rows:visible').first();
      const text = await waitUntil(
        s.page,
        async () => {
          const t = (await terminal.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
          return /grader audit/.test(t) ? t : undefined;
        },
        { timeoutMs: 180_000, what: 'the report in the terminal' },
      );
      assert.doesNotMatch(text, /Error|not found|No such file/i);
      // the report's own denominator: every graded sample of the example's 40 problems
      assert.match(text, /1280 graded samples in \d+ answer groups of 40 problems/);
      await runCommand(s.page, 'View: Toggle Maximized Panel');
      // the report is longer than the panel (reward models, levels, audit): its table is at the top
      await runCommand(s.page, 'Terminal: Scroll to Top');
      await waitUntil(
        s.page,
        async () => ((await terminal.innerText()).includes('Qwen2.5-Math-7B [base]') ? true : undefined),
        { timeoutMs: 30_000, what: 'the report table in the maximized terminal' },
      );
      const table = (await terminal.innerText()).replace(/\u00a0/g, ' ');
      assert.match(
        table,
        /Qwen2\.5-Math-7B \[base\]\s+40\s+640\s+183/,
        'the base model: 40 problems, 640 samples, 183 correct',
      );
      await s.page.waitForTimeout(1500); // the terminal's size overlay after maximizing fades out
      await screenshot(s.page, 'walkthrough-3-report');
      fs.mkdirSync(screenshotDir, { recursive: true });
      await s.page
        .locator('.part.panel')
        .screenshot({ path: path.join(screenshotDir, 'walkthrough-4-report-panel.png'), timeout: 10_000 });
    } catch (e) {
      await s.fail(e, 'walkthrough-2');
    }
  });
});
