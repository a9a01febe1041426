/**
 * "Does this RL sample appear among the base model's samples?" — nearest base samples, novel
 * spans and the per-problem similarity distribution, for the samples of ONE problem.
 *
 * Measure (docs/similarity.md): texts are tokenised and normalised (`tokenize.ts`), cut into token
 * n-gram shingles (n = 3 by default) hashed to 32 bits (`shingles.ts`). The similarity of two
 * samples is the exact Jaccard index of their shingle sets. To avoid an exact Jaccard for every
 * (model sample, base sample) pair, each sample gets a MinHash signature (K = 128 by default,
 * seeded); an inverted index over signature values counts, for a query, how many positions each
 * base sample agrees on, the `shortlist` (default 16) base samples with the most agreements are
 * re-scored with exact Jaccard, and the best `topK` of those are returned. When the base has at
 * most `shortlist` samples every base sample is scored exactly, so the answer is exact. Otherwise
 * the true nearest can be missed when its MinHash estimate falls below the cut, which happens when
 * many base samples are near-ties; the reported similarity can then only be LOWER than the exact
 * nearest similarity (measured: median 0.137 vs exact 0.144 on the 1024 x 1024 benchmark with
 * near-ties everywhere; base-to-base median unchanged). Pass `shortlist: baseTexts.length` for an
 * exact (slower) search.

 * Novelty (same index): a model token is *covered* when some token n-gram of the model sample that
 * contains it is also an n-gram of at least one base sample; uncovered tokens are *novel*.
 * noveltyScore = novel tokens / tokens (0 = every token sits in an n-gram the base model also
 * wrote; 1 = no n-gram of the sample occurs in any base sample).
 *
 * Base-to-base baseline (leave-one-out): the same two numbers for each base sample against the
 * OTHER base samples, so a model sample can be placed inside or outside the base model's own spread.
 */

import { type LexedText, lexText } from './tokenize';
import { isStopwordRun } from './stopwords';
import {
  DEFAULT_NGRAM,
  DEFAULT_NUM_HASHES,
  DEFAULT_SEED,
  MinHashFamily,
  checkN,
  jaccardSorted,
  makeMinHashFamily,
  minHashInto,
  positionalShingles,
  positionalShinglesInto,
  shingleCount,
  toSortedSet,
  toSortedSetInto,
  U32CountTable,
} from './shingles';
import { tokenDiff, wordDiff, DiffSegment, WordDiffOptions } from './diff';

/** Options of the similarity measure. */
export interface SimilarityOptions {
  /** Shingle size in tokens (default 3). */
  n?: number;
  /** MinHash signature length K (default 128). */
  numHashes?: number;
  /** MinHash seed (default 0x5eed1e55). Same seed, same texts -> same results. */
  seed?: number;
  /** How many MinHash candidates get an exact Jaccard per query (default 16, at least topK). */
  shortlist?: number;
}

/** One nearest base sample. */
export interface Neighbor {
  /** Index into the base texts array. */
  baseIndex: number;
  /** Exact Jaccard similarity of the token n-gram sets, in [0, 1]. */
  similarity: number;
}

/** A piece of the original model text, novel or not. */
export interface NovelSpan {
  /** Start offset in the original text (UTF-16 code units, inclusive). */
  start: number;
  /** End offset (exclusive). */
  end: number;
  /** True when the span is a run of novel tokens (see the module comment). */
  novel: boolean;
}

/** Novelty of one text against the base samples. */
export interface NoveltyResult {
  /** Contiguous, non-overlapping spans covering [0, text.length) in order; `[]` for `''`. */
  spans: NovelSpan[];
  /** Novel tokens / tokens, in [0, 1]; 0 for a text without tokens. */
  noveltyScore: number;
  tokenCount: number;
  novelTokenCount: number;
}

/** A prepared text: tokens, shingles and signature. */
interface Prepared {
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
  /** Positional shingle hashes. */
  shingles: Uint32Array;
  /** Sorted set of shingle hashes. */
  set: Uint32Array;
  sig: Uint32Array;
}

interface ResolvedOptions {
  n: number;
  numHashes: number;
  seed: number;
  shortlist: number;
}

/** Scratch of `prepare`: the token ids of one text (read only while its shingles are hashed). */
let idsScratch = new Int32Array(4096);
/**
 * Scratch of `prepare` for a query (a text that is not kept: model samples, `nearest`, `novelty`): its
 * positional shingles, shingle set and signature, read only until the query returns (no allocation per query).
 */
