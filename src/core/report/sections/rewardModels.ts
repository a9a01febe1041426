import { denominatorMark } from '../../metrics/denominators';
import type { TraceIndex } from '../../index/traceIndex';
import type { SampleScan } from '../../index/sampleScan';
import {
  type RewardModelsReport,
  describeRewardDenominator,
  rewardDenominator,
  rewardModelsReport,
} from '../rewardReport';
import type { ReportContext } from '../context';
import type { CsvRow, ReportSection } from '../section';
import { type Report } from '../types';
import { safe, table } from '../render';
import { csvCell } from '../csv';

/**
 * The `rewardModels` section: the model with the most scorers first (ties: the most problems), the others
 * in `otherModels`; nothing when no model's samples carry a score.
 */
function rewardSection(
  index: TraceIndex,
  boot: { replicates: number; seed: number },
  scan: SampleScan,
): Pick<Report, 'rewardModels'> {
  const section = rewardModelsReport(index, { ...boot, scan });
  if (section.models.length === 0) return {};
  const [main, ...others] = [...section.models].sort(
    (a, b) => b.scorers.length - a.scorers.length || b.problems - a.problems,
  );
  return {
    rewardModels: {
      ...main,
      unattachedScores: section.unattachedScores,
      ...(others.length ? { otherModels: others } : {}),
    },
  };
}

/**
 * The reward-model section of the table: the ranking of scorers by pairwise accuracy with best-of-N,
 * pass@N and regret at each N, the rank correlations across scorers per N, and Spearman per stratum.
 */
export function rewardModelLines(rm: RewardModelsReport): string[] {
  const out: string[] = [];
  const nMax = rm.ns[rm.ns.length - 1] ?? 0;
  out.push(
    `reward models on the samples of ${safe(rm.model)}: ${rm.scorers.length} scorer${rm.scorers.length === 1 ? '' : 's'} compared on the same graded samples, ${describeRewardDenominator(rm)} (up to ${nMax} samples each)`,
  );
  const incomplete = Object.entries(rm.incompleteByScorer).filter(([, v]) => v > 0);
  if (incomplete.length)
    out.push(
      `  problems a scorer did not score completely: ${incomplete.map(([s, v]) => `${safe(s)} ${v}`).join(', ')}`,
    );
  const rules = Object.entries(rm.stepRules);
  if (rules.length)
    out.push(`  step scores reduced to one number by: ${rules.map(([s, rule]) => `${safe(s)} ${rule}`).join(', ')}`);
  const ranked = [...rm.scorers].sort((a, b) => (b.pairwiseAccuracy ?? -1) - (a.pairwiseAccuracy ?? -1));
  const num = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(4));
  out.push(
    table([
      [
        'rank',
        'scorer',
        'pairwise acc',
        'pairs',
        ...rm.ns.map((n) => `best-of-${n}`),
        ...rm.ns.filter((n) => n > 1).map((n) => `regret@${n}`),
      ],
      ...ranked.map((s, i) => [
        String(i + 1),
        safe(s.name),
        num(s.pairwiseAccuracy) + denominatorMark(rewardDenominator(rm)),
        String(s.pairs),
        ...s.bestOfN.map((b) => num(b.value) + denominatorMark(b)),
        ...s.bestOfN.filter((b) => b.n > 1).map((b) => num(b.regret) + denominatorMark(b)),
      ]),
      ['', 'pass@N (oracle)', '', '', ...(ranked[0]?.bestOfN ?? []).map((b) => num(b.passAtN) + denominatorMark(b))],
    ]),
  );
  // a point over fewer problems than the common set says why, once per N (the same for every scorer)
  for (const b of ranked[0]?.bestOfN ?? [])
    if (b.belowN > 0) out.push(`  best-of-${b.n}, pass@${b.n}, regret@${b.n}: ${describeRewardDenominator(rm, b)}`);
  const defined = rm.correlations.filter((c) => c.spearman !== null || c.kendall !== null);
  if (defined.length) {
    out.push(
      `rank correlation across the ${rm.scorers.length} scorers between pairwise accuracy and best-of-N (95% percentile bootstrap over the ${rm.problems} problems of the common set, ${rm.bootstrap.replicates} replicates, seed ${rm.bootstrap.seed}; Kendall's tau-b):`,
    );
    for (const c of defined)
      out.push(
        `  N=${c.n}: Spearman ${num(c.spearman)} [${num(c.ciLow)}, ${num(c.ciHigh)}]  Kendall tau-b ${num(c.kendall)} [${num(c.kendallCiLow)}, ${num(c.kendallCiHigh)}]`,
      );
    const undefinedAt = rm.correlations.filter((c) => c.spearman === null).map((c) => c.n);
    if (undefinedAt.length)
      out.push(
        `  N=${undefinedAt.join(', ')}: undefined (best-of-N has no spread across scorers; at N=1 it is pass@1 for all)`,
      );
  } else if (rm.scorers.length < 2) out.push('  (one scorer: no correlation across scorers)');
  // per stratum only the correlation across scorers is printed (per-scorer figures are in the JSON): none with one scorer
  if (rm.strata.length && rm.scorers.length >= 2) {
    const nShow = rm.ns.filter((n) => n > 1);
    out.push(`by stratum: problems, Spearman of pairwise accuracy with best-of-N at N=${nShow.join(', ')}:`);
    for (const st of rm.strata)
      out.push(
        `  ${safe(st.by)} ${safe(st.value)} (${st.problems} problems): ${st.spearman
          .filter((x) => x.n > 1)
          .map((x) => num(x.value))
          .join('  ')}`,
      );
    for (const [by, n] of Object.entries(rm.unmatched))
      if (n > 0) out.push(`  ${n} problem${n === 1 ? ' has' : 's have'} no ${safe(by)} (in no stratum of it)`);
  }
  return out;
}

