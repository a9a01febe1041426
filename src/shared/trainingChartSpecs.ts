/**
 * Vega-Lite specs of the overview's Training tab, one checkpoint series at a time (pure functions of
 * protocol data; embedded with `showChart` from webview/charts.ts, which uses the AST expression
 * interpreter, so the strict CSP needs no eval). Every chart's tooltip names its denominator.
 */
import type { MarkerFigures, TrainingSeries } from './protocol';
import { COUNT_AXIS, curveSegments, segmentLabelLayers, type Spec } from './chartSpecs';

const CATEGORY_ORDER = ['sharpening', 'expansion', 'regression', 'unchanged', 'unsolved'] as const;
const CATEGORY_COLORS = ['#6aa84f', '#4c9be8', '#e8a33d', '#9e9e9e', '#616161'];
const PATTERN_ORDER = ['gained', 'lost', 'flip-flop', 'always', 'never'] as const;
const PATTERN_COLORS = ['#4c9be8', '#e45756', '#b279a2', '#6aa84f', '#9e9e9e'];
/** Most rows the heatmap draws (the first ones in cluster order: gained, lost, flip-flopping first). */
export const HEATMAP_MAX_ROWS = 600;

const stepAxis = (s: TrainingSeries) => ({
  field: 'step',
  type: 'quantitative',
  title: `training ${s.unit}`,
  scale: { zero: false, nice: false, padding: 12 },
  axis: { values: s.steps.map((x) => x.step), format: 'd' },
});

/**
 * pass@1 and pass@K of each checkpoint against its step, with 95% bootstrap intervals as error bars;
 * the base model's values as dashed lines (the reference). Tooltips give the problems each point is over.
 * A line breaks where its problem set changes between steps (a checkpoint with more or fewer problems,
 * or problems with n < k), each segment labelled with its count ({@link curveSegments}), so that a
 * step over other problems is not joined to its neighbours as if the curve moved.
 */
export function trainingPassSpec(s: TrainingSeries): Spec {
  const points: {
    step: number;
    metric: string;
    who: 'checkpoint' | 'base';
    series: string;
    model: string;
    value: number;
    ciLow: number | null;
    ciHigh: number | null;
    problems: number;
    missing: number;
  }[] = [];
  for (const st of s.steps) {
    for (const [who, pts] of [
      ['checkpoint', st.passAtK],
      ['base', st.basePassAtK],
    ] as const) {
      for (const p of pts) {
        if (p.value === null) continue;
        points.push({
          step: st.step,
          metric: `pass@${p.k}`,
          who,
          series: `${who === 'base' ? 'base ' : ''}pass@${p.k}`,
          model: who === 'base' ? (st.baseLabel ?? '') : st.label,
          value: p.value,
          ciLow: p.ciLow,
          ciHigh: p.ciHigh,
          problems: p.problems,
          missing: p.missing,
        });
      }
    }
  }
  const seg = curveSegments(
    points,
    (p) => p.series,
    (p) => p.step,
    s.unit,
  );
  const rows = points.map((p, i) => ({ ...p, ...seg[i] }));
  const metrics = [...new Set(rows.map((r) => r.metric))];
  const color = {
    field: 'metric',
    type: 'nominal',
    title: 'metric',
    scale: { domain: metrics, range: ['#4c78a8', '#f58518'] },
    legend: { orient: 'bottom', symbolType: 'stroke', symbolStrokeWidth: 3, symbolSize: 300 },
  };
  const x = stepAxis(s);
  const tooltip = [
    { field: 'model' },
    { field: 'step' },
    { field: 'metric' },
    { field: 'value', format: '.3f' },
    { field: 'ciLow', format: '.3f', title: '2.5%' },
    { field: 'ciHigh', format: '.3f', title: '97.5%' },
    { field: 'problems', title: 'problems (n ≥ k)' },
    { field: 'missing', title: 'left out (n < k)' },
    { field: 'segmentText', title: 'line' },
  ];
  return {
    width: 'container',
    height: 260,
    data: { values: rows },
    layer: [
      {
        transform: [{ filter: "datum.who === 'checkpoint' && isValid(datum.ciLow)" }],
        mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.7 },
        encoding: { x, y: { field: 'ciLow', type: 'quantitative' }, y2: { field: 'ciHigh' }, color },
      },
      {
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'value', type: 'quantitative', title: 'pass@k', scale: { domain: [0, 1] } },
          color,
          // one line per segment of a series: a break where the problem set changes
          detail: { field: 'segment' },
          strokeDash: {
            field: 'who',
            type: 'nominal',
            title: 'model',
            scale: {
              domain: ['checkpoint', 'base'],
              range: [
                [1, 0],
                [6, 4],
              ],
            },
            legend: { orient: 'bottom', symbolStrokeWidth: 2, symbolType: 'stroke', symbolSize: 300 },
          },
          opacity: {
            field: 'who',
            type: 'nominal',
            scale: { domain: ['checkpoint', 'base'], range: [1, 0.7] },
            legend: null,
          },
          tooltip,
        },
      },
      ...segmentLabelLayers(
        x,
        { field: 'value', type: 'quantitative' },
        color,
        Math.max(...s.steps.map((st) => st.step)),
      ),
    ],
  };
}

