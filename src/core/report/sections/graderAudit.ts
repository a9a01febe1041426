import { graderAudit } from '../../analyses/graderAudit';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';
import { ans, safe, table } from '../render';

/** The grader audit section of the table (groups of equivalent answers graded both ways). */
export function graderAuditLines(r: Report): string[] {
  const g = r.graderAudit;
  // under --tool-grading the folder's ungraded samples the tool graded are not audited (the audit checks the
  // folder's verdicts): said as such, not as "ungraded" beside the line saying the tool graded them (trial 12 finding 21)
  const tool = r.grading.toolGraded;
  const ungraded = g.samplesSkipped.ungraded;
  const ungradedText =
    tool > 0 && ungraded > 0
      ? `${ungraded} without a verdict of the folder not checked (${Math.min(tool, ungraded)} of them graded by the tool, not audited)`
      : `${ungraded} ungraded not checked`;
  const skipped = `${g.samplesSkipped.noAnswer} without an answer and ${ungradedText}`;
  if (g.inconsistent.length === 0)
    return [
      '',
      `grader audit: no inconsistency: ${g.samplesChecked} graded samples in ${g.groupsChecked} answer groups of ${g.problemsChecked} problems; ${skipped}`,
    ];
  const out = [
    '',
    `grader audit: ${g.inconsistent.length} groups of equivalent answers graded both correct and incorrect, in ${g.problemsInconsistent} of ${g.problemsChecked} problems (${g.samplesInconsistent} of ${g.samplesChecked} graded samples; ${skipped}):`,
  ];
  const rows = g.inconsistent.map((x) => [
    // the problem named as in every warning (problemNamer: `gsm8k · 2`; trial 7 finding 12)
    safe(x.problem),
    ans(x.answer),
    String(x.correct),
    String(x.incorrect),
    x.referenceSays === null ? 'no reference' : x.referenceSays ? 'equal' : 'differs',
    x.spellings
      .slice(0, 3)
      .map((s) => `${ans(s.answer)} ${s.correct}/${s.incorrect}`)
      .join(', '),
  ]);
  out.push(
    table([
      ['  problem', 'answer', 'correct', 'incorrect', 'reference', 'spellings (correct/incorrect)'],
      ...rows.map((r) => [`  ${r[0]}`, ...r.slice(1)]),
    ]),
  );
  return out;
}

export const graderAuditSection: ReportSection = {
  name: 'graderAudit',
  compute: (ctx: ReportContext) => ({ graderAudit: graderAudit(ctx.index, {}, ctx.scan) }),
  table: graderAuditLines,
};
