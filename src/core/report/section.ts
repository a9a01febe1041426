import type { ReportContext } from './context';
import type { DocTable } from './document';
import type { Report } from './types';

/**
 * One row of the report's CSV (src/core/report/csv.ts): its first 20 cells (`model` to `not_in_model`),
 * joined; the last four (`dataset`, `datasets`, `partly_scored`, `base_label`) are added by `reportCsv`
 * from the row's fields.
 */
export interface CsvRow {
  line: string;
  /** The `datasets` cell when it is not the row's model's: a base's rows in a training step. */
  datasets?: readonly { dataset: string; problems: number }[];
  /** Reward-model rows: the `partly_scored` cell (empty on every other row). */
  partlyScored?: number;
  /** The display id of the row's base, named by its label in `base_label`. */
  base?: string;
  /** A row over one dataset's problems (a model's figures per dataset): written after every pooled row. */
  dataset?: { dataset: string; problems: number };
}

/**
 * A section of the report: its part of the JSON computed from the index, and its part of the table and
 * of the CSV rendered from the whole report. Every section is listed once, in src/core/report/sections.ts.
 */
export interface ReportSection {
  /** The section's name, as TABLE_ORDER and CSV_ORDER (sections.ts) list it. */
  name: string;
  /**
   * Its keys of the report, in the JSON's key order, from the context (and what earlier sections left
   * there); its warnings are added to `ctx.warnings`. Absent for a section only `computeAsync` computes.
   */
  compute?(ctx: ReportContext): Partial<Report>;
  /** As `compute`, for a section that reads the results files (`buildReportAsync` only). */
  computeAsync?(ctx: ReportContext): Promise<Partial<Report>>;
  /** Its lines of the table (`trace-inspector report`); none when it has nothing to show. */
  table?(r: Report): string[];
  /** Its rows of the CSV (`--format csv`). */
  csv?(r: Report): CsvRow[];
  /** Its tables for a paper (`--format markdown`, `--format latex`: src/core/report/document.ts); none to show: empty. */
  document?(r: Report): DocTable[];
}
