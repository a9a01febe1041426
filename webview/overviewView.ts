/**
 * The overview: dataset pass@k curves per model with bootstrap bands (faceted by difficulty level
 * when the data has levels), the accuracy histogram per model and coverage against the base model.
 * Clicking a histogram bar or a coverage cell shows those problems in the tree.
 * A model list above the charts shows or hides models (with more than 4 models only the base model
 * and the focus model's run start shown); clicking a model's legend entry in a chart hides it. The
 * choice and the band toggle are kept in the webview state, so they survive a window reload.
 */
import { pathsSection } from './pathsSection';
import { figuresStatus } from './progress';
import { h, fmt, replace } from './dom';
import {
  coverageSpec,
  curveSegments,
  defaultVisibleModels,
  histogramSpec,
  overviewCurveSpec,
  overviewModels,
  showChart,
  type ChartHandle,
} from './charts';
import type { Rpc } from './rpc';
import { exportActions } from './exportActions';
import { CROSSOVER_NOTE, crossoverScope, crossoverText } from '../src/shared/claims';
import { markersCaption, modelsMarkersSpec } from '../src/shared/trainingChartSpecs';
import type { ModelMarkersData, OverviewData, PanelState, WebviewFilter } from '../src/shared/protocol';
import { overviewModelsLine } from '../src/shared/modelRoles';

/** A model's n over the compared problems: `100`, or `5..100` when it differs between problems. */
function nRange(r: { min: number; max: number }): string {
  return r.min === r.max ? String(r.min) : `${r.min}..${r.max}`;
}

/** Some curve of the overview changes its problem set along k, so it is drawn in pieces. */
function brokenCurves(d: OverviewData): boolean {
  const points = d.curves.filter((c) => c.value !== null);
  return curveSegments(
    points,
    (c) => `${c.modelId}|${c.level ?? ''}`,
    (c) => c.k,
    'k',
  ).some((s) => s.segments > 1);
}

