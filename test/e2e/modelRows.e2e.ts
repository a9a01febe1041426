/**
 * Readable model rows and a clear comparison, in a real VS Code (code-server) in Chromium at the
 * default side-bar width, on the real folder rlvr-probe-gsm8k (12 models in 6 runs) with nothing
 * chosen: the default pair is the final model of the last run (ppo@step-1000 of trajectory/step-1000)
 * against its own run's base, and a first-open notification says so with a one-click change; the
 * status bar names the pair short; under a problem the base and the model in focus come first, marked,
 * the other 10 behind "10 more models"; every model row's label is whole and distinct at the default
 * width, and so is the c/n right after it (trial 10 finding 4); the text above the tree takes at most two
 * lines, filtered or not.
 * Screenshots: test-output/e2e/screenshots/model-rows-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerQuickInput,
  defaultVsixPath,
  expandTreeRow,
  moveMouseAway,
  runCommand,
  screenshot,
  showTreeView,
  treeRowDetails,
  viewPane,
  waitForNotification,
  waitUntil,
  workspaceCopy,
  startSession,
  type Session,
} from './harness';
import { RLVR_PROBE } from './rlvrProbe';

// Browser globals used inside evaluate callbacks (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const getComputedStyle: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';

describe('model rows and the compared pair at the default side-bar width', { timeout: 600_000 }, () => {
  let s: Session;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    const folder = workspaceCopy(RLVR_PROBE, 'model-rows-rlvr-probe-gsm8k');
    s = await startSession({
      name: 'model-rows',
      vsix,
      folder,
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });
  after(async () => {
    await s?.close();
  });

  const statusText = () =>
    s.page
      .locator('.part.statusbar .statusbar-item', { hasText: ' vs ' })
      .first()
      .innerText()
      .catch(() => '');

  /** Lines the text above the tree takes (its height over its line height). */
  const messageLines = () =>
    viewPane(s.page, VIEW)
      .locator('.message')
      .first()
      .evaluate((el: { getBoundingClientRect(): { height: number } }) => {
        const lh = Number.parseFloat(getComputedStyle(el).lineHeight) || 18;
        return Math.round(el.getBoundingClientRect().height / lh);
      });

  test('nothing chosen: the final model of the last run against its own base, said once with a one-click change', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      const note = await waitForNotification(s.page, 'Trace Inspector chose the pair', { timeoutMs: 120_000 });
      assert.equal(
        note,
        'Trace Inspector chose the pair from the names: ppo@step-1000, the final model of the last run (trajectory/step-1000), against the base sft · step-1000. The status bar shows the pair in use.',
      );
      await waitUntil(
        s.page,
        async () => ((await statusText()).includes('ppo@step-1000 vs sft · step-1000') ? true : undefined),
        { what: 'the status bar naming the pair' },
      );
      await moveMouseAway(s.page);
      await screenshot(s.page, 'model-rows-1-first-open');
      // One click on the notification's button, one on the pair.
      await s.page
        .locator('.notifications-toasts .monaco-button', { hasText: 'Compare Another Pair…' })
        .first()
        .click();
      await answerQuickInput(s.page, { pick: 'ppo@main · 2048_batched' });
      await waitUntil(
        s.page,
        async () => ((await statusText()).includes('ppo@main vs sft · 2048_batched') ? true : undefined),
        { what: 'the status bar naming the new pair' },
      );
    } catch (e) {
      await s.fail(e, 'model-rows-1');
    }
  });

  test('under a problem: base and model in focus first and marked, 10 more behind one row; every label whole and distinct', async () => {
    try {
      await expandTreeRow(s.page, VIEW, '0');
      const first = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 2);
          return r.length === 3 ? r : undefined;
        },
        { what: 'three rows under problem 0' },
      );
      assert.deepEqual(
        first.map((r) => r.label),
        ['sft · 2048_batched', 'ppo@main · 2048_batched', '10 more models'],
      );
      // the figure right after the name (a narrow side bar cuts the end; trial 10 finding 4)
      assert.match(first[0].description, /^\d\/8 · base · pass@8 /);
      assert.match(first[1].description, /^\d\/8 · focus · pass@8 /);
      await expandTreeRow(s.page, VIEW, '10 more models');
      const all = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 2 || x.level === 3);
          return r.length === 13 ? r : undefined;
        },
        { what: 'the 10 other models' },
      );
      const labels = all.map((r) => r.label).filter((l) => l !== '10 more models');
      assert.equal(new Set(labels).size, 12, labels.join(' | '));
      // Whole at the default width: each row's label ends inside the row's visible label box.
      const cut = await viewPane(s.page, VIEW)
        .locator('.monaco-list-row[aria-level="2"], .monaco-list-row[aria-level="3"]')
        .evaluateAll((rows) =>
          rows
            .map((r) => {
              const row = r as unknown as {
                querySelector(q: string): { getBoundingClientRect(): { right: number }; textContent: string } | null;
              };
              const name = row.querySelector('.label-name');
              const box = row.querySelector('.monaco-icon-label-container');
              return name && box && name.getBoundingClientRect().right > box.getBoundingClientRect().right + 0.5
                ? name.textContent
                : null;
            })
            .filter((x) => x !== null),
        );
      assert.deepEqual(cut, [], 'no model label is cut');
      // The figure (c/n, the description up to its first ' · ') ends inside the box too: a figure cut to
      // `1/1…` read as another figure (trial 10 finding 4).
      const figureCut = await viewPane(s.page, VIEW)
        .locator('.monaco-list-row[aria-level="2"], .monaco-list-row[aria-level="3"]')
        .evaluateAll((rows) =>
          rows
            .map((r) => {
              // DOM objects inside the page (the project compiles without the DOM lib)
              const row = r as any;
              const desc = row.querySelector('.label-description');
              const box = row.querySelector('.monaco-icon-label-container');
              const text = desc?.firstChild;
              if (!desc || !box || !text || !text.textContent) return null;
              const end = text.textContent.indexOf(' · ');
              const range = row.ownerDocument.createRange();
              range.setStart(text, 0);
              range.setEnd(text, end < 0 ? text.textContent.length : end);
              return range.getBoundingClientRect().right > box.getBoundingClientRect().right + 0.5
                ? `${row.querySelector('.label-name')?.textContent} ${text.textContent}`
                : null;
            })
            .filter((x) => x !== null),
        );
      assert.deepEqual(figureCut, [], 'no model row figure is cut');
      assert.ok((await messageLines()) <= 2, 'the text above the tree fits in two lines');
      await moveMouseAway(s.page);
      await screenshot(s.page, 'model-rows-2-tree');
    } catch (e) {
      await s.fail(e, 'model-rows-2');
    }
  });

  test('filtered, the text above the tree still fits in two lines', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Filter Problems…');
      await answerQuickInput(s.page, { pick: 'Failing problems' });
      const message = await waitUntil(
        s.page,
        async () => {
          const t = await viewPane(s.page, VIEW)
            .locator('.message')
            .first()
            .innerText()
            .catch(() => '');
          return t.startsWith('Failing: ') ? t : undefined;
        },
        { what: 'the filter above the tree' },
      );
      assert.equal(message, 'Failing: 1 problem · ppo@main vs sft · 2048_batched');
      assert.ok((await messageLines()) <= 2, `two lines at most: ${message}`);
      await moveMouseAway(s.page);
      await screenshot(s.page, 'model-rows-3-filtered');
    } catch (e) {
      await s.fail(e, 'model-rows-3');
    }
  });
});
