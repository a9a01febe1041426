/**
 * The Trace Inspector commands: their registration (ids as contributed in package.json) and the
 * handlers that are only user interface (quick picks, input boxes, dialogs). The state they act on
 * (sessions, the tree, the status bar) lives in the Extension of extension.ts ({@link CommandHost}).
 */
import { percent } from '../core/text/thresholds';
import * as vscode from 'vscode';
import { STANDARD_LABELS } from '../core/index/annotations';
import { problemNamer } from '../core/grouping/datasets';
import { comparisonPairs, guessBaseModel } from '../core/index/labels';
import type { ModelRow } from '../core/index/traceIndex';
import { PASS_SETTINGS } from './indexPasses';
import { type Navigator, registerNavigation } from './navigation';
import { problemIdOf, problemSelection, registerPanels } from './problemPanel';
import {
  describeFilter,
  type Node,
  noComparisonReason,
  pairFilterName,
  type ProblemTreeProvider,
  type TreeFilter,
} from './problemTree';
import { LABEL_PICKER_HINT, type LabelItem, labelPickerItems, labelsOnAccept } from './labelPicker';
import { sampleUri } from './sampleDocument';
import { trainingFilterTitle, trainingSeries } from './panelData';
import { readSettings, type FolderSession } from './session';
import { TREE_SPLIT_KINDS, type TreeSplitKind } from './splitGrouping';
import { splitKindCounts } from './splitsData';

/**
 * What the commands use of the extension state: the members of the Extension (extension.ts) they call, named
 * here so that this module does not import extension.ts, which imports it.
 */
export interface CommandHost {
  readonly context: vscode.ExtensionContext;
  readonly output: vscode.OutputChannel;
  readonly tree: ProblemTreeProvider;
  readonly view: vscode.TreeView<Node>;
  readonly nav: Navigator;
  /** Fires when the tree has been shown for a while with no indexing pass. */
  readonly onIdle: vscode.Event<void>;
  /** The sample chosen as the first of a comparison, until the second is chosen. */
  compareWith: { sampleId: number } | undefined;
  activeFolder(): vscode.WorkspaceFolder | undefined;
  active(): FolderSession | undefined;
  sessionFor(folderUri: string | undefined): FolderSession | undefined;
  sessionOfArg(arg: unknown): FolderSession | undefined;
  setActiveFolder(folder: vscode.WorkspaceFolder): Promise<void>;
  onSessionChanged(): void;
  updateChrome(): void;
  index(mode: 'command' | 'auto' | 'watch' | 'recheck'): Promise<void>;
  indexIfSettingsChanged(): Promise<void>;
  autoIndex(atStart?: boolean): Promise<void>;
  setFilter(f: TreeFilter): void;
  sampleIdOf(arg: unknown): number | undefined;
  openSample(arg: unknown, preview?: boolean, preserveFocus?: boolean): Promise<void>;
}

/** Registers one command; its disposable is kept for deactivation. */
// biome-ignore lint/suspicious/noExplicitAny: VS Code passes command arguments untyped (registerCommand's own signature)
type Register = (id: string, fn: (...args: any[]) => unknown) => void;

/** Registers every `traceInspector.*` command (and the panels' commands); returns what to dispose on deactivation. */
export function registerCommands(ext: CommandHost): vscode.Disposable[] {
  const disposables: vscode.Disposable[] = [];
  const cmd: Register = (id, fn) => {
    disposables.push(vscode.commands.registerCommand(id, fn));
  };
  registerIndexingCommands(ext, cmd);
  registerTreeCommands(ext, cmd);
  registerSampleCommands(ext, cmd);
  registerAnnotationFileCommands(ext, cmd);
  cmd('traceInspector.showOutput', () => ext.output.show());
  disposables.push(...registerPanelsAndNavigation(ext), ...watchSettings(ext));
  return disposables;
}

