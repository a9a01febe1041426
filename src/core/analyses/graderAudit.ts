/**
 * Checks of the folder's grader against answer equivalence (`./answers`), on the raw samples in the
 * index. Nothing stored is changed: verdicts stay the folder's.
 *
 * - {@link graderAudit}: within one problem, samples whose answers are the same value (the same
 *   canonical key, e.g. `\$990.00` and `990.0`) should carry the same verdict. A group of
 *   equivalent answers with both correct and incorrect samples is a grader inconsistency. Groups
 *   span every model of the problem (the same answer to the same problem); ungraded samples and
 *   samples without an answer are not checked (counted).
 * - {@link regrade}: every sample with an answer, a verdict and a reference answer, compared with
 *   the tool's verdict (answer equivalent to the reference); where the two differ, per model.
 * - {@link toolVerdicts}: the tool's verdict for samples that have an answer and a reference but no
 *   verdict (the opt-in grading of `report --tool-grading`).
 */
import { answerKey } from '../answers/equivalence';
import { hasReference, keyMatchesReference, sameAnswer } from '../answers/reference';
import { problemIdsRepeat, problemLabel } from '../grouping/datasets';
import type { TraceIndex } from '../index/traceIndex';
import type { Diagnostic } from '../model';
import { type ModelSamples, type SampleScan, scanSamples } from '../index/sampleScan';

/** How the grader audit groups and judges, for the report. */
export const GRADER_AUDIT_RULE =
  'samples of one problem (all models) whose extracted answers are the same value by answer equivalence should have the same verdict; a group with both correct and incorrect samples is listed';

/** One spelling of an answer in a group, with its verdict counts. */
export interface SpellingCount {
  answer: string;
  correct: number;
  incorrect: number;
}

/** One sample of a group, where it is. */
export interface AuditSample {
  model: string;
  sampleIndex: number;
  answer: string;
  correct: boolean;
  file: string;
  line: number;
}

/** A group of equivalent answers of one problem whose samples carry different verdicts. */
export interface GraderInconsistency {
  /** Problem row id in this index (for the tree filter; not stable across re-indexing). */
  problemRowId: number;
  dataset: string;
  problemId: string;
  /** The problem's name as every message gives it (`datasets.ts` `problemNamer`: `gsm8k · 2` when ids repeat across datasets, else `2`). */
  problem: string;
  reference: string | null;
  /** Canonical key of the group's value. */
  key: string;
  /** Most frequent spelling in the group. */
  answer: string;
  correct: number;
  incorrect: number;
  /** What answer equivalence says of this value against the reference (`null`: no usable reference). */
  referenceSays: boolean | null;
  /** Every spelling with its counts, most frequent first. */
  spellings: SpellingCount[];
  /** Per model: counts of correct and incorrect samples in the group. */
  models: { model: string; correct: number; incorrect: number }[];
  /** Up to {@link GraderAuditOptions.examples} samples, both verdicts represented, in sample order. */
  examples: AuditSample[];
}

/** The grader audit of a folder (the report's `graderAudit`). */
export interface GraderAudit {
  rule: string;
  /** Samples checked: with an extracted answer and a verdict. */
  samplesChecked: number;
  /** Samples not checked: no verdict (`ungraded`, with or without an answer), else no extracted answer (or empty after removing wrappers). */
  samplesSkipped: { noAnswer: number; ungraded: number };
  /** Problems with at least one checked sample. */
  problemsChecked: number;
  /** Answer groups (distinct values per problem) checked. */
  groupsChecked: number;
  /** Problems with at least one inconsistent group. */
  problemsInconsistent: number;
  /** Samples in inconsistent groups. */
  samplesInconsistent: number;
  /** Every inconsistent group, in problem order. */
  inconsistent: GraderInconsistency[];
}

export interface GraderAuditOptions {
  /** Example samples per group (default 6). */
  examples?: number;
}

interface Tally {
  correct: number;
  incorrect: number;
}

/**
 * The problems of row ids `ids` (every problem when absent) in natural problem order, with their dataset, id and
 * reference. The grader audit reads only the problems of its inconsistent groups (at 50,000 problems, reading every
 * one cost a third of a second when a single group was inconsistent); regrade reads them all.
 */
