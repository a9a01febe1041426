/**
 * Hostile traces in the real webview bundle, in a real browser (Debian's Chromium via
 * playwright-core): builds webview/main.ts with esbuild, serves it from 127.0.0.1 inside the exact
 * HTML shell and CSP of the real panel (src/extension/panelHtml.ts), with a stub
 * `acquireVsCodeApi` that answers the webview's requests with a corpus of hostile samples (script
 * tags, `<img onerror>`, `javascript:` links, SVG with script, KaTeX `\href`/`\url`/
 * `\includegraphics`/`\htmlStyle`, raw HTML inside Markdown, mXSS, a hostile model label and
 * question). For every sample it opens the rendered, novel-span and diff views and asserts:
 * no dialog, no 'pwned' console marker, `window.__pwned` undefined, no request other than the
 * page's own files, no CSP violation, and the hostile strings visible as text.
 * The overview runs on a stub with hostile model labels: the model list and legend show and hide
 * models, with the same checks. Screenshot: test-output/e2e/screenshots/hostile-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { panelHtml } from '../../src/extension/panelHtml';
import { ChartCompiler } from '../../src/extension/chartCompiler';
import { GLYPH_COUNT } from '../../src/shared/glyphWidths';
import { SHARED_HOSTILE_CASES } from './hostileCases';
import type {
  NoveltyData,
  OverviewData,
  ProblemData,
  SampleSummary,
  SampleText,
  SimilarityData,
} from '../../src/shared/protocol';

// Browser globals used inside page callbacks (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const window: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

function findRepoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj) && JSON.parse(fs.readFileSync(pj, 'utf8')).name === 'reasoning-trace-inspector') return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
const repoRoot = findRepoRoot();
const outDir = path.join(repoRoot, 'test-output', 'e2e', 'hostile');
const shotDir = path.join(repoRoot, 'test-output', 'e2e', 'screenshots');
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

/** The hostile corpus: each trace is one sample. `visible` must appear as text once rendered. */
const HOSTILE: { name: string; text: string; visible: string[] }[] = [
  {
    name: 'script tag',
    text: "Step 1 <script>window.__pwned=1;console.log('pwned')</script> done",
    visible: ["<script>window.__pwned=1;console.log('pwned')</script>"],
  },
  {
    name: 'img onerror',
    text: 'Look: <img src=x onerror="window.__pwned=1;console.log(\'pwned\')"> ok',
    visible: ['<img src=x onerror='],
  },
  {
    name: 'javascript link',
    text: '[click me](javascript:window.__pwned=1) and <javascript:alert(1)> and [ok](http://evil.example/track "t")',
    visible: ['[click me](javascript:window.__pwned=1)', 'ok'],
  },
  {
    name: 'svg script',
    text: '<svg onload="window.__pwned=1"><script>window.__pwned=1</script><use href="http://evil.example/x.svg#a"/></svg>',
    visible: ['<svg onload="window.__pwned=1">'],
  },
  {
    name: 'katex href',
    text: 'Math $\\href{javascript:window.__pwned=1}{click}$ and $\\url{javascript:alert(1)}$ end',
    visible: ['click', 'javascript:alert(1)', 'end'],
  },
  {
    name: 'katex includegraphics/htmlStyle',
    text: '$\\includegraphics{http://evil.example/a.png}$ $\\htmlStyle{background:url(http://evil.example/b)}{z}$ $\\htmlClass{x}{y}$',
    visible: ['[image: http://evil.example/a.png]', 'z', 'y'],
  },
  { name: 'macro bomb', text: '$\\def\\a{\\a\\a}\\a$ then $x^2$ and $5 and $10', visible: ['$5 and $10'] },
  {
    name: 'html in markdown',
    text: '# Title <iframe src="http://evil.example"></iframe>\n\n* item <a href="javascript:alert(1)">x</a>\n\n<style>body{background:url(http://evil.example/c)}</style>\n\n<form action="http://evil.example"><button>go</button></form>',
    visible: [
      '<iframe src="http://evil.example"></iframe>',
      '<style>body{background:url(http://evil.example/c)}</style>',
    ],
  },
  { name: 'image', text: '![tracker](http://evil.example/pixel.png) after', visible: ['[image: tracker]'] },
  ...SHARED_HOSTILE_CASES,
];

const HOSTILE_LABEL = '<img src=x onerror="window.__pwned=1">model';

