/**
 * Read-only SQL over the public views (issue 37, docs/sql.md) on the real folders rlvr-probe-gsm8k and
 * qwen25-math-eval-example: every view's rows agree with what the index and the report compute (pass@1 per
 * model, sample and verdict counts, problems, diagnostics, annotations); writes, ATTACH, PRAGMA and a query
 * longer than its time limit are refused with clear errors; an unknown column's error lists the view's
 * columns; the row limit and its note. Runs on whichever SQLite driver the process uses
 * (TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite in the second pass of scripts/test-unit.sh).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { SCHEMA_VERSION } from '../../src/core/index/schema';
import { openDatabase } from '../../src/core/index/sqlite';
import { TraceIndex, problemKey } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import type { Report } from '../../src/core/report/types';
import { checkQuery } from '../../src/core/sql/guard';
import {
  openForQuery,
  runQuery,
  runQueryInProcess,
  SqlQueryError,
  SqlRefusedError,
  type SqlResult,
} from '../../src/core/sql/query';
import { PUBLIC_VIEWS, SQL_VIEWS_VERSION, ALL_VIEWS } from '../../src/core/sql/views';
import { sqlCsv, sqlJson, sqlTable } from '../../src/cli/commands/sqlCommand';
import { assertDocumentedShape, documentedShape, REAL, tempDir } from './helpers';

const RLVR = join(REAL, 'rlvr-probe-gsm8k');
const QWEN = join(REAL, 'qwen25-math-eval-example');

/** Rows of a result as objects (the columns of these queries have distinct names). */
function objects(r: SqlResult): Record<string, unknown>[] {
  return r.rows.map((row) => Object.fromEntries(row.map((v, i) => [r.columns[i], v])));
}

const q = (db: string, sql: string, limit = 100_000) => objects(runQueryInProcess(db, sql, { limit }));

/** `folder` indexed into a fresh index file; its report (50 replicates). */
async function indexAndReport(folder: string): Promise<{ db: string; report: Report }> {
  const db = join(tempDir('ti-sql-'), 'i.db');
  const index = TraceIndex.open(db);
  try {
    await indexFolder(index, folder, { fts: false });
    return { db, report: buildReport(index, { replicates: 50 }) };
  } finally {
    index.close();
  }
}

function withIndex<T>(db: string, fn: (index: TraceIndex) => T): T {
  const index = TraceIndex.open(db, { readonly: true });
  try {
    return fn(index);
  } finally {
    index.close();
  }
}

