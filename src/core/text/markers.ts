/**
 * Reasoning-marker counts and text lengths of a sample (issue 36): what the indexer stores per sample
 * (no copy of the text) and the analyses of src/core/analyses/reasoningMarkers.ts average.
 *
 * - **Lexicon**: behaviours (verification, backtracking, subgoal setting, backward chaining: Gandhi et al.
 *   2025, "Cognitive Behaviors that Enable Self-Improving Reasoners", arXiv:2503.01307), each a list of
 *   phrases. The shipped one is `markers.json` beside this file; a folder adds to it with
 *   `.trace-inspector/markers.json` ({@link loadMarkerLexicon}). These are *marker counts*: how often a
 *   phrase occurs, not whether the model verified anything.
 * - **Matching**: the text and each phrase are cut into pieces by one rule ({@link PIECE_RULE}) after Unicode
 *   NFKC and lowercasing; a phrase matches a run of consecutive word pieces equal to its words (punctuation
 *   and spacing between words are ignored: "Wait, actually" holds "wait actually"; "let’s" is "let's").
 *   A phrase never matches inside a word ("awaiting" holds no "wait"). Within one behaviour the matches do not
 *   overlap: scanning left to right, the longest phrase starting at a word is taken and the scan of that
 *   behaviour goes on after it ("let me verify" counts once, not also as "verify"). Behaviours are counted
 *   independently: a phrase listed under two behaviours counts in both, and "wait, let me check" counts one
 *   backtracking and one verification marker.
 * - **Tokens**: {@link PIECE_RULE} pieces, the approximation used when the results carry no token count.
 * - **Cost**: one regular-expression pass over the text plus a walk of a word trie from each word (at most as
 *   deep as the longest phrase): linear in the text, whatever the number of phrases.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import shipped from './markers.json';
import { codePoints } from './strings';

/** One behaviour of the lexicon and its phrases (as written; matched after normalisation). */
export interface MarkerBehaviour {
  /** Stable key (`verification`), the column name in figures and CSV. */
  id: string;
  label: string;
  description: string;
  phrases: string[];
}

/** A lexicon: its behaviours in a fixed order (the order of the stored counts). */
export interface MarkerLexicon {
  behaviours: MarkerBehaviour[];
}

/** What a sample measures: lengths and one marker count per behaviour of the lexicon, in its order. */
export interface TextMeasures {
  /** Length in Unicode code points. */
  chars: number;
  /** Pieces by {@link PIECE_RULE}. */
  pieces: number;
  /** Marker counts, one per behaviour, in the lexicon's order. */
  markers: number[];
}

/** One marker found in a text (for examples a reader can judge the lexicon by). */
export interface MarkerMatch {
  behaviour: string;
  /** The lexicon's phrase, as written there. */
  phrase: string;
  /** Offsets in the text's NFKC form (the text itself when NFKC leaves it unchanged). */
  start: number;
  end: number;
}

/**
 * Meta key of the index holding the lexicon (JSON of {@link MarkerLexicon}) its samples' `markers` counts were
 * made with, in its behaviours' order. An indexing pass with another lexicon reads every file again.
 */
export const MARKERS_LEXICON_KEY = 'markers_lexicon';

/** Where a folder adds to the lexicon (relative to the folder). */
export const MARKERS_FILE = '.trace-inspector/markers.json';

/**
 * The rule that makes pieces ("tokens" when the results carry no token count): after NFKC, each run of
 * letters, combining marks and digits is a piece, except that each Han, Hiragana or Katakana character is a
 * piece of its own; each other character that is not white space (punctuation, symbols) is a piece. This is
 * the pre-tokenisation of BERT's BasicTokenizer (Devlin et al. 2019, google-research/bert tokenization.py);
 * a subword tokenizer gives more tokens (English prose: about 1.3 BPE tokens per word piece).
 */
export const PIECE_RULE =
  'pieces: runs of letters/marks/digits, each Han or kana character, each other non-space character (after NFKC)';

/** The shipped lexicon (markers.json), behaviours in the file's order. */
export const DEFAULT_LEXICON: MarkerLexicon = lexiconFromJson(shipped as LexiconJson);

interface BehaviourJson {
  label?: string;
  description?: string;
  phrases?: unknown;
  remove?: unknown;
}
interface LexiconJson {
  behaviours?: Record<string, BehaviourJson>;
}

function lexiconFromJson(j: LexiconJson): MarkerLexicon {
  return {
    behaviours: Object.entries(j.behaviours ?? {}).map(([id, b]) => ({
      id,
      label: b.label ?? id,
      description: b.description ?? '',
      phrases: (b.phrases as string[]) ?? [],
    })),
  };
}

