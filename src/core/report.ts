import { type Diagnostic } from './model';
import { auditRules, notAuditedDiagnostics } from './audit';
import { graderAudit, regrade, toolVerdicts, toolVerdict } from './graderAudit';
import {
  accuracyHistogram,
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
} from './metrics';
import { denominator, nameProblems, problemSet } from './denominators';
import { basePoolMessage, comparisonPairing, pooledBaseRows, withoutPooledReplicates } from './basePools';
import { seedSiblingMessage, seedSiblings, shortStepGroups, shortStepMessage } from './seeds';
import {
  ambiguousBaseNote,
  crossFamilyNote,
  baseGuessNote,
  guessBaseModel,
  pickModel,
  samplingTemperature,
} from './index/labels';
import type { ModelRow, StatRow, TraceIndex } from './index/traceIndex';
import { DEFAULT_MAX_TEXT_SAMPLES, type PathContext, pathContext, type PathSummary, pathSummary } from './pathSummary';
import { pplReport } from './ppl';
import { rewardModelsReport } from './rewardReport';
import { nearSubstring } from './readers/util';
import { type DatasetCount, datasetByProblem, datasetCounts, datasetName, problemNamer } from './datasets';
import { computeTrajectories, reportTrajectory } from './trajectories';
import {
  ModelReport,
  ComparisonReport,
  DatasetModelReport,
  StratumReport,
  Report,
  MAJ_AT_K_RULE,
  ReportOptions,
} from './report/types';
import {
  atLimit,
  maxMinN,
  notComparedModels,
  notComparedReason,
  notComparedWarning,
  comparisonDenominator,
  comparisonWarning,
  graderDifference,
  unreadableWarning,
  partialWarning,
  nDiffersWarning,
  graderWarning,
} from './report/notes';
import { passAtKPoints, denominatorWarnings, alongK } from './report/curves';
import { modelBestOfK, bestOfKWarnings } from './report/bestOfK';
import { referenceAnswers, modelMajAtK } from './report/majAtK';

export {
  type PassAtKPoint,
  type BestOfKReportPoint,
  type MajAtKReportPoint,
  type ModelReport,
  type ComparisonReport,
  type DatasetModelReport,
  type NotComparedEntry,
  type StratumReport,
  type Report,
  MAJ_AT_K_RULE,
  type ReportOptions,
} from './report/types';
export {
  maxMinN,
  type NotComparedKind,
  type NotComparedModel,
  notComparedModels,
  notComparedReason,
  notComparedWarning,
  type ComparisonLeftOut,
  comparisonDenominator,
  comparisonWarning,
  graderDifference,
  classifyUnreadable,
  unreadableWarning,
  partialWarning,
  type PairNRange,
  pairNRange,
  nDiffersWarning,
  graderWarning,
} from './report/notes';
export { alongK } from './report/curves';

export { majVsPassNote } from './report/majAtK';

/**
 * Builds the full report from the index: per model pass@k curves at k = 1, 2, 4, ..., n with
 * bootstrap intervals over problems (seeded: identical on every run), best-of-k by reward score,
 * accuracy histograms; per non-base model the comparison with the base model on shared problems
 * (coverage, crossover k, categories, paired bootstrap difference); per model and difficulty level
 * the stratified pass@k; per checkpoint series the training trajectories (src/core/trajectories.ts).
 * Formulas and sources: see `src/core/metrics`.
 * @throws Error when `options.base` matches no model or several, or on an invalid `stepPattern`.
 */
/**
 * Bootstrap replicates of the report's intervals, and of the overview's comparison figures (crossover
 * interval, lead at k = 1 within noise), so that the two show the same figures for the same data.
 */
export const REPORT_REPLICATES = 2000;

/**
 * The report of {@link buildReport}'s comment (above {@link REPORT_REPLICATES}), without
 * {@link Report.paths}: {@link buildReportAsync} adds them (their texts are read from the results files).
 */
export function buildReport(index: TraceIndex, options: Omit<ReportOptions, 'paths'> = {}): Report {
  return reportParts(index, options).report;
}

/**
 * {@link buildReport} with {@link Report.paths} when `options.paths` asks for them: per compared
 * (base, model) pair, the reasoning-path summary (src/core/pathSummary.ts), the texts read from the
 * results files one problem at a time.
 * @throws as {@link buildReport}; SourceChangedError (sampleText.ts) when a results file changed
 *   since it was indexed.
 */
