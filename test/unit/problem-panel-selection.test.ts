/**
 * Issue 14, fourth round: the similarity job of a problem starts when its row is selected in the Problems tree
 * (PanelHooks.onSelectProblem), so the click on the row's chart icon finds it running or cached; one such job at
 * a time, the newest selection wins (src/extension/problemPanel.ts `Panels.selected`). The panels run on a
 * recording `vscode` stub over a real index of two models (a base and its RL model); the jobs run in-process.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import type { FolderSession } from '../../src/extension/session';
import type { HostMessage } from '../../src/shared/protocol';
import { rolloutLine, tempDir } from './helpers';
import { Emitter, fakePanel, loadWithStub, type PanelStubState, panelStub } from './vscodeStub';

/** A sample text with math, so the similarity job has steps to compare. */
const mathText = (qid: number, i: number, model: string, c: boolean) =>
  `Step ${i}: $${qid} + ${i} = ${qid + i}$, so the answer is ${c ? qid : 'x'} (${model}).`;

const current: PanelStubState = { commands: new Map() };
const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
  '../../src/extension/session',
  { EventEmitter: Emitter },
);
interface PanelsLike {
  dispose(): void;
  runner: { run: (job: { kind: string; model?: { id: number }[] }, onList?: unknown) => Promise<unknown> };
}
const { registerPanels, problemSelection, SELECTION_PREFETCH_DELAY_MS } = loadWithStub<{
  registerPanels: (
    c: unknown,
    g: () => FolderSession | undefined,
    hooks: unknown,
  ) => [PanelsLike, ...{ dispose(): void }[]];
  problemSelection: (sel: readonly unknown[]) => { problemId: number; modelId?: number } | undefined;
  SELECTION_PREFETCH_DELAY_MS: number;
}>('../../src/extension/problemPanel', panelStub(current));

/**
 * Three problems of a base and its RL model, the panels registered with a selection event; every similarity
 * job's (problem's) model samples are recorded as the runner gets them, and each job can be held until released.
 */
async function setUp(hold = false) {
  const dir = tempDir('ti-panel-sel-');
  const lines = (model: string) =>
    [0, 1, 2].map((q) => rolloutLine(q, model, [true, false, q > 0], mathText)).join('\n');
  writeFileSync(join(dir, 'base.jsonl'), `${lines('Qwen2.5-7B')}\n`);
  writeFileSync(join(dir, 'rl.jsonl'), `${lines('Qwen2.5-7B-SimpleRL-Zoo')}\n`);
  const storage = tempDir('ti-panel-sel-storage-');
  const state = new Map<string, unknown>();
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: storage },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'r' };
  const s = new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
  await indexFolder(s.index, dir);
  const select = new Emitter<{ problemId: number; modelId?: number }>();
  current.commands = new Map();
  const disposables = registerPanels(context, () => s, {
    position: () => null,
    onSelectProblem: select.event,
  });
  const panels = disposables[0];
  const problemOfSample = new Map(
    s.index
      .listProblems()
      .flatMap((p) => s.index.models().flatMap((m) => s.index.samples(p.id, m.id).map((x) => [x.id, p.id] as const))),
  );
  const jobs: number[] = [];
  const releases: (() => void)[] = [];
  const run = panels.runner.run.bind(panels.runner);
  panels.runner.run = async (job, onList) => {
    if (job.kind === 'problemFiles') {
      jobs.push(problemOfSample.get(job.model![0].id)!);
      if (hold) await new Promise<void>((r) => releases.push(r));
    }
    return run(job, onList);
  };
  const ids = s.index.listProblems().map((p) => p.id);
  const rl = s.index.models().find((m) => m.label.includes('SimpleRL'));
  assert.ok(rl && s.baseModel() && s.baseModel()?.id !== rl.id, 'the base is guessed, the RL model is another');
  return {
    s,
    ids,
    rlId: rl.id,
    jobs,
    select: (problemId: number) => select.fire({ problemId }),
    release: () => releases.shift()?.(),
    close: () => {
      for (const d of disposables) d.dispose();
      s.index.close();
    },
  };
}

/** Waits until `f` holds (polled every 5 ms, 3 s at most). */
async function until(f: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !f(); i++) await sleep(5);
  assert.ok(f(), what);
}

