/**
 * Reader for the Qwen2.5-Math evaluation output, also used by limit-of-RLVR (Yue et al. 2025):
 * JSONL, one line per problem:
 * `{ idx, question, gt, level, code: string[], score: bool[], pred: string[], pred_score?: number[][] | number[],
 *    finish_reason?: string[], ... }`.
 * `code[i]` is sample i's text, `score[i]` its graded correctness, `pred[i]` its extracted answer,
 * `pred_score[i]` its reward-model score (last element of the inner list).
 */
import { type Dirent, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { ModelRef, ProblemRecord, ReadEvent, SampleRecord } from '../model';
import { stripSeedTokens } from '../grouping/seeds';
import type { Reader, ReaderContext } from './types';
import { plural } from '../text/strings';
import {
  OncePerFile,
  VerdictReader,
  checkAbort,
  diag,
  dirSegments,
  folderTemperature,
  exactIds,
  fileStem,
  isEvent,
  isObject,
  isResultsRootFolder,
  readJsonLines,
  stemTemperature,
  toLevel,
  toScore,
  toReference,
  toStr,
  typeName,
  verdictLost,
} from './util';

/** Folder names that sit between the model path and the dataset folder and are not part of the model name. */
const EVAL_SEGMENTS = new Set(['math_eval', 'eval']);

/**
 * Whether a file's path is the Qwen2.5-Math evaluation layout `<model path...>/[math_eval|eval/]<dataset>/<file>`: a
 * file name starting with `test_` or `train_` in a folder, or any file in a folder under `math_eval/` or `eval/`. From
 * the path alone ({@link qwenModelAndDataset} names such a file's model by the folders above the dataset folder).
 */
export function qwenEvalLayout(relPath: string): boolean {
  const segs = dirSegments(relPath);
  const base = path.posix.basename(relPath);
  return (
    segs.length >= 1 && (/^(test|train)_/.test(base) || (segs.length >= 2 && EVAL_SEGMENTS.has(segs[segs.length - 2])))
  );
}

/**
 * Model and dataset of a Qwen-math file from its path (model source `path`).
 * - limit-of-RLVR / Qwen2.5-Math layout `<model path...>/[math_eval|eval/]<dataset>/<file>.jsonl`, recognised
 *   when the file name starts with `test_` or `train_` or the folder above the dataset folder is
 *   `math_eval`/`eval`: dataset = the file's folder name; model = the folders above it joined with `/`,
 *   with a trailing `math_eval`/`eval` dropped (the results folder's own name when nothing is left) and leading
 *   results roots that name no model (`eval_results/`, `eval_outputs/`, `outputs/`, `generations/`:
 *   util.ts `isResultsRootFolder`; trial 12 finding 16) left out, the last folder always kept.
 *   Example: `Qwen/Qwen2.5-Math-7B/math_eval/math500/test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl`
 *   -> model `Qwen/Qwen2.5-Math-7B`, dataset `math500`. When `folderFiles` (the names of the files in the
 *   file's folder) holds a file whose stem differs from this one only by the temperature (and seed):
 *   `..._seed0_t0.0_s0_e-1.jsonl` beside `..._seed0_t0.6_s0_e-1.jsonl`, the temperature ends the model
 *   name (`Qwen2.5-7B_t0.0`, `Qwen2.5-7B_t0.6`): samplings of one model at two temperatures, not re-runs
 *   of one (trial 8 finding 2d), compared with the base at the same temperature (labels.ts comparisonPairs).
 *   The caller lists the files of the model's other dataset folders too (trial 9 finding 8). A file alone at its
 *   temperature keeps the plain name. A temperature folder among the model's folders
 *   (`Qwen2.5-7B/temp0.6/math_eval/math500/..._t0.6_...jsonl`) is left out of the name and its temperature (the
 *   file's, when the file names one) ends it: `Qwen2.5-7B_t0.6` (trial 8 finding 2b).
 * - otherwise: dataset = file stem; model = the containing folder's name, or the file stem for a file
 *   at the root of the results folder (`qwen25-math-eval-example/math_cot_100.jsonl` -> model
 *   `qwen25-math-eval-example`, dataset `math_cot_100`).
 */
export function qwenModelAndDataset(
  relPath: string,
  root: string,
  folderFiles: readonly string[] = [],
): { model: ModelRef; dataset: string } {
  const segs = dirSegments(relPath);
  const stem = fileStem(relPath);
  if (qwenEvalLayout(relPath)) {
    const dataset = segs[segs.length - 1];
    const modelSegs = segs.slice(0, -1);
    if (modelSegs.length > 0 && EVAL_SEGMENTS.has(modelSegs[modelSegs.length - 1])) modelSegs.pop();
    // a temperature folder (`Qwen2.5-7B/temp0.6/math_eval/...`): a sampling of the model above it, named with its
    // temperature (the file's own when it has one), never a model of its own (trial 8 finding 2b)
    const tempDirs = modelSegs.filter((d) => folderTemperature(d) !== undefined);
    const kept = modelSegs.filter((d) => folderTemperature(d) === undefined);
    // results roots above the model folder (`eval_results/`, `outputs/`, `generations/`) name no model: left out,
    // the model folder itself always kept (trial 12 finding 16)
    while (kept.length > 1 && isResultsRootFolder(kept[0])) kept.shift();
    let name = kept.length > 0 ? kept.join('/') : path.basename(root) || stem;
    const temp = stemTemperature(stem);
    if (tempDirs.length > 0) name = `${name}_${temp?.variant ?? folderTemperature(tempDirs[tempDirs.length - 1])}`;
    else if (temp) {
      const rest = stripSeedTokens(temp.rest).toLowerCase();
      const otherTemperature = folderFiles.some((f) => {
        const o = stemTemperature(fileStem(f));
        return (
          o !== undefined &&
          o.variant.toLowerCase() !== temp.variant.toLowerCase() &&
          stripSeedTokens(o.rest).toLowerCase() === rest
        );
      });
      if (otherTemperature) name = `${name}_${temp.variant}`;
    }
    // The name is the model's folder path, so the run folder adds nothing: run "".
    return { model: { name, revision: null, source: 'path', run: '' }, dataset };
  }
  const name = segs.length > 0 ? segs[segs.length - 1] : stem;
  return { model: { name, revision: null, source: 'path' }, dataset: stem };
}

/**
 * The names of the files of the model of `absPath`: its folder's entries and those of the folders beside its folder
 * (the model's other dataset folders: `math_eval/aime24/` beside `math_eval/math500/`), so the temperature naming is
 * decided per model, not per dataset folder (trial 9 finding 8: `aime24/..._t0.6_...` alone in its folder is
 * `Qwen2.5-7B_t0.6` when `math500/` holds `..._t0.0_...` too). Folders that cannot be listed give none.
 */
function modelFileNames(absPath: string): string[] {
  const names = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const dir = path.dirname(absPath);
  const up = path.dirname(dir);
  const out = names(dir);
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(up, { withFileTypes: true });
  } catch {
    // the folder above cannot be listed: the file's own folder decides
  }
  for (const e of entries)
    if (e.isDirectory() && path.join(up, e.name) !== dir) out.push(...names(path.join(up, e.name)));
  return out;
}

