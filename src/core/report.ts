import { type Diagnostic, diagnosticPlace } from './model';
import { type AuditEntry, type AuditResult, auditRules, notAuditedDiagnostics } from './audit';
import { type GraderAudit, graderAudit, type Regrade, regrade, toolVerdicts, toolVerdict } from './graderAudit';
import {
  accuracyHistogram,
  bestOfKCurve,
  bootstrapPassAtKCurve,
  categoriesWithinNoise,
  categoryCounts,
  coverage,
  crossoverBootstrap,
  crossoverK,
  intervalHoldsZero,
  kGrid,
  majAtKCurve,
  pairedBootstrapDiff,
  twoLevelPairedDiffAt1,
  type CategoryCounts,
  type CoverageCounts,
  type CrossoverInterval,
  type DifferenceCategory,
  type CurveCIPoint,
  type HistogramBin,
  type MajAtKPoint,
  type ProblemPair,
} from './metrics';
import {
  type Denominator,
  type LeftOut,
  type ProblemSet,
  denominator,
  describeDenominator,
  nameProblems,
  problemSet,
} from './denominators';
import { basePoolMessage, comparisonPairing, pooledBaseRows, withoutPooledReplicates } from './basePools';
import { areSeedSiblings, seedSiblingMessage, seedSiblings, shortStepGroups, shortStepMessage } from './seeds';
import {
  ambiguousBaseNote,
  benchmarkWithoutBase,
  crossFamilyNote,
  baseGuessNote,
  guessBaseModel,
  pickModel,
  samplingTemperature,
} from './index/labels';
import type { ModelRow, StatRow, TraceIndex } from './index/traceIndex';
import { DEFAULT_MAX_TEXT_SAMPLES, type PathContext, pathContext, type PathSummary, pathSummary } from './pathSummary';
import { type PplRead, type PplReport, pplReport } from './ppl';
import { type RewardModelsReport, rewardModelsReport } from './rewardReport';
import { nearSubstring } from './readers/util';
import { answerKey } from './answers/equivalence';
import { hasReference } from './answers/reference';
import { plural } from './text';
import { type DatasetCount, datasetByProblem, datasetCounts, datasetName, problemNamer } from './datasets';
import { computeTrajectories, reportTrajectory, type Trajectory } from './trajectories';
import { type ModelSamples, type SampleScan, answersByProblem, scanSamples, scoredByProblem } from './sampleScan';

/**
 * A pass@k point with its bootstrap interval over problems (null where no problem has n >= k).
 * `problems` entered the mean; `missing` = every other problem of the model (of the level), by
 * reason in `leftOut` (see denominators.ts): `problems + missing` is the model's number of problems.
 */
export type PassAtKPoint = Omit<CurveCIPoint, 'missing'> & Denominator;

/** A best-of-k point: mean over the problems with at least k samples with a reward score and a verdict. */
export type BestOfKReportPoint = { k: number; value: number | null } & Denominator;

/** A maj@k point (see metrics/majority.ts) with the model's denominator. */
export type MajAtKReportPoint = Omit<MajAtKPoint, 'missing'> & Denominator;

export interface ModelReport {
  /** `run:name@revision`. */
  id: string;
  label: string;
  run: string;
  /**
   * What gave the model's verdicts when the format has a choice (an Inspect log's `scorer "match"`);
   * null for formats with one verdict field. Comparisons of models graded differently say so.
   */
  grader: string | null;
  /**
   * Some of the model's samples come from a file whose indexing did not finish (a cancelled or
   * interrupted pass): its figures cover only part of that file.
   */
  partial: boolean;
  /** Every problem the model has a record of, with or without samples: the whole of each figure's denominator. */
  problems: number;
  /** Those problems by dataset (dataset order): what a figure of the model pools when there are several. */
  datasets: DatasetCount[];
  /** Of those, the problems without samples and with samples but no graded one (left out of every figure). */
  leftOut: Pick<LeftOut, 'noSamples' | 'ungraded'>;
  samples: number;
  /** Of `samples`, those without a verdict (left out of every figure; `samples - ungradedSamples` is pass@k's n summed). */
  ungradedSamples: number;
  correct: number;
  /** correct / samples over graded samples. */
  sampleAccuracy: number | null;
  passAtK: PassAtKPoint[];
  /** Best-of-k by reward score; empty when no sample of the model carries a reward score. */
  bestOfK: BestOfKReportPoint[];
  /**
   * maj@k (majority vote over extracted answers) at k = 1, 2, 4, ..., n; only when the report was asked
   * for it ({@link ReportOptions.majAtK}) and the model has extracted answers, else absent.
   */
  majAtK?: MajAtKReportPoint[];
  histogram: HistogramBin[];
}

export interface ComparisonReport {
  base: string;
  model: string;
  /** Problems both models have graded samples for (what every figure of the comparison is over). */
  problems: number;
  /**
   * The other problems either model has a record of, by reason: the model's own (`noSamples`,
   * `ungraded`, `notInBase`: the base has no graded sample of it) and the base's that the model has no
   * record of (`notInModel`). `problems + missing` = the problems of the two models together.
   */
  missing: number;
  leftOut: LeftOut;
  coverage: CoverageCounts;
  /**
   * Smallest k at which the model trailing at k = 1 is ahead or level before saturation (metrics
   * `crossoverK`); null if never, or when the two are level only at saturation (then `saturationK`).
   */
  crossoverK: number | null;
  /**
   * At `crossoverK`: `ahead` (the trailing model strictly ahead) or `level` (equal within 1e-12: Yue et
   * al.'s definition counts it, base >= RL, but nothing overtook); null when `crossoverK` is null.
   */
  crossoverKind: 'ahead' | 'level' | null;
  /** Smallest k >= crossoverK, before saturation, at which the trailing model is strictly ahead; null if never. */
  crossoverAheadK: number | null;
  /**
   * The largest k the crossover was searched at (metrics `crossoverKLimit`): the smallest n over the
   * compared problems, so that every k is over all `problems` (the crossover's denominator is the
   * comparison's). Beyond it problems with n < k would drop out and could fake a crossover.
   */
  crossoverKMax: number;
  /** The largest min(base n, model n) over the compared problems: `crossoverKMax` below it means the search stopped early. */
  crossoverKMaxRagged: number;
  /** Smallest k from which both are within 1e-9 of their common maximum ("tie at saturation from k = K"); null if never. */
  saturationK: number | null;
  /**
   * Bootstrap interval of the crossover k over problems (2.5th-97.5th percentiles among replicates with
   * one, and the share with none; metrics `crossoverBootstrap`); null when the two tie at k = 1.
   */
  crossoverInterval: CrossoverInterval | null;
  leaderAtK1: 'base' | 'model' | 'tie';
  /** The paired bootstrap interval of model - base pass@1 contains 0: who leads at k = 1 is within noise. */
  leaderAtK1WithinNoise: boolean;
  categories: CategoryCounts;
  /** Of `categories`' difference categories, the problems decided within noise (overlapping 95% Jeffreys intervals). */
  categoriesWithinNoise: Record<DifferenceCategory, number>;
  /**
   * The graders of the two models when both are known and differ (an Inspect log scored by
   * `model_graded_fact` against one scored by `match`): the comparison sets two verdict rules side by
   * side, and the report's warnings say so. Null when they agree or either is unknown.
   */
  differentGraders: { base: string; model: string } | null;
  /** Paired bootstrap of model - base pass@k on the shared problems where both have n >= k. */
  passAtKDiff: ({ k: number; diff: number | null; ciLow: number | null; ciHigh: number | null } & Denominator)[];
}

/**
 * One model's figures over the problems of one dataset (a folder with several datasets: math500 and
 * aime24 per checkpoint). The model's own figures ({@link ModelReport}) pool every dataset.
 */
export interface DatasetModelReport {
  model: string;
  dataset: string;
  /** Every problem of the model in this dataset (the denominator's whole). */
  problems: number;
  samples: number;
  ungradedSamples: number;
  correct: number;
  /** correct / graded samples of this dataset; null without a graded sample. */
  sampleAccuracy: number | null;
  /** Empty when the model has no graded sample on this dataset: `leftOut` then says why (trial 12 finding 9). */
  passAtK: PassAtKPoint[];
  /** This dataset's problems left out of every figure: with no samples, with no graded sample. */
  leftOut: { noSamples: number; ungraded: number };
}

/** A model in no comparison and why ({@link Report.notCompared}, {@link notComparedModels}). */
export interface NotComparedEntry {
  /** Display id of the model. */
  model: string;
  /** Display id of the base it would be compared with; null when it has none. */
  base: string | null;
  kind: NotComparedKind;
  /** Problems with at least one graded sample: the model's and its base's (0 without a base). */
  graded: { model: number; base: number };
  /** Display ids of the models it is the base of (kind `baseOfNone`), none of them compared; else empty. */
  against: string[];
  /** Kind `noBaseInFolder`: the model's benchmark folder, where no copy of its base was evaluated (trial 12 finding 11). */
  folder?: string;
  /**
   * The reason as text, models named by label as in the report's tables and its `NOT COMPARED` warning
   * ({@link notComparedReason}); `model`, `base` and `against` give their display ids.
   */
  reason: string;
}