function problemOrder(
  index: TraceIndex,
  ids?: readonly number[],
): Map<number, { dataset: string; problemId: string; reference: string | null; order: number }> {
  const out = new Map<number, { dataset: string; problemId: string; reference: string | null; order: number }>();
  (ids ? index.problemsInOrder(ids) : index.listProblems({ kind: 'all' }, 0, 1_000_000)).forEach((p, i) => {
    out.set(p.id, { dataset: p.dataset, problemId: p.problemId, reference: p.referenceAnswer, order: i });
  });
  return out;
}

/**
 * Names problems by row id as `datasets.ts` `problemNamer` does (with the dataset when ids repeat across
 * datasets), from the problems {@link problemOrder} read: no query per problem.
 */
function namer(index: TraceIndex, problems: ReturnType<typeof problemOrder>): (id: number) => string {
  const withDataset = problemIdsRepeat(index);
  return (id) => {
    const p = problems.get(id);
    return p ? problemLabel(p, withDataset) : String(id);
  };
}

/** A group of equivalent answers in one problem, while counting. */
interface AuditGroup extends Tally {
  problem: number;
  key: string;
  /** Its place in `groups`. */
  index: number;
  /** Row id of its first sample (groups of a problem are listed in order of first appearance). */
  firstId: number;
}

/** One sample of an inconsistent group, read back by row id. */
interface MemberRow {
  id: number;
  m: number;
  i: number;
  a: string;
  c: number;
  file: string;
  line: number;
}

/** Row ids per query when reading the inconsistent groups' samples back (under SQLite's 999 variables). */
const ID_CHUNK = 500;

/**
 * The grader audit: groups of equivalent answers (per problem, across models) whose samples carry
 * both verdicts. Cost O(samples): one pass over every sample's answer and verdict (answer keys are
 * cached per distinct string) that notes each checked sample's group, then the samples of the
 * inconsistent groups read back by row id (in chunks) for their places. `scan`: the samples already
 * read (the report shares one read between its sections, sampleScan.ts); read here when absent.
 */
export function graderAudit(index: TraceIndex, opts: GraderAuditOptions = {}, scan?: SampleScan): GraderAudit {
  const maxExamples = opts.examples ?? 6;
  const byProblem = new Map<number, Map<string, AuditGroup>>();
  const groups: AuditGroup[] = [];
  // per model, per sample: its group's index in `groups`, -1 when not checked
  const groupOf: Int32Array[] = [];
  const models: ModelSamples[] = [...(scan ?? scanSamples(index)).values()];
  let checked = 0;
  let noAnswer = 0;
  let ungraded = 0;
  for (const s of models) {
    const of = new Int32Array(s.id.length).fill(-1);
    groupOf.push(of);
    for (let i = 0; i < s.id.length; i++) {
      // a sample without a verdict is ungraded whether or not it has an answer (trial 3 finding 12: the
      // ungraded samples without an answer were counted under "without an answer" only)
      const c = s.correct[i];
      if (c < 0) {
        ungraded++;
        continue;
      }
      const key = answerKey(s.answer[i]);
      if (key === null) {
        noAnswer++;
        continue;
      }
      const p = s.problem[i];
      let keys = byProblem.get(p);
      if (!keys) byProblem.set(p, (keys = new Map()));
      let g = keys.get(key);
      if (!g) {
        keys.set(key, (g = { problem: p, key, correct: 0, incorrect: 0, index: groups.length, firstId: s.id[i] }));
        groups.push(g);
      } else if (s.id[i] < g.firstId) g.firstId = s.id[i];
      if (c === 1) g.correct++;
      else g.incorrect++;
      of[i] = g.index;
      checked++;
    }
  }
  // the inconsistent groups and their samples' row ids
  const members = new Map<number, number[]>();
  groups.forEach((g, j) => {
    if (g.correct > 0 && g.incorrect > 0) members.set(j, []);
  });
  if (members.size)
    models.forEach((s, k) => {
      const of = groupOf[k];
      for (let i = 0; i < of.length; i++) if (of[i] >= 0) members.get(of[i])?.push(s.id[i]);
    });
  const rowsById = new Map<number, MemberRow>();
  const allIds = [...members.values()].flat();
  const byIds = (count: number) =>
    index.db.prepare(
      `SELECT s.id, s.model_id AS m, s.sample_index AS i, s.extracted_answer AS a, s.correct AS c, f.path AS file, s.line
         FROM samples s JOIN files f ON f.id = s.file_id WHERE s.id IN (${new Array(count).fill('?').join(',')})`,
    );
  const fullChunk = allIds.length >= ID_CHUNK ? byIds(ID_CHUNK) : undefined;
  for (let at = 0; at < allIds.length; at += ID_CHUNK) {
    const chunk = allIds.slice(at, at + ID_CHUNK);
    const query = chunk.length === ID_CHUNK && fullChunk ? fullChunk : byIds(chunk.length);
    for (const r of query.all(...chunk) as MemberRow[]) rowsById.set(r.id, r);
  }
  const problems: ReturnType<typeof problemOrder> = members.size
    ? problemOrder(index, [...new Set([...members.keys()].map((j) => groups[j].problem))])
    : new Map();
  const order = (p: number) => problems.get(p)?.order ?? 0;
  // problems in problem order; a problem's groups in order of first appearance (their first sample's row id)
  const bad = [...members.keys()].sort(
    (x, y) => order(groups[x].problem) - order(groups[y].problem) || groups[x].firstId - groups[y].firstId,
  );
  const name = namer(index, problems);
  const modelNames = new Map(index.models().map((m) => [m.id, m.displayId]));
  const inconsistent = bad.map((j) => {
    const g = groups[j];
    const list = (members.get(j) ?? [])
      .map((id) => rowsById.get(id))
      .filter((r): r is MemberRow => r !== undefined)
      .sort((x, y) => x.m - y.m || x.i - y.i);
    return inconsistency(g, list, problems.get(g.problem), name(g.problem), modelNames, maxExamples);
  });
  let groupsChecked = 0;
  for (const keys of byProblem.values()) groupsChecked += keys.size;
  return {
    rule: GRADER_AUDIT_RULE,
    samplesChecked: checked,
    samplesSkipped: { noAnswer, ungraded },
    problemsChecked: byProblem.size,
    groupsChecked,
    problemsInconsistent: new Set(bad.map((j) => groups[j].problem)).size,
    samplesInconsistent: inconsistent.reduce((a, g) => a + g.correct + g.incorrect, 0),
    inconsistent,
  };
}

