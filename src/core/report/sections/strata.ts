import { denominatorMark, nameProblems, problemSet } from '../../metrics/denominators';
import { problemNamer } from '../../grouping/datasets';
import { plural } from '../../text/strings';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report, type StratumReport } from '../types';
import { alongK, passAtKPoints } from '../curves';
import { labelOf as labelOfModel, pct, safe } from '../render';

/** pass@k per model and difficulty level, and per model its problems without a level. */
function computeStrata(ctx: ReportContext): Pick<Report, 'strata' | 'noLevel'> {
  const { index, models, byModel, boot, warnings } = ctx;
  const strata: StratumReport[] = [];
  const noLevel: Report['noLevel'] = [];
  const levels = index.levels();
  if (levels.length > 0) {
    const levelOf = index.levelByProblem();
    for (const m of models) {
      const rows = byModel.get(m.id) ?? [];
      for (const level of levels) {
        const set = problemSet(rows.filter((r) => levelOf.get(r.problemId) === level));
        if (set.total === 0) continue;
        const passAtK = passAtKPoints(set, boot);
        strata.push({ model: m.displayId, level, problems: set.total, passAtK });
        const w = alongK(`${m.displayId} level ${level}`, 'pass', passAtK);
        if (w) warnings.push(w);
      }
      const without = rows.filter((r) => (levelOf.get(r.problemId) ?? null) === null).map((r) => r.problemId);
      if (without.length) {
        const name = problemNamer(index);
        noLevel.push({
          model: m.displayId,
          problems: without.length,
          total: rows.length,
          named: without.slice(0, 5).map(name),
        });
        warnings.push(
          without.length === rows.length
            ? `${m.displayId}: none of its ${rows.length} problems has a level: it has no figures by difficulty level`
            : `${m.displayId}: ${without.length} of its ${rows.length} problems ${without.length === 1 ? 'has' : 'have'} no level ${nameProblems(without, name)}: in no level's figures (pass@k by difficulty level)`,
        );
      }
    }
  }
  return { strata, noLevel };
}

/** pass@k by difficulty level (its CSV rows are under their model's, in the models section). */
function strataTable(r: Report): string[] {
  const out: string[] = [];
  const labelOf = labelOfModel(r);
  if (r.strata.length) {
    out.push('', 'pass@k by difficulty level:');
    for (const s of r.strata) {
      out.push(
        `  ${safe(labelOf(s.model))} level ${safe(s.level)} (${plural(s.problems, 'problem')}): ${s.passAtK.map((p) => `@${p.k} ${pct(p.value)}${denominatorMark(p)}`).join('  ')}`,
      );
    }
    for (const x of r.noLevel)
      out.push(
        x.problems === x.total
          ? `  ${safe(labelOf(x.model))}: none of its ${x.total} problems has a level`
          : `  ${safe(labelOf(x.model))}: ${x.problems} of its ${x.total} problems without a level (${x.named.map((n) => JSON.stringify(safe(n))).join(', ')}${x.problems > x.named.length ? ', …' : ''}) are in no level's figures`,
      );
  }
  return out;
}

export const strataSection: ReportSection = { name: 'strata', compute: computeStrata, table: strataTable };
