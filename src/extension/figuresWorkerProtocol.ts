/**
 * Messages between the extension host and the figures worker (./figuresWorker.ts): the overview's tabs'
 * figures (bootstraps over every problem, whole-folder scans) computed off the extension host's main thread.
 * Pure: no `vscode`, no `node:worker_threads`; both ends validate what they receive (a worker is trusted code,
 * but a malformed message must fail one request with a reason, never the host).
 */
import { SQLITE_DRIVERS, type SqliteDriverName } from '../core/index/sqlite';
import {
  type FiguresProgress,
  type ModelMarkersData,
  type OverviewData,
  type PathsData,
  type RewardModelsData,
  SPLIT_KINDS,
  type SplitKindName,
  type SplitsData,
  type TrainingData,
  validateProgress,
} from '../shared/protocol';
import type { Roles } from './panelData';
import type { ExportedFile, ExportFormat } from './figureExport';
import { type ExportFigureParams, FIGURE_NAMES, type FigureName } from '../shared/protocol';

/** What picks an exported figure's content (figureExport `FigureOptions` that the views can set). */
export interface ExportJobOptions {
  models?: string[];
  level?: string;
  series?: string;
  splits?: SplitKindName;
  splitsMode?: 'passAt1' | 'relative';
  n?: number;
  /** problem: its row id. */
  problem?: number;
}

/**
 * An export of one figure (the views' "Export figure…" / "Export data…"): figure `figure` of the index at the
 * job's database with `roles` and `options`, `width` px wide, as `format` (a PNG at `scale` px per px), its provenance
 * naming `folder` and the file `file`.
 */
export interface ExportJob {
  kind: 'exportFigure';
  roles: Roles;
  figure: FigureName;
  options: ExportJobOptions;
  format: ExportFormat;
  width: number;
  scale: number;
  file: string;
  folder: string;
}

/**
 * What the worker computes, with what panelData computes it: `overview` overviewData (Models tab), `training`
 * trainingData (Training tab), `rewardModels` rewardModelsData (Reward models tab), `paths` pathsData (the
 * overview's reasoning paths, which read every sample's text), `splits` splitsData (Splits tab: the split matrix of
 * split kind `splits`, against the roles' base; without `splits` the tab's default kind), `markers` modelMarkersData (the
 * Models tab's lengths and reasoning markers, asked for after `overview`). Each with the function's
 * default replicates and seed.
 */
export type FiguresJob =
  | { kind: 'overview'; roles: Roles }
  | { kind: 'training'; roles: Roles }
  | { kind: 'rewardModels' }
  | { kind: 'paths'; roles: Roles }
  | { kind: 'splits'; roles: Roles; splits?: SplitKindName }
  | { kind: 'markers' }
  | ExportJob;

export type FiguresKind = FiguresJob['kind'];
/** The job of one kind. */
export type JobOf<K extends FiguresKind> = Extract<FiguresJob, { kind: K }>;

/** The result of each kind of job (the reply of the webview request it answers). */
export interface FiguresResults {
  overview: OverviewData;
  training: TrainingData;
  rewardModels: RewardModelsData;
  paths: PathsData;
  splits: SplitsData;
  markers: ModelMarkersData;
  exportFigure: ExportedFile;
}

/** The figures of each kind in words, for "waiting for …" progress. */
export const FIGURES_NAMES: Record<FiguresKind, string> = {
  overview: 'the overview’s figures',
  training: 'the training series',
  rewardModels: 'the reward-model evaluation',
  paths: 'the reasoning paths',
  splits: 'the split matrix',
  markers: 'the lengths and reasoning markers',
  exportFigure: 'the figure to export',
};

/**
 * Host -> worker: run `job` on the index at `dbPath` (opened read-only by the worker, once per path, with the
 * host's SQLite driver: two copies of SQLite on one file in one process can corrupt it). `cancel` is a
 * SharedArrayBuffer of one Int32: the host stores 1 there when a newer request superseded this one; the worker
 * reads it before the job and at each progress step and then stops with a `superseded` error.
 */
