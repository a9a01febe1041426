import { Command, InvalidArgumentError, Option } from 'commander';
import { formatDiagnostics, safe } from '../core/report/render';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { AnnotationStore, annotationFatesMessage, MIRROR_RELATIVE_PATH } from '../core/index/annotations';
import { type IndexProgress, indexFolder, type IndexSummary } from '../core/index/indexer';
import {
  buildSearchIndex,
  type SearchIndexStatus,
  type SearchIndexSummary,
  searchIndexPercent,
} from '../core/index/searchIndex';
import { describeSqliteDriver, sqliteDriver } from '../core/index/sqlite';
import { TraceIndex } from '../core/index/traceIndex';
import { FORMAT_IDS, type FormatId } from '../core/model';
import type { ReaderOptions } from '../core/readers';
import { plural } from '../core/text/strings';

// The options and the indexing pass that the index, report and search commands share.

/** Default index location for a results folder: a per-user cache, so read-only folders work. */
export function defaultDbPath(folder: string): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const id = createHash('sha1').update(resolve(folder)).digest('hex').slice(0, 16);
  return join(cache, 'trace-inspector', `${id}.db`);
}

/**
 * The index file of `folder` for a command that reads an existing index (sql, mcp, export): `db` when given, else
 * the folder's per-user cache file ({@link defaultDbPath}).
 * @throws Error when that file does not exist, saying to index the folder first (or to give --db).
 */
export function existingIndex(folder: string, db: string | undefined): string {
  const dbPath = db ? resolve(db) : defaultDbPath(resolve(folder));
  if (!existsSync(dbPath)) {
    throw new Error(
      db
        ? `no index at ${safe(dbPath)}`
        : `${safe(folder)} has no index yet (${safe(dbPath)}): run trace-inspector index ${safe(folder)} first, or give --db`,
    );
  }
  return dbPath;
}

function checkFolder(folder: string): string {
  const abs = resolve(folder);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new InvalidArgumentError(`not a folder: ${folder}`);
  return abs;
}

function progress(quiet: boolean) {
  let last = 0;
  return (p: IndexProgress) => {
    // the one notice of a pass (an index built by older readers is read again) is said even with --quiet
    if (p.notice) process.stderr.write(`trace-inspector: ${safe(p.notice)}\n`);
    // the pass's end is said by runIndex, from its summary ({@link doneLine})
    if (quiet || p.phase === 'scan' || p.phase === 'done') return;
    const now = Date.now();
    if (p.phase === 'index' && now - last < 200) return;
    last = now;
    const file = p.file ? ` ${safe(p.file)}` : '';
    process.stderr.write(`[${p.phase}] ${p.filesDone}/${p.filesTotal} files, ${p.samples} samples${file}\n`);
  };
}

let driverStated = false;

/**
 * Says once on stderr that the index runs on node:sqlite because better-sqlite3 cannot be loaded here
 * (with the loader's reason); a driver forced by TRACE_INSPECTOR_SQLITE_DRIVER is what the user asked for, so
 * nothing is said then (`trace-inspector info` shows it).
 */
function stateFallback(): void {
  const info = sqliteDriver();
  if (driverStated || info.fallbackReason === undefined) return;
  driverStated = true;
  process.stderr.write(`trace-inspector: ${safe(describeSqliteDriver(info))}\n`);
}

/** Options of both commands that say how the folder is indexed. */
export interface IndexCliOptions {
  db?: string;
  quiet?: boolean;
  inputFormat?: FormatId;
  scorer?: string;
  correctThreshold?: number;
  /** `--errored-samples`: what becomes of an Inspect sample that errored without a score. */
  erroredSamples?: 'exclude' | 'incorrect';
  /** `--mapping`: a mapping file given by path (absolute). */
  mapping?: string;
  /** `--no-search-index` gives false: the full-text index is not built after the figures (searches say what they could not look through). */
  searchIndex?: boolean;
}

/**
 * Indexes `folder` (checked, made absolute) into `--db` or the default index; returns the open index. The
 * pass writes the samples and figures only; with `search` (and without `--no-search-index`) the full-text
 * index is then built from them ({@link runSearchIndex}), else left for a later `index` or `search`.
 */
