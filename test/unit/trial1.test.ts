/**
 * Findings of the first fresh-user trial (/work/trial1-report.md) held as regression tests, each with
 * the right value computed by hand in the test. Inputs are written here (never read from /tmp).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report';
import { reportTable } from '../../src/cli/main';
import { tempDir } from './helpers';

/** Unbiased pass@k of one problem (Chen et al. 2021), by the product form. */
function passAtK(n: number, c: number, k: number): number {
  let q = 1;
  for (let i = 0; i < k; i++) q *= (n - c - i) / (n - i);
  return 1 - Math.max(0, q);
}

describe('sharded seeds: per-sample records of one model and problem spread over files (finding 9)', () => {
  /**
   * lm-eval-style per-sample files samples_gsm8k_seed{0,1,2}.jsonl of one model, 4 problems (doc_id
   * 0..3) each, one response per line; exact_match by hand:
   *   seed0: 1 0 0 1   seed1: 1 1 0 0   seed2: 0 1 0 1
   * per problem n = 3 and c = 2, 2, 0, 2.
   */
  const exact = [
    [1, 0, 0, 1],
    [1, 1, 0, 0],
    [0, 1, 0, 1],
  ];
  const mapping = JSON.stringify({
    files: ['samples_*.jsonl'],
    records: 'per-sample',
    fields: {
      problemId: 'doc_id',
      text: '$.resps[0][0]',
      extractedAnswer: '$.filtered_resps[0]',
      correct: 'exact_match',
    },
    model: 'qwen-7b',
    dataset: 'gsm8k',
  });
  function shards(): string {
    const dir = tempDir('ti-shards-');
    writeFileSync(join(dir, 'trace-inspector.mapping.json'), mapping);
    exact.forEach((row, seed) => {
      writeFileSync(
        join(dir, `samples_gsm8k_seed${seed}.jsonl`),
        row
          .map((em, doc) =>
            JSON.stringify({
              doc_id: doc,
              resps: [[`seed ${seed} answer to ${doc}`]],
              filtered_resps: [String(em)],
              exact_match: em,
            }),
          )
          .join('\n'),
      );
    });
    return dir;
  }

  test('the three seeds are one problem set with n = 3; samples numbered seed0, seed1, seed2; one info per merged file', async () => {
    const dir = shards();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const [m] = index.models();
    assert.equal(index.models().length, 1);
    assert.equal(m.samples, 12);
    assert.equal(m.correct, 6);
    const r = buildReport(index, { replicates: 100 });
    const p1 = r.models[0].passAtK.find((p) => p.k === 1)!;
    assert.ok(Math.abs(p1.value! - (2 / 3 + 2 / 3 + 0 + 2 / 3) / 4) < 1e-12, `${p1.value}`);
    const p2 = r.models[0].passAtK.find((p) => p.k === 2)!;
    assert.ok(Math.abs(p2.value! - (3 * passAtK(3, 2, 2)) / 4) < 1e-12, `${p2.value}`);
    assert.equal(p1.problems, 4);
    // the documented order: samples numbered in the order their files are indexed (path order)
    const texts = index.db
      .prepare(
        `SELECT s.text FROM samples s JOIN problems p ON p.id = s.problem_id WHERE p.problem_id = '1' ORDER BY s.sample_index`,
      )
      .pluck()
      .all();
    assert.deepEqual(texts, ['seed 0 answer to 1', 'seed 1 answer to 1', 'seed 2 answer to 1']);
    const diags = index.diagnostics();
    assert.deepEqual(
      diags.map((d) => [d.file, d.severity]),
      [
        ['samples_gsm8k_seed1.jsonl', 'info'],
        ['samples_gsm8k_seed2.jsonl', 'info'],
      ],
    );
    assert.equal(
      diags[1].message,
      'per-sample records of 4 problems that already have samples of the same model from samples_gsm8k_seed0.jsonl: read as more samples of those problems (seed shards), numbered after the ones already indexed; if this file is a copy, remove it (its samples would count twice)',
    );
    assert.ok(!diags.some((d) => /duplicate/.test(d.message)));
    // re-reading one changed shard keeps n = 3 (its old samples are replaced, not added)
    writeFileSync(
      join(dir, 'samples_gsm8k_seed1.jsonl'),
      exact[1]
        .map((_, doc) =>
          JSON.stringify({ doc_id: doc, resps: [[`new ${doc}`]], filtered_resps: ['1'], exact_match: 1 }),
        )
        .join('\n'),
    );
    await indexFolder(index, dir, { fts: false });
    const after = index.models()[0];
    assert.deepEqual([after.samples, after.correct], [12, 4 + 4]);
    index.close();
  });

  test('per-problem records duplicated across files stay first-wins, with a warning', async () => {
    const dir = tempDir('ti-shards-');
    writeFileSync(
      join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*.jsonl'],
        records: 'per-problem',
        samples: '$.outs[*]',
        fields: { problemId: 'id', text: '$.t', correct: '$.ok' },
        model: 'm',
      }),
    );
    const line = (id: number, oks: boolean[]) =>
      JSON.stringify({ id, outs: oks.map((ok, i) => ({ t: `${id}-${i}-${oks.length}`, ok })) });
    writeFileSync(join(dir, 'a.jsonl'), [line(0, [true, false]), line(1, [false, false])].join('\n'));
    writeFileSync(join(dir, 'b.jsonl'), [line(0, [true, true, true]), line(2, [true])].join('\n'));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const m = index.models()[0];
    // problem 0 from a.jsonl only (n = 2, c = 1), 1 (0 of 2), 2 (1 of 1): 5 samples, 2 correct
    assert.deepEqual([m.samples, m.correct], [5, 2]);
    assert.deepEqual(
      index.diagnostics().map((d) => `${d.file}:${d.line}:${d.message}`),
      ['b.jsonl:1:duplicate problem id "0" for model m: already indexed from a.jsonl; skipped'],
    );
    index.close();
  });
});

