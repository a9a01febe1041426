/**
 * Vega-Lite charts of the problem view and the overview. Specs are built here from protocol data
 * (pure functions, see the `*Spec` exports); {@link showChart} embeds them with vega-embed using the
 * AST expression interpreter (`ast: true` + vega-interpreter), so no `eval`/`new Function` runs and
 * the CSP needs no eval permission. Default styles, the actions menu and the tooltip's default style
 * are off (they would inject <style> elements); the equivalent CSS lives in style.css. Colours come
 * from the VS Code theme's CSS variables and the charts re-render when the theme changes.
 *
 * Charts are built one at a time, each in two tasks of the page (Vega-Lite compile, then the Vega view)
 * with a turn for the browser before each: in code-server the webview shares the workbench's renderer
 * thread, and building the shell plus every chart of a view in one task stalled the workbench.
 */
import { logger as vegaLogger } from 'vega';
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import { compile as compileVegaLite } from 'vega-lite';
import type {
  ModelInfo,
  OverviewData,
  PplData,
  ProblemComparison,
  ProblemRankingData,
  RewardModelsData,
  ProblemModelStats,
  SimilarityData,
} from '../src/shared/protocol';

// biome-ignore lint/suspicious/noExplicitAny: a Vega-Lite spec is built field by field; vega-embed takes it untyped
export type Spec = Record<string, any>;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/** Vega config from the VS Code theme (light, dark, high contrast). */
export function themeConfig(): Spec {
  const fg = cssVar('--vscode-editor-foreground', cssVar('--vscode-foreground', '#333'));
  const muted = cssVar('--vscode-descriptionForeground', fg);
  const grid = cssVar('--vscode-editorWidget-border', cssVar('--vscode-panel-border', '#8884'));
  const hc =
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light');
  const font = cssVar('--vscode-font-family', 'sans-serif');
  return {
    background: null,
    font,
    view: { stroke: hc ? fg : null },
    axis: {
      labelColor: fg,
      titleColor: fg,
      domainColor: muted,
      tickColor: muted,
      gridColor: grid,
      gridOpacity: hc ? 0.6 : 0.35,
      labelFont: font,
      titleFont: font,
    },
    legend: { labelColor: fg, titleColor: fg, labelFont: font, titleFont: font, labelLimit: 360 },
    header: { labelColor: fg, titleColor: fg, labelFont: font, titleFont: font },
    title: { color: fg, font },
    text: { color: fg },
    range: { category: { scheme: 'tableau10' } },
    line: { strokeWidth: hc ? 3 : 2 },
    point: { size: hc ? 70 : 45, filled: true },
  };
}

export interface ChartHandle {
  finalize(): void;
}

/**
 * Gives the browser a turn (input, paint, the workbench's own tasks) before the caller goes on:
 * `scheduler.yield()` where the browser has it (Chromium >= 129: the continuation runs before other
 * queued tasks of the same priority), else a zero-delay timer.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The chart being built (charts are built one after the other, see the module's doc). */
let chartQueue: Promise<unknown> = Promise.resolve();

/**
 * Embeds `spec` into `el`. `onClick` receives the clicked mark's datum (nothing for clicks on the
 * background). Errors are shown as text in `el`, never thrown. Charts are built in the order asked,
 * one at a time, each in two tasks (Vega-Lite compile, Vega view) after a yield to the browser; a chart
 * whose element has left the page by its turn, or for whose element a newer chart was asked since, is not
 * built (its handle does nothing).
 */
export function showChart(
  el: HTMLElement,
  spec: Spec,
  onClick?: (datum: Record<string, unknown>) => void,
): Promise<ChartHandle> {
  // only the last chart asked for an element is built (a theme change re-asks while others still wait)
  const ticket = (latestAsked.get(el) ?? 0) + 1;
  latestAsked.set(el, ticket);
  const current = () => el.isConnected && latestAsked.get(el) === ticket;
  const built = chartQueue.then(() => buildChart(el, spec, current, onClick));
  chartQueue = built.catch(() => undefined);
  return built;
}

/** Per chart element, the number of the last chart asked for it. */
const latestAsked = new WeakMap<HTMLElement, number>();

const NO_CHART: ChartHandle = { finalize: () => undefined };

