/**
 * Answer equivalence: when two final answers are the same value written differently. Used by every
 * comparison of final answers in the product: maj@k's vote (metrics/majority.ts), the problem view's
 * "in base k/n", the grader audit and `report --regrade` (../graderAudit.ts).
 *
 * Each answer gets a canonical key, computed once per distinct answer string and cached
 * ({@link canonicalAnswer}); two answers are equivalent iff their keys are equal, so equivalence is
 * an equivalence relation (reflexive, symmetric, transitive) and grouping is a hash lookup. The
 * comparison with a reference (`./reference.ts`) is the key equality plus a few directed rules the
 * reference decides (a list of accepted answers, `1010_2` accepting `1010`, a decimal rounding an
 * irrational), decided once per (reference, key) pair. The full list: docs/answer-equivalence.md.
 *
 * ## What is equal (and the source of each rule)
 * The field's references are Qwen2.5-Math's evaluation (`evaluation/parser.py` `strip_string`,
 * `evaluation/grader.py` `math_equal`; also used by limit-of-RLVR) and Hugging Face Math-Verify
 * (`latex2sympy2_extended/math_normalization.py` `normalize_latex`, `math_verify/grader.py`).
 * 1. Wrappers: `\boxed{}`, `\fbox{}`, `$..$`, `\(..\)`, `\left`/`\right`, `\displaystyle`, spacing
 *    commands (`\!`, `\,`, `\;`, `\:`, `\quad`, `~`, `\ `), `\dfrac`/`\tfrac` (both references).
 * 2. Thousands separators, only in a well-formed grouping (1-3 digits, then groups of exactly 3):
 *    `1,000`, `1{,}000`, `1,\!000`, `1\,000`, `1\ 000`, `1\!000`, `1 000`, thin and no-break spaces,
 *    `1'000` (Qwen: `\!` removed and commas dropped in numbers; Math-Verify: `{,}` to `,`); a `{,}`
 *    that is not a grouping is a decimal comma (`1{,}5` is 1.5, never 15), and so is a plain comma
 *    that cannot be a list or a grouping (`1000,99`, `0,111`, `1,05`; {@link decimalComma}). Plain-text mixed numbers:
 *    `2 1/2` is 5/2 (a proper fraction only). Digits still separated by spaces after that (`3 4`,
 *    `1 2 3`, `2 3/2`) are not one number: compared as written, apart from every number and list.
 * 3. Unicode: NFKC (full-width digits, vulgar fractions, compatibility spaces), the minus sign and
 *    every dash (U+2010..U+2015) as `-`, ×, ÷, ·, √, π, ∞, °, superscript digits (this module; both
 *    references assume ASCII LaTeX).
 * 4. Money: `\$`, `$`, `€`, `£`, `¥`, `₹`, currency words (`dollars`, `USD`, `Rs.`) removed, sign kept
 *    (`-\$20` is -20) (Qwen and Math-Verify remove dollar signs).
 * 5. Units after a number: `\text{ hours}`, `\mbox{cm}^2`, `\mathrm{km}`, words (`16 hours`,
 *    `toys per hour`, SI symbols after a space: `5 m`), attached abbreviations (`5cm`, `60mph`)
 *    (Qwen: trailing `\text{..}` and a unit word list; Math-Verify: the same list, with `^2`).
 *    No conversion between units: `1 km` equals `1`, not `1000`. The key has no unit (`5 m` and `5 cm`
 *    are one group); `sameAnswer` (`./reference.ts`), the comparison with a reference, also keeps two known units
 *    of measurement apart when both answers carry one and they differ (`5 m` vs `5 cm`, `cm` vs `cm^2`).
 * 6. Degrees (`^\circ`, `^{\circ}`, `°`, `\degree`, `degrees`) and percent (`\%`, `%`, `percent`)
 *    at the end are removed: `50\%` equals `50` (Qwen removes `^\circ` and `\%`), but not the degrees of a
 *    trigonometric function's argument (`\sin 30^\circ` is 1/2, the CAS reads them). `50\%` does not
 *    equal `0.5`: Qwen's grader also accepts reference/100 and reference*100, which is not transitive
 *    (0.5 ~ 50 ~ 5000), so it cannot be a grouping.
 * 7. A leading `\text{label:}` before math, and a labelled value (`./relations.ts` `labelledValue`):
 *    `x = 5`, `(p,q) = (3,2)`, `f(x) = 1`, `V_1:V_2 = 11:21`, `x \in [1,2]`, a chain by its last side
 *    (`x = 5+5+1 = 11`); an equation that is not such a value is keyed by {@link equationKey}.
 * 8. Numbers: every plain decimal (`0.50`, `.5`, `+5`, `007`, `1.5e3`) and every LaTeX expression
 *    without unknowns (`\frac{1}{2}`, `1/2`, `3\frac12`, `2\sqrt{2}`, `\sqrt{8}`, `7\pi`,
 *    `0.\overline{3}`, `\binom{5}{2}`) is evaluated. A rational value is compared exactly (`./exact.ts`:
 *    BigInt fractions; key the exact decimal or `n/d`), so `1000000000001` is not `1000000000000`; a
 *    decimal with 6 or more places that is a small fraction rounded or truncated at its last digit
 *    (`0.0833333333333333`, `0.333333`) is that fraction (`./exact.ts` `decimalOfFraction`), a shorter
 *    one keeps its value (`0.33`, `33.33`). A value not known to be rational (`\sqrt2`,
 *    `\pi`) has the key `~` + its value to {@link SIGNIFICANT_DIGITS} significant digits: such values
 *    equal each other when they agree to that (a relative tolerance of at most
 *    {@link RELATIVE_TOLERANCE}; values that straddle a rounding boundary can still differ); a written
 *    decimal never has such a key (it matches one only against a reference, `./reference.ts`).
 * 9. Tuples and intervals element-wise, by bracket: `(1, \frac{9}{2})` equals `(1, 4.5)`; `(a,b)`,
 *    `[a,b]`, `[a,b)`, `(a,b]` are four different keys (an open interval and a point are both `(a,b)`);
 *    `\langle a, b\rangle` is `(a,b)`; the ISO 80000-2 reversed brackets are open ends (`]0,1[` is `(0,1)`,
 *    `[0,1[` is `[0,1)`: `./surface.ts` `isoIntervals`); `\mathbb{R}`, `ℝ`, `all real numbers` are `(-\infty,\infty)`.
 *    Sets (`\{1,2\}`) and bare lists (`2, 5`, `2 and 5`) are unordered (Math-Verify compares
 *    sets of solutions), without repeats, and a whole answer that is a set of one element (not a set) is that element; unions of
 *    intervals are unordered; a ratio of numbers (`11:21`) part by part, as written. A one-variable inequality is its interval (`0 < f(x) < 1` is `(0,1)`;
 *    `./relations.ts` `inequalityKey`). Matrices in any environment cell by cell (`./notation.ts`).
 * 10. Expressions with unknowns (`4a-2`, `\frac{x+2}{7}`): equal when they have the same unknowns
 *     and the same values at two fixed points ({@link FINGERPRINT_DIGITS} significant digits), so
 *     `x^2+2x+1` equals `(x+1)^2` (Qwen and Math-Verify decide this with SymPy's `simplify`).
 * 11. Multiple-choice letters: `A`, `(A)`, `\text{(A)}` are one answer.
 * 11a. Numbers in words (`five`, `twenty-one`; 0-99, the whole answer); `\pm X` (or `\mp X`) as the set {X, -X}
 *     and `a \pm b` as {a+b, a-b}; `\emptyset`, `\varnothing`, `∅` as `\{\}`; `10^-3` as `10^{-3}`;
 *     an expression with unknowns whose value is the same whole number at both points and has no
 *     piecewise function is that number (`\sin^2 x + \cos^2 x` is 1); assignments to distinct
 *     one-letter names (`x=3, y=4`) are the tuple of values in alphabetical order of the names, `(3,4)`,
 *     and to one name (`x=-1, x=2`, `x_1 = -1, x_2 = 2`) the set of values; a numeral with a base
 *     subscript (`1010_2`) is that numeral, not its value (the CAS reads it as ten).
 * 12. Everything else (words, times, parse failures, answers longer than 300 characters, answers the
 *     CAS refuses to evaluate) is compared as text: the surface form, whitespace collapsed, case folded.
 * Not equal: different units are not converted (and conflict only in `sameAnswer`); `50\%` vs `0.5`;
 * a labelled value and an equation (`y = 2x` is `2x`; `2x - y = 0` an equation; a reference `y = 2x`
 * accepts the equation); a column vector and a tuple.
 */
