/**
 * The charts' claims, tested on the specs the webview embeds (src/shared/chartSpecs.ts,
 * src/shared/trainingChartSpecs.ts), compiled with vega-lite and rendered to SVG with vega's headless
 * View (no DOM): a dataset pass@k curve whose problem set shrinks along k (problems with n < k drop
 * out when n differs by problem) is drawn as separate lines, split exactly where the denominator
 * changes, each labelled with its count; axes that count problems tick at integers only.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { overviewData } from '../../src/extension/panelData';
import {
  BATCHED_DATA,
  batchedSpec,
  CANVAS_CONFIG,
  canvasSpec,
  COUNT_AXIS,
  coverageSpec,
  curveSegments,
  histogramSpec,
  DEFAULT_CHART_THEME,
  overviewCurveSpec,
  problemCurveSpec,
  similaritySpec,
  type Spec,
} from '../../src/shared/chartSpecs';
import { trainingCategoriesSpec, trainingPassSpec } from '../../src/shared/trainingChartSpecs';
import type { OverviewData, SimilarityData, TrainingSeries } from '../../src/shared/protocol';
import { tempDir } from './helpers';

/** The part of vega-lite used here (its types need "moduleResolution": "bundler"; this project compiles with "node"). */
type VegaLite = { compile(spec: unknown): { spec: unknown } };
type Vega = typeof import('vega');
// vega and vega-lite are ES modules (vega-lite's graph has a top-level await, which require() cannot
// load), and TypeScript compiles import() to require() under "module": "commonjs": load them by URL.
const importEsm = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;
let vl: VegaLite;
let vega: Vega;
/**
 * Vega-Lite's compiler and the Vega the chart views run, bundled as dist/charts-vegalite.js and
 * dist/charts-vendor.js are (scripts/build.mjs): `vega` is webview/vegaLean.mjs (vega's index with only the
 * transforms the charts use), also for Vega-Lite's own imports of `vega`. One bundle, so one registry of
 * transforms: loading the package `vega` (as Vega-Lite's import would in Node) would register them all.
 * Every chart rendered here renders with it: a chart needing a transform it leaves out fails here
 * ("Unrecognized transform type").
 */
function chartLibraries(): Promise<{ vl: VegaLite; vega: Vega & { transforms: Record<string, unknown> } }> {
  chartLibrariesLoading ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    const root = join(__dirname, '..', '..', '..');
    const out = join(tempDir('lean-vega-'), 'charts.mjs');
    await esbuild.build({
      stdin: {
        contents: "export * as vega from './webview/vegaLean.mjs'; export { compile } from 'vega-lite';",
        resolveDir: root,
        loader: 'js',
      },
      absWorkingDir: root,
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: out,
      alias: { vega: './webview/vegaLean.mjs' },
      logLevel: 'silent',
    });
    const m = (await importEsm(pathToFileURL(out).href)) as {
      vega: Vega & { transforms: Record<string, unknown> };
    } & VegaLite;
    return { vl: { compile: m.compile }, vega: m.vega };
  })();
  return chartLibrariesLoading;
}
let chartLibrariesLoading: ReturnType<typeof chartLibraries> | undefined;

/** The Vega spec of a Vega-Lite spec, sized for a headless View (no container to take the width from). */
function compile(spec: Spec): Spec {
  const sized = spec.width === 'container' ? { ...spec, width: 480 } : spec;
  return vl.compile({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...sized } as never).spec as Spec;
}

async function svgOf(spec: Spec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec) as never), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/** Paths Vega draws for line marks (one per line; a line of one point is still one path). */
const linePaths = (svg: string) => svg.match(/aria-roledescription="line mark"/g)?.length ?? 0;

