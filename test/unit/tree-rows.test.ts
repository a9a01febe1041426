/**
 * The Problems tree's rows and tooltips: a model row's figure and label, one-model folders, problems without a
 * record (and the tooltip naming the unreadable records: trial 14 finding 4, once tree-tooltips.test.ts), natural
 * order of problem ids, annotated samples, the label filter, the line above the tree (trial 13 finding 11, once in
 * label-picker.test.ts).
 *
 * Fresh-user trial 10, the tree's findings (4, 5, 6, 7, 8, 10b, 10c): real SQLite, the real folders
 * tot-game24, inspect-logs, humaneval-samples-flat and qwen25-math-eval-example (read, never written),
 * the real FolderSession and tree provider on a `vscode` stub, and the tree's pure row code.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { FolderSession } from '../../src/extension/session';
import type * as TreeModule from '../../src/extension/problemTree';
import type { Node, ProblemTreeProvider } from '../../src/extension/problemTree';
import { REAL, tempDir, writeFolder } from './helpers';
import { loadWithStub } from './vscodeStub';

const { fitLabels, modelRowDescription, noRecordText } = loadWithStub<typeof TreeModule>(
  '../../src/extension/problemTree',
);

const skip = !existsSync(REAL) ? 'real data folder ../shared/data/real not found' : false;

/** A session on a real folder, its index in a temp dir, the folder indexed. */
async function openSession(name: string, copy = false): Promise<FolderSession> {
  const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
    '../../src/extension/session',
  );
  // a copy when the test annotates (annotations are mirrored into the folder)
  let root = join(REAL, name);
  if (copy) {
    const to = join(tempDir('ti-t10-copy-'), name);
    cpSync(root, to, { recursive: true });
    root = to;
  }
  const state = new Map<string, unknown>();
  const storage = tempDir('ti-t10-tree-');
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: storage },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const folder = { uri: { fsPath: root, toString: () => `file://${root}` }, name };
  const s = new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
  await indexFolder(s.index, root);
  return s;
}

function tree(s: FolderSession): ProblemTreeProvider {
  const { ProblemTreeProvider: Tree } = loadWithStub<{
    ProblemTreeProvider: new (g: () => unknown) => ProblemTreeProvider;
  }>('../../src/extension/problemTree');
  return new Tree(() => s);
}

type Item = { label: string; description?: string; tooltip?: unknown; iconPath?: { id: string } };
const item = (t: ProblemTreeProvider, n: Node) => t.getTreeItem(n) as unknown as Item;
const children = (t: ProblemTreeProvider, n?: Node) => t.getChildren(n) as Node[];
const problemRow = (t: ProblemTreeProvider, id: string) =>
  children(t).find((n) => n.type === 'problem' && n.problem.problemId === id)!;

/** Characters of a model row under a problem shown whole at the default side-bar width (trial 10 shots: 31). */
const ROW_CHARS = 31;

