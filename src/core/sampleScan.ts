/**
 * One read of the samples table that the report's sections share: per model, every sample's row id,
 * problem, verdict, reward score and extracted answer, in (problem, sample index) order (the order of
 * the `samples_by_model_problem` index, so each model is one index range). The grader audit, best-of-k,
 * its warnings, the reward-model section and maj@k each used to read the table again; at a million
 * samples each read costs about 0.3-0.7 s of CPU.
 */
import type { TraceIndex } from './index/traceIndex';

/** One model's samples as columns, in (problem row id, sample index) order. */
export interface ModelSamples {
  modelId: number;
  /** Sample row ids. */
  id: number[];
  /** Problem row id of each sample (ascending). */
  problem: number[];
  /** Verdict of each sample: 1 correct, 0 incorrect, -1 none. */
  correct: Int8Array;
  /** Reward score of each sample; null when it has none. */
  score: (number | null)[];
  /** Extracted answer of each sample; null when none. */
  answer: (string | null)[];
  /**
   * Start of each problem's samples in the columns, problems ascending; `runs[runs.length - 1]` is the
   * number of samples (so problem j spans `runs[j]` to `runs[j + 1]`).
   */
  runs: number[];
}

/** Every model's {@link ModelSamples}, by model row id. */
export type SampleScan = Map<number, ModelSamples>;

/**
 * Reads the samples of the given models (every model of the index by default): one indexed range
 * query per model. Cost O(samples); memory five columns per sample.
 */
export function scanSamples(
  index: TraceIndex,
  modelIds: readonly number[] = index.models().map((m) => m.id),
): SampleScan {
  const query = index.db.prepare(
    'SELECT id, problem_id AS p, correct AS c, reward_score AS s, extracted_answer AS a FROM samples WHERE model_id = ? ORDER BY problem_id, sample_index',
  );
  const out: SampleScan = new Map();
  for (const modelId of modelIds) {
    const id: number[] = [];
    const problem: number[] = [];
    const verdicts: number[] = [];
    const score: (number | null)[] = [];
    const answer: (string | null)[] = [];
    const runs: number[] = [];
    let last = Number.NaN;
    for (const r of query.iterate(modelId) as IterableIterator<{
      id: number;
      p: number;
      c: number | null;
      s: number | null;
      a: string | null;
    }>) {
      if (r.p !== last) {
        runs.push(id.length);
        last = r.p;
      }
      id.push(r.id);
      problem.push(r.p);
      verdicts.push(r.c === null ? -1 : r.c === 1 ? 1 : 0);
      score.push(r.s);
      answer.push(r.a);
    }
    runs.push(id.length);
    out.set(modelId, { modelId, id, problem, correct: Int8Array.from(verdicts), score, answer, runs });
  }
  return out;
}

/** The samples of a model with a reward score and a verdict, grouped by problem (ascending), as `TraceIndex.scoredSamplesByProblem` gives them (order within a problem aside). */
export function scoredByProblem(s: ModelSamples): Map<number, { score: number; correct: boolean }[]> {
  const out = new Map<number, { score: number; correct: boolean }[]>();
  for (let j = 0; j + 1 < s.runs.length; j++) {
    let list: { score: number; correct: boolean }[] | undefined;
    for (let i = s.runs[j]; i < s.runs[j + 1]; i++) {
      const score = s.score[i];
      if (score === null || s.correct[i] < 0) continue;
      if (!list) out.set(s.problem[i], (list = []));
      list.push({ score, correct: s.correct[i] === 1 });
    }
  }
  return out;
}

/** Answers and verdicts of a model's samples grouped by problem, in sample order, as `TraceIndex.answersByProblem` gives them. */
export function answersByProblem(s: ModelSamples): Map<number, { answer: string | null; correct: boolean | null }[]> {
  const out = new Map<number, { answer: string | null; correct: boolean | null }[]>();
  for (let j = 0; j + 1 < s.runs.length; j++) {
    const list: { answer: string | null; correct: boolean | null }[] = [];
    for (let i = s.runs[j]; i < s.runs[j + 1]; i++)
      list.push({ answer: s.answer[i], correct: s.correct[i] < 0 ? null : s.correct[i] === 1 });
    out.set(s.problem[s.runs[j]], list);
  }
  return out;
}
