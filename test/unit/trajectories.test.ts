import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { bootstrapRatioOfSums, mulberry32 } from '../../src/core/metrics/bootstrap';
import { correctSampleGain, positiveGainShare } from '../../src/core/metrics/gains';
import { buildReport } from '../../src/core/report/index';
import {
  compileStepPattern,
  DEFAULT_STEP_PATTERN,
  detectSeries,
  maskSteps,
  parseStepNumber,
  stepOf,
} from '../../src/core/grouping/series';
import {
  clusterOrder,
  computeTrajectories,
  followProblem,
  trajectoryFilter,
} from '../../src/core/analyses/trajectories';
import { REAL, tempDir, writeRollouts } from './helpers';

const TRAJ = join(REAL, 'rlvr-probe-gsm8k', 'trajectory');
const STEPS = [100, 300, 500, 1000];

const model = (id: number, run: string, name: string, revision: string | null = null) => ({ id, run, name, revision });

describe('step numbers and the step pattern', () => {
  test('every spelling of a checkpoint gives its step number', () => {
    const cases: [string, number][] = [
      ['step-100', 100],
      ['step_100', 100],
      ['step100', 100],
      ['Step-100', 100],
      ['STEP_100', 100],
      ['steps=40', 40],
      ['checkpoint-500', 500],
      ['Checkpoint_500', 500],
      ['global_step_300', 300],
      ['global_step300', 300],
      ['global-step-300', 300],
      ['iter_0001000', 1000],
      ['iter-20', 20],
      ['iteration_20', 20],
      ['ckpt-2k', 2000],
      ['ckpt_1.5k', 1500],
      ['ckpt-2K', 2000],
      ['ckpt-1m', 1_000_000],
      ['run3/global_step_300/actor', 300],
      ['qwen-grpo-step-700', 700],
      ['qwen_step_700_seed1', 700],
      // what training tools write (trial 3, finding 14: the siblings of each spelling)
      ['checkpoint-500/pytorch_model.bin', 500], // HF Trainer, TRL
      ['global_step10', 10], // OpenRLHF / DeepSpeed tags
      ['checkpoints/global_step_100/actor', 100], // verl
      ['iter_0001000/mp_rank_00', 1000], // Megatron-LM
      ['megatron_gpt--val_loss=1.23-step=1000-consumed_samples=8000', 1000], // NeMo
      ['epoch=2-step=1000.ckpt', 1000], // Lightning: the step wins over the epoch
      ['pythia-1b@step143000', 143000], // Hugging Face revisions (Pythia)
      ['stage1-step5000-tokens21B', 5000], // OLMo revisions
      ['step500', 500],
      ['step_500', 500],
      ['ckpt-2500', 2500],
    ];
    const re = compileStepPattern();
    for (const [text, step] of cases) {
      const m = stepOf(model(1, '', text), re);
      assert.equal(m?.step, step, text);
      assert.equal(m?.unit, 'step', text);
    }
  });

  test('epoch spellings are checkpoints numbered by epoch (trial 3, finding 14)', () => {
    const re = compileStepPattern();
    const cases: [string, number][] = [
      ['epoch_3', 3],
      ['epoch-3', 3],
      ['epoch3', 3],
      ['Epoch_3', 3],
      ['epoch=3', 3],
      ['epochs_3', 3],
      ['ep3', 3],
      ['ep_03', 3],
      ['qwen-sft-epoch_12', 12],
      ['runs/epoch-2/model', 2],
    ];
    for (const [text, n] of cases) {
      const m = stepOf(model(1, '', text), re);
      assert.deepEqual(m && { step: m.step, unit: m.unit }, { step: n, unit: 'epoch' }, text);
    }
    for (const text of ['deep3', 'epochal', 'rep3', 'ep3b', 'epoch-', 'step3ep'])
      assert.equal(stepOf(model(1, '', text), re), null, text);
    // an epoch in the revision beats a step in the run folder (revision, name, run: the first field that has one)
    assert.deepEqual(stepOf(model(1, 'global_step_5', 'm', 'epoch_2'), re), {
      step: 2,
      unit: 'epoch',
      field: 'revision',
      token: 'epoch_2',
    });
    assert.equal(maskSteps('run/epoch_3/ep4-step-100', re), 'run/epoch_*/ep*-step-*');
  });

  test('names that only look like steps are not checkpoints', () => {
    const re = compileStepPattern();
    for (const text of [
      'qwen-2.5-1.5b',
      'mystep-3',
      'stepwise',
      'Qwen2.5-Math-7B',
      'step-',
      'checkpoints',
      'ckpt-1.2345k',
      'step-12b',
      'main',
    ])
      assert.equal(stepOf(model(1, '', text), re), null, text);
  });

  test('the revision wins over the name and the run folder', () => {
    const re = compileStepPattern();
    assert.deepEqual(stepOf(model(1, 'step-5', 'm-step-7', 'step-9'), re), {
      step: 9,
      unit: 'step',
      field: 'revision',
      token: 'step-9',
    });
    assert.equal(stepOf(model(1, 'step-5', 'm-step-7', 'main'), re)?.field, 'name');
    assert.deepEqual(stepOf(model(1, 'runs/step-5', 'm', null), re), {
      step: 5,
      unit: 'step',
      field: 'run',
      token: 'step-5',
    });
  });

  test('parseStepNumber', () => {
    assert.equal(parseStepNumber('0001000'), 1000);
    assert.equal(parseStepNumber('2k'), 2000);
    assert.equal(parseStepNumber('1.5K'), 1500);
    assert.equal(parseStepNumber('0.3k'), 300);
    assert.equal(parseStepNumber('3m'), 3_000_000);
    assert.equal(parseStepNumber('1.2345k'), null);
    assert.equal(parseStepNumber('12b'), null);
    assert.equal(parseStepNumber(''), null);
  });

  test('masking replaces only the number of each step token', () => {
    const re = compileStepPattern();
    assert.equal(maskSteps('trajectory/step-100', re), 'trajectory/step-*');
    assert.equal(maskSteps('global_step_300/ckpt-2k', re), 'global_step_*/ckpt-*');
    assert.equal(maskSteps('qwen-2.5-1.5b', re), 'qwen-2.5-1.5b');
  });

  test('a custom pattern: its first group is the step; without a group the first digits; invalid ones are errors', () => {
    const withGroup = compileStepPattern('epoch(\\d+)');
    assert.equal(stepOf(model(1, '', 'run-epoch12-seed3'), withGroup)?.step, 12);
    assert.equal(stepOf(model(1, '', 'step-100'), withGroup), null, 'the custom pattern replaces the default');
    const noGroup = compileStepPattern('e\\d+');
    assert.equal(stepOf(model(1, '', 'run-e7'), noGroup)?.step, 7);
    assert.throws(() => compileStepPattern('('), /invalid step pattern "\(":/);
    assert.equal(compileStepPattern('  ').source, new RegExp(DEFAULT_STEP_PATTERN, 'i').source);
  });
});

