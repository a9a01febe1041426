/**
 * The fallback to node:sqlite on a host where better-sqlite3 cannot load (a Linux host with glibc older
 * than 2.34: a cluster node reached over Remote-SSH). The host is simulated by a preload
 * (test/fixtures/sqlite/old-glibc.cjs) that makes the addon's dlopen fail with the error Node gives
 * there; the CLI (the same storage code the extension runs) then has to use node:sqlite, say so once
 * with the loader's reason, and give the same index and report as better-sqlite3 on every real folder.
 * Child processes, because the driver is chosen once per process.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from '../../src/extension/indexWorkerProtocol';
import { SQLITE_DRIVER_ENV, type SqliteDriverName } from '../../src/core/index/sqlite';
import { REAL, tempDir } from './helpers';
import { CLI } from './reliability.support';

/** Every case here picks its driver itself: run once, in the pass without a forced driver (scripts/test-unit.sh). */
const skip = process.env[SQLITE_DRIVER_ENV]
  ? `driver-independent; runs in the pass without ${SQLITE_DRIVER_ENV}`
  : false;

const OLD_GLIBC = resolve(process.cwd(), 'test/fixtures/sqlite/old-glibc.cjs');

/** The line the CLI writes once on stderr when it falls back. */
const FALLBACK_LINE =
  /^trace-inspector: SQLite driver: node:sqlite \(SQLite [\d.]+, built into Node [\d.]+\); better-sqlite3 cannot be loaded on this host: .*version `GLIBC_2\.34' not found \(required by .*better-sqlite3.*\.node\)$/;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `oldGlibc` preloads the simulation; `driver` sets the environment variable (else it is unset). */
function cli(args: string[], opts: { oldGlibc?: boolean; driver?: string } = {}): Run {
  const env = { ...process.env };
  delete env[SQLITE_DRIVER_ENV];
  if (opts.driver !== undefined) env[SQLITE_DRIVER_ENV] = opts.driver;
  const r = spawnSync(process.execPath, [...(opts.oldGlibc ? ['--require', OLD_GLIBC] : []), CLI, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every top-level folder of the real results (each a results folder of its own). */
const realFolders = readdirSync(REAL)
  .filter((f) => statSync(join(REAL, f)).isDirectory())
  .sort();

describe('fallback to node:sqlite where better-sqlite3 cannot load (old glibc)', { skip }, () => {
  test('the simulated host really cannot load better-sqlite3, and auto picks node:sqlite with the reason', () => {
    const forced = cli(['info'], { oldGlibc: true, driver: 'better-sqlite3' });
    assert.equal(forced.status, 1);
    assert.match(
      forced.stdout,
      /^SQLite driver: none: the SQLite driver better-sqlite3 \(chosen by the environment variable TRACE_INSPECTOR_SQLITE_DRIVER\) cannot run here: .*GLIBC_2\.34' not found/m,
    );
    const auto = cli(['info', '--format', 'json'], { oldGlibc: true });
    assert.equal(auto.status, 0, auto.stderr);
    assert.equal(auto.stderr, '', 'no ExperimentalWarning, nothing else');
    const info = JSON.parse(auto.stdout).sqliteDriver;
    assert.equal(info.name, 'node:sqlite');
    assert.equal(info.choice, 'auto');
    assert.match(info.fallbackReason, /version `GLIBC_2\.34' not found \(required by .*prebuilds.*\.node\)/);
    // and on this machine without the simulation: better-sqlite3
    assert.equal(JSON.parse(cli(['info', '--format', 'json']).stdout).sqliteDriver.name, 'better-sqlite3');
  });

  test('the real folders list is what the data README describes', () => {
    assert.ok(realFolders.length >= 6, realFolders.join(', '));
    for (const f of ['rlvr-probe-gsm8k', 'qwen25-math-eval-example', 'tot-game24', 'inspect-logs'])
      assert.ok(realFolders.includes(f), f);
  });

  for (const folder of realFolders) {
    test(`${folder}: same index and report as better-sqlite3; the fallback said once per run, with the reason`, () => {
      const dir = tempDir('fallback-');
      const root = join(REAL, folder);
      const ref = {
        index: cli(['index', root, '--db', join(dir, 'ref.db'), '--format', 'json', '-q'], {
          driver: 'better-sqlite3',
        }),
        report: cli(['report', root, '--db', join(dir, 'ref.db'), '--format', 'json', '-q'], {
          driver: 'better-sqlite3',
        }),
      };
      const fb = {
        index: cli(['index', root, '--db', join(dir, 'fb.db'), '--format', 'json', '-q'], { oldGlibc: true }),
        report: cli(['report', root, '--db', join(dir, 'fb.db'), '--format', 'json', '-q'], { oldGlibc: true }),
      };
      for (const step of ['index', 'report'] as const) {
        const a = ref[step];
        const b = fb[step];
        assert.equal(b.status, a.status, `${step}: exit code (${b.stderr})`);
        assert.doesNotMatch(a.stderr, /node:sqlite/);
        const [first, ...rest] = b.stderr.split('\n');
        assert.match(first, FALLBACK_LINE, `${step}: stated first`);
        assert.equal(rest.join('\n'), a.stderr, `${step}: the rest of stderr is the default driver's`);
        assert.equal(b.stderr.match(/node:sqlite/g)?.length, 1, `${step}: stated once`);
        if (a.stdout) assert.deepEqual(JSON.parse(b.stdout), JSON.parse(a.stdout), `${step}: same JSON`);
        else assert.equal(b.stdout, a.stdout);
      }
      if (ref.report.status === 0) assert.ok(JSON.parse(ref.report.stdout).models.length > 0);
      rmSync(dir, { recursive: true, force: true });
    });
  }

  test('a driver forced by the environment is used without a word; a wrong value is an error', () => {
    const dir = tempDir('fallback-');
    const root = join(REAL, 'qwen25-math-eval-example');
    const forced = cli(['index', root, '--db', join(dir, 'a.db'), '-q'], { driver: 'node:sqlite' });
    assert.equal(forced.status, 0);
    assert.equal(forced.stderr, '', 'no fallback line, no ExperimentalWarning');
    const info = JSON.parse(cli(['info', '--format', 'json'], { driver: ' Node:SQLite ' }).stdout).sqliteDriver;
    assert.deepEqual(
      { name: info.name, choice: info.choice, source: info.source },
      {
        name: 'node:sqlite',
        choice: 'node:sqlite',
        source: 'environment',
      },
    );
    const bad = cli(['index', root, '--db', join(dir, 'b.db'), '-q'], { driver: 'sqlite3' });
    assert.equal(bad.status, 1);
    assert.match(
      bad.stderr,
      /^trace-inspector: TRACE_INSPECTOR_SQLITE_DRIVER="sqlite3" is not one of auto, better-sqlite3, node:sqlite\n$/,
    );
    rmSync(dir, { recursive: true, force: true });
  });

  test("node:sqlite's ExperimentalWarning is dropped, other warnings still print", () => {
    const driverModule = resolve(__dirname, '../../src/core/index/sqlite/index.js');
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const s = require(${JSON.stringify(driverModule)}); s.openDatabase(':memory:', { driver: 'node:sqlite' }).close();
         process.emitWarning('a real warning', 'ExperimentalWarning'); process.emitWarning('another one');`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /SQLite is an experimental feature/);
    assert.match(r.stderr, /ExperimentalWarning: a real warning/);
    assert.match(r.stderr, /Warning: another one/);
  });
});

describe("the extension's indexing thread uses the driver it is told", { skip }, () => {
  for (const driver of ['node:sqlite', 'better-sqlite3'] as const) {
    test(`told ${driver}, it indexes with ${driver}`, async () => {
      const dir = tempDir('worker-');
      const worker = new Worker(resolve(__dirname, '../../src/extension/indexWorker.js'));
      const reply = new Promise<WorkerReply & { type: 'done' | 'error' }>((res, rej) => {
        worker.on('message', (m: WorkerReply) => {
          if (m.type === 'done' || m.type === 'error') res(m);
        });
        worker.on('error', rej);
      });
      worker.postMessage({
        type: 'index',
        root: join(REAL, 'qwen25-math-eval-example'),
        dbPath: join(dir, 'index.db'),
        include: [],
        exclude: [],
        scorer: '',
        sqliteDriver: driver satisfies SqliteDriverName,
      } satisfies WorkerRequest);
      const m = await reply;
      await worker.terminate();
      assert.equal(m.type, 'done', m.type === 'error' ? m.message : '');
      if (m.type === 'done') {
        assert.equal(m.sqliteDriver, driver);
        assert.equal(m.summary.samples, 800);
      }
      rmSync(dir, { recursive: true, force: true });
    });
  }
});