/**
 * Detects a Qwen-math record: an object with a `code` (or `response`) array and a `score` or `pred`
 * array, and no `rollouts` field.
 */
function detect(_relPath: string, first: unknown): boolean {
  if (!isObject(first) || 'rollouts' in first) return false;
  const texts = Array.isArray(first.code) || Array.isArray(first.response);
  return texts && (Array.isArray(first.score) || Array.isArray(first.pred));
}

/**
 * Streams a Qwen-math JSONL file. Per line (a problem):
 * - problemId = `String(idx)` (an integer beyond 2^53 read exactly from the line); missing/non-scalar `idx`: `line L` with L the record's line (never a
 *   real idx, and unchanged when an earlier line fails to parse), with a warning
 *   `missing idx; using "line L" as the problem id`.
 * - question = `question` (else `problem`); referenceAnswer = `gt` (else `answer`); level = `level`
 *   with a `Level N` prefix reduced to `N`; subject = `subject` (MATH-500), else `type` (the MATH dataset's name for it).
 * - sample texts = `code` (else `response`); a non-array gives an error `code is not an array (got T)`
 *   and the line is skipped. A non-string text: error naming the index; that sample is skipped (the
 *   others keep their source index as `sampleIndex`).
 * - correctness = `score[i]` via {@link VerdictReader}: booleans; 0/1; `"true"`/`"false"`-like strings
 *   (one warning per file); other numbers are scores, not verdicts (ungraded, one warning per file,
 *   unless `ctx.options?.correctThreshold`); other values -> `null` with a warning per line. Missing `score`: all samples
 *   ungraded (`null`), one warning per file. A non-array `score`: error, samples ungraded.
 * - Length policy: when `code` and `score` differ in length, the first min(len) samples are kept and a
 *   warning `code has N samples but score has M; keeping the first K` is emitted.
 * - extractedAnswer = `pred[i]`, rewardScore = `pred_score[i]` (number, or list whose last element is
 *   the score), finishReason = `finish_reason[i]`; when present but shorter, the missing ones are null.
 */
