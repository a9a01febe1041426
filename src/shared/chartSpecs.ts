/**
 * Vega-Lite specs of the problem view, the overview and the Reward models tab: pure functions of
 * protocol data (no DOM, no `vscode`), so that node tests compile them with vega-lite and render them
 * with vega's headless View, and the host could compile them too. The webview (webview/charts.ts)
 * embeds them with the theme read from VS Code's CSS variables ({@link ChartTheme}); here the theme is
 * a parameter with a neutral default.
 *
 * Curves over a problem set: a dataset curve (pass@k against k, pass@k against the training step) is
 * drawn as one line only while its problem set (the denominator) stays the same; where it changes
 * (problems with n < k drop out at larger k when n differs between problems) the line breaks into a
 * new segment ({@link curveSegments}), whose points and label say over how many problems it is, so
 * that a fall across the break is never read as pass@k falling with k on one problem set.
 */
import type {
  CompiledChart,
  ModelInfo,
  OverviewData,
  PplData,
  ProblemComparison,
  ProblemRankingData,
  RewardModelsData,
  ProblemModelStats,
  SimilarityData,
} from './protocol';
import { scoreOfWire } from './protocol';

// biome-ignore lint/suspicious/noExplicitAny: a Vega-Lite spec is built field by field; vega-embed takes it untyped
export type Spec = Record<string, any>;

/** The colours and font the charts take from the VS Code theme (webview/charts.ts reads them from CSS variables). */
export interface ChartTheme {
  foreground: string;
  muted: string;
  grid: string;
  font: string;
  highContrast: boolean;
  /** Editor background: the gap between the ranking strip's cells. */
  background: string;
  /** Verdict colours of the ranking strip. */
  passed: string;
  failed: string;
  /** The model in focus (VS Code's `charts.blue`): drawn strong beside the base, which is in `foreground`. */
  focus: string;
}

/** The theme used where none is given (tests, host-side compilation): the fallbacks of webview/charts.ts. */
export const DEFAULT_CHART_THEME: ChartTheme = {
  foreground: '#333',
  muted: '#333',
  grid: '#8884',
  font: 'sans-serif',
  highContrast: false,
  background: '#fff',
  passed: '#3fa34d',
  failed: '#d64545',
  focus: '#2f6fb0',
};

/**
 * The chart theme as CSS `var()` references to VS Code's theme variables, with the fallbacks webview/charts.ts
 * `readTheme` uses: for a chart drawn as SVG before the page exists (src/extension/chartCompiler.ts
 * `ChartCompiler.drawFirst`; SVG presentation attributes such as `fill` and `font-family` take `var()`), so its
 * colours and font are the page's theme's whatever it is. `highContrast`: the host's (VS Code's theme kind).
 */
export function cssVarTheme(highContrast: boolean): ChartTheme {
  const d = DEFAULT_CHART_THEME;
  const foreground = `var(--vscode-editor-foreground, var(--vscode-foreground, ${d.foreground}))`;
  return {
    foreground,
    muted: `var(--vscode-descriptionForeground, ${foreground})`,
    grid: `var(--vscode-editorWidget-border, var(--vscode-panel-border, ${d.grid}))`,
    font: `var(--vscode-font-family, ${d.font})`,
    highContrast,
    background: `var(--vscode-editor-background, ${d.background})`,
    passed: `var(--vscode-testing-iconPassed, ${d.passed})`,
    failed: `var(--vscode-testing-iconFailed, ${d.failed})`,
    focus: `var(--vscode-charts-blue, ${d.focus})`,
  };
}

