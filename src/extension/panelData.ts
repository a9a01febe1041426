/**
 * What the problem view and the overview show, assembled from the index: plain data in the shapes
 * of src/shared/protocol.ts. No `vscode` import, so it is tested with node's runner on real data.
 *
 * Metric definitions and sources are those of src/core/metrics (pass@k: Chen et al. 2021; Beta
 * interval: Jeffreys, Brown, Cai & DasGupta 2001; crossover k, coverage, accuracy histogram: Yue et
 * al. 2025, arXiv:2504.13837); similarity is src/core/similarity (token 3-gram Jaccard, MinHash
 * shortlist, novel spans).
 */
import { type SampleTextRow, sampleTextRows, type TextSource } from '../core/index/sampleText';
import { readRowTexts } from '../core/index/rowTexts';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AnnotationStore } from '../core/index/annotations';
import { STANDARD_LABELS } from '../core/index/annotations';
import { baseGuessNote, comparisonPairs, EXTENSION_CHOOSE_BASE, shortModelNames } from '../core/index/labels';
import { seedSiblingMessage, seedSiblings, shortStepGroups, shortStepMessage } from '../core/grouping/seeds';
import {
  basePoolMessage,
  comparisonPairing,
  pooledBaseRows,
  withoutPooledReplicates,
} from '../core/grouping/basePools';
import { DEFAULT_MAX_TEXT_SAMPLES, type PathContext, pathContext, pathSummary } from '../core/similarity/pathSummary';
import {
  graderDifference,
  graderWarning,
  nDiffersWarning,
  pairNRange,
  partialWarning,
  REPORT_REPLICATES,
  unreadableWarning,
} from '../core/report/index';
import { answerCheckDisagreements, answerCheckNote } from '../core/analyses/graderAudit';
import { hasReference } from '../core/answers/reference';
import { diagnosticPlace } from '../core/model';
import { LOGPROB_SIDECAR, readPplSidecar } from '../core/similarity/ppl';
import { KEY_SEP, type ModelRow, type ProblemFilter, type StatRow, type TraceIndex } from '../core/index/traceIndex';
import {
  accuracyHistogram,
  answerInBase,
  baseAnswerCounts,
  betaInterval,
  bestOfK,
  bootstrapPassAtKCurve,
  categorize,
  coverage,
  crossoverBootstrap,
  crossoverK,
  intervalHoldsZero,
  kGrid,
  majOfGroups,
  twoLevelPairedDiffAt1,
  passAtK,
  problemSaturationK,
  type ProblemPair,
  voteGroups,
  withinNoise,
} from '../core/metrics';
import {
  baselineOf,
  buildBaseIndex,
  type ComputationPath,
  lexText,
  type PreparedBase,
  type PathMatch,
  type ProblemPaths,
  problemPaths,
  problemSimilarity,
  summarize,
} from '../core/similarity';
import type { PathMatchData } from '../shared/pathLine';
import { REWARD_SCORE_SCORER, describeRewardDenominator, rewardModelsReport } from '../core/report/rewardReport';
import { preview } from '../core/text/strings';
import { markerFigures, reasoningMarkers } from '../core/analyses/reasoningMarkers';
import {
  type DatasetCount,
  datasetCounts,
  describeDatasets,
  problemNamer,
  problemsInDatasets,
} from '../core/grouping/datasets';
import { denominator, describeDenominator, nameProblems, problemSet } from '../core/metrics/denominators';
import {
  comparisonDenominator,
  comparisonWarning,
  maxMinN,
  notComparedModels,
  notComparedReason,
  notComparedWarning,
} from '../core/report/index';
import { compileStepPattern, DEFAULT_STEP_PATTERN } from '../core/grouping/series';
import {
  clusterOrder,
  computeTrajectories,
  type TrajectoryDetail,
  trajectoryFilter,
} from '../core/analyses/trajectories';
import {
  MAX_NEW_STEPS,
  type PathsData,
  MAX_PREVIEW_TEXT,
  MAX_PAGE,
  MAX_TEXT,
  type KPoint,
  type MajorityData,
  type ModelMarkersData,
  type FiguresProgress,
  type ModelInfo,
  type NoveltyData,
  type OverviewData,
  type PplData,
  type ProblemComparison,
  type ProblemData,
  type ProblemModelStats,
  type ProblemRankingData,
  type RewardModelsData,
  type SamplePage,
  type SamplePreview,
  type SampleSummary,
  type SampleText,
  type SimilarityData,
  type TrainingData,
  type TrainingSeries,
  type WebviewFilter,
  type WireScore,
  wireScore,
} from '../shared/protocol';

/** Model ids of the base model and the model in focus (either may be absent). */
export interface Roles {
  baseId?: number;
  focusId?: number;
  /** The user chose the base model (else it is a guess and runs are compared within themselves, as the CLI does). */
  baseIsChoice?: boolean;
  /** Step pattern of checkpoint series (the `traceInspector.stepPattern` setting); empty: the built-in one. */
  stepPattern?: string;
}

/**
 * A model as the webview sees it. `onlyModel`: the folder has this one model (`index.models().length === 1`);
 * it is then not called the base (isBase false, `onlyModel` true) however the roles name it, since it has
 * nothing to be compared with (trial 13 finding 4: a BASE badge, "(base)" and "base model: …" in a
 * one-model folder, where the tree says "only model").
 */
function modelInfo(m: ModelRow, roles: Roles, onlyModel = false): ModelInfo {
  return {
    id: m.id,
    // a partly indexed model is marked wherever its label is shown (legends, tables, headers)
    label: m.partial ? `${m.label} (partial)` : m.label,
    displayId: m.displayId,
    isBase: !onlyModel && m.id === roles.baseId,
    isFocus: m.id === roles.focusId,
    ...(onlyModel ? { onlyModel: true } : {}),
    run: m.run,
    partial: m.partial,
  };
}

/**
 * The folder's models as the views name them (`TraceIndex.models()` order): `label` is the model's short name (core
 * `shortModelNames`: `1.5B-GRPO · step-200`, `propose1_value3_greedy5`), the name the tree, status bar and tab
 * titles give it, so the preview, the problem view and the overview (tables, legends, headings, warnings) say the
 * same (trial 13 finding 8: they said `Qwen2.5-Math-1.5B-GRPO · global_step_200`). The full id stays in
 * `displayId`, which the views show in tooltips.
 */
export function viewModels(index: TraceIndex): ModelRow[] {
  const models = index.models();
  const short = shortModelNames(models);
  return models.map((m) => ({ ...m, label: short.get(m.id) ?? m.label }));
}

/** One model of {@link viewModels} (the short name as its label); undefined when not in the index. */
function viewModel(index: TraceIndex, id: number): ModelRow | undefined {
  return viewModels(index).find((m) => m.id === id);
}

/** Whether the index holds exactly one model (the "only model" of the tree). */
function soleModel(index: TraceIndex): boolean {
  return index.models().length === 1;
}

function curve(n: number, f: (k: number) => number | null): KPoint[] {
  return n > 0 ? kGrid(n).map((k) => ({ k, value: f(k) })) : [];
}

/**
 * Everything the problem view's header and chart need for one problem: per model n, c, c/n with its
 * 95% Jeffreys interval, pass@k at k = 1, 2, 4, ..., n, best-of-k (when reward scores exist) and
 * maj@k (when extracted answers exist; answers grouped by answer equivalence, the winning group judged
 * by the problem's reference answer when it has one, else by verdicts: metrics `voteGroups`), and each
 * model against its base: category (and whether it is within noise) and the saturation point (no
 * per-problem crossover: two curves of one problem never cross).
 * n is the number of graded samples (ungraded samples do not enter pass@k).
 * @returns undefined when the problem id is unknown.
 */
