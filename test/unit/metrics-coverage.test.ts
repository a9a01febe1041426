import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  accuracyHistogram,
  categorize,
  categoryCounts,
  coverage,
  crossoverK,
  ProblemPair,
  samplingEfficiencyGap,
} from '../../src/core/metrics';

const pair = (key: string, bn: number, bc: number, mn: number, mc: number): ProblemPair => ({
  problemKey: key,
  base: { n: bn, c: bc },
  model: { n: mn, c: mc },
});

describe('coverage', () => {
  test('counts the four cells of the solvable-set comparison', () => {
    const pairs = [
      pair('a', 8, 1, 8, 0),
      pair('b', 8, 0, 8, 2),
      pair('c', 8, 3, 8, 8),
      pair('d', 8, 0, 8, 0),
      pair('e', 0, 0, 4, 1),
      pair('f', 8, 8, 8, 1),
    ];
    assert.deepEqual(coverage(pairs), { baseOnly: 1, modelOnly: 2, both: 2, neither: 1 });
    assert.deepEqual(coverage([]), { baseOnly: 0, modelOnly: 0, both: 0, neither: 0 });
  });
  test('invalid counts throw', () => {
    assert.throws(() => coverage([pair('x', 2, 3, 2, 0)]), RangeError);
  });
});

