/**
 * The computation-step reader reads what is written (issue 32): a unit stays on its number's line and in its
 * display-math block, `$25/hour` is a rate, a repeating decimal is its value, a share "of" a quantity is no unit,
 * an expression is read whole or not at all, and a label written again on the next line goes on with its chain.
 * Each kind with its siblings (other units, spacing, `\(` / `$` delimiters). docs/similarity.md section 6.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clearChainMemo, extractSteps } from '../../src/core/similarity/steps';

/** The steps of a text as shown (`30 × 25 = 750`, a wrong result marked), read with nothing kept, then kept. */
function steps(text: string): string[] {
  clearChainMemo();
  const fresh = extractSteps(text).map((s) => `${s.display}${s.consistent ? '' : ' (wrong)'}`);
  // the same text again, its chains kept by the memo: the same steps
  assert.deepEqual(
    extractSteps(text).map((s) => `${s.display}${s.consistent ? '' : ' (wrong)'}`),
    fresh,
  );
  return fresh;
}

describe('a unit never crosses a display-math boundary or a line break', () => {
  test('the issue example (rlvr-probe-gsm8k RL problem 25 sample 3): 30 × 25 = 750, never 30 × 25 = 30', () => {
    const text =
      '\\[\n   \\text{Total Hours Rented} = 10 \\times 3 = 30 \\text{ hours}\n   \\]\n\n   \\[\n   \\text{Total Revenue} = 30 \\text{ hours} \\times \\$25/\\text{hour} = \\$750\n   \\]';
    assert.deepEqual(steps(text), ['10 × 3 = 30', '30 × 25 = 750']);
  });

  test('siblings: $$ blocks, a plain line break, a LaTeX line break, other units, no spaces', () => {
    // each second equation has no written result: nothing of it is a step (was `20 × 1/2 = 20`, the unit of 20
    // reaching over the boundary into the next equation's label)
    assert.deepEqual(steps('$$4 \\times 5 = 20 \\text{ boxes}$$\n$$\\text{Boxes left} = 20 \\times \\frac{1}{2}$$'), [
      '4 × 5 = 20',
    ]);
    assert.deepEqual(steps('Total = 4 \\times 5 = 20 boxes\nBoxes sold = 20 / 2'), ['4 × 5 = 20']);
    assert.deepEqual(steps('x = 2 \\times 6 = 12 dollars \\\\ Tip amount = 12 \\times 0.25'), ['2 × 6 = 12']);
    assert.deepEqual(steps('\\[a=3\\times5=15\\text{ cm}\\]\\[\\text{Area}=15\\times2\\]'), ['3 × 5 = 15']);
  });

  test('a unit after an inline formula on the same line still counts (`\\( 60 \\) miles/hour`, `$30$ hours`)', () => {
    assert.deepEqual(steps('Half of it: \\( \\frac{60}{2} = 30 \\) miles/hour, so 30 \\times 2 = 60.'), [
      '60/2 = 30',
      '30 × 2 = 60',
    ]);
    assert.deepEqual(steps('He works $10 \\times 3 = 30$ hours in all.'), ['10 × 3 = 30']);
  });
});

describe('a rate written after a number is its unit', () => {
  test('`\\$25/\\text{hour}`, `$25/hour`, `25/hr`, on either side of the product', () => {
    assert.deepEqual(steps('30 hours × \\$25/hour = \\$750'), ['30 × 25 = 750']);
    assert.deepEqual(steps('\\( 30 \\text{ hours} \\times \\$25/\\text{hour} = \\$750 \\)'), ['30 × 25 = 750']);
    assert.deepEqual(steps('$25/\\text{hour} \\times 30 \\text{ hours} = \\$750$'), ['25 × 30 = 750']);
    assert.deepEqual(steps('25/hr * 10 hours = $250'), ['25 × 10 = 250']);
    assert.deepEqual(steps('3 \\text{ days} \\times \\$1800/\\text{day} = \\$5400'), ['3 × 1800 = 5400']);
  });

  test('a division stays one: `156 / 3 = 52`, `60 / 2 = 30 mph`; a letter is a variable, not a unit', () => {
    assert.deepEqual(steps('156 / 3 = 52'), ['156 / 3 = 52']);
    assert.deepEqual(steps('60 / 2 = 30 mph'), ['60 / 2 = 30']);
    assert.deepEqual(steps('y = 12/x = 4'), []);
  });
});

describe('a repeating decimal is its value', () => {
  test('`5.\\overline{3}`, `49.\\overline{3}`, `0.1\\overline{6}`, with `%`, on either side', () => {
    assert.deepEqual(steps('\\frac{1}{3} \\times 16 = 5.\\overline{3}'), ['1/3 × 16 = 5.(3)']);
    assert.deepEqual(steps('\\(\\frac{148}{3} = 49.\\overline{3}\\)'), ['148/3 = 49.(3)']);
    assert.deepEqual(steps('$\\frac{1}{6} = 0.1\\overline{6}$'), ['1/6 = 0.1(6)']);
    assert.deepEqual(steps('4 / 12 \\times 100 = 33.\\overline{3}\\%'), ['4 / 12 × 100 = 33.(3)%']);
    assert.deepEqual(steps('0.\\overline{4} = \\frac{4}{9}'), ['4/9 = 0.(4)']);
    // a wrong one is wrong: 886/18 is 49.2..., not 49.3...
    assert.deepEqual(steps('\\frac{886}{18} \\approx 49.\\overline{3}'), ['886/18 ≈ 49.(3) (wrong)']);
  });
});

