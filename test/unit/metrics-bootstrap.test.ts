import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  bootstrapMeanCI,
  bootstrapPassAtKCurve,
  datasetPassAtK,
  kGrid,
  mulberry32,
  pairedBootstrapDiff,
  quantileSorted,
} from '../../src/core/metrics';

describe('mulberry32', () => {
  test('same seed gives the same sequence; values in [0,1) with mean ~0.5', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const sa = Array.from({ length: 5 }, () => a());
    assert.deepEqual(
      sa,
      Array.from({ length: 5 }, () => b()),
    );
    assert.notDeepEqual(
      sa,
      Array.from({ length: 5 }, () => c()),
    );
    const r = mulberry32(1);
    let s = 0;
    let min = 1;
    let max = 0;
    for (let i = 0; i < 100000; i++) {
      const v = r();
      s += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    assert.ok(Math.abs(s / 100000 - 0.5) < 0.005);
    assert.ok(min >= 0 && max < 1);
  });
});

describe('quantileSorted (type 7)', () => {
  test('linear interpolation', () => {
    assert.equal(quantileSorted([1, 2, 3, 4], 0.5), 2.5);
    assert.ok(Math.abs(quantileSorted([1, 2, 3, 4], 0.025) - 1.075) < 1e-15);
    assert.equal(quantileSorted([5], 0.975), 5);
    assert.throws(() => quantileSorted([], 0.5), RangeError);
  });
});

describe('bootstrapMeanCI', () => {
  test('constant values give a degenerate interval', () => {
    assert.deepEqual(bootstrapMeanCI([0.5, 0.5, 0.5]), { mean: 0.5, low: 0.5, high: 0.5 });
    assert.deepEqual(bootstrapMeanCI([0.25]), { mean: 0.25, low: 0.25, high: 0.25 });
  });
  test('empty input gives nulls, bad values throw', () => {
    assert.deepEqual(bootstrapMeanCI([]), { mean: null, low: null, high: null });
    assert.throws(() => bootstrapMeanCI([0.1, Number.NaN]), /values\[1\] must be a finite number/);
    assert.throws(() => bootstrapMeanCI([0.1], { replicates: 0 }), RangeError);
    assert.throws(() => bootstrapMeanCI([0.1], { level: 1 }), RangeError);
  });
  test('two values {0,1}: replicate means are 0, 0.5, 1 w.p. 1/4, 1/2, 1/4, so the 95% interval is [0, 1]', () => {
    assert.deepEqual(bootstrapMeanCI([0, 1], { seed: 3 }), { mean: 0.5, low: 0, high: 1 });
  });
  test('100 Bernoulli values with 30 ones: close to the normal interval 0.3 +/- 0.0898', () => {
    const v = Array.from({ length: 100 }, (_, i) => (i < 30 ? 1 : 0));
    const r = bootstrapMeanCI(v, { seed: 11 });
    assert.equal(r.mean, 0.3);
    assert.ok(Math.abs((r.low as number) - 0.2102) < 0.02, String(r.low));
    assert.ok(Math.abs((r.high as number) - 0.3898) < 0.02, String(r.high));
  });
  test('seeded: identical results for the same seed, different for another seed', () => {
    const v = [0.1, 0.9, 0.4, 0.35, 0.7, 0.2, 0.05];
    assert.deepEqual(bootstrapMeanCI(v, { seed: 99 }), bootstrapMeanCI(v, { seed: 99 }));
    assert.notDeepEqual(bootstrapMeanCI(v, { seed: 99 }), bootstrapMeanCI(v, { seed: 100 }));
  });
});

function randomProblems(count: number, maxN: number, seed: number, ragged = false): { n: number; c: number }[] {
  const r = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const n = ragged ? 1 + Math.floor(r() * maxN) : maxN;
    const c = Math.floor(r() * (n + 1) * r());
    return { n, c };
  });
}

