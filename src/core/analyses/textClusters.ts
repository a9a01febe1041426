/**
 * Content clusters of problem texts (issue 35): TF-IDF vectors of the problem texts, clustered by
 * spherical k-means (cosine similarity) in the original TF-IDF space (not in a 2-D map: distances in a
 * t-SNE map are not semantic distances), each cluster named by its top terms and three example problems.
 * Deterministic: the documents are sorted by key before anything else, the vocabulary is sorted, and the
 * k-means++ seeding draws from a seeded stream (mulberry32), so the same texts give the same clusters
 * whatever order the files were read in. No model download. Pure: no index, no `vscode`.
 *
 * Sources: Salton & Buckley 1988 (TF-IDF weighting); Dhillon & Modha 2001 (spherical k-means);
 * Arthur & Vassilvitskii 2007 (k-means++ seeding).
 */

import { mulberry32 } from '../metrics/bootstrap';

/** One document: a stable key (the problem key) and its text. */
export interface ClusterDoc {
  key: string;
  text: string;
}

/** Clustering options (every default is stated in the report). */
export interface ClusterOptions {
  /** Number of clusters (integer >= 1); default {@link defaultClusterCount}. Capped at the number of documents with terms. */
  k?: number;
  /** Seed of the k-means++ seeding stream; default 1. */
  seed?: number;
  /** k-means restarts (best total similarity kept); default 4. */
  restarts?: number;
  /** Iteration cap per restart; default 50. */
  maxIterations?: number;
  /** Top terms naming a cluster; default 5. */
  topTerms?: number;
}

/** A cluster: its 1-based number (clusters numbered by size, largest first), terms, examples and members. */
export interface TextCluster {
  id: number;
  /** Highest-weighted terms of the cluster's centroid (TF-IDF), highest first. */
  terms: string[];
  /** Keys of the three members most similar to the centroid (highest cosine first). */
  examples: string[];
  /** Member keys, sorted. */
  members: string[];
}

/** The clustering with its stated parameters. */
export interface TextClustering {
  clusters: TextCluster[];
  /** Keys of documents without any vocabulary term (empty text, only numbers or stop words): in no cluster. */
  noTerms: string[];
  k: number;
  seed: number;
  restarts: number;
  /** Terms kept: those in at least two documents (every term when there are fewer than 3 documents). */
  vocabulary: number;
  /** How the vectors and clusters were made, in words. */
  method: string;
}

/** Default number of clusters: round(sqrt(documents / 2)), between 2 and 12 (Mardia et al. 1979's rule of thumb). */
export function defaultClusterCount(documents: number): number {
  return Math.max(2, Math.min(12, Math.round(Math.sqrt(documents / 2))));
}

