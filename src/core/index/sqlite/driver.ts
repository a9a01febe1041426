/**
 * Which SQLite driver this process uses, and opening connections with it.
 *
 * Rule: better-sqlite3 when it loads (its prebuilt addon needs glibc >= 2.34 on Linux and Node-API
 * >= 10), else Node's built-in node:sqlite (Node >= 22.16), and the reason better-sqlite3 could not
 * load is kept ({@link SqliteDriverInfo.fallbackReason}) so that the extension (output channel) and
 * the CLI (stderr) say it once. The choice can be forced: the setting `traceInspector.sqliteDriver`
 * (the extension passes it to {@link chooseSqliteDriver}) or the environment variable
 * {@link SQLITE_DRIVER_ENV}; a forced driver that cannot load is an error, never a silent fallback.
 *
 * One driver per process: worker threads are told the parent's (`chooseSqliteDriver(name, 'parent')`),
 * because two copies of SQLite on one database file in one process can corrupt it (./database.ts).
 */
import { type LoadedDriver, loadBetterSqlite3 } from './betterSqlite3';
import { SQLITE_DRIVERS, type Database, type OpenDatabaseOptions, type SqliteDriverName } from './database';
import { loadNodeSqlite } from './nodeSqlite';

/** Environment variable forcing the driver: `auto` (default), `better-sqlite3` or `node:sqlite`. */
export const SQLITE_DRIVER_ENV = 'TRACE_INSPECTOR_SQLITE_DRIVER';

export type SqliteDriverChoice = 'auto' | SqliteDriverName;

/** Where the driver choice came from. */
export type SqliteDriverSource = 'default' | 'setting' | 'environment' | 'parent';

/** Thrown when no SQLite driver can run on this host (or the forced one cannot). */
export class UnsupportedRuntimeError extends Error {}

/** The driver in use and why. */
export interface SqliteDriverInfo {
  name: SqliteDriverName;
  /** `sqlite_version()` of the driver's SQLite. */
  sqliteVersion: string;
  choice: SqliteDriverChoice;
  source: SqliteDriverSource;
  /** Set when `auto` fell back to node:sqlite: the reason better-sqlite3 cannot run here (the loader's message). */
  fallbackReason?: string;
}

const LOADERS: Record<SqliteDriverName, () => LoadedDriver> = {
  'better-sqlite3': loadBetterSqlite3,
  'node:sqlite': loadNodeSqlite,
};
const loaded = new Map<SqliteDriverName, LoadedDriver | Error>();

/** Loads a driver once (a failure is remembered too); throws the loader's Error. */
function load(name: SqliteDriverName): LoadedDriver {
  let d = loaded.get(name);
  if (!d) {
    try {
      d = LOADERS[name]();
    } catch (e) {
      d = e instanceof Error ? e : new Error(String(e));
    }
    loaded.set(name, d);
  }
  if (d instanceof Error) throw d;
  return d;
}

/** `auto`, `better-sqlite3` or `node:sqlite` (surrounding space and case ignored), else undefined. */
export function parseSqliteDriverChoice(value: unknown): SqliteDriverChoice | undefined {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return v === 'auto' || (SQLITE_DRIVERS as readonly string[]).includes(v) ? (v as SqliteDriverChoice) : undefined;
}

let requested: { choice: SqliteDriverChoice; source: SqliteDriverSource } | undefined;
let selected: SqliteDriverInfo | undefined;

/** The choice from the environment variable, else `auto`. Throws on a value that is not a driver. */
function fromEnvironment(): { choice: SqliteDriverChoice; source: SqliteDriverSource } {
  const raw = process.env[SQLITE_DRIVER_ENV];
  if (raw === undefined || raw.trim() === '') return { choice: 'auto', source: 'default' };
  const choice = parseSqliteDriverChoice(raw);
  if (!choice) {
    throw new UnsupportedRuntimeError(
      `${SQLITE_DRIVER_ENV}=${JSON.stringify(raw)} is not one of auto, ${SQLITE_DRIVERS.join(', ')}`,
    );
  }
  return { choice, source: choice === 'auto' ? 'default' : 'environment' };
}