for (const [name, folder] of [
  ['rlvr-probe-gsm8k', RLVR],
  ['qwen25-math-eval-example', QWEN],
] as const) {
  describe(`the views on ${name} agree with the index and the report`, () => {
    let db = '';
    let report: Report;
    before(async () => {
      ({ db, report } = await indexAndReport(folder));
    });

    test('models: one row per model, totals of the index, pass_at_1 = the report pass@1', () => {
      const rows = q(db, 'SELECT * FROM models ORDER BY model');
      const models = withIndex(db, (i) => i.models());
      assert.equal(rows.length, models.length);
      assert.ok(rows.length >= 1);
      for (const m of models) {
        const r = rows.find((x) => x.model === m.displayId);
        assert.ok(r, `no row for ${m.displayId}`);
        assert.deepEqual(
          [
            r.label,
            r.run,
            r.name,
            r.revision,
            r.grader,
            r.problems,
            r.samples,
            r.graded,
            r.correct,
            r.scored,
            r.partial,
          ],
          [m.label, m.run, m.name, m.revision, m.grader, m.problems, m.samples, m.graded, m.correct, m.scored, 0],
        );
        const rm = report.models.find((x) => x.id === m.displayId);
        assert.ok(rm, `the report has no model ${m.displayId}`);
        const p1 = rm.passAtK.find((p) => p.k === 1)?.value;
        assert.ok(typeof p1 === 'number');
        assert.ok(Math.abs((r.pass_at_1 as number) - p1) < 1e-12, `${m.displayId}: ${r.pass_at_1} vs ${p1}`);
      }
    });

    test('problem_stats: pass_at_1 averaged per model = the report pass@1; c, graded, n summed = the model totals', () => {
      const rows = q(
        db,
        `SELECT model, avg(pass_at_1) AS p1, sum(c) AS c, sum(graded) AS graded, sum(n) AS n, count(*) AS problems
           FROM problem_stats GROUP BY model`,
      );
      const all = q(db, 'SELECT count(*) AS n FROM problem_stats')[0].n;
      assert.equal(
        all,
        withIndex(db, (i) => i.allStats().length),
      );
      for (const rm of report.models) {
        const r = rows.find((x) => x.model === rm.id);
        assert.ok(r, `no problem_stats of ${rm.id}`);
        const p1 = rm.passAtK.find((p) => p.k === 1)?.value as number;
        assert.ok(Math.abs((r.p1 as number) - p1) < 1e-12);
        assert.deepEqual([r.c, r.n, r.problems], [rm.correct, rm.samples, rm.problems]);
        assert.equal(r.graded, rm.samples - rm.ungradedSamples);
      }
    });

    test("samples: as many as the index holds; verdict counts per model = c, graded - c, n - graded; a problem's samples as the index lists them", () => {
      const total = q(db, 'SELECT count(*) AS n FROM samples')[0].n;
      const models = withIndex(db, (i) => i.models());
      assert.equal(
        total,
        models.reduce((a, m) => a + m.samples, 0),
      );
      const verdicts = q(
        db,
        `SELECT model, sum(verdict = 'correct') AS correct, sum(verdict = 'incorrect') AS incorrect,
                sum(verdict IS NULL) AS ungraded, sum(correct) AS c FROM samples GROUP BY model`,
      );
      for (const m of models) {
        const v = verdicts.find((x) => x.model === m.displayId);
        assert.ok(v);
        assert.deepEqual(
          [v.correct, v.incorrect, v.ungraded, v.c],
          [m.correct, m.graded - m.correct, m.samples - m.graded, m.correct],
        );
      }
      // one problem of the first model, sample by sample
      withIndex(db, (index) => {
        const m = models[0];
        const p = index.listProblems({ kind: 'all' }, 0, 1, m.id)[0];
        const expected = index.samples(p.id, m.id);
        const rows = q(
          db,
          `SELECT * FROM samples WHERE model = '${m.displayId.replace(/'/g, "''")}' AND dataset = '${p.dataset}'
              AND problem_id = '${p.problemId}' ORDER BY sample_index`,
        );
        assert.deepEqual(
          rows.map((r) => [
            r.sample_index,
            r.correct,
            r.extracted_answer,
            r.reward_score,
            r.text_length,
            r.content_hash,
            r.file,
            r.line,
          ]),
          expected.map((s) => [
            s.sampleIndex,
            s.correct === null ? null : Number(s.correct),
            s.extractedAnswer,
            s.rewardScore,
            s.length,
            s.contentHash,
            s.file,
            s.line,
          ]),
        );
      });
    });

    test('problems: every problem with its question, reference answer, level and subject as the index gives them', () => {
      const rows = q(db, 'SELECT * FROM problems');
      const problems = withIndex(db, (i) => i.listProblems({ kind: 'all' }, 0, 1_000_000));
      assert.equal(rows.length, problems.length);
      const byKey = new Map(rows.map((r) => [problemKey(r.dataset as string, r.problem_id as string), r]));
      for (const p of problems) {
        const r = byKey.get(p.key);
        assert.ok(r, p.key);
        assert.deepEqual(
          [r.question, r.reference_answer, r.level, r.subject],
          [p.question, p.referenceAnswer, p.level, p.subject],
        );
      }
    });

    test('diagnostics: every diagnostic of the index', () => {
      const rows = q(db, 'SELECT file, line, severity, message FROM diagnostics ORDER BY file, line, message');
      const diags = withIndex(db, (i) => i.diagnostics());
      assert.equal(rows.length, diags.length);
      const key = (d: { file?: unknown; line?: unknown; severity?: unknown; message?: unknown }) =>
        `${d.file}:${d.line}:${d.severity}:${d.message}`;
      assert.deepEqual(rows.map(key).sort(), diags.map(key).sort());
    });
  });
}

