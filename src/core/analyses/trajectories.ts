/**
 * Training dynamics: every checkpoint of a training run ({@link detectSeries}) side by side, and every
 * problem followed across them. For each checkpoint (a *step*) of a series: sample accuracy, pass@1 and
 * pass@K with bootstrap intervals (K = the largest k every step reaches), and the comparison with the
 * step's own base model (the pairs of the report and the overview, `comparisonPairs`): categories and the
 * share of positive gains in correct samples that comes from problems the base already solves
 * (`positiveGainShare`), mean response length; for each problem its c and n per step, the first step
 * that solves it and the step from which a problem solved earlier stays unsolved (`lostAtStep`).
 *
 * Used by the CLI report (`trajectories`), the overview's Training tab and the tree's training filters.
 * Pure core: reads the index, no `vscode`. n is always the number of graded samples (a sample without
 * a verdict never counts as a failure).
 */
import { problemNamer } from '../grouping/datasets';
import { comparisonPairs, guessBaseModel } from '../index/labels';
import type { ModelRow, StatRow, TraceIndex } from '../index/traceIndex';
import {
  type BootstrapOptions,
  bootstrapPassAtKCurve,
  type CategoryCounts,
  type CurveCIPoint,
  categoryCounts,
  type PositiveGainShare,
  type ProblemCounts,
  type ProblemPair,
  positiveGainShare,
} from '../metrics';
import { detectSeries, type ModelSeries, type StepUnit } from '../grouping/series';
import {
  type Denominator,
  type LeftOut,
  denominator,
  nameProblems,
  type ProblemSet,
  problemSet,
} from '../metrics/denominators';

/**
 * A pass@k point with its bootstrap interval and denominator: `problems` entered the mean; `missing` =
 * the other problems, by reason in `leftOut` (src/core/metrics/denominators.ts). A step's whole is every problem
 * some checkpoint of the series has a record of (`notInStep`: this checkpoint has none); its base's
 * whole is the step's own problems, those with a graded sample at this step (`notInBase`: the base has no record
 * of it), so that a row's pass@k and its
 * base's are over the same problems (trial 12 finding 13: the base's was pooled over datasets the step never ran).
 */
export type TrajectoryPassAtK = Omit<CurveCIPoint, 'missing'> & Denominator;

/** One checkpoint of a series. */
export interface TrajectoryStep {
  /** Step number (`step-100` -> 100, `ckpt-2k` -> 2000). */
  step: number;
  /** Display id (`run:name@revision`) and label of the checkpoint's model. */
  model: string;
  label: string;
  /** Display id of the base model this step is compared with; null when it has none. */
  base: string | null;
  /** All samples, graded samples and correct samples of the step's model. */
  samples: number;
  graded: number;
  correct: number;
  /** Problems with graded samples (the denominator of sample accuracy and pass@k). */
  problems: number;
  /**
   * The series' other problems (some checkpoint has a record of them), by reason: no samples, no graded
   * sample at this step, or no record at this step (`notInStep`). `problems + missing` is the same at every step.
   */
  missing: number;
  leftOut: LeftOut;
  /** correct / graded; null without graded samples. */
  sampleAccuracy: number | null;
  /** pass@1 and pass@K (K = the series' `k`), 95% bootstrap over problems. */
  passAtK: TrajectoryPassAtK[];
  /**
   * The same for the step's base model (the reference line) over the step's own problems (those with a graded
   * sample at this step; the base's other problems are left out, those it lacks counted in `notInBase`); empty
   * without a base.
   */
  basePassAtK: TrajectoryPassAtK[];
  /** The base's problems among the step's, per dataset (what `basePassAtK` is over; the CSV's `datasets`); empty without a base. */
  baseDatasets: { dataset: string; problems: number }[];
  /** Problems both the step and its base have graded samples for: the denominator of the next two. */
  pairedProblems: number;
  /** Per-problem categories against the base (sharpening, expansion, regression, unchanged, unsolved); null without a base. */
  categories: CategoryCounts | null;
  /** Share of positive gains in correct samples from sharpening vs expansion; null without a base. */
  positiveGainShare: PositiveGainShare | null;
  /**
   * Mean response length in characters (Unicode code points: an emoji counts 1) over all samples of the
   * step; null when not computed (`problemsOnly`) or the step has no sample.
   */
  meanChars: number | null;
  /** The same for the step's base model. */
  baseMeanChars: number | null;
}

