/**
 * The sample preview on hostile traces, in a real VS Code (code-server) in Chromium. A results folder
 * written at test time holds one problem whose samples are the hostile corpus (script tags, event
 * handlers, iframes, javascript: links, images and links to a local "canary" HTTP server, directly and
 * through code-server's /proxy/, KaTeX \href/\url/\includegraphics/\htmlClass, money that is not math,
 * ANSI and bidi control characters, fence breaks, mXSS). Each sample is opened in the preview from
 * the tree; for each: the hostile markup is visible as text, nothing in the rendered sample can run or
 * fetch (no live element or attribute), `window.__pwned` stays undefined, no dialog opens. Across the
 * run: the canary server gets no request, the browser makes none to it or to evil.example, no banner
 * offers to lower security, and every preview reused one tab. Clicking a link from model output asks
 * first (a modal naming the URL); cancelling it opens nothing.
 * Screenshots: test-output/e2e/screenshots/preview-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Frame } from 'playwright-core';
import { SHARED_HOSTILE_CASES } from './hostileCases';
import {
  activeEditorTitle,
  clickTreeRow,
  defaultVsixPath,
  expandTreeRow,
  outputRoot,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  webviewWith,
  waitUntil,
  type Session,
} from './harness';

// Browser globals used inside frame.evaluate (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const window: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const MODEL = 'hostile/model <img src=x onerror=window.__pwned=1>';
/** The model's tree row: the last segment of its name (the folder has one model). */
const MODEL_ROW = 'model <img src=x onerror=window.__pwned=1>';
/** {@link MODEL_ROW} as a row under a problem shows it: cut to 24 characters by fitLabels. */
const MODEL_ROW_FITTED = `${[...MODEL_ROW].slice(0, 23).join('')}…`;

/** The hostile samples; `visible` must be in the rendered text, `noMath` means no formula may render. */
function corpus(canary: string): { name: string; text: string; visible: string[]; noMath?: boolean }[] {
  return [
    {
      name: 'script tag',
      text: "Step 1 <script>window.__pwned=1;console.log('pwned')</script> done",
      visible: ["<script>window.__pwned=1;console.log('pwned')</script>"],
    },
    {
      name: 'img onerror',
      text: `Look: <img src="${canary}/img" onerror="window.__pwned=1"> ok`,
      visible: [`<img src="${canary}/img" onerror="window.__pwned=1">`],
    },
    {
      name: 'javascript links',
      text: '[click me](javascript:window.__pwned=1) and <javascript:alert(1)> and <a href="javascript:window.__pwned=1">js</a>',
      visible: ['[click me](javascript:window.__pwned=1)', '<a href="javascript:window.__pwned=1">js</a>'],
    },
    {
      name: 'iframe',
      text: `before <iframe src="${canary}/iframe"></iframe> after`,
      visible: [`<iframe src="${canary}/iframe"></iframe>`],
    },
    {
      name: 'local links',
      text: `[local](${canary}/link) and [proxy](/proxy/${new URL(canary).port}/p) and ${canary.replace('127.0.0.1', 'localhost')}/bare`,
      visible: ['local', 'proxy', `${canary.replace('127.0.0.1', 'localhost')}/bare`],
    },
    { name: 'image', text: `![pixel](${canary}/pixel.png) after`, visible: ['[image: pixel]', 'after'] },
    { name: 'money', text: '$8. The answer is $', visible: ['$8. The answer is $'], noMath: true },
    {
      name: 'katex refused commands',
      text: `Math $\\href{${canary}/href}{click here}$ and $\\url{${canary}/url}$ and $\\includegraphics{${canary}/g.png}$ and $\\htmlClass{x}{classed}$ end`,
      // \href's text is math, as in LaTeX: its space goes as it would with trust
      visible: ['clickhere', `${canary}/url`, `[image: ${canary}/g.png]`, 'classed', 'end'],
    },
    {
      name: 'style, form, meta, link, object',
      text: `<style>@import url(${canary}/css); body{background:url(${canary}/bg)}</style>\n\n<form action="${canary}/form"><button>go</button></form>\n\n<meta http-equiv="refresh" content="0;url=${canary}/meta">\n\n<link rel="stylesheet" href="${canary}/link.css">\n\n<object data="${canary}/obj"></object><embed src="${canary}/embed">`,
      visible: [`<style>@import url(${canary}/css);`, `<meta http-equiv="refresh" content="0;url=${canary}/meta">`],
    },
    {
      name: 'svg',
      text: `<svg onload="window.__pwned=1"><image href="${canary}/svg"/><script>window.__pwned=1</script></svg>`,
      visible: ['<svg onload="window.__pwned=1">'],
    },
    ...SHARED_HOSTILE_CASES,
    {
      name: 'terminal escapes',
      text: 'clear \u001b[2J\u001b[H screen and osc8 \u001b]8;;http://evil.example/\u001b\\click\u001b]8;;\u001b\\ end',
      visible: ['screen and osc8', 'end'],
    },
    { name: 'bidi', text: 'bidi \u202eevil.exe\u202c and \u2066isolate\u2069', visible: ['evil.exe', 'isolate'] },
    { name: 'fence break', text: '```\nfence break\n```\n## Sample\n`` ` ``', visible: ['fence break', 'Sample'] },
    {
      name: 'titled link',
      text: `[ok](${canary}/track "t") and [evil](http://evil.example/x)`,
      visible: ['ok', 'evil'],
    },
  ];
}

