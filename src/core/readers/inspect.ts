/**
 * Reader for Inspect AI logs (UK AISI `inspect_ai`, https://github.com/UKGovernmentBEIS/inspect_ai).
 * - `.json`: one document `{ version, eval, samples: [...] }`.
 * - `.eval`: a zip archive (src/inspect_ai/log/_recorders/eval.py) with `header.json` (or, for an
 *   unfinished run, `_journal/start.json`) holding `{ version, eval: { task, model, dataset: { name } } }`,
 *   `summaries.json`, `reductions.json`, and per sample and epoch either
 *   - one entry `samples/<id>_epoch_<n>.json` (log format version 2, the "monolith" shape), or
 *   - a "chunked" sample (format version 3; src/inspect_ai/log/_recorders/chunked/format.py,
 *     `CHUNKED_LOG_VERSION = 3`): a shell `samples/<id>_epoch_<n>/sample.json` (the sample without its
 *     messages, events, attachments and metadata, plus `message_refs` and `sequences`),
 *     `samples/<id>_epoch_<n>/metadata.json` (only when non-empty), and chunk files
 *     `samples/<id>_epoch_<n>/{messages,events,calls,attachments}/<start>.json` (a JSON list each, named
 *     by the index of its first item). One log can mix both shapes; text the writer moved into the
 *     attachments sequence is referenced as `attachment://<index>` (chunked/read.py). This reader needs
 *     only the shell (input, target, output, scores), `metadata.json`, and the attachments chunks when
 *     the shell refers to one; message, event and call chunks are not read.
 *   Entries are deflated or, in newer logs, Zstandard-compressed (zip method 93, written by
 *   src/inspect_ai/_util/zipfile.py); both are read (yauzl for the archive, fzstd for Zstandard).
 * A sample is `{ id, epoch, input, target, output: { completion?, choices: [{ message: { content },
 * stop_reason }], usage: { output_tokens } }, scores: { <scorer>: { value, answer } }, metadata }`.
 * The epochs of one sample id are the samples of one problem. Which score is the verdict: inspectScorer.ts.
 */
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Decompress as ZstdDecompress } from 'fzstd';
import * as yauzl from 'yauzl';
import type { Diagnostic, ModelRef, ProblemRecord, ReadEvent, SampleRecord } from '../model';
import {
  invalidUtf8Bytes,
  invalidUtf8Message,
  isUnsafeInteger,
  nonFiniteMessage,
  parseExactIntegers,
  parseJsonTolerant,
  stripBom,
} from '../text/textFile';
import { ScorerRule } from './inspectScorer';
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
  toReference,
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

/**
 * Text of message content: a string, or content blocks (`reasoning` and `text` blocks in their order, joined by
 * blank lines). A reasoning block marked `redacted` holds no readable reasoning (an encrypted or withheld one) and
 * is left out.
 */
export function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    if (readableReasoning(b)) parts.push(b.reasoning as string);
    else if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
  }
  return parts.join('\n\n');
}

/** A content block of readable reasoning: `{type: 'reasoning', reasoning: '...'}`, not redacted. */
function readableReasoning(b: Record<string, unknown>): boolean {
  return b.type === 'reasoning' && typeof b.reasoning === 'string' && b.reasoning !== '' && b.redacted !== true;
}

export { inspectScore } from './inspectScorer';

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

/**
 * What becomes of an Inspect sample that errored (`error` set) and has no score (inspect_ai records the
 * exception of a failed solver or scorer in `sample.error`; the scorer that raised gives no score): by default
 * it is left out of every figure, as Inspect's own metrics leave it out of their denominator (inspect_ai docs,
 * "Scoring Policy": accuracy over the scored samples only); with `incorrect` (CLI `--errored-samples incorrect`,
 * setting `traceInspector.erroredSamples`) it is graded incorrect, a failure in n. Either way the log says how
 * many samples errored ({@link ErroredSamples.summary}) and each such sample says it errored, with its error.
 */
export type ErroredSamplesPolicy = 'exclude' | 'incorrect';

/** The errored samples of one log ({@link ErroredSamplesPolicy}): the rule, and how many there were. */
class ErroredSamples {
  count = 0;
  samples = 0;
  constructor(readonly policy: ErroredSamplesPolicy) {}

