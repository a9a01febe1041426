// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Which folders and files name the model and which base a model is compared with: fine-tunes named sft, run-output
 * folders, replicate folders, unknown dataset folders, greedy, step labels, lm-eval sub-tasks.
 *
 * Trial 9 findings left after trial 10 (misleading names and bases), fixed in the order of the brief: 14 an `sft`
 * inside a fine-tuned model's name made it the base of the pretrained model and its zero-RL runs; 13 run-output
 * folders (`runs/`, wandb's `files/`) became the model name; 12 `version_0/`, `rep0` lost the run name; 7 an unknown
 * dataset folder under one model only was taken as a model; 5 `greedy` was no temperature; 15 a false "seed
 * siblings" reason; 3 step labels under dataset folders; and lm-eval sub-task names read as their parent. Each test
 * builds its folder in a temporary directory (writeFolder, flatLines / qwen of helpers.ts) and reads it through the
 * compiled CLI (`report --format json`). Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../src/core/report/index';
import { stemDataset } from '../../src/core/readers/util';
import { cliReport, flatLines, qwen, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t11-');

/** Flat lines, bare problem numbers as task ids (helpers.ts flatLines). */
const flat = (spec: string): string => flatLines(spec);

/** Comparisons as `<base label> <- <model label>`. */
const pairs = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.comparisons.map((c) => `${label.get(c.base)} <- ${label.get(c.model)}`).sort();
};

/** Models as `<label> <samples>/<correct>`, sorted. */
const models = (r: Report) => r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`).sort();

// Trial 9 finding 14.
describe('a fine-tune named with sft is not the base of the pretrained model and its zero-RL runs', () => {
  const QM = 'math_eval/gsm8k/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';

  test('Qwen2.5-Math-7B, -gsm8k-sft, -gsm8k-sft-GRPO, -MATH500-zero (math_eval): each compared with the model its name extends', () => {
    const r = cliReport(
      folder({
        [`Qwen2.5-Math-7B/${QM}`]: qwen('TFFF TFFF TFFF TFFF'),
        [`Qwen2.5-Math-7B-gsm8k-sft/${QM}`]: qwen('TTFF TTFF TTFF TTFF'),
        [`Qwen2.5-Math-7B-gsm8k-sft-GRPO/${QM}`]: qwen('TTTF TTTF TTTF TTTF'),
        [`Qwen2.5-Math-7B-MATH500-zero/${QM}`]: qwen('TTTT TTTT TTTT TTTT'),
      }),
    );
    assert.deepEqual(models(r), [
      'Qwen2.5-Math-7B 16/4',
      'Qwen2.5-Math-7B-MATH500-zero 16/16',
      'Qwen2.5-Math-7B-gsm8k-sft 16/8',
      'Qwen2.5-Math-7B-gsm8k-sft-GRPO 16/12',
    ]);
    assert.deepEqual(pairs(r), [
      // RL from the pretrained model against it (was: against the SFT model)
      'Qwen2.5-Math-7B <- Qwen2.5-Math-7B-MATH500-zero',
      // the SFT model against the pretrained model it was fine-tuned from (was: the pretrained model against the SFT, "regression 4")
      'Qwen2.5-Math-7B <- Qwen2.5-Math-7B-gsm8k-sft',
      'Qwen2.5-Math-7B-gsm8k-sft <- Qwen2.5-Math-7B-gsm8k-sft-GRPO',
    ]);
    assert.deepEqual(r.notCompared, []);
    assert.deepEqual(r.warnings, []);
  });

  test('other spellings (`_` separators, `ref`, flat files): Llama-3.1-8B_tulu_ref is the base of its dpo run only', () => {
    const r = cliReport(
      folder({
        'Llama-3.1-8B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Llama-3.1-8B_tulu_ref/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Llama-3.1-8B_tulu_ref_dpo/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Llama-3.1-8B_grpo/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    assert.deepEqual(pairs(r), [
      'Llama-3.1-8B <- Llama-3.1-8B_grpo',
      'Llama-3.1-8B <- Llama-3.1-8B_tulu_ref',
      'Llama-3.1-8B_tulu_ref <- Llama-3.1-8B_tulu_ref_dpo',
    ]);
  });

  test('a model whose name extends neither (Qwen2.5-7B-MATH-GRPO) is compared with the named base, and a warning names both candidates', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-Math-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-Math-7B-gsm8k-sft/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-MATH-GRPO/samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    assert.deepEqual(pairs(r), [
      'Qwen2.5-Math-7B <- Qwen2.5-Math-7B-gsm8k-sft',
      'Qwen2.5-Math-7B-gsm8k-sft <- Qwen2.5-7B-MATH-GRPO',
    ]);
    const w = r.warnings.filter((x) => x.startsWith('Qwen2.5-7B-MATH-GRPO is compared with Qwen2.5-Math-7B-gsm8k-sft'));
    assert.equal(w.length, 1, r.warnings.join('\n'));
    assert.match(w[0], /fine-tune of Qwen2\.5-Math-7B/);
    assert.match(w[0], /--base/);
  });
});

// Trial 9 finding 13.
describe('run-output folders (runs/, wandb files/, lightning_logs/, tensorboard/) never name the model', () => {
  test('runs/<date>/, wandb/run-<time>-<id>/files/, lightning_logs/, tensorboard/, mlruns/: the model folder above names the model', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/output/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-PPO/runs/20250115/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-RLOO/wandb/run-20250115_102030-abc123/files/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/lightning_logs/samples.jsonl': flat('TTTT TTTT TTTT'),
        'Qwen2.5-7B-DAPO/tensorboard/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-REINFORCE/mlruns/latest-run/samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    // was: models `runs` and `files`
    assert.deepEqual(models(r), [
      'Qwen2.5-7B 12/3',
      'Qwen2.5-7B-DAPO 12/6',
      'Qwen2.5-7B-GRPO 12/12',
      'Qwen2.5-7B-PPO 12/6',
      'Qwen2.5-7B-REINFORCE 12/9',
      'Qwen2.5-7B-RLOO 12/9',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B <- Qwen2.5-7B-DAPO',
      'Qwen2.5-7B <- Qwen2.5-7B-GRPO',
      'Qwen2.5-7B <- Qwen2.5-7B-PPO',
      'Qwen2.5-7B <- Qwen2.5-7B-REINFORCE',
      'Qwen2.5-7B <- Qwen2.5-7B-RLOO',
    ]);
  });

  test('a dataset folder below wandb files/ is compared with the base copy of that dataset', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/gsm8k/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/math500/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-PPO/wandb/run-20250115_102030-abc123/files/gsm8k/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO/wandb/run-20250115_102030-abc123/files/math500/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    const ids = r.comparisons.map((c) => `${c.base} <- ${c.model}`).sort();
    assert.deepEqual(ids, [
      'Qwen2.5-7B/gsm8k:Qwen2.5-7B <- Qwen2.5-7B-PPO/wandb/run-20250115_102030-abc123/files/gsm8k:Qwen2.5-7B-PPO',
      'Qwen2.5-7B/math500:Qwen2.5-7B <- Qwen2.5-7B-PPO/wandb/run-20250115_102030-abc123/files/math500:Qwen2.5-7B-PPO',
    ]);
    assert.deepEqual(r.notCompared, []);
  });
});

// Trial 9 finding 12.
describe('replicate folders and files (version_0/, rep0, replicate_2, trial-3, repeat1) keep the run name', () => {
  test('Lightning version_N/ folders and rep / replicate / trial / repeat folders are seed siblings of the model above', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-PPO/version_0/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-PPO/version_1/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/lightning_logs/version_3/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/lightning_logs/version_4/samples.jsonl': flat('TTTT TTTT TTTT'),
        'Qwen2.5-7B-DAPO/replicate_1/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-DAPO/replicate_2/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-RLOO/trial-1/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-RLOO/trial-3/samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    // was: models `version_0`, `version_1`, ... without PPO
    assert.deepEqual([...new Set(r.models.map((m) => m.id.split(':')[1]))].sort(), [
      'Qwen2.5-7B',
      'Qwen2.5-7B-DAPO',
      'Qwen2.5-7B-GRPO',
      'Qwen2.5-7B-PPO',
      'Qwen2.5-7B-RLOO',
    ]);
    const seedWarnings = r.warnings.filter((w) => /differ only by a seed-like part/.test(w));
    assert.equal(seedWarnings.length, 4, r.warnings.join('\n'));
    assert.ok(!r.warnings.some((w) => /differ only in a number/.test(w)), r.warnings.join('\n'));
    assert.equal(r.comparisons.length, 8);
    assert.ok(r.comparisons.every((c) => c.base === 'Qwen2.5-7B:Qwen2.5-7B'));
  });

  test('rep0.jsonl + rep1.jsonl, repeat1 + repeat2, replicate_1 + replicate_2 files of one folder are seed shards of its model', () => {
    for (const [a, b] of [
      ['rep0', 'rep1'],
      ['samples_repeat1', 'samples_repeat2'],
      ['replicate_1', 'replicate_2'],
    ]) {
      const r = cliReport(
        folder({
          'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
          [`Qwen2.5-7B-RLOO/${a}.jsonl`]: flat('TTFF TTFF TTFF'),
          [`Qwen2.5-7B-RLOO/${b}.jsonl`]: flat('TTTF TTTF TTTF'),
        }),
      );
      // was: models `rep0` and `rep1`; now one model of 8 samples per problem (5 correct of 8)
      assert.deepEqual(models(r), ['Qwen2.5-7B 12/3', 'Qwen2.5-7B-RLOO 24/15'], a);
      assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-RLOO'], a);
    }
  });
});

// Trial 9 finding 7.
describe('an unknown dataset folder under one model only is a dataset of that model, not a model', () => {
  for (const [name, files] of [
    [
      'my_bench/ beside the model folder own samples.jsonl',
      {
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/my_bench/samples.jsonl': flat('TTFF TTFF TTFF'),
      },
    ],
    [
      'custom-eval/ beside a known dataset folder (olympiadbench/)',
      {
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/olympiadbench/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/custom-eval/samples.jsonl': flat('TTFF TTFF TTFF'),
      },
    ],
  ] as const)
    test(`${name}: Qwen2.5-7B-GRPO on that dataset, never paired with the base's default problems`, () => {
      const r = cliReport(folder(files));
      const bench = Object.keys(files)[2].split('/')[1];
      const m = r.models.find((x) => x.id.startsWith(`Qwen2.5-7B-GRPO/${bench}:`));
      // was: a model named `my_bench` in dataset `default`, compared problem by problem with the base
      assert.ok(m, r.models.map((x) => x.id).join(', '));
      assert.equal(m.id, `Qwen2.5-7B-GRPO/${bench}:Qwen2.5-7B-GRPO`);
      assert.deepEqual(
        m.datasets.map((d) => d.dataset),
        [bench],
      );
      assert.ok(!r.comparisons.some((c) => c.model === m.id));
      assert.deepEqual(
        r.notCompared.filter((x) => x.model === m.id).map((x) => x.kind),
        ['noCommonProblem'],
      );
    });
});

