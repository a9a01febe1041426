/**
 * The ONE message protocol between the extension host and the Trace Inspector webviews (the problem
 * view and the overview). Imported by both sides; no `vscode` and no DOM here.
 *
 * Envelope:
 * - webview -> host: a {@link WebviewMessage}: `{ id, kind, ...params }`. `id` is a positive integer
 *   chosen by the webview; requests get exactly one reply carrying `replyTo: id`. Notifications
 *   (`ready`, `log`) get none.
 * - host -> webview: a {@link HostMessage}: `{ id, kind: 'init' | 'reply' | 'error' | 'changed' | 'progress', ... }`.
 *   A `reply` carries `replyTo` and `request` (the kind it answers) and a `result` typed by
 *   {@link ResultOf}; an `error` carries `replyTo` and a message. Before its reply, a request whose figures
 *   take long (the overview's tabs, computed in a worker thread) may get `progress` messages carrying
 *   `replyTo` and a {@link FiguresProgress}: what is being computed, so the view says so instead of a blank.
 *
 * Validation: every inbound message is checked before use: {@link validateWebviewMessage} on the
 * host (the webview shows untrusted model output, so its messages are treated as untrusted too) and
 * {@link validateHostMessage} in the webview. Both return the typed message or a reason string and
 * never throw. Numbers must be finite integers in range, strings are length-limited, unknown kinds
 * and extra-large arrays are refused.
 *
 * Only data crosses the boundary, never HTML: sample text goes as text and is rendered (escaped,
 * Markdown + KaTeX, sanitised) in the webview.
 */
import type { CrossoverIntervalData } from './claims';
import type { PathMatchData } from './pathLine';
import { type GlyphWidths, isGlyphWidths } from './glyphWidths';

export const PROTOCOL_VERSION = 1;

/** Which webview a panel shows: the problem view, the overview, or the sample preview (one reused tab). */
export type ViewKind = 'problem' | 'overview' | 'preview';
const VIEW_KINDS: readonly ViewKind[] = ['problem', 'overview', 'preview'];

/** Longest string accepted from the webview (labels, notes, search text), in UTF-16 code units. */
export const MAX_STRING = 20_000;
/** Largest page a webview may ask for. */
export const MAX_PAGE = 500;
/** Most problem ids one filter message may carry. */
export const MAX_IDS = 100_000;
/** Sample text longer than this is sent truncated (the panel says so and offers the full trace in an editor). */
export const MAX_TEXT = 200_000;
/** The sample preview renders the text incrementally, so it takes far more; longer text is cut and the preview says so. */
export const MAX_PREVIEW_TEXT = 4_000_000;
/** Longest link target the preview may ask the host to open (after the user confirms). */
export const MAX_URL = 2_000;

// ------------------------------------------------------------------------------------------------
// Shared data shapes

/** A model as the webview sees it. `id` is the index's model row id. */
export interface ModelInfo {
  id: number;
  label: string;
  displayId: string;
  isBase: boolean;
  isFocus: boolean;
  /**
   * The folder's only model: views call it "only model" (as the tree does), never the base, and offer no
   * comparison with a base (isBase is false then).
   */
  onlyModel?: boolean;
  /** The model's run (folder relative to the results folder, `""` for the root); the overview starts with the focus model's run shown. */
  run?: string;
  /**
   * Some of the model's samples come from a file whose indexing did not finish (cancelled or
   * interrupted): its figures cover only the part read. Views mark the model wherever its figures appear.
   */
  partial?: boolean;
}

/** One point of a curve against k; `value` null where the problem(s) have fewer than k samples. */
export interface KPoint {
  k: number;
  value: number | null;
}

/** One model's numbers for one problem. */
export interface ProblemModelStats {
  modelId: number;
  /** Samples with a verdict (the n of pass@k) and correct ones (c). */
  n: number;
  c: number;
  /** All samples, including ungraded. */
  samples: number;
  /** Samples with a reward score. */
  scored: number;
  /** c / n, null when n = 0. */
  accuracy: number | null;
  /** 95% Jeffreys interval of c/n (Brown, Cai & DasGupta 2001), null when n = 0. */
  betaLow: number | null;
  betaHigh: number | null;
  /** pass@k at k = 1, 2, 4, ..., n (Chen et al. 2021 unbiased estimator). */
  passAtK: KPoint[];
  /** best-of-k by reward score at the same k; empty without reward scores. */
  bestOfK: KPoint[];
  /**
   * maj@k by extracted answer at the same k: empty in `getProblem` (at n = 1024 it costs seconds, so
   * it comes from `getMajAtK` when the user asks for it); see `hasMajAtK`.
   */
  majAtK: KPoint[];
  /** Whether the model has extracted answers, i.e. maj@k can be asked for. */
  hasMajAtK: boolean;
}

/** Result of `getMajAtK`: maj@k curves of one problem's models (those with extracted answers). */
export interface MajorityData {
  problemId: number;
  curves: { modelId: number; majAtK: KPoint[] }[];
  /** How maj@k judges the winning answer and where that differs from pass@k's verdicts on this problem (panelData `majorityNote`). */
  note: string;
}

/**
 * One model against its comparison base on this problem. There is no per-problem crossover: for one
 * problem pass@k grows with c at every k, so two curves never cross; they only meet at 1 once both
 * solve every k-subset (k > n - c for both), which {@link saturationK} names.
 */
export interface ProblemComparison {
  modelId: number;
  baseModelId: number;
  /** Category of the problem for this model against the base (metrics `categorize`). */
  category: 'sharpening' | 'expansion' | 'regression' | 'unchanged' | 'unsolved';
  /** The category is decided within noise: the two 95% Jeffreys intervals of c/n overlap (metrics `withinNoise`). */
  withinNoise: boolean;
  /**
   * Saturation point: the smallest k from which both models solve every k-subset of their samples
   * (k > n - c for both, so both pass@k are exactly 1); null when either has no correct sample or that
   * k exceeds the smaller n.
   */
  saturationK: number | null;
}

export interface ProblemInfo {
  id: number;
  dataset: string;
  problemId: string;
  question: string | null;
  referenceAnswer: string | null;
  level: string | null;
}

/** Result of `getProblem`. */
export interface ProblemData {
  problem: ProblemInfo;
  /** Models with samples for this problem (base first). */
  models: ModelInfo[];
  stats: ProblemModelStats[];
  /** Each non-base model against its comparison base (none for a base). */
  comparisons: ProblemComparison[];
  baseModelId: number | null;
  focusModelId: number | null;
  /** Labels to offer in the annotation control (standard ones first). */
  labels: string[];
  /** Whether a base-model log-probability sidecar was found (PPL_base chart). */
  hasLogprobs: boolean;
  /**
   * The pass@k chart (pass@k alone, as the view first shows it) and the c/n chart compiled to Vega by the
   * host (src/extension/chartCompiler.ts), so the view's first paint needs no Vega-Lite; absent when the
   * host's compiler is not loaded yet or failed (the webview compiles them itself).
   */
  charts?: { passk: CompiledChart; accuracy: CompiledChart };
  /**
   * When this is the copy kept from before a window reload (src/extension/restoreCache.ts), served while the
   * folder's index is not ready: when it was kept (epoch ms). The view says so; the host tells it when the
   * index changes, and it asks again.
   */
  cachedAt?: number;
}

