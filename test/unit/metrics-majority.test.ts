import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerInBase,
  baseAnswerCounts,
  datasetMajAtK,
  majAtK,
  majAtKCurve,
  majAtKDetailed,
  mulberry32,
  normalizeAnswer,
  VoteSample,
  voteGroups,
} from '../../src/core/metrics';
import { legacyVote } from '../../bench/legacyMajority';
import { subsets } from './helpers';

describe('normalizeAnswer (the answer-equivalence key maj@k votes on)', () => {
  // Expected keys by hand: numbers are their value rounded to 12 significant digits; see
  // test/unit/answers.test.ts for every spelling class.
  const cases: [string | null, string | null][] = [
    ['  42  ', '42'],
    ['\\boxed{42}', '42'],
    ['\\boxed{\\frac{1}{2}}', '0.5'],
    ['\\dfrac{1}{2}', '0.5'],
    ['\\tfrac12', '0.5'],
    ['$5$', '5'],
    ['\\$8', '8'],
    ['\\$22,\\!500', '22500'],
    ['1,000', '1000'],
    ['1,000.50', '1000.5'],
    ['1.50', '1.5'],
    ['1.0', '1'],
    ['007', '7'],
    ['.5', '0.5'],
    ['-0', '0'],
    ['+5', '5'],
    ['5.', '5'],
    ['\\left( 1, 2 \\right)', '(1,2)'],
    ['x \\rightarrow y', 'e:["To","x","y"]'],
    ['16 \\text{ hours}', '16'],
    ['16\\,\\text{hours}', '16'],
    ['52\\ \\text{WPM}', '52'],
    ['\\text{8}', '8'],
    ['50\\%', '50'],
    ['1,00', '1'], // not a valid thousands grouping, and not a list of numbers (00): a decimal comma (issue 32)
    ['12,345,678', '12345678'],
    ['3 . 14', '3.14'],
    ['', null],
    ['$ $', null],
    [null, null],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizeAnswer(input), expected);
    });
  }
  test('exact numbers are compared exactly: every digit counts (trial 3 finding 4)', () => {
    // 12345678901234567890.1 and 12345678901234567891 differ by 0.9: two values; so do 123456789012 and 123456789013
    assert.equal(normalizeAnswer('12345678901234567890.10'), '12345678901234567890.1');
    assert.notEqual(normalizeAnswer('12345678901234567891'), normalizeAnswer('12345678901234567890.10'));
    assert.notEqual(normalizeAnswer('123456789012'), normalizeAnswer('123456789013'));
  });
});

/** Brute force maj@k over all k-subsets with the documented policies (answers already normalized). */
function bruteMaj(samples: VoteSample[], k: number): number {
  // a group's credit: the majority verdict of its graded samples, 1/2 on a tie, 0 with none graded
  const tally = new Map<string, [number, number]>();
  for (const s of samples) {
    if (s.answer === null) continue;
    const t = tally.get(s.answer) ?? [0, 0];
    if (s.correct === true) t[0]++;
    else if (s.correct === false) t[1]++;
    tally.set(s.answer, t);
  }
  const credit = (a: string) => {
    const [r, w] = tally.get(a)!;
    return r > w ? 1 : r < w ? 0 : r > 0 ? 0.5 : 0;
  };
  let total = 0;
  let count = 0;
  for (const sub of subsets(samples.length, k)) {
    count++;
    const votes = new Map<string, number>();
    for (const i of sub) {
      const a = samples[i].answer;
      if (a !== null) votes.set(a, (votes.get(a) ?? 0) + 1);
    }
    if (votes.size === 0) continue;
    const top = Math.max(...votes.values());
    const winners = [...votes].filter(([, v]) => v === top).map(([a]) => a);
    total += winners.reduce((acc, a) => acc + credit(a), 0) / winners.length;
  }
  return total / count;
}

function randomVotes(r: () => number, n: number): VoteSample[] {
  return Array.from({ length: n }, () => {
    const x = r();
    const answer = x < 0.15 ? null : String(Math.floor(r() * 4));
    return { answer, correct: answer === '0' ? r() < 0.8 : answer === null ? null : false };
  });
}