export interface StratumReport {
  model: string;
  level: string;
  /** Every problem of the model at this level (the denominator's whole). */
  problems: number;
  passAtK: PassAtKPoint[];
}

/** The report of the CLI's `report` command and the overview webview (JSON, schemaVersion 1). */
export interface Report {
  schemaVersion: 1;
  /** Display id of the base model, or null when the folder has no model or only seeds of one model (seed siblings: never each other's base). */
  base: string | null;
  /** How the base model was chosen. */
  baseSource: 'option' | 'guess' | 'none';
  /**
   * Every dataset of the folder with its problem count (dataset order). With more than one, every figure
   * of `models`, `comparisons`, `trajectories` pools them, and `perDataset` gives each model's figures per dataset.
   */
  datasets: DatasetCount[];
  models: ModelReport[];
  /** With more than one dataset: per model and dataset, its figures over that dataset's problems; else empty. */
  perDataset: DatasetModelReport[];
  comparisons: ComparisonReport[];
  /**
   * Every model of a folder with two or more models that is in no comparison (neither compared nor the
   * base of a comparison), with its would-be base (display id, null when it has none) and why (trial 7
   * finding 5): no graded problem in common with its base, a base or model without a graded sample, a seed
   * sibling of its base, no base at all. The warnings say the same.
   */
  notCompared: NotComparedEntry[];
  strata: StratumReport[];
  /**
   * Per model whose folder has levels: its problems without a level, which are in no level's figures
   * (`problems` of them, of the model's `total`, the first few named); empty when every problem has one.
   */
  noLevel: { model: string; problems: number; total: number; named: string[] }[];
  audit: AuditEntry[];
  /** With audit entries: what the audit recomputed for each kind of figure listed (src/core/audit.ts `auditRules`). */
  auditRules?: string;
  /**
   * When the folder holds summary files the audit checked: how many figures in how many files it compared
   * (agreeing or not), so that an empty `audit` reads "checked and agrees", not "not checked" (trial 12 finding
   * 5). Files it did not understand are info diagnostics `summary file not audited: ...`.
   */
  auditChecked?: { files: number; figures: number };
  /**
   * The grader audit: groups of equivalent answers of one problem whose samples the folder graded
   * differently (`src/core/graderAudit.ts`).
   */
  graderAudit: GraderAudit;
  /** With {@link ReportOptions.regrade}: where the folder's verdicts differ from answer equivalence with the reference. */
  regrade?: Regrade;
  /**
   * Who graded the samples the figures use. `folder`: only the folder's verdicts. `folder and tool`
   * ({@link ReportOptions.toolGrading}): samples without a verdict that have an answer and a reference
   * were graded by the tool (answer equivalent to the reference); `toolGraded` of them, `toolCorrect` correct.
   */
  grading: { by: 'folder' | 'folder and tool'; toolGraded: number; toolCorrect: number };
  /** How maj@k decides whether the winning answer is correct (present with maj@k). */
  majAtKRule?: string;
  /**
   * Reward models (several scorers on the same samples): for the model whose samples carry the most
   * scorers, each scorer's pairwise accuracy and best-of-N with pass@N and regret, and the rank
   * correlations between the two across scorers (src/core/rewardReport.ts); `otherModels` holds the
   * same for other scored models. Absent when no sample has a score.
   */
  rewardModels?: RewardModelsReport & { unattachedScores: number; otherModels?: RewardModelsReport[] };
  /**
   * PPL_base per model and per comparison, when the folder carries a base-model log-probability sidecar
   * (src/core/ppl.ts); absent otherwise.
   */
  ppl?: PplReport;
  /**
   * Training dynamics: one entry per checkpoint series (models of one run at several steps, see
   * src/core/trajectories.ts), each step against its own base; empty when the folder has none.
   */
  trajectories: Trajectory[];
  /**
   * Per compared model: share of correct samples whose computation path is in the base, and the
   * boilerplate-discounted text measures with their baselines (src/core/pathSummary.ts); with `paths` only.
   */
  paths?: PathSummary[];
  diagnostics: Diagnostic[];
  /** Notes for the reader, e.g. ragged n between compared models. */
  warnings: string[];
}

/**
 * The rule of maj@k, as the report states it: which samples vote, how the winner is judged, which
 * problems count (trial 5 finding 5: maj@1 75.0 beside pass@1 50.0 on one problem, unexplained). Self-
 * consistency (Wang et al. 2022; metrics.md) votes on final answers and judges the majority answer
 * against the gold answer: so every sample of a problem votes, graded or not, and the reference answer
 * decides wherever the problem has one, with or without --tool-grading.
 */
export const MAJ_AT_K_RULE =
  "every sample of a problem votes (n = all its samples, with or without a verdict; a sample without an extracted answer never wins), answers grouped by answer equivalence; the winning answer is correct when it equals the problem's reference answer (the folder's verdicts are then not used), and only a problem without a reference answer is judged by the majority verdict of the winning group's graded samples (half credit when they are half correct); ties split the credit; over the problems with samples and a reference answer or a graded sample. pass@k counts only graded samples and the folder's verdicts: maj@1 equals pass@1 only when every sample is graded and every verdict agrees with the reference answer";

export interface ReportOptions {
  /** Substring of the base model's id or label; guessed from names when absent. */
  base?: string;
  /** Bootstrap replicates (default 2000) and seed (default 12345). */
  replicates?: number;
  seed?: number;
  /** Audit entries, computed by the caller ({@link auditFolder}) because it reads the folder. */
  audit?: AuditEntry[];
  /**
   * What the audit checked (audit.ts `auditFolderChecked`): the summary files with figures compared, and the
   * ones it did not understand (each becomes an info diagnostic; trial 12 finding 5).
   */
  auditChecked?: Pick<AuditResult, 'checked' | 'notChecked'>;
  /** The folder's log-probability sidecar, read by the caller ({@link readPplSidecar}) because it reads the folder. */
  ppl?: PplRead;
  /**
   * Adds maj@k curves (exact at every k: metrics `majAtKCurve`). Off by default: it reads every sample's
   * extracted answer once more, O(samples) per model plus O(distinct answers) per problem and k.
   */
  majAtK?: boolean;
  /** Adds {@link Report.regrade} (every sample's verdict against answer equivalence with the reference). */
  regrade?: boolean;
  /**
   * Grades the samples that have no verdict but an extracted answer and a reference answer by answer
   * equivalence (the tool's grading, opt-in; stated in {@link Report.grading}). Verdicts the folder
   * has are never replaced.
   */
  toolGrading?: boolean;
  /**
   * Adds {@link Report.paths} (computation paths and weighted text similarity per compared model).
   * Off by default: it reads every sample text; the text measures are exact over pairs of the first
   * `maxTextSamples` samples (default 64) per model and problem.
   */
  paths?: boolean | { maxTextSamples?: number };
  /** Step pattern of checkpoint series (regular expression source); absent: the built-in one (src/core/series.ts). */
  stepPattern?: string;
}

/**
 * Builds the full report from the index: per model pass@k curves at k = 1, 2, 4, ..., n with
 * bootstrap intervals over problems (seeded: identical on every run), best-of-k by reward score,
 * accuracy histograms; per non-base model the comparison with the base model on shared problems
 * (coverage, crossover k, categories, paired bootstrap difference); per model and difficulty level
 * the stratified pass@k; per checkpoint series the training trajectories (src/core/trajectories.ts).
 * Formulas and sources: see `src/core/metrics`.
 * @throws Error when `options.base` matches no model or several, or on an invalid `stepPattern`.
 */
/**
 * Bootstrap replicates of the report's intervals, and of the overview's comparison figures (crossover
 * interval, lead at k = 1 within noise), so that the two show the same figures for the same data.
 */
export const REPORT_REPLICATES = 2000;

/**
 * The report of {@link buildReport}'s comment (above {@link REPORT_REPLICATES}), without
 * {@link Report.paths}: {@link buildReportAsync} adds them (their texts are read from the results files).
 */
export function buildReport(index: TraceIndex, options: Omit<ReportOptions, 'paths'> = {}): Report {
  return reportParts(index, options).report;
}

/**
 * {@link buildReport} with {@link Report.paths} when `options.paths` asks for them: per compared
 * (base, model) pair, the reasoning-path summary (src/core/pathSummary.ts), the texts read from the
 * results files one problem at a time.
 * @throws as {@link buildReport}; SourceChangedError (sampleText.ts) when a results file changed
 *   since it was indexed.
 */
export async function buildReportAsync(index: TraceIndex, options: ReportOptions = {}): Promise<Report> {
  const { report, pathPairs, boot } = reportParts(index, options);
  if (!options.paths) return report;
  const cap = (options.paths === true ? undefined : options.paths.maxTextSamples) ?? DEFAULT_MAX_TEXT_SAMPLES;
  const contexts = new Map<number, PathContext>();
  const paths: PathSummary[] = [];
  for (const [b, m] of pathPairs) {
    let ctx = contexts.get(b.id);
    if (!ctx) {
      ctx = await pathContext(index, b.id, cap);
      contexts.set(b.id, ctx);
    }
    paths.push(await pathSummary(index, ctx, m.id, { base: b.displayId, model: m.displayId }, boot));
  }
  // paths stay where the report has always had them: before the diagnostics and warnings
  const { diagnostics, warnings, ...rest } = report;
  return { ...rest, paths, diagnostics, warnings };
}

