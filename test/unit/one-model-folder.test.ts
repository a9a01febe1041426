/**
 * A folder of one model: the problem view, the preview and the overview call its model "only model", never the
 * base, and offer no comparison (the sample detail shows Rendered alone); beside a second model the base is the
 * base. Trial 13 findings 3 and 4 (moved from label-picker.test.ts). Each expected value is what a person reading
 * the view would expect from the trial's report.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileTextSource } from '../../src/core/index/sampleText';
import { overviewData, problemData, samplePreview } from '../../src/extension/panelData';
import { inBaseSection } from '../../src/shared/inBaseSection';
import { modelRoleTag, ONE_MODEL_NOTE, overviewModelsLine, sampleDetailTabs } from '../../src/shared/modelRoles';
import { indexed, humanEval, writeFolder } from './helpers';

/** A one-model folder (HumanEval flat, 2 problems x 4 samples) and one with a base and an RL model. */
function folders() {
  const one = writeFolder({ 'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TFFF FFFF') });
  const two = writeFolder({
    'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TFFF FFFF'),
    'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TTFF TFFF'),
  });
  return { one, two };
}

// Trial 13 findings 3 and 4.
describe('a one-model folder calls its model "only model" and offers no comparison', () => {
  test('one model: problem view, preview and overview say only model, not base', async () => {
    const index = await indexed(folders().one);
    const [model] = index.models();
    const roles = { baseId: model.id, focusId: model.id };
    const p = index.listProblems({ kind: 'all' }, 0, 10)[0];
    const d = problemData(index, p.id, roles);
    assert.ok(d);
    assert.deepEqual(
      d.models.map((m) => [m.isBase, m.onlyModel, modelRoleTag(m)]),
      [[false, true, 'only model']],
    );
    // the sample list still comes (the base-alone section), worded for the only model
    const section = inBaseSection(d);
    assert.equal(section.kind, 'baseOnly');
    assert.equal(
      section.kind === 'baseOnly' ? section.text : '',
      `${model.label} is the only model: one model in this folder: nothing to compare it with. Its 4 samples are listed below.`,
    );
    const sampleId = index.samples(p.id, model.id, { limit: 1 })[0].id;
    const pv = await samplePreview(index, undefined, sampleId, roles, fileTextSource(index));
    assert.equal(pv && modelRoleTag(pv.model), 'only model');
    const o = overviewData(index, roles, 20, 20);
    assert.equal(o.models[0].isBase, false);
    assert.equal(overviewModelsLine(o.models, o.models[0]), `1 model · only model: ${model.label}`);
    index.close();
  });

  test('two models: the base is still the base', async () => {
    const index = await indexed(folders().two);
    const ms = index.models();
    const base = ms.find((m) => !m.label.includes('GRPO'));
    assert.ok(base);
    const roles = { baseId: base.id };
    const p = index.listProblems({ kind: 'all' }, 0, 10)[0];
    const d = problemData(index, p.id, roles);
    assert.deepEqual(
      d?.models.map((m) => [m.label, modelRoleTag(m)]),
      [
        [base.label, 'base'],
        // the short name the tree gives the RL model (trial 13 finding 8)
        ['GRPO', null],
      ],
    );
    const o = overviewData(index, roles, 20, 20);
    assert.equal(overviewModelsLine(o.models, base), `2 models · base model: ${base.label}`);
    index.close();
  });

  test('the sample detail: Rendered alone with one model; Rendered first when the novelty failed', () => {
    assert.deepEqual(sampleDetailTabs(true, false), { tabs: ['rendered'], active: 'rendered', note: ONE_MODEL_NOTE });
    assert.deepEqual(sampleDetailTabs(false, true), {
      tabs: ['novel', 'diff', 'rendered'],
      active: 'rendered',
      note: null,
    });
    assert.deepEqual(sampleDetailTabs(false, false).active, 'novel');
    assert.equal(ONE_MODEL_NOTE, 'one model in this folder: nothing to compare it with');
  });
});
