/**
 * Exact rational numbers for answer equivalence (BigInt numerator and denominator): numbers that are
 * written exactly (decimals, fractions, mixed numbers, integer powers, scientific notation) are
 * compared exactly, so `1000000000001` and `1000000000000`, or `2^{100}` and `2^{100}+1`, never share
 * a key; a long decimal that is a print of a fraction with a small denominator (`0.0833333333333333`)
 * is that fraction ({@link decimalOfFraction}).
 * Policy: `./equivalence.ts` and docs/answer-equivalence.md.
 */

/** A reduced fraction: `d > 0`, gcd(|n|, d) = 1. */
export interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

/** Largest |exponent| of a power of ten or of an integer power computed exactly (as the CAS guard). */
export const MAX_EXACT_EXPONENT = 10000;
/** Longest exact value (digits of numerator plus denominator) kept; larger results are not exact here. */
const MAX_DIGITS = 20000;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** `n/d` reduced; `null` when `d = 0` or the value is too large to keep. */
export function rational(n: bigint, d: bigint): Rational | null {
  if (d === 0n) return null;
  const g = gcd(n, d) || 1n;
  let nn = n / g;
  let dd = d / g;
  if (dd < 0n) {
    nn = -nn;
    dd = -dd;
  }
  if (nn.toString().length + dd.toString().length > MAX_DIGITS) return null;
  return { n: nn, d: dd };
}

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact value of a decimal literal (`-12.50`, `.5`, `6.02e23`, `1e-3`); `null` when it is not one
 * or its exponent exceeds {@link MAX_EXACT_EXPONENT}.
 */
export function parseDecimal(s: string): Rational | null {
  const m = DECIMAL_RE.exec(s.trim());
  if (!m) return null;
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return null;
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > MAX_EXACT_EXPONENT) return null;
  const digits = BigInt(`${int}${frac}` || '0') * (m[1] === '-' ? -1n : 1n);
  const scale = exp - frac.length;
  return scale >= 0 ? rational(digits * 10n ** BigInt(scale), 1n) : rational(digits, 10n ** BigInt(-scale));
}

export function add(a: Rational, b: Rational): Rational | null {
  return rational(a.n * b.d + b.n * a.d, a.d * b.d);
}
export function mul(a: Rational, b: Rational): Rational | null {
  return rational(a.n * b.n, a.d * b.d);
}
export function div(a: Rational, b: Rational): Rational | null {
  return rational(a.n * b.d, a.d * b.n);
}
/** `a^e` for an integer exponent with |e| <= {@link MAX_EXACT_EXPONENT}; `null` for 0^negative or too large. */
export function powInt(a: Rational, e: number): Rational | null {
  if (!Number.isInteger(e) || Math.abs(e) > MAX_EXACT_EXPONENT) return null;
  const bits = (x: bigint) => (x < 0n ? -x : x).toString().length;
  if ((bits(a.n) + bits(a.d)) * Math.abs(e) > MAX_DIGITS) return null;
  const p = BigInt(Math.abs(e));
  return e >= 0 ? rational(a.n ** p, a.d ** p) : rational(a.d ** p, a.n ** p);
}

/** The double closest to the value (may be ±Infinity or 0 for values outside the double range). */
export function toNumber(r: Rational): number {
  const n = Number(r.n);
  const d = Number(r.d);
  if (Number.isFinite(n) && Number.isFinite(d)) return n / d;
  // both beyond the double range: drop the same number of digits from each
  const cut = BigInt(10) ** BigInt(Math.max(r.n.toString().length, r.d.toString().length) - 300);
  return Number(r.n / cut) / Number(r.d / cut);
}

/**
 * The key of an exact value: a terminating value as its exact decimal (`1000`, `0.5`, `-2.5`,
 * `0.333333333333`; beyond 30 characters in exact scientific form, `1.267650600228229401496703205376e30`),
 * any other as `n/d` (`1/3`, `-7/3`). Equal values, equal keys; different values, different keys.
 */
