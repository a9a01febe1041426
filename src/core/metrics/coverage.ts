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
  /** Smallest k at which the trailing model reaches or passes the leader at k = 1; `null` if never or tie at k = 1. */
  k: number | null;
  /** Which model has the higher dataset pass@1 (`tie` when equal within 1e-12). */
  leaderAtK1: 'base' | 'model' | 'tie';
  /** Largest k examined: the largest min(base.n, model.n) over problems (0 when there are none). */
  kMax: number;
  /** Number of problems entering the comparison at the returned k (0 when k is null). */
  problemsAtK: number;
}

const TIE_EPS = 1e-12;

/**
 * Crossover k (Yue et al. 2025, arXiv:2504.13837): RL models usually win at k = 1 and lose at large
 * k. This returns the smallest integer k in [1, kMax] at which the model that leads at k = 1 is
 * reached or passed (within 1e-12) by the other one, where kMax = max over problems of
 * min(base.n, model.n). At each k the two dataset pass@k values are means over the same problems:
 * those where both models have n >= k (ragged n: at large k this can be a subset; `problemsAtK` says
 * how many).
 *
 * Policy: `k` is `null` when the two tie at k = 1 (no leader, nothing to cross) or when the leader
 * stays strictly ahead up to kMax. Every integer k is examined (not only powers of two), using the
 * O(n) recurrence of {@link passAtKSeries}.
 * @throws RangeError on invalid counts.
 */
export function crossoverK(pairs: readonly ProblemPair[]): CrossoverResult {
  let kMax = 0;
  for (const p of pairs) kMax = Math.max(kMax, Math.min(p.base.n, p.model.n));
  const bs = pairs.map((p) => passAtKSeries(p.base.n, p.base.c));
  const ms = pairs.map((p) => passAtKSeries(p.model.n, p.model.c));
  const at = (k: number): { b: number; m: number; count: number } => {
    let b = 0;
    let m = 0;
    let count = 0;
    for (let i = 0; i < pairs.length; i++) {
      if (bs[i].length >= k && ms[i].length >= k) {
        b += bs[i][k - 1];
        m += ms[i][k - 1];
        count++;
      }
    }
    return count > 0 ? { b: b / count, m: m / count, count } : { b: 0, m: 0, count: 0 };
  };
  if (kMax === 0) return { k: null, leaderAtK1: 'tie', kMax, problemsAtK: 0 };
  const first = at(1);
  const leaderAtK1 = Math.abs(first.m - first.b) <= TIE_EPS ? 'tie' : first.m > first.b ? 'model' : 'base';
  if (leaderAtK1 === 'tie') return { k: null, leaderAtK1, kMax, problemsAtK: 0 };
  for (let k = 2; k <= kMax; k++) {
    const v = at(k);
    if (v.count === 0) continue;
    const reached = leaderAtK1 === 'model' ? v.b >= v.m - TIE_EPS : v.m >= v.b - TIE_EPS;
    if (reached) return { k, leaderAtK1, kMax, problemsAtK: v.count };
  }
  return { k: null, leaderAtK1, kMax, problemsAtK: 0 };
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
