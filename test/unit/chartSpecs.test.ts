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
  accuracySpec,
  modelStyles,
  overviewCurveSpec,
  overviewModels,
  placeScatterLabels,
  problemCurveGroups,
  problemCurveNote,
  rewardScatterSpec,
  problemCurveSpec,
  similaritySpec,
  type Spec,
} from '../../src/shared/chartSpecs';
import { trainingCategoriesSpec, trainingHeatmapSpec, trainingPassSpec } from '../../src/shared/trainingChartSpecs';
import type {
  ModelInfo,
  OverviewData,
  RewardModelsData,
  ProblemComparison,
  ProblemModelStats,
  SimilarityData,
  TrainingSeries,
} from '../../src/shared/protocol';
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

/** A model of a problem view: `m<id>`, the base id 1 and the focus id 2 unless said otherwise. */
function viewModel(id: number, base = 1, focus = 2): ModelInfo {
  return { id, label: `m${id}`, displayId: `m${id}`, isBase: id === base, isFocus: id === focus };
}

/** Problem stats of a model with `c` of `n` correct, pass@k exact (Chen et al.) at k = 1, 2, 4, ..., n. */
function viewStats(modelId: number, n: number, c: number): ProblemModelStats {
  const passAtK: { k: number; value: number }[] = [];
  for (let k = 1; k <= n; k *= 2) {
    let miss = 1;
    for (let i = 0; i < k; i++) miss *= (n - c - i) / (n - i);
    passAtK.push({ k, value: 1 - Math.max(0, miss) });
  }
  return {
    modelId,
    n,
    c,
    samples: n,
    scored: 0,
    accuracy: c / n,
    betaLow: 0,
    betaHigh: 1,
    passAtK,
    bestOfK: [],
    majAtK: [],
    hasMajAtK: false,
  };
}

const saturated = (modelId: number, k: number): ProblemComparison => ({
  modelId,
  baseModelId: 1,
  category: 'sharpening',
  withinNoise: false,
  saturationK: k,
});

/** The text marks of an SVG with their position and fill. */
function svgTexts(svg: string): { x: number; y: number; fill: string; text: string }[] {
  return [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const tr = /transform="translate\(([-\d.]+),([-\d.]+)\)"/.exec(m[1]);
    return {
      x: Number(tr?.[1] ?? Number.NaN),
      y: Number(tr?.[2] ?? Number.NaN),
      fill: /fill="([^"]*)"/.exec(m[1])?.[1] ?? '',
      text: m[2],
    };
  });
}

describe('chart specs: one colour per model in every view (12 models, as rlvr-probe-gsm8k)', () => {
  // base 1, focus 5 (not first among the others), ten other models
  const models = Array.from({ length: 12 }, (_, i) => viewModel(i + 1, 1, 5));
  const data = { models } as unknown as OverviewData;

  test('base and focus fixed, the ten others distinct, the same in the pass@k chart, the c/n chart and the overview', () => {
    const styles = modelStyles(models);
    assert.equal(styles.get(1)?.color, DEFAULT_CHART_THEME.foreground);
    assert.equal(styles.get(5)?.color, DEFAULT_CHART_THEME.focus);
    const colors = models.map((m) => styles.get(m.id)?.color);
    assert.equal(new Set(colors).size, 12, `12 distinct colours: ${colors.join(' ')}`);
    // the overview's Models tab: the same colour per model (the focus model blue in both views)
    const ov = overviewModels(data);
    for (const m of ov) assert.equal(m.color, styles.get(m.id)?.color, m.label);
    // the problem view's c/n chart: the colour scale maps each model's label to its colour
    const stats = models.map((m) => viewStats(m.id, 16, m.id));
    const acc = accuracySpec(models, stats);
    const scale = acc.layer[0].encoding.color.scale;
    for (const m of models)
      assert.equal(scale.range[scale.domain.indexOf(m.isBase ? 'm1 (base)' : m.label)], styles.get(m.id)?.color);
    // the pass@k chart: each group in its own model's colour
    const spec = problemCurveSpec(models, stats, [], { maj: false, best: false });
    const cs = spec.layer[0].encoding.color.scale;
    for (const m of models)
      assert.equal(cs.range[cs.domain.indexOf(m.isBase ? 'm1 (base)' : m.label)], styles.get(m.id)?.color);
  });

  test('past ten other models a colour repeats with a dash: colour and dash tell every model apart', () => {
    const many = Array.from({ length: 14 }, (_, i) => viewModel(i + 1, 1, 2));
    const st = modelStyles(many);
    // others: ids 3..14 (12 models); the 11th other (id 13) takes the first other's colour (id 3), dashed
    assert.equal(st.get(13)?.color, st.get(3)?.color);
    assert.deepEqual(st.get(3)?.dash, [1, 0]);
    assert.deepEqual(st.get(13)?.dash, [6, 3]);
    const pairs = many.map((m) => JSON.stringify(st.get(m.id)));
    assert.equal(new Set(pairs).size, 14, 'colour and dash tell every model apart');
  });
});

