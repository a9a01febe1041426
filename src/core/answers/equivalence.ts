/**
 * Answer equivalence: when two final answers are the same value written differently. Used by every
 * comparison of final answers in the product: maj@k's vote (metrics/majority.ts), the problem view's
 * "in base k/n", the grader audit and `report --regrade` (../graderAudit.ts).
 *
 * Each answer gets a canonical key, computed once per distinct answer string and cached
 * ({@link canonicalAnswer}); two answers are equivalent iff their keys are equal, so equivalence is
 * an equivalence relation (reflexive, symmetric, transitive) and grouping is a hash lookup.
 *
 * ## What is equal (and the source of each rule)
 * The field's references are Qwen2.5-Math's evaluation (`evaluation/parser.py` `strip_string`,
 * `evaluation/grader.py` `math_equal`; also used by limit-of-RLVR) and Hugging Face Math-Verify
 * (`latex2sympy2_extended/math_normalization.py` `normalize_latex`, `math_verify/grader.py`).
 * 1. Wrappers: `\boxed{}`, `\fbox{}`, `$..$`, `\(..\)`, `\left`/`\right`, `\displaystyle`, spacing
 *    commands (`\!`, `\,`, `\;`, `\:`, `\quad`, `~`, `\ `), `\dfrac`/`\tfrac` (both references).
 * 2. Thousands separators: `1,000` (valid groupings only), `1{,}000`, `1,\!000`, `1\,000`,
 *    `1\!000`, `1 000`, thin and no-break spaces, `1'000` (Qwen: `\!` removed and commas dropped in
 *    numbers; Math-Verify: `{,}` to `,`).
 * 3. Unicode: NFKC (full-width digits, vulgar fractions, compatibility spaces), the minus sign and
 *    every dash (U+2010..U+2015) as `-`, ×, ÷, ·, √, π, ∞, °, superscript digits (this module; both
 *    references assume ASCII LaTeX).
 * 4. Money: `\$`, `$`, `€`, `£`, `¥`, `₹`, currency words (`dollars`, `USD`, `Rs.`) removed, sign kept
 *    (`-\$20` is -20) (Qwen and Math-Verify remove dollar signs).
 * 5. Units after a number: `\text{ hours}`, `\mbox{cm}^2`, `\mathrm{km}`, words (`16 hours`,
 *    `toys per hour`, SI symbols after a space: `5 m`), attached abbreviations (`5cm`, `60mph`)
 *    (Qwen: trailing `\text{..}` and a unit word list; Math-Verify: the same list, with `^2`).
 *    No conversion between units: `1 km` equals `1`, not `1000`.
 * 6. Degrees (`^\circ`, `^{\circ}`, `°`, `\degree`, `degrees`) and percent (`\%`, `%`, `percent`)
 *    at the end are removed: `50\%` equals `50` (Qwen removes `^\circ` and `\%`). `50\%` does not
 *    equal `0.5`: Qwen's grader also accepts reference/100 and reference*100, which is not transitive
 *    (0.5 ~ 50 ~ 5000), so it cannot be a grouping.
 * 7. A leading `\text{label:}` before math, and a short assignment `x = 5`, `k=2`, `x \in [1,2]`
 *    (left side of at most two characters, the answer's only relation; Qwen's rule).
 * 8. Numbers: every plain decimal (`0.50`, `.5`, `+5`, `007`, `1.5e3`) and every LaTeX expression
 *    without unknowns (`\frac{1}{2}`, `1/2`, `3\frac12`, `2\sqrt{2}`, `\sqrt{8}`, `7\pi`,
 *    `0.\overline{3}`, `\binom{5}{2}`) is evaluated by the Compute Engine; two numbers are equal
 *    when they agree to {@link SIGNIFICANT_DIGITS} significant digits (a relative tolerance of at
 *    most {@link RELATIVE_TOLERANCE}; values that straddle a rounding boundary can still differ).
 *    Qwen uses `isclose(rel_tol=1e-4)` and Math-Verify rounds floats to 6 decimals; both are looser
 *    on purpose (they grade against a reference). Here `33.33`, `33.333` and `\frac{100}{3}` stay
 *    three answers: maj@k groups spellings of one value, not roundings of it.
 * 9. Tuples and intervals element-wise, by bracket: `(1, \frac{9}{2})` equals `(1, 4.5)`; `(a,b)`,
 *    `[a,b]`, `[a,b)`, `(a,b]` are four different keys (an open interval and a point are both `(a,b)`).
 *    Sets (`\{1,2\}`) and bare lists (`2, 5`, `2 and 5`) are unordered (Math-Verify compares
 *    sets of solutions); unions of intervals are unordered.
 * 10. Expressions with unknowns (`4a-2`, `\frac{x+2}{7}`): equal when they have the same unknowns
 *     and the same values at two fixed points ({@link FINGERPRINT_DIGITS} significant digits), so
 *     `x^2+2x+1` equals `(x+1)^2` (Qwen and Math-Verify decide this with SymPy's `simplify`).
 * 11. Multiple-choice letters: `A`, `(A)`, `\text{(A)}` are one answer.
 * 12. Everything else (words, times, parse failures, answers longer than 300 characters, answers the
 *     CAS refuses to evaluate) is compared as text: the surface form, whitespace collapsed, case folded.
 * Not equal: different units are not converted; `50\%` vs `0.5`; equations by rearrangement
 * (`y = 2x` vs `2x - y = 0`); matrices other than element-by-element equal spellings.
 */