/** Vega config for a theme (light, dark, high contrast). */
export function chartConfig(t: ChartTheme = DEFAULT_CHART_THEME): Spec {
  const { foreground: fg, muted, grid, font, highContrast: hc } = t;
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

/**
 * Strong colours for models other than the base and the focus model (tableau10 without its pale entries, which
 * were unreadable on light themes: a pale peach or yellow line on white, plus an olive and a violet): ten distinct
 * colours, so that a folder of twelve models (base, focus and ten others) repeats none.
 */
const OTHER_MODEL_COLORS = [
  '#e45756',
  '#54a24b',
  '#b279a2',
  '#9d755d',
  '#f58518',
  '#72b7b2',
  '#d67195',
  '#7f7f7f',
  '#b79a20',
  '#6b4c9a',
];

/** Dashes of the other models by round of {@link OTHER_MODEL_COLORS}: solid, then dashed, then dotted, ... */
const OTHER_MODEL_DASHES = [
  [1, 0],
  [6, 3],
  [2, 2],
  [8, 2, 2, 2],
];

/** A model's colour and dash, the same in every chart of every view ({@link modelStyles}). */
export interface ModelStyle {
  color: string;
  /** Vega stroke dash ([1, 0] solid): other models past the palette's size repeat a colour with another dash. */
  dash: number[];
}

/**
 * The one colour assignment of a folder's models, by model id, used by the problem view's pass@k and c/n charts
 * and by the overview: a pure function of the folder's model list (`models` in the host's order) and the theme.
 * The base in the theme's foreground, the model in focus in the theme's focus colour (`charts.blue`), the others
 * in {@link OTHER_MODEL_COLORS} in order, distinct up to its ten colours; the 11th other model on take the colours
 * again with a dash of {@link OTHER_MODEL_DASHES} (round r of the palette, r >= 1). A model keeps its style when
 * other models are hidden or merged, since hiding does not change `models`.
 */
export function modelStyles(
  models: ModelInfo[],
  theme: Pick<ChartTheme, 'foreground' | 'focus'> = DEFAULT_CHART_THEME,
): Map<number, ModelStyle> {
  const styles = new Map<number, ModelStyle>();
  const solid = OTHER_MODEL_DASHES[0];
  let i = 0;
  for (const m of models) {
    if (m.isBase) styles.set(m.id, { color: theme.foreground, dash: solid });
    else if (m.isFocus) styles.set(m.id, { color: theme.focus, dash: solid });
    else {
      const round = Math.floor(i / OTHER_MODEL_COLORS.length);
      styles.set(m.id, {
        color: OTHER_MODEL_COLORS[i % OTHER_MODEL_COLORS.length],
        dash: OTHER_MODEL_DASHES[round % OTHER_MODEL_DASHES.length],
      });
      i++;
    }
  }
  return styles;
}

/** The colour of each model of a problem view, by model id ({@link modelStyles}'s colours). */
export function problemModelColors(models: ModelInfo[], theme: ChartTheme = DEFAULT_CHART_THEME): Map<number, string> {
  return new Map([...modelStyles(models, theme)].map(([id, st]) => [id, st.color]));
}

/** A model's label as the problem view's charts write it ("(base)" after the base's). */
const chartLabel = (m: ModelInfo) => m.label + (m.isBase ? ' (base)' : '');

/** The role of a model or a group of models in the problem view's charts: drawn strong (base, focus) or muted. */
export type CurveRole = 'base' | 'focus' | 'other';

/** Models whose curves in the pass@k chart are the same, drawn once ({@link problemCurveGroups}). */
export interface CurveGroup {
  /** The models' ids, the group's own model (base, else focus, else the first in `models` order) first. */
  modelIds: number[];
  /** The chart labels of the group's models, in `modelIds` order. */
  labels: string[];
  /** The group's entry in the legend: its first label, then "+N identical" when N other models are in it. */
  legend: string;
  role: CurveRole;
  color: string;
}

/**
 * The series of the problem view's pass@k chart: models whose drawn curves (pass@k, and maj@k / best-of-k when
 * shown) are equal point for point are one group, drawn once and named "+N identical" in the legend, so that
 * copies of a model do not hide one another or the base. Order: the base's group, the focus model's, then the
 * others in `models` order. O(models x points).
 */
export function problemCurveGroups(
  models: ModelInfo[],
  stats: ProblemModelStats[],
  metrics: { maj: boolean; best: boolean },
  theme: ChartTheme = DEFAULT_CHART_THEME,
): CurveGroup[] {
  const byId = new Map(stats.map((st) => [st.modelId, st]));
  const colors = problemModelColors(models, theme);
  const key = (st: ProblemModelStats | undefined) =>
    JSON.stringify(st ? [st.passAtK, metrics.maj ? st.majAtK : [], metrics.best ? st.bestOfK : []] : null);
  const role = (m: ModelInfo): CurveRole => (m.isBase ? 'base' : m.isFocus ? 'focus' : 'other');
  const rank = { base: 0, focus: 1, other: 2 };
  const ordered = [...models].sort((a, b) => rank[role(a)] - rank[role(b)]);
  const groups = new Map<string, ModelInfo[]>();
  for (const m of ordered) {
    if (!byId.has(m.id)) continue;
    const k = key(byId.get(m.id));
    const g = groups.get(k);
    if (g) g.push(m);
    else groups.set(k, [m]);
  }
  return [...groups.values()].map((ms) => ({
    modelIds: ms.map((m) => m.id),
    labels: ms.map(chartLabel),
    legend: chartLabel(ms[0]) + (ms.length > 1 ? ` +${ms.length - 1} identical` : ''),
    role: role(ms[0]),
    color: colors.get(ms[0].id) as string,
  }));
}

/**
 * The note under the pass@k chart naming the models drawn once for another's identical curve ("Identical
 * curves, drawn once: a (base) = b = c."), or null when every model has a curve of its own.
 */
export function problemCurveNote(groups: CurveGroup[]): string | null {
  const merged = groups.filter((g) => g.labels.length > 1);
  if (merged.length === 0) return null;
  return `Identical curves, drawn once: ${merged.map((g) => g.labels.join(' = ')).join('; ')}.`;
}

/** Rows of the per-problem curve chart: one a point of a group's curve ({@link problemCurveGroups}). */
export function problemCurveRows(
  models: ModelInfo[],
  stats: ProblemModelStats[],
  metrics: { maj: boolean; best: boolean },
  groups: CurveGroup[] = problemCurveGroups(models, stats, metrics),
) {
  const byId = new Map(stats.map((st) => [st.modelId, st]));
  const rows: { model: string; modelId: number; role: CurveRole; metric: string; k: number; value: number }[] = [];
  for (const g of groups) {
    const s = byId.get(g.modelIds[0]);
    if (!s) continue;
    const add = (metric: string, pts: { k: number; value: number | null }[]) => {
      for (const p of pts)
        if (p.value !== null)
          rows.push({ model: g.legend, modelId: g.modelIds[0], role: g.role, metric, k: p.k, value: p.value });
    };
    add('pass@k', s.passAtK);
    if (metrics.maj) add('maj@k', s.majAtK);
    if (metrics.best) add('best-of-k', s.bestOfK);
  }
  return rows;
}

/**
 * Opacity of the problem view's muted curves (models other than the base and the focus model, not clicked): full in
 * a high-contrast theme (a muted curve at 0.3 on black was about 1.5:1, dimmer than the grid; WCAG 1.4.11 asks 3:1
 * for graphical objects), so muted curves there differ from strong ones by width (1.2 px against 2.5-3.5 px) and
 * by being drawn underneath; 0.7 elsewhere (0.3 was very pale on Light+).
 */
export function mutedOpacity(theme: Pick<ChartTheme, 'highContrast'>): number {
  return theme.highContrast ? 1 : 0.7;
}

/** The saturation labels' text ("saturated from k=6: a, b +3 more"): at most two models named, the rest counted. */
function saturationLabel(k: number, models: string[]): string {
  const named = models.slice(0, 2).join(', ');
  return `saturated from k=${k}: ${named}${models.length > 2 ? ` +${models.length - 2} more` : ''}`;
}

/**
 * The saturation layers of {@link problemCurveSpec}: a dotted rule per model at its saturation k (`sat`, in the
 * model's colour `color`, strong models' rules opaque, others at `faint` opacity) and the labels (`labels`, one per
 * k, in the theme's text colour, on the side with room).
 */
function saturationLayers(sat: Spec[], labels: Spec[], color: Spec, strong: string, faint: number): Spec[] {
  const layers: Spec[] = [];
  layers.push({
    data: { values: sat },
    mark: { type: 'rule', strokeDash: [2, 3] },
    encoding: {
      x: { field: 'k', type: 'quantitative' },
      color,
      opacity: { condition: { test: strong, value: 0.9 }, value: faint },
      tooltip: [{ field: 'model' }, { field: 'text', title: 'from k' }],
    },
  });
  for (const side of ['right', 'left'] as const)
    layers.push({
      data: { values: labels },
      transform: [{ filter: `datum.side === '${side}'` }],
      mark: {
        type: 'text',
        dy: -6,
        align: side === 'right' ? 'left' : 'right',
        dx: side === 'right' ? 3 : -3,
        baseline: 'bottom',
        // never past the plot's edge: the room between the rule and the edge its text runs towards
        limit: { expr: side === 'right' ? "width - scale('x', datum.k) - 6" : "scale('x', datum.k) - 6" },
      },
      // in the theme's text colour (config `text`), not the model's: a light palette colour was hard to read
      // on a light theme; the rule beside it has the model's colour
      encoding: {
        x: { field: 'k', type: 'quantitative' },
        y: { field: 'y', type: 'quantitative' },
        text: { field: 'label' },
        tooltip: [
          { field: 'models', title: 'model' },
          { field: 'text', title: 'from k' },
        ],
      },
    });
  return layers;
}

/**
 * pass@k of every model against k (log2 axis), maj@k / best-of-k dashed beside it when asked for, and a dotted
 * rule at each model's saturation point against its base: the k from which both solve every k-subset (both
 * pass@k exactly 1). No crossover is drawn: two pass@k curves of one problem never cross, they only meet at 1.
 *
 * Many models: identical curves are drawn once ({@link problemCurveGroups}); the base (theme foreground) and the
 * model in focus (theme focus colour) are drawn over the others, thick and opaque; the other models thin and
 * faint until clicked in the legend (a click toggles a model). A saturation claim is drawn where it holds: both
 * curves get their exact point (k, 1) at the saturation k (k > n - c for both, so pass@k is 1 there), so the
 * rule meets the drawn curves at 1 and never sits between plotted points where a line is below 1. One label per
 * saturation k, naming its models, stacked so that no two share a line, cut at the plot's edge.
 */
export function problemCurveSpec(
  models: ModelInfo[],
  stats: ProblemModelStats[],
  comparisons: ProblemComparison[],
  metrics: { maj: boolean; best: boolean },
  theme: ChartTheme = DEFAULT_CHART_THEME,
): Spec {
  const groups = problemCurveGroups(models, stats, metrics, theme);
  const groupOf = new Map<number, CurveGroup>();
  for (const g of groups) for (const id of g.modelIds) groupOf.set(id, g);
  const label = new Map(models.map((m) => [m.id, chartLabel(m)]));
  const rows = problemCurveRows(models, stats, metrics, groups);
  const sat = comparisons
    .filter((c) => c.saturationK !== null && groupOf.has(c.modelId))
    .map((c) => ({
      model: groupOf.get(c.modelId)?.legend as string,
      name: label.get(c.modelId) ?? '',
      role: groupOf.get(c.modelId)?.role as CurveRole,
      k: c.saturationK as number,
      text: `saturation from k=${c.saturationK}: both solve every k-subset`,
    }));
  // the claim's point on both curves (pass@k = 1 at the saturation k), unless the curve has that k already
  const has = new Set(rows.filter((r) => r.metric === 'pass@k').map((r) => `${r.modelId}:${r.k}`));
  for (const c of comparisons) {
    if (c.saturationK === null) continue;
    for (const id of [c.modelId, c.baseModelId]) {
      const g = groupOf.get(id);
      if (!g || has.has(`${g.modelIds[0]}:${c.saturationK}`)) continue;
      has.add(`${g.modelIds[0]}:${c.saturationK}`);
      rows.push({
        model: g.legend,
        modelId: g.modelIds[0],
        role: g.role,
        metric: 'pass@k',
        k: c.saturationK,
        value: 1,
      });
    }
  }
  rows.sort((a, b) => a.modelId - b.modelId || a.metric.localeCompare(b.metric) || a.k - b.k);
  const maxKAll = Math.max(1, ...rows.map((r) => r.k));
  const satKs = [...new Set(sat.map((r) => r.k))].sort((a, b) => a - b);
  const satLabels = satKs.map((k, i) => {
    const at = sat.filter((r) => r.k === k);
    return {
      k,
      label: saturationLabel(
        k,
        at.map((r) => r.name),
      ),
      models: at.map((r) => r.name).join(', '),
      text: at[0].text,
      // one line (14 px of the 280 px plot) apart, from the bottom up
      y: 0.02 + 0.055 * i,
      side: Math.log2(k) > Math.log2(maxKAll) / 2 ? 'left' : 'right',
    };
  });
  const strong = "datum.role !== 'other'";
  const faint = mutedOpacity(theme);
  const color = {
    field: 'model',
    type: 'nominal',
    title: 'model (click toggles)',
    scale: { domain: groups.map((g) => g.legend), range: groups.map((g) => g.color) },
    // two columns where each has room for 'name@revision (run)', one in a narrow editor (two were cut at the edge)
    legend: {
      orient: 'bottom',
      columns: { expr: 'width < 560 ? 1 : 2' },
      labelLimit: { expr: 'width < 560 ? width - 30 : width / 2 - 40' },
      titleLimit: 400,
    },
  };
  const colorNoLegend = { ...color, legend: null };
  // a legend click toggles a model; the base and the focus model are always drawn strong
  const shown = { param: 'shown', empty: false };
  const x = {
    field: 'k',
    type: 'quantitative',
    title: 'k (samples)',
    scale: { type: 'log', base: 2, domain: [1, maxKAll], nice: false },
    axis: { values: [...new Set(rows.map((r) => r.k))].sort((a, b) => a - b) },
  };
  const y = {
    field: 'value',
    type: 'quantitative',
    // the axis names every metric drawn (pass@k alone unless maj@k or best-of-k is ticked)
    title: ['pass@k', ...(metrics.maj ? ['maj@k'] : []), ...(metrics.best ? ['best-of-k'] : [])].join(' / '),
    scale: { domain: [0, 1] },
  };
  const strokeDash = {
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
  };
  const tooltip = [
    { field: 'model', type: 'nominal' },
    { field: 'metric', type: 'nominal' },
    { field: 'k', type: 'quantitative' },
    { field: 'value', type: 'quantitative', format: '.3f' },
  ];
  const line = (others: boolean): Spec => ({
    data: { values: rows },
    transform: [{ filter: others ? `!(${strong})` : strong }],
    ...(others
      ? { params: [{ name: 'shown', select: { type: 'point', fields: ['model'], toggle: 'true' }, bind: 'legend' }] }
      : {}),
    mark: { type: 'line', point: true },
    encoding: {
      x,
      y,
      color: others ? color : colorNoLegend,
      strokeDash,
      ...(others
        ? {
            opacity: { condition: { ...shown, value: 1 }, value: faint },
            strokeWidth: { condition: { ...shown, value: 2 }, value: 1.2 },
          }
        : {
            strokeWidth: { condition: { test: "datum.role === 'base'", value: 3.5 }, value: 2.5 },
          }),
      tooltip,
    },
  });
  // muted models first (underneath), then the base and the focus model over them; the legend is on the first
  // layer (where the toggle is) and lists every group, base and focus first
  const layers: Spec[] = [line(true), line(false)];
  if (sat.length > 0) layers.push(...saturationLayers(sat, satLabels, colorNoLegend, strong, faint));
  return { width: 'container', height: 280, layer: layers, resolve: { scale: { color: 'shared' } } };
}

/** The height (px) of a model's row in {@link accuracySpec}'s chart (the problem view keeps its room with it). */
export const ACCURACY_ROW_PX = 18;

/** c/n of each model with its 95% Jeffreys interval, one row per model ({@link ACCURACY_ROW_PX} each). */
export function accuracySpec(
  models: ModelInfo[],
  stats: ProblemModelStats[],
  theme: ChartTheme = DEFAULT_CHART_THEME,
): Spec {
  const labelled = models.map((m) => ({ ...m, label: chartLabel(m) }));
  const styles = modelStyles(models, theme);
  const colorScale = { domain: labelled.map((m) => m.label), range: models.map((m) => styles.get(m.id)?.color) };
  const dashScale = { domain: labelled.map((m) => m.label), range: models.map((m) => styles.get(m.id)?.dash) };
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
    height: { step: ACCURACY_ROW_PX },
    data: { values: rows },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          y,
          x: { field: 'low', type: 'quantitative', scale: { domain: [0, 1] }, title: 'c/n with 95% Jeffreys interval' },
          x2: { field: 'high' },
          color: { field: 'model', type: 'nominal', scale: colorScale, legend: null },
          strokeDash: { field: 'model', type: 'nominal', scale: dashScale, legend: null },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          y,
          x: { field: 'accuracy', type: 'quantitative' },
          color: { field: 'model', type: 'nominal', scale: colorScale, legend: null },
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
 * Vega-Lite config for charts drawn on a canvas (the webviews' renderer, webview/charts.ts): no ARIA
 * attributes or per-mark descriptions, which only SVG output carries. Vega-Lite otherwise encodes a
 * description string for every mark (a concatenation of every encoded field, formatted), which the
 * webview's CSP-safe expression interpreter evaluated per point: most of the similarity chart's 2,048-point
 * Vega view (docs/performance-log.md). The charts' figures are given as text beside them for screen readers.
 */
export const CANVAS_CONFIG: Spec = { aria: false };

/** The Vega-Lite schema of every chart spec (the version the host and the webview compile with). */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * The Vega-Lite spec the compiler is given for `spec` drawn on a canvas in `theme`: with `width > 0`, a
 * single or layered chart of `width: 'container'` gets that width in pixels, fitted as Vega-Lite fits a
 * container (autosize `fit-x`, the axes and legend inside it: webview/charts.ts measures the element);
 * otherwise the width stays as given. The config is {@link CANVAS_CONFIG}, then the theme's
 * ({@link chartConfig}), then the spec's own. Used by the webview (its own compiles) and the host
 * ({@link compiledChart}), so both compile the same spec.
 */
export function canvasSpec(spec: Spec, theme: ChartTheme, width: number): Spec {
  const fit = width > 0 && spec.width === 'container' && ('mark' in spec || 'layer' in spec);
  const sized = fit ? { ...spec, width, autosize: { type: 'fit-x', contains: 'padding' } } : spec;
  return {
    ...sized,
    $schema: VEGA_LITE_SCHEMA,
    config: { ...CANVAS_CONFIG, ...chartConfig(theme), ...(spec.config ?? {}) },
  };
}

/**
 * The width (px) the host compiles a chart at ({@link compiledChart}); the webview puts the element's
 * width in its place ({@link themedVegaSpec}): the compiled spec uses the width only as its `width`.
 */
export const PRECOMPILED_WIDTH = 480;

/**
 * A theme of placeholder strings (`ti-theme-<token>:foreground`, …) for a chart compiled before the theme's
 * colours are known (on the host: they are CSS variables of the webview). Vega-Lite copies config colours
 * and fonts into the Vega spec as they are, so the webview puts the theme's values in their place
 * ({@link themedVegaSpec}). `token`: random per compile (the host's), so that no model name (they reach
 * scale domains and legends) can equal a placeholder. `highContrast` changes numbers (line widths, point
 * sizes), not strings: it is the host's (VS Code's theme kind), and a webview whose body says otherwise
 * compiles the chart itself.
 */
export function themeTemplate(highContrast: boolean, token: string): ChartTheme {
  const p = `ti-theme-${token}:`;
  return {
    foreground: `${p}foreground`,
    muted: `${p}muted`,
    grid: `${p}grid`,
    font: `${p}font`,
    highContrast,
    background: `${p}background`,
    passed: `${p}passed`,
    failed: `${p}failed`,
    focus: `${p}focus`,
  };
}

/** Vega-Lite's compile as the host and the webview use it: Vega-Lite spec in, Vega spec out. */
export type VegaLiteCompile = (spec: Spec) => { spec: unknown };

/**
 * `spec` compiled to Vega in {@link themeTemplate}(highContrast, token) at {@link PRECOMPILED_WIDTH} (a
 * container-wide chart; others keep their width), as plain JSON (Vega-Lite's signal references are class
 * instances with getters; the message to the webview is JSON), for the webview to draw with
 * {@link themedVegaSpec}: the problem view's first charts are compiled on the extension host
 * (src/extension/chartCompiler.ts), so the webview's first paint needs no Vega-Lite. Throws what the
 * compiler throws.
 */
export function compiledChart(
  compile: VegaLiteCompile,
  spec: Spec,
  highContrast: boolean,
  token: string,
): CompiledChart {
  const compiled = compile(canvasSpec(spec, themeTemplate(highContrast, token), PRECOMPILED_WIDTH)).spec;
  return { vega: JSON.parse(JSON.stringify(compiled)) as Spec, highContrast, token };
}

/**
 * The Vega spec of a {@link CompiledChart} in `theme` at `width` px (the element's width): the template's
 * placeholder strings replaced by the theme's values everywhere but in inline data rows (`values` arrays,
 * copied row by row: Vega marks the rows it ingests), and the width set. The same spec as compiling
 * {@link canvasSpec}(spec, theme, width) (test/unit/chart-precompile.test.ts). Undefined when it cannot
 * stand for that: the chart was compiled for the other contrast, or `width` is not positive (an element
 * not laid out: the webview then compiles the chart itself).
 */
export function themedVegaSpec(c: CompiledChart, theme: ChartTheme, width: number): Spec | undefined {
  if (!(width > 0) || c.highContrast !== theme.highContrast || !c.vega || typeof c.vega !== 'object') return undefined;
  if (typeof c.token !== 'string' || c.token.length < 8) return undefined;
  const t = themeTemplate(c.highContrast, c.token);
  const values = new Map<unknown, string>(
    (['foreground', 'muted', 'grid', 'font', 'background', 'passed', 'failed', 'focus'] as const).map((k) => [
      t[k],
      theme[k],
    ]),
  );
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return values.get(v) ?? v;
    if (Array.isArray(v)) return v.map(fill);
    if (v === null || typeof v !== 'object') return v;
    const o: Spec = {};
    for (const [k, x] of Object.entries(v))
      o[k] =
        k === 'values' && Array.isArray(x)
          ? x.map((r) => (r !== null && typeof r === 'object' ? { ...r } : r))
          : fill(x);
    return o;
  };
  return { ...(fill(c.vega) as Spec), width };
}

/** The tooltip of a similarity chart's point, formatted once when the rows are built (see {@link similaritySpec}). */
export interface SimilarityTip {
  sample: string;
  verdict: string;
  /** similarity to the nearest base sample, 3 decimals ("0.532"), "—" when unknown */
  similarity: string;
  /** share of the sample's tokens in no base 3-gram, percent with 1 decimal ("45.2%") */
  novelty: string;
}

/** The name of a batched chart's inline data (Vega-Lite names the source dataset after it; {@link batchedSpec}). */
export const BATCHED_DATA = 'ti_rows';

/**
 * A chart built in batches (webview/charts.ts `batchRows`): `first` is `spec` with only its first
 * `batchRows` inline rows, under the data name {@link BATCHED_DATA}, and `later` the rest in batches of
 * `batchRows`, to be inserted into the built view one batch at a time (`view.insert(BATCHED_DATA, batch)`).
 * Rows in order; a spec with no inline `values`, at most `batchRows` of them, or `batchRows` <= 0 is
 * returned as is with no later batches. The result draws the same chart only if none of the spec's scale
 * domains is computed from the rows (e.g. {@link similaritySpec}).
 */
export function batchedSpec(spec: Spec, batchRows: number): { first: Spec; later: unknown[][] } {
  const rows = (spec.data as { values?: unknown } | undefined)?.values;
  if (!(batchRows > 0) || !Array.isArray(rows) || rows.length <= batchRows) return { first: spec, later: [] };
  const later: unknown[][] = [];
  for (let i = batchRows; i < rows.length; i += batchRows) later.push(rows.slice(i, i + batchRows));
  return { first: { ...spec, data: { name: BATCHED_DATA, values: rows.slice(0, batchRows) } }, later };
}

/**
 * Similarity to the nearest base sample: the model's samples against the base-to-base
 * (leave-one-out) baseline, one dot per sample; colour = verdict. Samples with no similarity (null) are
 * not drawn. Each row carries its tooltip already formatted (`tip`, {@link SimilarityTip}): the tooltip
 * is one field, not four formatted by an expression for each of the 2,048 points when the chart is built.
 * Every scale's domain is fixed by the spec (none is computed from the rows), so the rows can be added to a
 * built chart in batches.
 */
export function similaritySpec(sim: SimilarityData, modelLabel: string, baseLabel: string): Spec {
  const verdict = (c: boolean | null) => (c === true ? 'correct' : c === false ? 'incorrect' : 'ungraded');
  const tip = (sample: string, v: string, similarity: number | null, novelty: number | null): SimilarityTip => ({
    sample,
    verdict: v,
    similarity: similarity === null || !Number.isFinite(similarity) ? '—' : similarity.toFixed(3),
    novelty: novelty === null || !Number.isFinite(novelty) ? '—' : `${(novelty * 100).toFixed(1)}%`,
  });
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
        tip: tip(`base #${b.sampleIndex}`, 'base', b.similarity, b.novelty),
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
        tip: tip(`#${s.sampleIndex}`, verdict(s.correct), s.similarity, s.novelty),
      })),
  ];
  // the rows' groups in the order Vega-Lite sorts a nominal domain (ascending), given as the scale's domain so
  // that no scale depends on the data: the chart's points can then be added in batches (webview/charts.ts
  // `batchRows`), each batch encoding only its own points
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  return {
    width: 'container',
    height: 150,
    data: { values: rows },
    mark: { type: 'point', filled: true, size: 70, opacity: 0.85, cursor: 'pointer' },
    encoding: {
      y: { field: 'group', type: 'nominal', title: null, axis: { labelLimit: 360 }, scale: { domain: groups } },
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
      // an object: vega-tooltip shows its keys and values as a table (sample, verdict, similarity, novelty)
      tooltip: { field: 'tip', type: 'nominal' },
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

/** The base model's dash in the overview's curves (other models are solid). */
const BASE_DASH = [7, 3];

/** A model of the overview as drawn: label with "(base)" and a colour fixed for the panel's life. */
export interface OverviewModel {
  id: number;
  label: string;
  isBase: boolean;
  color: string;
  /** The model's dash: the base's {@link BASE_DASH}, other models solid unless past the palette's size. */
  dash: number[];
}

/**
 * Labels and colours of the overview's models, in `d.models` order: {@link modelStyles}'s colours (base in the
 * theme's foreground `fg`, focus model in the theme's focus colour `focus`, the others distinct), the same as the
 * problem view's, so a model keeps its colour across views and when others are hidden or shown.
 */
export function overviewModels(
  d: OverviewData,
  fg = DEFAULT_CHART_THEME.foreground,
  focus = DEFAULT_CHART_THEME.focus,
): OverviewModel[] {
  const styles = modelStyles(d.models, { foreground: fg, focus });
  return d.models.map((m) => ({
    id: m.id,
    label: m.label + (m.isBase ? ' (base)' : ''),
    isBase: m.isBase,
    color: styles.get(m.id)?.color as string,
    dash: m.isBase ? BASE_DASH : (styles.get(m.id)?.dash as number[]),
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
  /** The theme's foreground colour: the base model's colour (default {@link DEFAULT_CHART_THEME}). */
  foreground?: string;
  /** The theme's focus colour: the model in focus's colour (default {@link DEFAULT_CHART_THEME}). */
  focus?: string;
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
      scale: { domain, range: shown.map((m) => m.dash) },
      legend,
    },
    strokeWidth: {
      field: 'model',
      type: 'nominal',
      title: 'model (click to hide)',
      // an ordinal scale: vega-lite's default for a nominal strokeWidth is a point scale, whose range of one model's
      // single width gives NaN, and the legend then draws its symbol over the label (trial 10 finding 10d)
      scale: { type: 'ordinal', domain, range: shown.map((m) => (m.isBase ? 3.5 : 2)) },
      legend,
    },
  };
}

/** Where a point of a dataset curve sits among the segments of its curve (see {@link curveSegments}). */
export interface CurveSegment {
  /** Segment id, unique across curves: `<curve>#<i>`, i = 0, 1, ... along x. */
  segment: string;
  /** How many segments the point's curve has (1: the problem set never changes along the curve). */
  segments: number;
  /** The point is the first of its segment (the segment's label goes there). */
  segmentStart: boolean;
  /** Points in the point's segment (1: an isolated point, no line through it). */
  segmentPoints: number;
  /** `2 of 3 problems`: the segment's denominator, short (its label on the chart). */
  segmentLabel: string;
  /** `k = 1 to 2: over 3 of 3 problems`: the segment's x range and denominator (its tooltip line). */
  segmentText: string;
}

/**
 * Splits dataset curves where their problem set changes, so that each drawn line is over one problem
 * set. `points` hold one or more curves (`curve(p)` names a point's curve, `x(p)` its position along the
 * curve); along each curve, in the order of x, a point starts a new segment when its denominator
 * (`problems` averaged over, `missing` left out) differs from the previous point's. A pass@k curve
 * whose problems have different n loses the problems with n < k at larger k: its values on either side
 * of such a break are means over different problems, and a fall across the break says nothing about
 * pass@k falling with k (for one problem set it never does). Counts equal between two points are taken
 * for the same set: along k the set only shrinks, so that is exact there; along training steps the
 * protocol carries counts only (a set swapped for another of the same size is not seen).
 *
 * @param xName how x is written in `segmentText` (`k`, `step`).
 * @returns one entry per point, in the order of `points`.
 */
export function curveSegments<T extends { problems: number; missing: number }>(
  points: readonly T[],
  curve: (p: T) => string,
  x: (p: T) => number,
  xName: string,
): CurveSegment[] {
  const byCurve = new Map<string, number[]>();
  points.forEach((p, i) => {
    const key = curve(p);
    const list = byCurve.get(key) ?? [];
    list.push(i);
    byCurve.set(key, list);
  });
  const out: CurveSegment[] = new Array(points.length);
  for (const [key, idx] of byCurve) {
    idx.sort((a, b) => x(points[a]) - x(points[b]));
    // runs of equal denominators along x
    const runs: number[][] = [];
    for (const i of idx) {
      const last = runs[runs.length - 1];
      const prev = last ? points[last[last.length - 1]] : undefined;
      if (prev && prev.problems === points[i].problems && prev.missing === points[i].missing) last.push(i);
      else runs.push([i]);
    }
    runs.forEach((run, r) => {
      const first = points[run[0]];
      const lo = x(first);
      const hi = x(points[run[run.length - 1]]);
      const of = `${first.problems} of ${first.problems + first.missing} problems`;
      const range = lo === hi ? `${xName} = ${lo}` : `${xName} = ${lo} to ${hi}`;
      run.forEach((i, j) => {
        out[i] = {
          segment: `${key}#${r}`,
          segments: runs.length,
          segmentStart: j === 0,
          segmentPoints: run.length,
          segmentLabel: of,
          segmentText: `${range}: over ${of}${runs.length > 1 ? ` (line ${r + 1} of ${runs.length})` : ''}`,
        };
      });
    });
  }
  return out;
}

/**
 * The label of each segment of a broken curve (one whose problem set changes along it): `2 of 3
 * problems` above the segment's first point, in the curve's colour; nothing for unbroken curves. Two
 * layers: labels left-aligned, and right-aligned for points at x >= `rightEdge` (the axis's last
 * value), which would otherwise run out of the chart. `filter`: a Vega expression choosing the rows.
 */
export function segmentLabelLayers(x: Spec, y: Spec, color: Spec, rightEdge: number, filter = 'true'): Spec[] {
  return [false, true].map((end) => ({
    transform: [
      {
        filter: `(${filter}) && datum.segments > 1 && datum.segmentStart && ${end ? '' : '!'}(datum.${x.field} >= ${rightEdge})`,
      },
    ],
    mark: { type: 'text', dy: -10, align: end ? 'right' : 'left', dx: end ? -4 : 4, fontSize: 10, fontWeight: 'bold' },
    encoding: { x, y, text: { field: 'segmentLabel' }, color },
  }));
}

/**
 * Axis settings of an axis that counts whole things (problems, samples): ticks at integers only, never
 * at 0.5 or 1.5 (Vega-Lite `tickMinStep`), labelled as integers.
 */
export const COUNT_AXIS = { tickMinStep: 1, format: 'd' } as const;

/**
 * Dataset pass@k with bootstrap bands of the shown models; faceted by difficulty level when levels
 * exist. The base model's line is dashed and thicker, in the foreground colour; band opacity falls
 * as more models are shown. A point computed over fewer than all of the model's problems (no
 * samples, no graded sample, n < k) is drawn hollow, and its tooltip says over how many and why
 * (`over 5 of 6 problems: 1 has n < 1024`). A curve whose problem set changes along k (problems with
 * n < k drop out) breaks there into segments ({@link curveSegments}), each labelled with its count
 * (`2 of 3 problems`) and named in the tooltip, so it is never drawn as one line that falls with k.
 */
export function overviewCurveSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  const all = overviewModels(d, opts.foreground, opts.focus);
  const shown = all.filter((m) => !opts.visible || opts.visible.has(m.id));
  const label = new Map(shown.map((m) => [m.id, m.label]));
  const base = new Set(shown.filter((m) => m.isBase).map((m) => m.id));
  const points = d.curves.filter((c) => c.value !== null && label.has(c.modelId));
  const seg = curveSegments(
    points,
    (c) => `${c.modelId}|${c.level ?? ''}`,
    (c) => c.k,
    'k',
  );
  const rows = points.map((c, i) => ({
    ...c,
    ...seg[i],
    model: label.get(c.modelId) ?? '',
    isBase: base.has(c.modelId),
    level: c.level === null ? 'all problems' : `level ${c.level}`,
  }));
  const width = opts.width ?? 720;
  const maxK = Math.max(1, ...rows.map((r) => r.k));
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
        // the band breaks with its line: one area per problem set
        detail: { field: 'segment', type: 'nominal' },
      },
    });
    // a segment of one point has no area: its interval as a bar
    layer.push({
      transform: [{ filter: 'isValid(datum.ciLow) && isValid(datum.ciHigh) && datum.segmentPoints === 1' }],
      mark: { type: 'rule', opacity: Math.min(1, bandOpacity * 2.5), strokeWidth: 6 },
      encoding: { x, y: { field: 'ciLow', type: 'quantitative' }, y2: { field: 'ciHigh' }, color: enc.color },
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
    { field: 'segmentText', title: 'line' },
  ];
  const line = (filter: string): Spec[] => [
    {
      transform: [{ filter }],
      mark: { type: 'line' },
      // one line per segment: a break where the problem set changes
      encoding: {
        x,
        y,
        color: enc.color,
        strokeDash: enc.strokeDash,
        strokeWidth: enc.strokeWidth,
        detail: { field: 'segment', type: 'nominal' },
      },
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
    ...segmentLabelLayers(x, y, enc.color, maxK, filter),
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
  const all = overviewModels(d, opts.foreground, opts.focus);
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
      y: { field: 'count', type: 'quantitative', title: 'problems', axis: { ...COUNT_AXIS } },
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
  modelOnly: 'model only',
  both: 'both',
  neither: 'neither',
};

/** Coverage of each model against the base model: stacked bar of the four cells; datum carries modelId and cell. */
export function coverageSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  const ms = overviewModels(d, opts.foreground, opts.focus);
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
      x: {
        field: 'count',
        type: 'quantitative',
        title: 'problems solved (c ≥ 1)',
        stack: 'zero',
        axis: { ...COUNT_AXIS },
      },
      color: {
        field: 'cellText',
        type: 'nominal',
        title: 'solved by',
        scale: {
          domain: ['base only', 'model only', 'both', 'neither'],
          range: ['#e8a33d', '#4c9be8', '#6aa84f', '#9e9e9e'],
        },
        legend: { orient: 'bottom' },
      },
      order: { field: 'order' },
      tooltip: [{ field: 'model' }, { field: 'cellText', title: 'solved by' }, { field: 'count', title: 'problems' }],
    },
  };
}

