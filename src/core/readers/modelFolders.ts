/**
 * One model per model folder across readers (trial 12 finding 2): a model folder holding Qwen-math evaluation files
 * (`Qwen2.5-7B/math_eval/gsm8k/test_qwen-boxed_*.jsonl`) beside flat files under a dataset folder
 * (`Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl`) and a rollouts file (`Qwen2.5-7B/gsm8k_rollouts.jsonl`) is one
 * model, `Qwen2.5-7B`, with datasets gsm8k and HumanEval: each reader would otherwise give it another run (the
 * Qwen-math reader `""`, the flat reader the dataset folder, the rollouts reader the model folder), and the model
 * split in two or three, each copy compared with nothing. Pure; no `vscode` import.
 */
import * as path from 'node:path';
import type { ModelRef } from '../model';
import { qwenEvalLayout, qwenModelAndDataset } from './qwenMath';
import type { ReaderOptions } from './types';
import { dirSegments, fileStem, folderTemperature, isDatasetName, stemDataset } from './util';

/** The model a model folder is named as by a sibling reader: its run and name (see {@link modelFolderNames}). */
export interface FolderModel {
  run: string;
  name: string;
}

/**
 * The model folders of a results folder that a reader names by their path, by folder path (relative, POSIX), with
 * the run and name of that model, for the readers of other files in the folder to take ({@link folderModel}):
 * - a Qwen-math evaluation file (qwenMath.ts `qwenEvalLayout`: `<model>/[math_eval/]<dataset>/test_*.jsonl`) names
 *   its model folder as the Qwen-math reader does (run `""`, name the folder path without results roots:
 *   `eval_results/Qwen/Qwen2.5-7B` -> `Qwen/Qwen2.5-7B`); a model folder under a temperature folder is left out
 *   (its name carries the temperature);
 * - else a file right in a folder whose stem names a dataset and no model (util.ts `stemDataset`:
 *   `Qwen2.5-7B/gsm8k_rollouts.jsonl`, `Qwen2.5-7B/math500.jsonl`) names that folder (run the folder, name its last
 *   segment): the folder holds one model's per-dataset files.
 * The results folder itself (`""`) is never one. Pure: paths only, no file is opened (a file detected as another
 * format later changes nothing: only files whose folder is listed here and whose own model name is that folder's
 * take the entry).
 * @param relPaths the listed files, relative POSIX paths.
 */
export function modelFolderNames(relPaths: readonly string[]): Record<string, FolderModel> {
  const out: Record<string, FolderModel> = {};
  for (const rel of [...relPaths].sort()) {
    if (!/\.jsonl$/i.test(rel) || !qwenEvalLayout(rel)) continue;
    const modelSegs = qwenModelSegments(rel);
    if (modelSegs.length === 0 || modelSegs.some((d) => folderTemperature(d) !== undefined)) continue;
    out[modelSegs.join('/')] ??= { run: '', name: qwenModelAndDataset(rel, '', []).model.name };
  }
  for (const rel of [...relPaths].sort()) {
    const dirs = dirSegments(rel);
    if (dirs.length === 0) continue;
    const stem = fileStem(path.posix.basename(rel).replace(/(?:\.jsonl)?_results\.jsonl$/i, '.jsonl'));
    if (stemDataset(stem) === undefined) continue;
    const folder = dirs.join('/');
    out[folder] ??= { run: folder, name: dirs[dirs.length - 1] };
  }
  return out;
}

/** The folders above a Qwen-math evaluation file's dataset folder, without a trailing `math_eval` / `eval`. */
function qwenModelSegments(relPath: string): string[] {
  const segs = dirSegments(relPath).slice(0, -1);
  if (segs.length > 0 && /^(?:math_eval|eval)$/.test(segs[segs.length - 1])) segs.pop();
  return segs;
}

/**
 * The run and name a file's model takes from its model folder ({@link modelFolderNames}, in
 * `options.modelFolders`), or undefined to keep its own: the file's folder without dataset folders at its end
 * (util.ts `isDatasetName`, or a folder of `options.layoutDatasets`: `Qwen2.5-7B/humaneval/` -> `Qwen2.5-7B`) must be
 * such a model folder, and the model's own name the folder's last segment or the entry's name (a rollouts file's
 * `model_name` `Qwen2.5-7B`); a name that differs (another model, a temperature variant `Qwen2.5-7B_t0.6`, seed
 * or temperature folders between) keeps its own run.
 * @param relPath the file, relative POSIX path.
 * @param name the model name the file's own reader gives.
 */
export function folderModel(
  relPath: string,
  name: string,
  options: ReaderOptions | undefined,
): FolderModel | undefined {
  const folders = options?.modelFolders;
  if (folders === undefined) return undefined;
  const dirs = dirSegments(relPath);
  const layout = options?.layoutDatasets ?? [];
  while (dirs.length > 0 && (isDatasetName(dirs[dirs.length - 1]) || layout.includes(dirs[dirs.length - 1])))
    dirs.pop();
  if (dirs.length === 0) return undefined;
  const entry = Object.hasOwn(folders, dirs.join('/')) ? folders[dirs.join('/')] : undefined;
  if (entry === undefined) return undefined;
  return name === entry.name || name === dirs[dirs.length - 1] ? entry : undefined;
}

/** `model` with the run and name of its model folder ({@link folderModel}) when it has one, else unchanged. */
export function withFolderModel(relPath: string, model: ModelRef, options: ReaderOptions | undefined): ModelRef {
  const f = folderModel(relPath, model.name, options);
  return f === undefined ? model : { ...model, name: f.name, run: f.run };
}
