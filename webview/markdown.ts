/**
 * Renders a sample (untrusted model output) to an HTML string: Markdown (markdown-it) with math
 * (KaTeX) and collapsible `<think>` blocks. Pure string in, string out: no DOM here, so it runs in
 * node's test runner too. The webview then passes the result through DOMPurify (see sanitize.ts).
 *
 * Safety rules:
 * - `html: false`: raw HTML in the text (`<script>`, `<img onerror>`, `<svg>`) stays visible text.
 * - Links: only http(s) URLs are recognised (markdown-it's validateLink); a link is rendered as
 *   inert text (`<span class="md-link" title="URL">`), never as `<a href>`; images as `[image: alt]`
 *   text (no request). No autolinking.
 * - Math: KaTeX with `trust: false` (no `\href`, `\url`, `\includegraphics`, `\htmlClass`...),
 *   `maxExpand` 500 and `maxSize` 20em (macro bombs, giant rules), `throwOnError: false`, a fresh
 *   macro table per formula (`\gdef` cannot leak between formulas), formulas longer than
 *   {@link MAX_MATH} shown as code. The commands KaTeX refuses without trust are macros that keep
 *   what a reader would see ({@link REFUSED_COMMANDS}): the link text of `\href`, the URL of `\url`
 *   as plain text, `[image: path]` for `\includegraphics`, the body of `\htmlClass` and its kin.
 * - Dollar amounts are not math: an opening `$` must be followed by a non-space; the FIRST later
 *   unescaped `$` must close it, and it closes only when preceded by a non-space and not followed
 *   by a digit; otherwise the opening `$` is a literal dollar sign. So `$5 and $10` and
 *   `$1,000 to $2,000` stay text while `$x^2$`, `$5 \times 3 = 15$` are math.
 *   Display math: `$$...$$` and `\[...\]` (inline or as their own block lines), inline `\(...\)`.
 */
import MarkdownIt from 'markdown-it';
import katex from 'katex';

/** Longest formula handed to KaTeX, in characters; longer ones are shown as code. */
export const MAX_MATH = 4000;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The part of KaTeX's macro context the macros below use (katex/src/defineMacro.ts). Token lists come last-first. */
interface MacroContext {
  future(): { text: string };
  popToken(): { text: string };
  consumeArgs(n: number): { text: string }[][];
  lexer?: { setCatcode(char: string, code: number): void };
}