/** The height (px) of the reward scatter's plot. */
const REWARD_SCATTER_HEIGHT = 340;

/** A domain around `values` with 6% room on each side (a single value gets +-0.01), so that labels fit inside. */
function paddedDomain(values: number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = hi > lo ? (hi - lo) * 0.06 : 0.01;
  return [lo - pad, hi + pad];
}

/** A label's place beside its point: the side, and its offset in px. */
type LabelPlace = { align: 'left' | 'right' | 'center'; dx: number; dy: number };
const LABEL_PLACES: LabelPlace[] = [
  { align: 'left', dx: 7, dy: 0 },
  { align: 'right', dx: -7, dy: 0 },
  { align: 'center', dx: 0, dy: -13 },
  { align: 'center', dx: 0, dy: 13 },
];

/**
 * Where each point's label goes so that no two labels and no label and point overlap: points in order of
 * `best` (highest first) try right, left, above and below in turn; a label with no free place is left out
 * (the point's tooltip names it). Pixel boxes from the chart's own linear scales (`x`, `y`: data -> px) and an
 * upper estimate of the text's width (6.2 px a character at 10 px). O(points^2) for the scorers of one model.
 */
export function placeScatterLabels(
  points: { text: string; x: number; y: number }[],
  width: number,
  height: number,
): (LabelPlace | null)[] {
  type Box = [number, number, number, number];
  const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const taken: Box[] = points.map((p) => [p.x - 5, p.y - 5, p.x + 5, p.y + 5]);
  const out: (LabelPlace | null)[] = points.map(() => null);
  const order = points.map((_, i) => i).sort((a, b) => points[a].y - points[b].y);
  for (const i of order) {
    const p = points[i];
    const w = p.text.length * 6.2;
    const h = 12;
    for (const place of LABEL_PLACES) {
      const x0 = place.align === 'left' ? p.x + place.dx : place.align === 'right' ? p.x + place.dx - w : p.x - w / 2;
      const y0 = p.y + place.dy - h / 2;
      const box: Box = [x0, y0, x0 + w, y0 + h];
      if (box[0] < 0 || box[2] > width || box[1] < 0 || box[3] > height) continue;
      if (taken.some((t, j) => j !== i && overlaps(box, t))) continue;
      taken.push(box);
      out[i] = place;
      break;
    }
  }
  return out;
}