const STOP_WORDS = new Set(
  `a an and are as at be by can do does for from has have how if in into is it its many much of on or so
  than that the their then there these this to was were what when where which who will with would you your
  we our us he she they them his her him i me my let find given what's each all also any more most other
  some such only same one two three four five six seven eight nine ten number value total`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/**
 * The terms of a text: lower-case runs of letters (any script) and marks, two or more characters, not a stop
 * word; numbers and LaTeX commands' backslashes are dropped (numbers name no topic: `48` in one problem and
 * `72` in another say nothing about their content).
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/\\?[\p{L}\p{M}]+/gu)) {
    const w = m[0];
    if (w.startsWith('\\') || w.length < 2 || STOP_WORDS.has(w)) continue;
    out.push(w);
  }
  return out;
}

interface SparseVec {
  idx: Int32Array;
  val: Float64Array;
}

/** L2-normalised TF-IDF vectors (tf = 1 + log count, idf = log((1 + N) / (1 + df)) + 1) over the kept vocabulary. */
function tfidf(docs: readonly ClusterDoc[]): { vocab: string[]; vecs: (SparseVec | null)[] } {
  const tokenized = docs.map((d) => {
    const counts = new Map<string, number>();
    for (const t of terms(d.text)) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  });
  const df = new Map<string, number>();
  for (const c of tokenized) for (const t of c.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const minDf = docs.length >= 3 ? 2 : 1;
  const vocab = [...df.entries()]
    .filter(([, n]) => n >= minDf)
    .map(([t]) => t)
    .sort();
  const col = new Map(vocab.map((t, i) => [t, i]));
  const N = docs.length;
  const vecs = tokenized.map((counts) => {
    const entries: [number, number][] = [];
    for (const [t, n] of counts) {
      const j = col.get(t);
      if (j === undefined) continue;
      entries.push([j, (1 + Math.log(n)) * (Math.log((1 + N) / (1 + (df.get(t) as number))) + 1)]);
    }
    if (entries.length === 0) return null;
    entries.sort((a, b) => a[0] - b[0]);
    const norm = Math.sqrt(entries.reduce((a, e) => a + e[1] * e[1], 0));
    return { idx: Int32Array.from(entries, (e) => e[0]), val: Float64Array.from(entries, (e) => e[1] / norm) };
  });
  return { vocab, vecs };
}

function dot(v: SparseVec, c: Float64Array): number {
  let s = 0;
  for (let j = 0; j < v.idx.length; j++) s += v.val[j] * c[v.idx[j]];
  return s;
}

/** Centroids as normalised sums of their members (empty clusters keep a zero centroid). */
function centroids(vecs: readonly SparseVec[], assign: Int32Array, k: number, dim: number): Float64Array[] {
  const cs = Array.from({ length: k }, () => new Float64Array(dim));
  vecs.forEach((v, i) => {
    const c = cs[assign[i]];
    for (let j = 0; j < v.idx.length; j++) c[v.idx[j]] += v.val[j];
  });
  for (const c of cs) {
    let n = 0;
    for (let j = 0; j < dim; j++) n += c[j] * c[j];
    n = Math.sqrt(n);
    if (n > 0) for (let j = 0; j < dim; j++) c[j] /= n;
  }
  return cs;
}

/** One spherical k-means run from k-means++ seeds: the assignment and its total cosine similarity. */
function kmeansRun(
  vecs: readonly SparseVec[],
  k: number,
  dim: number,
  rand: () => number,
  maxIterations: number,
): { assign: Int32Array; score: number } {
  const m = vecs.length;
  const dense = (v: SparseVec) => {
    const c = new Float64Array(dim);
    for (let j = 0; j < v.idx.length; j++) c[v.idx[j]] = v.val[j];
    return c;
  };
  // k-means++ on the cosine distance 1 - cos
  let cs: Float64Array[] = [dense(vecs[Math.floor(rand() * m)])];
  const dist = new Float64Array(m).fill(Infinity);
  while (cs.length < k) {
    const last = cs[cs.length - 1];
    let total = 0;
    for (let i = 0; i < m; i++) {
      const d = Math.max(0, 1 - dot(vecs[i], last));
      if (d < dist[i]) dist[i] = d;
      total += dist[i] * dist[i];
    }
    let pick = 0;
    if (total > 0) {
      let u = rand() * total;
      for (pick = 0; pick < m - 1; pick++) {
        u -= dist[pick] * dist[pick];
        if (u < 0) break;
      }
    } else pick = Math.floor(rand() * m);
    cs.push(dense(vecs[pick]));
  }
  const assign = new Int32Array(m).fill(-1);
  let score = 0;
  for (let it = 0; it < maxIterations; it++) {
    let changed = false;
    score = 0;
    for (let i = 0; i < m; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < k; c++) {
        const s = dot(vecs[i], cs[c]);
        if (s > bestSim + 1e-12) {
          bestSim = s;
          best = c;
        }
      }
      score += bestSim;
      if (assign[i] !== best) {
        assign[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
    cs = centroids(vecs, assign, k, dim);
  }
  return { assign, score };
}

/**
 * Clusters problem texts (see the module comment). Documents are sorted by key first (so the input order
 * does not matter; equal keys keep their first text). Each restart r seeds its own stream with
 * `seed + r`; the run with the highest total cosine similarity to its centroids wins (ties: the earliest).
 * Clusters are numbered by size (largest first; ties by their smallest member key); empty clusters are
 * dropped, so fewer than k may come back.
 * @throws RangeError on k < 1 or a non-integer k, restarts or iteration cap.
 */
export function clusterTexts(docs: readonly ClusterDoc[], opts: ClusterOptions = {}): TextClustering {
  const sortedDocs = [...new Map([...docs].reverse().map((d) => [d.key, d])).values()].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  const seed = opts.seed ?? 1;
  const restarts = opts.restarts ?? 4;
  const maxIterations = opts.maxIterations ?? 50;
  const topTerms = opts.topTerms ?? 5;
  for (const [name, v] of [
    ['restarts', restarts],
    ['maxIterations', maxIterations],
  ] as const)
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${String(v)}`);
  const { vocab, vecs } = tfidf(sortedDocs);
  const keyed = sortedDocs.map((d, i) => ({ key: d.key, vec: vecs[i] }));
  const withTerms = keyed.filter((d): d is { key: string; vec: SparseVec } => d.vec !== null);
  const noTerms = keyed.filter((d) => d.vec === null).map((d) => d.key);
  const requested = opts.k ?? defaultClusterCount(withTerms.length);
  if (!Number.isInteger(requested) || requested < 1)
    throw new RangeError(`k must be an integer >= 1, got ${String(requested)}`);
  const k = Math.min(requested, withTerms.length);
  const method = `TF-IDF (1 + log tf, smooth idf, L2-normalised) over the problem texts' words (lower case, numbers and stop words left out, words in at least 2 problems), spherical k-means (cosine) with k = ${k}, k-means++ seeding, seed ${seed}, best of ${restarts} restarts, at most ${maxIterations} iterations each`;
  const base = { noTerms, k, seed, restarts, vocabulary: vocab.length, method };
  if (k === 0) return { ...base, clusters: [] };
  const vs = withTerms.map((d) => d.vec);
  let best: { assign: Int32Array; score: number } | null = null;
  for (let r = 0; r < restarts; r++) {
    const run = kmeansRun(vs, k, vocab.length, mulberry32(seed + r), maxIterations);
    if (!best || run.score > best.score + 1e-9) best = run;
  }
  const assign = (best as { assign: Int32Array }).assign;
  const cs = centroids(vs, assign, k, vocab.length);
  const raw = cs.map((c, ci) => {
    const members = withTerms.map((d, i) => ({ d, i })).filter((x) => assign[x.i] === ci);
    const ranked = members
      .map((x) => ({ key: x.d.key, sim: dot(x.d.vec, c) }))
      .sort((a, b) => b.sim - a.sim || (a.key < b.key ? -1 : 1));
    const order = Array.from(c, (w, j) => ({ w, j }))
      .filter((x) => x.w > 0)
      .sort((a, b) => b.w - a.w || a.j - b.j)
      .slice(0, topTerms);
    return {
      terms: order.map((x) => vocab[x.j]),
      examples: ranked.slice(0, 3).map((x) => x.key),
      members: members.map((x) => x.d.key),
    };
  });
  const clusters = raw
    .filter((c) => c.members.length > 0)
    .sort((a, b) => b.members.length - a.members.length || (a.members[0] < b.members[0] ? -1 : 1))
    .map((c, i) => ({ id: i + 1, ...c }));
  return { ...base, clusters };
}