describe('series detection', () => {
  test('checkpoints of one run form a series in step order (numbers, not text: 300 before 1000)', () => {
    const models = [
      model(1, 'step-1000', 'ppo', 'step-1000'),
      model(2, 'step-300', 'ppo', 'step-300'),
      model(3, 'step-100', 'ppo', 'step-100'),
      model(4, 'step-100', 'sft', 'checkpoint-8-of-10'),
      model(5, 'step-300', 'sft', 'checkpoint-8-of-10'),
      model(6, 'final', 'ppo', 'main'),
    ];
    const { series, warnings } = detectSeries(models, { exclude: new Set([4, 5]) });
    assert.equal(series.length, 1);
    assert.equal(series[0].name, 'step-*:ppo@step-*');
    assert.deepEqual(
      series[0].steps.map((s) => [s.step, s.model.id]),
      [
        [100, 3],
        [300, 2],
        [1000, 1],
      ],
    );
    assert.deepEqual(warnings, []);
  });

  test('the same model at several checkpoints in several spellings of layout', () => {
    // qwen-math layout: the model is the folder path (run ""), the step is in the name
    const a = detectSeries([
      model(1, '', 'ckpts/grpo/global_step_300'),
      model(2, '', 'ckpts/grpo/global_step_100'),
      model(3, '', 'ckpts/ppo/global_step_100'),
    ]);
    assert.deepEqual(
      a.series.map((s) => [s.name, s.steps.map((x) => x.step)]),
      [['ckpts/grpo/global_step_*', [100, 300]]],
    );
    // path-named models, step in the run folder
    const b = detectSeries([
      model(1, 'exp/iter_0000200', 'samples'),
      model(2, 'exp/iter_0001000', 'samples'),
      model(3, 'exp/iter_0000050', 'samples'),
    ]);
    assert.deepEqual(b.series[0].name, 'exp/iter_*:samples');
    assert.deepEqual(
      b.series[0].steps.map((x) => x.step),
      [50, 200, 1000],
    );
    // ckpt-2k sorts after ckpt-500
    const c = detectSeries([model(1, '', 'm', 'ckpt-2k'), model(2, '', 'm', 'ckpt-500')]);
    assert.deepEqual(
      c.series[0].steps.map((x) => x.step),
      [500, 2000],
    );
  });

  test('one checkpoint is no series; bases are never steps; a step held twice is left out with a warning', () => {
    assert.equal(detectSeries([model(1, '', 'm', 'step-1'), model(2, '', 'n', 'step-2')]).series.length, 0);
    assert.equal(
      detectSeries([model(1, '', 'm', 'step-1'), model(2, '', 'm', 'step-2')], { exclude: new Set([2]) }).series.length,
      0,
    );
    const d = detectSeries([
      model(1, '', 'm', 'step-1'),
      model(2, '', 'm', 'step-2'),
      model(3, '', 'm', 'step-3'),
      model(4, '', 'm', 'step_3'),
    ]);
    assert.equal(d.series.length, 1, 'step-3 and step_3 mask differently: two groups, only one a series');
    const e = detectSeries([
      model(1, 'a', 'm', 'step-1'),
      model(2, 'a', 'm', 'step-2'),
      model(3, 'a', 'm', 'step-2.0k'),
      model(4, 'a', 'm', 'step-2000'),
    ]);
    assert.deepEqual(
      e.series.map((s) => s.steps.map((x) => x.step)),
      [[1, 2]],
      'step-2.0k and step-2000 are both step 2000 of one group: ambiguous, left out',
    );
    assert.equal(e.warnings.length, 1);
    const f = detectSeries([
      model(1, 'x', 'm', 'step-1'),
      model(2, 'y/step-1', 'm', 'step-1'),
      model(3, 'x', 'm', 'step-2'),
    ]);
    assert.deepEqual(
      f.series.map((s) => s.steps.map((x) => x.model.id)),
      [[1, 3]],
    );
    const g = detectSeries([
      model(1, 'r', 'm', 'step-1'),
      model(2, 'r', 'm', 'Step-1'),
      model(3, 'r', 'm', 'step-2'),
      model(4, 'r', 'm', 'step-3'),
    ]);
    assert.equal(g.series.length, 1);
    assert.equal(g.warnings.length, 0, 'Step-1 masks to Step-*: its own group');
  });

  test('epochs form a series of their own; a group mixing epochs and steps keeps one unit and says so', () => {
    const a = detectSeries([
      model(1, 'sft', 'm', 'epoch_3'),
      model(2, 'sft', 'm', 'epoch_1'),
      model(3, 'sft', 'm', 'epoch_2'),
    ]);
    assert.deepEqual(
      a.series.map((s) => [s.name, s.unit, s.steps.map((x) => x.step)]),
      [['sft:m@epoch_*', 'epoch', [1, 2, 3]]],
    );
    assert.deepEqual(a.warnings, []);
    // epoch_N and step-N never share a group: their masks differ (two series, each with its unit)
    const b = detectSeries([
      model(1, 'r', 'm-epoch_1'),
      model(2, 'r', 'm-epoch_2'),
      model(3, 'r', 'm-step-100'),
      model(4, 'r', 'm-step-200'),
    ]);
    assert.deepEqual(
      b.series.map((s) => [s.name, s.unit]),
      [
        ['r:m-epoch_*', 'epoch'],
        ['r:m-step-*', 'step'],
      ],
    );
    // same mask, different units: ckpt-1.2345k is no step number, so that model falls back to its epoch
    const c = detectSeries([
      model(1, 'r', 'm', 'epoch_1-ckpt-1.5k'),
      model(2, 'r', 'm', 'epoch_2-ckpt-1.2345k'),
      model(3, 'r', 'm', 'epoch_3-ckpt-2k'),
    ]);
    assert.deepEqual(
      c.series.map((s) => [s.unit, s.steps.map((x) => x.model.id)]),
      [['step', [1, 3]]],
    );
    assert.equal(c.warnings.length, 1);
    assert.match(
      c.warnings[0],
      /1 model\(s\) are numbered by epoch \(r:m@epoch_2-ckpt-1\.2345k: epoch_2\) and 2 by step; epochs and steps are not put on one axis/,
    );
  });

  test('models that differ only in a number but have no step token are reported, not silently left out', () => {
    const a = detectSeries([model(1, 'run', 'ck100'), model(2, 'run', 'ck200'), model(3, 'run', 'ck300')]);
    assert.equal(a.series.length, 0);
    assert.equal(a.warnings.length, 1);
    assert.match(
      a.warnings[0],
      /^3 models differ only in a number \(run:ck100, run:ck200, run:ck300\) but are not read as checkpoints of one run: no step or epoch token/,
    );
    assert.match(a.warnings[0], /--step-pattern/);
    const e = detectSeries([model(1, '', 'sft-e1'), model(2, '', 'sft-e2'), model(3, '', 'base')], {
      exclude: new Set([3]),
    });
    assert.equal(e.warnings.length, 1, 'sft-e1 / sft-e2');
    // sizes, seeds and shards are not checkpoint numbers; a single model is no run; recognised steps are a series
    for (const names of [
      ['qwen-7b', 'qwen-14b'],
      ['qwen-1.5b', 'qwen-7b'],
      ['m-seed1', 'm-seed2'],
      ['m_shard_0', 'm_shard_1'],
      ['ck100'],
      ['m-step-1', 'm-step-2'],
      ['m-epoch_1', 'm-epoch_2'],
    ]) {
      const r = detectSeries(names.map((n, i) => model(i + 1, 'run', n)));
      assert.deepEqual(r.warnings, [], names.join(' '));
    }
    // with a custom step pattern that reads them, they are a series and nothing is reported
    const custom = detectSeries([model(1, 'run', 'ck100'), model(2, 'run', 'ck200')], { pattern: 'ck(\\d+)' });
    assert.deepEqual(
      custom.series.map((s) => s.steps.map((x) => x.step)),
      [[100, 200]],
    );
    assert.deepEqual(custom.warnings, []);
  });

  test('a step held by two models of one group is ambiguous', () => {
    const d = detectSeries([
      model(1, 'a', 'm', 'step-1'),
      model(2, 'a', 'm', 'step-2'),
      model(3, 'a', 'm', 'step-3'),
      model(4, 'a', 'm', 'step-03'),
    ]);
    assert.deepEqual(
      d.series[0].steps.map((x) => x.model.id),
      [1, 2],
    );
    assert.equal(d.warnings.length, 1);
    assert.match(d.warnings[0], /step 3 is held by 2 models \(a:m@step-3, a:m@step-03\); they are left out/);
  });
});