import { casValue } from './cas';
import {
  decimalOfFraction,
  floatPrintOfFraction,
  parseDecimal,
  type Rational,
  rational,
  rationalKey,
  toNumber,
} from './exact';
import { baseNumeral, matrixKey } from './notation';
import { inequalityKey, splitRelation, splitTopLevel } from './relations';
import { isMathOnly, measurementUnit, PLAIN_NUMBER_RE, stripThousandsCommas, surfaceForm } from './surface';

/** Significant digits to which numbers not known to be rational are compared (their `~` keys are the values rounded to this). */
export const SIGNIFICANT_DIGITS = 12;
/** The largest relative difference two numbers with the same key can have: 10^(1 - SIGNIFICANT_DIGITS) / 2. */
export const RELATIVE_TOLERANCE = 5e-12;
/** Significant digits of the values that fingerprint an expression with unknowns (looser: two evaluation orders). */
export const FINGERPRINT_DIGITS = 10;

/** What kind of value an answer is. */
export type AnswerKind = 'number' | 'numeral' | 'tuple' | 'set' | 'union' | 'matrix' | 'expression' | 'choice' | 'text';

/** The canonical form of an answer. */
export interface CanonicalAnswer {
  /** Equal keys = equivalent answers. Exact numbers: exact decimal or fraction (`1000`, `0.5`, `1/3`); others `~` and 12 digits (`~2.82842712475`). */
  key: string;
  kind: AnswerKind;
  /** The real value, for `number` answers. */
  value?: number;
  /**
   * The unit of measurement the surface step removed, when it is one `measurementUnit` knows (`cm^2`,
   * `m`, `h`): not part of the key; `sameAnswer` (`./reference.ts`) keeps two answers with different units apart.
   */
  unit?: string;
  /**
   * Keys of other answers this one accepts when it is the reference (`./reference.ts`), beyond its
   * own: a numeral in another base accepts its digits written without the base (`1010_2` accepts `1010`).
   */
  accepts?: string[];
  /**
   * For a value labelled with one name whose value has unknowns (`y = 2x+3`): the name and the value's
   * surface form, so that as a reference it also accepts the equation `y - (2x+3) = 0` however it is
   * rearranged (`./reference.ts`).
   */
  labelled?: { name: string; value: string };
  /**
   * The base subscript of a numeral written in base 10 with its base (`1010_{10}`: 10). Its key is the
   * number's, but a reference numeral in another base (`1010_2`) does not accept it as its digits
   * (`sameAnswer`, `./reference.ts`): it is one thousand and ten.
   */
  subscript?: number;
}

