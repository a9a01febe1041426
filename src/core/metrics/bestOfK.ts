/**
 * Best-of-k with a reward model (Lightman et al. 2023, "Let's Verify Step by Step"): among k samples
 * take the one with the highest reward-model score and score its correctness; exact expectation
 * over random k-subsets of the n samples (no Monte Carlo). Also the reward model's pairwise accuracy
 * on (correct, incorrect) sample pairs of a problem (Wen et al. 2025, "Rethinking Reward Model
 * Evaluation"). pass@k is the oracle upper bound of best-of-k; the gap is the reward model's regret.
 *
 * Cross-check: PRM800K's released evaluation averages 400 random subsamples instead; the exact
 * expectation here is what that Monte Carlo estimates.
 */

import { passAtK } from './passAtK';

/** One scored sample: reward-model score (higher is better) and graded correctness. */
export interface ScoredSample {
  score: number;
  correct: boolean;
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
}

function checkScores(samples: readonly ScoredSample[]): void {
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i].score;
    if (typeof s !== 'number' || Number.isNaN(s)) {
      throw new RangeError(`samples[${i}].score must be a number (not NaN), got ${String(s)}`);
    }
  }
}

/**
 * Probability that the sample at rank j (1-based, by descending score, no ties) is the best of a
 * uniformly random k-subset of n: p_j = C(n-j, k-1) / C(n, k). Computed by the ratio recurrence
 * p_1 = k/n, p_{j+1} = p_j (n-j-k+1)/(n-j), which never overflows (n = 2048 is fine).
 * @returns Float64Array of length n (p[j-1] = p_j), summing to 1; all zero if n < k.
 */
export function bestRankProbabilities(n: number, k: number): Float64Array {
  checkK(k);
  const p = new Float64Array(n);
  if (n < k) return p;
  p[0] = k / n;
  for (let j = 1; j < n; j++) p[j] = (p[j - 1] * Math.max(0, n - j - k + 1)) / (n - j);
  return p;
}

/**
 * Exact expected correctness of best-of-k for one problem (Lightman et al. 2023): sort the n samples
 * by score, descending; the sample at rank j is chosen with probability C(n-j, k-1)/C(n, k); sum
 * over correct samples.
 *
 * Tie policy: samples with equal scores are broken uniformly at random, so a tied group occupying
 * ranks a..b contributes (p_a + ... + p_b) * (correct in group / group size). +/-Infinity scores are
 * allowed and ordered as numbers.
 *
 * @param samples all n samples of the problem.
 * @param k integer >= 1.
 * @returns expectation in [0, 1]; `null` when n < k (missing, as for pass@k).
 * @throws RangeError on a NaN/non-number score or invalid k.
 */
export function bestOfK(samples: readonly ScoredSample[], k: number): number | null {
  checkK(k);
  return bestOfKRanked(rankScores(samples), k);
}

/** Samples sorted by score, descending, as tie groups: `size` samples of equal score, `correct` of them correct. */
interface Ranked {
  n: number;
  correct: number;
  groups: { size: number; correct: number }[];
}

/** Sorts once (the costly part of best-of-k) so that many k can reuse it. */
function rankScores(samples: readonly ScoredSample[]): Ranked {
  checkScores(samples);
  return rankColumns(
    samples.length,
    (i) => samples[i].score,
    (i) => samples[i].correct,
  );
}

/**
 * The tie groups of n samples given as columns (scores numbers, not NaN: checked by the caller), by
 * descending score: the correct and the incorrect samples' scores sorted apart as typed arrays (a
 * numeric sort, no comparator), then merged from the top. Samples with equal scores (`===`, so -0 and 0
 * too) form one group, as a sort by score would give them.
 */
