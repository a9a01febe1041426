/**
 * A TRL-shaped completions folder for the tests (trl.test.ts, e2e/trl.e2e.ts): `<root>/grpo-run/completions/
 * completions_<step>.parquet` for steps 100, 200, 300, written with hyparquet-writer: columns step, prompt,
 * completion, accuracy_reward, format_reward, advantage; three prompts, four generations each.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';

export const PROMPTS = ['What is 2 + 3?', 'Name a prime above 10.', 'Solve x + 1 = 4.'];
/** Correct (1) or not (0) per step, prompt and generation: steps 100, 200, 300 solve 5, 8 and 10 of 12. */
export const ACCURACY: Record<number, number[][]> = {
  100: [
    [1, 0, 0, 1],
    [0, 0, 0, 0],
    [1, 1, 0, 1],
  ],
  200: [
    [1, 1, 1, 1],
    [0, 1, 0, 0],
    [1, 0, 1, 1],
  ],
  300: [
    [1, 1, 1, 1],
    [1, 1, 0, 1],
    [1, 0, 1, 1],
  ],
};

/** The rows of one step's file, in TRL's order: each prompt's generations together. */
export function stepRows(step: number) {
  const rows: { prompt: string; completion: string; accuracy: number; format: number; advantage: number }[] = [];
  PROMPTS.forEach((prompt, p) => {
    ACCURACY[step][p].forEach((accuracy, g) => {
      rows.push({
        prompt,
        completion: `<think>step ${step}, try ${g}</think> answer ${accuracy ? 'right' : 'wrong'}`,
        accuracy,
        // TRL logs NaN for a reward function that does not apply to a row
        format: p === 1 && g === 3 ? Number.NaN : 0.5 + g / 10,
        advantage: accuracy - 0.5,
      });
    });
  });
  return rows;
}

export function writeStep(dir: string, step: number): void {
  const rows = stepRows(step);
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'step', data: rows.map(() => BigInt(step)), type: 'INT64' },
      { name: 'prompt', data: rows.map((r) => r.prompt), type: 'STRING' },
      { name: 'completion', data: rows.map((r) => r.completion), type: 'STRING' },
      { name: 'accuracy_reward', data: rows.map((r) => r.accuracy), type: 'DOUBLE' },
      { name: 'format_reward', data: rows.map((r) => r.format), type: 'DOUBLE' },
      { name: 'advantage', data: rows.map((r) => r.advantage), type: 'DOUBLE' },
    ],
    rowGroupSize: 5, // several row groups per file
  });
  writeFileSync(join(dir, `completions_${step}.parquet`), new Uint8Array(buf));
}

/** Writes the folder's three steps under `root` (created as needed). */
export function writeTrlFolder(root: string): void {
  const dir = join(root, 'grpo-run', 'completions');
  mkdirSync(dir, { recursive: true });
  for (const step of [100, 200, 300]) writeStep(dir, step);
}
