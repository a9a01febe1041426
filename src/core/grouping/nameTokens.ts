/**
 * The name vocabulary of the model-naming rules, in one place: the readers (readers/util.ts `pathModelName`), seeds
 * (seeds.ts), checkpoint series (series.ts), labels, the base guess and the comparisons (index/labels.ts) read it.
 * Dates and times, Hydra multirun job folders, run-output and checkpoint folders, base / RL / step words and model
 * families. Pure; no imports.
 */

/**
 * A date or time in a name, with the separator before it (global): `_2025-01-01`, `-2025-01-15T10-20-30.123456`,
 * `10-20-30` (Hydra's `outputs/2025-01-15/10-20-30`), `20250115`, `_20250116_110000`, `2025_01_15-10_20_30`, and
 * TensorBoard's `Jan15_10-20-30` (trial 8 finding 8). Such a stamp names a run's time, not a model.
 */
export const DATE_TIME_TOKEN =
  /(?:^|[-_.])(?:\d{4}-\d{2}-\d{2}(?:[T_]\d{2}[-:]\d{2}(?:[-:]\d{2}(?:\.\d+)?)?)?|\d{2}[-:]\d{2}[-:]\d{2}(?:\.\d+)?|20\d{6}(?:[-_T]\d{6})?|\d{4}_\d{2}_\d{2}(?:[-_T]\d{2}_\d{2}_\d{2})?|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\d{1,2}_\d{2}-\d{2}-\d{2})(?=[-_.]|$)/g;

/** Whether a whole folder name is a date or time ({@link DATE_TIME_TOKEN}: `2025-01-15`, `10-20-30`). */
export function isDateTimeName(name: string): boolean {
  return name !== '' && name.replace(DATE_TIME_TOKEN, '') === '';
}

/**
 * Whether folder `i` of a path's folders is a Hydra multirun job folder: a number right below a date or time folder
 * (`multirun/2025-01-15/10-20-30/0/`; trial 8 finding 6). Jobs of one sweep are runs of one model (seeds or
 * settings), like seed folders: no model of their own.
 */
export function isJobFolder(dirs: readonly string[], i: number): boolean {
  return i > 0 && /^\d+$/.test(dirs[i]) && isDateTimeName(dirs[i - 1]);
}

/**
 * The folder and name vocabulary of the naming rules, each word once (lower case). The readers (readers/util.ts:
 * which folder names a model, which stem names none), the labels and the base guess (index/labels.ts) and the
 * comparisons (index/labels.ts `counterpartBase`) all read these lists; a word added here counts everywhere.
 */

/**
 * Folders a run writes its outputs to (trial 8 findings 6 and 8, trial 9 findings 10 and 13): Hydra's `outputs/` and
 * `multirun/`, `output/`, `out/`, `log/`, `logs/`; TensorBoard's `runs/` and `tensorboard/`, PyTorch Lightning's
 * `lightning_logs/` and `tb_logs/`, wandb's `wandb/` and a wandb run's `files/`, MLflow's `mlruns/` (and a tracking server's `mlartifacts/`). They name no
 * model, no dataset and no config: the model is the folder above them, and two runs that differ only by them
 * evaluated the same thing.
 */
export const RUN_OUTPUT_WORDS: readonly string[] = [
  'output',
  'outputs',
  'multirun',
  'out',
  'log',
  'logs',
  'runs',
  'tensorboard',
  'lightning_logs',
  'tb_logs',
  'wandb',
  'files',
  'mlruns',
  'mlartifacts',
];

/**
 * A wandb run folder (`wandb/run-20250115_102030-abc123/`, `offline-run-...`, `latest-run`; trial 9 finding 13): a
 * run's time and id, no model.
 */
const WANDB_RUN_FOLDER = /^(?:(?:offline-)?run-\d{8}_\d{6}-[a-z0-9]+|latest-run)$/i;

