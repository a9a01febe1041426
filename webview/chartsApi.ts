/**
 * What the chart views (webview/charts.ts, in dist/webview.js) and the chart libraries' script
 * (webview/chartsVendor.ts, dist/charts-vendor.js) share: the libraries' shape, the global they are
 * published under and the event sent when they are. Type imports only of the libraries: nothing of Vega
 * enters dist/webview.js through this file.
 */
import type { logger } from 'vega';
import type embed from 'vega-embed';
import type { expressionInterpreter } from 'vega-interpreter';
import type { compile } from 'vega-lite';

/** What webview/charts.ts uses of the chart libraries. */
export interface ChartLibraries {
  logger: typeof logger;
  embed: typeof embed;
  expressionInterpreter: typeof expressionInterpreter;
  compile: typeof compile;
}

/** The global through which dist/charts-vendor.js publishes the libraries. */
export type ChartsGlobal = { __traceInspectorCharts?: ChartLibraries };

/** Dispatched on `window` by dist/charts-vendor.js once the libraries are published. */
export const CHARTS_READY_EVENT = 'trace-inspector-charts-ready';
