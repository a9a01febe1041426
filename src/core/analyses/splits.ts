/**
 * The split matrix (issue 35, "generalisation across splits"; the *Rethinking RL evaluation* paper's
 * difficulty, cluster and train/test splits): rows are models (seeds of one model pooled as one row),
 * columns the evaluation splits (splitDefinitions.ts), each cell pass@1 and pass@k with a bootstrap
 * interval over the split's problems (and seeds), its problems and n; the in-distribution cell marked; the
 * same cells relative to the base model on the same split (paired difference, interval, sign-flip
 * permutation p-value with Holm's correction), so that a harder split does not read as worse
 * generalisation; per trained model the average over the splits it was not trained on, raw and relative to
 * the base (the difficulty-controlled view); and oracle performance gaps (a model trained on a split
 * against one trained elsewhere, both evaluated on that split). Pure: reads the index, no `vscode`.
 */

import { type BootstrapOptions, type ResolvedOptions, resolveBootstrapOptions } from '../metrics/bootstrap';
import { passAtK } from '../metrics/passAtK';
import { guessBaseModel, pickModel } from '../index/labels';
import type { ModelRow, StatRow, TraceIndex } from '../index/traceIndex';
import { seedSiblings, stripSeedTokens } from '../grouping/seeds';
import {
  type Arm,
  averageOfCells,
  type CellEstimate,
  cellEstimate,
  holmAdjust,
  EXACT_SIGN_FLIP_MAX,
  type SignFlipResult,
  signFlipTest,
} from './splitStats';
import { defineSplits, type SplitDefinition, type SplitKind } from './splitDefinitions';
import type { SplitCellData, SplitDifferenceData, SplitEstimateData } from '../../shared/protocol';

/** Options of {@link buildSplitsReport}. */
export interface SplitsOptions extends Pick<BootstrapOptions, 'replicates' | 'seed'> {
  splits: SplitKind;
  /** The k of the pass@k column besides pass@1; default: the largest power of two <= the smallest of the models' largest n. */
  k?: number;
  /** Base model: a substring of its id or label (as `--base`); default the guess of the report. */
  base?: string;
  /** Base model by its index row id (the extension's base model); wins over `base`. */
  baseModelId?: number;
  /** What a model was trained on: `[model substring, split name]` pairs (a setting; wins over the name pattern). */
  trainedOn?: readonly (readonly [string, string])[];
  /** A regular expression over the model's id (case-insensitive) whose first group names its training split; default {@link defaultTrainedPattern}. */
  trainedPattern?: string;
  /** Family-wise error rate of the significance statements; default 0.05. */
  alpha?: number;
}

/** A cell's figure with its interval (defined with the webview's protocol, which carries the cells unchanged). */
export type SplitEstimate = SplitEstimateData;
/** A paired difference with its significance statement. */
export type SplitDifference = SplitDifferenceData;
/** One cell of the matrix: a model (row) on a split (column). */
export type SplitCell = SplitCellData;

/** The difficulty-controlled view of one trained model: its figures over the splits it was not trained on. */
export interface OutOfDistribution {
  model: string;
  trainedOn: string;
  /** The splits averaged (each split weighs the same). */
  splits: string[];
  /** Mean of the model's pass@1 over those splits (uncontrolled: depends on how hard they are). */
  raw: { value: number | null; ciLow: number | null; ciHigh: number | null };
  /** Mean of (model - base) pass@1 over those splits, the same base on the same problems: the controlled figure. */
  relative: { value: number | null; ciLow: number | null; ciHigh: number | null } | null;
}

/** An oracle performance gap: on split `split`, the model trained on it minus a model trained elsewhere. */
export interface OracleGap {
  split: string;
  /** The model trained on `split`. */
  oracle: string;
  /** The model trained on `trainedOn`, evaluated on `split`. */
  model: string;
  trainedOn: string;
  passAt1: SplitDifference;
  passAtK: SplitEstimate;
}

