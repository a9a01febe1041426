/**
 * An indexing pass over a results folder ({@link indexFolder}): the pipeline's order and bookkeeping. Each
 * stage's work is in its own module: discover.ts (which files to read), the readers (records), writer.ts
 * (one file's rows), then over the whole index labels.ts, scoreDiagnostics.ts and annotationFates.ts; lock.ts
 * keeps a second pass off the same database. This module decides each file's fate (skipped, read, removed),
 * keeps the pass's counts and meta keys, and sums the pass up ({@link IndexSummary}).
 */
import { type Stats, promises as fsp } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Diagnostic, FormatId } from '../model';
import {
  type ReaderOptions,
  compressedFileDiagnostic,
  detectFile,
  isNonResultFile,
  unreachableDiagnostics,
  unreadFileDiagnostics,
} from '../readers';
import { mappingFileDiagnostics, unmatchedMappingGlobs } from '../readers/mapping';
import { plural } from '../text/strings';
import type { AnnotationFates } from './annotations';
import { annotatedSamples, annotationFates, reattachAnnotations } from './annotationFates';
import { refreshScoreDiagnostics } from './scoreDiagnostics';
import { KEY_SEP, TraceIndex } from './traceIndex';
import { refreshModelLabels } from './labels';
import { PARALLEL_READ_MIN_BYTES, readFileParallel } from './parallelRead';
import { reclaimSpace } from './schema';
import { buildSearchIndex } from './searchIndex';
import { READER_VERSION } from '../readers/version';
import {
  MARKERS_FILE,
  MARKERS_LEXICON_KEY,
  MarkerCounter,
  type MarkerLexicon,
  lexiconKey,
  loadMarkerLexicon,
} from '../text/markers';
import { type IndexBusyError, acquireLock, releaseLock, touchLock } from './lock';
import { type FileRow, SampleWriter } from './writer';
import {
  type FoundFiles,
  discoverFiles,
  duplicateDependents,
  hashFile,
  mappingFilesChanged,
  temperatureNeighbourChanges,
} from './discover';

/** Progress of an indexing pass, reported after each file and every few thousand samples. */
export interface IndexProgress {
  phase: 'scan' | 'index' | 'done';
  file?: string;
  filesDone: number;
  filesTotal: number;
  samples: number;
  /**
   * Said once per pass, with the `scan` phase, when the pass reads every file again because the index
   * was built by another version of the readers ({@link READER_VERSION}): "index built by an older
   * version of the readers: re-reading N files". Shown by the CLI's progress and the extension's status.
   */
  notice?: string;
}

export interface IndexOptions {
  /** Globs (relative to the folder, POSIX) of files to consider; default: every file. */
  include?: string[];
  /** Globs of files to leave out. */
  exclude?: string[];
  /** Forces one format for every candidate file instead of detecting it per file. */
  format?: FormatId;
  /**
   * How files are read (the Inspect scorer, the correctness threshold: see readers/types.ts). The options of the last pass are kept in the index;
   * when they change, every file is read again (unchanged files too), since their samples would differ.
   */
  readerOptions?: ReaderOptions;
  /** Stops between records; the pass then resolves with `cancelled: true`. */
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /** Samples per transaction when a file is new (its samples become queryable batch by batch). Default 20000. */
  batchSize?: number;
  /**
   * Writes each sample into the full-text index as it is indexed (default true). A pass without it
   * (the CLI and the extension: the figures first) leaves the samples it wrote out of the full-text index;
   * ./searchIndex `buildSearchIndex` adds them afterwards, as does the end of the next pass with it.
   */
  fts?: boolean;
  /**
   * Files of at least this many bytes are parsed on a second thread while this one writes
   * ({@link readFileParallel}); default {@link PARALLEL_READ_MIN_BYTES} (8 MiB). `Infinity` reads every
   * file on this thread.
   */
  parallelReadMinBytes?: number;
}