/** Index Folder, Cancel Indexing, Rebuild Index. */
function registerIndexingCommands(ext: CommandHost, cmd: Register): void {
  cmd('traceInspector.index', () => ext.index('command'));
  cmd('traceInspector.cancelIndexing', () => {
    // the running pass stops, and the passes queued behind it (settings changed, files changed) are dropped
    const dropped = ext.active()?.cancelIndexing() ?? 0;
    if (dropped > 0)
      void vscode.window.showInformationMessage(
        `Trace Inspector: indexing cancelled, and ${dropped === 1 ? 'the queued pass' : `${dropped} queued passes`} dropped; Index Folder reads the folder with the settings in effect.`,
      );
  });
  cmd('traceInspector.rebuildIndex', async () => {
    const s = ext.active();
    if (!s) return;
    if (s.passRunning) {
      void vscode.window.showInformationMessage('Trace Inspector: indexing is running; rebuild when it finishes.');
      return;
    }
    s.index.clearIndexedData(); // every file is then re-read; annotations are kept
    s.fireChanged();
    await ext.index('command');
  });
}

/** The Problems tree: filters, search, grouping, the base, focus and pair models, the folder shown. */
function registerTreeCommands(ext: CommandHost, cmd: Register): void {
  cmd('traceInspector.filter', () => pickFilter(ext));
  cmd('traceInspector.filterProblems', (f: unknown) => {
    const v = validateFilter(f);
    if (v) ext.setFilter(v);
    else void vscode.window.showErrorMessage('Trace Inspector: invalid filter');
  });
  cmd('traceInspector.search', async (q?: string) => {
    const query =
      typeof q === 'string'
        ? q
        : await vscode.window.showInputBox({
            title: 'Search sample text',
            prompt:
              'Samples holding every one of these words, anywhere and in any order (case and accents ignored; no phrases, OR or wildcards; `trace-inspector search --as-typed` checks the query as typed)',
          });
    if (query?.trim()) ext.setFilter({ kind: 'search', query: query.trim() });
  });
  cmd('traceInspector.clearFilter', () => ext.setFilter({ kind: 'all' }));
  cmd('traceInspector.groupByModel', () => {
    ext.tree.mode = 'model';
    ext.tree.refresh();
    ext.updateChrome();
  });
  cmd('traceInspector.groupBySplit', async (kind?: unknown) => {
    const kinds = TREE_SPLIT_KINDS.map((k) => k.kind) as string[];
    let chosen = typeof kind === 'string' && kinds.includes(kind) ? (kind as TreeSplitKind) : undefined;
    if (!chosen) {
      // how many splits each kind gives here, as the Splits tab's picker says it (clusters are computed when chosen)
      const s = ext.active();
      const counts = s ? splitKindCounts(s.index) : [];
      const count = (k: TreeSplitKind) => {
        const n = counts.find((c) => c.kind === k)?.splits ?? null;
        if (n === null) return 'computed when chosen';
        return n === 0 ? 'none in this folder' : `${n} split${n === 1 ? '' : 's'}`;
      };
      const pick = await vscode.window.showQuickPick(
        TREE_SPLIT_KINDS.map((k) => ({
          label: k.title,
          description: `${count(k.kind)}${ext.tree.mode === 'split' && ext.tree.splitKind === k.kind ? ' · shown' : ''}`,
          detail: k.detail,
          splitKind: k.kind,
        })),
        { title: 'Group Problems by Split', placeHolder: 'Group the problems by…' },
      );
      if (!pick) return;
      chosen = pick.splitKind;
    }
    ext.tree.splitKind = chosen;
    ext.tree.mode = 'split';
    ext.tree.refresh();
    ext.updateChrome();
  });
  cmd('traceInspector.groupByProblem', () => {
    ext.tree.mode = 'problem';
    ext.tree.refresh();
    ext.updateChrome();
  });
  cmd('traceInspector.chooseBaseModel', () => chooseModel(ext, 'base'));
  cmd('traceInspector.chooseFocusModel', () => chooseModel(ext, 'focus'));
  cmd('traceInspector.choosePair', () => choosePair(ext));
  // Internal (not in package.json): a panel of another folder asks the tree to show its folder.
  cmd('traceInspector.showFolder', async (uri: unknown) => {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.toString() === uri);
    if (folder) await ext.setActiveFolder(folder);
  });
  cmd('traceInspector.chooseFolder', async () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const current = ext.activeFolder();
    const pick = await vscode.window.showQuickPick(
      folders.map((f) => ({
        label: f.name,
        description: f.uri.toString() === current?.uri.toString() ? '(shown)' : undefined,
        detail: f.uri.fsPath,
        folder: f,
      })),
      { title: 'Results folder to show in the Problems tree' },
    );
    if (pick) await ext.setActiveFolder(pick.folder);
  });
}

