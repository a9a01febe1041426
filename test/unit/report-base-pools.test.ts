/**
 * Base replicates pooled alike in the report and the overview, partial credit graded not correct, a training step's
 * base over its own problems, benchmark folders above the models, partly scored problems in the CSV.
 *
 * Trial 12 leftovers on pairing and denominators (helper s8-trust): 10 the base's replicates pooled in the CLI report
 * only, not in the overview; 6 partial credit among boolean verdicts left out of n; 13 the training table's base
 * column over other problems than the row's; 11 benchmark folders above the model folders; 20 a partly scored
 * problem counted as having no reward score in the CSV. Each test builds its folder in a temporary directory (the
 * layouts of the trial's report and their siblings). Every expected value is the one a person reading the folder
 * would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { guessBaseModel } from '../../src/core/index/labels';
import { buildReport } from '../../src/core/report';
import { overviewData, problemData } from '../../src/extension/panelData';
import { reportCsv } from '../../src/cli/main';
import { cli, cliReport, flatLines, indexed, qwen, writeFolder } from './helpers';

// Trial 12 finding 10.
describe('the report and the overview pool the base replicates alike', () => {
  for (const [a, b] of [
    ['replicate_1', 'replicate_2'],
    ['rep1', 'rep2'],
    ['run-1', 'run-2'],
    ['seed_1', 'seed_2'],
  ])
    test(`Qwen2.5-7B/${a}/ + ${b}/: buildReport and overviewData give the base the same samples and figures`, async () => {
      const dir = writeFolder({
        // replicate 1 solves problem 0, replicate 2 problem 1: pooled, the base solves 0 and 1 (2/4 each)
        [`Qwen2.5-7B/${a}/samples.jsonl`]: flatLines('TT FF FF'),
        [`Qwen2.5-7B/${b}/samples.jsonl`]: flatLines('FF TT FF'),
        'Qwen2.5-7B-GRPO/seed_1/samples.jsonl': flatLines('TT TT FF'),
        'Qwen2.5-7B-GRPO/seed_2/samples.jsonl': flatLines('TT FF TF'),
        'Qwen2.5-7B-PPO/samples.jsonl': flatLines('TT TT TF'),
      });
      const index = await indexed(dir);
      try {
        const ms = index.models();
        const guessed = ms[guessBaseModel(ms)];
        const r = buildReport(index, { replicates: 100 });
        const o = overviewData(index, { baseId: guessed.id, baseIsChoice: false }, 50, 100);
        const byDisplay = new Map(ms.map((m) => [m.displayId, m]));
        assert.equal(r.comparisons.length, 3);
        assert.equal(o.coverage.length, 3);
        for (const c of r.comparisons) {
          const [bm, mm] = [byDisplay.get(c.base), byDisplay.get(c.model)];
          assert.ok(bm && mm);
          assert.equal(bm.displayId, `Qwen2.5-7B/${a}:Qwen2.5-7B`);
          const ov = o.coverage.find((x) => x.modelId === mm.id);
          assert.ok(ov, `no overview coverage for ${mm.label}`);
          assert.equal(ov.baseModelId, bm.id);
          // the base's n: both replicates' samples (4 a problem), in both
          assert.deepEqual(ov.n.base, { min: 4, max: 4 });
          assert.equal(ov.problems, c.problems);
          assert.equal(ov.missing, c.missing);
          assert.deepEqual(
            { baseOnly: ov.baseOnly, modelOnly: ov.modelOnly, both: ov.both, neither: ov.neither },
            c.coverage,
          );
          assert.equal(ov.crossoverK, c.crossoverK);
          assert.equal(ov.crossoverKMax, c.crossoverKMax);
          assert.equal(ov.leaderAtK1, c.leaderAtK1);
          assert.equal(ov.leaderAtK1WithinNoise, c.leaderAtK1WithinNoise);
        }
        // the pooled base solves problems 0 and 1 (replicate 1 alone: problem 0 only)
        const ppo = o.coverage.find((x) => x.modelId === byDisplay.get('Qwen2.5-7B-PPO:Qwen2.5-7B-PPO')?.id);
        assert.ok(ppo);
        assert.deepEqual([ppo.both, ppo.modelOnly, ppo.baseOnly, ppo.neither], [2, 1, 0, 0]);
        // neither names the second replicate NOT COMPARED; both name the pool
        assert.deepEqual(r.notCompared, []);
        assert.deepEqual(
          o.warnings.filter((w) => /NOT COMPARED|not compared/i.test(w) && w.includes(b)),
          [],
          o.warnings.join('\n'),
        );
        assert.equal(r.warnings.filter((w) => /the base is the pool of its 2 replicates/.test(w)).length, 1);
        assert.equal(o.warnings.filter((w) => /the base is the pool of its 2 replicates/.test(w)).length, 1);
        // the problem panel: problem 1 (solved by replicate 2 only) is `sharpening` for PPO (2/2) against the pooled
        // base (2/4), not `expansion` against replicate 1 alone (0/2)
        const p1 = index.listProblems().find((p) => p.problemId === '1');
        assert.ok(p1);
        const pd = problemData(index, p1.id, { baseId: guessed.id, baseIsChoice: false });
        const pc = pd?.comparisons.find((x) => x.modelId === byDisplay.get('Qwen2.5-7B-PPO:Qwen2.5-7B-PPO')?.id);
        assert.equal(pc?.category, 'sharpening');
      } finally {
        index.close();
      }
    });
});

// Trial 12 finding 6.
describe('partial credit among verdicts is graded not correct, never left out of n', () => {
  const QWEN = 'Qwen2.5-Math-7B/math_eval/math500/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';
  const qwenLine = (idx: number, score: unknown[]) =>
    JSON.stringify({
      idx,
      question: `q${idx}`,
      gt: '2',
      code: score.map((_, i) => `answer ${i}`),
      pred: score.map(() => '2'),
      score,
    });
  const partialWarnings = (r: ReturnType<typeof cliReport>) =>
    r.diagnostics.filter((d) => /partial credit counted as not correct/.test(d.message));

  test('data/partial (Qwen-math, score [true, 0.5, 0.5, false] and [false, false, 0.5, true]): pass@1 25.0, n 4, ungraded 0', () => {
    const r = cliReport(
      writeFolder({
        [QWEN]: [qwenLine(0, [true, 0.5, 0.5, false]), qwenLine(1, [false, false, 0.5, true])].join('\n'),
      }),
    );
    const [m] = r.models;
    // was: samples 8, ungraded 3, correct 2, pass@1 41.7 (problem 0 over n = 2, problem 1 over n = 3)
    assert.deepEqual([m.samples, m.ungradedSamples, m.correct, m.problems], [8, 0, 2, 2]);
    const p1 = m.passAtK.find((p) => p.k === 1);
    assert.ok(p1?.value !== undefined && p1.value !== null && Math.abs(p1.value - 0.25) < 1e-12, String(p1?.value));
    // n = 4 on both problems: pass@4 is over both (each has a correct sample)
    const p4 = m.passAtK.find((p) => p.k === 4);
    assert.deepEqual([p4?.value, p4?.problems, p4?.missing], [1, 2, 0]);
    assert.equal(m.sampleAccuracy, 2 / 8);
    const w = partialWarnings(r);
    assert.equal(w.length, 1, JSON.stringify(r.diagnostics));
    assert.equal(w[0].file, QWEN);
    assert.equal(w[0].line, 1);
    assert.match(
      w[0].message,
      /^score: 3 samples with partial credit .*e\.g\. 0\.5 here\): partial credit counted as not correct/,
    );
    assert.deepEqual(
      r.diagnostics.filter((d) => /scores, not verdicts/.test(d.message)),
      [],
    );
  });

  test('siblings: flat 1/0 with 0.37, rollouts [0.37, 1.0], a mapping\'s "0.5" among "1"/"0": graded not correct', () => {
    const r = cliReport(
      writeFolder({
        'flat-m/samples.jsonl_results.jsonl': [1, 1, 0.37, 0, 1, 1]
          .map((v, i) => JSON.stringify({ task_id: `HumanEval/${i % 3}`, completion: `c${i}`, passed: v }))
          .join('\n'),
        'roll-m/rollouts.jsonl': JSON.stringify({
          qid: 0,
          question: 'q0',
          gold: '1',
          model_name: 'roll-m',
          rollouts: [
            { rollout: 0, text: 'a', correct: 0.37 },
            { rollout: 1, text: 'b', correct: 1.0 },
          ],
        }),
        'trace-inspector.mapping.json': JSON.stringify({
          files: ['map-m/*.jsonl'],
          records: 'per-sample',
          fields: { problemId: 'pid', text: 'out', correct: 'ok' },
          model: 'map-m',
        }),
        'map-m/s.jsonl': ['1', '0.5', '0', '1']
          .map((ok, i) => JSON.stringify({ pid: i % 2, out: `t${i}`, ok }))
          .join('\n'),
      }),
    );
    const byName = new Map(r.models.map((m) => [m.label, m]));
    const facts = (label: string) => {
      const m = byName.get(label);
      assert.ok(m, `${label} in ${[...byName.keys()]}`);
      return [m.samples, m.ungradedSamples, m.correct];
    };
    // flat: 6 samples, all graded, 4 correct (0.37 not correct; it was: every number of the file ungraded)
    assert.deepEqual(facts('flat-m'), [6, 0, 4]);
    // rollouts: 2 samples graded, 1.0 correct, 0.37 not (was: both ungraded)
    assert.deepEqual(facts('roll-m'), [2, 0, 1]);
    // mapping: "1", "0.5", "0", "1": 4 graded, 2 correct
    assert.deepEqual(facts('map-m'), [4, 0, 2]);
    assert.equal(partialWarnings(r).length, 3, JSON.stringify(r.diagnostics));
  });

  test('a column of only fractions, or with a number outside [0, 1], stays scores: ungraded as before', () => {
    const flat = (values: unknown[]) =>
      values
        .map((v, i) => JSON.stringify({ task_id: `HumanEval/${i % 2}`, completion: `c${i}`, passed: v }))
        .join('\n');
    const r = cliReport(
      writeFolder({
        'fractions/samples.jsonl_results.jsonl': flat([0.3, 0.6, 0.25, 0.9]),
        'rating/samples.jsonl_results.jsonl': flat([1, 0, 0.5, 7]),
        'booleans/samples.jsonl_results.jsonl': flat([true, false, 0.5, -0.5]),
      }),
    );
    const by = new Map(r.models.map((m) => [m.label, m]));
    assert.deepEqual(
      ['fractions', 'rating', 'booleans'].map((l) => [by.get(l)?.samples, by.get(l)?.ungradedSamples]),
      [
        [4, 4],
        [4, 4],
        // booleans stay verdicts beside scores
        [4, 2],
      ],
    );
    assert.deepEqual(partialWarnings(r), []);
    assert.equal(r.diagnostics.filter((d) => /values are scores, not verdicts/.test(d.message)).length, 3);
  });
});

// Trial 12 finding 13.
describe("a training step's base pass@1 is over the step's own problems", () => {
  const F = 'test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';
  test('data/ckpt: step 100 (math500 only) beside the base on math500 (50.0), not pooled with aime24 (28.6); the CSV base row its own datasets', async () => {
    const dir = writeFolder({
      [`eval_results/Qwen2.5-Math-7B/math_eval/math500/${F}`]: qwen('T T F F'),
      [`eval_results/Qwen2.5-Math-7B/math_eval/aime24/${F}`]: qwen('F F F'),
      [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_100/math_eval/math500/${F}`]: qwen('T T T T'),
      [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_200/math_eval/math500/${F}`]: qwen('T T T F'),
      [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_200/math_eval/aime24/${F}`]: qwen('T F F'),
      // sibling: a step with math500 problems the base has no record of (4 and 5)
      [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_300/math_eval/math500/${F}`]: qwen('T T T T T T'),
    });
    const index = await indexed(dir);
    try {
      const r = buildReport(index, { replicates: 100 });
      assert.equal(r.trajectories.length, 1);
      const steps = r.trajectories[0].steps;
      const base1 = (step: number) => {
        const p = steps.find((s) => s.step === step)?.basePassAtK.find((x) => x.k === 1);
        assert.ok(p, `step ${step}`);
        return [p.value, p.problems, p.missing, p.leftOut.notInBase ?? 0];
      };
      // was: 2/7 = 28.6 over the base's math500 + aime24 beside the step's math500 only
      assert.deepEqual(base1(100), [0.5, 4, 0, 0]);
      // a step on both datasets: the base over both, as before
      const [v200, ...rest200] = base1(200);
      assert.ok(typeof v200 === 'number' && Math.abs(v200 - 2 / 7) < 1e-12);
      assert.deepEqual(rest200, [7, 0, 0]);
      // the base has 4 of the step's 6 problems: over those 4, the other 2 counted as not in the base
      assert.deepEqual(base1(300), [0.5, 4, 2, 2]);
      assert.deepEqual(
        steps.map((s) => s.baseDatasets),
        [
          [{ dataset: 'math500', problems: 4 }],
          [
            { dataset: 'aime24', problems: 3 },
            { dataset: 'math500', problems: 4 },
          ],
          [{ dataset: 'math500', problems: 4 }],
        ],
      );
      // the CSV: each base row's problems, missing, not_in_base and datasets are the base's own
      const lines = reportCsv(r).split('\n');
      const header = lines[0].split(',');
      const col = (row: string[], name: string) => row[header.indexOf(name)];
      const baseRows = lines
        .map((l) => l.split(','))
        .filter((c) => col(c, 'metric') === 'base-pass@k' && col(c, 'k') === '1')
        .map((c) => [
          col(c, 'step'),
          col(c, 'value'),
          col(c, 'problems'),
          col(c, 'missing'),
          col(c, 'not_in_base'),
          col(c, 'datasets'),
        ]);
      assert.deepEqual(
        baseRows.map((x) => [x[0], x[2], x[3], x[4], x[5]]),
        [
          // was: problems 7 with datasets math500:4 (the step's datasets copied onto the base row)
          ['100', '4', '0', '0', 'math500:4'],
          ['200', '7', '0', '0', 'aime24:3;math500:4'],
          ['300', '4', '2', '2', 'math500:4'],
        ],
      );
      assert.equal(baseRows[0][1], '0.5');
    } finally {
      index.close();
    }
  });
});

// Trial 12 finding 11.
describe('benchmark folders above the model folders', () => {
  const BENCH = {
    'gsm8k/Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
    'gsm8k/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF TF'),
    'aime24/Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
    'my_hard_set/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF FF'),
  };
  const label = (r: ReturnType<typeof cliReport>, id: string | null) => r.models.find((m) => m.id === id)?.label;

  test('data/bench: my_hard_set is a dataset with no base, NOT COMPARED for that; the header says each run has its own base', () => {
    const { r, text } = cli(writeFolder(BENCH));
    // was: dataset `default` for my_hard_set
    assert.deepEqual(
      r.datasets.map((d) => d.dataset),
      ['aime24', 'gsm8k', 'my_hard_set'],
    );
    assert.deepEqual(
      r.comparisons.map((c) => `${label(r, c.base)} <- ${label(r, c.model)}`),
      ['Qwen2.5-7B (gsm8k/Qwen2.5-7B) <- Qwen2.5-7B-GRPO (gsm8k/Qwen2.5-7B-GRPO)'],
    );
    // was: my_hard_set's GRPO paired with the aime24 copy ("no graded problem in common ... other datasets?"), the
    // aime24 copy `baseOfNone`
    assert.deepEqual(
      r.notCompared.map((x) => [label(r, x.model), x.kind, x.folder ?? null]),
      [
        ['Qwen2.5-7B (aime24/Qwen2.5-7B)', 'baseCopyOfNone', null],
        ['Qwen2.5-7B-GRPO (my_hard_set/Qwen2.5-7B-GRPO)', 'noBaseInFolder', 'my_hard_set'],
      ],
    );
    assert.match(r.notCompared[1].reason, /no copy of its base .* was evaluated in its benchmark folder my_hard_set\//);
    // was: `base model: Qwen2.5-7B (aime24/Qwen2.5-7B) (guessed; change with --base)` above a table without a base column
    assert.doesNotMatch(text, /^base model: /m);
    assert.match(text, /^base models: each run's own/m);
    assert.match(text, /^base\s+model\s+problems/m);
    assert.match(text, /^Qwen2\.5-7B \(gsm8k\/Qwen2\.5-7B\)\s+Qwen2\.5-7B-GRPO \(gsm8k\/Qwen2\.5-7B-GRPO\)\s+3\s/m);
  });

  test('siblings: a base copy in my_hard_set is its base; unknown benchmark names only and a base at the root are as before', () => {
    const withBase = cliReport(
      writeFolder({ ...BENCH, 'my_hard_set/Qwen2.5-7B/samples.jsonl': flatLines('FF FF TF') }),
    );
    assert.deepEqual(
      withBase.comparisons.map((c) => `${label(withBase, c.base)} <- ${label(withBase, c.model)}`).sort(),
      [
        'Qwen2.5-7B (gsm8k/Qwen2.5-7B) <- Qwen2.5-7B-GRPO (gsm8k/Qwen2.5-7B-GRPO)',
        'Qwen2.5-7B (my_hard_set/Qwen2.5-7B) <- Qwen2.5-7B-GRPO (my_hard_set/Qwen2.5-7B-GRPO)',
      ],
    );
    assert.ok(withBase.datasets.some((d) => d.dataset === 'my_hard_set'));
    // no known benchmark among them (trial 8 finding 1): the folders are run folders, each RL model against its own copy
    const unknown = cliReport(
      writeFolder({
        'bench_a/Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
        'bench_b/Qwen2.5-7B/samples.jsonl': flatLines('FF FF TF'),
        'bench_b/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF FF'),
      }),
    );
    assert.deepEqual(
      unknown.comparisons.map((c) => `${label(unknown, c.base)} <- ${label(unknown, c.model)}`),
      ['Qwen2.5-7B (bench_b/Qwen2.5-7B) <- Qwen2.5-7B-GRPO'],
    );
    // the base at the root of the folder (evaluated under no benchmark folder): the RL model's base is still it, as
    // before (their problems are of other datasets, so it is NOT COMPARED for that, not for a missing base copy)
    const root = cliReport(
      writeFolder({
        'Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
        'gsm8k/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF TF'),
      }),
    );
    assert.deepEqual(
      root.notCompared.map((x) => [label(root, x.model), x.kind, label(root, x.base)]),
      [
        ['Qwen2.5-7B-GRPO', 'noCommonProblem', 'Qwen2.5-7B'],
        ['Qwen2.5-7B', 'baseOfNone', undefined],
      ],
    );
  });
});

// Trial 12 finding 20.
describe('the CSV counts a partly scored problem as partly_scored, not no_reward_score', () => {
  test('data/bok: a problem with pred_score on 3 of 4 samples, one with none, one complete: partly_scored 1, no_reward_score 1', async () => {
    const line = (idx: number, score: boolean[], predScore: (number[] | null)[]) =>
      JSON.stringify({
        idx,
        question: `q${idx}`,
        gt: '1',
        code: score.map((_, i) => `answer ${idx}.${i}`),
        pred: score.map((v) => (v ? '1' : '2')),
        score,
        pred_score: predScore,
      });
    const dir = writeFolder({
      'Qwen2.5-Math-7B/math_eval/math500/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl': [
        line(0, [true, false, false, true], [[0.9], [0.2], [0.3], [0.8]]),
        // the trial's problem 1: scored on 3 of its 4 samples
        line(1, [false, true, false, false], [[0.5], [0.6], null, [0.1]]),
        line(2, [true, false, true, false], [null, null, null, null]),
      ].join('\n'),
    });
    const index = await indexed(dir);
    try {
      const r = buildReport(index, { replicates: 50 });
      assert.ok(r.rewardModels, 'reward-model table');
      assert.deepEqual(r.rewardModels.leftOut, {
        noSamples: 0,
        noGradedSample: 0,
        incompleteScores: 2,
        partlyScored: 1,
      });
      const lines = reportCsv(r).split('\n');
      const header = lines[0].split(',');
      // before base_label (trial 12 finding 22)
      assert.equal(header[header.length - 2], 'partly_scored');
      const rows = lines.slice(1).map((l) => l.split(','));
      // every row has every column
      for (const c of rows) assert.equal(c.length, header.length, c.join(','));
      const col = (c: string[], name: string) => c[header.indexOf(name)];
      const rm = rows.filter((c) => col(c, 'metric').startsWith('rm-'));
      assert.ok(rm.length > 0);
      for (const c of rm) {
        // was: no_reward_score 2 (the problem scored on 3 of 4 samples among them), no partly_scored column
        assert.deepEqual(
          [col(c, 'missing'), col(c, 'no_reward_score'), col(c, 'partly_scored')],
          ['2', '1', '1'],
          c.join(','),
        );
      }
      // other rows leave it empty
      assert.ok(rows.filter((c) => col(c, 'metric') === 'pass@k').every((c) => col(c, 'partly_scored') === ''));
    } finally {
      index.close();
    }
  });
});
