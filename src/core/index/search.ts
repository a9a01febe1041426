/**
 * Full-text search of sample text in every script: what the full-text index (SQLite FTS5, schema
 * migration 8) is given for a sample text, the FTS5 query for what a user typed, and the snippet shown
 * for a match. Pure; no `vscode` import.
 *
 * FTS5's `unicode61` tokenizer cuts text into runs of letters, digits and marks and folds case and
 * diacritics, which works for scripts that put spaces between words. It does not for the rest, and
 * FTS5 tokenizers cannot be written in JavaScript, so the text is prepared before FTS5 sees it (the
 * index is contentless: what it is given is never shown, only tokenized), and the query the same way:
 * 1. NFKC normalisation (`String.prototype.normalize`), of text and query alike: NFD from macOS tools
 *    and some detokenizers (Hangul as conjoining jamo, `e` + U+0301) becomes NFC, full-width `１２`
 *    and `ＡＢＣ` become `12` and `ABC`, ligatures and compatibility forms their letters.
 * 2. Runs of a script written without spaces between words (Han, Hiragana, Katakana, Thai, Lao, Khmer,
 *    Myanmar) and Hangul (Korean attaches particles to words: `답은`) are cut into overlapping
 *    character bigrams, each character also on its own, as Lucene's CJKAnalyzer does
 *    (CJKBigramFilter with `outputUnigrams`): `面积为` -> `面 积 为 面积 积为`. A query run is cut into
 *    bigrams (a one-character run is that character), so `面积` finds `长方形的面积为`; the run is also
 *    set apart from the letters and digits around it, so `12` and `gen-itgc` inside Chinese are words.
 *    A "character" here is a letter with the marks that follow it (Thai vowel signs, tone marks).
 * Bigrams rather than a dictionary segmenter (ICU's word break, `Intl.Segmenter`): the index and the
 * query must be cut alike, and a dictionary cuts a word differently in a sentence and alone (`面积`
 * inside `长方形的面积为` and as a query), and differently between ICU versions (the index written by
 * the CLI's Node is read by VS Code's Electron); bigrams depend on nothing but the characters, find
 * any run of two or more characters, and cost one pass of a regular expression.
 * Known limit: the index keeps no positions (detail=none), so a query run of three or more characters
 * matches a sample holding each of its bigrams, in any order (`长方形` also finds `方形…长方`).
 */

/** Any character outside ASCII: text without one needs no normalisation nor segmentation (the fast path). */
const NON_ASCII = /[^\u0000-\u007f]/;

/** Scripts cut into bigrams: written without spaces between words, or (Hangul) with particles attached. */
const CONTINUOUS_CHAR =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc\\uff70';

/** A run of those scripts' letters, each with the marks after it. */
const CONTINUOUS_RUN = new RegExp(`(?:[${CONTINUOUS_CHAR}]\\p{M}*)+`, 'gu');
/** One character of such a run: a letter and the marks that follow it. */
const RUN_UNIT = /\P{M}\p{M}*/gu;

/**
 * A word as the index's tokenizer cuts it (`unicode61` with `categories 'L* N* Co M*'`, schema
 * migration 8): a run of letters, digits, private-use characters and marks.
 */
const WORD = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/** The characters of a run, each with its marks. */
function units(run: string): string[] {
  return run.match(RUN_UNIT) ?? [];
}

/** Unigrams and overlapping bigrams of a run, for the index. */
function indexRun(run: string): string {
  const u = units(run);
  let out = ` ${u.join(' ')}`;
  for (let i = 0; i + 1 < u.length; i++) out += ` ${u[i]}${u[i + 1]}`;
  return `${out} `;
}

/**
 * What the full-text index is given for a sample text: NFKC, with every run of a continuous script
 * replaced by its characters and overlapping bigrams, set apart by spaces (see the module comment).
 * ASCII text is returned as is (the same string). Deterministic; never throws.
 */
