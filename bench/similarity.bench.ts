/**
 * Timing of the similarity analysis for one problem at full scale (not a test: prints figures).
 * Run from the repo root after compiling: `node <outDir>/bench/similarity.bench.js [numHashes] [shortlist]`.
 * The first run includes JIT warm-up.
 *
 * Texts: 1024 base and 1024 model samples of ~1500 characters, synthesised deterministically from
 * the real rlvr-probe-gsm8k traces (../shared/data/real): lines of one problem's real samples are
 * dropped, swapped, have numbers changed, and get lines of other problems mixed in, so samples of
 * the "problem" overlap each other the way real samples of one problem do.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { problemSimilarity } from '../src/core/similarity';
import { splitmix32 } from '../src/core/similarity/shingles';

const dir = path.resolve(process.cwd(), '../shared/data/real/rlvr-probe-gsm8k/results_2048_batched');
function load(file: string): string[][] {
  return fs
    .readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l).rollouts as { text: string }[]).map((r) => r.text));
}
const sft = load('sft_raw.jsonl');
const rl = load('rl_raw.jsonl');
const rnd = splitmix32(12345);
const pick = <T>(a: T[]): T => a[rnd() % a.length];
const otherLines = sft
  .flat()
  .concat(rl.flat())
  .flatMap((t) => t.split('\n'))
  .filter((l) => l.trim().length > 20);

function synth(seeds: string[], count: number, targetChars: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const lines = pick(seeds).split('\n');
    const res: string[] = [];
    for (const line of lines) {
      const r = rnd() % 100;
      if (r < 10) continue; // drop
      let l = line;
      if (r < 25) l = l.replace(/\d+/, () => String(rnd() % 1000));
      res.push(l);
      if (r >= 90) res.push(pick(otherLines));
    }
    for (let s = 0; s + 1 < res.length; s += 7) if (rnd() % 3 === 0) [res[s], res[s + 1]] = [res[s + 1], res[s]];
    let text = res.join('\n');
    while (text.length < targetChars) text += '\n' + pick(otherLines);
    out.push(text.slice(0, targetChars + (rnd() % 200)));
  }
  return out;
}

const base = synth(sft[0], 1024, 1400);
const model = synth(rl[0], 1024, 1400);
const chars = (a: string[]) => Math.round(a.reduce((s, t) => s + t.length, 0) / a.length);
console.log(
  `base ${base.length} samples, mean ${chars(base)} chars; model ${model.length}, mean ${chars(model)} chars`,
);
// Optional: `node similarity.bench.js <numHashes> <shortlist>`
const numHashes = process.argv[2] ? Number(process.argv[2]) : undefined;
const shortlist = process.argv[3] ? Number(process.argv[3]) : undefined;
for (let rep = 0; rep < 4; rep++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = problemSimilarity(base, model, { numHashes, shortlist });
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  console.log(
    `run ${rep} (K=${res.options.numHashes}, shortlist=${res.options.shortlist}): ${(t1 - t0).toFixed(0)} ms wall, ` +
      `${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU; model similarity median ${res.summary.modelSimilarity.median?.toFixed(3)}, ` +
      `baseline median ${res.summary.baselineSimilarity.median?.toFixed(3)}, model novelty median ${res.summary.modelNovelty.median?.toFixed(3)}`,
  );
}
