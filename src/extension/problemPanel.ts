/**
 * The problem view and the overview: webview panels that answer the limit-of-RLVR questions for one
 * problem (pass@k per model, crossover k, "is this RL sample in the base distribution?") or for the
 * whole folder (dataset pass@k with bootstrap bands, accuracy histograms, coverage).
 *
 * The host sends data, never HTML: every message goes through src/shared/protocol.ts and every
 * inbound message is validated there. Heavy similarity work runs in a worker thread
 * (dist/similarityWorker.js) and is cached in the index's similarity_cache table; the overview's figures
 * (bootstraps over every problem, whole-folder scans) run in another (dist/figuresWorker.js), with progress
 * posted to the panel, so that nothing else waits for them.
 *
 * Panels restore after a reload through WebviewPanelSerializers (view types below); the state is
 * the {@link PanelState} the webview saves with `setState`. package.json must list the activation
 * events `onWebviewPanel:traceInspector.problemView` and `onWebviewPanel:traceInspector.overview`.
 */
import * as vscode from 'vscode';
import { problemPickItems } from './sampleOrder';
import { SAMPLE_SCHEME } from './sampleDocument';
import { join } from 'node:path';
import { type FolderSession, readSettings } from './session';
import { comparisonBase } from '../core/index/labels';
import { problemNamer } from '../core/grouping/datasets';
import type { ModelRow } from '../core/index/traceIndex';
import {
  hasLogprobSidecar,
  majorityJob,
  majorityNote,
  problemRankingData,
  pplData,
  problemData,
  readSimilarityCache,
  resolveFilter,
  samplePage,
  goneSampleMessage,
  goneSamplePlace,
  previewSampleId,
  samplePreview,
  sampleText,
  similarityFilesJob,
  similarityParams,
  withAnswersInBase,
  writeSimilarityCache,
  type Roles,
} from './panelData';
import { SimilarityRunner } from './similarityRunner';
import { FiguresRunner } from './figuresRunner';
import { saveFigure } from './figureSave';
import type { FiguresKind, FiguresResults, JobOf } from './figuresWorkerProtocol';
import { ChartCompiler } from './chartCompiler';
import { makeNonce, panelHtml } from './panelHtml';
import { RestoreCache, restoreKey } from './restoreCache';
export { makeNonce, panelHtml } from './panelHtml';
import {
  type ChartLayout,
  isChartLayout,
  PROTOCOL_VERSION,
  reply,
  validatePanelState,
  validateWebviewMessage,
  type HostMessage,
  type NoveltyData,
  type PanelState,
  type Prefetched,
  type PreviewAction,
  type ProblemData,
  type SamplePreview,
  type RequestKind,
  type ResultOf,
  type SimilarityData,
  type ViewKind,
  type WebviewRequest,
} from '../shared/protocol';

export const PROBLEM_VIEW_TYPE = 'traceInspector.problemView';
export const OVERVIEW_VIEW_TYPE = 'traceInspector.overview';
/** The sample preview: one panel, reused for every sample previewed. */
export const PREVIEW_VIEW_TYPE = 'traceInspector.samplePreview';
/** Where the problem views' chart layouts are kept (globalState; {@link Panels.chartLayout}). */
const CHART_LAYOUT_KEY = 'traceInspector.chartLayouts';

/** The chart layouts kept: per editor group (its view column), and the last reported anywhere. */
interface KeptLayouts {
  byColumn: Record<string, ChartLayout>;
  last?: ChartLayout;
}

const VIEW_TYPES: Record<ViewKind, string> = {
  problem: PROBLEM_VIEW_TYPE,
  overview: OVERVIEW_VIEW_TYPE,
  preview: PREVIEW_VIEW_TYPE,
};
const ICONS: Record<ViewKind, string> = {
  problem: 'problem-view.svg',
  overview: 'overview.svg',
  preview: 'sample-preview.svg',
};

/** The session of a workspace folder (by URI string); without one, the folder the tree shows. */
type GetSession = (folder?: string) => FolderSession | undefined;

/** What the panels learn from the tree: where a sample sits in its current order (for the preview's header). */
export interface PanelHooks {
  /** E.g. "sample 3 of 8 incorrect · problem 2 of 5"; null when the sample is not in the tree's list. */
  position(sampleId: number): string | null;
  /**
   * The preview found its sample again under a new row id after a re-index (`from` -> `to`): the keys'
   * starting point (navigation.ts) follows when it was that sample.
   */
  followed?(from: number, to: number): void;
  /** The problem row id of the node selected in the Problems tree (a problem, or a node under one), if any. */
  selectedProblem?(): number | undefined;
  /**
   * Fires while the user is idle (the tree shown, no indexing pass running): the similarity worker is
   * started and warmed then (SimilarityRunner.warm), so the first problem view's job does not pay it.
   */
  onIdle?: vscode.Event<void>;
  /**
   * Fires when one problem row (or a model row under a problem) is selected in the Problems tree, with the
   * problem and, for a model row or a problem grouped under a model, the model: the similarity of the model
   * the problem view would show first is started then ({@link SELECTION_PREFETCH_DELAY_MS} later), so the
   * click on the row's chart icon finds it running or cached.
   */
  onSelectProblem?: vscode.Event<{ problemId: number; modelId?: number }>;
}

/**
 * How long a row must stay selected before its similarity job starts (ms): arrowing through the tree
 * starts nothing for the rows passed over.
 */
export const SELECTION_PREFETCH_DELAY_MS = 50;

/** The figures computed in the figures worker, one job each per folder. */
const FIGURES_KINDS: readonly FiguresKind[] = ['overview', 'training', 'rewardModels', 'paths', 'splits', 'markers'];

/** The key of a folder's figures of one kind in the figures runner: a newer request of the key supersedes an older. */
function figuresKey(s: FolderSession, kind: FiguresKind): string {
  return `${s.folder.uri.toString()}|${kind}`;
}

/** Exports so far in this window: each export's job key is its own (problemPanel `figures`). */
let exportSeq = 0;

/** A request failure shown to the user as text in the panel. */
class RequestError extends Error {}

/** The problem row id a command argument names: `{ problemId }`, a tree node (`{ problem: { id } }`, `{ sample: { problemId } }`). */
export function problemIdOf(arg: unknown): number | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { problemId?: unknown; problem?: { id?: unknown }; sample?: { problemId?: unknown } };
  const v = a.problemId ?? a.problem?.id ?? a.sample?.problemId;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

/**
 * What the Problems tree's selection says about the problem view about to open (PanelHooks.onSelectProblem):
 * one problem row (with its model when the tree groups problems under models), or one model row under a
 * problem; undefined for any other selection (several rows, samples, verdict groups, messages, a model
 * row at the top level).
 */
export function problemSelection(selection: readonly unknown[]): { problemId: number; modelId?: number } | undefined {
  if (selection.length !== 1) return undefined;
  const node = selection[0] as { type?: unknown } | null;
  if (!node || (node.type !== 'problem' && node.type !== 'model')) return undefined;
  const problemId = problemIdOf(node);
  return problemId === undefined ? undefined : { problemId, modelId: modelIdOf(node) };
}

/** The workspace folder (URI string) a command argument names (`{ folder }`), if any. */
function folderOf(arg: unknown): string | undefined {
  const f = arg && typeof arg === 'object' ? (arg as { folder?: unknown }).folder : undefined;
  return typeof f === 'string' ? f : undefined;
}

