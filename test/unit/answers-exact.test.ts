/**
 * Answer equivalence, trial 3 findings 1 and 4 (wrong numbers): digits separated by spaces, plain-text
 * mixed numbers, `{,}` that is not a thousands grouping, and exact numbers compared exactly (big
 * integers, roundings of irrationals and of non-terminating fractions). Every expected value is written
 * by hand; maj@k on a results folder written here (the design of the trial's gen_maj.py) is enumerated
 * by hand in the test's comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerKey, canonicalAnswer, measurementUnit, sameAnswer } from '../../src/core/answers';
import { graderAudit, regrade, toolVerdict } from '../../src/core/analyses/graderAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { majAtK } from '../../src/core/metrics';
import { buildReport } from '../../src/core/report/index';
import { tempDir } from './helpers';

/** Every spelling in a group has the hand-written key. */
function sameKey(key: string, spellings: string[]) {
  for (const s of spellings) assert.equal(answerKey(s), key, JSON.stringify(s));
}
/** No two answers of the list share a key. */
function allApart(answers: string[]) {
  for (let i = 0; i < answers.length; i++)
    for (let j = i + 1; j < answers.length; j++)
      assert.notEqual(
        answerKey(answers[i]),
        answerKey(answers[j]),
        `${JSON.stringify(answers[i])} vs ${JSON.stringify(answers[j])}: ${answerKey(answers[i])}`,
      );
}

describe('finding 1: plain-text mixed numbers are whole + fraction', () => {
  test('2 1/2 is 5/2 = 2.5 in every spelling (plain, \\frac, \\tfrac, LaTeX spaces, units)', () => {
    sameKey('2.5', ['2 1/2', '2.5', '5/2', '\\frac{5}{2}', '2\\frac{1}{2}', '2 \\frac{1}{2}', '2\\tfrac12', '2\\ 1/2']);
    sameKey('2.5', ['2~1/2', '2\\,1/2', '2 1 / 2', '\\boxed{2 1/2}', '2 1/2 \\text{ hours}', '2\u00a01/2']);
    sameKey('1.5', ['1 1/2', '1 1/2 hours', '1\\frac{1}{2}', '3/2']);
    sameKey('3.25', ['3 \\frac{1}{4}', '3 1/4', '13/4']);
  });
  test('negative mixed numbers: the sign applies to the whole number (-2 1/2 = -5/2)', () => {
    sameKey('-2.5', ['-2 1/2', '-2\\frac{1}{2}', '-\\frac{5}{2}', '-2.5', '\u22122 1/2']);
  });
  test('what the trial saw merged stays apart: 2 1/2 vs 10.5 and 21/2, 1 1/2 vs 5.5, 2 3/4 vs 23/4', () => {
    allApart(['2 1/2', '10.5', '1 1/2', '5.5', '2 3/4', '23/4']);
    assert.equal(answerKey('2 3/4'), '2.75');
  });
  test('an improper "mixed number" is not a number: 2 3/2 is neither 3.5 nor 23/2', () => {
    assert.equal(canonicalAnswer('2 3/2')!.kind, 'text');
    allApart(['2 3/2', '3.5', '23/2']);
  });
});

describe('finding 1: digits separated by spaces are never one number', () => {
  test('3 4, 1 2 3, 10 20 30 are not 34, 123, 102030 (nor any number)', () => {
    allApart(['3 4', '34', '1 2 3', '123', '10 20 30', '102030', '3, 4', '(3,4)', '7', '12']);
    for (const a of ['3 4', '1 2 3', '10 20 30']) assert.equal(canonicalAnswer(a)!.kind, 'text', a);
  });
  test('with LaTeX and Unicode spaces too: 3\\,4, 3\\ 4, 3~4, 3\\;4, thin and no-break spaces, negative', () => {
    for (const a of ['3\\,4', '3\\ 4', '3~4', '3\\;4', '3\\!4', '3\u20094', '3\u00a04', '3\\quad 4'])
      assert.notEqual(answerKey(a), answerKey('34'), a);
    assert.notEqual(answerKey('-3 4'), answerKey('-34'));
    assert.notEqual(answerKey('3^{2}'), answerKey('3 2'));
    assert.notEqual(answerKey('12'), answerKey('1 2'));
  });
  test('a subscript followed by a number is not a list: \\log_2 8 = 3', () => {
    assert.equal(answerKey('\\log_2 8'), '3');
  });
});

