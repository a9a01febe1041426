/**
 * TRL's completions files (`<run>/completions/completions_<step>.parquet`, src/core/readers/trl.ts): a TRL-shaped
 * folder written here with hyparquet-writer (columns step, prompt, completion, accuracy_reward, format_reward,
 * advantage; two steps, three prompts, four generations each) indexes as a training series by step: one model
 * per step (the earliest the base of the others, as for any run without a separate base), problems keyed by the prompt's hash and equal across steps, verdicts from accuracy_reward, each reward
 * column a named score (NaN none), the texts readable, and the report's training series has both steps. A Parquet
 * file without the columns is an info, never an error.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { indexFolder } from '../../src/core/index/indexer';
import { readSampleText } from '../../src/core/index/sampleText';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { TRL_DATASET, trlProblemId, trlText } from '../../src/core/readers/trl';
import { buildReport } from '../../src/core/report/index';
import { runQueryInProcess } from '../../src/core/sql/query';
import { tempDir } from './helpers';
import { PROMPTS, stepRows, writeTrlFolder } from './trl.support';

describe('a TRL completions folder (Parquet, written by hyparquet-writer) indexes as a training series', () => {
  const root = tempDir('ti-trl-');
  const db = join(tempDir('ti-trl-db-'), 'i.db');
  before(async () => {
    writeTrlFolder(root);
    writeFileSync(
      join(root, 'other.parquet'),
      new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: [1, 2], type: 'INT32' }] })),
    );
    writeFileSync(join(root, 'broken.parquet'), 'PAR1 but not Parquet');
    const index = TraceIndex.open(db);
    try {
      await indexFolder(index, root, { fts: false });
    } finally {
      index.close();
    }
  });
  const q = (sql: string) => runQueryInProcess(db, sql, { limit: 10_000 }).rows;

  test('one model per step, its samples and verdicts from accuracy_reward', () => {
    assert.deepEqual(q('SELECT model, run, name, revision, samples, graded, correct FROM models ORDER BY model'), [
      ['grpo-run@step-100', '', 'grpo-run', 'step-100', 12, 12, 5],
      ['grpo-run@step-200', '', 'grpo-run', 'step-200', 12, 12, 8],
      ['grpo-run@step-300', '', 'grpo-run', 'step-300', 12, 12, 10],
    ]);
  });

  test('problems: one per prompt, keyed by its hash, the prompt as question, the same at both steps', () => {
    assert.deepEqual(
      q('SELECT dataset, problem_id, question FROM problems ORDER BY question'),
      [...PROMPTS].sort().map((p) => [TRL_DATASET, trlProblemId(p), p]),
    );
    const stats = q(
      `SELECT problem_id, model, n, c FROM problem_stats WHERE problem_id = '${trlProblemId(PROMPTS[1])}' ORDER BY model`,
    );
    assert.deepEqual(stats, [
      [trlProblemId(PROMPTS[1]), 'grpo-run@step-100', 4, 0],
      [trlProblemId(PROMPTS[1]), 'grpo-run@step-200', 4, 1],
      [trlProblemId(PROMPTS[1]), 'grpo-run@step-300', 4, 3],
    ]);
  });

  test('each reward column is a named score of its sample; NaN is none; advantage is no score', () => {
    const scores = q('SELECT scorer, count(*) FROM scores GROUP BY scorer ORDER BY scorer');
    assert.deepEqual(scores, [
      ['accuracy_reward', 36],
      ['format_reward', 33],
    ]);
    const one = q(
      `SELECT s.value, m.correct FROM scores s JOIN samples m USING (model, dataset, problem_id, sample_index)
        WHERE s.scorer = 'format_reward' AND s.model = 'grpo-run@step-200' AND s.problem_id = '${trlProblemId(PROMPTS[2])}' AND s.sample_index = 1`,
    );
    assert.deepEqual(one, [[0.6, 0]]);
  });

  test('the texts are read back (kept in the index), rows as lines', async () => {
    const rows = q(
      `SELECT sample_index, file, line FROM samples WHERE model = 'grpo-run@step-200' AND problem_id = '${trlProblemId(PROMPTS[0])}' ORDER BY sample_index`,
    );
    assert.deepEqual(
      rows,
      [0, 1, 2, 3].map((i) => [i, 'grpo-run/completions/completions_200.parquet', i + 1]),
    );
    const index = TraceIndex.open(db, { readonly: true });
    try {
      const m = index.models().find((x) => x.revision === 'step-200');
      const p = index.listProblems({ kind: 'all' }, 0, 10).find((x) => x.problemId === trlProblemId(PROMPTS[0]));
      assert.ok(m && p);
      const s = index.samples(p.id, m.id);
      assert.equal(await readSampleText(index, s[2].id), stepRows(200)[2].completion);
    } finally {
      index.close();
    }
  });

  // a run without a separate base model: its earliest step is the base the later steps are compared with
  test('the report: a training series of steps 200 and 300 against the earliest step, 100', () => {
    const index = TraceIndex.open(db, { readonly: true });
    try {
      const report = buildReport(index, { replicates: 20 });
      assert.equal(report.trajectories.length, 1);
      assert.deepEqual(
        report.trajectories[0].steps.map((s) => [s.step, s.correct, s.graded, s.base]),
        [
          [200, 8, 12, 'grpo-run@step-100'],
          [300, 10, 12, 'grpo-run@step-100'],
        ],
      );
    } finally {
      index.close();
    }
  });

  test('the same index when a worker thread reads the files (the parallel reader of large files)', async () => {
    const dump = (file: string) => {
      const views = ['models', 'problems', 'samples', 'scores', 'diagnostics'];
      return views.map(
        (v) => runQueryInProcess(file, `SELECT * FROM ${v} ORDER BY 1, 2, 3, 4`, { limit: 10_000 }).rows,
      );
    };
    const other = join(tempDir('ti-trl-par-'), 'i.db');
    const index = TraceIndex.open(other);
    try {
      await indexFolder(index, root, { fts: false, parallelReadMinBytes: 0 });
    } finally {
      index.close();
    }
    assert.deepEqual(dump(other), dump(db));
  });

  test('a file named .parquet that is none is an error on it, with the reason', () => {
    const d = q("SELECT severity, message FROM diagnostics WHERE file = 'broken.parquet'");
    assert.equal(d.length, 1);
    assert.equal(d[0][0], 'error');
    assert.match(d[0][1] as string, /^not a readable Parquet file \(.+\); not read$/);
  });

  test('a Parquet file without prompt and completion is an info naming its columns, not an error', () => {
    const d = q("SELECT file, severity, message FROM diagnostics WHERE file = 'other.parquet'");
    assert.deepEqual(d, [
      [
        'other.parquet',
        'info',
        'not a TRL completions file: the columns prompt and completion are needed (it has x); not read',
      ],
    ]);
  });
});

test('trlText: a conversational prompt or completion is its messages, role first', () => {
  assert.equal(trlText('plain'), 'plain');
  assert.equal(
    trlText([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]),
    'system: Be brief.\n\nuser: Hi',
  );
  assert.equal(trlText(3), null);
});

test('a mapping names Parquet columns as it names JSON fields (per-sample rows)', async () => {
  const root = tempDir('ti-parquet-map-');
  const rows = [
    ['HumanEval/0', 'return 1', true],
    ['HumanEval/0', 'return 2', false],
    ['HumanEval/1', 'pass', false],
  ] as const;
  writeFileSync(
    join(root, 'samples.parquet'),
    new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'task_id', data: rows.map((r) => r[0]), type: 'STRING' },
          { name: 'completion', data: rows.map((r) => r[1]), type: 'STRING' },
          { name: 'passed', data: rows.map((r) => r[2]), type: 'BOOLEAN' },
          { name: 'tokens', data: rows.map((_, i) => BigInt(10 + i)), type: 'INT64' },
        ],
      }),
    ),
  );
  writeFileSync(
    join(root, 'trace-inspector.mapping.json'),
    JSON.stringify({
      files: ['*.parquet'],
      records: 'per-sample',
      model: 'coder',
      fields: { problemId: 'task_id', text: 'completion', correct: 'passed', tokenCount: 'tokens' },
    }),
  );
  const db = join(tempDir('ti-parquet-map-db-'), 'i.db');
  const index = TraceIndex.open(db);
  try {
    await indexFolder(index, root, { fts: false });
  } finally {
    index.close();
  }
  assert.deepEqual(
    runQueryInProcess(
      db,
      'SELECT model, problem_id, sample_index, verdict, token_count, line FROM samples ORDER BY problem_id, sample_index',
    ).rows,
    [
      ['coder', 'HumanEval/0', 0, 'correct', 10, 1],
      ['coder', 'HumanEval/0', 1, 'incorrect', 11, 2],
      ['coder', 'HumanEval/1', 0, 'incorrect', 12, 3],
    ],
  );
});
