/**
 * Sample texts read on demand from the results files (issue 12: an index, not a copy). Pure core: no
 * `vscode` import.
 *
 * A sample of a line-based file (JSONL: the `qwen-math`, `rollouts`, `flat` and JSONL `mapping`
 * formats) records where its record is in the file (`sample_spans.rec_offset`, `rec_bytes`: the line's
 * first byte and length) and its position among the record's samples (`rec_pos`), schema migration 9. Its text is read
 * by running the file's reader over those bytes only (one open, one read and one parse of one line; a
 * per-problem line gives every sample of that problem and model at once; the last few records read are
 * kept with their bytes, so opening the samples of one problem one after another parses its line once),
 * and checked against the content hash
 * stored when it was indexed. A mismatch (the file was edited, truncated or replaced since) throws a
 * {@link SourceChangedError} naming the file: a wrong text is never returned. The index keeps no copy
 * of such a sample's text (schema migration 11), so this is the only way to it. Samples of other
 * formats (whole-document `.json`, Inspect `.eval` zips) and samples indexed before migration 9 (not
 * read again yet) have no span: their text comes from the copy the index keeps for them.
 */
import { ROOT_KEY } from './indexer';
import { type CachedRecord, readRowTexts, type SampleTextRow, SourceChangedError } from './rowTexts';
import type { Statement } from './sqlite';
import type { TraceIndex } from './traceIndex';

export { SourceChangedError, type SampleTextRow } from './rowTexts';

const TEXT_ROW_SELECT = `SELECT s.id, s.sample_index AS sampleIndex, s.correct, s.content_hash AS hash, s.line,
    f.path AS file, f.format, sp.rec_offset AS recOffset, sp.rec_bytes AS recBytes, sp.rec_pos AS recPos, s.text
  FROM samples s JOIN files f ON f.id = s.file_id LEFT JOIN sample_spans sp ON sp.sample_id = s.id`;

/** Per index: its recently read records (a Map in least-recently-used-first order) and its prepared statements. */
interface IndexState {
  records: Map<string, CachedRecord>;
  one: Statement;
  pair: Statement;
}

const states = new WeakMap<TraceIndex, IndexState>();

function stateOf(index: TraceIndex): IndexState {
  let st = states.get(index);
  if (!st) {
    st = {
      records: new Map(),
      one: index.db.prepare(`${TEXT_ROW_SELECT} WHERE s.id = ?`),
      pair: index.db.prepare(`${TEXT_ROW_SELECT} WHERE s.problem_id = ? AND s.model_id = ? ORDER BY s.sample_index`),
    };
    states.set(index, st);
  }
  return st;
}

/** The folder the index's file paths are relative to (set by indexFolder), if the index says. */
function rootOf(index: TraceIndex): string | undefined {
  return index.getMeta(ROOT_KEY);
}

/** Texts of rows through the index's record cache ({@link readRowTexts}). */
async function textsOf(index: TraceIndex, rows: SampleTextRow[]): Promise<string[]> {
  return readRowTexts(rootOf(index), rows, stateOf(index).records);
}

/**
 * `read`, with the file of a {@link SourceChangedError} marked for the next indexing pass
 * (TraceIndex.markFileChanged): an edit that kept the file's size and modification time is otherwise
 * invisible to a pass, and the text would stay unreadable however often the folder is indexed again.
 */
async function changedFilesMarked<T>(index: TraceIndex, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (e instanceof SourceChangedError) index.markFileChanged(e.file);
    throw e;
  }
}

/**
 * The text of one sample, read from its results file (see the module comment), or undefined when no
 * sample has that id. Throws {@link SourceChangedError} when the file changed since it was indexed.
 */
export async function readSampleText(index: TraceIndex, sampleId: number): Promise<string | undefined> {
  const row = stateOf(index).one.get(sampleId) as SampleTextRow | undefined;
  if (!row) return undefined;
  return (await changedFilesMarked(index, textsOf(index, [row])))[0];
}

/**
 * Texts (and verdicts) of every sample of a model for one problem, in sample order, read from the
 * results files (each record once: a per-problem line gives all of them in one read and one parse).
 * Throws {@link SourceChangedError} when a file changed since it was indexed.
 */
export async function readSampleTexts(
  index: TraceIndex,
  problemId: number,
  modelId: number,
): Promise<{ id: number; sampleIndex: number; correct: boolean | null; text: string }[]> {
  const rows = stateOf(index).pair.all(problemId, modelId) as SampleTextRow[];
  const texts = await changedFilesMarked(index, textsOf(index, rows));
  return rows.map((r, i) => ({
    id: r.id,
    sampleIndex: r.sampleIndex,
    correct: r.correct === null ? null : r.correct === 1,
    text: texts[i],
  }));
}

/**
 * Where the texts of every sample of a model for one problem are (in sample order), and the folder their
 * paths are relative to: the input of {@link readRowTexts}, which reads them (in another thread if the caller
 * wants). One SQL query; reads no file.
 */
export function sampleTextRows(
  index: TraceIndex,
  problemId: number,
  modelId: number,
): { root: string | undefined; rows: SampleTextRow[] } {
  return { root: rootOf(index), rows: stateOf(index).pair.all(problemId, modelId) as SampleTextRow[] };
}

/** Where sample texts are read from: the results files (FolderSession adds the user's notice when one changed). */
export interface TextSource {
  sampleText(sampleId: number): Promise<string | undefined>;
  sampleTexts(
    problemId: number,
    modelId: number,
  ): Promise<{ id: number; sampleIndex: number; correct: boolean | null; text: string }[]>;
}

/** The {@link TextSource} of an index: {@link readSampleText} and {@link readSampleTexts}. */
export function fileTextSource(index: TraceIndex): TextSource {
  return {
    sampleText: (id) => readSampleText(index, id),
    sampleTexts: (p, m) => readSampleTexts(index, p, m),
  };
}
