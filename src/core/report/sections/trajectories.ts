import { type Denominator, denominatorMark } from '../../metrics/denominators';
import { computeTrajectories, reportTrajectory, type Trajectory, trajectoryFilter } from '../../analyses/trajectories';
import { isAboveN, passAtKCell } from '../../../shared/passAtKCell';
import type { ReportContext } from '../context';
import type { CsvRow, ReportSection } from '../section';
import { type Report } from '../types';
import { K_ABOVE_N_NOTE, fmtNum, labelOf as labelOfModel, pct, safe, table } from '../render';
import { csvCell } from '../csv';

/** Training dynamics: one trajectory per checkpoint series, each step against its own base. */
function computeTraining(ctx: ReportContext): Pick<Report, 'trajectories'> {
  const { index, options, models, stats, boot, base, baseSource, warnings } = ctx;
  const training = computeTrajectories(index, {
    base,
    baseIsChoice: baseSource === 'option',
    stepPattern: options.stepPattern,
    ...boot,
    models,
    stats,
  });
  warnings.push(...training.warnings);
  return { trajectories: training.trajectories.map(reportTrajectory) };
}

/**
 * The training section of the table: one row per checkpoint (pass@1 and pass@K with intervals, its
 * base's pass@1 and pass@K, categories against the base, the share of positive gains from sharpening
 * with its interval and the gains in correct samples behind it, mean response length), then the
 * problems lost during training, solved only at late steps and flip-flopping, each with its denominator.
 * Steps are named by their label; bases by `labelOf` (display id -> the report's label; default: the id).
 */
export function trajectoryLines(t: Trajectory, labelOf: (id: string) => string = (id) => id): string[] {
  const k = t.k ?? 1;
  // a base with a smaller n than the series' k has a point over no problem there: `— (k > n)` (trial 8 finding 13)
  const at = (pts: Trajectory['steps'][number]['passAtK'], kk: number) =>
    passAtKCell(
      pts.find((x) => x.k === kk),
      pct,
      denominatorMark,
    );
  const ks = k > 1 ? [1, k] : [1];
  const bases = [...new Set(t.steps.map((s) => s.base))];
  const out = [
    `training: ${safe(t.name)} — ${t.steps.length} checkpoints${t.unit === 'epoch' ? ' numbered by epoch' : ''}, ${t.problems.length} problems; each step against its own base (categories and gain share over the problems both have graded samples for: "paired")`,
  ];
  out.push(
    table([
      [
        t.unit,
        'problems',
        'samples',
        'correct',
        'accuracy',
        ...ks.map((x) => `pass@${x}`),
        ...ks.map((x) => `base pass@${x}`),
        'paired',
        'sharpening',
        'expansion',
        'regression',
        'unchanged',
        'unsolved',
        'gain share sharpening',
        'gains S/E',
        'mean chars',
      ],
      ...t.steps.map((s) => {
        const g = s.positiveGainShare;
        return [
          String(s.step),
          s.missing > 0 ? `${s.problems}/${s.problems + s.missing}` : String(s.problems),
          String(s.samples),
          s.graded > 0 ? String(s.correct) : 'ungraded',
          pct(s.sampleAccuracy),
          ...ks.map((x) => at(s.passAtK, x)),
          ...ks.map((x) => at(s.basePassAtK, x)),
          String(s.pairedProblems),
          ...(['sharpening', 'expansion', 'regression', 'unchanged', 'unsolved'] as const).map((c) =>
            s.categories ? String(s.categories[c]) : '—',
          ),
          g ? `${pct(g.sharpening)} [${pct(g.ciLow)},${pct(g.ciHigh)}]` : '—',
          g ? `${fmtNum(g.gainFromSharpening)}/${fmtNum(g.gainFromExpansion)}` : '—',
          s.meanChars === null ? '—' : s.meanChars.toFixed(0),
        ];
      }),
    ]),
  );
  if (t.steps.some((s) => s.missing > 0 || [...s.passAtK, ...s.basePassAtK].some((p) => p.missing > 0 && !isAboveN(p))))
    out.push(
      "  (a/b): a step's figures over a of the series' b problems (a base's: of the step's own b, the problems the row is over); the warnings below say why",
    );
  if (t.steps.some((s) => [...s.passAtK, ...s.basePassAtK].some(isAboveN))) out.push(`  ${K_ABOVE_N_NOTE}`);
  // models named by label, as in the other tables (trial 8 finding 12)
  const base = (id: string | null | undefined) => safe(id === null || id === undefined ? 'none' : labelOf(id));
  if (bases.length === 1) out.push(`  base: ${base(bases[0])}`);
  else
    for (const s of t.steps)
      out.push(`  ${t.unit} ${s.step}: ${safe(s.label)} vs ${s.base === null ? 'no base' : base(s.base)}`);
  const last = t.steps[t.steps.length - 1]?.step;
  const n = t.problems.length;
  const lost = trajectoryFilter(t, 'lost').length;
  const late = trajectoryFilter(t, 'late').length;
  const flip = t.problems.filter((p) => p.pattern === 'flip-flop').length;
  out.push(
    `  of ${n} problems: ${lost} lost during training (solved at an earlier step, not at ${t.unit} ${last}); ${late} solved only at late steps (first solved at ${t.unit} ${t.lateFromStep} or later); ${flip} flip-flopping (solved, unsolved, solved again or the reverse)`,
  );
  return out;
}

