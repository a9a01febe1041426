import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FormatId, ReadEvent } from '../model';
import { readFile } from '../readers';
import type { ReaderContext } from '../readers/types';
import type { MarkerLexicon } from '../text/markers';
import { unpackEvents, type ReaderWorkerData, type ReaderWorkerReply, type ReaderWorkerRequest } from './eventBatch';

/** Files at least this large (bytes) are read on a second thread; smaller ones are not worth its start-up (~40 ms). */
export const PARALLEL_READ_MIN_BYTES = 8 * 1024 * 1024;

/** Where the built worker lives: next to this module (dist/, out/src/core/index/, the bench bundle). */
export function readerWorkerPath(): string {
  return join(__dirname, 'readerWorker.js');
}

/**
 * The events of {@link readFile} for one file, read on a worker thread while the caller consumes
 * them, so that parsing one batch overlaps with writing the previous one (the indexer's INSERTs and
 * the readers' JSON parsing take about the same CPU time, see bench/RESULTS.md). Same events in the
 * same order as `readFile(ctx, format)`; each sample also carries its `contentHash`, computed on the
 * worker. At most a few batches of 2000 samples wait between the threads (flow control), so memory
 * does not grow with the file.
 *
 * Falls back to `readFile` on this thread when the built worker file is missing (running from
 * sources) or `ctx.signal` is already aborted. When the thread fails (an exception, a crash), the
 * file is read again on this thread and the events already delivered are skipped (readers are
 * deterministic), so the caller sees the same sequence.
 *
 * No old-generation heap limit is set on the thread: a worker reaching it while allocating one large
 * string aborts the whole process, not just the worker (nodejs/node#47224).
 *
 * Errors: like `readFile`, bad content is diagnostics and I/O errors of the file are a diagnostic at
 * line 0. Abort (`ctx.signal`) stops the worker and throws the signal's reason. Ending the iteration
 * early stops the worker.
 * @param options.onFallback is told when the file goes on on this thread, after how many events and why;
 *   `options.failAfterBatches` makes the thread throw after posting that many batches (for tests).
 */
export async function* readFileParallel(
  ctx: ReaderContext,
  format: FormatId,
  options: {
    onFallback?: (delivered: number, reason: string) => void;
    failAfterBatches?: number;
    /** Samples without what the full-text index is given (`searchText`): for a pass with `fts: false`. */
    noSearchText?: boolean;
    /** The lexicon the thread measures each sample with (`SampleRecord.measures`); none: not measured there. */
    lexicon?: MarkerLexicon;
  } = {},
): AsyncGenerator<ReadEvent> {
  const path = readerWorkerPath();
  if (!existsSync(path) || ctx.signal?.aborted) {
    yield* readFile(ctx, format);
    return;
  }
  // A young generation smaller than V8's default keeps the second heap's share of peak memory down.
  const worker = new Worker(path, {
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
    workerData: {
      failAfterBatches: options.failAfterBatches,
      noSearchText: options.noSearchText,
      lexicon: options.lexicon,
    } satisfies ReaderWorkerData,
  });
  let delivered = 0;
  let failed: string | undefined;
  const queue: ReaderWorkerReply[] = [];
  let wake: (() => void) | null = null;
  const push = (m: ReaderWorkerReply) => {
    queue.push(m);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (e) => push({ type: 'error', message: `reader thread failed: ${e.message}` }));
  worker.on('exit', (code) => push({ type: 'error', message: `reader thread exited (code ${code})` }));
  const onAbort = () => {
    wake?.();
    wake = null;
  };
  ctx.signal?.addEventListener('abort', onAbort);
  try {
    const { signal: _signal, ...plain } = ctx;
    worker.postMessage({ type: 'read', ctx: plain, format } satisfies ReaderWorkerRequest);
    for (;;) {
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      if (m.type === 'end') return;
      if (m.type === 'error') {
        failed = m.message;
        break;
      }
      worker.postMessage({ type: 'ack' } satisfies ReaderWorkerRequest);
      for (const ev of unpackEvents(m.batch)) {
        delivered++;
        yield ev;
      }
    }
  } finally {
    ctx.signal?.removeEventListener('abort', onAbort);
    worker.removeAllListeners('exit');
    void worker.terminate();
  }
  if (failed === undefined) return;
  // The thread failed: read the file here and go on after the events already delivered.
  options.onFallback?.(delivered, failed);
  let skip = delivered;
  for await (const ev of readFile(ctx, format)) {
    if (skip > 0) {
      skip--;
      continue;
    }
    yield ev;
  }
}
