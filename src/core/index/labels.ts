import {
  BASE_WORD,
  isCheckpointHolderFolder,
  isDateTimeName,
  isJobFolder,
  isLoggingToolFolder,
  isRunOutputFolder,
  MODEL_FAMILIES,
  RL_WORDS,
  START_WORDS,
  wordPattern,
} from '../grouping/nameTokens';
import { datasetKey, folderTemperature, isDatasetName, looksLikeModelName } from '../readers/util';
import { areSeedSiblings, stripSeedTokens } from '../grouping/seeds';
import type { ModelIdentity } from '../model';
import type { Database } from './sqlite';

/** A model's identity parts, as stored (defined in model.ts, beside the other shapes the core shares). */
export type { ModelIdentity };

/**
 * Short labels for models: `name@revision`, plus ` (run)` when several runs hold a model of the
 * same name (so `sft@ckpt (trajectory/step-100)` and `sft@ckpt (results_2048_batched)` differ); a checkpoint
 * named by its step folder reads `<model folder> · <step folder>` ({@link stepFolderLabel}).
 * A model at the root of the folder has run `""` and shows `(.)` only if it needs disambiguation.
 * Returns labels in the order of `models`.
 */
export function modelLabels(models: readonly ModelIdentity[]): string[] {
  const runsByName = new Map<string, Set<string>>();
  for (const m of models) {
    const set = runsByName.get(m.name) ?? new Set<string>();
    set.add(m.run);
    runsByName.set(m.name, set);
  }
  const labels = models.map((m) => {
    const step = stepFolderLabel(m);
    if (step !== undefined) return step;
    const base = m.revision ? `${m.name}@${m.revision}` : m.name;
    return (runsByName.get(m.name)?.size ?? 0) > 1 ? `${base} (${m.run || '.'})` : base;
  });
  // a step label held twice: by checkpoints of one run in two dataset folders (`Qwen2.5-7B-GRPO/global_step_100/gsm8k`
  // and `.../math500`), the label and the dataset folders (`Qwen2.5-7B-GRPO · global_step_100 (gsm8k)`: trial 9
  // finding 3); else (two runs under one model folder) the name and its run
  const count = new Map<string, number>();
  for (const l of labels) count.set(l, (count.get(l) ?? 0) + 1);
  const withData = labels.map((l, i) => {
    const ds = models[i].run.split('/').filter(isDatasetName);
    return (count.get(l) ?? 0) > 1 && stepFolderLabel(models[i]) !== undefined && ds.length > 0
      ? `${l} (${ds.join('/')})`
      : undefined;
  });
  const dataCount = new Map<string, number>();
  for (const l of withData) if (l !== undefined) dataCount.set(l, (dataCount.get(l) ?? 0) + 1);
  return labels.map((l, i) => {
    if ((count.get(l) ?? 0) <= 1 || stepFolderLabel(models[i]) === undefined) return l;
    const d = withData[i];
    return d !== undefined && dataCount.get(d) === 1 ? d : `${models[i].name} (${models[i].run || '.'})`;
  });
}

/** A name that is only a training step, as step folders are spelt (`global_step100`, `global_step_100_hf`, `step_1k`, `checkpoint-500`). */
const STEP_FOLDER_NAME = /^(?:global[_-]?step|step|checkpoint|ckpt|iter)[-_]?\d+(?:\.\d+)?[km]?(?:[-_]hf)?$/i;

/**
 * The label of a checkpoint model named by its step folder (trial 8 finding 9): the model folder above it and the
 * step, `Qwen2.5-7B-GRPO · global_step100` for run `Qwen2.5-7B-GRPO/global_step100` (`Qwen2.5-7B-PPO/ckpt/global_step100_hf`
 * -> `Qwen2.5-7B-PPO · global_step100_hf`; a temperature folder below the step folder is kept in the label:
 * `Qwen2.5-7B-GRPO/global_step_100/temperature_0.6` -> `Qwen2.5-7B-GRPO · global_step_100_temperature0.6`; dataset
 * folders above the step folder are passed over too:
 * `Qwen2.5-7B-GRPO/gsm8k/global_step_100` -> `Qwen2.5-7B-GRPO · global_step_100`; a name that is a folder path, as
 * Qwen-math names models, is read the same way: `Qwen2.5-Math-7B-SimpleRL/global_step_100` ->
 * `Qwen2.5-Math-7B-SimpleRL · global_step_100`), so checkpoints of different runs are
 * told apart whatever their spelling;
 * undefined for any other model (a revision, a name that is not only a step, no folder above the step folder).
 */
function stepFolderLabel(m: ModelIdentity): string | undefined {
  // a step folder with a temperature folder below it (`global_step_100/temperature_0.6/`: model
  // `global_step_100_temperature0.6`) is that step's sampling: the step is the name without the variant (trial 12 finding 15)
  // a name that is a folder path (Qwen-math's `Qwen2.5-Math-7B-SimpleRL/global_step_100`, run ""): its last
  // segment is the step folder and the folders above it are read as the run's (trial 12 finding 16)
  const cut = m.name.lastIndexOf('/');
  const own = m.name.slice(cut + 1);
  const variant = VARIANT_END.exec(own);
  const step = variant ? own.slice(0, -variant[0].length) : own;
  if (m.revision || !STEP_FOLDER_NAME.test(step)) return undefined;
  const segs = cut > 0 ? m.name.slice(0, cut).split('/').concat(step) : m.run.split('/');
  const at = segs.lastIndexOf(step);
  if (at < 0) return undefined;
  // dataset folders above the step folder name no run (`Qwen2.5-7B-GRPO/gsm8k/global_step_100`: trial 9 finding 3)
  for (let i = at - 1; i >= 0; i--)
    if (!isCheckpointHolderFolder(segs[i]) && !isDatasetName(segs[i])) return `${segs[i]} · ${own}`;
  return undefined;
}

/** Recomputes and stores every model's label (see {@link modelLabels}). */
export function refreshModelLabels(db: Database): void {
  const rows = db.prepare('SELECT id, run, name, revision FROM models ORDER BY id').all() as (ModelIdentity & {
    id: number;
  })[];
  const labels = modelLabels(rows);
  const update = db.prepare('UPDATE models SET label = ? WHERE id = ?');
  for (const [i, r] of rows.entries()) update.run(labels[i], r.id);
}

const BASE_HINTS: [RegExp, number][] = [
  [wordPattern([BASE_WORD]), 4],
  [wordPattern(START_WORDS), 3],
  [/instruct/i, 1],
];
const RL_HINTS: [RegExp, number][] = [
  [wordPattern(RL_WORDS), 4],
  // `checkpoint-500` (HF / TRL) is a step word like `global_step_100` (trial 7 finding 1)
  [/(^|[^a-z])(step|global_step|ckpt|checkpoint)[-_]?\d+/i, 2],
];

/**
 * The text the base guess reads of a model: its run folder, name and revision (trial 7 findings 1 and 2:
 * `Qwen2.5-7B-PPO/checkpoint-500/results.jsonl` names its model `checkpoint-500`, and only the run folder
 * says PPO; `Qwen2.5-7B-SFT/global_step_1000` says SFT only in its run folder).
 */
function hintText(m: ModelIdentity): string {
  return `${m.run} ${m.name} ${m.revision ?? ''}`;
}

