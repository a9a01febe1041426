/**
 * The SQLite interface (src/core/index/sqlite) behaves the same on both drivers, better-sqlite3 and
 * node:sqlite: every case runs once per driver on its own database file (never one file with both at
 * once), and the expected values are written here by hand, not taken from the other driver. Then an
 * index written by one driver is read, annotated and re-indexed with the other, both ways.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import {
  SQLITE_DRIVERS,
  SQLITE_DRIVER_ENV,
  type Database,
  type SqliteDriverName,
  isBusyError,
  openDatabase,
  sqliteCodeName,
  sqliteErrorCode,
} from '../../src/core/index/sqlite';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { REAL, tempDir } from './helpers';
import { rolloutLine } from './reliability.support';

/** Every case here picks its driver itself: run once, in the pass without a forced driver (scripts/test-unit.sh). */
const skip = process.env[SQLITE_DRIVER_ENV]
  ? `driver-independent; runs in the pass without ${SQLITE_DRIVER_ENV}`
  : false;

/** Runs `fn` on a fresh file database of `driver`, closed afterwards. */
function withDb(driver: SqliteDriverName, fn: (db: Database, path: string) => void, timeoutMs = 5000): void {
  const dir = tempDir('sqlite-');
  const path = join(dir, 'x.db');
  const db = openDatabase(path, { driver, timeoutMs });
  try {
    fn(db, path);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether `e` is an error whose `code` is `code` (both drivers' errors carry better-sqlite3's names). */
const hasCode = (code: string) => (e: unknown) => sqliteErrorCode(e) === code;

for (const driver of SQLITE_DRIVERS) {
  describe(`SQLite interface on ${driver}`, { skip }, () => {
    test('the connection says which driver it runs on', () => {
      withDb(driver, (db) => assert.equal(db.driver, driver));
    });

    test('rows are plain objects keyed by column name; a later column of the same name wins', () => {
      withDb(driver, (db) => {
        const row = db.prepare("SELECT 1 AS a, 'x' AS b, 2.5 AS c, NULL AS d, 3 AS a").get();
        assert.equal(Object.getPrototypeOf(row), Object.prototype);
        assert.deepEqual(row, { a: 3, b: 'x', c: 2.5, d: null });
        assert.equal(db.prepare('SELECT 1 AS a WHERE 0').get(), undefined);
        assert.deepEqual(db.prepare('SELECT 1 AS a WHERE 0').all(), []);
      });
    });

    test('positional and named parameters (object first, keys without prefix), mixed', () => {
      withDb(driver, (db) => {
        assert.deepEqual(db.prepare('SELECT ? AS x, ? AS y').get(1, 'two'), { x: 1, y: 'two' });
        assert.deepEqual(db.prepare('SELECT :a AS a, @b AS b, $c AS c').get({ a: 1, b: 'b', c: null }), {
          a: 1,
          b: 'b',
          c: null,
        });
        assert.deepEqual(db.prepare('SELECT :a AS a, ? AS q').get({ a: 1 }, 5), { a: 1, q: 5 });
      });
    });

    test('undefined binds as NULL; booleans are refused (bind 1/0)', () => {
      withDb(driver, (db) => {
        assert.deepEqual(db.prepare('SELECT ? AS x, typeof(?) AS t').get(undefined, undefined), {
          x: null,
          t: 'null',
        });
        assert.deepEqual(db.prepare('SELECT :a AS a').get({ a: undefined }), { a: null });
        assert.throws(() => db.prepare('SELECT ?').get(true), TypeError);
      });
    });

    test('UTF-8 bytes bound as a BLOB and CAST AS TEXT are stored as that text (as the indexer stores texts)', () => {
      withDb(driver, (db) => {
        db.exec('CREATE TABLE t (x TEXT)');
        const text = 'héllo ∑ 😀';
        const bytes = new TextEncoder().encode(text);
        db.prepare('INSERT INTO t VALUES (CAST(? AS TEXT))').run(bytes);
        db.prepare('INSERT INTO t VALUES (CAST(? AS TEXT))').run(Buffer.from(bytes));
        assert.deepEqual(db.prepare('SELECT x, typeof(x) AS t FROM t').all(), [
          { x: text, t: 'text' },
          { x: text, t: 'text' },
        ]);
      });
    });

    test('text holding NUL characters reads back whole (node:sqlite alone stops at the first NUL)', () => {
      withDb(driver, (db) => {
        db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT, n INTEGER)');
        const texts = ['a\u0000b', '\u0000', 'no nul', 'x\u0000y\u0000z 😀'];
        const ins = db.prepare('INSERT INTO t (x, n) VALUES (?, ?)');
        for (const [i, t] of texts.entries()) ins.run(t, i);
        assert.deepEqual(
          db.prepare('SELECT length(CAST(x AS BLOB)) FROM t ORDER BY id').pluck().all(),
          [3, 1, 6, 10],
          'stored whole',
        );
        assert.deepEqual(
          db.prepare('SELECT x FROM t ORDER BY id DESC').pluck().all(),
          [...texts].reverse(),
          'order kept',
        );
        assert.deepEqual(db.prepare('SELECT x, n FROM t WHERE id = ?').get(1), { x: 'a\u0000b', n: 0 });
        assert.deepEqual([...db.prepare('SELECT x AS y, x FROM t ORDER BY id').iterate()].at(-1), {
          y: texts[3],
          x: texts[3],
        });
        // a real BLOB stays a BLOB
        const blob = db.prepare('SELECT CAST(x AS BLOB) AS b FROM t WHERE id = 1').get() as { b: Uint8Array };
        assert.deepEqual([...blob.b], [97, 0, 98]);
      });
    });

    test('INTEGERs are numbers; one beyond 2^53 is a lossy number, never an error (get, all, iterate, pluck)', () => {
      withDb(driver, (db) => {
        db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
        db.exec('INSERT INTO t VALUES (1, 7), (2, 9007199254740993), (3, -9223372036854775808)');
        const big = 9007199254740993;
        assert.equal(typeof db.prepare('SELECT v FROM t WHERE id = 1').pluck().get(), 'number');
        assert.deepEqual(db.prepare('SELECT v FROM t WHERE id = 2').get(), { v: big });
        assert.deepEqual(db.prepare('SELECT v FROM t ORDER BY id').pluck().all(), [7, big, -9223372036854775808]);
        assert.deepEqual(
          [...db.prepare('SELECT id, v FROM t ORDER BY id').iterate()],
          [
            { id: 1, v: 7 },
            { id: 2, v: big },
            { id: 3, v: -9223372036854775808 },
          ],
        );
        // a statement that writes and returns rows reads its rows the same way
        assert.deepEqual(db.prepare('INSERT INTO t VALUES (4, 9007199254740995) RETURNING id, v').get(), {
          id: 4,
          v: 9007199254740996,
        });
        assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 4, 'the RETURNING insert ran once');
      });
    });

    test('run() gives changes and lastInsertRowid as numbers', () => {
      withDb(driver, (db) => {
        db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v)');
        assert.deepEqual(db.prepare('INSERT INTO t (v) VALUES (?), (?)').run('a', 'b'), {
          changes: 2,
          lastInsertRowid: 2,
        });
        assert.equal(db.prepare('UPDATE t SET v = ?').run('c').changes, 2);
      });
    });

    test('pluck() stays switched until pluck(false); iterate can stop early', () => {
      withDb(driver, (db) => {
        const st = db.prepare('SELECT value AS v, value * 2 AS w FROM json_each(?)');
        assert.deepEqual(st.pluck().all('[1,2,3]'), [1, 2, 3]);
        assert.equal(st.get('[4]'), 4);
        assert.deepEqual(st.pluck(false).get('[4]'), { v: 4, w: 8 });
        const seen: unknown[] = [];
        for (const r of st.iterate('[1,2,3,4]')) {
          seen.push(r);
          if (seen.length === 2) break;
        }
        assert.deepEqual(seen, [
          { v: 1, w: 2 },
          { v: 2, w: 4 },
        ]);
        assert.deepEqual(st.all('[5]'), [{ v: 5, w: 10 }], 'the statement is usable after the early stop');
      });
    });

    test('transactions: commit, rollback on throw, nested ones as savepoints, .immediate, no promises', () => {
      withDb(driver, (db) => {
        db.exec('CREATE TABLE t (v INTEGER)');
        const count = () => db.prepare('SELECT count(*) FROM t').pluck().get();
        const ins = db.prepare('INSERT INTO t VALUES (?)');
        const add = db.transaction((n: number) => {
          assert.equal(db.inTransaction, true);
          ins.run(n);
          return n * 2;
        });
        assert.equal(add(1), 2);
        assert.equal(db.inTransaction, false);
        assert.equal(count(), 1);
        assert.throws(
          db.transaction(() => {
            ins.run(2);
            throw new Error('boom');
          }),
          /boom/,
        );
        assert.equal(count(), 1, 'rolled back');
        // the inner transaction fails and is caught: only its rows go
        db.transaction(() => {
          ins.run(3);
          try {
            db.transaction(() => {
              ins.run(4);
              throw new Error('inner');
            })();
          } catch {
            // keep the outer
          }
          assert.equal(db.inTransaction, true);
          add(5);
        })();
        assert.deepEqual(db.prepare('SELECT v FROM t ORDER BY v').pluck().all(), [1, 3, 5]);
        // an outer failure undoes the inner, already released, savepoint too
        assert.throws(
          db.transaction(() => {
            add(6);
            throw new Error('outer');
          }),
          /outer/,
        );
        assert.equal(count(), 3);
        assert.equal(db.transaction(() => count()).immediate(), 3);
        assert.throws(db.transaction((() => Promise.resolve(1)) as () => unknown), TypeError);
        assert.equal(db.inTransaction, false);
        assert.equal(count(), 3);
      });
    });

    test('pragma: rows, or the first value with simple; a pragma that sets returns nothing', () => {
      withDb(driver, (db) => {
        assert.equal(db.pragma('journal_mode = WAL', { simple: true }), 'wal');
        assert.deepEqual(db.pragma('journal_mode'), [{ journal_mode: 'wal' }]);
        assert.deepEqual(db.pragma('user_version = 7'), []);
        assert.equal(db.pragma('user_version', { simple: true }), 7);
        assert.equal(db.pragma('cache_size = -1234', { simple: true }), undefined);
        assert.equal(db.pragma('cache_size', { simple: true }), -1234);
      });
    });

    test('errors carry better-sqlite3 code names and SQLite messages', () => {
      withDb(driver, (db) => {
        db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, u TEXT UNIQUE, n TEXT NOT NULL)');
        db.prepare("INSERT INTO t VALUES (1, 'a', 'x')").run();
        assert.throws(
          () => db.prepare("INSERT INTO t VALUES (1, 'b', 'x')").run(),
          (e: Error) => {
            return hasCode('SQLITE_CONSTRAINT_PRIMARYKEY')(e) && /UNIQUE constraint failed: t\.k/.test(e.message);
          },
        );
        assert.throws(
          () => db.prepare("INSERT INTO t VALUES (2, 'a', 'x')").run(),
          hasCode('SQLITE_CONSTRAINT_UNIQUE'),
        );
        assert.throws(
          () => db.prepare("INSERT INTO t VALUES (3, 'c', NULL)").run(),
          hasCode('SQLITE_CONSTRAINT_NOTNULL'),
        );
        assert.throws(
          () => db.prepare('SELEC 1'),
          (e: Error) => hasCode('SQLITE_ERROR')(e) && /syntax error/.test(e.message),
        );
        assert.throws(() => db.exec('SELECT * FROM missing'), /no such table: missing/);
      });
    });

    test("busy timeout: a write waits for another connection's lock, then fails with SQLITE_BUSY (isBusyError)", () => {
      withDb(
        driver,
        (db, path) => {
          db.pragma('journal_mode = WAL');
          db.exec('CREATE TABLE t (v)');
          const other = openDatabase(path, { driver, timeoutMs: 50 });
          try {
            other.exec('BEGIN IMMEDIATE');
            assert.throws(
              () => db.prepare('INSERT INTO t VALUES (1)').run(),
              (e: Error) => {
                return isBusyError(e) && sqliteErrorCode(e) === 'SQLITE_BUSY' && /database is locked/.test(e.message);
              },
            );
            // the connection's busy timeout is the one asked for (SQLite waits that long before SQLITE_BUSY)
            assert.equal(db.pragma('busy_timeout', { simple: true }), 200);
            assert.equal(other.pragma('busy_timeout', { simple: true }), 50);
            assert.throws(() => db.exec('BEGIN IMMEDIATE'), isBusyError);
            // WAL: a reader is not blocked by the writer
            assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 0);
            other.exec('ROLLBACK');
            db.prepare('INSERT INTO t VALUES (1)').run();
          } finally {
            other.close();
          }
        },
        200,
      );
    });

    test('read-only connections read and refuse writes (SQLITE_READONLY)', () => {
      withDb(driver, (db, path) => {
        db.exec('CREATE TABLE t (v); INSERT INTO t VALUES (1)');
        const ro = openDatabase(path, { driver, readonly: true });
        try {
          assert.equal(ro.prepare('SELECT v FROM t').pluck().get(), 1);
          assert.throws(() => ro.exec('INSERT INTO t VALUES (2)'), hasCode('SQLITE_READONLY'));
        } finally {
          ro.close();
        }
      });
    });

    test('defensive mode: a shadow table cannot be dropped until unsafeMode(true) (where the driver has the flag)', () => {
      withDb(driver, (db) => {
        db.exec(
          "CREATE VIRTUAL TABLE f USING fts5 (text, p UNINDEXED, content='', contentless_delete=1, contentless_unindexed=1)",
        );
        const dropShadow = () => db.exec('DROP TABLE f_content');
        // better-sqlite3 always runs defensive; node:sqlite only where Node has enableDefensive (not Node 22)
        const hasDefensive =
          driver === 'better-sqlite3' || 'enableDefensive' in require('node:sqlite').DatabaseSync.prototype;
        if (hasDefensive) assert.throws(dropShadow, /may not be dropped|table f_content may not be modified/);
        db.unsafeMode(true);
        dropShadow();
        db.unsafeMode(false);
        assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'f_content'").pluck().get(), 0);
      });
    });

    test('a statement prepared after a schema change sees the new columns', () => {
      withDb(driver, (db) => {
        db.exec("CREATE TABLE t (a); INSERT INTO t VALUES (1); ALTER TABLE t ADD COLUMN b DEFAULT 'x'");
        assert.deepEqual(db.prepare('SELECT * FROM t').get(), { a: 1, b: 'x' });
      });
    });

    test('close() twice is fine; a statement after close throws; open says so', () => {
      const dir = tempDir('sqlite-');
      const db = openDatabase(join(dir, 'x.db'), { driver });
      const st = db.prepare('SELECT 1');
      assert.equal(db.open, true);
      db.close();
      db.close();
      assert.equal(db.open, false);
      assert.equal(db.inTransaction, false);
      assert.throws(() => st.get());
      rmSync(dir, { recursive: true, force: true });
    });
  });
}

