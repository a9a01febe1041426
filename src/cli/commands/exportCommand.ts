import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { Command, Option } from 'commander';
import { type ExportFormat, exportViews } from '../../core/export/views';
import { safe } from '../../core/report/render';
import { PUBLIC_VIEWS } from '../../core/sql/views';
import { existingIndex } from '../indexing';

/** `dir`'s real path, or its own resolved path where it does not exist yet (its parent's real path then). */
function realish(dir: string): string {
  const abs = resolve(dir);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = resolve(abs, '..');
  return parent === abs ? abs : resolve(realish(parent), basename(abs));
}

/**
 * Whether `dir` is `folder` or inside it: an export there would be read as results by the next indexing pass
 * (a `.jsonl` of samples, a `.csv`), so the command refuses it.
 */
export function insideFolder(dir: string, folder: string): boolean {
  const rel = relative(realish(folder), realish(dir));
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** The `export` command: the public views as files (docs/sql.md). */
export function addExportCommand(cmd: Command): void {
  cmd
    .command('export')
    .description(
      `write the views of <folder>'s index (${PUBLIC_VIEWS.map((v) => v.name).join(', ')}) to files, one per view, for DuckDB, Polars, Spark or pandas (docs/sql.md); the folder is not indexed: run index first`,
    )
    .argument('<folder>', 'results folder (its index is found as index, report and sql find it)')
    .addOption(new Option('--format <format>', 'file format').choices(['parquet', 'csv', 'jsonl']).default('parquet'))
    .option('-o, --out <dir>', 'output folder, outside the results folder (default: ./<folder name>-views)')
    .option('--with-text', "add each sample's text to samples (column text, read from the results files)")
    .option('--db <file>', 'index database (default: the per-user cache file for this folder)')
    .option('-q, --quiet', 'no progress on stderr')
    .action(
      async (
        folder: string,
        opts: { format: ExportFormat; out?: string; withText?: boolean; db?: string; quiet?: boolean },
      ) => {
        const abs = resolve(folder);
        const dbPath = existingIndex(folder, opts.db);
        const out = resolve(opts.out ?? `${basename(abs)}-views`);
        if (existsSync(abs) && insideFolder(out, abs)) {
          throw new Error(
            `the output folder ${safe(out)} is inside the results folder: the next index would read the exported files as results; give -o a folder outside it`,
          );
        }
        let shown = '';
        const progress = (view: string, rows: number) => {
          process.stderr.write(`${shown && shown !== view ? '\n' : '\r'}${view}: ${rows} rows`);
          shown = view;
        };
        const written = await exportViews(dbPath, out, {
          format: opts.format,
          withText: opts.withText === true,
          onProgress: opts.quiet ? undefined : progress,
        });
        if (shown) process.stderr.write('\n');
        for (const w of written) process.stdout.write(`${safe(w.file)}\t${w.rows} rows\n`);
      },
    );
}
