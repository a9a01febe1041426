import { csvText } from './csv';
import { type DocTable, latexTables, markdownTables } from './document';
import type { ReportSection } from './section';
import type { Report } from './types';
import { auditSection } from './sections/audit';
import { baseSection } from './sections/base';
import { comparisonsSection } from './sections/comparisons';
import { datasetsSection } from './sections/datasets';
import { diagnosticsSection } from './sections/diagnostics';
import { graderAuditSection } from './sections/graderAudit';
import { gradingSection } from './sections/grading';
import { majAtKSection } from './sections/majAtK';
import { markersSection } from './sections/markers';
import { largestK, modelsSection } from './sections/models';
import { pathsSection } from './sections/paths';
import { pplSection } from './sections/ppl';
import { regradeSection } from './sections/regrade';
import { rewardModelsSection } from './sections/rewardModels';
import { strataSection } from './sections/strata';
import { trajectoriesSection } from './sections/trajectories';
import { warningsSection } from './sections/warnings';

/**
 * Every section of the report, in the order of the report's JSON keys, which is also the order they are
 * computed in: a section may read what an earlier one left in the context (the datasets for the models,
 * the comparisons' pairing for ppl and paths), and each adds its warnings in turn.
 */
export const REPORT_SECTIONS: readonly ReportSection[] = [
  baseSection,
  datasetsSection,
  modelsSection,
  comparisonsSection,
  strataSection,
  auditSection,
  graderAuditSection,
  regradeSection,
  gradingSection,
  majAtKSection,
  rewardModelsSection,
  pplSection,
  trajectoriesSection,
  markersSection,
  pathsSection,
  diagnosticsSection,
  warningsSection,
];

/**
 * The order of the sections in the table, as a reader goes through it: the lines that say how the model
 * table pools datasets and who graded come above it, maj@k under best-of-k, reward models before the
 * grader audit, the warnings before the diagnostics.
 */
const TABLE_ORDER = [
  'datasets',
  'grading',
  'models',
  'majAtK',
  'comparisons',
  'strata',
  'audit',
  'rewardModels',
  'graderAudit',
  'regrade',
  'ppl',
  'trajectories',
  'markers',
  'paths',
  'warnings',
  'diagnostics',
];

/** The order of the sections' rows in the CSV (a model's rows by level are among its rows; per-dataset rows last). */
const CSV_ORDER = ['models', 'comparisons', 'trajectories', 'markers', 'rewardModels'];

/** The sections of `order`, by name; throws at load when a renderer of a section is left out of its order. */
function inOrder(order: readonly string[], has: (s: ReportSection) => boolean): ReportSection[] {
  const byName = new Map(REPORT_SECTIONS.map((s) => [s.name, s]));
  const missing = REPORT_SECTIONS.filter((s) => has(s) && !order.includes(s.name));
  if (missing.length) throw new Error(`report sections not placed: ${missing.map((s) => s.name).join(', ')}`);
  return order.map((name) => {
    const s = byName.get(name);
    if (!s || !has(s)) throw new Error(`no report section ${name} to render`);
    return s;
  });
}

/** The order of the sections' tables for a paper (Markdown, LaTeX): pass@k per model, then model against base. */
const DOCUMENT_ORDER = ['models', 'comparisons'];

const TABLE_SECTIONS = inOrder(TABLE_ORDER, (s) => s.table !== undefined);
const CSV_SECTIONS = inOrder(CSV_ORDER, (s) => s.csv !== undefined);
const DOCUMENT_SECTIONS = inOrder(DOCUMENT_ORDER, (s) => s.document !== undefined);

/**
 * Renders the report as aligned text tables, section by section. Every value computed over fewer than
 * all of the model's problems carries the count, `70.0 (5/6)` (see src/core/metrics/denominators.ts); the
 * warnings below the tables say why.
 */
export function reportTable(r: Report): string {
  return TABLE_SECTIONS.flatMap((s) => s.table?.(r) ?? []).join('\n');
}

/** The report as CSV, one row per figure ("long" format): the columns are described at {@link csvText}. */
export function reportCsv(r: Report): string {
  return csvText(
    r,
    CSV_SECTIONS.flatMap((s) => s.csv?.(r) ?? []),
  );
}

/** Options of the tables for a paper: `ks`, the k of the pass@k columns (default every k of the text table). */
export interface DocumentOptions {
  ks?: readonly number[];
}

/**
 * `r` with each model's pass@k points at the ks of `ks` only (the pass@k table's columns, and the footnotes of
 * problems with n < k at those ks), each model keeping its largest k (`largestK`) for the cells it has no point in.
 * @throws Error naming the ks the report has for a k no model has.
 */
export function reportAtKs(r: Report, ks: readonly number[]): Report {
  const have = [...new Set(r.models.flatMap((m) => m.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  const unknown = ks.filter((k) => !have.includes(k));
  if (unknown.length)
    throw new Error(`--k ${unknown.join(',')}: no model has pass@k at that k; the ks are ${have.join(', ')}`);
  const keep = new Set(ks);
  return {
    ...r,
    models: r.models.map((m) => ({ ...m, largestK: largestK(m), passAtK: m.passAtK.filter((p) => keep.has(p.k)) })),
  };
}

/** The report's tables for a paper, section by section ({@link DocTable}: plain text, escaped by each format). */
export function reportDocument(r: Report, opts: DocumentOptions = {}): DocTable[] {
  const report = opts.ks?.length ? reportAtKs(r, opts.ks) : r;
  return DOCUMENT_SECTIONS.flatMap((s) => s.document?.(report) ?? []);
}

/** The report's tables as GitHub-flavoured Markdown (`report --format markdown`; document.ts `markdownTables`). */
export function reportMarkdown(r: Report, opts: DocumentOptions = {}): string {
  return markdownTables(reportDocument(r, opts));
}

/** The report's tables as LaTeX tabulars in booktabs style (`report --format latex`; document.ts `latexTables`). */
export function reportLatex(r: Report, opts: DocumentOptions = {}): string {
  return latexTables(reportDocument(r, opts));
}
