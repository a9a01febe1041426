/**
 * The problem view's path data (SimilarityData.samples[].path and .paths) on the real
 * rlvr-probe-gsm8k results_2048_batched run, against a recomputation from the raw JSONL files.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { computationPath } from '../../src/core/similarity';
import { buildReportAsync } from '../../src/core/report/index';
import { pathsData, readSimilarityFilesJob, runSimilarityJob, similarityFilesJob } from '../../src/extension/panelData';
import { pathLine } from '../../src/shared/pathLine';
import { MAX_NEW_STEPS } from '../../src/shared/protocol';
import { REAL } from './helpers';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');

interface Line {
  qid: number;
  rollouts: { rollout: number; text: string; correct: boolean }[];
}
const read = (f: string): Map<string, Line> =>
  new Map(
    readFileSync(join(RUN, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Line)
      .map((l) => [String(l.qid), l]),
  );

describe('problem view path data on rlvr-probe-gsm8k', { skip: !existsSync(RUN) && `missing ${RUN}` }, async () => {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, RUN);
  const models = index.models();
  const sft = models.find((m) => /sft/.test(m.displayId))!;
  const rl = models.find((m) => /rlvr-ppo/.test(m.displayId))!;
  const sftRaw = read('sft_raw.jsonl');
  const rlRaw = read('rl_raw.jsonl');

  test('every problem: per-sample path and the per-problem counts equal the recomputation', async () => {
    let checked = 0;
    for (const p of index.listProblems({ kind: 'all' }, 0, 100)) {
      const body = runSimilarityJob(await readSimilarityFilesJob(similarityFilesJob(index, p.id, sft.id, rl.id)));
      const base = sftRaw.get(p.problemId)!.rollouts;
      const baseSets = base.map((r) => new Set(computationPath(r.text).keys));
      const want = { modelInBase: 0, modelWithSteps: 0, baseInOthers: 0, baseWithSteps: 0 };
      for (const s of body.samples) {
        const raw = rlRaw.get(p.problemId)!.rollouts.find((r) => r.rollout === s.sampleIndex)!;
        const keys = computationPath(raw.text).keys;
        const full = baseSets.filter((set) => keys.length > 0 && keys.every((k) => set.has(k))).length;
        const newCount = keys.filter((k) => !baseSets.some((set) => set.has(k))).length;
        assert.equal(s.path!.steps, keys.length);
        assert.equal(s.path!.fullPath, full, `${p.problemId} #${s.sampleIndex}`);
        assert.equal(s.path!.candidates, 8);
        assert.equal(s.path!.newStepCount, newCount);
        assert.equal(s.path!.newSteps.length, Math.min(newCount, MAX_NEW_STEPS));
        if (raw.correct && keys.length > 0) {
          want.modelWithSteps++;
          if (full > 0) want.modelInBase++;
        }
        checked++;
      }
      base.forEach((r, i) => {
        const keys = [...baseSets[i]];
        if (!r.correct || keys.length === 0) return;
        want.baseWithSteps++;
        if (baseSets.some((set, j) => j !== i && keys.every((k) => set.has(k)))) want.baseInOthers++;
      });
      assert.deepEqual(body.paths, want, p.problemId);
    }
    assert.equal(checked, 240);
  });

  test("the overview's path summary (getPaths) equals the report's, interval included (same seed and replicates)", async () => {
    const d = await pathsData(index, { baseId: sft.id }, 500);
    assert.equal(d.summaries.length, 1);
    const o = d.summaries[0];
    assert.equal(o.baseModelId, sft.id);
    assert.equal(o.modelId, rl.id);
    const r = (await buildReportAsync(index, { paths: true, replicates: 500, seed: 12345 })).paths![0];
    assert.deepEqual(
      { ...o, baseModelId: undefined, modelId: undefined },
      {
        baseModelId: undefined,
        modelId: undefined,
        problems: r.problems,
        leftOut: r.leftOut,
        correctSamples: r.correctSamples,
        correctWithoutSteps: r.correctWithoutSteps,
        pathInBase: r.pathInBase,
        pathInBaseLeaveOneOut: r.pathInBaseLeaveOneOut,
        baselinePathInBase: r.baselinePathInBase,
      },
    );
    assert.equal(o.pathInBase.samples, 175);
  });

  test("by default the overview's path-share interval is the CLI report's (trial 4: 81.5% [48.0, 100.0] vs [50.0, 100.0], 1000 vs 2000 replicates)", async () => {
    const o = (await pathsData(index, { baseId: sft.id })).summaries[0];
    const r = (await buildReportAsync(index, { paths: true })).paths![0];
    assert.deepEqual(o.pathInBase, r.pathInBase);
    assert.deepEqual(o.baselinePathInBase, r.baselinePathInBase);
  });

  test('problem 0, RL sample 0: the line names its new steps (docs/similarity.md example)', async () => {
    const p0 = index.listProblems({ kind: 'all' }, 0, 100).find((p) => p.problemId === '0')!;
    const s0 = runSimilarityJob(
      await readSimilarityFilesJob(similarityFilesJob(index, p0.id, sft.id, rl.id)),
    ).samples.find((s) => s.sampleIndex === 0)!;
    assert.equal(
      pathLine(s0.path!),
      'path not in base: 0/8 base samples compute all 11 steps (at most 1); 10 steps new: 47 × 10 = 470; 52 × 8 = 416; 470 + 416 = 886; …',
    );
  });
});
