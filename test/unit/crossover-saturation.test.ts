/**
 * Issue 19: every claim about crossing curves is true. On real SQLite through the report:
 * - the generated saturated case (2 models x 250 problems x 512 samples, all solved by both) has no
 *   crossover but a tie at saturation, checked against exact BigInt arithmetic;
 * - rlvr-probe-gsm8k results_1024_cuda keeps its genuine crossover at k = 5 (base 0.8994 vs RL 0.8988);
 * - the bootstrap interval of the crossover k equals a bootstrap recomputed here with the same seed;
 * - per problem there is no crossover, only a saturation point; categories and the lead at k = 1 say
 *   when they are within noise.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import {
  crossoverBootstrap,
  crossoverK,
  passAtKSeries,
  problemSaturationK,
  SATURATION_TOLERANCE,
  withinNoise,
} from '../../src/core/metrics';
import { buildReport } from '../../src/core/report/index';
import { crossoverText, sharePct } from '../../src/shared/claims';
import { rng as mulberry32, SATURATED, saturatedCounts, writeSaturatedFolder } from '../support/saturatedFolder';
import { REAL, rawRolloutCounts, tempDir } from './helpers';

/** C(a, b) exactly. */
function choose(a: number, b: number): bigint {
  if (b < 0 || b > a) return 0n;
  let r = 1n;
  for (let i = 1; i <= b; i++) r = (r * BigInt(a - b + i)) / BigInt(i);
  return r;
}

/** Σ_i w_i C(n - c_i, k): the dataset's pass@k deficit times W·C(n, k), for one common n (exact). */
function deficit(n: number, cs: readonly number[], k: number, w?: readonly number[]): bigint {
  let s = 0n;
  for (let i = 0; i < cs.length; i++) s += BigInt(w ? w[i] : 1) * choose(n - cs[i], k);
  return s;
}

describe('the saturated case: 2 models x 250 problems x 512 samples, every problem solved by both', async () => {
  const root = tempDir('ti-saturated-');
  writeSaturatedFolder(root);
  const index = TraceIndex.open(join(root, 'index.db'));
  await indexFolder(index, root);
  const report = buildReport(index, { base: SATURATED.baseModel });
  const { base, rl } = saturatedCounts();
  const n = SATURATED.samples;
  const P = SATURATED.problems;

  // Exact oracle: the smallest k at which both deficits are at most 1e-9 (their common maximum is 1:
  // every problem is solved), and whether the base is ever level with or ahead of the RL model before.
  let oracleK: number | null = null;
  let baseReachesBefore = false;
  for (let k = 1; k <= n && oracleK === null; k++) {
    const total = BigInt(P) * choose(n, k);
    const db = deficit(n, base, k);
    const dm = deficit(n, rl, k);
    if (db * 1_000_000_000n <= total && dm * 1_000_000_000n <= total) oracleK = k;
    else if (db <= dm) baseReachesBefore = true;
  }

  test('the folder is what the issue describes', () => {
    const m = report.models.find((x) => x.id === SATURATED.rlModel)!;
    const b = report.models.find((x) => x.id === SATURATED.baseModel)!;
    assert.deepEqual([b.problems, b.samples, m.problems, m.samples], [P, P * n, P, P * n]);
    const c = report.comparisons[0];
    assert.deepEqual(c.coverage, { baseOnly: 0, modelOnly: 0, both: P, neither: 0 });
    assert.equal(SATURATION_TOLERANCE, 1e-9);
    // Problem 0 (base 202/512, RL 373/512): at k = 52 the RL lead is 7.3e-13 in floats, below the old 1e-12
    // tie tolerance, yet exactly positive: both solve every k-subset only from k = 512 - 202 + 1 = 311.
    const lead = passAtKSeries(n, 373)[51] - passAtKSeries(n, 202)[51];
    assert.ok(lead > 0 && lead < 1e-12, `lead at k=52: ${lead}`);
    assert.ok(choose(n - 202, 52) > choose(n - 373, 52), 'exactly, the RL model still leads at k = 52');
    assert.equal(problemSaturationK({ n, c: 202 }, { n, c: 373 }), 311);
  });

  test('crossoverK null, saturationK = the exact k at which both are within 1e-9 of 1', () => {
    assert.equal(baseReachesBefore, false, 'exactly, the base never reaches the RL model before saturation');
    assert.ok(oracleK !== null && oracleK > 1 && oracleK < n, `oracle saturation k ${oracleK}`);
    const c = report.comparisons[0];
    assert.equal(c.leaderAtK1, 'model');
    assert.equal(c.crossoverK, null);
    assert.equal(c.saturationK, oracleK);
    assert.equal(c.leaderAtK1WithinNoise, false);
    assert.equal(crossoverText(c).startsWith(`none: tied at saturation from k = ${oracleK}`), true, crossoverText(c));
    // Before saturation the difference is still visible to a float comparison at the old tolerance from
    // k = ... on: the claim the old rule made ("crossover k") was decided there by a float tie.
    const old = crossoverKOldRule(base, rl, n);
    assert.ok(old !== null && old <= n, `the old rule claimed a crossover at k = ${old}`);
  });

  test('the bootstrap finds no crossover in any replicate (the RL model leads every resample until saturation)', () => {
    const iv = report.comparisons[0].crossoverInterval!;
    assert.deepEqual(iv, { low: null, high: null, noneShare: 1, atK1Share: 0, replicates: 2000 });
  });
  index.close();
});

