/**
 * The problem view: pass@k of every model for one problem (with c/n, its Beta interval, the category
 * against the base and the saturation point; no per-problem crossover, which cannot exist), then "in the base distribution?": for the chosen model's samples (correct first)
 * the nearest base samples with their similarity, novel spans, a word diff against the nearest base
 * sample, the similarity distribution against the base-to-base baseline, PPL_base when the folder
 * has a log-prob sidecar, and annotation controls.
 */
import { appendInBlocks, h, fmt, pct, replace } from './dom';
import { pathsSummaryText, samplePathLine } from './pathView';
import type { TraceRender } from './traceRender';
import type { TextSource } from './textApi';
import {
  accuracySpec,
  type ChartHandle,
  measureGlyphs,
  pplSpec,
  problemCurveSpec,
  readTheme,
  showChart,
  similaritySpec,
  vegaLoaded,
} from './charts';
import { mark, type Rpc } from './rpc';
import { exportActions } from './exportActions';
import { ACCURACY_ROW_PX, problemCurveGroups, problemCurveNote } from '../src/shared/chartSpecs';
import { type InBaseSection, inBaseSection } from '../src/shared/inBaseSection';
import { modelRoleTag, sampleDetailTabs } from '../src/shared/modelRoles';
import type {
  CompiledChart,
  KPoint,
  ModelInfo,
  NoveltyData,
  PanelState,
  ProblemComparison,
  ProblemData,
  ProblemInfo,
  ProblemModelStats,
  SamplePage,
  SampleSummary,
  SampleText,
  SimilarityData,
} from '../src/shared/protocol';

const PAGE = 100;

