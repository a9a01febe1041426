/**
 * A recording stand-in for the `vscode` module, so extension modules (tree provider, sample document,
 * folder session) load under node's test runner; `loadWithStub` requires a module with `vscode`
 * resolved to it. `overrides` replaces or adds members (e.g. a `workspace` with settings).
 */
import Module from 'node:module';
import { join as joinPath } from 'node:path';

/** A recording stand-in for the `vscode` module: enough for the tree provider and the sample document. */
export function vscodeStub(overrides: Record<string, unknown> = {}) {
  class MarkdownString {
    isTrusted: boolean | undefined = undefined;
    supportHtml = false;
    segments: { kind: 'markdown' | 'text'; value: string }[] = [];
    constructor(
      value?: string,
      public supportThemeIcons = false,
    ) {
      if (value) this.segments.push({ kind: 'markdown', value });
    }
    appendMarkdown(value: string) {
      this.segments.push({ kind: 'markdown', value });
      return this;
    }
    appendText(value: string) {
      this.segments.push({ kind: 'text', value });
      return this;
    }
  }
  class TreeItem {
    id?: string;
    description?: string;
    tooltip?: unknown;
    constructor(
      public label: string,
      public collapsibleState?: number,
    ) {}
  }
  class EventEmitter {
    event = () => ({ dispose() {} });
    fire() {}
    dispose() {}
  }
  class ThemeIcon {
    constructor(
      public id: string,
      public color?: unknown,
    ) {}
  }
  class ThemeColor {
    constructor(public id: string) {}
  }
  return {
    MarkdownString,
    TreeItem,
    EventEmitter,
    ThemeIcon,
    ThemeColor,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    workspace: { getConfiguration: () => ({ get: () => undefined }), textDocuments: [] },
    window: {},
    Uri: { from: (x: unknown) => x },
    ...overrides,
  };
}

/** Loads an extension module with `vscode` resolved to the stub. */
export function loadWithStub<T>(path: string, overrides: Record<string, unknown> = {}): T {
  const stub = vscodeStub(overrides);
  const mod = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const orig = mod._load;
  mod._load = function (request: string, parent: unknown, isMain: boolean) {
    return request === 'vscode' ? stub : orig.call(this, request, parent, isMain);
  };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path) as T;
  } finally {
    mod._load = orig;
  }
}

/** What a panel test hands the stubbed `vscode`: the webview panel createWebviewPanel gives, the commands registered. */
export interface PanelStubState {
  panel?: unknown;
  commands: Map<string, (...a: unknown[]) => unknown>;
  /** The webview panel serializers registered, by view type (when the test gives a map). */
  serializers?: Map<string, { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> }>;
}

/**
 * The `vscode` overrides under which src/extension/problemPanel.ts runs in the panel tests: registerCommand
 * records into `current.commands`, createWebviewPanel gives `current.panel` (set per test, e.g. a
 * {@link fakePanel}), Uri.joinPath joins paths, ViewColumn and EventEmitter as VS Code's.
 */
export function panelStub(current: PanelStubState): Record<string, unknown> {
  return {
    commands: {
      registerCommand: (id: string, f: (...a: unknown[]) => unknown) => {
        current.commands.set(id, f);
        return { dispose() {} };
      },
    },
    window: {
      createWebviewPanel: () => current.panel,
      registerWebviewPanelSerializer: (
        type: string,
        serializer: { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> },
      ) => {
        current.serializers?.set(type, serializer);
        return { dispose() {} };
      },
      showInformationMessage: async () => undefined,
    },
    Uri: { joinPath: (base: { fsPath: string }, ...p: string[]) => ({ fsPath: joinPath(base.fsPath, ...p) }) },
    ViewColumn: { Active: -1, Beside: -2 },
    EventEmitter: Emitter,
  };
}

/** A status bar item that records every text set on it (`texts`, oldest first), for the extension's unit tests. */
export function recordingStatusItem(): {
  status: { text: string; show(): void; hide(): void; dispose(): void };
  texts: string[];
} {
  const texts: string[] = [];
  const status = {
    set text(t: string) {
      texts.push(t);
    },
    get text() {
      return texts[texts.length - 1] ?? '';
    },
    show() {},
    hide() {},
    dispose() {},
  };
  return { status, texts };
}

/**
 * The real Extension class (src/extension/extension.ts) loaded on the `vscode` stub with what its constructor and
 * `index` need: an output channel, a status bar item (`status`, default one that records nothing), a tree view
 * (`treeView`, default one never shown), `withProgress` that runs its task and pushes each title (`progress`;
 * `'view progress'` when it has none; `progressEnded` when its task settled) and the workspace folders and trust given. `extra`: more stub members
 * (an `EventEmitter` that calls its listeners). Used by the extension's unit tests (status, idle, restore).
 */