/** Summary of one indexing pass (the CLI's JSON output). */
export interface IndexSummary {
  filesIndexed: number;
  filesSkipped: number;
  filesRemoved: number;
  /** Samples in the index after the pass. */
  samples: number;
  /** Samples written by this pass. */
  samplesWritten: number;
  /** Every diagnostic of the files now indexed (including unchanged files from earlier passes). */
  diagnostics: Diagnostic[];
  cancelled: boolean;
  /** Results files read again by this pass because the index was built by another {@link READER_VERSION} (0 when current). */
  filesStale: number;
  /**
   * Results files that left the index in this pass while still in the folder: no longer listed by the
   * include/exclude globs (also counted in `filesRemoved`, and in one info diagnostic while they stay out).
   */
  filesExcluded: number;
  /**
   * Annotations moved to the key their sample has now (same file, line and text; another model,
   * problem or sample index under the readers' current naming): see {@link reattachAnnotations}.
   */
  annotationsReattached: number;
  /**
   * The live annotations that were on samples of the results files this pass read again or removed
   * ({@link annotationFates}): `onSample`, on a sample after the pass (its text unchanged: same key and
   * content hash, or moved as in `annotationsReattached`); `onNoSample`, on none (its sample's text changed,
   * or the sample left the folder; the annotation stays in the index and the mirror, shown on no sample).
   * Files not read again are not counted.
   */
  annotationsOfChangedFiles: AnnotationFates;
  /** Milliseconds from start until the first sample of this pass was committed (queryable), or null. */
  firstCommitMs: number | null;
  elapsedMs: number;
}

/** SQLite page cache of the indexing connection during a pass, in KiB. */
const INDEXING_CACHE_KIB = 8000;

/** Meta key of the reader options of the last complete pass (JSON). */
const READER_OPTIONS_KEY = 'reader_options';
export { MARKERS_LEXICON_KEY };

/** {@link lexiconKey} of a stored lexicon (JSON); '' when none or unreadable. */
function lexiconKeyOf(stored: string | undefined): string {
  if (stored === undefined) return '';
  try {
    return lexiconKey(JSON.parse(stored) as MarkerLexicon);
  } catch {
    return '';
  }
}

/** What is wrong with the folder's `.trace-inspector/markers.json` (replaced each pass), as warnings on that file. */
function writeLexiconDiagnostics(index: TraceIndex, problems: readonly string[]): void {
  const db = index.db;
  db.transaction(() => {
    db.prepare('DELETE FROM diagnostics WHERE origin = ?').run(MARKERS_FILE);
    const ins = db.prepare('INSERT INTO diagnostics (file, line, severity, message, origin) VALUES (?, 0, ?, ?, ?)');
    for (const p of problems) ins.run(MARKERS_FILE, 'warning', `reasoning-marker lexicon: ${p}`, MARKERS_FILE);
  })();
}

/** Meta key of the {@link READER_VERSION} the index's samples were read with (absent: built before it existed). */
export const READER_VERSION_KEY = 'reader_version';
/** Meta key of the results files left out by the include/exclude globs while still in the folder (JSON list of paths). */
const EXCLUDED_KEY = 'excluded_files';
/** `origin` of the one diagnostic counting those files (recomputed each pass). */
const EXCLUDED_ORIGIN = `${KEY_SEP}excluded`;
/** Meta key of the absolute path of the results folder last indexed. */
export const ROOT_KEY = 'root';

/**
 * Indexes every supported results file under `root` into `index`, incrementally:
 * - a file whose size and mtime are unchanged, or whose content hash is unchanged, is skipped;
 * - a changed file is replaced atomically (one transaction: the old samples stay visible until
 *   the new ones commit; a crash leaves the old version);
 * - a new file is written in batches (queryable early) and marked `partial` until complete, so a
 *   crash or cancellation makes the next pass redo it;
 * - a file that disappeared loses its samples.
 * Bad content never throws: it becomes diagnostics (file, line, reason); I/O errors on one file
 * become a diagnostic for that file. Only one indexer may write a database at a time: a second
 * one gets {@link IndexBusyError} while the first is alive.
 */