describe('a share "of" a quantity is no number with a unit', () => {
  test('the issue example (SFT problem 13 sample 0): 5000/2 = 2500 only, never 1/2 = 2500', () => {
    const text =
      "- **Brother's Share:** \\( \\frac{1}{2} \\) of Valerie's earnings = \\( \\$\\frac{5,000}{2} = \\$2,500 \\)";
    assert.deepEqual(steps(text), ['5000/2 = 2500']);
  });

  test('siblings: `$` delimiters, a percent, other words', () => {
    assert.deepEqual(steps('$\\frac{1}{4}$ of the pizza = $\\frac{8}{4} = 2$ slices'), ['8/4 = 2']);
    assert.deepEqual(steps('20\\% of the price = 0.2 \\times 50 = 10'), ['0.2 × 50 = 10']);
    assert.deepEqual(steps('3 cups of flour + 2 cups = 5 cups'), ['3 + 2 = 5']);
  });
});

describe('an expression is read whole or not at all', () => {
  test('a variable or bracket it touches, an operator after it: the start of a longer expression is no link', () => {
    assert.deepEqual(steps('\\[\n5000 = \\frac{1}{2}B\n\\]'), []);
    assert.deepEqual(steps('\\[\n20 = 5 \\times 10 \\times (1 + x)\n\\]'), []);
    assert.deepEqual(steps('(12 + x) \\times 10 = 120 + 10x'), []);
    assert.deepEqual(steps('M = 2(5000 + 2500) = 2 \\times 7500 = 15000'), ['2 × 7500 = 15000']);
    assert.deepEqual(steps('AD^2 = 625 - 49 = 576'), ['625 - 49 = 576']);
    assert.deepEqual(steps('1.5e3 + 1 = 1501'), []);
  });

  test('mixed numbers are not read (`3\\,\\frac{2}{3}`, `8\\frac{1}{3}`), and invent nothing', () => {
    assert.deepEqual(
      steps(
        '12\\,\\text{hours} - (3\\,\\text{hours} + \\frac{2}{3}\\,\\text{hours}) = 12\\,\\text{hours} - 3\\,\\frac{2}{3}\\,\\text{hours} = 8\\,\\frac{1}{3}\\,\\text{hours}',
      ),
      [],
    );
    assert.deepEqual(steps('2\\frac{1}{2} = 2 + \\frac{1}{2} = 2.5'), ['2 + 1/2 = 2.5']);
  });

  test('what is not a continuation: prose after a unit, a Markdown `*` after a label, a bullet on the next line, a new line', () => {
    assert.deepEqual(steps('the remaining seats as 33 - 11 = 22 students and 11 parents.'), ['33 - 11 = 22']);
    assert.deepEqual(steps('- *Distance:* \\( 20\\% \\times 20 \\text{ miles} = 4 \\text{ miles} \\)'), [
      '20% × 20 = 4',
    ]);
    assert.deepEqual(steps('- 5 + 3 = 8\n- 2 + 2 = 4'), ['5 + 3 = 8', '2 + 2 = 4']);
    assert.deepEqual(steps('156 / 3 = 52\n2. Then 52 + 1 = 53'), ['156 / 3 = 52', '52 + 1 = 53']);
  });
});

describe('the same label on the next line goes on with the chain', () => {
  test('`\\text{Average} = \\frac{156}{3}` then `\\text{Average} = 52`; `x = ...` then `x = ...`', () => {
    assert.deepEqual(
      steps(
        '\\[\n\\text{Average} = \\frac{47 + 52 + 57}{3}\n\\]\n\n\\[\n\\text{Average} = \\frac{156}{3}\n\\]\n\n\\[\n\\text{Average} = 52 \\text{ WPM}\n\\]',
      ),
      ['(47 + 52 + 57)/3 = 52', '156/3 = 52'],
    );
    assert.deepEqual(steps('\\[ x = \\frac{522}{6} \\]\n\\[ x = 87 \\]'), ['522/6 = 87']);
    assert.deepEqual(steps('$$\\text{Total} = 20 + 8 + 20$$\n$$\\text{Total} = 48$$'), ['20 + 8 + 20 = 48']);
  });

  test('another label starts another equation (`Total Hours` then `Total Revenue`)', () => {
    assert.deepEqual(steps('\\[ \\text{Total Hours} = 10 \\times 3 \\]\n\\[ \\text{Total Revenue} = 750 \\]'), []);
    assert.deepEqual(steps('\\[ x = 4 + 5 \\]\n\\[ y = 9 \\]'), []);
  });
});
