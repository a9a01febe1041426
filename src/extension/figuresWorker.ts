/**
 * Worker-thread entry that computes the overview's figures (./figuresWorkerProtocol.ts jobs: bootstraps over
 * every problem, whole-folder scans) off the extension host's main thread, on its own read-only connection to
 * the index, so that the tree, the sample preview and every other request keep their answers in milliseconds
 * while the figures take seconds. Bundled to dist/figuresWorker.js; pure core only, no `vscode`.
 * Jobs run one at a time in arrival order (./figuresRunner.ts queues them); each posts its progress before every
 * step and stops at the next step when the host marks it superseded.
 */
import { parentPort } from 'node:worker_threads';
import { chooseSqliteDriver } from '../core/index/sqlite';
import { TraceIndex } from '../core/index/traceIndex';
import {
  type FiguresJob,
  type FiguresReply,
  type FiguresResults,
  type JobOf,
  validateFiguresRequest,
} from './figuresWorkerProtocol';
import {
  modelMarkersData,
  type OnFiguresProgress,
  overviewData,
  pathsData,
  rewardModelsData,
  trainingData,
} from './panelData';
import { splitsData } from './splitsData';
import { exportFigure, figureData, loadChartTools, loadPngRenderer } from './figureExport';
import type { ExportJob } from './figuresWorkerProtocol';

/**
 * The file of an export job: the figure computed as the CLI computes it (figureExport `figureData`: the report's
 * replicates and seed, the print style) with the view's roles and choices, drawn as SVG or PNG or written as its
 * values. Nothing of the editor's theme is in the job: the same job gives the same bytes.
 */
export async function runExportJob(index: TraceIndex, j: ExportJob): Promise<FiguresResults['exportFigure']> {
  const { problem, ...options } = j.options;
  const fig = figureData(index, j.figure, { ...options, problem, roles: j.roles, width: j.width });
  const tools = loadChartTools();
  const png = j.format === 'png' ? await loadPngRenderer() : undefined;
  return exportFigure(fig, j.folder, { format: j.format, scale: j.scale, file: j.file }, tools, png);
}

/** Thrown at a progress step of a job the host superseded (a newer request of the same figures). */
export class SupersededError extends Error {
  constructor() {
    super('superseded by a newer request');
  }
}

/**
 * Runs one job on `index` with panelData's default replicates and seeds (the result equals the function's run on
 * the host). `onProgress` gets every step (it may throw to stop the job: the error propagates). Also used
 * in-process when the worker bundle is missing (./figuresRunner.ts).
 */
export async function runFiguresJob<K extends FiguresJob['kind']>(
  index: TraceIndex,
  job: JobOf<K>,
  onProgress: OnFiguresProgress = () => undefined,
): Promise<FiguresResults[K]> {
  const j = job as FiguresJob;
  switch (j.kind) {
    case 'overview':
      return overviewData(index, j.roles, undefined, undefined, onProgress) as FiguresResults[K];
    case 'paths':
      return (await pathsData(index, j.roles, undefined, onProgress)) as FiguresResults[K];
    case 'training':
      onProgress({ stage: 'the training series', done: 0, total: 0 });
      return trainingData(index, j.roles) as FiguresResults[K];
    case 'rewardModels':
      onProgress({ stage: 'the reward-model evaluation', done: 0, total: 0 });
      return rewardModelsData(index) as FiguresResults[K];
    case 'splits':
      return splitsData(index, j.roles, j.splits, onProgress) as FiguresResults[K];
    case 'markers':
      onProgress({ stage: 'the lengths and reasoning markers', done: 0, total: 0 });
      return modelMarkersData(index, undefined, onProgress) as FiguresResults[K];
    case 'exportFigure':
      onProgress({ stage: `the ${j.figure} figure`, done: 0, total: 0 });
      return (await runExportJob(index, j)) as FiguresResults[K];
  }
}

/** The connections this worker opened, by database path (one folder's index each; kept for the next job). */
const indexes = new Map<string, TraceIndex>();

function indexAt(dbPath: string): TraceIndex {
  let index = indexes.get(dbPath);
  if (!index) {
    index = TraceIndex.open(dbPath, { readonly: true });
    indexes.set(dbPath, index);
  }
  return index;
}

const port = parentPort;
if (port) {
  const send = (m: FiguresReply) => port.postMessage(m);
  // one job at a time: a job that awaits (pathsData reads files) is not overlapped by the next
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (raw: unknown) => {
    queue = queue.then(async () => {
      const m = validateFiguresRequest(raw);
      if (typeof m === 'string') {
        const id = (raw as { id?: unknown } | null)?.id;
        if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 1)
          send({ type: 'error', id, message: `refused: ${m}` });
        return;
      }
      const cancelled = new Int32Array(m.cancel, 0, 1);
      const checkpoint = () => {
        if (Atomics.load(cancelled, 0) !== 0) throw new SupersededError();
      };
      try {
        checkpoint();
        chooseSqliteDriver(m.sqliteDriver, 'parent');
        const result = await runFiguresJob(indexAt(m.dbPath), m.job, (progress) => {
          checkpoint();
          send({ type: 'progress', id: m.id, progress });
        });
        send({ type: 'done', id: m.id, result });
      } catch (e) {
        send({
          type: 'error',
          id: m.id,
          message: (e as Error).message,
          ...(e instanceof SupersededError ? { superseded: true } : {}),
        });
      }
    });
  });
}
