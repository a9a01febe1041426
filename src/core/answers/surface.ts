/**
 * The surface step of answer equivalence: rewrites the spellings that say nothing about the value
 * (wrappers, spacing, separators, currency, units, degree and percent marks, Unicode look-alikes) so
 * that what is left is a number, a list of parts, or a LaTeX expression for the CAS step. No
 * arithmetic happens here. The rules, each with its source, are listed in `./equivalence.ts`.
 */

import { labelledValue, splitRelation } from './relations';

/** Superscript digits and signs (x², 10⁻³): rewritten to `^{...}` before NFKC, which would flatten `5²` into `52`. */
const SUPERSCRIPTS: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '⁺': '+',
};

/** Characters NFKC leaves alone that mean a LaTeX command or an ASCII sign in a final answer. */
const SYMBOLS: Record<string, string> = {
  '\u2212': '-', // minus sign
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2043': '-', // hyphen bullet
  '\u00d7': '\\times ',
  '\u00f7': '\\div ',
  '\u00b7': '\\cdot ',
  '\u22c5': '\\cdot ',
  '\u2219': '\\cdot ',
  '\u221a': '\\sqrt ',
  '\u03c0': '\\pi ',
  '\u221e': '\\infty ',
  '\u2044': '/', // fraction slash (NFKC turns ½ into 1⁄2)
  '\u2215': '/', // division slash
  '\u2248': '\\approx ',
  '\u222a': '\\cup ',
  '\u2205': '\\emptyset ',
  '\u00b1': '\\pm ',
  '\u2213': '\\mp ',
  '\u27e8': '\\langle ',
  '\u27e9': '\\rangle ',
  '\u3008': '\\langle ',
  '\u3009': '\\rangle ',
  '\u00b0': '^\\circ ',
  '\u2264': '\\le ',
  '\u2265': '\\ge ',
  '\u2a7d': '\\le ',
  '\u2a7e': '\\ge ',
  '\u2260': '\\ne ',
  '\u2208': '\\in ',
  '\u2032': "'", // prime
  '\u2019': "'",
};