export class ProblemView {
  private data: ProblemData | undefined;
  private charts: ChartHandle[] = [];
  private metrics = { maj: false, best: false };
  /** What the host says about how maj@k is judged on this problem (MajorityData `note`), shown while maj@k is ticked. */
  private majorityNote: { data: ProblemData; note: string } | undefined;
  private samples: SampleSummary[] = [];
  private total = 0;
  private sim: SimilarityData | undefined;
  private generation = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
    private state: PanelState,
    /** The rendering pipeline of model output (Markdown, KaTeX, DOMPurify), loaded after the first chart. */
    private readonly text: TextSource,
  ) {}

  setState(s: PanelState): void {
    this.state = s;
    this.rpc.setState(s);
  }

  rerenderCharts(): void {
    if (this.data) void this.renderCharts();
    if (this.sim) this.renderSimilarityChart();
  }

  async load(): Promise<void> {
    const gen = ++this.generation;
    if (this.state.problemId === undefined) {
      replace(this.root, h('p', { className: 'error' }, 'No problem selected.'));
      return;
    }
    try {
      const d = await this.rpc.request('getProblem', { problemId: this.state.problemId });
      if (gen !== this.generation) return;
      this.data = d;
      this.setState({ ...this.state, problemKey: `${d.problem.dataset}\x1f${d.problem.problemId}` });
      this.renderShell(d);
      mark('ti:shell');
      const firstChart = this.renderCharts();
      // the question as Markdown with math once the pass@k chart is on screen: the renderer (markdown-it,
      // KaTeX, DOMPurify) is a script of its own that the chart does not wait for (webview/textApi.ts)
      void firstChart.then(() => this.renderQuestion(gen, d));
      if (this.metrics.maj) void this.loadMajority(this.root.querySelector<HTMLElement>('#maj-status') ?? h('span'));
      await this.loadModelSection();
    } catch (e) {
      if (gen === this.generation)
        replace(this.root, h('p', { className: 'error' }, `Could not load the problem: ${(e as Error).message}`));
    }
  }

  /**
   * Builds the problem page from `d` (the charts, the question's Markdown and the model section are filled in
   * afterwards): the header, the kept-from-before-reload note, the statement, pass@k per model and the
   * "in the base distribution?" section.
   */
  private renderShell(d: ProblemData): void {
    for (const c of this.charts) c.finalize();
    this.charts = [];
    const base = d.models.find((m) => m.id === d.baseModelId);
    const section = this.chooseComparedModel(d);
    replace(
      this.root,
      this.problemHeader(d.problem),
      cachedNote(d),
      problemStatement(d),
      this.passAtKSection(d, base),
      this.inBaseShell(d, section, base),
    );
  }

  /**
   * Which model's samples the "in the base distribution?" section lists for `d`: with the base alone, its
   * samples (trial 10 finding 3); else a model to compare with it, the current choice when still offered. The
   * choice is saved in the panel state.
   */
  private chooseComparedModel(d: ProblemData): InBaseSection {
    const section = inBaseSection(d, this.state.modelId);
    const chosen = section.modelId;
    if (chosen !== this.state.modelId) this.setState({ ...this.state, modelId: chosen });
    return section;
  }

  /** The page header for problem `p`: its id, dataset and level, and the "Show in tree" button. */
  private problemHeader(p: ProblemInfo): HTMLElement {
    return h(
      'header',
      null,
      h(
        'h1',
        null,
        `Problem ${p.problemId}`,
        h('span', { className: 'muted' }, ` · ${p.dataset}${p.level ? ` · level ${p.level}` : ''}`),
      ),
      h(
        'div',
        { className: 'actions' },
        h(
          'vscode-button',
          {
            appearance: 'secondary',
            onclick: () =>
              void this.rpc.request('filterProblems', { filter: { kind: 'problems', problemIds: [p.id] } }),
          },
          'Show in tree',
        ),
      ),
    );
  }

  /**
   * The "pass@k per model" section from `d`: the note on models not drawn, the warning when there is no
   * `base`, the maj@k / best-of-k toggles, the room for the pass@k chart (with its data list and note) and the
   * c/n chart, and the table of counts, intervals and categories.
   */
  private passAtKSection(d: ProblemData, base: ModelInfo | undefined): HTMLElement {
    const label = new Map(d.models.map((m) => [m.id, m.label]));
    return h(
      'section',
      null,
      h('h2', null, 'pass@k per model'),
      notDrawnNote(d, label),
      base
        ? null
        : h(
            'p',
            { className: 'warning' },
            'No base model has samples for this problem: the comparison and similarity need one (Trace Inspector: Choose Base Model).',
          ),
      this.metricToggles(d),
      exportActions(this.rpc, () => ({ figure: 'problem', problemId: d.problem.id })),
      h('div', {
        className: 'chart',
        id: 'chart-passk',
        role: 'img',
        'aria-label': 'pass@k against k for every model',
      }),
      h('ul', { className: 'visually-hidden', id: 'chart-passk-data' }),
      h('p', { className: 'muted note', id: 'chart-passk-note' }),
      accuracyChartBox(d),
      statsTable(d, label),
    );
  }

  /**
   * The maj@k and best-of-k checkboxes, each only when some model of `d` has that metric, with the maj@k
   * status line; ticking one redraws the charts (maj@k is fetched first, on demand).
   */
  private metricToggles(d: ProblemData): HTMLElement {
    const hasMaj = d.stats.some((s) => s.hasMajAtK);
    const hasBest = d.stats.some((s) => s.bestOfK.length > 0);
    const majStatus = h('span', { className: 'muted', id: 'maj-status', role: 'status' });
    return h(
      'div',
      { className: 'toggles' },
      hasMaj
        ? this.checkbox('maj@k (majority vote of extracted answers)', this.metrics.maj, (v) => {
            this.metrics.maj = v;
            if (v) void this.loadMajority(majStatus);
            else {
              majStatus.textContent = '';
              void this.renderCharts();
            }
          })
        : null,
      hasMaj ? majStatus : null,
      hasBest
        ? this.checkbox('best-of-k (by reward score)', this.metrics.best, (v) => {
            this.metrics.best = v;
            void this.renderCharts();
          })
        : null,
    );
  }

  /**
   * The "in the base distribution?" (or, with one model, "Samples") section of `d` for the chosen `section`:
   * its sentence (with the dropdown of models to compare with the `base`) and the empty `#model-section` the
   * samples are listed in.
   */
  private inBaseShell(d: ProblemData, section: InBaseSection, base: ModelInfo | undefined): HTMLElement {
    const dropdown = this.modelDropdown(d, section);
    return h(
      'section',
      { id: 'in-base' },
      h('h2', null, d.models.some((m) => m.onlyModel) ? 'Samples' : 'In the base distribution?'),
      section.kind === 'baseOnly'
        ? h('p', { className: 'muted', id: 'in-base-alone' }, section.text)
        : base
          ? h(
              'p',
              { className: 'muted' },
              'Each sample of ',
              dropdown,
              ` against the ${d.stats.find((s) => s.modelId === base.id)?.samples ?? 0} samples of the base model `,
              h('strong', { title: base.displayId }, base.label),
              '. Similarity = Jaccard of token 3-gram sets; novel spans are in no 3-gram of any base sample.',
            )
          : h('p', { className: 'muted' }, 'Choose a base model to compare samples with it.'),
      h('div', { id: 'model-section' }),
    );
  }

  /**
   * The dropdown of the models `section` offers to compare with the base (the chosen one selected); choosing
   * another saves it and lists its samples.
   */
  private modelDropdown(d: ProblemData, section: InBaseSection): HTMLElement {
    const models = d.models.filter((m) => section.kind === 'compare' && section.models.includes(m.id));
    const chosen = section.modelId;
    const dropdown = h(
      'vscode-dropdown',
      { id: 'model-select', 'aria-label': 'model to compare with the base model' },
      models.map((m) => h('vscode-option', { value: String(m.id), selected: m.id === chosen }, m.label)),
    );
    dropdown.addEventListener('change', () => {
      const v = Number((dropdown as unknown as { value: string }).value);
      if (Number.isSafeInteger(v) && v !== this.state.modelId) {
        this.setState({ ...this.state, modelId: v, sampleId: undefined });
        void this.loadModelSection();
      }
    });
    return dropdown;
  }

  /**
   * maj@k comes on demand (it costs seconds at n = 1024, computed in the host's worker): fetched once
   * per problem, merged into the stats, then drawn.
   */
  private async loadMajority(status: HTMLElement): Promise<void> {
    const d = this.data;
    if (!d) return;
    if (d.stats.some((s) => s.hasMajAtK && s.majAtK.length === 0)) {
      status.textContent = 'computing maj@k…';
      try {
        const m = await this.rpc.request('getMajAtK', { problemId: d.problem.id });
        if (this.data !== d) return;
        for (const c of m.curves) {
          const st = d.stats.find((x) => x.modelId === c.modelId);
          if (st) st.majAtK = c.majAtK;
        }
        this.majorityNote = { data: d, note: m.note };
        status.textContent = '';
      } catch (e) {
        status.textContent = `maj@k unavailable: ${(e as Error).message}`;
        return;
      }
    }
    if (this.majorityNote?.data === d) status.textContent = this.majorityNote.note;
    if (this.metrics.maj) void this.renderCharts();
  }

  private checkbox(text: string, checked: boolean, onChange: (v: boolean) => void): HTMLElement {
    const cb = h('vscode-checkbox', { checked }, text);
    cb.addEventListener('change', () => onChange((cb as unknown as { checked: boolean }).checked));
    return cb;
  }

  /**
   * Renders the problem's statement as Markdown with math into the shell's question (shown as plain text
   * until then), unless another problem or load has come since (`gen`). Marks it `data-rendered`. When the
   * renderer cannot be loaded the plain text stays, with the reason in its title.
   */
  private async renderQuestion(gen: number, d: ProblemData): Promise<void> {
    const el = this.root.querySelector<HTMLElement>('#question');
    if (!el) return;
    try {
      const t = await this.text();
      if (gen !== this.generation || this.data !== d || !el.isConnected) return;
      t.setSanitizedHtml(el, t.renderTrace(questionText(d)));
      el.setAttribute('data-rendered', 'true');
    } catch (e) {
      el.title = `Shown as plain text: ${(e as Error).message}`;
    }
  }

  /** Builds the charts (one after the other, webview/charts.ts); resolves when the pass@k chart is on screen. */
  private renderCharts(): Promise<void> {
    const d = this.data;
    if (!d) return Promise.resolve();
    for (const c of this.charts) c.finalize();
    this.charts = [];
    const curve = this.root.querySelector<HTMLElement>('#chart-passk');
    const acc = this.root.querySelector<HTMLElement>('#chart-accuracy');
    this.renderChartData(d);
    const note = this.root.querySelector<HTMLElement>('#chart-passk-note');
    if (note) note.textContent = problemCurveNote(problemCurveGroups(d.models, d.stats, this.metrics)) ?? '';
    // as the host compiled them (no Vega-Lite on the first paint) while the chart shows pass@k alone
    const passk = !this.metrics.maj && !this.metrics.best ? d.charts?.passk : undefined;
    // a new page's first charts come drawn as SVG by the host too (CompiledChart `svg`), shown until this
    // page's Vega has drawn them
    const hc = readTheme().highContrast;
    // (only while this page has no Vega yet: a theme change or another problem draws with Vega at once)
    const drawn = (c: CompiledChart | undefined) => (c?.highContrast === hc && !vegaLoaded() ? c.svg : undefined);
    const first = curve
      ? showChart(curve, problemCurveSpec(d.models, d.stats, d.comparisons, this.metrics, readTheme()), undefined, {
          compiled: passk,
          firstSvg: drawn(passk),
          // when the chart is first on screen (epoch ms; the host's drawing or the Vega view): the e2e suite
          // measures the time from the click
          onShown: () => curve.setAttribute('data-rendered-at', String(Date.now())),
        }).then((c) => {
          this.charts.push(c);
          // when its Vega view (tooltips) is drawn
          curve.setAttribute('data-interactive-at', String(Date.now()));
          this.reportLayout(curve);
        })
      : Promise.resolve();
    if (acc)
      void showChart(acc, accuracySpec(d.models, d.stats, readTheme()), undefined, {
        compiled: d.charts?.accuracy,
        firstSvg: drawn(d.charts?.accuracy),
      }).then((c) => this.charts.push(c));
    return first;
  }

  /** The layout last reported to the host (JSON), so that each change is told once. */
  private reportedLayout: string | undefined;

  /**
   * Tells the host the pass@k chart's width and the glyph widths of the chart font here (the `chartLayout`
   * message), when they changed: the host draws the next new view's first charts as SVG at that size.
   */
  private reportLayout(el: HTMLElement): void {
    const width = el.clientWidth;
    const glyphs = measureGlyphs(readTheme().font);
    if (!(width > 0) || !glyphs) return;
    const layout = { width, glyphs };
    const key = JSON.stringify(layout);
    if (key === this.reportedLayout) return;
    this.reportedLayout = key;
    this.rpc.chartLayout(layout);
  }

  /** The pass@k chart's figures as text (for screen readers and tests): pass@k, and maj@k / best-of-k when ticked. */
  private renderChartData(d: ProblemData): void {
    const list = this.root.querySelector<HTMLElement>('#chart-passk-data');
    if (!list) return;
    const label = new Map(d.models.map((m) => [m.id, m.label]));
    const series = (name: string, pts: KPoint[]) => pts.map((x) => `${name}${x.k}=${fmt(x.value)}`);
    replace(
      list,
      ...d.stats.map((s) =>
        h(
          'li',
          null,
          `${label.get(s.modelId)}: ${[
            ...series('pass@', s.passAtK),
            ...(this.metrics.maj ? series('maj@', s.majAtK) : []),
            ...(this.metrics.best ? series('best-of-', s.bestOfK) : []),
          ].join(', ')}`,
        ),
      ),
    );
  }

  private async loadModelSection(): Promise<void> {
    const d = this.data;
    const host = this.root.querySelector<HTMLElement>('#model-section');
    if (!d || !host || d.baseModelId === null || this.state.modelId === undefined) return;
    const gen = this.generation;
    const modelId = this.state.modelId;
    // the base alone: its samples, without similarity (trial 10 finding 3)
    if (modelId === d.baseModelId) {
      try {
        const p = await this.rpc.request('getSamples', { problemId: d.problem.id, modelId, offset: 0, limit: PAGE });
        if (gen !== this.generation || modelId !== this.state.modelId) return;
        this.sim = undefined;
        this.samples = p.samples;
        this.total = p.total;
        replace(
          host,
          h(
            'div',
            { className: 'split' },
            h('div', { className: 'sample-list', id: 'sample-list' }),
            h('div', { className: 'sample-detail', id: 'sample-detail' }),
          ),
        );
        this.renderSampleList();
        const first =
          this.state.sampleId !== undefined && p.samples.some((s) => s.id === this.state.sampleId)
            ? this.state.sampleId
            : p.samples[0]?.id;
        if (first !== undefined) void this.openSample(first);
      } catch (e) {
        replace(host, h('p', { className: 'error' }, (e as Error).message));
      }
      return;
    }
    replace(host, h('p', { className: 'muted loading' }, 'Computing similarity…'));
    let page: SamplePage;
    try {
      const [p, sim] = await Promise.all([
        this.rpc.request('getSamples', { problemId: d.problem.id, modelId, offset: 0, limit: PAGE }),
        // the list's stage: on screen before the computation paths (completed by completeSimilarity)
        this.rpc.request('getSimilarity', { problemId: d.problem.id, modelId, stage: 'list' }).catch((e: Error) => e),
      ]);
      if (gen !== this.generation || modelId !== this.state.modelId) return;
      mark('ti:similarity');
      page = p;
      this.sim = sim instanceof Error ? undefined : sim;
      this.samples = p.samples;
      this.total = p.total;
      replace(
        host,
        sim instanceof Error
          ? h('p', { className: 'error' }, `Similarity unavailable: ${sim.message}`)
          : this.similaritySummary(sim),
        h('div', { className: 'chart', id: 'chart-similarity' }),
        h(
          'div',
          { className: 'split' },
          h('div', { className: 'sample-list', id: 'sample-list' }),
          h('div', { className: 'sample-detail', id: 'sample-detail' }),
        ),
        d.hasLogprobs ? h('div', { id: 'ppl' }) : null,
      );
      // the list first: the similarity chart (2,048 points through Vega) is built in a later task, so the
      // list shows without waiting for it and the two are not one long task of the page
      this.renderSampleList();
      // When the list with similarities is on screen (epoch ms), for the e2e suite's timing.
      if (this.sim) host.querySelector('#sample-list')?.setAttribute('data-rendered-at', String(Date.now()));
      // the extension host's steps of the job, epoch ms (e2e timing; some come before this page existed)
      if (this.sim?.hostSteps)
        host.querySelector('#sample-list')?.setAttribute('data-host-steps', JSON.stringify(this.sim.hostSteps));
      // (a list stage before the base-to-base baseline: the chart, which shows it, comes with the full result)
      if (!this.sim?.baselinePending)
        setTimeout(() => {
          if (gen === this.generation && modelId === this.state.modelId) this.renderSimilarityChart();
        }, 0);
      if (this.sim?.partial) void this.completeSimilarity(gen, modelId);
      const first =
        this.state.sampleId !== undefined && page.samples.some((s) => s.id === this.state.sampleId)
          ? this.state.sampleId
          : page.samples[0]?.id;
      if (first !== undefined) void this.openSample(first);
      if (d.hasLogprobs) void this.loadPpl();
    } catch (e) {
      replace(host, h('p', { className: 'error' }, (e as Error).message));
    }
  }

  /**
   * The full similarity result after the list's stage: the summary gains the computation paths' sentence
   * and the open sample its path line. Nothing else changes (the list's figures were final).
   */
  private async completeSimilarity(gen: number, modelId: number): Promise<void> {
    const d = this.data;
    if (!d) return;
    let full: SimilarityData;
    try {
      full = await this.rpc.request('getSimilarity', { problemId: d.problem.id, modelId });
    } catch (e) {
      // the list stays as it is; the paths (and a baseline still pending) are missing: the summary says so
      if (gen === this.generation && modelId === this.state.modelId && this.sim?.baselinePending)
        this.root
          .querySelector<HTMLElement>('#model-section p.summary')
          ?.append(` The base-to-base baseline could not be computed: ${(e as Error).message}`);
      return;
    }
    if (gen !== this.generation || modelId !== this.state.modelId) return;
    const chartWaited = this.sim?.baselinePending === true;
    this.sim = full;
    const summary = this.root.querySelector<HTMLElement>('#model-section p.summary');
    summary?.replaceWith(this.similaritySummary(full));
    if (chartWaited) this.renderSimilarityChart();
    const list = this.root.querySelector('#sample-list');
    if (full.hostSteps) list?.setAttribute('data-host-steps', JSON.stringify(full.hostSteps));
    list?.setAttribute('data-complete-at', String(Date.now()));
    const head = this.root.querySelector('#sample-detail .detail-head');
    const id = this.state.sampleId;
    if (head && id !== undefined && !this.root.querySelector('#path-line')) {
      const line = samplePathLine(this.simOf().get(id));
      if (line) head.after(line);
    }
  }

  private similaritySummary(sim: SimilarityData): HTMLElement {
    const s = sim.summary;
    const bs = s.baselineSimilarity;
    const bn = s.baselineNovelty;
    return h(
      'p',
      { className: 'summary' },
      // before the base-to-base baseline (the list's stage): the model's figures, the baseline's to follow
      bs && bn
        ? `Median similarity to the nearest base sample: ${fmt(s.modelSimilarity.median)} for this model vs ${fmt(bs.median)} between base samples ` +
            `(range ${fmt(bs.min)}–${fmt(bs.max)}). Median novelty ${pct(s.modelNovelty.median)} vs ${pct(bn.median)}.`
        : `Median similarity to the nearest base sample: ${fmt(s.modelSimilarity.median)} for this model; median novelty ${pct(s.modelNovelty.median)} (the base-to-base baseline is being computed).`,
      answersLine(sim),
      pathsSummaryText(sim),
      sim.cached ? h('span', { className: 'muted' }, ' (cached)') : null,
    );
  }

  private renderSimilarityChart(): void {
    const el = this.root.querySelector<HTMLElement>('#chart-similarity');
    const d = this.data;
    if (!el || !this.sim || !d) return;
    const model = d.models.find((m) => m.id === this.sim?.modelId)?.label ?? 'model';
    const base = d.models.find((m) => m.id === this.sim?.baseModelId)?.label ?? 'base';
    // 2 x 1024 points: built with the first 512, the rest added 512 at a time in tasks of their own
    void showChart(
      el,
      similaritySpec(this.sim, model, base),
      (datum) => {
        const id = datum.sampleId;
        if (typeof id === 'number' && datum.verdict !== 'base') void this.openSample(id);
      },
      { batchRows: 512 },
    ).then((c) => this.charts.push(c));
  }

  /**
   * Keyboard in the sample list: ArrowDown / j and ArrowUp / k select the next / previous sample
   * (j and k also when the focus is elsewhere in the view, but not while typing in a field).
   */
  onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement | null;
    if (t?.closest('input, textarea, vscode-text-field, vscode-text-area, vscode-dropdown')) return;
    const inList = !!t?.closest('#sample-list');
    const down = e.key === 'j' || (inList && e.key === 'ArrowDown');
    const up = e.key === 'k' || (inList && e.key === 'ArrowUp');
    if (!down && !up) return;
    const i = this.samples.findIndex((x) => x.id === this.state.sampleId);
    const next = this.samples[Math.max(0, Math.min(this.samples.length - 1, i < 0 ? 0 : i + (down ? 1 : -1)))];
    if (!next) return;
    e.preventDefault();
    if (next.id !== this.state.sampleId) void this.openSample(next.id);
    const row = this.root.querySelector<HTMLElement>(`.sample-row[data-sample-id="${next.id}"]`);
    row?.focus();
    row?.scrollIntoView({ block: 'nearest' });
  }

  /** The whole sample list: the count, one row per loaded sample and the "Load more" button. */
  private renderSampleList(): void {
    const el = this.root.querySelector<HTMLElement>('#sample-list');
    if (!el) return;
    el.setAttribute('aria-label', 'samples (↑/↓ or j/k to move)');
    replace(
      el,
      h('div', { className: 'muted' }, `${this.total} samples, correct first · ↑↓ or j/k to move`),
      ...this.samples.map((s) => this.sampleRow(s)),
      this.moreButton(),
    );
  }

  /** "Load N more" while samples remain, else null. */
  private moreButton(): HTMLElement | null {
    if (this.samples.length >= this.total) return null;
    return h(
      'vscode-button',
      { appearance: 'secondary', id: 'load-more-samples', onclick: () => void this.more() },
      `Load ${Math.min(PAGE, this.total - this.samples.length)} more`,
    );
  }

  private sampleRow(s: SampleSummary): HTMLElement {
    const sim = this.simOf().get(s.id);
    const mark = s.correct === true ? '✓' : s.correct === false ? '✗' : '?';
    return h(
      'button',
      {
        className: `sample-row ${s.correct === true ? 'ok' : s.correct === false ? 'bad' : ''} ${s.id === this.state.sampleId ? 'selected' : ''}`,
        'data-sample-id': s.id,
        onclick: () => void this.openSample(s.id),
      },
      h(
        'span',
        {
          className: 'verdict',
          'aria-label': s.correct === true ? 'correct' : s.correct === false ? 'incorrect' : 'ungraded',
        },
        mark,
      ),
      h('span', { className: 'idx' }, `#${s.sampleIndex}`),
      h(
        'span',
        { className: 'sim', title: 'similarity to the nearest base sample' },
        sim ? `sim ${fmt(sim.similarity, 2)}` : '',
      ),
      h(
        'span',
        { className: 'nov', title: 'novelty: share of tokens in no base 3-gram' },
        sim ? `novel ${pct(sim.novelty)}` : '',
      ),
      h(
        'span',
        { className: 'in-base', title: 'base samples with the same final answer (correct ones in brackets)' },
        inBaseText(sim?.answerInBase, this.sim?.baseSamples),
      ),
      h(
        'span',
        { className: 'nearest', title: 'nearest base samples' },
        sim ? sim.nearest.map((n) => `base #${n.baseSampleIndex} (${fmt(n.similarity, 2)})`).join(', ') : '',
      ),
      s.labels.length ? h('span', { className: 'labels' }, s.labels.join(', ')) : null,
      // the answer check's second opinion on its own line, the folder's verdict (✓/✗) kept (trial 10 finding 1)
      s.answerCheck ? h('span', { className: 'answer-check' }, s.answerCheck) : null,
    );
  }

  /**
   * Loads the next page and appends its rows before the button (the rows already shown stay: the
   * list is not rebuilt, so each page costs the same).
   */
  private async more(): Promise<void> {
    const d = this.data;
    const el = this.root.querySelector<HTMLElement>('#sample-list');
    if (!d || !el || this.state.modelId === undefined || this.loadingMore) return;
    const modelId = this.state.modelId;
    this.loadingMore = true;
    try {
      const p = await this.rpc.request('getSamples', {
        problemId: d.problem.id,
        modelId,
        offset: this.samples.length,
        limit: PAGE,
      });
      if (modelId !== this.state.modelId) return;
      this.samples.push(...p.samples);
      el.querySelector('#load-more-samples')?.remove();
      el.append(...p.samples.map((s) => this.sampleRow(s)));
      const button = this.moreButton();
      if (button) el.append(button);
    } finally {
      this.loadingMore = false;
    }
  }

  private loadingMore = false;
  private simIndex: { of: SimilarityData | undefined; byId: Map<number, SimilarityData['samples'][number]> } = {
    of: undefined,
    byId: new Map(),
  };

  /** Similarity rows by sample id, rebuilt when the similarity result changes. */
  private simOf(): Map<number, SimilarityData['samples'][number]> {
    if (this.simIndex.of !== this.sim)
      this.simIndex = { of: this.sim, byId: new Map((this.sim?.samples ?? []).map((x) => [x.sampleId, x])) };
    return this.simIndex.byId;
  }

  async openSample(sampleId: number): Promise<void> {
    const el = this.root.querySelector<HTMLElement>('#sample-detail');
    if (!el) return;
    this.setState({ ...this.state, sampleId });
    this.root.querySelectorAll('.sample-row').forEach((r) => {
      r.classList.toggle('selected', r.getAttribute('data-sample-id') === String(sampleId));
    });
    replace(el, h('p', { className: 'muted loading' }, 'Loading…'));
    try {
      // one model: nothing to compare with, so no novelty is asked for (trial 13 finding 3)
      const only = this.data?.models.some((m) => m.onlyModel) ?? false;
      const [t, nov] = await Promise.all([
        this.rpc.request('getSample', { sampleId }),
        only ? Promise.resolve(undefined) : this.rpc.request('getNovelty', { sampleId }).catch((e: Error) => e),
      ]);
      if (this.state.sampleId !== sampleId) return;
      replace(el, this.sampleDetail(t, nov instanceof Error ? nov.message : (nov ?? null)));
    } catch (e) {
      replace(el, h('p', { className: 'error' }, (e as Error).message));
    }
  }

  /** The sample's Rendered tab being filled (a long sample renders a piece at a time; cancelled when another is opened). */
  private traceRender: TraceRender | undefined;
  /** Counts the samples whose Rendered tab was asked for (a late renderer load fills only the last). */
  private renderTicket = 0;

  /** `nov`: the novelty, its error message, or null in a one-model folder (Rendered alone, trial 13 finding 3). */
  private sampleDetail(t: SampleText, nov: NoveltyData | string | null): HTMLElement {
    const rendered = h('div', { className: 'trace', id: 'trace-rendered' });
    this.traceRender?.cancel();
    this.traceRender = undefined;
    // the renderer may still be loading (the first sample opened): the Rendered tab fills when it is in,
    // unless another sample has been opened since
    const ticket = ++this.renderTicket;
    this.text().then(
      (lib) => {
        if (ticket !== this.renderTicket) return;
        this.traceRender = lib.renderTraceInto(rendered, t.text);
      },
      (e: Error) => {
        if (ticket === this.renderTicket)
          replace(rendered, h('p', { className: 'error' }, `Could not render the sample: ${e.message}`));
      },
    );
    const verdict = t.correct === true ? 'correct' : t.correct === false ? 'incorrect' : 'ungraded';
    const shown = sampleDetailTabs(nov === null, typeof nov === 'string');
    const names = { novel: 'Novel spans', diff: 'Diff vs nearest base', rendered: 'Rendered' };
    const view = (tab: 'novel' | 'diff' | 'rendered') =>
      tab === 'rendered'
        ? rendered
        : nov === null
          ? null
          : typeof nov === 'string'
            ? h('p', { className: 'error' }, nov)
            : tab === 'novel'
              ? this.novelView(nov)
              : this.diffView(nov);
    const tabs = h(
      'vscode-panels',
      { 'aria-label': 'sample views', activeid: `tab-${shown.active}` },
      shown.tabs.map((tab) => h('vscode-panel-tab', { id: `tab-${tab}` }, names[tab])),
      shown.tabs.map((tab) => h('vscode-panel-view', { id: `view-${tab}` }, view(tab))),
    );
    return h(
      'div',
      null,
      h(
        'div',
        { className: 'detail-head' },
        h('strong', null, `Sample #${t.sampleIndex}`),
        // the answer check's second opinion beside the folder's verdict (trial 10 finding 1)
        t.answerCheck ? h('span', { className: 'answer-check' }, ` · ${t.answerCheck}`) : ` · ${verdict}`,
        t.extractedAnswer !== null ? ` · answer ` : '',
        t.extractedAnswer !== null ? h('code', null, t.extractedAnswer) : null,
        nov === null || typeof nov === 'string'
          ? null
          : h(
              'span',
              { className: 'novelty-score', id: 'novelty-score' },
              ` · novelty ${pct(nov.noveltyScore)} (${nov.novelTokenCount}/${nov.tokenCount} tokens)`,
            ),
        h(
          'vscode-button',
          {
            appearance: 'icon',
            title: 'Open in an editor',
            'aria-label': 'Open in an editor',
            onclick: () => void this.rpc.request('openSample', { sampleId: t.id }),
          },
          '↗',
        ),
      ),
      samplePathLine(this.simOf().get(t.id)),
      t.truncated
        ? h(
            'p',
            { className: 'warning' },
            `Showing the first ${t.text.length} of ${t.fullLength} characters; open it in an editor for the rest.`,
          )
        : null,
      shown.note ? h('p', { className: 'muted', id: 'one-model-note' }, shown.note) : null,
      tabs,
      this.annotationControls(t),
    );
  }

  /** The sample text with novel spans marked (built from text nodes only). */
  private novelView(nov: NoveltyData): HTMLElement {
    const pre = h('div', { className: 'spans', id: 'novel-spans' });
    const mark = (text: string) => h('mark', { className: 'novel', title: 'in no base sample' }, text);
    // In blocks laid out only near the viewport: a 200k-character sample does not stall the window.
    appendInBlocks(
      pre,
      nov.spans.map((s) => ({ text: nov.text.slice(s.start, s.end), wrap: s.novel ? mark : undefined })),
    );
    return h(
      'div',
      null,
      h(
        'p',
        { className: 'legend' },
        h('mark', { className: 'novel' }, 'novel span'),
        ' = no 3-gram of it occurs in any base sample of this problem; unmarked text occurs in some base sample.',
      ),
      pre,
    );
  }

  /** Side-by-side word diff with the nearest base sample. */
  private diffView(nov: NoveltyData): HTMLElement {
    if (!nov.nearest) return h('p', { className: 'muted' }, 'The base model has no sample of this problem.');
    if (!nov.diff) return h('p', { className: 'muted' }, 'The texts are too long and different for a word diff.');
    const left = h('div', { className: 'diff-side base' });
    const right = h('div', { className: 'diff-side model' });
    const removed = (t: string) => h('del', { className: 'removed' }, t);
    const added = (t: string) => h('ins', { className: 'added' }, t);
    appendInBlocks(
      left,
      nov.diff.filter((seg) => !seg.added).map((seg) => ({ text: seg.value, wrap: seg.removed ? removed : undefined })),
    );
    appendInBlocks(
      right,
      nov.diff.filter((seg) => !seg.removed).map((seg) => ({ text: seg.value, wrap: seg.added ? added : undefined })),
    );
    return h(
      'div',
      null,
      h(
        'div',
        { className: 'diff-heads' },
        h(
          'div',
          null,
          `Nearest base sample #${nov.nearest.sampleIndex} (similarity ${fmt(nov.nearest.similarity)})`,
          h(
            'vscode-button',
            {
              appearance: 'icon',
              title: 'Open the base sample',
              'aria-label': 'Open the base sample',
              onclick: () => void this.rpc.request('openSample', { sampleId: nov.nearest!.sampleId }),
            },
            '↗',
          ),
        ),
        h('div', null, 'This sample'),
      ),
      h('div', { className: 'diff', id: 'diff-view' }, left, right),
    );
  }

  private annotationControls(t: SampleText): HTMLElement {
    const d = this.data;
    const labels = [...new Set([...(d?.labels ?? []), ...t.labels])];
    const chosen = new Set(t.labels);
    const boxes = labels.map((l) => {
      const cb = h('vscode-checkbox', { checked: chosen.has(l) }, l);
      cb.addEventListener('change', () =>
        (cb as unknown as { checked: boolean }).checked ? chosen.add(l) : chosen.delete(l),
      );
      return cb;
    });
    const custom = h('vscode-text-field', { placeholder: 'custom label', maxlength: 200 });
    const note = h('vscode-text-area', { placeholder: 'note', rows: 3, maxlength: 20000, resize: 'vertical' });
    (note as unknown as { value: string }).value = t.note;
    const status = h('span', { className: 'muted', role: 'status' });
    const save = async () => {
      const extra = (custom as unknown as { value: string }).value.trim();
      const all = [...chosen, ...(extra ? [extra] : [])];
      try {
        const r = await this.rpc.request('setAnnotation', {
          sampleId: t.id,
          labels: all,
          note: (note as unknown as { value: string }).value,
        });
        status.textContent =
          r.labels.length || r.note ? `Saved: ${r.labels.join(', ') || '(note only)'}` : 'Annotation removed';
      } catch (e) {
        status.textContent = `Not saved: ${(e as Error).message}`;
      }
    };
    return h(
      'fieldset',
      { className: 'annotate' },
      h('legend', null, 'Annotation'),
      h('div', { className: 'labels' }, boxes),
      custom,
      note,
      h('div', null, h('vscode-button', { onclick: () => void save() }, 'Save annotation'), ' ', status),
    );
  }

  private async loadPpl(): Promise<void> {
    const d = this.data;
    const el = this.root.querySelector<HTMLElement>('#ppl');
    if (!d || !el) return;
    try {
      const ppl = await this.rpc.request('getPpl', { problemId: d.problem.id });
      if (!ppl.available || ppl.points.length === 0) {
        replace(
          el,
          h('p', { className: 'muted' }, `No log-probabilities for this problem in ${ppl.source ?? 'the sidecar'}.`),
        );
        return;
      }
      const chart = h('div', { className: 'chart' });
      replace(
        el,
        h('h3', null, 'Perplexity under the base model (PPL_base)'),
        chart,
        ppl.skipped
          ? h(
              'p',
              { className: 'warning' },
              `${ppl.skipped} sidecar lines skipped: ${ppl.diagnostics.slice(0, 3).join('; ')}`,
            )
          : null,
      );
      void showChart(chart, pplSpec(ppl, d.models)).then((c) => this.charts.push(c));
    } catch (e) {
      replace(el, h('p', { className: 'error' }, (e as Error).message));
    }
  }
}

