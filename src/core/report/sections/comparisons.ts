import {
  categoriesWithinNoise,
  categoryCounts,
  coverage,
  crossoverBootstrap,
  crossoverK,
  intervalHoldsZero,
  kGrid,
  pairedBootstrapDiff,
  twoLevelPairedDiffAt1,
  type ProblemPair,
} from '../../metrics';
import { type Denominator, denominator, problemSet } from '../../metrics/denominators';
import { basePoolMessage, comparisonPairing, pooledBaseRows, withoutPooledReplicates } from '../../grouping/basePools';
import { seedSiblingMessage, seedSiblings, shortStepGroups, shortStepMessage } from '../../grouping/seeds';
import { ambiguousBaseNote, crossFamilyNote, baseGuessNote, samplingTemperature } from '../../index/labels';
import type { ModelRow, StatRow } from '../../index/traceIndex';
import { CROSSOVER_NOTE, crossoverScope, crossoverText } from '../../../shared/claims';
import type { ReportContext } from '../context';
import type { CsvRow, ReportSection } from '../section';
import { type ComparisonReport, type Report } from '../types';
import {
  atLimit,
  comparisonDenominator,
  comparisonWarning,
  graderDifference,
  graderWarning,
  maxMinN,
  nDiffersWarning,
  notComparedModels,
  notComparedReason,
  notComparedWarning,
} from '../notes';
import { safe, table } from '../render';
import { CSV_HEADER, csvCell } from '../csv';
import type { DocTable } from '../document';

/**
 * Per (base, model) pair: the comparison on the problems both have graded samples for (coverage,
 * crossover k, categories, paired bootstrap difference); every model in no comparison, with why. Leaves
 * the pairing in the context for the ppl and paths sections.
 */
function computeComparisons(ctx: ReportContext): Pick<Report, 'comparisons' | 'notCompared'> {
  const { models, byModel, base, baseSource, warnings } = ctx;
  // Which base each model is compared with. With --base, that model for every other model.
  // Otherwise runs are compared within themselves (a run holding a base-like model and others,
  // as rlvr_behavior_probe's runs and checkpoints do: each RL model against its own run's SFT),
  // and models of runs without one are compared with the folder's guessed base.
  // the pairing the overview takes too (basePools.ts): replicates of a base pooled into it
  const { pairs: pairsToCompare, pools: basePools } = comparisonPairing(models, base, baseSource === 'option');
  // models that differ only by a seed-like part of their names: seed shards read as models (trial 6 finding 2)
  for (const g of seedSiblings(models)) warnings.push(seedSiblingMessage(g.map((m) => m.displayId)));
  // `_s500` and `_s1000`: steps or seeds? kept apart and named (trial 7 finding 6)
  for (const g of shortStepGroups(models))
    warnings.push(
      shortStepMessage(
        g.models.map((m) => m.displayId),
        g.numbers,
      ),
    );
  if (baseSource === 'guess')
    for (const b of new Set(pairsToCompare.map(([x]) => x))) {
      const against = pairsToCompare.filter(([x]) => x.id === b.id).map(([, m]) => m.displayId);
      const note = baseGuessNote(
        b,
        b.displayId,
        against,
        pairsToCompare.filter(([x]) => x.id === b.id).map(([, m]) => m),
      );
      if (note) warnings.push(note);
    }
  if (baseSource === 'guess')
    for (const [b, m] of pairsToCompare) {
      const note = ambiguousBaseNote(models, b, m, (x) => x.label);
      if (note) warnings.push(note);
      // a model of another family than its base (trial 12 finding 3): never paired silently
      const family = crossFamilyNote(b, m, (x) => x.label);
      if (family) warnings.push(family);
    }
  // replicates of a base (`Qwen2.5-7B/replicate_1/` and `replicate_2/`, `rep1/` and `rep2/`: seed siblings of the base in
  // no pair of their own) are pooled into it: the comparisons use every base replicate's samples, summed per problem
  // (trial 12 finding 10: the first by name was the base, the second NOT COMPARED, half the base's samples unused)
  for (const [id, reps] of basePools) {
    const b = models.find((x) => x.id === id);
    if (b)
      warnings.push(
        basePoolMessage(
          b.label,
          [b, ...reps].map((x) => x.displayId),
        ),
      );
  }
  const pooledRows = (b: ModelRow): StatRow[] => pooledBaseRows(b.id, basePools, (id) => byModel.get(id) ?? []);
  const comparisons: ComparisonReport[] = [];
  for (const [b, m] of pairsToCompare) {
    const c = comparison(ctx, b, m, pooledRows(b));
    if (c) comparisons.push(c);
  }
  // the pairs whose reasoning paths buildReportAsync adds (their texts are read from the files)
  const pathPairs = pairsToCompare.filter(([b, m]) =>
    comparisons.some((c) => c.base === b.displayId && c.model === m.displayId),
  );
  const gradedProblems = (id: number) => (byModel.get(id) ?? []).filter((r) => r.graded > 0).length;
  // a base's replicates pooled into it are in its comparisons, not NOT COMPARED (trial 12 finding 10)
  const notComparedList = withoutPooledReplicates(
    notComparedModels(models, pairsToCompare, pathPairs, gradedProblems),
    basePools,
    pathPairs,
  );
  const notCompared = notComparedList.map((x) => ({
    model: x.model.displayId,
    base: x.base?.displayId ?? null,
    kind: x.kind,
    graded: x.graded,
    against: x.against.map((a) => a.displayId),
    ...(x.folder !== undefined ? { folder: x.folder } : {}),
    reason: notComparedReason(x, (m) => m.label),
  }));
  // named by label, as the comparison tables and the `not compared` list name them (trial 8 finding 12)
  for (const [i, x] of notComparedList.entries())
    warnings.push(notComparedWarning(x.model.label, notCompared[i].reason));
  ctx.pairing = { pairsToCompare, pathPairs };
  return { comparisons, notCompared };
}