/** Whether a model's run, name or revision names it a base (`base`, `sft`, `ref`, `reference`, `init`, `pretrained`). */
function namedBase(m: ModelIdentity): boolean {
  const text = hintText(m);
  return BASE_HINTS.slice(0, 2).some(([re]) => re.test(text));
}

/**
 * How base-like a model's run folder, name and revision are (see {@link guessBaseModel}): base hints up, RL
 * hints down. A step of a model named as a base (`sft@checkpoint-8-of-10`, `Qwen2.5-7B-SFT/global_step_1000`)
 * is no RL hint: an SFT model's own checkpoint is still the base its RL children are compared with.
 */
function baseScore(m: ModelIdentity): number {
  const text = hintText(m);
  const isNamedBase = namedBase(m);
  let score = 0;
  for (const [re, w] of BASE_HINTS) if (re.test(text)) score += w;
  for (const [i, [re, w]] of RL_HINTS.entries()) if (!(i === 1 && isNamedBase) && re.test(text)) score -= w;
  return score;
}

/** Whether a run, name or revision says the model was RL-trained or is a training checkpoint (an RL hint or a step). */
function rlEvidence(m: ModelIdentity): boolean {
  const text = hintText(m);
  return RL_HINTS.some(([re]) => re.test(text)) || trainingStep(m) !== undefined;
}

/**
 * Whether a model's run, name or revision says RL training (an RL word: `rl`, `ppo`, `grpo`, `zero`, ...) or a
 * training step (`global_step_100`, `checkpoint-500`), so the views may call what it gains or loses against its base
 * "by RL" (trial 13 finding 9: tot-game24's CoT / standard / Tree-of-Thoughts prompting of GPT-4 has no RL, and the
 * filter picker offered "Lost by RL"). False for `gpt-4_0.7_propose1_value3_greedy5`, true for
 * `Qwen2.5-Math-1.5B-GRPO/global_step_200`. Pure.
 */
export function namesShowRL(m: ModelIdentity): boolean {
  return rlEvidence(m);
}

/**
 * The base guess's note for one pair, as the overview warns it ({@link baseGuessNote} with the extension's wording),
 * or undefined when the base is not a guess worth a warning (a name says base / SFT, or the model is less base-like
 * by name): the tree's line and the status bar mark such a base "(guessed)" (trial 13 finding 9: only the overview
 * said that tot-game24's base naive_cot was a guess). `baseName` / `focusName` name them in the note. Pure.
 */
export function pairBaseGuessNote(
  base: ModelIdentity,
  focus: ModelIdentity,
  baseName: string,
  focusName: string,
): string | undefined {
  return baseGuessNote(base, baseName, [focusName], [focus], EXTENSION_CHOOSE_BASE);
}

/**
 * Whether a model is not base-like (trial 6 finding 10): its name or revision says RL training (`rl`, `ppo`,
 * `grpo`, `dpo`, `zero`, ...), or it is a training checkpoint (a step: `global_step_100`) that is not named
 * as a base (`base`, `sft`, `ref`, `reference`, `init`, `pretrained`): an SFT model's own checkpoint
 * revision (`sft@checkpoint-8-of-10`) is still the base its RL children are compared with.
 */
function notBaseLike(m: ModelIdentity): boolean {
  if (RL_HINTS[0][0].test(hintText(m))) return true;
  return !namedBase(m) && rlEvidence(m);
}

/**
 * A released post-trained variant of a pretrained model: the last name segment with `-Instruct`,
 * `-Chat` or `-it` (any of `-`, `_`, `.` before it; a version may follow: `Mistral-7B-Instruct-v0.2`).
 * Returns the name of the pretrained model it derives from (`Qwen2.5-Math-7B-Instruct` ->
 * `qwen2.5-math-7b`, `gemma-2-9b-it` -> `gemma-2-9b`, `Mistral-7B-Instruct-v0.2` -> `mistral-7b-v0.2`),
 * lower case; undefined for any other name. `-SFT` is not such a variant: an SFT model is the start
 * of RL training, the base RL is compared with (see {@link guessBaseModel}).
 */
function variantStem(name: string): string | undefined {
  const last = (name.split('/').pop() || name).toLowerCase();
  const hit = /^(.+?)[-_.](?:instruct|chat|it)([-_.].*)?$/.exec(last);
  return hit ? hit[1] + (hit[2] ?? '') : undefined;
}

/**
 * {@link baseScore} of every model, with one rule that needs the other models: a post-trained
 * variant (`X-Instruct`, `X-Chat`, `X-it`; {@link variantStem}) of a pretrained model `X` that is
 * also in `models` scores below `X` (the Instruct model is a model under study, `X` the base RL-zero
 * training starts from). Returns scores in the order of `models`.
 */
function baseScores(models: readonly ModelIdentity[]): number[] {
  const scores = models.map(baseScore);
  const lastOf = (name: string) => (name.split('/').pop() || name).toLowerCase();
  return models.map((m, i) => {
    const stem = variantStem(m.name);
    if (stem === undefined) return scores[i];
    const parents = models.flatMap((o, j) => (j !== i && lastOf(o.name) === stem ? [scores[j]] : []));
    return parents.length === 0 ? scores[i] : Math.min(scores[i], Math.max(...parents) - 1);
  });
}

/**
 * A sampling-temperature variant ending a model name (`Qwen2.5-7B_t0.6`, `X_t0`, `X_temp1`, `X_tmp0.6`, `X_t=0.6`, `X_temperature1.0`, `X_greedy`;
 * not `flan-t5`; see pathModelName).
 */
const VARIANT_END = /[-_](?:t=?(\d+\.\d+|[0-2])|(?:temp|tmp|temperature)[-_=]?(\d+(?:\.\d+)?)|(greedy))$/i;

/** The temperature variant ending a model's name: as spelt (`_temp0.6`) and its value (0.6), or undefined. */
function variantMatch(m: ModelIdentity): { spelt: string; value: number } | undefined {
  const v = VARIANT_END.exec(m.name);
  // greedy decoding is temperature 0 (`X_greedy` = `X_t0.0`: trial 9 finding 5)
  return v ? { spelt: v[0], value: v[3] !== undefined ? 0 : Number(v[1] ?? v[2]) } : undefined;
}

/**
 * The temperature variant of a model's name, by its value whatever its spelling (`_t0.6`, `_temp0.6`,
 * `_temperature_0.6` -> `t0.6`; `_t0` and `_t0.0` -> `t0`: trial 8 finding 2), or undefined.
 */
function variantOf(m: ModelIdentity): string | undefined {
  const v = variantMatch(m);
  return v ? `t${v.value}` : undefined;
}

/** A model's name without its temperature variant (`Qwen2.5-7B_t0.6` -> `qwen2.5-7b`), lower case. */
function unvariedName(m: ModelIdentity): string {
  const v = variantMatch(m);
  return (v ? m.name.slice(0, -v.spelt.length) : m.name).toLowerCase();
}

/**
 * A run folder without its temperature folders (`Qwen2.5-7B/t0.6` -> `Qwen2.5-7B`: readers/util.ts folderTemperature)
 * and without a temperature variant ending a folder name (`Qwen2.5-7B_t1.0/` -> `Qwen2.5-7B`: trial 9 finding 4).
 */