const SYMBOL_RE = new RegExp(`[${Object.keys(SYMBOLS).join('')}]`, 'g');
const SUPERSCRIPT_RE = /[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+/g;

/**
 * Unicode to ASCII/LaTeX for the characters that matter in answers: superscripts to `^{..}`, then
 * NFKC (the standard compatibility mapping: full-width digits and signs, vulgar fractions, the
 * no-break, thin and other spaces, small and full-width hyphen-minus), then the minus sign and the
 * dashes to `-` and the math symbols (×, ÷, ·, √, π, ∞, °, ∪, ≈) to their LaTeX commands.
 */
export function unicodeToLatex(s: string): string {
  // ASCII fast path
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  let out = s.replace(SUPERSCRIPT_RE, (m) => `^{${[...m].map((c) => SUPERSCRIPTS[c]).join('')}}`);
  // the double-struck R (the real numbers) before NFKC, which would make it the letter R
  out = out.replace(/\u211d/g, '\\mathbb{R}').normalize('NFKC');
  return out.replace(SYMBOL_RE, (c) => SYMBOLS[c]);
}

/** Index just past the brace group that opens at `open` (`s[open] === '{'`), or -1 when unbalanced. */
export function braceEnd(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++; // an escaped brace does not count
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Replaces every `\cmd{X}` (brace-matched) by `X`; an unbalanced one loses only its `\cmd{`. */
export function unwrapCommand(s: string, cmd: string): string {
  const open = `\\${cmd}{`;
  let out = s;
  for (let guard = 0; guard < 50; guard++) {
    const at = out.indexOf(open);
    if (at < 0) break;
    const end = braceEnd(out, at + open.length - 1);
    out =
      end < 0
        ? out.slice(0, at) + out.slice(at + open.length)
        : out.slice(0, at) + out.slice(at + open.length, end - 1) + out.slice(end);
  }
  return out;
}

/** Strips one pair of math delimiters around the whole answer: `$..$`, `$$..$$`, `\(..\)`, `\[..\]`. */
function stripMathDelimiters(s: string): string {
  let t = s;
  for (let guard = 0; guard < 3; guard++) {
    const m = /^(?:\$\$([\s\S]*)\$\$|\\\(([\s\S]*)\\\)|\\\[([\s\S]*)\\\]|\$([^$]*)\$)$/.exec(t);
    if (!m) break;
    t = (m[1] ?? m[2] ?? m[3] ?? m[4]).trim();
  }
  return t;
}

/** Words for money that may stand before or after an amount (removed; no conversion between currencies). */
const CURRENCY_WORDS = 'usd|us\\$|dollars?|bucks|cents?|eur|euros?|gbp|pounds?|inr|rs\\.?|rupees?|yen|yuan|rmb|cny';

/** Unit and count words that may follow a number (lowercase; plural `s`/`es` optional). Whole words only. */
const UNIT_ATTACHED = [
  'cm',
  'mm',
  'km',
  'kg',
  'mg',
  'ml',
  'mph',
  'kph',
  'kmh',
  'ft',
  'hrs?',
  'mins?',
  'secs?',
  'lbs?',
  'oz',
  'sq',
  'cc',
  'kmph',
  'mi',
  'yds?',
];
const UNIT_ATTACHED_RE = new RegExp(
  `^(.*\\d)(?:(?:${UNIT_ATTACHED.join('|')})(?:\\^\\{?[23]\\}?|[23])?|m\\^\\{?[23]\\}?)$`,
  'i',
);

/** LaTeX spacing and sizing commands that carry no value. */
const SPACING_RE =
  /\\(?:[,;:!>]|quad\b|qquad\b|enspace\b|thinspace\b|medspace\b|thickspace\b|negthinspace\b|displaystyle\b|textstyle\b|scriptstyle\b|limits\b|nolimits\b)|\\(?:h|v)space\*?\{[^{}]*\}|\\phantom\{[^{}]*\}/g;
const SIZING_RE = /\\(?:left|right|middle|[bB]igg?[lrm]?)(?![a-zA-Z])\.?/g;

/** Text-like wrappers whose content is words, not math. */
const TEXT_CMDS = 'text|textrm|textnormal|textit|textbf|textsf|texttt|mbox|mathrm|mathit|mathbf|mathsf|operatorname';
const WHOLE_TEXT_RE = new RegExp(`^\\\\(?:${TEXT_CMDS})\\s*\\{([^{}]*)\\}$`);
// one or more unit pieces: `\text{ hours}`, `\mbox{cm}^2`, `\text{km}/\text{h}`, `\text{m}\cdot\text{s}^{-1}`
const UNIT_PIECE = `\\\\(?:${TEXT_CMDS})\\s*\\{[^{}]*\\}(?:\\^\\{?-?[123]\\}?)?`;
const TRAILING_TEXT_RE = new RegExp(`^(.*?)\\s*${UNIT_PIECE}(?:\\s*(?:/|\\\\cdot|\\s)\\s*${UNIT_PIECE})*$`);
const LEADING_TEXT_RE = new RegExp(`^\\\\(?:${TEXT_CMDS})\\s*\\{([^{}]*)\\}\\s*(.+)$`);

/** A label of words without a command before a colon (`Answer: 7`, `答案: 12`); group 1: what follows. */
const PLAIN_LABEL_RE = /^\p{L}{2,}(?: \p{L}+)*\s*:\s*(.+)$/u;

/** True when `s` holds no letters outside LaTeX commands: a number or arithmetic, not words. */
export function isMathOnly(s: string): boolean {
  return !/[a-zA-Z]/.test(s.replace(/\\[a-zA-Z]+/g, ''));
}

/** A plain decimal number (optional sign, digits with an optional point, optional exponent). */
export const PLAIN_NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The separators LaTeX and Unicode spell explicitly between groups of three digits (after NFKC). */
const GROUP_SEP = String.raw`(?:\{,\}|,\s*\\[!,]\s*|\\[,!:;]|\\ |~| |')`;
/**
 * A whole thousands grouping with explicit separators: 1-3 digits, then one or more groups of exactly
 * three, not glued to other digits or groups ("1234 567" and "12 345 6789" are not groupings), and
 * not the whole part of a mixed number ("2 100/3").
 */
const GROUPING_RE = new RegExp(
  String.raw`(?<![\d.]|\d${GROUP_SEP})\d{1,3}(?:${GROUP_SEP}\d{3})+(?!\d|${GROUP_SEP}\d|\s*\/)`,
  'g',
);

/**
 * Removes the thousands separators that LaTeX and Unicode spell explicitly (`1{,}000`, `1,\!000`,
 * `1\,000`, `1\!000`, `1\ 000`, `1 000`, `1'000`), only in a well-formed grouping (1-3 digits, then
 * groups of exactly 3); then a `{,}` between digits that is not such a grouping is a decimal comma
 * (`1{,}5` is 1.5, `3{,}14` is 3.14: the comma of European LaTeX). Any other separator stays, and
 * digits left separated by spaces are not read as one number (`./equivalence.ts`).
 */
function explicitThousands(s: string): string {
  let t = s.replace(GROUPING_RE, (m) => m.replace(new RegExp(GROUP_SEP, 'g'), ''));
  t = t.replace(/(?<![\d.]|\{,\})(\d+)\{,\}(\d+)(?![\d.]|\{,\})/g, '$1.$2');
  return t;
}

/**
 * A thousands-grouped integer part with an optional decimal part (`1,000`, `-12,345,678.5`): the
 * commas are removed. Only a valid grouping (1-3 digits, then groups of exactly 3) counts; anything
 * else keeps its commas (a list).
 */
export function stripThousandsCommas(s: string): string {
  return /^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/.test(s) ? s.replace(/,/g, '') : s;
}

/**
 * The surface form of one answer (or one part of a tuple or list): every rewriting that does not
 * change the value, in this order:
 * 1. Unicode ({@link unicodeToLatex}); trim; math delimiters around the whole answer;
 * 2. `\boxed{..}` / `\fbox{..}` unwrapped; `\left`, `\right`, `\big` and friends, spacing commands
 *    (`\!`, `\,`, `\;`, `\:`, `\quad`, `\hspace{..}`, `\displaystyle`, ...) and `~` removed, after the
 *    explicit thousands separators (`1{,}000`, `1,\!000`, `1\,000`, `1\!000`, `1 000`) were joined;
 *    `\dfrac`, `\tfrac`, `\cfrac` to `\frac`;
 * 3. a labelled value (`x = 5`, `(p,q) = (3,2)`, `f(x) = 1`, `x \in [1,2]`, `x = 5+5+1 = 11`: the value,
 *    `./relations.ts` `labelledValue`), a leading `\text{..}` label before math
 *    (`\text{Maximum profit: } \$221`), trailing `.`;
 * 4. money: `\$`, `$`, `\textdollar`, `€`, `£`, `¥`, `₹`, `¢` and currency words before or after the
 *    amount; a sign before the currency is kept (`-\$20` is -20);
 * 5. trailing marks: degrees (`^\circ`, `^{\circ}`, `°`, `\degree`, `degrees`), percent (`\%`, `%`,
 *    `percent`, `pct`), units (`\text{ hours}`, `\mbox{cm}^2`, `hours`, `toys per hour`, and attached
 *    `cm`, `km`, `mph`, `kg`, ...) when what stands before them is math;
 * 6. a whole-answer `\text{X}` becomes X; whitespace collapsed.
 * Steps 3-6 repeat until nothing changes (at most 4 rounds), so `\boxed{\text{16 hours}}` and
 * `\$45{,}000\text{ per year}` reach their number.
 * @param raw one answer as extracted (not null).
 * @param keepAssignments keep `x = ...` as written (for the parts of a list such as `x=2, y=3`).
 * @param units when given, every unit removed in step 5 is appended as written (see {@link measurementUnit}).
 * @param labels when given, the left side of every labelled value removed in step 3 is appended (`y` of `y = 2x+3`).
 * @returns the surface form; may be empty (the answer had only wrappers or marks).
 */
export function surfaceForm(raw: string, keepAssignments = false, units?: string[], labels?: string[]): string {
  // `\\` separates the rows of a matrix: kept whole (the spacing rules below would read `\ `)
  let s = unicodeToLatex(raw).trim().replace(/\\\\/g, ROW_BREAK);
  s = stripMathDelimiters(s);
  s = unwrapCommand(s, 'boxed');
  s = unwrapCommand(s, 'fbox');
  s = explicitThousands(s);
  s = s.replace(SIZING_RE, '').replace(SPACING_RE, ' ').replace(/\\ /g, ' ').replace(/~/g, ' ');
  s = s.replace(/\\[dtc]frac(?![a-zA-Z])/g, '\\frac');
  s = s.replace(/(\d)\s*\.\s*(?=\d)/g, '$1.'); // "3 . 14"
  s = s.replace(/\^\s*([+-])\s*(\d+(?:\.\d+)?)(?![\d.])/g, '^{$1$2}'); // "10^-3" is 10^{-3}
  // angle brackets of a vector are a tuple's: `\langle 1, 2\rangle` is `(1, 2)`
  s = s.replace(/\\langle(?![a-zA-Z])\s*/g, '(').replace(/\s*\\rangle(?![a-zA-Z])/g, ')');
  s = s.replace(/\s+/g, ' ').trim();
  for (let round = 0; round < 4; round++) {
    const before = s;
    s = stripOnce(s, keepAssignments, units, labels);
    if (s === before) break;
  }
  return s.replace(ROW_BREAK_RE, '\\\\');
}

/** Stands for `\\` while the surface rules run (a character no answer contains). */
const ROW_BREAK = '\u0000';
const ROW_BREAK_RE = /\u0000/g;

/**
 * `2 and 3`, `2 \text{ or } 3`, `x = -1 \text{ or } x = 2`: parts of math (or labelled values, see
 * `./relations.ts`) joined by "and" / "or" become a comma list (Math-Verify's rule).
 */
function andOrToComma(s: string): string {
  const parts = s.split(
    /\s*(?:\\text\s*\{\s*(?:and|or|或|和|или)\s*\}|(?<![a-zA-Z\\])(?:and|or)(?![a-zA-Z])|或|和|(?<![а-яёА-ЯЁ])или(?![а-яёА-ЯЁ]))\s*/,
  );
  const math = (p: string) => {
    const v = labelledValue(p);
    return isMathOnly(v ?? p);
  };
  // "19, 46, and 82": the list's own comma before "and" is not an empty part
  const items = parts.map((p) => p.replace(/\s*[,;]$/, ''));
  return items.length > 1 && items.every((p) => p !== '' && math(p)) ? items.join(', ') : s;
}

function stripOnce(input: string, keepAssignments: boolean, units?: string[], labels?: string[]): string {
  // a trailing full stop, and a dangling separator ("2,", "40;")
  let s = andOrToComma(input.trim().replace(/(?:\s*[.,;])+$/, ''));
  // a label in \text{} before math: "\text{Maximum Profit: } \$221", "\text{The answer is } 5"
  // a labelled value: `x = 5`, `(p,q) = (3,2)`, `f(x) = 1`, `x \in [1,2]`, `x = 5+5+1 = 11`, `\text{Area} = 50`
  // (./relations.ts); not inside a list of assignments ("x=2, y=3" keeps its names)
  const labelled = keepAssignments ? null : labelledValue(s);
  if (labelled !== null) {
    labels?.push(splitRelation(s)?.sides[0] ?? '');
    s = labelled;
  }
  // (not a subscript or power of the text: `\text{1010}_2` is a numeral)
  const lead = LEADING_TEXT_RE.exec(s);
  if (lead && !/^[_^]/.test(lead[2]) && /\d/.test(lead[2]) && isMathOnly(lead[2].replace(/\\\$|\$/g, ''))) s = lead[2];
  // a plain label of words (two letters or more, any script) and a colon before math: "Answer: 7",
  // "答案：12" (the full-width colon is `:` after NFKC), "Ответ: 7", "Final answer: 7"
  const plain = PLAIN_LABEL_RE.exec(s);
  if (plain && /\d/.test(plain[1]) && isMathOnly(plain[1].replace(/\\\$|\$/g, ''))) s = plain[1];
  // money
  s = s.replace(/\\textdollar\b|\\\$|\$|[€£¥₹¢₩₽]|\\euro\b|\\pounds\b|\\yen\b/g, '');
  s = s.replace(new RegExp(`^([+-]?)\\s*(?:${CURRENCY_WORDS})\\s*(?=[\\d.])`, 'i'), '$1');
  s = s.trim();
  // degrees and percent at the end; not the degrees of a trigonometric function's argument (`\sin 30^\circ`
  // is 1/2: the CAS reads the degrees there)
  if (!TRIG_RE.test(s))
    s = s.replace(/\s*(?:\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\circ|\\degree)\s*(?:[CF](?![a-zA-Z]))?$/, '');
  s = s.replace(/\s*(?:\\%|%|\\text\{\s*%\s*\})$/, '');
  // a unit in \text{}, \mbox{}, \mathrm{} after math (with ^2 or ^3 for areas and volumes)
  const unit = TRAILING_TEXT_RE.exec(s);
  if (unit && unit[1] !== '' && /[\d}).]$/.test(unit[1]) && isMathOnly(unit[1])) {
    units?.push(s.slice(unit[1].length));
    s = unit[1];
  }
  // words after math: "16 hours", "38 toys per hour", "50 percent", "30 degrees", "5 dollars"; one
  // letter only when it is an SI unit symbol ("5 m", "3 s"), so that "2 x" stays a product
  const words = /^(.*?[\d}).])\s+([a-zA-Z][a-zA-Z'.]*(?:[\s/-]+[a-zA-Z][a-zA-Z'.]*)*)(\^\{?[23]\}?)?$/.exec(s);
  if (
    words &&
    isMathOnly(words[1]) &&
    (/[a-zA-Z]{2}/.test(words[2]) || /^[msghlLJNWVK]\.?$|^[a-zA-Z]{1,3}(?:\/[a-zA-Z]{1,3})+$/.test(words[2])) &&
    !/^[ap]\.?\s*m\.?$/i.test(words[2]) // "4:30 p.m." is not "4:30 a.m."
  ) {
    units?.push(words[2] + (words[3] ?? ''));
    s = words[1];
  }
  // an attached unit abbreviation: "5cm", "60mph", "3kg", "12cm^2"
  const attached = UNIT_ATTACHED_RE.exec(s);
  if (attached && isMathOnly(attached[1])) {
    units?.push(s.slice(attached[1].length));
    s = attached[1];
  }
  // a whole-answer \text{X}
  const whole = WHOLE_TEXT_RE.exec(s);
  if (whole) s = whole[1];
  // the real numbers as a whole answer: the interval (-inf, inf)
  if (REALS_RE.test(s)) s = '(-\\infty, \\infty)';
  return isoIntervals(s.replace(/\s+/g, ' ').trim());
}

