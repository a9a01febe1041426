/**
 * Reader for per-problem rollout JSONL (as in rlvr_behavior_probe): one line per problem,
 * `{ qid, question, gold, model_name, model_revision?, dataset?, rollouts: [{ rollout, text, correct,
 *    pred_value?, pred_token?, extract_method?, finish_reason?, num_tokens? }] }`.
 */
import * as path from 'node:path';
import type { ModelRef, ProblemRecord, ReadEvent, SampleRecord } from '../model';
import type { Reader, ReaderContext } from './types';
import { plural } from '../text/strings';
import { readTextFile } from '../text/textFile';
import {
  dirSegments,
  pathDataset,
  OncePerFile,
  VerdictReader,
  checkAbort,
  diag,
  exactIds,
  fileStem,
  pathModelName,
  isEvent,
  isObject,
  readJsonLines,
  toNum,
  toReference,
  toStr,
  typeName,
  verdictLost,
} from './util';
import { withFolderModel } from './modelFolders';

/** Detects a rollouts record: an object with a `rollouts` array. */
function detect(_relPath: string, first: unknown): boolean {
  return isObject(first) && Array.isArray(first.rollouts);
}

/** Split names a question file is often called by, that name no dataset (`data/gsm8k/test.jsonl`). */
const SPLIT_STEMS = new Set(['test', 'train', 'validation', 'valid', 'val', 'dev', 'eval']);

/**
 * The dataset a question file's path names: its stem (`data/gsm8k_subset.jsonl` -> `gsm8k_subset`), or its folder
 * when the stem is a split name only (`data/gsm8k/test.jsonl` -> `gsm8k`, `data/math500/test.jsonl` -> `math500`:
 * trial 8 finding 5; `test.jsonl` alone -> `test`). Windows separators are read as `/`.
 */
export function questionFileDataset(questionFile: string): string {
  const p = questionFile.trim().replace(/\\/g, '/');
  const stem = fileStem(p);
  if (!SPLIT_STEMS.has(stem.toLowerCase())) return stem;
  const dirs = dirSegments(p);
  return dirs.length > 0 ? dirs[dirs.length - 1] : stem;
}

/**
 * The dataset named by a `run_config.json` next to the file: the file stem of its `question_file`
 * (`data/gsm8k_subset.jsonl` -> `gsm8k_subset`), so that every run reading the same question file
 * shares a dataset and its problems line up. `null` when there is no such file or field (or it is not
 * valid JSON: then `warning` holds a message).
 */
export async function datasetFromRunConfig(absPath: string): Promise<{ dataset: string | null; warning?: string }> {
  const cfgPath = path.join(path.dirname(absPath), 'run_config.json');
  let text: string;
  try {
    text = await readTextFile(cfgPath);
  } catch {
    return { dataset: null };
  }
  try {
    const cfg: unknown = JSON.parse(text);
    const qf = isObject(cfg) ? cfg.question_file : undefined;
    if (typeof qf === 'string' && qf.trim() !== '') return { dataset: questionFileDataset(qf) };
    return { dataset: null };
  } catch {
    return { dataset: null, warning: `run_config.json next to this file is not valid JSON; ignored` };
  }
}

/**
 * Streams a rollouts JSONL file. Per line (a problem):
 * - model = `model_name` (source `data`) with revision `model_revision` (null when absent); when
 *   `model_name` is missing: the file stem (source `path`) and one warning per file.
 * - dataset = stem of `question_file` in a sibling `run_config.json`, else the record's `dataset`
 *   field, else the dataset the file's stem names (`gsm8k_rollouts.jsonl` -> `gsm8k`; trial 9 finding 6), else the
 *   nearest dataset folder (util.ts `pathDataset`), else `default`.
 * - problemId = `String(qid)` (else `id`); missing: `line L` with L the record's line (never a real
 *   qid, stable when an earlier line fails to parse), with a warning. An integer beyond 2^53 is read
 *   exactly from the line.
 * - samples from `rollouts[]`: text = `text` (non-string: error, sample skipped); correct = `correct`
 *   (bool, 0/1; strings one warning per file; other numbers are scores, see {@link VerdictReader};
 *   other values null with a warning);
 *   extractedAnswer = `pred_value` (the parsed answer the grader compared; a number as `String(n)`),
 *   else `pred_token`; finishReason = `finish_reason`;
 *   tokenCount = `num_tokens`.
 * - sampleIndex = the `rollout` field when every rollout of the line has a distinct non-negative integer
 *   `rollout`; otherwise the array position, with a warning.
 * - `rollouts` not an array: error, line skipped. A rollout that is not an object: error, skipped.
 */