function unvariedRun(run: string): string {
  return run
    .split('/')
    .filter((d) => folderTemperature(d) === undefined)
    .map((d) => d.replace(VARIANT_END, ''))
    .join('/');
}

/**
 * The sampling temperature a model's name says (`Qwen2.5-7B_t0.6` -> 0.6, `X_temperature1.0` -> 1; temperature
 * folders and stems are in the name: readers/util.ts pathModelName), or undefined when the name says none.
 */
export function samplingTemperature(m: ModelIdentity): number | undefined {
  return variantMatch(m)?.value;
}

/**
 * The sampling of `base`'s model at the temperature variant `v` of another model (`t0.6`, or undefined for a name
 * without one): the model of `models` with `base`'s name and revision, in `base`'s run or one that differs from it
 * only by temperature folders or variants, whose variant is `v` (`Qwen2.5-7B_t0.6` for `v` = `t0.6` against the
 * base `Qwen2.5-7B` of a plain `samples.jsonl`: trial 9 finding 5). Undefined when there is none.
 */
function samplingAt<M extends ModelIdentity & { run: string }>(
  models: readonly M[],
  base: M,
  v: string | undefined,
): M | undefined {
  if (variantOf(base) === v) return base;
  return models.find(
    (o) =>
      variantOf(o) === v &&
      o.revision === base.revision &&
      unvariedName(o) === unvariedName(base) &&
      unvariedRun(o.run) === unvariedRun(base.run),
  );
}

/**
 * Whether two models differ only by a temperature variant ending their names (`Qwen2.5-7B_t0.6` and
 * `Qwen2.5-7B_t1.0`; trial 7 finding 4), in one run or in runs that differ only by temperature folders
 * (`Qwen2.5-7B/t0.6`, `Qwen2.5-7B/temp_1.0`: trial 8 finding 2a): samplings of one model, never each other's base.
 */
function areVariantSiblings(a: ModelIdentity, b: ModelIdentity): boolean {
  const va = variantOf(a);
  const vb = variantOf(b);
  if (va === undefined || vb === undefined || va === vb) return false;
  if (a.run !== b.run && unvariedRun(a.run) !== unvariedRun(b.run)) return false;
  return unvariedName(a) === unvariedName(b) && a.revision === b.revision;
}

/**
 * A run folder cut at the folder that names its model (`Qwen2.5-7B-GRPO/MATH-500` of model `Qwen2.5-7B-GRPO`
 * -> prefix `""`, folder `Qwen2.5-7B-GRPO`, tail `MATH-500`; `bench_b/Qwen2.5-7B-GRPO` -> prefix `bench_b`): the
 * folders below it (datasets, configs) are the tail, without temperature folders and seed tokens (`rl/seed1` and
 * `rl/seed0` have one tail); the folders above it the prefix. Undefined when no folder names the model (the name
 * comes from the data or the file).
 */
function runParts(m: ModelIdentity & { run: string }): { prefix: string; folder: string; tail: string } | undefined {
  const segs = m.run.split('/');
  const name = unvariedName(m);
  for (let i = segs.length - 1; i >= 0; i--)
    if (
      segs[i].replace(VARIANT_END, '').toLowerCase() === name ||
      stripSeedTokens(segs[i])
        .replace(/^[-_.]+|[-_.]+$/g, '')
        .toLowerCase() === name
    )
      return {
        prefix: segs.slice(0, i).join('/'),
        folder: segs[i],
        // seed folders are left to the seed rules (seeds of the base are not the model's counterpart); run-output,
        // dated and Hydra job folders say where a run wrote, not what it evaluated (`outputs/2025-01-15/10-20-30/math500`
        // and `multirun/2025-01-15/10-20-30/0/math500` have one tail, `math500`: trial 9 finding 10)
        tail: unvariedRun(
          segs
            .map((d, j) =>
              j > i &&
              !isRunOutputFolder(d) &&
              !isLoggingToolFolder(segs, j) &&
              !isDateTimeName(d) &&
              !isJobFolder(segs, j)
                ? d
                : undefined,
            )
            .filter((d): d is string => d !== undefined)
            .map((d) => stripSeedTokens(d))
            .join('/'),
        ),
      };
  return undefined;
}

/**
 * Whether two tails of run folders ({@link runParts}) are the same folders, a dataset folder in any spelling
 * (`MATH-500` = `math500`, `aime_2024` = `aime24`: util.ts `datasetKey`; trial 9 finding 9).
 */
function sameTail(a: string, b: string): boolean {
  if (a === b) return true;
  const as = a.split('/');
  const bs = b.split('/');
  return (
    as.length === bs.length &&
    as.every((x, i) => x === bs[i] || (isDatasetName(x) && isDatasetName(bs[i]) && datasetKey(x) === datasetKey(bs[i])))
  );
}

/**
 * The base's counterpart of a model: the base's sampling that sits where the model sits. One rule, with three parts
 * read from the run folders ({@link runParts}: prefix / model folder / tail):
 * - the model folder is the base's (`Qwen2.5-7B/`), with the base's name, revision and the model's temperature;
 * - the prefix (folders above the model folder) is the model's when the two prefixes differ and name no model
 *   (benchmark or config folders: `bench_b/Qwen2.5-7B-GRPO` against `bench_a/Qwen2.5-7B` -> `bench_b/Qwen2.5-7B`;
 *   trial 8 finding 1), else the base's (a checkpoint folder such as `Qwen2.5-7B-SFT/checkpoint-1000` is no prefix
 *   to copy);
 * - the tail (folders below the model folder: datasets and configs) is the model's (`Qwen2.5-7B-GRPO/MATH-500` ->
 *   `Qwen2.5-7B/MATH-500`; trial 8 finding 1), where run-output, dated, Hydra job, seed and temperature folders
 *   count for nothing (`outputs/2025-01-15/10-20-30/math500` and `multirun/2025-01-15/10-20-30/0/math500` are both
 *   `math500`: trial 9 finding 10; nameTokens.ts), and a dataset folder is matched spelt alike first, then by its
 *   key in another spelling (`MATH-500` = `math500`: trial 9 finding 9).
 * `base` itself when it already sits there (same run, or same prefix and tail), or when the base has no copy there;
 * `m` itself when `m` is that counterpart (`bench_b/Qwen2.5-7B`: the base of its own folder, compared with nothing);
 * undefined when the base was evaluated per benchmark folder (its own run has a prefix) and has no copy in the model's
 * (`my_hard_set/Qwen2.5-7B-GRPO` beside `gsm8k/Qwen2.5-7B` and `aime24/Qwen2.5-7B`: no base was evaluated on
 * my_hard_set, so the model is compared with nothing, never with another benchmark's base; trial 12 finding 11).
 */