/** A trigonometric function (its argument's degrees are part of the value). */
const TRIG_RE = /\\(?:sin|cos|tan|cot|sec|csc)(?![a-zA-Z])/;

/**
 * The set of real numbers written whole: `\mathbb{R}`, `\mathbb R`, `\R`, `\Bbb R`, `\Reals`, `\reals` (KaTeX's
 * names), `all real numbers` in any case; `(-\infty, \infty)` is its key. The commands are case-sensitive: `\r` and
 * `\mathbb{r}` are not the reals.
 */
const REALS_RE =
  /^(?:\\mathbb\s*\{?\s*R\s*\}?|\\Bbb\s*\{?\s*R\s*\}?|\\R|\\[Rr]eals|[Aa]ll [Rr]eal [Nn]umbers|[Aa]ll [Rr]eals|ALL REAL NUMBERS)$/;

/**
 * Intervals in the ISO 80000-2 notation used in France and much of Europe, where a reversed bracket is an
 * open end: `]0, 1[` is `(0, 1)`, `[0, 1[` is `[0, 1)`, `]0; 1]` is `(0, 1]`, also in unions
 * (`]-\infty, 0[ \cup ]1, +\infty[`). Only parts with a reversed bracket change; `[0, 1]` stays.
 */
export function isoIntervals(s: string): string {
  if (!/^\]|\[$|\\cup\s*\]|\[\s*\\cup/.test(s)) return s;
  const parts = s.split(/(\\cup(?![a-zA-Z]))/);
  let changed = false;
  const out = parts.map((p) => {
    // two bounds, no third (`]1,2,3[` is no interval)
    const m = /^(\s*)([\][])\s*([^[\],;]+?)\s*[,;]\s*([^[\],;]+?)\s*([\][])(\s*)$/.exec(p);
    if (!m || (m[2] === '[' && m[5] === ']')) return p;
    changed = true;
    return `${m[1]}${m[2] === ']' ? '(' : '['}${m[3]}, ${m[4]}${m[5] === '[' ? ')' : ']'}${m[6]}`;
  });
  return changed ? out.join('') : s;
}

