/**
 * Figures for a paper (`trace-inspector figure <folder> <name> -o out.svg`): the overview's charts, drawn
 * by the same Vega-Lite specs (src/shared/chartSpecs.ts, src/shared/trainingChartSpecs.ts) from the same
 * data (src/extension/panelData.ts `overviewData`, `trainingData`), compiled and rendered as SVG by the
 * same bundles the extension host uses (dist/vegaLiteCompiler.js, dist/vegaRenderer.js), in a print style
 * of their own: white background, the Okabe-Ito palette (colour-blind safe), a width for one column of a
 * paper, a caption line with the denominators. Beside the SVG a provenance JSON says what was drawn.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { toolVersion } from './version';
import { comparisonBase, defaultFocusModel, guessBaseModel, pickModel } from '../core/index/labels';
import type { TraceIndex } from '../core/index/traceIndex';
import { noModelMatches, REPORT_REPLICATES } from '../core/report/index';
import { escapeControl } from '../core/text/strings';
import { pickModels } from './search';
import { overviewData, type Roles, trainingData, viewModels } from '../extension/panelData';
import {
  type ChartTheme,
  canvasSpec,
  coverageSpec,
  defaultVisibleModels,
  overviewCurveSpec,
  overviewModels,
  type Spec,
  type VegaLiteCompile,
} from '../shared/chartSpecs';
import { DEFAULT_GLYPH_WIDTHS, type GlyphWidths } from '../shared/glyphWidths';
import type { OverviewData, TrainingSeries } from '../shared/protocol';
import { trainingPassSpec } from '../shared/trainingChartSpecs';

/** The figures `trace-inspector figure` draws. */
export const FIGURE_NAMES = ['pass-at-k', 'coverage', 'training'] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];

/** The default width (px): 3.5 in, a paper's single column, at CSS's 96 px to the inch. */
export const DEFAULT_FIGURE_WIDTH = 336;

/** The bootstrap seed of the figures (the report's and the overview's default). */
export const FIGURE_SEED = 12345;

/**
 * The Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), distinguishable with the common
 * forms of colour blindness, without its yellow (too pale on white). The base model is drawn in black.
 */
export const OKABE_ITO = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'] as const;
const BLACK = '#000000';
/** The coverage chart's four cells in print (same hues as the overview's: orange, blue, green, grey). */
const COVERAGE_PRINT: Record<string, string> = {
  'base only': '#E69F00',
  'model only': '#0072B2',
  both: '#009E73',
  neither: '#BBBBBB',
};

/** The print theme: black text on white, grey grid; fonts of a paper (text is measured in DejaVu Sans). */
export const PRINT_THEME: ChartTheme = {
  foreground: BLACK,
  muted: '#555555',
  grid: '#DDDDDD',
  font: 'Helvetica, Arial, "DejaVu Sans", sans-serif',
  highContrast: false,
  background: '#FFFFFF',
  passed: '#009E73',
  failed: '#D55E00',
  focus: OKABE_ITO[0],
};

/** Options of {@link figureData}. */
export interface FigureOptions {
  /** Substring of the base model's id or label (the report's `--base`); guessed from names when absent. */
  base?: string;
  /**
   * The models to draw, each text picked as `search --model` picks (an exact id, name or label, else a substring
   * of the id or label); absent or empty: the models the overview shows when it
   * opens (chartSpecs `defaultVisibleModels`: every model up to four, else the base, the model in focus and its run's).
   */
  models?: string[];
  /** Bootstrap replicates of the intervals (default the report's {@link REPORT_REPLICATES}, so both agree). */
  replicates?: number;
  /** Width of the figure in px (default {@link DEFAULT_FIGURE_WIDTH}). */
  width?: number;
  /** Checkpoint series to draw (`training`): a substring of its name; the first series when absent. */
  series?: string;
  /** Step pattern of checkpoint series (the report's `--step-pattern`). */
  stepPattern?: string;
}

/** One value drawn, as the provenance JSON lists it (model by label). */
export type DrawnValue = Record<string, string | number | null>;

