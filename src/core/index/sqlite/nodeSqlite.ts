/**
 * The node:sqlite driver (the fallback): Node's built-in `DatabaseSync` adapted to the
 * {@link Database} interface. It needs nothing outside Node itself, so it runs wherever VS Code's server
 * runs, including hosts whose glibc is too old for better-sqlite3's prebuilt addon.
 *
 * What it adds to node:sqlite to behave as better-sqlite3 does (see ./database.ts):
 * - rows as plain objects (node:sqlite's have a null prototype): the statement returns arrays
 *   (`setReturnArrays`, which is also 3x faster than its own row objects) and rows are built from the
 *   column names; `pluck()` takes the first element;
 * - an INTEGER beyond 2^53 read as a lossy number (node:sqlite throws ERR_OUT_OF_RANGE): a read-only
 *   statement (SELECT, VALUES, EXPLAIN, WITH without a write) is run again in bigint mode and the
 *   values converted; any other statement that returns rows (`... RETURNING`, PRAGMA) reads bigints
 *   from the start;
 * - TEXT holding a NUL character read whole (node:sqlite stops at the first NUL): a read-only
 *   statement with columns that may hold TEXT runs wrapped ({@link nulSafeSql}) so that such a value
 *   also comes back as its UTF-8 bytes;
 * - `undefined` parameters bound as NULL (node:sqlite refuses them);
 * - `transaction()` with savepoints, `pragma()`, an idempotent `close()`, and the busy timeout as
 *   `PRAGMA busy_timeout`;
 * - errors with better-sqlite3's `code` names (node:sqlite gives `ERR_SQLITE_ERROR` and a number).
 *
 * Needs Node >= 22.16: `setReturnArrays`, `columns()`, `isTransaction` and a bundled SQLite with FTS5
 * (the index's full-text search) all arrived then; {@link loadNodeSqlite} checks each and says which is
 * missing. On Node 22 it prints "ExperimentalWarning: SQLite is an experimental feature" when first
 * loaded; that one warning is dropped (the CLI's stderr stays clean), every other warning goes through.
 */
import type * as NodeSqlite from 'node:sqlite';
import type { LoadedDriver } from './betterSqlite3';
import {
  SqliteError,
  sqliteCodeName,
  type Database,
  type RunResult,
  type Statement,
  type Transaction,
} from './database';

type NodeSqliteModule = typeof NodeSqlite;
type Raw = unknown[];

/** Minimum SQLite version: FTS5 `contentless_unindexed` (schema migration 1) arrived in 3.45. */
const MIN_SQLITE = [3, 45, 0];

/** better-sqlite3's error shape for an error from node:sqlite; other errors pass unchanged. */
function toSqliteError(e: unknown): unknown {
  const err = e as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (err?.code === 'ERR_SQLITE_ERROR' && typeof err.errcode === 'number') {
    return new SqliteError(String(err.message), sqliteCodeName(err.errcode), { cause: e });
  }
  return e;
}

const isOutOfRange = (e: unknown) => (e as { code?: unknown } | null)?.code === 'ERR_OUT_OF_RANGE';

/** Parameters as node:sqlite takes them: `undefined` as null (better-sqlite3 binds it as NULL). */
function bindable(params: unknown[]): unknown[] {
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (p === undefined) params[i] = null;
    else if (typeof p === 'object' && p !== null && !ArrayBuffer.isView(p)) {
      const named = p as Record<string, unknown>;
      if (Object.values(named).includes(undefined)) {
        params[i] = Object.fromEntries(Object.entries(named).map(([k, v]) => [k, v === undefined ? null : v]));
      }
    }
  }
  return params;
}

const toNumber = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);

/** Statements that only read, so running one again (in bigint mode) has no effect. */
function isRereadable(sql: string): boolean {
  if (/^\s*(SELECT|VALUES|EXPLAIN)\b/i.test(sql)) return true;
  return /^\s*WITH\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql);
}

/**
 * Whether a result column may hold TEXT, from its declared type (null for an expression): every
 * column but those of INTEGER or REAL affinity (https://sqlite.org/datatype3.html#affinity_name_examples).
 */
function mayHoldText(declared: string | null): boolean {
  return declared === null || !/INT|REAL|FLOA|DOUB|NUMERIC|DECIMAL|BOOL|DATE/i.test(declared);
}

/**
 * `sql` wrapped so that a TEXT value holding a NUL character also comes back as a BLOB of its UTF-8
 * bytes: node:sqlite (Node 22 to at least 22.23) reads TEXT up to the first NUL (it builds the string
 * without its length), where SQLite and better-sqlite3 keep the whole text. For each column i of
 * `sql`, the wrapper returns the value, then (for the columns in `text`) NULL or the bytes. The CTE
 * names the columns by position, so duplicate or odd column names need no quoting rules; SQLite runs
 * it as a co-routine or flattens it, both of which keep the rows' order.
 */