/** A token list (KaTeX keeps them last-first) as the text it spells, escaped for KaTeX's text mode. */
function tokensAsText(tokens: { text: string }[]): string {
  const esc: Record<string, string> = {
    '\\': '\\textbackslash{}',
    '{': '\\{',
    '}': '\\}',
    $: '\\$',
    '&': '\\&',
    '#': '\\#',
    '^': '\\textasciicircum{}',
    _: '\\_',
    '%': '\\%',
    '~': '\\textasciitilde{}',
  };
  return [...tokens]
    .reverse()
    .map((t) => t.text)
    .join('')
    .replace(/[\\{}$&#^_%~]/g, (c) => esc[c]);
}

/** A URL argument, read as KaTeX reads one: `%` is a character there, not a comment (catcode 13, then back to 14). */
function urlArgument(ctx: MacroContext): { text: string }[] {
  ctx.lexer?.setCatcode('%', 13);
  try {
    return ctx.consumeArgs(1)[0];
  } finally {
    ctx.lexer?.setCatcode('%', 14);
  }
}

/** `\cmd{a}{b}` -> `b`: the visible argument of a command taking `count` arguments. */
const keepArgument = (count: number, keep: number) => (ctx: MacroContext) => ({
  tokens: ctx.consumeArgs(count)[keep],
  numArgs: 0,
});

/**
 * The commands KaTeX refuses with `trust: false` (it would print their name in red and drop their
 * text), as macros that keep the visible text and make nothing live: `\href{url}{text}` -> text,
 * `\url{url}` -> the URL as plain text, `\includegraphics[opts]{path}` -> `[image: path]`,
 * `\htmlClass`/`\htmlId`/`\htmlStyle`/`\htmlData{x}{body}` -> body. A fresh copy per formula.
 */
export const REFUSED_COMMANDS: Record<string, (ctx: MacroContext) => unknown> = {
  '\\href': (ctx) => {
    urlArgument(ctx);
    return { tokens: ctx.consumeArgs(1)[0], numArgs: 0 };
  },
  '\\url': (ctx) => `\\textrm{${tokensAsText(urlArgument(ctx))}}`,
  '\\includegraphics': (ctx) => {
    if (ctx.future().text === '[') {
      // the optional [width=...] argument: skip to its closing bracket (or the end of the formula)
      for (let t = ctx.popToken(); t.text !== ']' && t.text !== 'EOF'; t = ctx.popToken());
    }
    return `\\text{[image: ${tokensAsText(urlArgument(ctx))}]}`;
  },
  '\\htmlClass': keepArgument(2, 1),
  '\\htmlId': keepArgument(2, 1),
  '\\htmlStyle': keepArgument(2, 1),
  '\\htmlData': keepArgument(2, 1),
};

/** KaTeX to HTML with the safety options above; any failure gives the escaped source as code. */
export function renderMath(tex: string, displayMode: boolean): string {
  if (tex.length > MAX_MATH) return `<code class="math-raw">${escapeHtml(tex)}</code>`;
  try {
    const html = katex.renderToString(tex, {
      displayMode,
      throwOnError: false,
      trust: false,
      strict: 'ignore',
      maxExpand: 500,
      maxSize: 20,
      macros: { ...REFUSED_COMMANDS } as Record<string, (ctx: object) => string>,
      output: 'htmlAndMathml',
      globalGroup: false,
    });
    // KaTeX lays glyphs out with inline style attributes, which the CSP (no 'unsafe-inline') blocks
    // wherever HTML is parsed; they travel as data-ti-style and sanitize.ts applies vetted ones via CSSOM.
    // Safe as a regex: KaTeX escapes `"` in text, so ` style="` only occurs as an attribute.
    return html.replace(/ style="([^"]*)"/g, ' data-ti-style="$1"');
  } catch {
    return `<code class="math-raw">${escapeHtml(tex)}</code>`;
  }
}

/** The markdown-it instance type (spelled this way so it resolves under both CJS and ESM typings). */
export type Markdown = InstanceType<typeof MarkdownIt>;
type StateInline = Parameters<Parameters<Markdown['inline']['ruler']['before']>[2]>[0];
type StateBlock = Parameters<Parameters<Markdown['block']['ruler']['before']>[2]>[0];

function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const pos = state.pos;
  const max = state.posMax;
  const ch = src.charCodeAt(pos);
  const push = (display: boolean, content: string, markup: string, end: number) => {
    if (!silent) {
      const t = state.push(display ? 'math_display' : 'math_inline', 'math', 0);
      t.content = content;
      t.markup = markup;
    }
    state.pos = end;
    return true;
  };
  if (ch === 0x5c /* \ */) {
    const next = src[pos + 1];
    if (next !== '(' && next !== '[') return false;
    const close = next === '(' ? '\\)' : '\\]';
    const end = src.indexOf(close, pos + 2);
    if (end < 0 || end + 2 > max) return false;
    const content = src.slice(pos + 2, end);
    if (content.trim() === '') return false;
    return push(next === '[', content, `\\${next}`, end + 2);
  }
  if (ch !== 0x24 /* $ */) return false;
  if (src.charCodeAt(pos + 1) === 0x24) {
    const end = src.indexOf('$$', pos + 2);
    if (end < 0 || end + 2 > max) return false;
    const content = src.slice(pos + 2, end);
    if (content.trim() === '') return false;
    return push(true, content, '$$', end + 2);
  }
  if (pos + 1 >= max || isSpace(src.charCodeAt(pos + 1))) return false;
  let end = pos + 1;
  for (;;) {
    end = src.indexOf('$', end);
    if (end < 0 || end >= max) return false;
    if (src.charCodeAt(end - 1) === 0x5c) {
      end++;
      continue;
    }
    break;
  }
  if (isSpace(src.charCodeAt(end - 1)) || isDigit(src.charCodeAt(end + 1))) return false;
  return push(false, src.slice(pos + 1, end), '$', end + 1);
}

