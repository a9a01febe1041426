/**
 * The order in which Next / Previous Sample, Next / Previous Problem and Next Unannotated Sample step
 * through samples: the order of the Problems tree under its current filter and grouping, for the
 * model of the sample being read. No `vscode` import: the tree supplies its problem list
 * ({@link TreeOrder}) and this module walks it on the index (tested on real SQLite).
 *
 * Within one (problem, model) the samples come as the tree lists them: correct ones, then incorrect,
 * then ungraded, each by sample index (a filter may keep fewer verdicts: the lucky-guess review queue
 * steps through correct samples only). Across problems the order is the tree's list of problems
 * (in model grouping, the model's problems); a problem without samples of the model, or none left by
 * the filter, is skipped. Stepping stays with one model: the RL model's failing samples, then the
 * next failing problem's, as a reader goes through them.
 */
import type { SampleRow, TraceIndex } from '../core/index/traceIndex';

/** What the tree tells the walk. */
export interface TreeOrder {
  /** Problem row ids in the tree's order (its filter and grouping) for the given model. */
  problems(modelId: number): number[];
  /** Verdict groups in order (`null` = ungraded); the tree's are correct, incorrect, ungraded. */
  verdicts: readonly (boolean | null)[];
  /** A full-text query the samples must match (the search filter), if any. */
  matching?: string;
}

/** Where the walk starts: a sample, or the place before the first sample of a (problem, model). */
export type Cursor = { sampleId: number } | { problemId: number; modelId: number };

export type Step = 'next' | 'previous' | 'nextProblem' | 'previousProblem' | 'nextUnannotated';

/** Most samples of one (problem, model) read at once (the index stores at most this per pair in practice). */
const ALL = 1_000_000;

/** The samples of a (problem, model) in the tree's order: by verdict group, then sample index. */
export function samplesInOrder(index: TraceIndex, order: TreeOrder, problemId: number, modelId: number): SampleRow[] {
  return order.verdicts.flatMap((correct) =>
    index.samples(problemId, modelId, { correct, limit: ALL, matching: order.matching }),
  );
}

/** A sample's place in the walk, for the preview's header. */
export interface Position {
  /** 1-based place of the problem in the tree's list, and the list's length. */
  problem: number;
  problems: number;
  /** 1-based place of the sample among the model's samples of the problem (in the tree's order), and their number. */
  sample: number;
  samples: number;
}

/** Where `sampleId` sits in the walk; undefined when the tree's current list does not hold it. */
export function positionOf(index: TraceIndex, order: TreeOrder, sampleId: number): Position | undefined {
  const s = index.sample(sampleId);
  if (!s) return undefined;
  const problems = order.problems(s.modelId);
  const p = problems.indexOf(s.problemId);
  if (p < 0) return undefined;
  const list = samplesInOrder(index, order, s.problemId, s.modelId);
  const i = list.findIndex((x) => x.id === sampleId);
  if (i < 0) return undefined;
  return { problem: p + 1, problems: problems.length, sample: i + 1, samples: list.length };
}

/**
 * The sample one step from `from`, or undefined at either end of the walk.
 * - `next` / `previous`: the neighbouring sample; past the end of a problem, the first sample of the
 *   next problem (or the last of the previous one).
 * - `nextProblem` / `previousProblem`: the first sample of the next / previous problem.
 * - `nextUnannotated`: the next sample without labels or note.
 * From a cursor that is not a sample, `next`, `nextProblem` and `nextUnannotated` start at that
 * (problem, model)'s first sample (its first unannotated one); `previous` and `previousProblem` go to the
 * problem before. A sample outside the tree's list (the filter changed) steps from the start of the list.
 */
