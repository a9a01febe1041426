/**
 * The messages between the indexer and its parallel reader thread (src/core/index/readerWorker.ts),
 * and the column layout in which read events cross between them. Kept apart from the worker entry,
 * which registers a message handler when loaded on any worker thread.
 */
import type { FormatId, NamedScore, ProblemRecord, ReadEvent, SampleRecord } from '../model';
import type { ReaderContext } from '../readers/types';
import { searchText } from './search';
import { type MarkerLexicon, MarkerCounter } from '../text/markers';
import { codePoints, contentHashOfUtf8 } from '../text/strings';

/** Samples per posted batch. */
export const BATCH_SAMPLES = 2000;
/** Batches posted and not yet acknowledged before the reader waits. */
export const MAX_IN_FLIGHT = 2;

/** The reader thread's `workerData`. */
export interface ReaderWorkerData {
  /** Throw after posting this many batches (tests of the fallback); undefined in use. */
  failAfterBatches?: number;
  /** Leave out what the full-text index is given (a pass with `fts: false`: it is built after the figures). */
  noSearchText?: boolean;
  /** Measure each sample with this lexicon (text/markers.ts) on the reader's thread. */
  lexicon?: MarkerLexicon;
}

export type ReaderWorkerRequest =
  | { type: 'read'; ctx: Omit<ReaderContext, 'signal'>; format: FormatId }
  | { type: 'ack' };

export type ReaderWorkerReply =
  | { type: 'events'; batch: EventBatch }
  | { type: 'end' }
  | { type: 'error'; message: string };

/**
 * A batch of events in columns. Structured cloning one object per sample, or even an array of long
 * strings, costs more than parsing them did (the V8 serializer copies strings slowly); so the sample
 * texts travel as UTF-8 bytes in one transferred buffer (no copy), and the indexer binds those bytes
 * as the text column without decoding them into JavaScript strings at all.
 * `problems[i]` is the record without its samples; its samples are rows `first .. first + count - 1`
 * of the columns. `order` interleaves problems (index >= 0) and the other events (diagnostics,
 * `ungrade`: index -1 - e) as the reader emitted them. Record-level `scores` (role `scores`) are
 * structured-cloned with the record.
 */
export interface EventBatch {
  order: number[];
  problems: (Omit<ProblemRecord, 'samples'> & { first: number; count: number })[];
  others: Exclude<ReadEvent, { kind: 'problem' }>[];
  /** Named scores of each sample (structured-cloned; rare). */
  scores: (NamedScore[] | undefined)[];
  /** UTF-8 of every sample text, back to back; sample r is bytes `textEnd[r - 1] .. textEnd[r]` (from 0 for r = 0). */
  textBytes: ArrayBuffer;
  textEnd: Int32Array;
  /** Length of each text in Unicode code points (text.ts `codePoints`). */
  textLength: Int32Array;
  hash: string[];
  /** What the full-text index is given for the text, when it is not the text itself (search.ts `searchText`). */
  search: (string | undefined)[];
  answer: (string | null | undefined)[];
  finish: (string | null | undefined)[];
  /** 1 correct, 0 incorrect, -1 ungraded. */
  correct: Int8Array;
  /** NaN when absent. */
  score: Float64Array;
  /** NaN when absent. */
  tokens: Float64Array;
  /** -1 when the reader left it to the indexer. */
  sampleIndex: Int32Array;
  /** Pieces of each text (text/markers.ts), when measured on the reader's thread. */
  pieces?: Int32Array;
  /** Marker counts, `behaviours` per sample (sample r at `r * behaviours`), when measured there. */
  markers?: Int32Array;
  behaviours?: number;
}

/**
 * Packs events into an {@link EventBatch}, computing each sample's content hash and what the full-text
 * index is given for it (on the reader's thread, so the indexing thread does not; not with `noSearchText`). A
 * non-string `text` (never produced by the readers) is packed as the empty text.
 * @returns the batch and the buffers to transfer with it.
 */
