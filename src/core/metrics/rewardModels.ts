/**
 * Reward-model evaluation with several scorers on the same samples (Wen et al. 2025, "Rethinking
 * Reward Model Evaluation: Are We Barking up the Wrong Tree?", ICLR 2025): does a scorer's accuracy on
 * (correct, incorrect) pairs predict how well it selects with best-of-N?
 *
 * Per scorer, on one set of problems shared by every scorer:
 * - pairwise accuracy: over all (correct, incorrect) sample pairs of the same problem, the share where
 *   the correct sample scores higher, ties 1/2 (the Mann-Whitney / AUC convention; {@link pairwiseAccuracy});
 * - best-of-N at N = 1, 2, 4, ..., n: the exact expectation over random N-subsets (the rank formula
 *   C(n-j, N-1)/C(n, N), ties broken uniformly at random, i.e. averaged; {@link bestOfKCurve});
 * - pass@N on the same problems (Chen et al. 2021: the oracle bound) and regret = pass@N - best-of-N.
 * Across scorers, per N: Spearman's rho and Kendall's tau-b between pairwise accuracy and best-of-N,
 * with a seeded percentile bootstrap over problems (Efron & Tibshirani 1993).
 */

import { problemScorerFigures } from './bestOfK';
import {
  type BootstrapOptions,
  type ResolvedOptions,
  mulberry32,
  percentileInterval,
  resolveBootstrapOptions,
} from './bootstrap';
import { kGrid, passAtK } from './passAtK';

/** One problem's graded samples and each scorer's score per sample. */
export interface RewardProblem {
  /** The caller's id of the problem (returned in nothing but used to name it in errors). */
  key: string;
  /** Verdict of each graded sample, in sample order. Ungraded samples are left out by the caller. */
  correct: readonly boolean[];
  /**
   * Samples of the problem, graded or not (default `correct.length`). 0 with `correct` empty: the problem
   * has no samples at all (a record with `code: []`); more than 0 with `correct` empty: no graded sample.
   */
  samples?: number;
  /**
   * Scorer name -> score of each sample, aligned with `correct` (same order and length). A missing
   * scorer, a shorter list, or a null, undefined or NaN entry means that scorer did not score every sample
   * of the problem: the problem then leaves the common set (see {@link evaluateRewardModels}). `-Infinity`
   * and `Infinity` are scores, the lowest and highest: such a sample loses (wins) every comparison, two
   * `-Infinity` tie.
   */
  scores: ReadonlyMap<string, readonly (number | null | undefined)[]>;
  /** Strata of the problem (`{subject: "Algebra", level: "1"}`); null or absent when unknown. */
  strata?: Readonly<Record<string, string | null | undefined>>;
}

/** Whether a score entry is a score: a number other than NaN (`-Infinity` is the lowest score). */
function isScore(v: number | null | undefined): v is number {
  return typeof v === 'number' && !Number.isNaN(v);
}

/** One N of a scorer's best-of-N curve. */
export interface BestOfNPoint {
  n: number;
  /** Mean best-of-N over problems with at least N samples; null when none has. */
  value: number | null;
  /** Mean pass@N over the same problems (the oracle bound); null when none. */
  passAtN: number | null;
  /** passAtN - value: how much the scorer leaves on the table; null when either is null. */
  regret: number | null;
  /** Problems of the common set with at least N samples (the denominator). */
  problems: number;
  /**
   * Every problem given that is not in the mean at this N, whatever the reason (`total - problems`): the
   * common set's left-outs (`leftOut`) plus `belowN`.
   */
  missing: number;
  /** Problems of the common set with fewer than N samples, left out at this N (never padded). */
  belowN: number;
}

