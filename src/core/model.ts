/**
 * The data model shared by every part of the core: readers produce it, the index stores it,
 * metrics and reports consume it. No `vscode` import anywhere under `src/core`.
 *
 * Hierarchy: results folder -> run -> model -> dataset -> problem -> sample.
 * - A *run* is the folder (relative to the results folder, POSIX separators, `""` for the root)
 *   that holds the file a record came from.
 * - A *model* is identified by (run, model name, revision). Its name comes from the data when the
 *   data records one, else from the path (file or folder name).
 * - A *problem* is identified by (dataset, problem id) so that the same problem lines up across
 *   models and runs.
 * - A *sample* is one sampled trajectory (trace) of one model for one problem.
 */

/** Formats the readers understand. `mapping` is the user-described format of a mapping file. */
export type FormatId = 'qwen-math' | 'rollouts' | 'flat' | 'tot' | 'inspect' | 'trl' | 'mapping';

export const FORMAT_IDS: readonly FormatId[] = ['qwen-math', 'rollouts', 'flat', 'tot', 'inspect', 'trl', 'mapping'];

/** One sampled trajectory. */
export interface SampleRecord {
  /**
   * Position of the sample within its (model, problem) in source order, 0-based. Readers of
   * per-problem formats set it; for one-sample-per-line formats the indexer assigns it.
   */
  sampleIndex?: number;
  /** The full sample text (model output: untrusted). */
  text: string;
  /** Graded correctness; `null` when the source does not grade this sample. */
  correct: boolean | null;
  /** Final answer extracted from the text, when the source gives one. */
  extractedAnswer?: string | null;
  /** Reward-model score (higher is better), when present. */
  rewardScore?: number | null;
  /** Why generation stopped (`stop`, `length`, ...), when present. */
  finishReason?: string | null;
  /** Number of generated tokens, when present. */
  tokenCount?: number | null;
  /**
   * {@link contentHash} of `text`, when already computed (the parallel reader computes it on its own
   * thread); the indexer computes it when absent. Readers leave it out.
   */
  contentHash?: string;
  /** `text` as UTF-8 bytes, when the parallel reader has them (the indexer binds these instead). */
  textUtf8?: Uint8Array;
  /** Length of `text` in Unicode code points, when already computed (the parallel reader); readers leave it out. */
  textLength?: number;
  /**
   * What the full-text index is given for `text` (search.ts `searchText`), as a string or UTF-8 bytes,
   * when already computed (the parallel reader computes it on its own thread); the indexer computes it
   * when absent. Readers leave it out.
   */
  searchText?: string | Uint8Array;
  /** Named scores of several scorers (reward models, judges), when the source gives them. */
  scores?: NamedScore[];
  /**
   * Pieces and reasoning-marker counts of `text` (text/markers.ts), when already computed (the parallel reader
   * computes them on its own thread with the index's lexicon); the indexer computes them when absent. Readers
   * leave it out.
   */
  measures?: { pieces: number; markers: number[] };
}

/**
 * How a process reward model's list of step scores becomes one number: the smallest step (`min`, the
 * default: a solution is as good as its worst step, Lightman et al. 2023), the last step (`last`) or
 * the product of the steps (`product`: the chance that every step is right when steps are probabilities).
 */
export type StepRule = 'min' | 'last' | 'product';

export const STEP_RULES: readonly StepRule[] = ['min', 'last', 'product'];

/** One scorer's score of one sample. */
export interface NamedScore {
  /** Scorer name (`gpt4o`, `ArmoRM`: a reward model or judge). */
  scorer: string;
  /** The score (higher is better); for step scores, the steps reduced by `rule`. */
  value: number;
  /** A process reward model's step scores, kept for display; absent for a single score. */
  steps?: number[];
  /** The rule that reduced `steps` to `value`; absent for a single score. */
  rule?: StepRule;
}

/** Where a model's identity comes from. */
export interface ModelRef {
  /** Model name: from the data (`model_name`, Inspect's `eval.model`) or from the path. */
  name: string;
  /** Revision / checkpoint / method variant, when the data records one. */
  revision?: string | null;
  /** `data` when the name was recorded in the file, `path` when derived from file or folder names. */
  source: 'data' | 'path';
  /**
   * The run the model belongs to, when the reader knows better than the default (the folder of the
   * file): `""` when the name already is the model's folder path (limit-of-RLVR layout), or the log
   * file for formats where each file is its own run (Inspect logs).
   */
  run?: string;
  /**
   * What gave the verdicts of this model's samples, when the format has a choice (an Inspect log's
   * scorer: `scorer "match"`); compared models graded by different ones are reported as such.
   */
  grader?: string;
}

/**
 * A model's identity parts, as stored in the index (`models` table): the run (folder, `""` for the root), the
 * name and the revision (`null` when none).
 */
export interface ModelIdentity {
  run: string;
  name: string;
  revision: string | null;
}

