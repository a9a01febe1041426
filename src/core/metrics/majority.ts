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

import { mulberry32 } from './bootstrap';

/** Unwraps every `\cmd{...}` (brace-matched) into its content. */
function unwrapCommand(s: string, cmd: string): string {
  const open = `\\${cmd}{`;
  let out = s;
  for (let guard = 0; guard < 100; guard++) {
    const at = out.indexOf(open);
    if (at < 0) break;
    let depth = 1;
    let i = at + open.length;
    for (; i < out.length && depth > 0; i++) {
      if (out[i] === '{') depth++;
      else if (out[i] === '}') depth--;
    }
    if (depth !== 0) {
      // unbalanced: drop the command prefix only
      out = out.slice(0, at) + out.slice(at + open.length);
      continue;
    }
    out = out.slice(0, at) + out.slice(at + open.length, i - 1) + out.slice(i);
  }
  return out;
}

const NUMBER_RE = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?$/;

/** Canonical decimal string of a plain number ("1,000.50" -> "1000.5"), or null if not a number. */
function canonicalNumber(s: string): string | null {
  const m = NUMBER_RE.exec(s);
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  let int = (m[2] ?? '0').replace(/,/g, '').replace(/^0+(?=\d)/, '');
  if (int === '') int = '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  const sign = m[1] === '-' && body !== '0' ? '-' : '';
  return sign + body;
}

/**
 * Normalizes an extracted final answer for voting. Two answers are equivalent iff their normalized
 * strings are equal. Steps, in order:
 * 1. trim; unwrap `\boxed{...}` and `\fbox{...}` (brace-matched, anywhere);
 * 2. drop `\left` / `\right` (not `\rightarrow`), the LaTeX spaces `\!`, `\,`, `\;`, `\:`, `\ `,
 *    dollar signs (`\$` and `$`); `\dfrac` / `\tfrac` -> `\frac`; `\%` -> `%`;
 * 3. remove all whitespace; strip trailing `.`;
 * 4. unwrap a whole-answer `\text{X}` to X, and drop a unit `\text{...}` / `\mbox{...}` / `\mathrm{...}`
 *    that directly follows a number (`16\,\text{hours}` -> `16`);
 * 5. numbers: `1,000` -> `1000` (only valid thousands grouping), `1.50` -> `1.5`, `007` -> `7`,
 *    `.5` -> `0.5`, `+5` -> `5`, `-0` -> `0` (string rewriting, no float rounding).
 * Not handled (kept distinct): fractions vs decimals (`\frac{1}{2}` vs `0.5`), percent vs plain
 * (`50%` vs `50`), reordered expressions.
 * @returns the normalized answer, or `null` for `null`/empty input (no answer).
 */
export function normalizeAnswer(answer: string | null | undefined): string | null {
  if (answer === null || answer === undefined) return null;
  let s = String(answer).trim();
  s = unwrapCommand(s, 'boxed');
  s = unwrapCommand(s, 'fbox');
  s = s.replace(/\\left(?![a-zA-Z])/g, '').replace(/\\right(?![a-zA-Z])/g, '');
  s = s.replace(/\\[!,;:]/g, '').replace(/\\ /g, '');
  s = s.replace(/\\\$/g, '').replace(/\$/g, '');
  s = s.replace(/\\[dt]frac(?![a-zA-Z])/g, '\\frac');
  s = s.replace(/\\%/g, '%');
  s = s.replace(/\s+/g, '');
  s = s.replace(/\.+$/, '');
  const whole = /^\\(?:text|textbf|mathrm|mbox)\{([^{}]*)\}$/.exec(s);
  if (whole) s = whole[1].replace(/\.+$/, '');
  const unit = /^([+-]?[\d.,]*\d)\\(?:text|mbox|mathrm)\{[^{}]*\}$/.exec(s);
  if (unit) s = unit[1];
  const num = canonicalNumber(s);
  if (num !== null) s = num;
  return s === '' ? null : s;
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
  /** Answer normalizer; default {@link normalizeAnswer}. Pass `(a) => a` for pre-normalized answers. */
  normalize?: (answer: string | null) => string | null;
}

/** maj@k with the method used. */
export interface MajAtKResult {
  /** Expected credit in [0, 1]; `null` when n < k or no sample is graded. */
  value: number | null;
  /** `exact` (enumeration), `monte-carlo` (seeded estimate), or `none` when value is null. */
  method: 'exact' | 'monte-carlo' | 'none';
  /** Monte Carlo draws used (0 for exact). */
  draws: number;
}

