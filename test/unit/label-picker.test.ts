/**
 * The daily loop's UI: the label picker saves what was typed, a one-model folder calls its model "only model", the
 * line above the tree.
 *
 * Trial 13's findings in the daily loop's UI (label picker, one-model folders, wording). Each expected
 * value is what a person reading the view would expect from the trial's report.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileTextSource } from '../../src/core/index/sampleText';
import { overviewData, problemData, samplePreview } from '../../src/extension/panelData';
import { inBaseSection } from '../../src/shared/inBaseSection';
import { modelRoleTag, ONE_MODEL_NOTE, overviewModelsLine, sampleDetailTabs } from '../../src/shared/modelRoles';
import type * as TreeModule from '../../src/extension/problemTree';
import { indexed, humanEval, writeFolder } from './helpers';
import { loadWithStub } from './vscodeStub';
import {
  LABEL_PICKER_HINT,
  labelPickerItems,
  labelsOnAccept,
  NEW_LABEL_DESCRIPTION,
} from '../../src/extension/labelPicker';

// Trial 13 finding 2.
describe('the label picker saves exactly what was typed unless it is a listed label', () => {
  const labels = ['carry-error', 'grader error', 'lucky guess', 'reward hacking'];
  const listed = labels.map((label) => ({ label }));

  test('a typed part of a listed label is its own first item, "new label"', () => {
    const items = labelPickerItems(listed, 'error');
    assert.deepEqual(
      items.map((i) => [i.label, i.description ?? '']),
      [
        ['error', NEW_LABEL_DESCRIPTION],
        ['carry-error', ''],
        ['grader error', ''],
        ['lucky guess', ''],
        ['reward hacking', ''],
      ],
    );
    assert.equal(items[0].alwaysShow, true);
    // the listed items are the same objects (checked ones stay checked when the text changes)
    assert.equal(items[1], listed[0]);
  });

  test('no typed item for empty text or a listed label in another case', () => {
    assert.equal(labelPickerItems(listed, '  ').length, 4);
    assert.equal(labelPickerItems(listed, 'Grader Error').length, 4);
  });

  test('Enter saves the typed text, not the listed label containing it (error, guess, carry, reward)', () => {
    assert.deepEqual(labelsOnAccept(labels, [], 'error'), ['error']);
    assert.deepEqual(labelsOnAccept(labels, [], 'guess'), ['guess']);
    assert.deepEqual(labelsOnAccept(labels, [], ' carry '), ['carry']);
    assert.deepEqual(labelsOnAccept(labels, [], 'reward'), ['reward']);
  });

  test('a listed label typed in another case saves the listed label', () => {
    assert.deepEqual(labelsOnAccept(labels, [], 'Lucky Guess'), ['lucky guess']);
  });

  test('↓/Space checks still save, with the typed text added once', () => {
    assert.deepEqual(labelsOnAccept(labels, [listed[1]], ''), ['grader error']);
    assert.deepEqual(labelsOnAccept(labels, [listed[1], listed[3]], 'error'), [
      'grader error',
      'reward hacking',
      'error',
    ]);
    assert.deepEqual(labelsOnAccept(labels, [{ label: 'error', typed: true }], 'error'), ['error']);
    assert.deepEqual(labelsOnAccept(labels, [listed[2]], 'LUCKY GUESS'), ['lucky guess']);
  });

  test('the hint says what Enter and ↓/Space do', () => {
    assert.match(LABEL_PICKER_HINT, /Enter saves the typed label exactly/);
    assert.match(LABEL_PICKER_HINT, /↓, Space to check/);
  });
});

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

// Trial 13 finding 11 (cosmetic).
describe('the line above the tree', () => {
  const { countParts, filterCountLine } = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');

  test('"Lucky guesses? 2 problems", no doubled punctuation; other filters keep their colon', () => {
    assert.equal(filterCountLine({ kind: 'luckyGuess' }, 2), 'Lucky guesses? 2 problems');
    assert.equal(filterCountLine({ kind: 'failing' }, 1), 'Failing: 1 problem');
  });

  test('a row with n = 10 shows pass@8 (the largest tree k that 10 reaches), and its value is pass@8 at n = 10', () => {
    // 9 of 10 correct: pass@8 = 1 - C(1,8)/C(10,8) = 1; 2 of 10: 1 - C(8,8)/C(10,8) = 1 - 1/45
    assert.deepEqual(countParts({ n: 10, c: 9, graded: 10 }, [1, 2, 4, 8, 16]), ['9/10', 'pass@8 1.00']);
    assert.deepEqual(countParts({ n: 10, c: 2, graded: 10 }, [1, 2, 4, 8, 16]), [
      '2/10',
      `pass@8 ${(1 - 1 / 45).toFixed(2)}`,
    ]);
  });
});
