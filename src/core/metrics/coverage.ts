/**
 * Base-vs-RL comparisons on aligned per-problem counts: coverage (solvable sets), crossover k,
 * per-problem categories, sampling-efficiency gap and the per-problem accuracy histogram.
 *
 * Source: Yue et al. 2025, "Does Reinforcement Learning Really Incentivize Reasoning Capacity in LLMs
 * Beyond the Base Model?" (arXiv:2504.13837): solvable set = problems with >= 1 correct sample;
 * RL leads at k = 1 and the base model catches up at large k; accuracy histograms; sampling-efficiency
 * gap. Categories follow rlvr-probe-gsm8k's per_question.csv (sharpening / observed expansion /
 * regression / unchanged), with one change: problems neither model solves get their own category
 * `unsolved` (that CSV files them under `unchanged`, e.g. its qids 13, 24, 26).
 */

import { type BootstrapOptions, DEFAULT_BOOTSTRAP_SEED, mulberry32 } from './bootstrap';
import { betaInterval } from './beta';
import { GroupResampler, groupProblems } from './resample';
import { checkCounts, passAtKSeries, ProblemCounts } from './passAtK';

/** Per-problem counts of the base model and the model for the same problem. */
export interface ProblemPair {
  /** Key of the problem (e.g. `dataset/problemId`), for display and joins. */
  problemKey: string;
  base: ProblemCounts;
  model: ProblemCounts;
}

/** Sizes of the four cells of the solvable-set comparison. */
export interface CoverageCounts {
  /** Solved (c >= 1) by the base model only. */
  baseOnly: number;
  /** Solved by the model only. */
  modelOnly: number;
  /** Solved by both. */
  both: number;
  /** Solved by neither (includes problems with n = 0). */
  neither: number;
}

/**
 * Coverage: compares the solvable sets (problems with at least one correct sample, c >= 1) of the
 * base model and the model (Yue et al. 2025, arXiv:2504.13837, sec. 3). Each model's own n is used
 * as is; a larger n can only grow a solvable set, so compare models with similar n.
 * @throws RangeError on invalid counts.
 */
export function coverage(pairs: readonly ProblemPair[]): CoverageCounts {
  const out: CoverageCounts = { baseOnly: 0, modelOnly: 0, both: 0, neither: 0 };
  for (const p of pairs) {
    checkCounts(p.base.n, p.base.c);
    checkCounts(p.model.n, p.model.c);
    const b = p.base.c >= 1;
    const m = p.model.c >= 1;
    if (b && m) out.both++;
    else if (b) out.baseOnly++;
    else if (m) out.modelOnly++;
    else out.neither++;
  }
  return out;
}

/** Result of {@link crossoverK}. */
export interface CrossoverResult {
  /**
   * Smallest k at which the model trailing at k = 1 is ahead or level, before saturation; `null` if
   * never, if the two tie at k = 1, or if they become level only at saturation (see `saturationK`).
   */
  k: number | null;
  /** Which model has the higher dataset pass@1 (`tie` when equal within {@link CROSSOVER_TIE_TOLERANCE}). */
  leaderAtK1: 'base' | 'model' | 'tie';
  /**
   * Largest k examined: the smallest min(base.n, model.n) over the problems with n >= 1 on both sides
   * ({@link crossoverKLimit}), so that every k is over the same problems (0 when there are none).
   */
  kMax: number;
  /** Number of problems entering the comparison at the returned k (0 when k is null): all of them. */
  problemsAtK: number;
  /**
   * Smallest k at which both models have reached their common maximum (the share of problems each
   * solves at least once, equal for both) within {@link SATURATION_TOLERANCE}: from there the curves are
   * level because both are saturated, not because one caught up. `null` when that never happens up to kMax.
   */
  saturationK: number | null;
  /**
   * At `k`, whether the trailing model is strictly `ahead` (by more than {@link CROSSOVER_TIE_TOLERANCE})
   * or only `level` (equal within that tolerance: the same dataset value up to float noise); null when
   * `k` is null. Yue et al.'s crossover counts both (base >= RL); readers take "crossover" as "the
   * other model overtakes", so every display says which.
   */
  kind: 'ahead' | 'level' | null;
  /**
   * Smallest k >= `k`, before saturation, at which the trailing model is strictly ahead: equal to `k`
   * when `kind` is `ahead`; null when it is never ahead (level only) or `k` is null.
   */
  aheadK: number | null;
}