/** Per checkpoint of each series: sample accuracy, pass@k and its base's, categories, gain shares, mean length. */
function trajectoriesCsv(r: Report): CsvRow[] {
  const q = csvCell;
  const lines: string[] = [];
  const datasetsOfLine = new Map<number, readonly { dataset: string; problems: number }[]>();
  for (const t of r.trajectories) {
    for (const s of t.steps) {
      const row = (
        metric: string,
        k: number | '',
        value: number | null,
        problems: number,
        ci?: { low: number | null; high: number | null },
        d?: Pick<Denominator, 'missing' | 'leftOut'>,
      ) =>
        lines.push(
          [
            q(s.model),
            q(s.label),
            metric,
            k,
            value ?? '',
            ci?.low ?? '',
            ci?.high ?? '',
            problems,
            d?.missing ?? '',
            d?.leftOut.noSamples ?? '',
            d?.leftOut.ungraded ?? '',
            d?.leftOut.belowK ?? '',
            '',
            '',
            q(t.name),
            s.step,
            '',
            '',
            d?.leftOut.notInBase ?? '',
            d?.leftOut.notInStep ?? '',
          ].join(','),
        );
      row('sample-accuracy', '', s.sampleAccuracy, s.problems, undefined, s);
      for (const p of s.passAtK) row('pass@k', p.k, p.value, p.problems, { low: p.ciLow, high: p.ciHigh }, p);
      for (const p of s.basePassAtK) {
        row('base-pass@k', p.k, p.value, p.problems, { low: p.ciLow, high: p.ciHigh }, p);
        // the base's own problems per dataset among the step's, not the checkpoint's (trial 12 finding 13)
        datasetsOfLine.set(lines.length - 1, s.baseDatasets);
      }
      if (s.categories)
        for (const [c, v] of Object.entries(s.categories)) row(`category:${c}`, '', v, s.pairedProblems);
      const g = s.positiveGainShare;
      if (g) {
        row('positive-gain-share:sharpening', '', g.sharpening, g.problems, { low: g.ciLow, high: g.ciHigh });
        row('positive-gain-share:expansion', '', g.expansion, g.problems, {
          low: g.ciHigh === null ? null : 1 - g.ciHigh,
          high: g.ciLow === null ? null : 1 - g.ciLow,
        });
        row('gain:sharpening', '', g.gainFromSharpening, g.problems);
        row('gain:expansion', '', g.gainFromExpansion, g.problems);
      }
      row('mean-chars', '', s.meanChars, s.problems);
    }
  }
  return lines.map((line, i) => ({ line, datasets: datasetsOfLine.get(i) }));
}

export const trajectoriesSection: ReportSection = {
  name: 'trajectories',
  compute: computeTraining,
  table: (r: Report) => r.trajectories.flatMap((t) => ['', ...trajectoryLines(t, labelOfModel(r))]),
  csv: trajectoriesCsv,
};
