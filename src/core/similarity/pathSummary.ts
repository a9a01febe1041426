/**
 * Per-model summary of "is the RL model's reasoning in the base distribution?" over a folder
 * (docs/similarity.md section 8): computation paths (src/core/similarity/paths.ts) and the
 * boilerplate-discounted text measures (src/core/similarity/weighted.ts), for one (base model,
 * model) pair of the report.
 *
 * - **Path in base** = the share of the model's CORRECT samples whose computation path some base
 *   sample of the same problem computes in full (`fullPath > 0`), pooled over problems:
 *   Σ_problems in-base / Σ_problems correct samples with steps. Correct samples without a step are
 *   left out and counted. Interval: percentile bootstrap over problems of that ratio of sums
 *   (`bootstrapRatioOfSums`, paired numerator and denominator; seeded).
 * - Beside it, on equal footing: the same share with n - 1 base candidates averaged over which is
 *   left out (a sample whose path 1 base sample computes counts (n - 1)/n), and the base-vs-base
 *   baseline (each correct base sample against the n - 1 other base samples).
 * - **Text**: medians over samples of nearest Jaccard, IDF-weighted Jaccard, containment and weighted
 *   containment for model vs base (n candidates and n - 1), base vs base (n - 1) and model vs model
 *   (m - 1). Exact over every pair, so only the first `maxTextSamples` samples (by sample index) of
 *   each model per problem enter; how many were left out is given.
 */
import { readSampleTexts } from '../index/sampleText';
import type { TraceIndex } from '../index/traceIndex';
import { type BootstrapOptions, bootstrapRatioOfSums, type RatioCI } from '../metrics/bootstrap';
import {
  buildShingleIdf,
  FolderShingles,
  problemPaths,
  problemTextSimilarity,
  type ShingleIdf,
  summarize,
  type TextMatch,
} from './';

/** Default cap of samples per model and problem for the exact pairwise text measures. */
export const DEFAULT_MAX_TEXT_SAMPLES = 64;

/** Medians of the four text measures over a group of samples. */
export interface TextMedians {
  /** Samples with a value (per measure, `null` values are left out; this is the most). */
  samples: number;
  jaccard: number | null;
  weightedJaccard: number | null;
  containment: number | null;
  weightedContainment: number | null;
}

/** The path and text summary of one (base model, model) pair. */
export interface PathSummary {
  base: string;
  model: string;
  /** Problems whose correct model samples with steps enter the share (the bootstrap resamples these). */
  problems: number;
  /** Problems of the model left out, and why. */
  leftOut: { noBaseSamples: number; noCorrectSample: number; noStepsInCorrect: number };
  /** Correct model samples on the problems with base samples; those without any step are left out. */
  correctSamples: number;
  correctWithoutSteps: number;
  /** Share of correct samples (with steps) whose path some base sample computes in full, with its interval. */
  pathInBase: RatioCI & { samples: number };
  /** The same share with n - 1 base candidates, averaged over which is left out. */
  pathInBaseLeaveOneOut: number | null;
  /** Share of correct base samples (with steps) whose path another base sample computes in full. */
  baselinePathInBase: RatioCI & { samples: number };
  /** Mean share of steps found in the base, over correct model samples with steps (n, and n - 1 candidates), and the baseline's. */
  stepsFound: { model: number | null; modelLeaveOneOut: number | null; baseline: number | null };
  /** Absent when computed without text measures (`withText` false: the overview). */
  text?: {
    /** Samples per model and problem that entered (the first ones by sample index). */
    maxSamplesPerProblem: number;
    /** Samples left out by that cap (base, model). */
    samplesLeftOut: { base: number; model: number };
    /** Problems of P over which shingle IDF was counted (the base model's problems with samples). */
    idfProblems: number;
    modelVsBase: TextMedians;
    modelVsBaseLeaveOneOut: TextMedians;
    baseVsBase: TextMedians;
    modelVsModel: TextMedians;
  };
}

interface Row {
  sampleIndex: number;
  correct: number | null;
  text: string;
}

/** Problems (row ids) where a model has samples, ascending. */
function problemsOf(index: TraceIndex, modelId: number): number[] {
  return index.db
    .prepare('SELECT DISTINCT problem_id FROM samples WHERE model_id = ? ORDER BY problem_id')
    .pluck()
    .all(modelId) as number[];
}