/**
 * Sets this thread's driver choice before its first database opens: a driver name forces it; `auto`
 * or undefined leaves it to {@link SQLITE_DRIVER_ENV}, then to the automatic rule. `source` says who
 * chose (`setting`: the extension's setting; `parent`: a worker thread told its parent's driver).
 * @throws Error when a different driver is already in use in this thread (switching needs a restart).
 */
export function chooseSqliteDriver(choice: SqliteDriverChoice | undefined, source: SqliteDriverSource): void {
  const next = choice && choice !== 'auto' ? { choice, source } : undefined;
  if (selected) {
    const wanted = next?.choice ?? fromEnvironment().choice;
    if (wanted !== 'auto' && wanted !== selected.name) {
      throw new Error(`this process already uses the SQLite driver ${selected.name}; restart it to use ${wanted}`);
    }
    return;
  }
  requested = next;
}

function sourceText(source: SqliteDriverSource): string {
  switch (source) {
    case 'setting':
      return 'the setting traceInspector.sqliteDriver';
    case 'environment':
      return `the environment variable ${SQLITE_DRIVER_ENV}`;
    case 'parent':
      return 'the process that started this thread';
    default:
      return 'default';
  }
}

/**
 * The driver this thread uses, selected (and loaded) at the first call by the rule above.
 * @throws UnsupportedRuntimeError when the forced driver cannot load, or neither can; the message
 *   holds each loader's reason.
 */
export function sqliteDriver(): SqliteDriverInfo {
  if (selected) return selected;
  const { choice, source } = requested ?? fromEnvironment();
  if (choice !== 'auto') {
    try {
      selected = { name: choice, sqliteVersion: load(choice).sqliteVersion, choice, source };
    } catch (e) {
      throw new UnsupportedRuntimeError(
        `the SQLite driver ${choice} (chosen by ${sourceText(source)}) cannot run here: ${(e as Error).message}`,
      );
    }
    return selected;
  }
  let reason: string;
  try {
    selected = { name: 'better-sqlite3', sqliteVersion: load('better-sqlite3').sqliteVersion, choice, source };
    return selected;
  } catch (e) {
    reason = (e as Error).message;
  }
  try {
    const d = load('node:sqlite');
    selected = { name: 'node:sqlite', sqliteVersion: d.sqliteVersion, choice, source, fallbackReason: reason };
    return selected;
  } catch (e) {
    throw new UnsupportedRuntimeError(
      `no SQLite driver can run on this host: better-sqlite3: ${reason}; node:sqlite: ${(e as Error).message}. ` +
        'better-sqlite3 needs glibc >= 2.34 (or musl) and Node-API 10; node:sqlite needs Node >= 22.16 (the one VS Code runs extensions on)',
    );
  }
}

/**
 * One line saying which driver is in use and why (for the output channel and `trace-inspector info`):
 * `SQLite driver: node:sqlite (SQLite 3.51.3, built into Node 22.23.3); better-sqlite3 cannot be loaded
 * on this host: <reason>`.
 */
export function describeSqliteDriver(info: SqliteDriverInfo): string {
  const what =
    info.name === 'node:sqlite'
      ? `node:sqlite (SQLite ${info.sqliteVersion}, built into Node ${process.versions.node})`
      : `better-sqlite3 (SQLite ${info.sqliteVersion}, Node ${process.versions.node})`;
  if (info.fallbackReason !== undefined) {
    return `SQLite driver: ${what}; better-sqlite3 cannot be loaded on this host: ${info.fallbackReason}`;
  }
  return `SQLite driver: ${what}${info.source === 'default' ? '' : `, chosen by ${sourceText(info.source)}`}`;
}

/**
 * Opens a connection with this thread's driver ({@link sqliteDriver}), or with `options.driver` (tests
 * that write with one driver and read with the other; never both on one file at once).
 * @throws UnsupportedRuntimeError as {@link sqliteDriver}; SQLite errors (`code`) when the file cannot be opened.
 */
export function openDatabase(
  path: string,
  options: OpenDatabaseOptions & { driver?: SqliteDriverName } = {},
): Database {
  if (options.driver) {
    let d: LoadedDriver;
    try {
      d = load(options.driver);
    } catch (e) {
      throw new UnsupportedRuntimeError(`the SQLite driver ${options.driver} cannot run here: ${(e as Error).message}`);
    }
    return d.open(path, options);
  }
  const info = sqliteDriver();
  return load(info.name).open(path, options);
}
