/**
 * maj@k (self-consistency, Wang et al. 2022; used as a baseline by Lightman et al. 2023 "Let's Verify
 * Step by Step"): draw k of the n samples, vote on their extracted final answers (grouped by
 * equivalence), score the winning answer. Expected over all k-subsets: exactly when feasible, else a
 * seeded Monte Carlo estimate.
 *
 * Known mistakes of peers avoided here: voting on correct/incorrect verdicts instead of answers
 * (Inspect's `mode` reducer); taking the first k samples (lm-eval's maj@8), which is one noisy
 * subset; breaking ties by insertion order.
 */

import { answerKey } from '../answers/equivalence';
import { hasReference, keyMatchesReference } from '../answers/reference';
import { mulberry32 } from './bootstrap';

/**
 * The key answers are grouped by for voting: the canonical key of answer equivalence
 * (`src/core/answers`: `\frac{1}{2}`, `0.5` and `1/2` are one answer; `16 hours` and `16` too).
 * Kept under this name for existing callers; new code uses `answerKey` from `src/core/answers`.
 * @returns the key, or `null` for no answer (null, empty, or empty after removing wrappers).
 */
export function normalizeAnswer(answer: string | null | undefined): string | null {
  return answerKey(answer);
}

/** One sample for voting: its extracted final answer and its graded correctness. */
export interface VoteSample {
  /** Extracted final answer; `null` when none was extracted (never wins a vote). */
  answer: string | null;
  /** Graded correctness of this sample; `null` when ungraded. */
  correct: boolean | null;
}

/** Options of {@link majAtK}. */
export interface MajAtKOptions {
  /**
   * Exact computation enumerates the count vectors of a k-subset over answer groups; when that would
   * visit more than this many nodes, Monte Carlo is used instead. Default 200000.
   */
  exactLimit?: number;
  /** Monte Carlo: number of random k-subsets (without replacement). Default 20000. */
  draws?: number;
  /** Monte Carlo PRNG seed (mulberry32). Default 12345. */
  seed?: number;
  /**
   * The key answers are grouped by; default {@link normalizeAnswer} (answer equivalence). Pass
   * `(a) => a` for pre-normalized answers. The reference answer goes through the same function.
   */
  normalize?: (answer: string | null) => string | null;
  /**
   * The problem's reference answer (or a list of accepted answers, `encodeReferenceList`). When it is
   * known (some alternative has a key), an answer group is correct iff its key matches the reference
   * (`keyMatchesReference`: equal keys, or a match the reference accepts); otherwise by its samples'
   * verdicts. With a custom `normalize`, iff the group's key equals `normalize(reference)`.
   */
  reference?: string | null;
  /**
   * Score a problem none of whose samples has a verdict by the reference alone (the tool's grading,
   * opt-in: `report --tool-grading`). Without it such a problem has no value (counted as missing).
   */
  gradeByReference?: boolean;
}

/** maj@k with the method used. */
export interface MajAtKResult {
  /** Expected credit in [0, 1]; `null` when n < k, or nothing is graded (and no reference grading was asked for). */
  value: number | null;
  /** `exact` (enumeration), `monte-carlo` (seeded estimate), or `none` when value is null. */
  method: 'exact' | 'monte-carlo' | 'none';
  /** Monte Carlo draws used (0 for exact). */
  draws: number;
  /** How the answer groups were judged: by the reference answer, or by the samples' verdicts. */
  correctness?: 'reference' | 'verdicts';
}

/** The answer groups of one problem's samples, built once and reused for every k. */
export interface VoteGroups {
  /** Samples per answer group (in order of first appearance). */
  sizes: number[];
  /**
   * The credit of each group when it wins, in [0, 1] (by the rule of {@link voteGroups}): 1 or 0 by the
   * reference; by verdicts 1 or 0, or 1/2 when its graded samples are half correct, half incorrect.
   */
  correct: number[];
  /** Samples without an answer (non-votes). */
  nullCount: number;
  /** Total samples n. */
  n: number;
  correctness: 'reference' | 'verdicts';
}