/** Samples: open, annotate, compare, and the tree's "load more" rows. */
function registerSampleCommands(ext: CommandHost, cmd: Register): void {
  cmd('traceInspector.openSample', (arg: unknown) => ext.openSample(arg));
  cmd('traceInspector.openSamplePreview', (arg: unknown) => ext.openSample(arg, true));
  cmd('traceInspector.annotate', (arg: unknown) => annotate(ext, arg));
  cmd('traceInspector.clearAnnotation', (arg: unknown) => {
    const s = ext.sessionOfArg(arg);
    const id = ext.sampleIdOf(arg);
    const ref = id !== undefined ? s?.annotations.refOf(id) : undefined;
    if (s && ref) {
      s.annotations.remove(ref);
      s.fireChanged();
    }
  });
  cmd('traceInspector.compareSamples', (arg: unknown, selected?: unknown[]) => compare(ext, arg, selected));
  cmd('traceInspector.selectForCompare', (arg: unknown) => {
    const id = ext.sampleIdOf(arg);
    ext.compareWith = id !== undefined ? { sampleId: id } : undefined;
  });
  cmd('traceInspector.loadMore', (node: Node) => {
    if (node?.type === 'more') node.load();
  });
}

/** Export and import of the folder's annotations as JSON Lines. */
function registerAnnotationFileCommands(ext: CommandHost, cmd: Register): void {
  cmd('traceInspector.exportAnnotations', async () => {
    const s = ext.active();
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
    const s = ext.active();
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
}

/** The panels (problem, overview...) and the navigation commands; returns their disposables. */
function registerPanelsAndNavigation(ext: CommandHost): vscode.Disposable[] {
  // a problem row selected: its similarity job starts before the click on its chart icon (problemPanel.ts)
  const selectProblem = new vscode.EventEmitter<{ problemId: number; modelId?: number }>();
  const selection = [
    selectProblem,
    ext.view.onDidChangeSelection((e) => {
      const sel = problemSelection(e.selection);
      if (sel) selectProblem.fire(sel);
    }),
  ];
  return [
    ...selection,
    ...registerPanels(ext.context, (folder) => (folder === undefined ? ext.active() : ext.sessionFor(folder)), {
      position: (id) => ext.nav.position(id),
      followed: (from, to) => ext.nav.followed(from, to),
      selectedProblem: () => problemIdOf(ext.view.selection[0]),
      onIdle: ext.onIdle,
      onSelectProblem: selectProblem.event,
    }),
    ...registerNavigation(ext.nav),
  ];
}

/** Settings changes (the SQLite driver, settings that need the folder read again) and workspace trust. */
function watchSettings(ext: CommandHost): vscode.Disposable[] {
  return [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('traceInspector.sqliteDriver')) {
        // One SQLite driver per process (two copies of SQLite on one file can corrupt it): a new
        // choice applies to the next extension host.
        void vscode.window.showInformationMessage(
          'Trace Inspector: the SQLite driver changes when the window is reloaded (Developer: Reload Window).',
        );
      }
      if (e.affectsConfiguration('traceInspector')) ext.onSessionChanged();
      // another threshold changes which samples are graded, another Inspect scorer gives other verdicts,
      // another mapping file other records, other include/exclude globs other files: the folder is read
      // again (once, and only when the value in effect changed)
      if (PASS_SETTINGS.some((k) => e.affectsConfiguration(`traceInspector.${k}`))) void ext.indexIfSettingsChanged();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void ext.autoIndex()),
  ];
}

