/**
 * Word-level diff of a model sample against a base sample, for highlighting. Two variants, both
 * computed by the `diff` package (jsdiff v9, Myers' O(ND) algorithm); no diff algorithm here.
 *
 * - {@link tokenDiff} (used by default for "diff with the nearest base sample"): `diffArrays` over
 *   the normalised tokens of `tokenize.ts`, so it ignores exactly what the similarity score
 *   ignores (whitespace, `\dfrac` vs `\frac`, `$` delimiters...), and every segment carries exact
 *   offsets into the original text it came from.
 * - {@link wordDiff}: `diffWords` on the raw texts (jsdiff's own word/punctuation tokens, case
 *   folded). LaTeX spellings count as changes, and whitespace is kept only "as far as possible"
 *   (jsdiff's words): when the two texts space a common word differently, the common segment
 *   carries one of the two spellings, so the segments may not rebuild the texts byte for byte.
 */

import { diffArrays, diffWords } from 'diff';
import { SimToken, tokenizeWithOffsets } from './tokenize';

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
 * Segments without `removed` rebuild `modelText`, segments without `added` rebuild `baseText`,
 * up to whitespace and letter case inside common segments (see the module comment).
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

/** A {@link DiffSegment} with its place in the original text. */
export interface TokenDiffSegment extends DiffSegment {
  /**
   * Offsets (UTF-16, end exclusive) of `value`: in the BASE text for `removed` segments, in the
   * MODEL text otherwise.
   */
  start: number;
  end: number;
}

/**
 * Token-level diff of `modelText` (new) against `baseText` (old) over the normalised tokens of
 * `tokenize.ts`, with `diffArrays` of the `diff` package.
 *
 * Output: segments in order (jsdiff's order: a removed run precedes the added run that replaces
 * it). Each value is a slice of an original text. The segments without `removed` partition the
 * model text exactly (their concatenation is `modelText`); a `removed` segment is the base text
 * from its first to its last removed token. Whitespace between a common and an added run belongs
 * to the common segment; whitespace at the text edges next to an added run is a separate common
 * segment, so added segments start and end on tokens.
 *
 * @param baseText old text (untrusted; a non-string is read as `''`).
 * @param modelText new text (untrusted; a non-string is read as `''`).
 * @returns the segments, `[]` when both texts are empty, or `null` when the diff exceeded
 *   `timeoutMs` (default 2000).
 */
export function tokenDiff(
  baseText: string,
  modelText: string,
  opts?: { timeoutMs?: number },
): TokenDiffSegment[] | null {
  const base = typeof baseText === 'string' ? baseText : '';
  const model = typeof modelText === 'string' ? modelText : '';
  const bt = tokenizeWithOffsets(base);
  const mt = tokenizeWithOffsets(model);
  const changes = diffArrays(
    bt.map((t) => t.token),
    mt.map((t) => t.token),
    { timeout: opts?.timeoutMs ?? 2000 },
  );
  if (changes === undefined) return null;

  type Raw = { kind: 'common' | 'added' | 'removed'; start: number; end: number };
  const raw: Raw[] = [];
  const span = (toks: SimToken[], from: number, to: number) => ({ start: toks[from].start, end: toks[to - 1].end });
  let bi = 0;
  let mi = 0;
  for (const c of changes) {
    const count = c.value.length;
    if (count === 0) continue;
    if (c.removed) {
      raw.push({ kind: 'removed', ...span(bt, bi, bi + count) });
      bi += count;
    } else if (c.added) {
      raw.push({ kind: 'added', ...span(mt, mi, mi + count) });
      mi += count;
    } else {
      raw.push({ kind: 'common', ...span(mt, mi, mi + count) });
      bi += count;
      mi += count;
    }
  }
  // Give the model text between model-side segments to a common neighbour.
  const out: Raw[] = [];
  let prevModel: Raw | null = null;
  for (const r of raw) {
    if (r.kind === 'removed') {
      out.push(r);
      continue;
    }
    const gapStart = prevModel ? prevModel.end : 0;
    if (gapStart < r.start) {
      if (prevModel && prevModel.kind === 'common') prevModel.end = r.start;
      else if (r.kind === 'common') r.start = gapStart;
      else if (prevModel)
        prevModel.end = r.start; // added next to added (not produced by jsdiff)
      else out.push({ kind: 'common', start: 0, end: r.start });
    }
    out.push(r);
    prevModel = r;
  }
  const tailStart = prevModel ? prevModel.end : 0;
  if (tailStart < model.length) {
    if (prevModel && prevModel.kind === 'common') prevModel.end = model.length;
    else out.push({ kind: 'common', start: tailStart, end: model.length });
  }
  return out.map((r) => {
    const seg: TokenDiffSegment = {
      value: (r.kind === 'removed' ? base : model).slice(r.start, r.end),
      start: r.start,
      end: r.end,
    };
    if (r.kind === 'added') seg.added = true;
    if (r.kind === 'removed') seg.removed = true;
    return seg;
  });
}
