/**
 * Reader for Tree-of-Thought (princeton-nlp/tree-of-thought-llm) logs: a JSON array, one object per
 * problem, `{ idx, ys: string[], accs?: bool[], infos?: [{ r: 0|1 }], steps?: [{ x, ... }], usage_so_far }`.
 * `ys[i]` is output i; its correctness is `accs[i]` (naive standard sampling) or `infos[i].r`
 * (chain-of-thought sampling, ToT search).
 */
import * as path from 'node:path';
import type { ModelRef, ReadEvent, SampleRecord } from '../model';
import { isUnsafeInteger, parseExactIntegers, readTextFile } from '../text/textFile';
import type { Reader, ReaderContext } from './types';
import {
  MAX_JSON_DOCUMENT_BYTES,
  VerdictReader,
  checkAbort,
  diag,
  dirSegments,
  fileStem,
  pathModelName,
  isObject,
  readJsonDocument,
  toStr,
  typeName,
} from './util';

/**
 * Detects a ToT log: a `.json` file whose first element (when parsed) has a `ys` array and `idx`,
 * `accs`, `infos` or `steps`; for files too large to parse at detection, the head starts with `[{`
 * and holds a `"ys":` key and an `"idx":`, `"steps":` or `"infos":` key.
 */
function detect(relPath: string, first: unknown, head: Buffer): boolean {
  if (!relPath.toLowerCase().endsWith('.json')) return false;
  if (first !== undefined) {
    return (
      isObject(first) &&
      Array.isArray(first.ys) &&
      ('idx' in first || 'accs' in first || 'infos' in first || 'steps' in first)
    );
  }
  const text = head.toString('utf8');
  return /^\uFEFF?\s*\[\s*\{/.test(text) && /"ys"\s*:/.test(text) && /"(idx|steps|infos)"\s*:/.test(text);
}

/**
 * Model name of a ToT log: the file stem without a `_start<N>_end<M>` range suffix, then {@link pathModelName}
 * (seed tokens out; a generic stem such as `results` named after the folder above the task folder, which
 * names the dataset: `gpt-4/game24/results.json` -> `gpt-4`; `game24/results.json` -> `results`). Source `path`.
 */
export function totModelName(relPath: string): string {
  const dir = path.posix.dirname(relPath);
  // the task (dataset) folder names no model: name a generic stem after the folder above it
  const above = dir === '.' ? relPath : path.posix.join(path.posix.dirname(dir), path.posix.basename(relPath));
  return pathModelName(above, fileStem(relPath).replace(/_start\d+_end\d+$/, '') || fileStem(relPath));
}

/** Splits one CSV line (RFC 4180 quotes, `""` escapes). */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (q) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else q = false;
      } else cur += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * The Game-of-24 puzzles of a `24.csv` (ToT's `src/tot/data/24/24.csv`, column `Puzzles`) found in the
 * file's folder or a parent folder up to the results folder; ToT's `idx` is the 0-based data row.
 * `null` when there is none (or it has no `Puzzles` column).
 */
export async function findGame24Puzzles(absPath: string, root: string): Promise<string[] | null> {
  let dir = path.dirname(absPath);
  const top = path.resolve(root);
  for (;;) {
    try {
      const text = await readTextFile(path.join(dir, '24.csv'));
      const lines = text.split(/\r?\n/);
      const col = splitCsvLine(lines[0] ?? '').indexOf('Puzzles');
      if (col < 0) return null;
      return lines
        .slice(1)
        .filter((l) => l.length > 0)
        .map((l) => splitCsvLine(l)[col] ?? '');
    } catch {
      // not here: go up
    }
    if (path.resolve(dir) === top) return null;
    const parent = path.dirname(dir);
    if (parent === dir || !path.resolve(parent).startsWith(top)) return null;
    dir = parent;
  }
}

/**
 * Reads a ToT log (whole file parsed at once, up to 256 MiB; larger: error, no records).
 * - model = file stem without `_start<N>_end<M>` (source `path`); dataset = the file's folder name
 *   (`logs/game24/x.json` -> `game24`), `game24` at the root.
 * - problemId = `String(idx)` (integers beyond 2^53 read exactly from the file); missing: the array
 *   position, with a warning.
 * - question = row `idx` of a `24.csv` found up the folder tree, else `steps[0].x`, else null.
 * - samples = `ys[i]` (sampleIndex i); correct = `accs[i]` when `accs` is an array, else `infos[i].r`
 *   (1 -> true, 0 -> false), else null. `infos[].r` of the crosswords and other tasks is a partial
 *   reward: a file with any number other than 0/1 holds scores, not verdicts, so all its numeric
 *   labels are ungraded (one warning) unless `ctx.options?.correctThreshold` is given ({@link VerdictReader},
 *   the whole file is looked at first). Lengths differing from `ys`: warning, the samples without a
 *   label are ungraded.
 * - line = 1 for every record (the file is one JSON document).
 */
async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  const doc = await readJsonDocument(ctx, MAX_JSON_DOCUMENT_BYTES);
  if ('error' in doc) {
    yield doc.error;
    return;
  }
  yield* doc.warnings;
  if (!Array.isArray(doc.value)) {
    yield diag(ctx, 0, `not a Tree-of-Thought log: top level is ${typeName(doc.value)}, expected an array`);
    return;
  }
  if (doc.value.length === 0) {
    yield diag(ctx, 0, 'empty file');
    return;
  }
  // problem ids beyond 2^53: the whole file again, with those integers read from their source text
  const elements: unknown[] = doc.value.some((o) => isObject(o) && isUnsafeInteger(o.idx))
    ? (parseExactIntegers(doc.text) as unknown[])
    : doc.value;
  const labelsOf = (o: Record<string, unknown>): unknown[] | null =>
    Array.isArray(o.accs)
      ? o.accs
      : Array.isArray(o.infos)
        ? o.infos.map((x) => (isObject(x) ? x.r : undefined))
        : null;
  const verdicts = new VerdictReader(ctx, 'infos[].r', ctx.options?.correctThreshold);
  verdicts.prescan(
    elements.flatMap((o) => (isObject(o) && Array.isArray(o.ys) && !Array.isArray(o.accs) ? (labelsOf(o) ?? []) : [])),
    1,
  );
  const accsVerdicts = new VerdictReader(ctx, 'accs', ctx.options?.correctThreshold);
  accsVerdicts.prescan(
    elements.flatMap((o) => (isObject(o) && Array.isArray(o.ys) && Array.isArray(o.accs) ? o.accs : [])),
    1,
  );
  const model: ModelRef = { name: totModelName(ctx.relPath), revision: null, source: 'path' };
  const segs = dirSegments(ctx.relPath);
  const dataset = segs.length > 0 ? segs[segs.length - 1] : 'game24';
  const puzzles = await findGame24Puzzles(ctx.absPath, ctx.root);

  for (let p = 0; p < elements.length; p++) {
    checkAbort(ctx);
    const o = elements[p];
    const where = `element ${p}`;
    if (!isObject(o)) {
      yield diag(ctx, 1, `${where} is not an object (got ${typeName(o)}); skipped`);
      continue;
    }
    if (!Array.isArray(o.ys)) {
      yield diag(
        ctx,
        1,
        `${where}: ys is ${o.ys === undefined ? 'missing' : `not an array (got ${typeName(o.ys)})`}; skipped`,
      );
      continue;
    }
    let problemId = toStr(o.idx);
    if (problemId === null) {
      problemId = String(p);
      yield diag(ctx, 1, `${where}: missing idx; using array position ${p}`, 'warning');
    }
    const idxNum = typeof o.idx === 'number' ? o.idx : Number.NaN;
    let question: string | null = null;
    if (puzzles && Number.isInteger(idxNum) && idxNum >= 0 && idxNum < puzzles.length) question = puzzles[idxNum];
    else if (Array.isArray(o.steps) && isObject(o.steps[0])) question = toStr(o.steps[0].x);

    const labels = labelsOf(o);
    const labelName = Array.isArray(o.accs) ? 'accs' : 'infos';
    const reader = Array.isArray(o.accs) ? accsVerdicts : verdicts;
    if (labels && labels.length !== o.ys.length) {
      yield diag(
        ctx,
        1,
        `${where}: ys has ${o.ys.length} outputs but ${labelName} has ${labels.length}; outputs without a label are ungraded`,
        'warning',
      );
    }
    const samples: SampleRecord[] = [];
    let invalid = 0;
    for (let i = 0; i < o.ys.length; i++) {
      const y = o.ys[i];
      if (typeof y !== 'string') {
        yield diag(ctx, 1, `${where}: ys[${i}] is not a string (got ${typeName(y)}); sample skipped`);
        continue;
      }
      let correct: boolean | null = null;
      if (labels && i < labels.length) {
        const c = reader.read(labels[i], 1);
        correct = c.value;
        if (c.kind === 'invalid') invalid++;
      }
      samples.push({ sampleIndex: i, text: y, correct });
    }
    if (invalid > 0)
      yield diag(
        ctx,
        1,
        `${where}: ${invalid} label(s) are not booleans or 0/1; those samples are ungraded`,
        'warning',
      );
    yield {
      kind: 'problem',
      record: { line: 1, model, dataset, problemId, question, referenceAnswer: null, level: null, samples },
    };
  }
  yield* verdicts.finish();
  yield* accsVerdicts.finish();
}

/** The Tree-of-Thought log reader (format id `tot`). */
export const totReader: Reader = { format: 'tot', detect, read };
