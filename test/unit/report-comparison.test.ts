/**
 * The comparison figures of the report, the overview and the CLI: seed shards merged, ungraded samples counted apart
 * from n, the crossover k and its kind (ahead or level), the within-noise interval at k = 1, and ragged n.
 *
 * Findings of the first fresh-user trial (/work/trial1-report.md) held as regression tests, each with
 * the right value computed by hand in the test. Inputs are written here (never read from /tmp).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { readSampleTexts } from '../../src/core/index/sampleText';
import { buildReport } from '../../src/core/report/index';
import { reportTable } from '../../src/cli/main';
import { pairedBootstrapDiff, twoLevelPairedDiffAt1 } from '../../src/core/metrics/bootstrap';
import { type CrossoverResult, crossoverK } from '../../src/core/metrics/coverage';
import { overviewData } from '../../src/extension/panelData';
import { crossoverText } from '../../src/shared/claims';
import { REAL, tempDir, writeRollouts } from './helpers';

/** Unbiased pass@k of one problem (Chen et al. 2021), by the product form. */
function passAtK(n: number, c: number, k: number): number {
  let q = 1;
  for (let i = 0; i < k; i++) q *= (n - c - i) / (n - i);
  return 1 - Math.max(0, q);
}

/** The claim fields of a crossover result, as the report sets them. */
const fromResult = (r: CrossoverResult) => ({
  crossoverK: r.k,
  saturationK: r.saturationK,
  leaderAtK1: r.leaderAtK1,
  crossoverKind: r.kind,
  crossoverAheadK: r.aheadK,
});

