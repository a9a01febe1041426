/**
 * maj@k through answer equivalence (issue 11): for every spelling class, the same value written
 * differently is one vote group. Each expected maj@k is computed here by enumerating every
 * k-subset, with groups given by hand (labels), not by the code under test.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerInBase,
  baseAnswerCounts,
  majAtK,
  majAtKCurve,
  voteGroups,
  type VoteSample,
} from '../../src/core/metrics';
import { SPELLING_CLASSES } from './answerSpellings';
import { subsets } from './helpers';

/** A sample with the hand-given label of its value. */
interface Labelled extends VoteSample {
  label: string;
}

/**
 * maj@k by enumeration: the plurality label of each k-subset (ties split the credit, no-answer
 * samples never win), scored by `correctLabel`.
 */
function bruteMaj(samples: Labelled[], k: number, correctLabel: (label: string) => boolean): number {
  let total = 0;
  let count = 0;
  for (const sub of subsets(samples.length, k)) {
    count++;
    const votes = new Map<string, number>();
    for (const i of sub)
      if (samples[i].answer !== null) votes.set(samples[i].label, (votes.get(samples[i].label) ?? 0) + 1);
    if (votes.size === 0) continue;
    const top = Math.max(...votes.values());
    const winners = [...votes].filter(([, v]) => v === top).map(([l]) => l);
    total += winners.filter(correctLabel).length / winners.length;
  }
  return total / count;
}

