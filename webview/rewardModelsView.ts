/**
 * The overview's Reward models tab (several scorers on the same samples; Wen et al. 2025): best-of-N
 * against pairwise accuracy, one point per scorer, N chosen with a slider; the ranking table; and, per
 * problem, how each scorer ranks the samples (a strip per scorer; a click opens the sample). Every
 * figure says its denominator. Data from the host: `getRewardModels`, `getProblemRanking`.
 */
import { fmt, h, replace } from './dom';
import { rankingStripSpec, rewardScatterSpec, showChart, type ChartHandle } from './charts';
import { figuresStatus } from './progress';
import type { Rpc } from './rpc';
import { exportActions } from './exportActions';
import type { ProblemRankingData, RewardModelsData } from '../src/shared/protocol';

type RmModel = RewardModelsData['models'][number];

/**
 * A table cell whose value is computed over fewer than all of the model's problems is marked as in the
 * Models tab: class `partial`, ` (480/483)` after the value, the reasons in its tooltip.
 */
function partialCell(text: string, d: { problems: number; missing: number; over: string } | undefined): HTMLElement {
  if (!d || d.missing === 0) return h('td', { title: d?.over ?? '' }, text);
  return h('td', { title: d.over, className: 'partial' }, `${text} (${d.problems}/${d.problems + d.missing})`);
}

/** ` · problems a scorer did not score completely: X 3, Y 1` when some scorer's scores are missing; '' otherwise. */
function incompleteNote(m: RmModel): string {
  const left = Object.entries(m.incompleteByScorer).filter(([, v]) => v > 0);
  return left.length
    ? ` · problems a scorer did not score completely: ${left.map(([s, v]) => `${s} ${v}`).join(', ')}`
    : '';
}

