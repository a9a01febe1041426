/**
 * `trace-inspector search`: what was not indexed, what the counts are over, --model, empty queries, snippets cut
 * between grapheme clusters.
 *
 * Trial 14 findings 4, 5, 7, 8 and 10: `trace-inspector search` says what it covers. A folder of two models whose
 * names are a prefix of each other (`Qwen2.5-Math-7B`, `Qwen2.5-Math-7B-GRPO`), the RL model's problem 4 record
 * broken (line 5); every count below is worked out by hand from the texts written here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { graphemeEnd, graphemeStart, snippet } from '../../src/core/index/search';
import { jsonErrorMessage } from '../../src/core/readers/util';
import { EmptyQueryError, searchSamples } from '../../src/cli/main';
import { tempDir, writeFolder } from './helpers';
import { runCli } from './reliability.support';

const BASE = 'Qwen2.5-Math-7B';
const RL = 'Qwen2.5-Math-7B-GRPO';
const RL_FILE = `${RL}/math500_rollouts.jsonl`;

/**
 * Base: problems 0-4, two samples each; `café` in sample 0 (correct) of each: 5 matches in 5 problems.
 * RL: problems 0-4, two samples each, line 5 (problem 4) broken JSON, so 8 samples in 4 problems indexed;
 * `café` in both samples of problems 0 and 1 (sample 0 correct, sample 1 incorrect): 4 matches in 2 problems.
 */
function folder(): string {
  const line = (model: string, qid: number, texts: [string, string]) =>
    JSON.stringify({
      qid: String(qid),
      question: `q${qid}`,
      gold: '12',
      model_name: model,
      rollouts: [
        { rollout: 0, text: texts[0], correct: true },
        { rollout: 1, text: texts[1], correct: false },
      ],
    });
  const base = [0, 1, 2, 3, 4].map((q) => line(BASE, q, [`the café answer ${q}`, `nothing here ${q}`]));
  const rl = [0, 1, 2, 3].map((q) =>
    line(RL, q, q < 2 ? [`café first ${q}`, `café second ${q}`] : [`plain ${q}`, `plain again ${q}`]),
  );
  // line 5: `{"qid": "4"` then a space and a quote where a comma belongs (position 12, column 13)
  rl.push('{"qid": "4" "question": "q4", "model_name": "x", "rollouts": []}');
  return writeFolder({
    [`${BASE}/math500_rollouts.jsonl`]: `${base.join('\n')}\n`,
    [RL_FILE]: `${rl.join('\n')}\n`,
  });
}

// Trial 14 finding 4.
describe('what was not indexed is said by search; the JSON error names the file line and column', () => {
  test("the broken line's message gives line 5, column 13 (was `(line 1 column 13)` next to line 5)", async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, folder());
    const errors = index.diagnostics().filter((d) => d.severity === 'error');
    assert.deepEqual(
      errors.map((d) => [d.file, d.line, d.message]),
      [[RL_FILE, 5, `malformed JSON (Expected ',' or '}' after property value in JSON at line 5, column 13)`]],
    );
    index.close();
  });

  test('jsonErrorMessage: a position in a text of several lines is its line and column there; without a position, as it was', () => {
    const parse = (t: string) => {
      try {
        JSON.parse(t);
      } catch (e) {
        return e;
      }
      throw new Error('parsed');
    };
    // position 7 of `{\n "a" 1}`: line 2 of the text, column 6; the text starts at the file's line 10
    assert.equal(
      jsonErrorMessage(parse('{\n "a" 1}'), { text: '{\n "a" 1}', line: 10 }),
      `malformed JSON (Expected ':' after property name in JSON at line 11, column 6)`,
    );
    assert.equal(
      jsonErrorMessage(parse('{"a":'), { text: '{"a":', line: 3 }),
      'malformed JSON (Unexpected end of JSON input)',
    );
  });

  test('searchIndex: the error and the per-model warning, for the model it concerns; the CLI says them on stderr and in the JSON', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const rl = await searchSamples(index, 'cafe', { model: 'GRPO', limit: 20 });
    assert.deepEqual(
      rl.diagnostics.map((d) => [d.file, d.line]),
      [[RL_FILE, 5]],
    );
    assert.equal(rl.warnings.length, 1);
    assert.match(
      rl.warnings[0],
      new RegExp(
        `^${RL.replace(/\./g, '\\.')}: 1 record could not be read \\(${RL_FILE.replace(/\./g, '\\.')}:5\\): left out of every figure`,
      ),
    );
    // the base model's records were all read: no warning of its own, the folder's error still listed
    const base = await searchSamples(index, 'cafe', { model: BASE, limit: 20 });
    assert.deepEqual(base.warnings, []);
    assert.equal(base.diagnostics.length, 1);
    index.close();

    const tmp = tempDir();
    const db = join(tmp, 'i.db');
    const text = runCli(['search', dir, 'cafe', '--db', db, '-q', '--model', 'GRPO'], tmp);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stderr, /warning: Qwen2\.5-Math-7B-GRPO: 1 record could not be read/);
    assert.match(text.stderr, /math500_rollouts\.jsonl:5: error: malformed JSON \(.* at line 5, column 13\)/);
    const json = JSON.parse(runCli(['search', dir, 'cafe', '--db', db, '-q', '--format', 'json'], tmp).stdout);
    assert.deepEqual(
      json.diagnostics.map((d: { file: string; line: number; severity: string }) => [d.file, d.line, d.severity]),
      [[RL_FILE, 5, 'error']],
    );
    assert.equal(json.warnings.length, 1);
  });
});

