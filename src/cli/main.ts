import { Command, InvalidArgumentError, Option } from 'commander';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { auditFolderChecked } from '../core/audit';
import { AnnotationStore, annotationFatesMessage, MIRROR_RELATIVE_PATH } from '../core/index/annotations';
import { type IndexProgress, indexFolder, type IndexSummary } from '../core/index/indexer';
import {
  buildSearchIndex,
  type SearchIndexStatus,
  type SearchIndexSummary,
  searchIndexPercent,
  searchIndexStatus,
  unsearchedSamples,
} from '../core/index/searchIndex';
import { readSampleText, readSampleTexts } from '../core/index/sampleText';
import { SQLITE_DRIVER_ENV, describeSqliteDriver, sqliteDriver } from '../core/index/sqlite';
import { type ModelRow, TraceIndex } from '../core/index/traceIndex';
import { FORMAT_IDS, type Diagnostic, diagnosticPlace, type FormatId } from '../core/model';
import { type Denominator, denominatorMark } from '../core/denominators';
import { type PplReport, readPplSidecar } from '../core/ppl';
import type { ReaderOptions } from '../core/readers';
import type { PathSummary } from '../core/pathSummary';
import {
  buildReportAsync,
  type ModelReport,
  noModelMatches,
  notComparedReason,
  type PassAtKPoint,
  partialWarning,
  type Report,
  unreadableWarning,
} from '../core/report';
import { datasetName, problemNamer, problemsInDatasets } from '../core/datasets';
import { type RewardModelsReport, describeRewardDenominator, rewardDenominator } from '../core/rewardReport';
import { compileStepPattern } from '../core/series';
import { type Trajectory, trajectoryFilter } from '../core/trajectories';
import { holdsAsTyped, searchTerms, snippet } from '../core/search';
import { escapeControl, plural } from '../core/text';
import { CROSSOVER_NOTE, crossoverScope, crossoverText } from '../shared/claims';
import { isAboveN, K_ABOVE_N, passAtKCell } from '../shared/passAtKCell';
import { addSplitsOptions, type SplitsCliOptions, splitsOutput } from './splits';

/** The line under a table with a {@link K_ABOVE_N} cell. */
const K_ABOVE_N_NOTE = `${K_ABOVE_N}: k is above the model's largest number of graded samples per problem; pass@k is not defined there`;

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

const safe = (s: string) => escapeControl(s);

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

/**
 * One CSV cell of untrusted text: control characters escaped as in {@link escapeControl}, a leading
 * `=`, `+`, `-` or `@` prefixed with `'` (so a spreadsheet does not run it as a formula), and quoted
 * when it holds `"`, `,` or a line break.
 */
export function csvCell(s: string): string {
  let v = escapeControl(s);
  if (/^[=+\-@]/.test(v)) v = `'${v}`;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : (100 * v).toFixed(1));

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
  /** `--no-search-index` gives false: the full-text index is not built after the figures (searches say what they could not look through). */
  searchIndex?: boolean;
}

/**
 * Indexes `folder` (checked, made absolute) into `--db` or the default index; returns the open index. The
 * pass writes the samples and figures only; with `search` (and without `--no-search-index`) the full-text
 * index is then built from them ({@link runSearchIndex}), else left for a later `index` or `search`.
 */
