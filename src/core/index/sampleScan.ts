/**
 * One read of the samples table that the report's sections share: per model, every sample's row id,
 * problem, verdict, reward score and extracted answer, in (problem, sample index) order (the order of
 * the `samples_by_model_problem` index, so each model is one index range). The grader audit, best-of-k,
 * its warnings, the reward-model section and maj@k each used to read the table again; at a million
 * samples each read costs about 0.3-0.7 s of CPU.
 */
import { ERRORED_SAMPLE, type TraceIndex } from './traceIndex';

/** One model's samples as columns, in (problem row id, sample index) order. */
export interface ModelSamples {
  modelId: number;
  /** Number of samples. */
  size: number;
  /** Sample row ids. */
  id: Float64Array;
  /** Problem row id of each sample (ascending). */
  problem: Int32Array;
  /**
   * Verdict of each sample: 1 correct, 0 incorrect, -1 none, -2 none because the sample errored (finish reason
   * `error`: the model gave no output, e.g. an Inspect sample whose `error` is set; traceIndex `ERRORED_SAMPLE`).
   */
  correct: Int8Array;
  /** Reward score of each sample; NaN when it has none. */
  score: Float64Array;
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
  const count = index.db.prepare('SELECT count(*) FROM samples WHERE model_id = ?').pluck();
  const query = index.db.prepare(
    `SELECT id, problem_id AS p, correct AS c, ${ERRORED_SAMPLE} AS e, reward_score AS s, extracted_answer AS a FROM samples WHERE model_id = ? ORDER BY problem_id, sample_index`,
  );
  const out: SampleScan = new Map();
  for (const modelId of modelIds) {
    // sized by a count (the index's range), then filled; a sample written in between is not read
    const size = count.get(modelId) as number;
    const id = new Float64Array(size);
    const problem = new Int32Array(size);
    const correct = new Int8Array(size);
    const score = new Float64Array(size);
    const answer: (string | null)[] = new Array(size);
    const runs: number[] = [];
    let last = Number.NaN;
    let i = 0;
    for (const r of query.iterate(modelId) as IterableIterator<{
      id: number;
      p: number;
      c: number | null;
      e: number;
      s: number | null;
      a: string | null;
    }>) {
      if (i === size) break;
      if (r.p !== last) {
        runs.push(i);
        last = r.p;
      }
      id[i] = r.id;
      problem[i] = r.p;
      correct[i] = r.c === null ? (r.e === 1 ? -2 : -1) : r.c === 1 ? 1 : 0;
      // SQLite stores no NaN (it writes NULL), so NaN can stand for "no score"
      score[i] = r.s === null ? Number.NaN : r.s;
      answer[i] = r.a;
      i++;
    }
    runs.push(i);
    out.set(modelId, {
      modelId,
      size: i,
      id: id.subarray(0, i),
      problem: problem.subarray(0, i),
      correct: correct.subarray(0, i),
      score: score.subarray(0, i),
      answer: i < size ? answer.slice(0, i) : answer,
      runs,
    });
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
      if (Number.isNaN(score) || s.correct[i] < 0) continue;
      if (!list) out.set(s.problem[i], (list = []));
      list.push({ score, correct: s.correct[i] === 1 });
    }
  }
  return out;
}

/**
 * The votes of maj@k: answers and verdicts of a model's samples grouped by problem, in sample order, without the
 * samples that errored (traceIndex `ERRORED_SAMPLE`: no output, so no vote); a problem whose every sample errored has
 * no entry. `errored`: how many samples were left out.
 */
export function answersByProblem(s: ModelSamples): {
  votes: Map<number, { answer: string | null; correct: boolean | null }[]>;
  errored: number;
} {
  const votes = new Map<number, { answer: string | null; correct: boolean | null }[]>();
  let errored = 0;
  for (let j = 0; j + 1 < s.runs.length; j++) {
    const list: { answer: string | null; correct: boolean | null }[] = [];
    for (let i = s.runs[j]; i < s.runs[j + 1]; i++) {
      if (s.correct[i] === -2) errored++;
      else list.push({ answer: s.answer[i], correct: s.correct[i] < 0 ? null : s.correct[i] === 1 });
    }
    if (list.length) votes.set(s.problem[s.runs[j]], list);
  }
  return { votes, errored };
}
