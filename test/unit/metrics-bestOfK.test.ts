import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  bestOfK,
  bestOfKCurve,
  bestRankProbabilities,
  datasetBestOfK,
  datasetPairwiseAccuracy,
  mulberry32,
  pairwiseAccuracy,
  ScoredSample,
} from '../../src/core/metrics';
import { problemScorerFigures } from '../../src/core/metrics/bestOfK';
import { subsets } from './helpers';

/** Brute force: mean over k-subsets of the correctness of the top-scored sample (ties: share). */
function bruteBestOfK(samples: ScoredSample[], k: number): number {
  let total = 0;
  let count = 0;
  for (const sub of subsets(samples.length, k)) {
    const top = Math.max(...sub.map((i) => samples[i].score));
    const tied = sub.filter((i) => samples[i].score === top);
    total += tied.filter((i) => samples[i].correct).length / tied.length;
    count++;
  }
  return total / count;
}

describe('bestOfK (exact expectation over k-subsets)', () => {
  test('hand-computed: scores 0.9 (wrong), 0.8 (right), 0.1 (right)', () => {
    const s = [
      { score: 0.9, correct: false },
      { score: 0.8, correct: true },
      { score: 0.1, correct: true },
    ];
    assert.ok(Math.abs((bestOfK(s, 1) as number) - 2 / 3) < 1e-15);
    // subsets {1,2}: wrong, {1,3}: wrong, {2,3}: right
    assert.ok(Math.abs((bestOfK(s, 2) as number) - 1 / 3) < 1e-15);
    assert.equal(bestOfK(s, 3), 0);
    assert.equal(bestOfK(s, 4), null);
  });

  test('matches brute-force enumeration on random small cases (with ties)', () => {
    const r = mulberry32(2024);
    for (let t = 0; t < 200; t++) {
      const n = 1 + Math.floor(r() * 10);
      const samples = Array.from({ length: n }, () => ({
        score: Math.floor(r() * 4), // few distinct values: many ties
        correct: r() < 0.5,
      }));
      for (let k = 1; k <= n; k++) {
        const got = bestOfK(samples, k) as number;
        assert.ok(Math.abs(got - bruteBestOfK(samples, k)) < 1e-12, `case ${t} n=${n} k=${k}`);
      }
    }
  });

  test('tie policy: all-equal scores give c/n for every k (random tie-break)', () => {
    const s = [true, false, false, false].map((correct) => ({ score: 1, correct }));
    for (const k of [1, 2, 3, 4]) assert.ok(Math.abs((bestOfK(s, k) as number) - 0.25) < 1e-15);
  });

  test('n=2048 is stable: rank probabilities sum to 1, top rank has k/n', () => {
    const p = bestRankProbabilities(2048, 1024);
    let sum = 0;
    for (const v of p) sum += v;
    assert.ok(Math.abs(sum - 1) < 1e-12);
    assert.equal(p[0], 0.5);
    assert.ok(Math.abs(p[1] - (0.5 * 1024) / 2047) < 1e-16);
    assert.equal(p[1025], 0); // rank 1026 can never be the best of 1024
    const samples = Array.from({ length: 2048 }, (_, i) => ({ score: -i, correct: i === 0 }));
    assert.equal(bestOfK(samples, 1024), 0.5);
    const second = Array.from({ length: 2048 }, (_, i) => ({ score: -i, correct: i === 1 }));
    assert.ok(Math.abs((bestOfK(second, 1024) as number) - (0.5 * 1024) / 2047) < 1e-15);
  });

  test('NaN scores and bad k throw', () => {
    assert.throws(() => bestOfK([{ score: Number.NaN, correct: true }], 1), /score must be a number/);
    assert.throws(() => bestOfK([{ score: 1, correct: true }], 0), RangeError);
  });
});

