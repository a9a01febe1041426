/**
 * The Problems tree grouped by split (src/extension/splitGrouping.ts) on real folders in a real SQLite index:
 * the difficulty levels of qwen25-math-eval-example with each level's pass@1 computed from the raw records,
 * rlvr-probe-gsm8k (no levels: every problem in the "no level" row) and its content clusters (every problem in
 * exactly one cluster row, the rows those of `report --splits cluster`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { defineSplits } from '../../src/core/analyses/splitDefinitions';
import { splitPassAt1, splitRowDescription, splitRows } from '../../src/extension/splitGrouping';
import { REAL, tempDir } from './helpers';

const QWEN = join(REAL, 'qwen25-math-eval-example');
const RLVR = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');

async function indexed(dir: string): Promise<TraceIndex> {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  return index;
}

describe('the tree grouped by difficulty level: qwen25-math-eval-example', async () => {
  const index = await indexed(QWEN);
  const raw = readFileSync(join(QWEN, 'math_cot_100.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { idx: number; level: string; score: boolean[] });
  const { rows, method } = splitRows(index, 'level');

  test('a row per level of the file, in order, holding that level\'s problems; no "no level" row', () => {
    assert.deepEqual(
      rows.map((r) => r.label),
      ['level 1', 'level 2', 'level 3', 'level 4', 'level 5'],
    );
    assert.ok(rows.every((r) => !r.unassigned));
    for (const r of rows) {
      const want = raw.filter((x) => x.level === `Level ${r.key}`).length;
      assert.equal(r.problemIds.length, want, r.label);
    }
    assert.match(method, /difficulty levels/);
  });

  test("each level's pass@1 is the mean over its problems of the raw records' scores", () => {
    const model = index.models()[0];
    const pass = splitPassAt1(rows, index.modelStats(model.id));
    for (const [i, r] of rows.entries()) {
      const at = raw.filter((x) => x.level === `Level ${r.key}`);
      const want = at.reduce((a, x) => a + x.score.filter(Boolean).length / x.score.length, 0) / at.length;
      assert.ok(Math.abs((pass[i].value as number) - want) < 1e-12, `${r.label}: ${pass[i].value} vs ${want}`);
      assert.equal(pass[i].problems, at.length);
    }
    const d = splitRowDescription(rows[4], { name: 'm', pass: pass[4] }, undefined);
    assert.match(d, /^model 0\.\d\d · 25 problems$/);
  });
});

describe('the tree grouped by split: rlvr-probe-gsm8k', async () => {
  const index = await indexed(RLVR);

  test('no levels: one "no level" row with every problem', () => {
    const { rows } = splitRows(index, 'level');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].unassigned, true);
    assert.equal(rows[0].label, 'no level');
    assert.equal(rows[0].problemIds.length, 30);
  });

  test("content clusters: the rows are report --splits cluster's, every problem in one", () => {
    const { rows } = splitRows(index, 'cluster');
    const def = defineSplits(index, { kind: 'cluster' });
    assert.deepEqual(
      rows.filter((r) => !r.unassigned).map((r) => [r.label, r.problemIds]),
      def.splits.map((s) => [s.label, s.problems]),
    );
    const all = rows.flatMap((r) => r.problemIds);
    assert.equal(all.length, 30);
    assert.equal(new Set(all).size, 30);
  });

  test('a model with ungraded problems: pass@1 over the graded ones, the denominator said', () => {
    const rows = [{ key: 'a', label: 'a', problemIds: [1, 2, 3], unassigned: false }];
    const pass = splitPassAt1(rows, [
      { problemId: 1, n: 4, c: 2, graded: 4 },
      { problemId: 2, n: 4, c: 0, graded: 0 },
      { problemId: 3, n: 4, c: 4, graded: 4 },
    ]);
    assert.deepEqual(pass, [{ value: 0.75, problems: 2, sampled: 3 }]);
    // the figures first (a narrow side bar cuts the count, not them); a model with no sample of the split says so,
    // one with ungraded samples only says that (a fresh user saw "not graded" for a model without samples)
    const none = splitPassAt1(rows, []);
    assert.deepEqual(none, [{ value: null, problems: 0, sampled: 0 }]);
    const ungraded = splitPassAt1(rows, [{ problemId: 2, n: 4, c: 0, graded: 0 }]);
    assert.equal(
      splitRowDescription(rows[0], { name: 'rl', pass: pass[0] }, { name: 'sft', pass: none[0] }),
      'base no samples · model 0.75 (over 2) · 3 problems',
    );
    assert.equal(
      splitRowDescription(rows[0], { name: 'rl', pass: ungraded[0] }, { name: 'sft', pass: pass[0] }, 1),
      'base 0.75 (over 2) · model not graded · 1 of 3 problems',
    );
  });
});

describe('subjects of Qwen2.5-Math and Inspect records: the subject splits read them', async () => {
  const dir = tempDir('ti-subjects-');
  const put = (model: string, lines: object[]) => {
    const d = join(dir, model, 'math_eval', 'math');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'test_x.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  };
  const line = (idx: number, extra: object) => ({
    idx,
    question: `q${idx}`,
    gt: '1',
    code: ['a', 'b'],
    score: [true, idx % 2 === 0],
    pred: ['1', '2'],
    ...extra,
  });
  // MATH-500 writes `subject`, the MATH dataset `type`; one problem has neither
  put('base', [
    line(0, { subject: 'Algebra' }),
    line(1, { type: 'Geometry' }),
    line(2, { subject: 'Algebra' }),
    line(3, {}),
  ]);
  const index = await indexed(dir);

  test('a split per subject, `type` read where `subject` is absent; the problem with neither in "no subject"', () => {
    const { rows } = splitRows(index, 'subject');
    assert.deepEqual(
      rows.map((r) => [r.label, r.problemIds.length]),
      [
        ['subject Algebra', 2],
        ['subject Geometry', 1],
        ['no subject', 1],
      ],
    );
  });
});