  /** The one-line error of a sample (`RuntimeError: boom`), or null when it did not error. */
  static errorOf(s: Record<string, unknown>): string | null {
    const e = s.error;
    if (e === null || e === undefined || e === false) return null;
    const message = isObject(e) ? toStr(e.message) : toStr(e);
    return clip((message ?? 'an error').replace(/\s+/g, ' ').trim() || 'an error', 160);
  }

  /** The verdict an errored sample without a score gets: none (left out) or incorrect. */
  verdict(): boolean | null {
    return this.policy === 'incorrect' ? false : null;
  }

  /** What becomes of such a sample, said in its warning. */
  fate(): string {
    return this.policy === 'incorrect'
      ? 'counted as incorrect (--errored-samples incorrect)'
      : "left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics";
  }

  /** One warning on the log when some samples errored: how many, of which model, and what became of them. */
  summary(model: string): { message: string; severity: 'warning' }[] {
    if (this.count === 0) return [];
    const n = this.count === this.samples ? `all ${this.samples}` : `${this.count} of ${this.samples}`;
    const what = `${n} samples of model ${model} errored (error set, no score)`;
    return [
      {
        severity: 'warning',
        message:
          this.policy === 'incorrect'
            ? `${what}: counted as incorrect, failures in n (--errored-samples incorrect, setting traceInspector.erroredSamples); by default they are left out of every figure, as Inspect's own metrics leave them out`
            : `${what}: left out of every figure over graded samples and of maj@k's votes, as Inspect's own metrics leave them out of their denominator; to count them as failures give --errored-samples incorrect (setting traceInspector.erroredSamples)`,
      },
    ];
  }
}

/** Whether a sample's `scores` hold any value (an errored sample has none, or `{}`). */
function hasScore(scores: unknown): boolean {
  return (
    isObject(scores) && Object.values(scores).some((x) => isObject(x) && x.value !== null && x.value !== undefined)
  );
}

/**
 * Builds a sample from an Inspect sample object.
 * - text = `output.choices[0].message.content` ({@link contentText}) when it has a block of readable reasoning
 *   (a reasoning model's reasoning, which `output.completion` leaves out, and which `output.usage.output_tokens`
 *   counts), else `output.completion` when a non-empty string, else that content; neither: empty text and a warning.
 * - correct and extractedAnswer (the score's `answer`) from the log's scorer ({@link ScorerRule}); no
 *   scores: ungraded. A graded sample has no reward score: the scorer's value is what its verdict is
 *   made of (C/I, P's 0.5), not a reward model's score, so best-of-k by it would only restate pass@k;
 *   a number that is not a verdict (the sample is then ungraded) is kept as the reward score.
 * - a sample that errored (`error` set) without any score: as {@link ErroredSamples} says (left out, or
 *   incorrect), its warning naming the error; its finishReason is `error` when its output gives none.
 * - finishReason = `choices[0].stop_reason`; tokenCount = `output.usage.output_tokens`.
 */
