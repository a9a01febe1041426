/**
 * Figures for a paper, the pure part: the overview's and the problem view's charts restyled for print from the data
 * the views get (src/shared/protocol.ts shapes), with a caption line of denominators and the list of values drawn.
 * The same Vega-Lite specs as the views (./chartSpecs.ts, ./trainingChartSpecs.ts, ./splitsChartSpecs.ts), in a
 * print style of their own that takes nothing from the editor: white background, the Okabe-Ito palette (colour-blind
 * safe), a width for one column of a paper. Computing the data from an index and drawing the spec as SVG or PNG is
 * src/extension/figureExport.ts (Node: the CLI's `figure` command and the extension's "Export figure…").
 * No `vscode`, no DOM, no Node.
 */
import {
  type ChartTheme,
  canvasSpec,
  coverageSpec,
  overviewCurveSpec,
  overviewModels,
  problemCurveGroups,
  problemCurveSpec,
  rewardScatterSpec,
  type Spec,
} from './chartSpecs';
import {
  FIGURE_NAMES,
  type FigureName,
  type OverviewData,
  type ProblemData,
  type RewardModelsData,
  type SplitsData,
  type TrainingSeries,
} from './protocol';
import { SPLIT_KIND_NAMES, splitsHeatmapSpec } from './splitsChartSpecs';
import { trainingPassSpec } from './trainingChartSpecs';

/** The figures a folder can be drawn as (defined beside the views' `exportFigure` request). */
export { FIGURE_NAMES, type FigureName };

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

/** One value drawn, as the provenance JSON and the exported data list it (model by label). */
export type DrawnValue = Record<string, string | number | null>;

