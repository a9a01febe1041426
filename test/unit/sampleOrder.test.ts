/**
 * Next / Previous Sample and Problem, Next Unannotated Sample (src/extension/sampleOrder.ts) on the
 * real rlvr-probe-gsm8k folder. The expected walks are recomputed from the raw rollout files: the
 * problems a model never solves (or solves at most a fraction of the time) in qid order, and within a
 * problem its correct rollouts, then its incorrect ones, each by rollout index.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { type ModelRow, type ProblemFilter, TraceIndex } from '../../src/core/index/traceIndex';
import {
  type Cursor,
  nextUnannotatedWrapping,
  positionOf,
  problemPickItems,
  type Step,
  stepFrom,
  type TreeOrder,
} from '../../src/extension/sampleOrder';
import { REAL } from './helpers';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_1024_cuda');

/** qid -> verdict of each rollout, straight from the raw file. */
function raw(file: string): Map<number, boolean[]> {
  const out = new Map<number, boolean[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { qid: number; rollouts: { correct: boolean }[] };
    out.set(
      r.qid,
      r.rollouts.map((x) => x.correct),
    );
  }
  return out;
}

/** The walk a reader expects: for each problem kept by `keep`, its rollouts with the kept verdicts, correct first. */
function expectedWalk(
  verdicts: Map<number, boolean[]>,
  keep: (v: boolean[]) => boolean,
  kinds: boolean[],
): [number, number][] {
  const out: [number, number][] = [];
  for (const qid of [...verdicts.keys()].sort((a, b) => a - b)) {
    const v = verdicts.get(qid)!;
    if (!keep(v)) continue;
    for (const want of kinds) for (const [i, c] of v.entries()) if (c === want) out.push([qid, i]);
  }
  return out;
}

