/**
 * The problem view's computation-path lines (docs/similarity.md section 6), kept out of
 * problemView.ts: the selected sample's path against the base samples, and the problem's counts.
 */
import { pathLine } from '../src/shared/pathLine';
import type { SimilarityData } from '../src/shared/protocol';
import { h } from './dom';

type SimSample = SimilarityData['samples'][number];

/** `path in base: 5/8 base samples compute all 2 steps` under the sample's header; null when unknown. */
export function samplePathLine(sim: SimSample | undefined): HTMLElement | null {
  if (!sim?.path) return null;
  return h(
    'p',
    {
      className: `path-line ${sim.path.fullPath > 0 ? 'in-base' : 'not-in-base'}`,
      id: 'path-line',
      title:
        'computation steps (equations with a numeric result, numbers compared by value) that the base samples of this problem compute',
    },
    pathLine(sim.path),
  );
}

/** One sentence for the similarity summary: correct samples whose path is in the base, beside the base baseline. */
export function pathsSummaryText(sim: SimilarityData): string {
  const p = sim.paths;
  if (!p || p.modelWithSteps === 0) return '';
  const base =
    p.baseWithSteps > 0
      ? `; of the ${p.baseWithSteps} correct base samples, ${p.baseInOthers} compute a path another base sample computes`
      : '';
  return ` Paths: ${p.modelInBase} of this model's ${p.modelWithSteps} correct samples with computation steps compute a path some base sample computes in full${base}.`;
}
