/**
 * A recording stand-in for the `vscode` module, so extension modules (tree provider, sample document,
 * folder session) load under node's test runner; `loadWithStub` requires a module with `vscode`
 * resolved to it. `overrides` replaces or adds members (e.g. a `workspace` with settings).
 */
import Module from 'node:module';

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
