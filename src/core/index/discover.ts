/**
 * Which files of the folder an indexing pass reads: the candidate results files and what their paths tell
 * the readers ({@link discoverFiles}), and the signs that a file must be read again though its own bytes
 * are unchanged (a mapping file changed, a sibling at another temperature came or went, the file its
 * duplicates point at changed). Reads the folder and, for the last, the index's diagnostics; writes nothing.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join, posix } from 'node:path';
import { stripSeedTokens } from '../grouping/seeds';
import { type ReaderOptions, listCandidateFiles } from '../readers';
import { MAPPING_FILE_NAME } from '../readers/mappingSchema';
import { modelFolderNames } from '../readers/modelFolders';
import { datasetSpellings, fileStem, layoutDatasetFolders, stemTemperature } from '../readers/util';
import type { Database } from './sqlite';
import { DUPLICATE_OF, type FileRow } from './writer';

/** The files of a folder an indexing pass considers ({@link discoverFiles}). */
export interface FoundFiles {
  /** Candidate results files (relative POSIX paths, sorted). */
  candidates: string[];
  /** Files no reader is given (named in an info), and files or folders that could not be listed. */
  unlisted: string[];
  unreachable: { file: string; reason: string; resultsLike: boolean }[];
  /** The reader options with what the folder's layout tells (dataset folders and spellings, model folders). */
  readerOpts: ReaderOptions | undefined;
  mappingFile: string | undefined;
}

/**
 * Stage 1 of a pass: lists the candidate results files under `root` (include/exclude globs, the mapping
 * files' globs) and derives from their paths what the readers need to name models and datasets alike
 * across files. Reads the folder only (no database). `options`: the pass's globs and reader options (indexer.ts
 * `IndexOptions`).
 */
export async function discoverFiles(
  root: string,
  options: { include?: string[]; exclude?: string[]; readerOptions?: ReaderOptions },
): Promise<FoundFiles> {
  const mappingFile = options.readerOptions?.mappingFile;
  const unlisted: string[] = [];
  const unreachable: { file: string; reason: string; resultsLike: boolean }[] = [];
  const candidates = await listCandidateFiles(root, {
    include: options.include,
    exclude: options.exclude,
    mappingFile,
    unlisted,
    unreachable,
  });
  // dataset or config folders told by the layout (the same folder under two model folders; trial 8 finding 1):
  // part of the reader options, so a change of them reads every file again
  const layoutDatasets = layoutDatasetFolders(candidates);
  // one spelling per dataset spelt two ways (`MATH-500/` and `math500/`; trial 9 finding 9): also a reader option
  const spellings = datasetSpellings(candidates);
  // model folders a reader names by their path (a Qwen-math model folder, a folder of per-dataset files): the
  // flat and rollouts files of that model take its run and name (trial 12 finding 2); also a reader option
  const modelFolders = modelFolderNames(candidates);
  const hasModelFolders = Object.keys(modelFolders).length > 0;
  const readerOpts: ReaderOptions | undefined =
    layoutDatasets.length > 0 || Object.keys(spellings).length > 0 || hasModelFolders
      ? {
          ...(options.readerOptions ?? {}),
          ...(layoutDatasets.length > 0 ? { layoutDatasets } : {}),
          ...(Object.keys(spellings).length > 0 ? { datasetSpellings: spellings } : {}),
          ...(hasModelFolders ? { modelFolders } : {}),
        }
      : options.readerOptions;
  return { candidates, unlisted, unreachable, readerOpts, mappingFile };
}

/**
 * Whether a mapping file (`trace-inspector.mapping.json`) appeared, disappeared or changed content
 * since the last pass (size and mtime first, then the content hash), judged from the `files` rows.
 */