/** The report without paths, the pairs whose paths {@link buildReportAsync} adds, and the bootstrap options. */
function reportParts(index: TraceIndex, options: ReportOptions) {
  const tool = options.toolGrading ? toolVerdicts(index) : undefined;
  let toolGraded = 0;
  let toolCorrect = 0;
  const models = index.models().map((m) => {
    const t = tool?.get(m.id);
    if (!t) return m;
    let c = 0;
    for (const v of t.values()) {
      toolGraded += v.graded;
      toolCorrect += v.correct;
      c += v.correct;
    }
    return { ...m, correct: m.correct + c };
  });
  const stats = index.allStats().map((r) => {
    const t = tool?.get(r.modelId)?.get(r.problemId);
    return t ? { ...r, graded: r.graded + t.graded, c: r.c + t.correct } : r;
  });
  const byModel = new Map<number, StatRow[]>();
  for (const s of stats) {
    const list = byModel.get(s.modelId) ?? [];
    list.push(s);
    byModel.set(s.modelId, list);
  }
  const boot = { replicates: options.replicates ?? REPORT_REPLICATES, seed: options.seed ?? 12345 };
  const warnings: string[] = [];
  // every sample's verdict, reward score and answer, read once for the grader audit, best-of-k, maj@k
  // and the reward-model section
  const scan = scanSamples(
    index,
    models.map((m) => m.id),
  );
  const samplesOf = (m: ModelRow) => scan.get(m.id) as ModelSamples;
  // the unreadable records of a model's files, asked once per model (the model's table and its comparisons)
  const unreadableOf = new Map<number, Diagnostic[]>();
  const unreadableRecords = (id: number) => {
    let d = unreadableOf.get(id);
    if (!d) unreadableOf.set(id, (d = index.unreadableRecords(id)));
    return d;
  };

  let baseIdx = -1;
  let baseSource: Report['baseSource'] = 'none';
  if (options.base) {
    baseIdx = pickModel(models, options.base);
    if (baseIdx < 0) throw new Error(noModelMatches('--base', options.base, models));
    baseSource = 'option';
  } else if (models.length > 0) {
    baseIdx = guessBaseModel(models);
    // -1: the folder holds only seeds of one model, never each other's base (trial 6 finding 2)
    baseSource = baseIdx >= 0 ? 'guess' : 'none';
  }
  const base = baseIdx >= 0 ? models[baseIdx] : undefined;
  const references = options.majAtK ? referenceAnswers(index) : new Map<number, string | null>();
  const datasets = datasetCounts(index);
  const datasetOf = datasetByProblem(index);
  const countByDataset = (rows: readonly StatRow[]): DatasetCount[] =>
    datasets
      .map((d) => ({
        dataset: d.dataset,
        problems: rows.filter((r) => datasetOf.get(r.problemId) === d.dataset).length,
      }))
      .filter((d) => d.problems > 0);
  const perDataset: DatasetModelReport[] = [];

  const modelReports: ModelReport[] = models.map((m) => {
    const rows = byModel.get(m.id) ?? [];
    const set = problemSet(rows);
    const pc = set.graded;
    const graded = pc.reduce((a, p) => a + p.n, 0);
    const passAtK = passAtKPoints(set, boot);
    const maj = options.majAtK ? modelMajAtK(samplesOf(m), m, rows, set, references) : {};
    const report: ModelReport = {
      id: m.displayId,
      label: m.label,
      run: m.run,
      grader: m.grader,
      partial: m.partial,
      problems: set.total,
      datasets: countByDataset(rows),
      leftOut: { noSamples: set.noSamples, ungraded: set.ungraded },
      samples: m.samples,
      ungradedSamples: m.samples - graded,
      correct: m.correct,
      sampleAccuracy: graded > 0 ? m.correct / graded : null,
      passAtK,
      bestOfK: m.scored > 0 ? modelBestOfK(index, samplesOf(m), m, rows, set, !!tool) : [],
      ...(maj.majAtK ? { majAtK: maj.majAtK } : {}),
      histogram: accuracyHistogram(pc).bins,
    };
    if (m.partial) warnings.push(partialWarning(m.displayId));
    const unreadable = unreadableWarning(m.displayId, unreadableRecords(m.id));
    if (unreadable) warnings.push(unreadable);
    warnings.push(...denominatorWarnings(m.displayId, set, passAtK));
    for (const w of [
      alongK(m.displayId, 'best-of-', report.bestOfK, 'n with a reward score'),
      alongK(m.displayId, 'maj', report.majAtK ?? []),
    ])
      if (w) warnings.push(w);
    if (report.bestOfK.length) warnings.push(...bestOfKWarnings(index, samplesOf(m), m, set));
    if (maj.note) warnings.push(maj.note);
    if (datasets.length > 1)
      for (const d of report.datasets) {
        const drows = rows.filter((r) => datasetOf.get(r.problemId) === d.dataset);
        const dset = problemSet(drows);
        const dgraded = dset.graded.reduce((a, p) => a + p.n, 0);
        const correct = drows.reduce((a, r) => a + r.c, 0);
        const dpass = passAtKPoints(dset, boot);
        perDataset.push({
          model: m.displayId,
          dataset: d.dataset,
          problems: dset.total,
          samples: drows.reduce((a, r) => a + r.n, 0),
          ungradedSamples: drows.reduce((a, r) => a + r.n, 0) - dgraded,
          correct,
          sampleAccuracy: dgraded > 0 ? correct / dgraded : null,
          passAtK: dpass,
          leftOut: { noSamples: dset.noSamples, ungraded: dset.ungraded },
        });
        const w = alongK(`${m.displayId} dataset ${datasetName(d.dataset)}`, 'pass', dpass);
        if (w) warnings.push(w);
      }
    return report;
  });

  // Which base each model is compared with. With --base, that model for every other model.
  // Otherwise runs are compared within themselves (a run holding a base-like model and others,
  // as rlvr_behavior_probe's runs and checkpoints do: each RL model against its own run's SFT),
  // and models of runs without one are compared with the folder's guessed base.
  // the pairing the overview takes too (basePools.ts): replicates of a base pooled into it
  const { pairs: pairsToCompare, pools: basePools } = comparisonPairing(models, base, baseSource === 'option');
  // models that differ only by a seed-like part of their names: seed shards read as models (trial 6 finding 2)
  for (const g of seedSiblings(models)) warnings.push(seedSiblingMessage(g.map((m) => m.displayId)));
  // `_s500` and `_s1000`: steps or seeds? kept apart and named (trial 7 finding 6)
  for (const g of shortStepGroups(models))
    warnings.push(
      shortStepMessage(
        g.models.map((m) => m.displayId),
        g.numbers,
      ),
    );
  if (baseSource === 'guess')
    for (const b of new Set(pairsToCompare.map(([x]) => x))) {
      const against = pairsToCompare.filter(([x]) => x.id === b.id).map(([, m]) => m.displayId);
      const note = baseGuessNote(
        b,
        b.displayId,
        against,
        pairsToCompare.filter(([x]) => x.id === b.id).map(([, m]) => m),
      );
      if (note) warnings.push(note);
    }
  if (baseSource === 'guess')
    for (const [b, m] of pairsToCompare) {
      const note = ambiguousBaseNote(models, b, m, (x) => x.label);
      if (note) warnings.push(note);
      // a model of another family than its base (trial 12 finding 3): never paired silently
      const family = crossFamilyNote(b, m, (x) => x.label);
      if (family) warnings.push(family);
    }
  // replicates of a base (`Qwen2.5-7B/replicate_1/` and `replicate_2/`, `rep1/` and `rep2/`: seed siblings of the base in
  // no pair of their own) are pooled into it: the comparisons use every base replicate's samples, summed per problem
  // (trial 12 finding 10: the first by name was the base, the second NOT COMPARED, half the base's samples unused)
  for (const [id, reps] of basePools) {
    const b = models.find((x) => x.id === id);
    if (b)
      warnings.push(
        basePoolMessage(
          b.label,
          [b, ...reps].map((x) => x.displayId),
        ),
      );
  }
  const pooledRows = (b: ModelRow): StatRow[] => pooledBaseRows(b.id, basePools, (id) => byModel.get(id) ?? []);
  const comparisons: ComparisonReport[] = [];
  for (const [b, m] of pairsToCompare) {
    const baseRows = new Map(
      pooledRows(b)
        .filter((r) => r.graded > 0)
        .map((r) => [r.problemId, r]),
    );
    const pairs: ProblemPair[] = [];
    const modelRows = byModel.get(m.id) ?? [];
    const set = problemSet(modelRows);
    for (const r of set.gradedRows) {
      const br = baseRows.get(r.problemId);
      if (br)
        pairs.push({
          problemKey: String(r.problemId),
          base: { n: br.graded, c: br.c },
          model: { n: r.graded, c: r.c },
        });
    }
    // no graded problem in common: named with its reason below (notComparedModels; trial 7 finding 5)
    if (pairs.length === 0) continue;
    const { left, cset, extra, whole } = comparisonDenominator(modelRows, pooledRows(b), pairs.length);
    if (whole.missing > 0)
      warnings.push(comparisonWarning(index, m.displayId, b.displayId, whole, left, unreadableRecords(m.id)));
    const maxN = pairs.reduce((a, p) => Math.max(a, p.base.n, p.model.n), 0);
    const nDiffers = nDiffersWarning(m.displayId, b.displayId, pairs);
    if (nDiffers) warnings.push(nDiffers);
    // a comparison across sampling temperatures (no base sampling at the model's temperature): trial 9 findings 4, 5
    const [tb, tm] = [samplingTemperature(b), samplingTemperature(m)];
    if (tb !== tm)
      warnings.push(
        `${m.label} vs ${b.label}: compared across sampling temperatures (model ${tm === undefined ? 'at a temperature its name does not give' : `at t${tm}`}, base ${tb === undefined ? 'at a temperature its name does not give' : `at t${tb}`}): ${
          // only a model whose name gives its temperature can lack a base sampling at it (trial 12 finding 12: the
          // warning said "no sampling of the base at the model's temperature" of a `T=0.8/` folder beside the base's 0.8)
          tm === undefined
            ? "the model's temperature is unknown, so the base's sampling at it cannot be chosen (write it in the model's file or folder name: `_t0.8`, `temperature_0.8/`)"
            : "no sampling of the base at the model's temperature"
        }; pass@k and the categories mix the effect of training with that of temperature`,
      );
    const differentGraders = graderDifference(b, m);
    if (differentGraders) warnings.push(graderWarning(b.displayId, m.displayId, differentGraders));
    const cross = crossoverK(pairs);
    // at k = 1 the interval is the two-level one (problems, then samples within each problem): it
    // decides whether the lead at k = 1 is within noise (metrics `twoLevelPairedDiffAt1`)
    const at1 = twoLevelPairedDiffAt1(
      pairs.map((p) => p.base),
      pairs.map((p) => p.model),
      boot,
    );
    if (cross.k === null && cross.kMax < maxMinN(pairs))
      warnings.push(
        `${m.displayId} vs ${b.displayId}: crossover k searched up to k = ${cross.kMax} only, the largest k all ${pairs.length} compared problems reach (${atLimit(pairs, cross.kMax)} with n = ${cross.kMax}); beyond it the problem set would change with k`,
      );
    const diff = pairedBootstrapDiff(
      pairs.map((p) => p.base),
      pairs.map((p) => p.model),
      kGrid(maxN),
      boot,
    )
      .map((d) => (d.k === 1 ? { ...d, ciLow: at1.ciLow, ciHigh: at1.ciHigh } : d))
      .map((d) => ({
        k: d.k,
        diff: d.diff,
        ciLow: d.ciLow,
        ciHigh: d.ciHigh,
        ...denominator(cset, d.problems, d.missing, extra),
      }));
    comparisons.push({
      base: b.displayId,
      model: m.displayId,
      problems: pairs.length,
      missing: whole.missing,
      leftOut: whole.leftOut,
      coverage: coverage(pairs),
      crossoverK: cross.k,
      crossoverKind: cross.kind,
      crossoverAheadK: cross.aheadK,
      crossoverKMax: cross.kMax,
      crossoverKMaxRagged: maxMinN(pairs),
      saturationK: cross.saturationK,
      crossoverInterval: crossoverBootstrap(pairs, boot),
      leaderAtK1: cross.leaderAtK1,
      leaderAtK1WithinNoise: intervalHoldsZero(diff[0]),
      categories: categoryCounts(pairs),
      categoriesWithinNoise: categoriesWithinNoise(pairs),
      differentGraders,
      passAtKDiff: diff,
    });
  }

  // the pairs whose reasoning paths buildReportAsync adds (their texts are read from the files)
  const pathPairs = pairsToCompare.filter(([b, m]) =>
    comparisons.some((c) => c.base === b.displayId && c.model === m.displayId),
  );
  const gradedProblems = (id: number) => (byModel.get(id) ?? []).filter((r) => r.graded > 0).length;
  // a base's replicates pooled into it are in its comparisons, not NOT COMPARED (trial 12 finding 10)
  const notComparedList = withoutPooledReplicates(
    notComparedModels(models, pairsToCompare, pathPairs, gradedProblems),
    basePools,
    pathPairs,
  );
  const notCompared = notComparedList.map((x) => ({
    model: x.model.displayId,
    base: x.base?.displayId ?? null,
    kind: x.kind,
    graded: x.graded,
    against: x.against.map((a) => a.displayId),
    ...(x.folder !== undefined ? { folder: x.folder } : {}),
    reason: notComparedReason(x, (m) => m.label),
  }));
  // named by label, as the comparison tables and the `not compared` list name them (trial 8 finding 12)
  for (const [i, x] of notComparedList.entries())
    warnings.push(notComparedWarning(x.model.label, notCompared[i].reason));

  const strata: StratumReport[] = [];
  const noLevel: Report['noLevel'] = [];
  const levels = index.levels();
  if (levels.length > 0) {
    const levelOf = index.levelByProblem();
    for (const m of models) {
      const rows = byModel.get(m.id) ?? [];
      for (const level of levels) {
        const set = problemSet(rows.filter((r) => levelOf.get(r.problemId) === level));
        if (set.total === 0) continue;
        const passAtK = passAtKPoints(set, boot);
        strata.push({ model: m.displayId, level, problems: set.total, passAtK });
        const w = alongK(`${m.displayId} level ${level}`, 'pass', passAtK);
        if (w) warnings.push(w);
      }
      const without = rows.filter((r) => (levelOf.get(r.problemId) ?? null) === null).map((r) => r.problemId);
      if (without.length) {
        const name = problemNamer(index);
        noLevel.push({
          model: m.displayId,
          problems: without.length,
          total: rows.length,
          named: without.slice(0, 5).map(name),
        });
        warnings.push(
          without.length === rows.length
            ? `${m.displayId}: none of its ${rows.length} problems has a level: it has no figures by difficulty level`
            : `${m.displayId}: ${without.length} of its ${rows.length} problems ${without.length === 1 ? 'has' : 'have'} no level ${nameProblems(without, name)}: in no level's figures (pass@k by difficulty level)`,
        );
      }
    }
  }

  const training = computeTrajectories(index, {
    base,
    baseIsChoice: baseSource === 'option',
    stepPattern: options.stepPattern,
    ...boot,
    models,
    stats,
  });
  warnings.push(...training.warnings);

  const report: Report = {
    schemaVersion: 1,
    base: base?.displayId ?? null,
    baseSource,
    datasets,
    models: modelReports,
    perDataset,
    comparisons,
    notCompared,
    strata,
    noLevel,
    audit: options.audit ?? [],
    ...(options.audit?.length ? { auditRules: auditRules(options.audit) } : {}),
    ...(options.auditChecked?.checked.length
      ? {
          auditChecked: {
            files: options.auditChecked.checked.length,
            figures: options.auditChecked.checked.reduce((a, x) => a + x.figures, 0),
          },
        }
      : {}),
    graderAudit: graderAudit(index, {}, scan),
    ...(options.regrade ? { regrade: regrade(index) } : {}),
    grading: { by: tool ? 'folder and tool' : 'folder', toolGraded, toolCorrect },
    ...(options.majAtK ? { majAtKRule: MAJ_AT_K_RULE } : {}),
    ...rewardSection(index, boot, scan),
    ...(options.ppl?.available ? { ppl: pplReport(options.ppl, models, pairsToCompare) } : {}),
    trajectories: training.trajectories.map(reportTrajectory),
    diagnostics: withNotAudited(
      tool ? toolGradedDiagnostics(index, index.diagnostics()) : index.diagnostics(),
      notAuditedDiagnostics(options.auditChecked?.notChecked ?? []),
    ),
    warnings,
  };
  return { report, pathPairs, boot };
}