/** A model row: seeds of one model pooled. */
export interface SplitModel {
  name: string;
  /** Display ids of its seeds (one when it has no seed siblings). */
  seeds: string[];
  trainedOn: string | null;
  /** Where `trainedOn` came from. */
  trainedOnSource: 'setting' | 'name' | null;
}

/** The `report --splits` output (JSON). */
export interface SplitsReport {
  kind: SplitKind['kind'];
  method: string;
  k: number;
  base: string | null;
  splits: {
    name: string;
    label: string;
    problems: number;
    problemIds: string[];
    terms?: string[];
    examples?: { problem: string; text: string }[];
  }[];
  unassigned: { problems: number; named: string[]; why: string };
  models: SplitModel[];
  cells: SplitCell[];
  outOfDistribution: OutOfDistribution[];
  oracleGaps: OracleGap[];
  /** Splits (rows) against the dataset's own levels (columns): problem counts; where the kind is not `level` and levels exist. */
  levelAgreement?: { levels: string[]; rows: { split: string; counts: number[] }[] };
  /** How the intervals and tests are made, in words. */
  uncertainty: { replicates: number; seed: number; level: number; intervals: string; seeds: string };
  significance: { test: string; correction: string; alpha: number; families: string; note: string };
  warnings: string[];
}

/**
 * The default training-split pattern: `trained-on-<split>`, `train_<split>`, `level3` / `lvl-3` / `l3`,
 * `cluster2`, `on-test` (the first group; compared with split names case-insensitively).
 */
export const defaultTrainedPattern =
  '(?:^|[^a-z0-9])(?:trained[-_ ]?on[-_ ]?|train[-_]|on[-_])(?:level|lvl|cluster|split|subject)?[-_ ]?([a-z0-9]+)|(?:^|[^a-z0-9])(?:level|lvl|cluster|l)[-_]?(\\d+)(?![0-9])';

/** Per-problem pass@k of one model's stats over a split's problems (NaN where it has no graded sample or n < k). */
function splitValues(rows: Map<number, StatRow>, problems: readonly number[], k: number): Float64Array {
  return Float64Array.from(problems, (p) => {
    const r = rows.get(p);
    if (!r || r.graded === 0) return NaN;
    const v = passAtK(r.graded, r.c, k);
    return v === null ? NaN : v;
  });
}

function estimate(e: CellEstimate): SplitEstimate {
  return { value: e.value, ciLow: e.ciLow, ciHigh: e.ciHigh, problems: e.problems, missing: e.missing };
}

/** Rows of the matrix: seed siblings pooled (seeds.ts), other models alone, in the index's model order. */
function modelGroups(models: readonly ModelRow[]): ModelRow[][] {
  const groups = seedSiblings(models);
  const groupOf = new Map<number, ModelRow[]>();
  for (const g of groups) for (const m of g) groupOf.set(m.id, g);
  const out: ModelRow[][] = [];
  const seen = new Set<ModelRow[]>();
  for (const m of models) {
    const g = groupOf.get(m.id);
    if (!g) out.push([m]);
    else if (!seen.has(g)) {
      seen.add(g);
      out.push(g);
    }
  }
  return out;
}

function groupName(g: readonly ModelRow[]): string {
  if (g.length === 1) return g[0].displayId;
  return (
    g[0].displayId
      .split('/')
      .map((s) => stripSeedTokens(s))
      .filter((s) => s !== '')
      .join('/') || g[0].displayId
  );
}

/** Normalised split name for matching (`Level 3` = `level_3` = `3` for levels). */
function norm(s: string): string {
  return s.toLowerCase().replace(/[\s_-]+/g, '');
}

