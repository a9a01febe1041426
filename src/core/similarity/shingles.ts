/**
 * Token n-gram shingles, exact Jaccard similarity and MinHash signatures.
 *
 * - A text's shingle set is the set of its token n-grams (tokens from `tokenize.ts`, n = 3 by
 *   default). A text with fewer than n tokens (but at least one) has one shingle: its whole token
 *   sequence. An empty text has the empty set.
 * - Shingles are hashed to 32 bits: FNV-1a (32-bit; Fowler, Noll, Vo) over the little-endian bytes of
 *   the shingle length and of each token id, then the MurmurHash3 `fmix32` finaliser (Appleby) to
 *   spread the bits. Token ids come from a vocabulary (token string -> integer) shared by all the
 *   texts being compared, so hashes are comparable only within one vocabulary. Two different
 *   shingles collide with probability ~2^-32 per pair; at the sizes of one problem (<= ~10^6
 *   distinct shingles) a handful of collisions can shift a Jaccard value by ~10^-5 at most.
 * - Exact Jaccard J(A, B) = |A ∩ B| / |A ∪ B| (Jaccard 1901; Broder 1997 "On the resemblance and
 *   containment of documents" for shingling). Policy: J(∅, ∅) = 1 (both texts normalise to nothing,
 *   so they are identical); J(∅, B) = 0 for non-empty B.
 * - MinHash (Broder 1997): signature[k] = min over shingles x of h_k(x), with
 *   h_k(x) = fmix32((a_k * x + b_k) mod 2^32), a_k odd, (a_k, b_k) drawn from a splitmix32 stream
 *   seeded by `seed` (so signatures are deterministic). Each h_k is a bijection of 32-bit integers
 *   (the fmix32 finaliser on top of the linear map avoids the weak min-wise behaviour of plain
 *   multiply-add hashing). The estimate of J is the fraction of positions where two signatures
 *   agree; over random seeds it is unbiased with standard error sqrt(J(1-J)/K). For one fixed seed
 *   the errors of different pairs are correlated: when a shingle shared by nearly all texts (e.g.
 *   `<think> first ,`) holds the minimum of some h_k, every pair agrees there, so estimates of
 *   unrelated texts can sit ~1/K above J. Ranking the candidates of one query is not affected
 *   (the offset is the same for all of them), and final scores are exact anyway. An empty set has
 *   the all-0xFFFFFFFF signature (two empty texts estimate 1, matching the exact policy).
 */

/** Default shingle size (tokens per n-gram). */
export const DEFAULT_NGRAM = 3;
/** Default number of MinHash functions (signature length): 128 (see docs/similarity.md for the measured trade-off). */
export const DEFAULT_NUM_HASHES = 128;
/** Default MinHash seed. */
export const DEFAULT_SEED = 0x5eed1e55;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** MurmurHash3's 32-bit finaliser: a bijection on 32-bit integers with full avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function fnvInt(h: number, v: number): number {
  h = Math.imul(h ^ (v & 0xff), FNV_PRIME);
  h = Math.imul(h ^ ((v >>> 8) & 0xff), FNV_PRIME);
  h = Math.imul(h ^ ((v >>> 16) & 0xff), FNV_PRIME);
  h = Math.imul(h ^ (v >>> 24), FNV_PRIME);
  return h;
}

/**
 * Hash of the shingle `ids[from .. from+len-1]`: FNV-1a over (len, ids...) then fmix32.
 *
 * @param ids token ids (non-negative 32-bit integers).
 */
export function hashShingle(ids: ArrayLike<number>, from: number, len: number): number {
  let h = fnvInt(FNV_OFFSET, len);
  for (let i = 0; i < len; i++) h = fnvInt(h, ids[from + i]);
  return fmix32(h);
}

/**
 * Positional shingle hashes of a token-id sequence: element i is the hash of the n-gram starting at
 * token i, so the result has `max(ids.length - n + 1, 0)` elements; a non-empty sequence shorter
 * than n gives one hash (the whole sequence).
 *
 * @param ids token ids of one text.
 * @param n shingle size (integer >= 1; throws RangeError otherwise).
 */
export function positionalShingles(ids: ArrayLike<number>, n: number): Uint32Array {
  checkN(n);
  const out = new Uint32Array(shingleCount(ids.length, n));
  positionalShinglesInto(ids, n, out);
  return out;
}

/** How many positional shingles a sequence of `len` tokens has ({@link positionalShingles}). */
export function shingleCount(len: number, n: number): number {
  return len === 0 ? 0 : len < n ? 1 : len - n + 1;
}

/**
 * {@link positionalShingles} written into `out[0 .. shingleCount(ids.length, n))` (`out` at least that long; a
 * caller reusing one buffer for many texts allocates nothing). Same hashes: the FNV state after the length,
 * the same for every shingle of size n, is computed once.
 */
