import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeControl, preview } from '../../src/core/text';

describe('text helpers', () => {
  test('preview flattens whitespace and cuts with an ellipsis', () => {
    assert.equal(preview('a\n\n b   c', 80), 'a b c');
    assert.equal(preview('abcdefghij', 5), 'abcd…');
  });

  test('escapeControl shows C0, DEL, C1 and bidi controls as escapes', () => {
    assert.equal(escapeControl('\u202eevil\u007f'), '\\u{202e}evil\\x7f');
  });
});
