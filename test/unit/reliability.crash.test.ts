/**
 * Crashes and concurrency: the CLI indexer killed with SIGKILL mid-index (during a batched new file
 * and during the atomic replacement of a changed file), two indexers on one database, annotation
 * writes from another connection while indexing, and annotations surviving re-indexing, rewritten
 * files, a deleted index and conflicting mirror edits. Results folders are generated into temporary
 * folders; the CLI runs in child processes (the compiled out/src/cli/main.js).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore, MIRROR_RELATIVE_PATH } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { IndexBusyError } from '../../src/core/index/lock';
import { type Database, isBusyError, openDatabase } from '../../src/core/index/sqlite';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { tempDir } from './helpers';
import { rolloutLine, sleep, startCli, writeRollouts } from './reliability.support';

/** Polls `check` against a read-only connection every 10 ms until it returns true (or `timeoutMs`). */
async function pollDb(
  dbPath: string,
  check: (db: Database) => boolean,
  child: ChildProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`the child exited (${child.exitCode}) before the awaited state`);
    try {
      const db = openDatabase(dbPath, { readonly: true, timeoutMs: 100 });
      try {
        if (check(db)) return;
      } finally {
        db.close();
      }
    } catch (e) {
      if (!/no such table|SQLITE_BUSY|database is locked|unable to open/i.test(String(e))) throw e;
    }
    await sleep(10);
  }
  throw new Error('timed out waiting for the database state');
}

function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

const fileRow = (db: Database, path: string) =>
  db.prepare('SELECT status, samples, hash FROM files WHERE path = ?').get(path) as
    | { status: string; samples: number; hash: string }
    | undefined;

function counts(index: TraceIndex): Record<string, [number, number, number]> {
  return Object.fromEntries(index.models().map((m) => [m.displayId, [m.problems, m.samples, m.correct]]));
}

/** Labels of every annotated sample currently attached, as `model/problem/index: labels`. */
function attached(index: TraceIndex): string[] {
  const out: string[] = [];
  const models = index.models();
  for (const p of index.listProblems({ kind: 'label', label: 'lucky guess' }, 0, 1000)) {
    for (const m of models) {
      for (const s of index.samples(p.id, m.id, { limit: 1000 }))
        if (s.labels.length) out.push(`${m.name}/${p.problemId}/${s.sampleIndex}: ${s.labels.join(',')}`);
    }
  }
  return out.sort();
}

