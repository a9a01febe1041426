import { bootstrapPassAtKCurve, kGrid } from '../metrics';
import { type Denominator, type ProblemSet, denominator, describeDenominator } from '../metrics/denominators';
import type { PassAtKPoint } from './types';

/**
 * Bootstrapped pass@k curve of a problem set at k = 1, 2, 4, ..., max graded n, with the set's
 * denominator per point (problems without samples or verdicts, and n < k, counted in `missing`).
 */
export function passAtKPoints(set: ProblemSet, boot: { replicates: number; seed: number }): PassAtKPoint[] {
  const maxN = set.graded.reduce((a, p) => Math.max(a, p.n), 0);
  if (maxN === 0) return [];
  return bootstrapPassAtKCurve(set.graded, kGrid(maxN), boot).map((p) => ({
    k: p.k,
    value: p.value,
    ciLow: p.ciLow,
    ciHigh: p.ciHigh,
    ...denominator(set, p.problems, p.missing),
  }));
}

/**
 * The notes a model's denominators call for: problems left out of every figure (no samples, no graded
 * sample), and a pass@k curve whose problem set shrinks along k (ragged n), so that a value at large k
 * is never read as one over all problems.
 */
export function denominatorWarnings(id: string, set: ProblemSet, passAtK: PassAtKPoint[]): string[] {
  const out: string[] = [];
  if (set.noSamples + set.ungraded > 0) {
    const has = (n: number, what: string) => (n ? `${n} ${n === 1 ? 'has' : 'have'} ${what}` : '');
    const parts = [has(set.noSamples, 'no samples'), has(set.ungraded, 'no graded sample')].filter(Boolean);
    out.push(
      `${id}: of its ${set.total} problems, ${parts.join(' and ')}: left out of every figure (see the diagnostics)`,
    );
  }
  const along = alongK(id, 'pass', passAtK);
  if (along) out.push(along);
  return out;
}

/**
 * The note of a curve whose problem set shrinks along k: every k at which it changes, each with its
 * denominator and reasons (`pass@4 and pass@8: over 5 of 11 problems: ...; pass@12: over 1 of 11 ...`),
 * so that no value in the table carries a mark the note does not explain (trial 3 finding 10: the note
 * named pass@4 and pass@12 and skipped pass@8 at 2/11). `metric` is `pass`, `best-of-`, `maj`
 * (`best-of-k` is written `best-of-4`); null when no point leaves a problem out for n < k.
 */
export function alongK(
  id: string,
  metric: 'pass' | 'maj' | 'best-of-',
  points: readonly ({ k: number } & Denominator)[],
  nName = 'n',
): string | null {
  const name = (k: number) => (metric === 'best-of-' ? `best-of-${k}` : `${metric}@${k}`);
  const runs: { ks: number[]; p: { k: number } & Denominator }[] = [];
  for (const p of points) {
    if (p.leftOut.belowK === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last.p.problems === p.problems && last.p.leftOut.belowK === p.leftOut.belowK) last.ks.push(p.k);
    else runs.push({ ks: [p.k], p });
  }
  if (runs.length === 0) return null;
  const parts = runs.map(({ ks, p }) => {
    const label = ks.length === 1 ? name(ks[0]) : `${name(ks[0])} to ${name(ks[ks.length - 1])}`;
    return `${label} ${describeDenominator(p, ks[0], nName)}`;
  });
  return `${id}: the problem set changes along k: ${parts.join('; ')}`;
}