function nulSafeSql(sql: string, text: readonly boolean[]): string {
  const cols = text.map((_, i) => `"${i}"`);
  const select = text.flatMap((t, i) =>
    t
      ? [
          cols[i],
          `CASE WHEN typeof(${cols[i]}) = 'text' AND instr(${cols[i]}, char(0)) THEN CAST(${cols[i]} AS BLOB) END`,
        ]
      : [cols[i]],
  );
  return `WITH "\t_ti_q"(${cols.join(', ')}) AS (\n${sql.replace(/;\s*$/, '')}\n) SELECT ${select.join(', ')} FROM "\t_ti_q"`;
}

const utf8 = new TextDecoder();

class NodeStatement implements Statement {
  private plucked = false;
  /** Rows as arrays of values (`raw()`). */
  private arrays = false;
  private readonly st: NodeSqlite.StatementSync;
  private readonly names: string[];
  private readonly rereadable: boolean;
  /** Read INTEGERs as bigint from the start (statements that return rows but may write). */
  private readonly bigints: boolean;
  /** With {@link nulSafeSql}: where column i's value and its NUL-safe bytes (or -1) are in a raw row. */
  private readonly at: number[] | undefined;
  private readonly bytesAt: number[] | undefined;

  constructor(db: NodeSqlite.DatabaseSync, sql: string) {
    let st = db.prepare(sql);
    const columns = st.columns();
    this.names = columns.map((c) => c.name);
    this.rereadable = isRereadable(sql);
    const text = columns.map((c) => mayHoldText(c.type));
    if (this.rereadable && /^\s*(SELECT|WITH|VALUES)\b/i.test(sql) && text.some(Boolean)) {
      try {
        st = db.prepare(nulSafeSql(sql, text));
        const at: number[] = [];
        const bytesAt: number[] = [];
        let k = 0;
        for (const t of text) {
          at.push(k++);
          bytesAt.push(t ? k++ : -1);
        }
        this.at = at;
        this.bytesAt = bytesAt;
      } catch {
        // SQL the wrapper cannot hold (several statements, say): read it as it is.
      }
    }
    this.st = st;
    st.setReturnArrays(true);
    this.bigints = !this.rereadable && this.names.length > 0;
    if (this.bigints) st.setReadBigInts(true);
  }

  /** Column i of a raw row (its NUL-safe bytes decoded when present). */
  private cell(raw: Raw, i: number): unknown {
    if (!this.at) return raw[i];
    const b = this.bytesAt![i];
    const bytes = b >= 0 ? raw[b] : null;
    return bytes === null || bytes === undefined ? raw[this.at[i]] : utf8.decode(bytes as Uint8Array);
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  raw(toggle = true): this {
    this.arrays = toggle;
    return this;
  }

  columns(): { name: string }[] {
    return this.names.map((name) => ({ name }));
  }

  private row(raw: Raw, big: boolean): unknown {
    if (this.plucked) return big ? toNumber(this.cell(raw, 0)) : this.cell(raw, 0);
    if (this.arrays) {
      const out = new Array<unknown>(this.names.length);
      for (let i = 0; i < out.length; i++) out[i] = big ? toNumber(this.cell(raw, i)) : this.cell(raw, i);
      return out;
    }
    const names = this.names;
    const o: Record<string, unknown> = {};
    if (big) for (let i = 0; i < names.length; i++) o[names[i]] = toNumber(this.cell(raw, i));
    else if (this.at) for (let i = 0; i < names.length; i++) o[names[i]] = this.cell(raw, i);
    else for (let i = 0; i < names.length; i++) o[names[i]] = raw[i];
    return o;
  }

  /** Runs `read` (in bigint mode when needed, or again in bigint mode when a value is out of range). */
  private read<T>(read: () => T): { value: T; big: boolean } {
    try {
      return { value: read(), big: this.bigints };
    } catch (e) {
      if (!this.rereadable || !isOutOfRange(e)) throw toSqliteError(e);
    }
    this.st.setReadBigInts(true);
    try {
      return { value: read(), big: true };
    } catch (e) {
      throw toSqliteError(e);
    } finally {
      this.st.setReadBigInts(false);
    }
  }

  run(...params: unknown[]): RunResult {
    try {
      const r = this.st.run(...(bindable(params) as NodeSqlite.SQLInputValue[]));
      return { changes: Number(r.changes), lastInsertRowid: toNumber(r.lastInsertRowid) as number };
    } catch (e) {
      throw toSqliteError(e);
    }
  }

  get(...params: unknown[]): unknown {
    const args = bindable(params) as NodeSqlite.SQLInputValue[];
    const { value, big } = this.read(() => this.st.get(...args) as unknown as Raw | undefined);
    return value === undefined ? undefined : this.row(value, big);
  }

  all(...params: unknown[]): unknown[] {
    const args = bindable(params) as NodeSqlite.SQLInputValue[];
    const { value, big } = this.read(() => this.st.all(...args) as unknown as Raw[]);
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = this.row(value[i], big);
    return out;
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    const args = bindable(params) as NodeSqlite.SQLInputValue[];
    let big = this.bigints;
    let delivered = 0;
    for (;;) {
      // After an out-of-range value, start again in bigint mode and skip the rows already given.
      if (big !== this.bigints) this.st.setReadBigInts(true);
      try {
        let skip = delivered;
        for (const raw of this.st.iterate(...args) as unknown as Iterable<Raw>) {
          if (skip > 0) {
            skip--;
            continue;
          }
          delivered++;
          yield this.row(raw, big);
        }
        return;
      } catch (e) {
        if (big || !this.rereadable || !isOutOfRange(e)) throw toSqliteError(e);
        big = true;
      } finally {
        if (big !== this.bigints) this.st.setReadBigInts(this.bigints);
      }
    }
  }
}

class NodeSqliteDatabase implements Database {
  readonly driver = 'node:sqlite' as const;