/**
 * One model's samples of one problem, in sample order (one problem at a time: memory stays bounded),
 * their texts read from the results files (sampleText.ts). Throws SourceChangedError when a file
 * changed since it was indexed.
 */
async function rowsOf(index: TraceIndex, problemId: number, modelId: number): Promise<Row[]> {
  return (await readSampleTexts(index, problemId, modelId)).map((r) => ({
    sampleIndex: r.sampleIndex,
    correct: r.correct === null ? null : r.correct ? 1 : 0,
    text: r.text,
  }));
}

function medians(rows: readonly Omit<TextMatch, 'candidates'>[]): TextMedians {
  const med = (k: keyof Omit<TextMatch, 'candidates'>) => {
    const s = summarize(rows.flatMap((r) => (r[k] === null ? [] : [r[k] as number])));
    return { median: s.median, count: s.count };
  };
  const j = med('jaccard');
  const w = med('weightedJaccard');
  const c = med('containment');
  const wc = med('weightedContainment');
  return {
    samples: Math.max(j.count, w.count, c.count, wc.count),
    jaccard: j.median,
    weightedJaccard: w.median,
    containment: c.median,
    weightedContainment: wc.median,
  };
}

const mean = (xs: readonly number[]) => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** A folder-wide context shared by every pair with the same base model (vocabulary and IDF). */
export interface PathContext {
  baseId: number;
  /** Whether the text measures are computed (else `shingles`, `baseSets` and `idf` are empty). */
  withText: boolean;
  maxTextSamples: number;
  shingles: FolderShingles;
  baseSets: Map<number, Uint32Array[]>;
  idf: ShingleIdf;
}

/**
 * The base model's context: with `withText`, its first `maxTextSamples` samples per problem as
 * shingle sets and the shingle IDF over its problems (reads the base samples one problem at a time).
 */
export async function pathContext(
  index: TraceIndex,
  baseId: number,
  maxTextSamples = DEFAULT_MAX_TEXT_SAMPLES,
  withText = true,
): Promise<PathContext> {
  const shingles = new FolderShingles();
  const baseSets = new Map<number, Uint32Array[]>();
  if (withText)
    for (const p of problemsOf(index, baseId))
      baseSets.set(
        p,
        (await rowsOf(index, p, baseId)).slice(0, maxTextSamples).map((r) => shingles.set(r.text)),
      );
  return { baseId, withText, maxTextSamples, shingles, baseSets, idf: buildShingleIdf([...baseSets.values()]) };
}

/** Sums over problems for one (base, model) pair; {@link PathAccumulator.add} takes one problem. */
class PathAccumulator {
  private readonly leftOut = { noBaseSamples: 0, noCorrectSample: 0, noStepsInCorrect: 0 };
  private readonly num: number[] = [];
  private readonly den: number[] = [];
  private readonly bNum: number[] = [];
  private readonly bDen: number[] = [];
  private correctSamples = 0;
  private correctWithoutSteps = 0;
  private looSum = 0;
  private readonly found: number[] = [];
  private readonly foundLoo: number[] = [];
  private readonly foundBase: number[] = [];
  private readonly mvb: TextMatch[] = [];
  private readonly mvbLoo: Omit<TextMatch, 'candidates'>[] = [];
  private readonly bvb: TextMatch[] = [];
  private readonly mvm: TextMatch[] = [];
  private readonly capped = { base: 0, model: 0 };

  constructor(private readonly ctx: PathContext) {}

