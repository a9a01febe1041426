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
import { type Markdown, type PlannedPart, planTrace, sharedMarkdown } from './markdown';
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
  const run = new PieceRun(container, slots, virtual, md, onProgress);
  if (virtual) run.followVisiblePart();
  run.start(firstSliceMs);
  return {
    cancel() {
      run.cancel();
    },
    done: run.done,
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

/**
 * The rendering of one sample's slots after they are laid out: which pieces are wanted, rendering them in
 * slices of the time budget, their entry into the page, and (virtualised) what the visible part wants.
 */
class PieceRun {
  /** What is to render now: every piece, or (virtualised) the pieces near the visible part not rendered yet. */
  private readonly wanted: Set<Slot>;
  /** Counted in pieces, which hold the text without its <think> tags and blank parts. */
  private wantedChars: number;
  private renderedChars = 0;
  private cancelled = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private finish: () => void = () => undefined;
  readonly done: Promise<void>;
  // the time a character took so far (ms per character over the pieces rendered): a slice stops before
  // a piece the rest of its budget would not cover, rather than after it has overrun the budget
  private spentMs = 0;
  private measured = 0;
  // Rendered pieces wait here and enter the page together every FLUSH_MS: each change of the page costs the
  // browser a frame's style, layout, paint and visibility checks, and one per slice doubled the main
  // thread's CPU of the 300k-character sample's render (perf.e2e trace)
  private readonly pending: { slot: Slot; frag: DocumentFragment }[] = [];
  private flushedAt = -Infinity;
  private readonly observers: IntersectionObserver[] = [];

  constructor(
    private readonly container: HTMLElement,
    private readonly slots: Slot[],
    private readonly virtual: boolean,
    private readonly md: Markdown,
    private readonly onProgress: ((rendered: number, total: number) => void) | undefined,
  ) {
    this.wanted = new Set<Slot>(virtual ? [] : slots);
    this.wantedChars = virtual ? 0 : slots.reduce((a, s) => a + s.chunk.length, 0);
    this.done = new Promise<void>((resolve) => {
      this.finish = resolve;
    });
  }

  /**
   * Renders the top of the sample at once, in a slice of `firstSliceMs` (virtualised: it wants the first pieces
   * until they hold 3,000 characters, on screen first in the views), the rest in later slices; 0 renders
   * nothing at once.
   */
  start(firstSliceMs: number): void {
    if (firstSliceMs > 0) {
      if (this.virtual)
        for (let i = 0, chars = 0; i < this.slots.length && chars < 3000; chars += this.slots[i++].chunk.length)
          this.want(this.slots[i]);
      this.renderSlice(firstSliceMs);
    } else this.scheduleSlice();
  }

  /** Stops rendering: no further slice, the observers disconnected, `done` resolved. */
  cancel(): void {
    this.cancelled = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const o of this.observers) o.disconnect();
    this.finish();
  }

  /**
   * Virtualised: watches every piece's box, to render the pieces within {@link NEAR_PX} of the visible part
   * ({@link wantNear}), those on screen first ({@link markOnScreen}), and to empty rendered ones farther than
   * {@link FAR_PX} from it ({@link emptyFar}).
   */
  followVisiblePart(): void {
    const byBox = new Map(this.slots.map((s) => [s.box, s]));
    // The page's own document as the root: with the implicit root (the top-level viewport) a webview, a
    // cross-origin frame, gets no root margins, and only the pieces on screen counted as near (a piece
    // scrolled out of sight was emptied at once, one scrolled into it was blank until rendered).
    const near = new IntersectionObserver((entries) => this.wantNear(entries, byBox), {
      root: this.container.ownerDocument,
      rootMargin: `${NEAR_PX}px 0px`,
    });
    const far = new IntersectionObserver((entries) => this.emptyFar(entries, byBox), {
      root: this.container.ownerDocument,
      rootMargin: `${FAR_PX}px 0px`,
    });
    const onScreen = new IntersectionObserver((entries) => markOnScreen(entries, byBox), {
      root: this.container.ownerDocument,
    });
    for (const s of this.slots) {
      onScreen.observe(s.box);
      near.observe(s.box);
      far.observe(s.box);
    }
    this.observers.push(onScreen, near, far);
  }

  /** Adds `slot` to the pieces to render now. */
  private want(slot: Slot): void {
    this.wanted.add(slot);
    this.wantedChars += slot.chunk.length;
  }

  /**
   * The near observer's changes: a piece near the visible part and not rendered is wanted, one no longer near
   * is not; a new batch (none wanted before it) restarts the count of characters. Then renders what is
   * wanted, or, when nothing is and no rendered piece waits, reports that all of it is in.
   */
  private wantNear(entries: IntersectionObserverEntry[], byBox: Map<HTMLElement, Slot>): void {
    if (this.wanted.size === 0) {
      this.wantedChars = 0;
      this.renderedChars = 0;
    }
    for (const e of entries) {
      const slot = byBox.get(e.target as HTMLElement);
      if (!slot) continue;
      if (e.isIntersecting && !slot.rendered && !this.wanted.has(slot)) this.want(slot);
      else if (!e.isIntersecting && this.wanted.delete(slot)) this.wantedChars -= slot.chunk.length;
    }
    if (this.wanted.size > 0) this.scheduleSlice();
    else if (this.pending.length === 0) this.flush();
  }

  /**
   * The far observer's changes: a rendered piece far from the visible part (not one waiting to enter the
   * page) goes back to an empty `pending` box of the height it had; a hidden one (height 0: in a closed
   * `<think>` block, a hidden tab) is kept as it is.
   */
  private emptyFar(entries: IntersectionObserverEntry[], byBox: Map<HTMLElement, Slot>): void {
    for (const e of entries) {
      const slot = byBox.get(e.target as HTMLElement);
      if (!slot || e.isIntersecting || !slot.rendered || this.pending.some((p) => p.slot === slot)) continue;
      const height = e.boundingClientRect.height;
      if (height <= 0) continue; // hidden (a closed <think> block, a hidden tab): kept as it is
      slot.rendered = false;
      slot.box.replaceChildren();
      slot.box.classList.add('pending');
      slot.box.style.height = `${height}px`;
    }
  }

  /** Renders a slice in the next turn, unless one is already scheduled or the render is cancelled. */
  private scheduleSlice(): void {
    if (this.timer === undefined && !this.cancelled) this.timer = setTimeout(() => this.renderSlice(SLICE_MS), 0);
  }

  /**
   * Renders wanted pieces ({@link nextSlot} first) for up to `budget` ms: at least one, and none that the time
   * per character so far says would overrun what is left. Flushes the first slice's pieces at once, then at
   * most every {@link FLUSH_MS} and when nothing more is wanted; schedules the next slice while pieces are
   * wanted, else (not virtualised) resolves `done`.
   */
  private renderSlice(budget: number): void {
    this.timer = undefined;
    const t0 = now();
    let first = true;
    for (let slot = this.nextSlot(); !this.cancelled && slot; slot = this.nextSlot()) {
      if (!first && now() - t0 + this.msPerChar() * slot.chunk.length > budget) break;
      first = false;
      this.renderPiece(slot);
      if (now() - t0 >= budget) break;
    }
    if (this.cancelled) {
      this.finish();
      return;
    }
    // the first slice's pieces at once (the top of the sample), then every FLUSH_MS, and the last ones
    if (this.wanted.size === 0 || now() - this.flushedAt >= FLUSH_MS) this.flush();
    if (this.wanted.size > 0) this.scheduleSlice();
    else if (!this.virtual) this.finish();
  }

  /** The next piece to render: among those wanted, the first on screen, else the first in the page's order. */
  private nextSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.wanted)
      if (!best || (s.visible && !best.visible) || (s.visible === best.visible && s.index < best.index)) best = s;
    return best;
  }

  /** Milliseconds per character over the pieces rendered so far (0 before the first). */
  private msPerChar(): number {
    return this.measured > 0 ? this.spentMs / this.measured : 0;
  }

  /**
   * Renders `slot`'s piece (markdown.ts, then DOMPurify and the CSP-safe styles of sanitize.ts) into a
   * fragment that waits in `pending` for the next {@link flush}, and counts its characters and time.
   */
  private renderPiece(slot: Slot): void {
    const t1 = now();
    this.wanted.delete(slot);
    const frag = sanitizeToFragment(this.md.render(slot.chunk));
    applyStyles(frag);
    slot.rendered = true;
    this.pending.push({ slot, frag });
    this.renderedChars += slot.chunk.length;
    this.spentMs += now() - t1;
    this.measured += slot.chunk.length;
  }

  /**
   * Puts the rendered pieces waiting in `pending` into the page: virtualised, each into its box, which loses
   * its `pending` class and placeholder height; otherwise each box, filled, into its part. Then reports progress
   * (`onProgress`, called without a `this`) and sets the container's `data-rendered` once every wanted
   * character is rendered.
   */
  private flush(): void {
    for (const { slot, frag } of this.pending) {
      if (this.virtual) {
        slot.box.replaceChildren(frag);
        slot.box.classList.remove('pending');
        slot.box.style.height = '';
      } else {
        slot.box.append(frag);
        slot.target.append(slot.box);
      }
    }
    this.pending.length = 0;
    this.flushedAt = now();
    const onProgress = this.onProgress;
    onProgress?.(this.renderedChars, this.wantedChars);
    if (this.renderedChars >= this.wantedChars) this.container.setAttribute('data-rendered', 'true');
  }
}

/** The on-screen observer's changes: marks each piece on screen or not (those on screen render first). */
function markOnScreen(entries: IntersectionObserverEntry[], byBox: Map<HTMLElement, Slot>): void {
  for (const e of entries) {
    const slot = byBox.get(e.target as HTMLElement);
    if (slot) slot.visible = e.isIntersecting;
  }
}