/** A figure before it is compiled: its Vega-Lite spec (print style applied), caption and what it draws. */
export interface FigureData {
  name: FigureName;
  /** The Vega-Lite spec in print style at the figure's width, caption included as the chart's bottom title. */
  spec: Spec;
  /** The caption line(s) under the chart: the denominators and what the intervals are. */
  caption: string;
  /** Models drawn: display id, label, and whether it is the base. */
  models: { id: string; label: string; base: boolean }[];
  /** Every value drawn (one object per point or bar segment). */
  values: DrawnValue[];
  /** The settings the figure was computed with. */
  settings: Record<string, string | number | boolean | null>;
}

/**
 * The provenance JSON written beside a figure (`<out>.json`): which tool drew it from which folder, the
 * models, settings, caption and every value drawn, so a number in a paper can be traced back.
 */
export interface FigureProvenance {
  tool: { name: 'trace-inspector'; version: string };
  figure: FigureName;
  folder: string;
  svg: string;
  width: number;
  caption: string;
  models: FigureData['models'];
  settings: FigureData['settings'];
  values: DrawnValue[];
}

/**
 * The roles the overview's data is computed with: `--base` as the report takes it; else the extension's guess
 * (src/extension/session.ts `baseModel`): the model in focus is the final model of the last run (core
 * `defaultFocusModel`) and the base is that model's own run's base, else the folder's base-like model.
 */
function figureRoles(index: TraceIndex, opts: FigureOptions): Roles {
  const models = index.models();
  if (opts.base) {
    const i = pickModel(models, opts.base);
    if (i < 0) throw new Error(noModelMatches('--base', opts.base, models));
    return { baseId: models[i].id, baseIsChoice: true, stepPattern: opts.stepPattern };
  }
  const i = models.length > 0 ? guessBaseModel(models) : -1;
  const guess = i >= 0 ? models[i] : undefined;
  const focus = defaultFocusModel(models);
  const base = (focus && comparisonBase(models, focus, guess, false)) || guess;
  return { baseId: base?.id, focusId: focus?.id, baseIsChoice: false, stepPattern: opts.stepPattern };
}

/**
 * The ids of the models `opts.models` names, each text picked as `search --model` picks (search.ts `pickModels`:
 * the models whose id, name or label equals it, else those whose id or label contains it); undefined when it names
 * none. @throws Error (with the models and the nearest one) for a text that picks no model.
 */
function chosenModels(index: TraceIndex, opts: FigureOptions): Set<number> | undefined {
  if (!opts.models?.length) return undefined;
  const models = viewModels(index);
  const out = new Set<number>();
  for (const q of opts.models) {
    const hits = pickModels(models, q).models;
    if (hits.length === 0) throw new Error(noModelMatches('--model', q, models));
    for (const m of hits) out.add(m.id);
  }
  return out;
}

/** A model's graded samples per problem over its problems with graded samples: `8`, or `2..8` when they differ. */
export function nRange(index: TraceIndex): Map<number, string> {
  const lo = new Map<number, number>();
  const hi = new Map<number, number>();
  for (const r of index.allStats()) {
    if (r.graded === 0) continue;
    lo.set(r.modelId, Math.min(lo.get(r.modelId) ?? Infinity, r.graded));
    hi.set(r.modelId, Math.max(hi.get(r.modelId) ?? 0, r.graded));
  }
  return new Map([...hi].map(([id, h]) => [id, lo.get(id) === h ? `${h}` : `${lo.get(id)}..${h}`]));
}

/** `8`, or by model when they differ, models of one value together: `100 (cot, standard), 5 (tot)`. */
function byModel(xs: readonly { label: string; v: string }[]): string {
  const byValue = new Map<string, string[]>();
  for (const x of xs) byValue.set(x.v, [...(byValue.get(x.v) ?? []), x.label]);
  if (byValue.size <= 1) return xs[0]?.v ?? '0';
  return [...byValue].map(([v, labels]) => `${v} (${labels.join(', ')})`).join(', ');
}

/** The colour of each domain value of a scale in print: known names first, the others Okabe-Ito in order. */
function printRange(domain: readonly unknown[], fixed: ReadonlyMap<string, string>): string[] {
  let next = 0;
  return domain.map((v) => fixed.get(String(v)) ?? OKABE_ITO[next++ % OKABE_ITO.length]);
}

