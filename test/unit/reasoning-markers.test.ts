import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { type MeasureStats, reasoningMarkers } from '../../src/core/analyses/reasoningMarkers';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { bootstrapMeanCI } from '../../src/core/metrics/bootstrap';
import { buildReport, buildReportAsync } from '../../src/core/report/index';
import { reportCsv, reportTable } from '../../src/core/report/sections';
import { rolloutLine, writeFolder } from './helpers';

/**
 * 16 problems: 0-7 easy (6 of 8 samples correct, about 100 words), 8-15 hard (2 of 8 correct, about 400 words).
 * Model `same`: within each problem correct samples are 5 words longer than incorrect ones for even problems and
 * 5 words shorter for odd ones (mean within-problem difference exactly 0), so length and correctness are unrelated
 * within problems but strongly related across them (correct samples are mostly from the short, easy problems).
 * Model `longer`: correct samples always 5 words longer within their problem.
 */
const verdicts = (q: number) => Array.from({ length: 8 }, (_, i) => i < (q < 8 ? 6 : 2));
const words = (q: number, correct: boolean, model: string) => {
  const base = q < 8 ? 100 : 400;
  const sign = model === 'longer' || q % 2 === 0 ? 1 : -1;
  return base + (correct ? 5 : -5) * sign;
};
// "Wait, " once per sample; then `words - 1` words of "step"
const text = (q: number, _i: number, model: string, correct: boolean) =>
  `Wait, ${'step '.repeat(words(q, correct, model) - 1).trim()}`;

function folder(): string {
  const lines = (model: string) =>
    Array.from({ length: 16 }, (_, q) => rolloutLine(q, model, verdicts(q), text)).join('\n');
  return writeFolder({ 'same/r.jsonl': lines('same'), 'longer/r.jsonl': lines('longer') });
}

const BOOT = { replicates: 500, seed: 7 };

describe('reasoning markers: means, intervals and the within-problem association', () => {
  test('length unrelated to correctness within problems but related across them: "no relation"', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const a = reasoningMarkers(index, { bootstrap: BOOT });
    assert.equal(a.tokenRule.kind, 'pieces', 'the rollouts carry no token counts');
    assert.deepEqual(
      a.measures.map((d) => d.id),
      ['chars', 'tokens', 'verification', 'backtracking', 'subgoal', 'backward'],
    );
    const same = a.models.find((m) => m.label.includes('same'));
    const longer = a.models.find((m) => m.label.includes('longer'));
    assert.ok(same && longer);
    for (const id of ['chars', 'tokens']) {
      const s: MeasureStats | undefined = same.measures.find((x) => x.measure === id);
      assert.ok(s);
      assert.ok(Math.abs(s.within.mean ?? Number.NaN) < 1e-9, `${id}: within mean ${s.within.mean}`);
      assert.equal(s.within.relation, 'no relation', id);
      assert.equal(s.within.problems, 16);
      assert.ok(
        (s.across ?? 0) < -100,
        `${id}: pooled across problems, correct samples are much shorter (${s.across})`,
      );
      const l: MeasureStats | undefined = longer.measures.find((x) => x.measure === id);
      assert.equal(l?.within.relation, 'higher when correct', id);
    }
    // pieces of a sample: "wait" "," and (words - 1) "step": words + 1; chars: 6 + 5 * (words - 1) - 1
    const pieces = (q: number, c: boolean, m: string) => words(q, c, m) + 1;
    const chars = (q: number, c: boolean, m: string) => 5 * (words(q, c, m) - 1) + 5;
    const qs = Array.from({ length: 16 }, (_, q) => q);
    for (const [id, f] of [
      ['tokens', pieces],
      ['chars', chars],
      // backtracking: one "wait" per sample, per 1,000 pieces
      ['backtracking', (q: number, c: boolean, m: string) => 1000 / pieces(q, c, m)],
    ] as const) {
      const s = same.measures.find((x) => x.measure === id);
      const correct = qs.map((q) => f(q, true, 'same'));
      const incorrect = qs.map((q) => f(q, false, 'same'));
      const within = qs.map((q) => correct[q] - incorrect[q]);
      // the intervals recomputed from the per-problem values of the hand-made samples
      for (const [got, values] of [
        [s?.correct, correct],
        [s?.incorrect, incorrect],
        [s?.within, within],
      ] as const) {
        const want = bootstrapMeanCI(values, BOOT);
        assert.ok(got);
        for (const key of ['mean', 'low', 'high'] as const)
          assert.ok(Math.abs((got[key] ?? Number.NaN) - (want[key] ?? Number.NaN)) < 1e-9, `${id} ${key}`);
      }
    }
    const verification = same.measures.find((x) => x.measure === 'verification');
    assert.equal(verification?.all.mean, 0);
    assert.equal(verification?.within.relation, 'no relation');
    index.close();
  });

  test('no verdict from too few problems, none from no problem with both kinds of sample', async () => {
    // 4 problems of the `longer` model (correct samples always longer): too few for a verdict; an all-correct
    // model: no problem with an incorrect sample
    const lines = (n: number, model: string, v: (q: number) => boolean[]) =>
      Array.from({ length: n }, (_, q) => rolloutLine(q, model, v(q), text)).join('\n');
    const dir = writeFolder({
      'longer/r.jsonl': lines(4, 'longer', verdicts),
      'right/r.jsonl': lines(4, 'right', () => Array.from({ length: 8 }, () => true)),
    });
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const a = reasoningMarkers(index, { bootstrap: BOOT });
    const chars = (label: string) =>
      a.models.find((m) => m.label.includes(label))?.measures.find((x) => x.measure === 'chars')?.within;
    assert.deepEqual([chars('longer')?.relation, chars('longer')?.problems], ['too few problems', 4]);
    assert.ok((chars('longer')?.low ?? 0) > 0, 'the interval is still given');
    assert.deepEqual(
      [chars('right')?.relation, chars('right')?.problems, chars('right')?.mean],
      ['not computable', 0, null],
    );
    index.close();
  });

  test('the report section is opt-in (--markers): JSON, table and CSV', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const plain = buildReport(index, { replicates: 50 });
    assert.equal(plain.markers, undefined);
    const r = buildReport(index, { replicates: 50, markers: true });
    assert.equal(r.markers?.models.length, 2);
    const t = reportTable(r);
    assert.match(t, /reasoning markers: .*tokens approximated as pieces/);
    assert.match(t, /no relation/);
    assert.match(t, /higher when correct/);
    const withExamples = await buildReportAsync(index, { replicates: 50, markers: true });
    const ex = withExamples.markers?.examples ?? [];
    assert.deepEqual(
      ex.map((e) => [e.behaviour, e.phrase, e.marker, e.before, e.after.slice(0, 10)]),
      [0, 1, 2].map(() => ['backtracking', 'wait', 'Wait', '', ', step ste']),
      'three examples of backtracking, from three problems; no other behaviour has a marker',
    );
    assert.equal(new Set(ex.map((e) => e.problem)).size, 3);
    assert.match(reportTable(withExamples), /backtracking "wait": …\[\[Wait\]\], step step/);
    const csv = reportCsv(r).split('\n');
    const row = csv.find((l) => l.includes('markers:chars:within'));
    assert.ok(row, 'a CSV row per model, measure and split');
    assert.equal(row.split(',').length, csv[0].split(',').length, 'as many cells as the header');
    index.close();
  });
});
