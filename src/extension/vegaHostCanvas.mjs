// What dist/vegaRenderer.js bundles in place of the package `vega-canvas` (scripts/build.mjs `alias`): on the
// extension host there is no canvas, and vega-canvas's Node build would `await import('canvas')` (a native
// package this extension does not ship). Vega's scenegraph asks for one 1 x 1 canvas when it loads, only to
// measure text with its 2D context (`context.font = ...; context.measureText(text).width`): this module's
// context answers from the glyph widths the webview measured in its own chart font
// (src/shared/glyphWidths.ts), set by {@link setGlyphWidths} before each render. No image is ever loaded.
import { textWidth } from '../shared/glyphWidths';

/** The widths the context measures with (undefined: Vega's own estimate of 0.8 em a character). */
let glyphs;

/** Sets the glyph widths (src/shared/glyphWidths.ts GlyphWidths) for the next measurements; undefined: estimate. */
export function setGlyphWidths(w) {
  glyphs = w;
}

const context = {
  font: '10px sans-serif',
  measureText(text) {
    const s = String(text);
    if (glyphs) return { width: textWidth(glyphs, this.font, s) };
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? 11);
    return { width: Math.floor(0.8 * s.length * size) };
  },
};

/** vega-canvas's `canvas(w, h)`: an object whose 2D context only measures text. */
export function canvas() {
  return { width: 1, height: 1, getContext: (type) => (type === '2d' ? context : null) };
}

/** vega-canvas's `image()`: no Image class on the host. */
export function image() {
  return null;
}

export { canvas as domCanvas, image as domImage };
