/**
 * CPU and wall time of the problem view's similarity job (what the similarity worker runs for one problem:
 * `runSimilarityJob` = nearest base samples, novelty, leave-one-out baseline and computation paths) on the
 * folder the problem-view targets are stated for: 1024 base x 1024 RL samples of one problem, texts of
 * ~4.5k characters (bench/gen.ts, seed 1, the folder test/e2e/perf.e2e.ts opens). Not a test: prints figures.
 * Run after `npx tsc -p .`: `node --expose-gc out/bench/problemSimilarity.bench.js [reps]` (the first run includes
 * JIT warm-up). Each problem is run first with nothing kept, then again with its base's work kept by the worker
 * (what a second model compared with the same base costs); with --expose-gc it also prints the heap that stays.
 * Each line also gives when the sample list's stage was ready (runSimilarityJob's `onList`, before the paths).
 * With `--warm` the process first runs the similarity worker's warm-up job (src/extension/similarityWarmup.ts,
 * what the extension runs in the worker while the user is idle) and prints its CPU time.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generate } from './gen';
import { clearBaseWorkCache, runSimilarityJob, type SimilarityJob } from '../src/extension/panelData';
import { runJob } from '../src/extension/similarityWorker';
import { warmUpJob } from '../src/extension/similarityWarmup';

const root = path.join(os.tmpdir(), 'ti-bench-problem-similarity');
const manifestPath = path.join(root, 'manifest.json');
const manifest = fs.existsSync(manifestPath)
  ? (JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as ReturnType<typeof generate>)
  : generate({ problems: 2, samples: 1024, models: 2, meanChars: 4500, seed: 1 }, root, manifestPath);

/** Texts of problem `p` of the model whose folder name is `model` (records have `code: string[]`). */
function texts(model: string, p: number): string[] {
  const f = manifest.files.find((x) => x.model === model)!;
  const line = fs.readFileSync(path.join(root, f.path), 'utf8').split('\n')[p];
  return (JSON.parse(line) as { code: string[] }).code;
}

function job(p: number): SimilarityJob {
  const base = texts('Qwen2.5-7B', p);
  const model = texts('Qwen2.5-7B-SimpleRL-Zoo', p);
  return {
    kind: 'problem',
    base: base.map((text, i) => ({ id: i + 1, sampleIndex: i, correct: i % 3 === 0, text })),
    model: model.map((text, i) => ({ id: 100000 + i, sampleIndex: i, correct: i % 2 === 0, text })),
  };
}

const args = process.argv.slice(2);
const reps = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const jobs = [job(0), job(1)];
if (args.includes('--warm')) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // WARM=samples,chars,times: another warm-up job than the worker's (to compare sizes)
  const [n, chars, times] = (process.env.WARM ?? '').split(',').map(Number);
  if (n) for (let i = 0; i < (times || 1); i++) runSimilarityJob(warmUpJob(n, chars || 1500), false);
  else for (let i = 0; i < 3; i++) runJob({ kind: 'warm' }); // SimilarityRunner.warm's passes
  const cpu = process.cpuUsage(c0);
  console.log(
    `warm-up job: ${(performance.now() - t0).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
  );
}
console.log(
  `problem: ${jobs[0].base.length} base x ${jobs[0].model.length} model samples, mean ` +
    `${Math.round(jobs[0].base.reduce((s, b) => s + b.text.length, 0) / jobs[0].base.length)} chars`,
);
for (let rep = 0; rep < reps; rep++) {
  for (let p = 0; p < jobs.length; p++) {
    // first time (nothing kept), then the same problem again: another model against the same base
    for (const cached of [false, true]) {
      if (!cached) clearBaseWorkCache();
      global.gc?.();
      const heap0 = process.memoryUsage().heapUsed;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let list = { wall: 0, cpu: 0 };
      const r = runSimilarityJob(jobs[p], true, () => {
        const c = process.cpuUsage(c0);
        list = { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
      });
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(c0);
      global.gc?.();
      const kept = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
      console.log(
        `run ${rep} problem ${p} ${cached ? 'base kept ' : 'first time'}: ${wall.toFixed(0)} ms wall, ` +
          `${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (the list's stage: ${list.wall.toFixed(0)} ms wall, ` +
          `${list.cpu.toFixed(0)} ms CPU); similarity median ${r.summary.modelSimilarity.median?.toFixed(4)}, ` +
          `novelty median ${r.summary.modelNovelty.median?.toFixed(4)}` +
          (global.gc ? `; heap kept ${kept.toFixed(0)} MB` : ''),
      );
    }
  }
}
