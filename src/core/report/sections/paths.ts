import {
  DEFAULT_MAX_TEXT_SAMPLES,
  type PathContext,
  pathContext,
  type PathSummary,
  pathSummary,
} from '../../similarity/pathSummary';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';
import { pct, safe, table } from '../render';

/**
 * Per compared (base, model) pair, the reasoning-path summary (src/core/similarity/pathSummary.ts), the texts read
 * from the results files one problem at a time; only with `options.paths`.
 * @throws SourceChangedError (sampleText.ts) when a results file changed since it was indexed.
 */
async function computePaths(context: ReportContext): Promise<Pick<Report, 'paths'>> {
  const { index, options, boot } = context;
  const pathPairs = context.pairing?.pathPairs ?? [];
  if (!options.paths) return {};
  const cap = (options.paths === true ? undefined : options.paths.maxTextSamples) ?? DEFAULT_MAX_TEXT_SAMPLES;
  const contexts = new Map<number, PathContext>();
  const paths: PathSummary[] = [];
  for (const [b, m] of pathPairs) {
    let ctx = contexts.get(b.id);
    if (!ctx) {
      ctx = await pathContext(index, b.id, cap);
      contexts.set(b.id, ctx);
    }
    paths.push(await pathSummary(index, ctx, m.id, { base: b.displayId, model: m.displayId }, boot));
  }
  return { paths };
}

/**
 * The `--paths` section: per compared model, the share of correct samples whose computation path is
 * in the base (with its interval and denominator) beside the baselines, then the text measures' medians.
 */
export function pathLines(paths: readonly PathSummary[]): string[] {
  const ci = (c: { value: number | null; ciLow: number | null; ciHigh: number | null }) =>
    `${pct(c.value)} [${pct(c.ciLow)},${pct(c.ciHigh)}]`;
  const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
  const out = [
    'reasoning paths: correct samples whose computation steps (equations with a numeric result) some base sample computes in full, % (docs/similarity.md sections 6-8):',
    table([
      ['base', 'model', 'problems', 'samples', 'path in base', 'n-1 footing', 'base vs base', 'steps found m/b'],
      ...paths.map((p) => [
        safe(p.base),
        safe(p.model),
        String(p.problems),
        String(p.pathInBase.samples),
        ci(p.pathInBase),
        pct(p.pathInBaseLeaveOneOut),
        `${ci(p.baselinePathInBase)} of ${p.baselinePathInBase.samples}`,
        `${pct(p.stepsFound.modelLeaveOneOut)}/${pct(p.stepsFound.baseline)}`,
      ]),
    ]),
  ];
  for (const p of paths) {
    const l = p.leftOut;
    const parts = [
      l.noBaseSamples && `${l.noBaseSamples} without base samples`,
      l.noCorrectSample && `${l.noCorrectSample} without a correct sample`,
      l.noStepsInCorrect && `${l.noStepsInCorrect} whose correct samples have no step`,
    ].filter(Boolean);
    out.push(
      `  ${safe(p.model)}: over ${p.problems} problems and ${p.pathInBase.samples} of ${p.correctSamples} correct samples (${p.correctWithoutSteps} without a step left out)${parts.length ? `; problems left out: ${parts.join(', ')}` : ''}`,
    );
  }
  out.push(
    '',
    'text similarity, medians over samples (model vs base with n and n-1 candidates | base vs base | model vs model); weighted = 3-grams weighted by IDF over problems:',
  );
  const rows: string[][] = [['model', 'measure', 'm/b n', 'm/b n-1', 'b/b', 'm/m']];
  for (const p of paths) {
    const t = p.text;
    if (!t) continue;
    for (const k of ['jaccard', 'weightedJaccard', 'containment', 'weightedContainment'] as const)
      rows.push([
        safe(p.model),
        k,
        num(t.modelVsBase[k]),
        num(t.modelVsBaseLeaveOneOut[k]),
        num(t.baseVsBase[k]),
        num(t.modelVsModel[k]),
      ]);
  }
  out.push(table(rows));
  for (const p of paths) {
    const t = p.text;
    if (!t || t.samplesLeftOut.base + t.samplesLeftOut.model === 0) continue;
    out.push(
      `  ${safe(p.model)}: text measures over the first ${t.maxSamplesPerProblem} samples per problem (${t.samplesLeftOut.model} model and ${t.samplesLeftOut.base} base samples left out)`,
    );
  }
  return out;
}

export const pathsSection: ReportSection = {
  name: 'paths',
  computeAsync: computePaths,
  table: (r: Report) => (r.paths?.length ? ['', ...pathLines(r.paths)] : []),
};