/** The model row id a tree node names, if any (to preselect it in the similarity section). */
function modelIdOf(arg: unknown): number | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { modelId?: unknown; model?: { id?: unknown }; sample?: { modelId?: unknown } };
  const v = a.modelId ?? a.model?.id ?? a.sample?.modelId;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

/**
 * A similarity job's two answers: `list` the sample list's stage (before the computation paths; the
 * full result when it came from the cache), `full` the result with the paths.
 */
interface SimilarityStages {
  list: Promise<SimilarityData>;
  full: Promise<SimilarityData>;
}

/**
 * The base a model's samples are compared with: the chosen base, or the model's own run's base while
 * the base is a guess (core `comparisonBase`, the pairs of the report and the overview). Throws a
 * RequestError without a base, or when the model is a base (of its run).
 */
function baseFor(s: FolderSession, modelId: number): ModelRow {
  const base = s.baseModel();
  if (!base) throw new RequestError('Choose a base model first (Trace Inspector: Choose Base Model).');
  const models = s.models();
  const model = models.find((m) => m.id === modelId);
  const b = model && comparisonBase(models, model, base, !s.baseModelIsGuess());
  if (!b) throw new RequestError('This is a base model (of its run): pick another model to compare with it.');
  return b;
}

/**
 * The model whose similarity the problem view of `problemId` shows first: `modelId` (the panel's, or the
 * tree row's) when it has samples of the problem and is not the base, else the model in focus, else the
 * first model with samples of the problem that is not the base; undefined when there is none.
 */
function firstModelShown(s: FolderSession, problemId: number, modelId?: number): number | undefined {
  const present = s.index.problemStats(problemId).map((r) => r.modelId);
  const baseId = s.baseModel()?.id;
  const focusId = s.focusModel()?.id;
  const others = present.filter((id) => id !== baseId);
  return modelId !== undefined && others.includes(modelId)
    ? modelId
    : focusId !== undefined && others.includes(focusId)
      ? focusId
      : others[0];
}

/** Shared services of all panels. */
class Panels implements vscode.Disposable {
  readonly runner: SimilarityRunner;
  /** Computes the overview's figures off this thread (src/extension/figuresRunner.ts). */
  readonly figures: FiguresRunner;
  /** Compiles the problem view's first charts on the host once warm (src/extension/chartCompiler.ts). */
  readonly charts: ChartCompiler;
  readonly open = new Set<Panel>();
  /** Similarity jobs running, by folder, problem and model: a second request waits for the first. */
  readonly inflight = new Map<string, SimilarityStages>();
  private readonly subs: vscode.Disposable[] = [];
  private readonly watched = new Set<FolderSession>();

