/**
 * The better-sqlite3 driver (the default): better-sqlite3 13's own connection, whose API the
 * {@link Database} interface is a subset of. Its native addon is loaded from the package's prebuilds
 * (Node-API 10); where the host cannot load it (glibc < 2.34, an old libstdc++, Node-API < 10),
 * {@link loadBetterSqlite3} throws with the loader's reason and ./driver.ts falls back to node:sqlite.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Database, OpenDatabaseOptions, Statement, Transaction } from './database';

type BetterSqlite3Constructor = typeof BetterSqlite3;

class BetterSqlite3Database implements Database {
  readonly driver = 'better-sqlite3' as const;

  constructor(private readonly db: BetterSqlite3.Database) {}

  get open(): boolean {
    return this.db.open;
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  prepare(sql: string): Statement {
    return this.db.prepare(sql) as unknown as Statement;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(source: string, options?: { simple?: boolean }): unknown {
    return this.db.pragma(source, options);
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    return this.db.transaction(fn as never) as unknown as Transaction<F>;
  }

  unsafeMode(unsafe: boolean): void {
    this.db.unsafeMode(unsafe);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** A loaded driver: opens connections and says which SQLite it runs. */
export interface LoadedDriver {
  open(path: string, options: OpenDatabaseOptions): Database;
  sqliteVersion: string;
}

/**
 * Loads better-sqlite3 and its native addon (the addon loads at the first connection, so this opens
 * one in memory). Throws an Error whose message is the reason it cannot run here: the loader's
 * message (e.g. ``version `GLIBC_2.34' not found``) or the Node-API check.
 */
export function loadBetterSqlite3(): LoadedDriver {
  const napi = Number(process.versions.napi);
  if (!(napi >= 10)) {
    throw new Error(
      `better-sqlite3 13 needs Node-API 10 (Node >= 22.14); this is Node ${process.versions.node} (Node-API ${process.versions.napi})`,
    );
  }
  // A plain require, kept out of the bundles (scripts/build.mjs marks better-sqlite3 external).
  const Ctor = require('better-sqlite3') as BetterSqlite3Constructor;
  const probe = new Ctor(':memory:');
  const sqliteVersion = (probe.prepare('SELECT sqlite_version()').pluck().get() as string) ?? '';
  probe.close();
  return {
    sqliteVersion,
    open(path, options) {
      const db = new Ctor(path, {
        readonly: !!options.readonly,
        fileMustExist: !!options.readonly,
        timeout: options.timeoutMs ?? 5000,
      });
      return new BetterSqlite3Database(db);
    },
  };
}
