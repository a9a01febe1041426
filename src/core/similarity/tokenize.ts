/**
 * Tokenisation and normalisation of sample text for the similarity analysis
 * ("does this RL sample appear among the base model's samples?").
 *
 * The tokenizer is the single definition of normalisation: two texts are "the same" for the
 * similarity measure exactly when they produce the same token sequence, and
 * {@link normalizeForSimilarity} is simply the tokens joined by one space. Every token keeps
 * the character offsets of the ORIGINAL text it came from, so that novel spans can be
 * highlighted in the unmodified sample.
 *
 * Rules, applied in one left-to-right pass over the original text (see docs/similarity.md):
 * 1. Whitespace separates tokens and is otherwise ignored (this collapses all whitespace).
 * 2. Everything is lower-cased (words and LaTeX command names alike).
 * 3. Words are runs of Unicode letters/marks, with internal apostrophes kept (`i'll`, `jared's`;
 *    `’` is read as `'`). Letters and digits are split: `2x` -> `2`, `x`.
 * 4. Numbers are ASCII digit runs with an optional decimal part. Thousands separators are removed
 *    (`1,000` -> `1000`, only for groups of exactly three digits) and trailing zeros of a decimal
 *    part are dropped (`52.00` -> `52`, `0.50` -> `0.5`).
 * 5. Math delimiters are removed: `$`, `$$`, `\(`, `\)`, `\[`, `\]` (and `\$`, which makes
 *    `\$5` and `$5` both read `5`: a dollar sign cannot be told from a math delimiter).
 * 6. LaTeX spacing and sizing is removed: `\,` `\!` `\;` `\:` `\ ` `\\` `\quad` `\qquad`,
 *    `\left` `\right` (with an invisible `.` delimiter right after them), `\big`-family,
 *    `\displaystyle`, `\limits`. So `\left(` -> `(` and `\right)` -> `)`.
 * 7. Wrappers are unwrapped: `\boxed{x}`, `\text{x}`, `\textbf{x}`, `\textit{x}`, `\textrm{x}`,
 *    `\mathrm{x}`, `\mathbf{x}`, `\mathit{x}`, `\operatorname{x}`, `\mbox{x}` all read `x` (the
 *    command and its matching pair of braces produce no token).
 * 8. Synonyms are unified: `\dfrac` `\tfrac` -> `\frac`; `\cdot` `\times` `×` `·` `⋅` `∙` and a
 *    lone `*` -> `\times`; `\le` `\leq` `\leqslant` `≤` -> `\le`; `\ge` `\geq` `\geqslant` `≥` -> `\ge`;
 *    `\ne` `\neq` `≠` -> `\ne`; `\div` `÷` -> `\div`; `\to` `\rightarrow` `→` -> `\to`;
 *    `\approx` `≈` -> `\approx`; `\dots` `\ldots` `\cdots` `…` `...` -> `\dots`; `−` (U+2212) -> `-`;
 *    `“` `”` -> `"`.
 * 9. Markdown emphasis (runs of two or more `*`) is removed.
 * 10. Other LaTeX commands are one token each (`\sqrt`, `\pi`); `\{` `\}` `\%` `\&` `\_` `\#` read
 *    `\{` `\}` `%` `&` `_` `#`; every other character (punctuation, `{`, `}`, `+`, `=`, `<`, CJK
 *    that is not a letter, emoji) is a token of its own (one code point).
 *
 * Offsets are UTF-16 code-unit indices into the original string (what `String.prototype.slice`
 * and VS Code ranges use), `start` inclusive, `end` exclusive.
 *
 * Untrusted input: a non-string argument is treated as the empty string; no input throws.
 */

/** One token of a sample text, with its place in the original text. */
export interface SimToken {
  /** The normalised token (lower-case, LaTeX synonyms unified). */
  token: string;
  /** Start offset in the original text (UTF-16 code units, inclusive). */
  start: number;
  /** End offset in the original text (UTF-16 code units, exclusive). */
  end: number;
}

/** Called once per token, in text order. */
export type TokenSink = (token: string, start: number, end: number) => void;

/** LaTeX commands (lower-cased, with backslash) that produce no token. */
const DROPPED_COMMANDS = new Set([
  '\\left',
  '\\right',
  '\\big',
  '\\bigl',
  '\\bigr',
  '\\bigm',
  '\\bigg',
  '\\biggl',
  '\\biggr',
  '\\biggm',
  '\\quad',
  '\\qquad',
  '\\displaystyle',
  '\\textstyle',
  '\\limits',
  '\\nolimits',
  '\\nonumber',
]);