function toSample(
  s: Record<string, unknown>,
  rule: ScorerRule,
  warnings: string[],
  errored: ErroredSamples,
): SampleRecord {
  const output = isObject(s.output) ? s.output : {};
  const choice0 = Array.isArray(output.choices) && isObject(output.choices[0]) ? output.choices[0] : null;
  const content = choice0 && isObject(choice0.message) ? choice0.message.content : undefined;
  // `completion` is the answer's text only: a reasoning model's reasoning is in the message's content blocks
  const reasons = Array.isArray(content) && content.some((b) => isObject(b) && readableReasoning(b));
  let text: string | null =
    !reasons && typeof output.completion === 'string' && output.completion !== '' ? output.completion : null;
  if (text === null && content !== undefined) text = contentText(content);
  const error = hasScore(s.scores) ? null : ErroredSamples.errorOf(s);
  errored.samples++;
  if (error !== null) {
    errored.count++;
    const noText = text === null ? 'no output text, ' : '';
    warnings.push(
      `sample ${String(s.id)} epoch ${String(s.epoch)} errored (${noText}no score): ${error}; ${errored.fate()}`,
    );
  } else if (text === null) {
    warnings.push(`sample ${String(s.id)} epoch ${String(s.epoch)} has no output text`);
  }
  const scored = error === null ? rule.read(s.scores) : { correct: errored.verdict(), reward: null, answer: null };
  const { correct, answer } = scored;
  const reward = correct === null ? scored.reward : null;
  const usage = isObject(output.usage) ? output.usage : {};
  const stop = choice0 ? toStr(choice0.stop_reason) : null;
  return {
    text: text ?? '',
    correct,
    extractedAnswer: answer,
    rewardScore: reward,
    finishReason: stop ?? (error !== null ? 'error' : null),
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
  rule: ScorerRule,
  warnings: SampleWarning[],
  errored: ErroredSamples,
  entries?: readonly string[],
): ProblemRecord {
  // by epoch (a stable sort: equal epochs keep their order), each sample with the archive entry it came from
  const order = group.map((_, i) => i).sort((a, b) => (toNum(group[a].epoch) ?? 0) - (toNum(group[b].epoch) ?? 0));
  const sorted = order.map((i) => group[i]);
  const sortedEntries = entries ? order.map((i) => entries[i]) : undefined;
  const grader = rule.source();
  const first = sorted[0];
  const meta = isObject(first.metadata) ? first.metadata : {};
  return {
    line: 1,
    model: grader === null ? model : { ...model, grader: `scorer "${grader}"` },
    dataset,
    problemId: id,
    question: inputText(first.input),
    referenceAnswer: toReference(first.target), // a list of targets: any of them (answers/reference.ts)
    level: toStr(meta.level) ?? toStr(meta.difficulty),
    subject: toStr(meta.subject) ?? toStr(meta.type),
    samples: sorted.map((s, i) => {
      const own: string[] = [];
      const sample = { ...toSample(s, rule, own, errored), sampleIndex: i };
      for (const message of own) warnings.push({ message, entry: sortedEntries?.[i] });
      return sample;
    }),
    ...(sortedEntries ? { entries: sortedEntries } : {}),
  };
}

/** A warning about one sample: its message, and the archive entry the sample came from (absent in a `.json` log). */
interface SampleWarning {
  message: string;
  entry?: string;
}

/**
 * A diagnostic at an entry of the archive (`samples/3_epoch_2.json`), not at a line: model.ts `Diagnostic.entry`,
 * printed `<file>.eval:samples/3_epoch_2.json` (trial 12 finding 24: was `<file>.eval:1`).
 */
function entryDiag(
  ctx: Pick<ReaderContext, 'relPath'>,
  entry: string,
  message: string,
  severity: Diagnostic['severity'] = 'error',
): ReadEvent {
  return { kind: 'diagnostic', diagnostic: { file: ctx.relPath, line: 0, entry, message, severity } };
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
  const rule = new ScorerRule(ctx.options?.scorer);
  rule.survey(log.samples.map((x) => (isObject(x) ? x.scores : undefined)));
  const errored = new ErroredSamples(ctx.options?.erroredSamples ?? 'exclude');
  for (const [id, group] of groups) {
    checkAbort(ctx);
    const warnings: SampleWarning[] = [];
    const record = toProblem(id, group, model, dataset, rule, warnings, errored);
    for (const w of warnings) yield diag(ctx, 1, w.message, 'warning');
    yield { kind: 'problem', record };
  }
  for (const d of [...errored.summary(model.name), ...rule.summary()]) yield diag(ctx, 0, d.message, d.severity);
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

/** Zip compression method of Zstandard (APPNOTE 4.4.5), used by newer inspect_ai versions. */
const ZIP_ZSTANDARD = 93;

/**
 * Reads one entry fully, refusing more than `cap` bytes (declared or actual, after decompression).
 * Stored and deflated entries are decoded by yauzl; Zstandard entries (method 93) are read raw and
 * decoded by fzstd's streaming decompressor, counting its output so that a small entry that inflates
 * beyond the cap is stopped. Other methods: an error naming the method.
 */
function readEntry(zf: yauzl.ZipFile, entry: yauzl.Entry, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (entry.uncompressedSize > cap) {
      reject(new Error(`entry ${entry.fileName} is too large (${entry.uncompressedSize} bytes > ${cap} bytes)`));
      return;
    }
    const zstd = entry.compressionMethod === ZIP_ZSTANDARD;
    if (!zstd && entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      reject(new Error(`entry ${entry.fileName} uses zip compression method ${entry.compressionMethod}, not read`));
      return;
    }
    zf.openReadStream(entry, zstd ? { decodeFileData: false } : {}, (err, stream?: Readable) => {
      if (err || !stream) {
        reject(err ?? new Error('cannot read entry'));
        return;
      }
      const parts: Buffer[] = [];
      let total = 0;
      let failed = false;
      const take = (b: Uint8Array): void => {
        total += b.length;
        if (total > cap) throw new Error(`entry ${entry.fileName} is too large (over ${cap} bytes)`);
        // yauzl's chunks are fresh Buffers; fzstd's output is copied (a decoder may reuse its window)
        parts.push(Buffer.isBuffer(b) ? b : Buffer.from(b));
      };
      const decoder = zstd ? new ZstdDecompress((chunk) => take(chunk)) : null;
      const fail = (e: unknown): void => {
        if (failed) return;
        failed = true;
        const msg = e instanceof Error ? e.message : String(e);
        stream.destroy();
        reject(new Error(decoder && !/too large/.test(msg) ? `entry ${entry.fileName}: Zstandard data: ${msg}` : msg));
      };
      stream.on('data', (b: Buffer) => {
        try {
          if (decoder) decoder.push(b);
          else take(b);
        } catch (e) {
          fail(e);
        }
      });
      stream.on('error', fail);
      stream.on('end', () => {
        if (failed) return;
        try {
          decoder?.push(new Uint8Array(0), true);
        } catch (e) {
          fail(e);
          return;
        }
        resolve(Buffer.concat(parts, total));
      });
    });
  });
}

