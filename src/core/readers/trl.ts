/**
 * Reader for the completions TRL's online trainers (GRPO, RLOO, ...) log as Parquet during training:
 * `<run>/completions/completions_<step>.parquet`, one row per sampled completion, with the columns `step`,
 * `prompt`, `completion`, one column per reward function (named after it: `accuracy_reward`, `format_reward`)
 * and `advantage`. Read with hyparquet (pure JavaScript), one row group at a time (./parquet.ts).
 *
 * What a row becomes (docs/formats.md, "TRL completions (Parquet)"):
 * - model: the run's policy at that step: name = the folder holding `completions/` (the results folder's name
 *   when `completions/` is at its root), revision `step-<step>` (the row's `step`, else the number in the file
 *   name), so the files of one run are a checkpoint series (grouping/series.ts) and the overview's Training tab
 *   and the report's training series follow the steps;
 * - problem: the prompt, keyed by the first 16 hex digits of its SHA-256 (TRL logs no problem id), in dataset
 *   `prompts`; the prompt is its question. A conversational prompt or completion (a list of messages) is its
 *   messages' contents, each after its role;
 * - sample: the completion, one per row (rows of one prompt are its samples in row order: `perSample`); its
 *   "line" is the row's number in the file (1-based);
 * - scores: one named score per reward column, scorer = the column's name (NaN, which TRL logs for a reward
 *   function that does not apply to a row, is no score); `advantage` is not a score;
 * - verdict: the first reward column whose name says correctness (`accuracy`, `correct`, `correctness` as a
 *   word of the name: `accuracy_reward`, `correctness_reward_func`) is read as verdicts by the same rule as every
 *   correctness column (util.ts VerdictReader: 0/1 are verdicts, a column with other numbers holds scores and
 *   leaves its samples ungraded, `--correct-threshold` makes it verdicts); without such a column every sample
 *   is ungraded (an info says so once per file).
 * The texts are kept in the index (a Parquet file has no line to read a text back from).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { ModelRef, NamedScore, ReadEvent } from '../model';
import { type ParquetSource, readParquet } from './parquet';
import type { Reader, ReaderContext } from './types';
import { VerdictReader, checkAbort, diag, dirSegments } from './util';

/** The dataset of every TRL prompt (the files name none). */
export const TRL_DATASET = 'prompts';

/** Columns that are no reward function. */
const NOT_REWARDS = new Set(['step', 'prompt', 'completion', 'advantage', 'image', 'images']);

/** A reward column that holds correctness: `accuracy`, `correct` or `correctness` as a word of its name. */
const CORRECTNESS_COLUMN = /(^|[_\-.\s])(accuracy|correct|correctness)([_\-.\s]|$)/i;

/** The model of a TRL completions file at step `step` (see the module comment). */
export function trlModel(ctx: Pick<ReaderContext, 'relPath' | 'root'>, step: number): ModelRef {
  const dirs = dirSegments(ctx.relPath);
  if (dirs.at(-1) === 'completions') dirs.pop();
  const name = dirs.at(-1) ?? path.basename(ctx.root);
  return { name, revision: `step-${step}`, source: 'path', run: dirs.slice(0, -1).join('/') };
}

/** A prompt or completion as text: a string as is, a list of chat messages as `role: content` lines. */
export function trlText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    return v
      .map((m) =>
        m && typeof m === 'object' && 'content' in m
          ? `${String((m as { role?: unknown }).role ?? '')}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`
          : JSON.stringify(m),
      )
      .join('\n\n');
  }
  return null;
}

/** The problem id of a prompt: the first 16 hex digits of the SHA-256 of its text. */
export function trlProblemId(prompt: string): string {
  return createHash('sha256').update(prompt).digest('hex').slice(0, 16);
}

const num = (v: unknown): number | null =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' && Number.isFinite(v) ? v : null;

async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  yield* readParquet(ctx, (src) => readRows(ctx, src));
}

/** The events of an open TRL completions file (see the module comment). */
async function* readRows(ctx: ReaderContext, src: ParquetSource): AsyncGenerator<ReadEvent> {
  const { columns } = src;
  if (!columns.includes('prompt') || !columns.includes('completion')) {
    yield diag(
      ctx,
      0,
      `not a TRL completions file: the columns prompt and completion are needed (it has ${columns.join(', ')}); not read`,
      'info',
    );
    return;
  }
  const rewards = columns.filter((c) => !NOT_REWARDS.has(c));
  const verdictColumn = rewards.find((c) => CORRECTNESS_COLUMN.test(c));
  const verdicts = verdictColumn ? new VerdictReader(ctx, verdictColumn, ctx.options?.correctThreshold) : undefined;
  if (verdicts && verdictColumn) {
    verdicts.prescan(
      (await src.column(verdictColumn)).map(num).filter((v) => v !== null),
      1,
    );
  } else {
    yield diag(
      ctx,
      0,
      `no reward column says correctness (accuracy, correct or correctness in its name; it has ${rewards.join(', ') || 'none'}): samples are ungraded, their rewards are named scores`,
      'info',
    );
  }
  const fileStep = /(\d+)\.parquet$/i.exec(ctx.relPath)?.[1];
  for await (const { row, line } of src.rows()) {
    checkAbort(ctx);
    const ev = rowEvent(ctx, row, line, { rewards, verdictColumn, verdicts, fileStep });
    if (ev) yield ev;
  }
  if (verdicts) yield* verdicts.finish();
}

/** One row's record, or the diagnostic of a row that cannot be one (`line`: the row's 1-based number). */
function rowEvent(
  ctx: ReaderContext,
  row: Record<string, unknown>,
  line: number,
  c: { rewards: string[]; verdictColumn?: string; verdicts?: VerdictReader; fileStep?: string },
): ReadEvent | null {
  const step = num(row.step) ?? (c.fileStep !== undefined ? Number(c.fileStep) : null);
  const prompt = trlText(row.prompt);
  const completion = trlText(row.completion);
  if (step === null) return diag(ctx, line, 'no step (column step, or a number in the file name); row skipped');
  if (prompt === null) return diag(ctx, line, 'prompt is not text or a list of messages; row skipped');
  if (completion === null) return diag(ctx, line, 'completion is not text or a list of messages; row skipped');
  const scores: NamedScore[] = [];
  for (const r of c.rewards) {
    const v = num(row[r]);
    if (v !== null) scores.push({ scorer: r, value: v });
  }
  let correct: boolean | null = null;
  if (c.verdicts && c.verdictColumn) {
    const v = num(row[c.verdictColumn]);
    if (v !== null) correct = c.verdicts.read(v, line).value;
  }
  return {
    kind: 'problem',
    record: {
      line,
      model: trlModel(ctx, step),
      dataset: TRL_DATASET,
      problemId: trlProblemId(prompt),
      question: prompt,
      referenceAnswer: null,
      level: null,
      perSample: true,
      samples: [{ text: completion, correct, scores }],
    },
  };
}

/** `.parquet` files are detected by their extension (readers/index.ts detectByFile), not by a first record. */
function detect(relPath: string): boolean {
  return relPath.toLowerCase().endsWith('.parquet');
}

export const trlReader: Reader = { format: 'trl', detect, read };
