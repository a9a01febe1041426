/**
 * Answer equivalence (src/core/answers): every spelling class of issue 11 and its siblings, one
 * group per value whose expected key is written by hand; values that must stay apart; guards
 * against hostile answers; determinism and the per-string cache.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerCacheStats,
  answerKey,
  canonicalAnswer,
  casStatus,
  clearAnswerCache,
  numberKey,
  sameAnswer,
  surfaceForm,
} from '../../src/core/answers';
import { mulberry32 } from '../../src/core/metrics';
import { SPELLING_CLASSES } from './answerSpellings';

/** Keys of expressions with unknowns are fingerprints: only equality is asserted. */
const EXPRESSION_CLASSES: [string, string[]][] = [
  ['polynomials (expanded or factored, any order)', ['x^2+2x+1', '(x+1)^2', '1+2x+x^2', 'x^2 + 2 x + 1', '(1+x)(x+1)']],
  ['linear expressions', ['4a-2', '-2+4a', '2(2a-1)', '4 a - 2']],
  ['rational expressions', ['\\frac{x+2}{7}', '\\frac{x}{7}+\\frac{2}{7}', '(x+2)/7']],
  ['products of variables', ['2xy', '2yx', '2 \\cdot x \\cdot y']],
];

/** Pairs that must stay apart (the reason in the test name). */
const DISTINCT: [string, string, string][] = [
  ['percent is not a fraction of 100 (not transitive)', '0.5', '50\\%'],
  ['roundings are not the value', '33.33', '\\frac{100}{3}'],
  ['a point is not a closed interval', '(1,2)', '[1,2]'],
  ['tuples are ordered', '(1,2)', '(2,1)'],
  ['half-open intervals differ by bracket', '[0,1)', '(0,1]'],
  ['named assignments keep their names', 'x=2, y=3', 'x=3, y=2'],
  ['a variable is not a unit', '2x', '2'],
  ['a variable after a number stays', '3B', '3'],
  ['no unit conversion', '1 km', '1000'],
  ['times of day keep a.m./p.m.', '4:30 p.m.', '4:30 a.m.'],
  ['different words', 'Monday', 'Tuesday'],
  ['different signs', '-\\$20', '\\$20'],
  ['the 12th significant digit counts', '123456789012', '123456789013'],
  ['different unknowns', '4a-2', '4b-2'],
  ['different letters', 'A', 'B'],
  ['European decimal is not a thousands grouping', '1,00', '100'],
];

describe('answer equivalence: spelling classes (one key per value)', () => {
  for (const [name, key, spellings] of SPELLING_CLASSES) {
    test(`${name}: ${spellings.length} spellings -> ${key}`, () => {
      for (const s of spellings)
        assert.equal(answerKey(s), key, `${JSON.stringify(s)} (surface ${JSON.stringify(surfaceForm(s))})`);
    });
  }
  for (const [name, spellings] of EXPRESSION_CLASSES) {
    test(`${name}: one key`, () => {
      const keys = spellings.map((s) => answerKey(s));
      assert.ok(keys[0]?.startsWith('f('), `${keys[0]} is a fingerprint`);
      for (let i = 1; i < keys.length; i++) assert.equal(keys[i], keys[0], spellings[i]);
    });
  }
  test('sameAnswer is key equality; no answer is never the same as anything', () => {
    assert.ok(sameAnswer('\\$990.00', '990.0'));
    assert.ok(!sameAnswer('990', '991'));
    assert.ok(!sameAnswer(null, null));
    assert.ok(!sameAnswer('', ''));
  });
});

describe('answer equivalence: what stays apart', () => {
  for (const [why, a, b] of DISTINCT) {
    test(`${why}: ${a} vs ${b}`, () => {
      assert.notEqual(answerKey(a), answerKey(b));
    });
  }
});