/**
 * A chart compiled from Vega-Lite to Vega with placeholder theme colours and fonts (src/shared/chartSpecs.ts
 * `compiledChart`; the webview fills them in with `themedVegaSpec`).
 */
export interface CompiledChart {
  /** The Vega spec, data included as inline datasets. */
  vega: Record<string, unknown>;
  /** Compiled for a high-contrast theme (line widths, point sizes). */
  highContrast: boolean;
  /** The random part of the placeholder strings (`ti-theme-<token>:foreground`, …). */
  token: string;
  /**
   * The chart drawn as SVG by the host's Vega (a new problem view's pass@k chart only): theme colours and
   * font as CSS `var()`s, at the chart width and with the glyph widths a page in the same editor group
   * reported (`chartLayout`), or 600 px wide with default glyph widths before any did. The page shows it
   * (sanitized) until its own Vega view of the chart is drawn, unless it is wider than the chart's element.
   */
  svg?: string;
}

/**
 * A score as it crosses to a webview: a number, or the string `"-Infinity"` / `"Infinity"`. Webview messages are
 * JSON, which has no infinite numbers (they would arrive as `null`, "not scored"), and `-Infinity` is a score: the
 * lowest (docs/inputs.md). {@link wireScore} writes it, {@link scoreOfWire} reads it back.
 */
export type WireScore = number | '-Infinity' | 'Infinity';

/** A score for a webview message ({@link WireScore}); NaN and null are none. */
export function wireScore(v: number | null): WireScore | null {
  if (v === null || Number.isNaN(v)) return null;
  return Number.isFinite(v) ? v : v > 0 ? 'Infinity' : '-Infinity';
}

/** The number of a {@link WireScore}. */
export function scoreOfWire(v: WireScore | null): number | null {
  return v === null ? null : Number(v);
}

/** One sample without its text. */
export interface SampleSummary {
  id: number;
  modelId: number;
  sampleIndex: number;
  correct: boolean | null;
  extractedAnswer: string | null;
  rewardScore: WireScore | null;
  finishReason: string | null;
  tokenCount: number | null;
  length: number;
  labels: string[];
  hasNote: boolean;
  /**
   * The grader audit's answer check where it contradicts the folder's verdict (core `answerCheckNote`):
   * `folder: incorrect · answer check: equivalent to the reference (grader audit)`; absent when they agree or
   * there is nothing to compare. A second opinion shown beside the verdict, never replacing it.
   */
  answerCheck?: string;
}

/** Result of `getSamples`: one page, correct samples first, then incorrect, then ungraded. */
export interface SamplePage {
  problemId: number;
  modelId: number;
  offset: number;
  total: number;
  samples: SampleSummary[];
}

/** Result of `getSample`. */
export interface SampleText {
  id: number;
  modelId: number;
  problemId: number;
  sampleIndex: number;
  correct: boolean | null;
  extractedAnswer: string | null;
  /** The text, cut at {@link MAX_TEXT} code units when `truncated`. */
  text: string;
  truncated: boolean;
  fullLength: number;
  labels: string[];
  note: string;
  /**
   * The grader audit's answer check where it contradicts the folder's verdict (core `answerCheckNote`):
   * `folder: incorrect · answer check: equivalent to the reference (grader audit)`; absent when they agree or
   * there is nothing to compare. A second opinion shown beside the verdict, never replacing it.
   */
  answerCheck?: string;
}

/** Five-number summary plus mean (see src/core/similarity). */
export interface Summary {
  count: number;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
  mean: number | null;
}

/** Most new steps of one sample carried by `SimilarityData` (the count says how many there are). */
export const MAX_NEW_STEPS = 5;

/** Result of `getSimilarity`: every sample of `modelId` against the base model's samples. */
export interface SimilarityData {
  problemId: number;
  modelId: number;
  baseModelId: number;
  samples: {
    sampleId: number;
    sampleIndex: number;
    correct: boolean | null;
    /** Jaccard similarity of token 3-gram sets with the nearest base sample; null without base samples. */
    similarity: number | null;
    /** Share of tokens in no n-gram of any base sample. */
    novelty: number;
    baselinePercentile: number | null;
    nearest: { baseSampleId: number; baseSampleIndex: number; similarity: number }[];
    /**
     * Base samples whose final answer is the same value by answer equivalence (the grouping of maj@k),
     * and how many of them are correct; null when this sample has no extracted answer (absent from
     * results cached by older versions).
     */
    answerInBase?: { count: number; correct: number } | null;
    /**
     * The sample's computation path against the base samples (docs/similarity.md section 6): at most
     * {@link MAX_NEW_STEPS} new steps listed, `newStepCount` of them in all. Absent from results cached by older versions.
     */
    path?: PathMatchData & { newSteps: string[]; newStepCount: number };
  }[];
  /**
   * Paths of correct samples on this problem: this model's whose path some base sample computes in
   * full, and the base samples' whose path another base sample computes (the baseline, n - 1
   * candidates); samples without a step are left out of both counts.
   */
  paths?: { modelInBase: number; modelWithSteps: number; baseInOthers: number; baseWithSteps: number };
  /** Base samples of the problem (the denominator of `answerInBase.count`). */
  baseSamples?: number;
  /** Base-to-base leave-one-out baseline. */
  baseline: { sampleId: number; sampleIndex: number; similarity: number | null; novelty: number }[];
  /** The baseline's figures are absent only in a list stage that came before the baseline (`baselinePending`). */
  summary: { modelSimilarity: Summary; modelNovelty: Summary; baselineSimilarity?: Summary; baselineNovelty?: Summary };
  /**
   * The sample list's stage came before the base-to-base baseline (the base's work was not kept from an
   * earlier job): `baseline` is empty, the summary has no baseline figures and every sample's
   * `baselinePercentile` is null; the full result has them. Only with `partial`.
   */
  baselinePending?: boolean;
  /** Whether the result came from the index's similarity cache. */
  cached: boolean;
  /**
   * The sample list's stage (`getSimilarity` with `stage: 'list'`): the computation paths (`paths`, each
   * sample's `path`) are not computed yet; every other figure is the final one.
   */
  partial?: boolean;
  /**
   * When the extension host did the job's steps, epoch ms (for the e2e suite's timing; absent when cached):
   * `start` the job was asked for (the panel's prefetch or the first request), `texts` both models' texts
   * read, `posted` the job handed to the worker, `list` the list's stage back, `done` the worker's result back
   * (absent in the list's stage); `warmed` when the worker's idle warm-up ended (absent: not warmed; after
   * `posted`: the job waited for it).
   */
  hostSteps?: { start: number; texts: number; posted: number; list?: number; done?: number; warmed?: number };
}

/** One piece of a word diff: neither flag = common. */
export interface DiffPiece {
  value: string;
  added?: true;
  removed?: true;
}

/** Result of `getNovelty`: one model sample against the base samples of its problem. */
export interface NoveltyData {
  sampleId: number;
  baseModelId: number;
  /** The model sample text (cut at MAX_TEXT; spans refer to it). */
  text: string;
  truncated: boolean;
  spans: { start: number; end: number; novel: boolean }[];
  noveltyScore: number;
  tokenCount: number;
  novelTokenCount: number;
  /** Nearest base sample and the word diff against it; null without base samples. */
  nearest: { sampleId: number; sampleIndex: number; similarity: number; text: string; truncated: boolean } | null;
  /** null when there is no base sample or the diff gave up (very long, very different texts). */
  diff: DiffPiece[] | null;
}

