/**
 * Per-problem intervals for an accuracy c/n: Jeffreys (Beta(c+1/2, n-c+1/2)) or uniform-prior
 * (Beta(c+1, n-c+1)) equal-tailed intervals, with the special functions they need (log-gamma,
 * regularized incomplete beta and its inverse).
 *
 * Sources: Brown, Cai & DasGupta 2001, "Interval Estimation for a Binomial Proportion" (Statistical
 * Science 16(2)), Jeffreys interval; Bowyer et al. 2025 (arXiv:2503.01747) recommend Bayesian/Beta
 * intervals over normal approximations for small evaluations. Numerics: Lanczos log-gamma (g = 7,
 * 9 coefficients) and the Lentz continued fraction for I_x(a, b) (Numerical Recipes, 3rd ed., 6.4).
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/**
 * Natural log of the gamma function for x > 0 (Lanczos approximation, relative error ~1e-15;
 * reflection formula below 0.5).
 * @throws RangeError for x <= 0 or non-finite x.
 */
export function logGamma(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) throw new RangeError(`logGamma needs a finite x > 0, got ${String(x)}`);
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let s = LANCZOS[0];
  for (let i = 1; i < 9; i++) s += LANCZOS[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

/** Continued fraction of I_x(a, b) (modified Lentz), valid for x < (a+1)/(a+b+2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const TINY = 1e-300;
  const EPS = 1e-16;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/**
 * Regularized incomplete beta function I_x(a, b) = P(X <= x) for X ~ Beta(a, b): the Beta CDF.
 * @param x in [0, 1]; a, b > 0.
 * @returns value in [0, 1], accurate to ~1e-14 for a, b up to a few thousand.
 * @throws RangeError for a <= 0, b <= 0 or x outside [0, 1].
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new RangeError(`Beta parameters must be finite and > 0, got a=${String(a)}, b=${String(b)}`);
  }
  if (!(x >= 0 && x <= 1)) throw new RangeError(`x must be in [0, 1], got ${String(x)}`);
  if (x === 0) return 0;
  if (x === 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/**
 * Quantile (inverse CDF) of Beta(a, b): the x in [0, 1] with I_x(a, b) = p, found by bisection to
 * full double precision (I_x is monotone in x, so bisection always converges).
 * @param p probability in [0, 1]; returns 0 for p = 0 and 1 for p = 1.
 * @throws RangeError for p outside [0, 1] or invalid a, b.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${String(p)}`);
  regularizedIncompleteBeta(0.5, a, b); // validates a, b
  if (p === 0) return 0;
  if (p === 1) return 1;
  let lo = 0;
  let hi = 1;
  for (let it = 0; it < 200; it++) {
    const mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (regularizedIncompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** Kind of Beta interval: Jeffreys prior Beta(1/2, 1/2) or uniform prior Beta(1, 1). */
export type BetaIntervalKind = 'jeffreys' | 'uniform';

/**
 * Equal-tailed interval for a per-problem accuracy c/n.
 *
 * - `jeffreys` (default): quantiles (1-level)/2 and (1+level)/2 of Beta(c + 1/2, n - c + 1/2), with
 *   Brown, Cai & DasGupta's (2001) boundary rule: low = 0 when c = 0, high = 1 when c = n.
 * - `uniform`: quantiles of Beta(c + 1, n - c + 1), the posterior under a uniform prior (no boundary
 *   rule: with c = 0 the lower bound is a small positive number).
 *
 * @param c correct samples (integer, 0 <= c <= n); n samples (integer >= 0; n = 0 gives the prior's
 *   interval); level in (0, 1), default 0.95.
 * @returns `{low, high}` with 0 <= low <= high <= 1.
 * @throws RangeError on invalid counts, level or kind.
 */
export function betaInterval(
  c: number,
  n: number,
  level = 0.95,
  kind: BetaIntervalKind = 'jeffreys',
): { low: number; high: number } {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be an integer >= 0, got ${String(n)}`);
  if (!Number.isInteger(c) || c < 0 || c > n) {
    throw new RangeError(`c must be an integer with 0 <= c <= n (n=${n}), got ${String(c)}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${String(level)}`);
  const alpha = 1 - level;
  if (kind === 'jeffreys') {
    const a = c + 0.5;
    const b = n - c + 0.5;
    const low = c === 0 ? 0 : betaQuantile(alpha / 2, a, b);
    const high = c === n ? 1 : betaQuantile(1 - alpha / 2, a, b);
    return { low, high };
  }
  if (kind === 'uniform') {
    const a = c + 1;
    const b = n - c + 1;
    return { low: betaQuantile(alpha / 2, a, b), high: betaQuantile(1 - alpha / 2, a, b) };
  }
  throw new RangeError(`kind must be 'jeffreys' or 'uniform', got ${String(kind)}`);
}
