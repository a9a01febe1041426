import * as vscode from 'vscode';
import {
  UnsupportedRuntimeError,
  chooseSqliteDriver,
  describeSqliteDriver,
  parseSqliteDriverChoice,
  sqliteDriver,
} from '../core/index/sqlite';
import { focusRun, pairBaseGuessNote } from '../core/index/labels';
import { searchIndexPercent } from '../core/index/searchIndex';
import { plural } from '../core/text/strings';
import { registerCommands } from './commands';
import { registerLanguageModelTools } from './lmTools';
import { Navigator } from './navigation';
import {
  describeFilter,
  filterCountLine,
  pairLine,
  ProblemTreeProvider,
  type Node,
  type TreeFilter,
} from './problemTree';
import { SAMPLE_SCHEME, SampleDocumentProvider, parseSampleUri, sampleUri } from './sampleDocument';
import { FolderSession, readSettings } from './session';
import { AFTER_PASS_WORK } from './indexWorkerProtocol';
import { registerWalkthrough } from './walkthrough';
import { isQuietRecheck, restoredTreeFilter, storedTreeFilter, TREE_FILTER_KEY } from './restore';
import { treeRefreshNeeded } from './treeFilter';

const INDEX_GLOB = '**/*.{jsonl,json,eval,parquet}';
/** How long the tree must have been shown with no indexing pass before {@link Extension.onIdle} fires (ms). */
const IDLE_DELAY_MS = 300;

/** Extension state: one session per workspace folder, the tree, and the shared UI pieces. */
export class Extension implements vscode.Disposable {
  private readonly sessions = new Map<string, FolderSession>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly output = vscode.window.createOutputChannel('Trace Inspector');
  readonly diagnostics = vscode.languages.createDiagnosticCollection('traceInspector');
  readonly tree = new ProblemTreeProvider(() => this.active());
  readonly docs = new SampleDocumentProvider((folder) => this.sessionFor(folder));
  readonly view: vscode.TreeView<Node>;
  readonly status = vscode.window.createStatusBarItem('traceInspector.status', vscode.StatusBarAlignment.Left, 50);
  /** Where Next / Previous Sample start from (navigation.ts). */
  readonly nav: Navigator;
  /** The sample chosen with Select Sample for Compare, waiting for a second one. */
  compareWith: { sampleId: number } | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  /** The folder (URI string) whose re-index the watcher's timer will start, while it runs. */
  private watchDue: string | undefined;
  /** Folders whose results files changed while another folder was shown: re-indexed when shown. */
  private readonly stale = new Set<string>();
  /** The status bar's progress text of each folder whose pass runs in {@link index} (" 3/24 files, …"). */
  private readonly indexingStatus = new Map<FolderSession, string>();
  private readonly idle = new vscode.EventEmitter<void>();
  private idleTimer: NodeJS.Timeout | undefined;
  /**
   * The count of the filtered problems is to be computed again before the text above the tree says it
   * (a filter restored after a reload, the folder's index changed): the tree sets it only when it renders,
   * after that text is written.
   */
  private filterCountDue = false;
  /**
   * Fires {@link IDLE_DELAY_MS} after the Problems tree is shown with an indexed folder and no indexing pass
   * runs (the tree's first paint and indexing are over), again after each pass and each time the tree is
   * shown again: the problem panels warm the similarity worker then (problemPanel.ts, similarityRunner.ts).
   */
  readonly onIdle = this.idle.event;