describe('ungraded samples are counted apart from n everywhere (finding 10)', () => {
  test('Inspect: 1 correct + 2 unscored samples of Q1: n = 1 for pass@k, the CLI shows 2 ungraded', async () => {
    const dir = tempDir('ti-ungraded-');
    const sample = (id: number, epoch: number, value: string | null) => ({
      id,
      epoch,
      input: `q${id}`,
      output: { choices: [{ message: { role: 'assistant', content: `a${id}.${epoch}` } }] },
      scores: value === null ? {} : { match: { value } },
    });
    const values = [
      ['C', null, null],
      ['C', 'I', 'I'],
      ['I', 'I', 'I'],
    ];
    writeFileSync(
      join(dir, 'log.json'),
      JSON.stringify({
        version: 2,
        eval: { task: 't', model: 'x/m' },
        samples: values.flatMap((vs, q) => vs.map((v, e) => sample(q + 1, e + 1, v))),
      }),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const [m] = index.models();
    assert.deepEqual([m.samples, m.graded, m.correct], [9, 7, 2]);
    const r = buildReport(index, { replicates: 50 });
    assert.equal(r.models[0].ungradedSamples, 2);
    // pass@1 by hand over graded samples: (1/1 + 1/3 + 0) / 3
    assert.ok(Math.abs(r.models[0].passAtK[0].value! - (1 + 1 / 3) / 3) < 1e-12);
    const table = reportTable(r);
    const [head, row] = table
      .split('\n')
      .filter((l) => /^\s*(model|x\/m|m)\b/.test(l.trim()) || l.includes('ungraded'));
    assert.match(head, /samples\s+ungraded\s+correct/);
    assert.match(row, /\b3\s+9\s+2\s+2\b/);
    index.close();
  });
});