/** MLflow's run store (`mlruns/`, a tracking server's `mlartifacts/`): `<experiment id>/<run id>/artifacts/` below it. */
const MLFLOW_STORE = /^(?:mlruns|mlartifacts)$/i;
/** MLflow's folders of one run (`mlruns/<experiment id>/<run id>/artifacts/`, `metrics/`, `params/`, `tags/`). */
const MLFLOW_RUN_PARTS = /^(?:artifacts|metrics|params|tags)$/i;
/** TensorBoard / Lightning log roots, whose `events/` and `plugins/` folders hold logs, not models. */
const TENSORBOARD_ROOT = /^(?:tensorboard|tb_logs|lightning_logs|runs)$/i;

/**
 * Whether folder `i` of a path's folders is a logging tool's own folder BELOW its logging folder (trial 12 finding
 * 4), so it names no model and the model is the folder above the logging folder:
 * - MLflow: `mlruns/<experiment id>/<run id>/artifacts/` (`mlruns/0/3f2a9c1e8b7d4e6f/artifacts/`,
 *   `mlruns/12/abc123/`): the experiment id (a number), any run id below it, and the run's `artifacts/`,
 *   `metrics/`, `params/`, `tags/`; also under a tracking server's `mlartifacts/`;
 * - wandb: `media/` below a `wandb/` folder or a wandb run folder, and the folder right below it
 *   (`wandb/run-<time>-<id>/files/media/table/`);
 * - TensorBoard: `events/` and `plugins/` below `tensorboard/`, `tb_logs/`, `lightning_logs/` or `runs/`.
 * The logging folders themselves are {@link isRunOutputFolder}. False for `i` out of range. Pure.
 */
export function isLoggingToolFolder(dirs: readonly string[], i: number): boolean {
  const d = dirs[i];
  if (d === undefined || i === 0) return false;
  // MLflow: the experiment id must be a number, so `mlruns/Qwen2.5-7B-GRPO/` still names a model
  for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
    if (!MLFLOW_STORE.test(dirs[j]) || !/^\d+$/.test(dirs[j + 1])) continue;
    if (i - j <= 2 || MLFLOW_RUN_PARTS.test(d)) return true;
  }
  const above = dirs.slice(0, i);
  if (/^media$/i.test(d) && above.some((x) => /^wandb$/i.test(x) || WANDB_RUN_FOLDER.test(x))) return true;
  if (/^media$/i.test(dirs[i - 1]) && isLoggingToolFolder(dirs, i - 1)) return true;
  return /^(?:events|plugins)$/i.test(d) && above.some((x) => TENSORBOARD_ROOT.test(x));
}

/**
 * Folders between a model folder and its checkpoints (step folders) that name nothing of their own: `ckpt/`,
 * `checkpoints/`, `models/`, `saved/` (`Qwen2.5-7B-PPO/ckpt/global_step100_hf` is a checkpoint of `Qwen2.5-7B-PPO`).
 */
export const CHECKPOINT_HOLDER_WORDS: readonly string[] = [
  'ckpt',
  'ckpts',
  'checkpoint',
  'checkpoints',
  'model',
  'models',
  'saved',
  'save',
];

/** Whether a whole folder name is a run-output folder ({@link RUN_OUTPUT_WORDS}, a wandb run folder; any case). */
export function isRunOutputFolder(name: string): boolean {
  return RUN_OUTPUT_WORDS.includes(name.toLowerCase()) || WANDB_RUN_FOLDER.test(name);
}

/**
 * Whether a whole folder name holds checkpoints or run outputs and names nothing between a model folder and its
 * step folders ({@link CHECKPOINT_HOLDER_WORDS}, {@link RUN_OUTPUT_WORDS}; any case).
 */
export function isCheckpointHolderFolder(name: string): boolean {
  return CHECKPOINT_HOLDER_WORDS.includes(name.toLowerCase()) || isRunOutputFolder(name);
}

