/**
 * Resampling problems by their sufficient statistics: the engine under every bootstrap over problems.
 *
 * A bootstrap over m problems draws m problems with replacement; every statistic here depends on a
 * problem only through a small tuple (its counts `(n, c)` for one model, `(n_b, c_b, n_m, c_m)` for a
 * paired difference, a value for a mean), so problems with equal tuples are interchangeable. One
 * replicate is then fully described by how many times each distinct tuple was drawn: a draw from
 * Multinomial(m; w_1/m, ..., w_T/m), where w_t is the number of problems with tuple t. Statistics
 * are computed from those T counts, so a replicate costs O(T) instead of O(m): 50,000 problems with
 * 4 samples each have at most 15 distinct `(n, c)` pairs.
 *
 * The multinomial is drawn one of two ways, both exact draws from the same distribution (the choice
 * depends only on m and T, so a seed gives the same result every time):
 * - `direct`: m uniform draws into the problems listed by group (the textbook bootstrap), when there are
 *   few problems per group (m <= {@link DIRECT_DRAWS_PER_GROUP} x T): a binomial draw costs about as much
 *   as 30-70 uniform ones;
 * - `binomial`: sequential conditional binomials, count_t ~ Binomial(m - drawn so far, w_t / (weight
 *   left)) (the standard construction of a multinomial draw; e.g. Devroye 1986, "Non-Uniform Random
 *   Variate Generation", ch. XI.1), binomials by {@link binomialSampler} on the same mulberry32 stream.
 *
 * Groups are ordered by their keys, not by where their problems stand, so a replicate depends only on
 * the multiset of tuples: the same problems listed in another order (files read in another order) give
 * the same intervals.
 */

import { randomBinomial } from 'd3-random';

/**
 * Exact Binomial(n, p) variates drawn from the uniform stream `rand` by d3-random's `randomBinomial`
 * (geometric waiting times at small means, recursive beta splitting at large ones: Devroye 1986, ch. X.4;
 * ~250 ns a draw at small means, 450-1000 ns at large ones on this machine).
 *
 * Rule: not @stdlib/random-base-binomial (0.2.2), though its BTRD branch (n min(p, 1 - p) >= 10) is 3-5 times
 * faster: its draws are biased upwards (mean 60.36 for Binomial(2000, 0.03), 15.48 for Binomial(100, 0.15):
 * 30 to 85 standard errors at 400,000 draws), and its small-mean branch draws n Bernoulli variates (O(n)).
 * metrics-resample.test checks the mean, variance and probabilities of these draws at small and large means.
 * @param rand uniform floats in [0, 1) (e.g. mulberry32); shared, not copied.
 * @returns `(n, p) => k` with n an integer >= 0 and p in [0, 1]; k an integer in [0, n].
 */
export function binomialSampler(rand: () => number): (n: number, p: number) => number {
  const draw = randomBinomial.source(rand);
  return (n, p) => draw(n, p)();
}

/** Problems grouped by equal keys (their sufficient statistic). */
export interface ProblemGroups {
  /** Number of problems grouped (m). */
  size: number;
  /** Number of problems in each group (sums to `size`), groups in ascending key order. */
  weight: Int32Array;
  /** One problem index of each group (the first listed), for reading the group's values. */
  first: Int32Array;
  /** Group of each problem (index into `weight`). */
  groupOf: Int32Array;
}

/** Below this many problems per group, the multinomial is drawn by uniform draws (see the module comment). */
export const DIRECT_DRAWS_PER_GROUP = 64;

/**
 * Groups problems `0..m-1` by `key(i)`. Keys are compared as strings in ascending code-unit order
 * (deterministic; numbers should be written so that equal tuples give equal strings, e.g. `${n},${c}`).
 * Cost O(m log T) for T groups.
 */
export function groupProblems(m: number, key: (i: number) => string): ProblemGroups {
  const keyOf: string[] = new Array(m);
  const distinct = new Set<string>();
  for (let i = 0; i < m; i++) {
    keyOf[i] = key(i);
    distinct.add(keyOf[i]);
  }
  const keys = [...distinct].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const T = keys.length;
  const rank = new Map<string, number>(keys.map((k, g) => [k, g]));
  const weight = new Int32Array(T);
  const first = new Int32Array(T).fill(-1);
  const groupOf = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const g = rank.get(keyOf[i]) as number;
    groupOf[i] = g;
    weight[g]++;
    if (first[g] < 0) first[g] = i;
  }
  return { size: m, weight, first, groupOf };
}

/**
 * Draws bootstrap replicates of group counts: each {@link GroupResampler.draw} fills `counts[g]` with how
 * many of the m problems drawn with replacement belong to group g (a Multinomial(m; weight/m) draw).
 */
export class GroupResampler {
  private readonly binomial: (n: number, p: number) => number;
  /** Group of the i-th problem when problems are listed by group (direct draws only). */
  private readonly groupAtRank: Int32Array | null;
  readonly method: 'direct' | 'binomial';

  constructor(
    readonly groups: ProblemGroups,
    private readonly rand: () => number,
  ) {
    this.binomial = binomialSampler(rand);
    const T = groups.weight.length;
    this.method = groups.size <= DIRECT_DRAWS_PER_GROUP * T ? 'direct' : 'binomial';
    if (this.method === 'direct') {
      this.groupAtRank = new Int32Array(groups.size);
      let r = 0;
      for (let g = 0; g < T; g++) for (let j = 0; j < groups.weight[g]; j++) this.groupAtRank[r++] = g;
    } else this.groupAtRank = null;
  }

  /** Fills `counts` (length T, overwritten) with one replicate's draw counts per group. */
  draw(counts: Int32Array): void {
    const { size: m, weight } = this.groups;
    counts.fill(0);
    const at = this.groupAtRank;
    if (at) {
      const rand = this.rand;
      // (rand() * m) | 0 is floor for m < 2^31
      for (let i = 0; i < m; i++) counts[at[(rand() * m) | 0]]++;
      return;
    }
    let left = m;
    let weightLeft = m;
    for (let g = 0; g < weight.length && left > 0; g++) {
      const w = weight[g];
      const k = w >= weightLeft ? left : this.binomial(left, w / weightLeft);
      counts[g] = k;
      left -= k;
      weightLeft -= w;
    }
  }

  /**
   * One Binomial(n, p) draw on the same stream (the within-problem redraws of a two-level bootstrap:
   * k problems of a group with n samples each and rate p redraw Binomial(k n, p) correct samples in all).
   */
  binomialDraw(n: number, p: number): number {
    return this.binomial(n, p);
  }
}