let queryShingles = new Uint32Array(4096);
let querySet = new Uint32Array(4096);
let querySig = new Uint32Array(DEFAULT_NUM_HASHES);
/** Scratch of `noveltyPrepared`: which tokens of the text are covered (read only until it returns). */
let coveredScratch = new Uint8Array(4096);

/** Largest base size of one index (base indices are packed with signature values in a float64). */
const MAX_BASE = 2 ** 21;

function resolveOptions(opts: SimilarityOptions | undefined): ResolvedOptions {
  const n = opts?.n ?? DEFAULT_NGRAM;
  checkN(n);
  const numHashes = opts?.numHashes ?? DEFAULT_NUM_HASHES;
  const seed = opts?.seed ?? DEFAULT_SEED;
  const shortlist = opts?.shortlist ?? 16;
  if (!Number.isInteger(shortlist) || shortlist < 1) {
    throw new RangeError(`shortlist must be an integer >= 1, got ${shortlist}`);
  }
  return { n, numHashes, seed, shortlist };
}

function checkTopK(topK: number): void {
  if (!Number.isInteger(topK) || topK < 1) throw new RangeError(`topK must be an integer >= 1, got ${topK}`);
}

/**
 * The base samples of one problem, prepared once for many queries: vocabulary, shingle sets,
 * MinHash signatures and, per shingle, how many base samples contain it.
 */
export class BaseIndex {
  /** The options in force (defaults filled in). */
  readonly options: Readonly<ResolvedOptions>;
  private readonly family: MinHashFamily;
  private readonly vocab = new Map<string, number>();
  /**
   * The vocabulary by the lexer's token ids (`LexedText.ids`) of epoch `idsEpoch`: 0 = not looked up yet,
   * v + 1 = vocabulary id v, -1 = not in the vocabulary (set only once the index is built). A cache of `vocab`
   * (what decides), so a token costs an array read instead of a `Map` lookup of its string.
   */
  private vocabById = new Int32Array(0);
  private idsEpoch = -1;
  private readonly docs: Prepared[] = [];
  /**
   * Inverted MinHash index: for hash function k, the base samples' signature values sorted
   * ascending in `invValues[k*B .. (k+1)*B)` and the matching base indices in `invDocs`.
   */
  private readonly invValues: Uint32Array;
  private readonly invDocs: Int32Array;
  /** Shingle hash -> number of base samples containing it. */
  private readonly docFreq: U32CountTable;
  /** Scratch: MinHash agreement count per base sample (reused by every query). */
  private readonly agree: Int32Array;
  /** Scratch: how many base samples have each agreement count 0..K (reused by every query). */
  private readonly hist: Int32Array;
  /**
   * Per hash function k, the longest run of equal values in `invValues` (the signature value most base samples
   * share, common when the samples are alike): its start (absolute index) and length, used only when it holds
   * more than half of the base samples (else length 0).
   */
  private readonly modeStart: Int32Array;
  private readonly modeLen: Int32Array;
  /** For the first index of each run of equal values in `invValues`, the index after the run (others: unused). */
  private readonly runEnd: Int32Array;