async function runIndex(
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

function formatDiagnostics(diags: Diagnostic[]): string {
  return diags.map((d) => `${safe(diagnosticPlace(d))}: ${d.severity}: ${safe(d.message)}`).join('\n');
}

/**
 * The `--paths` section: per compared model, the share of correct samples whose computation path is
 * in the base (with its interval and denominator) beside the baselines, then the text measures' medians.
 */
export function pathLines(paths: readonly PathSummary[]): string[] {
  const ci = (c: { value: number | null; ciLow: number | null; ciHigh: number | null }) =>
    `${pct(c.value)} [${pct(c.ciLow)},${pct(c.ciHigh)}]`;
  const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
  const out = [
    'reasoning paths: correct samples whose computation steps (equations with a numeric result) some base sample computes in full, % (docs/similarity.md sections 6-8):',
    table([
      ['base', 'model', 'problems', 'samples', 'path in base', 'n-1 footing', 'base vs base', 'steps found m/b'],
      ...paths.map((p) => [
        safe(p.base),
        safe(p.model),
        String(p.problems),
        String(p.pathInBase.samples),
        ci(p.pathInBase),
        pct(p.pathInBaseLeaveOneOut),
        `${ci(p.baselinePathInBase)} of ${p.baselinePathInBase.samples}`,
        `${pct(p.stepsFound.modelLeaveOneOut)}/${pct(p.stepsFound.baseline)}`,
      ]),
    ]),
  ];
  for (const p of paths) {
    const l = p.leftOut;
    const parts = [
      l.noBaseSamples && `${l.noBaseSamples} without base samples`,
      l.noCorrectSample && `${l.noCorrectSample} without a correct sample`,
      l.noStepsInCorrect && `${l.noStepsInCorrect} whose correct samples have no step`,
    ].filter(Boolean);
    out.push(
      `  ${safe(p.model)}: over ${p.problems} problems and ${p.pathInBase.samples} of ${p.correctSamples} correct samples (${p.correctWithoutSteps} without a step left out)${parts.length ? `; problems left out: ${parts.join(', ')}` : ''}`,
    );
  }
  out.push(
    '',
    'text similarity, medians over samples (model vs base with n and n-1 candidates | base vs base | model vs model); weighted = 3-grams weighted by IDF over problems:',
  );
  const rows: string[][] = [['model', 'measure', 'm/b n', 'm/b n-1', 'b/b', 'm/m']];
  for (const p of paths) {
    const t = p.text;
    if (!t) continue;
    for (const k of ['jaccard', 'weightedJaccard', 'containment', 'weightedContainment'] as const)
      rows.push([
        safe(p.model),
        k,
        num(t.modelVsBase[k]),
        num(t.modelVsBaseLeaveOneOut[k]),
        num(t.baseVsBase[k]),
        num(t.modelVsModel[k]),
      ]);
  }
  out.push(table(rows));
  for (const p of paths) {
    const t = p.text;
    if (!t || t.samplesLeftOut.base + t.samplesLeftOut.model === 0) continue;
    out.push(
      `  ${safe(p.model)}: text measures over the first ${t.maxSamplesPerProblem} samples per problem (${t.samplesLeftOut.model} model and ${t.samplesLeftOut.base} base samples left out)`,
    );
  }
  return out;
}

/** The largest k of a model's pass@k grid (its largest n); 0 without points. */
const maxK = (m: Pick<ModelReport, 'passAtK'>) => m.passAtK.reduce((a, p) => Math.max(a, p.k), 0);

/**
 * How maj@k's problems were judged, saying only what is true (trial 5 finding 11d: "7 of 7 problems
 * judged by the reference answer, the others by verdicts"): `all 7 problems judged by the reference
 * answer`, `5 of 7 problems judged by the reference answer, 2 by verdicts (no reference answer)`, `all
 * 3 problems judged by verdicts (no reference answer)`.
 */
export function majJudged(byReference: number, problems: number): string {
  const p = (n: number) => `${n} problem${n === 1 ? '' : 's'}`;
  if (byReference === problems)
    return `${problems === 1 ? 'the' : 'all'} ${p(problems)} judged by the reference answer`;
  if (byReference === 0)
    return `${problems === 1 ? 'the' : 'all'} ${p(problems)} judged by verdicts (no reference answer)`;
  return `${byReference} of ${p(problems)} judged by the reference answer, ${problems - byReference} by verdicts (no reference answer)`;
}

/** The dataset cell of a model's pooled row (and CSV rows) in a folder with several datasets. */
export const ALL_DATASETS = 'all datasets';

/**
 * Renders the report as aligned text tables. Every value computed over fewer than all of the model's
 * problems carries the count, `70.0 (5/6)` (see src/core/denominators.ts); the warnings below the
 * tables say why.
 */
export function reportTable(r: Report): string {
  const out: string[] = [];
  const ks = [...new Set(r.models.flatMap((m) => m.passAtK.map((p) => p.k)))].sort((a, b) => a - b);
  // samples without a verdict are in no figure: their count is shown beside the samples when there are any
  const someUngraded = r.models.some((m) => m.ungradedSamples > 0);
  const head = [
    'model',
    'problems',
    'samples',
    ...(someUngraded ? ['ungraded'] : []),
    'correct',
    ...ks.map((k) => `pass@${k}`),
  ];
  // several datasets: one row per model and dataset, then the model's pooled row, labelled as such
  const several = r.datasets.length > 1;
  if (several) head.splice(1, 0, 'dataset');
  const figures = (
    label: string,
    dataset: string | undefined,
    m: Pick<ModelReport, 'problems' | 'samples' | 'ungradedSamples' | 'sampleAccuracy' | 'correct' | 'passAtK'>,
    top: number,
  ) => [
    label,
    ...(dataset === undefined ? [] : [dataset]),
    String(m.problems),
    String(m.samples),
    ...(someUngraded ? [String(m.ungradedSamples)] : []),
    // no graded sample: "0 correct" would read as a failing model
    m.sampleAccuracy === null ? 'ungraded' : String(m.correct),
    ...ks.map((k) => {
      // no graded sample: pass@k is not "k > n" but undefined at every k (trial 7 finding 13)
      if (m.sampleAccuracy === null) return 'ungraded';
      const p = m.passAtK.find((x) => x.k === k);
      if (p) return passAtKCell(p, pct, denominatorMark);
      // no point: k above the model's largest n, or between the points of its grid (1, 2, 4, ..., n)
      return k > top ? K_ABOVE_N : 'not computed';
    }),
  ];
  const rows = r.models.flatMap((m) => {
    const label =
      safe(m.label) + (m.id === r.base && r.models.length > 1 ? ' [base]' : '') + (m.partial ? ' [PARTIAL]' : '');
    if (!several) return [figures(label, undefined, m, maxK(m))];
    const own = r.perDataset.filter((d) => d.model === m.id);
    // a model with problems of one dataset only: its one row is that dataset's (no pooled row to label)
    if (own.length <= 1) return [figures(label, safe(datasetName(own[0]?.dataset ?? '')), m, maxK(m))];
    return [
      ...own.map((d) => figures(label, safe(datasetName(d.dataset)), d, maxK(d))),
      figures(label, ALL_DATASETS, m, maxK(m)),
    ];
  });
  if (several)
    out.push(
      `datasets: ${safe(problemsInDatasets(r.datasets))}: the table gives each dataset's figures, then "${ALL_DATASETS}" (a model with problems of several datasets) pooled over every problem of the model (each problem counts once: a dataset weighs by its problem count); every other figure below (comparisons, best-of-k, maj@k, training, grader audit) pools the ${r.datasets.length} datasets`,
    );
  if (r.grading.by !== 'folder')
    out.push(
      `grading: the folder's verdicts, plus the TOOL'S GRADING of ${r.grading.toolGraded} samples that had no verdict (${r.grading.toolCorrect} correct: answer equivalent to the reference answer)`,
    );
  out.push(table([head, ...rows]));
  const gaps = r.models.filter((m) => ks.some((k) => k <= maxK(m) && !m.passAtK.some((p) => p.k === k)));
  if (gaps.length)
    out.push(
      `not computed: pass@k is computed at k = 1, 2, 4, 8, ... and each model's largest n (${gaps.map((m) => `${safe(m.label)}: n = ${maxK(m)}`).join('; ')}); other columns come from other models' n`,
    );
  if (r.models.some((m) => m.sampleAccuracy !== null && ks.some((k) => k > maxK(m)))) out.push(K_ABOVE_N_NOTE);
  const graded = r.models.filter((m) => m.grader !== null);
  if (graded.length) out.push(`verdicts: ${graded.map((m) => `${safe(m.label)} by ${safe(m.grader!)}`).join('; ')}`);
  if (r.models.flatMap((m) => [...m.passAtK, ...m.bestOfK, ...(m.majAtK ?? [])]).some((p) => p.missing > 0))
    out.push("(a/b): over a of the model's b problems; the warnings below say why the others are left out");
  if (r.models.some((m) => m.bestOfK.length)) {
    out.push('', 'best-of-k (reward-model selection, %):');
    for (const m of r.models.filter((x) => x.bestOfK.length)) {
      out.push(
        `  ${safe(m.label)}: ${m.bestOfK.map((b) => `k=${b.k} ${pct(b.value)}${denominatorMark(b)}`).join('  ')}`,
      );
    }
    // the reward-model table's best-of-N is over another set of problems: say both denominators (trial 12 finding 20)
    if (r.rewardModels)
      out.push(
        "  (over each problem's graded samples that have a reward score, a problem scored on some samples only counting with those; the reward-model table below drops such a problem, its best-of-N is over the problems every scorer scored completely, so the two can differ at one k)",
      );
  }
  if (r.models.some((m) => m.majAtK?.length)) {
    out.push('', 'maj@k (majority vote over extracted answers grouped by answer equivalence, %):');
    if (r.majAtKRule) out.push(`  (${r.majAtKRule})`);
    for (const m of r.models.filter((x) => x.majAtK?.length)) {
      const first = m.majAtK![0];
      const judged = first.problems === 0 ? '' : ` (at k=1: ${majJudged(first.byReference, first.problems)})`;
      out.push(
        `  ${safe(m.label)}: ${m.majAtK!.map((b) => `k=${b.k} ${pct(b.value)}${denominatorMark(b)}`).join('  ')}${judged}`,
      );
    }
  }
  // comparison tables name models by their labels, as the model table does (trial 7 finding 13)
  const labelOf = (id: string) => r.models.find((m) => m.id === id)?.label ?? id;
  if (r.comparisons.length) {
    const bases = [...new Set(r.comparisons.map((c) => c.base))];
    // one base that is not the folder's (benchmark folders above the model folders: the gsm8k copy of the base, not
    // the aime24 copy guessed for the folder; trial 12 finding 11) is a per-run base too: named in a column
    const perRun = bases.length > 1 || (bases.length === 1 && r.base !== null && bases[0] !== r.base);
    out.push(
      '',
      perRun
        ? "base models: each run's own (guessed per run; --base compares every model with one model)"
        : `base model: ${safe(r.base === null ? '—' : labelOf(r.base))} (${r.baseSource === 'guess' ? 'guessed; change with --base' : 'chosen'})`,
    );
    const ch = [
      ...(perRun ? ['base'] : []),
      'model',
      'problems',
      'base-only',
      'model-only',
      'both',
      'neither',
      'crossover k',
      'sharpening',
      'expansion',
      'regression',
      'unchanged',
      'unsolved',
    ];
    out.push(
      table([
        ch,
        ...r.comparisons.map((c) => [
          ...(perRun ? [safe(labelOf(c.base))] : []),
          safe(labelOf(c.model)) + (c.differentGraders ? ' [GRADED DIFFERENTLY]' : ''),
          c.missing > 0 ? `${c.problems}/${c.problems + c.missing}` : String(c.problems),
          String(c.coverage.baseOnly),
          String(c.coverage.modelOnly),
          String(c.coverage.both),
          String(c.coverage.neither),
          crossoverText(c) + crossoverScope(c),
          String(c.categories.sharpening),
          String(c.categories.expansion),
          String(c.categories.regression),
          String(c.categories.unchanged),
          String(c.categories.unsolved),
        ]),
      ]),
    );
    if (r.comparisons.some((c) => c.missing > 0))
      out.push(
        '(a/b) in a comparison: over a of the b problems of the two models (either has a record of); the warnings below name the others and why',
      );
    out.push(CROSSOVER_NOTE);
    const noisy = r.comparisons.filter((c) => Object.values(c.categoriesWithinNoise).some((v) => v > 0));
    if (noisy.length) {
      out.push('categories decided within noise (the two 95% Jeffreys intervals of c/n overlap):');
      for (const c of noisy) {
        const w = c.categoriesWithinNoise;
        out.push(
          `  ${safe(labelOf(c.model))}: sharpening ${w.sharpening} of ${c.categories.sharpening}, expansion ${w.expansion} of ${c.categories.expansion}, regression ${w.regression} of ${c.categories.regression}`,
        );
      }
    }
  }
  // every model in no comparison, with the reason (trial 7 finding 5: they vanished without a word)
  if (r.notCompared.length) {
    out.push('', `not compared (${r.notCompared.length} of ${r.models.length} models are in no comparison):`);
    for (const x of r.notCompared)
      out.push(`  ${safe(labelOf(x.model))}: ${safe(notComparedReason({ ...x, base: x.base ?? undefined }, labelOf))}`);
  }
  if (r.strata.length) {
    out.push('', 'pass@k by difficulty level:');
    for (const s of r.strata) {
      out.push(
        `  ${safe(labelOf(s.model))} level ${safe(s.level)} (${plural(s.problems, 'problem')}): ${s.passAtK.map((p) => `@${p.k} ${pct(p.value)}${denominatorMark(p)}`).join('  ')}`,
      );
    }
    for (const x of r.noLevel)
      out.push(
        x.problems === x.total
          ? `  ${safe(labelOf(x.model))}: none of its ${x.total} problems has a level`
          : `  ${safe(labelOf(x.model))}: ${x.problems} of its ${x.total} problems without a level (${x.named.map((n) => JSON.stringify(safe(n))).join(', ')}${x.problems > x.named.length ? ', …' : ''}) are in no level's figures`,
      );
  }
  const checkedNote = r.auditChecked
    ? ` (${r.auditChecked.figures} figure${r.auditChecked.figures === 1 ? '' : 's'} in ${r.auditChecked.files} file${r.auditChecked.files === 1 ? '' : 's'} checked)`
    : '';
  // checked and agreeing is said, so it never reads like "not checked" (trial 12 finding 5)
  if (!r.audit.length && r.auditChecked)
    out.push(
      '',
      `audit: ${r.auditChecked.figures} figure${r.auditChecked.figures === 1 ? '' : 's'} stored in ${r.auditChecked.files} summary file${r.auditChecked.files === 1 ? '' : 's'} checked against the raw samples: all agree`,
    );
  if (r.audit.length) {
    out.push('', `audit: figures stored in the folder that disagree with the raw samples${checkedNote}:`);
    // Figures are recomputed from what could be read: say so when some of it could not.
    const unread = r.diagnostics.filter((d) => d.severity === 'error').length;
    if (unread > 0)
      out.push(
        `  (recomputed from the records that could be read: ${unread} error${unread === 1 ? '' : 's'} in the results files, listed below)`,
      );
    if (r.auditRules) out.push(`  (${r.auditRules})`);
    const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(4));
    for (const a of r.audit)
      out.push(`  ${safe(a.file)}: ${safe(a.metric)} stored ${num(a.stored)} recomputed ${num(a.recomputed)}`);
  }
  if (r.rewardModels) {
    for (const rm of [r.rewardModels, ...(r.rewardModels.otherModels ?? [])]) out.push('', ...rewardModelLines(rm));
    if (r.rewardModels.unattachedScores > 0)
      out.push(
        `  ${r.rewardModels.unattachedScores} score${r.rewardModels.unattachedScores === 1 ? '' : 's'} attach to no sample and are left out (see the diagnostics)`,
      );
  }
  out.push(...graderAuditLines(r));
  if (r.regrade) out.push(...regradeLines(r.regrade));
  if (r.ppl) out.push('', ...pplLines(r.ppl, new Map(r.models.map((m) => [m.id, m.label]))));
  for (const t of r.trajectories) out.push('', ...trajectoryLines(t, labelOf));
  if (r.paths?.length) out.push('', ...pathLines(r.paths));
  for (const w of r.warnings) out.push(`warning: ${safe(w)}`);
  if (r.diagnostics.length) out.push('', `${r.diagnostics.length} diagnostics:`, formatDiagnostics(r.diagnostics));
  return out.join('\n');
}

