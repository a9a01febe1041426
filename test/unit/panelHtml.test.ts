/**
 * The webview panels' HTML (src/extension/panelHtml.ts): the page's first script keeps the messages that
 * arrive before the bundles have loaded (VS Code hands a loading page its messages after 200 ms even when
 * the scripts are not in yet: the problem view's early init was lost that way), and the scripts run in
 * order under the nonce: that script, the view's bundle, the chart libraries (the view's shell is built while
 * the browser still compiles them; webview/charts.ts waits for them).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vm from 'node:vm';
import { EARLY_MESSAGES, jsonDataBlock, panelHtml } from '../../src/extension/panelHtml';

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';

/** A problem view's page with `overrides` of its options (none by default: no libraries, no lazy scripts, no init). */
function page(overrides: Partial<Parameters<typeof panelHtml>[0]> = {}): string {
  return panelHtml({
    cspSource: 'https://x.example',
    scriptUri: 'https://x.example/dist/webview.js',
    styleUri: 'https://x.example/dist/webview.css',
    view: 'problem',
    nonce: NONCE,
    title: 't',
    ...overrides,
  });
}

describe('panel HTML', () => {
  test('scripts in order, each under the nonce: the early-message keeper, the bundle, the libraries', () => {
    const scripts = [
      ...page({ libraryScriptUris: ['https://x.example/dist/charts-vendor.js'] }).matchAll(
        /<script([^>]*)>([^<]*)<\/script>/g,
      ),
    ];
    assert.deepEqual(
      scripts.map((m) => /src="([^"]*)"/.exec(m[1])?.[1] ?? 'inline'),
      ['inline', 'https://x.example/dist/webview.js', 'https://x.example/dist/charts-vendor.js'],
    );
    for (const m of scripts) assert.match(m[1], new RegExp(`nonce="${NONCE}"`));
    assert.equal(scripts[0][2], EARLY_MESSAGES);
    // without libraries (the preview): the keeper, then the bundle
    assert.equal([...page().matchAll(/<script /g)].length, 2);
    // no inline script without the nonce: the CSP allows scripts by nonce only
    assert.match(page(), /script-src 'nonce-[^']+'(;|$)/);
  });

  test('the early-message keeper collects messages in order and hands over its listener', () => {
    const listeners: ((e: { data: unknown }) => void)[] = [];
    const window: Record<string, unknown> = {
      addEventListener: (type: string, f: (e: { data: unknown }) => void) => {
        if (type === 'message') listeners.push(f);
      },
    };
    vm.runInNewContext(EARLY_MESSAGES, { window });
    assert.equal(listeners.length, 1);
    for (const data of [
      { kind: 'init', id: 1 },
      { kind: 'changed', id: 2 },
    ])
      listeners[0]({ data });
    // (through JSON: the array comes from the script's own realm)
    assert.deepEqual(JSON.parse(JSON.stringify(window.__tiEarlyMessages)), [
      { kind: 'init', id: 1 },
      { kind: 'changed', id: 2 },
    ]);
    assert.equal(window.__tiEarlyListener, listeners[0], 'webview/rpc.ts removes this listener by reference');
  });

  test('the text renderer script is named on <body> (escaped) for the page to load on demand, not loaded by the page', () => {
    const html = page({
      libraryScriptUris: ['https://x.example/dist/charts-vendor.js'],
      textScriptUri: 'https://x.example/dist/webview-text.js?a=1&b="2"',
    });
    assert.match(
      html,
      /<body data-view="problem" data-text-script="https:\/\/x\.example\/dist\/webview-text\.js\?a=1&amp;b=&quot;2&quot;">/,
    );
    assert.doesNotMatch(html, /<script[^>]*webview-text/, 'no <script> element for it: webview/textApi.ts adds it');
    // the nonce a script added by the page needs is published
    assert.match(html, new RegExp(`<meta property="csp-nonce" content="${NONCE}">`));
    // without it (the preview), no attribute
    assert.match(page(), /<body data-view="problem">/);
  });

  test('the init written into the page is a JSON data block no text of it can leave, read back as it was', () => {
    const hostile = {
      kind: 'init',
      text: '</script><script>alert(1)</script> <!-- <img src=x onerror=alert(1)> & \u2028\u2029 </SCRIPT >',
      nested: { q: ['</script', '</script>', '\\u003c'] },
    };
    const block = jsonDataBlock(hostile);
    assert.doesNotMatch(block, /[<>&\u2028\u2029]/, 'no character that could end the element or start markup');
    assert.deepEqual(JSON.parse(block), hostile);
    const html = page({
      initMessage: hostile,
    });
    const m = /<script type="application\/json" id="ti-init">([^<]*)<\/script>\n<script nonce=/.exec(html);
    assert.ok(m, 'the data block, before the early-message keeper');
    assert.deepEqual(JSON.parse(m[1]), hostile);
    // one data block, then the keeper and the bundle: every executable script has the nonce
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((x) => x[1]);
    assert.deepEqual(
      scripts.filter((a) => !a.includes(`nonce="${NONCE}"`)),
      [' type="application/json" id="ti-init"'],
    );
    assert.doesNotMatch(page(), /ti-init/, 'no data block without an init');
  });

  test("Vega-Lite's compiler, loaded on first need, is named on <body> (escaped), not loaded by the page", () => {
    const html = page({
      libraryScriptUris: ['https://x.example/dist/charts-vendor.js'],
      textScriptUri: 'https://x.example/dist/webview-text.js',
      vegaLiteScriptUri: 'https://x.example/dist/charts-vegalite.js?a=1&b=2',
    });
    assert.match(
      html,
      /<body data-view="problem" data-text-script="[^"]*" data-vegalite-script="https:\/\/x\.example\/dist\/charts-vegalite\.js\?a=1&amp;b=2">/,
    );
    assert.doesNotMatch(html, /<script[^>]*charts-vegalite/, 'no <script> element for it: webview/charts.ts adds it');
    assert.doesNotMatch(page(), /data-vegalite-script/);
  });

  test('Vega, loaded after the first paint (a first chart drawn by the host), is named on <body>, not loaded by the page', () => {
    const html = page({
      libraryScriptUris: [],
      chartsScriptUri: 'https://x.example/dist/charts-vendor.js?a=1&b=2',
    });
    assert.match(
      html,
      /<body data-view="problem" data-charts-script="https:\/\/x\.example\/dist\/charts-vendor\.js\?a=1&amp;b=2">/,
    );
    assert.doesNotMatch(html, /<script[^>]*charts-vendor/, 'no <script> element for it: webview/charts.ts adds it');
    assert.doesNotMatch(page(), /data-charts-script/);
  });
});
