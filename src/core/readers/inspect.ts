/**
 * Reader for Inspect AI logs (UK AISI `inspect_ai`):
 * - `.eval`: a zip with `header.json` (or, for an unfinished run, `_journal/start.json`) holding
 *   `{ eval: { task, model, dataset: { name } } }`, and one entry per sample and epoch
 *   `samples/<id>_epoch_<n>.json`;
 * - `.json`: one document `{ version, eval, samples: [...] }`.
 * A sample is `{ id, epoch, input, target, output: { completion?, choices: [{ message: { content },
 * stop_reason }], usage: { output_tokens } }, scores: { <scorer>: { value, answer } }, metadata }`.
 * The epochs of one sample id are the samples of one problem.
 */
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import type { ModelRef, ProblemRecord, ReadEvent, SampleRecord } from '../model';
import {
  invalidUtf8Bytes,
  invalidUtf8Message,
  isUnsafeInteger,
  nonFiniteMessage,
  parseExactIntegers,
  parseJsonTolerant,
  stripBom,
} from '../textFile';
import type { Reader, ReaderContext } from './types';
import {
  MAX_JSON_DOCUMENT_BYTES,
  checkAbort,
  clip,
  diag,
  isObject,
  jsonErrorMessage,
  readJsonDocument,
  toNum,
  toStr,
  typeName,
} from './util';

/** Limits that protect against zip bombs and oversized logs. */
export interface InspectLimits {
  /** Largest uncompressed zip entry read (declared or actual). Default 256 MiB. */
  maxEntryBytes: number;
  /** Largest total of uncompressed bytes read from one `.eval` archive. Default 8 GiB. */
  maxTotalBytes: number;
  /** Largest `.json` log parsed. Default 256 MiB. */
  maxJsonBytes: number;
}

export const DEFAULT_INSPECT_LIMITS: InspectLimits = {
  maxEntryBytes: 256 * 1024 * 1024,
  maxTotalBytes: 8 * 1024 * 1024 * 1024,
  maxJsonBytes: MAX_JSON_DOCUMENT_BYTES,
};

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/**
 * Detects an Inspect log: a `.eval` file (whatever its content: a corrupt archive still gets a
 * diagnostic from this reader), or a `.json` file whose parsed top level has an `eval` object and
 * `version`/`samples`, or, unparsed, whose head starts with `{` and has `"version":` and `"eval": {`.
 */
function detect(relPath: string, first: unknown, head: Buffer): boolean {
  const lower = relPath.toLowerCase();
  if (lower.endsWith('.eval')) return true;
  if (!lower.endsWith('.json')) return false;
  if (first !== undefined) return isObject(first) && isObject(first.eval) && ('version' in first || 'samples' in first);
  const text = head.toString('utf8');
  return /^\uFEFF?\s*\{/.test(text) && /"version"\s*:/.test(text) && /"eval"\s*:\s*\{/.test(text);
}

/** Text of message content: a string, or content blocks (`reasoning` blocks then `text` blocks joined by blank lines). */
export function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    if (b.type === 'reasoning' && typeof b.reasoning === 'string') parts.push(b.reasoning);
    else if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
  }
  return parts.join('\n\n');
}

/**
 * Correctness and reward from an Inspect score value, following inspect_ai's `value_to_float`:
 * `'C'` (correct) -> true; `'I'` (incorrect), `'N'` (no answer) -> false; `'P'` (partial) -> false,
 * reward 0.5; booleans as is; `"yes"`/`"true"` -> true, `"no"`/`"false"` -> false; numbers: reward =
 * the number, correct = `value >= 1`; anything else (dicts of several metrics, unknown strings): null.
 */
export function inspectScore(value: unknown): { correct: boolean | null; reward: number | null } {
  if (typeof value === 'boolean') return { correct: value, reward: value ? 1 : 0 };
  if (typeof value === 'number')
    return Number.isFinite(value) ? { correct: value >= 1, reward: value } : { correct: null, reward: null };
  if (typeof value === 'string') {
    const s = value.trim();
    switch (s.toLowerCase()) {
      case 'c':
      case 'yes':
      case 'true':
      case 'correct':
        return { correct: true, reward: 1 };
      case 'i':
      case 'n':
      case 'no':
      case 'false':
      case 'incorrect':
        return { correct: false, reward: 0 };
      case 'p':
        return { correct: false, reward: 0.5 };
    }
    const n = toNum(s);
    if (n !== null) return { correct: n >= 1, reward: n };
  }
  return { correct: null, reward: null };
}

/** The text of a sample's input: a string, or the last `user` message's content. */
function inputText(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) {
    for (let i = input.length - 1; i >= 0; i--) {
      const m = input[i];
      if (isObject(m) && m.role === 'user') return contentText(m.content);
    }
  }
  return null;
}