/**
 * A model's counts on this problem: `c/n` over graded samples, with the ungraded ones named; a model
 * whose record has no samples, or no graded sample, says so (it is left out of every figure, not failing).
 */
export function countsText(s: Pick<ProblemModelStats, 'c' | 'n' | 'samples'>): string {
  if (s.samples === 0) return 'no samples';
  if (s.n === 0) return `ungraded (${s.samples} sample${s.samples === 1 ? '' : 's'}, none with a verdict)`;
  const ungraded = s.samples - s.n;
  return `${s.c}/${s.n}${ungraded > 0 ? ` (+${ungraded} ungraded)` : ''}`;
}

/** "in base 5/8 (5 ✓)" for a sample's final answer (base samples giving it, correct ones); empty when unknown. */
function inBaseText(a: { count: number; correct: number } | null | undefined, baseSamples: number | undefined): string {
  if (a === undefined || baseSamples === undefined) return '';
  if (a === null) return 'no extracted answer'; // the sample may end with one the tool could not extract (trial 13 finding 9)
  return a.count === 0 ? 'answer not in base' : `in base ${a.count}/${baseSamples} (${a.correct} ✓)`;
}

/**
 * One sentence on final answers: how many of this model's correct samples give an answer that some
 * correct base sample also gives (the answer-level "already in the base distribution").
 */