/**
 * `spec` restyled for print: every colour scale (a `scale` with a `domain` and a `range` of colour strings)
 * coloured by {@link printRange}, legend titles without the webview's "(click to hide)", nothing interactive
 * (cursor encodings dropped). Returns a new object.
 */
export function printColours(spec: Spec, fixed: ReadonlyMap<string, string>): Spec {
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return key === 'values' ? v : v.map((x) => walk(x));
    if (v === null || typeof v !== 'object') {
      if (key === 'title' && v === 'model (click to hide)') return null;
      return v;
    }
    const o = v as Spec;
    const out: Spec = {};
    for (const [k, x] of Object.entries(o)) {
      if (k === 'cursor') continue;
      out[k] = walk(x, k);
    }
    const s = out.scale as Spec | undefined;
    if (
      s &&
      Array.isArray(s.domain) &&
      Array.isArray(s.range) &&
      s.range.every((c: unknown) => typeof c === 'string' && c.startsWith('#'))
    )
      out.scale = { ...s, range: printRange(s.domain, fixed) };
    return out;
  };
  return walk(spec) as Spec;
}

/** Splits a caption into lines of at most `chars` characters, at spaces. */
export function wrapCaption(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > chars) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The Vega-Lite spec of a chart in print: {@link canvasSpec} in {@link PRINT_THEME} at `width` px (a
 * container-wide chart is fitted to it), a white background, SVG's ARIA attributes off (no per-mark
 * descriptions: smaller, deterministic files), the caption as a bottom title in 10 px, wrapped to the width. At
 * 3.5 in (336 px) 10 px is 7.5 pt, a paper's figure text; axis titles are 11 px.
 */
function printSpec(spec: Spec, width: number, caption: string): Spec {
  const s = canvasSpec(spec, PRINT_THEME, width);
  // 10 px DejaVu Sans: about 6.2 px a character; the caption starts at the left edge of the figure
  const lines = wrapCaption(caption, Math.max(30, Math.floor((width - 16) / 6.2)));
  return {
    ...s,
    background: PRINT_THEME.background,
    padding: 6,
    title: {
      text: lines,
      orient: 'bottom',
      anchor: 'start',
      frame: 'bounds',
      fontSize: 10,
      fontWeight: 'normal',
      color: PRINT_THEME.foreground,
      font: PRINT_THEME.font,
      offset: 8,
    },
    config: {
      ...s.config,
      background: PRINT_THEME.background,
      axis: { ...s.config.axis, labelFontSize: 10, titleFontSize: 11, titleFontWeight: 'normal', gridOpacity: 1 },
      legend: {
        ...s.config.legend,
        labelFontSize: 10,
        titleFontSize: 10,
        titleFontWeight: 'normal',
        // several legends under the chart one above the other: side by side they are wider than a column
        layout: { bottom: { anchor: 'start', direction: 'vertical', margin: 6 } },
      },
      line: { strokeWidth: 1.5 },
      point: { size: 22, filled: true },
    },
  };
}

/** The fixed print colours of the overview's models: the base black. */
function modelColours(d: OverviewData): Map<string, string> {
  return new Map(
    overviewModels(d)
      .filter((m) => m.isBase)
      .map((m) => [m.label, BLACK]),
  );
}

/** `models` with control characters in their labels escaped (core `escapeControl`: `\x1b`, `\u{202e}`). */
function safeLabels<M extends { label: string }>(models: readonly M[]): M[] {
  return models.map((m) => ({ ...m, label: escapeControl(m.label) }));
}

/** The overview's data of the models drawn, pooled over levels (a one-column figure has no room for facets). */
function pooledOverview(
  index: TraceIndex,
  opts: FigureOptions,
  roles: Roles,
  replicates: number,
  fig: FigureName,
): OverviewData {
  const d = overviewData(index, roles, replicates, replicates);
  // without --model: the models the overview shows when it opens (at most four: the base, the model in focus
  // and its run's other models), so that a folder of many checkpoints gives a readable figure
  // (pass@k; the coverage figure, a bar a pair, shows every pair)
  const chosen = chosenModels(index, opts) ?? (fig === 'pass-at-k' ? defaultVisibleModels(d.models) : undefined);
  const keep = (id: number) => !chosen || chosen.has(id);
  return {
    ...d,
    levels: [],
    // names from the folder with control characters escaped: they reach the SVG's text (where XML allows none
    // of them), the caption and the terminal
    models: safeLabels(d.models).filter(
      (m) => keep(m.id) || (fig === 'coverage' && d.coverage.some((c) => c.baseModelId === m.id && keep(c.modelId))),
    ),
    curves: d.curves.filter((c) => c.level === null && keep(c.modelId)),
    // a model's coverage bar comes with its base, named or not
    coverage: d.coverage.filter((c) => keep(c.modelId)),
  };
}