export async function buildReportAsync(index: TraceIndex, options: ReportOptions = {}): Promise<Report> {
  const { report, pathPairs, boot } = reportParts(index, options);
  if (!options.paths) return report;
  const cap = (options.paths === true ? undefined : options.paths.maxTextSamples) ?? DEFAULT_MAX_TEXT_SAMPLES;
  const contexts = new Map<number, PathContext>();
  const paths: PathSummary[] = [];
  for (const [b, m] of pathPairs) {
    let ctx = contexts.get(b.id);
    if (!ctx) {
      ctx = await pathContext(index, b.id, cap);
      contexts.set(b.id, ctx);
    }
    paths.push(await pathSummary(index, ctx, m.id, { base: b.displayId, model: m.displayId }, boot));
  }
  // paths stay where the report has always had them: before the diagnostics and warnings
  const { diagnostics, warnings, ...rest } = report;
  return { ...rest, paths, diagnostics, warnings };
}

/** The report without paths, the pairs whose paths {@link buildReportAsync} adds, and the bootstrap options. */
function reportParts(index: TraceIndex, options: ReportOptions) {
  const tool = options.toolGrading ? toolVerdicts(index) : undefined;
  let toolGraded = 0;
  let toolCorrect = 0;
  const models = index.models().map((m) => {
    const t = tool?.get(m.id);
    if (!t) return m;
    let c = 0;
    for (const v of t.values()) {
      toolGraded += v.graded;
      toolCorrect += v.correct;
      c += v.correct;
    }
    return { ...m, correct: m.correct + c };
  });
  const stats = index.allStats().map((r) => {
    const t = tool?.get(r.modelId)?.get(r.problemId);
    return t ? { ...r, graded: r.graded + t.graded, c: r.c + t.correct } : r;
  });
  const byModel = new Map<number, StatRow[]>();
  for (const s of stats) {
    const list = byModel.get(s.modelId) ?? [];
    list.push(s);
    byModel.set(s.modelId, list);
  }
  const boot = { replicates: options.replicates ?? REPORT_REPLICATES, seed: options.seed ?? 12345 };
  const warnings: string[] = [];

  let baseIdx = -1;
  let baseSource: Report['baseSource'] = 'none';
  if (options.base) {
    baseIdx = pickModel(models, options.base);
    if (baseIdx < 0) throw new Error(noModelMatches('--base', options.base, models));
    baseSource = 'option';
  } else if (models.length > 0) {
    baseIdx = guessBaseModel(models);
    // -1: the folder holds only seeds of one model, never each other's base (trial 6 finding 2)
    baseSource = baseIdx >= 0 ? 'guess' : 'none';
  }
  const base = baseIdx >= 0 ? models[baseIdx] : undefined;
  const references = options.majAtK ? referenceAnswers(index) : new Map<number, string | null>();
  const datasets = datasetCounts(index);
  const datasetOf = datasetByProblem(index);
  const countByDataset = (rows: readonly StatRow[]): DatasetCount[] =>
    datasets
      .map((d) => ({
        dataset: d.dataset,
        problems: rows.filter((r) => datasetOf.get(r.problemId) === d.dataset).length,
      }))
      .filter((d) => d.problems > 0);
  const perDataset: DatasetModelReport[] = [];

  const modelReports: ModelReport[] = models.map((m) => {
    const rows = byModel.get(m.id) ?? [];
    const set = problemSet(rows);
    const pc = set.graded;
    const graded = pc.reduce((a, p) => a + p.n, 0);
    const passAtK = passAtKPoints(set, boot);
    const maj = options.majAtK ? modelMajAtK(index, m, rows, set, references) : {};
    const report: ModelReport = {
      id: m.displayId,
      label: m.label,
      run: m.run,
      grader: m.grader,
      partial: m.partial,
      problems: set.total,
      datasets: countByDataset(rows),
      leftOut: { noSamples: set.noSamples, ungraded: set.ungraded },
      samples: m.samples,
      ungradedSamples: m.samples - graded,
      correct: m.correct,
      sampleAccuracy: graded > 0 ? m.correct / graded : null,
      passAtK,
      bestOfK: m.scored > 0 ? modelBestOfK(index, m, rows, set, !!tool) : [],
      ...(maj.majAtK ? { majAtK: maj.majAtK } : {}),
      histogram: accuracyHistogram(pc).bins,
    };
    if (m.partial) warnings.push(partialWarning(m.displayId));
    const unreadable = unreadableWarning(m.displayId, index.unreadableRecords(m.id));
    if (unreadable) warnings.push(unreadable);
    warnings.push(...denominatorWarnings(m.displayId, set, passAtK));
    for (const w of [
      alongK(m.displayId, 'best-of-', report.bestOfK, 'n with a reward score'),
      alongK(m.displayId, 'maj', report.majAtK ?? []),
    ])
      if (w) warnings.push(w);
    if (report.bestOfK.length) warnings.push(...bestOfKWarnings(index, m, set));
    if (maj.note) warnings.push(maj.note);
    if (datasets.length > 1)
      for (const d of report.datasets) {
        const drows = rows.filter((r) => datasetOf.get(r.problemId) === d.dataset);
        const dset = problemSet(drows);
        const dgraded = dset.graded.reduce((a, p) => a + p.n, 0);
        const correct = drows.reduce((a, r) => a + r.c, 0);
        const dpass = passAtKPoints(dset, boot);
        perDataset.push({
          model: m.displayId,
          dataset: d.dataset,
          problems: dset.total,
          samples: drows.reduce((a, r) => a + r.n, 0),
          ungradedSamples: drows.reduce((a, r) => a + r.n, 0) - dgraded,
          correct,
          sampleAccuracy: dgraded > 0 ? correct / dgraded : null,
          passAtK: dpass,
          leftOut: { noSamples: dset.noSamples, ungraded: dset.ungraded },
        });
        const w = alongK(`${m.displayId} dataset ${datasetName(d.dataset)}`, 'pass', dpass);
        if (w) warnings.push(w);
      }
    return report;
  });

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
    const baseRows = new Map(
      pooledRows(b)
        .filter((r) => r.graded > 0)
        .map((r) => [r.problemId, r]),
    );
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
    if (pairs.length === 0) continue;
    const { left, cset, extra, whole } = comparisonDenominator(modelRows, pooledRows(b), pairs.length);
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
    comparisons.push({
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
    });
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

  const strata: StratumReport[] = [];
  const noLevel: Report['noLevel'] = [];
  const levels = index.levels();
  if (levels.length > 0) {
    const levelOf = index.levelByProblem();
    for (const m of models) {
      const rows = byModel.get(m.id) ?? [];
      for (const level of levels) {
        const set = problemSet(rows.filter((r) => levelOf.get(r.problemId) === level));
        if (set.total === 0) continue;
        const passAtK = passAtKPoints(set, boot);
        strata.push({ model: m.displayId, level, problems: set.total, passAtK });
        const w = alongK(`${m.displayId} level ${level}`, 'pass', passAtK);
        if (w) warnings.push(w);
      }
      const without = rows.filter((r) => (levelOf.get(r.problemId) ?? null) === null).map((r) => r.problemId);
      if (without.length) {
        const name = problemNamer(index);
        noLevel.push({
          model: m.displayId,
          problems: without.length,
          total: rows.length,
          named: without.slice(0, 5).map(name),
        });
        warnings.push(
          without.length === rows.length
            ? `${m.displayId}: none of its ${rows.length} problems has a level: it has no figures by difficulty level`
            : `${m.displayId}: ${without.length} of its ${rows.length} problems ${without.length === 1 ? 'has' : 'have'} no level ${nameProblems(without, name)}: in no level's figures (pass@k by difficulty level)`,
        );
      }
    }
  }

  const training = computeTrajectories(index, {
    base,
    baseIsChoice: baseSource === 'option',
    stepPattern: options.stepPattern,
    ...boot,
    models,
    stats,
  });
  warnings.push(...training.warnings);

  const report: Report = {
    schemaVersion: 1,
    base: base?.displayId ?? null,
    baseSource,
    datasets,
    models: modelReports,
    perDataset,
    comparisons,
    notCompared,
    strata,
    noLevel,
    audit: options.audit ?? [],
    ...(options.audit?.length ? { auditRules: auditRules(options.audit) } : {}),
    ...(options.auditChecked?.checked.length
      ? {
          auditChecked: {
            files: options.auditChecked.checked.length,
            figures: options.auditChecked.checked.reduce((a, x) => a + x.figures, 0),
          },
        }
      : {}),
    graderAudit: graderAudit(index),
    ...(options.regrade ? { regrade: regrade(index) } : {}),
    grading: { by: tool ? 'folder and tool' : 'folder', toolGraded, toolCorrect },
    ...(options.majAtK ? { majAtKRule: MAJ_AT_K_RULE } : {}),
    ...rewardSection(index, boot),
    ...(options.ppl?.available ? { ppl: pplReport(options.ppl, models, pairsToCompare) } : {}),
    trajectories: training.trajectories.map(reportTrajectory),
    diagnostics: withNotAudited(
      tool ? toolGradedDiagnostics(index, index.diagnostics()) : index.diagnostics(),
      notAuditedDiagnostics(options.auditChecked?.notChecked ?? []),
    ),
    warnings,
  };
  return { report, pathPairs, boot };
}