  /**
   * @param baseTexts base-model sample texts of one problem (untrusted; non-strings read as `''`).
   *   At most 2^21 samples (RangeError beyond).
   * @param opts measure options (RangeError on invalid values).
   * @param lexed the base texts' tokens when the caller already has them (`lexText` of each text, same
   *   order), so they are not lexed again; the index is the same.
   */
  constructor(baseTexts: readonly string[], opts?: SimilarityOptions, lexed?: readonly LexedText[]) {
    this.options = resolveOptions(opts);
    this.family = makeMinHashFamily(this.options.numHashes, this.options.seed);
    const K = this.options.numHashes;
    const B = baseTexts.length;
    if (B > MAX_BASE) throw new RangeError(`at most ${MAX_BASE} base samples per index, got ${B}`);
    const sigs = new Uint32Array(B * K);
    let totalShingles = 0;
    for (let i = 0; i < B; i++) {
      const p = this.prepare(lexed?.[i] ?? lexText(baseTexts[i]), true, sigs, i * K);
      this.docs.push(p);
      totalShingles += p.set.length;
    }
    this.docFreq = new U32CountTable(totalShingles);
    for (const p of this.docs) {
      const set = p.set;
      for (let j = 0; j < set.length; j++) this.docFreq.increment(set[j]);
    }
    // Inverted index: sort (value, doc) pairs per hash function, packed exactly in a float64.
    this.invValues = new Uint32Array(B * K);
    this.invDocs = new Int32Array(B * K);
    const packed = new Float64Array(B);
    for (let k = 0; k < K; k++) {
      for (let b = 0; b < B; b++) packed[b] = sigs[b * K + k] * MAX_BASE + b;
      packed.sort();
      for (let r = 0; r < B; r++) {
        const x = packed[r];
        const b = x % MAX_BASE;
        this.invDocs[k * B + r] = b;
        this.invValues[k * B + r] = (x - b) / MAX_BASE;
      }
    }
    this.agree = new Int32Array(B);
    this.hist = new Int32Array(K + 1);
    this.modeStart = new Int32Array(K);
    this.modeLen = new Int32Array(K);
    this.runEnd = new Int32Array(B * K);
    for (let k = 0; k < K; k++) {
      const vals = this.invValues;
      let bestStart = 0;
      let bestLen = 0;
      for (let r = k * B; r < (k + 1) * B; ) {
        let e = r + 1;
        while (e < (k + 1) * B && vals[e] === vals[r]) e++;
        this.runEnd[r] = e;
        if (e - r > bestLen) {
          bestLen = e - r;
          bestStart = r;
        }
        r = e;
      }
      if (bestLen * 2 > B) {
        this.modeStart[k] = bestStart;
        this.modeLen[k] = bestLen;
      }
    }
  }

  /** Number of base samples. */
  get size(): number {
    return this.docs.length;
  }

  /**
   * Tokenise, hash and sign one text. Base texts extend the vocabulary; queries use a local
   * overflow vocabulary so the index is never modified by a query. A query's shingles, set and signature
   * are the module's scratch buffers: valid until the next query (the caller reads them before returning).
   */
  private prepare(lx: LexedText, extendVocab: boolean, sigOut?: Uint32Array, sigOffset = 0): Prepared {
    const vocab = this.vocab;
    const toks = lx.toks;
    if (idsScratch.length < toks.length) idsScratch = new Int32Array(toks.length * 2);
    const ids = idsScratch.subarray(0, toks.length);
    let local: Map<string, number> | undefined;
    const tokIds = lx.ids;
    const byId = tokIds !== undefined && lx.epoch !== undefined && lx.epoch >= 0 && tokIds.length === toks.length;
    if (byId && lx.epoch !== this.idsEpoch) {
      this.idsEpoch = lx.epoch as number;
      this.vocabById = new Int32Array(1024);
    }
    let cache = this.vocabById;
    for (let t = 0; t < toks.length; t++) {
      const tok = toks[t];
      let id: number | undefined;
      let g = -1;
      if (byId) {
        g = (tokIds as Int32Array)[t];
        if (g >= cache.length) {
          const grown = new Int32Array(Math.max(g + 1, cache.length * 2));
          grown.set(cache);
          cache = grown;
          this.vocabById = grown;
        }
        const c = cache[g];
        if (c > 0) {
          ids[t] = c - 1;
          continue;
        }
        if (c === 0) {
          id = vocab.get(tok);
          if (id !== undefined) cache[g] = id + 1;
          else if (!extendVocab) cache[g] = -1;
        }
      } else {
        id = vocab.get(tok);
      }
      if (id === undefined) {
        if (extendVocab) {
          id = vocab.size;
          vocab.set(tok, id);
          if (g >= 0) cache[g] = id + 1;
        } else {
          local ??= new Map();
          id = local.get(tok);
          if (id === undefined) {
            id = vocab.size + local.size;
            local.set(tok, id);
          }
        }
      }
      ids[t] = id;
    }
    const starts = lx.starts;
    const ends = lx.ends;
    const n = this.options.n;
    const K = this.options.numHashes;
    if (!extendVocab) {
      // a query: shingles, set and signature in the module's scratch (nothing of it is kept)
      const count = shingleCount(ids.length, n);
      if (queryShingles.length < count) {
        queryShingles = new Uint32Array(count * 2);
        querySet = new Uint32Array(count * 2);
      }
      if (querySig.length < K) querySig = new Uint32Array(K);
      const shingles = queryShingles.subarray(0, count);
      positionalShinglesInto(ids, n, shingles);
      const set = toSortedSetInto(shingles, querySet);
      const sig = querySig.subarray(0, K);
      minHashInto(set, this.family, sig, 0);
      return { starts, ends, shingles, set, sig };
    }
    const shingles = positionalShingles(ids, n);
    const set = toSortedSet(shingles);
    const sig = sigOut ?? new Uint32Array(K);
    minHashInto(set, this.family, sig, sigOut ? sigOffset : 0);
    return {
      starts,
      ends,
      shingles,
      set,
      sig: sigOut ? sig.subarray(sigOffset, sigOffset + K) : sig,
    };
  }

