import { toolVerdict } from '../analyses/graderAudit';
import { kGrid, majAtKCurve } from '../metrics';
import { type ProblemSet, denominator } from '../metrics/denominators';
import type { ModelRow, StatRow, TraceIndex } from '../index/traceIndex';
import { answerKey } from '../answers/equivalence';
import { hasReference } from '../answers/reference';
import { plural } from '../text/strings';
import { answersByProblem, type ModelSamples } from '../index/sampleScan';
import { type MajAtKReportPoint, MAJ_AT_K_RULE } from './types';

/** Reference answer of every problem, by problem row id. */
export function referenceAnswers(index: TraceIndex): Map<number, string | null> {
  return new Map(
    (
      index.db.prepare('SELECT id, reference_answer AS ref FROM problems').all() as {
        id: number;
        ref: string | null;
      }[]
    ).map((r) => [r.id, r.ref]),
  );
}

/**
 * Dataset maj@k curve of one model at k = 1, 2, 4, ..., n (metrics `majAtKCurve`: mean over problems
 * with n >= k of the expected majority-vote credit), by {@link MAJ_AT_K_RULE}: every sample votes (n
 * counts every sample, graded or not) but those that errored (traceIndex `ERRORED_SAMPLE`: no output), the
 * winning group judged by the problem's reference answer when it has one, else by verdicts. Absent (`{}`) when
 * no sample of the model has an extracted answer. Denominator: problems without samples, problems no rule can
 * judge (no reference answer and no graded sample, or every sample errored: `ungraded`), and problems with
 * n < k are counted in `missing`. Also returns the notes that say why maj@1 differs from pass@1
 * ({@link majVsPassNote}) and how many samples errored ({@link erroredNote}).
 */
export function modelMajAtK(
  samples: ModelSamples,
  m: ModelRow,
  rows: readonly StatRow[],
  set: ProblemSet,
  references: Map<number, string | null>,
): { majAtK?: MajAtKReportPoint[]; note?: string } {
  const { votes: byProblem, errored } = answersByProblem(samples);
  const perProblem = [...byProblem.values()];
  if (!perProblem.some((list) => list.some((s) => s.answer !== null && s.answer !== ''))) return {};
  const maxN = perProblem.reduce((a, s) => Math.max(a, s.length), 0);
  const refs = [...byProblem.keys()].map((p) => references.get(p) ?? null);
  // a problem is judged by its reference answer when it has one, else by verdicts
  const hasRef = (p: number) => hasReference(references.get(p) ?? null);
  const judged = (r: StatRow) => r.graded > 0 || hasRef(r.problemId);
  let unjudged = 0;
  // the judged problems' votes, ascending: those below k are the n < k of each k (one sort, not a filter per k)
  const judgedN: number[] = [];
  for (const r of rows) {
    if (r.n === 0) continue;
    const voters = byProblem.get(r.problemId)?.length ?? 0;
    // every sample errored: no vote, and no verdict (pass@k counts the problem as ungraded too)
    if (voters > 0 && judged(r)) judgedN.push(voters);
    else unjudged++;
  }
  judgedN.sort((a, b) => a - b);
  let below = 0;
  const majAtK = majAtKCurve(perProblem, kGrid(maxN), { references: refs, gradeByReference: true }).map((p) => {
    while (below < judgedN.length && judgedN[below] < p.k) below++;
    const { missing: _m, ...rest } = p;
    return {
      ...rest,
      ...denominator({ total: set.total, noSamples: set.noSamples, ungraded: unjudged }, p.problems, below),
    };
  });
  const noAnswer = noAnswerCounts(byProblem);
  const notes = [
    majVsPassNote(m.displayId, rows, set, byProblem, references, majAtK[0], noAnswer, errored) ??
      noAnswerNote(m.displayId, noAnswer),
    erroredNote(m.displayId, errored, !!majAtK.length),
  ].filter(Boolean);
  return { majAtK, note: notes.length ? notes.join('. ') : undefined };
}

/**
 * `m: 3 samples that errored (finish reason error, no verdict) do not vote in maj@k (no output), as they are in no
 * pass@k`, or undefined when none errored.
 */
export function erroredNote(model: string, errored: number, shown: boolean): string | undefined {
  if (errored === 0 || !shown) return undefined;
  const verb = errored === 1 ? 'does' : 'do';
  return `${model}: ${plural(errored, 'sample')} that errored (finish reason error, no verdict) ${verb} not vote in maj@k (no output), as ${errored === 1 ? 'it is' : 'they are'} in no pass@k`;
}

/**
 * The samples without an extracted answer (none, or empty after removing wrappers: `answerKey` null) of
 * a model: how many, and how many of those are graded correct. maj@k credits them 0 (they never win a
 * vote: a draw of only such samples scores 0), pass@k by their verdicts (trial 6 finding 11).
 */
export function noAnswerCounts(answers: Map<number, readonly { answer: string | null; correct: boolean | null }[]>): {
  samples: number;
  noAnswer: number;
  correct: number;
} {
  let samples = 0;
  let noAnswer = 0;
  let correct = 0;
  for (const list of answers.values())
    for (const s of list) {
      samples++;
      if (answerKey(s.answer) !== null) continue;
      noAnswer++;
      if (s.correct === true) correct++;
    }
  return { samples, noAnswer, correct };
}

