/**
 * Results folders people actually have, in a real VS Code (code-server) in Chromium: an Inspect AI log
 * whose first scorer returns a dict of metrics (the verdicts come from the scorer named in the setting
 * `traceInspector.scorer`, and changing the setting re-reads the log), and a mapping file that does not
 * fit its data (the Problems panel shows one warning on the mapping file, which goes away when the
 * mapping is fixed). Screenshots: test-output/e2e/screenshots/formats-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { archive } from '../unit/zipArchive';
import {
  defaultVsixPath,
  freshRunDir,
  repoRoot,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitUntil,
  type Session,
} from './harness';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';

/**
 * Three problems x 2 epochs; scorer `rubric` (dict: accuracy 0/1, f1) first, `match` (C/I) second.
 * By hand: rubric.accuracy gives c = 1, 1, 2 of 2; match gives c = 2, 1, 0 of 2.
 */
function twoScorerLog(): Buffer {
  const acc = [
    [1, 0],
    [1, 0],
    [1, 1],
  ];
  const match = [
    ['C', 'C'],
    ['I', 'C'],
    ['I', 'I'],
  ];
  const samples = [0, 1, 2].flatMap((p) =>
    [0, 1].map((e) => ({
      id: p + 1,
      epoch: e + 1,
      input: [{ role: 'user', content: `question ${p + 1}` }],
      target: 'ok',
      output: {
        choices: [{ message: { role: 'assistant', content: `answer ${p + 1}.${e + 1}` }, stop_reason: 'stop' }],
      },
      scores: {
        rubric: { value: { accuracy: acc[p][e], f1: 0.5 } },
        match: { value: match[p][e] },
      },
    })),
  );
  return archive([
    {
      name: 'header.json',
      data: JSON.stringify({ version: 2, eval: { task: 'arith', model: 'openai/gpt-x', dataset: { name: 'arith' } } }),
    },
    ...samples.map((s) => ({
      name: `samples/${s.id}_epoch_${s.epoch}.json`,
      data: JSON.stringify(s),
      method: 'zstd' as const,
    })),
  ]);
}

const mapping = (correct: string) =>
  `{\n  "files": ["crosswords.json"],\n  "records": "per-problem",\n  "fields": {\n    "problemId": "idx",\n    "text": "ys",\n    "correct": "${correct}"\n  },\n  "correctThreshold": 1,\n  "model": "tot",\n  "dataset": "crosswords"\n}\n`;