async function buildChart(
  el: HTMLElement,
  spec: Spec,
  current: () => boolean,
  onClick?: (datum: Record<string, unknown>) => void,
): Promise<ChartHandle> {
  try {
    await yieldToBrowser();
    if (!current()) return NO_CHART;
    // Vega-Lite -> Vega in a task of its own (what vega-embed would do inside its one task)
    const vgSpec = compileVegaLite(
      { ...spec, $schema: SCHEMA, config: { ...themeConfig(), ...(spec.config ?? {}) } } as never,
      { logger: vegaLogger(0) },
    ).spec;
    await yieldToBrowser();
    if (!current()) return NO_CHART;
    const res = await embed(
      el,
      vgSpec as never,
      {
        mode: 'vega',
        // vega-embed's default for a Vega spec; off as it is for the Vega-Lite specs it compiles itself
        hover: false,
        ast: true,
        expr: expressionInterpreter,
        actions: false,
        defaultStyle: false,
        renderer: 'canvas',
        tooltip: {
          disableDefaultStyle: true,
          theme: document.body.classList.contains('vscode-light') ? 'light' : 'dark',
        },
        logLevel: 0,
      } as never,
    );
    if (onClick) {
      res.view.addEventListener('click', (_e: unknown, item: unknown) => {
        const datum = (item as { datum?: Record<string, unknown> } | null | undefined)?.datum;
        if (datum && typeof datum === 'object') onClick(datum);
      });
    }
    return { finalize: () => res.finalize() };
  } catch (e) {
    el.textContent = `Chart failed: ${(e as Error).message}`;
    return NO_CHART;
  }
}

const colorScale = (models: ModelInfo[]) => ({
  domain: models.map((m) => m.label),
  scheme: models.length > 10 ? 'tableau20' : 'tableau10',
});

/** Rows of the per-problem curve chart. */
export function problemCurveRows(
  models: ModelInfo[],
  stats: ProblemModelStats[],
  metrics: { maj: boolean; best: boolean },
) {
  const label = new Map(models.map((m) => [m.id, m.label + (m.isBase ? ' (base)' : '')]));
  const base = new Set(models.filter((m) => m.isBase).map((m) => m.id));
  const rows: { model: string; modelId: number; isBase: boolean; metric: string; k: number; value: number }[] = [];
  for (const s of stats) {
    const m = label.get(s.modelId) ?? String(s.modelId);
    const add = (metric: string, pts: { k: number; value: number | null }[]) => {
      for (const p of pts)
        if (p.value !== null)
          rows.push({ model: m, modelId: s.modelId, isBase: base.has(s.modelId), metric, k: p.k, value: p.value });
    };
    add('pass@k', s.passAtK);
    if (metrics.maj) add('maj@k', s.majAtK);
    if (metrics.best) add('best-of-k', s.bestOfK);
  }
  return rows;
}

/**
 * pass@k of every model against k (log2 axis), one line per model, maj@k / best-of-k dashed beside
 * it when asked for, and a dotted rule at each model's saturation point against its base: the k
 * from which both solve every k-subset (both pass@k exactly 1). No crossover is drawn: two pass@k
 * curves of one problem never cross, they only meet at 1.
 */
