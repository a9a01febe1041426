/**
 * The bootstraps over problems resample groups of interchangeable problems (src/core/metrics/resample.ts):
 * a replicate is a multinomial draw of group counts, and the two-level bootstrap's within-problem redraws of
 * a group drawn k times are one Binomial(k n, c/n) draw. These tests check that this is the same bootstrap
 * as drawing problem indices one by one (the textbook bootstrap, written out here): the same distribution
 * of replicate values, compared by where the grouped bootstrap's percentiles fall in the textbook one's
 * empirical distribution (statistics, not seeds), and that a replicate's cost does not grow with the problems.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bootstrapMeanCI,
  bootstrapPassAtKCurve,
  crossoverBootstrap,
  mulberry32,
  pairedBootstrapDiff,
  passAtK,
  type ProblemCounts,
  twoLevelPairedDiffAt1,
} from '../../src/core/metrics';
import {
  binomialSampler,
  DIRECT_DRAWS_PER_GROUP,
  GroupResampler,
  groupProblems,
} from '../../src/core/metrics/resample';

/** Problems with n samples each and correct counts spread over 0..n (a U-shaped spread, as in real folders). */
function counts(m: number, n: number, seed: number, shift = 0): ProblemCounts[] {
  const r = mulberry32(seed);
  return Array.from({ length: m }, () => {
    const u = r();
    const p = Math.min(1, Math.max(0, u < 0.3 ? 0 : u > 0.7 - shift ? 1 : r()));
    let c = 0;
    for (let j = 0; j < n; j++) if (r() < p) c++;
    return { n, c };
  });
}

/** Textbook bootstrap: R replicates of `stat` over m problem indices drawn one by one. */
function textbook(m: number, R: number, seed: number, stat: (idx: Int32Array, rand: () => number) => number): number[] {
  const rand = mulberry32(seed);
  const idx = new Int32Array(m);
  const out: number[] = [];
  for (let r = 0; r < R; r++) {
    for (let i = 0; i < m; i++) idx[i] = Math.floor(rand() * m);
    out.push(stat(idx, rand));
  }
  return out.sort((a, b) => a - b);
}

/** Share of `sorted` at or below x (midpoint of ties), the empirical CDF. */
function ecdf(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  let eq = lo;
  while (eq < sorted.length && sorted[eq] === x) eq++;
  return (lo + eq) / 2 / sorted.length;
}

/**
 * Asserts that the grouped bootstrap's p-quantile `q` sits at p in the textbook distribution, within
 * 5 standard errors of two independent quantile estimates (sqrt(2 p (1 - p) / R)) plus the CDF's step at q.
 */
function assertQuantile(sorted: readonly number[], q: number | null, p: number, R: number, what: string) {
  assert.ok(q !== null, `${what}: no interval`);
  const at = ecdf(sorted, q);
  const step = (sorted.filter((v) => v === q).length || 1) / sorted.length;
  const tol = 5 * Math.sqrt((2 * p * (1 - p)) / R) + step;
  assert.ok(
    Math.abs(at - p) <= tol,
    `${what}: the grouped ${p} quantile ${q} sits at ${at.toFixed(4)} (±${tol.toFixed(4)})`,
  );
}