describe('SIGKILL mid-index', () => {
  test('killed during a batched new file and during an atomic replacement: the database opens, the previous index and every annotation are intact, the next pass completes', async () => {
    const dir = tempDir('rel-kill-');
    const folder = join(dir, 'results');
    mkdirSync(folder);
    const dbPath = join(dir, 'index.db');
    // v1: b-big.jsonl with 2000 problems x 10 samples, indexed and annotated
    const bigCorrectV1 = writeRollouts(join(folder, 'b-big.jsonl'), 'big', 2000, 10, 0);
    let index = TraceIndex.open(dbPath);
    await indexFolder(index, folder);
    const store = new AnnotationStore(index, join(folder, ...MIRROR_RELATIVE_PATH.split('/')));
    const big = index.models()[0];
    for (const qid of ['3', '1999']) {
      const p = index.listProblems({ kind: 'all' }, 0, 5000).find((x) => x.problemId === qid)!;
      const s = index.samples(p.id, big.id)[2];
      store.set(store.refOf(s.id)!, ['lucky guess'], `note on ${qid}`, new Date('2026-01-02T03:04:05Z'));
    }
    const annotationsBefore = store.all();
    const v1Hash = fileRow(index.db, 'b-big.jsonl')!.hash;
    assert.deepEqual(attached(index), ['big/1999/2: lucky guess', 'big/3/2: lucky guess']);
    index.close();

    // v2: the same 2000 problems plus 400 more (a changed file: replaced atomically), and a new
    // 25 000-sample file (written in batches: 2000 first, then 20 000).
    const extra = writeRollouts(join(dir, 'extra.jsonl'), 'big', 2400, 10, 0);
    appendFileSync(
      join(folder, 'b-big.jsonl'),
      readFileSync(join(dir, 'extra.jsonl'), 'utf8').split('\n').slice(2000).join('\n'),
    );
    const newCorrect = writeRollouts(join(folder, 'a-new.jsonl'), 'new', 2500, 10, 1);

    // Kill 1: after the first batch of a-new.jsonl is committed.
    let child = startCli(['index', folder, '--db', dbPath, '--format', 'json', '-q']);
    let end = exited(child);
    await pollDb(dbPath, (db) => (fileRow(db, 'a-new.jsonl')?.samples ?? 0) > 0, child);
    child.kill('SIGKILL');
    let r = await end;
    assert.equal(r.signal, 'SIGKILL', 'killed before it finished');
    index = TraceIndex.open(dbPath);
    assert.equal(index.db.pragma('integrity_check', { simple: true }), 'ok');
    // A new file commits a first batch of 2000 samples (queryable at once), then batches of 20 000.
    const partial = fileRow(index.db, 'a-new.jsonl')!;
    assert.equal(partial.status, 'partial');
    assert.ok([2000, 22000].includes(partial.samples), `committed batches only: ${partial.samples}`);
    assert.deepEqual(fileRow(index.db, 'b-big.jsonl'), { status: 'ready', samples: 20000, hash: v1Hash });
    assert.deepEqual(counts(index).big, [2000, 20000, bigCorrectV1]);
    assert.deepEqual(new AnnotationStore(index).all(), annotationsBefore);
    index.close();

    // Kill 2: a-new.jsonl is redone and committed; b-big.jsonl is being replaced (one transaction).
    child = startCli(['index', folder, '--db', dbPath, '--format', 'json', '-q']);
    end = exited(child);
    await pollDb(dbPath, (db) => fileRow(db, 'a-new.jsonl')?.status === 'ready', child);
    await sleep(20);
    child.kill('SIGKILL');
    r = await end;
    assert.equal(r.signal, 'SIGKILL', 'killed before it finished');
    index = TraceIndex.open(dbPath);
    assert.equal(index.db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(
      fileRow(index.db, 'b-big.jsonl'),
      { status: 'ready', samples: 20000, hash: v1Hash },
      'the old version stays until the new one commits',
    );
    assert.deepEqual(counts(index), { big: [2000, 20000, bigCorrectV1], new: [2500, 25000, newCorrect] });
    assert.deepEqual(attached(index), ['big/1999/2: lucky guess', 'big/3/2: lucky guess']);
    index.close();

    // The next pass completes with exact counts; the annotations still attach (same texts).
    child = startCli(['index', folder, '--db', dbPath, '--format', 'json', '-q']);
    r = await exited(child);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { filesIndexed: number; samples: number; diagnostics: unknown[] };
    assert.deepEqual([summary.filesIndexed, summary.samples, summary.diagnostics], [1, 49000, []]);
    index = TraceIndex.open(dbPath);
    assert.deepEqual(counts(index), { big: [2400, 24000, extra], new: [2500, 25000, newCorrect] });
    assert.deepEqual(attached(index), ['big/1999/2: lucky guess', 'big/3/2: lucky guess']);
    assert.equal(
      index.getMeta('indexer_lock'),
      undefined,
      'the stale lock of the killed process was taken over and released',
    );
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('two writers on one database', () => {
  /** Whether some connection holds the write lock (a probe BEGIN IMMEDIATE that does not wait). */
  function writeLocked(dbPath: string): boolean {
    const db = openDatabase(dbPath, { timeoutMs: 0 });
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
      return false;
    } catch (e) {
      if (isBusyError(e)) return true;
      throw e;
    } finally {
      db.close();
    }
  }

  /** Stops `child` (SIGSTOP) at a moment where it does (`inTx`) or does not hold the write lock. */
  async function stopWhere(child: ChildProcess, dbPath: string, inTx: boolean): Promise<void> {
    for (let i = 0; i < 2000; i++) {
      child.kill('SIGSTOP');
      await sleep(5);
      if (writeLocked(dbPath) === inTx) return;
      child.kill('SIGCONT');
      await sleep(i % 7);
    }
    throw new Error('could not stop the indexer in the wanted state');
  }

  test('a second indexer (CLI, or in-process as in a second window) gets the clear busy error; annotations written meanwhile are kept', async () => {
    const dir = tempDir('rel-two-');
    const folder = join(dir, 'results');
    mkdirSync(folder);
    const dbPath = join(dir, 'index.db');
    writeFileSync(join(folder, 'a-small.jsonl'), `${rolloutLine(0, 'small', [true, false, true])}\n`);
    let index = TraceIndex.open(dbPath);
    await indexFolder(index, folder);
    index.close();
    const correct = writeRollouts(join(folder, 'b-large.jsonl'), 'large', 8000, 10, 2);

    const first = startCli(['index', folder, '--db', dbPath, '--format', 'json', '-q']);
    const firstEnd = exited(first);
    try {
      await pollDb(dbPath, (db) => (fileRow(db, 'b-large.jsonl')?.samples ?? 0) > 0, first);

      // The first indexer is alive between two batches: a second CLI indexer is refused at once (exit 1).
      await stopWhere(first, dbPath, false);
      const second = await exited(startCli(['index', folder, '--db', dbPath, '--format', 'json', '-q']));
      assert.equal(second.code, 1);
      assert.match(
        second.stderr,
        /^trace-inspector: another indexer \(pid \d+ on .+\) is writing this index; try again when it finishes\n$/,
      );
      // The extension's indexer in another window (in-process here): the same error, as an IndexBusyError.
      const other = TraceIndex.open(dbPath, { busyTimeoutMs: 300 });
      await assert.rejects(
        indexFolder(other, folder),
        (e: Error) => e instanceof IndexBusyError && /another indexer \(pid \d+/.test(e.message),
      );

      // The first indexer is inside a write transaction for longer than the busy timeout: still the clear error.
      first.kill('SIGCONT');
      await stopWhere(first, dbPath, true);
      await assert.rejects(
        indexFolder(other, folder),
        (e: Error) => e instanceof IndexBusyError && /another process is writing this index/.test(e.message),
      );
      first.kill('SIGCONT');

      // An annotation written from the other window while the first indexer runs waits for its batch and is kept.
      other.close();
      const annotator = TraceIndex.open(dbPath);
      const mirror = join(folder, ...MIRROR_RELATIVE_PATH.split('/'));
      const store = new AnnotationStore(annotator, mirror);
      const small = annotator.models().find((m) => m.name === 'small')!;
      const p0 = annotator.listProblems().find((p) => p.problemId === '0')!;
      const s = annotator.samples(p0.id, small.id)[1];
      store.set(store.refOf(s.id)!, ['lucky guess'], 'written during indexing');
      annotator.close();

      const r = await firstEnd;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).samples, 80003);
      index = TraceIndex.open(dbPath);
      assert.equal(index.db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(counts(index), { small: [1, 3, 2], large: [8000, 80000, correct] });
      assert.deepEqual(attached(index), ['small/0/1: lucky guess']);
      assert.equal(readFileSync(mirror, 'utf8').trim().split('\n').length, 1);
      index.close();
    } finally {
      if (first.exitCode === null) {
        first.kill('SIGCONT');
        first.kill('SIGKILL');
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('annotations are never lost', () => {
  test('re-indexing, a rewritten file with the same samples, a deleted index, and a conflicting mirror edit', async () => {
    const dir = tempDir('rel-ann-');
    const folder = join(dir, 'results');
    mkdirSync(folder);
    const file = join(folder, 'r.jsonl');
    const lines = [rolloutLine(0, 'm', [true, false, true]), rolloutLine(1, 'm', [false, false])];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const dbPath = join(dir, 'cache', 'index.db');
    const mirror = join(folder, ...MIRROR_RELATIVE_PATH.split('/'));
    let index = TraceIndex.open(dbPath);
    await indexFolder(index, folder);
    let store = new AnnotationStore(index, mirror);
    const m = index.models()[0];
    const [p0, p1] = index.listProblems();
    store.set(
      store.refOf(index.samples(p0.id, m.id)[1].id)!,
      ['lucky guess'],
      'first',
      new Date('2026-01-01T00:00:00Z'),
    );
    store.set(
      store.refOf(index.samples(p1.id, m.id)[0].id)!,
      ['lucky guess', 'grader error'],
      'second',
      new Date('2026-01-01T00:00:00Z'),
    );
    const expected = ['m/0/1: lucky guess', 'm/1/0: lucky guess,grader error'];
    assert.deepEqual(attached(index), expected);

    // 1. re-indexing (unchanged and forced by a touched file)
    await indexFolder(index, folder);
    assert.deepEqual(attached(index), expected);
    // 2. the file rewritten with the same samples in another order and with CRLF endings
    writeFileSync(file, `${[...lines].reverse().join('\r\n')}\r\n`);
    const re = await indexFolder(index, folder);
    assert.equal(re.filesIndexed, 1);
    assert.deepEqual(attached(index), expected);
    // 3. the index deleted: the mirror restores every annotation
    index.close();
    rmSync(join(dir, 'cache'), { recursive: true });
    index = TraceIndex.open(dbPath);
    await indexFolder(index, folder);
    store = new AnnotationStore(index, mirror);
    assert.deepEqual(store.importJsonl(mirror).added, 2);
    assert.deepEqual(attached(index), expected);
    // 4. a conflicting edit in the mirror (e.g. from git): the later updatedAt wins, per annotation
    const mirrorLines = readFileSync(mirror, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    mirrorLines[0] = {
      ...mirrorLines[0],
      labels: ['lucky guess', 'truncated'],
      note: 'edited in git',
      updatedAt: '2026-03-01T00:00:00.000Z',
    };
    mirrorLines[1] = {
      ...mirrorLines[1],
      labels: ['lucky guess', 'reward hacking'],
      note: 'older edit',
      updatedAt: '2025-12-01T00:00:00.000Z',
    };
    writeFileSync(mirror, `${mirrorLines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const merged = store.importJsonl(mirror);
    assert.deepEqual([merged.added, merged.updated, merged.unchanged], [0, 1, 1]);
    assert.deepEqual(attached(index), ['m/0/1: lucky guess,truncated', 'm/1/0: lucky guess,grader error']);
    // the mirror is rewritten to agree with the index (the losing older edit is replaced)
    const after = readFileSync(mirror, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { note: string });
    assert.deepEqual(
      after.map((a) => a.note),
      ['edited in git', 'second'],
    );
    // 5. the CLI (another process) re-indexes the folder into its own index: it restores them too
    index.close();
    const child = startCli(['index', folder, '--db', join(dir, 'cli.db'), '--format', 'json', '-q']);
    const r = await exited(child);
    assert.equal(r.code, 0, r.stderr);
    index = TraceIndex.open(join(dir, 'cli.db'));
    assert.deepEqual(attached(index), ['m/0/1: lucky guess,truncated', 'm/1/0: lucky guess,grader error']);
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