/** The index's diagnostics with the audit's "not audited" infos among them, by file and line (unchanged without any). */
function withNotAudited(diagnostics: Diagnostic[], notAudited: Diagnostic[]): Diagnostic[] {
  if (notAudited.length === 0) return diagnostics;
  return [...diagnostics, ...notAudited].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * The indexer's infos on samples without a verdict, as they stand under --tool-grading (trial 5 finding
 * 11c: "no graded sample … count in missing of every figure" stayed while the table counted those
 * samples): where the tool graded some of them, the info says how many of them are now in the figures.
 * Matched by the file, model and problem the info names (a file's own samples, so that math500 #0 and
 * aime24 #0 are not mixed); other diagnostics are returned as they are.
 */
export function toolGradedDiagnostics(index: TraceIndex, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // samples the tool grades (no verdict, an answer and a reference), by file, model name and problem id: the names the infos use
  const rows = index.db
    .prepare(
      `SELECT f.path AS file, m.name AS model, pr.problem_id AS problem, s.extracted_answer AS a, pr.reference_answer AS ref
         FROM samples s JOIN files f ON f.id = s.file_id JOIN models m ON m.id = s.model_id JOIN problems pr ON pr.id = s.problem_id
        WHERE s.correct IS NULL AND s.extracted_answer IS NOT NULL AND pr.reference_answer IS NOT NULL`,
    )
    .all() as { file: string; model: string; problem: string; a: string; ref: string }[];
  const count = new Map<string, number>();
  const add = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
  for (const r of rows) {
    if (toolVerdict(r.a, r.ref) === null) continue;
    add(JSON.stringify([r.file, r.model]));
    add(JSON.stringify([r.file, r.model, r.problem]));
  }
  const note = (n: number) =>
    ` — under --tool-grading, ${n} of them ${n === 1 ? 'is' : 'are'} graded by the tool (answer equivalent to the reference answer) and in the figures`;
  return diagnostics.map((d) => {
    const problem =
      /^problem ("(?:[^"\\]|\\.)*") of model (.+?)(?: has no graded sample \(|: \d+ of its \d+ samples (?:has|have) no verdict)/.exec(
        d.message,
      );
    const file = /^model (.+?) has no graded sample in this file/.exec(d.message);
    const key = problem
      ? JSON.stringify([d.file, problem[2], JSON.parse(problem[1]) as string])
      : file
        ? JSON.stringify([d.file, file[1]])
        : undefined;
    const n = key === undefined ? 0 : (count.get(key) ?? 0);
    return n > 0 ? { ...d, message: d.message + note(n) } : d;
  });
}

