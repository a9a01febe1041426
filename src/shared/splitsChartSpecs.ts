/**
 * The overview's Splits tab: the split matrix's heatmap (Vega-Lite, a pure function of protocol data, embedded with
 * webview/charts.ts `showChart`) and the words its cells and table share. Figures are in percent, as the CLI's
 * `report --splits` table prints them (`66.3 [43.8, 85.0]`, differences in percentage points with a sign).
 */
import type { ChartTheme, Spec } from './chartSpecs';
import type { SplitCellData, SplitEstimateData, SplitKindName, SplitsData } from './protocol';

/** What the heatmap's cells show: the model's pass@1, or its paired difference with the base on the same split. */
export type SplitsMode = 'passAt1' | 'relative';

/** Each split kind in words: the dropdown's options and the heatmap's column title. */
export const SPLIT_KIND_NAMES: Record<SplitKindName, string> = {
  level: 'difficulty level',
  subject: 'subject',
  dataset: 'dataset',
  cluster: 'content cluster of the problem text',
};

/** A proportion in percent with one decimal (`66.3`); signed (`+16.3`, `-2.0`) for a difference; `—` for null. */
export function percentText(v: number | null, signed = false): string {
  if (v === null || !Number.isFinite(v)) return '—';
  const s = (v * 100).toFixed(1);
  return signed && v >= 0 ? `+${s}` : s;
}

/** An estimate with its interval: `66.3 [43.8, 85.0]` (signed for a difference); `—` without a value. */
export function estimateText(e: Pick<SplitEstimateData, 'value' | 'ciLow' | 'ciHigh'>, signed = false): string {
  if (e.value === null) return '—';
  const ci =
    e.ciLow === null || e.ciHigh === null ? '' : ` [${percentText(e.ciLow, signed)}, ${percentText(e.ciHigh, signed)}]`;
  return `${percentText(e.value, signed)}${ci}`;
}

/** The graded samples per problem of a cell: `8`, `4–8` when it varies, `—` without a graded sample. */
export function nText(n: SplitCellData['n']): string {
  if (n === null) return '—';
  return n.min === n.max ? String(n.min) : `${n.min}–${n.max}`;
}

/**
 * The problems behind a figure of a cell, of the split's: `10/10`, or `8/10 (2 not in the model)` with the reasons
 * the others are out (core `SplitCell.leftOut`).
 */
export function problemsText(c: SplitCellData): string {
  const why = [
    c.leftOut.notInModel ? `${c.leftOut.notInModel} not in the model` : '',
    c.leftOut.noGraded ? `${c.leftOut.noGraded} without a graded sample` : '',
  ].filter((x) => x !== '');
  return `${c.problems}/${c.splitProblems}${why.length ? ` (${why.join(', ')})` : ''}`;
}

/** Whether the heatmap has anything to show in `mode` (relative: some cell has a difference with a value). */
export function hasRelative(d: SplitsData): boolean {
  return d.cells.some((c) => c.relative && c.relative.passAt1.value !== null);
}

/**
 * The heatmap: rows the models in the core's order (the base's row named `base · …`, a prefix that the truncation
 * of a long name keeps; in `relative` mode only the rows with a difference, i.e. not the base), columns the splits in order, each cell's colour and label its pass@1
 * (`passAt1`, scale 0 to 100 from the editor's background to the theme's focus colour) or its difference with the
 * base on the same split (`relative`, diverging from the theme's failed colour through the background to its passed
 * colour, symmetric about 0). A cell with no value (no graded sample) has no colour and says `—`. The model's
 * in-distribution cell (trained on that split) is outlined in the foreground colour and its label ends in `*`.
 * Every cell's tooltip gives its estimate, interval, problems (of the split's) and n, pass@k and, for a difference,
 * its sign-flip p-value (Holm) and verdict. A datum carries `splitIndex` (a click filters the tree to the split).
 */
