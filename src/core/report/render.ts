import { type Diagnostic, diagnosticPlace } from '../model';
import { escapeControl } from '../text/strings';
import { K_ABOVE_N } from '../../shared/passAtKCell';
import type { Report } from './types';

/** The line under a table with a {@link K_ABOVE_N} cell. */
export const K_ABOVE_N_NOTE = `${K_ABOVE_N}: k is above the model's largest number of graded samples per problem; pass@k is not defined there`;

/** The dataset cell of a model's pooled row (and CSV rows) in a folder with several datasets. */
export const ALL_DATASETS = 'all datasets';

/** Text from the folder or from model output, with control characters escaped (see {@link escapeControl}). */
export const safe = (s: string) => escapeControl(s);

/** A share as a percentage with one decimal; `—` for none. */
export const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : (100 * v).toFixed(1));

/** Diagnostics one a line: `file:line: severity: message`. */
export function formatDiagnostics(diags: Diagnostic[]): string {
  return diags.map((d) => `${safe(diagnosticPlace(d))}: ${d.severity}: ${safe(d.message)}`).join('\n');
}

/** Quotes an answer from model output for the table: control characters escaped, one line, at most 40 characters. */
export function ans(a: string | null): string {
  if (a === null) return '—';
  const flat = a.replace(/\s+/g, ' ');
  return JSON.stringify(safe(flat.length > 40 ? `${flat.slice(0, 39)}…` : flat));
}

/** A count with at most two decimals. */
export const fmtNum = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

/** Aligned columns: the first left-aligned, the others right-aligned, two spaces apart. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => (r[j] ?? '').length)));
  return rows
    .map((r) => r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '))
    .join('\n');
}

/** The report's label of a model display id (comparison and training tables name models by label); the id when unknown. */
export function labelOf(r: Pick<Report, 'models'>): (id: string) => string {
  return (id: string) => r.models.find((m) => m.id === id)?.label ?? id;
}
