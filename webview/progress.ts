/**
 * What a view says while the host computes its figures (the overview's tabs: computed in a worker thread, seconds
 * on a large folder): a status line, never a blank page. Updated by the request's `progress` messages
 * (src/shared/protocol.ts `FiguresProgress`, shown as `progressText`).
 */
import { type FiguresProgress, progressText } from '../src/shared/protocol';
import { h, replace } from './dom';

/** The status line of one load: `show` a progress, `stop` when the data (or an error) came. */
export interface FiguresStatus {
  show(p: FiguresProgress): void;
}

/**
 * Starts the status line of a load into `root`, with the id `id` (the e2e tests find it): with no figures shown
 * yet (`blank`) the whole of `root` is the line (`first`: what it says until the first progress comes); else a line
 * at the top of the figures shown, which stay until the new ones replace them ("Updating figures: …"). The view's
 * render replaces `root`'s children, the line with them. A later load of the same root reuses its line.
 */
export function figuresStatus(root: HTMLElement, id: string, blank: boolean, first: string): FiguresStatus {
  let line = root.querySelector<HTMLElement>(`#${id}`);
  if (!line) {
    line = h('p', { id, className: 'loading', role: 'status', 'aria-live': 'polite' });
    if (blank) replace(root, line);
    else root.prepend(line);
  }
  const el = line;
  const say = (text: string) => {
    el.textContent = blank ? text : text.replace(/^Computing figures/, 'Updating figures');
  };
  say(first);
  return { show: (p) => say(progressText(p)) };
}