/**
 * The error text for a model filter (`--base`, `--model`: a case-insensitive substring of a model's id
 * or label) that matches no model: the models, and "did you mean" the models whose id or label holds a
 * near miss of the text ({@link nearSubstring}: edit distance at most a third of its length; the nearest
 * ones only).
 */
export function noModelMatches(option: string, text: string, models: readonly ModelRow[]): string {
  const dist = models.map((m) => nearSubstring(text, `${m.displayId}\n${m.label}`));
  const best = Math.min(...dist.map((d) => d ?? Number.POSITIVE_INFINITY));
  const near = models.filter((_, i) => dist[i] === best);
  const list = models.map((m) => m.displayId).join(', ');
  return `no model matches ${option} "${text}"${near.length ? ` (did you mean ${near.map((m) => `"${m.displayId}"`).join(' or ')}?)` : ''}; models: ${list || 'none'}`;
}

/** How many compared problems have min(base n, model n) = k. */
function atLimit(pairs: readonly ProblemPair[], k: number): number {
  return pairs.filter((p) => Math.min(p.base.n, p.model.n) === k).length;
}

/** The largest min(base n, model n) over compared problems (how far k would go with a shrinking problem set). */
export function maxMinN(pairs: readonly ProblemPair[]): number {
  return pairs.reduce((a, p) => Math.max(a, Math.min(p.base.n, p.model.n)), 0);
}

/** Whether two models are one model (same name and revision) in different run folders (datasets, configs). */
function sameModel(a: ModelRow, b: ModelRow): boolean {
  return a.name === b.name && (a.revision ?? null) === (b.revision ?? null);
}

/** Why a model is in no comparison ({@link notComparedModels}). */
export type NotComparedKind =
  | 'modelUngraded'
  | 'baseUngraded'
  | 'noCommonProblem'
  | 'seedSibling'
  | 'baseOfNone'
  | 'baseCopyOfNone'
  | 'noBaseInFolder'
  | 'noBase';

/** One model in no comparison, with names left to the caller ({@link notComparedReason}). */
export interface NotComparedModel<M> {
  model: M;
  /** The base it would be compared with (`noBase`, `baseOfNone`: none). */
  base: M | undefined;
  kind: NotComparedKind;
  /** Problems with at least one graded sample: the model's and its base's (0 without a base). */
  graded: { model: number; base: number };
  /** `baseOfNone`: the models it is the base of (none of them compared); else empty. */
  against: M[];
  /** `noBaseInFolder`: the model's benchmark folder, where no copy of `base` was evaluated. */
  folder?: string;
}

/**
 * The models of `models` in no comparison (neither compared nor the base of a comparison), each with the
 * base it would be compared with and why (trial 7 finding 5: a pair without a graded problem in common was
 * dropped without a word). `pairs` are the (base, model) pairs of {@link comparisonPairs}, `made` those that
 * became comparisons, `graded(id)` a model's problems with at least one graded sample. Kinds, checked in
 * this order: the model has no graded sample (`modelUngraded`); its base has none (`baseUngraded`); the
 * two have no graded problem in common (`noCommonProblem`); the model is a seed sibling of a base
 * (`seedSibling`); it is the base of models none of which could be compared (`baseOfNone`); it is the base
 * model's copy in a folder no other model has, and has no seed sibling (`baseCopyOfNone`; trial 9 finding 15); it sits in
 * a benchmark folder where no copy of its base was evaluated (`noBaseInFolder`, checked first; trial 12 finding 11); no base
 * (`noBase`). Empty for a folder of fewer than two models (nothing to compare). Order: that of `models`.
 */
export function notComparedModels<M extends ModelRow>(
  models: readonly M[],
  pairs: readonly (readonly [M, M])[],
  made: readonly (readonly [M, M])[],
  graded: (modelId: number) => number,
): NotComparedModel<M>[] {
  if (models.length < 2) return [];
  const inComparison = new Set(made.flatMap(([b, m]) => [b.id, m.id]));
  const out: NotComparedModel<M>[] = [];
  for (const m of models) {
    if (inComparison.has(m.id)) continue;
    const own = pairs.find(([, x]) => x.id === m.id);
    const base = own?.[0] ?? pairs.map(([b]) => b).find((b) => areSeedSiblings(b, m));
    const counts = { model: graded(m.id), base: base ? graded(base.id) : 0 };
    const against = pairs.filter(([b]) => b.id === m.id).map(([, x]) => x);
    // a model in a benchmark folder where no copy of its base was evaluated (trial 12 finding 11)
    const folderBase = own || base ? undefined : pairs.map(([b]) => b).find((b) => benchmarkWithoutBase(models, m, b));
    if (folderBase && !against.length) {
      out.push({
        model: m,
        base: folderBase,
        kind: 'noBaseInFolder',
        graded: { model: graded(m.id), base: graded(folderBase.id) },
        against,
        folder: benchmarkWithoutBase(models, m, folderBase),
      });
      continue;
    }
    const kind: NotComparedKind = own
      ? counts.model === 0
        ? 'modelUngraded'
        : counts.base === 0
          ? 'baseUngraded'
          : 'noCommonProblem'
      : base
        ? 'seedSibling'
        : against.length
          ? 'baseOfNone'
          : // a base model's copy in a dataset or config folder no other model has (trial 9 finding 15): it has a
            // base (the folder's comparisons use it) and no seed sibling, so "no base model (seed siblings)" is false
            pairs.some(([b]) => sameModel(b, m)) && !models.some((o) => o.id !== m.id && areSeedSiblings(o, m))
            ? 'baseCopyOfNone'
            : 'noBase';
    out.push({ model: m, base, kind, graded: counts, against });
  }
  return out;
}

/**
 * The reason of one {@link notComparedModels} entry as text, models named by `name` (labels in the report's
 * JSON, its warnings and table section, and the overview, as the comparison tables name them); `choose` says how
 * to choose a base (the CLI's `--base` by default; the extension names its command, core `EXTENSION_CHOOSE_BASE`).
 */
export function notComparedReason<M>(
  x: Pick<NotComparedModel<M>, 'base' | 'kind' | 'graded' | 'against' | 'folder'>,
  name: (m: M) => string,
  choose = '--base',
): string {
  const b = x.base === undefined ? '' : name(x.base);
  switch (x.kind) {
    case 'modelUngraded':
      return `it has no graded sample (no verdict in its files), so there is nothing to compare with its base ${b}`;
    case 'baseUngraded':
      return `its base ${b} has no graded sample (no verdict in its files: ungraded), so pass@k cannot be compared; grade the base's samples, or choose another base with ${choose}`;
    case 'noCommonProblem':
      return `it has no graded problem in common with its base ${b} (${plural(x.graded.model, 'graded problem')} of its own, ${plural(x.graded.base, 'graded problem')} of the base's, none the same: other datasets or problem ids?); choose another base with ${choose}`;
    case 'seedSibling':
      return `it is a seed sibling of the base ${b} (the names differ only by a seed), and seeds of one model are never compared with each other`;
    case 'baseOfNone':
      return `it is the base of ${x.against.map(name).join(', ')}, none of which could be compared with it (see their lines)`;
    case 'baseCopyOfNone':
      return 'it is a copy of the base model in a dataset or config folder of its own, and no other model was evaluated there (a base is compared with nothing)';
    case 'noBaseInFolder':
      return `no copy of its base ${b} was evaluated in its benchmark folder ${x.folder ?? ''}/ (the base's results are in other benchmark folders), so it has no base to compare with there; evaluate the base on it, or choose a base with ${choose}`;
    case 'noBase':
      return `no base model (the folder holds only seed siblings of one model, never each other's base, or none is chosen); choose one with ${choose}`;
  }
}

/** The warning for one model of {@link notComparedModels}: `name` (display id or label) and the reason. */
export function notComparedWarning(name: string, reason: string): string {
  return `${name}: NOT COMPARED with any model: ${reason}`;
}

