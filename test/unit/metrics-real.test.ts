/**
 * Metrics on real, third-party results folders (read in place from ../shared/data/real, never copied).
 * Run with cwd = the repository root. Expected values were computed independently (Python, exact
 * fractions and brute-force subset enumeration) from the same files.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  accuracyHistogram,
  bestOfKCurve,
  categorize,
  categoryCounts,
  compareFigures,
  coverage,
  crossoverK,
  datasetPairwiseAccuracy,
  datasetPassAtK,
  majAtK,
  majAtKCurve,
  pairedBootstrapDiff,
  passAtKCurve,
  ProblemCategory,
  ProblemPair,
  samplingEfficiencyGap,
} from '../../src/core/metrics';

const REAL = path.resolve(process.cwd(), '../shared/data/real');
const PROBE = path.join(REAL, 'rlvr-probe-gsm8k/results_2048_batched');
const QWEN = path.join(REAL, 'qwen25-math-eval-example/math_cot_100.jsonl');
const haveProbe = fs.existsSync(PROBE);
const haveQwen = fs.existsSync(QWEN);

interface Rollout {
  pred_token: string | null;
  correct: boolean;
}
interface ProbeLine {
  qid: number;
  n_correct: number;
  n_rollouts: number;
  gold: string;
  rollouts: Rollout[];
}

function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** per_question.csv as records keyed by header (csv-parse). */
function readCsv(file: string): Record<string, string>[] {
  return parse(fs.readFileSync(file, 'utf8'), { columns: true, bom: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
}

/** Our category -> the rlvr-probe CSV's category (its `unchanged` also holds both-unsolved problems). */
const TO_PROBE: Record<ProblemCategory, string> = {
  sharpening: 'sharpening',
  expansion: 'observed_expansion',
  regression: 'regression',
  unchanged: 'unchanged',
  unsolved: 'unchanged',
};

describe('rlvr-probe-gsm8k results_2048_batched (SFT = base model, PPO-RLVR = model)', { skip: !haveProbe }, () => {
  const sft = haveProbe ? readJsonl<ProbeLine>(path.join(PROBE, 'sft_raw.jsonl')) : [];
  const rl = haveProbe ? readJsonl<ProbeLine>(path.join(PROBE, 'rl_raw.jsonl')) : [];
  const csv = haveProbe ? readCsv(path.join(PROBE, 'per_question.csv')) : [];
  const counts = (l: ProbeLine) => ({ n: l.rollouts.length, c: l.rollouts.filter((r) => r.correct).length });
  const rlByQid = new Map(rl.map((l) => [l.qid, l]));
  const rawPairs: ProblemPair[] = sft.map((l) => ({
    problemKey: `gsm8k/${l.qid}`,
    base: counts(l),
    model: counts(rlByQid.get(l.qid) as ProbeLine),
  }));
  const csvPairs: ProblemPair[] = csv.map((r) => ({
    problemKey: `gsm8k/${r.qid}`,
    base: { n: Number(r.k), c: Number(r.c_sft) },
    model: { n: Number(r.k), c: Number(r.c_rl) },
  }));

  test('raw rollouts: 30 problems x 8, 133 and 175 correct samples', () => {
    assert.equal(rawPairs.length, 30);
    assert.ok(rawPairs.every((p) => p.base.n === 8 && p.model.n === 8));
    assert.equal(
      rawPairs.reduce((s, p) => s + p.base.c, 0),
      133,
    );
    assert.equal(
      rawPairs.reduce((s, p) => s + p.model.c, 0),
      175,
    );
  });

  test('per_question.csv categories are reproduced from its own counts (our unsolved maps to its unchanged)', () => {
    assert.equal(csvPairs.length, 30);
    csv.forEach((row, i) => {
      const ours = categorize(csvPairs[i].base, csvPairs[i].model);
      assert.equal(TO_PROBE[ours], row.category, `qid ${row.qid}`);
    });
    assert.deepEqual(categoryCounts(csvPairs), {
      sharpening: 14,
      expansion: 1,
      regression: 3,
      unchanged: 9,
      unsolved: 3, // qids 13, 24, 26: the CSV's "unchanged" 12 = 9 + 3
    });
    assert.deepEqual(coverage(csvPairs), { baseOnly: 0, modelOnly: 1, both: 26, neither: 3 });
  });

  test('recomputed from raw rollouts, the CSV is stale on qids 13 and 24', () => {
    const differing = rawPairs
      .map((p, i) => ({ p, row: csv[i] }))
      .filter(({ p, row }) => p.base.c !== Number(row.c_sft) || p.model.c !== Number(row.c_rl))
      .map(({ p }) => [p.problemKey, p.base.c, p.model.c]);
    assert.deepEqual(differing, [
      ['gsm8k/13', 3, 2],
      ['gsm8k/24', 2, 5],
    ]);
    assert.deepEqual(categoryCounts(rawPairs), {
      sharpening: 15,
      expansion: 1,
      regression: 4,
      unchanged: 9,
      unsolved: 1,
    });
    assert.deepEqual(coverage(rawPairs), { baseOnly: 0, modelOnly: 1, both: 28, neither: 1 });
  });

  test('n_correct field agrees with the per-rollout verdicts', () => {
    for (const l of [...sft, ...rl]) assert.equal(l.n_correct, counts(l).c, `qid ${l.qid}`);
  });

  test('pass@k curves from raw rollouts (exact fractions)', () => {
    const base = passAtKCurve(
      rawPairs.map((p) => p.base),
      [1, 2, 4, 8],
    ).map((p) => p.value as number);
    const model = passAtKCurve(
      rawPairs.map((p) => p.model),
      [1, 2, 4, 8],
    ).map((p) => p.value as number);
    const expBase = [133 / 240, 76 / 105, 603 / 700, 14 / 15];
    const expModel = [35 / 48, 239 / 280, 323 / 350, 29 / 30];
    for (const [i, v] of expBase.entries()) assert.ok(Math.abs(base[i] - v) < 1e-12, `base k index ${i}`);
    for (const [i, v] of expModel.entries()) assert.ok(Math.abs(model[i] - v) < 1e-12, `model k index ${i}`);
    assert.equal(
      datasetPassAtK(
        rawPairs.map((p) => p.base),
        16,
      ).value,
      null,
    );
  });

  test('accuracy histograms of c/8 per problem', () => {
    assert.deepEqual(
      accuracyHistogram(rawPairs.map((p) => p.base)).bins.map((b) => b.count),
      [2, 0, 2, 3, 7, 1, 0, 3, 4, 3, 0, 5],
    );
    assert.deepEqual(
      accuracyHistogram(rawPairs.map((p) => p.model)).bins.map((b) => b.count),
      [1, 0, 2, 1, 1, 2, 0, 4, 4, 4, 0, 11],
    );
  });

  test('no crossover up to k=8: the RL model leads at every k', () => {
    // pass@8: RL 29/30, SFT 28/30: different maxima, so no saturation either
    assert.deepEqual(crossoverK(rawPairs), {
      k: null,
      leaderAtK1: 'model',
      kMax: 8,
      problemsAtK: 0,
      saturationK: null,
      kind: null,
      aheadK: null,
    });
  });

  test('sampling-efficiency gap: base pass@8 - RL pass@1 = 14/15 - 35/48 = 49/240', () => {
    const g = samplingEfficiencyGap(rawPairs);
    assert.equal(g.k, 8);
    assert.ok(Math.abs((g.gap as number) - 49 / 240) < 1e-12);
  });

  test('paired bootstrap of the RL - SFT difference at k=1: 42/240, interval excludes 0', () => {
    const [d] = pairedBootstrapDiff(
      rawPairs.map((p) => p.base),
      rawPairs.map((p) => p.model),
      [1, 8],
      { seed: 42 },
    );
    assert.ok(Math.abs((d.diff as number) - 42 / 240) < 1e-12);
    assert.ok((d.ciLow as number) > 0 && (d.ciLow as number) < d.diff!);
    assert.ok((d.ciHigh as number) > d.diff! && (d.ciHigh as number) < 0.35);
  });

  test("audit: the folder's summary.json disagrees with its raw rollouts", () => {
    const summary = JSON.parse(fs.readFileSync(path.join(PROBE, 'summary.json'), 'utf8')) as {
      metrics: Record<string, number>;
    };
    const s = summary.metrics;
    const cats = categoryCounts(rawPairs);
    const recomputed: Record<string, number> = {
      n_questions: rawPairs.length,
      sft_sample_accuracy: datasetPassAtK(
        rawPairs.map((p) => p.base),
        1,
      ).value as number,
      rl_sample_accuracy: datasetPassAtK(
        rawPairs.map((p) => p.model),
        1,
      ).value as number,
      sft_pass_at_k: datasetPassAtK(
        rawPairs.map((p) => p.base),
        8,
      ).value as number,
      rl_pass_at_k: datasetPassAtK(
        rawPairs.map((p) => p.model),
        8,
      ).value as number,
      sharpening_questions: cats.sharpening,
      observed_expansion_questions: cats.expansion,
      regression_questions: cats.regression,
      unchanged_questions: cats.unchanged + cats.unsolved,
    };
    const storedSubset = Object.fromEntries(Object.keys(recomputed).map((k) => [k, s[k]]));
    const diffs = compareFigures(storedSubset, recomputed);
    assert.deepEqual(
      diffs.map((d) => d.metric),
      [
        'regression_questions',
        'rl_pass_at_k',
        'rl_sample_accuracy',
        'sft_pass_at_k',
        'sft_sample_accuracy',
        'sharpening_questions',
        'unchanged_questions',
      ],
    );
    const acc = diffs.find((d) => d.metric === 'sft_sample_accuracy');
    assert.deepEqual(acc, { metric: 'sft_sample_accuracy', stored: 0.5333333333333333, recomputed: 133 / 240 });
  });

  test('maj@8 on extracted answers: qid 13 both wrong, qid 24 RL right (normalized \\$15,\\!400 votes)', () => {
    const votes = (l: ProbeLine) => l.rollouts.map((r) => ({ answer: r.pred_token, correct: r.correct }));
    const s13 = sft.find((l) => l.qid === 13) as ProbeLine;
    const r13 = rlByQid.get(13) as ProbeLine;
    const s24 = sft.find((l) => l.qid === 24) as ProbeLine;
    const r24 = rlByQid.get(24) as ProbeLine;
    // qid 13 (gold 45000): SFT votes 22500 x4 (3 as "\$22,\!500"), 45000 x3, 20000 x1
    assert.equal(majAtK(votes(s13), 8), 0);
    assert.equal(majAtK(votes(r13), 8), 0);
    // qid 24 (gold 15400): RL votes 15400 x5, 20400 x3 (one as "20,\!400")
    assert.equal(majAtK(votes(r24), 8), 1);
    // SFT: 10400 x3, 15400 x2 -> 10400 wins
    assert.equal(majAtK(votes(s24), 8), 0);
  });
});

describe('qwen25-math-eval-example (reward-model scores, 100 MATH problems x 8)', { skip: !haveQwen }, () => {
  interface QwenLine {
    pred: string[];
    score: boolean[];
    pred_score: number[][];
  }
  const rows = haveQwen ? readJsonl<QwenLine>(QWEN) : [];
  const scored = rows.map((r) => r.pred_score.map((s, i) => ({ score: s[0], correct: r.score[i] })));

  test('best-of-k equals brute-force subset enumeration (Python, exact fractions)', () => {
    const curve = bestOfKCurve(scored, [1, 2, 4, 8]);
    const expected = [91 / 100, 1299 / 1400, 6553 / 7000, 47 / 50];
    for (const [i, p] of curve.entries())
      assert.ok(Math.abs((p.value as number) - expected[i]) < 1e-12, `k=${p.k}: ${p.value}`);
    // the pass@k oracle bounds best-of-k from above
    for (const p of curve) assert.ok((p.passAtK as number) >= (p.value as number) - 1e-12);
    assert.equal(curve[0].passAtK, 0.91);
  });

  test('reward model pairwise accuracy: 10 problems with pairs, 128 pairs, micro 0.890625, macro 0.9', () => {
    const r = datasetPairwiseAccuracy(scored);
    assert.equal(r.problems, 10);
    assert.equal(r.skipped, 90);
    assert.equal(r.pairs, 128);
    assert.equal(r.micro, 0.890625);
    assert.ok(Math.abs((r.macro as number) - 0.9) < 1e-12);
  });

  test('maj@k on the pred answers equals brute-force enumeration', () => {
    const problems = rows.map((r) => r.pred.map((a, i) => ({ answer: a, correct: r.score[i] })));
    const curve = majAtKCurve(problems, [1, 2, 4, 8], { normalize: (a) => (a === null || a === '' ? null : a) });
    const expected = [91 / 100, 91 / 100, 25763 / 28000, 37 / 40];
    curve.forEach((p, i) => {
      assert.ok(Math.abs((p.value as number) - expected[i]) < 1e-12, `k=${p.k}: ${p.value}`);
    });
  });
});
