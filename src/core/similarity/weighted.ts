/**
 * Text similarity that discounts boilerplate, and baselines on equal footing (docs/similarity.md
 * section 7).
 *
 * Shingles are the token 3-grams of section 2, hashed with token ids from ONE vocabulary for the
 * whole folder ({@link FolderShingles}), so that the same 3-gram has the same hash in every problem.
 *
 * - **IDF over problems.** `df(s)` = number of problems whose base samples (any of them) contain
 *   shingle s, out of P problems. Its weight is `w(s) = ln((P + 1) / (df(s) + 1))`: the smoothed
 *   inverse document frequency (Spärck Jones 1972, "A statistical interpretation of term specificity";
 *   the `+ 1` smoothing is scikit-learn's `smooth_idf`, without its extra `+ 1` so that a shingle in
 *   the base samples of EVERY problem, `<think> first , i need`, weighs exactly 0). A shingle in no
 *   base sample weighs `ln(P + 1)`, the most.
 * - **Weighted Jaccard** of two shingle sets: `Σ_{A∩B} w / Σ_{A∪B} w`; 1 when both sets are empty,
 *   0 when the union weighs 0 (they share only boilerplate, or nothing).
 * - **Containment** (Broder 1997): the share of the sample's shingles found in at least one
 *   candidate, `|{s ∈ A : s in some candidate}| / |A|`, and its weighted form (the same sums with w).
 *   A shorter sample that is a compressed subset of a base trace has containment near 1 while its
 *   Jaccard stays low. `null` for a sample without shingles (or whose shingles all weigh 0, weighted).
 * - **Equal footing.** In the base-vs-base baseline each base sample meets n - 1 candidates; a model
 *   sample meets all n base samples, which biases its nearest similarity up. Every model-vs-base
 *   figure here is therefore also given averaged over which base sample is left out (n - 1
 *   candidates): the nearest similarity becomes `((n - 1) · best + second) / n` (the best is lost
 *   only when it is the one left out), and a shingle that c base samples contain counts 1 in
 *   containment when c ≥ 2 and (n - 1)/n when c = 1. The model-vs-model baseline compares each model
 *   sample with the m - 1 other samples of its model (the same footing when m = n).
 *
 * Cost: exact similarity of every pair, O((n + m)² · shingles) per problem; callers cap n and m.
 */
import { lexForSimilarity } from './tokenize';
import { checkN, DEFAULT_NGRAM, jaccardSorted, positionalShingles, toSortedSet } from './shingles';

/** Shingle sets with hashes comparable across problems (one token vocabulary for the whole folder). */
export class FolderShingles {
  private readonly vocab = new Map<string, number>();
  readonly n: number;

  /** @param n shingle size (default 3; RangeError unless an integer >= 1). */
  constructor(n = DEFAULT_NGRAM) {
    checkN(n);
    this.n = n;
  }

  /** Sorted, duplicate-free shingle hashes of `text` (untrusted; a non-string reads as `''`). */
  set(text: string): Uint32Array {
    const ids: number[] = [];
    lexForSimilarity(text, (tok) => {
      let id = this.vocab.get(tok);
      if (id === undefined) {
        id = this.vocab.size;
        this.vocab.set(tok, id);
      }
      ids.push(id);
    });
    return toSortedSet(positionalShingles(ids, this.n));
  }
}

/** Inverse document frequency of shingles over problems (module comment). */
export interface ShingleIdf {
  /** P: problems whose base samples were counted. */
  problems: number;
  /** Problems whose base samples contain shingle `h` (0 when none). */
  df(h: number): number;
  /** `ln((P + 1) / (df + 1))`. */
  weight(h: number): number;
}

/**
 * Counts, for every shingle, how many problems' base samples contain it.
 *
 * @param baseSetsByProblem per problem, the shingle sets ({@link FolderShingles.set}) of its base samples.
 */
