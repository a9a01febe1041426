/**
 * Qwen2.5-Math records for tests that build their folder record by record (the layouts of trial 4's gen.py):
 * `putJsonLines` writes a file of JSON lines, `qwenRecord` one problem with the given verdicts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `lines` as JSON lines to `dir`/`rel`, creating its folders. */
export function putJsonLines(dir: string, rel: string, lines: unknown[]): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** One Qwen2.5-Math record with the given verdicts (answer "1" when correct, else "2"). */
export function qwenRecord(idx: number, scores: boolean[]) {
  return {
    idx,
    question: `q${idx}`,
    gt: '1',
    code: scores.map((s) => `\\boxed{${s ? 1 : 2}}`),
    score: scores,
    pred: scores.map((s) => (s ? '1' : '2')),
  };
}

/** The Qwen2.5-Math file of trial 4's layout, under a model folder. */
export const QWEN_FILE = 'math_eval/math500/test_qwen25-math-cot_-1_seed0_t1.0_s0_e-1.jsonl';
