import { denominatorMark } from '../../metrics/denominators';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report, MAJ_AT_K_RULE } from '../types';
import { pct, safe } from '../render';

/**
 * How maj@k's problems were judged, saying only what is true (trial 5 finding 11d: "7 of 7 problems
 * judged by the reference answer, the others by verdicts"): `all 7 problems judged by the reference
 * answer`, `5 of 7 problems judged by the reference answer, 2 by verdicts (no reference answer)`, `all
 * 3 problems judged by verdicts (no reference answer)`.
 */
export function majJudged(byReference: number, problems: number): string {
  const p = (n: number) => `${n} problem${n === 1 ? '' : 's'}`;
  if (byReference === problems)
    return `${problems === 1 ? 'the' : 'all'} ${p(problems)} judged by the reference answer`;
  if (byReference === 0)
    return `${problems === 1 ? 'the' : 'all'} ${p(problems)} judged by verdicts (no reference answer)`;
  return `${byReference} of ${p(problems)} judged by the reference answer, ${problems - byReference} by verdicts (no reference answer)`;
}

/** maj@k per model (computed with each model's figures, in the models section) and its rule. */
function majAtKTable(r: Report): string[] {
  const out: string[] = [];
  if (r.models.some((m) => m.majAtK?.length)) {
    out.push('', 'maj@k (majority vote over extracted answers grouped by answer equivalence, %):');
    if (r.majAtKRule) out.push(`  (${r.majAtKRule})`);
    for (const m of r.models.filter((x) => x.majAtK?.length)) {
      const first = m.majAtK![0];
      const judged = first.problems === 0 ? '' : ` (at k=1: ${majJudged(first.byReference, first.problems)})`;
      out.push(
        `  ${safe(m.label)}: ${m.majAtK!.map((b) => `k=${b.k} ${pct(b.value)}${denominatorMark(b)}`).join('  ')}${judged}`,
      );
    }
  }
  return out;
}

export const majAtKSection: ReportSection = {
  name: 'majAtK',
  compute: (ctx: ReportContext) => (ctx.options.majAtK ? { majAtKRule: MAJ_AT_K_RULE } : {}),
  table: majAtKTable,
};
