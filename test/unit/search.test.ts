import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import {
  CONTINUOUS_CHAR_RE,
  ftsQuery,
  holdsAsTyped,
  mayHoldContinuousScript,
  searchTerms,
  searchText,
  snippet,
} from '../../src/core/index/search';
import { searchSamples } from '../../src/cli/main';
import { assertDocumentedShape, documentedShape, REAL, tempDir } from './helpers';
import { runCli } from './reliability.support';

/**
 * Sample texts in several scripts and normalisation forms, one problem each (problem id = position).
 * What each query must find is written out by hand below.
 */
const TEXTS = [
  /* 0 */ '长方形的面积为12平方米，所以答案是\\boxed{12}',
  /* 1 */ '正方形的周长是16厘米。gen-itgc 不是答案',
  /* 2 */ '答えは１２です。三角形の面積を求めます', // full-width 12
  /* 3 */ '정답은 12입니다', // Korean, NFC
  /* 4 */ '삼각형의 넓이는 높이의 절반'.normalize('NFD'), // Korean as conjoining jamo (NFD)
  /* 5 */ 'The café serves crème brûlée'.normalize('NFD'), // Latin, NFD
  /* 6 */ 'plain ascii answer 12 abc',
  /* 7 */ 'คำตอบคือ 12', // Thai: no spaces between words
  /* 8 */ 'ﬁnal answer: ⑫ is not twelve', // ligature fi and a circled number (compatibility forms)
];

/** Query -> the problems (positions in TEXTS) whose sample must match, worked out by hand. */
const EXPECTED: [string, number[]][] = [
  ['面积', [0]],
  ['答案', [0, 1]],
  ['长方形', [0]],
  ['12', [0, 2, 3, 6, 7, 8]], // ⑫ is 12 in NFKC
  ['gen-itgc', [1]],
  ['itgc', [1]],
  ['周长 gen', [1]],
  ['面積', [2]], // the Japanese character 積, not the simplified 积
  ['答え', [2]],
  ['三角形', [2]],
  ['１２', [0, 2, 3, 6, 7, 8]], // a full-width query
  ['정답', [3]],
  ['정답'.normalize('NFD'), [3]], // an NFD query finds NFC text
  ['넓이', [4]], // an NFC query finds NFD text
  ['삼각형', [4]],
  ['cafe', [5]],
  ['café', [5]],
  ['CRÈME', [5]],
  ['ＡＢＣ', [6]],
  ['คำตอบ', [7]],
  ['final', [8]],
  ['面积 답', []],
  ['平方米 积为', [0]],
  ['方形', [0, 1]],
];

function writeFolder(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'runs.jsonl'),
    TEXTS.map((text, qid) =>
      JSON.stringify({
        qid,
        question: `q${qid}`,
        gold: '12',
        model_name: 'm',
        model_revision: 'main',
        rollouts: [{ rollout: 0, text, correct: qid % 2 === 0 }],
      }),
    ).join('\n'),
  );
  return dir;
}