/**
 * The comparison of model `m` with base `b` (`baseStatRows`: the base's statistics, its replicates pooled
 * into it) on the problems both have graded samples for, its warnings added to the context; undefined
 * when they have no graded problem in common.
 */
function comparison(
  ctx: ReportContext,
  b: ModelRow,
  m: ModelRow,
  baseStatRows: StatRow[],
): ComparisonReport | undefined {
  const { index, byModel, boot, warnings } = ctx;
  const baseRows = new Map(baseStatRows.filter((r) => r.graded > 0).map((r) => [r.problemId, r]));
  const pairs: ProblemPair[] = [];
  const modelRows = byModel.get(m.id) ?? [];
  const set = problemSet(modelRows);
  for (const r of set.gradedRows) {
    const br = baseRows.get(r.problemId);
    if (br)
      pairs.push({
        problemKey: String(r.problemId),
        base: { n: br.graded, c: br.c },
        model: { n: r.graded, c: r.c },
      });
  }
  // no graded problem in common: named with its reason below (notComparedModels; trial 7 finding 5)
  if (pairs.length === 0) return undefined;
  const { left, cset, extra, whole } = comparisonDenominator(modelRows, baseStatRows, pairs.length);
  if (whole.missing > 0)
    warnings.push(comparisonWarning(index, m.displayId, b.displayId, whole, left, index.unreadableRecords(m.id)));
  const maxN = pairs.reduce((a, p) => Math.max(a, p.base.n, p.model.n), 0);
  const nDiffers = nDiffersWarning(m.displayId, b.displayId, pairs);
  if (nDiffers) warnings.push(nDiffers);
  // a comparison across sampling temperatures (no base sampling at the model's temperature): trial 9 findings 4, 5
  const [tb, tm] = [samplingTemperature(b), samplingTemperature(m)];
  if (tb !== tm)
    warnings.push(
      `${m.label} vs ${b.label}: compared across sampling temperatures (model ${tm === undefined ? 'at a temperature its name does not give' : `at t${tm}`}, base ${tb === undefined ? 'at a temperature its name does not give' : `at t${tb}`}): ${
        // only a model whose name gives its temperature can lack a base sampling at it (trial 12 finding 12: the
        // warning said "no sampling of the base at the model's temperature" of a `T=0.8/` folder beside the base's 0.8)
        tm === undefined
          ? "the model's temperature is unknown, so the base's sampling at it cannot be chosen (write it in the model's file or folder name: `_t0.8`, `temperature_0.8/`)"
          : "no sampling of the base at the model's temperature"
      }; pass@k and the categories mix the effect of training with that of temperature`,
    );
  const differentGraders = graderDifference(b, m);
  if (differentGraders) warnings.push(graderWarning(b.displayId, m.displayId, differentGraders));
  const cross = crossoverK(pairs);
  // at k = 1 the interval is the two-level one (problems, then samples within each problem): it
  // decides whether the lead at k = 1 is within noise (metrics `twoLevelPairedDiffAt1`)
  const at1 = twoLevelPairedDiffAt1(
    pairs.map((p) => p.base),
    pairs.map((p) => p.model),
    boot,
  );
  if (cross.k === null && cross.kMax < maxMinN(pairs))
    warnings.push(
      `${m.displayId} vs ${b.displayId}: crossover k searched up to k = ${cross.kMax} only, the largest k all ${pairs.length} compared problems reach (${atLimit(pairs, cross.kMax)} with n = ${cross.kMax}); beyond it the problem set would change with k`,
    );
  const diff = pairedBootstrapDiff(
    pairs.map((p) => p.base),
    pairs.map((p) => p.model),
    kGrid(maxN),
    boot,
  )
    .map((d) => (d.k === 1 ? { ...d, ciLow: at1.ciLow, ciHigh: at1.ciHigh } : d))
    .map((d) => ({
      k: d.k,
      diff: d.diff,
      ciLow: d.ciLow,
      ciHigh: d.ciHigh,
      ...denominator(cset, d.problems, d.missing, extra),
    }));
  return {
    base: b.displayId,
    model: m.displayId,
    problems: pairs.length,
    missing: whole.missing,
    leftOut: whole.leftOut,
    coverage: coverage(pairs),
    crossoverK: cross.k,
    crossoverKind: cross.kind,
    crossoverAheadK: cross.aheadK,
    crossoverKMax: cross.kMax,
    crossoverKMaxRagged: maxMinN(pairs),
    saturationK: cross.saturationK,
    crossoverInterval: crossoverBootstrap(pairs, boot),
    leaderAtK1: cross.leaderAtK1,
    leaderAtK1WithinNoise: intervalHoldsZero(diff[0]),
    categories: categoryCounts(pairs),
    categoriesWithinNoise: categoriesWithinNoise(pairs),
    differentGraders,
    passAtKDiff: diff,
  };
}