export async function indexFolder(index: TraceIndex, root: string, options: IndexOptions = {}): Promise<IndexSummary> {
  const started = Date.now();
  const db = index.db;
  const report = options.onProgress ?? (() => {});
  acquireLock(db);
  // The folder the files' paths are relative to (sample texts are read from the files: sampleText.ts).
  index.setMeta(ROOT_KEY, resolve(root));
  // Writing needs few cached pages (samples are appended); a smaller page cache for the pass keeps
  // its peak memory down. The connection's own setting comes back afterwards.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = -${INDEXING_CACHE_KIB}`);
  const heartbeat = setInterval(() => touchLock(db), 10_000);
  heartbeat.unref?.();
  const pass = newPass(started);
  let annotationsOfChangedFiles: AnnotationFates = { onSample: 0, onNoSample: 0, orphaned: [] };
  try {
    report({ phase: 'scan', filesDone: 0, filesTotal: 0, samples: 0 });
    // 1. discover: the results files of the folder, and what their paths tell the readers
    const found = await discoverFiles(root, options);
    const fts = options.fts !== false;
    // the reasoning-marker lexicon (text/markers.ts): shipped, plus the folder's additions
    const markers = await loadMarkerLexicon(root);
    const writer = new SampleWriter(db, fts, new MarkerCounter(markers.lexicon));
    pass.filesStale = markStaleReaderFiles(index, report);
    const annotated = annotatedSamples(db);
    const known = new Map(
      (db.prepare('SELECT id, path, size, mtime_ms, hash, status, format FROM files').all() as FileRow[]).map((f) => [
        f.path,
        f,
      ]),
    );
    // Files that disappeared (or are now excluded).
    const excluded = await removeGoneFiles(index, writer, root, found.candidates, known, pass);
    const readerOptions = await readerOptionsKey(found.readerOpts, found.mappingFile);
    await writeFolderDiagnostics(index, root, options, found, excluded);
    writeLexiconDiagnostics(index, markers.problems);
    const lexicon = JSON.stringify(markers.lexicon);
    const rereadAll =
      (index.getMeta(READER_OPTIONS_KEY) ?? '{}') !== readerOptions ||
      // counts made with another lexicon are made again (an index from before the counts has none stored)
      (known.size > 0 && lexiconKeyOf(index.getMeta(MARKERS_LEXICON_KEY)) !== lexiconKey(markers.lexicon)) ||
      (await mappingFilesChanged(root, found.candidates, known));
    // files named after their temperature once a sibling at another temperature came or went (trial 8 finding 2d)
    const renamed = known.size > 0 ? temperatureNeighbourChanges(known.keys(), found.candidates) : new Set<string>();

    // 2-4. read each changed file's records and write its rows (and per-problem counts) as they come
    const reader: FolderReader = { index, writer, root, options, readerOpts: found.readerOpts, pass, report };
    for (const rel of found.candidates) {
      if (options.signal?.aborted) {
        pass.cancelled = true;
        break;
      }
      report({
        phase: 'index',
        file: rel,
        filesDone: pass.done,
        filesTotal: found.candidates.length,
        samples: pass.samplesWritten,
      });
      await indexCandidate(reader, rel, known.get(rel), rereadAll || renamed.has(rel), found.candidates.length);
      if (pass.cancelled) break;
    }
    if (!pass.cancelled && pass.changedAt.size > 0) await rereadDependents(reader);
    // 4. derive: what the pass changed, over the whole index (labels, score diagnostics, annotations)
    // changedAt also holds results files that became non-results (their samples left with them).
    if (pass.filesIndexed > 0 || pass.filesRemoved > 0 || pass.changedAt.size > 0) {
      db.transaction(() => {
        writer.pruneOrphans();
        refreshModelLabels(db);
      })();
    }
    let cancelled = pass.cancelled;
    if (!cancelled) db.transaction(() => refreshScoreDiagnostics(index))();
    pass.annotationsReattached = db.transaction(() => reattachAnnotations(db, annotated))();
    annotationsOfChangedFiles = annotationFates(
      db,
      annotated,
      new Set([...pass.changedAt.keys(), ...pass.readAt.keys()]),
    );
    if (!cancelled) index.setMeta(READER_OPTIONS_KEY, readerOptions);
    if (!cancelled) index.setMeta(MARKERS_LEXICON_KEY, lexicon);
    // samples a pass without the full-text index left out of it (`fts: false`) are added now (./searchIndex)
    if (!cancelled && fts && (await buildSearchIndex(index, { signal: options.signal })).cancelled)
      cancelled = pass.cancelled = true;
    // an index from before migration 11 gives back the space of the texts it no longer keeps
    if (!cancelled) reclaimSpace(db);
    report({ phase: 'done', filesDone: pass.done, filesTotal: found.candidates.length, samples: pass.samplesWritten });
  } finally {
    clearInterval(heartbeat);
    releaseLock(db);
    if (db.open) db.pragma(`cache_size = ${cacheSize}`);
  }
  const total = (db.prepare('SELECT count(*) FROM samples').pluck().get() as number) ?? 0;
  return {
    filesIndexed: pass.filesIndexed,
    filesSkipped: pass.filesSkipped,
    filesRemoved: pass.filesRemoved,
    samples: total,
    samplesWritten: pass.samplesWritten,
    diagnostics: index.diagnostics(),
    cancelled: pass.cancelled,
    filesStale: pass.filesStale,
    filesExcluded: pass.filesExcluded,
    annotationsReattached: pass.annotationsReattached,
    annotationsOfChangedFiles,
    firstCommitMs: pass.firstCommitMs,
    elapsedMs: Date.now() - started,
  };
}