/** A monolith sample entry (log format version 2): `samples/<id>_epoch_<n>.json`. */
const MONOLITH_ENTRY = /^samples\/(.+)_epoch_(\d+)\.json$/;
/** The shell of a chunked sample (log format version 3): `samples/<id>_epoch_<n>/sample.json`. */
const CHUNKED_SHELL = /^samples\/(.+)_epoch_(\d+)\/sample\.json$/;
/** Any entry of a chunked sample's folder. */
const CHUNKED_PART =
  /^samples\/.+_epoch_\d+\/(sample|metadata|skeleton)\.json$|^samples\/.+_epoch_\d+\/(messages|events|calls|attachments)\/[^/]+\.json$/;
/** Highest log format version whose layout this reader knows (chunked samples). */
const KNOWN_LOG_VERSION = 3;
/** A string that is wholly a reference to an attachment: `attachment://<index>` (chunked) or `attachment://<hash>`. */
const ATTACHMENT_REF = /^attachment:\/\/([0-9a-f]+)$/;

/** One epoch of one sample in an archive, in either shape. */
interface SampleEntry {
  epoch: number;
  entry: yauzl.Entry;
  /** For a chunked sample: the folder `samples/<id>_epoch_<n>` of its parts. */
  chunked: string | null;
}

/**
 * Replaces, in the fields this reader uses (input, target, output), every string that is wholly an
 * attachment reference by the attachment's text, from `lookup` (undefined: left as is). Works on a copy.
 */
async function resolveAttachments(
  s: Record<string, unknown>,
  lookup: (ref: string) => Promise<string | undefined>,
): Promise<Record<string, unknown>> {
  const walk = async (v: unknown): Promise<unknown> => {
    if (typeof v === 'string') {
      const m = ATTACHMENT_REF.exec(v);
      return m ? ((await lookup(m[1])) ?? v) : v;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const x of v) out.push(await walk(x));
      return out;
    }
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = await walk(x);
      return out;
    }
    return v;
  };
  if (!JSON.stringify([s.input, s.target, s.output]).includes('attachment://')) return s;
  return { ...s, input: await walk(s.input), target: await walk(s.target), output: await walk(s.output) };
}