export function problemData(
  index: TraceIndex,
  problemId: number,
  roles: Roles,
  annotations?: AnnotationStore,
  hasLogprobs = false,
): ProblemData | undefined {
  const p = index.problem(problemId);
  if (!p) return undefined;
  const rows = index.problemStats(problemId);
  const byId = new Map(viewModels(index).map((m) => [m.id, m]));
  const present = rows.map((r) => byId.get(r.modelId)).filter((m): m is ModelRow => !!m);
  present.sort((a, b) => Number(b.id === roles.baseId) - Number(a.id === roles.baseId));
  const stats: ProblemModelStats[] = rows.map((r) => {
    const n = r.graded;
    const c = r.c;
    const beta = n > 0 ? betaInterval(c, n) : null;
    const scored = r.scored > 0 ? index.scoredSamples(problemId, r.modelId) : [];
    const hasAnswers = hasExtractedAnswers(index, problemId, r.modelId);
    return {
      modelId: r.modelId,
      n,
      c,
      samples: r.n,
      scored: r.scored,
      accuracy: n > 0 ? c / n : null,
      betaLow: beta ? beta.low : null,
      betaHigh: beta ? beta.high : null,
      passAtK: curve(n, (k) => passAtK(n, c, k)),
      bestOfK: scored.length > 0 ? curve(scored.length, (k) => bestOfK(scored, k)) : [],
      majAtK: [],
      hasMajAtK: hasAnswers,
    };
  });
  // Each model against its comparison base (the chosen base, or its own run's base while the base is a
  // guess: the pairs of the CLI report and the overview); a base is compared with nothing.
  const comparisons: ProblemComparison[] = [];
  const base = rows.find((r) => r.modelId === roles.baseId);
  const roleBase = roles.baseId !== undefined ? byId.get(roles.baseId) : undefined;
  const pairing = comparisonPairing([...byId.values()], roleBase, !!roles.baseIsChoice);
  const baseOf = new Map(pairing.pairs.map(([b, m]) => [m.id, b.id]));
  for (const r of rows) {
    // a base's replicates pooled into it, as in the report and the overview (basePools.ts; trial 12 finding 10)
    const bid = baseOf.get(r.modelId);
    const br =
      bid === undefined
        ? undefined
        : pooledBaseRows(bid, pairing.pools, (id) => rows.filter((x) => x.modelId === id))[0];
    if (!br || br.graded === 0 || r.graded === 0) continue;
    const bc = { n: br.graded, c: br.c };
    const mc = { n: r.graded, c: r.c };
    comparisons.push({
      modelId: r.modelId,
      baseModelId: br.modelId,
      category: categorize(bc, mc),
      withinNoise: withinNoise(bc, mc),
      saturationK: problemSaturationK(bc, mc),
    });
  }
  const labels = [...new Set([...STANDARD_LABELS, ...(annotations?.labelsInUse() ?? [])])];
  return {
    problem: {
      id: p.id,
      dataset: p.dataset,
      problemId: p.problemId,
      question: p.question,
      referenceAnswer: p.referenceAnswer,
      level: p.level,
    },
    models: present.map((m) => modelInfo(m, roles, byId.size === 1)),
    stats,
    comparisons,
    baseModelId: base ? base.modelId : null,
    focusModelId: roles.focusId !== undefined && rows.some((r) => r.modelId === roles.focusId) ? roles.focusId : null,
    labels,
    hasLogprobs,
  };
}

/** Whether any sample of the model for the problem has an extracted answer. */
function hasExtractedAnswers(index: TraceIndex, problemId: number, modelId: number): boolean {
  return index.answers(problemId, modelId).some((a) => a.answer !== null && a.answer !== '');
}

/**
 * Input of a maj@k job, run in the similarity worker: the problem's reference answer (null: none) and
 * the answers of each model with extracted answers.
 */
export interface MajorityJob {
  kind: 'majority';
  reference: string | null;
  models: { modelId: number; answers: { answer: string | null; correct: boolean | null }[] }[];
}

/** The maj@k job of one problem: every model with extracted answers, its votes without the samples that errored. */
export function majorityJob(index: TraceIndex, problemId: number): MajorityJob {
  return {
    kind: 'majority',
    reference: index.problem(problemId)?.referenceAnswer ?? null,
    models: index
      .problemStats(problemId)
      .map((r) => ({
        modelId: r.modelId,
        // a sample that errored (no output) is not a vote, as in the report's maj@k
        answers: index
          .answers(problemId, r.modelId)
          .filter((a) => !a.errored)
          .map((a) => ({ answer: a.answer, correct: a.correct })),
      }))
      .filter((m) => m.answers.some((a) => a.answer !== null && a.answer !== '')),
  };
}

/**
 * What the problem view says beside its maj@k curves (trial 13 finding 1: maj@1 0.125 beside pass@1 0 on a
 * problem whose 8 samples the folder grades incorrect, with nothing saying why): how maj@k judges the winning
 * answer (against the problem's reference answer by answer equivalence when it has one, as self-consistency
 * does; else by the majority verdict of the group's graded samples) while pass@k and best-of-k use the
 * folder's verdicts, and, when they can differ on this problem, by how many samples per model (the grader
 * audit's disagreements: a verdict the answer check contradicts). `label`: a model's name as the view shows it.
 */
export function majorityNote(index: TraceIndex, problemId: number, label: (modelId: number) => string): string {
  const reference = index.problem(problemId)?.referenceAnswer ?? null;
  if (!hasReference(reference))
    return 'maj@k: the winning answer is judged by the majority verdict of its graded samples (no reference answer), as pass@k uses the folder’s verdicts.';
  const parts: string[] = [];
  const samples = (n: number) => (n === 1 ? '1 sample' : `${n} samples`);
  for (const [modelId, c] of answerCheckDisagreements(index, problemId).get(problemId) ?? []) {
    const what = [
      c.folderIncorrectToolCorrect
        ? `${samples(c.folderIncorrectToolCorrect)} graded incorrect with an answer equivalent to the reference`
        : '',
      c.folderCorrectToolIncorrect
        ? `${samples(c.folderCorrectToolIncorrect)} graded correct with an answer not equivalent to it`
        : '',
    ].filter(Boolean);
    parts.push(`${label(modelId)}: ${what.join(', ')}`);
  }
  const base =
    'maj@k judges the winning answer against the reference answer (answer equivalence, as self-consistency does); pass@k and best-of-k use the folder’s verdicts';
  return parts.length
    ? `${base}. On this problem the two disagree (grader audit): ${parts.join('; ')}.`
    : `${base}; on this problem every graded sample with an answer agrees with the reference.`;
}

/**
 * maj@k at k = 1, 2, 4, ..., n per model: the answers grouped once by answer equivalence and judged by
 * the reference answer when the problem has one, as the report's maj@k does (core `voteGroups` and
 * `majOfGroups`: exact at every k, from the groups' counts; see src/core/metrics/majority.ts for ties,
 * ungraded samples and keys). It runs in the worker and only when asked for.
 */
export function runMajorityJob(job: MajorityJob): MajorityData['curves'] {
  return job.models.map((m) => {
    const votes = voteGroups(m.answers, { reference: job.reference });
    return { modelId: m.modelId, majAtK: curve(m.answers.length, (k) => majOfGroups(votes, k).value) };
  });
}

/**
 * One page of a model's samples for one problem, correct samples first, then incorrect, then
 * ungraded (each group in sample order). `offset`/`limit` index that combined order.
 */
export function samplePage(
  index: TraceIndex,
  problemId: number,
  modelId: number,
  offset: number,
  limit: number,
): SamplePage {
  const counts = index.sampleCounts(problemId, modelId);
  const groups: [boolean | null, number][] = [
    [true, counts.correct],
    [false, counts.incorrect],
    [null, counts.ungraded],
  ];
  const total = counts.correct + counts.incorrect + counts.ungraded;
  const reference = index.problem(problemId)?.referenceAnswer ?? null;
  const out: SampleSummary[] = [];
  let start = offset;
  let want = limit;
  for (const [verdict, count] of groups) {
    if (want <= 0) break;
    if (start >= count) {
      start -= count;
      continue;
    }
    const rows = index.samples(problemId, modelId, {
      correct: verdict,
      offset: start,
      limit: Math.min(want, count - start),
    });
    for (const r of rows) {
      const check = answerCheckNote(r.correct, r.extractedAnswer, reference);
      out.push({
        id: r.id,
        modelId: r.modelId,
        sampleIndex: r.sampleIndex,
        correct: r.correct,
        extractedAnswer: r.extractedAnswer,
        rewardScore: wireScore(r.rewardScore),
        finishReason: r.finishReason,
        tokenCount: r.tokenCount,
        length: r.length,
        labels: r.labels,
        hasNote: r.hasNote,
        ...(check ? { answerCheck: check } : {}),
      });
    }
    want -= rows.length;
    start = 0;
  }
  return { problemId, modelId, offset, total, samples: out };
}

/**
 * A sample with its text (cut at MAX_TEXT; read from its results file through `texts`, which throws
 * when the file changed since it was indexed) and its annotation.
 */
export async function sampleText(
  index: TraceIndex,
  annotations: AnnotationStore | undefined,
  sampleId: number,
  texts: TextSource,
): Promise<SampleText | undefined> {
  const row = index.sample(sampleId);
  const text = row ? await texts.sampleText(sampleId) : undefined;
  if (!row || text === undefined) return undefined;
  const s = { ...row, text };
  const ref = annotations?.refOf(sampleId);
  const a = ref ? annotations?.get(ref) : undefined;
  const check = answerCheckNote(s.correct, s.extractedAnswer, index.problem(s.problemId)?.referenceAnswer);
  return {
    id: s.id,
    modelId: s.modelId,
    problemId: s.problemId,
    sampleIndex: s.sampleIndex,
    correct: s.correct,
    extractedAnswer: s.extractedAnswer,
    text: s.text.length > MAX_TEXT ? s.text.slice(0, MAX_TEXT) : s.text,
    truncated: s.text.length > MAX_TEXT,
    fullLength: s.text.length,
    labels: a?.labels ?? [],
    note: a?.note ?? '',
    ...(check ? { answerCheck: check } : {}),
  };
}