export function loadExtension<T>(
  opts: {
    status?: unknown;
    treeView?: unknown;
    progress?: string[];
    /** The titles of the progress notifications whose task has settled (the notification closed), in order. */
    progressEnded?: string[];
    workspaceFolders?: unknown[];
    isTrusted?: boolean;
    extra?: Record<string, unknown>;
  } = {},
): T {
  const disposable = { dispose() {} };
  return loadWithStub<T>('../../src/extension/extension', {
    ...opts.extra,
    window: {
      createOutputChannel: () => ({ appendLine() {}, show() {}, dispose() {} }),
      createStatusBarItem: () => opts.status ?? { text: '', show() {}, hide() {}, dispose() {} },
      createTreeView: () =>
        opts.treeView ?? {
          onDidChangeSelection: () => disposable,
          onDidChangeVisibility: () => disposable,
          selection: [],
          dispose() {},
        },
      onDidChangeActiveTextEditor: () => disposable,
      withProgress: (o: { title?: string }, task: (p: unknown, t: unknown) => Promise<void>) => {
        opts.progress?.push(o.title ?? 'view progress');
        const done = task(
          { report() {} },
          { isCancellationRequested: false, onCancellationRequested: () => disposable },
        );
        const ended = () => opts.progressEnded?.push(o.title ?? 'view progress');
        done.then(ended, ended);
        return done;
      },
      showInformationMessage: async () => undefined,
      showWarningMessage: async () => undefined,
    },
    languages: { createDiagnosticCollection: () => ({ clear() {}, set() {}, dispose() {} }) },
    workspace: {
      getConfiguration: () => ({ get: () => undefined }),
      textDocuments: [],
      workspaceFolders: opts.workspaceFolders ?? [],
      ...(opts.isTrusted !== undefined ? { isTrusted: opts.isTrusted } : {}),
      registerFileSystemProvider: () => disposable,
    },
    commands: { executeCommand: async () => undefined },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { Notification: 15 },
  });
}

/** An event emitter that calls its listeners (the stub's default one does nothing): session changes reach listeners. */
export class Emitter<T> {
  private listeners = new Set<(x: T) => void>();
  event = (l: (x: T) => void) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(x: T) {
    for (const l of [...this.listeners]) l(x);
  }
  dispose() {
    this.listeners.clear();
  }
}

/**
 * A fake webview panel for `window.createWebviewPanel`: `panel` to hand to the stub, `posted` the messages the
 * host posted to it, `send(m)` delivers a message from the webview to the host's handler.
 */
export function fakePanel<M = unknown>() {
  const posted: M[] = [];
  let onMessage: ((m: unknown) => void) | undefined;
  const panel = {
    title: '',
    iconPath: undefined as unknown,
    viewColumn: 1,
    webview: {
      options: {},
      html: '',
      cspSource: 'vscode-resource:',
      asWebviewUri: (u: { fsPath: string }) => ({ toString: () => `vscode-resource:${u.fsPath}` }),
      postMessage: async (m: M) => {
        posted.push(m);
        return true;
      },
      onDidReceiveMessage: (l: (m: unknown) => void) => {
        onMessage = l;
        return { dispose() {} };
      },
    },
    onDidDispose: () => ({ dispose() {} }),
    reveal() {},
    dispose() {},
  };
  return { panel, posted, send: (m: unknown) => onMessage!(m) };
}

/**
 * A stand-in for the FolderSession of the Extension's status tests: a pass that starts when `reindex` is called
 * (reading files: `isIndexing`; the Extension is told at once, as FolderSession fires its change event), then, when
 * the test says, reads no more files and runs its after-pass work (`afterPass()`: `afterPassWork` is the grader
 * audit), then ends (`finish()`). A request while a pass runs joins it. `report(p)` sends the pass's progress as
 * the worker would; `passes` counts the passes started.
 */
export function passStandIn(ext: { onSessionChanged(): void }, folderName: string) {
  let state: 'idle' | 'reading' | 'after' = 'idle';
  let onProgress: ((p: unknown) => void) | undefined;
  let end: (() => void) | undefined;
  const control = {
    passes: 0,
    report: (p: unknown) => onProgress?.(p),
    afterPass: () => {
      state = 'after';
      ext.onSessionChanged();
    },
    finish: () => end?.(),
    session: {
      folder: { name: folderName },
      get isIndexing() {
        return state === 'reading';
      },
      get passRunning() {
        return state !== 'idle';
      },
      get afterPassWork() {
        return state === 'after' ? 'grader audit' : undefined;
      },
      indexSettingsCurrent: () => state !== 'idle',
      reindex: (_token: unknown, progress?: (p: unknown) => void) => {
        if (state !== 'idle') return new Promise<void>((r) => setTimeout(r, 0)).then(() => undefined);
        control.passes++;
        state = 'reading';
        onProgress = progress;
        ext.onSessionChanged();
        return new Promise((resolve) => {
          end = () => {
            state = 'idle';
            ext.onSessionChanged();
            resolve({ cancelled: false, diagnostics: [] });
          };
        });
      },
      models: () => [],
      baseModel: () => undefined,
      focusModel: () => undefined,
      focusPending: () => false,
      baseModelIsGuess: () => true,
      focusModelIsChoice: () => false,
      indexIncomplete: () => state === 'reading',
      index: { countProblems: () => 0 },
    },
  };
  return control;
}

/**
 * A FolderSession (the class as loaded on a stub) of results folder `dir` (read where it is: nothing is written
 * there), its index in a fresh temporary storage folder, the bundles (dist/indexWorker.js, dist/figuresWorker.js)
 * those of this checkout (`npm run build`), with an in-memory workspace state. Returns the session and the
 * extension context it was given (for registerPanels).
 */
export function realFolderSession<S>(
  Session: new (...a: unknown[]) => S,
  dir: string,
  storage: string,
): { session: S; context: unknown } {
  const state = new Map<string, unknown>();
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: joinPath(__dirname, '..', '..', '..') },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const name = dir.split('/').pop() ?? dir;
  const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name };
  return { session: new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} }), context };
}