function rankColumns(n: number, score: (i: number) => number, correct: (i: number) => boolean): Ranked {
  let nc = 0;
  for (let i = 0; i < n; i++) if (correct(i)) nc++;
  const yes = new Float64Array(nc);
  const no = new Float64Array(n - nc);
  for (let i = 0, a = 0, b = 0; i < n; i++) {
    if (correct(i)) yes[a++] = score(i);
    else no[b++] = score(i);
  }
  yes.sort();
  no.sort();
  const groups: { size: number; correct: number }[] = [];
  let a = yes.length - 1;
  let b = no.length - 1;
  while (a >= 0 || b >= 0) {
    const v = a < 0 ? no[b] : b < 0 ? yes[a] : Math.max(yes[a], no[b]);
    let c = 0;
    let size = 0;
    while (a >= 0 && yes[a] === v) {
      a--;
      c++;
      size++;
    }
    while (b >= 0 && no[b] === v) {
      b--;
      size++;
    }
    groups.push({ size, correct: c });
  }
  return { n, correct: nc, groups };
}

/** Pairwise accuracy from the tie groups (by descending score): a correct sample wins over the incorrect ones below its group and ties with its group's. */
function pairwiseFromRanked(r: Ranked): PairwiseAccuracy {
  let incorrectBelow = 0;
  let wins = 0;
  let ties = 0;
  for (let g = r.groups.length - 1; g >= 0; g--) {
    const gc = r.groups[g].correct;
    const gi = r.groups[g].size - gc;
    wins += gc * incorrectBelow;
    ties += gc * gi;
    incorrectBelow += gi;
  }
  const pairs = r.correct * (r.n - r.correct);
  return { value: pairs ? (wins + ties / 2) / pairs : null, pairs, wins, ties };
}

/**
 * One problem's pairwise accuracy ({@link pairwiseAccuracy}) and best-of-k at each k of `ks` (null
 * where n < k; {@link bestOfK}) from one ranking of its samples, given as columns: `scores[i]` (a
 * number, not NaN; not checked) and `correct[i]`. What the reward-model evaluation computes per problem
 * and scorer. `cache`: the rank probabilities by n, shared by calls with the same `ks`.
 */
export function problemScorerFigures(
  scores: ArrayLike<number>,
  correct: ArrayLike<boolean>,
  ks: readonly number[],
  cache: Map<number, Float64Array[]> = new Map(),
): { pairwise: PairwiseAccuracy; bestOfK: (number | null)[] } {
  const n = correct.length;
  const r = rankColumns(
    n,
    (i) => scores[i],
    (i) => correct[i],
  );
  let probs = cache.get(n);
  if (!probs) cache.set(n, (probs = ks.map((k) => bestRankProbabilities(n, k))));
  const p = probs;
  return { pairwise: pairwiseFromRanked(r), bestOfK: ks.map((k, j) => bestOfKRanked(r, k, p[j])) };
}

function bestOfKRanked(r: Ranked, k: number, p: Float64Array = bestRankProbabilities(r.n, k)): number | null {
  if (r.n < k) return null;
  let total = 0;
  let j = 0;
  for (const g of r.groups) {
    let mass = 0;
    for (let e = j; e < j + g.size; e++) mass += p[e];
    total += (mass * g.correct) / g.size;
    j += g.size;
  }
  return Math.min(1, Math.max(0, total));
}

/** One point of a dataset best-of-k curve, with the pass@k oracle for the same problems. */
export interface BestOfKPoint {
  k: number;
  /** Mean best-of-k over problems with n >= k; `null` if none. */
  value: number | null;
  /** Mean pass@k over the same problems (oracle upper bound); `null` if none. */
  passAtK: number | null;
  /** Problems with n >= k. */
  problems: number;
  /** Problems with n < k (left out). */
  missing: number;
}

/**
 * Dataset best-of-k: mean of per-problem {@link bestOfK} over problems with n >= k (n < k is missing,
 * counted, not padded).
 * @param problems one array of scored samples per problem.
 */