function fixtures() {
  const modelId = 2;
  const baseId = 1;
  const problem: ProblemData = {
    problem: {
      id: 1,
      dataset: 'hostile<script>',
      problemId: '7<img src=x onerror=window.__pwned=1>',
      question: 'What is <script>window.__pwned=1</script> $2+2$? It costs $5 and $10.',
      referenceAnswer: '<b>4</b>',
      level: null,
    },
    models: [
      { id: baseId, label: 'base <svg onload=window.__pwned=1>', displayId: 'base', isBase: true, isFocus: false },
      { id: modelId, label: HOSTILE_LABEL, displayId: 'rl', isBase: false, isFocus: true },
    ],
    stats: [
      {
        modelId: baseId,
        n: 8,
        c: 2,
        samples: 8,
        scored: 0,
        accuracy: 0.25,
        betaLow: 0.05,
        betaHigh: 0.6,
        passAtK: [
          { k: 1, value: 0.25 },
          { k: 2, value: 0.46 },
          { k: 4, value: 0.79 },
          { k: 8, value: 1 },
        ],
        bestOfK: [],
        majAtK: [],
        hasMajAtK: false,
      },
      {
        modelId,
        n: 8,
        c: 6,
        samples: HOSTILE.length,
        scored: 0,
        accuracy: 0.75,
        betaLow: 0.4,
        betaHigh: 0.94,
        passAtK: [
          { k: 1, value: 0.75 },
          { k: 2, value: 0.96 },
          { k: 4, value: 1 },
          { k: 8, value: 1 },
        ],
        bestOfK: [],
        majAtK: [],
        hasMajAtK: false,
      },
    ],
    comparisons: [{ modelId, baseModelId: baseId, category: 'sharpening', withinNoise: true, saturationK: 4 }],
    baseModelId: baseId,
    focusModelId: modelId,
    labels: ['correct reasoning', 'lucky guess', '<img src=x onerror=window.__pwned=1>'],
    hasLogprobs: false,
  };
  const samples: SampleSummary[] = HOSTILE.map((h, i) => ({
    id: 100 + i,
    modelId,
    sampleIndex: i,
    correct: i % 2 === 0,
    extractedAnswer: '<img src=x onerror=window.__pwned=1>',
    rewardScore: null,
    finishReason: 'stop',
    tokenCount: null,
    length: h.text.length,
    labels: ['<b>x</b>'],
    hasNote: false,
  }));
  const texts: Record<number, SampleText> = {};
  const novelty: Record<number, NoveltyData> = {};
  const baseText = 'Base sample <script>window.__pwned=1</script> with $x^2$';
  HOSTILE.forEach((h, i) => {
    const id = 100 + i;
    texts[id] = {
      id,
      modelId,
      problemId: 1,
      sampleIndex: i,
      correct: i % 2 === 0,
      extractedAnswer: '<img src=x onerror=window.__pwned=1>',
      text: h.text,
      truncated: false,
      fullLength: h.text.length,
      labels: [],
      note: '<script>window.__pwned=1</script>',
    };
    const mid = Math.floor(h.text.length / 2);
    novelty[id] = {
      sampleId: id,
      baseModelId: baseId,
      text: h.text,
      truncated: false,
      spans: [
        { start: 0, end: mid, novel: true },
        { start: mid, end: h.text.length, novel: false },
      ],
      noveltyScore: 0.5,
      tokenCount: 10,
      novelTokenCount: 5,
      nearest: { sampleId: 50, sampleIndex: 0, similarity: 0.3, text: baseText, truncated: false },
      diff: [
        { value: baseText, removed: true },
        { value: h.text, added: true },
      ],
    };
  });
  const sim: SimilarityData = {
    problemId: 1,
    modelId,
    baseModelId: baseId,
    samples: samples.map((s, i) => ({
      sampleId: s.id,
      sampleIndex: s.sampleIndex,
      correct: s.correct,
      similarity: 0.1 + i / 40,
      novelty: 0.5,
      baselinePercentile: 0.2,
      nearest: [{ baseSampleId: 50, baseSampleIndex: 0, similarity: 0.1 + i / 40 }],
    })),
    baseline: [0, 1, 2].map((i) => ({ sampleId: 50 + i, sampleIndex: i, similarity: 0.3 + i / 10, novelty: 0.2 })),
    summary: {
      modelSimilarity: { count: 12, min: 0.1, q1: 0.2, median: 0.25, q3: 0.3, max: 0.4, mean: 0.25 },
      modelNovelty: { count: 12, min: 0.5, q1: 0.5, median: 0.5, q3: 0.5, max: 0.5, mean: 0.5 },
      baselineSimilarity: { count: 3, min: 0.3, q1: 0.35, median: 0.4, q3: 0.45, max: 0.5, mean: 0.4 },
      baselineNovelty: { count: 3, min: 0.2, q1: 0.2, median: 0.2, q3: 0.2, max: 0.2, mean: 0.2 },
    },
    cached: false,
  };
  return { problem, samples, texts, novelty, sim, overview: overviewFixture() };
}