/** pass@k against k (log2 axis), bootstrap bands; the report's `models[].passAtK`. */
function passAtKFigure(
  d: OverviewData,
  n: ReadonlyMap<number, string>,
  width: number,
  replicates: number,
): Omit<FigureData, 'settings' | 'name'> {
  // the provenance names models by label, without the legend's "(base)" (`models` says which is the base)
  const label = new Map(d.models.map((m) => [m.id, m.label]));
  const drawn = d.curves.filter((c) => c.value !== null);
  if (drawn.length === 0) throw new Error('no model has graded samples: there is no pass@k to draw');
  const withData = d.models.filter((m) => drawn.some((c) => c.modelId === m.id));
  const problems = withData.map((m) => {
    const c = drawn.find((x) => x.modelId === m.id && x.k === 1);
    return { label: m.label, v: String(c ? c.problems + c.missing : 0) };
  });
  const ns = withData.map((m) => ({ label: m.label, v: n.get(m.id) ?? '0' }));
  const hollow = drawn.some((c) => c.missing > 0);
  const counts = byModel(problems);
  const caption = [
    // "500 problems, n = 1024"; problem counts that differ by model in a part of their own
    new Set(problems.map((p) => p.v)).size === 1
      ? `${counts} ${counts === '1' ? 'problem' : 'problems'}, n = ${byModel(ns)}`
      : `problems: ${counts}; n = ${byModel(ns)}`,
    `95% bootstrap intervals over problems (${replicates} replicates)${hollow ? '; hollow points: over fewer problems (provenance JSON)' : ''}`,
  ].join('; ');
  const spec = printSpec(
    printColours(overviewCurveSpec(d, { bands: true, width, foreground: BLACK, focus: OKABE_ITO[0] }), modelColours(d)),
    width,
    caption,
  );
  spec.height = Math.round(width * 0.62);
  return {
    spec,
    caption,
    models: withData.map((m) => ({ id: m.displayId, label: m.label, base: m.isBase })),
    values: drawn.map((c) => ({
      model: label.get(c.modelId) ?? '',
      k: c.k,
      value: c.value,
      ciLow: c.ciLow,
      ciHigh: c.ciHigh,
      problems: c.problems,
      missing: c.missing,
    })),
  };
}

/** Coverage (problems solved, c >= 1) of each model against its base: the report's `comparisons[].coverage`. */
function coverageFigure(d: OverviewData, width: number): Omit<FigureData, 'settings' | 'name'> {
  if (d.coverage.length === 0)
    throw new Error(d.coverageNote ?? 'no model is compared with a base: no coverage to draw');
  // the provenance names models by label, without the legend's "(base)" (`models` says which is the base)
  const label = new Map(d.models.map((m) => [m.id, m.label]));
  const models = d.models.filter((m) => d.coverage.some((c) => c.modelId === m.id || c.baseModelId === m.id));
  const range = (r: { min: number; max: number }) => (r.min === r.max ? `${r.max}` : `${r.min}..${r.max}`);
  const pairs = d.coverage.map((c) => ({
    text: `${label.get(c.modelId)} against ${label.get(c.baseModelId)}`,
    // what the pair's bar is over: its shared problems and the samples per problem of each side
    over: `${c.problems} problems both models have graded samples for, n = ${
      range(c.n.base) === range(c.n.model) ? range(c.n.base) : `${range(c.n.base)} (base), ${range(c.n.model)} (model)`
    }`,
    missing: c.missing,
  }));
  const overs = [...new Set(pairs.map((p) => p.over))];
  const left = pairs.filter((p) => p.missing > 0);
  const caption = [
    overs.length === 1
      ? `${pairs.length > 1 ? 'each pair: ' : ''}${overs[0]}`
      : pairs.map((p) => `${p.text}: ${p.over}`).join('; '),
    'solved: at least one correct sample',
    ...(left.length
      ? [
          `left out: ${left.map((p) => `${p.missing} ${p.missing === 1 ? 'problem' : 'problems'} (${p.text})`).join(', ')}`,
        ]
      : []),
  ].join('; ');
  const spec = printSpec(
    printColours(coverageSpec(d, { width }), new Map(Object.entries(COVERAGE_PRINT))),
    width,
    caption,
  );
  // the four cells' legend in two columns: one row of four is wider than a column of a paper
  spec.encoding.color.legend = { ...spec.encoding.color.legend, columns: 2 };
  return {
    spec,
    caption,
    models: models.map((m) => ({ id: m.displayId, label: m.label, base: m.isBase })),
    values: d.coverage.map((c) => ({
      model: label.get(c.modelId) ?? '',
      base: label.get(c.baseModelId) ?? '',
      problems: c.problems,
      baseOnly: c.baseOnly,
      modelOnly: c.modelOnly,
      both: c.both,
      neither: c.neither,
    })),
  };
}