describe('positive-gain share and the ratio bootstrap', () => {
  test('gains in correct samples: equal n, ragged n, n = 0', () => {
    assert.equal(correctSampleGain({ problemKey: 'a', base: { n: 8, c: 3 }, model: { n: 8, c: 6 } }), 3);
    assert.equal(correctSampleGain({ problemKey: 'a', base: { n: 4, c: 1 }, model: { n: 8, c: 4 } }), 2);
    assert.equal(correctSampleGain({ problemKey: 'a', base: { n: 0, c: 0 }, model: { n: 8, c: 4 } }), null);
  });

  test('share by hand: 3 + 2 from sharpening, 1 from expansion, regressions do not count', () => {
    const g = positiveGainShare(
      [
        { problemKey: '1', base: { n: 8, c: 3 }, model: { n: 8, c: 6 } },
        { problemKey: '2', base: { n: 8, c: 1 }, model: { n: 8, c: 3 } },
        { problemKey: '3', base: { n: 8, c: 0 }, model: { n: 8, c: 1 } },
        { problemKey: '4', base: { n: 8, c: 7 }, model: { n: 8, c: 2 } },
        { problemKey: '5', base: { n: 8, c: 0 }, model: { n: 8, c: 0 } },
      ],
      { replicates: 500 },
    );
    assert.equal(g.sharpening, 5 / 6);
    assert.equal(g.expansion, 1 / 6);
    assert.deepEqual([g.gainFromSharpening, g.gainFromExpansion, g.problems, g.gainedProblems], [5, 1, 5, 3]);
    assert.ok(g.ciLow! <= g.sharpening! && g.sharpening! <= g.ciHigh!);
    assert.ok(g.replicates > 0 && g.replicates <= 500);
  });

  test('no positive gain: shares and interval are null', () => {
    const g = positiveGainShare([{ problemKey: '1', base: { n: 8, c: 3 }, model: { n: 8, c: 2 } }]);
    assert.deepEqual([g.sharpening, g.expansion, g.ciLow, g.ciHigh, g.replicates], [null, null, null, null, 0]);
  });

  test('ratio bootstrap drops replicates with a zero denominator and equals an independent resampling', () => {
    const num = [0, 2, 1];
    const den = [0, 2, 4];
    const r = bootstrapRatioOfSums(num, den, { replicates: 300, seed: 9 });
    const rand = mulberry32(9);
    const reps: number[] = [];
    for (let i = 0; i < 300; i++) {
      let a = 0;
      let b = 0;
      for (let j = 0; j < 3; j++) {
        const x = Math.floor(rand() * 3);
        a += num[x];
        b += den[x];
      }
      if (b !== 0) reps.push(a / b);
    }
    assert.equal(r.value, 3 / 6);
    assert.equal(r.replicates, reps.length);
    assert.ok(reps.length < 300, 'some replicates drew only the problem with a zero denominator');
    assert.equal(r.ciLow, quantile7(reps, 0.025));
    assert.equal(r.ciHigh, quantile7(reps, 0.975));
    assert.deepEqual(bootstrapRatioOfSums([], []), { value: null, ciLow: null, ciHigh: null, replicates: 0 });
    assert.throws(() => bootstrapRatioOfSums([1], [1, 2]), /aligned/);
  });
});