/** The tick labels of the axis whose aria label starts with `axisLabel` (e.g. "Y-axis titled 'problems'"). */
function tickLabels(svg: string, axisLabel: string): string[] {
  const start = svg.indexOf(`aria-label="${axisLabel}`);
  assert.ok(start >= 0, `no axis "${axisLabel}" in the SVG`);
  const group = svg.slice(start, svg.indexOf('role-axis-title', start));
  const labels = group.slice(group.indexOf('role-axis-label'));
  return [...labels.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

/** One Qwen2.5-Math line: problem `idx` with `n` samples, the first `c` correct. */
function line(idx: number, n: number, c: number): string {
  return JSON.stringify({
    idx,
    question: `q${idx}`,
    gt: '1',
    code: Array.from({ length: n }, (_, i) => `s${i}`),
    score: Array.from({ length: n }, (_, i) => i < c),
  });
}

/**
 * base: 3 problems x 4 samples (c = 2, 1, 0); rl: n = 2, 4, 4 (c = 1, 2, 0). By hand (Chen et al.
 * pass@k = 1 - C(n-c, k) / C(n, k)), rl: pass@1 = (1/2 + 2/4 + 0) / 3 = 1/3; pass@2 = (1 + (1 - 1/6) +
 * 0) / 3 = 11/18; pass@4 = (1 + 0) / 2 = 1/2 over 2 of the 3 problems (problem 0 has n = 2 < 4). One
 * line through these would fall from 0.611 to 0.5 at k = 4; the problem set changed, pass@k did not fall.
 */
async function raggedOverview(): Promise<OverviewData> {
  const dir = tempDir('chart-trust-');
  const put = (model: string, lines: string[]) => {
    const d = join(dir, model, 'math_eval', 'ds');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'test_ragged.jsonl'), `${lines.join('\n')}\n`);
  };
  put('base', [line(0, 4, 2), line(1, 4, 1), line(2, 4, 0)]);
  put('rl', [line(0, 2, 1), line(1, 4, 2), line(2, 4, 0)]);
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const baseId = index.models().find((m) => m.name === 'base')?.id;
  assert.ok(baseId !== undefined, 'the base model is indexed');
  const d = overviewData(index, { baseId, baseIsChoice: true }, 200);
  index.close();
  return d;
}

