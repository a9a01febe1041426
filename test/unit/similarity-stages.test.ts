/**
 * The similarity job's two stages (issue 14): the sample list's stage (nearest base samples, similarity,
 * novelty, the model's summary; the base-to-base baseline too when the base's work was kept) comes before the
 * computation paths (and, with nothing kept, before the baseline), and every figure in it is the final one;
 * the result is the same with or without the stage, in-process and through the worker thread. In the worker, a
 * job whose list is not out yet goes before the later stages of a job whose list is (StageScheduler).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  clearBaseWorkCache,
  runSimilarityJob,
  type SimilarityBody,
  type SimilarityJob,
} from '../../src/extension/panelData';
import { SimilarityRunner } from '../../src/extension/similarityRunner';
import { StageScheduler, type SimilarityWorkerReply } from '../../src/extension/similarityWorker';
import { warmUpJob } from '../../src/extension/similarityWarmup';

const workerPath = path.resolve(__dirname, '../../src/extension/similarityWorker.js');

/** 12 model samples against 10 base samples: math-like texts with equations (paths to compare). */
function job(): SimilarityJob {
  const w = warmUpJob(12, 900);
  return {
    kind: 'problem',
    base: w.base.slice(0, 10).map((b, i) => ({ ...b, id: 10 + i, text: `${b.text}\nCheck: $4 + ${i} = ${4 + i}$.` })),
    model: w.model,
  };
}

/** The final result without what the list's stage leaves out when the base's work was kept (the computation paths). */
function withoutPaths(full: SimilarityBody): SimilarityBody {
  return {
    samples: full.samples.map(({ path: _path, ...rest }) => rest),
    baseline: full.baseline,
    summary: full.summary,
  };
}

/**
 * The final result without what the list's stage leaves out when the base's work was not kept: the paths
 * and the base-to-base baseline (its list, its summary figures, each sample's percentile among it).
 */
function withoutPathsAndBaseline(full: SimilarityBody): SimilarityBody {
  return {
    samples: full.samples.map(({ path: _path, ...rest }) => ({ ...rest, baselinePercentile: null })),
    baseline: [],
    summary: { modelSimilarity: full.summary.modelSimilarity, modelNovelty: full.summary.modelNovelty },
    baselinePending: true,
  };
}

describe('similarity job: the sample list before the computation paths', () => {
  test('the list stage holds the final figures; the result is the same with or without it', () => {
    const j = job();
    clearBaseWorkCache();
    const plain = runSimilarityJob(j);
    assert.ok(
      plain.samples.some((s) => (s.path?.steps ?? 0) > 0),
      'the texts have computation steps',
    );
    assert.ok(plain.paths && plain.paths.modelWithSteps > 0);
    for (const kept of [false, true]) {
      // first with nothing kept, then with the base's work kept from the run before
      if (!kept) clearBaseWorkCache();
      const lists: SimilarityBody[] = [];
      const full = runSimilarityJob(j, true, (l) => lists.push(structuredClone(l)));
      assert.equal(lists.length, 1, 'one list stage');
      assert.deepEqual(full, plain, `same result (base kept: ${kept})`);
      assert.equal(JSON.stringify(full), JSON.stringify(plain), 'same JSON, key for key');
      // nothing kept: the list comes before the baseline too (issue 14, fourth round); kept: the baseline is there
      assert.deepEqual(
        lists[0],
        kept ? withoutPaths(full) : withoutPathsAndBaseline(full),
        'the list stage equals the final figures',
      );
      assert.equal(lists[0].baselinePending, kept ? undefined : true);
      if (!kept) assert.ok(full.baseline.length === 10 && full.samples.some((s) => s.baselinePercentile !== null));
      assert.equal(lists[0].paths, undefined);
      assert.ok(lists[0].samples.every((s) => s.path === undefined));
    }
    clearBaseWorkCache();
  });

  test('through the worker thread: the list stage arrives before the result and equals its figures', async () => {
    const j = job();
    clearBaseWorkCache();
    const plain = runSimilarityJob(j);
    clearBaseWorkCache();
    const runner = new SimilarityRunner(workerPath);
    try {
      const events: string[] = [];
      let list: SimilarityBody | undefined;
      const full = await runner.run(j, (l) => {
        events.push('list');
        list = l;
      });
      events.push('result');
      assert.equal(runner.usedWorker, true);
      assert.deepEqual(events, ['list', 'result']);
      assert.deepEqual(full, plain);
      assert.deepEqual(list, withoutPathsAndBaseline(plain));
      // a job without onList gets no list message (and the same result)
      assert.deepEqual(await runner.run(j), plain);
    } finally {
      await runner.dispose();
    }
    // in-process (no worker file): the same stages
    const inline = new SimilarityRunner(path.join(__dirname, 'missing-worker.js'));
    let inlineList: SimilarityBody | undefined;
    assert.deepEqual(
      await inline.run(j, (l) => {
        inlineList = l;
      }),
      plain,
    );
    assert.deepEqual(inlineList, withoutPathsAndBaseline(plain));
  });

  /** A second problem: other base and model texts than job()'s. */
  function otherJob(): SimilarityJob {
    const w = warmUpJob(14, 700);
    return {
      kind: 'problem',
      base: w.base.map((b) => ({ ...b, id: 500 + b.id, text: `${b.text}\nSo $x = 7$.` })),
      model: w.model.map((m) => ({ ...m, id: 500 + m.id })),
    };
  }

  test("a second problem's list comes before the first problem's baseline and paths; results unchanged", async () => {
    const [a, b] = [job(), otherJob()];
    clearBaseWorkCache();
    const plainA = runSimilarityJob(a);
    const plainB = runSimilarityJob(b);
    // in-process scheduler: both posted at once
    clearBaseWorkCache();
    const replies: SimilarityWorkerReply[] = [];
    const done = new Promise<void>((resolve) => {
      const scheduler = new StageScheduler((r) => {
        replies.push(r);
        if (replies.filter((x) => 'result' in x).length === 2) resolve();
      });
      scheduler.add({ id: 1, job: a, list: true });
      scheduler.add({ id: 2, job: b, list: true });
    });
    await done;
    assert.deepEqual(
      replies.map((r) => `${r.id}:${'list' in r ? 'list' : 'result' in r ? 'result' : 'error'}`),
      ['1:list', '2:list', '1:result', '2:result'],
    );
    assert.deepEqual((replies[2] as { result: unknown }).result, plainA);
    assert.deepEqual((replies[3] as { result: unknown }).result, plainB);
    assert.deepEqual((replies[1] as { list: SimilarityBody }).list, withoutPathsAndBaseline(plainB));
    // through the worker thread, both posted at once
    const runner = new SimilarityRunner(workerPath);
    try {
      const events: string[] = [];
      const first = runner
        .run(a, () => events.push('a list'))
        .then((r) => {
          events.push('a result');
          return r;
        });
      const second = runner
        .run(b, () => events.push('b list'))
        .then((r) => {
          events.push('b result');
          return r;
        });
      const [fullA, fullB] = await Promise.all([first, second]);
      assert.equal(runner.usedWorker, true);
      assert.deepEqual(events, ['a list', 'b list', 'a result', 'b result']);
      assert.deepEqual(fullA, plainA);
      assert.deepEqual(fullB, plainB);
    } finally {
      await runner.dispose();
    }
    clearBaseWorkCache();
  });
});
