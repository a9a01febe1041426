import type { FormatId, ReadEvent } from '../model';

/** Everything a reader needs to know about the file it reads. */
export interface ReaderContext {
  /** Absolute path of the results folder. */
  root: string;
  /** Path of the file relative to `root`, POSIX separators. Used in diagnostics. */
  relPath: string;
  /** Absolute path of the file. */
  absPath: string;
  /** The run folder: directory of `relPath` (`""` at the root). */
  run: string;
  /** Aborts reading between records. */
  signal?: AbortSignal;
  /** Choices of the user that change how files are read (CLI options, settings). */
  options?: ReaderOptions;
  /**
   * Line-based formats: read only these bytes of the file (one record's `span`, to read its sample
   * texts again: src/core/index/sampleText.ts). Other formats ignore it.
   */
  range?: { start: number; end: number };
  /**
   * The bytes of `range`, already read by the caller (sampleText.ts reads a record with one read of
   * its own): the reader then opens no file and makes none of the whole-file checks (binary head, last
   * byte); the bytes are split and parsed as if read from the file. Requires `range`.
   */
  rangeBytes?: Buffer;
}

/** Choices of the user that change how files are read; a change re-reads the folder (see indexFolder). */
export interface ReaderOptions {
  /**
   * Inspect AI logs: the scorer whose values are the verdicts, `name` or `name.key` for a scorer
   * whose value is a dict of several metrics (CLI `--scorer`, setting `traceInspector.scorer`).
   * Default: the first scorer of each sample whose value is a verdict (see inspect.ts).
   */
  scorer?: string;
  /**
   * Makes numeric correctness values verdicts: a score >= this is correct, below it incorrect (CLI
   * `--correct-threshold`, setting `traceInspector.correctThreshold`). Without it, a number strictly between
   * 0 and 1 among verdicts (booleans, words, 0/1) is partial credit, graded not correct; a file whose
   * correctness values include a number outside [0, 1], or only numbers strictly between 0 and 1, holds scores,
   * not verdicts, and every value of it that spells a number leaves its sample ungraded (see util.ts `VerdictReader`).
   */
  correctThreshold?: number;
  /**
   * Inspect AI logs: what becomes of a sample that errored (`error` set) without a score: `exclude` (the default:
   * left out of every figure, as Inspect's metrics leave it out) or `incorrect` (a failure in n); CLI
   * `--errored-samples`, setting `traceInspector.erroredSamples` (see inspect.ts `ErroredSamplesPolicy`).
   */
  erroredSamples?: 'exclude' | 'incorrect';
  /**
   * Absolute path of a mapping file given by path (CLI `--mapping`, setting `traceInspector.mappingFile`),
   * for folders where one cannot be written: its `files` globs are relative to the results folder, and
   * it is consulted before the folder's own `trace-inspector.mapping.json` files.
   */
  mappingFile?: string;
  /**
   * Not a user choice: folder names that the folder's layout shows to be datasets or configs, not models (util.ts
   * `layoutDatasetFolders`: the same folder under two or more model folders), set by `indexFolder` from the listed
   * files. Such a folder names no model and is the dataset of records that name none (trial 8 finding 1).
   */
  layoutDatasets?: string[];
  /**
   * Not a user choice: one spelling per dataset that the listed files spell two or more ways (util.ts
   * `datasetSpellings`: `MATH-500/` and `math500/` -> `MATH-500`), by `datasetKey`; set by `indexFolder`, which writes
   * every record of such a dataset under that spelling, so the base's and the RL run's problems are one (trial 9
   * finding 9).
   */
  datasetSpellings?: Record<string, string>;
  /**
   * Not a user choice: the model folders that a reader names by their path, with the run and name of that model
   * (modelFolders.ts `modelFolderNames`: a Qwen-math model folder, or a folder holding a file named by a dataset); set
   * by `indexFolder` from the listed files. A flat or rollouts file in such a folder (or in a dataset folder of it)
   * whose model is named by that folder is that model (trial 12 finding 2), never a second copy of it.
   */
  modelFolders?: Record<string, { run: string; name: string }>;
}

/**
 * A reader for one on-disk format. Readers stream: memory does not grow with file size (a record
 * is held at most once). They never throw for bad content: every problem with the content is a
 * `diagnostic` event naming the file and line, and every good record is still emitted. They may
 * throw only for I/O failures of the file as a whole (the caller turns those into diagnostics too).
 */
export interface Reader {
  readonly format: FormatId;
  /**
   * Whether this reader handles the file, from its relative path and the first record (parsed
   * first JSON line, first array element, or `undefined` for binary/zip files; `head` is the raw
   * first bytes, up to 64 KiB).
   */
  detect(relPath: string, first: unknown, head: Buffer): boolean;
  read(ctx: ReaderContext): AsyncIterable<ReadEvent>;
}
