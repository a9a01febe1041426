import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { distinctiveLabels, type ModelIdentity } from '../../src/core/index/labels';
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
    assert.equal(byId.get('results_2048_batched:expx/qwen-2.5-1.5b-rlvr-ppo@main'), 'ppo@main · 2048_batched');
    assert.equal(
      byId.get('results_2048_batched:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10'),
      'sft@checkpoint-8-of-10 · 2048_batched',
    );
    assert.equal(byId.get('results_1024_cuda:expx/qwen-2.5-1.5b-rlvr-ppo'), 'ppo · 1024_cuda');
    assert.equal(byId.get('trajectory/step-1000:expx/qwen-2.5-1.5b-rlvr-ppo@step-1000'), 'ppo@step-1000 · step-1000');
    assert.equal(
      byId.get('trajectory/step-100:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10'),
      'sft@checkpoint-8-of-10 · step-100',
    );
    assert.equal(new Set(labels).size, 12);
    // Short enough for a tree row at the default side-bar width (about 40 characters of label).
    for (const l of labels) assert.ok(l.length <= 40, l);
    index.close();
  });

  test('one model keeps its whole name; one run shows no run', () => {
    assert.deepEqual(distinctiveLabels([m('', 'Qwen/Qwen2.5-Math-7B')]), ['Qwen2.5-Math-7B']);
    assert.deepEqual(distinctiveLabels([m('r', 'org/a-base'), m('r', 'org/a-grpo', 'step-5')]), [
      'base',
      'grpo@step-5',
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
      '8b',
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