/**
 * Everything the sample preview shows for one sample: the problem (question, reference answer), the
 * model with its role, the verdict and the sample's other fields, its annotation, and the text cut at
 * {@link MAX_PREVIEW_TEXT} code units (`truncated`, `fullLength` say so). `position` is passed through
 * (the host knows the tree's order); the text is read from its results file through `texts` (which
 * throws SourceChangedError when the file changed since it was indexed). Undefined when the sample is
 * not in the index.
 */
export async function samplePreview(
  index: TraceIndex,
  annotations: AnnotationStore | undefined,
  sampleId: number,
  roles: Roles,
  texts: TextSource,
  position: string | null = null,
): Promise<SamplePreview | undefined> {
  const row = index.sample(sampleId);
  const problem = row && index.problem(row.problemId);
  const model = row && viewModel(index, row.modelId);
  const text = row && problem && model ? await texts.sampleText(sampleId) : undefined;
  if (!row || !problem || !model || text === undefined) return undefined;
  const s = { ...row, text };
  const ref = annotations?.refOf(sampleId);
  const a = ref ? annotations?.get(ref) : undefined;
  const check = answerCheckNote(s.correct, s.extractedAnswer, problem.referenceAnswer);
  return {
    id: s.id,
    problem: {
      id: problem.id,
      dataset: problem.dataset,
      problemId: problem.problemId,
      question: problem.question,
      referenceAnswer: problem.referenceAnswer,
      level: problem.level,
    },
    model: modelInfo(model, roles, soleModel(index)),
    sampleIndex: s.sampleIndex,
    correct: s.correct,
    extractedAnswer: s.extractedAnswer,
    rewardScore: wireScore(s.rewardScore),
    finishReason: s.finishReason,
    tokenCount: s.tokenCount,
    source: `${s.file}:${s.line}`,
    text: s.text.length > MAX_PREVIEW_TEXT ? s.text.slice(0, MAX_PREVIEW_TEXT) : s.text,
    truncated: s.text.length > MAX_PREVIEW_TEXT,
    fullLength: s.text.length,
    labels: a?.labels ?? [],
    note: a?.note ?? '',
    ...(check ? { answerCheck: check } : {}),
    position,
  };
}

// ------------------------------------------------------------------------------------------------
// Similarity (pure compute functions run in the similarity worker; cache helpers run on the host)

/**
 * Parameters of the similarity measure used by the views (defaults of src/core/similarity, 3 neighbours);
 * `version` 2 adds computation paths (cached results of version 1 are recomputed).
 */
export const SIMILARITY_PARAMS = { n: 3, numHashes: 64, topK: 3, version: 2 } as const;

/** Input of a similarity job: texts only, so it can be posted to a worker. */
export interface SimilarityJob {
  kind: 'problem';
  base: { id: number; sampleIndex: number; correct?: boolean | null; text: string }[];
  model: { id: number; sampleIndex: number; correct: boolean | null; text: string }[];
}

/**
 * A similarity job whose texts the worker reads itself from the results files (rowTexts `readRowTexts`):
 * the places of each sample's text (`sampleTextRows`), not the texts. Reading a problem's 2 x 1024 texts
 * (one parse of each model's line, a content hash per sample) took 100-250 ms of the extension host's
 * thread, in pieces of 50-75 ms during which the workbench's round trips to the host (the first run of a
 * command: activation event, then the command) waited: the problem view the user clicked opened later
 * when the tree's selection had started the job (issue 14). `root`: the folder the rows' paths are
 * relative to. A file changed since indexing fails the job with a SourceChangedError (file and line).
 */
export interface SimilarityFilesJob {
  kind: 'problemFiles';
  root: string | undefined;
  base: SampleTextRow[];
  model: SampleTextRow[];
}

/** Input of a novelty job: one model sample against the base samples of its problem. */
export interface NoveltyJob {
  kind: 'novelty';
  text: string;
  base: { id: number; sampleIndex: number; text: string }[];
}

/** Body of a SimilarityData without the ids of the request (filled in by the caller). */
export type SimilarityBody = Pick<
  SimilarityData,
  'samples' | 'baseline' | 'summary' | 'baseSamples' | 'paths' | 'baselinePending'
>;
export type NoveltyBody = Omit<NoveltyData, 'sampleId' | 'baseModelId'>;

/** The model-independent work of a similarity job for one base: kept for the next job with the same base. */
interface BaseWork {
  key: string;
  prepared: PreparedBase;
  basePaths: ComputationPath[];
}
/**
 * The last few bases' work, newest last (in the similarity worker: one per problem and base model the
 * user looked at; a problem's base is shared by every model compared with it). Keyed by a digest of
 * the base texts themselves, so a re-indexed or edited folder never reuses stale work.
 */
const baseWorkCache: BaseWork[] = [];
/** How many bases {@link baseWorkCache} keeps (one 1024-sample base of 4.6k-character texts: ~60 MB). */
const BASE_WORK_CACHE_SIZE = 2;

/** SHA-1 of a list of texts (lengths and contents), with the measure's parameters. */
function baseKey(texts: readonly string[]): string {
  const h = createHash('sha1');
  h.update(JSON.stringify(SIMILARITY_PARAMS));
  for (const t of texts) h.update(`${t.length}:`).update(t);
  return h.digest('hex');
}

/** How many bases' work the worker keeps now (tests). */
export function keptBaseCount(): number {
  return baseWorkCache.length;
}

/** Drops the kept work of every base (tests; a worker that must free memory). */
export function clearBaseWorkCache(): void {
  baseWorkCache.length = 0;
}

/**
 * Runs problemSimilarity on a job and maps indices back to sample ids. `keepBase` false (the worker's
 * warm-up job) leaves the kept work of the last bases as it was: the job's base is neither kept nor
 * moved to the front. `onList`, when given, gets the sample list's stage first: the same body without
 * `paths` and without each sample's `path` (the computation paths, ~1/4 of the job, come after it); when
 * the base's work was not kept from an earlier job, also before the base-to-base baseline (~1/6 of the
 * job): then `baselinePending` is true, `baseline` is empty, the summary has only the model's figures and
 * each sample's `baselinePercentile` is null. Every figure in it is the final one (what comes after changes
 * nothing else). The result is the same with or without `onList`.
 */
export function runSimilarityJob(
  job: SimilarityJob,
  keepBase = true,
  onList?: (list: SimilarityBody) => void,
): SimilarityBody {
  const stages = similarityStages(job, keepBase, onList);
  for (;;) {
    const step = stages.next();
    if (step.done) return step.value;
  }
}

/**
 * runSimilarityJob in stages, for a scheduler that lets another job run between them (the similarity worker:
 * a newer problem's sample list goes before an older job's baseline and paths). Each `next()` runs one stage:
 * (1) lex the texts, build or reuse the base index, find each model sample's nearest base samples, and post the
 * sample list (`onList`) when the base was not kept; (2) the base-to-base baseline and the summary (`onList` here
 * when the base was kept); (2b, when the base was not kept) the base samples' computation paths, and the base's
 * work kept for later jobs; (3) the model samples' computation paths, returned as the result. Driving it to the
 * end gives exactly runSimilarityJob's result and calls; the base work is kept (or not, `keepBase`) the same way,
 * looked up again when it is stored, so two jobs of one base in flight keep it once.
 */