describe('chart specs: curves break where the problem set changes', () => {
  let d: OverviewData;
  let rlId: number;
  let baseId: number;

  before(async () => {
    ({ vl, vega } = await chartLibraries());
    d = await raggedOverview();
    rlId = d.models.find((m) => m.label === 'rl')!.id;
    baseId = d.models.find((m) => m.isBase)!.id;
  });

  test('the folder: rl pass@k at k = 1, 2, 4 by hand, over 3, 3 and 2 problems', () => {
    const rl = d.curves.filter((c) => c.modelId === rlId && c.level === null);
    assert.deepEqual(
      rl.map((c) => [c.k, c.problems, c.missing]),
      [
        [1, 3, 0],
        [2, 3, 0],
        [4, 2, 1],
      ],
    );
    const want = [1 / 3, 11 / 18, 1 / 2];
    for (const [i, c] of rl.entries())
      assert.ok(Math.abs((c.value as number) - want[i]) < 1e-12, `pass@${c.k} = ${c.value}`);
  });

  test("the overview spec's rows: a new segment exactly at k = 4, where the denominator changes", () => {
    const spec = overviewCurveSpec(d, { bands: false });
    const rows = spec.data.values as {
      modelId: number;
      k: number;
      segment: string;
      segments: number;
      segmentLabel: string;
      segmentText: string;
    }[];
    const rl = rows.filter((r) => r.modelId === rlId).sort((a, b) => a.k - b.k);
    assert.equal(rl[0].segment, rl[1].segment, 'k = 1 and k = 2 are over the same 3 problems: one line');
    assert.notEqual(rl[1].segment, rl[2].segment, 'k = 4 is over 2 problems: a new line');
    assert.deepEqual(
      rl.map((r) => [r.segments, r.segmentLabel, r.segmentText]),
      [
        [2, '3 of 3 problems', 'k = 1 to 2: over 3 of 3 problems (line 1 of 2)'],
        [2, '3 of 3 problems', 'k = 1 to 2: over 3 of 3 problems (line 1 of 2)'],
        [2, '2 of 3 problems', 'k = 4: over 2 of 3 problems (line 2 of 2)'],
      ],
    );
    const base = rows.filter((r) => r.modelId === baseId);
    assert.equal(new Set(base.map((r) => r.segment)).size, 1, 'the base has n = 4 everywhere: one line');
    assert.ok(base.every((r) => r.segments === 1));
  });

  test('rendered by vega: three lines (base one, rl two) and the pieces labelled with their counts', async () => {
    const svg = await svgOf(overviewCurveSpec(d));
    assert.equal(linePaths(svg), 3);
    // the bands break with their lines (rl's k = 4 alone: an area of one point, and its interval as a bar)
    assert.equal(svg.match(/aria-roledescription="area mark"/g)?.length, 3);
    assert.equal(svg.match(/aria-roledescription="rule mark"/g)?.length, 1);
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    assert.equal(texts.filter((t) => t === '3 of 3 problems').length, 1);
    assert.equal(texts.filter((t) => t === '2 of 3 problems').length, 1);
  });

  test('a curve whose problem set never changes is one line, and is not labelled', async () => {
    const whole: OverviewData = { ...d, curves: d.curves.filter((c) => c.modelId === baseId) };
    const svg = await svgOf(overviewCurveSpec(whole));
    assert.equal(linePaths(svg), 1);
    assert.ok(!svg.includes('of 3 problems</text>'));
  });

  test('faceted by level, each facet breaks on its own denominators', async () => {
    // the same rl curve as a level of its own beside "all problems": 2 + 2 lines for rl, 1 + 1 for the base
    const levelled: OverviewData = {
      ...d,
      levels: ['1'],
      curves: [...d.curves, ...d.curves.map((c) => ({ ...c, level: '1' }))],
    };
    const svg = await svgOf(overviewCurveSpec(levelled));
    assert.equal(linePaths(svg), 6);
  });

  test('curveSegments: every change of the denominator starts a segment, also back to an earlier count', () => {
    const pts = [3, 3, 2, 2, 1, 2].map((problems, i) => ({ k: 2 ** i, problems, missing: 3 - problems }));
    // given out of order: segments follow x, not the input order
    const shuffled = [pts[3], pts[0], pts[5], pts[1], pts[4], pts[2]];
    const seg = curveSegments(
      shuffled,
      () => 'm',
      (p) => p.k,
      'k',
    );
    const byK = new Map(shuffled.map((p, i) => [p.k, seg[i]]));
    assert.deepEqual(
      pts.map((p) => byK.get(p.k)!.segment),
      ['m#0', 'm#0', 'm#1', 'm#1', 'm#2', 'm#3'],
    );
    assert.deepEqual(
      pts.map((p) => byK.get(p.k)!.segmentStart),
      [true, false, true, false, true, true],
    );
    assert.equal(byK.get(4)!.segmentText, 'k = 4 to 8: over 2 of 3 problems (line 2 of 4)');
    // equal counts but a different number left out: another set
    const other = curveSegments(
      [
        { k: 1, problems: 2, missing: 0 },
        { k: 2, problems: 2, missing: 1 },
      ],
      () => 'm',
      (p) => p.k,
      'k',
    );
    assert.notEqual(other[0].segment, other[1].segment);
  });

  test('training pass@k against the step breaks where a checkpoint is over other problems', async () => {
    // step 100 and 200 over 6 problems, step 300 over 4 (two problems not in that checkpoint)
    const pt = (k: number, value: number, problems: number) => ({
      k,
      value,
      ciLow: value - 0.1,
      ciHigh: value + 0.1,
      problems,
      missing: 6 - problems,
    });
    const step = (s: number, v: number, problems: number) => ({
      step: s,
      modelId: s,
      label: `rl · step-${s}`,
      baseLabel: 'base',
      passAtK: [pt(1, v, problems), pt(8, v + 0.2, problems)],
      basePassAtK: [pt(1, 0.3, 6)],
    });
    const series = {
      name: 'rl',
      unit: 'step',
      k: 8,
      steps: [step(100, 0.4, 6), step(200, 0.5, 6), step(300, 0.45, 4)],
    } as unknown as TrainingSeries;
    const spec = trainingPassSpec(series);
    const rows = spec.data.values as { step: number; series: string; segment: string; segmentText: string }[];
    const p1 = rows.filter((r) => r.series === 'pass@1').sort((a, b) => a.step - b.step);
    assert.deepEqual(
      p1.map((r) => r.segmentText),
      [
        'step = 100 to 200: over 6 of 6 problems (line 1 of 2)',
        'step = 100 to 200: over 6 of 6 problems (line 1 of 2)',
        'step = 300: over 4 of 6 problems (line 2 of 2)',
      ],
    );
    // pass@1 and pass@8 of the checkpoints: 2 lines each; the base: 1
    assert.equal(linePaths(await svgOf(spec)), 5);
  });
});

