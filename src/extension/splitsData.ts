/**
 * The overview's Splits tab (issue 35, "generalisation across splits"): the split matrix of the core
 * (src/core/analyses/splits.ts, the CLI's `report --splits <kind>`) as the webview gets it, with each split's
 * problem row ids for the tree's filter and, per split kind, how many splits the folder has. Computed in the
 * figures worker (./figuresWorker.ts); pure core, no `vscode`.
 */
import { buildSplitsMatrix } from '../core/analyses/splits';
import { splitProblems, type SplitProblem } from '../core/analyses/splitDefinitions';
import { datasetName } from '../core/grouping/datasets';
import type { TraceIndex } from '../core/index/traceIndex';
import { shortModelNames } from '../core/index/labels';
import { SPLIT_KINDS, type SplitKindName, type SplitsData } from '../shared/protocol';
import type { OnFiguresProgress, Roles } from './panelData';

/** The kinds whose splits are values of a problem (counted without building them). */
const VALUE_KINDS: { kind: SplitKindName; value: (p: SplitProblem) => string | null }[] = [
  { kind: 'level', value: (p) => p.level },
  { kind: 'subject', value: (p) => p.subject },
  { kind: 'dataset', value: (p) => datasetName(p.dataset) },
];

/**
 * How many splits each of level, subject and dataset gives the index's problems (the distinct non-empty values,
 * as core/analyses/splitDefinitions.ts `defineSplits` forms them: 0 where no problem has one), and content clusters
 * `null` (not computed: k-means over the texts, only when chosen). In {@link SPLIT_KINDS} order.
 */
export function splitKindCounts(index: TraceIndex): SplitsData['kinds'] {
  const problems = [...splitProblems(index).values()];
  return SPLIT_KINDS.map((kind) => {
    const v = VALUE_KINDS.find((x) => x.kind === kind);
    if (!v) return { kind, splits: null };
    const values = new Set<string>();
    for (const p of problems) {
      const x = v.value(p);
      if (x !== null && x !== '') values.add(x);
    }
    return { kind, splits: values.size };
  });
}

/** The kind the tab opens with: the first of level, subject, dataset with two splits or more, else content clusters. */
export function defaultSplitKind(kinds: SplitsData['kinds']): SplitKindName {
  return kinds.find((k) => k.splits !== null && k.splits >= 2)?.kind ?? 'cluster';
}

/**
 * The Splits tab's data: the split matrix of split kind `kind` (default {@link defaultSplitKind}) with the
 * core's defaults (bootstrap `replicates`, default 2000, seed 12345; k the largest power of two every model's
 * largest n reaches; content clusters with the default k and seed; the split a model was trained on read from its
 * name), against `roles.baseId` (the overview's base model). A folder with one model, or with seeds of one
 * model only, has no base: `base` null and no relative cells. The cells are the core report's cells unchanged.
 * A kind the folder has no splits of gives empty `splits` and `cells` (the view says so; `method` and
 * `unassigned.why` say why).
 * @throws Error when `roles.baseId` is no model of the index.
 */
export function splitsData(
  index: TraceIndex,
  roles: Roles,
  kind?: SplitKindName,
  onProgress: OnFiguresProgress = () => undefined,
  replicates?: number,
): SplitsData {
  onProgress({ stage: 'the splits of the problems', done: 0, total: 2 });
  const counts = splitKindCounts(index);
  const chosen = kind ?? defaultSplitKind(counts);
  onProgress({
    stage:
      chosen === 'cluster'
        ? 'content clusters of the problem texts and the split matrix'
        : `the split matrix by ${chosen} (bootstrap intervals per cell)`,
    done: 1,
    total: 2,
  });
  const several = index.models().length > 1;
  const { report, definition } = buildSplitsMatrix(index, {
    splits: { kind: chosen },
    baseModelId: several ? roles.baseId : undefined,
    replicates,
  });
  const seeds = report.models.some((m) => m.seeds.length > 1);
  // the tree's short names (`ppo@main`), by display id: the one name of a model in every view
  const all = index.models();
  const names = shortModelNames(all);
  const short = new Map(all.map((m) => [m.displayId, names.get(m.id) ?? m.label]));
  const s = report.significance;
  return {
    kind: chosen,
    kinds: counts.map((c) =>
      c.kind === chosen && c.splits === null ? { kind: c.kind, splits: report.splits.length } : c,
    ),
    method: report.method,
    k: report.k,
    base: report.models.length > 1 ? report.base : null,
    problems: definition.problems.size,
    splits: report.splits.map((x, j) => ({
      name: x.name,
      label: x.label,
      problems: x.problems,
      problemRowIds: definition.splits[j].problems,
      ...(x.terms ? { terms: x.terms } : {}),
    })),
    unassigned: report.unassigned,
    models: report.models.map((m) => ({
      name: m.name,
      label: (m.seeds.length === 1 ? short.get(m.seeds[0]) : undefined) ?? m.name,
      seeds: m.seeds,
      trainedOn: m.trainedOn,
    })),
    cells: report.cells,
    intervals: `${report.uncertainty.intervals}.${seeds ? ` Seeds: ${report.uncertainty.seeds}.` : ''}`,
    significance: `Verdicts: ${s.test}; ${s.correction} correction, alpha ${s.alpha}: ${s.families}. ${s.note.charAt(0).toUpperCase()}${s.note.slice(1)}`,
    warnings: report.warnings,
  };
}
