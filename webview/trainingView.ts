/**
 * The overview's Training tab: every checkpoint series of the folder (the same model at several
 * training steps, each step against its own base model). Per series: pass@1 and pass@K against the step
 * with intervals and the base as a dashed reference, categories per step, the share of positive gains
 * from sharpening, response length, a problems x steps heatmap of c/n (click a cell: that problem's view
 * at that checkpoint), a table of every figure with its denominator, and buttons that show the problems
 * lost during training or solved only at late steps in the tree.
 */
import { fmt, h, headedTable, pct, replace } from './dom';
import { type ChartHandle, curveSegments, showChart } from './charts';
import { figuresStatus } from './progress';
import type { Rpc } from './rpc';
import { exportActions } from './exportActions';
import { datasetsNote } from '../src/shared/datasetNote';
import {
  HEATMAP_MAX_ROWS,
  trainingCategoriesSpec,
  trainingGainShareSpec,
  trainingHeatmapSpec,
  trainingLengthSpec,
  trainingMarkersSpec,
  markersCaption,
  trainingPassSpec,
} from './trainingCharts';
import type { TrainingData, TrainingSeries, TrainingStep } from '../src/shared/protocol';
import { passAtKCell } from '../src/shared/passAtKCell';

/** Some pass@k line of the series changes its problem set between steps, so it is drawn in pieces. */
function brokenLines(s: TrainingSeries): boolean {
  const points = s.steps.flatMap((st) =>
    [...st.passAtK.map((p) => ({ ...p, who: 'c' })), ...st.basePassAtK.map((p) => ({ ...p, who: 'b' }))]
      .filter((p) => p.value !== null)
      .map((p) => ({ ...p, step: st.step })),
  );
  return curveSegments(
    points,
    (p) => `${p.who}${p.k}`,
    (p) => p.step,
    s.unit,
  ).some((x) => x.segments > 1);
}

