/**
 * Trial 12 leftovers on pairing and denominators (helper s8-trust): 10 the base's replicates pooled in the CLI report
 * only, not in the overview; 6 partial credit among boolean verdicts left out of n; 13 the training table's base
 * column over other problems than the row's; 11 benchmark folders above the model folders; 20 a partly scored
 * problem counted as having no reward score in the CSV. Each test builds its folder in a temporary directory (the
 * layouts of the trial's report and their siblings). Every expected value is the one a person reading the folder
 * would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { guessBaseModel } from '../../src/core/index/labels';
import { buildReport } from '../../src/core/report';
import { overviewData, problemData } from '../../src/extension/panelData';
import { flatLines, indexed, writeFolder } from './helpers';

describe('trial 12 finding 10: the report and the overview pool the base replicates alike', () => {
  for (const [a, b] of [
    ['replicate_1', 'replicate_2'],
    ['rep1', 'rep2'],
    ['run-1', 'run-2'],
    ['seed_1', 'seed_2'],
  ])
    test(`Qwen2.5-7B/${a}/ + ${b}/: buildReport and overviewData give the base the same samples and figures`, async () => {
      const dir = writeFolder({
        // replicate 1 solves problem 0, replicate 2 problem 1: pooled, the base solves 0 and 1 (2/4 each)
        [`Qwen2.5-7B/${a}/samples.jsonl`]: flatLines('TT FF FF'),
        [`Qwen2.5-7B/${b}/samples.jsonl`]: flatLines('FF TT FF'),
        'Qwen2.5-7B-GRPO/seed_1/samples.jsonl': flatLines('TT TT FF'),
        'Qwen2.5-7B-GRPO/seed_2/samples.jsonl': flatLines('TT FF TF'),
        'Qwen2.5-7B-PPO/samples.jsonl': flatLines('TT TT TF'),
      });
      const index = await indexed(dir);
      try {
        const ms = index.models();
        const guessed = ms[guessBaseModel(ms)];
        const r = buildReport(index, { replicates: 100 });
        const o = overviewData(index, { baseId: guessed.id, baseIsChoice: false }, 50, 100);
        const byDisplay = new Map(ms.map((m) => [m.displayId, m]));
        assert.equal(r.comparisons.length, 3);
        assert.equal(o.coverage.length, 3);
        for (const c of r.comparisons) {
          const [bm, mm] = [byDisplay.get(c.base), byDisplay.get(c.model)];
          assert.ok(bm && mm);
          assert.equal(bm.displayId, `Qwen2.5-7B/${a}:Qwen2.5-7B`);
          const ov = o.coverage.find((x) => x.modelId === mm.id);
          assert.ok(ov, `no overview coverage for ${mm.label}`);
          assert.equal(ov.baseModelId, bm.id);
          // the base's n: both replicates' samples (4 a problem), in both
          assert.deepEqual(ov.n.base, { min: 4, max: 4 });
          assert.equal(ov.problems, c.problems);
          assert.equal(ov.missing, c.missing);
          assert.deepEqual(
            { baseOnly: ov.baseOnly, modelOnly: ov.modelOnly, both: ov.both, neither: ov.neither },
            c.coverage,
          );
          assert.equal(ov.crossoverK, c.crossoverK);
          assert.equal(ov.crossoverKMax, c.crossoverKMax);
          assert.equal(ov.leaderAtK1, c.leaderAtK1);
          assert.equal(ov.leaderAtK1WithinNoise, c.leaderAtK1WithinNoise);
        }
        // the pooled base solves problems 0 and 1 (replicate 1 alone: problem 0 only)
        const ppo = o.coverage.find((x) => x.modelId === byDisplay.get('Qwen2.5-7B-PPO:Qwen2.5-7B-PPO')?.id);
        assert.ok(ppo);
        assert.deepEqual([ppo.both, ppo.modelOnly, ppo.baseOnly, ppo.neither], [2, 1, 0, 0]);
        // neither names the second replicate NOT COMPARED; both name the pool
        assert.deepEqual(r.notCompared, []);
        assert.deepEqual(
          o.warnings.filter((w) => /NOT COMPARED|not compared/i.test(w) && w.includes(b)),
          [],
          o.warnings.join('\n'),
        );
        assert.equal(r.warnings.filter((w) => /the base is the pool of its 2 replicates/.test(w)).length, 1);
        assert.equal(o.warnings.filter((w) => /the base is the pool of its 2 replicates/.test(w)).length, 1);
        // the problem panel: problem 1 (solved by replicate 2 only) is `sharpening` for PPO (2/2) against the pooled
        // base (2/4), not `expansion` against replicate 1 alone (0/2)
        const p1 = index.listProblems().find((p) => p.problemId === '1');
        assert.ok(p1);
        const pd = problemData(index, p1.id, { baseId: guessed.id, baseIsChoice: false });
        const pc = pd?.comparisons.find((x) => x.modelId === byDisplay.get('Qwen2.5-7B-PPO:Qwen2.5-7B-PPO')?.id);
        assert.equal(pc?.category, 'sharpening');
      } finally {
        index.close();
      }
    });
});
