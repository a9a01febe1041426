/**
 * Reader for flat one-sample-per-line JSONL: openai/human-eval's `<samples>.jsonl_results.jsonl`
 * (`{ task_id, completion, result, passed }`) and its ungraded input `<samples>.jsonl` (`{ task_id, completion }`).
 */
import * as path from 'node:path';
import type { ModelRef, ReadEvent } from '../model';
import type { Reader, ReaderContext } from './types';
import {
  OncePerFile,
  VerdictReader,
  checkAbort,
  datasetKey,
  dirSegments,
  diag,
  exactIds,
  pathDataset,
  isDatasetName,
  isEvent,
  isObject,
  pathModelName,
  readJsonLines,
  toStr,
  typeName,
  verdictLost,
} from './util';
import { withFolderModel } from './modelFolders';

/** Detects a flat sample: an object with `task_id` and a string `completion`. */
function detect(_relPath: string, first: unknown): boolean {
  return isObject(first) && 'task_id' in first && typeof first.completion === 'string';
}

/**
 * The model name of a flat file, from its path: a trailing `_results.jsonl` is removed, then a trailing
 * `.jsonl` (`run.jsonl_results.jsonl` -> `run`, `run.jsonl` -> `run`, `run_results.jsonl` -> `run`), then
 * {@link pathModelName}: seed tokens out (`codegen-350M_samples_seed1` -> `codegen-350M_samples`: seed shards
 * are one model, their samples merged by the indexer), and a generic stem (`samples`, `samples_seed1`,
 * `seed0`, `samples-s1`) named after its folder (`starcoder-sft/samples.jsonl_results.jsonl` -> `starcoder-sft`);
 * an evalplus file name gives its model ({@link evalplusModelName}).
 */
export function flatModelName(relPath: string, layoutDatasets: readonly string[] = []): string {
  const base = flatStem(relPath);
  return evalplusModelName(base) ?? pathModelName(relPath, base || path.posix.basename(relPath), layoutDatasets);
}

/** A flat file's name without a trailing `_results.jsonl`, then `.jsonl` (or `.json`: JSONL saved as `.json`). */
function flatStem(relPath: string): string {
  let base = path.posix.basename(relPath);
  if (base.endsWith('_results.jsonl')) base = base.slice(0, -'_results.jsonl'.length);
  if (base.endsWith('.jsonl')) base = base.slice(0, -'.jsonl'.length);
  // JSONL saved as `.json` (read as JSONL, see index.ts detectFile): `samples.json` -> `samples`
  else if (base.endsWith('.json')) base = base.slice(0, -'.json'.length);
  return base;
}

/** evalplus's file name: the model with `/` written `--`, the backend and the temperature (evalplus `codegen.py`). */
const EVALPLUS_STEM =
  /^(.+?)_(?:vllm|hf|openai|anthropic|google|gemini|bedrock|ollama|gptqmodel|mistral|dashscope)_temp_(\d+(?:\.\d+)?)$/;

/**
 * The model an evalplus file name gives (trial 8 finding 10): `Qwen--Qwen2.5-7B_vllm_temp_0.0` -> `Qwen/Qwen2.5-7B_t0.0`
 * (`--` is evalplus's spelling of `/`, `_vllm` the backend, `_temp_0.0` the temperature, kept as a variant so that
 * models are compared at one temperature); undefined for any other stem.
 */
export function evalplusModelName(stem: string): string | undefined {
  const m = EVALPLUS_STEM.exec(stem);
  return m ? `${m[1].replace(/--/g, '/')}_t${m[2]}` : undefined;
}

/**
 * The run of an evalplus file (named as {@link evalplusModelName} reads): its folders without a dataset folder at
 * the end (`humaneval/Qwen--Qwen2.5-7B_vllm_temp_0.0.jsonl` -> `""`), so a model's datasets are one model's;
 * undefined for any other file (its run is its folder).
 */
export function evalplusRun(relPath: string): string | undefined {
  if (evalplusModelName(flatStem(relPath)) === undefined) return undefined;
  const dirs = dirSegments(relPath);
  if (dirs.length > 0 && isDatasetName(dirs[dirs.length - 1])) dirs.pop();
  return dirs.join('/');
}

/**
 * Splits a task id into dataset and problem id: the dataset is the part before the first `/`
 * (`HumanEval/3` -> `HumanEval`), else `default`; the problem id is always the full task id.
 */
export function flatDataset(taskId: string): string {
  const slash = taskId.indexOf('/');
  return slash > 0 ? taskId.slice(0, slash) : 'default';
}

/**
 * The dataset a flat file's path names (util.ts `pathDataset`): its stem when that names no model but a dataset
 * (`Qwen2.5-7B/math500.jsonl` -> `math500`, `aime_2024_samples.jsonl` -> `aime_2024`; trial 9 finding 1), else the
 * nearest folder whose name is a known dataset (util.ts `folderDataset`, any spelling: `Qwen2.5-7B/mbpp/samples.jsonl`
 * -> `mbpp`, `MATH-500/` -> `MATH-500`), as spelt; undefined when none does. Used for task ids without a `dataset/`
 * prefix (trial 7 finding 3).
 */