export interface FiguresRequest {
  type: 'run';
  id: number;
  dbPath: string;
  sqliteDriver: SqliteDriverName;
  job: FiguresJob;
  cancel: SharedArrayBuffer;
}

/**
 * Worker -> host: any number of `progress` for request `id`, then one `done` (the job's result) or `error`
 * (`superseded`: stopped because the host set the request's cancel flag).
 */
export type FiguresReply =
  | { type: 'progress'; id: number; progress: FiguresProgress }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string; superseded?: boolean };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

function extraKey(o: Obj, allowed: readonly string[]): string | undefined {
  const k = Object.keys(o).find((x) => !allowed.includes(x));
  return k === undefined ? undefined : `unexpected field "${k.slice(0, 40)}"`;
}

/** Checks the roles of a job (panelData `Roles`); returns them or a reason. */
export function validateRoles(v: unknown): Roles | string {
  if (!isObj(v)) return 'roles must be an object';
  const extra = extraKey(v, ['baseId', 'focusId', 'baseIsChoice', 'stepPattern']);
  if (extra) return `roles: ${extra}`;
  if (v.baseId !== undefined && !isId(v.baseId)) return 'roles.baseId must be a positive integer';
  if (v.focusId !== undefined && !isId(v.focusId)) return 'roles.focusId must be a positive integer';
  if (v.baseIsChoice !== undefined && typeof v.baseIsChoice !== 'boolean')
    return 'roles.baseIsChoice must be a boolean';
  if (v.stepPattern !== undefined && (typeof v.stepPattern !== 'string' || v.stepPattern.length > 1000))
    return 'roles.stepPattern must be a string of at most 1000 characters';
  return v as Roles;
}

const EXPORT_FORMATS: readonly string[] = ['svg', 'png', 'csv', 'json'];

/** Checks an export job's own fields (the host built it from a validated webview request); returns it or a reason. */
function validateExportJob(v: Obj): ExportJob | string {
  const extra = extraKey(v, ['kind', 'roles', 'figure', 'options', 'format', 'width', 'scale', 'file', 'folder']);
  if (extra) return `job exportFigure: ${extra}`;
  const roles = validateRoles(v.roles);
  if (typeof roles === 'string') return `job exportFigure: ${roles}`;
  if (!FIGURE_NAMES.includes(v.figure as FigureName)) return 'job exportFigure: unknown figure';
  if (!EXPORT_FORMATS.includes(v.format as string)) return 'job exportFigure: format must be svg, png, csv or json';
  if (!isObj(v.options)) return 'job exportFigure: options must be an object';
  const o = extraKey(v.options, ['models', 'level', 'series', 'splits', 'splitsMode', 'n', 'problem']);
  if (o) return `job exportFigure: options: ${o}`;
  if (typeof v.width !== 'number' || !(v.width >= 160 && v.width <= 5000))
    return 'job exportFigure: width in 160..5000';
  if (typeof v.scale !== 'number' || !(v.scale > 0 && v.scale <= 20)) return 'job exportFigure: scale in (0, 20]';
  if (typeof v.file !== 'string' || typeof v.folder !== 'string')
    return 'job exportFigure: file and folder must be strings';
  return { ...(v as unknown as ExportJob), roles };
}

/** The export job of a view's request (pure: the settings and the file chosen given). */
export function exportJob(
  req: ExportFigureParams,
  roles: Roles,
  o: { format: ExportFormat; file: string; folder: string; width: number; scale: number },
): ExportJob {
  const options: ExportJobOptions = {};
  if (req.models?.length) options.models = req.models;
  if (req.level !== undefined) options.level = req.level;
  if (req.series !== undefined) options.series = req.series;
  if (req.splits !== undefined) options.splits = req.splits;
  if (req.relative) options.splitsMode = 'relative';
  if (req.n !== undefined) options.n = req.n;
  if (req.problemId !== undefined) options.problem = req.problemId;
  return { kind: 'exportFigure', roles, figure: req.figure, options, ...o };
}

/** The format a chosen file's extension names, else the dialog's first (`svg`, or `csv` for data). */
export function formatOf(file: string, data: boolean): ExportFormat {
  const ext = (/\.([^./\\]+)$/.exec(file)?.[1] ?? '').toLowerCase();
  if (data) return ext === 'json' ? 'json' : 'csv';
  return ext === 'png' ? 'png' : 'svg';
}

