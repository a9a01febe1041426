import type { Diagnostic } from './model';
import type { AuditEntry } from './audit';
import {
  accuracyHistogram,
  bestOfKCurve,
  bootstrapPassAtKCurve,
  categoriesWithinNoise,
  categoryCounts,
  coverage,
  crossoverBootstrap,
  crossoverK,
  intervalHoldsZero,
  kGrid,
  majAtKCurve,
  pairedBootstrapDiff,
  type CategoryCounts,
  type CoverageCounts,
  type CrossoverInterval,
  type DifferenceCategory,
  type CurveCIPoint,
  type HistogramBin,
  type MajAtKPoint,
  type ProblemCounts,
  type ProblemPair,
} from './metrics';
import { comparisonPairs, guessBaseModel, pickModel } from './index/labels';
import type { ModelRow, StatRow, TraceIndex } from './index/traceIndex';
import { type PplRead, type PplReport, pplReport } from './ppl';
import { type RewardModelsReport, rewardModelsReport } from './rewardReport';

/** A pass@k point with its bootstrap interval over problems (null where no problem has n >= k). */
export type PassAtKPoint = CurveCIPoint;

export interface ModelReport {
  /** `run:name@revision`. */
  id: string;
  label: string;
  run: string;
  problems: number;
  samples: number;
  correct: number;
  /** correct / samples over graded samples. */
  sampleAccuracy: number | null;
  passAtK: PassAtKPoint[];
  /** Best-of-k by reward score; empty when the model has no reward scores. */
  bestOfK: { k: number; value: number | null; problems: number }[];
  /**
   * maj@k (majority vote over extracted answers) at k = 1, 2, 4, ..., n; only when the report was asked
   * for it ({@link ReportOptions.majAtK}) and the model has extracted answers, else absent.
   */
  majAtK?: MajAtKPoint[];
  histogram: HistogramBin[];
}

export interface ComparisonReport {
  base: string;
  model: string;
  /** Problems both models have samples for (the comparison's universe). */
  problems: number;
  coverage: CoverageCounts;
  /**
   * Smallest k at which the model trailing at k = 1 is ahead or level before saturation (metrics
   * `crossoverK`); null if never, or when the two are level only at saturation (then `saturationK`).
   */
  crossoverK: number | null;
  /** Smallest k from which both are within 1e-9 of their common maximum ("tie at saturation from k = K"); null if never. */
  saturationK: number | null;
  /**
   * Bootstrap interval of the crossover k over problems (2.5th-97.5th percentiles among replicates with
   * one, and the share with none; metrics `crossoverBootstrap`); null when the two tie at k = 1.
   */
  crossoverInterval: CrossoverInterval | null;
  leaderAtK1: 'base' | 'model' | 'tie';
  /** The paired bootstrap interval of model - base pass@1 contains 0: who leads at k = 1 is within noise. */
  leaderAtK1WithinNoise: boolean;
  categories: CategoryCounts;
  /** Of `categories`' difference categories, the problems decided within noise (overlapping 95% Jeffreys intervals). */
  categoriesWithinNoise: Record<DifferenceCategory, number>;
  /** Paired bootstrap of model - base pass@k on the shared problems. */
  passAtKDiff: { k: number; diff: number | null; ciLow: number | null; ciHigh: number | null }[];
}

export interface StratumReport {
  model: string;
  level: string;
  problems: number;
  passAtK: PassAtKPoint[];
}

/** The report of the CLI's `report` command and the overview webview (JSON, schemaVersion 1). */
export interface Report {
  schemaVersion: 1;
  /** Display id of the base model, or null when the folder has fewer than one model. */
  base: string | null;
  /** How the base model was chosen. */
  baseSource: 'option' | 'guess' | 'none';
  models: ModelReport[];
  comparisons: ComparisonReport[];
  strata: StratumReport[];
  audit: AuditEntry[];
  /**
   * Reward models (several scorers on the same samples): for the model whose samples carry the most
   * scorers, each scorer's pairwise accuracy and best-of-N with pass@N and regret, and the rank
   * correlations between the two across scorers (src/core/rewardReport.ts); `otherModels` holds the
   * same for other scored models. Absent when no sample has a score.
   */
  rewardModels?: RewardModelsReport & { unattachedScores: number; otherModels?: RewardModelsReport[] };
  /**
   * PPL_base per model and per comparison, when the folder carries a base-model log-probability sidecar
   * (src/core/ppl.ts); absent otherwise.
   */
  ppl?: PplReport;
  diagnostics: Diagnostic[];
  /** Notes for the reader, e.g. ragged n between compared models. */
  warnings: string[];
}