  /** The last data each restorable tab was sent, for the tabs a window reload brings back (restoreCache.ts). */
  readonly restoreCache: RestoreCache;
  /** When the extension activated (epoch ms): written into restored pages (`data-activated-at`, the e2e timings). */
  readonly activatedAt = Date.now();

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly getSession: GetSession,
    readonly hooks: PanelHooks | undefined,
  ) {
    this.restoreCache = new RestoreCache(
      context.storageUri ? join(context.storageUri.fsPath, 'restore-cache') : undefined,
    );
    this.runner = new SimilarityRunner(join(context.extensionUri.fsPath, 'dist', 'similarityWorker.js'));
    this.figures = new FiguresRunner(join(context.extensionUri.fsPath, 'dist', 'figuresWorker.js'));
    this.charts = new ChartCompiler(
      join(context.extensionUri.fsPath, 'dist', 'vegaLiteCompiler.js'),
      (m) => this.getSession()?.log(m),
      join(context.extensionUri.fsPath, 'dist', 'vegaRenderer.js'),
    );
    // idle: the worker's JIT warm-up (its thread) and the chart compiler's load and warm-up (this thread)
    if (hooks?.onIdle)
      this.subs.push(
        hooks.onIdle(() => {
          void this.runner.warm();
          void this.charts.warm();
        }),
      );
    if (hooks?.onSelectProblem) this.subs.push(hooks.onSelectProblem((sel) => this.selected(sel)));
  }

  /**
   * Where a problem view of editor group `column` last drew its pass@k chart (its width and chart font's glyph
   * widths: the `chartLayout` message), else where any did last; kept across sessions: a new view's first chart
   * is drawn as SVG by the host at that size ({@link ChartCompiler.drawFirst}). Trial 15 finding 1: one layout
   * for every group drew a view opened in a narrow split at the wide group's width.
   */
  chartLayout(column: number | undefined): ChartLayout | undefined {
    const kept = this.keptLayouts();
    return (column !== undefined ? kept.byColumn[String(column)] : undefined) ?? kept.last;
  }

  /** Keeps `layout`, a page's report from editor group `column`, for the next new views; stored when it changed. */
  setChartLayout(column: number | undefined, layout: ChartLayout): void {
    const kept = this.keptLayouts();
    const next: KeptLayouts = {
      byColumn: column !== undefined ? { ...kept.byColumn, [String(column)]: layout } : kept.byColumn,
      last: layout,
    };
    if (JSON.stringify(next) === JSON.stringify(kept)) return;
    this.layouts = next;
    void this.context.globalState.update(CHART_LAYOUT_KEY, next).then(undefined, () => undefined);
  }

  /** The kept layouts, read from globalState once (anything not valid there is dropped). */
  private keptLayouts(): KeptLayouts {
    if (!this.layouts) {
      const v = this.context.globalState.get<unknown>(CHART_LAYOUT_KEY);
      const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
      const byColumn: Record<string, ChartLayout> = {};
      if (o.byColumn !== null && typeof o.byColumn === 'object')
        for (const [k, l] of Object.entries(o.byColumn as Record<string, unknown>))
          if (/^\d{1,2}$/.test(k) && isChartLayout(l)) byColumn[k] = l;
      this.layouts = { byColumn, last: isChartLayout(o.last) ? o.last : undefined };
    }
    return this.layouts;
  }

  private layouts: KeptLayouts | undefined;

  /** The selection prefetch: the row waiting for its delay, the job started for a row, the row to start next. */
  private selection: {
    timer?: NodeJS.Timeout;
    running?: Promise<unknown>;
    next?: { problemId: number; modelId?: number };
  } = {};

  /**
   * A problem row was selected in the tree: after {@link SELECTION_PREFETCH_DELAY_MS}, the similarity of the
   * model its problem view would show first starts (or is found cached or running). One such job at a time,
   * the newest selection wins: a row selected while one runs waits for it to end and replaces any row
   * already waiting; a row passed over is never started. A job started for a row the user then left runs to
   * its end and is cached (the worker runs one job at a time: a click on another row's chart icon waits for
   * the rest of it at most). Nothing starts while the folder is being indexed. Errors are left to the problem
   * view's own request.
   */
  selected(sel: { problemId: number; modelId?: number }): void {
    clearTimeout(this.selection.timer);
    this.selection.timer = setTimeout(() => {
      this.selection.timer = undefined;
      this.selection.next = sel;
      this.startSelected();
    }, SELECTION_PREFETCH_DELAY_MS);
  }

  private startSelected(): void {
    const sel = this.selection.next;
    if (!sel || this.selection.running !== undefined) return;
    this.selection.next = undefined;
    const s = this.getSession();
    // not while the folder is indexed (the similarity worker would compete with the pass; the view's own request runs)
    if (!s || s.isIndexing) return;
    const modelId = firstModelShown(s, sel.problemId, sel.modelId);
    if (modelId === undefined) return;
    const running = this.similarity(s, sel.problemId, modelId)
      .catch(() => undefined)
      .finally(() => {
        if (this.selection.running !== running) return;
        this.selection.running = undefined;
        this.startSelected();
      });
    this.selection.running = running;
  }

  /**
   * Similarity of a problem's model against its base, in folder `s`: from the cache, a job already running
   * (started by a problem view or by the tree's selection), or a new job. `stage` 'list': the answer as
   * soon as the sample list's figures are known (SimilarityData `partial`).
   */
  similarity(s: FolderSession, problemId: number, modelId: number, stage?: 'list'): Promise<SimilarityData> {
    const key = `${s.folder.uri.toString()}:${problemId}:${modelId}`;
    let running = this.inflight.get(key);
    if (running === undefined) {
      const job = this.computeSimilarity(s, problemId, modelId);
      running = job;
      this.inflight.set(key, job);
      // (failures reach the requests that wait for them; these handlers only keep them from being unhandled)
      job.list.catch(() => undefined);
      job.full.catch(() => undefined).finally(() => this.inflight.delete(key));
    }
    return stage === 'list' ? running.list : running.full;
  }

  private computeSimilarity(s: FolderSession, problemId: number, modelId: number): SimilarityStages {
    let listDone: ((d: SimilarityData) => void) | undefined;
    const list = new Promise<SimilarityData>((resolve) => {
      listDone = resolve;
    });
    const full = this.computeFullSimilarity(s, problemId, modelId, (d) => listDone?.(d));
    // the list's stage ends with the full result at the latest (a cached result, a failure)
    full.then(
      (d) => listDone?.(d),
      () => undefined,
    );
    return { list: Promise.race([list, full]), full };
  }

  private async computeFullSimilarity(
    s: FolderSession,
    problemId: number,
    modelId: number,
    onList: (d: SimilarityData) => void,
  ): Promise<SimilarityData> {
    const base = baseFor(s, modelId);
    const params = similarityParams(s.index, problemId, base.id, modelId);
    const cached = readSimilarityCache(s.index, problemId, base.id, modelId, params);
    if (cached)
      return {
        problemId,
        modelId,
        baseModelId: base.id,
        ...withAnswersInBase(s.index, problemId, base.id, modelId, cached),
        cached: true,
      };
    const start = Date.now();
    this.runner.start(); // the worker boots while the texts are read (if the idle warm-up did not start it)
    // the places of the texts; the worker reads the texts itself, off this thread (SimilarityFilesJob)
    const job = similarityFilesJob(s.index, problemId, base.id, modelId);
    const texts = Date.now();
    const warmed = () => {
      const at = this.runner.warmedAt;
      return at !== undefined ? { warmed: at } : {};
    };
    let posted = 0;
    let listAt: number | undefined;
    const running = s.sourceChecked(() =>
      this.runner.run(job, (list) => {
        listAt = Date.now();
        try {
          onList({
            problemId,
            modelId,
            baseModelId: base.id,
            ...withAnswersInBase(s.index, problemId, base.id, modelId, list),
            cached: false,
            partial: true,
            hostSteps: { start, texts, posted, list: listAt, ...warmed() },
          });
        } catch {
          /* the answers could not be read: the list waits for the full result */
        }
      }),
    );
    posted = Date.now();
    const body = await running;
    const hostSteps = { start, texts, posted, list: listAt, done: Date.now(), ...warmed() };
    try {
      writeSimilarityCache(s.index, problemId, base.id, modelId, params, body);
    } catch {
      /* a busy or read-only index only loses the cache */
    }
    return {
      problemId,
      modelId,
      baseModelId: base.id,
      ...withAnswersInBase(s.index, problemId, base.id, modelId, body),
      cached: false,
      hostSteps,
    };
  }

  /**
   * The session of `folder` (default: the folder the tree shows), subscribed to once: its changes
   * reach the panels that show it.
   */
  watch(folder?: string): FolderSession | undefined {
    const s = this.getSession(folder);
    if (s && !this.watched.has(s)) {
      this.watched.add(s);
      this.subs.push(s.onDidChange(() => this.broadcastChanged(s)));
    }
    return s;
  }

  broadcastChanged(s: FolderSession): void {
    const folder = s.folder.uri.toString();
    for (const p of this.open) if (p.state.folder === folder) p.notifyChanged();
  }

  /**
   * Shows `state` in a panel: the open one of the same problem (or the overview, or the one preview,
   * which then shows the new sample), else a new one. `preserveFocus` keeps the keyboard where it is
   * (stepping through samples from the tree or the preview itself).
   */
  show(state: PanelState, existing?: vscode.WebviewPanel, preserveFocus = false): Panel {
    // A panel shows one workspace folder's data for good (row ids belong to that folder's index).
    if (state.folder === undefined) {
      const folder = this.getSession()?.folder.uri.toString();
      if (folder !== undefined) state = { ...state, folder };
    }
    if (!existing && state.view === 'preview') {
      for (const p of this.open) {
        if (p.state.view !== 'preview') continue;
        p.update(state);
        p.panel.reveal(p.panel.viewColumn, preserveFocus);
        return p;
      }
    }
    if (!existing) {
      for (const p of this.open) {
        if (
          p.state.view === state.view &&
          p.state.folder === state.folder &&
          (state.view === 'overview' || p.state.problemId === state.problemId)
        ) {
          p.panel.reveal();
          if (state.modelId !== undefined) p.update({ ...p.state, modelId: state.modelId });
          return p;
        }
      }
    }
    const panel =
      existing ??
      vscode.window.createWebviewPanel(
        VIEW_TYPES[state.view],
        'Trace Inspector',
        { viewColumn: state.view === 'preview' ? previewColumn() : vscode.ViewColumn.Active, preserveFocus },
        {
          enableScripts: true,
          retainContextWhenHidden: false,
          localResourceRoots: [
            vscode.Uri.joinPath(this.context.extensionUri, 'dist'),
            vscode.Uri.joinPath(this.context.extensionUri, 'media'),
          ],
        },
      );
    // a new problem view's page is written with its init (data and charts) in the task below; a restored
    // problem view's or preview's with its data too, from the index or, not ready, from the restore cache
    const withInit = !existing && state.view === 'problem';
    const restored = !!existing && (state.view === 'problem' || state.view === 'preview');
    const p = new Panel(this, panel, state, !withInit && !restored);
    this.open.add(p);
    if (restored) void p.writeRestoredPage();
    if (!existing) {
      // In a task of its own: the extension host sends its messages to the workbench on a zero-delay timer,
      // so work done in this task held back the panel's creation (and with it the webview's load) by the
      // problem's data and the similarity's first reads. This timer comes after that one (the workbench
      // creates the webview's frames meanwhile; the page is written when its HTML comes). Then the init
      // first (its problem data read before the similarity's texts), then the similarity.
      // With the init in the page, its first charts are drawn as SVG after the similarity's reads (the page
      // waits for that drawing, the worker does not).
      setTimeout(() => {
        if (!this.open.has(p)) return;
        if (withInit) void p.writePageWithInit(() => p.prefetchSimilarity());
        else {
          p.postEarlyInit();
          p.prefetchSimilarity();
        }
      }, 0);
    }
    return p;
  }

  dispose(): void {
    this.restoreCache.flush();
    clearTimeout(this.selection.timer);
    this.selection.next = undefined;
    for (const p of [...this.open]) p.panel.dispose();
    for (const s of this.subs) s.dispose();
    void this.runner.dispose();
    void this.figures.dispose();
  }
}

