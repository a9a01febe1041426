/**
 * Checkpoint series: models that are checkpoints of one training run (the same model at `step-100`,
 * `step-300`, ...), recognised from a step token in the model's revision, name or run folder, and
 * ordered by step number. Pure: no index, no `vscode`.
 *
 * A *step token* is a match of the step pattern ({@link DEFAULT_STEP_PATTERN}, overridable by the
 * `traceInspector.stepPattern` setting and the CLI's `--step-pattern`). Two models belong to one series
 * when their (run, name, revision) are equal once every step token's number is replaced by `*`:
 * `trajectory/step-100:expx/ppo@step-100` and `trajectory/step-300:expx/ppo@step-300` are both
 * `trajectory/step-*:expx/ppo@step-*`. A series needs two or more models with distinct steps.
 *
 * Epochs: a model whose identity has no step token but an *epoch token* ({@link DEFAULT_EPOCH_PATTERN}:
 * `epoch_3`, `epoch-3`, `epoch=3`, `epochs3`, `ep3`) is a checkpoint too, with the epoch as its number and
 * `unit: 'epoch'`. A step token wins over an epoch token in the same field (Lightning's
 * `epoch=2-step=1000` is step 1000). Epochs and steps are never put on one axis: a series holds one unit,
 * and a group whose models mix them keeps the larger part and a warning names the rest.
 *
 * Models that differ only in a number but are in no series (`ck100`, `ck200`: no step word the pattern
 * knows) are named in a warning ({@link unrecognisedCheckpoints}) instead of being silently left out.
 */
import { seedSiblings } from './seeds';
import { modelDisplayId } from '../index/traceIndex';
import type { ModelIdentity } from '../index/labels';

/**
 * The built-in step pattern (case-insensitive): a step word followed by an optional `-`, `_`, `=` or
 * `.` and a number, the number ending the token: `step-100`, `step_100`, `steps100`, `checkpoint-500`,
 * `global_step_300`, `global_step300`, `iter_0001000`, `iteration-20`, `ckpt-2k`, `ckpt_1.5k`. A number may
 * end in `k` (x1000) or `m` (x1,000,000). The word must not follow a letter or digit (`mystep-3` is no step).
 */
export const DEFAULT_STEP_PATTERN =
  '(?<![a-z0-9])(?:global[_-]?step|steps?|checkpoint|ckpt|iter(?:ation)?)[-_=.]?(\\d+(?:\\.\\d+[km]|[km])?)(?![a-z0-9])';

/**
 * The built-in epoch pattern (case-insensitive): `epoch` / `epochs` / `ep`, an optional `-`, `_`, `=` or
 * `.`, and a whole number ending the token: `epoch_3`, `epoch-3`, `epoch=3`, `Epoch3`, `ep3`, `ep_03`.
 * Used after the step pattern finds nothing in a field (see the module comment).
 */
export const DEFAULT_EPOCH_PATTERN = '(?<![a-z0-9])(?:epochs?|ep)[-_=.]?(\\d+)(?![a-z0-9])';

const EPOCH_RE = new RegExp(DEFAULT_EPOCH_PATTERN, 'gid');

/**
 * Compiles a step pattern (a JavaScript regular expression source, matched case-insensitively). The
 * step number is the pattern's first capture group, or the first run of digits in the match when the
 * pattern has no group. Empty or undefined: {@link DEFAULT_STEP_PATTERN}.
 * @throws Error naming the pattern when it is not a valid regular expression.
 */
export function compileStepPattern(pattern?: string | null): RegExp {
  const src = pattern?.trim() ? pattern.trim() : DEFAULT_STEP_PATTERN;
  try {
    return new RegExp(src, 'gid');
  } catch (e) {
    throw new Error(`invalid step pattern "${src}": ${(e as Error).message}`);
  }
}

/**
 * The number of a step token: digits with leading zeros (`0001000` = 1000), optionally a decimal part
 * and a `k` (x1000) or `m` (x1,000,000) suffix (`2k` = 2000, `1.5k` = 1500). Returns null for anything
 * else, or a result that is not a finite non-negative integer (`1.2345k`).
 */
export function parseStepNumber(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!m) return null;
  const scale = m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1_000 : 1_000_000;
  const v = Number(m[1]) * scale;
  // 1.5k is 1500 exactly; round away binary noise (0.1 * 3 style) before checking it is a whole number
  const r = Math.round(v);
  return Number.isFinite(v) && Math.abs(v - r) < 1e-9 && r >= 0 && Number.isSafeInteger(r) ? r : null;
}

/** What a checkpoint's number counts: optimizer steps (iterations) or epochs. */
export type StepUnit = 'step' | 'epoch';

