/**
 * An index built by another version of the readers (src/core/readers/version.ts) is read again whole by
 * the next pass, unchanged files too: otherwise it kept the model and dataset names older naming rules
 * gave. Annotations follow their samples (same file, line and text) to the names the readers give now.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore } from '../../src/core/index/annotations';
import { type IndexProgress, READER_VERSION_KEY, indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { READER_VERSION } from '../../src/core/readers/version';
import { rolloutLine, tempDir } from './helpers';
import { runCli } from './reliability.support';

/** A folder of two results files (two models, two problems each). */
function folder(): string {
  const dir = tempDir('ti-readerver-');
  writeFileSync(
    join(dir, 'base.jsonl'),
    `${rolloutLine(0, 'base', [true, false])}\n${rolloutLine(1, 'base', [false, false])}\n`,
  );
  writeFileSync(
    join(dir, 'rl.jsonl'),
    `${rolloutLine(0, 'rl', [true, true])}\n${rolloutLine(1, 'rl', [true, false, true])}\n`,
  );
  return dir;
}

/** What the readers put in the index, by keys (no row ids): models, samples and per-(model, problem) stats. */
function rows(index: TraceIndex) {
  const db = index.db;
  return {
    models: db.prepare('SELECT key, run, name, revision, name_source FROM models ORDER BY key').all(),
    problems: db
      .prepare('SELECT key, dataset, problem_id, question, reference_answer FROM problems ORDER BY key')
      .all(),
    samples: db
      .prepare(
        `SELECT f.path, s.line, m.key AS model, p.key AS problem, s.sample_index, s.correct, s.content_hash
           FROM samples s JOIN files f ON f.id = s.file_id JOIN models m ON m.id = s.model_id JOIN problems p ON p.id = s.problem_id
          ORDER BY f.path, s.line, s.sample_index`,
      )
      .all(),
    stats: db
      .prepare(
        `SELECT m.key AS model, p.key AS problem, st.n, st.c, st.graded FROM stats st
           JOIN models m ON m.id = st.model_id JOIN problems p ON p.id = st.problem_id ORDER BY 1, 2`,
      )
      .all(),
  };
}

/**
 * Makes `index` look built by older readers that named model `from` otherwise (`to`): its key and name
 * changed in place (as an older version's pass left them), and the reader version set back.
 */
function olderReaders(index: TraceIndex, from: string, to: string): string {
  const row = index.db.prepare('SELECT id, key FROM models WHERE name = ?').get(from) as { id: number; key: string };
  const oldKey = row.key.replace(from, to);
  index.db.prepare('UPDATE models SET key = ?, name = ? WHERE id = ?').run(oldKey, to, row.id);
  index.setMeta(READER_VERSION_KEY, String(READER_VERSION - 1));
  return oldKey;
}

