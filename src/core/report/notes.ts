import { type Diagnostic, diagnosticPlace } from '../model';
import { type ProblemPair } from '../metrics';
import { type Denominator, denominator, nameProblems, problemSet } from '../metrics/denominators';
import { areSeedSiblings } from '../grouping/seeds';
import { benchmarkWithoutBase } from '../index/labels';
import type { ModelRow, StatRow, TraceIndex } from '../index/traceIndex';
import { plural } from '../text/strings';
import { problemNamer } from '../grouping/datasets';
import type { ComparisonReport, NotComparedKind } from './types';

/** How many compared problems have min(base n, model n) = k. */
export function atLimit(pairs: readonly ProblemPair[], k: number): number {
  return pairs.filter((p) => Math.min(p.base.n, p.model.n) === k).length;
}

/** The largest min(base n, model n) over compared problems (how far k would go with a shrinking problem set). */
export function maxMinN(pairs: readonly ProblemPair[]): number {
  return pairs.reduce((a, p) => Math.max(a, Math.min(p.base.n, p.model.n)), 0);
}

/** Whether two models are one model (same name and revision) in different run folders (datasets, configs). */
export function sameModel(a: ModelRow, b: ModelRow): boolean {
  return a.name === b.name && (a.revision ?? null) === (b.revision ?? null);
}

/** One model in no comparison, with names left to the caller ({@link notComparedReason}). */
export interface NotComparedModel<M> {
  model: M;
  /** The base it would be compared with (`noBase`, `baseOfNone`: none). */
  base: M | undefined;
  kind: NotComparedKind;
  /** Problems with at least one graded sample: the model's and its base's (0 without a base). */
  graded: { model: number; base: number };
  /** `baseOfNone`: the models it is the base of (none of them compared); else empty. */
  against: M[];
  /** `noBaseInFolder`: the model's benchmark folder, where no copy of `base` was evaluated. */
  folder?: string;
}

/**
 * The models of `models` in no comparison (neither compared nor the base of a comparison), each with the
 * base it would be compared with and why (trial 7 finding 5: a pair without a graded problem in common was
 * dropped without a word). `pairs` are the (base, model) pairs of {@link comparisonPairs}, `made` those that
 * became comparisons, `graded(id)` a model's problems with at least one graded sample. Kinds, checked in
 * this order: the model has no graded sample (`modelUngraded`); its base has none (`baseUngraded`); the
 * two have no graded problem in common (`noCommonProblem`); the model is a seed sibling of a base
 * (`seedSibling`); it is the base of models none of which could be compared (`baseOfNone`); it is the base
 * model's copy in a folder no other model has, and has no seed sibling (`baseCopyOfNone`; trial 9 finding 15); it sits in
 * a benchmark folder where no copy of its base was evaluated (`noBaseInFolder`, checked first; trial 12 finding 11); no base
 * (`noBase`). Empty for a folder of fewer than two models (nothing to compare). Order: that of `models`.
 */
export function notComparedModels<M extends ModelRow>(
  models: readonly M[],
  pairs: readonly (readonly [M, M])[],
  made: readonly (readonly [M, M])[],
  graded: (modelId: number) => number,
): NotComparedModel<M>[] {
  if (models.length < 2) return [];
  const inComparison = new Set(made.flatMap(([b, m]) => [b.id, m.id]));
  const out: NotComparedModel<M>[] = [];
  for (const m of models) {
    if (inComparison.has(m.id)) continue;
    const own = pairs.find(([, x]) => x.id === m.id);
    const base = own?.[0] ?? pairs.map(([b]) => b).find((b) => areSeedSiblings(b, m));
    const counts = { model: graded(m.id), base: base ? graded(base.id) : 0 };
    const against = pairs.filter(([b]) => b.id === m.id).map(([, x]) => x);
    // a model in a benchmark folder where no copy of its base was evaluated (trial 12 finding 11)
    const folderBase = own || base ? undefined : pairs.map(([b]) => b).find((b) => benchmarkWithoutBase(models, m, b));
    if (folderBase && !against.length) {
      out.push({
        model: m,
        base: folderBase,
        kind: 'noBaseInFolder',
        graded: { model: graded(m.id), base: graded(folderBase.id) },
        against,
        folder: benchmarkWithoutBase(models, m, folderBase),
      });
      continue;
    }
    const kind: NotComparedKind = own
      ? counts.model === 0
        ? 'modelUngraded'
        : counts.base === 0
          ? 'baseUngraded'
          : 'noCommonProblem'
      : base
        ? 'seedSibling'
        : against.length
          ? 'baseOfNone'
          : // a base model's copy in a dataset or config folder no other model has (trial 9 finding 15): it has a
            // base (the folder's comparisons use it) and no seed sibling, so "no base model (seed siblings)" is false
            pairs.some(([b]) => sameModel(b, m)) && !models.some((o) => o.id !== m.id && areSeedSiblings(o, m))
            ? 'baseCopyOfNone'
            : 'noBase';
    out.push({ model: m, base, kind, graded: counts, against });
  }
  return out;
}

