/**
 * The per-model path summary of `report --paths` on the real rlvr-probe-gsm8k results_2048_batched
 * run (SFT = base, PPO-RLVR = model), against a recomputation in this test from the raw JSONL files
 * (not the index): the share of correct samples whose path is in the base, its denominators, the
 * leave-one-out footing, the base-vs-base baseline, and the Jaccard medians by the other Jaccard
 * implementation (textJaccard, per-problem vocabulary).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathLines } from '../../src/cli/main';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport, buildReportAsync } from '../../src/core/report/index';
import { computationPath, summarize, textJaccard } from '../../src/core/similarity';
import { REAL } from './helpers';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');

interface Line {
  qid: number;
  rollouts: { text: string; correct: boolean }[];
}
const read = (f: string): Line[] =>
  readFileSync(join(RUN, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);

describe('report --paths on rlvr-probe-gsm8k results_2048_batched', {
  skip: !existsSync(RUN) && `missing ${RUN}`,
}, async () => {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, RUN);
  const report = await buildReportAsync(index, { base: 'sft', paths: true, replicates: 400 });
  const sft = read('sft_raw.jsonl');
  const rl = new Map(read('rl_raw.jsonl').map((l) => [l.qid, l]));

  // independent recomputation: key sets per sample, "in base" = some base key set holds every key
  let inBase = 0;
  let withSteps = 0;
  let correct = 0;
  let noStep = 0;
  let loo = 0;
  let problems = 0;
  let noCorrect = 0;
  let bIn = 0;
  let bWith = 0;
  const jac: number[] = [];
  for (const b of sft) {
    const m = rl.get(b.qid)!;
    const baseSets = b.rollouts.map((r) => new Set(computationPath(r.text).keys));
    const n = baseSets.length;
    let pWith = 0;
    let pCorrect = 0;
    for (const r of m.rollouts) {
      jac.push(Math.max(...b.rollouts.map((x) => textJaccard(r.text, x.text))));
      if (!r.correct) continue;
      pCorrect++;
      const keys = computationPath(r.text).keys;
      if (keys.length === 0) {
        noStep++;
        continue;
      }
      pWith++;
      const full = baseSets.filter((s) => keys.every((k) => s.has(k))).length;
      if (full > 0) inBase++;
      loo += full >= 2 ? 1 : full === 1 ? (n - 1) / n : 0;
    }
    b.rollouts.forEach((r, i) => {
      const keys = computationPath(r.text).keys;
      if (!r.correct || keys.length === 0) return;
      bWith++;
      if (baseSets.some((s, j) => j !== i && keys.every((k) => s.has(k)))) bIn++;
    });
    correct += pCorrect;
    withSteps += pWith;
    if (pCorrect === 0) noCorrect++;
    if (pWith > 0) problems++;
  }

  test('one summary: the RL model against the SFT base', () => {
    assert.equal(report.paths?.length, 1);
    const p = report.paths![0];
    assert.match(p.base, /sft/);
    assert.match(p.model, /rlvr-ppo/);
  });

  test('share of correct samples whose path is in the base, with its denominators, equals the recomputation', () => {
    const p = report.paths![0];
    assert.equal(p.correctSamples, correct);
    assert.equal(p.correctSamples, 175); // 175/240 correct RL samples (data/real/README.md)
    assert.equal(p.correctWithoutSteps, noStep);
    assert.equal(p.pathInBase.samples, withSteps);
    assert.equal(p.problems, problems);
    assert.equal(p.leftOut.noCorrectSample, noCorrect);
    assert.equal(p.leftOut.noBaseSamples, 0);
    assert.equal(p.pathInBase.value, inBase / withSteps);
    assert.ok(Math.abs(p.pathInBaseLeaveOneOut! - loo / withSteps) < 1e-12);
    assert.equal(p.baselinePathInBase.value, bIn / bWith);
    assert.equal(p.baselinePathInBase.samples, bWith);
    const v = p.pathInBase.value!;
    assert.ok(p.pathInBase.ciLow! <= v && v <= p.pathInBase.ciHigh!, JSON.stringify(p.pathInBase));
    assert.ok(p.pathInBase.ciHigh! - p.pathInBase.ciLow! > 0.05, 'a 29-problem interval is not a point');
  });

  test('Jaccard median (model vs base, all n) equals the one by textJaccard', () => {
    const t = report.paths![0].text!;
    assert.equal(t.modelVsBase.samples, 240);
    assert.equal(t.modelVsBase.jaccard!.toFixed(6), summarize(jac).median!.toFixed(6));
    // equal footing can only lower the nearest similarity
    assert.ok(t.modelVsBaseLeaveOneOut.jaccard! <= t.modelVsBase.jaccard!);
    // the reading: RL-vs-RL above base-vs-base
    assert.ok(t.modelVsModel.jaccard! > t.baseVsBase.jaccard!);
    assert.equal(t.samplesLeftOut.base + t.samplesLeftOut.model, 0);
  });

  test('the CLI table prints the share, its interval and the denominator', () => {
    const p = report.paths![0];
    const text = pathLines(report.paths!).join('\n');
    const pct = (x: number) => (100 * x).toFixed(1);
    assert.ok(text.includes(`${pct(p.pathInBase.value!)} [${pct(p.pathInBase.ciLow!)},${pct(p.pathInBase.ciHigh!)}]`));
    assert.ok(
      text.includes(
        `over ${p.problems} problems and ${withSteps} of ${correct} correct samples (${noStep} without a step left out)`,
      ),
      text,
    );
  });

  test('without --paths the report has no paths section', () => {
    assert.equal(buildReport(index, { base: 'sft', replicates: 100 }).paths, undefined);
  });
});
