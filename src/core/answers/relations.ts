/**
 * Relations in final answers, read syntactically (no CAS): where an answer is `label = value`
 * (`x = 5`, `(p,q) = (3,2)`, `f(x) = 1`, `V_1:V_2 = 11:21`, `x = 5+5+1 = 11`), and where it is a
 * one-variable inequality that names an interval (`0 < f(x) < 1` is `(0,1)`, `x \ge 2` is `[2,\infty)`,
 * `x < -1 \text{ or } x > 2` a union). The rules, each with its source, are listed in `./equivalence.ts`
 * and docs/answer-equivalence.md.
 */

/** A relation operator as written, and its normal form. */
type Op = '=' | '<' | '<=' | '>' | '>=' | '!=' | '~' | 'in';

/** Relation operators, longest spelling first (`\le` must not match `\left`, `<` must not eat `<=`). */
const OP_RE =
  /<=|>=|!=|=<|=>|\\leqslant(?![a-zA-Z])|\\geqslant(?![a-zA-Z])|\\leq?(?![a-zA-Z])|\\geq?(?![a-zA-Z])|\\lt(?![a-zA-Z])|\\gt(?![a-zA-Z])|\\neq?(?![a-zA-Z])|\\approx(?![a-zA-Z])|\\in(?![a-zA-Z])|[<>=]/y;

function opOf(token: string): Op {
  switch (token) {
    case '=':
      return '=';
    case '<':
    case '\\lt':
      return '<';
    case '>':
    case '\\gt':
      return '>';
    case '<=':
    case '=<':
    case '\\le':
    case '\\leq':
    case '\\leqslant':
      return '<=';
    case '>=':
    case '=>':
    case '\\ge':
    case '\\geq':
    case '\\geqslant':
      return '>=';
    case '\\approx':
      return '~';
    case '\\in':
      return 'in';
    default:
      return '!=';
  }
}

/** An answer split at its top-level relation operators: `sides.length === ops.length + 1`. */
export interface Relation {
  sides: string[];
  ops: Op[];
}

/**
 * Splits `s` at the relation operators outside brackets (`(`, `[`, `{`, `\{`): `x = 5+5+1 = 11` is three
 * sides joined by two `=`. `null` when `s` has no top-level relation or a side is empty (`<5`).
 */
export function splitRelation(s: string): Relation | null {
  const sides: string[] = [];
  const ops: Op[] = [];
  let start = 0;
  forEachTopLevel(s, (i) => {
    OP_RE.lastIndex = i;
    const m = OP_RE.exec(s);
    if (!m) return 0;
    sides.push(s.slice(start, i).trim());
    ops.push(opOf(m[0]));
    start = i + m[0].length;
    return m[0].length;
  });
  if (ops.length === 0) return null;
  sides.push(s.slice(start).trim());
  return sides.some((x) => x === '') ? null : { sides, ops };
}

/**
 * Calls `at(i)` at every index of `s` outside brackets (`()`, `[]`, `{}`, `\{ \}`; an unbalanced closing
 * bracket counts as depth 0), before the character there is read; `at` returns how many characters it
 * took (0: none, the scan goes on with that character). Other commands are skipped whole (`\,`).
 */
