/**
 * Reward-model evaluation metrics (src/core/metrics/rewardModels.ts) on small inputs whose values are
 * worked out by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  averageRanks,
  evaluateRewardModels,
  kendallTauB,
  reduceSteps,
  spearman,
  type RewardProblem,
} from '../../src/core/metrics';

const close = (a: number | null, b: number, eps = 1e-12) =>
  assert.ok(a !== null && Math.abs(a - b) <= eps, `${String(a)} != ${b}`);

describe('rank correlations', () => {
  test('Spearman without ties is 1 - 6 sum d^2 / (n (n^2 - 1))', () => {
    // ranks differ by one swap: sum d^2 = 2, 1 - 12/60 = 0.8
    close(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 0.8);
    close(spearman([1, 2, 3], [30, 20, 10]), -1);
  });
  test('Kendall tau-b counts concordant and discordant pairs, correcting for ties', () => {
    // 6 pairs, one discordant: (5 - 1) / 6
    close(kendallTauB([1, 2, 3, 4], [1, 3, 2, 4]), 4 / 6);
    // x ties (1,2), y ties (2,3); 4 concordant, 0 discordant: 4 / sqrt((6-1)(6-1)) = 0.8
    close(kendallTauB([1, 1, 2, 3], [1, 2, 2, 3]), 0.8);
    // tau-a would give 4/6 here: tau-b is what is computed
    assert.notEqual(kendallTauB([1, 1, 2, 3], [1, 2, 2, 3]), 4 / 6);
  });
  test('ties get mid-ranks; values within 1e-12 tie', () => {
    assert.deepEqual(averageRanks([10, 20, 20, 30]), [1, 2.5, 2.5, 4]);
    assert.deepEqual(averageRanks([0.3, 0.1 + 0.2]), [1.5, 1.5]);
  });
  test('no spread on one side, or fewer than two points: null', () => {
    assert.equal(spearman([1, 2, 3], [5, 5, 5]), null);
    assert.equal(kendallTauB([1, 2, 3], [5, 5, 5]), null);
    assert.equal(spearman([1], [2]), null);
    assert.throws(() => spearman([1, 2], [1]), RangeError);
    assert.throws(() => kendallTauB([1, Number.NaN], [1, 2]), RangeError);
  });
});

describe('step scores', () => {
  test('min (default), last, product', () => {
    assert.equal(reduceSteps([0.9, 0.2, 0.7], 'min'), 0.2);
    assert.equal(reduceSteps([0.9, 0.2, 0.7], 'last'), 0.7);
    close(reduceSteps([0.9, 0.2, 0.7], 'product'), 0.126);
    assert.throws(() => reduceSteps([], 'min'), RangeError);
  });
});

/** Problems of three samples, the first correct; scorer scores per sample. */
function problem(
  key: string,
  correct: boolean[],
  scores: Record<string, (number | null)[]>,
  level?: string,
): RewardProblem {
  return { key, correct, scores: new Map(Object.entries(scores)), strata: { level: level ?? null } };
}

