/**
 * Base replicates pooled alike in the report and the overview, a training step's base over its own problems, partly
 * scored problems in the CSV (partial credit among verdicts is in readers.verdicts.test.ts, benchmark folders above
 * the models in layout-ancestry.test.ts).
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
import { buildReport } from '../../src/core/report/index';
import { overviewData, problemData } from '../../src/extension/panelData';
import { reportCsv } from '../../src/cli/main';
import { flatLines, indexed, qwen, writeFolder } from './helpers';

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
