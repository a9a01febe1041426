import { escapeControl } from '../text/strings';
import type { CsvRow } from './section';
import type { Report } from './types';
import { ALL_DATASETS } from './render';

/**
 * One CSV cell of untrusted text: control characters escaped as in {@link escapeControl}, a leading
 * `=`, `+`, `-` or `@` prefixed with `'` (so a spreadsheet does not run it as a formula), and quoted
 * when it holds `"`, `,` or a line break.
 */
export function csvCell(s: string): string {
  let v = escapeControl(s);
  if (/^[=+\-@]/.test(v)) v = `'${v}`;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Header of the report's CSV ({@link csvText}). */
export const CSV_HEADER =
  'model,label,metric,k,value,ci_low,ci_high,problems,missing,no_samples,ungraded,n_below_k,no_reward_score,level,series,step,scorer,base,not_in_base,not_in_model,dataset,datasets,partly_scored,base_label';

/**
 * CSV of every curve point, one row per (model, metric, k, level) ("long" format, ready for a data
 * frame): {@link CSV_HEADER}, with metric `pass@k` (bootstrap interval over problems), `best-of-k` and
 * `maj@k` (no interval; maj@k only with --maj-at-k); `level` empty for all problems, else one row per
 * difficulty level (pass@k). `problems` entered the mean; `missing` = the model's other problems, split
 * into `no_samples`, `ungraded` (no graded sample), `n_below_k` and `no_reward_score` (best-of-k), so
 * `problems + missing` is the model's number of problems (of that level). Empty cells are missing
 * values. With several scorers, per scorer (column `scorer`) `rm-pairwise-accuracy` (k empty),
 * `rm-best-of-n`, `rm-pass@n` and `rm-regret` at each N (k = N; problems = the problems every scorer scored
 * with at least N samples), and per N `rm-spearman` and `rm-kendall-tau-b` with their bootstrap interval
 * (scorer empty); on these rows too `problems + missing` is the model's number of problems, split into
 * `no_samples`, `ungraded`, `n_below_k`, `no_reward_score` (= no reward score on any graded sample of the
 * problem) and, last column, `partly_scored` (= a reward score on some graded samples only, or from some scorers
 * only: trial 12 finding 20; empty on other rows); reward-model strata are in the JSON. Then one block of rows per checkpoint of each training series (`series` and `step` set,
 * `model` = the checkpoint): `sample-accuracy` (problems = problems with graded samples), `pass@k` and
 * `base-pass@k` at k = 1 and the series' largest k (with their denominators: a step's `problems + missing`
 * = the series' problems, `not_in_model` = those this checkpoint has no record of; a base's = the step's own
 * problems with a graded sample at the step, `not_in_base` = those the base has no record of, and its `datasets`
 * the base's among them), `category:<name>` (value = problems; problems =
 * paired problems), `positive-gain-share:sharpening` and `:expansion` (with the bootstrap interval;
 * problems = paired problems), `gain:sharpening` and `gain:expansion` (correct samples), `mean-chars`.
 * Then per comparison (`base` set, `model` = the compared model): `pass@k-diff` (model − base, paired
 * bootstrap interval) per k and `crossover-k` (value empty when there is none; k = the largest k searched),
 * with the comparison's denominator: `problems + missing` = the problems of the two models, `not_in_base`
 * and `not_in_model` (only the base has a record of it) beside the model's own reasons.
 * Then one row per model in no comparison (JSON `notCompared`): metric `not-compared:<kind>` (`modelUngraded`,
 * `baseUngraded`, `noCommonProblem`, `seedSibling`, `baseOfNone`, `baseCopyOfNone`, `noBaseInFolder`, `noBase`), `problems` = its problems with a
 * graded sample, `base` = the base it would be compared with (empty without one), other figures empty.
 * `base_label`, the last column, names the `base` of a row by its label, as `label` names its `model` (trial 12
 * finding 22: the base was named by its id only); empty where `base` is.
 * Per-problem trajectories and coverage counts are in the JSON report.
 */
export function csvText(r: Report, rows: readonly CsvRow[]): string {
  const q = csvCell;
  // the dataset columns: a folder with one dataset names it; with several, the pooled rows say so
  const pooled = r.datasets.length > 1 ? ALL_DATASETS : (r.datasets[0]?.dataset ?? '');
  // the problems per dataset a pooled row is over: its model's (a comparison: the compared model's), else the folder's
  const counts = (list: readonly { dataset: string; problems: number }[]) =>
    q(list.map((d) => `${d.dataset}:${d.problems}`).join(';'));
  const byModel = r.models.map((m) => [`${q(m.id)},`, counts(m.datasets)] as const);
  const ofLine = (x: CsvRow) => {
    if (x.datasets) return counts(x.datasets);
    return byModel.find(([head]) => x.line.startsWith(head))?.[1] ?? counts(r.datasets);
  };
  const labelOf = new Map(r.models.map((m) => [m.id, m.label]));
  const baseLabel = (x: CsvRow) => (x.base === undefined ? '' : q(labelOf.get(x.base) ?? x.base));
  return [
    CSV_HEADER,
    ...rows
      .filter((x) => !x.dataset)
      .map((x) => `${x.line},${q(pooled)},${ofLine(x)},${x.partlyScored ?? ''},${baseLabel(x)}`),
    // per-dataset model rows: their dataset, no partly_scored, no base
    ...rows.flatMap((x) =>
      x.dataset ? [`${x.line},${q(x.dataset.dataset)},${q(`${x.dataset.dataset}:${x.dataset.problems}`)},,`] : [],
    ),
  ].join('\n');
}