function counterpartBase<M extends ModelIdentity & { id: number; run: string }>(
  models: readonly M[],
  m: M,
  base: M,
): M | undefined {
  if (m.run === base.run) return base;
  const mp = runParts(m);
  const bp = runParts(base);
  if (!mp || !bp) return base;
  // folders above the model folder count only when they name no model (`bench_b/`, `gsm8k/`), not when the model is
  // a checkpoint of the model folder above it (`Qwen2.5-7B-GRPO/checkpoint-500` against `Qwen2.5-7B-SFT/checkpoint-1000`)
  const byPrefix =
    mp.prefix !== bp.prefix && ![mp.prefix, bp.prefix].some((p) => p.split('/').some(looksLikeModelName));
  if (mp.tail === bp.tail && !byPrefix) return base;
  const v = variantOf(m) ?? variantOf(base);
  // the base's copy in the model's own folders spelt alike first, then spelt another way (`MATH-500` for `math500`)
  const copy = (same: (a: string, b: string) => boolean) =>
    models.find((o) => {
      if (o.revision !== base.revision || unvariedName(o) !== unvariedName(base)) return false;
      if ((variantOf(o) ?? v) !== v) return false;
      const op = runParts(o);
      return (
        op !== undefined &&
        op.folder === bp.folder &&
        op.prefix === (byPrefix ? mp.prefix : bp.prefix) &&
        same(op.tail, mp.tail)
      );
    });
  const found =
    copy((a, b) => a === b) ?? (sameTail(mp.tail, bp.tail) && !byPrefix ? base : undefined) ?? copy(sameTail);
  if (found) return found;
  // a base evaluated under benchmark folders (`aime24/Qwen2.5-7B`) and none under the model's (`my_hard_set/`): no base
  return byPrefix && bp.prefix !== '' && mp.prefix !== '' ? undefined : base;
}

/**
 * The model's benchmark folder (the folders above its model folder) when its base was evaluated under benchmark
 * folders but not under that one (`my_hard_set` for `my_hard_set/Qwen2.5-7B-GRPO` beside `gsm8k/Qwen2.5-7B`):
 * {@link comparisonPairs} gives it no pair (trial 12 finding 11). Undefined otherwise.
 */
export function benchmarkWithoutBase<M extends ModelIdentity & { id: number; run: string }>(
  models: readonly M[],
  m: M,
  base: M,
): string | undefined {
  if (m.id === base.id || counterpartBase(models, m, base) !== undefined) return undefined;
  return runParts(m)?.prefix;
}

/** The last segment of a model's name without its temperature variant, lower case (`org/Qwen2.5-7B_t0.6` -> `qwen2.5-7b`). */
function familyName(m: ModelIdentity): string {
  const n = unvariedName(m);
  return n.slice(n.lastIndexOf('/') + 1);
}

/**
 * Whether model `a`'s name extends model `b`'s by more words ({@link familyName}: `Qwen2.5-Math-7B-gsm8k-sft` and
 * `Qwen2.5-Math-7B-MATH500-zero` extend `Qwen2.5-Math-7B`; `Qwen2.5-Math-7B-gsm8k-sft-GRPO` extends
 * `Qwen2.5-Math-7B-gsm8k-sft`): `b`'s name, then `-`, `_` or `.` and more. Names are how model makers say what a
 * model was trained from.
 */
function extendsName(a: ModelIdentity, b: ModelIdentity): boolean {
  const x = familyName(a);
  const y = familyName(b);
  return x.length > y.length + 1 && x.startsWith(y) && /[-_.]/.test(x[y.length]);
}

/**
 * A model's nearest ancestor by name (trial 11 finding 14): of the base-like models of `models` (not RL-trained nor a
 * checkpoint: {@link notBaseLike}) whose names `m`'s name extends ({@link extendsName}), the one with the longest
 * name, the first listed of its copies; undefined when no model's name is a beginning of `m`'s. For
 * `Qwen2.5-Math-7B-gsm8k-sft-GRPO`: `Qwen2.5-Math-7B-gsm8k-sft`; for `Qwen2.5-Math-7B-MATH500-zero`: `Qwen2.5-Math-7B`.
 */
function nameAncestor<M extends ModelIdentity>(models: readonly M[], m: M): M | undefined {
  let best: M | undefined;
  for (const p of models)
    if (!notBaseLike(p) && extendsName(m, p) && (!best || familyName(p).length > familyName(best).length)) best = p;
  return best;
}

/**
 * The warning for a model compared with a base that is itself a fine-tune of another model of the folder (trial 11
 * finding 14): `m`'s name extends neither (`Qwen2.5-7B-MATH-GRPO` beside `Qwen2.5-Math-7B-gsm8k-sft`, which extends
 * `Qwen2.5-Math-7B`), so either could be the model it was trained from. Names models by `name` (labels). Undefined
 * when the choice is not open: `m`'s name extends a model, or `base` extends none.
 */
export function ambiguousBaseNote<M extends ModelIdentity>(
  models: readonly M[],
  base: M,
  m: M,
  name: (x: M) => string,
): string | undefined {
  if (nameAncestor(models, m) !== undefined) return undefined;
  const root = nameAncestor(models, base);
  if (root === undefined) return undefined;
  return `${name(m)} is compared with ${name(base)} (a base by its name), but ${name(base)} is a fine-tune of ${name(root)} (its name extends it), which is also in the folder: either could be the model ${name(m)} was trained from, and its name extends neither; choose the base with --base (Choose Base Model)`;
}

/** The model families ({@link MODEL_FAMILIES}) a model's name names (`Llama-3.1-8B-Instruct-DAPO`: llama; `DeepSeek-R1-Distill-Qwen-7B`: deepseek, qwen). */
function modelFamilies(m: ModelIdentity): string[] {
  const n = familyName(m);
  return MODEL_FAMILIES.filter((f) => new RegExp(`(?:^|[^a-z])${f}(?![a-z])`).test(n));
}

/**
 * The warning for a model compared with a base of another model family (trial 12 finding 3): their names name
 * families ({@link MODEL_FAMILIES}) and none in common (`Llama-3.1-8B-Instruct-DAPO` against `Qwen2.5-7B`), so `m`
 * was not trained from `base` and the comparison measures the families' difference, not training. Names both by
 * `name` (labels). Undefined when either name names no family or they share one (`DeepSeek-R1-Distill-Qwen-7B`
 * against `Qwen2.5-Math-7B`: qwen).
 */
export function crossFamilyNote<M extends ModelIdentity>(base: M, m: M, name: (x: M) => string): string | undefined {
  if (!disjointFamilies(base, m)) return undefined;
  return `${name(m)} is compared with ${name(base)}, a model of another family (${modelFamilies(m).join(', ')}, not ${modelFamilies(base).join(', ')}): its name does not extend ${name(base)}'s, so it was not trained from it and the comparison mixes the families' difference with that of training; choose its base with --base (Choose Base Model), or leave it out`;
}

/** Whether both names name model families and none in common ({@link modelFamilies}: `Llama-3.1-8B` and `Qwen2.5-7B`). */
function disjointFamilies(a: ModelIdentity, b: ModelIdentity): boolean {
  const fa = modelFamilies(a);
  const fb = modelFamilies(b);
  return fa.length > 0 && fb.length > 0 && !fa.some((f) => fb.includes(f));
}

/** Seeds ({@link areSeedSiblings}) or temperature variants ({@link areVariantSiblings}) of one model. */
function siblings(a: ModelIdentity, b: ModelIdentity): boolean {
  return areSeedSiblings(a, b) || areVariantSiblings(a, b);
}