/** How a problem's solved state (c >= 1) moves across the steps that have graded samples for it. */
export type TrajectoryPattern = 'gained' | 'lost' | 'flip-flop' | 'always' | 'never';

/** One problem across the steps of a series. */
export interface TrajectoryProblem {
  problemId: string;
  dataset: string;
  /** c per step, in step order; null where the step has no graded sample of the problem. */
  correctByStep: (number | null)[];
  /** n (graded samples) per step; 0 where the step has none. */
  nByStep: number[];
  /** c and n of each step's base model (null / 0 where there is none). */
  baseCorrectByStep: (number | null)[];
  baseNByStep: number[];
  /** First step with c >= 1; null when no step solves it. */
  firstSolvedStep: number | null;
  /**
   * When the problem was lost: the first step of the final run of unsolved steps (c = 0, n >= 1; steps
   * without graded samples are skipped), when an earlier step solved it (c >= 1). Null when it is solved
   * at its last step with graded samples, or never solved. c = 1, 0, 0 at steps 100, 300, 1000 -> 300
   * (not 1000, the last unsolved step, which is always the last step and says nothing about when).
   */
  lostAtStep: number | null;
  /**
   * `gained`: unsolved, then solved to the end (one change); `lost`: solved, then unsolved to the end;
   * `flip-flop`: two or more changes; `always` / `never`: solved at every / no step with samples.
   */
  pattern: TrajectoryPattern;
}

/** One checkpoint series with its steps and problems. */
export interface Trajectory {
  /** The series' masked identity, e.g. `trajectory/step-*:expx/qwen-2.5-1.5b-rlvr-ppo@step-*`. */
  name: string;
  /**
   * What the step numbers count: `step` (training steps / iterations) or `epoch` (`epoch_3`, `ep3`;
   * src/core/grouping/series.ts). A series never mixes the two.
   */
  unit: StepUnit;
  /** The largest k every step reaches (the smallest of the steps' largest n); null without graded samples. */
  k: number | null;
  /**
   * First step of the later half of the checkpoints (the last floor(S/2) of S steps): "solved only at
   * late steps" means first solved at or after it.
   */
  lateFromStep: number;
  steps: TrajectoryStep[];
  /** Every problem some step has graded samples for, in natural (dataset, problem id) order. */
  problems: TrajectoryProblem[];
}

/** A {@link Trajectory} with the index row ids behind it (for the overview and the tree; not in the report JSON). */
export interface TrajectoryDetail extends Trajectory {
  ids: { models: number[]; bases: (number | null)[]; problems: number[] };
}

/** Options of {@link computeTrajectories}. */
export interface TrajectoryOptions extends BootstrapOptions {
  /** The base model (as in the report: chosen, or the folder's guess); absent: guessed from names (`guessBaseModel`). */
  base?: ModelRow;
  /** Whether the base was chosen (every step against it) or guessed (each run against its own base). */
  baseIsChoice?: boolean;
  /** Step pattern (regular expression source); empty: the built-in one (src/core/grouping/series.ts). */
  stepPattern?: string | null;
  /** Per-problem rows only: no bootstrap, no gain share, no response lengths (for the tree's filters). */
  problemsOnly?: boolean;
  /** The index's models and stats, when the caller already has them. */
  models?: ModelRow[];
  stats?: StatRow[];
}

const COLLATOR = new Intl.Collator('en', { numeric: true });