export function buildShingleIdf(baseSetsByProblem: readonly (readonly Uint32Array[])[]): ShingleIdf {
  const df = new Map<number, number>();
  for (const sets of baseSetsByProblem) {
    const seen = new Set<number>();
    for (const s of sets) for (let i = 0; i < s.length; i++) seen.add(s[i]);
    for (const h of seen) df.set(h, (df.get(h) ?? 0) + 1);
  }
  const P = baseSetsByProblem.length;
  return {
    problems: P,
    df: (h) => df.get(h) ?? 0,
    weight: (h) => Math.log((P + 1) / ((df.get(h) ?? 0) + 1)),
  };
}

/** A shingle set with the weight of each element. */
interface WeightedSet {
  set: Uint32Array;
  w: Float64Array;
  total: number;
}

function weighted(set: Uint32Array, idf: ShingleIdf): WeightedSet {
  const w = new Float64Array(set.length);
  let total = 0;
  for (let i = 0; i < set.length; i++) {
    w[i] = idf.weight(set[i]);
    total += w[i];
  }
  return { set, w, total };
}

/**
 * Weighted Jaccard of two sorted shingle sets: Σ_{A∩B} w / Σ_{A∪B} w (module comment).
 *
 * @returns in [0, 1]; 1 when both are empty; 0 when exactly one is, or the union weighs 0.
 */
export function weightedJaccard(a: Uint32Array, b: Uint32Array, idf: ShingleIdf): number {
  return weightedJaccardOf(weighted(a, idf), weighted(b, idf));
}

