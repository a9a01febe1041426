// A node:test reporter (`--test-reporter=./scripts/test-times.mjs --test-reporter-destination=FILE`): per
// test file, the time of its top-level tests and suites (a suite's time holds its before/after hooks, so an
// end-to-end file's includes starting its workbench), one `seconds<TAB>file` line per file, slowest first.
// scripts/test.sh prints them in its summary of where the time went.
import * as path from 'node:path';

export default async function* testTimes(source) {
  const perFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const ms = event.data.details?.duration_ms ?? 0;
      perFile.set(event.data.file, (perFile.get(event.data.file) ?? 0) + ms);
    }
  }
  for (const [file, ms] of [...perFile].sort((a, b) => b[1] - a[1])) {
    yield `${(ms / 1000).toFixed(1)}\t${path.relative(process.cwd(), file)}\n`;
  }
}
