/**
 * Issue 19 end to end, in a real VS Code (code-server) in Chromium, on the generated saturated folder
 * (2 models x 250 problems x 512 samples, test/support/saturatedFolder.ts, long sample texts so that
 * indexing takes a while): the first indexing when the folder opens runs in a progress notification
 * whose Cancel button stops it; in between, every row shows each model's figures under that model's
 * name only (checked against the generated counts) and says what is not indexed yet; Index Folder
 * then completes it. Then the overview's charts fit the editor's width, and "Load 100 more" in the
 * problem view appends rows. Screenshots: test-output/e2e/screenshots/partial-index-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  openProblemViewFromRow,
  defaultVsixPath,
  freshRunDir,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitForNotification,
  waitUntil,
  webviewWith,
  type Session,
  type TreeRow,
} from './harness';
import { SATURATED, saturatedCounts, writeSaturatedFolder } from '../support/saturatedFolder';

// Browser global used inside frame.evaluate (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const { base: BASE_C, rl: RL_C } = saturatedCounts();

/**
 * Every figure a problem row shows belongs to the model it is shown under: `base`/`base-sft` counts are
 * the base model's, `model`/`rl-grpo` counts the RL model's. Returns the rows that show figures.
 */
function checkRows(rows: TreeRow[]): { both: number; baseOnly: number } {
  let both = 0;
  let baseOnly = 0;
  for (const r of rows.filter((x) => x.level === 1 && /^\d+$/.test(x.label))) {
    const i = Number(r.label);
    const b = /(?:^|· )(?:base|base-sft) (\d+)\/512/.exec(r.description);
    const m = /(?:^|· )(?:model|rl-grpo) (\d+)\/512/.exec(r.description);
    if (b) assert.equal(Number(b[1]), BASE_C[i], `base figures of problem ${i}: ${r.description}`);
    if (m) assert.equal(Number(m[1]), RL_C[i], `RL figures of problem ${i}: ${r.description}`);
    if (b && m) both++;
    else if (b) {
      baseOnly++;
      assert.match(r.description, /model: (indexing…|not indexed)|model not indexed|model indexing…/, r.description);
    }
  }
  return { both, baseOnly };
}

