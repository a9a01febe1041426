/**
 * The overview's Training tab end to end, in a real VS Code (code-server) in Chromium, on the real run
 * ../shared/data/real/rlvr-probe-gsm8k/trajectory (PPO checkpoints at steps 100, 300, 500, 1000, each
 * folder with its SFT samples; copied into test-output). The base is guessed, so each step is compared
 * with the SFT model of its own folder. Checks, against the raw rollouts read here: the table's sample
 * accuracy and positive-gain share per step, the counts of the tree filters; that the six charts draw (the
 * sixth: lengths and reasoning markers, its caption naming the token rule);
 * that clicking a heatmap cell opens that problem's view at that checkpoint; the tree's training filter
 * and the step on model rows. Screenshots: test-output/e2e/screenshots/training-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  answerQuickInput,
  defaultVsixPath,
  expandTreeRow,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitUntil,
  webviewWith,
  workspaceCopy,
  type Session,
} from './harness';
import { RLVR_PROBE } from './rlvrProbe';

// Browser global used inside frame.evaluate (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const TRAJ = path.join(RLVR_PROBE, 'trajectory');
const STEPS = [100, 300, 500, 1000];

/** c per qid of one raw rollout file, read here independently of the extension. */
function counts(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { qid: number; rollouts: { correct: boolean }[] };
    out.set(String(r.qid), r.rollouts.filter((x) => x.correct).length);
  }
  return out;
}

