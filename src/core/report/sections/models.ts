import { accuracyHistogram } from '../../metrics';
import { type Denominator, denominatorMark, problemSet } from '../../metrics/denominators';
import type { StatRow } from '../../index/traceIndex';
import { type DatasetCount, datasetByProblem, datasetCounts, datasetName } from '../../grouping/datasets';
import { K_ABOVE_N, passAtKCell } from '../../../shared/passAtKCell';
import type { ReportContext } from '../context';
import type { CsvRow, ReportSection } from '../section';
import { type DatasetModelReport, type ModelReport, type PassAtKPoint, type Report } from '../types';
import { partialWarning, unreadableWarning } from '../notes';
import { alongK, denominatorWarnings, passAtKPoints } from '../curves';
import { bestOfKWarnings, modelBestOfK } from '../bestOfK';
import { modelMajAtK, referenceAnswers } from '../majAtK';
import { ALL_DATASETS, K_ABOVE_N_NOTE, pct, safe, table } from '../render';
import { csvCell } from '../csv';
import type { DocTable } from '../document';

/** The largest k of a model's pass@k grid (its largest n); 0 without points. */
export const maxK = (m: Pick<ModelReport, 'passAtK'>) => m.passAtK.reduce((a, p) => Math.max(a, p.k), 0);

/**
 * A model's largest k for the tables of a paper: {@link maxK} of its points, or, in a report cut to the ks of
 * `--k` (sections.ts `reportAtKs`), of the points it had before the cut (`largestK`), so that a k the model has
 * no point at is "k > n" only when it is above the model's n.
 */
export const largestK = (m: Pick<ModelReport, 'passAtK'> & { largestK?: number }) => m.largestK ?? maxK(m);

/**
 * Per model: problems, samples, pass@k with its bootstrap interval, best-of-k by reward score, maj@k
 * (with --maj-at-k), the accuracy histogram; with several datasets, each model's figures per dataset.
 */
function computeModels(ctx: ReportContext): Pick<Report, 'models' | 'perDataset'> {
  const { index, options, models, byModel, boot, tool, warnings } = ctx;
  const references = options.majAtK ? referenceAnswers(index) : new Map<number, string | null>();
  const datasets = ctx.datasets ?? datasetCounts(index);
  const datasetOf = datasetByProblem(index);
  const countByDataset = (rows: readonly StatRow[]): DatasetCount[] =>
    datasets
      .map((d) => ({
        dataset: d.dataset,
        problems: rows.filter((r) => datasetOf.get(r.problemId) === d.dataset).length,
      }))
      .filter((d) => d.problems > 0);
  const perDataset: DatasetModelReport[] = [];

  const modelReports: ModelReport[] = models.map((m) => {
    const rows = byModel.get(m.id) ?? [];
    const set = problemSet(rows);
    const pc = set.graded;
    const graded = pc.reduce((a, p) => a + p.n, 0);
    const passAtK = passAtKPoints(set, boot);
    const maj = options.majAtK ? modelMajAtK(ctx.samplesOf(m), m, rows, set, references) : {};
    const report: ModelReport = {
      id: m.displayId,
      label: m.label,
      run: m.run,
      grader: m.grader,
      partial: m.partial,
      problems: set.total,
      datasets: countByDataset(rows),
      leftOut: { noSamples: set.noSamples, ungraded: set.ungraded },
      samples: m.samples,
      ungradedSamples: m.samples - graded,
      correct: m.correct,
      sampleAccuracy: graded > 0 ? m.correct / graded : null,
      passAtK,
      bestOfK: m.scored > 0 ? modelBestOfK(index, ctx.samplesOf(m), m, rows, set, !!tool) : [],
      ...(maj.majAtK ? { majAtK: maj.majAtK } : {}),
      histogram: accuracyHistogram(pc).bins,
    };
    if (m.partial) warnings.push(partialWarning(m.displayId));
    const unreadable = unreadableWarning(m.displayId, index.recordsWithSamplesLost(m.id));
    if (unreadable) warnings.push(unreadable);
    warnings.push(...denominatorWarnings(m.displayId, set, passAtK));
    for (const w of [
      alongK(m.displayId, 'best-of-', report.bestOfK, 'n with a reward score'),
      alongK(m.displayId, 'maj', report.majAtK ?? []),
    ])
      if (w) warnings.push(w);
    if (report.bestOfK.length) warnings.push(...bestOfKWarnings(index, ctx.samplesOf(m), m, set));
    if (maj.note) warnings.push(maj.note);
    if (datasets.length > 1)
      for (const d of report.datasets) {
        const drows = rows.filter((r) => datasetOf.get(r.problemId) === d.dataset);
        const dset = problemSet(drows);
        const dgraded = dset.graded.reduce((a, p) => a + p.n, 0);
        const correct = drows.reduce((a, r) => a + r.c, 0);
        const dpass = passAtKPoints(dset, boot);
        perDataset.push({
          model: m.displayId,
          dataset: d.dataset,
          problems: dset.total,
          samples: drows.reduce((a, r) => a + r.n, 0),
          ungradedSamples: drows.reduce((a, r) => a + r.n, 0) - dgraded,
          correct,
          sampleAccuracy: dgraded > 0 ? correct / dgraded : null,
          passAtK: dpass,
          leftOut: { noSamples: dset.noSamples, ungraded: dset.ungraded },
        });
        const w = alongK(`${m.displayId} dataset ${datasetName(d.dataset)}`, 'pass', dpass);
        if (w) warnings.push(w);
      }
    return report;
  });
  return { models: modelReports, perDataset };
}