/** Result of `getPpl`: perplexity under the base model, from the log-prob sidecar. */
export interface PplData {
  available: boolean;
  /** Sidecar path relative to the folder, when available. */
  source: string | null;
  points: { modelId: number; sampleId: number; correct: boolean | null; ppl: number }[];
  /** Lines of the sidecar that did not match a sample or were malformed (count). */
  skipped: number;
  diagnostics: string[];
}

/**
 * Result of `getPaths`: per compared model (the coverage pairs of the overview), the share of correct
 * samples whose computation path some base sample computes in full (src/core/similarity/pathSummary.ts; without
 * the text measures, which the CLI's `report --paths` adds).
 */
export interface PathsData {
  summaries: {
    baseModelId: number;
    modelId: number;
    /** Problems whose correct samples with steps entered (the bootstrap resamples these). */
    problems: number;
    leftOut: { noBaseSamples: number; noCorrectSample: number; noStepsInCorrect: number };
    correctSamples: number;
    correctWithoutSteps: number;
    pathInBase: { value: number | null; ciLow: number | null; ciHigh: number | null; samples: number };
    pathInBaseLeaveOneOut: number | null;
    baselinePathInBase: { value: number | null; ciLow: number | null; ciHigh: number | null; samples: number };
  }[];
}

/** Result of `getOverview`. */
export interface OverviewData {
  models: ModelInfo[];
  baseModelId: number | null;
  levels: string[];
  /** Dataset pass@k with bootstrap bands; `level` null = all problems. */
  curves: {
    modelId: number;
    level: string | null;
    k: number;
    value: number | null;
    ciLow: number | null;
    ciHigh: number | null;
    /** Problems that entered the value. */
    problems: number;
    /** The model's other problems (of this level): no samples, no graded sample, n < k. */
    missing: number;
    /** What the value is computed over, in words: `over 5 of 6 problems: 1 has n < 1024`. */
    over: string;
  }[];
  /** Accuracy histogram per model: `bin` 0..11 (0 = exactly 0, 11 = exactly 1), label as shown. */
  histograms: { modelId: number; bin: number; label: string; count: number }[];
  /** Why {@link OverviewData.coverage} is empty (one model, or no model compared); absent when it has rows. */
  coverageNote?: string;
  /** Coverage of each non-base model against the base model. */
  coverage: {
    modelId: number;
    baseModelId: number;
    problems: number;
    baseOnly: number;
    modelOnly: number;
    both: number;
    neither: number;
    /** Smallest and largest graded n (samples per problem) of the base and of the model over the compared problems. */
    n: { base: { min: number; max: number }; model: { min: number; max: number } };
    /** The CLI report's warning when n differs between problems or models (report `nDiffersWarning`); else absent. */
    nDiffers?: string;
    /** The other problems of the two models (report `ComparisonReport.missing`), and why in words. */
    missing: number;
    over: string;
    /** The largest k the crossover was searched at, and the largest a shrinking problem set would allow (report). */
    crossoverKMax: number;
    crossoverKMaxRagged: number;
    /** Dataset crossover k before saturation (metrics `crossoverK`); null if none. */
    crossoverK: number | null;
    /** At the crossover k: the trailing model strictly ahead, or only level (report `crossoverKind`). */
    crossoverKind: 'ahead' | 'level' | null;
    /** Smallest k from which the trailing model is strictly ahead before saturation; null if never. */
    crossoverAheadK: number | null;
    /** Smallest k from which both are within 1e-9 of their common maximum; null if never. */
    saturationK: number | null;
    /** Bootstrap interval of the crossover k (metrics `crossoverBootstrap`); null when tied at k = 1. */
    crossoverInterval: CrossoverIntervalData | null;
    leaderAtK1: 'base' | 'model' | 'tie';
    /** The paired bootstrap interval of model - base pass@1 holds 0. */
    leaderAtK1WithinNoise: boolean;
    /** The two models' graders when both are known and differ (report `differentGraders`); null otherwise. */
    differentGraders: { base: string; model: string } | null;
  }[];
  warnings: string[];
  problems: number;
  /** Every dataset of the folder with its problem count (dataset order); every figure of the overview pools them. */
  datasets: { dataset: string; problems: number }[];
  /** The header's count in words: `6 problems in 2 datasets (aime24 2, math500 4)`, or `6 problems` for one dataset. */
  problemsText: string;
}

/** Result of `getSamplePreview`: a sample with everything its preview's header shows. Text from the data, all of it. */
export interface SamplePreview {
  id: number;
  problem: ProblemInfo;
  model: ModelInfo;
  sampleIndex: number;
  correct: boolean | null;
  extractedAnswer: string | null;
  rewardScore: WireScore | null;
  finishReason: string | null;
  tokenCount: number | null;
  /** `file:line` relative to the results folder. */
  source: string;
  /** The text, cut at {@link MAX_PREVIEW_TEXT} code units when `truncated`. */
  text: string;
  truncated: boolean;
  fullLength: number;
  labels: string[];
  note: string;
  /**
   * The grader audit's answer check where it contradicts the folder's verdict (core `answerCheckNote`):
   * `folder: incorrect · answer check: equivalent to the reference (grader audit)`; absent when they agree or
   * there is nothing to compare. A second opinion shown beside the verdict, never replacing it.
   */
  answerCheck?: string;
  /**
   * Where the sample sits in the tree's order (its filter, grouping and order), e.g. "sample 3 of 8
   * incorrect · problem 2 of 5"; null when it is not in the tree's current list.
   */
  position: string | null;
  /** As {@link ProblemData.cachedAt}: the copy kept from before a window reload, served while the index is not ready. */
  cachedAt?: number;
}

/** What the preview's toolbar asks the host to do (the same commands as the keybindings). */
export type PreviewAction =
  | 'nextSample'
  | 'previousSample'
  | 'nextProblem'
  | 'previousProblem'
  | 'nextUnannotated'
  | 'annotate'
  | 'openText'
  | 'openProblemView';
export const PREVIEW_ACTIONS: readonly PreviewAction[] = [
  'nextSample',
  'previousSample',
  'nextProblem',
  'previousProblem',
  'nextUnannotated',
  'annotate',
  'openText',
  'openProblemView',
];

/** One scorer's figures in the Reward models tab (core rewardReport.ts / metrics/rewardModels.ts). */
export interface RewardScorerData {
  name: string;
  /** Pooled over every (correct, incorrect) pair of every problem, ties 1/2; null without pairs. */
  pairwiseAccuracy: number | null;
  pairs: number;
  ties: number;
  bestOfN: {
    n: number;
    value: number | null;
    passAtN: number | null;
    regret: number | null;
    /**
     * Problems with at least N samples (the denominator at this N); `missing` = the model's other problems
     * (any reason), `belowN` = those of the common set with fewer than N samples.
     */
    problems: number;
    missing: number;
    belowN: number;
    /** The denominator in words (core describeDenominator): `over 480 of 483 problems: 3 have n < 10`. */
    over: string;
  }[];
}