/**
 * Groups one problem's samples by answer key for voting, and decides each group's correctness:
 * by the reference answer when it is known (`opts.reference` with a non-null key), else by the
 * majority verdict of its graded samples: correct (credit 1) when more are graded correct than
 * incorrect, not correct (0) when fewer, and half (1/2) on a tie; ungraded samples do not vote, and a
 * group with no graded sample is not correct. So a grader that marked `\$22,\!500` wrong once and
 * `22500` right five times does not split the credit, and an inconsistent grader (answer 5 graded once
 * right, once wrong) does not make the group correct (trial 3, finding 11: "any sample correct" gave
 * maj@1 = 100% on such a problem).
 * @returns `null` when no sample has a verdict (unless `opts.gradeByReference` and a reference is known).
 */
export function voteGroups(samples: readonly VoteSample[], opts?: MajAtKOptions): VoteGroups | null {
  const normalize = opts?.normalize ?? normalizeAnswer;
  const reference = opts?.reference ?? null;
  // the reference decision: the shared one of answer equivalence, or equal keys under a custom grouping
  const custom = opts?.normalize === undefined ? null : reference === null ? null : opts.normalize(reference);
  const hasRef = opts?.normalize === undefined ? hasReference(reference) : custom !== null;
  const matchesRef = (key: string) => (custom !== null ? key === custom : keyMatchesReference(key, reference));
  const index = new Map<string, number>();
  const sizes: number[] = [];
  const correct: number[] = [];
  const right: number[] = [];
  const wrong: number[] = [];
  let nullCount = 0;
  let graded = false;
  for (const s of samples) {
    if (s.correct !== null && s.correct !== undefined) graded = true;
    const a = normalize(s.answer);
    if (a === null) {
      nullCount++;
      continue;
    }
    let g = index.get(a);
    if (g === undefined) {
      g = sizes.length;
      index.set(a, g);
      sizes.push(0);
      correct.push(hasRef && matchesRef(a) ? 1 : 0);
      right.push(0);
      wrong.push(0);
    }
    sizes[g]++;
    if (s.correct === true) right[g]++;
    else if (s.correct === false) wrong[g]++;
  }
  if (!hasRef)
    for (let g = 0; g < sizes.length; g++)
      correct[g] = right[g] > wrong[g] ? 1 : right[g] < wrong[g] ? 0 : right[g] > 0 ? 0.5 : 0;
  if (!graded && !(opts?.gradeByReference && hasRef)) return null;
  return { sizes, correct, nullCount, n: samples.length, correctness: hasRef ? 'reference' : 'verdicts' };
}

function logFactorials(n: number): Float64Array {
  const lf = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) lf[i] = lf[i - 1] + Math.log(i);
  return lf;
}

/** Exact expectation by enumerating count vectors; returns null if the node budget is exceeded. */
function exactMaj(gr: VoteGroups, n: number, k: number, limit: number): number | null {
  const G = gr.sizes.length;
  const lf = logFactorials(n);
  const lnC = (a: number, b: number): number => lf[a] - lf[b] - lf[a - b];
  const lnTotal = lnC(n, k);
  // suffix capacity: samples available in groups g.. plus the null group
  const suffix = new Array<number>(G + 1).fill(0);
  suffix[G] = gr.nullCount;
  for (let g = G - 1; g >= 0; g--) suffix[g] = suffix[g + 1] + gr.sizes[g];
  const x = new Array<number>(G).fill(0);
  let nodes = 0;
  let total = 0;
  let aborted = false;
  const rec = (g: number, remaining: number, lnW: number): void => {
    if (aborted) return;
    if (++nodes > limit) {
      aborted = true;
      return;
    }
    if (g === G) {
      nodes += G;
      // remaining samples come from the null group
      const w = Math.exp(lnW + lnC(gr.nullCount, remaining) - lnTotal);
      let m = 0;
      for (let i = 0; i < G; i++) if (x[i] > m) m = x[i];
      if (m === 0) return; // only unanswered samples drawn: no winner, credit 0
      let winners = 0;
      let good = 0;
      for (let i = 0; i < G; i++) {
        if (x[i] === m) {
          winners++;
          good += gr.correct[i];
        }
      }
      total += (w * good) / winners;
      return;
    }
    const lo = Math.max(0, remaining - suffix[g + 1]);
    const hi = Math.min(gr.sizes[g], remaining);
    for (let v = lo; v <= hi; v++) {
      x[g] = v;
      rec(g + 1, remaining - v, lnW + lnC(gr.sizes[g], v));
    }
    x[g] = 0;
  };
  rec(0, k, 0);
  return aborted ? null : Math.min(1, Math.max(0, total));
}

