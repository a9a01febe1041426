/**
 * "Export figure…" and "Export data…" beside a chart: each sends one `exportFigure` request (src/shared/protocol.ts)
 * naming the chart and what picks its content (the models shown, the level, the split kind…), never a colour or the
 * theme; the host asks where to save and writes the figure in its print style (src/extension/figureSave.ts). The
 * line beside the buttons says what was written, or why not.
 */
import { h } from './dom';
import type { ExportFigureParams } from '../src/shared/protocol';
import type { Rpc } from './rpc';

/**
 * The buttons and their status line; `params` is read at the click (the models shown then). `choice`: a control
 * before the buttons that `params` reads (the overview's level of the pass@k figure).
 */
export function exportActions(
  rpc: Rpc,
  params: () => Omit<ExportFigureParams, 'data'>,
  choice?: HTMLElement,
): HTMLElement {
  const status = h('span', { className: 'muted export-status', role: 'status' });
  const run = (data: boolean) => {
    const p = params();
    status.textContent = data ? 'Exporting the values…' : 'Exporting the figure…';
    rpc.request('exportFigure', { ...p, data }).then(
      (r) => {
        status.textContent = r.saved === null ? '' : `Saved ${r.saved}${r.provenance ? ` and ${r.provenance}` : ''}.`;
      },
      (e: Error) => {
        status.textContent = `Not exported: ${e.message}`;
      },
    );
  };
  return h(
    'div',
    { className: 'export-actions', 'data-figure': params().figure },
    choice ?? null,
    h(
      'vscode-button',
      {
        appearance: 'secondary',
        className: 'export-figure',
        title:
          'The chart in print style (white, colour-blind-safe palette, a caption of its denominators) as SVG or PNG, with its provenance JSON',
        onclick: () => run(false),
      },
      'Export figure…',
    ),
    ' ',
    h(
      'vscode-button',
      {
        appearance: 'secondary',
        className: 'export-data',
        title: 'The exact values the chart draws, as CSV or JSON',
        onclick: () => run(true),
      },
      'Export data…',
    ),
    ' ',
    status,
  );
}
