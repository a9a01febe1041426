import { splitIntoBlocks, type Piece } from './textBlocks';

/**
 * Tiny DOM builder: strings become text nodes (never HTML), attributes are set one by one, and
 * `on*` keys add event listeners. Everything the views build from data goes through here.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    else if (k === 'className') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (typeof c === 'string' || typeof c === 'number') el.appendChild(document.createTextNode(String(c)));
    else el.appendChild(c);
  }
}

/** A table of one header row (`head`, as text) over `rows` (its `tr` elements); `attrs` go on the table. */
export function headedTable(attrs: Attrs | null, head: readonly string[], rows: Child[]): HTMLTableElement {
  return h(
    'table',
    attrs,
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        head.map((t) => h('th', null, t)),
      ),
    ),
    h('tbody', null, rows),
  );
}

/** Formats a number in [0, 1] with 3 decimals; `—` for null. */
export const fmt = (v: number | null | undefined, digits = 3): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);
export const pct = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`;

/** Replaces `el`'s children (null/false children skipped; strings as text). */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** One run of text and how to show it (default: a plain text node). */
export type TextPiece = Piece<(text: string) => Node>;

/**
 * Appends long text, given as consecutive pieces, as the blocks of {@link splitIntoBlocks}, each a
 * `div.text-block` that the browser lays out only near the viewport (CSS content-visibility). The
 * text content of `container` is the pieces' texts joined. Short text makes one block.
 */
export function appendInBlocks(container: HTMLElement, pieces: Iterable<TextPiece>, blockChars = 4000): void {
  for (const pieceList of splitIntoBlocks(pieces, blockChars)) {
    const block = h('div', { className: 'text-block' });
    for (const { text, wrap } of pieceList) block.appendChild(wrap ? wrap(text) : document.createTextNode(text));
    container.appendChild(block);
  }
}