describe('following a problem across steps', () => {
  const steps = [100, 300, 500, 1000];
  test('first solved, lost at, pattern', () => {
    assert.deepEqual(followProblem([0, 0, 2, 5], steps), { firstSolvedStep: 500, lostAtStep: null, pattern: 'gained' });
    // lost at the first step of the final unsolved run (500), not the last unsolved step (trial 3 finding 7)
    assert.deepEqual(followProblem([3, 1, 0, 0], steps), { firstSolvedStep: 100, lostAtStep: 500, pattern: 'lost' });
    assert.deepEqual(followProblem([3, 0, 2, 0], steps), {
      firstSolvedStep: 100,
      lostAtStep: 1000,
      pattern: 'flip-flop',
    });
    // solved again at the end: not lost
    assert.deepEqual(followProblem([3, 0, 2, 2], steps), {
      firstSolvedStep: 100,
      lostAtStep: null,
      pattern: 'flip-flop',
    });
    assert.deepEqual(followProblem([1, 8, 8, 8], steps), { firstSolvedStep: 100, lostAtStep: null, pattern: 'always' });
    assert.deepEqual(followProblem([0, 0, 0, 0], steps), { firstSolvedStep: null, lostAtStep: null, pattern: 'never' });
    // a step without graded samples is skipped, not read as unsolved
    assert.deepEqual(followProblem([2, null, 2, 2], steps), {
      firstSolvedStep: 100,
      lostAtStep: null,
      pattern: 'always',
    });
  });

  test('heatmap order clusters gained, lost, flip-flopping, always and never solved problems', () => {
    const p = (c: number[]) => {
      const f = followProblem(c, steps);
      return {
        problemId: c.join(''),
        dataset: 'd',
        correctByStep: c,
        nByStep: c.map(() => 8),
        baseCorrectByStep: c.map(() => null),
        baseNByStep: c.map(() => 0),
        ...f,
      };
    };
    const problems = [
      p([0, 0, 0, 0]),
      p([8, 8, 8, 8]),
      p([1, 4, 4, 8]),
      p([3, 0, 2, 0]),
      p([0, 0, 0, 5]),
      p([2, 0, 0, 0]),
      p([0, 1, 1, 1]),
      p([2, 0, 2, 0]),
      p([2, 0, 2, 2]),
    ];
    assert.deepEqual(
      clusterOrder(problems).map((i) => problems[i].problemId),
      ['0111', '0005', '2000', '3020', '2020', '2022', '1448', '8888', '0000'],
    );
  });
});

