/**
 * The reward-model section of the report and of the overview's Reward models tab: per model whose
 * samples carry scores, every scorer's pairwise accuracy, best-of-N, pass@N and regret on the same
 * problems, the rank correlations between accuracy and best-of-N across scorers (with bootstrap
 * intervals), and the same by subject and level. Figures and sources: metrics/rewardModels.ts.
 */
import type { ModelRow, TraceIndex } from '../index/traceIndex';
import { PROBLEM_LEVEL_SQL, PROBLEM_SUBJECT_SQL } from '../index/traceIndex';
import { type ModelSamples, type SampleScan, scanSamples } from '../index/sampleScan';
import { type Denominator, describeDenominator } from '../metrics/denominators';
import {
  type BestOfNPoint,
  type RewardModelEval,
  type RewardProblem,
  evaluateRewardModels,
} from '../metrics/rewardModels';

/** Name under which the single reward score of the built-in readers (`reward_score`) appears as a scorer. */
export const REWARD_SCORE_SCORER = 'reward_score';

/**
 * The reward-model evaluation of one model's samples: the figures of metrics `evaluateRewardModels`
 * (problems every scorer scored completely, the N grid, per scorer pairwise accuracy and best-of-N with
 * pass@N and regret, correlations per N, strata by `subject` and `level`, unmatched per stratum variable).
 */
export interface RewardModelsReport extends RewardModelEval {
  /** Display id of the model whose samples are scored. */
  model: string;
  /** Rule that reduced step scores to one number, per scorer that gave step scores. */
  stepRules: Record<string, string>;
  /** Bootstrap of the correlation intervals. */
  bootstrap: { replicates: number; seed: number; level: number };
}

/** What {@link rewardModelsReport} returns: one entry per model with at least one scorer, and the scores left out. */
export interface RewardModelsSection {
  models: RewardModelsReport[];
  /** Named scores that attach to no sample (each named in a diagnostic on its file). */
  unattachedScores: number;
}

/** Options of {@link rewardModelsReport}. */
export interface RewardModelsOptions {
  replicates?: number;
  seed?: number;
  /** Only this model (row id). */
  modelId?: number;
  /** The samples already read (the report shares one read between its sections); read here when absent. */
  scan?: SampleScan;
}

/**
 * Builds the reward-model evaluation from the index (see the module comment). A model is included when
 * some of its samples carry a named score (attached by TraceIndex.resolveScores) or the single reward
 * score (as the scorer {@link REWARD_SCORE_SCORER}). The samples of a problem are its graded samples
 * (ungraded samples cannot be counted right or wrong); strata are the problem's subject and level
 * (from its records or a problem list).
 */
export function rewardModelsReport(index: TraceIndex, opts: RewardModelsOptions = {}): RewardModelsSection {
  const resolved = index.resolveScores();
  const byModel = new Map<number, Map<number, Map<string, number>>>();
  const stepRules: Record<string, string> = {};
  for (const a of resolved.attached) {
    if (opts.modelId !== undefined && a.modelId !== opts.modelId) continue;
    let bySample = byModel.get(a.modelId);
    if (!bySample) byModel.set(a.modelId, (bySample = new Map()));
    let scores = bySample.get(a.sampleId);
    if (!scores) bySample.set(a.sampleId, (scores = new Map()));
    scores.set(a.scorer, a.value);
    if (a.rule) stepRules[a.scorer] = a.rule;
  }
  const models = index.models().filter((m) => opts.modelId === undefined || m.id === opts.modelId);
  const strataOf = new Map(
    (
      index.db
        .prepare(`SELECT p.id, ${PROBLEM_SUBJECT_SQL} AS subject, ${PROBLEM_LEVEL_SQL} AS level FROM problems p`)
        .all() as { id: number; subject: string | null; level: string | null }[]
    ).map((r) => [r.id, { subject: r.subject, level: r.level }]),
  );
  const replicates = opts.replicates ?? 2000;
  const seed = opts.seed ?? 12345;
  const out: RewardModelsReport[] = [];
  for (const m of models) {
    const named = byModel.get(m.id);
    if (!named && m.scored === 0) continue;
    const samples = opts.scan?.get(m.id) ?? scanSamples(index, [m.id]).get(m.id);
    const r = samples && modelEval(index, m, samples, named ?? new Map(), strataOf, { replicates, seed });
    if (!r) continue;
    const rules = Object.fromEntries(Object.entries(stepRules).filter(([s]) => r.scorers.some((x) => x.name === s)));
    out.push({ model: m.displayId, ...r, stepRules: rules, bootstrap: { replicates, seed, level: 0.95 } });
  }
  return { models: out, unattachedScores: resolved.unattachedCount };
}