/** Two dataset pass@k values closer than this are level (float noise of means of per-problem values). */
export const CROSSOVER_TIE_TOLERANCE = 1e-12;

/**
 * A dataset pass@k within this of its maximum (the share of problems with c >= 1) counts as having
 * reached it. Per-problem pass@k is a product of up to n factors with rounding error ~ n x 1.1e-16
 * (2.3e-13 at n = 2048); a real gap to the maximum of 1e-9 is a chance of one in a billion, so
 * nothing a reader can see is decided below it. Yue et al.'s curves meet at 1 this way: at
 * 2 models x 250 problems x 512 samples both solve every problem and the RL lead falls to 7.3e-13.
 */
export const SATURATION_TOLERANCE = 1e-9;

/**
 * Per-problem pass@k series and solved flags, computed once so that {@link crossoverK} and the
 * bootstrap of {@link crossoverBootstrap} scan them with different problem weights.
 */
interface CrossoverTables {
  bs: Float64Array[];
  ms: Float64Array[];
  bSolved: Uint8Array;
  mSolved: Uint8Array;
  /** min(base.n, model.n) per problem: the largest k at which the problem enters. */
  len: Int32Array;
  /** The largest k scanned: {@link crossoverKLimit}. */
  kMax: number;
}

/**
 * The largest k a crossover may be searched at: the smallest min(base.n, model.n) over the problems
 * (those with n = 0 on a side enter at no k and are ignored); 0 without problems. Up to it, every
 * k's dataset values are means over the same problems, the k = 1 set. Beyond it problems with n < k
 * drop out, and a "crossover" there can come from the problem set changing, not from either curve:
 * problem A (n = 8, base c = 4, model c = 3) and B (n = 2, base 0, model 2) give the model the lead at
 * k = 1 and 2 over both, and the base "the lead" at k = 3 only because B is no longer counted
 * (trial 3, finding 2). So the search stops here; ragged n costs the large k, never the truth of a claim.
 */
export function crossoverKLimit(pairs: readonly ProblemPair[]): number {
  let lim = Infinity;
  for (const p of pairs) {
    const len = Math.min(p.base.n, p.model.n);
    if (len >= 1) lim = Math.min(lim, len);
  }
  return lim === Infinity ? 0 : lim;
}

function crossoverTables(pairs: readonly ProblemPair[]): CrossoverTables {
  const m = pairs.length;
  const t: CrossoverTables = {
    bs: [],
    ms: [],
    bSolved: new Uint8Array(m),
    mSolved: new Uint8Array(m),
    len: new Int32Array(m),
    kMax: 0,
  };
  for (let i = 0; i < m; i++) {
    const p = pairs[i];
    t.bs.push(passAtKSeries(p.base.n, p.base.c));
    t.ms.push(passAtKSeries(p.model.n, p.model.c));
    t.bSolved[i] = p.base.c >= 1 ? 1 : 0;
    t.mSolved[i] = p.model.c >= 1 ? 1 : 0;
    t.len[i] = Math.min(p.base.n, p.model.n);
  }
  t.kMax = crossoverKLimit(pairs);
  return t;
}

interface ScanResult {
  k: number | null;
  problemsAtK: number;
  saturationK: number | null;
  kind: 'ahead' | 'level' | null;
  aheadK: number | null;
}

/**
 * Scans k = `from`, ..., kMax with problem weights `w` (null = 1 each). At each k the dataset values
 * are weighted means over the problems with min(n) >= k. Stops at the first crossover (the `trailing`
 * model ahead or level within {@link CROSSOVER_TIE_TOLERANCE}) unless `wantSaturation`, and always at
 * saturation (both within {@link SATURATION_TOLERANCE} of the same maximum), which comes first when
 * both happen at one k: a tie at saturation is no crossover.
 */
