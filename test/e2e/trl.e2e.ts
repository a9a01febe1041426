/**
 * TRL's completions files in a real VS Code (code-server) in Chromium (issue 37): a folder of
 * `grpo-run/completions/completions_<step>.parquet` (steps 100, 200, 300; test/unit/trl.support.ts) is indexed by
 * the extension: the tree shows the three prompts as problems, keyed by their hash, with the earliest step as the
 * base and a later step in focus; under a problem, the three steps; the overview's Training tab follows the steps.
 * Screenshots: test-output/e2e/screenshots/trl-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { trlProblemId } from '../../src/core/readers/trl';
import { PROMPTS, writeTrlFolder } from '../unit/trl.support';
import * as h from './harness';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';

describe('TRL completions (Parquet) in a real VS Code', { timeout: 600_000 }, () => {
  let s: h.Session;

  before(async () => {
    const vsix = h.defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    const dir = path.join(h.outputRoot, 'workspace', 'trl');
    fs.rmSync(dir, { recursive: true, force: true });
    writeTrlFolder(dir);
    s = await h.startSession({ name: 'trl', vsix, folder: dir });
  });

  after(async () => {
    await s?.close();
  });

  test('the tree: one problem per prompt, keyed by its hash; the steps under a problem', async () => {
    try {
      await h.showTreeView(s.page, CONTAINER, VIEW);
      const ids = PROMPTS.map(trlProblemId);
      const rows = await h.waitUntil(
        s.page,
        async () => {
          const r = (await h.treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1);
          return r.length === 3 && r.every((x) => x.description.startsWith('base ')) ? r : undefined;
        },
        { timeoutMs: 120_000, what: '3 problem rows with their counts' },
      );
      assert.deepEqual(rows.map((r) => r.label).sort(), [...ids].sort());
      // the second prompt: step 100 (the base) 0 of 4 correct
      assert.match(rows.find((r) => r.label === ids[1])?.description ?? '', /^base 0\/4 · model \d\/4/);
      const under = await h.childRows(s.page, VIEW, ids[1], 3);
      // the base first, then the model in focus (the latest step), then the other step
      assert.deepEqual(
        under.map((x) => x.label),
        ['grpo-run@step-100', 'grpo-run@step-300', 'grpo-run@step-200'],
      );
      await h.screenshot(s.page, 'trl-1-tree');
    } catch (e) {
      await s.fail(e, 'trl-1');
    }
  });

  test('the overview: the Training tab shows the series of steps 200 and 300', async () => {
    try {
      await h.runCommand(s.page, 'Trace Inspector: Open Overview');
      const ov = await h.webviewWith(s.page, '#tab-training', {
        timeoutMs: 60_000,
        what: 'the overview with its tabs',
      });
      await ov.click('#tab-training');
      await ov.waitForSelector('.training-table tbody tr', { timeout: 60_000 });
      const rows: string[][] = await ov.$$eval('.training-table tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
      );
      // steps 200 and 300 (step 100 is their base): 8 and 10 of 12 samples correct
      assert.deepEqual(
        rows.map((r) => r[0]),
        ['200', '300'],
      );
      assert.match(rows[0][4], /\(8\/12\)$/);
      assert.match(rows[1][4], /\(10\/12\)$/);
      await h.screenshot(s.page, 'trl-2-training');
    } catch (e) {
      await s.fail(e, 'trl-2');
    }
  });
});
