/**
 * Reader for any JSON/JSONL results format described by a mapping file
 * (`trace-inspector.mapping.json`, schema in mappingSchema.ts, documented in docs/mapping.md).
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import type { Diagnostic, ModelRef, ProblemRecord, ReadEvent, SampleRecord } from '../model';
import { matchAny } from './glob';
import { MAPPING_FILE_NAME, MAPPING_SCHEMA, type MappingSpec } from './mappingSchema';
import type { Reader, ReaderContext } from './types';
import { isUnsafeInteger, parseExactIntegers } from '../textFile';
import {
  OncePerFile,
  VerdictReader,
  checkAbort,
  diag,
  fileStem,
  isEvent,
  isObject,
  readJsonDocument,
  readJsonLines,
  toLevel,
  toNum,
  toScore,
  toStr,
  typeName,
} from './util';

const ajv = new Ajv({ allErrors: true, strict: false });
const validateOne = ajv.compile((MAPPING_SCHEMA.oneOf as readonly unknown[])[0] as object);

function formatAjvError(e: ErrorObject): string {
  const where = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') {
    return `${where}: unknown field "${String((e.params as { additionalProperty: string }).additionalProperty)}"`;
  }
  if (e.keyword === 'required') {
    const miss = String((e.params as { missingProperty: string }).missingProperty);
    return `${where === '/' ? '' : where}/${miss}: required field is missing`;
  }
  if (e.keyword === 'enum') {
    return `${where}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  if (e.keyword === 'pattern') return `${where}: must be a dotted path (no leading or trailing ".")`;
  return `${where}: ${e.message ?? 'invalid'}`;
}

/**
 * Validates a parsed mapping document: one mapping object or a non-empty list of them. Returns the
 * mappings, or error messages each naming the bad field as a JSON pointer (`/fields/txt: unknown
 * field "txt"`, `/0/records: must be one of ["per-sample","per-problem"]`). Beyond the schema:
 * `samples` is only allowed with `records: "per-problem"`, `fields.sampleIndex` only with `per-sample`.
 */
export function validateMapping(doc: unknown): { mappings: MappingSpec[] } | { errors: string[] } {
  const list = Array.isArray(doc) ? doc : [doc];
  if (Array.isArray(doc) && doc.length === 0) return { errors: ['/: the list of mappings is empty'] };
  const errors: string[] = [];
  list.forEach((m, i) => {
    const prefix = Array.isArray(doc) ? `/${i}` : '';
    if (!validateOne(m)) {
      for (const e of validateOne.errors ?? []) {
        const msg = formatAjvError(e);
        errors.push(prefix + (msg.startsWith('/: ') && prefix ? msg.slice(1) : msg));
      }
      return;
    }
    const spec = m as MappingSpec;
    if (spec.samples !== undefined && spec.records !== 'per-problem') {
      errors.push(`${prefix}/samples: only allowed with records "per-problem"`);
    }
    if (spec.fields.sampleIndex !== undefined && spec.records !== 'per-sample') {
      errors.push(
        `${prefix}/fields/sampleIndex: only allowed with records "per-sample" (per-problem samples are numbered by position)`,
      );
    }
  });
  return errors.length > 0 ? { errors } : { mappings: list as MappingSpec[] };
}

/** A mapping that applies to a file. */
export interface ResolvedMapping {
  spec: MappingSpec;
  /** Mapping file path relative to the results folder (POSIX). */
  mappingRelPath: string;
  /** Absolute folder of the mapping file (globs are relative to it). */
  baseDir: string;
}

interface LoadedMapping {
  mtimeMs: number;
  size: number;
  result: { mappings: MappingSpec[] } | { errors: string[] };
}
const loadCache = new Map<string, LoadedMapping>();

