import { Command, InvalidArgumentError, Option } from 'commander';
import { reportCsv, reportTable } from '../core/report';
import { CSV_HEADER, csvCell } from '../core/report/csv';
import { ALL_DATASETS, formatDiagnostics, safe } from '../core/report/render';
import { majJudged } from '../core/report/sections/majAtK';
import { pathLines } from '../core/report/sections/paths';
import { rewardModelLines } from '../core/report/sections/rewardModels';
import { trajectoryLines } from '../core/report/sections/trajectories';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { auditFolderChecked } from '../core/audit';
import { AnnotationStore, annotationFatesMessage, MIRROR_RELATIVE_PATH } from '../core/index/annotations';
import { type IndexProgress, indexFolder, type IndexSummary } from '../core/index/indexer';
import { readSampleText, readSampleTexts } from '../core/index/sampleText';
import { SQLITE_DRIVER_ENV, describeSqliteDriver, sqliteDriver } from '../core/index/sqlite';
import { type ModelRow, TraceIndex } from '../core/index/traceIndex';
import { FORMAT_IDS, type Diagnostic, diagnosticPlace, type FormatId } from '../core/model';
import { readPplSidecar } from '../core/ppl';
import type { ReaderOptions } from '../core/readers';
import { buildReportAsync, noModelMatches, partialWarning, unreadableWarning } from '../core/report';
import { problemNamer } from '../core/datasets';
import { compileStepPattern } from '../core/series';
import { holdsAsTyped, searchTerms, snippet } from '../core/search';
import { escapeControl, plural } from '../core/text';

// the report's renderers, where tests written against the CLI module import them from
export {
  ALL_DATASETS,
  CSV_HEADER,
  csvCell,
  majJudged,
  pathLines,
  reportCsv,
  reportTable,
  rewardModelLines,
  trajectoryLines,
};

/** Default index location for a results folder: a per-user cache, so read-only folders work. */
export function defaultDbPath(folder: string): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const id = createHash('sha1').update(resolve(folder)).digest('hex').slice(0, 16);
  return join(cache, 'trace-inspector', `${id}.db`);
}

function checkFolder(folder: string): string {
  const abs = resolve(folder);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new InvalidArgumentError(`not a folder: ${folder}`);
  return abs;
}

/**
 * JSON for a terminal: `JSON.stringify` escapes C0 controls (ESC, BEL, NUL...) but leaves DEL, the C1
 * controls (U+0080..U+009F, including the 8-bit CSI U+009B) and the bidi overrides raw; they are
 * written as `\uXXXX` escapes here. The output is still valid JSON that parses to the same value.
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
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
interface IndexCliOptions {
  db?: string;
  quiet?: boolean;
  inputFormat?: FormatId;
  scorer?: string;
  correctThreshold?: number;
  /** `--errored-samples`: what becomes of an Inspect sample that errored without a score. */
  erroredSamples?: 'exclude' | 'incorrect';
  /** `--mapping`: a mapping file given by path (absolute). */
  mapping?: string;
}

/** Indexes `folder` (checked, made absolute) into `--db` or the default index; returns the open index. */
async function runIndex(
  folder: string,
  opts: IndexCliOptions,
): Promise<{ abs: string; index: TraceIndex; summary: IndexSummary }> {
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
  });
  if (!opts.quiet) process.stderr.write(`${doneLine(summary)}\n`);
  if (summary.samples === 0) process.stderr.write(`${noSamplesMessage(index, abs)}\n`);
  // what became of the annotations on the files read again, as the extension says it (never "kept")
  const fates = annotationFatesMessage(summary.annotationsOfChangedFiles, MIRROR_RELATIVE_PATH);
  if (fates) process.stderr.write(`[annotations] ${fates}\n`);
  // Restore annotations from the folder's mirror (after deleting the index, or from git).
  new AnnotationStore(index).importJsonl(join(abs, ...MIRROR_RELATIVE_PATH.split('/')), MIRROR_RELATIVE_PATH);
  return { abs, index, summary };
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
function parseScorer(v: string): string {
  if (v.trim() === '') throw new InvalidArgumentError('expected a scorer name (or name.key)');
  return v;
}

