/**
 * Read-only SQL over a folder's index (issue 37; `trace-inspector sql`, docs/sql.md): a query reads the public
 * views (./views.ts) and nothing can write, attach or outlast its time limit. The layers:
 * 1. the query's text is checked first (./guard.ts): one SELECT / WITH / VALUES statement, no PRAGMA, ATTACH,
 *    transaction statement or load_extension;
 * 2. the index is opened read-only (SQLITE_OPEN_READONLY), so SQLite refuses any write to it;
 * 3. after the views are created, `PRAGMA query_only = 1` makes SQLite refuse writes to the connection's own
 *    `temp` schema too (the views cannot be dropped or replaced), and the guard keeps PRAGMA out of queries so
 *    it stays on;
 * 4. on better-sqlite3, a statement SQLite itself does not call read-only (`sqlite3_stmt_readonly`) is refused
 *    before it runs (node:sqlite cannot tell; layers 1 to 3 hold there).
 * The time limit: neither driver can interrupt a running statement (better-sqlite3 has no progress handler or
 * interrupt, node:sqlite of Node 22 neither), and a worker thread cannot be stopped inside SQLite's C code
 * (`worker.terminate()` waits for the statement, and so does the process's exit). So {@link runQuery} runs
 * the query in a child process (./sqlRunner.ts) and kills it (SIGKILL) when the limit passes.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '../index/schema';
import { type Database, openDatabase, SQLITE_DRIVER_ENV, sqliteDriver } from '../index/sqlite';
import { checkQuery, SqlRefusedError, type SqlToken } from './guard';
import { ALL_VIEWS, describeViews, installViews, SQL_VIEWS_VERSION } from './views';

export { SqlRefusedError } from './guard';

/** Default row limit: rows beyond it are not returned, and the result says it was cut. */
export const DEFAULT_ROW_LIMIT = 1000;
/** Default time limit of a query, in ms (its process's start included). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Why a query that passed the guard did not give a result. */
export type SqlErrorKind =
  /** SQLite refused or failed the query (syntax, unknown view or column: the message lists what exists). */
  | 'sql'
  /** the time limit passed: the query was stopped. */
  | 'timeout'
  /** the index cannot be read: missing, or of another schema version. */
  | 'index';

/** A query that passed the guard but gave no result; `kind` says why. */
export class SqlQueryError extends Error {
  constructor(
    readonly kind: SqlErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SqlQueryError';
  }
}

/** What a query returned. */
export interface SqlResult {
  /** The result columns, in order (names as SQLite gives them; two may be equal). */
  columns: string[];
  /**
   * The rows, each an array of values in column order: number (an INTEGER beyond 2^53 loses precision), string,
   * null, or Uint8Array for a BLOB. At most `limit` rows.
   */
  rows: unknown[][];
  /** The row limit applied. */
  limit: number;
  /** True when the query had more rows than `limit` (the rest were not read). */
  truncated: boolean;
  /** {@link SQL_VIEWS_VERSION} of the views the query read. */
  viewsVersion: number;
}