/**
 * Units of measurement recognised for the "different units" rule, each canonical symbol with its
 * spellings (singular; a plural `s` is removed first). Only these are compared: a unit not in this
 * table (`toys per hour`) is removed and never makes two answers different.
 */
const MEASUREMENT_UNITS: Record<string, string[]> = {
  mm: ['mm', 'millimeter', 'millimetre'],
  cm: ['cm', 'centimeter', 'centimetre'],
  m: ['m', 'meter', 'metre'],
  km: ['km', 'kilometer', 'kilometre'],
  in: ['in', 'inch', 'inche'],
  ft: ['ft', 'foot', 'feet'],
  yd: ['yd', 'yard'],
  mi: ['mi', 'mile'],
  mg: ['mg', 'milligram'],
  g: ['g', 'gram'],
  kg: ['kg', 'kilogram'],
  lb: ['lb', 'lbs'],
  oz: ['oz', 'ounce'],
  ml: ['ml', 'milliliter', 'millilitre'],
  l: ['l', 'liter', 'litre'],
  s: ['s', 'sec', 'second'],
  min: ['min', 'minute'],
  h: ['h', 'hr', 'hrs', 'hour'],
  day: ['day'],
  week: ['week', 'wk'],
  year: ['year', 'yr'],
  'km/h': ['km/h', 'kmh', 'kph', 'kmph', 'kilometerperhour', 'kilometreperhour'],
  mph: ['mph', 'mileperhour', 'mi/h'],
  'm/s': ['m/s', 'meterpersecond', 'metrepersecond'],
};
const UNIT_CANONICAL = new Map<string, string>(
  Object.entries(MEASUREMENT_UNITS).flatMap(([c, spellings]) => spellings.map((x) => [x, c] as [string, string])),
);

