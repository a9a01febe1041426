/**
 * Cost of answer equivalence (issue 32): the notations read without the CAS (plain numbers, fractions,
 * labelled numbers, lists and sets of numbers, inequalities and intervals with numeric bounds, matrices
 * of numbers, base numerals, decimal commas, long decimals) never load it, and each distinct answer string
 * is canonicalised once. Runs in its own process (node --test), so the CAS is not loaded by other tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerCacheStats, answerKey, casLoaded, clearAnswerCache, sameAnswer } from '../../src/core/answers';

const PLAIN = [
  '42',
  '-7',
  '1,000',
  '1000,99',
  '0.0833333333333333',
  '2.6666666666666665',
  '\\frac{3}{4}',
  '-\\frac{1}{12}',
  '2\\frac12',
  '3\\sqrt{2}',
  '\\boxed{17}',
  '16 hours',
  '\\$1,000.99',
  '50\\%',
  'x = 5',
  '(p,q) = (3,2)',
  'V_1:V_2 = 11:21',
  'x = 5+5+1 = 11',
  '-1, 2',
  'x=-1, x=2',
  'x = -1 \\text{ or } x = 2',
  '\\{-2021, 2021\\}',
  '\\pm 2021',
  '(0,1)',
  '0 < x < 1',
  'x \\ge 2',
  'x < -1 \\text{ or } x > 2',
  '[2,\\infty)',
  '\\begin{pmatrix} -2 \\\\ -14 \\\\ -7 \\end{pmatrix}',
  '\\left[\\begin{array}{c}-2\\\\-14\\\\-7\\end{array}\\right]',
  '1010_2',
];

test('plain numbers, fractions, labels, lists, intervals, matrices and numerals do not load the CAS', () => {
  clearAnswerCache();
  for (const a of PLAIN) assert.notEqual(answerKey(a), null, a);
  assert.ok(sameAnswer('x=-1, x=2', '-1, 2'));
  assert.ok(sameAnswer('0 < x < 1', '(0,1)'));
  assert.ok(!sameAnswer('10', '1010_2'));
  assert.ok(sameAnswer('twelve', '["12","twelve"]'));
  assert.equal(casLoaded(), false);
});

test('each distinct answer string is canonicalised once', () => {
  clearAnswerCache();
  for (let round = 0; round < 5; round++) for (const a of PLAIN) answerKey(a);
  const stats = answerCacheStats();
  assert.equal(stats.misses, PLAIN.length);
  assert.equal(stats.size, PLAIN.length);
  const first = stats.misses;
  for (const a of PLAIN) answerKey(a);
  assert.equal(answerCacheStats().misses, first, 'no string is canonicalised twice');
  assert.ok(answerCacheStats().hits >= 4 * PLAIN.length);
});
