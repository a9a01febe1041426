/**
 * Worker-thread entry of the parallel reader ({@link readFileParallel}): reads one results file with
 * the ordinary readers, computes each sample's content hash, and posts the events in batches while the
 * indexing thread writes the previous ones. Built to `readerWorker.js` next to the module that starts
 * it (dist/, out/src/core/index/, the bench bundle). It opens no database, so it needs no SQLite driver
 * (the indexing thread writes with its own: src/core/index/sqlite/driver.ts).
 *
 * Protocol (src/core/index/eventBatch.ts):
 * - in:  `{ type: 'read', ctx, format }` once, then `{ type: 'ack' }` per batch consumed;
 * - out: `{ type: 'events', batch }` (columns, at most {@link MAX_IN_FLIGHT} unacknowledged: memory
 *   stays bounded however fast the reader is), then `{ type: 'end' }`, or `{ type: 'error', message }`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadEvent } from '../model';
import { readFile } from '../readers';
import { MarkerCounter } from '../text/markers';
import {
  BATCH_SAMPLES,
  MAX_IN_FLIGHT,
  packEvents,
  type ReaderWorkerData,
  type ReaderWorkerReply,
  type ReaderWorkerRequest,
} from './eventBatch';

/**
 * A full garbage collection every this many batches (about 40 MB of sample text). Left to its own
 * heuristics, V8 lets this thread's heap grow with the file (parsed lines die in large-object space,
 * which only a full collection frees), so the indexer's peak memory grew with the folder; a small heap
 * collected regularly keeps it flat, for about 10 ms per collection.
 */
const GC_EVERY_BATCHES = 32;

/** `gc()`, exposed for this thread's use (V8 flags cannot be given to a worker thread at start). */
const collectGarbage: (() => void) | undefined = (() => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

if (parentPort) {
  const port = parentPort;
  const failAfter = (workerData as ReaderWorkerData | undefined)?.failAfterBatches;
  const noSearchText = (workerData as ReaderWorkerData | undefined)?.noSearchText === true;
  const lexicon = (workerData as ReaderWorkerData | undefined)?.lexicon;
  const counter = lexicon ? new MarkerCounter(lexicon) : undefined;
  let posted = 0;
  let inFlight = 0;
  let wake: (() => void) | null = null;
  const send = (m: ReaderWorkerReply) => port.postMessage(m);
  port.on('message', (m: ReaderWorkerRequest) => {
    if (m.type === 'ack') {
      inFlight--;
      wake?.();
      wake = null;
      return;
    }
    void (async () => {
      try {
        let batch: ReadEvent[] = [];
        let samples = 0;
        const flush = async () => {
          while (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((r) => (wake = r));
          inFlight++;
          if (posted === failAfter) throw new Error(`failure injected after ${posted} batches`);
          posted++;
          if (posted % GC_EVERY_BATCHES === 0) collectGarbage?.();
          const { batch: packed, transfer } = packEvents(batch, noSearchText, counter);
          port.postMessage({ type: 'events', batch: packed } satisfies ReaderWorkerReply, transfer);
          batch = [];
          samples = 0;
        };
        for await (const ev of readFile(m.ctx, m.format)) {
          if (ev.kind === 'problem') samples += ev.record.samples.length;
          batch.push(ev);
          if (samples >= BATCH_SAMPLES || batch.length >= BATCH_SAMPLES) await flush();
        }
        if (batch.length) await flush();
        send({ type: 'end' });
      } catch (e) {
        send({ type: 'error', message: e instanceof Error ? e.message : String(e) });
      }
    })();
  });
}