/** Commands after which an immediately following `.` is an invisible delimiter (dropped). */
const DELIMITER_COMMANDS = new Set(['\\left', '\\right', '\\big', '\\bigl', '\\bigr', '\\bigg', '\\biggl', '\\biggr']);

/** Wrapper commands: the command and its matching brace pair produce no token. */
const UNWRAP_COMMANDS = new Set([
  '\\boxed',
  '\\text',
  '\\textbf',
  '\\textit',
  '\\textrm',
  '\\textnormal',
  '\\mathrm',
  '\\mathbf',
  '\\mathit',
  '\\operatorname',
  '\\mbox',
  '\\fbox',
]);

/** Synonyms of LaTeX commands (lower-cased). */
const COMMAND_SYNONYMS = new Map<string, string>([
  ['\\dfrac', '\\frac'],
  ['\\tfrac', '\\frac'],
  ['\\cdot', '\\times'],
  ['\\leq', '\\le'],
  ['\\leqslant', '\\le'],
  ['\\geq', '\\ge'],
  ['\\geqslant', '\\ge'],
  ['\\neq', '\\ne'],
  ['\\rightarrow', '\\to'],
  ['\\ldots', '\\dots'],
  ['\\cdots', '\\dots'],
]);

/** `\` + one non-letter character: what it reads as (`null`: dropped). Others keep `\c`. */
const ESCAPES = new Map<string, string | null>([
  ['\\,', null],
  ['\\!', null],
  ['\\;', null],
  ['\\:', null],
  ['\\>', null],
  ['\\ ', null],
  ['\\\\', null],
  ['\\\n', null],
  ['\\\t', null],
  ['\\\r', null],
  ['\\(', null],
  ['\\)', null],
  ['\\[', null],
  ['\\]', null],
  ['\\$', null],
  ['\\%', '%'],
  ['\\&', '&'],
  ['\\_', '_'],
  ['\\#', '#'],
]);

/** Single characters with a synonym. */
const CHAR_SYNONYMS = new Map<string, string>([
  ['*', '\\times'],
  ['×', '\\times'],
  ['·', '\\times'],
  ['⋅', '\\times'],
  ['∙', '\\times'],
  ['≤', '\\le'],
  ['≥', '\\ge'],
  ['≠', '\\ne'],
  ['÷', '\\div'],
  ['→', '\\to'],
  ['≈', '\\approx'],
  ['…', '\\dots'],
  ['−', '-'],
  ['“', '"'],
  ['”', '"'],
  ['’', "'"],
]);

/** Canonical form of a number token: no thousands separators, no trailing decimal zeros. */
function normalizeNumber(raw: string): string {
  let s = raw.indexOf(',') >= 0 ? raw.replace(/,/g, '') : raw;
  const dot = s.indexOf('.');
  if (dot >= 0) {
    let end = s.length;
    while (end > dot + 1 && s.charCodeAt(end - 1) === 48 /* 0 */) end--;
    if (end === dot + 1) end = dot;
    s = s.slice(0, end);
  }
  return s;
}

/**
 * Token strings of ASCII ranges, shared: `intern(text, start, end)` returns the same string as
 * `text.slice(start, end).toLowerCase()` for a range of ASCII characters, without allocating when the
 * token was seen before (most tokens of a problem's samples repeat), so lexing thousands of texts makes
 * little garbage and later `Map` lookups of the tokens hit strings whose hash is already computed.
 * Open addressing on an FNV-1a hash of the lower-cased characters; cleared when it holds 2^16 strings
 * (bounded memory on hostile text; the strings returned are equal either way).
 */
const INTERN_CAP = 1 << 17;
const internKeys: (string | undefined)[] = new Array(INTERN_CAP);
/** The token id ({@link tokenId}) of the string in the same slot of `internKeys`. */
const internIds = new Int32Array(INTERN_CAP);
let internSize = 0;
/** The token id of the string {@link internHashed} returned last. */
let lastInternId = 0;

