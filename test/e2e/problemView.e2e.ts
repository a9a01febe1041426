/**
 * The problem view and the overview end to end, in a real VS Code (code-server) in Chromium, on the
 * real folder ../shared/data/real/rlvr-probe-gsm8k (copied into test-output: the index and mirror
 * are written next to it): open the problem view of problem 0 from the tree; the pass@k chart has one
 * curve per model and the table's pass@1 / pass@8 match the raw rollouts; the "in the base
 * distribution?" section marks novel spans of an RL sample and shows the word diff against its
 * nearest base sample; the overview renders its charts with the base model and the focus run's models
 * shown first, and models can be shown and hidden. Screenshots: test-output/e2e/screenshots/problem-view-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  openProblemViewFromRow,
  reloadWindow,
  runCommand,
  screenshot,
  showTreeView,
  treeRowDetails,
  waitUntil,
  webviewFrame,
  webviewWith,
  type Session,
} from './harness';
import { RLVR_PROBE, startOnRlvrProbe } from './rlvrProbe';

// Browser global used inside frame.evaluate (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const REAL = RLVR_PROBE;
const RUN = 'results_2048_batched';
// the tree's short names, which every view gives the models (trial 13 finding 8)
const RL_LABEL = 'ppo@main · 2048_batched';
const SFT_LABEL = 'sft · 2048_batched';

/** c (of 8) for qid 0 in a raw rollout file, independent of the extension. */
function correctOfQid0(file: string): number {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { qid: number; rollouts: { correct: boolean }[] };
    if (r.qid === 0) return r.rollouts.filter((x) => x.correct).length;
  }
  throw new Error(`qid 0 not in ${file}`);
}