async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  const cfg = await datasetFromRunConfig(ctx.absPath);
  const folderDs = pathDataset(ctx.relPath, fileStem(ctx.relPath), ctx.options?.layoutDatasets);
  if (cfg.warning) yield diag(ctx, 0, cfg.warning, 'warning');
  const once = new OncePerFile();
  const verdicts = new VerdictReader(ctx, 'correct', ctx.options?.correctThreshold);
  for await (const item of readJsonLines(ctx)) {
    if (isEvent(item)) {
      yield item;
      continue;
    }
    checkAbort(ctx);
    const { line } = item;
    const o = exactIds(item.value, item.value.qid ?? item.value.id, item.text);

    let problemId = toStr(o.qid ?? o.id);
    if (problemId === null) {
      // "line L", not a number: it must not collide with the real qid of another record, and it must not
      // shift when an earlier line fails to parse (files of two models then still line up).
      problemId = `line ${line}`;
      yield diag(ctx, line, `missing qid; using "line ${line}" as the problem id`, 'warning');
    }
    const rollouts = o.rollouts;
    if (!Array.isArray(rollouts)) {
      yield diag(
        ctx,
        line,
        rollouts === undefined
          ? 'missing rollouts; line skipped'
          : `rollouts is not an array (got ${typeName(rollouts)}); line skipped`,
      );
      continue;
    }

    let model: ModelRef;
    const name = toStr(o.model_name);
    if (name !== null && name !== '') {
      model = { name, revision: toStr(o.model_revision), source: 'data' };
    } else {
      model = {
        name: pathModelName(ctx.relPath, fileStem(ctx.relPath), ctx.options?.layoutDatasets),
        revision: null,
        source: 'path',
      };
      const w = once.warn(
        ctx,
        'no-model',
        line,
        `missing model_name; using the name "${model.name}" from the file path (its folder when the file name is generic; reported once per file)`,
      );
      if (w) yield w;
    }
    // a model folder another reader names (the Qwen-math model folder holding `gsm8k_rollouts.jsonl`): that model
    model = withFolderModel(ctx.relPath, model, ctx.options);
    const dataset = cfg.dataset ?? (toStr(o.dataset) || folderDs || 'default');

    // sample indices: the `rollout` field when usable, else positions
    const ids = rollouts.map((r) =>
      isObject(r) && Number.isInteger(r.rollout) && (r.rollout as number) >= 0 ? (r.rollout as number) : -1,
    );
    const useIds = ids.every((x) => x >= 0) && new Set(ids).size === ids.length;
    if (!useIds && rollouts.length > 0 && rollouts.some((r) => isObject(r) && r.rollout !== undefined)) {
      yield diag(
        ctx,
        line,
        'rollout numbers are missing, invalid or repeated; using positions as sample indices',
        'warning',
      );
    }

    const samples: SampleRecord[] = [];
    let invalid = 0;
    for (let i = 0; i < rollouts.length; i++) {
      const r = rollouts[i];
      if (!isObject(r)) {
        yield diag(ctx, line, `rollouts[${i}] is not an object (got ${typeName(r)}); sample skipped`);
        continue;
      }
      if (typeof r.text !== 'string') {
        yield diag(
          ctx,
          line,
          `rollouts[${i}].text is ${r.text === undefined ? 'missing' : `not a string (got ${typeName(r.text)})`}; sample skipped${verdictLost(r.correct, 'correct')}`,
        );
        continue;
      }
      const c = verdicts.read(r.correct, line, useIds ? ids[i] : i);
      if (c.kind === 'invalid') {
        invalid++;
      }
      // The parsed value is what the grader compared, so majority votes group by it ("\\$8,\\!096" and
      // "The optimal choice provides \\$8,096" are one answer, 8096); the raw token when there is none.
      const value =
        typeof r.pred_value === 'number' && Number.isFinite(r.pred_value) ? String(r.pred_value) : toStr(r.pred_value);
      samples.push({
        sampleIndex: useIds ? ids[i] : i,
        text: r.text,
        correct: c.value,
        extractedAnswer: value ?? toStr(r.pred_token),
        finishReason: toStr(r.finish_reason),
        tokenCount: toNum(r.num_tokens),
      });
    }
    if (invalid > 0) {
      yield diag(
        ctx,
        line,
        `${plural(invalid, 'correct value')} ${invalid === 1 ? 'is not a boolean' : 'are not booleans'} or 0/1; ${invalid === 1 ? 'that sample is' : 'those samples are'} ungraded`,
        'warning',
      );
    }
    const record: ProblemRecord = {
      line,
      model,
      dataset,
      problemId,
      question: toStr(o.question),
      referenceAnswer: toReference(o.gold ?? o.answer),
      level: null,
      samples,
      span: { offset: item.offset, bytes: item.bytes },
    };
    yield { kind: 'problem', record };
  }
  yield* verdicts.finish();
}

/** The per-problem rollouts reader (format id `rollouts`). */
export const rolloutsReader: Reader = { format: 'rollouts', detect, read };
