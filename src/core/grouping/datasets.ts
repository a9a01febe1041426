/**
 * The datasets of an index (trial 5 finding 3: a folder holding math500 and aime24 per checkpoint gave
 * one pooled pass@k per model and never said so). A problem's dataset is the one its reader gave it
 * (`problems.dataset`: a Qwen2.5-Math folder name, an lm-eval task, a file's dataset field).
 */
import type { TraceIndex } from '../index/traceIndex';

/** One dataset of the index with its number of problems (every problem of any model, with or without samples). */
export interface DatasetCount {
  dataset: string;
  problems: number;
}

/**
 * Every dataset of the index with its problem count, in dataset order (the tree's problem order).
 * One row for a folder with one dataset; empty for an empty index.
 */
export function datasetCounts(index: TraceIndex): DatasetCount[] {
  return index.db
    .prepare('SELECT dataset, count(*) AS problems FROM problems GROUP BY dataset ORDER BY dataset')
    .all() as DatasetCount[];
}

/**
 * Whether some problem id names problems of two datasets (aime24 #0 and math500 #0): then lists of
 * problems name each problem's dataset ({@link problemLabel}).
 */
export function problemIdsRepeat(index: TraceIndex): boolean {
  return (
    index.db.prepare('SELECT 1 FROM problems GROUP BY problem_id HAVING count(DISTINCT dataset) > 1 LIMIT 1').get() !==
    undefined
  );
}

/** The dataset of every problem, by problem row id. */
export function datasetByProblem(index: TraceIndex): Map<number, string> {
  const rows = index.db.prepare('SELECT id, dataset FROM problems').all() as { id: number; dataset: string }[];
  return new Map(rows.map((r) => [r.id, r.dataset]));
}

/** A dataset's name as shown: `(no dataset)` for the empty name some readers give. */
export function datasetName(dataset: string): string {
  return dataset === '' ? '(no dataset)' : dataset;
}

/**
 * The datasets a figure is over, named with their problem counts: `math500 4, aime24 2` (in the order
 * given). `counts` are the problems of each dataset in the figure's whole (its denominator's `b`).
 */
export function describeDatasets(counts: readonly DatasetCount[]): string {
  return counts.map((d) => `${datasetName(d.dataset)} ${d.problems}`).join(', ');
}

/**
 * The overview's / report's line for the problems of several datasets: `6 problems in 2 datasets
 * (aime24 2, math500 4)`; `6 problems` for one dataset.
 */
export function problemsInDatasets(counts: readonly DatasetCount[]): string {
  const total = counts.reduce((a, d) => a + d.problems, 0);
  const problems = `${total} problem${total === 1 ? '' : 's'}`;
  return counts.length > 1 ? `${problems} in ${counts.length} datasets (${describeDatasets(counts)})` : problems;
}

/**
 * A problem's label in lists that mix datasets: `aime24 · 0` when `withDataset` (the folder's problem
 * ids repeat across datasets: aime24 #0 and math500 #0, {@link problemIdsRepeat}), else the problem id alone.
 */
export function problemLabel(p: { dataset: string; problemId: string }, withDataset: boolean): string {
  return withDataset ? `${datasetName(p.dataset)} · ${p.problemId}` : p.problemId;
}

/**
 * The name of a problem (by row id) in messages and figures: {@link problemLabel} with the dataset when
 * the folder's problem ids repeat across datasets ({@link problemIdsRepeat}, looked up once): `math · 0`
 * beside `gsm8k · 0`, else `0`. A row id not in the index is named by its number. The tree, warnings,
 * left-out lists and diagnostics share it (trial 6 finding 6).
 */
export function problemNamer(index: TraceIndex): (id: number) => string {
  const withDataset = problemIdsRepeat(index);
  return (id) => {
    const p = index.problem(id);
    return p ? problemLabel(p, withDataset) : String(id);
  };
}