/**
 * The reward-model section of the table: the ranking of scorers by pairwise accuracy with best-of-N,
 * pass@N and regret at each N, the rank correlations across scorers per N, and Spearman per stratum.
 */
export function rewardModelLines(rm: RewardModelsReport): string[] {
  const out: string[] = [];
  const nMax = rm.ns[rm.ns.length - 1] ?? 0;
  out.push(
    `reward models on the samples of ${safe(rm.model)}: ${rm.scorers.length} scorer${rm.scorers.length === 1 ? '' : 's'} compared on the same graded samples, ${describeRewardDenominator(rm)} (up to ${nMax} samples each)`,
  );
  const incomplete = Object.entries(rm.incompleteByScorer).filter(([, v]) => v > 0);
  if (incomplete.length)
    out.push(
      `  problems a scorer did not score completely: ${incomplete.map(([s, v]) => `${safe(s)} ${v}`).join(', ')}`,
    );
  const rules = Object.entries(rm.stepRules);
  if (rules.length)
    out.push(`  step scores reduced to one number by: ${rules.map(([s, rule]) => `${safe(s)} ${rule}`).join(', ')}`);
  const ranked = [...rm.scorers].sort((a, b) => (b.pairwiseAccuracy ?? -1) - (a.pairwiseAccuracy ?? -1));
  const num = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(4));
  out.push(
    table([
      [
        'rank',
        'scorer',
        'pairwise acc',
        'pairs',
        ...rm.ns.map((n) => `best-of-${n}`),
        ...rm.ns.filter((n) => n > 1).map((n) => `regret@${n}`),
      ],
      ...ranked.map((s, i) => [
        String(i + 1),
        safe(s.name),
        num(s.pairwiseAccuracy) + denominatorMark(rewardDenominator(rm)),
        String(s.pairs),
        ...s.bestOfN.map((b) => num(b.value) + denominatorMark(b)),
        ...s.bestOfN.filter((b) => b.n > 1).map((b) => num(b.regret) + denominatorMark(b)),
      ]),
      ['', 'pass@N (oracle)', '', '', ...(ranked[0]?.bestOfN ?? []).map((b) => num(b.passAtN) + denominatorMark(b))],
    ]),
  );
  // a point over fewer problems than the common set says why, once per N (the same for every scorer)
  for (const b of ranked[0]?.bestOfN ?? [])
    if (b.belowN > 0) out.push(`  best-of-${b.n}, pass@${b.n}, regret@${b.n}: ${describeRewardDenominator(rm, b)}`);
  const defined = rm.correlations.filter((c) => c.spearman !== null || c.kendall !== null);
  if (defined.length) {
    out.push(
      `rank correlation across the ${rm.scorers.length} scorers between pairwise accuracy and best-of-N (95% percentile bootstrap over the ${rm.problems} problems of the common set, ${rm.bootstrap.replicates} replicates, seed ${rm.bootstrap.seed}; Kendall's tau-b):`,
    );
    for (const c of defined)
      out.push(
        `  N=${c.n}: Spearman ${num(c.spearman)} [${num(c.ciLow)}, ${num(c.ciHigh)}]  Kendall tau-b ${num(c.kendall)} [${num(c.kendallCiLow)}, ${num(c.kendallCiHigh)}]`,
      );
    const undefinedAt = rm.correlations.filter((c) => c.spearman === null).map((c) => c.n);
    if (undefinedAt.length)
      out.push(
        `  N=${undefinedAt.join(', ')}: undefined (best-of-N has no spread across scorers; at N=1 it is pass@1 for all)`,
      );
  } else if (rm.scorers.length < 2) out.push('  (one scorer: no correlation across scorers)');
  // per stratum only the correlation across scorers is printed (per-scorer figures are in the JSON): none with one scorer
  if (rm.strata.length && rm.scorers.length >= 2) {
    const nShow = rm.ns.filter((n) => n > 1);
    out.push(`by stratum: problems, Spearman of pairwise accuracy with best-of-N at N=${nShow.join(', ')}:`);
    for (const st of rm.strata)
      out.push(
        `  ${safe(st.by)} ${safe(st.value)} (${st.problems} problems): ${st.spearman
          .filter((x) => x.n > 1)
          .map((x) => num(x.value))
          .join('  ')}`,
      );
    for (const [by, n] of Object.entries(rm.unmatched))
      if (n > 0) out.push(`  ${n} problem${n === 1 ? ' has' : 's have'} no ${safe(by)} (in no stratum of it)`);
  }
  return out;
}