// Trial 14 findings 10 and 5.
describe('the counts say over what; --model picks an exact name alone', () => {
  test('searchIndex: matching problems, samples and problems searched, models searched, filters', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, folder());
    const all = await searchSamples(index, 'cafe', { limit: 20 });
    assert.equal(all.total, 9);
    assert.equal(all.problems, 5);
    assert.deepEqual(
      { ...all.searched, models: all.searched.models.map((m) => m.modelLabel) },
      { models: [BASE, RL], samples: 18, problems: 5, filters: { model: null, modelMatch: null, verdict: null } },
    );
    // exact: the base alone (was: both, the base's name being a prefix of the RL model's)
    const base = await searchSamples(index, 'cafe', { model: BASE.toLowerCase(), limit: 20 });
    assert.deepEqual(
      base.searched.models.map((m) => m.modelLabel),
      [BASE],
    );
    assert.equal(base.searched.filters.modelMatch, 'exact');
    assert.deepEqual([base.total, base.problems, base.searched.samples, base.searched.problems], [5, 5, 10, 5]);
    assert.ok(base.matches.every((m) => m.modelLabel === BASE));
    // no exact name: the substring rule, both models
    const sub = await searchSamples(index, 'cafe', { model: 'math-7b', limit: 20 });
    assert.deepEqual(
      sub.searched.models.map((m) => m.modelLabel),
      [BASE, RL],
    );
    assert.equal(sub.searched.filters.modelMatch, 'substring');
    assert.equal(sub.total, 9);
    // the RL model: 4 matches in 2 problems, of its 8 indexed samples in 4 problems
    const rl = await searchSamples(index, 'cafe', { model: 'grpo', limit: 20 });
    assert.deepEqual([rl.total, rl.problems, rl.searched.samples, rl.searched.problems], [4, 2, 8, 4]);
    // verdicts: correct samples are 5 (base) + 4 (RL); 5 + 2 of them match, in 5 problems
    const correct = await searchSamples(index, 'cafe', { correct: true, limit: 20 });
    assert.deepEqual(
      [correct.total, correct.problems, correct.searched.samples, correct.searched.problems],
      [7, 5, 9, 5],
    );
    assert.equal(correct.searched.filters.verdict, 'correct');
    const wrong = await searchSamples(index, 'cafe', { correct: false, model: 'GRPO', limit: 20 });
    assert.deepEqual([wrong.total, wrong.problems, wrong.searched.samples, wrong.searched.problems], [2, 2, 4, 4]);
    index.close();
  });

  test('CLI: the footer names the denominators and models searched; the JSON keeps its fields and adds them; [done] of an unchanged folder', () => {
    const dir = folder();
    const tmp = tempDir();
    const db = join(tmp, 'i.db');
    const first = runCli(['search', dir, 'cafe', '--db', db, '--model', BASE, '--correct', '--limit', '2'], tmp);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, /\[done\] 2 files read, 0 unchanged; 18 samples written, 18 samples in the index\n/);
    assert.match(
      first.stdout,
      /\n2 of 5 matching samples shown\n5 matching samples in 5 problems, of 5 correct samples searched \(5 problems, 1 model\)\nmodels searched: Qwen2\.5-Math-7B \(--model "Qwen2\.5-Math-7B": equal to its id, name or label; --correct\)\n$/,
    );
    // the second pass finds nothing changed: said so, not "0 samples" (was `[done] 2/2 files, 0 samples`)
    const second = runCli(['search', dir, 'cafe', '--db', db, '--format', 'json'], tmp);
    assert.match(second.stderr, /\[done\] 0 files read, 2 unchanged; 0 samples written, 18 samples in the index\n/);
    assert.doesNotMatch(second.stderr, /\[done\] 2\/2 files, 0 samples/);
    const json = JSON.parse(second.stdout);
    for (const k of ['query', 'asTyped', 'indexMatches', 'total', 'matches']) assert.ok(k in json, k);
    assert.equal(json.problems, 5);
    assert.deepEqual(json.searched.models, [
      { model: json.searched.models[0].model, modelLabel: BASE },
      { model: json.searched.models[1].model, modelLabel: RL },
    ]);
    assert.equal(json.searched.samples, 18);
    assert.equal(json.searched.problems, 5);
  });
});

