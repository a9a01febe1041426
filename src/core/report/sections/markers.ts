import {
  type MarkersAnalysis,
  type ProblemMean,
  markerExamples,
  reasoningMarkers,
} from '../../analyses/reasoningMarkers';
import type { ReportContext } from '../context';
import { csvCell } from '../csv';
import type { CsvRow, ReportSection } from '../section';
import type { Report } from '../types';
import { safe, table } from '../render';

/** A mean with its interval, `12.3 [10.1, 14.0]`; `—` without one. */
function meanCell(m: ProblemMean): string {
  if (m.mean === null) return '—';
  const f = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
  return m.low === null || m.high === null ? f(m.mean) : `${f(m.mean)} [${f(m.low)}, ${f(m.high)}]`;
}

/**
 * The table of the marker section: per measure, one row per model (its step when it is a checkpoint): the mean
 * over problems of correct and incorrect samples with 95% intervals, and the within-problem difference with its
 * interval and verdict ("no relation" when the interval holds 0). Captioned with the token rule.
 */
export function markersLines(a: MarkersAnalysis): string[] {
  const out = [
    '',
    `reasoning markers: lengths and marker counts per 1,000 tokens (${a.tokenRule.description}); means over problems with 95% bootstrap intervals over problems; "within" is the mean over problems of (correct - incorrect) among problems with both`,
  ];
  for (const d of a.measures) {
    out.push(`  ${safe(d.label)} (${d.id}, ${d.unit}):`);
    out.push(
      table([
        [
          '    model',
          'step',
          'samples',
          'correct',
          'incorrect',
          'within (correct - incorrect)',
          'problems',
          'relation',
        ],
        ...a.models.map((m) => {
          const s = m.measures.find((x) => x.measure === d.id);
          if (!s) return [`    ${safe(m.label)}`];
          return [
            `    ${safe(m.label)}`,
            m.step === null ? '' : String(m.step),
            String(m.samples - m.unmeasured),
            meanCell(s.correct),
            meanCell(s.incorrect),
            meanCell(s.within),
            String(s.within.problems),
            s.within.relation,
          ];
        }),
      ]),
    );
  }
  if (a.examples?.length) {
    out.push('  examples (the marker in [[ ]]), to judge the lexicon by:');
    for (const e of a.examples)
      out.push(
        `    ${safe(e.behaviour)} "${safe(e.phrase)}": …${safe(e.before)}[[${safe(e.marker)}]]${safe(e.after)}… (${safe(e.model)}, problem ${safe(e.problem)}, sample ${e.sampleIndex})`,
      );
  }
  return out;
}

/** CSV rows: one per model and measure (the report's CSV columns; `metric` = `markers:<measure>:<split>`). */
function markersCsv(r: Report): CsvRow[] {
  const a = r.markers;
  if (!a) return [];
  const rows: CsvRow[] = [];
  for (const m of a.models)
    for (const s of m.measures)
      for (const [split, v] of [
        ['correct', s.correct],
        ['incorrect', s.incorrect],
        ['within', s.within],
      ] as const)
        rows.push({
          line: [
            csvCell(m.model),
            csvCell(m.label),
            `markers:${s.measure}:${split}`,
            '',
            v.mean ?? '',
            v.low ?? '',
            v.high ?? '',
            v.problems,
            ...new Array(6).fill(''),
            csvCell(m.series ?? ''),
            m.step ?? '',
            ...new Array(4).fill(''),
          ].join(','),
        });
  return rows;
}

function computeMarkers(ctx: ReportContext): Pick<Report, 'markers'> {
  if (!ctx.options.markers) return {};
  const a = reasoningMarkers(ctx.index, {
    bootstrap: ctx.boot,
    models: ctx.models,
    stepPattern: ctx.options.stepPattern,
  });
  ctx.warnings.push(...a.warnings);
  return { markers: a };
}

export const markersSection: ReportSection = {
  name: 'markers',
  compute: computeMarkers,
  // the CLI's report (buildReportAsync) adds examples of each behaviour, read from the results files
  computeAsync: async (ctx: ReportContext) => {
    const r = computeMarkers(ctx);
    if (r.markers) r.markers.examples = await markerExamples(ctx.index);
    return r;
  },
  table: (r: Report) => (r.markers ? markersLines(r.markers) : []),
  csv: markersCsv,
};