describe('search in every script (real SQLite FTS5)', () => {
  for (const parallel of [false, true])
    test(`Chinese, Japanese, Korean, Thai, NFC/NFD, full-width and mixed ASCII/CJK queries find the right samples (${parallel ? 'parallel' : 'one-thread'} reader)`, async () => {
      const dir = writeFolder();
      const index = TraceIndex.open(join(dir, 'index.db'));
      // the parallel reader prepares the full-text index's text on its own thread
      await indexFolder(index, dir, { parallelReadMinBytes: parallel ? 0 : Number.POSITIVE_INFINITY });
      for (const [query, expected] of EXPECTED) {
        const { total, samples } = index.searchSamples(query, { limit: 100 });
        const got = samples.map((s) => Number(index.problem(s.problemId)!.problemId)).sort((a, b) => a - b);
        assert.deepEqual(got, expected, `query ${JSON.stringify(query)}`);
        assert.equal(total, expected.length);
        // the Problems tree's search filter finds the same problems
        assert.equal(index.countProblems({ kind: 'search', query }), expected.length, `tree filter ${query}`);
      }
      // the verdict filter: even problem ids are correct
      assert.deepEqual(
        index
          .searchSamples('12', { correct: true })
          .samples.map((s) => Number(index.problem(s.problemId)!.problemId))
          .sort((a, b) => a - b),
        [0, 2, 6, 8],
      );
      assert.equal(index.searchSamples('12', { correct: false }).total, 2);
      assert.equal(index.searchSamples('12', { correct: null }).total, 0);
      index.close();
    });

  test('snippets mark the matched term in the original text, whatever its form', () => {
    assert.match(snippet(TEXTS[0], '面积'), /长方形的«面积»为12/);
    assert.match(snippet(TEXTS[1], 'gen-itgc'), /«gen-itgc»/);
    assert.match(snippet(TEXTS[2], '12'), /答えは«１２»です/);
    assert.match(snippet(TEXTS[4], '넓이').normalize('NFC'), /«넓이»는/);
    assert.match(snippet(TEXTS[5], 'creme').normalize('NFC'), /«crème» brûlée/);
    assert.match(snippet(TEXTS[6], 'answer'), /ascii «answer» 12/);
    // a word is matched whole: `12` is not found inside `112`
    assert.equal(snippet('a 112 b 12', '12'), 'a 112 b «12»');
    // nothing found: the start of the text
    assert.equal(snippet('x\n\ny', 'zzz'), 'x y');
  });

  test('snippets mark the query as typed where the text holds it, else every term in the excerpt (trial 4, finding 7)', () => {
    // a run of bigrams that overlap is marked whole, not its first bigram only
    assert.equal(snippet('私はりんごが好き', 'りんご'), '私は«りんご»が好き');
    // a word next to a CJK run: the query as typed (`GPU显存`) is marked whole
    assert.equal(snippet('需要更多的GPU显存才行', 'GPU显存'), '需要更多的«GPU显存»才行');
    // terms apart: each is marked
    assert.equal(snippet('小明有三个苹果', '苹果 小明'), '«小明»有三个«苹果»');
    assert.equal(snippet('the sum of the roots is 5', 'roots sum'), 'the «sum» of the «roots» is 5');
    // the query as typed is preferred to an earlier lone term
    assert.equal(snippet('3 + 4 = 7。小明有7个苹果', '7个'), '3 + 4 = 7。小明有«7个»苹果');
    // a phrase across a line break in the text (white space in the query matches any run of it)
    assert.equal(snippet('sum of\n  roots', 'sum of roots'), '«sum of roots»');
    assert.equal(snippet('Crème brûlée', 'creme BRULEE'), '«Crème brûlée»');
  });

  test("holdsAsTyped: the query's characters in order and next to each other, folded as the index folds them", () => {
    // the index's false matches of trial 4 (the query's terms apart or out of order)
    assert.equal(holdsAsTyped('小明原来有3个苹果，3 + 4 = 7。', '7个'), false);
    assert.equal(holdsAsTyped('小明有7个苹果', '7个'), true);
    assert.equal(holdsAsTyped('小明有17个苹果', '7个'), false); // `7` of a spaced script is a whole word
    assert.equal(holdsAsTyped('方形和长方', '长方形'), false);
    assert.equal(holdsAsTyped('长方形的面积', '长方形'), true);
    assert.equal(holdsAsTyped('roots of the sum', 'sum of roots'), false);
    assert.equal(holdsAsTyped('The SUM\tof  roots', 'sum of roots'), true);
    // normalisation forms and width: NFD Hangul and full-width digits hold the NFC / ASCII query
    assert.equal(holdsAsTyped('넓이는 １２'.normalize('NFD'), '넓이는 12'), true);
    assert.equal(holdsAsTyped('café', 'cafe'), true);
    // nothing searchable is held by nothing
    assert.equal(holdsAsTyped('a -- b', '--'), false);
  });

  test('what the index and the query are given: NFKC, CJK runs as bigrams and characters, never FTS syntax', () => {
    assert.equal(searchText('plain ascii'), 'plain ascii');
    assert.equal(searchText('面积为12'), ' 面 积 为 面积 积为 12');
    assert.equal(searchText('１２ｃｍ'), '12cm');
    assert.deepEqual(searchTerms('长方形的面积'), ['长方', '方形', '形的', '的面', '面积']);
    assert.deepEqual(searchTerms('面'), ['面']);
    assert.deepEqual(searchTerms('x^2+1 答案是12'), ['x', '2', '1', '答案', '案是', '12']);
    assert.equal(ftsQuery('"a" OR NEAR(b)'), '"a" "OR" "NEAR" "b"');
    assert.equal(ftsQuery('  --- !!! '), '""');
    // every text the readers could give tokenizes the same in the index as in a query for it
    for (const t of TEXTS) for (const term of searchTerms(t)) assert.ok(!term.includes(' '), term);
  });

  test("searchText's fast path (no continuous-script block) never skips a character the bigram expression would cut", () => {
    // every code point of a continuous script lies in a block the char-code scan flags
    let matched = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (!CONTINUOUS_CHAR_RE.test(ch)) continue;
      matched++;
      assert.ok(mayHoldContinuousScript(`x ${ch} y`), `U+${cp.toString(16)}`);
    }
    assert.ok(matched > 90000, `${matched} code points matched`); // Han alone has more than 90,000
    // text of math symbols and accented Latin takes the fast path, and is given as NFKC
    assert.equal(mayHoldContinuousScript('−1 ≤ x ≤ 1, café, ² ①'), false);
    assert.equal(searchText('−1 ≤ x ≤ 1, café'), '−1 ≤ x ≤ 1, café');
    assert.equal(searchText('x² ①'), 'x2 1');
    assert.equal(searchText('cafe\u0301'), 'café');
    // the same output as the expression alone, for text with and without continuous-script runs
    // (searchText before the fast path: NFKC, then the expression on the whole text)
    const run = new RegExp(`(?:${CONTINUOUS_CHAR_RE.source}\\p{M}*)+`, 'gu');
    const slow = (t: string) =>
      t.normalize('NFKC').replace(run, (r) => {
        const u = r.match(/\P{M}\p{M}*/gu) ?? [];
        let out = ` ${u.join(' ')}`;
        for (let i = 0; i + 1 < u.length; i++) out += ` ${u[i]}${u[i + 1]}`;
        return `${out} `;
      });
    for (const t of ['≤ 面积为12 ≤', 'ค่า ≤ 3', '정답은 12', '−x² + 面', ...TEXTS])
      assert.equal(searchText(t), slow(t), t);
  });

  test('CLI search: JSON and text output, model and verdict filters, limit', async () => {
    const dir = writeFolder();
    const db = join(dir, 'cli.db');
    const r = runCli(['search', dir, '答案', '--db', db, '--format', 'json', '-q'], dir);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.query, '答案');
    assert.equal(out.total, 2);
    assert.deepEqual(
      out.matches.map((m: { problemId: string; correct: boolean; model: string; sampleIndex: number }) => [
        m.problemId,
        m.correct,
        m.sampleIndex,
      ]),
      [
        ['0', true, 0],
        ['1', false, 0],
      ],
    );
    assert.match(out.matches[0].snippet, /所以«答案»是/);
    assert.deepEqual(Object.keys(out.matches[0]), [
      'problemId',
      'dataset',
      'problem',
      'model',
      'modelLabel',
      'sampleIndex',
      'correct',
      'snippet',
      'asTyped',
    ]);
    // the shape docs/cli.md documents is the real one, at every level
    assertDocumentedShape(out, documentedShape('docs/cli.md', '## `search`'));
    const limited = JSON.parse(
      runCli(['search', dir, '12', '--db', db, '--format', 'json', '-q', '--limit', '2', '--incorrect'], dir).stdout,
    );
    assert.equal(limited.total, 2);
    assert.deepEqual(
      limited.matches.map((m: { problemId: string }) => m.problemId),
      ['3', '7'],
    );
    const text = runCli(['search', dir, '정답', '--db', db, '-q', '--model', 'M'], dir);
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      /#0 {2}incorrect\n {4}«정답»은 12입니다\n1 of 1 matching sample shown\n1 matching sample in 1 problem, of 9 samples searched \(9 problems, 1 model\)\nmodels searched: m@main \(--model "M": equal to its id, name or label\)\n$/,
    );
    const none = runCli(['search', dir, '12', '--db', db, '-q', '--model', 'nope'], dir);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no model matches --model "nope"/);
    const both = runCli(['search', dir, '12', '--db', db, '-q', '--correct', '--incorrect'], dir);
    assert.notEqual(both.status, 0);
  });
});

