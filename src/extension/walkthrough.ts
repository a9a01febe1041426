/**
 * The Get Started walkthrough's own commands (package.json `contributes.walkthroughs`):
 * - `traceInspector.openExample` opens the example results folder shipped in the VSIX
 *   (`examples/demo-results`: Qwen2.5-Math-7B and its SimpleRL-Zoo child on MATH-500). The extension's
 *   install folder may be read-only and is replaced on update, and annotations are written inside the
 *   results folder (`.trace-inspector/annotations.jsonl`), so the folder is copied into the
 *   extension's global storage and that copy is opened (kept across sessions, with its annotations;
 *   replaced by a fresh copy, annotations kept, when an extension update changes the example).
 *   The window that opens on it shows the Trace Inspector view (not the Explorer): the folder to reveal
 *   it for is kept in global state across the window's reload.
 * - `traceInspector.runReportInTerminal` runs the bundled CLI's `report` on the open folder in a new
 *   terminal, with the Node that runs the extension host (Electron as Node in desktop VS Code, Node in
 *   code-server): the same runtime that loads the extension's SQLite driver, whatever Node the shell has.
 */
import * as vscode from 'vscode';
import { syncExampleCopy } from './exampleCopy';

/** Folder name of the bundled example, under `examples/` in the extension and in global storage. */
export const EXAMPLE_FOLDER = 'demo-results';

/**
 * Copies the bundled example into `storage` (see ./exampleCopy.ts: refreshed when a new extension
 * version ships a changed example, the user's annotations of it kept), and returns the copy's URI.
 * Errors: the file system's (no space, no permission), passed on.
 */
export async function ensureExampleCopy(extensionUri: vscode.Uri, storage: vscode.Uri): Promise<vscode.Uri> {
  const source = vscode.Uri.joinPath(extensionUri, 'examples', EXAMPLE_FOLDER);
  await syncExampleCopy(source.fsPath, storage.fsPath, EXAMPLE_FOLDER);
  return vscode.Uri.joinPath(storage, EXAMPLE_FOLDER);
}

/** Global-state key: the example folder the next window opened on it shows the Trace Inspector view for. */
const REVEAL_KEY = 'traceInspector.revealViewFor';

/**
 * Shows the Trace Inspector view when this window was opened on the example folder by Open Example
 * Results Folder (the key is cleared, so it happens once). Called on activation.
 */
async function revealForExample(context: vscode.ExtensionContext): Promise<void> {
  const pending = context.globalState.get<string>(REVEAL_KEY);
  const first = vscode.workspace.workspaceFolders?.[0];
  if (!pending || !first || first.uri.fsPath !== pending) return;
  await context.globalState.update(REVEAL_KEY, undefined);
  await vscode.commands.executeCommand('workbench.view.extension.traceInspector');
}

/** Quotes one argument for the terminal's shell (POSIX shells and PowerShell both read '…' literally). */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, process.platform === 'win32' ? "''" : "'\\''")}'`;
}

/** Registers the walkthrough's commands; returns their disposables. */
export function registerWalkthrough(context: vscode.ExtensionContext): vscode.Disposable[] {
  void revealForExample(context);
  return [
    vscode.commands.registerCommand('traceInspector.openExample', async () => {
      try {
        const folder = await ensureExampleCopy(context.extensionUri, context.globalStorageUri);
        await context.globalState.update(REVEAL_KEY, folder.fsPath);
        await vscode.commands.executeCommand('vscode.openFolder', folder, {
          forceNewWindow: vscode.workspace.workspaceFolders !== undefined,
        });
      } catch (e) {
        void vscode.window.showErrorMessage(
          `Trace Inspector: cannot open the example results folder: ${(e as Error).message}`,
        );
      }
    }),
    vscode.commands.registerCommand('traceInspector.runReportInTerminal', async () => {
      const folders = vscode.workspace.workspaceFolders ?? [];
      const folder =
        folders.length > 1
          ? await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Report on which results folder?' })
          : folders[0];
      if (!folder) {
        if (folders.length === 0)
          void vscode.window.showWarningMessage('Trace Inspector: open a results folder first.');
        return;
      }
      const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
      const terminal = vscode.window.createTerminal({
        name: 'Trace Inspector report',
        cwd: folder.uri,
        // Electron's binary runs as plain Node with this variable; Node ignores it
        env: { ELECTRON_RUN_AS_NODE: '1' },
      });
      terminal.show();
      const prefix = process.platform === 'win32' ? '& ' : '';
      terminal.sendText(`${prefix}${shellQuote(process.execPath)} ${shellQuote(cli)} report .`);
    }),
  ];
}
