// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Checkpoint run folders and generic folders: the pretrained model is the base, short labels keep the run, which
 * folders and words name no model, seeds in Hydra folders.
 *
 * Trial 7 (a fresh user's folders): findings 1-4 and 8-10 — which model is the base and what names a
 * model. Each test builds the trial's layout in a temporary folder and reads it through the compiled CLI's
 * `report --format json` (or a real in-memory index); every expected value is the one a person reading the
 * folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import type { Report } from '../../src/core/report/index';
import { pathModelName } from '../../src/core/readers/util';
import { flatModelName } from '../../src/core/readers/flat';
import { isSeedShard } from '../../src/core/index/writer';
import { areSeedSiblings, stripSeedTokens } from '../../src/core/grouping/seeds';
import { distinctiveLabels, guessBaseModel } from '../../src/core/index/labels';
import { datasetCounts } from '../../src/core/grouping/datasets';
import { flatFolderDataset } from '../../src/core/readers/flat';
import { cliReport, humanEval, indexed, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t7-');

/** Each model as `displayId n/c` (samples / correct). */
const models = (r: Report) => r.models.map((m) => `${m.id} ${m.samples}/${m.correct}`);
/** Each comparison as `model vs base`. */
const pairs = (r: Report) => r.comparisons.map((c) => `${c.model} vs ${c.base}`);
const seedWarnings = (r: Report) => r.warnings.filter((w) => /differ only by a seed-like part/.test(w));

// Trial 7 finding 1.
describe('HF/TRL checkpoint-N run folders: the pretrained model is the base', () => {
  for (const run of ['PPO', 'GRPO']) {
    test(`Qwen2.5-7B beside Qwen2.5-7B-${run}/checkpoint-{500,1000}/results.jsonl`, () => {
      const dir = folder({
        'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
        [`Qwen2.5-7B-${run}/checkpoint-500/results.jsonl`]: humanEval('TT FF'),
        [`Qwen2.5-7B-${run}/checkpoint-1000/results.jsonl`]: humanEval('TT TF'),
      });
      const r = cliReport(dir);
      assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
      assert.deepEqual(pairs(r), [
        `Qwen2.5-7B-${run}/checkpoint-500:checkpoint-500 vs Qwen2.5-7B:Qwen2.5-7B`,
        `Qwen2.5-7B-${run}/checkpoint-1000:checkpoint-1000 vs Qwen2.5-7B:Qwen2.5-7B`,
      ]);
      assert.deepEqual(
        r.warnings.filter((w) => w.startsWith('no model is named as a base')),
        [],
      );
    });
  }

  test('siblings: global_step_N, step_N and checkpoint-N runs beside the base: every checkpoint against the base', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/global_step_100/results.jsonl': humanEval('TT FF'),
      'Qwen2.5-7B-PPO/checkpoint-500/results.jsonl': humanEval('TT TF'),
      'Qwen2.5-7B-RLOO/step_500/results.jsonl': humanEval('TT TT'),
    });
    const r = cliReport(dir);
    assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
    assert.equal(pairs(r).length, 3);
    for (const p of pairs(r)) assert.match(p, / vs Qwen2\.5-7B:Qwen2\.5-7B$/);
  });

  test('a tie: a model without a step does not lose to an RL checkpoint; an SFT checkpoint keeps its step', () => {
    const m = (run: string, name: string, revision: string | null = null) => ({ run, name, revision });
    // `ckpt/checkpoint-500` scores below `plain` (a step); `plain` is listed second
    assert.equal(guessBaseModel([m('a/checkpoint-500', 'checkpoint-500'), m('', 'plain')]), 1);
    // two SFT copies: the one at its own checkpoint revision (rlvr-probe-gsm8k) stays first among ties
    assert.equal(guessBaseModel([m('r1', 'x-sft'), m('r2', 'x-sft', 'checkpoint-8-of-10')]), 1);
  });
});