/**
 * Token ids: one integer per distinct token string, the same for every text lexed in one *epoch* (what
 * `LexedText.ids` holds), so a consumer can key per-token data by an array index instead of a `Map` of strings
 * (the similarity index's vocabulary). The table is emptied, and the epoch bumped, when it holds
 * {@link TOKEN_TABLE_MAX} strings (bounded memory on hostile text): ids of different epochs are not comparable.
 */
const tokenIds = new Map<string, number>();
let tokenEpoch = 0;
const TOKEN_TABLE_MAX = 1 << 18;
/** The ids of the lone ASCII characters' tokens (ASCII_CHAR_TOKENS) in this epoch; -1: not looked up yet. */
const asciiIds = new Int32Array(128).fill(-1);

/** The id of token string `tok` in the current epoch (a new id for a string not seen in it). */
function tokenId(tok: string): number {
  let id = tokenIds.get(tok);
  if (id === undefined) {
    if (tokenIds.size >= TOKEN_TABLE_MAX) {
      tokenIds.clear();
      tokenEpoch++;
      internKeys.fill(undefined);
      internSize = 0;
      asciiIds.fill(-1);
    }
    id = tokenIds.size;
    tokenIds.set(tok, id);
  }
  return id;
}

/** The id of the token of a lone ASCII character `c` (ASCII_CHAR_TOKENS[c]). */
function asciiCharId(c: number): number {
  let id = asciiIds[c];
  if (id < 0) {
    id = tokenId(ASCII_CHAR_TOKENS[c]);
    asciiIds[c] = id;
  }
  return id;
}

function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** `text.slice(start, end).toLowerCase()` for a range of ASCII characters (the caller checks), interned. */
function internAscii(text: string, start: number, end: number): string {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ lowerAscii(text.charCodeAt(i)), 0x01000193);
  return internHashed(text, start, end, h);
}

/**
 * {@link internAscii} when the caller computed `h`, the FNV-1a hash of the lower-cased characters (start
 * 0x811c9dc5, prime 0x01000193, 32-bit `Math.imul`), while scanning them.
 */
function internHashed(text: string, start: number, end: number, h: number): string {
  const len = end - start;
  let slot = (h >>> 0) & (INTERN_CAP - 1);
  for (;;) {
    const k = internKeys[slot];
    if (k === undefined) break;
    if (k.length === len) {
      let i = 0;
      while (i < len && k.charCodeAt(i) === lowerAscii(text.charCodeAt(start + i))) i++;
      if (i === len) {
        lastInternId = internIds[slot];
        return k;
      }
    }
    slot = (slot + 1) & (INTERN_CAP - 1);
  }
  const tok = text.slice(start, end).toLowerCase();
  if (internSize >= INTERN_CAP >>> 1) {
    internKeys.fill(undefined);
    internSize = 0;
    return internHashed(text, start, end, h);
  }
  const epoch = tokenEpoch;
  const id = tokenId(tok);
  // a new epoch emptied this table: look again (the slot found above may no longer be the first free one)
  if (tokenEpoch !== epoch) return internHashed(text, start, end, h);
  internKeys[slot] = tok;
  internIds[slot] = id;
  internSize++;
  lastInternId = id;
  return tok;
}

/** The token of a lone ASCII character (Kind.Char): itself, `*` -> `\times` (CHAR_SYNONYMS). */
const ASCII_CHAR_TOKENS: string[] = Array.from({ length: 128 }, (_, c) =>
  c === 42 ? '\\times' : String.fromCharCode(c).toLowerCase(),
);

const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
const SPACE = /^\s$/u;
const letterCache = new Map<number, boolean>();

/** Unicode letter or combining mark (\p{L} or \p{M}); ASCII fast path, cached otherwise. */
function isLetterAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  const cp = text.codePointAt(i)!;
  let r = letterCache.get(cp);
  if (r === undefined) {
    r = LETTER_OR_MARK.test(String.fromCodePoint(cp));
    if (letterCache.size < 65536) letterCache.set(cp, r);
  }
  return r;
}

