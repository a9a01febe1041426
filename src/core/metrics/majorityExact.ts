/**
 * The exact expected credit of majority voting over a uniformly random k-subset of a problem's n samples,
 * computed from the answer groups' counts alone (maj@k of `./majority`). No enumeration of subsets or of
 * count vectors, and no Monte Carlo: the cost depends on the group sizes and k, not on C(n, k).
 *
 * Notation: groups g with sizes s_g and credits c_g in [0, 1] (the credit of a win), `nullCount` samples
 * without an answer (never win), n = Σ s_g + nullCount. A k-subset gives counts x_g (multivariate
 * hypergeometric); the winners are the groups with the largest count M >= 1, W of them, each credited
 * c_g / W (a uniform random tie-break); a subset of only unanswered samples scores 0. By linearity,
 *
 *   E[credit] = Σ_g c_g · P(g wins),   P(g wins) = Σ_{m>=1} P(x_g = m) · E[1{x_h <= m ∀h≠g} / (1 + T_m)]
 *
 * where T_m counts the other groups with exactly m. Given x_g = m, the other counts are a uniform
 * K = k - m subset of the N = n - s_g other samples. Three identities make that expectation cheap:
 *
 * 1. Binomial embedding: if X_h ~ Binomial(size_h, p) independently (the unanswered samples and every
 *    group of size < m, which can neither exceed nor tie m, merged into one Binomial(U, p)), then
 *    conditioning on Σ X_h = K gives exactly the hypergeometric counts, for any p in (0, 1); p = k/n
 *    keeps every number a probability (no overflow at any n).
 * 2. Ties: 1/(1 + T) = ∫_0^1 u^T du. The weight u^T factors over the groups, so each group of size >= m
 *    contributes the polynomial Σ_{v<m} b(v) z^v + u · b(m) z^m (b: its binomial pmf) and the expectation
 *    is ∫_0^1 [z^K] (q + p z)^U Π_h (...) du / P(Binomial(N, p) = K). [z^K] of a polynomial of degree
 *    D < L is read off its values at the L-th roots of unity (a discrete Fourier transform; a shorter L
 *    when the degrees that would alias onto K carry less than 1e-18 / (n + 1), by Bernstein's inequality),
 *    and in u it is a polynomial of degree <= T_max = min(#groups of size >= m, floor(K/m)), which
 *    Gauss-Legendre quadrature with floor(T_max/2) + 1 nodes integrates exactly. At m = 1 z and u go
 *    together and one convolution replaces both.
 * 3. Groups of the same size are interchangeable: their factors are one complex power (by squaring) per
 *    root of unity, and the win chance is computed once per distinct size among the groups with credit.
 *
 * Values of m with P(x_g = m) · Π P(x_h <= m) below 1e-18 are skipped (the counts of a simple random sample are
 * negatively associated, Joag-Dev & Proschan 1983, so that product bounds the term), so the result is exact
 * up to floating-point rounding and at most k · 1e-18 of skipped or aliased mass.
 */

/** Terms below this bound (a probability) are skipped; see the module doc. */
const NEGLIGIBLE = 1e-18;

/** ln(i!) for i = 0.. at least n; one table grown on demand, shared by every call. */
let lnFactTable = new Float64Array([0, 0]);
function lnFactorials(n: number): Float64Array {
  if (lnFactTable.length <= n) {
    const t = new Float64Array(Math.max(n + 1, 2 * lnFactTable.length));
    t.set(lnFactTable);
    for (let i = lnFactTable.length; i < t.length; i++) t[i] = t[i - 1] + Math.log(i);
    lnFactTable = t;
  }
  return lnFactTable;
}

const gaussLegendreCache = new Map<number, { x: Float64Array; w: Float64Array }>();

/**
 * Gauss-Legendre nodes and weights on [0, 1] (exact for polynomials of degree <= 2q - 1): the roots of the
 * Legendre polynomial P_q by Newton's method from the usual starting guesses (Press et al., Numerical
 * Recipes, `gauleg`), mapped from [-1, 1]. Cached per q.
 */
