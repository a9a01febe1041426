// Chooses the test files of pass 2 (scripts/test-unit.sh: the node:sqlite driver): the fewest, cheapest files
// that together prepare every SQL statement pass 1 saw prepared (scripts/sqlite-use.cjs's log), by the greedy
// weighted set cover (Chvátal 1979: at each step the file with the most statements not yet covered per second of
// its pass-1 time; ties by name, so the same record gives the same choice). A file whose source's first line is
// `// sqlite-parity: skip — <why>` is never chosen; a statement only such files prepare is counted as not
// covered. Two statements that differ only in their values or in the length of a placeholder list count as one.
//
// Usage: node scripts/sqlite-cover.mjs <sqlite-use.log> <unit-pass1.tsv> [test source dir]
// Prints the chosen files (paths as logged, relative to the current directory), one per line, on stdout, and on
// stderr one line saying how many files and statements, and how many statements no chosen file prepares.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const [logFile, timesFile, sourceDir = 'test/unit'] = process.argv.slice(2);
if (!logFile || !timesFile) {
  console.error('usage: sqlite-cover.mjs <sqlite-use.log> <unit-pass1.tsv> [test source dir]');
  process.exit(2);
}

/** Test file (relative path) -> its statements; files that loaded a driver but prepared nothing have none. */
const statementsOf = new Map();
for (const line of readFileSync(logFile, 'utf8').split('\n')) {
  if (!line) continue;
  const [abs, kind, ...rest] = line.split('\t');
  const file = relative('.', resolve(abs));
  if (!statementsOf.has(file)) statementsOf.set(file, new Set());
  if (kind === 'sql') statementsOf.get(file).add(rest.join('\t'));
}

/** Seconds each file took in pass 1 (scripts/test-times.mjs: `<seconds>\t<file>`); 1 s when not recorded. */
const seconds = new Map();
if (existsSync(timesFile)) {
  for (const line of readFileSync(timesFile, 'utf8').split('\n')) {
    const [s, f] = line.split('\t');
    if (f) seconds.set(relative('.', resolve(f)), Number(s));
  }
}

const skipped = (file) => {
  const src = join(sourceDir, `${basename(file, '.js')}.ts`);
  return existsSync(src) && /^\/\/ sqlite-parity: skip/.test(readFileSync(src, 'utf8'));
};

const all = new Set();
for (const s of statementsOf.values()) for (const q of s) all.add(q);
const candidates = [...statementsOf.keys()].filter((f) => !skipped(f)).sort();
const coverable = new Set();
for (const f of candidates) for (const q of statementsOf.get(f)) coverable.add(q);

const covered = new Set();
const chosen = [];
const left = new Set(candidates);
while (covered.size < coverable.size) {
  let best;
  let bestScore = 0;
  for (const f of left) {
    let fresh = 0;
    for (const q of statementsOf.get(f)) if (!covered.has(q)) fresh++;
    const score = fresh / Math.max(0.1, seconds.get(f) ?? 1);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  if (!best) break;
  left.delete(best);
  chosen.push(best);
  for (const q of statementsOf.get(best)) covered.add(q);
}

chosen.sort();
for (const f of chosen) console.log(f);
const time = chosen.reduce((a, f) => a + (seconds.get(f) ?? 1), 0);
console.error(
  `[sqlite-cover] ${chosen.length} of ${statementsOf.size} files that open a database prepare all ${covered.size} ` +
    `distinct statements of pass 1 they can (${time.toFixed(0)} s of pass-1 time); ` +
    `${all.size - coverable.size} statements only in files marked sqlite-parity: skip`,
);
