/**
 * A share as a percentage for filter names and messages: one decimal when the share is not a whole
 * percent (`0.125` -> `12.5%`, `0.25` -> `25%`, `1/3` -> `33.3%`), so that a threshold of 1 in 8 does not
 * read as 13%.
 */
export function percent(share: number): string {
  const p = 100 * share;
  return `${Number.isInteger(Math.round(p * 10) / 10) ? Math.round(p) : (Math.round(p * 10) / 10).toFixed(1)}%`;
}

/**
 * Why the lucky-guess queue (correct samples on problems solved at most `threshold` of the time,
 * `c / graded`, c > 0) can never fill: with at most `maxGraded` graded samples per problem the smallest
 * non-zero rate is `1 / maxGraded`; when that is above `threshold` no problem can match. Returns the
 * hint (naming the smallest rate and the setting `traceInspector.luckyGuessThreshold`), or undefined
 * when some problem could match (or the model has no graded sample).
 */
export function luckyGuessHint(maxGraded: number, threshold: number): string | undefined {
  if (maxGraded <= 0 || 1 / maxGraded <= threshold) return undefined;
  return `with at most ${maxGraded} graded samples per problem the smallest non-zero rate is 1/${maxGraded} (${percent(1 / maxGraded)}), above ${percent(threshold)}: no problem can match; raise the setting traceInspector.luckyGuessThreshold to at least ${1 / maxGraded === 1 ? '1' : `1/${maxGraded}`}`;
}

/**
 * The advice of {@link luckyGuessHint} short enough to read in a tree row (trial 13 finding 11: tot-game24, n = 5, had
 * it only in the hover of a row cut at "No problems match: Lucky guesses? …"): `label` says what to do
 * (`Raise luckyGuessThreshold to 1/5`), `description` why (`n ≤ 5 per problem: no rate can be ≤ 12.5%`). Undefined
 * when {@link luckyGuessHint} is (some problem could match, or no graded sample).
 */
export function luckyGuessAdvice(
  maxGraded: number,
  threshold: number,
): { label: string; description: string } | undefined {
  if (luckyGuessHint(maxGraded, threshold) === undefined) return undefined;
  return {
    label: `Raise luckyGuessThreshold to ${maxGraded === 1 ? '1' : `1/${maxGraded}`}`,
    description: `n ≤ ${maxGraded} per problem: no rate can be ≤ ${percent(threshold)}`,
  };
}
