/**
 * `report --splits <kind>`: the split matrix (src/core/analyses/splits.ts) as JSON, a table or CSV, and
 * the options that choose the splits, the k and what each model was trained on.
 */
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import type { TraceIndex } from '../core/index/traceIndex';
import { buildSplitsReport, type SplitEstimate, type SplitsReport } from '../core/analyses/splits';
import type { SplitKind } from '../core/analyses/splitDefinitions';
import { escapeControl, plural } from '../core/text/strings';
import { csvCell } from '../core/report/csv';
import { terminalJson } from './output';

/** The options `report` takes for splits (commander's camel-case names). */
export interface SplitsCliOptions {
  splits?: string;
  clusters?: number;
  clusterSeed?: number;
  splitK?: number;
  trainedOn?: [string, string][];
  trainedPattern?: string;
}

const positiveInt = (min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected an integer >= ${min}`);
  return n;
};

/** Adds the splits options to the `report` command. */
export function addSplitsOptions(c: Command): Command {
  return c
    .option(
      '--splits <kind>',
      'report the split matrix instead of the report: models by evaluation splits, pass@1 and pass@k with intervals, relative to the base, oracle gaps; <kind> is level, subject, dataset, cluster (content clusters of the problem text) or file:<path> (problem ids per split: JSON {"split": [ids]} or lines problem_id,split)',
      (v) => {
        if (!/^(level|subject|dataset|cluster|file:.+)$/.test(v))
          throw new InvalidArgumentError('expected level, subject, dataset, cluster or file:<path>');
        return v;
      },
    )
    .option(
      '--clusters <k>',
      'with --splits cluster: the number of clusters, at least 2 (default round(sqrt(problems / 2)), 2 to 12; more than the problems with words is lowered to that, with a warning)',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 2)
          throw new InvalidArgumentError('expected an integer >= 2 (one cluster would be no split at all)');
        return n;
      },
    )
    .option('--cluster-seed <n>', 'with --splits cluster: the k-means seed (default 1)', positiveInt(0))
    .option(
      '--split-k <k>',
      "with --splits: the k of the pass@k column (default: the largest power of two <= every model's largest n)",
      positiveInt(1),
    )
    .option(
      '--trained-on <model=split>',
      'with --splits: the split a model was trained on (a substring of its id or label = a split name); repeatable; default: read from names (level3, cluster2, trained-on-test)',
      (v: string, prev: [string, string][] = []) => {
        const i = v.lastIndexOf('=');
        if (i <= 0 || i === v.length - 1) throw new InvalidArgumentError('expected <model>=<split>');
        return [...prev, [v.slice(0, i), v.slice(i + 1)] as [string, string]];
      },
    )
    .option(
      '--trained-pattern <regex>',
      "with --splits: a regular expression over model ids whose first group names the model's training split",
    );
}

/**
 * Rejects the split options given without `--splits` (they would be ignored silently).
 * @throws Error naming the first such option.
 */
export function checkSplitsOptions(opts: SplitsCliOptions): void {
  if (opts.splits) return;
  const given: [string, unknown][] = [
    ['--trained-on', opts.trainedOn],
    ['--trained-pattern', opts.trainedPattern],
    ['--split-k', opts.splitK],
    ['--clusters', opts.clusters],
    ['--cluster-seed', opts.clusterSeed],
  ];
  const first = given.find(([, v]) => v !== undefined);
  if (first)
    throw new Error(`${first[0]} needs --splits <kind>: it sets up the split matrix, which only --splits reports`);
}

/** The split kind of `--splits` (a split file is read here). @throws Error naming the file when it cannot be read. */
export function splitKindOf(opts: SplitsCliOptions): SplitKind {
  const v = opts.splits as string;
  if (v.startsWith('file:')) {
    const file = v.slice(5);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`--splits ${v}: cannot read ${file}: ${(e as Error).message}`);
    }
    return { kind: 'file', file, text };
  }
  if (v === 'cluster') return { kind: 'cluster', k: opts.clusters, seed: opts.clusterSeed };
  return { kind: v as 'level' | 'subject' | 'dataset' };
}

/** Builds the split matrix for `report --splits` and renders it in `format` (json, table, csv). */
export function splitsOutput(
  index: TraceIndex,
  opts: SplitsCliOptions & { base?: string; replicates?: number; seed?: number },
  format: string,
): string {
  const r = buildSplitsReport(index, {
    splits: splitKindOf(opts),
    k: opts.splitK,
    base: opts.base,
    trainedOn: opts.trainedOn,
    trainedPattern: opts.trainedPattern,
    replicates: opts.replicates,
    seed: opts.seed,
  });
  if (format === 'json') return terminalJson(r, 2);
  return format === 'csv' ? splitsCsv(r) : splitsTable(r);
}

const pct = (v: number | null) => (v === null ? '—' : (100 * v).toFixed(1));
const signed = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)}`);
/** `p / Holm p`, with `†` where the test can never give a p below alpha (too few non-zero differences). */
const pHolm = (p: { pValue: number; pHolm: number; pMin: number }, alpha: number) =>
  `${p.pValue.toPrecision(2)} / ${p.pHolm.toPrecision(2)}${p.pMin >= alpha ? ' †' : ''}`;
