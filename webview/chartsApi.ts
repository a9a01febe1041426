/**
 * What the chart views (webview/charts.ts, in dist/webview.js) and the chart libraries' two scripts
 * share: the libraries' shape, the globals they are published under and the event sent when each is.
 * Two scripts so that Chromium parses and compiles them at the same time, each on a background thread
 * of its own (both are compiled eagerly, scripts/build.mjs): dist/charts-vegalite.js
 * (webview/chartsVendorLite.ts: Vega-Lite's compiler, what the first task of a chart needs) and
 * dist/charts-vendor.js (webview/chartsVendor.ts: Vega, vega-embed, vega-interpreter: the chart's view).
 * The problem view's page loads only the second with it: its first charts come compiled by the extension
 * host (src/extension/chartCompiler.ts), and it adds the first when it compiles a chart itself.
 * Type imports only of the libraries: nothing of Vega enters dist/webview.js through this file.
 */
import type embed from 'vega-embed';
import type { expressionInterpreter } from 'vega-interpreter';
import type { compile } from 'vega-lite';
import type { logger } from 'vega-util';

/** What webview/charts.ts uses of Vega-Lite (dist/charts-vegalite.js): the compiler and vega-util's logger. */
export interface VegaLiteLibrary {
  compile: typeof compile;
  logger: typeof logger;
}

/** What webview/charts.ts uses of Vega (dist/charts-vendor.js): vega-embed and the CSP-safe expression interpreter. */
export interface VegaLibraries {
  embed: typeof embed;
  expressionInterpreter: typeof expressionInterpreter;
}

/** The globals through which the two scripts publish their libraries. */
export type ChartsGlobal = { __traceInspectorCharts?: VegaLibraries; __traceInspectorVegaLite?: VegaLiteLibrary };

/** Dispatched on `window` by each of the two scripts once its libraries are published. */
export const CHARTS_READY_EVENT = 'trace-inspector-charts-ready';