/** The rule before issue 19: first k at which the base is within 1e-12 of the RL model, saturation or not. */
function crossoverKOldRule(base: number[], rl: number[], n: number): number | null {
  const bs = base.map((c) => passAtKSeries(n, c));
  const ms = rl.map((c) => passAtKSeries(n, c));
  for (let k = 2; k <= n; k++) {
    let b = 0;
    let m = 0;
    for (let i = 0; i < bs.length; i++) {
      b += bs[i][k - 1];
      m += ms[i][k - 1];
    }
    if (b / bs.length >= m / ms.length - 1e-12) return k;
  }
  return null;
}

describe('rlvr-probe-gsm8k results_1024_cuda: a genuine crossover stays', async () => {
  const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_1024_cuda');
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, RUN);
  const report = buildReport(index, { base: 'sft' });
  const c = report.comparisons[0];
  const sftRaw = rawRolloutCounts(join(RUN, 'sft_raw.jsonl'));
  const rlRaw = rawRolloutCounts(join(RUN, 'rl_raw.jsonl'));
  // Problems in the order the report pairs them (the RL model's problems in index order).
  const rlModel = index.models().find((m) => m.name.includes('rlvr'))!;
  const qids = index
    .allStats()
    .filter((s) => s.modelId === rlModel.id && s.graded > 0)
    .map((s) => index.problem(s.problemId)!.problemId);
  const cb = qids.map((q) => sftRaw.get(q)!.c);
  const cm = qids.map((q) => rlRaw.get(q)!.c);
  const n = 8;

  test('crossover k = 5: base 0.8994 vs RL 0.8988 at k = 5, the RL model ahead at k = 4', () => {
    assert.equal(qids.length, 30);
    assert.ok(qids.every((q) => sftRaw.get(q)!.n === n && rlRaw.get(q)!.n === n));
    const at = (cs: number[], k: number) => 1 - Number(deficit(n, cs, k)) / Number(BigInt(30) * choose(n, k));
    assert.equal(at(cb, 5).toFixed(4), '0.8994');
    assert.equal(at(cm, 5).toFixed(4), '0.8988');
    assert.ok(deficit(n, cb, 4) > deficit(n, cm, 4), 'RL ahead at k = 4');
    assert.ok(deficit(n, cb, 5) < deficit(n, cm, 5), 'base ahead at k = 5');
    assert.equal(c.leaderAtK1, 'model');
    assert.equal(c.crossoverK, 5);
    assert.equal(c.saturationK, null, 'the base solves 28 problems, the RL model 27: different maxima');
  });

  test('the crossover interval equals a bootstrap recomputed here with the same seed (exact arithmetic)', () => {
    const rand = mulberry32(12345);
    const found: number[] = [];
    const R = 2000;
    const solvedB = cb.filter((x) => x > 0).length;
    const solvedM = cm.filter((x) => x > 0).length;
    // the resampler's order (resample.ts): problems listed by their counts' key, so that a draw lands on a
    // problem of the same group whatever the problems' order; 30 problems in at most 30 groups: direct draws
    const key = (i: number) => `${n},${cb[i]},${n},${cm[i]}`;
    const byGroup = [...cb.keys()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b));
    for (let r = 0; r < R; r++) {
      const w = new Array<number>(30).fill(0);
      for (let i = 0; i < 30; i++) w[byGroup[Math.floor(rand() * 30)]]++;
      const W = 30n;
      let k: number | null = null;
      for (let kk = 1; kk <= n && k === null; kk++) {
        // weighted deficits against the common denominator W·C(n, k); maxima = weighted solved shares
        const db = deficit(n, cb, kk, w);
        const dm = deficit(n, cm, kk, w);
        const capB = cb.reduce((a, x, i) => a + (x > 0 ? w[i] : 0), 0);
        const capM = cm.reduce((a, x, i) => a + (x > 0 ? w[i] : 0), 0);
        const unsolvedB = BigInt(30 - capB) * choose(n, kk);
        const unsolvedM = BigInt(30 - capM) * choose(n, kk);
        // saturated: equal maxima, and the deficit beyond the unsolved problems is 0 (n = 8: far above 1e-9)
        if (capB === capM && db === unsolvedB && dm === unsolvedM) break;
        if (db <= dm) k = kk; // the base (trailing at k = 1 in the data) level or ahead
      }
      void W;
      if (k !== null) found.push(k);
    }
    found.sort((a, b) => a - b);
    const rank = (p: number) => found[Math.ceil(p * found.length) - 1];
    const atK1Share = found.filter((k) => k === 1).length / R;
    const expected = {
      low: rank(0.025),
      high: rank(0.975),
      noneShare: (R - found.length) / R,
      atK1Share,
      replicates: R,
    };
    assert.deepEqual(c.crossoverInterval, expected);
    assert.ok(solvedB === 28 && solvedM === 27);
    // and the function itself on the same pairs
    const pairs = cb.map((x, i) => ({ problemKey: qids[i], base: { n, c: x }, model: { n, c: cm[i] } }));
    assert.deepEqual(crossoverBootstrap(pairs, { seed: 12345, replicates: R }), expected);
    assert.equal(c.crossoverKind, 'ahead');
    assert.equal(
      crossoverText(c),
      `5 (ahead) [${expected.low}–${expected.high}], none in ${sharePct(expected.noneShare)}${atK1Share > 0 ? `, already at k = 1 in ${sharePct(atK1Share)}` : ''}`,
    );
  });

  test('categories say how many are decided within noise; the lead at k = 1 is not within noise here', () => {
    // n = 8: every difference category is within noise by the overlapping-intervals rule, recounted here
    const w = { sharpening: 0, expansion: 0, regression: 0 };
    for (let i = 0; i < 30; i++) {
      const b = { n, c: cb[i] };
      const m = { n, c: cm[i] };
      const cat =
        cm[i] === 0 && cb[i] === 0
          ? 'unsolved'
          : cb[i] === 0
            ? 'expansion'
            : cm[i] < cb[i]
              ? 'regression'
              : cm[i] > cb[i]
                ? 'sharpening'
                : 'unchanged';
      if ((cat === 'sharpening' || cat === 'expansion' || cat === 'regression') && withinNoise(b, m)) w[cat]++;
    }
    assert.deepEqual(c.categoriesWithinNoise, w);
    assert.deepEqual(c.categories, { sharpening: 16, expansion: 1, regression: 5, unchanged: 7, unsolved: 1 });
    // pass@1 175/240 against 135/240 over 30 problems: the paired interval stays above 0
    assert.ok(c.passAtKDiff[0].ciLow! > 0);
    assert.equal(c.leaderAtK1WithinNoise, false);
  });
  index.close();
});