export function problemCurveSpec(
  models: ModelInfo[],
  stats: ProblemModelStats[],
  comparisons: ProblemComparison[],
  metrics: { maj: boolean; best: boolean },
): Spec {
  const labelled = models.map((m) => ({ ...m, label: m.label + (m.isBase ? ' (base)' : '') }));
  const label = new Map(labelled.map((m) => [m.id, m.label]));
  const rows = problemCurveRows(models, stats, metrics);
  const maxKAll = Math.max(1, ...rows.map((r) => r.k));
  // Labels stacked upwards (one line each), so that points at nearby k do not print over each other;
  // right of the rule in the left half of the axis, left of it in the right half.
  const sat = comparisons
    .filter((c) => c.saturationK !== null)
    .map((c, i) => ({
      model: label.get(c.modelId) ?? '',
      k: c.saturationK as number,
      text: `saturation from k=${c.saturationK}: both solve every k-subset`,
      y: 0.02 + 0.07 * i,
      side: Math.log2(c.saturationK as number) > Math.log2(maxKAll) / 2 ? 'left' : 'right',
    }));
  const color = {
    field: 'model',
    type: 'nominal',
    title: 'model',
    scale: colorScale(labelled),
    legend: { orient: 'bottom', columns: 2, labelLimit: 480 },
  }; // room for 'name@revision (run)' in two columns
  const x = {
    field: 'k',
    type: 'quantitative',
    title: 'k (samples)',
    scale: { type: 'log', base: 2, domain: [1, maxKAll], nice: false },
    axis: { values: [...new Set(rows.map((r) => r.k))] },
  };
  const layers: Spec[] = [
    {
      data: { values: rows },
      mark: { type: 'line', point: true },
      encoding: {
        x,
        // the axis names every metric drawn (pass@k alone unless maj@k or best-of-k is ticked)
        y: {
          field: 'value',
          type: 'quantitative',
          title: ['pass@k', ...(metrics.maj ? ['maj@k'] : []), ...(metrics.best ? ['best-of-k'] : [])].join(' / '),
          scale: { domain: [0, 1] },
        },
        strokeWidth: {
          field: 'isBase',
          type: 'nominal',
          scale: { domain: [true, false], range: [3.5, 1.8] },
          legend: null,
        },
        color,
        strokeDash: {
          field: 'metric',
          type: 'nominal',
          title: 'metric',
          scale: {
            domain: ['pass@k', 'maj@k', 'best-of-k'],
            range: [
              [1, 0],
              [6, 3],
              [2, 2],
            ],
          },
          legend: metrics.maj || metrics.best ? {} : null,
        },
        tooltip: [
          { field: 'model', type: 'nominal' },
          { field: 'metric', type: 'nominal' },
          { field: 'k', type: 'quantitative' },
          { field: 'value', type: 'quantitative', format: '.3f' },
        ],
      },
    },
  ];
  if (sat.length > 0) {
    layers.push({
      data: { values: sat },
      mark: { type: 'rule', strokeDash: [2, 3], opacity: 0.8 },
      encoding: {
        x: { field: 'k', type: 'quantitative' },
        color: { field: 'model', type: 'nominal', scale: colorScale(labelled), legend: null },
        tooltip: [{ field: 'model' }, { field: 'text', title: 'from k' }],
      },
    });
    for (const side of ['right', 'left'] as const)
      layers.push({
        data: { values: sat },
        transform: [{ filter: `datum.side === '${side}'` }],
        mark: {
          type: 'text',
          dy: -6,
          align: side === 'right' ? 'left' : 'right',
          dx: side === 'right' ? 3 : -3,
          baseline: 'bottom',
        },
        encoding: {
          x: { field: 'k', type: 'quantitative' },
          y: { field: 'y', type: 'quantitative' },
          text: { field: 'text' },
          color: { field: 'model', type: 'nominal', scale: colorScale(labelled), legend: null },
        },
      });
  }
  return { width: 'container', height: 280, layer: layers, resolve: { scale: { color: 'shared' } } };
}

/** c/n of each model with its 95% Jeffreys interval, one row per model. */
export function accuracySpec(models: ModelInfo[], stats: ProblemModelStats[]): Spec {
  const labelled = models.map((m) => ({ ...m, label: m.label + (m.isBase ? ' (base)' : '') }));
  const label = new Map(labelled.map((m) => [m.id, m.label]));
  const rows = stats
    .filter((s) => s.accuracy !== null)
    .map((s) => ({
      model: label.get(s.modelId) ?? '',
      accuracy: s.accuracy,
      low: s.betaLow,
      high: s.betaHigh,
      cn: `${s.c}/${s.n}`,
    }));
  const y = {
    field: 'model',
    type: 'nominal',
    title: null,
    sort: labelled.map((m) => m.label),
    axis: { labelLimit: 320 },
  };
  return {
    width: 'container',
    height: { step: 18 },
    data: { values: rows },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          y,
          x: { field: 'low', type: 'quantitative', scale: { domain: [0, 1] }, title: 'c/n with 95% Jeffreys interval' },
          x2: { field: 'high' },
          color: { field: 'model', type: 'nominal', scale: colorScale(labelled), legend: null },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          y,
          x: { field: 'accuracy', type: 'quantitative' },
          color: { field: 'model', type: 'nominal', scale: colorScale(labelled), legend: null },
          tooltip: [
            { field: 'model' },
            { field: 'cn', title: 'c/n' },
            { field: 'low', format: '.3f', title: '2.5%' },
            { field: 'high', format: '.3f', title: '97.5%' },
          ],
        },
      },
    ],
  };
}

