/**
 * The host side of the overview's Training tab and of the tree's training filters: trainingData on the
 * real run rlvr-probe-gsm8k/trajectory (figures equal the core's, ids resolve to the right rows, rows in
 * cluster order), the step-pattern setting (valid, matching nothing, invalid), the protocol messages
 * and filters it adds, and the tree (loaded on a vscode stub): checkpoints listed by step number with
 * their step, and the "lost during training" / "solved only at late steps" filters.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapMeanCI } from '../../src/core/metrics/bootstrap';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { DEFAULT_STEP_PATTERN } from '../../src/core/grouping/series';
import {
  checkpointSeries,
  clusterOrder,
  computeTrajectories,
  trajectoryFilter,
} from '../../src/core/analyses/trajectories';
import { modelMarkersData, overviewData, resolveFilter, trainingData } from '../../src/extension/panelData';
import { validatePanelState, validateWebviewMessage } from '../../src/shared/protocol';
import { REAL, tempDir, writeRollouts } from './helpers';
import { loadWithStub } from './vscodeStub';

const TRAJ = join(REAL, 'rlvr-probe-gsm8k', 'trajectory');

describe('trainingData on rlvr-probe-gsm8k/trajectory', () => {
  let index: TraceIndex;
  before(async () => {
    index = TraceIndex.open(':memory:');
    await indexFolder(index, TRAJ);
  });
  after(() => index.close());

  test('one series; ids resolve to the step models, their own bases and the problems; figures equal the core', () => {
    const d = trainingData(index, {});
    assert.equal(d.series.length, 1);
    assert.equal(d.defaultPattern, true);
    assert.equal(d.stepPattern, DEFAULT_STEP_PATTERN);
    assert.equal(d.models, 8);
    const s = d.series[0];
    const core = computeTrajectories(index, { replicates: 1000, seed: 12345 }).trajectories[0];
    const models = new Map(index.models().map((m) => [m.id, m]));
    s.steps.forEach((st, i) => {
      assert.equal(models.get(st.modelId)!.displayId, core.steps[i].model);
      assert.equal(models.get(st.baseModelId!)!.displayId, core.steps[i].base);
      assert.equal(
        models.get(st.baseModelId!)!.run,
        `step-${st.step}`,
        'each step against the SFT model of its own folder',
      );
      // the short name the tree gives the base (trial 13 finding 8): `sft · step-100`
      assert.equal(st.baseLabel, `sft · step-${st.step}`);
      assert.deepEqual(st.passAtK, core.steps[i].passAtK);
      assert.deepEqual(st.basePassAtK, core.steps[i].basePassAtK);
      assert.deepEqual(st.categories, core.steps[i].categories);
      assert.equal(st.gainShare!.sharpening, core.steps[i].positiveGainShare!.sharpening);
      assert.equal(st.gainShare!.ciLow, core.steps[i].positiveGainShare!.ciLow);
      assert.equal(st.meanChars, core.steps[i].meanChars);
      assert.equal(st.pairedProblems, 30);
    });
    const order = clusterOrder(core.problems);
    assert.deepEqual(
      s.problems.map((p) => p.problemId),
      order.map((i) => core.problems[i].problemId),
    );
    for (const p of s.problems) assert.equal(index.problem(p.id)!.problemId, p.problemId);
    const rank = { gained: 0, lost: 1, 'flip-flop': 2, always: 3, never: 4 };
    for (let i = 1; i < s.problems.length; i++)
      assert.ok(rank[s.problems[i - 1].pattern] <= rank[s.problems[i].pattern], 'rows are clustered by pattern');
    assert.deepEqual(
      s.lost,
      trajectoryFilter(core, 'lost').map((i) => core.ids.problems[i]),
    );
    assert.ok(s.lost.length > 0);
  });

  test('lengths and reasoning markers per step: the means and within-problem intervals of the raw rollouts', () => {
    const s = trainingData(index, {}).series[0];
    const m = s.markers;
    assert.ok(m, 'the series has its measures');
    assert.equal(m.unmeasured, 0);
    assert.match(m.tokenRule, /tokens approximated as pieces/, 'the rollouts carry no token counts');
    assert.deepEqual(
      m.measures.map((x) => x.id),
      ['chars', 'tokens', 'verification', 'backtracking', 'subgoal', 'backward'],
    );
    for (const st of [100, 300, 500, 1000]) {
      // per problem: mean code points of its correct and of its incorrect rollouts, read here from the raw file
      const correct: number[] = [];
      const incorrect: number[] = [];
      const within: number[] = [];
      const raw = readFileSync(join(TRAJ, `step-${st}`, 'rl_raw.jsonl'), 'utf8');
      for (const line of raw.split('\n').filter((l) => l.trim())) {
        const r = JSON.parse(line) as { rollouts: { correct: boolean; text: string }[] };
        const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
        const c = r.rollouts.filter((x) => x.correct).map((x) => [...x.text].length);
        const i = r.rollouts.filter((x) => !x.correct).map((x) => [...x.text].length);
        if (c.length) correct.push(mean(c));
        if (i.length) incorrect.push(mean(i));
        if (c.length && i.length) within.push(mean(c) - mean(i));
      }
      type Figure = { mean: number | null; low: number | null; high: number | null; problems: number } | undefined;
      const at = (split: string): Figure =>
        m.points.find((p) => p.at === st && p.measure === 'chars' && p.split === split);
      const boot = { replicates: 1000, seed: 12345 };
      const figures: [Figure, number[]][] = [
        [at('correct'), correct],
        [at('incorrect'), incorrect],
        [m.within.find((w) => w.at === st && w.measure === 'chars'), within],
      ];
      for (const [got, values] of figures) {
        const want = bootstrapMeanCI(values, boot);
        assert.ok(got, `step ${st}`);
        assert.equal(got.problems, values.length);
        for (const k of ['mean', 'low', 'high'] as const)
          assert.ok(Math.abs((got[k] ?? Number.NaN) - (want[k] ?? Number.NaN)) < 1e-9, `step ${st} ${k}`);
      }
    }
  });

  test("the Models tab's markers per model equal the Training tab's at each step", () => {
    const s = trainingData(index, {}).series[0];
    const o = overviewData(index, {});
    const mk = modelMarkersData(index).markers;
    assert.ok(mk && s.markers);
    assert.ok(!('markers' in o), "the overview's figures do not wait for the markers (their own job)");
    assert.deepEqual(
      [...new Set(mk.points.map((p) => p.at))],
      o.models.map((m) => m.label),
    );
    for (const st of s.steps) {
      const fromTraining: unknown[] = s.markers.points.filter((p) => p.at === st.step).map(({ at: _, ...p }) => p);
      const fromModels: unknown[] = mk.points.filter((p) => p.at === st.label).map(({ at: _, ...p }) => p);
      assert.deepEqual(fromModels, fromTraining, `step ${st.step}`);
    }
  });

  test('the step pattern setting: one matching nothing gives no series; an invalid one falls back with a warning', () => {
    const none = trainingData(index, { stepPattern: 'epoch(\\d+)' });
    assert.deepEqual(none.series, []);
    assert.equal(none.defaultPattern, false);
    assert.equal(none.stepPattern, 'epoch(\\d+)');
    const bad = trainingData(index, { stepPattern: '(' });
    assert.equal(bad.series.length, 1, 'the built-in pattern is used');
    assert.equal(bad.defaultPattern, true);
    assert.match(
      bad.warnings[0],
      /^traceInspector\.stepPattern: invalid step pattern "\(": .*; the built-in pattern is used$/,
    );
  });

  test("resolveFilter: a training filter of the Training tab becomes the series' problem list with a title", () => {
    const d = trainingData(index, {});
    const s = d.series[0];
    const lost = resolveFilter(index, { kind: 'training', series: s.name, which: 'lost' });
    assert.deepEqual(lost, {
      kind: 'problems',
      problemIds: s.lost,
      title: `Lost during training (${s.name}): solved at an earlier step, not at step 1000`,
    });
    const late = resolveFilter(index, { kind: 'training', series: s.name, which: 'late' });
    assert.deepEqual(late, {
      kind: 'problems',
      problemIds: s.late,
      title: `Solved only at late steps (${s.name}): first solved at step 500 or later`,
    });
    assert.deepEqual(resolveFilter(index, { kind: 'training', series: 'nope', which: 'lost' }), {
      kind: 'problems',
      problemIds: [],
      title: 'nope: no such series',
    });
  });
});

describe('protocol: getTraining, openProblem at a checkpoint, training filters, the overview tab', () => {
  test('messages', () => {
    assert.deepEqual(validateWebviewMessage({ id: 1, kind: 'getTraining' }), { id: 1, kind: 'getTraining' });
    assert.match(validateWebviewMessage({ id: 1, kind: 'getTraining', x: 1 }) as string, /unexpected field "x"/);
    assert.deepEqual(validateWebviewMessage({ id: 2, kind: 'openProblem', problemId: 3, modelId: 4 }), {
      id: 2,
      kind: 'openProblem',
      problemId: 3,
      modelId: 4,
    });
    assert.match(
      validateWebviewMessage({ id: 2, kind: 'openProblem', problemId: 3, modelId: 0 }) as string,
      /modelId must be a positive integer/,
    );
    const f = { kind: 'training', series: 's', which: 'late' };
    assert.deepEqual(validateWebviewMessage({ id: 3, kind: 'filterProblems', filter: f }), {
      id: 3,
      kind: 'filterProblems',
      filter: f,
    });
    for (const bad of [
      { kind: 'training', series: 's', which: 'gained' },
      { kind: 'training', series: 3, which: 'lost' },
      { kind: 'training', series: 's', which: 'lost', extra: 1 },
      { kind: 'training', series: 'x'.repeat(4001), which: 'lost' },
    ])
      assert.equal(typeof validateWebviewMessage({ id: 3, kind: 'filterProblems', filter: bad }), 'string');
    assert.deepEqual(validatePanelState({ view: 'overview', tab: 'training' }), { view: 'overview', tab: 'training' });
    assert.match(validatePanelState({ view: 'overview', tab: 'x' }) as string, /state\.tab/);
  });
});

describe('the tree: checkpoints by step number, with their step; training filters', async () => {
  // One run folder: an SFT base and four checkpoints whose natural text order is not their step order.
  const dir = tempDir();
  const write = (name: string, revision: string, correct: boolean[][]) =>
    writeRollouts(
      join(dir, 'run', `${revision}.jsonl`),
      { name, revision },
      correct.map((v, qid) => [qid, v]),
      () => 'x',
    );
  write('org/sft', 'base', [
    [true, false],
    [false, false],
    [true, true],
  ]);
  write('org/grpo', 'ckpt-500', [
    [true, false],
    [false, false],
    [false, false],
  ]);
  write('org/grpo', 'ckpt-1k', [
    [false, false],
    [false, false],
    [true, false],
  ]);
  write('org/grpo', 'ckpt-1.5k', [
    [false, false],
    [true, false],
    [false, false],
  ]);
  write('org/grpo', 'ckpt-2k', [
    [false, false],
    [true, true],
    [false, false],
  ]);
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const models = index.models();
  const base = models.find((m) => m.name === 'org/sft')!;
  const steps = new Map<number, { step: number; series: string }>();
  for (const s of checkpointSeries(models).series)
    for (const st of s.steps) steps.set(st.model.id, { step: st.step, series: s.name });
  const session = {
    index,
    folder: { uri: { toString: () => 'file:///results' } },
    models: () => models,
    checkpointSteps: () => steps,
    baseModel: () => base,
    focusModel: () => models.find((m) => m.revision === 'ckpt-2k'),
    baseModelIsGuess: () => true,
    shortLabel: (m: { label: string }) => m.label,
  };
  type Item = { label: string; description?: string };
  type Tree = {
    mode: string;
    filter: unknown;
    getChildren(
      n?: unknown,
    ): { type: string; model?: { revision: string }; problem?: { id: number; problemId: string } }[];
    getTreeItem(n: unknown): Item;
    resolveFilter(s: unknown): unknown;
  };
  const { ProblemTreeProvider, describeFilter } = loadWithStub<{
    ProblemTreeProvider: new (g: () => unknown) => Tree;
    describeFilter: (f: unknown) => string;
  }>('../../src/extension/problemTree');

  test('natural text order would put ckpt-1.5k, 1k, 2k before 500; the tree lists steps 500, 1000, 1500, 2000', () => {
    assert.deepEqual(
      models.map((m) => m.revision),
      ['ckpt-1.5k', 'ckpt-1k', 'ckpt-2k', 'ckpt-500', 'base'],
      'the index order (natural) is not the step order',
    );
    const tree = new ProblemTreeProvider(() => session);
    tree.mode = 'model';
    const roots = tree.getChildren();
    assert.deepEqual(
      roots.map((n) => n.model!.revision),
      ['ckpt-500', 'ckpt-1k', 'ckpt-1.5k', 'ckpt-2k', 'base'],
    );
    assert.match(tree.getTreeItem(roots[0]).description!, /^step 500 · 3 problems/);
    assert.doesNotMatch(tree.getTreeItem(roots[4]).description!, /step/);
    tree.mode = 'problem';
    const problem = tree.getChildren()[0];
    // the base and the model in focus (step 2000) first, the other checkpoints behind 'N more models', by step
    const rows = tree.getChildren(problem);
    assert.deepEqual(
      rows.map((n) => n.model?.revision ?? n.type),
      ['base', 'ckpt-2k', 'moreModels'],
    );
    assert.deepEqual(
      // the figure first (trial 10 finding 4), then the role and the step
      rows.slice(0, 2).map((n) => tree.getTreeItem(n).description!.split(' · ').slice(0, 3).join(' · ')),
      ['1/2 · base', `${tree.getTreeItem(rows[1]).description!.split(' · ')[0]} · focus · step 2000`],
    );
    const more = tree.getChildren(rows[2]);
    assert.deepEqual(
      more.map((n) => n.model!.revision),
      ['ckpt-500', 'ckpt-1k', 'ckpt-1.5k'],
    );
    assert.deepEqual(
      more.map((n) => tree.getTreeItem(n).description!.split(' · ')[1]),
      ['step 500', 'step 1000', 'step 1500'],
    );
  });

  test('lost during training and solved only at late steps', () => {
    // c per step (500, 1000, 1500, 2000): q0 1,0,0,0 (lost); q1 0,0,1,2 (late: first at 1500); q2 0,1,0,0 (lost)
    const tree = new ProblemTreeProvider(() => session);
    const ids = (f: unknown) => {
      tree.filter = f;
      return (tree.resolveFilter(session) as { problemIds: number[] }).problemIds.map(
        (id) => index.problem(id)!.problemId,
      );
    };
    assert.deepEqual(ids({ kind: 'training', which: 'lost' }), ['0', '2']);
    assert.deepEqual(ids({ kind: 'training', which: 'late' }), ['1']);
    assert.deepEqual(ids({ kind: 'training', which: 'late', series: 'nope' }), []);
    assert.equal(describeFilter({ kind: 'training', which: 'lost' }), 'Lost during training');
    assert.equal(describeFilter({ kind: 'training', which: 'late', title: 'T' }), 'T');
  });
});