  /** The `topK` nearest base samples of a prepared query, excluding base sample `exclude`. */
  private nearestPrepared(q: Prepared, topK: number, exclude: number): Neighbor[] {
    const B = this.docs.length;
    const K = this.options.numHashes;
    const C = Math.max(topK, this.options.shortlist);
    const candidates: number[] = [];
    if (B - (exclude >= 0 ? 1 : 0) <= C) {
      for (let b = 0; b < B; b++) if (b !== exclude) candidates.push(b);
    } else {
      // MinHash agreement counts through the inverted index.
      const agree = this.agree;
      agree.fill(0);
      const vals = this.invValues;
      const docs = this.invDocs;
      const runEnd = this.runEnd;
      const sig = q.sig;
      // agreements with a run that holds most base samples are counted as +1 for every sample and -1 for the
      // samples outside the run (fewer): the same counts, in fewer steps when the samples are alike
      let all = 0;
      for (let k = 0; k < K; k++) {
        const v = sig[k];
        let lo = k * B;
        let hi = lo + B;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (vals[mid] < v) lo = mid + 1;
          else hi = mid;
        }
        const end = (k + 1) * B;
        if (lo === this.modeStart[k] && this.modeLen[k] > 0 && vals[lo] === v) {
          all++;
          for (let r = k * B; r < lo; r++) agree[docs[r]]--;
          for (let r = lo + this.modeLen[k]; r < end; r++) agree[docs[r]]--;
        } else if (lo < end && vals[lo] === v) {
          // lo is the first of its run (a lower bound): its end is kept, no value compared per sample
          const e = runEnd[lo];
          for (let r = lo; r < e; r++) agree[docs[r]]++;
        }
      }
      if (all > 0) for (let b = 0; b < B; b++) agree[b] += all;
      if (exclude >= 0) agree[exclude] = -1;
      // Keep the C best counts; ties at the cut go to lower base indices.
      const hist = this.hist;
      hist.fill(0);
      for (let b = 0; b < B; b++) if (agree[b] >= 0) hist[agree[b]]++;
      let cut = K;
      let above = 0; // samples with count > cut
      while (cut > 0 && above + hist[cut] < C) {
        above += hist[cut];
        cut--;
      }
      let atCut = C - above;
      for (let b = 0; b < B; b++) {
        const a = agree[b];
        if (a > cut) candidates.push(b);
        else if (a === cut && atCut > 0) {
          candidates.push(b);
          atCut--;
        }
      }
    }
    const scored: Neighbor[] = candidates.map((b) => ({
      baseIndex: b,
      similarity: jaccardSorted(q.set, this.docs[b].set),
    }));
    scored.sort((x, y) => y.similarity - x.similarity || x.baseIndex - y.baseIndex);
    return scored.slice(0, topK);
  }

  /**
   * The `topK` base samples most similar to `text`, best first (ties: lower base index first).
   *
   * @param text a model sample of the same problem (untrusted).
   * @param topK integer >= 1 (default 3; RangeError otherwise). Fewer are returned when the base
   *   has fewer samples; `[]` for an empty base.
   * @returns neighbours with their exact Jaccard similarity (see the module comment for the
   *   MinHash shortlist and when it is exact).
   */
  nearest(text: string, topK = 3): Neighbor[] {
    checkTopK(topK);
    return this.nearestPrepared(this.prepare(lexText(text), false), topK, -1);
  }

  /**
   * Leave-one-out: the `topK` base samples most similar to base sample `i`, excluding `i` itself.
   *
   * @param i base index in [0, size) (RangeError otherwise).
   */
  nearestOtherBase(i: number, topK = 1): Neighbor[] {
    checkTopK(topK);
    this.checkBaseIndex(i);
    return this.nearestPrepared(this.docs[i], topK, i);
  }

  /** Exact Jaccard similarity of `text` with base sample `i` (same measure as `nearest`). */
  similarityTo(text: string, i: number): number {
    this.checkBaseIndex(i);
    return jaccardSorted(this.prepare(lexText(text), false).set, this.docs[i].set);
  }

  /**
   * Nearest base samples and novelty of one model sample, tokenising and hashing it once
   * (what {@link problemSimilarity} uses; same results as `nearest` + `novelty`).
   *
   * @param lexed `lexText(text)` when the caller already has it (same result).
   * @param spans false: `novelty.spans` is `[]` (the caller needs only the score and counts, which are the same;
   *   the similarity job: building 1024 texts' spans it drops was ~5% of its work).
   */
  query(text: string, topK = 3, lexed?: LexedText, spans = true): { nearest: Neighbor[]; novelty: NoveltyResult } {
    checkTopK(topK);
    const q = this.prepare(lexed ?? lexText(text), false);
    return {
      nearest: this.nearestPrepared(q, topK, -1),
      novelty: this.noveltyPrepared(q, typeof text === 'string' ? text : '', 1, spans),
    };
  }

  /**
   * Novel spans and novelty score of `text` against all base samples (module comment).
   *
   * @param text a model sample of the same problem (untrusted).
   */
  novelty(text: string): NoveltyResult {
    const q = this.prepare(lexText(text), false);
    return this.noveltyPrepared(q, typeof text === 'string' ? text : '', 1);
  }

  /**
   * Leave-one-out novelty of base sample `i` against the other base samples (`spans` false: `spans` is `[]`,
   * the score and counts the same).
   */
  noveltyOfBase(i: number, baseText: string, spans = true): NoveltyResult {
    this.checkBaseIndex(i);
    return this.noveltyPrepared(this.docs[i], typeof baseText === 'string' ? baseText : '', 2, spans);
  }

  /**
   * Novelty where a shingle counts as "in the base" when at least `minDocs` base samples hold it; `withSpans`
   * false leaves the spans out (`[]`).
   */
  private noveltyPrepared(q: Prepared, text: string, minDocs: number, withSpans = true): NoveltyResult {
    const T = q.starts.length;
    if (coveredScratch.length < T) coveredScratch = new Uint8Array(T * 2);
    const covered = coveredScratch.subarray(0, T);
    covered.fill(0);
    const n = this.options.n;
    const sh = q.shingles;
    if (T > 0 && T < n) {
      if (this.docFreq.get(sh[0]) >= minDocs) covered.fill(1);
    } else {
      let coverEnd = 0; // tokens [.., coverEnd) are covered by some window seen so far
      for (let j = 0; j < sh.length; j++) {
        if (this.docFreq.get(sh[j]) >= minDocs) {
          for (let t = Math.max(j, coverEnd); t < j + n; t++) covered[t] = 1;
          coverEnd = j + n;
        }
      }
    }
    let novelCount = 0;
    for (let t = 0; t < T; t++) if (!covered[t]) novelCount++;
    return {
      spans: withSpans ? buildSpans(q.starts, q.ends, covered, text) : [],
      noveltyScore: T === 0 ? 0 : novelCount / T,
      tokenCount: T,
      novelTokenCount: novelCount,
    };
  }

  /**
   * Diff between `text` and its nearest base sample (old = base sample, new = `text`; `added`
   * segments are in the model sample only), computed by the `diff` package:
   * `mode: 'tokens'` (default) = {@link tokenDiff}, normalised tokens with offsets;
   * `mode: 'words'` = {@link wordDiff}, jsdiff's `diffWords` on the raw texts.
   *
   * @param baseTexts the same base texts the index was built from (the index keeps no text;
   *   RangeError when the count differs).
   * @returns `null` for an empty base or when the diff gave up (timeout).
   */
  diffWithNearest(
    text: string,
    baseTexts: readonly string[],
    opts?: WordDiffOptions & { mode?: 'tokens' | 'words' },
  ): { baseIndex: number; similarity: number; segments: DiffSegment[] } | null {
    if (baseTexts.length !== this.docs.length) {
      throw new RangeError(`baseTexts has ${baseTexts.length} texts but the index holds ${this.docs.length}`);
    }
    const best = this.nearest(text, 1)[0];
    if (!best) return null;
    const baseText = baseTexts[best.baseIndex];
    const segments =
      (opts?.mode ?? 'tokens') === 'tokens' ? tokenDiff(baseText, text, opts) : wordDiff(baseText, text, opts);
    return segments ? { baseIndex: best.baseIndex, similarity: best.similarity, segments } : null;
  }

  private checkBaseIndex(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.docs.length) {
      throw new RangeError(`base index ${i} out of range [0, ${this.docs.length})`);
    }
  }
}

