/**
 * maj@k (self-consistency, Wang et al. 2022; used as a baseline by Lightman et al. 2023 "Let's Verify
 * Step by Step"): draw k of the n samples, vote on their extracted final answers (grouped by
 * equivalence), score the winning answer. The exact expectation over all k-subsets, computed from the
 * answer groups' counts (`./majorityExact`).
 *
 * Known mistakes of peers avoided here: voting on correct/incorrect verdicts instead of answers
 * (Inspect's `mode` reducer); taking the first k samples (lm-eval's maj@8), which is one noisy
 * subset; breaking ties by insertion order.
 */

import { answerKey } from '../answers/equivalence';
import { hasReference, keyMatchesReference } from '../answers/reference';
import { expectedMajorityCredit } from './majorityExact';

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
  /** `exact`, or `none` when value is null. */
  method: 'exact' | 'none';
  /** How the answer groups were judged: by the reference answer, or by the samples' verdicts. */
  correctness?: 'reference' | 'verdicts';
}

/** The answer groups of one problem's samples, built once and reused for every k. */
export interface VoteGroups {
  /** Samples per answer group (in order of first appearance); with a reference, every key it accepts is one group. */
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
 * by the reference answer when it is known (`opts.reference` with a non-null key), and then every key
 * the reference accepts is one group, the reference's, before the vote (`1010_2` and `1010` against
 * the reference `1010_2`; the alternatives of a list of accepted answers): the correct answer's votes
 * are not split between its spellings; else by the
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
  let refGroup: number | undefined;
  for (const s of samples) {
    if (s.correct !== null && s.correct !== undefined) graded = true;
    const a = normalize(s.answer);
    if (a === null) {
      nullCount++;
      continue;
    }
    let g = index.get(a);
    if (g === undefined) {
      // every key the reference accepts votes in one group (`1010` with `1010_2`)
      const ok = hasRef && matchesRef(a);
      g = ok && refGroup !== undefined ? refGroup : sizes.length;
      index.set(a, g);
      if (g === sizes.length) {
        if (ok) refGroup = g;
        sizes.push(0);
        correct.push(ok ? 1 : 0);
        right.push(0);
        wrong.push(0);
      }
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
 * Method: exact, from the answer groups' counts (`./majorityExact`: binomial embedding of the multivariate
 * hypergeometric counts, ties by an integral, coefficients by a discrete Fourier transform), at any n and k;
 * no Monte Carlo.
 *
 * @returns `{value, method, correctness}`; value `null` when n < k or nothing is graded.
 * @throws RangeError when k is not an integer >= 1.
 */
export function majAtKDetailed(samples: readonly VoteSample[], k: number, opts?: MajAtKOptions): MajAtKResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
  if (samples.length < k) return { value: null, method: 'none' };
  return majOfGroups(voteGroups(samples, opts), k);
}

/** maj@k from groups built by {@link voteGroups} (so a curve groups each problem's answers once). */
export function majOfGroups(gr: VoteGroups | null, k: number): MajAtKResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
  if (gr === null || gr.n < k) return { value: null, method: 'none' };
  return {
    value: expectedMajorityCredit(gr.sizes, gr.correct, gr.nullCount, k),
    method: 'exact',
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
  /** Of `problems`, those whose answer groups were judged by the reference answer (the rest by verdicts). */
  byReference: number;
}

/** Per-problem options of a dataset maj@k: the reference answer of each problem (aligned with `problems`). */
export interface DatasetMajAtKOptions extends Omit<MajAtKOptions, 'reference'> {
  references?: readonly (string | null | undefined)[];
}

/**
 * Dataset maj@k: mean over problems of {@link majAtK}; problems with n < k or without graded samples
 * are counted in `missing`.
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
  const groups = problems.map((samples, i) => voteGroups(samples, { ...opts, reference: opts?.references?.[i] }));
  return ks.map((k) => {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
    let s = 0;
    let used = 0;
    let missing = 0;
    let byReference = 0;
    for (const gr of groups) {
      const r = majOfGroups(gr, k);
      if (r.value === null) {
        missing++;
        continue;
      }
      s += r.value;
      used++;
      if (r.correctness === 'reference') byReference++;
    }
    return { k, value: used ? s / used : null, problems: used, missing, byReference };
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