function monteCarloMaj(gr: VoteGroups, n: number, k: number, draws: number, seed: number): number {
  const G = gr.sizes.length;
  const pool = new Int32Array(n);
  let p = 0;
  for (let g = 0; g < G; g++) for (let i = 0; i < gr.sizes[g]; i++) pool[p++] = g;
  for (let i = 0; i < gr.nullCount; i++) pool[p++] = -1;
  const counts = new Int32Array(G);
  const seen = new Uint8Array(G);
  const rand = mulberry32(seed);
  let total = 0;
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(rand() * (n - i));
      const t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
      if (pool[i] >= 0) counts[pool[i]]++;
    }
    let m = 0;
    for (let i = 0; i < k; i++) if (pool[i] >= 0 && counts[pool[i]] > m) m = counts[pool[i]];
    if (m > 0) {
      let winners = 0;
      let good = 0;
      for (let i = 0; i < k; i++) {
        const g = pool[i];
        if (g >= 0 && counts[g] === m && !seen[g]) {
          seen[g] = 1;
          winners++;
          good += gr.correct[g];
        }
      }
      total += good / winners;
    }
    for (let i = 0; i < k; i++) {
      const g = pool[i];
      if (g >= 0) {
        counts[g] = 0;
        seen[g] = 0;
      }
    }
  }
  return total / draws;
}

/**
 * maj@k of one problem with the method used: the expected credit of majority voting over a uniformly
 * random k-subset of the n samples.
 *
 * Policies:
 * - votes are on answer keys ({@link normalizeAnswer}: answer equivalence), never on verdicts;
 * - a null (or empty) answer is a non-vote: it never wins; a subset with only null answers scores 0;
 * - the winning group is correct by the rule of {@link voteGroups}: when the problem's reference
 *   answer is known (`opts.reference`), iff the group's value equals the reference; otherwise by the
 *   majority verdict of its graded samples (a tie is half credit); if no sample of the problem is graded the value is `null`
 *   (unless `opts.gradeByReference`);
 * - ties for the most votes split the credit equally among the tied answers (expected score of a
 *   uniform random tie-break), never insertion order.
 * Method: exact enumeration of the answer-count vectors of a k-subset (multivariate hypergeometric
 * weights) when it needs at most `exactLimit` nodes (always for small n, and for k = 1 or few distinct
 * answers); otherwise the mean over `draws` seeded random k-subsets (standard error <= 0.5/sqrt(draws)).
 *
 * @returns `{value, method, draws, correctness}`; value `null` when n < k or nothing is graded.
 * @throws RangeError when k is not an integer >= 1.
 */
export function majAtKDetailed(samples: readonly VoteSample[], k: number, opts?: MajAtKOptions): MajAtKResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
  if (samples.length < k) return { value: null, method: 'none', draws: 0 };
  return majOfGroups(voteGroups(samples, opts), k, opts);
}

/** maj@k from groups built by {@link voteGroups} (so a curve groups each problem's answers once). */
export function majOfGroups(gr: VoteGroups | null, k: number, opts?: MajAtKOptions): MajAtKResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
  if (gr === null || gr.n < k) return { value: null, method: 'none', draws: 0 };
  const limit = opts?.exactLimit ?? 200000;
  const exact = exactMaj(gr, gr.n, k, limit);
  if (exact !== null) return { value: exact, method: 'exact', draws: 0, correctness: gr.correctness };
  const draws = opts?.draws ?? 20000;
  if (!Number.isInteger(draws) || draws < 1)
    throw new RangeError(`draws must be an integer >= 1, got ${String(draws)}`);
  return {
    value: monteCarloMaj(gr, gr.n, k, draws, opts?.seed ?? 12345),
    method: 'monte-carlo',
    draws,
    correctness: gr.correctness,
  };
}