/** What each row was trained on: a setting (pickModel over the rows), else the name pattern; unknown names warned. */
function trainedSplits(
  groups: readonly ModelRow[][],
  names: readonly string[],
  def: SplitDefinition,
  options: SplitsOptions,
  warnings: string[],
): Pick<SplitModel, 'trainedOn' | 'trainedOnSource'>[] {
  const splitByNorm = new Map(def.splits.map((s) => [norm(s.name), s.name]));
  const out: Pick<SplitModel, 'trainedOn' | 'trainedOnSource'>[] = groups.map(() => ({
    trainedOn: null,
    trainedOnSource: null,
  }));
  const rows = groups.map((g, i) => ({
    displayId: names[i],
    label: g.map((m) => `${m.displayId} ${m.label}`).join('\n'),
  }));
  for (const [model, split] of options.trainedOn ?? []) {
    const i = pickModel(rows, model);
    if (i < 0) throw new Error(`--trained-on: no model matches "${model}"; models: ${names.join(', ')}`);
    const s = splitByNorm.get(norm(split));
    if (s === undefined)
      throw new Error(
        `--trained-on: "${split}" is no split of this kind; splits: ${def.splits.map((x) => x.name).join(', ')}`,
      );
    out[i] = { trainedOn: s, trainedOnSource: 'setting' };
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(options.trainedPattern ?? defaultTrainedPattern, 'i');
  } catch (e) {
    throw new Error(`--trained-pattern: ${(e as Error).message}`);
  }
  groups.forEach((g, i) => {
    if (out[i].trainedOn !== null) return;
    for (const m of g) {
      const hit = pattern.exec(m.displayId);
      const word = hit?.slice(1).find((x) => x !== undefined);
      if (!word) continue;
      const s = splitByNorm.get(norm(word));
      if (s !== undefined) {
        out[i] = { trainedOn: s, trainedOnSource: 'name' };
        return;
      }
      if (options.trainedPattern)
        warnings.push(
          `${names[i]}: its name says trained on "${word}", which is no split of this kind (${def.splits.map((x) => x.name).join(', ')}): no in-distribution cell`,
        );
    }
  });
  return out;
}

/** Default k: the largest power of two <= the smallest, over models, of the model's largest graded n. */
function defaultK(stats: Map<number, Map<number, StatRow>>): number {
  let minMax = Infinity;
  for (const rows of stats.values()) {
    let mx = 0;
    for (const r of rows.values()) mx = Math.max(mx, r.graded);
    if (mx > 0) minMax = Math.min(minMax, mx);
  }
  if (!Number.isFinite(minMax)) return 1;
  let k = 1;
  while (k * 2 <= minMax) k *= 2;
  return k;
}

function naturalOrder(a: string, b: string): number {
  return Number(a) - Number(b) || a.localeCompare(b);
}

/**
 * Builds the split matrix of the index (see the module comment).
 *
 * Cells: the split's problems that the model (any of its seeds) has graded samples of; per problem and
 * seed pass@k from its graded n and correct c (Chen et al. 2021); a seed's value is left out where it has
 * no graded sample or n < k; the row's value of a problem is the mean over its seeds. Intervals: seeded
 * percentile bootstrap over the split's problems, two-stage over seeds where a row has several
 * (splitStats.ts `cellEstimate`). Relative cells and oracle gaps: paired on the problems both rows have.
 * Significance: a sign-flip permutation test of each pass@1 difference, Holm-adjusted within its family
 * (the relative cells; the oracle gaps).
 * @throws Error when `base` (or `baseModelId`) matches no model, a training setting names no model or split, or on an invalid
 *   pattern, split file or cluster option.
 */
export function buildSplitsReport(index: TraceIndex, options: SplitsOptions): SplitsReport {
  return buildSplitsMatrix(index, options).report;
}

/**
 * {@link buildSplitsReport} with the split definition it was built on (splitDefinitions.ts: each split's problem
 * row ids, which the report names only by problem id): for a caller that goes from a split back to the index's
 * problems (the overview's Splits tab filters the tree to a split's problems). Same options and errors.
 */
