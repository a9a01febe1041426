import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildBaseIndex,
  diffWithNearestBase,
  estimateJaccard,
  jaccardSorted,
  makeMinHashFamily,
  minHashSignature,
  nearestBaseSamples,
  normalizeForSimilarity,
  novelSpans,
  noveltyScore,
  problemSimilarity,
  summarize,
  textJaccard,
  tokenDiff,
  tokenize,
  tokenizeWithOffsets,
  wordDiff,
} from '../../src/core/similarity';
import { U32CountTable, splitmix32, toSortedSet } from '../../src/core/similarity/shingles';

describe('similarity: tokenizer and normalisation', () => {
  test('LaTeX fraction: tokens and offsets into the original text', () => {
    assert.deepEqual(tokenizeWithOffsets('$\\dfrac{1}{2}$'), [
      { token: '\\frac', start: 1, end: 7 },
      { token: '{', start: 7, end: 8 },
      { token: '1', start: 8, end: 9 },
      { token: '}', start: 9, end: 10 },
      { token: '{', start: 10, end: 11 },
      { token: '2', start: 11, end: 12 },
      { token: '}', start: 12, end: 13 },
    ]);
  });

  test('\\dfrac vs \\frac with extra spaces normalise identically', () => {
    const a = 'So  $\\dfrac{1}{2}$   of   it.';
    const b = 'so \\(\\frac{1}{2}\\) of it.';
    assert.equal(normalizeForSimilarity(a), 'so \\frac { 1 } { 2 } of it .');
    assert.equal(normalizeForSimilarity(b), normalizeForSimilarity(a));
    assert.equal(textJaccard(a, b), 1);
  });

  test('\\left( \\right), spacing commands and display delimiters are removed', () => {
    assert.deepEqual(tokenize('\\[ \\left( x \\,+\\! 1 \\right) \\; \\quad \\]'), ['(', 'x', '+', '1', ')']);
    assert.deepEqual(tokenize('$$\\left. f \\right|_0^1$$'), ['f', '|', '_', '0', '^', '1']);
    assert.deepEqual(tokenize('a \\\\ b'), ['a', 'b']);
  });

  test('wrappers are unwrapped with their braces, nested braces survive', () => {
    assert.deepEqual(tokenize('\\boxed{52}'), ['52']);
    assert.deepEqual(tokenize('\\boxed{\\frac{1}{2}}'), ['\\frac', '{', '1', '}', '{', '2', '}']);
    assert.deepEqual(tokenize('18 \\text{ minutes}'), ['18', 'minutes']);
    assert.deepEqual(tokenize('\\mathrm {kg} {x}'), ['kg', '{', 'x', '}']);
    // a wrapper without a brace argument: only the command disappears
    assert.deepEqual(tokenize('\\boxed 5 }'), ['5', '}']);
  });

  test('multiplication synonyms unify, markdown bold disappears', () => {
    const forms = ['3 \\cdot 4', '3 \\times 4', '3×4', '3 * 4', '3·4', '3 ⋅ 4'];
    for (const f of forms) assert.deepEqual(tokenize(f), ['3', '\\times', '4'], f);
    assert.deepEqual(tokenize('**Step 1:** add'), ['step', '1', ':', 'add']);
  });

  test('numbers: thousands separators, trailing decimal zeros, letter/digit split', () => {
    assert.deepEqual(tokenize('1,000 and 12,345.50'), ['1000', 'and', '12345.5']);
    assert.deepEqual(tokenize('52.00 0.50 3. 007'), ['52', '0.5', '3', '.', '007']);
    assert.deepEqual(tokenize('1,2345 47, 52'), ['1', ',', '2345', '47', ',', '52']);
    assert.deepEqual(tokenize('2x+3y'), ['2', 'x', '+', '3', 'y']);
  });

  test('words: lower-case, apostrophes, curly quotes, other synonyms', () => {
    assert.deepEqual(tokenize("I’ll check Jared's WPM"), ["i'll", 'check', "jared's", 'wpm']);
    assert.deepEqual(tokenize('x \\leq y ≥ z \\neq w … a...'), [
      'x',
      '\\le',
      'y',
      '\\ge',
      'z',
      '\\ne',
      'w',
      '\\dots',
      'a',
      '\\dots',
    ]);
    assert.deepEqual(tokenize('\\$5 costs $5'), ['5', 'costs', '5']);
    assert.deepEqual(tokenize('−3'), ['-', '3']);
  });

  test('whitespace collapses; empty, whitespace-only and non-string inputs give no tokens', () => {
    assert.deepEqual(tokenize('a   b\n\n\tc\u00a0d'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(tokenize(''), []);
    assert.deepEqual(tokenize(' \n\t '), []);
    assert.deepEqual(tokenize(null as unknown as string), []);
    assert.equal(normalizeForSimilarity(42 as unknown as string), '');
  });

  test('non-ASCII letters and surrogate pairs keep exact offsets', () => {
    const t = 'café 𝑥=2 日本';
    assert.deepEqual(tokenizeWithOffsets(t), [
      { token: 'café', start: 0, end: 4 },
      { token: '𝑥', start: 5, end: 7 },
      { token: '=', start: 7, end: 8 },
      { token: '2', start: 8, end: 9 },
      { token: '日本', start: 10, end: 12 },
    ]);
  });

  test('property: tokens are ordered, non-overlapping, in bounds, and never contain whitespace', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const toks = tokenizeWithOffsets(s);
        let prevEnd = 0;
        for (const t of toks) {
          assert.ok(t.start >= prevEnd && t.end > t.start && t.end <= s.length);
          assert.ok(t.token.length > 0 && !/\s/.test(t.token));
          prevEnd = t.end;
        }
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});

describe('similarity: Jaccard and MinHash', () => {
  test('identical texts -> 1, disjoint texts -> 0', () => {
    const a = 'First, I add 47 and 52 to get 99.';
    assert.equal(textJaccard(a, a), 1);
    assert.equal(textJaccard(a, 'Completely different words here now'), 0);
  });

  test('partial overlap: hand-computed Jaccard 2/6', () => {
    // A 3-grams: [the cat sat] [cat sat on] [sat on the] [on the mat]
    // B 3-grams: [the cat sat] [cat sat on] [sat on a]   [on a mat]
    // |A ∩ B| = 2, |A ∪ B| = 6
    assert.equal(textJaccard('the cat sat on the mat', 'the cat sat on a mat'), 2 / 6);
    // with n = 1 (word sets): {the,cat,sat,on,mat} vs {the,cat,sat,on,a,mat}: 5/6
    assert.equal(textJaccard('the cat sat on the mat', 'the cat sat on a mat', { n: 1 }), 5 / 6);
  });

  test('reordered sentences: hand-computed Jaccard 8/12 and no novel token', () => {
    const s1 = 'alpha beta gamma.';
    const s2 = 'delta epsilon zeta.';
    const s3 = 'eta theta iota.';
    const a = `${s1} ${s2} ${s3}`;
    const b = `${s2} ${s3} ${s1}`;
    // each text: 12 tokens -> 10 shingles; 6 inside sentences + 2 at the s2|s3 boundary are shared,
    // the s1|s2 and s3|s1 boundaries (2 shingles each) are not: 8 / (10 + 10 - 8)
    assert.equal(textJaccard(a, b), 8 / 12);
    assert.equal(noveltyScore(b, [a]), 0);
    assert.deepEqual(novelSpans(b, [a]), [{ start: 0, end: b.length, novel: false }]);
  });

  test('texts shorter than n compare as whole sequences; empty-text policy', () => {
    assert.equal(textJaccard('a b', 'A  b'), 1);
    assert.equal(textJaccard('a b', 'a c'), 0);
    assert.equal(textJaccard('', '  '), 1);
    assert.equal(textJaccard('', 'a b c'), 0);
  });

  test('jaccardSorted on explicit sets', () => {
    assert.equal(jaccardSorted(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(3, 4, 5)), 2 / 5);
    assert.equal(jaccardSorted(new Uint32Array(0), new Uint32Array(0)), 1);
    assert.deepEqual([...toSortedSet(Uint32Array.of(5, 1, 5, 3, 1))], [1, 3, 5]);
  });

  test('MinHash estimate is within tolerance of exact Jaccard on synthetic sets', () => {
    const rnd = splitmix32(99);
    const fam = makeMinHashFamily(256, 1234);
    let sumAbs = 0;
    const trials = 30;
    for (let t = 0; t < trials; t++) {
      // A and B share `common` of their elements; exact J = common / (2*400 - common)
      const common = (40 + (t * 360) / trials) | 0;
      const shared = Array.from({ length: common }, () => rnd());
      const a = toSortedSet(Uint32Array.from([...shared, ...Array.from({ length: 400 - common }, () => rnd())]));
      const b = toSortedSet(Uint32Array.from([...shared, ...Array.from({ length: 400 - common }, () => rnd())]));
      const exact = jaccardSorted(a, b);
      const est = estimateJaccard(minHashSignature(a, fam), minHashSignature(b, fam));
      const se = Math.sqrt((exact * (1 - exact)) / 256);
      assert.ok(Math.abs(est - exact) <= 4 * se + 1e-9, `trial ${t}: est ${est} exact ${exact}`);
      sumAbs += Math.abs(est - exact);
    }
    assert.ok(sumAbs / trials < 0.03, `mean abs error ${sumAbs / trials}`);
  });

  test('MinHash: same seed -> same signature, different seed -> different signature', () => {
    const set = toSortedSet(Uint32Array.of(10, 20, 30, 40));
    assert.deepEqual(minHashSignature(set, makeMinHashFamily(64, 1)), minHashSignature(set, makeMinHashFamily(64, 1)));
    assert.notDeepEqual(
      minHashSignature(set, makeMinHashFamily(64, 1)),
      minHashSignature(set, makeMinHashFamily(64, 2)),
    );
    assert.throws(() => makeMinHashFamily(0), RangeError);
    assert.throws(() => estimateJaccard(new Uint32Array(2), new Uint32Array(3)), RangeError);
  });

  test('U32CountTable counts like a Map through growth', () => {
    const t = new U32CountTable(4);
    const ref = new Map<number, number>();
    const rnd = splitmix32(5);
    for (let i = 0; i < 5000; i++) {
      const k = i % 3 === 0 ? 0 : rnd() % 700; // include key 0
      t.increment(k);
      ref.set(k, (ref.get(k) ?? 0) + 1);
    }
    assert.equal(t.size, ref.size);
    for (const [k, v] of ref) assert.equal(t.get(k), v);
    assert.equal(t.get(123456789), 0);
  });
});

describe('similarity: nearest base samples', () => {
  const base = ['the cat sat on the mat', 'a dog ran in the park', 'the cat sat on a mat'];

  test('ranks by exact Jaccard, ties by lower index, topK limits', () => {
    assert.deepEqual(nearestBaseSamples('the cat sat on the mat', base, { topK: 3 }), [
      { baseIndex: 0, similarity: 1 },
      { baseIndex: 2, similarity: 2 / 6 },
      { baseIndex: 1, similarity: 0 },
    ]);
    assert.deepEqual(nearestBaseSamples('the cat sat on the mat', base, { topK: 1 }), [
      { baseIndex: 0, similarity: 1 },
    ]);
    assert.deepEqual(nearestBaseSamples('zzz yyy xxx', ['q r s', 'q r s'], { topK: 5 }), [
      { baseIndex: 0, similarity: 0 },
      { baseIndex: 1, similarity: 0 },
    ]);
    assert.deepEqual(nearestBaseSamples('anything', []), []);
    assert.throws(() => nearestBaseSamples('x', base, { topK: 0 }), RangeError);
    assert.throws(() => buildBaseIndex(base, { n: 0 }), RangeError);
  });

  test('the MinHash shortlist finds an exact duplicate among 300 base samples and matches brute force closely', () => {
    const rnd = splitmix32(3);
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`.replace(/\d/g, (d) => 'abcdefghij'[+d]));
    const make = (len: number) => Array.from({ length: len }, () => words[rnd() % words.length]).join(' ');
    const baseTexts = Array.from({ length: 300 }, () => make(150));
    const index = buildBaseIndex(baseTexts);
    // a copy of base 123 with the last 30 words replaced
    const query = baseTexts[123].split(' ').slice(0, 120).join(' ') + ' ' + make(30);
    const best = index.nearest(query, 1)[0];
    assert.equal(best.baseIndex, 123);
    assert.equal(best.similarity, textJaccard(query, baseTexts[123]));
    assert.equal(index.nearest(baseTexts[77], 1)[0].similarity, 1);
    assert.equal(index.nearest(baseTexts[77], 1)[0].baseIndex, 77);
    // unrelated random queries: the shortlisted best is within 0.05 of the brute-force best
    const exactIndex = buildBaseIndex(baseTexts, { shortlist: 300 });
    for (let q = 0; q < 10; q++) {
      const text = make(150);
      const approx = index.nearest(text, 1)[0].similarity;
      const exact = exactIndex.nearest(text, 1)[0].similarity;
      assert.ok(approx <= exact && exact - approx <= 0.05, `query ${q}: ${approx} vs ${exact}`);
    }
  });

  test('leave-one-out excludes the sample itself', () => {
    const index = buildBaseIndex(base);
    assert.deepEqual(index.nearestOtherBase(0, 2), [
      { baseIndex: 2, similarity: 2 / 6 },
      { baseIndex: 1, similarity: 0 },
    ]);
    assert.throws(() => index.nearestOtherBase(3), RangeError);
  });

  test('determinism: same inputs give identical results, the seed does not change exact scores', () => {
    const texts = Array.from(
      { length: 40 },
      (_, i) => `step ${i % 7} we add ${i % 5} and ${i % 3} to get ${(i % 5) + (i % 3)}`,
    );
    const q = 'step 3 we add 2 and 1 to get 3';
    const r1 = buildBaseIndex(texts).nearest(q, 5);
    const r2 = buildBaseIndex(texts).nearest(q, 5);
    assert.deepEqual(r1, r2);
    const exact1 = buildBaseIndex(texts, { seed: 1, shortlist: 40 }).nearest(q, 5);
    const exact2 = buildBaseIndex(texts, { seed: 2, shortlist: 40 }).nearest(q, 5);
    assert.deepEqual(exact1, exact2);
  });
});

describe('similarity: novel spans', () => {
  test('identical -> no novel token; disjoint -> everything novel', () => {
    const a = 'First, add 47 and 52.';
    assert.equal(noveltyScore(a, [a]), 0);
    assert.deepEqual(novelSpans(a, [a]), [{ start: 0, end: a.length, novel: false }]);
    assert.equal(noveltyScore(a, ['nothing in common here']), 1);
    // leading/trailing whitespace is outside the novel run
    assert.deepEqual(novelSpans('  x y z  ', ['a b c']), [
      { start: 0, end: 2, novel: false },
      { start: 2, end: 7, novel: true },
      { start: 7, end: 9, novel: false },
    ]);
  });

  test('offsets on a hand example', () => {
    const model = 'Thus the answer is 12. We are done.';
    // tokens: thus[0,4) the[5,8) answer[9,15) is[16,18) 12[19,21) .[21,22) we[23,25) are[26,29) done[30,34) .[34,35)
    // base 3-grams [the answer is] [answer is 12] [is 12 .] cover the..'.'; the rest is novel.
    const base = ['the answer is 12. ok'];
    assert.deepEqual(novelSpans(model, base), [
      { start: 0, end: 4, novel: true },
      { start: 4, end: 23, novel: false },
      { start: 23, end: 35, novel: true },
    ]);
    const r = buildBaseIndex(base).novelty(model);
    assert.equal(r.tokenCount, 10);
    assert.equal(r.novelTokenCount, 5);
    assert.equal(r.noveltyScore, 0.5);
  });

  test('a novel run of stopwords and punctuation only is not a novel span; the score still counts its tokens', () => {
    const base = ['we add 47 and 52', 'so the sum is 99'];
    // his[17,20) is the only token outside the base's 3-grams: a lone common word, not new reasoning
    const his = 'we add 47 and 52 his so the sum is 99';
    assert.deepEqual(novelSpans(his, base), [{ start: 0, end: his.length, novel: false }]);
    const r = buildBaseIndex(base).novelty(his);
    assert.equal(r.novelTokenCount, 1);
    assert.equal(r.noveltyScore, 1 / 11);
    // "the ," alone: still not novel; a content word in the run keeps the whole run novel
    const the = 'we add 47 and 52 the, so the sum is 99';
    assert.deepEqual(novelSpans(the, base), [{ start: 0, end: the.length, novel: false }]);
    const twice = 'we add 47 and 52 the twice so the sum is 99';
    assert.deepEqual(novelSpans(twice, base), [
      { start: 0, end: 17, novel: false },
      { start: 17, end: 26, novel: true },
      { start: 26, end: twice.length, novel: false },
    ]);
  });

  test('coverage can come from several base samples; LaTeX differences do not count as novel', () => {
    const model = 'we get $\\dfrac{1}{2}$ so the answer is 7';
    const base = ['so we get \\frac{1}{2} here', 'so the answer is 7 today'];
    assert.equal(noveltyScore(model, base), 0);
    // tokens: we get \frac { 1 } { 2 } | so the answer is 7 -> the last 5 of 14 are novel without base 1
    assert.equal(noveltyScore(model, [base[0]]), 5 / 14);
  });

  test('a text shorter than n is covered only by an identical short base text', () => {
    assert.equal(noveltyScore('a b', ['a b']), 0);
    assert.equal(noveltyScore('a b', ['a b c']), 1);
  });

  test('empty and whitespace texts', () => {
    assert.deepEqual(novelSpans('', ['a b c']), []);
    assert.deepEqual(novelSpans('   ', ['a b c']), [{ start: 0, end: 3, novel: false }]);
    assert.equal(noveltyScore('', ['a b c']), 0);
  });

  test('property: spans partition the text; novel spans start and end on novel tokens', () => {
    const words = ['a', 'b', 'c', 'd', '$x$', '\\frac{1}{2}', ',', '  ', '\n'];
    const textArb = fc.array(fc.constantFrom(...words), { maxLength: 30 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(textArb, fc.array(textArb, { maxLength: 3 }), (model, base) => {
        const spans = novelSpans(model, base);
        let pos = 0;
        for (const s of spans) {
          assert.equal(s.start, pos);
          assert.ok(s.end > s.start);
          if (s.novel) assert.equal(model.slice(s.start, s.end), model.slice(s.start, s.end).trim());
          pos = s.end;
        }
        assert.equal(pos, model.length);
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});

describe('similarity: per-problem distribution', () => {
  test('summarize uses linear-interpolation quantiles', () => {
    assert.deepEqual(summarize([4, 1, 3, 2]), { count: 4, min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4, mean: 2.5 });
    assert.deepEqual(summarize([]), { count: 0, min: null, q1: null, median: null, q3: null, max: null, mean: null });
    assert.equal(summarize([NaN, 2]).count, 1);
  });

  test('hand example: duplicates in the base, one copied and one new model sample', () => {
    const A = 'the cat sat on the mat';
    const B = 'the cat sat on a mat';
    const C = 'quantum flux capacitor hums';
    const res = problemSimilarity([A, A, B], [A, C]);
    assert.deepEqual(
      res.baseline.map((b) => [b.nearestOther?.baseIndex, b.similarity, b.novelty]),
      [
        [1, 1, 0],
        [0, 1, 0],
        // B against {A, A}: J = 1/3; tokens a, mat only in [sat on a] [on a mat] -> 2 of 6 novel
        [0, 1 / 3, 2 / 6],
      ],
    );
    assert.deepEqual(
      res.model.map((m) => [m.nearest, m.similarity, m.novelty, m.tokenCount, m.baselinePercentile]),
      [
        [[{ baseIndex: 0, similarity: 1 }], 1, 0, 6, 1],
        [[{ baseIndex: 0, similarity: 0 }], 0, 1, 4, 0],
      ],
    );
    assert.equal(res.summary.baselineSimilarity.median, 1);
    assert.equal(res.summary.baselineSimilarity.min, 1 / 3);
    assert.equal(res.summary.modelSimilarity.median, 0.5);
    assert.equal(res.options.n, 3);
    assert.equal(res.options.numHashes, 128);
  });

  test('no base sample, one base sample', () => {
    const none = problemSimilarity([], ['a b c']);
    assert.deepEqual(none.model[0], {
      sampleIndex: 0,
      nearest: [],
      similarity: null,
      novelty: 1,
      tokenCount: 3,
      baselinePercentile: null,
    });
    assert.equal(none.summary.modelSimilarity.count, 0);
    const one = problemSimilarity(['a b c d'], ['a b c']);
    assert.deepEqual(one.baseline, [{ baseIndex: 0, nearestOther: null, similarity: null, novelty: 1, tokenCount: 4 }]);
    assert.equal(one.model[0].similarity, 1 / 2);
    assert.equal(one.model[0].baselinePercentile, null);
  });

  test('untrusted input: non-string texts are read as empty', () => {
    const res = problemSimilarity(['a b c', null as unknown as string], [undefined as unknown as string, 'a b c']);
    assert.equal(res.model[0].tokenCount, 0);
    assert.equal(res.model[0].similarity, 1); // empty vs the empty base sample
    assert.equal(res.model[1].similarity, 1);
  });
});

describe('similarity: word diff (diff package)', () => {
  test('segments of a one-word change', () => {
    assert.deepEqual(wordDiff('the cat sat', 'the dog sat'), [
      { value: 'the ' },
      { value: 'cat', removed: true },
      { value: 'dog', added: true },
      { value: ' sat' },
    ]);
  });

  test('segments rebuild both texts', () => {
    const base = 'First, add 47 and 52 to get 99.\nThen divide by 3.';
    const model = 'First, add 47 and 57 to get 104.\nThen we divide by 3, giving 34.67.';
    const segs = wordDiff(base, model, { ignoreCase: false })!;
    assert.equal(
      segs
        .filter((s) => !s.removed)
        .map((s) => s.value)
        .join(''),
      model,
    );
    assert.equal(
      segs
        .filter((s) => !s.added)
        .map((s) => s.value)
        .join(''),
      base,
    );
    assert.ok(segs.some((s) => s.added && s.value.includes('57')));
  });

  test('diff with the nearest base sample', () => {
    const base = ['alpha beta gamma delta', 'the cat sat on the mat'];
    const r = diffWithNearestBase('the cat sat on a mat', base)!;
    assert.equal(r.baseIndex, 1);
    assert.equal(r.similarity, 2 / 6);
    assert.deepEqual(r.segments, [
      { value: 'the cat sat on ', start: 0, end: 15 },
      { value: 'the', removed: true, start: 15, end: 18 },
      { value: 'a', added: true, start: 15, end: 16 },
      { value: ' mat', start: 16, end: 20 },
    ]);
    const w = diffWithNearestBase('the cat sat on a mat', base, { mode: 'words' })!;
    assert.deepEqual(w.segments, [
      { value: 'the cat sat on ' },
      { value: 'the', removed: true },
      { value: 'a', added: true },
      { value: ' mat' },
    ]);
    assert.equal(diffWithNearestBase('x', []), null);
    assert.throws(() => buildBaseIndex(base).diffWithNearest('x', ['only one']), RangeError);
  });

  test('token diff ignores LaTeX spelling and gives offsets into both original texts', () => {
    const base = '$\\frac{1}{2}$ of 10 is 5';
    const model = '\\dfrac{1}{2} of 10 is 6.';
    assert.deepEqual(tokenDiff(base, model), [
      { value: '\\dfrac{1}{2} of 10 is ', start: 0, end: 22 },
      { value: '5', removed: true, start: 23, end: 24 },
      { value: '6.', added: true, start: 22, end: 24 },
    ]);
  });

  test('token diff: edges next to added runs, empty texts', () => {
    assert.deepEqual(tokenDiff('b', '  a b  '), [
      { value: '  ', start: 0, end: 2 },
      { value: 'a', added: true, start: 2, end: 3 },
      { value: ' b  ', start: 3, end: 7 },
    ]);
    assert.deepEqual(tokenDiff('a', ' b '), [
      { value: 'a', removed: true, start: 0, end: 1 },
      { value: ' ', start: 0, end: 1 },
      { value: 'b', added: true, start: 1, end: 2 },
      { value: ' ', start: 2, end: 3 },
    ]);
    assert.deepEqual(tokenDiff('', ''), []);
    assert.deepEqual(tokenDiff('a b', '   '), [
      { value: 'a b', removed: true, start: 0, end: 3 },
      { value: '   ', start: 0, end: 3 },
    ]);
  });
});