export function gaussLegendre01(q: number): { x: Float64Array; w: Float64Array } {
  const hit = gaussLegendreCache.get(q);
  if (hit) return hit;
  const x = new Float64Array(q);
  const w = new Float64Array(q);
  for (let i = 0; i < (q + 1) >> 1; i++) {
    let z = Math.cos((Math.PI * (i + 0.75)) / (q + 0.5));
    let dp = 0;
    for (let iter = 0; iter < 100; iter++) {
      let p1 = 1;
      let p2 = 0;
      for (let j = 1; j <= q; j++) {
        const p3 = p2;
        p2 = p1;
        p1 = ((2 * j - 1) * z * p2 - (j - 1) * p3) / j;
      }
      dp = (q * (z * p1 - p2)) / (z * z - 1);
      const z1 = z;
      z = z1 - p1 / dp;
      if (Math.abs(z - z1) <= 1e-15) break;
    }
    x[i] = (1 - z) / 2;
    x[q - 1 - i] = (1 + z) / 2;
    w[i] = w[q - 1 - i] = 1 / ((1 - z * z) * dp * dp);
  }
  const out = { x, w };
  gaussLegendreCache.set(q, out);
  return out;
}

/** Groups of one size: `count` interchangeable groups of `size` samples. */
interface SizeClass {
  size: number;
  count: number;
}

/**
 * Expected credit of majority voting over a uniformly random k-subset (see the module doc for the
 * formula and its sources).
 * @param sizes samples per answer group (each >= 1).
 * @param credits credit of each group when it wins, in [0, 1] (aligned with `sizes`).
 * @param nullCount samples without an answer.
 * @param k subset size, 1 <= k <= n = Σ sizes + nullCount.
 * @returns the expected credit in [0, 1].
 */
export function expectedMajorityCredit(
  sizes: readonly number[],
  credits: readonly number[],
  nullCount: number,
  k: number,
): number {
  let n = nullCount;
  for (const s of sizes) n += s;
  if (k >= n) return allSamplesVote(sizes, credits);
  const count = new Map<number, number>();
  const credit = new Map<number, number>();
  sizes.forEach((s, g) => {
    count.set(s, (count.get(s) ?? 0) + 1);
    if (credits[g] > 0) credit.set(s, (credit.get(s) ?? 0) + credits[g]);
  });
  if (credit.size === 0) return 0;
  const classes: SizeClass[] = [...count].map(([size, c]) => ({ size, count: c })).sort((a, b) => b.size - a.size);
  let total = 0;
  for (const [s, c] of credit) total += c * winChance(classes, s, nullCount, n, k);
  return Math.min(1, Math.max(0, total));
}

/** k = n: every sample is drawn; the largest groups win, splitting the credit. */
function allSamplesVote(sizes: readonly number[], credits: readonly number[]): number {
  let top = 0;
  for (const s of sizes) if (s > top) top = s;
  if (top === 0) return 0;
  let winners = 0;
  let good = 0;
  sizes.forEach((s, g) => {
    if (s === top) {
      winners++;
      good += credits[g];
    }
  });
  return good / winners;
}

/**
 * P(a given group of size `s` wins), its ties split: Σ_m P(x = m) · E[1{others <= m} / (1 + ties)].
 * `classes`: every group by size, largest first (the group itself included; one of its size is taken out).
 */