/** The index's diagnostics with the audit's "not audited" infos among them, by file and line (unchanged without any). */
function withNotAudited(diagnostics: Diagnostic[], notAudited: Diagnostic[]): Diagnostic[] {
  if (notAudited.length === 0) return diagnostics;
  return [...diagnostics, ...notAudited].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * The indexer's infos on samples without a verdict, as they stand under --tool-grading (trial 5 finding
 * 11c: "no graded sample … count in missing of every figure" stayed while the table counted those
 * samples): where the tool graded some of them, the info says how many of them are now in the figures.
 * Matched by the file, model and problem the info names (a file's own samples, so that math500 #0 and
 * aime24 #0 are not mixed); other diagnostics are returned as they are.
 */
export function toolGradedDiagnostics(index: TraceIndex, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // samples the tool grades (no verdict, an answer and a reference), by file, model name and problem id: the names the infos use
  const rows = index.db
    .prepare(
      `SELECT f.path AS file, m.name AS model, pr.problem_id AS problem, s.extracted_answer AS a, pr.reference_answer AS ref
         FROM samples s JOIN files f ON f.id = s.file_id JOIN models m ON m.id = s.model_id JOIN problems pr ON pr.id = s.problem_id
        WHERE s.correct IS NULL AND s.extracted_answer IS NOT NULL AND pr.reference_answer IS NOT NULL`,
    )
    .all() as { file: string; model: string; problem: string; a: string; ref: string }[];
  const count = new Map<string, number>();
  const add = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
  for (const r of rows) {
    if (toolVerdict(r.a, r.ref) === null) continue;
    add(JSON.stringify([r.file, r.model]));
    add(JSON.stringify([r.file, r.model, r.problem]));
  }
  const note = (n: number) =>
    ` — under --tool-grading, ${n} of them ${n === 1 ? 'is' : 'are'} graded by the tool (answer equivalent to the reference answer) and in the figures`;
  return diagnostics.map((d) => {
    const problem =
      /^problem ("(?:[^"\\]|\\.)*") of model (.+?)(?: has no graded sample \(|: \d+ of its \d+ samples (?:has|have) no verdict)/.exec(
        d.message,
      );
    const file = /^model (.+?) has no graded sample in this file/.exec(d.message);
    const key = problem
      ? JSON.stringify([d.file, problem[2], JSON.parse(problem[1]) as string])
      : file
        ? JSON.stringify([d.file, file[1]])
        : undefined;
    const n = key === undefined ? 0 : (count.get(key) ?? 0);
    return n > 0 ? { ...d, message: d.message + note(n) } : d;
  });
}

