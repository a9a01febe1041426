/**
 * Generalisation across splits (issue 35): the split matrix on generated folders with known per-split
 * rates (right to 1e-9), the difficulty-controlled view, seeds, the oracle gap, clusters stable under a
 * seed and under reordering, every cell with its problems and n.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { passAtK } from '../../src/core/metrics/passAtK';
import { buildSplitsReport, type SplitsOptions, type SplitsReport } from '../../src/core/analyses/splits';
import { cellEstimate, holmAdjust, signFlipPValue, signFlipTest } from '../../src/core/analyses/splitStats';
import { checkSplitsOptions, splitsTable } from '../../src/cli/splits';
import { clusterTexts, terms } from '../../src/core/analyses/textClusters';
import { parseSplitFile } from '../../src/core/analyses/splitDefinitions';
import { assertDocumentedShape, documentedShape, tempDir } from './helpers';

function put(dir: string, rel: string, lines: unknown[]): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** A Qwen2.5-Math record: `c` correct of `n` verdicts, at `level`. */
function record(idx: number, level: number, n: number, c: number) {
  const score = Array.from({ length: n }, (_, i) => i < c);
  return {
    idx,
    question: `q${idx}`,
    gt: '1',
    level: `Level ${level}`,
    code: score.map((s) => `\\boxed{${s ? 1 : 2}}`),
    score,
    pred: score.map((s) => (s ? '1' : '2')),
  };
}

const N = 10;
const PER_LEVEL = 10;
/** Base rate per level (1..5): harder levels, lower rates. */
const BASE = [0.8, 0.6, 0.5, 0.3, 0.2];
/** Gains over the base per level of the model trained on level 1, and of the one trained on level 5. */
const GAIN_L1 = [0.1, 0.1, 0.1, 0.1, 0.1];
const GAIN_L5 = [0, 0, 0, 0, 0.2];

/** Per level, problems alternate c = rate·n + 1 and rate·n - 1: the level's mean is the rate exactly, problems differ. */
function modelRecords(rates: readonly number[]) {
  const out: ReturnType<typeof record>[] = [];
  rates.forEach((rate, l) => {
    for (let j = 0; j < PER_LEVEL; j++) {
      const c = Math.round(rate * N) + (j % 2 === 0 ? 1 : -1);
      out.push(record(l * PER_LEVEL + j, l + 1, N, c));
    }
  });
  return out;
}

function levelFolder(): string {
  const dir = tempDir('ti-splits-');
  const add = (name: string, rates: readonly number[]) =>
    put(dir, `${name}/math_eval/math500/test_qwen-boxed.jsonl`, modelRecords(rates));
  add('Qwen-base', BASE);
  add(
    'Qwen-grpo-level1',
    BASE.map((b, i) => b + GAIN_L1[i]),
  );
  add(
    'Qwen-grpo-level5',
    BASE.map((b, i) => b + GAIN_L5[i]),
  );
  return dir;
}

async function splitsOf(dir: string, options: SplitsOptions): Promise<SplitsReport> {
  const index = TraceIndex.open(':memory:');
  try {
    await indexFolder(index, dir);
    return buildSplitsReport(index, { replicates: 400, ...options });
  } finally {
    index.close();
  }
}

