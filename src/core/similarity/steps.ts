/**
 * Computation steps of a sample: the arithmetic it writes down, in order ("is this RL sample's
 * reasoning path already among the base model's samples?", docs/similarity.md section 6).
 *
 * A sample is read through the similarity tokenizer (`tokenize.ts`), so every spelling the text
 * similarity ignores is ignored here too: `\dfrac`/`\frac`, `\times`/`\cdot`/`*`/`×`/`·`, `÷`/`\div`,
 * `$`, `\(`, `\[`, `\left`, `\,`, `\text{..}` and `\boxed{..}` wrappers, `1,000`, `52.00`, `\$`.
 *
 * ## What counts as a step
 * A **chain** is a run of numeric expressions joined by `=` or `\approx` (`≈`): `e0 = e1 = ... = ek`.
 * A numeric expression is built from numbers and `+`, `-`, `\times`, `\div`, `/`, `^`, `\frac{a}{b}`,
 * `\sqrt{a}`, parentheses `( )` and braces `{ }`; a number may carry `%` (read as /100) and a unit of
 * up to four words after it (`47\,\text{WPM}`, `10 minutes`, `60 miles/hour`, `5 dollars per hour`:
 * the unit is ignored). A word `x` between two numbers is a multiplication (`3 x 17`, `3x17`).
 * A **step** is an expression with at least one operation (an *operation link*) together with a
 * **written numeric result**, the first of these that applies:
 * 1. the link right after it is a plain number (`156 / 3 = 52`, `47 + 52 + 57 = 156`); a wrong
 *    result is still the sample's step (`consistent: false`);
 * 2. the link right after it is an operation whose first number is this link's value: running
 *    arithmetic written as one chain (`47 + 52 = 99 + 57 = 156` gives `47 + 52 = 99` and `99 + 57 = 156`);
 * 3. a later link of the chain is a plain number (`\frac{47+52+57}{3} = \frac{156}{3} = 52` gives
 *    `(47 + 52 + 57)/3 = 52` and `156/3 = 52`);
 * 4. the link right before it is a plain number (`52 = \frac{156}{3}`).
 * An operation link with none of these (`\text{Average} = \frac{47+52+57}{3}`, nothing computed yet)
 * is not a step; neither is a link without an operation (`x = 5`, `1 hour = 60 minutes`).
 *
 * Not steps: arithmetic in words (`adding 47 and 52 gives 99`), expressions with unknowns
 * (`2x + 3 = 13`: a one-letter word is a variable, never a unit), mixed numbers and implicit
 * multiplication (`3\frac{1}{2}`, `2(3+4)`), `\sqrt[3]{}`, constants (`\pi`). A `-` or `+` that starts a
 * line and is followed by a space is a list bullet, not a sign.
 *
 * ## Reading what is written (issue 32; every rule: docs/similarity.md, "The step reader, rule by rule")
 * A unit stays on its number's line and display-math block (never across a line break, `\\`, `\[`, `\]`,
 * `$$`), never starts with `of`, and may be a rate right after the number (`\$25/\text{hour}`); a repeating
 * decimal (`49.\overline{3}`) is its value; an operator after a line break starts something else; an
 * expression is read whole or not at all (a left side that would be the end of a longer expression, a right
 * side that is only the start of one, are no links); a chain without a left side goes on where its label
 * (`\text{Average} =`) is written again after a line break.
 *
 * ## Same value, same step
 * Two steps are the same when their canonical **keys** are equal. The key is the expression's tree
 * with every number replaced by its value's key (`numberKey` of src/core/answers: the answer
 * equivalence's 12 significant digits, so `52`, `52.0`, `52.00` and `\$52` are one number; `20\%`
 * is `0.2`), sums and products flattened and their operands sorted (`47 + 52 + 57` = `57 + 47 + 52`,
 * `a - b` = `-b + a`, `156 / 3` = `\frac{156}{3}` = `156 \div 3`), then `=` and the result's key.
 * Operands are not merged across steps: `47 + 52 + 57 = 156` and `99 + 57 = 156` are two steps.
 *
 * Untrusted input: any string (or a non-string, read as `''`); no input throws, and the work per
 * relation sign is bounded (a window of {@link MAX_LINK_TOKENS} tokens, nesting depth
 * {@link MAX_DEPTH}).
 */
import { numberKey as answerNumberKey } from '../answers';
import { lexText } from './tokenize';

/** The answer equivalence's `numberKey` (default digits), memoised: steps key the same few numbers over and over. */
const numberKeys = new Map<number, string>();
function numberKey(v: number): string {
  let k = numberKeys.get(v);
  if (k === undefined) {
    k = answerNumberKey(v);
    if (numberKeys.size >= 65536) numberKeys.clear();
    numberKeys.set(v, k);
  }
  return k;
}

/** One computation step of a sample. */
export interface ComputationStep {
  /** Canonical key: equal keys = the same step (module comment). */
  key: string;
  /** The step as written, re-printed: `(47 + 52 + 57)/3 = 52`, `3 × 17 = 51` (numbers as normalised by the tokenizer). */
  display: string;
  /** The written result's value (case 2: the value the next link starts from). */
  result: number;
  /** The expression's value computed from its numbers (IEEE doubles); may be non-finite (`5/0`). */
  computed: number;
  /**
   * Whether the computed value matches the written result: equal keys, or within half a unit of the
   * result's last written decimal (for a result with decimals, or after `\approx`).
   */
  consistent: boolean;
  /**
   * Offsets in the original text (UTF-16 code units, end exclusive): the expression's first token to
   * the result's last number or bracket (a unit word after the result is not part of the span).
   */
  start: number;
  end: number;
}

/** Most tokens an expression to the left of a relation may span (bounds the search on hostile text). */
export const MAX_LINK_TOKENS = 48;
/** Deepest nesting of parentheses, braces and operators the parser follows. */
export const MAX_DEPTH = 32;
/** Most words a unit after a number may have (`miles per hour`, `minutes/hour`). */
const MAX_UNIT_TOKENS = 4;