import { casValue } from './cas';
import { isMathOnly, PLAIN_NUMBER_RE, stripThousandsCommas, surfaceForm } from './surface';

/** Significant digits to which numbers are compared (their keys are the values rounded to this). */
export const SIGNIFICANT_DIGITS = 12;
/** The largest relative difference two numbers with the same key can have: 10^(1 - SIGNIFICANT_DIGITS) / 2. */
export const RELATIVE_TOLERANCE = 5e-12;
/** Significant digits of the values that fingerprint an expression with unknowns (looser: two evaluation orders). */
export const FINGERPRINT_DIGITS = 10;

/** What kind of value an answer is. */
export type AnswerKind = 'number' | 'tuple' | 'set' | 'union' | 'expression' | 'choice' | 'text';

/** The canonical form of an answer. */
export interface CanonicalAnswer {
  /** Equal keys = equivalent answers. Numbers are their rounded decimal (`1000`, `0.5`, `-2.82842712475`). */
  key: string;
  kind: AnswerKind;
  /** The real value, for `number` answers. */
  value?: number;
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
  if (i === 0) return numberKey(r);
  return `${r === 0 ? '' : numberKey(r)}${i > 0 && r !== 0 ? '+' : ''}${numberKey(i)}i`;
}

/** Splits at top-level commas (outside (), [], {}). Unbalanced brackets are treated as depth 0. */
function splitTopLevel(s: string, sep: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      // `\{` and `\}` are brackets too; other commands are skipped whole
      if (s[i + 1] === '{') depth++;
      else if (s[i + 1] === '}') depth = Math.max(0, depth - 1);
      i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && sep.test(c)) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
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
const FRAC_RE = /^([+-])?\s*(?:(\d{1,15})\s*)?\\frac\s*(?:\{\s*(\d{1,15})\s*\}|(\d))\s*(?:\{\s*(\d{1,15})\s*\}|(\d))$/;
const SLASH_RE = /^([+-])?(\d{1,15})\/(\d{1,15})$/;
/** `[-] [c] \sqrt{n}` and `[-] \frac{[c] \sqrt{n}}{b}`, integer literals. */
const SQRT_RE = /^([+-])?\s*(\d{1,15})?\s*\\sqrt\s*(?:\{\s*(\d{1,15})\s*\}|(\d))$/;
const FRAC_SQRT_RE =
  /^([+-])?\s*\\frac\s*\{\s*(\d{1,15})?\s*\\sqrt\s*(?:\{\s*(\d{1,15})\s*\}|(\d))\s*\}\s*\{\s*(\d{1,15})\s*\}$/;

/**
 * The value of the most common LaTeX numbers (fractions, mixed numbers, radicals with integer
 * literals) without the CAS, which costs about a millisecond per answer: the same value the CAS
 * gives (to the 12 significant digits of a key; tested against the CAS), so keys do not depend on
 * which path computed them. `null` for anything else.
 */