async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  // the model's folders are listed only for a file named with a temperature (its neighbours at other temperatures)
  const siblings = stemTemperature(fileStem(ctx.relPath)) ? modelFileNames(ctx.absPath) : [];
  const { model, dataset } = qwenModelAndDataset(ctx.relPath, ctx.root, siblings);
  const once = new OncePerFile();
  const verdicts = new VerdictReader(ctx, 'score', ctx.options?.correctThreshold);
  for await (const item of readJsonLines(ctx)) {
    if (isEvent(item)) {
      yield item;
      continue;
    }
    checkAbort(ctx);
    const { line, text: source } = item;
    const o = exactIds(item.value, item.value.idx, source);

    let problemId = toStr(o.idx);
    if (problemId === null) {
      // "line L", not a number: it must not collide with the real idx of another record, and it must not
      // shift when an earlier line fails to parse (files of two models then still line up).
      problemId = `line ${line}`;
      yield diag(ctx, line, `missing idx; using "line ${line}" as the problem id`, 'warning');
    }

    const textKey = 'code' in o ? 'code' : 'response' in o ? 'response' : 'code';
    const texts = o[textKey];
    if (!Array.isArray(texts)) {
      yield diag(
        ctx,
        line,
        texts === undefined
          ? 'missing code (sample texts); line skipped'
          : `${textKey} is not an array (got ${typeName(texts)}); line skipped`,
      );
      continue;
    }

    let scores: unknown[] | null = null;
    if (o.score === undefined) {
      const w = once.warn(ctx, 'no-score', line, 'missing score: samples are ungraded (reported once per file)');
      if (w) yield w;
    } else if (!Array.isArray(o.score)) {
      yield diag(ctx, line, `score is not an array (got ${typeName(o.score)}); samples are ungraded`);
    } else {
      scores = o.score;
    }

    let n = texts.length;
    if (scores && scores.length !== texts.length) {
      n = Math.min(texts.length, scores.length);
      yield diag(
        ctx,
        line,
        `${textKey} has ${plural(texts.length, 'sample')} but score has ${scores.length}; keeping the first ${n}`,
        'warning',
      );
    }
    const preds = Array.isArray(o.pred) ? o.pred : null;
    const predScores = Array.isArray(o.pred_score) ? o.pred_score : null;
    const finish = Array.isArray(o.finish_reason) ? o.finish_reason : null;
    for (const [name, list] of [
      ['pred', preds],
      ['pred_score', predScores],
      ['finish_reason', finish],
    ] as const) {
      if (list && list.length < n) {
        yield diag(
          ctx,
          line,
          `${name} has ${plural(list.length, 'entry', 'entries')} for ${plural(n, 'sample')}; the missing ${list.length === n - 1 ? 'one is' : 'ones are'} empty`,
          'warning',
        );
      }
    }

    const samples: SampleRecord[] = [];
    let invalidScores = 0;
    for (let i = 0; i < n; i++) {
      const text = texts[i];
      if (typeof text !== 'string') {
        yield diag(
          ctx,
          line,
          `${textKey}[${i}] is not a string (got ${typeName(text)}); sample skipped${verdictLost(scores?.[i], 'score')}`,
        );
        continue;
      }
      let correct: boolean | null = null;
      if (scores) {
        const c = verdicts.read(scores[i], line, i);
        correct = c.value;
        if (c.kind === 'invalid') {
          invalidScores++;
        }
      }
      samples.push({
        sampleIndex: i,
        text,
        correct,
        extractedAnswer: preds ? toStr(preds[i]) : null,
        rewardScore: predScores ? toScore(predScores[i]) : null,
        finishReason: finish ? toStr(finish[i]) : null,
      });
    }
    if (invalidScores > 0) {
      yield diag(
        ctx,
        line,
        `${plural(invalidScores, 'score value')} ${invalidScores === 1 ? 'is not a boolean' : 'are not booleans'} or 0/1; ${invalidScores === 1 ? 'that sample is' : 'those samples are'} ungraded`,
        'warning',
      );
    }

    const record: ProblemRecord = {
      line,
      model,
      dataset,
      problemId,
      question: toStr(o.question ?? o.problem),
      referenceAnswer: toReference(o.gt ?? o.answer),
      level: toLevel(o.level),
      // MATH-500's `subject`, the MATH dataset's `type` (Algebra, Geometry, ...): the subject splits read it
      subject: toStr(o.subject ?? o.type),
      samples,
      span: { offset: item.offset, bytes: item.bytes },
    };
    yield { kind: 'problem', record };
  }
  yield* verdicts.finish();
}

/** The Qwen2.5-Math / limit-of-RLVR evaluation-output reader (format id `qwen-math`). */
export const qwenMathReader: Reader = { format: 'qwen-math', detect, read };