/** Measure ids the analysis gives the lengths (reasoningMarkers.ts): no behaviour may take one. */
export const RESERVED_MEASURE_IDS: readonly string[] = ['chars', 'tokens'];

/**
 * A lexicon with a folder's additions: `{"behaviours": {"<id>": {"phrases": [...], "remove": [...],
 * "label": "...", "description": "..."}}}`. Phrases of a known behaviour are added (and `remove`d, compared
 * after normalisation); an unknown id is a new behaviour, after the known ones. Bad parts are left out and
 * each named in `problems` (`source` names the file): a behaviour named like a length measure
 * ({@link RESERVED_MEASURE_IDS}), a new behaviour without phrases, a phrase to remove that the behaviour does not
 * have. Never throws.
 */
export function mergeLexicon(
  base: MarkerLexicon,
  additions: unknown,
  source = MARKERS_FILE,
): { lexicon: MarkerLexicon; problems: string[] } {
  const problems: string[] = [];
  const behaviours = base.behaviours.map((b) => ({ ...b, phrases: [...b.phrases] }));
  const bs = (additions as LexiconJson | null)?.behaviours;
  if (typeof additions !== 'object' || additions === null || typeof bs !== 'object' || bs === null) {
    problems.push(`${source}: expected {"behaviours": {"<behaviour>": {"phrases": [...]}}}; left out`);
    return { lexicon: { behaviours }, problems };
  }
  for (const [id, add] of Object.entries(bs)) {
    if (RESERVED_MEASURE_IDS.includes(id)) {
      problems.push(
        `${source}: behaviour ${JSON.stringify(id)} has the name of a length measure (${RESERVED_MEASURE_IDS.join(', ')}); left out: give it another name`,
      );
      continue;
    }
    if (typeof add !== 'object' || add === null) {
      problems.push(`${source}: behaviour ${JSON.stringify(id)} is not an object; left out`);
      continue;
    }
    const phrases = stringList(add.phrases, `${source}: ${id}.phrases`, problems);
    const remove = stringList(add.remove, `${source}: ${id}.remove`, problems);
    for (const p of [...phrases, ...remove])
      if (phraseWords(p).length === 0) problems.push(`${source}: phrase ${JSON.stringify(p)} of ${id} has no word`);
    let b = behaviours.find((x) => x.id === id);
    // a new behaviour without phrases would be a column of zeros
    if (!b && phrases.length === 0) {
      problems.push(`${source}: new behaviour ${JSON.stringify(id)} has no phrase; left out`);
      continue;
    }
    for (const p of remove)
      if (!b?.phrases.some((q) => phraseWords(q).join(' ') === phraseWords(p).join(' ')))
        problems.push(`${source}: ${id}.remove: ${JSON.stringify(p)} is not a phrase of ${id}; nothing removed`);
    if (!b) {
      b = { id, label: typeof add.label === 'string' ? add.label : id, description: '', phrases: [] };
      behaviours.push(b);
    } else if (typeof add.label === 'string') b.label = add.label;
    if (typeof add.description === 'string') b.description = add.description;
    const gone = new Set(remove.map((p) => phraseWords(p).join(' ')));
    b.phrases = [...b.phrases, ...phrases].filter((p) => !gone.has(phraseWords(p).join(' ')));
  }
  return { lexicon: { behaviours }, problems };
}

function stringList(v: unknown, where: string, problems: string[]): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    problems.push(`${where} must be a list of strings; left out`);
    return [];
  }
  return v as string[];
}

/**
 * The lexicon of a folder: {@link DEFAULT_LEXICON} with `<root>/.trace-inspector/markers.json` merged in
 * ({@link mergeLexicon}). A missing file is no problem; an unreadable or malformed one is named in
 * `problems` and the shipped lexicon is used.
 */
