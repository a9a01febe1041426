import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dollarMath, escapeControl, preview } from '../../src/core/text';

describe('text helpers', () => {
  test('dollarMath rewrites \\( \\) and \\[ \\] to the $ delimiters of Markdown math', () => {
    assert.equal(dollarMath('so \\( 5 \\times 4 = 20 \\) and'), 'so $5 \\times 4 = 20$ and');
    assert.equal(dollarMath('\\[ \\boxed{48} \\]'), '\n$$\n\\boxed{48}\n$$\n');
    // multi-line display math; inline math never spans lines
    assert.equal(dollarMath('\\[\na + b\n\\]'), '\n$$\na + b\n$$\n');
    assert.equal(dollarMath('\\( a\nb \\)'), '\\( a\nb \\)');
    // text without LaTeX delimiters is unchanged, dollar amounts included
    assert.equal(dollarMath('It costs $5 and $10.'), 'It costs $5 and $10.');
  });

  test('preview flattens whitespace and cuts with an ellipsis', () => {
    assert.equal(preview('a\n\n b   c', 80), 'a b c');
    assert.equal(preview('abcdefghij', 5), 'abcd…');
  });

  test('escapeControl shows C0, DEL, C1 and bidi controls as escapes', () => {
    assert.equal(escapeControl('\u202eevil\u007f'), '\\u{202e}evil\\x7f');
  });
});
