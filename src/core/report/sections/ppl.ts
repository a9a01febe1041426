import { diagnosticPlace } from '../../model';
import { type PplReport, pplReport } from '../../similarity/ppl';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';
import { safe, table } from '../render';

/** The PPL_base section of the table: quartiles per model, median ratio per comparison, skipped lines. */
export function pplLines(p: PplReport, labels: Map<string, string>): string[] {
  const label = (id: string) => safe(labels.get(id) ?? id);
  const out = [`PPL_base (perplexity under the base model, from ${safe(p.source)}):`];
  const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
  out.push(
    table([
      ['model', 'samples', 'problems', 'correct', 'median', 'q1', 'q3', 'mean'],
      ...p.models.map((m) => [
        label(m.model),
        String(m.samples),
        String(m.problems),
        String(m.correct),
        num(m.median),
        num(m.q1),
        num(m.q3),
        num(m.mean),
      ]),
    ]),
  );
  for (const c of p.comparisons.filter((x) => x.medianRatio !== null))
    out.push(
      `  ${label(c.model)} vs ${label(c.base)}: median PPL_base ratio ${num(c.medianRatio)} (below 1: more likely under the base model than the base model's own samples)`,
    );
  if (p.skipped > 0) {
    out.push(
      `  ${p.skipped} sidecar line${p.skipped === 1 ? '' : 's'} skipped${p.diagnostics.length < p.skipped ? ` (first ${p.diagnostics.length} below)` : ':'}`,
    );
    for (const d of p.diagnostics) out.push(`    ${safe(diagnosticPlace(d))}: ${safe(d.message)}`);
  }
  return out;
}

export const pplSection: ReportSection = {
  name: 'ppl',
  compute: (ctx: ReportContext) =>
    ctx.options.ppl?.available
      ? { ppl: pplReport(ctx.options.ppl, ctx.models, ctx.pairing?.pairsToCompare ?? []) }
      : {},
  table: (r: Report) => (r.ppl ? ['', ...pplLines(r.ppl, new Map(r.models.map((m) => [m.id, m.label])))] : []),
};