export class OverviewView {
  private data: OverviewData | undefined;
  /** The lengths and reasoning markers (their own figures job, asked for once the figures are drawn); null: none. */
  private markers: ModelMarkersData['markers'] | undefined;
  private charts: ChartHandle[] = [];
  private generation = 0;
  /** Model ids shown in the charts; kept across reloads of the data (new models follow the default). */
  private visible: Set<number> | undefined;
  private known = new Set<number>();
  /** `base/focus` model ids of the last load. */
  private roles: string | undefined;
  private bands = true;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
    /** What the view saved before a reload: the shown models and the band toggle come back. */
    private readonly saved?: Partial<PanelState>,
  ) {
    this.bands = saved?.bands ?? true;
    this.persist();
    this.resizeObserver.observe(this.root);
  }

  /** Saves the shown models (by display id) and the band toggle in the webview state (kept across reloads). */
  private persist(): void {
    const d = this.data;
    const state: PanelState = { view: 'overview', bands: this.bands };
    if (d && this.visible) {
      state.shownModels = d.models.filter((m) => this.visible!.has(m.id)).map((m) => m.displayId);
      state.knownModels = d.models.map((m) => m.displayId);
    } else if (this.saved?.shownModels && this.saved.knownModels) {
      state.shownModels = this.saved.shownModels;
      state.knownModels = this.saved.knownModels;
    }
    this.rpc.setState(state);
  }

  /** The models shown at first: the saved choice for models the saved view knew, the default for the others. */
  private initialVisible(d: OverviewData, fresh: Set<number>): Set<number> {
    const shown = this.saved?.shownModels;
    const known = this.saved?.knownModels;
    if (!shown || !known) return fresh;
    const shownSet = new Set(shown);
    const knownSet = new Set(known);
    return new Set(
      d.models
        .filter((m) => (knownSet.has(m.displayId) ? shownSet.has(m.displayId) : fresh.has(m.id)))
        .map((m) => m.id),
    );
  }

  async load(): Promise<void> {
    const gen = ++this.generation;
    // the figures take seconds on a large folder (computed in a worker): the page says what is computed
    const status = figuresStatus(this.root, 'overview-progress', !this.data, 'Computing figures…');
    try {
      const d = await this.rpc.request('getOverview', {}, (p) => {
        if (gen === this.generation) status.show(p);
      });
      if (gen !== this.generation) return;
      this.data = d;
      const fresh = defaultVisibleModels(d.models);
      // A new base or focus model (chosen in the tree or the status bar) is shown with its run.
      const roles = `${d.baseModelId ?? ''}/${d.models.find((m) => m.isFocus)?.id ?? ''}`;
      const rolesChanged = this.roles !== undefined && this.roles !== roles;
      this.roles = roles;
      if (!this.visible) this.visible = this.initialVisible(d, fresh);
      else
        for (const m of d.models)
          if ((rolesChanged || !this.known.has(m.id)) && fresh.has(m.id)) this.visible.add(m.id);
      this.known = new Set(d.models.map((m) => m.id));
      this.render(d);
      this.persist();
      void this.loadMarkers(gen);
    } catch (e) {
      if (gen !== this.generation) return;
      replace(this.root, h('p', { className: 'error' }, `Could not load the overview: ${(e as Error).message}`));
    }
  }

  /**
   * Asks for the lengths and reasoning markers (computed after the overview's figures, so that those never wait
   * for their bootstraps) and shows their section once they come; nothing when the index has no measures.
   */
  private async loadMarkers(gen: number): Promise<void> {
    try {
      const r = await this.rpc.request('getModelMarkers', {});
      if (gen !== this.generation || !this.data) return;
      this.markers = r.markers;
      const room = this.root.querySelector<HTMLElement>('#markers-room');
      const section = markersSection(this.markers);
      if (room) room.replaceChildren(...(section ? [section] : []));
      this.renderCharts(this.data);
    } catch (e) {
      if (gen === this.generation) this.rpc.log('warn', `lengths and reasoning markers: ${(e as Error).message}`);
    }
  }

  rerenderCharts(): void {
    if (this.data) this.renderCharts(this.data);
  }

  private filter(f: WebviewFilter): void {
    void this.rpc.request('filterProblems', { filter: f }).catch((e: Error) => this.rpc.log('warn', e.message));
  }

  /**
   * Builds the overview page from `d` and draws its charts: the header, the warnings, the model picker, the
   * pass@k curves, the accuracy histogram, coverage against the base, the reasoning paths (not with one model)
   * and the table of models.
   */
  private render(d: OverviewData): void {
    const label = new Map(d.models.map((m) => [m.id, m.label]));
    // With a guessed base, each run's models are compared with the run's own base: name it per row.
    const perRunBases = new Set(d.coverage.map((c) => c.baseModelId)).size > 1;
    replace(
      this.root,
      overviewHeader(d),
      warningsList(d),
      this.modelPicker(d),
      curvesSection(d, this.passAtKExport(d)),
      histogramSection(),
      h('div', { id: 'markers-room' }, markersSection(this.markers)),
      this.coverageSection(d, label, perRunBases),
      // reasoning paths compare a model with base samples: not offered with one model (trial 13 finding 4)
      d.models.some((m) => m.onlyModel) ? null : pathsSection(this.rpc, label, perRunBases),
      modelsSection(d),
    );
    this.renderCharts(d);
  }

  /**
   * The "Coverage against the base model" section from `d`: the room for its chart, and the table of each
   * model against its base (named by `label`, the base in a column of its own when `perRunBases`) with the
   * crossover note, or why there is no row.
   */
  private coverageSection(d: OverviewData, label: Map<number, string>, perRunBases: boolean): HTMLElement {
    return h(
      'section',
      null,
      h('h2', null, 'Coverage against the base model'),
      h(
        'p',
        { className: 'muted' },
        'Solvable = at least one correct sample (observed: 0 correct of n does not prove a model cannot solve it). Click a segment to show those problems in the tree.',
      ),
      d.coverage.length ? exportActions(this.rpc, () => ({ figure: 'coverage', models: this.shownIds(d) })) : null,
      h('div', { className: 'chart', id: 'chart-coverage' }),
      // no row (one model): why, instead of the table's headers alone (trial 10 finding 9)
      d.coverage.length === 0
        ? h('p', { className: 'muted', id: 'coverage-note' }, d.coverageNote ?? 'No coverage.')
        : this.coverageTable(d, label, perRunBases),
      d.coverage.length ? h('p', { className: 'muted', id: 'crossover-note' }, CROSSOVER_NOTE) : null,
    );
  }

  /**
   * The coverage table of `d` in its sideways-scrolling box: a row a model against its base, in natural order of
   * base, then model (step-300 before step-1000), by `label`; a base column when `perRunBases`.
   */
  private coverageTable(d: OverviewData, label: Map<number, string>, perRunBases: boolean): HTMLElement {
    const collator = new Intl.Collator('en', { numeric: true });
    const byLabels = (a: { baseModelId: number; modelId: number }, b: { baseModelId: number; modelId: number }) =>
      collator.compare(label.get(a.baseModelId) ?? '', label.get(b.baseModelId) ?? '') ||
      collator.compare(label.get(a.modelId) ?? '', label.get(b.modelId) ?? '');
    return h(
      'div',
      // in a narrow editor the table scrolls sideways instead of squeezing the last column (trial 10 finding 10e)
      { className: 'table-scroll', id: 'coverage-scroll' },
      h(
        'table',
        { className: 'stats', id: 'coverage-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            [
              ...(perRunBases ? ['base'] : []),
              'model',
              'problems',
              'n (model / base)',
              'base only',
              'model only',
              'both',
              'neither',
              'crossover k',
            ].map((t) => h('th', null, t)),
          ),
        ),
        h(
          'tbody',
          null,
          [...d.coverage].sort(byLabels).map((c) => this.coverageRow(c, label, perRunBases)),
        ),
      ),
    );
  }

  /**
   * One row of the coverage table from `c`: the base (when `perRunBases`) and the model by `label`, with the
   * grader and n warnings, the problem count, and the four cells as buttons that show those problems in the tree,
   * then the crossover k.
   */
  private coverageRow(
    c: OverviewData['coverage'][number],
    label: Map<number, string>,
    perRunBases: boolean,
  ): HTMLElement {
    return h(
      'tr',
      null,
      perRunBases ? h('td', null, label.get(c.baseModelId) ?? '') : null,
      h(
        'td',
        null,
        label.get(c.modelId) ?? '',
        c.differentGraders
          ? h(
              'span',
              {
                className: 'warning-mark',
                title: `graded by ${c.differentGraders.model}; the base by ${c.differentGraders.base}`,
              },
              ' [graded differently]',
            )
          : null,
      ),
      h('td', { title: c.over }, c.missing > 0 ? `${c.problems}/${c.problems + c.missing}` : String(c.problems)),
      h(
        'td',
        {
          className: 'n-range',
          title: c.nDiffers ?? 'the same n for every compared problem of both models',
        },
        `${nRange(c.n.model)} / ${nRange(c.n.base)}`,
        c.nDiffers ? h('span', { className: 'warning-mark' }, ' [n differs]') : null,
      ),
      ...(['baseOnly', 'modelOnly', 'both', 'neither'] as const).map((cell) =>
        h(
          'td',
          null,
          h(
            'button',
            {
              className: 'link',
              onclick: () => this.filter({ kind: 'coverageCell', base: c.baseModelId, model: c.modelId, cell }),
            },
            String(c[cell]),
          ),
        ),
      ),
      h('td', { className: 'crossover' }, crossoverText(c) + crossoverScope(c)),
    );
  }

  /** The list of models with a checkbox each, the count shown/hidden and the band toggle. */
  private modelPicker(d: OverviewData): HTMLElement {
    const visible = this.visible ?? new Set<number>();
    const count = h('span', { id: 'models-shown', className: 'muted' });
    const boxes = overviewModels(d).map((m) => {
      const swatch = h('span', { className: m.isBase ? 'swatch base' : 'swatch' });
      swatch.style.backgroundColor = m.color; // CSSOM, allowed without 'unsafe-inline'
      const input = h('input', { type: 'checkbox', 'data-model-id': m.id, checked: visible.has(m.id) });
      input.addEventListener('change', () => this.setVisible(m.id, input.checked));
      return h(
        'label',
        {
          className: m.isBase ? 'model-toggle base' : 'model-toggle',
          title: d.models.find((x) => x.id === m.id)?.displayId ?? m.label,
        },
        input,
        swatch,
        m.label,
      );
    });
    const bands = h('input', { type: 'checkbox', id: 'show-bands', checked: this.bands });
    bands.addEventListener('change', () => {
      this.bands = bands.checked;
      this.persist();
      this.renderCharts(d);
    });
    const only = d.models.some((m) => m.onlyModel);
    const setAll = (ids: Iterable<number>) => {
      this.visible = new Set(ids);
      this.syncPicker(d);
      this.persist();
      this.renderCharts(d);
    };
    const picker = h(
      'details',
      { className: 'model-picker', id: 'model-picker', open: true },
      h('summary', null, h('strong', null, 'Models'), ' ', count),
      h(
        'div',
        { className: 'picker-actions' },
        h(
          'button',
          { className: 'link', id: 'show-all-models', onclick: () => setAll(d.models.map((m) => m.id)) },
          'show all',
        ),
        // no base with one model (trial 13 finding 4): no base choices
        only
          ? null
          : h(
              'button',
              { className: 'link', id: 'show-default-models', onclick: () => setAll(defaultVisibleModels(d.models)) },
              'base + focus run',
            ),
        only
          ? null
          : h(
              'button',
              {
                className: 'link',
                id: 'show-base-only',
                onclick: () => setAll(d.models.filter((m) => m.isBase).map((m) => m.id)),
              },
              'base only',
            ),
        h('label', { className: 'model-toggle' }, bands, 'bootstrap bands'),
        h('span', { className: 'muted' }, 'Click a legend entry to hide that model.'),
      ),
      h('div', { className: 'model-list' }, boxes),
    );
    this.pickerCount = count;
    this.updateCount(d);
    return picker;
  }

  private pickerCount: HTMLElement | undefined;

  private updateCount(d: OverviewData): void {
    const shown = d.models.filter((m) => this.visible?.has(m.id)).length;
    const hidden = d.models.length - shown;
    if (this.pickerCount)
      this.pickerCount.textContent = `${shown} of ${d.models.length} shown${hidden > 0 ? ` · ${hidden} hidden` : ''}`;
  }

  private syncPicker(d: OverviewData): void {
    for (const input of this.root.querySelectorAll<HTMLInputElement>('input[data-model-id]'))
      input.checked = !!this.visible?.has(Number(input.dataset.modelId));
    this.updateCount(d);
  }

  private setVisible(id: number, on: boolean): void {
    const d = this.data;
    if (!d) return;
    this.visible ??= new Set();
    if (on) this.visible.add(id);
    else this.visible.delete(id);
    this.syncPicker(d);
    this.persist();
    this.renderCharts(d);
  }

  /** A click on a legend entry (datum.value = the model's label as drawn) hides that model. */
  private legendClick(d: OverviewData, datum: Record<string, unknown>): boolean {
    if (typeof datum.value !== 'string' || 'modelId' in datum) return false;
    const m = overviewModels(d).find((x) => x.label === datum.value);
    if (!m) return false;
    this.setVisible(m.id, false);
    return true;
  }

  /**
   * The pass@k chart's export: the models shown, and with difficulty levels a choice of all problems (pooled, as a
   * column of a paper has no room for the panels) or one level.
   */
  private passAtKExport(d: OverviewData): HTMLElement {
    const level = d.levels.length
      ? h(
          'select',
          { className: 'export-level', 'aria-label': 'problems of the exported pass@k figure' },
          h('option', { value: '' }, 'all problems'),
          d.levels.map((l) => h('option', { value: l }, `level ${l}`)),
        )
      : undefined;
    return exportActions(
      this.rpc,
      () => ({
        figure: 'pass-at-k',
        models: this.shownIds(d),
        ...(level && level.value !== '' ? { level: level.value } : {}),
      }),
      level,
    );
  }

  /** The display ids of the models the charts show now (what an exported figure draws). */
  private shownIds(d: OverviewData): string[] {
    return d.models.filter((m) => this.visible?.has(m.id)).map((m) => m.displayId);
  }

  private chartGeneration = 0;
  /** Width the charts were last drawn for; a resize of the editor by more than a few pixels redraws them. */
  private renderedWidth = 0;
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly resizeObserver = new ResizeObserver(() => {
    clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => {
      const el = this.root.querySelector<HTMLElement>('#chart-curves');
      if (this.data && el && Math.abs(el.clientWidth - this.renderedWidth) > 8) this.renderCharts(this.data);
    }, 150);
  });

  private renderCharts(d: OverviewData): void {
    for (const c of this.charts) c.finalize();
    this.charts = [];
    const gen = ++this.chartGeneration;
    // a chart whose embedding finishes after a newer render started is dropped at once
    const keep = (c: ChartHandle) => (gen === this.chartGeneration ? this.charts.push(c) : c.finalize());
    const el = (id: string) => {
      const e = this.root.querySelector<HTMLElement>(`#${id}`);
      if (e) e.replaceChildren();
      return e;
    };
    const curves = el('chart-curves');
    const hist = el('chart-histogram');
    const cov = el('chart-coverage');
    const markers = el('chart-markers');
    const width = (curves ?? this.root).clientWidth || 720;
    this.renderedWidth = width;
    if (markers && this.markers) void showChart(markers, modelsMarkersSpec(this.markers, width)).then(keep);
    const opts = { visible: this.visible, bands: this.bands, width };
    const none = (e: HTMLElement, text: string) => replace(e, h('p', { className: 'muted' }, text));
    const anyShown = d.models.some((m) => this.visible?.has(m.id));
    if (curves && !anyShown) none(curves, 'No model shown: tick one in the list above.');
    else if (curves)
      void showChart(curves, overviewCurveSpec(d, opts), (datum) => this.legendClick(d, datum)).then(keep);
    if (hist && !anyShown) none(hist, 'No model shown.');
    else if (hist)
      void showChart(hist, histogramSpec(d, opts), (datum) => {
        if (this.legendClick(d, datum)) return;
        if (typeof datum.modelId === 'number' && typeof datum.bin === 'number')
          this.filter({ kind: 'accuracyBin', model: datum.modelId, bin: datum.bin });
      }).then(keep);
    const covShown = d.coverage.some((c) => this.visible?.has(c.modelId));
    if (cov && d.coverage.length && !covShown)
      none(cov, 'No model besides the base model is shown (the table below lists them all).');
    else if (cov && d.coverage.length)
      void showChart(cov, coverageSpec(d, opts), (datum) => {
        const cell = datum.cell;
        if (
          typeof datum.modelId === 'number' &&
          typeof datum.baseModelId === 'number' &&
          (cell === 'baseOnly' || cell === 'modelOnly' || cell === 'both' || cell === 'neither')
        ) {
          this.filter({ kind: 'coverageCell', base: datum.baseModelId, model: datum.modelId, cell });
        }
      }).then(keep);
  }
}