describe('split matrix by difficulty level on a generated folder', async () => {
  const dir = levelFolder();
  const r = await splitsOf(dir, { splits: { kind: 'level' }, k: 4 });
  const cell = (model: string, split: string) => {
    const c = r.cells.find((x) => x.model === model && x.split === split);
    assert.ok(c, `${model} × ${split}`);
    return c;
  };

  test('splits are the five levels with 10 problems each, the base guessed, training levels read from the names', () => {
    assert.deepEqual(
      r.splits.map((s) => [s.name, s.label, s.problems]),
      [1, 2, 3, 4, 5].map((l) => [String(l), `level ${l}`, PER_LEVEL]),
    );
    assert.equal(r.unassigned.problems, 0);
    assert.equal(r.base, 'Qwen-base');
    assert.deepEqual(
      r.models.map((m) => [m.name, m.trainedOn, m.trainedOnSource]),
      [
        ['Qwen-base', null, null],
        ['Qwen-grpo-level1', '1', 'name'],
        ['Qwen-grpo-level5', '5', 'name'],
      ],
    );
  });

  test('each cell: pass@1 is the known rate, pass@4 the mean of the exact formula, right to 1e-9', () => {
    const rates: Record<string, number[]> = {
      'Qwen-base': BASE,
      'Qwen-grpo-level1': BASE.map((b, i) => b + GAIN_L1[i]),
      'Qwen-grpo-level5': BASE.map((b, i) => b + GAIN_L5[i]),
    };
    for (const [model, rs] of Object.entries(rates))
      rs.forEach((rate, l) => {
        const c = cell(model, String(l + 1));
        assert.ok(Math.abs((c.passAt1.value as number) - rate) < 1e-9, `${model} level ${l + 1}: ${c.passAt1.value}`);
        const hi = Math.round(rate * N) + 1;
        const lo = Math.round(rate * N) - 1;
        const want = ((passAtK(N, hi, 4) as number) + (passAtK(N, lo, 4) as number)) / 2;
        assert.ok(Math.abs((c.passAtK.value as number) - want) < 1e-9);
        assert.ok((c.passAt1.ciLow as number) <= rate && rate <= (c.passAt1.ciHigh as number));
        assert.ok((c.passAt1.ciLow as number) < (c.passAt1.ciHigh as number), 'problems differ: a real interval');
      });
  });

  test('every cell says its problems and n', () => {
    assert.equal(r.cells.length, 15);
    for (const c of r.cells) {
      assert.equal(c.splitProblems, PER_LEVEL);
      assert.equal(c.problems, PER_LEVEL);
      assert.equal(c.passAt1.problems + c.passAt1.missing, PER_LEVEL);
      assert.deepEqual(c.n, { min: N, max: N });
      assert.equal(c.samples, PER_LEVEL * N);
    }
    assert.equal(r.k, 4);
  });

  test('the in-distribution cell is marked', () => {
    assert.deepEqual(
      r.cells.filter((c) => c.inDistribution).map((c) => [c.model, c.split]),
      [
        ['Qwen-grpo-level1', '1'],
        ['Qwen-grpo-level5', '5'],
      ],
    );
  });

  test('relative to the base on the same split: the known gains, paired', () => {
    for (const [model, gains] of [
      ['Qwen-grpo-level1', GAIN_L1],
      ['Qwen-grpo-level5', GAIN_L5],
    ] as const)
      gains.forEach((g, l) => {
        const rel = cell(model, String(l + 1)).relative;
        assert.ok(rel);
        assert.ok(Math.abs((rel.passAt1.value as number) - g) < 1e-9, `${model} level ${l + 1}`);
        // the same problems for both, the same alternation: every per-problem difference is g, the interval is a point
        assert.ok(
          Math.abs((rel.passAt1.ciLow as number) - g) < 1e-9 && Math.abs((rel.passAt1.ciHigh as number) - g) < 1e-9,
        );
      });
    assert.equal(cell('Qwen-base', '1').relative, undefined);
  });

  test('difficulty-controlled: the level-5 model is not better at generalising because its test levels are easier', () => {
    const l1 = r.outOfDistribution.find((o) => o.model === 'Qwen-grpo-level1');
    const l5 = r.outOfDistribution.find((o) => o.model === 'Qwen-grpo-level5');
    assert.ok(l1 && l5);
    assert.deepEqual(l1.splits, ['2', '3', '4', '5']);
    assert.deepEqual(l5.splits, ['1', '2', '3', '4']);
    // raw averages favour the level-5 model: (0.8 + 0.6 + 0.5 + 0.3) / 4 = 0.55 against (0.7 + 0.6 + 0.4 + 0.3) / 4 = 0.5
    assert.ok(Math.abs((l5.raw.value as number) - 0.55) < 1e-9);
    assert.ok(Math.abs((l1.raw.value as number) - 0.5) < 1e-9);
    // relative to the base on the same levels: +0.1 against 0
    assert.ok(Math.abs((l1.relative?.value as number) - 0.1) < 1e-9);
    assert.ok(Math.abs(l5.relative?.value as number) < 1e-9);
    assert.ok((l1.relative?.value as number) > (l5.relative?.value as number));
  });

  test('significance: gains of 0.1 over 10 problems are significant after Holm; no gain is within noise', () => {
    const g = cell('Qwen-grpo-level1', '3').relative?.passAt1;
    assert.equal(g?.verdict, 'better');
    assert.ok((g?.pHolm as number) < 0.05);
    const z = cell('Qwen-grpo-level5', '2').relative?.passAt1;
    assert.equal(z?.verdict, 'within noise');
    assert.equal(z?.pValue, 1);
    assert.equal(r.significance.correction, 'Holm step-down');
    assert.match(r.significance.families, /10 tests/);
  });

  test('oracle gaps: on level 1 the level-1 model against the level-5 one, and on level 5 the reverse', () => {
    assert.deepEqual(
      r.oracleGaps.map((g) => [g.split, g.oracle, g.model]),
      [
        ['1', 'Qwen-grpo-level1', 'Qwen-grpo-level5'],
        ['5', 'Qwen-grpo-level5', 'Qwen-grpo-level1'],
      ],
    );
    // level 1: (0.8 + 0.1) - 0.8 = 0.1; level 5: (0.2 + 0.2) - (0.2 + 0.1) = 0.1
    assert.ok(Math.abs((r.oracleGaps[0].passAt1.value as number) - 0.1) < 1e-9);
    assert.ok(Math.abs((r.oracleGaps[1].passAt1.value as number) - 0.1) < 1e-9);
  });

  test('the same seed gives the same intervals', async () => {
    const again = await splitsOf(dir, { splits: { kind: 'level' }, k: 4 });
    assert.deepEqual(again.cells, r.cells);
  });

  test('a training setting wins over the name; an unknown split is an error naming the splits', async () => {
    const s = await splitsOf(dir, { splits: { kind: 'level' }, trainedOn: [['level1', '2']] });
    assert.deepEqual(s.models[1].trainedOn, '2');
    assert.equal(s.models[1].trainedOnSource, 'setting');
    await assert.rejects(
      splitsOf(dir, { splits: { kind: 'level' }, trainedOn: [['level1', '9']] }),
      /"9" is no split of this kind; splits: 1, 2, 3, 4, 5/,
    );
  });
});

