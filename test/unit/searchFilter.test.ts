import { SCHEMA_VERSION } from '../../src/core/index/schema';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_NAME, generate } from '../../bench/gen';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { PART_WITNESSES } from '../../src/core/index/searchIndex';
import { readSampleText } from '../../src/core/index/sampleText';
import { TraceIndex, ftsQuery } from '../../src/core/index/traceIndex';
import { REAL, tempDir } from './helpers';

/**
 * The tree's search filter maps full-text matches to problems along `sample_runs` (schema migration
 * 12) instead of looking up each matching sample. These tests hold it to the set the join through
 * `samples` gives (the query the filter used before, computed here on its own).
 */

/** Problem row ids with a sample matching `query`: the join through `samples`, one lookup per match. */
function byJoin(index: TraceIndex, query: string): number[] {
  return (
    index.db
      .prepare(
        'SELECT DISTINCT s.problem_id FROM samples_fts f JOIN samples s ON s.id = f.rowid WHERE samples_fts MATCH ?',
      )
      .pluck()
      .all(ftsQuery(query)) as number[]
  ).sort((a, b) => a - b);
}

/** Problem row ids the tree's filter lists (every page). */
function byFilter(index: TraceIndex, query: string): number[] {
  return index
    .listProblems({ kind: 'search', query }, 0, 1_000_000)
    .map((p) => p.id)
    .sort((a, b) => a - b);
}

/** The runs cover the samples exactly (so the filter walks them rather than falling back to the join). */
function runsCoverSamples(index: TraceIndex): boolean {
  const covered = index.db.prepare('SELECT sum(last_id - first_id + 1) FROM sample_runs').pluck().get() ?? 0;
  return covered === index.db.prepare('SELECT count(*) FROM samples').pluck().get();
}

/** Every sample's problem is the problem of the run holding its id, and every run id is a sample of it. */
function assertRunsExact(index: TraceIndex): void {
  const wrong = index.db
    .prepare(
      `SELECT count(*) FROM samples s
        WHERE NOT EXISTS (SELECT 1 FROM sample_runs r
                           WHERE s.id BETWEEN r.first_id AND r.last_id AND r.problem_id = s.problem_id AND r.file_id = s.file_id)`,
    )
    .pluck()
    .get();
  assert.equal(wrong, 0, 'every sample in a run of its file and problem');
  assert.ok(runsCoverSamples(index), 'the runs hold no id that is not a sample');
}

/** Words of sample texts (first, middle and last word, and a pair of words, of each), plus fixed queries. */
function queriesOf(fromTexts: string[]): string[] {
  const qs = new Set<string>([
    'the',
    'answer',
    '12',
    'boxed',
    '答案',
    '정답'.normalize('NFD'),
    'café'.normalize('NFD'),
  ]);
  for (const t of fromTexts) {
    const words = t.split(/\s+/).filter((w) => /\p{L}{3,}/u.test(w));
    for (const w of [words[0], words[Math.floor(words.length / 2)], words[words.length - 1]]) if (w) qs.add(w);
    if (words.length > 3) qs.add(`${words[1]} ${words[2]}`);
  }
  return [...qs];
}

/** A folder of one-sample records (flat human-eval format) whose problems interleave, in two files of two models. */
function interleavedFolder(): string {
  const dir = tempDir();
  const texts = [
    'the sum of roots is 12',
    '答案是12，面积为12平方米',
    '삼각형의 넓이'.normalize('NFD'),
    'crème brûlée'.normalize('NFD'),
    'no match here at all',
  ];
  for (const model of ['a', 'b']) {
    // problem order 0 1 0 0 2 1 1 3 4 0 ...: runs of one, two and three records of a problem
    const order = [0, 1, 0, 0, 2, 1, 1, 3, 4, 0, 2, 2, 2, 4, 3];
    const lines = order.map((p, i) =>
      JSON.stringify({
        task_id: `T/${p}`,
        completion: `${texts[(p + i + (model === 'b' ? 1 : 0)) % texts.length]} #${i}`,
        passed: i % 2 === 0,
      }),
    );
    writeFileSync(join(dir, `${model}.jsonl_results.jsonl`), `${lines.join('\n')}\n`);
  }
  return dir;
}