/** One inconsistent group described: its spellings, per-model counts and examples (`members` in model and sample order). */
function inconsistency(
  g: AuditGroup,
  members: readonly MemberRow[],
  info: { dataset: string; problemId: string; reference: string | null } | undefined,
  problem: string,
  models: Map<number, string>,
  maxExamples: number,
): GraderInconsistency {
  const reference = info?.reference ?? null;
  const withReference = hasReference(reference);
  const spellings = new Map<string, SpellingCount>();
  const perModel = new Map<number, Tally>();
  for (const s of members) {
    const sp = spellings.get(s.a) ?? { answer: s.a, correct: 0, incorrect: 0 };
    const pm = perModel.get(s.m) ?? { correct: 0, incorrect: 0 };
    if (s.c === 1) {
      sp.correct++;
      pm.correct++;
    } else {
      sp.incorrect++;
      pm.incorrect++;
    }
    spellings.set(s.a, sp);
    perModel.set(s.m, pm);
  }
  const sorted = [...spellings.values()].sort(
    (a, b) => b.correct + b.incorrect - (a.correct + a.incorrect) || a.answer.localeCompare(b.answer),
  );
  // examples: alternate the two verdicts so both are shown
  const yes = members.filter((s) => s.c === 1);
  const no = members.filter((s) => s.c !== 1);
  const picked: MemberRow[] = [];
  for (let j = 0; picked.length < maxExamples && (j < yes.length || j < no.length); j++) {
    if (j < no.length) picked.push(no[j]);
    if (j < yes.length && picked.length < maxExamples) picked.push(yes[j]);
  }
  return {
    problemRowId: g.problem,
    dataset: info?.dataset ?? '',
    problemId: info?.problemId ?? String(g.problem),
    problem,
    reference: info?.reference ?? null,
    key: g.key,
    answer: sorted[0].answer,
    correct: yes.length,
    incorrect: no.length,
    referenceSays: withReference ? keyMatchesReference(g.key, reference) : null,
    spellings: sorted,
    models: [...perModel].map(([m, t]) => ({ model: models.get(m) ?? String(m), ...t })),
    examples: picked.map((s) => ({
      model: models.get(s.m) ?? String(s.m),
      sampleIndex: s.i,
      answer: s.a,
      correct: s.c === 1,
      file: s.file,
      line: s.line,
    })),
  };
}