/**
 * Similarity to the nearest base sample: the model's samples against the base-to-base
 * (leave-one-out) baseline, one dot per sample; colour = verdict.
 */
export function similaritySpec(sim: SimilarityData, modelLabel: string, baseLabel: string): Spec {
  const verdict = (c: boolean | null) => (c === true ? 'correct' : c === false ? 'incorrect' : 'ungraded');
  const rows = [
    ...sim.baseline
      .filter((b) => b.similarity !== null)
      .map((b) => ({
        group: `${baseLabel} ↔ other base samples`,
        similarity: b.similarity,
        novelty: b.novelty,
        sample: `base #${b.sampleIndex}`,
        verdict: 'base',
        sampleId: b.sampleId,
      })),
    ...sim.samples
      .filter((s) => s.similarity !== null)
      .map((s) => ({
        group: `${modelLabel} → nearest base`,
        similarity: s.similarity,
        novelty: s.novelty,
        sample: `#${s.sampleIndex}`,
        verdict: verdict(s.correct),
        sampleId: s.sampleId,
      })),
  ];
  return {
    width: 'container',
    height: 150,
    data: { values: rows },
    mark: { type: 'point', filled: true, size: 70, opacity: 0.85, cursor: 'pointer' },
    encoding: {
      y: { field: 'group', type: 'nominal', title: null, axis: { labelLimit: 360 } },
      yOffset: { field: 'verdict', type: 'nominal', scale: { domain: ['base', 'correct', 'incorrect', 'ungraded'] } },
      x: {
        field: 'similarity',
        type: 'quantitative',
        scale: { domain: [0, 1] },
        title: 'similarity to the nearest base sample (Jaccard of token 3-grams)',
      },
      color: {
        field: 'verdict',
        type: 'nominal',
        scale: {
          domain: ['base', 'correct', 'incorrect', 'ungraded'],
          range: ['#888888', '#3fa34d', '#d64545', '#b58900'],
        },
        legend: { orient: 'bottom' },
      },
      shape: {
        field: 'verdict',
        type: 'nominal',
        scale: {
          domain: ['base', 'correct', 'incorrect', 'ungraded'],
          range: ['circle', 'circle', 'cross', 'diamond'],
        },
      },
      tooltip: [
        { field: 'sample' },
        { field: 'verdict' },
        { field: 'similarity', format: '.3f' },
        { field: 'novelty', format: '.1%' },
      ],
    },
  };
}

/** PPL_base of base and other models' samples (Yue et al. 2025, fig. on perplexity). */
export function pplSpec(ppl: PplData, models: ModelInfo[]): Spec {
  const label = new Map(models.map((m) => [m.id, m.label + (m.isBase ? ' (base)' : '')]));
  const rows = ppl.points.map((p) => ({
    model: label.get(p.modelId) ?? String(p.modelId),
    ppl: p.ppl,
    verdict: p.correct === true ? 'correct' : p.correct === false ? 'incorrect' : 'ungraded',
  }));
  return {
    width: 'container',
    height: { step: 40 },
    data: { values: rows },
    layer: [
      {
        mark: { type: 'boxplot', extent: 'min-max', opacity: 0.35 },
        encoding: {
          y: { field: 'model', type: 'nominal', title: null },
          x: {
            field: 'ppl',
            type: 'quantitative',
            title: 'PPL under the base model',
            scale: { type: 'log', zero: false },
          },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 40 },
        encoding: {
          y: { field: 'model', type: 'nominal' },
          x: { field: 'ppl', type: 'quantitative' },
          color: { field: 'verdict', type: 'nominal' },
          tooltip: [{ field: 'model' }, { field: 'ppl', format: '.3f' }, { field: 'verdict' }],
        },
      },
    ],
  };
}

// ------------------------------------------------------------------------------------------------
// Overview

const TABLEAU10 = [
  '#4c78a8',
  '#f58518',
  '#e45756',
  '#72b7b2',
  '#54a24b',
  '#eeca3b',
  '#b279a2',
  '#ff9da6',
  '#9d755d',
  '#bab0ac',
];
const TABLEAU20 = [
  '#4c78a8',
  '#9ecae9',
  '#f58518',
  '#ffbf79',
  '#54a24b',
  '#88d27a',
  '#b79a20',
  '#f2cf5b',
  '#439894',
  '#83bcb6',
  '#e45756',
  '#ff9d98',
  '#79706e',
  '#bab0ac',
  '#d67195',
  '#fcbfd2',
  '#b279a2',
  '#d6a5c9',
  '#9e765f',
  '#d8b5a5',
];