export function flatFolderDataset(relPath: string, layoutDatasets: readonly string[] = []): string | undefined {
  return pathDataset(relPath, flatStem(relPath), layoutDatasets);
}

/**
 * The dataset of a flat record: the nearest dataset folder ({@link flatFolderDataset}) when the task id has no
 * `dataset/` prefix or its prefix names another dataset ({@link datasetKey}: evalplus writes `HumanEval/0` in
 * `humaneval_plus/`: dataset `humaneval_plus`, so HumanEval+ is never pooled with HumanEval; trial 8 finding 1);
 * else the prefix ({@link flatDataset}); else `default`.
 */
export function flatRecordDataset(taskId: string, folder: string | undefined): string {
  const prefix = taskId.indexOf('/') > 0 ? flatDataset(taskId) : undefined;
  if (prefix !== undefined && (folder === undefined || datasetKey(prefix) === datasetKey(folder))) return prefix;
  return folder ?? 'default';
}

/**
 * Streams a flat file: each line is one sample of problem `task_id`, emitted as a ProblemRecord with
 * one sample and no `sampleIndex` (the indexer numbers samples of a (model, problem) in file order).
 * - model = {@link flatModelName} (source `path`): the file name without `_results.jsonl` / `.jsonl` and seed
 *   tokens; the folder's name when that is generic (`samples`);
 * - dataset = {@link flatRecordDataset}: `task_id` before its first `/` unless a dataset folder names another
 *   dataset, else the nearest dataset folder ({@link flatFolderDataset}: `Qwen2.5-7B/mbpp/samples.jsonl` with
 *   `task_id` `11` -> `mbpp`), else `default`; problemId = the full `task_id` (numbers
 *   stringified; an integer beyond 2^53 read exactly from the line); missing `task_id`: error, line skipped;
 * - text = `completion` (not a string: error, line skipped);
 * - correct = `passed` (bool, 0/1; strings one warning per file; other numbers are scores, see
 *   {@link VerdictReader}; other values null with a warning);
 *   a file without `passed` is ungraded (correct null) and gets one warning per file.
 * - question = `prompt` when present.
 */
async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  const layout = ctx.options?.layoutDatasets;
  const run = evalplusRun(ctx.relPath);
  // a model folder another reader names (a Qwen-math model folder beside `humaneval/`): that model's run and name
  const model: ModelRef = withFolderModel(
    ctx.relPath,
    { name: flatModelName(ctx.relPath, layout), revision: null, source: 'path', ...(run === undefined ? {} : { run }) },
    ctx.options,
  );
  const folderDs = flatFolderDataset(ctx.relPath, layout);
  const once = new OncePerFile();
  const verdicts = new VerdictReader(ctx, 'passed', ctx.options?.correctThreshold);
  for await (const item of readJsonLines(ctx)) {
    if (isEvent(item)) {
      yield item;
      continue;
    }
    checkAbort(ctx);
    const { line } = item;
    const o = exactIds(item.value, item.value.task_id, item.text);
    const taskId = toStr(o.task_id);
    if (taskId === null) {
      yield diag(
        ctx,
        line,
        o.task_id === undefined
          ? 'missing task_id; line skipped'
          : `task_id is not a string or number (got ${typeName(o.task_id)}); line skipped`,
      );
      continue;
    }
    if (typeof o.completion !== 'string') {
      yield diag(
        ctx,
        line,
        o.completion === undefined
          ? 'missing completion; line skipped'
          : `completion is not a string (got ${typeName(o.completion)}); line skipped${verdictLost(o.passed, 'passed')}`,
      );
      continue;
    }
    let correct: boolean | null = null;
    if (o.passed === undefined) {
      const w = once.warn(ctx, 'no-passed', line, 'no passed field: samples are ungraded (reported once per file)');
      if (w) yield w;
    } else {
      const c = verdicts.read(o.passed, line);
      correct = c.value;
      if (c.kind === 'invalid') {
        yield diag(ctx, line, `passed is not a boolean (got ${typeName(o.passed)}); sample ungraded`, 'warning');
      }
    }
    yield {
      kind: 'problem',
      record: {
        line,
        model,
        dataset: flatRecordDataset(taskId, folderDs),
        problemId: taskId,
        question: toStr(o.prompt),
        referenceAnswer: null,
        level: null,
        samples: [{ text: o.completion, correct }],
        span: { offset: item.offset, bytes: item.bytes },
      },
    };
  }
  yield* verdicts.finish();
}

/** The flat one-sample-per-line reader (format id `flat`). */
export const flatReader: Reader = { format: 'flat', detect, read };