const INTERLEAVED_QUERIES = [
  '12',
  'sum roots',
  '答案',
  '面积',
  '넓이',
  '넓이'.normalize('NFD'),
  'creme',
  'CRÈME',
  'match',
  'zzz',
];

describe("the tree's search filter (sample_runs)", () => {
  const folders = readdirSync(REAL).filter((f) => statSync(join(REAL, f)).isDirectory());
  for (const folder of folders) {
    test(`real folder ${folder}: the same problems as the join through samples, for words of its own texts`, async () => {
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, join(REAL, folder));
      assertRunsExact(index);
      const ids = index.db.prepare('SELECT id FROM samples ORDER BY id').pluck().all() as number[];
      const sampleTexts: string[] = [];
      for (const [i, id] of ids.entries()) if (i % 7 === 0) sampleTexts.push((await readSampleText(index, id)) ?? '');
      let nonEmpty = 0;
      for (const q of queriesOf(sampleTexts)) {
        const expected = byJoin(index, q);
        assert.deepEqual(byFilter(index, q), expected, `query ${JSON.stringify(q)}`);
        assert.equal(index.countProblems({ kind: 'search', query: q }), expected.length);
        if (expected.length > 0) nonEmpty++;
      }
      if (ids.length > 0) assert.ok(nonEmpty > 0, 'some queries match');
      index.close();
    });
  }

  test('interleaved one-sample records, CJK and NFD queries: the same problems; runs follow re-indexing and removal', async () => {
    const dir = interleavedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    assertRunsExact(index);
    // problem order 0 1 0 0 2 1 1 3 4 0 2 2 2 4 3 in each of 2 files: 11 runs per file
    assert.equal(index.db.prepare('SELECT count(*) FROM sample_runs').pluck().get(), 22);
    const check = () => {
      for (const q of INTERLEAVED_QUERIES)
        assert.deepEqual(byFilter(index, q), byJoin(index, q), `query ${JSON.stringify(q)}`);
    };
    check();
    // by hand: '面积' is in text 1 only; problem p of model a has text (p + i) % 5 at position i
    const key = (ids: number[]) => ids.map((id) => index.problem(id)!.problemId).sort();
    // (p + i + 1) % 5 for model b: text 1 at T/2 and T/1 (a, positions 4 and 5), T/0 and T/3 (b, positions 0 and 7)
    assert.deepEqual(key(byFilter(index, '面积')), ['T/0', 'T/1', 'T/2', 'T/3']);
    assert.deepEqual(key(byFilter(index, 'zzz')), []);
    // a file rewritten: its runs are replaced with its samples
    writeFileSync(
      join(dir, 'a.jsonl_results.jsonl'),
      `${[3, 3, 1, 3]
        .map((p, i) => JSON.stringify({ task_id: `T/${p}`, completion: `只有这个 ${i}`, passed: true }))
        .join('\n')}\n`,
    );
    await indexFolder(index, dir);
    assertRunsExact(index);
    check();
    assert.deepEqual(key(byFilter(index, '只有这个')), ['T/1', 'T/3']);
    // a file removed: its runs go with its samples
    rmSync(join(dir, 'b.jsonl_results.jsonl'));
    await indexFolder(index, dir);
    assertRunsExact(index);
    assert.equal(index.db.prepare('SELECT count(*) FROM sample_runs').pluck().get(), 3);
    check();
    assert.deepEqual(key(byFilter(index, '12')), []);
    index.close();
  });

  test('runs that do not cover the samples exactly: the filter still lists the same problems (join through samples)', async () => {
    const dir = interleavedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    const expected = new Map(INTERLEAVED_QUERIES.map((q) => [q, byJoin(index, q)]));
    // a run missing
    index.db.exec('DELETE FROM sample_runs WHERE first_id = (SELECT max(first_id) FROM sample_runs)');
    assert.ok(!runsCoverSamples(index));
    for (const q of INTERLEAVED_QUERIES) assert.deepEqual(byFilter(index, q), expected.get(q), q);
    // a run of the wrong problem would give a wrong set: the count cannot see that, so it is never written
    // (the indexer writes a run with its samples); a run beyond the samples
    index.db.exec(
      'INSERT INTO sample_runs (first_id, last_id, problem_id, file_id) SELECT max(id) + 1, max(id) + 99, 1, 1 FROM samples',
    );
    for (const q of INTERLEAVED_QUERIES) assert.deepEqual(byFilter(index, q), expected.get(q), q);
    index.close();
  });

  test('runs that cover the samples are what the filter goes by (a run given another problem moves the match)', async () => {
    const dir = interleavedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    const t4 = index.listProblems().find((p) => p.problemId === 'T/4')!.id;
    const t0 = index.listProblems().find((p) => p.problemId === 'T/0')!.id;
    // 'crème' is text 3: T/0 has it (model a at position 3: (0 + 3) % 5 = 3; model b at position 2: (0 + 2 + 1) % 5 = 3)
    const before = byFilter(index, 'creme');
    assert.deepEqual(before, byJoin(index, 'creme'));
    assert.ok(before.includes(t0));
    // every run of T/0 said to be of T/4: the filter (walking the runs) no longer lists T/0, the join still does
    index.db.prepare('UPDATE sample_runs SET problem_id = ? WHERE problem_id = ?').run(t4, t0);
    assert.ok(!byFilter(index, 'creme').includes(t0));
    assert.ok(byJoin(index, 'creme').includes(t0));
    index.close();
  });

  test('migration 12 fills the runs of an index of schema 11 as the indexer writes them', async () => {
    const dir = interleavedFolder();
    const db = join(dir, 'index.db');
    let index = TraceIndex.open(db);
    await indexFolder(index, dir);
    const written = index.db.prepare('SELECT * FROM sample_runs ORDER BY first_id').all();
    index.db.exec('DROP TABLE sample_runs');
    index.db.pragma('user_version = 11');
    index.close();
    index = TraceIndex.open(db);
    assert.deepEqual(index.db.prepare('SELECT * FROM sample_runs ORDER BY first_id').all(), written);
    assertRunsExact(index);
    for (const q of INTERLEAVED_QUERIES) assert.deepEqual(byFilter(index, q), byJoin(index, q), q);
    index.close();
  });
});