export async function runIndex(
  folder: string,
  opts: IndexCliOptions,
  search = false,
): Promise<{ abs: string; index: TraceIndex; summary: IndexSummary; search?: SearchIndexSummary }> {
  const abs = checkFolder(folder);
  const index = TraceIndex.open(opts.db ?? defaultDbPath(abs));
  stateFallback();
  const readerOptions: ReaderOptions = {
    scorer: opts.scorer,
    correctThreshold: opts.correctThreshold,
    // the default is not written: an index built without the option is read the same way
    ...(opts.erroredSamples === 'incorrect' ? { erroredSamples: 'incorrect' as const } : {}),
    ...(opts.mapping ? { mappingFile: opts.mapping } : {}),
  };
  const summary = await indexFolder(index, abs, {
    onProgress: progress(!!opts.quiet),
    format: opts.inputFormat,
    readerOptions,
    // the figures first; the full-text index after them (runSearchIndex)
    fts: false,
  });
  if (!opts.quiet) process.stderr.write(`${doneLine(summary)}\n`);
  if (summary.samples === 0) process.stderr.write(`${noSamplesMessage(index, abs)}\n`);
  // what became of the annotations on the files read again, as the extension says it (never "kept")
  const fates = annotationFatesMessage(summary.annotationsOfChangedFiles, MIRROR_RELATIVE_PATH);
  if (fates) process.stderr.write(`[annotations] ${fates}\n`);
  // Restore annotations from the folder's mirror (after deleting the index, or from git).
  new AnnotationStore(index).importJsonl(join(abs, ...MIRROR_RELATIVE_PATH.split('/')), MIRROR_RELATIVE_PATH);
  if (!search || opts.searchIndex === false) return { abs, index, summary };
  return { abs, index, summary, search: await runSearchIndex(index, !!opts.quiet) };
}

/**
 * Builds the full-text index of the samples not in it yet (core `buildSearchIndex`), saying its progress on
 * stderr (`[search index] 40% ...`, at most every 200 ms, none with `quiet`) and any results file that
 * changed since it was indexed (its samples left out until the next pass reads it).
 */
async function runSearchIndex(index: TraceIndex, quiet: boolean): Promise<SearchIndexSummary> {
  let last = 0;
  const r = await buildSearchIndex(index, {
    onProgress: (p) => {
      const now = Date.now();
      if (quiet || p.indexed >= p.samples || now - last < 200) return;
      last = now;
      process.stderr.write(
        `[search index] ${searchIndexPercent(p)} (${p.indexed} of ${plural(p.samples, 'sample')})\n`,
      );
    },
  });
  if (!quiet && r.added > 0)
    process.stderr.write(`[search index] ${plural(r.added, 'sample')} added (${r.elapsedMs} ms)\n`);
  for (const f of r.changedFiles)
    process.stderr.write(
      `warning: ${safe(f)} changed since it was indexed: its samples are in no search until it is indexed again\n`,
    );
  return r;
}

/**
 * The progress line at the end of an indexing pass, from its summary: files read, unchanged and removed,
 * samples written and samples in the index, so a pass over an unchanged folder never reads as an empty
 * folder (trial 14 finding 10: it was `[done] 2/2 files, 0 samples`): `[done] 0 files read, 2 unchanged;
 * 0 samples written, 80 samples in the index`.
 */
export function doneLine(
  summary: Pick<IndexSummary, 'filesIndexed' | 'filesSkipped' | 'filesRemoved' | 'samplesWritten' | 'samples'>,
): string {
  const removed = summary.filesRemoved > 0 ? `, ${summary.filesRemoved} removed` : '';
  return `[done] ${plural(summary.filesIndexed, 'file')} read, ${summary.filesSkipped} unchanged${removed}; ${plural(summary.samplesWritten, 'sample')} written, ${plural(summary.samples, 'sample')} in the index`;
}

/**
 * Why an index has no samples: no file was in a format this tool reads, or some were (through a
 * mapping file or a built-in reader) but every record of them failed (their diagnostics say why).
 */
/**
 * For the commands that compute from the samples (report, figure): when the folder gave none, writes the indexing
 * diagnostics on stderr (runIndex already said why), sets exit status 1 and returns true; an empty table or figure on
 * stdout would read as a result. False when there are samples.
 */