/**
 * Marks as covered, for the spans only, each run of consecutive novel tokens made only of stopwords and
 * punctuation (stopwords.ts `isStopwordRun`): a lone "the" or "his" is not new reasoning. The token text is
 * read from `text` at its offsets, lower-cased (the tokenizer's own normalisation of words). The novelty
 * score and counts are computed before this and do not change. O(tokens).
 */
function coverStopwordRuns(starts: ArrayLike<number>, ends: ArrayLike<number>, covered: Uint8Array, text: string) {
  const T = starts.length;
  for (let t = 0; t < T; ) {
    if (covered[t]) {
      t++;
      continue;
    }
    let e = t;
    const words: string[] = [];
    for (; e < T && !covered[e]; e++)
      words.push(
        text
          .slice(starts[e], ends[e])
          .toLowerCase()
          .replace(/\u2019/g, "'"),
      );
    if (isStopwordRun(words)) covered.fill(1, t, e);
    t = e;
  }
}

/**
 * Partition [0, text.length) into spans. Each token is novel or not; the gap between two novel
 * tokens belongs to the novel run, every other gap (text edges, between covered tokens, between a
 * covered and a novel token) is not novel. A run of novel tokens made only of stopwords and punctuation
 * is not novel ({@link coverStopwordRuns}). Adjacent spans of equal status are merged.
 */
