/**
 * The overview's Splits tab (issue 35): its request and its tree filter through the webview protocol, its job
 * through the figures worker's protocol, and its data on real folders: the cells are the core's split matrix
 * (`buildSplitsReport`, what `report --splits` prints) unchanged, each split's problem row ids are its problems,
 * the folder's default kind and the kinds it has no split of; the job gives the same in the worker thread; the
 * heatmap's spec says each cell's estimate, interval, problems and n and marks the in-distribution cell.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { indexFolder } from '../../src/core/index/indexer';
import { guessBaseModel } from '../../src/core/index/labels';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildSplitsReport } from '../../src/core/analyses/splits';
import { defineSplits } from '../../src/core/analyses/splitDefinitions';
import { FiguresRunner } from '../../src/extension/figuresRunner';
import { runFiguresJob } from '../../src/extension/figuresWorker';
import { validateFiguresJob } from '../../src/extension/figuresWorkerProtocol';
import { resolveFilter } from '../../src/extension/panelData';
import { splitKindCounts, splitsData } from '../../src/extension/splitsData';
import { DEFAULT_CHART_THEME } from '../../src/shared/chartSpecs';
import { type SplitsData, validatePanelState, validateWebviewMessage } from '../../src/shared/protocol';
import { splitsHeatmapSpec } from '../../src/shared/splitsChartSpecs';
import { REAL, tempDir } from './helpers';

const RLVR = path.join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');
const QWEN = path.join(REAL, 'qwen25-math-eval-example');
const workerPath = path.resolve(__dirname, '../../src/extension/figuresWorker.js');

describe('the Splits tab through the protocols', () => {
  test('getSplits: an optional split kind the tab offers, nothing else', () => {
    assert.deepEqual(validateWebviewMessage({ id: 1, kind: 'getSplits' }), { id: 1, kind: 'getSplits' });
    const m = { id: 2, kind: 'getSplits', splits: 'cluster' };
    assert.deepEqual(validateWebviewMessage(m), m);
    assert.equal(
      validateWebviewMessage({ id: 3, kind: 'getSplits', splits: 'file:/etc/passwd' }),
      'getSplits: splits must be one of level, subject, dataset, cluster or absent',
    );
    assert.equal(
      validateWebviewMessage({ id: 4, kind: 'getSplits', splits: 'level', k: 3 }),
      'getSplits: unexpected field "k"',
    );
  });

  test("the tree's problems filter carries a bounded title, which reaches the tree", () => {
    const f = { kind: 'problems', problemIds: [3, 4], title: 'level 3: 2 problems' };
    assert.deepEqual(validateWebviewMessage({ id: 1, kind: 'filterProblems', filter: f }), {
      id: 1,
      kind: 'filterProblems',
      filter: f,
    });
    assert.equal(
      validateWebviewMessage({ id: 1, kind: 'filterProblems', filter: { ...f, title: 'x'.repeat(201) } }),
      'filterProblems: filter problems: title must be a string of at most 200 characters',
    );
    assert.equal(
      validateWebviewMessage({ id: 1, kind: 'filterProblems', filter: { ...f, title: 3 } }),
      'filterProblems: filter problems: title must be a string of at most 200 characters',
    );
    const index = TraceIndex.open(':memory:');
    try {
      assert.deepEqual(resolveFilter(index, { kind: 'problems', problemIds: [3, 4], title: 'level 3: 2 problems' }), f);
      assert.deepEqual(resolveFilter(index, { kind: 'problems', problemIds: [3] }), {
        kind: 'problems',
        problemIds: [3],
      });
    } finally {
      index.close();
    }
  });

  test('the overview remembers the Splits tab', () => {
    assert.deepEqual(validatePanelState({ view: 'overview', tab: 'splits' }), { view: 'overview', tab: 'splits' });
    assert.equal(
      validatePanelState({ view: 'overview', tab: 'split' }),
      'state.tab must be models, training, rewardModels or splits',
    );
  });

  test("the worker's splits job: roles, an optional kind the tab offers, nothing else", () => {
    assert.deepEqual(validateFiguresJob({ kind: 'splits', roles: { baseId: 2 } }), {
      kind: 'splits',
      roles: { baseId: 2 },
    });
    assert.deepEqual(validateFiguresJob({ kind: 'splits', roles: {}, splits: 'level' }), {
      kind: 'splits',
      roles: {},
      splits: 'level',
    });
    assert.equal(
      validateFiguresJob({ kind: 'splits', roles: {}, splits: 'file' }),
      'job splits: splits must be one of level, subject, dataset, cluster or absent',
    );
    assert.equal(validateFiguresJob({ kind: 'splits' }), 'job splits: roles must be an object');
    assert.equal(validateFiguresJob({ kind: 'splits', roles: {}, k: 4 }), 'job splits: unexpected field "k"');
  });
});

describe('the Splits tab on rlvr-probe-gsm8k (base and RL model, no levels: clusters)', {
  skip: !existsSync(RLVR),
}, () => {
  let index: TraceIndex;
  let dbPath: string;
  let baseId: number;
  let base: string;
  let d: SplitsData;

  before(async () => {
    dbPath = path.join(tempDir('ti-splits-tab-'), 'index.db');
    index = TraceIndex.open(dbPath);
    await indexFolder(index, RLVR);
    const models = index.models();
    const b = models[guessBaseModel(models)];
    baseId = b.id;
    base = b.displayId;
    d = await runFiguresJob(index, { kind: 'splits', roles: { baseId, baseIsChoice: true } });
  });

  after(() => index.close());

  test('without a kind the tab opens on content clusters, the folder having no level and no subject', () => {
    assert.equal(d.kind, 'cluster');
    assert.deepEqual(
      d.kinds.map((k) => [k.kind, k.splits]),
      [
        ['level', 0],
        ['subject', 0],
        ['dataset', 1],
        ['cluster', d.splits.length],
      ],
    );
    // the counts are the splits defineSplits forms
    for (const kind of ['level', 'subject', 'dataset'] as const)
      assert.equal(
        splitKindCounts(index).find((k) => k.kind === kind)?.splits,
        defineSplits(index, { kind }).splits.length,
        kind,
      );
  });

  test("the cells are the core's split matrix against the overview's base, unchanged", () => {
    const r = buildSplitsReport(index, { splits: { kind: 'cluster' }, base });
    assert.ok(base.includes('sft'), base);
    assert.equal(d.base, base);
    assert.equal(d.k, r.k);
    assert.deepEqual(d.cells, r.cells);
    assert.deepEqual(
      d.splits.map((s) => [s.name, s.label, s.problems]),
      r.splits.map((s) => [s.name, s.label, s.problems]),
    );
    assert.deepEqual(
      d.models.map((m) => m.name),
      r.models.map((m) => m.name),
    );
    assert.equal(d.cells.length, 2 * d.splits.length);
    // the RL model has a difference with the base on every split; the base's own row has none
    assert.ok(d.cells.filter((c) => c.model !== base).every((c) => c.relative?.passAt1.value !== null));
    assert.ok(d.cells.filter((c) => c.model === base).every((c) => c.relative === undefined));
    // a figure the CLI's docs quote (docs/splits.md): cluster 1, 66.3 [43.8, 85.0], 10/10 problems, n = 8
    const c1 = d.cells.find((c) => c.model !== base && c.split === '1')!;
    assert.deepEqual([c1.passAt1.value, c1.passAt1.ciLow, c1.passAt1.ciHigh], [0.6625, 0.4375, 0.85]);
    assert.deepEqual([c1.problems, c1.splitProblems, c1.n], [10, 10, { min: 8, max: 8 }]);
  });

  test("each split's problem row ids are its problems (the tree's filter)", () => {
    const r = buildSplitsReport(index, { splits: { kind: 'cluster' }, base });
    d.splits.forEach((s, i) => {
      assert.equal(s.problemRowIds.length, s.problems);
      assert.deepEqual(
        s.problemRowIds.map((id) => index.problem(id)?.problemId),
        r.splits[i].problemIds,
      );
    });
    const all = d.splits.flatMap((s) => s.problemRowIds);
    assert.equal(new Set(all).size, all.length, 'a problem is in one split at most');
    assert.equal(all.length + d.unassigned.problems, d.problems);
  });

  test('a kind the folder has no split of: no split, no cell, and why', async () => {
    const l = await runFiguresJob(index, { kind: 'splits', roles: { baseId }, splits: 'level' });
    assert.equal(l.kind, 'level');
    assert.deepEqual([l.splits, l.cells], [[], []]);
    assert.equal(l.unassigned.problems, 30);
    assert.equal(l.unassigned.why, 'no level');
  });

  test('the job in the worker thread gives what it gives in this thread', async () => {
    const runner = new FiguresRunner(workerPath);
    try {
      const stages: string[] = [];
      const off = await runner.run(
        'f|splits',
        { dbPath, index },
        { kind: 'splits', roles: { baseId, baseIsChoice: true }, splits: 'cluster' },
        (p) => stages.push(p.stage),
      );
      assert.equal(runner.usedWorker, true);
      assert.deepEqual(off, d);
      assert.ok(stages.includes('content clusters of the problem texts and the split matrix'), stages.join(' | '));
    } finally {
      await runner.dispose();
    }
  });

  test("the heatmap: one cell per model and split, its tooltip's estimate, interval, problems and n", () => {
    const spec = splitsHeatmapSpec(d, 'passAt1', DEFAULT_CHART_THEME);
    const rows = spec.data.values as Record<string, unknown>[];
    assert.equal(rows.length, d.cells.length);
    const c1 = rows.find((r) => r.model !== base && r.split === '1')!;
    assert.deepEqual(
      [c1.label, c1.estimate, c1.problems, c1.n, c1.splitIndex],
      ['66.3', '66.3 [43.8, 85.0]', '10/10', '8', 0],
    );
    assert.deepEqual(
      spec.encoding.x.sort,
      d.splits.map((s) => s.name),
    );
    // the models by the tree's short names, as in every view
    const baseLabel = d.models.find((m) => m.name === base)!.label;
    // the base's row first (a fresh user found it between the others)
    assert.deepEqual(spec.encoding.y.sort, [`base · ${baseLabel}`, d.models.find((m) => m.name !== base)!.label]);
    assert.deepEqual(spec.encoding.y.sort, ['base · sft@checkpoint-8-of-10', 'ppo@main']);
    // relative: the base's row is not drawn; a signed difference in percentage points
    const rel = splitsHeatmapSpec(d, 'relative', DEFAULT_CHART_THEME).data.values as Record<string, unknown>[];
    assert.equal(rel.length, d.splits.length);
    assert.ok(
      rel.every((r) => r.model !== base && /^[+-]\d+\.\d$/.test(r.label as string)),
      JSON.stringify(rel[0]),
    );
    assert.match(rel[0].test as string, /^p [\d.e-]+( \(exact\))?, Holm [\d.e-]+: (better|worse|within noise)$/);
    // the in-distribution cell is marked (here by hand: no model's name says what it was trained on)
    const trained: SplitsData = { ...d, cells: d.cells.map((c, i) => (i === 0 ? { ...c, inDistribution: true } : c)) };
    const t = splitsHeatmapSpec(trained, 'passAt1', DEFAULT_CHART_THEME).data.values as Record<string, unknown>[];
    assert.match(t[0].label as string, / \*$/);
    assert.equal(t.filter((r) => r.trained !== 'no').length, 1);
  });
});

describe('the Splits tab on qwen25-math-eval-example (one model, difficulty levels)', {
  skip: !existsSync(QWEN),
}, () => {
  test('levels by default, the core matrix, no base and no relative cell', async () => {
    const index = TraceIndex.open(':memory:');
    try {
      await indexFolder(index, QWEN);
      const only = index.models()[0].id;
      // the overview's roles name the only model as base: the matrix has none all the same
      const d = splitsData(index, { baseId: only });
      assert.equal(d.kind, 'level');
      assert.equal(d.base, null);
      assert.deepEqual(
        d.splits.map((s) => [s.label, s.problems]),
        [
          ['level 1', 11],
          ['level 2', 16],
          ['level 3', 24],
          ['level 4', 24],
          ['level 5', 25],
        ],
      );
      assert.deepEqual(d.cells, buildSplitsReport(index, { splits: { kind: 'level' } }).cells);
      assert.ok(d.cells.every((c) => c.relative === undefined));
      assert.equal(d.kinds.find((k) => k.kind === 'cluster')?.splits, null, 'clusters are not computed unless chosen');
    } finally {
      index.close();
    }
  });
});
