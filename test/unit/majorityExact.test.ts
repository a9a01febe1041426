/**
 * The exact maj@k from answer-group counts (src/core/metrics/majorityExact.ts) against independent oracles at
 * sizes brute force cannot reach: a dynamic program over the groups for small k at n up to 1024, closed forms
 * (every answer distinct; two answers), a direct sum over the count vectors of three answers, and numbers past
 * the range of doubles (C(5000, 2500)).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../src/core/metrics';
import { expectedMajorityCredit, gaussLegendre01 } from '../../src/core/metrics/majorityExact';

const lnFact = (() => {
  const t = [0];
  for (let i = 1; i <= 20000; i++) t.push(t[i - 1] + Math.log(i));
  return t;
})();
const lnC = (a: number, b: number) => (b < 0 || b > a ? -Infinity : lnFact[a] - lnFact[b] - lnFact[a - b]);
const choose = (a: number, b: number) => Math.exp(lnC(a, b));

/**
 * The expected credit by a dynamic program over the groups whose state is everything the vote needs:
 * (samples drawn so far, the largest count, how many groups have it, their summed credit), weighted by
 * Π C(s_g, x_g); then the unanswered samples fill the subset. Exponential in k only: for small k.
 */
function dpOracle(sizes: number[], credits: number[], nullCount: number, k: number): number {
  const n = sizes.reduce((a, b) => a + b, nullCount);
  let states = new Map<string, { j: number; top: number; w: number; c: number; p: number }>();
  states.set('0,0,0,0', { j: 0, top: 0, w: 0, c: 0, p: 1 });
  sizes.forEach((s, g) => {
    const next = new Map<string, { j: number; top: number; w: number; c: number; p: number }>();
    for (const st of states.values())
      for (let x = 0; x <= Math.min(s, k - st.j); x++) {
        let { top, w, c } = st;
        if (x > top) [top, w, c] = [x, 1, credits[g]];
        else if (x === top && x > 0) [w, c] = [w + 1, c + credits[g]];
        const j = st.j + x;
        const key = `${j},${top},${w},${c}`;
        const e = next.get(key) ?? { j, top, w, c, p: 0 };
        e.p += st.p * choose(s, x);
        next.set(key, e);
      }
    states = next;
  });
  let total = 0;
  for (const st of states.values())
    if (st.top > 0) total += ((st.p * choose(nullCount, k - st.j)) / choose(n, k)) * (st.c / st.w);
  return total;
}

/** A realistic problem: one frequent answer, a tail of rare ones (many seen once or twice), some unanswered. */
function realisticGroups(r: () => number, n: number): { sizes: number[]; credits: number[]; nullCount: number } {
  const counts = new Map<number, number>();
  let nullCount = 0;
  const top = r();
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.05) nullCount++;
    else {
      const a = x < 0.05 + top * 0.6 ? 0 : 1 + Math.floor(r() * n * 0.8);
      counts.set(a, (counts.get(a) ?? 0) + 1);
    }
  }
  const sizes = [...counts.values()];
  // credits as verdicts give them: 1, 0 or 1/2, several groups credited
  const credits = sizes.map(() => [1, 0, 0, 0, 0.5][Math.floor(r() * 5)]);
  return { sizes, credits, nullCount };
}

describe('expectedMajorityCredit against independent oracles', () => {
  test('small k at n up to 1024 with hundreds of answer groups: equals the dynamic program over the groups', () => {
    const r = mulberry32(2024);
    for (const n of [64, 300, 1024]) {
      for (let t = 0; t < 3; t++) {
        const { sizes, credits, nullCount } = realisticGroups(r, n);
        for (const k of [1, 2, 3, 5, 7]) {
          const got = expectedMajorityCredit(sizes, credits, nullCount, k);
          const want = dpOracle(sizes, credits, nullCount, k);
          assert.ok(Math.abs(got - want) < 1e-12, `n=${n} case ${t} k=${k}: ${got} vs ${want}`);
        }
      }
    }
  });

  test('every answer distinct, none missing: each drawn sample ties, so the credit is Σ c / n at every k', () => {
    const n = 1024;
    const sizes = new Array<number>(n).fill(1);
    const credits = sizes.map((_, i): number => (i % 7 === 0 ? 1 : i % 11 === 0 ? 0.5 : 0));
    const want = credits.reduce((a, b) => a + b, 0) / n;
    for (const k of [1, 2, 64, 512, 1000, 1023, 1024])
      assert.ok(Math.abs(expectedMajorityCredit(sizes, credits, 0, k) - want) < 1e-12, `k=${k}`);
  });

  test('two answers: the right one wins when drawn more than k/2 times, half the credit at k/2 (a hypergeometric sum)', () => {
    for (const [a, b, k] of [
      [600, 424, 512],
      [300, 724, 100],
      [512, 512, 512],
      [3000, 2000, 2500],
    ]) {
      const n = a + b;
      let want = 0;
      for (let x = 0; x <= Math.min(a, k); x++) {
        const p = Math.exp(lnC(a, x) + lnC(b, k - x) - lnC(n, k));
        if (2 * x > k) want += p;
        else if (2 * x === k) want += p / 2;
      }
      const got = expectedMajorityCredit([a, b], [1, 0], 0, k);
      assert.ok(Math.abs(got - want) < 1e-12, `${a}/${b} k=${k}: ${got} vs ${want}`);
    }
  });

  test('three answers and unanswered samples at n = 175: equals the sum over every count vector', () => {
    const sizes = [60, 50, 45];
    const nulls = 20;
    const n = 175;
    for (const credits of [
      [1, 0, 0],
      [0, 1, 0.5],
    ])
      for (const k of [3, 40, 88, 174]) {
        let want = 0;
        for (let x = 0; x <= Math.min(sizes[0], k); x++)
          for (let y = 0; y <= Math.min(sizes[1], k - x); y++)
            for (let z = 0; z <= Math.min(sizes[2], k - x - y); z++) {
              const p = Math.exp(
                lnC(sizes[0], x) + lnC(sizes[1], y) + lnC(sizes[2], z) + lnC(nulls, k - x - y - z) - lnC(n, k),
              );
              if (p === 0) continue;
              const top = Math.max(x, y, z);
              if (top === 0) continue;
              const at = [x, y, z].map((v, i) => (v === top ? credits[i] : -1)).filter((c) => c >= 0);
              want += (p * at.reduce((u, v) => u + v, 0)) / at.length;
            }
        const got = expectedMajorityCredit(sizes, credits, nulls, k);
        assert.ok(Math.abs(got - want) < 1e-12, `credits ${credits} k=${k}: ${got} vs ${want}`);
      }
  });

  test('k = n: the largest groups win and split the credit; no answer at all scores 0', () => {
    assert.equal(expectedMajorityCredit([3, 3, 1], [1, 0, 1], 2, 9), 0.5);
    assert.equal(expectedMajorityCredit([], [], 4, 2), 0);
    assert.equal(expectedMajorityCredit([2], [0], 3, 5), 0);
  });

  test('Gauss-Legendre on [0, 1] with q nodes integrates u^t exactly for t <= 2q - 1', () => {
    for (const q of [1, 2, 5, 64]) {
      const { x, w } = gaussLegendre01(q);
      for (let t = 0; t <= 2 * q - 1; t++) {
        let s = 0;
        for (let i = 0; i < q; i++) s += w[i] * x[i] ** t;
        assert.ok(Math.abs(s - 1 / (t + 1)) < 1e-13, `q=${q} t=${t}`);
      }
    }
  });
});