export async function loadMarkerLexicon(root: string): Promise<{ lexicon: MarkerLexicon; problems: string[] }> {
  let raw: string;
  try {
    raw = await readFile(join(root, MARKERS_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { lexicon: DEFAULT_LEXICON, problems: [] };
    return { lexicon: DEFAULT_LEXICON, problems: [`${MARKERS_FILE}: ${(e as Error).message}`] };
  }
  try {
    return mergeLexicon(DEFAULT_LEXICON, JSON.parse(raw));
  } catch (e) {
    return { lexicon: DEFAULT_LEXICON, problems: [`${MARKERS_FILE}: malformed JSON (${(e as Error).message})`] };
  }
}

/**
 * A stable text of what the lexicon counts (behaviour ids and their normalised phrases, in order): stored
 * with the index, so that counts made with another lexicon are made again.
 */
export function lexiconKey(lex: MarkerLexicon): string {
  return JSON.stringify(
    lex.behaviours.map((b) => [b.id, [...new Set(b.phrases.map((p) => phraseWords(p).join(' ')))]]),
  );
}

/** The word pieces of a phrase (NFKC, lowercase, punctuation left out). */
export function phraseWords(phrase: string): string[] {
  const norm = phrase.normalize('NFKC').toLowerCase();
  const buf = newWordBuffer(16);
  const { words } = tokenize(norm, null, buf);
  return Array.from({ length: words }, (_, k) => norm.slice(buf.starts[k], buf.ends[k]));
}

// Classes of code points for the piece rule: white space, word (letter, mark, digit), a piece of its own
// (Han, Hiragana, Katakana), other (punctuation, symbols, controls: one piece each).
const SPACE = 0;
const WORD = 1;
const OTHER = 2;
const SINGLE = 3;
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return /\s/.test(ch) ? SPACE : /[A-Za-z0-9]/.test(ch) ? WORD : OTHER;
});
const SINGLE_RE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const WORD_RE = /[\p{L}\p{M}\p{N}]/u;
const SPACE_RE = /\s/u;
/** Classes of the non-ASCII code points met so far (bounded: beyond it, each is classified again). */
const classCache = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 128) return ASCII_CLASS[cp];
  let k = classCache.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    k = SPACE_RE.test(ch) ? SPACE : SINGLE_RE.test(ch) ? SINGLE : WORD_RE.test(ch) ? WORD : OTHER;
    if (classCache.size < 1 << 16) classCache.set(cp, k);
  }
  return k;
}

function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Word pieces found by {@link tokenize}: offsets in the normalised text and {@link wordHash} of each. */
interface WordBuffer {
  starts: Int32Array;
  ends: Int32Array;
  hashes: Uint16Array;
}

function newWordBuffer(size = 1024): WordBuffer {
  return { starts: new Int32Array(size), ends: new Int32Array(size), hashes: new Uint16Array(size) };
}

function growWordBuffer(w: WordBuffer): void {
  const n = w.starts.length * 2;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const hashes = new Uint16Array(n);
  starts.set(w.starts);
  ends.set(w.ends);
  hashes.set(w.hashes);
  w.starts = starts;
  w.ends = ends;
  w.hashes = hashes;
}

/**
 * The pieces of a normalised text by {@link PIECE_RULE}, in one pass. Word pieces (a run of word characters,
 * or one Han/kana character) go into `out` in order; with `known` (a set of {@link wordHash} values), a word
 * whose hash is not in it is kept only as a gap (start -1), one per run of such words, since no phrase spans
 * it. Returns the number of entries of `out` and the number of pieces (words and other non-space characters).
 */
function tokenize(norm: string, known: Uint8Array | null, out: WordBuffer): { words: number; pieces: number } {
  let pieces = 0;
  let words = 0;
  const n = norm.length;
  let i = 0;
  while (i < n) {
    const c = norm.charCodeAt(i);
    let k: number;
    let w = 1;
    if (c < 128) k = ASCII_CLASS[c];
    else {
      const cp = codePointAt(norm, i);
      k = classOf(cp);
      if (cp > 0xffff) w = 2;
    }
    if (k === SPACE) {
      i += w;
      continue;
    }
    pieces++;
    if (k === OTHER) {
      i += w;
      continue;
    }
    const start = i;
    let h = 0;
    if (k === SINGLE) {
      for (let u = 0; u < w; u++) h = (h * 31 + norm.charCodeAt(i + u)) & 0xffff;
      i += w;
    } else {
      while (i < n) {
        const d = norm.charCodeAt(i);
        if (d < 128) {
          if (ASCII_CLASS[d] !== WORD) break;
          h = (h * 31 + d) & 0xffff;
          i++;
          continue;
        }
        const q = codePointAt(norm, i);
        if (classOf(q) !== WORD) break;
        h = (h * 31 + d) & 0xffff;
        if (q > 0xffff) h = (h * 31 + norm.charCodeAt(i + 1)) & 0xffff;
        i += q > 0xffff ? 2 : 1;
      }
    }
    const gap = known !== null && known[h] === 0;
    if (gap && words > 0 && out.starts[words - 1] === -1) continue;
    if (words === out.starts.length) growWordBuffer(out);
    out.starts[words] = gap ? -1 : start;
    out.ends[words] = i;
    out.hashes[words] = h;
    words++;
  }
  return { words, pieces };
}

/** A 16-bit hash of a word's UTF-16 units (h = h * 31 + unit): a filter before a word is looked up. */
function wordHash(w: string): number {
  let h = 0;
  for (let i = 0; i < w.length; i++) h = (h * 31 + w.charCodeAt(i)) & 0xffff;
  return h;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Behaviours (indices) with a phrase ending here, and that phrase as written. */
  ends: { b: number; phrase: string }[];
}