export function stepFrom(index: TraceIndex, order: TreeOrder, from: Cursor, how: Step): SampleRow | undefined {
  let problemId: number;
  let modelId: number;
  let sampleId: number | undefined;
  if ('sampleId' in from) {
    const s = index.sample(from.sampleId);
    if (!s) return undefined;
    ({ problemId, modelId } = s);
    sampleId = s.id;
  } else ({ problemId, modelId } = from);
  const problems = order.problems(modelId);
  let p = problems.indexOf(problemId);
  const forward = how === 'next' || how === 'nextProblem' || how === 'nextUnannotated';
  const wanted = (x: SampleRow) => how !== 'nextUnannotated' || (x.labels.length === 0 && !x.hasNote);
  const list = (i: number) => samplesInOrder(index, order, problems[i], modelId);
  if (p < 0) {
    // Not in the list: start from its beginning (forward) or its end (backward).
    for (let i = forward ? 0 : problems.length - 1; i >= 0 && i < problems.length; i += forward ? 1 : -1) {
      const l = list(i).filter(wanted);
      if (l.length) return forward || how === 'previousProblem' ? l[0] : l[l.length - 1];
    }
    return undefined;
  }
  if (sampleId === undefined) {
    // Before the first sample of this (problem, model): forward steps start here.
    const hit = forward ? list(p).find(wanted) : undefined;
    if (hit) return hit;
  } else if (how === 'next' || how === 'previous' || how === 'nextUnannotated') {
    const here = list(p);
    const at = here.findIndex((x) => x.id === sampleId);
    if (forward) {
      const hit = here.slice(at + 1).find(wanted);
      if (hit) return hit;
    } else if (at > 0) return here[at - 1];
  }
  for (p += forward ? 1 : -1; p >= 0 && p < problems.length; p += forward ? 1 : -1) {
    const l = list(p).filter(wanted);
    if (l.length) return how === 'previous' ? l[l.length - 1] : l[0];
  }
  return undefined;
}

/**
 * Next Unannotated Sample with wrap-around, as editors' "find next": the next unannotated sample after
 * `from` ({@link stepFrom}); when there is none after it, the first unannotated sample of the list
 * (`wrapped: true`), unless that is the sample at `from` itself. Undefined when no other sample of the
 * list is unannotated.
 */
export function nextUnannotatedWrapping(
  index: TraceIndex,
  order: TreeOrder,
  from: Cursor,
): { sample: SampleRow; wrapped: boolean } | undefined {
  const hit = stepFrom(index, order, from, 'nextUnannotated');
  if (hit) return { sample: hit, wrapped: false };
  const modelId = 'sampleId' in from ? index.sample(from.sampleId)?.modelId : from.modelId;
  if (modelId === undefined) return undefined;
  const first = stepFrom(index, order, { problemId: -1, modelId }, 'nextUnannotated');
  if (!first || ('sampleId' in from && first.id === from.sampleId)) return undefined;
  return { sample: first, wrapped: true };
}

/** One item of the Open Problem View quick pick. */
export interface ProblemPickItem {
  label: string;
  description: string;
  detail: string;
  /** The problem row id. */
  id: number;
}

/**
 * The items of the Open Problem View quick pick, one per problem in list order, except that the problem
 * selected in the Problems tree (row id `selected`; undefined: none) comes first, described as selected,
 * so that Enter opens it (the pick's first item is the active one; trial 4: the palette's command
 * ignored the selected row). Question texts are cut to 200 characters, white space collapsed.
 */
export function problemPickItems(
  rows: readonly { id: number; problemId: string; dataset: string; question: string | null }[],
  selected: number | undefined,
): ProblemPickItem[] {
  const items = rows.map((p) => ({
    label: `${p.problemId}`,
    description: p.id === selected ? `selected in the Problems tree${p.dataset ? ` · ${p.dataset}` : ''}` : p.dataset,
    detail: (p.question ?? '').slice(0, 200).replace(/\s+/g, ' '),
    id: p.id,
  }));
  const at = items.findIndex((i) => i.id === selected);
  if (at > 0) items.unshift(...items.splice(at, 1));
  return items;
}
