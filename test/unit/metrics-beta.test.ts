import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { betaInterval, betaQuantile, logGamma, regularizedIncompleteBeta } from '../../src/core/metrics';

const close = (a: number, b: number, tol: number, msg?: string): void =>
  assert.ok(Math.abs(a - b) <= tol, `${msg ?? ''} got ${a}, expected ${b}`);

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('logGamma', () => {
  test('known values', () => {
    close(logGamma(1), 0, 1e-15);
    close(logGamma(2), 0, 1e-15);
    close(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-14);
    close(logGamma(10), Math.log(362880), 1e-13);
    let lf = 0;
    for (let i = 2; i <= 2048; i++) lf += Math.log(i);
    close(logGamma(2049), lf, 1e-9 * lf);
    assert.throws(() => logGamma(0), RangeError);
  });
});

describe('regularizedIncompleteBeta', () => {
  test('closed forms: Beta(1,1) is uniform, Beta(a,1) is x^a, Beta(1/2,1/2) is the arcsine law', () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.999]) {
      close(regularizedIncompleteBeta(x, 1, 1), x, 1e-14);
      close(regularizedIncompleteBeta(x, 3.5, 1), x ** 3.5, 1e-14);
      close(regularizedIncompleteBeta(x, 0.5, 0.5), (2 / Math.PI) * Math.asin(Math.sqrt(x)), 1e-13);
    }
  });
  test('symmetry I_x(a,b) = 1 - I_{1-x}(b,a)', () => {
    for (const [x, a, b] of [
      [0.3, 2.5, 7],
      [0.9, 100.5, 3.5],
      [0.45, 1024.5, 1024.5],
    ]) {
      close(regularizedIncompleteBeta(x, a, b), 1 - regularizedIncompleteBeta(1 - x, b, a), 1e-13);
    }
  });
  test('integer parameters: binomial tail identity I_x(a,b) = P(Bin(a+b-1, x) >= a)', () => {
    for (const [x, a, b] of [
      [0.3, 3, 6],
      [0.62, 9, 2],
      [0.05, 1, 20],
    ]) {
      const m = a + b - 1;
      let tail = 0;
      for (let j = a; j <= m; j++) tail += binom(m, j) * x ** j * (1 - x) ** (m - j);
      close(regularizedIncompleteBeta(x, a, b), tail, 1e-13);
    }
  });
  test('mpmath reference values (mp.dps=40)', () => {
    close(regularizedIncompleteBeta(0.3, 2.5, 3.5), 0.29675298929566638, 1e-13);
    close(regularizedIncompleteBeta(0.35, 100.5, 200.5), 0.7261705902512442, 1e-12);
    close(regularizedIncompleteBeta(0.49, 1024.5, 1024.5), 0.18265384301940211, 1e-11);
  });
  test('bounds and errors', () => {
    assert.equal(regularizedIncompleteBeta(0, 2, 3), 0);
    assert.equal(regularizedIncompleteBeta(1, 2, 3), 1);
    assert.throws(() => regularizedIncompleteBeta(0.5, 0, 1), RangeError);
    assert.throws(() => regularizedIncompleteBeta(1.5, 1, 1), RangeError);
  });
});

describe('betaQuantile', () => {
  test('closed forms', () => {
    for (const q of [0.025, 0.5, 0.975]) {
      close(betaQuantile(q, 1, 1), q, 1e-14);
      close(betaQuantile(q, 4, 1), q ** (1 / 4), 1e-14);
      close(betaQuantile(q, 1, 6), 1 - (1 - q) ** (1 / 6), 1e-14);
      close(betaQuantile(q, 0.5, 0.5), Math.sin((Math.PI * q) / 2) ** 2, 1e-13);
    }
    assert.equal(betaQuantile(0, 2, 2), 0);
    assert.equal(betaQuantile(1, 2, 2), 1);
    close(betaQuantile(0.5, 7.5, 7.5), 0.5, 1e-14);
  });
});

describe('betaInterval', () => {
  // reference values: mpmath betainc(regularized=True) inverted by 200-step bisection at 40 digits
  const cases: [number, number, 'jeffreys' | 'uniform', number, number][] = [
    [3, 8, 'jeffreys', 0.11903918015416592, 0.70517655371969132],
    [3, 8, 'uniform', 0.13699566226516648, 0.70070494379145963],
    [1, 8, 'jeffreys', 0.013838233790320755, 0.45371932103241463],
    [7, 8, 'uniform', 0.5175034850826629, 0.9718550265221018],
    [0, 8, 'uniform', 0.0028091367465992142, 0.33626711687994289],
    [50, 100, 'jeffreys', 0.40317395089641801, 0.59682604910358199],
    [1, 2048, 'jeffreys', 5.2689439702999502e-5, 0.0022800006592064444],
    [1000, 2048, 'uniform', 0.4666727540874346, 0.50993424871126118],
  ];
  for (const [c, n, kind, lo, hi] of cases) {
    test(`${kind} c=${c} n=${n}`, () => {
      const r = betaInterval(c, n, 0.95, kind);
      close(r.low, lo, 1e-11 + 1e-9 * lo);
      close(r.high, hi, 1e-11);
    });
  }
  test('Jeffreys boundary rule (Brown, Cai & DasGupta 2001): low = 0 at c = 0, high = 1 at c = n', () => {
    const z = betaInterval(0, 8);
    assert.equal(z.low, 0);
    close(z.high, 0.26221724871718584, 1e-11);
    const f = betaInterval(8, 8);
    assert.equal(f.high, 1);
    close(f.low, 0.73778275128281416, 1e-11);
    assert.deepEqual(betaInterval(0, 0), { low: 0, high: 1 });
  });
  test('default is Jeffreys at 95%; narrower level gives a narrower interval', () => {
    assert.deepEqual(betaInterval(3, 8), betaInterval(3, 8, 0.95, 'jeffreys'));
    const w95 = betaInterval(3, 8, 0.95);
    const w50 = betaInterval(3, 8, 0.5);
    assert.ok(w50.low > w95.low && w50.high < w95.high);
  });
  test('invalid input throws', () => {
    assert.throws(() => betaInterval(9, 8), RangeError);
    assert.throws(() => betaInterval(1, 8, 1.2), RangeError);
    assert.throws(() => betaInterval(1, 8, 0.9, 'wald' as 'uniform'), /kind must be/);
  });
});
