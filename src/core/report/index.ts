import type { TraceIndex } from '../index/traceIndex';
import { reportContext } from './context';
import { REPORT_SECTIONS } from './sections';
import type { Report, ReportOptions } from './types';

export {
  type PassAtKPoint,
  type BestOfKReportPoint,
  type MajAtKReportPoint,
  type NotComparedKind,
  type ModelReport,
  type ComparisonReport,
  type DatasetModelReport,
  type NotComparedEntry,
  type StratumReport,
  type Report,
  MAJ_AT_K_RULE,
  type ReportOptions,
} from './types';
export {
  maxMinN,
  type NotComparedModel,
  notComparedModels,
  notComparedReason,
  notComparedWarning,
  type ComparisonLeftOut,
  comparisonDenominator,
  comparisonWarning,
  graderDifference,
  classifyUnreadable,
  cappedCount,
  samplesCut,
  unreadableWarning,
  partialWarning,
  type PairNRange,
  pairNRange,
  nDiffersWarning,
  graderWarning,
} from './notes';
export { alongK } from './curves';

export { majVsPassNote } from './majAtK';

export { REPORT_REPLICATES, noModelMatches } from './context';
export { toolGradedDiagnostics } from './sections/diagnostics';
export { reportCsv, reportDocument, reportLatex, reportMarkdown, reportTable } from './sections';
export { type DocTable, latexEscape, latexTables, markdownEscape, markdownTables } from './document';

/**
 * Builds the full report from the index: per model pass@k curves at k = 1, 2, 4, ..., n with
 * bootstrap intervals over problems (seeded: identical on every run), best-of-k by reward score,
 * accuracy histograms; per non-base model the comparison with the base model on shared problems
 * (coverage, crossover k, categories, paired bootstrap difference); per model and difficulty level
 * the stratified pass@k; per checkpoint series the training trajectories (src/core/analyses/trajectories.ts).
 * Formulas and sources: see `src/core/metrics`.
 * Each section (src/core/report/sections.ts) computes its keys in turn.
 * @throws Error when `options.base` matches no model or several, or on an invalid `stepPattern`.
 */
export function buildReport(index: TraceIndex, options: Omit<ReportOptions, 'paths'> = {}): Report {
  const ctx = reportContext(index, options);
  const report: Partial<Report> = {};
  for (const s of REPORT_SECTIONS) if (s.compute) Object.assign(report, s.compute(ctx));
  return report as Report;
}

/**
 * {@link buildReport} with {@link Report.paths} when `options.paths` asks for them: per compared
 * (base, model) pair, the reasoning-path summary (src/core/similarity/pathSummary.ts), the texts read from the
 * results files one problem at a time.
 * @throws as {@link buildReport}; SourceChangedError (sampleText.ts) when a results file changed
 *   since it was indexed.
 */
export async function buildReportAsync(index: TraceIndex, options: ReportOptions = {}): Promise<Report> {
  const ctx = reportContext(index, options);
  const report: Partial<Report> = {};
  for (const s of REPORT_SECTIONS)
    if (s.computeAsync) Object.assign(report, await s.computeAsync(ctx));
    else if (s.compute) Object.assign(report, s.compute(ctx));
  return report as Report;
}
