/**
 * The overview: dataset pass@k curves per model with bootstrap bands (faceted by difficulty level
 * when the data has levels), the accuracy histogram per model and coverage against the base model.
 * Clicking a histogram bar or a coverage cell shows those problems in the tree.
 */
import { h, fmt, replace } from './dom';
import { coverageSpec, histogramSpec, overviewCurveSpec, showChart, type ChartHandle } from './charts';
import type { Rpc } from './rpc';
import type { OverviewData, WebviewFilter } from '../src/shared/protocol';

export class OverviewView {
  private data: OverviewData | undefined;
  private charts: ChartHandle[] = [];
  private generation = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
  ) {}

  async load(): Promise<void> {
    const gen = ++this.generation;
    try {
      const d = await this.rpc.request('getOverview', {});
      if (gen !== this.generation) return;
      this.data = d;
      this.render(d);
    } catch (e) {
      replace(this.root, h('p', { className: 'error' }, `Could not load the overview: ${(e as Error).message}`));
    }
  }

  rerenderCharts(): void {
    if (this.data) this.renderCharts(this.data);
  }

  private filter(f: WebviewFilter): void {
    void this.rpc.request('filterProblems', { filter: f }).catch((e: Error) => this.rpc.log('warn', e.message));
  }

  private render(d: OverviewData): void {
    const base = d.models.find((m) => m.id === d.baseModelId);
    const label = new Map(d.models.map((m) => [m.id, m.label]));
    replace(this.root, 
      h('header', null, h('h1', null, 'Overview'), h('span', { className: 'muted' }, `${d.problems} problems · ${d.models.length} models · base model: ${base?.label ?? 'none'}`)),
      d.warnings.length ? h('ul', { className: 'warning' }, d.warnings.map((w) => h('li', null, w))) : null,
      h('section', null, h('h2', null, 'pass@k per model (95% bootstrap band over problems)'), h('div', { className: 'chart', id: 'chart-curves' })),
      h('section', null, h('h2', null, 'Per-problem accuracy'), h('p', { className: 'muted' }, 'Click a bar to show those problems in the tree.'), h('div', { className: 'chart', id: 'chart-histogram' })),
      h('section', null,
        h('h2', null, 'Coverage against the base model'),
        h('p', { className: 'muted' }, 'Solvable = at least one correct sample. Click a segment to show those problems in the tree.'),
        h('div', { className: 'chart', id: 'chart-coverage' }),
        h('table', { className: 'stats' },
          h('thead', null, h('tr', null, ['model', 'problems', 'base only', 'RL only', 'both', 'neither', 'crossover k'].map((t) => h('th', null, t)))),
          h('tbody', null, d.coverage.map((c) =>
            h('tr', null,
              h('td', null, label.get(c.modelId) ?? ''),
              h('td', null, String(c.problems)),
              ...(['baseOnly', 'modelOnly', 'both', 'neither'] as const).map((cell) =>
                h('td', null, h('button', { className: 'link', onclick: () => this.filter({ kind: 'coverageCell', base: c.baseModelId, model: c.modelId, cell }) }, String(c[cell]))),
              ),
              h('td', null, c.crossoverK === null ? '—' : String(c.crossoverK)),
            ),
          )),
        ),
      ),
      h('section', null, h('h2', null, 'Models'), h('table', { className: 'stats' },
        h('thead', null, h('tr', null, h('th', null, 'model'), h('th', null, 'pass@1'), h('th', null, 'pass@max k'))),
        h('tbody', null, d.models.map((m) => {
          const pts = d.curves.filter((c) => c.modelId === m.id && c.level === null);
          const last = pts[pts.length - 1];
          return h('tr', null, h('td', null, m.label, m.isBase ? ' (base)' : ''), h('td', null, fmt(pts[0]?.value ?? null)), h('td', null, last ? `${fmt(last.value)} (k=${last.k})` : '—'));
        })),
      )),
    );
    this.renderCharts(d);
  }

  private renderCharts(d: OverviewData): void {
    for (const c of this.charts) c.finalize();
    this.charts = [];
    const el = (id: string) => this.root.querySelector<HTMLElement>(`#${id}`);
    const curves = el('chart-curves');
    const hist = el('chart-histogram');
    const cov = el('chart-coverage');
    if (curves) void showChart(curves, overviewCurveSpec(d)).then((c) => this.charts.push(c));
    if (hist) void showChart(hist, histogramSpec(d), (datum) => {
      if (typeof datum.modelId === 'number' && typeof datum.bin === 'number') this.filter({ kind: 'accuracyBin', model: datum.modelId, bin: datum.bin });
    }).then((c) => this.charts.push(c));
    if (cov && d.coverage.length) void showChart(cov, coverageSpec(d), (datum) => {
      const cell = datum.cell;
      if (typeof datum.modelId === 'number' && typeof datum.baseModelId === 'number' && (cell === 'baseOnly' || cell === 'modelOnly' || cell === 'both' || cell === 'neither')) {
        this.filter({ kind: 'coverageCell', base: datum.baseModelId, model: datum.modelId, cell });
      }
    }).then((c) => this.charts.push(c));
  }
}
