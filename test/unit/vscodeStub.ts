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