/**
 * Guesses the base model among `models` from names and structure: names with `base`, `sft`,
 * `ref`... score up, names with `rl`, `ppo`, `grpo`, `dpo`, `zero` or a training step score down;
 * `X-Instruct` (`-Chat`, `-it`) scores below `X` when both are present ({@link baseScores}).
 * The run folder's words count with the name's ({@link hintText}: `Qwen2.5-7B-PPO/checkpoint-500`, trial 7).
 * Ties go to a base's own checkpoint (`sft@checkpoint-8-of-10`), then a model without a step, then the earliest
 * training step ({@link trainingStep}; checkpoints of a run with no separate base: the earliest step is
 * the base), then to the model listed first (callers list models by run, then name).
 * Seeds of one model are never each other's base (trial 6 finding 2): among two or more models, a model
 * whose every other model is its seed sibling ({@link areSeedSiblings}: `seed0` beside `seed1` only) or
 * temperature variant ({@link areVariantSiblings}: `X_t0.6` beside `X_t1.0` only; trial 7 finding 4) is
 * passed over, so a folder (or run) of seeds of one model has no base. Returns the index of the guess in
 * `models`, or -1 when the list is empty or holds only seeds of one model. A guess only: the user can change it.
 */
export function guessBaseModel(models: readonly ModelIdentity[]): number {
  let best = -1;
  let bestScore = -Infinity;
  const scores = baseScores(models);
  // among equally base-like checkpoints of one run (`global_step_100`, `global_step_200`: no separate base),
  // the earliest step (trial 6 finding 10); else the first listed
  // a model without a step never loses a tie to a checkpoint not named as a base (trial 7 finding 1:
  // `Qwen2.5-7B` beside `checkpoint-500`); a base's own checkpoint (`sft@checkpoint-8-of-10`) keeps its step
  const LATE = Number.MAX_SAFE_INTEGER / 2;
  const step = (i: number) => {
    const s = trainingStep(models[i]);
    if (s === undefined) return LATE;
    return notBaseLike(models[i]) ? LATE + s : s;
  };
  // a base of something other than its own seeds (trial 6 finding 2)
  // (nor of its temperature variants: trial 7 finding 4)
  const eligible = (i: number) => models.length < 2 || models.some((o, j) => j !== i && !siblings(models[i], o));
  models.forEach((_m, i) => {
    const score = scores[i];
    if (!eligible(i)) return;
    if (score > bestScore || (score === bestScore && step(i) < step(best))) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

/** How the CLI report says to choose the base ({@link baseGuessNote}'s default). */
export const CLI_CHOOSE_BASE = '--base (Choose Base Model)';

/**
 * How the extension says to choose the base: the command only, never the CLI's flag (trial 10 finding 10a);
 * for {@link baseGuessNote} and the not-compared reasons of the overview.
 */
export const EXTENSION_CHOOSE_BASE = 'the command Trace Inspector: Choose Base Model';

/**
 * What the report says about a guessed base that is itself RL-trained or a training checkpoint not named as
 * a base ({@link notBaseLike}: no model of its comparisons is named base / SFT / ref; `global_step_100` before
 * `global_step_200`): which model was taken and why (trial 6 finding 10). `display` names the base, `against`
 * the models compared with it. Undefined when `base` looks like a base (no RL hint, and no step or a name
 * that says base / SFT: `sft@checkpoint-8-of-10`).
 * With `againstModels` (the identities of `against`): also when no name says base and one of those models is as
 * base-like by name as `base` ({@link baseScores}: a tie, broken by the order models are listed in; trial 8
 * finding 4): the note says the base is a guess with nothing to go on and how to choose one.
 * `choose` says how to choose the base: the CLI's flag by default, {@link EXTENSION_CHOOSE_BASE} in the extension.
 */
export function baseGuessNote(
  base: ModelIdentity,
  display: string,
  against: readonly string[],
  againstModels: readonly ModelIdentity[] = [],
  choose: string = CLI_CHOOSE_BASE,
): string | undefined {
  if (!notBaseLike(base)) {
    // nothing to go on (trial 8 finding 4): no name says base or SFT, and a model compared with it is as
    // base-like by name (`DeepSeek-R1-Distill-Qwen-7B` beside `Qwen2.5-Math-7B`): taken as listed first
    const scores = baseScores([base, ...againstModels]);
    // a model whose name extends the base's (`X-gsm8k-sft` of `X`) is its descendant by name, no tie (trial 11 finding 14)
    const tied = against.filter(
      (_a, i) => scores[i + 1] >= scores[0] && !(againstModels[i] && extendsName(againstModels[i], base)),
    );
    if (namedBase(base) || tied.length === 0) return undefined;
    return `the base is a guess from the names with nothing to go on: no model is named as a base (base, sft, ref, init, pretrained), and ${display} is taken as the base of ${against.join(', ')} only because it is listed first (by run folder and name) beside ${tied.join(', ')}, whose names are as base-like; choose the base with ${choose}`;
  }
  const step = trainingStep(base);
  const why =
    step !== undefined
      ? `the earliest training step, ${display} (step ${step}), is taken as the base`
      : `${display}, whose name says RL training, is taken as the base`;
  return `no model is named as a base (base, sft, ref, init, pretrained): ${why} of ${against.join(', ')}; choose another with ${choose}`;
}

/**
 * The models `--model <text>` picks: the models whose display id, name or label equals the text
 * (case-insensitive) when there is one (`Qwen2.5-Math-7B` is the base alone, not also `Qwen2.5-Math-7B-GRPO`), else
 * those whose display id or label contains it (case-insensitive); an empty list when none does. `match` says which
 * rule picked them. Used by `search --model` and `figure --model`, and by the views' figure export (display ids).
 */
export function pickModels<M extends { displayId: string; name: string; label: string }>(
  models: readonly M[],
  text: string,
): { models: M[]; match: 'exact' | 'substring' } {
  const q = text.toLowerCase();
  const exact = models.filter((m) => [m.displayId, m.name, m.label].some((n) => n.toLowerCase() === q));
  if (exact.length > 0) return { models: exact, match: 'exact' };
  return { models: models.filter((m) => `${m.displayId}\n${m.label}`.toLowerCase().includes(q)), match: 'substring' };
}

/**
 * Picks a model by a case-insensitive substring of its display id or label (the CLI's `--base`).
 * Exact matches of the label or display id win over substring matches, and a substring that ends
 * at a word boundary wins over one that does not (`step-100` picks step-100, not step-1000). Returns -1 when nothing
 * matches; throws when the substring is ambiguous (lists the candidates).
 */
export function pickModel(models: readonly { displayId: string; label: string }[], query: string): number {
  const q = query.toLowerCase();
  const exact = models.findIndex((m) => m.displayId.toLowerCase() === q || m.label.toLowerCase() === q);
  if (exact >= 0) return exact;
  const hits = models
    .map((m, i) => ((m.displayId + '\n' + m.label).toLowerCase().includes(q) ? i : -1))
    .filter((i) => i >= 0);
  if (hits.length === 1) return hits[0];
  // `step-100` should not also pick `step-1000`: prefer matches that end at a word boundary.
  const bounded = new RegExp(`${q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9])`);
  const whole = hits.filter((i) => bounded.test((models[i].displayId + '\n' + models[i].label).toLowerCase()));
  if (whole.length === 1) return whole[0];
  if (hits.length > 1) {
    throw new Error(`"${query}" matches ${hits.length} models: ${hits.map((i) => models[i].displayId).join(', ')}`);
  }
  return -1;
}

/**
 * Which base model each model is compared with (the CLI report and the overview share this rule).
 * - `baseIsChoice` (the user chose `base`: `--base`, or Choose Base Model): every other model against it.
 * - otherwise (a guess), runs are compared within themselves: in a run folder holding two or more
 *   models, each model against the run's own base-like model ({@link guessBaseModel} within the run),
 *   as rlvr_behavior_probe's runs and checkpoints (each RL model against its own run's SFT); models of
 *   single-model runs against `base`. A run whose own guess is RL-trained or a checkpoint not named as a
 *   base ({@link notBaseLike}: a run of checkpoints only) while `base` is not, or that has no guess (seeds of
 *   one model only): its models against `base`. A model is never compared with its seed sibling ({@link areSeedSiblings}:
 *   `base/seed1` is not compared with the base `base/seed0`; trial 6 finding 2): it is left out of the pairs.
 * Returns `[base, model]` pairs in the order of `models`; run bases are not compared with anything.
 */
export function comparisonPairs<M extends ModelIdentity & { id: number; run: string }>(
  models: readonly M[],
  base: M | undefined,
  baseIsChoice: boolean,
): [M, M][] {
  const out: [M, M][] = [];
  if (!base) return out;
  if (baseIsChoice) {
    for (const m of models) if (m.id !== base.id) out.push([base, m]);
    return out;
  }
  const runs = new Map<string, M[]>();
  for (const m of models) runs.set(m.run, [...(runs.get(m.run) ?? []), m]);
  for (const inRun of runs.values()) {
    const own = (inRun.length >= 2 ? inRun[guessBaseModel(inRun)] : undefined) ?? base;
    // a run of checkpoints only (`coder-grpo/global_step_{100,200}`) beside a base-like model of another
    // run (`coder-sft`): every checkpoint against that base, not the run's earliest step (trial 6 finding 10)
    const runBase = notBaseLike(own) && !notBaseLike(base) ? base : own;
    for (const m of inRun) {
      // a temperature variant against the base's sampling at its own temperature, when there is one
      // (`Qwen2.5-7B-GRPO_t1.0` against `Qwen2.5-7B_t1.0`, not `_t0.6`; trial 7 finding 4), also when the base
      // is a plain file beside its `_t0.6` file (trial 9 finding 5) or names its temperature in its model
      // folder (`Qwen2.5-7B_t1.0/`: trial 9 finding 4); else the run's base (the report warns: temperatures differ)
      // the model's nearest ancestor by name when the run's base is not it (trial 11 finding 14: an `sft` in
      // `Qwen2.5-Math-7B-gsm8k-sft` makes it the guessed base, but `Qwen2.5-Math-7B-MATH500-zero` extends the
      // pretrained `Qwen2.5-Math-7B` and is compared with it; the SFT model itself with the pretrained one)
      // (only when the run's base is itself a fine-tune of a model of the folder: a base with nothing above it by
      // name keeps every model it was guessed for, trial 8 finding 4)
      const anc = nameAncestor(models, m);
      const baseAnc = nameAncestor(models, runBase);
      // also when the ancestor is itself a descendant of the run's base by name (trial 12 finding 3:
      // `Qwen2.5-7B-Instruct-GRPO` against `Qwen2.5-7B-Instruct`, the longest base its name extends, not the
      // pretrained `Qwen2.5-7B`), or of another family than it (`Llama-3.1-8B-Instruct-DAPO` against
      // `Llama-3.1-8B-Instruct`, not a guessed base `Qwen2.5-7B`)
      const lineBase =
        anc !== undefined &&
        familyName(anc) !== familyName(runBase) &&
        (baseAnc !== undefined || extendsName(anc, runBase) || disjointFamilies(anc, runBase))
          ? anc
          : runBase;
      // the model the base's name extends (the pretrained model of an SFT base) is the base of that base, never compared with it
      if (lineBase === runBase && baseAnc !== undefined && familyName(baseAnc) === familyName(m)) continue;
      const b0 = samplingAt(models, lineBase, variantOf(m)) ?? lineBase;
      // the base's sampling in the model's own dataset folder (`Qwen2.5-7B/MATH-500` for `Qwen2.5-7B-GRPO/MATH-500`)
      const b = counterpartBase(models, m, b0);
      // no copy of the base in the model's benchmark folder: compared with nothing (report.ts `noBaseInFolder`)
      if (b && m.id !== b.id && !siblings(b, m)) out.push([b, m]);
    }
  }
  return out;
}

/**
 * The base `model` is compared with under the rule of {@link comparisonPairs} (the chosen base; or,
 * when the base is a guess, the model's own run's base when its run holds two or more models):
 * undefined when `model` is itself the base it would be compared with (a base is compared with nothing).
 */
export function comparisonBase<M extends ModelIdentity & { id: number; run: string }>(
  models: readonly M[],
  model: M,
  base: M | undefined,
  baseIsChoice: boolean,
): M | undefined {
  return comparisonPairs(models, base, baseIsChoice).find(([, m]) => m.id === model.id)?.[0];
}

/** Splits a name into words at `-`, `_`, `/` and spaces (the separators of model and run names). */
function words(s: string): string[] {
  return s.split(/[-_/\s]+/).filter((w) => w !== '');
}

/**
 * For each string, its shortest run of last words that no other distinct string in `all` ends with
 * (joined with the original separators), at least `minWords` words when the string has that many.
 * A string that is the end of another keeps all its words.
 */
function shortestUniqueSuffix(all: readonly string[], minWords: number): Map<string, string> {
  const distinct = [...new Set(all)];
  const out = new Map<string, string>();
  for (const s of distinct) {
    const ws = words(s);
    let chosen = s;
    for (let n = Math.min(minWords, ws.length); n <= ws.length; n++) {
      const tail = ws.slice(-n).join('\u0000');
      const clash = distinct.some((o) => o !== s && words(o).slice(-n).join('\u0000') === tail);
      if (!clash) {
        // Cut the original string at the start of the n-th last word (keeps its own separators).
        let at = s.length;
        for (let k = 0; k < n; k++) {
          at = s.slice(0, at).search(/[^-_/\s]+[-_/\s]*$/);
        }
        chosen = s.slice(at);
        break;
      }
    }
    out.set(s, chosen);
  }
  return out;
}

/**
 * Short model labels for narrow places (tree rows, the status bar, tab titles) that put first what
 * tells the models apart: the words of the model name's last segment that no other model name ends
 * with (`expx/qwen-2.5-1.5b-rlvr-ppo` and `ns-0/qwen-2.5-1.5b-instruct-reasoning-sft` become `ppo` and
 * `sft`); the revision when it tells models of that name apart (`ppo@main`, `ppo@step-100`; not the
 * `checkpoint-8-of-10` every revised copy of the SFT model has); and, when several runs hold a model of
 * that name, the shortest distinguishing end of the run folder, at least two words
 * (`ppo@main · 2048_batched` for run `results_2048_batched`, `sft · step-100` for
 * `trajectory/step-100`), left out when the revision already says it (`ppo@step-100`). Two models
 * whose names share the last segment keep their whole name. A checkpoint named by its folder path
 * (`grpo-lr1e-6/global_step_100`, `ppo-kl0.01/checkpoint-500`; Qwen2.5-Math's layout) reads
 * `<run> · step-<n>` (`grpo-lr1e-6 · step-100`, `ppo-kl0.01 · step-500`): the run's last folder when it
 * is at most 16 characters and tells the runs apart, else the run's shortest distinct end. The full id
 * stays in tooltips. Returns labels in the order of `models`; every label is unique when the models'
 * display ids are.
 */
export function distinctiveLabels(models: readonly ModelIdentity[]): string[] {
  // Checkpoints named by their folder path (`grpo-lr1e-6/global_step_100`, `ppo-kl0.01/checkpoint-500`):
  // `<run> · step-<n>`, so the run and the step both stay (not `global_step_100` or `500` alone).
  const ckpt = models.map(checkpointPath);
  const others = models.flatMap((m, i) => (ckpt[i] ? [] : [m]));
  const otherLabels = namedLabels(others);
  const runs = [...new Set(ckpt.flatMap((c) => (c ? [c.run] : [])))];
  const lastOfRun = (r: string) => r.split('/').pop() || r;
  const lastUnique = new Set(runs.map(lastOfRun)).size === runs.length;
  const shortRun = shortestUniqueSuffix(runs, 2);
  let k = 0;
  const labels = models.map((m, i) => {
    const c = ckpt[i];
    if (!c) return otherLabels[k++];
    // The run's last folder when it is short and tells the runs apart; else its shortest distinct end.
    const last = lastOfRun(c.run);
    const run = lastUnique && last.length <= 16 ? last : (shortRun.get(c.run) ?? c.run);
    return `${run} · step-${c.step}`;
  });
  const count = new Map<string, number>();
  for (const l of labels) count.set(l, (count.get(l) ?? 0) + 1);
  return labels.map((l, i) => ((count.get(l) ?? 0) <= 1 ? l : ckpt[i] ? models[i].name : l));
}

/**
 * A model named by a checkpoint folder path: no revision, and a name whose last segment is only a
 * training step (`global_step_100`, `step-200`, `checkpoint-500`, `ckpt_3`, `iter_0001000`) under at
 * least one folder, of its name or of its run folder (`Qwen2.5-7B-PPO/checkpoint-500:checkpoint-500`).
 * Returns the folders above it (run folder first, when any) and the step; undefined otherwise.
 */
function checkpointPath(m: ModelIdentity): { run: string; step: number } | undefined {
  if (m.revision) return undefined;
  const cut = m.name.lastIndexOf('/');
  const hit = /^(?:global_step|step|checkpoint|ckpt|iter)[-_]?(\d+)$/i.exec(m.name.slice(cut + 1));
  if (!hit) return undefined;
  if (cut <= 0) {
    // a step folder that names its model (`Qwen2.5-7B-PPO/checkpoint-500/results.jsonl`: run
    // `Qwen2.5-7B-PPO/checkpoint-500`, name `checkpoint-500`; verl's `.../global_step_100/actor/huggingface`):
    // the folders above the step folder are the run (trial 7 finding 1)
    const segs = m.run.split('/');
    const at = segs.lastIndexOf(m.name);
    return at > 0 ? { run: segs.slice(0, at).join('/'), step: Number(hit[1]) } : undefined;
  }
  const dir = m.name.slice(0, cut);
  return { run: m.run ? `${m.run}/${dir}` : dir, step: Number(hit[1]) };
}

/** A word that is a setting rather than a name: it holds a digit (`greedy5`, `value3`, `100`, `8b`, `0.7`). */
const SETTING_WORD = /\d/;

/**
 * A short name made only of settings (`greedy5` of `gpt-4_0.7_propose1_value3_greedy5`, `8b` of `llama-8b`) says no
 * method or model (trial 13 finding 8: tot-game24's Tree-of-Thoughts model read "greedy5"): it takes in, leftwards,
 * the words of `last` that no other name of `all` holds (any case) while it is still only settings, so
 * `propose1_value3_greedy5` (beside `..._naive_cot_sample_100`), `llama-8b` (beside `qwen-7b`). A word another
 * name shares (`0.7`, `gpt`) stops it: that word tells nothing apart, except after a bare number, which takes the
 * word before it (`step_900` beside `global_step_1000`, not `900`). `short` must be an end of `last`; a short name
 * with a word without a digit (`cot_sample_100`, `ppo`) is returned as it is. Pure.
 */
function withMethodWords(last: string, short: string, all: readonly string[]): string {
  const own = words(last);
  const shortWords = words(short).length;
  const others = new Set(all.filter((o) => o !== last).flatMap((o) => words(o).map((w) => w.toLowerCase())));
  let n = shortWords;
  for (; n < own.length; n++) {
    const tail = own.slice(-n);
    if (!tail.every((w) => SETTING_WORD.test(w))) break;
    // a bare number (`900` of `global_step_900`) takes the word before it even when another name has it
    if (others.has(own[own.length - n - 1].toLowerCase()) && !tail.every((w) => /^\d+$/.test(w))) break;
  }
  if (n === shortWords) return short;
  // cut `last` at the start of its n-th last word (keeps its own separators), as shortestUniqueSuffix does
  let at = last.length;
  for (let k = 0; k < n; k++) at = last.slice(0, at).search(/[^-_/\s]+[-_/\s]*$/);
  return last.slice(at);
}

/**
 * The short name of every model by id ({@link distinctiveLabels} of `models`): the one name the views give a model
 * (tree, status bar, tab titles, the preview, the problem view, the overview, filter texts; trial 13 finding 8), the
 * full label and id going to tooltips. `models` must be the folder's whole model list (`TraceIndex.models()`), as
 * the short names depend on what tells the models apart. Pure.
 */
export function shortModelNames(models: readonly (ModelIdentity & { id: number })[]): Map<number, string> {
  const labels = distinctiveLabels(models);
  return new Map(models.map((m, i) => [m.id, labels[i]]));
}

/** {@link distinctiveLabels} for models named by a model name (not a checkpoint folder path). */
function namedLabels(models: readonly ModelIdentity[]): string[] {
  const lastOf = (name: string) => name.split('/').pop() || name;
  const names = [...new Set(models.map((m) => m.name))];
  const lasts = names.map(lastOf);
  // One model name: nothing to tell apart, so its whole last segment.
  const shortName = names.length > 1 ? shortestUniqueSuffix(lasts, 1) : new Map(lasts.map((l) => [l, l]));
  if (names.length > 1) for (const l of lasts) shortName.set(l, withMethodWords(l, shortName.get(l) ?? l, lasts));
  // A model of a family no other name is of (`gemma-2-9b-it`, `Llama-3.1-8B-Instruct`, `DeepSeek-R1-Distill-Qwen-7B`
  // beside Qwen2.5-Math models) keeps its whole last segment: its distinct end alone (`it`, `Instruct`, `Qwen-7B`)
  // names no model, and what tells it apart is its family, at the start
  const family = (l: string) => /^[a-z]*/i.exec(words(l)[0] ?? '')?.[0].toLowerCase() ?? '';
  const families = new Map<string, number>();
  for (const l of lasts) families.set(family(l), (families.get(family(l)) ?? 0) + 1);
  // (Not when its distinct end names a method, `sft` of `qwen-sft` beside `rlvr-ppo`: that is what tells it apart;
  // nor when its first word is a method, `rlvr` of `rlvr-ppo`, `base` of `base-x`: that is no family.)
  const method = wordPattern([BASE_WORD, ...START_WORDS, ...RL_WORDS]);
  if (families.size > 1)
    for (const l of lasts) {
      const short = shortName.get(l) ?? l;
      const f = family(l);
      if (f !== '' && families.get(f) === 1 && !method.test(short) && !method.test(f)) shortName.set(l, l);
    }
  // A name another name begins with (`Qwen2.5-Math-7B` beside `Qwen2.5-Math-7B-SimpleRL-Zoo`) keeps its
  // whole last segment (its distinct end alone, `7B`, names nothing); the longer one shows all it adds
  // (`SimpleRL-Zoo`, not `Zoo`) when that is unique.
  const extends_ = (o: string, l: string) =>
    o !== l && o.toLowerCase().startsWith(l.toLowerCase()) && /^[-_.]./.test(o.slice(l.length));
  for (const l of lasts) {
    if (lasts.some((o) => extends_(o, l))) shortName.set(l, l);
    const parent = lasts.filter((p) => extends_(l, p)).sort((a, b) => b.length - a.length)[0];
    const added = parent && l.slice(parent.length + 1);
    // `it` alone (gemma-2-9b-it) reads as a word: a short addition keeps the whole segment.
    if (added && added.length < 4) shortName.set(l, l);
    else if (
      added &&
      (shortName.get(l)?.length ?? 0) < added.length &&
      !lasts.some((o) => o !== l && o.endsWith(added))
    )
      shortName.set(l, added);
  }
  const runsByName = new Map<string, Set<string>>();
  for (const m of models) runsByName.set(m.name, (runsByName.get(m.name) ?? new Set()).add(m.run));
  const shortRun = shortestUniqueSuffix(
    models.map((m) => m.run || '.'),
    2,
  );
  // A revision every revised model of that name shares tells nothing apart (the run does): left out.
  const revisionsByName = new Map<string, Set<string>>();
  for (const m of models)
    if (m.revision) revisionsByName.set(m.name, (revisionsByName.get(m.name) ?? new Set()).add(m.revision));
  const labels = models.map((m) => {
    const last = lastOf(m.name);
    const sameLast = names.filter((n) => lastOf(n) === last).length > 1;
    const name = sameLast ? m.name : (shortName.get(last) ?? last);
    const revisionTells =
      m.revision && ((revisionsByName.get(m.name)?.size ?? 0) > 1 || runsByName.get(m.name)?.size === 1);
    const withRev = revisionTells ? `${name}@${m.revision}` : name;
    if ((runsByName.get(m.name)?.size ?? 0) <= 1) return withRev;
    const run = shortRun.get(m.run || '.') ?? m.run;
    // `ppo@step-100` in run `trajectory/step-100`: the revision already says the run.
    return revisionTells && run === m.revision ? withRev : `${withRev} · ${run}`;
  });
  // Identical labels (the same name and revision in runs whose ends agree): fall back to the whole run.
  const count = new Map<string, number>();
  for (const l of labels) count.set(l, (count.get(l) ?? 0) + 1);
  return labels.map((l, i) => {
    if ((count.get(l) ?? 0) <= 1) return l;
    const m = models[i];
    const last = lastOf(m.name);
    return `${m.revision ? `${last}@${m.revision}` : last} · ${m.run || '.'}`;
  });
}

/**
 * The training step a model is at, from its revision or name: the number after `step`, `global_step`,
 * `ckpt` or `checkpoint` (`step-1000`, `global_step_300`, `checkpoint-8-of-10` -> 8), with a `k` (x1000) or
 * `m` (x1,000,000) ending the token as in the series' step pattern (`ckpt-2k` -> 2000, `ckpt_1.5k` -> 1500);
 * the last such mention wins. Undefined when there is none (a final or released model).
 */
export function trainingStep(m: Pick<ModelIdentity, 'name' | 'revision'>): number | undefined {
  const text = `${m.name} ${m.revision ?? ''}`;
  let step: number | undefined;
  for (const hit of text.matchAll(
    /(?:^|[^a-z])(?:global_step|step|ckpt|checkpoint)[-_]?(\d+)(?:(\.\d+)?([km])(?![a-z0-9]))?/gi,
  )) {
    const scale = hit[3] === undefined ? 1 : hit[3].toLowerCase() === 'k' ? 1_000 : 1_000_000;
    step = Math.round(Number(hit[1] + (hit[2] ?? '')) * scale);
  }
  return step;
}

/**
 * The run a model belongs to for choosing the model in focus: its run folder; for a model at the root of
 * the folder whose name is a folder path (`grpo-lr1e-6/global_step_100`, Qwen2.5-Math's layout), the
 * folders of the name above the model's own (`grpo-lr1e-6`); `""` for a top-level model.
 */
export function focusRun(m: ModelIdentity): string {
  if (m.run) return m.run;
  const cut = m.name.lastIndexOf('/');
  return cut > 0 ? m.name.slice(0, cut) : '';
}

/**
 * The model to study when the user has chosen none: the final model of the last run. Runs
 * ({@link focusRun}) are taken in natural order of their folder names (`results_1024`, `results_2048`,
 * `trajectory/step-100`, …, `trajectory/step-1000`), the last run that holds a model other than its
 * base; within it, among the models other than the run's base ({@link guessBaseModel} within a run
 * folder of two or more models; otherwise every model less base-like than the folder's base), a model
 * without a training step (a final model) before the largest step ({@link trainingStep}); ties go to
 * the first listed. Models whose name says RL or a training step (an RL hint or a step) are preferred:
 * only when no run holds one is a model without such a mark (`X-Instruct` beside `X`) in focus. A folder
 * with no base (only seeds of one model, {@link guessBaseModel}): every model is a candidate.
 * Undefined when every model is a base.
 */
export function defaultFocusModel<M extends ModelIdentity & { id: number }>(models: readonly M[]): M | undefined {
  if (models.length === 0) return undefined;
  const scores = new Map(baseScores(models).map((sc, i) => [models[i].id, sc]));
  const score = (m: M) => scores.get(m.id) ?? 0;
  // undefined when the folder holds only seeds of one model (no base: trial 6 finding 2)
  const folderBase: M | undefined = models[guessBaseModel(models)];
  const runs = [...new Set(models.map(focusRun))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  runs.reverse();
  for (const needRl of [true, false]) {
    for (const run of runs) {
      const inRun = models.filter((m) => focusRun(m) === run);
      // A run folder of two or more models has its own base; otherwise (one model, or a run read from
      // model names) a model is a candidate unless it is as base-like as the folder's base.
      const fromNames = inRun[0].run === '' && run !== '';
      const ownBase = inRun.length >= 2 && !fromNames ? inRun[guessBaseModel(inRun)] : undefined;
      const candidates = (
        ownBase
          ? inRun.filter((m) => m.id !== ownBase.id)
          : inRun.filter((m) => !folderBase || (m.id !== folderBase.id && score(m) < score(folderBase)))
      ).filter((m) => !needRl || rlEvidence(m));
      if (candidates.length === 0) continue;
      const rank = (m: M) => trainingStep(m) ?? Number.POSITIVE_INFINITY;
      return candidates.reduce((best, m) => (rank(m) > rank(best) ? m : best));
    }
  }
  return undefined;
}
