import { hash } from 'node:crypto';

/**
 * Escapes control characters so that text from model output can be printed to a terminal
 * without acting on it: C0 controls (except `\n` and `\t` when `keepNewlines`), DEL, C1 controls
 * (U+0080..U+009F, which include the 8-bit CSI), and the bidi overrides U+202A..U+202E,
 * U+2066..U+2069 are shown as `\xNN` / `\u{NNNN}`. ESC therefore never reaches the terminal, so no
 * ANSI/OSC escape sequence can be injected.
 */
export function escapeControl(text: string, keepNewlines = false): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (ch) => {
    if (keepNewlines && (ch === '\n' || ch === '\t')) return ch;
    if (ch === '\n') return '\\n';
    if (ch === '\t') return '\\t';
    if (ch === '\r') return '\\r';
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** Shortens `text` to at most `max` characters on one line (whitespace collapsed), adding `…` when cut. */
export function preview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Content hash of a sample text: the first 16 hex digits of its SHA-1. Part of an annotation's
 * key, so that an annotation never re-attaches to a sample whose text changed.
 */
export function contentHash(text: string): string {
  return hash('sha1', text, 'hex').slice(0, 16);
}

/**
 * {@link contentHash} of a text given as its UTF-8 bytes (`Buffer.write` / `Buffer.from` of the text:
 * a lone surrogate as U+FFFD, as `hash` encodes a string), without encoding the text a second time.
 */
export function contentHashOfUtf8(utf8: Uint8Array): string {
  return hash('sha1', utf8, 'hex').slice(0, 16);
}

/**
 * The problem id of a problem that has no id, from its text: `#` and the first 12 hex digits of the
 * SHA-1 of the text in Unicode NFC with runs of whitespace made one space and the ends trimmed, so
 * that files which write the same problem with other line breaks or spacing key it alike.
 */
export function problemTextKey(text: string): string {
  return `#${hash('sha1', text.normalize('NFC').replace(/\s+/g, ' ').trim(), 'hex').slice(0, 12)}`;
}

/** Length of a text in Unicode code points (what SQLite's length() gives for a text without NUL). */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // a high surrogate followed by a low one is one code point
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const ORDINAL_RULES = new Intl.PluralRules('en-US', { type: 'ordinal' });
const ORDINAL_SUFFIX: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };

/**
 * An English ordinal of a position (1-based): `1st`, `2nd`, `3rd`, `4th`, `11th`, `12th`, `13th`, `21st`,
 * `112th`; the plural category from the platform (`Intl.PluralRules` with `type: 'ordinal'`). Used where a
 * position in a list stands beside an id or a 0-based index, so the two are not read as one kind of number.
 */
export function ordinal(n: number): string {
  return `${n}${ORDINAL_SUFFIX[ORDINAL_RULES.select(n)] ?? 'th'}`;
}

/**
 * A count with its noun in the right number: `plural(1, 'sample')` -> `1 sample`, `plural(3, 'sample')` ->
 * `3 samples`, `plural(0, 'sample')` -> `0 samples`; `many` for irregular plurals (`plural(2, 'is', 'are')`
 * -> `2 are`). English only: 1 is singular, every other count (0, 2, 1.5) plural. So notes never say
 * "1 samples" (trial 6 finding 11).
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
