/**
 * Seed tokens in model and file names, and models that differ only by one: seed shards of one model that
 * were read as several models (trial 6 finding 2). Pure: no index writes, no `vscode`.
 */
import type { Diagnostic, ModelIdentity } from '../model';
import { isJobFolder, REPLICATE_WORDS } from './nameTokens';

/**
 * A seed token in a name (case-insensitive): `seed` with an optional `-`, `_` or `=` and a number (`seed0`,
 * `seed_1`, `SEED2`, `seed1234`, Hydra's `seed=0` and `run_seed=0`: trial 7 finding 9; `run_seed12` -> `run`) as a
 * whole word: at the start or after `-`, `_`, `.` or `,`, and ending the name or followed by one of those
 * (Hydra's override folders join overrides with `,`: `seed=0,temperature=0.6`; trial 8 finding 3)
 * (`samples_seed1`, `samples.seed0`, `seed0`, `seed0_results`); or `s` and a number of one or two digits ending
 * the name (`s0`, `samples-s0`, `Qwen-PPO_s1`, `s42`); or `run` and a number of one or two digits as a whole word
 * (`_run1`, `run-2/`, `run2`: repeated runs of one model are seeds; trial 8 finding 7; `run_20250116` is a date), and so
 * are the other words of a replicate (nameTokens.ts `REPLICATE_WORDS`: `rep0`, `replicate_2`, `repeat1`, `trial-3`,
 * Lightning's `version_0/`; trial 9 finding 12).
 * A leading or inner `s<N>` is part of a model name
 * (simplescaling's `s1-32B`, `s1.1-7B`: trial 7 finding 8), no seed. A size (`7b`, `350M`)
 * or a step (`step-100`) is no seed, and neither is `s` with three or more digits (`_s500`, `_s1000`: a training
 * step written short; trial 7 finding 6): such files stay separate models, and {@link shortStepGroups} names
 * them in a warning.
 */
const SEED_TOKEN = new RegExp(
  `(?:^|[-_.,])(?:(?:run[-_]seed=|seed[-_=]?)\\d+(?=[-_.,]|$)|(?:${REPLICATE_WORDS.join('|')})[-_]?\\d{1,2}(?=[-_.,]|$)|s\\d{1,2}$)`,
  'gi',
);

/** `s` and a number of any length as a whole word ({@link SEED_TOKEN}'s short form without the digit limit). */
const S_NUMBER = /(?:^|[-_.])s(\d+)(?=[-_.]|$)/gi;

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
  const k = unseededKey(m);
  return k.seeded ? k.key : undefined;
}

/**
 * The identity of a model with seed tokens and Hydra job folders (nameTokens.ts `isJobFolder`: `.../10-20-30/0`)
 * taken out of every path segment of its run folders, name and revision (lower case), and whether any was there.
 */
function unseededKey(m: ModelIdentity): { key: string; seeded: boolean } {
  const unseed = (s: string) => {
    const segs = s.split('/');
    return segs.map((seg, i) => (isJobFolder(segs, i) ? '' : stripSeedTokens(seg).toLowerCase())).join('/');
  };
  const key = `${unseed(m.run)}\x1f${unseed(m.name)}\x1f${unseed(m.revision ?? '')}`;
  return { key, seeded: key !== `${m.run}\x1f${m.name}\x1f${m.revision ?? ''}`.toLowerCase() };
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
 * `qwen-s1`, runs `seed0/` and `seed1/`, Hydra job folders `multirun/<date>/<time>/0/` and `.../1/`): most likely
 * seed shards of one model, read as different models. A model without a seed token whose identity equals theirs
 * once theirs are out (`Qwen2.5-7B-GRPO/` beside `Qwen2.5-7B-GRPO-s1/` and `Qwen2.5-7B-GRPO_seed2/`) is in the
 * group too (trial 8 finding 11); it is still no seed sibling for the base guess ({@link areSeedSiblings}).
 * They are never guessed as each other's base ({@link areSeedSiblings}). Sizes stay apart (`codegen-350M`,
 * `codegen-2B`; `llama-7b`, `llama-13b`). Returns the groups in the order of `models`, each in that order.
 */
