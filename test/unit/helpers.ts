import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readSampleTexts } from '../../src/core/index/sampleText';
import type { TraceIndex } from '../../src/core/index/traceIndex';

/** The shared real results folders (read-only; never copied into the repository). Tests run from the repository root. */
export const REAL = resolve(process.cwd(), '../shared/data/real');

/** A fresh temporary folder. */
export function tempDir(prefix = 'ti-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A results folder in a fresh temporary folder: each file's text by its `/`-separated relative path. */
export function writeFolder(files: Record<string, string>, prefix = 'ti-folder-'): string {
  const dir = tempDir(prefix);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** Per-problem correct counts recomputed straight from a rollout JSONL file (independent of our readers). */
export function rawRolloutCounts(file: string): Map<string, { n: number; c: number }> {
  const out = new Map<string, { n: number; c: number }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line) as { qid: number; rollouts: { correct: boolean }[] };
    out.set(String(rec.qid), { n: rec.rollouts.length, c: rec.rollouts.filter((r) => r.correct).length });
  }
  return out;
}

/** All k-subsets of 0..n-1, in lexicographic order (the exact maj@k and best-of-k tests enumerate them). */
export function* subsets(n: number, k: number, start = 0, acc: number[] = []): Generator<number[]> {
  if (acc.length === k) {
    yield [...acc];
    return;
  }
  for (let i = start; i <= n - (k - acc.length); i++) {
    acc.push(i);
    yield* subsets(n, k, i + 1, acc);
    acc.pop();
  }
}

/**
 * Writes a small per-problem rollouts JSONL file (the `rollouts` reader's format) for hand-made runs:
 * one line per `[qid, verdicts]`, one rollout per verdict, the rollout's text given by `text(i)`
 * (default `x` repeated i + 1 times). Creates the folder.
 */
export function writeRollouts(
  file: string,
  model: { name: string; revision: string },
  rows: [number, boolean[]][],
  text: (i: number) => string = (i) => 'x'.repeat(i + 1),
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    rows
      .map(([qid, verdicts]) =>
        JSON.stringify({
          qid,
          question: `q${qid}`,
          gold: '1',
          model_name: model.name,
          model_revision: model.revision,
          rollouts: verdicts.map((v, i) => ({ rollout: i, text: text(i), correct: v })),
        }),
      )
      .join('\n'),
  );
}

/**
 * The text of every sample of an index by sample id, read as the product reads it: from the results
 * files (sampleText.ts `readSampleTexts`, hash checked), one (problem, model) at a time.
 */
export async function textsById(index: TraceIndex): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const pairs = index.db
    .prepare('SELECT problem_id AS p, model_id AS m FROM samples GROUP BY problem_id, model_id')
    .all() as { p: number; m: number }[];
  for (const { p, m } of pairs) for (const s of await readSampleTexts(index, p, m)) out.set(s.id, s.text);
  return out;
}