export class RewardModelsView {
  private data: RewardModelsData | undefined;
  private model: RmModel | undefined;
  /** Index into the model's N grid. */
  private nIndex = -1;
  private problemId: number | undefined;
  private ranking: ProblemRankingData | undefined;
  private charts: ChartHandle[] = [];
  private stripChart: ChartHandle | undefined;
  private generation = 0;
  private chartGeneration = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
  ) {}

  async load(): Promise<void> {
    const gen = ++this.generation;
    const status = figuresStatus(this.root, 'reward-models-progress', true, 'Computing the reward-model evaluation…');
    try {
      const d = await this.rpc.request('getRewardModels', {}, (p) => {
        if (gen === this.generation) status.show(p);
      });
      if (gen !== this.generation) return;
      this.data = d;
      this.model = d.models.find((m) => m.modelId === this.model?.modelId) ?? d.models[0];
      this.render();
    } catch (e) {
      if (gen !== this.generation) return;
      replace(this.root, h('p', { className: 'error' }, `Could not load the reward models: ${(e as Error).message}`));
    }
  }

  rerenderCharts(): void {
    if (this.model) this.renderCharts();
    if (this.ranking) this.renderStrip();
  }

  private render(): void {
    const d = this.data!;
    const m = this.model;
    if (!m) {
      replace(
        this.root,
        h('h1', null, 'Reward models'),
        h(
          'p',
          { className: 'muted', id: 'rm-empty' },
          'No sample carries a score. Give scores with a mapping file ("scores", see docs/mapping.md), or a reward score.',
        ),
      );
      return;
    }
    if (this.nIndex < 0 || this.nIndex >= m.ns.length)
      this.nIndex = Math.min(m.ns.length - 1, Math.max(0, m.ns.indexOf(4)));
    const modelPick =
      d.models.length > 1
        ? h(
            'label',
            null,
            'Samples of ',
            (() => {
              const sel = h(
                'select',
                { id: 'rm-model' },
                d.models.map((x) =>
                  h(
                    'option',
                    { value: x.modelId, selected: x.modelId === m.modelId },
                    `${x.label} (${x.scorers.length} scorers)`,
                  ),
                ),
              );
              sel.addEventListener('change', () => {
                this.model = d.models.find((x) => x.modelId === Number(sel.value));
                this.problemId = undefined;
                this.ranking = undefined;
                this.render();
              });
              return sel;
            })(),
          )
        : null;
    const slider = h('input', {
      type: 'range',
      id: 'rm-n',
      min: 0,
      max: m.ns.length - 1,
      step: 1,
      value: this.nIndex,
      'aria-label': 'N of best-of-N',
    });
    const nLabel = h('strong', { id: 'rm-n-label' }, `N = ${m.ns[this.nIndex]}`);
    slider.addEventListener('input', () => {
      this.nIndex = Number(slider.value);
      nLabel.textContent = `N = ${m.ns[this.nIndex]}`;
      this.renderCharts();
      this.renderTable();
    });
    const rules = Object.entries(m.stepRules);
    const problemSelect = h(
      'select',
      { id: 'rm-problem', 'aria-label': 'problem' },
      h('option', { value: '' }, `Choose one of ${m.problemList.length} problems…`),
      m.problemList.map((p) => h('option', { value: p.problemId, selected: p.problemId === this.problemId }, p.label)),
    );
    problemSelect.addEventListener('change', () => {
      const id = Number(problemSelect.value);
      if (id > 0) void this.showProblem(id);
    });
    replace(
      this.root,
      h(
        'header',
        null,
        h('h1', null, 'Reward models'),
        h(
          'span',
          { className: 'muted', id: 'rm-summary' },
          `${m.scorers.length} scorer${m.scorers.length === 1 ? '' : 's'} on the same graded samples of ${m.label} · every figure ${m.over} (up to ${m.ns[m.ns.length - 1]} samples each)${incompleteNote(m)}${d.unattachedScores ? ` · ${d.unattachedScores} scores attach to no sample (see the Problems panel)` : ''}`,
        ),
      ),
      modelPick,
      rules.length
        ? h(
            'p',
            { className: 'muted' },
            `Step scores reduced to one number by: ${rules.map(([s, r]) => `${s} ${r}`).join(', ')}.`,
          )
        : null,
      h(
        'section',
        null,
        h('h2', null, 'Best-of-N against pairwise accuracy, one point per scorer'),
        h('div', { className: 'rm-slider' }, h('label', { htmlFor: 'rm-n' }, 'N '), slider, ' ', nLabel),
        h('p', { className: 'muted', id: 'rm-correlation' }),
        exportActions(this.rpc, () => ({
          figure: 'reward-models',
          models: this.model ? [this.model.displayId] : [],
          n: this.model?.ns[this.nIndex],
        })),
        h('div', { className: 'chart', id: 'chart-rm-scatter' }),
      ),
      h(
        'section',
        null,
        h('h2', null, 'Ranking'),
        h('p', { className: 'muted', id: 'rm-table-caption' }),
        h('div', { id: 'rm-table' }),
      ),
      h(
        'section',
        null,
        h('h2', null, 'How each scorer ranks one problem’s samples'),
        h(
          'p',
          { className: 'muted' },
          'Each row is a scorer; its samples from best score (left) to worst; green correct, red incorrect, grey ungraded. Click a cell to open the sample.',
        ),
        problemSelect,
        h('div', { id: 'rm-problem-head', className: 'muted' }),
        h('div', { className: 'chart', id: 'chart-rm-strips' }),
      ),
    );
    this.renderTable();
    this.renderCharts();
    if (this.problemId !== undefined) void this.showProblem(this.problemId);
  }

  private renderTable(): void {
    const m = this.model!;
    const n = m.ns[this.nIndex];
    const el = this.root.querySelector<HTMLElement>('#rm-table');
    const cap = this.root.querySelector<HTMLElement>('#rm-table-caption');
    if (!el) return;
    const at = (s: RmModel['scorers'][number]) => s.bestOfN.find((b) => b.n === n);
    const ranked = [...m.scorers].sort((a, b) => (b.pairwiseAccuracy ?? -1) - (a.pairwiseAccuracy ?? -1));
    const byBest = [...m.scorers].sort((a, b) => (at(b)?.value ?? -1) - (at(a)?.value ?? -1)).map((s) => s.name);
    const point = at(m.scorers[0]);
    const common = { problems: m.problems, missing: m.total - m.problems, over: m.over };
    if (cap)
      cap.textContent = `Pairwise accuracy over every (correct, incorrect) pair of the common set, ${m.over} (${m.scorers[0]?.pairs ?? 0} pairs per scorer, ties count 1/2); best-of-${n}, pass@${n} and regret ${point?.over ?? 'over no problem'}.`;
    replace(
      el,
      h(
        'table',
        { className: 'stats', id: 'rm-ranking' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            [
              'rank',
              'scorer',
              'pairwise accuracy',
              `best-of-${n}`,
              `rank by best-of-${n}`,
              `pass@${n}`,
              `regret@${n}`,
            ].map((t) => h('th', null, t)),
          ),
        ),
        h(
          'tbody',
          null,
          ranked.map((s, i) => {
            const b = at(s);
            return h(
              'tr',
              null,
              h('td', null, String(i + 1)),
              h('td', null, s.name),
              partialCell(fmt(s.pairwiseAccuracy, 4), common),
              partialCell(fmt(b?.value, 4), b),
              h('td', null, String(byBest.indexOf(s.name) + 1)),
              partialCell(fmt(b?.passAtN, 4), b),
              partialCell(fmt(b?.regret, 4), b),
            );
          }),
        ),
      ),
    );
  }

  private renderCharts(): void {
    const m = this.model!;
    for (const c of this.charts) c.finalize();
    this.charts = [];
    const n = m.ns[this.nIndex];
    const corr = m.correlations.find((c) => c.n === n);
    const cEl = this.root.querySelector<HTMLElement>('#rm-correlation');
    if (cEl)
      cEl.textContent =
        m.scorers.length < 2
          ? 'One scorer: no rank correlation across scorers.'
          : corr && corr.spearman !== null
            ? `Across the ${corr.scorers} scorers at N = ${n}: Spearman ${fmt(corr.spearman)} [${fmt(corr.ciLow)}, ${fmt(corr.ciHigh)}], Kendall tau-b ${fmt(corr.kendall)} [${fmt(corr.kendallCiLow)}, ${fmt(corr.kendallCiHigh)}] (95% percentile bootstrap over the ${m.problems} problems of the common set, ${corr.replicates} of ${m.bootstrap.replicates} replicates defined, seed ${m.bootstrap.seed}).`
            : `At N = ${n} best-of-N does not vary across scorers${n === 1 ? ' (it is pass@1 for every scorer)' : ''}: no rank correlation.`;
    const el = this.root.querySelector<HTMLElement>('#chart-rm-scatter');
    if (!el) return;
    el.replaceChildren();
    const gen = ++this.chartGeneration;
    void showChart(el, rewardScatterSpec(m, n, el.clientWidth || 640)).then((c) =>
      gen === this.chartGeneration ? this.charts.push(c) : c.finalize(),
    );
  }

  private async showProblem(problemId: number): Promise<void> {
    const m = this.model;
    if (!m) return;
    this.problemId = problemId;
    const head = this.root.querySelector<HTMLElement>('#rm-problem-head');
    try {
      const r = await this.rpc.request('getProblemRanking', { problemId, modelId: m.modelId });
      if (this.problemId !== problemId) return;
      this.ranking = r;
      if (head) {
        const c = r.samples.filter((s) => s.correct === true).length;
        const g = r.samples.filter((s) => s.correct !== null).length;
        replace(
          head,
          `Problem ${r.label}: ${r.samples.length} samples (${c} correct of ${g} graded), ${r.scorers.length} scorers. `,
          h(
            'button',
            {
              className: 'link',
              id: 'rm-open-problem',
              onclick: () => void this.rpc.request('openProblem', { problemId }).catch(() => undefined),
            },
            'Open the problem view',
          ),
          r.question ? h('div', { className: 'trace question' }, r.question) : null,
        );
      }
      this.renderStrip();
    } catch (e) {
      if (head) replace(head, h('span', { className: 'error' }, (e as Error).message));
    }
  }

  private renderStrip(): void {
    const r = this.ranking;
    const el = this.root.querySelector<HTMLElement>('#chart-rm-strips');
    if (!r || !el) return;
    this.stripChart?.finalize();
    el.replaceChildren();
    void showChart(el, rankingStripSpec(r, el.clientWidth || 640), (datum) => {
      if (typeof datum.sampleId === 'number')
        void this.rpc
          .request('openSample', { sampleId: datum.sampleId })
          .catch((e: Error) => this.rpc.log('warn', e.message));
    }).then((c) => {
      this.stripChart = c;
    });
  }
}