describe('a folder indexed in two steps, in a real VS Code', { timeout: 900_000 }, () => {
  let s: Session;
  let folder: string;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    folder = path.join(freshRunDir('partial-index-folder'), 'saturated');
    fs.mkdirSync(folder, { recursive: true });
    writeSaturatedFolder(folder, 900);
    s = await startSession({
      name: 'partial-index',
      vsix,
      folder,
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await s?.close();
  });

  test('first-open indexing runs in a notification whose Cancel stops it', async () => {
    try {
      await waitForNotification(s.page, 'Trace Inspector: indexing', { timeoutMs: 120_000 });
      // The first rows appear while the first file is read; then stop it, as a user who has seen enough.
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => {
          const seen = checkRows(await treeRowDetails(s.page, VIEW));
          return seen.both + seen.baseOnly > 0 ? true : undefined;
        },
        { timeoutMs: 300_000, what: 'the first indexed problems in the tree' },
      );
      await screenshot(s.page, 'partial-index-1-indexing');
      const toast = s.page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ hasText: 'Trace Inspector: indexing' })
        .first();
      await toast.hover();
      await toast.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 10_000 });
      await waitForNotification(s.page, 'indexing stopped', { timeoutMs: 60_000 });
      const sidebar = s.page.locator('.part.sidebar');
      await waitUntil(
        s.page,
        async () => ((await sidebar.innerText()).includes('Index incomplete') ? true : undefined),
        { what: 'the message above the tree saying the index is incomplete' },
      );
      const text = await sidebar.innerText();
      assert.doesNotMatch(text, /model: ·| vs ·|model:\s*$| vs $/m, 'no role without a name');
      const rows = await treeRowDetails(s.page, VIEW);
      const seen = checkRows(rows);
      assert.ok(seen.both + seen.baseOnly > 0, 'some problems are indexed');
      await screenshot(s.page, 'partial-index-2-stopped');
    } catch (e) {
      await s.fail(e, 'partial-index-1');
    }
  });

  test('Index Folder finishes it: labels stay right while it runs and at the end', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Index Folder');
      // Regression: the message above the tree kept "Index incomplete: indexing was stopped" while the
      // new run read the folder (the views learned of the run only with its first shown batch).
      await waitUntil(
        s.page,
        async () =>
          (await s.page.locator('.part.sidebar').innerText()).includes('Indexing: figures so far') ? true : undefined,
        { timeoutMs: 30_000, what: 'the message above the tree saying indexing runs' },
      );
      let shotWhileIndexing = false;
      await waitUntil(
        s.page,
        async () => {
          const rows = await treeRowDetails(s.page, VIEW);
          const seen = checkRows(rows);
          const text = await s.page.locator('.part.sidebar').innerText();
          const indexing = text.includes('Indexing: figures so far');
          if (indexing && !shotWhileIndexing) {
            shotWhileIndexing = true;
            await screenshot(s.page, 'partial-index-3-indexing-again');
          }
          // before the pass starts, the rows of the stopped pass may already show both models
          const finished = !indexing && !text.includes('Index incomplete');
          return finished && seen.baseOnly === 0 && seen.both > 10 ? true : undefined;
        },
        { timeoutMs: 600_000, what: 'every visible row with both models, indexing finished' },
      );
      const text = await s.page.locator('.part.sidebar').innerText();
      // the pair in short labels: what tells the two models apart
      assert.match(text, /grpo vs sft/);
      assert.doesNotMatch(text, /Index incomplete/);
      await screenshot(s.page, 'partial-index-4-complete');
    } catch (e) {
      await s.fail(e, 'partial-index-2');
    }
  });

  test("the overview's charts fit the editor's width (side bar open, levels faceted)", async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Open Overview');
      const frame: Frame = await webviewWith(s.page, '#chart-curves canvas', { timeoutMs: 120_000 });
      await frame.waitForSelector('#chart-coverage canvas', { timeout: 60_000 });
      const widths = await frame.evaluate(() => {
        const page = document.documentElement.clientWidth as number;
        const charts = [...document.querySelectorAll('.chart canvas')].map(
          (c: { getBoundingClientRect(): { right: number } }) => c.getBoundingClientRect().right,
        );
        return { page, charts };
      });
      assert.ok(widths.charts.length >= 3, 'curves, histogram, coverage');
      for (const right of widths.charts)
        assert.ok(right <= widths.page + 1, `a chart ends at ${right} > ${widths.page}`);
      const crossover = await frame.$eval('td.crossover', (el: { textContent: string }) => el.textContent);
      assert.match(crossover, /^none: tied at saturation from k = \d+/);
      await screenshot(s.page, 'partial-index-5-overview');
      await frame.$eval('#crossover-note', (el: { scrollIntoView(): void }) => el.scrollIntoView());
      await screenshot(s.page, 'partial-index-6-overview-crossover');
    } catch (e) {
      await s.fail(e, 'partial-index-3');
    }
  });

  test('"Load 100 more" in the problem view appends rows (the rows shown stay)', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await openProblemViewFromRow(s.page, VIEW, '0');
      const frame = await webviewWith(s.page, '#load-more-samples', { timeoutMs: 180_000 });
      const before = await frame.$$eval('.sample-row', (els: { dataset: Record<string, string> }[]) => {
        for (const e of els) e.dataset.kept = '1';
        return els.length;
      });
      assert.equal(before, 100);
      await frame.click('#load-more-samples');
      await frame.waitForFunction(() => document.querySelectorAll('.sample-row').length === 200, null, {
        timeout: 60_000,
      });
      const kept = await frame.$$eval('.sample-row[data-kept="1"]', (els: unknown[]) => els.length);
      assert.equal(kept, 100, 'the first 100 rows are the same elements');
      const sat = await frame.$eval(
        '#stats-table tr:not(.base) td.saturation',
        (el: { textContent: string }) => el.textContent,
      );
      assert.equal(sat, `from k=${SATURATED.samples - BASE_C[0] + 1}`);
      await screenshot(s.page, 'partial-index-7-load-more');
      await frame.$eval('#chart-passk', (el: { scrollIntoView(): void }) => el.scrollIntoView());
      await screenshot(s.page, 'partial-index-8-saturation-point');
    } catch (e) {
      await s.fail(e, 'partial-index-4');
    }
  });
});
