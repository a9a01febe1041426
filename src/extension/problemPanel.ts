/**
 * The problem view and the overview: webview panels that answer the limit-of-RLVR questions for one
 * problem (pass@k per model, crossover k, "is this RL sample in the base distribution?") or for the
 * whole folder (dataset pass@k with bootstrap bands, accuracy histograms, coverage).
 *
 * The host sends data, never HTML: every message goes through src/shared/protocol.ts and every
 * inbound message is validated there. Heavy similarity work runs in a worker thread
 * (dist/similarityWorker.js) and is cached in the index's similarity_cache table.
 *
 * Panels restore after a reload through WebviewPanelSerializers (view types below); the state is
 * the {@link PanelState} the webview saves with `setState`. package.json must list the activation
 * events `onWebviewPanel:traceInspector.problemView` and `onWebviewPanel:traceInspector.overview`.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { type FolderSession, readSettings } from './session';
import { comparisonBase } from '../core/index/labels';
import type { ModelRow } from '../core/index/traceIndex';
import {
  hasLogprobSidecar,
  overviewData,
  problemRankingData,
  rewardModelsData,
  pplData,
  problemData,
  readSimilarityCache,
  resolveFilter,
  samplePage,
  sampleText,
  similarityJob,
  similarityParams,
  trainingData,
  withAnswersInBase,
  writeSimilarityCache,
  type Roles,
} from './panelData';
import { SimilarityRunner } from './similarityRunner';
import { makeNonce, panelHtml } from './panelHtml';
export { makeNonce, panelHtml } from './panelHtml';
import {
  PROTOCOL_VERSION,
  reply,
  validatePanelState,
  validateWebviewMessage,
  type HostMessage,
  type NoveltyData,
  type PanelState,
  type RequestKind,
  type ResultOf,
  type SimilarityData,
  type ViewKind,
  type WebviewRequest,
} from '../shared/protocol';

export const PROBLEM_VIEW_TYPE = 'traceInspector.problemView';
export const OVERVIEW_VIEW_TYPE = 'traceInspector.overview';

type GetSession = () => FolderSession | undefined;

/** A request failure shown to the user as text in the panel. */
class RequestError extends Error {}

/** The problem row id a command argument names: `{ problemId }`, a tree node (`{ problem: { id } }`, `{ sample: { problemId } }`). */
export function problemIdOf(arg: unknown): number | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { problemId?: unknown; problem?: { id?: unknown }; sample?: { problemId?: unknown } };
  const v = a.problemId ?? a.problem?.id ?? a.sample?.problemId;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

/** The model row id a tree node names, if any (to preselect it in the similarity section). */
function modelIdOf(arg: unknown): number | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { modelId?: unknown; model?: { id?: unknown }; sample?: { modelId?: unknown } };
  const v = a.modelId ?? a.model?.id ?? a.sample?.modelId;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

/** Shared services of all panels. */
class Panels implements vscode.Disposable {
  readonly runner: SimilarityRunner;
  readonly open = new Set<Panel>();
  private readonly subs: vscode.Disposable[] = [];
  private watched: FolderSession | undefined;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly getSession: GetSession,
  ) {
    this.runner = new SimilarityRunner(join(context.extensionUri.fsPath, 'dist', 'similarityWorker.js'));
  }

  /** Subscribes to the current session's changes (re-done when the active session changes). */
  watch(): FolderSession | undefined {
    const s = this.getSession();
    if (s && s !== this.watched) {
      this.watched = s;
      this.subs.push(s.onDidChange(() => this.broadcastChanged()));
    }
    return s;
  }

  broadcastChanged(): void {
    for (const p of this.open) p.post({ id: p.nextId(), kind: 'changed' });
  }

  show(state: PanelState, existing?: vscode.WebviewPanel): Panel {
    if (!existing) {
      for (const p of this.open) {
        if (p.state.view === state.view && (state.view === 'overview' || p.state.problemId === state.problemId)) {
          p.panel.reveal();
          if (state.modelId !== undefined) p.update({ ...p.state, modelId: state.modelId });
          return p;
        }
      }
    }
    const panel =
      existing ??
      vscode.window.createWebviewPanel(
        state.view === 'problem' ? PROBLEM_VIEW_TYPE : OVERVIEW_VIEW_TYPE,
        'Trace Inspector',
        vscode.ViewColumn.Active,
        {
          enableScripts: true,
          retainContextWhenHidden: false,
          localResourceRoots: [
            vscode.Uri.joinPath(this.context.extensionUri, 'dist'),
            vscode.Uri.joinPath(this.context.extensionUri, 'media'),
          ],
        },
      );
    const p = new Panel(this, panel, state);
    this.open.add(p);
    return p;
  }

  dispose(): void {
    for (const p of [...this.open]) p.panel.dispose();
    for (const s of this.subs) s.dispose();
    this.runner.dispose();
  }
}

