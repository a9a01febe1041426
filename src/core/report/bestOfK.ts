import { toolVerdict } from '../analyses/graderAudit';
import { bestOfKCurve, kGrid } from '../metrics';
import { type ProblemSet, denominator, nameProblems } from '../metrics/denominators';
import type { ModelRow, StatRow, TraceIndex } from '../index/traceIndex';
import { problemNamer } from '../grouping/datasets';
import { type ModelSamples, scoredByProblem } from '../index/sampleScan';
import type { BestOfKReportPoint } from './types';

/**
 * Dataset best-of-k curve of one model at k = 1, 2, 4, ..., n: the exact per-problem expectation
 * (metrics `bestOfKCurve`) averaged over problems with n >= k, using the samples that have both a
 * reward score and a verdict. Problems with graded samples but none with a reward score count in
 * `missing` as `noScore`. Samples from the report's one read (../sampleScan.ts); each problem's samples are sorted once.
 */
export function modelBestOfK(
  index: TraceIndex,
  samples: ModelSamples,
  m: ModelRow,
  rows: readonly StatRow[],
  set: ProblemSet,
  toolGrading: boolean,
): BestOfKReportPoint[] {
  const byProblem = scoredByProblem(samples);
  if (toolGrading) {
    // scored samples without a verdict, graded by the tool where they have an answer and a reference
    const scored = index.db
      .prepare(
        `SELECT s.problem_id AS p, s.reward_score AS score, s.extracted_answer AS a, pr.reference_answer AS ref
           FROM samples s JOIN problems pr ON pr.id = s.problem_id
          WHERE s.model_id = ? AND s.reward_score IS NOT NULL AND s.correct IS NULL`,
      )
      .all(m.id) as { p: number; score: number; a: string | null; ref: string | null }[];
    for (const r of scored) {
      const v = toolVerdict(r.a, r.ref);
      if (v === null) continue;
      const list = byProblem.get(r.p) ?? [];
      list.push({ score: r.score, correct: v });
      byProblem.set(r.p, list);
    }
  }
  const perProblem = [...byProblem.values()];
  const maxN = perProblem.reduce((a, s) => Math.max(a, s.length), 0);
  if (maxN === 0) return [];
  // Problems without a (scored, graded) sample, by reason; with tool grading an ungraded problem can be used.
  const noScore = set.gradedRows.filter((r) => !byProblem.has(r.problemId)).length;
  const ungraded = rows.filter((r) => r.n > 0 && r.graded === 0 && !byProblem.has(r.problemId)).length;
  return bestOfKCurve(perProblem, kGrid(maxN)).map((p) => ({
    k: p.k,
    value: p.value,
    ...denominator({ total: set.total, noSamples: set.noSamples, ungraded }, p.problems, p.missing, { noScore }),
  }));
}

/**
 * Why best-of-k leaves problems and samples out, where the table shows it: the graded problems without
 * any sample that has a reward score and a verdict (`noScore`, named), and the samples of the other
 * problems that are not used because they lack a reward score or a verdict (trial 3 finding 8: `(3/5)`
 * with the reason only in the JSON). Empty when nothing is left out.
 */
export function bestOfKWarnings(index: TraceIndex, scanned: ModelSamples, m: ModelRow, set: ProblemSet): string[] {
  // per problem with samples (ascending): samples with a reward score and a verdict, without a score, without a verdict
  const rows: { p: number; usable: number; noScore: number; noVerdict: number }[] = [];
  for (let j = 0; j + 1 < scanned.runs.length; j++) {
    const r = { p: scanned.problem[scanned.runs[j]], usable: 0, noScore: 0, noVerdict: 0 };
    for (let i = scanned.runs[j]; i < scanned.runs[j + 1]; i++) {
      const scored = !Number.isNaN(scanned.score[i]);
      const graded = scanned.correct[i] >= 0;
      if (scored && graded) r.usable++;
      else if (graded) r.noScore++;
      else if (scored) r.noVerdict++;
    }
    rows.push(r);
  }
  const byProblem = new Map(rows.map((r) => [r.p, r]));
  const namer = problemNamer(index);
  const name = (ids: number[]) => nameProblems(ids, namer);
  const noScore = set.gradedRows.filter((r) => !byProblem.get(r.problemId)?.usable).map((r) => r.problemId);
  const used = rows.filter((r) => r.usable > 0);
  const unscored = used.filter((r) => r.noScore > 0);
  const unverdicted = used.filter((r) => r.noVerdict > 0);
  const sum = (list: typeof rows, f: (r: (typeof rows)[number]) => number) => list.reduce((a, r) => a + f(r), 0);
  const samples = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const out: string[] = [];
  if (noScore.length)
    out.push(
      `${m.displayId}: best-of-k leaves out ${noScore.length} of its ${set.total} problems whose graded samples have no reward score ${name(noScore)}`,
    );
  if (unscored.length)
    out.push(
      `${m.displayId}: best-of-k leaves out ${samples(
        sum(unscored, (r) => r.noScore),
        'graded sample',
      )} without a reward score ${name(unscored.map((r) => r.p))}: n is the samples with a reward score and a verdict`,
    );
  if (unverdicted.length)
    out.push(
      `${m.displayId}: best-of-k leaves out ${samples(
        sum(unverdicted, (r) => r.noVerdict),
        'sample',
      )} with a reward score but no verdict ${name(unverdicted.map((r) => r.p))}`,
    );
  return out;
}
