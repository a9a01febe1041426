/**
 * How the views reach the rendering pipeline of model output (Markdown + KaTeX + DOMPurify,
 * webview/textLibraries.ts) without bundling it: the chart views' dist/webview.js loads it on demand from
 * dist/webview-text.js ({@link textLoader}), the preview's bundle has it built in. Type imports only of
 * the pipeline's modules: nothing of markdown-it, KaTeX or DOMPurify enters a bundle through this file.
 */
import type { renderTrace } from './markdown';
import type { setSanitizedHtml } from './sanitize';
import type { renderTraceInto } from './traceRender';
import { mark } from './rpc';

/** What the views use of the rendering pipeline. */
export interface TextLibraries {
  renderTrace: typeof renderTrace;
  setSanitizedHtml: typeof setSanitizedHtml;
  renderTraceInto: typeof renderTraceInto;
}

/** The pipeline, when it is there (resolves at once once loaded); rejects if it cannot be loaded. */
export type TextSource = () => Promise<TextLibraries>;

/** The global through which dist/webview-text.js publishes the pipeline. */
export type TextGlobal = { __traceInspectorText?: TextLibraries };

/** The `<body>` attribute holding the URL of dist/webview-text.js (src/extension/panelHtml.ts `textScriptUri`). */
export const TEXT_SCRIPT_ATTRIBUTE = 'data-text-script';

/**
 * A {@link TextSource} that, on its first call, adds dist/webview-text.js to the page (the URL in
 * `<body data-text-script>`; {@link lazyScript}) and resolves when it has run. Later calls share that
 * load. A failed load (no URL, network or CSP error, the script did not publish the pipeline) rejects with
 * the reason, and the next call tries again.
 */
export function textLoader(doc: Document = document): TextSource {
  return lazyScript(doc, TEXT_SCRIPT_ATTRIBUTE, () => (globalThis as TextGlobal).__traceInspectorText, {
    what: 'text renderer script',
    mark: 'ti:text',
  });
}

/**
 * A loader of a script the page adds when first needed: on its first call, a `<script>` with the URL in
 * the `<body>` attribute `attribute` and the page's CSP nonce (`<meta property="csp-nonce">`: the CSP
 * allows scripts by nonce only); resolves with what `published` returns once the script has run (at once
 * if it already returns something). Later calls share the load. A failed load (no URL, network or CSP
 * error, nothing published) rejects with the reason, and the next call tries again. `mark`: a User Timing
 * mark made when the script has run (the e2e speed test's steps).
 */
export function lazyScript<T>(
  doc: Document,
  attribute: string,
  published: () => T | undefined,
  opts: { what: string; mark: string },
): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    const ready = published();
    if (ready) return Promise.resolve(ready);
    loading ??= new Promise<T>((resolve, reject) => {
      const url = doc.body.getAttribute(attribute);
      if (!url) {
        reject(new Error(`the page names no ${opts.what} (${attribute})`));
        return;
      }
      const script = doc.createElement('script');
      const nonce = doc.querySelector('meta[property="csp-nonce"]')?.getAttribute('content');
      if (nonce) script.nonce = nonce;
      script.src = url;
      script.onload = () => {
        const libs = published();
        mark(opts.mark);
        if (libs) resolve(libs);
        else reject(new Error(`the ${opts.what} did not load`));
      };
      script.onerror = () => reject(new Error(`the ${opts.what} did not load`));
      doc.body.append(script);
    }).catch((e: unknown) => {
      loading = undefined;
      throw e;
    });
    return loading;
  };
}
