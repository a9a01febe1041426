/**
 * The SQLite layer of the index: one interface ({@link Database}, ./database.ts) over two drivers
 * (better-sqlite3, node:sqlite), and the rule that picks one per process (./driver.ts).
 */
export {
  SQLITE_DRIVERS,
  SqliteError,
  isBusyError,
  sqliteCodeName,
  sqliteErrorCode,
  type Database,
  type OpenDatabaseOptions,
  type RunResult,
  type SqliteDriverName,
  type Statement,
  type Transaction,
} from './database';
export {
  SQLITE_DRIVER_ENV,
  UnsupportedRuntimeError,
  chooseSqliteDriver,
  describeSqliteDriver,
  openDatabase,
  parseSqliteDriverChoice,
  sqliteDriver,
  type SqliteDriverChoice,
  type SqliteDriverInfo,
  type SqliteDriverSource,
} from './driver';
