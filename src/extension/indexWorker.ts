/**
 * Worker-thread entry that runs one indexing pass off the extension host's main thread, with its
 * own database connection on the host's SQLite driver (given in the request), then the grader audit
 * of the index and its answer check (after telling the host that the files are read); or, asked with
 * `searchIndex`, builds the full-text index of the samples a pass left out of it (core `buildSearchIndex`). Bundled to dist/indexWorker.js. Pure core only: no `vscode` here.
 */
import { parentPort } from 'node:worker_threads';
import {
  type AnswerCheckCounts,
  answerCheckDisagreements,
  type GraderAudit,
  graderAudit,
} from '../core/analyses/graderAudit';
import { indexFolder } from '../core/index/indexer';
import { buildSearchIndex } from '../core/index/searchIndex';
import { chooseSqliteDriver, sqliteDriver } from '../core/index/sqlite';
import { TraceIndex } from '../core/index/traceIndex';
import { AFTER_PASS_WORK, type WorkerReply, type WorkerRequest } from './indexWorkerProtocol';

const port = parentPort;
if (!port) throw new Error('indexWorker must run in a worker thread');
const controller = new AbortController();
const send = (m: WorkerReply) => port.postMessage(m);

port.on('message', (m: WorkerRequest) => {
  if (m.type === 'cancel') {
    controller.abort();
    return;
  }
  let index: TraceIndex | undefined;
  let last = 0;
  if (m.type === 'searchIndex') {
    void (async () => {
      try {
        chooseSqliteDriver(m.sqliteDriver, 'parent');
        index = TraceIndex.open(m.dbPath);
        const summary = await buildSearchIndex(index, {
          signal: controller.signal,
          onProgress: (progress) => {
            const now = Date.now();
            if (now - last < 250 && progress.indexed < progress.samples) return;
            last = now;
            send({ type: 'searchProgress', progress });
          },
        });
        send({ type: 'searchDone', summary });
      } catch (e) {
        send({ type: 'error', message: (e as Error).message });
      } finally {
        index?.close();
      }
    })();
    return;
  }
  void (async () => {
    try {
      chooseSqliteDriver(m.sqliteDriver, 'parent');
      index = TraceIndex.open(m.dbPath);
      const summary = await indexFolder(index, m.root, {
        include: m.include.length ? m.include : undefined,
        exclude: m.exclude.length ? m.exclude : undefined,
        readerOptions: {
          scorer: m.scorer || undefined,
          correctThreshold: m.correctThreshold,
          ...(m.erroredSamples === 'incorrect' ? { erroredSamples: 'incorrect' as const } : {}),
          ...(m.mappingFile ? { mappingFile: m.mappingFile } : {}),
        },
        signal: controller.signal,
        // the figures first: the full-text index is built after the pass, by a `searchIndex` request
        fts: false,
        onProgress: (progress) => {
          const now = Date.now();
          if (progress.phase === 'index' && now - last < 100) return;
          last = now;
          send({ type: 'progress', progress });
        },
      });
      // The grader audit of the whole index and its answer check (the tree's markers), here rather than on the
      // extension host's main thread; the host is told first that the files are read and what still runs
      send({ type: 'afterPass', work: AFTER_PASS_WORK });
      let audit: GraderAudit | undefined;
      let answerCheck: [number, [number, AnswerCheckCounts][]][] | undefined;
      let auditError: string | undefined;
      try {
        audit = graderAudit(index);
        answerCheck = [...answerCheckDisagreements(index)].map(([p, byModel]) => [p, [...byModel]]);
      } catch (e) {
        auditError = (e as Error).message;
      }
      send({
        type: 'done',
        summary,
        graderAudit: audit,
        answerCheck,
        graderAuditError: auditError,
        sqliteDriver: sqliteDriver().name,
      });
    } catch (e) {
      send({ type: 'error', message: (e as Error).message });
    } finally {
      index?.close();
    }
  })();
});
