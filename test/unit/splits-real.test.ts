/**
 * Generalisation across splits on the real folders (issue 35): the difficulty levels of
 * qwen25-math-eval-example against its raw records, and the content clusters of rlvr-probe-gsm8k, stable
 * when the files list the problems in another order. Also `report --splits` through the CLI's parser.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPLITS_CSV_HEADER } from '../../src/cli/splits';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildSplitsReport, type SplitsOptions, type SplitsReport } from '../../src/core/analyses/splits';
import { REAL, tempDir } from './helpers';

const QWEN = join(REAL, 'qwen25-math-eval-example');
const RLVR = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');

async function splitsOf(dir: string, options: SplitsOptions): Promise<SplitsReport> {
  const index = TraceIndex.open(':memory:');
  try {
    await indexFolder(index, dir);
    return buildSplitsReport(index, { replicates: 500, ...options });
  } finally {
    index.close();
  }
}

/** Runs the CLI's `program()` (the compiled main.ts, not the bundle) in a child process; returns its stdout. */
function cli(args: string[]): string {
  const main = join(__dirname, '..', '..', 'src', 'cli', 'main.js');
  const r = spawnSync(
    process.execPath,
    ['-e', `require(${JSON.stringify(main)}).program().parseAsync(process.argv)`, 'trace-inspector', ...args],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe('levels of qwen25-math-eval-example', async () => {
  const raw = readFileSync(join(QWEN, 'math_cot_100.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { level: string | number; score: boolean[] });
  const byLevel = new Map<string, boolean[][]>();
  for (const r of raw) {
    const l = String(r.level).replace(/^Level /, '');
    byLevel.set(l, [...(byLevel.get(l) ?? []), r.score]);
  }
  const r = await splitsOf(QWEN, { splits: { kind: 'level' } });

  test("the splits are the file's levels with their problem counts", () => {
    assert.deepEqual(
      r.splits.map((s) => [s.name, s.problems]),
      [
        ['1', 11],
        ['2', 16],
        ['3', 24],
        ['4', 24],
        ['5', 25],
      ],
    );
    for (const s of r.splits) assert.equal(byLevel.get(s.name)?.length, s.problems);
    assert.equal(r.unassigned.problems, 0);
  });

  test('pass@1 per level is the mean over its problems of the raw scores, with its problems and n', () => {
    assert.equal(r.k, 8);
    for (const c of r.cells) {
      const scores = byLevel.get(c.split) as boolean[][];
      const want = scores.reduce((a, s) => a + s.filter(Boolean).length / s.length, 0) / scores.length;
      assert.ok(Math.abs((c.passAt1.value as number) - want) < 1e-12, `level ${c.split}`);
      const pass8 = scores.filter((s) => s.some(Boolean)).length / scores.length;
      assert.ok(Math.abs((c.passAtK.value as number) - pass8) < 1e-12);
      assert.deepEqual([c.problems, c.splitProblems, c.n], [scores.length, scores.length, { min: 8, max: 8 }]);
    }
    // level 5 by hand from the file: 86.5% of samples correct on average
    const l5 = r.cells.find((c) => c.split === '5');
    assert.equal(l5?.passAt1.value?.toFixed(3), '0.865');
  });
});

describe('content clusters of rlvr-probe-gsm8k', async () => {
  const r = await splitsOf(RLVR, { splits: { kind: 'cluster' }, base: 'sft' });

  test('30 problems in 4 clusters (default k = round(sqrt(30 / 2))) and one without a shared word, each named', () => {
    assert.equal(r.splits.length, 4);
    assert.equal(r.splits.reduce((a, s) => a + s.problems, 0) + r.unassigned.problems, 30);
    assert.deepEqual(r.unassigned, {
      problems: 1,
      named: ['15'],
      why: '1 with no word kept (numbers, LaTeX commands, stop words and words of one problem only are left out)',
    });
    for (const s of r.splits) {
      assert.equal(s.terms?.length, 5);
      assert.equal(s.examples?.length, Math.min(3, s.problems));
      assert.equal(s.label, `cluster ${s.name}: ${s.terms?.join(', ')}`);
    }
    // the cluster about travel is one of them
    assert.ok(r.splits.some((s) => s.terms?.includes('speed') && s.terms.includes('car')));
  });

  test('every cell says its problems and n; relative cells pair the same problems', () => {
    assert.equal(r.cells.length, 8);
    for (const c of r.cells) {
      assert.equal(c.problems, c.splitProblems);
      assert.deepEqual(c.n, { min: 8, max: 8 });
      if (c.relative) assert.equal(c.relative.passAt1.problems, c.splitProblems);
    }
    assert.equal(r.cells.filter((c) => c.relative).length, 4);
  });

  test('the same clusters and figures when the files list the problems in reverse order', async () => {
    const copy = tempDir('ti-rlvr-reversed-');
    for (const f of ['sft_raw.jsonl', 'rl_raw.jsonl']) {
      const lines = readFileSync(join(RLVR, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim());
      mkdirSync(copy, { recursive: true });
      writeFileSync(join(copy, f), `${lines.reverse().join('\n')}\n`);
    }
    const reversed = await splitsOf(copy, { splits: { kind: 'cluster' }, base: 'sft' });
    assert.deepEqual(reversed.splits, r.splits);
    assert.deepEqual(reversed.cells, r.cells);
  });
});

describe('report --splits through the CLI', () => {
  test('table, JSON and CSV of the level matrix', async () => {
    const db = join(tempDir('ti-splits-cli-'), 'index.db');
    const base = ['report', QWEN, '--db', db, '-q', '--splits', 'level', '--replicates', '200'];
    const table = cli(base);
    assert.match(table, /^Splits by level: the dataset's own difficulty levels/);
    assert.match(table, /\n {2}level 5: 25 problems\n/);
    assert.match(table, /math_cot_100 +5 +86\.5 \[[\d.]+, [\d.]+\] +96\.0 \[[\d.]+, [\d.]+\] +25\/25 +8\n/);
    const json = JSON.parse(cli([...base, '--format', 'json'])) as SplitsReport;
    assert.equal(json.kind, 'level');
    assert.equal(json.cells.length, 5);
    assert.equal(json.uncertainty.replicates, 200);
    const rows = cli([...base, '--format', 'csv'])
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    assert.equal(rows[0].join(','), SPLITS_CSV_HEADER);
    // per cell pass@1 and pass@8; one model: no relative rows
    assert.equal(rows.length, 1 + 5 * 2);
    const col = (name: string) => SPLITS_CSV_HEADER.split(',').indexOf(name);
    const l5 = rows.find((x) => x[col('split')] === '5' && x[col('k')] === '1') as string[];
    assert.equal(Number(l5[col('value')]).toFixed(3), '0.865');
    assert.deepEqual(
      [l5[col('problems')], l5[col('missing')], l5[col('split_problems')], l5[col('n_min')]],
      ['25', '0', '25', '8'],
    );
  });
});

describe('a folder without the split asked for', () => {
  test('levels of rlvr-probe-gsm8k: none, said in the warnings and instead of an empty matrix', async () => {
    const r = await splitsOf(RLVR, { splits: { kind: 'level' }, base: 'sft' });
    assert.deepEqual([r.splits.length, r.cells.length, r.unassigned.problems], [0, 0, 30]);
    assert.ok(r.warnings.includes('no split: none of the 30 problems is in one (no level), so the matrix is empty'));
    const db = join(tempDir('ti-splits-cli-'), 'index.db');
    const out = cli(['report', RLVR, '--db', db, '-q', '--splits', 'level']);
    assert.match(out, /\nNo split: none of the problems is in one \(no level\); no matrix\.\n$/);
  });
});