function scanCrossover(
  t: CrossoverTables,
  w: Int32Array | null,
  trailing: 'base' | 'model',
  from: number,
  wantSaturation: boolean,
): ScanResult {
  const m = t.len.length;
  let k: number | null = null;
  let problemsAtK = 0;
  let kind: ScanResult['kind'] = null;
  let aheadK: number | null = null;
  for (let kk = from; kk <= t.kMax; kk++) {
    let b = 0;
    let md = 0;
    let capB = 0;
    let capM = 0;
    let count = 0;
    for (let i = 0; i < m; i++) {
      const wi = w === null ? 1 : w[i];
      if (wi === 0 || t.len[i] < kk) continue;
      b += wi * t.bs[i][kk - 1];
      md += wi * t.ms[i][kk - 1];
      capB += wi * t.bSolved[i];
      capM += wi * t.mSolved[i];
      count += wi;
    }
    if (count === 0) continue;
    b /= count;
    md /= count;
    if (capB === capM && capB / count - b <= SATURATION_TOLERANCE && capM / count - md <= SATURATION_TOLERANCE)
      return { k, problemsAtK, saturationK: kk, kind, aheadK };
    const lead = trailing === 'base' ? b - md : md - b;
    const ahead = lead > CROSSOVER_TIE_TOLERANCE;
    if (k === null && lead >= -CROSSOVER_TIE_TOLERANCE) {
      k = kk;
      problemsAtK = count;
      kind = ahead ? 'ahead' : 'level';
      if (!wantSaturation) return { k, problemsAtK, saturationK: null, kind, aheadK: ahead ? kk : null };
    }
    if (k !== null && ahead && aheadK === null) aheadK = kk;
  }
  return { k, problemsAtK, saturationK: null, kind, aheadK };
}

/**
 * Crossover k (Yue et al. 2025, arXiv:2504.13837): RL models usually win at k = 1 and lose at large
 * k. This returns the smallest integer k in [2, kMax] at which the model that leads at k = 1 is
 * reached or passed by the other one (level within {@link CROSSOVER_TIE_TOLERANCE}) **before
 * saturation**, where kMax = {@link crossoverKLimit}: the smallest min(base.n, model.n) over problems.
 * At every k the two dataset pass@k values are means over the same problems, all of them (with ragged
 * n the search stops early rather than let the problem set change along k and fake a crossover).
 *
 * Saturation: when both dataset values are within {@link SATURATION_TOLERANCE} of the same maximum
 * (the share of those problems each model solves at least once), the two are level because both are
 * saturated, not because the trailing model caught up: that is no crossover (`k: null`) and
 * `saturationK` says from which k ("tie at saturation from k = K"). `saturationK` is reported whether
 * or not a crossover came before it. Per problem, two curves never cross (pass@k grows with c at every
 * k); they only meet at 1 once k > n - c of the weaker one: that is why a per-problem "crossover" is
 * always saturation.
 *
 * `kind` says whether at `k` the trailing model is strictly ahead or only level (the definition, after
 * Yue et al., counts a level as a crossover: base >= RL), and `aheadK` from which k, if any, it is
 * strictly ahead before saturation.
 *
 * Policy: `k` is `null` when the two tie at k = 1 (no leader, nothing to cross), when the leader
 * stays strictly ahead up to kMax, or when they are level only at saturation. Every integer k is
 * examined (not only powers of two), using the O(n) recurrence of {@link passAtKSeries}.
 * @throws RangeError on invalid counts.
 */
export function crossoverK(pairs: readonly ProblemPair[]): CrossoverResult {
  const t = crossoverTables(pairs);
  const kMax = t.kMax;
  const none = { kind: null, aheadK: null };
  if (kMax === 0) return { k: null, leaderAtK1: 'tie', kMax, problemsAtK: 0, saturationK: null, ...none };
  const leaderAtK1 = leaderAt1(t, null);
  if (leaderAtK1 === 'tie') {
    const sat = scanCrossover(t, null, 'base', 1, true).saturationK;
    return { k: null, leaderAtK1, kMax, problemsAtK: 0, saturationK: sat, ...none };
  }
  // From k = 1: the trailing model is behind there by definition, but both may already be saturated.
  const r = scanCrossover(t, null, leaderAtK1 === 'model' ? 'base' : 'model', 1, true);
  return {
    k: r.k,
    leaderAtK1,
    kMax,
    problemsAtK: r.k === null ? 0 : r.problemsAtK,
    saturationK: r.saturationK,
    kind: r.kind,
    aheadK: r.aheadK,
  };
}

/** The model with the higher (weighted) dataset pass@1, or `tie` within {@link CROSSOVER_TIE_TOLERANCE}. */
function leaderAt1(t: CrossoverTables, w: Int32Array | null): 'base' | 'model' | 'tie' {
  let b = 0;
  let md = 0;
  let count = 0;
  for (let i = 0; i < t.len.length; i++) {
    const wi = w === null ? 1 : w[i];
    if (wi === 0 || t.len[i] < 1) continue;
    b += wi * t.bs[i][0];
    md += wi * t.ms[i][0];
    count += wi;
  }
  if (count === 0) return 'tie';
  b /= count;
  md /= count;
  return Math.abs(md - b) <= CROSSOVER_TIE_TOLERANCE ? 'tie' : md > b ? 'model' : 'base';
}