function buildSpans(
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  covered: Uint8Array,
  text: string,
): NovelSpan[] {
  coverStopwordRuns(starts, ends, covered, text);
  const spans: NovelSpan[] = [];
  const push = (start: number, end: number, novel: boolean): void => {
    if (end <= start) return;
    const last = spans[spans.length - 1];
    if (last && last.novel === novel && last.end === start) last.end = end;
    else spans.push({ start, end, novel });
  };
  let pos = 0;
  for (let t = 0; t < starts.length; t++) {
    const novel = covered[t] === 0;
    const prevNovel = t > 0 && covered[t - 1] === 0;
    push(pos, starts[t], novel && prevNovel);
    push(starts[t], ends[t], novel);
    pos = ends[t];
  }
  push(pos, text.length, false);
  return spans;
}

/**
 * Builds the base index of one problem once, for many queries (`index.nearest(text, topK)`,
 * `index.novelty(text)`).
 *
 * @param baseTexts base-model sample texts of one problem.
 * @param opts measure options; see {@link SimilarityOptions}.
 */
export function buildBaseIndex(
  baseTexts: readonly string[],
  opts?: SimilarityOptions,
  lexed?: readonly LexedText[],
): BaseIndex {
  return new BaseIndex(baseTexts, opts, lexed);
}

/**
 * The `topK` base samples nearest to one model sample (builds a throw-away index: use
 * {@link buildBaseIndex} for many queries).
 *
 * @returns best first, exact Jaccard similarity; `[]` for an empty base.
 */
export function nearestBaseSamples(
  modelText: string,
  baseTexts: readonly string[],
  opts?: SimilarityOptions & { topK?: number },
): Neighbor[] {
  return buildBaseIndex(baseTexts, opts).nearest(modelText, opts?.topK ?? 3);
}

/**
 * Novel spans of one model sample against the base samples: contiguous, non-overlapping spans of
 * the ORIGINAL text covering [0, modelText.length), each marked novel or not (module comment).
 */
export function novelSpans(modelText: string, baseTexts: readonly string[], opts?: { n?: number }): NovelSpan[] {
  return buildBaseIndex(baseTexts, { n: opts?.n, numHashes: 1 }).novelty(modelText).spans;
}

/** Fraction of the model sample's tokens that are novel against the base samples, in [0, 1]. */
export function noveltyScore(modelText: string, baseTexts: readonly string[], opts?: { n?: number }): number {
  return buildBaseIndex(baseTexts, { n: opts?.n, numHashes: 1 }).novelty(modelText).noveltyScore;
}

/** Five-number summary plus mean; quantiles by linear interpolation (Hyndman & Fan type 7, numpy's default). */
export interface DistributionSummary {
  count: number;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
  mean: number | null;
}