/** Row ids of the witnesses (`witness_fts`, schema migration 13) holding every word of `query`. */
function witnessRows(index: TraceIndex, query: string): number[] {
  return index.db
    .prepare('SELECT rowid FROM witness_fts WHERE witness_fts MATCH ?')
    .pluck()
    .all(ftsQuery(query)) as number[];
}

/**
 * A folder of per-problem records (Qwen2.5-Math layout) of 2 models x 6 problems x 40 samples whose
 * words have known places: `common` in every sample, `often` in every other, `pairA` and `pairB`
 * together only in sample 30 of problem 2 (past the witnesses) and apart in others, `witnessed` with
 * `common` in sample 3 of problem 4, CJK and NFD words in problem 5, `only<p>` in problem p.
 */
function placedFolder(): string {
  const dir = tempDir();
  for (const model of ['Base-7B', 'Base-7B-RL']) {
    const d = join(dir, model, 'math_eval', 'math500');
    mkdirSync(d, { recursive: true });
    const lines: string[] = [];
    for (let p = 0; p < 6; p++) {
      const code: string[] = [];
      for (let i = 0; i < 40; i++) {
        const w = ['Common ground,', `step ${i}.`];
        if (i % 2 === 0) w.push('often');
        if (p === 2 && i === 30 && model === 'Base-7B-RL') w.push('pairA and pairB together');
        if (p === 2 && i === 31) w.push('pairA alone');
        if (p === 3 && i === 5) w.push('pairB alone');
        if (p === 3 && i === 6) w.push('pairA alone');
        if (p === 4 && i === 3) w.push('witnessed here');
        if (p === 5 && i === 35)
          w.push('答案是12，面积为12平方米', '삼각형의 넓이'.normalize('NFD'), 'crème brûlée'.normalize('NFD'));
        w.push(`only${p}`);
        code.push(w.join(' '));
      }
      lines.push(
        JSON.stringify({
          idx: p,
          question: `Problem ${p}?`,
          gt: '1',
          code,
          pred: code.map(() => '1'),
          score: code.map((_, i) => i % 3 === 0),
        }),
      );
    }
    writeFileSync(join(d, FILE_NAME), `${lines.join('\n')}\n`);
  }
  return dir;
}

