import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';

/** Who graded the samples the figures use: the folder, or the folder and the tool (--tool-grading). */
function computeGrading(ctx: ReportContext): Pick<Report, 'grading'> {
  const { tool, toolGraded, toolCorrect } = ctx;
  return { grading: { by: tool ? 'folder and tool' : 'folder', toolGraded, toolCorrect } };
}

/** Under --tool-grading, the line above the model table saying how many samples the tool graded. */
function gradingTable(r: Report): string[] {
  const out: string[] = [];
  if (r.grading.by !== 'folder')
    out.push(
      `grading: the folder's verdicts, plus the TOOL'S GRADING of ${r.grading.toolGraded} samples that had no verdict (${r.grading.toolCorrect} correct: answer equivalent to the reference answer)`,
    );
  return out;
}

export const gradingSection: ReportSection = { name: 'grading', compute: computeGrading, table: gradingTable };