describe('GroupResampler: one replicate is a Multinomial(m; w/m) draw of group counts', () => {
  test('groups are ordered by key, whatever the order of the problems', () => {
    const a = groupProblems(5, (i) => ['b', 'a', 'b', 'c', 'a'][i]);
    assert.deepEqual([...a.weight], [2, 2, 1]);
    assert.deepEqual([...a.first], [1, 0, 3]);
    assert.deepEqual([...a.groupOf], [1, 0, 1, 2, 0]);
  });

  for (const [m, weights, method] of [
    [6400, [3200, 1600, 1600], 'binomial'],
    [150, [50, 60, 40], 'direct'],
  ] as const) {
    test(`${method} draws (m = ${m}): means m p and variances m p (1 - p), counts sum to m`, () => {
      const keys: string[] = [];
      weights.forEach((w, g) => {
        for (let j = 0; j < w; j++) keys.push(String(g));
      });
      const groups = groupProblems(m, (i) => keys[i]);
      const rs = new GroupResampler(groups, mulberry32(3));
      assert.equal(rs.method, method);
      const R = 20000;
      const sum = [0, 0, 0];
      const sq = [0, 0, 0];
      const c = new Int32Array(3);
      for (let r = 0; r < R; r++) {
        rs.draw(c);
        assert.equal(c[0] + c[1] + c[2], m);
        for (let g = 0; g < 3; g++) {
          sum[g] += c[g];
          sq[g] += c[g] * c[g];
        }
      }
      weights.forEach((w, g) => {
        const p = w / m;
        const mean = sum[g] / R;
        const variance = sq[g] / R - mean * mean;
        const sdMean = Math.sqrt((m * p * (1 - p)) / R);
        assert.ok(Math.abs(mean - m * p) < 5 * sdMean, `group ${g}: mean ${mean} vs ${m * p}`);
        assert.ok(
          Math.abs(variance / (m * p * (1 - p)) - 1) < 0.06,
          `group ${g}: variance ${variance} vs ${m * p * (1 - p)}`,
        );
      });
    });
  }

  test('a replicate costs O(groups), not O(problems): uniform draws per replicate at 50,000 problems in 5 groups', () => {
    const m = 50_000;
    const groups = groupProblems(m, (i) => String(i % 5));
    let calls = 0;
    const base = mulberry32(1);
    const rs = new GroupResampler(groups, () => {
      calls++;
      return base();
    });
    const c = new Int32Array(5);
    for (let r = 0; r < 100; r++) rs.draw(c);
    // a binomial draw takes a few dozen uniforms; one per problem would be 50,000 a replicate
    assert.ok(calls / 100 < 500, `${calls / 100} uniform draws a replicate`);
  });
});

describe('binomialSampler: exact Binomial(n, p) draws at every mean', () => {
  // small means (geometric waiting times), large means (beta splitting), p above one half
  for (const [n, p] of [
    [40, 0.05],
    [500, 0.01],
    [12, 0.9],
    [500, 0.3],
    [100_000, 0.2],
    [2_000, 0.97],
  ] as const) {
    test(`Binomial(${n}, ${p}): values in 0..n, mean n p and variance n p (1 - p)`, () => {
      const draw = binomialSampler(mulberry32(7));
      const R = 40_000;
      let sum = 0;
      let sq = 0;
      for (let r = 0; r < R; r++) {
        const k = draw(n, p);
        assert.ok(Number.isInteger(k) && k >= 0 && k <= n, `draw ${k} outside 0..${n}`);
        sum += k;
        sq += k * k;
      }
      const mean = sum / R;
      const variance = sq / R - mean * mean;
      const v = n * p * (1 - p);
      assert.ok(Math.abs(mean - n * p) < 5 * Math.sqrt(v / R), `mean ${mean} vs ${n * p}`);
      // the sample variance's standard error is about v sqrt(2 / R) (0.7% at R = 40,000)
      assert.ok(Math.abs(variance / v - 1) < 0.05, `variance ${variance} vs ${v}`);
    });
  }

  test('Binomial(5, 0.3) has the binomial probabilities (each within 5 standard errors)', () => {
    const draw = binomialSampler(mulberry32(8));
    const R = 50_000;
    const seen = new Array(6).fill(0);
    for (let r = 0; r < R; r++) seen[draw(5, 0.3)]++;
    const choose = [1, 5, 10, 10, 5, 1];
    for (let k = 0; k <= 5; k++) {
      const pk = choose[k] * 0.3 ** k * 0.7 ** (5 - k);
      assert.ok(Math.abs(seen[k] / R - pk) < 5 * Math.sqrt((pk * (1 - pk)) / R), `P(${k}): ${seen[k] / R} vs ${pk}`);
    }
  });

  test('a small mean at a large n takes a few uniforms, not one per trial', () => {
    let calls = 0;
    const base = mulberry32(9);
    const draw = binomialSampler(() => {
      calls++;
      return base();
    });
    for (let r = 0; r < 100; r++) draw(50_000, 1e-4);
    // one Bernoulli draw per trial would be 50,000 a draw
    assert.ok(calls / 100 < 50, `${calls / 100} uniform draws per Binomial(50000, 1e-4) draw`);
  });

  test('the resampler draws directly up to DIRECT_DRAWS_PER_GROUP problems per group, by binomials above', () => {
    const groups = (m: number) => groupProblems(m, (i) => String(i % 4));
    assert.equal(new GroupResampler(groups(4 * DIRECT_DRAWS_PER_GROUP), mulberry32(1)).method, 'direct');
    assert.equal(new GroupResampler(groups(4 * DIRECT_DRAWS_PER_GROUP + 1), mulberry32(1)).method, 'binomial');
  });
});

