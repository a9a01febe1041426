import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readTextFileSync } from '../text/textFile';
import { dirname, join } from 'node:path';
import type { Diagnostic } from '../model';
import { plural } from '../text/strings';
import { KEY_SEP, TraceIndex } from './traceIndex';

/** Labels offered by the UI; any other non-empty string is a custom label. */
export const STANDARD_LABELS = [
  'correct reasoning',
  'lucky guess',
  'grader error',
  'reward hacking',
  'truncated',
] as const;

/** Where the annotation mirror lives inside a results folder. */
export const MIRROR_RELATIVE_PATH = '.trace-inspector/annotations.jsonl';

/**
 * What identifies an annotated sample across re-indexing: the problem key (dataset, problem id),
 * the model key (run, name, revision), the sample's index within (model, problem), and the hash of
 * its text. If the text at that position changes, the annotation no longer attaches (it is kept,
 * as an orphan, rather than moved to a different trace).
 */
export interface SampleRef {
  problemKey: string;
  modelKey: string;
  sampleIndex: number;
  contentHash: string;
}

export interface Annotation extends SampleRef {
  labels: string[];
  note: string;
  /** ISO-8601 time of the last change; the conflict rule compares it. */
  updatedAt: string;
  /** A deletion, kept as a tombstone so that it propagates through the mirror. */
  deleted: boolean;
}

/** One line of the JSONL mirror (keys plus human-readable context that import ignores). */
interface MirrorLine extends Annotation {
  dataset?: string;
  problemId?: string;
  model?: string;
}

/**
 * Annotations stored in the index and mirrored to `<folder>/.trace-inspector/annotations.jsonl`.
 *
 * Rules (documented in docs/annotate.md):
 * - Every change is written to the index, then the whole mirror is rewritten atomically
 *   (temporary file + rename), sorted by key, so it diffs well in git.
 * - Importing (on every index pass, and by command) merges the mirror into the index per key:
 *   the side with the later `updatedAt` wins; on equal times the mirror wins. Deletions are
 *   tombstones and follow the same rule. Keys only in the index are kept and written back.
 * - A bad mirror line is a diagnostic (file, line, reason) and is skipped; nothing else is lost.
 */
export class AnnotationStore {
  constructor(
    private readonly index: TraceIndex,
    /** Absolute path of the mirror file, or undefined for no mirror. */
    readonly mirrorPath?: string,
  ) {}

  /** The sample reference of the sample with row id `sampleId`, or undefined. */
  refOf(sampleId: number): SampleRef | undefined {
    return this.index.db
      .prepare(
        `SELECT p.key AS problemKey, m.key AS modelKey, s.sample_index AS sampleIndex, s.content_hash AS contentHash
           FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id WHERE s.id = ?`,
      )
      .get(sampleId) as SampleRef | undefined;
  }

  /**
   * How many live annotations are on a sample of results file `file` (relative path, as `files.path`):
   * those whose key and content hash match a sample read from it.
   */
  countOnFile(file: string): number {
    return this.index.db
      .prepare(
        `SELECT count(*) FROM annotations a
           JOIN problems p ON p.key = a.problem_key JOIN models m ON m.key = a.model_key
           JOIN samples s ON s.problem_id = p.id AND s.model_id = m.id AND s.sample_index = a.sample_index
                         AND s.content_hash = a.content_hash
           JOIN files f ON f.id = s.file_id
          WHERE a.deleted = 0 AND f.path = ?`,
      )
      .pluck()
      .get(file) as number;
  }

  /** The live annotation of a sample, or undefined. */
  get(ref: SampleRef): Annotation | undefined {
    const a = this.getRaw(ref);
    return a && !a.deleted ? a : undefined;
  }

  private getRaw(ref: SampleRef): Annotation | undefined {
    const r = this.index.db
      .prepare(
        `SELECT problem_key AS problemKey, model_key AS modelKey, sample_index AS sampleIndex, content_hash AS contentHash,
                labels, note, updated_at AS updatedAt, deleted
           FROM annotations WHERE problem_key = ? AND model_key = ? AND sample_index = ? AND content_hash = ?`,
      )
      .get(ref.problemKey, ref.modelKey, ref.sampleIndex, ref.contentHash) as
      | (Omit<Annotation, 'labels' | 'deleted'> & { labels: string; deleted: number })
      | undefined;
    return r ? { ...r, labels: JSON.parse(r.labels) as string[], deleted: r.deleted === 1 } : undefined;
  }

  /**
   * Sets a sample's labels and note (replacing both). Labels are trimmed, de-duplicated, and
   * empty ones dropped; a sample with no label and an empty note is deleted instead.
   * @param now injectable clock for tests
   */
  set(ref: SampleRef, labels: readonly string[], note: string, now: Date = new Date()): Annotation | undefined {
    const clean = [...new Set(labels.map((l) => l.trim()).filter(Boolean))];
    if (clean.length === 0 && note.trim() === '') {
      this.remove(ref, now);
      return undefined;
    }
    const a: Annotation = { ...ref, labels: clean, note, updatedAt: now.toISOString(), deleted: false };
    this.write(a);
    this.writeMirror();
    return a;
  }