const interval = (e: SplitEstimate, f = pct) =>
  e.value === null ? '—' : `${f(e.value)} [${f(e.ciLow)}, ${f(e.ciHigh)}]`;

function grid(rows: string[][]): string {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => (r[j] ?? '').length)));
  return rows
    .map((r) => r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '))
    .join('\n');
}

/**
 * The split matrix as text: the splits (size; clusters with terms and examples), then per model one row per
 * split (pass@1, pass@k, relative to the base with its verdict, problems and n; `*` marks the in-distribution
 * cell), the difficulty-controlled averages, the oracle gaps, the level agreement, the method and warnings.
 */
export function splitsTable(r: SplitsReport): string {
  const e = escapeControl;
  const out: string[] = [];
  out.push(`Splits by ${r.kind}: ${r.method}`);
  for (const s of r.splits) {
    out.push(`  ${e(s.label)}: ${plural(s.problems, 'problem', 'problems')}`);
    for (const x of s.examples ?? []) out.push(`      e.g. ${e(x.problem)}: ${e(x.text)}`);
  }
  if (r.unassigned.problems > 0)
    out.push(
      `  in no split: ${plural(r.unassigned.problems, 'problem', 'problems')}: ${r.unassigned.named.map((x) => e(x)).join(', ')}${r.unassigned.problems > r.unassigned.named.length ? ', ...' : ''}; why: ${e(r.unassigned.why)}`,
    );
  out.push('');
  if (r.splits.length === 0) {
    out.push(`No split: none of the problems is in one (${e(r.unassigned.why)}); no matrix.`);
    return out.join('\n');
  }
  out.push(
    `Split matrix (pass@1 and pass@${r.k} in %, ${Math.round(r.uncertainty.level * 100)}% intervals; base ${r.base === null ? 'none' : e(r.base)}; * = trained on this split)`,
  );
  const withBase = r.cells.some((c) => c.relative);
  const head = ['model', 'split', 'pass@1', `pass@${r.k}`];
  if (withBase) head.push('vs base pass@1', 'p / Holm', 'verdict', `vs base pass@${r.k}`);
  head.push('problems', 'n');
  const rows = [head];
  for (const c of r.cells) {
    const rel = c.relative;
    const row = [e(c.model), `${c.inDistribution ? '*' : ''}${e(c.split)}`, interval(c.passAt1), interval(c.passAtK)];
    if (withBase)
      row.push(
        rel ? interval(rel.passAt1, signed) : '',
        rel ? (rel.passAt1.verdict === 'no data' ? '—' : pHolm(rel.passAt1, r.significance.alpha)) : '',
        rel ? rel.passAt1.verdict : '',
        rel ? interval(rel.passAtK, signed) : '',
      );
    row.push(
      `${c.problems}/${c.splitProblems}`,
      c.n === null ? '—' : c.n.min === c.n.max ? String(c.n.min) : `${c.n.min}-${c.n.max}`,
    );
    rows.push(row);
  }
  out.push(grid(rows));
  out.push(
    "problems: the split's problems with a graded sample of the model, of all the split's problems; n: graded samples per problem (per seed); pass@k leaves out problems with n < k (JSON: missing)",
  );
  if (r.outOfDistribution.length) {
    out.push(
      '',
      'Out of distribution (splits each model was not trained on, each split weighs the same): raw pass@1, and relative to the base on the same splits (the difficulty-controlled figure)',
    );
    const o = [['model', 'trained on', 'splits', 'raw pass@1', 'vs base']];
    for (const x of r.outOfDistribution)
      o.push([
        e(x.model),
        e(x.trainedOn),
        x.splits.map((s) => e(s)).join(' '),
        interval({ ...x.raw, problems: 0, missing: 0 }),
        x.relative ? interval({ ...x.relative, problems: 0, missing: 0 }, signed) : '—',
      ]);
    out.push(grid(o));
  }
  if (r.oracleGaps.length) {
    out.push(
      '',
      'Oracle performance gaps (on each split: the model trained on it minus a model trained on another split, paired)',
    );
    const o = [
      [
        'split',
        'trained on it',
        'trained elsewhere',
        'gap pass@1',
        'p / Holm',
        'verdict',
        `gap pass@${r.k}`,
        'problems',
      ],
    ];
    for (const g of r.oracleGaps)
      o.push([
        e(g.split),
        e(g.oracle),
        `${e(g.model)} (${e(g.trainedOn)})`,
        interval(g.passAt1, signed),
        g.passAt1.verdict === 'no data' ? '—' : pHolm(g.passAt1, r.significance.alpha),
        g.passAt1.verdict,
        interval(g.passAtK, signed),
        String(g.passAt1.problems),
      ]);
    out.push(grid(o));
  }
  if (r.levelAgreement) {
    out.push('', "Agreement with the dataset's own levels (problems per split and level)");
    const o = [['split', ...r.levelAgreement.levels.map((l) => `level ${e(l)}`)]];
    for (const x of r.levelAgreement.rows) o.push([e(x.split), ...x.counts.map(String)]);
    out.push(grid(o));
  }
  out.push('', `Intervals: ${r.uncertainty.intervals}.`, `Seeds: ${r.uncertainty.seeds}.`);
  const tested = [
    ...r.cells.flatMap((c) => (c.relative ? [c.relative.passAt1] : [])),
    ...r.oracleGaps.map((g) => g.passAt1),
  ];
  if (tested.length > 0)
    out.push(
      `Significance: ${r.significance.test}; ${r.significance.correction} at alpha ${r.significance.alpha}: ${r.significance.families}; ${r.significance.note}`,
    );
  if (tested.some((d) => d.pMin >= r.significance.alpha))
    out.push(
      `†: too few problems with a non-zero difference for the test to give a p below ${r.significance.alpha} (exact sign-flip test: the smallest p is 2 / 2^m); such a cell reads within noise whatever its size`,
    );
  for (const w of r.warnings) out.push(`warning: ${e(w)}`);
  return out.join('\n');
}