export function* similarityStages(
  job: SimilarityJob,
  keepBase = true,
  onList?: (list: SimilarityBody) => void,
): Generator<void, SimilarityBody, void> {
  const opts = { n: SIMILARITY_PARAMS.n, numHashes: SIMILARITY_PARAMS.numHashes, topK: SIMILARITY_PARAMS.topK };
  const baseTexts = job.base.map((b) => b.text);
  const modelTexts = job.model.map((m) => m.text);
  const key = baseKey(baseTexts);
  const at = baseWorkCache.findIndex((w) => w.key === key);
  const kept = at >= 0 ? baseWorkCache[at] : undefined;
  // each text is lexed once, for both the similarity index and the computation paths
  const modelLexed = modelTexts.map(lexText);
  const baseLexed = kept ? undefined : baseTexts.map(lexText);
  const index = kept ? kept.prepared.index : buildBaseIndex(baseTexts, opts, baseLexed);
  // the model samples' nearest base samples before the baseline: the sample list needs only them
  const queries = modelTexts.map((t, j) => index.query(t, opts.topK, modelLexed[j], false));
  const sampleOf = (
    j: number,
    m: { similarity: number | null; novelty: number; nearest: { baseIndex: number; similarity: number }[] },
    baselinePercentile: number | null,
  ) => ({
    sampleId: job.model[j].id,
    sampleIndex: job.model[j].sampleIndex,
    correct: job.model[j].correct,
    similarity: m.similarity,
    novelty: m.novelty,
    baselinePercentile,
    nearest: m.nearest.map((nb) => ({
      baseSampleId: job.base[nb.baseIndex].id,
      baseSampleIndex: job.base[nb.baseIndex].sampleIndex,
      similarity: nb.similarity,
    })),
  });
  if (onList && !kept) {
    // the same figures problemSimilarity gives (it is given these queries below), the baseline's left out
    const early = queries.map((q, j) =>
      sampleOf(
        j,
        { similarity: q.nearest[0]?.similarity ?? null, novelty: q.novelty.noveltyScore, nearest: q.nearest },
        null,
      ),
    );
    onList({
      samples: early,
      baseline: [],
      summary: {
        modelSimilarity: summarize(early.flatMap((m) => (m.similarity === null ? [] : [m.similarity]))),
        modelNovelty: summarize(early.map((m) => m.novelty)),
      },
      baselinePending: true,
    });
  }
  yield;
  const prepared = kept ? kept.prepared : baselineOf(index, baseTexts);
  const r = problemSimilarity(baseTexts, modelTexts, opts, { model: modelLexed, prepared, queries });
  const samples = r.model.map((m, j) => sampleOf(j, m, m.baselinePercentile));
  const baseline = r.baseline.map((b) => ({
    sampleId: job.base[b.baseIndex].id,
    sampleIndex: job.base[b.baseIndex].sampleIndex,
    similarity: b.similarity,
    novelty: b.novelty,
  }));
  if (onList && kept) onList({ samples, baseline, summary: r.summary });
  if (!kept) yield; // the base's computation paths next: a stage of its own (about as long as the model's)
  const work: BaseWork = kept ?? {
    key,
    prepared,
    basePaths: problemPaths(baseTexts, [], { base: baseLexed }).basePaths,
  };
  if (keepBase) {
    // looked up again: another job of the same base may have kept it since this one started
    const now = baseWorkCache.findIndex((w) => w.key === key);
    if (now >= 0) baseWorkCache.splice(now, 1);
    baseWorkCache.push(work);
    if (baseWorkCache.length > BASE_WORK_CACHE_SIZE) baseWorkCache.shift();
  }
  yield;
  const paths = problemPaths(baseTexts, modelTexts, { model: modelLexed, basePaths: work.basePaths });
  return {
    // `path` first, as before the list's stage (the same JSON, key for key)
    samples: samples.map((s, j) => ({ path: pathData(paths.model[j]), ...s })),
    baseline,
    summary: r.summary,
    paths: pathCounts(paths, job),
  };
}

/** A path comparison in the protocol's shape: the first MAX_NEW_STEPS new steps as text, and their count. */
function pathData(m: PathMatch): PathMatchData & { newSteps: string[]; newStepCount: number } {
  return {
    steps: m.steps,
    fullPath: m.fullPath,
    bestFound: m.bestFound,
    candidates: m.candidates,
    newSteps: m.newSteps.slice(0, MAX_NEW_STEPS).map((s) => s.display),
    newStepCount: m.newSteps.length,
  };
}

/** Correct samples with steps, and those whose path is in the base (model) or in another base sample (baseline). */
function pathCounts(p: ProblemPaths, job: SimilarityJob): NonNullable<SimilarityData['paths']> {
  const out = { modelInBase: 0, modelWithSteps: 0, baseInOthers: 0, baseWithSteps: 0 };
  p.model.forEach((m, j) => {
    if (job.model[j].correct !== true || m.steps === 0) return;
    out.modelWithSteps++;
    if (m.fullPath > 0) out.modelInBase++;
  });
  p.baseline.forEach((b, i) => {
    if (job.base[i].correct !== true || b.steps === 0) return;
    out.baseWithSteps++;
    if (b.fullPath > 0) out.baseInOthers++;
  });
  return out;
}

/**
 * Novel spans, novelty score, nearest base sample and the word diff against it. The base index is the one
 * the worker kept from a similarity job with the same base texts (a model sample opened in the problem view:
 * its problem's base, just compared), else built here; the same index either way.
 */
export function runNoveltyJob(job: NoveltyJob): NoveltyBody {
  const text = job.text.length > MAX_TEXT ? job.text.slice(0, MAX_TEXT) : job.text;
  const texts = job.base.map((b) => b.text);
  const key = baseKey(texts);
  const ix =
    baseWorkCache.find((w) => w.key === key)?.prepared.index ??
    buildBaseIndex(texts, { n: SIMILARITY_PARAMS.n, numHashes: SIMILARITY_PARAMS.numHashes });
  const nov = ix.novelty(text);
  const d = texts.length > 0 ? ix.diffWithNearest(text, texts) : null;
  const best = d
    ? { baseIndex: d.baseIndex, similarity: d.similarity }
    : texts.length > 0
      ? ix.nearest(text, 1)[0]
      : undefined;
  const baseText = best ? job.base[best.baseIndex].text : '';
  return {
    text,
    truncated: job.text.length > MAX_TEXT,
    spans: nov.spans,
    noveltyScore: nov.noveltyScore,
    tokenCount: nov.tokenCount,
    novelTokenCount: nov.novelTokenCount,
    nearest: best
      ? {
          sampleId: job.base[best.baseIndex].id,
          sampleIndex: job.base[best.baseIndex].sampleIndex,
          similarity: best.similarity,
          text: baseText.length > MAX_TEXT ? baseText.slice(0, MAX_TEXT) : baseText,
          truncated: baseText.length > MAX_TEXT,
        }
      : null,
    diff: d ? d.segments : null,
  };
}

/**
 * Adds to a similarity result, per model sample, how many base samples gave the same final answer
 * (metrics `answerInBase`), from the extracted answers in the index. Not cached: it is one query.
 */
export function withAnswersInBase(
  index: TraceIndex,
  problemId: number,
  baseId: number,
  modelId: number,
  body: SimilarityBody,
): SimilarityBody {
  const base = index.answers(problemId, baseId);
  const counts = baseAnswerCounts(base);
  const byId = new Map(index.answers(problemId, modelId).map((a) => [a.id, a.answer]));
  return {
    ...body,
    baseSamples: base.length,
    samples: body.samples.map((s) => ({ ...s, answerInBase: answerInBase(counts, byId.get(s.sampleId)) })),
  };
}

/**
 * The similarity job of (problem, base model, model) as places of texts ({@link SimilarityFilesJob}): one SQL
 * query per model, no file read; {@link readSimilarityFilesJob} reads the texts (in the worker thread).
 */
export function similarityFilesJob(
  index: TraceIndex,
  problemId: number,
  baseId: number,
  modelId: number,
): SimilarityFilesJob {
  const base = sampleTextRows(index, problemId, baseId);
  const model = sampleTextRows(index, problemId, modelId);
  return { kind: 'problemFiles', root: base.root ?? model.root, base: base.rows, model: model.rows };
}

/**
 * The {@link SimilarityJob} of a {@link SimilarityFilesJob}: its texts read from the results files and checked
 * against their content hashes (readRowTexts; no record kept between jobs). Throws SourceChangedError when a
 * file changed since it was indexed.
 */
export async function readSimilarityFilesJob(job: SimilarityFilesJob): Promise<SimilarityJob> {
  const samples = async (rows: SampleTextRow[]) => {
    const texts = await readRowTexts(job.root, rows);
    return rows.map((r, i) => ({
      id: r.id,
      sampleIndex: r.sampleIndex,
      correct: r.correct === null ? null : r.correct === 1,
      text: texts[i],
    }));
  };
  return { kind: 'problem', base: await samples(job.base), model: await samples(job.model) };
}

/**
 * Cache key params of a similarity result: the measure's parameters plus a digest of the content
 * hashes of both sample lists, so a re-indexed folder whose texts changed never reads a stale result.
 */
export function similarityParams(index: TraceIndex, problemId: number, baseId: number, modelId: number): string {
  const hashes = index.db
    .prepare(
      'SELECT model_id AS m, sample_index AS i, content_hash AS c FROM samples WHERE problem_id = ? AND model_id IN (?, ?) ORDER BY model_id, sample_index',
    )
    .all(problemId, baseId, modelId) as { m: number; i: number; c: string }[];
  const h = createHash('sha1');
  for (const { m, i, c } of hashes) h.update(`${m === baseId ? 'b' : 'm'}:${i}:${c};`);
  return JSON.stringify({ ...SIMILARITY_PARAMS, texts: h.digest('hex').slice(0, 16) });
}

/** A cached similarity result, or undefined. */
export function readSimilarityCache(
  index: TraceIndex,
  problemId: number,
  baseId: number,
  modelId: number,
  params: string,
): SimilarityBody | undefined {
  const row = index.db
    .prepare(
      'SELECT result FROM similarity_cache WHERE problem_id = ? AND base_model_id = ? AND model_id = ? AND params = ?',
    )
    .pluck()
    .get(problemId, baseId, modelId, params) as string | undefined;
  if (!row) return undefined;
  try {
    return JSON.parse(row) as SimilarityBody;
  } catch {
    return undefined;
  }
}

