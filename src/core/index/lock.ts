/**
 * The indexer lock: one indexing pass writes a database at a time. The lock is an advisory `meta` row
 * (pid, host, heartbeat) taken at the start of a pass ({@link acquireLock}), refreshed while it runs
 * ({@link touchLock}) and removed at its end ({@link releaseLock}); a lock whose holder died or stopped
 * beating goes stale and is taken over.
 */
import { hostname } from 'node:os';
import { type Database, isBusyError } from './sqlite';

/** Thrown when another live process holds the indexer lock of the same database. */
export class IndexBusyError extends Error {}

const LOCK_KEY = 'indexer_lock';
const LOCK_STALE_MS = 60_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the advisory indexer lock (a `meta` row with pid, host and heartbeat). Throws
 * {@link IndexBusyError} when a live indexer holds it, or when another process keeps the database
 * write-locked for longer than the busy timeout (SQLITE_BUSY), so that a second indexer always gets
 * the same clear error rather than a bare "database is locked".
 */
export function acquireLock(db: Database): void {
  try {
    takeLock(db);
  } catch (e) {
    if (e instanceof IndexBusyError) throw e;
    if (isBusyError(e)) {
      throw new IndexBusyError(
        'another process is writing this index (the database stayed locked for the whole busy timeout); try again when it finishes',
      );
    }
    throw e;
  }
}

function takeLock(db: Database): void {
  db.transaction(() => {
    const raw = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(LOCK_KEY) as string | undefined;
    if (raw) {
      const lock = JSON.parse(raw) as { pid: number; host: string; heartbeat: number };
      const fresh = Date.now() - lock.heartbeat < LOCK_STALE_MS;
      const alive = lock.host === hostname() ? isAlive(lock.pid) && lock.pid !== process.pid : fresh;
      if (alive && fresh) {
        throw new IndexBusyError(
          `another indexer (pid ${lock.pid} on ${lock.host}) is writing this index; try again when it finishes`,
        );
      }
    }
    db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
      LOCK_KEY,
      JSON.stringify({ pid: process.pid, host: hostname(), heartbeat: Date.now() }),
    );
  }).immediate();
}

export function touchLock(db: Database): void {
  try {
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(
      JSON.stringify({ pid: process.pid, host: hostname(), heartbeat: Date.now() }),
      LOCK_KEY,
    );
  } catch {
    // busy: the next heartbeat retries
  }
}

export function releaseLock(db: Database): void {
  try {
    if (db.open && !db.inTransaction) db.prepare('DELETE FROM meta WHERE key = ?').run(LOCK_KEY);
  } catch {
    // the lock goes stale by itself
  }
}