describe('the grouped bootstraps have the textbook bootstrap distribution', () => {
  const R = 20000;
  const levels = [0.5, 0.8, 0.95, 0.99];

  test('bootstrapPassAtKCurve at k = 1 and 4 (3,000 problems, n = 4: binomial draws)', () => {
    const ps = counts(3000, 4, 11);
    for (const k of [1, 4]) {
      const v = ps.map((p) => passAtK(p.n, p.c, k) as number);
      const ref = textbook(ps.length, R, 99, (idx) => {
        let s = 0;
        for (const i of idx) s += v[i];
        return s / idx.length;
      });
      for (const level of levels) {
        const [pt] = bootstrapPassAtKCurve(ps, [k], { replicates: R, level });
        assertQuantile(ref, pt.ciLow, (1 - level) / 2, R, `pass@${k} low at ${level}`);
        assertQuantile(ref, pt.ciHigh, 1 - (1 - level) / 2, R, `pass@${k} high at ${level}`);
      }
    }
  });

  test('pairedBootstrapDiff at k = 2 (1,000 problems, n = 8 and 4: ragged pairs)', () => {
    const base = counts(1000, 8, 5);
    const model = counts(1000, 4, 6, 0.2);
    const d = base.map((b, i) => (passAtK(model[i].n, model[i].c, 2) as number) - (passAtK(b.n, b.c, 2) as number));
    const ref = textbook(1000, R, 7, (idx) => {
      let s = 0;
      for (const i of idx) s += d[i];
      return s / idx.length;
    });
    for (const level of levels) {
      const [pt] = pairedBootstrapDiff(base, model, [2], { replicates: R, level });
      assertQuantile(ref, pt.ciLow, (1 - level) / 2, R, `diff low at ${level}`);
      assertQuantile(ref, pt.ciHigh, 1 - (1 - level) / 2, R, `diff high at ${level}`);
    }
  });

  test('twoLevelPairedDiffAt1: problems, then Binomial(n, c/n) redraws within each (2,000 problems, n = 4)', () => {
    const base = counts(2000, 4, 21);
    const model = counts(2000, 4, 22, 0.1);
    const R2 = 8000;
    // within a drawn problem, Binomial(4, c/4) as four Bernoulli draws
    const redraw = (c: number, rand: () => number) => {
      let x = 0;
      for (let j = 0; j < 4; j++) if (rand() < c / 4) x++;
      return x / 4;
    };
    const ref = textbook(2000, R2, 8, (idx, rand) => {
      let s = 0;
      for (const i of idx) s += redraw(model[i].c, rand) - redraw(base[i].c, rand);
      return s / idx.length;
    });
    for (const level of [0.5, 0.95]) {
      const pt = twoLevelPairedDiffAt1(base, model, { replicates: R2, level });
      assertQuantile(ref, pt.ciLow, (1 - level) / 2, R2, `two-level low at ${level}`);
      assertQuantile(ref, pt.ciHigh, 1 - (1 - level) / 2, R2, `two-level high at ${level}`);
    }
  });

  test('bootstrapMeanCI over values with many repeats', () => {
    const values = Array.from({ length: 5000 }, (_, i) => [0, 0.25, 0.5, 1][(i * 7) % 4]);
    const ref = textbook(values.length, R, 4, (idx) => {
      let s = 0;
      for (const i of idx) s += values[i];
      return s / idx.length;
    });
    const ci = bootstrapMeanCI(values, { replicates: R });
    assertQuantile(ref, ci.low, 0.025, R, 'mean low');
    assertQuantile(ref, ci.high, 0.975, R, 'mean high');
  });

  test('crossoverBootstrap: the share without a crossover and the interval of k', () => {
    // the RL model leads at k = 1 on 400 problems of n = 16; the base solves more problems at all
    const base = counts(400, 16, 31);
    const model = base.map((b, i) => ({ n: 16, c: b.c === 0 ? 0 : i % 9 === 0 ? 0 : Math.min(16, b.c + 3) }));
    const pairs = base.map((b, i) => ({ problemKey: String(i), base: b, model: model[i] }));
    const grouped = crossoverBootstrap(pairs, { replicates: 4000 });
    assert.ok(grouped);
    // textbook: resample problems, the first k >= 1 where the base's mean pass@k is level or ahead
    const kOf = (idx: Int32Array) => {
      for (let k = 1; k <= 16; k++) {
        let b = 0;
        let md = 0;
        for (const i of idx) {
          b += passAtK(16, base[i].c, k) as number;
          md += passAtK(16, model[i].c, k) as number;
        }
        if (b >= md - 1e-12 * idx.length) return k;
      }
      return 99;
    };
    const ks = textbook(400, 4000, 3, kOf);
    const none = ks.filter((k) => k === 99).length / ks.length;
    assert.ok(Math.abs(grouped.noneShare - none) < 0.03, `none: ${grouped.noneShare} vs ${none}`);
    const found = ks.filter((k) => k !== 99);
    assert.ok(grouped.low !== null && Math.abs(grouped.low - found[Math.ceil(0.025 * found.length) - 1]) <= 1);
    assert.ok(grouped.high !== null && Math.abs(grouped.high - found[Math.ceil(0.975 * found.length) - 1]) <= 1);
  });
});

