/**
 * The saturated base-vs-RL case of issue 19, generated: 2 models x 250 problems x 512 samples in the
 * Qwen2.5-Math / limit-of-RLVR layout (`<model>/math_eval/synth/test_synth.jsonl`, one line per problem
 * with `code[]`, `score[]`, `pred[]`, `level` 1..5), every problem solved by both models. Problem 0 has base 202/512
 * and RL 373/512 as in the issue; the others are drawn from a seeded generator (mulberry32, seed 19):
 * base c in [100, 450], RL c = base c + a step in [-40, 160] (kept in [141, 511]: the problem slowest to
 * saturate is a base model's), so the RL model leads at every k, exactly (the unit test checks it with
 * BigInt), although the base has more correct samples on some problems, and both curves reach 1 together. Used by the unit tests (crossover k at saturation) and the
 * end-to-end suite (indexing in two steps).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SATURATED = { problems: 250, samples: 512, baseModel: 'base-sft', rlModel: 'rl-grpo' } as const;

/**
 * mulberry32 (public domain), a copy independent of src/core: the generated counts must not move with the
 * product's code, and the unit tests recompute the product's seeded bootstrap with it.
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Correct counts per problem: `base[i]`, `rl[i]` of {@link SATURATED}.samples. */
export function saturatedCounts(): { base: number[]; rl: number[] } {
  const r = rng(19);
  const base: number[] = [202];
  const rl: number[] = [373];
  for (let i = 1; i < SATURATED.problems; i++) {
    const b = 100 + Math.floor(r() * 351);
    const step = -40 + Math.floor(r() * 201);
    base.push(b);
    rl.push(Math.max(141, Math.min(511, b + step)));
  }
  return { base, rl };
}

/**
 * Writes the folder under `root` (created). `textChars` pads each sample's text to about that many
 * characters (the end-to-end suite makes indexing take long enough to be cancelled); default 40.
 * @returns the two model folders' JSONL paths.
 */
export function writeSaturatedFolder(root: string, textChars = 40): { base: string; rl: string } {
  const { base, rl } = saturatedCounts();
  const n = SATURATED.samples;
  const pad = 'Let us reason step by step about the quantities given. '.repeat(Math.ceil(textChars / 56));
  const write = (model: string, counts: number[]): string => {
    const dir = join(root, model, 'math_eval', 'synth');
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i];
      // sample j is correct when (j * 7919) mod n < c: exactly c correct, spread over the list
      const score = Array.from({ length: n }, (_, j) => (j * 7919) % n < c);
      lines.push(
        JSON.stringify({
          idx: i,
          question: `Synthetic problem ${i}: what is ${i} + ${i}?`,
          gt: String(2 * i),
          level: `Level ${(i % 5) + 1}`,
          code: score.map(
            (ok, j) => `${pad.slice(0, textChars)} sample ${j}: the answer is ${ok ? 2 * i : 2 * i + 1}.`,
          ),
          pred: score.map((ok) => String(ok ? 2 * i : 2 * i + 1)),
          score,
        }),
      );
    }
    const file = join(dir, 'test_synth.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  return { base: write(SATURATED.baseModel, base), rl: write(SATURATED.rlModel, rl) };
}
