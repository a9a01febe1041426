/**
 * The two webview bundles (scripts/build.mjs): the chart views' dist/webview.js (webview/main.ts) and
 * the sample preview's dist/preview.js (webview/preview.ts). The preview must not carry Vega, Vega-Lite
 * or vega-embed: in code-server the webviews share the workbench's renderer thread, and evaluating the
 * 1.5 MB chart bundle was the preview's longest task (a Chromium trace of test/e2e/perf.e2e.ts: 0.7 s
 * at load 14, 84 ms of CPU). Both still carry the safe rendering pipeline (markdown-it, KaTeX, DOMPurify).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..');

/** The node_modules packages bundled from `entry`, with the options of scripts/build.mjs. */
async function bundledPackages(entry: string): Promise<{ packages: Set<string>; bytes: number }> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    minify: true,
    outdir: 'out/bundle-test',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.woff2': 'file', '.woff': 'empty', '.ttf': 'empty' },
    logLevel: 'silent',
  });
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]);
  }
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  return { packages, bytes: js?.contents.length ?? 0 };
}

describe('webview bundles', { timeout: 120_000 }, () => {
  test('the preview bundle has no Vega; the chart bundle has it; both have the safe renderer', async () => {
    const charts = await bundledPackages('webview/main.ts');
    const preview = await bundledPackages('webview/preview.ts');
    for (const p of ['vega', 'vega-lite', 'vega-embed', 'vega-interpreter'])
      assert.ok(charts.packages.has(p), `the chart bundle has ${p}`);
    const vegaInPreview = [...preview.packages].filter((p) => p.startsWith('vega'));
    assert.deepEqual(vegaInPreview, [], 'no Vega package in the preview bundle');
    for (const p of ['markdown-it', 'katex', 'dompurify']) {
      assert.ok(preview.packages.has(p), `the preview bundle has ${p}`);
      assert.ok(charts.packages.has(p), `the chart bundle has ${p}`);
    }
    // minified: the chart bundle is ~1.5 MB, the preview's ~0.55 MB
    assert.ok(preview.bytes < charts.bytes / 2, `preview ${preview.bytes} bytes < half of ${charts.bytes}`);
  });
});
