/**
 * Worker-thread entry that runs one indexing pass off the extension host's main thread, with its
 * own database connection. Bundled to dist/indexWorker.js. Pure core only: no `vscode` here.
 */
import { parentPort } from 'node:worker_threads';
import { indexFolder } from '../core/index/indexer';
import { TraceIndex } from '../core/index/traceIndex';
import type { WorkerReply, WorkerRequest } from './indexWorkerProtocol';

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
  void (async () => {
    try {
      index = TraceIndex.open(m.dbPath);
      const summary = await indexFolder(index, m.root, {
        include: m.include.length ? m.include : undefined,
        exclude: m.exclude.length ? m.exclude : undefined,
        readerOptions:
          m.scorer || m.mappingFile
            ? { ...(m.scorer ? { scorer: m.scorer } : {}), ...(m.mappingFile ? { mappingFile: m.mappingFile } : {}) }
            : undefined,
        signal: controller.signal,
        onProgress: (progress) => {
          const now = Date.now();
          if (progress.phase === 'index' && now - last < 100) return;
          last = now;
          send({ type: 'progress', progress });
        },
      });
      send({ type: 'done', summary });
    } catch (e) {
      send({ type: 'error', message: (e as Error).message });
    } finally {
      index?.close();
    }
  })();
});
