import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compareFigures } from '../../src/core/metrics';

describe('compareFigures', () => {
  test('lists only disagreements, sorted by metric, with one-sided metrics as null', () => {
    const stored = { acc: 0.5333333333333333, pass8: 0.9, n: 30, onlyStored: 1 };
    const recomputed = { acc: 133 / 240, pass8: 0.9 + 1e-12, n: 30, onlyRecomputed: 2 };
    assert.deepEqual(compareFigures(stored, recomputed), [
      { metric: 'acc', stored: 0.5333333333333333, recomputed: 133 / 240 },
      { metric: 'onlyRecomputed', stored: null, recomputed: 2 },
      { metric: 'onlyStored', stored: 1, recomputed: null },
    ]);
  });
  test('tolerance is absolute up to 1 and relative beyond', () => {
    assert.deepEqual(compareFigures({ a: 0.1 }, { a: 0.1 + 2e-9 }), [
      { metric: 'a', stored: 0.1, recomputed: 0.1 + 2e-9 },
    ]);
    assert.deepEqual(compareFigures({ a: 0.1 }, { a: 0.1 + 2e-9 }, 1e-8), []);
    assert.deepEqual(compareFigures({ big: 1e6 }, { big: 1e6 + 1e-4 }), []);
    assert.equal(compareFigures({ big: 1e6 }, { big: 1e6 + 1e-2 }).length, 1);
  });
  test('NaN equals NaN, NaN differs from a number, infinities compare exactly', () => {
    assert.deepEqual(compareFigures({ a: Number.NaN }, { a: Number.NaN }), []);
    assert.equal(compareFigures({ a: Number.NaN }, { a: 0 }).length, 1);
    assert.deepEqual(compareFigures({ a: Infinity }, { a: Infinity }), []);
    assert.equal(compareFigures({ a: Infinity }, { a: 1e308 }).length, 1);
    assert.throws(() => compareFigures({}, {}, -1), RangeError);
  });
});