/**
 * Words of a repeated run of one model before its number (trial 8 finding 7, trial 9 finding 12): `run1`, `run-2/`,
 * `rep0`, `replicate_2`, `repeat1`, `trial-3`, PyTorch Lightning's `version_0/`. Such a number is a seed or replicate
 * (seeds.ts `SEED_TOKEN`, one or two digits), never the model's name.
 */
export const REPLICATE_WORDS: readonly string[] = ['run', 'rep', 'replicate', 'repeat', 'trial', 'version'];

/** Words that name a model as a base: `base` (the strongest), then the start of RL training (`sft`, `ref`, ...). */
export const BASE_WORD = 'base';
/** Words that name a model as the start of RL training: an SFT or reference model, a pretrained or initial one. */
export const START_WORDS: readonly string[] = ['sft', 'ref', 'reference', 'init', 'pretrained'];
/** Words of a released post-trained variant of a pretrained model (`X-Instruct`, `X-Chat`). */
export const VARIANT_WORDS: readonly string[] = ['instruct', 'chat'];
/** Words that name a model as RL-trained (RL methods and RL-zero runs). */
export const RL_WORDS: readonly string[] = [
  'rl',
  'rlvr',
  'ppo',
  'grpo',
  'dpo',
  'dapo',
  'rloo',
  'reinforce',
  'zero',
  'simplerl',
];
/** Words of a training step or checkpoint in a name (before its number: `global_step_100`, `checkpoint-500`). */
export const STEP_WORDS: readonly string[] = [
  'global_step',
  'globalstep',
  'step',
  'ckpt',
  'checkpoint',
  'iter',
  'epoch',
];

/** A regexp alternation of words (no regexp characters in them). */
const alt = (ws: readonly string[]) => ws.join('|');

/** One of `words` as a whole word of a name: not inside a longer run of letters (`sft` of `gsm8k-sft`, not of `sfts`). */
export function wordPattern(words: readonly string[], flags = 'i'): RegExp {
  return new RegExp(`(?:^|[^a-z])(?:${alt(words)})(?:[^a-z]|$)`, flags);
}

/**
 * A base or RL word, a step or a checkpoint in a folder name ({@link BASE_WORD}, {@link START_WORDS},
 * {@link VARIANT_WORDS}, {@link RL_WORDS}, {@link STEP_WORDS}): the folder names a model or checkpoint, whatever
 * its layout.
 */
export const MODEL_FOLDER_WORD = wordPattern([BASE_WORD, ...START_WORDS, ...VARIANT_WORDS, ...RL_WORDS, ...STEP_WORDS]);

/** Model families whose name in a folder says the folder names a model (`Qwen2.5`, `llama`, `deepseek`). */
export const MODEL_FAMILIES: readonly string[] = [
  'qwen',
  'qwq',
  'llama',
  'codellama',
  'mistral',
  'mixtral',
  'deepseek',
  'gemma',
  'phi',
  'gpt',
  'olmo',
  'falcon',
  'internlm',
  'baichuan',
  'chatglm',
  'glm',
  'starcoder',
  'pythia',
  'bloom',
  'tulu',
  'vicuna',
  'claude',
  'gemini',
  'granite',
  'nemotron',
  'smollm',
];

/**
 * A model's size (`7B`, `1.5b`, `350M`) or a model family ({@link MODEL_FAMILIES}) in a folder name: the folder names
 * a model. `bench_a/Qwen2.5-7B/` beside `bench_b/Qwen2.5-7B/` is one model evaluated on two benchmarks, not a dataset
 * named `Qwen2.5-7B` (found after trial 8: the layout rule took the base for a dataset).
 */
export const MODEL_NAME_HINT = new RegExp(
  `(?:^|[^a-z0-9.])\\d+(?:\\.\\d+)?[bm](?![a-z])|(?:^|[^a-z])(?:${alt(MODEL_FAMILIES)})(?![a-z])`,
  'i',
);