/** The counts and bookkeeping of one indexing pass ({@link indexFolder}). */
interface Pass {
  started: number;
  filesIndexed: number;
  filesSkipped: number;
  filesRemoved: number;
  samplesWritten: number;
  firstCommitMs: number | null;
  cancelled: boolean;
  filesStale: number;
  filesExcluded: number;
  annotationsReattached: number;
  /** Candidate files done (read, skipped or failed). */
  done: number;
  /** Order in this pass at which a file's samples changed (removed, replaced) or were (re-)read. */
  seq: number;
  changedAt: Map<string, number>;
  readAt: Map<string, number>;
}

function newPass(started: number): Pass {
  return {
    started,
    filesIndexed: 0,
    filesSkipped: 0,
    filesRemoved: 0,
    samplesWritten: 0,
    firstCommitMs: null,
    cancelled: false,
    filesStale: 0,
    filesExcluded: 0,
    annotationsReattached: 0,
    done: 0,
    seq: 0,
    changedAt: new Map(),
    readAt: new Map(),
  };
}

/**
 * An index built by other readers keeps the names they gave until its files are read again: every
 * file is marked changed (unknown hash and mtime, as markFileChanged does; the samples stay until
 * re-read) and the version stamped at once, so a cancelled pass leaves only the unread files to do.
 * Returns the number of files so marked (said once in a `scan` notice).
 */
function markStaleReaderFiles(index: TraceIndex, report: (p: IndexProgress) => void): number {
  const db = index.db;
  const filesStale = staleReaderFiles(index);
  if (filesStale > 0) {
    db.transaction(() => {
      db.prepare(`UPDATE files SET hash = '', mtime_ms = -1`).run();
      index.setMeta(READER_VERSION_KEY, String(READER_VERSION));
    })();
    report({
      phase: 'scan',
      filesDone: 0,
      filesTotal: 0,
      samples: 0,
      notice: `index built by an older version of the readers: re-reading ${plural(filesStale, 'file')}`,
    });
  } else index.setMeta(READER_VERSION_KEY, String(READER_VERSION));
  return filesStale;
}

/**
 * Removes the files of the index no longer among the candidates (their samples leave the index), and the
 * diagnostics of files gone without a files row. Returns the results files still in the folder but no
 * longer listed by the include/exclude globs: counted in one diagnostic, kept from pass to pass while
 * they stay out (meta EXCLUDED_KEY).
 */