function answersLine(sim: SimilarityData): string {
  const correct = sim.samples.filter((x) => x.correct === true && x.answerInBase);
  if (sim.baseSamples === undefined || correct.length === 0) return '';
  const inBase = correct.filter((x) => x.answerInBase!.correct > 0).length;
  return ` Final answers: ${inBase} of this model's ${correct.length} correct samples give an answer that a correct base sample also gives.`;
}

/** The problem's statement as the data gives it (a placeholder when it has none). */
function questionText(d: ProblemData): string {
  return d.problem.question ?? '(no problem statement in the data)';
}

/**
 * The note, when `d` is the copy kept from before a window reload (src/extension/restoreCache.ts), that the
 * folder's index is not ready yet; else null.
 */
function cachedNote(d: ProblemData): HTMLElement | null {
  return d.cachedAt !== undefined
    ? h(
        'p',
        { className: 'muted', id: 'problem-cached', role: 'status' },
        "As it was before the window reload: the folder's index is not ready yet; the samples and similarity come when it is.",
      )
    : null;
}

/**
 * The problem section of `d`: its statement (plain text until the Markdown renderer has loaded, renderQuestion)
 * and its reference answer.
 */
function problemStatement(d: ProblemData): HTMLElement {
  const p = d.problem;
  const question = h('div', { className: 'trace question', id: 'question' }, questionText(d));
  return h(
    'section',
    { className: 'problem' },
    question,
    p.referenceAnswer !== null
      ? h('p', null, h('strong', null, 'Reference answer: '), h('code', null, p.referenceAnswer))
      : null,
  );
}

