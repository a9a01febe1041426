import type { ReportContext } from '../context';
import type { ReportSection } from '../section';

/** The report's head: its schema version and the base model (display id; null without one) and how it was chosen. */
export const baseSection: ReportSection = {
  name: 'base',
  compute: (ctx: ReportContext) => ({
    schemaVersion: 1,
    base: ctx.base?.displayId ?? null,
    baseSource: ctx.baseSource,
  }),
};