describe('finding 1: thousands separators only in a well-formed grouping (1-3 digits, then groups of 3)', () => {
  test('well-formed groupings with spaces, thin spaces, \\, \\  {,} and ~ are joined', () => {
    sameKey('1000', ['1 000', '1\\,000', '1\\ 000', '1{,}000', '1~000', '1\u2009000', '1\u00a0000', '1\\!000']);
    sameKey('1234567', ['1 234 567', '1\\,234\\,567', '1{,}234{,}567', '1,234,567']);
    sameKey('12345', ['12 345', '12\\,345', '12{,}345']);
    sameKey('-1000', ['-1 000', '-1\\,000', '-1{,}000']);
    sameKey('1000.5', ['1 000.5', '1{,}000.5', '1\\,000.5']);
  });
  test('ill-formed groupings are not joined: 1234 567, 12 3456, 1 00, 1\\,00, 12 345 6789', () => {
    allApart(['1234 567', '1234567']);
    allApart(['12 3456', '123456']);
    allApart(['1 00', '100']);
    allApart(['1\\,00', '100']);
    allApart(['12 345 6789', '123456789']);
  });
  test('{,} that is not a grouping is a decimal comma: 1{,}5 = 1.5, never 15', () => {
    sameKey('1.5', ['1{,}5', '1{,}50', '1.5']);
    sameKey('3.14', ['3{,}14']);
    sameKey('-0.5', ['-0{,}5']);
    sameKey('1.5', ['1{,}5000']);
    allApart(['1{,}5', '15']);
    allApart(['1{,}5000', '15000']);
  });
  test('{,} that is neither is kept apart: 1{,}23{,}4 is not 1234 nor 1.234', () => {
    assert.equal(canonicalAnswer('1{,}23{,}4')!.kind, 'text');
    allApart(['1{,}23{,}4', '1234', '1.234', '123.4']);
  });
});