  /** Deletes a sample's annotation (as a tombstone). */
  remove(ref: SampleRef, now: Date = new Date()): void {
    if (!this.getRaw(ref)) return;
    this.write({ ...ref, labels: [], note: '', updatedAt: now.toISOString(), deleted: true });
    this.writeMirror();
  }

  /** Every live annotation, by key. */
  all(includeDeleted = false): Annotation[] {
    const rows = this.index.db
      .prepare(
        `SELECT problem_key AS problemKey, model_key AS modelKey, sample_index AS sampleIndex, content_hash AS contentHash,
                labels, note, updated_at AS updatedAt, deleted
           FROM annotations ${includeDeleted ? '' : 'WHERE deleted = 0'}
          ORDER BY problem_key, model_key, sample_index, content_hash`,
      )
      .all() as (Omit<Annotation, 'labels' | 'deleted'> & { labels: string; deleted: number })[];
    return rows.map((r) => ({ ...r, labels: JSON.parse(r.labels) as string[], deleted: r.deleted === 1 }));
  }

  /**
   * How many live annotations (annotated samples) carry each label in use: `[label, count]` in the
   * order of {@link labelsInUse}. Orphans (a sample whose text changed) count too: they are annotations
   * the label filter may no longer find (trial 10 finding 10c: the label picker gave no count).
   */
  labelCounts(): [string, number][] {
    const rows = this.index.db
      .prepare(
        'SELECT j.value AS label, count(*) AS n FROM annotations a, json_each(a.labels) j WHERE a.deleted = 0 GROUP BY j.value',
      )
      .all() as { label: string; n: number }[];
    const by = new Map(rows.map((r) => [r.label, r.n]));
    return this.labelsInUse().map((l) => [l, by.get(l) ?? 0]);
  }

  /** Distinct labels in use, sorted, with the standard labels first. */
  labelsInUse(): string[] {
    const used = this.index.db
      .prepare('SELECT DISTINCT j.value FROM annotations a, json_each(a.labels) j WHERE a.deleted = 0')
      .pluck()
      .all() as string[];
    const std = STANDARD_LABELS.filter((l) => used.includes(l));
    return [...std, ...used.filter((l) => !(STANDARD_LABELS as readonly string[]).includes(l)).sort()];
  }

  private write(a: Annotation): void {
    this.index.db
      .prepare(
        `INSERT INTO annotations (problem_key, model_key, sample_index, content_hash, labels, note, updated_at, deleted)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(problem_key, model_key, sample_index, content_hash) DO UPDATE SET
           labels = excluded.labels, note = excluded.note, updated_at = excluded.updated_at, deleted = excluded.deleted`,
      )
      .run(
        a.problemKey,
        a.modelKey,
        a.sampleIndex,
        a.contentHash,
        JSON.stringify(a.labels),
        a.note,
        a.updatedAt,
        a.deleted ? 1 : 0,
      );
  }

  /**
   * Merges a JSONL file of annotations into the index with the conflict rule above, then
   * rewrites the mirror (when this store has one) so both agree: also when nothing was merged but the
   * index holds keys the file lacks (annotations an indexing pass moved with their samples).
   * @returns counts and a diagnostic per bad line. A missing file imports nothing.
   */
  importJsonl(
    path: string,
    displayPath = path,
  ): { added: number; updated: number; unchanged: number; diagnostics: Diagnostic[] } {
    const out = { added: 0, updated: 0, unchanged: 0, diagnostics: [] as Diagnostic[] };
    if (!existsSync(path)) return out;
    const lines = readTextFileSync(path).split('\n');
    /** The keys the file gives: the mirror is rewritten when the index holds others (e.g. moved by a pass). */
    const keys = new Set<string>();
    this.index.db.transaction(() => {
      lines.forEach((raw, i) => {
        const text = raw.replace(/^\uFEFF/, '').trim();
        if (!text) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (e) {
          out.diagnostics.push({
            file: displayPath,
            line: i + 1,
            severity: 'error',
            message: `not valid JSON: ${(e as Error).message}`,
          });
          return;
        }
        const a = validateAnnotation(parsed);
        if (typeof a === 'string') {
          out.diagnostics.push({ file: displayPath, line: i + 1, severity: 'error', message: a });
          return;
        }
        keys.add(JSON.stringify([a.problemKey, a.modelKey, a.sampleIndex, a.contentHash]));
        const mine = this.getRaw(a);
        if (!mine) {
          this.write(a);
          out.added++;
        } else if (a.updatedAt >= mine.updatedAt && !sameContent(a, mine)) {
          this.write(a);
          out.updated++;
        } else {
          out.unchanged++;
        }
      });
    })();
    const onlyInIndex = () =>
      (this.index.db.prepare('SELECT count(*) FROM annotations').pluck().get() as number) > keys.size;
    if (this.mirrorPath && (out.added || out.updated || path !== this.mirrorPath || onlyInIndex())) this.writeMirror();
    return out;
  }

