/**
 * Entry of dist/charts-vendor.js (IIFE), the chart views' first script: Vega, Vega-Lite, vega-embed and
 * vega-interpreter, published as `globalThis.__traceInspectorCharts` for webview/charts.ts. A bundle of its
 * own so that only it starts with V8's explicit compile hint (scripts/build.mjs): its functions are
 * compiled as it streams in, on Chromium's background thread, instead of on first call in the page's
 * tasks (the first Vega-Lite compile and Vega view of a problem view), while dist/webview.js (the views,
 * Markdown, KaTeX, the toolkit) keeps V8's lazy compilation and reaches the page sooner.
 */
import { logger } from 'vega';
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';

/** What webview/charts.ts uses of the chart libraries. */
export interface ChartLibraries {
  logger: typeof logger;
  embed: typeof embed;
  expressionInterpreter: typeof expressionInterpreter;
  compile: typeof compile;
}

const libraries: ChartLibraries = { logger, embed, expressionInterpreter, compile };
(globalThis as { __traceInspectorCharts?: ChartLibraries }).__traceInspectorCharts = libraries;