/** Header of {@link splitsCsv}. */
export const SPLITS_CSV_HEADER =
  'model,split,split_label,in_distribution,metric,k,value,ci_low,ci_high,problems,missing,split_problems,not_in_model,no_graded,samples,n_min,n_max,p_value,p_holm,verdict,against';

/**
 * The split matrix as CSV ("long" format): per cell `pass@k` at k = 1 and the chosen k, and with a base
 * `pass@k-vs-base` (paired difference; p-values at k = 1); per trained model `ood-raw-pass@1` and
 * `ood-vs-base-pass@1` (split = the splits averaged, joined by spaces); per oracle gap `oracle-gap-pass@k`
 * (model = the model trained on the split, against = the other). `problems + missing` = the split's problems.
 */
export function splitsCsv(r: SplitsReport): string {
  const columns = SPLITS_CSV_HEADER.split(',');
  const lines = [SPLITS_CSV_HEADER];
  const label = new Map(r.splits.map((s) => [s.name, s.label]));
  type Value = string | number | boolean | null | undefined;
  /** One line: the named columns, every other cell empty. */
  const row = (cells: Record<string, Value>) =>
    lines.push(
      columns
        .map((c) => {
          const v = cells[c];
          return v === null || v === undefined ? '' : typeof v === 'string' ? csvCell(v) : String(v);
        })
        .join(','),
    );
  const est = (e: SplitEstimate) => ({
    value: e.value,
    ci_low: e.ciLow,
    ci_high: e.ciHigh,
    problems: e.problems,
    missing: e.missing,
  });
  const test = (p: { pValue: number; pHolm: number; verdict: string }) => ({
    p_value: p.pValue,
    p_holm: p.pHolm,
    verdict: p.verdict,
  });
  for (const c of r.cells) {
    const common = {
      model: c.model,
      split: c.split,
      split_label: label.get(c.split) ?? c.split,
      in_distribution: c.inDistribution,
      split_problems: c.splitProblems,
      not_in_model: c.leftOut.notInModel,
      no_graded: c.leftOut.noGraded,
      samples: c.samples,
      n_min: c.n?.min,
      n_max: c.n?.max,
    };
    row({ ...common, metric: 'pass@k', k: 1, ...est(c.passAt1) });
    row({ ...common, metric: 'pass@k', k: r.k, ...est(c.passAtK) });
    if (c.relative) {
      const against = r.base;
      row({
        ...common,
        metric: 'pass@k-vs-base',
        k: 1,
        ...est(c.relative.passAt1),
        ...test(c.relative.passAt1),
        against,
      });
      row({ ...common, metric: 'pass@k-vs-base', k: r.k, ...est(c.relative.passAtK), against });
    }
  }
  for (const o of r.outOfDistribution) {
    const common = { model: o.model, split: o.splits.join(' '), in_distribution: false, k: 1 };
    row({ ...common, metric: 'ood-raw-pass@1', value: o.raw.value, ci_low: o.raw.ciLow, ci_high: o.raw.ciHigh });
    if (o.relative) {
      const rel = o.relative;
      row({
        ...common,
        metric: 'ood-vs-base-pass@1',
        value: rel.value,
        ci_low: rel.ciLow,
        ci_high: rel.ciHigh,
        against: r.base,
      });
    }
  }
  for (const g of r.oracleGaps) {
    const common = {
      model: g.oracle,
      split: g.split,
      split_label: label.get(g.split) ?? g.split,
      in_distribution: true,
      metric: 'oracle-gap-pass@k',
      against: g.model,
    };
    row({ ...common, k: 1, ...est(g.passAt1), ...test(g.passAt1) });
    row({ ...common, k: r.k, ...est(g.passAtK) });
  }
  return lines.join('\n');
}