describe('finding 4: exact numbers are compared exactly', () => {
  test('big integers: every digit counts (and negative ones)', () => {
    allApart(['1000000000001', '1000000000000']);
    allApart(['1000000000001', '1e12']);
    assert.equal(answerKey('1e12'), '1000000000000');
    allApart(['123456789012345', '123456789012346']);
    allApart(['-1000000000001', '-1000000000000']);
    allApart(['1e20', '1.0000000000001e20']);
    allApart(['1e-15', '1.000000000001e-15']);
  });
  test('2^{100} is 1267650600228229401496703205376 exactly, and 2^{100}+1 is not it', () => {
    // by hand (Python: 2**100)
    sameKey('1.267650600228229401496703205376e30', ['2^{100}', '1267650600228229401496703205376']);
    assert.equal(answerKey('2^{100}+1'), '1.267650600228229401496703205377e30');
  });
  test('scientific notation is exact: 1.5\\times10^{3} = 1500 = 1.5e3; 6.02\\times10^{23} = 6.02e23 != 6.0200000000001e23', () => {
    sameKey('1500', ['1.5\\times10^{3}', '1.5e3', '1500', '1.5 \\cdot 10^3', '15 \\times 10^{2}']);
    sameKey('602000000000000000000000', ['6.02\\times10^{23}', '6.02e23', '6.02 \\cdot 10^{23}']);
    assert.notEqual(answerKey('6.0200000000001e23'), answerKey('6.02e23'));
    sameKey('0.001', ['10^{-3}', '1e-3', '\\frac{1}{1000}', '0.001', '1 \\times 10^{-3}']);
  });
  test('a long decimal that prints a fraction is that fraction, a short rounding is not: \\frac13 = 0.333333 != 0.33333', () => {
    // issue 32 (Math-Verify level): decimals with >= 6 places within one unit of their last digit of p/q, q <= 10^((places-2)/2)
    sameKey('1/3', ['\\frac13', '0.333333333333', '0.3333333333333', '0.333333', '0.3333333']);
    // neither rounded nor truncated at the last digit: 0.3333334, 0.333334
    allApart(['\\frac13', '0.33', '0.33333', '0.3334', '0.333336', '0.3333334', '0.333334']);
    sameKey('2/3', ['\\frac{2}{3}', '0.666666666667', '0.666667', '0.6666666']);
    sameKey('-1/3', ['-\\frac{1}{3}', '-0.333333333333']);
    // the smallest denominator within reach, and none when a terminating fraction is closer: 0.1250001 stays
    assert.equal(answerKey('0.0833333333333333'), '1/12');
    assert.equal(answerKey('0.1250001'), '0.1250001');
    // 3.14159 is not 355/113 (6 places allow q <= 100), 1.414214 is no fraction
    assert.equal(answerKey('3.14159'), '3.14159');
    assert.equal(answerKey('1.414214'), '1.414214');
    sameKey('1/3', ['0.\\overline{3}', '\\frac{2}{6}', '1/3']);
    sameKey('311/99', ['3.\\overline{14}', '\\frac{311}{99}']);
    sameKey('22/7', ['\\frac{22}{7}', '3\\frac{1}{7}', '3 1/7']);
    // fraction arithmetic is exact: 1/3 + 0.5 = 5/6
    assert.equal(answerKey('\\frac{1}{3}+0.5'), '5/6');
  });
  test('a rounding is never an irrational: \\sqrt2, \\pi, e apart from their 12-digit roundings', () => {
    allApart(['\\sqrt{2}', '1.41421356237', '1.414213562373']);
    allApart(['\\pi', '3.14159265359', '3.14']);
    allApart(['e', '2.718281828459']);
    allApart(['\\frac{\\sqrt{2}}{2}', '0.707106781187']);
    // irrationals still equal each other by value
    assert.equal(answerKey('2\\sqrt{2}'), answerKey('\\sqrt{8}'));
    assert.equal(answerKey('\\frac{\\sqrt{3}}{3}'), answerKey('\\frac{1}{\\sqrt{3}}'));
    // a radical that is a whole number is exact
    sameKey('2', ['\\sqrt{4}', '4^{1/2}', '\\sqrt[3]{8}', '2']);
  });
  test('percent keeps the exact rule: 1000000000001\\% != 1000000000000\\%, \\frac13\\% = 0.333333333333\\% != 0.33\\%', () => {
    allApart(['1000000000001\\%', '1000000000000\\%']);
    sameKey('1/3', ['\\frac{1}{3}\\%', '0.333333333333\\%']);
    allApart(['\\frac{1}{3}\\%', '0.33\\%']);
    assert.equal(answerKey('12.5\\%'), '12.5');
  });
  test("a double's print of a small fraction is that fraction (grader floats), a shorter decimal is not", () => {
    // String(8/11) = '0.7272727272727273', String(2/3) = '0.6666666666666666'
    assert.equal(answerKey('0.7272727272727273'), '8/11');
    assert.equal(answerKey('0.6666666666666666'), '2/3');
    assert.equal(answerKey('0.3333333333333333'), '1/3');
    // 12 places: 8/11 rounded there (issue 32); 4 places: a rounding of its own
    assert.equal(answerKey('0.727272727273'), '8/11');
    allApart(['0.7273', '8/11']);
    // the print of an irrational is its own exact decimal, not \sqrt2 (String(Math.SQRT2))
    assert.notEqual(answerKey('1.4142135623730951'), answerKey('\\sqrt{2}'));
  });
});

/** Writes one Qwen2.5-Math eval file (one JSON record per problem) under `<root>/Qwen-base/math_eval/math500`. */
function qwenFolder(records: { gt: string | null; pred: string[]; score: boolean[] }[]): string {
  const root = tempDir();
  const dir = join(root, 'Qwen-base', 'math_eval', 'math500');
  mkdirSync(dir, { recursive: true });
  const lines = records.map((r, idx) =>
    JSON.stringify({
      idx,
      question: `q${idx}`,
      ...(r.gt === null ? {} : { gt: r.gt }),
      level: 'Level 1',
      code: r.pred.map((p) => `so \\boxed{${p}}`),
      score: r.score,
      pred: r.pred,
    }),
  );
  writeFileSync(join(dir, 'test_qwen-boxed.jsonl'), `${lines.join('\n')}\n`);
  return root;
}

async function indexed(folder: string): Promise<TraceIndex> {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, folder);
  return index;
}