/**
 * The checkpoint series among `models` ({@link detectSeries}) and the base each model is compared with
 * (`comparisonPairs`: the chosen base for every model, or each run's own base while the base is a guess;
 * absent `base`: the folder's guess). Bases are never steps.
 * @throws Error on an invalid step pattern.
 */
export function checkpointSeries(
  models: readonly ModelRow[],
  opts: Pick<TrajectoryOptions, 'base' | 'baseIsChoice' | 'stepPattern'> = {},
): { series: ModelSeries<ModelRow>[]; warnings: string[]; baseOf: Map<number, ModelRow> } {
  const base = opts.base ?? (models.length > 0 ? models[guessBaseModel(models)] : undefined);
  const pairs = comparisonPairs(models, base, !!opts.baseIsChoice && !!opts.base);
  const baseOf = new Map(pairs.map(([b, m]) => [m.id, b]));
  const bases = new Set(pairs.map(([b]) => b.id));
  if (base) bases.add(base.id);
  return { ...detectSeries(models, { pattern: opts.stepPattern, exclude: bases }), baseOf };
}

/**
 * Every checkpoint series of the index with its figures (see the module comment). Bases (the models
 * some model is compared with) are never steps. Bootstrap: seeded (default 2000 replicates, seed
 * 12345), so figures are identical on every run and equal the report's per-model pass@k intervals.
 *
 * @returns the trajectories (series in natural name order) and warnings (ambiguous steps, ragged n).
 * @throws Error on an invalid step pattern.
 */
export function computeTrajectories(
  index: TraceIndex,
  opts: TrajectoryOptions = {},
): { trajectories: TrajectoryDetail[]; warnings: string[] } {
  const models = opts.models ?? index.models();
  const { series, warnings, baseOf } = checkpointSeries(models, opts);
  if (series.length === 0) return { trajectories: [], warnings };

  const { byModel, allRows } = statsByModel(opts.stats ?? index.allStats());
  const lengths = new Map<number, number | null>();
  const run: Run = {
    index,
    opts,
    baseOf,
    byModel,
    allRows,
    boot: { replicates: opts.replicates ?? 2000, seed: opts.seed ?? 12345, level: opts.level },
    problemRows: problemRowsOf(index),
    counts: (modelId) =>
      modelId === undefined ? [] : [...(byModel.get(modelId)?.values() ?? [])].map((r) => ({ n: r.graded, c: r.c })),
    meanChars: (modelId) => {
      if (opts.problemsOnly || modelId === undefined) return null;
      if (!lengths.has(modelId)) lengths.set(modelId, meanTextLength(index, modelId));
      return lengths.get(modelId) ?? null;
    },
    warnings,
  };
  return { trajectories: series.map((s) => seriesTrajectory(run, s)), warnings };
}

/** A problem's row in the index: its dataset and its id as the folder spells it. */
type ProblemRow = { id: number; dataset: string; problemId: string };

/** What the figures of every series share: the index's stats by model, the bootstrap, the warnings so far. */
interface Run {
  index: TraceIndex;
  opts: TrajectoryOptions;
  /** The base each step model is compared with. */
  baseOf: Map<number, ModelRow>;
  /** Graded stats rows by model id, then problem id. */
  byModel: Map<number, Map<number, StatRow>>;
  /** Every stats row of a model, graded or not: the denominators. */
  allRows: Map<number, StatRow[]>;
  boot: BootstrapOptions;
  problemRows: Map<number, ProblemRow>;
  /** A model's per-problem graded n and c ([] for no model). */
  counts: (modelId: number | undefined) => ProblemCounts[];
  /** A model's mean response length (cached; null for no model or `problemsOnly`). */
  meanChars: (modelId: number | undefined) => number | null;
  warnings: string[];
}

