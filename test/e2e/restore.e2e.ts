/**
 * What a window reload brings back (trial 13 findings 6 and 12), in a real VS Code (code-server) in
 * Chromium, on the real folder rlvr-probe-gsm8k: with the tree filtered to "Gained by RL" (the trial had "Lost by RL": no problem of this folder's run is), a problem view in
 * one editor group and a sample preview and that sample's text tab in another, Developer: Reload Window
 * brings back the filter (the same problem rows, the line above the tree) and each of the three tabs with
 * its content (the problem view's pass@k chart or table, the text tab's header and sample, the preview of
 * the same sample). No timing is asserted: the time from the workbench back to each tab filled is printed
 * (`[restore] ...`) for the record. Screenshots: test-output/e2e/screenshots/restore-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import {
  activeEditorText,
  activeEditorTitle,
  answerQuickInput,
  openProblemViewFromRow,
  reloadWindow,
  runCommand,
  screenshot,
  showTreeView,
  treeRowDetails,
  waitUntil,
  type Session,
} from './harness';
import { RLVR_PROBE, rawCounts, startOnRlvrProbe, waitForAllProblems } from './rlvrProbe';

const VIEW = 'Problems';
const RUN = 'results_2048_batched';
const PAIR = 'ppo@main vs sft · 2048_batched';

/** The first frame (of every webview, visible or not) holding `selector`, waiting for it. */
function frameWith(page: Page, selector: string, what: string, timeoutMs = 90_000): Promise<Frame> {
  return waitUntil(
    page,
    async () => {
      for (const f of page.frames()) if (await f.$(selector).catch(() => null)) return f;
      return undefined;
    },
    { timeoutMs, what },
  );
}

describe('a window reload brings back the tree filter and the three tabs, filled', { timeout: 600_000 }, () => {
  let s: Session;
  const rl = rawCounts(path.join(RLVR_PROBE, RUN, 'rl_raw.jsonl'));
  const sft = rawCounts(path.join(RLVR_PROBE, RUN, 'sft_raw.jsonl'));
  // Gained by RL: the model in focus (ppo) solves the problem at least once, the base (sft) never (no
  // problem of this run is lost by RL, the filter of the trial; both are kept alike)
  const gained = [...rl].filter(([q, v]) => v.c > 0 && (sft.get(q)?.c ?? 0) === 0).map(([q]) => q);
  const gainedRows = async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).map((x) => x.label);
  const filterLine = `Gained by RL: ${gained.length} problem${gained.length === 1 ? '' : 's'} · ${PAIR}`;

  before(async () => {
    ({ session: s } = await startOnRlvrProbe('restore'));
  });
  after(async () => {
    await s?.close();
  });

  test('the filter, the problem view, the preview and the text tab come back after Developer: Reload Window', async () => {
    try {
      assert.ok(gained.length > 0, 'results_2048_batched has problems gained by RL');
      await waitForAllProblems(s);
      await runCommand(s.page, 'Trace Inspector: Filter Problems…');
      await answerQuickInput(s.page, { pick: 'Gained by RL' });
      await waitUntil(s.page, async () => ((await gainedRows()).join(',') === gained.join(',') ? true : undefined), {
        what: `the problems gained by RL: ${gained.join(', ')}`,
      });
      // the problem view of the first of them, then its first sample in the preview (beside it) and as text
      await openProblemViewFromRow(s.page, VIEW, gained[0]);
      await frameWith(s.page, '#chart-curves canvas, #stats-table tbody tr', 'the problem view');
      await runCommand(s.page, 'Trace Inspector: Next Sample');
      const preview = await frameWith(s.page, '#preview-text[data-rendered]', 'the sample preview');
      const heading = ((await preview.$eval('h1', (e: { textContent: string | null }) => e.textContent)) ?? '').trim();
      const index = await preview.$eval('#preview-text', (e: { getAttribute(n: string): string | null }) =>
        e.getAttribute('data-sample-index'),
      );
      assert.match(heading, new RegExp(`Problem ${gained[0]} · sample ${index}$`));
      await preview.click('vscode-button[aria-label="Open as text"]');
      await waitUntil(
        s.page,
        async () => (((await activeEditorTitle(s.page)) ?? '').endsWith(`sample ${index}.md`) ? true : undefined),
        { what: 'the text tab' },
      );
      await screenshot(s.page, 'restore-1-before-reload');

      const t0 = Date.now();
      await reloadWindow(s.page);
      const back = Date.now();
      const times: Record<string, number> = {};
      const filled = (tab: string) => {
        times[tab] = Date.now() - back;
      };
      // the text tab (active in its group): its header and the sample
      const waitText = waitUntil(
        s.page,
        async () => {
          const t = await activeEditorText(s.page).catch(() => '');
          return t.includes('## Sample') ? t : undefined;
        },
        { timeoutMs: 90_000, what: 'the restored text tab with its sample' },
      ).then((t) => {
        filled('text tab');
        return t;
      });
      const waitView = frameWith(
        s.page,
        '#chart-curves canvas, #stats-table tbody tr',
        'the restored problem view',
      ).then((f) => {
        filled('problem view');
        return f;
      });
      const [text, view] = await Promise.all([waitText, waitView]);
      assert.match(text, new RegExp(`^# Problem ${gained[0]} · .* · sample ${index}`));
      assert.match(
        (await view.$eval('h1', (e: { textContent: string | null }) => e.textContent)) ?? '',
        new RegExp(`Problem ${gained[0]}\\b`),
        'the problem view shows the same problem',
      );
      await screenshot(s.page, 'restore-2-after-reload');
      // the preview, behind the text tab in its group, renders the same sample when shown
      await s.page
        .locator('.tabs-container .tab', { hasText: `#${index} ·` })
        .first()
        .click();
      const shownAt = Date.now();
      const restored = await frameWith(
        s.page,
        `#preview-text[data-rendered][data-sample-index="${index}"]`,
        'the restored preview',
      );
      times['preview (after its tab is shown)'] = Date.now() - shownAt;
      assert.equal(
        ((await restored.$eval('h1', (e: { textContent: string | null }) => e.textContent)) ?? '').trim(),
        heading,
      );
      // the filter: the same rows, and the line above the tree says so
      await showTreeView(s.page, 'Trace Inspector', VIEW);
      await waitUntil(s.page, async () => ((await gainedRows()).join(',') === gained.join(',') ? true : undefined), {
        what: `the filter kept: only the problems gained by RL (${gained.join(', ')})`,
      });
      await waitUntil(
        s.page,
        async () => ((await s.page.locator('.part.sidebar').innerText()).includes(filterLine) ? true : undefined),
        { what: `the line above the tree: '${filterLine}'` },
      );
      await screenshot(s.page, 'restore-3-filter-kept');
      console.log(
        `[restore] workbench back ${back - t0} ms after Reload Window; then, ms: ${Object.entries(times)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
    } catch (e) {
      await s.fail(e, 'restore-1');
    }
  });
});