export function splitsHeatmapSpec(d: SplitsData, mode: SplitsMode, theme: ChartTheme): Spec {
  const splitIndex = new Map(d.splits.map((s, i) => [s.name, i]));
  const label = new Map(d.models.map((m) => [m.name, m.label]));
  const shown = (model: string) => label.get(model) ?? model;
  const k = d.k;
  const cells = d.cells.filter((c) => mode === 'passAt1' || c.relative !== undefined);
  const rows = cells.map((c) => {
    const rel = c.relative;
    const e = mode === 'relative' && rel ? rel.passAt1 : c.passAt1;
    const signed = mode === 'relative';
    return {
      row: c.model === d.base ? `base · ${shown(c.model)}` : shown(c.model),
      model: shown(c.model),
      split: c.split,
      splitIndex: splitIndex.get(c.split) ?? -1,
      value: e.value,
      label: `${percentText(e.value, signed)}${c.inDistribution ? ' *' : ''}`,
      estimate: estimateText(e, signed),
      problems: problemsText(c),
      n: nText(c.n),
      passAtK: estimateText(c.passAtK),
      relativeK: rel ? estimateText(rel.passAtK, true) : '—',
      test: rel
        ? rel.passAt1.verdict === 'no data'
          ? 'no data: no problem with graded samples of both models'
          : `p ${rel.passAt1.pValue.toPrecision(2)}${rel.passAt1.pExact ? ' (exact)' : ''}, Holm ${rel.passAt1.pHolm.toPrecision(2)}: ${rel.passAt1.verdict}`
        : '—',
      trained: c.inDistribution ? 'yes: the split this model was trained on' : 'no',
    };
  });
  // the base's row first (the row every other is read against), then the models in the report's order
  const order = [...new Set(rows.map((r) => r.row))].sort(
    (a, b) => Number(b.startsWith('base · ')) - Number(a.startsWith('base · ')),
  );
  const spread = Math.min(
    1,
    Math.max(0.05, ...rows.map((r) => (r.value === null ? 0 : Math.abs(r.value))).filter(Number.isFinite)),
  );
  const strong = mode === 'relative' ? `abs(datum.value) > ${0.55 * spread}` : 'datum.value > 0.55';
  const color =
    mode === 'relative'
      ? {
          field: 'value',
          type: 'quantitative',
          title: 'pass@1 − base (pp)',
          scale: { domain: [-spread, 0, spread], range: [theme.failed, theme.background, theme.passed] },
          // in percentage points, as the cells
          legend: { orient: 'bottom', gradientLength: 180, labelExpr: "format(datum.value * 100, '+.0f')" },
        }
      : {
          field: 'value',
          type: 'quantitative',
          title: 'pass@1',
          scale: { domain: [0, 1], range: [theme.background, theme.focus] },
          legend: { orient: 'bottom', gradientLength: 180, format: '.0%' },
        };
  const tooltip = [
    { field: 'model' },
    { field: 'split' },
    { field: 'estimate', title: mode === 'relative' ? 'pass@1 vs base (pp) [95% CI]' : 'pass@1 (%) [95% CI]' },
    { field: 'problems', title: 'problems (of the split)' },
    { field: 'n', title: 'n (graded samples per problem)' },
    { field: 'passAtK', title: `pass@${k} (%) [95% CI]` },
    ...(mode === 'relative'
      ? [
          { field: 'relativeK', title: `pass@${k} vs base (pp)` },
          { field: 'test', title: 'sign-flip test' },
        ]
      : []),
    { field: 'trained', title: 'in distribution' },
  ];
  const many = d.splits.length > 8;
  return {
    width: 'container',
    height: { step: 34 },
    data: { values: rows },
    encoding: {
      x: {
        field: 'split',
        type: 'ordinal',
        title: SPLIT_KIND_NAMES[d.kind],
        sort: d.splits.map((s) => s.name),
        axis: { labelAngle: 0, orient: 'top', labelLimit: many ? 60 : 140 },
      },
      y: { field: 'row', type: 'ordinal', title: null, sort: order, axis: { labelLimit: 280 } },
      tooltip,
    },
    layer: [
      {
        transform: [{ filter: 'isValid(datum.value)' }],
        mark: { type: 'rect', cursor: 'pointer' },
        encoding: { color },
      },
      {
        // every cell framed, so that a cell without a value still reads as a cell
        mark: { type: 'rect', fillOpacity: 0, stroke: theme.grid, strokeWidth: 1, cursor: 'pointer' },
      },
      {
        transform: [{ filter: "datum.trained !== 'no'" }],
        mark: { type: 'rect', fillOpacity: 0, stroke: theme.foreground, strokeWidth: 2.5, cursor: 'pointer' },
      },
      {
        mark: { type: 'text', fontSize: 12, cursor: 'pointer' },
        encoding: {
          text: { field: 'label' },
          color: {
            condition: { test: `isValid(datum.value) && ${strong}`, value: theme.background },
            value: theme.foreground,
          },
        },
      },
    ],
  };
}