/** Stats rows by model: the graded ones by problem id, and all of them (the denominators). */
function statsByModel(stats: Iterable<StatRow>): Pick<Run, 'byModel' | 'allRows'> {
  const byModel = new Map<number, Map<number, StatRow>>();
  const allRows = new Map<number, StatRow[]>();
  for (const s of stats) {
    const list = allRows.get(s.modelId) ?? [];
    list.push(s);
    allRows.set(s.modelId, list);
    if (s.graded === 0) continue;
    let m = byModel.get(s.modelId);
    if (!m) byModel.set(s.modelId, (m = new Map()));
    m.set(s.problemId, s);
  }
  return { byModel, allRows };
}

function problemRowsOf(index: TraceIndex): Map<number, ProblemRow> {
  return new Map(
    (index.db.prepare('SELECT id, dataset, problem_id AS problemId FROM problems').all() as ProblemRow[]).map((p) => [
      p.id,
      p,
    ]),
  );
}

/** One series: its K, a row of figures per step, and each problem followed across the steps. */
function seriesTrajectory(run: Run, s: ModelSeries<ModelRow>): TrajectoryDetail {
  const k = seriesK(run, s);
  const ks = k === null ? [] : k > 1 ? [1, k] : [1];
  const universe = new Set<number>();
  for (const st of s.steps) for (const r of run.allRows.get(st.model.id) ?? []) universe.add(r.problemId);
  const steps = s.steps.map((st) => stepFigures(run, s.name, st, universe, ks));
  const baseIds = s.steps.map((st) => run.baseOf.get(st.model.id)?.id ?? null);
  const stepNumbers = s.steps.map((st) => st.step);
  const { problems, ids } = followProblems(run, s, baseIds);
  return {
    name: s.name,
    unit: s.unit,
    k,
    lateFromStep: stepNumbers[Math.ceil(stepNumbers.length / 2)],
    steps,
    problems,
    ids: { models: s.steps.map((st) => st.model.id), bases: baseIds, problems: ids },
  };
}

/** K of a series: the largest k every step reaches (null when no step has a graded sample); ragged n warned. */
function seriesK(run: Run, s: ModelSeries<ModelRow>): number | null {
  const maxNs = s.steps.map((st) => run.counts(st.model.id).reduce((a, p) => Math.max(a, p.n), 0)).filter((n) => n > 0);
  const k = maxNs.length > 0 ? Math.min(...maxNs) : null;
  if (k !== null && Math.max(...maxNs) !== k)
    run.warnings.push(
      `series ${s.name}: the steps' largest n differ (${Math.min(...maxNs)}..${Math.max(...maxNs)}); pass@k is shown at k = ${k}, the largest k every step reaches`,
    );
  return k;
}