/** The base model's dash in the overview's curves (other models are solid). */
const BASE_DASH = [7, 3];

/** A model of the overview as drawn: label with "(base)" and a colour fixed for the panel's life. */
export interface OverviewModel {
  id: number;
  label: string;
  isBase: boolean;
  color: string;
}

/**
 * Labels and colours of the overview's models, in `d.models` order. The base model is drawn in the
 * theme's foreground colour (no other model uses it); the others take tableau10 (tableau20 beyond
 * 10 models) in order, so a model keeps its colour when others are hidden or shown.
 */
export function overviewModels(d: OverviewData): OverviewModel[] {
  const others = d.models.filter((m) => !m.isBase).length;
  const palette = others > 10 ? TABLEAU20 : TABLEAU10;
  const fg = cssVar('--vscode-editor-foreground', cssVar('--vscode-foreground', '#333'));
  let i = 0;
  return d.models.map((m) => ({
    id: m.id,
    label: m.label + (m.isBase ? ' (base)' : ''),
    isBase: m.isBase,
    color: m.isBase ? fg : palette[i++ % palette.length],
  }));
}

/**
 * Models shown when the overview opens. Up to `max` models: all. Beyond: the base model(s), the
 * model in focus and the other models of the focus model's run; when that leaves the base alone,
 * the first models in order up to `max`.
 */
export function defaultVisibleModels(models: ModelInfo[], max = 4): Set<number> {
  if (models.length <= max) return new Set(models.map((m) => m.id));
  const focus = models.find((m) => m.isFocus);
  const shown = new Set(
    models
      .filter((m) => m.isBase || m.isFocus || (focus !== undefined && focus.run !== undefined && m.run === focus.run))
      .map((m) => m.id),
  );
  for (const m of models) {
    if (shown.size >= max || models.some((x) => shown.has(x.id) && !x.isBase)) break;
    shown.add(m.id);
  }
  return shown;
}

/** Options of the overview's charts: models shown (all when undefined) and whether bootstrap bands are drawn. */
export interface OverviewChartOptions {
  visible?: Set<number>;
  bands?: boolean;
  /**
   * Width in CSS pixels the chart may take (its container's width). Faceted charts (one per difficulty
   * level) size their columns from it and legends cut labels to it, so nothing is clipped in a narrow
   * editor; default 720.
   */
  width?: number;
}

/** Facet columns and the width of one facet for an available width (room for axes and padding). */
export function facetLayout(width: number, facets: number): { columns: number; facetWidth: number } {
  const columns = Math.max(1, Math.min(3, facets, Math.floor(width / 250)));
  return { columns, facetWidth: Math.max(120, Math.floor(width / columns) - 75) };
}

/** Colour, dash and width scales of the shown models (one merged legend; click an entry to hide the model). */
function modelEncodings(models: OverviewModel[], width = 720) {
  const shown = [...models.filter((m) => m.isBase), ...models.filter((m) => !m.isBase)];
  const domain = shown.map((m) => m.label);
  const columns = shown.length > 6 && width >= 600 ? 2 : 1;
  const legend = {
    // labels are cut (with an ellipsis; the full name is in the model list) to fit the chart's width
    labelLimit: Math.max(100, Math.floor(width / columns) - 60),
    orient: 'bottom',
    columns,
    symbolOpacity: 1,
    symbolType: 'stroke',
    symbolStrokeWidth: 3,
    symbolSize: 300,
    encode: {
      entries: { interactive: true },
      symbols: { interactive: true, update: { cursor: { value: 'pointer' } } },
      labels: { interactive: true, update: { cursor: { value: 'pointer' } } },
    },
  };
  return {
    color: {
      field: 'model',
      type: 'nominal',
      title: 'model (click to hide)',
      scale: { domain, range: shown.map((m) => m.color) },
      legend,
    },
    strokeDash: {
      field: 'model',
      type: 'nominal',
      title: 'model (click to hide)',
      scale: { domain, range: shown.map((m) => (m.isBase ? BASE_DASH : [1, 0])) },
      legend,
    },
    strokeWidth: {
      field: 'model',
      type: 'nominal',
      title: 'model (click to hide)',
      scale: { domain, range: shown.map((m) => (m.isBase ? 3.5 : 2)) },
      legend,
    },
  };
}