/** Quotes an answer for a message (one line, at most 60 characters). */
function q(answer: string): string {
  const flat = answer.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > 60 ? `${flat.slice(0, 59)}…` : flat);
}

/**
 * One warning per inconsistent group, at the file and line of its first sample with the minority
 * verdict (the one more likely to be the grader's mistake; incorrect on a tie). `withDataset`: name the
 * problem with its dataset (`math · 0`), as when the folder's problem ids repeat across datasets
 * ({@link problemIdsRepeat}; trial 6 finding 6); else by its id alone.
 */
export function graderAuditDiagnostics(audit: GraderAudit, withDataset = false): Diagnostic[] {
  return audit.inconsistent.map((g) => {
    const minorityCorrect = g.correct < g.incorrect;
    const at = g.examples.find((e) => e.correct === minorityCorrect) ?? g.examples[0];
    const spellings = g.spellings
      .slice(0, 4)
      .map((s) => `${q(s.answer)} ${s.correct} correct / ${s.incorrect} incorrect`)
      .join('; ');
    const ref =
      g.referenceSays === null
        ? ''
        : ` The reference ${q(g.reference ?? '')} ${g.referenceSays ? 'equals' : 'differs from'} this value.`;
    return {
      file: at?.file ?? '',
      line: at?.line ?? 0,
      severity: 'warning' as const,
      message: `grader inconsistency: problem ${problemLabel(g, withDataset)}: the same answer ${q(g.answer)} is graded correct in ${g.correct} and incorrect in ${g.incorrect} samples (${spellings}).${ref}`,
    };
  });
}

/** A sample where the folder's verdict and the tool's differ. */
export interface RegradeExample {
  dataset: string;
  problemId: string;
  /** The problem's name as every message gives it (`datasets.ts` `problemNamer`). */
  problem: string;
  sampleIndex: number;
  answer: string;
  reference: string;
  /** The folder's verdict. */
  folder: boolean;
  /** The tool's: answer equivalent to the reference. */
  tool: boolean;
  file: string;
  line: number;
}

/** Regrade counts of one model. */
export interface RegradeModel {
  model: string;
  label: string;
  samples: number;
  /** Samples with an answer, a verdict and a reference: the ones compared. */
  compared: number;
  agree: number;
  /** The folder says correct, the answer is not equivalent to the reference. */
  folderCorrectToolIncorrect: number;
  /** The folder says incorrect, the answer is equivalent to the reference. */
  folderIncorrectToolCorrect: number;
  /** Not compared: no extracted answer, no verdict, or no reference answer. */
  skipped: { noAnswer: number; ungraded: number; noReference: number };
  /** Up to {@link RegradeOptions.examples} disagreements, in problem and sample order. */
  examples: RegradeExample[];
}

/** The regrade of a folder (`report --regrade`). */
export interface Regrade {
  rule: string;
  models: RegradeModel[];
  /** Disagreements over all models. */
  disagreements: number;
}

export interface RegradeOptions {
  /** Example disagreements per model (default 10). */
  examples?: number;
}

export const REGRADE_RULE =
  "each sample's extracted answer compared with the problem's reference answer by answer equivalence; the folder's verdicts are not changed";

/**
 * Compares every sample's verdict with the tool's (answer equivalent to the reference answer), per
 * model. Samples without an answer, a verdict or a reference are counted, not compared.
 */