/** Result of `getRewardModels`: per model whose samples carry scores, the evaluation of its scorers. */
export interface RewardModelsData {
  models: {
    modelId: number;
    label: string;
    displayId: string;
    /** The model's problems, with or without samples. */
    total: number;
    /** Problems every scorer scored completely: the denominator of every figure. */
    problems: number;
    /** The model's other problems, by reason. */
    leftOut: { noSamples: number; noGradedSample: number; incompleteScores: number };
    /** The common set's denominator in words: `over all 483 problems`, `over 480 of 483 problems: ...`. */
    over: string;
    incompleteByScorer: Record<string, number>;
    /** The N grid 1, 2, 4, ..., n. */
    ns: number[];
    scorers: RewardScorerData[];
    /** Per N, across scorers: Spearman's rho and Kendall's tau-b of accuracy with best-of-N, bootstrap intervals. */
    correlations: {
      n: number;
      scorers: number;
      spearman: number | null;
      kendall: number | null;
      ciLow: number | null;
      ciHigh: number | null;
      kendallCiLow: number | null;
      kendallCiHigh: number | null;
      replicates: number;
    }[];
    stepRules: Record<string, string>;
    /** Per stratum variable (subject, level), problems without a value. */
    unmatched: Record<string, number>;
    bootstrap: { replicates: number; seed: number; level: number };
    /** The model's problems, for the per-problem strips (row ids, labels: id and the start of the question). */
    problemList: { problemId: number; label: string }[];
  }[];
  /** Scores that attach to no sample (each named in a diagnostic on its file). */
  unattachedScores: number;
}

/** Result of `getProblemRanking`: how each scorer ranks one problem's samples of one model. */
export interface ProblemRankingData {
  problemId: number;
  modelId: number;
  label: string;
  question: string | null;
  /** The problem's samples in sample order; `preview` is the start of the text (untrusted: shown as text). */
  samples: { sampleId: number; sampleIndex: number; correct: boolean | null; preview: string }[];
  /** Per scorer, the score of each sample (aligned with `samples`; null: not scored), with step scores when given. */
  scorers: { name: string; scores: (WireScore | null)[]; steps: (WireScore[] | null)[]; rule: string | null }[];
}

/** pass@k of one checkpoint with its 95% bootstrap interval over problems and its denominator. */
export interface TrainingPassAtK {
  k: number;
  value: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** Problems with n >= k (the mean is over these); `missing`: problems with n < k, left out. */
  problems: number;
  missing: number;
}

/** One checkpoint of a training series (src/core/analyses/trajectories.ts), against its own base model. */
export interface TrainingStep {
  step: number;
  modelId: number;
  label: string;
  /** The base model this step is compared with; null when it has none. */
  baseModelId: number | null;
  baseLabel: string | null;
  samples: number;
  graded: number;
  correct: number;
  /** Problems with graded samples: the denominator of sample accuracy. */
  problems: number;
  sampleAccuracy: number | null;
  /** pass@1 and pass@K (K = the series' k), and the same for the base (empty without a base). */
  passAtK: TrainingPassAtK[];
  basePassAtK: TrainingPassAtK[];
  /** Problems both this step and its base have graded samples for: the denominator of categories and gain share. */
  pairedProblems: number;
  categories: { sharpening: number; expansion: number; regression: number; unchanged: number; unsolved: number } | null;
  /** Share of positive gains in correct samples from problems the base solves (sharpening) and from the others. */
  gainShare: {
    sharpening: number | null;
    expansion: number | null;
    ciLow: number | null;
    ciHigh: number | null;
    gainFromSharpening: number;
    gainFromExpansion: number;
    gainedProblems: number;
  } | null;
  /** Mean response length in characters (Unicode code points) of the step and of its base. */
  meanChars: number | null;
  baseMeanChars: number | null;
}

/** One problem across the checkpoints of a series. */
export interface TrainingProblem {
  /** Problem row id (opens the problem view). */
  id: number;
  problemId: string;
  dataset: string;
  /** c and n (graded samples) per step in step order; c null where the step has no graded sample. */
  c: (number | null)[];
  n: number[];
  /** The same for each step's base model. */
  baseC: (number | null)[];
  baseN: number[];
  firstSolvedStep: number | null;
  lostAtStep: number | null;
  pattern: 'gained' | 'lost' | 'flip-flop' | 'always' | 'never';
}

/**
 * Lengths and reasoning-marker counts (core/analyses/reasoningMarkers.ts) of some models, each at a place `at` (a
 * checkpoint's step on the Training tab, a model's label on the Models tab): per place and measure, the mean over
 * problems of the correct and of the incorrect samples with 95% bootstrap intervals over problems, and the
 * within-problem difference correct - incorrect.
 */
export interface MarkerFigures<X extends number | string> {
  /** How tokens were counted (the figure's caption says it). */
  tokenRule: string;
  measures: { id: string; label: string; unit: string }[];
  points: {
    at: X;
    measure: string;
    split: 'correct' | 'incorrect';
    mean: number | null;
    low: number | null;
    high: number | null;
    problems: number;
  }[];
  within: {
    at: X;
    measure: string;
    mean: number | null;
    low: number | null;
    high: number | null;
    problems: number;
    relation: string;
  }[];
  /** Samples of these models without stored measures (indexed before they existed). */
  unmeasured: number;
}

/** The measures of a series' checkpoints, by step. */
export type TrainingMarkers = MarkerFigures<number>;

/** One checkpoint series. */
export interface TrainingSeries {
  name: string;
  /** What the step numbers count: training steps or epochs (never mixed in one series). */
  unit: 'step' | 'epoch';
  /** The largest k every step reaches; null without graded samples. */
  k: number | null;
  /** First step of the later half of the checkpoints ("solved only at late steps": first solved at or after it). */
  lateFromStep: number;
  steps: TrainingStep[];
  /** Every problem some step has graded samples for, in heatmap order (gained, lost, flip-flopping, always, never). */
  problems: TrainingProblem[];
  /** Problem row ids: lost during training (solved earlier, not at the last step) and solved only at late steps. */
  lost: number[];
  late: number[];
  /** Lengths and reasoning markers per step; absent when the index has no measures. */
  markers?: TrainingMarkers;
}

/** Result of `getTraining`: the overview's Training tab. */
export interface TrainingData {
  series: TrainingSeries[];
  /** The step pattern in use (the `traceInspector.stepPattern` setting, else the built-in one). */
  stepPattern: string;
  /** Whether `stepPattern` is the built-in pattern. */
  defaultPattern: boolean;
  warnings: string[];
  /** Models in the folder (how many could have been checkpoints). */
  models: number;
}

/** The split kinds the overview's Splits tab offers (core/analyses/splitDefinitions.ts; a split file is the CLI's only). */
export const SPLIT_KINDS = ['level', 'subject', 'dataset', 'cluster'] as const;
export type SplitKindName = (typeof SPLIT_KINDS)[number];

/**
 * A figure of a split cell with its 95% bootstrap interval (core/analyses/splits.ts, the split matrix: its cells are
 * these types, so that the webview gets them as the CLI's JSON gives them).
 */
export interface SplitEstimateData {
  value: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** Problems that entered the mean. */
  problems: number;
  /** Problems of the split left out of this figure (no record, no graded sample, n < k; or not in the base). */
  missing: number;
}