/**
 * An overview with 6 models (more than the 4 shown by default) in 3 runs, hostile labels: the base
 * model and the focus model share run "a", so those two start shown and 4 start hidden.
 */
function overviewFixture(): OverviewData {
  const models = [
    { id: 1, label: 'base <svg onload=window.__pwned=1>', displayId: 'a:base', isBase: true, isFocus: false, run: 'a' },
    { id: 2, label: HOSTILE_LABEL, displayId: 'a:rl', isBase: false, isFocus: true, run: 'a' },
    {
      id: 3,
      label: 'rl step-100 <script>window.__pwned=1</script>',
      displayId: 'b:rl@100',
      isBase: false,
      isFocus: false,
      run: 'b',
    },
    { id: 4, label: 'rl step-300', displayId: 'b:rl@300', isBase: false, isFocus: false, run: 'b' },
    { id: 5, label: 'rl step-500', displayId: 'c:rl@500', isBase: false, isFocus: false, run: 'c' },
    { id: 6, label: 'rl step-1000', displayId: 'c:rl@1000', isBase: false, isFocus: false, run: 'c' },
  ];
  const curves: OverviewData['curves'] = [];
  const histograms: OverviewData['histograms'] = [];
  for (const m of models) {
    [1, 2, 4, 8].forEach((k, i) => {
      const value = Math.min(1, 0.4 + 0.03 * m.id + 0.12 * i);
      curves.push({
        modelId: m.id,
        level: null,
        k,
        value,
        ciLow: value - 0.1,
        ciHigh: Math.min(1, value + 0.1),
        problems: 30,
        missing: 0,
        over: 'over all 30 problems',
      });
    });
    for (let bin = 0; bin < 12; bin++)
      histograms.push({
        modelId: m.id,
        bin,
        label: bin === 0 ? '0' : bin === 11 ? '1' : `(${(bin - 1) / 10}, ${bin / 10}]`,
        count: (bin * m.id) % 7,
      });
  }
  const coverage = models
    .filter((m) => !m.isBase)
    .map((m) => ({
      modelId: m.id,
      baseModelId: 1,
      problems: 30,
      baseOnly: 2,
      modelOnly: m.id,
      both: 20,
      neither: 8 - m.id,
      n: { model: { min: 8, max: 8 }, base: { min: 4, max: 8 } },
      nDiffers: '<img src=x onerror=window.__pwned=1> n differs',
      missing: 0,
      over: 'over all 30 problems',
      crossoverK: 4,
      crossoverKind: 'ahead' as const,
      crossoverAheadK: 4,
      crossoverKMax: 8,
      crossoverKMaxRagged: 8,
      saturationK: null,
      crossoverInterval: { low: 2, high: 7, noneShare: 0.12, replicates: 2000 },
      leaderAtK1: 'model' as const,
      leaderAtK1WithinNoise: false,
      differentGraders: null,
    }));
  return {
    models,
    baseModelId: 1,
    levels: [],
    curves,
    histograms,
    coverage,
    warnings: ['<img src=x onerror=window.__pwned=1> warning'],
    problems: 30,
    datasets: [{ dataset: '<img src=x onerror=window.__pwned=1>', problems: 30 }],
    problemsText: '30 problems <img src=x onerror=window.__pwned=1>',
  };
}

/** The stub of `acquireVsCodeApi`, answering requests from the fixtures (served as /stub.js). */
function stubScript(): string {
  const data = fixtures();
  return `(() => {
  const data = ${JSON.stringify(data)};
  let state;
  let seq = 1;
  window.__sent = [];
  const post = (m) => setTimeout(() => window.postMessage(m, '*'), 0);
  const answer = (m) => {
    switch (m.kind) {
      case 'getProblem': return data.problem;
      case 'getSamples': return { problemId: m.problemId, modelId: m.modelId, offset: m.offset, total: data.samples.length, samples: data.samples.slice(m.offset, m.offset + m.limit) };
      case 'getSample': return data.texts[m.sampleId];
      case 'getSimilarity': return data.sim;
      case 'getNovelty': return data.novelty[m.sampleId];
      case 'setAnnotation': return { sampleId: m.sampleId, labels: m.labels, note: m.note };
      case 'getOverview': return data.overview;
      default: return { ok: true };
    }
  };
  window.acquireVsCodeApi = () => ({
    postMessage(m) {
      window.__sent.push(m);
      if (m.kind === 'ready') { post({ id: seq++, kind: 'init', protocol: 1, state: m.view === 'overview' ? { view: 'overview' } : { view: 'problem', problemId: 1 } }); return; }
      if (m.kind === 'log') return;
      const result = answer(m);
      if (result === undefined) post({ id: seq++, kind: 'error', replyTo: m.id, message: 'no fixture' });
      else post({ id: seq++, kind: 'reply', replyTo: m.id, request: m.kind, result });
    },
    getState() { return state; },
    setState(s) { state = s; },
  });
})();`;
}