/** Options of the `index` command. */
const MAPPING_HELP =
  "a mapping file (see docs/mapping.md) to read the folder with, for folders where a trace-inspector.mapping.json cannot be written; its globs are relative to <folder>, and it comes before the folder's own mapping files";

/** `--mapping` value: an existing file, as an absolute path. */
function parseMappingFile(v: string): string {
  const abs = resolve(v);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new InvalidArgumentError(`not a file: ${v}`);
  return abs;
}

const SCORER_HELP =
  'Inspect AI logs: the scorer whose values are the verdicts, or name.key for one metric of a scorer whose value is a dict (default: the first scorer whose values are verdicts)';

/** `--errored-samples`: what becomes of an Inspect sample that errored (`error` set) without a score. */
const erroredSamplesOption = (): Option =>
  new Option(
    '--errored-samples <policy>',
    "Inspect AI logs: samples that errored without a score are left out of every figure, as Inspect's own metrics leave them out (exclude, the default), or counted as incorrect (incorrect)",
  ).choices(['exclude', 'incorrect']);

/** Parses `--correct-threshold`: a finite number. */
function parseThreshold(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a number (a score >= it is correct)');
  return n;
}

const THRESHOLD_HELP =
  'count a correctness score >= x as correct (for files whose scores are not verdicts: numbers other than 0/1, e.g. Tree-of-Thought infos[].r); without it such samples are ungraded';

/** One match of `trace-inspector search` (the JSON output's `matches[]`). */
export interface SearchMatch {
  problemId: string;
  dataset: string;
  /** The problem's name as every message gives it (datasets.ts `problemNamer`: `gsm8k · 2` when ids repeat across datasets). */
  problem: string;
  /** The model's display id (`run:name@revision`). */
  model: string;
  /**
   * The model's label, as the report's tables and the tree name it (`Qwen/Qwen2.5-7B` for the id
   * `Qwen__Qwen2.5-7B:Qwen/Qwen2.5-7B`): the text lines name the model by it (trial 12 finding 22).
   */
  modelLabel: string;
  sampleIndex: number;
  /** The sample's verdict; null when ungraded. */
  correct: boolean | null;
  /** The text around the first matched term, the term between « and » (search.ts `snippet`). */
  snippet: string;
  /**
   * Whether the text holds the query as typed (search.ts `holdsAsTyped`: its characters in order and next
   * to each other); false for a sample the index matched by the query's words apart or out of order.
   */
  asTyped: boolean;
}

/** What a `trace-inspector search` looked through: the denominators of its counts (trial 14 finding 10). */
export interface SearchScope {
  /** The models searched, in the index's order: display id and label. */
  models: { model: string; modelLabel: string }[];
  /** Samples of those models with the verdict asked for (every sample the search looked at). */
  samples: number;
  /** Problems with at least one such sample. */
  problems: number;
  /** The filters applied: `--model` text and how it matched (`exact`: equal to one model's id, name or label), and the verdict. */
  filters: {
    model: string | null;
    modelMatch: 'exact' | 'substring' | null;
    verdict: 'correct' | 'incorrect' | null;
  };
}

/** The `search` command's result ({@link searchIndex}). */
export interface SearchResult {
  query: string;
  asTyped: boolean;
  /** Samples the full-text index matched (every word, anywhere). */
  indexMatches: number;
  /** Samples counted as matches: `indexMatches`, or with `asTyped` those holding the query as typed. */
  total: number;
  /** Problems the `total` matches are in. */
  problems: number;
  matches: SearchMatch[];
  searched: SearchScope;
  /**
   * Every error diagnostic of the folder: a file, record, line or sample that was not indexed, so its text
   * is in no search (trial 14 finding 4: a count must never be silently over less than the folder).
   */
  diagnostics: Diagnostic[];
  /** The same said per searched model (report.ts `unreadableWarning`, `partialWarning`), and for files no model is read from. */
  warnings: string[];
}

