import * as vscode from 'vscode';
import { STANDARD_LABELS } from '../core/index/annotations';
import {
  UnsupportedRuntimeError,
  chooseSqliteDriver,
  describeSqliteDriver,
  parseSqliteDriverChoice,
  sqliteDriver,
} from '../core/index/sqlite';
import { describeFilter, ProblemTreeProvider, type Node, type TreeFilter } from './problemTree';
import { SAMPLE_SCHEME, SampleDocumentProvider, parseSampleUri, previewUri, sampleUri } from './sampleDocument';
import { FolderSession, readSettings } from './session';
import { registerPanels } from './problemPanel';
import { trainingFilterTitle, trainingSeries } from './panelData';
import { registerWalkthrough } from './walkthrough';

const INDEX_GLOB = '**/*.{jsonl,json,eval}';

/** Extension state: one session per workspace folder, the tree, and the shared UI pieces. */
class Extension implements vscode.Disposable {
  private readonly sessions = new Map<string, FolderSession>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly output = vscode.window.createOutputChannel('Trace Inspector');
  readonly diagnostics = vscode.languages.createDiagnosticCollection('traceInspector');
  readonly tree = new ProblemTreeProvider(() => this.active());
  readonly docs = new SampleDocumentProvider((folder) => this.sessions.get(folder));
  readonly view: vscode.TreeView<Node>;
  readonly status = vscode.window.createStatusBarItem('traceInspector.status', vscode.StatusBarAlignment.Left, 50);
  private compareWith: { sampleId: number } | undefined;
  private watchTimer: NodeJS.Timeout | undefined;

  constructor(readonly context: vscode.ExtensionContext) {
    this.view = vscode.window.createTreeView('traceInspector.problems', {
      treeDataProvider: this.tree,
      showCollapseAll: true,
      canSelectMany: true,
    });
    this.status.name = 'Trace Inspector';
    this.status.command = 'traceInspector.chooseBaseModel';
    this.disposables.push(
      this.output,
      this.diagnostics,
      this.tree,
      this.docs,
      this.view,
      this.status,
      vscode.workspace.registerTextDocumentContentProvider(SAMPLE_SCHEME, this.docs),
    );
  }