/** Per-problem categories of each checkpoint against its base (stacked bars, out of the paired problems). */
export function trainingCategoriesSpec(s: TrainingSeries): Spec {
  const rows = s.steps.flatMap((st) =>
    st.categories
      ? CATEGORY_ORDER.map((c, i) => ({
          step: `${st.step}`,
          category: c,
          order: i,
          problems: st.categories![c],
          paired: st.pairedProblems,
        }))
      : [],
  );
  return {
    width: 'container',
    height: 220,
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      x: {
        field: 'step',
        type: 'ordinal',
        title: `training ${s.unit}`,
        sort: s.steps.map((x) => `${x.step}`),
        axis: { labelAngle: 0 },
      },
      y: {
        field: 'problems',
        type: 'quantitative',
        title: 'problems (of the paired problems)',
        stack: 'zero',
        axis: { ...COUNT_AXIS },
      },
      color: {
        field: 'category',
        type: 'nominal',
        title: 'against the base',
        scale: { domain: [...CATEGORY_ORDER], range: CATEGORY_COLORS },
        legend: { orient: 'bottom' },
      },
      order: { field: 'order' },
      tooltip: [
        { field: 'step' },
        { field: 'category' },
        { field: 'problems' },
        { field: 'paired', title: 'of paired problems' },
      ],
    },
  };
}

/**
 * Share of positive gains in correct samples coming from problems the base already solves, per
 * checkpoint, with its 95% paired bootstrap interval.
 */
export function trainingGainShareSpec(s: TrainingSeries): Spec {
  const rows = s.steps
    .filter((st) => st.gainShare && st.gainShare.sharpening !== null)
    .map((st) => ({
      step: st.step,
      share: st.gainShare!.sharpening,
      ciLow: st.gainShare!.ciLow,
      ciHigh: st.gainShare!.ciHigh,
      gains: `${st.gainShare!.gainFromSharpening} from sharpening, ${st.gainShare!.gainFromExpansion} from expansion`,
      gained: st.gainShare!.gainedProblems,
      paired: st.pairedProblems,
    }));
  const x = stepAxis(s);
  return {
    width: 'container',
    height: 200,
    data: { values: rows },
    layer: [
      {
        transform: [{ filter: 'isValid(datum.ciLow)' }],
        mark: { type: 'rule', strokeWidth: 1.5, color: '#4c78a8' },
        encoding: { x, y: { field: 'ciLow', type: 'quantitative' }, y2: { field: 'ciHigh' } },
      },
      {
        mark: { type: 'line', point: { size: 60 }, color: '#4c78a8' },
        encoding: {
          x,
          y: {
            field: 'share',
            type: 'quantitative',
            title: 'share of gains from sharpening',
            scale: { domain: [0, 1] },
            axis: { format: '.0%' },
          },
          tooltip: [
            { field: 'step' },
            { field: 'share', format: '.1%', title: 'from sharpening' },
            { field: 'ciLow', format: '.1%', title: '2.5%' },
            { field: 'ciHigh', format: '.1%', title: '97.5%' },
            { field: 'gains', title: 'gains (correct samples)' },
            { field: 'gained', title: 'problems with a gain' },
            { field: 'paired', title: 'paired problems' },
          ],
        },
      },
    ],
  };
}