/**
 * The problem's first charts as a new problem view gets them: compiled and the pass@k chart drawn as SVG by the
 * host's bundles (dist/vegaLiteCompiler.js and dist/vegaRenderer.js, built here with scripts/build.mjs's
 * options), at 900 px with glyphs 0.55 em wide.
 */
async function drawnCharts(problem: ProblemData): Promise<NonNullable<ProblemData['charts']>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { builds } = require(path.join(repoRoot, 'scripts', 'build.mjs')) as {
    builds: (import('esbuild').BuildOptions & { outfile: string })[];
  };
  const built: string[] = [];
  for (const bundle of ['vegaLiteCompiler.js', 'vegaRenderer.js']) {
    const options = builds.find((b) => b.outfile === `dist/${bundle}`);
    assert.ok(options, `scripts/build.mjs builds dist/${bundle}`);
    const outfile = path.join(outDir, 'host', bundle);
    await esbuild.build({ ...options, absWorkingDir: repoRoot, outfile, sourcemap: false, logLevel: 'warning' });
    built.push(outfile);
  }
  const compiler = new ChartCompiler(built[0], (m) => assert.fail(m), built[1]);
  await compiler.warm();
  const charts = compiler.problemCharts(problem, false);
  assert.ok(charts, 'compiled on the host');
  const glyphs = new Array(GLYPH_COUNT).fill(55);
  const drawn = await compiler.drawFirst(charts, { width: 900, glyphs: { normal: glyphs, bold: glyphs } });
  assert.ok(drawn.passk.svg, 'drawn on the host');
  return drawn;
}

async function buildBundle(): Promise<void> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: ['webview/main.ts'],
    outfile: path.join(outDir, 'webview.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.woff2': 'file', '.woff': 'empty', '.ttf': 'empty' },
    logLevel: 'warning',
  });
  // the chart libraries' two scripts, loaded after webview.js as the real panel does (src/extension/panelHtml.ts),
  // with scripts/build.mjs's aliases (Vega-Lite's `vega` imports from vega-util; vega-embed without Vega-Lite)
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: ['webview/chartsVendorLite.ts'],
    outfile: path.join(outDir, 'charts-vegalite.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
    alias: { vega: 'vega-util' },
  });
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: ['webview/chartsVendor.ts'],
    outfile: path.join(outDir, 'charts-vendor.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
    alias: { 'vega-lite': './webview/vegaLiteStub.ts', vega: './webview/vegaLean.mjs' },
  });
  // the rendering pipeline of model output, loaded by webview.js when first needed (webview/textApi.ts)
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: ['webview/textBundle.ts'],
    outfile: path.join(outDir, 'webview-text.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(outDir, 'stub.js'), stubScript());
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
};

