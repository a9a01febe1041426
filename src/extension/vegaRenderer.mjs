// Entry of dist/vegaRenderer.js (scripts/build.mjs; CommonJS for the extension host): Vega's runtime (the
// webview's lean index, webview/vegaLean.mjs) and its expression interpreter, to draw the problem view's
// first charts as SVG on the host (src/extension/chartCompiler.ts ChartCompiler.svg): the page shows that
// SVG until its own Vega, a 1 MB script, is compiled and has drawn the interactive chart. `vega-canvas` is
// src/extension/vegaHostCanvas.mjs (text measured with the page's glyph widths).
import { View, parse } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { setGlyphWidths } from './vegaHostCanvas.mjs';

/** Renders run one after another: the glyph widths are the module's, set for each render. */
let queue = Promise.resolve();

/**
 * `spec` (a Vega spec, data inline) drawn as an SVG document string, text measured with `glyphs`
 * (src/shared/glyphWidths.ts GlyphWidths; undefined: Vega's estimate). Expressions are interpreted
 * (no code generated from the spec). Rejects with Vega's error for a spec it cannot parse or run.
 */
export function renderSvg(spec, glyphs) {
  const run = queue.then(async () => {
    setGlyphWidths(glyphs);
    const view = new View(parse(spec, undefined, { ast: true }), {
      renderer: 'none',
      expr: expressionInterpreter,
      logLevel: 0,
    });
    try {
      return await view.toSVG();
    } finally {
      view.finalize();
      setGlyphWidths(undefined);
    }
  });
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}