/** The page header from `d`: the title, the problems and the models compared (with the base). */
function overviewHeader(d: OverviewData): HTMLElement {
  const base = d.models.find((m) => m.id === d.baseModelId);
  return h(
    'header',
    null,
    h('h1', null, 'Overview'),
    h('span', { className: 'muted' }, `${d.problemsText} · ${overviewModelsLine(d.models, base)}`),
  );
}

/** The list of `d`'s warnings; null when there are none. */
function warningsList(d: OverviewData): HTMLElement | null {
  return d.warnings.length
    ? h(
        'ul',
        { className: 'warning' },
        d.warnings.map((w) => h('li', null, w)),
      )
    : null;
}

/**
 * The "pass@k per model" section from `d`: the note on hollow points (and on broken lines when a curve's
 * problem set changes along k) when some value is over fewer than all problems, the chart's export `actions`,
 * and the room for the chart.
 */
function curvesSection(d: OverviewData, actions: HTMLElement): HTMLElement {
  return h(
    'section',
    null,
    h('h2', null, 'pass@k per model (95% bootstrap band over problems)'),
    actions,
    d.curves.some((c) => c.missing > 0)
      ? h(
          'p',
          { className: 'muted', id: 'curves-partial-note' },
          "Hollow points are computed over fewer than all of the model's problems (no samples, no graded sample, or n < k): hover one for how many and why.",
          brokenCurves(d)
            ? ' A line breaks where its problem set changes (problems with n < k drop out at larger k): each piece is labelled with its number of problems, and values on either side of a break are means over different problems, not pass@k falling or rising with k.'
            : '',
        )
      : null,
    h('div', { className: 'chart', id: 'chart-curves' }),
  );
}