// Trial 7 finding 1.
describe('short labels of step folders keep the run folder', () => {
  test('Qwen2.5-7B-PPO/checkpoint-500/results.jsonl -> `Qwen2.5-7B-PPO · step-500`; verl actor/huggingface too', () => {
    const m = (run: string, name: string) => ({ run, name, revision: null });
    assert.deepEqual(
      distinctiveLabels([
        m('Qwen2.5-7B', 'Qwen2.5-7B'),
        m('Qwen2.5-7B-PPO/checkpoint-500', 'checkpoint-500'),
        m('Qwen2.5-7B-GRPO/global_step_100/actor/huggingface', 'global_step_100'),
        m('Qwen2.5-7B-GRPO/global_step_200/actor/huggingface', 'global_step_200'),
      ]),
      ['Qwen2.5-7B', 'Qwen2.5-7B-PPO · step-500', 'Qwen2.5-7B-GRPO · step-100', 'Qwen2.5-7B-GRPO · step-200'],
    );
  });
});

// Trial 7 finding 2.
describe("an SFT run's checkpoints are the base of the RL run's steps", () => {
  for (const [sft, rl] of [
    ['global_step_1000/samples.jsonl', ['global_step_100/samples.jsonl', 'global_step_200/samples.jsonl']],
    ['checkpoint-1000/results.jsonl', ['checkpoint-500/results.jsonl', 'checkpoint-1000/results.jsonl']],
  ] as const) {
    test(`Qwen2.5-7B-SFT/${sft} beside Qwen2.5-7B-GRPO/${rl.join(', ')}`, () => {
      const dir = folder({
        [`Qwen2.5-7B-SFT/${sft}`]: humanEval('TF FF'),
        [`Qwen2.5-7B-GRPO/${rl[0]}`]: humanEval('TT FF'),
        [`Qwen2.5-7B-GRPO/${rl[1]}`]: humanEval('TT TF'),
      });
      const r = cliReport(dir);
      const sftId = `Qwen2.5-7B-SFT/${dirname(sft)}:${dirname(sft)}`;
      assert.equal(r.base, sftId);
      assert.deepEqual(
        pairs(r).sort(),
        rl.map((f) => `Qwen2.5-7B-GRPO/${dirname(f)}:${dirname(f)} vs ${sftId}`).sort(),
      );
      assert.deepEqual(
        r.warnings.filter((w) => w.startsWith('no model is named as a base')),
        [],
      );
    });
  }
});

