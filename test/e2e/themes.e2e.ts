/**
 * The views in the four themes people check (Dark+, Light+, High Contrast, High Contrast Light), one session
 * switching themes (issue 34): every text of the problem view (its selected similarity row among them), the sample
 * preview (the answer, reference and source chips) and the overview (Overview, Training and Splits tabs) meets WCAG AA
 * contrast (4.5:1, 3:1 for large text; test/e2e/contrast.ts), measured in the page as drawn. And the problem view's
 * pass@k chart on the real 12-model folder rlvr-probe-gsm8k, wide and narrow. Screenshots:
 * test-output/e2e/screenshots/themes-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { textContrastFailures, type ContrastFailure } from './contrast';
import {
  answerQuickInput,
  clickTreeRow,
  expandTreeRow,
  moveMouseAway,
  openProblemViewFromRow,
  runCommand,
  screenshot,
  treeRowDetails,
  waitUntil,
  webviewWith,
  type Session,
} from './harness';
import { startOnRlvrProbe, waitForAllProblems } from './rlvrProbe';

// Browser global used inside frame.evaluate (the project compiles without the DOM lib).
declare const document: any;

const VIEW = 'Problems';

/** The themes (their names in the theme picker) and the class VS Code puts on a webview's body in each. */
const THEMES: { id: string; bodyClass: string; name: string }[] = [
  { id: 'Dark+', bodyClass: 'vscode-dark', name: 'dark-plus' },
  { id: 'Light+', bodyClass: 'vscode-light', name: 'light-plus' },
  { id: 'Dark High Contrast', bodyClass: 'vscode-high-contrast', name: 'high-contrast' },
  { id: 'Light High Contrast', bodyClass: 'vscode-high-contrast-light', name: 'high-contrast-light' },
];

/** Switches the window's colour theme as a user does (Preferences: Color Theme, the theme's name, Enter). */
async function setTheme(s: Session, label: string): Promise<void> {
  await runCommand(s.page, 'Preferences: Color Theme');
  await answerQuickInput(s.page, { text: label });
}

/** Waits until the webview in `frame` has the theme's body class and its charts have been drawn again. */
async function waitForThemeIn(frame: Frame, bodyClass: string): Promise<void> {
  await frame.waitForFunction(
    (c: string) =>
      document.body.classList.contains(c) &&
      (c !== 'vscode-high-contrast' || !document.body.classList.contains('vscode-high-contrast-light')),
    bodyClass,
    { timeout: 30_000 },
  );
  // the charts re-render on a theme change; give them their turn
  await frame.waitForTimeout(800);
}

/** The content frame of a webview (any editor group) that has `selector`, waiting for it. */
async function anyWebviewWith(s: Session, selector: string, what: string): Promise<Frame> {
  return waitUntil(
    s.page,
    async () => {
      for (const f of s.page.frames())
        if (f !== s.page.mainFrame() && (await f.$(selector).catch(() => null))) return f;
      return undefined;
    },
    { timeoutMs: 60_000, what },
  );
}

const describeFailures = (view: string, theme: string, f: ContrastFailure[]) =>
  f.map(
    (x) => `${theme} ${view}: "${x.text}" ${x.color} on ${x.background} = ${x.ratio}:1 (< ${x.minimum}) at ${x.where}`,
  );