/** Thrown for a query with no word to search for (`''`, `'+'`, `'*'`): a usage error, not a search that found nothing. */
export class EmptyQueryError extends Error {}

/**
 * The models `--model <text>` picks (trial 14 finding 5): the models whose display id, name or label
 * equals the text (case-insensitive) when there is one (`Qwen2.5-Math-7B` is the base alone, not also
 * `Qwen2.5-Math-7B-GRPO`), else those whose display id or label contains it (case-insensitive); an empty
 * list when none does. `match` says which rule picked them.
 */
export function pickModels(
  models: readonly ModelRow[],
  text: string,
): { models: ModelRow[]; match: 'exact' | 'substring' } {
  const q = text.toLowerCase();
  const exact = models.filter((m) => [m.displayId, m.name, m.label].some((n) => n.toLowerCase() === q));
  if (exact.length > 0) return { models: exact, match: 'exact' };
  return { models: models.filter((m) => `${m.displayId}\n${m.label}`.toLowerCase().includes(q)), match: 'substring' };
}

/**
 * The `search` command's result: samples of the index whose text holds every term of `query`
 * (TraceIndex.searchSamples), of the models `model` picks ({@link pickModels}; every model when absent;
 * an error listing the models when none does), with the verdict asked for; `total` counts every match
 * (`problems` the problems they are in), `matches` the first `limit`, each with its snippet and
 * whether it holds the query as typed. `indexMatches` is what the full-text index matched (every term,
 * anywhere); with `asTyped` only the samples holding the query as typed are kept and counted (`total`):
 * every sample the index matched is read from its results file and checked, so it costs one read per
 * record of a matched sample. `searched` is what was looked through (models, samples, problems, filters);
 * `diagnostics` and `warnings` what of the folder was not indexed. Throws EmptyQueryError for a query
 * with no word (search.ts `searchTerms` empty), SourceChangedError (naming the file) when a file changed
 * since indexing.
 */
export async function searchIndex(
  index: TraceIndex,
  query: string,
  opts: { model?: string; correct?: boolean; limit: number; asTyped?: boolean },
): Promise<SearchResult> {
  if (searchTerms(query).length === 0)
    throw new EmptyQueryError(
      `nothing to search for: the query ${JSON.stringify(query)} has no words (punctuation and symbols are not indexed)`,
    );
  const models = index.models();
  let picked: ModelRow[] = models;
  let modelMatch: 'exact' | 'substring' | null = null;
  if (opts.model !== undefined) {
    const p = pickModels(models, opts.model);
    if (p.models.length === 0) throw new Error(noModelMatches('--model', opts.model, models));
    picked = p.models;
    modelMatch = p.match;
  }
  const ids = opts.model !== undefined ? picked.map((m) => m.id) : undefined;
  const byId = new Map(models.map((m) => [m.id, m]));
  const filter = { models: ids, correct: opts.correct };
  // with asTyped every match of the index is checked (LIMIT -1: no limit in SQLite), else the first `limit`
  const found = index.searchSamples(query, { ...filter, limit: opts.asTyped ? -1 : opts.limit });
  const indexMatches = found.total;
  let total = found.total;
  let problems = found.problems;
  // the samples to show, with their texts (read from the results files, checked against their content hash)
  const shown: { sample: (typeof found.samples)[number]; text: string }[] = [];
  if (opts.asTyped) {
    // the matches come a problem and model at a time: their texts are read in one go and only the texts of
    // the samples shown are kept
    total = 0;
    const held = new Set<number>();
    let group = '';
    let texts = new Map<number, string>();
    for (const s of found.samples) {
      const key = `${s.problemId}:${s.modelId}`;
      if (key !== group) {
        group = key;
        texts = new Map((await readSampleTexts(index, s.problemId, s.modelId)).map((t) => [t.id, t.text]));
      }
      const text = texts.get(s.id) ?? '';
      if (!holdsAsTyped(text, query)) continue;
      total++;
      held.add(s.problemId);
      if (shown.length < opts.limit) shown.push({ sample: s, text });
    }
    problems = held.size;
  } else {
    for (const s of found.samples) shown.push({ sample: s, text: (await readSampleText(index, s.id)) ?? '' });
  }
  const name = problemNamer(index);
  const matches: SearchMatch[] = shown.map(({ sample: s, text }) => {
    const p = index.problem(s.problemId);
    return {
      problemId: p?.problemId ?? '',
      dataset: p?.dataset ?? '',
      problem: p ? name(s.problemId) : '',
      model: byId.get(s.modelId)?.displayId ?? '',
      modelLabel: byId.get(s.modelId)?.label ?? '',
      sampleIndex: s.sampleIndex,
      correct: s.correct,
      snippet: snippet(text, query),
      asTyped: holdsAsTyped(text, query),
    };
  });
  const counts = index.searchedCounts(filter);
  const searched: SearchScope = {
    models: picked.map((m) => ({ model: m.displayId, modelLabel: m.label })),
    samples: counts.samples,
    problems: counts.problems,
    filters: {
      model: opts.model ?? null,
      modelMatch,
      verdict: opts.correct === true ? 'correct' : opts.correct === false ? 'incorrect' : null,
    },
  };
  const { diagnostics, warnings } = notIndexed(index, picked, models);
  return {
    query,
    asTyped: opts.asTyped === true,
    indexMatches,
    total,
    problems,
    matches,
    searched,
    diagnostics,
    warnings,
  };
}

