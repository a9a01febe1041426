/**
 * Seed tokens in model and file names, and models that differ only by one: seed shards of one model that
 * were read as several models (trial 6 finding 2). Pure: no index writes, no `vscode`.
 */
import type { Diagnostic } from './model';
import type { ModelIdentity } from './index/labels';

/**
 * A seed token in a name (case-insensitive): `seed` with an optional `-`, `_` or `=` and a number (`seed0`,
 * `seed_1`, `SEED2`, Hydra's `seed=0` and `run_seed=0`: trial 7 finding 9; `run_seed12` -> `run`) as a whole word: at the start
 * or after `-`, `_` or `.`, and ending the name or followed by one of those (`samples_seed1`,
 * `samples.seed0`, `seed0`, `seed0_results`); or `s` and a number ending the name (`s0`, `samples-s0`,
 * `Qwen-PPO_s1`). A leading or inner `s<N>` is part of a model name (simplescaling's `s1-32B`, `s1.1-7B`:
 * trial 7 finding 8), no seed. A size (`7b`, `350M`), a run number (`run1`) or a step (`step-100`) is no seed.
 */
const SEED_TOKEN = /(?:^|[-_.])(?:(?:run[-_]seed=|seed[-_=]?)\d+(?=[-_.]|$)|s\d+$)/gi;

/** A name without its seed tokens ({@link SEED_TOKEN}): `samples_seed1` -> `samples`, `seed0` -> ``, `x_seed0_t1` -> `x_t1`, `x-s1` -> `x`; `s1-32B` stays. */
export function stripSeedTokens(name: string): string {
  return name.replace(SEED_TOKEN, '');
}

/**
 * The identity of a model with seed tokens taken out of every path segment of its run folders, name and
 * revision (lower case), or undefined when none of them holds a seed token (such a model is nobody's
 * seed sibling). Models with equal keys are {@link areSeedSiblings}.
 */
function seedKey(m: ModelIdentity): string | undefined {
  const unseed = (s: string) =>
    s
      .split('/')
      .map((seg) => stripSeedTokens(seg).toLowerCase())
      .join('/');
  const key = `${unseed(m.run)}\x1f${unseed(m.name)}\x1f${unseed(m.revision ?? '')}`;
  return key === `${m.run}\x1f${m.name}\x1f${m.revision ?? ''}`.toLowerCase() ? undefined : key;
}

/**
 * Whether two models differ only by seed tokens ({@link SEED_TOKEN}) in their run folders, names or
 * revisions (`seed0` and `seed1`, `qwen-s0` and `qwen-s1`, runs `base/seed0` and `base/seed1`): seeds of
 * one model, never each other's base (trial 6 finding 2). False for a model and itself (same identity) and
 * for models without a seed token (`qwen` and `qwen-s1`). Case-insensitive.
 */
export function areSeedSiblings(a: ModelIdentity, b: ModelIdentity): boolean {
  const k = seedKey(a);
  return (
    k !== undefined &&
    k === seedKey(b) &&
    `${a.run}\x1f${a.name}\x1f${a.revision ?? ''}` !== `${b.run}\x1f${b.name}\x1f${b.revision ?? ''}`
  );
}

/**
 * Groups of two or more models whose identities (run folders, name, revision) are equal once seed tokens
 * are taken out of every path segment, and that differ in them (`seed0` and `seed1`, `qwen-s0` and
 * `qwen-s1`, runs `seed0/` and `seed1/`): most likely seed shards of one model, read as different models.
 * They are never guessed as each other's base ({@link areSeedSiblings}). Sizes stay apart (`codegen-350M`,
 * `codegen-2B`; `llama-7b`, `llama-13b`). Returns the groups in the order of `models`, each in that order.
 */
export function seedSiblings<M extends ModelIdentity>(models: readonly M[]): M[][] {
  const groups = new Map<string, M[]>();
  for (const m of models) {
    const key = seedKey(m);
    // no seed token anywhere: in no group
    if (key === undefined) continue;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].filter((g) => g.length >= 2);
}

/**
 * The warning for one group of {@link seedSiblings}: names the models (`names`: display ids in the CLI report,
 * labels in the overview), says none is guessed as the base of another, and what to do.
 */
export function seedSiblingMessage(names: readonly string[]): string {
  return `${names.length} models differ only by a seed-like part of their names (${names.join(', ')}): seed siblings, probably seeds of one model, yet read and reported as different models; none is guessed as the base of another; to merge them give them one model name (a file name without the seed in one folder, fields.model in a mapping), or rename them if they are different models`;
}

/**
 * Problems-panel diagnostics for {@link seedSiblings} (warning): one per group, on a file of its first
 * model (`fileOf`; a group whose models have no file is left out).
 */
export function seedSiblingDiagnostics<M extends ModelIdentity & { id: number; displayId: string }>(
  models: readonly M[],
  fileOf: (modelId: number) => string | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const g of seedSiblings(models)) {
    const file = g.map((m) => fileOf(m.id)).find((f) => f !== undefined);
    if (file !== undefined)
      out.push({ file, line: 0, severity: 'warning', message: seedSiblingMessage(g.map((m) => m.displayId)) });
  }
  return out;
}