export function searchText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const nfkc = text.normalize('NFKC');
  // Most non-ASCII text (math symbols, accented Latin) holds no character of a continuous script:
  // a scan of its char codes is about 4x cheaper than the regular expression that finds none.
  return mayHoldContinuousScript(nfkc) ? nfkc.replace(CONTINUOUS_RUN, indexRun) : nfkc;
}

/**
 * Whether `text` may hold a character of a continuous script ({@link CONTINUOUS_CHAR}), judged from
 * UTF-16 code units from `from` on: false only when no unit falls in a block where such characters
 * live (Thai and Lao U+0E00-0EFF, Myanmar and Hangul Jamo U+1000-11FF, Khmer U+1780-17FF and
 * U+19E0-19FF, everything from U+2E80 on, surrogates included). A coarse over-approximation: true
 * just means the regular expression decides. The test suite checks every code point the expression
 * matches lies in these blocks.
 */
export function mayHoldContinuousScript(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0e00) continue;
    if (c < 0x0f00 || (c >= 0x1000 && c < 0x1200) || (c >= 0x1780 && c < 0x1800) || (c >= 0x19e0 && c < 0x1a00))
      return true;
    if (c >= 0x2e80) return true;
  }
  return false;
}

/** One character of a continuous script (for tests of {@link mayHoldContinuousScript}). */
export const CONTINUOUS_CHAR_RE = new RegExp(`[${CONTINUOUS_CHAR}]`, 'u');

/**
 * The terms a query is made of, in order of first appearance, without repeats (compared lowercased):
 * the query in NFKC, each run of a continuous script as its overlapping bigrams (a one-character run as
 * that character), every other word (letters, digits, marks) as it is. Punctuation and symbols are
 * not terms: `x^2+1` -> `x`, `2`, `1`; `gen-itgc` -> `gen`, `itgc`.
 */
export function searchTerms(query: string): string[] {
  const q = query.normalize('NFKC');
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (t: string) => {
    const key = t.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(t);
  };
  let last = 0;
  const words = (s: string) => {
    for (const w of s.match(WORD) ?? []) add(w);
  };
  for (const m of q.matchAll(CONTINUOUS_RUN)) {
    words(q.slice(last, m.index));
    const u = units(m[0]);
    if (u.length === 1) add(u[0]);
    for (let i = 0; i + 1 < u.length; i++) add(u[i] + u[i + 1]);
    last = m.index + m[0].length;
  }
  words(q.slice(last));
  return out;
}

/**
 * The FTS5 query for what a user typed: every term of it ({@link searchTerms}) must occur in the
 * sample, anywhere (AND; the index keeps no positions, so there are no phrase queries):
 * `sum of roots` -> `"sum" "of" "roots"`, `面积是12` -> `"面积" "积是" "12"`. Each term is quoted, so
 * FTS5 operators and punctuation in the input are never query syntax. Nothing searchable gives `""`,
 * which matches no sample.
 */
export function ftsQuery(text: string): string {
  const terms = searchTerms(text);
  if (terms.length === 0) return '""';
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' ');
}

