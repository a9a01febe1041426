/**
 * The problem view says how maj@k is judged beside pass@k.
 *
 * Trial 13 (a new user's daily loop in VS Code; /work/trial13-scratch/REPORT.md), findings fixed on the host side.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { majorityJob, majorityNote, runMajorityJob } from '../../src/extension/panelData';
import { REAL, tempDir } from './helpers';

// Trial 13 finding 1.
describe('the problem view says how maj@k is judged beside pass@k', () => {
  test('qwen25-math-eval-example problem 72: maj@1 0.125 with 0/8 correct by the folder, and the note says why', async () => {
    const index = TraceIndex.open(join(tempDir(), 'i.db'));
    await indexFolder(index, join(REAL, 'qwen25-math-eval-example'));
    const p = index.listProblems({ kind: 'all' }, 0, 5000).find((x) => x.problemId === '72')!;
    const [stat] = index.problemStats(p.id);
    assert.deepEqual([stat.c, stat.n], [0, 8]);
    const [curve] = runMajorityJob(majorityJob(index, p.id));
    assert.equal(curve.majAtK[0].k, 1);
    assert.ok(Math.abs((curve.majAtK[0].value ?? 0) - 0.125) < 1e-12, `maj@1 ${curve.majAtK[0].value}`);
    const note = majorityNote(index, p.id, () => 'Qwen2.5-Math-7B');
    assert.match(note, /^maj@k judges the winning answer against the reference answer \(answer equivalence/);
    assert.match(
      note,
      /pass@k and best-of-k use the folder’s verdicts\. On this problem the two disagree \(grader audit\): /,
    );
    assert.match(note, /Qwen2\.5-Math-7B: 1 sample graded incorrect with an answer equivalent to the reference\.$/);
    // a problem where verdicts and reference agree says so
    const agreeing = index
      .listProblems({ kind: 'all' }, 0, 5000)
      .map((x) => majorityNote(index, x.id, () => 'm'))
      .find((n) => n.endsWith('agrees with the reference.'));
    assert.ok(agreeing, 'some problem has no disagreement');
    index.close();
  });

  test('a problem without a reference answer: maj@k judged by the verdicts, said so', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'samples.jsonl'),
      `${[
        { task_id: 'HumanEval/0', completion: 'return 1', passed: true },
        { task_id: 'HumanEval/0', completion: 'return 2', passed: false },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
    const index = TraceIndex.open(join(dir, 'i.db'));
    await indexFolder(index, dir);
    const [p] = index.listProblems({ kind: 'all' });
    assert.equal(
      majorityNote(index, p.id, () => 'm'),
      'maj@k: the winning answer is judged by the majority verdict of its graded samples (no reference answer), as pass@k uses the folder’s verdicts.',
    );
    index.close();
  });
});