/** Where a model's step was found. */
export interface StepMatch {
  /** The step (or epoch, see `unit`) number. */
  step: number;
  /** `step` (a step token) or `epoch` (an epoch token, {@link DEFAULT_EPOCH_PATTERN}). */
  unit: StepUnit;
  /** Which part of the model's identity held the step token (revision first, then name, then run). */
  field: 'revision' | 'name' | 'run';
  /** The matched token, e.g. `global_step_300`. */
  token: string;
}

/** One match of `re` in `text` with the span of its number (the first group, else the first digits). */
function* tokens(text: string, re: RegExp): Generator<{ token: string; start: number; end: number; number: string }> {
  re.lastIndex = 0;
  for (const m of text.matchAll(re)) {
    if (m[0] === '') continue;
    const at = m.index ?? 0;
    const group = m.indices?.[1];
    if (group && m[1] !== undefined) {
      yield { token: m[0], start: group[0], end: group[1], number: m[1] };
      continue;
    }
    const d = /\d+/.exec(m[0]);
    if (d) yield { token: m[0], start: at + d.index, end: at + d.index + d[0].length, number: d[0] };
  }
}

/**
 * The step of a model: the first step token (of `re`, see {@link compileStepPattern}) whose number
 * parses ({@link parseStepNumber}), looked for in the revision, then the name, then the run folder; in
 * each field, when it holds no step token, the first epoch token ({@link DEFAULT_EPOCH_PATTERN}) with
 * `unit: 'epoch'`. Null when none of the three holds either.
 */
export function stepOf(m: ModelIdentity, re: RegExp = compileStepPattern()): StepMatch | null {
  const fields: [StepMatch['field'], string | null][] = [
    ['revision', m.revision],
    ['name', m.name],
    ['run', m.run],
  ];
  for (const [field, text] of fields) {
    if (!text) continue;
    for (const [unit, r] of [
      ['step', re],
      ['epoch', EPOCH_RE],
    ] as const)
      for (const t of tokens(text, r)) {
        const step = parseStepNumber(t.number);
        if (step !== null) return { step, unit, field, token: t.token };
      }
  }
  return null;
}

/**
 * `text` with the number of every step token and every epoch token replaced by `*`
 * (`trajectory/step-100` -> `trajectory/step-*`, `run/epoch_3` -> `run/epoch_*`).
 */
export function maskSteps(text: string, re: RegExp): string {
  let out = '';
  let last = 0;
  const all = [...tokens(text, re), ...tokens(text, EPOCH_RE)].sort((a, b) => a.start - b.start);
  for (const t of all) {
    if (t.start < last) continue;
    out += `${text.slice(last, t.start)}*`;
    last = t.end;
  }
  return out + text.slice(last);
}

/** A checkpoint series: models of one run, one per step, in ascending step order. */
export interface ModelSeries<M> {
  /** Display id of the masked identity, e.g. `trajectory/step-*:expx/qwen-2.5-1.5b-rlvr-ppo@step-*`. */
  name: string;
  /** What the steps' numbers count (one unit per series: epochs and steps are never mixed). */
  unit: StepUnit;
  steps: { step: number; model: M; match: StepMatch }[];
}

/** Options of {@link detectSeries}. */
export interface SeriesOptions {
  /** Step pattern (regular expression source); empty or absent: {@link DEFAULT_STEP_PATTERN}. */
  pattern?: string | null;
  /** Model ids that are never steps (the base models the steps are compared with). */
  exclude?: ReadonlySet<number>;
}

/**
 * Groups models into checkpoint series (see the module comment). Models listed in `exclude` (bases),
 * models without a step token and groups with fewer than two distinct steps are not in any series.
 * Within a group, a step held by two or more models is ambiguous: those models are left out of the
 * series and a warning names them (the series stays when two or more distinct steps remain). A group
 * whose models mix epochs and steps keeps the unit most of them have (steps on a tie) and a warning
 * names the others. Models in no series that look like checkpoints ({@link unrecognisedCheckpoints})
 * are named in a warning.
 *
 * @returns the series sorted by name (natural order), steps ascending, and warnings.
 * @throws Error on an invalid pattern (see {@link compileStepPattern}).
 */