/**
 * Where a new preview tab opens: in the active group when its active tab is a sample's text tab (the preview
 * shows the same sample: like Markdown's Open Preview, no split; splitting made the workbench lay out every
 * editor again, the text tab's 300k-character sample re-wrapped: a 130 ms CPU task of the workbench in the
 * perf e2e's trace), else beside the active group (from the tree, the problem view or a navigation command,
 * so the problem view stays in sight). A preview tab already open is reused where it is.
 */
function previewColumn(): vscode.ViewColumn {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText && input.uri.scheme === SAMPLE_SCHEME
    ? vscode.ViewColumn.Active
    : vscode.ViewColumn.Beside;
}

/** Whether VS Code's colour theme is a high-contrast one (the webview's body then has `vscode-high-contrast*`). */
function highContrastTheme(): boolean {
  const kind = vscode.window.activeColorTheme?.kind;
  const k = vscode.ColorThemeKind;
  return k !== undefined && (kind === k.HighContrast || kind === k.HighContrastLight);
}

/** One open webview panel. */
class Panel {
  private seq = 1;
  private readonly subs: vscode.Disposable[] = [];
  private retry: NodeJS.Timeout | undefined;
  /**
   * The problem data posted with the early init ({@link postEarlyInit}), kept for the init that answers
   * the webview's first `ready`, so that a problem view computes its data (SQL and pass@k per model)
   * once per open. Used once; dropped when the folder's index changes.
   */
  private early: { request: 'getProblem'; problemId: number; result: ProblemData } | undefined;