function modelEval(
  index: TraceIndex,
  m: ModelRow,
  samples: ModelSamples,
  named: Map<number, Map<string, number>>,
  strataOf: Map<number, { subject: string | null; level: string | null }>,
  boot: { replicates: number; seed: number },
): Omit<RewardModelsReport, 'model' | 'stepRules' | 'bootstrap'> | null {
  const scorerNames = new Set<string>();
  for (const s of named.values()) for (const k of s.keys()) scorerNames.add(k);
  const useReward = m.scored > 0;
  if (useReward) scorerNames.add(REWARD_SCORE_SCORER);
  if (scorerNames.size === 0) return null;
  // Every problem of the model, with or without samples (issue 9: a figure's denominator is the model's
  // problems; those without samples or without a graded sample are counted as left out, not dropped).
  const problems = new Map<number, { samples: number; correct: boolean[]; scores: Map<string, (number | null)[]> }>();
  const fresh = () => ({ samples: 0, correct: [], scores: new Map([...scorerNames].map((n) => [n, []])) });
  for (const st of index.modelStats(m.id)) problems.set(st.problemId, { ...fresh(), samples: st.n });
  const names = [...scorerNames];
  for (let i = 0; i < samples.id.length; i++) {
    const pid = samples.problem[i];
    let p = problems.get(pid);
    // the stats table has a row for every problem with samples; a sample without one still counts
    if (!p) problems.set(pid, (p = { ...fresh(), samples: 1 }));
    // ungraded samples cannot be counted right or wrong (the problem's `samples` still counts them)
    if (samples.correct[i] < 0) continue;
    p.correct.push(samples.correct[i] === 1);
    const s = named.size ? named.get(samples.id[i]) : undefined;
    for (const name of names) {
      const v =
        name === REWARD_SCORE_SCORER && !s?.has(name)
          ? Number.isNaN(samples.score[i])
            ? null
            : samples.score[i]
          : (s?.get(name) ?? null);
      p.scores.get(name)!.push(v);
    }
  }
  const input: RewardProblem[] = [...problems.entries()].map(([pid, p]) => ({
    key: String(pid),
    samples: p.samples,
    correct: p.correct,
    scores: p.scores,
    strata: strataOf.get(pid) ?? {},
  }));
  const byStrata = ['subject', 'level'].filter((k) =>
    input.some((p) => p.strata?.[k] !== null && p.strata?.[k] !== undefined),
  );
  const ev = evaluateRewardModels(input, {
    scorers: [...scorerNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    strata: byStrata,
    replicates: boot.replicates,
    seed: boot.seed,
  });
  return ev;
}

/**
 * The denominator of a reward-model figure in the terms of denominators.ts (`problems + missing` = the
 * model's problems): over the common set (pairwise accuracy, correlations) when `point` is absent, or
 * over the common-set problems with at least N samples at one point of a best-of-N curve. Reasons: no
 * samples, no graded sample, some scorer's score missing (`unscored`), fewer than N samples (`belowK`).
 */
export function rewardDenominator(
  ev: Pick<RewardModelEval, 'total' | 'problems' | 'leftOut'>,
  point?: Pick<BestOfNPoint, 'problems' | 'belowN'>,
): Denominator {
  const used = point ? point.problems : ev.problems;
  return {
    problems: used,
    missing: ev.total - used,
    leftOut: {
      noSamples: ev.leftOut.noSamples,
      ungraded: ev.leftOut.noGradedSample,
      belowK: point?.belowN ?? 0,
      unscored: ev.leftOut.incompleteScores,
    },
  };
}

/**
 * {@link rewardDenominator} in words: `over all 483 problems`, `over 480 of 483 problems: 2 have no
 * graded sample, 1 lacks a score of some scorer`; with a point, n < N is named with its N.
 */
export function describeRewardDenominator(
  ev: Pick<RewardModelEval, 'total' | 'problems' | 'leftOut'>,
  point?: Pick<BestOfNPoint, 'n' | 'problems' | 'belowN'>,
): string {
  return describeDenominator(rewardDenominator(ev, point), point?.n);
}