/** The comparison table's columns (text table and paper tables): the base first when each run has its own. */
function comparisonHead(perRun: boolean): string[] {
  return [
    ...(perRun ? ['base'] : []),
    'model',
    'problems',
    'base-only',
    'model-only',
    'both',
    'neither',
    'crossover k',
    'sharpening',
    'expansion',
    'regression',
    'unchanged',
    'unsolved',
  ];
}

/** A comparison's cells after `problems`: coverage's four counts, crossover k (with its scope), the five categories. */
function comparisonFigures(c: ComparisonReport): string[] {
  return [
    String(c.coverage.baseOnly),
    String(c.coverage.modelOnly),
    String(c.coverage.both),
    String(c.coverage.neither),
    crossoverText(c) + crossoverScope(c),
    String(c.categories.sharpening),
    String(c.categories.expansion),
    String(c.categories.regression),
    String(c.categories.unchanged),
    String(c.categories.unsolved),
  ];
}

/** The comparison table with its notes, and the models in no comparison. */
function comparisonsTable(r: Report): string[] {
  const out: string[] = [];
  // comparison tables name models by their labels, as the model table does (trial 7 finding 13)
  const labelOf = (id: string) => r.models.find((m) => m.id === id)?.label ?? id;
  if (r.comparisons.length) {
    const bases = [...new Set(r.comparisons.map((c) => c.base))];
    // one base that is not the folder's (benchmark folders above the model folders: the gsm8k copy of the base, not
    // the aime24 copy guessed for the folder; trial 12 finding 11) is a per-run base too: named in a column
    const perRun = bases.length > 1 || (bases.length === 1 && r.base !== null && bases[0] !== r.base);
    out.push(
      '',
      perRun
        ? "base models: each run's own (guessed per run; --base compares every model with one model)"
        : `base model: ${safe(r.base === null ? '—' : labelOf(r.base))} (${r.baseSource === 'guess' ? 'guessed; change with --base' : 'chosen'})`,
    );
    const ch = comparisonHead(perRun);
    out.push(
      table([
        ch,
        ...r.comparisons.map((c) => [
          ...(perRun ? [safe(labelOf(c.base))] : []),
          safe(labelOf(c.model)) + (c.differentGraders ? ' [GRADED DIFFERENTLY]' : ''),
          c.missing > 0 ? `${c.problems}/${c.problems + c.missing}` : String(c.problems),
          ...comparisonFigures(c),
        ]),
      ]),
    );
    if (r.comparisons.some((c) => c.missing > 0))
      out.push(
        '(a/b) in a comparison: over a of the b problems of the two models (either has a record of); the warnings below name the others and why',
      );
    out.push(CROSSOVER_NOTE);
    const noisy = r.comparisons.filter((c) => Object.values(c.categoriesWithinNoise).some((v) => v > 0));
    if (noisy.length) {
      out.push('categories decided within noise (the two 95% Jeffreys intervals of c/n overlap):');
      for (const c of noisy) {
        const w = c.categoriesWithinNoise;
        out.push(
          `  ${safe(labelOf(c.model))}: sharpening ${w.sharpening} of ${c.categories.sharpening}, expansion ${w.expansion} of ${c.categories.expansion}, regression ${w.regression} of ${c.categories.regression}`,
        );
      }
    }
  }
  // every model in no comparison, with the reason (trial 7 finding 5: they vanished without a word)
  if (r.notCompared.length) {
    out.push('', `not compared (${r.notCompared.length} of ${r.models.length} models are in no comparison):`);
    for (const x of r.notCompared)
      out.push(`  ${safe(labelOf(x.model))}: ${safe(notComparedReason({ ...x, base: x.base ?? undefined }, labelOf))}`);
  }
  return out;
}