/**
 * The label picker: a multi-select quick pick of `labels` with `checked` checked. Keys (as VS Code's
 * multi-select quick pick handles them, plus the rules of labelPicker.ts): typing filters and shows the
 * typed text as its own first item ("new label") unless it is exactly a listed label; ↓ moves into the
 * list, where Space checks or unchecks; Enter saves the checked labels plus the typed text exactly (or
 * the listed label it equals case-insensitively). Resolves undefined on Escape.
 */
function pickLabels(labels: string[], checked: string[], title: string): Promise<string[] | undefined> {
  const qp = vscode.window.createQuickPick<vscode.QuickPickItem & LabelItem>();
  qp.canSelectMany = true;
  // a step of a two-step input: a refresh of the tree or the preview taking focus must not cancel it
  qp.ignoreFocusOut = true;
  qp.title = title;
  qp.placeholder = LABEL_PICKER_HINT;
  const listed: LabelItem[] = labels.map((label) => ({ label }));
  qp.items = listed;
  qp.selectedItems = listed.filter((i) => checked.includes(i.label));
  qp.onDidChangeValue((value) => {
    // the listed items are the same objects, so the checked ones stay checked
    const keep = qp.selectedItems.filter((i) => !i.typed);
    qp.items = labelPickerItems(listed, value);
    qp.selectedItems = keep;
  });
  return new Promise((resolve) => {
    let result: string[] | undefined;
    qp.onDidAccept(() => {
      result = labelsOnAccept(labels, qp.selectedItems, qp.value);
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(result);
    });
    qp.show();
  });
}