/**
 * The error text for a model filter (`--base`, `--model`: a case-insensitive substring of a model's id
 * or label) that matches no model: the models, and "did you mean" the models whose id or label holds a
 * near miss of the text ({@link nearSubstring}: edit distance at most a third of its length; the nearest
 * ones only).
 */
export function noModelMatches(option: string, text: string, models: readonly ModelRow[]): string {
  const dist = models.map((m) => nearSubstring(text, `${m.displayId}\n${m.label}`));
  const best = Math.min(...dist.map((d) => d ?? Number.POSITIVE_INFINITY));
  const near = models.filter((_, i) => dist[i] === best);
  const list = models.map((m) => m.displayId).join(', ');
  return `no model matches ${option} "${text}"${near.length ? ` (did you mean ${near.map((m) => `"${m.displayId}"`).join(' or ')}?)` : ''}; models: ${list || 'none'}`;
}

/**
 * The `rewardModels` section: the model with the most scorers first (ties: the most problems), the others
 * in `otherModels`; nothing when no model's samples carry a score.
 */
function rewardSection(index: TraceIndex, boot: { replicates: number; seed: number }): Pick<Report, 'rewardModels'> {
  const section = rewardModelsReport(index, boot);
  if (section.models.length === 0) return {};
  const [main, ...others] = [...section.models].sort(
    (a, b) => b.scorers.length - a.scorers.length || b.problems - a.problems,
  );
  return {
    rewardModels: {
      ...main,
      unattachedScores: section.unattachedScores,
      ...(others.length ? { otherModels: others } : {}),
    },
  };
}
