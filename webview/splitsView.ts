/**
 * The overview's Splits tab (issue 35, "generalisation across splits"): the split matrix of the CLI's
 * `report --splits <kind>` for a split kind chosen here (difficulty level, subject, dataset, content cluster):
 * a heatmap of models (rows) by splits (columns), each cell pass@1 over the split's problems, or its paired
 * difference with the base model on the same split; a click on a cell, or on a split's name, shows that
 * split's problems in the Problems tree; a table of the same figures with their denominators. A kind the folder
 * has no splits of is said in words, never drawn empty. Data from the host: `getSplits` (computed in the figures
 * worker). Model names and cluster words come from the folder: shown as text only (webview/dom.ts `h`).
 */
import { h, headedTable, replace } from './dom';
import { type ChartHandle, readTheme, showChart } from './charts';
import { figuresStatus } from './progress';
import type { Rpc } from './rpc';
import { exportActions } from './exportActions';
import {
  estimateText,
  hasRelative,
  nText,
  problemsText,
  SPLIT_KIND_NAMES,
  type SplitsMode,
  splitsHeatmapSpec,
} from '../src/shared/splitsChartSpecs';
import type { SplitKindName, SplitsData } from '../src/shared/protocol';

type Split = SplitsData['splits'][number];

/** Why the folder has no split of a kind, in words (the view's message instead of an empty chart). */
function noSplitsText(d: SplitsData): string {
  switch (d.kind) {
    case 'level':
      return `This folder has no difficulty levels: none of its ${d.problems} problems has a level (the records' level field, or a problem list's through a mapping file). Choose another kind of split.`;
    case 'subject':
      return `This folder has no subjects: none of its ${d.problems} problems has a subject (the records' subject field, or a problem list's through a mapping file). Choose another kind of split.`;
    case 'dataset':
      return `This folder has no problems to split by dataset (${d.problems} problems).`;
    case 'cluster':
      return `No content clusters: ${d.method}.`;
  }
}