/**
 * Key of a real number: rounded to `digits` significant digits, in JavaScript's shortest form
 * (`1000`, `0.5`, `1e+21`, `-0` as `0`); `inf` / `-inf` for infinities.
 */
export function numberKey(v: number, digits = SIGNIFICANT_DIGITS): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (v === 0) return '0';
  return String(Number(v.toPrecision(digits)));
}

function complexKey(re: number, im: number): string {
  // float noise in the imaginary part of a real value (e^{i\pi} = -1 + 1.2e-16 i) is dropped
  const tiny = 1e-12 * Math.max(1, Math.abs(re), Math.abs(im));
  const r = Math.abs(re) <= tiny && im !== 0 ? 0 : re;
  const i = Math.abs(im) <= tiny ? 0 : im;
  if (i === 0) return approxNumber(r).key;
  return `${r === 0 ? '' : numberKey(r)}${i > 0 && r !== 0 ? '+' : ''}${numberKey(i)}i`;
}

/** True when the opening bracket at 0 closes at the very end (so `(1)+(2)` is not one group). */
function wrapsWhole(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0 && i < s.length - 1) return false;
    }
  }
  return depth === 0;
}

/** True when `\{` / `\}` pairs in `body` never close more than they opened (so `\{1\} + \{2\}` is not one set). */
function balancedSetBraces(body: string): boolean {
  let depth = 0;
  for (const m of body.matchAll(/\\[{}]/g)) {
    depth += m[0] === '\\{' ? 1 : -1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

const FUNCTION_WORDS_RE = /(?<![\\a-zA-Z])(sqrt|sin|cos|tan|cot|sec|csc|log|ln|exp|pi|infty)(?![a-zA-Z])/g;

function textKey(s: string): CanonicalAnswer {
  return { key: `t:${s.replace(/\s+/g, ' ').trim().toLowerCase()}`, kind: 'text' };
}

/** `[-] [n] \frac{a}{b}` (a mixed number when n is there and 0 < a < b; `\frac12` too) and `[-] a/b`, integer literals. */
const FRAC_RE =
  /^([+-])?\s*(?:(\d{1,300})\s*)?\\frac\s*(?:\{\s*(\d{1,300})\s*\}|(\d))\s*(?:\{\s*(\d{1,300})\s*\}|(\d))$/;
const SLASH_RE = /^([+-])?(\d{1,300})\/(\d{1,300})$/;
/** A plain-text mixed number `[-] n a/b` ("2 1/2" is 5/2). */
const MIXED_SLASH_RE = /^([+-])?(\d{1,300}) (\d{1,300}) ?\/ ?(\d{1,300})$/;
/** `[-] [c] \sqrt{n}` and `[-] \frac{[c] \sqrt{n}}{b}`, integer literals. */
const SQRT_RE = /^([+-])?\s*(\d{1,15})?\s*\\sqrt\s*(?:\{\s*(\d{1,15})\s*\}|(\d))$/;
const FRAC_SQRT_RE =
  /^([+-])?\s*\\frac\s*\{\s*(\d{1,15})?\s*\\sqrt\s*(?:\{\s*(\d{1,15})\s*\}|(\d))\s*\}\s*\{\s*(\d{1,15})\s*\}$/;

/** An exact value, or a float for a value that is not known to be rational. */
type NumberValue = { exact: Rational } | { approx: number };

/** `[c]\sqrt{n}` / b: exact when n is a perfect square, else a float (as the CAS gives). */
function radical(sign: number, c: number, n: number, b: number): NumberValue | null {
  if (b === 0) return null;
  const root = Math.round(Math.sqrt(n));
  if (root * root === n) {
    const r = rational(BigInt(sign * c * root), BigInt(b));
    return r ? { exact: r } : null;
  }
  return { approx: (sign * c * Math.sqrt(n)) / b };
}

/**
 * The value of the most common LaTeX numbers (fractions, mixed numbers, radicals with integer
 * literals) without the CAS, which costs about a millisecond per answer: the same value the CAS
 * gives (exact for fractions and mixed numbers; a float for a radical that is not a whole number;
 * tested against the CAS), so keys do not depend on which path computed them. `null` for anything else.
 */
function simpleLatexNumber(s: string): NumberValue | null {
  const sign = (x: string | undefined) => (x === '-' ? -1 : 1);
  let m = FRAC_RE.exec(s);
  if (m) {
    const num = BigInt(m[3] ?? m[4]);
    const den = BigInt(m[5] ?? m[6]);
    if (den === 0n) return null;
    // a mixed number only with a proper fraction: the CAS reads `48\frac{3}{1}` as 48 x 3
    if (m[2] !== undefined && !(num > 0n && num < den)) return null;
    const r = rational(BigInt(sign(m[1])) * (BigInt(m[2] ?? 0) * den + num), den);
    return r ? { exact: r } : null;
  }
  m = SLASH_RE.exec(s) ?? MIXED_SLASH_RE.exec(s);
  if (m) {
    const whole = m[4] === undefined ? 0n : BigInt(m[2]);
    const num = BigInt(m[4] === undefined ? m[2] : m[3]);
    const den = BigInt(m[4] ?? m[3]);
    if (den === 0n) return null;
    // "2 1/2" is 5/2 only with a proper fraction; "2 3/2" is not a number (kept apart, as written)
    if (m[4] !== undefined && !(num > 0n && num < den)) return null;
    const r = rational(BigInt(sign(m[1])) * (whole * den + num), den);
    return r ? { exact: r } : null;
  }
  m = SQRT_RE.exec(s);
  if (m) return radical(sign(m[1]), Number(m[2] ?? 1), Number(m[3] ?? m[4]), 1);
  m = FRAC_SQRT_RE.exec(s);
  if (m) return radical(sign(m[1]), Number(m[2] ?? 1), Number(m[3] ?? m[4]), Number(m[5]));
  return null;
}

/** An exact number's answer: its exact key ({@link rationalKey}). */
function exactNumber(r: Rational): CanonicalAnswer {
  return { key: rationalKey(r), kind: 'number', value: toNumber(r) };
}

/** A number not known to be rational (`\sqrt2`, `\pi`): `~` and its value to 12 significant digits. */
function approxNumber(v: number): CanonicalAnswer {
  return { key: Number.isFinite(v) ? `~${numberKey(v)}` : numberKey(v), kind: 'number', value: v };
}

function numberAnswer(v: NumberValue): CanonicalAnswer {
  return 'exact' in v ? exactNumber(v.exact) : approxNumber(v.approx);
}

const SMALL_NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS_WORDS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** A whole answer that is a number from 0 to 99 in English words (`five`, `Twenty-one`, `ninety nine`), else null. */
function numberWord(s: string): number | null {
  const m = /^([a-z]+)(?:[- ]([a-z]+))?$/i.exec(s.trim());
  if (!m) return null;
  const a = m[1].toLowerCase();
  const b = m[2]?.toLowerCase();
  const small = SMALL_NUMBER_WORDS.indexOf(a);
  if (b === undefined && small >= 0) return small;
  const tens = TENS_WORDS.indexOf(a);
  if (tens < 2) return null;
  if (b === undefined) return tens * 10;
  const unit = SMALL_NUMBER_WORDS.indexOf(b);
  return unit >= 1 && unit <= 9 ? tens * 10 + unit : null;
}

/** `1000,99`, `0,111`, `1,05`, `1.000,99`: a comma that can only be a decimal comma (see {@link decimalComma}). */
const DECIMAL_COMMA_RE = /^([+-]?)(\d+),(\d+)$/;
const EUROPEAN_RE = /^([+-]?)(\d{1,3}(?:\.\d{3})+),(\d+)$/;

/**
 * A number written with a decimal comma where the comma cannot be a list separator or a thousands
 * separator: no space after it, and the part before it has more than three digits (`1000,99`,
 * `1234,567`) or a leading zero (`0,111`), or the part after it has one (`1,05`, `1,00`); or thousands
 * grouped with dots (`1.000,99`, and `1.000.000` without decimals). `1,22` and `2,5` stay lists of two numbers (a set of two solutions
 * is as likely), `1,000` stays a thousands grouping. Returns the decimal literal, or `null`.
 */
function decimalComma(s: string): string | null {
  // two or more dot groups can only be thousands: `1.000.000`
  if (/^[+-]?[1-9]\d{0,2}(?:\.\d{3}){2,}$/.test(s)) return s.replace(/\./g, '');
  const eu = EUROPEAN_RE.exec(s);
  if (eu) return `${eu[1]}${eu[2].replace(/\./g, '')}.${eu[3]}`;
  const m = DECIMAL_COMMA_RE.exec(s);
  if (!m) return null;
  const [, sign, int, frac] = m;
  return int.length > 3 || (int.length > 1 && int[0] === '0') || int === '0' || frac[0] === '0'
    ? `${sign}${int}.${frac}`
    : null;
}

/** Canonical form of one surface form (or one part of a list); `depth` bounds recursion on nested lists. */
function canonicalOfSurface(surface: string, depth: number): CanonicalAnswer | null {
  let s = surface.trim().replace(/^([+-])\s+/, '$1');
  if (s === '') return null;
  const grouped = stripThousandsCommas(s);
  const plain = grouped !== s ? grouped : (decimalComma(s) ?? s);
  if (PLAIN_NUMBER_RE.test(plain)) {
    // exact; a double's print of a small fraction (2.6666666666666665: its last digits are the double's
    // error, beyond one unit of the last place) and a long decimal that rounds or truncates one
    // (0.0833333333333333) are that fraction
    const r = floatPrintOfFraction(plain) ?? decimalOfFraction(plain) ?? parseDecimal(plain);
    return r ? exactNumber(r) : textKey(s);
  }
  if (/^[+-]?\\infty$|^[+-]?(?:infinity|inf)$/i.test(s)) {
    const v = s.startsWith('-') ? -Infinity : Infinity;
    return { key: numberKey(v), kind: 'number', value: v };
  }
  const simple = simpleLatexNumber(s);
  if (simple !== null) return numberAnswer(simple);
  const numeral = baseNumeral(s);
  if (numeral) return numeralAnswer(numeral.digits, numeral.base);
  // a bare lower-case `e` is Euler's number (as the CAS reads it), not the choice (e)
  if (s === 'e') return approxNumber(Math.E);
  const letter = /^\(?([A-Za-z])\)?$/.exec(s);
  if (letter) return { key: `choice:${letter[1]}`, kind: 'choice' };
  // a number in words ("five", "twenty-one"): that number
  const word = numberWord(s);
  if (word !== null) return exactNumber({ n: BigInt(word), d: 1n });
  // the empty set: `\emptyset`, `\varnothing` are `\{\}`
  if (/^\\(?:emptyset|varnothing)$/.test(s)) return { key: '{}', kind: 'set' };
  if (depth < 4) {
    const structured = structuredAnswer(s, depth);
    if (structured) return structured;
  }
  // words are text: an answer of letters only ("No", "Yes", "Monday"), or with a run of 3+ letters that
  // is not a command; spelled-out function names become commands first ("sqrt(2)" is \sqrt(2))
  // digits separated by spaces are not one number ("3 4" is not 34, "1 2 3" not 123, "2 3/2" not 23/2,
  // but `\log_2 8` is a subscript and a number;
  // a thousands grouping "1 000" was joined by the surface step, a mixed number "2 1/2" read above):
  // compared as written, so they never merge with a number; so is a `{,}` that is neither a thousands
  // separator nor a decimal comma ("1{,}23{,}4")
  if (/(?<![\d_^])\d+\s+\d/.test(s) || /\d\s*\{,\}\s*\d/.test(s)) return textKey(s);
  s = s.replace(FUNCTION_WORDS_RE, '\\$1');
  if (/^[a-zA-Z][a-zA-Z\s'.,!?-]*$/.test(s)) return textKey(s);
  if (!isMathOnly(s.replace(/(?<![a-zA-Z\\])[a-zA-Z]{1,2}(?![a-zA-Z])/g, ''))) return textKey(s);
  // an equation that is not a labelled value (those were read by the surface step): `2x+4y-3=0`
  const eq = splitRelation(s);
  if (eq && eq.ops.length === 1 && eq.ops[0] === '=') {
    const key = equationKey(eq.sides[0], eq.sides[1]);
    if (key) return { key, kind: 'expression' };
  }
  return casAnswer(s);
}

/**
 * A numeral in another base: key `digits_base`; base 10 is the number (marked `subscript: 10`). As a
 * reference it accepts its digits written alone (no subscript).
 */
function numeralAnswer(digits: string, base: number): CanonicalAnswer {
  if (base === 10) return { ...exactNumber({ n: BigInt(digits), d: 1n }), subscript: 10 };
  const key = `${digits}_${base}`;
  return /^\d+$/.test(digits) ? { key, kind: 'numeral', accepts: [digits] } : { key, kind: 'numeral' };
}

/**
 * The structured answers (`depth` < 4): matrices, one-variable inequalities (as intervals), `\pm`,
 * unions, sets, tuples and intervals, bare lists and lists of assignments. `null` when `s` is none.
 */
function structuredAnswer(s: string, depth: number): CanonicalAnswer | null {
  const part = (p: string, keepAssignments: boolean) => canonicalOfSurface(surfaceForm(p, keepAssignments), depth + 1);
  // the keys of a list's parts; `x = 2` keeps its name when some part is an assignment ("x=2, y=3")
  const partKeys = (items: string[]) => {
    const keep = items.some((x) => x.includes('='));
    return items.map((x) => part(x, keep)?.key ?? '');
  };
  // a set's elements; `a \pm b` among them is two (`\{1 \pm \sqrt5, -2\}` has three)
  const setOf = (items: string[]) => {
    const all = items.flatMap((x) => plusMinus(x) ?? [x]);
    return setAnswer(partKeys(all), all.length === 1 ? part(all[0], false) : null, depth === 0);
  };
  if (s.includes('\\begin')) {
    const key = matrixKey(s, (cell) => part(cell, false)?.key ?? null);
    if (key) return { key, kind: 'matrix' };
  }
  // an inequality in one variable is the interval it names (`0 < f(x) < 1` is `(0,1)`), also as a
  // set-builder (`\{x \mid x > 2\}`)
  const interval = (t: string) =>
    inequalityKey(t, (side) => {
      const c = part(side, false);
      return c?.kind === 'number' && c.value !== undefined ? { key: c.key, value: c.value } : null;
    });
  const builder = /^\\\{\s*[a-zA-Z](?:\s*\\in\s*\\mathbb\s*\{?R\}?)?\s*(?:\\mid|\||:)(.+)\\\}$/.exec(s);
  const iv = interval(builder ? builder[1] : s);
  if (iv) return { key: iv, kind: iv.startsWith('U(') ? 'union' : 'tuple' };
  // `\pm X` is the set {X, -X}; `a \pm b` is {a+b, a-b} (Math-Verify expands \pm the same way)
  const pm = splitTopLevel(s, /,|;/).length === 1 ? plusMinus(s) : null;
  if (pm) return setOf(pm);
  // unions of intervals or sets: unordered
  const union = s.split(/\\cup(?![a-zA-Z])/);
  if (union.length > 1) {
    const keys = union.map((u) => part(u, false)?.key ?? '').sort();
    return { key: `U(${keys.join(' ')})`, kind: 'union' };
  }
  // a set \{..\}: unordered
  const set = /^\\\{([\s\S]*)\\\}$/.exec(s);
  if (set && balancedSetBraces(set[1])) return setOf(set[1].trim() === '' ? [] : splitTopLevel(set[1], /,|;/));
  // a bracketed tuple or interval: element-wise, ordered, brackets kept; one bracketed value: unwrapped
  const open = s[0];
  const close = s[s.length - 1];
  if ((open === '(' || open === '[') && (close === ')' || close === ']') && wrapsWhole(s)) {
    const inner = s.slice(1, -1);
    const items = splitTopLevel(inner, /,|;/);
    if (items.length > 1) return { key: `${open}${partKeys(items).join(',')}${close}`, kind: 'tuple' };
    if (open === '(' && close === ')') return part(inner, false);
  }
  // a bare list "2, 5" (after thousands groupings and decimal commas were taken as numbers): an
  // unordered set of solutions
  const items = splitTopLevel(s, /,|;/);
  // a ratio of numbers (`11:21`, `1:2:3`), as written (not reduced), part by part
  const ratio = items.length === 1 ? splitTopLevel(s, /:/) : [];
  if (ratio.length > 1) {
    const parts = ratio.map((x) => part(x, false));
    if (parts.every((c) => c?.kind === 'number'))
      return { key: `r:${parts.map((c) => c?.key).join(':')}`, kind: 'tuple' };
  }
  if (items.length < 2) return null;
  // "1,05,10": digits only, a part with a leading zero: not integers; compared as written
  if (items.every((x) => /^\s*\d+\s*$/.test(x)) && items.slice(1).some((x) => /^\s*0\d/.test(x))) return textKey(s);
  return assignmentList(items, (x) => part(x, false), depth === 0) ?? setOf(items);
}

/** `\pm X` (or `\mp X`: the same set) as [X, -X] and `a \pm b` as [a+b, a-b]; `null` when `s` is not one such value (no `\pm`, two, or a bracket first). */
function plusMinus(s: string): string[] | null {
  const pm = /^(.*?)\s*\\(?:pm|mp)(?![a-zA-Z])\s*(.+)$/.exec(s.trim());
  if (!pm || /\\(?:pm|mp)(?![a-zA-Z])/.test(pm[2]) || /^[([]|\\\{/.test(s.trim())) return null;
  const b = /^[\w\\{}.^]+$/.test(pm[2]) ? pm[2] : `(${pm[2]})`;
  return pm[1] === '' ? [b, `-${b}`] : [`${pm[1]}+${b}`, `${pm[1]}-${b}`];
}

/**
 * A set from its elements' keys: unordered, each element once (`\{2, 2\}` is `\{2\}`); a whole answer
 * (`top`) that is a set of one element is that element (`\{5\}`, `x = 5 \text{ or } x = 5` and `5` are one
 * answer: Math-Verify compares a value with a set as the set of that value), once and not when the element
 * is itself a set: `\{\{1\}\}` is neither `\{1\}` nor `1`, `\{\emptyset\}` is not the empty set.
 * `one`: the element's canonical form when there is one.
 */
function setAnswer(keys: string[], one: CanonicalAnswer | null, top: boolean): CanonicalAnswer {
  const distinct = [...new Set(keys)].sort();
  if (top && distinct.length === 1 && distinct[0] !== '' && !distinct[0].startsWith('{'))
    return one ?? { key: distinct[0], kind: 'set' };
  return { key: `{${distinct.join(',')}}`, kind: 'set' };
}

/**
 * A list of assignments: to distinct one-letter names (`x=3, y=4`, `y=4, x=3`) the tuple of values
 * in the names' alphabetical order, so `(3,4)` too; to one name, or to one name with different
 * subscripts (`x=-1, x=2`; `x_1 = -1, x_2 = 2`), the set of values, so `-1, 2` and `\{-1, 2\}` too
 * (Math-Verify compares a list of `x = a` with a set). `null` for any other list. `top`: a whole answer
 * (see `setAnswer`).
 */
function assignmentList(
  items: string[],
  value: (value: string) => CanonicalAnswer | null,
  top: boolean,
): CanonicalAnswer | null {
  const valueKey = (x: string) => value(x)?.key ?? '';
  const named = items.map((x) => /^\s*([a-zA-Z])\s*(_\s*\{?\s*\w+\s*\}?)?\s*=\s*([^=]+)$/.exec(x));
  if (named.some((m) => m === null)) return null;
  const ms = named as RegExpExecArray[];
  const letters = ms.map((m) => m[1]);
  const names = ms.map((m) => `${m[1]}${(m[2] ?? '').replace(/[\s_{}]/g, '')}`);
  if (new Set(letters).size === 1 && (new Set(names).size === 1 || new Set(names).size === names.length)) {
    const keys = ms.map((m) => valueKey(m[3]));
    return setAnswer(keys, new Set(keys).size === 1 ? value(ms[0][3]) : null, top);
  }
  if (ms.every((m) => m[2] === undefined) && new Set(letters).size === letters.length) {
    const sorted = [...ms].sort((a, b) => (a[1] < b[1] ? -1 : 1));
    return { key: `(${sorted.map((m) => valueKey(m[3])).join(',')})`, kind: 'tuple' };
  }
  return null;
}

/**
 * The key of an equation `left = right` with unknowns, the same for every rearrangement and every
 * nonzero multiple (`34x+45y-20z+100=0` and `-34x-45y+20z-100=0`; `x^2/4+y^2/3=1` and
 * `x^2/16+y^2/12=1/4`): the values of `left - right` at the two fixed points of the unknowns (as an
 * expression's fingerprint), divided by the first of them. `null` when the CAS cannot evaluate it,
 * it has no unknowns, or it is zero at the first point.
 * Math-Verify decides this by solving both relations with SymPy.
 */
export function equationKey(left: string, right: string): string | null {
  const v = casValue(`${left}-(${right})`);
  if (v?.kind !== 'function') return null;
  const [re0, im0] = v.values;
  if (im0 !== 0 || Math.abs(re0) < 1e-9 * Math.max(1, ...v.values.map(Math.abs))) return null;
  return `eq(${v.unknowns.join(',')}):${v.values.map((x) => numberKey(x / re0, FINGERPRINT_DIGITS)).join(',')}`;
}

/** The CAS step: a number, an expression's fingerprint, or a structure (`./cas.ts`); text when it cannot parse. */
function casAnswer(s: string): CanonicalAnswer {
  const v = casValue(s);
  if (v === null || v.kind === 'unparsed') return textKey(s);
  if (v.kind === 'number') {
    if (v.exact) return exactNumber(v.exact);
    const key = complexKey(v.re, v.im);
    return key.endsWith('i') ? { key, kind: 'expression' } : { key, kind: 'number', value: v.re };
  }
  // an expression whose value is the same whole number at both points and which has no piecewise
  // function (floor, ceiling, absolute value, sign, mod) is an identity: `\sin^2 x + \cos^2 x` is 1
  if (
    v.kind === 'function' &&
    !/\\(?:[lr]floor|[lr]ceil|lvert|rvert|mid|bmod|pmod|mod|operatorname)|\||sgn|sign/.test(s)
  ) {
    const [re0, im0, re1, im1] = v.values;
    const whole = Math.round(re0);
    const near = (x: number) => Math.abs(x - whole) <= 1e-9 * Math.max(1, Math.abs(whole));
    if (im0 === 0 && im1 === 0 && near(re0) && near(re1) && Number.isSafeInteger(whole))
      return exactNumber({ n: BigInt(whole), d: 1n });
  }
  if (v.kind === 'function')
    return {
      key: `f(${v.unknowns.join(',')}):${v.values.map((x) => numberKey(x, FINGERPRINT_DIGITS)).join(',')}`,
      kind: 'expression',
    };
  return { key: `e:${v.json}`, kind: 'expression' };
}

/** Most distinct answer strings kept in the cache; beyond it the cache starts over (results do not change). */
export const CACHE_LIMIT = 200_000;
const cache = new Map<string, CanonicalAnswer | null>();
let cacheHits = 0;
let cacheMisses = 0;

/**
 * The canonical form of a final answer (rules: this module's docstring), computed once per distinct
 * answer string and cached (at most {@link CACHE_LIMIT} strings).
 * @param answer the extracted answer as stored (any string; model output is untrusted).
 * @returns `null` for `null`, `undefined`, and answers that are empty after the surface step
 *   (`""`, `\boxed{}`, `$`): no answer, which never wins a vote.
 */
export function canonicalAnswer(answer: string | null | undefined): CanonicalAnswer | null {
  if (answer === null || answer === undefined) return null;
  const raw = String(answer);
  const hit = cache.get(raw);
  if (hit !== undefined || cache.has(raw)) {
    cacheHits++;
    return hit ?? null;
  }
  cacheMisses++;
  let out: CanonicalAnswer | null = null;
  if (raw.trim() !== '') {
    const units: string[] = [];
    const labels: string[] = [];
    const surface = surfaceForm(raw, false, units, labels);
    out = canonicalOfSurface(surface, 0);
    const unit = units.map(measurementUnit).find((u) => u !== null);
    if (out && unit) out = { ...out, unit };
    const name = labels.length === 1 ? labels[0].replace(/\s+/g, '') : '';
    if (out?.key.startsWith('f(') && /^[a-zA-Z](?:_\{?\w+\}?)?$/.test(name))
      out = { ...out, labelled: { name, value: surface } };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, out);
  return out;
}

/** The canonical key of an answer ({@link canonicalAnswer}), or `null` for no answer. */
export function answerKey(answer: string | null | undefined): string | null {
  return canonicalAnswer(answer)?.key ?? null;
}

/** Cache counters since the process started (for the benchmark): distinct strings canonicalised, and lookups served. */
export function answerCacheStats(): { size: number; hits: number; misses: number } {
  return { size: cache.size, hits: cacheHits, misses: cacheMisses };
}

/** Empties the cache (for benchmarks that time the first computation). */
export function clearAnswerCache(): void {
  cache.clear();
  cacheHits = 0;
  cacheMisses = 0;
}