describe('majAtK', () => {
  test('exact computation matches brute-force enumeration (nulls, ties, mixed verdicts)', () => {
    const r = mulberry32(31);
    for (let t = 0; t < 150; t++) {
      const n = 1 + Math.floor(r() * 9);
      const samples = randomVotes(r, n);
      if (!samples.some((s) => s.correct !== null)) continue;
      for (let k = 1; k <= n; k++) {
        const d = majAtKDetailed(samples, k);
        assert.equal(d.method, 'exact');
        assert.ok(Math.abs((d.value as number) - bruteMaj(samples, k)) < 1e-12, `case ${t} n=${n} k=${k}`);
      }
    }
  });

  test('tie policy: split credit among tied top answers (not insertion order)', () => {
    const s = [
      { answer: 'A', correct: true },
      { answer: 'B', correct: false },
    ];
    assert.equal(majAtK(s, 2), 0.5);
    assert.equal(majAtK([...s].reverse(), 2), 0.5);
  });

  test('votes are on answers, not verdicts (Inspect mode reducer pitfall)', () => {
    // 3 distinct wrong answers and 2 identical right ones: verdict-voting says "incorrect" (3 vs 2),
    // answer-voting picks "7" (2 votes vs 1 each).
    const s = [
      { answer: '7', correct: true },
      { answer: '7', correct: true },
      { answer: '1', correct: false },
      { answer: '2', correct: false },
      { answer: '3', correct: false },
    ];
    assert.equal(majAtK(s, 5), 1);
  });

  test('lm-eval maj@k pitfall: the first k samples are one noisy subset; we average over all k-subsets', () => {
    const s = [
      { answer: 'B', correct: false },
      { answer: 'B', correct: false },
      { answer: 'A', correct: true },
      { answer: 'A', correct: true },
      { answer: 'A', correct: true },
    ];
    // first-2 vote says B (0). Over the 10 pairs: {B,B} 1 -> 0, {A,A} 3 -> 1, {A,B} 6 ties -> 0.5 each
    assert.equal(majAtK(s.slice(0, 2), 2), 0);
    assert.ok(Math.abs((majAtK(s, 2) as number) - 0.6) < 1e-15);
  });

  test('null answers never win; a subset of only nulls scores 0', () => {
    const s = [
      { answer: null, correct: false },
      { answer: null, correct: false },
      { answer: 'B', correct: false },
    ];
    assert.equal(majAtK(s, 3), 0);
    const t = [
      { answer: 'A', correct: true },
      { answer: null, correct: false },
      { answer: null, correct: false },
    ];
    assert.equal(majAtK(t, 3), 1);
    // k=1: only the 'A' draw scores
    assert.ok(Math.abs((majAtK(t, 1) as number) - 1 / 3) < 1e-15);
  });

  test('an answer group is correct by the majority verdict of its equivalent samples (half on a tie)', () => {
    const s = [
      { answer: '\\$22,\\!500', correct: false },
      { answer: '22500', correct: true },
      { answer: '45000', correct: false },
    ];
    // 22500 wins (2 votes); its verdicts: 1 right, 1 wrong -> 1/2
    assert.equal(majAtK(s, 3), 0.5);
    // one more 22,500 graded right: 2 right, 1 wrong -> correct
    assert.equal(majAtK([...s, { answer: '22,500', correct: true }], 4), 1);
  });

  test('n < k and ungraded problems are null', () => {
    assert.equal(majAtK([{ answer: 'A', correct: true }], 2), null);
    assert.deepEqual(majAtKDetailed([{ answer: 'A', correct: null }], 1), { value: null, method: 'none' });
    assert.throws(() => majAtK([], 0), RangeError);
  });

  test('exact past the old enumeration limit: equals the count-vector enumeration run without a limit', () => {
    // 12 samples over 4 answers and nulls, k = 6: the enumeration the report used before (bench/legacyMajority.ts)
    // as the oracle, with no node limit
    const r = mulberry32(8);
    for (let t = 0; t < 20; t++) {
      const samples = randomVotes(r, 12 + Math.floor(r() * 30));
      const gr = voteGroups(samples);
      if (gr === null) continue;
      for (const k of [2, 5, 6, 11, Math.floor(gr.n / 2)]) {
        const d = majAtKDetailed(samples, k);
        assert.equal(d.method, 'exact');
        const oracle = legacyVote(gr, k, { draws: 1, seed: 1, exactLimit: 1e9 });
        assert.equal(oracle.method, 'exact');
        assert.ok(Math.abs((d.value as number) - oracle.value) < 1e-12, `case ${t} k=${k}`);
      }
    }
  });

  test("n=2048 with many distinct answers: exact (it used to be a Monte Carlo estimate), within that estimate's error, and fast", () => {
    const r = mulberry32(77);
    const samples: VoteSample[] = Array.from({ length: 2048 }, () => {
      const a = Math.floor(r() * r() * 60);
      return { answer: String(a), correct: a === 0 };
    });
    const t0 = performance.now();
    const d = majAtKDetailed(samples, 1024);
    assert.ok(performance.now() - t0 < 3000);
    assert.equal(d.method, 'exact');
    // '0' is by far the most frequent answer: with 1024 draws it wins essentially always
    assert.ok((d.value as number) > 0.99);
    // k = 1: the fraction of samples whose answer group is correct; k = 2: the same (a tie of two splits the credit)
    const correct = samples.filter((s) => s.correct).length / 2048;
    assert.ok(Math.abs((majAtKDetailed(samples, 1).value as number) - correct) < 1e-12);
    assert.ok(Math.abs((majAtKDetailed(samples, 2).value as number) - correct) < 1e-12);
    // at k = 8, 32 and 256 (where '0' does not always win), the old seeded Monte Carlo of 20000 draws agrees within
    // 4 standard errors (its per-draw credit is in [0, 1], so a standard error <= 0.5 / sqrt(20000))
    const gr = voteGroups(samples);
    assert.ok(gr);
    for (const k of [8, 32, 256]) {
      const mc = legacyVote(gr, k, { draws: 20000, seed: 3, exactLimit: 0 });
      assert.equal(mc.method, 'monte-carlo');
      const exact = majAtKDetailed(samples, k).value as number;
      assert.ok(
        Math.abs(exact - mc.value) < 4 * (0.5 / Math.sqrt(20000)),
        `k=${k}: exact ${exact}, Monte Carlo ${mc.value}`,
      );
    }
  });

  test('dataset aggregation and curve', () => {
    const p1 = [
      { answer: 'A', correct: true },
      { answer: 'B', correct: false },
    ];
    const p2 = [{ answer: 'C', correct: true }];
    const d = datasetMajAtK([p1, p2], 2);
    assert.deepEqual(d, { k: 2, value: 0.5, problems: 1, missing: 1, byReference: 0 });
    const c = majAtKCurve([p1, p2], [1, 2]);
    assert.equal(c[0].value, (0.5 + 1) / 2);
  });
});

describe('answerInBase', () => {
  test('counts base samples with the same normalised answer and the correct ones; null and empty answers are no answer', () => {
    const counts = baseAnswerCounts([
      { answer: '\\$8,\\!096', correct: true },
      { answer: '8096', correct: false },
      { answer: '8,096', correct: true },
      { answer: '42', correct: false },
      { answer: null, correct: true },
      { answer: '', correct: true },
    ]);
    assert.deepEqual(answerInBase(counts, '8096'), { count: 3, correct: 2 });
    assert.deepEqual(answerInBase(counts, '42'), { count: 1, correct: 0 });
    assert.deepEqual(answerInBase(counts, '7'), { count: 0, correct: 0 });
    assert.equal(answerInBase(counts, null), null);
    assert.equal(answerInBase(counts, '   '), null);
    assert.deepEqual(answerInBase(new Map(), '1'), { count: 0, correct: 0 });
  });
});
