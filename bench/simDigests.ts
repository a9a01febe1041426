/**
 * SHA-256 digests of everything the similarity job computes, on the bench folder, generated problems and the
 * real folders: to check that a change to the similarity code gives the same results, to the last digit, as the
 * code before it. Run the same script with both builds and compare the two outputs (they must be equal line for
 * line); not a test (the generated problems and the bench folder are too large for the unit suite; the unit
 * suite's test/unit/similarity-fast.test.ts keeps digests of the real folders and one generated problem).
 *
 *   node out/bench/simDigests.js [--bench <folder>] [--gen <folder>]... [--limit N] > digests.txt
 *
 * Each line: `<case>` and the digests of the job's list stage, its result, the result of the same job again with the
 * base kept (what a second model compared with that base gets), that job's list stage, the novelty jobs of three
 * model samples, and `problemPaths`. `--bench`: a folder made by bench/gen.ts (the first N problems
 * of its two models, `--limit`, default every problem); `--gen`: the same for another generated folder (each
 * given folder is read, never written). The real folders are read from `--real <folder>` (default
 * ../shared/data/real, relative to the cwd: the repo root).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clearChainMemo, problemPaths } from '../src/core/similarity';
import { clearBaseWorkCache, runNoveltyJob, runSimilarityJob, type SimilarityJob } from '../src/extension/panelData';

const sha = (x: unknown): string => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

function jsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

function job(b: string[], m: string[]): SimilarityJob {
  return {
    kind: 'problem',
    base: b.map((text, i) => ({ id: i + 1, sampleIndex: i, correct: i % 3 === 0 ? null : i % 2 === 0, text })),
    model: m.map((text, i) => ({ id: 100000 + i, sampleIndex: i, correct: i % 3 !== 0, text })),
  };
}

function line(name: string, b: string[], m: string[]): void {
  clearBaseWorkCache();
  clearChainMemo();
  const j = job(b, m);
  let list: unknown = null;
  const result = runSimilarityJob(j, true, (l) => {
    list = l;
  });
  // a second model against the kept base: the same figures (the list comes with the baseline then)
  let keptList: unknown = null;
  const kept = runSimilarityJob(j, true, (l) => {
    keptList = l;
  });
  const nov = [0, 1, 2]
    .filter((i) => i < m.length)
    .map((i) => runNoveltyJob({ kind: 'novelty', text: m[i], base: j.base }));
  const paths = problemPaths(b, m);
  console.log(`${name} ${sha(list)} ${sha(result)} ${sha(kept)} ${sha(keptList)} ${sha(nov)} ${sha(paths)}`);
}

/** The problems of a folder made by bench/gen.ts: texts per model, per problem (line). */
function generated(folder: string, limit: number, tag: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as {
    files: { path: string; model: string }[];
  };
  const dir = fs.existsSync(path.join(folder, 'results')) ? path.join(folder, 'results') : folder;
  const read = (model: string) =>
    jsonl<{ code: string[] }>(path.join(dir, manifest.files.find((f) => f.model === model)!.path)).map((l) => l.code);
  const base = read('Qwen2.5-7B');
  const rl = read('Qwen2.5-7B-SimpleRL-Zoo');
  for (let p = 0; p < Math.min(limit, base.length); p++) line(`${tag}/p${p}`, base[p], rl[p]);
}

const args = process.argv.slice(2);
const opt = (name: string): string[] => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []));
const limit = Number(opt('--limit')[0] ?? Infinity);
for (const f of opt('--bench')) generated(f, limit, `bench:${path.basename(f)}`);
for (const f of opt('--gen')) generated(f, limit, `gen:${path.basename(f)}`);

const real = path.resolve(opt('--real')[0] ?? path.join(process.cwd(), '../shared/data/real'));
if (fs.existsSync(real)) {
  // rlvr-probe-gsm8k: per problem (8 x 8) and every rollout of a run pooled (240 x 240) per run folder
  const gsm = path.join(real, 'rlvr-probe-gsm8k');
  const runs = [
    'results_1024_cuda',
    'results_2048_batched',
    ...fs.readdirSync(path.join(gsm, 'trajectory')).map((s) => `trajectory/${s}`),
  ];
  for (const run of runs) {
    type Row = { rollouts: { text: string }[] };
    const sft = jsonl<Row>(path.join(gsm, run, 'sft_raw.jsonl')).map((l) => l.rollouts.map((r) => r.text));
    const rl = jsonl<Row>(path.join(gsm, run, 'rl_raw.jsonl')).map((l) => l.rollouts.map((r) => r.text));
    for (let p = 0; p < Math.min(sft.length, rl.length); p++) line(`gsm8k:${run}/p${p}`, sft[p], rl[p]);
    line(`gsm8k:${run}/pooled`, sft.flat(), rl.flat());
  }
  // qwen25-math: 100 problems x 8, one model: the first 4 samples as "base", the last 4 as "model"; pooled 400 x 400
  const qwen = jsonl<{ code: string[] }>(path.join(real, 'qwen25-math-eval-example/math_cot_100.jsonl')).map(
    (l) => l.code,
  );
  for (let p = 0; p < qwen.length; p++) line(`qwen25:p${p}`, qwen[p].slice(0, 4), qwen[p].slice(4));
  const all = qwen.flat();
  line('qwen25:pooled', all.slice(0, 400), all.slice(400));
  // tot-game24: 100 standard samples ("base") vs 100 chain-of-thought samples per problem (> the shortlist)
  const tot = (f: string) =>
    (JSON.parse(fs.readFileSync(path.join(real, 'tot-game24/logs/game24', f), 'utf8')) as { ys: string[] }[]).map(
      (x) => x.ys,
    );
  const std = tot('gpt-4_0.7_naive_standard_sample_100_start900_end1000.json');
  const cot = tot('gpt-4_0.7_naive_cot_sample_100_start900_end1000.json');
  for (let p = 0; p < Math.min(std.length, cot.length); p += 5) line(`game24:p${p}`, std[p], cot[p]);
  // humaneval: 10 completions per task, the first 5 against the last 5; all tasks pooled (820 x 820)
  const he = jsonl<{ task_id: string; completion: string }>(
    path.join(real, 'humaneval-samples-flat/hEvalData/hEvalTest35_noExp_1dPro_1CPT_500Tkns_10SPT_Samples.jsonl'),
  );
  const byTask = new Map<string, string[]>();
  for (const r of he) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r.completion]);
  let t = 0;
  for (const [task, c] of byTask) if (t++ % 8 === 0) line(`humaneval:${task}`, c.slice(0, 5), c.slice(5));
  line(
    'humaneval:pooled',
    he.filter((_, i) => i % 2 === 0).map((r) => r.completion),
    he.filter((_, i) => i % 2 === 1).map((r) => r.completion),
  );
}