describe('evaluateRewardModels', () => {
  // p1: correct sample 0; A ranks it first, B ties it with one incorrect, C ranks it last.
  // p2: correct sample 1.
  const problems = [
    problem('p1', [true, false, false], { A: [3, 2, 1], B: [2, 2, 1], C: [1, 2, 3] }, '1'),
    problem('p2', [false, true, false], { A: [1, 3, 2], B: [1, 2, 3], C: [3, 2, 1] }, '2'),
  ];
  const ev = evaluateRewardModels(problems, { replicates: 200, seed: 7, strata: ['level'] });
  const by = (name: string) => ev.scorers.find((s) => s.name === name)!;

  test('pairwise accuracy: all (correct, incorrect) pairs, ties 1/2', () => {
    // A: p1 2/2 pairs won, p2 2/2 -> 1. B: p1 win + tie = 1.5, p2 1 of 2 -> (1.5 + 1) / 4. C: p1 0, p2 1 -> 1/4
    close(by('A').pairwiseAccuracy, 1);
    close(by('B').pairwiseAccuracy, 2.5 / 4);
    assert.equal(by('B').ties, 1);
    close(by('C').pairwiseAccuracy, 1 / 4);
    assert.equal(by('C').pairs, 4);
  });

  test('best-of-N by the exact rank formula with ties averaged; pass@N and regret on the same problems', () => {
    // n = 3, N = 2: rank probabilities C(3-j,1)/C(3,2) = 2/3, 1/3, 0.
    // A: correct first in both -> 2/3. B: p1 correct tied at ranks 1-2 -> (2/3+1/3)/2 = 1/2; p2 second -> 1/3.
    // C: p1 last -> 0; p2 second -> 1/3.
    assert.deepEqual(ev.ns, [1, 2, 3]);
    close(by('A').bestOfN[1].value, 2 / 3);
    close(by('B').bestOfN[1].value, (1 / 2 + 1 / 3) / 2);
    close(by('C').bestOfN[1].value, 1 / 6);
    // pass@2 with 1 correct of 3: 1 - C(2,2)/C(3,2) = 2/3; regret = pass@2 - best-of-2
    close(by('C').bestOfN[1].passAtN, 2 / 3);
    close(by('C').bestOfN[1].regret, 2 / 3 - 1 / 6);
    // N = 1 is pass@1 = 1/3 for everyone; N = n picks the top score outright
    for (const s of ev.scorers) close(s.bestOfN[0].value, 1 / 3);
    // B at N = n: p1 correct tied at the top with one incorrect -> 1/2, p2 correct second -> 0
    close(by('B').bestOfN[2].value, 1 / 4);
  });

  test('correlations across scorers per N, null at N = 1, bootstrap seeded', () => {
    const c1 = ev.correlations[0];
    assert.equal(c1.spearman, null);
    assert.equal(c1.kendall, null);
    // accuracy A > B > C and best-of-2 A > B > C: perfectly concordant
    close(ev.correlations[1].spearman, 1);
    close(ev.correlations[1].kendall, 1);
    const again = evaluateRewardModels(problems, { replicates: 200, seed: 7 });
    assert.deepEqual(again.correlations, ev.correlations);
    const c2 = ev.correlations[1];
    assert.ok(c2.ciLow !== null && c2.ciHigh !== null && c2.ciLow <= c2.ciHigh);
    assert.ok(c2.replicates > 0 && c2.replicates <= 200);
  });

  test('a problem some scorer did not score completely leaves the common set, counted per scorer', () => {
    const withGap = [...problems, problem('p3', [true, false, false], { A: [1, 2, 3], B: [1, null, 3] })];
    const e = evaluateRewardModels(withGap, { replicates: 10 });
    assert.equal(e.problems, 2);
    // scored on some samples (B lacks one): partly scored (trial 12 finding 20)
    assert.deepEqual(e.leftOut, { noSamples: 0, noGradedSample: 0, incompleteScores: 1, partlyScored: 1 });
    assert.equal(e.total, 3);
    // B has a null, C has no scores at all for p3
    assert.deepEqual(e.incompleteByScorer, { A: 0, B: 1, C: 1 });
    close(e.scorers.find((s) => s.name === 'A')!.pairwiseAccuracy, 1);
  });

  test('strata: figures per value, problems without one counted as unmatched', () => {
    assert.deepEqual(
      ev.strata.map((s) => [s.by, s.value, s.problems]),
      [
        ['level', '1', 1],
        ['level', '2', 1],
      ],
    );
    const e = evaluateRewardModels([...problems, problem('p4', [true, false], { A: [1, 0], B: [1, 0], C: [0, 1] })], {
      strata: ['level'],
      replicates: 10,
    });
    assert.equal(e.unmatched.level, 1);
    close(e.strata[0].scorers.find((s) => s.name === 'B')!.pairwiseAccuracy, 0.75);
  });

  test('best-of-N above a problem n is missing there, not padded', () => {
    const e = evaluateRewardModels(
      [...problems, problem('short', [true, false], { A: [2, 1], B: [1, 2], C: [1, 1] })],
      { replicates: 10 },
    );
    const a3 = e.scorers.find((s) => s.name === 'A')!.bestOfN.find((b) => b.n === 3)!;
    assert.equal(a3.problems, 2);
    assert.equal(a3.missing, 1);
    assert.equal(a3.belowN, 1);
  });

  test('problems without samples or without a graded sample are counted by reason; problems + missing = total', () => {
    const e = evaluateRewardModels(
      [
        ...problems,
        // a record with no samples (code: []), and one whose 3 samples have no verdict
        { key: 'empty', correct: [], samples: 0, scores: new Map() },
        { key: 'ungraded', correct: [], samples: 3, scores: new Map() },
        problem('gap', [true, false, false], { A: [1, 2, 3], B: [1, 2, 3] }),
        problem('short', [true, false], { A: [2, 1], B: [1, 2], C: [1, 1] }),
      ],
      { replicates: 10 },
    );
    assert.equal(e.total, 6);
    // common set: the 2 base problems (n = 3) and 'short' (n = 2)
    assert.equal(e.problems, 3);
    // 'gap' has A's and B's scores, none of C's: partly scored (trial 12 finding 20)
    assert.deepEqual(e.leftOut, { noSamples: 1, noGradedSample: 1, incompleteScores: 1, partlyScored: 1 });
    for (const s of e.scorers)
      for (const b of s.bestOfN) {
        assert.equal(b.problems + b.missing, 6, `${s.name} N=${b.n}`);
        // at N = 3 'short' (n = 2) is also out
        assert.equal(b.belowN, b.n === 3 ? 1 : 0);
      }
  });
});