// Trial 10 finding 4.
describe('a model row under a problem shows its figure right after its name', { skip }, () => {
  test('pure: the figure first, then the role, the step, the rest', () => {
    assert.equal(
      modelRowDescription('focus', undefined, { n: 100, c: 1, graded: 100 }, [1, 8, 64]),
      '1/100 · focus · pass@64 0.64',
    );
    assert.equal(modelRowDescription('base', 300, { n: 4, c: 0, graded: 0 }, [1, 8]), '4 ungraded · base · step 300');
    assert.equal(modelRowDescription('', undefined, { n: 1, c: 1, graded: 1 }, [1, 8]), '1/1');
  });

  test('pure: long labels cut to fit, still distinct; short ones whole', () => {
    const labels = [
      'mini · popularity_dPiJifoWeEQBrxkfa.eval',
      'mini · popularity_mj7khqpMM4xyzabc.eval',
      'gemma3 · read_sample.eval',
      'run-with-a-long-common-prefix-A',
      'run-with-a-long-common-prefix-B',
      'sft · 2048_batched',
    ];
    const fit = fitLabels(labels, 24);
    assert.deepEqual(fit, [
      'mini · popularity_dPiJi…',
      'mini · popularity_mj7kh…',
      'gemma3 · read_sample.ev…',
      'run-with-a-long-common-prefix-A',
      'run-with-a-long-common-prefix-B',
      'sft · 2048_batched',
    ]);
    assert.equal(new Set(fit).size, labels.length);
  });

  test('tot-game24 problem 900: 1/100 of the model in focus is whole at the default width (was `focus · 1/1…`)', async () => {
    const s = await openSession('tot-game24');
    const t = tree(s);
    const p = problemRow(t, '900');
    const rows = children(t, p).map((n) => item(t, n));
    const focus = rows.find((r) => r.description?.includes('focus'))!;
    const base = rows.find((r) => r.description?.includes('base'))!;
    assert.equal(focus.label, 'standard_sample_100');
    assert.match(focus.description!, /^1\/100 · focus/);
    assert.match(base.description!, /^21\/100 · base/);
    for (const r of rows) {
      const shown = `${r.label} ${r.description}`.slice(0, ROW_CHARS);
      const fig = r.description!.split(' · ')[0];
      assert.ok(shown.includes(fig), `${r.label}: ${fig} cut in "${shown}"`);
    }
    // the problem row: two figures, c/n each, nothing after them to cut into a figure
    assert.match(item(t, p).description!, /^base 21\/100 · model 1\/100 — /);
    s.index.close();
  });

  test('inspect-logs: the long log names are cut so their figure shows, and stay distinct', async () => {
    const s = await openSession('inspect-logs');
    const t = tree(s);
    const p = children(t).find(
      (n) => n.type === 'problem' && n.problem.dataset === 'popularity' && n.problem.problemId === '1',
    )!;
    const under = children(t, p);
    const more = under.find((n) => n.type === 'moreModels');
    const rows = [...under.filter((n) => n.type === 'model'), ...(more ? children(t, more) : [])].map((n) =>
      item(t, n),
    );
    assert.ok(rows.length >= 4, rows.map((r) => r.label).join(' | '));
    assert.equal(new Set(rows.map((r) => r.label)).size, rows.length);
    for (const r of rows) assert.ok([...r.label].length <= 25, `${r.label} too long to leave room for its figure`);
    s.index.close();
  });
});

/** The plain text of a tooltip built by the stub's MarkdownString. */
const tooltipText = (x: unknown) => (x as { segments: { value: string }[] }).segments.map((g) => g.value).join('');