function winChance(classes: readonly SizeClass[], s: number, nullCount: number, n: number, k: number): number {
  const lf = lnFactorials(n);
  const lnC = (a: number, b: number) => lf[a] - lf[b] - lf[a - b];
  const N = n - s;
  const lnTotal = lnC(n, k);
  const others = classes
    .map((c) => ({ size: c.size, count: c.count - (c.size === s ? 1 : 0) }))
    .filter((c) => c.count > 0);
  let answeredOthers = 0;
  for (const c of others) answeredOthers += c.size * c.count;
  let out = 0;
  for (let m = Math.max(1, k - N); m <= Math.min(s, k); m++) {
    const K = k - m;
    const h = Math.exp(lnC(s, m) + lnC(N, K) - lnTotal);
    if (h < NEGLIGIBLE) continue;
    // no other group can reach m
    if (K < m || others.length === 0 || others[0].size < m) {
      out += h;
      continue;
    }
    // a bound on the term: P(x = m) · Π P(X_h <= m) over the other groups larger than m (negative association)
    let bound = h;
    for (const c of others) {
      if (c.size <= m || bound < NEGLIGIBLE) break;
      let cdf = 0;
      for (let v = Math.max(0, K - (N - c.size)); v <= Math.min(m, K); v++)
        cdf += Math.exp(lnC(c.size, v) + lnC(N - c.size, K - v) - lnC(N, K));
      bound *= Math.min(1, cdf) ** c.count;
    }
    if (bound < NEGLIGIBLE) continue;
    const big: SizeClass[] = [];
    let bigSamples = 0;
    for (const c of others) {
      if (c.size < m) break;
      big.push(c);
      bigSamples += c.size * c.count;
    }
    const U = nullCount + answeredOthers - bigSamples;
    out += h * tieExpectation(N, K, m, U, big, n, k / n, lf);
  }
  return out;
}

/**
 * A DFT length past which the degrees of a Binomial(N, p) sum that alias onto K carry less than
 * NEGLIGIBLE / (n + 1): L = |K - Np| + t with Bernstein's 2 exp(-t^2 / (2 (Npq + t/3))) = that bound.
 */
function aliasFreeLength(N: number, K: number, p: number, n: number): number {
  const lambda = Math.log((2 * (n + 1)) / NEGLIGIBLE);
  const variance = N * p * (1 - p);
  const t = lambda / 3 + Math.sqrt((lambda * lambda) / 9 + 2 * lambda * variance);
  return Math.ceil(Math.abs(K - N * p) + t) + 1;
}

/**
 * E[1{X_h <= m for every group h of `big`} / (1 + #{h: X_h = m})] for a uniform K-subset of N samples,
 * U of them in groups smaller than m or unanswered (identities 1-3 of the module doc).
 */