/** Stores a similarity result (replacing older results of other params for the same triple). */
export function writeSimilarityCache(
  index: TraceIndex,
  problemId: number,
  baseId: number,
  modelId: number,
  params: string,
  body: SimilarityBody,
): void {
  index.db.transaction(() => {
    index.db
      .prepare('DELETE FROM similarity_cache WHERE problem_id = ? AND base_model_id = ? AND model_id = ?')
      .run(problemId, baseId, modelId);
    index.db
      .prepare(
        'INSERT INTO similarity_cache (problem_id, base_model_id, model_id, params, result) VALUES (?, ?, ?, ?, ?)',
      )
      .run(problemId, baseId, modelId, params, JSON.stringify(body));
  })();
}

// ------------------------------------------------------------------------------------------------
// Overview

/** Reports how far the overview's figures are ({@link overviewData}); the figures worker's checkpoint too. */
export type OnFiguresProgress = (p: FiguresProgress) => void;

/** What the overview's parts share: the index's rows grouped by model, once. */
interface OverviewRows {
  index: TraceIndex;
  roles: Roles;
  models: ModelRow[];
  /** Graded rows (graded > 0) by model id. */
  byModel: Map<number, StatRow[]>;
  /** Every row of each model, graded or not: the denominators (src/core/metrics/denominators.ts). */
  allByModel: Map<number, StatRow[]>;
  levels: string[];
  levelOf: Map<number, string | null>;
  warnings: string[];
}

/**
 * The overview: per model the dataset pass@k curve at k = 1, 2, 4, ..., max n with a seeded
 * percentile bootstrap band over problems (also per difficulty level when problems have levels),
 * the accuracy histogram (12 bins), and per non-base model the coverage against the base model
 * (solvable = c >= 1) with the dataset crossover k on shared problems (before saturation, with its
 * bootstrap interval) and whether the lead at k = 1 is within noise. n = graded samples.
 * @param replicates bootstrap replicates of the curves' bands (default 1000: the edges move by well under 0.01).
 * @param compareReplicates replicates of the comparison figures (crossover interval, lead at k = 1 within
 *   noise: the two-level bootstrap); default the report's {@link REPORT_REPLICATES}, with the report's seed,
 *   so that the overview and the CLI give the same intervals for the same data.
 * @param onProgress called before each step (one per model with graded samples: its curves and histogram; one
 *   per comparison pair: its coverage and bootstraps) with the step's name, the steps done and their total. It
 *   may throw to stop the computation (the figures worker does so when a newer request superseded this one):
 *   the error propagates. The result does not depend on it.
 */
/**
 * The overview's "Length and reasoning markers" (Models tab): each model's lengths and marker rates with their
 * intervals, by label (core reasoningMarkers: one read of the samples, then a bootstrap over problems per measure
 * and split, O(replicates x problems) each). Its own figures job, asked for by the page after the overview's
 * figures are drawn, so that they never wait for it. Null when the index has no measures.
 */
export function modelMarkersData(
  index: TraceIndex,
  replicates = 1000,
  onProgress?: OnFiguresProgress,
): ModelMarkersData {
  const models = viewModels(index);
  const stats = index.allStats();
  const graded = new Set(stats.filter((r) => r.graded > 0).map((r) => r.modelId));
  const withData = models.filter((m) => graded.has(m.id));
  const markers = markerFigures(
    reasoningMarkers(index, {
      models,
      bootstrap: { replicates, seed: 12345 },
      onModel: (label, done, total) =>
        onProgress?.({ stage: `lengths and reasoning markers of ${label}`, done, total }),
    }),
    withData.map((m) => ({ at: m.label, model: m.displayId })),
  );
  return { markers: markers ?? null };
}

export function overviewData(
  index: TraceIndex,
  roles: Roles,
  replicates = 1000,
  compareReplicates?: number,
  onProgress?: OnFiguresProgress,
): OverviewData {
  const models = viewModels(index);
  const stats = index.allStats();
  const byModel = groupByModel(stats.filter((r) => r.graded > 0));
  const levels = index.levels();
  const datasets = datasetCounts(index);
  const rows: OverviewRows = {
    index,
    roles,
    models,
    byModel,
    allByModel: groupByModel(stats),
    levels,
    levelOf: levels.length > 0 ? index.levelByProblem() : new Map<number, string | null>(),
    warnings: [],
  };
  // Coverage per model against its base: the chosen base for every model, or each run's own base
  // when the base is a guess (the same pairs as the CLI report).
  const base = models.find((m) => m.id === roles.baseId);
  const withData = models.filter((m) => byModel.has(m.id));
  const overviewPairs = comparisonPairs(withData, base, !!roles.baseIsChoice);
  const total = withData.length + overviewPairs.length;
  let done = 0;
  const step = (stage: string) => onProgress?.({ stage, done: done++, total });
  const curves: OverviewData['curves'] = [];
  const histograms: OverviewData['histograms'] = [];
  for (const m of models) {
    if (byModel.has(m.id)) step(`pass@k curves of ${m.label}`);
    modelFigures(rows, m, replicates, curves, histograms);
  }
  const compareBoot = { replicates: compareReplicates ?? REPORT_REPLICATES, seed: 12345 };
  // replicates of a base pooled into it, as in the CLI report (the pairing of basePools.ts; trial 12 finding 10: the
  // overview compared with the first replicate alone while the report pooled them)
  const { pools } = comparisonPairing(models, base, !!roles.baseIsChoice);
  pairingWarnings(rows, overviewPairs, pools);
  const cov: OverviewData['coverage'] = [];
  for (const [b, m] of overviewPairs) {
    step(`coverage of ${m.label} against ${b.label}`);
    const row = pairCoverage(rows, b, m, pools, compareBoot);
    if (row) cov.push(row);
  }
  // every model in no comparison, named with the reason, as in the CLI report (trial 7 finding 5); models
  // without a graded sample are in no overview pair: their pairs come from the report's rule over all models
  const made = overviewPairs.filter(([b, m]) => cov.some((c) => c.baseModelId === b.id && c.modelId === m.id));
  const ungradedPairs = comparisonPairs(models, base, !!roles.baseIsChoice).filter(([, m]) => !byModel.has(m.id));
  for (const x of withoutPooledReplicates(
    notComparedModels(models, [...overviewPairs, ...ungradedPairs], made, (id) => byModel.get(id)?.length ?? 0),
    pools,
    made,
  ))
    rows.warnings.push(
      notComparedWarning(
        x.model.label,
        notComparedReason(x, (m) => m.label, EXTENSION_CHOOSE_BASE),
      ),
    );
  return {
    models: withData.map((m) => modelInfo(m, roles, models.length === 1)),
    baseModelId: roles.baseId ?? null,
    levels,
    curves,
    histograms,
    coverage: cov,
    ...(cov.length ? {} : { coverageNote: noCoverageNote(withData.map((m) => m.label)) }),
    warnings: datasets.length > 1 ? [poolingNote(datasets), ...rows.warnings] : rows.warnings,
    problems: index.countProblems(),
    datasets,
    problemsText: problemsInDatasets(datasets),
  };
}

/** Stat rows grouped by model id, in their order. */
function groupByModel(stats: readonly StatRow[]): Map<number, StatRow[]> {
  const out = new Map<number, StatRow[]>();
  for (const s of stats) {
    const list = out.get(s.modelId);
    if (list) list.push(s);
    else out.set(s.modelId, [s]);
  }
  return out;
}

/**
 * One model's part of the overview: its warnings (partial, unreadable records, problems left out, problems
 * without a level, n differing between problems), its pass@k curves (all problems, then per level) and its
 * accuracy histogram, appended to `curves` and `histograms`. Nothing but warnings for a model without a graded
 * sample.
 */