describe('the worked questions of docs/sql.md on rlvr-probe-gsm8k', () => {
  let db = '';
  let report: Report;
  before(async () => {
    ({ db, report } = await indexAndReport(RLVR));
  });

  test('the problems RL lost (base solves, RL does not) are the comparison coverage baseOnly, with the base correct samples there', () => {
    const rl = 'results_1024_cuda:expx/qwen-2.5-1.5b-rlvr-ppo';
    const base = 'results_1024_cuda:ns-0/qwen-2.5-1.5b-instruct-reasoning-sft';
    const rows = q(
      db,
      `SELECT r.problem_id, b.c AS base_correct, b.graded AS base_graded, r.graded AS rl_graded
         FROM problem_stats r JOIN problem_stats b USING (dataset, problem_id)
        WHERE r.model = '${rl}' AND b.model = '${base}' AND r.graded > 0 AND r.c = 0 AND b.c > 0
        ORDER BY b.c DESC, CAST(r.problem_id AS INTEGER)`,
    );
    const cmp = report.comparisons.find((c) => c.model === rl);
    assert.ok(cmp);
    assert.equal(cmp.base, base);
    assert.equal(rows.length, cmp.coverage.baseOnly);
    assert.deepEqual(
      rows.map((r) => [r.problem_id, r.base_correct, r.base_graded]),
      [
        ['22', 3, 8],
        ['23', 2, 8],
      ],
    );
  });
});

test('README.md: its three questions give the answers it states, on rlvr-probe-gsm8k', async () => {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const queries = [...readme.matchAll(/^\| [^|]+\? \| `(SELECT [^`]+)` \|/gm)].map((m) => m[1]);
  assert.equal(queries.length, 3);
  const { db } = await indexAndReport(RLVR);
  const [lost, steps, totals] = queries.map((sql) => runQueryInProcess(db, sql).rows);
  assert.deepEqual(lost, [
    ['22', 3],
    ['23', 2],
  ]);
  assert.deepEqual(
    steps
      .map(([rev, p]) => [rev as string, (p as number).toFixed(2)])
      .sort((a, b) => Number(a[0].slice(5)) - Number(b[0].slice(5))),
    [
      ['step-100', '0.65'],
      ['step-300', '0.62'],
      ['step-500', '0.66'],
      ['step-1000', '0.72'],
    ],
  );
  assert.deepEqual(
    totals.map(([m, c, g]) => [(m as string).includes('rlvr-ppo') ? 'RL' : 'SFT', c, g]),
    [
      ['RL', 175, 240],
      ['SFT', 133, 240],
    ],
  );
});

describe('docs/sql.md', () => {
  const page = readFileSync(join(process.cwd(), 'docs', 'sql.md'), 'utf8');

  test('lists every view with each of its columns, in order, under its heading', () => {
    for (const v of ALL_VIEWS) {
      const at = page.indexOf(`### \`${v.name}\``);
      assert.ok(at >= 0, `no heading for ${v.name}`);
      const section = page.slice(at, page.indexOf('\n### ', at + 1));
      const listed = [...section.matchAll(/^\| `([a-z_0-9]+)` \|/gm)].map((m) => m[1]);
      assert.deepEqual(
        listed,
        v.columns.map((c) => c.name),
        v.name,
      );
    }
  });

  test('the worked questions: each query gives the output printed under it', async () => {
    const worked = page.slice(page.indexOf('## Worked questions'), page.indexOf('## Safety rules'));
    const pairs = [...worked.matchAll(/```sql\n([\s\S]*?)```\n\n```\n([\s\S]*?)```/g)];
    assert.equal(pairs.length, 3);
    const rlvr = (await indexAndReport(RLVR)).db;
    const qwen = (await indexAndReport(QWEN)).db;
    for (const [, sql, output] of pairs) {
      const db = sql.includes('reward_score') ? qwen : rlvr;
      assert.equal(`${sqlTable(runQueryInProcess(db, sql))}\n`, output, sql);
    }
  });
});

