/**
 * The language-model tools Trace Inspector gives VS Code's agent (package.json `contributes.languageModelTools`):
 * `trace-inspector_sql`, one read-only SQL query over the public views of the folder shown in the Problems tree
 * (docs/sql.md). The query runs as the CLI's `sql` does (src/core/sql/query.ts: guard, read-only connection, a
 * child process killed at its time limit); the answer is src/core/sql/toolText.ts's. Registered only where the
 * editor has the API (`vscode.lm.registerTool`).
 */
import * as vscode from 'vscode';
import { runQuery } from '../core/sql/query';
import { SQL_TOOL_NAME, SQL_TOOL_ROW_LIMIT, sqlToolError, sqlToolText } from '../core/sql/toolText';
import type { FolderSession } from './session';

/** The tool's input (its JSON schema is in package.json). */
interface SqlToolInput {
  query: string;
}

/** Registers the tools; `active` gives the folder session the Problems tree shows. */
export function registerLanguageModelTools(active: () => FolderSession | undefined): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const tool: vscode.LanguageModelTool<SqlToolInput> = {
    prepareInvocation(options) {
      const s = active();
      return {
        invocationMessage: `Querying the Trace Inspector index${s ? ` of ${s.folder.name}` : ''}: ${String(options.input?.query ?? '').slice(0, 200)}`,
      };
    },
    async invoke(options) {
      const s = active();
      const text = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);
      if (!s) return text(sqlToolError(new Error('no results folder is open in Trace Inspector')));
      const query = typeof options.input?.query === 'string' ? options.input.query : '';
      try {
        const result = await runQuery(s.dbPath, query, { limit: SQL_TOOL_ROW_LIMIT });
        return text(sqlToolText(result, s.folder.name));
      } catch (e) {
        return text(sqlToolError(e));
      }
    },
  };
  return [vscode.lm.registerTool(SQL_TOOL_NAME, tool)];
}
