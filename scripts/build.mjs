// Bundles the extension host, the CLI and the webview with esbuild.
// better-sqlite3 stays external (native addon shipped in node_modules); `vscode` is provided by the host.
// @cortex-js/compute-engine (answer equivalence's CAS, ~3.4 MB, loaded on first use) stays external too:
// one copy in node_modules serves the extension host and the CLI instead of one inside each bundle.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const production = process.argv.includes('--production');
// jsonc-parser's UMD entry requires its parts at run time, which a bundle cannot follow: use its ES module build.
const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

// The chart libraries' bundle and the preview's start with V8's explicit compile hint: every function is
// compiled eagerly while the script is parsed, which for a script this size happens on Chromium's
// background streaming thread, instead of lazily on first call on the page's main thread (in code-server
// the workbench's): the first Vega-Lite compile and Vega view of a problem view, and the preview's first
// Markdown / KaTeX slice of a long sample, otherwise compiled their code there, in tasks of the page
// (docs/performance-log.md). dist/webview.js stays lazy: compiling all of it delayed the page's start.
// dist/webview-text.js (loaded after the first chart) is hinted too.
const eagerCompile = { js: '//# allFunctionsCalledOnLoad' };

/** Every bundle's esbuild options (exported for test/unit/webview-bundles.test.ts). */
export const builds = [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode', 'better-sqlite3', '@cortex-js/compute-engine'],
  },
  {
    ...common,
    entryPoints: ['src/extension/indexWorker.ts'],
    outfile: 'dist/indexWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['better-sqlite3', '@cortex-js/compute-engine'],
  },
  // The overview's figures (bootstraps over every problem, whole-folder scans) off the extension host's main
  // thread (src/extension/figuresRunner.ts), on its own read-only connection to the index.
  {
    ...common,
    entryPoints: ['src/extension/figuresWorker.ts'],
    outfile: 'dist/figuresWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['better-sqlite3', '@cortex-js/compute-engine'],
  },
  // Vega-Lite's compiler for the extension host (src/extension/chartCompiler.ts loads it when the user is
  // idle and compiles the problem view's first charts): its imports of `vega` are vega-util's helpers, as in
  // dist/charts-vegalite.js, so no Vega runtime comes with it.
  {
    ...common,
    entryPoints: ['src/extension/vegaLiteCompiler.mjs'],
    outfile: 'dist/vegaLiteCompiler.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    alias: { ...common.alias, vega: 'vega-util' },
  },
  // Vega's runtime for the extension host, to draw the problem view's first charts as SVG
  // (src/extension/chartCompiler.ts; loaded when the user is idle, like the compiler): `vega` is the
  // webview's lean index (webview/vegaLean.mjs), `vega-canvas` a canvas that only measures text with the
  // page's glyph widths (src/extension/vegaHostCanvas.mjs; vega-canvas's Node build would await a native
  // `canvas` package, which a CommonJS bundle cannot hold and this extension does not ship).
  {
    ...common,
    entryPoints: ['src/extension/vegaRenderer.mjs'],
    outfile: 'dist/vegaRenderer.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    alias: {
      ...common.alias,
      vega: './webview/vegaLean.mjs',
      'vega-canvas': './src/extension/vegaHostCanvas.mjs',
    },
  },
  // The parallel reader's thread, started by the indexer from the directory of the bundle that runs it.
  {
    ...common,
    entryPoints: ['src/core/index/readerWorker.ts'],
    outfile: 'dist/readerWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
  },
  // The process a query of `trace-inspector sql` runs in (src/core/sql/query.ts), killed at its time limit.
  {
    ...common,
    entryPoints: ['src/core/sql/sqlRunner.ts'],
    outfile: 'dist/sqlRunner.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['better-sqlite3'],
  },
  {
    ...common,
    entryPoints: ['src/extension/similarityWorker.ts'],
    outfile: 'dist/similarityWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // outside the bundle as for the host: the worker starts while the problem view loads, and parsing a
    // 3.7 MB bundle then took CPU from the webview; the CAS is loaded only when a maj@k job needs it
    external: ['@cortex-js/compute-engine'],
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['better-sqlite3', '@cortex-js/compute-engine'],
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.woff2': 'file', '.woff': 'empty', '.ttf': 'empty' },
  },
  // The chart libraries in two scripts that Chromium parses and compiles at the same time, each on a
  // background thread (webview/chartsApi.ts): Vega-Lite's compiler (webview/chartsVendorLite.ts; its
  // imports of `vega` are vega-util helpers) and Vega, vega-embed, vega-interpreter
  // (webview/chartsVendor.ts; vega-embed's import of Vega-Lite is a stub: the views give it Vega specs;
  // `vega` is webview/vegaLean.mjs: vega's index without the transforms no chart of the views uses).
  {
    ...common,
    entryPoints: ['webview/chartsVendorLite.ts'],
    outfile: 'dist/charts-vegalite.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    banner: eagerCompile,
    alias: { ...common.alias, vega: 'vega-util' },
  },
  {
    ...common,
    entryPoints: ['webview/chartsVendor.ts'],
    outfile: 'dist/charts-vendor.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    banner: eagerCompile,
    alias: { ...common.alias, 'vega-lite': './webview/vegaLiteStub.ts', vega: './webview/vegaLean.mjs' },
  },
  // The rendering pipeline of model output (markdown-it, KaTeX, DOMPurify) for the chart views, loaded by
  // dist/webview.js when first needed (webview/textApi.ts): after the problem view's first chart, or when a
  // sample is opened. Compiled eagerly like the preview (its first render would otherwise compile on the page).
  {
    ...common,
    entryPoints: ['webview/textBundle.ts'],
    outfile: 'dist/webview-text.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    banner: eagerCompile,
  },
  // The sample preview's own bundle: no Vega / Vega-Lite (about half the size); it uses dist/webview.css.
  {
    ...common,
    entryPoints: ['webview/preview.ts'],
    outfile: 'dist/preview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    banner: eagerCompile,
  },
];
/**
 * Files the bundles load at run time, copied into dist/: resvg's WebAssembly (the PNG figures, loaded by
 * src/extension/figureExport.ts `loadPngRenderer` from dist/ in the CLI, the figures worker and the VSIX).
 */
export const copies = [{ from: 'node_modules/@resvg/resvg-wasm/index_bg.wasm', to: 'dist/resvg.wasm' }];

// built when run (`node scripts/build.mjs`), not when imported
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync('dist', { recursive: true });
  for (const c of copies) copyFileSync(c.from, c.to);
  Promise.all(builds.filter((b) => existsSync(b.entryPoints[0])).map((b) => esbuild.build(b))).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