/** Loads and validates a mapping file (cached by path, modification time and size). `null` when it does not exist. */
async function loadMapping(absPath: string): Promise<LoadedMapping['result'] | null> {
  let st: Stats;
  try {
    st = await stat(absPath);
  } catch {
    return null;
  }
  if (!st.isFile()) return null;
  const hit = loadCache.get(absPath);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.result;
  let result: LoadedMapping['result'];
  try {
    const raw = await readFile(absPath, 'utf8');
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // jsonc-parser in strict mode finds where a syntax error is (JSON.parse's message may not say).
    const syntax: ParseError[] = [];
    parseJsonc(text, syntax, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    if (syntax.length > 0) {
      const e = syntax[0];
      const line = text.slice(0, e.offset).split('\n').length;
      const column = e.offset - text.lastIndexOf('\n', e.offset - 1);
      result = { errors: [`not valid JSON: ${printParseErrorCode(e.error)} (line ${line} column ${column})`] };
    } else {
      result = validateMapping(JSON.parse(text));
    }
  } catch (err) {
    result = { errors: [`not valid JSON (${err instanceof Error ? err.message : String(err)})`] };
  }
  loadCache.set(absPath, { mtimeMs: st.mtimeMs, size: st.size, result });
  return result;
}

/**
 * The problems of a mapping file itself, as diagnostics on that file (`relPath`): a JSON syntax error at
 * its line (from the parser's "line L column C"; 0 when the message gives none), schema errors at line
 * 0 naming the field. Empty for a valid or missing file. The indexer records them once, on the
 * mapping file, whichever data files the mapping was meant for.
 */
export async function mappingFileDiagnostics(absPath: string, relPath: string): Promise<Diagnostic[]> {
  const loaded = await loadMapping(absPath);
  if (!loaded || !('errors' in loaded)) return [];
  return loaded.errors.map((e) => {
    const at = /\(line (\d+) column \d+\)/.exec(e);
    return {
      file: relPath,
      line: at ? Number(at[1]) : 0,
      message: `invalid mapping file: ${e}`,
      severity: 'error' as const,
    };
  });
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/**
 * Finds the mapping that applies to a file: mapping files are looked up in the file's folder, then
 * each parent folder up to (and including) the results folder `root`; within and across files the
 * first mapping whose `files` globs match the file's path relative to the mapping's folder wins.
 * An invalid mapping file is skipped and reported in `errors` (diagnostics naming the mapping file,
 * line 0, and the bad field).
 */
export async function resolveMapping(
  absPath: string,
  root: string,
): Promise<{ mapping: ResolvedMapping | null; errors: Diagnostic[] }> {
  const errors: Diagnostic[] = [];
  const top = path.resolve(root);
  let dir = path.dirname(path.resolve(absPath));
  for (;;) {
    const mPath = path.join(dir, MAPPING_FILE_NAME);
    const loaded = await loadMapping(mPath);
    const mappingRelPath = toPosix(path.relative(top, mPath));
    if (loaded && 'errors' in loaded) {
      for (const e of loaded.errors) {
        errors.push({ file: mappingRelPath, line: 0, message: `invalid mapping file: ${e}`, severity: 'error' });
      }
    } else if (loaded) {
      const rel = toPosix(path.relative(dir, absPath));
      const spec = loaded.mappings.find((m) => matchAny(rel, m.files));
      if (spec) return { mapping: { spec, mappingRelPath, baseDir: dir }, errors };
    }
    if (dir === top) break;
    const parent = path.dirname(dir);
    if (parent === dir || path.relative(top, parent).startsWith('..')) break;
    dir = parent;
  }
  return { mapping: null, errors };
}

/**
 * Looks up a dotted path in a JSON value: `a.b.0.c`; a numeric segment indexes a list (`-1` is the
 * last element). `undefined` when any step is missing.
 */
export function getPath(v: unknown, dotted: string): unknown {
  let cur: unknown = v;
  for (const seg of dotted.split('.')) {
    if (Array.isArray(cur)) {
      if (!/^-?\d+$/.test(seg)) return undefined;
      const i = Number(seg);
      cur = cur[i < 0 ? cur.length + i : i];
    } else if (isObject(cur)) {
      cur = Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    } else {
      return undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Reads records through a mapping. Exported for tests; the `Reader` below resolves the mapping itself. */
export async function* readWithMapping(ctx: ReaderContext, m: ResolvedMapping): AsyncGenerator<ReadEvent> {
  const spec = m.spec;
  const f = spec.fields;
  const once = new OncePerFile();
  const defaultModel = spec.model ?? fileStem(ctx.relPath);
  // the mapping's own threshold first, then the one given to the indexer; numbers that are not 0/1
  // make the file's numeric values scores, not verdicts (VerdictReader)
  const verdicts = new VerdictReader(ctx, f.correct ?? 'correct', spec.correctThreshold ?? ctx.correctThreshold);

  const correctOf = (v: unknown, line: number, what: string, out: ReadEvent[]): boolean | null => {
    const c = verdicts.read(v, line);
    if (c.kind === 'string') {
      const w = once.warn(
        ctx,
        'string-correct',
        line,
        `${f.correct} values are strings; read "true"/"false" as booleans (reported once per file)`,
      );
      if (w) out.push(w);
    } else if (c.kind === 'invalid') {
      out.push(
        diag(ctx, line, `${what}${f.correct} is not a boolean or 0/1 (got ${typeName(v)}); sample ungraded`, 'warning'),
      );
    }
    return c.value;
  };

  const sampleOf = (
    o: unknown,
    get: (p: string) => unknown,
    line: number,
    what: string,
    out: ReadEvent[],
  ): SampleRecord | null => {
    void o;
    const text = get(f.text);
    if (typeof text !== 'string') {
      out.push(
        diag(
          ctx,
          line,
          `${what}${f.text} is ${text === undefined ? 'missing' : `not a string (got ${typeName(text)})`}; sample skipped`,
        ),
      );
      return null;
    }
    return {
      text,
      correct: f.correct ? correctOf(get(f.correct), line, what, out) : null,
      extractedAnswer: f.extractedAnswer ? toStr(get(f.extractedAnswer)) : null,
      rewardScore: f.rewardScore ? toScore(get(f.rewardScore)) : null,
      finishReason: f.finishReason ? toStr(get(f.finishReason)) : null,
      tokenCount: f.tokenCount ? toNum(get(f.tokenCount)) : null,
    };
  };

  const recordOf = (o: Record<string, unknown>, line: number, what: string, out: ReadEvent[]): ProblemRecord | null => {
    const problemId = toStr(getPath(o, f.problemId));
    if (problemId === null) {
      out.push(diag(ctx, line, `${what}problem id ${f.problemId} is missing or not a scalar; skipped`));
      return null;
    }
    const modelName = f.model ? toStr(getPath(o, f.model)) : null;
    const model: ModelRef = modelName
      ? { name: modelName, revision: f.revision ? toStr(getPath(o, f.revision)) : null, source: 'data' }
      : {
          name: defaultModel,
          revision: f.revision ? toStr(getPath(o, f.revision)) : null,
          source: spec.model ? 'data' : 'path',
        };
    const dataset = (f.dataset ? toStr(getPath(o, f.dataset)) : null) || spec.dataset || 'default';
    const samples: SampleRecord[] = [];
    if (spec.records === 'per-sample') {
      const s = sampleOf(o, (p) => getPath(o, p), line, what, out);
      if (!s) return null;
      if (f.sampleIndex) {
        const si = getPath(o, f.sampleIndex);
        if (Number.isInteger(si) && (si as number) >= 0) s.sampleIndex = si as number;
        else
          out.push(
            diag(
              ctx,
              line,
              `${what}${f.sampleIndex} is not a non-negative integer; the indexer numbers this sample`,
              'warning',
            ),
          );
      }
      samples.push(s);
    } else if (spec.samples) {
      const list = getPath(o, spec.samples);
      if (!Array.isArray(list)) {
        out.push(
          diag(
            ctx,
            line,
            `${what}${spec.samples} is ${list === undefined ? 'missing' : `not a list (got ${typeName(list)})`}; skipped`,
          ),
        );
        return null;
      }
      list.forEach((el, i) => {
        const s = sampleOf(el, (p) => getPath(el, p), line, `${what}${spec.samples}[${i}]: `, out);
        if (s) samples.push({ ...s, sampleIndex: i });
      });
    } else {
      // parallel lists on the record
      const texts = getPath(o, f.text);
      if (!Array.isArray(texts)) {
        out.push(
          diag(
            ctx,
            line,
            `${what}${f.text} is ${texts === undefined ? 'missing' : `not a list (got ${typeName(texts)})`}; skipped`,
          ),
        );
        return null;
      }
      let n = texts.length;
      if (f.correct) {
        const labels = getPath(o, f.correct);
        if (Array.isArray(labels) && labels.length !== texts.length) {
          n = Math.min(n, labels.length);
          out.push(
            diag(
              ctx,
              line,
              `${what}${f.text} has ${texts.length} samples but ${f.correct} has ${labels.length}; keeping the first ${n}`,
              'warning',
            ),
          );
        } else if (!Array.isArray(labels) && labels !== undefined) {
          out.push(
            diag(ctx, line, `${what}${f.correct} is not a list (got ${typeName(labels)}); samples are ungraded`),
          );
        }
      }
      const listAt = (p: string, i: number): unknown => {
        const l = getPath(o, p);
        return Array.isArray(l) ? l[i] : undefined;
      };
      for (let i = 0; i < n; i++) {
        const s = sampleOf(o, (p) => listAt(p, i), line, `${what}sample ${i}: `, out);
        if (s) samples.push({ ...s, sampleIndex: i });
      }
    }
    return {
      line,
      model,
      dataset,
      problemId,
      question: f.question ? toStr(getPath(o, f.question)) : null,
      referenceAnswer: f.referenceAnswer ? toStr(getPath(o, f.referenceAnswer)) : null,
      level: f.level ? toLevel(getPath(o, f.level)) : null,
      samples,
    };
  };

  if (ctx.relPath.toLowerCase().endsWith('.json')) {
    const doc = await readJsonDocument(ctx);
    if ('error' in doc) {
      yield doc.error;
      return;
    }
    yield* doc.warnings;
    const recordsOf = (v: unknown): unknown =>
      spec.recordsPath ? getPath(v, spec.recordsPath) : Array.isArray(v) ? v : [v];
    let records = recordsOf(doc.value);
    // problem ids beyond 2^53: the document again, with those integers read from their source text
    if (Array.isArray(records) && records.some((r) => isUnsafeInteger(getPath(r, f.problemId))))
      records = recordsOf(parseExactIntegers(doc.text));
    if (!Array.isArray(records)) {
      yield diag(
        ctx,
        0,
        `records path ${spec.recordsPath} (from ${m.mappingRelPath}) is ${records === undefined ? 'missing' : `not a list (got ${typeName(records)})`}`,
      );
      return;
    }
    for (let i = 0; i < records.length; i++) {
      checkAbort(ctx);
      const o = records[i];
      if (!isObject(o)) {
        yield diag(ctx, 1, `record ${i} is not a JSON object (got ${typeName(o)}); skipped`);
        continue;
      }
      const out: ReadEvent[] = [];
      const r = recordOf(o, 1, `record ${i}: `, out);
      yield* out;
      if (r) yield { kind: 'problem', record: r };
    }
    if (records.length === 0) yield diag(ctx, 0, 'no records', 'warning');
    yield* verdicts.finish();
    return;
  }

  for await (const item of readJsonLines(ctx)) {
    if (isEvent(item)) {
      yield item;
      continue;
    }
    checkAbort(ctx);
    const out: ReadEvent[] = [];
    const value = isUnsafeInteger(getPath(item.value, f.problemId))
      ? (parseExactIntegers(item.text) as Record<string, unknown>)
      : item.value;
    const r = recordOf(value, item.line, '', out);
    yield* out;
    if (r) yield { kind: 'problem', record: r };
  }
  yield* verdicts.finish();
}

/**
 * Reads a file through the mapping that applies to it (see {@link resolveMapping}). `detect()` is
 * always false: whether a mapping applies depends on the folder, so `detectFormat` (index.ts) checks
 * mappings itself, before the built-in readers. Without an applicable mapping, `read` gives the
 * mapping files' errors, if any, and an error `no mapping file applies to this file`.
 */
async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  const { mapping, errors } = await resolveMapping(ctx.absPath, ctx.root);
  for (const d of errors) yield { kind: 'diagnostic', diagnostic: d };
  if (!mapping) {
    yield diag(ctx, 0, `no ${MAPPING_FILE_NAME} applies to this file`);
    return;
  }
  yield* readWithMapping(ctx, mapping);
}

/** The mapping-file reader (format id `mapping`). */
export const mappingReader: Reader = { format: 'mapping', detect: () => false, read };
