/**
 * The statistics of a split matrix cell (issue 35, "generalisation across splits"): a mean of per-problem
 * values over one split's problems, or a paired difference of two models on the same problems, with a
 * bootstrap interval that covers problems and, where a model has several seeds, seeds; and a paired
 * sign-flip permutation test with Holm's correction over a family of cells. Pure: no index, no `vscode`.
 *
 * Sources: Efron & Tibshirani 1993 (percentile bootstrap); Davison & Hinkley 1997 §3.8 (two-stage
 * bootstrap: resample the clusters, here seeds and problems); Good 2005, "Permutation, Parametric and
 * Bootstrap Tests of Hypotheses" §3 (paired sign-flip test); Holm 1979 (step-down correction).
 */

import { mulberry32, percentileInterval, resolveBootstrapOptions, type BootstrapOptions } from '../metrics/bootstrap';
import { binomialSampler, GroupResampler, groupProblems } from '../metrics/resample';

/**
 * One model in a cell: its per-problem values (pass@k of each problem, NaN where the problem is not
 * eligible: no graded sample, n < k, or not in this seed) for each of its seeds, and its sign in the
 * statistic (+1 for a model, -1 for the model it is compared with).
 */
export interface Arm {
  /** `values[s][i]`: seed s, problem i of the split (every seed's array has the split's length). */
  values: readonly Float64Array[];
  sign: 1 | -1;
}