/** pass@k-diff and crossover-k rows per comparison, then a row per model in no comparison. */
function comparisonsCsv(r: Report): CsvRow[] {
  const q = csvCell;
  const lines: string[] = [];
  const baseOfLine = new Map<number, string>();
  for (const c of r.comparisons) {
    const crow = (
      metric: string,
      k: number,
      value: number | null,
      ci: [number | null, number | null],
      d: Denominator,
    ) => {
      lines.push(
        [
          q(c.model),
          q(r.models.find((m) => m.id === c.model)?.label ?? c.model),
          metric,
          k,
          value ?? '',
          ci[0] ?? '',
          ci[1] ?? '',
          d.problems,
          d.missing,
          d.leftOut.noSamples,
          d.leftOut.ungraded,
          d.leftOut.belowK,
          '',
          '',
          '',
          '',
          '',
          q(c.base),
          d.leftOut.notInBase ?? 0,
          d.leftOut.notInModel ?? 0,
        ].join(','),
      );
      baseOfLine.set(lines.length - 1, c.base);
    };
    for (const d of c.passAtKDiff) crow('pass@k-diff', d.k, d.diff, [d.ciLow, d.ciHigh], d);
    const iv = c.crossoverInterval;
    crow('crossover-k', c.crossoverKMax, c.crossoverK, [iv?.low ?? null, iv?.high ?? null], {
      problems: c.problems,
      missing: c.missing,
      leftOut: c.leftOut,
    });
  }
  // every model in no comparison, so the CSV names all the folder's models (trial 7): metric
  // `not-compared:<kind>` (JSON notCompared[].kind), problems = its graded problems, base = the base it would
  // be compared with (empty without one); the reason in words is in the JSON and the warnings
  // `dataset`, `datasets`, `partly_scored`, `base_label` are added to every line below
  const columns = CSV_HEADER.split(',').slice(0, -4);
  for (const x of r.notCompared) {
    const cells: Record<string, string | number> = {
      model: q(x.model),
      label: q(r.models.find((m) => m.id === x.model)?.label ?? x.model),
      metric: `not-compared:${x.kind}`,
      problems: x.graded.model,
      base: q(x.base ?? ''),
    };
    lines.push(columns.map((c) => cells[c] ?? '').join(','));
    if (x.base) baseOfLine.set(lines.length - 1, x.base);
  }
  return lines.map((line, i) => ({ line, base: baseOfLine.get(i) }));
}