describe('chart specs: axes that count problems tick at integers', () => {
  let d: OverviewData;
  before(async () => {
    ({ vl, vega } = await chartLibraries());
    d = await raggedOverview();
  });

  /** The compiled axis on `scale` that has labels (Vega-Lite also emits a grid-only axis). */
  function labelAxis(spec: Spec, scale: string): Spec {
    const axes = (compile(spec).axes ?? []) as Spec[];
    const a = axes.find((x) => x.scale === scale && x.labels !== false);
    assert.ok(a, `no labelled axis on ${scale}`);
    return a;
  }

  test('histogram (problems per accuracy bin): tickMinStep 1, integer format; rendered ticks are integers', async () => {
    const spec = histogramSpec(d);
    const a = labelAxis(spec, 'y');
    assert.equal(a.tickMinStep, COUNT_AXIS.tickMinStep);
    assert.equal(a.format, 'd');
    // at most 1 problem per bin and model here: without tickMinStep vega ticks 0, 0.2, ..., 1
    const ticks = tickLabels(await svgOf(spec), "Y-axis titled 'problems'");
    assert.ok(ticks.length >= 2, ticks.join(','));
    for (const t of ticks) assert.match(t, /^\d+$/, `tick ${t} of ${ticks.join(',')}`);
  });

  test('coverage (problems solved): tickMinStep 1, integer format; rendered ticks are integers', async () => {
    const spec = coverageSpec(d);
    const a = labelAxis(spec, 'x');
    assert.equal(a.tickMinStep, 1);
    assert.equal(a.format, 'd');
    const ticks = tickLabels(await svgOf(spec), "X-axis titled 'problems solved");
    assert.ok(ticks.length >= 2, ticks.join(','));
    for (const t of ticks) assert.match(t, /^\d+$/, `tick ${t} of ${ticks.join(',')}`);
  });

  test('coverage legend: "model only", not "RL only" (a folder of prompting methods has no RL model; trial 13 finding 9)', () => {
    const text = JSON.stringify(coverageSpec(d));
    assert.ok(text.includes('"model only"'), "the legend names the cell of the row's model");
    assert.ok(!text.includes('RL only'));
  });

  test('training categories (problems per category): tickMinStep 1, integer format', () => {
    const series = {
      name: 'rl',
      unit: 'step',
      k: 8,
      steps: [100, 200].map((s) => ({
        step: s,
        pairedProblems: 2,
        categories: { sharpening: 1, expansion: 0, regression: 1, unchanged: 0, unsolved: 0 },
      })),
    } as unknown as TrainingSeries;
    const a = labelAxis(trainingCategoriesSpec(series), 'y');
    assert.equal(a.tickMinStep, 1);
    assert.equal(a.format, 'd');
  });
});

