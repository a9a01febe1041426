import { regrade } from '../../analyses/graderAudit';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';
import { ans, safe, table } from '../render';

/** The regrade section: per model, where the folder's verdict differs from answer equivalence with the reference. */
export function regradeLines(rg: NonNullable<Report['regrade']>): string[] {
  const out = [
    '',
    `regrade: ${rg.disagreements} samples where the folder's verdict differs from the tool's (answer equivalent to the reference answer); the folder's verdicts are kept:`,
  ];
  out.push(
    table([
      [
        '  model',
        'samples',
        'compared',
        'agree',
        'folder ✓ tool ✗',
        'folder ✗ tool ✓',
        'no answer',
        'ungraded',
        'no reference',
      ],
      ...rg.models.map((m) => [
        `  ${safe(m.label)}`,
        String(m.samples),
        String(m.compared),
        String(m.agree),
        String(m.folderCorrectToolIncorrect),
        String(m.folderIncorrectToolCorrect),
        String(m.skipped.noAnswer),
        String(m.skipped.ungraded),
        String(m.skipped.noReference),
      ]),
    ]),
  );
  for (const m of rg.models.filter((x) => x.examples.length)) {
    out.push(`  ${safe(m.label)}, examples:`);
    for (const e of m.examples)
      out.push(
        `    ${safe(e.problem)} sample ${e.sampleIndex}: answer ${ans(e.answer)} reference ${ans(e.reference)}: folder ${e.folder ? 'correct' : 'incorrect'}, tool ${e.tool ? 'correct' : 'incorrect'} (${safe(e.file)}:${e.line})`,
      );
  }
  return out;
}

export const regradeSection: ReportSection = {
  name: 'regrade',
  compute: (ctx: ReportContext) => (ctx.options.regrade ? { regrade: regrade(ctx.index) } : {}),
  table: (r: Report) => (r.regrade ? regradeLines(r.regrade) : []),
};
