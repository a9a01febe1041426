/**
 * The one SQLite interface the index is written against, and the error shape both drivers give.
 *
 * It is the subset of better-sqlite3's API that the code base uses, so a better-sqlite3 connection
 * satisfies it almost as is (./betterSqlite3.ts), and Node's built-in `node:sqlite` is adapted to it
 * (./nodeSqlite.ts). Code outside this folder never imports either driver: it gets a {@link Database}
 * from `openDatabase` (./driver.ts) or `TraceIndex.db`.
 *
 * What every driver guarantees (tested once per driver in test/unit/sqlite.test.ts):
 * - Parameters are positional (`?`), or named (`:name`, `@name`, `$name`) given as ONE plain object as
 *   the first argument whose keys have no prefix (`{ name: 1 }`); both kinds may be mixed, the object
 *   first. `undefined` binds as NULL. Numbers bind as SQLite numbers, strings as TEXT, `Uint8Array`
 *   (and Buffer) as BLOB, bigint as INTEGER; booleans are refused (TypeError): bind 1/0. A BLOB of
 *   UTF-8 bytes is stored as TEXT with `CAST(? AS TEXT)` (the indexer does so).
 * - Rows are plain objects (`Object.prototype`), keyed by result column name (a later column of the
 *   same name wins). TEXT comes back whole, NUL characters included. INTEGER values come back as JS
 *   numbers; one beyond 2^53 loses precision (as in better-sqlite3 without safeIntegers), it is never
 *   an error. There is no bigint mode.
 * - `pluck()` switches a statement to return the first column's value instead of a row object (it
 *   stays switched: better-sqlite3 semantics).
 * - `transaction(fn)` returns a function that runs `fn` in BEGIN/COMMIT (`.immediate` for BEGIN
 *   IMMEDIATE, `.deferred`, `.exclusive`), rolling back when `fn` throws; called inside a transaction
 *   it uses a savepoint, so transactions nest. `fn` must be synchronous (a returned promise is refused).
 * - `pragma('x')` returns the rows of `PRAGMA x`; `pragma('x', { simple: true })` the first column of
 *   the first row (or undefined).
 * - Errors from SQLite carry `code`, the SQLite result code name of better-sqlite3's SqliteError
 *   (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_PRIMARYKEY`, ...), and SQLite's own message. {@link isBusyError}.
 * - The busy timeout (`timeoutMs` at open) applies to every statement; WAL is a `PRAGMA journal_mode`.
 * - `close()` is idempotent; a statement used after `close()` throws.
 *
 * Limits to know when adding queries:
 * - Prepare a statement again after a schema change that alters its result columns: node:sqlite keeps
 *   the column names of the first preparation (better-sqlite3 re-reads them). No statement kept by the
 *   code base outlives a schema change (migrations run at open, before any query).
 * - Never open the same database file with both drivers at once in one process: they are two copies
 *   of SQLite, and POSIX locks are per process, so one copy closing its file descriptor releases the
 *   other's locks (https://sqlite.org/howtocorrupt.html#_multiple_copies_of_sqlite_linked_into_the_same_application).
 *   A process (and its worker threads) uses one driver ({@link SqliteDriverName} from `sqliteDriver()`).
 * - While a statement is being iterated, better-sqlite3 refuses other statements on the same
 *   connection; node:sqlite allows them. Do not rely on either.
 * - Give every named parameter: a missing one is a RangeError in better-sqlite3 and NULL in node:sqlite.
 * - node:sqlite runs a read-only statement whose columns may hold TEXT inside a CTE (to read NUL
 *   characters, ./nodeSqlite.ts): give every query that needs an order its ORDER BY (SQLite keeps a
 *   subquery's order in practice, as it does here, but only ORDER BY promises it). Reading many rows is
 *   slower on node:sqlite (`npm run bench`, rows `node:sqlite`).
 */

/** The drivers, by the module they load. */
export const SQLITE_DRIVERS = ['better-sqlite3', 'node:sqlite'] as const;
export type SqliteDriverName = (typeof SQLITE_DRIVERS)[number];

/** What a write statement reports: rows changed, and the rowid of the last INSERT. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement. Rows are `unknown`: callers cast to the row type their SQL gives. */
export interface Statement {
  run(...params: unknown[]): RunResult;
  /** The first row, or undefined when there is none. */
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Rows one at a time (memory stays flat over large results). */
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** From now on, returns the first column's value instead of the row (`pluck(false)` undoes it). */
  pluck(toggle?: boolean): this;
  /**
   * From now on, returns each row as an array of its values in column order instead of an object (`raw(false)`
   * undoes it): every column is kept, even where two have the same name (`SELECT a.x, b.x`).
   */
  raw(toggle?: boolean): this;
  /** The result columns (`name`: as SQLite names them, e.g. `count(*)`); empty for a statement without rows. */
  columns(): { name: string }[];
  /**
   * Whether the statement leaves the database files unchanged (`sqlite3_stmt_readonly`): better-sqlite3 says so;
   * node:sqlite cannot tell (undefined).
   */
  readonly readonly?: boolean;
}

/** A function run in a transaction; `.immediate(...)` etc. begin it with that mode. */
export interface Transaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  deferred(...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
  exclusive(...args: Parameters<F>): ReturnType<F>;
}