/**
 * What of the folder is in no search (trial 14 finding 4): every error diagnostic (a file, line, record or
 * sample not indexed), and the warnings `report` gives for the searched models (records that could not be
 * read, samples skipped, a partly indexed model), plus one for the errors of files no model's sample comes
 * from (a file every record of which failed), with their places (the first three).
 */
function notIndexed(
  index: TraceIndex,
  searched: readonly ModelRow[],
  all: readonly ModelRow[],
): { diagnostics: Diagnostic[]; warnings: string[] } {
  const diagnostics = index.diagnostics().filter((d) => d.severity === 'error');
  const warnings: string[] = [];
  const attributed = new Set<string>();
  const key = (d: Diagnostic) => `${d.file}\n${d.line}\n${d.entry ?? ''}\n${d.message}`;
  for (const m of all) {
    const lines = index.unreadableRecords(m.id);
    for (const d of lines) attributed.add(key(d));
    if (!searched.includes(m)) continue;
    if (m.partial) warnings.push(partialWarning(m.label));
    const w = unreadableWarning(m.label, lines);
    if (w) warnings.push(w);
  }
  const other = diagnostics.filter((d) => !attributed.has(key(d)));
  if (other.length > 0) {
    const where = other.slice(0, 3).map((d) => diagnosticPlace(d));
    warnings.push(
      `${plural(other.length, 'error')} in files no searched sample is read from, or about a whole file (${where.join(', ')}${other.length > 3 ? ` and ${other.length - 3} more` : ''}): what they name is in no search`,
    );
  }
  return { diagnostics, warnings };
}