/**
 * Reward models tab: best-of-N at one N against pairwise accuracy, one point per scorer, with the denominators in
 * the axis titles. Wen et al. 2025 ask how well the first predicts the second. Each point is labelled beside it
 * where the label overlaps no other label or point ({@link placeScatterLabels}); the subtitle counts the labels
 * left out (their points' tooltips name them). `plot`: the plot's size in px (default: `width` less 40, at least 320
 * and at most 900, by 340), which the labels are placed for.
 */
export function rewardScatterSpec(
  m: RewardModelsData['models'][number],
  n: number,
  width: number,
  plot?: { width: number; height: number },
): Spec {
  const rows = m.scorers.flatMap((s) => {
    const b = s.bestOfN.find((x) => x.n === n);
    if (s.pairwiseAccuracy === null || !b || b.value === null) return [];
    return [{ scorer: s.name, accuracy: s.pairwiseAccuracy, best: b.value, passAtN: b.passAtN, regret: b.regret }];
  });
  const point = m.scorers[0]?.bestOfN.find((x) => x.n === n);
  const plotWidth = plot?.width ?? Math.max(320, Math.min(width - 40, 900));
  const xd = paddedDomain(rows.map((r) => r.accuracy));
  const yd = paddedDomain(rows.map((r) => r.best));
  const H = plot?.height ?? REWARD_SCATTER_HEIGHT;
  const places = placeScatterLabels(
    rows.map((r) => ({
      text: r.scorer,
      x: ((r.accuracy - xd[0]) / (xd[1] - xd[0])) * plotWidth,
      y: H - ((r.best - yd[0]) / (yd[1] - yd[0])) * H,
    })),
    plotWidth,
    H,
  );
  const labels = rows.flatMap((r, i) => {
    const p = places[i];
    return p ? [{ ...r, align: p.align, dx: p.dx, dy: p.dy }] : [];
  });
  const hidden = rows.length - labels.length;
  const subtitle = `pairwise accuracy ${m.over}; best-of-${n} ${point?.over ?? 'over no problem'}; pass@${n} (the oracle) = ${point?.passAtN === null || point?.passAtN === undefined ? '—' : point.passAtN.toFixed(3)}`;
  const x = {
    field: 'accuracy',
    type: 'quantitative',
    title: `pairwise accuracy (${m.scorers[0]?.pairs ?? 0} correct-vs-incorrect pairs per scorer, ties 1/2)`,
    scale: { domain: xd, nice: false, zero: false },
  };
  const y = {
    field: 'best',
    type: 'quantitative',
    title: `best-of-${n}`,
    scale: { domain: yd, nice: false, zero: false },
  };
  const labelLayers = LABEL_PLACES.map((p) => ({
    data: { values: labels.filter((l) => l.align === p.align && l.dx === p.dx && l.dy === p.dy) },
    mark: { type: 'text', align: p.align, dx: p.dx, dy: p.dy, baseline: 'middle', fontSize: 10 },
    encoding: { x, y, text: { field: 'scorer' } },
  })).filter((l) => l.data.values.length > 0);
  return {
    width: plotWidth,
    height: H,
    title: {
      text: `best-of-${n} against pairwise accuracy (${rows.length} scorers)`,
      subtitle:
        hidden > 0
          ? [subtitle, `${hidden} labels left out where they would overlap: hover a point for its scorer`]
          : subtitle,
    },
    layer: [
      {
        data: { values: rows },
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          x,
          y,
          tooltip: [
            { field: 'scorer', title: 'scorer' },
            { field: 'accuracy', title: 'pairwise accuracy', format: '.4f' },
            { field: 'best', title: `best-of-${n}`, format: '.4f' },
            { field: 'passAtN', title: `pass@${n}`, format: '.4f' },
            { field: 'regret', title: 'regret', format: '.4f' },
          ],
        },
      },
      ...labelLayers,
    ],
  };
}