  constructor(
    private readonly panels: Panels,
    readonly panel: vscode.WebviewPanel,
    public state: PanelState,
    /** Write the page now; false: {@link writePageWithInit} writes it (a new problem view). */
    writePage = true,
  ) {
    const webview = panel.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(panels.context.extensionUri, 'dist'),
        vscode.Uri.joinPath(panels.context.extensionUri, 'media'),
      ],
    };
    panel.iconPath = vscode.Uri.joinPath(panels.context.extensionUri, 'media', ICONS[state.view]);
    if (writePage) this.writePage();
    this.subs.push(
      webview.onDidReceiveMessage((m) => void this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.refreshTitle();
  }

  /**
   * Sets the page's HTML (src/extension/panelHtml.ts), with `initMessage` written into it when given;
   * `restored`: a page a window reload brought back (it says when the extension activated).
   */
  private writePage(initMessage?: HostMessage, restored = false): void {
    const webview = this.panel.webview;
    const state = this.state;
    const dist = (f: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.panels.context.extensionUri, 'dist', f)).toString();
    const init = initMessage as { prefetched?: { result?: ProblemData } } | undefined;
    const drawnFirst = state.view === 'problem' && init?.prefetched?.result?.charts?.passk.svg !== undefined;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      // the preview's bundle has no Vega (webview/preview.ts): half the script to parse in the workbench's renderer
      scriptUri: dist(state.view === 'preview' ? 'preview.js' : 'webview.js'),
      // the chart views' Vega-Lite and Vega, in two scripts Chromium compiles in full, at the same time, as they
      // load (webview/chartsApi.ts): Vega-Lite first, a chart's first task needs only it. The problem view's
      // first charts come compiled from the host (ProblemData `charts`): it loads Vega-Lite when first needed.
      libraryScriptUris:
        state.view === 'preview' || drawnFirst
          ? []
          : state.view === 'problem'
            ? [dist('charts-vendor.js')]
            : [dist('charts-vegalite.js'), dist('charts-vendor.js')],
      // a new problem view whose first chart the host drew: Vega after that drawing is on screen
      chartsScriptUri: drawnFirst ? dist('charts-vendor.js') : undefined,
      vegaLiteScriptUri: state.view === 'problem' ? dist('charts-vegalite.js') : undefined,
      // Markdown, KaTeX and DOMPurify, loaded by the chart views when first needed (the preview has them built in)
      textScriptUri: state.view === 'preview' ? undefined : dist('webview-text.js'),
      styleUri: dist('webview.css'),
      view: state.view,
      initMessage,
      nonce: makeNonce(),
      title: this.title(),
      activatedAt: restored ? this.panels.activatedAt : undefined,
    });
  }

  nextId(): number {
    return this.seq++;
  }

  /** The folder's index changed: the problem data kept from the early init is stale; the webview is told. */
  notifyChanged(): void {
    this.early = undefined;
    // a restored problem view shown from the restore cache: its problem found again by its key (the index
    // being built may give it another row id), then shown anew
    if (this.fromCache && this.state.view === 'problem') {
      const before = this.state.problemId;
      this.resolveRestoredProblem();
      if (this.state.problemId !== before) {
        this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state });
        return;
      }
    }
    // the preview follows its sample by its keys: a re-index gives it a new row id (trial 14 finding 1)
    const s = this.state.view === 'preview' ? this.panels.getSession(this.state.folder) : undefined;
    const before = this.state.sampleId;
    if (s) this.resolveRestoredSample(s);
    if (this.state.sampleId !== before) {
      this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state });
      return;
    }
    this.post({ id: this.nextId(), kind: 'changed' });
  }

  /**
   * The row id the preview's request about `sampleId` is about now: when it is the sample this preview
   * shows, found again by its keys ({@link previewSampleId}; the state then takes the new id), else
   * `sampleId` itself. Undefined when that sample is no longer in the index.
   */
  private previewSample(s: FolderSession, sampleId: number): number | undefined {
    if (this.state.view !== 'preview' || sampleId !== this.state.sampleId)
      return s.index.sample(sampleId) ? sampleId : undefined;
    const id = previewSampleId(s.index, this.state);
    if (id !== undefined && id !== this.state.sampleId) {
      if (this.state.sampleId !== undefined) this.panels.hooks?.followed?.(this.state.sampleId, id);
      this.state = { ...this.state, sampleId: id };
      this.refreshTitle();
    }
    return id;
  }

  post(m: HostMessage): void {
    // (a request of a closed panel may settle later: its figures dropped on close)
    if (this.disposed) return;
    void this.panel.webview.postMessage(m);
  }

  private disposed = false;

  update(state: PanelState): void {
    this.state = state;
    this.refreshTitle();
    this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state });
  }

  private title(): string {
    if (this.state.view === 'overview') return 'Overview';
    if (this.state.view === 'preview') {
      const s = this.panels.getSession(this.state.folder);
      // by its keys (a re-index changes row ids, and may give the old one to another sample)
      const id = s ? previewSampleId(s.index, this.state) : undefined;
      const d = id !== undefined ? s?.index.sample(id) : undefined;
      const p = d && s?.index.problem(d.problemId);
      const m = d && s?.index.model(d.modelId);
      // the problem with its dataset when the folder's problem ids repeat across datasets (trial 6 finding 6)
      if (s && d && p && m)
        return `${d.correct === true ? '✓' : d.correct === false ? '✗' : '?'} ${problemNamer(s.index)(d.problemId)} #${d.sampleIndex} · ${s.shortLabel(m) ?? m.label}`;
      // shown from the restore cache (the index not ready): named as the kept data names it
      const kept = this.fromCache?.request === 'getSamplePreview' ? this.fromCache.result : undefined;
      return kept
        ? `${kept.correct === true ? '✓' : kept.correct === false ? '✗' : '?'} ${kept.problem.problemId} #${kept.sampleIndex} · ${kept.model.label}`
        : 'Sample';
    }
    const id = this.state.problemId;
    const s = id !== undefined ? this.panels.getSession(this.state.folder) : undefined;
    if (s && id !== undefined && s.index.problem(id)) return `Problem ${problemNamer(s.index)(id)}`;
    const kept = this.fromCache?.request === 'getProblem' ? this.fromCache.result : undefined;
    return kept ? `Problem ${kept.problem.problemId}` : 'Problem';
  }

  private refreshTitle(): void {
    this.panel.title = this.state.view === 'preview' ? this.title() : `${this.title()} — Trace Inspector`;
  }

  private session(): FolderSession {
    const s = this.panels.watch(this.state.folder);
    if (!s) {
      this.waitForSession();
      throw new RequestError('No results folder is open yet (indexing may still be starting).');
    }
    return s;
  }

  /** After a reload the session may come later than the panel: poll briefly, then tell the webview. */
  private waitForSession(): void {
    if (this.retry) return;
    let tries = 0;
    this.retry = setInterval(() => {
      tries++;
      if (this.panels.watch(this.state.folder)) {
        clearInterval(this.retry);
        this.retry = undefined;
        if (!this.fromCache) this.resolveRestoredProblem();
        this.notifyChanged();
      } else if (tries > 120) {
        clearInterval(this.retry);
        this.retry = undefined;
      }
    }, 1000);
  }

  /** Re-resolves the problem row id from its stable key (row ids can change when the folder is re-indexed). */
  resolveRestoredProblem(): void {
    const s = this.panels.getSession(this.state.folder);
    if (s && this.state.view === 'preview') {
      this.resolveRestoredSample(s);
      return;
    }
    if (!s || this.state.view !== 'problem' || !this.state.problemKey) return;
    const id = s.index.db.prepare('SELECT id FROM problems WHERE key = ?').pluck().get(this.state.problemKey) as
      | number
      | undefined;
    if (id !== undefined && id !== this.state.problemId) {
      this.state = { ...this.state, problemId: id, sampleId: undefined };
      this.refreshTitle();
    }
  }

  /** The preview's sample row id from its stable keys (problem key, model key, sample index). */
  private resolveRestoredSample(s: FolderSession): void {
    const { problemKey, modelKey, sampleIndex } = this.state;
    if (problemKey === undefined || modelKey === undefined || sampleIndex === undefined) return;
    const id = s.index.findSample(problemKey, modelKey, sampleIndex);
    if (id !== undefined && id !== this.state.sampleId) {
      if (this.state.sampleId !== undefined) this.panels.hooks?.followed?.(this.state.sampleId, id);
      this.state = { ...this.state, sampleId: id };
    }
    this.refreshTitle();
  }

  private roles(s: FolderSession): Roles {
    return {
      baseId: s.baseModel()?.id,
      focusId: s.focusModel()?.id,
      baseIsChoice: !s.baseModelIsGuess(),
      stepPattern: readSettings(s.folder).stepPattern,
    };
  }

  /**
   * The preview's data of sample row `id` of `s`, with where it sits in the tree (only when the tree shows this
   * folder); throws a RequestError naming the sample by its keys when it cannot be read.
   */
  private async previewData(s: FolderSession, id: number): Promise<SamplePreview> {
    const position = s === this.panels.getSession() ? (this.panels.hooks?.position(id) ?? null) : null;
    const d = await samplePreview(s.index, s.annotations, id, this.roles(s), s, position);
    if (!d) throw new RequestError(goneSampleMessage(s.index, this.state));
    return d;
  }

  /** The data of one problem (the `getProblem` request); throws a RequestError when it is not in the index. */
  private problem(problemId: number): ProblemData {
    const s = this.session();
    const data = problemData(s.index, problemId, this.roles(s), s.annotations, hasLogprobSidecar(s.root));
    if (!data) throw new RequestError(`Problem ${problemId} is not in the index (it may have been re-indexed).`);
    // its first charts compiled here when the compiler is warm (the webview then loads no Vega-Lite for them)
    const charts = this.panels.charts.problemCharts(data, highContrastTheme());
    const d = charts ? { ...data, charts } : data;
    const key = s.index.problem(problemId)?.key;
    if (problemId === this.state.problemId && key) this.state = { ...this.state, problemKey: key };
    return d;
  }

  /**
   * The problem view's data to send with its init (one round trip less before the chart:
   * docs/performance.md, "How the problem view opens quickly"); undefined for other views, before the folder's session exists,
   * or when the problem is not in the index (the webview's own request then reports it).
   */
  private prefetchProblem(): { request: 'getProblem'; problemId: number; result: ProblemData } | undefined {
    const problemId = this.state.problemId;
    if (this.state.view !== 'problem' || problemId === undefined || !this.panels.getSession(this.state.folder))
      return undefined;
    try {
      return { request: 'getProblem', problemId, result: this.problem(problemId) };
    } catch (e) {
      // the webview's own getProblem request then reports it to the user; the cause is kept here
      this.panels
        .getSession(this.state.folder)
        ?.log(`[problem view] problem ${problemId}: data not sent with the init: ${(e as Error).message}`);
      return undefined;
    }
  }

  /**
   * Posts the problem view's init, with its problem data, as soon as the panel exists, before the webview
   * has loaded: VS Code keeps the messages posted to a webview whose page is still loading and delivers
   * them when the page has loaded (after its script has run), so the pass@k chart does not wait for the
   * round trip of the webview's `ready` to the extension host (docs/performance-log.md). The init that answers
   * `ready` is still sent, with the same problem data (this one did not reach the page in some runs of the
   * perf e2e), kept from here rather than computed again; the webview ignores an init equal to the one it
   * has (webview/rpc.ts). New problem views only: a restored panel's problem is resolved when its `ready` comes.
   * (The problem view opened from the extension writes its page with that init instead,
   * {@link writePageWithInit}.)
   */
  /**
   * Writes a new problem view's page with its init (problem data, charts compiled by the host when the
   * compiler is warm) in it as a JSON data block (src/extension/panelHtml.ts `initMessage`): the page's
   * script takes it when it starts and builds the view, instead of waiting for VS Code to hand it the posted
   * init (on the page's load event, after every script, or 200 ms after the page is written:
   * docs/performance.md). Without data (no session yet, the problem not in the index) the page gets its init in
   * answer to `ready`, as before. The data is kept for that answer ({@link early}).
   */
  async writePageWithInit(afterData: () => void = () => undefined): Promise<void> {
    let prefetched = this.prefetchProblem();
    afterData();
    // its first charts drawn as SVG (Vega's drawing resolves in this task: no other task runs meanwhile); the
    // page shows them until its own Vega (a 1 MB script it compiles) has drawn them
    const charts = prefetched?.result.charts;
    if (prefetched && charts)
      prefetched = {
        ...prefetched,
        result: {
          ...prefetched.result,
          charts: await this.panels.charts.drawFirst(charts, this.panels.chartLayout(this.panel.viewColumn)),
        },
      };
    if (!this.panels.open.has(this)) return;
    this.early = prefetched;
    if (prefetched) this.keep(prefetched.result);
    this.writePage(
      prefetched
        ? { id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state, prefetched }
        : undefined,
    );
  }

  /**
   * The data served from the restore cache when this restored tab's page was written ({@link writeRestoredPage}),
   * while the folder's index could not answer: the page's requests for it are answered from it again until the
   * index can (the index being built: {@link orCached}). Cleared by the first answer from the index.
   */
  private fromCache: Prefetched | undefined;

  /** Keeps `data`, sent to this tab, for a window reload (restoreCache.ts); never data that came from there. */
  private keep(data: ProblemData | SamplePreview): void {
    const key = restoreKey(this.state);
    if (key && data.cachedAt === undefined) this.panels.restoreCache.put(key, data);
  }

  /**
   * Writes a restored problem view's or preview's page with its data in it, so that it renders when its
   * script runs, without a round trip to this host: from the index when it holds the tab's problem or sample
   * (found by its stable keys), else, the index not ready (no session yet, or being built), the data the tab
   * was last sent, from the restore cache (marked `cachedAt`; the page says so). Such a tab is told when the
   * session comes or the index changes, and asks again. Without either the page asks, as a new one does.
   */
  async writeRestoredPage(): Promise<void> {
    this.resolveRestoredProblem();
    let prefetched = await this.restoredFromIndex().catch((e: Error) => {
      this.panels
        .getSession(this.state.folder)
        ?.log(`[restore] ${this.state.view}: not read from the index: ${e.message}`);
      return undefined;
    });
    if (!prefetched) {
      prefetched = this.restoredFromCache();
      this.fromCache = prefetched;
      this.refreshTitle();
    } else if (prefetched.request === 'getProblem') this.early = prefetched;
    if (!this.panels.open.has(this)) return;
    this.writePage(
      prefetched
        ? { id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state, prefetched }
        : undefined,
      true,
    );
    if (this.fromCache && !this.panels.watch(this.state.folder)) this.waitForSession();
  }

  /** A restored tab's data from the index, when it holds the tab's problem (by its key) or sample (by its keys). */
  private async restoredFromIndex(): Promise<Prefetched | undefined> {
    const s = this.panels.getSession(this.state.folder);
    if (!s) return undefined;
    if (this.state.view === 'problem') {
      const id = this.state.problemId;
      if (id === undefined || !this.keyMatches(s, id)) return undefined;
      const fresh = this.prefetchProblem();
      if (fresh) {
        fresh.result = this.withKeptCharts(fresh.result);
        this.keep(fresh.result);
      }
      return fresh;
    }
    const id = this.state.view === 'preview' ? previewSampleId(s.index, this.state) : undefined;
    if (id === undefined) return undefined;
    const result = await this.previewData(s, id);
    this.keep(result);
    return { request: 'getSamplePreview', sampleId: id, result };
  }

  /**
   * `data` from the index, with the charts kept in the restore cache (the pass@k chart the host drew as SVG
   * before the reload) when it has none of its own (the host's chart compiler loads when the window is idle)
   * and is otherwise what the cache holds: the restored view's first chart then needs no Vega-Lite.
   */
  private withKeptCharts(data: ProblemData): ProblemData {
    const key = restoreKey(this.state);
    const kept = !data.charts && key ? this.panels.restoreCache.get<ProblemData>(key)?.data : undefined;
    if (!kept?.charts) return data;
    const same = JSON.stringify({ ...kept, charts: undefined }) === JSON.stringify({ ...data, charts: undefined });
    return same ? { ...data, charts: kept.charts } : data;
  }

  /** Whether problem row `id` of `s` is the problem this tab names by its key (a tab without a key: any). */
  private keyMatches(s: FolderSession, id: number): boolean {
    const key = s.index.problem(id)?.key;
    return key !== undefined && (this.state.problemKey === undefined || key === this.state.problemKey);
  }

  /** A restored tab's data from the restore cache (marked `cachedAt`), for the ids its state names. */
  private restoredFromCache(): Prefetched | undefined {
    const key = restoreKey(this.state);
    const kept = key ? this.panels.restoreCache.get<ProblemData & SamplePreview>(key) : undefined;
    if (!kept) return undefined;
    const result = { ...kept.data, cachedAt: kept.savedAt };
    if (this.state.view === 'problem' && this.state.problemId !== undefined)
      return { request: 'getProblem', problemId: this.state.problemId, result };
    if (this.state.view === 'preview' && this.state.sampleId !== undefined)
      return { request: 'getSamplePreview', sampleId: this.state.sampleId, result };
    return undefined;
  }

  /**
   * Answers a request of this tab's restored data: from the index (`fromIndex`), or, while this tab shows the
   * restore cache's data and the index cannot answer because it is not ready (no session, or a pass running),
   * that data again. The first answer from the index ends the cache's part.
   */
  private async orCached<T>(kind: Prefetched['request'], fromIndex: () => T | Promise<T>): Promise<T> {
    try {
      const result = await fromIndex();
      if (this.fromCache?.request === kind) this.fromCache = undefined;
      return result;
    } catch (e) {
      const s = this.panels.getSession(this.state.folder);
      if (this.fromCache?.request === kind && (!s || s.passRunning)) return this.fromCache.result as T;
      // the index is ready and cannot answer (the problem or sample is gone): the tab is the index's from now on
      if (this.fromCache?.request === kind) this.fromCache = undefined;
      throw e;
    }
  }

  postEarlyInit(): void {
    const prefetched = this.prefetchProblem();
    if (!prefetched) return;
    this.early = prefetched;
    this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state, prefetched });
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = validateWebviewMessage(raw);
    if (typeof m === 'string') {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 1)
        this.post({ id: this.nextId(), kind: 'error', replyTo: id, message: `refused: ${m}` });
      return;
    }
    if (m.kind === 'ready') {
      this.resolveRestoredProblem();
      if (this.panels.getSession(this.state.folder) === undefined) this.waitForSession();
      // with the problem data again: the early init may not have reached this page (the webview then
      // shows this one; it skips an init equal to the one it shows). The early init's data when it is
      // of this problem and the index did not change since (once: a reloaded page's `ready` reads anew).
      const early = this.early;
      this.early = undefined;
      // (none for a tab shown from the restore cache: its row id may name another problem in an index being built)
      const prefetched =
        early && this.state.view === 'problem' && early.problemId === this.state.problemId
          ? early
          : this.fromCache
            ? undefined
            : this.prefetchProblem();
      this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state, prefetched });
      return;
    }
    if (m.kind === 'log') return;
    if (m.kind === 'chartLayout') {
      this.panels.setChartLayout(this.panel.viewColumn, m.layout);
      return;
    }
    try {
      const result = await this.handle(m);
      this.post(reply(this.nextId(), m, result as never));
    } catch (e) {
      this.post({ id: this.nextId(), kind: 'error', replyTo: m.id, message: (e as Error).message });
    }
  }

  private async handle(m: WebviewRequest): Promise<ResultOf<RequestKind>> {
    // shown from the restore cache: nothing but its own data until the index answers for it (row ids of an
    // index being built may name other problems and samples)
    if (this.fromCache && m.kind !== 'getProblem' && m.kind !== 'getSamplePreview' && m.kind !== 'openLink')
      throw new RequestError(
        "The folder's index is not ready yet: this tab shows what it showed before the window reload until it is.",
      );
    switch (m.kind) {
      case 'getProblem':
        return this.orCached('getProblem', () => {
          // a restored tab's row id may name another problem in an index being built: its key must match
          if (this.fromCache && !this.keyMatches(this.session(), m.problemId))
            throw new RequestError(`Problem ${m.problemId} is not in the index yet.`);
          const d = this.problem(m.problemId);
          if (m.problemId === this.state.problemId) this.keep(d);
          return d;
        });
      case 'getSamples':
        return samplePage(this.session().index, m.problemId, m.modelId, m.offset, m.limit);
      case 'getSample': {
        const s = this.session();
        const t = await sampleText(s.index, s.annotations, m.sampleId, s);
        if (!t) throw new RequestError(`Sample ${m.sampleId} is not in the index.`);
        return t;
      }
      case 'getSimilarity':
        return this.similarity(m.problemId, m.modelId, m.stage);
      case 'getNovelty':
        return this.novelty(m.sampleId);
      case 'getMajAtK': {
        const s = this.session();
        if (!s.index.problem(m.problemId)) throw new RequestError(`Problem ${m.problemId} is not in the index.`);
        return {
          problemId: m.problemId,
          curves: await this.panels.runner.run(majorityJob(s.index, m.problemId)),
          note: majorityNote(s.index, m.problemId, (id) => {
            const model = s.index.model(id);
            return model ? (s.shortLabel(model) ?? model.label) : String(id);
          }),
        };
      }
      case 'getPpl': {
        const s = this.session();
        return pplData(s.root, s.index, m.problemId);
      }
      case 'getOverview': {
        const s = this.session();
        return this.figures(s, m.id, { kind: 'overview', roles: this.roles(s) });
      }
      case 'getPaths': {
        const s = this.session();
        return this.figures(s, m.id, { kind: 'paths', roles: this.roles(s) });
      }
      case 'getRewardModels':
        return this.figures(this.session(), m.id, { kind: 'rewardModels' });
      case 'getProblemRanking': {
        const s = this.session();
        const d = await problemRankingData(s.index, m.problemId, m.modelId, s);
        if (!d) throw new RequestError(`Problem ${m.problemId} or model ${m.modelId} is not in the index.`);
        return d;
      }
      case 'getTraining': {
        const s = this.session();
        return this.figures(s, m.id, { kind: 'training', roles: this.roles(s) });
      }
      case 'getModelMarkers':
        return this.figures(this.session(), m.id, { kind: 'markers' });
      case 'getSplits': {
        // one job per folder: choosing another split kind supersedes the one computing (its figures are not wanted)
        const s = this.session();
        const roles = this.roles(s);
        return this.figures(
          s,
          m.id,
          m.splits ? { kind: 'splits', roles, splits: m.splits } : { kind: 'splits', roles },
        );
      }
      case 'setAnnotation': {
        const s = this.session();
        const ref = s.annotations.refOf(m.sampleId);
        if (!ref) throw new RequestError(`Sample ${m.sampleId} is not in the index.`);
        const a = s.annotations.set(ref, m.labels, m.note);
        s.fireChanged();
        return { sampleId: m.sampleId, labels: a?.labels ?? [], note: a?.note ?? '' };
      }
      case 'filterProblems': {
        const s = this.session();
        // The tree shows this panel's folder first (row ids belong to its index).
        await vscode.commands.executeCommand('traceInspector.showFolder', s.folder.uri.toString());
        await vscode.commands.executeCommand(
          'traceInspector.filterProblems',
          resolveFilter(s.index, m.filter, this.roles(s)),
        );
        return { ok: true };
      }
      case 'openSample':
        await vscode.commands.executeCommand('traceInspector.openSample', {
          sampleId: m.sampleId,
          folder: this.session().folder.uri.toString(),
        });
        return { ok: true };
      case 'openProblem': {
        const key = this.session().index.problem(m.problemId)?.key;
        this.panels.show({
          view: 'problem',
          problemId: m.problemId,
          problemKey: key,
          modelId: m.modelId,
          folder: this.state.folder,
        });
        return { ok: true };
      }
      case 'getSamplePreview':
        return this.orCached('getSamplePreview', async () => {
          const s = this.session();
          const id = this.previewSample(s, m.sampleId);
          // never a row id in the message: the sample by its problem, model and index (trial 14 finding 1)
          if (id === undefined) throw new RequestError(goneSampleMessage(s.index, this.state));
          const d = await this.previewData(s, id);
          if (id === this.state.sampleId) this.keep(d);
          return d;
        });
      case 'previewAction': {
        const s = this.session();
        const id = this.previewSample(s, m.sampleId);
        if (id !== undefined) await previewAction(m.action, id, s);
        else await goneSampleAction(m.action, goneSamplePlace(s.index, this.state), s);
        return { ok: true };
      }
      case 'openLink':
        return { opened: await confirmOpenLink(m.url) };
      case 'exportFigure': {
        const s = this.session();
        return saveFigure(m, this.roles(s), s.folder.uri, (job) => this.figures(s, m.id, job));
      }
    }
  }

  /**
   * Starts the similarity of the model the problem view will show first ({@link firstModelShown}) while the
   * webview loads, so the list is ready sooner after the click (or finds the job the tree's selection
   * started). Errors are left to the real request.
   */
  prefetchSimilarity(): void {
    const s = this.panels.getSession(this.state.folder);
    const problemId = this.state.problemId;
    if (!s || this.state.view !== 'problem' || problemId === undefined) return;
    const modelId = firstModelShown(s, problemId, this.state.modelId);
    if (modelId !== undefined) this.panels.similarity(s, problemId, modelId).catch(() => undefined);
  }

  /**
   * Figures of folder `s` computed in the figures worker (src/extension/figuresRunner.ts), their progress posted
   * to this page as `progress` messages answering request `replyTo`. A newer request of the same figures of the
   * same folder (the page reloads them after a re-index or a base change) supersedes this one: both get its result.
   * An export (`exportFigure`) has a key of its own: two exports never supersede each other.
   */
  private figures<K extends FiguresKind>(s: FolderSession, replyTo: number, job: JobOf<K>): Promise<FiguresResults[K]> {
    // an export is its own job: another export (another chart, another file) must not take its place
    const key = job.kind === 'exportFigure' ? `${figuresKey(s, job.kind)}|${++exportSeq}` : figuresKey(s, job.kind);
    return this.panels.figures.run(key, s, job, (progress) =>
      this.post({ id: this.nextId(), kind: 'progress', replyTo, progress }),
    );
  }

  /** Similarity of a problem's model against its base in this panel's folder (Panels.similarity). */
  private similarity(problemId: number, modelId: number, stage?: 'list'): Promise<SimilarityData> {
    return this.panels.similarity(this.session(), problemId, modelId, stage);
  }

  private async novelty(sampleId: number): Promise<NoveltyData> {
    const s = this.session();
    const sample = s.index.sample(sampleId);
    const text = sample ? await s.sampleText(sampleId) : undefined;
    if (!sample || text === undefined) throw new RequestError(`Sample ${sampleId} is not in the index.`);
    const base = baseFor(s, sample.modelId);
    const baseTexts = (await s.sampleTexts(sample.problemId, base.id))
      .filter((b) => b.id !== sampleId)
      .map((b) => ({ id: b.id, sampleIndex: b.sampleIndex, text: b.text }));
    const body = await this.panels.runner.run({ kind: 'novelty', text, base: baseTexts });
    return { sampleId, baseModelId: base.id, ...body };
  }

  dispose(): void {
    this.disposed = true;
    if (this.retry) clearInterval(this.retry);
    for (const d of this.subs) d.dispose();
    this.panels.open.delete(this);
    // the overview's figures nobody will see (one overview per folder: Panels.show)
    const s = this.state.view === 'overview' ? this.panels.getSession(this.state.folder) : undefined;
    if (s) for (const kind of FIGURES_KINDS) this.panels.figures.cancel(figuresKey(s, kind));
  }
}

