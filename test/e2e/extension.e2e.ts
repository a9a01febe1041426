/**
 * The main job, end to end, in a real VS Code (code-server) in a real browser (Chromium), on the real
 * folder ../shared/data/real/rlvr-probe-gsm8k (copied at test time into test-output, because the
 * annotation mirror is written into the results folder and the shared data is read-only):
 * the extension indexes it; the tree lists its 30 problems; the "failing problems" filter shows exactly
 * the problems the RL model never solves; expanding a problem shows both models with their c/n;
 * opening a sample shows its text; an annotation added through the UI is still there after the window
 * reloads and appears in the JSONL mirror. Every step saves a screenshot and asserts on the screen.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  activeEditorText,
  answerQuickInput,
  clickTreeRow,
  collapseTreeRow,
  expandTreeRow,
  reloadWindow,
  runCommand,
  screenshot,
  showTreeView,
  treeRowDetails,
  waitUntil,
  type Session,
} from './harness';
import {
  RLVR_PROBE,
  holdsWord,
  problemsHoldingWord,
  rawCounts,
  startOnRlvrProbe,
  waitForAllProblems,
} from './rlvrProbe';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const REAL = RLVR_PROBE;
const RUN = 'results_2048_batched';
/** Model rows in the tree: what tells the folder's models apart first (name's distinct end, revision, run's distinct end). */
const RL_LABEL = 'ppo@main · 2048_batched';
const SFT_LABEL = 'sft · 2048_batched';
/** The pair the line above the tree and the status bar name (the run both end with said once). */
const PAIR = 'ppo@main vs sft · 2048_batched';