describe('reader version: an index built by older readers is read again', () => {
  test('a stale index is fully re-read (unchanged files too), said once, and ends with the rows of a fresh index', async () => {
    const dir = folder();
    const fresh = TraceIndex.open(':memory:');
    await indexFolder(fresh, dir);
    const expected = rows(fresh);
    assert.equal(fresh.getMeta(READER_VERSION_KEY), String(READER_VERSION), 'a fresh index is stamped');
    fresh.close();

    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    olderReaders(index, 'rl', 'rl (old name)');
    assert.notDeepEqual(rows(index), expected, 'the simulated old index differs');
    const notices: string[] = [];
    const s = await indexFolder(index, dir, {
      onProgress: (p: IndexProgress) => p.notice && notices.push(p.notice),
    });
    assert.deepEqual(notices, ['index built by an older version of the readers: re-reading 2 files']);
    assert.equal(s.filesStale, 2);
    assert.equal(s.filesIndexed, 2, 'both files read again, though neither changed');
    assert.equal(s.filesSkipped, 0);
    assert.deepEqual(rows(index), expected);
    assert.deepEqual(
      index
        .models()
        .map((m) => m.name)
        .sort(),
      ['base', 'rl'],
    );
    assert.equal(index.getMeta(READER_VERSION_KEY), String(READER_VERSION));
    index.close();
  });

  test('with the current version an unchanged folder re-reads nothing and says nothing', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const before = rows(index);
    const notices: string[] = [];
    const s = await indexFolder(index, dir, { onProgress: (p) => p.notice && notices.push(p.notice) });
    assert.equal(s.filesIndexed, 0);
    assert.equal(s.filesSkipped, 2);
    assert.equal(s.filesStale, 0);
    assert.deepEqual(notices, []);
    assert.deepEqual(rows(index), before);
    index.close();
  });

  test('an index from before the stamp (no reader_version) is read again too; an empty index is not stale', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    const first = await indexFolder(index, dir);
    assert.equal(first.filesStale, 0, 'nothing to re-read in an empty index');
    index.db.prepare('DELETE FROM meta WHERE key = ?').run(READER_VERSION_KEY);
    const s = await indexFolder(index, dir);
    assert.equal(s.filesStale, 2);
    assert.equal(s.filesIndexed, 2);
    index.close();
  });

  test('a cancelled re-read leaves only the files it did not reach for the next pass', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    olderReaders(index, 'rl', 'rl (old name)');
    const stop = new AbortController();
    const cut = await indexFolder(index, dir, {
      signal: stop.signal,
      // base.jsonl is read first (sorted); stop before rl.jsonl
      onProgress: (p) => p.file === 'rl.jsonl' && stop.abort(),
    });
    assert.equal(cut.cancelled, true);
    assert.equal(cut.filesIndexed, 1);
    const next = await indexFolder(index, dir);
    assert.equal(next.filesStale, 0, 'the version was stamped: no second notice');
    assert.equal(next.filesIndexed, 1, 'rl.jsonl, still marked changed');
    assert.equal(next.filesSkipped, 1);
    assert.deepEqual(
      index
        .models()
        .map((m) => m.name)
        .sort(),
      ['base', 'rl'],
    );
    index.close();
  });

  test('annotations follow their samples to the new names, in the index and the mirror', async () => {
    const dir = folder();
    const dbPath = join(dir, 'cache', 'index.db');
    let index = TraceIndex.open(dbPath);
    await indexFolder(index, dir);
    const oldKey = olderReaders(index, 'rl', 'rl (old name)');
    const mirror = join(dir, '.trace-inspector', 'annotations.jsonl');
    let store = new AnnotationStore(index, mirror);
    const rl = index.models().find((m) => m.key === oldKey)!;
    const p1 = index.listProblems().find((p) => p.problemId === '1')!;
    const target = index.samples(p1.id, rl.id)[2];
    const oldRef = store.refOf(target.id)!;
    assert.equal(oldRef.modelKey, oldKey);
    store.set(oldRef, ['lucky guess'], 'right answer, wrong steps', new Date('2026-01-01T00:00:00Z'));

    const s = await indexFolder(index, dir);
    assert.equal(s.annotationsReattached, 1);
    const now = index.models().find((m) => m.name === 'rl')!;
    assert.notEqual(now.key, oldKey);
    const after = index.samples(p1.id, now.id);
    assert.deepEqual(
      after.map((x) => x.labels),
      [[], [], ['lucky guess']],
      'on the same sample (problem 1, third sample of rl.jsonl line 2), no other',
    );
    const newRef = store.refOf(after[2].id)!;
    assert.equal(store.get(newRef)?.note, 'right answer, wrong steps');
    assert.equal(store.get(newRef)?.updatedAt, '2026-01-01T00:00:00.000Z', 'its time is kept (the conflict rule)');
    // the session imports the mirror after each pass: the moved annotation is written back to it
    store.importJsonl(mirror, '.trace-inspector/annotations.jsonl');
    const lines = readFileSync(mirror, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { modelKey: string });
    assert.deepEqual(lines.map((l) => l.modelKey).sort(), [now.key, oldKey].sort(), 'the old key stays as an orphan');

    // the index deleted: the mirror restores the annotation on the sample
    index.close();
    rmSync(join(dir, 'cache'), { recursive: true });
    index = TraceIndex.open(dbPath);
    await indexFolder(index, dir);
    store = new AnnotationStore(index, mirror);
    store.importJsonl(mirror);
    const m2 = index.models().find((m) => m.name === 'rl')!;
    const q1 = index.listProblems().find((p) => p.problemId === '1')!;
    assert.deepEqual(
      index.samples(q1.id, m2.id).map((x) => x.labels),
      [[], [], ['lucky guess']],
    );
    index.close();
  });

  test('the CLI says it in its progress (stderr), once', () => {
    const dir = folder();
    const tmp = tempDir('ti-readerver-cli-');
    const db = join(tmp, 'i.db');
    const first = runCli(['index', dir, '--db', db], tmp);
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /older version of the readers/);
    const index = TraceIndex.open(db);
    olderReaders(index, 'rl', 'rl (old name)');
    index.close();
    const again = runCli(['index', dir, '--db', db], tmp);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stderr.match(/index built by an older version of the readers: re-reading 2 files/g)?.length, 1);
  });
});