export function forEachTopLevel(s: string, at: (i: number) => number): void {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (depth === 0) {
      const took = at(i);
      if (took > 0) {
        i += took - 1;
        continue;
      }
    }
    const c = s[i];
    if (c === '\\') {
      if (s[i + 1] === '{') depth++;
      else if (s[i + 1] === '}') depth = Math.max(0, depth - 1);
      i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
}

/** Splits `s` at the characters `sep` matches outside brackets ({@link forEachTopLevel}). */
export function splitTopLevel(s: string, sep: RegExp): string[] {
  const parts: string[] = [];
  let start = 0;
  forEachTopLevel(s, (i) => {
    if (!sep.test(s[i])) return 0;
    parts.push(s.slice(start, i));
    start = i + 1;
    return 1;
  });
  parts.push(s.slice(start));
  return parts;
}

/** True when `s` has a `,` or `;` outside brackets. */
function topLevelComma(s: string): boolean {
  return splitTopLevel(s, /[,;]/).length > 1;
}

const GREEK =
  'alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|Phi|Psi|Omega';
const NAME_WRAPPERS_RE =
  /\\(?:text|textrm|textit|textbf|mathrm|mathit|mathbf|mathsf|operatorname|overline|vec|overrightarrow|widehat|hat|bar)\s*\{[^{}]*\}/g;

/**
 * True when `side` names what the answer is the value of, rather than being math itself: a name
 * (`x`, `k`, `y_1`, `x'`, `\theta`, `AB`, `\text{Area}`), a function of names or numbers (`f(x)`,
 * `f(2)`, `P(A)`, `f^{-1}(3)`), an angle (`\angle ABC`, `m\angle A`), or a tuple or ratio of those
 * (`(p,q)`, `(x, y, z)`, `V_1:V_2`, `a/b`). Digits only in subscripts and arguments; no operators.
 */
export function isLabel(side: string): boolean {
  let t = side.trim();
  t = t.replace(NAME_WRAPPERS_RE, 'L').replace(new RegExp(`\\\\(?:${GREEK})(?![a-zA-Z])`, 'g'), 'L');
  t = t.replace(/(?:m\s*)?\\(?:angle|measuredangle)(?![a-zA-Z])\s*/g, '');
  t = t.replace(/_\s*\{[^{}]*\}|_\s*[A-Za-z0-9]/g, ''); // subscripts
  t = t.replace(/\^\s*\{\s*(?:\\prime|-1)\s*\}|\^\s*\\prime|'+/g, ''); // primes, inverse functions
  // a function's arguments: a bracket right after a name, without relations inside
  for (let guard = 0; guard < 5; guard++) {
    const before = t;
    t = t.replace(/(\p{L})\s*\([^()=<>]*\)/gu, '$1');
    if (t === before) break;
  }
  t = t.replace(/\s+/g, '');
  const inner = /^\((.*)\)$/.exec(t)?.[1] ?? t;
  return /^\p{L}+\d*(?:[,:/]\p{L}+\d*)*$/u.test(inner);
}

/**
 * The value an answer written as a relation states, or `null` when it is not such an answer:
 * - `label = v` and `label \in v` (see {@link isLabel}): `v`; `label \approx v`: `v`;
 * - a chain of equalities whose first side is a label (`x = 5+5+1 = 11`), or an arithmetic statement
 *   without unknowns (`1 + 1 = 2`): its last side after `=` (Math-Verify compares "the last relation's
 *   right side");
 *   a `\approx` after that side is the value's rounding and is dropped (`x = \frac13 \approx 0.33` is
 *   `\frac13`).
 * An equation between expressions with unknowns (`x + y = 5`, `y^2 = 4x`) is not a labelled value.
 */
export function labelledValue(s: string): string | null {
  const r = splitRelation(s);
  if (!r) return null;
  if (r.ops.some((op) => op !== '=' && op !== '~' && op !== 'in')) return null;
  // a list of relations (`a=2, b=3`) is not one labelled value; a list value is (`x = -1, 2`)
  if (r.sides.slice(0, -1).some((x) => topLevelComma(x))) return null;
  const first = r.sides[0];
  const label = isLabel(first);
  if (!label && letters(first)) return null;
  if (r.ops.includes('in')) return label && r.ops.length === 1 ? r.sides[1] : null;
  const lastEq = r.ops.lastIndexOf('=');
  // after a side that is not a label (arithmetic: `1 + 1 = 2`), only a value without unknowns (`7 = 11a+c` is an equation)
  if (lastEq >= 0) {
    const value = r.sides[lastEq + 1];
    // a labelled tuple keeps its written order: `(m,b) = (3,-2)` is `(3,-2)`, the order of "Enter the ordered pair
    // (m,b)" that the reference is written in (never re-sorted by the names)
    if (label) return value;
    return letters(value) ? null : value;
  }
  // only \approx: `x \approx 5` is 5; `\frac{70}{9} \approx 7.78` is the exact value before it
  return label ? r.sides[1] : first;
}

/** True when `s` has a letter outside LaTeX commands (an unknown or a word). */
function letters(s: string): boolean {
  return /[a-zA-Z]/.test(s.replace(/\\[a-zA-Z]+/g, ''));
}

/** One side of an interval: its key, and whether it is included. */
interface Bound {
  key: string;
  value: number;
  closed: boolean;
  /** The side as written (to negate it). */
  text: string;
}

/** An interval with its bounds (±Infinity for none). */
interface Interval {
  lo: Bound;
  hi: Bound;
}

const NO_LOWER: Bound = { key: '-inf', value: -Infinity, closed: false, text: '-\\infty' };
const NO_UPPER: Bound = { key: 'inf', value: Infinity, closed: false, text: '\\infty' };

/** What the caller knows of a side: its key and real value when it is a number. */
export type NumberOf = (side: string) => { key: string; value: number } | null;

/** The subject of a one-variable inequality: a name or a function of one (`x`, `a`, `f(x)`, `x_1`), optionally negated. */
function subjectOf(side: string): { name: string; negated: boolean } | null {
  const m = /^(-?)\s*(.+)$/.exec(side.trim());
  if (!m || !isLabel(m[2]) || /[,:/]/.test(m[2])) return null;
  return { name: m[2].replace(/\s+/g, ''), negated: m[1] === '-' };
}

function negate(b: Bound, numberOf: NumberOf): Bound | null {
  if (!Number.isFinite(b.value)) return b.value > 0 ? NO_LOWER : NO_UPPER;
  const text = b.text.startsWith('-') ? b.text.slice(1) : `-${b.text}`;
  const n = numberOf(text);
  return n ? { key: n.key, value: n.value, closed: b.closed, text } : null;
}

/**
 * One chain `a < x <= b`, `x > 3`, `5 \ge x`, `x \ne 2` over one subject: its intervals (two for `\ne`),
 * or `null` when it is not a one-variable inequality with numeric bounds.
 */
function chainIntervals(chain: string, numberOf: NumberOf): { subject: string; intervals: Interval[] } | null {
  const r = splitRelation(chain);
  if (!r || r.ops.some((op) => op === '=' || op === '~' || op === 'in')) return null;
  const subjects = r.sides.map((x) => (numberOf(x) ? null : subjectOf(x)));
  const at = subjects.findIndex((x) => x !== null);
  if (at < 0 || subjects.filter((x) => x !== null).length !== 1) return null;
  const subject = subjects[at] as { name: string; negated: boolean };
  let lo = NO_LOWER;
  let hi = NO_UPPER;
  for (let i = 0; i < r.ops.length; i++) {
    const op = r.ops[i];
    if (i !== at && i + 1 !== at) return null; // a relation between two numbers
    const text = r.sides[i === at ? i + 1 : i];
    const other = numberOf(text);
    if (!other) return null;
    // the relation read as "subject op other"
    const flip: Record<string, Op> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '!=': '!=' };
    const rel = i === at ? op : flip[op];
    const b: Bound = { ...other, closed: rel === '<=' || rel === '>=', text };
    if (rel === '!=') {
      if (r.ops.length !== 1) return null;
      const intervals = [
        { lo: NO_LOWER, hi: { ...b, closed: false } },
        { lo: { ...b, closed: false }, hi: NO_UPPER },
      ];
      return { subject: subject.name, intervals: subject.negated ? [] : intervals };
    }
    if (rel === '<' || rel === '<=') {
      if (hi !== NO_UPPER) return null;
      hi = b;
    } else {
      if (lo !== NO_LOWER) return null;
      lo = b;
    }
  }
  if (subject.negated) {
    const nlo = negate(hi, numberOf);
    const nhi = negate(lo, numberOf);
    if (!nlo || !nhi) return null;
    [lo, hi] = [nlo, nhi];
  }
  if (lo.value > hi.value || (lo.value === hi.value && !(lo.closed && hi.closed))) return null;
  return { subject: subject.name, intervals: [{ lo, hi }] };
}

function intervalKey(iv: Interval): string {
  return `${iv.lo.closed ? '[' : '('}${iv.lo.key},${iv.hi.key}${iv.hi.closed ? ']' : ')'}`;
}

/** The intersection of two intervals, or `null` when it is empty. */
function intersect(a: Interval, b: Interval): Interval | null {
  const lo =
    a.lo.value > b.lo.value ? a.lo : b.lo.value > a.lo.value ? b.lo : { ...a.lo, closed: a.lo.closed && b.lo.closed };
  const hi =
    a.hi.value < b.hi.value ? a.hi : b.hi.value < a.hi.value ? b.hi : { ...a.hi, closed: a.hi.closed && b.hi.closed };
  if (lo.value > hi.value || (lo.value === hi.value && !(lo.closed && hi.closed))) return null;
  return { lo, hi };
}

const OR_RE =
  /\s*(?:\\text\s*\{\s*(?:or|或|или)\s*\}|\\(?:lor|vee)(?![a-zA-Z])|(?<![a-zA-Z\\])or(?![a-zA-Z])|或|(?<![а-яёА-ЯЁ])или(?![а-яёА-ЯЁ])|,|;)\s*/;
const AND_RE = /\s*(?:\\text\s*\{\s*(?:and|且)\s*\}|\\(?:land|wedge)(?![a-zA-Z])|(?<![a-zA-Z\\])and(?![a-zA-Z])|且)\s*/;

/**
 * The key of a one-variable inequality as the interval (or union of intervals) it names, in the
 * format of interval keys (`(0,1)`, `[2,inf)`, `U((-inf,-1) (2,inf))`): `0 < f(x) < 1`, `x \ge 2`,
 * `5 > x`, `-x > -1` (negated subject), `x \ne 3`; parts joined by "or" (`\text{ or }`, `\lor`, a comma)
 * are a union, by "and" (`\land`) an intersection. Every part must bound the same subject by numbers
 * (`numberOf`). `null` for anything else (`f(2) < f(1) < f(4)`, `x < y`, `x^2 < 4`).
 * Math-Verify reads an inequality in one variable as its set (`as_set`) when compared with an interval.
 */
export function inequalityKey(s: string, numberOf: NumberOf): string | null {
  if (!/[<>]|\\(?:le|ge|lt|gt|leq|geq|ne|neq|leqslant|geqslant)(?![a-zA-Z])/.test(s)) return null;
  let subject: string | null = null;
  const union: Interval[] = [];
  for (const disjunct of s.split(OR_RE)) {
    let acc: Interval | null = { lo: NO_LOWER, hi: NO_UPPER };
    let pieces: Interval[] | null = null;
    for (const conjunct of disjunct.split(AND_RE)) {
      const c = chainIntervals(conjunct, numberOf);
      if (!c || (subject !== null && c.subject !== subject)) return null;
      subject = c.subject;
      if (c.intervals.length !== 1) {
        // `x \ne a` is two intervals: only on its own
        if (pieces !== null || disjunct.split(AND_RE).length > 1) return null;
        pieces = c.intervals;
        continue;
      }
      acc = acc && intersect(acc, c.intervals[0]);
      if (!acc) return null;
    }
    union.push(...(pieces ?? [acc as Interval]));
  }
  if (union.length === 0) return null;
  if (union.length === 1) return intervalKey(union[0]);
  return `U(${union.map(intervalKey).sort().join(' ')})`;
}