describe('Trace Inspector in a real VS Code on rlvr-probe-gsm8k', { timeout: 600_000 }, () => {
  let s: Session;
  let workspace: string;
  const rl = rawCounts(path.join(REAL, RUN, 'rl_raw.jsonl'));
  const sft = rawCounts(path.join(REAL, RUN, 'sft_raw.jsonl'));

  before(async () => {
    ({ session: s, workspace } = await startOnRlvrProbe('extension'));
  });

  after(async () => {
    await s?.close();
  });

  test('indexes the folder: the tree lists its 30 problems', async () => {
    try {
      const rows = await waitForAllProblems(s);
      assert.deepEqual(
        rows.map((r) => r.label),
        Array.from({ length: 30 }, (_, i) => String(i)),
      );
      // The first rows are the problems in numeric order, each showing base and model counts.
      assert.deepEqual(
        rows.slice(0, 5).map((r) => r.label),
        ['0', '1', '2', '3', '4'],
      );
      await screenshot(s.page, 'extension-1-tree');
    } catch (e) {
      await s.fail(e, 'extension-1');
    }
  });

  test('the "failing problems" filter shows exactly the problems the RL model never solves', async () => {
    try {
      const expected = [...rl].filter(([, v]) => v.c === 0).map(([k]) => k);
      assert.ok(expected.length > 0);
      await runCommand(s.page, 'Trace Inspector: Filter Problems…');
      await answerQuickInput(s.page, { pick: 'Failing problems' });
      const rows = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1);
          return r.length === expected.length && r.every((x, i) => x.label === expected[i]) ? r : undefined;
        },
        { what: `exactly the failing problems ${expected.join(', ')}` },
      );
      assert.deepEqual(
        rows.map((r) => r.label),
        expected,
      );
      // The active filter is stated above the tree (the view's description is hidden when the container holds one view).
      await waitUntil(
        s.page,
        async () =>
          (await s.page.locator('.part.sidebar').innerText()).includes(
            `Failing: ${expected.length} problem${expected.length === 1 ? '' : 's'} · ${PAIR}`,
          )
            ? true
            : undefined,
        { what: 'the filter message above the tree' },
      );
      await screenshot(s.page, 'extension-2-failing-filter');
      await runCommand(s.page, 'Trace Inspector: Clear Filter');
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length === 30,
        { what: 'the filter cleared' },
      );
    } catch (e) {
      await s.fail(e, 'extension-2');
    }
  });

  test('searching sample text lists the problems with a matching sample, and under each only the models that have one', async () => {
    try {
      // "additions" occurs in some problems' samples only (recomputed from every raw file of the folder,
      // with the full-text index's tokenisation: runs of letters and digits, case-folded). In
      // results_2048_batched, one problem has it in RL samples and not in SFT samples.
      const word = 'additions';
      const has = (texts: string[]) => holdsWord(texts, word);
      const expected = problemsHoldingWord(word);
      const only = [...rl].find(([q, v]) => has(v.texts) && !has(sft.get(q)!.texts))?.[0];
      assert.ok(
        only !== undefined,
        'a problem where the RL model of results_2048_batched matches and its SFT does not',
      );
      await runCommand(s.page, 'Trace Inspector: Search Sample Text…');
      await answerQuickInput(s.page, { text: word });
      await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).map((x) => x.label);
          return r.join(',') === expected.join(',') ? r : undefined;
        },
        { what: `the problems ${expected.join(', ')} matching "${word}"` },
      );
      await expandTreeRow(s.page, VIEW, only);
      const models = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 2).map((x) => x.label);
          return r.length > 0 ? r : undefined;
        },
        { what: `the models under problem ${only}` },
      );
      assert.ok(models.includes(RL_LABEL), models.join(' | '));
      assert.ok(!models.includes(SFT_LABEL), `the SFT model has no matching sample: ${models.join(' | ')}`);
      assert.ok(models.length < 12, `only models with a match, not all 12: ${models.join(' | ')}`);
      await screenshot(s.page, 'extension-2b-search');
      await collapseTreeRow(s.page, VIEW, only);
    } catch (e) {
      await s.fail(e, 'extension-2b');
    } finally {
      await runCommand(s.page, 'Trace Inspector: Clear Filter').catch(() => undefined);
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length === 30,
        { what: 'the filter cleared' },
      ).catch(() => undefined);
    }
  });

  test('expanding a problem shows both models with their c/n', async () => {
    try {
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length === 30 || undefined,
        { what: 'the 30 problems in the tree (the search filter of the test before cleared)' },
      );
      await expandTreeRow(s.page, VIEW, '0');
      const rows = await waitUntil(
        s.page,
        async () => {
          const r = await treeRowDetails(s.page, VIEW);
          return r.some((x) => x.label === RL_LABEL) && r.some((x) => x.label === SFT_LABEL) ? r : undefined;
        },
        { what: 'both models of results_2048_batched under problem 0' },
      );
      const rlRow = rows.find((x) => x.label === RL_LABEL)!;
      const sftRow = rows.find((x) => x.label === SFT_LABEL)!;
      // the figure first, then the role (a narrow side bar cuts the end of a description; trial 10 finding 4),
      // the model in focus marked like the base
      assert.match(rlRow.description, new RegExp(`^${rl.get('0')!.c}/8 · focus · pass@8 `));
      assert.match(sftRow.description, new RegExp(`^${sft.get('0')!.c}/8 · base · pass@8 `));
      // the 10 other models behind one row
      const more = rows.find((x) => x.level === 2 && /^\d+ more models$/.test(x.label));
      assert.equal(more?.label, '10 more models');
      await screenshot(s.page, 'extension-3-problem-models');
    } catch (e) {
      await s.fail(e, 'extension-3');
    }
  });

  test('opening a sample shows its text', async () => {
    try {
      await expandTreeRow(s.page, VIEW, RL_LABEL);
      await expandTreeRow(s.page, VIEW, 'correct');
      const first = await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).find((r) => /^sample \d+$/.test(r.label)),
        { what: 'a sample row' },
      );
      const index = Number(first.label.split(' ')[1]);
      await clickTreeRow(s.page, VIEW, first.label);
      const text = await waitUntil(
        s.page,
        async () => {
          const t = await activeEditorText(s.page);
          return t.includes('## Sample') ? t : undefined;
        },
        { what: 'the sample document' },
      );
      // the tree's short name of the model (trial 13 finding 8)
      assert.match(text, /^# Problem 0 · ppo@main · 2048_batched · sample \d+/);
      assert.match(text, /\*\*Correctness:\*\* correct/);
      const expectedText = rl.get('0')!.texts[index];
      assert.ok(text.includes(expectedText.slice(0, 200)), 'the sample text from rl_raw.jsonl is shown');
      await screenshot(s.page, 'extension-4-sample');
    } catch (e) {
      await s.fail(e, 'extension-4');
    }
  });

  test('an annotation added through the UI survives a window reload and is in the JSONL mirror', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Annotate Sample…');
      await answerQuickInput(s.page, { pick: 'lucky guess' });
      await s.page.keyboard.press('Enter'); // accept the multi-select
      await answerQuickInput(s.page, { text: 'right answer, wrong arithmetic (e2e)' }, { title: ': note' });
      const labelled = () =>
        waitUntil(
          s.page,
          async () =>
            (await treeRowDetails(s.page, VIEW)).find(
              (r) => /^sample \d+$/.test(r.label) && r.description.includes('lucky guess'),
            ),
          {
            what: 'a sample row showing the label',
            timeoutMs: 30_000,
          },
        );
      const row = await labelled();
      await screenshot(s.page, 'extension-5-annotated');

      const mirror = path.join(workspace, '.trace-inspector', 'annotations.jsonl');
      const lines = fs
        .readFileSync(mirror, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(lines.length, 1);
      assert.deepEqual(lines[0].labels, ['lucky guess']);
      assert.equal(lines[0].note, 'right answer, wrong arithmetic (e2e)');
      assert.equal(lines[0].sampleIndex, Number(row.label.split(' ')[1]));

      await reloadWindow(s.page);
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length >= 30,
        {
          timeoutMs: 90_000,
          what: 'the tree after reload',
        },
      );
      await expandTreeRow(s.page, VIEW, '0');
      await expandTreeRow(s.page, VIEW, RL_LABEL);
      await expandTreeRow(s.page, VIEW, 'correct');
      const after = await labelled();
      assert.equal(after.label, row.label);
      await screenshot(s.page, 'extension-6-after-reload');
      assert.equal(fs.readFileSync(mirror, 'utf8').trim().split('\n').length, 1);
    } catch (e) {
      await s.fail(e, 'extension-5');
    }
  });
});
