/**
 * Trial 13 finding 8 (one name per model): every view names a model by the short name of the tree and the status
 * bar, and a short name keeps what tells the method apart. Expected names written out by hand from the folders'
 * model names.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { distinctiveLabels, shortModelNames } from '../../src/core/index/labels';
import { fileTextSource } from '../../src/core/index/sampleText';
import { overviewData, problemData, samplePreview, viewModels } from '../../src/extension/panelData';
import { indexed, qwen, REAL, writeFolder } from './helpers';

const skipReal = existsSync(REAL) ? false : 'real data folder ../shared/data/real not found';

/** Trial 13's own folder "mini": a base and one GRPO checkpoint in the Qwen2.5-Math layout. */
function miniFolder(): string {
  const file = 'math_eval/math500/test_qwen-boxed_-1_seed0_t0.6_s0_e-1.jsonl';
  return writeFolder({
    [`Qwen2.5-Math-1.5B/${file}`]: qwen('TTFF FFFF'),
    [`Qwen2.5-Math-1.5B-GRPO/global_step_200/${file}`]: qwen('TFFF TFFF'),
  });
}

describe('trial 13 finding 8: short names keep the method', () => {
  test('tot-game24: the Tree-of-Thoughts model is propose1_value3_greedy5, not greedy5', {
    skip: skipReal,
  }, async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const models = index.models();
    assert.deepEqual(
      models.map((m) => m.name),
      ['gpt-4_0.7_naive_cot_sample_100', 'gpt-4_0.7_naive_standard_sample_100', 'gpt-4_0.7_propose1_value3_greedy5'],
    );
    assert.deepEqual(distinctiveLabels(models), ['cot_sample_100', 'standard_sample_100', 'propose1_value3_greedy5']);
    index.close();
  });

  test('a short name of settings alone takes in the words no other model has; a shared word stops it', () => {
    const m = (name: string) => ({ run: '', name, revision: null });
    // `8b` names nothing: llama is in no other name
    assert.deepEqual(distinctiveLabels([m('a/qwen-7b'), m('b/qwen-7b'), m('a/llama-8b')]), [
      'a/qwen-7b',
      'b/qwen-7b',
      'llama-8b',
    ]);
    // lr1e-6 beside lr3e-6: `model` is in both names, so the settings stay alone
    assert.deepEqual(distinctiveLabels([m('model-lr1e-6'), m('model-lr3e-6')]), ['lr1e-6', 'lr3e-6']);
    // a bare number takes the word before it, shared or not
    assert.deepEqual(distinctiveLabels([m('global_step_900'), m('global_step_1000')]), ['step_900', 'step_1000']);
    // a short name with a word without a digit is kept
    assert.deepEqual(distinctiveLabels([m('x/rlvr-ppo'), m('x/qwen-sft')]), ['ppo', 'sft']);
  });

  test('mini: the GRPO checkpoint is 1.5B-GRPO · step-200 in the tree and in every webview', async () => {
    const index = await indexed(miniFolder());
    const models = index.models();
    const names = shortModelNames(models);
    const grpo = models.find((m) => m.name.includes('GRPO'))!;
    const base = models.find((m) => !m.name.includes('GRPO'))!;
    // the long label the views used to show
    assert.equal(grpo.label, 'Qwen2.5-Math-1.5B-GRPO · global_step_200');
    assert.equal(names.get(grpo.id), '1.5B-GRPO · step-200');
    assert.equal(names.get(base.id), 'Qwen2.5-Math-1.5B');
    assert.deepEqual(
      viewModels(index).map((m) => [m.label, m.displayId]),
      models.map((m) => [names.get(m.id), m.displayId]),
    );
    const roles = { baseId: base.id, focusId: grpo.id };
    const p = index.listProblems()[0];
    // the problem view: its table, legend and headings read the models' labels
    const pd = problemData(index, p.id, roles)!;
    assert.deepEqual(pd.models.map((m) => m.label).sort(), ['1.5B-GRPO · step-200', 'Qwen2.5-Math-1.5B']);
    // the full id stays for the tooltips
    assert.equal(pd.models.find((m) => m.id === grpo.id)?.displayId, grpo.displayId);
    // the preview's Model field
    const sampleId = index.samples(p.id, grpo.id)[0].id;
    const pv = await samplePreview(index, undefined, sampleId, roles, fileTextSource(index));
    assert.equal(pv?.model.label, '1.5B-GRPO · step-200');
    // the overview: table, legends and warnings
    const ov = overviewData(index, roles, 10, 10);
    assert.deepEqual(ov.models.map((m) => m.label).sort(), ['1.5B-GRPO · step-200', 'Qwen2.5-Math-1.5B']);
    for (const w of ov.warnings) assert.ok(!w.includes('global_step_200'), w);
    index.close();
  });
});
