/**
 * Pass 2 of the unit suite (node:sqlite) runs the test files that scripts/sqlite-cover.mjs chooses from pass 1's
 * record (scripts/sqlite-use.cjs): the fewest, cheapest files that prepare every statement, never a file marked
 * `// sqlite-parity: skip`. These tests run both scripts as the suite does.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { tempDir } from './helpers';

const ROOT = process.cwd();
const { statementKey } = createRequire(__filename)(resolve(ROOT, 'scripts/sqlite-use.cjs')) as {
  statementKey: (sql: string) => string;
};

/** Runs sqlite-cover.mjs in `dir` on a record and pass-1 times; its stdout lines and stderr. */
function cover(dir: string, log: string[], times: string[]): { files: string[]; stderr: string } {
  writeFileSync(join(dir, 'use.log'), `${log.join('\n')}\n`);
  writeFileSync(join(dir, 'times.tsv'), `${times.join('\n')}\n`);
  const r = spawnSync(process.execPath, [resolve(ROOT, 'scripts/sqlite-cover.mjs'), 'use.log', 'times.tsv', 'src'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return { files: r.stdout.split('\n').filter(Boolean), stderr: r.stderr };
}

describe('statementKey: statements that differ only in values are one statement', () => {
  test('literals, placeholder lists, whitespace', () => {
    assert.equal(
      statementKey("SELECT id FROM samples\n  WHERE model_id = 3 AND label = 'it''s' AND problem_id IN (?, ?, ?)"),
      'SELECT id FROM samples WHERE model_id = ? AND label = ? AND problem_id IN (?)',
    );
    assert.equal(statementKey('INSERT INTO t VALUES (?, ?), (?, ?), (?, ?)'), 'INSERT INTO t VALUES (?)');
    assert.equal(statementKey('SELECT * FROM samples_fts5 LIMIT 200'), 'SELECT * FROM samples_fts5 LIMIT ?');
  });
});

describe('sqlite-use.cjs: the statements the product prepares, not those a test writes to look into a database', () => {
  test("a statement through the product's driver is recorded; one a test file prepares itself is not", () => {
    const dir = tempDir('ti-use-');
    const driver = JSON.stringify(resolve(ROOT, 'out/src/core/index/sqlite/index.js'));
    // the product: a module outside out/test/ that prepares through the driver
    writeFileSync(join(dir, 'product.js'), `exports.run = (db) => db.prepare('SELECT 2 AS product').get();\n`);
    // a test file (a path under out/test/) that prepares its own statement, then calls the product
    mkdirSync(join(dir, 'out/test'), { recursive: true });
    writeFileSync(
      join(dir, 'out/test/x.test.js'),
      `const { openDatabase } = require(${driver});\n` +
        `const db = openDatabase(${JSON.stringify(join(dir, 'x.db'))});\n` +
        `db.prepare('SELECT 1 AS own').get();\n` +
        `require(${JSON.stringify(join(dir, 'product.js'))}).run(db);\n`,
    );
    const r = spawnSync(process.execPath, [join(dir, 'out/test/x.test.js')], {
      encoding: 'utf8',
      env: {
        ...process.env,
        TRACE_INSPECTOR_SQLITE_DRIVER: 'better-sqlite3',
        SQLITE_USE_LOG: join(dir, 'use.log'),
        SQLITE_USE_TEST_FILE: 'out/test/x.test.js',
        NODE_OPTIONS: `--require ${resolve(ROOT, 'scripts/sqlite-use.cjs')}`,
      },
    });
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(join(dir, 'use.log'), 'utf8').split('\n').filter(Boolean);
    assert.ok(lines.includes('out/test/x.test.js\tdriver\tbetter-sqlite3'), lines.join('\n'));
    assert.ok(lines.includes('out/test/x.test.js\tsql\tSELECT ? AS product'), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('AS own')), lines.join('\n'));
  });
});

describe('sqlite-cover.mjs: the fewest, cheapest files that prepare every statement', () => {
  test('a cheap file with the same statements is chosen over a slow one; a skipped file never', () => {
    const dir = tempDir('ti-cover-');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/slow.ts'), '// a test\n');
    writeFileSync(join(dir, 'src/quick.ts'), '// a test\n');
    writeFileSync(join(dir, 'src/own.ts'), '// a test\n');
    writeFileSync(join(dir, 'src/marked.ts'), '// sqlite-parity: skip — its subject is naming\n');
    const log = [
      'out/slow.js\tdriver\tbetter-sqlite3',
      'out/slow.js\tsql\tSELECT a',
      'out/slow.js\tsql\tSELECT b',
      'out/quick.js\tdriver\tbetter-sqlite3',
      'out/quick.js\tsql\tSELECT a',
      'out/quick.js\tsql\tSELECT b',
      'out/own.js\tsql\tSELECT c',
      'out/marked.js\tsql\tSELECT d',
      'out/marked.js\tsql\tSELECT a',
    ];
    const { files, stderr } = cover(dir, log, [
      '30\tout/slow.js',
      '2\tout/quick.js',
      '5\tout/own.js',
      '1\tout/marked.js',
    ]);
    assert.deepEqual(files, ['out/own.js', 'out/quick.js']);
    assert.match(
      stderr,
      /2 of 4 files that open a database prepare all 3 distinct statements .*; 1 statements only in files marked sqlite-parity: skip/,
    );
  });

  test('a file whose every statement another chosen file prepares is left out', () => {
    const dir = tempDir('ti-cover-');
    mkdirSync(join(dir, 'src'));
    const log = ['a.js\tsql\tS1', 'a.js\tsql\tS2', 'a.js\tsql\tS3', 'b.js\tsql\tS2', 'c.js\tsql\tS3', 'c.js\tsql\tS4'];
    assert.deepEqual(cover(dir, log, ['1\ta.js', '1\tb.js', '1\tc.js']).files, ['a.js', 'c.js']);
  });
});