/**
 * The comparison table for a paper: a row per (base, model) pair with the text table's columns (coverage's four
 * counts, crossover k, the five categories), models by label; a footnote per pair over fewer than all problems
 * of the two models (how many and why), the models in no comparison and the crossover rule under it.
 */
function comparisonsDocument(r: Report): DocTable[] {
  if (r.comparisons.length === 0) return [];
  const labelOf = (id: string) => safe(r.models.find((m) => m.id === id)?.label ?? id);
  const bases = [...new Set(r.comparisons.map((c) => c.base))];
  const perRun = bases.length > 1 || (bases.length === 1 && r.base !== null && bases[0] !== r.base);
  const notes: string[] = [];
  const rows = r.comparisons.map((c) => {
    const own: number[] = [];
    if (c.missing > 0) {
      const l = c.leftOut;
      const parts = [
        [l.noSamples, "without the model's samples"],
        [l.ungraded, "without the model's graded samples"],
        [l.notInBase ?? 0, 'not graded for the base'],
        [l.notInModel ?? 0, "of the base's only"],
      ]
        .filter(([n]) => (n as number) > 0)
        .map(([n, why]) => `${n} ${why}`);
      notes.push(
        `${labelOf(c.model)} against ${labelOf(c.base)}: over ${c.problems} of the ${c.problems + c.missing} problems of the two models; left out: ${parts.join(', ')}`,
      );
      own.push(notes.length);
    }
    if (c.differentGraders) {
      notes.push(
        `${labelOf(c.model)} against ${labelOf(c.base)}: graded differently (${safe(c.differentGraders.model)} against ${safe(c.differentGraders.base)})`,
      );
      own.push(notes.length);
    }
    return {
      cells: [...(perRun ? [labelOf(c.base)] : []), labelOf(c.model), String(c.problems), ...comparisonFigures(c)],
      // the marks go after the first cell: the model's name, or the base's in a table of per-run bases
      notes: own,
    };
  });
  const legend = [
    perRun
      ? "base: each run's own base model"
      : `base model: ${r.base === null ? '—' : labelOf(r.base)} (${r.baseSource === 'guess' ? 'guessed from the names' : 'chosen'})`,
    'base-only, model-only, both, neither: problems solved (at least one correct sample) by that model only, by both, by neither',
    CROSSOVER_NOTE,
    ...r.notCompared.map((x) => `not compared: ${labelOf(x.model)}: ${safe(x.reason)}`),
  ];
  const head = comparisonHead(perRun);
  return [
    {
      title: 'model against base',
      head,
      align: head.map((h) => (h === 'base' || h === 'model' || h === 'crossover k' ? 'l' : 'r')),
      rows,
      notes,
      legend,
    },
  ];
}

export const comparisonsSection: ReportSection = {
  name: 'comparisons',
  compute: computeComparisons,
  table: comparisonsTable,
  csv: comparisonsCsv,
  document: comparisonsDocument,
};
