/**
 * Word-level diff of a model sample against a base sample, for highlighting. Uses `diffWords` of
 * the `diff` package (jsdiff v9: Myers' O(ND) algorithm over word and punctuation tokens, whitespace
 * ignored when matching but kept in the output). The diff runs on the ORIGINAL texts, so the
 * segments concatenate back to them exactly; it does not apply the similarity normalisation of
 * `tokenize.ts` (a `\dfrac` vs `\frac` difference shows as a change here while the similarity score
 * ignores it).
 */

import { diffWords } from 'diff';

/** One piece of a diff. Neither flag: common to both texts. */
export interface DiffSegment {
  value: string;
  /** Present (true) when the piece is only in the new (model) text. */
  added?: true;
  /** Present (true) when the piece is only in the old (base) text. */
  removed?: true;
}

export interface WordDiffOptions {
  /** Compare words case-insensitively (default true, matching the similarity measure). */
  ignoreCase?: boolean;
  /** Give up after this many milliseconds and return null (default 2000). */
  timeoutMs?: number;
}

/**
 * Word-level diff of `modelText` (new) against `baseText` (old).
 *
 * Concatenating the values of the segments without `removed` gives `modelText`; concatenating the
 * values without `added` gives `baseText` (up to letter case when `ignoreCase`: common segments
 * carry the model text's spelling).
 *
 * @param baseText old text (untrusted; a non-string is read as `''`).
 * @param modelText new text (untrusted; a non-string is read as `''`).
 * @returns the segments in order, or `null` when the diff exceeded `timeoutMs` (very long,
 *   very different texts).
 */
export function wordDiff(baseText: string, modelText: string, opts?: WordDiffOptions): DiffSegment[] | null {
  const oldStr = typeof baseText === 'string' ? baseText : '';
  const newStr = typeof modelText === 'string' ? modelText : '';
  const changes = diffWords(oldStr, newStr, {
    ignoreCase: opts?.ignoreCase ?? true,
    timeout: opts?.timeoutMs ?? 2000,
  });
  if (changes === undefined) return null;
  return changes.map((c) => {
    const seg: DiffSegment = { value: c.value };
    if (c.added) seg.added = true;
    if (c.removed) seg.removed = true;
    return seg;
  });
}