function modelFigures(
  rows: OverviewRows,
  m: ModelRow,
  replicates: number,
  curves: OverviewData['curves'],
  histograms: OverviewData['histograms'],
): void {
  const { index, levels, levelOf, warnings } = rows;
  const graded = rows.byModel.get(m.id) ?? [];
  const all = rows.allByModel.get(m.id) ?? [];
  if (m.partial) warnings.push(partialWarning(m.label));
  const unreadable = unreadableWarning(m.label, index.recordsWithSamplesLost(m.id));
  if (unreadable) warnings.push(unreadable);
  const whole = problemSet(all);
  if (whole.noSamples + whole.ungraded > 0)
    warnings.push(
      `${m.label}: ${describeDenominator(denominator(whole, whole.graded.length, 0))}; those are left out of every figure`,
    );
  if (graded.length === 0) return;
  const groups: [string | null, StatRow[]][] = [[null, all]];
  for (const level of levels) {
    const sub = all.filter((r) => levelOf.get(r.problemId) === level);
    if (sub.length > 0) groups.push([level, sub]);
  }
  const noLevel = levels.length ? all.filter((r) => (levelOf.get(r.problemId) ?? null) === null) : [];
  if (noLevel.length)
    warnings.push(
      `${m.label}: ${noLevel.length} of its ${all.length} problems ${noLevel.length === 1 ? 'has' : 'have'} no level ${nameProblems(
        noLevel.map((r) => r.problemId),
        problemNamer(index),
      )}: in no level's curve`,
    );
  const boot = { replicates, seed: 12345 };
  for (const [level, sub] of groups) {
    const set = problemSet(sub);
    const maxN = set.graded.reduce((a, p) => Math.max(a, p.n), 0);
    if (maxN === 0) continue;
    for (const pt of bootstrapPassAtKCurve(set.graded, kGrid(maxN), boot)) {
      const d = denominator(set, pt.problems, pt.missing);
      curves.push({
        modelId: m.id,
        level,
        k: pt.k,
        value: pt.value,
        ciLow: pt.ciLow,
        ciHigh: pt.ciHigh,
        problems: pt.problems,
        missing: d.missing,
        over: describeDenominator(d, pt.k),
      });
    }
  }
  const minN = graded.reduce((a, r) => Math.min(a, r.graded), Infinity);
  const maxN = graded.reduce((a, r) => Math.max(a, r.graded), 0);
  if (minN !== maxN)
    warnings.push(
      `${m.label}: n differs between problems (${minN}..${maxN}); points at k > ${minN} average fewer problems`,
    );
  for (const [i, b] of accuracyHistogram(graded.map((r) => ({ n: r.graded, c: r.c }))).bins.entries())
    histograms.push({ modelId: m.id, bin: i, label: b.label, count: b.count });
}

/**
 * The warnings on the pairs compared, as in the CLI report: seed siblings named (trial 6 finding 2), checkpoints
 * with short step numbers, a guessed base that is itself a checkpoint or an RL model named with the models
 * compared with it (trial 6 finding 10), and the replicates pooled into a base.
 */
function pairingWarnings(
  rows: OverviewRows,
  overviewPairs: readonly [ModelRow, ModelRow][],
  pools: ReadonlyMap<number, readonly ModelRow[]>,
): void {
  const { models, warnings } = rows;
  for (const g of seedSiblings(models)) warnings.push(seedSiblingMessage(g.map((m) => m.label)));
  for (const g of shortStepGroups(models))
    warnings.push(
      shortStepMessage(
        g.models.map((m) => m.label),
        g.numbers,
      ),
    );
  if (!rows.roles.baseIsChoice)
    for (const b of new Set(overviewPairs.map(([x]) => x))) {
      const note = baseGuessNote(
        b,
        b.label,
        overviewPairs.filter(([x]) => x.id === b.id).map(([, m]) => m.label),
        overviewPairs.filter(([x]) => x.id === b.id).map(([, m]) => m),
        EXTENSION_CHOOSE_BASE,
      );
      if (note) warnings.push(note);
    }
  for (const [id, reps] of pools) {
    const b = models.find((x) => x.id === id);
    if (b && overviewPairs.some(([x]) => x.id === id))
      warnings.push(
        basePoolMessage(
          b.label,
          [b, ...reps].map((x) => x.label),
        ),
      );
  }
}

/**
 * The coverage row of model `m` against base `b` (the base's replicates pooled into it), with the pair's
 * warnings (different graders, n differing, problems left out) appended to the overview's; undefined when the two
 * share no graded problem. The comparison figures use the report's replicates and seed (`boot`): the overview
 * and the CLI show the same comparison figures.
 */
function pairCoverage(
  rows: OverviewRows,
  b: ModelRow,
  m: ModelRow,
  pools: ReadonlyMap<number, readonly ModelRow[]>,
  boot: { replicates: number; seed: number },
): OverviewData['coverage'][number] | undefined {
  const { index, byModel, allByModel, warnings } = rows;
  const ps = problemPairs(
    pooledBaseRows(b.id, pools, (x) => byModel.get(x) ?? []),
    byModel.get(m.id) ?? [],
  );
  if (ps.length === 0) return undefined;
  const differentGraders = graderDifference(b, m);
  if (differentGraders) warnings.push(graderWarning(b.label, m.label, differentGraders));
  // the CLI report's warning, word for word (trial 10 finding 2: 5 samples per problem against 100, unsaid)
  const nDiffers = nDiffersWarning(m.label, b.label, ps);
  if (nDiffers) warnings.push(nDiffers);
  const cross = crossoverK(ps);
  const cd = comparisonDenominator(
    allByModel.get(m.id) ?? [],
    pooledBaseRows(b.id, pools, (x) => allByModel.get(x) ?? []),
    ps.length,
  );
  if (cd.whole.missing > 0)
    warnings.push(comparisonWarning(index, m.label, b.label, cd.whole, cd.left, index.unreadableRecords(m.id)));
  const at1 = twoLevelPairedDiffAt1(
    ps.map((p) => p.base),
    ps.map((p) => p.model),
    boot,
  );
  return {
    modelId: m.id,
    baseModelId: b.id,
    problems: ps.length,
    n: pairNRange(ps),
    ...(nDiffers ? { nDiffers } : {}),
    missing: cd.whole.missing,
    over: describeDenominator(cd.whole),
    ...coverage(ps),
    crossoverK: cross.k,
    crossoverKind: cross.kind,
    crossoverAheadK: cross.aheadK,
    crossoverKMax: cross.kMax,
    crossoverKMaxRagged: maxMinN(ps),
    saturationK: cross.saturationK,
    crossoverInterval: crossoverBootstrap(ps, boot),
    leaderAtK1: cross.leaderAtK1,
    leaderAtK1WithinNoise: intervalHoldsZero(at1),
    differentGraders,
  };
}

/**
 * Why the overview's coverage table has no row (trial 10 finding 9: headers and no rows with one model):
 * `labels` are the models with a graded sample. One model (or none): coverage needs a second model to
 * compare with the base; several: none of them is compared with a base, and the warnings say why.
 */
export function noCoverageNote(labels: readonly string[]): string {
  if (labels.length === 0) return 'No coverage: no model has a graded sample.';
  if (labels.length === 1)
    return `No coverage: the folder has one model with graded samples (${labels[0]}); coverage compares a model with its base model, so it needs a second model.`;
  return 'No coverage: no model is compared with a base model (the warnings above say why for each).';
}

/**
 * The overview's note for a folder with several datasets (trial 5 finding 3: "6 problems · 3 models"
 * and one pooled pass@k per model, never saying it pooled math500 and aime24).
 */
export function poolingNote(datasets: readonly DatasetCount[]): string {
  return `Every figure here pools the ${datasets.length} datasets (${describeDatasets(datasets)} problems): a mean over all their problems, each problem once. Per dataset: trace-inspector report (a row per model and dataset; JSON perDataset, CSV column dataset).`;
}

/** The problems both the base's graded rows and the model's have, with their counts (graded samples, correct). */
function problemPairs(baseRows: readonly StatRow[], modelRows: readonly StatRow[]): ProblemPair[] {
  const base = new Map(baseRows.map((r) => [r.problemId, r]));
  const ps: ProblemPair[] = [];
  for (const r of modelRows) {
    const b = base.get(r.problemId);
    if (b) ps.push({ problemKey: String(r.problemId), base: { n: b.graded, c: b.c }, model: { n: r.graded, c: r.c } });
  }
  return ps;
}

/** Histogram bin (0..11, as in accuracyHistogram) of c/n with n >= 1. */
export function accuracyBin(n: number, c: number): number {
  return accuracyHistogram([{ n, c }]).bins.findIndex((b) => b.count === 1);
}

/** What `traceInspector.filterProblems` receives: a ProblemFilter kind it knows or an explicit list. */
export type ResolvedFilter = ProblemFilter | { kind: 'problems'; problemIds: number[]; title?: string };

/**
 * Turns a webview filter into what the tree's filter command accepts. Filters that depend on a
 * particular model (histogram bins, coverage cells, failing/lost/gained of a model that may not be
 * the tree's focus model) become an explicit list of problem ids with a title.
 */
