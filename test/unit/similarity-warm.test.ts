/**
 * The similarity worker's warm-up (issue 14): the worker is started and runs a small synthetic job while the
 * user is idle, keeps nothing of it, and ends with the extension (deactivate) even in the middle of it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { clearBaseWorkCache, keptBaseCount, runSimilarityJob, type SimilarityJob } from '../../src/extension/panelData';
import { SimilarityRunner } from '../../src/extension/similarityRunner';
import { runJob } from '../../src/extension/similarityWorker';
import { warmUpJob } from '../../src/extension/similarityWarmup';

// the compiled worker entry next to this test's compiled sources (as test/unit/protocol-data.test.ts uses it)
const workerPath = path.resolve(__dirname, '../../src/extension/similarityWorker.js');

/** A small real job: 6 model samples against 6 base samples, texts from the warm-up generator's other seed. */
function smallJob(): SimilarityJob {
  const w = warmUpJob(6, 600);
  return {
    kind: 'problem',
    base: w.base.map((b, i) => ({ ...b, id: 100 + i, text: `${b.text}\nBase ${i}: $2 + ${i} = ${2 + i}$.` })),
    model: w.model.map((m, i) => ({ ...m, id: 200 + i, text: `${m.text}\nModel ${i}: $3 \\times ${i} = ${3 * i}$.` })),
  };
}

/** Counts the warm-up passes `runner` posts (its `run` calls with the warm-up job). */
function countWarmPasses(runner: SimilarityRunner): () => number {
  let n = 0;
  const r = runner as unknown as { run: (job: { kind: string }, onList?: unknown) => Promise<unknown> };
  const run = r.run.bind(runner);
  r.run = (job, onList) => {
    if (job.kind === 'warm') n++;
    return run(job, onList);
  };
  return () => n;
}

describe('similarity worker warm-up', () => {
  test('the warm-up job is deterministic, math-like, and keeps no base work', () => {
    const a = warmUpJob();
    const b = warmUpJob();
    assert.deepEqual(a, b);
    assert.equal(a.base.length, 48);
    assert.equal(a.model.length, 48);
    for (const s of [...a.base, ...a.model]) {
      assert.ok(s.text.length >= 1500 && s.text.length < 2200, `text of ${s.text.length} characters`);
      assert.match(s.text, /= \d+/);
      assert.match(s.text, /\\boxed\{/);
    }
    clearBaseWorkCache();
    const job = smallJob();
    const before = runSimilarityJob(job);
    assert.equal(keptBaseCount(), 1, 'a real job keeps its base');
    assert.equal(runJob({ kind: 'warm' }), null);
    assert.equal(keptBaseCount(), 1, 'the warm-up keeps no base and leaves the kept one');
    assert.deepEqual(runSimilarityJob(job), before);
    clearBaseWorkCache();
  });

  test('warm() starts the worker once; a job posted during the warm-up waits for it and gives the same result', async () => {
    const job = smallJob();
    clearBaseWorkCache();
    const inProcess = runSimilarityJob(job);
    clearBaseWorkCache();
    const runner = new SimilarityRunner(workerPath);
    const passes = countWarmPasses(runner);
    try {
      assert.equal(runner.running, false);
      const warming = runner.warm();
      assert.equal(runner.running, true, 'the worker thread starts at once');
      const result = runner.run(job); // queued behind the warm-up's first pass in the same worker
      assert.equal(await warming, true);
      assert.equal(passes(), 1, 'the warm-up stops after the pass the job waited for');
      assert.deepEqual(await result, inProcess);
      assert.equal(runner.usedWorker, true);
      assert.equal(await runner.warm(), false, 'one warm-up per worker thread');
      assert.equal(passes(), 1);
    } finally {
      await runner.dispose();
    }
    assert.equal(runner.running, false);
  });

  test('with no job posted, the warm-up runs its three passes', async () => {
    const runner = new SimilarityRunner(workerPath);
    const passes = countWarmPasses(runner);
    try {
      assert.equal(await runner.warm(), true);
      assert.equal(passes(), 3);
      assert.ok(runner.warmedAt !== undefined && runner.warmedAt <= Date.now());
    } finally {
      await runner.dispose();
    }
  });

  test('dispose (deactivate) during the warm-up ends the worker: the warm-up and a pending job fail, nothing hangs', async () => {
    const runner = new SimilarityRunner(workerPath);
    const warming = runner.warm();
    const job = runner.run(smallJob()).then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    assert.equal(runner.running, true);
    await runner.dispose();
    assert.equal(runner.running, false);
    assert.equal(await warming, false);
    assert.equal(await job, 'similarity worker stopped');
    // a later warm-up starts a new worker (a panel opened again after a restart of the runner)
    const again = runner.warm();
    assert.equal(runner.running, true);
    assert.equal(await again, true);
    await runner.dispose();
    assert.equal(runner.running, false);
  });

  test('without a worker file there is nothing to warm: no thread, no in-process work on the host', async () => {
    const runner = new SimilarityRunner(path.join(__dirname, 'no-such-worker.js'));
    assert.equal(await runner.warm(), false);
    assert.equal(runner.running, false);
    const none = new SimilarityRunner(undefined);
    assert.equal(await none.warm(), false);
  });
});
