import { Command, InvalidArgumentError, Option } from 'commander';
import { csvCell } from '../../core/report/csv';
import { safe } from '../../core/report/render';
import { DEFAULT_ROW_LIMIT, DEFAULT_TIMEOUT_MS, runQuery, type SqlResult } from '../../core/sql/query';
import { existingIndex, integerOption } from '../indexing';
import { terminalJson } from '../output';

/** Longest cell of the table format, in characters: longer texts (questions) are cut with `…`. */
const TABLE_CELL_MAX = 60;

/** A value as text: NULL as `NULL` (table) or '' (CSV), a BLOB as `x'hex'`, numbers as JavaScript writes them. */
function cellText(v: unknown, nullText: string): string {
  if (v === null || v === undefined) return nullText;
  if (v instanceof Uint8Array) return `x'${Buffer.from(v).toString('hex')}'`;
  return String(v);
}

/**
 * The result as an aligned text table: a header, a rule, one line per row (numbers right-aligned, control
 * characters escaped, cells longer than 60 characters cut with `…`), then `(N rows)`.
 */
export function sqlTable(r: SqlResult): string {
  const cut = (s: string) => {
    const t = safe(s);
    return [...t].length > TABLE_CELL_MAX ? `${[...t].slice(0, TABLE_CELL_MAX - 1).join('')}…` : t;
  };
  const header = r.columns.map(cut);
  const body = r.rows.map((row) => row.map((v) => cut(cellText(v, 'NULL'))));
  const numeric = r.columns.map(
    (_, i) =>
      r.rows.some((row) => typeof row[i] === 'number') &&
      r.rows.every((row) => typeof row[i] === 'number' || row[i] === null),
  );
  const width = header.map((h, i) => Math.max([...h].length, ...body.map((row) => [...row[i]].length)));
  const pad = (s: string, i: number) => {
    const fill = ' '.repeat(width[i] - [...s].length);
    return numeric[i] ? fill + s : s + fill;
  };
  const lines = [
    header.map(pad).join('  ').trimEnd(),
    width.map((w) => '-'.repeat(w)).join('  '),
    ...body.map((row) => row.map(pad).join('  ').trimEnd()),
    `(${r.rows.length} row${r.rows.length === 1 ? '' : 's'})`,
  ];
  return lines.join('\n');
}

/** The result as CSV: a header line of the column names, then one line per row (NULL as an empty cell). */
export function sqlCsv(r: SqlResult): string {
  const cell = (v: unknown) => (typeof v === 'number' ? String(v) : csvCell(cellText(v, '')));
  return [r.columns.map(cell), ...r.rows.map((row) => row.map(cell))].map((l) => l.join(',')).join('\n');
}

/**
 * The result as JSON: `{ viewsVersion, columns, rows, rowCount, limit, truncated }`, each row an object keyed by
 * column name (a repeated name gets `_2`, `_3`, ...: `columns` lists the keys), a BLOB as `x'hex'`.
 */
export function sqlJson(r: SqlResult): string {
  const seen = new Map<string, number>();
  const keys = r.columns.map((c) => {
    const n = (seen.get(c) ?? 0) + 1;
    seen.set(c, n);
    return n === 1 ? c : `${c}_${n}`;
  });
  const rows = r.rows.map((row) =>
    Object.fromEntries(row.map((v, i) => [keys[i], v instanceof Uint8Array ? cellText(v, '') : v])),
  );
  return terminalJson(
    {
      viewsVersion: r.viewsVersion,
      columns: keys,
      rows,
      rowCount: rows.length,
      limit: r.limit,
      truncated: r.truncated,
    },
    2,
  );
}

/** The note said on stderr when the row limit cut the result. */
export function rowLimitNote(r: SqlResult): string {
  return `note: row limit reached: the first ${r.limit} rows are shown, the query has more (--limit N shows more; an aggregate or a LIMIT in the query fewer)`;
}

/** `--timeout` value: seconds, a positive number. */
function parseSeconds(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('expected a number of seconds > 0');
  return n;
}

/** The `sql` command: one read-only query over the public views of a folder's index (docs/sql.md). */
export function addSqlCommand(cmd: Command): void {
  cmd
    .command('sql')
    .description(
      "run one read-only SQL query over the views of <folder>'s index: models, problems, samples, scores, problem_stats, annotations, diagnostics, view_columns (docs/sql.md); the folder is not indexed: run index first",
    )
    .argument('<folder>', 'results folder (its index is found as index, report and search find it)')
    .argument('<query>', 'one SELECT, WITH or VALUES statement')
    .option('--db <file>', 'index database (default: the per-user cache file for this folder)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'csv']).default('table'))
    .option(
      '--limit <n>',
      `rows shown at most (default ${DEFAULT_ROW_LIMIT}); a note on stderr says when the query had more`,
      integerOption(1),
    )
    .option(
      '--timeout <seconds>',
      `stop the query after this long (default ${DEFAULT_TIMEOUT_MS / 1000})`,
      parseSeconds,
    )
    .action(
      async (
        folder: string,
        query: string,
        opts: { db?: string; format: string; limit?: number; timeout?: number },
      ) => {
        const dbPath = existingIndex(folder, opts.db);
        const result = await runQuery(dbPath, query, {
          limit: opts.limit ?? DEFAULT_ROW_LIMIT,
          timeoutMs: (opts.timeout ?? DEFAULT_TIMEOUT_MS / 1000) * 1000,
        });
        const text =
          opts.format === 'json' ? sqlJson(result) : opts.format === 'csv' ? sqlCsv(result) : sqlTable(result);
        process.stdout.write(`${text}\n`);
        if (result.truncated) process.stderr.write(`${rowLimitNote(result)}\n`);
      },
    );
}
