/**
 * The views' "Export figure…" and "Export data…" on the extension host: asks where to save (the save dialog,
 * SVG/PNG or CSV/JSON), has the figures worker draw the figure as the CLI draws it (./figureExport.ts, run by
 * ./figuresWorker.ts `runExportJob`), and writes the file and, for a figure, its provenance JSON beside it. The
 * width and a PNG's scale are settings (`traceInspector.figureExport.width`, `.pngScale`); nothing of the editor's
 * theme goes into the job, so a figure exported under Dark+ and under Light+ is the same bytes.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_FIGURE_WIDTH } from '../shared/printFigures';
import type { ExportFigureParams, ExportFigureResult } from '../shared/protocol';
import { DEFAULT_PNG_SCALE } from './figureExport';
import { type ExportJob, exportJob, formatOf } from './figuresWorkerProtocol';
import type { Roles } from './panelData';

/** The settings of exported figures: width in px (160..5000), a PNG's pixels per px (0.5..20). */
function exportSettings(): { width: number; scale: number } {
  const c = vscode.workspace.getConfiguration('traceInspector.figureExport');
  const num = (v: unknown, d: number, lo: number, hi: number) =>
    typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : d;
  return {
    width: Math.round(num(c.get('width'), DEFAULT_FIGURE_WIDTH, 160, 5000)),
    scale: num(c.get('pngScale'), DEFAULT_PNG_SCALE, 0.5, 20),
  };
}

/** The default file name of an export: the figure's name, its level or problem, and the extension. */
function defaultName(req: ExportFigureParams): string {
  const part = req.level !== undefined ? `-level-${req.level}` : req.problemId !== undefined ? `-${req.problemId}` : '';
  return `${req.figure}${part}`.replace(/[^\w.-]+/g, '_') + (req.data ? '.csv' : '.svg');
}

/**
 * Asks where to save the export of `req` (the save dialog in the results folder `folderUri`), runs its job through
 * `run` and writes the file and, for a figure, `<file>.json` beside it; says what was written in a notification.
 * Resolves `{ saved: null }` when the user cancels. Rejects with the job's error (no data for the figure: why).
 */
export async function saveFigure(
  req: ExportFigureParams,
  roles: Roles,
  folderUri: vscode.Uri,
  run: (job: ExportJob) => Promise<{ bytes: Uint8Array; provenance?: string; caption: string }>,
): Promise<ExportFigureResult> {
  const target = await vscode.window.showSaveDialog({
    title: req.data ? 'Export the values the chart draws' : 'Export the figure for a paper',
    filters: req.data ? { CSV: ['csv'], JSON: ['json'] } : { SVG: ['svg'], PNG: ['png'] },
    defaultUri: vscode.Uri.joinPath(folderUri, defaultName(req)),
  });
  if (!target) return { saved: null };
  const format = formatOf(target.path, req.data);
  const job = exportJob(req, roles, { format, file: target.fsPath, folder: folderUri.fsPath, ...exportSettings() });
  const out = await run(job);
  await vscode.workspace.fs.writeFile(target, out.bytes);
  const name = basename(target.path);
  if (out.provenance === undefined) {
    void vscode.window.showInformationMessage(
      `Trace Inspector: exported the values of the ${req.figure} chart to ${name}.`,
    );
    return { saved: name };
  }
  const prov = target.with({ path: `${target.path}.json` });
  await vscode.workspace.fs.writeFile(prov, new TextEncoder().encode(out.provenance));
  void vscode.window.showInformationMessage(`Trace Inspector: exported ${name} and ${name}.json (${out.caption})`);
  return { saved: name, provenance: `${name}.json` };
}