/** `\s` of a non-ASCII UTF-16 unit, by the regular expression, cached: 0 = not known yet, 1 = space, 2 = not. */
const spaceCache = new Uint8Array(65536);
function isNonAsciiSpace(c: number): boolean {
  let r = spaceCache[c];
  if (r === 0) {
    r = SPACE.test(String.fromCharCode(c)) ? 1 : 2;
    spaceCache[c] = r;
  }
  return r === 1;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** Length in UTF-16 units of the code point at i (2 for a surrogate pair, else 1). */
function cpLen(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** End of the number starting at digit i (rule 4): thousands groups when well-formed, decimals. */
function scanNumber(text: string, i: number): number {
  const len = text.length;
  let j = i;
  while (j < len && isDigit(text.charCodeAt(j))) j++;
  const scanDecimal = (k: number): number => {
    if (k + 1 < len && text.charCodeAt(k) === 46 && isDigit(text.charCodeAt(k + 1))) {
      k += 2;
      while (k < len && isDigit(text.charCodeAt(k))) k++;
    }
    return k;
  };
  if (j - i <= 3) {
    // \d{1,3}(,\d{3})+ : each group exactly three digits, not followed by a digit
    let k = j;
    let groups = 0;
    while (
      k + 3 < len &&
      text.charCodeAt(k) === 44 &&
      isDigit(text.charCodeAt(k + 1)) &&
      isDigit(text.charCodeAt(k + 2)) &&
      isDigit(text.charCodeAt(k + 3)) &&
      !(k + 4 < len && isDigit(text.charCodeAt(k + 4)))
    ) {
      k += 4;
      groups++;
    }
    if (groups > 0) {
      const e = scanDecimal(k);
      const followedByGroup = e + 1 < len && text.charCodeAt(e) === 44 && isDigit(text.charCodeAt(e + 1));
      if (!followedByGroup) return e;
    }
  }
  return scanDecimal(j);
}

/** What a LaTeX command (lower-cased) does: dropped, dropped with an invisible `.` after it, unwrapped, or a synonym. */
const CMD_DROPPED = 1;
const CMD_DELIMITER = 2;
const CMD_UNWRAP = 3;
const COMMAND_CLASS = new Map<string, number | string>();
for (const c of DROPPED_COMMANDS) COMMAND_CLASS.set(c, DELIMITER_COMMANDS.has(c) ? CMD_DELIMITER : CMD_DROPPED);
for (const c of UNWRAP_COMMANDS) COMMAND_CLASS.set(c, CMD_UNWRAP);
for (const [c, s] of COMMAND_SYNONYMS) COMMAND_CLASS.set(c, s);

/**
 * A growable Int32Array the lexer writes offsets to (one per module, reused: `lexText` copies out what it needs),
 * so a text's offsets are one typed array, outside the garbage-collected heap, instead of a grown JS array.
 */
class OffsetBuffer {
  data = new Int32Array(4096);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new Int32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
  /** A copy of the values pushed since the last reset, then reset. */
  take(): Int32Array {
    const out = this.data.slice(0, this.length);
    this.length = 0;
    return out;
  }
}
const startsBuffer = new OffsetBuffer();
const endsBuffer = new OffsetBuffer();
const idsBuffer = new OffsetBuffer();

/**
 * The tokens of `text` appended to `toks` / `starts` / `ends` (rules: the module comment). One pass over the
 * character codes: a token's kind is decided by its first character, ASCII words and commands are hashed while
 * they are scanned and interned (no substring is made for a token seen before), and every other token is
 * sliced only when it is emitted.
 *
 * Kept as one loop on purpose (issue 33 asks for functions over 150 lines to be split where a reader would
 * split them): it is a lexer's single dispatch on the first character, each branch a few lines that scan one
 * token kind and emit it, read top to bottom in the order the kinds are tried. Its parts share the scan
 * position, the running hash and ASCII flag of a word, and the brace / pending-command state; split into
 * functions they would pass these back through module variables or allocated results on every token of
 * texts up to 300k characters, which is slower and harder to follow than the branches as they are.
 */
function lexInto(text: string, toks: string[], starts: OffsetBuffer, ends: OffsetBuffer, ids: OffsetBuffer): void {
  if (typeof text !== 'string' || text.length === 0) return;
  // Brace stack: true = this `{` opened an unwrapped argument (its `}` is dropped).
  const braces: boolean[] = [];
  let pendingUnwrap = false; // the previous token was an unwrap command awaiting its `{`
  let pendingDelimiterDot = false; // the previous token was \left / \right / \big...
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || (c >= 128 && isNonAsciiSpace(c))) {
      i++;
      continue;
    }
    // every token (dropped ones too) ends what the token before it was waiting for
    const wasPendingDot = pendingDelimiterDot;
    const wasPendingUnwrap = pendingUnwrap;
    pendingDelimiterDot = false;
    pendingUnwrap = false;
    const start = i;
    if (c === 92 /* \ */ && i + 1 < len) {
      const d = text.charCodeAt(i + 1);
      if (isAsciiLetter(d)) {
        // command: `\` + ASCII letters, hashed (lower-cased) as it is scanned
        let h = Math.imul(0x811c9dc5 ^ 92, 0x01000193);
        let j = i + 1;
        while (j < len) {
          const e = text.charCodeAt(j);
          if (!isAsciiLetter(e)) break;
          h = Math.imul(h ^ lowerAscii(e), 0x01000193);
          j++;
        }
        i = j;
        const cmd = internHashed(text, start, j, h);
        const cls = COMMAND_CLASS.get(cmd);
        if (cls === undefined) {
          toks.push(cmd);
          ids.push(lastInternId);
        } else if (typeof cls === 'string') {
          toks.push(cls);
          ids.push(tokenId(cls));
        } else {
          if (cls === CMD_UNWRAP) pendingUnwrap = true;
          else if (cls === CMD_DELIMITER) pendingDelimiterDot = true;
          continue;
        }
        starts.push(start);
        ends.push(j);
        continue;
      }
      // escape: `\` + one other code point
      const j = i + 1 + cpLen(text, i + 1);
      i = j;
      const raw = text.slice(start, j);
      const mapped = ESCAPES.get(raw);
      if (mapped === null) continue;
      const tok = mapped === undefined ? raw.toLowerCase() : mapped;
      toks.push(tok);
      ids.push(tokenId(tok));
      starts.push(start);
      ends.push(j);
      continue;
    }
    if (isDigit(c)) {
      const j = scanNumber(text, i);
      i = j;
      let plain = true; // digits only: the token is the text itself
      for (let k = start; k < j && plain; k++) plain = isDigit(text.charCodeAt(k));
      if (plain) {
        toks.push(internAscii(text, start, j));
        ids.push(lastInternId);
      } else {
        const tok = normalizeNumber(text.slice(start, j));
        toks.push(tok);
        ids.push(tokenId(tok));
      }
      starts.push(start);
      ends.push(j);
      continue;
    }
    if (c < 128 ? isAsciiLetter(c) : isLetterAt(text, i)) {
      // word: letters and marks, internal apostrophes; ASCII words hashed as they are scanned
      let ascii = c < 128;
      let h = ascii ? Math.imul(0x811c9dc5 ^ lowerAscii(c), 0x01000193) : 0;
      let j = i + (ascii ? 1 : cpLen(text, i));
      for (;;) {
        if (j >= len) break;
        const e = text.charCodeAt(j);
        if (e < 128 ? isAsciiLetter(e) : isLetterAt(text, j)) {
          if (e < 128) h = Math.imul(h ^ lowerAscii(e), 0x01000193);
          else ascii = false;
          j += e < 128 ? 1 : cpLen(text, j);
        } else if ((e === 39 || e === 0x2019) && j + 1 < len && isLetterAt(text, j + 1)) {
          if (e === 39) h = Math.imul(h ^ 39, 0x01000193);
          else ascii = false;
          j += 1;
        } else break;
      }
      i = j;
      if (ascii) {
        toks.push(internHashed(text, start, j, h));
        ids.push(lastInternId);
      } else {
        const w = text.slice(start, j).toLowerCase();
        const tok = w.indexOf('’') >= 0 ? w.replace(/’/g, "'") : w;
        toks.push(tok);
        ids.push(tokenId(tok));
      }
      starts.push(start);
      ends.push(j);
      continue;
    }
    if (c === 46 && i + 2 < len && text.charCodeAt(i + 1) === 46 && text.charCodeAt(i + 2) === 46) {
      i += 3;
      toks.push('\\dots');
      ids.push(tokenId('\\dots'));
      starts.push(start);
      ends.push(i);
      continue;
    }
    if (c === 42 /* * */ && i + 1 < len && text.charCodeAt(i + 1) === 42) {
      // markdown emphasis: dropped
      i += 2;
      while (i < len && text.charCodeAt(i) === 42) i++;
      continue;
    }
    if (c === 36 /* $ */) {
      // math delimiters: dropped
      i++;
      while (i < len && text.charCodeAt(i) === 36) i++;
      continue;
    }
    // any other single code point
    const j = i + cpLen(text, i);
    i = j;
    if (c === 123 /* { */) {
      braces.push(wasPendingUnwrap);
      if (wasPendingUnwrap) continue;
      toks.push('{');
      ids.push(asciiCharId(c));
    } else if (c === 46 /* . */ && wasPendingDot) {
      continue; // \left. / \right.
    } else if (c === 125 /* } */) {
      if (braces.length > 0 && braces.pop() === true) continue;
      toks.push('}');
      ids.push(asciiCharId(c));
    } else if (c < 128) {
      toks.push(ASCII_CHAR_TOKENS[c]);
      ids.push(asciiCharId(c));
    } else {
      const raw = text.slice(start, j);
      const tok = CHAR_SYNONYMS.get(raw) ?? raw.toLowerCase();
      toks.push(tok);
      ids.push(tokenId(tok));
    }
    starts.push(start);
    ends.push(j);
  }
}