export function regrade(index: TraceIndex, opts: RegradeOptions = {}): Regrade {
  const maxExamples = opts.examples ?? 10;
  const problems = problemOrder(index);
  const name = namer(index, problems);
  const query = index.db.prepare(
    `SELECT s.problem_id AS p, s.sample_index AS i, s.extracted_answer AS a, s.correct AS c, f.path AS file, s.line
       FROM samples s JOIN files f ON f.id = s.file_id WHERE s.model_id = ?`,
  );
  const out: RegradeModel[] = [];
  for (const m of index.models()) {
    const r: RegradeModel = {
      model: m.displayId,
      label: m.label,
      samples: 0,
      compared: 0,
      agree: 0,
      folderCorrectToolIncorrect: 0,
      folderIncorrectToolCorrect: 0,
      skipped: { noAnswer: 0, ungraded: 0, noReference: 0 },
      examples: [],
    };
    const disagreements: (RegradeExample & { order: number })[] = [];
    for (const s of query.iterate(m.id) as IterableIterator<{
      p: number;
      i: number;
      a: string | null;
      c: number | null;
      file: string;
      line: number;
    }>) {
      r.samples++;
      const info = problems.get(s.p);
      const check = answerCheck(s.c === null ? null : s.c === 1, s.a, info?.reference);
      if (typeof check === 'string') r.skipped[check]++;
      else {
        r.compared++;
        const { folder, tool } = check;
        if (folder === tool) r.agree++;
        else {
          if (folder) r.folderCorrectToolIncorrect++;
          else r.folderIncorrectToolCorrect++;
          disagreements.push({
            order: info?.order ?? 0,
            dataset: info?.dataset ?? '',
            problemId: info?.problemId ?? String(s.p),
            problem: name(s.p),
            sampleIndex: s.i,
            answer: s.a ?? '',
            reference: info?.reference ?? '',
            folder,
            tool,
            file: s.file,
            line: s.line,
          });
        }
      }
    }
    disagreements.sort((a, b) => a.order - b.order || a.sampleIndex - b.sampleIndex);
    r.examples = disagreements.slice(0, maxExamples).map(({ order: _o, ...e }) => e);
    out.push(r);
  }
  return {
    rule: REGRADE_RULE,
    models: out,
    disagreements: out.reduce((a, m) => a + m.folderCorrectToolIncorrect + m.folderIncorrectToolCorrect, 0),
  };
}

/** The tool's verdicts for the ungraded samples of one model and problem. */
export interface ToolGraded {
  /** Ungraded samples with an answer and a reference (now graded by the tool). */
  graded: number;
  /** Of those, equivalent to the reference. */
  correct: number;
}

/**
 * The tool's grading of samples that have an extracted answer and a reference answer but no
 * verdict: correct iff the answer is equivalent to the reference. Per model row id, per problem
 * row id. Samples that have a verdict are not touched.
 */
export function toolVerdicts(index: TraceIndex): Map<number, Map<number, ToolGraded>> {
  const out = new Map<number, Map<number, ToolGraded>>();
  const rows = index.db
    .prepare(
      `SELECT s.model_id AS m, s.problem_id AS p, s.extracted_answer AS a, pr.reference_answer AS ref
         FROM samples s JOIN problems pr ON pr.id = s.problem_id
        WHERE s.correct IS NULL AND s.extracted_answer IS NOT NULL AND pr.reference_answer IS NOT NULL`,
    )
    .iterate() as IterableIterator<{ m: number; p: number; a: string; ref: string }>;
  for (const r of rows) {
    if (answerKey(r.a) === null || !hasReference(r.ref)) continue;
    let byProblem = out.get(r.m);
    if (!byProblem) out.set(r.m, (byProblem = new Map()));
    const t = byProblem.get(r.p) ?? { graded: 0, correct: 0 };
    t.graded++;
    if (sameAnswer(r.a, r.ref)) t.correct++;
    byProblem.set(r.p, t);
  }
  return out;
}

/**
 * One sample's folder verdict beside the tool's (its extracted answer equivalent to the reference answer), or
 * why the two cannot be compared, checked in this order: no extracted answer, no verdict, no reference answer.
 * The one comparison {@link regrade} counts per model and {@link answerCheckDisagreements} per problem.
 */
export function answerCheck(
  correct: boolean | null,
  answer: string | null | undefined,
  reference: string | null | undefined,
): { folder: boolean; tool: boolean } | 'noAnswer' | 'ungraded' | 'noReference' {
  if (answerKey(answer) === null) return 'noAnswer';
  if (correct === null) return 'ungraded';
  if (!hasReference(reference)) return 'noReference';
  return { folder: correct, tool: sameAnswer(answer, reference) };
}

/** The tool's verdict of one sample (`null` when it has no answer or the problem no reference). */
export function toolVerdict(answer: string | null | undefined, reference: string | null | undefined): boolean | null {
  return answerKey(answer) === null || !hasReference(reference) ? null : sameAnswer(answer, reference);
}

