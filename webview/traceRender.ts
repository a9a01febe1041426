/**
 * Renders a sample into the DOM a piece at a time, so a long trace (hundreds of thousands of
 * characters) never holds the renderer's main thread for long: in code-server the webview shares
 * that thread with the workbench. The sample is cut into pieces (markdown.ts {@link planTrace}), each
 * with a slot in the page from the start (a box of its estimated height, so the scroll bar is the
 * whole sample's at once). Pieces render in slices of at most {@link SLICE_MS} milliseconds between
 * which the browser handles input and paints: a slice renders at least one piece and stops before a
 * piece that the time per character measured so far says would not fit in the rest of its budget.
 * Rendered pieces enter the page together every {@link FLUSH_MS} milliseconds (each change of the page
 * costs a frame's style, layout and paint).
 *
 * Two ways, by length ({@link VIRTUAL_MIN_CHARS}):
 * - a sample up to that length renders every piece, top to bottom;
 * - a longer one is virtualised: only the pieces within {@link NEAR_PX} of the visible part of the page
 *   render (the nearest first), and a rendered piece farther than {@link FAR_PX} from it goes back to an
 *   empty box of the height it had. The page then holds a few dozen pieces however long the sample,
 *   so scrolling, showing a hidden tab or a theme change lays out and styles only those (with all 300
 *   pieces of a 300k-character sample in the page, one scroll of the preview was a 1.07 s task). A
 *   piece in a collapsed `<think>` block renders when the block is opened.
 * Every piece goes through markdown.ts (markdown-it + KaTeX) and DOMPurify (sanitize.ts): the slots only
 * decide when and where.
 */
import { h } from './dom';
import { type PlannedPart, planTrace, sharedMarkdown } from './markdown';
import { estimatedHeight } from './textBlocks';
import { applyStyles, sanitizeToFragment } from './sanitize';
import { LONG_SAMPLE_CHARS } from '../src/shared/longSample';

/**
 * Longest stretch of rendering work between two yields to the browser, in milliseconds. 24 since pieces
 * are 1,000 characters and a slice stops before a piece that would overrun it: at 12 ms the 300k-character
 * sample took 3 times as many turns and 10-40% longer to render in the preview (perf.e2e, load 9-11); at
 * 40 ms one slice took 95 ms of CPU.
 */
export const SLICE_MS = 24;
/** Rendered pieces enter the page at most this often, in milliseconds (the first slice's at once). */
export const FLUSH_MS = 120;
/** Work done before the first yield (the top of the sample appears in the same frame). */
const FIRST_SLICE_MS = 24;
/**
 * Samples longer than this (characters) are virtualised: only the pieces near the visible part of the
 * page are in it ({@link LONG_SAMPLE_CHARS}: 40 pieces, a few screens of text). Up to it every piece stays
 * in the page (the browser's find and select-all see the whole sample).
 */
export const VIRTUAL_MIN_CHARS = LONG_SAMPLE_CHARS;
/** A virtualised sample's pieces within this distance (px) above or below the visible part render. */
export const NEAR_PX = 1500;
/** A virtualised sample's rendered pieces farther than this (px) from the visible part are emptied. */
export const FAR_PX = 5000;

/** A running render: `done` resolves when every piece is in (virtualised: never before it is cancelled). */
export interface TraceRender {
  cancel(): void;
  readonly done: Promise<void>;
}

const now = () => performance.now();

/** One piece of the sample and its box in the page. */
interface Slot {
  index: number;
  chunk: string;
  /** Where the box goes: the sample, or its `<think>` block's body. */
  target: HTMLElement;
  box: HTMLElement;
  rendered: boolean;
  /** Whether its box is on screen now (virtualised: those render first). */
  visible: boolean;
}

/**
 * Fills `container` (emptied first) with the rendered sample `text`: Markdown with math, `<think>`
 * parts as collapsed `<details>` with their word count, rendered in pieces (see {@link planTrace}).
 * `onProgress(rendered, total)`: characters rendered of those to render now (every piece; virtualised:
 * the pieces near the visible part), called when rendered pieces enter the page; `rendered >= total` once
 * those are all in (the container then has `data-rendered`; a virtualised sample sets it again each
 * time the pieces near what is shown are in). Cancel it before rendering something else into the same
 * container. `firstSliceMs`: rendering done at once, before the first yield (default {@link FIRST_SLICE_MS});
 * 0 renders nothing at once (for text not on screen first, such as a collapsed question), so that it does
 * not lengthen the caller's task. A virtualised container has `data-virtual`.
 */