function weightedJaccardOf(a: WeightedSet, b: WeightedSet): number {
  if (a.set.length === 0 && b.set.length === 0) return 1;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.set.length && j < b.set.length) {
    const x = a.set[i];
    const y = b.set[j];
    if (x === y) {
      inter += a.w[i];
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  const union = a.total + b.total - inter;
  return union > 0 ? inter / union : 0;
}

/** The text measures of one sample against its candidates. */
export interface TextMatch {
  /** Candidates compared with. */
  candidates: number;
  /** Exact Jaccard with the nearest candidate; `null` without candidates. */
  jaccard: number | null;
  /** IDF-weighted Jaccard with the nearest candidate by that measure; `null` without candidates. */
  weightedJaccard: number | null;
  /** Share of the sample's shingles in some candidate; `null` without shingles or candidates. */
  containment: number | null;
  /** The same, weighted by IDF; `null` also when the sample's shingles all weigh 0. */
  weightedContainment: number | null;
}

/** A model sample against the base samples: all n, and averaged over which one is left out (n - 1). */
export interface ModelTextMatch extends TextMatch {
  /** The four measures with n - 1 candidates, averaged over which base sample is left out (`null` when n < 2). */
  leaveOneOut: Omit<TextMatch, 'candidates'>;
}

/** Result of {@link problemTextSimilarity}. */
export interface ProblemTextSimilarity {
  model: ModelTextMatch[];
  /** Each base sample against the n - 1 other base samples. */
  baseline: TextMatch[];
  /** Each model sample against the m - 1 other model samples. */
  modelBaseline: TextMatch[];
}

/**
 * Nearest value among `values` with each index left out in turn, averaged: ((n-1)·best + second)/n.
 * `null` when fewer than 2 values.
 */
function nearestLeaveOneOut(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  let best = -Infinity;
  let second = -Infinity;
  for (const v of values) {
    if (v > best) {
      second = best;
      best = v;
    } else if (v > second) second = v;
  }
  const n = values.length;
  return ((n - 1) * best + second) / n;
}

/** Containment of `a` in candidates whose shingle counts are `count` (`cover(c)` = credit of a shingle in c candidates). */
function containmentOf(a: WeightedSet, count: (h: number) => number, cover: (c: number) => number) {
  let hit = 0;
  let whit = 0;
  for (let i = 0; i < a.set.length; i++) {
    const credit = cover(count(a.set[i]));
    hit += credit;
    whit += credit * a.w[i];
  }
  return {
    containment: a.set.length > 0 ? hit / a.set.length : null,
    weightedContainment: a.total > 0 ? whit / a.total : null,
  };
}

function countsOf(sets: readonly WeightedSet[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const s of sets) for (let i = 0; i < s.set.length; i++) m.set(s.set[i], (m.get(s.set[i]) ?? 0) + 1);
  return m;
}

/** Sample `i` of `group` against the other samples of the same group (pairwise matrices precomputed). */
function againstOthers(
  i: number,
  group: readonly WeightedSet[],
  jac: readonly number[][],
  wjac: readonly number[][],
  counts: Map<number, number>,
): TextMatch {
  const n = group.length - 1;
  const others = (row: readonly number[]) => row.filter((_, j) => j !== i);
  const max = (xs: number[]) => (xs.length > 0 ? Math.max(...xs) : null);
  const c =
    n > 0
      ? containmentOf(
          group[i],
          (h) => (counts.get(h) ?? 0) - 1,
          (k) => (k > 0 ? 1 : 0),
        )
      : null;
  return {
    candidates: n,
    jaccard: max(others(jac[i])),
    weightedJaccard: max(others(wjac[i])),
    containment: c?.containment ?? null,
    weightedContainment: c?.weightedContainment ?? null,
  };
}

function matrices(group: readonly WeightedSet[]): { jac: number[][]; wjac: number[][] } {
  const g = group.length;
  const jac = Array.from({ length: g }, () => new Array<number>(g).fill(0));
  const wjac = Array.from({ length: g }, () => new Array<number>(g).fill(0));
  for (let a = 0; a < g; a++)
    for (let b = a + 1; b < g; b++) {
      jac[a][b] = jac[b][a] = jaccardSorted(group[a].set, group[b].set);
      wjac[a][b] = wjac[b][a] = weightedJaccardOf(group[a], group[b]);
    }
  return { jac, wjac };
}

/**
 * Jaccard, IDF-weighted Jaccard, containment and weighted containment of one problem's samples
 * (module comment), exact over every pair: model samples against all n base samples and on the
 * baseline's footing (n - 1, averaged over which is left out), base against the other base samples,
 * model against the other model samples.
 *
 * @param baseSets shingle sets of the problem's base samples ({@link FolderShingles.set}).
 * @param modelSets shingle sets of another model's samples of the problem (same FolderShingles).
 * @param idf IDF over the folder's problems ({@link buildShingleIdf}).
 */
export function problemTextSimilarity(
  baseSets: readonly Uint32Array[],
  modelSets: readonly Uint32Array[],
  idf: ShingleIdf,
): ProblemTextSimilarity {
  const base = baseSets.map((s) => weighted(s, idf));
  const model = modelSets.map((s) => weighted(s, idf));
  const n = base.length;
  const baseCounts = countsOf(base);
  const modelCounts = countsOf(model);
  const bm = matrices(base);
  const mm = matrices(model);
  const out: ModelTextMatch[] = model.map((m) => {
    const jac = base.map((b) => jaccardSorted(m.set, b.set));
    const wjac = base.map((b) => weightedJaccardOf(m, b));
    const count = (h: number) => baseCounts.get(h) ?? 0;
    const all = n > 0 ? containmentOf(m, count, (c) => (c > 0 ? 1 : 0)) : null;
    const loo = n > 1 ? containmentOf(m, count, (c) => (c >= 2 ? 1 : c === 1 ? (n - 1) / n : 0)) : null;
    return {
      candidates: n,
      jaccard: n > 0 ? Math.max(...jac) : null,
      weightedJaccard: n > 0 ? Math.max(...wjac) : null,
      containment: all?.containment ?? null,
      weightedContainment: all?.weightedContainment ?? null,
      leaveOneOut: {
        jaccard: nearestLeaveOneOut(jac),
        weightedJaccard: nearestLeaveOneOut(wjac),
        containment: loo?.containment ?? null,
        weightedContainment: loo?.weightedContainment ?? null,
      },
    };
  });
  return {
    model: out,
    baseline: base.map((_, i) => againstOthers(i, base, bm.jac, bm.wjac, baseCounts)),
    modelBaseline: model.map((_, i) => againstOthers(i, model, mm.jac, mm.wjac, modelCounts)),
  };
}