/**
 * The canonical form of a unit removed from an answer (as {@link surfaceForm} collects them), when it is
 * a unit of measurement this module knows: `\text{ cm}^2`, `cm^{2}`, `square centimeters`, `sq cm` and
 * `cm2` are all `cm^2`; `hours`, `hrs`, `\text{h}` are `h`. `null` for anything else (`toys per hour`).
 */
export function measurementUnit(removed: string): string | null {
  let u = removed
    .replace(new RegExp(`\\\\(?:${TEXT_CMDS})\\s*`, 'g'), '')
    .replace(/\\(?:[,;:! ]|quad\b)/g, '')
    .replace(/[{}\s]/g, '')
    .replace(/\\cdot/g, '*')
    .toLowerCase();
  let power = '';
  const pow = /\^?([23])$/.exec(u);
  if (pow) {
    power = `^${pow[1]}`;
    u = u.slice(0, u.length - pow[0].length);
  }
  const word = /^(square|sq\.?|cubic)(.+)$/.exec(u);
  if (word && !power) {
    power = word[1] === 'cubic' ? '^3' : '^2';
    u = word[2];
  }
  u = u.replace(/(?<=..)s$/, '').replace(/\.$/, '');
  const c = UNIT_CANONICAL.get(u) ?? UNIT_CANONICAL.get(u.replace(/per/g, '/'));
  return c === undefined ? null : `${c}${power}`;
}