/** Mean response length (characters) of each checkpoint, and of its base (dashed). */
export function trainingLengthSpec(s: TrainingSeries): Spec {
  const rows = s.steps.flatMap((st) => [
    ...(st.meanChars !== null
      ? [{ step: st.step, who: 'checkpoint', model: st.label, chars: st.meanChars, samples: st.samples }]
      : []),
    ...(st.baseMeanChars !== null
      ? [{ step: st.step, who: 'base', model: st.baseLabel ?? '', chars: st.baseMeanChars, samples: null }]
      : []),
  ]);
  return {
    width: 'container',
    height: 200,
    data: { values: rows },
    mark: { type: 'line', point: true },
    encoding: {
      x: stepAxis(s),
      y: { field: 'chars', type: 'quantitative', title: 'mean response length (characters)', scale: { zero: true } },
      strokeDash: {
        field: 'who',
        type: 'nominal',
        title: null,
        scale: {
          domain: ['checkpoint', 'base'],
          range: [
            [1, 0],
            [6, 4],
          ],
        },
        legend: { orient: 'bottom', symbolType: 'stroke', symbolSize: 300 },
      },
      tooltip: [
        { field: 'model' },
        { field: 'step' },
        { field: 'chars', format: '.0f', title: 'mean characters' },
        { field: 'samples', title: 'samples' },
      ],
    },
  };
}

/**
 * The behaviours of which no sample of the figures has a marker (every mean 0): left out of the chart, named in its
 * caption instead (a chart of zeros has no scale to read).
 */
export function markerlessMeasures(m: MarkerFigures<number | string>): string[] {
  return m.measures
    .filter((d) => d.id !== 'chars' && d.id !== 'tokens')
    .filter((d) => m.points.every((p) => p.measure !== d.id || p.mean === null || p.mean === 0))
    .map((d) => d.id);
}

/**
 * Lengths and reasoning-marker counts per 1,000 tokens, one small chart per measure (its own y scale): the mean over
 * problems of the correct samples and of the incorrect ones at each place (`x`: the encoding of the field `at`),
 * each with its 95% bootstrap interval over problems as a vertical rule; joined by lines when `line` (steps).
 * Behaviours without any marker are left out ({@link markerlessMeasures}). `layout.width`: the pixels the charts may
 * take (the columns and each chart's width follow from it).
 */