function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const lineText = (l: number) => state.src.slice(state.bMarks[l] + state.tShift[l], state.eMarks[l]);
  const first = lineText(startLine);
  let close: string;
  if (first.startsWith('$$')) close = '$$';
  else if (first.startsWith('\\[')) close = '\\]';
  else return false;
  const rest = first.slice(2);
  let content: string;
  let last = startLine;
  const at = rest.indexOf(close);
  if (at >= 0) {
    if (rest.slice(at + 2).trim() !== '') return false; // `$$a$$ more text`: inline math in a paragraph
    content = rest.slice(0, at);
  } else {
    const lines = [rest];
    let found = false;
    for (let l = startLine + 1; l < endLine; l++) {
      const s = lineText(l);
      if (s.trim() === '') return false; // display math has no blank lines
      const j = s.indexOf(close);
      if (j >= 0) {
        if (s.slice(j + 2).trim() !== '') return false;
        lines.push(s.slice(0, j));
        last = l;
        found = true;
        break;
      }
      lines.push(s);
    }
    if (!found) return false;
    content = lines.join('\n');
  }
  if (content.trim() === '') return false;
  if (silent) return true;
  state.line = last + 1;
  const t = state.push('math_block', 'math', 0);
  t.block = true;
  t.content = content;
  t.markup = close;
  t.map = [startLine, state.line];
  return true;
}

/** A markdown-it instance with the rules above. */
export function createMarkdown(): Markdown {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: true });
  md.validateLink = (url: string) => /^https?:\/\//i.test(url.trim());
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.renderer.rules.math_inline = (tokens, idx) => renderMath(tokens[idx].content, false);
  md.renderer.rules.math_display = (tokens, idx) =>
    `<span class="math-display">${renderMath(tokens[idx].content, true)}</span>`;
  md.renderer.rules.math_block = (tokens, idx) =>
    `<div class="math-block">${renderMath(tokens[idx].content, true)}</div>\n`;
  md.renderer.rules.link_open = (tokens, idx) =>
    `<span class="md-link" title="${escapeHtml(String(tokens[idx].attrGet('href') ?? ''))}">`;
  md.renderer.rules.link_close = () => '</span>';
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx];
    const alt = t.children ? t.children.map((c) => c.content).join('') : t.content;
    return `<span class="md-image" title="${escapeHtml(String(t.attrGet('src') ?? ''))}">[image: ${escapeHtml(alt)}]</span>`;
  };
  return md;
}

/** A piece of a sample: inside a `<think>` block or not. */
export interface TextPart {
  think: boolean;
  text: string;
  /** For think parts: whether the closing tag was present. */
  closed: boolean;
}

/**
 * Splits a sample at `<think>` / `</think>` tags (case-insensitive). A `</think>` without an
 * opening tag (chat templates that put `<think>` in the prompt) makes everything before it a think
 * part; an unclosed `<think>` runs to the end. Empty parts are dropped.
 */
export function splitThink(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const re = /<(\/?)think>/gi;
  let inThink = false;
  let last = 0;
  let m: RegExpExecArray | null;
  const add = (think: boolean, s: string, closed: boolean) => {
    if (s.trim() !== '') parts.push({ think, text: s, closed });
  };
  while ((m = re.exec(text))) {
    const closing = m[1] === '/';
    const chunk = text.slice(last, m.index);
    if (closing) {
      // before a closing tag: a think part (also when no opening tag was seen)
      add(true, chunk, true);
      inThink = false;
    } else if (!inThink) {
      add(false, chunk, true);
      inThink = true;
    } else {
      add(true, chunk, false); // nested/duplicate opening: keep the text in the think block
    }
    last = m.index + m[0].length;
  }
  add(inThink, text.slice(last), !inThink);
  return parts;
}

