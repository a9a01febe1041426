// Entry of dist/vegaLiteCompiler.js (scripts/build.mjs; CommonJS for the extension host): Vega-Lite's
// compiler, loaded by src/extension/chartCompiler.ts when the user is idle. Its imports of `vega` are
// vega-util's helpers (the build's `alias`, as for the webview's dist/charts-vegalite.js): no Vega runtime.
import { compile as compileVegaLite } from 'vega-lite';
import { logger } from 'vega-util';

// no warnings on the host's console (the webview compiles with logLevel 0 too)
const quiet = logger(0);

/** Vega-Lite -> Vega, without log output. */
export function compile(spec) {
  return compileVegaLite(spec, { logger: quiet });
}