/**
 * The "Length and reasoning markers" section (when the index has measures): its caption (the token rule, the
 * within-problem relations) and the room for the chart (drawn by renderCharts).
 */
function markersSection(markers: ModelMarkersData['markers'] | undefined): HTMLElement | null {
  if (!markers) return null;
  return h(
    'section',
    null,
    h('h2', null, 'Length and reasoning markers'),
    h(
      'p',
      { className: 'muted' },
      markersCaption(markers, (at) => `for ${at}`),
    ),
    h('div', { className: 'chart', id: 'chart-markers' }),
  );
}

/** The "Per-problem accuracy" section: its hint and the room for the histogram (drawn by renderCharts). */
function histogramSection(): HTMLElement {
  return h(
    'section',
    null,
    h('h2', null, 'Per-problem accuracy'),
    h('p', { className: 'muted' }, 'Click a bar to show those problems in the tree.'),
    h('div', { className: 'chart', id: 'chart-histogram' }),
  );
}

/**
 * The "Models" section from `d`: a row a model with its pass@1 and pass@max k over all levels, a value over
 * fewer than all of the model's problems carrying the count.
 */
function modelsSection(d: OverviewData): HTMLElement {
  return h(
    'section',
    null,
    h('h2', null, 'Models'),
    h(
      'table',
      { className: 'stats' },
      h('thead', null, h('tr', null, h('th', null, 'model'), h('th', null, 'pass@1'), h('th', null, 'pass@max k'))),
      h(
        'tbody',
        null,
        d.models.map((m) => {
          const pts = d.curves.filter((c) => c.modelId === m.id && c.level === null);
          const last = pts[pts.length - 1];
          // a value over fewer than all of the model's problems carries the count, and says why on hover
          const cell = (p: (typeof pts)[number] | undefined, text: string) =>
            p
              ? h(
                  'td',
                  { title: p.over, className: p.missing > 0 ? 'partial' : '' },
                  text + (p.missing > 0 ? ` (${p.problems}/${p.problems + p.missing})` : ''),
                )
              : h('td', null, '—');
          return h(
            'tr',
            null,
            h('td', { title: m.displayId }, m.label, m.isBase ? ' (base)' : ''),
            cell(pts[0], fmt(pts[0]?.value ?? null)),
            cell(last, last ? `${fmt(last.value)} (k=${last.k})` : ''),
          );
        }),
      ),
    ),
  );
}