describe('every view in four themes, and the pass@k chart with 12 models', { timeout: 600_000 }, () => {
  let s: Session;

  before(async () => {
    ({ session: s } = await startOnRlvrProbe('themes'));
  });

  after(async () => {
    await s?.close();
  });

  test('the pass@k chart with 12 models, wide and narrow: every model listed, base and focus first', async () => {
    try {
      await waitForAllProblems(s);
      await openProblemViewFromRow(s.page, VIEW, '0');
      const frame = await webviewWith(s.page, '#chart-passk canvas', { timeoutMs: 60_000, what: 'the pass@k chart' });
      const curves = await frame.$$eval('#chart-passk-data li', (lis) => lis.map((li) => li.textContent ?? ''));
      assert.equal(curves.length, 12, 'one entry per model in the chart text');
      await moveMouseAway(s.page);
      await screenshot(s.page, 'themes-1-passk-12-models-wide');
      const note = ((await frame.textContent('#chart-passk-note')) ?? '').trim();
      // a note only when curves are merged, and then naming the models merged
      if (note) assert.match(note, /^Identical curves, drawn once: .+ = .+\.$/);
      await s.page.setViewportSize({ width: 900, height: 900 });
      await frame.waitForTimeout(1500);
      await screenshot(s.page, 'themes-1-passk-12-models-narrow');
      await s.page.setViewportSize({ width: 1440, height: 900 });
    } catch (e) {
      await s.fail(e, 'themes-1');
    }
  });

  test('text contrast at least WCAG AA in Dark+, Light+, High Contrast and High Contrast Light', async () => {
    try {
      // the preview of a sample: problem 0, the base model's first sample (its answer, reference and source)
      await expandTreeRow(s.page, VIEW, '0');
      const base = await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).find((r) => r.level === 2),
        { what: 'the base model row under problem 0' },
      );
      await expandTreeRow(s.page, VIEW, base.label);
      await expandTreeRow(s.page, VIEW, 'correct');
      await clickTreeRow(s.page, VIEW, 'sample 0');
      await runCommand(s.page, 'Trace Inspector: Open Sample Preview');
      await anyWebviewWith(s, '#preview-fields code', 'the preview with its chips');
      await runCommand(s.page, 'Trace Inspector: Open Overview');
      await anyWebviewWith(s, '#chart-curves', 'the overview');
      const failures: string[] = [];
      const sideways: string[] = [];
      const tab = (title: string) => s.page.locator('.tabs-container .tab', { hasText: title }).first();
      for (const theme of THEMES) {
        await setTheme(s, theme.id);
        // the problem view with its selected similarity row
        await tab('Problem 0').click();
        const pv = await anyWebviewWith(s, '.sample-row.selected', 'the problem view');
        await waitForThemeIn(pv, theme.bodyClass);
        failures.push(...describeFailures('problem view', theme.id, await textContrastFailures(pv)));
        await moveMouseAway(s.page);
        await screenshot(s.page, `themes-2-${theme.name}-problem-view`);
        await tab(' #').click();
        const pr = await anyWebviewWith(s, '#preview-fields', 'the preview');
        await waitForThemeIn(pr, theme.bodyClass);
        failures.push(...describeFailures('preview', theme.id, await textContrastFailures(pr)));
        await screenshot(s.page, `themes-2-${theme.name}-preview`);
        await tab('Overview').click();
        const ov = await anyWebviewWith(s, '#chart-curves', 'the overview');
        await waitForThemeIn(ov, theme.bodyClass);
        failures.push(...describeFailures('overview', theme.id, await textContrastFailures(ov)));
        await ov.click('#tab-training');
        await ov.waitForSelector('table.training-table', { timeout: 60_000 });
        failures.push(...describeFailures('training tab', theme.id, await textContrastFailures(ov)));
        // the Training table fits the editor (no sideways scroll)
        const scroll = await ov.$eval('table.training-table', (t) => {
          const box = t.parentElement as unknown as { scrollWidth: number; clientWidth: number };
          return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
        });
        if (scroll.scrollWidth > scroll.clientWidth + 1)
          sideways.push(`${theme.id}: the Training table is ${scroll.scrollWidth} px in ${scroll.clientWidth} px`);
        await screenshot(s.page, `themes-2-${theme.name}-training`);
        // the Splits tab: its controls, notes and table (the heatmap's cell labels are drawn in its canvas)
        await ov.click('#tab-splits');
        await ov.waitForSelector('#splits-table, #splits-empty', { timeout: 120_000 });
        failures.push(...describeFailures('splits tab', theme.id, await textContrastFailures(ov)));
        await screenshot(s.page, `themes-2-${theme.name}-splits`);
        await ov.click('#tab-models');
      }
      assert.deepEqual(failures, [], `${failures.length} texts below WCAG AA:\n${failures.join('\n')}`);
      assert.deepEqual(sideways, []);
    } catch (e) {
      await s.fail(e, 'themes-2');
    }
  });
});