// Trial 9 finding 5.
describe('greedy is temperature 0 (humaneval_greedy.jsonl, samples-greedy, greedy/ folders)', () => {
  test('<m>/{generations_n8_temperature0.6, generations_n8_temperature1.0, humaneval_greedy}.jsonl: each compared at its temperature', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/generations_n8_temperature0.6.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/generations_n8_temperature1.0.jsonl': flat('FFFF FFFF FFFF'),
        'Qwen2.5-7B/humaneval_greedy.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/generations_n8_temperature0.6.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/generations_n8_temperature1.0.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/humaneval_greedy.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // was: a model `humaneval_greedy (Qwen2.5-7B)`, the base of every temperature variant of both models
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B_greedy <- Qwen2.5-7B-GRPO_greedy',
      'Qwen2.5-7B_temperature0.6 <- Qwen2.5-7B-GRPO_temperature0.6',
      'Qwen2.5-7B_temperature1.0 <- Qwen2.5-7B-GRPO_temperature1.0',
    ]);
    assert.ok(!r.warnings.some((w) => /across sampling temperatures/.test(w)), r.warnings.join('\n'));
  });

  test('samples-greedy.jsonl against the base samples_t0.0.jsonl, and greedy/ folders: one temperature, no warning', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples_t0.0.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/samples_t0.6.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/samples-greedy.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO/greedy/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B_t0.0 <- Qwen2.5-7B-GRPO_greedy',
      'Qwen2.5-7B_t0.0 <- Qwen2.5-7B-PPO_greedy',
    ]);
    assert.ok(!r.warnings.some((w) => /across sampling temperatures/.test(w)), r.warnings.join('\n'));
  });
});