// Trial 7 finding 3.
describe('generic, dataset, date and actor/huggingface folders name no model', () => {
  test('outputs/ and results/ folders: models named after the run folder, the pretrained model the base', () => {
    const dir = folder({
      'Qwen2.5-7B/outputs/samples.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/outputs/seed0.jsonl': humanEval('TT FF'),
      'Qwen2.5-7B-GRPO/outputs/seed1.jsonl': humanEval('TT TF'),
      'Qwen2.5-7B-PPO/results/samples.jsonl': humanEval('TF TF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), [
      'Qwen2.5-7B-GRPO/outputs:Qwen2.5-7B-GRPO 8/5',
      'Qwen2.5-7B-PPO/results:Qwen2.5-7B-PPO 4/2',
      'Qwen2.5-7B/outputs:Qwen2.5-7B 4/1',
    ]);
    assert.equal(r.base, 'Qwen2.5-7B/outputs:Qwen2.5-7B');
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B-GRPO/outputs:Qwen2.5-7B-GRPO vs Qwen2.5-7B/outputs:Qwen2.5-7B',
      'Qwen2.5-7B-PPO/results:Qwen2.5-7B-PPO vs Qwen2.5-7B/outputs:Qwen2.5-7B',
    ]);
  });

  test('dataset folders: humaneval/ and mbpp/ under each model name no model; the pretrained model is the base', () => {
    const dir = folder({
      'Qwen2.5-7B/humaneval/samples.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/humaneval/samples.jsonl': humanEval('TT FF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), [
      'Qwen2.5-7B-GRPO/humaneval:Qwen2.5-7B-GRPO 4/2',
      'Qwen2.5-7B/humaneval:Qwen2.5-7B 4/1',
    ]);
    assert.equal(r.base, 'Qwen2.5-7B/humaneval:Qwen2.5-7B');
    assert.deepEqual(pairs(r), ['Qwen2.5-7B-GRPO/humaneval:Qwen2.5-7B-GRPO vs Qwen2.5-7B/humaneval:Qwen2.5-7B']);
  });

  test('a dataset folder is the dataset of task ids without a dataset/ prefix; a prefix wins', async () => {
    const mbpp = (spec: string) =>
      spec
        .split(' ')
        .flatMap((w, t) =>
          [...w].map((v, i) => JSON.stringify({ task_id: 11 + t, completion: `x${i}`, passed: v === 'T' })),
        )
        .join('\n');
    const dir = folder({
      'Qwen2.5-7B/mbpp/samples.jsonl': mbpp('TF FF'),
      'Qwen2.5-7B-GRPO/mbpp/samples.jsonl': mbpp('TT FF'),
      'Qwen2.5-7B/humaneval/samples.jsonl': humanEval('TF'),
    });
    const index = await indexed(dir);
    assert.deepEqual(datasetCounts(index), [
      { dataset: 'HumanEval', problems: 1 },
      { dataset: 'mbpp', problems: 2 },
    ]);
    index.close();
    assert.equal(flatFolderDataset('m/MBPP/seed0/samples.jsonl'), 'MBPP');
    assert.equal(flatFolderDataset('m/outputs/samples.jsonl'), undefined);
  });

  test('Hydra date/time folders name no model', () => {
    const dir = folder({
      'Qwen2.5-7B/2025-01-15/10-20-30/samples.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/2025-01-16/11-00-00/samples.jsonl': humanEval('TT FF'),
    });
    const r = cliReport(dir);
    assert.equal(r.base, 'Qwen2.5-7B/2025-01-15/10-20-30:Qwen2.5-7B');
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B-GRPO/2025-01-16/11-00-00:Qwen2.5-7B-GRPO vs Qwen2.5-7B/2025-01-15/10-20-30:Qwen2.5-7B',
    ]);
  });

  test("verl's global_step_N/actor/huggingface: named after the step folder, the base unchanged", () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/global_step_100/actor/huggingface/samples.jsonl': humanEval('TT FF'),
      'Qwen2.5-7B-GRPO/global_step_200/actor/huggingface/samples.jsonl': humanEval('TT TF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(
      r.models.map((m) => m.label),
      // the step folder's label keeps its model folder (trial 8 finding 9)
      ['Qwen2.5-7B', 'Qwen2.5-7B-GRPO · global_step_100', 'Qwen2.5-7B-GRPO · global_step_200'],
    );
    assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
  });

  test('path names: the folder names of each kind are passed over; a model folder is not', () => {
    assert.equal(pathModelName('m/outputs/samples.jsonl', 'samples'), 'm');
    assert.equal(pathModelName('m/eval/generations/samples.jsonl', 'samples'), 'm');
    assert.equal(pathModelName('m/gsm8k/samples.jsonl', 'samples'), 'm');
    assert.equal(pathModelName('m/math500/seed0/samples.jsonl', 'samples'), 'm');
    assert.equal(pathModelName('m/2025-01-15/10-20-30/samples.jsonl', 'samples'), 'm');
    assert.equal(pathModelName('Qwen2.5-Math-7B/samples.jsonl', 'samples'), 'Qwen2.5-Math-7B');
    // only such folders: the nearest one, as before
    assert.equal(pathModelName('outputs/samples.jsonl', 'samples'), 'outputs');
  });
});