/**
 * The reason of one {@link notComparedModels} entry as text, models named by `name` (labels in the report's
 * JSON, its warnings and table section, and the overview, as the comparison tables name them); `choose` says how
 * to choose a base (the CLI's `--base` by default; the extension names its command, core `EXTENSION_CHOOSE_BASE`).
 */
export function notComparedReason<M>(
  x: Pick<NotComparedModel<M>, 'base' | 'kind' | 'graded' | 'against' | 'folder'>,
  name: (m: M) => string,
  choose = '--base',
): string {
  const b = x.base === undefined ? '' : name(x.base);
  switch (x.kind) {
    case 'modelUngraded':
      return `it has no graded sample (no verdict in its files), so there is nothing to compare with its base ${b}`;
    case 'baseUngraded':
      return `its base ${b} has no graded sample (no verdict in its files: ungraded), so pass@k cannot be compared; grade the base's samples, or choose another base with ${choose}`;
    case 'noCommonProblem':
      return `it has no graded problem in common with its base ${b} (${plural(x.graded.model, 'graded problem')} of its own, ${plural(x.graded.base, 'graded problem')} of the base's, none the same: other datasets or problem ids?); choose another base with ${choose}`;
    case 'seedSibling':
      return `it is a seed sibling of the base ${b} (the names differ only by a seed), and seeds of one model are never compared with each other`;
    case 'baseOfNone':
      return `it is the base of ${x.against.map(name).join(', ')}, none of which could be compared with it (see their lines)`;
    case 'baseCopyOfNone':
      return 'it is a copy of the base model in a dataset or config folder of its own, and no other model was evaluated there (a base is compared with nothing)';
    case 'noBaseInFolder':
      return `no copy of its base ${b} was evaluated in its benchmark folder ${x.folder ?? ''}/ (the base's results are in other benchmark folders), so it has no base to compare with there; evaluate the base on it, or choose a base with ${choose}`;
    case 'noBase':
      return `no base model (the folder holds only seed siblings of one model, never each other's base, or none is chosen); choose one with ${choose}`;
  }
}

/** The warning for one model of {@link notComparedModels}: `name` (display id or label) and the reason. */
export function notComparedWarning(name: string, reason: string): string {
  return `${name}: NOT COMPARED with any model: ${reason}`;
}

/** A comparison's problems left out, by reason, as problem row ids (see {@link ComparisonReport.missing}). */
export interface ComparisonLeftOut {
  noSamples: number[];
  ungraded: number[];
  notInBase: number[];
  /** Those of `notInBase` the base has no record of at all (not merely no graded sample; trial 12 finding 23). */
  notInBaseNoRecord?: number[];
  notInModel: number[];
}

/**
 * Which problems of the two models a comparison leaves out, and why: the model's records without
 * samples or without a graded sample, the model's graded problems the base has no graded sample of,
 * and the base's problems (any record) the model has no record of.
 */