/** pass@1 and pass@K of a checkpoint series against the training step, its bases dashed: the report's `trajectories`. */
function trainingFigure(s: TrainingSeries, width: number, replicates: number): Omit<FigureData, 'settings' | 'name'> {
  const steps = s.steps;
  const problems = [...new Set(steps.map((st) => st.problems))];
  // graded samples per problem, on average per step (a step's figures carry counts, not each problem's n)
  const ns = [...new Set(steps.map((st) => (st.problems > 0 ? st.graded / st.problems : 0)))];
  const nWord = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
  const hollow = steps.some((st) => [...st.passAtK, ...st.basePassAtK].some((p) => p.missing > 0));
  const caption = [
    `${s.name}: ${steps.length} checkpoints, ${problems.length === 1 ? problems[0] : `${Math.min(...problems)}..${Math.max(...problems)}`} problems, ${ns.length === 1 ? `n = ${nWord(ns[0])}` : `n = ${nWord(Math.min(...ns))}..${nWord(Math.max(...ns))} on average by step`}`,
    `base dashed; 95% bootstrap intervals over problems (${replicates} replicates)${hollow ? '; some points over fewer problems (provenance JSON)' : ''}`,
  ].join('; ');
  const spec = printSpec(printColours(trainingPassSpec(s), new Map()), width, caption);
  spec.height = Math.round(width * 0.62);
  const models = new Map<string, { id: string; label: string; base: boolean }>();
  for (const st of steps) {
    models.set(st.label, { id: st.label, label: st.label, base: false });
    if (st.baseLabel) models.set(st.baseLabel, { id: st.baseLabel, label: st.baseLabel, base: true });
  }
  return {
    spec,
    caption,
    models: [...models.values()],
    values: steps.flatMap((st) =>
      [
        ['checkpoint', st.label, st.passAtK],
        ['base', st.baseLabel ?? '', st.basePassAtK],
      ].flatMap(([who, model, pts]) =>
        (pts as TrainingSeries['steps'][number]['passAtK']).map((p) => ({
          step: st.step,
          who: who as string,
          model: model as string,
          k: p.k,
          value: p.value,
          ciLow: p.ciLow,
          ciHigh: p.ciHigh,
          problems: p.problems,
          missing: p.missing,
        })),
      ),
    ),
  };
}

/**
 * The figure `name` of the indexed folder: its print-style Vega-Lite spec, caption and the values it draws.
 * pass@k and coverage come from the overview's data (src/extension/panelData.ts `overviewData`) pooled over
 * difficulty levels, with the report's replicates and seed (so the intervals equal `report --format json`'s);
 * training from the Training tab's (`trainingData`).
 * @throws Error for an unknown name, a `--base`/`--model` matching no model, or a figure the folder has no
 *   data for (no graded samples, no compared pair, no checkpoint series), with why.
 */