export function renderTraceInto(
  container: HTMLElement,
  text: string,
  onProgress?: (rendered: number, total: number) => void,
  firstSliceMs: number = FIRST_SLICE_MS,
): TraceRender {
  container.replaceChildren();
  container.removeAttribute('data-rendered');
  const md = sharedMarkdown();
  const virtual = markVirtual(container, text);
  const slots = layOutSlots(container, text, virtual);
  // what is to render now: every piece, or (virtualised) the pieces near the visible part not rendered yet
  const wanted = new Set<Slot>(virtual ? [] : slots);
  // counted in pieces, which hold the text without its <think> tags and blank parts
  let wantedChars = virtual ? 0 : slots.reduce((a, s) => a + s.chunk.length, 0);
  let renderedChars = 0;
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // the time a character took so far (ms per character over the pieces rendered): a slice stops before
  // a piece the rest of its budget would not cover, rather than after it has overrun the budget
  let spentMs = 0;
  let measured = 0;
  const msPerChar = () => (measured > 0 ? spentMs / measured : 0);
  // Rendered pieces wait here and enter the page together every FLUSH_MS: each change of the page costs the
  // browser a frame's style, layout, paint and visibility checks, and one per slice doubled the main
  // thread's CPU of the 300k-character sample's render (perf.e2e trace)
  const pending: { slot: Slot; frag: DocumentFragment }[] = [];
  let flushedAt = -Infinity;
  const flush = () => {
    for (const { slot, frag } of pending) {
      if (virtual) {
        slot.box.replaceChildren(frag);
        slot.box.classList.remove('pending');
        slot.box.style.height = '';
      } else {
        slot.box.append(frag);
        slot.target.append(slot.box);
      }
    }
    pending.length = 0;
    flushedAt = now();
    onProgress?.(renderedChars, wantedChars);
    if (renderedChars >= wantedChars) container.setAttribute('data-rendered', 'true');
  };
  /** The next piece to render: among those wanted, the first on screen, else the first in the page's order. */
  const nextSlot = (): Slot | undefined => {
    let best: Slot | undefined;
    for (const s of wanted)
      if (!best || (s.visible && !best.visible) || (s.visible === best.visible && s.index < best.index)) best = s;
    return best;
  };
  const run = (budget: number) => {
    timer = undefined;
    const t0 = now();
    let first = true;
    for (let slot = nextSlot(); !cancelled && slot; slot = nextSlot()) {
      if (!first && now() - t0 + msPerChar() * slot.chunk.length > budget) break;
      first = false;
      const t1 = now();
      wanted.delete(slot);
      const frag = sanitizeToFragment(md.render(slot.chunk));
      applyStyles(frag);
      slot.rendered = true;
      pending.push({ slot, frag });
      renderedChars += slot.chunk.length;
      spentMs += now() - t1;
      measured += slot.chunk.length;
      if (now() - t0 >= budget) break;
    }
    if (cancelled) {
      finish();
      return;
    }
    // the first slice's pieces at once (the top of the sample), then every FLUSH_MS, and the last ones
    if (wanted.size === 0 || now() - flushedAt >= FLUSH_MS) flush();
    if (wanted.size > 0) schedule();
    else if (!virtual) finish();
  };
  const schedule = () => {
    if (timer === undefined && !cancelled) timer = setTimeout(() => run(SLICE_MS), 0);
  };
  const observers: IntersectionObserver[] = [];
  if (virtual) {
    const byBox = new Map(slots.map((s) => [s.box, s]));
    // The page's own document as the root: with the implicit root (the top-level viewport) a webview, a
    // cross-origin frame, gets no root margins, and only the pieces on screen counted as near (a piece
    // scrolled out of sight was emptied at once, one scrolled into it was blank until rendered).
    // the pieces near the visible part: wanted while there and not rendered; a new batch restarts the count
    const near = new IntersectionObserver(
      (entries) => {
        if (wanted.size === 0) {
          wantedChars = 0;
          renderedChars = 0;
        }
        for (const e of entries) {
          const slot = byBox.get(e.target as HTMLElement);
          if (!slot) continue;
          if (e.isIntersecting && !slot.rendered && !wanted.has(slot)) {
            wanted.add(slot);
            wantedChars += slot.chunk.length;
          } else if (!e.isIntersecting && wanted.delete(slot)) wantedChars -= slot.chunk.length;
        }
        if (wanted.size > 0) schedule();
        else if (pending.length === 0) flush();
      },
      { root: container.ownerDocument, rootMargin: `${NEAR_PX}px 0px` },
    );
    // rendered pieces far from it: back to an empty box of the height they had
    const far = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const slot = byBox.get(e.target as HTMLElement);
          if (!slot || e.isIntersecting || !slot.rendered || pending.some((p) => p.slot === slot)) continue;
          const height = e.boundingClientRect.height;
          if (height <= 0) continue; // hidden (a closed <think> block, a hidden tab): kept as it is
          slot.rendered = false;
          slot.box.replaceChildren();
          slot.box.classList.add('pending');
          slot.box.style.height = `${height}px`;
        }
      },
      { root: container.ownerDocument, rootMargin: `${FAR_PX}px 0px` },
    );
    // the pieces on screen: rendered before the others near it (after a jump, those above it came first)
    const onScreen = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const slot = byBox.get(e.target as HTMLElement);
          if (slot) slot.visible = e.isIntersecting;
        }
      },
      { root: container.ownerDocument },
    );
    for (const s of slots) {
      onScreen.observe(s.box);
      near.observe(s.box);
      far.observe(s.box);
    }
    observers.push(onScreen, near, far);
  }
  // the top of the sample at once (virtualised: the first pieces, on screen first in the views)
  if (firstSliceMs > 0) {
    if (virtual)
      for (let i = 0, chars = 0; i < slots.length && chars < 3000; chars += slots[i++].chunk.length) {
        wanted.add(slots[i]);
        wantedChars += slots[i].chunk.length;
      }
    run(firstSliceMs);
  } else schedule();
  return {
    cancel() {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const o of observers) o.disconnect();
      finish();
    },
    done,
  };
}

