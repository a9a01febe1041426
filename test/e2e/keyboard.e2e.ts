/**
 * The daily loop with the keyboard only, in a real VS Code (code-server) in Chromium, on the real
 * folder rlvr-probe-gsm8k: choose the RL model of results_1024_cuda as the model in focus, filter the
 * failing problems, focus the tree, then step through 10 failing samples with Alt+] (each one shown in
 * the one preview tab, selected in the tree, in the order recomputed from the raw rollouts), jump
 * problems with Alt+Shift+] / Alt+Shift+[, label 3 samples with Alt+A (typing a label and Enter; ↓
 * and Space; a new label), and skip them with Next Unannotated Sample (Alt+U). No mouse click after
 * the workbench is up. Screenshots: test-output/e2e/screenshots/keyboard-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  activeEditorText,
  activeEditorTitle,
  answerQuickPickByKeyboard,
  reloadWindow,
  runCommandByKeyboard,
  screenshot,
  showTreeView,
  treeRowDetails,
  viewPane,
  waitUntil,
  webviewWith,
  type Session,
} from './harness';
import { ordinal } from '../../src/core/text/strings';
import { RLVR_PROBE, startOnRlvrProbe } from './rlvrProbe';

// Browser global used inside frame.evaluate (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const RUN = 'results_1024_cuda';
/** The label picker's hint, as src/extension/commands.ts writes it (what its keys do). */
const HINT =
  'Enter saves the typed label exactly (a new one unless it is listed) · ↓, Space to check listed labels, Enter saves them';