describe('crossoverK', () => {
  test('model leads at k=1, base reaches it at k=2', () => {
    // A: base 1/8, model 0/8; B: base 4/8, model 8/8. pass@1: base 5/16, model 1/2.
    // k=2: base (2/8 + 1 - C(4,2)/C(8,2))/2 = (0.25 + 22/28)/2 = 0.5179 >= 0.5
    const pairs = [pair('A', 8, 1, 8, 0), pair('B', 8, 4, 8, 8)];
    assert.deepEqual(crossoverK(pairs), {
      k: 2,
      leaderAtK1: 'model',
      kMax: 8,
      problemsAtK: 2,
      saturationK: null,
      kind: 'ahead',
      aheadK: 2,
    });
  });
  test('roles swapped: base leads, model catches up at k=2', () => {
    const pairs = [pair('A', 8, 0, 8, 1), pair('B', 8, 8, 8, 4)];
    assert.deepEqual(crossoverK(pairs), {
      k: 2,
      leaderAtK1: 'base',
      kMax: 8,
      problemsAtK: 2,
      saturationK: null,
      kind: 'ahead',
      aheadK: 2,
    });
  });
  test('level only at saturation is no crossover: base 1/2 vs model 2/2 are both 1 at k=2', () => {
    assert.deepEqual(crossoverK([pair('A', 2, 1, 2, 2)]), {
      k: null,
      leaderAtK1: 'model',
      kMax: 2,
      problemsAtK: 0,
      saturationK: 2,
      kind: null,
      aheadK: null,
    });
  });
  test('different maxima never saturate; identical mixtures tie at k=1 and saturate together', () => {
    // A base 1/4 model 3/4, B base 3/4 model 0/4: k=1: base 0.5, model 0.375 -> base leads; k=2: base
    // (1/2 + 1)/2 = 0.75, model (1 + 0)/2 = 0.5; the model's maximum is 1/2, the base's 1: no meeting, no saturation.
    assert.deepEqual(crossoverK([pair('A', 4, 1, 4, 3), pair('B', 4, 3, 4, 0)]), {
      k: null,
      leaderAtK1: 'base',
      kMax: 4,
      problemsAtK: 0,
      saturationK: null,
      kind: null,
      aheadK: null,
    });
    // A: base 1/4 model 2/4, B: base 2/4 model 1/4 -> pass@1 tie; k=2: both (1/2 + 5/6)/2; k=3: both
    // (3/4 + 1)/2 = 0.875 < 1; k=4: both 1, the common maximum: saturation from k = 4.
    assert.deepEqual(crossoverK([pair('A', 4, 1, 4, 2), pair('B', 4, 2, 4, 1)]), {
      k: null,
      leaderAtK1: 'tie',
      kMax: 4,
      problemsAtK: 0,
      saturationK: 4,
      kind: null,
      aheadK: null,
    });
  });
  test('a crossover later than the first few k is found at the right integer k', () => {
    // model: 4/16 on each of two problems; base: 16/16 on one, 0/16 on the other.
    // pass@1: model 0.25, base 0.5 -> base leads. model pass@k = 1 - C(12,k)/C(16,k), needs >= 0.5:
    // k=2: 1 - 66/120 = 0.45; k=3: 1 - 220/560 = 0.607 -> crossover at k=3
    assert.deepEqual(crossoverK([pair('A', 16, 16, 16, 4), pair('B', 16, 0, 16, 4)]), {
      k: 3,
      leaderAtK1: 'base',
      kMax: 16,
      problemsAtK: 2,
      saturationK: null,
      kind: 'ahead',
      aheadK: 3,
    });
  });
  test('tie at k=1 gives null; a leader that stays ahead gives null', () => {
    // 3/8 against 3/8: identical curves, both 1 from k = 8 - 3 + 1 = 6
    assert.deepEqual(crossoverK([pair('A', 8, 3, 8, 3)]), {
      k: null,
      leaderAtK1: 'tie',
      kMax: 8,
      problemsAtK: 0,
      saturationK: 6,
      kind: null,
      aheadK: null,
    });
    assert.deepEqual(crossoverK([pair('A', 8, 1, 8, 5), pair('B', 8, 0, 8, 2)]), {
      k: null,
      leaderAtK1: 'model',
      kMax: 8,
      problemsAtK: 0,
      saturationK: null,
      kind: null,
      aheadK: null,
    });
    assert.deepEqual(crossoverK([]), {
      k: null,
      leaderAtK1: 'tie',
      kMax: 0,
      problemsAtK: 0,
      saturationK: null,
      kind: null,
      aheadK: null,
    });
  });
  test('ragged n: the search stops at the smallest n, so every k is over the same problems', () => {
    // C's min n is 2, so kMax = 2 (trial 3 finding 2: beyond it C would drop out and the problem set change).
    // k=1: base (1/8 + 4/8 + 1/2)/3 = 0.375, model (0 + 1 + 0)/3 = 0.333 -> base leads.
    // k=2: base (1 - 21/28 + 1 - 6/28 + 1)/3 = 0.679, model (0 + 1 + 0)/3 = 0.333 -> not reached.
    const pairs = [pair('A', 8, 1, 8, 0), pair('B', 8, 4, 8, 8), pair('C', 2, 1, 16, 0)];
    const r = crossoverK(pairs);
    assert.equal(r.leaderAtK1, 'base');
    assert.equal(r.kMax, 2);
    assert.equal(r.k, null);
  });
});

describe('categorize / categoryCounts', () => {
  test('each category', () => {
    assert.equal(categorize({ n: 8, c: 0 }, { n: 8, c: 0 }), 'unsolved');
    assert.equal(categorize({ n: 8, c: 0 }, { n: 8, c: 1 }), 'expansion');
    assert.equal(categorize({ n: 8, c: 3 }, { n: 8, c: 0 }), 'regression');
    assert.equal(categorize({ n: 8, c: 3 }, { n: 8, c: 2 }), 'regression');
    assert.equal(categorize({ n: 8, c: 3 }, { n: 8, c: 5 }), 'sharpening');
    assert.equal(categorize({ n: 8, c: 3 }, { n: 8, c: 3 }), 'unchanged');
    assert.equal(categorize({ n: 0, c: 0 }, { n: 0, c: 0 }), 'unsolved');
  });
  test('different n: rates c/n are compared, not counts', () => {
    assert.equal(categorize({ n: 4, c: 2 }, { n: 8, c: 4 }), 'unchanged');
    assert.equal(categorize({ n: 4, c: 2 }, { n: 8, c: 5 }), 'sharpening');
    assert.equal(categorize({ n: 4, c: 2 }, { n: 8, c: 3 }), 'regression');
    // more correct samples but a lower rate is a regression
    assert.equal(categorize({ n: 4, c: 3 }, { n: 16, c: 5 }), 'regression');
  });
  test('categoryCounts', () => {
    const pairs = [
      pair('a', 8, 0, 8, 0),
      pair('b', 8, 0, 8, 1),
      pair('c', 8, 2, 8, 6),
      pair('d', 8, 2, 8, 6),
      pair('e', 8, 6, 8, 6),
    ];
    assert.deepEqual(categoryCounts(pairs), { sharpening: 2, expansion: 1, regression: 0, unchanged: 1, unsolved: 1 });
  });
});