/** One scorer's figures on the common problem set. */
export interface ScorerEval {
  name: string;
  /** Pairwise accuracy pooled over every (correct, incorrect) pair of every problem ("micro"); null without pairs. */
  pairwiseAccuracy: number | null;
  /** Mean over problems of each problem's pairwise accuracy ("macro"); equals the pooled value when every problem has the same number of pairs. */
  pairwiseAccuracyMacro: number | null;
  /** Number of (correct, incorrect) pairs. */
  pairs: number;
  /** Of them, pairs with equal scores (each counted 1/2). */
  ties: number;
  /** Problems with at least one pair (the denominator of the macro mean). */
  pairProblems: number;
  bestOfN: BestOfNPoint[];
}

/** Rank correlation across scorers between pairwise accuracy and best-of-N at one N. */
export interface CorrelationPoint {
  n: number;
  /** Scorers correlated (each one point). */
  scorers: number;
  /** Spearman's rho (Pearson correlation of average ranks); null when either side has no spread. */
  spearman: number | null;
  /** Kendall's tau-b (ties in either variable corrected for, Kendall 1945); null when either side has no spread. */
  kendall: number | null;
  /** Percentile bootstrap interval of Spearman's rho over problems; null when no replicate gives one. */
  ciLow: number | null;
  ciHigh: number | null;
  /** The same for Kendall's tau-b. */
  kendallCiLow: number | null;
  kendallCiHigh: number | null;
  /** Replicates where a correlation was defined (the others had no spread on one side and are dropped). */
  replicates: number;
}

/** Scorer figures within one stratum (one value of `subject`, `level`, ...). */
export interface StratumEval {
  /** The stratum's variable (`subject`, `level`). */
  by: string;
  value: string;
  /** Problems of the common set in this stratum. */
  problems: number;
  scorers: { name: string; pairwiseAccuracy: number | null; pairs: number; bestOfN: BestOfNPoint[] }[];
  /** Spearman's rho per N within the stratum (point estimates, no interval). */
  spearman: { n: number; value: number | null }[];
}

/** Result of {@link evaluateRewardModels}. */
export interface RewardModelEval {
  /** Problems given (a model's problems, with or without samples): `problems` + the sum of `leftOut`. */
  total: number;
  /** Problems in the common set: every scorer scored every graded sample. The denominator of every figure. */
  problems: number;
  /**
   * Problems left out of every figure, by reason (the first that applies): no samples at all, samples but
   * none graded, some scorer lacks a score (a number; NaN is none) for some graded sample (`incompleteScores`); `partlyScored`
   * is those of `incompleteScores` with a score on at least one graded sample (scored on some samples
   * only, or by some scorers only), the rest have no reward score on any graded sample (trial 12 finding 20).
   */
  leftOut: { noSamples: number; noGradedSample: number; incompleteScores: number; partlyScored: number };
  /** Per scorer: problems where it lacks a score for some graded sample (why they left the common set). */
  incompleteByScorer: Record<string, number>;
  /** The N grid: 1, 2, 4, ..., max n ({@link kGrid}). */
  ns: number[];
  scorers: ScorerEval[];
  correlations: CorrelationPoint[];
  strata: StratumEval[];
  /** Per stratum variable, common-set problems without a value for it (not in any stratum of it). */
  unmatched: Record<string, number>;
}

/** Options of {@link evaluateRewardModels}. */
export interface RewardModelEvalOptions extends BootstrapOptions {
  /** Scorers to evaluate, in this order; default every scorer seen, sorted by name. */
  scorers?: readonly string[];
  /** Stratum variables to break figures down by (keys of `RewardProblem.strata`); default none. */
  strata?: readonly string[];
}

/**
 * Values closer than this are the same rank in the correlations: best-of-N sums of probabilities can
 * differ in the last bits between scorers whose curves are equal.
 */
const RANK_TOLERANCE = 1e-12;

function snap(v: number): number {
  return Math.round(v / RANK_TOLERANCE) * RANK_TOLERANCE;
}

/**
 * Average ranks (1-based) of `xs`, ties sharing the mean of their positions (Spearman 1904 with the
 * usual mid-rank correction). Values within {@link RANK_TOLERANCE} tie.
 */