describe('dataset best-of-k', () => {
  test('mean over problems with n >= k, with the pass@k oracle on the same problems', () => {
    const problems = [
      [
        { score: 0.9, correct: false },
        { score: 0.8, correct: true },
        { score: 0.1, correct: true },
      ],
      [{ score: 0.5, correct: true }],
    ];
    const r = datasetBestOfK(problems, 2);
    assert.equal(r.problems, 1);
    assert.equal(r.missing, 1);
    assert.ok(Math.abs((r.value as number) - 1 / 3) < 1e-15);
    assert.equal(r.passAtK, 1);
    const curve = bestOfKCurve(problems, [1, 2, 3]);
    assert.ok(Math.abs((curve[0].value as number) - (2 / 3 + 1) / 2) < 1e-15);
    assert.equal(curve[2].value, 0);
  });
});

describe('pairwiseAccuracy', () => {
  test('hand-computed with a tie: correct {3,1}, incorrect {2,1} -> (2 + 0.5)/4', () => {
    const s = [
      { score: 3, correct: true },
      { score: 1, correct: true },
      { score: 2, correct: false },
      { score: 1, correct: false },
    ];
    assert.deepEqual(pairwiseAccuracy(s), { value: 0.625, pairs: 4, wins: 2, ties: 1 });
  });
  test('no (correct, incorrect) pair gives null', () => {
    assert.equal(pairwiseAccuracy([{ score: 1, correct: true }]).value, null);
    assert.equal(pairwiseAccuracy([]).pairs, 0);
  });
  test('matches the O(n^2) definition on random cases', () => {
    const r = mulberry32(5);
    for (let t = 0; t < 100; t++) {
      const s = Array.from({ length: 1 + Math.floor(r() * 30) }, () => ({
        score: Math.floor(r() * 5),
        correct: r() < 0.4,
      }));
      let credit = 0;
      let pairs = 0;
      for (const a of s) {
        for (const b of s) {
          if (a.correct && !b.correct) {
            pairs++;
            credit += a.score > b.score ? 1 : a.score === b.score ? 0.5 : 0;
          }
        }
      }
      const got = pairwiseAccuracy(s);
      assert.equal(got.pairs, pairs);
      assert.equal(got.value, pairs ? credit / pairs : null);
    }
  });
  test('0 and -0 are one score, -Infinity and Infinity the lowest and highest (one ranking for both figures)', () => {
    const s = [
      { score: 0, correct: true },
      { score: -0, correct: false },
      { score: Number.NEGATIVE_INFINITY, correct: false },
      { score: Number.POSITIVE_INFINITY, correct: false },
      { score: Number.NEGATIVE_INFINITY, correct: true },
    ];
    // correct 0: ties -0, beats -Infinity, loses to Infinity; correct -Infinity: ties -Infinity, loses to the rest
    assert.deepEqual(pairwiseAccuracy(s), { value: 2 / 6, pairs: 6, wins: 1, ties: 2 });
    const f = problemScorerFigures(
      s.map((x) => x.score),
      s.map((x) => x.correct),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(f.pairwise, pairwiseAccuracy(s));
    for (const [j, k] of [1, 2, 3, 4, 5].entries())
      assert.ok(Math.abs((f.bestOfK[j] ?? NaN) - bruteBestOfK(s, k)) < 1e-12);
    assert.equal(f.bestOfK[5], null);
  });
  test('dataset: macro vs micro', () => {
    const p1 = [
      { score: 3, correct: true },
      { score: 1, correct: false },
    ]; // 1 pair, accuracy 1
    const p2 = [
      { score: 0, correct: true },
      { score: 1, correct: false },
      { score: 2, correct: false },
      { score: 0, correct: true },
    ]; // 4 pairs, accuracy 0
    const p3 = [{ score: 0, correct: true }];
    assert.deepEqual(datasetPairwiseAccuracy([p1, p2, p3]), {
      macro: 0.5,
      micro: 0.2,
      problems: 2,
      skipped: 1,
      pairs: 5,
    });
  });
});