describe("chart specs: the problem view's pass@k chart with many models", () => {
  before(async () => {
    ({ vl, vega } = await chartLibraries());
  });

  test('a saturation label names its models, in the theme text colour; the rule in the model colour', async () => {
    const models = [viewModel(1), viewModel(2)];
    const spec = problemCurveSpec(models, [viewStats(1, 8, 5), viewStats(2, 8, 6)], [saturated(2, 4)], {
      maj: false,
      best: false,
    });
    const svg = await svgOf(canvasSpec(spec, DEFAULT_CHART_THEME, 480));
    const label = svgTexts(svg).find((t) => t.text.startsWith('saturated'));
    assert.equal(label?.fill, DEFAULT_CHART_THEME.foreground);
    assert.equal(label?.text, 'saturated from k=4: m2');
    assert.ok(!svgTexts(svg).some((t) => t.text.includes('every k-subset')), 'the sentence is not drawn');
    // the rule (layer 2: after the muted and the strong lines) in the focus colour of the theme
    assert.match(svg, new RegExp(`role-mark layer_2_marks"[\\s\\S]*?<line [^>]*stroke="${DEFAULT_CHART_THEME.focus}"`));
  });

  test('the claim is drawn where it holds: both curves pass through (k, 1) at a saturation k between plotted ks', () => {
    // n = 8: base c = 3 (pass@4 = 0.93, 1 from k = 6), model c = 6 (1 from k = 3): saturation from k = 6
    const spec = problemCurveSpec(
      [viewModel(1), viewModel(2)],
      [viewStats(1, 8, 3), viewStats(2, 8, 6)],
      [saturated(2, 6)],
      { maj: false, best: false },
    );
    const rows = (spec.layer as Spec[])[1].data.values as { modelId: number; k: number; value: number }[];
    for (const id of [1, 2]) {
      const at6 = rows.filter((r) => r.modelId === id && r.k === 6);
      assert.deepEqual(
        at6.map((r) => r.value),
        [1],
        `model ${id} has its point at k = 6`,
      );
    }
    const base4 = rows.find((r) => r.modelId === 1 && r.k === 4)?.value as number;
    assert.ok(base4 < 0.95, `the base is below 1 at k = 4 (${base4})`);
    assert.ok((spec.layer[0].encoding.x.axis.values as number[]).includes(6), 'k = 6 is a tick');
  });

  test('labels at several saturation ks are on lines of their own, each naming at most two models', async () => {
    const models = [1, 2, 3, 4, 5].map((id) => viewModel(id));
    const spec = problemCurveSpec(
      models,
      models.map((m) => viewStats(m.id, 8, m.id === 1 ? 5 : 4 + (m.id % 4))),
      [saturated(2, 4), saturated(3, 4), saturated(4, 4), saturated(5, 8)],
      { maj: false, best: false },
    );
    const svg = await svgOf(canvasSpec(spec, DEFAULT_CHART_THEME, 900));
    const labels = svgTexts(svg).filter((t) => t.text.startsWith('saturated'));
    assert.deepEqual(labels.map((l) => l.text).sort(), [
      'saturated from k=4: m2, m3 +1 more',
      'saturated from k=8: m5',
    ]);
    assert.ok(Math.abs(labels[0].y - labels[1].y) >= 13, `lines apart: ${labels.map((l) => l.y)}`);
  });

  test('identical curves are one series named "+N identical", with a note naming the models', () => {
    // the base and two copies of it; the focus model and one copy; two others
    const models = [1, 2, 3, 4, 5, 6, 7].map((id) => viewModel(id));
    const c = { 1: 3, 2: 6, 3: 3, 4: 6, 5: 3, 6: 5, 7: 7 } as Record<number, number>;
    const groups = problemCurveGroups(
      models,
      models.map((m) => viewStats(m.id, 8, c[m.id])),
      { maj: false, best: false },
      DEFAULT_CHART_THEME,
    );
    assert.deepEqual(
      groups.map((g) => [g.legend, g.role, g.modelIds]),
      [
        ['m1 (base) +2 identical', 'base', [1, 3, 5]],
        ['m2 +1 identical', 'focus', [2, 4]],
        ['m6', 'other', [6]],
        ['m7', 'other', [7]],
      ],
    );
    assert.equal(groups[0].color, DEFAULT_CHART_THEME.foreground);
    assert.equal(groups[1].color, DEFAULT_CHART_THEME.focus);
    assert.equal(problemCurveNote(groups), 'Identical curves, drawn once: m1 (base) = m3 = m5; m2 = m4.');
    assert.equal(problemCurveNote(groups.slice(2)), null);
  });

  test('the base and the focus model over the others, strong; the others faint until toggled from the legend', () => {
    const models = [1, 2, 3, 4].map((id) => viewModel(id, 3, 4));
    const spec = problemCurveSpec(
      models,
      models.map((m) => viewStats(m.id, 8, m.id + 2)),
      [],
      {
        maj: false,
        best: false,
      },
    );
    const [muted, strong] = spec.layer as Spec[];
    assert.deepEqual(muted.params[0].bind, 'legend');
    assert.equal(muted.params[0].select.toggle, 'true');
    assert.equal(muted.encoding.opacity.value, 0.7);
    // high contrast: muted curves at full opacity (0.3 on black was ~1.5:1, under WCAG 1.4.11's 3:1)
    const hc = problemCurveSpec(
      [viewModel(1), viewModel(2), viewModel(3)],
      [viewStats(1, 8, 2), viewStats(2, 8, 4), viewStats(3, 8, 6)],
      [],
      { maj: false, best: false },
      { ...DEFAULT_CHART_THEME, highContrast: true },
    );
    assert.equal(hc.layer[0].encoding.opacity.value, 1);
    assert.equal(strong.encoding.opacity, undefined);
    const inLayer = (l: Spec) => {
      const test = (l.transform[0].filter as string).startsWith('!')
        ? (r: Spec) => r.role === 'other'
        : (r: Spec) => r.role !== 'other';
      return [...new Set((l.data.values as Spec[]).filter(test).map((r) => r.model))];
    };
    assert.deepEqual(inLayer(strong), ['m3 (base)', 'm4']);
    assert.deepEqual(inLayer(muted), ['m1', 'm2']);
    // the legend: base, focus, then the others
    assert.deepEqual(muted.encoding.color.scale.domain, ['m3 (base)', 'm4', 'm1', 'm2']);
  });

  for (const count of [2, 5, 12, 30])
    for (const width of [300, 900])
      test(`${count} models at ${width} px: every series in the legend, labels inside the chart`, async () => {
        const models = Array.from({ length: count }, (_, i) => viewModel(i + 1));
        // pairs of identical models from the third on; every model saturates with the base at k = 8
        const stats = models.map((m) => viewStats(m.id, 8, m.id <= 2 ? 4 + m.id : 4 + (Math.floor(m.id / 2) % 4)));
        const spec = problemCurveSpec(
          models,
          stats,
          models.slice(1).map((m) => saturated(m.id, 8)),
          {
            maj: false,
            best: false,
          },
        );
        const groups = problemCurveGroups(models, stats, { maj: false, best: false });
        const svg = await svgOf(canvasSpec(spec, DEFAULT_CHART_THEME, width));
        const texts = svgTexts(svg);
        for (const g of groups)
          assert.ok(
            texts.some((t) => t.text === g.legend || t.text.startsWith(g.legend.slice(0, 8))),
            g.legend,
          );
        const sat = texts.filter((t) => t.text.startsWith('saturated'));
        assert.equal(sat.length, 1);
        // right-aligned at the rule (k = 8, the right edge), cut where the plot ends on its left
        const whole = `saturated from k=8: m2, m3${count > 3 ? ` +${count - 3} more` : count === 3 ? '' : ''}`;
        const full = count === 2 ? 'saturated from k=8: m2' : whole;
        if (sat[0].text !== full) {
          assert.ok(sat[0].text.endsWith('…') && full.startsWith(sat[0].text.slice(0, -1)), sat[0].text);
          assert.equal(width, 300, `cut only when narrow: ${sat[0].text}`);
        }
        assert.ok(sat[0].x > 0 && sat[0].x <= width, `inside the chart: ${sat[0].x}`);
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

describe('chart specs: the Training heatmap legend and the reward scatter labels (issue 34 item 6)', () => {
  before(async () => {
    ({ vl, vega } = await chartLibraries());
  });

  test("the heatmap's pattern legend lists only the patterns some row has (no 'lost' when none is lost)", async () => {
    const problem = (id: number, pattern: string) => ({
      id,
      dataset: 'gsm8k',
      problemId: String(id),
      c: [1, 3],
      n: [4, 4],
      baseC: [1, 1],
      baseN: [4, 4],
      pattern,
    });
    const series = {
      unit: 'step',
      steps: [
        { step: 100, modelId: 1 },
        { step: 200, modelId: 2 },
      ],
      problems: [problem(1, 'gained'), problem(2, 'always'), problem(3, 'gained')],
    } as unknown as TrainingSeries;
    const spec = trainingHeatmapSpec(series);
    const scale = spec.layer[0].encoding.color.scale;
    assert.deepEqual(scale.domain, ['gained', 'always']);
    assert.equal(scale.range.length, 2);
    const svg = await svgOf(spec);
    const texts = svgTexts(svg).map((t) => t.text);
    assert.ok(texts.includes('gained') && texts.includes('always'), texts.join('|'));
    assert.ok(!texts.includes('lost') && !texts.includes('flip-flop'), texts.join('|'));
  });

  test('scatter labels never overlap one another or a point; a label with no free place is left out and counted', () => {
    // three scorers within a pixel of one another (gpt4o / internlm2 / gpt4 printed over each other)
    const points = [
      { text: 'gpt4o', x: 200, y: 100 },
      { text: 'internlm2', x: 201, y: 101 },
      { text: 'gpt4', x: 202, y: 99 },
    ];
    const places = placeScatterLabels(points, 480, 340);
    const boxes = places.map((p, i) => {
      assert.ok(p, `label ${points[i].text} placed`);
      const w = points[i].text.length * 6.2;
      const x0 =
        p.align === 'left' ? points[i].x + p.dx : p.align === 'right' ? points[i].x + p.dx - w : points[i].x - w / 2;
      return [x0, points[i].y + p.dy - 6, x0 + w, points[i].y + p.dy + 6];
    });
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        assert.ok(!(a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]), `${points[i].text} / ${points[j].text}`);
      }
    // eight at one spot: four places, so four labels and four left out
    const crowd = Array.from({ length: 8 }, (_, i) => ({ text: `scorer-${i}`, x: 240, y: 170 }));
    assert.equal(placeScatterLabels(crowd, 480, 340).filter(Boolean).length, 4);
  });

  test('the reward scatter says how many labels it left out', async () => {
    const scorer = (name: string, acc: number, best: number) => ({
      name,
      pairwiseAccuracy: acc,
      pairs: 9,
      bestOfN: [{ n: 4, value: best, passAtN: 0.9, regret: 0.9 - best, over: 'over 483 problems' }],
    });
    const m = {
      over: 'over 483 problems',
      scorers: [...Array.from({ length: 8 }, (_, i) => scorer(`same-${i}`, 0.7, 0.5)), scorer('far', 0.9, 0.8)],
    } as unknown as RewardModelsData['models'][number];
    const spec = rewardScatterSpec(m, 4, 640);
    assert.deepEqual(
      spec.title.subtitle[1],
      '6 labels left out where they would overlap: hover a point for its scorer',
    );
    const svg = await svgOf(spec);
    const drawn = svgTexts(svg).filter((t) => t.text.startsWith('same-') || t.text === 'far');
    // at the bottom-left corner only the right and the upper places are inside the plot: two of the eight, and far
    assert.equal(drawn.length, 3);
  });
});