function simpleLatexNumber(s: string): number | null {
  const sign = (x: string | undefined) => (x === '-' ? -1 : 1);
  let m = FRAC_RE.exec(s);
  if (m) {
    const num = Number(m[3] ?? m[4]);
    const den = Number(m[5] ?? m[6]);
    if (den === 0) return null;
    // a mixed number only with a proper fraction: the CAS reads `48\frac{3}{1}` as 48 x 3
    if (m[2] !== undefined && !(num > 0 && num < den)) return null;
    return sign(m[1]) * (Number(m[2] ?? 0) + num / den);
  }
  m = SLASH_RE.exec(s);
  if (m) {
    const den = Number(m[3]);
    return den === 0 ? null : (sign(m[1]) * Number(m[2])) / den;
  }
  m = SQRT_RE.exec(s);
  if (m) return sign(m[1]) * Number(m[2] ?? 1) * Math.sqrt(Number(m[3] ?? m[4]));
  m = FRAC_SQRT_RE.exec(s);
  if (m) {
    const den = Number(m[5]);
    return den === 0 ? null : (sign(m[1]) * Number(m[2] ?? 1) * Math.sqrt(Number(m[3] ?? m[4]))) / den;
  }
  return null;
}

/** Canonical form of one surface form (or one part of a list); `depth` bounds recursion on nested lists. */
function canonicalOfSurface(surface: string, depth: number): CanonicalAnswer | null {
  let s = surface.trim().replace(/^([+-])\s+/, '$1');
  if (s === '') return null;
  const plain = stripThousandsCommas(s);
  if (PLAIN_NUMBER_RE.test(plain)) {
    const v = Number(plain);
    return { key: numberKey(v), kind: 'number', value: v };
  }
  if (/^[+-]?\\infty$|^[+-]?(?:infinity|inf)$/i.test(s)) {
    const v = s.startsWith('-') ? -Infinity : Infinity;
    return { key: numberKey(v), kind: 'number', value: v };
  }
  const simple = simpleLatexNumber(s);
  if (simple !== null) return { key: numberKey(simple), kind: 'number', value: simple };
  const letter = /^\(?([A-Za-z])\)?$/.exec(s);
  if (letter) return { key: `choice:${letter[1]}`, kind: 'choice' };
  if (depth < 4) {
    const part = (p: string, keepAssignments: boolean) =>
      canonicalOfSurface(surfaceForm(p, keepAssignments), depth + 1);
    // the keys of a list's parts; `x = 2` keeps its name when some part is an assignment ("x=2, y=3")
    const partKeys = (items: string[]) => {
      const keep = items.some((x) => x.includes('='));
      return items.map((x) => part(x, keep)?.key ?? '');
    };
    const setOf = (items: string[]): CanonicalAnswer => ({ key: `{${partKeys(items).sort().join(',')}}`, kind: 'set' });
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
    // a bare list "2, 5" (after thousands groupings were taken as numbers): an unordered set of solutions
    const items = splitTopLevel(s, /,|;/);
    // "1,00", "1,05": digits only, not a thousands grouping, a part with a leading zero: a European
    // decimal more likely than a list; compared as written
    if (items.length > 1 && items.every((x) => /^\s*\d+\s*$/.test(x)) && items.slice(1).some((x) => /^\s*0\d/.test(x)))
      return textKey(s);
    if (items.length > 1) return setOf(items);
  }
  // words are text: an answer of letters only ("No", "Yes", "Monday"), or with a run of 3+ letters that
  // is not a command; spelled-out function names become commands first ("sqrt(2)" is \sqrt(2))
  s = s.replace(FUNCTION_WORDS_RE, '\\$1');
  if (/^[a-zA-Z][a-zA-Z\s'.,!?-]*$/.test(s)) return textKey(s);
  if (!isMathOnly(s.replace(/(?<![a-zA-Z\\])[a-zA-Z]{1,2}(?![a-zA-Z])/g, ''))) return textKey(s);
  const v = casValue(s);
  if (v === null || v.kind === 'unparsed') return textKey(s);
  if (v.kind === 'number') {
    const key = complexKey(v.re, v.im);
    return v.im === 0 || key === numberKey(v.re) ? { key, kind: 'number', value: v.re } : { key, kind: 'expression' };
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
  const out = raw.trim() === '' ? null : canonicalOfSurface(surfaceForm(raw), 0);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, out);
  return out;
}

/** The canonical key of an answer ({@link canonicalAnswer}), or `null` for no answer. */
export function answerKey(answer: string | null | undefined): string | null {
  return canonicalAnswer(answer)?.key ?? null;
}

/**
 * Whether two answers are the same value (equal canonical keys). `false` when either is no answer.
 */
export function sameAnswer(a: string | null | undefined, b: string | null | undefined): boolean {
  const ka = answerKey(a);
  return ka !== null && ka === answerKey(b);
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
