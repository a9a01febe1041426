import type Database from 'better-sqlite3';

/** A model's identity parts, as stored. */
export interface ModelIdentity {
  run: string;
  name: string;
  revision: string | null;
}

/**
 * Short labels for models: `name@revision`, plus ` (run)` when several runs hold a model of the
 * same name (so `sft@ckpt (trajectory/step-100)` and `sft@ckpt (results_2048_batched)` differ).
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
  return models.map((m) => {
    const base = m.revision ? `${m.name}@${m.revision}` : m.name;
    return (runsByName.get(m.name)?.size ?? 0) > 1 ? `${base} (${m.run || '.'})` : base;
  });
}

/** Recomputes and stores every model's label (see {@link modelLabels}). */
export function refreshModelLabels(db: Database.Database): void {
  const rows = db.prepare('SELECT id, run, name, revision FROM models ORDER BY id').all() as (ModelIdentity & {
    id: number;
  })[];
  const labels = modelLabels(rows);
  const update = db.prepare('UPDATE models SET label = ? WHERE id = ?');
  for (const [i, r] of rows.entries()) update.run(labels[i], r.id);
}

const BASE_HINTS: [RegExp, number][] = [
  [/(^|[^a-z])base([^a-z]|$)/i, 4],
  [/(^|[^a-z])(sft|ref|reference|init|pretrained)([^a-z]|$)/i, 3],
  [/instruct/i, 1],
];
const RL_HINTS: [RegExp, number][] = [
  [/(^|[^a-z])(rl|rlvr|ppo|grpo|dpo|dapo|rloo|reinforce|zero|simplerl)([^a-z]|$)/i, 4],
  [/(^|[^a-z])(step|global_step|ckpt)[-_]?\d+/i, 2],
];

/**
 * Guesses the base model among `models` from names and structure: names with `base`, `sft`,
 * `ref`... score up, names with `rl`, `ppo`, `grpo`, `dpo`, `zero` or a training step score down.
 * Ties go to the model listed first (callers list models by run, then name). Returns the index of
 * the guess in `models`, or -1 when the list is empty. A guess only: the user can change it.
 */
export function guessBaseModel(models: readonly ModelIdentity[]): number {
  let best = -1;
  let bestScore = -Infinity;
  models.forEach((m, i) => {
    const text = `${m.name} ${m.revision ?? ''}`;
    let score = 0;
    for (const [re, w] of BASE_HINTS) if (re.test(text)) score += w;
    for (const [re, w] of RL_HINTS) if (re.test(text)) score -= w;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
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
 *   single-model runs against `base`.
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
    const runBase = inRun.length >= 2 ? inRun[guessBaseModel(inRun)] : base;
    for (const m of inRun) if (m.id !== runBase.id) out.push([runBase, m]);
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
 * `sft`), the revision (`ppo@main`), and, when several runs hold a model of that name, the shortest
 * distinguishing end of the run folder, at least two words (`ppo@main · 2048_batched` for run
 * `results_2048_batched`, `ppo@step-100 · step-100` for `trajectory/step-100`). Two models whose
 * names share the last segment keep their whole name. The full id stays in tooltips. Returns labels in
 * the order of `models`; every label is unique when the models' display ids are.
 */
export function distinctiveLabels(models: readonly ModelIdentity[]): string[] {
  const lastOf = (name: string) => name.split('/').pop() || name;
  const names = [...new Set(models.map((m) => m.name))];
  const lasts = names.map(lastOf);
  // One model name: nothing to tell apart, so its whole last segment.
  const shortName = names.length > 1 ? shortestUniqueSuffix(lasts, 1) : new Map(lasts.map((l) => [l, l]));
  const runsByName = new Map<string, Set<string>>();
  for (const m of models) runsByName.set(m.name, (runsByName.get(m.name) ?? new Set()).add(m.run));
  const shortRun = shortestUniqueSuffix(
    models.map((m) => m.run || '.'),
    2,
  );
  const labels = models.map((m) => {
    const last = lastOf(m.name);
    const sameLast = names.filter((n) => lastOf(n) === last).length > 1;
    const name = sameLast ? m.name : (shortName.get(last) ?? last);
    const withRev = m.revision ? `${name}@${m.revision}` : name;
    return (runsByName.get(m.name)?.size ?? 0) > 1 ? `${withRev} · ${shortRun.get(m.run || '.')}` : withRev;
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
