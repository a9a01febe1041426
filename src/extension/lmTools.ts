/**
 * The language-model tools Trace Inspector gives VS Code's agent (package.json `contributes.languageModelTools`),
 * over the folder shown in the Problems tree. A thin adapter over the core's tools (src/core/agent/tools.ts: the
 * same names, descriptions, schemas and answers as `trace-inspector mcp`):
 * - `trace-inspector_sql`, `trace-inspector_sample`, `trace-inspector_problem`: the core's data tools, answered
 *   with its text (read-only: a query runs as the CLI's `sql` does, texts are read from the results files);
 * - `trace-inspector_openSample`, `trace-inspector_openProblem`: the core finds the sample or problem the agent
 *   names, and this layer opens it in the sample preview or the problem view for the user.
 * Registered only where the editor has the API (`vscode.lm.registerTool`).
 */
import * as vscode from 'vscode';
import {
  type AgentToolSpec,
  DATA_TOOLS,
  findProblemOf,
  findSample,
  OPEN_PROBLEM_TOOL,
  OPEN_SAMPLE_TOOL,
  runAgentTool,
} from '../core/agent/tools';
import type { FolderSession } from './session';

type Input = Record<string, unknown>;

const textResult = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

/** What the chat shows while a tool runs: its title, the folder, and the call's main argument. */
function invocationMessage(spec: AgentToolSpec, s: FolderSession | undefined, input: Input | undefined): string {
  const arg = input?.query ?? input?.problem_id ?? '';
  return `${spec.title}${s ? ` (${s.folder.name})` : ''}: ${String(arg).slice(0, 200)}`;
}

/** A data tool: the core's answer over the session's index. */
function dataTool(spec: AgentToolSpec, active: () => FolderSession | undefined): vscode.LanguageModelTool<Input> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: invocationMessage(spec, active(), options.input) }),
    async invoke(options) {
      const s = active();
      if (!s) return textResult('Not done: no results folder is open in Trace Inspector.');
      const answer = await runAgentTool(spec.name, options.input, { dbPath: s.dbPath, folder: s.folder.uri.fsPath });
      return textResult(answer.text);
    },
  };
}

/** An open tool: `open` finds what the input names in the session's index and opens it; its text is the answer. */
function openTool(
  spec: AgentToolSpec,
  active: () => FolderSession | undefined,
  open: (s: FolderSession, input: Input) => Promise<string>,
): vscode.LanguageModelTool<Input> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: invocationMessage(spec, active(), options.input) }),
    async invoke(options) {
      const s = active();
      if (!s) return textResult('Not done: no results folder is open in Trace Inspector.');
      try {
        return textResult(await open(s, (options.input ?? {}) as Input));
      } catch (e) {
        return textResult(`Not done: ${(e as Error)?.message ?? String(e)}`);
      }
    },
  };
}

/** Registers the tools; `active` gives the folder session the Problems tree shows. */
export function registerLanguageModelTools(active: () => FolderSession | undefined): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const openSample = openTool(OPEN_SAMPLE_TOOL, active, async (s, input) => {
    const ref = findSample(s.index, input);
    const shown = await vscode.commands.executeCommand<boolean>('traceInspector.showSamplePreview', {
      sampleId: ref.sampleId,
      folder: s.folder.uri.toString(),
    });
    return shown === false
      ? 'Not done: the sample preview could not open that sample.'
      : `Opened sample ${ref.sample.sampleIndex} of ${ref.model.displayId} in the sample preview.`;
  });
  const openProblem = openTool(OPEN_PROBLEM_TOOL, active, async (s, input) => {
    const { problemId, modelId } = findProblemOf(s.index, input);
    await vscode.commands.executeCommand('traceInspector.openProblemView', {
      problemId,
      modelId,
      folder: s.folder.uri.toString(),
    });
    return `Opened the problem view of ${String(input.dataset)}/${String(input.problem_id)}.`;
  });
  return [
    ...DATA_TOOLS.map((spec) => vscode.lm.registerTool(spec.lmName, dataTool(spec, active))),
    vscode.lm.registerTool(OPEN_SAMPLE_TOOL.lmName, openSample),
    vscode.lm.registerTool(OPEN_PROBLEM_TOOL.lmName, openProblem),
  ];
}