// Trial 9 finding 15.
describe('no false "seed siblings" reason for a base copy without any', () => {
  test('Qwen2.5-7B/{gsm8k,aime24}/ and Qwen2.5-7B-GRPO/gsm8k/: the base aime24 copy is a base copy no model was evaluated beside', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/gsm8k/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/aime24/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/gsm8k/samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    assert.deepEqual(pairs(r), ['Qwen2.5-7B (Qwen2.5-7B/gsm8k) <- Qwen2.5-7B-GRPO']);
    assert.deepEqual(
      r.notCompared.map((x) => [x.model, x.kind]),
      [['Qwen2.5-7B/aime24:Qwen2.5-7B', 'baseCopyOfNone']],
    );
    // was: "no base model (the folder holds only seed siblings of one model ...)"
    assert.ok(!r.notCompared.some((x) => /seed siblings/.test(x.reason)));
    assert.match(r.notCompared[0].reason, /copy of the base model/);
  });

  test('seed folders only (seed0/, seed1/) keep the "no base model" reason', () => {
    const r = cliReport(folder({ 'seed0/samples.jsonl': flat('TFFF TFFF'), 'seed1/samples.jsonl': flat('TTFF TTFF') }));
    assert.deepEqual(
      r.notCompared.map((x) => x.kind),
      ['noBase', 'noBase'],
    );
  });
});