const wordCount = (s: string) => (s.match(/\S+/g) ?? []).length;

/**
 * Renders a whole sample: Markdown with math, `<think>` parts as collapsed `<details>`.
 * The result still goes through DOMPurify before it reaches the DOM.
 */
export function renderTrace(text: string, md: Markdown = sharedMd()): string {
  return splitThink(text)
    .map((p) =>
      p.think
        ? `<details class="think"><summary>Thinking · ${wordCount(p.text)} words${p.closed ? '' : ' (unclosed)'}</summary><div class="think-body">${md.render(p.text)}</div></details>`
        : md.render(p.text),
    )
    .join('\n');
}

/**
 * Characters of Markdown rendered in one piece when a long sample is rendered incrementally. A piece is
 * the unit of work between two checks of the slice's time budget (webview/traceRender.ts): a math-dense
 * piece of 2,500 characters took 20-30 ms of CPU (KaTeX, DOMPurify) and, with V8's incremental marking
 * steps and a busy machine, one piece held the renderer's thread 0.2 s (perf.e2e trace of the preview);
 * at 1,000 characters a piece is 8-12 ms of CPU.
 */
export const CHUNK_CHARS = 1000;

/** One part of a sample (inside a `<think>` block or not) as the Markdown pieces it is rendered from. */
export interface PlannedPart {
  think: boolean;
  closed: boolean;
  /** Words in the part (the think block's summary says how long it is). */
  words: number;
  /** Consecutive pieces of the part's text; joined they are the part's text. */
  chunks: string[];
}

/**
 * Splits Markdown into pieces of about `target` characters that render the same one by one as the
 * whole does: cuts only at a blank line that is outside fenced code (```/~~~) and outside display
 * math (`$$`, `\[ \]` blocks), once the piece holds `target` characters. A piece that reaches 8 x
 * `target` without such a line is cut at the next line break outside fences and math. Text without
 * line breaks stays one piece. Joined, the pieces give back `text` exactly.
 */
export function chunkMarkdown(text: string, target = CHUNK_CHARS): string[] {
  if (text.length <= target) return [text];
  const out: string[] = [];
  let start = 0;
  let fence: string | null = null; // the opening fence run while inside fenced code
  let math: '$$' | '\\]' | null = null; // the closer while inside display math
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    const line = text.slice(pos, nl < 0 ? text.length : nl);
    const trimmed = line.trimStart();
    if (fence) {
      const m = /^(`{3,}|~{3,})\s*$/.exec(trimmed);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
    } else if (math) {
      if (line.includes(math)) math = null;
    } else {
      const f = /^(`{3,}|~{3,})/.exec(trimmed);
      if (f && line.length - trimmed.length <= 3) fence = f[1];
      else if (trimmed.startsWith('$$') && !trimmed.slice(2).includes('$$')) math = '$$';
      else if (trimmed.startsWith('\\[') && !trimmed.includes('\\]')) math = '\\]';
    }
    pos = end;
    const size = pos - start;
    const outside = !fence && !math;
    if (outside && pos < text.length && ((size >= target && trimmed === '') || size >= 8 * target)) {
      out.push(text.slice(start, pos));
      start = pos;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** A sample as it is rendered incrementally: its `<think>` parts and the pieces of each (see {@link chunkMarkdown}). */
export function planTrace(text: string, target = CHUNK_CHARS): PlannedPart[] {
  return splitThink(text).map((p) => ({
    think: p.think,
    closed: p.closed,
    words: wordCount(p.text),
    chunks: chunkMarkdown(p.text, target),
  }));
}

/** The shared markdown-it instance of the views. */
export function sharedMarkdown(): Markdown {
  return sharedMd();
}

let shared: Markdown | undefined;
function sharedMd(): Markdown {
  shared ??= createMarkdown();
  return shared;
}