type Node =
  | { t: 'num'; v: number; s: string; exact?: true }
  | { t: 'sum'; terms: { neg: boolean; n: Node }[] }
  | { t: 'prod'; factors: { inv: boolean; n: Node }[]; frac?: boolean }
  | { t: 'neg'; n: Node }
  | { t: 'pow'; b: Node; e: Node }
  | { t: 'sqrt'; n: Node }
  | { t: 'group'; n: Node };

/** A parsed link: its tree and the token range [from, to). */
interface Link {
  node: Node;
  from: number;
  to: number;
  /** Has at least one operation. */
  op: boolean;
  /** The link is a bare number (possibly signed, with a unit): its value, else null. */
  plain: number | null;
  /** The bare number is written with `%` (`plain` is then the value / 100). */
  percent: boolean;
  /** Decimals written in a plain number (for the rounding tolerance). */
  decimals: number;
}

const LETTERS = /^[\p{L}\p{M}][\p{L}\p{M}']*$/u;

/** A word that can be (part of) a unit: letters, at least two of them (a one-letter word is a variable). */
function isUnitWord(t: string): boolean {
  if (t.length <= 1) return false;
  // ASCII fast path (same answer as LETTERS: ASCII letters are \p{L}, other ASCII is neither \p{L} nor \p{M})
  const c0 = t.charCodeAt(0) | 32;
  if (c0 < 97 || c0 > 122) return t.charCodeAt(0) >= 128 && LETTERS.test(t);
  for (let i = 1; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 128) return LETTERS.test(t);
    const l = c | 32;
    if ((l < 97 || l > 122) && c !== 39) return false;
  }
  return true;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `/^\d+(?:\.\d+)?$/.test(t)` without a regular expression (called for every token the parser looks at). */
function isNumberToken(t: string): boolean {
  const len = t.length;
  let i = 0;
  while (i < len && isDigitCode(t.charCodeAt(i))) i++;
  if (i === 0) return false;
  if (i === len) return true;
  if (t.charCodeAt(i) !== 46 || i + 1 === len) return false;
  for (i++; i < len; i++) if (!isDigitCode(t.charCodeAt(i))) return false;
  return true;
}

/** `/^\d{3}(?:\.\d+)?$/.test(t)`: a group of three digits, with decimals after the last group. */
function isDigitGroup(t: string): boolean {
  if (t.length < 3 || !isDigitCode(t.charCodeAt(0)) || !isDigitCode(t.charCodeAt(1)) || !isDigitCode(t.charCodeAt(2))) {
    return false;
  }
  if (t.length === 3) return true;
  if (t.charCodeAt(3) !== 46 || t.length === 4) return false;
  for (let i = 4; i < t.length; i++) if (!isDigitCode(t.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether an expression can start with token `t` (what `Parser.unary` and `Parser.atom` accept first):
 * a window starting elsewhere does not parse, so it is not tried.
 */
function canStartExpression(t: string): boolean {
  return (
    isDigitCode(t.charCodeAt(0)) || t === '-' || t === '+' || t === '(' || t === '{' || t === '\\frac' || t === '\\sqrt'
  );
}

/** `/^\d{1,3}$/.test(t)`. */
function isShortDigits(t: string): boolean {
  const len = t.length;
  if (len < 1 || len > 3) return false;
  for (let i = 0; i < len; i++) if (!isDigitCode(t.charCodeAt(i))) return false;
  return true;
}

/**
 * What lies between a token and the one before it in the text (`gaps[i]` for token i): {@link GAP_NONE} nothing (the
 * two touch: `10x`, `\frac{1}{2}B`, `50(`), {@link GAP_SPACE} spaces or dropped notation on one line, or
 * {@link GAP_BREAK} a line break, a LaTeX line break `\\`, or a display-math delimiter `\[`, `\]`, `$$`: a unit
 * never reaches across a break, and an expression that stops at a break is whole there.
 */
const GAP_NONE = 0;
const GAP_SPACE = 1;
const GAP_BREAK = 2;

/** The buffer {@link gapKinds} writes to (one per module, grown as needed: the kinds are read only while one text is read). */
let gapBuffer = new Uint8Array(4096);

/**
 * The {@link GAP_NONE} / {@link GAP_SPACE} / {@link GAP_BREAK} kind of the gap before each token, in a buffer reused
 * from text to text (valid until the next call; a chain kept in the memo copies its part).
 */
function gapKinds(text: string, starts: ArrayLike<number>, ends: ArrayLike<number>): Uint8Array {
  const n = starts.length;
  if (gapBuffer.length < n) gapBuffer = new Uint8Array(Math.max(n, gapBuffer.length * 2));
  const out = gapBuffer;
  if (n > 0) out[0] = GAP_BREAK;
  for (let i = 1; i < n; i++) {
    const a = ends[i - 1];
    const b = starts[i];
    if (a >= b) {
      out[i] = GAP_NONE;
      continue;
    }
    // the usual gap: one space
    if (b - a === 1 && text.charCodeAt(a) === 32) {
      out[i] = GAP_SPACE;
      continue;
    }
    let kind = GAP_SPACE;
    for (let k = a; k < b; k++) {
      const c = text.charCodeAt(k);
      if (c === 10 || c === 13) {
        kind = GAP_BREAK;
        break;
      }
      // `\[`, `\]`, `\\`, `$$`
      const d = text.charCodeAt(k + 1);
      if ((c === 92 && k + 1 < b && (d === 91 || d === 93 || d === 92)) || (c === 36 && d === 36 && k + 1 < b)) {
        kind = GAP_BREAK;
        break;
      }
    }
    out[i] = kind;
  }
  return out;
}

/** A one-letter word: a variable (`x`, `B`), never a unit. */
function isVariable(t: string): boolean {
  if (t.length !== 1) return false;
  const c = t.charCodeAt(0) | 32;
  return (c >= 97 && c <= 122) || (t.charCodeAt(0) >= 128 && LETTERS.test(t));
}

/** Operators that join a following operand: an expression before one of them goes on. */
const BINARY = new Set(['\\times', '\\div', '/', '^']);

/**
 * The value of a repeating decimal: integer part `int`, decimals `dec` before the repeating digits `rep`
 * (`49.\overline{3}`: `49`, ``, `3`; `0.1\overline{6}`: `0`, `1`, `6`): (int dec rep - int dec) / ((10^|rep| - 1) 10^|dec|).
 */
function repeatingValue(int: string, dec: string, rep: string): number {
  return (Number(int + dec + rep) - Number(int + dec)) / ((10 ** rep.length - 1) * 10 ** dec.length);
}

/** Parser over the tokens of one text (recursive descent; every method returns null on failure). */
class Parser {
  pos = 0;
  depth = 0;
  /** The highest token index read so far (what a chain's result depends on; see {@link ChainMemo}). */
  maxRead = -1;
  constructor(
    private readonly toks: readonly string[],
    private end: number,
    /** {@link gapKinds} of the tokens. */
    private readonly gaps: Uint8Array,
  ) {}

  /** The gap kind before the token at `pos + o` (the end of the text: a break). */
  private gapAt(o = 0): number {
    const i = this.pos + o;
    return i < this.end ? this.gaps[i] : GAP_BREAK;
  }

  reset(from: number, end: number): void {
    this.pos = from;
    this.end = end;
    this.depth = 0;
  }

  private peek(o = 0): string | undefined {
    const i = this.pos + o;
    if (i >= this.end) return undefined;
    if (i > this.maxRead) this.maxRead = i;
    return this.toks[i];
  }

  /** A word `x` used as multiplication: between two numbers (or a closing bracket and a number/opening bracket). */
  private isTimesX(): boolean {
    if (this.peek() !== 'x') return false;
    const next = this.peek(1);
    return next !== undefined && (isNumberToken(next) || next === '(');
  }

  expr(): Node | null {
    if (++this.depth > MAX_DEPTH) return null;
    const first = this.product();
    if (!first) return null;
    const terms: { neg: boolean; n: Node }[] = [{ neg: false, n: first }];
    for (;;) {
      const t = this.peek();
      // an operator that starts a line starts something else (a `- ` bullet, a new equation)
      if ((t !== '+' && t !== '-') || this.gapAt() === GAP_BREAK) break;
      const save = this.pos;
      this.pos++;
      const n = this.product();
      if (!n) {
        this.pos = save;
        break;
      }
      terms.push({ neg: t === '-', n });
    }
    this.depth--;
    return terms.length === 1 ? first : { t: 'sum', terms };
  }

  private product(): Node | null {
    const first = this.unary();
    if (!first) return null;
    const factors: { inv: boolean; n: Node }[] = [{ inv: false, n: first }];
    for (;;) {
      const t = this.peek();
      const times = t === '\\times' || this.isTimesX();
      if ((!times && t !== '\\div' && t !== '/') || this.gapAt() === GAP_BREAK) break;
      const save = this.pos;
      this.pos++;
      const n = this.unary();
      if (!n) {
        this.pos = save;
        break;
      }
      factors.push({ inv: !times, n });
    }
    return factors.length === 1 ? first : { t: 'prod', factors };
  }

  private unary(): Node | null {
    const t = this.peek();
    if (t === '-' || t === '+') {
      if (++this.depth > MAX_DEPTH) return null;
      this.pos++;
      const n = this.unary();
      this.depth--;
      if (!n) return null;
      if (t === '+') return n;
      return n.t === 'num' ? { t: 'num', v: -n.v, s: `-${n.s}` } : { t: 'neg', n };
    }
    return this.power();
  }

  private power(): Node | null {
    const b = this.atom();
    if (!b) return null;
    if (this.peek() !== '^') return b;
    const save = this.pos;
    this.pos++;
    const e = this.unary();
    if (!e) {
      this.pos = save;
      return b;
    }
    return { t: 'pow', b, e };
  }

  /** `{ expr }` (for \frac and \sqrt arguments). */
  private braced(): Node | null {
    if (this.peek() !== '{') return null;
    this.pos++;
    const n = this.expr();
    if (!n || this.peek() !== '}') return null;
    this.pos++;
    return n;
  }

  private atom(): Node | null {
    const t = this.peek();
    if (t === undefined) return null;
    if (isNumberToken(t)) {
      this.pos++;
      let v = Number(t);
      let s = t;
      let exact: true | undefined;
      // a repeating decimal, `49.\overline{3}` or `0.1\overline{6}`: its value
      const dot = t.includes('.') ? 0 : 1;
      const rep = this.peek(dot + 2);
      if (
        (dot === 0 || (this.peek() === '.' && this.gapAt() === GAP_NONE)) &&
        this.peek(dot) === '\\overline' &&
        this.gapAt(dot) === GAP_NONE &&
        this.peek(dot + 1) === '{' &&
        rep !== undefined &&
        /^\d+$/.test(rep) &&
        this.peek(dot + 3) === '}'
      ) {
        const [int, dec = ''] = t.split('.');
        v = repeatingValue(int, dec, rep);
        s = `${int}.${dec}(${rep})`;
        exact = true;
        this.pos += dot + 4;
      }
      if (this.peek() === '%') {
        this.pos++;
        v /= 100;
        s += '%';
      }
      this.skipUnit();
      return exact ? { t: 'num', v, s, exact } : { t: 'num', v, s };
    }
    if (t === '(' || t === '{') {
      if (++this.depth > MAX_DEPTH) return null;
      this.pos++;
      const n = this.expr();
      this.depth--;
      if (!n || this.peek() !== (t === '(' ? ')' : '}')) return null;
      this.pos++;
      return { t: 'group', n };
    }
    if (t === '\\frac') {
      if (++this.depth > MAX_DEPTH) return null;
      this.pos++;
      const a = this.braced();
      const b = a && this.braced();
      this.depth--;
      if (!a || !b) return null;
      this.skipUnit();
      return {
        t: 'prod',
        factors: [
          { inv: false, n: a },
          { inv: true, n: b },
        ],
        frac: true,
      };
    }
    if (t === '\\sqrt') {
      if (++this.depth > MAX_DEPTH) return null;
      this.pos++;
      const a = this.braced();
      this.depth--;
      return a ? { t: 'sqrt', n: a } : null;
    }
    return null;
  }

  /**
   * Skips a unit after a number: up to four words (not one-letter ones), joined by `/` or `per`, or
   * words in parentheses (`4 (blue)`, `\$10,\!000 (\text{plane})`); a rate right after the number
   * (`\$25/\text{hour}`: `/` and a word). A unit is on its number's line and in its display-math block (it
   * stops at a {@link GAP_BREAK}), and does not start with `of` (`\frac{1}{2} of Valerie's earnings` is a
   * share of a quantity, not a number with a unit).
   */
  private skipUnit(): void {
    let taken = 0;
    let expectWord = false;
    while (taken < MAX_UNIT_TOKENS) {
      const t = this.peek();
      if (t === undefined || this.gapAt() === GAP_BREAK) break;
      if (taken === 0 && !expectWord && t === 'of') break;
      if (t === '(' && !expectWord) {
        let k = 1;
        while (
          k <= MAX_UNIT_TOKENS &&
          this.peek(k) !== undefined &&
          this.gapAt(k) !== GAP_BREAK &&
          isUnitWord(this.peek(k)!)
        )
          k++;
        if (k > 1 && this.peek(k) === ')' && this.gapAt(k) !== GAP_BREAK) {
          this.pos += k + 1;
          taken += k - 1;
          continue;
        }
        break;
      }
      if (t === '/' && !expectWord) {
        const w = this.peek(1);
        if (w !== undefined && this.gapAt(1) !== GAP_BREAK && isUnitWord(w)) {
          this.pos++;
          expectWord = true;
          continue;
        }
        break;
      }
      if (!isUnitWord(t)) break;
      this.pos++;
      taken++;
      expectWord = false;
    }
  }
}

function hasOp(n: Node): boolean {
  return n.t !== 'num' && !(n.t === 'group' && !hasOp(n.n));
}

function evaluate(n: Node): number {
  switch (n.t) {
    case 'num':
      return n.v;
    case 'group':
      return evaluate(n.n);
    case 'neg':
      return -evaluate(n.n);
    case 'sqrt':
      return Math.sqrt(evaluate(n.n));
    case 'pow':
      return evaluate(n.b) ** evaluate(n.e);
    case 'sum': {
      let s = 0;
      for (const x of n.terms) s += x.neg ? -evaluate(x.n) : evaluate(x.n);
      return s;
    }
    case 'prod': {
      let p = 1;
      for (const x of n.factors) p = x.inv ? p / evaluate(x.n) : p * evaluate(x.n);
      return p;
    }
  }
}

/** The first number of an expression as written (for running arithmetic), or null. */
function firstNumber(n: Node): number | null {
  switch (n.t) {
    case 'num':
      return n.v;
    case 'group':
    case 'neg':
    case 'sqrt':
      return n.t === 'neg' ? null : firstNumber(n.n);
    case 'pow':
      return firstNumber(n.b);
    case 'sum':
      return n.terms[0].neg ? null : firstNumber(n.terms[0].n);
    case 'prod':
      return firstNumber(n.factors[0].n);
  }
}

/** Canonical key of a tree (module comment): flattened, operands sorted, numbers by value. */
function keyOf(n: Node): string {
  switch (n.t) {
    case 'num':
      return numberKey(n.v);
    case 'group':
      return keyOf(n.n);
    case 'neg':
      return `-(${keyOf(n.n)})`;
    case 'sqrt':
      return `sqrt(${keyOf(n.n)})`;
    case 'pow':
      return `pow(${keyOf(n.b)},${keyOf(n.e)})`;
    case 'sum': {
      const parts: string[] = [];
      const add = (x: Node, neg: boolean) => {
        const inner = x.t === 'group' ? x.n : x;
        if (inner.t === 'sum') for (const y of inner.terms) add(y.n, neg !== y.neg);
        else parts.push(`${neg ? '-' : '+'}${keyOf(inner)}`);
      };
      for (const x of n.terms) add(x.n, x.neg);
      return `s[${parts.sort().join(',')}]`;
    }
    case 'prod': {
      const parts: string[] = [];
      const mul = (x: Node, inv: boolean) => {
        const inner = x.t === 'group' ? x.n : x;
        if (inner.t === 'prod') for (const y of inner.factors) mul(y.n, inv !== y.inv);
        else parts.push(`${inv ? '/' : '*'}${keyOf(inner)}`);
      };
      for (const x of n.factors) mul(x.n, x.inv);
      return `p[${parts.sort().join(',')}]`;
    }
  }
}

/** Re-printed expression for display: `(47 + 52 + 57)/3`, `3 × 17`, `√(16)`. */
function show(n: Node, parentPrec = 0): string {
  const wrap = (s: string, prec: number) => (prec < parentPrec ? `(${s})` : s);
  switch (n.t) {
    case 'num':
      return n.s;
    case 'group':
      return show(n.n, parentPrec);
    case 'neg':
      return wrap(`-${show(n.n, 3)}`, 3);
    case 'sqrt':
      return `√(${show(n.n)})`;
    case 'pow':
      return wrap(`${show(n.b, 4)}^${show(n.e, 4)}`, 4);
    case 'sum':
      return wrap(
        n.terms.map((x, i) => `${i === 0 ? (x.neg ? '-' : '') : x.neg ? ' - ' : ' + '}${show(x.n, 2)}`).join(''),
        1,
      );
    case 'prod':
      if (n.frac) return wrap(`${show(n.factors[0].n, 3)}/${show(n.factors[1].n, 3)}`, 2);
      return wrap(
        n.factors.map((x, i) => `${i === 0 ? '' : x.inv ? ' / ' : ' × '}${show(x.n, x.inv ? 3 : 2)}`).join(''),
        2,
      );
  }
}

/** Decimals written in a number token (`49.33` -> 2). */
function decimalsOf(s: string): number {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

function isRelation(t: string): boolean {
  return t === '=' || t === '\\approx';
}

/** Tokens that end the search for an expression to the left of a relation (punctuation, other relations). */
const STOP = new Set([
  '.',
  ',',
  ':',
  ';',
  '!',
  '?',
  '=',
  '\\approx',
  '<',
  '>',
  '\\le',
  '\\ge',
  '\\ne',
  '\\to',
  '\\dots',
]);

/**
 * The computation steps of a text, in text order, one entry per occurrence (a step written twice is
 * listed twice; {@link computationPath} keeps the first). Rules: the module comment.
 *
 * @param text sample text (untrusted; a non-string is read as `''`).
 */
export function extractSteps(text: string): ComputationStep[] {
  const { toks, starts, ends } = lexText(text);
  return stepsFromTokens(typeof text === 'string' ? text : '', toks, starts, ends);
}

/** The text between two digit tokens that makes them one number: `1,\\!000`, `1{,}000`, `1\\,000`, `1\\!000`. */
const THOUSANDS_GAP = /^(?:\{,\}|,?\s*\\[!,]\s*)$/;

/**
 * Joins digit groups the tokenizer leaves apart because LaTeX spacing sits between them
 * (`8,\\!096` -> `8096`; the answer equivalence reads them so too). Copies the arrays only when it joins.
 */
function joinThousands(
  text: string,
  toks: readonly string[],
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
): { toks: readonly string[]; starts: ArrayLike<number>; ends: ArrayLike<number> } {
  let out: { toks: string[]; starts: number[]; ends: number[] } | null = null;
  const T = toks.length;
  for (let i = 0; i < T; i++) {
    let t = toks[i];
    let end = ends[i];
    let j = i;
    if (isShortDigits(t)) {
      // the next digit token after `,` `{` `}` tokens, when the original text between is a thousands gap
      for (;;) {
        let k = j + 1;
        while (k < T && k - j <= 3 && (toks[k] === ',' || toks[k] === '{' || toks[k] === '}')) k++;
        if (k >= T || !isDigitGroup(toks[k]) || !THOUSANDS_GAP.test(text.slice(ends[j], starts[k]))) break;
        t += toks[k];
        end = ends[k];
        j = k;
        if (toks[k].includes('.')) break;
      }
    }
    if (j > i && !out) {
      out = {
        toks: toks.slice(0, i),
        starts: Array.prototype.slice.call(starts, 0, i),
        ends: Array.prototype.slice.call(ends, 0, i),
      };
    }
    if (out) {
      out.toks.push(t);
      out.starts.push(starts[i]);
      out.ends.push(end);
    }
    i = j;
  }
  return out ?? { toks, starts, ends };
}

/** A step of a chain, its token span relative to the chain's window start (what {@link ChainMemo} keeps). */
interface ChainStep {
  key: string;
  display: string;
  result: number;
  computed: number;
  consistent: boolean;
  fromRel: number;
  endRel: number;
}

/**
 * The outcome of the chain at one relation sign, with everything it was computed from: the tokens of its
 * window `[lo, lo + toks.length)` (every token the search and the parser read), the relation's and the left
 * expression's end relative to `lo`, whether each `-`/`+` of the left window is a list bullet, and how the
 * end of the text bounded the parser (`tRel`, with `reachRel` the furthest the parser could have looked).
 */
interface ChainMemoEntry {
  toks: string[];
  /** The {@link gapKinds} of those tokens (a unit, a continuation, depend on them). */
  gaps: Uint8Array;
  /**
   * The two tokens before the window (undefined before the text's start) and the gap before the first of them
   * (+4 when it is a bullet): whether the left side goes on before the window depends on them.
   */
  prev: string | undefined;
  prev2: string | undefined;
  prevGap: number;
  rRel: number;
  leftEndRel: number;
  bullets: string;
  reachRel: number;
  tRel: number;
  /** The last relation of the chain, relative to `lo` (the next chain starts after it). */
  atRel: number;
  steps: ChainStep[];
}

/**
 * Chains already parsed, by a hash of the tokens from the left window's start to the relation sign. The texts of one
 * problem write the same equations over and over (`31 \\times 3 = 93` in most samples), so a chain is looked up
 * before it is parsed; an entry is used only when every token it was computed from is the same (compared one by
 * one), so the steps are those the parser would give. Bounded: cleared at {@link CHAIN_MEMO_MAX} keys or
 * {@link CHAIN_MEMO_MAX_ENTRIES} entries.
 */
const chainMemo = new Map<number, ChainMemoEntry[]>();
const CHAIN_MEMO_MAX = 80000;
/**
 * Most entries (different right-hand sides) kept per key. A problem's samples write one left-hand side with many
 * right-hand sides (`3(57)^2 + 12(57) - 40 = ...` with each sample's numbers): keyed by the left-hand side alone,
 * with 8 per key, 86% of the chains parsed in a generated 1024 x 1024 problem were parsed again because their
 * key's list was full; the key now includes the two tokens after the relation.
 */
const CHAIN_MEMO_PER_KEY = 8;
/** Most entries in all (the memory bound before: 20000 keys x 8 entries). */
const CHAIN_MEMO_MAX_ENTRIES = 160000;
let chainMemoEntries = 0;

/** Forgets the chains kept by the step extraction (tests: a result computed with nothing kept). */
export function clearChainMemo(): void {
  chainMemo.clear();
  chainMemoEntries = 0;
}

/**
 * Reads the chains of one text's tokens (see {@link stepsFromTokens}): the parser, the text's gaps, and the rules
 * that say where an expression, a unit or a chain ends (docs/similarity.md section 6).
 */
class ChainReader {
  readonly T: number;
  readonly gaps: Uint8Array;
  readonly p: Parser;
  constructor(
    readonly text: string,
    readonly toks: readonly string[],
    readonly starts: ArrayLike<number>,
    readonly ends: ArrayLike<number>,
  ) {
    this.T = toks.length;
    this.gaps = gapKinds(text, starts, ends);
    this.p = new Parser(toks, this.T, this.gaps);
  }

  /** A line-start `-`/`+` followed by a space: a Markdown bullet, not a sign. */
  isBullet(i: number): boolean {
    if (this.toks[i] !== '-' && this.toks[i] !== '+') return false;
    const after = this.text.charCodeAt(this.ends[i]);
    if (after !== 32 && after !== 9) return false;
    for (let k = this.starts[i] - 1; k >= 0; k--) {
      const c = this.text.charCodeAt(k);
      if (c === 10 || c === 13) return true;
      if (c !== 32 && c !== 9) return false;
    }
    return true;
  }
  /** Index of the relation at i (`=`, `\\approx`, or either after an alignment `&`), else -1. */
  relationAt(i: number): number {
    if (i >= this.T) return -1;
    if (i > this.p.maxRead) this.p.maxRead = i;
    if (isRelation(this.toks[i])) return i;
    if (this.toks[i] !== '&' || i + 1 >= this.T) return -1;
    if (i + 1 > this.p.maxRead) this.p.maxRead = i + 1;
    return isRelation(this.toks[i + 1]) ? i + 1 : -1;
  }
  parseLink(from: number, end: number): Link | null {
    this.p.reset(from, end);
    const node = this.p.expr();
    if (!node) return null;
    const op = hasOp(node);
    const plainNode = node.t === 'group' ? node.n : node;
    const num = !op && plainNode.t === 'num' ? plainNode : null;
    return {
      node,
      from,
      to: this.p.pos,
      op,
      plain: num ? num.v : null,
      percent: !!num && num.s.endsWith('%'),
      // a repeating decimal is exact: no rounding tolerance
      decimals: num ? (num.exact ? 12 : decimalsOf(num.s.replace(/^-|%$/g, ''))) : 0,
    };
  }
  /** Whether token i ends an operand: a number, `)`, `}`, `%` or a variable (what an operator after it applies to). */
  endsOperand(i: number): boolean {
    const t = this.toks[i];
    return isNumberToken(t) || t === ')' || t === '}' || t === '%' || isVariable(t);
  }
  /**
   * Whether an expression starting at token s would be the end of a longer one written before it on the same
   * line: after `^`, or after an operator that follows an operand (`\left( \frac{4}{12} \right) \times 100`; not a Markdown
   * `*` after a label, `*Distance:* 20`, nor a `-`/`+` bullet), after a number or a `)` (`3\,\frac{2}{3}`, a
   * mixed number; `2(5000 + 2500)`), inside a command's arguments (the `{2}` of `2\frac{1}{2}` or `\sqrt{2}`), or
   * after a variable it touches. Such a start is no left side of a chain.
   */
  continuesBefore(s: number): boolean {
    if (s === 0 || this.gaps[s] === GAP_BREAK) return false;
    const t = this.toks[s - 1];
    // an exponent is never a whole left side (`AD^2 = 625 - 49`)
    if (t === '^') return true;
    if (BINARY.has(t) || ((t === '-' || t === '+') && !this.isBullet(s - 1)))
      return s >= 2 && this.gaps[s - 1] !== GAP_BREAK && this.endsOperand(s - 2);
    if (isNumberToken(t) || t === ')') return true;
    // an argument of a command (`\\frac{1}{2}`'s `{1}` and `{2}`, `\\sqrt{2}`'s `{2}`), not `\\begin{aligned} 47`
    if ((t === '}' || t === '\\frac' || t === '\\sqrt') && this.toks[s] === '{') return true;
    return this.gaps[s] === GAP_NONE && isVariable(t);
  }
  /**
   * Whether the expression that ends before token i goes on after it on the same line, so that what was read is
   * only its start: an operator before an operand (`5 \times 10 \times (1 + x)` read up to the second `\times`,
   * `120 + 10x`), a number or `\frac`/`\sqrt` (`8\,\frac{1}{3}`, a mixed number), or a variable or `(` it touches
   * (`\frac{1}{2}B`, `50(1 + x)`). Such a link is no link of a chain, unless it ends in a unit's words (reads
   * `p.maxRead` up to i + 1).
   */
  continuesAfter(i: number): boolean {
    if (i >= this.T || this.gaps[i] === GAP_BREAK) return false;
    if (i + 1 > this.p.maxRead) this.p.maxRead = Math.min(i + 1, this.T - 1);
    const t = this.toks[i];
    if (isNumberToken(t) || t === '\\frac' || t === '\\sqrt') return true;
    if (BINARY.has(t) || t === '-' || t === '+') {
      const next = this.toks[i + 1];
      return next !== undefined && this.gaps[i + 1] !== GAP_BREAK && (canStartExpression(next) || isVariable(next));
    }
    return this.gaps[i] === GAP_NONE && (t === '(' || isVariable(t));
  }
  /** The chain at relation r whose left window is [lo, leftEnd): its steps and last relation (not memoised). */
  parseChain(r: number, lo: number, leftEnd: number, bullets: string): ChainMemoEntry {
    this.p.maxRead = r;
    let left: Link | null = null;
    for (let s = lo; s < leftEnd && !left; s++) {
      if (!canStartExpression(this.toks[s]) || this.isBullet(s) || this.continuesBefore(s)) continue;
      const l = this.parseLink(s, leftEnd);
      if (l && l.to === leftEnd) left = l;
    }
    const links: Link[] = left ? [left] : [];
    /** rels[j]: the relation sign before links[j] (index 0 unused with a left link). */
    const rels: string[] = left ? [''] : [];
    // without a left side, the words that start the line before the relation are the chain's label (`\text{Average} = ...`)
    const labelFrom = left ? -1 : this.labelStart(lo, leftEnd);
    const label = labelFrom < 0 ? 0 : leftEnd - labelFrom;
    let at = r;
    let lastParseAt = r;
    // the links to the right, while each ends exactly at the next relation
    for (;;) {
      lastParseAt = at;
      const l = this.parseLink(at + 1, Math.min(this.T, at + 1 + MAX_LINK_TOKENS));
      if (!l) break;
      let nextRel = this.relationAt(l.to);
      // the same label on the next line goes on with the chain (`Average = \frac{156}{3}` then `Average = 52`)
      if (nextRel < 0 && label > 0 && this.sameLabel(labelFrom, l.to, label)) nextRel = this.relationAt(l.to + label);
      // the start of a longer expression (`= 5 \times 10 \times (1 + x)`, `= \frac{1}{2}B`): not a link; a link
      // that ends in a unit's words ended there (`= 22 students and 11 parents`)
      if (nextRel < 0 && withoutUnit(this.toks, l.from, l.to - 1) === l.to - 1 && this.continuesAfter(l.to)) break;
      rels.push(this.toks[at]);
      links.push(l);
      if (nextRel < 0) {
        at = l.to;
        break;
      }
      at = nextRel;
    }
    const steps: ChainStep[] = [];
    if (links.length >= 2) {
      for (let i = 0; i < links.length; i++) {
        const step = stepOf(links, rels, i);
        if (!step) continue;
        steps.push({
          key: step.key,
          display: step.display,
          result: step.result,
          computed: step.computed,
          consistent: step.consistent,
          fromRel: step.fromTok - lo,
          endRel: withoutUnit(this.toks, step.fromTok, step.toTok) - lo,
        });
      }
    }
    // the parser never reads past lastParseAt + 1 + MAX_LINK_TOKENS (+ 1 for an `&` before a relation)
    const reachRel = lastParseAt + MAX_LINK_TOKENS + 3 - lo;
    const upto = Math.max(this.p.maxRead, leftEnd - 1) + 1;
    return {
      toks: this.toks.slice(lo, upto),
      gaps: this.gaps.slice(lo, upto),
      prev: this.toks[lo - 1],
      prev2: this.toks[lo - 2],
      prevGap: this.prevGapOf(lo),
      rRel: r - lo,
      leftEndRel: leftEnd - lo,
      bullets,
      reachRel,
      tRel: Math.min(this.T - lo, reachRel),
      atRel: at - lo,
      steps,
    };
  }
  /**
   * Where the label of a relation at `end` starts: 1 to 4 words (`Total Revenue`, or a variable `x`) right before it
   * that start the window [lo, end) or a line (`\\text{Average} = ...` at the start of a display block); -1: none.
   */
  labelStart(lo: number, end: number): number {
    let k = end;
    while (k > lo && end - k < MAX_UNIT_TOKENS && (isUnitWord(this.toks[k - 1]) || isVariable(this.toks[k - 1]))) k--;
    return k < end && (k === lo || this.gaps[k] === GAP_BREAK) ? k : -1;
  }
  /** Whether the `n` tokens at i, after a line break, are the label at `from` (reads `p.maxRead` up to i + n). */
  sameLabel(from: number, i: number, n: number): boolean {
    if (i + n >= this.T || this.gaps[i] !== GAP_BREAK) return false;
    if (i + n > this.p.maxRead) this.p.maxRead = i + n;
    for (let k = 0; k < n; k++)
      if (this.toks[i + k] !== this.toks[from + k] || (k > 0 && this.gaps[i + k] === GAP_BREAK)) return false;
    return true;
  }
  /** The gap before the token before a window starting at lo, +4 when that token is a bullet (memo entries compare it). */
  prevGapOf(lo: number): number {
    return lo > 0 ? this.gaps[lo - 1] + (this.isBullet(lo - 1) ? 4 : 0) : GAP_BREAK;
  }
  /** Whether the `.` at i is the point of a repeating decimal (`49.\\overline{3}`), not a full stop. */
  repeatingDot(i: number): boolean {
    return (
      this.toks[i] === '.' &&
      this.toks[i + 1] === '\\overline' &&
      this.gaps[i] === GAP_NONE &&
      this.gaps[i + 1] === GAP_NONE
    );
  }
  /** Whether a memo entry was computed from the same tokens as the chain at r with window start lo. */
  sameChain(e: ChainMemoEntry, r: number, lo: number, leftEnd: number, bullets: string): boolean {
    if (e.rRel !== r - lo || e.leftEndRel !== leftEnd - lo || e.bullets !== bullets) return false;
    if (Math.min(this.T - lo, e.reachRel) !== e.tRel || lo + e.toks.length > this.T) return false;
    const et = e.toks;
    // the tokens after the relation first: the entries of one key differ there (their left sides hash alike)
    for (let k = e.rRel + 1; k < et.length; k++) if (et[k] !== this.toks[lo + k]) return false;
    for (let k = 0; k <= e.rRel && k < et.length; k++) if (et[k] !== this.toks[lo + k]) return false;
    if (e.prev !== this.toks[lo - 1] || e.prev2 !== this.toks[lo - 2] || e.prevGap !== this.prevGapOf(lo)) return false;
    const eg = e.gaps;
    for (let k = 0; k < eg.length; k++) if (eg[k] !== this.gaps[lo + k]) return false;
    return true;
  }
}

/**
 * {@link extractSteps} on tokens already produced by `lexForSimilarity` for `text` (the similarity
 * index lexes each sample once and reuses its tokens).
 */
export function stepsFromTokens(
  text: string,
  rawToks: readonly string[],
  rawStarts: ArrayLike<number>,
  rawEnds: ArrayLike<number>,
): ComputationStep[] {
  const out: ComputationStep[] = [];
  // cheap exit: no relation sign, no step
  let anyRelation = false;
  for (let i = 0; i < rawToks.length && !anyRelation; i++) anyRelation = isRelation(rawToks[i]);
  if (!anyRelation) return out;
  const { toks, starts, ends } = joinThousands(text, rawToks, rawStarts, rawEnds);
  const T = toks.length;
  const reader = new ChainReader(text, toks, starts, ends);
  let consumed = 0; // tokens before this index belong to an earlier chain
  for (let r = 0; r < T; r++) {
    if (!isRelation(toks[r]) || r < consumed) continue;
    // the expression left of the first relation: the longest window ending exactly at r (or at its `&`) that parses
    const leftEnd = r > 0 && toks[r - 1] === '&' ? r - 1 : r;
    let lo = leftEnd;
    while (lo > consumed && leftEnd - lo < MAX_LINK_TOKENS && (!STOP.has(toks[lo - 1]) || reader.repeatingDot(lo - 1)))
      lo--;
    let bullets = '';
    for (let s = lo; s < leftEnd; s++) {
      if (toks[s] === '-' || toks[s] === '+') bullets += reader.isBullet(s) ? '1' : '0';
    }
    // the memo key: a hash of the tokens [lo, r + 2] (length, first, middle and last character of each; equal keys
    // are only candidates: sameChain compares every token the entry was computed from). The two tokens after the
    // relation tell apart the right-hand sides one left-hand side is written with (each sample's numbers).
    let key = Math.imul(0x811c9dc5 ^ (r - lo), 0x01000193);
    const keyEnd = Math.min(r + 2, T - 1);
    for (let k = lo; k <= keyEnd; k++) {
      const t = toks[k];
      const n = t.length;
      key = Math.imul(key ^ n, 0x01000193);
      key = Math.imul(key ^ t.charCodeAt(0), 0x01000193);
      key = Math.imul(key ^ t.charCodeAt(n >>> 1), 0x01000193);
      key = Math.imul(key ^ t.charCodeAt(n - 1), 0x01000193);
    }
    let list = chainMemo.get(key);
    let chain: ChainMemoEntry | undefined;
    if (list) {
      for (const e of list) {
        if (reader.sameChain(e, r, lo, leftEnd, bullets)) {
          chain = e;
          break;
        }
      }
    }
    if (!chain) {
      chain = reader.parseChain(r, lo, leftEnd, bullets);
      if (chainMemoEntries >= CHAIN_MEMO_MAX_ENTRIES || (!list && chainMemo.size >= CHAIN_MEMO_MAX)) {
        clearChainMemo();
        list = undefined;
      }
      if (!list) {
        list = [];
        chainMemo.set(key, list);
      }
      if (list.length < CHAIN_MEMO_PER_KEY) {
        list.push(chain);
        chainMemoEntries++;
      }
    }
    consumed = Math.max(lo + chain.atRel, r + 1);
    for (const st of chain.steps) {
      // the fields in the order of ComputationStep, without object rest/spread (slow in this loop)
      out.push({
        key: st.key,
        display: st.display,
        result: st.result,
        computed: st.computed,
        consistent: st.consistent,
        start: starts[lo + st.fromRel],
        end: ends[lo + st.endRel],
      });
    }
  }
  return out;
}

/**
 * The last token of a span [from, to] without a unit after its last number: unit words, `/` and
 * `per` between them, words in parentheses (`470 words (WPM)` ends at `470`).
 */
function withoutUnit(toks: readonly string[], from: number, to: number): number {
  let t = to;
  while (t > from) {
    const tok = toks[t];
    if (isUnitWord(tok) || tok === '/') t--;
    else if (tok === ')') {
      let k = t - 1;
      while (k > from && isUnitWord(toks[k])) k--;
      if (k === t - 1 || toks[k] !== '(') break;
      t = k - 1;
    } else break;
  }
  return t;
}

/** Whether `computed` matches a written value: equal keys, or within half a unit of its last decimal when rounding is allowed. */
function matches(computed: number, value: number, decimals: number, rounded: boolean): boolean {
  if (numberKey(computed) === numberKey(value)) return true;
  const tolerance = rounded ? 0.5 * 10 ** -decimals : 0;
  return Number.isFinite(computed) && Math.abs(computed - value) <= tolerance + 1e-9 * Math.abs(value);
}

/**
 * The step of operation link i of a chain (rules 1-4 of the module comment), with its token span,
 * or null when link i is not an operation or has no written result.
 */
function stepOf(
  links: readonly Link[],
  rels: readonly string[],
  i: number,
): (ComputationStep & { fromTok: number; toTok: number }) | null {
  const L = links[i];
  if (!L.op) return null;
  const computed = evaluate(L.node);
  const next = links[i + 1];
  let res: Link | undefined;
  let approx = false;
  let running: number | null = null;
  if (next && next.plain !== null) {
    res = next;
    approx = rels[i + 1] === '\\approx';
  } else if (next?.op && (running = firstNumber(next.node)) !== null && matches(computed, running, 0, false)) {
    res = next;
  } else {
    running = null;
    const j = links.findIndex((x, k) => k > i && x.plain !== null);
    if (j > i) {
      res = links[j];
      for (let k = i + 1; k <= j; k++) if (rels[k] === '\\approx') approx = true;
    } else if (i > 0 && links[i - 1].plain !== null) res = links[i - 1];
  }
  if (!res) return null;
  let result: number;
  let consistent: boolean;
  if (running !== null) {
    result = running;
    consistent = true;
  } else {
    // a written `%` result: its value (/100) when the computation gives it (`1/5 = 20%` is 0.2), else the
    // number as written, as the answer equivalence reads `50\\%` (`6/12 × 100 = 50%` is 50)
    const rounded = res.decimals > 0 || approx;
    const asValue = res.plain!;
    if (res.percent && !matches(computed, asValue, res.decimals + 2, rounded)) result = asValue * 100;
    else result = asValue;
    consistent = matches(
      computed,
      result,
      res.percent && result === asValue ? res.decimals + 2 : res.decimals,
      rounded,
    );
  }
  const resultText = running !== null ? numberKey(running) : show(res.node);
  return {
    key: `${keyOf(L.node)}=${numberKey(result)}`,
    display: `${show(L.node)} ${approx ? '≈' : '='} ${resultText}`,
    result,
    computed,
    consistent,
    start: 0,
    end: 0,
    fromTok: Math.min(L.from, res.from),
    toTok: running !== null ? res.from : Math.max(L.to, res.to) - 1,
  };
}

/** A sample's computation path: its distinct steps in order of first occurrence. */
export interface ComputationPath {
  /** Distinct step keys, in order of first occurrence. */
  keys: string[];
  /** The first occurrence of each key (same order as `keys`). */
  steps: ComputationStep[];
}

/** Distinct steps of a list of step occurrences, first occurrence first. */
export function pathOfSteps(steps: readonly ComputationStep[]): ComputationPath {
  const seen = new Set<string>();
  const out: ComputationPath = { keys: [], steps: [] };
  for (const s of steps) {
    if (seen.has(s.key)) continue;
    seen.add(s.key);
    out.keys.push(s.key);
    out.steps.push(s);
  }
  return out;
}

/** The computation path of a text ({@link extractSteps}, distinct keys in order of first occurrence). */
export function computationPath(text: string): ComputationPath {
  return pathOfSteps(extractSteps(text));
}
