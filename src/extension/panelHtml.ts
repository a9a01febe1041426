/**
 * The HTML shell of the Trace Inspector webviews (no `vscode` import, so the hostile-content
 * browser test serves exactly the same page and CSP as the real panel).
 */
import { randomBytes } from 'node:crypto';
import type { ViewKind } from '../shared/protocol';

/**
 * Builds the panel's HTML: a strict CSP (`default-src 'none'`; the scripts and the stylesheet only by
 * nonce; fonts from the extension; no eval and no inline script or style sources: the one inline script,
 * {@link EARLY_MESSAGES}, runs by the nonce), the bundled stylesheet and scripts, and the view kind as a data attribute. The nonce is also published in
 * `<meta property="csp-nonce">`, where the toolkit's FAST runtime reads it for the one <style> element
 * it creates. Exported for tests.
 */
export function panelHtml(opts: {
  cspSource: string;
  scriptUri: string;
  /**
   * Scripts run after `scriptUri`, in order, under the same nonce (the chart views' dist/charts-vendor.js,
   * after dist/charts-vegalite.js in the overview: the view's shell is built while the browser still
   * compiles them; webview/charts.ts waits for them).
   */
  libraryScriptUris?: string[];
  /**
   * The script the page loads when it first needs it (the chart views' dist/webview-text.js: Markdown,
   * KaTeX, DOMPurify; webview/textApi.ts), as `<body data-text-script>`; it runs under the same nonce.
   */
  textScriptUri?: string;
  /**
   * Vega-Lite's compiler (dist/charts-vegalite.js) when it is loaded on first need rather than with the page
   * (the problem view, whose first charts come compiled by the host), as `<body data-vegalite-script>`
   * (webview/charts.ts `vegaLiteLibrary`); it runs under the same nonce.
   */
  vegaLiteScriptUri?: string;
  /**
   * Vega, vega-embed and vega-interpreter (dist/charts-vendor.js) when they are loaded after the view's first
   * paint rather than with the page (a new problem view whose first chart the host drew as SVG: the page's
   * own script is then fetched alone), as `<body data-charts-script>` (webview/charts.ts `vegaLibraries`).
   */
  chartsScriptUri?: string;
  styleUri: string;
  /**
   * The view's init message (a new problem view's, with its data and host-compiled charts), written into
   * the page as a JSON data block (`<script type="application/json" id="ti-init">`, {@link jsonDataBlock}:
   * never run, no nonce needed) that webview/rpc.ts reads when its script starts, as the first message:
   * the page does not wait for VS Code to hand it the posted init (on the page's load event, after every
   * script has run, or 200 ms after the page was written).
   */
  initMessage?: unknown;
  view: ViewKind;
  nonce: string;
  title: string;
  /**
   * When the extension activated (epoch ms), as `<body data-activated-at>` on a restored page: the e2e suite
   * times a restored tab from it (test/e2e/restore.e2e.ts).
   */
  activatedAt?: number;
}): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const csp = [
    "default-src 'none'",
    `img-src ${opts.cspSource}`,
    `font-src ${opts.cspSource}`,
    `style-src 'nonce-${opts.nonce}' ${opts.cspSource}`,
    `script-src 'nonce-${opts.nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="csp-nonce" content="${opts.nonce}">
<title>${esc(opts.title)}</title>
<link rel="stylesheet" nonce="${opts.nonce}" href="${esc(opts.styleUri)}">
</head>
<body data-view="${opts.view}"${opts.textScriptUri ? ` data-text-script="${esc(opts.textScriptUri)}"` : ''}${opts.vegaLiteScriptUri ? ` data-vegalite-script="${esc(opts.vegaLiteScriptUri)}"` : ''}${opts.chartsScriptUri ? ` data-charts-script="${esc(opts.chartsScriptUri)}"` : ''}${opts.activatedAt !== undefined ? ` data-activated-at="${Math.round(opts.activatedAt)}"` : ''}>
<div id="app" role="main"><p class="loading">Loading…</p></div>
${opts.initMessage !== undefined ? `<script type="application/json" id="${INIT_DATA_ID}">${jsonDataBlock(opts.initMessage)}</script>\n` : ''}<script nonce="${opts.nonce}">${EARLY_MESSAGES}</script>
${[opts.scriptUri, ...(opts.libraryScriptUris ?? [])].map((u) => `<script nonce="${opts.nonce}" src="${esc(u)}"></script>`).join('\n')}
</body>
</html>`;
}

/**
 * The page's first script, inline (under the nonce, like the others): keeps the messages that arrive
 * before the bundles have loaded in `window.__tiEarlyMessages` (its listener in
 * `window.__tiEarlyListener`), for webview/rpc.ts to take over. VS Code hands a loading page the messages
 * posted to it when the page has loaded, or after 200 ms if it has not: the problem view's early init
 * (src/extension/problemPanel.ts postEarlyInit) was lost when the 1.5 MB of scripts took longer than that.
 */
export const EARLY_MESSAGES =
  "window.__tiEarlyMessages=[];window.__tiEarlyListener=function(e){window.__tiEarlyMessages.push(e.data)};window.addEventListener('message',window.__tiEarlyListener);";

/** The id of the page's JSON data block holding the init ({@link panelHtml} `initMessage`). */
export const INIT_DATA_ID = 'ti-init';

/**
 * `value` as JSON for the text of a `<script type="application/json">` element: every `<`, `>` and `&`
 * (and U+2028, U+2029) written as a `\uXXXX` escape, which JSON reads back as the same character, so no
 * text of the data (model output: a problem's statement, model names) can end the element or start markup
 * (`</script>`, `<!--`); `JSON.parse` of the element's text gives `value` back.
 */
export function jsonDataBlock(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A fresh CSP nonce (128 bits, base64). */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}