/**
 * Dataset pass@k with bootstrap bands of the shown models; faceted by difficulty level when levels
 * exist. The base model's line is dashed and thicker, in the foreground colour; band opacity falls
 * as more models are shown. A point computed over fewer than all of the model's problems (no
 * samples, no graded sample, n < k) is drawn hollow, and its tooltip says over how many and why
 * (`over 5 of 6 problems: 1 has n < 1024`), so a curve whose problem set changes along k shows it.
 */
export function overviewCurveSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  const all = overviewModels(d);
  const shown = all.filter((m) => !opts.visible || opts.visible.has(m.id));
  const label = new Map(shown.map((m) => [m.id, m.label]));
  const base = new Set(shown.filter((m) => m.isBase).map((m) => m.id));
  const rows = d.curves
    .filter((c) => c.value !== null && label.has(c.modelId))
    .map((c) => ({
      ...c,
      model: label.get(c.modelId) ?? '',
      isBase: base.has(c.modelId),
      level: c.level === null ? 'all problems' : `level ${c.level}`,
    }));
  const width = opts.width ?? 720;
  const enc = modelEncodings(shown, width);
  const x = {
    field: 'k',
    type: 'quantitative',
    title: 'k',
    scale: { type: 'log', base: 2, nice: false },
    axis: { values: [...new Set(rows.map((r) => r.k))] },
  };
  const y = { field: 'value', type: 'quantitative', title: 'pass@k', scale: { domain: [0, 1] } };
  const bandOpacity = shown.length <= 2 ? 0.16 : shown.length <= 4 ? 0.1 : 0.06;
  const layer: Spec[] = [];
  if (opts.bands !== false) {
    layer.push({
      transform: [{ filter: 'isValid(datum.ciLow) && isValid(datum.ciHigh)' }],
      mark: { type: 'area', opacity: bandOpacity },
      encoding: {
        x,
        y: { field: 'ciLow', type: 'quantitative', title: 'pass@k', scale: { domain: [0, 1] } },
        y2: { field: 'ciHigh' },
        color: enc.color,
      },
    });
  }
  const tooltip = [
    { field: 'model' },
    { field: 'level' },
    { field: 'k' },
    { field: 'value', format: '.3f', title: 'pass@k' },
    { field: 'ciLow', format: '.3f', title: '2.5%' },
    { field: 'ciHigh', format: '.3f', title: '97.5%' },
    { field: 'over', title: 'computed' },
  ];
  const line = (filter: string): Spec[] => [
    {
      transform: [{ filter }],
      mark: { type: 'line' },
      encoding: { x, y, color: enc.color, strokeDash: enc.strokeDash, strokeWidth: enc.strokeWidth },
    },
    // points over all of the model's problems: filled; over fewer: hollow
    {
      transform: [{ filter: `(${filter}) && datum.missing === 0` }],
      mark: { type: 'point', filled: true },
      encoding: { x, y, color: enc.color, tooltip },
    },
    {
      transform: [{ filter: `(${filter}) && datum.missing > 0` }],
      mark: { type: 'point', filled: false, strokeWidth: 2, size: 70 },
      encoding: { x, y, color: enc.color, tooltip },
    },
  ];
  // the base model's line last, so it is drawn over the others
  layer.push(...line('!datum.isBase'));
  if (shown.some((m) => m.isBase)) layer.push(...line('datum.isBase'));
  if (d.levels.length === 0) return { width: 'container', height: 300, data: { values: rows }, layer };
  const { columns, facetWidth } = facetLayout(width, d.levels.length + 1);
  return {
    data: { values: rows },
    facet: {
      field: 'level',
      type: 'nominal',
      title: null,
      sort: ['all problems', ...d.levels.map((l) => `level ${l}`)],
    },
    columns,
    spec: { width: facetWidth, height: 170, layer },
  };
}

/**
 * Accuracy (c/n) histogram of the shown models, grouped bars (base model first, in the
 * foreground colour); a bar's
 * datum carries modelId and bin.
 */