function markersSpec(
  m: MarkerFigures<number | string>,
  x: Record<string, unknown>,
  line: boolean,
  layout: { width: number; maxColumns: number },
): Spec {
  // as many columns as fit the width given (each chart about 300 px with its axis), at most maxColumns
  const avail = Math.max(320, layout.width);
  const columns = Math.max(1, Math.min(layout.maxColumns, Math.floor(avail / 300)));
  const cell = Math.max(150, Math.floor(avail / columns) - 90);
  const title = new Map(m.measures.map((d) => [d.id, `${d.label} (${d.unit})`]));
  const none = new Set(markerlessMeasures(m));
  const drawn = m.measures.filter((d) => !none.has(d.id));
  const rows = m.points
    .filter((p) => p.mean !== null && !none.has(p.measure))
    .map((p) => ({ ...p, title: title.get(p.measure) ?? p.measure }));
  const colour = {
    field: 'split',
    type: 'nominal',
    title: null,
    scale: { domain: ['correct', 'incorrect'], range: ['#3fa34d', '#d64545'] },
    legend: { orient: 'bottom' },
  };
  return {
    data: { values: rows },
    columns,
    facet: {
      field: 'title',
      type: 'nominal',
      title: null,
      sort: drawn.map((d) => title.get(d.id) ?? d.id),
      header: { labelFontWeight: 'bold', labelLimit: 320 },
    },
    spec: {
      width: cell,
      height: 140,
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.6 },
          encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color: colour },
        },
        {
          mark: line ? { type: 'line', point: true } : { type: 'point', filled: true, size: 50 },
          encoding: {
            x,
            y: { field: 'mean', type: 'quantitative', title: null, scale: { zero: true } },
            color: colour,
            tooltip: [
              { field: 'title', title: 'measure' },
              { field: 'at', title: line ? 'step' : 'model' },
              { field: 'split', title: 'samples' },
              { field: 'mean', format: '.2f' },
              { field: 'low', format: '.2f', title: '95% low' },
              { field: 'high', format: '.2f', title: '95% high' },
              { field: 'problems', title: 'problems' },
            ],
          },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  };
}

/**
 * {@link markersSpec} of a series' checkpoints against the step, within `width` pixels (three columns at most);
 * null without measures (`s.markers` absent).
 */
export function trainingMarkersSpec(s: TrainingSeries, width = 900): Spec | null {
  return s.markers ? markersSpec(s.markers, { ...stepAxis(s), field: 'at' }, true, { width, maxColumns: 3 }) : null;
}

/**
 * {@link markersSpec} of the models of the overview, within `width` pixels: a column per model in their order
 * (points, no lines); one chart per row when there are more than eight models.
 */
export function modelsMarkersSpec(m: MarkerFigures<string>, width = 900): Spec {
  const order = [...new Set(m.points.map((p) => p.at))];
  const x = {
    field: 'at',
    type: 'nominal',
    title: null,
    sort: order,
    scale: { padding: 0.4 },
    axis: { labelAngle: -30, labelLimit: 160 },
  };
  return markersSpec(m, x, false, { width, maxColumns: order.length > 8 ? 1 : 3 });
}

/**
 * The caption of a markers chart: what is counted and how, then each measure's within-problem association with
 * correctness where its interval excludes 0 (`place` names where: "at step 300", "for model x"), the behaviours
 * not drawn, and the samples not yet measured. Plain text.
 */
export function markersCaption(m: MarkerFigures<number | string>, place: (at: number | string) => string): string {
  const label = new Map(m.measures.map((d) => [d.id, `${d.label} (${d.unit})`]));
  const related = m.within.filter((w) => w.relation === 'higher when correct' || w.relation === 'lower when correct');
  const found = related.length
    ? related
        .map(
          (w) =>
            `${label.get(w.measure) ?? w.measure} ${w.relation} ${place(w.at)} (${w.mean?.toFixed(2)} [${w.low?.toFixed(2)}, ${w.high?.toFixed(2)}], ${w.problems} problems)`,
        )
        .join('; ')
    : 'no relation for any measure';
  const none = markerlessMeasures(m).map((id) => label.get(id) ?? id);
  return (
    `Marker counts per 1,000 tokens (phrases of the lexicon, docs/reasoning-markers.md) and lengths; ${m.tokenRule}. ` +
    'Green: correct samples, red: incorrect; means over problems with 95% bootstrap intervals over problems. ' +
    `Within a problem (correct − incorrect, over problems with both): ${found}.` +
    (none.length ? ` No marker of ${none.join(', ')} in any sample (not drawn).` : '') +
    (m.unmeasured > 0 ? ` ${m.unmeasured} samples not measured yet: index the folder again.` : '')
  );
}