export function averageRanks(xs: readonly number[]): number[] {
  const v = xs.map(snap);
  const order = v.map((_, i) => i).sort((a, b) => v[a] - v[b]);
  const ranks = new Array<number>(v.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && v[order[j + 1]] === v[order[i]]) j++;
    const r = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) ranks[order[t]] = r;
    i = j + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const m = x.length;
  if (m < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < m; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= m;
  my /= m;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < m; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx <= 0 || syy <= 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Spearman's rank correlation rho (Spearman 1904): the Pearson correlation of the average ranks of
 * `x` and `y` (ties get the mean rank, so this is the tie-corrected rho). Values within 1e-12 tie.
 * @returns rho in [-1, 1]; null with fewer than 2 points or when either side has all values tied.
 * @throws RangeError when the lists differ in length or hold a non-finite value.
 */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  checkPaired(x, y);
  return pearson(averageRanks(x), averageRanks(y));
}

/**
 * Kendall's tau-b (Kendall 1945, "The treatment of ties in ranking problems"):
 * (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)), n0 = m(m-1)/2 pairs, n1 and n2 the pairs tied
 * in x and in y. A pair tied in both counts in n1 and n2 and is neither concordant nor discordant.
 * Values within 1e-12 tie. O(m^2): meant for tens of scorers.
 * @returns tau-b in [-1, 1]; null with fewer than 2 points or when either side has all values tied.
 * @throws RangeError when the lists differ in length or hold a non-finite value.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  checkPaired(x, y);
  const m = x.length;
  if (m < 2) return null;
  const a = x.map(snap);
  const b = y.map(snap);
  let s = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const dx = Math.sign(a[i] - a[j]);
      const dy = Math.sign(b[i] - b[j]);
      if (dx === 0) tx++;
      if (dy === 0) ty++;
      s += dx * dy;
    }
  }
  const n0 = (m * (m - 1)) / 2;
  const den = Math.sqrt((n0 - tx) * (n0 - ty));
  if (!(den > 0)) return null;
  return Math.max(-1, Math.min(1, s / den));
}

function checkPaired(x: readonly number[], y: readonly number[]): void {
  if (x.length !== y.length) throw new RangeError(`x and y must have the same length (${x.length} vs ${y.length})`);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i]))
      throw new RangeError(`x[${i}] and y[${i}] must be finite numbers, got ${String(x[i])} and ${String(y[i])}`);
  }
}

/** A problem of the common set, with everything the replicates need precomputed. */
interface Prepared {
  p: RewardProblem;
  n: number;
  c: number;
  /** pairs = c * (n - c) */
  pairs: number;
  /** Per scorer (in `names` order): wins + ties/2 of its pairs. */
  credit: Float64Array;
  /** Per scorer: its tied pairs. */
  ties: Float64Array;
  /** Per scorer, per N (in `ns` order): best-of-N; NaN where n < N. */
  bon: Float64Array[];
}

/**
 * Evaluates several reward models (scorers) on the same problems; see the module comment for the
 * figures and their sources.
 *
 * Common set: a problem is used when it has at least one graded sample and every scorer gives a
 * score (a number, -Infinity included) to every one of its graded samples; the others are counted in `leftOut` by reason (and per
 * scorer in `incompleteByScorer`), never padded. Every figure is over the common set, so the scorers are
 * compared on the same samples. Best-of-N and pass@N at N above a problem's n leave that problem out
 * at that N (`belowN`); `missing` counts every given problem outside the mean (issue 9's convention:
 * `problems + missing = total`). Within a stratum, `total` is the stratum's common-set problems.
 *
 * Correlations: per N, across scorers, Spearman's rho and Kendall's tau-b between pooled pairwise
 * accuracy and best-of-N. At N = 1 best-of-N is pass@1 for every scorer (no spread): both are null.
 * Interval: percentile bootstrap over problems (`replicates`, default 2000; `seed`, default 12345;
 * `level`, default 0.95): each replicate resamples the common problems with replacement, recomputes every
 * scorer's accuracy and best-of-N, then the correlations; replicates where a correlation is undefined
 * are dropped (`replicates` says how many remain).
 *
 * @throws RangeError on invalid bootstrap options or a NaN score (scores are checked before use).
 */