/** The reference answer from `target`: a string, or a list of strings joined with ` | `. */
function targetText(target: unknown): string | null {
  if (Array.isArray(target)) {
    const parts = target.map(toStr).filter((x): x is string => x !== null);
    return parts.length > 0 ? parts.join(' | ') : null;
  }
  return toStr(target);
}

/**
 * Builds a sample from an Inspect sample object.
 * - text = `output.completion` when a non-empty string, else `output.choices[0].message.content`
 *   ({@link contentText}); neither: empty text and a warning.
 * - correct from the first scorer in `scores` ({@link inspectScore}); extractedAnswer = that scorer's
 *   `answer`; no scores: ungraded. No reward score: the scorer's value is what the verdict is made
 *   of, not a reward model's score, so best-of-k by it would only repeat pass@k.
 * - finishReason = `choices[0].stop_reason`; tokenCount = `output.usage.output_tokens`.
 */
function toSample(s: Record<string, unknown>, warnings: string[]): SampleRecord {
  const output = isObject(s.output) ? s.output : {};
  const choice0 = Array.isArray(output.choices) && isObject(output.choices[0]) ? output.choices[0] : null;
  let text: string | null =
    typeof output.completion === 'string' && output.completion !== '' ? output.completion : null;
  if (text === null && choice0 && isObject(choice0.message)) text = contentText(choice0.message.content);
  if (text === null) {
    text = '';
    warnings.push(`sample ${String(s.id)} epoch ${String(s.epoch)} has no output text`);
  }
  let correct: boolean | null = null;
  let answer: string | null = null;
  if (isObject(s.scores)) {
    const firstKey = Object.keys(s.scores)[0];
    const sc = firstKey !== undefined ? s.scores[firstKey] : undefined;
    if (isObject(sc)) {
      ({ correct } = inspectScore(sc.value));
      answer = toStr(sc.answer);
    }
  }
  const usage = isObject(output.usage) ? output.usage : {};
  return {
    text,
    correct,
    extractedAnswer: answer,
    rewardScore: null,
    finishReason: choice0 ? toStr(choice0.stop_reason) : null,
    tokenCount: toNum(usage.output_tokens),
  };
}

/** Model and dataset from an Inspect `eval` spec: model `eval.model` (source `data`), dataset `eval.dataset.name`, else `eval.task`, else `default`. */
export function inspectModelAndDataset(evalSpec: unknown): { model: ModelRef; dataset: string } {
  const e = isObject(evalSpec) ? evalSpec : {};
  const name = toStr(e.model);
  const model: ModelRef = name
    ? { name, revision: null, source: 'data' }
    : { name: 'unknown', revision: null, source: 'path' };
  const ds = isObject(e.dataset) ? toStr(e.dataset.name) : null;
  return { model, dataset: ds || toStr(e.task) || 'default' };
}

/** Groups sample objects of one problem into a ProblemRecord (epochs in ascending order -> sampleIndex 0..). */
function toProblem(
  id: string,
  group: Record<string, unknown>[],
  model: ModelRef,
  dataset: string,
  warnings: string[],
): ProblemRecord {
  group.sort((a, b) => (toNum(a.epoch) ?? 0) - (toNum(b.epoch) ?? 0));
  const first = group[0];
  const meta = isObject(first.metadata) ? first.metadata : {};
  return {
    line: 1,
    model,
    dataset,
    problemId: id,
    question: inputText(first.input),
    referenceAnswer: targetText(first.target),
    level: toStr(meta.level) ?? toStr(meta.difficulty),
    samples: group.map((s, i) => ({ ...toSample(s, warnings), sampleIndex: i })),
  };
}

