/**
 * A recording stand-in for the `vscode` module, so that extension modules (the tree provider, the
 * sample document) load in node's test runner. Paths given to {@link loadWithStub} are resolved from
 * this folder (test/unit).
 */
import Module from 'node:module';

/** A recording stand-in for the `vscode` module: enough for the tree provider and the sample document. */
export function vscodeStub() {
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
  };
}

/** Loads an extension module with `vscode` resolved to the stub. */
export function loadWithStub<T>(path: string): T {
  const stub = vscodeStub();
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