// Trial 7 finding 4.
describe('one extra word in a generic file name', () => {
  test('samples_t0.6 / samples_t1.0: models <run>_t0.6 / <run>_t1.0, each RL variant against the base at its temperature', () => {
    const dir = folder({
      'Qwen2.5-7B/samples_t0.6.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B/samples_t1.0.jsonl': humanEval('FF FF'),
      'Qwen2.5-7B-GRPO/samples_t0.6.jsonl': humanEval('TT FF'),
      'Qwen2.5-7B-GRPO/samples_t1.0.jsonl': humanEval('TT TF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), [
      'Qwen2.5-7B:Qwen2.5-7B_t0.6 4/1',
      'Qwen2.5-7B:Qwen2.5-7B_t1.0 4/0',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t0.6 4/2',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t1.0 4/3',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t0.6 vs Qwen2.5-7B:Qwen2.5-7B_t0.6',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t1.0 vs Qwen2.5-7B:Qwen2.5-7B_t1.0',
    ]);
  });

  test('samples_seed0_2025-01-01 + samples_seed1_2025-01-02: seed shards of one model, merged', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/samples_seed0_2025-01-01.jsonl': humanEval('TT FF'),
      'Qwen2.5-7B-GRPO/samples_seed1_2025-01-02.jsonl': humanEval('TT TF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), ['Qwen2.5-7B:Qwen2.5-7B 4/1', 'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO 8/5']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO vs Qwen2.5-7B:Qwen2.5-7B']);
    assert.ok(isSeedShard('a/samples_seed0_2025-01-01.jsonl', 'a/samples_seed1_2025-01-02.jsonl'));
    assert.ok(!isSeedShard('a/samples_v1.jsonl', 'a/samples_v2.jsonl'));
    // a dated re-run without seeds is a duplicate, not a shard
    assert.ok(!isSeedShard('a/samples_gsm8k_2025-01-15T10-20-30.jsonl', 'a/samples_gsm8k_2025-01-16T10-20-30.jsonl'));
  });

  test('samples_t0.6_seed0 + _seed1: one model <run>_t0.6 with both seeds', () => {
    assert.equal(
      pathModelName('Qwen2.5-7B-GRPO/samples_t0.6_seed0.jsonl', 'samples_t0.6_seed0'),
      'Qwen2.5-7B-GRPO_t0.6',
    );
    assert.equal(
      pathModelName('Qwen2.5-7B-GRPO/samples_t0.6_seed1.jsonl', 'samples_t0.6_seed1'),
      'Qwen2.5-7B-GRPO_t0.6',
    );
  });

  test('a temperature is t and a decimal or 0-2, or temp/temperature and a number; flan-t5 is no variant', () => {
    assert.equal(pathModelName('m/samples_temp1.jsonl', 'samples_temp1'), 'm_temp1');
    // an integer temperature 0, 1 or 2 after `t` is one too (trial 8 finding 2c: `samples_n4_t0`); `t5` is not
    assert.equal(pathModelName('m/samples_t1.jsonl', 'samples_t1'), 'm_t1');
    assert.equal(pathModelName('m/samples_t5.jsonl', 'samples_t5'), 'samples_t5');
    const m = (name: string) => ({ run: 'r', name, revision: null });
    // two variants of one model in a run: neither is the other's base
    assert.equal(guessBaseModel([m('x_t0.6'), m('x_t1.0')]), -1);
    assert.equal(guessBaseModel([m('flan-t5'), m('flan-t3')]), 0);
  });

  test("lm-eval's samples_<task>_<timestamp> files are named after their folder", () => {
    assert.equal(
      pathModelName(
        'Qwen__Qwen2.5-7B/samples_gsm8k_2025-01-15T10-20-30.123456.jsonl',
        'samples_gsm8k_2025-01-15T10-20-30.123456',
      ),
      // lm-eval's `org__name` folder is the model id `org/name` (trial 9 finding 11; was kept as `Qwen__Qwen2.5-7B`)
      'Qwen/Qwen2.5-7B',
    );
    assert.equal(
      pathModelName(
        'x/samples_minerva_math500_2025-01-15T10-20-30.123456.jsonl',
        'samples_minerva_math500_2025-01-15T10-20-30.123456',
      ),
      'x',
    );
  });
});