/**
 * The sentence naming (by `label`) the models of `d` with no verdict on this problem, left out of every figure;
 * null when there are none.
 */
function notDrawnNote(d: ProblemData, label: Map<number, string>): HTMLElement | null {
  return d.stats.some((x) => x.n === 0)
    ? h(
        'p',
        { className: 'muted', id: 'not-drawn' },
        `Not drawn (no verdict on this problem, left out of every figure): ${d.stats
          .filter((x) => x.n === 0)
          .map((x) => `${label.get(x.modelId) ?? x.modelId}: ${countsText(x)}`)
          .join('; ')}.`,
      )
    : null;
}

/**
 * The empty box the c/n chart of `d` is drawn in, its room kept until it is drawn (trial 15b finding 2: the
 * table under it jumped 56-218 px when it came): a row a model (accuracySpec's step, ACCURACY_ROW_PX) and ~42 px
 * of axis, title and padding; set through CSSOM (the page's CSP has no inline styles).
 */
function accuracyChartBox(d: ProblemData): HTMLElement {
  const accuracyChart = h('div', { className: 'chart', id: 'chart-accuracy' });
  accuracyChart.style.minHeight = `${ACCURACY_ROW_PX * d.stats.filter((x) => x.accuracy !== null).length + 42}px`;
  return accuracyChart;
}