/**
 * Counts the markers of one lexicon in texts ({@link TextMeasures}) and finds them ({@link matches}).
 * Build once per lexicon; `measure` is then linear in the text (see the module's comment for the rules).
 * Not re-entrant (reuses its buffers): one counter per thread.
 */
export class MarkerCounter {
  private readonly root: TrieNode = { next: new Map(), ends: [] };
  /** Longest word of any phrase, in UTF-16 units: longer words of a text are never looked up. */
  private maxWord = 0;
  /** {@link wordHash} of every word of the phrases: a word of a text with another hash is not looked up. */
  private readonly known = new Uint8Array(65536);
  /** The same for the first words of the phrases (where a match can start). */
  private readonly knownFirst = new Uint8Array(65536);
  private readonly buf = newWordBuffer();
  readonly behaviours: readonly string[];

  constructor(readonly lexicon: MarkerLexicon) {
    this.behaviours = lexicon.behaviours.map((b) => b.id);
    lexicon.behaviours.forEach((beh, b) => {
      for (const phrase of beh.phrases) {
        const words = phraseWords(phrase);
        if (words.length === 0) continue;
        let node = this.root;
        this.knownFirst[wordHash(words[0])] = 1;
        for (const w of words) {
          this.known[wordHash(w)] = 1;
          this.maxWord = Math.max(this.maxWord, w.length);
          let child = node.next.get(w);
          if (!child) node.next.set(w, (child = { next: new Map(), ends: [] }));
          node = child;
        }
        if (!node.ends.some((e) => e.b === b)) node.ends.push({ b, phrase });
      }
    });
  }

  /** Lengths and marker counts of `text` (a non-string counts as the empty text). */
  measure(text: string): TextMeasures {
    const markers = new Array<number>(this.behaviours.length).fill(0);
    if (typeof text !== 'string' || text.length === 0) return { chars: 0, pieces: 0, markers };
    const norm = text.normalize('NFKC').toLowerCase();
    const { words, pieces } = tokenize(norm, this.known, this.buf);
    this.scan(norm, words, (b) => markers[b]++);
    return { chars: codePoints(text), pieces, markers };
  }

  /** The markers of `text`, at most `limit`, in text order (offsets in its NFKC form). */
  matches(text: string, limit = Number.POSITIVE_INFINITY): MarkerMatch[] {
    // lowercasing changes the length of a few characters (U+0130): offsets are then those of the lowercase form
    const norm = text.normalize('NFKC').toLowerCase();
    const { words } = tokenize(norm, this.known, this.buf);
    const out: MarkerMatch[] = [];
    this.scan(norm, words, (b, i, len, phrase) => {
      if (out.length >= limit) return;
      out.push({ behaviour: this.behaviours[b], phrase, start: this.buf.starts[i], end: this.buf.ends[i + len - 1] });
    });
    return out;
  }

  /** The child of `node` for word `k` of `norm`, if any (words longer than every phrase word are not sliced). */
  private child(node: TrieNode, norm: string, k: number): TrieNode | undefined {
    const s = this.buf.starts[k];
    const e = this.buf.ends[k];
    return s < 0 || e - s > this.maxWord ? undefined : node.next.get(norm.slice(s, e));
  }

  /** Left-to-right, longest-first, non-overlapping within each behaviour; calls `hit` per counted marker. */
  private scan(norm: string, words: number, hit: (b: number, at: number, len: number, phrase: string) => void): void {
    const n = this.behaviours.length;
    const freeFrom = new Array<number>(n).fill(0);
    const bestLen = new Array<number>(n).fill(0);
    const bestPhrase = new Array<string>(n).fill('');
    for (let i = 0; i < words; i++) {
      if (this.knownFirst[this.buf.hashes[i]] === 0 || this.buf.starts[i] < 0) continue;
      let node = this.child(this.root, norm, i);
      if (node === undefined) continue;
      let found = false;
      for (let j = i; node !== undefined; ) {
        for (const e of node.ends) {
          bestLen[e.b] = j - i + 1;
          bestPhrase[e.b] = e.phrase;
          found = true;
        }
        j++;
        if (j >= words) break;
        node = this.child(node, norm, j);
      }
      if (!found) continue;
      for (let b = 0; b < n; b++) {
        if (bestLen[b] === 0) continue;
        if (i >= freeFrom[b]) {
          hit(b, i, bestLen[b], bestPhrase[b]);
          freeFrom[b] = i + bestLen[b];
        }
        bestLen[b] = 0;
      }
    }
  }
}