/**
 * Reads a `.eval` archive (both sample shapes, see the module comment). Errors (each a diagnostic at
 * line 0 unless noted; other entries still read): corrupt or non-zip archive (`corrupt .eval archive
 * (...)`, no records); no `header.json` nor `_journal/start.json` (`no header.json ...`, no records); an
 * entry over `maxEntryBytes` or the archive over `maxTotalBytes` uncompressed (zip-bomb guard, also for
 * Zstandard entries); a sample entry that is not valid JSON (line 1, that epoch skipped); entries under
 * `samples/` in neither known layout (counted, named); a header version above 3 (warning: read as far as
 * the layout is known); an archive without samples (warning). Then the scorer summary ({@link ScorerRule}).
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
    const archive = new EvalArchive(ctx, zf, entries, limits);
    const header = await archive.header();
    if ('error' in header) {
      yield* header.error;
      return;
    }
    const { model, dataset } = header;
    yield* header.warnings;
    // group sample entries (either shape) by id, epochs ascending
    const { groups, unknown } = sampleGroups(entries);
    if (unknown.length > 0) {
      yield diag(
        ctx,
        0,
        `${unknown.length} entr${unknown.length === 1 ? 'y' : 'ies'} under samples/ in no known layout (samples/<id>_epoch_<n>.json, or samples/<id>_epoch_<n>/sample.json with its chunks), not read: ${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', ...' : ''}`,
      );
    }
    if (groups.size === 0) {
      if (unknown.length === 0) yield diag(ctx, 0, 'Inspect log has no samples (header-only log)', 'warning');
      return;
    }
    const rule = new ScorerRule(ctx.options?.scorer);
    const errored = new ErroredSamples(ctx.options?.erroredSamples ?? 'exclude');
    const ids = [...groups.keys()].sort(compareIds);
    if (rule.needsSurvey()) await archive.survey(rule, groups, ids);
    for (const id of ids) {
      checkAbort(ctx);
      const group = groups.get(id)!.sort((a, b) => a.epoch - b.epoch);
      const read = await archive.readEpochs(group);
      yield* read.events;
      if (read.stopped) break;
      const samples = read.samples;
      if (samples.length === 0) continue;
      const warnings: SampleWarning[] = [];
      // the entry name holds the id as written; a parsed id beyond 2^53 has lost digits
      const parsedId = isUnsafeInteger(samples[0].id) ? null : toStr(samples[0].id);
      const record = toProblem(parsedId ?? id, samples, model, dataset, rule, warnings, errored, read.entries);
      for (const w of warnings)
        yield w.entry ? entryDiag(ctx, w.entry, w.message, 'warning') : diag(ctx, 1, w.message, 'warning');
      yield { kind: 'problem', record };
    }
    for (const d of [...errored.summary(model.name), ...rule.summary()]) yield diag(ctx, 0, d.message, d.severity);
  } finally {
    zf.close();
  }
}

/** The sample entries of an archive grouped by sample id (either layout), and the entries under `samples/` in neither. */
function sampleGroups(entries: readonly yauzl.Entry[]): { groups: Map<string, SampleEntry[]>; unknown: string[] } {
  const groups = new Map<string, SampleEntry[]>();
  const unknown: string[] = [];
  for (const e of entries) {
    const m = CHUNKED_SHELL.exec(e.fileName) ?? MONOLITH_ENTRY.exec(e.fileName);
    if (!m) {
      if (e.fileName.startsWith('samples/') && !e.fileName.endsWith('/') && !CHUNKED_PART.test(e.fileName)) {
        unknown.push(e.fileName);
      }
      continue;
    }
    const chunked = e.fileName.endsWith('/sample.json') ? e.fileName.slice(0, -'/sample.json'.length) : null;
    let g = groups.get(m[1]);
    if (!g) groups.set(m[1], (g = []));
    g.push({ epoch: Number(m[2]), entry: e, chunked });
  }
  return { groups, unknown };
}

/** The message of an error reading an entry: a JSON error as the JSON readers say it, else the error's own (clipped). */
function entryErrorText(err: unknown): string {
  return err instanceof SyntaxError || err instanceof RangeError
    ? jsonErrorMessage(err)
    : clip(err instanceof Error ? err.message : String(err), 160);
}

/**
 * An open `.eval` archive being read: its entries by name, the bytes read so far against the zip-bomb
 * budget ({@link InspectLimits}), and the warnings of entries read (invalid UTF-8, NaN / Infinity),
 * said with the entry's name.
 */
class EvalArchive {
  private totalBytes = 0;
  /** Entry warnings (invalid UTF-8, NaN / Infinity literals), reported with the entry's name. */
  readonly entryWarnings: ReadEvent[] = [];
  private readonly byName: Map<string, yauzl.Entry>;

  constructor(
    private readonly ctx: ReaderContext,
    private readonly zf: yauzl.ZipFile,
    private readonly entries: readonly yauzl.Entry[],
    private readonly limits: InspectLimits,
  ) {
    this.byName = new Map(entries.map((e) => [e.fileName, e]));
  }

  /** Why reading entry `e` would go over the archive's budget of uncompressed bytes, or null. */
  budget(e: yauzl.Entry): string | null {
    if (this.totalBytes + e.uncompressedSize > this.limits.maxTotalBytes) {
      return `archive exceeds ${this.limits.maxTotalBytes} uncompressed bytes; stopped before ${e.fileName}`;
    }
    return null;
  }