/**
 * Streams the normalised tokens of `text` to `sink` with their original offsets. Rules: see the module comment.
 *
 * @param text sample text (untrusted; a non-string is read as `''`).
 * @param sink receives `(token, start, end)` in text order.
 */
export function lexForSimilarity(text: string, sink: TokenSink): void {
  const { toks, starts, ends } = lexText(text);
  for (let t = 0; t < toks.length; t++) sink(toks[t], starts[t], ends[t]);
}

/** The tokens of one text with their offsets (parallel arrays), as {@link lexText} returns them. */
export interface LexedText {
  toks: string[];
  /** Start offset of each token in the original text (UTF-16 code units, inclusive). */
  starts: Int32Array;
  /** End offset of each token (exclusive). */
  ends: Int32Array;
  /**
   * The token id of each token: equal ids = equal token strings, for texts lexed with the same `epoch` (ids of
   * different epochs are not comparable). Absent in a LexedText made by other code.
   */
  ids?: Int32Array;
  /** The epoch of `ids`; -1 when the ids are not valid (the token table was emptied twice while lexing the text). */
  epoch?: number;
}

/**
 * The normalised tokens of `text` with their offsets, as parallel arrays: what the similarity index and
 * the computation paths both read, so a caller that needs both lexes each text once.
 *
 * @param text sample text (untrusted; a non-string is read as `''`).
 */