export class TrainingView {
  private data: TrainingData | undefined;
  private charts: ChartHandle[] = [];
  private generation = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
  ) {}

  async load(): Promise<void> {
    const gen = ++this.generation;
    const status = figuresStatus(this.root, 'training-progress', !this.data, 'Loading the training series…');
    try {
      const d = await this.rpc.request('getTraining', {}, (p) => {
        if (gen === this.generation) status.show(p);
      });
      if (gen !== this.generation) return;
      this.data = d;
      this.render(d);
    } catch (e) {
      if (gen !== this.generation) return;
      replace(this.root, h('p', { className: 'error' }, `Could not load the training series: ${(e as Error).message}`));
    }
  }

  rerenderCharts(): void {
    if (this.data) this.renderCharts(this.data);
  }

  private render(d: TrainingData): void {
    const warnings = d.warnings.length
      ? h(
          'ul',
          { className: 'warning', id: 'training-warnings' },
          d.warnings.map((w) => h('li', null, w)),
        )
      : null;
    if (d.series.length === 0) {
      replace(
        this.root,
        h('h1', null, 'Training'),
        warnings,
        h(
          'p',
          { id: 'training-empty' },
          `No checkpoint series among the ${d.models} models of this folder: no two models differ only in a training step. `,
          'A series is the same model at several checkpoints, recognised by a step in its revision, name or run folder ',
          '(step-100, checkpoint-500, global_step_300, iter_0001000, ckpt-2k…). ',
          'Set traceInspector.stepPattern to recognise another spelling.',
        ),
        h('p', { className: 'muted' }, 'Step pattern: ', h('code', null, d.stepPattern)),
      );
      return;
    }
    replace(
      this.root,
      h(
        'header',
        null,
        h('h1', null, 'Training'),
        h(
          'span',
          { className: 'muted' },
          `${d.series.length} checkpoint series · step pattern ${d.defaultPattern ? '(built-in)' : '(traceInspector.stepPattern)'}`,
        ),
      ),
      warnings,
      d.series.map((s, i) => this.seriesSection(s, i)),
    );
    this.renderCharts(d);
  }

  private filter(series: string, which: 'lost' | 'late'): void {
    void this.rpc
      .request('filterProblems', { filter: { kind: 'training', series, which } })
      .catch((e: Error) => this.rpc.log('warn', e.message));
  }

  private seriesSection(s: TrainingSeries, i: number): HTMLElement {
    const last = s.steps[s.steps.length - 1];
    const k = s.k ?? 1;
    const bases = [...new Set(s.steps.map((st) => st.baseLabel ?? 'none'))];
    const problems = s.problems.length;
    const flip = s.problems.filter((p) => p.pattern === 'flip-flop').length;
    const perStep = [...new Set(s.steps.map((st) => st.problems))];
    const paired = [...new Set(s.steps.map((st) => st.pairedProblems))];
    const section = (id: string, title: string, note: string, actions?: HTMLElement) =>
      h(
        'section',
        null,
        h('h3', null, title),
        h('p', { className: 'muted' }, note),
        actions,
        h('div', { className: 'chart', id: `${id}-${i}` }),
      );
    return h(
      'section',
      { className: 'training-series', 'data-series': s.name },
      h('h2', null, s.name),
      h(
        'p',
        { className: 'muted' },
        `${s.steps.length} checkpoints (steps ${s.steps.map((st) => st.step).join(', ')}), ${problems} problems${datasetsNote(s.problems)}. `,
        bases.length === 1
          ? `Every step against the base model ${bases[0]}.`
          : 'Each step against the base model of its own run (named in the table).',
      ),
      h(
        'p',
        { className: 'training-filters' },
        h(
          'button',
          { className: 'link', id: `training-lost-${i}`, onclick: () => this.filter(s.name, 'lost') },
          `${s.lost.length} lost during training`,
        ),
        ` (of ${problems} problems: solved at an earlier step, not at step ${last?.step}) · `,
        h(
          'button',
          { className: 'link', id: `training-late-${i}`, onclick: () => this.filter(s.name, 'late') },
          `${s.late.length} solved only at late steps`,
        ),
        ` (first solved at ${s.unit} ${s.lateFromStep} or later) · ${flip} flip-flopping. Click to show them in the tree.`,
      ),
      section(
        'training-pass',
        `pass@1 and pass@${k} against the training step`,
        `95% bootstrap intervals over problems (${perStep.join(' / ')} problems with graded samples per step${s.steps.some((st) => st.passAtK.some((p) => p.missing > 0)) ? '; some left out at k where n < k, see the tooltips' : ''}); dashed: the base model.${brokenLines(s) ? ' A line breaks where its problem set changes between steps; each piece is labelled with its number of problems.' : ''}`,
        exportActions(this.rpc, () => ({ figure: 'training', series: s.name })),
      ),
      section(
        'training-categories',
        'Problems by category against the base, per step',
        `Out of the ${paired.join(' / ')} problems both the step and its base have graded samples for.`,
      ),
      section(
        'training-gain',
        'Where the gains come from',
        'Share of the positive per-problem gains in correct samples (over the base) that comes from problems the base already solves (sharpening), with a 95% paired bootstrap interval over problems. 1 − share comes from problems the base never solves in its samples (observed expansion).',
      ),
      section(
        'training-length',
        'Response length against the training step',
        'Mean characters per sample (all samples of the step); dashed: the base model.',
      ),
      ...(s.markers
        ? [
            section(
              'training-markers',
              'Length and reasoning markers against the training step',
              markersCaption(s.markers, (at) => `at ${s.unit} ${at}`),
            ),
          ]
        : []),
      section(
        'training-heatmap',
        'Every problem across the checkpoints (c/n)',
        `Rows grouped: gained, lost, flip-flopping, always solved, never solved.${problems > HEATMAP_MAX_ROWS ? ` The first ${HEATMAP_MAX_ROWS} of ${problems} problems are drawn.` : ''} Click a cell to open that problem at that checkpoint.`,
      ),
      this.table(s),
    );
  }

  private table(s: TrainingSeries): HTMLElement {
    const k = s.k ?? 1;
    const ks = k > 1 ? [1, k] : [1];
    // the CLI's cell (src/shared/passAtKCell.ts): `— (k > n)` for a base whose n is below the series' k (trial 8
    // finding 13); a value over fewer problems says of how many: the step's series problems, or the base's own
    const ci = (pts: TrainingStep['passAtK'], kk: number) =>
      passAtKCell(
        pts.find((x) => x.k === kk),
        (v) => fmt(v),
        (p) => (p.missing > 0 ? ` (${p.problems} of ${p.problems + p.missing})` : ''),
        ', ',
      );
    const head = [
      s.unit,
      'model',
      'base',
      'problems',
      'accuracy (correct/graded)',
      ...ks.map((x) => `pass@${x}`),
      ...ks.map((x) => `base pass@${x}`),
      'paired',
      'sharp. / exp. / regr. / unch. / unsolved',
      'gain share from sharpening',
      'mean chars',
    ];
    return h(
      'div',
      { className: 'table-scroll' },
      headedTable(
        { className: 'stats training-table' },
        head,
        s.steps.map((st) => {
          const g = st.gainShare;
          const c = st.categories;
          return h(
            'tr',
            null,
            h('td', null, String(st.step)),
            h('td', { className: 'wrap' }, st.label),
            h('td', { className: 'wrap' }, st.baseLabel ?? '—'),
            h('td', null, String(st.problems)),
            h('td', null, st.graded > 0 ? `${pct(st.sampleAccuracy)} (${st.correct}/${st.graded})` : 'ungraded'),
            ...ks.map((x) => h('td', null, ci(st.passAtK, x))),
            ...ks.map((x) => h('td', null, ci(st.basePassAtK, x))),
            h('td', null, String(st.pairedProblems)),
            h(
              'td',
              null,
              c ? `${c.sharpening} / ${c.expansion} / ${c.regression} / ${c.unchanged} / ${c.unsolved}` : '—',
            ),
            h(
              'td',
              null,
              g && g.sharpening !== null
                ? `${pct(g.sharpening)} [${pct(g.ciLow)}, ${pct(g.ciHigh)}] (gains ${g.gainFromSharpening} / ${g.gainFromExpansion})`
                : g
                  ? 'no gain'
                  : '—',
            ),
            h('td', null, st.meanChars === null ? '—' : st.meanChars.toFixed(0)),
          );
        }),
      ),
    );
  }

  private chartGeneration = 0;

  private renderCharts(d: TrainingData): void {
    for (const c of this.charts) c.finalize();
    this.charts = [];
    const gen = ++this.chartGeneration;
    const keep = (c: ChartHandle) => (gen === this.chartGeneration ? this.charts.push(c) : c.finalize());
    d.series.forEach((s, i) => {
      const el = (id: string) => {
        const e = this.root.querySelector<HTMLElement>(`#${id}-${i}`);
        e?.replaceChildren();
        return e;
      };
      const pass = el('training-pass');
      if (pass) void showChart(pass, trainingPassSpec(s)).then(keep);
      const cat = el('training-categories');
      if (cat) void showChart(cat, trainingCategoriesSpec(s)).then(keep);
      const gain = el('training-gain');
      if (gain) void showChart(gain, trainingGainShareSpec(s)).then(keep);
      const len = el('training-length');
      if (len) void showChart(len, trainingLengthSpec(s)).then(keep);
      const markers = el('training-markers');
      const markersSpec = trainingMarkersSpec(s, markers?.clientWidth || undefined);
      if (markers && markersSpec) void showChart(markers, markersSpec).then(keep);
      const heat = el('training-heatmap');
      if (heat)
        void showChart(heat, trainingHeatmapSpec(s), (datum) => {
          if (typeof datum.problemRowId === 'number' && typeof datum.modelId === 'number')
            void this.rpc
              .request('openProblem', { problemId: datum.problemRowId, modelId: datum.modelId })
              .catch((e: Error) => this.rpc.log('warn', e.message));
        }).then(keep);
    });
  }
}
