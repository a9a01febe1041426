/**
 * Entry of dist/charts-vendor.js (IIFE), run after the chart views' dist/webview.js and
 * dist/charts-vegalite.js: Vega, vega-embed and vega-interpreter, published as
 * `globalThis.__traceInspectorCharts` for webview/charts.ts, which is told by the event
 * {@link CHARTS_READY_EVENT} (a chart's Vega view waits for it). Vega-Lite is not in it: vega-embed's
 * import of it is a stub (webview/vegaLiteStub.ts, scripts/build.mjs `alias`), the charts are compiled by
 * dist/charts-vegalite.js and handed to vega-embed as Vega specs. Both scripts start with V8's explicit
 * compile hint (scripts/build.mjs): their functions are compiled as they stream in, each on a background
 * thread of Chromium's, at the same time, instead of on first call in the page's tasks.
 */
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { CHARTS_READY_EVENT, type ChartsGlobal, type VegaLibraries } from './chartsApi';

const libraries: VegaLibraries = { embed, expressionInterpreter };
(globalThis as ChartsGlobal).__traceInspectorCharts = libraries;
try {
  performance.mark('ti:charts');
} catch {
  /* no User Timing API */
}
window.dispatchEvent(new Event(CHARTS_READY_EVENT));