export async function mappingFilesChanged(
  root: string,
  candidates: readonly string[],
  known: ReadonlyMap<string, FileRow>,
): Promise<boolean> {
  const isMapping = (rel: string) => posix.basename(rel) === MAPPING_FILE_NAME;
  const present = new Set(candidates.filter(isMapping));
  for (const rel of known.keys()) if (isMapping(rel) && !present.has(rel)) return true;
  for (const rel of present) {
    const prev = known.get(rel);
    if (!prev) return true;
    const abs = join(root, ...rel.split('/'));
    try {
      const st = await fsp.stat(abs);
      if (st.size === prev.size && st.mtimeMs === prev.mtime_ms) continue;
      if ((await hashFile(abs, st.size)) !== prev.hash) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * Files of `after` to read again because a file beside them that differs only by the temperature in its name
 * came or went since the last pass (`before`): the Qwen-math reader names such files after their temperature
 * only when a sibling differs by it (`Qwen2.5-7B_t0.0` beside `Qwen2.5-7B_t0.6`; trial 8 finding 2d), so an
 * unchanged `..._t0.0_...` file gets another model name once a `..._t0.6_...` file is added (or removed).
 * Files are grouped by the folder above their folder (a model's dataset folders: trial 9 finding 8) and stem without
 * temperature and seeds ({@link stemTemperature}); a group whose
 * paths differ between `before` and `after` is read again whole. Pure; relative POSIX paths.
 */
export function temperatureNeighbourChanges(before: Iterable<string>, after: readonly string[]): Set<string> {
  const group = (rel: string): string | undefined => {
    const t = stemTemperature(fileStem(rel));
    // by the folder above the file's folder: the Qwen-math reader decides the naming per model, over its dataset
    // folders (`math_eval/aime24/` beside `math_eval/math500/`: trial 9 finding 8)
    return t ? `${posix.dirname(posix.dirname(rel))}\x1f${stripSeedTokens(t.rest).toLowerCase()}` : undefined;
  };
  const paths = (list: Iterable<string>) => {
    const m = new Map<string, Set<string>>();
    for (const rel of list) {
      const g = group(rel);
      if (g !== undefined) m.set(g, (m.get(g) ?? new Set()).add(rel));
    }
    return m;
  };
  const old = paths(before);
  const now = paths(after);
  const out = new Set<string>();
  for (const [g, set] of now) {
    const was = old.get(g) ?? new Set<string>();
    if (was.size !== set.size || [...set].some((x) => !was.has(x))) for (const x of set) out.add(x);
  }
  return out;
}

/**
 * Files with a cross-file duplicate diagnostic (`... already indexed from X; skipped`) naming a file X
 * whose samples changed at step `changedAt[X]` of this pass, and not read after that step.
 */
export function duplicateDependents(
  db: Database,
  changedAt: Map<string, number>,
  readAt: Map<string, number>,
): string[] {
  const rows = db
    .prepare(`SELECT file, message FROM diagnostics WHERE message LIKE '%' || ? || '%; skipped'`)
    .all(DUPLICATE_OF) as { file: string; message: string }[];
  const out = new Set<string>();
  for (const r of rows) {
    const at = r.message.lastIndexOf(DUPLICATE_OF);
    const other = r.message.slice(at + DUPLICATE_OF.length, -'; skipped'.length);
    const changed = changedAt.get(other);
    if (changed === undefined) continue;
    const read = readAt.get(r.file);
    if (read === undefined || read < changed) out.add(r.file);
  }
  return [...out].sort();
}

/**
 * SHA-1 of the first `size` bytes of a file (the size seen by stat). Reads into one reused 1 MiB
 * buffer: a read stream would leave a new buffer per chunk for the garbage collector, which on this
 * thread (no parsing, so few collections) piled up to tens of MB before it was freed.
 */
export async function hashFile(abs: string, size: number): Promise<string> {
  const h = createHash('sha1');
  if (size === 0) return h.digest('hex');
  const fh = await fsp.open(abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(size, 1 << 20));
    for (let pos = 0; pos < size; ) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (bytesRead === 0) throw new Error(`file shrank while it was read (${pos} of ${size} bytes)`);
      h.update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return h.digest('hex');
}