export interface ReportOptions {
  /** Substring of the base model's id or label; guessed from names when absent. */
  base?: string;
  /** Bootstrap replicates (default 2000) and seed (default 12345). */
  replicates?: number;
  seed?: number;
  /** Audit entries, computed by the caller ({@link auditFolder}) because it reads the folder. */
  audit?: AuditEntry[];
  /** The folder's log-probability sidecar, read by the caller ({@link readPplSidecar}) because it reads the folder. */
  ppl?: PplRead;
  /**
   * Adds maj@k curves. Off by default: at large k with many distinct answers the exact expectation
   * is replaced by a Monte Carlo estimate of `draws` seeded k-subsets per problem (default 2000;
   * standard error per problem <= 0.5/sqrt(draws)), which costs O(draws * k) per problem and k.
   */
  majAtK?: boolean | { draws?: number };
}

/**
 * Builds the full report from the index: per model pass@k curves at k = 1, 2, 4, ..., n with
 * bootstrap intervals over problems (seeded: identical on every run), best-of-k by reward score,
 * accuracy histograms; per non-base model the comparison with the base model on shared problems
 * (coverage, crossover k, categories, paired bootstrap difference); per model and difficulty level
 * the stratified pass@k. Formulas and sources: see `src/core/metrics`.
 * @throws Error when `options.base` matches no model or several.
 */
