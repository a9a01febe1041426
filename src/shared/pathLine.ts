/**
 * How a sample's computation path against the base samples is worded (docs/similarity.md section 6),
 * shared by the problem view and the tests (no `vscode`, no DOM).
 */

/** A sample's path against n candidate base samples (a subset of src/core/similarity/paths.ts `PathMatch`). */
export interface PathMatchData {
  /** Distinct computation steps of the sample. */
  steps: number;
  /** Candidates (base samples) that compute every step. */
  fullPath: number;
  /** The most of its steps one candidate computes. */
  bestFound: number;
  /** Candidates compared with. */
  candidates: number;
  /** Steps no candidate computes: all of them, or (in the protocol) the first few. */
  newSteps: readonly ({ display: string } | string)[];
  /** Number of new steps when `newSteps` lists only the first few (default: `newSteps.length`). */
  newStepCount?: number;
}

/**
 * One line: `path in base: 5/8 base samples compute all 2 steps`, or
 * `path not in base: 0/8 base samples compute all 5 steps (at most 4); 1 step new: 3 × 17 = 51`
 * (at most `maxNew` new steps listed, then `; …`). Without steps: `no computation steps found`.
 */
export function pathLine(m: PathMatchData, maxNew = 3): string {
  if (m.steps === 0) return 'no computation steps found';
  const all = m.steps === 1 ? 'the one step' : `all ${m.steps} steps`;
  const head = `${m.fullPath}/${m.candidates} base samples compute ${all}`;
  if (m.fullPath > 0) return `path in base: ${head}`;
  const best = m.bestFound > 0 ? ` (at most ${m.bestFound})` : '';
  const count = m.newStepCount ?? m.newSteps.length;
  const listed = m.newSteps.slice(0, maxNew).map((s) => (typeof s === 'string' ? s : s.display));
  const more = count > listed.length ? '; …' : '';
  const news =
    count === 0
      ? 'every step is in some base sample'
      : `${count} ${count === 1 ? 'step' : 'steps'} new: ${listed.join('; ')}${more}`;
  return `path not in base: ${head}${best}; ${news}`;
}