export function positionalShinglesInto(ids: ArrayLike<number>, n: number, out: Uint32Array): void {
  checkN(n);
  const len = ids.length;
  if (len === 0) return;
  if (len < n) {
    out[0] = hashShingle(ids, 0, len);
    return;
  }
  const h0 = fnvInt(FNV_OFFSET, n);
  const count = len - n + 1;
  for (let i = 0; i < count; i++) {
    let h = h0;
    for (let k = 0; k < n; k++) h = fnvInt(h, ids[i + k]);
    out[i] = fmix32(h);
  }
}

/** Throws RangeError unless n is an integer >= 1. */
export function checkN(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`shingle size n must be an integer >= 1, got ${n}`);
}

/** Scratch of {@link sortU32}: the other buffer of the radix sort and the digit counts. */
let radixScratch = new Uint32Array(1024);
const radixCounts = new Int32Array(4 * 256);

/**
 * Sorts a Uint32Array ascending in place (what `TypedArray.prototype.sort()` does, faster for the ~10^3
 * shingle hashes of a text): least-significant-digit radix sort, four passes of 8 bits (counts of all four
 * digits taken in one pass); a pass where every element has the same digit is skipped.
 */
export function sortU32<A extends Uint32Array>(a: A): A {
  const n = a.length;
  if (n < 64) return a.sort();
  if (radixScratch.length < n) radixScratch = new Uint32Array(n);
  const counts = radixCounts;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const v = a[i];
    counts[v & 0xff]++;
    counts[256 + ((v >>> 8) & 0xff)]++;
    counts[512 + ((v >>> 16) & 0xff)]++;
    counts[768 + (v >>> 24)]++;
  }
  let src: Uint32Array = a;
  let dst: Uint32Array = radixScratch;
  for (let pass = 0; pass < 4; pass++) {
    const base = pass * 256;
    const shift = pass * 8;
    // skip a pass whose digit is the same for every element (the order is unchanged by it)
    if (counts[base + ((src[0] >>> shift) & 0xff)] === n) continue;
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const c = counts[base + d];
      counts[base + d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const v = src[i];
      dst[counts[base + ((v >>> shift) & 0xff)]++] = v;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== a) a.set(src.subarray(0, n));
  return a;
}

/** Sorted, duplicate-free copy of `hashes` (the shingle set as a typed array). */
export function toSortedSet(hashes: Uint32Array): Uint32Array {
  if (hashes.length === 0) return new Uint32Array(0);
  const s = sortU32(hashes.slice());
  const w = dedupeSorted(s);
  return w === s.length ? s : s.slice(0, w);
}

/**
 * {@link toSortedSet} written into `out` (at least `hashes.length` long; reused by a caller that keeps no set):
 * the set is the returned view of `out`'s first elements.
 */
export function toSortedSetInto(hashes: Uint32Array, out: Uint32Array): Uint32Array {
  const s = out.subarray(0, hashes.length);
  s.set(hashes);
  if (s.length === 0) return s;
  sortU32(s);
  return s.subarray(0, dedupeSorted(s));
}

/** Removes repeats from a sorted non-empty array in place; returns how many distinct values are at its start. */
function dedupeSorted(s: Uint32Array): number {
  let w = 1;
  for (let r = 1; r < s.length; r++) if (s[r] !== s[w - 1]) s[w++] = s[r];
  return w;
}

/**
 * Exact Jaccard similarity of two shingle sets given as sorted duplicate-free Uint32Arrays
 * (from {@link toSortedSet}). Linear merge, O(|a| + |b|).
 *
 * @returns |a ∩ b| / |a ∪ b| in [0, 1]; 1 when both are empty, 0 when exactly one is.
 */
export function jaccardSorted(a: Uint32Array, b: Uint32Array): number {
  const na = a.length;
  const nb = b.length;
  if (na === 0 && nb === 0) return 1;
  if (na === 0 || nb === 0) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  // without branches (the comparisons of two near-random hash streams are unpredictable): ~25% faster
  while (i < na && j < nb) {
    const x = a[i];
    const y = b[j];
    inter += +(x === y);
    i += +(x <= y);
    j += +(y <= x);
  }
  return inter / (na + nb - inter);
}

/** splitmix32: a small deterministic PRNG stream (returns unsigned 32-bit integers). */
export function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
}

/** The parameters (a_k odd, b_k) of K MinHash functions h_k(x) = fmix32(a_k x + b_k mod 2^32). */
export interface MinHashFamily {
  numHashes: number;
  seed: number;
  a: Uint32Array;
  b: Uint32Array;
}

/**
 * Draws K MinHash functions from `seed`.
 *
 * @param numHashes K, integer in [1, 4096] (RangeError otherwise).
 * @param seed any number; used as an unsigned 32-bit integer.
 */
export function makeMinHashFamily(numHashes: number = DEFAULT_NUM_HASHES, seed: number = DEFAULT_SEED): MinHashFamily {
  if (!Number.isInteger(numHashes) || numHashes < 1 || numHashes > 4096) {
    throw new RangeError(`numHashes must be an integer in [1, 4096], got ${numHashes}`);
  }
  const rnd = splitmix32(seed);
  const a = new Uint32Array(numHashes);
  const b = new Uint32Array(numHashes);
  for (let k = 0; k < numHashes; k++) {
    a[k] = (rnd() | 1) >>> 0;
    b[k] = rnd();
  }
  return { numHashes, seed: seed >>> 0, a, b };
}