interface Groups {
  sizes: number[];
  correct: boolean[];
  nullCount: number;
}

function buildGroups(samples: readonly VoteSample[], normalize: (a: string | null) => string | null): Groups | null {
  const index = new Map<string, number>();
  const sizes: number[] = [];
  const correct: boolean[] = [];
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
      correct.push(false);
    }
    sizes[g]++;
    if (s.correct === true) correct[g] = true;
  }
  return graded ? { sizes, correct, nullCount } : null;
}

function logFactorials(n: number): Float64Array {
  const lf = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) lf[i] = lf[i - 1] + Math.log(i);
  return lf;
}

/** Exact expectation by enumerating count vectors; returns null if the node budget is exceeded. */
function exactMaj(gr: Groups, n: number, k: number, limit: number): number | null {
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
          if (gr.correct[i]) good++;
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

function monteCarloMaj(gr: Groups, n: number, k: number, draws: number, seed: number): number {
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
          if (gr.correct[g]) good++;
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
 * - votes are on normalized answers ({@link normalizeAnswer}), never on verdicts;
 * - a null (or empty) answer is a non-vote: it never wins; a subset with only null answers scores 0;
 * - an answer group is correct if any of its samples is graded correct (so a grader that marked
 *   `\$22,\!500` wrong but `22500` right does not split the credit); ungraded samples (`correct: null`)
 *   count as not correct, and if no sample of the problem is graded the value is `null`;
 * - ties for the most votes split the credit equally among the tied answers (expected score of a
 *   uniform random tie-break), never insertion order.
 * Method: exact enumeration of the answer-count vectors of a k-subset (multivariate hypergeometric
 * weights) when it needs at most `exactLimit` nodes (always for small n, and for k = 1 or few distinct
 * answers); otherwise the mean over `draws` seeded random k-subsets (standard error <= 0.5/sqrt(draws)).
 *
 * @returns `{value, method, draws}`; value `null` when n < k or nothing is graded.
 * @throws RangeError when k is not an integer >= 1.
 */
export function majAtKDetailed(samples: readonly VoteSample[], k: number, opts?: MajAtKOptions): MajAtKResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
  const n = samples.length;
  if (n < k) return { value: null, method: 'none', draws: 0 };
  const gr = buildGroups(samples, opts?.normalize ?? normalizeAnswer);
  if (gr === null) return { value: null, method: 'none', draws: 0 };
  const limit = opts?.exactLimit ?? 200000;
  const exact = exactMaj(gr, n, k, limit);
  if (exact !== null) return { value: exact, method: 'exact', draws: 0 };
  const draws = opts?.draws ?? 20000;
  if (!Number.isInteger(draws) || draws < 1)
    throw new RangeError(`draws must be an integer >= 1, got ${String(draws)}`);
  return { value: monteCarloMaj(gr, n, k, draws, opts?.seed ?? 12345), method: 'monte-carlo', draws };
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
}

/**
 * Dataset maj@k: mean over problems of {@link majAtK}; problems with n < k or without graded samples
 * are counted in `missing`. Monte Carlo problems use seed `opts.seed + index` so results reproduce.
 */
export function datasetMajAtK(
  problems: readonly (readonly VoteSample[])[],
  k: number,
  opts?: MajAtKOptions,
): MajAtKPoint {
  let s = 0;
  let used = 0;
  let missing = 0;
  let mc = 0;
  const seed = opts?.seed ?? 12345;
  problems.forEach((samples, i) => {
    const r = majAtKDetailed(samples, k, { ...opts, seed: (seed + i) >>> 0 });
    if (r.value === null) {
      missing++;
      return;
    }
    s += r.value;
    used++;
    if (r.method === 'monte-carlo') mc++;
  });
  return { k, value: used ? s / used : null, problems: used, missing, monteCarlo: mc };
}

/** Dataset maj@k at each k of `ks` (see {@link datasetMajAtK}). */
export function majAtKCurve(
  problems: readonly (readonly VoteSample[])[],
  ks: readonly number[],
  opts?: MajAtKOptions,
): MajAtKPoint[] {
  return ks.map((k) => datasetMajAtK(problems, k, opts));
}

/** How the base model's samples answered: per normalised answer, how many samples and how many correct. */
export type BaseAnswers = Map<string, { count: number; correct: number }>;

/**
 * Counts the base model's final answers for {@link answerInBase}: samples grouped by
 * {@link normalizeAnswer} (null and empty answers are left out); `correct` counts samples graded correct.
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
 * the same normalised answer and how many of those are graded correct. `null` when the sample has no
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
