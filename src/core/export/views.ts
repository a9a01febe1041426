/**
 * The public SQL views (../sql/views.ts) written out as files, one per view, for DuckDB, Polars, Spark or pandas
 * (`trace-inspector export`, docs/sql.md): Parquet (hyparquet-writer, pure JavaScript), CSV or JSON lines. Pure
 * core: no `vscode` import.
 *
 * Cost: each view is read once with one SQLite statement and written as it is read, in batches of at most
 * {@link BATCH_ROWS} rows or {@link BATCH_TEXT_CHARS} characters of sample text; a Parquet batch is one row group
 * (the writer keeps only each row group's metadata until the footer), so memory holds one batch, whatever the
 * number of samples. With `withText`, the samples are read in (model, problem, sample index) order so that each
 * record of a results file is read and parsed once for all its samples (../index/sampleText.ts).
 *
 * Types: integer columns are Parquet INT64, `pass_at_1`, `reward_score` and `value` DOUBLE, the others UTF-8
 * strings; every column is nullable. Values are written exactly as the views give them (CSV quotes per RFC 4180
 * and adds no spreadsheet formula guard: `trace-inspector sql --format csv` does).
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as parquetLib from 'hyparquet-writer';
import { ParquetWriter, schemaFromColumnData, type Writer } from 'hyparquet-writer';
import { readSampleTexts } from '../index/sampleText';
import { problemKey, TraceIndex } from '../index/traceIndex';
import { installViews, PUBLIC_VIEWS, SQL_VIEWS_VERSION, type ViewSpec } from '../sql/views';

/** The file formats of an export. */
export type ExportFormat = 'parquet' | 'csv' | 'jsonl';

/** Rows of one batch (one Parquet row group) at most. */
export const BATCH_ROWS = 50_000;
/** Characters of sample text one batch holds at most (with `withText`); a longer single text is a batch alone. */
export const BATCH_TEXT_CHARS = 50_000_000;

/** The views' integer columns (by name: a name means the same in every view). */
const INTEGER_COLUMNS = new Set([
  'problems',
  'samples',
  'graded',
  'correct',
  'scored',
  'partial',
  'sample_index',
  'token_count',
  'text_length',
  'line',
  'n',
  'c',
  'attached',
]);
/** The views' floating-point columns. */
const REAL_COLUMNS = new Set(['pass_at_1', 'reward_score', 'value']);

/** A column's kind in the exported files. */
export type ColumnKind = 'integer' | 'real' | 'text';

/** The kind of view column `name` ({@link INTEGER_COLUMNS}, {@link REAL_COLUMNS}, else text). */
export function columnKind(name: string): ColumnKind {
  return INTEGER_COLUMNS.has(name) ? 'integer' : REAL_COLUMNS.has(name) ? 'real' : 'text';
}

/** What one view's file holds. */
export interface ExportedView {
  view: string;
  file: string;
  rows: number;
  columns: string[];
}

/** Options of {@link exportViews}. */
export interface ExportOptions {
  format: ExportFormat;
  /** Add the sample text to `samples` (column `text`, read from the results files). Default false. */
  withText?: boolean;
  /** The views to write (default every public view, in their order). */
  views?: readonly string[];
  /** Rows of a batch (a Parquet row group) at most; default {@link BATCH_ROWS}. */
  batchRows?: number;
  /** Called after each batch with the view and its rows written so far. */
  onProgress?: (view: string, rows: number) => void;
}

/** A sink for one view's rows: `add` a batch, then `end` once (`complete`: false after an error: no footer). */
interface RowSink {
  add(rows: unknown[][]): void;
  end(complete: boolean): void;
}

/**
 * A file writer for hyparquet-writer that appends to an open file descriptor, flushing its buffer each MB (the
 * library's own `fileWriter`, which its Node entry exports but its type declarations leave out).
 */
function fileWriter(path: string): Writer {
  const make = (parquetLib as unknown as { fileWriter?: (p: string) => Writer }).fileWriter;
  if (!make) throw new Error('hyparquet-writer: its Node entry (fileWriter) is not loaded');
  return make(path);
}

