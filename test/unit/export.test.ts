/**
 * `trace-inspector export` (src/core/export/views.ts): every public view written as Parquet by hyparquet-writer
 * is read back by hyparquet with the same rows as the sql views give, on the real folder qwen25-math-eval-example
 * with annotations added and on a small folder with named scores; row groups of the batch size; `--with-text`
 * adds each sample's text as read from the results file; CSV and JSON lines hold the same rows; the CLI writes
 * every view and refuses an output folder inside the results folder.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { exportViews } from '../../src/core/export/views';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { readSampleText } from '../../src/core/index/sampleText';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { runQueryInProcess } from '../../src/core/sql/query';
import { PUBLIC_VIEWS } from '../../src/core/sql/views';
import { REAL, tempDir } from './helpers';

const QWEN = join(REAL, 'qwen25-math-eval-example');

/** A view's rows from the sql interface, as objects keyed by column. */
function viewRows(db: string, view: string): Record<string, unknown>[] {
  const r = runQueryInProcess(db, `SELECT * FROM ${view}`, { limit: 10_000_000 });
  return r.rows.map((row) => Object.fromEntries(row.map((v, i) => [r.columns[i], v])));
}

/** A Parquet file's rows as objects, INT64 (bigint) as numbers, missing values as null. */
async function parquetRows(file: string): Promise<Record<string, unknown>[]> {
  const buf = readFileSync(file);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  const rows = (await parquetReadObjects({ file: ab })) as Record<string, unknown>[];
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : (v ?? null)])),
  );
}

const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();

async function indexInto(folder: string): Promise<string> {
  const db = join(tempDir('ti-export-'), 'i.db');
  const index = TraceIndex.open(db);
  try {
    await indexFolder(index, folder, { fts: false });
  } finally {
    index.close();
  }
  return db;
}

/** A folder whose samples have named scores (two scorers), as in sql.test. */
function scoredFolder(): string {
  const dir = tempDir('ti-export-scores-');
  const lines = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  writeFileSync(join(dir, 'gen.jsonl'), lines([{ pid: 'p1', outs: ['x', 'y'], ok: [1, 0] }]));
  mkdirSync(join(dir, 'judges'));
  writeFileSync(join(dir, 'judges', 'orm.jsonl'), lines([{ pid: 'p1', r: [0.75, -1.5] }]));
  writeFileSync(join(dir, 'judges', 'prm.jsonl'), lines([{ pid: 'p1', r: [[0.5, 0.25], [0.125]] }]));
  writeFileSync(
    join(dir, 'trace-inspector.mapping.json'),
    JSON.stringify([
      { files: ['gen.jsonl'], records: 'per-problem', fields: { problemId: 'pid', text: 'outs', correct: 'ok' } },
      {
        files: ['judges/*.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'pid' },
        scores: [{ path: 'r', scorerFromFile: '(.+)\\.jsonl' }],
      },
    ]),
  );
  return dir;
}

describe('Parquet export of qwen25-math-eval-example, read back by hyparquet', () => {
  let db = '';
  const out = tempDir('ti-export-out-');
  before(async () => {
    db = await indexInto(QWEN);
    const index = TraceIndex.open(db);
    try {
      const store = new AnnotationStore(index);
      const m = index.models()[0];
      const p = index.listProblems({ kind: 'all' }, 0, 1, m.id)[0];
      const ref = store.refOf(index.samples(p.id, m.id)[1].id);
      assert.ok(ref);
      store.set(ref, ['lucky guess'], 'a "quoted", note\nwith a line break', new Date('2026-01-02T03:04:05Z'));
    } finally {
      index.close();
    }
  });

  test('every view: the same rows as the sql views, row groups of the batch size, the views version in the metadata', async () => {
    const written = await exportViews(db, out, { format: 'parquet', batchRows: 300 });
    assert.deepEqual(
      written.map((w) => w.view),
      PUBLIC_VIEWS.map((v) => v.name),
    );
    for (const w of written) {
      const expected = viewRows(db, w.view);
      const got = await parquetRows(w.file);
      assert.equal(got.length, expected.length, w.view);
      assert.equal(w.rows, expected.length, w.view);
      assert.deepEqual(sorted(got), sorted(expected), w.view);
      const buf = readFileSync(w.file);
      const meta = parquetMetadata(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
      assert.deepEqual(
        meta.schema.slice(1).map((s) => s.name),
        PUBLIC_VIEWS.find((v) => v.name === w.view)?.columns.map((c) => c.name),
      );
      assert.equal(meta.row_groups.length, Math.ceil(expected.length / 300), w.view); // an empty view: no row group
      const kv = Object.fromEntries((meta.key_value_metadata ?? []).map((e) => [e.key, e.value]));
      assert.equal(kv['trace_inspector.view'], w.view);
      assert.equal(kv['trace_inspector.views_version'], '1');
    }
    const samples = written.find((w) => w.view === 'samples');
    assert.equal(samples?.rows, 800); // 100 problems x 8 samples
    assert.equal(written.find((w) => w.view === 'annotations')?.rows, 1);
  });

  test('--with-text: samples gets a text column, each the sample’s text as read from its results file', async () => {
    const dir = tempDir('ti-export-text-');
    const [w] = await exportViews(db, dir, { format: 'parquet', withText: true, views: ['samples'] });
    assert.equal(w.columns.at(-1), 'text');
    const rows = await parquetRows(w.file);
    assert.equal(rows.length, 800);
    const index = TraceIndex.open(db, { readonly: true });
    try {
      const ids = new Map(index.models().map((m) => [m.displayId, m.id]));
      for (const r of rows.filter((_, i) => i % 37 === 0)) {
        const p = index.listProblems({ kind: 'all' }, 0, 200).find((x) => x.problemId === r.problem_id);
        assert.ok(p);
        const id = index.findSample(
          p.key,
          index.model(ids.get(r.model as string) ?? -1)?.key ?? '',
          r.sample_index as number,
        );
        assert.ok(id !== undefined);
        assert.equal(r.text, await readSampleText(index, id));
      }
      const line8 = JSON.parse(readFileSync(join(QWEN, 'math_cot_100.jsonl'), 'utf8').split('\n')[7]) as {
        idx: number;
        response: string[];
      };
      assert.equal(
        rows.find((r) => r.problem_id === String(line8.idx) && r.sample_index === 3)?.text,
        line8.response[3],
      );
    } finally {
      index.close();
    }
  });

  test('CSV and JSON lines: the same rows (CSV as text, NULL empty)', async () => {
    const dir = tempDir('ti-export-csv-');
    for (const format of ['csv', 'jsonl'] as const) {
      const written = await exportViews(db, dir, { format, views: ['annotations', 'problems'] });
      for (const w of written) {
        const expected = viewRows(db, w.view);
        const text = readFileSync(w.file, 'utf8');
        if (format === 'jsonl') {
          assert.deepEqual(
            sorted(
              text
                .trim()
                .split('\n')
                .map((l) => JSON.parse(l)),
            ),
            sorted(expected),
            w.view,
          );
        } else {
          const asText = expected.map((r) =>
            Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? '' : String(v)])),
          );
          assert.deepEqual(sorted(parse(text, { columns: true }) as Record<string, unknown>[]), sorted(asText), w.view);
        }
      }
    }
  });
});

