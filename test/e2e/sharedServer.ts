/**
 * Starts the code-server that the end-to-end files of one run share (scripts/test-e2e.sh): the VSIX under
 * test installed once, no extra environment. Files whose sessions would start that same server open their
 * window on it instead (harness.startSession), which saves each of them installing the VSIX and starting a
 * server; each still gets a fresh browser, its own folder and its own settings. Files that need another
 * server (extra environment, another VSIX) start their own as before.
 *
 * Usage: node out/test/e2e/sharedServer.js <info.json> <vsix> [name]. Writes harness.SharedServerInfo to
 * <info.json> once the server answers, then runs until SIGTERM or SIGINT, which stop the server (the
 * harness's handlers). Its files: test-output/e2e/<name>/ (default `shared-server`; scripts/test-e2e.sh starts one per
 * lane, `shared-server-1`, `shared-server-2`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, startCodeServer, type SharedServerInfo } from './harness';

async function main(): Promise<void> {
  const [infoFile, vsixArg, name = 'shared-server'] = process.argv.slice(2);
  if (!infoFile || !vsixArg) throw new Error('usage: node out/test/e2e/sharedServer.js <info.json> <vsix> [name]');
  const vsix = path.resolve(repoRoot, vsixArg);
  const server = await startCodeServer({ name, vsix });
  const info: SharedServerInfo = {
    runDir: server.runDir,
    userDataDir: server.userDataDir,
    extensionsDir: server.extensionsDir,
    port: server.port,
    baseUrl: server.baseUrl,
    logFile: server.logFile,
    pid: server.process?.pid ?? 0,
    vsix,
  };
  // written whole, then renamed: a reader never sees half of it
  fs.writeFileSync(`${infoFile}.tmp`, JSON.stringify(info, null, 2));
  fs.renameSync(`${infoFile}.tmp`, infoFile);
  console.log(`[${name}] ${server.baseUrl} (pid ${info.pid}), ${vsix}`);
  server.process?.once('exit', (code, sig) => {
    console.error(`[shared-server] code-server exited (code ${code}, signal ${sig})`);
    process.exit(1);
  });
  setInterval(() => undefined, 1 << 30); // until a signal
}

main().catch((e: unknown) => {
  console.error(`[shared-server] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
