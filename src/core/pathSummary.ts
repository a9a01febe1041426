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
import type { TraceIndex } from './index/traceIndex';
import { type BootstrapOptions, bootstrapRatioOfSums, type RatioCI } from './metrics/bootstrap';
import {
  buildShingleIdf,
  FolderShingles,
  problemPaths,
  problemTextSimilarity,
  type ShingleIdf,
  summarize,
  type TextMatch,
} from './similarity';

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
  problemId: number;
  sampleIndex: number;
  correct: number | null;
  text: string;
}

/** Samples of one model grouped by problem, in sample order. */
function samplesByProblem(index: TraceIndex, modelId: number): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  const it = index.db
    .prepare(
      `SELECT problem_id AS problemId, sample_index AS sampleIndex, correct, text FROM samples
        WHERE model_id = ? ORDER BY problem_id, sample_index`,
    )
    .iterate(modelId) as IterableIterator<Row>;
  for (const r of it) {
    const list = out.get(r.problemId) ?? [];
    list.push(r);
    out.set(r.problemId, list);
  }
  return out;
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
  shingles: FolderShingles;
  base: Map<number, Row[]>;
  baseSets: Map<number, Uint32Array[]>;
  idf: ShingleIdf;
}

/** Reads the base model's samples and counts shingle IDF over its problems (one per base model). */
export function pathContext(
  index: TraceIndex,
  baseId: number,
  maxTextSamples = DEFAULT_MAX_TEXT_SAMPLES,
  withText = true,
): PathContext {
  const shingles = new FolderShingles();
  const base = samplesByProblem(index, baseId);
  const baseSets = new Map<number, Uint32Array[]>();
  if (!withText) return { shingles, base, baseSets, idf: buildShingleIdf([]) };
  for (const [p, rows] of base)
    baseSets.set(
      p,
      rows.slice(0, maxTextSamples).map((r) => shingles.set(r.text)),
    );
  return { shingles, base, baseSets, idf: buildShingleIdf([...baseSets.values()]) };
}

/**
 * The summary of one (base model, model) pair (module comment).
 *
 * @param ctx the base model's context ({@link pathContext}, built with the same `maxTextSamples`).
 * @param names display ids of the base model and the model.
 * @param boot bootstrap replicates and seed (defaults of src/core/metrics/bootstrap.ts).
 * @param withText also the text measures (exact over pairs; the costly part).
 */
export function pathSummary(
  index: TraceIndex,
  ctx: PathContext,
  modelId: number,
  names: { base: string; model: string },
  boot?: BootstrapOptions,
  maxTextSamples = DEFAULT_MAX_TEXT_SAMPLES,
  withText = true,
): PathSummary {
  const model = samplesByProblem(index, modelId);
  const leftOut = { noBaseSamples: 0, noCorrectSample: 0, noStepsInCorrect: 0 };
  const num: number[] = [];
  const den: number[] = [];
  const bNum: number[] = [];
  const bDen: number[] = [];
  let correctSamples = 0;
  let correctWithoutSteps = 0;
  let looSum = 0;
  const found: number[] = [];
  const foundLoo: number[] = [];
  const foundBase: number[] = [];
  const mvb: TextMatch[] = [];
  const mvbLoo: Omit<TextMatch, 'candidates'>[] = [];
  const bvb: TextMatch[] = [];
  const mvm: TextMatch[] = [];
  const capped = { base: 0, model: 0 };
  for (const [p, rows] of model) {
    const baseRows = ctx.base.get(p);
    if (!baseRows || baseRows.length === 0) {
      leftOut.noBaseSamples++;
      continue;
    }
    const paths = problemPaths(
      baseRows.map((r) => r.text),
      rows.map((r) => r.text),
    );
    let inBase = 0;
    let withSteps = 0;
    let correct = 0;
    const n = baseRows.length;
    rows.forEach((r, i) => {
      if (r.correct !== 1) return;
      correct++;
      const m = paths.model[i];
      if (m.steps === 0) return;
      withSteps++;
      if (m.fullPath > 0) inBase++;
      looSum += m.fullPath >= 2 ? 1 : m.fullPath === 1 ? (n - 1) / n : 0;
      found.push(m.shareFound!);
      if (m.shareFoundLeaveOneOut != null) foundLoo.push(m.shareFoundLeaveOneOut);
    });
    let bIn = 0;
    let bWith = 0;
    baseRows.forEach((r, i) => {
      const b = paths.baseline[i];
      if (r.correct !== 1 || b.steps === 0) return;
      bWith++;
      if (b.fullPath > 0) bIn++;
      foundBase.push(b.shareFound!);
    });
    bNum.push(bIn);
    bDen.push(bWith);
    correctSamples += correct;
    correctWithoutSteps += correct - withSteps;
    if (correct === 0) leftOut.noCorrectSample++;
    else if (withSteps === 0) leftOut.noStepsInCorrect++;
    if (withSteps > 0) {
      num.push(inBase);
      den.push(withSteps);
    }
    if (!withText) continue;
    // text measures on the first maxTextSamples samples of each side
    const bs = ctx.baseSets.get(p) ?? [];
    const ms = rows.slice(0, maxTextSamples).map((r) => ctx.shingles.set(r.text));
    capped.base += Math.max(0, baseRows.length - maxTextSamples);
    capped.model += Math.max(0, rows.length - maxTextSamples);
    const t = problemTextSimilarity(bs, ms, ctx.idf);
    for (const m of t.model) {
      mvb.push(m);
      mvbLoo.push(m.leaveOneOut);
    }
    bvb.push(...t.baseline);
    mvm.push(...t.modelBaseline);
  }
  const withSteps = den.reduce((a, b) => a + b, 0);
  const baseWith = bDen.reduce((a, b) => a + b, 0);
  return {
    base: names.base,
    model: names.model,
    problems: num.length,
    leftOut,
    correctSamples,
    correctWithoutSteps,
    pathInBase: { ...bootstrapRatioOfSums(num, den, boot), samples: withSteps },
    pathInBaseLeaveOneOut: withSteps > 0 ? looSum / withSteps : null,
    baselinePathInBase: { ...bootstrapRatioOfSums(bNum, bDen, boot), samples: baseWith },
    stepsFound: { model: mean(found), modelLeaveOneOut: mean(foundLoo), baseline: mean(foundBase) },
    text: !withText
      ? undefined
      : {
          maxSamplesPerProblem: maxTextSamples,
          samplesLeftOut: capped,
          idfProblems: ctx.idf.problems,
          modelVsBase: medians(mvb),
          modelVsBaseLeaveOneOut: medians(mvbLoo),
          baseVsBase: medians(bvb),
          modelVsModel: medians(mvm),
        },
  };
}
