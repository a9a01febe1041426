/**
 * Uncertainty across problems: nonparametric bootstrap over problems (resample problems with
 * replacement, recompute the mean, percentile interval), and the paired bootstrap for model-minus-base
 * differences on the same resampled problems. Seeded so results reproduce exactly.
 *
 * Sources: Efron & Tibshirani 1993 (percentile bootstrap); the RL-evaluation reviews' call for
 * intervals across problems; Bowyer et al. 2025 (arXiv:2503.01747): with few problems (AIME has 30)
 * normal-approximation intervals mislead, so we never use them here.
 */

import { passAtK, ProblemCounts } from './passAtK';

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
 * each replicate draws `values.length` values with replacement and takes their mean.
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
  const rand = mulberry32(o.seed);
  const reps = new Float64Array(o.replicates);
  for (let r = 0; r < o.replicates; r++) {
    let s = 0;
    for (let i = 0; i < m; i++) s += values[Math.floor(rand() * m)];
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

/** Per-problem pass@k at each k, NaN where n < k. */
function perProblemTable(problems: readonly ProblemCounts[], ks: readonly number[]): Float64Array[] {
  return ks.map((k) => {
    const col = new Float64Array(problems.length);
    for (let i = 0; i < problems.length; i++) {
      const v = passAtK(problems[i].n, problems[i].c, k);
      col[i] = v === null ? NaN : v;
    }
    return col;
  });
}

/**
 * Shared engine: bootstrap the mean of each column of `table` (NaN = excluded) with one draw of
 * problem indices per replicate reused across all columns.
 */
function bootstrapColumns(
  table: Float64Array[],
  m: number,
  o: ResolvedOptions,
): { point: (number | null)[]; eligible: number[]; low: (number | null)[]; high: (number | null)[] } {
  const K = table.length;
  const point: (number | null)[] = [];
  const eligible: number[] = [];
  for (const col of table) {
    let s = 0;
    let cnt = 0;
    for (let i = 0; i < m; i++) {
      if (!Number.isNaN(col[i])) {
        s += col[i];
        cnt++;
      }
    }
    point.push(cnt > 0 ? s / cnt : null);
    eligible.push(cnt);
  }
  const reps = table.map(() => new Float64Array(o.replicates));
  const filled = new Int32Array(K);
  const idx = new Int32Array(m);
  const rand = mulberry32(o.seed);
  for (let r = 0; r < o.replicates && m > 0; r++) {
    for (let i = 0; i < m; i++) idx[i] = Math.floor(rand() * m);
    for (let j = 0; j < K; j++) {
      const col = table[j];
      let s = 0;
      let cnt = 0;
      if (eligible[j] === m) {
        for (let i = 0; i < m; i++) s += col[idx[i]];
        cnt = m;
      } else {
        for (let i = 0; i < m; i++) {
          const v = col[idx[i]];
          if (!Number.isNaN(v)) {
            s += v;
            cnt++;
          }
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
 * Implementation: per-problem pass@k is precomputed for every k; each replicate draws one list of
 * problem indices and reuses it for every k (so the curve's replicates are coherent and the cost is
 * O(replicates * problems * ks)). At a k where some problems have n < k, a replicate's value is the
 * mean over the drawn problems that are eligible; replicates that draw no eligible problem are
 * dropped for that k.
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
  const table = perProblemTable(problems, ks);
  const res = bootstrapColumns(table, problems.length, o);
  return ks.map((k, j) => ({
    k,
    value: res.point[j],
    ciLow: res.low[j],
    ciHigh: res.high[j],
    problems: res.eligible[j],
    missing: problems.length - res.eligible[j],
  }));
}

/**
 * Paired bootstrap of the model-minus-base pass@k difference (model - base), resampling the same
 * problems for both models, so the interval reflects problem-level correlation between the two.
 *
 * At each k only problems where both the base model and the model have n >= k are used (others are
 * counted in `missing`). Each replicate draws one list of problem indices reused for every k.
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
  const tb = perProblemTable(base, ks);
  const tm = perProblemTable(model, ks);
  // NaN propagates: a problem is excluded when either side has n < k.
  const table = tb.map((col, j) => col.map((v, i) => tm[j][i] - v));
  const res = bootstrapColumns(table, base.length, o);
  return ks.map((k, j) => ({
    k,
    diff: res.point[j],
    ciLow: res.low[j],
    ciHigh: res.high[j],
    problems: res.eligible[j],
    missing: base.length - res.eligible[j],
  }));
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
 * correct samples that comes from one kind of problem). Replicates whose drawn denominator is 0 have
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
  const rand = mulberry32(o.seed);
  for (let r = 0; r < o.replicates && m > 0; r++) {
    let a = 0;
    let b = 0;
    for (let i = 0; i < m; i++) {
      const j = Math.floor(rand() * m);
      a += num[j];
      b += den[j];
    }
    if (b !== 0) reps[filled++] = a / b;
  }
  const p = percentileInterval(reps, filled, o.level);
  return { value: sd !== 0 ? sn / sd : null, ciLow: p.low, ciHigh: p.high, replicates: filled };
}