describe('a replicate depends only on the multiset of problems', () => {
  test('the same problems in another order give the same intervals, to the bit', () => {
    const base = counts(500, 8, 41);
    const model = counts(500, 8, 42, 0.1);
    const perm = [...base.keys()].sort((a, b) => ((a * 7919) % 500) - ((b * 7919) % 500));
    const b2 = perm.map((i) => base[i]);
    const m2 = perm.map((i) => model[i]);
    // intervals only: the point estimates are sums in the problems' order (equal up to rounding)
    const ci = (pts: { ciLow: number | null; ciHigh: number | null }[]) => pts.map((p) => [p.ciLow, p.ciHigh]);
    assert.deepEqual(ci(bootstrapPassAtKCurve(base, [1, 2, 8])), ci(bootstrapPassAtKCurve(b2, [1, 2, 8])));
    assert.deepEqual(ci([twoLevelPairedDiffAt1(base, model)]), ci([twoLevelPairedDiffAt1(b2, m2)]));
    const pairs = (b: ProblemCounts[], m: ProblemCounts[]) =>
      b.map((x, i) => ({ problemKey: String(i), base: x, model: m[i] }));
    assert.deepEqual(crossoverBootstrap(pairs(base, model)), crossoverBootstrap(pairs(b2, m2)));
  });
});