  /** Writes every annotation (live and tombstones unless `liveOnly`) to `path` as JSONL, atomically. */
  exportJsonl(path: string, liveOnly = false): number {
    const rows = this.all(!liveOnly);
    const lines = rows.map((a) => {
      const [dataset, problemId] = a.problemKey.split(KEY_SEP);
      const [run, name, revision] = a.modelKey.split(KEY_SEP);
      const line: MirrorLine = {
        problemKey: a.problemKey,
        modelKey: a.modelKey,
        sampleIndex: a.sampleIndex,
        contentHash: a.contentHash,
        labels: a.labels,
        note: a.note,
        updatedAt: a.updatedAt,
        deleted: a.deleted,
        dataset,
        problemId,
        model: `${run ? `${run}:` : ''}${name}${revision ? `@${revision}` : ''}`,
      };
      return JSON.stringify(line);
    });
    mkdirSync(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.tmp`);
    writeFileSync(tmp, lines.length ? `${lines.join('\n')}\n` : '');
    renameSync(tmp, path);
    return rows.length;
  }

  /** Rewrites the mirror from the index. Failures (read-only folder) are reported, not thrown. */
  writeMirror(): { ok: boolean; error?: string } {
    if (!this.mirrorPath) return { ok: true };
    try {
      this.exportJsonl(this.mirrorPath);
      return { ok: true };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }
}

function sameContent(a: Annotation, b: Annotation): boolean {
  return a.note === b.note && a.deleted === b.deleted && JSON.stringify(a.labels) === JSON.stringify(b.labels);
}

/** Checks one parsed mirror line; returns the annotation or the reason it is invalid. */
export function validateAnnotation(v: unknown): Annotation | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected a JSON object';
  const o = v as Record<string, unknown>;
  for (const k of ['problemKey', 'modelKey', 'contentHash', 'updatedAt'] as const) {
    if (typeof o[k] !== 'string' || o[k] === '') return `field "${k}" must be a non-empty string`;
  }
  if (!Number.isInteger(o.sampleIndex) || (o.sampleIndex as number) < 0)
    return 'field "sampleIndex" must be a non-negative integer';
  if (!Array.isArray(o.labels) || !o.labels.every((l) => typeof l === 'string'))
    return 'field "labels" must be a list of strings';
  if (o.note !== undefined && typeof o.note !== 'string') return 'field "note" must be a string';
  if (Number.isNaN(Date.parse(o.updatedAt as string))) return 'field "updatedAt" must be an ISO-8601 time';
  return {
    problemKey: o.problemKey as string,
    modelKey: o.modelKey as string,
    sampleIndex: o.sampleIndex as number,
    contentHash: o.contentHash as string,
    labels: o.labels as string[],
    note: (o.note as string | undefined) ?? '',
    updatedAt: new Date(o.updatedAt as string).toISOString(),
    deleted: o.deleted === true,
  };
}

/** What became of the annotations of the files a pass read again: see indexer.ts IndexSummary `annotationsOfChangedFiles`. */
export interface AnnotationFates {
  onSample: number;
  onNoSample: number;
  /** Each annotation on no sample: its results file and line before the pass, its problem key, model key and sample index. */
  orphaned: { path: string; line: number; problemKey: string; modelKey: string; sampleIndex: number }[];
}

/**
 * What a pass did to the annotations of the files it read again, in words (annotationFates.ts `annotationFates`; trial
 * 14 finding 2: "annotations are kept" was said of one its sample's changed text left on no sample): how
 * many are back on their samples and how many are on no sample now, each of those (at most 3 named, by
 * problem, sample index and file:line before the pass) and where they are: `mirror`, the annotations file
 * (`.trace-inspector/annotations.jsonl`). Undefined when no annotation was on those files.
 */
export function annotationFatesMessage(f: AnnotationFates, mirror: string): string | undefined {
  if (f.onSample + f.onNoSample === 0) return undefined;
  const back =
    f.onSample === 0
      ? ''
      : `${plural(f.onSample, 'annotation')} of the files read again ${f.onSample === 1 ? 'is' : 'are'} back on ${f.onSample === 1 ? 'its sample' : 'their samples'}`;
  if (f.onNoSample === 0) return back;
  const named = f.orphaned
    .slice(0, 3)
    .map((o) => `problem ${o.problemKey.split(KEY_SEP).pop()} sample ${o.sampleIndex} (${o.path}:${o.line})`)
    .join(', ');
  const more = f.orphaned.length > 3 ? ` and ${f.orphaned.length - 3} more` : '';
  const one = f.onNoSample === 1;
  const none = `${plural(f.onNoSample, 'annotation')} ${one ? 'is' : 'are'} on no sample now: ${one ? 'its' : 'their'} sample's text changed (or the sample left the folder): ${named}${more}. ${one ? 'It is' : 'They are'} shown nowhere; ${one ? 'its' : 'their'} labels and note are in ${mirror}`;
  return back ? `${back}; ${none}` : none;
}