// Trial 7 finding 8.
describe('a leading s<N> is part of a model name, no seed', () => {
  test('s1-32B/ and s1.1-7B/ folders keep their names', () => {
    const dir = folder({
      's1-32B/samples.jsonl': humanEval('TF FF'),
      's1.1-7B/samples.jsonl': humanEval('TT FF'),
    });
    assert.deepEqual(models(cliReport(dir)), ['s1-32B:s1-32B 4/1', 's1.1-7B:s1.1-7B 4/2']);
  });

  test('s1-32B.jsonl beside 32B.jsonl: two models, never merged', () => {
    const dir = folder({
      's1-32B.jsonl': humanEval('TT TT'),
      '32B.jsonl': humanEval('FF FF'),
      's1.1-32B.jsonl': humanEval('TF TF'),
    });
    assert.deepEqual(models(cliReport(dir)).sort(), ['32B 4/0', 's1-32B 4/4', 's1.1-32B 4/2']);
  });

  test('seed tokens at the end or seedN still go', () => {
    assert.equal(stripSeedTokens('s1-32B'), 's1-32B');
    assert.equal(stripSeedTokens('samples-s1'), 'samples');
    assert.equal(stripSeedTokens('samples_seed1_x'), 'samples_x');
    assert.equal(flatModelName('qwen-s0/results.jsonl'), 'qwen');
    const m = (name: string) => ({ run: '', name, revision: null });
    assert.ok(!areSeedSiblings(m('s1-32B'), m('s2-32B')));
    assert.ok(areSeedSiblings(m('qwen-s0'), m('qwen-s1')));
  });
});

// Trial 7 finding 9.
describe('Hydra seed=N / run_seed=N folders are seeds', () => {
  for (const seed of ['seed', 'run_seed']) {
    test(`Qwen2.5-7B-GRPO/${seed}={0,1}/samples.jsonl: named Qwen2.5-7B-GRPO, flagged as seed siblings, never each other's base`, () => {
      const dir = folder({
        'Qwen2.5-7B/samples.jsonl': humanEval('TF FF'),
        [`Qwen2.5-7B-GRPO/${seed}=0/samples.jsonl`]: humanEval('TT FF'),
        [`Qwen2.5-7B-GRPO/${seed}=1/samples.jsonl`]: humanEval('TT TF'),
      });
      const r = cliReport(dir);
      assert.deepEqual(models(r), [
        'Qwen2.5-7B:Qwen2.5-7B 4/1',
        `Qwen2.5-7B-GRPO/${seed}=0:Qwen2.5-7B-GRPO 4/2`,
        `Qwen2.5-7B-GRPO/${seed}=1:Qwen2.5-7B-GRPO 4/3`,
      ]);
      assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
      assert.equal(pairs(r).length, 2);
      for (const p of pairs(r)) assert.match(p, / vs Qwen2\.5-7B:Qwen2\.5-7B$/);
      assert.equal(seedWarnings(r).length, 1);
    });
  }
});

// Trial 7 finding 10.
describe('a dataset + generic stem names no model', () => {
  test('Qwen2.5-7B-GRPO/humaneval_samples.jsonl_results.jsonl is named Qwen2.5-7B-GRPO', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/humaneval_samples.jsonl_results.jsonl': humanEval('TT FF'),
      'Qwen2.5-7B-PPO/mbpp_results.jsonl': humanEval('TT TF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), [
      'Qwen2.5-7B:Qwen2.5-7B 4/1',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO 4/2',
      'Qwen2.5-7B-PPO:Qwen2.5-7B-PPO 4/3',
    ]);
    assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
    // a stem with a model word keeps it
    assert.equal(flatModelName('x/humaneval_gpt-4_samples.jsonl_results.jsonl'), 'humaneval_gpt-4_samples');
  });
});