/** `N samples without an extracted answer are credited 0 in maj@k (...)`, or '' when every sample has one. */
export function noAnswerClause(c: ReturnType<typeof noAnswerCounts>): string {
  if (c.noAnswer === 0) return '';
  const verb = c.noAnswer === 1 ? 'is' : 'are';
  const graded =
    c.correct > 0
      ? `; ${c.correct} of them ${c.correct === 1 ? 'is' : 'are'} graded correct, which pass@k credits`
      : '';
  return `${plural(c.noAnswer, 'sample')} of ${c.samples} without an extracted answer ${verb} credited 0 in maj@k (never ${c.noAnswer === 1 ? 'wins' : 'win'} a vote${graded})`;
}

/**
 * The note for a model whose maj@k credits samples without an extracted answer 0, when no note on maj@1
 * vs pass@1 says so already ({@link majVsPassNote}): `m: 2 samples of 12 without an extracted answer are
 * credited 0 in maj@k (never win a vote)`. Undefined when every sample has an answer.
 */
export function noAnswerNote(model: string, counts: ReturnType<typeof noAnswerCounts>): string | undefined {
  const clause = noAnswerClause(counts);
  return clause ? `${model}: ${clause}` : undefined;
}

/**
 * Why a model's maj@1 and pass@1 differ, in counts (trial 5 finding 5): the samples that vote in maj@k
 * but are in no pass@k (no verdict), the problems maj@k counts that pass@k does not (a reference
 * answer, no graded sample), and the graded samples whose verdict disagrees with the reference answer
 * (maj@k judges by the reference). Undefined when maj@1 equals pass@1 (within 1e-9) or either is absent.
 * `answers`: the votes ({@link answersByProblem}); `noAnswer`: the model's {@link noAnswerCounts}, counted once
 * by the caller; `errored`: the samples left out of the votes as errored.
 */
export function majVsPassNote(
  model: string,
  rows: readonly StatRow[],
  set: ProblemSet,
  answers: Map<number, readonly { answer: string | null; correct: boolean | null }[]>,
  references: Map<number, string | null>,
  maj1: MajAtKReportPoint | undefined,
  noAnswer: ReturnType<typeof noAnswerCounts>,
  errored = 0,
): string | undefined {
  const graded = set.graded;
  const pass1 = graded.length ? graded.reduce((a, p) => a + p.c / p.n, 0) / graded.length : null;
  if (!maj1 || maj1.value === null || pass1 === null || Math.abs(maj1.value - pass1) <= 1e-9) return undefined;
  // the samples that vote: every sample but those that errored (`errored`, not in `answers`)
  const samples = rows.reduce((a, r) => a + r.n, 0) - errored;
  const gradedSamples = rows.reduce((a, r) => a + r.graded, 0);
  const onlyMaj = rows.filter(
    (r) => answers.has(r.problemId) && r.graded === 0 && hasReference(references.get(r.problemId) ?? null),
  ).length;
  let disagree = 0;
  let checked = 0;
  for (const [p, list] of answers) {
    const ref = references.get(p) ?? null;
    for (const s of list) {
      if (s.correct === null) continue;
      const v = toolVerdict(s.answer, ref);
      if (v === null) continue;
      checked++;
      if (v !== s.correct) disagree++;
    }
  }
  const pct1 = (v: number) => (100 * v).toFixed(1);
  const why: string[] = [];
  if (samples > gradedSamples)
    why.push(
      `maj@k votes over all ${plural(samples, 'sample')}${errored ? ' that did not error' : ''}, ${samples - gradedSamples} of them without a verdict (in no pass@k)`,
    );
  if (onlyMaj > 0)
    why.push(`maj@k counts ${plural(onlyMaj, 'problem')} with a reference answer but no graded sample (in no pass@k)`);
  if (maj1.byReference > 0)
    why.push(
      `maj@k judges ${maj1.byReference} of its ${plural(maj1.problems, 'problem')} by the reference answer, pass@k by the folder's verdicts${disagree > 0 ? `: ${disagree} of the ${plural(checked, 'graded sample')} with an answer ${disagree === 1 ? 'has' : 'have'} a verdict that disagrees with the reference answer (see --regrade)` : ''}`,
    );
  // samples without an extracted answer: credited 0 by maj@k, by their verdict by pass@k (trial 6 finding 11)
  const noAnswerWhy = noAnswerClause(noAnswer);
  if (noAnswerWhy) why.push(noAnswerWhy);
  if (why.length === 0)
    why.push('maj@k judges the winning answer group by the majority of its verdicts, pass@k each sample');
  return `${model}: maj@1 ${pct1(maj1.value)} (${plural(maj1.problems, 'problem')}) differs from pass@1 ${pct1(pass1)} (${plural(graded.length, 'problem')}, ${plural(gradedSamples, 'graded sample')}): ${why.join('; ')}`;
}