/** Result of {@link crossoverBootstrap}. */
export interface CrossoverInterval {
  /** 2.5th percentile of the crossover k over the replicates that have one; `null` when none has. */
  low: number | null;
  /** 97.5th percentile, likewise. */
  high: number | null;
  /** Share of replicates (0..1) with no crossover (the leader stays ahead, or a tie only at saturation). */
  noneShare: number;
  /**
   * Share of replicates (0..1) whose crossover is k = 1: the model trailing at k = 1 in the whole data is
   * already ahead or level at k = 1 in the resample (the k = 1 lead reversed there; no crossing along k).
   * Included in `low`/`high` and in 1 - `noneShare`.
   */
  atK1Share: number;
  /** Number of bootstrap replicates. */
  replicates: number;
}

/**
 * Bootstrap interval of the crossover k over problems: each replicate resamples the problems with
 * replacement (mulberry32 and the seed of src/core/metrics/bootstrap.ts; problems with equal counts
 * `(n_b, c_b, n_m, c_m)` drawn as one group, resample.ts, so a replicate scans one row per distinct
 * tuple, not per problem) and scans the resampled dataset as {@link crossoverK}
 * does, with one difference: the direction is fixed by the full data (the model trailing at k = 1 in
 * the data), and k = 1 counts, so a replicate in which that model is already ahead or level at
 * k = 1 has crossover k = 1 (the lead itself is within noise there). A replicate level only at
 * saturation has none.
 *
 * Reported: the 2.5th and 97.5th percentiles (for `level` 0.95) of the crossover k among the
 * replicates that have one, as order statistics (Hyndman & Fan type 1, inverted CDF: the smallest
 * k with at least p of those replicates at or below it, so the bounds are integers), and the share of
 * replicates with none. Source: Efron & Tibshirani 1993 (percentile bootstrap).
 *
 * @returns `null` when the full data has no leader at k = 1 (a tie: there is nothing to cross) or
 *   no problem.
 * @throws RangeError on invalid counts or options.
 */
export function crossoverBootstrap(pairs: readonly ProblemPair[], opts?: BootstrapOptions): CrossoverInterval | null {
  const replicates = opts?.replicates ?? 2000;
  const seed = opts?.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const level = opts?.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1)
    throw new RangeError(`replicates must be an integer >= 1, got ${String(replicates)}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${String(level)}`);
  const t = crossoverTables(pairs);
  if (t.kMax === 0) return null;
  const leader = leaderAt1(t, null);
  if (leader === 'tie') return null;
  const trailing = leader === 'model' ? 'base' : 'model';
  // problems with the same four counts are interchangeable: scan one table row per group, weighted by
  // how many problems of it the replicate drew (resample.ts)
  const groups = groupProblems(
    pairs.length,
    (i) => `${pairs[i].base.n},${pairs[i].base.c},${pairs[i].model.n},${pairs[i].model.c}`,
  );
  const gt = crossoverTables(Array.from(groups.first, (i) => pairs[i]));
  const w = new Int32Array(groups.weight.length);
  const resampler = new GroupResampler(groups, mulberry32(seed));
  const found: number[] = [];
  for (let r = 0; r < replicates; r++) {
    resampler.draw(w);
    const k = scanCrossover(gt, w, trailing, 1, false).k;
    if (k !== null) found.push(k);
  }
  found.sort((a, b) => a - b);
  const a = (1 - level) / 2;
  const rank = (p: number) => found[Math.min(found.length - 1, Math.max(0, Math.ceil(p * found.length) - 1))];
  return {
    low: found.length ? rank(a) : null,
    high: found.length ? rank(1 - a) : null,
    noneShare: (replicates - found.length) / replicates,
    atK1Share: found.filter((k) => k === 1).length / replicates,
    replicates,
  };
}

/** Per-problem category of a base-vs-model comparison. */
export type ProblemCategory = 'sharpening' | 'expansion' | 'regression' | 'unchanged' | 'unsolved';

export const PROBLEM_CATEGORIES: readonly ProblemCategory[] = [
  'sharpening',
  'expansion',
  'regression',
  'unchanged',
  'unsolved',
];

