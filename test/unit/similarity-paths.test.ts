/**
 * Computation paths (docs/similarity.md section 6): hand-written pairs with the expected steps and
 * comparisons worked out by hand, spelling siblings of every rule, and hostile input.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { comparePath, computationPath, extractSteps, MAX_LINK_TOKENS, problemPaths } from '../../src/core/similarity';
import { pathLine } from '../../src/shared/pathLine';

const keys = (t: string) => computationPath(t).keys;
const shown = (t: string) => computationPath(t).steps.map((s) => s.display);

describe('computation steps: what is a step', () => {
  test('the issue example: a sum then a division', () => {
    assert.deepEqual(shown('First, 47 + 52 + 57 = 156. Then 156 / 3 = 52.'), ['47 + 52 + 57 = 156', '156 / 3 = 52']);
  });

  test('running arithmetic in one chain gives one step per link', () => {
    assert.deepEqual(shown('$47 + 52 = 99 + 57 = 156$'), ['47 + 52 = 99', '99 + 57 = 156']);
  });

  test('a fraction chain: the expression and its simplification both reach the written result', () => {
    assert.deepEqual(shown('$\\text{Average} = \\frac{47+52+57}{3} = \\frac{156}{3} = 52$'), [
      '(47 + 52 + 57)/3 = 52',
      '156/3 = 52',
    ]);
  });

  test('result written first (rule 4)', () => {
    assert.deepEqual(shown('so 52 = \\frac{156}{3}.'), ['156/3 = 52']);
  });

  test('not steps: assignments, unknowns, arithmetic in words, unit conversions, nothing computed yet', () => {
    for (const t of [
      'x = 5',
      '$2x + 3 = 13$',
      'adding 47 and 52 gives 99',
      '1 hour = 60 minutes',
      '\\text{Average} = \\frac{47+52+57}{3}',
      'no equation here at all',
      '',
    ]) {
      assert.deepEqual(extractSteps(t), [], t);
    }
  });

  test('a wrong result is still the sample step, marked inconsistent', () => {
    const [s] = extractSteps('so 3 \\times 17 = 41');
    assert.equal(s.display, '3 × 17 = 41');
    assert.equal(s.computed, 51);
    assert.equal(s.result, 41);
    assert.equal(s.consistent, false);
    assert.equal(extractSteps('3 \\times 17 = 51')[0].consistent, true);
  });

  test('a rounded result after \\approx or with decimals is consistent within half a unit', () => {
    const [a] = extractSteps('$\\frac{886}{18} \\approx 49.2$');
    assert.equal(a.consistent, true);
    assert.equal(a.display, '886/18 ≈ 49.2');
    const [b] = extractSteps('$\\frac{886}{18} = 49.3$');
    assert.equal(b.consistent, false);
  });

  test('offsets point at the step in the original text', () => {
    const t = 'We get $3 \\times 17 = 51$ apples.';
    const [s] = extractSteps(t);
    assert.equal(t.slice(s.start, s.end), '3 \\times 17 = 51');
    const u = 'so 10 minutes \\times 47 = 470 words (WPM).';
    const [w] = extractSteps(u);
    assert.equal(u.slice(w.start, w.end), '10 minutes \\times 47 = 470');
  });

  test('a line-start "- " is a list bullet, not a minus sign', () => {
    assert.deepEqual(shown('- 10 + 8 = 18'), ['10 + 8 = 18']);
    assert.deepEqual(shown('20 - 8 = 12'), ['20 - 8 = 12']);
  });

  test('a written step twice is one step of the path, kept at its first place', () => {
    const t = '3 \\times 17 = 51. Again 3 \\times 17 = 51, then 51 + 1 = 52.';
    assert.equal(extractSteps(t).length, 3);
    assert.deepEqual(shown(t), ['3 × 17 = 51', '51 + 1 = 52']);
  });
});

describe('computation paths: same value, same step (answer equivalence numbers)', () => {
  const ref = keys('47 + 52 + 57 = 156, and 156 / 3 = 52');

  test('same steps in different words and spellings give the same path', () => {
    for (const t of [
      'First, I add up the three scores: 47 + 52 + 57 = 156. Dividing by three, 156 / 3 = 52.',
      'The total is $47+52+57=156$, so the mean is $\\frac{156}{3} = 52.00$.',
      'Sum: \\(57 + 52 + 47 = 156\\). Mean: \\(\\dfrac{156}{3} = \\boxed{52}\\)',
      'Total $= 47 + 52 + 57 = 156$ points; average $= 156 \\div 3 = 52$ points.',
      '47 + 52 + 57 = 156\n156 ÷ 3 = 52.0',
      '$$\\begin{aligned} 47 + 52 + 57 &= 156 \\\\ \\tfrac{156}{3} &= 52 \\end{aligned}$$',
    ]) {
      assert.deepEqual(keys(t), ref, t);
    }
  });

  test('multiplication siblings: \\times, \\cdot, *, ×, ·, the word x', () => {
    const k = keys('3 \\times 17 = 51');
    for (const t of [
      '3 \\cdot 17 = 51',
      '3 * 17 = 51',
      '3 × 17 = 51',
      '3·17 = 51',
      '3 x 17 = 51',
      '17 \\times 3 = 51',
    ]) {
      assert.deepEqual(keys(t), k, t);
    }
  });

  test('number spellings: thousands separators, trailing zeros, dollars, percent as a value', () => {
    assert.deepEqual(keys('1,000 + 2,000 = 3,000'), keys('1000 + 2000 = 3000'));
    assert.deepEqual(keys('$1{,}000 + 2,\\!000 = 3\\,000$'), keys('1000 + 2000 = 3000'));
    assert.deepEqual(keys('\\$12.50 \\times 4 = \\$50.00'), keys('12.5 * 4 = 50'));
    assert.deepEqual(keys('20\\% \\times 50 = 10'), keys('0.2 \\times 50 = 10'));
    assert.deepEqual(keys('10 \\text{ minutes} \\times 47 = 470'), keys('47 \\times 10 = 470'));
  });

  test('same words, one number changed: a new step', () => {
    const base = 'Each box holds 17 apples, so 3 boxes hold 3 \\times 17 = 51 apples, and 51 + 4 = 55 in all.';
    const model = 'Each box holds 18 apples, so 3 boxes hold 3 \\times 18 = 54 apples, and 51 + 4 = 55 in all.';
    const m = comparePath(computationPath(model), [new Set(keys(base))]);
    assert.equal(m.steps, 2);
    assert.equal(m.found, 1);
    assert.equal(m.fullPath, 0);
    assert.deepEqual(
      m.newSteps.map((s) => s.display),
      ['3 × 18 = 54'],
    );
    assert.notDeepEqual(keys('3 \\times 18 = 54'), keys('3 \\times 17 = 51'));
  });
});

describe('computation paths: comparisons and baselines', () => {
  // base paths by hand: b0 = {A, B}, b1 = {A, B, C}, b2 = {A}, b3 = {D}
  const A = '47 + 52 + 57 = 156.';
  const B = '156 / 3 = 52.';
  const C = '52 + 5 = 57.';
  const D = '47 \\times 10 = 470.';
  const base = [`${A} ${B}`, `${A} ${C} ${B}`, A, D];
  const model = [`${A} ${B}`, `${D} ${C} 3 \\times 17 = 51.`, 'no steps here'];

  test('per model sample: found, full path, new steps, leave-one-out share (by hand)', () => {
    const r = problemPaths(base, model);
    // m0 = {A, B}: b0 and b1 compute both; A is in 3 base samples, B in 2: both count 1 left-one-out
    assert.deepEqual(
      { ...r.model[0], newSteps: r.model[0].newSteps.length },
      {
        steps: 2,
        found: 2,
        shareFound: 1,
        shareFoundLeaveOneOut: 1,
        fullPath: 2,
        bestFound: 2,
        candidates: 4,
        newSteps: 0,
      },
    );
    // m1 = {D, C, E}: D only in b3, C only in b1 -> each (4-1)/4 left one out; E new
    const m1 = r.model[1];
    assert.equal(m1.steps, 3);
    assert.equal(m1.found, 2);
    assert.equal(m1.shareFound, 2 / 3);
    assert.equal(m1.shareFoundLeaveOneOut, (0.75 + 0.75 + 0) / 3);
    assert.equal(m1.fullPath, 0);
    assert.equal(m1.bestFound, 1);
    assert.deepEqual(
      m1.newSteps.map((s) => s.display),
      ['3 × 17 = 51'],
    );
    // m2: no steps -> neither in nor out
    assert.equal(r.model[2].steps, 0);
    assert.equal(r.model[2].shareFound, null);
    assert.equal(r.model[2].shareFoundLeaveOneOut, null);
  });

  test('baseline: each base sample against the n - 1 others; model against the other model samples', () => {
    const r = problemPaths(base, model);
    assert.deepEqual(
      r.baseline.map((b) => [b.candidates, b.steps, b.found, b.fullPath]),
      [
        [3, 2, 2, 1], // b0 {A,B}: b1 has both
        [3, 3, 2, 0], // b1 {A,C,B}: C in no other
        [3, 1, 1, 2], // b2 {A}: b0, b1
        [3, 1, 0, 0], // b3 {D}: nowhere else
      ],
    );
    assert.deepEqual(
      r.modelBaseline.map((b) => [b.candidates, b.found, b.fullPath]),
      [
        [2, 0, 0],
        [2, 0, 0],
        [2, 0, 0],
      ],
    );
  });

  test('the problem view line', () => {
    const r = problemPaths(base, model);
    assert.equal(pathLine(r.model[0]), 'path in base: 2/4 base samples compute all 2 steps');
    assert.equal(
      pathLine(r.model[1]),
      'path not in base: 0/4 base samples compute all 3 steps (at most 1); 1 step new: 3 × 17 = 51',
    );
    assert.equal(pathLine(r.model[2]), 'no computation steps found');
    // the protocol's shape: the first few new steps as strings and their count
    assert.equal(
      pathLine(
        { steps: 5, fullPath: 0, bestFound: 0, candidates: 8, newSteps: ['a = 1', 'b = 2'], newStepCount: 5 },
        2,
      ),
      'path not in base: 0/8 base samples compute all 5 steps; 5 steps new: a = 1; b = 2; …',
    );
  });

  test('no base samples: nothing found, nothing left out silently', () => {
    const r = problemPaths([], [`${A} ${B}`]);
    assert.equal(r.model[0].candidates, 0);
    assert.equal(r.model[0].found, 0);
    assert.equal(r.model[0].newSteps.length, 2);
    assert.equal(r.model[0].shareFoundLeaveOneOut, null);
  });
});

describe('computation steps: untrusted input', () => {
  test('never throws on arbitrary strings and non-strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        extractSteps(s);
        extractSteps(s.replace(/[a-z]/g, '='));
      }),
      { numRuns: 300 },
    );
    for (const x of [null, undefined, 42, {}, ['1+1=2']]) assert.deepEqual(extractSteps(x as unknown as string), []);
  });

  test('a very long chain and deep nesting stay bounded and do not throw', () => {
    const chain = `${Array.from({ length: 5000 }, (_, i) => `${i} + 1 = ${i + 1}`).join(' = ')}`;
    assert.ok(extractSteps(chain).length > 0);
    const deep = `${'('.repeat(10000)}1 + 1${')'.repeat(10000)} = 2`;
    assert.deepEqual(extractSteps(deep), []);
    const longLeft = `${Array.from({ length: MAX_LINK_TOKENS }, () => '1 +').join(' ')} 1 = ${MAX_LINK_TOKENS + 1}`;
    assert.ok(Array.isArray(extractSteps(longLeft)));
  });
});
