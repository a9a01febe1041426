/**
 * Uncertainty across problems: nonparametric bootstrap over problems (resample problems with
 * replacement, recompute the mean, percentile interval), and the paired bootstrap for model-minus-base
 * differences on the same resampled problems. Seeded so results reproduce exactly.
 *
 * Cost: every bootstrap here resamples groups of interchangeable problems (equal counts or values),
 * not problems one by one (resample.ts): a replicate costs O(distinct tuples), so 50,000 problems of
 * 4 samples cost what 15 do. Same distribution as drawing problem indices (test: metrics-resample).
 *
 * Sources: Efron & Tibshirani 1993 (percentile bootstrap); the RL-evaluation reviews' call for
 * intervals across problems; Bowyer et al. 2025 (arXiv:2503.01747): with few problems (AIME has 30)
 * normal-approximation intervals mislead, so we never use them here.
 */

import { passAtK, ProblemCounts } from './passAtK';
import { GroupResampler, groupProblems, type ProblemGroups } from './resample';

/**
 * mulberry32: a small, fast 32-bit seeded PRNG (Tommy Ettinger's public-domain generator).
 * @param seed any number; it is truncated to an unsigned 32-bit integer.
 * @returns a function giving uniform floats in [0, 1); same seed, same sequence.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bootstrap options. */
export interface BootstrapOptions {
  /** Number of bootstrap replicates (integer >= 1); default 2000. */
  replicates?: number;
  /** PRNG seed (mulberry32); default 12345. Same seed and inputs give identical intervals. */
  seed?: number;
  /** Two-sided interval level in (0, 1); default 0.95 (2.5th and 97.5th percentiles). */
  level?: number;
}

/** Default seed of every bootstrap in this module. */
export const DEFAULT_BOOTSTRAP_SEED = 12345;

/** Bootstrap options with every default filled in. */
export interface ResolvedOptions {
  replicates: number;
  seed: number;
  level: number;
}

/**
 * Fills in the defaults of {@link BootstrapOptions} (2000 replicates, seed 12345, level 0.95).
 * @throws RangeError on replicates < 1 or not an integer, level outside (0, 1), a non-finite seed.
 */
