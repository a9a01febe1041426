/**
 * PPL_base from the log-probability sidecar, in the core (src/core/similarity/ppl.ts): the parser, the resolution
 * to indexed samples, and the report's PPL section (JSON and table), against values computed by hand.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportTable } from '../../src/cli/main';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { LOGPROB_SIDECAR, parseLogprobSidecar, perplexity, readPplSidecar } from '../../src/core/similarity/ppl';
import { buildReport } from '../../src/core/report/index';
import { tempDir } from './helpers';

const E = Math.E;
const close = (a: number | null, b: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

describe('log-probability sidecar', () => {
  test('perplexity = exp(-sum/T); T < 1 and non-finite inputs throw', () => {
    close(perplexity(-2, 2), E, 'e');
    close(perplexity(0, 5), 1, 'certain tokens');
    assert.throws(() => perplexity(-1, 0), RangeError);
    assert.throws(() => perplexity(Number.NaN, 3), RangeError);
  });

  test('parser: both line forms, BOM, and one diagnostic per bad line with its line number', () => {
    const text = [
      `\ufeff${JSON.stringify({ problemId: 0, model: 'm', sampleIndex: 0, tokenLogprobs: [-1, -2] })}`,
      '',
      JSON.stringify({ dataset: 'd', problemId: 'p/1', model: 'm', sampleIndex: 3, sumLogprob: -6, tokens: 3 }),
      '[1,2]',
      JSON.stringify({ problemId: 1.5, model: 'm', sampleIndex: 0, tokenLogprobs: [-1] }),
      JSON.stringify({ problemId: 1, model: 'm', sampleIndex: -1, tokenLogprobs: [-1] }),
      JSON.stringify({ problemId: 1, model: 'm', sampleIndex: 0, sumLogprob: 2, tokens: 1 }),
      JSON.stringify({ problemId: 1, model: 'm', sampleIndex: 0, tokenLogprobs: [] }),
      JSON.stringify({ problemId: 1, model: 'm', sampleIndex: 0 }),
    ].join('\n');
    const { entries, diagnostics } = parseLogprobSidecar(text, 'side.jsonl');
    assert.deepEqual(entries, [
      { line: 1, dataset: null, problemId: '0', model: 'm', sampleIndex: 0, sumLogprob: -3, tokens: 2 },
      { line: 3, dataset: 'd', problemId: 'p/1', model: 'm', sampleIndex: 3, sumLogprob: -6, tokens: 3 },
    ]);
    assert.deepEqual(
      diagnostics.map((d) => [d.file, d.line, d.message]),
      [
        ['side.jsonl', 4, 'expected a JSON object'],
        ['side.jsonl', 5, 'problemId must be a string or an integer'],
        ['side.jsonl', 6, 'sampleIndex must be an integer >= 0'],
        ['side.jsonl', 7, 'sumLogprob must be a finite number <= 0'],
        ['side.jsonl', 8, 'no tokens'],
        ['side.jsonl', 9, 'needs tokenLogprobs, or sumLogprob and tokens'],
      ],
    );
  });

  describe('report on a folder with a sidecar', async () => {
    // Two models of one run (an SFT base and its PPO child), two problems, two samples each.
    const root = tempDir();
    const rollouts = (model: string, verdicts: boolean[][]) =>
      verdicts
        .map((v, qid) =>
          JSON.stringify({
            qid,
            question: `q${qid}`,
            gold: '1',
            model_name: model,
            rollouts: v.map((correct, i) => ({ rollout: i, text: `${model} ${qid} ${i}`, correct })),
          }),
        )
        .join('\n');
    writeFileSync(
      join(root, 'sft_raw.jsonl'),
      rollouts('org/m-sft', [
        [true, false],
        [false, false],
      ]),
    );
    writeFileSync(
      join(root, 'rl_raw.jsonl'),
      rollouts('org/m-ppo', [
        [true, true],
        [true, false],
      ]),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, root);
    const models = index.models();
    const sft = models.find((m) => m.name === 'org/m-sft')!;
    const ppo = models.find((m) => m.name === 'org/m-ppo')!;
    mkdirSync(join(root, '.trace-inspector'));
    writeFileSync(
      join(root, ...LOGPROB_SIDECAR.split('/')),
      [
        { problemId: 0, model: sft.displayId, sampleIndex: 0, tokenLogprobs: [-1, -1] }, // e
        { problemId: '0', model: sft.label, sampleIndex: 1, sumLogprob: -4, tokens: 2 }, // e^2
        { problemId: 1, model: sft.displayId, sampleIndex: 0, tokenLogprobs: [-3] }, // e^3
        { problemId: 0, model: ppo.displayId, sampleIndex: 0, tokenLogprobs: [-0.5, -0.5] }, // e^0.5
        { problemId: 1, model: ppo.displayId, sampleIndex: 0, sumLogprob: -1, tokens: 1 }, // e
        { problemId: 1, model: 'nobody', sampleIndex: 0, tokenLogprobs: [-1] },
        { problemId: 1, model: ppo.displayId, sampleIndex: 9, tokenLogprobs: [-1] },
        { problemId: 7, model: ppo.displayId, sampleIndex: 0, tokenLogprobs: [-1] },
      ]
        .map((o) => JSON.stringify(o))
        .concat(['{oops'])
        .join('\n'),
    );

    test('every line is a point or counted as skipped with its reason', () => {
      const read = readPplSidecar(root, index);
      assert.equal(read.points.length, 5);
      assert.equal(read.skipped, 4);
      assert.deepEqual(
        read.diagnostics.map((d) => [d.line, d.message]),
        [
          [6, 'model "nobody" is not in the index'],
          [7, `no sample 9 of ${ppo.label} for problem 1`],
          [8, 'problem "7" of dataset "' + index.problem(read.points[0].problemId)!.dataset + '" is not in the index'],
          [9, 'not valid JSON'],
        ],
      );
      // one problem only: the other problem's lines are neither points nor skipped; malformed lines still count
      const p0 = read.points.find((p) => p.modelId === sft.id)!.problemId;
      const one = readPplSidecar(root, index, p0);
      const got = one.points.map((p) => p.ppl).sort((a, b) => a - b);
      for (const [i, v] of [E ** 0.5, E, E ** 2].entries()) close(got[i], v, `point ${i}`);
      assert.equal(one.skipped, 1);
    });

    test('report JSON: quartiles (type 7) per model and the median ratio model / base', () => {
      const r = buildReport(index, { ppl: readPplSidecar(root, index) });
      assert.ok(r.ppl);
      const s = r.ppl.models.find((m) => m.model === sft.displayId)!;
      const p = r.ppl.models.find((m) => m.model === ppo.displayId)!;
      // base: e, e^2, e^3 -> median e^2, q1 (e + e^2)/2, q3 (e^2 + e^3)/2
      assert.deepEqual([s.samples, s.problems, s.correct], [3, 2, 1]);
      close(s.median, E ** 2, 'base median');
      close(s.q1, (E + E ** 2) / 2, 'base q1');
      close(s.q3, (E ** 2 + E ** 3) / 2, 'base q3');
      close(s.mean, (E + E ** 2 + E ** 3) / 3, 'base mean');
      // model: e^0.5, e -> median (e^0.5 + e)/2
      assert.deepEqual([p.samples, p.problems, p.correct], [2, 2, 2]);
      close(p.median, (E ** 0.5 + E) / 2, 'model median');
      assert.deepEqual(
        r.ppl.comparisons.map((c) => [c.base, c.model]),
        [[sft.displayId, ppo.displayId]],
      );
      close(r.ppl.comparisons[0].medianRatio, (E ** 0.5 + E) / 2 / E ** 2, 'median ratio');
      assert.equal(r.ppl.skipped, 4);
      // without a sidecar there is no section at all
      assert.equal(buildReport(index, {}).ppl, undefined);
    });

    test('report table: the PPL_base section with both models, the ratio and the skipped lines', () => {
      const table = reportTable(buildReport(index, { ppl: readPplSidecar(root, index) }));
      assert.match(
        table,
        /PPL_base \(perplexity under the base model, from \.trace-inspector\/base-logprobs\.jsonl\):/,
      );
      // (e^0.5 + e)/2 = 2.18350; ratio 2.18350 / e^2 = 0.29550
      assert.match(table, /\norg\/m-ppo\s+2\s+2\s+2\s+2\.184\s+1\.916\s+2\.451\s+2\.184\n/);
      assert.match(table, /org\/m-ppo vs org\/m-sft: median PPL_base ratio 0\.296 /);
      assert.match(table, /4 sidecar lines skipped:/);
      assert.match(table, /base-logprobs\.jsonl:6: model "nobody" is not in the index/);
    });
  });
});