/** Options of {@link runQuery} and {@link runQueryInProcess}. */
export interface SqlQueryOptions {
  /** Rows returned at most (default {@link DEFAULT_ROW_LIMIT}); must be >= 1. */
  limit?: number;
  /** Time limit in ms ({@link runQuery} only; default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * Opens the index at `dbPath` read-only with the public views, ready for a query: read-only connection, TEMP
 * views, `query_only` on.
 * @throws SqlQueryError (`index`) when the file does not exist or holds another schema version than this
 *   version reads (an older one is brought up to date by indexing the folder again).
 */
export function openForQuery(dbPath: string): Database {
  if (!existsSync(dbPath)) throw new SqlQueryError('index', `no index at ${dbPath}`);
  const db = openDatabase(dbPath, { readonly: true, timeoutMs: 5000 });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      throw new SqlQueryError(
        'index',
        version < SCHEMA_VERSION
          ? `the index ${dbPath} is at schema version ${version}; this version reads ${SCHEMA_VERSION} (index the folder again to bring it up to date)`
          : `the index ${dbPath} is at schema version ${version}, newer than this version reads (${SCHEMA_VERSION}): update trace-inspector`,
      );
    }
    installViews(db);
    db.pragma('query_only = 1');
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** The view names among a query's words (as written), for an error's list of columns. */
function viewsIn(tokens: readonly SqlToken[]): string[] {
  const names = new Set(ALL_VIEWS.map((v) => v.name));
  return [...new Set(tokens.filter((t) => t.kind === 'word' && names.has(t.text.toLowerCase())).map((t) => t.text))];
}

/**
 * SQLite's error for a query, with what exists appended where it names something that does not: every view
 * and its columns after `no such table`, the columns of the views the query names after `no such column`.
 */
function explain(e: unknown, tokens: readonly SqlToken[]): SqlQueryError {
  const message = (e as Error)?.message ?? String(e);
  if (/^no such table: /.test(message)) return new SqlQueryError('sql', `${message}. The views: ${describeViews()}`);
  if (/^no such column: /.test(message)) {
    const named = viewsIn(tokens);
    return new SqlQueryError(
      'sql',
      `${message}. ${named.length > 0 ? 'Columns of the views in the query' : 'The views'}: ${describeViews(named)}`,
    );
  }
  if (/^ambiguous column name: /.test(message))
    return new SqlQueryError('sql', `${message} (qualify it with its view's name or alias: s.model)`);
  return new SqlQueryError('sql', message);
}

/**
 * Runs one read-only query on the index at `dbPath` in this thread, without a time limit (the child process
 * of {@link runQuery} calls it; a caller on the extension host or in the CLI uses {@link runQuery}).
 * @returns the columns and the first `limit` rows, `truncated` when there were more.
 * @throws SqlRefusedError when the guard or SQLite's read-only check refuses the query; SqlQueryError (`sql`:
 *   SQLite's error, naming what exists when the query names a view or column that does not; `index`: see
 *   {@link openForQuery}); RangeError for a limit below 1.
 */
export function runQueryInProcess(dbPath: string, sql: string, options: SqlQueryOptions = {}): SqlResult {
  const limit = options.limit ?? DEFAULT_ROW_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`the row limit must be an integer >= 1 (got ${limit})`);
  const tokens = checkQuery(sql);
  const db = openForQuery(dbPath);
  try {
    let st: ReturnType<Database['prepare']>;
    try {
      st = db.prepare(sql);
    } catch (e) {
      throw explain(e, tokens);
    }
    if (st.readonly === false) throw new SqlRefusedError('the statement writes: the SQL interface is read-only');
    const columns = st.columns().map((c) => c.name);
    const rows: unknown[][] = [];
    let truncated = false;
    try {
      for (const row of st.raw().iterate() as IterableIterator<unknown[]>) {
        if (rows.length === limit) {
          truncated = true;
          break;
        }
        rows.push(row);
      }
    } catch (e) {
      throw /readonly database|query_only/i.test((e as Error)?.message ?? '')
        ? new SqlRefusedError(`the statement writes (${(e as Error).message}): the SQL interface is read-only`)
        : explain(e, tokens);
    }
    return { columns, rows, limit, truncated, viewsVersion: SQL_VIEWS_VERSION };
  } finally {
    db.close();
  }
}

/** The request the parent sends the query's process, and its one answer. */
export interface SqlRunnerRequest {
  dbPath: string;
  sql: string;
  limit: number;
}
export type SqlRunnerReply =
  | { ok: true; result: SqlResult }
  | { ok: false; name: string; kind?: SqlErrorKind; message: string };

/** Where the built query process lives: next to this module (dist/, out/src/core/sql/). */
export function sqlRunnerPath(): string {
  return join(__dirname, 'sqlRunner.js');
}

/**
 * Runs one read-only query on the index at `dbPath` in a child process (./sqlRunner.ts, this process's SQLite
 * driver), killed when `timeoutMs` passes. The guard runs here first, so a refused query starts no process.
 * @returns as {@link runQueryInProcess}.
 * @throws SqlRefusedError, SqlQueryError (`timeout` when the limit passed; `sql`, `index` as
 *   {@link runQueryInProcess}); Error when the runner is not built (sqlRunner.js missing next to this module)
 *   or its process ends without an answer (the message holds its stderr).
 */
export async function runQuery(dbPath: string, sql: string, options: SqlQueryOptions = {}): Promise<SqlResult> {
  const limit = options.limit ?? DEFAULT_ROW_LIMIT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`the row limit must be an integer >= 1 (got ${limit})`);
  checkQuery(sql);
  const path = sqlRunnerPath();
  if (!existsSync(path)) throw new Error(`the SQL runner ${path} is missing: build the project (npm run build)`);
  const driver = sqliteDriver().name;
  const child = fork(path, [], {
    env: { ...process.env, [SQLITE_DRIVER_ENV]: driver },
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  return new Promise<SqlResult>((resolve, reject) => {
    let reply: SqlRunnerReply | undefined;
    let timedOut = false;
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 4000) stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (m) => {
      reply = m as SqlRunnerReply;
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (reply?.ok) return resolve(reply.result);
      if (reply) {
        const r = reply;
        if (r.name === 'SqlRefusedError') return reject(new SqlRefusedError(r.message));
        if (r.kind) return reject(new SqlQueryError(r.kind, r.message));
        return reject(new Error(r.message));
      }
      if (timedOut) {
        return reject(
          new SqlQueryError(
            'timeout',
            `the query ran longer than ${timeoutMs / 1000} s and was stopped (--timeout <seconds> gives it longer; a LIMIT or a narrower WHERE may make it faster)`,
          ),
        );
      }
      reject(
        new Error(
          `the SQL process ended (${signal ?? `exit code ${code}`}) without an answer${stderr ? `: ${stderr.trim()}` : ''}`,
        ),
      );
    });
    child.send({ dbPath, sql, limit } satisfies SqlRunnerRequest);
  });
}
