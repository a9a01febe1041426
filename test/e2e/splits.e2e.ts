/**
 * The overview's Splits tab end to end (issue 35), in a real VS Code (code-server) in Chromium, on a copy of the
 * real run ../shared/data/real/rlvr-probe-gsm8k/results_2048_batched (30 GSM8K problems x 8 rollouts, an SFT base
 * and its PPO model; no difficulty levels, so the tab opens on content clusters of the problem texts):
 * - the tab draws the heatmap (its cells' tooltips name both models and every split of the list) and the table,
 *   one row per model and split;
 * - a click on a heatmap cell shows that split's problems in the tree; the table's pass@1 of both models over them,
 *   and the difference, equal the raw rollouts' (read here);
 * - "relative to the base" redraws the heatmap with the RL model's row only;
 * - level, which the folder has none of, is said in words, with no chart.
 * Screenshots: test-output/e2e/screenshots/splits-tab.png (the tab), splits-relative.png, splits-tree-filter.png,
 * splits-no-levels.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  defaultVsixPath,
  moveMouseAway,
  runCommand,
  screenshot,
  startSession,
  treeRowDetails,
  waitUntil,
  webviewWith,
  workspaceCopy,
  type Session,
} from './harness';
import { batchedRunCounts, RLVR_PROBE, waitForAllProblems } from './rlvrProbe';

// Browser globals used inside frame.evaluate (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const RUN = path.join(RLVR_PROBE, 'results_2048_batched');
const VIEW = 'Problems';

/** A cell of the heatmap found by hovering: where, and its tooltip's rows (title -> value). */
interface Hit {
  x: number;
  y: number;
  tip: Record<string, string>;
}

/**
 * Hovers across the heatmap's canvas on a grid and reads the tooltip at each point; returns the cells found (one
 * per model and split), stopping early when `want` is found.
 */
async function scanHeatmap(s: Session, frame: Frame, want?: (t: Record<string, string>) => boolean): Promise<Hit[]> {
  const canvas = frame.locator('#chart-splits canvas');
  const box = await canvas.boundingBox();
  assert.ok(box, 'the heatmap has a canvas');
  const found = new Map<string, Hit>();
  for (let y = box.y + 20; y < box.y + box.height; y += 12) {
    for (let x = box.x + 40; x < box.x + box.width; x += 24) {
      await s.page.mouse.move(x, y);
      const tip: Record<string, string> = await frame
        .$$eval('#vg-tooltip-element.visible tr', (trs) =>
          Object.fromEntries(
            trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()).slice(0, 2)),
          ),
        )
        .catch(() => ({}));
      if (!tip.model || !tip.split) continue;
      const key = `${tip.model}|${tip.split}`;
      if (!found.has(key)) found.set(key, { x, y, tip });
      if (want?.(tip)) return [...found.values()];
    }
  }
  return [...found.values()];
}

/** A screenshot once the mouse has left the heatmap and its tooltip is gone. */
async function screenshotWithoutTooltip(s: Session, name: string): Promise<void> {
  await moveMouseAway(s.page);
  await s.page.waitForTimeout(300);
  await screenshot(s.page, name);
}