  add(problemId: number, baseRows: readonly Row[], rows: readonly Row[]): void {
    if (baseRows.length === 0) {
      this.leftOut.noBaseSamples++;
      return;
    }
    const paths = problemPaths(
      baseRows.map((r) => r.text),
      rows.map((r) => r.text),
    );
    const n = baseRows.length;
    let inBase = 0;
    let withSteps = 0;
    let correct = 0;
    rows.forEach((r, i) => {
      if (r.correct !== 1) return;
      correct++;
      const m = paths.model[i];
      if (m.steps === 0) return;
      withSteps++;
      if (m.fullPath > 0) inBase++;
      this.looSum += m.fullPath >= 2 ? 1 : m.fullPath === 1 ? (n - 1) / n : 0;
      this.found.push(m.shareFound as number);
      if (m.shareFoundLeaveOneOut != null) this.foundLoo.push(m.shareFoundLeaveOneOut);
    });
    let bIn = 0;
    let bWith = 0;
    baseRows.forEach((r, i) => {
      const b = paths.baseline[i];
      if (r.correct !== 1 || b.steps === 0) return;
      bWith++;
      if (b.fullPath > 0) bIn++;
      this.foundBase.push(b.shareFound as number);
    });
    this.bNum.push(bIn);
    this.bDen.push(bWith);
    this.correctSamples += correct;
    this.correctWithoutSteps += correct - withSteps;
    if (correct === 0) this.leftOut.noCorrectSample++;
    else if (withSteps === 0) this.leftOut.noStepsInCorrect++;
    if (withSteps > 0) {
      this.num.push(inBase);
      this.den.push(withSteps);
    }
    if (!this.ctx.withText) return;
    // text measures on the first maxTextSamples samples of each side
    const cap = this.ctx.maxTextSamples;
    const bs = this.ctx.baseSets.get(problemId) ?? [];
    const ms = rows.slice(0, cap).map((r) => this.ctx.shingles.set(r.text));
    this.capped.base += Math.max(0, baseRows.length - cap);
    this.capped.model += Math.max(0, rows.length - cap);
    const t = problemTextSimilarity(bs, ms, this.ctx.idf);
    for (const m of t.model) {
      this.mvb.push(m);
      this.mvbLoo.push(m.leaveOneOut);
    }
    this.bvb.push(...t.baseline);
    this.mvm.push(...t.modelBaseline);
  }

  result(names: { base: string; model: string }, boot?: BootstrapOptions): PathSummary {
    const withSteps = this.den.reduce((a, b) => a + b, 0);
    const baseWith = this.bDen.reduce((a, b) => a + b, 0);
    return {
      base: names.base,
      model: names.model,
      problems: this.num.length,
      leftOut: this.leftOut,
      correctSamples: this.correctSamples,
      correctWithoutSteps: this.correctWithoutSteps,
      pathInBase: { ...bootstrapRatioOfSums(this.num, this.den, boot), samples: withSteps },
      pathInBaseLeaveOneOut: withSteps > 0 ? this.looSum / withSteps : null,
      baselinePathInBase: { ...bootstrapRatioOfSums(this.bNum, this.bDen, boot), samples: baseWith },
      stepsFound: { model: mean(this.found), modelLeaveOneOut: mean(this.foundLoo), baseline: mean(this.foundBase) },
      text: this.ctx.withText
        ? {
            maxSamplesPerProblem: this.ctx.maxTextSamples,
            samplesLeftOut: this.capped,
            idfProblems: this.ctx.idf.problems,
            modelVsBase: medians(this.mvb),
            modelVsBaseLeaveOneOut: medians(this.mvbLoo),
            baseVsBase: medians(this.bvb),
            modelVsModel: medians(this.mvm),
          }
        : undefined,
    };
  }
}

/**
 * The summary of one (base model, model) pair (module comment). Reads one problem at a time (the
 * texts from the results files) and gives the event loop back every `sliceMs` milliseconds of work
 * (between problems), so an extension host stays responsive while it reads a large folder.
 *
 * @param ctx the base model's context ({@link pathContext}: it decides the text measures and their cap).
 * @param names display ids of the base model and the model.
 * @param boot bootstrap replicates and seed (defaults of src/core/metrics/bootstrap.ts).
 * @throws SourceChangedError (sampleText.ts) when a results file changed since it was indexed.
 */
export async function pathSummary(
  index: TraceIndex,
  ctx: PathContext,
  modelId: number,
  names: { base: string; model: string },
  boot?: BootstrapOptions,
  sliceMs = 20,
): Promise<PathSummary> {
  const acc = new PathAccumulator(ctx);
  let t0 = Date.now();
  for (const p of problemsOf(index, modelId)) {
    acc.add(p, await rowsOf(index, p, ctx.baseId), await rowsOf(index, p, modelId));
    if (Date.now() - t0 >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      t0 = Date.now();
    }
  }
  return acc.result(names, boot);
}