/** numpy's default percentile (type 7), written out here independently of the core. */
function quantile7(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo] + (h - lo) * (s[Math.min(lo + 1, s.length - 1)] - s[lo]);
}

/** One raw rollout file read straight from disk: per qid, n, c and each rollout's text length. */
function rawFile(file: string): Map<string, { n: number; c: number; lengths: number[] }> {
  const out = new Map<string, { n: number; c: number; lengths: number[] }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { qid: number; rollouts: { correct: boolean; text: string }[] };
    out.set(String(r.qid), {
      n: r.rollouts.length,
      c: r.rollouts.filter((x) => x.correct === true).length,
      lengths: r.rollouts.map((x) => [...x.text].length),
    });
  }
  return out;
}

/**
 * An independent paired percentile bootstrap over problems: the same PRNG (mulberry32, seed 12345) and
 * draw order as the core (one list of problem indices per replicate), everything else written here.
 */
/**
 * The seeded bootstrap of src/core/metrics (mulberry32, seed 12345, type-7 percentiles), drawing problems as
 * its resampler does for few problems (resample.ts): uniform draws into the problems listed by their
 * sufficient statistic's key (code-unit order; ties in problem order).
 */
function bootstrapStat(
  m: number,
  key: (i: number) => string,
  stat: (idx: number[]) => number | null,
  replicates = 2000,
): [number, number] {
  const order = [...Array(m).keys()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b));
  const rand = mulberry32(12345);
  const reps: number[] = [];
  for (let r = 0; r < replicates; r++) {
    const idx: number[] = [];
    for (let i = 0; i < m; i++) idx.push(order[Math.floor(rand() * m)]);
    const v = stat(idx);
    if (v !== null) reps.push(v);
  }
  return [quantile7(reps, 0.025), quantile7(reps, 0.975)];
}