/** The model table (a row per model, per model and dataset with several), its notes, and best-of-k. */
function modelsTable(r: Report): string[] {
  const out: string[] = [];
  const ks = [...new Set(r.models.flatMap((m) => m.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  // samples without a verdict are in no figure: their count is shown beside the samples when there are any
  const someUngraded = r.models.some((m) => m.ungradedSamples > 0);
  const head = [
    'model',
    'problems',
    'samples',
    ...(someUngraded ? ['ungraded'] : []),
    'correct',
    ...ks.map((k) => `pass@${k}`),
  ];
  // several datasets: one row per model and dataset, then the model's pooled row, labelled as such
  const several = r.datasets.length > 1;
  if (several) head.splice(1, 0, 'dataset');
  const figures = (
    label: string,
    dataset: string | undefined,
    m: Pick<ModelReport, 'problems' | 'samples' | 'ungradedSamples' | 'sampleAccuracy' | 'correct' | 'passAtK'>,
    top: number,
  ) => [
    label,
    ...(dataset === undefined ? [] : [dataset]),
    String(m.problems),
    String(m.samples),
    ...(someUngraded ? [String(m.ungradedSamples)] : []),
    // no graded sample: "0 correct" would read as a failing model
    m.sampleAccuracy === null ? 'ungraded' : String(m.correct),
    ...ks.map((k) => {
      // no graded sample: pass@k is not "k > n" but undefined at every k (trial 7 finding 13)
      if (m.sampleAccuracy === null) return 'ungraded';
      const p = m.passAtK.find((x) => x.k === k);
      if (p) return passAtKCell(p, pct, denominatorMark);
      // no point: k above the model's largest n, or between the points of its grid (1, 2, 4, ..., n)
      return k > top ? K_ABOVE_N : 'not computed';
    }),
  ];
  const rows = r.models.flatMap((m) => {
    const label =
      safe(m.label) + (m.id === r.base && r.models.length > 1 ? ' [base]' : '') + (m.partial ? ' [PARTIAL]' : '');
    if (!several) return [figures(label, undefined, m, maxK(m))];
    const own = r.perDataset.filter((d) => d.model === m.id);
    // a model with problems of one dataset only: its one row is that dataset's (no pooled row to label)
    if (own.length <= 1) return [figures(label, safe(datasetName(own[0]?.dataset ?? '')), m, maxK(m))];
    return [
      ...own.map((d) => figures(label, safe(datasetName(d.dataset)), d, maxK(d))),
      figures(label, ALL_DATASETS, m, maxK(m)),
    ];
  });
  out.push(table([head, ...rows]));
  const gaps = r.models.filter((m) => ks.some((k) => k <= maxK(m) && !m.passAtK.some((p) => p.k === k)));
  if (gaps.length)
    out.push(
      `not computed: pass@k is computed at k = 1, 2, 4, 8, ... and each model's largest n (${gaps.map((m) => `${safe(m.label)}: n = ${maxK(m)}`).join('; ')}); other columns come from other models' n`,
    );
  if (r.models.some((m) => m.sampleAccuracy !== null && ks.some((k) => k > maxK(m)))) out.push(K_ABOVE_N_NOTE);
  const graded = r.models.filter((m) => m.grader !== null);
  if (graded.length) out.push(`verdicts: ${graded.map((m) => `${safe(m.label)} by ${safe(m.grader!)}`).join('; ')}`);
  if (r.models.flatMap((m) => [...m.passAtK, ...m.bestOfK, ...(m.majAtK ?? [])]).some((p) => p.missing > 0))
    out.push("(a/b): over a of the model's b problems; the warnings below say why the others are left out");
  if (r.models.some((m) => m.bestOfK.length)) {
    out.push('', 'best-of-k (reward-model selection, %):');
    for (const m of r.models.filter((x) => x.bestOfK.length)) {
      out.push(
        `  ${safe(m.label)}: ${m.bestOfK.map((b) => `k=${b.k} ${pct(b.value)}${denominatorMark(b)}`).join('  ')}`,
      );
    }
    // the reward-model table's best-of-N is over another set of problems: say both denominators (trial 12 finding 20)
    if (r.rewardModels)
      out.push(
        "  (over each problem's graded samples that have a reward score, a problem scored on some samples only counting with those; the reward-model table below drops such a problem, its best-of-N is over the problems every scorer scored completely, so the two can differ at one k)",
      );
  }
  return out;
}

/** pass@k, best-of-k, maj@k and pass@k by level rows per model, then each model's pass@k rows per dataset. */
function modelsCsv(r: Report): CsvRow[] {
  const q = csvCell;
  const lines: string[] = [];
  const row = (
    m: { id: string; label: string },
    level: string,
    metric: string,
    p: {
      k: number;
      value: number | null;
      ciLow?: number | null;
      ciHigh?: number | null;
    } & Denominator,
  ) =>
    lines.push(
      [
        q(m.id),
        q(m.label),
        metric,
        p.k,
        p.value ?? '',
        p.ciLow ?? '',
        p.ciHigh ?? '',
        p.problems,
        p.missing,
        p.leftOut.noSamples,
        p.leftOut.ungraded,
        p.leftOut.belowK,
        p.leftOut.noScore ?? '',
        q(level),
        '',
        '',
        '',
        '',
        '',
        '',
      ].join(','),
    );
  // A model (or model x dataset) without a graded sample has no pass@k curve: one pass@k row at k = 1 with
  // no value still names it, its problems all `missing` with their reasons (trial 12 finding 9), so every
  // model x dataset pair is in the CSV.
  const curve = (points: readonly PassAtKPoint[], total: number, leftOut: { noSamples: number; ungraded: number }) =>
    points.length > 0
      ? points
      : [
          {
            k: 1,
            value: null,
            ciLow: null,
            ciHigh: null,
            problems: 0,
            missing: total,
            leftOut: { ...leftOut, belowK: 0 },
          },
        ];
  for (const m of r.models) {
    for (const p of curve(m.passAtK, m.problems, m.leftOut)) row(m, '', 'pass@k', p);
    for (const p of m.bestOfK) row(m, '', 'best-of-k', p);
    for (const p of m.majAtK ?? []) row(m, '', 'maj@k', p);
    for (const s of r.strata.filter((x) => x.model === m.id)) for (const p of s.passAtK) row(m, s.level, 'pass@k', p);
  }
  const rows: CsvRow[] = lines.map((line) => ({ line }));
  // rows written so far and below pool every dataset; the per-dataset rows name theirs
  for (const m of r.models)
    for (const d of r.perDataset.filter((x) => x.model === m.id)) {
      const at = lines.length;
      for (const p of curve(d.passAtK, d.problems, d.leftOut)) row(m, '', 'pass@k', p);
      rows.push(...lines.splice(at).map((line) => ({ line, dataset: { dataset: d.dataset, problems: d.problems } })));
    }
  return rows;
}

/** `1 has` / `2 have`. */
const has = (n: number) => `${n} ${n === 1 ? 'has' : 'have'}`;

/**
 * The pass@k table for a paper: a row per model (pooled over datasets), its problems and samples, and pass@k in %
 * with its 95% bootstrap interval at every k of the table, as the text table rounds them; a footnote per model
 * with problems left out (no samples, no graded sample, n < k) saying how many and why.
 */
/** The legend line of a "not computed" cell of the paper tables. */
export const NOT_COMPUTED_NOTE =
  "not computed: pass@k is computed at k = 1, 2, 4, 8, ... and each model's largest n; a k between those of a model has no value (choose the table's ks with --k among them)";

function modelsDocument(r: Report): DocTable[] {
  if (r.models.length === 0) return [];
  const ks = [...new Set(r.models.flatMap((m) => m.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  const notes: string[] = [];
  const rows = r.models.map((m) => {
    const own: number[] = [];
    const left = m.leftOut.noSamples + m.leftOut.ungraded;
    const belowK = m.passAtK.filter((p) => p.leftOut.belowK > 0);
    if (left > 0 || belowK.length) {
      const parts = [
        ...(m.leftOut.noSamples ? [`${has(m.leftOut.noSamples)} no samples`] : []),
        ...(m.leftOut.ungraded ? [`${has(m.leftOut.ungraded)} no graded sample`] : []),
      ];
      const text = [
        ...(parts.length ? [`of its ${m.problems} problems, ${parts.join(' and ')}: left out of every value`] : []),
        ...(belowK.length
          ? [
              `fewer than k graded samples (n < k): ${belowK.map((p) => `${p.leftOut.belowK} ${p.leftOut.belowK === 1 ? 'problem' : 'problems'} at k = ${p.k}`).join(', ')}, left out at that k`,
            ]
          : []),
      ].join('; ');
      notes.push(`${safe(m.label)}: ${text}`);
      own.push(notes.length);
    }
    const label = safe(m.label) + (m.id === r.base && r.models.length > 1 ? ' (base)' : '');
    return {
      cells: [
        label,
        String(m.problems),
        String(m.samples),
        ...ks.map((k) => {
          if (m.sampleAccuracy === null) return 'ungraded';
          const p = m.passAtK.find((x) => x.k === k);
          if (p) return passAtKCell(p, pct, denominatorMark, ', ');
          return k > largestK(m) ? K_ABOVE_N : 'not computed';
        }),
      ],
      notes: own,
    };
  });
  const legend = [
    'pass@k in % [95% percentile bootstrap interval over problems]; n = graded samples per problem',
    ...(r.models.some((m) => m.passAtK.some((p) => p.missing > 0))
      ? ["(a/b): over a of the model's b problems (the footnotes say why)"]
      : []),
    ...(r.models.some((m) => m.sampleAccuracy !== null && ks.some((k) => k > largestK(m))) ? [K_ABOVE_N_NOTE] : []),
    ...(r.models.some(
      (m) => m.sampleAccuracy !== null && ks.some((k) => k <= largestK(m) && !m.passAtK.some((p) => p.k === k)),
    )
      ? [NOT_COMPUTED_NOTE]
      : []),
    ...(r.datasets.length > 1
      ? [
          `every value pools ${r.datasets.length} datasets: ${r.datasets.map((d) => `${safe(datasetName(d.dataset))} (${d.problems} problems)`).join(', ')}`,
        ]
      : []),
  ];
  return [
    {
      title: 'pass@k per model',
      head: ['model', 'problems', 'samples', ...ks.map((k) => `pass@${k}`)],
      align: ['l', 'r', 'r', ...ks.map(() => 'r' as const)],
      rows,
      notes,
      legend,
    },
  ];
}

export const modelsSection: ReportSection = {
  name: 'models',
  compute: computeModels,
  table: modelsTable,
  csv: modelsCsv,
  document: modelsDocument,
};