describe('samplingEfficiencyGap', () => {
  test('base pass@n minus model pass@1 on the same problems', () => {
    const pairs = [pair('a', 8, 1, 8, 4), pair('b', 8, 0, 8, 0)];
    // base pass@8 = (1 + 0)/2; model pass@1 = (4/8 + 0)/2
    assert.deepEqual(samplingEfficiencyGap(pairs), {
      k: 8,
      basePassAtK: 0.5,
      modelPassAt1: 0.25,
      gap: 0.25,
      problems: 2,
      missing: 0,
    });
  });
  test('explicit k and ragged n', () => {
    const pairs = [pair('a', 8, 2, 8, 4), pair('b', 2, 0, 8, 8)];
    const g = samplingEfficiencyGap(pairs, 4);
    assert.equal(g.problems, 1);
    assert.equal(g.missing, 1);
    // base pass@4 (8,2) = 1 - C(6,4)/C(8,4) = 1 - 15/70
    assert.ok(Math.abs((g.gap as number) - (1 - 15 / 70 - 0.5)) < 1e-15);
    assert.equal(samplingEfficiencyGap(pairs, 16).gap, null);
  });
});

describe('accuracyHistogram', () => {
  test('labels and exact bin edges', () => {
    const h = accuracyHistogram([
      { n: 8, c: 0 },
      { n: 10, c: 1 }, // 0.1 -> (0, 0.1]
      { n: 9, c: 1 }, // 0.111 -> (0.1, 0.2]
      { n: 10, c: 3 }, // 0.3 exactly -> (0.2, 0.3]
      { n: 20, c: 19 }, // 0.95 -> (0.9, 1)
      { n: 10, c: 9 }, // 0.9 -> (0.8, 0.9]
      { n: 4, c: 4 },
      { n: 2048, c: 2047 }, // (0.9, 1)
      { n: 0, c: 0 },
    ]);
    assert.deepEqual(
      h.bins.map((b) => b.label),
      [
        '0',
        '(0, 0.1]',
        '(0.1, 0.2]',
        '(0.2, 0.3]',
        '(0.3, 0.4]',
        '(0.4, 0.5]',
        '(0.5, 0.6]',
        '(0.6, 0.7]',
        '(0.7, 0.8]',
        '(0.8, 0.9]',
        '(0.9, 1)',
        '1',
      ],
    );
    assert.deepEqual(
      h.bins.map((b) => b.count),
      [1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 2, 1],
    );
    assert.equal(h.skipped, 1);
  });
  test('every c/n on a 7/10/13 grid lands in the bin its rational value says', () => {
    for (const n of [7, 10, 13, 100]) {
      for (let c = 1; c < n; c++) {
        const h = accuracyHistogram([{ n, c }]);
        const idx = h.bins.findIndex((b) => b.count === 1);
        // bin j (1..10) holds (j-1)/10 < c/n <= j/10, checked with integers
        assert.ok((idx - 1) * n < 10 * c && 10 * c <= idx * n, `n=${n} c=${c} bin=${idx}`);
      }
    }
  });
});