describe('trajectories of the real run rlvr-probe-gsm8k/trajectory, recomputed from the raw rollouts', async () => {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, TRAJ);
  const report = buildReport(index);
  const raw = STEPS.map((s) => ({
    rl: rawFile(join(TRAJ, `step-${s}`, 'rl_raw.jsonl')),
    sft: rawFile(join(TRAJ, `step-${s}`, 'sft_raw.jsonl')),
    summary: JSON.parse(readFileSync(join(TRAJ, `step-${s}`, 'summary.json'), 'utf8')) as {
      metrics: Record<string, number>;
      paired_bootstrap: { positive_gain_share_sharpening: Record<string, number> };
    },
  }));
  const t = report.trajectories[0];

  test('one series: the PPO model at steps 100, 300, 500, 1000, each against the SFT model of its own folder', () => {
    assert.equal(report.trajectories.length, 1);
    assert.equal(t.name, 'step-*:expx/qwen-2.5-1.5b-rlvr-ppo@step-*');
    assert.deepEqual(
      t.steps.map((s) => s.step),
      STEPS,
    );
    for (const s of t.steps) {
      assert.equal(s.model, `step-${s.step}:expx/qwen-2.5-1.5b-rlvr-ppo@step-${s.step}`);
      assert.equal(s.base, `step-${s.step}:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10`);
    }
    assert.equal(t.k, 8);
    assert.equal(t.lateFromStep, 500);
  });

  test('samples, correct, sample accuracy (0.65, 0.6208, 0.6625, 0.7208) and mean length', () => {
    const expected = [0.65, 0.6208, 0.6625, 0.7208];
    t.steps.forEach((s, i) => {
      const rl = [...raw[i].rl.values()];
      const n = rl.reduce((a, r) => a + r.n, 0);
      const c = rl.reduce((a, r) => a + r.c, 0);
      assert.deepEqual([s.samples, s.graded, s.correct, s.problems], [n, n, c, rl.length]);
      assert.equal(s.sampleAccuracy, c / n);
      assert.equal(Number(s.sampleAccuracy!.toFixed(4)), expected[i]);
      assert.equal(s.sampleAccuracy, raw[i].summary.metrics.rl_sample_accuracy, 'the folder says the same');
      const lengths = rl.flatMap((r) => r.lengths);
      assert.equal(s.meanChars, lengths.reduce((a, x) => a + x, 0) / lengths.length);
      const base = [...raw[i].sft.values()].flatMap((r) => r.lengths);
      assert.equal(s.baseMeanChars, base.reduce((a, x) => a + x, 0) / base.length);
    });
  });

  test('pass@1 and pass@8 with their bootstrap intervals, for each step and its base', () => {
    t.steps.forEach((s, i) => {
      for (const [points, file] of [
        [s.passAtK, raw[i].rl],
        [s.basePassAtK, raw[i].sft],
      ] as const) {
        const rows = [...file.values()];
        const p1 = rows.map((r) => r.c / r.n);
        const p8 = rows.map((r) => (r.c > 0 ? 1 : 0));
        const mean = (v: number[]) => v.reduce((a, x) => a + x, 0) / v.length;
        assert.deepEqual(
          points.map((p) => [p.k, p.problems, p.missing]),
          [
            [1, 30, 0],
            [8, 30, 0],
          ],
        );
        assert.ok(Math.abs(points[0].value! - mean(p1)) < 1e-12);
        assert.ok(Math.abs(points[1].value! - mean(p8)) < 1e-12);
        for (const [j, per] of [p1, p8].entries()) {
          const [lo, hi] = bootstrapStat(
            per.length,
            (x) => `${rows[x].n},${rows[x].c}`,
            (idx) => mean(idx.map((x) => per[x])),
          );
          assert.ok(Math.abs(points[j].ciLow! - lo) < 1e-12, `step ${s.step} k ${points[j].k} low`);
          assert.ok(Math.abs(points[j].ciHigh! - hi) < 1e-12, `step ${s.step} k ${points[j].k} high`);
        }
      }
      assert.equal(s.passAtK[1].value, raw[i].summary.metrics.rl_pass_at_k);
      assert.equal(s.basePassAtK[1].value, raw[i].summary.metrics.sft_pass_at_k);
    });
  });

  test('categories and positive-gain share from sharpening (0.969, 0.943, 0.971, 0.891) with the paired bootstrap', () => {
    const expected = [0.969, 0.943, 0.971, 0.891];
    t.steps.forEach((s, i) => {
      const qids = [...raw[i].rl.keys()];
      const cat = { sharpening: 0, expansion: 0, regression: 0, unchanged: 0, unsolved: 0 };
      const sharp: number[] = [];
      const total: number[] = [];
      for (const q of qids) {
        const m = raw[i].rl.get(q)!.c;
        const b = raw[i].sft.get(q)!.c;
        if (m === 0 && b === 0) cat.unsolved++;
        else if (b === 0) cat.expansion++;
        else if (m > b) cat.sharpening++;
        else if (m < b) cat.regression++;
        else cat.unchanged++;
        const gain = Math.max(m - b, 0);
        total.push(gain);
        sharp.push(b > 0 ? gain : 0);
      }
      assert.deepEqual(s.categories, cat);
      assert.equal(s.pairedProblems, 30);
      const g = s.positiveGainShare!;
      const S = sharp.reduce((a, x) => a + x, 0);
      const T = total.reduce((a, x) => a + x, 0);
      assert.deepEqual([g.gainFromSharpening, g.gainFromExpansion], [S, T - S]);
      assert.equal(g.sharpening, S / T);
      assert.equal(g.expansion, (T - S) / T);
      assert.equal(Number(g.sharpening!.toFixed(3)), expected[i]);
      // the folder's own summary agrees on every figure of this comparison
      const sm = raw[i].summary.metrics;
      assert.equal(g.sharpening, sm.positive_gain_share_sharpening);
      assert.deepEqual(
        [g.gainFromSharpening, g.gainFromExpansion],
        [sm.positive_correct_sample_gain_from_sharpening, sm.positive_correct_sample_gain_from_expansion],
      );
      assert.equal(cat.sharpening, sm.sharpening_questions);
      assert.equal(cat.expansion, sm.observed_expansion_questions);
      assert.equal(cat.regression, sm.regression_questions);
      assert.equal(cat.unchanged + cat.unsolved, sm.unchanged_questions);
      const [lo, hi] = bootstrapStat(
        30,
        (j) => `${sharp[j]},${total[j]}`,
        (idx) => {
          const a = idx.reduce((x, j) => x + sharp[j], 0);
          const b = idx.reduce((x, j) => x + total[j], 0);
          return b === 0 ? null : a / b;
        },
      );
      assert.ok(Math.abs(g.ciLow! - lo) < 1e-12 && Math.abs(g.ciHigh! - hi) < 1e-12, `step ${s.step} interval`);
      // a cross-check, not an identity: the authors' bootstrap (numpy, 5000 replicates, another seed)
      const theirs = raw[i].summary.paired_bootstrap.positive_gain_share_sharpening;
      assert.ok(Math.abs(g.ciLow! - theirs['p2.5']) < 0.03, `step ${s.step}: ${g.ciLow} vs ${theirs['p2.5']}`);
      assert.ok(Math.abs(g.ciHigh! - theirs['p97.5']) < 0.03);
    });
  });

  test('every problem across the steps: c and n per step, first solved, lost at, pattern, filters', () => {
    assert.equal(t.problems.length, 30);
    for (const p of t.problems) {
      const c = raw.map((r) => r.rl.get(p.problemId)!.c);
      const b = raw.map((r) => r.sft.get(p.problemId)!.c);
      assert.deepEqual(p.correctByStep, c, p.problemId);
      assert.deepEqual(p.nByStep, [8, 8, 8, 8]);
      assert.deepEqual(p.baseCorrectByStep, b);
      const solved = c.map((x) => x > 0);
      const first = solved.indexOf(true);
      assert.equal(p.firstSolvedStep, first < 0 ? null : STEPS[first]);
      // the first step of the final unsolved run, when an earlier step solved it
      let lost: number | null = null;
      for (let i = 0; i < 4; i++)
        if (solved[i]) lost = null;
        else if (i > 0 && solved[i - 1]) lost = STEPS[i];
      assert.equal(p.lostAtStep, lost);
    }
    const lost = trajectoryFilter(t, 'lost').map((i) => t.problems[i].problemId);
    const late = trajectoryFilter(t, 'late').map((i) => t.problems[i].problemId);
    const expectLost = t.problems
      .filter((p) => p.correctByStep[3] === 0 && p.correctByStep.slice(0, 3).some((x) => x! > 0))
      .map((p) => p.problemId);
    const expectLate = t.problems
      .filter(
        (p) => p.correctByStep[0] === 0 && p.correctByStep[1] === 0 && p.correctByStep.slice(2).some((x) => x! > 0),
      )
      .map((p) => p.problemId);
    assert.deepEqual(lost, expectLost);
    assert.deepEqual(late, expectLate);
    assert.ok(lost.length > 0, 'this run loses a problem by step 1000');
  });

  test('the whole folder: the same series (bases and the final run are not steps), also with --base', async () => {
    const all = TraceIndex.open(':memory:');
    await indexFolder(all, join(REAL, 'rlvr-probe-gsm8k'));
    for (const opts of [{}, { base: 'results_2048_batched:ns-0' }]) {
      const r = buildReport(all, opts);
      assert.equal(r.trajectories.length, 1);
      assert.deepEqual(
        r.trajectories[0].steps.map((s) => s.step),
        STEPS,
      );
      assert.deepEqual(
        r.trajectories[0].steps.map((s) => s.sampleAccuracy),
        t.steps.map((s) => s.sampleAccuracy),
      );
    }
    const chosen = buildReport(all, { base: 'results_2048_batched:ns-0' }).trajectories[0];
    assert.ok(
      chosen.steps.every(
        (s) => s.base === 'results_2048_batched:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10',
      ),
    );
    all.close();
  });

  test('problemsOnly skips the bootstrap and the text scan but gives the same problems', () => {
    const light = computeTrajectories(index, { problemsOnly: true }).trajectories[0];
    assert.deepEqual(light.problems, t.problems);
    assert.ok(light.steps.every((s) => s.passAtK.length === 0 && s.positiveGainShare === null && s.meanChars === null));
  });
});