/** A paired difference with its significance statement. */
export interface SplitDifferenceData extends SplitEstimateData {
  /** Sign-flip permutation p-value (two-sided) of the pass@1 difference. */
  pValue: number;
  /** Whether pValue is exact (every sign assignment enumerated: at most 16 non-zero differences) or Monte Carlo. */
  pExact: boolean;
  /**
   * The smallest p the test could give with this cell's non-zero differences (2 / 2^m when exact): when it is
   * not below alpha the cell can never read better or worse, however large the difference.
   */
  pMin: number;
  /** Holm-adjusted p-value within its family (the report's `significance`). */
  pHolm: number;
  /**
   * `better` / `worse` when pHolm < alpha, else `within noise`; `no data` when no problem of the split has graded
   * samples of both models (nothing tested: the p-values are 1 and say nothing).
   */
  verdict: 'better' | 'worse' | 'within noise' | 'no data';
}

/** One cell of the split matrix: a model (row) on a split (column). */
export interface SplitCellData {
  model: string;
  split: string;
  /** The model was trained on this split. */
  inDistribution: boolean;
  /** Problems of the split. */
  splitProblems: number;
  /** Problems of the split the model has graded samples of (pass@1's denominator). */
  problems: number;
  /** Why the others are out: the model has no record of them, or no graded sample. */
  leftOut: { notInModel: number; noGraded: number };
  /** Graded samples over the cell's problems (summed over seeds), and the range of per-problem n (per seed). */
  samples: number;
  n: { min: number; max: number } | null;
  passAt1: SplitEstimateData;
  passAtK: SplitEstimateData;
  /** Relative to the base model on the same split (absent on the base's row and without a base). */
  relative?: { passAt1: SplitDifferenceData; passAtK: SplitEstimateData };
}

/** Result of `getModelMarkers`: lengths and reasoning markers per model (by label); null when the index has no measures. */
export interface ModelMarkersData {
  markers: MarkerFigures<string> | null;
}

/**
 * Result of `getSplits`: the split matrix of one split kind (the CLI's `report --splits <kind>` with the same
 * defaults: 2000 replicates, seed 12345, k the largest power of two every model's largest n reaches), against the
 * overview's base model. Rows are models (seeds of one model pooled), columns the splits.
 */
export interface SplitsData {
  kind: SplitKindName;
  /**
   * Every kind the tab offers with its number of splits in this folder; `null` for content clusters when they were
   * not computed (they are only when chosen: k-means over the problem texts).
   */
  kinds: { kind: SplitKindName; splits: number | null }[];
  /** How the splits were made, in words. */
  method: string;
  /** The k of the pass@k figures besides pass@1. */
  k: number;
  /** The base model's row name; null without one (one model, or seeds of one model only). */
  base: string | null;
  /** Problems of the folder. */
  problems: number;
  /** The splits (columns) in order; `problemRowIds` the index's problem row ids (the tree's filter). */
  splits: { name: string; label: string; problems: number; problemRowIds: number[]; terms?: string[] }[];
  /** Problems in no split, the first ten named, and why. */
  unassigned: { problems: number; named: string[]; why: string };
  /**
   * The rows in order: name (the report's: the model's id, or its seeds' shared name), `label` (the name every view
   * shows: the tree's short name for one model, the name for pooled seeds), its seeds' display ids, and the split it
   * was trained on (from its name).
   */
  models: { name: string; label: string; seeds: string[]; trainedOn: string | null }[];
  /** Row by row, split by split. */
  cells: SplitCellData[];
  /** How the intervals and tests are made, in words (the report's `uncertainty` and `significance`). */
  intervals: string;
  significance: string;
  warnings: string[];
}

/**
 * The figures a folder can be drawn as for a paper (`trace-inspector figure <folder> <name>`, the views' "Export
 * figure…"): the overview's pass@k, coverage, training, reward-models and splits charts, and one problem's pass@k.
 */
export const FIGURE_NAMES = ['pass-at-k', 'coverage', 'training', 'reward-models', 'splits', 'problem'] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];

/**
 * `exportFigure`: the chart a view shows, to be written in print style for a paper (`data` false: SVG or PNG with
 * its provenance JSON beside it) or as the values it draws (`data` true: CSV or JSON), where the user chooses in the
 * save dialog. Only what picks the chart's content crosses: the models shown (display ids), the level, the series,
 * the split kind and mode, the N, the problem; never a colour or the editor's theme.
 */
export interface ExportFigureParams {
  figure: FigureName;
  data: boolean;
  /** pass-at-k, coverage: the models the view shows (display ids); reward-models: the model whose scorers it shows. */
  models?: string[];
  level?: string;
  series?: string;
  splits?: SplitKindName;
  relative?: boolean;
  n?: number;
  /** problem: the problem's row id. */
  problemId?: number;
}

/** The result of `exportFigure`: the file written (its name, without the folder), or null when the user cancelled. */
export interface ExportFigureResult {
  saved: string | null;
  /** Where the provenance JSON went (figures only). */
  provenance?: string;
}

/** Annotation state after `setAnnotation`. */
export interface AnnotationResult {
  sampleId: number;
  labels: string[];
  note: string;
}

/** Problem sets the webview can ask the tree to show. Model ids are index row ids. */
export type WebviewFilter =
  | { kind: 'all' }
  | { kind: 'failing'; model: number }
  | { kind: 'lost'; base: number; model: number }
  | { kind: 'gained'; base: number; model: number }
  | { kind: 'level'; level: string }
  | { kind: 'label'; label: string }
  /** Problems by row id; `title` names the set in the tree (`level 3: 24 problems`). */
  | { kind: 'problems'; problemIds: number[]; title?: string }
  /** Problems whose accuracy c/n of `model` falls in histogram bin `bin` (0..11). */
  | { kind: 'accuracyBin'; model: number; bin: number }
  /** One cell of the coverage table of `model` against `base`. */
  | { kind: 'coverageCell'; base: number; model: number; cell: 'baseOnly' | 'modelOnly' | 'both' | 'neither' }
  /** Problems of a training series (by name): lost during training, or solved only at late steps. */
  | { kind: 'training'; series: string; which: 'lost' | 'late' };

// ------------------------------------------------------------------------------------------------
// Webview -> host

/** Requests (each gets one reply) with their parameters. */
export interface RequestParams {
  getProblem: { problemId: number };
  getSamples: { problemId: number; modelId: number; offset: number; limit: number };
  getSample: { sampleId: number };
  /**
   * `stage: 'list'`: the answer may come before the computation paths (`partial` true, no `paths`, no
   * sample's `path`; every figure in it final); without it, the full result.
   */
  getSimilarity: { problemId: number; modelId: number; stage?: 'list' };
  getNovelty: { sampleId: number };
  getPpl: { problemId: number };
  getOverview: Record<string, never>;
  getPaths: Record<string, never>;
  getRewardModels: Record<string, never>;
  getProblemRanking: { problemId: number; modelId: number };
  getTraining: Record<string, never>;
  /** The overview's lengths and reasoning markers per model (a figures job of its own, asked for after getOverview). */
  getModelMarkers: Record<string, never>;
  /** The split matrix of split kind `splits`; without it, the first of level, subject, dataset with two splits or more, else clusters. */
  getSplits: { splits?: SplitKindName };
  setAnnotation: { sampleId: number; labels: string[]; note: string };
  filterProblems: { filter: WebviewFilter };
  openSample: { sampleId: number };
  /** Opens the problem view; `modelId` (optional) preselects that model (a checkpoint of the Training tab). */
  openProblem: { problemId: number; modelId?: number };
  getMajAtK: { problemId: number };
  getSamplePreview: { sampleId: number };
  previewAction: { action: PreviewAction; sampleId: number };
  /** A link in model output: the host asks the user before opening it (http and https only). */
  openLink: { url: string };
  exportFigure: ExportFigureParams;
}