describe('formats people have, in a real VS Code', { timeout: 600_000 }, () => {
  let s: Session;
  let workspace: string;

  before(async () => {
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    workspace = path.join(freshRunDir('formats-workspace'), 'results');
    fs.mkdirSync(path.join(workspace, 'logs'), { recursive: true });
    fs.mkdirSync(path.join(workspace, 'tot'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'logs', 'two-scorers.eval'), twoScorerLog());
    fs.copyFileSync(
      path.join(repoRoot, 'test', 'fixtures', 'readers', 'mapping', 'tot-crosswords', 'crosswords.json'),
      path.join(workspace, 'tot', 'crosswords.json'),
    );
    fs.writeFileSync(path.join(workspace, 'tot', 'trace-inspector.mapping.json'), mapping('infos.r'));
    s = await startSession({
      name: 'formats',
      vsix,
      folder: workspace,
      settings: { 'traceInspector.scorer': 'rubric.accuracy', 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await s?.close();
  });

  /** Problem rows (level 1) once `want` holds for them. */
  const problemRows = (want: (rows: { label: string; description: string }[]) => boolean, what: string) =>
    waitUntil(
      s.page,
      async () => {
        const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1);
        return want(r) ? r : undefined;
      },
      { timeoutMs: 120_000, what },
    );

  test('the Inspect log is graded by the scorer of the setting: rubric.accuracy gives 1/2, 1/2, 2/2', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      const rows = await problemRows(
        (r) => ['1', '2', '3'].every((id) => r.some((x) => x.label === id && /\d\/2/.test(x.description))),
        'problems 1, 2, 3 of the Inspect log with their counts',
      );
      const desc = (id: string) => rows.find((x) => x.label === id)!.description;
      assert.match(desc('1'), /(^|\D)1\/2/);
      assert.match(desc('2'), /(^|\D)1\/2/);
      assert.match(desc('3'), /(^|\D)2\/2/);
      await screenshot(s.page, 'formats-1-scorer-accuracy');
    } catch (e) {
      await s.fail(e, 'formats-1');
    }
  });

  test('a mapping path that matches nothing is one warning on the mapping file in the Problems panel', async () => {
    try {
      await runCommand(s.page, 'View: Focus Problems (Errors, Warnings, Infos)');
      const text = await waitUntil(
        s.page,
        async () => {
          const t = await s.page
            .locator('.markers-panel')
            .innerText()
            .catch(() => '');
          return t.includes('matched nothing') ? t : undefined;
        },
        { timeoutMs: 60_000, what: 'the "matched nothing" warning in the Problems panel' },
      );
      assert.match(text, /trace-inspector\.mapping\.json/);
      assert.match(text, /fields\.correct 'infos\.r' matched nothing in 4 records of tot\/crosswords\.json/);
      assert.match(text, /\$\.infos\[\*\]\.r/);
      assert.equal(text.split('matched nothing').length - 1, 1, 'one diagnostic, not one per record');
      // the tree says the ToT samples are ungraded, not "0/4" (which would read as four failures)
      await showTreeView(s.page, CONTAINER, VIEW);
      await problemRows(
        (r) => r.some((x) => x.label === '10' && /model 4 ungraded/.test(x.description)),
        'crosswords problem 10 reading "4 ungraded"',
      );
      await screenshot(s.page, 'formats-2-mapping-warning');
    } catch (e) {
      await s.fail(e, 'formats-2');
    }
  });

  test('fixing the mapping file removes the warning and grades the ToT samples (2, 0, 3, 0 correct)', async () => {
    try {
      fs.writeFileSync(path.join(workspace, 'tot', 'trace-inspector.mapping.json'), mapping('$.infos[*].r'));
      await waitUntil(
        s.page,
        async () => {
          const t = await s.page
            .locator('.markers-panel')
            .innerText()
            .catch(() => 'matched nothing');
          return t.includes('matched nothing') ? undefined : true;
        },
        { timeoutMs: 60_000, what: 'the warning to leave the Problems panel' },
      );
      await showTreeView(s.page, CONTAINER, VIEW);
      const rows = await problemRows(
        (r) => r.some((x) => x.label === '10' && /(^|\D)3\/4/.test(x.description)),
        'crosswords problem 10 with 3/4 correct',
      );
      assert.match(rows.find((x) => x.label === '0')!.description, /(^|\D)2\/4/);
      await screenshot(s.page, 'formats-3-mapping-fixed');
    } catch (e) {
      await s.fail(e, 'formats-3');
    }
  });

  test('changing traceInspector.scorer re-reads the log: the default (match) gives 2/2, 1/2, 0/2', async () => {
    try {
      // through the Settings editor, as a user does: clear the scorer field
      await runCommand(s.page, 'Preferences: Open User Settings');
      await s.page.keyboard.type('traceInspector.scorer');
      const field = s.page.locator('.settings-editor .setting-item-contents input').first();
      await waitUntil(
        s.page,
        async () => ((await field.inputValue().catch(() => '')) === 'rubric.accuracy' ? true : undefined),
        {
          what: 'the scorer setting showing rubric.accuracy',
        },
      );
      await screenshot(s.page, 'formats-4a-setting');
      await field.fill('');
      await field.press('Enter');
      await screenshot(s.page, 'formats-4b-setting-cleared');
      // the settings editor writes the change after a short delay: close it only once it is on disk
      const settingsFile = path.join(s.server.userDataDir, 'User', 'settings.json');
      await waitUntil(
        s.page,
        async () => (fs.readFileSync(settingsFile, 'utf8').includes('rubric.accuracy') ? undefined : true),
        { what: 'the cleared scorer setting written to the user settings' },
      );
      await s.page.keyboard.press('Escape');
      await s.page
        .locator('.settings-editor')
        .waitFor({ state: 'hidden', timeout: 5000 })
        .catch(() => runCommand(s.page, 'View: Close Editor'));
      await showTreeView(s.page, CONTAINER, VIEW);
      const rows = await problemRows(
        (r) =>
          r.some((x) => x.label === '1' && /(^|\D)2\/2/.test(x.description)) &&
          r.some((x) => x.label === '3' && /(^|\D)0\/2/.test(x.description)),
        'problems 1 and 3 graded by match (2/2 and 0/2)',
      );
      assert.match(rows.find((x) => x.label === '2')!.description, /(^|\D)1\/2/);
      await screenshot(s.page, 'formats-4-scorer-default');
    } catch (e) {
      await s.fail(e, 'formats-4');
    }
  });
});
