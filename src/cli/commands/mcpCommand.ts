/**
 * `trace-inspector mcp <folder>`: the agent tools of src/core/agent/tools.ts (`sql`, `sample`, `problem`) as a
 * Model Context Protocol server over stdio (../mcpServer.ts), for agents outside VS Code (docs/sql.md).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { safe } from '../../core/report/render';
import { defaultDbPath } from '../indexing';

/** The `mcp` command. */
export function addMcpCommand(cmd: Command): void {
  cmd
    .command('mcp')
    .description(
      "serve <folder>'s index to an agent as an MCP server over stdio: tools sql (read-only SQL over the views), sample (a sample's text, marked as model output), problem (per-model n, c, pass@k and verdicts); index the folder first (docs/sql.md)",
    )
    .argument('<folder>', 'results folder (its index is found as index, report and sql find it)')
    .option('--db <file>', 'index database (default: the per-user cache file for this folder)')
    .action(async (folder: string, opts: { db?: string }) => {
      const abs = resolve(folder);
      if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Error(`not a folder: ${safe(folder)}`);
      // a folder not indexed yet is served too: an agent's client shows a server that exits as "connection
      // closed", while each tool call answers why and what to run (core openReadOnlyIndex)
      const dbPath = opts.db ? resolve(opts.db) : defaultDbPath(abs);
      const { serveStdio } = await import('../mcpServer');
      const state = existsSync(dbPath) ? '' : ' (no index there yet: every tool answers "index the folder first")';
      process.stderr.write(`trace-inspector mcp: serving ${safe(abs)} (index ${safe(dbPath)}${state}) on stdio\n`);
      await serveStdio({ dbPath, folder: abs });
    });
}