/** What each request's reply carries. */
export interface RequestResults {
  getProblem: ProblemData;
  getSamples: SamplePage;
  getSample: SampleText;
  getSimilarity: SimilarityData;
  getNovelty: NoveltyData;
  getPpl: PplData;
  getOverview: OverviewData;
  getPaths: PathsData;
  getRewardModels: RewardModelsData;
  getProblemRanking: ProblemRankingData;
  getTraining: TrainingData;
  getModelMarkers: ModelMarkersData;
  getSplits: SplitsData;
  setAnnotation: AnnotationResult;
  filterProblems: { ok: true };
  openSample: { ok: true };
  openProblem: { ok: true };
  getMajAtK: MajorityData;
  getSamplePreview: SamplePreview;
  previewAction: { ok: true };
  openLink: { opened: boolean };
  exportFigure: ExportFigureResult;
}

export type RequestKind = keyof RequestParams;
export type ResultOf<K extends RequestKind> = RequestResults[K];

export type WebviewRequest = { [K in RequestKind]: { id: number; kind: K } & RequestParams[K] }[RequestKind];
export type RequestOf<K extends RequestKind> = Extract<WebviewRequest, { kind: K }>;

/** Notifications from the webview (no reply). */
export type WebviewNotification =
  | { id: number; kind: 'ready'; view: ViewKind }
  | { id: number; kind: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  | { id: number; kind: 'chartLayout'; layout: ChartLayout };

/**
 * Where a problem view drew its pass@k chart: its width (px) and the glyph widths of its chart font
 * (src/shared/glyphWidths.ts), for the host to draw the next new view's first charts as SVG the same size.
 */
export interface ChartLayout {
  width: number;
  glyphs: GlyphWidths;
}

/** Whether `v` is a {@link ChartLayout} (width an integer in 1..10000). */
export function isChartLayout(v: unknown): v is ChartLayout {
  if (!isObj(v) || Object.keys(v).some((k) => k !== 'width' && k !== 'glyphs')) return false;
  return isNat(v.width, 10000) && v.width >= 1 && isGlyphWidths(v.glyphs);
}

export type WebviewMessage = WebviewRequest | WebviewNotification;

// ------------------------------------------------------------------------------------------------
// Host -> webview

/** What a panel shows, also saved as webview state for restore after reload. */
export interface PanelState {
  view: ViewKind;
  /** The workspace folder (URI string) whose index the panel shows: row ids belong to it. */
  folder?: string;
  /** Problem row id for the problem view. */
  problemId?: number;
  /** Problem key (`dataset\x1fproblemId`): stable across re-indexing, used to restore. */
  problemKey?: string;
  /** Model whose samples are shown in the "in the base distribution?" section. */
  modelId?: number;
  sampleId?: number;
  /** Preview: the sample's model key and index (with `problemKey`: stable across re-indexing, used to restore). */
  modelKey?: string;
  sampleIndex?: number;
  /**
   * Overview: the models shown in the charts and every model the view knew when it saved, both by
   * display id (stable across re-indexing); a model not in `knownModels` follows the default.
   */
  shownModels?: string[];
  knownModels?: string[];
  /** Overview: whether bootstrap bands are drawn. */
  bands?: boolean;
  /** Overview: the tab shown (models, the default, training, reward models, or splits). */
  tab?: 'models' | 'training' | 'rewardModels' | 'splits';
}

/**
 * A view's first data, sent with its init: the problem view's problem, the preview's sample. The webview's
 * first request of that problem or sample is answered from it (webview/rpc.ts).
 */
export type Prefetched =
  | { request: 'getProblem'; problemId: number; result: ProblemData }
  | { request: 'getSamplePreview'; sampleId: number; result: SamplePreview };

export type HostMessage =
  | {
      id: number;
      kind: 'init';
      protocol: number;
      state: PanelState;
      /**
       * The problem view's first data, sent with the init so the pass@k chart does not wait for one more
       * round trip (webview -> workbench -> extension host and back); the webview's first
       * `getProblem` of that problem is answered from it.
       */
      prefetched?: Prefetched;
    }
  | { [K in RequestKind]: { id: number; kind: 'reply'; replyTo: number; request: K; result: ResultOf<K> } }[RequestKind]
  | { id: number; kind: 'error'; replyTo: number; message: string }
  /** The index, the base/focus model or annotations changed: refetch. */
  | { id: number; kind: 'changed' }
  /** How far the figures of request `replyTo` are (any number of these, before its reply or error). */
  | { id: number; kind: 'progress'; replyTo: number; progress: FiguresProgress };

/** Longest {@link FiguresProgress.stage} text. */
export const MAX_PROGRESS_TEXT = 300;

/**
 * How far a long computation of figures is: `stage` says what is computed now, in words (`pass@k curves of
 * Qwen2.5-7B`, `coverage: Qwen2.5-7B-SimpleRL-Zoo against Qwen2.5-7B`, `waiting for the Models tab's
 * figures`); `done` of `total` steps are finished (total 0: no count known yet). Views show it as
 * {@link progressText}.
 */
export interface FiguresProgress {
  stage: string;
  done: number;
  total: number;
}

/**
 * A progress in words, as the views show it: `Computing figures: pass@k curves of base (step 2 of 6)…`; without a
 * count (total 0) `Computing figures: <stage>…`.
 */
export function progressText(p: FiguresProgress): string {
  const step = p.total > 0 ? ` (step ${Math.min(p.done + 1, p.total)} of ${p.total})` : '';
  return `Computing figures: ${p.stage}${step}…`;
}

// ------------------------------------------------------------------------------------------------
// Validation

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
const isNat = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max;
const isStr = (v: unknown, max = MAX_STRING): v is string => typeof v === 'string' && v.length <= max;

/** Keys each request may carry besides `id` and `kind` (extra keys are refused). */
const REQUEST_KEYS: { [K in RequestKind]: readonly (keyof RequestParams[K])[] } = {
  getProblem: ['problemId'],
  getSamples: ['problemId', 'modelId', 'offset', 'limit'],
  getSample: ['sampleId'],
  getSimilarity: ['problemId', 'modelId', 'stage'],
  getNovelty: ['sampleId'],
  getPpl: ['problemId'],
  getOverview: [],
  getPaths: [],
  getRewardModels: [],
  getProblemRanking: ['problemId', 'modelId'],
  getTraining: [],
  getSplits: ['splits'],
  getModelMarkers: [],
  setAnnotation: ['sampleId', 'labels', 'note'],
  filterProblems: ['filter'],
  openSample: ['sampleId'],
  openProblem: ['problemId', 'modelId'],
  getMajAtK: ['problemId'],
  getSamplePreview: ['sampleId'],
  previewAction: ['action', 'sampleId'],
  openLink: ['url'],
  exportFigure: ['figure', 'data', 'models', 'level', 'series', 'splits', 'relative', 'n', 'problemId'],
};

export const REQUEST_KINDS = Object.keys(REQUEST_KEYS) as RequestKind[];

function onlyKeys(o: Obj, allowed: readonly string[]): string | undefined {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) return `unexpected field "${k}"`;
  return undefined;
}

