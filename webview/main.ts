/**
 * Webview entry (bundled to dist/webview.js, IIFE). Reads the view kind from <body data-view>,
 * talks to the host through rpc.ts and renders the problem view or the overview (the sample preview
 * panel loads the smaller dist/preview.js, webview/preview.ts, without Vega; this bundle can show it too).
 * The rendering pipeline of model output (markdown-it, KaTeX, DOMPurify) is not in this bundle: it is
 * loaded from dist/webview-text.js when first needed (webview/textApi.ts), after the problem view's
 * first chart or when a sample is opened, so that the chart does not wait for it to be parsed and run.
 */
import 'katex/dist/katex.min.css';
import './style.css';
import { registerToolkit } from './toolkit';
import { mark, Rpc } from './rpc';
import { ProblemView } from './problemView';
import { OverviewView } from './overviewView';
import { PreviewView, previewInit } from './previewView';
import { TrainingView } from './trainingView';
import { RewardModelsView } from './rewardModelsView';
import { SplitsView } from './splitsView';
import { h } from './dom';
import { textLoader } from './textApi';
import type { PanelState, ViewKind } from '../src/shared/protocol';

function start(): void {
  mark('ti:script');
  registerToolkit();
  const kind = document.body.dataset.view;
  const view: ViewKind = kind === 'overview' || kind === 'preview' ? kind : 'problem';
  const root = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
  const rpc = new Rpc(view);
  const text = textLoader();
  let current: ProblemView | OverviewView | PreviewView | undefined;
  const showPreview = previewInit(root, rpc, text);
  let training: { view: TrainingView; loaded: boolean } | undefined;
  let rewards: { view: RewardModelsView; loaded: boolean } | undefined;
  let splits: { view: SplitsView; loaded: boolean } | undefined;
  rpc.onInit = (state: PanelState) => {
    if (state.view !== view) return;
    if (view === 'preview') {
      // One preview tab shows sample after sample: the host sends a new init for each.
      current = showPreview(state);
      return;
    } else if (view === 'overview') {
      const saved = rpc.getState();
      const panes = overviewTabs(root, rpc, saved?.view === 'overview' ? saved.tab : undefined);
      training = panes.training;
      rewards = panes.rewards;
      splits = panes.splits;
      current = new OverviewView(panes.models, rpc, saved?.view === 'overview' ? saved : undefined);
    } else {
      const saved = rpc.getState();
      const merged: PanelState =
        saved && saved.problemId === state.problemId
          ? { ...state, modelId: state.modelId ?? saved.modelId, sampleId: saved.sampleId }
          : state;
      current = new ProblemView(root, rpc, merged, text);
      rpc.setState(merged);
    }
    void current.load();
  };
  rpc.onChanged = () => {
    void current?.load();
    if (training?.loaded) void training.view.load();
    if (rewards?.loaded) void rewards.view.load();
    if (splits?.loaded) void splits.view.load();
  };
  // One listener for the page: the problem view's sample list moves with the keyboard (ArrowUp/Down, j/k).
  document.addEventListener('keydown', (e) => {
    if (current instanceof ProblemView) current.onKey(e);
  });
  // Re-render charts when VS Code switches theme (it changes the body's classes).
  new MutationObserver(() => {
    current?.rerenderCharts();
    if (training?.loaded) training.view.rerenderCharts();
    if (rewards?.loaded) rewards.view.rerenderCharts();
    if (splits?.loaded) splits.view.rerenderCharts();
  }).observe(document.body, {
    attributes: true,
    attributeFilter: ['class'],
  });
  rpc.start();
}

type OverviewTab = NonNullable<PanelState['tab']>;

/**
 * The overview's tabs: Models (the overview proper), Training (checkpoint series), Reward models
 * (several scorers on the same samples) and Splits (the split matrix: models by evaluation splits); the last
 * three are loaded when first shown (their bootstraps take a moment). The tab shown is kept in the webview
 * state (`tab`).
 */
function overviewTabs(
  root: HTMLElement,
  rpc: Rpc,
  savedTab: PanelState['tab'],
): {
  models: HTMLElement;
  training: { view: TrainingView; loaded: boolean };
  rewards: { view: RewardModelsView; loaded: boolean };
  splits: { view: SplitsView; loaded: boolean };
} {
  const models = h('div', { id: 'overview-models', role: 'tabpanel', 'aria-labelledby': 'tab-models' });
  const pane = h('div', { id: 'overview-training', role: 'tabpanel', 'aria-labelledby': 'tab-training' });
  const rmPane = h('div', { id: 'overview-reward-models', role: 'tabpanel', 'aria-labelledby': 'tab-reward-models' });
  const spPane = h('div', { id: 'overview-splits', role: 'tabpanel', 'aria-labelledby': 'tab-splits' });
  const training = { view: new TrainingView(pane, rpc), loaded: false };
  const rewards = { view: new RewardModelsView(rmPane, rpc), loaded: false };
  const splits = { view: new SplitsView(spPane, rpc), loaded: false };
  const names: Record<OverviewTab, [string, string]> = {
    models: ['tab-models', 'Models'],
    training: ['tab-training', 'Training'],
    rewardModels: ['tab-reward-models', 'Reward models'],
    splits: ['tab-splits', 'Splits'],
  };
  const order: OverviewTab[] = ['models', 'training', 'rewardModels', 'splits'];
  const tabs = order.map((t) =>
    h('button', { id: names[t][0], role: 'tab', className: 'tab', onclick: () => show(t) }, names[t][1]),
  );
  const show = (t: OverviewTab) => {
    for (const [i, b] of tabs.entries()) {
      const on = order[i] === t;
      b.setAttribute('aria-selected', String(on));
      b.classList.toggle('selected', on);
    }
    models.hidden = t !== 'models';
    pane.hidden = t !== 'training';
    rmPane.hidden = t !== 'rewardModels';
    spPane.hidden = t !== 'splits';
    rpc.stateExtras = { tab: t };
    const saved = rpc.getState();
    if (saved?.view === 'overview') rpc.setState({ ...saved, view: 'overview' });
    if (t === 'training' && !training.loaded) {
      training.loaded = true;
      void training.view.load();
    }
    if (t === 'rewardModels') {
      if (!rewards.loaded) {
        rewards.loaded = true;
        void rewards.view.load();
      } else rewards.view.rerenderCharts();
    }
    if (t === 'splits') {
      if (!splits.loaded) {
        splits.loaded = true;
        void splits.view.load();
      } else splits.view.rerenderCharts();
    }
  };
  root.replaceChildren(h('nav', { className: 'tabs', role: 'tablist' }, tabs), models, pane, rmPane, spPane);
  show(savedTab && order.includes(savedTab) ? savedTab : 'models');
  return { models, training, rewards, splits };
}

start();