test('Parquet export of named scores (two scorers, step scores): the scores view’s rows', async () => {
  const db = await indexInto(scoredFolder());
  const [w] = await exportViews(db, tempDir('ti-export-s-'), { format: 'parquet', views: ['scores'] });
  const expected = viewRows(db, 'scores');
  assert.equal(expected.length, 4);
  assert.deepEqual(sorted(await parquetRows(w.file)), sorted(expected));
});

test('the CLI writes every view, and refuses an output folder inside the results folder', () => {
  const folder = scoredFolder();
  const db = join(tempDir('ti-export-cli-'), 'i.db');
  const cli = join(process.cwd(), 'dist', 'cli.js');
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  assert.equal(run(['index', folder, '--db', db, '-q']).status, 0);
  const out = tempDir('ti-export-cli-out-');
  const ok = run(['export', folder, '--db', db, '-o', out, '-q']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(
    ok.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0]),
    PUBLIC_VIEWS.map((v) => join(out, `${v.name}.parquet`)),
  );
  const inside = run(['export', folder, '--db', db, '-o', join(folder, 'judges', 'out')]);
  assert.equal(inside.status, 1);
  assert.match(inside.stderr, /is inside the results folder: the next index would read the exported files as results/);
  const noIndex = run(['export', folder, '--db', join(out, 'none.db')]);
  assert.equal(noIndex.status, 1);
  assert.match(noIndex.stderr, /no index at /);
});

test('all or nothing: an export that fails (a results file changed) leaves an earlier export as it was, and no partial file', async () => {
  const folder = scoredFolder();
  const db = await indexInto(folder);
  const out = tempDir('ti-export-atomic-');
  const before = await exportViews(db, out, { format: 'parquet', withText: true });
  const bytes = new Map(before.map((v) => [v.file, readFileSync(v.file)]));
  // a sample's text changed since the index was built: --with-text cannot read it back
  const file = join(folder, 'gen.jsonl');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"x"', '"z"'));
  await assert.rejects(exportViews(db, out, { format: 'parquet', withText: true }), /changed since it was indexed/);
  assert.deepEqual(readdirSync(out).sort(), before.map((v) => basename(v.file)).sort());
  for (const [f, b] of bytes) assert.ok(readFileSync(f).equals(b), `${f} changed`);
});

test('an output path that is a file is refused by name', async () => {
  const db = await indexInto(scoredFolder());
  const file = join(tempDir('ti-export-file-'), 'a-file');
  writeFileSync(file, 'x');
  await assert.rejects(exportViews(db, file, { format: 'csv' }), {
    message: `${file} is a file: give a folder to write the views to`,
  });
});
