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