export function stopWithoutSamples(summary: IndexSummary): boolean {
  if (summary.samples > 0) return false;
  if (summary.diagnostics.length) process.stderr.write(`${formatDiagnostics(summary.diagnostics)}\n`);
  process.exitCode = 1;
  return true;
}

export function noSamplesMessage(index: TraceIndex, folder: string): string {
  const byFormat = index.resultFilesByFormat();
  const files = Object.values(byFormat).reduce((a, n) => a + n, 0);
  if (files === 0) {
    const unmatched = index.diagnostics().filter((d) => /^mapping( #\d+)?: "files" .* matches no file/.test(d.message));
    if (unmatched.length > 0)
      return `trace-inspector: no samples found in ${safe(folder)}: no file in a supported format, and ${unmatched.length === 1 ? 'a mapping whose "files" match' : `${unmatched.length} mappings whose "files" match`} no file (${[...new Set(unmatched.map((d) => safe(d.file)))].join(', ')}: see the warning below)`;
    return `trace-inspector: no samples found in ${safe(folder)}: no file in a supported format (see docs/formats.md, or describe yours with a trace-inspector.mapping.json)`;
  }
  const mapped = byFormat.mapping ?? 0;
  return `trace-inspector: no samples found in ${safe(folder)}: ${files} results file${files === 1 ? ' was' : 's were'} recognised${mapped ? ` (${mapped} through a mapping file)` : ''} but gave no sample: every record failed (see the diagnostics)`;
}

/** `--scorer` value: a scorer name, or `name.key` for one metric of a scorer whose value is a dict. */
export function parseScorer(v: string): string {
  if (v.trim() === '') throw new InvalidArgumentError('expected a scorer name (or name.key)');
  return v;
}

/** Options of the `index` command. */
export const MAPPING_HELP =
  "a mapping file (see docs/mapping.md) to read the folder with, for folders where a trace-inspector.mapping.json cannot be written; its globs are relative to <folder>, and it comes before the folder's own mapping files";

/** `--mapping` value: an existing file, as an absolute path. */
export function parseMappingFile(v: string): string {
  const abs = resolve(v);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new InvalidArgumentError(`not a file: ${v}`);
  return abs;
}

export const SCORER_HELP =
  'Inspect AI logs: the scorer whose values are the verdicts, or name.key for one metric of a scorer whose value is a dict (default: the first scorer whose values are verdicts)';

/** `--errored-samples`: what becomes of an Inspect sample that errored (`error` set) without a score. */
export const erroredSamplesOption = (): Option =>
  new Option(
    '--errored-samples <policy>',
    "Inspect AI logs: samples that errored without a score are left out of every figure, as Inspect's own metrics leave them out (exclude, the default), or counted as incorrect (incorrect)",
  ).choices(['exclude', 'incorrect']);

/** A parser of an integer option, at least `min` when given (commander says `expected an integer >= min` otherwise). */
export function integerOption(min?: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || (min !== undefined && n < min))
      throw new InvalidArgumentError(min === undefined ? 'expected an integer' : `expected an integer >= ${min}`);
    return n;
  };
}

/** Parses `--correct-threshold`: a finite number. */
export function parseThreshold(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a number (a score >= it is correct)');
  return n;
}

export const THRESHOLD_HELP =
  'count a correctness score >= x as correct (for files whose scores are not verdicts: numbers other than 0/1, e.g. Tree-of-Thought infos[].r); without it such samples are ungraded';

/** Adds the options that say where the index is and how the folder is read (`index` and `search`). */
export function withIndexOptions(c: Command): Command {
  return c
    .option('--db <file>', 'index database (default: a per-user cache file for this folder)')
    .addOption(
      new Option('--input-format <id>', 'read every file in this format instead of detecting it per file').choices([
        ...FORMAT_IDS,
      ]),
    )
    .option('--scorer <name>', SCORER_HELP, parseScorer)
    .option('--correct-threshold <x>', THRESHOLD_HELP, parseThreshold)
    .addOption(erroredSamplesOption())
    .option('--mapping <file>', MAPPING_HELP, parseMappingFile)
    .option('-q, --quiet', 'no progress on stderr');
}

/** How far the full-text index is built: `search index: 40% (409600 of 1024000 samples)`. */
export function searchIndexLine(st: SearchIndexStatus): string {
  return `search index: ${searchIndexPercent(st)} (${st.indexed} of ${plural(st.samples, 'sample')})`;
}