describe('SQLite result code names', { skip }, () => {
  test('primary and extended codes by sqlite3.h', () => {
    assert.equal(sqliteCodeName(5), 'SQLITE_BUSY');
    assert.equal(sqliteCodeName(517), 'SQLITE_BUSY_SNAPSHOT');
    assert.equal(sqliteCodeName(1555), 'SQLITE_CONSTRAINT_PRIMARYKEY');
    assert.equal(sqliteCodeName(2067), 'SQLITE_CONSTRAINT_UNIQUE');
    assert.equal(sqliteCodeName(1299), 'SQLITE_CONSTRAINT_NOTNULL');
    assert.equal(sqliteCodeName(266), 'SQLITE_IOERR_READ');
    assert.equal(sqliteCodeName(3338), 'SQLITE_IOERR_ACCESS');
    assert.equal(sqliteCodeName(516), 'SQLITE_ABORT_ROLLBACK');
    assert.equal(sqliteCodeName(8), 'SQLITE_READONLY');
    assert.equal(sqliteCodeName(14), 'SQLITE_CANTOPEN');
    assert.equal(sqliteCodeName(4 | (1 << 8)), 'SQLITE_ABORT', 'an unknown extended code falls back to its primary');
    assert.equal(isBusyError({ code: 'SQLITE_BUSY_RECOVERY' }), true);
    assert.equal(isBusyError({ code: 'SQLITE_LOCKED' }), false);
    assert.equal(isBusyError(new Error('database is locked')), false);
  });
});