describe('trajectories on a small hand-made run (ragged n, a problem missing at a step, no base)', async () => {
  const dir = tempDir();
  const write = (run: string, name: string, revision: string, rows: [number, boolean[]][]) =>
    writeRollouts(join(dir, run, `${name.replace(/\W/g, '_')}.jsonl`), { name, revision }, rows);
  // base in each run; steps 10 and 20 (ragged n: 4 at step 10, 2 at step 20); problem 3 absent at step 20
  write('ckpt/step-10', 'sft', 'base', [
    [1, [true, false, false, false]],
    [2, [false, false, false, false]],
    [3, [true, true, false, false]],
  ]);
  write('ckpt/step-10', 'grpo', 'step-10', [
    [1, [true, true, false, false]],
    [2, [false, false, false, false]],
    [3, [true, false, false, false]],
  ]);
  write('ckpt/step-20', 'sft', 'base', [
    [1, [true, false]],
    [2, [false, false]],
  ]);
  write('ckpt/step-20', 'grpo', 'step-20', [
    [1, [true, true]],
    [2, [true, false]],
  ]);
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const r = buildReport(index, { replicates: 200 });

  test('K is the largest k every step reaches; the ragged n is a warning; absent problems are null, not 0', () => {
    const t = r.trajectories[0];
    assert.equal(t.k, 2);
    assert.ok(r.warnings.some((w) => /largest n differ \(2\.\.4\); pass@k is shown at k = 2/.test(w)));
    assert.deepEqual(
      t.problems.map((p) => [p.problemId, p.correctByStep, p.nByStep, p.pattern]),
      [
        ['1', [2, 2], [4, 2], 'always'],
        ['2', [0, 1], [4, 2], 'gained'],
        ['3', [1, null], [4, 0], 'always'],
      ],
    );
    const s10 = t.steps[0];
    // pass@2 at step 10: 1 - C(2,2)/C(4,2) = 5/6 (c=2 of 4), 0, 1 - C(3,2)/C(4,2) = 1/2 (c=1 of 4)
    assert.ok(Math.abs(s10.passAtK[1].value! - (5 / 6 + 0 + 1 / 2) / 3) < 1e-12);
    assert.deepEqual(s10.categories, { sharpening: 1, expansion: 0, regression: 1, unchanged: 0, unsolved: 1 });
    assert.deepEqual([s10.positiveGainShare!.gainFromSharpening, s10.positiveGainShare!.gainFromExpansion], [1, 0]);
    const s20 = t.steps[1];
    assert.deepEqual([s20.positiveGainShare!.gainFromSharpening, s20.positiveGainShare!.gainFromExpansion], [1, 1]);
    assert.equal(s20.positiveGainShare!.sharpening, 0.5);
    assert.equal(s20.pairedProblems, 2);
    assert.equal(s10.meanChars, (1 + 2 + 3 + 4) / 4);
  });

  test('mean length counts characters (code points) past a NUL character, as JavaScript would', async () => {
    const d = tempDir();
    const texts = ['ab\u0000cd', 'é😀', 'plain'];
    for (const step of [1, 2, 3])
      writeFileSync(
        join(d, `s${step}.jsonl`),
        JSON.stringify({
          qid: 1,
          model_name: 'm',
          model_revision: `step-${step}`,
          rollouts: texts.map((text, i) => ({ rollout: i, text, correct: i === 0 })),
        }),
      );
    const ix = TraceIndex.open(':memory:');
    await indexFolder(ix, d);
    const t = computeTrajectories(ix).trajectories[0];
    const expected = texts.reduce((a, x) => a + [...x].length, 0) / texts.length;
    assert.equal(expected, (5 + 2 + 5) / 3);
    // step 1 is the guessed base (the first model), steps 2 and 3 the series
    assert.deepEqual(
      t.steps.map((x) => [x.step, x.meanChars, x.baseMeanChars]),
      [
        [2, expected, expected],
        [3, expected, expected],
      ],
    );
    ix.close();
  });

  test('CLI: table section, JSON and CSV rows agree; --step-pattern overrides and a bad one is refused', () => {
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const db = join(tempDir(), 'i.db');
    const run = (...args: string[]) =>
      execFileSync(process.execPath, [cli, 'report', dir, '--db', db, '-q', '--replicates', '200', ...args], {
        encoding: 'utf8',
      });
    const table = run();
    assert.match(table, /^training: ckpt\/step-\*:grpo@step-\* — 2 checkpoints, 3 problems;/m);
    assert.match(
      table,
      /of 3 problems: 0 lost during training \(solved at an earlier step, not at step 20\); 1 solved only at late steps \(first solved at step 20 or later\)/,
    );
    const json = JSON.parse(run('--format', 'json'));
    assert.deepEqual(json.trajectories, JSON.parse(JSON.stringify(r.trajectories)));
    const csv = run('--format', 'csv').trim().split('\n');
    // series and step by column (then the scorer and comparison columns, empty or set on training rows)
    const rows = csv.filter((l) => l.split(',')[14] === 'ckpt/step-*:grpo@step-*' && l.split(',')[15] === '20');
    const get = (metric: string, k = '') => rows.map((l) => l.split(',')).find((c) => c[2] === metric && c[3] === k)!;
    assert.equal(Number(get('positive-gain-share:sharpening')[4]), 0.5);
    assert.equal(Number(get('pass@k', '2')[4]), json.trajectories[0].steps[1].passAtK[1].value);
    assert.equal(get('category:sharpening')[7], '2', 'the denominator: paired problems');
    assert.equal(Number(get('mean-chars')[4]), json.trajectories[0].steps[1].meanChars);
    // a pattern that matches nothing: no series
    const none = JSON.parse(run('--format', 'json', '--step-pattern', 'epoch(\\d+)'));
    assert.deepEqual(none.trajectories, []);
    const bad = spawnSync(process.execPath, [cli, 'report', dir, '--db', db, '-q', '--step-pattern', '(['], {
      encoding: 'utf8',
    });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--step-pattern.*invalid step pattern/);
  });
});