export function packEvents(
  events: readonly ReadEvent[],
  noSearchText = false,
  counter?: MarkerCounter,
): { batch: EventBatch; transfer: ArrayBuffer[] } {
  let n = 0;
  let size = 0;
  for (const ev of events) {
    if (ev.kind !== 'problem') continue;
    n += ev.record.samples.length;
    for (const s of ev.record.samples) if (typeof s.text === 'string') size += Buffer.byteLength(s.text, 'utf8');
  }
  const bytes = Buffer.allocUnsafeSlow(Math.max(1, size));
  const b: EventBatch = {
    order: [],
    problems: [],
    others: [],
    scores: new Array(n),
    textBytes: bytes.buffer as ArrayBuffer,
    textEnd: new Int32Array(n),
    textLength: new Int32Array(n),
    hash: new Array(n),
    search: new Array(n),
    answer: new Array(n),
    finish: new Array(n),
    correct: new Int8Array(n),
    score: new Float64Array(n),
    tokens: new Float64Array(n),
    sampleIndex: new Int32Array(n),
  };
  const nb = counter?.behaviours.length ?? 0;
  if (counter) {
    b.pieces = new Int32Array(n);
    b.markers = new Int32Array(n * nb);
    b.behaviours = nb;
  }
  let row = 0;
  let end = 0;
  for (const ev of events) {
    if (ev.kind !== 'problem') {
      b.order.push(-1 - b.others.length);
      b.others.push(ev);
      continue;
    }
    const { samples, ...rest } = ev.record;
    b.order.push(b.problems.length);
    b.problems.push({ ...rest, first: row, count: samples.length });
    for (const s of samples) {
      const text = typeof s.text === 'string' ? s.text : '';
      const start = end;
      end += bytes.write(text, end, 'utf8');
      b.textEnd[row] = end;
      b.textLength[row] = codePoints(text);
      // the hash of the bytes just written: the string is not encoded to UTF-8 a second time
      b.hash[row] = contentHashOfUtf8(bytes.subarray(start, end));
      if (!noSearchText) {
        const st = searchText(text);
        if (st !== text) b.search[row] = st;
      }
      b.answer[row] = s.extractedAnswer;
      b.finish[row] = s.finishReason;
      b.correct[row] = s.correct === null || s.correct === undefined ? -1 : s.correct ? 1 : 0;
      b.score[row] = typeof s.rewardScore === 'number' ? s.rewardScore : NaN;
      b.tokens[row] = typeof s.tokenCount === 'number' ? s.tokenCount : NaN;
      b.sampleIndex[row] = s.sampleIndex ?? -1;
      b.scores[row] = s.scores;
      if (counter && b.pieces && b.markers) {
        const m = counter.measure(text);
        b.pieces[row] = m.pieces;
        b.markers.set(m.markers, row * nb);
      }
      row++;
    }
  }
  return {
    batch: b,
    transfer:
      b.pieces && b.markers
        ? [b.textBytes, b.pieces.buffer as ArrayBuffer, b.markers.buffer as ArrayBuffer]
        : [b.textBytes],
  };
}

/**
 * A sample unpacked from a batch: its text is kept as UTF-8 bytes (`textUtf8`, what the indexer
 * binds) and decoded only when `text` is read.
 */
class PackedSample implements SampleRecord {
  sampleIndex?: number;
  extractedAnswer?: string | null;
  rewardScore?: number | null;
  finishReason?: string | null;
  tokenCount?: number | null;
  readonly searchText: string | Uint8Array;
  scores?: NamedScore[];
  measures?: { pieces: number; markers: number[] };
  constructor(
    readonly textUtf8: Buffer,
    readonly correct: boolean | null,
    readonly contentHash: string,
    search: string | undefined,
    readonly textLength: number,
  ) {
    this.searchText = search ?? textUtf8;
  }

  get text(): string {
    return this.textUtf8.toString('utf8');
  }
}

/** The events of a batch, as {@link packEvents} received them (samples with `contentHash`, `textUtf8` and `searchText`). */
export function* unpackEvents(b: EventBatch): Generator<ReadEvent> {
  const bytes = Buffer.from(b.textBytes);
  for (const o of b.order) {
    if (o < 0) {
      yield b.others[-1 - o];
      continue;
    }
    const { first, count, ...rest } = b.problems[o];
    const samples: SampleRecord[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const r = first + i;
      const s = new PackedSample(
        bytes.subarray(r === 0 ? 0 : b.textEnd[r - 1], b.textEnd[r]),
        b.correct[r] === -1 ? null : b.correct[r] === 1,
        b.hash[r],
        b.search[r],
        b.textLength[r],
      );
      if (b.sampleIndex[r] >= 0) s.sampleIndex = b.sampleIndex[r];
      if (b.answer[r] !== undefined) s.extractedAnswer = b.answer[r];
      if (b.finish[r] !== undefined) s.finishReason = b.finish[r];
      if (!Number.isNaN(b.score[r])) s.rewardScore = b.score[r];
      if (!Number.isNaN(b.tokens[r])) s.tokenCount = b.tokens[r];
      if (b.scores[r] !== undefined) s.scores = b.scores[r];
      if (b.pieces && b.markers && b.behaviours !== undefined) {
        const nb = b.behaviours;
        s.measures = { pieces: b.pieces[r], markers: Array.from(b.markers.subarray(r * nb, (r + 1) * nb)) };
      }
      samples[i] = s;
    }
    yield { kind: 'problem', record: { ...rest, samples } };
  }
}
