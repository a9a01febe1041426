/**
 * pass@k: the unbiased estimator of Chen et al. 2021, "Evaluating Large Language Models Trained on
 * Code" (arXiv:2107.03374), per problem and averaged over a dataset, plus the k grid used for curves
 * (Yue et al. 2025, arXiv:2504.13837 / limit-of-RLVR: k = 1, 2, 4, ..., n on a log-scale axis).
 *
 * Known mistakes of peers that this module avoids (each has a regression test):
 * - binomial form C(n-c,k)/C(n,k) overflows float64 (C(1030,515) = Infinity, C(2048,1024) gives NaN):
 *   we use the product form;
 * - openai/human-eval issue 35: the `n - c < k` shortcut returns 1.0 for c = 0 when n < k: here
 *   c = 0 gives 0, and n < k gives `null` (missing), never 1.0;
 * - padding short sample lists (limit-of-RLVR) or counting missing samples as failures (lighteval):
 *   problems with n < k are reported as missing, per problem, with their count.
 */

/** Per-problem sample counts: `n` samples drawn, `c` of them graded correct. */
export interface ProblemCounts {
  /** Number of samples of the problem (integer >= 0). */
  n: number;
  /** Number of correct samples (integer, 0 <= c <= n). */
  c: number;
}

/** A dataset-level value: mean over the problems that can be evaluated at this k. */
export interface DatasetValue {
  /** Mean over eligible problems; `null` when no problem is eligible. */
  value: number | null;
  /** Number of problems that entered the mean. */
  problems: number;
  /** Number of problems left out because they have fewer than k samples (ragged n): warn in the UI. */
  missing: number;
}

/** One point of a pass@k curve. */
export interface CurvePoint extends DatasetValue {
  k: number;
}

function checkInt(name: string, v: number, min: number): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${String(v)}`);
  }
}

/** Validates per-problem counts; throws RangeError naming the offending value. */
export function checkCounts(n: number, c: number): void {
  checkInt('n (number of samples)', n, 0);
  checkInt('c (number of correct samples)', c, 0);
  if (c > n) throw new RangeError(`c (number of correct samples) must be <= n, got c=${c}, n=${n}`);
}

/**
 * Unbiased pass@k of one problem (Chen et al. 2021, arXiv:2107.03374, eq. 1):
 * pass@k = 1 - C(n-c, k) / C(n, k), the probability that k samples drawn without replacement from the
 * n samples include at least one correct one.
 *
 * Computed in product form, 1 - prod_{i=n-c+1..n} (1 - k/i), which never overflows (n = 2048 is fine).
 *
 * @param n number of samples of the problem (integer >= 0)
 * @param c number of correct samples (integer, 0 <= c <= n)
 * @param k subset size (integer >= 1)
 * @returns a probability in [0, 1]; exactly c/n for k = 1; 0 whenever c = 0 and n >= k; 1 when
 *   n - c < k; `null` when n < k (undefined: report as missing, never 1.0, never by padding).
 * @throws RangeError when n, c, k are not integers, c > n, c < 0 or k < 1.
 */
export function passAtK(n: number, c: number, k: number): number | null {
  checkCounts(n, c);
  checkInt('k', k, 1);
  if (n < k) return null;
  if (c === 0) return 0;
  if (k === 1) return c / n;
  if (n - c < k) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

/**
 * pass@k of one problem for every k = 1..n at once, via the ratio recurrence
 * r(k+1) = r(k) * (n-c-k) / (n-k), r(0) = 1, pass@k = 1 - r(k) (Chen et al. 2021). O(n) instead of
 * O(n*c) for a whole curve; agrees with {@link passAtK} to ~1e-13 at n = 2048.
 *
 * @returns array `a` of length n with a[k-1] = pass@k (a[0] === c/n exactly). Empty for n = 0.
 * @throws RangeError on invalid counts.
 */
export function passAtKSeries(n: number, c: number): Float64Array {
  checkCounts(n, c);
  const out = new Float64Array(n);
  if (n === 0) return out;
  if (c === 0) return out;
  let r = 1;
  for (let k = 1; k <= n; k++) {
    // r(k) = r(k-1) * (n-c-(k-1)) / (n-(k-1))
    r *= Math.max(0, n - c - (k - 1)) / (n - (k - 1));
    out[k - 1] = k === 1 ? c / n : 1 - r;
  }
  return out;
}

/**
 * The k grid of a pass@k curve: 1, 2, 4, ..., up to maxN, plus maxN itself if it is not a power of
 * two (limit-of-RLVR / Yue et al. 2025 plot pass@k on a log2 axis up to the number of samples).
 *
 * @param maxN largest k (integer >= 1), usually the number of samples per problem.
 * @returns increasing list, e.g. kGrid(8) = [1,2,4,8], kGrid(10) = [1,2,4,8,10].
 * @throws RangeError when maxN is not an integer >= 1.
 */
export function kGrid(maxN: number): number[] {
  checkInt('maxN', maxN, 1);
  const ks: number[] = [];
  for (let k = 1; k <= maxN; k *= 2) ks.push(k);
  if (ks[ks.length - 1] !== maxN) ks.push(maxN);
  return ks;
}

/**
 * Dataset pass@k: mean of per-problem pass@k over problems with n >= k (each problem with its own n:
 * ragged n is normal). Problems with n < k are not padded or counted as failures; they are counted in
 * `missing` so the UI can warn that the value is over a subset.
 *
 * @param problems per-problem counts `{n, c}`.
 * @param k integer >= 1.
 * @returns `{ value, problems, missing }`; value `null` when no problem has n >= k.
 * @throws RangeError on invalid counts or k.
 */
export function datasetPassAtK(problems: readonly ProblemCounts[], k: number): DatasetValue {
  checkInt('k', k, 1);
  let sum = 0;
  let used = 0;
  let missing = 0;
  for (const p of problems) {
    const v = passAtK(p.n, p.c, k);
    if (v === null) missing++;
    else {
      sum += v;
      used++;
    }
  }
  return { value: used > 0 ? sum / used : null, problems: used, missing };
}

/**
 * Dataset pass@k at each k of `ks` (see {@link datasetPassAtK}); use {@link kGrid} for the usual grid.
 * @returns one `{k, value, problems, missing}` per k, in the order given.
 */
export function passAtKCurve(problems: readonly ProblemCounts[], ks: readonly number[]): CurvePoint[] {
  return ks.map((k) => ({ k, ...datasetPassAtK(problems, k) }));
}
