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
import { PreviewView } from './previewView';
import { h } from './dom';
import type { PanelState, ViewKind } from '../src/shared/protocol';

function start(): void {
  registerToolkit();
  const kind = document.body.dataset.view;
  const view: ViewKind = kind === 'overview' || kind === 'preview' ? kind : 'problem';
  const root = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
  const rpc = new Rpc(view);
  let current: ProblemView | OverviewView | PreviewView | undefined;
  rpc.onInit = (state: PanelState) => {
    if (state.view !== view) return;
    if (view === 'preview') {
      // One preview tab shows sample after sample: the host sends a new init for each.
      if (current instanceof PreviewView) return current.show(state);
      current = new PreviewView(root, rpc, state);
      rpc.setState(state);
    } else if (view === 'overview') {
      const saved = rpc.getState();
      current = new OverviewView(root, rpc, saved?.view === 'overview' ? saved : undefined);
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
  // One listener for the page: the problem view's sample list moves with the keyboard (ArrowUp/Down, j/k).
  document.addEventListener('keydown', (e) => {
    if (current instanceof ProblemView) current.onKey(e);
  });
  // Re-render charts when VS Code switches theme (it changes the body's classes).
  new MutationObserver(() => current?.rerenderCharts()).observe(document.body, {
    attributes: true,
    attributeFilter: ['class'],
  });
  rpc.start();
}

start();
