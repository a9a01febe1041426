// Preloaded (NODE_OPTIONS=--require) into the first pass of scripts/test-unit.sh: records which test files
// open a SQLite database, and which SQL statements each prepares, so that the second pass
// (TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite) runs the fewest files that prepare every statement of the first
// (scripts/sqlite-cover.mjs). Both drivers are loaded lazily, on the first database opened
// (src/core/index/sqlite/), so a process that loads `better-sqlite3` or `node:sqlite` is one that opens a
// database. A test file's process names itself in SQLITE_USE_TEST_FILE; the processes and worker threads it
// starts (the CLI, workers) inherit the variable and this preload, so a database opened or a statement prepared
// by a CLI run of the test counts for the test. Lines appended to $SQLITE_USE_LOG (tab-separated):
//   <test file>  driver  <driver module>     once per process, when it loads a driver;
//   <test file>  sql     <statement>          once per process and distinct statement the product gives to
//                                             better-sqlite3's prepare or exec, normalised (`statementKey`:
//                                             whitespace, literals and placeholder lists). A statement a test
//                                             file writes itself (to look into the database it checks) is not
//                                             the product's: the first caller outside the drivers is in
//                                             out/test/, and it is not recorded.
const Module = require('node:module');
const fs = require('node:fs');

const log = process.env.SQLITE_USE_LOG;
const entry = process.argv[1] ?? '';
// only a test file's process names itself: the runner starts it with NODE_TEST_CONTEXT set (the runner's own
// argv[1] may be a glob or the first of the files it was given)
if (!process.env.SQLITE_USE_TEST_FILE && process.env.NODE_TEST_CONTEXT && /\.test\.js$/.test(entry)) {
  process.env.SQLITE_USE_TEST_FILE = entry;
}

/**
 * The statement as pass 2's cover compares it: one line, string and number literals as `?`, a list of
 * placeholders (`?, ?, ?`, `(?, ?), (?, ?)`) as one `?`. Two statements that differ only in their values or in the
 * length of an IN list run the same code.
 */
function statementKey(sql) {
  return sql
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .replace(/\?(?:\s*,\s*\?)+/g, '?')
    .replace(/\(\?\)(?:\s*,\s*\(\?\))+/g, '(?)')
    .trim();
}

/** Whether the first caller outside the SQLite drivers (ours and better-sqlite3) is product code, not a test file. */
function fromProduct() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 16;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const frame of stack.split('\n').slice(1)) {
    if (/sqlite-use\.cjs|[\\/]node_modules[\\/]better-sqlite3[\\/]|[\\/]core[\\/]index[\\/]sqlite[\\/]/.test(frame))
      continue;
    return !/[\\/]out[\\/]test[\\/]/.test(frame);
  }
  return true;
}

if (log && process.env.SQLITE_USE_TEST_FILE) {
  const file = process.env.SQLITE_USE_TEST_FILE;
  const load = Module._load;
  let recorded = false;
  const seen = new Set();
  const record = (sql) => {
    if (typeof sql !== 'string') return;
    const key = statementKey(sql);
    if (seen.has(key) || !fromProduct()) return;
    seen.add(key);
    fs.appendFileSync(log, `${file}\tsql\t${key}\n`);
  };
  Module._load = function loadRecordingSqlite(request, ...rest) {
    const mod = load.call(this, request, ...rest);
    if (!recorded && (request === 'better-sqlite3' || request === 'node:sqlite')) {
      recorded = true;
      fs.appendFileSync(log, `${file}\tdriver\t${request}\n`);
    }
    if (request === 'better-sqlite3' && typeof mod === 'function' && !mod.prototype.__sqliteUseRecorded) {
      const { prepare, exec } = mod.prototype;
      mod.prototype.prepare = function prepareRecorded(sql, ...args) {
        record(sql);
        return prepare.call(this, sql, ...args);
      };
      mod.prototype.exec = function execRecorded(sql, ...args) {
        record(sql);
        return exec.call(this, sql, ...args);
      };
      mod.prototype.__sqliteUseRecorded = true;
    }
    return mod;
  };
}

module.exports = { statementKey };