/** Folds one piece of text for matching as the index does: NFKC, then Latin diacritics removed, lower case. */
function fold(s: string): string {
  return s
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** A letter, digit or mark (a term's neighbour that makes it part of a longer word). */
const WORD_CHAR = /[\p{L}\p{N}\p{Co}\p{M}]/u;
const CONTINUOUS_TEST = new RegExp(`[${CONTINUOUS_CHAR}]`, 'u');
const GRAPHEMES = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * Whether a neighbouring character makes a term part of a longer word: a letter, digit or mark, but not
 * one of a continuous script (its runs are set apart from the words around them: `答えは１２です` holds `12`).
 */
function joins(c: string): boolean {
  return c !== '' && WORD_CHAR.test(c) && !CONTINUOUS_TEST.test(c);
}

/** A text folded as the index matches it ({@link fold}), with, for each folded code unit, the code unit of the text it comes from. */
interface Folded {
  folded: string;
  /** The index in the original text of the folded code unit `k`; `text.length` past the end. */
  orig: (k: number) => number;
}

function foldText(text: string): Folded {
  if (!NON_ASCII.test(text)) return { folded: text.toLowerCase(), orig: (k) => Math.min(k, text.length) };
  let folded = '';
  const from: number[] = [];
  // grapheme by grapheme: NFKC composes within one (Hangul jamo, a letter and its marks)
  for (const { segment, index } of GRAPHEMES.segment(text)) {
    const f = segment.length === 1 && segment.charCodeAt(0) < 0x80 ? segment.toLowerCase() : fold(segment);
    folded += f;
    for (let k = 0; k < f.length; k++) from.push(index);
  }
  return { folded, orig: (k) => (k < from.length ? from[k] : text.length) };
}

/** A range of a text in UTF-16 code units, end exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * Every occurrence in the folded text of the folded `needle` as the index matches it: a space in the
 * needle matches any run of white space; where the needle starts or ends with a letter or digit of a
 * spaced script, as a whole word there. Ranges of the original text, in order, at most `max`.
 */
function occurrences(t: Folded, text: string, needle: string, max = Number.POSITIVE_INFINITY): TextRange[] {
  const out: TextRange[] = [];
  if (needle === '') return out;
  const wholeStart = joins(needle[0]);
  const wholeEnd = joins(needle[needle.length - 1]);
  const { folded, orig } = t;
  const re = new RegExp(
    needle
      .split(' ')
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
    'gu',
  );
  for (let m = re.exec(folded); m !== null && out.length < max; m = re.exec(folded)) {
    const at = m.index;
    const len = m[0].length;
    re.lastIndex = at + 1;
    const before = at > 0 ? folded[at - 1] : '';
    const after = folded[at + len] ?? '';
    if ((wholeStart && joins(before)) || (wholeEnd && joins(after))) continue;
    const start = orig(at);
    const end = at + len >= folded.length ? text.length : orig(at + len);
    out.push({ start, end: Math.max(end, start + 1) });
  }
  return out;
}

/**
 * The query as typed, folded as the index folds text, runs of white space as one space; empty when it
 * has nothing searchable. What {@link holdsAsTyped} looks for.
 */
function typedPhrase(query: string): string {
  if (searchTerms(query).length === 0) return '';
  return fold(query).trim().replace(/\s+/g, ' ');
}

/**
 * Whether `text` holds the query as typed: its characters in that order, next to each other (a run of
 * white space in the query matches any run of white space), case, width and Latin diacritics folded as
 * the index folds them, a query that starts or ends inside a word of a spaced script matched at a word
 * boundary there. The index matches every term anywhere ({@link ftsQuery}); this is the check that `7个`
 * is in `有7个苹果` but not in `3 + 4 = 7。个`, and `长方形` not in `方形…长方`. A query with nothing
 * searchable is held by no text.
 */
export function holdsAsTyped(text: string, query: string): boolean {
  const phrase = typedPhrase(query);
  return phrase !== '' && occurrences(foldText(text), text, phrase, 1).length > 0;
}

/**
 * Where the query occurs in `text` as the index matches it: the first occurrence of the query as typed
 * ({@link holdsAsTyped}) when it has one, else the earliest occurrence of any of its terms (a term of a
 * spaced script as a whole word, a bigram of a continuous script anywhere): `{ start, end }` in UTF-16
 * code units of `text`, or null when no term is found (a term may be a false match of the index, see
 * the module comment).
 */
export function findTerm(text: string, query: string): TextRange | null {
  const terms = searchTerms(query).map(fold);
  if (terms.length === 0) return null;
  const t = foldText(text);
  const typed = occurrences(t, text, typedPhrase(query), 1)[0];
  if (typed) return typed;
  let best: TextRange | null = null;
  for (const term of terms) {
    const hit = occurrences(t, text, term, 1)[0];
    if (hit && (!best || hit.start < best.start)) best = hit;
  }
  return best;
}

/**
 * The start of the grapheme cluster (user-perceived character, Unicode UAX #29 via `Intl.Segmenter`) that
 * holds UTF-16 index `i` of `text`: `i` itself when a cluster starts there; 0 for `i <= 0`.
 */
export function graphemeStart(text: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= text.length) return text.length;
  return GRAPHEMES.segment(text).containing(i)?.index ?? i;
}

/**
 * The end of the grapheme cluster that holds UTF-16 index `i - 1` of `text` (the first cluster boundary
 * at or after `i`): `i` itself when a cluster ends there; `text.length` for `i >= text.length`.
 */
export function graphemeEnd(text: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= text.length) return text.length;
  const g = GRAPHEMES.segment(text).containing(i - 1);
  return g ? g.index + g.segment.length : i;
}