async function removeGoneFiles(
  index: TraceIndex,
  writer: SampleWriter,
  root: string,
  candidates: readonly string[],
  known: ReadonlyMap<string, FileRow>,
  pass: Pass,
): Promise<Set<string>> {
  const db = index.db;
  const present = new Set(candidates);
  const excluded = new Set<string>();
  const isFile = (rel: string) =>
    fsp.stat(join(root, ...rel.split('/'))).then(
      (st) => st.isFile(),
      () => false,
    );
  for (const [path, row] of known) {
    if (!present.has(path)) {
      db.transaction(() => writer.removeFile(row.id, path))();
      if (row.format) {
        pass.filesRemoved++;
        pass.changedAt.set(path, pass.seq++);
        if (await isFile(path)) {
          excluded.add(path);
          pass.filesExcluded++;
        }
      }
    }
  }
  for (const path of JSON.parse(index.getMeta(EXCLUDED_KEY) ?? '[]') as string[])
    if (!present.has(path) && !excluded.has(path) && (await isFile(path))) excluded.add(path);
  index.setMeta(EXCLUDED_KEY, JSON.stringify([...excluded].sort()));
  // Diagnostics of files that are gone without a files row (e.g. deleted after a read error).
  const orphanDiags = (db.prepare('SELECT DISTINCT origin FROM diagnostics').pluck().all() as string[]).filter(
    (f) => !present.has(f),
  );
  if (orphanDiags.length)
    db.transaction(() => {
      const del = db.prepare('DELETE FROM diagnostics WHERE origin = ?');
      for (const f of orphanDiags) del.run(f);
    })();
  return excluded;
}

/**
 * The reader options of this pass as stored in the index (JSON). An added, edited or deleted mapping file
 * can change how any file is read: then every file is read again this pass, unchanged or not. So do
 * other reader options than the last pass's (another Inspect scorer gives other verdicts). A mapping
 * file given by path is no candidate: its content (digest) is part of the options.
 */
async function readerOptionsKey(readerOpts: ReaderOptions | undefined, mappingFile: string | undefined) {
  return JSON.stringify({
    ...(readerOpts ?? {}),
    ...(mappingFile
      ? {
          mappingDigest: await hashFile(
            mappingFile,
            (await fsp.stat(mappingFile).catch(() => ({ size: 0 }))).size,
          ).catch(() => 'missing'),
        }
      : {}),
  });
}

/**
 * The diagnostics about the folder rather than one file, recomputed each pass (the previous pass's are
 * orphans by their origin, deleted by {@link removeGoneFiles}): a mapping file given by path (its own
 * errors), the results files left out by the include/exclude globs, mapping globs that match no listed
 * file, and files no reader is given (a puzzles table `24.csv`, a README: named, never silent; trial 10
 * finding 10f).
 */
async function writeFolderDiagnostics(
  index: TraceIndex,
  root: string,
  options: IndexOptions,
  found: FoundFiles,
  excluded: ReadonlySet<string>,
): Promise<void> {
  const db = index.db;
  const { mappingFile, candidates } = found;
  /** Inserts diagnostics about the folder (inside the caller's transaction), each under its `origin`. */
  const insert = (ds: readonly Diagnostic[], origin: (d: Diagnostic) => string) => {
    const ins = db.prepare('INSERT INTO diagnostics (file, line, severity, message, origin) VALUES (?, ?, ?, ?, ?)');
    for (const x of ds) ins.run(x.file, x.line, x.severity, x.message, origin(x));
  };
  if (mappingFile) {
    const d = await mappingFileDiagnostics(mappingFile, mappingFile, true);
    db.transaction(() => {
      db.prepare('DELETE FROM diagnostics WHERE origin = ?').run(mappingFile);
      insert(d, () => mappingFile);
    })();
  }
  if (excluded.size > 0) {
    const first = [...excluded].sort()[0];
    db.prepare('INSERT INTO diagnostics (file, line, severity, message, origin) VALUES (?, ?, ?, ?, ?)').run(
      first,
      0,
      'info',
      `${plural(excluded.size, 'results file')} not listed by the include/exclude settings (this one${excluded.size > 1 ? ` and ${excluded.size - 1} more` : ''}): their samples left the index and are not counted; their annotations are kept and come back when they are listed again`,
      EXCLUDED_ORIGIN,
    );
  }
  // Mappings whose `files` globs match no listed file (files come and go).
  const unmatched = await unmatchedMappingGlobs(root, candidates, mappingFile);
  if (unmatched.length) db.transaction(() => insert(unmatched, (x) => `${x.file}${KEY_SEP}globs`))();
  // (the index's own database, when it lies in the folder, is no file of the folder's)
  const mainFile = (db.prepare('PRAGMA database_list').all() as { name: string; file: string }[]).find(
    (x) => x.name === 'main',
  )?.file;
  const dbFile = mainFile ? resolve(mainFile) : null;
  const ownFiles = new Set(dbFile ? ['', '-wal', '-shm', '-journal'].map((x) => dbFile + x) : []);
  const unread = [
    ...unreachableDiagnostics(found.unreachable),
    ...unreadFileDiagnostics(
      found.unlisted.filter((rel) => !ownFiles.has(resolve(root, rel))),
      (options.include?.length ?? 0) > 0,
      candidates,
    ),
  ];
  if (unread.length) db.transaction(() => insert(unread, (x) => `${x.file}${KEY_SEP}unread`))();
}