/** The lines `search` prints under its matches: what was counted over what (trial 14 finding 10). */
export function searchFooter(r: SearchResult): string[] {
  const out: string[] = [];
  const s = (n: number) => (n === 1 ? '' : 's');
  out.push(
    r.asTyped
      ? `${r.matches.length} of ${r.total} sample${s(r.total)} holding the query as typed shown (of ${r.indexMatches} the full-text index matched, each checked against its text)`
      : `${r.matches.length} of ${r.total} matching sample${s(r.total)} shown`,
  );
  const sc = r.searched;
  const verdict = sc.filters.verdict ? `${sc.filters.verdict} ` : '';
  const what = r.asTyped ? 'holding the query as typed' : 'matching';
  out.push(
    `${r.total} ${what} sample${s(r.total)} in ${plural(r.problems, 'problem')}, of ${sc.samples} ${verdict}sample${s(sc.samples)} searched (${plural(sc.problems, 'problem')}, ${plural(sc.models.length, 'model')})`,
  );
  const names = sc.models.map((m) => safe(m.modelLabel || m.model));
  const shownNames =
    names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ');
  const how =
    sc.filters.model === null
      ? 'every model'
      : sc.filters.modelMatch === 'exact'
        ? `--model "${safe(sc.filters.model)}": equal to its id, name or label`
        : `--model "${safe(sc.filters.model)}": contained in id or label`;
  const filters = [how, ...(sc.filters.verdict ? [`--${sc.filters.verdict}`] : [])];
  out.push(`models searched: ${shownNames} (${filters.join('; ')})`);
  const apart = r.matches.filter((m) => !m.asTyped).length;
  if (!r.asTyped && apart > 0) {
    out.push(
      `${apart} of the ${r.matches.length} shown hold the query's words apart or in another order, not as typed (the index keeps no positions); --as-typed keeps only the samples holding it as typed`,
    );
  }
  return out;
}

/** Error diagnostics `search` lists on stderr; the rest are counted (the JSON and `index` list them all). */
const SEARCH_DIAGNOSTICS_SHOWN = 20;