export function resolveFilter(index: TraceIndex, f: WebviewFilter, roles: Roles = {}): ResolvedFilter {
  const label = (id: number) => viewModel(index, id)?.label ?? `model ${id}`;
  const stats = (id: number) =>
    new Map(
      index
        .modelStats(id)
        .filter((r) => r.graded > 0)
        .map((r) => [r.problemId, r]),
    );
  switch (f.kind) {
    case 'all':
    case 'level':
    case 'label':
      return f;
    case 'problems':
      return { kind: 'problems', problemIds: f.problemIds, ...(f.title ? { title: f.title } : {}) };
    case 'failing': {
      const ids = [...stats(f.model).values()].filter((r) => r.c === 0).map((r) => r.problemId);
      return { kind: 'problems', problemIds: ids, title: `unsolved by ${label(f.model)}` };
    }
    case 'accuracyBin': {
      const ids = [...stats(f.model).values()]
        .filter((r) => accuracyBin(r.graded, r.c) === f.bin)
        .map((r) => r.problemId);
      const bin = accuracyHistogram([]).bins[f.bin]?.label ?? String(f.bin);
      return { kind: 'problems', problemIds: ids, title: `${label(f.model)}: accuracy ${bin}` };
    }
    case 'lost':
    case 'gained':
    case 'coverageCell': {
      const cell = f.kind === 'lost' ? 'baseOnly' : f.kind === 'gained' ? 'modelOnly' : f.cell;
      const b = stats(f.base);
      const ids: number[] = [];
      for (const [pid, r] of stats(f.model)) {
        const br = b.get(pid);
        if (!br) continue;
        const bs = br.c > 0;
        const ms = r.c > 0;
        const hit =
          cell === 'both' ? bs && ms : cell === 'baseOnly' ? bs && !ms : cell === 'modelOnly' ? !bs && ms : !bs && !ms;
        if (hit) ids.push(pid);
      }
      const what = {
        both: 'solved by both',
        baseOnly: 'solved by the base model only',
        modelOnly: 'solved by the model only',
        neither: 'solved by neither',
      }[cell];
      return { kind: 'problems', problemIds: ids, title: `${label(f.model)} vs ${label(f.base)}: ${what}` };
    }
    case 'training': {
      const t = trainingSeries(index, roles).trajectories.find((x) => x.name === f.series);
      const ids = t ? trainingProblemIds(t, f.which) : [];
      return {
        kind: 'problems',
        problemIds: ids,
        title: t ? trainingFilterTitle(t, f.which) : `${f.series}: no such series`,
      };
    }
  }
}

/**
 * The checkpoint series of the index with per-problem rows only (no bootstrap, no text scan): what the
 * tree's training filters need. An invalid step pattern falls back to the built-in one, with a warning.
 */
export function trainingSeries(
  index: TraceIndex,
  roles: Roles,
): { trajectories: TrajectoryDetail[]; warnings: string[] } {
  const { pattern, warning } = usablePattern(roles.stepPattern);
  const r = computeTrajectories(index, { ...trajectoryRoles(index, roles), stepPattern: pattern, problemsOnly: true });
  return { trajectories: r.trajectories, warnings: warning ? [warning, ...r.warnings] : r.warnings };
}

/** Problem row ids of a training filter: lost during training, or solved only at late steps. */
export function trainingProblemIds(t: TrajectoryDetail, which: 'lost' | 'late'): number[] {
  return trajectoryFilter(t, which).map((i) => t.ids.problems[i]);
}

/** The title of a training filter, naming its series and steps. */
export function trainingFilterTitle(t: TrajectoryDetail, which: 'lost' | 'late'): string {
  const last = t.steps[t.steps.length - 1]?.step;
  return which === 'lost'
    ? `Lost during training (${t.name}): solved at an earlier step, not at step ${last}`
    : `Solved only at late steps (${t.name}): first solved at ${t.unit} ${t.lateFromStep} or later`;
}

/** The setting's pattern when it compiles, else the built-in one and a warning saying why. */
function usablePattern(pattern: string | undefined): { pattern: string | undefined; warning?: string } {
  if (!pattern?.trim()) return { pattern: undefined };
  try {
    compileStepPattern(pattern);
    return { pattern };
  } catch (e) {
    return {
      pattern: undefined,
      warning: `traceInspector.stepPattern: ${(e as Error).message}; the built-in pattern is used`,
    };
  }
}

/** The base model and whether it was chosen, as the trajectories computation takes them. */
function trajectoryRoles(index: TraceIndex, roles: Roles): { base?: ModelRow; baseIsChoice: boolean } {
  const base = roles.baseId !== undefined ? index.model(roles.baseId) : undefined;
  return { base, baseIsChoice: !!roles.baseIsChoice };
}

/**
 * The overview's Training tab: every checkpoint series with per-step figures (pass@1 and pass@K with
 * seeded bootstrap intervals, the step's base as reference, categories and the positive-gain share
 * against the base, mean response length) and every problem's c/n per step in heatmap order
 * (src/core/analyses/trajectories.ts `clusterOrder`). n = graded samples.
 * @param replicates bootstrap replicates (default 1000, as the overview's curves).
 */
export function trainingData(index: TraceIndex, roles: Roles, replicates = 1000): TrainingData {
  const { pattern, warning } = usablePattern(roles.stepPattern);
  const models = viewModels(index);
  const r = computeTrajectories(index, {
    ...trajectoryRoles(index, roles),
    stepPattern: pattern,
    replicates,
    seed: 12345,
    models,
  });
  const label = new Map(models.map((m) => [m.id, m.label]));
  const displayOf = new Map(models.map((m) => [m.id, m.displayId]));
  // lengths and reasoning markers of every model (one read of the samples), when there is a series to show them on
  const markers =
    r.trajectories.length > 0
      ? reasoningMarkers(index, { models, stepPattern: pattern, bootstrap: { replicates, seed: 12345 } })
      : undefined;
  const series: TrainingSeries[] = r.trajectories.map((t) => ({
    name: t.name,
    unit: t.unit,
    k: t.k,
    lateFromStep: t.lateFromStep,
    steps: t.steps.map((s, i) => {
      const baseId = t.ids.bases[i];
      const g = s.positiveGainShare;
      return {
        step: s.step,
        modelId: t.ids.models[i],
        label: s.label,
        baseModelId: baseId,
        baseLabel: baseId === null ? null : (label.get(baseId) ?? null),
        samples: s.samples,
        graded: s.graded,
        correct: s.correct,
        problems: s.problems,
        sampleAccuracy: s.sampleAccuracy,
        passAtK: s.passAtK,
        basePassAtK: s.basePassAtK,
        pairedProblems: s.pairedProblems,
        categories: s.categories,
        gainShare: g && {
          sharpening: g.sharpening,
          expansion: g.expansion,
          ciLow: g.ciLow,
          ciHigh: g.ciHigh,
          gainFromSharpening: g.gainFromSharpening,
          gainFromExpansion: g.gainFromExpansion,
          gainedProblems: g.gainedProblems,
        },
        meanChars: s.meanChars,
        baseMeanChars: s.baseMeanChars,
      };
    }),
    problems: clusterOrder(t.problems).map((i) => {
      const p = t.problems[i];
      return {
        id: t.ids.problems[i],
        problemId: p.problemId,
        dataset: p.dataset,
        c: p.correctByStep,
        n: p.nByStep,
        baseC: p.baseCorrectByStep,
        baseN: p.baseNByStep,
        firstSolvedStep: p.firstSolvedStep,
        lostAtStep: p.lostAtStep,
        pattern: p.pattern,
      };
    }),
    lost: trainingProblemIds(t, 'lost'),
    late: trainingProblemIds(t, 'late'),
    markers:
      markers &&
      markerFigures(
        markers,
        t.steps.map((s, i) => ({ at: s.step, model: displayOf.get(t.ids.models[i]) ?? '' })),
      ),
  }));
  return {
    series,
    stepPattern: pattern ?? DEFAULT_STEP_PATTERN,
    defaultPattern: pattern === undefined,
    warnings: warning ? [warning, ...r.warnings] : r.warnings,
    models: models.length,
  };
}

// ------------------------------------------------------------------------------------------------
// PPL_base sidecar (read and resolved by the core, src/core/similarity/ppl.ts)

/** PPL_base of one problem's samples, for the problem view (see {@link readPplSidecar}). */
export function pplData(root: string | undefined, index: TraceIndex, problemId: number): PplData {
  const r = readPplSidecar(root, index, problemId);
  return {
    available: r.available,
    source: r.source,
    points: r.points.map(({ modelId, sampleId, correct, ppl }) => ({ modelId, sampleId, correct, ppl })),
    skipped: r.skipped,
    diagnostics: r.diagnostics.map((d) => `${diagnosticPlace(d)}: ${d.message}`),
  };
}

/** Whether the folder has a log-prob sidecar. */
export function hasLogprobSidecar(root: string | undefined): boolean {
  return !!root && existsSync(join(root, ...LOGPROB_SIDECAR.split('/')));
}

/**
 * Per compared model (the overview's coverage pairs: the chosen base for every model, or each run's
 * own base while the base is a guess), the share of correct samples whose computation path is in the
 * base, with its bootstrap interval and denominator (src/core/similarity/pathSummary.ts, without text measures).
 * Reads every sample text of the compared models once, one problem at a time, giving the event loop
 * back between problems (about 0.4 ms of CPU per sample on the development machine).
 * @param replicates bootstrap replicates (default the report's, with its seed: the overview's interval is the
 *   CLI's `report --paths` interval).
 * @param onProgress called before each compared pair (as {@link overviewData}'s; it may throw to stop).
 */
