/**
 * The problem view's pass@k chart with 2, 5, 12 and 30 models, end to end in a real VS Code (code-server) in
 * Chromium. One generated folder (the Qwen2.5-Math layout) holds 30 models: `base`, `rl` (the model in focus)
 * and 28 others; problem 0 is sampled by 2 of them, problem 1 by 5, problem 2 by 12 and problem 3 by all 30, so
 * the problem view of each draws that many models. At every count: the chart lists one curve per model with
 * samples (its figures listed for screen readers), models with identical curves are drawn once and named under
 * the chart, and the table has a row per model. The order and styles of the series (the base's and the focus
 * model's first and strong, the others muted) are the unit tests' (chartSpecs.test.ts); here they are seen.
 * Screenshots: test-output/e2e/screenshots/many-models-<n>.png, and at 30 models a narrow editor
 * (many-models-30-narrow.png).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  answerQuickInput,
  defaultVsixPath,
  expandTreeRow,
  moveMouseAway,
  openProblemViewFromRow,
  runCommand,
  outputRoot,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitUntil,
  webviewWith,
  type Session,
} from './harness';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const N = 8;
/** How many models sample each problem: problem i is sampled by the first COUNTS[i] models. */
const COUNTS = [2, 5, 12, 30];
const MODELS = ['base', 'rl', ...Array.from({ length: 28 }, (_, i) => `other-${String(i + 1).padStart(2, '0')}`)];

/** Correct samples of model `m` (its index in MODELS) on problem `p`: spread over 0..8 so curves differ and some repeat. */
const correct = (m: number, p: number) => (m * 4 + p * 5 + (m === 1 ? 2 : 0)) % (N + 1);

function writeFolder(): string {
  const dir = path.join(outputRoot, 'workspace', 'many-models');
  fs.rmSync(dir, { recursive: true, force: true });
  MODELS.forEach((model, m) => {
    const lines: string[] = [];
    COUNTS.forEach((count, p) => {
      if (m >= count) return;
      const c = correct(m, p);
      lines.push(
        JSON.stringify({
          idx: p,
          question: `q${p}: what is ${p} + 1?`,
          gt: String(p + 1),
          level: `Level ${(p % 2) + 1}`,
          code: Array.from({ length: N }, (_, i) => `sample ${i} of problem ${p} by ${model}`),
          score: Array.from({ length: N }, (_, i) => i < c),
          pred: Array.from({ length: N }, (_, i) => String(i < c ? p + 1 : p)),
        }),
      );
    });
    const d = path.join(dir, model, 'math_eval', 'ds');
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'test_many.jsonl'), `${lines.join('\n')}\n`);
  });
  return dir;
}

describe('the pass@k chart with 2, 5, 12 and 30 models in a real VS Code', { timeout: 600_000 }, () => {
  let s: Session;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({
      name: 'many-models',
      vsix,
      folder: writeFolder(),
      settings: { 'traceInspector.baseModel': 'base', 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await s?.close();
  });

  for (const [problem, count] of COUNTS.entries()) {
    test(`${count} models: one curve each, identical curves drawn once, the RL-named model in focus`, async () => {
      try {
        await showTreeView(s.page, CONTAINER, VIEW);
        await waitUntil(
          s.page,
          async () => {
            const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1);
            return r.length === COUNTS.length && r.every((x) => x.description.startsWith('base ')) ? r : undefined;
          },
          { timeoutMs: 120_000, what: `${COUNTS.length} problem rows with their counts` },
        );
        await openProblemViewFromRow(s.page, VIEW, String(problem));
        const frame = await webviewWith(s.page, `#stats-table tbody tr:nth-child(${count})`, {
          timeoutMs: 30_000,
          what: `the problem view of problem ${problem} with ${count} models`,
        });
        await frame.waitForSelector('#chart-passk canvas, #chart-passk svg', { timeout: 30_000 });
        const rows = await frame.$$eval('#stats-table tbody tr', (trs) => trs.length);
        assert.equal(rows, count, 'a table row per model with samples');
        const curves: string[] = await frame.$$eval('#chart-passk-data li', (lis) =>
          lis.map((li) => li.textContent ?? ''),
        );
        assert.equal(curves.length, count, 'the chart has the figures of every model with samples');
        // models with the same c of 8 have the same curve: drawn once, named under the chart
        const distinct = new Set(MODELS.slice(0, count).map((_, m) => correct(m, problem))).size;
        const note = await frame.$eval('#chart-passk-note', (el) => el.textContent ?? '');
        if (distinct < count) assert.match(note, /^Identical curves, drawn once: /);
        else assert.equal(note, '');
        const named = curves.map((c) => c.split(':')[0]);
        assert.deepEqual(named.slice().sort(), MODELS.slice(0, count).sort(), 'every model with samples, by its name');
        // the base is chosen by a setting; the model in focus is still the RL-named one, not the first other by name
        const pair = await s.page
          .locator('.part.statusbar .statusbar-item', { hasText: ' vs ' })
          .first()
          .innerText()
          .catch(() => '');
        assert.match(pair, /\brl vs base\b/);
        await screenshot(s.page, `many-models-${count}`);
        if (count === 30) {
          const size = s.page.viewportSize();
          await s.page.setViewportSize({ width: 900, height: size?.height ?? 900 });
          await frame.waitForTimeout(500);
          await screenshot(s.page, 'many-models-30-narrow');
          if (size) await s.page.setViewportSize(size);
        }
      } catch (e) {
        await s.fail(e, `many-models-${count}`);
      }
    });
  }

  test('Group by Split…: a row per difficulty level with its problems and pass@1, problems under it', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Group by Split…');
      await answerQuickInput(s.page, { pick: 'Difficulty level' });
      const rows = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1);
          return r.map((x) => x.label).join(',') === 'level 1,level 2' ? r : undefined;
        },
        { what: 'the rows level 1 and level 2' },
      );
      // problems 0 and 2 are level 1; the focus model rl's pass@1 over them from the generated counts
      const rl = (p: number) => correct(1, p) / N;
      const base = (p: number) => correct(0, p) / N;
      assert.equal(
        rows[0].description,
        `base ${((base(0) + base(2)) / 2).toFixed(2)} · model ${((rl(0) + rl(2)) / 2).toFixed(2)} · 2 problems`,
      );
      await expandTreeRow(s.page, VIEW, 'level 1');
      const under = await waitUntil(
        s.page,
        async () => {
          const r = await treeRowDetails(s.page, VIEW);
          const i = r.findIndex((x) => x.label === 'level 1');
          const kids = r.slice(i + 1).filter((x) => x.level === 2);
          return kids.length === 2 ? kids.map((x) => x.label) : undefined;
        },
        { what: 'the two problems under level 1' },
      );
      assert.deepEqual(under, ['0', '2']);
      await moveMouseAway(s.page);
      await screenshot(s.page, 'tree-by-level');
      await runCommand(s.page, 'Trace Inspector: Group by Problem');
    } catch (e) {
      await s.fail(e, 'tree-by-level');
    }
  });
});