describe('the Splits tab in a real VS Code on rlvr-probe-gsm8k/results_2048_batched', {
  timeout: 600_000,
  skip: !fs.existsSync(RUN),
}, () => {
  let s: Session;
  let ov: Frame;
  const { rl, sft } = batchedRunCounts();

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({
      name: 'splits',
      vsix,
      folder: workspaceCopy(RUN, 'splits-results_2048_batched'),
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await s?.close();
  });

  const tableRows = async (): Promise<string[][]> =>
    ov.$$eval('#splits-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    );

  test('the tab: content clusters by default, the heatmap of both models by every split, and the table', async () => {
    try {
      await waitForAllProblems(s);
      await runCommand(s.page, 'Trace Inspector: Open Overview');
      ov = await webviewWith(s.page, '#tab-splits', { timeoutMs: 60_000, what: 'the overview with its tabs' });
      await ov.click('#tab-splits');
      await ov.waitForSelector('#splits-table tbody tr', { timeout: 120_000 });
      await ov.waitForSelector('#chart-splits canvas', { timeout: 60_000 });
      assert.equal(await ov.$eval('#splits-kind', (el) => el.value), 'cluster');
      const options: string[] = await ov.$$eval('#splits-kind option', (os) => os.map((o) => o.textContent ?? ''));
      assert.equal(options[0], 'difficulty level (none in this folder)');
      assert.match(options[3], /^content cluster of the problem text \(\d+ splits\)$/);
      const splits: { name: string; text: string }[] = await ov.$$eval('#splits-list button', (bs) =>
        bs.map((b) => ({ name: b.getAttribute('data-split') ?? '', text: b.textContent ?? '' })),
      );
      assert.ok(splits.length >= 2, JSON.stringify(splits));
      for (const sp of splits) assert.match(sp.text, new RegExp(`^cluster ${sp.name}: .+ \\(\\d+ problems?\\)$`));
      const summary = (await ov.textContent('#splits-summary')) ?? '';
      assert.match(summary, new RegExp(`^2 models × ${splits.length} splits by content cluster .* · base model .*sft`));
      // the table: one row per model and split, with its denominators
      const rows = await tableRows();
      assert.equal(rows.length, 2 * splits.length);
      assert.deepEqual(
        [...new Set(rows.map((r) => r[1]))],
        splits.map((x) => x.name),
      );
      for (const r of rows) {
        assert.match(r[2], /^\d+\/\d+$/, `problems of ${r[0]} on ${r[1]}`);
        assert.equal(r[3], '8', 'n');
        assert.match(r[4], /^\d+\.\d \[\d+\.\d, \d+\.\d\]$/, 'pass@1 with its interval');
      }
      const header: string[] = await ov.$$eval('#splits-table thead th', (ths) =>
        ths.map((th) => th.textContent ?? ''),
      );
      assert.deepEqual(header, [
        'model',
        'split',
        'problems',
        'n',
        'pass@1',
        'pass@8',
        'vs base pass@1',
        'p / Holm',
        'verdict',
        'vs base pass@8',
      ]);
      // the heatmap: its cells' tooltips name both models and every split
      const cells = await scanHeatmap(s, ov);
      assert.deepEqual([...new Set(cells.map((c) => c.tip.split))].sort(), splits.map((x) => x.name).sort());
      assert.equal(new Set(cells.map((c) => c.tip.model)).size, 2);
      const one = cells[0].tip;
      assert.match(one['pass@1 (%) [95% CI]'], /^\d+\.\d \[\d+\.\d, \d+\.\d\]$/, JSON.stringify(one));
      assert.match(one['problems (of the split)'], /^\d+\/\d+$/);
      assert.equal(one['n (graded samples per problem)'], '8');
      await screenshotWithoutTooltip(s, 'splits-tab');
    } catch (e) {
      await s.fail(e, 'tab');
    }
  });

  test("a click on a cell shows its split's problems in the tree; the table's pass@1 over them is the raw rollouts'", async () => {
    try {
      const rlModel = (await tableRows()).find((r) => r[0].includes('ppo'))![0];
      const cells = await scanHeatmap(s, ov, (t) => t.model === rlModel && t.split === '2');
      const hit = cells.find((c) => c.tip.model === rlModel && c.tip.split === '2');
      assert.ok(hit, 'the RL model’s cell of split 2 was found by hovering');
      const count = Number(
        /\((\d+) problems?\)$/.exec((await ov.textContent('#splits-list [data-split="2"]')) ?? '')![1],
      );
      await s.page.mouse.click(hit.x, hit.y);
      const qids = await waitUntil(
        s.page,
        async () => {
          const top = (await treeRowDetails(s.page, VIEW)).filter((r) => r.level === 1).map((r) => r.label);
          return top.length === count ? top : undefined;
        },
        { timeoutMs: 30_000, what: `the tree to list the ${count} problems of split 2` },
      );
      const mean = (m: typeof rl) => qids.reduce((a, q) => a + m.get(q)!.c / m.get(q)!.n, 0) / qids.length;
      const pct = (v: number, signed = false) => `${signed && v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
      const rows = await tableRows();
      const rlRow = rows.find((r) => r[0] === rlModel && r[1] === '2')!;
      const sftRow = rows.find((r) => r[0] !== rlModel && r[1] === '2')!;
      assert.equal(rlRow[2], `${count}/${count}`);
      assert.ok(rlRow[4].startsWith(`${pct(mean(rl))} [`), `RL pass@1 ${rlRow[4]} vs raw ${pct(mean(rl))}`);
      assert.ok(sftRow[4].startsWith(`${pct(mean(sft))} [`), `SFT pass@1 ${sftRow[4]} vs raw ${pct(mean(sft))}`);
      assert.ok(
        rlRow[6].startsWith(`${pct(mean(rl) - mean(sft), true)} [`),
        `vs base ${rlRow[6]} vs raw ${pct(mean(rl) - mean(sft), true)}`,
      );
      assert.equal(sftRow[6], 'the base model');
      await screenshot(s.page, 'splits-tree-filter');
    } catch (e) {
      await s.fail(e, 'click');
    }
  });

  test('relative to the base: the heatmap has the RL model’s row only, each cell a signed difference', async () => {
    try {
      await ov.selectOption('#splits-mode', 'relative');
      await ov.waitForSelector('#chart-splits canvas', { timeout: 30_000 });
      await s.page.waitForTimeout(500);
      const cells = await scanHeatmap(s, ov);
      assert.ok(cells.length > 0);
      assert.equal(new Set(cells.map((c) => c.tip.model)).size, 1);
      assert.ok(cells[0].tip.model.includes('ppo'), cells[0].tip.model);
      assert.match(cells[0].tip['pass@1 vs base (pp) [95% CI]'], /^[+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]$/);
      assert.match(cells[0].tip['sign-flip test'], /Holm .*: (better|worse|within noise)$/);
      await screenshotWithoutTooltip(s, 'splits-relative');
    } catch (e) {
      await s.fail(e, 'relative');
    }
  });

  test('a kind the folder has no split of is said in words, not drawn', async () => {
    try {
      await ov.selectOption('#splits-kind', 'level');
      await ov.waitForSelector('#splits-empty', { timeout: 60_000 });
      assert.equal(
        await ov.textContent('#splits-empty'),
        "This folder has no difficulty levels: none of its 30 problems has a level (the records' level field, or a problem list's through a mapping file). Choose another kind of split.",
      );
      assert.equal(await ov.$('#chart-splits'), null, 'no chart');
      assert.equal(await ov.$('#splits-table'), null, 'no table');
      await screenshot(s.page, 'splits-no-levels');
      // and back: the clusters again
      await ov.selectOption('#splits-kind', 'cluster');
      await ov.waitForSelector('#chart-splits canvas', { timeout: 60_000 });
      assert.equal(await ov.$eval('#splits-kind', (el) => el.value), 'cluster');
    } catch (e) {
      await s.fail(e, 'no-levels');
    }
  });
});