// Trial 14 finding 7.
describe('a query with no words is a usage error', () => {
  test("'', '+' and '*' exit with status 2 and say why, before indexing; `OR` is a word", async () => {
    const dir = folder();
    const tmp = tempDir();
    const db = join(tmp, 'i.db');
    for (const q of ['', '+', '*', ' . ']) {
      const r = runCli(['search', dir, q, '--db', db], tmp);
      assert.equal(r.status, 2, q);
      assert.equal(r.stdout, '', q);
      assert.match(
        r.stderr,
        /nothing to search for: the query .* has no words \(punctuation and symbols are not indexed\)/,
        q,
      );
      assert.doesNotMatch(r.stderr, /\[done\]/, q);
    }
    const or = runCli(['search', dir, 'OR', '--db', db, '-q'], tmp);
    assert.equal(or.status, 0, or.stderr);
    assert.match(or.stdout, /^0 of 0 matching samples shown\n0 matching samples in 0 problems, of 18 samples searched/);
    const index = TraceIndex.open(db);
    await assert.rejects(searchSamples(index, '*', { limit: 20 }), EmptyQueryError);
    index.close();
  });
});

// Trial 14 finding 8.
describe('snippets are cut between grapheme clusters, and a text that fits is not cut', () => {
  /** The excerpt without its `…` and marks must be a stretch of the text (whitespace collapsed) cut at cluster boundaries. */
  function assertWholeClusters(text: string, query: string) {
    const flat = text.replace(/\s+/g, ' ');
    const s = snippet(text, query, 40);
    const body = s.replace(/^…/, '').replace(/…$/, '').replace(/[«»]/g, '');
    const at = flat.indexOf(body);
    assert.ok(at >= 0, `${JSON.stringify(s)} is in the text`);
    assert.equal(graphemeStart(flat, at), at, `starts at a cluster: ${JSON.stringify(s)}`);
    assert.equal(graphemeEnd(flat, at + body.length), at + body.length, `ends at a cluster: ${JSON.stringify(s)}`);
  }

  test('NFD German, NFD Korean and Devanagari, the match at every offset: no cut splits a letter from its marks', () => {
    const german = 'Wir prüfen die Lösung und die Größe der Fläche genau. '.normalize('NFD');
    const korean = '한국어 설명: 정답은 다섯입니다 그리고 '.normalize('NFD');
    const hindi = 'हम उत्तर की जाँच करते हैं। मुख्यशब्द यहाँ है और ';
    for (let pad = 0; pad < 30; pad++) {
      const x = 'x '.repeat(pad);
      assertWholeClusters(`${x}${german}${german}Größe ${german}`.normalize('NFD'), 'Größe');
      assertWholeClusters(`${x}${korean}${korean}설명 ${korean}`, '설명');
      assertWholeClusters(`${x}${hindi}${hindi}उत्तर ${hindi}`, 'उत्तर');
    }
  });

  test("the trial's case: `Lö` in NFD is never shown as `Lo`", () => {
    // `…Wir prüfen die Lo…` was shown: the cut fell between `o` and U+0308
    const text = `${'Größe '.repeat(3)}${'a'.repeat(60)} Wir prüfen die Lösung`.normalize('NFD');
    for (let w = 20; w < 120; w++)
      assert.doesNotMatch(snippet(text, 'Größe', w).normalize('NFC'), /Lo(…|$)/, `width ${w}`);
  });

  test('a 55-character NFD sample is shown whole (was cut to `…ösung für naïve Schüler im «Café»…`)', () => {
    const text = 'Die Lösung für naïve Schüler im Café ist klar: 5 Äpfel.'.normalize('NFD');
    assert.equal([...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].length, 55);
    assert.equal(snippet(text, 'cafe').normalize('NFC'), 'Die Lösung für naïve Schüler im «Café» ist klar: 5 Äpfel.');
  });
});
