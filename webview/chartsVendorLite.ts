/**
 * Entry of dist/charts-vegalite.js (IIFE), run after the chart views' dist/webview.js: Vega-Lite's
 * compiler and vega-util's logger, published as `globalThis.__traceInspectorVegaLite` for
 * webview/charts.ts (a chart's first task, Vega-Lite -> Vega, waits for it; event
 * {@link CHARTS_READY_EVENT}). Vega-Lite's imports of `vega` are vega-util's helpers, bundled from
 * vega-util (scripts/build.mjs `alias`), so no part of Vega's runtime is in this script; that is in
 * dist/charts-vendor.js, which Chromium parses at the same time on another background thread.
 */
import { compile } from 'vega-lite';
import { logger } from 'vega-util';
import { CHARTS_READY_EVENT, type ChartsGlobal, type VegaLiteLibrary } from './chartsApi';

const library: VegaLiteLibrary = { compile, logger };
(globalThis as ChartsGlobal).__traceInspectorVegaLite = library;
try {
  performance.mark('ti:vegalite');
} catch {
  /* no User Timing API */
}
window.dispatchEvent(new Event(CHARTS_READY_EVENT));