async function annotate(ext: CommandHost, arg: unknown): Promise<void> {
  const s = ext.sessionOfArg(arg);
  const id = ext.sampleIdOf(arg);
  const ref = id !== undefined ? s?.annotations.refOf(id) : undefined;
  if (!s || !ref) {
    void vscode.window.showInformationMessage('Trace Inspector: open or select a sample to annotate.');
    return;
  }
  const current = s.annotations.get(ref);
  const labels = [...new Set([...STANDARD_LABELS, ...s.annotations.labelsInUse(), ...(current?.labels ?? [])])];
  const d = s.index.sample(id!);
  const where = d
    ? `problem ${problemNamer(s.index)(d.problemId)} · ${s.shortLabel(s.index.model(d.modelId) ?? { id: -1, label: '?' })} · sample ${d.sampleIndex}`
    : 'sample';
  const chosen = await pickLabels(labels, current?.labels ?? [], `Annotate ${where}: labels`);
  if (!chosen) return;
  const note = await vscode.window.showInputBox({
    title: `Annotate ${where}: note`,
    prompt: 'Free-text note (optional); Enter saves, Escape cancels',
    value: current?.note ?? '',
    ignoreFocusOut: true,
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

async function compare(ext: CommandHost, arg: unknown, selected?: unknown[]): Promise<void> {
  const s = ext.active();
  if (!s) return;
  // From the context menu VS Code passes the clicked node and the selection; from the palette,
  // nothing: then the tree's selection (two samples) or the active sample tab is used.
  const treeSelection = ext.view.selection.filter((n) => n.type === 'sample');
  const source =
    selected && selected.length >= 2
      ? selected
      : arg === undefined && treeSelection.length >= 2
        ? treeSelection
        : [arg];
  const ids = source.map((x) => ext.sampleIdOf(x)).filter((x): x is number => x !== undefined);
  let [a, b] = ids;
  if (b === undefined) {
    if (a === undefined) {
      void vscode.window.showInformationMessage(
        'Trace Inspector: select two samples in the tree (Ctrl/Cmd+click), then run "Compare Samples".',
      );
      return;
    }
    if (!ext.compareWith || ext.compareWith.sampleId === a) {
      ext.compareWith = { sampleId: a };
      void vscode.window.showInformationMessage(
        'Trace Inspector: sample selected for comparison; now run "Compare Samples" on another sample (or select two samples in the tree).',
      );
      return;
    }
    b = a;
    a = ext.compareWith.sampleId;
  }
  ext.compareWith = undefined;
  const left = sampleUri(s, { id: a });
  const right = sampleUri(s, { id: b });
  if (!left || !right) return;
  const da = s.index.sample(a)!;
  const db = s.index.sample(b)!;
  const name = (d: typeof da) => {
    const m = s.models().find((x) => x.id === d.modelId);
    return `${m ? s.shortLabel(m) : '?'} #${d.sampleIndex}`;
  };
  await vscode.commands.executeCommand('vscode.diff', left, right, `${name(da)} ↔ ${name(db)}`);
}

/** The folder's indexed models; undefined (and says so) when none is indexed yet. */
function indexedModels(s: FolderSession): ModelRow[] | undefined {
  const models = s.models();
  if (models.length) return models;
  void vscode.window.showInformationMessage('Trace Inspector: no models indexed yet.');
  return undefined;
}

async function chooseModel(ext: CommandHost, which: 'base' | 'focus'): Promise<void> {
  const s = ext.active();
  const models = s ? indexedModels(s) : undefined;
  if (!s || !models) return;
  const current = which === 'base' ? s.baseModel() : s.focusModel();
  const pick = await vscode.window.showQuickPick(
    models.map((m) => ({
      // the short name the tree gives the model; the full id is the detail line (trial 13 finding 8)
      label: s.shortLabel(m),
      description: `${m.problems} problems · ${m.correct}/${m.samples} correct`,
      detail: m.displayId,
      model: m,
      picked: m.id === current?.id,
    })),
    {
      title: which === 'base' ? 'Choose the base model' : 'Choose the model in focus (the model filters are about)',
      placeHolder: current ? `current: ${s.shortLabel(current)}` : undefined,
    },
  );
  if (!pick) return;
  if (which === 'base') await s.setBaseModel(pick.model);
  else await s.setFocusModel(pick.model);
}

/**
 * Choose Models to Compare: one pick sets the model in focus and, while the base is a guess, the base
 * with it (each model against its own run's base, as the overview and the CLI report pair them);
 * with a chosen base, every model against it. The last item changes the base itself.
 */
async function choosePair(ext: CommandHost): Promise<void> {
  const s = ext.active();
  const models = s ? indexedModels(s) : undefined;
  if (!s || !models) return;
  const guessed = s.baseModelIsGuess();
  const pairs = comparisonPairs(models, guessed ? models[guessBaseModel(models)] : s.baseModel(), !guessed);
  const focus = s.focusModel();
  type Item = vscode.QuickPickItem & { model?: ModelRow; base?: true };
  const items: Item[] = pairs.map(([b, m]) => ({
    label: s.shortLabel(m),
    description: `vs ${s.shortLabel(b)}${m.id === focus?.id ? '  (current)' : ''}`,
    detail: `${m.displayId}  vs  ${b.displayId}`,
    model: m,
  }));
  items.push({ label: '$(home) Choose the base model instead…', base: true });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Choose the models to compare',
    placeHolder: guessed
      ? 'Each model is compared with the base of its own run'
      : `Every model is compared with the chosen base ${s.baseModel()?.displayId ?? ''}`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!pick) return;
  if (pick.base) return chooseModel(ext, 'base');
  if (pick.model) await s.setFocusModel(pick.model);
}

async function pickFilter(ext: CommandHost): Promise<void> {
  const s = ext.active();
  if (!s) return;
  const focus = s.focusModel();
  const base = s.baseModel();
  const focusName = focus ? s.shortLabel(focus) : 'model';
  type Item = vscode.QuickPickItem & { filter?: TreeFilter; action?: 'search' | 'label' | 'level' | 'noPair' };
  // one model (or the base in focus): no base-vs-model filter, the reason instead (trial 10 finding 6)
  const noPair = noComparisonReason(
    s.models().length,
    base && { id: base.id, name: s.shortLabel(base) },
    focus && { id: focus.id, name: s.shortLabel(focus) },
  );
  const pairItems: Item[] = noPair
    ? [{ label: '$(circle-slash) Lost / Gained by RL: not offered', description: noPair, action: 'noPair' }]
    : [
        {
          label: `$(arrow-down) ${pairFilterName('lost', focus)}`,
          description: `base solves, ${focusName} never does`,
          filter: { kind: 'lost' },
        },
        {
          label: `$(arrow-up) ${pairFilterName('gained', focus)}`,
          description: `${focusName} solves, base ${base ? s.shortLabel(base) : ''} never does`,
          filter: { kind: 'gained' },
        },
      ];
  const items: Item[] = [
    { label: '$(list-flat) All problems', filter: { kind: 'all' } },
    {
      label: '$(error) Failing problems',
      description: `${focusName} never solves them`,
      filter: { kind: 'failing' },
    },
    ...pairItems,
    {
      label: '$(graph) Low accuracy',
      description: `${focusName} below ${percent(readSettings(s.folder).lowAccuracyThreshold)} correct`,
      filter: { kind: 'lowAccuracy' },
    },
    {
      label: '$(question) Lucky guesses? (review queue)',
      description: `${focusName} correct on problems it solves at most ${percent(readSettings(s.folder).luckyGuessThreshold)} of the time`,
      detail: 'Next Sample (Alt+]) then steps through those correct samples; Annotate (Alt+A) labels them',
      filter: { kind: 'luckyGuess' },
    },
    {
      label: '$(warning) Grader disagreements',
      description: 'the same answer (by answer equivalence) graded correct in one sample and incorrect in another',
      filter: { kind: 'graderDisagreements' },
    },
    ...trainingFilterItems(s),
    ...(s.index.levels().length ? [{ label: '$(layers) By difficulty level…', action: 'level' as const }] : []),
    { label: '$(tag) By annotation label…', action: 'label' },
    { label: '$(search) Search sample text…', description: 'every word, anywhere in a sample', action: 'search' },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Filter problems',
    placeHolder: describeFilter(ext.tree.filter, focus, base, (m) => s.shortLabel(m)),
  });
  if (!pick) return;
  // A filter chosen from the palette leaves focus in the (often empty) editor group, where Alt+] and the
  // other stepping keys do nothing: move it to the tree so the next key steps through the filter.
  const apply = (f: TreeFilter) => {
    ext.setFilter(f);
    void vscode.commands.executeCommand('traceInspector.problems.focus');
  };
  if (pick.filter) return apply(pick.filter);
  if (pick.action === 'noPair')
    return void vscode.window.showInformationMessage(
      `Trace Inspector: Lost / Gained by RL need two models: ${noPair}.`,
    );
  if (pick.action === 'search') return void vscode.commands.executeCommand('traceInspector.search');
  if (pick.action === 'level') {
    const levels = s.index.levels();
    if (!levels.length)
      return void vscode.window.showInformationMessage('Trace Inspector: this folder records no difficulty levels.');
    const level = await vscode.window.showQuickPick(levels, { title: 'Difficulty level' });
    if (level) apply({ kind: 'level', level });
  }
  if (pick.action === 'label') {
    const labels = s.annotations.labelCounts();
    if (!labels.length) return void vscode.window.showInformationMessage('Trace Inspector: no annotation labels yet.');
    // each label with its count of annotated samples (trial 10 finding 10c)
    const pick = await vscode.window.showQuickPick(
      labels.map(([label, n]) => ({ label, description: `${n} sample${n === 1 ? '' : 's'}` })),
      { title: 'Annotation label' },
    );
    if (pick) apply({ kind: 'label', label: pick.label });
  }
}

/** "Lost during training" and "Solved only at late steps" for the series of the model in focus (else the first series). */
function trainingFilterItems(s: FolderSession): (vscode.QuickPickItem & { filter: TreeFilter })[] {
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
    case 'luckyGuess':
      return typeof o.threshold === 'number' && o.threshold >= 0 && o.threshold <= 1
        ? { kind: o.kind, threshold: o.threshold }
        : { kind: o.kind };
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
