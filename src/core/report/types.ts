import { type Diagnostic } from '../model';
import { type AuditEntry, type AuditResult } from '../analyses/summaryAudit';
import { type GraderAudit, type Regrade } from '../analyses/graderAudit';
import type { MarkersAnalysis } from '../analyses/reasoningMarkers';
import {
  type CategoryCounts,
  type CoverageCounts,
  type CrossoverInterval,
  type DifferenceCategory,
  type CurveCIPoint,
  type HistogramBin,
  type MajAtKPoint,
} from '../metrics';
import { type Denominator, type LeftOut } from '../metrics/denominators';
import { type PathSummary } from '../similarity/pathSummary';
import { type PplRead, type PplReport } from '../similarity/ppl';
import { type RewardModelsReport } from './rewardReport';
import { type DatasetCount } from '../grouping/datasets';
import { type Trajectory } from '../analyses/trajectories';

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

/** Why a model is in no comparison (`notComparedModels` (notes.ts)). */
export type NotComparedKind =
  | 'modelUngraded'
  | 'baseUngraded'
  | 'noCommonProblem'
  | 'seedSibling'
  | 'baseOfNone'
  | 'baseCopyOfNone'
  | 'noBaseInFolder'
  | 'noBase';

/** A model in no comparison and why ({@link Report.notCompared}, `notComparedModels` (notes.ts)). */
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
   * (`notComparedReason`, notes.ts); `model`, `base` and `against` give their display ids.
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
  /** With audit entries: what the audit recomputed for each kind of figure listed (src/core/analyses/summaryAudit.ts `auditRules`). */
  auditRules?: string;
  /**
   * When the folder holds summary files the audit checked: how many figures in how many files it compared
   * (agreeing or not), so that an empty `audit` reads "checked and agrees", not "not checked" (trial 12 finding
   * 5). Files it did not understand are info diagnostics `summary file not audited: ...`.
   */
  auditChecked?: { files: number; figures: number };
  /**
   * The grader audit: groups of equivalent answers of one problem whose samples the folder graded
   * differently (`src/core/analyses/graderAudit.ts`).
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
   * correlations between the two across scorers (src/core/report/rewardReport.ts); `otherModels` holds the
   * same for other scored models. Absent when no sample has a score.
   */
  rewardModels?: RewardModelsReport & { unattachedScores: number; otherModels?: RewardModelsReport[] };
  /**
   * PPL_base per model and per comparison, when the folder carries a base-model log-probability sidecar
   * (src/core/similarity/ppl.ts); absent otherwise.
   */
  ppl?: PplReport;
  /**
   * Training dynamics: one entry per checkpoint series (models of one run at several steps, see
   * src/core/analyses/trajectories.ts), each step against its own base; empty when the folder has none.
   */
  trajectories: Trajectory[];
  /**
   * With {@link ReportOptions.markers}: lengths and reasoning-marker counts per 1,000 tokens per model and
   * checkpoint, split by correct and incorrect samples, and each measure's within-problem association with
   * correctness (src/core/analyses/reasoningMarkers.ts).
   */
  markers?: MarkersAnalysis;
  /**
   * Per compared model: share of correct samples whose computation path is in the base, and the
   * boilerplate-discounted text measures with their baselines (src/core/similarity/pathSummary.ts); with `paths` only.
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
  "every sample of a problem votes (n = all its samples, with or without a verdict, but those that errored: finish reason error and no verdict, no output to vote with; a sample without an extracted answer never wins), answers grouped by answer equivalence; the winning answer is correct when it equals the problem's reference answer (the folder's verdicts are then not used), and only a problem without a reference answer is judged by the majority verdict of the winning group's graded samples (half credit when they are half correct); ties split the credit; over the problems with samples and a reference answer or a graded sample. pass@k counts only graded samples and the folder's verdicts: maj@1 equals pass@1 only when every sample is graded and every verdict agrees with the reference answer";

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
  /** Adds {@link Report.markers} (lengths and reasoning markers from the index; O(samples) plus the bootstraps). */
  markers?: boolean;
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
  /** Step pattern of checkpoint series (regular expression source); absent: the built-in one (src/core/grouping/series.ts). */
  stepPattern?: string;
}