export function rationalKey(r: Rational): string {
  if (r.n === 0n) return '0';
  let d = r.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  if (d !== 1n) return `${r.n}/${r.d}`;
  const scale = Math.max(twos, fives);
  const m = (r.n * 10n ** BigInt(scale)) / r.d;
  const sign = m < 0n ? '-' : '';
  const digits = (m < 0n ? -m : m).toString();
  const padded = digits.padStart(scale + 1, '0');
  const int = padded.slice(0, padded.length - scale);
  const frac = padded.slice(padded.length - scale).replace(/0+$/, '');
  const plain = `${sign}${int}${frac ? `.${frac}` : ''}`;
  if (plain.length <= 30) return plain;
  const sig = digits.replace(/0+$/, '');
  const exp = digits.length - 1 - scale;
  return `${sign}${sig[0]}${sig.length > 1 ? `.${sig.slice(1)}` : ''}e${exp}`;
}

/**
 * A decimal with 16 or more significant digits that is exactly how a double prints a fraction with a
 * small denominator (at most 10 000): that fraction. Graders and programs print `8/11` as
 * `0.7272727272727273` (rlvr-probe's `pred_value`); a shorter decimal is a rounding and keeps its own value.
 * @returns the fraction, or `null` when the literal is not such a print.
 */