export function seedSiblings<M extends ModelIdentity>(models: readonly M[]): M[][] {
  const groups = new Map<string, { models: M[]; seeded: boolean }>();
  for (const m of models) {
    const { key, seeded } = unseededKey(m);
    const g = groups.get(key) ?? { models: [], seeded: false };
    g.models.push(m);
    if (seeded) g.seeded = true;
    groups.set(key, g);
  }
  // a group of models without any seed token is no group of seeds (one model read twice is told elsewhere)
  return [...groups.values()].filter((g) => g.models.length >= 2 && g.seeded).map((g) => g.models);
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
 * model (`fileOf`; a group whose models have no file is left out). `name` names the models: the extension gives
 * the tree's short names (trial 12 finding 22: the Problems panel said `run:name@revision` ids); the display id
 * by default.
 */
export function seedSiblingDiagnostics<M extends ModelIdentity & { id: number; displayId: string }>(
  models: readonly M[],
  fileOf: (modelId: number) => string | undefined,
  name: (m: M) => string = (m) => m.displayId,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const g of seedSiblings(models)) {
    const file = g.map((m) => fileOf(m.id)).find((f) => f !== undefined);
    if (file !== undefined) out.push({ file, line: 0, severity: 'warning', message: seedSiblingMessage(g.map(name)) });
  }
  return out;
}

/**
 * Groups of two or more models whose identities (run folders, name, revision; lower case) are equal once
 * every `s<number>` word of any length is taken out, and at least one of which holds `s` with three or
 * more digits (`GRPO_s500`, `GRPO_s1000`; `GRPO_s50` beside `GRPO_s100`, where `s50` was read as a seed
 * and the model is `GRPO`): training steps written short, or seeds; ambiguous, so they are kept as
 * separate models ({@link SEED_TOKEN} takes only one or two digits as a seed) and the report warns
 * ({@link shortStepMessage}; trial 7 finding 6). Each group lists the models in the order of `models`,
 * with the numbers found in their names (ascending).
 */
export function shortStepGroups<M extends ModelIdentity>(models: readonly M[]): { models: M[]; numbers: number[] }[] {
  const groups = new Map<string, { models: M[]; numbers: Set<number>; long: boolean }>();
  for (const m of models) {
    const parts = [m.run, m.name, m.revision ?? ''];
    const numbers: number[] = [];
    let long = false;
    for (const p of parts)
      for (const x of p.matchAll(S_NUMBER)) {
        numbers.push(Number(x[1]));
        // three or more digits written (`s0500` too)
        if (x[1].length >= 3) long = true;
      }
    const key = parts
      .map((p) =>
        p
          .split('/')
          .map((seg) => seg.replace(S_NUMBER, '').toLowerCase())
          .join('/'),
      )
      .join('\x1f');
    const g = groups.get(key) ?? { models: [], numbers: new Set<number>(), long: false };
    g.models.push(m);
    for (const n of numbers) g.numbers.add(n);
    if (long) g.long = true;
    groups.set(key, g);
  }
  return [...groups.values()]
    .filter((g) => g.models.length >= 2 && g.long)
    .map((g) => ({ models: g.models, numbers: [...g.numbers].sort((a, b) => a - b) }));
}

/** The warning for one group of {@link shortStepGroups}: names the models (display ids or labels) and the numbers. */
export function shortStepMessage(names: readonly string[], numbers: readonly number[]): string {
  return `${names.length} models differ only by "s" and a number (${names.join(', ')}; s${numbers.join(', s')}): "s" with three or more digits reads as a training step written short, not a seed (one or two digits, as in _s0 and _s1, read as a seed and taken out of the name), so they are kept as separate models and not pooled; if they are seeds of one model, name them seed<N> (seed0, seed1); if they are checkpoints, step_<N> lets the training section read the steps`;
}