export function buildSplitsMatrix(
  index: TraceIndex,
  options: SplitsOptions,
): { report: SplitsReport; definition: SplitDefinition } {
  const o = resolveBootstrapOptions({ replicates: options.replicates, seed: options.seed });
  const alpha = options.alpha ?? 0.05;
  const def = defineSplits(index, options.splits);
  const warnings = [...def.warnings];
  const models = index.models();
  const stats = statsByModel(index);
  const k = options.k ?? defaultK(stats);
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${String(k)}`);
  const groups = modelGroups(models);
  const names = groups.map(groupName);
  const baseRow = baseRowOf(models, groups, options.base, options.baseModelId);
  const trained = trainedSplits(groups, names, def, options, warnings);
  const splitSeed = (j: number) => (o.seed + 1000003 * (j + 1)) >>> 0;
  const bo = (j: number) => ({ replicates: o.replicates, seed: splitSeed(j), level: o.level });
  const arms = (g: readonly ModelRow[], problems: readonly number[], kk: number, sign: 1 | -1): Arm => ({
    values: g.map((m) => splitValues(stats.get(m.id) ?? new Map(), problems, kk)),
    sign,
  });
  const matrix: Matrix = { def, stats, groups, names, trained, k, baseRow, arms, bo };

  const work = matrixCells(matrix);
  const relativeTests = testRelativeCells(work, o, alpha);
  const ood = outOfDistribution(matrix, work, o.level);
  const gaps = oracleGaps(def, groups, names, trained, k, arms, bo, o, alpha);
  const problemName = (id: number) => def.problems.get(id)?.name ?? String(id);
  if (def.splits.length === 0)
    warnings.push(
      `no split: none of the ${def.problems.size} problems is in one (${def.unassigned.why}), so the matrix is empty`,
    );
  if (baseRow < 0)
    warnings.push(
      'no base model (none given with --base, and none guessed: the folder holds one model or only seeds of one): no cell relative to the base',
    );
  const levelAgreement = def.kind !== 'level' ? agreement(def) : undefined;
  const report: SplitsReport = {
    kind: def.kind,
    method: def.method,
    k,
    base: baseRow >= 0 ? names[baseRow] : null,
    splits: def.splits.map((s) => ({
      name: s.name,
      label: s.label,
      problems: s.problems.length,
      problemIds: s.problems.map(problemName),
      ...(s.terms ? { terms: s.terms, examples: s.examples } : {}),
    })),
    unassigned: {
      problems: def.unassigned.problems.length,
      named: def.unassigned.problems.slice(0, 10).map(problemName),
      why: def.unassigned.why,
    },
    models: groups.map((g, gi) => ({ name: names[gi], seeds: g.map((m) => m.displayId), ...trained[gi] })),
    cells: work.map((w) => w.cell),
    outOfDistribution: ood,
    oracleGaps: gaps,
    ...(levelAgreement ? { levelAgreement } : {}),
    uncertainty: uncertaintyMethod(o),
    significance: significanceMethod(o, alpha, relativeTests, gaps.length),
    warnings,
  };
  return { report, definition: def };
}

/** What the parts of the split matrix share: the splits, the rows (seed groups) and how to draw their values. */
interface Matrix {
  def: SplitDefinition;
  stats: Map<number, Map<number, StatRow>>;
  groups: ModelRow[][];
  names: string[];
  trained: Pick<SplitModel, 'trainedOn' | 'trainedOnSource'>[];
  k: number;
  /** Row of the base model, -1 when there is none. */
  baseRow: number;
  arms: (g: readonly ModelRow[], problems: readonly number[], k: number, sign: 1 | -1) => Arm;
  /** Bootstrap options of split j (its own seed, so that splits are resampled independently). */
  bo: (j: number) => BootstrapOptions;
}

/** One cell with the estimates its significance test and the out-of-distribution averages need. */
type Work = { cell: SplitCell; abs1: CellEstimate; rel1?: CellEstimate; diffs?: Float64Array };

/** The index's stats rows by model id, then problem id. */
function statsByModel(index: TraceIndex): Map<number, Map<number, StatRow>> {
  const stats = new Map<number, Map<number, StatRow>>();
  for (const s of index.allStats()) {
    const m = stats.get(s.modelId) ?? new Map<number, StatRow>();
    m.set(s.problemId, s);
    stats.set(s.modelId, m);
  }
  return stats;
}

/**
 * Row of the base model: the row of model `baseModelId`, else the one `base` picks, else the guessed base
 * model's; -1 when none is guessed.
 * @throws Error when `baseModelId` or `base` matches no model.
 */
function baseRowOf(
  models: readonly ModelRow[],
  groups: readonly ModelRow[][],
  base: string | undefined,
  baseModelId: number | undefined,
): number {
  const rowOf = (i: number) => groups.findIndex((g) => g.some((m) => m.id === models[i].id));
  if (baseModelId !== undefined) {
    const i = models.findIndex((m) => m.id === baseModelId);
    if (i < 0) throw new Error(`no model has row id ${baseModelId}`);
    return rowOf(i);
  }
  if (base) {
    const i = pickModel(models, base);
    if (i < 0)
      throw new Error(`no model matches --base "${base}"; models: ${models.map((m) => m.displayId).join(', ')}`);
    return rowOf(i);
  }
  const i = guessBaseModel(models);
  return i >= 0 ? rowOf(i) : -1;
}

/** The cells row by row, split by split; relative cells (not yet tested) where there is a base row. */
function matrixCells(x: Matrix): Work[] {
  const { def, stats, groups, names, trained, k, baseRow, arms, bo } = x;
  const work: Work[] = [];
  groups.forEach((g, gi) => {
    def.splits.forEach((split, j) => {
      const a1 = arms(g, split.problems, 1, 1);
      const abs1 = cellEstimate([a1], bo(j));
      const absK = cellEstimate([arms(g, split.problems, k, 1)], bo(j));
      const cell: SplitCell = {
        model: names[gi],
        split: split.name,
        inDistribution: trained[gi].trainedOn === split.name,
        splitProblems: split.problems.length,
        problems: abs1.problems,
        ...cellCoverage(g, split.problems, stats),
        passAt1: estimate(abs1),
        passAtK: estimate(absK),
      };
      const w: Work = { cell, abs1 };
      if (baseRow >= 0 && gi !== baseRow) {
        const b1 = arms(groups[baseRow], split.problems, 1, -1);
        w.rel1 = cellEstimate([a1, b1], bo(j));
        const relK = cellEstimate([arms(g, split.problems, k, 1), arms(groups[baseRow], split.problems, k, -1)], bo(j));
        w.diffs = pairedDiffs(a1, b1);
        cell.relative = {
          passAt1: {
            ...estimate(w.rel1),
            pValue: 1,
            pExact: true,
            pMin: 1,
            pHolm: 1,
            verdict: w.rel1.value === null ? 'no data' : 'within noise',
          },
          passAtK: estimate(relK),
        };
      }
      work.push(w);
    });
  });
  return work;
}

/** A row's split problems left out (not in the model; no graded sample), its graded samples and their n range. */
function cellCoverage(
  g: readonly ModelRow[],
  problems: readonly number[],
  stats: Map<number, Map<number, StatRow>>,
): Pick<SplitCell, 'leftOut' | 'samples' | 'n'> {
  let notInModel = 0;
  let noGraded = 0;
  let samples = 0;
  let nMin = Infinity;
  let nMax = 0;
  for (const p of problems) {
    const rs = g.map((m) => stats.get(m.id)?.get(p)).filter((r): r is StatRow => r !== undefined);
    if (rs.length === 0) notInModel++;
    else if (rs.every((r) => r.graded === 0)) noGraded++;
    for (const r of rs)
      if (r.graded > 0) {
        samples += r.graded;
        nMin = Math.min(nMin, r.graded);
        nMax = Math.max(nMax, r.graded);
      }
  }
  return { leftOut: { notInModel, noGraded }, samples, n: nMax > 0 ? { min: nMin, max: nMax } : null };
}

/**
 * Significance of the relative cells, one family: sign-flip p-values, Holm-adjusted, and the verdicts set
 * on the cells. Returns how many cells were tested.
 */
function testRelativeCells(work: readonly Work[], o: ResolvedOptions, alpha: number): number {
  const tested = work.filter((w) => w.cell.relative && w.rel1 && w.rel1.value !== null);
  const tests = tested.map((w, i) =>
    signFlipTest(w.diffs as Float64Array, { replicates: o.replicates, seed: o.seed + i }),
  );
  setTests(
    tested.map((w) => (w.cell.relative as NonNullable<SplitCell['relative']>).passAt1),
    tests,
    alpha,
  );
  return tests.length;
}

/** Per trained row: the average over the splits it was not trained on, raw and relative to the base. */
function outOfDistribution(x: Matrix, work: readonly Work[], level: number): OutOfDistribution[] {
  const { groups, names, trained, baseRow } = x;
  const ood: OutOfDistribution[] = [];
  groups.forEach((_g, gi) => {
    const t = trained[gi].trainedOn;
    if (t === null) return;
    const mine = work.filter((w) => w.cell.model === names[gi] && w.cell.split !== t && w.abs1.value !== null);
    const rel = mine.filter((w) => w.rel1 && w.rel1.value !== null);
    ood.push({
      model: names[gi],
      trainedOn: t,
      splits: mine.map((w) => w.cell.split),
      raw: averageOfCells(
        mine.map((w) => w.abs1),
        level,
      ),
      relative:
        baseRow >= 0 && gi !== baseRow && rel.length === mine.length
          ? averageOfCells(
              rel.map((w) => w.rel1 as CellEstimate),
              level,
            )
          : null,
    });
  });
  return ood;
}

/** The report's statement of how its intervals were computed. */
function uncertaintyMethod(o: ResolvedOptions): SplitsReport['uncertainty'] {
  return {
    replicates: o.replicates,
    seed: o.seed,
    level: o.level,
    intervals: `${Math.round(o.level * 100)}% percentile bootstrap over the split's problems (${o.replicates} replicates, seed ${o.seed} plus a per-split offset so that splits are resampled independently); relative cells and oracle gaps resample the same problems for both models (paired); the averages over splits take replicate r of each split together (stratified bootstrap)`,
    seeds:
      "a model with several seeds (seed siblings: names differing only by seed0/seed1, s0/s1, run1/run2) is one row: a problem's value is the mean over its seeds, and each replicate first draws the seeds with replacement (as many as it has), then the problems (two-stage bootstrap, Davison & Hinkley 1997 §3.8), so the interval covers seed-to-seed variation as well as problems; a model with one seed: problems only",
  };
}

