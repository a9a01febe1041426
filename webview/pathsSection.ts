/**
 * The overview's "Reasoning paths" section (docs/similarity.md section 8), kept out of
 * overviewView.ts: on request, per compared model, the share of correct samples whose computation
 * path some base sample computes in full, with its interval and denominator, beside the base baseline.
 */
import type { PathsData } from '../src/shared/protocol';
import { h, headedTable, pct, replace } from './dom';
import { figuresStatus } from './progress';
import type { Rpc } from './rpc';

type Summary = PathsData['summaries'][number];

const share = (c: { value: number | null; ciLow: number | null; ciHigh: number | null }) =>
  `${pct(c.value)} [${pct(c.ciLow)}, ${pct(c.ciHigh)}]`;

/** What a summary is computed over and what is left out, in words. */
export function pathsDenominator(s: Summary): string {
  const l = s.leftOut;
  const problems = (n: number) => `${n} ${n === 1 ? 'problem' : 'problems'}`;
  const out = [
    `over ${problems(s.problems)} and ${s.pathInBase.samples} of ${s.correctSamples} correct samples`,
    s.correctWithoutSteps > 0 ? `${s.correctWithoutSteps} correct without a computation step left out` : '',
    l.noCorrectSample > 0 ? `${problems(l.noCorrectSample)} without a correct sample` : '',
    l.noStepsInCorrect > 0 ? `${problems(l.noStepsInCorrect)} whose correct samples have no step` : '',
    l.noBaseSamples > 0 ? `${problems(l.noBaseSamples)} without base samples` : '',
  ];
  return out.filter((x) => x !== '').join('; ');
}

/**
 * The section: a button, then the table. `label` names models by id; `perRunBases` adds the base
 * column (each run's models compared with the run's own base).
 */
export function pathsSection(rpc: Rpc, label: ReadonlyMap<number, string>, perRunBases: boolean): HTMLElement {
  const body = h('div', { id: 'paths-body' });
  const button = h(
    'vscode-button',
    {
      id: 'paths-compute',
      appearance: 'secondary',
      onclick: () => {
        const status = figuresStatus(body, 'paths-progress', true, 'Reading every sample…');
        rpc
          .request('getPaths', {}, (p) => status.show(p))
          .then(
            (d) => replace(body, pathsTable(d, label, perRunBases)),
            (e: Error) => replace(body, h('p', { className: 'error' }, e.message)),
          );
      },
    },
    'Compute reasoning paths',
  );
  return h(
    'section',
    null,
    h('h2', null, 'Reasoning paths in the base?'),
    h(
      'p',
      { className: 'muted' },
      "Share of each model's correct samples whose computation steps (equations with a numeric result, numbers compared by value) some base sample of the same problem computes in full, with a 95% bootstrap interval over problems; beside it the same with n−1 base samples, and base samples against the other base samples. Reads every sample, so it runs on request. Text similarity weighted against boilerplate: trace-inspector report --paths.",
    ),
    button,
    body,
  );
}

function pathsTable(d: PathsData, label: ReadonlyMap<number, string>, perRunBases: boolean): HTMLElement {
  if (d.summaries.length === 0) return h('p', { className: 'muted' }, 'No model to compare with a base model.');
  const head = [
    ...(perRunBases ? ['base'] : []),
    'model',
    'path in base',
    'with n−1 base samples',
    'base vs other base samples',
    'over',
  ];
  return headedTable(
    { className: 'stats', id: 'paths-table' },
    head,
    d.summaries.map((s) =>
      h(
        'tr',
        null,
        perRunBases ? h('td', null, label.get(s.baseModelId) ?? '') : null,
        h('td', null, label.get(s.modelId) ?? ''),
        h('td', { className: 'path-share' }, share(s.pathInBase)),
        h('td', null, pct(s.pathInBaseLeaveOneOut)),
        h('td', null, `${share(s.baselinePathInBase)} of ${s.baselinePathInBase.samples}`),
        h('td', { className: 'muted' }, pathsDenominator(s)),
      ),
    ),
  );
}