describe("chart specs: the problem view's saturation labels (trial 15 findings 4, 6)", () => {
  before(async () => {
    ({ vl, vega } = await chartLibraries());
  });

  test('a short label in the theme text colour beside a rule in the model colour; the sentence in the tooltip', async () => {
    const curve = (c: number) => [1, 2, 4, 8].map((k) => ({ k, value: Math.min(1, (c * k) / 8) }));
    const stats = (modelId: number, c: number) => ({
      modelId,
      n: 8,
      c,
      samples: 8,
      scored: 0,
      accuracy: c / 8,
      betaLow: 0,
      betaHigh: 1,
      passAtK: curve(c),
      bestOfK: [],
      majAtK: [],
      hasMajAtK: false,
    });
    const models = [
      { id: 1, label: 'base', displayId: 'base', isBase: true, isFocus: false },
      { id: 2, label: 'rl', displayId: 'rl', isBase: false, isFocus: true },
    ];
    const spec = problemCurveSpec(
      models,
      [stats(1, 5), stats(2, 6)],
      [{ modelId: 2, baseModelId: 1, category: 'sharpening', withinNoise: false, saturationK: 4 }],
      { maj: false, best: false },
    );
    // with the theme's config, as the page draws it
    const svg = await svgOf(canvasSpec(spec, DEFAULT_CHART_THEME, 480));
    const texts = [...svg.matchAll(/<text[^>]*fill="([^"]*)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
      fill: m[1],
      text: m[2],
    }));
    const label = texts.find((t) => t.text.startsWith('saturated'));
    assert.deepEqual(label, { fill: DEFAULT_CHART_THEME.foreground, text: 'saturated from k=4' });
    assert.ok(!texts.some((t) => t.text.includes('every k-subset')), 'the sentence is not drawn');
    // the rule in rl's colour (the second of tableau10)
    assert.match(svg, /role-mark layer_1_marks"[\s\S]*?<line [^>]*stroke="#f58518"/);
    const textLayers = (spec.layer as Spec[]).filter((l) => (l.mark as Spec).type === 'text');
    assert.equal(textLayers.length, 2);
    for (const l of textLayers) {
      assert.equal(l.encoding.color, undefined);
      assert.deepEqual(l.encoding.tooltip[1], { field: 'text', title: 'from k' });
    }
  });

  test('one label per saturation k, naming how many models (trial 15b: identical labels stacked)', async () => {
    const stats = (modelId: number) => ({
      modelId,
      n: 8,
      c: 6,
      samples: 8,
      scored: 0,
      accuracy: 0.75,
      betaLow: 0,
      betaHigh: 1,
      passAtK: [1, 2, 4, 8].map((k) => ({ k, value: Math.min(1, (6 * k) / 8) })),
      bestOfK: [],
      majAtK: [],
      hasMajAtK: false,
    });
    const models = [1, 2, 3, 4].map((id) => ({
      id,
      label: `m${id}`,
      displayId: `m${id}`,
      isBase: id === 1,
      isFocus: id === 2,
    }));
    const sat = (modelId: number, k: number) => ({
      modelId,
      baseModelId: 1,
      category: 'sharpening' as const,
      withinNoise: false,
      saturationK: k,
    });
    const spec = problemCurveSpec(
      models,
      models.map((m) => stats(m.id)),
      [sat(2, 3), sat(3, 3), sat(4, 5)],
      {
        maj: false,
        best: false,
      },
    );
    const svg = await svgOf(canvasSpec(spec, DEFAULT_CHART_THEME, 480));
    const labels = [...svg.matchAll(/<text[^>]*>(saturated[^<]*)<\/text>/g)].map((m) => m[1]).sort();
    assert.deepEqual(labels, ['saturated from k=3 (2 models)', 'saturated from k=5']);
    // a rule per model still
    const rules = (spec.layer as Spec[]).find((l) => (l.mark as Spec).type === 'rule');
    assert.equal(rules?.data.values.length, 3);
  });
});