describe('stepping through samples in the tree order (rlvr-probe-gsm8k, results_1024_cuda)', () => {
  let index: TraceIndex;
  let rl: ModelRow;
  const rlRaw = raw(join(RUN, 'rl_raw.jsonl'));

  before(async () => {
    index = TraceIndex.open(':memory:');
    await indexFolder(index, RUN);
    rl = index.models().find((m) => m.name.includes('rlvr-ppo'))!;
    assert.ok(rl);
  });
  after(() => index?.close());

  const orderOf = (filter: ProblemFilter, verdicts: (boolean | null)[] = [true, false, null]): TreeOrder => ({
    problems: () => index.listProblems(filter, 0, 1_000_000).map((p) => p.id),
    verdicts,
  });
  const key = (id: number): [number, number] => {
    const s = index.sample(id)!;
    return [Number(index.problem(s.problemId)!.problemId), s.sampleIndex];
  };
  /** Steps `how` from `from` until the walk ends; the samples visited, as [qid, rollout index]. */
  const walk = (order: TreeOrder, from: Cursor, how: Step): [number, number][] => {
    const seen: [number, number][] = [];
    let cur = from;
    for (let guard = 0; guard < 10_000; guard++) {
      const next = stepFrom(index, order, cur, how);
      if (!next) return seen;
      seen.push(key(next.id));
      cur = { sampleId: next.id };
    }
    throw new Error('the walk does not end');
  };

  test('Next Sample through the failing problems: every failing sample once, in tree order, then the end', () => {
    const order = orderOf({ kind: 'failing', model: rl.id });
    const expected = expectedWalk(rlRaw, (v) => v.every((c) => !c), [true, false]);
    assert.deepEqual(
      [...new Set(expected.map(([q]) => q))],
      [12, 22, 23],
      'the folder README: qids 12, 22, 23 are never solved',
    );
    const first = order.problems(rl.id)[0];
    const forward = walk(order, { problemId: first, modelId: rl.id }, 'next');
    assert.deepEqual(forward, expected);
    assert.equal(forward.length, 24);
    // Previous Sample from the last one walks back the same way.
    const lastId = index.findSample(
      index.problem(order.problems(rl.id)[2])!.key,
      rl.key,
      expected[expected.length - 1][1],
    )!;
    assert.deepEqual(walk(order, { sampleId: lastId }, 'previous'), expected.slice(0, -1).reverse());
  });

  test('the whole folder order: correct samples before incorrect ones within a problem, problems in qid order', () => {
    const order = orderOf({ kind: 'all' });
    const first = order.problems(rl.id)[0];
    assert.deepEqual(
      walk(order, { problemId: first, modelId: rl.id }, 'next'),
      expectedWalk(rlRaw, () => true, [true, false]),
    );
  });

  test('Next / Previous Problem go to the first sample of the neighbouring problem', () => {
    const order = orderOf({ kind: 'failing', model: rl.id });
    const first = order.problems(rl.id)[0];
    const start = stepFrom(index, order, { problemId: first, modelId: rl.id }, 'next')!;
    assert.deepEqual(key(start.id), [12, 0]);
    const mid = stepFrom(index, order, { sampleId: start.id }, 'next')!;
    assert.deepEqual(walk(order, { sampleId: mid.id }, 'nextProblem'), [
      [22, 0],
      [23, 0],
    ]);
    const last = stepFrom(index, order, { sampleId: start.id }, 'nextProblem')!;
    const inLast = stepFrom(
      index,
      order,
      { sampleId: stepFrom(index, order, { sampleId: last.id }, 'nextProblem')!.id },
      'next',
    )!;
    assert.deepEqual(key(inLast.id), [23, 1]);
    assert.deepEqual(walk(order, { sampleId: inLast.id }, 'previousProblem'), [
      [22, 0],
      [12, 0],
    ]);
  });

  /** The id of the RL model's sample `i` of problem qid `q`. */
  const at = (q: number, i: number) =>
    index.findSample(
      index.listProblems({ kind: 'all' }, 0, 100).find((p) => p.problemId === String(q))!.key,
      rl.key,
      i,
    )!;

  test('Next Unannotated Sample skips samples with labels or a note', () => {
    const order = orderOf({ kind: 'failing', model: rl.id });
    const store = new AnnotationStore(index);
    for (const i of [1, 2, 3]) store.set(store.refOf(at(12, i))!, ['lucky guess'], '');
    store.set(store.refOf(at(12, 5))!, [], 'a note only');
    const got = walk(order, { sampleId: at(12, 0) }, 'nextUnannotated').slice(0, 4);
    assert.deepEqual(got, [
      [12, 4],
      [12, 6],
      [12, 7],
      [22, 0],
    ]);
    for (const i of [1, 2, 3, 5]) store.remove(store.refOf(at(12, i))!);
  });

  test('Next Unannotated wraps to the first unannotated sample of the list (trial 4 finding 9)', () => {
    const order = orderOf({ kind: 'failing', model: rl.id });
    const store = new AnnotationStore(index);
    // the failing list is qids 12, 22, 23 with 8 rollouts each (all incorrect, by index); 12's 0 and 1 labelled
    for (const i of [0, 1]) store.set(store.refOf(at(12, i))!, ['lucky guess'], '');
    const last = at(23, 7);
    assert.equal(stepFrom(index, order, { sampleId: last }, 'nextUnannotated'), undefined);
    const w = nextUnannotatedWrapping(index, order, { sampleId: last })!;
    assert.equal(w.wrapped, true);
    assert.deepEqual(key(w.sample.id), [12, 2]);
    // not at the end: no wrap
    const mid = nextUnannotatedWrapping(index, order, { sampleId: at(22, 3) })!;
    assert.deepEqual([key(mid.sample.id), mid.wrapped], [[22, 4], false]);
    // every other sample labelled: nothing to wrap to but the sample itself
    const all = [12, 22, 23].flatMap((q) => Array.from({ length: 8 }, (_, i) => at(q, i)));
    for (const id of all) if (id !== last) store.set(store.refOf(id)!, ['lucky guess'], '');
    assert.equal(nextUnannotatedWrapping(index, order, { sampleId: last }), undefined);
    for (const id of all) if (id !== last) store.remove(store.refOf(id)!);
  });

  test('the lucky-guess queue (results_2048_batched): correct samples only, on problems solved at most 1 in 8', async () => {
    const run = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');
    const idx = TraceIndex.open(':memory:');
    await indexFolder(idx, run);
    const model = idx.models().find((m) => m.name.includes('rlvr-ppo'))!;
    const threshold = 0.125;
    const order: TreeOrder = {
      problems: () =>
        idx.listProblems({ kind: 'luckyGuess', model: model.id, threshold }, 0, 1_000_000).map((p) => p.id),
      verdicts: [true],
    };
    const keep = (v: boolean[]) => {
      const c = v.filter(Boolean).length;
      return c > 0 && c / v.length <= threshold;
    };
    const expected = expectedWalk(raw(join(run, 'rl_raw.jsonl')), keep, [true]);
    assert.deepEqual([...new Set(expected.map(([q]) => q))], [12, 22], 'qids 12 and 22: one correct rollout of 8 each');
    const seen: [number, number][] = [];
    let cur: Cursor = { problemId: order.problems(model.id)[0], modelId: model.id };
    for (let next = stepFrom(idx, order, cur, 'next'); next; next = stepFrom(idx, order, cur, 'next')) {
      const s = idx.sample(next.id)!;
      seen.push([Number(idx.problem(s.problemId)!.problemId), s.sampleIndex]);
      assert.equal(s.correct, true);
      cur = { sampleId: next.id };
    }
    assert.deepEqual(seen, expected);
    idx.close();
  });

  test('positionOf: place of the problem in the list and of the sample within its problem; undefined outside the list', () => {
    const order = orderOf({ kind: 'failing', model: rl.id });
    const second = order.problems(rl.id)[1];
    const s = stepFrom(index, order, { problemId: second, modelId: rl.id }, 'next')!;
    const three = stepFrom(index, order, { sampleId: stepFrom(index, order, { sampleId: s.id }, 'next')!.id }, 'next')!;
    assert.deepEqual(positionOf(index, order, three.id), { problem: 2, problems: 3, sample: 3, samples: 8 });
    const solved = index.listProblems({ kind: 'all' }, 0, 1)[0];
    const outside = index.samples(solved.id, rl.id, { limit: 1 })[0];
    assert.equal(positionOf(index, order, outside.id), undefined);
    // a sample outside the list steps from the start of the list
    assert.deepEqual(key(stepFrom(index, order, { sampleId: outside.id }, 'next')!.id), [12, 0]);
  });
});

describe('Open Problem View from the palette (trial 4 finding 12: the selected tree row was ignored)', () => {
  const rows = [
    { id: 7, problemId: '0', dataset: 'gsm8k', question: 'How many\n apples?' },
    { id: 8, problemId: '1', dataset: 'gsm8k', question: null },
    { id: 9, problemId: '2', dataset: '', question: 'x' },
  ];
  test('the problem selected in the tree is the first item, described as selected; the others keep their order', () => {
    const items = problemPickItems(rows, 9);
    assert.deepEqual(
      items.map((i) => [i.id, i.label, i.description]),
      [
        [9, '2', 'selected in the Problems tree'],
        [7, '0', 'gsm8k'],
        [8, '1', 'gsm8k'],
      ],
    );
    assert.equal(problemPickItems(rows, 8)[0].description, 'selected in the Problems tree · gsm8k');
    assert.equal(items[1].detail, 'How many apples?');
  });
  test('nothing selected, or a selection not in the list: the list order', () => {
    for (const sel of [undefined, 42])
      assert.deepEqual(
        problemPickItems(rows, sel).map((i) => i.id),
        [7, 8, 9],
      );
  });
});