/**
 * Category of one problem, comparing the model with the base model (rlvr-probe-gsm8k's
 * per_question.csv categories; Yue et al. 2025's sharpening-vs-expansion question):
 * - `unsolved`: neither has a correct sample;
 * - `expansion`: only the model has a correct sample (observed coverage expansion: 0/n under the
 *   base model does not prove zero probability);
 * - `regression`: the model has a lower correct rate (includes problems only the base model solves);
 * - `sharpening`: both solve and the model has a higher correct rate;
 * - `unchanged`: both solve with the same correct rate.
 * Rates are compared as c/n exactly (integer cross-multiplication), which is the count comparison
 * when both n are equal. A side with n = 0 counts as not solving.
 *
 * Mapping to rlvr-probe-gsm8k's CSV: its `observed_expansion` = `expansion`; its `unchanged` =
 * our `unchanged` + `unsolved`.
 * @throws RangeError on invalid counts.
 */
export function categorize(base: ProblemCounts, model: ProblemCounts): ProblemCategory {
  checkCounts(base.n, base.c);
  checkCounts(model.n, model.c);
  const bs = base.c >= 1;
  const ms = model.c >= 1;
  if (!bs && !ms) return 'unsolved';
  if (!bs) return 'expansion';
  if (!ms) return 'regression';
  const lhs = model.c * base.n;
  const rhs = base.c * model.n;
  if (lhs > rhs) return 'sharpening';
  if (lhs < rhs) return 'regression';
  return 'unchanged';
}

/** Counts per {@link ProblemCategory}. */
export type CategoryCounts = Record<ProblemCategory, number>;

/** Number of problems in each category (see {@link categorize}). */
export function categoryCounts(pairs: readonly ProblemPair[]): CategoryCounts {
  const out: CategoryCounts = { sharpening: 0, expansion: 0, regression: 0, unchanged: 0, unsolved: 0 };
  for (const p of pairs) out[categorize(p.base, p.model)]++;
  return out;
}

/**
 * Saturation point of one problem: the smallest k from which both models solve every k-subset of
 * their samples, i.e. k > n - c for both (then pass@k = 1 - C(n-c, k)/C(n, k) is exactly 1 for both).
 * Integer arithmetic, no tolerance. For one problem the two pass@k curves never cross (pass@k grows
 * with c at every k); this is where they meet.
 * @returns max(base.n - base.c, model.n - model.c) + 1, or `null` when either side has no correct
 *   sample or that k exceeds min(base.n, model.n).
 * @throws RangeError on invalid counts.
 */
export function problemSaturationK(base: ProblemCounts, model: ProblemCounts): number | null {
  checkCounts(base.n, base.c);
  checkCounts(model.n, model.c);
  if (base.c === 0 || model.c === 0) return null;
  const k = Math.max(base.n - base.c, model.n - model.c) + 1;
  return k <= Math.min(base.n, model.n) ? k : null;
}

/** Categories that claim a difference between the two models (the others claim none). */
export type DifferenceCategory = 'sharpening' | 'expansion' | 'regression';

/**
 * Whether a problem's category is decided within noise: the two models' 95% Jeffreys intervals of
 * c/n (Brown, Cai & DasGupta 2001; {@link betaInterval}) overlap. A screen, not a test: intervals
 * that do not overlap mean a difference well beyond the 5% level, overlapping ones do not prove
 * there is none (the rule errs towards "within noise"). 3/8 against 4/8, 0/8 against 1/8 (an
 * "expansion"), 4/8 against 7/8 are within noise; 0/64 against 8/64 is not. `false` for the
 * categories that claim no difference (unchanged, unsolved) and for a side with n = 0.
 * @throws RangeError on invalid counts.
 */
export function withinNoise(base: ProblemCounts, model: ProblemCounts): boolean {
  const cat = categorize(base, model);
  if (cat === 'unchanged' || cat === 'unsolved' || base.n === 0 || model.n === 0) return false;
  const b = betaInterval(base.c, base.n);
  const m = betaInterval(model.c, model.n);
  return b.low <= m.high && m.low <= b.high;
}

/**
 * Of the problems in each difference category, how many are decided within noise ({@link withinNoise}).
 * Decided once per distinct `(n_b, c_b, n_m, c_m)` (two Jeffreys intervals each), so the cost grows with
 * the problems only by a map look-up.
 */
export function categoriesWithinNoise(pairs: readonly ProblemPair[]): Record<DifferenceCategory, number> {
  const out: Record<DifferenceCategory, number> = { sharpening: 0, expansion: 0, regression: 0 };
  const decided = new Map<string, DifferenceCategory | null>();
  for (const p of pairs) {
    const key = `${p.base.n},${p.base.c},${p.model.n},${p.model.c}`;
    let cat = decided.get(key);
    if (cat === undefined) {
      const c = withinNoise(p.base, p.model) ? categorize(p.base, p.model) : null;
      cat = c === 'sharpening' || c === 'expansion' || c === 'regression' ? c : null;
      decided.set(key, cat);
    }
    if (cat !== null) out[cat]++;
  }
  return out;
}

