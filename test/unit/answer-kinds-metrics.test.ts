/**
 * maj@k, `report --regrade` and the grader audit on small results folders written here, for the kinds
 * of issue 32: matrices in other environments, solution sets written as equations, an inequality
 * against its interval, a long decimal of a fraction, a numeral in base 2 (`10` is not `1010_2`) and a
 * list of accepted references (Inspect `target: [...]`, a JSON array as Qwen's `gt`). Every expected
 * value is counted by hand in the comments (groups of equal answers, k-subsets).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeReferenceList, referenceAlternatives } from '../../src/core/answers';
import { graderAudit, regrade } from '../../src/core/analyses/graderAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { writeFolder } from './helpers';

/** One Qwen2.5-Math eval file (a record per problem: `gt`, `pred`, `score`) under `Qwen-base/math_eval/math500`. */
function qwenFolder(records: { gt: unknown; pred: string[]; score: boolean[] }[]): string {
  const lines = records.map((r, idx) =>
    JSON.stringify({
      idx,
      question: `q${idx}`,
      gt: r.gt,
      code: r.pred.map((p) => `so \\boxed{${p}}`),
      score: r.score,
      pred: r.pred,
    }),
  );
  return writeFolder({ 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl': `${lines.join('\n')}\n` });
}

async function indexed(folder: string): Promise<TraceIndex> {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, folder);
  return index;
}

/** The report's maj@k of the first model at k. */
function majAt(index: TraceIndex, k: number): number | null {
  const point = buildReport(index, { majAtK: true }).models[0].majAtK?.find((p) => p.k === k);
  assert.ok(point, `maj@${k} is reported`);
  return point.value;
}

const close = (a: number | null, b: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${what}: ${a} vs ${b}`);

describe('matrices in pmatrix, bmatrix and array are one answer', async () => {
  // reference (-2, -14, -7) as a column; R = 4 spellings of it (two graded incorrect by the folder), W = 3
  // copies of a wrong vector. By raw spelling the 3 W won every full vote (maj@7 = 0).
  const R = [
    '\\begin{pmatrix}-2\\\\-14\\\\-7\\end{pmatrix}',
    '\\begin{bmatrix}-2\\\\-14\\\\-7\\end{bmatrix}',
    '\\left[\\begin{array}{c}-2\\\\-14\\\\-7\\end{array}\\right]',
    '\\begin{pmatrix} -2 \\\\ -14 \\\\ -7 \\end{pmatrix}',
  ];
  const W = '\\begin{pmatrix} 2 \\\\ 14 \\\\ 7 \\end{pmatrix}';
  const index = await indexed(
    qwenFolder([
      {
        gt: '\\begin{pmatrix} -2 \\\\ -14 \\\\ -7 \\end{pmatrix}',
        pred: [...R, W, W, W],
        score: [true, false, false, true, false, false, false],
      },
    ]),
  );
  test('maj@1 = 4/7, maj@4 = 22/35, maj@7 = 1 (was 0)', () => {
    close(majAt(index, 1), 4 / 7, 'maj@1');
    // k = 4 of 7 (35 subsets): 4R 1 -> 1; 3R+1W 12 -> 1; 2R+2W 18 -> tie, 1/2; 1R+3W 4 -> 0: (1 + 12 + 9) / 35
    close(majAt(index, 4), 22 / 35, 'maj@4');
    close(majAt(index, 7), 1, 'maj@7');
  });
  test('regrade: the bmatrix and array spellings graded incorrect are equivalent to the reference', () => {
    const r = regrade(index).models[0];
    assert.deepEqual([r.compared, r.agree, r.folderIncorrectToolCorrect, r.folderCorrectToolIncorrect], [7, 5, 2, 0]);
  });
  test('grader audit: one group of four spellings graded 2 correct and 2 incorrect, equal to the reference', () => {
    const a = graderAudit(index);
    assert.equal(a.inconsistent.length, 1);
    const g = a.inconsistent[0];
    assert.deepEqual([g.correct, g.incorrect, g.spellings.length, g.referenceSays], [2, 2, 4, true]);
    assert.equal(a.groupsChecked, 2);
  });
});

describe('solution sets, inequalities, decimals of fractions and base-2 numerals', async () => {
  const index = await indexed(
    qwenFolder([
      // p0: S = {-1, 2} three times (written as equations twice), T = `x = 2` twice: maj@1 3/5, maj@5 1 (was 0: `2` won)
      {
        gt: '-1, 2',
        pred: ['x=-1, x=2', 'x = -1 \\text{ or } x = 2', 'x = 2', 'x=2', '\\{2, -1\\}'],
        score: [true, true, false, false, true],
      },
      // p1: I = (0,1) three times (twice as inequalities), C = [0,1] twice: maj@1 3/5, maj@5 1
      {
        gt: '(0,1)',
        pred: ['0<f(x)<1', '0 < x < 1', '(0,1)', '[0,1]', '[0, 1]'],
        score: [true, true, true, false, false],
      },
      // p2: F = 1/12 three times (twice as a float the folder graded incorrect), 0.09 twice: maj@1 3/5, maj@5 1
      {
        gt: '\\frac{1}{12}',
        pred: ['0.0833333333333333', '0.0833333333333333', '\\frac{1}{12}', '0.09', '0.09'],
        score: [false, false, true, false, false],
      },
      // p3: `1010_2` twice, `10` (ten, not the numeral) three times: maj@1 2/5 (was 1: `10` counted right), maj@5 0
      { gt: '1010_2', pred: ['1010_2', '1010_{2}', '10', '10', '10'], score: [true, true, false, false, false] },
    ]),
  );
  test('maj@1 = (3/5 + 3/5 + 3/5 + 2/5) / 4 = 0.55, maj@5 = (1 + 1 + 1 + 0) / 4 = 0.75', () => {
    close(majAt(index, 1), 0.55, 'maj@1');
    close(majAt(index, 5), 0.75, 'maj@5');
  });
  test('maj@2 = (6/10 x 3 + 4/10) / 4 = 0.55', () => {
    // p0..p2, 10 pairs: both right 3 -> 1, one of each 6 -> tie, 1/2, both wrong 1 -> 0: 6/10
    // p3: both numerals 1 -> 1, one of each 6 -> 1/2, both `10` 3 -> 0: 4/10
    close(majAt(index, 2), (0.6 * 3 + 0.4) / 4, 'maj@2');
  });
  test('regrade: the two floats of 1/12 graded incorrect are the reference; nothing else differs', () => {
    const r = regrade(index);
    assert.equal(r.disagreements, 2);
    assert.deepEqual(
      r.models[0].examples.map((e) => [e.problemId, e.answer, e.folder, e.tool]),
      [
        ['2', '0.0833333333333333', false, true],
        ['2', '0.0833333333333333', false, true],
      ],
    );
  });
  test('grader audit: only the 1/12 group has both verdicts', () => {
    const a = graderAudit(index);
    assert.deepEqual(
      a.inconsistent.map((g) => [g.problemId, g.correct, g.incorrect, g.referenceSays]),
      [['2', 1, 2, true]],
    );
  });
});

describe('a reference that is a list of accepted answers', async () => {
  test('stored as a JSON array of strings; one element as itself; an interval is not a list', () => {
    assert.equal(encodeReferenceList(['12', 'twelve']), '["12","twelve"]');
    assert.equal(encodeReferenceList(['12']), '12');
    assert.equal(encodeReferenceList([]), null);
    assert.deepEqual(referenceAlternatives('["12","twelve"]'), ['12', 'twelve']);
    assert.deepEqual(referenceAlternatives('[1,2]'), ['[1,2]']);
    assert.deepEqual(referenceAlternatives('["x"]'), ['["x"]']);
  });

  test('Inspect target ["12", "a dozen"]: answers 12, a dozen, 13: maj@3 = 1 (was 0: "12 | a dozen" matched nothing)', async () => {
    const sample = (epoch: number, answer: string, value: string) => ({
      id: 1,
      epoch,
      input: [{ role: 'user', content: 'How many eggs in a dozen?' }],
      target: ['12', 'a dozen'],
      output: { choices: [{ message: { role: 'assistant', content: answer }, stop_reason: 'stop' }] },
      scores: { match: { value, answer } },
    });
    const log = {
      version: 2,
      status: 'success',
      eval: { task: 'eggs', model: 'openai/gpt-x', dataset: { name: 'eggs' } },
      samples: [sample(1, '12', 'C'), sample(2, 'a dozen', 'I'), sample(3, '13', 'I')],
    };
    const index = await indexed(writeFolder({ 'logs/eggs.json': JSON.stringify(log) }));
    assert.equal(index.listProblems({ kind: 'all' }, 0, 10)[0].referenceAnswer, '["12","a dozen"]');
    // the accepted answers vote as one group: {12, a dozen} (2) against 13 (1) at k = 3; at k = 1 two of three samples are right
    close(majAt(index, 3), 1, 'maj@3');
    close(majAt(index, 1), 2 / 3, 'maj@1');
    const r = regrade(index).models[0];
    // "a dozen" graded incorrect by the log's scorer is one of the accepted answers
    assert.deepEqual([r.compared, r.folderIncorrectToolCorrect, r.folderCorrectToolIncorrect], [3, 1, 0]);
  });

  test('Qwen gt as a JSON array: any element is the reference', async () => {
    // 12 twice and twelve (a number word: 12) once against 13 twice: 12 wins maj@5 whichever element it matches
    const index = await indexed(
      qwenFolder([
        { gt: ['12', 'twelve'], pred: ['12', 'twelve', '12', '13', '13'], score: [true, false, true, false, false] },
      ]),
    );
    close(majAt(index, 5), 1, 'maj@5');
    assert.equal(regrade(index).models[0].folderIncorrectToolCorrect, 1);
  });
});