/** The report's statement of its significance tests: `relativeTests` and `gapTests` are the two families' sizes. */
function significanceMethod(
  o: ResolvedOptions,
  alpha: number,
  relativeTests: number,
  gapTests: number,
): SplitsReport['significance'] {
  return {
    test: `two-sided paired sign-flip permutation test of the pass@1 difference over the cell's problems with a non-zero difference (m of them): exact, every one of the 2^m sign assignments enumerated, when m <= ${EXACT_SIGN_FLIP_MAX} (the smallest p is then 2 / 2^m: with 5 such problems 0.0625); otherwise ${o.replicates} Monte Carlo sign assignments, p = (1 + extreme) / (draws + 1); with seeds, on the seed means per problem`,
    correction: 'Holm step-down',
    alpha,
    families: `the relative-to-base cells (${relativeTests} tests) are one family; the oracle gaps (${gapTests}) another`,
    note: 'a cell reads better or worse only when its Holm-adjusted p is below alpha; otherwise within noise. Intervals are per cell and not adjusted for multiplicity.',
  };
}

/** Sets the p-values of one family (Holm-adjusted together) and the verdicts on its differences. */
function setTests(diffs: SplitDifference[], tests: readonly SignFlipResult[], alpha: number): void {
  holmAdjust(tests.map((t) => t.p)).forEach((ph, i) => {
    const g = diffs[i];
    g.pValue = tests[i].p;
    g.pExact = tests[i].exact;
    g.pMin = tests[i].minP;
    g.pHolm = ph;
    g.verdict = verdictOf(g.value, ph, alpha);
  });
}