/** Natural order of sample ids: numbers numerically, then strings. */
function compareIds(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  const aNum = a.trim() !== '' && Number.isFinite(na);
  const bNum = b.trim() !== '' && Number.isFinite(nb);
  if (aNum && bNum) return na - nb;
  if (aNum !== bNum) return aNum ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads a `.json` Inspect log (one document up to `maxJsonBytes`). Samples are grouped by `id` in order of first appearance. */
async function* readJsonLog(ctx: ReaderContext, limits: InspectLimits): AsyncGenerator<ReadEvent> {
  const doc = await readJsonDocument(ctx, limits.maxJsonBytes);
  if ('error' in doc) {
    yield doc.error;
    return;
  }
  yield* doc.warnings;
  let log = doc.value;
  // sample ids beyond 2^53: the log again, with those integers read from their source text
  if (isObject(log) && Array.isArray(log.samples) && log.samples.some((x) => isObject(x) && isUnsafeInteger(x.id)))
    log = parseExactIntegers(doc.text);
  if (!isObject(log) || !isObject(log.eval)) {
    yield diag(ctx, 0, 'not an Inspect log: no eval object at the top level');
    return;
  }
  const { model, dataset } = inspectModelAndDataset(log.eval);
  // Each Inspect log is its own evaluation run: two logs of one model are two runs, not duplicates.
  model.run = ctx.relPath;
  if (!Array.isArray(log.samples)) {
    yield diag(
      ctx,
      0,
      log.samples === undefined
        ? 'Inspect log has no samples (header-only log)'
        : `samples is not an array (got ${typeName(log.samples)})`,
      'warning',
    );
    return;
  }
  const groups = new Map<string, Record<string, unknown>[]>();
  for (let i = 0; i < log.samples.length; i++) {
    const s = log.samples[i];
    const id = isObject(s) ? toStr(s.id) : null;
    if (!isObject(s) || id === null) {
      yield diag(
        ctx,
        1,
        `samples[${i}] ${isObject(s) ? 'has no id' : `is not an object (got ${typeName(s)})`}; skipped`,
      );
      continue;
    }
    let g = groups.get(id);
    if (!g) groups.set(id, (g = []));
    g.push(s);
  }
  for (const [id, group] of groups) {
    checkAbort(ctx);
    const warnings: string[] = [];
    const record = toProblem(id, group, model, dataset, warnings);
    for (const w of warnings) yield diag(ctx, 1, w, 'warning');
    yield { kind: 'problem', record };
  }
}

function openZip(absPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      absPath,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zf) => {
        if (err || !zf) reject(err ?? new Error('cannot open archive'));
        else resolve(zf);
      },
    );
  });
}

function listEntries(zf: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zf.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      zf.readEntry();
    });
    zf.on('end', () => resolve(entries));
    zf.on('error', reject);
    zf.readEntry();
  });
}

/** Reads one entry fully, refusing more than `cap` bytes (declared or actual). */
function readEntry(zf: yauzl.ZipFile, entry: yauzl.Entry, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (entry.uncompressedSize > cap) {
      reject(new Error(`entry ${entry.fileName} is too large (${entry.uncompressedSize} bytes > ${cap} bytes)`));
      return;
    }
    zf.openReadStream(entry, (err, stream?: Readable) => {
      if (err || !stream) {
        reject(err ?? new Error('cannot read entry'));
        return;
      }
      const parts: Buffer[] = [];
      let total = 0;
      stream.on('data', (b: Buffer) => {
        total += b.length;
        if (total > cap) {
          stream.destroy(new Error(`entry ${entry.fileName} is too large (over ${cap} bytes)`));
          return;
        }
        parts.push(b);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(parts, total)));
    });
  });
}

const SAMPLE_ENTRY = /^samples\/(.+)_epoch_(\d+)\.json$/;

/**
 * Reads a `.eval` archive. Errors (each a diagnostic at line 0 unless noted; other entries still read):
 * corrupt or non-zip archive (`corrupt .eval archive (...)`, no records); no `header.json` nor
 * `_journal/start.json` (`no header.json ...`, no records); an entry over `maxEntryBytes` or the
 * archive over `maxTotalBytes` uncompressed (zip-bomb guard); a sample entry that is not valid JSON
 * (line 1, that epoch skipped).
 */