export function comparisonLeftOut(modelRows: readonly StatRow[], baseRows: readonly StatRow[]): ComparisonLeftOut {
  const baseGraded = new Set(baseRows.filter((r) => r.graded > 0).map((r) => r.problemId));
  const inBase = new Set(baseRows.map((r) => r.problemId));
  const inModel = new Set(modelRows.map((r) => r.problemId));
  const out: ComparisonLeftOut = { noSamples: [], ungraded: [], notInBase: [], notInBaseNoRecord: [], notInModel: [] };
  for (const r of modelRows) {
    if (r.n === 0) out.noSamples.push(r.problemId);
    else if (r.graded === 0) out.ungraded.push(r.problemId);
    else if (!baseGraded.has(r.problemId)) {
      out.notInBase.push(r.problemId);
      if (!inBase.has(r.problemId)) out.notInBaseNoRecord?.push(r.problemId);
    }
  }
  for (const r of baseRows) if (!inModel.has(r.problemId)) out.notInModel.push(r.problemId);
  return out;
}

/**
 * A comparison's denominator over `paired` problems (both models have graded samples): the whole is
 * every problem either model has a record of (see {@link ComparisonReport.missing}). Also returns the
 * problem set (`cset`) and extra reasons to build the denominators of its per-k points with.
 */
export function comparisonDenominator(modelRows: readonly StatRow[], baseRows: readonly StatRow[], paired: number) {
  const left = comparisonLeftOut(modelRows, baseRows);
  const extra = { notInBase: left.notInBase.length, notInModel: left.notInModel.length };
  const set = problemSet(modelRows);
  const cset = { total: set.total + extra.notInModel, noSamples: set.noSamples, ungraded: set.ungraded };
  return { left, cset, extra, whole: denominator(cset, paired, 0, extra) };
}

/**
 * The warning of a comparison over fewer than all the problems of the two models: the count and the
 * problems by reason (`Qwen-rl vs Qwen-base: compared over 3 of 4 problems: 1 only in the base model's
 * results (problem 3)`), so that the table's `3/4` is explained where it is read.
 */
export function comparisonWarning(
  index: TraceIndex,
  model: string,
  base: string,
  d: Denominator,
  left: ComparisonLeftOut,
  unreadable: readonly Diagnostic[] = [],
): string {
  // A problem the model "has no record of" while some of its records could not be read: say so (file:line).
  // Records read without a verdict or with a sample left out are no unread records (trial 12 finding 18).
  unreadable = classifyUnreadable(unreadable).unread;
  const noRecord = unreadable.length === 0 ? 'has no record of' : 'has no readable record of';
  const namer = problemNamer(index);
  const name = (ids: number[]) => nameProblems(ids, namer);
  const noBaseRecord = new Set(left.notInBaseNoRecord ?? []);
  const parts: [number[], string, string][] = [
    [left.noSamples, `${model} has no samples of it`, `${model} has no samples of them`],
    [left.ungraded, `${model} has no graded sample of it`, `${model} has no graded sample of them`],
    // the base's records without a graded sample, and the problems it has no record of (trial 12 finding 23)
    [
      left.notInBase.filter((id) => !noBaseRecord.has(id)),
      `${base} has no graded sample of it`,
      `${base} has no graded sample of them`,
    ],
    [
      [...noBaseRecord],
      `only ${model} has it: ${base} has no record of it`,
      `only ${model} has them: ${base} has no record of them`,
    ],
    [
      left.notInModel,
      `only ${base} has it: ${model} ${noRecord} it`,
      `only ${base} has them: ${model} ${noRecord} them`,
    ],
  ];
  const why = parts
    .filter(([ids]) => ids.length > 0)
    .map(([ids, one, many]) => `${ids.length} ${ids.length === 1 ? one : many} ${name(ids)}`);
  const n = unreadable.length;
  if (left.notInModel.length > 0 && n > 0)
    why.push(`${n} record${n === 1 ? '' : 's'} of ${model} could not be read (${whereList(unreadable)})`);
  return `${model} vs ${base}: compared over ${d.problems} of the ${d.problems + d.missing} problems of the two models: ${why.join('; ')}`;
}

/**
 * The graders of a compared pair when both are known and differ (see ComparisonReport
 * `differentGraders`); null when they agree or either is unknown (a format with one verdict field).
 */
export function graderDifference(
  base: Pick<ModelRow, 'grader'>,
  model: Pick<ModelRow, 'grader'>,
): { base: string; model: string } | null {
  return base.grader !== null && model.grader !== null && base.grader !== model.grader
    ? { base: base.grader, model: model.grader }
    : null;
}