export function evaluateRewardModels(
  problems: readonly RewardProblem[],
  opts: RewardModelEvalOptions = {},
): RewardModelEval {
  const o = resolveBootstrapOptions(opts);
  const names = opts.scorers
    ? [...opts.scorers]
    : [...new Set(problems.flatMap((p) => [...p.scores.keys()]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const incompleteByScorer: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const leftOut = { noSamples: 0, noGradedSample: 0, incompleteScores: 0, partlyScored: 0 };
  const common: RewardProblem[] = [];
  for (const p of problems) {
    if (p.correct.length === 0) {
      if ((p.samples ?? 0) === 0) leftOut.noSamples++;
      else leftOut.noGradedSample++;
      continue;
    }
    let complete = true;
    for (const name of names) {
      const s = p.scores.get(name);
      const ok = !!s && s.length === p.correct.length && s.every(isScore);
      if (!ok) {
        incompleteByScorer[name]++;
        complete = false;
      }
    }
    if (complete) common.push(p);
    else {
      leftOut.incompleteScores++;
      // some score on some graded sample: partly scored, not unscored (trial 12 finding 20)
      if (names.some((name) => p.scores.get(name)?.some(isScore))) leftOut.partlyScored++;
    }
  }
  const maxN = common.reduce((a, p) => Math.max(a, p.correct.length), 0);
  const ns = maxN > 0 ? kGrid(maxN) : [];
  const probs = new Map<number, Float64Array[]>();
  const prepared = common.map((p) => prepare(p, names, ns, probs));
  const total = problems.length;
  const scorers = names.map((name, s) => scorerEval(name, s, prepared, ns, total));
  const correlations = correlationsWithIntervals(ns, scorers, prepared, o);

  const strata: StratumEval[] = [];
  const unmatched: Record<string, number> = {};
  for (const by of opts.strata ?? []) {
    const groups = new Map<string, Prepared[]>();
    let none = 0;
    for (const q of prepared) {
      const v = q.p.strata?.[by];
      if (v === null || v === undefined || v === '') {
        none++;
        continue;
      }
      let g = groups.get(v);
      if (!g) groups.set(v, (g = []));
      g.push(q);
    }
    unmatched[by] = none;
    const collator = new Intl.Collator('en', { numeric: true });
    for (const value of [...groups.keys()].sort(collator.compare)) {
      const g = groups.get(value)!;
      const ev = names.map((name, s) => scorerEval(name, s, g, ns, g.length));
      strata.push({
        by,
        value,
        problems: g.length,
        scorers: ev.map((e) => ({
          name: e.name,
          pairwiseAccuracy: e.pairwiseAccuracy,
          pairs: e.pairs,
          bestOfN: e.bestOfN,
        })),
        spearman: ns.map((n, j) => ({ n, value: correlate(ev, j, spearman) })),
      });
    }
  }
  return {
    total,
    problems: common.length,
    leftOut,
    incompleteByScorer,
    ns,
    scorers,
    correlations,
    strata,
    unmatched,
  };
}

function prepare(
  p: RewardProblem,
  names: readonly string[],
  ns: readonly number[],
  probs: Map<number, Float64Array[]>,
): Prepared {
  const n = p.correct.length;
  const c = p.correct.filter(Boolean).length;
  const credit = new Float64Array(names.length);
  const ties = new Float64Array(names.length);
  const bon = names.map(() => new Float64Array(ns.length));
  names.forEach((name, s) => {
    // one ranking of the samples by score gives the pairwise accuracy and every best-of-N
    const f = problemScorerFigures(p.scores.get(name) as readonly number[], p.correct, ns, probs);
    credit[s] = f.pairwise.wins + f.pairwise.ties / 2;
    ties[s] = f.pairwise.ties;
    f.bestOfK.forEach((v, j) => {
      bon[s][j] = v === null ? NaN : v;
    });
  });
  return { p, n, c, pairs: c * (n - c), credit, ties, bon };
}

/** One scorer's figures over `prepared`; `total` is the whole the per-N `missing` counts against. */
function scorerEval(
  name: string,
  s: number,
  prepared: readonly Prepared[],
  ns: readonly number[],
  total: number,
): ScorerEval {
  let credit = 0;
  let pairs = 0;
  let ties = 0;
  let macro = 0;
  let pairProblems = 0;
  for (const q of prepared) {
    if (q.pairs === 0) continue;
    credit += q.credit[s];
    pairs += q.pairs;
    macro += q.credit[s] / q.pairs;
    pairProblems++;
    ties += q.ties[s];
  }
  const bestOfN = ns.map((n, j): BestOfNPoint => {
    let sum = 0;
    let oracle = 0;
    let used = 0;
    for (const q of prepared) {
      const v = q.bon[s][j];
      if (Number.isNaN(v)) continue;
      sum += v;
      oracle += passAtK(q.n, q.c, n) ?? 0;
      used++;
    }
    const value = used ? sum / used : null;
    const passAtN = used ? oracle / used : null;
    return {
      n,
      value,
      passAtN,
      regret: value === null || passAtN === null ? null : passAtN - value,
      problems: used,
      missing: total - used,
      belowN: prepared.length - used,
    };
  });
  return {
    name,
    pairwiseAccuracy: pairs ? credit / pairs : null,
    pairwiseAccuracyMacro: pairProblems ? macro / pairProblems : null,
    pairs,
    ties,
    pairProblems,
    bestOfN,
  };
}

/** A correlation of accuracy and best-of-N at N index `j` across scorers with both defined; null otherwise. */
function correlate(
  ev: readonly ScorerEval[],
  j: number,
  f: (x: readonly number[], y: readonly number[]) => number | null,
): number | null {
  const x: number[] = [];
  const y: number[] = [];
  for (const e of ev) {
    const a = e.pairwiseAccuracy;
    const b = e.bestOfN[j]?.value;
    if (a === null || b === null || b === undefined) continue;
    x.push(a);
    y.push(b);
  }
  return x.length >= 2 ? f(x, y) : null;
}

/**
 * Correlations at every N with their bootstrap intervals. Each replicate draws one list of problems
 * (mulberry32 seeded with `o.seed`) and reuses it for every N, so the intervals of one run are coherent
 * and reproduce exactly.
 *
 * Cost per replicate: m uniform draws (one per problem drawn, the textbook stream, so the intervals do
 * not depend on how problems are grouped) and O(T x scorers x N grid) sums, T the distinct problems:
 * problems whose figures are equal for every scorer and N (same n, same pairs, same credit and best-of-N
 * per scorer) are interchangeable, and a group drawn k times adds k times its figures. The sums cannot
 * be made smaller than that: each scorer's replicate accuracy and best-of-N are sums over the problems
 * drawn of values that differ from problem to problem, with no statistic shared by the scorers.
 */
function correlationsWithIntervals(
  ns: readonly number[],
  scorers: readonly ScorerEval[],
  prepared: readonly Prepared[],
  o: ResolvedOptions,
): CorrelationPoint[] {
  const S = scorers.length;
  const J = ns.length;
  const m = prepared.length;
  const rhoReps = ns.map(() => new Float64Array(o.replicates));
  const tauReps = ns.map(() => new Float64Array(o.replicates));
  const filledRho = new Int32Array(J);
  const filledTau = new Int32Array(J);
  if (S >= 2 && m > 0) {
    const { groupOf, reps } = interchangeable(prepared);
    const T = reps.length;
    const drawn = new Int32Array(T);
    const rand = mulberry32(o.seed);
    const credit = new Float64Array(S);
    const bon = ns.map(() => new Float64Array(S));
    const used = new Int32Array(J);
    const x = new Array<number>(S);
    const y = new Array<number>(S);
    for (let r = 0; r < o.replicates; r++) {
      drawn.fill(0);
      for (let i = 0; i < m; i++) drawn[groupOf[Math.floor(rand() * m)]]++;
      credit.fill(0);
      for (const b of bon) b.fill(0);
      used.fill(0);
      let pairs = 0;
      for (let t = 0; t < T; t++) {
        const k = drawn[t];
        if (k === 0) continue;
        const q = reps[t];
        pairs += k * q.pairs;
        for (let s = 0; s < S; s++) credit[s] += k * q.credit[s];
        for (let j = 0; j < J; j++) {
          // eligibility depends on the problem's n only: the same for every scorer
          if (Number.isNaN(q.bon[0][j])) continue;
          used[j] += k;
          for (let s = 0; s < S; s++) bon[j][s] += k * q.bon[s][j];
        }
      }
      if (pairs === 0) continue;
      for (let s = 0; s < S; s++) x[s] = credit[s] / pairs;
      for (let j = 0; j < J; j++) {
        if (used[j] === 0) continue;
        for (let s = 0; s < S; s++) y[s] = bon[j][s] / used[j];
        const a = spearman(x, y);
        if (a !== null) rhoReps[j][filledRho[j]++] = a;
        const b = kendallTauB(x, y);
        if (b !== null) tauReps[j][filledTau[j]++] = b;
      }
    }
  }
  return ns.map((n, j) => {
    const ci = percentileInterval(rhoReps[j], filledRho[j], o.level);
    const kci = percentileInterval(tauReps[j], filledTau[j], o.level);
    return {
      n,
      scorers: S,
      spearman: correlate(scorers, j, spearman),
      kendall: correlate(scorers, j, kendallTauB),
      ciLow: ci.low,
      ciHigh: ci.high,
      kendallCiLow: kci.low,
      kendallCiHigh: kci.high,
      replicates: filledRho[j],
    };
  });
}

/**
 * Groups the problems whose figures are equal for every scorer and N (n, pairs, credit and best-of-N per
 * scorer): `groupOf[i]` is problem i's group, `reps[g]` one problem of group g (groups in order of first
 * appearance). O(m x scorers x N grid).
 */
function interchangeable(prepared: readonly Prepared[]): { groupOf: Int32Array; reps: Prepared[] } {
  const groupOf = new Int32Array(prepared.length);
  const reps: Prepared[] = [];
  const byKey = new Map<string, number>();
  prepared.forEach((q, i) => {
    const key = `${q.n}|${q.pairs}|${q.credit.join(',')}|${q.bon.map((b) => b.join(',')).join(';')}`;
    let g = byKey.get(key);
    if (g === undefined) {
      g = reps.length;
      byKey.set(key, g);
      reps.push(q);
    }
    groupOf[i] = g;
  });
  return { groupOf, reps };
}

/**
 * Reduces a process reward model's step scores to one number (see `StepRule` in model.ts): `min` the
 * smallest step (Lightman et al. 2023, "Let's Verify Step by Step", score a solution by its weakest
 * step; Wang et al. 2024, Math-Shepherd, do the same), `last` the last step, `product` the product of
 * the steps (the probability that every step is right, when each is a probability; also in Lightman et
 * al.). Steps are numbers, NaN excluded; `-Infinity` (the lowest score) makes `min` `-Infinity`, and
 * `product` follows IEEE arithmetic, so `0 × Infinity` gives NaN (the caller, mapping.ts `readScore`, then
 * has no score).
 * @throws RangeError on an empty list.
 */
export function reduceSteps(steps: readonly number[], rule: 'min' | 'last' | 'product'): number {
  if (steps.length === 0) throw new RangeError('no step scores to reduce');
  if (rule === 'last') return steps[steps.length - 1];
  if (rule === 'product') return steps.reduce((a, b) => a * b, 1);
  let m = steps[0];
  for (const x of steps) if (x < m) m = x;
  return m;
}