function serve(): Promise<{ server: http.Server; origin: string }> {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const asked = decodeURIComponent((req.url ?? '/').split('?')[0]).replace(/^\/+/, '');
      // Vega 1.5 s late: the host's drawing of the first chart stays on the page long enough to be read
      const slow = asked === 'charts-vendor-slow.js';
      const name = slow ? 'charts-vendor.js' : asked;
      const file = path.join(outDir, name || 'index.html');
      if (!file.startsWith(outDir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404).end();
        return;
      }
      const send = () => {
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
        fs.createReadStream(file).pipe(res);
      };
      if (slow) setTimeout(send, 1500);
      else send();
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

describe('hostile traces render inert (Chromium, real CSP)', { timeout: 180_000 }, () => {
  let browser: Browser;
  let page: Page;
  let server: http.Server;
  let origin: string;
  const requests: string[] = [];
  const dialogs: string[] = [];
  const consoleLines: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    await buildBundle();
    ({ server, origin } = await serve());
    const nonce = 'dGVzdC1ub25jZS0xMjM0NQ==';
    /** A page as the panel writes it, its scripts at this server, with the stub acquireVsCodeApi loaded first. */
    const writePage = (
      file: string,
      opts: Omit<Parameters<typeof panelHtml>[0], 'cspSource' | 'scriptUri' | 'styleUri' | 'textScriptUri' | 'nonce'>,
    ) =>
      fs.writeFileSync(
        path.join(outDir, file),
        panelHtml({
          cspSource: origin,
          scriptUri: `${origin}/webview.js`,
          textScriptUri: `${origin}/webview-text.js`,
          styleUri: `${origin}/webview.css`,
          nonce,
          ...opts,
        })
          // under the same nonce, before the others (as VS Code injects its own)
          .replace(
            `<script nonce="${nonce}" src=`,
            `<script nonce="${nonce}" src="${origin}/stub.js"></script>\n<script nonce="${nonce}" src=`,
          ),
      );
    /** A new problem view's init written into its page, with `result` as its problem data. */
    const init = (result: ProblemData) => ({
      id: 0,
      kind: 'init',
      protocol: 1,
      state: { view: 'problem', problemId: 1 },
      prefetched: { request: 'getProblem', problemId: 1, result },
    });
    writePage('index.html', {
      // as the problem panel names them (src/extension/problemPanel.ts): Vega-Lite added by the page when
      // first needed (this page's problem data has no host-compiled charts: it loads it, under the nonce)
      libraryScriptUris: [`${origin}/charts-vendor.js`],
      vegaLiteScriptUri: `${origin}/charts-vegalite.js`,
      // the init written into the page as a new problem view's is (its data: the hostile question, labels
      // and model names, in a JSON data block that no text of it can leave: src/extension/panelHtml.ts)
      initMessage: init(fixtures().problem),
      view: 'problem',
      title: 'hostile',
    });
    writePage('overview.html', {
      libraryScriptUris: [`${origin}/charts-vegalite.js`, `${origin}/charts-vendor.js`],
      view: 'overview',
      title: 'hostile overview',
    });
    // a new problem view whose first chart the host drew (the real compiler and renderer bundles of
    // scripts/build.mjs; the hostile model names reach the legend): Vega loaded after it, late
    writePage('drawn.html', {
      chartsScriptUri: `${origin}/charts-vendor-slow.js`,
      vegaLiteScriptUri: `${origin}/charts-vegalite.js`,
      initMessage: init({ ...fixtures().problem, charts: await drawnCharts(fixtures().problem) }),
      view: 'problem',
      title: 'hostile drawn',
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.addInitScript(() => {
      window.__csp = [];
      document.addEventListener(
        'securitypolicyviolation',
        (e: {
          violatedDirective: string;
          blockedURI: string;
          sample: string;
          sourceFile: string;
          lineNumber: number;
          columnNumber: number;
        }) =>
          window.__csp.push(
            `${e.violatedDirective} ${e.blockedURI} ${e.sample} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
          ),
      );
    });
    await page.goto(`${origin}/index.html`);
    await page.waitForSelector('#stats-table', { timeout: 20_000 });
    await page.waitForSelector('.sample-row', { timeout: 20_000 });
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  test('every hostile sample renders as text in all three views, and nothing executes', async () => {
    for (let i = 0; i < HOSTILE.length; i++) {
      const h = HOSTILE[i];
      await page.click(`.sample-row[data-sample-id="${100 + i}"]`);
      await page.waitForFunction(
        (i: number) => document.querySelector('.detail-head strong')?.textContent === `Sample #${i}`,
        i,
        { timeout: 10_000 },
      );
      // rendered when the text renderer (dist/webview-text.js, loaded on demand) is in
      await page.waitForSelector('#trace-rendered[data-rendered="true"]', { state: 'attached' });
      // KaTeX sets the spaces of text in math as no-break spaces: compared as the spaces they show as
      const rendered: string = (
        await page.$eval('#trace-rendered', (el: { textContent: string }) => el.textContent)
      ).replace(/\u00a0/g, ' ');
      const spans: string = await page.$eval('#novel-spans', (el: { textContent: string }) => el.textContent);
      const diff: string = await page.$eval('#diff-view', (el: { textContent: string }) => el.textContent);
      for (const v of h.visible)
        assert.ok(
          rendered.includes(v),
          `${h.name}: rendered text lacks ${JSON.stringify(v)}: ${JSON.stringify(rendered.slice(0, 300))}`,
        );
      assert.equal(spans, h.text, `${h.name}: novel-span view is the exact text`);
      assert.ok(diff.includes(h.text), `${h.name}: diff view shows the text`);
      // the rendered trace holds no live element that could run or fetch anything
      // (KaTeX's vetted layout styles are applied through CSSOM and show up as style attributes: allowed unless they load anything)
      const live: string[] = await page.$$eval(
        '#trace-rendered *',
        (els: { tagName: string; attributes: { name: string; value: string }[] }[]) =>
          els
            .filter(
              (e) =>
                /^(script|img|iframe|object|embed|a|form|style|link|use|image|foreignobject|video|audio)$/i.test(
                  e.tagName,
                ) ||
                [...e.attributes].some(
                  (a) =>
                    /^on|^href$|^src$|^xlink:href$|^action$|^formaction$/i.test(a.name) ||
                    (a.name === 'style' && /url\(|expression|@import/i.test(a.value)),
                ),
            )
            .map((e) => `${e.tagName}[${[...e.attributes].map((a) => a.name).join(',')}]`),
      );
      assert.deepEqual(live, [], `${h.name}: live elements in the rendered trace`);
      // switch to the rendered tab once so the screenshot shows it
      if (h.name === 'think') {
        // safe math still lays out: KaTeX's vetted inline styles are applied through CSSOM
        const layout = await page.$$eval('#trace-rendered .katex .vlist > span', (els: { style: { top: string } }[]) =>
          els.map((e) => e.style.top),
        );
        assert.ok(
          layout.filter((t) => /^-?\d+(\.\d+)?em$/.test(t)).length >= 3,
          `fraction layout styles applied: ${JSON.stringify(layout)}`,
        );
        await page.click('#tab-rendered');
        await page.click('details.think > summary');
      }
    }
    await page.waitForTimeout(500);
    fs.mkdirSync(shotDir, { recursive: true });
    await page.screenshot({ path: path.join(shotDir, 'hostile-problem-view.png'), fullPage: true });

    assert.deepEqual(dialogs, [], 'no dialog opened');
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'window.__pwned is undefined');
    assert.deepEqual(
      consoleLines.filter((l) => /pwned/i.test(l)),
      [],
      'no pwned marker on the console',
    );
    assert.deepEqual(pageErrors, [], 'no uncaught page errors');
    const allowed = new Set([
      `${origin}/index.html`,
      `${origin}/webview.js`,
      `${origin}/charts-vegalite.js`,
      `${origin}/charts-vendor.js`,
      `${origin}/webview-text.js`,
      `${origin}/webview.css`,
      `${origin}/stub.js`,
    ]);
    const foreign = requests.filter(
      (u) => !allowed.has(u) && !(u.startsWith(`${origin}/KaTeX_`) && u.endsWith('.woff2')),
    );
    assert.deepEqual(foreign, [], 'no request other than the page, its script, stylesheet and KaTeX fonts');
    const csp: string[] = await page.evaluate(() => window.__csp);
    assert.deepEqual(csp, [], 'no CSP violation');
  });

  test('hostile labels, question, answer and annotation note are text', async () => {
    const header: string = await page.$eval('h1', (el: { textContent: string }) => el.textContent);
    assert.ok(header.includes('7<img src=x onerror=window.__pwned=1>'));
    const table: string = await page.$eval('#stats-table', (el: { textContent: string }) => el.textContent);
    assert.ok(table.includes(HOSTILE_LABEL));
    // shown as plain text first, then as Markdown with math once the text renderer has loaded
    await page.waitForSelector('.trace.question[data-rendered="true"]', { state: 'attached', timeout: 10_000 });
    const question: string = await page.$eval('.trace.question', (el: { textContent: string }) => el.textContent);
    assert.ok(question.includes('<script>window.__pwned=1</script>'));
    assert.ok(question.includes('$5 and $10'), 'dollar amounts in the question stay text');
    const katex: number = await page.$$eval('.trace.question .katex', (els: unknown[]) => els.length);
    assert.equal(katex, 1, '$2+2$ is math');
    const noteValue: string = await page.$eval('vscode-text-area', (el: { value: string }) => el.value);
    assert.equal(noteValue, '<script>window.__pwned=1</script>');
    // saving an annotation sends exactly the typed protocol message
    await page.click('fieldset.annotate vscode-button');
    await page.waitForFunction(() => window.__sent.some((m: { kind: string }) => m.kind === 'setAnnotation'));
    const sent = await page.evaluate(() => window.__sent.filter((m: { kind: string }) => m.kind === 'setAnnotation'));
    assert.equal(sent.length, 1);
    assert.equal(sent[0].note, '<script>window.__pwned=1</script>');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });

  test('charts re-render when the theme class changes (light, high contrast), still without CSP violations', async () => {
    for (const theme of ['vscode-light', 'vscode-high-contrast', 'vscode-dark']) {
      await page.evaluate((t: string) => {
        document.body.className = t;
      }, theme);
      await page.waitForTimeout(400);
      assert.ok(await page.$('#chart-passk canvas'), `${theme}: the pass@k chart is there`);
      if (theme === 'vscode-high-contrast')
        await page.screenshot({ path: path.join(shotDir, 'hostile-high-contrast.png') });
    }
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
  });

  test("a new view's first chart drawn by the host: hostile model names are text, nothing runs; Vega's view replaces it", async () => {
    const drawnPage = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const drawnErrors: string[] = [];
    const asked: string[] = [];
    const missing: string[] = [];
    drawnPage.on('pageerror', (e) => drawnErrors.push(e.message));
    drawnPage.on('request', (r) => asked.push(r.url()));
    drawnPage.on('response', (r) => {
      if (r.status() >= 400) missing.push(r.url());
    });
    try {
      await drawnPage.addInitScript(() => {
        window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e: { violatedDirective: string; blockedURI: string }) =>
          window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      // not waiting for the load event: Vega (a script the page adds, 1.5 s late) holds it back
      await drawnPage.goto(`${origin}/drawn.html`, { waitUntil: 'commit' });
      await drawnPage.waitForSelector('#chart-passk[data-rendered-at] .chart-static svg', { timeout: 20_000 });
      assert.equal(
        await drawnPage.$eval('#chart-passk', (e: { getAttribute(n: string): string | null }) =>
          e.getAttribute('data-first-svg-width'),
        ),
        '900',
      );
      const legend: string = await drawnPage.$eval(
        '#chart-passk .chart-static',
        (e: { textContent: string }) => e.textContent,
      );
      assert.ok(legend.includes(HOSTILE_LABEL), 'the hostile model name is legend text');
      assert.ok(legend.includes('base <svg onload=window.__pwned=1>'));
      // only Vega's drawing elements, none that could run or fetch anything, no handler or link attribute
      const live: string[] = await drawnPage.$$eval(
        '#chart-passk .chart-static *',
        (els: { tagName: string; attributes: { name: string; value: string }[] }[]) =>
          els
            .filter(
              (e) =>
                !/^(svg|g|path|line|rect|text|circle|title|desc)$/i.test(e.tagName) ||
                [...e.attributes].some((a) => /^on|href$|^src$|^style$/i.test(a.name) || /url\(/i.test(a.value)),
            )
            .map((e) => e.tagName),
      );
      assert.deepEqual(live, []);
      // Vega, loaded after the first paint, draws the chart and takes the drawing's place
      await drawnPage.waitForSelector('#chart-passk[data-interactive-at] canvas', { timeout: 20_000 });
      assert.equal(await drawnPage.$('#chart-passk .chart-static'), null, 'the drawing is gone');
      assert.ok(
        asked.some((u) => u.endsWith('/charts-vendor-slow.js')),
        'Vega named by <body data-charts-script>',
      );
      assert.deepEqual(
        asked.filter((u) => !u.startsWith(origin)),
        [],
        'no request leaves the page',
      );
      assert.equal(await drawnPage.evaluate(() => window.__pwned), undefined);
      assert.deepEqual(missing, [], 'every script and style the page asks for is there');
      assert.deepEqual(drawnErrors, []);
      assert.deepEqual(await drawnPage.evaluate(() => window.__csp), []);
    } finally {
      await drawnPage.close();
    }
  });

  test('messages that fail validation are ignored by the webview', async () => {
    await page.evaluate(() => {
      window.postMessage({ id: 1, kind: 'init', protocol: 1, state: { view: 'problem', problemId: '<script>' } }, '*');
      window.postMessage({ kind: 'reply', replyTo: 'x', result: '<img src=x onerror=window.__pwned=1>' }, '*');
      window.postMessage('<img src=x onerror=window.__pwned=1>', '*');
    });
    await page.waitForTimeout(300);
    assert.ok(await page.$('#stats-table'), 'the view is still there');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });

  test('overview: hostile labels are text, models show and hide (list and legend), no CSP violation', async () => {
    const ov = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const ovRequests: string[] = [];
    const ovErrors: string[] = [];
    const ovConsole: string[] = [];
    ov.on('request', (r) => ovRequests.push(r.url()));
    ov.on('pageerror', (e) => ovErrors.push(e.message));
    ov.on('console', (m) => ovConsole.push(`${m.type()}: ${m.text()}`));
    ov.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await ov.addInitScript(() => {
      window.__csp = [];
      document.addEventListener(
        'securitypolicyviolation',
        (e: { violatedDirective: string; blockedURI: string; sample: string }) =>
          window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
      );
    });
    try {
      await ov.goto(`${origin}/overview.html`);
      await ov.waitForSelector('#chart-curves canvas', { timeout: 20_000 });
      await ov.waitForSelector('#chart-histogram canvas', { timeout: 20_000 });
      await ov.waitForSelector('#chart-coverage canvas', { timeout: 20_000 });
      const count = () => ov.$eval('#models-shown', (el: { textContent: string }) => el.textContent);
      const checked = () =>
        ov.$$eval('input[data-model-id]', (els: { checked: boolean; dataset: { modelId: string } }[]) =>
          els.filter((e) => e.checked).map((e) => Number(e.dataset.modelId)),
        );
      // 6 models: the base and the focus model's run (a) start shown
      assert.deepEqual(await checked(), [1, 2]);
      assert.equal(await count(), '2 of 6 shown · 4 hidden');
      const list: string = await ov.$eval('.model-list', (el: { textContent: string }) => el.textContent);
      assert.ok(
        list.includes(HOSTILE_LABEL) &&
          list.includes('base <svg onload=window.__pwned=1> (base)') &&
          list.includes('<script>window.__pwned=1</script>'),
        'hostile labels are text',
      );
      assert.deepEqual(
        await ov.$$eval('.model-list *', (els: { tagName: string }[]) =>
          els.map((e) => e.tagName.toLowerCase()).filter((t) => !['label', 'input', 'span'].includes(t)),
        ),
        [],
      );
      // the header's problem count (host text: `N problems in M datasets (...)`) is text too
      const header: string = await ov.$eval('header', (el: { textContent: string }) => el.textContent);
      assert.ok(header.includes('30 problems <img src=x onerror=window.__pwned=1> · 6 models'), header);
      await ov.screenshot({ path: path.join(shotDir, 'hostile-overview-default.png'), fullPage: true });
      // the list: tick one model, then show all
      await ov.check('input[data-model-id="3"]');
      assert.deepEqual(await checked(), [1, 2, 3]);
      assert.equal(await count(), '3 of 6 shown · 3 hidden');
      await ov.click('#show-all-models');
      assert.equal(await count(), '6 of 6 shown');
      await ov.click('#show-bands');
      await ov.click('#show-bands');
      // the legend: clicking the entries of the curves chart (below the plot) hides models
      await ov.click('#show-default-models');
      await ov.waitForTimeout(400);
      const box = await ov.locator('#chart-curves canvas').boundingBox();
      assert.ok(box, 'the curves chart has a canvas');
      let hidden = false;
      for (let y = box.y + box.height - 4; y > box.y + box.height - 60 && !hidden; y -= 4) {
        for (const dx of [20, 60]) {
          await ov.mouse.click(box.x + dx, y);
          if ((await checked()).length < 2) {
            hidden = true;
            break;
          }
        }
      }
      assert.ok(hidden, 'a click on a legend entry hides that model');
      assert.equal(await count(), '1 of 6 shown · 5 hidden');
      await ov.waitForTimeout(400);
      await ov.screenshot({ path: path.join(shotDir, 'hostile-overview-legend-hidden.png'), fullPage: true });
      await ov.click('#show-base-only');
      await ov.click('#show-all-models');
      await ov.waitForSelector('#chart-coverage canvas', { timeout: 20_000 });
      for (const theme of ['vscode-light', 'vscode-high-contrast', 'vscode-dark']) {
        await ov.evaluate((t: string) => {
          document.body.className = t;
        }, theme);
        await ov.waitForTimeout(300);
      }
      assert.deepEqual(ovErrors, [], 'no uncaught page errors');
      assert.deepEqual(await ov.evaluate(() => window.__csp), [], 'no CSP violation');
      assert.equal(await ov.evaluate(() => window.__pwned), undefined);
      assert.deepEqual(
        ovConsole.filter((l) => /pwned/i.test(l)),
        [],
      );
      const allowed = new Set([
        `${origin}/overview.html`,
        `${origin}/webview.js`,
        `${origin}/charts-vegalite.js`,
        `${origin}/charts-vendor.js`,
        `${origin}/webview.css`,
        `${origin}/stub.js`,
      ]);
      assert.deepEqual(
        ovRequests.filter((u) => !allowed.has(u)),
        [],
        'no request other than the page, its script and stylesheet',
      );
      assert.deepEqual(dialogs, []);
    } finally {
      await ov.close();
    }
  });
});