/** What reading the folder's files needs ({@link indexCandidate}, {@link rereadDependents}). */
interface FolderReader {
  index: TraceIndex;
  writer: SampleWriter;
  root: string;
  options: IndexOptions;
  readerOpts: ReaderOptions | undefined;
  pass: Pass;
  report: (p: IndexProgress) => void;
}

/**
 * One candidate file of the pass: skipped when unchanged (same size and mtime, or same content hash,
 * unless `reread`), else its format detected (or forced) and its records read and written
 * ({@link SampleWriter.indexFile}); a file no reader takes is remembered as no results file. An I/O
 * error becomes a diagnostic of that file. Updates the pass's counts (`cancelled` when stopped).
 */
async function indexCandidate(
  fr: FolderReader,
  rel: string,
  prev: FileRow | undefined,
  reread: boolean,
  filesTotal: number,
): Promise<void> {
  const { writer, root, options, pass } = fr;
  const db = fr.index.db;
  const abs = join(root, ...rel.split('/'));
  let stat: Stats;
  try {
    stat = await fsp.stat(abs);
  } catch (e) {
    writer.recordFileError(rel, prev, `cannot read file: ${(e as Error).message}`);
    pass.done++;
    return;
  }
  if (!reread && prev && prev.status === 'ready' && prev.size === stat.size && prev.mtime_ms === stat.mtimeMs) {
    if (prev.format) pass.filesSkipped++;
    pass.done++;
    return;
  }
  // The hash covers the bytes the stat saw, so a file appended to while it is read is seen as
  // changed on the next pass. A file seen before needs it now (unchanged content is skipped); for
  // a new file it is computed alongside the reading, so the first samples commit sooner.
  const hashing = hashFile(abs, stat.size);
  hashing.catch(() => {});
  let fileHash = '';
  if (prev) {
    try {
      fileHash = await hashing;
    } catch (e) {
      writer.recordFileError(rel, prev, `cannot read file: ${(e as Error).message}`);
      pass.done++;
      return;
    }
  }
  if (!reread && prev && prev.status === 'ready' && prev.hash === fileHash) {
    db.prepare('UPDATE files SET size = ?, mtime_ms = ? WHERE id = ?').run(stat.size, stat.mtimeMs, prev.id);
    if (prev.format) pass.filesSkipped++;
    pass.done++;
    return;
  }
  // A forced format still leaves out the folders' own summaries and configs.
  // (a compressed file, by name or by its first bytes, goes to detection, which says so)
  let format: FormatId | null =
    options.format && !isNonResultFile(rel) && (await compressedFileDiagnostic(abs, rel)) === null
      ? options.format
      : null;
  if (!format) {
    let detection: Awaited<ReturnType<typeof detectFile>>;
    try {
      detection = await detectFile(abs, rel, root, fr.readerOpts);
    } catch (e) {
      writer.recordFileError(rel, prev, `cannot read file: ${(e as Error).message}`);
      pass.done++;
      return;
    }
    format = detection.format;
    if (!format) {
      // Not a results file: remember it (with any diagnostics, e.g. empty or binary) so that
      // an unchanged one is not looked at again, and forget an earlier indexed version.
      const h = fileHash || (await hashing.catch(() => ''));
      db.transaction(() => writer.recordNonResult(rel, prev, stat.size, stat.mtimeMs, h, detection.diagnostics))();
      if (prev?.format) pass.changedAt.set(rel, pass.seq++);
      pass.done++;
      return;
    }
    if (detection.diagnostics.length) writer.pendingDiagnostics = detection.diagnostics;
  }
  const result = await writer.indexFile({
    ...fileArgs(fr, rel, format, prev, stat.size),
    mtimeMs: stat.mtimeMs,
    hash: fileHash ? Promise.resolve(fileHash) : hashing,
    onBatch: (n) => {
      if (pass.firstCommitMs === null && n > 0) pass.firstCommitMs = Date.now() - pass.started;
      fr.report({ phase: 'index', file: rel, filesDone: pass.done, filesTotal, samples: pass.samplesWritten + n });
    },
  });
  pass.samplesWritten += result.samples;
  if (result.cancelled) {
    pass.cancelled = true;
    return;
  }
  if (pass.firstCommitMs === null && result.samples > 0) pass.firstCommitMs = Date.now() - pass.started;
  pass.filesIndexed++;
  if (prev?.format) pass.changedAt.set(rel, pass.seq);
  pass.readAt.set(rel, pass.seq++);
  pass.done++;
}