/** Whether `text` has at most `width` grapheme clusters (stops counting past `width`). */
function fitsIn(text: string, width: number): boolean {
  if (text.length <= width) return true;
  let n = 0;
  for (const _ of GRAPHEMES.segment(text)) if (++n > width) return false;
  return true;
}

/** Marks around the matched term in a {@link snippet}. */
export const SNIPPET_OPEN = '«';
export const SNIPPET_CLOSE = '»';

/**
 * A one-line excerpt of `text` around the first match of `query` ({@link findTerm}), whitespace
 * collapsed, about `width` characters, `…` where the text is cut; the start of the text when no term is
 * found there. A text of at most `width` (plus the match's length) grapheme clusters is shown whole, and a
 * cut falls between grapheme clusters (`Intl.Segmenter`), never between a letter and its combining marks. Marked between « and »: the query as typed where the text holds it there, else every
 * occurrence of every term of it inside the excerpt (overlapping and touching ones as one: the bigrams
 * `りん` and `んご` of `りんご` mark `«りんご»`). Control characters are left as they are: escape them
 * for the terminal (text.ts `escapeControl`).
 */
export function snippet(text: string, query: string, width = 100): string {
  const hit = findTerm(text, query);
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  if (!hit) {
    const head = flat(text).trim();
    return fitsIn(head, width) ? head : `${head.slice(0, graphemeEnd(head, width - 1))}…`;
  }
  let from = 0;
  let to = text.length;
  // a text that fits is shown whole (trial 14 finding 8: a 55-character NFD sample was cut)
  if (!fitsIn(flat(text).trim(), width + (hit.end - hit.start))) {
    const before = Math.max(0, Math.floor((width - (hit.end - hit.start)) / 3));
    from = Math.max(0, hit.start - before);
    to = Math.min(text.length, from + width + (hit.end - hit.start));
    // the window's width used in full when it reaches the end of the text
    if (to === text.length) from = Math.max(0, to - width - (hit.end - hit.start));
    // never inside a character (a letter and its combining marks, a Hangul syllable in jamo, a
    // Devanagari consonant and its vowel signs): `Lö` in NFD must not become `Lo`
    from = graphemeStart(text, from);
    to = graphemeEnd(text, to);
  }
  // the ranges to mark inside [from, to): the hit, and unless it is the query as typed, every term
  const excerpt = text.slice(from, to);
  let ranges: TextRange[] = [hit];
  if (!holdsAsTyped(text.slice(hit.start, hit.end), query)) {
    const t = foldText(excerpt);
    for (const term of searchTerms(query).map(fold)) {
      for (const r of occurrences(t, excerpt, term)) ranges.push({ start: r.start + from, end: r.end + from });
    }
  }
  ranges = ranges
    .filter((r) => r.start >= from && r.end <= to)
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .reduce<TextRange[]>((acc, r) => {
      const last = acc[acc.length - 1];
      if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
      else acc.push({ ...r });
      return acc;
    }, []);
  let out = from > 0 ? '…' : '';
  let at = from;
  ranges.forEach((r, i) => {
    const plain = flat(text.slice(at, r.start));
    out += i === 0 ? plain.trimStart() : plain;
    out += `${SNIPPET_OPEN}${flat(text.slice(r.start, r.end))}${SNIPPET_CLOSE}`;
    at = r.end;
  });
  out += flat(text.slice(at, to)).trimEnd();
  return `${out}${to < text.length ? '…' : ''}`;
}
