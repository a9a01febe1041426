/**
 * Entry of dist/charts-vendor.js (IIFE), run after the chart views' dist/webview.js: Vega, Vega-Lite,
 * vega-embed and vega-interpreter, published as `globalThis.__traceInspectorCharts` for webview/charts.ts,
 * which is told by the event {@link CHARTS_READY_EVENT} (its first chart waits for it). A bundle of its
 * own so that only it starts with V8's explicit compile hint (scripts/build.mjs): its functions are
 * compiled as it streams in, on Chromium's background thread, instead of on first call in the page's
 * tasks (the first Vega-Lite compile and Vega view of a problem view), while dist/webview.js (the views,
 * Markdown, KaTeX, the toolkit) keeps V8's lazy compilation and reaches the page sooner.
 */
import { logger } from 'vega';
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';
import { CHARTS_READY_EVENT, type ChartLibraries, type ChartsGlobal } from './chartsApi';

const libraries: ChartLibraries = { logger, embed, expressionInterpreter, compile };
(globalThis as ChartsGlobal).__traceInspectorCharts = libraries;
try {
  performance.mark('ti:charts');
} catch {
  /* no User Timing API */
}
window.dispatchEvent(new Event(CHARTS_READY_EVENT));