/** The arguments of {@link SampleWriter.indexFile} that do not depend on how the file was found changed. */
function fileArgs(fr: FolderReader, rel: string, format: FormatId, prev: FileRow | undefined, size: number) {
  return {
    root: fr.root,
    rel,
    abs: join(fr.root, ...rel.split('/')),
    format,
    size,
    prev,
    batchSize: fr.options.batchSize ?? 20000,
    parallel: size >= (fr.options.parallelReadMinBytes ?? PARALLEL_READ_MIN_BYTES),
    signal: fr.options.signal,
    readerOptions: fr.readerOpts,
  };
}

/**
 * A (model, problem) skipped as a duplicate of another file must appear once that file no longer holds
 * it: re-reads the files whose duplicates point at a file removed or replaced in this pass (unless they
 * were read after that change). Likewise files that kept only their scores because another file had
 * their samples (the same samples in every scorer's file), once that file is removed or changed.
 */
async function rereadDependents(fr: FolderReader): Promise<void> {
  const { index, writer, root, options, pass } = fr;
  const db = index.db;
  const again = new Set([
    ...duplicateDependents(db, pass.changedAt, pass.readAt),
    ...index.filesWithUndefinedSamples(),
  ]);
  for (const rel of [...again].sort()) {
    if (options.signal?.aborted) {
      pass.cancelled = true;
      break;
    }
    const prev = db
      .prepare('SELECT id, path, size, mtime_ms, hash, status, format FROM files WHERE path = ?')
      .get(rel) as FileRow | undefined;
    if (!prev?.format || prev.status !== 'ready') continue;
    if (!options.format) {
      try {
        const det = await detectFile(join(root, ...rel.split('/')), rel, root, fr.readerOpts);
        if (det.format !== prev.format) continue;
        writer.pendingDiagnostics = det.diagnostics;
      } catch {
        continue;
      }
    }
    const result = await writer.indexFile({
      ...fileArgs(fr, rel, prev.format as FormatId, prev, prev.size),
      mtimeMs: prev.mtime_ms,
      hash: Promise.resolve(prev.hash),
      onBatch: () => {},
    });
    pass.samplesWritten += result.samples;
    if (result.cancelled) {
      pass.cancelled = true;
      break;
    }
    pass.filesIndexed++;
  }
}

/**
 * Results files of `index` to read again because it was built by another version of the readers: every
 * results file when the stored {@link READER_VERSION_KEY} differs from {@link READER_VERSION} (or is
 * absent: an index from before the stamp), else 0. An empty index is never stale.
 */
export function staleReaderFiles(index: TraceIndex): number {
  if (index.getMeta(READER_VERSION_KEY) === String(READER_VERSION)) return 0;
  return index.db.prepare('SELECT count(*) FROM files WHERE format IS NOT NULL').pluck().get() as number;
}