/** A comparison's problems left out, by reason, as problem row ids (see {@link ComparisonReport.missing}). */
export interface ComparisonLeftOut {
  noSamples: number[];
  ungraded: number[];
  notInBase: number[];
  /** Those of `notInBase` the base has no record of at all (not merely no graded sample; trial 12 finding 23). */
  notInBaseNoRecord?: number[];
  notInModel: number[];
}

/**
 * Which problems of the two models a comparison leaves out, and why: the model's records without
 * samples or without a graded sample, the model's graded problems the base has no graded sample of,
 * and the base's problems (any record) the model has no record of.
 */
function comparisonLeftOut(modelRows: readonly StatRow[], baseRows: readonly StatRow[]): ComparisonLeftOut {
  const baseGraded = new Set(baseRows.filter((r) => r.graded > 0).map((r) => r.problemId));
  const inBase = new Set(baseRows.map((r) => r.problemId));
  const inModel = new Set(modelRows.map((r) => r.problemId));
  const out: ComparisonLeftOut = { noSamples: [], ungraded: [], notInBase: [], notInBaseNoRecord: [], notInModel: [] };
  for (const r of modelRows) {
    if (r.n === 0) out.noSamples.push(r.problemId);
    else if (r.graded === 0) out.ungraded.push(r.problemId);
    else if (!baseGraded.has(r.problemId)) {
      out.notInBase.push(r.problemId);
      if (!inBase.has(r.problemId)) out.notInBaseNoRecord?.push(r.problemId);
    }
  }
  for (const r of baseRows) if (!inModel.has(r.problemId)) out.notInModel.push(r.problemId);
  return out;
}

/**
 * A comparison's denominator over `paired` problems (both models have graded samples): the whole is
 * every problem either model has a record of (see {@link ComparisonReport.missing}). Also returns the
 * problem set (`cset`) and extra reasons to build the denominators of its per-k points with.
 */
export function comparisonDenominator(modelRows: readonly StatRow[], baseRows: readonly StatRow[], paired: number) {
  const left = comparisonLeftOut(modelRows, baseRows);
  const extra = { notInBase: left.notInBase.length, notInModel: left.notInModel.length };
  const set = problemSet(modelRows);
  const cset = { total: set.total + extra.notInModel, noSamples: set.noSamples, ungraded: set.ungraded };
  return { left, cset, extra, whole: denominator(cset, paired, 0, extra) };
}

/**
 * The warning of a comparison over fewer than all the problems of the two models: the count and the
 * problems by reason (`Qwen-rl vs Qwen-base: compared over 3 of 4 problems: 1 only in the base model's
 * results (problem 3)`), so that the table's `3/4` is explained where it is read.
 */
export function comparisonWarning(
  index: TraceIndex,
  model: string,
  base: string,
  d: Denominator,
  left: ComparisonLeftOut,
  unreadable: readonly Diagnostic[] = [],
): string {
  // A problem the model "has no record of" while some of its records could not be read: say so (file:line).
  // Records read without a verdict or with a sample left out are no unread records (trial 12 finding 18).
  unreadable = classifyUnreadable(unreadable).unread;
  const noRecord = unreadable.length === 0 ? 'has no record of' : 'has no readable record of';
  const namer = problemNamer(index);
  const name = (ids: number[]) => nameProblems(ids, namer);
  const noBaseRecord = new Set(left.notInBaseNoRecord ?? []);
  const parts: [number[], string, string][] = [
    [left.noSamples, `${model} has no samples of it`, `${model} has no samples of them`],
    [left.ungraded, `${model} has no graded sample of it`, `${model} has no graded sample of them`],
    // the base's records without a graded sample, and the problems it has no record of (trial 12 finding 23)
    [
      left.notInBase.filter((id) => !noBaseRecord.has(id)),
      `${base} has no graded sample of it`,
      `${base} has no graded sample of them`,
    ],
    [
      [...noBaseRecord],
      `only ${model} has it: ${base} has no record of it`,
      `only ${model} has them: ${base} has no record of them`,
    ],
    [
      left.notInModel,
      `only ${base} has it: ${model} ${noRecord} it`,
      `only ${base} has them: ${model} ${noRecord} them`,
    ],
  ];
  const why = parts
    .filter(([ids]) => ids.length > 0)
    .map(([ids, one, many]) => `${ids.length} ${ids.length === 1 ? one : many} ${name(ids)}`);
  const n = unreadable.length;
  if (left.notInModel.length > 0 && n > 0)
    why.push(`${n} record${n === 1 ? '' : 's'} of ${model} could not be read (${whereList(unreadable)})`);
  return `${model} vs ${base}: compared over ${d.problems} of the ${d.problems + d.missing} problems of the two models: ${why.join('; ')}`;
}

/**
 * The graders of a compared pair when both are known and differ (see ComparisonReport
 * `differentGraders`); null when they agree or either is unknown (a format with one verdict field).
 */
export function graderDifference(
  base: Pick<ModelRow, 'grader'>,
  model: Pick<ModelRow, 'grader'>,
): { base: string; model: string } | null {
  return base.grader !== null && model.grader !== null && base.grader !== model.grader
    ? { base: base.grader, model: model.grader }
    : null;
}

/** `file:line` of at most three diagnostics, `and N more` after them. */
function whereList(lines: readonly Diagnostic[]): string {
  const shown = lines.slice(0, 3).map((l) => diagnosticPlace(l));
  return lines.length > 3 ? `${shown.join(', ')} and ${lines.length - 3} more` : shown.join(', ');
}

/**
 * A model's error diagnostics at a line (`TraceIndex.unreadableRecords`) by what they cost (trial 12 findings 18
 * and 8): `unread`, records not read at all (`line skipped`, malformed JSON); `samplesSkipped`, samples left out
 * of a record that was read (`sample skipped`; `verdictsLost` of all the lines had a verdict, named in their message
 * as `its verdict ... is lost`); `ungraded`, records read whose samples have no verdict (`samples are ungraded`:
 * indexed, their problems in `missing`). Pure.
 */
export function classifyUnreadable(lines: readonly Diagnostic[]): {
  unread: Diagnostic[];
  samplesSkipped: Diagnostic[];
  verdictsLost: number;
  ungraded: Diagnostic[];
} {
  const out = {
    unread: [] as Diagnostic[],
    samplesSkipped: [] as Diagnostic[],
    verdictsLost: 0,
    ungraded: [] as Diagnostic[],
  };
  for (const l of lines) {
    if (/its verdict .* is lost/.test(l.message)) out.verdictsLost++;
    if (/samples are ungraded|are ungraded$|is ungraded$/.test(l.message)) out.ungraded.push(l);
    else if (/sample skipped/.test(l.message)) out.samplesSkipped.push(l);
    else out.unread.push(l);
  }
  return out;
}

/**
 * The warning of a model some of whose records could not be read, or were read with samples left out or
 * without a verdict (`TraceIndex.unreadableRecords`, split by {@link classifyUnreadable}): how many of each,
 * where (file:line, the first three), and what becomes of them; the CLI report and the overview say the
 * same. `1 record could not be read (a.jsonl:3): left out of every figure; 2 samples skipped (a.jsonl:1,
 * a.jsonl:1): left out of every figure: 1 of them graded, its verdict lost; 8 records have no verdict (b.jsonl:1, ...): indexed,
 * ungraded (their problems count in "missing")`. Undefined when there are none.
 */
export function unreadableWarning(model: string, lines: readonly Diagnostic[]): string | undefined {
  if (lines.length === 0) return undefined;
  const c = classifyUnreadable(lines);
  const parts: string[] = [];
  const s = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lost = (n: number) => (n ? `: ${n} of them graded, ${n === 1 ? 'its verdict' : 'their verdicts'} lost` : '');
  const lostIn = (xs: Diagnostic[]) => xs.filter((l) => /its verdict .* is lost/.test(l.message)).length;
  if (c.unread.length)
    parts.push(
      `${s(c.unread.length, 'record', 'records')} could not be read (${whereList(c.unread)}): left out of every figure${lost(lostIn(c.unread))}`,
    );
  if (c.samplesSkipped.length)
    parts.push(
      `${s(c.samplesSkipped.length, 'sample', 'samples')} skipped (${whereList(c.samplesSkipped)}): left out of every figure${lost(lostIn(c.samplesSkipped))}`,
    );
  if (c.ungraded.length)
    parts.push(
      `${s(c.ungraded.length, 'record has', 'records have')} no verdict (${whereList(c.ungraded)}): read and indexed, ungraded (their problems count in "missing")`,
    );
  return `${model}: ${parts.join('; ')}; each is listed with its reason in the Problems panel (CLI: the diagnostics)`;
}

/** The warning of a partly indexed model (CLI report and overview say the same). */
export function partialWarning(model: string): string {
  return `${model}: PARTIAL: some of its samples come from a file whose indexing did not finish; its figures cover only the part read (index the folder again to complete it)`;
}

/** Smallest and largest graded n per problem of each side of a comparison (`{ min: 0, max: 0 }` without pairs). */
export interface PairNRange {
  base: { min: number; max: number };
  model: { min: number; max: number };
}