/** A cell's statistic with its interval and, when asked, the replicates (for averages over cells). */
export interface CellEstimate {
  /** Mean over eligible problems of Σ sign × (the arm's mean over its seeds); null when none is eligible. */
  value: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** Problems where every arm has a value in at least one seed (the mean's denominator). */
  problems: number;
  /** Problems of the split that were not eligible (`values.length` - `problems`). */
  missing: number;
  /** Bootstrap replicates (length = replicates; NaN where a replicate drew no eligible problem), in draw order. */
  reps: Float64Array;
}

/** Per-problem value of an arm with seed weights `w` (mean over seeds with a value, weighted); NaN when none has one. */
function armValue(arm: Arm, i: number, w: Float64Array | null): number {
  let s = 0;
  let ws = 0;
  for (let j = 0; j < arm.values.length; j++) {
    const v = arm.values[j][i];
    const wj = w ? w[j] : 1;
    if (wj === 0 || Number.isNaN(v)) continue;
    s += wj * v;
    ws += wj;
  }
  return ws > 0 ? s / ws : NaN;
}

/** Σ sign × arm value of problem i under seed weights, NaN when an arm has no value. */
function problemValue(arms: readonly Arm[], i: number, weights: (Float64Array | null)[]): number {
  let t = 0;
  for (let a = 0; a < arms.length; a++) {
    const v = armValue(arms[a], i, weights[a]);
    if (Number.isNaN(v)) return NaN;
    t += arms[a].sign * v;
  }
  return t;
}

/**
 * The statistic of a cell and its percentile bootstrap interval. Each replicate (two-stage, Davison &
 * Hinkley §3.8) first draws, for every arm with S > 1 seeds, S seeds with replacement (their draw counts
 * weight the seeds' per-problem values), then draws the split's m problems with replacement, and takes
 * the mean over the drawn eligible problems of Σ sign × weighted seed mean. With one seed per arm it is the
 * plain (paired, for two arms) bootstrap over problems of bootstrap.ts.
 *
 * Cost: problems are grouped by the tuple of all their values (resample.ts), so a replicate costs
 * O(groups × seeds), linear in problems at worst.
 *
 * @param arms one or two arms (model, or model and base with signs +1 / -1), all of one length m.
 * @param opts replicates (2000), seed (12345), level (0.95).
 * @throws RangeError when the arms' value arrays differ in length, or an arm has no seed.
 */
export function cellEstimate(arms: readonly Arm[], opts?: BootstrapOptions): CellEstimate {
  const o = resolveBootstrapOptions(opts);
  const m = arms[0]?.values[0]?.length ?? 0;
  for (const a of arms) {
    if (a.values.length === 0) throw new RangeError('every arm needs at least one seed');
    for (const v of a.values)
      if (v.length !== m) throw new RangeError(`every seed's values must have the split's ${m} problems`);
  }
  const none = arms.map(() => null);
  const own = new Float64Array(m);
  let sum = 0;
  let eligible = 0;
  for (let i = 0; i < m; i++) {
    own[i] = problemValue(arms, i, none);
    if (!Number.isNaN(own[i])) {
      sum += own[i];
      eligible++;
    }
  }
  const reps = new Float64Array(o.replicates).fill(NaN);
  const out = { value: eligible > 0 ? sum / eligible : null, problems: eligible, missing: m - eligible, reps };
  if (eligible === 0) return { ...out, ciLow: null, ciHigh: null };
  const seeded = arms.some((a) => a.values.length > 1);
  const groups = groupProblems(m, (i) =>
    seeded ? arms.map((a) => a.values.map((v) => String(v[i])).join(',')).join(';') : String(own[i]),
  );
  const rand = mulberry32(o.seed);
  const resampler = new GroupResampler(groups, rand);
  const T = groups.weight.length;
  const counts = new Int32Array(T);
  const weights = arms.map((a) => (a.values.length > 1 ? new Float64Array(a.values.length) : null));
  const sorted = new Float64Array(o.replicates);
  let filled = 0;
  for (let r = 0; r < o.replicates; r++) {
    for (const w of weights) {
      if (!w) continue;
      w.fill(0);
      for (let j = 0; j < w.length; j++) w[Math.floor(rand() * w.length)]++;
    }
    resampler.draw(counts);
    let s = 0;
    let cnt = 0;
    for (let g = 0; g < T; g++) {
      const c = counts[g];
      if (c === 0) continue;
      const v = seeded ? problemValue(arms, groups.first[g], weights) : own[groups.first[g]];
      if (Number.isNaN(v)) continue;
      s += c * v;
      cnt += c;
    }
    if (cnt > 0) {
      reps[r] = s / cnt;
      sorted[filled++] = reps[r];
    }
  }
  const p = percentileInterval(sorted, filled, o.level);
  return { ...out, ciLow: p.low, ciHigh: p.high };
}

/**
 * Percentile interval of the element-wise mean of several cells' replicates (a stratified bootstrap:
 * the cells are over disjoint problem sets resampled independently, so replicate r of each cell together
 * is one replicate of their average), and the mean of their values. Replicates where a cell has no value
 * are dropped. Null bounds (and value) when `cells` is empty or a cell has no value.
 */
export function averageOfCells(
  cells: readonly Pick<CellEstimate, 'value' | 'reps'>[],
  level = 0.95,
): { value: number | null; ciLow: number | null; ciHigh: number | null } {
  if (cells.length === 0 || cells.some((c) => c.value === null)) return { value: null, ciLow: null, ciHigh: null };
  const R = cells[0].reps.length;
  const sorted = new Float64Array(R);
  let filled = 0;
  for (let r = 0; r < R; r++) {
    let s = 0;
    let ok = true;
    for (const c of cells) {
      const v = c.reps[r];
      if (Number.isNaN(v)) {
        ok = false;
        break;
      }
      s += v;
    }
    if (ok) sorted[filled++] = s / cells.length;
  }
  const value = cells.reduce((a, c) => a + (c.value as number), 0) / cells.length;
  const p = percentileInterval(sorted, filled, level);
  return { value, ciLow: p.low, ciHigh: p.high };
}

/** Largest number of non-zero paired differences whose 2^m sign assignments {@link signFlipTest} enumerates exactly. */
export const EXACT_SIGN_FLIP_MAX = 16;

/** A sign-flip test's p-value, whether it is exact, and the smallest p it could give at all (2 / 2^m when exact). */
export interface SignFlipResult {
  p: number;
  exact: boolean;
  /** Smallest attainable p: 2 / 2^m with m non-zero differences (exact), 1 / (draws + 1) (Monte Carlo). */
  minP: number;
  /** Non-zero differences (zeros do not change under a sign flip and are left out). */
  nonZero: number;
}

/**
 * Two-sided paired sign-flip permutation test of mean(d) = 0 over per-problem differences `d` (NaN
 * entries left out): under the null hypothesis that the two models are exchangeable on each problem, each
 * difference keeps or flips its sign with probability 1/2. Zero differences do not change under a flip and
 * are left out (m = the non-zero ones). When 2^m <= 2^{@link EXACT_SIGN_FLIP_MAX} every assignment is
 * enumerated: p = #{|T*| >= |T|} / 2^m, exact and deterministic (the smallest p it can give is 2 / 2^m:
 * 5 differences never go below 0.0625). Otherwise Monte Carlo with `draws` sign assignments on a seeded
 * stream: problems with equal differences are one group, and the number of flipped signs in a group of w
 * problems is one Binomial(w, 1/2) draw (same distribution as flipping each, O(groups) per draw);
 * p = (1 + #{|T*| >= |T|}) / (draws + 1) (Phipson & Smyth 2010: never 0). p = 1 when every difference
 * is 0 or none is eligible.
 */
export function signFlipTest(d: ArrayLike<number>, opts?: BootstrapOptions): SignFlipResult {
  const o = resolveBootstrapOptions(opts);
  const vals: number[] = [];
  for (let i = 0; i < d.length; i++) if (!Number.isNaN(d[i]) && d[i] !== 0) vals.push(d[i]);
  const m = vals.length;
  let obs = 0;
  for (const v of vals) obs += v;
  obs = Math.abs(obs);
  const tol = 1e-12 * Math.max(1, obs);
  if (m <= EXACT_SIGN_FLIP_MAX) {
    const total = 2 ** m;
    if (m === 0 || obs === 0) return { p: 1, exact: true, minP: m === 0 ? 1 : 2 / total, nonZero: m };
    let extreme = 0;
    for (let mask = 0; mask < total; mask++) {
      let t = 0;
      for (let i = 0; i < m; i++) t += mask & (1 << i) ? -vals[i] : vals[i];
      if (Math.abs(t) >= obs - tol) extreme++;
    }
    return { p: extreme / total, exact: true, minP: 2 / total, nonZero: m };
  }
  const minP = 1 / (o.replicates + 1);
  if (obs === 0) return { p: 1, exact: false, minP, nonZero: m };
  const groups = groupProblems(m, (i) => String(vals[i]));
  const T = groups.weight.length;
  const binomial = binomialSampler(mulberry32(o.seed));
  let extreme = 0;
  for (let r = 0; r < o.replicates; r++) {
    let t = 0;
    for (let g = 0; g < T; g++) {
      const w = groups.weight[g];
      const flipped = binomial(w, 0.5);
      t += vals[groups.first[g]] * (w - 2 * flipped);
    }
    if (Math.abs(t) >= obs - tol) extreme++;
  }
  return { p: (1 + extreme) / (o.replicates + 1), exact: false, minP, nonZero: m };
}

/** The p-value of {@link signFlipTest}. @returns p in (0, 1]; 1 when no difference is eligible. */
export function signFlipPValue(d: ArrayLike<number>, opts?: BootstrapOptions): number {
  return signFlipTest(d, opts).p;
}

/**
 * Holm's step-down adjusted p-values (Holm 1979): with the m p-values sorted ascending p_(1) <= ... <=
 * p_(m), adjusted p_(i) = max over j <= i of min(1, (m - j + 1) p_(j)). Rejecting where the adjusted p is
 * below alpha controls the family-wise error rate at alpha. Returned in the input order.
 */
export function holmAdjust(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((a, b) => p[a] - p[b] || a - b);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach((idx, j) => {
    running = Math.max(running, Math.min(1, (m - j) * p[idx]));
    out[idx] = running;
  });
  return out;
}