/**
 * The table of `d`'s models (named by `label`): c/n, the 95% interval, pass@1 and pass@max k, the category
 * against the base and the saturation k.
 */
function statsTable(d: ProblemData, label: Map<number, string>): HTMLElement {
  const maxK = Math.max(1, ...d.stats.map((s) => s.passAtK[s.passAtK.length - 1]?.k ?? 1));
  const cmp = new Map(d.comparisons.map((c) => [c.modelId, c]));
  return h(
    'table',
    { className: 'stats', id: 'stats-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, 'model'),
        h('th', null, 'c/n'),
        h('th', null, '95% interval'),
        h('th', null, 'pass@1'),
        // n = 1 everywhere: pass@1 is the only k (no second "pass@1" column)
        maxK > 1 ? h('th', null, `pass@${maxK}`) : null,
        h(
          'th',
          { title: 'category of this problem against the base model; within noise = the 95% intervals overlap' },
          'vs base',
        ),
        h(
          'th',
          {
            title: 'smallest k from which both this model and the base solve every k-subset (both pass@k exactly 1)',
          },
          'saturation k',
        ),
      ),
    ),
    h(
      'tbody',
      null,
      d.stats.map((s) => statsRow(d, s, cmp.get(s.modelId), label, maxK)),
    ),
  );
}