/** Adds the options that say where the index is and how the folder is read (`index` and `search`). */
function withIndexOptions(c: Command): Command {
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

/** Builds the command-line program (exported for tests). */
export function program(): Command {
  const cmd = new Command('trace-inspector')
    .description('Index sampled reasoning traces and report base-vs-RL metrics (pass@k, coverage, best-of-k).')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)');

  cmd
    .command('info')
    .description(
      `where this runs: Node, platform, glibc, and the SQLite driver in use and why (${SQLITE_DRIVER_ENV} forces one)`,
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((opts: { format: string }) => {
      const header = process.report?.getReport
        ? ((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header ?? {})
        : {};
      const host = {
        version: cmd.version() ?? '',
        node: process.versions.node,
        napi: process.versions.napi ?? null,
        platform: process.platform,
        arch: process.arch,
        glibc: header.glibcVersionRuntime ?? null,
      };
      let driver: ReturnType<typeof sqliteDriver> | undefined;
      let error: string | undefined;
      try {
        driver = sqliteDriver();
      } catch (e) {
        error = (e as Error).message;
        process.exitCode = 1;
      }
      if (opts.format === 'json') {
        process.stdout.write(`${terminalJson({ ...host, sqliteDriver: driver ?? null, error: error ?? null }, 2)}\n`);
        return;
      }
      const lines = [
        `trace-inspector ${host.version}`,
        `Node ${host.node} (Node-API ${host.napi ?? '?'}), ${host.platform} ${host.arch}${host.glibc ? `, glibc ${host.glibc}` : ''}`,
        driver ? describeSqliteDriver(driver) : `SQLite driver: none: ${error}`,
      ];
      process.stdout.write(`${lines.map(safe).join('\n')}\n`);
    });

  withIndexOptions(cmd.command('index'))
    .description('index every supported results file under <folder> into SQLite (incremental)')
    .argument('<folder>', 'results folder')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (folder: string, opts: IndexCliOptions & { format: string }) => {
      const { index, summary } = await runIndex(folder, opts);
      index.close();
      // nothing indexed (no results file, or none with a readable sample): a failure, not an empty success
      if (summary.samples === 0) process.exitCode = 1;
      if (opts.format === 'json') {
        process.stdout.write(
          `${terminalJson({ filesIndexed: summary.filesIndexed, filesSkipped: summary.filesSkipped, filesRemoved: summary.filesRemoved, samples: summary.samples, annotationsOfChangedFiles: summary.annotationsOfChangedFiles, diagnostics: summary.diagnostics }, 2)}\n`,
        );
      } else {
        process.stdout.write(
          `indexed ${summary.filesIndexed} files, skipped ${summary.filesSkipped} unchanged, removed ${summary.filesRemoved}; ${summary.samples} samples in the index\n`,
        );
        if (summary.diagnostics.length) process.stdout.write(`${formatDiagnostics(summary.diagnostics)}\n`);
      }
    });

  cmd
    .command('report')
    .description(
      'index <folder> (incrementally) and report pass@k, best-of-k, coverage, crossover k, categories, audit and grader audit',
    )
    .argument('<folder>', 'results folder')
    .option('--db <file>', 'index database (default: a per-user cache file for this folder)')
    .option('--base <text>', 'base model: a substring of its id or label (default: guessed from names)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'csv']).default('table'))
    .option('--replicates <n>', 'bootstrap replicates', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 100) throw new InvalidArgumentError('expected an integer >= 100');
      return n;
    })
    .option('--seed <n>', 'bootstrap seed', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
      return n;
    })
    .option(
      '--maj-at-k [draws]',
      'add maj@k curves (majority vote over extracted answers), exact at every k; [draws] is accepted for scripts written for earlier versions (which estimated large k by Monte Carlo) and not used',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 100) throw new InvalidArgumentError('expected an integer >= 100');
        return n;
      },
    )
    .option(
      '--regrade',
      "list where the folder's verdicts differ from the tool's answer equivalence with the reference answer (per model, with examples); verdicts are not changed",
    )
    .option(
      '--tool-grading',
      "grade samples that have no verdict but an extracted answer and a reference answer by answer equivalence (labelled as the tool's grading; the folder's verdicts are kept)",
    )
    .addOption(
      new Option('--input-format <id>', 'read every file in this format instead of detecting it per file').choices([
        ...FORMAT_IDS,
      ]),
    )
    .option(
      '--step-pattern <regex>',
      'checkpoint step pattern for training series (a regular expression, case-insensitive; its first group is the step number; default: step-N, checkpoint-N, global_step_N, iter_N, ckpt-Nk, ...)',
      (v) => {
        try {
          compileStepPattern(v);
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
        return v;
      },
    )
    .option('--scorer <name>', SCORER_HELP, parseScorer)
    .option('--correct-threshold <x>', THRESHOLD_HELP, parseThreshold)
    .addOption(erroredSamplesOption())
    .option(
      '--paths [maxTextSamples]',
      'add reasoning paths: share of correct samples whose computation steps are in the base (bootstrap interval over problems), and IDF-weighted text similarity and containment with equal-footing baselines over the first [maxTextSamples] samples per problem (default 64)',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 2) throw new InvalidArgumentError('expected an integer >= 2');
        return n;
      },
    )
    .option('--mapping <file>', MAPPING_HELP, parseMappingFile)
    .option('-q, --quiet', 'no progress on stderr')
    .action(
      async (
        folder: string,
        opts: IndexCliOptions & {
          paths?: true | number;
          base?: string;
          format: string;
          replicates?: number;
          seed?: number;
          majAtK?: true | number;
          regrade?: boolean;
          toolGrading?: boolean;
          inputFormat?: FormatId;
          stepPattern?: string;
          scorer?: string;
          mapping?: string;
          quiet?: boolean;
        },
      ) => {
        const { abs, index, summary } = await runIndex(folder, opts);
        try {
          if (summary.samples === 0) {
            // runIndex said why on stderr; an empty table on stdout would read as a result.
            if (summary.diagnostics.length) process.stderr.write(`${formatDiagnostics(summary.diagnostics)}\n`);
            process.exitCode = 1;
            return;
          }
          const checked = await auditFolderChecked(index, abs);
          const audit = checked.entries;
          const majAtK = opts.majAtK !== undefined;
          const report = await buildReportAsync(index, {
            base: opts.base,
            audit,
            auditChecked: checked,
            replicates: opts.replicates,
            seed: opts.seed,
            majAtK,
            regrade: !!opts.regrade,
            toolGrading: !!opts.toolGrading,
            ppl: readPplSidecar(abs, index),
            stepPattern: opts.stepPattern,
            paths: opts.paths === undefined ? undefined : opts.paths === true ? true : { maxTextSamples: opts.paths },
          });
          if (opts.format === 'json') process.stdout.write(`${terminalJson(report, 2)}\n`);
          else if (opts.format === 'csv') process.stdout.write(`${reportCsv(report)}\n`);
          else process.stdout.write(`${reportTable(report)}\n`);
        } finally {
          index.close();
        }
      },
    );
  withIndexOptions(cmd.command('search'))
    .description(
      'index <folder> (incrementally) and list the samples whose text holds every word of <query> (any script; the search filter of the Problems tree)',
    )
    .argument('<folder>', 'results folder')
    .argument('<query>', 'words that must all occur in the sample text (case, width and Latin accents ignored)')
    .option(
      '--model <text>',
      'only the model whose id, name or label is this text (case-insensitive), else the models whose id or label contains it',
    )
    .addOption(new Option('--correct', 'only samples graded correct').conflicts('incorrect'))
    .addOption(new Option('--incorrect', 'only samples graded incorrect'))
    .option(
      '--as-typed',
      'only samples holding the query as typed (its characters in order and next to each other); every sample the index matched is read from its file and checked',
    )
    .option('--limit <n>', 'list at most n matches (the total counts all)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected an integer >= 0');
      return n;
    })
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(
      async (
        folder: string,
        query: string,
        opts: IndexCliOptions & {
          model?: string;
          correct?: boolean;
          incorrect?: boolean;
          limit?: number;
          asTyped?: boolean;
          format: string;
        },
      ) => {
        // a query with no word is a usage error, said before indexing (trial 14 finding 7)
        if (searchTerms(query).length === 0) {
          process.stderr.write(
            `trace-inspector: nothing to search for: the query ${safe(JSON.stringify(query))} has no words (punctuation and symbols are not indexed)\n`,
          );
          process.exitCode = 2;
          return;
        }
        const { index } = await runIndex(folder, opts);
        try {
          const correct = opts.correct ? true : opts.incorrect ? false : undefined;
          const result = await searchIndex(index, query, {
            model: opts.model,
            correct,
            limit: opts.limit ?? 20,
            asTyped: opts.asTyped,
          });
          // what was not indexed is said on stderr in either format (trial 14 finding 4)
          for (const w of result.warnings) process.stderr.write(`warning: ${safe(w)}\n`);
          if (result.diagnostics.length > 0) {
            const n = result.diagnostics.length;
            process.stderr.write(
              `${formatDiagnostics(result.diagnostics.slice(0, SEARCH_DIAGNOSTICS_SHOWN))}\n${n > SEARCH_DIAGNOSTICS_SHOWN ? `and ${n - SEARCH_DIAGNOSTICS_SHOWN} more errors (trace-inspector index lists them all)\n` : ''}`,
            );
          }
          if (opts.format === 'json') {
            process.stdout.write(`${terminalJson(result, 2)}\n`);
            return;
          }
          const verdict = (c: boolean | null) => (c === null ? 'ungraded' : c ? 'correct' : 'incorrect');
          for (const m of result.matches) {
            // the problem named as in every warning (trial 7 finding 12)
            process.stdout.write(
              `${safe(m.problem)}  ${safe(m.modelLabel || m.model)}  #${m.sampleIndex}  ${verdict(m.correct)}${m.asTyped ? '' : '  (words apart)'}\n    ${safe(m.snippet)}\n`,
            );
          }
          process.stdout.write(`${searchFooter(result).join('\n')}\n`);
        } finally {
          index.close();
        }
      },
    );
  return cmd;
}

if (require.main === module) {
  program()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`trace-inspector: ${escapeControl((e as Error).message ?? String(e))}\n`);
      process.exit(1);
    });
}
