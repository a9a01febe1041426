/**
 * The overview's figures off the extension host's main thread (issue 31: overviewData's bootstraps ran on the
 * host's thread, 131 s at 50,000 problems, and a tree row expanded meanwhile waited as long):
 * - the figures worker's messages, checked at both ends (src/extension/figuresWorkerProtocol.ts) and the
 *   webview's `progress` message (src/shared/protocol.ts);
 * - the off-thread path: FiguresRunner with the worker thread (out/src/extension/figuresWorker.js) gives what
 *   the in-thread functions give on a real folder, with its progress step by step;
 * - a newer request of the same figures supersedes the running one (its callers get the newer result), other
 *   figures wait with a "waiting for" progress, a closed panel's figures are dropped.
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { indexFolder } from '../../src/core/index/indexer';
import { sqliteDriver } from '../../src/core/index/sqlite';
import { guessBaseModel } from '../../src/core/index/labels';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { FiguresRunner } from '../../src/extension/figuresRunner';
import {
  type FiguresReply,
  validateFiguresJob,
  validateFiguresReply,
  validateFiguresRequest,
  validateRoles,
} from '../../src/extension/figuresWorkerProtocol';
import { modelMarkersData, overviewData, pathsData, trainingData } from '../../src/extension/panelData';
import { type FiguresProgress, progressText, validateHostMessage, validateProgress } from '../../src/shared/protocol';
import { REAL, tempDir } from './helpers';

const workerPath = path.resolve(__dirname, '../../src/extension/figuresWorker.js');

describe('the figures worker protocol', () => {
  const cancel = new SharedArrayBuffer(4);
  const request = {
    type: 'run',
    id: 3,
    dbPath: '/tmp/index.db',
    sqliteDriver: 'better-sqlite3',
    job: { kind: 'overview', roles: { baseId: 1, baseIsChoice: true } },
    cancel,
  };

  test('a request is checked field by field', () => {
    assert.deepEqual(validateFiguresRequest(request), request);
    assert.deepEqual(validateFiguresRequest({ ...request, job: { kind: 'rewardModels' } }), {
      ...request,
      job: { kind: 'rewardModels' },
    });
    assert.equal(validateFiguresRequest({ ...request, id: 0 }), 'request id must be a positive integer');
    assert.equal(validateFiguresRequest({ ...request, dbPath: '' }), 'request dbPath must be a non-empty string');
    assert.match(validateFiguresRequest({ ...request, sqliteDriver: 'sqlite3' }) as string, /sqliteDriver must be/);
    assert.match(validateFiguresRequest({ ...request, cancel: new ArrayBuffer(4) }) as string, /SharedArrayBuffer/);
    assert.equal(validateFiguresRequest({ ...request, extra: 1 }), 'request: unexpected field "extra"');
    assert.equal(validateFiguresRequest({ ...request, type: 'cancel' }), 'request must be an object of type "run"');
  });

  test('jobs and roles: known kinds, ids, a bounded step pattern, nothing else', () => {
    assert.deepEqual(validateFiguresJob({ kind: 'training', roles: {} }), { kind: 'training', roles: {} });
    assert.equal(validateFiguresJob({ kind: 'similarity', roles: {} }), 'unknown job kind "similarity"');
    assert.equal(validateFiguresJob({ kind: 'rewardModels', roles: {} }), 'job rewardModels: unexpected field "roles"');
    assert.equal(validateFiguresJob({ kind: 'paths' }), 'job paths: roles must be an object');
    assert.equal(validateRoles({ baseId: 1.5 }), 'roles.baseId must be a positive integer');
    assert.equal(validateRoles({ focusId: -1 }), 'roles.focusId must be a positive integer');
    assert.equal(validateRoles({ baseIsChoice: 'yes' }), 'roles.baseIsChoice must be a boolean');
    assert.match(validateRoles({ stepPattern: 'x'.repeat(1001) }) as string, /stepPattern must be a string/);
    assert.equal(validateRoles({ stepPattern: 's', base: 1 }), 'roles: unexpected field "base"');
  });

  test('replies: progress within its bounds, a result object, an error with its reason', () => {
    const progress = { type: 'progress', id: 2, progress: { stage: 'pass@k curves of base', done: 1, total: 3 } };
    assert.deepEqual(validateFiguresReply(progress), progress);
    assert.match(
      validateFiguresReply({ ...progress, progress: { stage: 's', done: 4, total: 3 } }) as string,
      /0 <= done <= total/,
    );
    assert.equal(validateFiguresReply({ type: 'done', id: 2, result: [] }), 'done: result must be an object');
    assert.deepEqual(validateFiguresReply({ type: 'error', id: 2, message: 'm', superseded: true }), {
      type: 'error',
      id: 2,
      message: 'm',
      superseded: true,
    });
    assert.equal(
      validateFiguresReply({ type: 'error', id: 2, message: 'm', superseded: 1 }),
      'error: superseded must be a boolean',
    );
    assert.equal(validateFiguresReply({ type: 'log', id: 2 }), 'unknown reply type "log"');
  });

  test("the webview's progress message: validated, and said in words", () => {
    const m = { id: 9, kind: 'progress', replyTo: 4, progress: { stage: 'pass@k curves of base', done: 1, total: 6 } };
    assert.deepEqual(validateHostMessage(m), m);
    assert.equal(validateHostMessage({ ...m, replyTo: 0 }), 'progress: replyTo must be a positive integer');
    assert.equal(validateHostMessage({ ...m, html: '<b>' }), 'progress: unexpected field "html"');
    assert.match(validateProgress({ stage: 'x'.repeat(301), done: 0, total: 0 }) as string, /at most 300/);
    assert.match(validateProgress({ stage: 's', done: 0, total: 2_000_000 }) as string, /total <= 1000000/);
    assert.equal(progressText(m.progress), 'Computing figures: pass@k curves of base (step 2 of 6)…');
    assert.equal(
      progressText({ stage: 'the training series', done: 0, total: 0 }),
      'Computing figures: the training series…',
    );
  });

  test('the worker refuses a malformed request with its reason, and still answers the next', async () => {
    const w = new Worker(workerPath);
    try {
      const replies: FiguresReply[] = [];
      const got = (n: number) =>
        new Promise<void>((resolve) => {
          const check = () => (replies.length >= n ? resolve() : setTimeout(check, 10));
          check();
        });
      w.on('message', (m: FiguresReply) => replies.push(m));
      w.postMessage({ ...request, id: 5, job: { kind: 'overview', roles: { baseId: 'x' } } });
      w.postMessage({
        ...request,
        id: 6,
        dbPath: path.join(tempDir(), 'missing', 'index.db'),
        cancel: new SharedArrayBuffer(4),
      });
      await got(2);
      assert.deepEqual(replies[0], {
        type: 'error',
        id: 5,
        message: 'refused: job overview: roles.baseId must be a positive integer',
      });
      assert.equal(replies[1].id, 6);
      assert.equal(replies[1].type, 'error', 'a read-only index that does not exist cannot be opened');
    } finally {
      await w.terminate();
    }
  });
});

describe('figures computed in the worker thread equal the in-thread functions (real rlvr-probe-gsm8k)', () => {
  let index: TraceIndex;
  let dbPath: string;
  let runner: FiguresRunner;
  let baseId: number;

  before(async () => {
    dbPath = path.join(tempDir('ti-figures-'), 'index.db');
    index = TraceIndex.open(dbPath);
    await indexFolder(index, path.join(REAL, 'rlvr-probe-gsm8k'));
    const models = index.models();
    baseId = models[guessBaseModel(models)].id;
    runner = new FiguresRunner(workerPath);
  });

  after(async () => {
    await runner.dispose();
    index.close();
  });

  test('the worker stops a job its host marked superseded, at its next step, and says so', async () => {
    const w = new Worker(workerPath);
    try {
      const cancel = new SharedArrayBuffer(4);
      const replies: FiguresReply[] = [];
      const ended = new Promise<void>((resolve) =>
        w.on('message', (m: FiguresReply) => {
          replies.push(m);
          // marked once the job has started (its first step): it stops before the next
          if (m.type === 'progress') Atomics.store(new Int32Array(cancel), 0, 1);
          else resolve();
        }),
      );
      w.postMessage({
        type: 'run',
        id: 1,
        dbPath,
        // the driver of this thread's connection to the same file
        sqliteDriver: sqliteDriver().name,
        job: { kind: 'overview', roles: { baseId } },
        cancel,
      });
      await ended;
      // it stopped before its last step (which step depends on when this thread read the first progress)
      const steps = replies.filter((m) => m.type === 'progress');
      assert.ok(steps.length < steps[0].progress.total, JSON.stringify(replies));
      assert.deepEqual(replies[replies.length - 1], {
        type: 'error',
        id: 1,
        message: 'superseded by a newer request',
        superseded: true,
      });
    } finally {
      await w.terminate();
    }
  });

  test('overview: the same data, each step reported in order before it runs', async () => {
    const roles = { baseId };
    const progress: FiguresProgress[] = [];
    const off = await runner.run('f|overview', { dbPath, index }, { kind: 'overview', roles }, (p) => progress.push(p));
    assert.equal(runner.usedWorker, true);
    const on = overviewData(index, roles);
    assert.ok(on.curves.length > 0 && on.coverage.length > 0);
    assert.deepEqual(off, on);
    // one step per model with graded samples, one per comparison
    const total = on.models.length + on.coverage.length;
    assert.deepEqual(
      progress.map((p) => [p.done, p.total]),
      Array.from({ length: total }, (_, i) => [i, total]),
    );
    assert.match(progress[0].stage, /^pass@k curves of /);
    assert.match(progress[total - 1].stage, /^coverage of .+ against /);
  });

  test('training series and reasoning paths: the same data', async () => {
    const roles = { baseId };
    assert.deepEqual(
      await runner.run('f|training', { dbPath, index }, { kind: 'training', roles }),
      trainingData(index, roles),
    );
    assert.deepEqual(
      await runner.run('f|paths', { dbPath, index }, { kind: 'paths', roles }),
      await pathsData(index, roles),
    );
  });

  test('a newer request of the same figures supersedes the running one: every caller gets the newer figures', async () => {
    const [a, b] = index.models();
    const first: FiguresProgress[] = [];
    const older = runner.run('g|overview', { dbPath, index }, { kind: 'overview', roles: { baseId: a.id } }, (p) =>
      first.push(p),
    );
    // another folder's figures wait behind the running job, and say so
    const waiting: FiguresProgress[] = [];
    const other = runner.run('h|training', { dbPath, index }, { kind: 'training', roles: {} }, (p) => waiting.push(p));
    const newer = runner.run(
      'g|overview',
      { dbPath, index },
      { kind: 'overview', roles: { baseId: b.id, baseIsChoice: true } },
    );
    const [o, n] = await Promise.all([older, newer]);
    assert.equal(o, n, 'the older request resolves with the newer result');
    assert.equal(n.baseModelId, b.id);
    assert.deepEqual(n, overviewData(index, { baseId: b.id, baseIsChoice: true }));
    assert.ok(
      waiting.some((p) => p.stage === 'waiting for the overview’s figures'),
      JSON.stringify(waiting),
    );
    assert.deepEqual(await other, trainingData(index, {}));
  });

  test("the overview's markers wait for every other kind of figures queued after them", async () => {
    const order: string[] = [];
    const done = (what: string) => (v: unknown) => {
      order.push(what);
      return v;
    };
    // the first job runs at once; of the queued, the markers come last though asked for first
    const first = runner.run('m|overview', { dbPath, index }, { kind: 'overview', roles: {} }).then(done('overview'));
    const markers = runner.run('m|markers', { dbPath, index }, { kind: 'markers' }).then(done('markers'));
    const training = runner
      .run('m|training', { dbPath, index }, { kind: 'training', roles: {} })
      .then(done('training'));
    await Promise.all([first, markers, training]);
    assert.deepEqual(order, ['overview', 'training', 'markers']);
    assert.deepEqual(await markers, modelMarkersData(index));
  });

  test('a closed panel drops its figures: the caller is told, the next job runs', async () => {
    const dropped = runner.run('k|overview', { dbPath, index }, { kind: 'overview', roles: { baseId } });
    runner.cancel('k|overview');
    await assert.rejects(dropped, /cancelled/);
    assert.equal(
      (await runner.run('k|overview', { dbPath, index }, { kind: 'overview', roles: { baseId } })).baseModelId,
      baseId,
    );
  });

  test('without the worker file the jobs run in-process with the same result', async () => {
    const local = new FiguresRunner(path.join(tempDir(), 'no-such-worker.js'));
    try {
      const roles = { baseId };
      assert.deepEqual(
        await local.run('f|overview', { dbPath, index }, { kind: 'overview', roles }),
        overviewData(index, roles),
      );
      assert.equal(local.usedWorker, false);
    } finally {
      await local.dispose();
    }
  });
});
