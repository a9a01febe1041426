/**
 * Text widths for a chart laid out away from the page that shows it. The problem view's first charts are
 * drawn as SVG on the extension host (src/extension/vegaRenderer.mjs), where no canvas measures text; Vega
 * would then guess every label at 0.8 em a character, and the legend and axes would take other room than in
 * the page's own chart, which replaces the SVG a moment later. The page measures its chart font once
 * ({@link GLYPH_FIRST}..{@link GLYPH_LAST}, normal and bold, at {@link GLYPH_SIZE} px: webview/charts.ts) and
 * the host sums those widths ({@link textWidth}). Pure (no DOM): shared by the webview, the host and tests.
 */

/** The first and last code point measured (printable ASCII). */
export const GLYPH_FIRST = 32;
export const GLYPH_LAST = 126;
/** The font size (px) the widths are measured at; other sizes scale linearly. */
export const GLYPH_SIZE = 100;
/** How many widths each weight has. */
export const GLYPH_COUNT = GLYPH_LAST - GLYPH_FIRST + 1;

/**
 * The advance widths (px at {@link GLYPH_SIZE}) of code points {@link GLYPH_FIRST}..{@link GLYPH_LAST} in the
 * chart's font family, `normal` and `bold` weight, {@link GLYPH_COUNT} each.
 */
export interface GlyphWidths {
  normal: number[];
  bold: number[];
}

/** Whether `v` is a {@link GlyphWidths} (two lists of {@link GLYPH_COUNT} finite widths in 0..1000). */
export function isGlyphWidths(v: unknown): v is GlyphWidths {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const ok = (a: unknown) =>
    Array.isArray(a) &&
    a.length === GLYPH_COUNT &&
    a.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1000);
  return Object.keys(o).length === 2 && ok(o.normal) && ok(o.bold);
}

/**
 * The width (px) of `text` in the CSS font shorthand `font` (as Vega writes it: `[style] [variant] [weight]
 * <size>px <family>`), from `w`: the sum of each character's width at the font's size. Bold is a weight of
 * `bold`, `bolder` or 600 and above. A character outside the measured range counts as the mean width of the
 * measured ones (a CJK or accented label is then near, not exact). A font without a `px` size is read as 11 px
 * (Vega's default size). Kerning is not counted (sub-pixel for chart labels).
 */
export function textWidth(w: GlyphWidths, font: string, text: string): number {
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 11);
  const weight = /(?:^|\s)(bold|bolder|[6-9]00)(?:\s|$)/.test(font.split(/\d+(?:\.\d+)?px/)[0] ?? '');
  const table = weight ? w.bold : w.normal;
  let mean = 0;
  for (const x of table) mean += x;
  mean /= table.length || 1;
  let sum = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    sum += c >= GLYPH_FIRST && c <= GLYPH_LAST ? (table[c - GLYPH_FIRST] ?? mean) : mean;
  }
  return (sum * size) / GLYPH_SIZE;
}