describe('the Training tab in a real VS Code on rlvr-probe-gsm8k/trajectory', { timeout: 600_000 }, () => {
  let s: Session;
  let ov: Frame;
  const rl = STEPS.map((st) => counts(path.join(TRAJ, `step-${st}`, 'rl_raw.jsonl')));
  const sft = STEPS.map((st) => counts(path.join(TRAJ, `step-${st}`, 'sft_raw.jsonl')));
  const qids = [...rl[0].keys()];
  const lost = qids.filter((q) => rl[3].get(q) === 0 && rl.slice(0, 3).some((m) => m.get(q)! > 0));
  const late = qids.filter((q) => rl[0].get(q) === 0 && rl[1].get(q) === 0 && rl.slice(2).some((m) => m.get(q)! > 0));

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({
      name: 'training',
      vsix,
      folder: workspaceCopy(TRAJ, 'training-trajectory'),
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await s?.close();
  });

  test('the tab: per-step figures equal the raw rollouts, and the six charts draw', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length > 0,
        { timeoutMs: 120_000, what: 'problem rows' },
      );
      await runCommand(s.page, 'Trace Inspector: Open Overview');
      ov = await webviewWith(s.page, '#tab-training', { timeoutMs: 60_000, what: 'the overview with its tabs' });
      // the Models tab (shown first): length and reasoning markers per model
      await ov.waitForSelector('#chart-markers canvas', { timeout: 60_000 });
      const fits = (sel: string) =>
        ov.evaluate(
          (q) => document.querySelector(q).getBoundingClientRect().right <= document.documentElement.clientWidth + 1,
          sel,
        );
      assert.ok(await fits('#chart-markers canvas'), "the markers chart fits the editor's width");
      await ov.$eval('#chart-markers', (el) => el.parentElement?.scrollIntoView());
      await s.page.waitForTimeout(300);
      await screenshot(s.page, 'training-0-models-markers');
      await ov.click('#tab-training');
      await ov.waitForSelector('.training-table tbody tr', { timeout: 60_000 });
      for (const id of ['pass', 'categories', 'gain', 'length', 'markers', 'heatmap'])
        await ov.waitForSelector(`#training-${id}-0 canvas`, { timeout: 30_000 });
      const rows: string[][] = await ov.$$eval('.training-table tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
      );
      assert.deepEqual(
        rows.map((r) => r[0]),
        STEPS.map(String),
      );
      rows.forEach((r, i) => {
        const c = [...rl[i].values()].reduce((a, x) => a + x, 0);
        assert.equal(r[4], `${((c / 240) * 100).toFixed(1)}% (${c}/240)`, `accuracy at step ${STEPS[i]}`);
        let sharp = 0;
        let exp = 0;
        for (const q of qids) {
          const gain = Math.max(rl[i].get(q)! - sft[i].get(q)!, 0);
          if (sft[i].get(q)! > 0) sharp += gain;
          else exp += gain;
        }
        assert.ok(
          r[11].startsWith(`${((sharp / (sharp + exp)) * 100).toFixed(1)}% [`),
          `gain share at step ${STEPS[i]}: ${r[11]}`,
        );
        assert.ok(r[11].endsWith(`(gains ${sharp} / ${exp})`), r[11]);
        assert.match(r[2], new RegExp(`^sft · step-${STEPS[i]}$`), 'each step against its own base');
      });
      assert.equal(
        await ov.$eval('#training-lost-0', (el) => el.textContent ?? ''),
        `${lost.length} lost during training`,
      );
      assert.equal(
        await ov.$eval('#training-late-0', (el) => el.textContent ?? ''),
        `${late.length} solved only at late steps`,
      );
      await s.page.waitForTimeout(500);
      await screenshot(s.page, 'training-1-tab');
      await ov.$eval('#training-categories-0', (el) => el.scrollIntoView());
      await s.page.waitForTimeout(300);
      await screenshot(s.page, 'training-1b-categories');
      await ov.$eval('#training-gain-0', (el) => el.scrollIntoView());
      await s.page.waitForTimeout(300);
      await screenshot(s.page, 'training-2-gain-length');
      // lengths and reasoning markers: the caption states the token rule and the within-problem verdicts
      assert.ok(await fits('#training-markers-0 canvas'), "the markers chart fits the editor's width");
      const note = await ov.$eval('#training-markers-0', (el) => el.previousElementSibling?.textContent ?? '');
      assert.match(note, /tokens approximated as pieces/);
      assert.match(note, /Within a problem \(correct − incorrect, over problems with both\): /);
      await ov.$eval('#training-markers-0', (el) => el.parentElement?.scrollIntoView());
      await s.page.waitForTimeout(300);
      await screenshot(s.page, 'training-2b-markers');
      await ov.$eval('#training-heatmap-0', (el) => el.scrollIntoView());
      await s.page.waitForTimeout(300);
      await screenshot(s.page, 'training-3-heatmap');
    } catch (e) {
      await s.fail(e, 'training-1');
    }
  });

  test('clicking a heatmap cell opens that problem at that checkpoint', async () => {
    try {
      const canvas = ov.locator('#training-heatmap-0 canvas');
      const box = await canvas.boundingBox();
      assert.ok(box, 'the heatmap has a canvas');
      // Hover across the canvas until the tooltip names a cell of step 300; click there.
      let hit: { x: number; y: number; problem: string } | undefined;
      for (let y = box.y + 40; y < box.y + box.height && !hit; y += 7) {
        for (let x = box.x + box.width * 0.3; x < box.x + box.width && !hit; x += 18) {
          await s.page.mouse.move(x, y);
          const tip = await ov
            .$eval('#vg-tooltip-element', (el) => (el.classList.contains('visible') ? (el.textContent ?? '') : ''))
            .catch(() => '');
          const m = /problem(\d+)step300c\/n/.exec(tip.replace(/\s+/g, ''));
          if (m) hit = { x, y, problem: m[1] };
        }
      }
      assert.ok(hit, 'a cell of step 300 was found by hovering');
      await s.page.mouse.click(hit.x, hit.y);
      const pv = await webviewWith(s.page, '#stats-table tbody tr', { timeoutMs: 30_000, what: 'the problem view' });
      await waitUntil(
        s.page,
        async () =>
          (await s.page.locator('.tabs-container .tab.active .label-name').textContent())?.includes(
            `Problem ${hit!.problem}`,
          ),
        { what: `the problem view of problem ${hit.problem}` },
      );
      const selected = await pv.$eval('#model-select vscode-option[selected]', (el) => el.textContent ?? '');
      assert.match(selected, /ppo@step-300(?!\d)/, 'the checkpoint of the clicked column is selected');
      await screenshot(s.page, 'training-4-problem-at-step-300');
    } catch (e) {
      await s.fail(e, 'training-2');
    }
  });

  test('tree: "Lost during training" lists those problems; model rows show their step, in step order', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Filter Problems…');
      await answerQuickInput(s.page, { pick: 'Lost during training' });
      const want = [...lost].sort((a, b) => Number(a) - Number(b));
      await waitUntil(
        s.page,
        async () => {
          const top = (await treeRowDetails(s.page, VIEW)).filter((r) => r.level === 1).map((r) => r.label);
          return JSON.stringify(top) === JSON.stringify(want);
        },
        { what: `the tree to list the lost problems ${want.join(', ')}` },
      );
      await expandTreeRow(s.page, VIEW, want[0]);
      // the base and the model in focus (the last checkpoint) first, the other 6 models behind one row
      const shown = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 2);
          return r.length === 3 ? r : undefined;
        },
        { what: 'the base, the model in focus and "6 more models" under the problem' },
      );
      assert.equal(shown[2].label, '6 more models');
      // c/n first, then role and step (trial 10 finding 4)
      assert.match(shown[1].description, new RegExp(`^\\d+/8 · focus · step ${STEPS[STEPS.length - 1]}( · |$)`));
      await expandTreeRow(s.page, VIEW, '6 more models');
      const more = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 3);
          return r.length === 6 ? r : undefined;
        },
        { what: 'the 6 other model rows of the problem' },
      );
      // the earlier checkpoints, together and in step order (100 before 300 before 500, not text order)
      const stepped = more.filter((m) => / · step \d+/.test(m.description));
      assert.deepEqual(
        stepped.map((m) => / · (step \d+)/.exec(m.description)![1]),
        STEPS.slice(0, -1).map((st) => `step ${st}`),
      );
      await screenshot(s.page, 'training-5-tree-lost');
    } catch (e) {
      await s.fail(e, 'training-3');
    }
  });
});