/** `file:line` of at most three diagnostics, `and N more` after them. */
export function whereList(lines: readonly Diagnostic[]): string {
  const shown = lines.slice(0, 3).map((l) => diagnosticPlace(l));
  return lines.length > 3 ? `${shown.join(', ')} and ${lines.length - 3} more` : shown.join(', ');
}

/**
 * A model's error diagnostics at a line (`TraceIndex.unreadableRecords`) by what they cost (trial 12 findings 18
 * and 8): `unread`, records not read at all (`line skipped`, malformed JSON); `samplesSkipped`, samples left out
 * of a record that was read (`sample skipped`; `verdictsLost` of all the lines had a verdict, named in their message
 * as `its verdict ... is lost`; with `samplesSkippedCount` the samples, also those a warning `keeping the first K`
 * cut off, {@link samplesCut}); `duplicates`, records skipped as a problem id already read (warnings `duplicate
 * problem id ...; skipped`); `ungraded`, records read whose samples have no verdict (`samples are ungraded`:
 * indexed, their problems in `missing`). Pure.
 */
export function classifyUnreadable(lines: readonly Diagnostic[]): {
  unread: Diagnostic[];
  samplesSkipped: Diagnostic[];
  duplicates: Diagnostic[];
  ungraded: Diagnostic[];
  verdictsLost: number;
  /** Records or samples each list stands for: a capped `and N more like this` line stands for N. */
  count: { unread: number; samplesSkipped: number; duplicates: number; ungraded: number };
  /** Whether `count.samplesSkipped` is a lower bound (capped lines of cut-off lists: at least 1 sample each). */
  samplesAtLeast: boolean;
} {
  const out = {
    unread: [] as Diagnostic[],
    samplesSkipped: [] as Diagnostic[],
    duplicates: [] as Diagnostic[],
    ungraded: [] as Diagnostic[],
    verdictsLost: 0,
    count: { unread: 0, samplesSkipped: 0, duplicates: 0, ungraded: 0 },
    samplesAtLeast: false,
  };
  for (const l of lines) {
    const { n, message } = cappedCount(l.message);
    if (/^duplicate problem id .*; skipped$/.test(message)) {
      out.duplicates.push(l);
      out.count.duplicates += n;
      continue;
    }
    const cut = samplesCut(message);
    if (cut !== undefined) {
      if (cut > 0) {
        out.samplesSkipped.push(l);
        out.count.samplesSkipped += n === 1 ? cut : n;
        if (n > 1) out.samplesAtLeast = true;
      }
      continue;
    }
    if (/its verdict .* is lost/.test(message)) out.verdictsLost += n;
    if (/samples are ungraded|are ungraded$|is ungraded$/.test(message)) {
      out.ungraded.push(l);
      out.count.ungraded += n;
    } else if (/sample skipped/.test(message)) {
      out.samplesSkipped.push(l);
      out.count.samplesSkipped += n;
    } else {
      out.unread.push(l);
      out.count.unread += n;
    }
  }
  return out;
}

/**
 * How many diagnostics one stored line stands for, and the message they share: a capped line
 * (`and N more like this, the first at line L: <message>`, diagnosticCap.ts) stands for N; any other for 1. Pure.
 */
export function cappedCount(message: string): { n: number; message: string } {
  const m = /^and (\d+) more like this, the first at [^:]*: (.*)$/s.exec(message);
  return m ? { n: Number(m[1]), message: m[2] } : { n: 1, message };
}

/**
 * The samples a record lost to lists of different lengths, from its warning `<text> has N samples but <list> has
 * M; keeping the first K` (Qwen-math and mapping readers): `N - K` (0 when the text list is the shorter one: no
 * sample lost, only the other list's extra values); `undefined` for any other message. Pure.
 */
export function samplesCut(message: string): number | undefined {
  const m = /has (\d+) samples? but .* has \d+; keeping the first (\d+)$/.exec(message);
  return m ? Math.max(0, Number(m[1]) - Number(m[2])) : undefined;
}

