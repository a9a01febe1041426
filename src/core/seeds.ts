/**
 * Seed tokens in model and file names, and models that differ only by one: seed shards of one model that
 * were read as several models (trial 6 finding 2). Pure: no index writes, no `vscode`.
 */
import type { Diagnostic } from './model';
import type { ModelIdentity } from './index/labels';

/**
 * A seed token in a name (case-insensitive): `seed` with an optional `-`/`_` and a number (`seed0`,
 * `seed_1`, `SEED2`), or `s` and a number (`s0`, `s1`), as a whole word: at the start or after `-`, `_`
 * or `.`, and ending the name or followed by one of those (`samples-s0`, `samples_seed1`, `samples.seed0`,
 * `seed0`, `seed0_results`). A size (`7b`, `350M`), a run number (`run1`) or a step (`step-100`) is no seed.
 */
const SEED_TOKEN = /(?:^|[-_.])(?:seed[-_]?\d+|s\d+)(?=[-_.]|$)/gi;

/** A name without its seed tokens ({@link SEED_TOKEN}): `samples_seed1` -> `samples`, `seed0` -> ``, `x-s0_t1` -> `x_t1`. */
export function stripSeedTokens(name: string): string {
  return name.replace(SEED_TOKEN, '');
}

/**
 * Groups of two or more models whose identities (run folders, name, revision) are equal once seed tokens
 * are taken out of every path segment, and that differ in them (`seed0` and `seed1`, `qwen-s0` and
 * `qwen-s1`, runs `seed0/` and `seed1/`): most likely seed shards of one model, read as different models
 * (one of them may even be guessed as the base of the other). Sizes stay apart (`codegen-350M`,
 * `codegen-2B`; `llama-7b`, `llama-13b`). Returns the groups in the order of `models`, each in that order.
 */
export function seedSiblings<M extends ModelIdentity>(models: readonly M[]): M[][] {
  const unseed = (s: string) =>
    s
      .split('/')
      .map((seg) => stripSeedTokens(seg).toLowerCase())
      .join('/');
  const groups = new Map<string, M[]>();
  for (const m of models) {
    const key = `${unseed(m.run)}\x1f${unseed(m.name)}\x1f${unseed(m.revision ?? '')}`;
    // no seed token anywhere: in no group
    if (key === `${m.run}\x1f${m.name}\x1f${m.revision ?? ''}`.toLowerCase()) continue;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].filter((g) => g.length >= 2);
}

/**
 * The warning for one group of {@link seedSiblings}: names the models (by `display`) and says what to do.
 */
export function seedSiblingMessage(names: readonly string[]): string {
  return `${names.length} models differ only by a seed-like part of their names (${names.join(', ')}): probably seed shards of one model, yet read, reported and compared as different models (one may be guessed as the base of another); to merge them give them one model name (a file name without the seed in one folder, fields.model in a mapping), or rename them if they are different models`;
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
