/**
 * The report of every real results folder (../shared/data/real, read in place) is byte-identical to the
 * one kept in test/golden/report/: a change meant to move code (report sections, CLI commands) must not
 * change one byte of what `trace-inspector report` prints. Each folder is indexed once into a temporary
 * database by the compiled CLI, then reported:
 * - `<folder>.json`: `report --format json` with the default options (the figures a user sees first);
 * - `<folder>.all.json`, `.all.txt`, `.all.csv`: JSON, table and CSV with every optional section
 *   (`--maj-at-k --regrade --paths 16`; `--replicates 100` keeps it short).
 * A difference names the first JSON path (or line) that differs. Pass 2 (node:sqlite) checks `.all.json` only: the
 * table and CSV are rendered from the same report object, and sqlite.fallback.test compares the default report of
 * every real folder under node:sqlite with better-sqlite3's.
 *
 * To accept a deliberate change of the report: `npm run golden:update` (or `UPDATE_GOLDEN=1` on this
 * file), then review `git diff test/golden`.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REAL, tempDir } from './helpers';
import { runCli } from './reliability.support';

const GOLDEN = resolve(process.cwd(), 'test/golden/report');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const NODE_SQLITE_PASS = process.env.TRACE_INSPECTOR_SQLITE_DRIVER === 'node:sqlite';

/** Options a folder needs to be read at all (the RewardMATH scores are described by the shipped mapping). */
const FOLDER_ARGS: Record<string, string[]> = {
  'rewardmath-22-scorers': ['--mapping', resolve(process.cwd(), 'examples/mappings/rewardmath.mapping.json')],
};

const ALL_SECTIONS = ['--replicates', '100', '--maj-at-k', '--regrade', '--paths', '16'];

interface Variant {
  /** Golden file name after the folder's name. */
  suffix: string;
  args: string[];
  json: boolean;
  /** Also checked in the node:sqlite pass. */
  bothDrivers: boolean;
}

const VARIANTS: Variant[] = [
  // (the default report under node:sqlite equals better-sqlite3's on every real folder in sqlite.fallback.test)
  { suffix: '.json', args: ['--format', 'json'], json: true, bothDrivers: false },
  { suffix: '.all.json', args: [...ALL_SECTIONS, '--format', 'json'], json: true, bothDrivers: true },
  { suffix: '.all.txt', args: [...ALL_SECTIONS, '--format', 'table'], json: false, bothDrivers: false },
  { suffix: '.all.csv', args: [...ALL_SECTIONS, '--format', 'csv'], json: false, bothDrivers: false },
];

/**
 * Where two JSON values first differ, depth first in the expected value's key order: `$.models[1].label:
 * expected "a", got "b"`; key order counts (the output is compared byte for byte). Undefined when equal.
 */
function firstJsonDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  const show = (v: unknown) => {
    const s = JSON.stringify(v);
    return s === undefined ? 'nothing' : s.length > 120 ? `${s.slice(0, 120)}...` : s;
  };
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      const d = firstJsonDifference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} elements, got ${actual.length}`;
    return undefined;
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(expected) && isObject(actual)) {
    const ek = Object.keys(expected);
    const ak = Object.keys(actual);
    for (let i = 0; i < Math.max(ek.length, ak.length); i++) {
      if (ek[i] !== ak[i]) {
        return `${path}: key ${i} is ${show(ak[i])}, expected ${show(ek[i])} (keys expected ${show(ek)}, got ${show(ak)})`;
      }
      const d = firstJsonDifference(expected[ek[i]], actual[ek[i]], `${path}.${ek[i]}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

/** The first line where two texts differ, with both lines; undefined when equal. */
function firstLineDifference(expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined;
  const e = expected.split('\n');
  const a = actual.split('\n');
  for (let i = 0; i < Math.max(e.length, a.length); i++) {
    if (e[i] !== a[i]) return `line ${i + 1}:\n  expected ${JSON.stringify(e[i])}\n  got      ${JSON.stringify(a[i])}`;
  }
  return 'same lines, different bytes';
}

function difference(expected: string, actual: string, json: boolean): string | undefined {
  if (expected === actual) return undefined;
  if (json) {
    let d: string | undefined;
    try {
      d = firstJsonDifference(JSON.parse(expected), JSON.parse(actual));
    } catch (e) {
      d = `not JSON: ${(e as Error).message}`;
    }
    if (d) return d;
  }
  // the same JSON value printed differently (spacing, escapes), or a text output
  return firstLineDifference(expected, actual);
}

const folders = existsSync(REAL)
  ? readdirSync(REAL)
      .filter((f) => statSync(join(REAL, f)).isDirectory())
      .sort()
  : [];

describe('the report of every real folder is byte-identical to its golden copy', { skip: folders.length === 0 }, () => {
  before(() => {
    if (UPDATE) mkdirSync(GOLDEN, { recursive: true });
  });

  for (const folder of folders) {
    describe(folder, () => {
      let tmp: string;
      let db: string;
      before(() => {
        tmp = tempDir('ti-golden-');
        db = join(tmp, 'index.db');
        const r = runCli(['index', join(REAL, folder), '--db', db, '-q', ...(FOLDER_ARGS[folder] ?? [])], tmp, 300_000);
        assert.equal(r.status, 0, r.stderr);
      });
      for (const v of VARIANTS) {
        const skip = NODE_SQLITE_PASS && !v.bothDrivers ? 'rendered from the same report in pass 1' : false;
        test(`report ${v.args.join(' ')}`, { skip }, () => {
          const args = ['report', join(REAL, folder), '--db', db, '-q', ...(FOLDER_ARGS[folder] ?? []), ...v.args];
          const r = runCli(args, tmp, 300_000);
          assert.equal(r.status, 0, r.stderr);
          const file = join(GOLDEN, `${folder}${v.suffix}`);
          if (UPDATE) writeFileSync(file, r.stdout);
          const d = difference(readFileSync(file, 'utf8'), r.stdout, v.json);
          assert.equal(
            d,
            undefined,
            `trace-inspector ${args.join(' ')} differs from ${file} at ${d} (a deliberate change: npm run golden:update)`,
          );
        });
      }
    });
  }

  test('the golden files are those of the real folders and variants, no more', () => {
    const want = folders.flatMap((f) => VARIANTS.map((v) => `${f}${v.suffix}`)).sort();
    assert.deepEqual(readdirSync(GOLDEN).sort(), want);
  });
});

test('a difference is named by its first JSON path, key order included', () => {
  const a = { models: [{ id: 'a', passAtK: [0.5, 0.75] }], warnings: [] as string[] };
  assert.equal(firstJsonDifference(a, structuredClone(a)), undefined);
  assert.equal(
    firstJsonDifference(a, { models: [{ id: 'a', passAtK: [0.5, 0.7] }], warnings: [] }),
    '$.models[0].passAtK[1]: expected 0.75, got 0.7',
  );
  assert.equal(
    firstJsonDifference(a, { warnings: [], models: a.models }),
    '$: key 0 is "warnings", expected "models" (keys expected ["models","warnings"], got ["warnings","models"])',
  );
  assert.equal(firstJsonDifference(a, { ...a, warnings: ['w'] }), '$.warnings: expected 0 elements, got 1');
  assert.equal(
    difference('{"a": 1}\n', '{"a":1}\n', true),
    'line 1:\n  expected "{\\"a\\": 1}"\n  got      "{\\"a\\":1}"',
  );
  assert.equal(difference('x\ny\n', 'x\nz\n', false), 'line 2:\n  expected "y"\n  got      "z"');
});
