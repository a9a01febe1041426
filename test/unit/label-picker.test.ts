/**
 * The label picker saves exactly what was typed unless it is a listed label (trial 13 finding 2; trial 13's other
 * UI findings are in one-model-folder.test.ts and tree-rows.test.ts). Each expected value is what a person reading
 * the view would expect from the trial's report.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
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
