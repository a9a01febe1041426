/**
 * Webview entry (bundled to dist/webview.js, IIFE). Reads the view kind from <body data-view>,
 * talks to the host through rpc.ts and renders the problem view or the overview.
 */
import 'katex/dist/katex.min.css';
import './style.css';
import { registerToolkit } from './toolkit';
import { Rpc } from './rpc';
import { ProblemView } from './problemView';
import { OverviewView } from './overviewView';
import { RewardModelsView } from './rewardModelsView';
import { h, replace } from './dom';
import type { PanelState, ViewKind } from '../src/shared/protocol';

function start(): void {
  registerToolkit();
  const view: ViewKind = document.body.dataset.view === 'overview' ? 'overview' : 'problem';
  const root = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
  const rpc = new Rpc(view);
  let current: { load(): Promise<void>; rerenderCharts(): void } | undefined;
  rpc.onInit = (state: PanelState) => {
    if (state.view !== view) return;
    if (view === 'overview') {
      const saved = rpc.getState();
      current = overviewTabs(root, rpc, saved?.view === 'overview' ? saved : undefined);
    } else {
      const saved = rpc.getState();
      const merged: PanelState =
        saved && saved.problemId === state.problemId
          ? { ...state, modelId: state.modelId ?? saved.modelId, sampleId: saved.sampleId }
          : state;
      current = new ProblemView(root, rpc, merged);
      rpc.setState(merged);
    }
    void current.load();
  };
  rpc.onChanged = () => void current?.load();
  // Re-render charts when VS Code switches theme (it changes the body's classes).
  new MutationObserver(() => current?.rerenderCharts()).observe(document.body, {
    attributes: true,
    attributeFilter: ['class'],
  });
  rpc.start();
}

/**
 * The overview with its tabs: Overview (pass@k, histograms, coverage) and Reward models (loaded when first
 * shown: its bootstrap takes a moment). The tab shown is kept in the webview state.
 */
function overviewTabs(
  root: HTMLElement,
  rpc: Rpc,
  saved: Partial<PanelState> | undefined,
): { load(): Promise<void>; rerenderCharts(): void } {
  const ovRoot = h('div', { id: 'tab-overview', role: 'tabpanel' });
  const rmRoot = h('div', { id: 'tab-reward-models', role: 'tabpanel' });
  const overview = new OverviewView(ovRoot, rpc, saved);
  const rewards = new RewardModelsView(rmRoot, rpc);
  let tab: NonNullable<PanelState['tab']> = saved?.tab ?? 'overview';
  /** The Reward models tab has data for the current index (reloaded on the next show otherwise). */
  let rewardsFresh = false;
  const buttons = (['overview', 'rewardModels'] as const).map((t) => {
    const b = h(
      'button',
      { className: 'tab', role: 'tab', id: t === 'overview' ? 'tab-button-overview' : 'tab-button-reward-models' },
      t === 'overview' ? 'Overview' : 'Reward models',
    );
    b.addEventListener('click', () => show(t));
    return b;
  });
  const show = (t: NonNullable<PanelState['tab']>) => {
    tab = t;
    ovRoot.hidden = t !== 'overview';
    rmRoot.hidden = t !== 'rewardModels';
    buttons[0].setAttribute('aria-selected', String(t === 'overview'));
    buttons[1].setAttribute('aria-selected', String(t === 'rewardModels'));
    rpc.setState({ ...(rpc.getState() ?? {}), view: 'overview', tab: t });
    if (t === 'rewardModels' && !rewardsFresh) {
      rewardsFresh = true;
      void rewards.load();
    } else if (t === 'rewardModels') rewards.rerenderCharts();
    else overview.rerenderCharts();
  };
  replace(root, h('nav', { className: 'tabs', role: 'tablist' }, buttons), ovRoot, rmRoot);
  show(tab);
  return {
    async load() {
      rewardsFresh = false;
      const loading = overview.load();
      if (tab === 'rewardModels') {
        rewardsFresh = true;
        await Promise.all([loading, rewards.load()]);
      } else await loading;
    },
    rerenderCharts() {
      if (tab === 'overview') overview.rerenderCharts();
      else rewards.rerenderCharts();
    },
  };
}

start();