  /** One entry parsed as JSON (its bytes counted against the budget). */
  async readJsonEntry(e: yauzl.Entry): Promise<unknown> {
    const buf = await readEntry(
      this.zf,
      e,
      Math.min(this.limits.maxEntryBytes, this.limits.maxTotalBytes - this.totalBytes),
    );
    this.totalBytes += buf.length;
    const text = buf.toString('utf8');
    const bad = invalidUtf8Bytes(buf, text);
    if (bad > 0) this.entryWarnings.push(entryDiag(this.ctx, e.fileName, invalidUtf8Message(bad), 'warning'));
    const parsed = parseJsonTolerant(stripBom(text));
    if (parsed.nonFinite > 0)
      this.entryWarnings.push(entryDiag(this.ctx, e.fileName, nonFiniteMessage(parsed), 'warning'));
    return parsed.value;
  }

  /**
   * The log's model and dataset from `header.json` (or `_journal/start.json`), the model's run the log
   * itself (two logs of one model are two runs, not duplicates), with a warning on a log version newer
   * than this reader knows; or the errors saying why the archive is not read.
   */
  async header(): Promise<{ error: ReadEvent[] } | { model: ModelRef; dataset: string; warnings: ReadEvent[] }> {
    const ctx = this.ctx;
    const headerEntry = this.byName.get('header.json') ?? this.byName.get('_journal/start.json');
    if (!headerEntry)
      return { error: [diag(ctx, 0, 'no header.json or _journal/start.json in the .eval archive; not read')] };
    let header: unknown;
    try {
      header = await this.readJsonEntry(headerEntry);
    } catch (err) {
      return { error: [diag(ctx, 0, `${headerEntry.fileName}: ${entryErrorText(err)}; not read`)] };
    }
    if (!isObject(header) || !isObject(header.eval))
      return { error: [diag(ctx, 0, `${headerEntry.fileName} has no eval object; not read`)] };
    const warnings: ReadEvent[] = [];
    const version = toNum(header.version);
    if (version !== null && version > KNOWN_LOG_VERSION) {
      warnings.push(
        diag(
          ctx,
          0,
          `log format version ${version} is newer than this reader knows (up to ${KNOWN_LOG_VERSION}); samples are read where their layout is known`,
          'warning',
        ),
      );
    }
    const { model, dataset } = inspectModelAndDataset(header.eval);
    // Each Inspect log is its own evaluation run: two logs of one model are two runs, not duplicates.
    model.run = this.ctx.relPath;
    return { model, dataset, warnings };
  }

  /**
   * The default scorer rule looks at every sample's scores before the first verdict is read: from the
   * archive's summaries.json when it lists every sample with its scores, else from the samples.
   */
  async survey(rule: ScorerRule, groups: Map<string, SampleEntry[]>, ids: string[]): Promise<void> {
    const spent = this.totalBytes;
    const scores = await surveyScores(this.byName, groups, ids, async (e) => {
      if (this.budget(e)) throw new Error('over budget');
      return this.readJsonEntry(e);
    });
    // the survey reads entries a second time: its bytes and warnings are not the reading's
    this.totalBytes = spent;
    this.entryWarnings.splice(0);
    rule.survey(scores);
  }

  /** The attachments sequence of a chunked sample (list of strings, by index), read once when first needed. */
  private async attachmentsOf(folder: string): Promise<string[]> {
    const prefix = `${folder}/attachments/`;
    const chunks = this.entries
      .filter((e) => e.fileName.startsWith(prefix) && /^\d+\.json$/.test(e.fileName.slice(prefix.length)))
      .map((e) => ({ start: Number(e.fileName.slice(prefix.length, -'.json'.length)), e }))
      .sort((a, b) => a.start - b.start);
    const out: string[] = [];
    for (const { start, e } of chunks) {
      const over = this.budget(e);
      if (over) throw new Error(over);
      const list = await this.readJsonEntry(e);
      if (!Array.isArray(list))
        throw new Error(`attachments chunk ${e.fileName} is not a list (got ${typeName(list)})`);
      list.forEach((x, i) => {
        out[start + i] = typeof x === 'string' ? x : String(x);
      });
    }
    return out;
  }