export function detectSeries<M extends ModelIdentity & { id: number }>(
  models: readonly M[],
  opts: SeriesOptions = {},
): { series: ModelSeries<M>[]; warnings: string[] } {
  const re = compileStepPattern(opts.pattern);
  type Member = { step: number; model: M; match: StepMatch };
  const groups = new Map<string, { name: string; members: Member[] }>();
  for (const m of models) {
    if (opts.exclude?.has(m.id)) continue;
    const match = stepOf(m, re);
    if (!match) continue;
    const run = maskSteps(m.run, re);
    const name = maskSteps(m.name, re);
    const revision = m.revision ? maskSteps(m.revision, re) : null;
    const key = `${run}\x1f${name}\x1f${revision ?? ''}`;
    const g = groups.get(key) ?? { name: modelDisplayId(run, name, revision), members: [] };
    g.members.push({ step: match.step, model: m, match });
    groups.set(key, g);
  }
  const series: ModelSeries<M>[] = [];
  const warnings: string[] = [];
  const display = (x: Member) => modelDisplayId(x.model.run, x.model.name, x.model.revision);
  for (const g of groups.values()) {
    const epochs = g.members.filter((x) => x.match.unit === 'epoch');
    const unit: StepUnit = epochs.length > g.members.length - epochs.length ? 'epoch' : 'step';
    const kept = g.members.filter((x) => x.match.unit === unit);
    if (kept.length < g.members.length) {
      const other = g.members.filter((x) => x.match.unit !== unit);
      warnings.push(
        `series ${g.name}: ${other.length} model(s) are numbered by ${unit === 'step' ? 'epoch' : 'step'} (${other
          .map((x) => `${display(x)}: ${x.match.token}`)
          .join(
            ', ',
          )}) and ${kept.length} by ${unit}; epochs and steps are not put on one axis, so they are left out of the series`,
      );
    }
    const byStep = new Map<number, Member[]>();
    for (const x of kept) byStep.set(x.step, [...(byStep.get(x.step) ?? []), x]);
    const unique = [...byStep.values()].filter((l) => l.length === 1).map((l) => l[0]);
    if (unique.length < 2) continue;
    for (const [step, list] of byStep) {
      if (list.length > 1)
        warnings.push(
          `series ${g.name}: ${unit} ${step} is held by ${list.length} models (${list.map(display).join(', ')}); they are left out of the series`,
        );
    }
    series.push({ name: g.name, unit, steps: unique.sort((a, b) => a.step - b.step) });
  }
  const collator = new Intl.Collator('en', { numeric: true });
  series.sort((a, b) => collator.compare(a.name, b.name));
  const inSeries = new Set(series.flatMap((s) => s.steps.map((x) => x.model.id)));
  // seed siblings (seeds, Hydra jobs `.../10-20-30/0` and `/1`) are warned about as such, not as checkpoints
  const seeds = new Set(seedSiblings(models).flatMap((g) => g.map((m) => m.id)));
  const rest = models.filter((m) => !inSeries.has(m.id) && !opts.exclude?.has(m.id) && !seeds.has(m.id));
  for (const u of unrecognisedCheckpoints(rest, re))
    warnings.push(
      `${u.models.length} models differ only in a number (${u.models.join(', ')}) but are not read as checkpoints of one run: no step or epoch token in their names. If they are checkpoints, name them with a step or epoch token (step-N, checkpoint-N, global_step_N, iter_N, epoch_N, ...) or set traceInspector.stepPattern / --step-pattern`,
    );
  return { series, warnings };
}

/**
 * Number runs that may be a checkpoint number: not part of a longer word or number, not a size or a
 * scaled count (`7b`, `1.5b`, `2k` when no step word precedes it: followed by a letter), not a seed,
 * shard, fold, part, rank or split number (those name samples of one model, not checkpoints), nor the
 * number of a short seed token `s0` (`qwen-s0`, `s1_results`: seed siblings, warned about on their own;
 * trial 6 finding 2).
 */
const NUMBER_RE =
  /(?<![0-9.])(?<!(?:seed|shard|fold|part|rank|split|run)[-_=.]?)(?<!(?:^|[-_./])s)\d+(?![0-9.]*[a-z0-9])/gi;

/**
 * Models that look like checkpoints of one run but are in no series: two or more models without any
 * step or epoch token whose (run, name, revision) are equal once every free number ({@link NUMBER_RE}:
 * not a size like `7b`, not a seed or shard number) is replaced by `#` (`ck100`, `ck200`; `e1`, `e2`).
 * Sizes and families (`qwen2-7b` vs `qwen3-7b`) can match too; the warning says "if they are checkpoints".
 * @param models models already known to be in no series and not bases.
 * @returns each such group's display ids, in the order of `models`.
 */
export function unrecognisedCheckpoints<M extends ModelIdentity>(
  models: readonly M[],
  re: RegExp = compileStepPattern(),
): { models: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const m of models) {
    if (stepOf(m, re)) continue;
    const fields = [m.run, m.name, m.revision ?? ''];
    const masked = fields.map((f) => f.replace(NUMBER_RE, '#'));
    if (masked.every((f, i) => f === fields[i])) continue;
    const key = masked.join('\x1f');
    groups.set(key, [...(groups.get(key) ?? []), modelDisplayId(m.run, m.name, m.revision)]);
  }
  return [...groups.values()].filter((ids) => ids.length > 1).map((ids) => ({ models: ids }));
}