/** One step's row: its figures over its graded problems, its base's over the same problems, and the comparison. */
function stepFigures(
  run: Run,
  seriesName: string,
  st: ModelSeries<ModelRow>['steps'][number],
  universe: ReadonlySet<number>,
  ks: number[],
): TrajectoryStep {
  const { opts, byModel, allRows } = run;
  const m = st.model;
  const base = run.baseOf.get(m.id);
  const own = problemSet(allRows.get(m.id) ?? []);
  const ownIds = new Set((allRows.get(m.id) ?? []).map((r) => r.problemId));
  const notInStep = [...universe].filter((id) => !ownIds.has(id));
  const stepSet = { total: universe.size, noSamples: own.noSamples, ungraded: own.ungraded };
  const rows = [...(byModel.get(m.id)?.values() ?? [])];
  const b = baseOverStep(run, base, rows);
  const graded = rows.reduce((a, r) => a + r.graded, 0);
  const correct = rows.reduce((a, r) => a + r.c, 0);
  const ps = problemPairs(rows, base ? byModel.get(base.id) : undefined);
  const curve = (
    pc: ProblemCounts[],
    set: Pick<ProblemSet, 'total' | 'noSamples' | 'ungraded'>,
    extra: { notInStep?: number; notInBase?: number } = {},
  ) =>
    opts.problemsOnly || pc.length === 0
      ? []
      : bootstrapPassAtKCurve(pc, ks, run.boot).map(({ missing, ...p }) => ({
          ...p,
          ...denominator(set, p.problems, missing, extra),
        }));
  const whole = denominator(stepSet, rows.length, 0, { notInStep: notInStep.length });
  if (whole.missing > 0 && !opts.problemsOnly)
    run.warnings.push(
      stepWarning(run.index, seriesName, st.step, whole, allRows.get(m.id) ?? [], notInStep, base ? b.set : null),
    );
  return {
    step: st.step,
    model: m.displayId,
    label: m.label,
    base: base?.displayId ?? null,
    samples: m.samples,
    graded,
    correct,
    problems: rows.length,
    missing: whole.missing,
    leftOut: whole.leftOut,
    sampleAccuracy: graded > 0 ? correct / graded : null,
    passAtK: curve(run.counts(m.id), stepSet, { notInStep: notInStep.length }),
    basePassAtK: base ? curve(b.counts, b.set, { notInBase: b.notInBase }) : [],
    baseDatasets: [...b.datasets]
      .sort(([x], [y]) => COLLATOR.compare(x, y))
      .map(([dataset, problems]) => ({ dataset, problems })),
    pairedProblems: ps.length,
    categories: base ? categoryCounts(ps) : null,
    positiveGainShare: base && !opts.problemsOnly ? positiveGainShare(ps, run.boot) : null,
    meanChars: run.meanChars(m.id),
    baseMeanChars: run.meanChars(base?.id),
  };
}

/**
 * The base over the step's own problems (those its pass@k is over: a graded sample at this step), so that
 * the row's two pass@k are over the same problems (trial 12 finding 13: the base's pooled other datasets):
 * its problem set, graded counts, the step's problems it lacks, and its problems per dataset.
 */
function baseOverStep(
  run: Run,
  base: ModelRow | undefined,
  stepRows: readonly StatRow[],
): { set: ProblemSet; counts: ProblemCounts[]; notInBase: number; datasets: Map<string, number> } {
  const stepGraded = new Set(stepRows.map((r) => r.problemId));
  const baseAll = base ? (run.allRows.get(base.id) ?? []).filter((r) => stepGraded.has(r.problemId)) : [];
  const datasets = new Map<string, number>();
  for (const r of baseAll) {
    const d = run.problemRows.get(r.problemId)?.dataset ?? '';
    datasets.set(d, (datasets.get(d) ?? 0) + 1);
  }
  return {
    set: { ...problemSet(baseAll), total: base ? stepGraded.size : 0 },
    counts: baseAll.filter((r) => r.graded > 0).map((r) => ({ n: r.graded, c: r.c })),
    notInBase: base ? stepGraded.size - baseAll.length : 0,
    datasets,
  };
}

/** The step's graded problems its base also has graded, as (base, model) count pairs. */
function problemPairs(rows: readonly StatRow[], baseRows: Map<number, StatRow> | undefined): ProblemPair[] {
  const ps: ProblemPair[] = [];
  if (baseRows)
    for (const r of rows) {
      const b = baseRows.get(r.problemId);
      if (b)
        ps.push({
          problemKey: String(r.problemId),
          base: { n: b.graded, c: b.c },
          model: { n: r.graded, c: r.c },
        });
    }
  return ps;
}