// Trial 10 finding 5.
describe('a model row under a problem: its tooltip gives this problem first, the folder totals labelled', {
  skip,
}, () => {
  test('tot-game24 problem 917, standard_sample_100 (56/100): 56 of 100 first, the 10000 samples as the whole folder', async () => {
    const s = await openSession('tot-game24');
    const t = tree(s);
    const p = problemRow(t, '917');
    const node = children(t, p).find((n) => n.type === 'model' && n.model.displayId.includes('standard_sample_100'))!;
    const tip = tooltipText((await t.resolveTreeItem(t.getTreeItem(node), node))!.tooltip);
    const here = tip.indexOf('This problem');
    const folder = tip.indexOf('Whole folder');
    assert.ok(here >= 0 && folder > here, tip);
    assert.match(tip.slice(here, folder), /\(917\): 56 of 100 samples correct/);
    assert.match(tip.slice(folder), /\(all of this model's problems\): 100 problems, 10000 samples, 734 correct/);
    s.index.close();
  });
});

// Trial 10 finding 6.
describe('a folder with one model is not compared with itself', { skip }, () => {
  const { noComparisonReason } = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');
  test('pure: one model, no pair, the base in focus: a reason; two models: none', () => {
    const a = { id: 1, name: 'math_cot_100' };
    const b = { id: 2, name: 'rl' };
    assert.equal(noComparisonReason(1, a, a), 'one model in this folder (math_cot_100): nothing to compare it with');
    assert.match(noComparisonReason(2, a, a)!, /^the model in focus is the base model \(math_cot_100\)/);
    assert.match(noComparisonReason(2, a, undefined)!, /^no base model/);
    assert.equal(noComparisonReason(2, a, b), undefined);
  });

  test('qwen25-math-eval-example: its one model is the base and the focus, and its row says "only model"', async () => {
    const s = await openSession('qwen25-math-eval-example');
    const t = tree(s);
    const base = s.baseModel()!;
    const focus = s.focusModel()!;
    assert.equal(s.models().length, 1);
    assert.equal(base.id, focus.id, 'the only model is both');
    assert.match(
      noComparisonReason(
        s.models().length,
        { id: base.id, name: s.shortLabel(base) },
        { id: focus.id, name: s.shortLabel(focus) },
      )!,
      /^one model in this folder/,
    );
    const p = children(t).find((n) => n.type === 'problem')!;
    const row = item(t, children(t, p).find((n) => n.type === 'model')!);
    assert.match(row.description!, /^\d+\/8 · only model/);
    assert.doesNotMatch(row.description!, /base/);
    s.index.close();
  });
});

// Trial 10 finding 7.
describe('a problem the model in focus has no record of is not marked "?" (ungraded)', { skip }, () => {
  test('inspect-logs popularity 4..10: a dash and "No samples from <model>"; a problem with samples keeps its verdict icon', async () => {
    const s = await openSession('inspect-logs');
    const t = tree(s);
    const focus = s.focusModel()!;
    const rows = children(t).filter((n) => n.type === 'problem');
    const without = rows.filter(
      (n) => n.type === 'problem' && !s.index.problemStats(n.problem.id).some((x) => x.modelId === focus.id),
    );
    assert.ok(without.length >= 7, `${without.length} problems without a record of ${focus.displayId}`);
    for (const n of without) {
      assert.equal(item(t, n).iconPath!.id, 'dash');
      const tip = tooltipText((await t.resolveTreeItem(t.getTreeItem(n), n)).tooltip);
      assert.ok(tip.includes(`No samples from ${s.shortLabel(focus)}`), tip);
    }
    const withRecord = rows.filter((n) => !without.includes(n));
    assert.ok(withRecord.length > 0);
    for (const n of withRecord) assert.notEqual(item(t, n).iconPath!.id, 'dash');
    s.index.close();
  });
});

// Trial 10 finding 8.
describe('problem ids in natural order (numbers by value), in the tree and Next / Previous Problem', {
  skip,
}, () => {
  test('humaneval-samples-flat: HumanEval/0, /1, /2, ... /9, /10, ... /163 (was /0, /1, /10, /100 ...)', async () => {
    const s = await openSession('humaneval-samples-flat');
    const t = tree(s);
    const ids = children(t)
      .filter((n) => n.type === 'problem')
      .map((n) => (n.type === 'problem' ? n.problem.problemId : ''));
    const want = Array.from({ length: ids.length }, (_, i) => `HumanEval/${i}`);
    assert.equal(ids.length > 100 ? true : ids.length, true, `${ids.length} problems on the first page`);
    assert.deepEqual(ids, want);
    // Next / Previous Problem step through the tree's order
    const order = t.order(s).problems(s.focusModel()!.id);
    const names = order.map((id) => s.index.problem(id)!.problemId);
    assert.deepEqual(
      names,
      Array.from({ length: 164 }, (_, i) => `HumanEval/${i}`),
    );
    s.index.close();
  });
});

// Trial 10 finding 8.
describe('the SQL natural order on edge cases', () => {
  test('integers first by value; then text before a trailing number, the number by value; huge numbers; leading zeros', async () => {
    const { TraceIndex, problemOrder } = await import('../../src/core/index/traceIndex');
    const index = TraceIndex.open(':memory:');
    index.db.exec('CREATE TEMP TABLE q (dataset TEXT, problem_id TEXT)');
    const ids = [
      'b',
      'a/10',
      '10',
      'a/9',
      '2',
      'a/99999999999999999999',
      'a/100000000000000000000',
      'a/07',
      'a/7',
      'a',
      'c/1/x',
    ];
    const ins = index.db.prepare('INSERT INTO q VALUES (?, ?)');
    for (const id of ids) ins.run('d', id);
    const got = index.db
      .prepare(`SELECT problem_id FROM q ORDER BY ${problemOrder('q')}`)
      .pluck()
      .all();
    assert.deepEqual(got, [
      '2',
      '10',
      'a',
      'a/07',
      'a/7',
      'a/9',
      'a/10',
      'a/99999999999999999999',
      'a/100000000000000000000',
      'b',
      'c/1/x',
    ]);
    index.close();
  });
});

// Trial 10 finding 10b.
describe('an annotated sample keeps its verdict icon; its labels come first in the row and in the tooltip', {
  skip,
}, () => {
  test('qwen25-math-eval-example (a copy): a labelled incorrect sample shows ✗ and "labels: arith slip" first', async () => {
    const s = await openSession('qwen25-math-eval-example', true);
    const t = tree(s);
    const m = s.focusModel()!;
    const wrong = s.index.samples(s.index.listProblems({ kind: 'failing', model: m.id }, 0, 1)[0].id, m.id, {
      correct: false,
      limit: 1,
    });
    assert.equal(wrong.length, 1);
    s.annotations.set(s.annotations.refOf(wrong[0].id)!, ['arith slip'], '');
    const row = s.index.samples(wrong[0].problemId, m.id, { correct: false, limit: 1 })[0];
    const node = t.sampleNode(s, row);
    const it = item(t, node);
    assert.equal(it.iconPath!.id, 'error', 'the verdict icon, not a tag');
    assert.match(it.description!, /^labels: arith slip · /);
    const tip = tooltipText((await t.resolveTreeItem(t.getTreeItem(node), node)).tooltip);
    assert.match(tip, /Labels:.*arith slip/s);
    s.index.close();
  });
});

// Trial 10 finding 10c.
describe('the label filter picker counts the samples of each label', { skip }, () => {
  test('qwen25-math-eval-example (a copy): 2 samples labelled arith slip, 1 lucky guess; a removed one is not counted', async () => {
    const s = await openSession('qwen25-math-eval-example', true);
    const m = s.focusModel()!;
    const p = s.index.listProblems({ kind: 'all' }, 0, 1)[0];
    const samples = s.index.samples(p.id, m.id, { limit: 4 });
    assert.equal(samples.length, 4);
    const ref = (i: number) => s.annotations.refOf(samples[i].id)!;
    s.annotations.set(ref(0), ['arith slip', 'lucky guess'], '');
    s.annotations.set(ref(1), ['arith slip'], '');
    s.annotations.set(ref(2), ['arith slip'], 'gone');
    s.annotations.remove(ref(2));
    assert.deepEqual(s.annotations.labelCounts(), [
      ['lucky guess', 1],
      ['arith slip', 2],
    ]);
    s.index.close();
  });
});

const line = (model: string, qid: number) =>
  JSON.stringify({
    qid: String(qid),
    question: `q${qid}`,
    gold: '12',
    model_name: model,
    rollouts: [{ rollout: 0, text: `answer ${qid}`, correct: true }],
  });

// Trial 14 finding 4.
describe('the tooltip of a problem the model in focus has no record of', () => {
  test('names the records of its files that could not be read, since the problem may be one of them', async () => {
    const rl = [0, 1, 2].map((q) => line('rl-model', q));
    rl.push('{"qid": "3" "question": "q3"}'); // line 4: not JSON
    const dir = writeFolder({
      'base-model/rollouts.jsonl': `${[0, 1, 2, 3].map((q) => line('base-model', q)).join('\n')}\n`,
      'rl-model/rollouts.jsonl': `${rl.join('\n')}\n`,
    });
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const model = index.models().find((m) => m.name === 'rl-model');
    assert.ok(model);
    const unreadable = index.unreadableRecords(model.id);
    assert.equal(
      noRecordText('rl-model', unreadable),
      "No samples from rl-model (other models have some); 1 record of its files could not be read (rl-model/rollouts.jsonl:4): this problem's may be among them (see Problems)",
    );
    const base = index.models().find((m) => m.name === 'base-model');
    assert.ok(base);
    // a model whose files were read whole: the line as before
    assert.equal(
      noRecordText('base-model', index.unreadableRecords(base.id)),
      'No samples from base-model (other models have some)',
    );
    index.close();
  });

  test('more than 3 unreadable records: the first 3 named and how many more', () => {
    const d = (line: number) => ({ file: 'a.jsonl', line });
    assert.equal(
      noRecordText('m', [d(2), d(5), d(9), d(11), d(12)]),
      "No samples from m (other models have some); 5 records of its files could not be read (a.jsonl:2, a.jsonl:5, a.jsonl:9, and 2 more): this problem's may be among them (see Problems)",
    );
  });
});

// Trial 13 finding 11 (cosmetic).
describe('the line above the tree', () => {
  const { countParts, filterCountLine } = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');

  test('"Lucky guesses? 2 problems", no doubled punctuation; other filters keep their colon', () => {
    assert.equal(filterCountLine({ kind: 'luckyGuess' }, 2), 'Lucky guesses? 2 problems');
    assert.equal(filterCountLine({ kind: 'failing' }, 1), 'Failing: 1 problem');
  });

  test('a row with n = 10 shows pass@8 (the largest tree k that 10 reaches), and its value is pass@8 at n = 10', () => {
    // 9 of 10 correct: pass@8 = 1 - C(1,8)/C(10,8) = 1; 2 of 10: 1 - C(8,8)/C(10,8) = 1 - 1/45
    assert.deepEqual(countParts({ n: 10, c: 9, graded: 10 }, [1, 2, 4, 8, 16]), ['9/10', 'pass@8 1.00']);
    assert.deepEqual(countParts({ n: 10, c: 2, graded: 10 }, [1, 2, 4, 8, 16]), [
      '2/10',
      `pass@8 ${(1 - 1 / 45).toFixed(2)}`,
    ]);
  });
});