const close = (a: number | null, b: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${what}: ${a} vs ${b}`);
const identity = (a: string | null) => (a === null || a.trim() === '' ? null : a);

describe('maj@k groups equivalent spellings (exact value by enumerating k-subsets)', () => {
  for (const [name, , spellings] of SPELLING_CLASSES) {
    const right = spellings.slice(0, Math.min(4, spellings.length));
    test(`${name}: ${right.length} spellings of the right value against ${right.length - 1} copies of a wrong one`, () => {
      const samples: Labelled[] = [
        ...right.map((a) => ({ answer: a, correct: true, label: 'right' })),
        ...Array.from({ length: right.length - 1 }, () => ({ answer: '-999', correct: false, label: 'wrong' })),
      ];
      const n = samples.length;
      for (let k = 1; k <= n; k++)
        close(
          majAtK(samples, k),
          bruteMaj(samples, k, (l) => l === 'right'),
          `k=${k}`,
        );
      close(majAtK(samples, n), 1, 'all samples: the right value wins');
      // grouped by the raw string (before issue 11) the wrong answer wins every full vote
      assert.equal(majAtK(samples, n, { normalize: identity }), 0);
    });
  }
});

describe("the issue's examples", () => {
  test('\\frac{1}{2} x2 + 0.5 x2 against 3 x3: maj@7 = 1 (was 0)', () => {
    const s: Labelled[] = [
      { answer: '\\frac{1}{2}', correct: true, label: 'half' },
      { answer: '\\frac{1}{2}', correct: true, label: 'half' },
      { answer: '0.5', correct: true, label: 'half' },
      { answer: '0.5', correct: true, label: 'half' },
      { answer: '3', correct: false, label: '3' },
      { answer: '3', correct: false, label: '3' },
      { answer: '3', correct: false, label: '3' },
    ];
    assert.equal(majAtK(s, 7), 1);
    assert.equal(majAtK(s, 7, { normalize: identity }), 0);
    for (let k = 1; k <= 7; k++)
      close(
        majAtK(s, k),
        bruteMaj(s, k, (l) => l === 'half'),
        `k=${k}`,
      );
  });
  test('16 hours, 16, 16\\text{ hours} against 18 x3: one group of 3 against 3, a tie (credit 0.5, was 0)', () => {
    const s: Labelled[] = [
      { answer: '16 hours', correct: true, label: '16' },
      { answer: '16', correct: true, label: '16' },
      { answer: '16\\text{ hours}', correct: true, label: '16' },
      { answer: '18', correct: false, label: '18' },
      { answer: '18', correct: false, label: '18' },
      { answer: '18', correct: false, label: '18' },
    ];
    // 3 votes each: the documented tie policy splits the credit (the "1" assumes the tie goes to 16)
    assert.equal(majAtK(s, 6), 0.5);
    assert.equal(majAtK(s, 6, { normalize: identity }), 0);
    for (let k = 1; k <= 6; k++)
      close(
        majAtK(s, k),
        bruteMaj(s, k, (l) => l === '16'),
        `k=${k}`,
      );
    // one more "16 hrs" breaks the tie
    const t = [...s, { answer: '16 hrs', correct: true, label: '16' }];
    assert.equal(majAtK(t, 7), 1);
  });
  test('1{,}000 and 1000 are one answer', () => {
    const g = voteGroups([
      { answer: '1{,}000', correct: true },
      { answer: '1000', correct: true },
      { answer: '1,000', correct: true },
    ])!;
    assert.deepEqual(g.sizes, [3]);
  });
});

describe('group correctness: the reference answer when known, else verdicts', () => {
  test('a grader that marked \\$990.00 wrong and 990.0 right: the group is one, correct by the reference', () => {
    const s: Labelled[] = [
      { answer: '\\$990.00', correct: false, label: '990' },
      { answer: '990.0', correct: true, label: '990' },
      { answer: '990', correct: true, label: '990' },
      { answer: '900', correct: false, label: '900' },
      { answer: '900', correct: false, label: '900' },
    ];
    for (let k = 1; k <= 5; k++) {
      close(
        majAtK(s, k, { reference: '990' }),
        bruteMaj(s, k, (l) => l === '990'),
        `reference, k=${k}`,
      );
      // without a reference: by the majority verdict of the group's graded samples (2 correct, 1 incorrect: correct)
      close(
        majAtK(s, k),
        bruteMaj(s, k, (l) => l === '990'),
        `verdicts, k=${k}`,
      );
    }
  });
  test('keys the reference accepts vote as one group: 1010_2, 10, 10, 1010 against 1010_2 is a tie at maj@4 (was 10 elected)', () => {
    const s: Labelled[] = [
      { answer: '1010_2', correct: true, label: 'ref' },
      { answer: '10', correct: true, label: '10' },
      { answer: '10', correct: true, label: '10' },
      { answer: '1010', correct: false, label: 'ref' },
    ];
    assert.deepEqual(voteGroups(s, { reference: '1010_2' })?.sizes, [2, 2]);
    assert.deepEqual(voteGroups(s, { reference: '1010_2' })?.correct, [1, 0]);
    close(majAtK(s, 4, { reference: '1010_2' }), 0.5, 'maj@4');
    for (let k = 1; k <= 4; k++)
      close(
        majAtK(s, k, { reference: '1010_2' }),
        bruteMaj(s, k, (l) => l === 'ref'),
        `reference, k=${k}`,
      );
    // a third spelling of the numeral wins outright; `1010_{10}` (one thousand and ten) keys with `1010`
    const t: Labelled[] = [...s, { answer: '(1010)_2', correct: null, label: 'ref' }];
    close(majAtK(t, 5, { reference: '1010_2' }), 1, 'maj@5');
    // a key the reference does not accept stays its own group
    assert.deepEqual(voteGroups(s, { reference: '10' })?.sizes, [1, 2, 1]);
  });
  test('every sample of the right value graded incorrect (Qwen2.5-Math example idx 72: 10000 vs gt 10{,}000): the reference decides', () => {
    const s: Labelled[] = [
      { answer: '10000', correct: false, label: '10000' },
      { answer: '10000', correct: false, label: '10000' },
      { answer: '9999', correct: false, label: '9999' },
    ];
    for (let k = 1; k <= 3; k++) {
      close(
        majAtK(s, k, { reference: '10{,}000' }),
        bruteMaj(s, k, (l) => l === '10000'),
        `k=${k}`,
      );
      assert.equal(majAtK(s, k), 0, 'by verdicts nothing is correct');
    }
    const d = majAtKCurve([s], [1, 3], { references: ['10{,}000'] });
    assert.deepEqual(
      d.map((p) => [p.k, p.problems, p.byReference]),
      [
        [1, 1, 1],
        [3, 1, 1],
      ],
    );
  });
  test('a verdict that calls a wrong value correct does not count when the reference is known', () => {
    const s: Labelled[] = [
      { answer: '7', correct: true, label: '7' },
      { answer: '7', correct: true, label: '7' },
      { answer: '8', correct: false, label: '8' },
    ];
    assert.equal(majAtK(s, 3, { reference: '8' }), 0);
    assert.equal(majAtK(s, 3), 1);
  });
  test('no verdict at all: no value, unless the tool grades by the reference (opt-in)', () => {
    const s: VoteSample[] = [
      { answer: '\\frac12', correct: null },
      { answer: '0.5', correct: null },
      { answer: '2', correct: null },
    ];
    assert.equal(majAtK(s, 3, { reference: '1/2' }), null);
    assert.equal(majAtK(s, 3, { reference: '1/2', gradeByReference: true }), 1);
    assert.equal(majAtK(s, 3, { gradeByReference: true }), null, 'no reference: nothing to grade by');
  });
});

describe('"in base" counts use the grouping of maj@k', () => {
  test('every spelling of the value counts; the group size equals the maj@k vote group', () => {
    const base: VoteSample[] = [
      { answer: '\\$8,\\!096', correct: true },
      { answer: '8096', correct: false },
      { answer: '8{,}096', correct: true },
      { answer: '8,096 dollars', correct: true },
      { answer: '42', correct: false },
    ];
    const counts = baseAnswerCounts(base);
    assert.deepEqual(answerInBase(counts, '\\boxed{8096}'), { count: 4, correct: 3 });
    assert.deepEqual(voteGroups(base)!.sizes, [4, 1]);
  });
});