/** Quotes an answer from model output for the table: control characters escaped, one line, at most 40 characters. */
function ans(a: string | null): string {
  if (a === null) return '—';
  const flat = a.replace(/\s+/g, ' ');
  return JSON.stringify(safe(flat.length > 40 ? `${flat.slice(0, 39)}…` : flat));
}

/** The grader audit section of the table (groups of equivalent answers graded both ways). */
function graderAuditLines(r: Report): string[] {
  const g = r.graderAudit;
  // under --tool-grading the folder's ungraded samples the tool graded are not audited (the audit checks the
  // folder's verdicts): said as such, not as "ungraded" beside the line saying the tool graded them (trial 12 finding 21)
  const tool = r.grading.toolGraded;
  const ungraded = g.samplesSkipped.ungraded;
  const ungradedText =
    tool > 0 && ungraded > 0
      ? `${ungraded} without a verdict of the folder not checked (${Math.min(tool, ungraded)} of them graded by the tool, not audited)`
      : `${ungraded} ungraded not checked`;
  const skipped = `${g.samplesSkipped.noAnswer} without an answer and ${ungradedText}`;
  if (g.inconsistent.length === 0)
    return [
      '',
      `grader audit: no inconsistency: ${g.samplesChecked} graded samples in ${g.groupsChecked} answer groups of ${g.problemsChecked} problems; ${skipped}`,
    ];
  const out = [
    '',
    `grader audit: ${g.inconsistent.length} groups of equivalent answers graded both correct and incorrect, in ${g.problemsInconsistent} of ${g.problemsChecked} problems (${g.samplesInconsistent} of ${g.samplesChecked} graded samples; ${skipped}):`,
  ];
  const rows = g.inconsistent.map((x) => [
    // the problem named as in every warning (problemNamer: `gsm8k · 2`; trial 7 finding 12)
    safe(x.problem),
    ans(x.answer),
    String(x.correct),
    String(x.incorrect),
    x.referenceSays === null ? 'no reference' : x.referenceSays ? 'equal' : 'differs',
    x.spellings
      .slice(0, 3)
      .map((s) => `${ans(s.answer)} ${s.correct}/${s.incorrect}`)
      .join(', '),
  ]);
  out.push(
    table([
      ['  problem', 'answer', 'correct', 'incorrect', 'reference', 'spellings (correct/incorrect)'],
      ...rows.map((r) => [`  ${r[0]}`, ...r.slice(1)]),
    ]),
  );
  return out;
}