  /** Reads one epoch: the monolith entry, or a chunked sample's shell with its metadata and attachments. */
  private async readSample(se: SampleEntry): Promise<Record<string, unknown>> {
    const s = await this.readJsonEntry(se.entry);
    if (!isObject(s)) throw new Error(`not a JSON object (got ${typeName(s)})`);
    let sample: Record<string, unknown> = s;
    if (se.chunked !== null) {
      const meta = this.byName.get(`${se.chunked}/metadata.json`);
      if (meta && sample.metadata === undefined) {
        const over = this.budget(meta);
        if (over) throw new Error(over);
        sample = { ...sample, metadata: await this.readJsonEntry(meta) };
      }
      let attachments: string[] | null = null;
      const folder = se.chunked;
      sample = await resolveAttachments(sample, async (ref) => {
        if (!/^\d+$/.test(ref)) return undefined;
        attachments ??= await this.attachmentsOf(folder);
        return attachments[Number(ref)];
      });
    } else if (isObject(sample.attachments) && Object.keys(sample.attachments).length > 0) {
      const map = sample.attachments;
      sample = await resolveAttachments(sample, async (ref) => toStr(map[ref]) ?? undefined);
    }
    return sample;
  }

  /**
   * The epochs of one sample id: the samples read, the entry each came from (its shell's, for a chunked
   * sample), the diagnostics on the way (an epoch that cannot be read is skipped and said; the entries'
   * warnings), and `stopped` when the archive went over its budget (nothing more is read).
   */
  async readEpochs(
    group: readonly SampleEntry[],
  ): Promise<{ samples: Record<string, unknown>[]; entries: string[]; events: ReadEvent[]; stopped: boolean }> {
    const ctx = this.ctx;
    const samples: Record<string, unknown>[] = [];
    const entries: string[] = [];
    const events: ReadEvent[] = [];
    let stopped = false;
    for (const se of group) {
      const over = this.budget(se.entry);
      if (over) {
        events.push(diag(ctx, 0, over));
        stopped = true;
        break;
      }
      try {
        samples.push(await this.readSample(se));
        entries.push(se.entry.fileName);
      } catch (err) {
        const msg = entryErrorText(err);
        if (/^archive exceeds/.test(msg)) {
          events.push(diag(ctx, 0, msg));
          stopped = true;
          break;
        }
        // an entry refused for its declared size concerns the archive (line 0); bad content, at the entry
        events.push(
          /too large|compression method/.test(msg)
            ? diag(ctx, 0, `${se.entry.fileName}: ${msg}; skipped`)
            : entryDiag(ctx, se.entry.fileName, `${msg.replace(`entry ${se.entry.fileName}: `, '')}; skipped`),
        );
      }
    }
    events.push(...this.entryWarnings.splice(0));
    return { samples, entries, events, stopped };
  }
}

/**
 * The `scores` of every sample of an archive, for {@link ScorerRule.survey}, in the reading order (ids
 * in natural order, epochs ascending): from `summaries.json` (inspect_ai writes one summary per sample,
 * with its scores, when a run finishes) when it has an entry with scores for every sample entry; else
 * each sample entry is read for its scores (a sample that cannot be read is left out here; the reading
 * reports it). `read` throws to stop the survey (the archive's byte budget), which keeps what was read.
 */
async function surveyScores(
  byName: Map<string, yauzl.Entry>,
  groups: Map<string, SampleEntry[]>,
  ids: string[],
  read: (e: yauzl.Entry) => Promise<unknown>,
): Promise<unknown[]> {
  const summaries = byName.get('summaries.json');
  if (summaries) {
    try {
      const list = await read(summaries);
      if (Array.isArray(list)) {
        const byKey = new Map<string, unknown>();
        for (const x of list)
          if (isObject(x) && isObject(x.scores)) byKey.set(`${toStr(x.id)}\u0000${toNum(x.epoch)}`, x.scores);
        const out: unknown[] = [];
        for (const id of ids)
          for (const se of [...groups.get(id)!].sort((a, b) => a.epoch - b.epoch))
            out.push(byKey.get(`${id}\u0000${se.epoch}`));
        if (out.every((x) => x !== undefined)) return out;
      }
    } catch {
      // unreadable summaries: the samples themselves are read below
    }
  }
  const out: unknown[] = [];
  try {
    for (const id of ids) {
      for (const se of [...groups.get(id)!].sort((a, b) => a.epoch - b.epoch)) {
        try {
          const s = await read(se.entry);
          if (isObject(s)) out.push(s.scores);
        } catch (err) {
          if (err instanceof Error && err.message === 'over budget') throw err;
        }
      }
    }
  } catch {
    // over the archive's budget: the survey keeps the samples read so far
  }
  return out;
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
