/**
 * Entry of the sample preview's bundle (dist/preview.js, IIFE): the preview without Vega, Vega-Lite
 * and the chart views, so the preview tab parses about half the script of the chart views (in
 * code-server the webviews share the workbench's renderer thread). The stylesheet is the shared
 * dist/webview.css.
 */
import { registerToolkit } from './toolkit';
import { mark, Rpc } from './rpc';
import { type PreviewView, previewInit } from './previewView';
import { h } from './dom';
import { textLibraries } from './textLibraries';
import type { PanelState } from '../src/shared/protocol';

function start(): void {
  mark('ti:script');
  registerToolkit();
  const root = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
  const rpc = new Rpc('preview');
  const show = previewInit(root, rpc, () => Promise.resolve(textLibraries));
  let view: PreviewView | undefined;
  rpc.onInit = (state: PanelState) => {
    if (state.view === 'preview') view = show(state);
  };
  // an annotation or the index changed: show the sample again (as webview/main.ts does)
  rpc.onChanged = () => {
    void view?.load();
  };
  rpc.start();
}

start();