/** An open SQLite connection (see the module comment for what every driver guarantees). */
export interface Database {
  /** Which driver this connection runs on. */
  readonly driver: SqliteDriverName;
  /** False after `close()`. */
  readonly open: boolean;
  /** Whether a transaction is open on this connection (`sqlite3_get_autocommit() == 0`). */
  readonly inTransaction: boolean;
  prepare(sql: string): Statement;
  /** Runs one or more statements without parameters or results. */
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
  /**
   * `true` turns SQLite's defensive flag off (SQLITE_DBCONFIG_DEFENSIVE), which the migrations need to
   * drop a shadow table FTS5 left behind; `false` turns it back on. better-sqlite3 runs defensive by
   * default; node:sqlite does where the running Node has `enableDefensive` (not Node 22), else the
   * flag stays off and this is a no-op.
   */
  unsafeMode(unsafe: boolean): void;
  close(): void;
}

/** Options for opening a connection. */
export interface OpenDatabaseOptions {
  /** Open read-only (the file must exist). */
  readonly?: boolean;
  /** SQLite busy timeout in ms: how long a statement waits for another connection's lock. Default 5000. */
  timeoutMs?: number;
}

/**
 * An error from SQLite as the node:sqlite driver throws it: same `code` names and message as
 * better-sqlite3's `SqliteError` (whose instances are not of this class: test `code`, not the class).
 */
export class SqliteError extends Error {
  constructor(
    message: string,
    /** SQLite result code name, e.g. `SQLITE_BUSY`, `SQLITE_CONSTRAINT_PRIMARYKEY`. */
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SqliteError';
  }
}

/** The SQLite result code name (`SQLITE_...`) of an error thrown by either driver, or undefined. */
export function sqliteErrorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * Whether an error means another connection held the lock for the whole busy timeout: SQLITE_BUSY and
 * its extended codes (SQLITE_BUSY_SNAPSHOT, ..._RECOVERY, ..._TIMEOUT), from either driver.
 */
export function isBusyError(e: unknown): boolean {
  const code = sqliteErrorCode(e);
  return code === 'SQLITE_BUSY' || !!code?.startsWith('SQLITE_BUSY_');
}

/**
 * Primary result codes by number, each with its extended codes in order (extended code n of primary p
 * is `p | n << 8`), from sqlite3.h (https://sqlite.org/rescode.html). Empty strings are unused numbers.
 */
const RESULT_CODES: Record<number, [string, ...string[]]> = {
  0: ['OK', 'LOAD_PERMANENTLY', 'SYMLINK'],
  1: ['ERROR', 'MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT', 'RESERVESIZE', 'KEY', 'UNABLE'],
  2: ['INTERNAL'],
  3: ['PERM'],
  4: ['ABORT', '', 'ROLLBACK'],
  5: ['BUSY', 'RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  6: ['LOCKED', 'SHAREDCACHE', 'VTAB'],
  7: ['NOMEM'],
  8: ['READONLY', 'RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  9: ['INTERRUPT'],
  10: [
    'IOERR',
    ...(
      'READ SHORT_READ WRITE FSYNC DIR_FSYNC TRUNCATE FSTAT UNLOCK RDLOCK DELETE BLOCKED NOMEM ACCESS ' +
      'CHECKRESERVEDLOCK LOCK CLOSE DIR_CLOSE SHMOPEN SHMSIZE SHMLOCK SHMMAP SEEK DELETE_NOENT MMAP GETTEMPPATH ' +
      'CONVPATH VNODE AUTH BEGIN_ATOMIC COMMIT_ATOMIC ROLLBACK_ATOMIC DATA CORRUPTFS IN_PAGE BADKEY CODEC'
    ).split(' '),
  ],
  11: ['CORRUPT', 'VTAB', 'SEQUENCE', 'INDEX'],
  12: ['NOTFOUND'],
  13: ['FULL'],
  14: ['CANTOPEN', 'NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  15: ['PROTOCOL'],
  16: ['EMPTY'],
  17: ['SCHEMA'],
  18: ['TOOBIG'],
  19: [
    'CONSTRAINT',
    ...'CHECK COMMITHOOK FOREIGNKEY FUNCTION NOTNULL PRIMARYKEY TRIGGER UNIQUE VTAB ROWID PINNED DATATYPE'.split(' '),
  ],
  20: ['MISMATCH'],
  21: ['MISUSE'],
  22: ['NOLFS'],
  23: ['AUTH', 'USER'],
  24: ['FORMAT'],
  25: ['RANGE'],
  26: ['NOTADB'],
  27: ['NOTICE', 'RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  28: ['WARNING', 'AUTOINDEX'],
  100: ['ROW'],
  101: ['DONE'],
};

/**
 * The name better-sqlite3 gives an (extended) SQLite result code: `SQLITE_BUSY` for 5,
 * `SQLITE_CONSTRAINT_PRIMARYKEY` for 1555; an extended code not in the table gets its primary's name.
 */
export function sqliteCodeName(errcode: number): string {
  const primary = RESULT_CODES[errcode & 0xff];
  if (!primary) return `UNKNOWN_SQLITE_ERROR_${errcode}`;
  const ext = errcode >> 8 ? primary[errcode >> 8] : '';
  return ext ? `SQLITE_${primary[0]}_${ext}` : `SQLITE_${primary[0]}`;
}