function tieExpectation(
  N: number,
  K: number,
  m: number,
  U: number,
  big: readonly SizeClass[],
  n: number,
  p: number,
  lf: Float64Array,
): number {
  const q = 1 - p;
  const lnp = Math.log(p);
  const lnq = Math.log(q);
  const lnC = (a: number, b: number) => lf[a] - lf[b] - lf[a - b];
  let groups = 0;
  for (const c of big) groups += c.count;
  const D = U + m * groups;
  if (D < K) return 0;
  const norm = Math.exp(lnC(N, K) + K * lnp + (N - K) * lnq);
  if (m === 1) return Math.min(1, Math.max(0, oneVoteEach(K, U, big, p, lf) / norm));
  const nodes = gaussLegendre01((Math.min(groups, Math.floor(K / m)) >> 1) + 1);
  const Q = nodes.x.length;
  // binomial pmf of each class's size at 0..m
  const pmf = big.map((c) => {
    const a = new Float64Array(m + 1);
    for (let v = 0; v <= m; v++) a[v] = Math.exp(lnC(c.size, v) + v * lnp + (c.size - v) * lnq);
    return a;
  });
  // DFT length: D + 1 reads [z^K] off exactly; a shorter L aliases only degrees d with |d - K| >= L, whose mass
  // (at most P(|S - K| >= L), S ~ Binomial(N, p)) is below NEGLIGIBLE / (n + 1) by Bernstein's inequality, and
  // an error e here changes the win chance by at most e / P(Binomial(n, p) = k) <= (n + 1) e
  const L = Math.min(D + 1, aliasFreeLength(N, K, p, n));
  const cosT = new Float64Array(L);
  const sinT = new Float64Array(L);
  for (let j = 0; j < L; j++) {
    cosT[j] = Math.cos((2 * Math.PI * j) / L);
    sinT[j] = Math.sin((2 * Math.PI * j) / L);
  }
  const pre = new Float64Array(Q);
  const pim = new Float64Array(Q);
  let acc = 0;
  for (let l = 0; 2 * l <= L; l++) {
    // (q + p ω)^U ω^-K
    const re0 = q + p * cosT[l];
    const im0 = p * sinT[l];
    const kIdx = (K * l) % L;
    const lm0 = U > 0 ? 0.5 * U * Math.log(re0 * re0 + im0 * im0) : 0;
    const a0 = (U > 0 ? U * Math.atan2(im0, re0) : 0) - (2 * Math.PI * kIdx) / L;
    const mag0 = Math.exp(lm0);
    pre.fill(mag0 * Math.cos(a0));
    pim.fill(mag0 * Math.sin(a0));
    for (let c = 0; c < big.length; c++) {
      const b = pmf[c];
      let lre = 0;
      let lim = 0;
      for (let v = 0; v < m; v++) {
        const idx = (v * l) % L;
        lre += b[v] * cosT[idx];
        lim += b[v] * sinT[idx];
      }
      const mi = (m * l) % L;
      const mre = b[m] * cosT[mi];
      const mim = b[m] * sinT[mi];
      const r = big[c].count;
      for (let t = 0; t < Q; t++) {
        const u = nodes.x[t];
        let xr = lre + u * mre;
        let xi = lim + u * mim;
        let yr = 1;
        let yi = 0;
        for (let e = r; ; ) {
          if (e & 1) {
            const tr = yr * xr - yi * xi;
            yi = yr * xi + yi * xr;
            yr = tr;
          }
          e >>= 1;
          if (e === 0) break;
          const sr = xr * xr - xi * xi;
          xi = 2 * xr * xi;
          xr = sr;
        }
        const tr = pre[t] * yr - pim[t] * yi;
        pim[t] = pre[t] * yi + pim[t] * yr;
        pre[t] = tr;
      }
    }
    let v = 0;
    for (let t = 0; t < Q; t++) v += nodes.w[t] * pre[t];
    acc += l === 0 || 2 * l === L ? v : 2 * v;
  }
  return Math.min(1, Math.max(0, acc / L / norm));
}

/**
 * The numerator of {@link tieExpectation} at m = 1, where every group's factor is q^t + u · t p q^(t-1) z
 * (no group may have two votes): z and u go together, so with A(y) = Π_h (q^t_h + t_h p q^(t_h - 1) y)
 * (one convolution per size class, truncated at degree K) it is Σ_T A_T · P(Binomial(U, p) = K - T) / (T + 1),
 * T being the number of answered samples drawn (all tied at one vote). No Fourier transform, no quadrature.
 */
function oneVoteEach(K: number, U: number, big: readonly SizeClass[], p: number, lf: Float64Array): number {
  const lnp = Math.log(p);
  const lnq = Math.log(1 - p);
  const lnC = (a: number, b: number) => lf[a] - lf[b] - lf[a - b];
  let poly = new Float64Array([1]);
  for (const c of big) {
    // (α + β y)^r with α = q^t, β = t p q^(t-1): coefficients C(r, i) α^(r-i) β^i, a sub-probability
    const la = c.size * lnq;
    const lb = Math.log(c.size) + lnp + (c.size - 1) * lnq;
    const deg = Math.min(c.count, K);
    const f = new Float64Array(deg + 1);
    for (let i = 0; i <= deg; i++) f[i] = Math.exp(lnC(c.count, i) + (c.count - i) * la + i * lb);
    const next = new Float64Array(Math.min(K, poly.length - 1 + deg) + 1);
    for (let a = 0; a < poly.length; a++) {
      const pa = poly[a];
      if (pa === 0) continue;
      const top = Math.min(deg, next.length - 1 - a);
      for (let i = 0; i <= top; i++) next[a + i] += pa * f[i];
    }
    poly = next;
  }
  let out = 0;
  for (let T = Math.max(0, K - U); T < poly.length; T++)
    out += (poly[T] / (T + 1)) * Math.exp(lnC(U, K - T) + (K - T) * lnp + (U - K + T) * lnq);
  return out;
}