/** The regrade section: per model, where the folder's verdict differs from answer equivalence with the reference. */
function regradeLines(rg: NonNullable<Report['regrade']>): string[] {
  const out = [
    '',
    `regrade: ${rg.disagreements} samples where the folder's verdict differs from the tool's (answer equivalent to the reference answer); the folder's verdicts are kept:`,
  ];
  out.push(
    table([
      [
        '  model',
        'samples',
        'compared',
        'agree',
        'folder ✓ tool ✗',
        'folder ✗ tool ✓',
        'no answer',
        'ungraded',
        'no reference',
      ],
      ...rg.models.map((m) => [
        `  ${safe(m.label)}`,
        String(m.samples),
        String(m.compared),
        String(m.agree),
        String(m.folderCorrectToolIncorrect),
        String(m.folderIncorrectToolCorrect),
        String(m.skipped.noAnswer),
        String(m.skipped.ungraded),
        String(m.skipped.noReference),
      ]),
    ]),
  );
  for (const m of rg.models.filter((x) => x.examples.length)) {
    out.push(`  ${safe(m.label)}, examples:`);
    for (const e of m.examples)
      out.push(
        `    ${safe(e.problem)} sample ${e.sampleIndex}: answer ${ans(e.answer)} reference ${ans(e.reference)}: folder ${e.folder ? 'correct' : 'incorrect'}, tool ${e.tool ? 'correct' : 'incorrect'} (${safe(e.file)}:${e.line})`,
      );
  }
  return out;
}

/** The PPL_base section of the table: quartiles per model, median ratio per comparison, skipped lines. */
function pplLines(p: PplReport, labels: Map<string, string>): string[] {
  const label = (id: string) => safe(labels.get(id) ?? id);
  const out = [`PPL_base (perplexity under the base model, from ${safe(p.source)}):`];
  const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
  out.push(
    table([
      ['model', 'samples', 'problems', 'correct', 'median', 'q1', 'q3', 'mean'],
      ...p.models.map((m) => [
        label(m.model),
        String(m.samples),
        String(m.problems),
        String(m.correct),
        num(m.median),
        num(m.q1),
        num(m.q3),
        num(m.mean),
      ]),
    ]),
  );
  for (const c of p.comparisons.filter((x) => x.medianRatio !== null))
    out.push(
      `  ${label(c.model)} vs ${label(c.base)}: median PPL_base ratio ${num(c.medianRatio)} (below 1: more likely under the base model than the base model's own samples)`,
    );
  if (p.skipped > 0) {
    out.push(
      `  ${p.skipped} sidecar line${p.skipped === 1 ? '' : 's'} skipped${p.diagnostics.length < p.skipped ? ` (first ${p.diagnostics.length} below)` : ':'}`,
    );
    for (const d of p.diagnostics) out.push(`    ${safe(diagnosticPlace(d))}: ${safe(d.message)}`);
  }
  return out;
}

/**
 * The training section of the table: one row per checkpoint (pass@1 and pass@K with intervals, its
 * base's pass@1 and pass@K, categories against the base, the share of positive gains from sharpening
 * with its interval and the gains in correct samples behind it, mean response length), then the
 * problems lost during training, solved only at late steps and flip-flopping, each with its denominator.
 * Steps are named by their label; bases by `labelOf` (display id -> the report's label; default: the id).
 */
export function trajectoryLines(t: Trajectory, labelOf: (id: string) => string = (id) => id): string[] {
  const k = t.k ?? 1;
  // a base with a smaller n than the series' k has a point over no problem there: `— (k > n)` (trial 8 finding 13)
  const at = (pts: Trajectory['steps'][number]['passAtK'], kk: number) =>
    passAtKCell(
      pts.find((x) => x.k === kk),
      pct,
      denominatorMark,
    );
  const ks = k > 1 ? [1, k] : [1];
  const bases = [...new Set(t.steps.map((s) => s.base))];
  const out = [
    `training: ${safe(t.name)} — ${t.steps.length} checkpoints${t.unit === 'epoch' ? ' numbered by epoch' : ''}, ${t.problems.length} problems; each step against its own base (categories and gain share over the problems both have graded samples for: "paired")`,
  ];
  out.push(
    table([
      [
        t.unit,
        'problems',
        'samples',
        'correct',
        'accuracy',
        ...ks.map((x) => `pass@${x}`),
        ...ks.map((x) => `base pass@${x}`),
        'paired',
        'sharpening',
        'expansion',
        'regression',
        'unchanged',
        'unsolved',
        'gain share sharpening',
        'gains S/E',
        'mean chars',
      ],
      ...t.steps.map((s) => {
        const g = s.positiveGainShare;
        return [
          String(s.step),
          s.missing > 0 ? `${s.problems}/${s.problems + s.missing}` : String(s.problems),
          String(s.samples),
          s.graded > 0 ? String(s.correct) : 'ungraded',
          pct(s.sampleAccuracy),
          ...ks.map((x) => at(s.passAtK, x)),
          ...ks.map((x) => at(s.basePassAtK, x)),
          String(s.pairedProblems),
          ...(['sharpening', 'expansion', 'regression', 'unchanged', 'unsolved'] as const).map((c) =>
            s.categories ? String(s.categories[c]) : '—',
          ),
          g ? `${pct(g.sharpening)} [${pct(g.ciLow)},${pct(g.ciHigh)}]` : '—',
          g ? `${fmtNum(g.gainFromSharpening)}/${fmtNum(g.gainFromExpansion)}` : '—',
          s.meanChars === null ? '—' : s.meanChars.toFixed(0),
        ];
      }),
    ]),
  );
  if (t.steps.some((s) => s.missing > 0 || [...s.passAtK, ...s.basePassAtK].some((p) => p.missing > 0 && !isAboveN(p))))
    out.push(
      "  (a/b): a step's figures over a of the series' b problems (a base's: of the step's own b, the problems the row is over); the warnings below say why",
    );
  if (t.steps.some((s) => [...s.passAtK, ...s.basePassAtK].some(isAboveN))) out.push(`  ${K_ABOVE_N_NOTE}`);
  // models named by label, as in the other tables (trial 8 finding 12)
  const base = (id: string | null | undefined) => safe(id === null || id === undefined ? 'none' : labelOf(id));
  if (bases.length === 1) out.push(`  base: ${base(bases[0])}`);
  else
    for (const s of t.steps)
      out.push(`  ${t.unit} ${s.step}: ${safe(s.label)} vs ${s.base === null ? 'no base' : base(s.base)}`);
  const last = t.steps[t.steps.length - 1]?.step;
  const n = t.problems.length;
  const lost = trajectoryFilter(t, 'lost').length;
  const late = trajectoryFilter(t, 'late').length;
  const flip = t.problems.filter((p) => p.pattern === 'flip-flop').length;
  out.push(
    `  of ${n} problems: ${lost} lost during training (solved at an earlier step, not at ${t.unit} ${last}); ${late} solved only at late steps (first solved at ${t.unit} ${t.lateFromStep} or later); ${flip} flip-flopping (solved, unsolved, solved again or the reverse)`,
  );
  return out;
}

