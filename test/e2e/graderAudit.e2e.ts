/**
 * Answer equivalence and the grader audit end to end (issue 11), in a real VS Code (code-server) in
 * Chromium with the packaged VSIX, on the handwritten fixture test/fixtures/grader-audit (its README
 * works out every figure): the grader audit's warnings reach the Problems panel; the tree filter
 * "Grader disagreements" lists exactly problems 0 and 1; the problem view of problem 1 counts "in base"
 * by the same equivalence as maj@k (the RL model's "0.5" is in base 3/4: "0.5", "\frac12" and "1/2",
 * two of them graded correct). Problem 1's group needs the CAS (`\frac12`, `1/2`): this also shows the
 * VSIX ships @cortex-js/compute-engine and the extension host loads it.
 * Screenshots: test-output/e2e/screenshots/grader-audit-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  answerQuickInput,
  openProblemViewFromRow,
  defaultVsixPath,
  outputChannelLog,
  repoRoot,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitUntil,
  webviewFrame,
  workspaceCopy,
  type Session,
} from './harness';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'grader-audit');

describe('grader audit and answer equivalence in a real VS Code', { timeout: 600_000 }, () => {
  let s: Session;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    const workspace = workspaceCopy(FIXTURE, 'grader-audit');
    s = await startSession({
      name: 'grader-audit',
      vsix,
      folder: workspace,
      settings: { 'traceInspector.baseModel': 'base', 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await s?.close();
  });

  test('indexing reports two grader inconsistencies, at the lines of the samples', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).length === 5,
        { timeoutMs: 120_000, what: '5 problem rows' },
      );
      const log = await waitUntil(
        s.page,
        async () => {
          const text = outputChannelLog(s.server, 'Trace Inspector');
          return text.includes('[grader audit]') ? text : undefined;
        },
        { timeoutMs: 60_000, what: 'the grader audit line in the output channel' },
      );
      assert.match(
        log,
        /\[grader audit\] 2 groups of equivalent answers graded both correct and incorrect in 2 problems/,
      );
      assert.match(
        log,
        /\[diagnostic\] base\/math_eval\/spellings\/test_qwen-boxed\.jsonl:1: grader inconsistency: problem 0: the same answer "990" is graded correct in 4 and incorrect in 2 samples/,
      );
      assert.match(
        log,
        /\[diagnostic\] base\/math_eval\/spellings\/test_qwen-boxed\.jsonl:2: grader inconsistency: problem 1: the same answer "0\.5" is graded correct in 6 and incorrect in 1 samples/,
      );
      await runCommand(s.page, 'View: Focus Problems (Errors, Warnings, Infos)');
      await waitUntil(
        s.page,
        async () => (await s.page.locator('.markers-panel').innerText()).includes('grader inconsistency'),
        { what: 'the grader inconsistency in the Problems panel' },
      );
      await screenshot(s.page, 'grader-audit-1-problems-panel');
    } catch (e) {
      await s.fail(e, 'grader-audit-1');
    }
  });

  test('the tree filter "Grader disagreements" lists problems 0 and 1', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await runCommand(s.page, 'Trace Inspector: Filter Problems…');
      await answerQuickInput(s.page, { pick: 'Grader disagreements' });
      const rows = await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).map((x) => x.label);
          return r.length === 2 ? r : undefined;
        },
        { what: 'two problem rows under the filter' },
      );
      assert.deepEqual(rows, ['0', '1']);
      await waitUntil(
        s.page,
        async () =>
          (await s.page.locator('.part.sidebar').innerText()).includes(
            'Grader disagreements: the same answer graded correct and incorrect: 2 problems',
          ),
        { what: 'the filter stated above the tree' },
      );
      await screenshot(s.page, 'grader-audit-2-filter');
    } catch (e) {
      await s.fail(e, 'grader-audit-2');
    }
  });

  test('the problem view counts "in base" by answer equivalence (the grouping of maj@k)', async () => {
    try {
      await openProblemViewFromRow(s.page, VIEW, '1');
      const frame: Frame = await webviewFrame(s.page, 0, { timeoutMs: 30_000, what: 'the problem view' });
      await frame.waitForSelector('#stats-table tbody tr', { timeout: 30_000 });
      // the model in focus is rl; its four samples all answer "0.5"
      const inBase = await waitUntil(
        s.page,
        async () => {
          const t = await frame.$$eval('.sample-row .in-base', (els) => els.map((e) => (e.textContent ?? '').trim()));
          return t.length === 4 && t.every((x) => x !== '') ? t : undefined;
        },
        { timeoutMs: 60_000, what: 'four RL samples with their "in base" counts' },
      );
      assert.deepEqual(inBase, Array(4).fill('in base 3/4 (2 ✓)'));
      await frame.$eval('#in-base', (el) => el.scrollIntoView());
      await screenshot(s.page, 'grader-audit-3-in-base');
    } catch (e) {
      await s.fail(e, 'grader-audit-3');
    }
  });
});

// The fixture must be what the assertions above were worked out on.
assert.ok(fs.existsSync(path.join(FIXTURE, 'README.md')));
