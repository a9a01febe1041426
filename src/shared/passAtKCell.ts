/**
 * The text of a pass@k table cell, shared by the CLI table (text) and the webview's training table so that
 * both say the same thing (no `vscode`, no DOM). A point's value is the mean over the problems with n >= k
 * (n = graded samples; metrics/passAtK.ts): a point over no problem at all, because every graded problem
 * of the model has n < k, has no value, and its cell says why: `— (k > n)` (pass@k is not defined above
 * the model's largest n), never `— [—,—] (0/4)` (trial 8 finding 13: a base with n = 4 at the series'
 * k = 8).
 */

/** The cell of a pass@k with k above the model's largest n (docs/metrics.md's wording). */
export const K_ABOVE_N = '— (k > n)';

/** The fields of a pass@k point that its cell shows (a subset of CurveCIPoint with its denominator). */
export interface PassAtKCellPoint {
  value: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** Problems with n >= k (the mean is over these). */
  problems: number;
  /** The model's other problems (n < k, or left out for another reason). */
  missing: number;
}

/**
 * Whether a point has no value because no problem reaches k: no problem entered the mean (every graded
 * problem has n < k). Points are computed over problems with graded samples only, so `problems = 0`
 * with a null value means k > n for each of them.
 */
export function isAboveN(p: Pick<PassAtKCellPoint, 'value' | 'problems'>): boolean {
  return p.value === null && p.problems === 0;
}

/**
 * A pass@k cell: `value [low,high]` then `mark(p)` (the denominator mark, e.g. ` (5/6)` when the value is
 * over fewer than all problems); {@link K_ABOVE_N} for a point over no problem ({@link isAboveN}); `—`
 * without a point (no base, or no graded sample). `num` formats a value or bound (null -> `—`), `sep`
 * goes between the two bounds (`,` in the CLI table, `, ` in the webview).
 */
export function passAtKCell(
  p: PassAtKCellPoint | undefined,
  num: (v: number | null) => string,
  mark: (p: PassAtKCellPoint) => string,
  sep = ',',
): string {
  if (!p) return '—';
  if (isAboveN(p)) return K_ABOVE_N;
  return `${num(p.value)} [${num(p.ciLow)}${sep}${num(p.ciHigh)}]${mark(p)}`;
}