function rewardModelsTable(r: Report): string[] {
  const out: string[] = [];
  if (r.rewardModels) {
    for (const rm of [r.rewardModels, ...(r.rewardModels.otherModels ?? [])]) out.push('', ...rewardModelLines(rm));
    if (r.rewardModels.unattachedScores > 0)
      out.push(
        `  ${r.rewardModels.unattachedScores} score${r.rewardModels.unattachedScores === 1 ? '' : 's'} attach to no sample and are left out (see the diagnostics)`,
      );
  }
  return out;
}

/** Per scorer its pairwise accuracy, best-of-N, pass@N and regret; per N the rank correlations. */
function rewardModelsCsv(r: Report): CsvRow[] {
  const q = csvCell;
  const lines: string[] = [];
  const partlyOfLine = new Map<number, number>();
  // Reward models: one row per scorer and metric (and N), correlations per N with the scorer cell empty.
  const models = new Map(r.models.map((m) => [m.id, m.label]));
  for (const rm of r.rewardModels ? [r.rewardModels, ...(r.rewardModels.otherModels ?? [])] : []) {
    const cells = (
      metric: string,
      k: number | '',
      value: number | null,
      lo: number | null | '',
      hi: number | null | '',
      problems: number,
      belowN: number,
      scorer: string,
    ) => {
      const missing = rm.total - problems;
      lines.push(
        [
          q(rm.model),
          q(models.get(rm.model) ?? rm.model),
          metric,
          k,
          value ?? '',
          lo ?? '',
          hi ?? '',
          problems,
          missing,
          // no_samples, ungraded, n_below_k, no_reward_score (here: no reward score on any graded sample; a
          // problem scored on some samples only is in partly_scored, the last column: trial 12 finding 20), level,
          // series, step
          rm.leftOut.noSamples,
          rm.leftOut.noGradedSample,
          belowN,
          rm.leftOut.incompleteScores - (rm.leftOut.partlyScored ?? 0),
          '',
          '',
          '',
          q(scorer),
          '',
          '',
          '',
        ].join(','),
      );
      partlyOfLine.set(lines.length - 1, rm.leftOut.partlyScored ?? 0);
    };
    for (const s of rm.scorers) {
      cells('rm-pairwise-accuracy', '', s.pairwiseAccuracy, '', '', rm.problems, 0, s.name);
      for (const b of s.bestOfN) {
        cells('rm-best-of-n', b.n, b.value, '', '', b.problems, b.belowN, s.name);
        cells('rm-pass@n', b.n, b.passAtN, '', '', b.problems, b.belowN, s.name);
        cells('rm-regret', b.n, b.regret, '', '', b.problems, b.belowN, s.name);
      }
    }
    for (const c of rm.correlations) {
      cells('rm-spearman', c.n, c.spearman, c.ciLow, c.ciHigh, rm.problems, 0, '');
      cells('rm-kendall-tau-b', c.n, c.kendall, c.kendallCiLow, c.kendallCiHigh, rm.problems, 0, '');
    }
  }
  return lines.map((line, i) => ({ line, partlyScored: partlyOfLine.get(i) }));
}

export const rewardModelsSection: ReportSection = {
  name: 'rewardModels',
  compute: (ctx: ReportContext) => rewardSection(ctx.index, ctx.boot, ctx.scan),
  table: rewardModelsTable,
  csv: rewardModelsCsv,
};