/**
 * Summary of a list of numbers (non-finite values are ignored). All fields but `count` are `null`
 * for an empty list.
 */
export function summarize(values: readonly number[]): DistributionSummary {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const m = v.length;
  if (m === 0) return { count: 0, min: null, q1: null, median: null, q3: null, max: null, mean: null };
  const q = (p: number): number => {
    const h = (m - 1) * p;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, m - 1);
    return v[lo] + (h - lo) * (v[hi] - v[lo]);
  };
  let sum = 0;
  for (const x of v) sum += x;
  return { count: m, min: v[0], q1: q(0.25), median: q(0.5), q3: q(0.75), max: v[m - 1], mean: sum / m };
}

/** One model sample in {@link problemSimilarity}. */
export interface ModelSampleSimilarity {
  /** Index into the model texts. */
  sampleIndex: number;
  /** Nearest base samples, best first (length <= topK; `[]` when there is no base sample). */
  nearest: Neighbor[];
  /** Similarity to the nearest base sample; `null` when there is no base sample. */
  similarity: number | null;
  /** Novelty score against all base samples (1 for a non-empty text when there is no base sample). */
  novelty: number;
  tokenCount: number;
  /**
   * Fraction of base samples whose leave-one-out nearest similarity is <= this sample's
   * similarity (empirical CDF of the baseline at this value). Near 0: farther from the base
   * samples than base samples are from each other. `null` without a baseline.
   */
  baselinePercentile: number | null;
}

/** One base sample in the leave-one-out baseline. */
export interface BaseSampleBaseline {
  baseIndex: number;
  /** Nearest OTHER base sample; `null` when the base has one sample. */
  nearestOther: Neighbor | null;
  /** Its similarity; `null` when the base has one sample. */
  similarity: number | null;
  /** Novelty against the other base samples (1 for a non-empty text when it is the only one). */
  novelty: number;
  tokenCount: number;
}

/** Result of {@link problemSimilarity}. */
export interface ProblemSimilarity {
  options: Readonly<ResolvedOptions> & { topK: number };
  model: ModelSampleSimilarity[];
  baseline: BaseSampleBaseline[];
  summary: {
    modelSimilarity: DistributionSummary;
    modelNovelty: DistributionSummary;
    baselineSimilarity: DistributionSummary;
    baselineNovelty: DistributionSummary;
  };
}

/**
 * Per-problem distribution: for each model sample its nearest base similarity and novelty, and
 * the base-to-base leave-one-out baseline (each base sample against the other base samples), with
 * summaries. Read a model sample as "inside the base distribution" when its similarity is within
 * the baseline's range (baselinePercentile well above 0) and "new" when it is below nearly all of it.
 *
 * @param baseTexts base-model samples of one problem.
 * @param modelTexts another model's samples of the same problem.
 * @param opts measure options and `topK` (neighbours kept per model sample, default 1).
 * @param lexed the texts' tokens when the caller already has them (`lexText` of each text, same order):
 *   they are not lexed again; `prepared`, the base's {@link prepareBase} when the caller kept it
 *   from an earlier call with the same base texts and options (RangeError when its size or options
 *   differ); and `queries`, `prepared.index.query(modelTexts[j], topK, lexed.model[j])` (spans or not) of each model text
 *   when the caller already ran them (RangeError when their number differs). The result is the same.
 */
