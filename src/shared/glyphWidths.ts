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

/**
 * Glyph widths used when no page has measured its chart font yet (the first problem view of a profile): the
 * printable ASCII of VS Code's font stack on Linux (`system-ui, "Ubuntu", "Droid Sans", sans-serif`) as
 * Chromium on Debian measures it (its sans-serif, DejaVu Sans), at {@link GLYPH_SIZE} px. Other systems'
 * UI fonts are within about 15% of it; the page's own measurement replaces it after its first chart.
 */
export const DEFAULT_GLYPH_WIDTHS: GlyphWidths = {
  normal: [
    31.79, 40.09, 46, 83.79, 63.62, 95.02, 77.98, 27.49, 39.01, 39.01, 50, 83.79, 31.79, 36.08, 31.79, 33.69, 63.62,
    63.62, 63.62, 63.62, 63.62, 63.62, 63.62, 63.62, 63.62, 63.62, 33.69, 33.69, 83.79, 83.79, 83.79, 53.08, 100, 68.41,
    68.6, 69.82, 77, 63.18, 57.52, 77.49, 75.2, 29.49, 29.49, 65.58, 55.71, 86.28, 74.8, 78.71, 60.3, 78.71, 69.48,
    63.48, 61.08, 73.19, 68.41, 98.88, 68.51, 61.08, 68.51, 39.01, 33.69, 39.01, 83.79, 50, 50, 61.28, 63.48, 54.98,
    63.48, 61.52, 35.21, 63.48, 63.38, 27.78, 27.78, 57.91, 27.78, 97.41, 63.38, 61.18, 63.48, 63.48, 41.11, 52.1,
    39.21, 63.38, 59.18, 81.79, 59.18, 59.18, 52.49, 63.62, 33.69, 63.62, 83.79,
  ],
  bold: [
    34.81, 45.61, 52.1, 83.79, 69.58, 100.2, 87.21, 30.62, 45.7, 45.7, 52.29, 83.79, 37.99, 41.5, 37.99, 36.52, 69.58,
    69.58, 69.58, 69.58, 69.58, 69.58, 69.58, 69.58, 69.58, 69.58, 39.99, 39.99, 83.79, 83.79, 83.79, 58.01, 100, 77.39,
    76.22, 73.39, 83.01, 68.31, 68.31, 82.08, 83.69, 37.21, 37.21, 77.49, 63.72, 99.51, 83.69, 85.01, 73.29, 85.01, 77,
    72.02, 68.21, 81.2, 77.39, 110.3, 77.1, 72.41, 72.51, 45.7, 36.52, 45.7, 83.79, 50, 50, 67.48, 71.58, 59.28, 71.58,
    67.82, 43.51, 71.58, 71.19, 34.28, 34.28, 66.5, 34.28, 104.2, 71.19, 68.7, 71.58, 71.58, 49.32, 59.52, 47.8, 71.19,
    65.19, 92.38, 64.5, 65.19, 58.2, 71.19, 36.52, 71.19, 83.79,
  ],
};