describe('finding 1: maj@k on a results folder (the design of the trial gen_maj.py)', async () => {
  // problem 0: reference 0.5; answers 1/2, 0.5, 3, 3, \frac12 -> groups h h 3 3 h (h = one half)
  // problem 1: reference 1000; answers 1,000, 999, 999, 1000, 998, 1{,}000 -> k 999 999 k 998 k
  // problem 2: reference 34; answers "3 4", "3 4", 34, 12 -> A A B C ("3 4" is not 34)
  const folder = qwenFolder([
    { gt: '0.5', pred: ['1/2', '0.5', '3', '3', '\\frac12'], score: [true, true, false, false, true] },
    {
      gt: '1000',
      pred: ['1,000', '999', '999', '1000', '998', '1{,}000'],
      score: [true, false, false, true, false, true],
    },
    { gt: '34', pred: ['3 4', '3 4', '34', '12'], score: [false, false, true, false] },
  ]);
  const index = await indexed(folder);
  const report = buildReport(index, { majAtK: true });
  const maj = report.models[0].majAtK!;
  const at = (k: number) => maj.find((p) => p.k === k)!;

  test('maj@1 = (3/5 + 3/6 + 1/4) / 3 = 0.45 (the trial saw 61.7: "3 4" counted as 34)', () => {
    assert.ok(Math.abs(at(1).value! - 0.45) < 1e-12, `${at(1).value}`);
    assert.equal(at(1).problems, 3);
  });
  test('maj@2 = (6/10 + 7.5/15 + 1.5/6) / 3 = 0.45', () => {
    // p0: hh 3 pairs -> 1, h3 6 pairs -> 1/2, 33 -> 0: 6/10. p1: kk 3 -> 1, k999 6 and k998 3 -> 1/2,
    // the rest 0: 7.5/15. p2: AB 2 and BC 1 -> 1/2, AA, AC 0: 1.5/6
    assert.ok(Math.abs(at(2).value! - 0.45) < 1e-12, `${at(2).value}`);
  });
  test('maj@4 = (3.5/5 + 10.5/15 + 0) / 3 = 1.4/3 = 46.7% (the trial saw 80.0)', () => {
    // p0: drop one h (3 ways) -> tie h/3 -> 1/2; drop one 3 (2 ways) -> h wins: 3.5/5.
    // p1: 3 k + one other (3) -> 1; 2 k + {999,999} (3) -> 1/2, 2 k + {999,998} (6) -> 1; 1 k + rest (3) -> 0: 10.5/15.
    // p2: all four: "3 4" twice wins -> 0.
    assert.ok(Math.abs(at(4).value! - 1.4 / 3) < 1e-12, `${at(4).value}`);
    assert.equal(at(4).problems, 3);
  });
  test('the grader audit finds no inconsistency: "3 4" (graded wrong) is not 34 (graded right)', () => {
    assert.equal(graderAudit(index).inconsistent.length, 0);
  });
});

describe('finding 1: --regrade against a mixed-number reference', async () => {
  const folder = qwenFolder([
    { gt: '2 1/2', pred: ['2.5', '10.5', '5/2', '2\\frac{1}{2}'], score: [true, false, true, true] },
    { gt: '1 1/2', pred: ['5.5', '1.5', '1 1/2 hours'], score: [false, true, true] },
    { gt: '1{,}5', pred: ['15', '1.5'], score: [false, true] },
    { gt: '1000000000001', pred: ['1000000000000', '1000000000001'], score: [false, true] },
  ]);
  const index = await indexed(folder);
  test('the tool agrees with every verdict: 10.5, 5.5, 15 and 1000000000000 are wrong, the rest right', () => {
    const r = regrade(index);
    assert.equal(r.disagreements, 0, JSON.stringify(r));
    assert.equal(graderAudit(index).inconsistent.length, 0);
  });
});