export function histogramSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  const all = overviewModels(d);
  const shown = all.filter((m) => !opts.visible || opts.visible.has(m.id));
  const order = [...shown.filter((m) => m.isBase), ...shown.filter((m) => !m.isBase)].map((m) => m.label);
  const label = new Map(shown.map((m) => [m.id, m.label]));
  const bins = d.histograms.filter((h) => h.modelId === d.models[0]?.id).map((h) => h.label);
  const rows = d.histograms
    .filter((h) => label.has(h.modelId))
    .map((h) => ({ ...h, model: label.get(h.modelId) ?? '' }));
  const enc = modelEncodings(shown, opts.width);
  return {
    width: 'container',
    height: 240,
    data: { values: rows },
    mark: { type: 'bar', cursor: 'pointer' },
    encoding: {
      x: { field: 'label', type: 'ordinal', sort: bins, title: 'per-problem accuracy c/n', axis: { labelAngle: -30 } },
      xOffset: { field: 'model', type: 'nominal', sort: order, scale: { domain: order } },
      y: { field: 'count', type: 'quantitative', title: 'problems' },
      color: {
        ...enc.color,
        legend: { ...enc.color.legend, symbolType: 'square', symbolStrokeWidth: 0, symbolSize: 120 },
      },
      tooltip: [{ field: 'model' }, { field: 'label', title: 'accuracy' }, { field: 'count', title: 'problems' }],
    },
  };
}

export const COVERAGE_CELLS = ['baseOnly', 'modelOnly', 'both', 'neither'] as const;
const CELL_TEXT: Record<string, string> = {
  baseOnly: 'base only',
  modelOnly: 'RL only',
  both: 'both',
  neither: 'neither',
};

/** Coverage of each model against the base model: stacked bar of the four cells; datum carries modelId and cell. */
export function coverageSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  const ms = overviewModels(d);
  const label = new Map(ms.map((m) => [m.id, m.label]));
  const rows = d.coverage
    .filter((c) => !opts.visible || opts.visible.has(c.modelId))
    .flatMap((c) =>
      COVERAGE_CELLS.map((cell, i) => ({
        model: label.get(c.modelId) ?? '',
        modelId: c.modelId,
        baseModelId: c.baseModelId,
        cell,
        cellText: CELL_TEXT[cell],
        order: i,
        count: c[cell],
      })),
    );
  return {
    width: 'container',
    height: { step: 22 },
    data: { values: rows },
    mark: { type: 'bar', cursor: 'pointer' },
    encoding: {
      y: {
        field: 'model',
        type: 'nominal',
        title: null,
        axis: { labelLimit: Math.max(120, Math.min(360, Math.floor((opts.width ?? 720) / 2.5))) },
      },
      x: { field: 'count', type: 'quantitative', title: 'problems solved (c ≥ 1)', stack: 'zero' },
      color: {
        field: 'cellText',
        type: 'nominal',
        title: 'solved by',
        scale: {
          domain: ['base only', 'RL only', 'both', 'neither'],
          range: ['#e8a33d', '#4c9be8', '#6aa84f', '#9e9e9e'],
        },
        legend: { orient: 'bottom' },
      },
      order: { field: 'order' },
      tooltip: [{ field: 'model' }, { field: 'cellText', title: 'solved by' }, { field: 'count', title: 'problems' }],
    },
  };
}

/**
 * Reward models tab: best-of-N at one N against pairwise accuracy, one point per scorer (labelled), with
 * the denominators in the axis titles. Wen et al. 2025 ask how well the first predicts the second.
 */