export class SplitsView {
  private data: SplitsData | undefined;
  /** The kind asked for (undefined: the host's default for the folder, until the first answer). */
  private kind: SplitKindName | undefined;
  private mode: SplitsMode = 'passAt1';
  private chart: ChartHandle | undefined;
  private generation = 0;
  private chartGeneration = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
  ) {}

  /** (Re)loads the matrix of the kind chosen (the folder's default before the first choice). */
  async load(): Promise<void> {
    const gen = ++this.generation;
    const what = this.kind ? `the split matrix by ${SPLIT_KIND_NAMES[this.kind]}` : 'the split matrix';
    const status = figuresStatus(this.root, 'splits-progress', !this.data, `Computing ${what}…`);
    try {
      const d = await this.rpc.request('getSplits', this.kind ? { splits: this.kind } : {}, (p) => {
        if (gen === this.generation) status.show(p);
      });
      if (gen !== this.generation) return;
      this.data = d;
      this.kind = d.kind;
      if (!hasRelative(d)) this.mode = 'passAt1';
      this.render();
    } catch (e) {
      if (gen !== this.generation) return;
      replace(this.root, h('p', { className: 'error' }, `Could not compute the split matrix: ${(e as Error).message}`));
    }
  }

  rerenderCharts(): void {
    if (this.data) this.renderChart();
  }

  private choose(kind: SplitKindName): void {
    if (kind === this.kind) return;
    this.kind = kind;
    void this.load();
  }

  private kindPicker(d: SplitsData): HTMLElement {
    const sel = h(
      'select',
      { id: 'splits-kind' },
      d.kinds.map((k) =>
        h(
          'option',
          { value: k.kind, selected: k.kind === d.kind },
          `${SPLIT_KIND_NAMES[k.kind]} (${k.splits === null ? 'computed when chosen' : k.splits === 0 ? 'none in this folder' : `${k.splits} split${k.splits === 1 ? '' : 's'}`})`,
        ),
      ),
    );
    sel.addEventListener('change', () => this.choose(sel.value as SplitKindName));
    return h('label', null, 'Split the problems by ', sel);
  }

  private modePicker(d: SplitsData): HTMLElement {
    const relative = hasRelative(d);
    const sel = h(
      'select',
      { id: 'splits-mode', disabled: !relative },
      h('option', { value: 'passAt1', selected: this.mode === 'passAt1' }, 'pass@1'),
      h(
        'option',
        { value: 'relative', selected: this.mode === 'relative' },
        'pass@1 relative to the base on the same split',
      ),
    );
    sel.addEventListener('change', () => {
      this.mode = sel.value === 'relative' ? 'relative' : 'passAt1';
      this.renderChart();
    });
    return h(
      'label',
      null,
      ' · cells show ',
      sel,
      relative ? null : h('span', { className: 'muted' }, ' (no base model to compare with)'),
    );
  }

  /** Shows split `s`'s problems in the tree, named `Split level 3`, `Split cluster 2 (time, speed, car, after, hours)`. */
  private filter(s: Split): void {
    // the tree adds the count (`Split level 3: 24 problems`)
    const name = s.terms ? `cluster ${s.name} (${s.terms.join(', ')})` : s.label;
    const title = `Split ${name}`.slice(0, 200);
    void this.rpc
      .request('filterProblems', { filter: { kind: 'problems', problemIds: s.problemRowIds, title } })
      .catch((e: Error) => this.rpc.log('warn', e.message));
  }

  private render(): void {
    const d = this.data!;
    const warnings = d.warnings.length
      ? h(
          'ul',
          { className: 'warning', id: 'splits-warnings' },
          d.warnings.map((w) => h('li', null, w)),
        )
      : null;
    const head = h(
      'header',
      null,
      h('h1', null, 'Splits'),
      h(
        'span',
        { className: 'muted', id: 'splits-summary' },
        d.splits.length
          ? `${d.models.length} model${d.models.length === 1 ? '' : 's'} × ${d.splits.length} split${d.splits.length === 1 ? '' : 's'} by ${SPLIT_KIND_NAMES[d.kind]} · ${d.base ? `base model ${d.models.find((m) => m.name === d.base)?.label ?? d.base}` : 'no base model'}`
          : `no split by ${SPLIT_KIND_NAMES[d.kind]}`,
      ),
    );
    const controls = h(
      'p',
      { className: 'splits-controls' },
      this.kindPicker(d),
      d.splits.length ? this.modePicker(d) : null,
    );
    if (d.splits.length === 0) {
      this.chart?.finalize();
      this.chart = undefined;
      replace(
        this.root,
        head,
        controls,
        h('p', { id: 'splits-empty' }, noSplitsText(d)),
        // (the clusters' message already says how they are made)
        d.kind === 'cluster'
          ? null
          : h('p', { className: 'muted' }, `Splits by ${SPLIT_KIND_NAMES[d.kind]}: ${d.method}.`),
      );
      return;
    }
    const trained = d.models.filter((m) => m.trainedOn !== null);
    const unassigned = d.unassigned.problems
      ? ` ${d.unassigned.problems} of the ${d.problems} problems ${d.unassigned.problems === 1 ? 'is' : 'are'} in no split (${d.unassigned.why}${d.unassigned.named.length ? `: ${d.unassigned.named.join(', ')}${d.unassigned.problems > d.unassigned.named.length ? ', …' : ''}` : ''}).`
      : '';
    replace(
      this.root,
      head,
      controls,
      warnings,
      h(
        'p',
        { className: 'muted' },
        `Splits: ${d.method}. Each cell is the model's pass@1 over the split's problems it has graded samples of (a 95% bootstrap interval in its tooltip and in the table); relative to the base, the paired difference with the base model on the same problems, so that a harder split does not read as worse generalisation.`,
      ),
      h(
        'section',
        null,
        exportActions(this.rpc, () => ({ figure: 'splits', splits: d.kind, relative: this.mode === 'relative' })),
        h('div', { className: 'chart', id: 'chart-splits' }),
        h(
          'p',
          { className: 'muted', id: 'splits-chart-note' },
          'Click a cell to show its split’s problems in the Problems tree. ',
          trained.length
            ? `Outlined and marked *: the split the model was trained on (the in-distribution cell; read from its name: ${trained.map((m) => `${m.label} on ${m.trainedOn}`).join(', ')}).`
            : 'No model’s name says which split it was trained on (trained-on-<split>, level3, cluster2…), so no cell is marked in-distribution.',
        ),
      ),
      h(
        'section',
        null,
        h('h2', null, 'Problems per split'),
        h(
          'p',
          { id: 'splits-list' },
          d.splits.map((s, i) => [
            i > 0 ? ' · ' : null,
            h(
              'button',
              { className: 'link', 'data-split': s.name, onclick: () => this.filter(s) },
              `${s.label} (${s.problems} problem${s.problems === 1 ? '' : 's'})`,
            ),
          ]),
          '. Click to show them in the tree.',
          unassigned,
        ),
      ),
      h(
        'section',
        null,
        h('h2', null, 'The figures'),
        h(
          'p',
          { className: 'muted', id: 'splits-table-caption' },
          `In percent, with 95% bootstrap intervals; “vs base” in percentage points (model − base, paired on the problems both have). problems = the split's problems the model has graded samples of / all the split's problems; n = graded samples per problem (a range when it varies); pass@${d.k} leaves out problems with n < ${d.k}. * = the split the model was trained on.${hasRelative(d) ? ' p / Holm: the sign-flip test of the pass@1 difference and its Holm-adjusted p over every vs-base cell; a verdict says better or worse only below 0.05; † = too few problems differ for the test ever to reach 0.05.' : ''}`,
        ),
        h('div', { className: 'table-scroll' }, this.table(d)),
        h(
          'details',
          null,
          h('summary', null, 'How the intervals and verdicts are computed'),
          h('p', { className: 'muted' }, d.intervals),
          hasRelative(d) ? h('p', { className: 'muted' }, d.significance) : null,
        ),
      ),
    );
    this.renderChart();
  }

  private table(d: SplitsData): HTMLElement {
    const k = d.k;
    const relative = hasRelative(d);
    const head = [
      'model',
      'split',
      'problems',
      'n',
      'pass@1',
      `pass@${k}`,
      ...(relative ? ['vs base pass@1', 'p / Holm', 'verdict', `vs base pass@${k}`] : []),
    ];
    const label = new Map(d.splits.map((s) => [s.name, s.label]));
    const modelLabel = new Map(d.models.map((m) => [m.name, m.label]));
    return headedTable(
      { className: 'stats', id: 'splits-table' },
      head,
      d.cells.map((c) => {
        const r = c.relative;
        return h(
          'tr',
          { className: c.model === d.base ? 'base' : '' },
          h('td', { title: c.model }, modelLabel.get(c.model) ?? c.model),
          h('td', { title: label.get(c.split) ?? c.split }, `${c.split}${c.inDistribution ? ' *' : ''}`),
          h('td', null, problemsText(c)),
          h('td', null, nText(c.n)),
          h('td', null, estimateText(c.passAt1)),
          h(
            'td',
            { title: c.passAtK.missing ? `${c.passAtK.missing} problems left out (n < ${k})` : '' },
            estimateText(c.passAtK),
          ),
          ...(relative
            ? r
              ? [
                  h('td', null, estimateText(r.passAt1, true)),
                  h(
                    'td',
                    null,
                    r.passAt1.verdict === 'no data'
                      ? '—'
                      : `${r.passAt1.pValue.toPrecision(2)} / ${r.passAt1.pHolm.toPrecision(2)}${r.passAt1.pMin >= 0.05 ? ' †' : ''}`,
                  ),
                  h('td', null, r.passAt1.verdict),
                  h('td', null, estimateText(r.passAtK, true)),
                ]
              : [h('td', { colSpan: 4, className: 'muted' }, c.model === d.base ? 'the base model' : '—')]
            : []),
        );
      }),
    );
  }

  private renderChart(): void {
    const d = this.data;
    const el = this.root.querySelector<HTMLElement>('#chart-splits');
    if (!d || !el) return;
    this.chart?.finalize();
    this.chart = undefined;
    el.replaceChildren();
    el.setAttribute(
      'aria-label',
      `Heatmap of ${this.mode === 'relative' ? 'pass@1 relative to the base' : 'pass@1'}: ${d.models.length} models by ${d.splits.length} splits; the same figures are in the table below.`,
    );
    const gen = ++this.chartGeneration;
    void showChart(el, splitsHeatmapSpec(d, this.mode, readTheme()), (datum) => {
      const s = typeof datum.splitIndex === 'number' ? d.splits[datum.splitIndex] : undefined;
      if (s) this.filter(s);
    }).then((c) => {
      if (gen === this.chartGeneration) this.chart = c;
      else c.finalize();
    });
  }
}