const fmtNum = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

function table(rows: string[][]): string {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => (r[j] ?? '').length)));
  return rows
    .map((r) => r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '))
    .join('\n');
}

/** Header of {@link reportCsv}. */
export const CSV_HEADER =
  'model,label,metric,k,value,ci_low,ci_high,problems,missing,no_samples,ungraded,n_below_k,no_reward_score,level,series,step,scorer,base,not_in_base,not_in_model,dataset,datasets,partly_scored,base_label';

/**
 * CSV of every curve point, one row per (model, metric, k, level) ("long" format, ready for a data
 * frame): {@link CSV_HEADER}, with metric `pass@k` (bootstrap interval over problems), `best-of-k` and
 * `maj@k` (no interval; maj@k only with --maj-at-k); `level` empty for all problems, else one row per
 * difficulty level (pass@k). `problems` entered the mean; `missing` = the model's other problems, split
 * into `no_samples`, `ungraded` (no graded sample), `n_below_k` and `no_reward_score` (best-of-k), so
 * `problems + missing` is the model's number of problems (of that level). Empty cells are missing
 * values. With several scorers, per scorer (column `scorer`) `rm-pairwise-accuracy` (k empty),
 * `rm-best-of-n`, `rm-pass@n` and `rm-regret` at each N (k = N; problems = the problems every scorer scored
 * with at least N samples), and per N `rm-spearman` and `rm-kendall-tau-b` with their bootstrap interval
 * (scorer empty); on these rows too `problems + missing` is the model's number of problems, split into
 * `no_samples`, `ungraded`, `n_below_k`, `no_reward_score` (= no reward score on any graded sample of the
 * problem) and, last column, `partly_scored` (= a reward score on some graded samples only, or from some scorers
 * only: trial 12 finding 20; empty on other rows); reward-model strata are in the JSON. Then one block of rows per checkpoint of each training series (`series` and `step` set,
 * `model` = the checkpoint): `sample-accuracy` (problems = problems with graded samples), `pass@k` and
 * `base-pass@k` at k = 1 and the series' largest k (with their denominators: a step's `problems + missing`
 * = the series' problems, `not_in_model` = those this checkpoint has no record of; a base's = the step's own
 * problems with a graded sample at the step, `not_in_base` = those the base has no record of, and its `datasets`
 * the base's among them), `category:<name>` (value = problems; problems =
 * paired problems), `positive-gain-share:sharpening` and `:expansion` (with the bootstrap interval;
 * problems = paired problems), `gain:sharpening` and `gain:expansion` (correct samples), `mean-chars`.
 * Then per comparison (`base` set, `model` = the compared model): `pass@k-diff` (model − base, paired
 * bootstrap interval) per k and `crossover-k` (value empty when there is none; k = the largest k searched),
 * with the comparison's denominator: `problems + missing` = the problems of the two models, `not_in_base`
 * and `not_in_model` (only the base has a record of it) beside the model's own reasons.
 * Then one row per model in no comparison (JSON `notCompared`): metric `not-compared:<kind>` (`modelUngraded`,
 * `baseUngraded`, `noCommonProblem`, `seedSibling`, `baseOfNone`, `baseCopyOfNone`, `noBaseInFolder`, `noBase`), `problems` = its problems with a
 * graded sample, `base` = the base it would be compared with (empty without one), other figures empty.
 * `base_label`, the last column, names the `base` of a row by its label, as `label` names its `model` (trial 12
 * finding 22: the base was named by its id only); empty where `base` is.
 * Per-problem trajectories and coverage counts are in the JSON report.
 */