/** The n range of the base's and of the model's compared problems ({@link PairNRange}). */
export function pairNRange(pairs: readonly ProblemPair[]): PairNRange {
  const range = (ns: number[]) => (ns.length ? { min: Math.min(...ns), max: Math.max(...ns) } : { min: 0, max: 0 });
  return { base: range(pairs.map((p) => p.base.n)), model: range(pairs.map((p) => p.model.n)) };
}

/**
 * The warning of a compared pair whose n (graded samples per problem) differs between problems or between
 * the two models: at k above the smallest n some problems drop out of pass@k and the crossover search
 * (the CLI report and the overview say the same; trial 10 finding 2: greedy5's 5 samples against the base's
 * 100). Undefined when every compared problem of both models has the same n.
 */
export function nDiffersWarning(model: string, base: string, pairs: readonly ProblemPair[]): string | undefined {
  const minN = pairs.reduce((a, p) => Math.min(a, p.base.n, p.model.n), Infinity);
  const maxN = pairs.reduce((a, p) => Math.max(a, p.base.n, p.model.n), 0);
  if (pairs.length === 0 || minN === maxN) return undefined;
  return `${model} vs ${base}: n differs between problems or models (${minN}..${maxN}); at k above ${minN} some problems are left out`;
}

/** The warning of a compared pair graded differently (CLI report and overview say the same). */
export function graderWarning(base: string, model: string, g: { base: string; model: string }): string {
  return `${model} vs ${base}: GRADED DIFFERENTLY (${model} by ${g.model}, ${base} by ${g.base}): the comparison sets two verdict rules side by side; grade both the same way (--scorer <name>, setting traceInspector.scorer)`;
}

/**
 * The `rewardModels` section: the model with the most scorers first (ties: the most problems), the others
 * in `otherModels`; nothing when no model's samples carry a score.
 */
function rewardSection(
  index: TraceIndex,
  boot: { replicates: number; seed: number },
  scan: SampleScan,
): Pick<Report, 'rewardModels'> {
  const section = rewardModelsReport(index, { ...boot, scan });
  if (section.models.length === 0) return {};
  const [main, ...others] = [...section.models].sort(
    (a, b) => b.scorers.length - a.scorers.length || b.problems - a.problems,
  );
  return {
    rewardModels: {
      ...main,
      unattachedScores: section.unattachedScores,
      ...(others.length ? { otherModels: others } : {}),
    },
  };
}

/**
 * Bootstrapped pass@k curve of a problem set at k = 1, 2, 4, ..., max graded n, with the set's
 * denominator per point (problems without samples or verdicts, and n < k, counted in `missing`).
 */
function passAtKPoints(set: ProblemSet, boot: { replicates: number; seed: number }): PassAtKPoint[] {
  const maxN = set.graded.reduce((a, p) => Math.max(a, p.n), 0);
  if (maxN === 0) return [];
  return bootstrapPassAtKCurve(set.graded, kGrid(maxN), boot).map((p) => ({
    k: p.k,
    value: p.value,
    ciLow: p.ciLow,
    ciHigh: p.ciHigh,
    ...denominator(set, p.problems, p.missing),
  }));
}

/**
 * The notes a model's denominators call for: problems left out of every figure (no samples, no graded
 * sample), and a pass@k curve whose problem set shrinks along k (ragged n), so that a value at large k
 * is never read as one over all problems.
 */
function denominatorWarnings(id: string, set: ProblemSet, passAtK: PassAtKPoint[]): string[] {
  const out: string[] = [];
  if (set.noSamples + set.ungraded > 0) {
    const has = (n: number, what: string) => (n ? `${n} ${n === 1 ? 'has' : 'have'} ${what}` : '');
    const parts = [has(set.noSamples, 'no samples'), has(set.ungraded, 'no graded sample')].filter(Boolean);
    out.push(
      `${id}: of its ${set.total} problems, ${parts.join(' and ')}: left out of every figure (see the diagnostics)`,
    );
  }
  const along = alongK(id, 'pass', passAtK);
  if (along) out.push(along);
  return out;
}

/**
 * The note of a curve whose problem set shrinks along k: every k at which it changes, each with its
 * denominator and reasons (`pass@4 and pass@8: over 5 of 11 problems: ...; pass@12: over 1 of 11 ...`),
 * so that no value in the table carries a mark the note does not explain (trial 3 finding 10: the note
 * named pass@4 and pass@12 and skipped pass@8 at 2/11). `metric` is `pass`, `best-of-`, `maj`
 * (`best-of-k` is written `best-of-4`); null when no point leaves a problem out for n < k.
 */
export function alongK(
  id: string,
  metric: 'pass' | 'maj' | 'best-of-',
  points: readonly ({ k: number } & Denominator)[],
  nName = 'n',
): string | null {
  const name = (k: number) => (metric === 'best-of-' ? `best-of-${k}` : `${metric}@${k}`);
  const runs: { ks: number[]; p: { k: number } & Denominator }[] = [];
  for (const p of points) {
    if (p.leftOut.belowK === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last.p.problems === p.problems && last.p.leftOut.belowK === p.leftOut.belowK) last.ks.push(p.k);
    else runs.push({ ks: [p.k], p });
  }
  if (runs.length === 0) return null;
  const parts = runs.map(({ ks, p }) => {
    const label = ks.length === 1 ? name(ks[0]) : `${name(ks[0])} to ${name(ks[ks.length - 1])}`;
    return `${label} ${describeDenominator(p, ks[0], nName)}`;
  });
  return `${id}: the problem set changes along k: ${parts.join('; ')}`;
}

/**
 * Dataset best-of-k curve of one model at k = 1, 2, 4, ..., n: the exact per-problem expectation
 * (metrics `bestOfKCurve`) averaged over problems with n >= k, using the samples that have both a
 * reward score and a verdict. Problems with graded samples but none with a reward score count in
 * `missing` as `noScore`. Samples from the report's one read (sampleScan.ts); each problem's samples are sorted once.
 */
function modelBestOfK(
  index: TraceIndex,
  samples: ModelSamples,
  m: ModelRow,
  rows: readonly StatRow[],
  set: ProblemSet,
  toolGrading: boolean,
): BestOfKReportPoint[] {
  const byProblem = scoredByProblem(samples);
  if (toolGrading) {
    // scored samples without a verdict, graded by the tool where they have an answer and a reference
    const scored = index.db
      .prepare(
        `SELECT s.problem_id AS p, s.reward_score AS score, s.extracted_answer AS a, pr.reference_answer AS ref
           FROM samples s JOIN problems pr ON pr.id = s.problem_id
          WHERE s.model_id = ? AND s.reward_score IS NOT NULL AND s.correct IS NULL`,
      )
      .all(m.id) as { p: number; score: number; a: string | null; ref: string | null }[];
    for (const r of scored) {
      const v = toolVerdict(r.a, r.ref);
      if (v === null) continue;
      const list = byProblem.get(r.p) ?? [];
      list.push({ score: r.score, correct: v });
      byProblem.set(r.p, list);
    }
  }
  const perProblem = [...byProblem.values()];
  const maxN = perProblem.reduce((a, s) => Math.max(a, s.length), 0);
  if (maxN === 0) return [];
  // Problems without a (scored, graded) sample, by reason; with tool grading an ungraded problem can be used.
  const noScore = set.gradedRows.filter((r) => !byProblem.has(r.problemId)).length;
  const ungraded = rows.filter((r) => r.n > 0 && r.graded === 0 && !byProblem.has(r.problemId)).length;
  return bestOfKCurve(perProblem, kGrid(maxN)).map((p) => ({
    k: p.k,
    value: p.value,
    ...denominator({ total: set.total, noSamples: set.noSamples, ungraded }, p.problems, p.missing, { noScore }),
  }));
}

/**
 * Why best-of-k leaves problems and samples out, where the table shows it: the graded problems without
 * any sample that has a reward score and a verdict (`noScore`, named), and the samples of the other
 * problems that are not used because they lack a reward score or a verdict (trial 3 finding 8: `(3/5)`
 * with the reason only in the JSON). Empty when nothing is left out.
 */
function bestOfKWarnings(index: TraceIndex, scanned: ModelSamples, m: ModelRow, set: ProblemSet): string[] {
  // per problem with samples (ascending): samples with a reward score and a verdict, without a score, without a verdict
  const rows: { p: number; usable: number; noScore: number; noVerdict: number }[] = [];
  for (let j = 0; j + 1 < scanned.runs.length; j++) {
    const r = { p: scanned.problem[scanned.runs[j]], usable: 0, noScore: 0, noVerdict: 0 };
    for (let i = scanned.runs[j]; i < scanned.runs[j + 1]; i++) {
      const scored = !Number.isNaN(scanned.score[i]);
      const graded = scanned.correct[i] >= 0;
      if (scored && graded) r.usable++;
      else if (graded) r.noScore++;
      else if (scored) r.noVerdict++;
    }
    rows.push(r);
  }
  const byProblem = new Map(rows.map((r) => [r.p, r]));
  const namer = problemNamer(index);
  const name = (ids: number[]) => nameProblems(ids, namer);
  const noScore = set.gradedRows.filter((r) => !byProblem.get(r.problemId)?.usable).map((r) => r.problemId);
  const used = rows.filter((r) => r.usable > 0);
  const unscored = used.filter((r) => r.noScore > 0);
  const unverdicted = used.filter((r) => r.noVerdict > 0);
  const sum = (list: typeof rows, f: (r: (typeof rows)[number]) => number) => list.reduce((a, r) => a + f(r), 0);
  const samples = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const out: string[] = [];
  if (noScore.length)
    out.push(
      `${m.displayId}: best-of-k leaves out ${noScore.length} of its ${set.total} problems whose graded samples have no reward score ${name(noScore)}`,
    );
  if (unscored.length)
    out.push(
      `${m.displayId}: best-of-k leaves out ${samples(
        sum(unscored, (r) => r.noScore),
        'graded sample',
      )} without a reward score ${name(unscored.map((r) => r.p))}: n is the samples with a reward score and a verdict`,
    );
  if (unverdicted.length)
    out.push(
      `${m.displayId}: best-of-k leaves out ${samples(
        sum(unverdicted, (r) => r.noVerdict),
        'sample',
      )} with a reward score but no verdict ${name(unverdicted.map((r) => r.p))}`,
    );
  return out;
}

