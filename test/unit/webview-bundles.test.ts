/**
 * The webview bundles (scripts/build.mjs, its own options): the chart views' dist/webview.js
 * (webview/main.ts) with the chart libraries in dist/charts-vegalite.js (webview/chartsVendorLite.ts: Vega-Lite)
 * and dist/charts-vendor.js (webview/chartsVendor.ts: Vega, compiled at the same time by Chromium) and the
 * rendering pipeline of model output in dist/webview-text.js (webview/textBundle.ts, loaded when first
 * needed: the problem view's chart does not wait for Markdown, KaTeX and DOMPurify to be parsed and run),
 * and the sample preview's dist/preview.js (webview/preview.ts). The preview must not carry Vega, Vega-Lite or
 * vega-embed: in code-server the webviews share the workbench's renderer thread, and evaluating the
 * 1.5 MB chart bundle was the preview's longest task (a Chromium trace of test/e2e/perf.e2e.ts: 0.7 s
 * at load 14, 84 ms of CPU). The chart libraries and the preview start with V8's explicit compile hint
 * (compiled in full on Chromium's background thread as they stream in); dist/webview.js does not (compiling
 * all of it delayed the page's start). Both views have the safe rendering pipeline (markdown-it, KaTeX,
 * DOMPurify): the preview built in, the chart views in dist/webview-text.js.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..');
const EAGER = '//# allFunctionsCalledOnLoad';

type Options = esbuild.BuildOptions & { entryPoints: string[]; outfile: string };

/** scripts/build.mjs's options for the bundle written to `outfile` (e.g. 'dist/webview.js'). */
function buildOptions(outfile: string): Options {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { builds } = require(path.join(root, 'scripts', 'build.mjs')) as { builds: Options[] };
  const b = builds.find((x) => x.outfile === outfile);
  assert.ok(b, `scripts/build.mjs builds ${outfile}`);
  return b;
}

/** The node_modules packages bundled into `outfile`'s script, its size minified and its first line, built with scripts/build.mjs's options. */
async function bundled(outfile: string): Promise<{ packages: Set<string>; bytes: number; firstLine: string }> {
  const { outfile: _out, ...options } = buildOptions(outfile);
  const result = await esbuild.build({
    ...options,
    absWorkingDir: root,
    write: false,
    metafile: true,
    minify: true,
    sourcemap: false,
    outdir: 'out/bundle-test',
    logLevel: 'silent',
  });
  // the script's own inputs (not the stylesheet's: dist/webview.css carries KaTeX's styles)
  const script = Object.entries(result.metafile.outputs).find(([name]) => name.endsWith('.js'));
  assert.ok(script, `${outfile}: a script output`);
  const packages = new Set<string>();
  for (const [input, { bytesInOutput }] of Object.entries(script[1].inputs)) {
    if (bytesInOutput === 0 || /\.css$/.test(input)) continue;
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]);
  }
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const text = js?.text ?? '';
  return { packages, bytes: js?.contents.length ?? 0, firstLine: text.slice(0, text.indexOf('\n')) };
}

describe('webview bundles', { timeout: 120_000 }, () => {
  test('Vega is in the chart libraries bundle only; both views have the safe renderer', async () => {
    const views = await bundled('dist/webview.js');
    const libs = await bundled('dist/charts-vendor.js');
    const vl = await bundled('dist/charts-vegalite.js');
    const preview = await bundled('dist/preview.js');
    const text = await bundled('dist/webview-text.js');
    for (const p of ['vega', 'vega-view', 'vega-embed', 'vega-interpreter'])
      assert.ok(libs.packages.has(p), `the chart libraries bundle has ${p}`);
    // two scripts Chromium compiles at the same time: Vega-Lite's compiler in one, Vega's runtime in the other
    assert.ok(vl.packages.has('vega-lite'), 'the Vega-Lite bundle has vega-lite');
    assert.ok(!libs.packages.has('vega-lite'), 'the Vega bundle has no vega-lite (vega-embed imports a stub)');
    for (const p of ['vega', 'vega-view', 'vega-dataflow', 'vega-scenegraph', 'vega-embed'])
      assert.ok(!vl.packages.has(p), `the Vega-Lite bundle does not have ${p}`);
    // the lean Vega (webview/vegaLean.mjs): the transforms no chart uses, and their d3 packages, are left out
    for (const p of [
      'vega-geo',
      'vega-force',
      'vega-hierarchy',
      'vega-label',
      'vega-regression',
      'vega-voronoi',
      'vega-wordcloud',
      'vega-crossfilter',
      'd3-force',
      'd3-hierarchy',
      'd3-delaunay',
    ])
      assert.ok(!libs.packages.has(p), `the Vega bundle does not have ${p}`);
    assert.deepEqual(
      [...views.packages].filter((p) => p.startsWith('vega')),
      [],
      'no Vega package in the views bundle',
    );
    assert.deepEqual(
      [...preview.packages].filter((p) => p.startsWith('vega')),
      [],
      'no Vega package in the preview bundle',
    );
    assert.deepEqual(
      [...text.packages].filter((p) => p.startsWith('vega')),
      [],
      'no Vega package in the text renderer bundle',
    );
    for (const p of ['markdown-it', 'katex', 'dompurify']) {
      assert.ok(preview.packages.has(p), `the preview bundle has ${p}`);
      assert.ok(text.packages.has(p), `the text renderer bundle has ${p}`);
      assert.ok(!libs.packages.has(p), `the chart libraries bundle does not have ${p}`);
      assert.ok(!vl.packages.has(p), `the Vega-Lite bundle does not have ${p}`);
    }
    for (const p of ['markdown-it', 'katex'])
      assert.ok(!views.packages.has(p), `the views bundle does not have ${p} (loaded from dist/webview-text.js)`);
    // DOMPurify sanitizes the host's SVG drawing of a new problem view's first chart (webview/charts.ts), which
    // the page shows before anything else is loaded
    assert.ok(views.packages.has('dompurify'), 'the views bundle has dompurify');
    // minified: views ~0.22 MB (was 0.62 MB with the text renderer), text renderer ~0.41 MB, chart
    // libraries 0.28 MB (Vega-Lite) + 0.51 MB (Vega; 0.86 MB for both in one bundle before); the preview's ~0.55 MB
    assert.ok(views.bytes < 300_000, `views bundle ${views.bytes} bytes < 300 kB`);
    assert.ok(libs.bytes < 560_000, `Vega bundle ${libs.bytes} bytes < 560 kB`);
    const chartViews = views.bytes + libs.bytes + vl.bytes + text.bytes;
    assert.ok(preview.bytes < chartViews / 2, `preview ${preview.bytes} bytes < half of ${chartViews}`);
  });

  test('the chart libraries, the text renderer and the preview are compiled eagerly (V8 compile hint), the views bundle lazily', async () => {
    assert.equal((await bundled('dist/charts-vendor.js')).firstLine, EAGER);
    assert.equal((await bundled('dist/charts-vegalite.js')).firstLine, EAGER);
    assert.equal((await bundled('dist/preview.js')).firstLine, EAGER);
    assert.equal((await bundled('dist/webview-text.js')).firstLine, EAGER);
    assert.notEqual((await bundled('dist/webview.js')).firstLine, EAGER);
  });
});
