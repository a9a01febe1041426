import { Command, InvalidArgumentError, Option } from 'commander';
import { auditFolderChecked } from '../../core/analyses/summaryAudit';
import { FORMAT_IDS, type FormatId } from '../../core/model';
import { readPplSidecar } from '../../core/similarity/ppl';
import { buildReportAsync, reportCsv, reportLatex, reportMarkdown, reportTable } from '../../core/report/index';
import { compileStepPattern } from '../../core/grouping/series';
import { terminalJson } from '../output';
import { addSplitsOptions, checkSplitsOptions, type SplitsCliOptions, splitsOutput } from '../splits';
import {
  erroredSamplesOption,
  integerOption,
  type IndexCliOptions,
  MAPPING_HELP,
  parseMappingFile,
  parseScorer,
  parseThreshold,
  runIndex,
  SCORER_HELP,
  THRESHOLD_HELP,
  stopWithoutSamples,
} from '../indexing';

/**
 * `--k 1,8,64`: positive integers, each once, in increasing order.
 * @throws InvalidArgumentError otherwise.
 */
export function parseKs(v: string): number[] {
  const ks = v.split(',').map((x) => x.trim());
  if (ks.length === 0 || !ks.every((x) => /^[1-9]\d{0,8}$/.test(x)))
    throw new InvalidArgumentError('ks as positive integers separated by commas (1,8,64)');
  return [...new Set(ks.map(Number))].sort((a, b) => a - b);
}

/** The `report` command: index a folder (incrementally) and print its report as a table, JSON or CSV. */
export function addReportCommand(cmd: Command): void {
  addSplitsOptions(cmd.command('report'))
    .description(
      'index <folder> (incrementally) and report pass@k, best-of-k, coverage, crossover k, categories, audit and grader audit',
    )
    .argument('<folder>', 'results folder')
    .option('--db <file>', 'index database (default: a per-user cache file for this folder)')
    .option('--base <text>', 'base model: a substring of its id or label (default: guessed from names)')
    .addOption(
      new Option(
        '--format <format>',
        'output format (markdown, latex: the pass@k and comparison tables for a paper, latex in booktabs style)',
      )
        .choices(['table', 'json', 'csv', 'markdown', 'latex'])
        .default('table'),
    )
    .option(
      '--k <list>',
      'markdown, latex: the ks of the pass@k columns, comma-separated (1,8,64; default every k of the text table)',
      parseKs,
    )
    .option('--replicates <n>', 'bootstrap replicates', integerOption(100))
    .option('--seed <n>', 'bootstrap seed', integerOption())
    .option(
      '--maj-at-k [draws]',
      'add maj@k curves (majority vote over extracted answers), exact at every k; [draws] is accepted for scripts written for earlier versions (which estimated large k by Monte Carlo) and not used',
      integerOption(100),
    )
    .option(
      '--regrade',
      "list where the folder's verdicts differ from the tool's answer equivalence with the reference answer (per model, with examples); verdicts are not changed",
    )
    .option(
      '--markers',
      'add lengths and reasoning-marker counts per 1,000 tokens per model and checkpoint, correct vs incorrect samples, and their within-problem association with correctness (docs/reasoning-markers.md)',
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
      integerOption(2),
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
          k?: number[];
          replicates?: number;
          seed?: number;
          majAtK?: true | number;
          regrade?: boolean;
          markers?: boolean;
          toolGrading?: boolean;
          inputFormat?: FormatId;
          stepPattern?: string;
          scorer?: string;
          mapping?: string;
          quiet?: boolean;
        } & SplitsCliOptions,
      ) => {
        checkSplitsOptions(opts);
        if (opts.k && opts.format !== 'markdown' && opts.format !== 'latex')
          throw new Error('--k chooses the pass@k columns of --format markdown or latex');
        if (opts.splits && (opts.format === 'markdown' || opts.format === 'latex'))
          throw new Error(
            `--format ${opts.format} writes the pass@k and comparison tables; with --splits use table, json or csv`,
          );
        const { abs, index, summary } = await runIndex(folder, opts);
        try {
          if (stopWithoutSamples(summary)) return;
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
            markers: !!opts.markers,
            toolGrading: !!opts.toolGrading,
            ppl: readPplSidecar(abs, index),
            stepPattern: opts.stepPattern,
            paths: opts.paths === undefined ? undefined : opts.paths === true ? true : { maxTextSamples: opts.paths },
          });
          if (opts.format === 'json') process.stdout.write(`${terminalJson(report, 2)}\n`);
          else if (opts.format === 'csv') process.stdout.write(`${reportCsv(report)}\n`);
          else if (opts.format === 'markdown') process.stdout.write(`${reportMarkdown(report, { ks: opts.k })}\n`);
          else if (opts.format === 'latex') process.stdout.write(`${reportLatex(report, { ks: opts.k })}\n`);
          else process.stdout.write(`${reportTable(report)}\n`);
        } finally {
          index.close();
        }
      },
    );
}