export function floatPrintOfFraction(s: string): Rational | null {
  const t = s.trim();
  const sig = t
    .replace(/^[+-]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  if (sig.length < 16 || sig.length > 17) return null;
  const x = Number(t);
  if (!Number.isFinite(x) || x === 0) return null;
  const printed = String(x);
  if (Number(printed) !== Number(t) || printed.replace(/^\+/, '') !== t.replace(/^\+/, '')) return null;
  // continued-fraction convergents of |x|, smallest denominator first
  const ax = Math.abs(x);
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  let y = ax;
  for (let i = 0; i < 40; i++) {
    const a = Math.floor(y);
    [h0, h1] = [h1, a * h1 + h0];
    [k0, k1] = [k1, a * k1 + k0];
    if (k1 > 10000 || !Number.isSafeInteger(h1)) return null;
    if (h1 / k1 === ax) return rational(BigInt(x < 0 ? -h1 : h1), BigInt(k1));
    const f = y - a;
    if (f === 0) return null;
    y = 1 / f;
  }
  return null;
}

/** Fewest digits after the point a decimal needs before it is read as a fraction it rounds ({@link decimalOfFraction}). */
export const MIN_FRACTION_PLACES = 6;
/** Largest denominator a decimal is read as ({@link decimalOfFraction}). */
export const MAX_FRACTION_DENOMINATOR = 10000;

function onlyTwosAndFives(d: bigint): boolean {
  let x = d;
  while (x % 2n === 0n) x /= 2n;
  while (x % 5n === 0n) x /= 5n;
  return x === 1n;
}

/**
 * The fraction a long decimal is a print of: a decimal literal with k >= {@link MIN_FRACTION_PLACES}
 * digits after the point that is a fraction p/q rounded at its last digit (|D - p/q| <= 10^-k / 2) or
 * truncated there (0 <= |p/q| - |D| < 10^-k), where p/q does not terminate (q has a prime factor other
 * than 2 and 5), with q at most 10^((k-2)/2) (100 for 6 places, 1000 for 8, {@link MAX_FRACTION_DENOMINATOR}
 * from 10): the fraction with the smallest such q. So `0.0833333333333333` and `0.08333333` are 1/12,
 * `0.7272727272727273` (a double's print) is 8/11, `0.333333` is 1/3; `0.33333` (5 places), `0.333334`
 * (neither rounded nor truncated) and `3.14159` (no q <= 100 close enough) keep their own value.
 * Why the bound on q: fractions with denominators up to Q lie about 1/Q^2 apart, so with
 * Q^2 <= 10^(k-2) a decimal that is not such a print falls that close to one with probability below 1%.
 * @param s a plain decimal literal (`PLAIN_NUMBER_RE`), thousands separators removed.
 * @returns the fraction, or `null` (not a long decimal, or no such fraction).
 */
export function decimalOfFraction(s: string): Rational | null {
  const m = DECIMAL_RE.exec(s.trim());
  if (!m || m[3] === undefined) return null;
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  const places = m[3].length - exp;
  if (!Number.isSafeInteger(places) || places < MIN_FRACTION_PLACES || places > 40) return null;
  const sign = m[1] === '-' ? -1n : 1n;
  const digits = BigInt(`${m[2] ?? ''}${m[3]}` || '0');
  // D = n / 10^places exactly
  const n = exp > m[3].length ? digits * 10n ** BigInt(exp - m[3].length) : digits;
  const scale = 10n ** BigInt(places);
  const maxQ = BigInt(Math.min(MAX_FRACTION_DENOMINATOR, Math.floor(10 ** ((places - 2) / 2))));
  // rounded from p/q: p/q in [D - u/2, D + u/2]; truncated: p/q in [D, D + u) (u: a unit of the last
  // place); together [D - u/2, D + u). Its fraction with the smallest denominator:
  const [p, q] = simplestBetween(2n * n - 1n, 2n * scale, n + 1n, scale);
  if (q > maxQ || p * scale === (n + 1n) * q) return null;
  // a terminating one (D is a rounding of a short decimal) is not read
  return onlyTwosAndFives(q) ? null : rational(sign * p, q);
}

/**
 * The fraction p/q with the smallest q in the closed interval [an/ad, bn/bd] (0 <= an/ad < bn/bd; at
 * `an < 0` the interval starts at 0), by continued fractions (the Stern-Brocot descent): O(log) steps.
 */
function simplestBetween(an: bigint, ad: bigint, bn: bigint, bd: bigint): [bigint, bigint] {
  if (an <= 0n) return [0n, 1n];
  const fl = an / ad;
  if (fl * ad === an) return [fl, 1n];
  if ((fl + 1n) * bd <= bn) return [fl + 1n, 1n];
  // both ends in (fl, fl + 1): the reciprocals of their fractional parts, in reverse order
  const [p, q] = simplestBetween(bd, bn - fl * bd, ad, an - fl * ad);
  return [fl * p + q, p];
}

type Json = unknown;

/**
 * The exact value of a MathJSON tree made only of number literals, `Rational`, `Add`, `Subtract`,
 * `Negate`, `Multiply`, `Divide` and `Power` with an integer exponent (the Compute Engine's canonical
 * form of `\frac{1}{3}+0.5`, `2^{100}+1`, `1.5\times10^{3}`); `null` for anything else (radicals,
 * constants, functions, unknowns), which is not known to be rational.
 */
export function exactFromMathJson(j: Json, depth = 0): Rational | null {
  if (depth > 40) return null;
  if (typeof j === 'number') return Number.isFinite(j) ? parseDecimal(String(j)) : null;
  if (j && typeof j === 'object' && !Array.isArray(j)) {
    const num = (j as { num?: unknown }).num;
    return typeof num === 'string' ? parseDecimal(num) : null;
  }
  if (!Array.isArray(j) || typeof j[0] !== 'string') return null;
  const args = j.slice(1).map((a) => exactFromMathJson(a, depth + 1));
  if (args.some((a) => a === null)) return null;
  const xs = args as Rational[];
  switch (j[0]) {
    case 'Rational':
    case 'Divide':
      return xs.length === 2 ? div(xs[0], xs[1]) : null;
    case 'Negate':
      return xs.length === 1 ? rational(-xs[0].n, xs[0].d) : null;
    case 'Subtract':
      return xs.length === 2 ? add(xs[0], { n: -xs[1].n, d: xs[1].d }) : null;
    case 'Add':
    case 'Multiply': {
      let acc: Rational | null = j[0] === 'Add' ? { n: 0n, d: 1n } : { n: 1n, d: 1n };
      for (const x of xs) {
        acc = acc && (j[0] === 'Add' ? add(acc, x) : mul(acc, x));
      }
      return acc;
    }
    case 'Power':
      return xs.length === 2 && xs[1].d === 1n && xs[1].n >= -10000n && xs[1].n <= 10000n
        ? powInt(xs[0], Number(xs[1].n))
        : null;
    default:
      return null;
  }
}