// Trial 9 finding 3.
describe('step labels under dataset folders are the run and the step, the dataset shown as the dataset', () => {
  test('Qwen2.5-7B-GRPO/global_step_N/{gsm8k,math500}/ and Qwen2.5-7B-PPO/{gsm8k,math500}/global_step_N/', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/gsm8k/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/math500/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/global_step_100/gsm8k/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/global_step_100/math500/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO/gsm8k/global_step_200/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO/MATH-500/global_step_200/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    const label = new Map(r.models.map((m) => [m.id, m.label]));
    // was: `global_step_100 (Qwen2.5-7B-GRPO/global_step_100/gsm8k)` and `gsm8k · global_step_200`
    assert.deepEqual(
      [
        'Qwen2.5-7B-GRPO/global_step_100/gsm8k:global_step_100',
        'Qwen2.5-7B-GRPO/global_step_100/math500:global_step_100',
        'Qwen2.5-7B-PPO/gsm8k/global_step_200:global_step_200',
        'Qwen2.5-7B-PPO/MATH-500/global_step_200:global_step_200',
      ].map((id) => label.get(id)),
      [
        'Qwen2.5-7B-GRPO · global_step_100 (gsm8k)',
        'Qwen2.5-7B-GRPO · global_step_100 (math500)',
        'Qwen2.5-7B-PPO · global_step_200 (gsm8k)',
        'Qwen2.5-7B-PPO · global_step_200 (MATH-500)',
      ],
    );
  });

  test('one dataset folder above the steps: Qwen2.5-7B-GRPO/gsm8k/global_step_N/ reads Qwen2.5-7B-GRPO · global_step_N', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/gsm8k/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/gsm8k/global_step_100/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/gsm8k/global_step_200/samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    assert.deepEqual(r.models.map((m) => m.label).sort(), [
      'Qwen2.5-7B',
      'Qwen2.5-7B-GRPO · global_step_100',
      'Qwen2.5-7B-GRPO · global_step_200',
    ]);
  });
});

describe('lm-eval sub-tasks: samples_<task>_<date> names the task whole, never the first known dataset inside it', () => {
  test('stemDataset: minerva_math_algebra, not minerva_math; an unknown task is its own dataset; other stems as before', () => {
    const date = '2025-01-15T10-20-30.123456';
    assert.equal(stemDataset(`samples_minerva_math_algebra_${date}`), 'minerva_math_algebra');
    assert.equal(stemDataset(`samples_minerva_math_${date}`), 'minerva_math');
    assert.equal(stemDataset(`samples_gsm8k_${date}`), 'gsm8k');
    assert.equal(stemDataset(`samples_mmlu_pro_math_${date}`), 'mmlu_pro_math');
    assert.equal(stemDataset(`samples_hendrycks_math_algebra_${date}`), 'hendrycks_math_algebra');
    // not lm-eval stems: unchanged
    assert.equal(stemDataset('math500_samples'), 'math500');
    assert.equal(stemDataset('samples'), undefined);
  });

  test('report: flat files samples_minerva_math_{algebra,geometry}_<date> of two lm-eval models are two datasets, each compared', () => {
    const date = '2025-01-15T10-20-30.123456';
    const r = cliReport(
      folder({
        [`Qwen__Qwen2.5-7B/samples_minerva_math_algebra_${date}.jsonl`]: flat('TF FF'),
        [`Qwen__Qwen2.5-7B/samples_minerva_math_geometry_${date}.jsonl`]: flat('FF FF FF'),
        [`me__Qwen2.5-7B-GRPO/samples_minerva_math_algebra_${date}.jsonl`]: flat('TT TF'),
        [`me__Qwen2.5-7B-GRPO/samples_minerva_math_geometry_${date}.jsonl`]: flat('TF FF TT'),
      }),
    );
    // before: both files of a model fell into one dataset `minerva_math`, problems 0 and 1 of algebra and
    // geometry merged as one problem each (seed shards)
    assert.deepEqual(
      r.datasets.map((d) => `${d.dataset} ${d.problems}`),
      ['minerva_math_algebra 2', 'minerva_math_geometry 3'],
    );
    assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B 10/1', 'me/Qwen2.5-7B-GRPO 10/6']);
    assert.deepEqual(pairs(r), ['Qwen/Qwen2.5-7B <- me/Qwen2.5-7B-GRPO']);
  });
});