/**
 * Writes the MinHash signature of one shingle set into `out[offset .. offset+K-1]`.
 *
 * @param shingles shingle hashes (duplicates allowed; pass the sorted set to save work).
 */
export function minHashInto(shingles: Uint32Array, fam: MinHashFamily, out: Uint32Array, offset: number): void {
  const K = fam.numHashes;
  const a = fam.a;
  const b = fam.b;
  const n = shingles.length;
  let k = 0;
  // h_k(x) = fmix32(a_k * x + b_k mod 2^32) (inlined by the JIT); four hash functions per pass over the shingles:
  // four independent chains of multiplications the CPU overlaps (~25% faster than one at a time)
  for (; k + 4 <= K; k += 4) {
    const a0 = a[k];
    const a1 = a[k + 1];
    const a2 = a[k + 2];
    const a3 = a[k + 3];
    const b0 = b[k];
    const b1 = b[k + 1];
    const b2 = b[k + 2];
    const b3 = b[k + 3];
    let m0 = 0xffffffff;
    let m1 = 0xffffffff;
    let m2 = 0xffffffff;
    let m3 = 0xffffffff;
    for (let i = 0; i < n; i++) {
      const x = shingles[i];
      const h0 = fmix32((Math.imul(a0, x) + b0) | 0);
      if (h0 < m0) m0 = h0;
      const h1 = fmix32((Math.imul(a1, x) + b1) | 0);
      if (h1 < m1) m1 = h1;
      const h2 = fmix32((Math.imul(a2, x) + b2) | 0);
      if (h2 < m2) m2 = h2;
      const h3 = fmix32((Math.imul(a3, x) + b3) | 0);
      if (h3 < m3) m3 = h3;
    }
    out[offset + k] = m0;
    out[offset + k + 1] = m1;
    out[offset + k + 2] = m2;
    out[offset + k + 3] = m3;
  }
  for (; k < K; k++) {
    const ak = a[k];
    const bk = b[k];
    let min = 0xffffffff;
    for (let i = 0; i < n; i++) {
      const h = fmix32((Math.imul(ak, shingles[i]) + bk) | 0);
      if (h < min) min = h;
    }
    out[offset + k] = min;
  }
}

/** The MinHash signature (length K) of one shingle set. */
export function minHashSignature(shingles: Uint32Array, fam: MinHashFamily): Uint32Array {
  const out = new Uint32Array(fam.numHashes);
  minHashInto(shingles, fam, out, 0);
  return out;
}

/**
 * MinHash estimate of Jaccard: fraction of agreeing positions of two signatures of equal length.
 * Throws RangeError when the lengths differ or are 0.
 */
export function estimateJaccard(sigA: Uint32Array, sigB: Uint32Array): number {
  if (sigA.length !== sigB.length || sigA.length === 0) {
    throw new RangeError(`signatures must have the same non-zero length (${sigA.length} vs ${sigB.length})`);
  }
  let eq = 0;
  for (let k = 0; k < sigA.length; k++) if (sigA[k] === sigB[k]) eq++;
  return eq / sigA.length;
}

/**
 * Open-addressing hash table from 32-bit unsigned keys to non-negative integer counts (Fibonacci
 * hashing on the high bits, linear probing, power-of-two capacity, load factor <= 1/2). Faster and leaner than a `Map` for the
 * hundreds of thousands of shingle hashes of one problem.
 */
export class U32CountTable {
  private keys: Uint32Array;
  private counts: Uint32Array; // 0 = empty slot (stored counts are >= 1)
  private shift: number;
  private used = 0;

  constructor(expected = 1024) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.keys = new Uint32Array(cap);
    this.counts = new Uint32Array(cap);
    this.shift = 32 - Math.log2(cap);
  }

  /** Number of distinct keys. */
  get size(): number {
    return this.used;
  }

  /** The count of `key` (0 when absent). */
  get(key: number): number {
    const keys = this.keys;
    const counts = this.counts;
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const c = counts[slot];
      if (c === 0) return 0;
      if (keys[slot] === key) return c;
      slot = (slot + 1) & mask;
    }
  }

  /** Adds 1 to the count of `key`. */
  increment(key: number): void {
    if ((this.used + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    const counts = this.counts;
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const c = counts[slot];
      if (c === 0) {
        keys[slot] = key;
        counts[slot] = 1;
        this.used++;
        return;
      }
      if (keys[slot] === key) {
        counts[slot] = c + 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    const cap = oldKeys.length * 2;
    this.keys = new Uint32Array(cap);
    this.counts = new Uint32Array(cap);
    this.shift = 32 - Math.log2(cap);
    const keys = this.keys;
    const counts = this.counts;
    const mask = cap - 1;
    for (let s = 0; s < oldKeys.length; s++) {
      const c = oldCounts[s];
      if (c === 0) continue;
      const key = oldKeys[s];
      let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
      while (counts[slot] !== 0) slot = (slot + 1) & mask;
      keys[slot] = key;
      counts[slot] = c;
    }
  }
}