export function resolveBootstrapOptions(opts: BootstrapOptions | undefined): ResolvedOptions {
  const replicates = opts?.replicates ?? 2000;
  const seed = opts?.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const level = opts?.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1) {
    throw new RangeError(`replicates must be an integer >= 1, got ${String(replicates)}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${String(level)}`);
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${String(seed)}`);
  return { replicates, seed, level };
}

/**
 * Quantile of sorted values, linear interpolation between order statistics (Hyndman & Fan type 7,
 * numpy's default). `sorted` must be ascending and non-empty; p in [0, 1].
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const m = sorted.length;
  if (m === 0) throw new RangeError('quantile of an empty list');
  const h = (m - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, m - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** Percentile interval of the first `m` replicate values (sorted in place); nulls when m = 0. */
export function percentileInterval(
  reps: Float64Array,
  m: number,
  level: number,
): { low: number | null; high: number | null } {
  if (m === 0) return { low: null, high: null };
  const s = reps.subarray(0, m).sort();
  const a = (1 - level) / 2;
  return { low: quantileSorted(s, a), high: quantileSorted(s, 1 - a) };
}

/** A mean with its bootstrap percentile interval. */
export interface MeanCI {
  /** Mean of the values; `null` for an empty list. */
  mean: number | null;
  /** Lower percentile bound; `null` for an empty list. */
  low: number | null;
  /** Upper percentile bound; `null` for an empty list. */
  high: number | null;
}

/**
 * Percentile bootstrap interval of a mean (typically of per-problem values such as pass@k):
 * each replicate draws `values.length` values with replacement and takes their mean (equal values
 * drawn as one group: resample.ts).
 *
 * @param values one number per problem (finite).
 * @param opts replicates (default 2000), seed (default {@link DEFAULT_BOOTSTRAP_SEED}), level (0.95).
 * @returns `{mean, low, high}`; all `null` when `values` is empty. With one value, low = high = mean.
 * @throws RangeError on a non-finite value or invalid options.
 */
export function bootstrapMeanCI(values: readonly number[], opts?: BootstrapOptions): MeanCI {
  const o = resolveBootstrapOptions(opts);
  const m = values.length;
  if (m === 0) return { mean: null, low: null, high: null };
  let sum = 0;
  for (let i = 0; i < m; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) throw new RangeError(`values[${i}] must be a finite number, got ${String(v)}`);
    sum += v;
  }
  const groups = groupProblems(m, (i) => String(values[i]));
  const resampler = new GroupResampler(groups, mulberry32(o.seed));
  const counts = new Int32Array(groups.weight.length);
  const reps = new Float64Array(o.replicates);
  for (let r = 0; r < o.replicates; r++) {
    resampler.draw(counts);
    let s = 0;
    for (let g = 0; g < counts.length; g++) if (counts[g] > 0) s += counts[g] * values[groups.first[g]];
    reps[r] = s / m;
  }
  const { low, high } = percentileInterval(reps, o.replicates, o.level);
  return { mean: sum / m, low, high };
}

/** One point of a bootstrapped pass@k curve. */
export interface CurveCIPoint {
  k: number;
  /** Dataset pass@k over problems with n >= k (the point estimate); `null` if none. */
  value: number | null;
  /** Lower percentile bound; `null` when no replicate had an eligible problem. */
  ciLow: number | null;
  /** Upper percentile bound; `null` when no replicate had an eligible problem. */
  ciHigh: number | null;
  /** Number of problems with n >= k. */
  problems: number;
  /** Number of problems excluded at this k (n < k). */
  missing: number;
}

/** One point of a paired model-minus-base difference curve. */
export interface DiffCIPoint {
  k: number;
  /** Mean over problems where both have n >= k of (model pass@k - base pass@k); `null` if none. */
  diff: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** Number of problems where both base and model have n >= k. */
  problems: number;
  /** Number of problems excluded at this k (base or model has n < k). */
  missing: number;
}

/** Problems grouped by their counts `(n, c)`: pass@k at every k depends on nothing else. */
function groupByCounts(problems: readonly ProblemCounts[]): ProblemGroups {
  return groupProblems(problems.length, (i) => `${problems[i].n},${problems[i].c}`);
}

/** Pass@k of each group (read from its first problem) at each k, NaN where n < k: `table[k index][group]`. */
function groupTable(problems: readonly ProblemCounts[], groups: ProblemGroups, ks: readonly number[]): Float64Array[] {
  return ks.map((k) => {
    const col = new Float64Array(groups.first.length);
    for (let g = 0; g < col.length; g++) {
      const p = problems[groups.first[g]];
      const v = passAtK(p.n, p.c, k);
      col[g] = v === null ? NaN : v;
    }
    return col;
  });
}

/**
 * Shared engine: bootstrap the mean of each column of `table` (one value per group, NaN = excluded) with
 * one draw of group counts per replicate reused across all columns (resample.ts: a replicate costs
 * O(groups x columns), not O(problems x columns)). The point estimate is the plain mean over the problems
 * in their order.
 */
function bootstrapColumns(
  table: Float64Array[],
  groups: ProblemGroups,
  o: ResolvedOptions,
): { point: (number | null)[]; eligible: number[]; low: (number | null)[]; high: (number | null)[] } {
  const K = table.length;
  const m = groups.size;
  const T = groups.weight.length;
  const point: (number | null)[] = [];
  const eligible: number[] = [];
  for (const col of table) {
    let s = 0;
    let cnt = 0;
    for (let i = 0; i < m; i++) {
      const v = col[groups.groupOf[i]];
      if (!Number.isNaN(v)) {
        s += v;
        cnt++;
      }
    }
    point.push(cnt > 0 ? s / cnt : null);
    eligible.push(cnt);
  }
  const reps = table.map(() => new Float64Array(o.replicates));
  const filled = new Int32Array(K);
  const counts = new Int32Array(T);
  const resampler = new GroupResampler(groups, mulberry32(o.seed));
  for (let r = 0; r < o.replicates && m > 0; r++) {
    resampler.draw(counts);
    for (let j = 0; j < K; j++) {
      const col = table[j];
      let s = 0;
      let cnt = 0;
      for (let g = 0; g < T; g++) {
        const c = counts[g];
        if (c === 0) continue;
        const v = col[g];
        if (!Number.isNaN(v)) {
          s += c * v;
          cnt += c;
        }
      }
      if (cnt > 0) reps[j][filled[j]++] = s / cnt;
    }
  }
  const low: (number | null)[] = [];
  const high: (number | null)[] = [];
  for (let j = 0; j < K; j++) {
    const p = percentileInterval(reps[j], filled[j], o.level);
    low.push(p.low);
    high.push(p.high);
  }
  return { point, eligible, low, high };
}

/**
 * Bootstrapped dataset pass@k curve: per k, the dataset pass@k (mean over problems with n >= k) and
 * a percentile interval from resampling problems with replacement.
 *
 * Implementation: problems are grouped by their counts `(n, c)` and pass@k is computed once per group
 * and k; each replicate draws how many problems of each group it takes (a multinomial draw, resample.ts)
 * and reuses that draw for every k (so the curve's replicates are coherent and the cost is
 * O(replicates * groups * ks), groups <= problems). At a k where some problems have n < k, a replicate's
 * value is the mean over the drawn problems that are eligible; replicates that draw no eligible problem
 * are dropped for that k.
 *
 * @param problems per-problem counts `{n, c}`.
 * @param ks k values (integers >= 1), e.g. {@link kGrid}(maxN).
 * @param opts replicates (2000), seed, level (0.95).
 * @returns one {@link CurveCIPoint} per k, in the order given.
 * @throws RangeError on invalid counts, k or options.
 */
export function bootstrapPassAtKCurve(
  problems: readonly ProblemCounts[],
  ks: readonly number[],
  opts?: BootstrapOptions,
): CurveCIPoint[] {
  const o = resolveBootstrapOptions(opts);
  const groups = groupByCounts(problems);
  const res = bootstrapColumns(groupTable(problems, groups, ks), groups, o);
  return ks.map((k, j) => ({
    k,
    value: res.point[j],
    ciLow: res.low[j],
    ciHigh: res.high[j],
    problems: res.eligible[j],
    missing: problems.length - res.eligible[j],
  }));
}

/** Problems grouped by both models' counts `(n_b, c_b, n_m, c_m)` (aligned arrays of one length). */
function groupPairs(base: readonly ProblemCounts[], model: readonly ProblemCounts[]): ProblemGroups {
  return groupProblems(base.length, (i) => `${base[i].n},${base[i].c},${model[i].n},${model[i].c}`);
}

/**
 * Paired bootstrap of the model-minus-base pass@k difference (model - base), resampling the same
 * problems for both models, so the interval reflects problem-level correlation between the two.
 *
 * At each k only problems where both the base model and the model have n >= k are used (others are
 * counted in `missing`). Problems are grouped by their four counts `(n_b, c_b, n_m, c_m)`; each replicate
 * draws how many problems of each group it takes (resample.ts) and reuses that draw for every k.
 *
 * @param base per-problem counts of the base model.
 * @param model per-problem counts of the model, aligned with `base` (same problem at same index).
 * @param ks k values (integers >= 1).
 * @param opts replicates (2000), seed, level (0.95).
 * @returns one {@link DiffCIPoint} per k.
 * @throws RangeError when the arrays have different lengths, or on invalid counts/k/options.
 */
export function pairedBootstrapDiff(
  base: readonly ProblemCounts[],
  model: readonly ProblemCounts[],
  ks: readonly number[],
  opts?: BootstrapOptions,
): DiffCIPoint[] {
  if (base.length !== model.length) {
    throw new RangeError(
      `base and model must be aligned by problem: got ${base.length} base and ${model.length} model problems`,
    );
  }
  const o = resolveBootstrapOptions(opts);
  const groups = groupPairs(base, model);
  const tb = groupTable(base, groups, ks);
  const tm = groupTable(model, groups, ks);
  // NaN propagates: a problem is excluded when either side has n < k.
  const table = tb.map((col, j) => col.map((v, g) => tm[j][g] - v));
  const res = bootstrapColumns(table, groups, o);
  return ks.map((k, j) => ({
    k,
    diff: res.point[j],
    ciLow: res.low[j],
    ciHigh: res.high[j],
    problems: res.eligible[j],
    missing: base.length - res.eligible[j],
  }));
}

/**
 * Two-level paired bootstrap of model − base pass@1 (per problem c/n, the unbiased pass@1; averaged
 * over problems), for the "within noise" decision at k = 1. Each replicate draws the problems with
 * replacement, then for each drawn problem redraws both models' correct counts, c* ~ Binomial(n, c/n) per
 * model (sampling noise within a problem: with 8 samples, c = 3 could as well have been 2 or 5), and takes
 * the mean of c*_model/n_model − c*_base/n_base. The resampling-only paired interval ignores that second
 * level and is too narrow when n is small (5 problems × 8 samples: [0.025, 0.125] against [−0.125, 0.275]).
 * Source: Davison & Hinkley 1997, §3.8 (multi-stage sampling: resample the clusters, then within them).
 *
 * Computed on sufficient statistics (resample.ts): problems with the same four counts are interchangeable,
 * so a replicate draws how many problems of each group `(n_b, c_b, n_m, c_m)` it takes (a multinomial
 * draw), and the k redraws of a group drawn k times sum to one Binomial(k n, c/n) draw per model (a sum of
 * independent binomials with one p). Same distribution as redrawing problem by problem, at O(groups) per
 * replicate; binomials by d3-random `randomBinomial` on the mulberry32 stream (seeded: reproducible).
 *
 * Problems where either model has n = 0 are left out (`missing`). Percentiles as every interval here
 * (type 7).
 * @returns a {@link DiffCIPoint} at k = 1 (`diff` the observed mean difference).
 * @throws RangeError when the arrays differ in length, or on invalid counts/options.
 */
export function twoLevelPairedDiffAt1(
  base: readonly ProblemCounts[],
  model: readonly ProblemCounts[],
  opts?: BootstrapOptions,
): DiffCIPoint {
  if (base.length !== model.length) {
    throw new RangeError(
      `base and model must be aligned by problem: got ${base.length} base and ${model.length} model problems`,
    );
  }
  const o = resolveBootstrapOptions(opts);
  const idx: number[] = [];
  for (let i = 0; i < base.length; i++) {
    for (const p of [base[i], model[i]])
      if (!Number.isInteger(p.n) || !Number.isInteger(p.c) || p.n < 0 || p.c < 0 || p.c > p.n)
        throw new RangeError(`invalid counts n = ${p.n}, c = ${p.c} (need integers 0 <= c <= n)`);
    if (base[i].n >= 1 && model[i].n >= 1) idx.push(i);
  }
  const m = idx.length;
  const missing = base.length - m;
  if (m === 0) return { k: 1, diff: null, ciLow: null, ciHigh: null, problems: 0, missing };
  let point = 0;
  for (const i of idx) point += model[i].c / model[i].n - base[i].c / base[i].n;
  point /= m;
  const b = idx.map((i) => base[i]);
  const md = idx.map((i) => model[i]);
  const groups = groupPairs(b, md);
  const T = groups.weight.length;
  const resampler = new GroupResampler(groups, mulberry32(o.seed));
  const counts = new Int32Array(T);
  const reps = new Float64Array(o.replicates);
  for (let r = 0; r < o.replicates; r++) {
    resampler.draw(counts);
    let sum = 0;
    for (let g = 0; g < T; g++) {
      const k = counts[g];
      if (k === 0) continue;
      const pb = b[groups.first[g]];
      const pm = md[groups.first[g]];
      sum +=
        resampler.binomialDraw(k * pm.n, pm.c / pm.n) / pm.n - resampler.binomialDraw(k * pb.n, pb.c / pb.n) / pb.n;
    }
    reps[r] = sum / m;
  }
  reps.sort();
  const a = (1 - o.level) / 2;
  return {
    k: 1,
    diff: point,
    ciLow: quantileSorted(reps, a),
    ciHigh: quantileSorted(reps, 1 - a),
    problems: m,
    missing,
  };
}

/** Whether a paired-difference point's interval contains 0 (or there is no interval): the sign is within noise. */
export function intervalHoldsZero(d: { ciLow: number | null; ciHigh: number | null } | undefined): boolean {
  if (!d || d.ciLow === null || d.ciHigh === null) return true;
  return d.ciLow <= 0 && 0 <= d.ciHigh;
}

/** A ratio of two sums with its bootstrap percentile interval. */
export interface RatioCI {
  /** sum(num) / sum(den); `null` when sum(den) = 0. */
  value: number | null;
  /** Percentile bounds over the replicates whose resampled denominator is not 0; `null` when none is. */
  ciLow: number | null;
  ciHigh: number | null;
  /** Replicates that entered the interval (the others drew a zero denominator and are dropped). */
  replicates: number;
}

/**
 * Percentile bootstrap interval of a ratio of sums over problems, sum(num) / sum(den): each replicate
 * draws `num.length` problem indices with replacement and takes the ratio of the drawn sums, so
 * numerator and denominator are resampled together (paired; used for the share of positive gains in
 * correct samples that comes from one kind of problem; problems with equal (num, den) are drawn as one group,
 * resample.ts). Replicates whose drawn denominator is 0 have
 * no ratio and are dropped (as rlvr_behavior_probe's summarize_results.py drops NaN shares); `replicates`
 * says how many remain. Same PRNG and percentile rule as every bootstrap here (mulberry32, type 7).
 *
 * @param num per-problem numerators (finite).
 * @param den per-problem denominators (finite), aligned with `num`.
 * @throws RangeError on different lengths, a non-finite value or invalid options.
 */
export function bootstrapRatioOfSums(num: readonly number[], den: readonly number[], opts?: BootstrapOptions): RatioCI {
  if (num.length !== den.length)
    throw new RangeError(`num and den must be aligned: got ${num.length} and ${den.length} values`);
  const o = resolveBootstrapOptions(opts);
  const m = num.length;
  let sn = 0;
  let sd = 0;
  for (let i = 0; i < m; i++) {
    if (!Number.isFinite(num[i]) || !Number.isFinite(den[i]))
      throw new RangeError(`num[${i}] and den[${i}] must be finite numbers, got ${num[i]} and ${den[i]}`);
    sn += num[i];
    sd += den[i];
  }
  const reps = new Float64Array(o.replicates);
  let filled = 0;
  const groups = groupProblems(m, (i) => `${num[i]},${den[i]}`);
  const resampler = new GroupResampler(groups, mulberry32(o.seed));
  const counts = new Int32Array(groups.weight.length);
  for (let r = 0; r < o.replicates && m > 0; r++) {
    resampler.draw(counts);
    let a = 0;
    let b = 0;
    for (let g = 0; g < counts.length; g++) {
      const c = counts[g];
      if (c === 0) continue;
      a += c * num[groups.first[g]];
      b += c * den[groups.first[g]];
    }
    if (b !== 0) reps[filled++] = a / b;
  }
  const p = percentileInterval(reps, filled, o.level);
  return { value: sd !== 0 ? sn / sd : null, ciLow: p.low, ciHigh: p.high, replicates: filled };
}
