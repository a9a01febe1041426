import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeControl, ordinal, preview } from '../../src/core/text/strings';

describe('text helpers', () => {
  test('ordinal: English suffixes, the teens included (trial 4: positions read apart from ids)', () => {
    assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal), [
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
      '112th',
    ]);
  });

  test('preview flattens whitespace and cuts with an ellipsis', () => {
    assert.equal(preview('a\n\n b   c', 80), 'a b c');
    assert.equal(preview('abcdefghij', 5), 'abcd…');
  });

  test('escapeControl shows C0, DEL, C1 and bidi controls as escapes', () => {
    assert.equal(escapeControl('\u202eevil\u007f'), '\\u{202e}evil\\x7f');
  });
});
