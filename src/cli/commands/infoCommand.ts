import { Command, Option } from 'commander';
import { safe } from '../../core/report/render';
import { SQLITE_DRIVER_ENV, describeSqliteDriver, sqliteDriver } from '../../core/index/sqlite';
import { terminalJson } from '../output';

/** The `info` command: where this runs (Node, platform, glibc) and the SQLite driver in use and why. */
export function addInfoCommand(cmd: Command): void {
  cmd
    .command('info')
    .description(
      `where this runs: Node, platform, glibc, and the SQLite driver in use and why (${SQLITE_DRIVER_ENV} forces one)`,
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((opts: { format: string }) => {
      const header = process.report?.getReport
        ? ((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header ?? {})
        : {};
      const host = {
        version: cmd.version() ?? '',
        node: process.versions.node,
        napi: process.versions.napi ?? null,
        platform: process.platform,
        arch: process.arch,
        glibc: header.glibcVersionRuntime ?? null,
      };
      let driver: ReturnType<typeof sqliteDriver> | undefined;
      let error: string | undefined;
      try {
        driver = sqliteDriver();
      } catch (e) {
        error = (e as Error).message;
        process.exitCode = 1;
      }
      if (opts.format === 'json') {
        process.stdout.write(`${terminalJson({ ...host, sqliteDriver: driver ?? null, error: error ?? null }, 2)}\n`);
        return;
      }
      const lines = [
        `trace-inspector ${host.version}`,
        `Node ${host.node} (Node-API ${host.napi ?? '?'}), ${host.platform} ${host.arch}${host.glibc ? `, glibc ${host.glibc}` : ''}`,
        driver ? describeSqliteDriver(driver) : `SQLite driver: none: ${error}`,
      ];
      process.stdout.write(`${lines.map(safe).join('\n')}\n`);
    });
}