/**
 * maj@k of one problem (see {@link majAtKDetailed} for policies and method).
 * @returns expected credit in [0, 1], or `null` when n < k or no sample is graded.
 */
export function majAtK(samples: readonly VoteSample[], k: number, opts?: MajAtKOptions): number | null {
  return majAtKDetailed(samples, k, opts).value;
}

/** One point of a dataset maj@k curve. */
export interface MajAtKPoint {
  k: number;
  /** Mean maj@k over problems with a value; `null` if none. */
  value: number | null;
  /** Problems that entered the mean. */
  problems: number;
  /** Problems left out: n < k, or no graded sample. */
  missing: number;
  /** Problems estimated by Monte Carlo (the rest were exact). */
  monteCarlo: number;
  /** Of `problems`, those whose answer groups were judged by the reference answer (the rest by verdicts). */
  byReference: number;
}

/** Per-problem options of a dataset maj@k: the reference answer of each problem (aligned with `problems`). */
export interface DatasetMajAtKOptions extends Omit<MajAtKOptions, 'reference'> {
  references?: readonly (string | null | undefined)[];
}

/**
 * Dataset maj@k: mean over problems of {@link majAtK}; problems with n < k or without graded samples
 * are counted in `missing`. Monte Carlo problems use seed `opts.seed + index` so results reproduce.
 * `opts.references[i]` is problem i's reference answer (see {@link MajAtKOptions.reference}).
 */
export function datasetMajAtK(
  problems: readonly (readonly VoteSample[])[],
  k: number,
  opts?: DatasetMajAtKOptions,
): MajAtKPoint {
  return majAtKCurve(problems, [k], opts)[0];
}

/**
 * Dataset maj@k at each k of `ks` (see {@link datasetMajAtK}); each problem's answers are grouped
 * once (answer keys are cached per distinct string), then every k is computed from the groups.
 */
export function majAtKCurve(
  problems: readonly (readonly VoteSample[])[],
  ks: readonly number[],
  opts?: DatasetMajAtKOptions,
): MajAtKPoint[] {
  const seed = opts?.seed ?? 12345;
  const groups = problems.map((samples, i) => voteGroups(samples, { ...opts, reference: opts?.references?.[i] }));
  return ks.map((k) => {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
    let s = 0;
    let used = 0;
    let missing = 0;
    let mc = 0;
    let byReference = 0;
    groups.forEach((gr, i) => {
      const r = majOfGroups(gr, k, { ...opts, seed: (seed + i) >>> 0 });
      if (r.value === null) {
        missing++;
        return;
      }
      s += r.value;
      used++;
      if (r.method === 'monte-carlo') mc++;
      if (r.correctness === 'reference') byReference++;
    });
    return { k, value: used ? s / used : null, problems: used, missing, monteCarlo: mc, byReference };
  });
}

/** How the base model's samples answered: per answer key, how many samples and how many correct. */
export type BaseAnswers = Map<string, { count: number; correct: number }>;

/**
 * Counts the base model's final answers for {@link answerInBase}: samples grouped by answer key
 * ({@link normalizeAnswer}, the grouping of maj@k; samples without an answer are left out); `correct` counts samples
 * graded correct.
 */
export function baseAnswerCounts(base: readonly VoteSample[]): BaseAnswers {
  const out: BaseAnswers = new Map();
  for (const s of base) {
    const a = normalizeAnswer(s.answer);
    if (a === null) continue;
    const g = out.get(a) ?? { count: 0, correct: 0 };
    g.count++;
    if (s.correct === true) g.correct++;
    out.set(a, g);
  }
  return out;
}

/**
 * Whether a model sample's final answer is already among the base model's samples (the answer-level
 * form of "is RL's solution in the base distribution?", Yue et al. 2025): how many base samples gave
 * the same answer (the same key as maj@k's vote) and how many of those are graded correct. `null` when the sample has no
 * extracted answer; `{ count: 0, correct: 0 }` when no base sample gave it.
 */
export function answerInBase(
  counts: BaseAnswers,
  answer: string | null | undefined,
): { count: number; correct: number } | null {
  const a = normalizeAnswer(answer);
  if (a === null) return null;
  return counts.get(a) ?? { count: 0, correct: 0 };
}