/** The failing samples in the order a reader steps through them: never-solved qids ascending, rollouts by index. */
function failingWalk(): { qid: number; index: number; text: string }[] {
  const rows = fs
    .readFileSync(path.join(RLVR_PROBE, RUN, 'rl_raw.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { qid: number; rollouts: { correct: boolean; text: string }[] });
  return rows
    .filter((r) => r.rollouts.every((x) => !x.correct))
    .sort((a, b) => a.qid - b.qid)
    .flatMap((r) => r.rollouts.map((x, index) => ({ qid: r.qid, index, text: x.text })));
}

describe('the daily loop with the keyboard only, on rlvr-probe-gsm8k', { timeout: 900_000 }, () => {
  let s: Session;
  let workspace: string;
  const walk = failingWalk();

  before(async () => {
    ({ session: s, workspace } = await startOnRlvrProbe('keyboard'));
  });
  after(async () => {
    await s?.close();
  });

  /** The preview once it shows (qid, index) completely rendered. */
  const previewShows = (qid: number, index: number): Promise<Frame> =>
    waitUntil(
      s.page,
      async () => {
        const f = await webviewWith(s.page, '#preview-text[data-rendered]', { timeoutMs: 5000 }).catch(() => undefined);
        const h1 = await f?.$eval('h1', (e: { textContent: string }) => e.textContent).catch(() => '');
        return f &&
          h1?.includes(`Problem ${qid} · sample ${index}`) &&
          (await f.$(`#preview-text[data-sample-index="${index}"][data-rendered]`))
          ? f
          : undefined;
      },
      { timeoutMs: 30_000, what: `the preview of problem ${qid}, sample ${index}` },
    );
  /** Waits for the label picker: its hint is what its keys do. */
  const labelPicker = () =>
    waitUntil(
      s.page,
      async () =>
        (await s.page.locator('.quick-input-widget .quick-input-box input').getAttribute('placeholder')) === HINT
          ? true
          : undefined,
      { what: `the label picker with the hint '${HINT}'` },
    );
  const selectedRow = async () => (await treeRowDetails(s.page, VIEW)).find((r) => r.selected)?.label;
  const treeHasFocus = () =>
    viewPane(s.page, VIEW).evaluate((el: { contains(n: unknown): boolean }) => el.contains(document.activeElement));
  const mirror = () => {
    const f = path.join(workspace, '.trace-inspector', 'annotations.jsonl');
    return fs.existsSync(f)
      ? fs
          .readFileSync(f, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { sampleIndex: number; labels: string[]; note: string; deleted?: boolean })
      : [];
  };

  test('Alt+] steps through 10 failing samples in tree order; the preview follows, the tree selects, the keyboard stays', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((r) => r.level === 1).length === 30,
        {
          timeoutMs: 120_000,
          what: '30 problem rows',
        },
      );
      await runCommandByKeyboard(s.page, 'Trace Inspector: Choose Model in Focus…');
      // the picker names models as the tree does (trial 13 finding 8), the full id in each item's detail
      await answerQuickPickByKeyboard(s.page, 'ppo · 1024', {
        highlighted: 'ppo · 1024_cuda',
      });
      // as in the trial: the palette opened from the (empty) editor group, not from the tree
      await runCommandByKeyboard(s.page, 'View: Focus First Editor Group');
      await runCommandByKeyboard(s.page, 'Trace Inspector: Filter Problems…');
      await answerQuickPickByKeyboard(s.page, 'Failing', { highlighted: 'Failing problems' });
      const failingQids = [...new Set(walk.map((w) => w.qid))];
      await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).map((x) => x.label);
          return r.join(',') === failingQids.join(',') ? r : undefined;
        },
        { what: `the failing problems ${failingQids.join(', ')}` },
      );
      // No "Focus on Problems View" here (trial 4 finding 3): the filter chosen from the palette moves
      // focus to the tree, so Alt+] steps right away.
      for (let i = 0; i < 10; i++) {
        await s.page.keyboard.press('Alt+BracketRight');
        const { qid, index } = walk[i];
        const frame = await previewShows(qid, index);
        const position = await frame.$eval('#preview-position', (e: { textContent: string }) => e.textContent);
        const p = failingQids.indexOf(qid) + 1;
        assert.match(
          position,
          new RegExp(
            `^${ordinal(p)} of ${failingQids.length} problems \\(Failing: .*\\) · ${ordinal(index + 1)} of 8 samples$`,
          ),
        );
        await waitUntil(s.page, async () => ((await selectedRow()) === `sample ${index}` ? true : undefined), {
          what: `sample ${index} selected in the tree`,
        });
        assert.ok(await treeHasFocus(), `the keyboard stays in the tree (step ${i + 1})`);
        if (i === 0) {
          // textContent: the sample opens with a <think> block, collapsed (not in innerText)
          const shown: string = await frame.$eval('#preview-text', (e: { textContent: string }) => e.textContent);
          const words = walk[i].text
            .split(/\s+/)
            .filter((w) => /^[A-Za-z]{4,}$/.test(w))
            .slice(0, 8);
          for (const w of words) assert.ok(shown.includes(w), `the preview shows the raw text's word ${w}`);
        }
      }
      await screenshot(s.page, 'keyboard-1-tenth-failing-sample');
      // One preview tab for all ten.
      const previews = (await s.page.locator('.part.editor .tab').allTextContents()).filter((t) => /#\d+ ·/.test(t));
      assert.equal(previews.length, 1, previews.join(' | '));
    } catch (e) {
      await s.fail(e, 'keyboard-1');
    }
  });

  test('Alt+Shift+] and Alt+Shift+[ jump to the first sample of the next and previous problem', async () => {
    try {
      // at walk[9] (the second failing problem, sample 1)
      await s.page.keyboard.press('Alt+Shift+BracketRight');
      await previewShows(walk[16].qid, 0);
      await s.page.keyboard.press('Alt+Shift+BracketLeft');
      await previewShows(walk[8].qid, 0);
      await s.page.keyboard.press('Alt+Shift+BracketLeft');
      await previewShows(walk[0].qid, 0);
      assert.ok(await treeHasFocus());
    } catch (e) {
      await s.fail(e, 'keyboard-2');
    }
  });

  test('Alt+A labels samples from the keyboard; the picker says what its keys do; Alt+U skips labelled samples', async () => {
    try {
      // 1: type a label and Enter, then a note and Enter (at walk[0])
      await s.page.keyboard.press('Alt+A');
      await labelPicker();
      // a listed label typed in other case saves the listed one (trial 13 finding 2: a part of one is a new label)
      await answerQuickPickByKeyboard(s.page, 'Lucky Guess', { title: ': labels' });
      await answerQuickPickByKeyboard(s.page, 'right answer by luck (e2e)', { title: ': note' });
      await waitUntil(s.page, async () => (mirror().some((a) => a.sampleIndex === 0) ? true : undefined), {
        what: 'the first annotation in the mirror',
      });
      // 2: Alt+] to walk[1]; ↓ into the list, Space checks the highlighted label, Enter saves; no note
      await s.page.keyboard.press('Alt+BracketRight');
      await previewShows(walk[1].qid, walk[1].index);
      await s.page.keyboard.press('Alt+A');
      await labelPicker();
      await s.page.keyboard.press('ArrowDown');
      const checkedLabel = (
        await s.page.locator('.quick-input-widget .monaco-list-row.focused .label-name').first().textContent()
      )?.trim();
      await s.page.keyboard.press('Space');
      await waitUntil(
        s.page,
        async () =>
          /^1 Selected$/.test(
            (
              await s.page
                .locator('.quick-input-widget .quick-input-count')
                .innerText()
                .catch(() => '')
            ).trim(),
          )
            ? true
            : undefined,
        { what: 'Space checks the highlighted label (1 Selected)' },
      );
      await s.page.keyboard.press('Enter');
      await answerQuickPickByKeyboard(s.page, '', { title: ': note' });
      // 3: Alt+] to walk[2]; a new label typed and Enter
      await s.page.keyboard.press('Alt+BracketRight');
      await previewShows(walk[2].qid, walk[2].index);
      await s.page.keyboard.press('Alt+A');
      await answerQuickPickByKeyboard(s.page, 'e2e-new-label', { title: ': labels' });
      await answerQuickPickByKeyboard(s.page, '', { title: ': note' });
      const byIndex = await waitUntil(
        s.page,
        async () => {
          const m = mirror().filter((a) => !a.deleted);
          return m.length === 3 ? new Map(m.map((a) => [a.sampleIndex, a])) : undefined;
        },
        { what: 'three annotations in the mirror' },
      );
      assert.deepEqual(byIndex.get(walk[0].index)?.labels, ['lucky guess']);
      assert.equal(byIndex.get(walk[0].index)?.note, 'right answer by luck (e2e)');
      assert.deepEqual(byIndex.get(walk[1].index)?.labels, [checkedLabel]);
      assert.deepEqual(byIndex.get(walk[2].index)?.labels, ['e2e-new-label']);
      // To the next problem and back to the first sample of this one, then Alt+U: the first unannotated is walk[3].
      await s.page.keyboard.press('Alt+Shift+BracketRight');
      await previewShows(walk[8].qid, 0);
      await s.page.keyboard.press('Alt+Shift+BracketLeft');
      await previewShows(walk[0].qid, 0);
      await s.page.keyboard.press('Alt+U');
      await previewShows(walk[3].qid, walk[3].index);
      await screenshot(s.page, 'keyboard-2-annotated');
      assert.ok(await treeHasFocus());
    } catch (e) {
      await s.fail(e, 'keyboard-3');
    }
  });

  test('the sample tabs come back after a window reload: the preview and a text tab, same samples', async () => {
    try {
      // at walk[3]: open its text tab from the preview's toolbar, then the preview again
      const frame = await previewShows(walk[3].qid, walk[3].index);
      await frame.click('vscode-button[aria-label="Open as text"]');
      await waitUntil(
        s.page,
        async () =>
          ((await activeEditorTitle(s.page)) ?? '').endsWith(`sample ${walk[3].index}.md`) ? true : undefined,
        { what: 'the text tab' },
      );
      await reloadWindow(s.page);
      const tabs = await waitUntil(
        s.page,
        async () => {
          const t = await s.page.locator('.tabs-container .tab .label-name').allTextContents();
          return t.some((x) => x.endsWith(`sample ${walk[3].index}.md`)) &&
            t.some((x) => x.includes(`#${walk[3].index} ·`))
            ? t
            : undefined;
        },
        { timeoutMs: 90_000, what: 'both sample tabs after the reload' },
      );
      assert.ok(tabs.length >= 2, tabs.join(' | '));
      // the text tab has its content (its provider is registered again before the editor resolves)
      await s.page
        .locator('.tabs-container .tab', { hasText: `sample ${walk[3].index}.md` })
        .first()
        .click();
      const text = await waitUntil(
        s.page,
        async () => {
          const t = await activeEditorText(s.page);
          return t.includes('## Sample') ? t : undefined;
        },
        { what: 'the restored text tab' },
      );
      assert.match(text, new RegExp(`^# Problem ${walk[3].qid} · .* · sample ${walk[3].index}`));
      // the preview shows the same sample
      await s.page
        .locator('.tabs-container .tab', { hasText: `#${walk[3].index} ·` })
        .first()
        .click();
      await previewShows(walk[3].qid, walk[3].index);
      await screenshot(s.page, 'keyboard-3-after-reload');
    } catch (e) {
      await s.fail(e, 'keyboard-4');
    }
  });
});