export async function pathsData(
  index: TraceIndex,
  roles: Roles,
  replicates = REPORT_REPLICATES,
  onProgress?: OnFiguresProgress,
): Promise<PathsData> {
  const models = viewModels(index);
  const withData = new Set(
    index
      .allStats()
      .filter((r) => r.graded > 0)
      .map((r) => r.modelId),
  );
  const base = models.find((m) => m.id === roles.baseId);
  const contexts = new Map<number, PathContext>();
  const summaries: PathsData['summaries'] = [];
  const pairs = comparisonPairs(
    models.filter((x) => withData.has(x.id)),
    base,
    !!roles.baseIsChoice,
  );
  for (const [i, [b, m]] of pairs.entries()) {
    onProgress?.({ stage: `reasoning paths of ${m.label} against ${b.label}`, done: i, total: pairs.length });
    let ctx = contexts.get(b.id);
    if (!ctx) {
      ctx = await pathContext(index, b.id, DEFAULT_MAX_TEXT_SAMPLES, false);
      contexts.set(b.id, ctx);
    }
    const p = await pathSummary(
      index,
      ctx,
      m.id,
      { base: b.displayId, model: m.displayId },
      { replicates, seed: 12345 },
    );
    summaries.push({
      baseModelId: b.id,
      modelId: m.id,
      problems: p.problems,
      leftOut: p.leftOut,
      correctSamples: p.correctSamples,
      correctWithoutSteps: p.correctWithoutSteps,
      pathInBase: p.pathInBase,
      pathInBaseLeaveOneOut: p.pathInBaseLeaveOneOut,
      baselinePathInBase: p.baselinePathInBase,
    });
  }
  return { summaries };
}

/**
 * The Reward models tab: the reward-model evaluation of every scored model (core rewardReport.ts;
 * bootstrap of the correlations with `replicates`, seed 12345), with each model's problems for the
 * per-problem strips.
 */
export function rewardModelsData(index: TraceIndex, replicates = 1000): RewardModelsData {
  const section = rewardModelsReport(index, { replicates });
  const models = new Map(viewModels(index).map((m) => [m.displayId, m]));
  return {
    unattachedScores: section.unattachedScores,
    models: section.models.flatMap((r) => {
      const m = models.get(r.model);
      if (!m) return [];
      const problems = index.listProblems({ kind: 'all' }, 0, 1_000_000, m.id);
      return [
        {
          modelId: m.id,
          label: m.label,
          displayId: m.displayId,
          total: r.total,
          problems: r.problems,
          leftOut: r.leftOut,
          over: describeRewardDenominator(r),
          incompleteByScorer: r.incompleteByScorer,
          ns: r.ns,
          scorers: r.scorers.map((x) => ({
            name: x.name,
            pairwiseAccuracy: x.pairwiseAccuracy,
            pairs: x.pairs,
            ties: x.ties,
            bestOfN: x.bestOfN.map((b) => ({ ...b, over: describeRewardDenominator(r, b) })),
          })),
          correlations: r.correlations,
          stepRules: r.stepRules,
          unmatched: r.unmatched,
          bootstrap: r.bootstrap,
          problemList: problems.map((p) => ({
            problemId: p.id,
            label: `${p.problemId}${p.question ? ` — ${preview(p.question, 70)}` : ''}`,
          })),
        },
      ];
    }),
  };
}

/**
 * How each scorer ranks one problem's samples of one model: the samples in order (with the start of
 * their text) and, per scorer, each sample's score (null when that scorer did not score it) and step
 * scores. The single reward score appears as the scorer `reward_score` when a sample has one. The texts
 * are read through `texts` (the results files; throws when one changed since it was indexed).
 * @returns undefined when the problem or model is not in the index.
 */
export async function problemRankingData(
  index: TraceIndex,
  problemId: number,
  modelId: number,
  texts: TextSource,
): Promise<ProblemRankingData | undefined> {
  const p = index.problem(problemId);
  if (!p || !index.model(modelId)) return undefined;
  const rows = await texts.sampleTexts(problemId, modelId);
  const ids = new Map(rows.map((r, i) => [r.id, i]));
  const scorers = new Map<string, { scores: (number | null)[]; steps: (number[] | null)[]; rule: string | null }>();
  const get = (name: string) => {
    let e = scorers.get(name);
    if (!e) scorers.set(name, (e = { scores: rows.map(() => null), steps: rows.map(() => null), rule: null }));
    return e;
  };
  for (const a of index.resolveScores({ problemKey: p.key }).attached) {
    const i = ids.get(a.sampleId);
    if (i === undefined) continue;
    const e = get(a.scorer);
    e.scores[i] = a.value;
    e.steps[i] = a.steps;
    if (a.rule) e.rule = a.rule;
  }
  const reward = index.samples(problemId, modelId, { limit: MAX_PAGE });
  if (reward.some((s) => s.rewardScore !== null)) {
    const e = get(REWARD_SCORE_SCORER);
    for (const s of reward) {
      const i = ids.get(s.id);
      if (i !== undefined && s.rewardScore !== null && e.scores[i] === null) e.scores[i] = s.rewardScore;
    }
  }
  return {
    problemId,
    modelId,
    label: p.problemId,
    question: p.question,
    samples: rows.slice(0, MAX_PAGE).map((r) => ({
      sampleId: r.id,
      sampleIndex: r.sampleIndex,
      correct: r.correct,
      preview: preview(r.text, 80),
    })),
    scorers: [...scorers.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, e]) => ({
        name,
        scores: e.scores.slice(0, MAX_PAGE).map(wireScore),
        // step scores are never NaN (readers/mapping.ts readScore)
        steps: e.steps.slice(0, MAX_PAGE).map((x) => x && x.map((v) => wireScore(v) as WireScore)),
        rule: e.rule,
      })),
  };
}

/** What the sample preview shows: its sample's row id, with the stable keys of that sample (PanelState). */
export interface PreviewSampleRef {
  sampleId?: number;
  /** `dataset \x1f problem id` (problems.key). */
  problemKey?: string;
  /** The model's key (models.key). */
  modelKey?: string;
  sampleIndex?: number;
}

/**
 * The row id of the preview's sample now: found by its stable keys (problem key, model key, sample
 * index: the keys of a sample tab's URI, sampleDocument.ts) when the reference has them, since a
 * re-index of its results file deletes its rows and writes new ones (the old row id may then be gone,
 * or even reused by another sample); by the row id alone otherwise. Undefined when that sample is no
 * longer in the index (its file changed and was re-indexed without it, or removed): see
 * {@link goneSampleMessage}.
 */
export function previewSampleId(index: TraceIndex, ref: PreviewSampleRef): number | undefined {
  const { problemKey, modelKey, sampleIndex, sampleId } = ref;
  if (problemKey !== undefined && modelKey !== undefined && sampleIndex !== undefined)
    return index.findSample(problemKey, modelKey, sampleIndex);
  return sampleId !== undefined && index.sample(sampleId) ? sampleId : undefined;
}

/**
 * Where a sample that left the index was, by its keys: its problem's and model's row ids when they
 * are still in the index (Next / Previous then go on from the start of that problem's samples of that
 * model in the tree's order; the problem view opens on that problem), each undefined otherwise.
 */
export function goneSamplePlace(index: TraceIndex, ref: PreviewSampleRef): { problemId?: number; modelId?: number } {
  const problemId =
    ref.problemKey !== undefined
      ? (index.db.prepare('SELECT id FROM problems WHERE key = ?').pluck().get(ref.problemKey) as number | undefined)
      : undefined;
  const modelId =
    ref.modelKey !== undefined
      ? (index.db.prepare('SELECT id FROM models WHERE key = ?').pluck().get(ref.modelKey) as number | undefined)
      : undefined;
  return { problemId, modelId };
}

/**
 * The preview's message for a sample no longer in the index, naming it by problem, model and sample
 * index (never a row id: trial 14 finding 1), and what the reader can do next. The model is named by
 * its label when it is still in the index, else by the name in its key.
 */
export function goneSampleMessage(index: TraceIndex, ref: PreviewSampleRef): string {
  const place = goneSamplePlace(index, ref);
  const [dataset, problem] = (ref.problemKey ?? '').split(KEY_SEP);
  // as the tree names it (with its dataset when problem ids repeat across datasets); a problem gone: both
  const problemName =
    place.problemId !== undefined ? problemNamer(index)(place.problemId) : `${problem ?? '?'} (${dataset})`;
  const model = place.modelId !== undefined ? index.model(place.modelId)?.label : undefined;
  const modelName = model ?? (ref.modelKey ?? '').split(KEY_SEP).filter(Boolean).join(' ');
  const what =
    ref.problemKey !== undefined && ref.sampleIndex !== undefined
      ? `Sample ${ref.sampleIndex} of problem ${problemName}${modelName ? ` by ${modelName}` : ''}`
      : 'This sample';
  const next =
    place.problemId !== undefined
      ? 'Next and Previous go on from its problem in the tree’s order; ↗ opens the problem view.'
      : 'Its problem is no longer in the index either; Next and Previous go on from the last sample selected in the tree.';
  return `${what} is no longer in the index: its results file changed (or was removed) and was indexed again without it. ${next}`;
}