describe('answer equivalence: numbers, no answer, hostile input', () => {
  test('numberKey rounds to 12 significant digits in the shortest form', () => {
    assert.equal(numberKey(1000), '1000');
    assert.equal(numberKey(0.1 + 0.2), '0.3');
    assert.equal(numberKey(2 / 3), '0.666666666667');
    assert.equal(numberKey(-0), '0');
    assert.equal(numberKey(1e21), '1e+21');
    assert.equal(numberKey(Infinity), 'inf');
    assert.equal(numberKey(-Infinity), '-inf');
  });
  test('float output of a grader equals the exact fraction (rlvr pred_value 0.7272727272727273 = 8/11)', () => {
    assert.equal(answerKey('0.7272727272727273'), answerKey('\\dfrac{8}{11} \\text{ toys/hour}'));
    assert.equal(answerKey('9999.857142857143'), answerKey('9999\\frac{6}{7}'));
  });
  test('no answer: null, empty, whitespace, empty wrappers', () => {
    for (const a of [null, undefined, '', '   ', '\\boxed{}', '$', '$ $', '\\text{}', '\\$'])
      assert.equal(answerKey(a), null, String(a));
  });
  test('answers the CAS must not evaluate are compared as text, and return', () => {
    // 9^(9^(9^9)) makes the engine build a BigInt for half a minute; a factorial of 10^6; a series
    for (const a of ['9^{9^{9^{9}}}', '(10^{6})!', '\\sum_{n=1}^{\\infty} \\frac{1}{n^2}', '2^{2^{2^{2^{2}}}}']) {
      const c = canonicalAnswer(a)!;
      assert.ok(c.kind === 'text' || c.kind === 'expression', `${a}: ${c.kind}`);
      assert.ok(!c.key.startsWith('f('), `${a} not evaluated`);
    }
    // a very long answer skips the CAS (compared by its surface form)
    const long = `${'1+'.repeat(400)}1`;
    assert.equal(canonicalAnswer(long)!.kind, 'text');
  });
  test('model output with control characters and markup is only text', () => {
    assert.equal(answerKey('\u001b[31m42\u001b[0m')?.startsWith('t:'), true);
    assert.equal(answerKey('<script>alert(1)</script>')?.startsWith('t:'), true);
  });
  test('unparseable LaTeX falls back to its surface form', () => {
    assert.equal(answerKey('\\frac{155}{3}\\)\\(WPM\\)'), 't:\\frac{155}{3}\\)\\(wpm\\)');
  });
});

describe('answer equivalence: the fast path for simple LaTeX numbers agrees with the CAS', () => {
  test('2000 fractions, mixed numbers, a/b and radicals: the same key as the CAS gives (forced by "+0")', () => {
    const r = mulberry32(11);
    const int = (n: number) => 1 + Math.floor(r() * n);
    const forms = [
      () => `\\frac{${int(5000)}}{${int(5000)}}`,
      () => `-\\frac{${int(999)}}{${int(999)}}`,
      () => `${int(99)}\\frac{${int(9)}}{${int(20)}}`,
      () => `-${int(99)}\\frac{${int(9)}}{${int(20)}}`,
      () => `${int(999)}/${int(999)}`,
      () => `${int(20)}\\sqrt{${int(500)}}`,
      () => `-\\sqrt{${int(500)}}`,
      () => `\\frac{${int(20)}\\sqrt{${int(500)}}}{${int(50)}}`,
      () => `\\frac{\\sqrt{${int(99)}}}{${int(9)}}`,
      () => `\\frac${int(9)}${int(9)}`,
    ];
    let n = 0;
    for (const f of forms)
      for (let i = 0; i < 200; i++) {
        const a = f();
        assert.equal(answerKey(a), answerKey(`${a}+0`), a);
        n++;
      }
    assert.equal(n, 2000);
  });
  test('degenerate mixed numbers are left to the CAS, which reads them as products', () => {
    // by hand: the CAS reads 48\frac{3}{1} as 48 x 3 = 144, and 2\frac{2}{3} as 2 + 2/3
    assert.equal(answerKey('48\\frac{3}{1}'), '144');
    assert.equal(answerKey('2\\frac{2}{3}'), '8/3');
    assert.equal(answerKey('-2\\frac{1}{3}'), '-7/3');
  });
});

describe('answer equivalence: determinism and cache', () => {
  const all = [
    ...SPELLING_CLASSES.flatMap(([, , s]) => s),
    ...EXPRESSION_CLASSES.flatMap(([, s]) => s),
    ...DISTINCT.flatMap(([, a, b]) => [a, b]),
  ];
  test('keys do not depend on which answers came before (the CAS keeps no state between answers)', () => {
    clearAnswerCache();
    const forward = all.map((a) => answerKey(a));
    clearAnswerCache();
    const backward = [...all]
      .reverse()
      .map((a) => answerKey(a))
      .reverse();
    assert.deepEqual(backward, forward);
  });
  test('each distinct answer string is canonicalised once', () => {
    clearAnswerCache();
    const distinct = new Set(all);
    for (let i = 0; i < 3; i++) for (const a of all) answerKey(a);
    const st = answerCacheStats();
    assert.equal(st.misses, distinct.size);
    assert.equal(st.size, distinct.size);
    assert.equal(st.hits, 3 * all.length - distinct.size);
  });
  test('the CAS (@cortex-js/compute-engine) loads in this Node', () => {
    assert.deepEqual(casStatus(), { available: true });
  });
});