describe('finding 4: different units of measurement are kept apart in a comparison with the reference', () => {
  test('the unit removed from an answer, in canonical form', () => {
    const cases: [string, string | null][] = [
      ['\\text{ cm}^2', 'cm^2'],
      ['\\text{ cm}^{2}', 'cm^2'],
      ['cm2', 'cm^2'],
      ['square centimeters', 'cm^2'],
      ['sq cm', 'cm^2'],
      ['\\mathrm{m}', 'm'],
      ['meters', 'm'],
      ['hours', 'h'],
      ['hrs', 'h'],
      ['toys per hour', null],
      ['apples', null],
    ];
    for (const [u, c] of cases) assert.equal(measurementUnit(u), c, u);
  });
  test('5 m vs 5 cm, 1/2 cm vs 1/2 cm^2, 2 km vs 2 m, 3 cm vs 3 cm^2: not the same answer', () => {
    const pairs: [string, string][] = [
      ['5\\text{ m}', '5\\text{ cm}'],
      ['5 m', '5 cm'],
      ['5m', '5cm'],
      ['\\frac{1}{2} \\text{ cm}', '\\frac{1}{2} \\text{ cm}^2'],
      ['3 cm', '3 cm^2'],
      ['2 km', '2 m'],
      ['-5 \\text{ m}', '-5 \\text{ cm}'],
      ['2 1/2 hours', '2 1/2 minutes'],
    ];
    for (const [a, b] of pairs) {
      assert.equal(sameAnswer(a, b), false, `${a} vs ${b}`);
      assert.equal(toolVerdict(a, b), false, `${a} vs ${b}`);
    }
  });
  test('the same unit in other spellings, or a unit on one side only, is the same answer', () => {
    const pairs: [string, string][] = [
      ['5\\text{ cm}', '5\\,\\mathrm{cm}'],
      ['5 \\text{m}^2', '5 square meters'],
      ['16 hours', '16 hrs'],
      ['16 hours', '16'],
      ['5 m', '5'],
      ['16 toys per hour', '16 toys/hour'],
      ['1 1/2 hours', '1.5'],
    ];
    for (const [a, b] of pairs) assert.equal(sameAnswer(a, b), true, `${a} vs ${b}`);
  });
  test('grouping (maj@k vote, grader audit) strips units: one key for 5 m, 5 and 5 cm (documented)', () => {
    assert.equal(answerKey('5 m'), '5');
    assert.equal(answerKey('5 cm'), '5');
  });
});

describe('finding 4: --regrade keeps different units apart', async () => {
  const folder = qwenFolder([
    { gt: '5\\text{ cm}', pred: ['5\\text{ m}', '5 cm', '5', '5\\text{ cm}^2'], score: [false, true, true, false] },
  ]);
  const index = await indexed(folder);
  test('5 m and 5 cm^2 against the reference 5 cm are wrong, as the folder says: no disagreement', () => {
    assert.equal(regrade(index).disagreements, 0, JSON.stringify(regrade(index).models[0].examples));
  });
});

describe('finding 14: equal answers the trial saw kept apart', () => {
  test('a number in words is that number: five = 5, Twenty-one = 21; other words stay words', () => {
    sameKey('5', ['five', 'Five', '\\text{five}', '5']);
    sameKey('21', ['twenty-one', 'Twenty one', '21']);
    sameKey('0', ['zero', '0']);
    assert.equal(canonicalAnswer('fivefold')!.kind, 'text');
    assert.notEqual(answerKey('five'), answerKey('six'));
  });
  test('\\pm X is the set {X, -X}; a \\pm b is {a+b, a-b}', () => {
    assert.equal(answerKey('\\pm 1'), answerKey('\\{-1, 1\\}'));
    assert.equal(answerKey('\\pm 1'), answerKey('1, -1'));
    assert.equal(answerKey('\u00b11'), answerKey('\\pm 1'));
    assert.equal(answerKey('\\pm\\sqrt{2}'), answerKey('\\sqrt{2}, -\\sqrt{2}'));
    assert.equal(answerKey('3 \\pm 2'), answerKey('\\{1, 5\\}'));
    assert.equal(answerKey('2 \\pm \\sqrt{3}'), answerKey('2+\\sqrt{3}, 2-\\sqrt{3}'));
    // the trial: every \pm answer had the key of 0
    allApart(['\\pm 1', '\\pm\\sqrt{2}', '\\pm 2', '0', '1']);
  });
  test('the empty set: \\emptyset = \\varnothing = \\{\\} = the Unicode sign; not 0 nor {0}', () => {
    sameKey('{}', ['\\emptyset', '\\varnothing', '\\{\\}', '\u2205', '\\{ \\}']);
    allApart(['\\emptyset', '0']);
    allApart(['\\emptyset', '\\{0\\}']);
    // a set of one element is that element (issue 32, as Math-Verify): {0} is 0
    sameKey('0', ['0', '\\{0\\}']);
  });
  test('an identity in x is its value: \\sin^2 x + \\cos^2 x = 1; a piecewise function is not', () => {
    assert.equal(answerKey('\\sin^2 x + \\cos^2 x'), '1');
    assert.equal(answerKey('\\cos^2 x + \\sin^2 x'), '1');
    // floor(x/2) is 0 at both test points, but it is not the number 0
    assert.notEqual(answerKey('\\lfloor x/2 \\rfloor'), answerKey('0'));
    assert.notEqual(answerKey('x(x-1)(x-2)'), answerKey('0'));
  });
  test('10^-3 is 10^{-3} = 0.001 (and 2\\times10^-3 = 0.002, 10^+3 = 1000)', () => {
    sameKey('0.001', ['10^-3', '10^{-3}', '0.001', '10^ - 3']);
    sameKey('0.002', ['2\\times10^-3', '2 \\times 10^{-3}']);
    sameKey('1000', ['10^+3', '10^3']);
    allApart(['10^-3', '10^3', '-10^3']);
  });
  test('assignments to distinct one-letter names are the tuple of values by name: x=3, y=4 = (3,4)', () => {
    sameKey('(3,4)', ['x=3, y=4', 'y=4, x=3', '(3,4)', 'x = 3 , y = 4', 'a=3, b=4']);
    allApart(['x=2, y=3', 'x=3, y=2']);
    assert.notEqual(answerKey('x=3, y=4'), answerKey('\\{3,4\\}'));
  });
});