/** One open webview panel. */
class Panel {
  private seq = 1;
  private readonly subs: vscode.Disposable[] = [];
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly panels: Panels,
    readonly panel: vscode.WebviewPanel,
    public state: PanelState,
  ) {
    const webview = panel.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(panels.context.extensionUri, 'dist'),
        vscode.Uri.joinPath(panels.context.extensionUri, 'media'),
      ],
    };
    panel.iconPath = vscode.Uri.joinPath(
      panels.context.extensionUri,
      'media',
      state.view === 'problem' ? 'problem-view.svg' : 'overview.svg',
    );
    const dist = (f: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(panels.context.extensionUri, 'dist', f)).toString();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: dist('webview.js'),
      styleUri: dist('webview.css'),
      view: state.view,
      nonce: makeNonce(),
      title: this.title(),
    });
    this.subs.push(
      webview.onDidReceiveMessage((m) => void this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.refreshTitle();
  }

  nextId(): number {
    return this.seq++;
  }

  post(m: HostMessage): void {
    void this.panel.webview.postMessage(m);
  }

  update(state: PanelState): void {
    this.state = state;
    this.refreshTitle();
    this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state });
  }

  private title(): string {
    if (this.state.view === 'overview') return 'Overview';
    const p =
      this.state.problemId !== undefined ? this.panels.getSession()?.index.problem(this.state.problemId) : undefined;
    return p ? `Problem ${p.problemId}` : 'Problem';
  }

  private refreshTitle(): void {
    this.panel.title = `${this.title()} — Trace Inspector`;
  }

  private session(): FolderSession {
    const s = this.panels.watch();
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
      if (this.panels.watch()) {
        clearInterval(this.retry);
        this.retry = undefined;
        this.resolveRestoredProblem();
        this.post({ id: this.nextId(), kind: 'changed' });
      } else if (tries > 120) {
        clearInterval(this.retry);
        this.retry = undefined;
      }
    }, 1000);
  }

  /** Re-resolves the problem row id from its stable key (row ids can change when the folder is re-indexed). */
  resolveRestoredProblem(): void {
    const s = this.panels.getSession();
    if (!s || this.state.view !== 'problem' || !this.state.problemKey) return;
    const id = s.index.db.prepare('SELECT id FROM problems WHERE key = ?').pluck().get(this.state.problemKey) as
      | number
      | undefined;
    if (id !== undefined && id !== this.state.problemId) {
      this.state = { ...this.state, problemId: id, sampleId: undefined };
      this.refreshTitle();
    }
  }

  private roles(s: FolderSession): Roles {
    return {
      baseId: s.baseModel()?.id,
      focusId: s.focusModel()?.id,
      baseIsChoice: !s.baseModelIsGuess(),
      stepPattern: readSettings(s.folder).stepPattern,
    };
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
      if (this.panels.getSession() === undefined) this.waitForSession();
      this.post({ id: this.nextId(), kind: 'init', protocol: PROTOCOL_VERSION, state: this.state });
      return;
    }
    if (m.kind === 'log') return;
    try {
      const result = await this.handle(m);
      this.post(reply(this.nextId(), m, result as never));
    } catch (e) {
      this.post({ id: this.nextId(), kind: 'error', replyTo: m.id, message: (e as Error).message });
    }
  }

  private async handle(m: WebviewRequest): Promise<ResultOf<RequestKind>> {
    switch (m.kind) {
      case 'getProblem': {
        const s = this.session();
        const d = problemData(s.index, m.problemId, this.roles(s), s.annotations, hasLogprobSidecar(s.root));
        if (!d) throw new RequestError(`Problem ${m.problemId} is not in the index (it may have been re-indexed).`);
        const key = s.index.problem(m.problemId)?.key;
        if (m.problemId === this.state.problemId && key) this.state = { ...this.state, problemKey: key };
        return d;
      }
      case 'getSamples':
        return samplePage(this.session().index, m.problemId, m.modelId, m.offset, m.limit);
      case 'getSample': {
        const s = this.session();
        const t = sampleText(s.index, s.annotations, m.sampleId);
        if (!t) throw new RequestError(`Sample ${m.sampleId} is not in the index.`);
        return t;
      }
      case 'getSimilarity':
        return this.similarity(m.problemId, m.modelId);
      case 'getNovelty':
        return this.novelty(m.sampleId);
      case 'getPpl': {
        const s = this.session();
        return pplData(s.root, s.index, m.problemId);
      }
      case 'getOverview': {
        const s = this.session();
        return overviewData(s.index, this.roles(s));
      }
      case 'getRewardModels':
        return rewardModelsData(this.session().index);
      case 'getProblemRanking': {
        const d = problemRankingData(this.session().index, m.problemId, m.modelId);
        if (!d) throw new RequestError(`Problem ${m.problemId} or model ${m.modelId} is not in the index.`);
        return d;
      }
      case 'getTraining': {
        const s = this.session();
        return trainingData(s.index, this.roles(s));
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
        await vscode.commands.executeCommand(
          'traceInspector.filterProblems',
          resolveFilter(s.index, m.filter, this.roles(s)),
        );
        return { ok: true };
      }
      case 'openSample':
        await vscode.commands.executeCommand('traceInspector.openSample', { sampleId: m.sampleId });
        return { ok: true };
      case 'openProblem': {
        const key = this.panels.getSession()?.index.problem(m.problemId)?.key;
        this.panels.show({ view: 'problem', problemId: m.problemId, problemKey: key, modelId: m.modelId });
        return { ok: true };
      }
    }
  }

  /**
   * The base a model's samples are compared with: the chosen base, or the model's own run's base while
   * the base is a guess (core `comparisonBase`, the pairs of the report and the overview).
   */
  private baseFor(s: FolderSession, modelId: number): ModelRow {
    const base = s.baseModel();
    if (!base) throw new RequestError('Choose a base model first (Trace Inspector: Choose Base Model).');
    const models = s.models();
    const model = models.find((m) => m.id === modelId);
    const b = model && comparisonBase(models, model, base, !s.baseModelIsGuess());
    if (!b) throw new RequestError('This is a base model (of its run): pick another model to compare with it.');
    return b;
  }

  private async similarity(problemId: number, modelId: number): Promise<SimilarityData> {
    const s = this.session();
    const base = this.baseFor(s, modelId);
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
    const body = await this.panels.runner.run(similarityJob(s.index, problemId, base.id, modelId));
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
    };
  }

  private async novelty(sampleId: number): Promise<NoveltyData> {
    const s = this.session();
    const sample = s.index.sample(sampleId);
    if (!sample) throw new RequestError(`Sample ${sampleId} is not in the index.`);
    const base = this.baseFor(s, sample.modelId);
    const baseTexts = s.index
      .sampleTexts(sample.problemId, base.id)
      .filter((b) => b.id !== sampleId)
      .map((b) => ({ id: b.id, sampleIndex: b.sampleIndex, text: b.text }));
    const body = await this.panels.runner.run({ kind: 'novelty', text: sample.text, base: baseTexts });
    return { sampleId, baseModelId: base.id, ...body };
  }

  dispose(): void {
    if (this.retry) clearInterval(this.retry);
    for (const d of this.subs) d.dispose();
    this.panels.open.delete(this);
  }
}