describe('scores', () => {
  test('the named scores attached to samples, as the index attaches them (resolveScores); none of the other samples', async () => {
    const dir = tempDir('ti-sql-scores-');
    const lines = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
    writeFileSync(
      join(dir, 'gen.jsonl'),
      lines([
        { pid: 'p1', outs: ['x', 'y'], ok: [1, 0] },
        { pid: 'p2', outs: ['z', 'w'], ok: [0, 0] },
      ]),
    );
    mkdirSync(join(dir, 'judges'));
    // p9 has no sample: its scores attach to nothing; the PRM's third score of p2 has no sample either
    writeFileSync(
      join(dir, 'judges', 'orm.jsonl'),
      lines([
        { pid: 'p1', r: [0.75, -1.5] },
        { pid: 'p9', r: [1, 2] },
      ]),
    );
    writeFileSync(join(dir, 'judges', 'prm.jsonl'), lines([{ pid: 'p2', r: [[0.5, 0.25], [0.125], [1]] }]));
    writeFileSync(
      join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify([
        {
          files: ['gen.jsonl'],
          records: 'per-problem',
          fields: { problemId: 'pid', text: 'outs', correct: 'ok' },
          model: 'policy',
        },
        {
          files: ['judges/*.jsonl'],
          records: 'per-problem',
          fields: { problemId: 'pid' },
          scores: [{ path: 'r', scorerFromFile: '(.+)\\.jsonl' }],
        },
      ]),
    );
    const db = join(dir, 'i.db');
    const index = TraceIndex.open(db);
    let expected: string[];
    try {
      await indexFolder(index, dir, { fts: false });
      const models = new Map(index.models().map((m) => [m.id, m.displayId]));
      expected = index
        .resolveScores()
        .attached.map((a) => {
          const p = index.problem(a.problemId);
          return JSON.stringify([
            models.get(a.modelId),
            p?.problemId,
            a.sampleIndex,
            a.scorer,
            a.value,
            a.file,
            a.line,
          ]);
        })
        .sort();
    } finally {
      index.close();
    }
    const rows = q(db, 'SELECT * FROM scores');
    assert.deepEqual(
      rows
        .map((r) => JSON.stringify([r.model, r.problem_id, r.sample_index, r.scorer, r.value, r.file, r.line]))
        .sort(),
      expected,
    );
    assert.equal(rows.length, 4);
    const prm = rows
      .filter((r) => r.scorer === 'prm')
      .sort((a, b) => (a.sample_index as number) - (b.sample_index as number));
    assert.deepEqual(
      prm.map((r) => [r.sample_index, JSON.parse(r.steps as string), r.rule]),
      [
        [0, [0.5, 0.25], prm[0].rule],
        [1, [0.125], prm[0].rule],
      ],
    );
    assert.ok(prm[0].rule !== null);
  });
});