/** A Parquet file of `columns`, each batch one row group. */
function parquetSink(path: string, view: ViewSpec, columns: string[]): RowSink {
  const typeOf = (c: string) => {
    const kind = columnKind(c);
    return kind === 'integer' ? ('INT64' as const) : kind === 'real' ? ('DOUBLE' as const) : ('STRING' as const);
  };
  const schema = schemaFromColumnData({
    columnData: columns.map((name) => ({ name, data: [], type: typeOf(name), nullable: true })),
  });
  const descriptions = Object.fromEntries(view.columns.map((c) => [c.name, c.description]));
  const writer = new ParquetWriter({
    writer: fileWriter(path),
    schema,
    kvMetadata: [
      { key: 'trace_inspector.view', value: view.name },
      { key: 'trace_inspector.views_version', value: String(SQL_VIEWS_VERSION) },
      { key: 'trace_inspector.columns', value: JSON.stringify(descriptions) },
    ],
    createdBy: 'trace-inspector (hyparquet-writer)',
  });
  return {
    add(rows) {
      const columnData = columns.map((name, i) => {
        const kind = columnKind(name);
        const data = rows.map((r) => {
          const v = r[i];
          if (v === null || v === undefined) return null;
          if (kind === 'integer') {
            if (typeof v !== 'number' || !Number.isInteger(v))
              throw new Error(`${view.name}.${name}: expected an integer, got ${JSON.stringify(v)}`);
            return BigInt(v);
          }
          if (kind === 'real') {
            if (typeof v !== 'number')
              throw new Error(`${view.name}.${name}: expected a number, got ${JSON.stringify(v)}`);
            return v;
          }
          return typeof v === 'string' ? v : String(v);
        });
        return { name, data, type: typeOf(name), nullable: true };
      });
      void writer.write({ columnData, rowGroupSize: Math.max(rows.length, 1) });
    },
    end(complete) {
      if (complete) void writer.finish();
    },
  };
}

/** A text file written through a file descriptor, `line` per row after `header`. */
function lineSink(path: string, header: string | undefined, line: (row: unknown[]) => string): RowSink {
  const fd = openSync(path, 'w');
  if (header !== undefined) writeSync(fd, `${header}\n`);
  return {
    add(rows) {
      if (rows.length > 0) writeSync(fd, `${rows.map(line).join('\n')}\n`);
    },
    end() {
      closeSync(fd);
    },
  };
}

/** One CSV cell, RFC 4180: quoted when it holds `"`, `,` or a line break; NULL empty; the value unchanged. */
function csvValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function sinkFor(format: ExportFormat, path: string, view: ViewSpec, columns: string[]): RowSink {
  if (format === 'parquet') return parquetSink(path, view, columns);
  if (format === 'csv') return lineSink(path, columns.map(csvValue).join(','), (r) => r.map(csvValue).join(','));
  return lineSink(path, undefined, (r) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))));
}

/**
 * The rows of the samples view (read on `rows`) with each sample's text appended (column `text`), in (model,
 * dataset, problem_id, sample_index) order: each (model, problem)'s texts are read at once from the results files
 * (../index/sampleText.ts readSampleTexts, content-hash checked) through `texts`, a second connection (a
 * connection that is iterating a statement runs no other).
 * @throws SourceChangedError when a results file changed since it was indexed.
 */
async function* samplesWithText(rows: TraceIndex, texts: TraceIndex, columns: string[]): AsyncGenerator<unknown[]> {
  const modelIds = new Map(texts.models().map((m) => [m.displayId, m.id]));
  const problemIdOf = texts.db.prepare('SELECT id FROM problems WHERE key = ?').pluck();
  const at = (name: string) => columns.indexOf(name);
  const [mi, di, pi, si] = [at('model'), at('dataset'), at('problem_id'), at('sample_index')];
  const ordered = rows.db
    .prepare('SELECT * FROM temp.samples ORDER BY model, dataset, problem_id, sample_index')
    .raw()
    .iterate() as IterableIterator<unknown[]>;
  let group: unknown[][] = [];
  const flush = async function* () {
    if (group.length === 0) return;
    const first = group[0];
    const modelId = modelIds.get(first[mi] as string);
    const problemId = problemIdOf.get(problemKey(first[di] as string, first[pi] as string)) as number | undefined;
    const read =
      modelId !== undefined && problemId !== undefined ? await readSampleTexts(texts, problemId, modelId) : [];
    const bySampleIndex = new Map(read.map((t) => [t.sampleIndex, t.text]));
    for (const r of group) yield [...r, bySampleIndex.get(r[si] as number) ?? null];
    group = [];
  };
  for (const r of ordered) {
    const g = group[0];
    if (g && (g[mi] !== r[mi] || g[di] !== r[di] || g[pi] !== r[pi])) yield* flush();
    group.push(r);
  }
  yield* flush();
}