/** Every problem graded at some step of the series, in dataset then id order, with its c and n per step. */
function followProblems(
  run: Run,
  s: ModelSeries<ModelRow>,
  baseIds: readonly (number | null)[],
): { problems: TrajectoryProblem[]; ids: number[] } {
  const { byModel, problemRows } = run;
  const problemIds = new Set<number>();
  for (const st of s.steps) for (const id of byModel.get(st.model.id)?.keys() ?? []) problemIds.add(id);
  const ordered = [...problemIds]
    .map((id) => ({ id, row: problemRows.get(id) }))
    .filter((p): p is { id: number; row: ProblemRow } => !!p.row)
    .sort(
      (a, b) => COLLATOR.compare(a.row.dataset, b.row.dataset) || COLLATOR.compare(a.row.problemId, b.row.problemId),
    );
  const stepNumbers = s.steps.map((st) => st.step);
  const problems = ordered.map(({ id, row }) => {
    const cell = (modelId: number | null | undefined) =>
      modelId === null || modelId === undefined ? undefined : byModel.get(modelId)?.get(id);
    const own = s.steps.map((st) => cell(st.model.id));
    const base = baseIds.map((b) => cell(b));
    const correctByStep = own.map((r) => (r ? r.c : null));
    return {
      problemId: row.problemId,
      dataset: row.dataset,
      correctByStep,
      nByStep: own.map((r) => r?.graded ?? 0),
      baseCorrectByStep: base.map((r) => (r ? r.c : null)),
      baseNByStep: base.map((r) => r?.graded ?? 0),
      ...followProblem(correctByStep, stepNumbers),
    };
  });
  return { problems, ids: ordered.map((p) => p.id) };
}

/**
 * The warning of a checkpoint whose figures leave out some of the series' problems: how many by reason,
 * the problems named (at most 5 per reason), and what its base's figures are over, so that the table's
 * `4/6` beside a base over 6 is explained where it is read.
 */
function stepWarning(
  index: TraceIndex,
  series: string,
  step: number,
  whole: Denominator,
  ownRows: StatRow[],
  notInStep: number[],
  baseSet: ReturnType<typeof problemSet> | null,
): string {
  const namer = problemNamer(index);
  const name = (ids: number[]) => ` ${nameProblems(ids, namer)}`;
  const ids = (rows: StatRow[], pick: (r: StatRow) => boolean) => rows.filter(pick).map((r) => r.problemId);
  const parts: string[] = [];
  const noSamples = ids(ownRows, (r) => r.n === 0);
  const ungraded = ids(ownRows, (r) => r.n > 0 && r.graded === 0);
  if (noSamples.length) parts.push(`${noSamples.length} without samples${name(noSamples)}`);
  if (ungraded.length) parts.push(`${ungraded.length} without a graded sample${name(ungraded)}`);
  if (notInStep.length) parts.push(`${notInStep.length} not in this checkpoint's results${name(notInStep)}`);
  const baseOver = baseSet
    ? `; its base's figures are over ${baseSet.graded.length === baseSet.total ? 'the same' : `${baseSet.graded.length} of the same`} ${baseSet.total} problems (those with a graded sample at this step)`
    : '';
  return `series ${series} step ${step}: figures over ${whole.problems} of the series' ${whole.problems + whole.missing} problems: ${parts.join(', ')}${baseOver}`;
}

/**
 * First solved step, the step it was lost at (the first of its final unsolved run) and pattern of one problem from its c per step (null = no graded
 * sample at that step: skipped) and the step numbers (see {@link TrajectoryProblem}).
 */
export function followProblem(
  correctByStep: readonly (number | null)[],
  steps: readonly number[],
): Pick<TrajectoryProblem, 'firstSolvedStep' | 'lostAtStep' | 'pattern'> {
  let firstSolvedStep: number | null = null;
  let lostAtStep: number | null = null;
  let changes = 0;
  let prev: boolean | undefined;
  let solvedAny = false;
  let unsolvedAny = false;
  for (let i = 0; i < correctByStep.length; i++) {
    const c = correctByStep[i];
    if (c === null) continue;
    const solved = c >= 1;
    if (solved && firstSolvedStep === null) firstSolvedStep = steps[i];
    // the first unsolved step after a solved one opens a run; a later solved step closes it
    if (solved) lostAtStep = null;
    else if (prev === true) lostAtStep = steps[i];
    if (prev !== undefined && prev !== solved) changes++;
    prev = solved;
    if (solved) solvedAny = true;
    else unsolvedAny = true;
  }
  let pattern: TrajectoryPattern;
  if (!solvedAny) pattern = 'never';
  else if (!unsolvedAny) pattern = 'always';
  else if (changes >= 2) pattern = 'flip-flop';
  else pattern = prev ? 'gained' : 'lost';
  return { firstSolvedStep, lostAtStep, pattern };
}