  constructor(private readonly db: NodeSqlite.DatabaseSync) {}

  get open(): boolean {
    return this.db.isOpen;
  }

  get inTransaction(): boolean {
    return this.db.isOpen && this.db.isTransaction;
  }

  prepare(sql: string): Statement {
    try {
      return new NodeStatement(this.db, sql);
    } catch (e) {
      throw toSqliteError(e);
    }
  }

  exec(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (e) {
      throw toSqliteError(e);
    }
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const st = this.prepare(`PRAGMA ${source}`);
    return options.simple ? st.pluck().get() : st.all();
  }

  /** better-sqlite3's transaction semantics (lib/methods/transaction.js): BEGIN, or a savepoint when nested. */
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
    const wrap = (begin: string) =>
      ((...args: Parameters<F>) => {
        const nested = this.inTransaction;
        this.exec(nested ? 'SAVEPOINT "\t_ti.\t"' : begin);
        try {
          const result = fn(...args);
          if (result && typeof (result as { then?: unknown }).then === 'function') {
            throw new TypeError('Transaction function cannot return a promise');
          }
          this.exec(nested ? 'RELEASE "\t_ti.\t"' : 'COMMIT');
          return result;
        } catch (e) {
          if (this.inTransaction) {
            if (nested) this.exec('ROLLBACK TO "\t_ti.\t"; RELEASE "\t_ti.\t"');
            else this.exec('ROLLBACK');
          }
          throw e;
        }
      }) as (...args: Parameters<F>) => ReturnType<F>;
    return Object.assign(wrap('BEGIN'), {
      deferred: wrap('BEGIN DEFERRED'),
      immediate: wrap('BEGIN IMMEDIATE'),
      exclusive: wrap('BEGIN EXCLUSIVE'),
    });
  }

  unsafeMode(unsafe: boolean): void {
    const db = this.db as { enableDefensive?: (active: boolean) => void };
    db.enableDefensive?.(!unsafe);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/** `require('node:sqlite')` without Node 22's one-time "SQLite is an experimental feature" warning. */
function requireNodeSqlite(): NodeSqliteModule {
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(String(text))) return;
    return (emit as (...a: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return require('node:sqlite') as NodeSqliteModule;
  } finally {
    process.emitWarning = emit;
  }
}

/**
 * Loads node:sqlite and checks that it can hold the index. Throws an Error whose message says what is
 * missing: the module (Node < 22.5), `setReturnArrays`/`columns`/`isTransaction` (Node < 22.16), FTS5,
 * or a SQLite older than 3.45.
 */
export function loadNodeSqlite(): LoadedDriver {
  const node = `Node ${process.versions.node}`;
  let mod: NodeSqliteModule;
  try {
    mod = requireNodeSqlite();
  } catch (e) {
    throw new Error(`${node} has no node:sqlite (${(e as Error).message})`);
  }
  const proto = mod.StatementSync?.prototype as Partial<NodeSqlite.StatementSync> | undefined;
  if (typeof proto?.setReturnArrays !== 'function' || typeof proto.columns !== 'function') {
    throw new Error(`node:sqlite of ${node} lacks StatementSync.setReturnArrays and columns (Node >= 22.16)`);
  }
  const probe = new mod.DatabaseSync(':memory:');
  try {
    if (typeof probe.isTransaction !== 'boolean') {
      throw new Error(`node:sqlite of ${node} lacks DatabaseSync.isTransaction (Node >= 22.16)`);
    }
    const version = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    const fts5 = (probe.prepare(`SELECT sqlite_compileoption_used('ENABLE_FTS5') AS f`).get() as { f: number }).f;
    if (!fts5) {
      throw new Error(
        `node:sqlite of ${node} (SQLite ${version}) is built without FTS5, which the index's full-text search needs (Node >= 22.16 has it)`,
      );
    }
    if (isOlder(version.split('.').map(Number), MIN_SQLITE))
      throw new Error(`node:sqlite of ${node} runs SQLite ${version}; the index needs ${MIN_SQLITE.join('.')}`);
    return {
      sqliteVersion: version,
      open(path, options) {
        let db: NodeSqlite.DatabaseSync;
        try {
          db = new mod.DatabaseSync(path, { readOnly: !!options.readonly });
        } catch (e) {
          throw toSqliteError(e);
        }
        const conn = new NodeSqliteDatabase(db);
        conn.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.timeoutMs ?? 5000))}`);
        conn.unsafeMode(false);
        return conn;
      },
    };
  } finally {
    probe.close();
  }
}

function isOlder(v: number[], min: number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) < min[i];
  }
  return false;
}