/** Reference answer of every problem, by problem row id. */
function referenceAnswers(index: TraceIndex): Map<number, string | null> {
  return new Map(
    (
      index.db.prepare('SELECT id, reference_answer AS ref FROM problems').all() as {
        id: number;
        ref: string | null;
      }[]
    ).map((r) => [r.id, r.ref]),
  );
}

/**
 * Dataset maj@k curve of one model at k = 1, 2, 4, ..., n (metrics `majAtKCurve`: mean over problems
 * with n >= k of the expected majority-vote credit), by {@link MAJ_AT_K_RULE}: every sample votes (n
 * counts every sample, graded or not), the winning group judged by the problem's reference answer when
 * it has one, else by verdicts. Absent (`{}`) when no sample of the model has an extracted answer.
 * Denominator: problems without samples, problems no rule can judge (no reference answer and no graded
 * sample: `ungraded`), and problems with n < k are counted in `missing`. Also returns the note that
 * says why maj@1 differs from pass@1 ({@link majVsPassNote}).
 */
function modelMajAtK(
  samples: ModelSamples,
  m: ModelRow,
  rows: readonly StatRow[],
  set: ProblemSet,
  references: Map<number, string | null>,
): { majAtK?: MajAtKReportPoint[]; note?: string } {
  const byProblem = answersByProblem(samples);
  const perProblem = [...byProblem.values()];
  if (!perProblem.some((list) => list.some((s) => s.answer !== null && s.answer !== ''))) return {};
  const maxN = perProblem.reduce((a, s) => Math.max(a, s.length), 0);
  const refs = [...byProblem.keys()].map((p) => references.get(p) ?? null);
  // a problem is judged by its reference answer when it has one, else by verdicts
  const hasRef = (p: number) => hasReference(references.get(p) ?? null);
  const judged = (r: StatRow) => r.graded > 0 || hasRef(r.problemId);
  let unjudged = 0;
  // the judged problems' n, ascending: those below k are the n < k of each k (one sort, not a filter per k)
  const judgedN: number[] = [];
  for (const r of rows) {
    if (r.n === 0) continue;
    if (judged(r)) judgedN.push(r.n);
    else unjudged++;
  }
  judgedN.sort((a, b) => a - b);
  let below = 0;
  const majAtK = majAtKCurve(perProblem, kGrid(maxN), { references: refs, gradeByReference: true }).map((p) => {
    while (below < judgedN.length && judgedN[below] < p.k) below++;
    const { missing: _m, ...rest } = p;
    return {
      ...rest,
      ...denominator({ total: set.total, noSamples: set.noSamples, ungraded: unjudged }, p.problems, below),
    };
  });
  const noAnswer = noAnswerCounts(byProblem);
  return {
    majAtK,
    note:
      majVsPassNote(m.displayId, rows, set, byProblem, references, majAtK[0], noAnswer) ??
      noAnswerNote(m.displayId, noAnswer),
  };
}

/**
 * The samples without an extracted answer (none, or empty after removing wrappers: `answerKey` null) of
 * a model: how many, and how many of those are graded correct. maj@k credits them 0 (they never win a
 * vote: a draw of only such samples scores 0), pass@k by their verdicts (trial 6 finding 11).
 */
function noAnswerCounts(answers: Map<number, readonly { answer: string | null; correct: boolean | null }[]>): {
  samples: number;
  noAnswer: number;
  correct: number;
} {
  let samples = 0;
  let noAnswer = 0;
  let correct = 0;
  for (const list of answers.values())
    for (const s of list) {
      samples++;
      if (answerKey(s.answer) !== null) continue;
      noAnswer++;
      if (s.correct === true) correct++;
    }
  return { samples, noAnswer, correct };
}

/** `N samples without an extracted answer are credited 0 in maj@k (...)`, or '' when every sample has one. */
function noAnswerClause(c: ReturnType<typeof noAnswerCounts>): string {
  if (c.noAnswer === 0) return '';
  const verb = c.noAnswer === 1 ? 'is' : 'are';
  const graded =
    c.correct > 0
      ? `; ${c.correct} of them ${c.correct === 1 ? 'is' : 'are'} graded correct, which pass@k credits`
      : '';
  return `${plural(c.noAnswer, 'sample')} of ${c.samples} without an extracted answer ${verb} credited 0 in maj@k (never ${c.noAnswer === 1 ? 'wins' : 'win'} a vote${graded})`;
}

/**
 * The note for a model whose maj@k credits samples without an extracted answer 0, when no note on maj@1
 * vs pass@1 says so already ({@link majVsPassNote}): `m: 2 samples of 12 without an extracted answer are
 * credited 0 in maj@k (never win a vote)`. Undefined when every sample has an answer.
 */
function noAnswerNote(model: string, counts: ReturnType<typeof noAnswerCounts>): string | undefined {
  const clause = noAnswerClause(counts);
  return clause ? `${model}: ${clause}` : undefined;
}

/**
 * Why a model's maj@1 and pass@1 differ, in counts (trial 5 finding 5): the samples that vote in maj@k
 * but are in no pass@k (no verdict), the problems maj@k counts that pass@k does not (a reference
 * answer, no graded sample), and the graded samples whose verdict disagrees with the reference answer
 * (maj@k judges by the reference). Undefined when maj@1 equals pass@1 (within 1e-9) or either is absent.
 * `noAnswer`: the model's {@link noAnswerCounts}, counted once by the caller.
 */
export function majVsPassNote(
  model: string,
  rows: readonly StatRow[],
  set: ProblemSet,
  answers: Map<number, readonly { answer: string | null; correct: boolean | null }[]>,
  references: Map<number, string | null>,
  maj1: MajAtKReportPoint | undefined,
  noAnswer: ReturnType<typeof noAnswerCounts>,
): string | undefined {
  const graded = set.graded;
  const pass1 = graded.length ? graded.reduce((a, p) => a + p.c / p.n, 0) / graded.length : null;
  if (!maj1 || maj1.value === null || pass1 === null || Math.abs(maj1.value - pass1) <= 1e-9) return undefined;
  const samples = rows.reduce((a, r) => a + r.n, 0);
  const gradedSamples = rows.reduce((a, r) => a + r.graded, 0);
  const onlyMaj = rows.filter(
    (r) => r.n > 0 && r.graded === 0 && hasReference(references.get(r.problemId) ?? null),
  ).length;
  let disagree = 0;
  let checked = 0;
  for (const [p, list] of answers) {
    const ref = references.get(p) ?? null;
    for (const s of list) {
      if (s.correct === null) continue;
      const v = toolVerdict(s.answer, ref);
      if (v === null) continue;
      checked++;
      if (v !== s.correct) disagree++;
    }
  }
  const pct1 = (v: number) => (100 * v).toFixed(1);
  const why: string[] = [];
  if (samples > gradedSamples)
    why.push(
      `maj@k votes over all ${plural(samples, 'sample')}, ${samples - gradedSamples} of them without a verdict (in no pass@k)`,
    );
  if (onlyMaj > 0)
    why.push(`maj@k counts ${plural(onlyMaj, 'problem')} with a reference answer but no graded sample (in no pass@k)`);
  if (maj1.byReference > 0)
    why.push(
      `maj@k judges ${maj1.byReference} of its ${plural(maj1.problems, 'problem')} by the reference answer, pass@k by the folder's verdicts${disagree > 0 ? `: ${disagree} of the ${plural(checked, 'graded sample')} with an answer ${disagree === 1 ? 'has' : 'have'} a verdict that disagrees with the reference answer (see --regrade)` : ''}`,
    );
  // samples without an extracted answer: credited 0 by maj@k, by their verdict by pass@k (trial 6 finding 11)
  const noAnswerWhy = noAnswerClause(noAnswer);
  if (noAnswerWhy) why.push(noAnswerWhy);
  if (why.length === 0)
    why.push('maj@k judges the winning answer group by the majority of its verdicts, pass@k each sample');
  return `${model}: maj@1 ${pct1(maj1.value)} (${plural(maj1.problems, 'problem')}) differs from pass@1 ${pct1(pass1)} (${plural(graded.length, 'problem')}, ${plural(gradedSamples, 'graded sample')}): ${why.join('; ')}`;
}