/**
 * Registers `traceInspector.openProblemView` (argument `{ problemId }` or a tree node with a problem;
 * without one, a quick pick of problems), `traceInspector.openOverview`, and the serializers that
 * restore both panels after a reload.
 */
export function registerPanels(
  context: vscode.ExtensionContext,
  getSession: GetSession,
  hooks?: PanelHooks,
): vscode.Disposable[] {
  const panels = new Panels(context, getSession, hooks);

  const openProblemView = async (arg?: unknown) => {
    const folder = folderOf(arg);
    const s = panels.watch(folder);
    if (!s) {
      void vscode.window.showInformationMessage('Trace Inspector: open a results folder first.');
      return;
    }
    let problemId = problemIdOf(arg);
    if (problemId === undefined) {
      const rows = s.index.listProblems({ kind: 'all' }, 0, 5000);
      const items = problemPickItems(rows, hooks?.selectedProblem?.());
      const picked = await vscode.window.showQuickPick(items, {
        title: 'Open Problem View',
        placeHolder: 'Problem id or words of the question',
        matchOnDetail: true,
      });
      if (!picked) return;
      problemId = picked.id;
    }
    const key = s.index.problem(problemId)?.key;
    panels.show({
      view: 'problem',
      problemId,
      problemKey: key,
      modelId: modelIdOf(arg),
      folder: s.folder.uri.toString(),
    });
  };

  const serializer = (view: ViewKind): vscode.WebviewPanelSerializer => ({
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, saved: unknown) {
      const st = validatePanelState(saved);
      const state: PanelState = typeof st === 'string' || st.view !== view ? { view } : st;
      const p = panels.show(state, panel);
      p.resolveRestoredProblem();
    },
  });

  return [
    panels,
    vscode.commands.registerCommand('traceInspector.openProblemView', openProblemView),
    vscode.commands.registerCommand('traceInspector.openOverview', () => {
      if (!panels.watch()) {
        void vscode.window.showInformationMessage('Trace Inspector: open a results folder first.');
        return;
      }
      panels.show({ view: 'overview' });
    }),
    vscode.commands.registerCommand('traceInspector.showSamplePreview', (arg: unknown, preserveFocus?: unknown) =>
      showSamplePreview(panels, arg, preserveFocus === true),
    ),
    vscode.window.registerWebviewPanelSerializer(PROBLEM_VIEW_TYPE, serializer('problem')),
    vscode.window.registerWebviewPanelSerializer(OVERVIEW_VIEW_TYPE, serializer('overview')),
    vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPE, serializer('preview')),
  ];
}

