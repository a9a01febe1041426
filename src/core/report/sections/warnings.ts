import type { ReportContext } from '../context';
import { safe } from '../render';
import type { ReportSection } from '../section';
import type { Report } from '../types';

/** Notes for the reader that every section added to the context, in the sections' order. */
export const warningsSection: ReportSection = {
  name: 'warnings',
  compute: (ctx: ReportContext) => ({ warnings: ctx.warnings }),
  table: (r: Report) => r.warnings.map((w) => `warning: ${safe(w)}`),
};