/**
 * Whether `text` is virtualised: longer than {@link VIRTUAL_MIN_CHARS} in a browser with IntersectionObserver
 * (without it every piece renders). Sets `container`'s `data-virtual` when it is, removes it otherwise.
 */
function markVirtual(container: HTMLElement, text: string): boolean {
  const virtual = text.length > VIRTUAL_MIN_CHARS && typeof IntersectionObserver !== 'undefined';
  if (virtual) container.setAttribute('data-virtual', 'true');
  else container.removeAttribute('data-virtual');
  return virtual;
}

/**
 * Lays out `text`'s parts ({@link planTrace}) in `container`, each in the element of {@link partTarget}, and
 * returns one slot per piece in the page's order, none rendered yet ({@link pieceSlot}). Virtualised, the
 * pieces' estimated heights are for the container's width now.
 */
function layOutSlots(container: HTMLElement, text: string, virtual: boolean): Slot[] {
  const width = virtual ? container.clientWidth : 0;
  const slots: Slot[] = [];
  for (const part of planTrace(text)) {
    const target = partTarget(container, part);
    for (const chunk of part.chunks) slots.push(pieceSlot(slots.length, chunk, target, virtual, width));
  }
  return slots;
}

/**
 * Appends to `container` the element that `part`'s pieces go into, and returns it: for a `<think>` part the
 * `div.think-body` of a collapsed `details.think` whose summary (text, not HTML) gives the part's word count
 * and says "(unclosed)" when its closing tag is missing; for any other part a `div.trace-part`.
 */
function partTarget(container: HTMLElement, part: PlannedPart): HTMLElement {
  if (part.think) {
    const target = h('div', { className: 'think-body' });
    container.append(
      h(
        'details',
        { className: 'think' },
        h('summary', null, `Thinking · ${part.words} words${part.closed ? '' : ' (unclosed)'}`),
        target,
      ),
    );
    return target;
  }
  const target = h('div', { className: 'trace-part' });
  container.append(target);
  return target;
}

/**
 * The slot of piece number `index` (`chunk`, going into `target`), with its empty `div.trace-chunk` box
 * (`data-piece` = `index`). A virtualised sample's box goes into the page at once, `pending`, at the height
 * estimated from the piece's length and `width`; otherwise the box enters the page when its piece is rendered.
 */
function pieceSlot(index: number, chunk: string, target: HTMLElement, virtual: boolean, width: number): Slot {
  // a virtualised sample's slots are in the page from the start, at their estimated height
  const box = h('div', { className: 'trace-chunk', 'data-piece': index });
  if (virtual) {
    box.classList.add('pending');
    box.style.height = `${estimatedHeight(chunk.length, width)}px`;
    target.append(box);
  }
  return { index, chunk, target, box, rendered: false, visible: false };
}
