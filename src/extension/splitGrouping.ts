/**
 * The Problems tree grouped by split (Group by Split…): the rows of the splits of a folder's problems
 * (src/core/analyses/splitDefinitions.ts: difficulty level, subject, dataset or content cluster), each with its
 * problems and the pass@1 of the model in focus and of the base over them. Pure (no `vscode`): the tree
 * (problemTree.ts) draws these rows, the tests check them on a real index.
 */

import { type SplitDefinition, type SplitKind, defineSplits } from '../core/analyses/splitDefinitions';
import type { TraceIndex } from '../core/index/traceIndex';

/** The split kinds the tree groups by (a split file is the CLI's: `report --splits file:<path>`). */
export type TreeSplitKind = 'level' | 'subject' | 'dataset' | 'cluster';

/** The kinds in the order Group by Split… offers them, with what each groups by. */
export const TREE_SPLIT_KINDS: readonly { kind: TreeSplitKind; title: string; detail: string }[] = [
  { kind: 'level', title: 'Difficulty level', detail: "the dataset's own levels (the records' level field)" },
  { kind: 'subject', title: 'Subject', detail: "the records' subject field" },
  { kind: 'dataset', title: 'Dataset', detail: 'the dataset each problem comes from' },
  {
    kind: 'cluster',
    title: 'Content cluster',
    detail: 'k-means over TF-IDF of the problem text, each cluster named by its top terms (docs/splits.md)',
  },
];

/** One row of the tree grouped by split. */
export interface SplitRow {
  /** Stable id within the kind: the split's name, or `unassigned`. */
  key: string;
  /** `level 3`, `cluster 2: apples, pies, …`, or `no level` for the problems in no split. */
  label: string;
  /** Problem row ids, in the split's order (natural order of the problem names). */
  problemIds: number[];
  /** The row of the problems in no split. */
  unassigned: boolean;
}

/** pass@1 of one model over a split's problems: the mean of c / graded over its graded problems. */
export interface SplitPassAt1 {
  /** null when none of the split's problems has a graded sample of the model. */
  value: number | null;
  /** Problems of the split with a graded sample of the model (the denominator). */
  problems: number;
  /** Problems of the split with a sample of the model, graded or not (0: the model has no sample of the split). */
  sampled: number;
}

/**
 * The splits of `kind` as tree rows: one per split in the definition's order, then one for the problems in no
 * split (labelled by why: `no level`), when there are any. Cluster splits use the CLI's defaults (k from the
 * number of problems, seed 1), so the tree shows the clusters `report --splits cluster` reports.
 * Cost: one query of the problems (and the clustering, for clusters: O(problems x terms x k) per iteration).
 */
export function splitRows(index: TraceIndex, kind: TreeSplitKind): { rows: SplitRow[]; method: string } {
  const def: SplitDefinition = defineSplits(index, { kind } as SplitKind);
  const rows: SplitRow[] = def.splits.map((s) => ({
    key: s.name,
    label: s.label,
    problemIds: s.problems,
    unassigned: false,
  }));
  if (def.unassigned.problems.length)
    rows.push({ key: 'unassigned', label: def.unassigned.why, problemIds: def.unassigned.problems, unassigned: true });
  return { rows, method: def.method };
}

/**
 * pass@1 of a model over each row's problems, from the model's per-problem counts `stats` (one row per problem the
 * model has a record of; `graded` samples with a verdict, `c` of them correct). Problems without a graded sample are
 * left out of the mean (counted by `problems`). O(problems + rows).
 * Source: pass@1 = mean over problems of c/n (Chen et al. 2021, the unbiased estimator at k = 1).
 */
export function splitPassAt1(
  rows: readonly SplitRow[],
  stats: readonly { problemId: number; n: number; c: number; graded: number }[],
): SplitPassAt1[] {
  const rate = new Map<number, number>();
  const sampled = new Set<number>();
  for (const s of stats) {
    if (s.n > 0) sampled.add(s.problemId);
    if (s.graded > 0) rate.set(s.problemId, s.c / s.graded);
  }
  return rows.map((r) => {
    let sum = 0;
    let problems = 0;
    let withSamples = 0;
    for (const id of r.problemIds) {
      if (sampled.has(id)) withSamples++;
      const v = rate.get(id);
      if (v === undefined) continue;
      sum += v;
      problems++;
    }
    return { value: problems ? sum / problems : null, problems, sampled: withSamples };
  });
}

/**
 * A split row's description, the figures first as on a problem row (`base 4/8 · model 6/8`), so that a narrow side
 * bar cuts the count rather than them: `base 0.35 · model 0.42 · 120 problems` (pass@1 over the split, `(over N)`
 * when only N of its problems have graded samples; `no samples` / `not graded` when none has). `shown`: the problems
 * a filter keeps (`3 of 120 problems`). The pair's names are above the tree; the tooltip has them.
 */
export function splitRowDescription(
  row: SplitRow,
  focus: { name: string; pass: SplitPassAt1 } | undefined,
  base: { name: string; pass: SplitPassAt1 } | undefined,
  shown?: number,
): string {
  const n = row.problemIds.length;
  const part = (who: string, p: SplitPassAt1) =>
    p.value === null
      ? `${who} ${p.sampled === 0 ? 'no samples' : 'not graded'}`
      : `${who} ${p.value.toFixed(2)}${p.problems < n ? ` (over ${p.problems})` : ''}`;
  const parts: string[] = [];
  if (base && base.name !== focus?.name) parts.push(part('base', base.pass));
  if (focus) parts.push(part('model', focus.pass));
  parts.push(`${shown === undefined ? '' : `${shown} of `}${n} problem${n === 1 ? '' : 's'}`);
  return parts.join(' · ');
}