describe('annotations', () => {
  test('an annotation of a sample is a row with its keys, labels and attached = 1; one whose text changed has attached = 0', async () => {
    const db = join(tempDir('ti-sql-'), 'i.db');
    const index = TraceIndex.open(db);
    try {
      await indexFolder(index, QWEN, { fts: false });
      const store = new AnnotationStore(index);
      const m = index.models()[0];
      const p = index.listProblems({ kind: 'all' }, 0, 1, m.id)[0];
      const [s0, s1] = index.samples(p.id, m.id);
      const ref0 = store.refOf(s0.id);
      const ref1 = store.refOf(s1.id);
      assert.ok(ref0 && ref1);
      store.set(ref0, ['lucky guess', 'wrong unit'], 'see step 3', new Date('2026-01-02T03:04:05Z'));
      store.set({ ...ref1, contentHash: 'not-its-hash' }, ['x'], '');
    } finally {
      index.close();
    }
    const rows = q(db, 'SELECT * FROM annotations ORDER BY sample_index');
    const models = q(db, 'SELECT model FROM models');
    assert.equal(rows.length, 2);
    assert.equal(rows[0].model, models[0].model);
    assert.deepEqual(
      [rows[0].sample_index, JSON.parse(rows[0].labels as string), rows[0].note, rows[0].updated_at, rows[0].attached],
      [0, ['lucky guess', 'wrong unit'], 'see step 3', '2026-01-02T03:04:05.000Z', 1],
    );
    assert.deepEqual([rows[1].sample_index, rows[1].attached], [1, 0]);
    // one row per label
    const labels = q(db, 'SELECT j.value AS label FROM annotations, json_each(annotations.labels) j ORDER BY 1');
    assert.deepEqual(
      labels.map((r) => r.label),
      ['lucky guess', 'wrong unit', 'x'],
    );
  });
});