describe('bootstrapPassAtKCurve', () => {
  test('point values equal datasetPassAtK; intervals contain them; ragged n counted as missing', () => {
    const problems = randomProblems(60, 16, 5, true);
    const ks = kGrid(16);
    const curve = bootstrapPassAtKCurve(problems, ks, { replicates: 500, seed: 1 });
    for (const p of curve) {
      const d = datasetPassAtK(problems, p.k);
      assert.equal(p.value, d.value);
      assert.equal(p.problems, d.problems);
      assert.equal(p.missing, d.missing);
      if (p.value !== null) {
        assert.ok((p.ciLow as number) <= p.value + 1e-12 && p.value - 1e-12 <= (p.ciHigh as number), `k=${p.k}`);
      }
    }
    assert.ok(curve[curve.length - 1].missing > 0);
  });

  test('at k=1 the interval equals bootstrapMeanCI of c/n with the same seed (same resampling scheme)', () => {
    const problems = randomProblems(40, 8, 9);
    const [p1] = bootstrapPassAtKCurve(problems, [1], { seed: 77 });
    const m = bootstrapMeanCI(
      problems.map((p) => p.c / p.n),
      { seed: 77 },
    );
    assert.ok(Math.abs((p1.ciLow as number) - (m.low as number)) < 1e-12);
    assert.ok(Math.abs((p1.ciHigh as number) - (m.high as number)) < 1e-12);
  });

  test('no problem reaches k: value and interval are null', () => {
    const [p] = bootstrapPassAtKCurve([{ n: 2, c: 1 }], [4]);
    assert.deepEqual(p, { k: 4, value: null, ciLow: null, ciHigh: null, problems: 0, missing: 1 });
  });

  test('2000 replicates x 500 problems x 12 ks takes well under a second', () => {
    const problems = randomProblems(500, 2048, 3);
    const t0 = performance.now();
    const curve = bootstrapPassAtKCurve(problems, kGrid(2048), { replicates: 2000, seed: 2 });
    const ms = performance.now() - t0;
    assert.equal(curve.length, 12);
    assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms`);
  });
});

describe('pairedBootstrapDiff', () => {
  test('model = base + 1 correct sample per problem: diff at k=1 is exactly 1/8 with a zero-width interval', () => {
    const base = randomProblems(30, 8, 21).map((p) => ({ n: 8, c: Math.min(p.c, 7) }));
    const model = base.map((p) => ({ n: 8, c: p.c + 1 }));
    const [d] = pairedBootstrapDiff(base, model, [1], { seed: 4 });
    assert.ok(Math.abs((d.diff as number) - 0.125) < 1e-12);
    assert.ok(Math.abs((d.ciLow as number) - 0.125) < 1e-12);
    assert.ok(Math.abs((d.ciHigh as number) - 0.125) < 1e-12);
    // unpaired intervals of each model would be much wider than zero
    const b = bootstrapPassAtKCurve(base, [1], { seed: 4 })[0];
    assert.ok((b.ciHigh as number) - (b.ciLow as number) > 0.1);
  });
  test('identical models: diff 0, interval [0,0]', () => {
    const base = randomProblems(20, 8, 8);
    const r = pairedBootstrapDiff(base, base, [1, 2, 8]);
    for (const d of r) assert.deepEqual([d.diff, d.ciLow, d.ciHigh], [0, 0, 0]);
  });
  test('problems are excluded when either side has n < k', () => {
    const base = [
      { n: 8, c: 1 },
      { n: 2, c: 1 },
      { n: 8, c: 0 },
    ];
    const model = [
      { n: 8, c: 4 },
      { n: 8, c: 8 },
      { n: 3, c: 3 },
    ];
    const [k4] = pairedBootstrapDiff(base, model, [4], { replicates: 200 });
    assert.equal(k4.problems, 1);
    assert.equal(k4.missing, 2);
    // model pass@4 (8,4) = 1 - C(4,4)/C(8,4) = 69/70; base (8,1) = 1/2
    assert.ok(Math.abs((k4.diff as number) - (69 / 70 - 0.5)) < 1e-12);
  });
  test('misaligned inputs throw', () => {
    assert.throws(() => pairedBootstrapDiff([{ n: 1, c: 0 }], [], [1]), /aligned by problem/);
  });
});