  constructor(readonly context: vscode.ExtensionContext) {
    this.view = vscode.window.createTreeView('traceInspector.problems', {
      treeDataProvider: this.tree,
      showCollapseAll: true,
      canSelectMany: true,
    });
    this.nav = new Navigator(this);
    // the filter chosen before a window reload (trial 13 finding 12), when it is of the folder shown
    const shown = this.activeFolder()?.uri.toString();
    const kept = shown ? restoredTreeFilter(context.workspaceState.get(TREE_FILTER_KEY), shown) : undefined;
    if (kept) {
      this.tree.filter = kept;
      this.filterCountDue = true;
    }
    this.status.name = 'Trace Inspector';
    this.status.command = 'traceInspector.choosePair';
    this.disposables.push(
      this.idle,
      this.view.onDidChangeVisibility(() => this.checkIdle()),
      this.output,
      this.diagnostics,
      this.tree,
      this.docs,
      this.view,
      this.nav,
      this.status,
      vscode.workspace.registerFileSystemProvider(SAMPLE_SCHEME, this.docs, {
        isReadonly: true,
        isCaseSensitive: true,
      }),
    );
  }

  /**
   * The folder the tree shows: in a multi-root workspace the one chosen with Choose Results Folder
   * (stored per workspace), else the first folder.
   */
  activeFolder(): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const chosen = this.context.workspaceState.get<string>('traceInspector.activeFolder');
    return folders.find((f) => f.uri.toString() === chosen) ?? folders[0];
  }

  /** The session of the folder the tree shows (see {@link activeFolder}). */
  active(): FolderSession | undefined {
    const folder = this.activeFolder();
    return folder ? this.sessionFor(folder.uri.toString()) : undefined;
  }

  /** The session of a workspace folder (by URI string), opened on first use; undefined for other folders. */
  sessionFor(folderUri: string | undefined): FolderSession | undefined {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.toString() === folderUri);
    if (!folder) return undefined;
    let s = this.sessions.get(folder.uri.toString());
    if (!s) {
      s = new FolderSession(folder, this.context, this.output, this.diagnostics);
      this.sessions.set(folder.uri.toString(), s);
      const session = s;
      // a read that finds a changed file does not notify while the watcher's re-index of it is due
      const key = folder.uri.toString();
      s.reindexDue = () => this.watchDue === key;
      s.onDidChange(() => {
        if (session === this.active()) this.onSessionChanged();
        else this.docs.refreshAll();
      });
      // the after-pass work moved on (status only), ended (the grader audit's markers and filter are in: the tree
      // too), or the full-text index grew (the tree only under a search filter: a refresh re-creates the rows, and an
      // inline action clicked meanwhile would reach its command without its row)
      s.onDidChangeStatus((change) => {
        if (session !== this.active()) return;
        if (treeRefreshNeeded(change, this.tree.filter.kind)) {
          this.filterCountDue = true;
          this.tree.refresh();
        }
        this.updateChrome();
      });
      this.disposables.push(s);
    }
    return s;
  }

  /** The session a command argument's sample belongs to: its `folder` (a panel of another folder), else the tree's. */
  sessionOfArg(arg: unknown): FolderSession | undefined {
    const folder = arg && typeof arg === 'object' ? (arg as { folder?: unknown }).folder : undefined;
    return typeof folder === 'string' ? this.sessionFor(folder) : this.active();
  }

  /**
   * Under the search filter while the full-text index is not complete: how far it is and how many samples the
   * filter did not look through (`search index: 40%: 614,400 samples not searched yet`); undefined otherwise.
   */
  private searchIndexText(s: FolderSession): string | undefined {
    if (this.tree.filter.kind !== 'search') return undefined;
    const st = s.searchIndex();
    if (st.indexed >= st.samples) return undefined;
    const left = `${plural(st.samples - st.indexed, 'sample')} not searched yet`;
    return s.searchIndexBuilding
      ? `search index: ${searchIndexPercent(st)}: ${left}`
      : `search index: ${searchIndexPercent(st)}: ${left} (run Index Folder to finish it)`;
  }

  /**
   * Shows another workspace folder in the tree (multi-root workspaces): the filter is cleared, the
   * stored choice updated, and the folder indexed when it has not been yet or its files changed.
   */
  async setActiveFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    if (folder.uri.toString() === this.activeFolder()?.uri.toString()) return;
    await this.context.workspaceState.update('traceInspector.activeFolder', folder.uri.toString());
    this.tree.filter = { kind: 'all' };
    await this.context.workspaceState.update(TREE_FILTER_KEY, undefined);
    this.nav.reset();
    this.onSessionChanged();
    const s = this.active();
    if (s && (this.stale.delete(folder.uri.toString()) || s.index.models().length === 0)) await this.autoIndex();
  }

  onSessionChanged(): void {
    this.filterCountDue = true;
    this.tree.refresh();
    this.docs.refreshAll();
    this.updateChrome();
  }

  /**
   * The two models compared, short: `ppo@main vs sft@checkpoint-8-of-10 · 2048_batched` (a run both
   * labels end with is said once; `(guessed base)` after it when the overview warns the base is a guess:
   * {@link pairLine}); the model alone when it is the base or there is none.
   */
  pairText(s: FolderSession): string {
    const base = s.baseModel();
    const focus = s.focusModel();
    // a folder with one model says so (never "X vs X": trial 10 finding 6)
    const one = s.models().length === 1 ? ' (the only model)' : '';
    if (!focus) return base ? `${s.shortLabel(base)}${one}` : '';
    const f = s.shortLabel(focus);
    if (!base || base.id === focus.id) return `${f}${one}`;
    return pairLine(f, s.shortLabel(base), !!this.baseGuessNote(s));
  }

  /**
   * The overview's warning that the base is a guess, for the pair compared (core `pairBaseGuessNote`), or undefined
   * when the base was chosen, names a base, or is the model in focus (trial 13 finding 9).
   */
  baseGuessNote(s: FolderSession): string | undefined {
    const base = s.baseModel();
    const focus = s.focusModel();
    if (!base || !focus || base.id === focus.id || !s.baseModelIsGuess()) return undefined;
    return pairBaseGuessNote(base, focus, s.shortLabel(base), s.shortLabel(focus));
  }

  /**
   * The text above the tree (at most two lines at the default side-bar width: the filter with its
   * count, and the pair compared, in short labels), the view's description, the status bar (the pair,
   * short; the full ids, counts and how to change them in its tooltip) and context keys.
   */
  updateChrome(): void {
    this.checkIdle();
    const s = this.active();
    void vscode.commands.executeCommand('setContext', 'traceInspector.ready', !!s);
    if (!s) {
      this.status.hide();
      return;
    }
    const base = s.baseModel();
    const pending = s.focusPending();
    const focus = pending ? undefined : s.focusModel();
    const desc = describeFilter(this.tree.filter, focus, base, (m) => s.shortLabel(m));
    if (this.tree.filter.kind === 'all') this.tree.lastCount = s.index.countProblems();
    else if (this.filterCountDue) this.countFiltered(s);
    this.filterCountDue = false;
    // What the index holds so far, while indexing runs or after it was stopped: names only what is indexed.
    const waiting = s.isIndexing ? 'indexing…' : 'not indexed yet';
    const afterPass = s.afterPassWork;
    const state = s.isIndexing
      ? 'Indexing: figures so far'
      : s.indexIncomplete()
        ? 'Index incomplete: indexing was stopped (run Index Folder to finish)'
        : afterPass
          ? `Indexed; ${afterPassText(afterPass)}`
          : '';
    this.view.description =
      this.tree.filter.kind === 'all'
        ? `${this.tree.lastCount} problems${pending ? ` · model: ${waiting}` : ''}`
        : `${desc} (${this.tree.lastCount})${this.tree.filter.kind === 'search' && s.searchIndex().indexed < s.searchIndex().samples ? ` · search index: ${searchIndexPercent(s.searchIndex())}` : ''}`;
    // The description is hidden when the container holds one view: the message above the tree is not.
    // While the model in focus is not indexed yet, the line names only what is indexed.
    const pair = pending
      ? `model: ${waiting}${
          !base
            ? ''
            : s.baseModelIsGuess()
              ? ` · indexed so far: ${s
                  .models()
                  .map((m) => s.shortLabel(m))
                  .join(', ')}`
              : ` · base ${s.shortLabel(base)}`
        }`
      : this.pairText(s);
    const n = this.tree.lastCount;
    // Several workspace folders: the line says which one the tree shows.
    const where = (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${s.folder.name}: ` : '';
    const line =
      this.tree.filter.kind === 'all'
        ? `${where}${pair}`
        : `${where}${filterCountLine(this.tree.filter, n, focus)}${pair ? ` · ${pair}` : ''}`;
    this.view.message = [state, line, this.searchIndexText(s)].filter(Boolean).join(' · ') || undefined;
    void vscode.commands.executeCommand(
      'setContext',
      'traceInspector.multiRoot',
      (vscode.workspace.workspaceFolders?.length ?? 0) > 1,
    );
    void vscode.commands.executeCommand('setContext', 'traceInspector.indexing', s.isIndexing);
    void vscode.commands.executeCommand('setContext', 'traceInspector.filtered', this.tree.filter.kind !== 'all');
    void vscode.commands.executeCommand('setContext', 'traceInspector.groupBy', this.tree.mode);
    if (this.updateStatus(s)) return;
    const models = s.models();
    const samples = models.reduce((a, m) => a + m.samples, 0);
    this.status.text = `$(beaker) ${pair || 'no models'}`;
    // what a screen reader says: the pair, and how much is indexed (the short text names only the pair)
    this.status.accessibilityInformation = {
      label: `Trace Inspector: ${pair || 'no models'}; ${models.length} model${models.length === 1 ? '' : 's'}, ${samples.toLocaleString('en-US')} sample${samples === 1 ? '' : 's'}`,
    };
    const guessNote = pending ? undefined : this.baseGuessNote(s);
    this.status.tooltip = new vscode.MarkdownString(undefined, false);
    this.status.tooltip.appendText(
      `Trace Inspector — ${models.length} model${models.length === 1 ? '' : 's'}, ${samples.toLocaleString('en-US')} sample${samples === 1 ? '' : 's'}\nModel in focus: ${focus?.displayId ?? '—'}\nBase model: ${base?.displayId ?? '—'}${guessNote ? ` (guessed: ${guessNote})` : s.baseModelIsGuess() ? " (guessed: its run's base)" : ''}${this.tree.filter.kind === 'all' ? '' : `\nFilter: ${desc}`}\nClick to choose the models compared.`,
    );
    this.status.show();
  }

  /**
   * While `s` is indexed (from the moment a pass is asked for, before its worker reports anything),
   * the status bar says "Indexing" and the pass's last progress; returns whether it did (else the
   * caller shows the pair). Every refresh while a pass runs keeps it, so the status bar never shows the
   * pair of a half-built index as if indexing were over.
   */
  updateStatus(s: FolderSession): boolean {
    const afterPass = s.afterPassWork;
    if (afterPass) {
      // every file is read: not "Indexing" and not done; what still runs
      this.status.text = `$(sync~spin) Indexed · ${afterPass}…`;
      this.status.accessibilityInformation = { label: `Trace Inspector: indexed; ${afterPassText(afterPass)}` };
      this.status.tooltip = `Trace Inspector: ${s.folder.name} is indexed (every figure is final); ${afterPassText(afterPass)}`;
      this.status.show();
      return true;
    }
    const progress = this.indexingStatus.get(s) ?? (s.isIndexing ? '…' : undefined);
    if (progress === undefined) return false;
    this.status.text = `$(sync~spin) Indexing${progress}`;
    this.status.accessibilityInformation = { label: `Trace Inspector: indexing${progress}` };
    this.status.tooltip = `Trace Inspector: indexing ${s.folder.name}`;
    this.status.show();
    return true;
  }

  /**
   * The first time a folder with several runs is indexed and nobody chose the models: says which
   * pair was chosen (the final model of the last run against its own run's base) and offers the
   * change in one click. Once per folder. VS Code cannot take a notification back, so its text tells what was
   * chosen and where the pair in use is shown (the status bar), which stays true after another pair is chosen.
   */
  async announcePair(): Promise<void> {
    const s = this.active();
    if (!s || !s.baseModelIsGuess() || s.focusModelIsChoice()) return;
    const models = s.models();
    // Several runs: run folders, or (Qwen2.5-Math's layout, every model at the root) the folders of the names.
    if (new Set(models.map(focusRun)).size < 2) return;
    const focus = s.focusModel();
    const base = s.baseModel();
    if (!focus || !base || focus.id === base.id || !(await s.pairNoticeDue())) return;
    const choice = await vscode.window.showInformationMessage(
      `Trace Inspector chose the pair from the names: ${s.shortLabel(focus)}, the final model of the last run (${focusRun(focus) || '.'}), against the base ${s.shortLabel(base)}. The status bar shows the pair in use.`,
      'Compare Another Pair…',
    );
    if (choice) await vscode.commands.executeCommand('traceInspector.choosePair');
  }

  /**
   * Runs an indexing pass. `command` (Index Folder, Rebuild Index) and `auto` (the first indexing when
   * a folder opens) show a cancellable progress notification; `watch` (files changed while open) shows
   * progress in the view, and **Cancel Indexing** in the view's title bar stops any pass. `recheck` (the
   * extension starts on a folder whose index holds samples: restore.ts isQuietRecheck) shows nothing and
   * refreshes no view unless the pass finds a file to read: the tree and the tabs a reload restores are
   * served from the index at once; once the pass reads a file it says so in the tree and the status bar.
   * The notification (and the view's progress) ends when every file is read: Cancel stops reading files, and
   * nothing is left for it to stop; the tree and the status bar then say what still runs (the grader audit:
   * FolderSession.afterPassWork) until the pass ends.
   */
  async index(mode: 'command' | 'auto' | 'watch' | 'recheck'): Promise<void> {
    const withNotification = mode === 'command' || mode === 'auto';
    const quiet = mode === 'recheck';
    const s = this.active();
    if (!s) {
      void vscode.window.showWarningMessage('Trace Inspector: open a results folder first.');
      return;
    }
    // A request while a pass with the settings in effect runs (a second trigger at start, Index Folder
    // pressed during the first pass) joins it: no second notification, no second pass. Files changed
    // during a pass (`watch`) make one more pass after it: the running one may have read them before.
    if (s.passRunning && s.indexSettingsCurrent() && mode !== 'watch' && !quiet) {
      await s.reindex();
      return;
    }
    const run = async (
      progress?: vscode.Progress<{ message?: string; increment?: number }>,
      token?: vscode.CancellationToken,
    ) => {
      if (!quiet) {
        this.indexingStatus.set(s, '…');
        this.tree.refresh();
        this.updateChrome();
      }
      let summary: Awaited<ReturnType<FolderSession['reindex']>>;
      let notice = '';
      try {
        summary = await s.reindex(
          token,
          (p) => {
            // every file is read: the notification ends (the session then says what still runs)
            if (p.phase === 'done') {
              filesRead();
              return;
            }
            // the pass's notice (an index built by older readers is read again) stays until the pass ends
            if (p.notice) notice = `${p.notice}; `;
            const msg =
              p.phase === 'index'
                ? `${notice}${p.filesDone}/${p.filesTotal} files, ${p.samples.toLocaleString('en-US')} samples`
                : `${notice}${p.phase}`;
            progress?.report({ message: msg });
            // a quiet re-check says nothing until it reads a file (the session then counts it as indexing)
            if (quiet && !s.isIndexing) return;
            this.indexingStatus.set(s, ` ${msg}`);
            this.updateStatus(s);
          },
          mode === 'watch',
          quiet,
        );
      } finally {
        const shown = this.indexingStatus.delete(s);
        if (!quiet || shown) this.updateChrome();
      }
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
      if (summary) void this.announcePair();
      if (summary && summary.diagnostics.length && mode === 'command') {
        void vscode.window
          .showWarningMessage(
            `Trace Inspector: ${summary.diagnostics.length} problems in the results files (see the Problems panel).`,
            'Show Problems',
          )
          .then((c) => c && vscode.commands.executeCommand('workbench.actions.view.problems'));
      }
    };
    let filesRead: () => void = () => undefined;
    const read = new Promise<void>((resolve) => {
      filesRead = resolve;
    });
    // the progress shown ends when the pass does or when every file is read, whichever comes first
    let pass: Promise<void> | undefined;
    const shown = (p: Promise<void>) => {
      pass = p;
      return Promise.race([p, read]);
    };
    if (quiet) {
      await run();
    } else if (withNotification) {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Trace Inspector: indexing ${s.folder.name}`,
          cancellable: true,
        },
        (progress, token) => shown(run(progress, token)),
      );
    } else {
      await vscode.window.withProgress({ location: { viewId: 'traceInspector.problems' } }, () => shown(run()));
    }
    await pass;
  }

  /**
   * Shows the problems of filter `f` in the tree, and keeps it in workspace state for the folder shown, so
   * that it comes back after a window reload (restore.ts storedTreeFilter: not a list of problem row ids).
   */
  setFilter(f: TreeFilter): void {
    this.tree.filter = f;
    const folder = this.activeFolder()?.uri.toString();
    if (folder) void this.context.workspaceState.update(TREE_FILTER_KEY, storedTreeFilter(folder, f));
    this.tree.refresh();
    // lastCount is updated while the tree renders; update the description right after.
    const s = this.active();
    if (s) this.countFiltered(s);
    this.updateChrome();
  }

  /** The number of problems the tree's filter shows in folder `s` (the tree's `lastCount`). */
  private countFiltered(s: FolderSession): void {
    const rf = this.tree.resolveFilter(s);
    this.tree.lastCount = rf.kind === 'problems' ? rf.problemIds.length : s.index.countProblems(rf);
  }

  /** Watches results files and re-indexes changed ones (debounced); re-imports an edited annotation mirror. */
  watch(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(INDEX_GLOB);
    const onChange = (uri: vscode.Uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (!folder) return;
      const s = this.sessions.get(folder.uri.toString());
      if (uri.path.includes('/.trace-inspector/')) {
        if (s && uri.fsPath === s.annotations.mirrorPath && !s.passRunning) {
          const r = s.annotations.importJsonl(uri.fsPath);
          if (r.added || r.updated) s.fireChanged();
        }
        return;
      }
      if (!readSettings(folder).autoIndex || !vscode.workspace.isTrusted) return;
      if (folder.uri.toString() !== this.activeFolder()?.uri.toString()) {
        this.stale.add(folder.uri.toString());
        return;
      }
      clearTimeout(this.watchTimer);
      this.watchDue = folder.uri.toString();
      this.watchTimer = setTimeout(() => {
        this.watchDue = undefined;
        void this.index('watch');
      }, 1500);
    };
    watcher.onDidChange(onChange);
    watcher.onDidCreate(onChange);
    watcher.onDidDelete(onChange);
    this.disposables.push(
      watcher,
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) {
          const key = f.uri.toString();
          this.sessions.get(key)?.dispose();
          this.sessions.delete(key);
        }
        this.onSessionChanged();
        void this.autoIndex();
      }),
    );
  }

  /** The sample a command applies to: a tree node, `{ sampleId }`, or the active sample tab. */
  sampleIdOf(arg: unknown): number | undefined {
    if (arg && typeof arg === 'object') {
      const a = arg as { type?: string; sample?: { id: number }; sampleId?: unknown };
      if (a.type === 'sample' && a.sample) return a.sample.id;
      if (typeof a.sampleId === 'number') return a.sampleId;
    }
    // No argument (a keybinding, the palette): the sample the user last looked at or selected.
    const last = arg === undefined ? this.nav.currentSample() : undefined;
    if (last !== undefined) return last;
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const addr = uri ? parseSampleUri(uri) : undefined;
    if (addr) return this.sessions.get(addr.folder)?.index.findSample(addr.problemKey, addr.modelKey, addr.sampleIndex);
    return undefined;
  }

  /**
   * Opens a sample: as text in a (reusable) editor tab, or with `preview` in the one sample preview
   * tab. `preserveFocus` keeps the keyboard where it is (stepping through samples).
   */
  async openSample(arg: unknown, preview = false, preserveFocus = false): Promise<void> {
    const s = this.sessionOfArg(arg);
    const id = this.sampleIdOf(arg);
    if (!s || id === undefined) {
      void vscode.window.showInformationMessage('Trace Inspector: select a sample in the Problems tree first.');
      return;
    }
    if (s === this.active()) this.nav.shown(id);
    if (preview) {
      // The project's own preview (markdown.ts + KaTeX + DOMPurify under a strict CSP), one reused tab.
      await vscode.commands.executeCommand(
        'traceInspector.showSamplePreview',
        { sampleId: id, folder: s.folder.uri.toString() },
        preserveFocus,
      );
      return;
    }
    const uri = sampleUri(s, { id });
    if (!uri) return;
    const doc = await vscode.workspace.openTextDocument(uri);
    // Markdown for its outline; a long sample stays plain text (sampleUri: `.txt`), which the editor does not tokenize
    if (uri.path.endsWith('.md')) await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus });
  }

  /**
   * A setting an indexing pass reads changed (`correctThreshold`, `scorer`, `mappingFile`, …): the
   * folder is indexed again when the settings in effect differ from those of the last (or running)
   * pass. VS Code also fires the event when a setting is written again with its value, or set in
   * another scope to the value in effect: then nothing is re-read.
   */
  async indexIfSettingsChanged(): Promise<void> {
    const s = this.active();
    if (s?.indexSettingsCurrent()) return;
    await this.autoIndex();
  }

  /**
   * Indexes the folder the tree shows when `traceInspector.autoIndex` is on and the workspace is trusted.
   * `atStart` (the extension starts, e.g. after a window reload): a folder whose index holds samples is only
   * re-checked, quietly (see {@link index} `recheck`).
   */
  async autoIndex(atStart = false): Promise<void> {
    const folder = this.activeFolder();
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
    const samples = s.models().reduce((a, m) => a + m.samples, 0);
    await this.index(isQuietRecheck(atStart, samples) ? 'recheck' : 'auto');
  }

  /**
   * Schedules {@link onIdle} when the tree is visible, the folder it shows has samples indexed and no
   * folder is being indexed; the conditions are checked again when the delay ends.
   */
  private checkIdle(): void {
    const ready = () => {
      const s = this.active();
      return (
        this.view.visible &&
        !!s &&
        !s.passRunning &&
        ![...this.sessions.values()].some((x) => x.passRunning) &&
        s.index.models().some((m) => m.samples > 0)
      );
    };
    if (this.idleTimer || !ready()) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (ready()) this.idle.fire();
    }, IDLE_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.watchTimer);
    for (const d of this.disposables.reverse()) d.dispose();
  }
}

/**
 * The work after a pass's files were read (FolderSession.afterPassWork), in words for the tree and the status
 * bar's tooltip: what runs and what waits for it.
 */
export function afterPassText(work: string): string {
  return work === AFTER_PASS_WORK
    ? 'the grader audit still runs (the ⚑ markers and the Grader disagreements filter wait for it)'
    : `${work} still runs`;
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
  context.subscriptions.push(...registerCommands(ext));
  const shown = ext;
  context.subscriptions.push(...registerLanguageModelTools(() => shown.active()));
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
      `Trace Inspector: cannot open the index: ${msg}${e instanceof UnsupportedRuntimeError ? ' (see docs/hosts.md)' : ''}`,
    );
    return { extension: ext };
  }
  void ext.autoIndex(true);
  return { extension: ext };
}

export function deactivate(): void {
  ext?.dispose();
  ext = undefined;
}