export function reportCsv(r: Report): string {
  const q = csvCell;
  const lines = [CSV_HEADER];
  /** Reward-model lines (by index in `lines`): their `partly_scored` cell (empty on every other line). */
  const partlyOfLine = new Map<number, number>();
  /** Lines (by index in `lines`) whose `datasets` cell is not their model's: a base's rows in a training step. */
  const datasetsOfLine = new Map<number, readonly { dataset: string; problems: number }[]>();
  /** Lines (by index in `lines`) with a `base`: that base's id, named by its label in `base_label`. */
  const baseOfLine = new Map<number, string>();
  const row = (
    m: { id: string; label: string },
    level: string,
    metric: string,
    p: {
      k: number;
      value: number | null;
      ciLow?: number | null;
      ciHigh?: number | null;
    } & Denominator,
  ) =>
    lines.push(
      [
        q(m.id),
        q(m.label),
        metric,
        p.k,
        p.value ?? '',
        p.ciLow ?? '',
        p.ciHigh ?? '',
        p.problems,
        p.missing,
        p.leftOut.noSamples,
        p.leftOut.ungraded,
        p.leftOut.belowK,
        p.leftOut.noScore ?? '',
        q(level),
        '',
        '',
        '',
        '',
        '',
        '',
      ].join(','),
    );
  // A model (or model x dataset) without a graded sample has no pass@k curve: one pass@k row at k = 1 with
  // no value still names it, its problems all `missing` with their reasons (trial 12 finding 9), so every
  // model x dataset pair is in the CSV.
  const curve = (points: readonly PassAtKPoint[], total: number, leftOut: { noSamples: number; ungraded: number }) =>
    points.length > 0
      ? points
      : [
          {
            k: 1,
            value: null,
            ciLow: null,
            ciHigh: null,
            problems: 0,
            missing: total,
            leftOut: { ...leftOut, belowK: 0 },
          },
        ];
  for (const m of r.models) {
    for (const p of curve(m.passAtK, m.problems, m.leftOut)) row(m, '', 'pass@k', p);
    for (const p of m.bestOfK) row(m, '', 'best-of-k', p);
    for (const p of m.majAtK ?? []) row(m, '', 'maj@k', p);
    for (const s of r.strata.filter((x) => x.model === m.id)) for (const p of s.passAtK) row(m, s.level, 'pass@k', p);
  }
  // rows written so far and below pool every dataset; the per-dataset rows name theirs
  const byDataset: string[] = [];
  for (const m of r.models)
    for (const d of r.perDataset.filter((x) => x.model === m.id)) {
      const at = lines.length;
      for (const p of curve(d.passAtK, d.problems, d.leftOut)) row(m, '', 'pass@k', p);
      byDataset.push(...lines.splice(at).map((l) => `${l},${q(d.dataset)},${q(`${d.dataset}:${d.problems}`)},`));
    }
  for (const c of r.comparisons) {
    const crow = (
      metric: string,
      k: number,
      value: number | null,
      ci: [number | null, number | null],
      d: Denominator,
    ) => {
      lines.push(
        [
          q(c.model),
          q(r.models.find((m) => m.id === c.model)?.label ?? c.model),
          metric,
          k,
          value ?? '',
          ci[0] ?? '',
          ci[1] ?? '',
          d.problems,
          d.missing,
          d.leftOut.noSamples,
          d.leftOut.ungraded,
          d.leftOut.belowK,
          '',
          '',
          '',
          '',
          '',
          q(c.base),
          d.leftOut.notInBase ?? 0,
          d.leftOut.notInModel ?? 0,
        ].join(','),
      );
      baseOfLine.set(lines.length - 1, c.base);
    };
    for (const d of c.passAtKDiff) crow('pass@k-diff', d.k, d.diff, [d.ciLow, d.ciHigh], d);
    const iv = c.crossoverInterval;
    crow('crossover-k', c.crossoverKMax, c.crossoverK, [iv?.low ?? null, iv?.high ?? null], {
      problems: c.problems,
      missing: c.missing,
      leftOut: c.leftOut,
    });
  }
  // every model in no comparison, so the CSV names all the folder's models (trial 7): metric
  // `not-compared:<kind>` (JSON notCompared[].kind), problems = its graded problems, base = the base it would
  // be compared with (empty without one); the reason in words is in the JSON and the warnings
  // `dataset`, `datasets`, `partly_scored`, `base_label` are added to every line below
  const columns = CSV_HEADER.split(',').slice(0, -4);
  for (const x of r.notCompared) {
    const cells: Record<string, string | number> = {
      model: q(x.model),
      label: q(r.models.find((m) => m.id === x.model)?.label ?? x.model),
      metric: `not-compared:${x.kind}`,
      problems: x.graded.model,
      base: q(x.base ?? ''),
    };
    lines.push(columns.map((c) => cells[c] ?? '').join(','));
    if (x.base) baseOfLine.set(lines.length - 1, x.base);
  }
  for (const t of r.trajectories) {
    for (const s of t.steps) {
      const row = (
        metric: string,
        k: number | '',
        value: number | null,
        problems: number,
        ci?: { low: number | null; high: number | null },
        d?: Pick<Denominator, 'missing' | 'leftOut'>,
      ) =>
        lines.push(
          [
            q(s.model),
            q(s.label),
            metric,
            k,
            value ?? '',
            ci?.low ?? '',
            ci?.high ?? '',
            problems,
            d?.missing ?? '',
            d?.leftOut.noSamples ?? '',
            d?.leftOut.ungraded ?? '',
            d?.leftOut.belowK ?? '',
            '',
            '',
            q(t.name),
            s.step,
            '',
            '',
            d?.leftOut.notInBase ?? '',
            d?.leftOut.notInStep ?? '',
          ].join(','),
        );
      row('sample-accuracy', '', s.sampleAccuracy, s.problems, undefined, s);
      for (const p of s.passAtK) row('pass@k', p.k, p.value, p.problems, { low: p.ciLow, high: p.ciHigh }, p);
      for (const p of s.basePassAtK) {
        row('base-pass@k', p.k, p.value, p.problems, { low: p.ciLow, high: p.ciHigh }, p);
        // the base's own problems per dataset among the step's, not the checkpoint's (trial 12 finding 13)
        datasetsOfLine.set(lines.length - 1, s.baseDatasets);
      }
      if (s.categories)
        for (const [c, v] of Object.entries(s.categories)) row(`category:${c}`, '', v, s.pairedProblems);
      const g = s.positiveGainShare;
      if (g) {
        row('positive-gain-share:sharpening', '', g.sharpening, g.problems, { low: g.ciLow, high: g.ciHigh });
        row('positive-gain-share:expansion', '', g.expansion, g.problems, {
          low: g.ciHigh === null ? null : 1 - g.ciHigh,
          high: g.ciLow === null ? null : 1 - g.ciLow,
        });
        row('gain:sharpening', '', g.gainFromSharpening, g.problems);
        row('gain:expansion', '', g.gainFromExpansion, g.problems);
      }
      row('mean-chars', '', s.meanChars, s.problems);
    }
  }
  // Reward models: one row per scorer and metric (and N), correlations per N with the scorer cell empty.
  const models = new Map(r.models.map((m) => [m.id, m.label]));
  for (const rm of r.rewardModels ? [r.rewardModels, ...(r.rewardModels.otherModels ?? [])] : []) {
    const cells = (
      metric: string,
      k: number | '',
      value: number | null,
      lo: number | null | '',
      hi: number | null | '',
      problems: number,
      belowN: number,
      scorer: string,
    ) => {
      const missing = rm.total - problems;
      lines.push(
        [
          q(rm.model),
          q(models.get(rm.model) ?? rm.model),
          metric,
          k,
          value ?? '',
          lo ?? '',
          hi ?? '',
          problems,
          missing,
          // no_samples, ungraded, n_below_k, no_reward_score (here: no reward score on any graded sample; a
          // problem scored on some samples only is in partly_scored, the last column: trial 12 finding 20), level,
          // series, step
          rm.leftOut.noSamples,
          rm.leftOut.noGradedSample,
          belowN,
          rm.leftOut.incompleteScores - (rm.leftOut.partlyScored ?? 0),
          '',
          '',
          '',
          q(scorer),
          '',
          '',
          '',
        ].join(','),
      );
      partlyOfLine.set(lines.length - 1, rm.leftOut.partlyScored ?? 0);
    };
    for (const s of rm.scorers) {
      cells('rm-pairwise-accuracy', '', s.pairwiseAccuracy, '', '', rm.problems, 0, s.name);
      for (const b of s.bestOfN) {
        cells('rm-best-of-n', b.n, b.value, '', '', b.problems, b.belowN, s.name);
        cells('rm-pass@n', b.n, b.passAtN, '', '', b.problems, b.belowN, s.name);
        cells('rm-regret', b.n, b.regret, '', '', b.problems, b.belowN, s.name);
      }
    }
    for (const c of rm.correlations) {
      cells('rm-spearman', c.n, c.spearman, c.ciLow, c.ciHigh, rm.problems, 0, '');
      cells('rm-kendall-tau-b', c.n, c.kendall, c.kendallCiLow, c.kendallCiHigh, rm.problems, 0, '');
    }
  }
  // the dataset columns: a folder with one dataset names it; with several, the pooled rows say so
  const pooled = r.datasets.length > 1 ? ALL_DATASETS : (r.datasets[0]?.dataset ?? '');
  // the problems per dataset a pooled row is over: its model's (a comparison: the compared model's), else the folder's
  const counts = (list: readonly { dataset: string; problems: number }[]) =>
    q(list.map((d) => `${d.dataset}:${d.problems}`).join(';'));
  const byModel = r.models.map((m) => [`${q(m.id)},`, counts(m.datasets)] as const);
  const ofLine = (l: string, i: number) => {
    const own = datasetsOfLine.get(i);
    if (own) return counts(own);
    return byModel.find(([head]) => l.startsWith(head))?.[1] ?? counts(r.datasets);
  };
  const labelOf = new Map(r.models.map((m) => [m.id, m.label]));
  const baseLabel = (i: number) => {
    const b = baseOfLine.get(i);
    return b === undefined ? '' : q(labelOf.get(b) ?? b);
  };
  return [
    lines[0],
    ...lines
      .slice(1)
      .map((l, i) => `${l},${q(pooled)},${ofLine(l, i + 1)},${partlyOfLine.get(i + 1) ?? ''},${baseLabel(i + 1)}`),
    // per-dataset model rows: no partly_scored, no base
    ...byDataset.map((l) => `${l},`),
  ].join('\n');
}

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
   * Samples of the models and verdict searched that are not in the full-text index yet (its build was left
   * for later or stopped, or a file changed since it was indexed): not looked through, so the counts above may
   * be short by matches among them. 0 when the full-text index is complete.
   */
  notSearched: number;
  /** How far the full-text index is built: `indexed` of `samples` (core `searchIndexStatus`). */
  searchIndex: SearchIndexStatus;
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
  const notSearched = unsearchedSamples(index, filter);
  const searched: SearchScope = {
    models: picked.map((m) => ({ model: m.displayId, modelLabel: m.label })),
    // the samples looked through: those in the full-text index
    samples: counts.samples - notSearched,
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
    notSearched,
    searchIndex: searchIndexStatus(index),
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
    const w = unreadableWarning(m.label, index.recordsWithSamplesLost(m.id));
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
  if (r.notSearched > 0)
    out.push(
      `${searchIndexLine(r.searchIndex)}: ${plural(r.notSearched, `${verdict}sample`)} of the models searched not looked through (trace-inspector index builds the rest)`,
    );
  const apart = r.matches.filter((m) => !m.asTyped).length;
  if (!r.asTyped && apart > 0) {
    out.push(
      `${apart} of the ${r.matches.length} shown hold the query's words apart or in another order, not as typed (the index keeps no positions); --as-typed keeps only the samples holding it as typed`,
    );
  }
  return out;
}