/**
 * The warning of a model some of whose records could not be read, or were read with samples left out or
 * without a verdict, or skipped as a duplicate problem id (`TraceIndex.recordsWithSamplesLost`, split by
 * {@link classifyUnreadable}; a record whose lists differ in length counts the samples cut off, {@link samplesCut}):
 * how many of each,
 * where (file:line, the first three), and what becomes of them; the CLI report and the overview say the
 * same. `1 record could not be read (a.jsonl:3): left out of every figure; 2 samples skipped (a.jsonl:1,
 * a.jsonl:1): left out of every figure: 1 of them graded, its verdict lost; 8 records have no verdict (b.jsonl:1, ...): indexed,
 * ungraded (their problems count in "missing")`. Undefined when there are none.
 */
export function unreadableWarning(model: string, lines: readonly Diagnostic[]): string | undefined {
  if (lines.length === 0) return undefined;
  const c = classifyUnreadable(lines);
  const parts: string[] = [];
  const s = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lost = (n: number) => (n ? `: ${n} of them graded, ${n === 1 ? 'its verdict' : 'their verdicts'} lost` : '');
  const lostIn = (xs: Diagnostic[]) =>
    xs.reduce((a, l) => {
      const { n, message } = cappedCount(l.message);
      return a + (/its verdict .* is lost/.test(message) ? n : 0);
    }, 0);
  if (c.count.unread)
    parts.push(
      `${s(c.count.unread, 'record', 'records')} could not be read (${whereList(c.unread)}): left out of every figure${lost(lostIn(c.unread))}`,
    );
  if (c.count.samplesSkipped)
    parts.push(
      `${c.samplesAtLeast ? 'at least ' : ''}${s(c.count.samplesSkipped, 'sample', 'samples')} skipped (${whereList(c.samplesSkipped)}): left out of every figure${lost(lostIn(c.samplesSkipped))}`,
    );
  if (c.count.duplicates)
    parts.push(
      `${s(c.count.duplicates, 'record', 'records')} skipped as a duplicate problem id (${whereList(c.duplicates)}): the first record of each id is read`,
    );
  if (c.count.ungraded)
    parts.push(
      `${s(c.count.ungraded, 'record has', 'records have')} no verdict (${whereList(c.ungraded)}): read and indexed, ungraded (their problems count in "missing")`,
    );
  return `${model}: ${parts.join('; ')}; each is listed with its reason in the Problems panel (CLI: the diagnostics)`;
}

/** The warning of a partly indexed model (CLI report and overview say the same). */
export function partialWarning(model: string): string {
  return `${model}: PARTIAL: some of its samples come from a file whose indexing did not finish; its figures cover only the part read (index the folder again to complete it)`;
}

/** Smallest and largest graded n per problem of each side of a comparison (`{ min: 0, max: 0 }` without pairs). */
export interface PairNRange {
  base: { min: number; max: number };
  model: { min: number; max: number };
}

/** The n range of the base's and of the model's compared problems ({@link PairNRange}). */
export function pairNRange(pairs: readonly ProblemPair[]): PairNRange {
  const range = (ns: number[]) => (ns.length ? { min: Math.min(...ns), max: Math.max(...ns) } : { min: 0, max: 0 });
  return { base: range(pairs.map((p) => p.base.n)), model: range(pairs.map((p) => p.model.n)) };
}

/**
 * The warning of a compared pair whose n (graded samples per problem) differs between problems or between
 * the two models: at k above the smallest n some problems drop out of pass@k and the crossover search
 * (the CLI report and the overview say the same; trial 10 finding 2: greedy5's 5 samples against the base's
 * 100). Undefined when every compared problem of both models has the same n.
 */
export function nDiffersWarning(model: string, base: string, pairs: readonly ProblemPair[]): string | undefined {
  const minN = pairs.reduce((a, p) => Math.min(a, p.base.n, p.model.n), Infinity);
  const maxN = pairs.reduce((a, p) => Math.max(a, p.base.n, p.model.n), 0);
  if (pairs.length === 0 || minN === maxN) return undefined;
  return `${model} vs ${base}: n differs between problems or models (${minN}..${maxN}); at k above ${minN} some problems are left out`;
}

/** The warning of a compared pair graded differently (CLI report and overview say the same). */
export function graderWarning(base: string, model: string, g: { base: string; model: string }): string {
  return `${model} vs ${base}: GRADED DIFFERENTLY (${model} by ${g.model}, ${base} by ${g.base}): the comparison sets two verdict rules side by side; grade both the same way (--scorer <name>, setting traceInspector.scorer)`;
}