/** Checks a job; returns it or a reason. */
export function validateFiguresJob(v: unknown): FiguresJob | string {
  if (!isObj(v)) return 'job must be an object';
  if (v.kind === 'exportFigure') return validateExportJob(v);
  if (v.kind === 'rewardModels' || v.kind === 'markers') {
    const extra = extraKey(v, ['kind']);
    return extra ? `job ${v.kind}: ${extra}` : { kind: v.kind };
  }
  if (v.kind === 'splits') {
    const extra = extraKey(v, ['kind', 'roles', 'splits']);
    if (extra) return `job splits: ${extra}`;
    if (v.splits !== undefined && !SPLIT_KINDS.includes(v.splits as SplitKindName))
      return `job splits: splits must be one of ${SPLIT_KINDS.join(', ')} or absent`;
    const roles = validateRoles(v.roles);
    if (typeof roles === 'string') return `job splits: ${roles}`;
    return v.splits === undefined
      ? { kind: 'splits', roles }
      : { kind: 'splits', roles, splits: v.splits as SplitKindName };
  }
  if (v.kind !== 'overview' && v.kind !== 'training' && v.kind !== 'paths')
    return `unknown job kind "${String(v.kind).slice(0, 40)}"`;
  const extra = extraKey(v, ['kind', 'roles']);
  if (extra) return `job ${v.kind}: ${extra}`;
  const roles = validateRoles(v.roles);
  return typeof roles === 'string' ? `job ${v.kind}: ${roles}` : { kind: v.kind, roles };
}

/** Checks a request in the worker; returns it or a reason (the worker answers a bad request with an error). */
export function validateFiguresRequest(v: unknown): FiguresRequest | string {
  if (!isObj(v) || v.type !== 'run') return 'request must be an object of type "run"';
  const extra = extraKey(v, ['type', 'id', 'dbPath', 'sqliteDriver', 'job', 'cancel']);
  if (extra) return `request: ${extra}`;
  if (!isId(v.id)) return 'request id must be a positive integer';
  if (typeof v.dbPath !== 'string' || v.dbPath === '') return 'request dbPath must be a non-empty string';
  if (!SQLITE_DRIVERS.includes(v.sqliteDriver as SqliteDriverName))
    return `request sqliteDriver must be one of ${SQLITE_DRIVERS.join(', ')}`;
  if (!(v.cancel instanceof SharedArrayBuffer) || v.cancel.byteLength < 4)
    return 'request cancel must be a SharedArrayBuffer of at least 4 bytes';
  const job = validateFiguresJob(v.job);
  if (typeof job === 'string') return job;
  return {
    type: 'run',
    id: v.id,
    dbPath: v.dbPath,
    sqliteDriver: v.sqliteDriver as SqliteDriverName,
    job,
    cancel: v.cancel,
  };
}

/**
 * Checks a reply on the host; returns it or a reason. A `done` result is checked to be an object (its shape is
 * the webview's protocol's, validated again where the webview receives it).
 */
export function validateFiguresReply(v: unknown): FiguresReply | string {
  if (!isObj(v)) return 'reply must be an object';
  if (!isId(v.id)) return 'reply id must be a positive integer';
  switch (v.type) {
    case 'progress': {
      const extra = extraKey(v, ['type', 'id', 'progress']);
      if (extra) return `progress: ${extra}`;
      const p = validateProgress(v.progress);
      return typeof p === 'string' ? p : { type: 'progress', id: v.id, progress: p };
    }
    case 'done':
      if (!isObj(v.result)) return 'done: result must be an object';
      return { type: 'done', id: v.id, result: v.result };
    case 'error':
      if (typeof v.message !== 'string') return 'error: message must be a string';
      if (v.superseded !== undefined && typeof v.superseded !== 'boolean') return 'error: superseded must be a boolean';
      return { type: 'error', id: v.id, message: v.message, ...(v.superseded ? { superseded: true } : {}) };
    default:
      return `unknown reply type "${String(v.type).slice(0, 40)}"`;
  }
}
