/**
 * The process a query of `trace-inspector sql` runs in (./query.ts `runQuery`): it receives one
 * {@link SqlRunnerRequest}, runs it with {@link runQueryInProcess} on the SQLite driver its parent chose (the
 * environment variable the parent sets), sends one {@link SqlRunnerReply} and exits. Its parent kills it when
 * the query's time limit passes. Built to `sqlRunner.js` next to query.js (dist/, out/src/core/sql/).
 */
import { SqlQueryError, type SqlRunnerReply, type SqlRunnerRequest, runQueryInProcess } from './query';

process.once('message', (m) => {
  const req = m as SqlRunnerRequest;
  let reply: SqlRunnerReply;
  try {
    reply = { ok: true, result: runQueryInProcess(req.dbPath, req.sql, { limit: req.limit }) };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    reply = { ok: false, name: err.name, kind: e instanceof SqlQueryError ? e.kind : undefined, message: err.message };
  }
  process.send?.(reply, () => process.exit(0));
});