describe('problem rows selected in the tree start their similarity job', () => {
  test('problemSelection: one problem row, or one model row under a problem; nothing else', () => {
    const problem = { type: 'problem', problem: { id: 4, key: 'k' } };
    assert.deepEqual(problemSelection([problem]), { problemId: 4, modelId: undefined });
    assert.deepEqual(problemSelection([{ ...problem, modelId: 2 }]), { problemId: 4, modelId: 2 });
    assert.deepEqual(problemSelection([{ type: 'model', model: { id: 3 }, problemId: 4 }]), {
      problemId: 4,
      modelId: 3,
    });
    assert.equal(problemSelection([{ type: 'model', model: { id: 3 } }]), undefined, 'a model row at the top');
    assert.equal(problemSelection([problem, problem]), undefined, 'two rows');
    assert.equal(problemSelection([]), undefined);
    assert.equal(
      problemSelection([{ type: 'sample', sample: { id: 9, problemId: 4, modelId: 3 } }]),
      undefined,
      'a sample row (stepping through samples starts no job)',
    );
  });

  test('the selected row’s job runs once; the problem view then finds its result (no second job)', async () => {
    const v = await setUp();
    try {
      v.select(v.ids[1]);
      await until(() => v.jobs.length === 1, 'the selection started a job');
      assert.deepEqual(v.jobs, [v.ids[1]]);
      const fake = fakePanel<HostMessage>();
      current.panel = fake.panel;
      await current.commands.get('traceInspector.openProblemView')!({ problemId: v.ids[1] });
      fake.send({ id: 1, kind: 'getSimilarity', problemId: v.ids[1], modelId: v.rlId, stage: 'list' });
      await until(() => fake.posted.some((m) => m.kind === 'reply' || m.kind === 'error'), 'the answer');
      const answer = fake.posted.find((m) => m.kind === 'reply' || m.kind === 'error') as HostMessage & {
        result?: { samples: unknown[] };
        message?: string;
      };
      assert.equal(answer.kind, 'reply', answer.message);
      assert.equal(answer.result?.samples.length, 3);
      await sleep(20);
      assert.deepEqual(v.jobs, [v.ids[1]], 'the problem view’s prefetch and request ran no second job');
    } finally {
      v.close();
    }
  });

  test('nothing starts while the folder is being indexed', async () => {
    const v = await setUp();
    try {
      Object.defineProperty(v.s, 'isIndexing', { get: () => true, configurable: true });
      v.select(v.ids[0]);
      await sleep(SELECTION_PREFETCH_DELAY_MS + 50);
      assert.deepEqual(v.jobs, []);
      Object.defineProperty(v.s, 'isIndexing', { get: () => false, configurable: true });
      v.select(v.ids[0]);
      await until(() => v.jobs.length === 1, 'the pass ended: the selection starts the job');
    } finally {
      v.close();
    }
  });

  test('rows passed over within the delay start nothing; one job at a time, the newest selection wins', async () => {
    const v = await setUp(true);
    try {
      // arrowing through the three rows faster than the delay: only the last one starts
      v.select(v.ids[0]);
      v.select(v.ids[1]);
      v.select(v.ids[2]);
      await until(() => v.jobs.length === 1, 'one job');
      assert.deepEqual(v.jobs, [v.ids[2]]);
      // while it runs, two rows selected one after the other: the first waits and is replaced by the second
      v.select(v.ids[0]);
      await sleep(SELECTION_PREFETCH_DELAY_MS + 30);
      v.select(v.ids[1]);
      await sleep(SELECTION_PREFETCH_DELAY_MS + 30);
      assert.deepEqual(v.jobs, [v.ids[2]], 'nothing else started while a job runs');
      v.release();
      await until(() => v.jobs.length === 2, 'the newest selection ran next');
      assert.deepEqual(v.jobs, [v.ids[2], v.ids[1]], 'the row left (problem 0) never ran');
      v.release();
      await sleep(SELECTION_PREFETCH_DELAY_MS + 30);
      assert.equal(v.jobs.length, 2);
      // a row whose result is cached starts no job
      v.select(v.ids[2]);
      await sleep(SELECTION_PREFETCH_DELAY_MS + 50);
      assert.deepEqual(v.jobs, [v.ids[2], v.ids[1]]);
    } finally {
      v.close();
    }
  });
});