export function rewardScatterSpec(m: RewardModelsData['models'][number], n: number, width: number): Spec {
  const rows = m.scorers.flatMap((s) => {
    const b = s.bestOfN.find((x) => x.n === n);
    if (s.pairwiseAccuracy === null || !b || b.value === null) return [];
    return [{ scorer: s.name, accuracy: s.pairwiseAccuracy, best: b.value, passAtN: b.passAtN, regret: b.regret }];
  });
  const point = m.scorers[0]?.bestOfN.find((x) => x.n === n);
  return {
    width: Math.max(320, Math.min(width - 40, 900)),
    height: 340,
    data: { values: rows },
    title: {
      text: `best-of-${n} against pairwise accuracy (${rows.length} scorers)`,
      subtitle: `pairwise accuracy ${m.over}; best-of-${n} ${point?.over ?? 'over no problem'}; pass@${n} (the oracle) = ${point?.passAtN === null || point?.passAtN === undefined ? '—' : point.passAtN.toFixed(3)}`,
    },
    encoding: {
      x: {
        field: 'accuracy',
        type: 'quantitative',
        title: `pairwise accuracy (${m.scorers[0]?.pairs ?? 0} correct-vs-incorrect pairs per scorer, ties 1/2)`,
        scale: { zero: false, nice: true },
      },
      y: { field: 'best', type: 'quantitative', title: `best-of-${n}`, scale: { zero: false, nice: true } },
      tooltip: [
        { field: 'scorer', title: 'scorer' },
        { field: 'accuracy', title: 'pairwise accuracy', format: '.4f' },
        { field: 'best', title: `best-of-${n}`, format: '.4f' },
        { field: 'passAtN', title: `pass@${n}`, format: '.4f' },
        { field: 'regret', title: 'regret', format: '.4f' },
      ],
    },
    layer: [
      { mark: { type: 'point', filled: true, size: 70 } },
      { mark: { type: 'text', align: 'left', dx: 6, dy: -4, fontSize: 10 }, encoding: { text: { field: 'scorer' } } },
    ],
  };
}

/**
 * One problem's samples as each scorer ranks them: a row per scorer, its samples from the best score
 * (left) to the worst, coloured by verdict, the sample index written in the cell; samples a scorer did
 * not score come last in grey. Ties keep sample order and are marked in the tooltip. A click on a cell
 * gives its `sampleId` (the view opens the sample).
 */
export function rankingStripSpec(r: ProblemRankingData, width: number): Spec {
  const rows: Record<string, unknown>[] = [];
  for (const sc of r.scorers) {
    const order = r.samples
      .map((s, i) => ({ s, i, score: sc.scores[i] }))
      .sort((a, b) =>
        a.score === null ? (b.score === null ? a.i - b.i : 1) : b.score === null ? -1 : b.score - a.score || a.i - b.i,
      );
    order.forEach((o, pos) => {
      const tied = o.score !== null && order.some((x) => x !== o && x.score === o.score);
      const steps = sc.steps[o.i];
      rows.push({
        scorer: sc.name,
        position: pos + 1,
        sampleId: o.s.sampleId,
        sample: o.s.sampleIndex,
        verdict:
          o.score === null ? 'not scored' : o.s.correct === null ? 'ungraded' : o.s.correct ? 'correct' : 'incorrect',
        score: o.score === null ? 'not scored' : `${Number(o.score.toPrecision(6))}${tied ? ' (tied)' : ''}`,
        steps: steps
          ? `${steps.length} steps, ${sc.rule ?? 'min'}: ${steps.map((x) => Number(x.toPrecision(3))).join(', ')}`
          : '',
        text: o.s.preview,
      });
    });
  }
  const cell = Math.max(16, Math.min(40, Math.floor((width - 180) / Math.max(1, r.samples.length))));
  return {
    width: cell * Math.max(1, r.samples.length),
    height: { step: 18 },
    data: { values: rows },
    encoding: {
      x: { field: 'position', type: 'ordinal', title: 'rank by score (1 = best)', axis: { labelAngle: 0 } },
      y: { field: 'scorer', type: 'nominal', title: null, sort: r.scorers.map((s) => s.name) },
      tooltip: [
        { field: 'scorer' },
        { field: 'sample', title: 'sample' },
        { field: 'verdict' },
        { field: 'score' },
        { field: 'steps' },
        { field: 'text', title: 'text (start)' },
      ],
    },
    layer: [
      {
        mark: { type: 'rect', stroke: cssVar('--vscode-editor-background', '#fff'), strokeWidth: 1, cursor: 'pointer' },
        encoding: {
          color: {
            field: 'verdict',
            type: 'nominal',
            title: 'sample',
            scale: {
              domain: ['correct', 'incorrect', 'ungraded', 'not scored'],
              range: [
                cssVar('--vscode-testing-iconPassed', '#3fa34d'),
                cssVar('--vscode-testing-iconFailed', '#d64545'),
                '#888888',
                '#cccccc',
              ],
            },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 9, color: '#ffffff', cursor: 'pointer' },
        encoding: { text: { field: 'sample' } },
      },
    ],
  };
}
