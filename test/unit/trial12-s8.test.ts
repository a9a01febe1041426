/**
 * Trial 12 reader and naming leftovers (helper s8-readers): finding 2, one model per model folder when Qwen-math,
 * flat and rollouts files share it. Each test builds its folder in a temporary directory (writeFolder of helpers.ts)
 * and reads it through the compiled CLI (`report --format json`). Every expected value is the one a person reading
 * the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../src/core/report';
import { cliReport, humanEval, qwen, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t12s8-');

/** Models as `<label> <samples>/<correct> [<datasets>]`, sorted. */
const models = (r: Report) =>
  r.models.map((m) => `${m.label} ${m.samples}/${m.correct} [${m.datasets.map((d) => d.dataset).join(',')}]`).sort();

/** Comparisons as `<base label> <- <model label>`, sorted. */
const pairs = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.comparisons.map((c) => `${label.get(c.base)} <- ${label.get(c.model)}`).sort();
};

/** The Qwen-math file name of the trial's layout. */
const QF = 'test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';

/** Rollouts lines (no revision, as the trial's `data/mix`): qid `first + t`, one letter per rollout. */
const rollouts = (model: string | null, spec: string, first = 100): string =>
  spec
    .split(' ')
    .map((word, t) =>
      JSON.stringify({
        qid: first + t,
        question: `r${t}`,
        gold: '1',
        ...(model === null ? {} : { model_name: model }),
        rollouts: [...word].map((v, i) => ({ text: `t${t}.${i}`, correct: v === 'T' })),
      }),
    )
    .join('\n');

describe('finding 2: Qwen-math, flat and rollouts files in one model folder are one model', () => {
  test('data/mix2: <model>/math_eval/gsm8k/test_qwen-boxed_*.jsonl beside <model>/humaneval/samples.jsonl_results.jsonl', () => {
    const r = cliReport(
      folder({
        [`Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF TF'),
        'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF TF'),
        [`Qwen2.5-7B-GRPO/math_eval/gsm8k/${QF}`]: qwen('TT FF FF'),
        'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    // was: four models `Qwen2.5-7B (.)`, `Qwen2.5-7B (Qwen2.5-7B/humaneval)`, ... the humaneval copies NOT COMPARED
    assert.deepEqual(models(r), ['Qwen2.5-7B 10/4 [HumanEval,gsm8k]', 'Qwen2.5-7B-GRPO 10/5 [HumanEval,gsm8k]']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO']);
    assert.deepEqual(r.notCompared, []);
  });

  test('data/mix: and a rollouts file <model>/gsm8k_rollouts.jsonl (model_name the folder, and without model_name)', () => {
    for (const named of [true, false]) {
      const r = cliReport(
        folder({
          [`Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF TF'),
          'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF TF'),
          'Qwen2.5-7B/gsm8k_rollouts.jsonl': rollouts(named ? 'Qwen2.5-7B' : null, 'F T'),
          [`Qwen2.5-7B-GRPO/math_eval/gsm8k/${QF}`]: qwen('TT FF FF'),
          'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
          'Qwen2.5-7B-GRPO/gsm8k_rollouts.jsonl': rollouts(named ? 'Qwen2.5-7B-GRPO' : null, 'T T'),
        }),
      );
      // was: a third copy of each model (run `Qwen2.5-7B`), NOT COMPARED
      assert.deepEqual(
        models(r),
        ['Qwen2.5-7B 12/5 [HumanEval,gsm8k]', 'Qwen2.5-7B-GRPO 12/7 [HumanEval,gsm8k]'],
        `model_name ${named}`,
      );
      assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO'], `model_name ${named}`);
      assert.deepEqual(r.notCompared, [], `model_name ${named}`);
    }
  });

  test('siblings: a results root and an org folder, eval/ instead of math_eval/, a flat file right in the model folder', () => {
    const r = cliReport(
      folder({
        [`results/Qwen/Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF'),
        'results/Qwen/Qwen2.5-7B/HumanEval/samples.jsonl': humanEval('TF TF'),
        [`results/Qwen2.5-7B-GRPO/eval/gsm8k/${QF}`]: qwen('TT FF'),
        'results/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B 8/3 [HumanEval,gsm8k]', 'Qwen2.5-7B-GRPO 8/5 [HumanEval,gsm8k]']);
    assert.deepEqual(pairs(r), ['Qwen/Qwen2.5-7B <- Qwen2.5-7B-GRPO']);
  });

  test('siblings: flat and rollouts files without Qwen-math (<model>/math500_rollouts.jsonl beside <model>/humaneval/)', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/math500_rollouts.jsonl': rollouts('Qwen2.5-7B', 'TF FF'),
        'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF TF'),
        'Qwen2.5-7B-GRPO/math500_rollouts.jsonl': rollouts('Qwen2.5-7B-GRPO', 'TT TF'),
        'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(models(r), ['Qwen2.5-7B 8/3 [HumanEval,math500]', 'Qwen2.5-7B-GRPO 8/6 [HumanEval,math500]']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO']);
  });

  test('kept apart: another model name, a temperature variant, seed folders', () => {
    const r = cliReport(
      folder({
        [`Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF'),
        // rollouts naming another model stay that model
        'Qwen2.5-7B/gsm8k_rollouts.jsonl': rollouts('org/other-model', 'T T'),
        // a sampling at another temperature is a variant of the model, not the model
        'Qwen2.5-7B/humaneval/samples_t0.6.jsonl': humanEval('TF TF'),
        // seed folders stay seed siblings
        'Qwen2.5-7B/seed_1/samples.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(r.models.map((m) => m.id.slice(m.id.indexOf(':') + 1)).sort(), [
      'Qwen2.5-7B',
      'Qwen2.5-7B',
      'Qwen2.5-7B_t0.6',
      'org/other-model',
    ]);
    assert.deepEqual(r.models.map((m) => m.id).sort(), [
      'Qwen2.5-7B',
      'Qwen2.5-7B/humaneval:Qwen2.5-7B_t0.6',
      'Qwen2.5-7B/seed_1:Qwen2.5-7B',
      'Qwen2.5-7B:org/other-model',
    ]);
  });
});