/**
 * Problems (indices into `t.problems`) of the tree's training filters:
 * - `lost`: lost during training: solved at an earlier step and not solved at the last step (the last
 *   step has graded samples of it with c = 0; `lostAtStep` says since when);
 * - `late`: solved only at late steps: first solved at or after `lateFromStep` (no earlier step solves it).
 */
export function trajectoryFilter(t: Trajectory, kind: 'lost' | 'late'): number[] {
  const out: number[] = [];
  t.problems.forEach((p, i) => {
    const hit =
      kind === 'lost'
        ? p.lostAtStep !== null && p.correctByStep[p.correctByStep.length - 1] === 0
        : p.firstSolvedStep !== null && p.firstSolvedStep >= t.lateFromStep;
    if (hit) out.push(i);
  });
  return out;
}

const PATTERN_ORDER: Record<TrajectoryPattern, number> = { gained: 0, lost: 1, 'flip-flop': 2, always: 3, never: 4 };

/**
 * Row order of the problems x steps heatmap (indices into `problems`): gained problems first (by the
 * step they are first solved at), then lost ones (by the step they are lost at), then flip-flopping
 * ones (most changes first), then those solved at every step (largest rise in c/n from the first to
 * the last step first), then those never solved; ties keep the natural problem order.
 */
export function clusterOrder(problems: readonly TrajectoryProblem[]): number[] {
  const rate = (p: TrajectoryProblem, i: number) =>
    p.nByStep[i] > 0 ? (p.correctByStep[i] ?? 0) / p.nByStep[i] : null;
  const rise = (p: TrajectoryProblem) => {
    const rates = p.nByStep.map((_, i) => rate(p, i)).filter((r): r is number => r !== null);
    return rates.length ? rates[rates.length - 1] - rates[0] : 0;
  };
  const changes = (p: TrajectoryProblem) => {
    let n = 0;
    let prev: boolean | undefined;
    for (const c of p.correctByStep) {
      if (c === null) continue;
      if (prev !== undefined && prev !== c >= 1) n++;
      prev = c >= 1;
    }
    return n;
  };
  const key = (p: TrajectoryProblem): number => {
    switch (p.pattern) {
      case 'gained':
        return p.firstSolvedStep ?? 0;
      case 'lost':
        return p.lostAtStep ?? 0;
      case 'flip-flop':
        return -changes(p);
      case 'always':
        return -rise(p);
      case 'never':
        return 0;
    }
  };
  return problems
    .map((p, i) => ({ i, g: PATTERN_ORDER[p.pattern], k: key(p) }))
    .sort((a, b) => a.g - b.g || a.k - b.k || a.i - b.i)
    .map((x) => x.i);
}

/** The report's form of a trajectory: without the index row ids. */
export function reportTrajectory(t: TrajectoryDetail): Trajectory {
  const { ids: _ids, ...rest } = t;
  return rest;
}

/**
 * Mean length in characters (Unicode code points) of every sample text of one model, or null when it
 * has none: from the length stored while indexing (`samples.text_length`, schema migration 11; the
 * index keeps no copy of a JSONL sample's text).
 */
function meanTextLength(index: TraceIndex, modelId: number): number | null {
  const r = index.db
    .prepare('SELECT count(*) AS n, coalesce(sum(text_length), 0) AS chars FROM samples WHERE model_id = ?')
    .get(modelId) as { n: number; chars: number };
  return r.n === 0 ? null : r.chars / r.n;
}