/**
 * Registers `traceInspector.openProblemView` (argument `{ problemId }` or a tree node with a problem;
 * without one, a quick pick of problems), `traceInspector.openOverview`, and the serializers that
 * restore both panels after a reload.
 */
export function registerPanels(context: vscode.ExtensionContext, getSession: GetSession): vscode.Disposable[] {
  const panels = new Panels(context, getSession);

  const openProblemView = async (arg?: unknown) => {
    const s = panels.watch();
    if (!s) {
      void vscode.window.showInformationMessage('Trace Inspector: open a results folder first.');
      return;
    }
    let problemId = problemIdOf(arg);
    if (problemId === undefined) {
      const rows = s.index.listProblems({ kind: 'all' }, 0, 5000);
      const picked = await vscode.window.showQuickPick(
        rows.map((p) => ({
          label: `${p.problemId}`,
          description: p.dataset,
          detail: (p.question ?? '').slice(0, 200).replace(/\s+/g, ' '),
          id: p.id,
        })),
        { title: 'Open Problem View', placeHolder: 'Problem id or words of the question', matchOnDetail: true },
      );
      if (!picked) return;
      problemId = picked.id;
    }
    const key = s.index.problem(problemId)?.key;
    panels.show({ view: 'problem', problemId, problemKey: key, modelId: modelIdOf(arg) });
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
    vscode.window.registerWebviewPanelSerializer(PROBLEM_VIEW_TYPE, serializer('problem')),
    vscode.window.registerWebviewPanelSerializer(OVERVIEW_VIEW_TYPE, serializer('overview')),
  ];
}