/** Checks a {@link FiguresProgress} (in a message from the host, or from the figures worker); returns it or a reason. */
export function validateProgress(v: unknown): FiguresProgress | string {
  if (!isObj(v)) return 'progress must be an object';
  const extra = onlyKeys(v, ['stage', 'done', 'total']);
  if (extra) return `progress: ${extra}`;
  if (!isStr(v.stage, MAX_PROGRESS_TEXT)) return `progress.stage must be a string of at most ${MAX_PROGRESS_TEXT}`;
  if (!isNat(v.total, 1_000_000) || !isNat(v.done, v.total))
    return 'progress: done and total must be integers with 0 <= done <= total <= 1000000';
  return { stage: v.stage, done: v.done, total: v.total };
}

/** Checks a filter from the webview; returns it or a reason. */
export function validateFilter(v: unknown): WebviewFilter | string {
  if (!isObj(v) || typeof v.kind !== 'string') return 'filter must be an object with a kind';
  const need = (keys: string[], check: () => string | undefined): WebviewFilter | string => {
    const extra = onlyKeys(v, ['kind', ...keys]);
    if (extra) return `filter ${v.kind}: ${extra}`;
    const bad = check();
    return bad ? `filter ${v.kind}: ${bad}` : (v as unknown as WebviewFilter);
  };
  switch (v.kind) {
    case 'all':
      return need([], () => undefined);
    case 'failing':
      return need(['model'], () => (isId(v.model) ? undefined : 'model must be an id'));
    case 'lost':
    case 'gained':
      return need(['base', 'model'], () => (isId(v.base) && isId(v.model) ? undefined : 'base and model must be ids'));
    case 'level':
      return need(['level'], () => (isStr(v.level, 200) ? undefined : 'level must be a string'));
    case 'label':
      return need(['label'], () =>
        isStr(v.label, 200) && v.label.trim() !== '' ? undefined : 'label must be a non-empty string',
      );
    case 'problems':
      return need(['problemIds', 'title'], () =>
        !(Array.isArray(v.problemIds) && v.problemIds.length <= MAX_IDS && v.problemIds.every(isId))
          ? `problemIds must be a list of at most ${MAX_IDS} ids`
          : v.title !== undefined && !isStr(v.title, 200)
            ? 'title must be a string of at most 200 characters'
            : undefined,
      );
    case 'accuracyBin':
      return need(['model', 'bin'], () =>
        isId(v.model) && isNat(v.bin, 11) ? undefined : 'model must be an id and bin in 0..11',
      );
    case 'coverageCell':
      return need(['base', 'model', 'cell'], () =>
        isId(v.base) && isId(v.model) && ['baseOnly', 'modelOnly', 'both', 'neither'].includes(v.cell as string)
          ? undefined
          : 'base and model must be ids, cell one of baseOnly, modelOnly, both, neither',
      );
    case 'training':
      return need(['series', 'which'], () =>
        isStr(v.series, 4000) && (v.which === 'lost' || v.which === 'late')
          ? undefined
          : 'series must be a string and which lost or late',
      );
    default:
      return `unknown filter kind "${String(v.kind).slice(0, 40)}"`;
  }
}

/**
 * Validates a message received from a webview. Returns the typed message, or a string saying
 * why it was refused (the host logs it and, when the message has a usable id, replies with an error).
 */
export function validateWebviewMessage(v: unknown): WebviewMessage | string {
  if (!isObj(v)) return 'message must be an object';
  if (!isId(v.id)) return 'message id must be a positive integer';
  if (typeof v.kind !== 'string') return 'message kind must be a string';
  const kind = v.kind;
  if (kind === 'ready') {
    const extra = onlyKeys(v, ['id', 'kind', 'view']);
    if (extra) return `ready: ${extra}`;
    return VIEW_KINDS.includes(v.view as ViewKind)
      ? (v as WebviewMessage)
      : 'ready: view must be problem, overview or preview';
  }
  if (kind === 'log') {
    const extra = onlyKeys(v, ['id', 'kind', 'level', 'message']);
    if (extra) return `log: ${extra}`;
    if (!['info', 'warn', 'error'].includes(v.level as string)) return 'log: level must be info, warn or error';
    return isStr(v.message, 4000) ? (v as WebviewMessage) : 'log: message must be a string of at most 4000 characters';
  }
  if (kind === 'chartLayout') {
    const extra = onlyKeys(v, ['id', 'kind', 'layout']);
    if (extra) return `chartLayout: ${extra}`;
    return isChartLayout(v.layout)
      ? (v as WebviewMessage)
      : 'chartLayout: layout must be { width: integer in 1..10000, glyphs: { normal, bold }: 95 widths in 0..1000 each }';
  }
  if (!Object.hasOwn(REQUEST_KEYS, kind)) return `unknown message kind "${kind.slice(0, 40)}"`;
  const k = kind as RequestKind;
  const extra = onlyKeys(v, ['id', 'kind', ...(REQUEST_KEYS[k] as string[])]);
  if (extra) return `${k}: ${extra}`;
  const bad = checkParams(k, v);
  return bad ? `${k}: ${bad}` : (v as WebviewMessage);
}

/** Checks the parameters of an `exportFigure` request; a reason, or undefined when they are good. */
function checkExport(v: Obj): string | undefined {
  if (!FIGURE_NAMES.includes(v.figure as FigureName)) return `figure must be one of ${FIGURE_NAMES.join(', ')}`;
  if (typeof v.data !== 'boolean') return 'data must be a boolean';
  if (
    v.models !== undefined &&
    !(Array.isArray(v.models) && v.models.length <= 1000 && v.models.every((m) => isStr(m, 4000)))
  )
    return 'models must be a list of at most 1000 display ids';
  for (const k of ['level', 'series'] as const)
    if (v[k] !== undefined && !isStr(v[k], 4000)) return `${k} must be a string of at most 4000 characters`;
  if (v.splits !== undefined && !SPLIT_KINDS.includes(v.splits as SplitKindName))
    return `splits must be one of ${SPLIT_KINDS.join(', ')} or absent`;
  if (v.relative !== undefined && typeof v.relative !== 'boolean') return 'relative must be a boolean';
  if (v.n !== undefined && !(isNat(v.n, 1 << 20) && v.n >= 1)) return 'n must be a positive integer';
  if (v.problemId !== undefined && !isId(v.problemId)) return 'problemId must be a positive integer';
  return undefined;
}