describe('checkpoints numbered by epoch, and checkpoints the step pattern does not know (trial 3, finding 14)', async () => {
  const dir = tempDir();
  const write = (run: string, name: string, revision: string, rows: [number, boolean[]][]) =>
    writeRollouts(join(dir, run, `${name}-${revision}.jsonl`), { name, revision }, rows);
  write('sft', 'qwen', 'base', [
    [1, [false, false]],
    [2, [false, false]],
  ]);
  write('sft', 'qwen-sft', 'epoch_1', [
    [1, [true, false]],
    [2, [false, false]],
  ]);
  write('sft', 'qwen-sft', 'epoch_2', [
    [1, [true, true]],
    [2, [true, false]],
  ]);
  // ck100 / ck200: no step word; reported, not silently left out
  write('other', 'm', 'ck100', [[1, [true, false]]]);
  write('other', 'm', 'ck200', [[1, [true, true]]]);
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const r = buildReport(index, { replicates: 200, base: 'qwen@base' });

  test('epoch_N is a checkpoint: a series numbered by epoch, named so in the JSON and the table', () => {
    assert.deepEqual(
      r.trajectories.map((t) => [t.name, t.unit, t.steps.map((s) => s.step)]),
      [['sft:qwen-sft@epoch_*', 'epoch', [1, 2]]],
    );
    // epoch 2: c = 2 of 2 and 1 of 2 -> pass@1 = (1 + 0.5) / 2 = 0.75
    assert.equal(r.trajectories[0].steps[1].passAtK[0].value, 0.75);
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const table = execFileSync(
      process.execPath,
      [cli, 'report', dir, '--db', join(dir, 'i.db'), '-q', '--replicates', '200', '--base', 'qwen@base'],
      { encoding: 'utf8' },
    );
    assert.match(table, /^training: sft:qwen-sft@epoch_\* — 2 checkpoints numbered by epoch, 2 problems;/m);
    assert.match(table, /^ *epoch +problems +samples/m);
    assert.match(table, /not at epoch 2\); \d+ solved only at late steps \(first solved at epoch 2 or later\)/);
    assert.match(
      table,
      /2 models differ only in a number \(other:m@ck100, other:m@ck200\) but are not read as checkpoints/,
    );
  });

  test('models that look like checkpoints but are not recognised are in the report warnings', () => {
    const w = r.warnings.filter((x) => /differ only in a number/.test(x));
    assert.deepEqual(w.length, 1);
    assert.match(w[0], /^2 models differ only in a number \(other:m@ck100, other:m@ck200\)/);
  });
});