describe('chart specs: the similarity chart', () => {
  before(async () => {
    ({ vl, vega } = await chartLibraries());
  });

  // two base samples (one without a similarity), two model samples: one correct, one ungraded
  const sim = {
    modelId: 2,
    baseModelId: 1,
    baseline: [
      { sampleId: 10, sampleIndex: 0, similarity: 0.4567, novelty: 0.123 },
      { sampleId: 11, sampleIndex: 1, similarity: null, novelty: 0.5 },
    ],
    samples: [
      {
        sampleId: 20,
        sampleIndex: 0,
        correct: true,
        similarity: 0.0005,
        novelty: 1,
        baselinePercentile: null,
        nearest: [],
      },
      { sampleId: 21, sampleIndex: 3, correct: null, similarity: 1, novelty: 0, baselinePercentile: null, nearest: [] },
    ],
  } as unknown as SimilarityData;

  test('each point carries its tooltip formatted as the four-field tooltip showed it (similarity .3f, novelty .1%)', () => {
    const spec = similaritySpec(sim, 'rl', 'base');
    const rows = (spec.data as { values: { sampleId: number; tip: unknown }[] }).values;
    assert.deepEqual(
      rows.map((r) => [r.sampleId, r.tip]),
      [
        [10, { sample: 'base #0', verdict: 'base', similarity: '0.457', novelty: '12.3%' }],
        [20, { sample: '#0', verdict: 'correct', similarity: '0.001', novelty: '100.0%' }],
        [21, { sample: '#3', verdict: 'ungraded', similarity: '1.000', novelty: '0.0%' }],
      ],
    );
    assert.deepEqual((spec.encoding as Spec).tooltip, { field: 'tip', type: 'nominal' });
  });

  test('compiled for the canvas (CANVAS_CONFIG): no per-point description, the tooltip one field', () => {
    const spec = similaritySpec(sim, 'rl', 'base');
    const encodeOf = (config: Spec) => {
      const vg = compile({ ...spec, config }) as { marks: { type: string; encode: { update: Spec } }[] };
      const points = vg.marks.find((m) => m.type === 'symbol');
      assert.ok(points, 'a symbol mark');
      return points.encode.update;
    };
    // without the config Vega-Lite encodes a description string per point (what the interpreter evaluated)
    assert.ok('description' in encodeOf({}));
    const update = encodeOf(CANVAS_CONFIG);
    assert.equal('description' in update, false);
    assert.equal('ariaRoleDescription' in update, false);
    assert.match(JSON.stringify(update.tooltip), /datum\[\\"tip\\"\]/);
    assert.doesNotMatch(JSON.stringify(update.tooltip), /format\(/);
  });

  test('built in batches (the problem view adds its points 512 at a time): the same SVG as built at once, and no scale domain from the rows', async () => {
    // three points: the chart built with the first one, then two batches of one each
    const spec = similaritySpec(sim, 'rl', 'base');
    const y = (spec.encoding as { y: { scale?: { domain?: string[] } } }).y;
    assert.deepEqual(y.scale?.domain, ['base ↔ other base samples', 'rl → nearest base']);
    const { first, later } = batchedSpec(spec, 1);
    assert.deepEqual(
      later.map((b) => (b as { sampleId: number }[]).map((r) => r.sampleId)),
      [[20], [21]],
    );
    assert.equal((first.data as { name: string; values: unknown[] }).name, BATCHED_DATA);
    assert.equal((first.data as { values: unknown[] }).values.length, 1);
    const whole = await svgOf(spec);
    const view = new vega.View(vega.parse(compile(first) as never), { renderer: 'none' });
    await view.runAsync();
    for (const rows of later) await view.insert(BATCHED_DATA, rows).runAsync();
    const batched = await view.toSVG();
    view.finalize();
    assert.equal(batched, whole);
    // a spec with no more rows than a batch is built as is
    assert.deepEqual(batchedSpec(spec, 3), { first: spec, later: [] });
    assert.deepEqual(batchedSpec(spec, 0), { first: spec, later: [] });
  });

  test('rendered by vega: one point per sample with a similarity (3 of 4)', async () => {
    const view = new vega.View(vega.parse(compile(similaritySpec(sim, 'rl', 'base')) as never), { renderer: 'none' });
    await view.runAsync();
    const points = (view.scenegraph() as unknown as { root: unknown }).root;
    let n = 0;
    const walk = (item: { marktype?: string; items?: unknown[]; role?: string }) => {
      if (item.marktype === 'symbol' && item.role === 'mark') n += item.items?.length ?? 0;
      for (const c of item.items ?? []) walk(c as typeof item);
    };
    walk(points as never);
    view.finalize();
    assert.equal(n, 3);
  });
});

describe("chart specs: only transforms the chart views' Vega registers (webview/vegaLean.mjs)", () => {
  test('no spec uses what compiles to a left-out transform: regression, loess, a projection or geo channels, a nearest selection', () => {
    // Vega-Lite compiles these to Vega transforms of vega-regression, vega-geo and vega-voronoi, which
    // dist/charts-vendor.js does not carry (its chart would fail with "Unrecognized transform type");
    // the charts rendered in this file run through that same Vega
    for (const file of ['src/shared/chartSpecs.ts', 'src/shared/trainingChartSpecs.ts']) {
      const src = readFileSync(join(__dirname, '..', '..', '..', file), 'utf8');
      assert.doesNotMatch(
        src,
        /\b(regression|loess|projection|geoshape|latitude|longitude|nearest|voronoi)\b['"]?\s*:/,
        `${file} uses a key that needs a transform left out of webview/vegaLean.mjs`,
      );
    }
  });

  test('the lean Vega registers the dataflow, general, view and encoding transforms, and not geo, force, hierarchy, label, regression, voronoi, wordcloud, crossfilter', async () => {
    const lean = (await chartLibraries()).vega;
    for (const t of [
      'aggregate',
      'bin',
      'collect',
      'filter',
      'formula',
      'stack',
      'window',
      'pivot',
      'kde',
      'impute',
      'mark',
      'bound',
      'axisticks',
      'legendentries',
      'scale',
      'encode',
    ])
      assert.ok(t in lean.transforms, `${t} registered`);
    for (const t of ['geopath', 'force', 'tree', 'label', 'regression', 'voronoi', 'wordcloud', 'crossfilter'])
      assert.ok(!(t in lean.transforms), `${t} left out`);
  });
});