describe('safety: read-only, one query, a time limit', () => {
  let db = '';
  before(async () => {
    ({ db } = await indexAndReport(QWEN));
  });

  const refused: [string, RegExp][] = [
    ["INSERT INTO meta (key, value) VALUES ('a', 'b')", /^INSERT is refused: the SQL interface is read-only/],
    ['UPDATE samples SET correct = 1', /^UPDATE is refused: the SQL interface is read-only/],
    ['DELETE FROM samples', /^DELETE is refused/],
    ['CREATE TABLE t (a)', /^CREATE is refused/],
    ['CREATE TEMP VIEW v AS SELECT 1', /^CREATE is refused/],
    ['DROP VIEW samples', /^DROP is refused/],
    ['WITH x AS (SELECT 1) DELETE FROM main.meta', /^DELETE is refused/],
    ["WITH x AS (SELECT 1) REPLACE INTO main.meta VALUES ('a', 'b')", /^REPLACE is refused/],
    ["ATTACH DATABASE ':memory:' AS other", /^ATTACH is refused: a query reads this folder's index and nothing else/],
    ['DETACH other', /^DETACH is refused/],
    ['PRAGMA writable_schema = 1', /^PRAGMA statements are refused .*pragma_table_info/],
    ['PRAGMA query_only = 0', /^PRAGMA statements are refused/],
    ['SELECT 1; PRAGMA query_only = 0', /^one statement at a time: this query holds 2/],
    ["SELECT load_extension('/tmp/x.so')", /^load_extension is refused/],
    ['BEGIN', /^BEGIN is refused/],
    ['VACUUM', /^VACUUM is refused/],
    ['  -- nothing\n', /^the query is empty$/],
    ['SELECT * FROM samples WHERE model = :model', /^the query has a parameter \(:model\), and nothing binds it/],
  ];
  for (const [sql, message] of refused) {
    test(`refused before it runs: ${sql.trim()}`, async () => {
      await assert.rejects(runQuery(db, sql), (e: Error) => {
        assert.ok(e instanceof SqlRefusedError, `${e.name}: ${e.message}`);
        assert.match(e.message, message);
        return true;
      });
    });
  }

  test('keywords inside strings, quoted names and comments are not statements; replace() is a function', () => {
    checkQuery('SELECT \'DELETE FROM samples; ATTACH x\' AS "insert" -- PRAGMA x\n/* DROP */');
    checkQuery("SELECT replace(model, 'a', 'b') FROM samples;");
    checkQuery('EXPLAIN QUERY PLAN SELECT * FROM samples');
    assert.throws(() => checkQuery('EXPLAIN DELETE FROM samples'), SqlRefusedError);
  });

  test('past the guard, SQLite refuses writes itself: the index is read-only, query_only covers the temp views', () => {
    const conn = openForQuery(db);
    try {
      assert.throws(
        () => conn.prepare("INSERT INTO main.meta (key, value) VALUES ('a', 'b')").run(),
        /readonly|read-only/i,
      );
      assert.throws(() => conn.exec('DROP VIEW temp.samples'), /readonly|read-only|query_only/i);
      assert.throws(() => conn.exec('CREATE TEMP TABLE t (a)'), /readonly|read-only|query_only/i);
      // better-sqlite3 also says which statements write (node:sqlite cannot)
      if (conn.driver === 'better-sqlite3') {
        assert.equal(conn.prepare('DELETE FROM main.meta').readonly, false);
        assert.equal(conn.prepare('SELECT * FROM samples').readonly, true);
      }
    } finally {
      conn.close();
    }
    // the index is unchanged
    assert.equal(q(db, "SELECT count(*) AS n FROM main.meta WHERE key = 'a'")[0].n, 0);
  });

  test('a query longer than the time limit is stopped (its process killed) with a clear error', async () => {
    const t0 = Date.now();
    await assert.rejects(
      runQuery(
        db,
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1e12) SELECT count(*) FROM c',
        { timeoutMs: 700 },
      ),
      (e: Error) => {
        assert.ok(e instanceof SqlQueryError);
        assert.equal(e.kind, 'timeout');
        assert.match(
          e.message,
          /^the query ran longer than 0\.7 s and was stopped \(--timeout <seconds> gives it longer/,
        );
        return true;
      },
    );
    assert.ok(Date.now() - t0 < 5000);
  });

  test('an unknown column: the error lists the columns of the views in the query; an unknown view lists every view', async () => {
    await assert.rejects(runQuery(db, 'SELECT pass1 FROM problem_stats'), (e: Error) => {
      assert.ok(e instanceof SqlQueryError && e.kind === 'sql');
      assert.equal(
        e.message,
        'no such column: pass1. Columns of the views in the query: problem_stats (model, dataset, problem_id, n, c, graded, scored, pass_at_1)',
      );
      return true;
    });
    await assert.rejects(runQuery(db, 'SELECT * FROM rollouts'), (e: Error) => {
      assert.match(
        e.message,
        /^no such table: rollouts\. The views: models \(model, label, .*\); problems \(dataset, problem_id, .*view_columns \(view_name, position, column_name, description\)$/,
      );
      return true;
    });
  });

  test('an index of another schema version is refused, saying what to do', () => {
    const old = join(tempDir('ti-sql-'), 'old.db');
    copyFileSync(db, old);
    const conn = openDatabase(old);
    conn.pragma(`user_version = ${SCHEMA_VERSION - 1}`);
    conn.close();
    assert.throws(
      () => runQueryInProcess(old, 'SELECT 1'),
      (e: Error) => e instanceof SqlQueryError && e.kind === 'index' && /index the folder again/.test(e.message),
    );
  });
});

describe('results: columns, row limit, formats', () => {
  let db = '';
  before(async () => {
    ({ db } = await indexAndReport(QWEN));
  });

  test("every view has the columns its spec lists (view_columns lists them too); the views' version", async () => {
    for (const v of PUBLIC_VIEWS) {
      const r = runQueryInProcess(db, `SELECT * FROM ${v.name} LIMIT 0`);
      assert.deepEqual(
        r.columns,
        v.columns.map((c) => c.name),
        v.name,
      );
      assert.equal(r.viewsVersion, SQL_VIEWS_VERSION);
    }
    const listed = q(db, 'SELECT view_name, column_name FROM view_columns');
    assert.deepEqual(
      listed.map((r) => `${r.view_name}.${r.column_name}`),
      ALL_VIEWS.flatMap((v) => v.columns.map((c) => `${v.name}.${c.name}`)),
    );
  });

  test('the row limit: the first N rows and truncated; a result of exactly N rows is not truncated', async () => {
    const r = await runQuery(db, 'SELECT model, problem_id, sample_index FROM samples', { limit: 5 });
    assert.equal(r.rows.length, 5);
    assert.equal(r.truncated, true);
    const exact = await runQuery(db, 'SELECT problem_id FROM problems LIMIT 5', { limit: 5 });
    assert.deepEqual([exact.rows.length, exact.truncated], [5, false]);
    const all = runQueryInProcess(db, 'SELECT * FROM samples');
    assert.deepEqual([all.rows.length, all.limit, all.truncated], [800, 1000, false]);
  });

  test('two columns of the same name are both kept (rows are arrays); JSON keys them model, model_2', () => {
    const r = runQueryInProcess(db, "SELECT 'a' AS model, 'b' AS model, NULL AS x, 1.5 AS y, x'00ff' AS z");
    assert.deepEqual(r.columns, ['model', 'model', 'x', 'y', 'z']);
    assert.deepEqual(r.rows[0].slice(0, 4), ['a', 'b', null, 1.5]);
    const json = JSON.parse(sqlJson(r));
    assert.deepEqual(json.columns, ['model', 'model_2', 'x', 'y', 'z']);
    assert.deepEqual(json.rows, [{ model: 'a', model_2: 'b', x: null, y: 1.5, z: "x'00ff'" }]);
    assert.equal(sqlCsv(r), "model,model,x,y,z\na,b,,1.5,x'00ff'");
    assert.equal(
      sqlTable(r),
      [
        'model  model  x       y  z',
        '-----  -----  ----  ---  -------',
        "a      b      NULL  1.5  x'00ff'",
        '(1 row)',
      ].join('\n'),
    );
  });

  test('the CLI: table on stdout, the row limit note on stderr; JSON; a refused query exits 1 with the reason', () => {
    const main = join(__dirname, '..', '..', 'src', 'cli', 'main.js');
    const run = (args: string[]) =>
      spawnSync(
        process.execPath,
        [
          '-e',
          `require(${JSON.stringify(main)}).program().parseAsync(process.argv).catch((e) => { process.stderr.write('trace-inspector: ' + e.message + '\\n'); process.exit(1); })`,
          'trace-inspector',
          'sql',
          QWEN,
          '--db',
          db,
          ...args,
        ],
        { encoding: 'utf8' },
      );
    const t = run([
      'SELECT problem_id, sample_index, verdict FROM samples ORDER BY CAST(problem_id AS INTEGER), sample_index',
      '--limit',
      '2',
    ]);
    assert.equal(t.status, 0, t.stderr);
    assert.match(t.stdout, /^problem_id {2}sample_index {2}verdict\n/);
    assert.match(t.stdout, /\(2 rows\)\n$/);
    assert.equal(
      t.stderr,
      'note: row limit reached: the first 2 rows are shown, the query has more (--limit N shows more; an aggregate or a LIMIT in the query fewer)\n',
    );
    const j = run(['SELECT count(*) AS n FROM samples', '--format', 'json']);
    assert.equal(j.status, 0, j.stderr);
    assertDocumentedShape(JSON.parse(j.stdout), documentedShape('docs/cli.md', '## `sql`'));
    assert.deepEqual(JSON.parse(j.stdout), {
      viewsVersion: SQL_VIEWS_VERSION,
      columns: ['n'],
      rows: [{ n: 800 }],
      rowCount: 1,
      limit: 1000,
      truncated: false,
    });
    const w = run(['DELETE FROM samples']);
    assert.equal(w.status, 1);
    assert.match(w.stderr, /^trace-inspector: DELETE is refused: the SQL interface is read-only/);
    const none = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(main)}).program().parseAsync(process.argv).catch((e) => { process.stderr.write(e.message + '\\n'); process.exit(1); })`,
        'trace-inspector',
        'sql',
        tempDir('ti-sql-none-'),
        'SELECT 1',
      ],
      { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: tempDir('ti-sql-cache-') } },
    );
    assert.equal(none.status, 1);
    assert.match(none.stderr, /has no index yet .*: run trace-inspector index .* first, or give --db/);
  });
});