describe('per-problem claims', () => {
  test('problemSaturationK: the k from which both solve every k-subset (k > n - c for both)', () => {
    assert.equal(problemSaturationK({ n: 8, c: 7 }, { n: 8, c: 6 }), 3);
    assert.equal(problemSaturationK({ n: 8, c: 8 }, { n: 8, c: 8 }), 1);
    assert.equal(problemSaturationK({ n: 8, c: 1 }, { n: 8, c: 8 }), 8);
    assert.equal(problemSaturationK({ n: 8, c: 0 }, { n: 8, c: 8 }), null, 'one side never solves');
    assert.equal(problemSaturationK({ n: 4, c: 1 }, { n: 8, c: 8 }), 4);
    assert.equal(problemSaturationK({ n: 4, c: 1 }, { n: 16, c: 2 }), null, '16 - 2 + 1 = 15 > min n = 4');
    // one problem's curves never cross: at every k below the saturation point the larger c leads strictly
    for (const [c1, c2] of [
      [202, 373],
      [1, 2],
      [100, 101],
    ]) {
      const a = passAtKSeries(512, c1);
      const b = passAtKSeries(512, c2);
      const K = problemSaturationK({ n: 512, c: c1 }, { n: 512, c: c2 })!;
      for (let k = 1; k < K; k++) assert.ok(choose(512 - c1, k) > choose(512 - c2, k), `exact lead at k=${k}`);
      assert.equal(a[K - 1], 1);
      assert.equal(b[K - 1], 1);
    }
  });

  test('withinNoise: the two 95% Jeffreys intervals of c/n overlap', () => {
    assert.equal(withinNoise({ n: 8, c: 3 }, { n: 8, c: 4 }), true);
    assert.equal(withinNoise({ n: 8, c: 0 }, { n: 8, c: 1 }), true, 'an "expansion" from one lucky sample');
    assert.equal(withinNoise({ n: 8, c: 1 }, { n: 8, c: 0 }), true);
    assert.equal(withinNoise({ n: 8, c: 4 }, { n: 8, c: 7 }), true);
    assert.equal(withinNoise({ n: 64, c: 0 }, { n: 64, c: 8 }), false);
    assert.equal(withinNoise({ n: 512, c: 202 }, { n: 512, c: 373 }), false);
    assert.equal(withinNoise({ n: 8, c: 3 }, { n: 8, c: 3 }), false, 'unchanged claims no difference');
    assert.equal(withinNoise({ n: 8, c: 0 }, { n: 8, c: 0 }), false, 'unsolved claims no difference');
  });

  test('crossoverBootstrap: null when the two tie at k = 1; replicates where the trailing model leads count k = 1', () => {
    assert.equal(crossoverBootstrap([{ problemKey: 'a', base: { n: 8, c: 3 }, model: { n: 8, c: 3 } }]), null);
    assert.equal(crossoverBootstrap([]), null);
    // base 1/8 vs model 2/8 on A, base 2/8 vs model 1/8 on B, model 3/8 vs base 2/8 on C: the model leads at
    // k = 1 in the data, but a resample of only B has the base ahead at k = 1 -> crossover k = 1 there.
    const pairs = [
      { problemKey: 'A', base: { n: 8, c: 1 }, model: { n: 8, c: 2 } },
      { problemKey: 'B', base: { n: 8, c: 2 }, model: { n: 8, c: 1 } },
      { problemKey: 'C', base: { n: 8, c: 2 }, model: { n: 8, c: 3 } },
    ];
    assert.equal(crossoverK(pairs).leaderAtK1, 'model');
    const iv = crossoverBootstrap(pairs, { replicates: 500, seed: 7 })!;
    assert.equal(iv.low, 1);
    assert.ok(iv.noneShare > 0 && iv.noneShare < 1);
  });

  test('crossoverText words each case', () => {
    const iv = { low: 3, high: 9, noneShare: 0.12, replicates: 2000 };
    assert.equal(
      crossoverText({ crossoverK: 5, saturationK: null, leaderAtK1: 'model', crossoverInterval: iv }),
      '5 [3–9], none in 12%',
    );
    assert.equal(
      crossoverText({
        crossoverK: null,
        saturationK: 52,
        leaderAtK1: 'model',
        crossoverInterval: { low: null, high: null, noneShare: 1, replicates: 2000 },
      }),
      'none: tied at saturation from k = 52',
    );
    assert.equal(
      crossoverText({ crossoverK: null, saturationK: null, leaderAtK1: 'tie', crossoverInterval: null }),
      'none (tied at k = 1)',
    );
    assert.equal(
      crossoverText({
        crossoverK: null,
        saturationK: null,
        leaderAtK1: 'model',
        leaderAtK1WithinNoise: true,
        crossoverInterval: { low: 2, high: 7, noneShare: 0.7, replicates: 2000 },
      }),
      'none (model leads); base ahead or level at some k in 30% of replicates [k 2–7]; lead at k = 1 within noise',
    );
    // trial 3: replicates whose crossover is k = 1 are those where the trailing model already leads there
    assert.equal(
      crossoverText({
        crossoverK: null,
        saturationK: null,
        leaderAtK1: 'base',
        crossoverInterval: { low: 1, high: 1, noneShare: 0.78, atK1Share: 0.22, replicates: 2000 },
      }),
      'none (base leads); model ahead or level at some k in 22% of replicates [k 1], already at k = 1 in 22%',
    );
    assert.equal(
      crossoverText({
        crossoverK: 3,
        crossoverKind: 'ahead',
        saturationK: null,
        leaderAtK1: 'model',
        crossoverInterval: { low: 1, high: 5, noneShare: 0.1, atK1Share: 0.05, replicates: 2000 },
      }),
      '3 (ahead) [1–5], none in 10%, already at k = 1 in 5%',
    );
    assert.equal(sharePct(0.001), '<1%');
    assert.equal(sharePct(0.999), '>99%');
  });
});
