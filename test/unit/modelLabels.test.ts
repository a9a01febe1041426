import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  comparisonBase,
  defaultFocusModel,
  distinctiveLabels,
  guessBaseModel,
  type ModelIdentity,
  trainingStep,
} from '../../src/core/index/labels';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { indexFolder } from '../../src/core/index/indexer';
import { REAL } from './helpers';
import { join } from 'node:path';

const RLVR_PROBE = join(REAL, 'rlvr-probe-gsm8k');

const m = (run: string, name: string, revision: string | null = null): ModelIdentity => ({ run, name, revision });

describe('distinctiveLabels', () => {
  test('rlvr-probe-gsm8k: what tells the 12 models apart comes first, and every label is unique', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, RLVR_PROBE);
    const models = index.models();
    const labels = distinctiveLabels(models);
    const byId = new Map(models.map((x, i) => [x.displayId, labels[i]]));
    // Written out by hand from the folder's run folders and model names (README of the data).
    assert.deepEqual(models.map((x) => `${x.displayId} -> ${byId.get(x.displayId)}`).sort(), [
      'results_1024_cuda:expx/qwen-2.5-1.5b-rlvr-ppo -> ppo · 1024_cuda',
      'results_1024_cuda:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft -> sft · 1024_cuda',
      'results_2048_batched:expx/qwen-2.5-1.5b-rlvr-ppo@main -> ppo@main · 2048_batched',
      'results_2048_batched:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10 -> sft · 2048_batched',
      'trajectory/step-1000:expx/qwen-2.5-1.5b-rlvr-ppo@step-1000 -> ppo@step-1000',
      'trajectory/step-1000:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10 -> sft · step-1000',
      'trajectory/step-100:expx/qwen-2.5-1.5b-rlvr-ppo@step-100 -> ppo@step-100',
      'trajectory/step-100:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10 -> sft · step-100',
      'trajectory/step-300:expx/qwen-2.5-1.5b-rlvr-ppo@step-300 -> ppo@step-300',
      'trajectory/step-300:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10 -> sft · step-300',
      'trajectory/step-500:expx/qwen-2.5-1.5b-rlvr-ppo@step-500 -> ppo@step-500',
      'trajectory/step-500:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10 -> sft · step-500',
    ]);
    assert.equal(new Set(labels).size, 12);
    // Short enough for a tree row at the default side-bar width (about 25 characters of label at the third level).
    for (const l of labels) assert.ok(l.length <= 25, l);
    index.close();
  });

  test('one model keeps its whole name; one run shows no run', () => {
    assert.deepEqual(distinctiveLabels([m('', 'Qwen/Qwen2.5-Math-7B')]), ['Qwen2.5-Math-7B']);
    assert.deepEqual(distinctiveLabels([m('r', 'org/a-base'), m('r', 'org/a-grpo', 'step-5')]), [
      'base',
      'grpo@step-5',
    ]);
    // one run per name: the revision is the only thing that can tell a checkpoint
    assert.deepEqual(distinctiveLabels([m('r', 'org/sft', 'checkpoint-8'), m('r', 'org/ppo', 'main')]), [
      'sft@checkpoint-8',
      'ppo@main',
    ]);
  });

  test('a name that is the end of another keeps all its words; the other keeps enough to differ', () => {
    assert.deepEqual(distinctiveLabels([m('', 'x/ppo'), m('', 'x/rlvr-ppo'), m('', 'x/qwen-sft')]), [
      'ppo',
      'rlvr-ppo',
      'sft',
    ]);
  });

  test('the same last segment under two organisations keeps the whole name', () => {
    assert.deepEqual(distinctiveLabels([m('', 'a/qwen-7b'), m('', 'b/qwen-7b'), m('', 'a/llama-8b')]), [
      'a/qwen-7b',
      'b/qwen-7b',
      // `8b` alone names nothing: the words no other name has come in (trial 13 finding 8)
      'llama-8b',
    ]);
  });

  test('runs whose ends agree fall back to the whole run; the root run is "."', () => {
    const labels = distinctiveLabels([
      m('seed1/eval', 'x/sft'),
      m('seed2/eval', 'x/sft'),
      m('', 'x/sft'),
      m('seed1/eval', 'x/ppo'),
    ]);
    assert.deepEqual(labels, ['sft · seed1/eval', 'sft · seed2/eval', 'sft · .', 'ppo']);
    assert.equal(new Set(labels).size, labels.length);
  });
});

describe('the default pair: the final model of the last run against its own base', () => {
  const withIds = (ms: ModelIdentity[]) => ms.map((x, i) => ({ ...x, id: i + 1 }));

  test('rlvr-probe-gsm8k: ppo@step-1000 of trajectory/step-1000, against the SFT model of that run', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, RLVR_PROBE);
    const models = index.models();
    const focus = defaultFocusModel(models)!;
    assert.equal(focus.displayId, 'trajectory/step-1000:expx/qwen-2.5-1.5b-rlvr-ppo@step-1000');
    const base = comparisonBase(models, focus, models[guessBaseModel(models)], false)!;
    assert.equal(base.displayId, 'trajectory/step-1000:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10');
    index.close();
  });

  test('trainingStep reads step, global_step, ckpt and checkpoint; none for a final model', () => {
    assert.equal(trainingStep({ name: 'org/ppo', revision: 'step-1000' }), 1000);
    assert.equal(trainingStep({ name: 'org/grpo_global_step_300', revision: null }), 300);
    assert.equal(trainingStep({ name: 'org/sft', revision: 'checkpoint-8-of-10' }), 8);
    assert.equal(trainingStep({ name: 'ckpt5', revision: null }), 5);
    assert.equal(trainingStep({ name: 'org/ppo', revision: 'main' }), undefined);
    assert.equal(trainingStep({ name: 'org/stepwise-7b', revision: null }), undefined);
  });

  test('within the last run, a model without a step (final) before the largest step; runs in natural order', () => {
    const ms = withIds([
      m('run-2', 'x/base'),
      m('run-2', 'x/grpo', 'step-200'),
      m('run-2', 'x/grpo', 'step-1000'),
      m('run-10', 'x/base'),
      m('run-10', 'x/grpo', 'step-50'),
      m('run-10', 'x/grpo', 'step-900'),
    ]);
    assert.equal(defaultFocusModel(ms)?.id, 6, 'run-10 comes after run-2; step-900 is its last');
    const withFinal = withIds([m('a', 'x/sft'), m('a', 'x/ppo', 'step-5'), m('a', 'x/ppo', 'main')]);
    assert.equal(defaultFocusModel(withFinal)?.id, 3, 'ppo@main has no step: the final model');
  });

  test('a last run holding only its base gives way to the run before; one model is its own base', () => {
    const ms = withIds([m('a', 'x/sft'), m('a', 'x/ppo'), m('b', 'x/sft')]);
    assert.equal(defaultFocusModel(ms)?.id, 2);
    assert.equal(defaultFocusModel(withIds([m('', 'x/sft')])), undefined);
    assert.equal(defaultFocusModel([]), undefined);
  });
});