/**
 * One problem's samples as each scorer ranks them: a row per scorer, its samples from the best score
 * (left) to the worst, coloured by verdict, the sample index written in the cell; samples a scorer did
 * not score come last in grey. Ties keep sample order and are marked in the tooltip. A click on a cell
 * gives its `sampleId` (the view opens the sample).
 */
export function rankingStripSpec(
  r: ProblemRankingData,
  width: number,
  theme: Pick<ChartTheme, 'background' | 'passed' | 'failed'> = DEFAULT_CHART_THEME,
): Spec {
  const rows: Record<string, unknown>[] = [];
  for (const sc of r.scorers) {
    const order = r.samples
      .map((s, i) => ({ s, i, score: scoreOfWire(sc.scores[i]) }))
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
          ? `${steps.length} steps, ${sc.rule ?? 'min'}: ${steps.map((x) => Number(Number(x).toPrecision(3))).join(', ')}`
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
        mark: { type: 'rect', stroke: theme.background, strokeWidth: 1, cursor: 'pointer' },
        encoding: {
          color: {
            field: 'verdict',
            type: 'nominal',
            title: 'sample',
            scale: {
              domain: ['correct', 'incorrect', 'ungraded', 'not scored'],
              range: [theme.passed, theme.failed, '#888888', '#cccccc'],
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