/** How far the full-text index is built: `search index: 40% (409600 of 1024000 samples)`. */
function searchIndexLine(st: SearchIndexStatus): string {
  return `search index: ${searchIndexPercent(st)} (${st.indexed} of ${plural(st.samples, 'sample')})`;
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
    .description(
      'index every supported results file under <folder> into SQLite (incremental), then build the full-text index of the sample texts',
    )
    .argument('<folder>', 'results folder')
    .option(
      '--no-search-index',
      'stop once the figures are ready: leave the full-text index to a later index or search (searches meanwhile count the samples they could not look through)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (folder: string, opts: IndexCliOptions & { format: string }) => {
      const { index, summary, search } = await runIndex(folder, opts, true);
      const searchStatus = search ?? searchIndexStatus(index);
      index.close();
      // nothing indexed (no results file, or none with a readable sample): a failure, not an empty success
      if (summary.samples === 0) process.exitCode = 1;
      if (opts.format === 'json') {
        process.stdout.write(
          `${terminalJson({ filesIndexed: summary.filesIndexed, filesSkipped: summary.filesSkipped, filesRemoved: summary.filesRemoved, samples: summary.samples, searchIndex: { samples: searchStatus.samples, indexed: searchStatus.indexed }, annotationsOfChangedFiles: summary.annotationsOfChangedFiles, diagnostics: summary.diagnostics }, 2)}\n`,
        );
      } else {
        process.stdout.write(
          `indexed ${summary.filesIndexed} files, skipped ${summary.filesSkipped} unchanged, removed ${summary.filesRemoved}; ${summary.samples} samples in the index\n`,
        );
        if (searchStatus.indexed < searchStatus.samples) process.stdout.write(`${searchIndexLine(searchStatus)}\n`);
        if (summary.diagnostics.length) process.stdout.write(`${formatDiagnostics(summary.diagnostics)}\n`);
      }
    });

  addSplitsOptions(cmd.command('report'))
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
        } & SplitsCliOptions,
      ) => {
        const { abs, index, summary } = await runIndex(folder, opts);
        try {
          if (summary.samples === 0) {
            // runIndex said why on stderr; an empty table on stdout would read as a result.
            if (summary.diagnostics.length) process.stderr.write(`${formatDiagnostics(summary.diagnostics)}\n`);
            process.exitCode = 1;
            return;
          }
          if (opts.splits) {
            process.stdout.write(`${splitsOutput(index, opts, opts.format)}\n`);
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
      '--no-search-index',
      'do not build the rest of the full-text index first: search what it holds, and count the samples not looked through',
    )
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
        const { index } = await runIndex(folder, opts, true);
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