/**
 * Shows a sample in the one preview tab (`traceInspector.showSamplePreview`, argument `{ sampleId }`;
 * not in the command palette: Open Sample Preview and the navigation commands call it). The state
 * carries the sample's stable keys, so the tab comes back after a reload.
 */
function showSamplePreview(panels: Panels, arg: unknown, preserveFocus: boolean): boolean {
  const s = panels.watch(folderOf(arg));
  const id =
    arg && typeof arg === 'object' && typeof (arg as { sampleId?: unknown }).sampleId === 'number'
      ? (arg as { sampleId: number }).sampleId
      : undefined;
  const ref = id !== undefined ? s?.annotations.refOf(id) : undefined;
  if (!s || id === undefined || !ref) return false;
  panels.show(
    {
      view: 'preview',
      folder: s.folder.uri.toString(),
      sampleId: id,
      problemKey: ref.problemKey,
      modelKey: ref.modelKey,
      sampleIndex: ref.sampleIndex,
    },
    undefined,
    preserveFocus,
  );
  return true;
}

/** The preview's buttons that step through the tree: each runs the navigation command of its name. */
const STEP_ACTIONS: ReadonlySet<PreviewAction> = new Set<PreviewAction>([
  'nextSample',
  'previousSample',
  'nextProblem',
  'previousProblem',
  'nextUnannotated',
]);