export function figureData(index: TraceIndex, name: string, opts: FigureOptions = {}): FigureData {
  if (!(FIGURE_NAMES as readonly string[]).includes(name))
    throw new Error(`unknown figure "${name}": one of ${FIGURE_NAMES.join(', ')}`);
  const width = opts.width ?? DEFAULT_FIGURE_WIDTH;
  const replicates = opts.replicates ?? REPORT_REPLICATES;
  const roles = figureRoles(index, opts);
  const base = roles.baseId === undefined ? undefined : index.model(roles.baseId);
  const settings: FigureData['settings'] = {
    base: base?.displayId ?? null,
    baseSource: opts.base ? 'option' : base ? 'guess' : 'none',
    replicates,
    seed: FIGURE_SEED,
    interval: '95% percentile bootstrap over problems',
    ...(opts.models?.length ? { models: opts.models.join(', ') } : {}),
  };
  const fig = name as FigureName;
  if (fig === 'training') {
    const t = trainingData(index, roles, replicates);
    const found = opts.series ? t.series.find((x) => x.name.includes(opts.series as string)) : t.series[0];
    // names from the folder with control characters escaped, as for the other figures
    const s = found && {
      ...found,
      name: escapeControl(found.name),
      steps: found.steps.map((st) => ({
        ...st,
        label: escapeControl(st.label),
        baseLabel: st.baseLabel === null ? null : escapeControl(st.baseLabel),
      })),
    };
    if (!s)
      throw new Error(
        t.series.length
          ? `no checkpoint series matches "${opts.series}": ${t.series.map((x) => escapeControl(x.name)).join(', ')}`
          : 'the folder has no checkpoint series (models of one run at several training steps): no training figure',
      );
    return {
      name: fig,
      ...trainingFigure(s, width, replicates),
      settings: { ...settings, series: s.name, stepPattern: t.stepPattern },
    };
  }
  const d = pooledOverview(index, opts, roles, replicates, fig);
  const drawn = fig === 'pass-at-k' ? passAtKFigure(d, nRange(index), width, replicates) : coverageFigure(d, width);
  return { name: fig, ...drawn, settings };
}

/** Vega-Lite's compiler and Vega's SVG renderer (the extension host's bundles). */
export interface ChartTools {
  compile: VegaLiteCompile;
  renderSvg: (spec: unknown, glyphs: GlyphWidths | undefined) => Promise<string>;
}

/**
 * Loads dist/vegaLiteCompiler.js and dist/vegaRenderer.js from the first of `dirs` that holds both (default:
 * the CLI bundle's own folder, then the project's dist/ seen from the compiled sources in out/).
 * @throws Error naming the folders looked in when none holds them (`npm run build` makes them).
 */
export function loadChartTools(
  dirs: readonly string[] = [__dirname, resolve(__dirname, '..', '..', '..', 'dist')],
): ChartTools {
  for (const dir of dirs) {
    const c = join(dir, 'vegaLiteCompiler.js');
    const r = join(dir, 'vegaRenderer.js');
    if (!existsSync(c) || !existsSync(r)) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { compile } = require(c) as { compile: VegaLiteCompile };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { renderSvg } = require(r) as { renderSvg: ChartTools['renderSvg'] };
    return { compile, renderSvg };
  }
  throw new Error(
    `the figure command needs vegaLiteCompiler.js and vegaRenderer.js beside the CLI (looked in ${dirs.join(', ')}; npm run build makes them)`,
  );
}

/**
 * The figure as an SVG document: compiled with `tools.compile`, rendered by `tools.renderSvg` with the
 * default glyph widths (DejaVu Sans; no canvas measures text on the command line). The same figure gives
 * the same bytes. Rejects with Vega's error for a spec it cannot draw.
 */
export async function renderFigure(tools: ChartTools, fig: FigureData): Promise<string> {
  const vega = JSON.parse(JSON.stringify(tools.compile(fig.spec).spec));
  const svg = await tools.renderSvg(vega, DEFAULT_GLYPH_WIDTHS);
  return svg.endsWith('\n') ? svg : `${svg}\n`;
}

/** The provenance of a figure written to `svgPath` from `folder`. */
export function figureProvenance(fig: FigureData, folder: string, svgPath: string, width: number): FigureProvenance {
  return {
    tool: { name: 'trace-inspector', version: toolVersion() },
    figure: fig.name,
    folder,
    svg: basename(svgPath),
    width,
    caption: fig.caption,
    models: fig.models,
    settings: fig.settings,
    values: fig.values,
  };
}