/** The rows of `view` (the statement's own order), as arrays in column order. */
async function* viewRows(index: TraceIndex, view: string): AsyncGenerator<unknown[]> {
  yield* index.db.prepare(`SELECT * FROM temp.${view}`).raw().iterate() as IterableIterator<unknown[]>;
}

/**
 * Writes the public views of the index at `dbPath` (opened read-only, twice with `withText`: rows and texts) to
 * `dir`, one file per view: `<view>.parquet`, `.csv` or `.jsonl` (an existing file of that name is replaced).
 * All or nothing: each view is written to a temporary file beside its own (`<file>.partial-<pid>`), and the files
 * take their names only once every view is written; on an error the temporary files are removed and the files
 * already in `dir` (an earlier export) are left as they were.
 * @returns each view's file, row count and columns, in the views' order.
 * @throws SourceChangedError (`withText`) when a results file changed since it was indexed; Error when a value
 *   does not fit its column's type (the message names the view and column), or when `dir` is a file; the file
 *   system's and SQLite's errors.
 */
export async function exportViews(dbPath: string, dir: string, options: ExportOptions): Promise<ExportedView[]> {
  const existing = statSync(dir, { throwIfNoEntry: false });
  if (existing && !existing.isDirectory()) throw new Error(`${dir} is a file: give a folder to write the views to`);
  const index = TraceIndex.open(dbPath, { readonly: true });
  const texts = options.withText ? TraceIndex.open(dbPath, { readonly: true }) : undefined;
  const partial: string[] = [];
  try {
    installViews(index.db);
    mkdirSync(dir, { recursive: true });
    const wanted = options.views ? new Set(options.views) : undefined;
    const out: ExportedView[] = [];
    for (const view of PUBLIC_VIEWS.filter((v) => !wanted || wanted.has(v.name))) {
      const rows =
        view.name === 'samples' && texts
          ? samplesWithText(index, texts, [...view.columns.map((c) => c.name)])
          : viewRows(index, view.name);
      const file = join(dir, `${view.name}.${options.format}`);
      partial.push(`${file}.partial-${process.pid}`);
      const written = await exportView(view, rows, partial[partial.length - 1], {
        ...options,
        withText: view.name === 'samples' && !!texts,
      });
      out.push({ ...written, file });
    }
    for (const [i, v] of out.entries()) renameSync(partial[i], v.file);
    partial.length = 0;
    return out;
  } finally {
    for (const p of partial) rmSync(p, { force: true });
    index.close();
    texts?.close();
  }
}

/** Writes one view's `rows` to `file` in batches ({@link BATCH_ROWS}, {@link BATCH_TEXT_CHARS}). */
async function exportView(
  view: ViewSpec,
  rows: AsyncIterable<unknown[]>,
  file: string,
  options: ExportOptions,
): Promise<ExportedView> {
  const columns = [...view.columns.map((c) => c.name), ...(options.withText ? ['text'] : [])];
  const sink = sinkFor(options.format, file, view, columns);
  let batch: unknown[][] = [];
  let chars = 0;
  let written = 0;
  const flush = () => {
    sink.add(batch);
    written += batch.length;
    batch = [];
    chars = 0;
    options.onProgress?.(view.name, written);
  };
  let complete = false;
  try {
    for await (const r of rows) {
      batch.push(r);
      const last = r[r.length - 1];
      if (options.withText && typeof last === 'string') chars += last.length;
      if (batch.length >= (options.batchRows ?? BATCH_ROWS) || chars >= BATCH_TEXT_CHARS) flush();
    }
    if (batch.length > 0 || written === 0) flush();
    complete = true;
  } finally {
    sink.end(complete);
  }
  return { view: view.name, file, rows: written, columns };
}
