/**
 * Annotations across an indexing pass: which samples carry a live annotation before the pass
 * ({@link annotatedSamples}), annotations copied to the key their sample has after it
 * ({@link reattachAnnotations}), and what became of the annotations of the files the pass read again or
 * removed ({@link annotationFates}).
 */
import type { AnnotationFates } from './annotations';
import type { Database } from './sqlite';

/** A live annotation attached to a sample before a pass, and where that sample was read from. */
export interface AnnotatedSample {
  problemKey: string;
  modelKey: string;
  sampleIndex: number;
  contentHash: string;
  path: string;
  line: number;
  /** How many samples of the same file, line and content hash come before it (row id order: reading order). */
  rank: number;
}

/**
 * The query of {@link annotatedSamples}. Its cost is O(annotations), never O(samples): the annotations drive the
 * join (`CROSS JOIN` keeps them SQLite's outer loop; left to itself SQLite scanned every sample, 170 ms a pass at a
 * million samples). Each row's `rank` counts the samples of its line only (index `samples_by_file_line`).
 */
export const ANNOTATED_SAMPLES_SQL = `SELECT a.problem_key AS problemKey, a.model_key AS modelKey, a.sample_index AS sampleIndex,
              a.content_hash AS contentHash, f.path AS path, s.line AS line,
              (SELECT count(*) FROM samples s2 WHERE s2.file_id = s.file_id AND s2.line = s.line
                  AND s2.content_hash = s.content_hash AND s2.id < s.id) AS rank
         FROM annotations a
         CROSS JOIN problems p ON p.key = a.problem_key
         JOIN models m ON m.key = a.model_key
         JOIN samples s ON s.model_id = m.id AND s.problem_id = p.id AND s.sample_index = a.sample_index
                       AND s.content_hash = a.content_hash
         JOIN files f ON f.id = s.file_id
        WHERE a.deleted = 0`;

/**
 * Every live annotation attached to a sample now, with the sample's file, line and rank (see
 * {@link reattachAnnotations}); none without a query over samples when no annotation is live.
 */
export function annotatedSamples(db: Database): AnnotatedSample[] {
  if (!db.prepare('SELECT 1 FROM annotations WHERE deleted = 0 LIMIT 1').get()) return [];
  return db.prepare(ANNOTATED_SAMPLES_SQL).all() as AnnotatedSample[];
}

/**
 * After a pass: an annotation whose key (problem, model, sample index, content hash) no longer matches
 * any sample, while the sample it was on before the pass ({@link annotatedSamples}: same file, line,
 * text and rank among equal texts of that line) is still there under another key (the readers now name
 * its model, dataset or problem otherwise: a new {@link READER_VERSION}, a mapping file changed), is
 * copied to the sample's new key with its labels, note and `updatedAt`. The old entry stays, as an
 * orphan (the rule in docs/annotate.md); a new key that already has an annotation (or a tombstone)
 * keeps it. A sample whose text changed is not followed. Returns the number copied.
 */
export function reattachAnnotations(db: Database, before: readonly AnnotatedSample[]): number {
  if (before.length === 0) return 0;
  const stillThere = db.prepare(
    `SELECT 1 FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
      WHERE p.key = ? AND m.key = ? AND s.sample_index = ? AND s.content_hash = ? LIMIT 1`,
  );
  const now = db.prepare(
    `SELECT p.key AS problemKey, m.key AS modelKey, s.sample_index AS sampleIndex
       FROM samples s JOIN files f ON f.id = s.file_id JOIN problems p ON p.id = s.problem_id
       JOIN models m ON m.id = s.model_id
      WHERE f.path = ? AND s.line = ? AND s.content_hash = ? ORDER BY s.id LIMIT 1 OFFSET ?`,
  );
  const taken = db.prepare(
    'SELECT 1 FROM annotations WHERE problem_key = ? AND model_key = ? AND sample_index = ? AND content_hash = ?',
  );
  const copy = db.prepare(
    `INSERT INTO annotations (problem_key, model_key, sample_index, content_hash, labels, note, updated_at, deleted)
       SELECT ?, ?, ?, content_hash, labels, note, updated_at, 0 FROM annotations
        WHERE problem_key = ? AND model_key = ? AND sample_index = ? AND content_hash = ?`,
  );
  let moved = 0;
  for (const a of before) {
    if (stillThere.get(a.problemKey, a.modelKey, a.sampleIndex, a.contentHash) !== undefined) continue;
    const to = now.get(a.path, a.line, a.contentHash, a.rank) as
      | { problemKey: string; modelKey: string; sampleIndex: number }
      | undefined;
    if (!to || taken.get(to.problemKey, to.modelKey, to.sampleIndex, a.contentHash) !== undefined) continue;
    copy.run(to.problemKey, to.modelKey, to.sampleIndex, a.problemKey, a.modelKey, a.sampleIndex, a.contentHash);
    moved++;
  }
  return moved;
}

/**
 * After a pass (and {@link reattachAnnotations}): of the annotations that were on samples of the files in
 * `touched` before it (`before`, {@link annotatedSamples}), how many are on a sample now (same key and
 * content hash, or copied to the key their sample has now: same file, line, text and rank) and which are on
 * none (their sample's text changed: the content hash no longer matches; or the sample is gone).
 */
export function annotationFates(
  db: Database,
  before: readonly AnnotatedSample[],
  touched: ReadonlySet<string>,
): AnnotationFates {
  const out: AnnotationFates = { onSample: 0, onNoSample: 0, orphaned: [] };
  const mine = before.filter((a) => touched.has(a.path));
  if (mine.length === 0) return out;
  const stillThere = db.prepare(
    `SELECT 1 FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
      WHERE p.key = ? AND m.key = ? AND s.sample_index = ? AND s.content_hash = ? LIMIT 1`,
  );
  const moved = db.prepare(
    `SELECT 1 FROM samples s JOIN files f ON f.id = s.file_id JOIN problems p ON p.id = s.problem_id
       JOIN models m ON m.id = s.model_id
       JOIN annotations a ON a.problem_key = p.key AND a.model_key = m.key AND a.sample_index = s.sample_index
                         AND a.content_hash = s.content_hash AND a.deleted = 0
      WHERE f.path = ? AND s.line = ? AND s.content_hash = ? LIMIT 1`,
  );
  for (const a of mine) {
    if (
      stillThere.get(a.problemKey, a.modelKey, a.sampleIndex, a.contentHash) !== undefined ||
      moved.get(a.path, a.line, a.contentHash) !== undefined
    )
      out.onSample++;
    else {
      out.onNoSample++;
      out.orphaned.push({
        path: a.path,
        line: a.line,
        problemKey: a.problemKey,
        modelKey: a.modelKey,
        sampleIndex: a.sampleIndex,
      });
    }
  }
  return out;
}