describe('finding 11: without a reference, a group is correct by the majority verdict of its graded samples', () => {
  test('one right, one wrong: half credit (was: correct); more right than wrong: correct; fewer: not', () => {
    const tie = [
      { answer: '5', correct: true },
      { answer: '5', correct: false },
      { answer: '6', correct: false },
      { answer: '6', correct: true },
    ];
    // every sample's group has credit 1/2: maj@1 = 1/2 (the trial saw 100%)
    const near = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} vs ${b}`);
    near(majAtK(tie, 1), 0.5);
    near(majAtK(tie, 4), 0.5);
    const mostlyRight = [
      { answer: '\\$22,\\!500', correct: false },
      { answer: '22500', correct: true },
      { answer: '22500', correct: true },
      { answer: '7', correct: false },
    ];
    // group 22500 (2 right, 1 wrong) is correct: maj@1 = 3/4
    near(majAtK(mostlyRight, 1), 0.75);
    const mostlyWrong = [
      { answer: '5', correct: false },
      { answer: '5', correct: false },
      { answer: '5', correct: true },
    ];
    near(majAtK(mostlyWrong, 1), 0);
    // ungraded samples do not vote on the verdict: 1 right, 2 ungraded -> correct
    const ungraded = [
      { answer: '5', correct: true },
      { answer: '5', correct: null },
      { answer: '5', correct: null },
    ];
    near(majAtK(ungraded, 1), 1);
  });
});

describe('finding 11: maj@k on a results folder (the design of the trial gen_maj2.py)', async () => {
  // p0: reference 1; answers "", "", 1, 2 (1 graded right). p1: reference 1; answers 2, 2, "", "" (all wrong).
  // p2: no reference; 5 (right), 5 (wrong), 6 (wrong), 6 (right).
  const folder = qwenFolder([
    { gt: '1', pred: ['', '', '1', '2'], score: [false, false, true, false] },
    { gt: '1', pred: ['2', '2', '', ''], score: [false, false, false, false] },
    { gt: null, pred: ['5', '5', '6', '6'], score: [true, false, false, true] },
  ]);
  const index = await indexed(folder);
  const m = buildReport(index, { majAtK: true }).models[0];
  const at = (k: number) => m.majAtK!.find((p) => p.k === k)!;
  test('maj@1 = (1/4 + 0 + 1/2) / 3 = 0.25, equal to pass@1 (the trial saw 41.7 vs 25.0)', () => {
    assert.ok(Math.abs(at(1).value! - 0.25) < 1e-12, `${at(1).value}`);
    assert.ok(Math.abs(m.passAtK[0].value! - 0.25) < 1e-12, `${m.passAtK[0].value}`);
  });
  test('maj@4 = (1/2 + 0 + 1/2) / 3 = 1/3', () => {
    // p0: 1 and 2 tie (the empty answers do not vote): 1/2; p1: 2 wins: 0; p2: 5 and 6 tie, each 1/2: 1/2
    assert.ok(Math.abs(at(4).value! - 1 / 3) < 1e-12, `${at(4).value}`);
  });
});