const PLACED_QUERIES = [
  'common',
  'COMMON ground',
  'often',
  'often common',
  'pairA pairB',
  'pairA',
  'pairB common',
  'witnessed common',
  'witnessed pairA',
  'only0',
  'only5 common',
  'only1 only2',
  '"common ground"',
  'pairA OR pairB',
  'pairA NOT pairB',
  'common -often',
  '面积',
  '答案 面积',
  '面积为12',
  '넓이',
  '넓이'.normalize('NFD'),
  'creme',
  'CRÈME brûlée',
  'absent',
  'x^2+1',
  '',
];

describe("the tree's search filter (witnesses, schema migration 13)", () => {
  test('a generated folder (bench/gen.ts): the same problems as the join through samples, for single words, AND, quoted phrases and operators typed as words', async () => {
    const dir = tempDir();
    generate(
      { problems: 12, samples: 48, models: 2, meanChars: 300, seed: 3 },
      join(dir, 'results'),
      join(dir, 'manifest.json'),
    );
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, join(dir, 'results'));
    // one part per run (one per-problem record each), each with its first PART_WITNESSES samples as witnesses
    const runs = index.db.prepare('SELECT first_id, last_id FROM sample_runs ORDER BY first_id').all();
    assert.equal(runs.length, 24);
    assert.deepEqual(index.db.prepare('SELECT first_id, last_id FROM search_parts ORDER BY first_id').all(), runs);
    assert.deepEqual(index.db.prepare('SELECT DISTINCT witnesses FROM search_parts').pluck().all(), [
      Math.min(PART_WITNESSES, 48),
    ]);
    const ids = index.db.prepare('SELECT id FROM samples ORDER BY id').pluck().all() as number[];
    const texts: string[] = [];
    for (const [i, id] of ids.entries()) if (i % 11 === 0) texts.push((await readSampleText(index, id)) ?? '');
    const queries = [
      ...queriesOf(texts),
      'sum of roots',
      'Pythagorean theorem',
      'discriminant',
      'Marcus marbles',
      '194',
      '"sum of roots"',
      'sum OR roots',
      'sum NOT roots',
      'NEAR(sum roots)',
    ];
    let partial = 0;
    for (const q of queries) {
      const expected = byJoin(index, q);
      assert.deepEqual(byFilter(index, q), expected, `query ${JSON.stringify(q)}`);
      if (expected.length > 0 && expected.length < 12) partial++;
    }
    assert.ok(partial > 0, 'some queries match some problems and not others');
    index.close();
  });

  test('placed words: words a witness holds answered from the witnesses alone, the other problems looked for in samples_fts, CJK and NFD', async () => {
    const dir = placedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    const key = (ids: number[]) => ids.map((id) => index.problem(id)!.problemId).sort();
    for (const q of PLACED_QUERIES)
      assert.deepEqual(byFilter(index, q), byJoin(index, q), `query ${JSON.stringify(q)}`);
    // by hand
    assert.deepEqual(key(byFilter(index, 'pairA pairB')), ['2']);
    assert.deepEqual(key(byFilter(index, 'pairA')), ['2', '3']);
    assert.deepEqual(key(byFilter(index, 'only1 only2')), []);
    assert.deepEqual(key(byFilter(index, '面积为12')), ['5']);
    assert.deepEqual(key(byFilter(index, '넓이'.normalize('NFD'))), ['5']);
    // the witnesses: the first PART_WITNESSES samples of each of the 12 parts (one per record)
    assert.equal(witnessRows(index, 'common').length, 12 * PART_WITNESSES);
    assert.equal(witnessRows(index, 'witnessed common').length, 2);
    assert.deepEqual(witnessRows(index, 'pairA pairB'), []);
    // with samples_fts emptied, what the witnesses hold is still listed, and what only a later sample
    // holds (pairA and pairB together in sample 30, 面积 in sample 35) is not: the filter asked
    // samples_fts only about the problems no witness proved
    index.db.exec('DELETE FROM samples_fts');
    assert.deepEqual(key(byFilter(index, 'common')), ['0', '1', '2', '3', '4', '5']);
    assert.deepEqual(key(byFilter(index, 'only4')), ['4']);
    assert.deepEqual(key(byFilter(index, 'often common')), ['0', '1', '2', '3', '4', '5']);
    assert.deepEqual(key(byFilter(index, 'witnessed common')), ['4']);
    assert.deepEqual(key(byFilter(index, '面积')), []);
    assert.deepEqual(key(byFilter(index, 'pairA pairB')), []);
    index.close();
  });

  test('a file replaced, then removed: its parts and witnesses leave the witness index (contentless delete)', async () => {
    const dir = placedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    const rl = join(dir, 'Base-7B-RL', 'math_eval', 'math500', FILE_NAME);
    const line = (p: number, words: string) =>
      JSON.stringify({
        idx: p,
        question: `Problem ${p}?`,
        gt: '1',
        code: [words, `${words} again`],
        pred: ['1', '1'],
        score: [true, false],
      });
    writeFileSync(rl, `${[line(1, 'replaced pairA pairB'), line(4, 'replaced text')].join('\n')}\n`);
    await indexFolder(index, dir);
    const key = (ids: number[]) => ids.map((id) => index.problem(id)!.problemId).sort();
    for (const q of [...PLACED_QUERIES, 'replaced', 'replaced pairA'])
      assert.deepEqual(byFilter(index, q), byJoin(index, q), `query ${JSON.stringify(q)}`);
    // pairA and pairB were together in the replaced file's problem 2 only; now in its problem 1
    assert.deepEqual(key(byFilter(index, 'pairA pairB')), ['1']);
    assert.deepEqual(key(byFilter(index, 'replaced')), ['1', '4']);
    // the old file's witnesses are gone: 6 parts of the other file, 2 of the new one, and their witnesses
    assert.equal(witnessRows(index, 'only2').length, PART_WITNESSES);
    assert.equal(witnessRows(index, 'replaced').length, 4);
    assert.equal(index.db.prepare('SELECT count(*) FROM search_parts').pluck().get(), 8);
    rmSync(rl);
    await indexFolder(index, dir);
    for (const q of [...PLACED_QUERIES, 'replaced'])
      assert.deepEqual(byFilter(index, q), byJoin(index, q), `query ${JSON.stringify(q)}`);
    assert.deepEqual(witnessRows(index, 'replaced'), []);
    assert.equal(witnessRows(index, 'only2').length, PART_WITNESSES);
    assert.deepEqual(key(byFilter(index, 'pairA pairB')), []);
    assert.equal(index.db.prepare('SELECT count(*) FROM search_parts').pluck().get(), 6);
    index.close();
  });

  test('runs whose lengths add up but that miss a sample: a match outside every run found in the walk still gives the problems of the join', async () => {
    const dir = placedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    const key = (ids: number[]) => ids.map((id) => index.problem(id)!.problemId).sort();
    // the run holding sample 30 of problem 2 (Base-7B-RL), the only one with pairA and pairB together (no witness),
    // moved past the samples: the lengths still add up to the number of samples
    const id30 = index.db
      .prepare(
        `SELECT s.id FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
          WHERE p.problem_id = '2' AND m.name = 'Base-7B-RL' AND s.sample_index = 30`,
      )
      .pluck()
      .get() as number;
    index.db
      .prepare(
        'UPDATE sample_runs SET first_id = first_id + 100000, last_id = last_id + 100000 WHERE ? BETWEEN first_id AND last_id',
      )
      .run(id30);
    assert.ok(runsCoverSamples(index));
    assert.deepEqual(witnessRows(index, 'pairA pairB'), []);
    assert.deepEqual(key(byFilter(index, 'pairA pairB')), ['2']);
    index.close();
  });

  test('batches committed inside a run (one-sample records): every sample is in a part, the same problems', async () => {
    const dir = interleavedFolder();
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir, { batchSize: 2 });
    const covered = index.db.prepare('SELECT sum(last_id - first_id + 1) FROM search_parts').pluck().get();
    assert.equal(covered, index.db.prepare('SELECT count(*) FROM samples').pluck().get());
    for (const q of INTERLEAVED_QUERIES)
      assert.deepEqual(byFilter(index, q), byJoin(index, q), `query ${JSON.stringify(q)}`);
    index.close();
  });

  test('migration 13 from an index of schema 12: annotations kept, the same problems before the files are read again (samples_fts) and after (witnesses)', async () => {
    const dir = placedFolder();
    const db = join(dir, 'index.db');
    let index = TraceIndex.open(db);
    await indexFolder(index, dir);
    const expected = new Map(PLACED_QUERIES.map((q) => [q, byJoin(index, q)]));
    const first = index.db
      .prepare(
        `SELECT s.id FROM samples s JOIN problems p ON p.id = s.problem_id WHERE p.problem_id = '2' ORDER BY s.id LIMIT 1`,
      )
      .pluck()
      .get() as number;
    let store = new AnnotationStore(index);
    store.set(store.refOf(first)!, ['checked'], 'kept over migration 13');
    // schema 12: no witnesses
    index.db.exec('DROP TABLE witness_fts; DROP TABLE search_parts');
    index.db.pragma('user_version = 12');
    index.close();
    index = TraceIndex.open(db);
    // migrated to the last schema
    assert.equal(index.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(index.db.prepare('SELECT count(*) FROM search_parts').pluck().get(), 0);
    // no witness yet: every problem is looked for in samples_fts, the same problems
    for (const q of PLACED_QUERIES) assert.deepEqual(byFilter(index, q), expected.get(q), `query ${JSON.stringify(q)}`);
    // the files are read again by the next pass, which writes the parts and their witnesses
    assert.deepEqual(index.db.prepare('SELECT DISTINCT status FROM files').pluck().all(), ['partial']);
    const pass = await indexFolder(index, dir);
    assert.equal(pass.filesIndexed, 2);
    assert.equal(index.db.prepare('SELECT count(*) FROM search_parts').pluck().get(), 12);
    for (const q of PLACED_QUERIES) {
      const now = byJoin(index, q);
      assert.deepEqual(byFilter(index, q), now, `query ${JSON.stringify(q)}`);
      // sample ids changed with the new pass; the problems did not
      assert.deepEqual(now, expected.get(q), `query ${JSON.stringify(q)}`);
    }
    store = new AnnotationStore(index);
    const again = index.db
      .prepare(
        `SELECT s.id FROM samples s JOIN problems p ON p.id = s.problem_id WHERE p.problem_id = '2' ORDER BY s.id LIMIT 1`,
      )
      .pluck()
      .get() as number;
    const a = store.get(store.refOf(again)!)!;
    assert.deepEqual([a.labels, a.note], [['checked'], 'kept over migration 13']);
    index.close();
  });
});