function verdictOf(value: number | null, pHolm: number, alpha: number): SplitDifference['verdict'] {
  if (value === null) return 'no data';
  if (pHolm >= alpha || value === 0) return 'within noise';
  return value > 0 ? 'better' : 'worse';
}

/** Per-problem seed-mean differences of two arms (NaN where either has no value). */
function pairedDiffs(a: Arm, b: Arm): Float64Array {
  const m = a.values[0].length;
  const mean = (arm: Arm, i: number) => {
    let s = 0;
    let n = 0;
    for (const v of arm.values)
      if (!Number.isNaN(v[i])) {
        s += v[i];
        n++;
      }
    return n > 0 ? s / n : NaN;
  };
  return Float64Array.from({ length: m }, (_, i) => mean(a, i) - mean(b, i));
}

/**
 * Oracle performance gaps: for each split S and each row trained on S (the oracle), against each row
 * trained on another split, on S's problems: oracle - other (pass@1 paired, with a sign-flip p-value,
 * Holm within the gaps; pass@k paired).
 */
function oracleGaps(
  def: SplitDefinition,
  groups: readonly ModelRow[][],
  names: readonly string[],
  trained: readonly Pick<SplitModel, 'trainedOn'>[],
  kk: number,
  arms: (g: readonly ModelRow[], problems: readonly number[], k: number, sign: 1 | -1) => Arm,
  bo: (j: number) => BootstrapOptions,
  o: { replicates: number; seed: number },
  alpha: number,
): OracleGap[] {
  const out: OracleGap[] = [];
  const diffs: Float64Array[] = [];
  def.splits.forEach((split, j) => {
    groups.forEach((og, oi) => {
      if (trained[oi].trainedOn !== split.name) return;
      groups.forEach((mg, mi) => {
        const t = trained[mi].trainedOn;
        if (mi === oi || t === null || t === split.name) return;
        const a = arms(og, split.problems, 1, 1);
        const b = arms(mg, split.problems, 1, -1);
        const e1 = cellEstimate([a, b], bo(j));
        const eK = cellEstimate([arms(og, split.problems, kk, 1), arms(mg, split.problems, kk, -1)], bo(j));
        diffs.push(pairedDiffs(a, b));
        out.push({
          split: split.name,
          oracle: names[oi],
          model: names[mi],
          trainedOn: t,
          passAt1: {
            ...estimate(e1),
            pValue: 1,
            pExact: true,
            pMin: 1,
            pHolm: 1,
            verdict: e1.value === null ? 'no data' : 'within noise',
          },
          passAtK: estimate(eK),
        });
      });
    });
  });
  const tests = diffs.map((d, i) => signFlipTest(d, { replicates: o.replicates, seed: o.seed + 7 * i + 3 }));
  setTests(
    out.map((g) => g.passAt1),
    tests,
    alpha,
  );
  return out;
}

/**
 * Agreement of the splits with the dataset's own levels, where the problems have both: a contingency
 * table of problem counts (rows: splits; columns: levels in natural order). Undefined when no problem of a
 * split has a level.
 */
function agreement(def: SplitDefinition): SplitsReport['levelAgreement'] {
  const levels = new Set<string>();
  for (const s of def.splits)
    for (const p of s.problems) {
      const l = def.problems.get(p)?.level;
      if (l !== null && l !== undefined) levels.add(l);
    }
  if (levels.size === 0) return undefined;
  const cols = [...levels].sort(naturalOrder);
  const at = new Map(cols.map((l, i) => [l, i]));
  return {
    levels: cols,
    rows: def.splits.map((s) => {
      const counts = new Array<number>(cols.length).fill(0);
      for (const p of s.problems) {
        const l = def.problems.get(p)?.level;
        if (l !== null && l !== undefined) counts[at.get(l) as number]++;
      }
      return { split: s.name, counts };
    }),
  };
}
