/**
 * What dist/charts-vendor.js bundles in place of Vega-Lite (scripts/build.mjs `alias`): vega-embed imports
 * it for Vega-Lite specs and its version string, and the chart views hand vega-embed Vega specs only
 * (`mode: 'vega'`, compiled by dist/charts-vegalite.js, webview/charts.ts). Compiling through it throws.
 */
export const version = 'compiled separately (dist/charts-vegalite.js)';

/** Never used: the charts are compiled by dist/charts-vegalite.js. Throws. */
export function compile(): never {
  throw new Error('Vega-Lite is not in this bundle: charts are compiled by dist/charts-vegalite.js');
}
