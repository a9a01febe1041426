/**
 * Renders a sample into the DOM a piece at a time, so a long trace (hundreds of thousands of
 * characters) never holds the renderer's main thread for long: in code-server the webview shares
 * that thread with the workbench. The first pieces render at once (what is on screen first), the
 * rest in slices of at most {@link SLICE_MS} milliseconds between which the browser handles input and
 * paints: a slice renders at least one piece and stops before a piece that the time per character
 * measured so far says would not fit in the rest of its budget. Rendered pieces enter the page together
 * every {@link FLUSH_MS} milliseconds (each change of the page costs a frame's style, layout and paint).
 * Every piece goes through markdown.ts (markdown-it + KaTeX) and DOMPurify (sanitize.ts).
 */
import { h } from './dom';
import { planTrace, sharedMarkdown } from './markdown';
import { applyStyles, sanitizeToFragment } from './sanitize';

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

/** A running render: `done` resolves when every piece is in (or when cancelled). */
export interface TraceRender {
  cancel(): void;
  readonly done: Promise<void>;
}

const now = () => performance.now();

/**
 * Fills `container` (emptied first) with the rendered sample `text`: Markdown with math, `<think>`
 * parts as collapsed `<details>` with their word count, rendered in pieces (see {@link planTrace}).
 * `onProgress(rendered, total)` reports characters rendered so far (of the text without its `<think>` tags). Cancel it before rendering
 * something else into the same container. `firstSliceMs`: rendering done at once, before the first
 * yield (default {@link FIRST_SLICE_MS}); 0 renders nothing at once (for text not on screen first, such as
 * a collapsed question), so that it does not lengthen the caller's task.
 */
export function renderTraceInto(
  container: HTMLElement,
  text: string,
  onProgress?: (rendered: number, total: number) => void,
  firstSliceMs: number = FIRST_SLICE_MS,
): TraceRender {
  container.replaceChildren();
  const md = sharedMarkdown();
  const steps: { target: HTMLElement; chunk: string }[] = [];
  for (const part of planTrace(text)) {
    let target = container;
    if (part.think) {
      target = h('div', { className: 'think-body' });
      container.append(
        h(
          'details',
          { className: 'think' },
          h('summary', null, `Thinking · ${part.words} words${part.closed ? '' : ' (unclosed)'}`),
          target,
        ),
      );
    } else {
      target = h('div', { className: 'trace-part' });
      container.append(target);
    }
    for (const chunk of part.chunks) steps.push({ target, chunk });
  }
  // Pieces hold the text without its <think> tags: progress is counted in them.
  const total = steps.reduce((a, x) => a + x.chunk.length, 0);
  let cancelled = false;
  let next = 0;
  let rendered = 0;
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
  const pending: { target: HTMLElement; box: HTMLElement }[] = [];
  let flushedAt = -Infinity;
  const flush = () => {
    for (const { target, box } of pending) target.append(box);
    pending.length = 0;
    flushedAt = now();
    onProgress?.(rendered, total);
  };
  const run = (budget: number) => {
    const t0 = now();
    let first = true;
    while (!cancelled && next < steps.length) {
      if (!first && now() - t0 + msPerChar() * steps[next].chunk.length > budget) break;
      first = false;
      const t1 = now();
      const { target, chunk } = steps[next++];
      const frag = sanitizeToFragment(md.render(chunk));
      applyStyles(frag);
      // Each piece in a box the browser lays out only near the viewport (CSS content-visibility), so
      // appending piece after piece does not lay out the whole, ever longer, trace again each time.
      const box = h('div', { className: 'trace-chunk' });
      box.append(frag);
      pending.push({ target, box });
      rendered += chunk.length;
      spentMs += now() - t1;
      measured += chunk.length;
      if (now() - t0 >= budget) break;
    }
    if (cancelled) {
      finish();
      return;
    }
    // the first slice's pieces at once (the top of the sample), then every FLUSH_MS, and the last ones
    if (next >= steps.length || now() - flushedAt >= FLUSH_MS) flush();
    if (next >= steps.length) finish();
    else timer = setTimeout(() => run(SLICE_MS), 0);
  };
  if (firstSliceMs > 0) run(firstSliceMs);
  else timer = setTimeout(() => run(SLICE_MS), 0);
  return {
    cancel() {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
      finish();
    },
    done,
  };
}