describe('seeds: one row, an interval that covers them', async () => {
  const dir = tempDir('ti-splits-seeds-');
  put(dir, 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl', modelRecords([0.5, 0.5]));
  // two seeds of one model: 0.6 and 0.8 on level 1, the row's value their mean 0.7
  put(dir, 'Qwen-grpo-seed0/math_eval/math500/test_qwen-boxed.jsonl', modelRecords([0.6, 0.5]));
  put(dir, 'Qwen-grpo-seed1/math_eval/math500/test_qwen-boxed.jsonl', modelRecords([0.8, 0.5]));
  const r = await splitsOf(dir, { splits: { kind: 'level' } });

  test('seed siblings are one row named without the seed, its value the mean over seeds', () => {
    assert.deepEqual(
      r.models.map((m) => [m.name, m.seeds]),
      [
        ['Qwen-base', ['Qwen-base']],
        ['Qwen-grpo', ['Qwen-grpo-seed0', 'Qwen-grpo-seed1']],
      ],
    );
    const c = r.cells.find((x) => x.model === 'Qwen-grpo' && x.split === '1');
    assert.ok(c);
    assert.ok(Math.abs((c.passAt1.value as number) - 0.7) < 1e-9);
    assert.equal(c.samples, 2 * PER_LEVEL * N);
    assert.match(r.uncertainty.seeds, /draws the seeds with replacement/);
  });

  test('the two-stage interval is wider than the interval over problems of the pooled seeds', () => {
    const values = (rate: number) =>
      Float64Array.from({ length: PER_LEVEL }, (_, j) => (Math.round(rate * N) + (j % 2 === 0 ? 1 : -1)) / N);
    const two = cellEstimate([{ values: [values(0.6), values(0.8)], sign: 1 }], { replicates: 2000 });
    const pooled = Float64Array.from(values(0.6), (v, i) => (v + values(0.8)[i]) / 2);
    const one = cellEstimate([{ values: [pooled], sign: 1 }], { replicates: 2000 });
    assert.ok(Math.abs((two.value as number) - 0.7) < 1e-12 && Math.abs((one.value as number) - 0.7) < 1e-12);
    const width = (e: typeof one) => (e.ciHigh as number) - (e.ciLow as number);
    // redrawing the seeds puts 0.6 and 0.8 (both seeds the same) into the replicates
    assert.ok(width(two) > width(one) + 0.05, `${width(two)} vs ${width(one)}`);
    assert.ok((two.ciLow as number) <= 0.61 && (two.ciHigh as number) >= 0.79);
  });
});

describe('statistics', () => {
  test('Holm: adjusted p-values by hand', () => {
    // sorted 0.01, 0.02, 0.04: 3·0.01 = 0.03, max(0.03, 2·0.02) = 0.04, max(0.04, 0.04) = 0.04
    assert.deepEqual(
      holmAdjust([0.04, 0.01, 0.02]).map((x) => Math.round(x * 1e12) / 1e12),
      [0.04, 0.03, 0.04],
    );
    assert.deepEqual(holmAdjust([0.5, 0.9]), [1, 1]);
  });

  test('sign-flip test: 10 equal positive differences give exactly 2/1024 whatever the seed; all zero gives 1', () => {
    // exact: only all-plus or all-minus reach |T| = 1: 2 / 1024 ≈ 0.00195, enumerated, not drawn
    for (const seed of [1, 2, 99])
      assert.deepEqual(signFlipTest(new Float64Array(10).fill(0.1), { replicates: 200, seed }), {
        p: 2 / 1024,
        exact: true,
        minP: 2 / 1024,
        nonZero: 10,
      });
    // zeros do not count: 5 non-zero differences among 20 can never give p below 2/32 = 0.0625
    const five = Float64Array.from({ length: 20 }, (_, i) => (i < 5 ? 0.3 : 0));
    assert.deepEqual(signFlipTest(five), { p: 0.0625, exact: true, minP: 0.0625, nonZero: 5 });
    // 3 of 8 assignments of (0.1, 0.2, 0.4) reach |T| >= |0.1 - 0.2 + 0.4| = 0.3: ±(0.1,-0.2,0.4) → 0.3, ±(-0.1,-0.2,0.4)=0.1 no,
    // (±0.1, ±0.2, 0.4) sums 0.7, 0.5, 0.3, 0.1 and negatives: |T| >= 0.3 for 0.7, 0.5, 0.3 and their negatives: 6 of 8
    assert.equal(signFlipTest(Float64Array.from([0.1, -0.2, 0.4])).p, 6 / 8);
    // 17 non-zero differences: Monte Carlo, said so
    const mc = signFlipTest(new Float64Array(17).fill(0.1), { replicates: 999 });
    assert.equal(mc.exact, false);
    assert.equal(mc.minP, 1 / 1000);
    assert.equal(signFlipPValue(new Float64Array(5)), 1);
    // mixed signs of equal size: every assignment is as extreme as the observed sum 0... which is no evidence
    const mixed = signFlipPValue(Float64Array.from([0.1, -0.1, 0.1, -0.1, 0.2]), { replicates: 5000 });
    assert.ok(mixed > 0.2, String(mixed));
  });
});

describe('content clusters', () => {
  const topics: [string, string[]][] = [
    ['fruit', ['apples', 'oranges', 'basket', 'fruit', 'bananas']],
    ['trains', ['train', 'station', 'speed', 'track', 'miles']],
    ['money', ['dollars', 'bank', 'interest', 'savings', 'account']],
  ];
  const docs = topics.flatMap(([name, words], t) =>
    Array.from({ length: 8 }, (_, i) => ({
      key: `${name}-${i}`,
      text: `Problem ${t * 8 + i}: ${words.slice(0, 3 + (i % 3)).join(' ')} ${words[i % words.length]} and ${words[(i + 2) % words.length]} costs ${i + 3}`,
    })),
  );
  const partition = (c: ReturnType<typeof clusterTexts>) =>
    c.clusters.map((x) => [...x.members].sort().join(',')).sort();

  test('three topics come back as three clusters, each named by its words, with three examples and its size', () => {
    const c = clusterTexts(docs, { k: 3 });
    assert.equal(c.clusters.length, 3);
    for (const cl of c.clusters) {
      const topic = cl.members[0].split('-')[0];
      assert.ok(
        cl.members.every((m) => m.startsWith(`${topic}-`)),
        cl.members.join(','),
      );
      assert.equal(cl.members.length, 8);
      assert.equal(cl.examples.length, 3);
      const words = (topics.find(([n]) => n === topic) as [string, string[]])[1];
      assert.ok(
        cl.terms.slice(0, 3).every((t) => words.includes(t)),
        `${topic}: ${cl.terms.join(', ')}`,
      );
    }
    assert.match(c.method, /k = 3, k-means\+\+ seeding, seed 1/);
  });

  test('stable under reordering the documents and under the seed', () => {
    const a = clusterTexts(docs, { k: 3, seed: 1 });
    const reversed = clusterTexts([...docs].reverse(), { k: 3, seed: 1 });
    assert.deepEqual(reversed, a);
    const shuffled = [...docs].sort((x, y) => (x.text.length % 7) - (y.text.length % 7) || (x.key < y.key ? 1 : -1));
    assert.deepEqual(clusterTexts(shuffled, { k: 3, seed: 1 }), a);
    for (const seed of [2, 3, 17, 12345]) assert.deepEqual(partition(clusterTexts(docs, { k: 3, seed })), partition(a));
  });

  test('terms leave out numbers, LaTeX commands and stop words', () => {
    assert.deepEqual(terms('What is \\frac{3}{4} of the 48 apples? Élan'), ['apples', 'élan']);
  });

  test('clusters over an index: the same whichever order the files list the problems', async () => {
    const recs = docs.map((d, i) => ({ ...record(i, 1, 4, i % 5), question: d.text }));
    const a = tempDir('ti-clusters-a-');
    put(a, 'm/math_eval/math500/test_qwen-boxed.jsonl', recs);
    const b = tempDir('ti-clusters-b-');
    put(b, 'm/math_eval/math500/test_qwen-boxed.jsonl', [...recs].reverse());
    const ra = await splitsOf(a, { splits: { kind: 'cluster', k: 3 } });
    const rb = await splitsOf(b, { splits: { kind: 'cluster', k: 3 } });
    assert.deepEqual(rb.splits, ra.splits);
    assert.deepEqual(rb.cells, ra.cells);
    assert.equal(ra.splits.length, 3);
    assert.ok(ra.splits.every((s) => s.problems === 8 && s.examples?.length === 3 && (s.terms?.length ?? 0) > 0));
  });
});

describe('cluster count and options', () => {
  test('--clusters more than there are problems with words: k lowered, with a warning in the report', async () => {
    const recs = Array.from({ length: 6 }, (_, i) => ({
      ...record(i, 1, 4, i % 5),
      question: i < 3 ? 'apples oranges basket fruit' : 'train station speed track',
    }));
    const dir = tempDir('ti-clusters-k-');
    put(dir, 'm/math_eval/math500/test_qwen-boxed.jsonl', recs);
    const r = await splitsOf(dir, { splits: { kind: 'cluster', k: 50 } });
    assert.match(r.method, /k = 6,/);
    assert.ok(
      r.warnings.some((w) => /^--clusters 50: only 6 problems have words to cluster, so k = 6/.test(w)),
      r.warnings.join('\n'),
    );
    assert.match(splitsTable(r), /warning: --clusters 50: only 6 problems/);
    // one model, no base: nothing tested, so no Significance line
    assert.equal(r.significance.families.includes('(0 tests)'), true);
    assert.doesNotMatch(splitsTable(r), /Significance/);
  });

  test('no problem text: the method says no clusters could be formed, and the table has no Significance line', async () => {
    const recs = Array.from({ length: 6 }, (_, i) => ({ ...record(i, 1, 4, i % 5), question: '' }));
    const dir = tempDir('ti-clusters-none-');
    put(dir, 'm/math_eval/math500/test_qwen-boxed.jsonl', recs);
    const r = await splitsOf(dir, { splits: { kind: 'cluster' } });
    assert.equal(r.method, 'no clusters could be formed: none of the 6 problems has a problem text to cluster');
    const t = splitsTable(r);
    assert.doesNotMatch(t, /k = 0/);
    assert.match(t, /in no split: 6 problems: .*; why: 6 without a problem text/);
  });

  test('split options without --splits are an error naming the option', () => {
    assert.throws(() => checkSplitsOptions({ trainedOn: [['a', '1']] }), /^Error: --trained-on needs --splits <kind>/);
    assert.throws(() => checkSplitsOptions({ clusters: 5 }), /--clusters needs --splits/);
    assert.doesNotThrow(() => checkSplitsOptions({ splits: 'level', trainedOn: [['a', '1']] }));
    assert.doesNotThrow(() => checkSplitsOptions({}));
  });
});

describe('split files', () => {
  test('JSON and two-column lines; an id in two splits is an error naming the file and line', () => {
    assert.deepEqual(
      [...parseSplitFile('s.json', '{"train": [0, "1"], "test": ["2"]}').splitOf],
      [
        ['0', 'train'],
        ['1', 'train'],
        ['2', 'test'],
      ],
    );
    assert.deepEqual(parseSplitFile('s.csv', 'problem_id,split\n0,train\n1\ttest\n').order, ['train', 'test']);
    assert.throws(
      () => parseSplitFile('s.csv', '0,train\n0,test\n'),
      /^Error: s\.csv:2: problem 0 is listed in two splits/,
    );
    assert.throws(() => parseSplitFile('s.csv', '0,train,x\n'), /s\.csv:1: expected "problem_id,split"/);
  });

  test('train/test from a file: the oracle gap of the model trained on test against the one trained on train', async () => {
    const dir = tempDir('ti-splits-file-');
    const recs = (cTrain: number, cTest: number) =>
      Array.from({ length: 8 }, (_, i) => record(i, 1, 4, i < 4 ? cTrain : cTest));
    put(dir, 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl', recs(1, 1));
    put(dir, 'Qwen-trained-on-train/math_eval/math500/test_qwen-boxed.jsonl', recs(3, 2));
    put(dir, 'Qwen-trained-on-test/math_eval/math500/test_qwen-boxed.jsonl', recs(2, 4));
    const text = JSON.stringify({ train: [0, 1, 2, 3], test: [4, 5, 6, 7, 99] });
    const r = await splitsOf(dir, { splits: { kind: 'file', file: 'splits.json', text } });
    assert.deepEqual(
      r.models.map((m) => m.trainedOn),
      [null, 'test', 'train'],
    );
    const gap = r.oracleGaps.find((g) => g.split === 'test');
    assert.ok(gap);
    assert.equal(gap.oracle, 'Qwen-trained-on-test');
    // on test: 4/4 - 2/4 = 0.5
    assert.ok(Math.abs((gap.passAt1.value as number) - 0.5) < 1e-9);
    assert.equal(gap.passAt1.problems, 4);
    assert.ok(r.warnings.some((w) => w.includes('splits.json: 1 listed id names no problem of the folder (99)')));
  });
});

describe('other kinds: datasets, and agreement with the levels', () => {
  test('splits by dataset, and a table of problems per split and level that adds up to each split', async () => {
    const dir = tempDir('ti-splits-datasets-');
    put(dir, 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl', [record(0, 1, 4, 1), record(1, 2, 4, 2)]);
    put(dir, 'Qwen-base/math_eval/aime24/test_qwen-boxed.jsonl', [
      record(0, 5, 4, 0),
      record(1, 5, 4, 1),
      record(2, 4, 4, 3),
    ]);
    const r = await splitsOf(dir, { splits: { kind: 'dataset' } });
    assert.deepEqual(
      r.splits.map((s) => [s.name, s.problems, s.problemIds]),
      [
        ['aime24', 3, ['aime24 · 0', 'aime24 · 1', 'aime24 · 2']],
        ['math500', 2, ['math500 · 0', 'math500 · 1']],
      ],
    );
    // aime24: (0 + 1/4 + 3/4) / 3; math500: (1/4 + 2/4) / 2
    assert.ok(Math.abs((r.cells[0].passAt1.value as number) - 1 / 3) < 1e-12);
    assert.ok(Math.abs((r.cells[1].passAt1.value as number) - 3 / 8) < 1e-12);
    assert.deepEqual(r.levelAgreement, {
      levels: ['1', '2', '4', '5'],
      rows: [
        { split: 'aime24', counts: [0, 0, 1, 2] },
        { split: 'math500', counts: [1, 1, 0, 0] },
      ],
    });
    // one model: no base to be relative to, no relative cell
    assert.equal(r.base, 'Qwen-base');
    assert.ok(r.cells.every((c) => c.relative === undefined));
  });
});

describe('the JSON shape docs/splits.md documents', () => {
  test('is the real one (level splits, a base compared with the others)', async () => {
    const r = await splitsOf(levelFolder(), { splits: { kind: 'level' }, base: 'Qwen-grpo-level5' });
    assertDocumentedShape(JSON.parse(JSON.stringify(r)), documentedShape('docs/splits.md', '## JSON and CSV'));
  });
});

describe('a cell with no data is not tested', async () => {
  // the RL model has no sample of level 2: its relative cell there has nothing to test (a fresh user saw
  // "— … 1.0 / 1.0 † within noise" for it)
  const dir = tempDir('ti-splits-nodata-');
  put(dir, 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl', [
    record(0, 1, 4, 2),
    record(1, 1, 4, 3),
    record(2, 2, 4, 1),
  ]);
  put(dir, 'Qwen-grpo/math_eval/math500/test_qwen-boxed.jsonl', [record(0, 1, 4, 4), record(1, 1, 4, 3)]);
  const r = await splitsOf(dir, { splits: { kind: 'level' }, base: 'Qwen-base' });

  test("its verdict is 'no data', the tested cell's is not", () => {
    const rl = (split: string) => r.cells.find((c) => c.model.includes('grpo') && c.split === split);
    assert.equal(rl('2')?.relative?.passAt1.value, null);
    assert.equal(rl('2')?.relative?.passAt1.verdict, 'no data');
    assert.equal(rl('1')?.relative?.passAt1.verdict, 'within noise');
  });
});