/**
 * Problems x steps heatmap coloured by c/n, rows in the order given (the host sends them clustered:
 * gained, lost, flip-flopping, always solved, never solved), with a narrow column naming each row's
 * pattern (its legend lists only the patterns drawn). A cell's datum carries `problemRowId` and `modelId` (click: open the problem at that step).
 * Draws at most {@link HEATMAP_MAX_ROWS} rows.
 */
export function trainingHeatmapSpec(s: TrainingSeries): Spec {
  const problems = s.problems.slice(0, HEATMAP_MAX_ROWS);
  // the dataset leads a row's name only when the series spans several datasets, spelled as every message
  // names a problem (core/grouping/datasets.ts `problemLabel`: `gsm8k · 2`; trial 7 finding 12)
  const datasets = new Set(s.problems.map((p) => p.dataset)).size;
  const order = problems.map((p) => (datasets > 1 ? `${p.dataset || '(no dataset)'} · ${p.problemId}` : p.problemId));
  const cells = problems.flatMap((p, r) =>
    s.steps.map((st, i) => ({
      row: order[r],
      step: `${st.step}`,
      problemRowId: p.id,
      modelId: st.modelId,
      rate: p.c[i] === null || p.n[i] === 0 ? null : p.c[i]! / p.n[i],
      cn: p.c[i] === null ? 'no graded sample' : `${p.c[i]}/${p.n[i]}`,
      base: p.baseC[i] === null ? '—' : `${p.baseC[i]}/${p.baseN[i]}`,
      pattern: p.pattern,
    })),
  );
  const patterns = problems.map((p, r) => ({ row: order[r], pattern: p.pattern, step: 'pattern' }));
  const drawn = new Set<string>(problems.map((p) => p.pattern));
  const shownPatterns = PATTERN_ORDER.filter((p) => drawn.has(p));
  const many = problems.length > 60;
  const y = {
    field: 'row',
    type: 'ordinal',
    title: 'problem',
    sort: order,
    axis: many ? { labels: false, ticks: false, title: `${problems.length} problems` } : { labelLimit: 160 },
  };
  // one x scale: a narrow "pattern" column, then the steps
  const x = {
    field: 'step',
    type: 'ordinal',
    title: `training ${s.unit}`,
    scale: { domain: ['pattern', ...s.steps.map((st) => `${st.step}`)], paddingInner: 0.02 },
    axis: { labelAngle: 0, orient: 'top' },
  };
  return {
    width: 60 + Math.max(240, 70 * s.steps.length),
    height: { step: many ? Math.max(3, Math.min(8, Math.floor(900 / problems.length))) : 14 },
    layer: [
      {
        data: { values: patterns },
        mark: { type: 'rect' },
        encoding: {
          y,
          x,
          color: {
            field: 'pattern',
            type: 'nominal',
            title: 'pattern across steps',
            // only the patterns some row has: a legend entry no row has ("lost") reads as a claim about the run
            scale: { domain: shownPatterns, range: shownPatterns.map((p) => PATTERN_COLORS[PATTERN_ORDER.indexOf(p)]) },
            legend: { orient: 'bottom' },
          },
          tooltip: [{ field: 'row', title: 'problem' }, { field: 'pattern' }],
        },
      },
      {
        data: { values: cells },
        mark: { type: 'rect', cursor: 'pointer' },
        encoding: {
          y,
          x,
          color: {
            field: 'rate',
            type: 'quantitative',
            title: 'c/n',
            scale: { domain: [0, 1], scheme: 'viridis' },
            legend: { orient: 'bottom', gradientLength: 160 },
          },
          tooltip: [
            { field: 'row', title: 'problem' },
            { field: 'step' },
            { field: 'cn', title: 'c/n' },
            { field: 'base', title: "base's c/n" },
            { field: 'pattern' },
          ],
        },
      },
    ],
    resolve: { scale: { color: 'independent' } },
  };
}