describe('search for the query as typed (trial 4, finding 7: `7个` matched samples with `7` and `个` apart)', () => {
  test('CLI: --as-typed keeps and counts only the samples holding the query as typed; without it, each match says so', () => {
    const dir = tempDir();
    const texts = [
      '小明原来有3个苹果，又买了4个，3 + 4 = 7。', // `7` and `个` apart: the index matches, not as typed
      '小明有7个苹果', // as typed
      '所以一共7个。', // as typed
      '共17个', // `17`, not the word `7`: the index does not match
    ];
    writeFileSync(
      join(dir, 'runs.jsonl'),
      texts
        .map((text, qid) =>
          JSON.stringify({
            qid,
            question: `q${qid}`,
            gold: '7',
            model_name: 'm',
            rollouts: [{ rollout: 0, text, correct: true }],
          }),
        )
        .join('\n'),
    );
    const db = join(dir, 'cli.db');
    const all = JSON.parse(runCli(['search', dir, '7个', '--db', db, '--format', 'json', '-q'], dir).stdout);
    assert.equal(all.indexMatches, 3);
    assert.equal(all.total, 3);
    assert.equal(all.asTyped, false);
    assert.deepEqual(
      all.matches.map((m: { problemId: string; asTyped: boolean }) => [m.problemId, m.asTyped]),
      [
        ['0', false],
        ['1', true],
        ['2', true],
      ],
    );
    const typed = JSON.parse(
      runCli(['search', dir, '7个', '--db', db, '--format', 'json', '-q', '--as-typed'], dir).stdout,
    );
    assert.equal(typed.indexMatches, 3);
    assert.equal(typed.total, 2);
    assert.deepEqual(
      typed.matches.map((m: { problemId: string; snippet: string }) => [m.problemId, m.snippet]),
      [
        ['1', '小明有«7个»苹果'],
        ['2', '所以一共«7个»。'],
      ],
    );
    const limited = JSON.parse(
      runCli(['search', dir, '7个', '--db', db, '--format', 'json', '-q', '--as-typed', '--limit', '1'], dir).stdout,
    );
    assert.equal(limited.total, 2);
    assert.equal(limited.matches.length, 1);
    const text = runCli(['search', dir, '7个', '--db', db, '-q'], dir);
    assert.match(text.stdout, /#0 {2}correct {2}\(words apart\)\n/);
    assert.match(text.stdout, /\n1 of the 3 shown hold the query's words apart or in another order, not as typed/);
    const textTyped = runCli(['search', dir, '7个', '--db', db, '-q', '--as-typed'], dir);
    assert.match(
      textTyped.stdout,
      /\n2 of 2 samples holding the query as typed shown \(of 3 the full-text index matched/,
    );
    assert.doesNotMatch(textTyped.stdout, /words apart/);
  });
});

describe('search on real folders', () => {
  const QWEN = join(REAL, 'qwen25-math-eval-example');

  /** Samples of the Qwen2.5-Math file as `idx:i`, with their texts (read here, not by our reader). */
  function qwenTexts(): Map<string, string> {
    const out = new Map<string, string>();
    for (const line of readFileSync(join(QWEN, 'math_cot_100.jsonl'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { idx: number; code: string[] };
      for (const [i, t] of r.code.entries()) out.set(`${r.idx}:${i}`, t);
    }
    return out;
  }

  test('Chinese words in real Qwen2.5-Math output and English words find exactly the samples holding them', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, QWEN);
    const texts = qwenTexts();
    const key = (s: { problemId: number; sampleIndex: number }) =>
      `${index.problem(s.problemId)!.problemId}:${s.sampleIndex}`;
    // A Han query matches a sample holding each of its bigrams (the index keeps no positions).
    const han = (q: string) => {
      const chars = [...q];
      const grams = chars.length === 1 ? chars : chars.slice(1).map((c, i) => chars[i] + c);
      return [...texts].filter(([, t]) => grams.every((g) => t.normalize('NFKC').includes(g))).map(([k]) => k);
    };
    // An ASCII word matches a sample holding it as a whole word, in any case.
    const word = (q: string) => {
      const re = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${q}(?![\\p{L}\\p{N}\\p{M}])`, 'iu');
      return [...texts].filter(([, t]) => re.test(t.normalize('NFKC'))).map(([k]) => k);
    };
    const cases: [string, string[]][] = [
      ['平方米', han('平方米')],
      ['关联交易', han('关联交易')],
      ['烯', han('烯')],
      ['therefore', word('therefore')],
      ['boxed', word('boxed')],
    ];
    for (const [q, expected] of cases) {
      assert.ok(expected.length > 0, `${q} occurs in the real folder`);
      const got = index.searchSamples(q, { limit: 10_000 });
      assert.deepEqual(got.samples.map(key).sort(), expected.sort(), q);
      assert.equal(got.total, expected.length, q);
    }
    // the Chinese hits are snippets around the term
    const hit = (await searchSamples(index, '平方米', { limit: 5 })).matches[0];
    assert.match(hit.snippet, /«平方米»/);
    index.close();
  });

  test('CLI search on the real rlvr-probe-gsm8k run counts what a scan of the raw rollouts counts', () => {
    const run = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');
    const tmp = tempDir();
    let expected = 0;
    let expectedCorrect = 0;
    for (const f of ['rl_raw.jsonl', 'sft_raw.jsonl']) {
      for (const line of readFileSync(join(run, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        for (const r of (JSON.parse(line) as { rollouts: { text: string; correct: boolean }[] }).rollouts) {
          if (/(?<![\p{L}\p{N}])dollars(?![\p{L}\p{N}])/iu.test(r.text)) {
            expected++;
            if (r.correct) expectedCorrect++;
          }
        }
      }
    }
    assert.ok(expected > 0);
    const r = runCli(['search', run, 'Dollars', '--db', join(tmp, 'i.db'), '--format', 'json', '-q'], tmp);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.total, expected);
    assert.equal(out.matches.length, Math.min(20, expected));
    for (const m of out.matches) assert.match(m.snippet, /«dollars»/i);
    const c = JSON.parse(
      runCli(['search', run, 'dollars', '--db', join(tmp, 'i.db'), '--format', 'json', '-q', '--correct'], tmp).stdout,
    );
    assert.equal(c.total, expectedCorrect);
  });
});