describe('an index written by one driver opens with the other', { skip }, () => {
  for (const [first, second] of [
    ['better-sqlite3', 'node:sqlite'],
    ['node:sqlite', 'better-sqlite3'],
  ] as const) {
    test(`written by ${first}, then read, annotated and re-indexed by ${second}`, async () => {
      const dir = tempDir('cross-');
      const folder = join(dir, 'results');
      const dbPath = join(dir, 'index.db');
      const { cpSync } = await import('node:fs');
      cpSync(join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched'), folder, { recursive: true });

      let index = TraceIndex.open(dbPath, { driver: first });
      assert.equal(index.db.driver, first);
      await indexFolder(index, folder);
      const models = index.models();
      const stats = index.allStats();
      const problems = index.listProblems();
      const hits = index.search('dollars', 1000).map((s) => s.id);
      const sample = index.sample(index.samples(problems[3].id, models[0].id)[2].id)!;
      const ref = new AnnotationStore(index).refOf(sample.id)!;
      new AnnotationStore(index).set(ref, ['lucky guess'], `by ${first}`, new Date('2026-01-01T00:00:00Z'));
      index.close();

      index = TraceIndex.open(dbPath, { driver: second });
      assert.equal(index.db.driver, second);
      assert.equal(index.db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(index.models(), models);
      assert.deepEqual(index.allStats(), stats);
      assert.deepEqual(index.listProblems(), problems);
      assert.deepEqual(
        index.search('dollars', 1000).map((s) => s.id),
        hits,
      );
      assert.ok(hits.length > 0);
      assert.deepEqual(index.sample(sample.id), { ...sample, labels: ['lucky guess'], hasNote: true });
      assert.equal(new AnnotationStore(index).get(ref)?.note, `by ${first}`);
      // the second driver writes: a new file, FTS included, and an annotation change
      writeFileSync(
        join(folder, 'extra.jsonl'),
        `${rolloutLine(999, 'extra-model', [true, false], () => 'zebra words')}\n`,
      );
      const summary = await indexFolder(index, folder);
      assert.equal(summary.filesIndexed, 1);
      new AnnotationStore(index).set(ref, ['grader error'], `by ${second}`, new Date('2026-01-02T00:00:00Z'));
      index.close();

      index = TraceIndex.open(dbPath, { driver: first });
      assert.equal(index.db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(index.search('zebra').length, 2);
      assert.equal(index.models().length, models.length + 1);
      assert.deepEqual(new AnnotationStore(index).get(ref)?.labels, ['grader error']);
      assert.equal((await indexFolder(index, folder)).samplesWritten, 0, 'nothing to redo');
      index.close();
      rmSync(dir, { recursive: true, force: true });
    });
  }
});