/**
 * The answer check's second opinion on one sample, in words, where it contradicts the folder's verdict
 * (the sample-level form of {@link regrade}: the extracted answer compared with the reference answer by
 * answer equivalence): `folder: incorrect · answer check: equivalent to the reference (grader audit)`, or
 * `folder: correct · answer check: not equivalent to the reference (grader audit)`. Undefined when the two
 * agree, or when the sample has no verdict, no extracted answer or its problem no reference answer (nothing
 * to compare). The folder's verdict stays the verdict everywhere; this is shown beside it (trial 10 finding
 * 1: qwen problem 72 sample 7, `10000` against `10{,}000`, graded incorrect by the folder).
 */
export function answerCheckNote(
  correct: boolean | null,
  answer: string | null | undefined,
  reference: string | null | undefined,
): string | undefined {
  if (correct === null) return undefined;
  const tool = toolVerdict(answer, reference);
  if (tool === null || tool === correct) return undefined;
  return `folder: ${correct ? 'correct' : 'incorrect'} · answer check: ${tool ? 'equivalent to' : 'not equivalent to'} the reference (grader audit)`;
}

/** Samples of one model on one problem whose folder verdict the answer check contradicts ({@link answerCheckNote}). */
export interface AnswerCheckCounts {
  /** The folder says incorrect, the answer is equivalent to the reference. */
  folderIncorrectToolCorrect: number;
  /** The folder says correct, the answer is not equivalent to the reference. */
  folderCorrectToolIncorrect: number;
}

/**
 * Every (problem row id, model row id) with at least one sample whose folder verdict the answer check
 * contradicts ({@link answerCheckNote}; the disagreements `report --regrade` counts), with the counts; pairs
 * without any are absent. `problemId` restricts it to one problem. Cost: one pass over the samples with an
 * extracted answer and a verdict (answer keys are cached per distinct string).
 */
export function answerCheckDisagreements(
  index: TraceIndex,
  problemId?: number,
): Map<number, Map<number, AnswerCheckCounts>> {
  const rows = index.db
    .prepare(
      `SELECT s.problem_id AS p, s.model_id AS m, s.extracted_answer AS a, s.correct AS c, pr.reference_answer AS ref
         FROM samples s JOIN problems pr ON pr.id = s.problem_id
        WHERE s.correct IS NOT NULL AND s.extracted_answer IS NOT NULL AND pr.reference_answer IS NOT NULL${
          problemId === undefined ? '' : ' AND s.problem_id = ?'
        }`,
    )
    .iterate(...(problemId === undefined ? [] : [problemId])) as IterableIterator<{
    p: number;
    m: number;
    a: string;
    c: number;
    ref: string;
  }>;
  const out = new Map<number, Map<number, AnswerCheckCounts>>();
  for (const r of rows) {
    const check = answerCheck(r.c === 1, r.a, r.ref);
    if (typeof check === 'string' || check.tool === check.folder) continue;
    const { folder } = check;
    let byModel = out.get(r.p);
    if (!byModel) out.set(r.p, (byModel = new Map()));
    const t = byModel.get(r.m) ?? { folderIncorrectToolCorrect: 0, folderCorrectToolIncorrect: 0 };
    if (folder) t.folderCorrectToolIncorrect++;
    else t.folderIncorrectToolCorrect++;
    byModel.set(r.m, t);
  }
  return out;
}

/**
 * A problem's answer-check disagreements of one model in words, for tooltips: `answer check (grader audit): 1
 * sample graded incorrect is equivalent to the reference` (and/or `N graded correct are not`); the folder's
 * verdicts stay the verdicts.
 */
export function answerCheckSummary(c: AnswerCheckCounts): string {
  const parts: string[] = [];
  const n = (x: number) => `${x} sample${x === 1 ? '' : 's'}`;
  if (c.folderIncorrectToolCorrect)
    parts.push(
      `${n(c.folderIncorrectToolCorrect)} graded incorrect by the folder ${c.folderIncorrectToolCorrect === 1 ? 'has an answer' : 'have answers'} equivalent to the reference`,
    );
  if (c.folderCorrectToolIncorrect)
    parts.push(
      `${n(c.folderCorrectToolIncorrect)} graded correct by the folder ${c.folderCorrectToolIncorrect === 1 ? 'has an answer' : 'have answers'} not equivalent to the reference`,
    );
  return `answer check (grader audit): ${parts.join('; ')} (the folder's verdicts stay the verdicts)`;
}