export function problemSimilarity(
  baseTexts: readonly string[],
  modelTexts: readonly string[],
  opts?: SimilarityOptions & { topK?: number },
  lexed?: {
    base?: readonly LexedText[];
    model?: readonly LexedText[];
    prepared?: PreparedBase;
    queries?: readonly ReturnType<BaseIndex['query']>[];
  },
): ProblemSimilarity {
  const topK = opts?.topK ?? 1;
  checkTopK(topK);
  const { index, baseline, baseSims } = lexed?.prepared ?? prepareBase(baseTexts, opts, lexed?.base);
  const resolved = resolveOptions(opts);
  if (
    index.size !== baseTexts.length ||
    (Object.keys(resolved) as (keyof ResolvedOptions)[]).some((k) => index.options[k] !== resolved[k])
  ) {
    throw new RangeError('the prepared base was built from other base texts or options');
  }
  const queries = lexed?.queries;
  if (queries && queries.length !== modelTexts.length) throw new RangeError('one query per model text');
  const model: ModelSampleSimilarity[] = [];
  for (let j = 0; j < modelTexts.length; j++) {
    const text = modelTexts[j];
    const { nearest, novelty: nov } = queries ? queries[j] : index.query(text, topK, lexed?.model?.[j], false);
    const similarity = nearest.length > 0 ? nearest[0].similarity : null;
    model.push({
      sampleIndex: j,
      nearest,
      similarity,
      novelty: nov.noveltyScore,
      tokenCount: nov.tokenCount,
      baselinePercentile:
        similarity === null || baseSims.length === 0 ? null : countLE(baseSims, similarity) / baseSims.length,
    });
  }
  return {
    options: { ...index.options, topK },
    model,
    baseline: baseline.slice(),
    summary: {
      modelSimilarity: summarize(model.flatMap((m) => (m.similarity === null ? [] : [m.similarity]))),
      modelNovelty: summarize(model.map((m) => m.novelty)),
      baselineSimilarity: summarize(baseSims),
      baselineNovelty: summarize(baseline.map((b) => b.novelty)),
    },
  };
}

/**
 * The model-independent half of {@link problemSimilarity}: the base index and the leave-one-out
 * baseline of one problem's base samples. It depends only on the base texts and the measure's
 * options, so a caller comparing several models with the same base may build it once and pass it
 * to `problemSimilarity` (which checks that its size and options match).
 */
export interface PreparedBase {
  index: BaseIndex;
  /** Per base sample, in base order (treat as read-only). */
  baseline: readonly BaseSampleBaseline[];
  /** The baseline's similarities (non-null), ascending. */
  baseSims: readonly number[];
}

/**
 * Builds the {@link PreparedBase} of one problem.
 *
 * @param baseTexts base-model samples of one problem.
 * @param opts measure options (the same as later passed to `problemSimilarity`).
 * @param lexed `lexText` of each base text when the caller has them (same result).
 */
export function prepareBase(
  baseTexts: readonly string[],
  opts?: SimilarityOptions,
  lexed?: readonly LexedText[],
): PreparedBase {
  return baselineOf(buildBaseIndex(baseTexts, opts, lexed), baseTexts);
}

/**
 * The second half of {@link prepareBase}: the leave-one-out baseline of a base index already built from
 * `baseTexts` (same texts, same order; RangeError when their number differs), for a caller that needs
 * the index before the baseline (the problem view's sample list comes before it). Same result as
 * `prepareBase(baseTexts, index.options)`.
 */
export function baselineOf(index: BaseIndex, baseTexts: readonly string[]): PreparedBase {
  if (index.size !== baseTexts.length) throw new RangeError('the base index was built from other base texts');
  const baseline: BaseSampleBaseline[] = [];
  for (let i = 0; i < index.size; i++) {
    const nb = index.size > 1 ? index.nearestOtherBase(i, 1)[0] : null;
    const nov = index.noveltyOfBase(i, baseTexts[i], false);
    baseline.push({
      baseIndex: i,
      nearestOther: nb,
      similarity: nb ? nb.similarity : null,
      novelty: nov.noveltyScore,
      tokenCount: nov.tokenCount,
    });
  }
  const baseSims = baseline
    .map((b) => b.similarity)
    .filter((s): s is number => s !== null)
    .sort((a, b) => a - b);
  return { index, baseline, baseSims };
}

/** Number of elements of the ascending array `sorted` that are <= x (binary search). */
function countLE(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Exact Jaccard similarity of the token n-gram sets of two texts (the score `nearest` reports).
 *
 * @returns in [0, 1]; 1 when both texts have no tokens, 0 when exactly one has none.
 */
export function textJaccard(a: string, b: string, opts?: { n?: number }): number {
  return buildBaseIndex([a], { n: opts?.n, numHashes: 1 }).similarityTo(b, 0);
}

/**
 * Word-level diff of a model sample against its nearest base sample (see
 * {@link BaseIndex.diffWithNearest}); `null` for an empty base or a diff that timed out.
 */
export function diffWithNearestBase(
  modelText: string,
  baseTexts: readonly string[],
  opts?: SimilarityOptions & WordDiffOptions & { mode?: 'tokens' | 'words' },
): { baseIndex: number; similarity: number; segments: DiffSegment[] } | null {
  return buildBaseIndex(baseTexts, opts).diffWithNearest(modelText, baseTexts, opts);
}