/** One problem's samples as read from one record (a line, an array element, an Inspect sample group). */
export interface ProblemRecord {
  /** 1-based line of the record in its file (for JSON arrays and zips: best effort, 1 when unknown). */
  line: number;
  model: ModelRef;
  /** Dataset name; problems are keyed by (dataset, problemId). */
  dataset: string;
  /** Problem id as a string (numbers are stringified: `0`, `17`, `HumanEval/3`). */
  problemId: string;
  /** Problem statement, when present. */
  question?: string | null;
  /** Reference (gold) answer, when present. */
  referenceAnswer?: string | null;
  /** Difficulty level as a string (`1`..`5`, `easy`), when present. */
  level?: string | null;
  /** Subject (`Algebra`), when present. */
  subject?: string | null;
  /** 0-based position of the record in a JSON document, for messages; absent for JSONL. */
  record?: number;
  /**
   * What the record gives besides (or instead of) samples:
   * - absent: samples (with their named scores, if any);
   * - `scores`: no samples, only `scores` for samples that other records define (a scorer per file),
   *   matched by (dataset, problem id, sample index) and by model name when `model.name` is not empty
   *   (empty: whichever single model has that problem and sample index);
   * - `info`: no samples, only facts about the problem (question, reference answer, level, subject).
   */
  role?: 'scores' | 'info';
  /**
   * The record is one sample of its problem (a mapping's `records: "per-sample"`), even when that sample
   * carries its own `sampleIndex`: more records of the same problem are more samples, not duplicates.
   * Absent: a record with a `sampleIndex` on its samples gives all the samples of its problem.
   */
  perSample?: boolean;
  /**
   * A per-sample record whose mapping gives sample indices (`fields.sampleIndex`) but this record none
   * usable (missing, negative, not an integer): the indexer numbers its sample with an index no record of
   * the file gives, moving it when a later record gives that index (trial 6 finding 4), never dropping
   * either sample.
   */
  indexless?: boolean;
  /** With role `scores`: the scores, each with the index of the sample it is for. */
  scores?: (NamedScore & { sampleIndex: number })[];
  samples: SampleRecord[];
  /**
   * Where the record is in its file, for records that are one line of a line-based format (JSONL):
   * its first byte and length in bytes. The index stores it with each sample, and reads the sample's
   * text again from there (src/core/index/sampleText.ts); absent for other formats (their text is kept
   * in the index).
   */
  span?: { offset: number; bytes: number };
  /**
   * For a record read from an archive (an Inspect `.eval` zip): the entry each sample was read from, in the order
   * of `samples` (`samples/3_epoch_1.json`), so that diagnostics about the record name an entry, not a line
   * ({@link Diagnostic} `entry`; trial 12 finding 24). Absent for other formats.
   */
  entries?: string[];
}

/** A problem with a file, reported with the file path (relative to the results folder) and 1-based line. */
export interface Diagnostic {
  file: string;
  /** 1-based line; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
  /**
   * `error`: something in the file could not be read (a line, a record, a sample skipped); `warning`:
   * read, but not as written (a value became missing, a sample ungraded); `info`: nothing lost, but a
   * figure is computed over fewer problems than the file names (a problem without samples or without
   * a graded sample), or a file that is not a results file, with the reason.
   */
  severity: 'error' | 'warning' | 'info';
  /**
   * A place in the file that is no line: the entry of an archive (`samples/3_epoch_2.json` of an Inspect `.eval`
   * zip; trial 12 finding 24); `line` is then 0. Absent for line-based places.
   */
  entry?: string;
}

/**
 * Where a diagnostic is, as printed: `file:line`, `file:entry` for an entry of an archive
 * (`logs/run.eval:samples/3_epoch_2.json`: trial 12 finding 24, never `:1` of a zip), or the file alone when it
 * concerns the whole file (line 0), so no one looks for a line 0 (trial 4: `test_empty.jsonl:0: error: empty file`).
 */
export function diagnosticPlace(d: Pick<Diagnostic, 'file' | 'line' | 'entry'>): string {
  if (d.entry) return `${d.file}:${d.entry}`;
  return d.line > 0 ? `${d.file}:${d.line}` : d.file;
}

/**
 * What a reader emits while streaming a file:
 * - `problem`: one record;
 * - `diagnostic`: a problem with the file (file, line, reason);
 * - `ungrade`: the verdicts that the records at these lines took from numbers 0/1 were scores, not
 *   verdicts (the file turned out, further down, to hold other numbers as well): those samples become
 *   ungraded. A streaming reader cannot know this before it has read the file to the end, so it says
 *   so afterwards; the indexer applies it to what it has already written. `lines`: every sample of
 *   these lines; `samples`: only these samples (a line mixing 0/1 values with word or boolean verdicts,
 *   `["true", "1", "no"]`: the words stay verdicts), by the sample index the reader gave them.
 */
export type ReadEvent =
  | { kind: 'problem'; record: ProblemRecord }
  | { kind: 'diagnostic'; diagnostic: Diagnostic }
  | { kind: 'ungrade'; lines: number[]; samples?: { line: number; sampleIndex: number }[] };
