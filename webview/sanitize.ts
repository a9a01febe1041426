/**
 * Defense in depth for rendered traces: the HTML from markdown.ts goes through DOMPurify before it
 * reaches the DOM, as a DocumentFragment (never assigned to innerHTML of a live element).
 *
 * The CSP has no `unsafe-inline` for styles, so inline `style="..."` attributes (KaTeX positions
 * its glyphs with them) would be blocked. The sanitizer hook moves each style attribute to
 * `data-ti-style` when its value is a plain declaration list (no `url(`, `expression`, `@`, `\`,
 * `<`, ...), and {@link applyStyles} then sets it through CSSOM (`element.style.cssText`), which
 * CSP permits. Anything else is dropped.
 */
import DOMPurify from 'dompurify';

const STYLE_DATA = 'data-ti-style';
/** A declaration list of plain values: letters, digits, spaces and `.:;%#(),+-*` only, and no function but calc(). */
export function isSafeStyle(v: string): boolean {
  if (v.length > 600) return false;
  if (!/^[a-zA-Z0-9\s.:;%#(),+*/-]*$/.test(v)) return false;
  const fns = v.match(/[a-zA-Z-]+\(/g) ?? [];
  return fns.every((f) => f.toLowerCase() === 'calc(');
}

let hooked = false;
function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (typeof el.getAttribute !== 'function') return;
    const style = el.getAttribute('style');
    if (style !== null) {
      el.removeAttribute('style');
      if (isSafeStyle(style)) el.setAttribute(STYLE_DATA, style);
    }
    if (el.tagName === 'A') {
      // markdown.ts renders no <a>; if one ever appears, make it inert
      el.removeAttribute('href');
    }
  });
}

const CONFIG = {
  USE_PROFILES: { html: true, mathMl: true, svg: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'object',
    'embed',
    'link',
    'meta',
    'base',
    'img',
    'image',
    'video',
    'audio',
    'source',
    'track',
    'use',
    'foreignObject',
    'script',
    'animate',
    'set',
    'animateTransform',
    'animateMotion',
  ],
  FORBID_ATTR: ['srcset', 'action', 'formaction', 'xlink:href', 'href', 'src', 'background', 'poster', 'ping'],
  ALLOW_DATA_ATTR: false,
  ADD_ATTR: [STYLE_DATA],
  // not a URL: without this DOMPurify would test "height:0.8em;..." against its URI pattern and drop it
  ADD_URI_SAFE_ATTR: [STYLE_DATA],
  RETURN_DOM_FRAGMENT: true,
} as const;

let configured = false;

/**
 * Sanitises `html` and returns a fragment ready to insert (call {@link applyStyles} after inserting).
 * The configuration is set once (`DOMPurify.setConfig`): given with each call, DOMPurify parsed it again
 * each time (its tag and attribute sets), once per piece of a long sample (300 pieces for 300k characters).
 */
export function sanitizeToFragment(html: string): DocumentFragment {
  hook();
  if (!configured) {
    DOMPurify.setConfig(CONFIG as unknown as Parameters<typeof DOMPurify.setConfig>[0]);
    configured = true;
  }
  return DOMPurify.sanitize(html) as unknown as DocumentFragment;
}

/** Applies the vetted inline styles of `root`'s descendants through CSSOM. */
export function applyStyles(root: ParentNode): void {
  root.querySelectorAll<HTMLElement | SVGElement>(`[${STYLE_DATA}]`).forEach((el) => {
    const v = el.getAttribute(STYLE_DATA) ?? '';
    el.removeAttribute(STYLE_DATA);
    if (isSafeStyle(v)) (el as HTMLElement).style.cssText = v;
  });
}

/** Replaces `container`'s children with the sanitised `html`. */
export function setSanitizedHtml(container: HTMLElement, html: string): void {
  const frag = sanitizeToFragment(html);
  container.replaceChildren(frag);
  applyStyles(container);
}
