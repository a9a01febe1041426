/**
 * WCAG 2.1 contrast of the text a webview shows, measured in the page as drawn (computed styles, not the
 * stylesheet): every visible element with text of its own, its colour composed over the backgrounds under it
 * (each ancestor's background colour, alpha and opacity, down to the first opaque one, else the webview's
 * editor background), against the AA minimum: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Relative
 * luminance and ratio as WCAG 2.1 defines them (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
 */
import type { Frame } from 'playwright-core';

/** A text below its AA minimum: where it is, what it says, its colours (rgb) and its ratio. */
export interface ContrastFailure {
  where: string;
  text: string;
  color: string;
  background: string;
  ratio: number;
  minimum: number;
}

/**
 * The texts of the page in `frame` below the WCAG AA contrast minimum (visible ones only: no `display: none`,
 * no zero-size box, not the visually-hidden lists for screen readers). Texts inside a canvas are not DOM text
 * and are not measured here.
 */
export async function textContrastFailures(frame: Frame): Promise<ContrastFailure[]> {
  return frame.evaluate(() => {
    type RGBA = [number, number, number, number];
    const d = (globalThis as any).document;
    const w = globalThis as any;
    const parse = (c: string): RGBA | null => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map((x) => (x.endsWith('%') ? Number(x.slice(0, -1)) / 100 : Number(x)));
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top: RGBA, under: RGBA): RGBA => {
      const a = top[3];
      return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
    };
    const lum = (c: RGBA) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
    };
    const page: RGBA = parse(
      w.getComputedStyle(d.documentElement).getPropertyValue('--vscode-editor-background').trim()
        ? (() => {
            const probe = d.createElement('span');
            probe.style.color = 'var(--vscode-editor-background)';
            d.body.append(probe);
            const c = w.getComputedStyle(probe).color;
            probe.remove();
            return c;
          })()
        : 'rgb(255,255,255)',
    ) ?? [255, 255, 255, 1];
    const background = (el: any): RGBA => {
      const layers: RGBA[] = [];
      for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
        const st = w.getComputedStyle(e);
        const c = parse(st.backgroundColor);
        if (c && c[3] > 0) {
          layers.push(c);
          if (c[3] >= 1) break;
        }
      }
      let bg = page;
      for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
      return bg;
    };
    const opacity = (el: any): number => {
      let o = 1;
      for (let e = el; e && e.nodeType === 1; e = e.parentElement) o *= Number(w.getComputedStyle(e).opacity);
      return o;
    };
    const where = (el: any): string => {
      const parts: string[] = [];
      for (let e = el; e && e.nodeType === 1 && parts.length < 3; e = e.parentElement)
        parts.unshift(
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}`,
        );
      return parts.join(' > ');
    };
    const out: ContrastFailure[] = [];
    const seen = new Set<unknown>();
    const walker = d.createTreeWalker(d.body, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent.trim()) continue;
      seen.add(el);
      if (el.closest('.visually-hidden, script, style, [hidden], template, option')) continue;
      const box = el.getBoundingClientRect();
      const st = w.getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || st.visibility !== 'visible' || st.display === 'none') continue;
      const fg0 = parse(st.color);
      if (!fg0) continue;
      const bg = background(el);
      const fg = over([fg0[0], fg0[1], fg0[2], fg0[3] * opacity(el)], bg);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      const size = Number.parseFloat(st.fontSize);
      const bold = Number(st.fontWeight) >= 700;
      const minimum = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      if (ratio < minimum)
        out.push({
          where: where(el),
          text: n.textContent.trim().slice(0, 60),
          color: `rgb(${fg.slice(0, 3).map(Math.round).join(',')})`,
          background: `rgb(${bg.slice(0, 3).map(Math.round).join(',')})`,
          ratio: Math.round(ratio * 100) / 100,
          minimum,
        });
    }
    return out;
  });
}
