// Preloaded (NODE_OPTIONS=--require) into the first pass of scripts/test-unit.sh: records which test files
// open a SQLite database, so that the second pass (TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite) runs exactly
// those. Both drivers are loaded lazily, on the first database opened (src/core/index/sqlite/), so a process
// that loads `better-sqlite3` or `node:sqlite` is one that opens a database. A test file's process names
// itself in SQLITE_USE_TEST_FILE; the processes it starts (the CLI, workers) inherit the variable, so a
// database opened by a CLI run of the test counts for the test. One line per load is appended to
// $SQLITE_USE_LOG: `<test file>\t<driver module>`.
const Module = require('node:module');
const fs = require('node:fs');

const log = process.env.SQLITE_USE_LOG;
const entry = process.argv[1] ?? '';
// the test runner's own argv[1] is the glob it was given: only a test file's process names itself
if (!process.env.SQLITE_USE_TEST_FILE && /\.test\.js$/.test(entry) && !entry.includes('*')) {
  process.env.SQLITE_USE_TEST_FILE = entry;
}
if (log && process.env.SQLITE_USE_TEST_FILE) {
  const load = Module._load;
  let recorded = false;
  Module._load = function loadRecordingSqlite(request, ...rest) {
    if (!recorded && (request === 'better-sqlite3' || request === 'node:sqlite')) {
      recorded = true;
      fs.appendFileSync(log, `${process.env.SQLITE_USE_TEST_FILE}\t${request}\n`);
    }
    return load.call(this, request, ...rest);
  };
}