/** Result of {@link samplingEfficiencyGap}. */
export interface SamplingEfficiencyGap {
  /** The large k used for the base model. */
  k: number;
  /** Base model's dataset pass@k over the problems used; `null` if none. */
  basePassAtK: number | null;
  /** Model's dataset pass@1 over the same problems; `null` if none. */
  modelPassAt1: number | null;
  /** basePassAtK - modelPassAt1; `null` if none. */
  gap: number | null;
  /** Problems used: base n >= k and model n >= 1. */
  problems: number;
  /** Problems left out. */
  missing: number;
}

/**
 * Sampling-efficiency gap (Yue et al. 2025, arXiv:2504.13837): base pass@k at a large k minus the
 * model's pass@1, over the same problems (base n >= k and model n >= 1). A positive gap is what RL
 * training leaves on the table relative to the base model's sampling upper bound.
 *
 * @param k the large k; default: the smallest base n over problems (the largest k every problem
 *   reaches). Integer >= 1.
 * @throws RangeError on invalid counts or k.
 */
export function samplingEfficiencyGap(pairs: readonly ProblemPair[], k?: number): SamplingEfficiencyGap {
  let kk = k;
  if (kk === undefined) {
    kk = pairs.length === 0 ? 1 : Math.max(1, Math.min(...pairs.map((p) => p.base.n)));
  }
  if (!Number.isInteger(kk) || kk < 1) throw new RangeError(`k must be an integer >= 1, got ${String(kk)}`);
  let b = 0;
  let m = 0;
  let used = 0;
  for (const p of pairs) {
    checkCounts(p.base.n, p.base.c);
    checkCounts(p.model.n, p.model.c);
    if (p.base.n < kk || p.model.n < 1) continue;
    b += passAtKSeries(p.base.n, p.base.c)[kk - 1];
    m += p.model.c / p.model.n;
    used++;
  }
  if (used === 0) {
    return { k: kk, basePassAtK: null, modelPassAt1: null, gap: null, problems: 0, missing: pairs.length };
  }
  return {
    k: kk,
    basePassAtK: b / used,
    modelPassAt1: m / used,
    gap: b / used - m / used,
    problems: used,
    missing: pairs.length - used,
  };
}

/** One bin of the accuracy histogram. */
export interface HistogramBin {
  /** `0`, `(0, 0.1]`, `(0.1, 0.2]`, ..., `(0.8, 0.9]`, `(0.9, 1)`, `1`. */
  label: string;
  count: number;
}

/**
 * Histogram of per-problem accuracy c/n (Yue et al. 2025, arXiv:2504.13837, accuracy distribution
 * figures): 12 bins: exactly 0, (0, 0.1], (0.1, 0.2], ..., (0.8, 0.9], (0.9, 1) and exactly 1.
 * Bin edges are decided exactly with integer arithmetic (c/n = 0.3 goes to (0.2, 0.3]).
 * Problems with n = 0 have no accuracy: they are counted in `skipped`, not in a bin.
 * @throws RangeError on invalid counts.
 */
export function accuracyHistogram(problems: readonly ProblemCounts[]): { bins: HistogramBin[]; skipped: number } {
  const labels = ['0'];
  for (let j = 0; j < 10; j++) {
    const lo = j === 0 ? '0' : `0.${j}`;
    const hi = j === 9 ? '1)' : `0.${j + 1}]`;
    labels.push(`(${lo}, ${hi}`);
  }
  labels.push('1');
  const counts = new Array<number>(12).fill(0);
  let skipped = 0;
  for (const p of problems) {
    checkCounts(p.n, p.c);
    if (p.n === 0) {
      skipped++;
      continue;
    }
    if (p.c === 0) counts[0]++;
    else if (p.c === p.n) counts[11]++;
    else {
      // smallest j (1..10) with c/n <= j/10, i.e. 10c <= j n
      let j = Math.ceil((10 * p.c) / p.n);
      while (j > 1 && 10 * p.c <= (j - 1) * p.n) j--;
      while (10 * p.c > j * p.n) j++;
      counts[j]++;
    }
  }
  return { bins: labels.map((label, i) => ({ label, count: counts[i] })), skipped };
}
