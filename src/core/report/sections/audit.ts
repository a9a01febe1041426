import { auditRules } from '../../analyses/summaryAudit';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';
import { safe } from '../render';

/** The figures stored in the folder that disagree with the raw samples, and what the audit checked. */
function computeAudit(ctx: ReportContext): Pick<Report, 'audit' | 'auditRules' | 'auditChecked'> {
  const { options } = ctx;
  return {
    audit: options.audit ?? [],
    ...(options.audit?.length ? { auditRules: auditRules(options.audit) } : {}),
    ...(options.auditChecked?.checked.length
      ? {
          auditChecked: {
            files: options.auditChecked.checked.length,
            figures: options.auditChecked.checked.reduce((a, x) => a + x.figures, 0),
          },
        }
      : {}),
  };
}

function auditTable(r: Report): string[] {
  const out: string[] = [];
  const checkedNote = r.auditChecked
    ? ` (${r.auditChecked.figures} figure${r.auditChecked.figures === 1 ? '' : 's'} in ${r.auditChecked.files} file${r.auditChecked.files === 1 ? '' : 's'} checked)`
    : '';
  // checked and agreeing is said, so it never reads like "not checked" (trial 12 finding 5)
  if (!r.audit.length && r.auditChecked)
    out.push(
      '',
      `audit: ${r.auditChecked.figures} figure${r.auditChecked.figures === 1 ? '' : 's'} stored in ${r.auditChecked.files} summary file${r.auditChecked.files === 1 ? '' : 's'} checked against the raw samples: all agree`,
    );
  if (r.audit.length) {
    out.push('', `audit: figures stored in the folder that disagree with the raw samples${checkedNote}:`);
    // Figures are recomputed from what could be read: say so when some of it could not.
    const unread = r.diagnostics.filter((d) => d.severity === 'error').length;
    if (unread > 0)
      out.push(
        `  (recomputed from the records that could be read: ${unread} error${unread === 1 ? '' : 's'} in the results files, listed below)`,
      );
    if (r.auditRules) out.push(`  (${r.auditRules})`);
    const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(4));
    for (const a of r.audit)
      out.push(`  ${safe(a.file)}: ${safe(a.metric)} stored ${num(a.stored)} recomputed ${num(a.recomputed)}`);
  }
  return out;
}

export const auditSection: ReportSection = { name: 'audit', compute: computeAudit, table: auditTable };