describe('problem view and overview in a real VS Code on rlvr-probe-gsm8k', { timeout: 600_000 }, () => {
  let s: Session;
  let frame: Frame;

  before(async () => {
    ({ session: s } = await startOnRlvrProbe('problem-view'));
  });

  after(async () => {
    await s?.close();
  });

  test('opens from the tree: one curve per model, pass@1 and pass@8 right', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length === 30,
        { timeoutMs: 120_000, what: '30 problem rows' },
      );
      await openProblemViewFromRow(s.page, VIEW, '0');
      frame = await webviewFrame(s.page, 0, { timeoutMs: 30_000, what: 'the problem view' });
      await frame.waitForSelector('#stats-table tbody tr', { timeout: 30_000 });
      await frame.waitForSelector('#chart-passk canvas', { timeout: 30_000 });
      const rows: string[][] = await frame.$$eval('#stats-table tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
      );
      const models = await frame.$$eval('#chart-passk-data li', (lis) => lis.map((li) => li.textContent ?? ''));
      assert.equal(rows.length, 12, 'the folder has 12 models (2 per run folder)');
      assert.equal(models.length, rows.length, 'one curve per model');
      for (const r of rows) {
        const [c, n] = r[1].split('/').map(Number);
        assert.equal(n, 8);
        assert.equal(r[3], (c / n).toFixed(3), `pass@1 = c/n for ${r[0]}`);
        assert.equal(r[4], (c > 0 ? 1 : 0).toFixed(3), `pass@8 for ${r[0]}`);
      }
      const rl = correctOfQid0(path.join(REAL, RUN, 'rl_raw.jsonl'));
      const sft = correctOfQid0(path.join(REAL, RUN, 'sft_raw.jsonl'));
      const rlRow = rows.find((r) => r[0] === RL_LABEL)!;
      const sftRow = rows.find((r) => r[0].startsWith(SFT_LABEL))!;
      assert.equal(rlRow[1], `${rl}/8`);
      assert.equal(sftRow[1], `${sft}/8`);
      assert.ok(sftRow[0].endsWith('base'), 'the base model is marked');
      assert.equal(rlRow[3], (rl / 8).toFixed(3));
      await screenshot(s.page, 'problem-view-1-chart');
      // maj@k is not in the problem's data (seconds at n = 1024): ticking it asks the host's worker for it
      assert.doesNotMatch((await frame.textContent('#chart-passk-data')) ?? '', /maj@/);
      await frame.locator('vscode-checkbox', { hasText: 'maj@k' }).click();
      await frame.waitForFunction(() => /maj@8=/.test(document.querySelector('#chart-passk-data')?.textContent ?? ''), {
        timeout: 60_000,
      });
      const withMaj = await frame.$$eval('#chart-passk-data li', (lis) => lis.map((li) => li.textContent ?? ''));
      const rlLine = withMaj.find((t) => t.startsWith(`${RL_LABEL}:`))!;
      const maj = [...rlLine.matchAll(/maj@(\d+)=([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      assert.deepEqual(
        maj.map(([k]) => k),
        [1, 2, 4, 8],
        rlLine,
      );
      assert.ok(
        maj.every(([, v]) => v >= 0 && v <= 1),
        rlLine,
      );
      // no error from getMajAtK; the note says how maj@k is judged (trial 13 finding 1)
      const majStatus = ((await frame.textContent('#maj-status')) ?? '').trim();
      assert.match(
        majStatus,
        /^maj@k(: the winning answer is judged by the majority verdict| judges the winning answer against the reference answer)/,
      );
      await screenshot(s.page, 'problem-view-1b-maj');
    } catch (e) {
      await s.fail(e, 'problem-view-1');
    }
  });

  test('the diff view highlights novel spans of an RL sample', async () => {
    try {
      const selected = await frame.$eval('#model-select', (el) => (el as unknown as { value: string }).value);
      assert.ok(selected, 'a model is chosen');
      await frame.waitForSelector('#novel-spans', { timeout: 60_000, state: 'attached' });
      const novel = await frame.$$eval('#novel-spans mark.novel', (els) => els.map((e) => e.textContent ?? ''));
      assert.ok(novel.length > 0, 'some spans are novel');
      const score = await frame.$eval('#novelty-score', (el) => el.textContent ?? '');
      assert.match(score, /novelty \d+\.\d%/);
      const rowsText = await frame.$$eval('.sample-row', (els) => els.map((e) => e.textContent ?? ''));
      assert.equal(rowsText.length, 8);
      assert.ok(
        rowsText.every((t) => /sim \d\.\d\d/.test(t)),
        'each sample shows its similarity to the nearest base sample',
      );
      // "in base" is never cut: its text fits its box in every row
      const inBase = await frame.$$eval('.sample-row .in-base', (els) =>
        els.map((e) => {
          const el = e as unknown as { textContent: string; scrollWidth: number; clientWidth: number };
          return { text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1 };
        }),
      );
      assert.equal(inBase.length, 8);
      for (const x of inBase) {
        assert.match(x.text, /^(in base \d+\/\d+ \(\d+ ✓\)|answer not in base|no extracted answer)$/);
        assert.equal(x.cut, false, `"${x.text}" is cut`);
      }
      // j / k and the arrow keys move the selection in the sample list
      const selectedIndex = () =>
        frame.$$eval('.sample-row', (els) => els.findIndex((e) => e.classList.contains('selected')));
      const at = await selectedIndex();
      await frame.focus('.sample-row.selected');
      await s.page.keyboard.press('j');
      await waitUntil(s.page, async () => ((await selectedIndex()) === at + 1 ? true : undefined), {
        what: 'j selects the next sample',
      });
      await s.page.keyboard.press('ArrowDown');
      await waitUntil(s.page, async () => ((await selectedIndex()) === at + 2 ? true : undefined), {
        what: 'ArrowDown selects the next sample',
      });
      await s.page.keyboard.press('k');
      await s.page.keyboard.press('ArrowUp');
      await waitUntil(s.page, async () => ((await selectedIndex()) === at ? true : undefined), {
        what: 'k and ArrowUp go back',
      });
      await frame.waitForSelector('#novel-spans', { timeout: 60_000, state: 'attached' });
      await frame.waitForSelector('#chart-similarity canvas', { timeout: 30_000 });
      await frame.$eval('#in-base', (el) => el.scrollIntoView());
      await screenshot(s.page, 'problem-view-2-similarity');
      await frame.$eval('#sample-detail', (el) => el.scrollIntoView());
      await screenshot(s.page, 'problem-view-2-novel-spans');
      // the computation path beside the text similarity (docs/similarity.md section 6); the paths come after
      // the list's stage (getSimilarity stage 'list'), so they are waited for
      await frame.waitForSelector('#path-line', { timeout: 30_000 });
      await frame.waitForFunction(() => /Paths: /.test(document.querySelector('p.summary')?.textContent ?? ''), null, {
        timeout: 30_000,
      });
      const pathText = await frame.$eval('#path-line', (el) => el.textContent ?? '');
      assert.match(
        pathText,
        /^(path in base: \d\/8 base samples compute (all \d+ steps|the one step)|path not in base: 0\/8 base samples compute .*|no computation steps found)$/,
      );
      const summary = await frame.$eval('p.summary', (el) => el.textContent ?? '');
      assert.match(summary, /Paths: \d+ of this model's \d+ correct samples with computation steps compute a path/);
      await screenshot(s.page, 'problem-view-2b-path-line');
      // RL sample #0 takes a route no SFT sample takes (docs/similarity.md section 6): its new steps are named
      const first = await frame.$eval('.sample-row.selected .idx', (el) => el.textContent ?? '');
      await frame.locator('.sample-row:has(.idx:text-is("#0"))').click();
      await frame.waitForSelector('#path-line.not-in-base', { timeout: 30_000 });
      assert.equal(
        await frame.$eval('#path-line', (el) => el.textContent ?? ''),
        'path not in base: 0/8 base samples compute all 11 steps (at most 1); 10 steps new: 47 × 10 = 470; 52 × 8 = 416; 470 + 416 = 886; …',
      );
      await screenshot(s.page, 'problem-view-2c-path-not-in-base');
      await frame.locator(`.sample-row:has(.idx:text-is("${first}"))`).click();
      await frame.waitForSelector('#path-line.in-base', { timeout: 30_000 });
      await frame.click('#tab-diff');
      await frame.waitForSelector('#diff-view ins.added', { timeout: 10_000 });
      const added = await frame.$$eval('#diff-view ins.added', (els) => els.length);
      const removed = await frame.$$eval('#diff-view del.removed', (els) => els.length);
      assert.ok(added > 0 && removed > 0);
      await screenshot(s.page, 'problem-view-3-diff');
      await frame.click('#tab-rendered');
      // the text renderer is a script the view loads on demand (webview/textApi.ts)
      await frame.waitForSelector('#trace-rendered .katex', { state: 'attached', timeout: 10_000 });
      const katex = await frame.$$eval('#trace-rendered .katex', (els) => els.length);
      assert.ok(katex > 0, 'the sample has math, rendered by KaTeX');
      // KaTeX fonts use font-display: block; wait until they are in before the screenshot
      // (polled: right after the tab switch the face may not have started loading, and `document.fonts.ready`
      // resolves at once with it still 'unloaded'; a face the CSP blocks ends in 'error', never 'loaded')
      const mainFont = await frame
        .waitForFunction(
          () =>
            [...document.fonts].some(
              (f: { family: string; status: string }) => f.family === 'KaTeX_Main' && f.status === 'loaded',
            ),
          undefined,
          { timeout: 15_000, polling: 100 },
        )
        .then(() => true)
        .catch(() => false);
      assert.ok(mainFont, 'the KaTeX fonts load under the CSP');
      const tops = await frame.$$eval('#trace-rendered .katex .vlist > span', (els) =>
        els.map((e) => (e as unknown as { style: { top: string } }).style.top).filter((t) => /em$/.test(t)),
      );
      assert.ok(tops.length > 0, 'KaTeX layout styles are applied (through CSSOM, the CSP has no unsafe-inline)');
      await screenshot(s.page, 'problem-view-4-rendered');
    } catch (e) {
      await s.fail(e, 'problem-view-2');
    }
  });

  test('the overview shows curves, histogram and coverage', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Open Overview');
      const ov = await webviewWith(s.page, '#chart-curves', { timeoutMs: 30_000, what: 'the overview' });
      await ov.waitForSelector('#chart-curves canvas', { timeout: 30_000 });
      await ov.waitForSelector('#chart-histogram canvas', { timeout: 30_000 });
      await ov.waitForSelector('#chart-coverage canvas', { timeout: 30_000 });
      const header = await ov.$eval('header', (el) => el.textContent ?? '');
      assert.match(header, /30 problems · 12 models/);
      // 12 models: only the base model and the focus model's run (results_2048_batched: SFT base + RL) start shown
      const shown = async () =>
        ov.$$eval('input[data-model-id]', (els) =>
          els
            .filter((e) => (e as unknown as { checked: boolean }).checked)
            .map((e) => (e.parentElement?.textContent ?? '').trim()),
        );
      assert.deepEqual((await shown()).sort(), [RL_LABEL, `${SFT_LABEL} (base)`].sort());
      assert.equal(await ov.$eval('#models-shown', (el) => el.textContent ?? ''), '2 of 12 shown · 10 hidden');
      await screenshot(s.page, 'problem-view-5-overview');
      await ov.$eval('#chart-histogram', (el) => el.scrollIntoView());
      await screenshot(s.page, 'problem-view-6-overview-histogram');
      // ticking a model shows it; "show all" shows the 12
      await ov.click('#show-all-models');
      assert.equal(await ov.$eval('#models-shown', (el) => el.textContent ?? ''), '12 of 12 shown');
      await ov.waitForSelector('#chart-curves canvas', { timeout: 30_000 });
      await ov.$eval('#model-picker', (el) => el.scrollIntoView());
      await s.page.waitForTimeout(500);
      await screenshot(s.page, 'problem-view-5b-overview-all-models');
      await ov.click('#show-default-models');
      const step100 = await ov.$$eval('label.model-toggle', (els) =>
        els.findIndex((e) => (e.textContent ?? '').trim() === 'ppo@step-100'),
      );
      assert.ok(step100 >= 0, 'the step-100 checkpoint is listed');
      await ov.locator('label.model-toggle').nth(step100).locator('input').check();
      assert.equal((await shown()).length, 3);
      assert.equal(await ov.$eval('#models-shown', (el) => el.textContent ?? ''), '3 of 12 shown · 9 hidden');
      await ov.waitForSelector('#chart-curves canvas', { timeout: 30_000 });
      await s.page.waitForTimeout(500);
      await screenshot(s.page, 'problem-view-5c-overview-three-models');
      // reasoning paths on request: one row per compared model, the same pairs as the coverage table
      const coverageRows = await ov.$$eval('table.stats:not(#paths-table) td.crossover', (tds) => tds.length);
      await ov.click('#paths-compute');
      await ov.waitForSelector('#paths-table tbody tr', { timeout: 120_000 });
      const pathRows = await ov.$$eval('#paths-table tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
      );
      assert.equal(pathRows.length, coverageRows);
      // results_2048_batched: 129 of 175 correct RL samples with steps (test/unit/pathSummary-real.test.ts recomputes it)
      const main = pathRows.find((r) => r.some((c) => c === RL_LABEL))!;
      assert.ok(main, `a row for ${RL_LABEL}: ${JSON.stringify(pathRows)}`);
      assert.match(main.join(' | '), /73\.7% \[\d+\.\d%, \d+\.\d%\]/);
      assert.match(main.join(' | '), /over 29 problems and 175 of 175 correct samples/);
      await ov.$eval('#paths-table', (el) => el.scrollIntoView());
      await screenshot(s.page, 'problem-view-5d-overview-paths');
    } catch (e) {
      await s.fail(e, 'problem-view-5');
    }
  });

  test('both panels come back after a window reload (serializers)', async () => {
    try {
      await reloadWindow(s.page);
      const restored = await webviewWith(s.page, '#chart-curves canvas, #stats-table tbody tr', {
        what: 'a restored panel with content',
      });
      assert.ok(restored);
      const tabs = await s.page.locator('.tabs-container .tab .label-name').allTextContents();
      assert.ok(
        tabs.some((t) => t.includes('Problem 0')),
        `tabs: ${tabs.join(' | ')}`,
      );
      assert.ok(
        tabs.some((t) => t.includes('Overview')),
        `tabs: ${tabs.join(' | ')}`,
      );
      await screenshot(s.page, 'problem-view-7-after-reload');
      // The overview keeps the models shown before the reload (base, RL and the step-100 checkpoint).
      await s.page.locator('.tabs-container .tab', { hasText: 'Overview' }).first().click();
      const ov = await webviewWith(s.page, '#models-shown', { what: 'the restored overview' });
      await waitUntil(
        s.page,
        async () => (await ov.$eval('#models-shown', (el) => el.textContent ?? '')) === '3 of 12 shown · 9 hidden',
        {
          what: 'the overview to show the 3 models chosen before the reload',
        },
      );
      const shownAfter = await ov.$$eval('input[data-model-id]', (els) =>
        els
          .filter((e) => (e as unknown as { checked: boolean }).checked)
          .map((e) => (e.parentElement?.textContent ?? '').trim()),
      );
      assert.ok(
        shownAfter.some((t) => t === 'ppo@step-100'),
        `shown after reload: ${shownAfter.join(' | ')}`,
      );
    } catch (e) {
      await s.fail(e, 'problem-view-7');
    }
  });
});