// Trial 1 finding 9.
describe('sharded seeds: per-sample records of one model and problem spread over files', () => {
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
    const p = index.listProblems({ kind: 'all' }).find((x) => x.problemId === '1')!;
    const texts = (await readSampleTexts(index, p.id, m.id)).map((s) => s.text);
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

// Trial 1 finding 10.
describe('ungraded samples are counted apart from n everywhere', () => {
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

// Trial 1 finding 5.
describe('crossover k says whether the trailing model is ahead or only level', () => {
  const pair = (bn: number, bc: number, mn: number, mc: number, key: string) => ({
    problemKey: key,
    base: { n: bn, c: bc },
    model: { n: mn, c: mc },
  });

  test('an exact level before saturation (problems with c = 1 of 8 swapped between models): "5 (level: never ahead)"', () => {
    // A: base 1/8, RL 0/8; B: base 0/8, RL 1/8 (they cancel: k/8 each side); C: base 4/8, RL 6/8, both
    // pass@k = 1 from k = 5 (k > n - c). So RL - base = (pC(8,6,k) - pC(8,4,k)) / 3: 1/210 at k = 4, 0 from
    // k = 5. Saturation (both at their common max 2/3) only at k = 8, where A and B reach 1.
    const pairs = [pair(8, 1, 8, 0, 'A'), pair(8, 0, 8, 1, 'B'), pair(8, 4, 8, 6, 'C')];
    assert.ok(Math.abs(passAtK(8, 6, 4) - passAtK(8, 4, 4) - 1 / 70) < 1e-15);
    const r = crossoverK(pairs);
    assert.deepEqual([r.leaderAtK1, r.k, r.kind, r.aheadK, r.saturationK], ['model', 5, 'level', null, 8]);
    assert.match(crossoverText({ ...fromResult(r), crossoverInterval: null }), /^5 \(level: never ahead\)/);
  });

  test('a base that overtakes: "3 (ahead)"', () => {
    // base: 2/8 on both problems; RL: 8/8 and 0/8. RL = 1/2 at every k; base = pass@k(8, 2, k):
    // 1/4, 13/28, 9/14 at k = 1, 2, 3: ahead at k = 3.
    const ahead = crossoverK([pair(8, 2, 8, 8, 'A'), pair(8, 2, 8, 0, 'B')]);
    assert.ok(passAtK(8, 2, 2) < 0.5 && passAtK(8, 2, 3) > 0.5);
    assert.deepEqual([ahead.k, ahead.kind, ahead.aheadK], [3, 'ahead', 3]);
    assert.match(crossoverText({ ...fromResult(ahead), crossoverInterval: null }), /^3 \(ahead\)/);
  });

  test('the report and the overview carry the kind; the CLI table says it', async () => {
    const dir = tempDir('ti-cross-');
    // rollouts of the level case: two models, 3 problems x 8 samples
    const rows = (cs: number[]) =>
      cs.map((c, q): [number, boolean[]] => [q, Array.from({ length: 8 }, (_, i) => i < c)]);
    writeRollouts(join(dir, 'base.jsonl'), { name: 'base', revision: 'main' }, rows([1, 0, 4]));
    writeRollouts(join(dir, 'rl.jsonl'), { name: 'rl', revision: 'main' }, rows([0, 1, 6]));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const r = buildReport(index, { replicates: 100, base: 'base' });
    if (r.comparisons.length === 0) assert.fail(`no comparison: ${JSON.stringify(index.diagnostics())}`);
    const c = r.comparisons[0];
    assert.deepEqual([c.crossoverK, c.crossoverKind, c.crossoverAheadK], [5, 'level', null]);
    assert.match(reportTable(r), /5 \(level: never ahead\)/);
    const baseId = index.models().find((m) => m.name === 'base')!.id;
    const ov = overviewData(index, { baseId, baseIsChoice: true }, 50);
    assert.deepEqual(
      ov.coverage.map((x) => [x.crossoverK, x.crossoverKind, x.crossoverAheadK]),
      [[5, 'level', null]],
    );
    index.close();
  });
});

// Trial 1 finding 6.
describe('within noise at k = 1 counts the sampling noise within each problem', () => {
  // 5 problems x 8 samples; SFT c = 3, 4, 2, 5, 1; GRPO c = 4, 5, 2, 6, 1. GRPO - SFT pass@1 = (1+1+0+1+0)/40 = 0.075.
  const sft = [3, 4, 2, 5, 1].map((c) => ({ n: 8, c }));
  const grpo = [4, 5, 2, 6, 1].map((c) => ({ n: 8, c }));

  /**
   * The same two-level bootstrap written independently: its own PRNG (a linear congruential generator)
   * and binomial draws as sums of n Bernoulli trials. Many replicates, so its percentiles are close to
   * the true ones; the module's (another stream, 2000 replicates) must be within Monte Carlo error.
   */
  function independentTwoLevel(R: number): [number, number] {
    let state = 987654321;
    const rand = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 4294967296;
    };
    const bin = (n: number, p: number) => {
      let x = 0;
      for (let i = 0; i < n; i++) if (rand() < p) x++;
      return x;
    };
    const reps: number[] = [];
    for (let r = 0; r < R; r++) {
      let s = 0;
      for (let t = 0; t < 5; t++) {
        const j = Math.floor(rand() * 5);
        s += bin(8, grpo[j].c / 8) / 8 - bin(8, sft[j].c / 8) / 8;
      }
      reps.push(s / 5);
    }
    reps.sort((a, b) => a - b);
    return [reps[Math.floor(0.025 * R)], reps[Math.floor(0.975 * R)]];
  }

  test('the two-level interval holds 0 (about [-0.125, 0.275]); resampling problems alone gave [0.025, 0.125]', () => {
    const one = pairedBootstrapDiff(sft, grpo, [1])[0];
    assert.ok(one.ciLow! > 0, `problems-only interval [${one.ciLow}, ${one.ciHigh}] excludes 0`);
    const two = twoLevelPairedDiffAt1(sft, grpo);
    assert.ok(Math.abs(two.diff! - 0.075) < 1e-12);
    assert.ok(two.ciLow! < 0 && two.ciHigh! > 0, `[${two.ciLow}, ${two.ciHigh}]`);
    const [lo, hi] = independentTwoLevel(40000);
    assert.ok(Math.abs(two.ciLow! - lo) <= 0.03, `${two.ciLow} vs ${lo}`);
    assert.ok(Math.abs(two.ciHigh! - hi) <= 0.03, `${two.ciHigh} vs ${hi}`);
    // seeded: the same interval twice
    assert.deepEqual(twoLevelPairedDiffAt1(sft, grpo), two);
  });

  test('the report: the lead at k = 1 is within noise, consistent with the categories; pass@1 difference interval is the two-level one', async () => {
    const dir = tempDir('ti-noise-');
    const rows = (cs: number[]) =>
      cs.map((c, q): [number, boolean[]] => [q, Array.from({ length: 8 }, (_, i) => i < c)]);
    writeRollouts(join(dir, 'sft.jsonl'), { name: 'sft', revision: 'main' }, rows(sft.map((p) => p.c)));
    writeRollouts(join(dir, 'grpo.jsonl'), { name: 'grpo', revision: 'main' }, rows(grpo.map((p) => p.c)));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const c = buildReport(index, { base: 'sft' }).comparisons[0];
    assert.equal(c.leaderAtK1, 'model');
    assert.equal(c.leaderAtK1WithinNoise, true);
    assert.equal(c.categories.sharpening, 3);
    assert.equal(c.categoriesWithinNoise.sharpening, 3);
    const two = twoLevelPairedDiffAt1(sft, grpo);
    assert.deepEqual([c.passAtKDiff[0].ciLow, c.passAtKDiff[0].ciHigh], [two.ciLow, two.ciHigh]);
    assert.match(reportTable(buildReport(index, { base: 'sft' })), /lead at k = 1 within noise/);
    index.close();
  });
});

// Trial 1 finding 11.
describe('the overview and the CLI give the same comparison figures for the same data', () => {
  for (const run of ['trajectory/step-300', 'results_2048_batched']) {
    test(`rlvr-probe-gsm8k ${run}: crossover interval and within-noise agree`, async () => {
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, join(REAL, 'rlvr-probe-gsm8k', ...run.split('/')), { fts: false });
      const report = buildReport(index, {});
      const byId = new Map(index.models().map((m) => [m.id, m.displayId]));
      // the session's roles: the guessed base, as the report guesses it
      const baseId = index.models().find((m) => m.displayId === report.base)!.id;
      const ov = overviewData(index, { baseId }, 50);
      assert.ok(report.comparisons.length > 0);
      assert.equal(ov.coverage.length, report.comparisons.length);
      for (const c of ov.coverage) {
        const r = report.comparisons.find(
          (x) => x.model === byId.get(c.modelId) && x.base === byId.get(c.baseModelId),
        )!;
        assert.ok(r, `${byId.get(c.modelId)}`);
        assert.deepEqual(c.crossoverInterval, r.crossoverInterval);
        assert.equal(c.leaderAtK1WithinNoise, r.leaderAtK1WithinNoise);
        assert.equal(crossoverText(c), crossoverText(r));
      }
      index.close();
    });
  }
});

// Trial 1 finding 4, re-checked after #9.
describe('ragged n: the table, the crossover cell and the warnings agree', () => {
  test('base 8/16 on problems 0-4 and 0/4 on 5-9; RL 10/16 and 0/16: marks, warning, and a tie at saturation', async () => {
    const dir = tempDir('ti-ragged-');
    const rows = (spec: [number, number][]) =>
      spec.map(([n, c], q): [number, boolean[]] => [q, Array.from({ length: n }, (_, i) => i < c)]);
    const five = <T>(x: T) => [x, x, x, x, x];
    writeRollouts(
      join(dir, 'base.jsonl'),
      { name: 'base', revision: 'main' },
      rows([...five<[number, number]>([16, 8]), ...five<[number, number]>([4, 0])]),
    );
    writeRollouts(
      join(dir, 'rl.jsonl'),
      { name: 'rl', revision: 'main' },
      rows([...five<[number, number]>([16, 10]), ...five<[number, number]>([16, 0])]),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const r = buildReport(index, { base: 'base', replicates: 100 });
    const base = r.models.find((m) => m.id.includes('base'))!;
    const rl = r.models.find((m) => m.id.includes('rl'))!;
    // base pass@8 over problems 0-4 only (n >= 8): pass@8(16, 8) each; problems 5-9 counted missing
    const b8 = base.passAtK.find((p) => p.k === 8)!;
    assert.deepEqual([b8.problems, b8.missing], [5, 5]);
    assert.ok(Math.abs(b8.value! - passAtK(16, 8, 8)) < 1e-12);
    const r8 = rl.passAtK.find((p) => p.k === 8)!;
    assert.deepEqual([r8.problems, r8.missing], [10, 0]);
    assert.ok(Math.abs(r8.value! - passAtK(16, 10, 8) / 2) < 1e-12);
    assert.ok(r.warnings.some((w) => w.includes(base.id) && /the problem set changes along k/.test(w)));
    // the comparison is over one problem set: the crossover is searched up to the smallest n (4, the
    // base's problems 5-9), where neither saturates (base pass@4(16, 8) = 1 - 70/1820 < 1 on problems
    // 0-4): no crossover and no saturation within it. Beyond k = 4 problems 5-9 would drop out (the
    // "tie at saturation from k = 9" shown before came from that shrinking set: trial 3, finding 2).
    const c = r.comparisons[0];
    assert.deepEqual([c.leaderAtK1, c.crossoverK, c.saturationK, c.crossoverKMax], ['model', null, null, 4]);
    const table = reportTable(r);
    assert.match(table, /\(5\/10\)/);
    assert.match(table, /none \(model leads\)/);
    assert.match(table, /searched k ≤ 4 only/);
    assert.doesNotMatch(table, /tied at saturation/);
    index.close();
  });
});