  /** The session of the first workspace folder (the folder the tree shows). */
  active(): FolderSession | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return undefined;
    let s = this.sessions.get(folder.uri.toString());
    if (!s) {
      s = new FolderSession(folder, this.context, this.output, this.diagnostics);
      this.sessions.set(folder.uri.toString(), s);
      s.onDidChange(() => this.onSessionChanged());
      this.disposables.push(s);
    }
    return s;
  }

  onSessionChanged(): void {
    this.tree.refresh();
    this.docs.refreshAll();
    this.updateChrome();
  }

  /** View description (active filter) and status bar summary. */
  updateChrome(): void {
    const s = this.active();
    if (!s) {
      this.status.hide();
      return;
    }
    const base = s.baseModel();
    const pending = s.focusPending();
    const focus = pending ? undefined : s.focusModel();
    const desc = describeFilter(this.tree.filter, focus, base);
    if (this.tree.filter.kind === 'all') this.tree.lastCount = s.index.countProblems();
    // What the index holds so far, while indexing runs or after it was stopped: names only what is indexed.
    const waiting = s.isIndexing ? 'indexing…' : 'not indexed yet';
    const state = s.isIndexing
      ? 'Indexing: figures so far'
      : s.indexIncomplete()
        ? 'Index incomplete: indexing was stopped (run Index Folder to finish)'
        : '';
    this.view.description =
      this.tree.filter.kind === 'all'
        ? `${this.tree.lastCount} problems${focus ? ` · model: ${focus.label}` : pending ? ` · model: ${waiting}` : ''}`
        : `${desc} (${this.tree.lastCount})`;
    // The description is hidden when the container holds one view: the message above the tree is not.
    const comparing = pending
      ? `Model: ${waiting}${
          !base
            ? ''
            : s.baseModelIsGuess()
              ? ` · indexed so far: ${s
                  .models()
                  .map((m) => m.label)
                  .join(', ')}`
              : ` · base: ${base.label}`
        }`
      : focus
        ? base && base.id !== focus.id
          ? `Model: ${focus.label} · base: ${base.label}`
          : `Model: ${focus.label}`
        : '';
    const filtered =
      this.tree.filter.kind === 'all'
        ? ''
        : `${desc}: ${this.tree.lastCount} problem${this.tree.lastCount === 1 ? '' : 's'} (Clear Filter to show all).`;
    this.view.message = [state, filtered, comparing].filter(Boolean).join(' · ') || undefined;
    void vscode.commands.executeCommand('setContext', 'traceInspector.indexing', s.isIndexing);
    void vscode.commands.executeCommand('setContext', 'traceInspector.filtered', this.tree.filter.kind !== 'all');
    void vscode.commands.executeCommand('setContext', 'traceInspector.groupBy', this.tree.mode);
    if (s.isIndexing) return;
    const models = s.models();
    const samples = models.reduce((a, m) => a + m.samples, 0);
    this.status.text = `$(beaker) ${samples.toLocaleString('en-US')} samples · base: ${base?.label ?? '—'}${focus && focus.id !== base?.id ? ` · model: ${focus.label}` : ''}`;
    this.status.tooltip = new vscode.MarkdownString(undefined, false);
    this.status.tooltip.appendText(
      `Trace Inspector — ${models.length} models, ${samples} samples\nBase model: ${base?.label ?? '—'}${s.baseModelIsGuess() ? ' (guessed)' : ''}\nModel in focus: ${focus?.label ?? '—'}\nClick to change the base model.`,
    );
    this.status.show();
  }

  /**
   * Runs an indexing pass. `command` (Index Folder, Rebuild Index) and `auto` (the first indexing when
   * a folder opens) show a cancellable progress notification; `watch` (files changed while open) shows
   * progress in the view, and **Cancel Indexing** in the view's title bar stops any pass.
   */
  async index(mode: 'command' | 'auto' | 'watch'): Promise<void> {
    const withNotification = mode !== 'watch';
    const s = this.active();
    if (!s) {
      void vscode.window.showWarningMessage('Trace Inspector: open a results folder first.');
      return;
    }
    const run = async (
      progress?: vscode.Progress<{ message?: string; increment?: number }>,
      token?: vscode.CancellationToken,
    ) => {
      this.status.text = '$(sync~spin) Indexing…';
      this.status.show();
      this.tree.refresh();
      this.updateChrome();
      const summary = await s.reindex(token, (p) => {
        const msg =
          p.phase === 'index'
            ? `${p.filesDone}/${p.filesTotal} files, ${p.samples.toLocaleString('en-US')} samples`
            : p.phase === 'fts'
              ? 'building full-text index'
              : p.phase;
        progress?.report({ message: msg });
        this.status.text = `$(sync~spin) Indexing ${msg}`;
      });
      if (summary?.cancelled) {
        const models = s.models().length;
        void vscode.window
          .showInformationMessage(
            `Trace Inspector: indexing stopped. The index holds ${models} model${models === 1 ? '' : 's'} so far; figures cover what is indexed.`,
            'Index Folder',
          )
          .then((c) => c && vscode.commands.executeCommand('traceInspector.index'));
        return;
      }
      if (summary && summary.diagnostics.length && mode === 'command') {
        void vscode.window
          .showWarningMessage(
            `Trace Inspector: ${summary.diagnostics.length} problems in the results files (see the Problems panel).`,
            'Show Problems',
          )
          .then((c) => c && vscode.commands.executeCommand('workbench.actions.view.problems'));
      }
    };
    if (withNotification) {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Trace Inspector: indexing ${s.folder.name}`,
          cancellable: true,
        },
        (progress, token) => run(progress, token),
      );
    } else {
      await vscode.window.withProgress({ location: { viewId: 'traceInspector.problems' } }, () => run());
    }
  }

  setFilter(f: TreeFilter): void {
    this.tree.filter = f;
    this.tree.refresh();
    // lastCount is updated while the tree renders; update the description right after.
    const s = this.active();
    if (s) {
      const rf = this.tree.resolveFilter(s);
      this.tree.lastCount = rf.kind === 'problems' ? rf.problemIds.length : s.index.countProblems(rf);
    }
    this.updateChrome();
  }

  /** Watches results files and re-indexes changed ones (debounced); re-imports an edited annotation mirror. */
  watch(): void {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, INDEX_GLOB));
    const onChange = (uri: vscode.Uri) => {
      const s = this.active();
      if (!s) return;
      if (uri.path.includes('/.trace-inspector/')) {
        if (uri.fsPath === s.annotations.mirrorPath && !s.isIndexing) {
          const r = s.annotations.importJsonl(uri.fsPath);
          if (r.added || r.updated) s.fireChanged();
        }
        return;
      }
      if (!readSettings(folder).autoIndex || !vscode.workspace.isTrusted) return;
      clearTimeout(this.watchTimer);
      this.watchTimer = setTimeout(() => void this.index('watch'), 1500);
    };
    watcher.onDidChange(onChange);
    watcher.onDidCreate(onChange);
    watcher.onDidDelete(onChange);
    this.disposables.push(watcher);
  }

  /** The sample a command applies to: a tree node, `{ sampleId }`, or the active sample tab. */
  sampleIdOf(arg: unknown): number | undefined {
    if (arg && typeof arg === 'object') {
      const a = arg as { type?: string; sample?: { id: number }; sampleId?: unknown };
      if (a.type === 'sample' && a.sample) return a.sample.id;
      if (typeof a.sampleId === 'number') return a.sampleId;
    }
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const addr = uri ? parseSampleUri(uri) : undefined;
    if (addr) return this.sessions.get(addr.folder)?.index.findSample(addr.problemKey, addr.modelKey, addr.sampleIndex);
    return undefined;
  }

  async openSample(arg: unknown, preview = false): Promise<void> {
    const s = this.active();
    const id = this.sampleIdOf(arg);
    if (!s || id === undefined) {
      void vscode.window.showInformationMessage('Trace Inspector: select a sample in the Problems tree first.');
      return;
    }
    const uri = sampleUri(s, { id });
    if (!uri) return;
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    if (preview) await vscode.commands.executeCommand('markdown.showPreviewToSide', previewUri(uri));
    else await vscode.window.showTextDocument(doc, { preview: true });
  }

  async annotate(arg: unknown): Promise<void> {
    const s = this.active();
    const id = this.sampleIdOf(arg);
    const ref = id !== undefined ? s?.annotations.refOf(id) : undefined;
    if (!s || !ref) {
      void vscode.window.showInformationMessage('Trace Inspector: open or select a sample to annotate.');
      return;
    }
    const current = s.annotations.get(ref);
    const labels = [...new Set([...STANDARD_LABELS, ...s.annotations.labelsInUse(), ...(current?.labels ?? [])])];
    const CUSTOM = '$(add) Custom label…';
    const picked = await vscode.window.showQuickPick(
      [
        ...labels.map((l) => ({ label: l, picked: current?.labels.includes(l) ?? false })),
        { label: CUSTOM, picked: false },
      ],
      {
        canPickMany: true,
        title: 'Annotate sample: labels',
        placeHolder: 'Select labels (Space toggles), Enter to continue',
      },
    );
    if (!picked) return;
    const chosen = picked.filter((p) => p.label !== CUSTOM).map((p) => p.label);
    if (picked.some((p) => p.label === CUSTOM)) {
      const custom = await vscode.window.showInputBox({
        title: 'Custom label',
        prompt: 'A short label for this sample',
      });
      if (custom?.trim()) chosen.push(custom.trim());
    }
    const note = await vscode.window.showInputBox({
      title: 'Annotate sample: note',
      prompt: 'Free-text note (optional)',
      value: current?.note ?? '',
    });
    if (note === undefined) return;
    try {
      s.annotations.set(ref, chosen, note);
    } catch (e) {
      void vscode.window.showErrorMessage(
        `Trace Inspector: the annotation was not saved (${(e as Error).message}); try again when indexing finishes.`,
      );
      return;
    }
    const mirror = s.annotations.writeMirror();
    if (!mirror.ok)
      void vscode.window.showWarningMessage(
        `Trace Inspector: annotation saved in the index, but the mirror file could not be written: ${mirror.error}`,
      );
    s.fireChanged();
  }

  async compare(arg: unknown, selected?: unknown[]): Promise<void> {
    const s = this.active();
    if (!s) return;
    // From the context menu VS Code passes the clicked node and the selection; from the palette,
    // nothing: then the tree's selection (two samples) or the active sample tab is used.
    const treeSelection = this.view.selection.filter((n) => n.type === 'sample');
    const source =
      selected && selected.length >= 2
        ? selected
        : arg === undefined && treeSelection.length >= 2
          ? treeSelection
          : [arg];
    const ids = source.map((x) => this.sampleIdOf(x)).filter((x): x is number => x !== undefined);
    let [a, b] = ids;
    if (b === undefined) {
      if (a === undefined) {
        void vscode.window.showInformationMessage(
          'Trace Inspector: select two samples in the tree (Ctrl/Cmd+click), then run "Compare Samples".',
        );
        return;
      }
      if (!this.compareWith || this.compareWith.sampleId === a) {
        this.compareWith = { sampleId: a };
        void vscode.window.showInformationMessage(
          'Trace Inspector: sample selected for comparison; now run "Compare Samples" on another sample (or select two samples in the tree).',
        );
        return;
      }
      b = a;
      a = this.compareWith.sampleId;
    }
    this.compareWith = undefined;
    const left = sampleUri(s, { id: a });
    const right = sampleUri(s, { id: b });
    if (!left || !right) return;
    const da = s.index.sample(a)!;
    const db = s.index.sample(b)!;
    const name = (d: typeof da) => `${s.index.model(d.modelId)?.label ?? '?'} #${d.sampleIndex}`;
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name(da)} ↔ ${name(db)}`);
  }

  async chooseModel(which: 'base' | 'focus'): Promise<void> {
    const s = this.active();
    if (!s) return;
    const models = s.models();
    if (!models.length) {
      void vscode.window.showInformationMessage('Trace Inspector: no models indexed yet.');
      return;
    }
    const current = which === 'base' ? s.baseModel() : s.focusModel();
    const pick = await vscode.window.showQuickPick(
      models.map((m) => ({
        label: m.label,
        description: `${m.problems} problems · ${m.correct}/${m.samples} correct`,
        detail: m.displayId,
        model: m,
        picked: m.id === current?.id,
      })),
      {
        title: which === 'base' ? 'Choose the base model' : 'Choose the model in focus (the model filters are about)',
        placeHolder: current ? `current: ${current.label}` : undefined,
      },
    );
    if (!pick) return;
    if (which === 'base') await s.setBaseModel(pick.model);
    else await s.setFocusModel(pick.model);
  }

  async pickFilter(): Promise<void> {
    const s = this.active();
    if (!s) return;
    const focus = s.focusModel();
    const base = s.baseModel();
    type Item = vscode.QuickPickItem & { filter?: TreeFilter; action?: 'search' | 'label' | 'level' };
    const items: Item[] = [
      { label: '$(list-flat) All problems', filter: { kind: 'all' } },
      {
        label: '$(error) Failing problems',
        description: `${focus?.label ?? 'model'} never solves them`,
        filter: { kind: 'failing' },
      },
      {
        label: '$(arrow-down) Lost by RL',
        description: `base solves, ${focus?.label ?? 'model'} never does`,
        filter: { kind: 'lost' },
      },
      {
        label: '$(arrow-up) Gained by RL',
        description: `${focus?.label ?? 'model'} solves, base ${base?.label ?? ''} never does`,
        filter: { kind: 'gained' },
      },
      {
        label: '$(graph) Low accuracy',
        description: `${focus?.label ?? 'model'} below ${Math.round(100 * readSettings(s.folder).lowAccuracyThreshold)}% correct`,
        filter: { kind: 'lowAccuracy' },
      },
      {
        label: '$(warning) Grader disagreements',
        description: 'the same answer (by answer equivalence) graded correct in one sample and incorrect in another',
        filter: { kind: 'graderDisagreements' },
      },
      ...this.trainingFilterItems(s),
      ...(s.index.levels().length ? [{ label: '$(layers) By difficulty level…', action: 'level' as const }] : []),
      { label: '$(tag) By annotation label…', action: 'label' },
      { label: '$(search) Search sample text…', action: 'search' },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: 'Filter problems',
      placeHolder: describeFilter(this.tree.filter, focus, base),
    });
    if (!pick) return;
    if (pick.filter) return this.setFilter(pick.filter);
    if (pick.action === 'search') return void vscode.commands.executeCommand('traceInspector.search');
    if (pick.action === 'level') {
      const levels = s.index.levels();
      if (!levels.length)
        return void vscode.window.showInformationMessage('Trace Inspector: this folder records no difficulty levels.');
      const level = await vscode.window.showQuickPick(levels, { title: 'Difficulty level' });
      if (level) this.setFilter({ kind: 'level', level });
    }
    if (pick.action === 'label') {
      const labels = s.annotations.labelsInUse();
      if (!labels.length)
        return void vscode.window.showInformationMessage('Trace Inspector: no annotation labels yet.');
      const label = await vscode.window.showQuickPick(labels, { title: 'Annotation label' });
      if (label) this.setFilter({ kind: 'label', label });
    }
  }

  /** "Lost during training" and "Solved only at late steps" for the series of the model in focus (else the first series). */
  private trainingFilterItems(s: FolderSession): (vscode.QuickPickItem & { filter: TreeFilter })[] {
    const focus = s.focusModel();
    const all = trainingSeries(s.index, {
      baseId: s.baseModel()?.id,
      focusId: focus?.id,
      baseIsChoice: !s.baseModelIsGuess(),
      stepPattern: readSettings(s.folder).stepPattern,
    }).trajectories;
    const t = all.find((x) => focus !== undefined && x.ids.models.includes(focus.id)) ?? all[0];
    if (!t) return [];
    return (['lost', 'late'] as const).map((which) => ({
      label: which === 'lost' ? '$(arrow-down) Lost during training' : '$(history) Solved only at late steps',
      description: trainingFilterTitle(t, which).replace(/^[^:]*\(/, '('),
      filter: { kind: 'training', which, series: t.name, title: trainingFilterTitle(t, which) },
    }));
  }

  register(): void {
    // biome-ignore lint/suspicious/noExplicitAny: VS Code passes command arguments untyped (registerCommand's own signature)
    const cmd = (id: string, fn: (...args: any[]) => unknown) =>
      this.disposables.push(vscode.commands.registerCommand(id, fn));
    cmd('traceInspector.index', () => this.index('command'));
    cmd('traceInspector.cancelIndexing', () => this.active()?.cancelIndexing());
    cmd('traceInspector.rebuildIndex', async () => {
      const s = this.active();
      if (!s) return;
      if (s.isIndexing) {
        void vscode.window.showInformationMessage('Trace Inspector: indexing is running; rebuild when it finishes.');
        return;
      }
      s.index.clearIndexedData(); // every file is then re-read; annotations are kept
      s.fireChanged();
      await this.index('command');
    });
    cmd('traceInspector.filter', () => this.pickFilter());
    cmd('traceInspector.filterProblems', (f: unknown) => {
      const v = validateFilter(f);
      if (v) this.setFilter(v);
      else void vscode.window.showErrorMessage('Trace Inspector: invalid filter');
    });
    cmd('traceInspector.search', async (q?: string) => {
      const query =
        typeof q === 'string'
          ? q
          : await vscode.window.showInputBox({
              title: 'Search sample text',
              prompt:
                'Samples holding every one of these words, anywhere (case and accents ignored; no phrases, OR or wildcards)',
            });
      if (query?.trim()) this.setFilter({ kind: 'search', query: query.trim() });
    });
    cmd('traceInspector.clearFilter', () => this.setFilter({ kind: 'all' }));
    cmd('traceInspector.groupByModel', () => {
      this.tree.mode = 'model';
      this.tree.refresh();
      this.updateChrome();
    });
    cmd('traceInspector.groupByProblem', () => {
      this.tree.mode = 'problem';
      this.tree.refresh();
      this.updateChrome();
    });
    cmd('traceInspector.chooseBaseModel', () => this.chooseModel('base'));
    cmd('traceInspector.chooseFocusModel', () => this.chooseModel('focus'));
    cmd('traceInspector.openSample', (arg: unknown) => this.openSample(arg));
    cmd('traceInspector.openSamplePreview', (arg: unknown) => this.openSample(arg, true));
    cmd('traceInspector.annotate', (arg: unknown) => this.annotate(arg));
    cmd('traceInspector.clearAnnotation', (arg: unknown) => {
      const s = this.active();
      const id = this.sampleIdOf(arg);
      const ref = id !== undefined ? s?.annotations.refOf(id) : undefined;
      if (s && ref) {
        s.annotations.remove(ref);
        s.fireChanged();
      }
    });
    cmd('traceInspector.compareSamples', (arg: unknown, selected?: unknown[]) => this.compare(arg, selected));
    cmd('traceInspector.selectForCompare', (arg: unknown) => {
      const id = this.sampleIdOf(arg);
      this.compareWith = id !== undefined ? { sampleId: id } : undefined;
    });
    cmd('traceInspector.loadMore', (node: Node) => {
      if (node?.type === 'more') node.load();
    });
    cmd('traceInspector.exportAnnotations', async () => {
      const s = this.active();
      if (!s) return;
      const target = await vscode.window.showSaveDialog({
        filters: { 'JSON Lines': ['jsonl'] },
        defaultUri: vscode.Uri.joinPath(s.folder.uri, 'annotations.jsonl'),
      });
      if (!target) return;
      const n = s.annotations.exportJsonl(target.fsPath, true);
      void vscode.window.showInformationMessage(`Trace Inspector: exported ${n} annotations.`);
    });
    cmd('traceInspector.importAnnotations', async () => {
      const s = this.active();
      if (!s) return;
      const [file] =
        (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'JSON Lines': ['jsonl'] } })) ?? [];
      if (!file) return;
      const r = s.annotations.importJsonl(file.fsPath, vscode.workspace.asRelativePath(file));
      if (r.diagnostics.length) s.publishDiagnostics([...s.index.diagnostics(), ...r.diagnostics]);
      void vscode.window.showInformationMessage(
        `Trace Inspector: imported ${r.added} new and ${r.updated} updated annotations${r.diagnostics.length ? `; ${r.diagnostics.length} bad lines (see Problems)` : ''}.`,
      );
      s.fireChanged();
    });
    cmd('traceInspector.showOutput', () => this.output.show());
    this.disposables.push(...registerPanels(this.context, () => this.active()));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('traceInspector.sqliteDriver')) {
          // One SQLite driver per process (two copies of SQLite on one file can corrupt it): a new
          // choice applies to the next extension host.
          void vscode.window.showInformationMessage(
            'Trace Inspector: the SQLite driver changes when the window is reloaded (Developer: Reload Window).',
          );
        }
        if (e.affectsConfiguration('traceInspector')) this.onSessionChanged();
        // another threshold changes which samples are graded: read the folder again
        if (e.affectsConfiguration('traceInspector.correctThreshold')) void this.autoIndex();
        // another Inspect scorer gives other verdicts, another mapping file other records: the folder is read again
        if (e.affectsConfiguration('traceInspector.scorer') || e.affectsConfiguration('traceInspector.mappingFile'))
          void this.autoIndex();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.autoIndex()),
    );
  }

  async autoIndex(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return;
    const s = this.active();
    this.updateChrome();
    if (!s || !readSettings(folder).autoIndex) return;
    if (!vscode.workspace.isTrusted) {
      this.output.appendLine(
        '[index] Restricted Mode: automatic indexing is off; run "Trace Inspector: Index Folder" to index.',
      );
      return;
    }
    await this.index('auto');
  }

  dispose(): void {
    clearTimeout(this.watchTimer);
    for (const d of this.disposables.reverse()) d.dispose();
  }
}

/** Validates a filter passed to `traceInspector.filterProblems` (from webviews or other extensions). */
export function validateFilter(f: unknown): TreeFilter | undefined {
  if (!f || typeof f !== 'object') return undefined;
  const o = f as Record<string, unknown>;
  switch (o.kind) {
    case 'all':
    case 'failing':
    case 'lost':
    case 'gained':
    case 'graderDisagreements':
      return { kind: o.kind };
    case 'lowAccuracy':
      return typeof o.threshold === 'number' && o.threshold >= 0 && o.threshold <= 1
        ? { kind: 'lowAccuracy', threshold: o.threshold }
        : { kind: 'lowAccuracy' };
    case 'level':
      return typeof o.level === 'string' ? { kind: 'level', level: o.level } : undefined;
    case 'label':
      return typeof o.label === 'string' ? { kind: 'label', label: o.label } : undefined;
    case 'search':
      return typeof o.query === 'string' && o.query.trim() ? { kind: 'search', query: o.query } : undefined;
    case 'training':
      return (o.which === 'lost' || o.which === 'late') &&
        (o.series === undefined || typeof o.series === 'string') &&
        (o.title === undefined || typeof o.title === 'string')
        ? {
            kind: 'training',
            which: o.which,
            series: o.series as string | undefined,
            title: o.title as string | undefined,
          }
        : undefined;
    case 'problems':
      return Array.isArray(o.problemIds) && o.problemIds.every((x) => Number.isInteger(x))
        ? {
            kind: 'problems',
            problemIds: o.problemIds as number[],
            title: typeof o.title === 'string' ? o.title : undefined,
          }
        : undefined;
    default:
      return undefined;
  }
}

let ext: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<{ extension: Extension } | undefined> {
  context.subscriptions.push(...registerWalkthrough(context));
  try {
    ext = new Extension(context);
  } catch (e) {
    if (e instanceof UnsupportedRuntimeError) {
      void vscode.window.showErrorMessage(`Trace Inspector: ${e.message}. Update VS Code to 1.101 or later.`);
      return undefined;
    }
    throw e;
  }
  context.subscriptions.push(ext);
  ext.register();
  ext.watch();
  try {
    // better-sqlite3, or node:sqlite where it cannot load (old glibc on a Remote-SSH host), unless the
    // setting (else TRACE_INSPECTOR_SQLITE_DRIVER) forces one; said once in the output channel.
    const setting = vscode.workspace.getConfiguration('traceInspector').get<string>('sqliteDriver');
    chooseSqliteDriver(parseSqliteDriverChoice(setting) ?? 'auto', 'setting');
    ext.output.appendLine(`[sqlite] ${describeSqliteDriver(sqliteDriver())}`);
    ext.active();
  } catch (e) {
    const msg = (e as Error).message;
    ext.output.appendLine(`[index] cannot open the index: ${msg}`);
    void vscode.window.showErrorMessage(
      `Trace Inspector: cannot open the index: ${msg}${e instanceof UnsupportedRuntimeError ? ' (see the README, "Supported hosts")' : ''}`,
    );
    return { extension: ext };
  }
  void ext.autoIndex();
  return { extension: ext };
}

export function deactivate(): void {
  ext?.dispose();
  ext = undefined;
}