describe('sample preview of hostile traces in a real VS Code', { timeout: 900_000 }, () => {
  let s: Session;
  let canaryHits: string[] = [];
  let canaryServer: http.Server;
  let canary = '';
  let samples: ReturnType<typeof corpus> = [];
  const requests: string[] = [];
  const dialogs: string[] = [];
  let folder = '';

  before(async () => {
    canaryServer = http.createServer((req, res) => {
      canaryHits.push(req.url ?? '');
      res.end('canary');
    });
    await new Promise<void>((r) => canaryServer.listen(0, '127.0.0.1', () => r()));
    canary = `http://127.0.0.1:${(canaryServer.address() as AddressInfo).port}`;
    samples = corpus(canary);
    folder = path.join(outputRoot, 'workspace', 'preview-hostile');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(path.join(folder, 'run'), { recursive: true });
    const record = {
      qid: 'hostile',
      question: 'What is <script>window.__pwned=1</script> $2+2$? It costs $5 and $10.',
      gold: '4',
      model_name: MODEL,
      rollouts: samples.map((x) => ({ correct: false, text: x.text, pred_value: '<b>4</b>' })),
    };
    fs.writeFileSync(path.join(folder, 'run', 'rollouts.jsonl'), `${JSON.stringify(record)}\n`);
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({
      name: 'preview',
      vsix,
      folder,
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
    s.page.on('request', (r) => requests.push(r.url()));
    s.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  after(async () => {
    await s?.close();
    canaryServer?.close();
  });

  /** The preview frame once it shows sample `i` completely rendered. */
  const previewOf = (i: number): Promise<Frame> =>
    webviewWith(s.page, `#preview-text[data-sample-index="${i}"][data-rendered]`, {
      timeoutMs: 30_000,
      what: `the preview of sample ${i}`,
    });

  /** Opens sample `i` from the tree (its text tab), then runs Open Sample Preview on it. */
  const openPreview = async (i: number) => {
    await clickTreeRow(s.page, VIEW, `sample ${i}`);
    // the text tab first: the palette opened while the editor takes focus would close again
    await waitUntil(s.page, async () => ((await activeEditorTitle(s.page)) ?? '').endsWith(`sample ${i}.md`), {
      what: `the text tab of sample ${i}`,
    });
    await runCommand(s.page, 'Trace Inspector: Open Sample Preview');
  };

  test('every hostile sample renders as text in the preview, and nothing runs or loads', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await expandTreeRow(s.page, VIEW, 'hostile', { timeoutMs: 120_000 });
      // the row's label is cut to fit beside its figure (fitLabels, trial 10 finding 4)
      await expandTreeRow(s.page, VIEW, MODEL_ROW_FITTED);
      await expandTreeRow(s.page, VIEW, 'incorrect');
      for (let i = 0; i < samples.length; i++) {
        const h = samples[i];
        await openPreview(i);
        const frame = await previewOf(i);
        const shown: string = (await frame.$eval('#preview-text', (el: { innerText: string }) => el.innerText)).replace(
          /\u00a0/g,
          ' ',
        ); // KaTeX's text spaces are no-break spaces
        for (const v of h.visible)
          assert.ok(shown.includes(v), `${h.name}: the preview lacks ${JSON.stringify(v)}: ${JSON.stringify(shown)}`);
        if (h.noMath) assert.equal(await frame.$$eval('#preview-text .katex', (els) => els.length), 0, h.name);
        // No element or attribute in the rendered page that could run code or fetch anything.
        const live: string[] = await frame.$$eval(
          '#app *',
          (els: { tagName: string; attributes: { name: string; value: string }[] }[]) =>
            els
              .filter(
                (e) =>
                  /^(script|img|iframe|object|embed|a|form|style|link|meta|use|image|foreignobject|video|audio)$/i.test(
                    e.tagName,
                  ) ||
                  [...e.attributes].some(
                    (a) =>
                      /^on|^href$|^src$|^xlink:href$|^action$|^formaction$|^data$/i.test(a.name) ||
                      (a.name === 'style' && /url\(|expression|@import/i.test(a.value)),
                  ),
              )
              .map((e) => `${e.tagName}[${[...e.attributes].map((a) => a.name).join(',')}]`),
        );
        assert.deepEqual(live, [], `${h.name}: live elements in the preview`);
        assert.equal(await frame.evaluate(() => window.__pwned), undefined, h.name);
        if (i === 7) await screenshot(s.page, 'preview-1-katex-and-money');
      }
      // One preview tab for all of them.
      const tabs = await s.page.locator('.part.editor .tab').allTextContents();
      assert.equal(tabs.filter((t) => /#\d+ ·/.test(t)).length, 1, `one preview tab: ${tabs.join(' | ')}`);
      // opened from the sample's text tab: in that tab's group, no split (like Markdown's Open Preview)
      assert.equal(await s.page.locator('.part.editor .editor-group-container').count(), 1, 'one editor group');
      assert.equal(await s.page.evaluate(() => window.__pwned), undefined);
      assert.deepEqual(dialogs, []);
      const workbench = await s.page.locator('.monaco-workbench').innerText();
      assert.ok(!/Some content has been disabled|security settings/i.test(workbench), 'no banner to lower security');
      await screenshot(s.page, 'preview-2-hostile');
    } catch (e) {
      await s.fail(e, 'preview-1');
    }
  });

  test('a link from model output opens only after a prompt naming it; cancelled, nothing is fetched', async () => {
    try {
      const i = samples.findIndex((x) => x.name === 'local links');
      await openPreview(i);
      const frame = await previewOf(i);
      await frame.click('#preview-text .md-link');
      const dialog = s.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 10_000 });
      const text = await dialog.innerText();
      assert.match(text, /Open a link from model output\?/);
      assert.ok(text.includes(`${canary}/link`), text);
      await screenshot(s.page, 'preview-3-link-prompt');
      await s.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
      // give a stray request time to arrive before checking the canary
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(canaryHits, [], 'the canary server was never reached');
      const port = new URL(canary).port;
      const bad = requests.filter(
        (u) => u.includes(`:${port}`) || u.includes(`/proxy/${port}`) || u.includes('evil.example'),
      );
      assert.deepEqual(bad, [], 'no request to the canary or evil.example');
      canaryHits = [];
    } catch (e) {
      await s.fail(e, 'preview-2');
    }
  });

  test('the preview follows its sample when its file is re-indexed, and names it when it is gone', async () => {
    // trial 14 finding 1: after the automatic re-index the preview said "Sample 37 is not in the index", no buttons
    try {
      const last = samples.length - 1;
      await openPreview(last);
      await previewOf(last);
      const file = path.join(folder, 'run', 'rollouts.jsonl');
      const record = JSON.parse(fs.readFileSync(file, 'utf8')) as { rollouts: { text: string }[] };
      const MARK = 'rewritten after indexing: REINDEX-MARK-5c1e, longer than the text indexed before';
      record.rollouts[last].text = MARK;
      fs.writeFileSync(file, `${JSON.stringify(record)}\n`);
      // the watcher's re-index gives the sample a new row id: the preview finds it by its keys, with its new text
      await waitUntil(
        s.page,
        async () => {
          const f = await webviewWith(s.page, `#preview-text[data-sample-index="${last}"][data-rendered]`, {
            timeoutMs: 5000,
          }).catch(() => undefined);
          const shown = f ? await f.$eval('#preview-text', (el: { innerText: string }) => el.innerText) : '';
          return shown.includes('REINDEX-MARK-5c1e');
        },
        { what: 'the new text in the preview after the re-index', timeoutMs: 90_000 },
      );
      await screenshot(s.page, 'preview-4-reindexed');

      // the sample removed from the file: named (never a row id), with a way on
      record.rollouts.pop();
      fs.writeFileSync(file, `${JSON.stringify(record)}\n`);
      // (while the pass runs, a read may first say that the file changed since it was indexed: right, and passing)
      let frame: Frame | undefined;
      const message = await waitUntil(
        s.page,
        async () => {
          frame = await webviewWith(s.page, '#preview-error', { timeoutMs: 5000 }).catch(() => undefined);
          const text: string = frame
            ? await frame.$eval('#preview-error', (el: { innerText: string }) => el.innerText).catch(() => '')
            : '';
          return /no longer in the index/.test(text) ? text : undefined;
        },
        { what: 'the gone-sample message', timeoutMs: 90_000 },
      );
      if (!frame) throw new Error('no preview frame');
      assert.match(message, new RegExp(`Sample ${last} of problem hostile by .* is no longer in the index`));
      assert.ok(!/Sample \d+ is not in the index/.test(message), message);
      const buttons: string[] = await frame.$$eval('.actions vscode-button', (els: { textContent: string }[]) =>
        els.map((e) => e.textContent.trim()),
      );
      assert.deepEqual(buttons.slice(0, 3), ['‹ Previous', 'Next ›', 'Reload'], buttons.join(' | '));
      await screenshot(s.page, 'preview-5-gone');
      // Next goes on from the sample's problem in the tree's order: a sample is shown again
      await frame.click('.actions vscode-button:nth-child(2)');
      await webviewWith(s.page, '#preview-text[data-rendered]', { timeoutMs: 30_000, what: 'a sample after Next' });
    } catch (e) {
      await s.fail(e, 'preview-3');
    }
  });
});
