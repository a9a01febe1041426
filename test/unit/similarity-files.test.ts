/**
 * The similarity worker reads a problem's texts itself (SimilarityFilesJob, issue 14): the extension host
 * only looks up where the texts are. Same texts and same result as reading them on the host; a file changed
 * since indexing fails the job with a SourceChangedError naming the file and line, in the worker thread as
 * in-process; jobs still run one at a time in arrival order although a files job waits on file reads.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { SourceChangedError, readSampleTexts } from '../../src/core/index/sampleText';
import {
  clearBaseWorkCache,
  readSimilarityFilesJob,
  runSimilarityJob,
  similarityFilesJob,
  type SimilarityJob,
} from '../../src/extension/panelData';
import { SimilarityRunner } from '../../src/extension/similarityRunner';
import { warmUpJob } from '../../src/extension/similarityWarmup';
import { REAL, tempDir } from './helpers';

const workerPath = path.resolve(__dirname, '../../src/extension/similarityWorker.js');

/** A rollouts file: 3 problems x 3 samples of a base model and of an RL model (one line per problem and model). */
function folder(): { dir: string; file: string; text: string } {
  const dir = tempDir();
  const file = path.join(dir, 'run.jsonl');
  const lines: string[] = [];
  for (const model of ['Qwen2.5-7B', 'Qwen2.5-7B-GRPO'])
    for (const q of [0, 1, 2])
      lines.push(
        JSON.stringify({
          qid: q,
          question: `q${q}`,
          gold: '4',
          model_name: model,
          model_revision: 'main',
          rollouts: [0, 1, 2].map((i) => ({
            rollout: i,
            text: `${model} problem ${q} sample ${i}: $2 + 2 = 4$, so the answer is 4. 面积`,
            correct: i !== 2,
          })),
        }),
      );
  const text = `${lines.join('\n')}\n`;
  writeFileSync(file, text);
  return { dir, file, text };
}

async function indexed(dir: string): Promise<{ index: TraceIndex; base: number; rl: number; problem: number }> {
  const index = TraceIndex.open(path.join(dir, 'index.db'));
  await indexFolder(index, dir);
  const models = index.models();
  const base = models.find((m) => !m.label.includes('GRPO'))!.id;
  const rl = models.find((m) => m.label.includes('GRPO'))!.id;
  const problem = index.listProblems({ kind: 'all' }).find((p) => p.problemId === '1')!.id;
  return { index, base, rl, problem };
}

describe('similarity jobs whose texts the worker reads from the results files', () => {
  test('the texts read from the job equal the texts read on the host (real rlvr-probe-gsm8k, every problem of two models)', async () => {
    const dir = tempDir();
    const index = TraceIndex.open(path.join(dir, 'index.db'));
    await indexFolder(index, path.join(REAL, 'rlvr-probe-gsm8k'));
    const [a, b] = index.models();
    const problems = index.listProblems({ kind: 'all' }, 0, 1000);
    assert.ok(problems.length > 0);
    let samples = 0;
    for (const p of problems) {
      const job = await readSimilarityFilesJob(similarityFilesJob(index, p.id, a.id, b.id));
      const base = await readSampleTexts(index, p.id, a.id);
      const model = await readSampleTexts(index, p.id, b.id);
      assert.deepEqual(
        job.base.map((s) => [s.id, s.sampleIndex, s.correct, s.text]),
        base.map((s) => [s.id, s.sampleIndex, s.correct, s.text]),
      );
      assert.deepEqual(
        job.model.map((s) => [s.id, s.sampleIndex, s.correct, s.text]),
        model.map((s) => [s.id, s.sampleIndex, s.correct, s.text]),
      );
      samples += job.base.length + job.model.length;
    }
    // every sample of the two models was read
    assert.equal(
      samples,
      index.db.prepare('SELECT COUNT(*) FROM samples WHERE model_id IN (?, ?)').pluck().get(a.id, b.id),
    );
    index.close();
  });

  test('through the worker thread and in-process: the same result as the job built from texts read on the host', async () => {
    const f = folder();
    const { index, base, rl, problem } = await indexed(f.dir);
    const files = similarityFilesJob(index, problem, base, rl);
    const texts: SimilarityJob = {
      kind: 'problem',
      base: (await readSampleTexts(index, problem, base)).map(({ id, sampleIndex, correct, text }) => ({
        id,
        sampleIndex,
        correct,
        text,
      })),
      model: await readSampleTexts(index, problem, rl),
    };
    assert.equal(texts.model.length, 3);
    clearBaseWorkCache();
    const plain = runSimilarityJob(texts, true);
    const runner = new SimilarityRunner(workerPath);
    try {
      let list = 0;
      assert.deepEqual(
        await runner.run(files, () => {
          list++;
        }),
        plain,
      );
      assert.equal(runner.usedWorker, true);
      assert.equal(list, 1);
    } finally {
      await runner.dispose();
    }
    clearBaseWorkCache();
    assert.deepEqual(await new SimilarityRunner(path.join(__dirname, 'missing-worker.js')).run(files), plain);
    index.close();
  });

  const edits: [string, (f: { file: string; text: string }) => void][] = [
    [
      'a text edited in place',
      ({ file }) =>
        writeFileSync(file, readFileSync(file, 'utf8').replace('GRPO problem 1 sample 1', 'GRPO problem 1 sample 7')),
    ],
    ['the file truncated', ({ file }) => truncateSync(file, 10)],
    ['the file removed', ({ file }) => rmSync(file)],
  ];
  for (const [what, edit] of edits) {
    test(`${what} after indexing: the job fails with a SourceChangedError naming the file and line (worker and in-process)`, async () => {
      const f = folder();
      const { index, base, rl, problem } = await indexed(f.dir);
      const job = similarityFilesJob(index, problem, base, rl);
      edit(f);
      const changed = (e: unknown) => {
        assert.ok(e instanceof SourceChangedError, String(e));
        assert.equal(e.file, 'run.jsonl');
        // problem "1" of the base model (read first) is the file's line 2 (in place: the RL model's, line 5)
        assert.equal(e.line, what === 'a text edited in place' ? 5 : 2);
        return true;
      };
      const runner = new SimilarityRunner(workerPath);
      try {
        await assert.rejects(runner.run(job), changed);
        assert.equal(runner.usedWorker, true);
      } finally {
        await runner.dispose();
      }
      await assert.rejects(new SimilarityRunner(path.join(__dirname, 'missing-worker.js')).run(job), changed);
      index.close();
    });
  }

  test('jobs posted together run one at a time in arrival order (a files job waits on reads; the next waits for it)', async () => {
    const f = folder();
    const { index, base, rl, problem } = await indexed(f.dir);
    const runner = new SimilarityRunner(workerPath);
    try {
      const order: string[] = [];
      const first = runner.run(similarityFilesJob(index, problem, base, rl)).then(() => order.push('files'));
      const w = warmUpJob(4, 200);
      const second = runner.run({ kind: 'problem', base: w.base, model: w.model }).then(() => order.push('texts'));
      await Promise.all([first, second]);
      assert.deepEqual(order, ['files', 'texts']);
    } finally {
      await runner.dispose();
    }
    index.close();
  });
});