export function datasetBestOfK(problems: readonly (readonly ScoredSample[])[], k: number): BestOfKPoint {
  checkK(k);
  return datasetFromRanked(problems.map(rankScores), k, new Map());
}

function datasetFromRanked(ranked: readonly Ranked[], k: number, probCache: Map<number, Float64Array>): BestOfKPoint {
  let s = 0;
  let o = 0;
  let used = 0;
  let missing = 0;
  for (const r of ranked) {
    if (r.n < k) {
      missing++;
      continue;
    }
    let p = probCache.get(r.n);
    if (!p) {
      p = bestRankProbabilities(r.n, k);
      probCache.set(r.n, p);
    }
    s += bestOfKRanked(r, k, p)!;
    o += passAtK(r.n, r.correct, k) ?? 0;
    used++;
  }
  return {
    k,
    value: used ? s / used : null,
    passAtK: used ? o / used : null,
    problems: used,
    missing,
  };
}

/**
 * Dataset best-of-k curve at each k of `ks` (see {@link datasetBestOfK}), with the pass@k oracle on the
 * same problems: passAtK - value is the reward model's regret. Each problem is sorted once for all k.
 */
export function bestOfKCurve(problems: readonly (readonly ScoredSample[])[], ks: readonly number[]): BestOfKPoint[] {
  ks.forEach(checkK);
  const ranked = problems.map(rankScores);
  return ks.map((k) => datasetFromRanked(ranked, k, new Map()));
}

/** Pairwise accuracy of a reward model on one problem. */
export interface PairwiseAccuracy {
  /** (wins + ties/2) / pairs; `null` when the problem has no (correct, incorrect) pair. */
  value: number | null;
  /** Number of (correct, incorrect) pairs: correct * incorrect. */
  pairs: number;
  /** Pairs where the correct sample scores strictly higher. */
  wins: number;
  /** Pairs with equal scores (each counts 0.5). */
  ties: number;
}

/**
 * Reward model's pairwise accuracy on one problem (Wen et al. 2025): over all (correct, incorrect)
 * pairs of samples of the same problem, the fraction where the correct one scores higher; ties count
 * 0.5 (the Mann-Whitney / AUC convention). O(n log n).
 * @throws RangeError on a NaN score.
 */
export function pairwiseAccuracy(samples: readonly ScoredSample[]): PairwiseAccuracy {
  return pairwiseFromRanked(rankScores(samples));
}

/** Dataset aggregation of pairwise accuracy. */
export interface DatasetPairwiseAccuracy {
  /** Mean of per-problem pairwise accuracy over problems that have at least one pair; `null` if none. */
  macro: number | null;
  /** Pooled over all pairs of all problems ((wins + ties/2) / pairs); `null` if no pairs. */
  micro: number | null;
  /** Problems with at least one (correct, incorrect) pair. */
  problems: number;
  /** Problems without such a pair (all correct or all incorrect): left out. */
  skipped: number;
  /** Total number of pairs. */
  pairs: number;
}

/**
 * Dataset pairwise accuracy of a reward model: `macro` weighs problems equally, `micro` weighs pairs
 * equally (problems with many samples of both kinds dominate). Problems with only correct or only
 * incorrect samples have no pair and are counted in `skipped`.
 */
export function datasetPairwiseAccuracy(problems: readonly (readonly ScoredSample[])[]): DatasetPairwiseAccuracy {
  let macroSum = 0;
  let used = 0;
  let skipped = 0;
  let credit = 0;
  let pairs = 0;
  for (const samples of problems) {
    const r = pairwiseAccuracy(samples);
    if (r.value === null) {
      skipped++;
      continue;
    }
    macroSum += r.value;
    used++;
    credit += r.wins + r.ties / 2;
    pairs += r.pairs;
  }
  return {
    macro: used ? macroSum / used : null,
    micro: pairs ? credit / pairs : null,
    problems: used,
    skipped,
    pairs,
  };
}