export function lexText(text: string): LexedText {
  let epoch = -1;
  let toks: string[] = [];
  // lexed again when the token table was emptied meanwhile (ids before and after it are not comparable)
  for (let attempt = 0; attempt < 2 && epoch < 0; attempt++) {
    toks = [];
    startsBuffer.length = 0;
    endsBuffer.length = 0;
    idsBuffer.length = 0;
    const before = tokenEpoch;
    lexInto(text, toks, startsBuffer, endsBuffer, idsBuffer);
    if (tokenEpoch === before) epoch = before;
  }
  return { toks, starts: startsBuffer.take(), ends: endsBuffer.take(), ids: idsBuffer.take(), epoch };
}

/**
 * The normalised tokens of `text` with their offsets in the original text.
 *
 * @param text sample text (untrusted; a non-string is read as `''`).
 * @returns tokens in text order; `[]` for an empty or whitespace-only text.
 * @example tokenizeWithOffsets('$\\dfrac{1}{2}$') ->
 *   [{token:'\\frac',start:1,end:7},{token:'{',start:7,end:8},{token:'1',start:8,end:9},...]
 */
export function tokenizeWithOffsets(text: string): SimToken[] {
  const out: SimToken[] = [];
  lexForSimilarity(text, (token, start, end) => out.push({ token, start, end }));
  return out;
}

/**
 * The normalised tokens of `text` (see the module comment for the rules).
 *
 * @param text sample text (untrusted; a non-string is read as `''`).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  lexForSimilarity(text, (token) => out.push(token));
  return out;
}

/**
 * The normalised text: the tokens of {@link tokenize} joined by one space. Two texts compare as
 * identical under the similarity measure exactly when their normalised texts are equal.
 *
 * @param text sample text (untrusted; a non-string is read as `''`).
 * @example normalizeForSimilarity('$\\dfrac{1}{2}$  is  \\boxed{0.50}') === '\\frac { 1 } { 2 } is 0.5'
 */
export function normalizeForSimilarity(text: string): string {
  return tokenize(text).join(' ');
}