function checkParams(k: RequestKind, v: Obj): string | undefined {
  switch (k) {
    case 'getProblem':
    case 'getPpl':
    case 'getMajAtK':
      return isId(v.problemId) ? undefined : 'problemId must be a positive integer';
    case 'openProblem':
      if (!isId(v.problemId)) return 'problemId must be a positive integer';
      return v.modelId === undefined || isId(v.modelId) ? undefined : 'modelId must be a positive integer';
    case 'getSample':
    case 'getNovelty':
    case 'openSample':
    case 'getSamplePreview':
      return isId(v.sampleId) ? undefined : 'sampleId must be a positive integer';
    case 'previewAction':
      if (!PREVIEW_ACTIONS.includes(v.action as PreviewAction))
        return `action must be one of ${PREVIEW_ACTIONS.join(', ')}`;
      return isId(v.sampleId) ? undefined : 'sampleId must be a positive integer';
    case 'openLink':
      return isStr(v.url, MAX_URL) && /^https?:\/\/[^\s]+$/i.test(v.url)
        ? undefined
        : `url must be an http(s) URL of at most ${MAX_URL} characters without spaces`;
    case 'getSimilarity':
      if (v.stage !== undefined && v.stage !== 'list') return "stage must be 'list' or absent";
      return isId(v.problemId) && isId(v.modelId) ? undefined : 'problemId and modelId must be positive integers';
    case 'getProblemRanking':
      return isId(v.problemId) && isId(v.modelId) ? undefined : 'problemId and modelId must be positive integers';
    case 'getSamples':
      if (!isId(v.problemId) || !isId(v.modelId)) return 'problemId and modelId must be positive integers';
      if (!isNat(v.offset)) return 'offset must be a non-negative integer';
      return isNat(v.limit, MAX_PAGE) && v.limit >= 1 ? undefined : `limit must be an integer in 1..${MAX_PAGE}`;
    case 'getOverview':
    case 'getPaths':
    case 'getRewardModels':
    case 'getTraining':
    case 'getModelMarkers':
      return undefined;
    case 'exportFigure':
      return checkExport(v);
    case 'getSplits':
      return v.splits === undefined || SPLIT_KINDS.includes(v.splits as SplitKindName)
        ? undefined
        : `splits must be one of ${SPLIT_KINDS.join(', ')} or absent`;
    case 'setAnnotation':
      if (!isId(v.sampleId)) return 'sampleId must be a positive integer';
      if (!Array.isArray(v.labels) || v.labels.length > 50 || !v.labels.every((l) => isStr(l, 200))) {
        return 'labels must be a list of at most 50 strings of at most 200 characters';
      }
      return isStr(v.note) ? undefined : `note must be a string of at most ${MAX_STRING} characters`;
    case 'filterProblems': {
      const f = validateFilter(v.filter);
      return typeof f === 'string' ? f : undefined;
    }
  }
}

/**
 * Validates a message received from the host (in the webview). Structural check of the envelope
 * and of the state; results are checked to be objects of the kind the request asked for.
 */
export function validateHostMessage(v: unknown): HostMessage | string {
  if (!isObj(v)) return 'message must be an object';
  if (!isNat(v.id)) return 'message id must be a non-negative integer';
  switch (v.kind) {
    case 'init': {
      if (v.protocol !== PROTOCOL_VERSION) return `protocol ${String(v.protocol)} is not ${PROTOCOL_VERSION}`;
      const s = validatePanelState(v.state);
      if (typeof s === 'string') return `init: ${s}`;
      if (v.prefetched !== undefined) {
        const f = v.prefetched;
        const ok =
          isObj(f) &&
          isObj(f.result) &&
          ((f.request === 'getProblem' && Number.isSafeInteger(f.problemId)) ||
            (f.request === 'getSamplePreview' && Number.isSafeInteger(f.sampleId)));
        if (!ok)
          return 'init: prefetched must be { request: "getProblem", problemId: integer, result: object } or { request: "getSamplePreview", sampleId: integer, result: object }';
      }
      return v as HostMessage;
    }
    case 'reply':
      if (!isId(v.replyTo)) return 'reply: replyTo must be a positive integer';
      if (typeof v.request !== 'string' || !REQUEST_KINDS.includes(v.request as RequestKind))
        return 'reply: unknown request kind';
      if (!isObj(v.result)) return 'reply: result must be an object';
      return v as HostMessage;
    case 'error':
      if (!isId(v.replyTo)) return 'error: replyTo must be a positive integer';
      return isStr(v.message) ? (v as HostMessage) : 'error: message must be a string';
    case 'changed':
      return v as HostMessage;
    case 'progress': {
      if (!isId(v.replyTo)) return 'progress: replyTo must be a positive integer';
      const extra = onlyKeys(v, ['id', 'kind', 'replyTo', 'progress']);
      if (extra) return `progress: ${extra}`;
      const p = validateProgress(v.progress);
      return typeof p === 'string' ? p : { id: v.id as number, kind: 'progress', replyTo: v.replyTo, progress: p };
    }
    default:
      return `unknown message kind "${String(v.kind).slice(0, 40)}"`;
  }
}

/** Validates a saved panel state (the serializer hands back whatever was stored). */
/** Most models a saved overview state lists. */
export const MAX_STATE_MODELS = 1000;

export function validatePanelState(v: unknown): PanelState | string {
  if (!isObj(v)) return 'state must be an object';
  if (!VIEW_KINDS.includes(v.view as ViewKind)) return 'state.view must be problem, overview or preview';
  if (v.problemId !== undefined && !isId(v.problemId)) return 'state.problemId must be a positive integer';
  if (v.problemKey !== undefined && !isStr(v.problemKey, 4000)) return 'state.problemKey must be a string';
  if (v.folder !== undefined && !isStr(v.folder, 4000)) return 'state.folder must be a string';
  if (v.modelId !== undefined && !isId(v.modelId)) return 'state.modelId must be a positive integer';
  if (v.sampleId !== undefined && !isId(v.sampleId)) return 'state.sampleId must be a positive integer';
  if (v.modelKey !== undefined && !isStr(v.modelKey, 4000)) return 'state.modelKey must be a string';
  if (v.sampleIndex !== undefined && !isNat(v.sampleIndex)) return 'state.sampleIndex must be a non-negative integer';
  const ids = (x: unknown) => Array.isArray(x) && x.length <= MAX_STATE_MODELS && x.every((e) => isStr(e, 4000));
  if (v.shownModels !== undefined && !ids(v.shownModels))
    return `state.shownModels must be at most ${MAX_STATE_MODELS} strings`;
  if (v.knownModels !== undefined && !ids(v.knownModels))
    return `state.knownModels must be at most ${MAX_STATE_MODELS} strings`;
  if (v.bands !== undefined && typeof v.bands !== 'boolean') return 'state.bands must be a boolean';
  if (v.tab !== undefined && !['models', 'training', 'rewardModels', 'splits'].includes(v.tab as string))
    return 'state.tab must be models, training, rewardModels or splits';
  const out: PanelState = { view: v.view as ViewKind };
  if (v.shownModels !== undefined) out.shownModels = [...(v.shownModels as string[])];
  if (v.knownModels !== undefined) out.knownModels = [...(v.knownModels as string[])];
  if (v.bands !== undefined) out.bands = v.bands as boolean;
  if (v.tab !== undefined) out.tab = v.tab as PanelState['tab'];
  if (v.problemId !== undefined) out.problemId = v.problemId as number;
  if (v.problemKey !== undefined) out.problemKey = v.problemKey as string;
  if (v.modelId !== undefined) out.modelId = v.modelId as number;
  if (v.sampleId !== undefined) out.sampleId = v.sampleId as number;
  if (v.modelKey !== undefined) out.modelKey = v.modelKey as string;
  if (v.folder !== undefined) out.folder = v.folder as string;
  if (v.sampleIndex !== undefined) out.sampleIndex = v.sampleIndex as number;
  return out;
}

/** Builds a reply (host side), typed by the request it answers. */
export function reply<K extends RequestKind>(
  id: number,
  req: { id: number; kind: K },
  result: ResultOf<K>,
): HostMessage {
  return { id, kind: 'reply', replyTo: req.id, request: req.kind, result } as HostMessage;
}