/**
 * One row of the stats table: a model's stats `s` on the problem of `d` and its comparison `cr` with the base
 * (pass@`maxK` in the last pass column; the model named by `label`).
 */
function statsRow(
  d: ProblemData,
  s: ProblemModelStats,
  cr: ProblemComparison | undefined,
  label: Map<number, string>,
  maxK: number,
): HTMLElement {
  const last = s.passAtK.find((x) => x.k === maxK);
  const m = d.models.find((x) => x.id === s.modelId);
  return h(
    'tr',
    { 'data-model-id': s.modelId, className: m?.isBase ? 'base' : '' },
    h(
      'td',
      // the short name the tree gives the model; its full id on hover (trial 13 finding 8)
      { className: 'model', title: m?.displayId ?? '' },
      label.get(s.modelId) ?? String(s.modelId),
      m && (m.isBase || m.onlyModel) ? h('span', { className: 'tag' }, modelRoleTag(m)) : null,
    ),
    h('td', { className: 'counts' }, countsText(s)),
    h('td', null, s.betaLow === null ? '—' : `[${fmt(s.betaLow)}, ${fmt(s.betaHigh)}]`),
    h('td', { className: 'pass1' }, fmt(s.passAtK[0]?.value ?? null)),
    maxK > 1
      ? h('td', { className: 'passmax' }, last ? fmt(last.value) : s.n === 0 ? '—' : `— (n=${s.n} < ${maxK})`)
      : null,
    h('td', { className: 'category' }, cr ? `${cr.category}${cr.withinNoise ? ' (within noise)' : ''}` : '—'),
    h(
      'td',
      { className: 'saturation' },
      cr ? (cr.saturationK === null ? 'never (up to the smaller n)' : `from k=${cr.saturationK}`) : '—',
    ),
  );
}
