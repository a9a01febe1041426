// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Results root folders (eval_results/ and its siblings) and verl val_generations steps name no model; the step
 * folders under them are labelled `<model> · <step>`.
 *
 * Trial 12 findings 16 and 14 on model naming: 16 a results root folder outside the generic list (`eval_results/`,
 * `eval_outputs/`, `evaluation_results/`, `outputs/`, `generations/`) was part of every Qwen-math model name, and a
 * step folder under it was not labelled `<model> · <step>`; 14 verl's `val_generations/<step>.jsonl` read through a
 * mapping without `model` named the models `100`, `200`, `0`. Each test builds its folder in a temporary directory
 * (writeFolder of helpers.ts) and reads it through the compiled CLI (`report --format json`). Every expected value is
 * the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../src/core/report/index';
import { cliReport, flatLines, qwen, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t12n-');

/** Models as `<label> <samples>/<correct>`, sorted. */
const models = (r: Report) => r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`).sort();

/** Comparisons as `<base label> <- <model label>`, sorted. */
const pairs = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.comparisons.map((c) => `${label.get(c.base)} <- ${label.get(c.model)}`).sort();
};

/** The Qwen-math file name of the trial's layout. */
const QF = 'test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';

// Trial 12 finding 16.
describe('a results root folder (eval_results/ and siblings) names no model; step folders under it read `<model> · <step>`', () => {
  test('data/ckpt: eval_results/<model>/[global_step_N/]math_eval/<dataset>/test_*.jsonl', () => {
    const r = cliReport(
      folder({
        [`eval_results/Qwen2.5-Math-7B/math_eval/math500/${QF}`]: qwen('TF FF TF TF'),
        [`eval_results/Qwen2.5-Math-7B/math_eval/aime24/${QF}`]: qwen('F F F'),
        [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_100/math_eval/math500/${QF}`]: qwen('T T F T'),
        [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_200/math_eval/math500/${QF}`]: qwen('T T T T'),
        [`eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_200/math_eval/aime24/${QF}`]: qwen('T F F'),
      }),
    );
    // was: `eval_results/Qwen2.5-Math-7B`, `eval_results/Qwen2.5-Math-7B-SimpleRL/global_step_100`, ...
    assert.deepEqual(models(r), [
      'Qwen2.5-Math-7B 11/3',
      'Qwen2.5-Math-7B-SimpleRL · global_step_100 4/3',
      'Qwen2.5-Math-7B-SimpleRL · global_step_200 7/5',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-Math-7B <- Qwen2.5-Math-7B-SimpleRL · global_step_100',
      'Qwen2.5-Math-7B <- Qwen2.5-Math-7B-SimpleRL · global_step_200',
    ]);
  });

  test('siblings: eval_outputs/, evaluation_results/, outputs/, generations/ roots; results/ and an org folder; a flat reader under eval_results/', () => {
    for (const root of ['eval_outputs', 'evaluation_results', 'outputs', 'generations', 'results']) {
      const r = cliReport(
        folder({
          [`${root}/Qwen/Qwen2.5-7B/math_eval/math500/${QF}`]: qwen('TF FF'),
          [`${root}/Qwen2.5-7B-GRPO/checkpoint-500/math_eval/math500/${QF}`]: qwen('TT TF'),
        }),
      );
      assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B 4/1', 'Qwen2.5-7B-GRPO · checkpoint-500 4/3'], root);
    }
    // the model folder itself is never dropped, even when its name is a generic word
    const r = cliReport(folder({ [`eval_results/outputs/math_eval/math500/${QF}`]: qwen('TF FF') }));
    assert.deepEqual(models(r), ['outputs 4/1']);
    // a flat reader under eval_results/ names the model folder already; its step folder reads `<model> · <step>`
    const f = cliReport(
      folder({
        'eval_results/Qwen2.5-7B/samples.jsonl': flatLines('TFFF TFFF'),
        'eval_results/Qwen2.5-7B-GRPO/global_step_100/samples.jsonl': flatLines('TTFF TTFF'),
      }),
    );
    assert.deepEqual(models(f), ['Qwen2.5-7B 8/2', 'Qwen2.5-7B-GRPO · global_step_100 8/4']);
  });
});

/** verl validation lines of trial 12's `data/verl`: one sample per line, `score` 1.0 / 0.0, for problems 0.. of a spec. */
const verlLines = (spec: string, step: number): string =>
  spec
    .split(' ')
    .flatMap((word, t) =>
      [...word].map((v) =>
        JSON.stringify({
          input: `user: problem ${t}`,
          output: `step ${step} ans ${v === 'T' ? 1 : 0}`,
          gts: '4',
          score: v === 'T' ? 1.0 : 0.0,
          step,
        }),
      ),
    )
    .join('\n');

/** The docs' verl mapping without `model` (trial 12 `data/verl`). */
const VERL_MAPPING = JSON.stringify({
  files: ['**/val_generations/*.jsonl'],
  records: 'per-sample',
  dataset: 'math_val',
  fields: { question: 'input', text: 'output', referenceAnswer: 'gts', correct: 'score' },
});

// Trial 12 finding 14.
describe('verl val_generations/<step>.jsonl through a mapping without `model` are steps of the model folder above', () => {
  test('data/verl: Qwen2.5-7B-GRPO/val_generations/{100,200}.jsonl and Qwen2.5-7B/val_generations/0.jsonl', () => {
    const r = cliReport(
      folder({
        'trace-inspector.mapping.json': VERL_MAPPING,
        'Qwen2.5-7B/val_generations/0.jsonl': verlLines('TF FF TF', 0),
        'Qwen2.5-7B-GRPO/val_generations/100.jsonl': verlLines('TT FF TF', 100),
        'Qwen2.5-7B-GRPO/val_generations/200.jsonl': verlLines('TT TF TT', 200),
      }),
    );
    // was: models `100`, `200`, `0 [base]` and the warning that `100` and `200` differ only in a number
    assert.deepEqual(models(r), ['Qwen2.5-7B 6/2', 'Qwen2.5-7B-GRPO@step-100 6/3', 'Qwen2.5-7B-GRPO@step-200 6/5']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO@step-100', 'Qwen2.5-7B <- Qwen2.5-7B-GRPO@step-200']);
    assert.equal(r.warnings.filter((w) => /differ only in a number/.test(w)).length, 0, r.warnings.join('\n'));
  });

  test('siblings: validation_generations/ and val/ folders, a step file right under the model folder', () => {
    const r = cliReport(
      folder({
        'trace-inspector.mapping.json': JSON.stringify({
          ...JSON.parse(VERL_MAPPING),
          files: ['**/*.jsonl'],
        }),
        'Qwen2.5-7B/validation_generations/0.jsonl': verlLines('TF FF TF', 0),
        'Qwen2.5-7B-PPO/val/50.jsonl': verlLines('TF TF TF', 50),
        'Qwen2.5-7B-DAPO/300.jsonl': verlLines('TT TT TF', 300),
      }),
    );
    assert.deepEqual(models(r), ['Qwen2.5-7B 6/2', 'Qwen2.5-7B-DAPO@step-300 6/5', 'Qwen2.5-7B-PPO@step-50 6/3']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-DAPO@step-300', 'Qwen2.5-7B <- Qwen2.5-7B-PPO@step-50']);
  });
});