export function buildReport(index: TraceIndex, options: ReportOptions = {}): Report {
  const models = index.models();
  const stats = index.allStats();
  const byModel = new Map<number, StatRow[]>();
  for (const s of stats) {
    const list = byModel.get(s.modelId) ?? [];
    list.push(s);
    byModel.set(s.modelId, list);
  }
  const boot = { replicates: options.replicates ?? 2000, seed: options.seed ?? 12345 };
  const warnings: string[] = [];

  let baseIdx = -1;
  let baseSource: Report['baseSource'] = 'none';
  if (options.base) {
    baseIdx = pickModel(models, options.base);
    if (baseIdx < 0)
      throw new Error(
        `no model matches --base "${options.base}"; models: ${models.map((m) => m.displayId).join(', ')}`,
      );
    baseSource = 'option';
  } else if (models.length > 0) {
    baseIdx = guessBaseModel(models);
    baseSource = 'guess';
  }
  const base = baseIdx >= 0 ? models[baseIdx] : undefined;

  const counts = (rows: StatRow[]): ProblemCounts[] =>
    rows.filter((r) => r.graded > 0).map((r) => ({ n: r.graded, c: r.c }));

  const modelReports: ModelReport[] = models.map((m) => {
    const rows = byModel.get(m.id) ?? [];
    const pc = counts(rows);
    const maxN = pc.reduce((a, p) => Math.max(a, p.n), 0);
    const ks = maxN > 0 ? kGrid(maxN) : [];
    const graded = pc.reduce((a, p) => a + p.n, 0);
    return {
      id: m.displayId,
      label: m.label,
      run: m.run,
      problems: rows.length,
      samples: m.samples,
      correct: m.correct,
      sampleAccuracy: graded > 0 ? m.correct / graded : null,
      passAtK: bootstrapPassAtKCurve(pc, ks, boot),
      bestOfK: m.scored > 0 ? modelBestOfK(index, m) : [],
      ...(options.majAtK ? modelMajAtK(index, m, options.majAtK === true ? {} : options.majAtK, boot.seed) : {}),
      histogram: accuracyHistogram(pc).bins,
    };
  });

  // Which base each model is compared with. With --base, that model for every other model.
  // Otherwise runs are compared within themselves (a run holding a base-like model and others,
  // as rlvr_behavior_probe's runs and checkpoints do: each RL model against its own run's SFT),
  // and models of runs without one are compared with the folder's guessed base.
  const pairsToCompare = comparisonPairs(models, base, baseSource === 'option');
  const comparisons: ComparisonReport[] = [];
  for (const [b, m] of pairsToCompare) {
    const baseRows = new Map((byModel.get(b.id) ?? []).filter((r) => r.graded > 0).map((r) => [r.problemId, r]));
    const pairs: ProblemPair[] = [];
    for (const r of byModel.get(m.id) ?? []) {
      const br = baseRows.get(r.problemId);
      if (br && r.graded > 0)
        pairs.push({
          problemKey: String(r.problemId),
          base: { n: br.graded, c: br.c },
          model: { n: r.graded, c: r.c },
        });
    }
    if (pairs.length === 0) continue;
    const minN = pairs.reduce((a, p) => Math.min(a, p.base.n, p.model.n), Infinity);
    const maxN = pairs.reduce((a, p) => Math.max(a, p.base.n, p.model.n), 0);
    if (minN !== maxN)
      warnings.push(
        `${m.displayId} vs ${b.displayId}: n differs between problems or models (${minN}..${maxN}); at k above ${minN} some problems are left out`,
      );
    const cross = crossoverK(pairs);
    const diff = pairedBootstrapDiff(
      pairs.map((p) => p.base),
      pairs.map((p) => p.model),
      kGrid(maxN),
      boot,
    ).map((d) => ({ k: d.k, diff: d.diff, ciLow: d.ciLow, ciHigh: d.ciHigh }));
    comparisons.push({
      base: b.displayId,
      model: m.displayId,
      problems: pairs.length,
      coverage: coverage(pairs),
      crossoverK: cross.k,
      saturationK: cross.saturationK,
      crossoverInterval: crossoverBootstrap(pairs, boot),
      leaderAtK1: cross.leaderAtK1,
      leaderAtK1WithinNoise: intervalHoldsZero(diff[0]),
      categories: categoryCounts(pairs),
      categoriesWithinNoise: categoriesWithinNoise(pairs),
      passAtKDiff: diff,
    });
  }

  const strata: StratumReport[] = [];
  const levels = index.levels();
  if (levels.length > 0) {
    const levelOf = index.levelByProblem();
    for (const m of models) {
      const rows = byModel.get(m.id) ?? [];
      for (const level of levels) {
        const pc = counts(rows.filter((r) => levelOf.get(r.problemId) === level));
        if (pc.length === 0) continue;
        const maxN = pc.reduce((a, p) => Math.max(a, p.n), 0);
        strata.push({
          model: m.displayId,
          level,
          problems: pc.length,
          passAtK: bootstrapPassAtKCurve(pc, kGrid(maxN), boot),
        });
      }
    }
  }

  return {
    schemaVersion: 1,
    base: base?.displayId ?? null,
    baseSource,
    models: modelReports,
    comparisons,
    strata,
    audit: options.audit ?? [],
    ...rewardSection(index, boot),
    ...(options.ppl?.available ? { ppl: pplReport(options.ppl, models, pairsToCompare) } : {}),
    diagnostics: index.diagnostics(),
    warnings,
  };
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

/**
 * Dataset best-of-k curve of one model at k = 1, 2, 4, ..., n: the exact per-problem expectation
 * (metrics `bestOfKCurve`) averaged over problems with n >= k, using the samples that have both a
 * reward score and a verdict. One query per model; each problem's samples are sorted once.
 */
function modelBestOfK(index: TraceIndex, m: ModelRow): { k: number; value: number | null; problems: number }[] {
  const perProblem = [...index.scoredSamplesByProblem(m.id).values()];
  const maxN = perProblem.reduce((a, s) => Math.max(a, s.length), 0);
  if (maxN === 0) return [];
  return bestOfKCurve(perProblem, kGrid(maxN)).map((p) => ({ k: p.k, value: p.value, problems: p.problems }));
}

/**
 * Dataset maj@k curve of one model at k = 1, 2, 4, ..., n (metrics `majAtKCurve`: mean over problems
 * with n >= k of the expected majority-vote credit; ties split the credit, null answers never win).
 * Absent (`{}`) when no sample of the model has an extracted answer.
 */
function modelMajAtK(
  index: TraceIndex,
  m: ModelRow,
  opts: { draws?: number },
  seed: number,
): { majAtK?: MajAtKPoint[] } {
  const perProblem = [...index.answersByProblem(m.id).values()];
  if (!perProblem.some((list) => list.some((s) => s.answer !== null && s.answer !== ''))) return {};
  const maxN = perProblem.reduce((a, s) => Math.max(a, s.length), 0);
  return { majAtK: majAtKCurve(perProblem, kGrid(maxN), { draws: opts.draws ?? 2000, seed }) };
}