async function* readEvalZip(ctx: ReaderContext, limits: InspectLimits): AsyncGenerator<ReadEvent> {
  const size = (await stat(ctx.absPath)).size;
  if (size === 0) {
    yield diag(ctx, 0, 'empty file');
    return;
  }
  let zf: yauzl.ZipFile;
  let entries: yauzl.Entry[];
  try {
    zf = await openZip(ctx.absPath);
  } catch (err) {
    yield diag(ctx, 0, `corrupt .eval archive (${clip(err instanceof Error ? err.message : String(err), 120)})`);
    return;
  }
  try {
    try {
      entries = await listEntries(zf);
    } catch (err) {
      yield diag(ctx, 0, `corrupt .eval archive (${clip(err instanceof Error ? err.message : String(err), 120)})`);
      return;
    }
    let totalBytes = 0;
    const budget = (e: yauzl.Entry): string | null => {
      if (totalBytes + e.uncompressedSize > limits.maxTotalBytes) {
        return `archive exceeds ${limits.maxTotalBytes} uncompressed bytes; stopped before ${e.fileName}`;
      }
      return null;
    };
    /** Entry warnings (invalid UTF-8, NaN / Infinity literals), reported with the entry's name. */
    const entryWarnings: ReadEvent[] = [];
    const readJsonEntry = async (e: yauzl.Entry): Promise<unknown> => {
      const buf = await readEntry(zf, e, Math.min(limits.maxEntryBytes, limits.maxTotalBytes - totalBytes));
      totalBytes += buf.length;
      const text = buf.toString('utf8');
      const bad = invalidUtf8Bytes(buf, text);
      if (bad > 0) entryWarnings.push(diag(ctx, 1, `${e.fileName}: ${invalidUtf8Message(bad)}`, 'warning'));
      const parsed = parseJsonTolerant(stripBom(text));
      if (parsed.nonFinite > 0)
        entryWarnings.push(diag(ctx, 1, `${e.fileName}: ${nonFiniteMessage(parsed.nonFinite)}`, 'warning'));
      return parsed.value;
    };

    const byName = new Map(entries.map((e) => [e.fileName, e]));
    const headerEntry = byName.get('header.json') ?? byName.get('_journal/start.json');
    if (!headerEntry) {
      yield diag(ctx, 0, 'no header.json or _journal/start.json in the .eval archive; not read');
      return;
    }
    let header: unknown;
    try {
      header = await readJsonEntry(headerEntry);
    } catch (err) {
      yield diag(
        ctx,
        0,
        `${headerEntry.fileName}: ${err instanceof SyntaxError || err instanceof RangeError ? jsonErrorMessage(err) : clip(err instanceof Error ? err.message : String(err), 160)}; not read`,
      );
      return;
    }
    if (!isObject(header) || !isObject(header.eval)) {
      yield diag(ctx, 0, `${headerEntry.fileName} has no eval object; not read`);
      return;
    }
    const { model, dataset } = inspectModelAndDataset(header.eval);
    // Each Inspect log is its own evaluation run: two logs of one model are two runs, not duplicates.
    model.run = ctx.relPath;

    // group sample entries by id, epochs ascending
    const groups = new Map<string, { epoch: number; entry: yauzl.Entry }[]>();
    for (const e of entries) {
      const m = SAMPLE_ENTRY.exec(e.fileName);
      if (!m) continue;
      let g = groups.get(m[1]);
      if (!g) groups.set(m[1], (g = []));
      g.push({ epoch: Number(m[2]), entry: e });
    }
    const ids = [...groups.keys()].sort(compareIds);
    for (const id of ids) {
      checkAbort(ctx);
      const group = groups.get(id)!.sort((a, b) => a.epoch - b.epoch);
      const samples: Record<string, unknown>[] = [];
      for (const { entry } of group) {
        const over = budget(entry);
        if (over) {
          yield diag(ctx, 0, over);
          return;
        }
        let s: unknown;
        try {
          s = await readJsonEntry(entry);
        } catch (err) {
          const msg =
            err instanceof SyntaxError || err instanceof RangeError
              ? jsonErrorMessage(err)
              : clip(err instanceof Error ? err.message : String(err), 160);
          yield diag(ctx, /too large/.test(msg) ? 0 : 1, `${entry.fileName}: ${msg}; skipped`);
          continue;
        }
        if (!isObject(s)) {
          yield diag(ctx, 1, `${entry.fileName} is not a JSON object (got ${typeName(s)}); skipped`);
          continue;
        }
        samples.push(s);
      }
      yield* entryWarnings.splice(0);
      if (samples.length === 0) continue;
      const warnings: string[] = [];
      // the entry name holds the id as written; a parsed id beyond 2^53 has lost digits
      const parsedId = isUnsafeInteger(samples[0].id) ? null : toStr(samples[0].id);
      const record = toProblem(parsedId ?? id, samples, model, dataset, warnings);
      for (const w of warnings) yield diag(ctx, 1, w, 'warning');
      yield { kind: 'problem', record };
    }
  } finally {
    zf.close();
  }
}

/**
 * Creates an Inspect reader with the given limits (tests use small ones). Files ending `.eval` are
 * read as zip archives, others as `.json` logs.
 */
export function createInspectReader(limits: Partial<InspectLimits> = {}): Reader {
  const l: InspectLimits = { ...DEFAULT_INSPECT_LIMITS, ...limits };
  return {
    format: 'inspect',
    detect,
    read: (ctx: ReaderContext) =>
      ctx.relPath.toLowerCase().endsWith('.eval') ? readEvalZip(ctx, l) : readJsonLog(ctx, l),
  };
}

/** The Inspect AI log reader (format id `inspect`) with default limits. */
export const inspectReader: Reader = createInspectReader();

/** Whether a head looks like a zip archive (local file header or empty-archive signature). */
export function looksLikeZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(ZIP_MAGIC) || head.subarray(0, 4).equals(EMPTY_ZIP_MAGIC);
}
