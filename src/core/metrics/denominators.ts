/**
 * What every dataset figure is computed over. A model's problems are all the problems it has a record
 * of in the folder, with or without samples; a figure (pass@k, best-of-k, maj@k, per level, per
 * comparison) averages over the problems that can be evaluated, and every other problem of the model
 * is counted in `missing`, by reason. So `problems + missing` is always the model's number of
 * problems (of that level), and a value over fewer problems says so: `70.0 (5/6)`.
 *
 * Reasons (a problem counts under the first that applies):
 * - `noSamples`: its record has no samples (`code: []`, or every sample unreadable);
 * - `ungraded`: it has samples, none with a verdict (`score: null`, scores that are not verdicts);
 * - `noScore` (best-of-k): graded samples, but none with a reward score;
 * - `notInBase` (comparisons): the base model has no graded sample of it;
 * - `notInModel` (comparisons): the base model has a record of it, the model none. A comparison's
 *   whole is every problem either model has a record of, so a problem only the base has is counted too;
 * - `notInStep` (training steps): another checkpoint of the series has a record of it, this one none;
 * - `unscored` (reward models): some scorer lacks a score for one of its graded samples, so the scorers
 *   could not be compared on the same samples;
 * - `belowK`: fewer than k samples (pass@k: graded samples; maj@k: samples; best-of-k: samples with a
 *   reward score and a verdict). Never padded, never counted as failures (see metrics/passAtK.ts).
 * Pure; no `vscode` import.
 */
import type { StatRow } from '../index/traceIndex';
import type { ProblemCounts } from './';
import { plural } from '../text/strings';

/** Problems of a model left out of one figure, by reason (see the module comment). */
export interface LeftOut {
  noSamples: number;
  ungraded: number;
  belowK: number;
  noScore?: number;
  notInBase?: number;
  notInModel?: number;
  notInStep?: number;
  /** Reward models: graded samples, but some scorer lacks a score for one of them (not every scorer scored it). */
  unscored?: number;
}

/** A figure's denominator: `problems` entered the mean, `missing` did not (`leftOut` says why). */
export interface Denominator {
  problems: number;
  missing: number;
  leftOut: LeftOut;
}

/** A model's problems (or one level's) as the figures see them. */
export interface ProblemSet {
  /** Every problem of the model (the denominator's whole). */
  total: number;
  noSamples: number;
  ungraded: number;
  /** Per-problem counts of the problems with at least one graded sample (n = graded samples). */
  graded: ProblemCounts[];
  /** The stats rows of those problems, in the same order. */
  gradedRows: StatRow[];
}

/** Splits a model's stats rows into the problems a pass@k can use and those it cannot, by reason. */
export function problemSet(rows: readonly StatRow[]): ProblemSet {
  const out: ProblemSet = { total: rows.length, noSamples: 0, ungraded: 0, graded: [], gradedRows: [] };
  for (const r of rows) {
    if (r.n === 0) out.noSamples++;
    else if (r.graded === 0) out.ungraded++;
    else {
      out.graded.push({ n: r.graded, c: r.c });
      out.gradedRows.push(r);
    }
  }
  return out;
}

/**
 * The denominator of a point over `used` of the set's problems, where `belowK` of the graded ones
 * were left out for n < k and `extra` gives the other reasons (their counts are taken as given).
 */
export function denominator(
  set: Pick<ProblemSet, 'total' | 'noSamples' | 'ungraded'>,
  used: number,
  belowK: number,
  extra: Pick<LeftOut, 'noScore' | 'notInBase' | 'notInModel' | 'notInStep'> = {},
): Denominator {
  return {
    problems: used,
    missing: set.total - used,
    leftOut: { noSamples: set.noSamples, ungraded: set.ungraded, belowK, ...extra },
  };
}

/**
 * What a value is computed over, in words, for tooltips and notes: `over 5 of 6 problems: 1 has
 * n < 1024`; `over all 6 problems` when nothing is left out. `k` is the figure's k (for `belowK`);
 * `nName` what n counts (`n`, `scored n`).
 */
export function describeDenominator(d: Denominator, k?: number, nName = 'n'): string {
  const total = d.problems + d.missing;
  if (d.missing === 0) return `over all ${plural(total, 'problem', 'problems')}`;
  const why: string[] = [];
  const l = d.leftOut;
  if (l.noSamples) why.push(`${plural(l.noSamples, 'has', 'have')} no samples`);
  if (l.ungraded) why.push(`${plural(l.ungraded, 'has', 'have')} no graded sample`);
  if (l.noScore) why.push(`${plural(l.noScore, 'has', 'have')} no reward score`);
  if (l.notInBase) why.push(`${plural(l.notInBase, 'is', 'are')} not graded for the base model`);
  if (l.notInModel) why.push(`${plural(l.notInModel, 'is', 'are')} only in the base model's results`);
  if (l.notInStep) why.push(`${plural(l.notInStep, 'is', 'are')} not in this checkpoint's results`);
  if (l.unscored) why.push(`${plural(l.unscored, 'lacks', 'lack')} a score of some scorer`);
  if (l.belowK) why.push(`${plural(l.belowK, 'has', 'have')} ${nName} < ${k ?? 'k'}`);
  return `over ${d.problems} of ${plural(total, 'problem', 'problems')}: ${why.join(', ')}`;
}

/** The mark of a value computed over fewer than all problems: ` (5/6)`; `''` over all of them. */
export function denominatorMark(d: Pick<Denominator, 'problems' | 'missing'>): string {
  return d.missing > 0 ? ` (${d.problems}/${d.problems + d.missing})` : '';
}

/**
 * Problems named in a warning: `(problem "3")`, `(problems "2", "3" and 4 more)`; at most `max` are
 * named, the rest counted. `nameOf` gives a problem's id as the folder spells it.
 */
export function nameProblems(ids: readonly number[], nameOf: (id: number) => string, max = 5): string {
  const shown = ids.slice(0, max).map((id) => JSON.stringify(nameOf(id)));
  const more = ids.length > shown.length ? ` and ${ids.length - shown.length} more` : '';
  return `(${ids.length === 1 ? 'problem' : 'problems'} ${shown.join(', ')}${more})`;
}