/**
 * Runs the navigation command `traceInspector.<action>` with `arg` (where to step from: a sample, or a problem
 * and model; undefined: where the user was last, navigation.ts) when `action` is one of {@link STEP_ACTIONS};
 * returns whether it was.
 */
async function stepAction(action: PreviewAction, arg: unknown): Promise<boolean> {
  if (!STEP_ACTIONS.has(action)) return false;
  await vscode.commands.executeCommand(`traceInspector.${action}`, arg);
  return true;
}

/**
 * The preview's buttons when its sample is no longer in the index (trial 14 finding 1): the steps go on
 * from the start of its problem's samples of its model in the tree's order (or, with its problem or model
 * gone, from wherever the user was last: navigation.ts), ↗ opens its problem's view; the others need the
 * sample and say so.
 */
async function goneSampleAction(
  action: PreviewAction,
  place: { problemId?: number; modelId?: number },
  s: FolderSession,
): Promise<void> {
  const folder = s.folder.uri.toString();
  if (
    await stepAction(
      action,
      place.problemId !== undefined && place.modelId !== undefined
        ? { problemId: place.problemId, modelId: place.modelId, folder }
        : undefined,
    )
  )
    return;
  switch (action) {
    case 'openProblemView':
      if (place.problemId === undefined) throw new RequestError('Its problem is no longer in the index either.');
      await vscode.commands.executeCommand('traceInspector.openProblemView', { problemId: place.problemId, folder });
      return;
    default:
      throw new RequestError('This sample is no longer in the index.');
  }
}

/** The preview toolbar's buttons: the same commands as the keybindings and menus. */
async function previewAction(action: PreviewAction, sampleId: number, s: FolderSession): Promise<void> {
  const sample = s.index.sample(sampleId);
  if (!sample) throw new RequestError(`Sample ${sampleId} is not in the index.`);
  const arg = { sampleId, folder: s.folder.uri.toString() };
  if (await stepAction(action, arg)) return;
  switch (action) {
    case 'annotate':
      await vscode.commands.executeCommand('traceInspector.annotate', arg);
      return;
    case 'openText':
      await vscode.commands.executeCommand('traceInspector.openSample', arg);
      return;
    case 'openProblemView':
      await vscode.commands.executeCommand('traceInspector.openProblemView', {
        problemId: sample.problemId,
        modelId: sample.modelId,
        folder: s.folder.uri.toString(),
      });
  }
}

/**
 * A link from model output opens only when the user says so: a modal names the full URL and that the
 * model wrote it. http and https only (checked by the protocol and again here). Returns whether it opened.
 */
async function confirmOpenLink(url: string): Promise<boolean> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(url, true);
  } catch {
    return false;
  }
  if (uri.scheme !== 'http' && uri.scheme !== 'https') return false;
  const choice = await vscode.window.showWarningMessage(
    'Open a link from model output?',
    { modal: true, detail: `The model wrote this link; it was not checked:\n\n${url}` },
    // Copy first: the modal's default button (Enter) then copies instead of opening.
    'Copy Link',
    'Open Link',
  );
  if (choice === 'Copy Link') await vscode.env.clipboard.writeText(url);
  if (choice !== 'Open Link') return false;
  return vscode.env.openExternal(uri);
}