/** A figure before it is compiled: its Vega-Lite spec (print style applied), caption and what it draws. */
export interface FigureData {
  name: FigureName;
  /** The figure's width in CSS px (the chart, its axes, legends and caption). */
  width: number;
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

/** A figure drawn from its data, before the settings it was computed with are added. */
export type DrawnFigure = Omit<FigureData, 'settings' | 'name' | 'width'>;

/** `8`, or by model when they differ, models of one value together: `100 (cot, standard), 5 (tot)`. */
export function byModel(xs: readonly { label: string; v: string }[]): string {
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
      // a legend's "model (click to hide)", "model (click toggles)": nothing is clickable on paper
      if (key === 'title' && typeof v === 'string' && /^model \(click [^)]*\)$/.test(v)) return null;
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
export function printSpec(spec: Spec, width: number, caption: string): Spec {
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
export function modelColours(d: OverviewData): Map<string, string> {
  return new Map(
    overviewModels(d)
      .filter((m) => m.isBase)
      .map((m) => [m.label, BLACK]),
  );
}

/**
 * pass@k against k (log2 axis), bootstrap bands; the report's `models[].passAtK`. `n`: each model's graded samples
 * per problem in words (`8`, `2..8`); `level`: the difficulty level the curves are of (named first in the caption).
 * @throws Error when no curve has a value.
 */
export function passAtKFigure(
  d: OverviewData,
  n: ReadonlyMap<number, string>,
  width: number,
  replicates: number,
  level?: string,
): DrawnFigure {
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
    ...(level === undefined ? [] : [`level ${level}`]),
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
export function coverageFigure(d: OverviewData, width: number): DrawnFigure {
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
export function trainingFigure(s: TrainingSeries, width: number, replicates: number): DrawnFigure {
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

/** `1 problem`, `30 problems`. */
function problemsWord(n: number): string {
  return `${n} ${n === 1 ? 'problem' : 'problems'}`;
}

/**
 * The Reward models tab's scatter (chartSpecs `rewardScatterSpec`): best-of-N at one N against pairwise accuracy,
 * one point per scorer, for the model `rm.models[model]`; `n` defaults to the tab's (4, else the largest N). The
 * caption gives the common set of problems, the pairs per scorer and pass@N (the oracle).
 * @throws Error for a folder without reward scores, an unknown model index, or an N the model has no figure at.
 */
export function rewardModelsFigure(rm: RewardModelsData, width: number, model = 0, n?: number): DrawnFigure {
  const m = rm.models[model];
  if (!m)
    throw new Error(
      rm.models.length === 0
        ? 'the folder has no reward scores of several samples: no reward-model figure'
        : `no reward-model evaluation of model ${model}`,
    );
  const N = n ?? m.ns[Math.min(m.ns.length - 1, Math.max(0, m.ns.indexOf(4)))];
  if (!m.ns.includes(N)) throw new Error(`no best-of-${N} for ${m.label}: N is one of ${m.ns.join(', ')}`);
  const point = m.scorers[0]?.bestOfN.find((x) => x.n === N);
  const pairs = m.scorers[0]?.pairs ?? 0;
  const caption = [
    `${m.label}: ${m.scorers.length} ${m.scorers.length === 1 ? 'scorer' : 'scorers'}; pairwise accuracy ${m.over}, ${pairs} correct-vs-incorrect pairs per scorer, ties 1/2`,
    `best-of-${N} ${point?.over ?? 'over no problem'}`,
    `pass@${N} (the oracle) = ${point?.passAtN === null || point?.passAtN === undefined ? '—' : point.passAtN.toFixed(3)}`,
  ].join('; ');
  // the plot's size given, so that the labels are placed where they fall in print (the axes take about 56 px)
  const plot = { width: Math.max(100, width - 56), height: Math.round(width * 0.62) };
  const raw = rewardScatterSpec(m, N, width, plot);
  // the axis title without its denominator (in the caption: the title would be wider than a column), points in
  // the palette's first colour, the height of the other figures
  const sub = (raw.title as { subtitle: string | string[] }).subtitle;
  const hidden = Array.isArray(sub) ? /^(\d+) labels/.exec(sub[1] ?? '')?.[1] : undefined;
  const fullCaption = hidden
    ? `${caption}; ${hidden} labels left out where they would overlap (the values name every scorer)`
    : caption;
  const layer = (raw.layer as Spec[]).map((l, i) => ({
    ...l,
    ...(i === 0 ? { mark: { ...l.mark, color: OKABE_ITO[0] } } : {}),
    encoding: { ...l.encoding, x: { ...l.encoding.x, title: 'pairwise accuracy' } },
  }));
  const spec = printSpec(printColours({ ...raw, layer }, new Map()), width, fullCaption);
  return {
    spec,
    caption: fullCaption,
    models: [{ id: m.displayId, label: m.label, base: false }],
    values: m.scorers.map((s) => {
      const b = s.bestOfN.find((x) => x.n === N);
      return {
        model: m.label,
        scorer: s.name,
        n: N,
        pairwiseAccuracy: s.pairwiseAccuracy,
        bestOfN: b?.value ?? null,
        passAtN: b?.passAtN ?? null,
        regret: b?.regret ?? null,
      };
    }),
  };
}

/**
 * The Splits tab's heatmap (splitsChartSpecs `splitsHeatmapSpec`) in print: pass@1 per model and split from white
 * to blue, or (`relative`) the difference with the base on the same split, vermillion (below) through white to
 * blue (above), both Okabe-Ito hues. The caption gives the split kind, the problems of the folder and what the
 * intervals and tests are; the values list every cell with its interval, problems and n.
 * @throws Error for a folder with no split of the kind (the data's `unassigned.why` says why), or `relative`
 *   without a base.
 */
export function splitsFigure(
  d: SplitsData,
  width: number,
  mode: 'passAt1' | 'relative' = 'passAt1',
  replicates = 2000,
): DrawnFigure {
  if (d.splits.length === 0)
    throw new Error(`no ${SPLIT_KIND_NAMES[d.kind]} splits in the folder: ${d.unassigned.why || d.method}`);
  if (mode === 'relative' && !d.cells.some((c) => c.relative))
    throw new Error('no base model to compare with: the relative splits figure needs one');
  const theme: ChartTheme = { ...PRINT_THEME, focus: OKABE_ITO[0], passed: OKABE_ITO[0], failed: OKABE_ITO[1] };
  const ns = d.cells.flatMap((c) => (c.n ? [c.n.min, c.n.max] : []));
  const nText =
    ns.length === 0 ? '0' : Math.min(...ns) === Math.max(...ns) ? `${ns[0]}` : `${Math.min(...ns)}..${Math.max(...ns)}`;
  const caption = [
    `${problemsWord(d.problems)} in ${d.splits.length} splits by ${SPLIT_KIND_NAMES[d.kind]}${d.unassigned.problems ? ` (${d.unassigned.problems} in none)` : ''}, n = ${nText}`,
    mode === 'relative' ? 'cells: pass@1 minus the base’s on the same split (pp)' : 'cells: pass@1 (%)',
    ...(d.cells.some((c) => c.inDistribution) ? ['* the split the model was trained on'] : []),
    `95% bootstrap intervals over each split’s problems (${replicates} replicates) in the values file`,
  ].join('; ');
  const raw = splitsHeatmapSpec(d, mode, theme);
  // colours interpolated in RGB: Vega's default (HCL) passes through cyan between white and blue, so a cell at 0
  // (or 0%) read as coloured; in RGB white is white and the hues are the palette's
  const layer = (raw.layer as Spec[]).map((l) =>
    l.encoding?.color?.scale
      ? {
          ...l,
          encoding: {
            ...l.encoding,
            color: { ...l.encoding.color, scale: { ...l.encoding.color.scale, interpolate: 'rgb' } },
          },
        }
      : l,
  );
  // the split kind is in the caption: its axis title, centred on a narrow plot, ran past the figure's edge
  const encoding = { ...raw.encoding, x: { ...raw.encoding.x, title: null } };
  const spec = printSpec({ ...raw, encoding, layer }, width, caption);
  const label = new Map(d.models.map((m) => [m.name, m.label]));
  return {
    spec,
    caption,
    models: d.models.map((m) => ({ id: m.seeds.join(', ') || m.name, label: m.label, base: m.name === d.base })),
    values: d.cells.map((c) => {
      const e = mode === 'relative' ? c.relative?.passAt1 : c.passAt1;
      return {
        model: label.get(c.model) ?? c.model,
        split: c.split,
        metric: mode === 'relative' ? 'pass@1 - base' : 'pass@1',
        value: e?.value ?? null,
        ciLow: e?.ciLow ?? null,
        ciHigh: e?.ciHigh ?? null,
        problems: c.problems,
        splitProblems: c.splitProblems,
        nMin: c.n?.min ?? null,
        nMax: c.n?.max ?? null,
        inDistribution: c.inDistribution ? 1 : 0,
      };
    }),
  };
}

/**
 * One problem's pass@k per model against k (the problem view's chart, chartSpecs `problemCurveSpec`, without maj@k
 * and best-of-k), the base black; the caption names the problem and each model's n and c.
 * @throws Error for a problem no model has graded samples of.
 */
export function problemFigure(d: ProblemData, width: number): DrawnFigure {
  const label = new Map(d.models.map((m) => [m.id, m.label]));
  const graded = d.stats.filter((s) => s.n > 0);
  if (graded.length === 0) throw new Error(`problem ${d.problem.problemId}: no model has graded samples`);
  const caption = [
    `problem ${d.problem.problemId} (${d.problem.dataset})`,
    graded.map((s) => `${label.get(s.modelId) ?? ''} ${s.c}/${s.n} correct`).join(', '),
    'pass@k: unbiased estimator (Chen et al. 2021) over the problem’s graded samples',
  ].join('; ');
  // the base's curve black: its legend entry (`Qwen2.5-7B (base) +1 identical`) is the colour scale's domain value
  const metrics = { maj: false, best: false };
  const base = new Map(
    problemCurveGroups(d.models, d.stats, metrics, PRINT_THEME)
      .filter((g) => g.role === 'base')
      .map((g) => [g.legend, BLACK]),
  );
  const raw = problemCurveSpec(d.models, d.stats, d.comparisons, metrics, PRINT_THEME);
  const spec = printSpec(printColours(raw, base), width, caption);
  spec.height = Math.round(width * 0.62);
  return {
    spec,
    caption,
    models: d.models
      .filter((m) => graded.some((s) => s.modelId === m.id))
      .map((m) => ({ id: m.displayId, label: m.label, base: m.isBase })),
    values: graded.flatMap((s) =>
      s.passAtK.map((p) => ({ model: label.get(s.modelId) ?? '', k: p.k, value: p.value, n: s.n, c: s.c })),
    ),
  };
}
