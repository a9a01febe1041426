/**
 * Reader for any JSON/JSONL results format described by a mapping file
 * (`trace-inspector.mapping.json`, schema in mappingSchema.ts, paths in mappingPath.ts, documented in
 * docs/mapping.md).
 */
import { findNodeAtLocation, parse as parseJsonc, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import type { Diagnostic, ModelRef, NamedScore, ProblemRecord, ReadEvent, SampleRecord, StepRule } from '../model';
import { reduceSteps } from '../metrics/rewardModels';
import { plural, problemTextKey } from '../text/strings';
import { matchAny } from './glob';
import { readParquet } from './parquet';
import { MAPPING_FILE_NAME, MAPPING_SCHEMA, type MappingSpec } from './mappingSchema';
import {
  KEY_PATH,
  compilePath,
  describeValue,
  explainMiss,
  first,
  listOf,
  recordsAt,
  type FieldPath,
  type ListResult,
} from './mappingPath';
import type { Reader, ReaderContext } from './types';
import {
  VerdictReader,
  type VerdictKind,
  sameCorrectValue,
  spelledNumber,
  withExactIntegers,
  toCorrect,
  checkAbort,
  clip,
  diag,
  fileStem,
  pathDataset,
  pathModelName,
  dirSegments,
  fileStep,
  isEvent,
  isObject,
  readJsonDocument,
  readJsonLines,
  toLevel,
  scoreNumber,
  toNum,
  toScore,
  toReference,
  toStr,
  typeName,
  didYouMean,
} from './util';

// verbose: an error carries its schema (the known keys of an object, for "did you mean")
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const MAPPING_OBJECT = (MAPPING_SCHEMA.oneOf as readonly unknown[])[0] as {
  properties: { fields: { required: readonly string[] } };
};
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/**
 * The schema check of one mapping object. `fields.problemId` is required unless `fields.question` is
 * given (problems keyed by their text); `fields.text` unless the mapping gives `scores` or is `problemInfo`.
 */
function validatorFor(m: unknown): ReturnType<typeof ajv.compile> {
  const o = isObject(m) ? m : {};
  const f = isObject(o.fields) ? o.fields : {};
  const required = MAPPING_OBJECT.properties.fields.required.filter(
    (r) =>
      !(r === 'problemId' && f.question !== undefined) &&
      !(r === 'text' && (o.scores !== undefined || o.problemInfo === true)),
  );
  const key = required.join(',');
  let v = validators.get(key);
  if (!v) {
    const schema = structuredClone(MAPPING_OBJECT) as typeof MAPPING_OBJECT;
    schema.properties.fields.required = required;
    v = ajv.compile(schema);
    validators.set(key, v);
  }
  return v;
}

function formatAjvError(e: ErrorObject): string {
  const where = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') {
    const key = String((e.params as { additionalProperty: string }).additionalProperty);
    const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const near = didYouMean(key, known);
    return `${where}: unknown field "${key}"${near.length ? ` (did you mean ${near.map((k) => `"${k}"`).join(' or ')}?)` : ''}${known.length ? `; the fields here are ${known.join(', ')}` : ''}`;
  }
  if (e.keyword === 'required') {
    const miss = String((e.params as { missingProperty: string }).missingProperty);
    return `${where === '/' ? '' : where}/${miss}: required field is missing`;
  }
  if (e.keyword === 'enum') {
    return `${where}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  return `${where}: ${e.message ?? 'invalid'}`;
}

/** Record-level fields: read once per record (these may be `@key`). */
const RECORD_FIELDS = [
  'problemId',
  'model',
  'revision',
  'dataset',
  'level',
  'subject',
  'question',
  'referenceAnswer',
] as const;
/** Sample-level fields: read per sample (in parallel lists, per element). */
const SAMPLE_FIELDS = ['text', 'correct', 'extractedAnswer', 'rewardScore', 'finishReason', 'tokenCount'] as const;
type RecordField = (typeof RECORD_FIELDS)[number];
type SampleField = (typeof SAMPLE_FIELDS)[number];
type FieldName = RecordField | SampleField | 'sampleIndex';
/** The name of each field in messages and path statistics: `fields.text`. */
const STAT_KEY = Object.fromEntries(
  [...RECORD_FIELDS, ...SAMPLE_FIELDS, 'sampleIndex'].map((f) => [f, `fields.${f}`]),
) as Record<FieldName, string>;

/** A validated mapping with its paths compiled and its correctness rule. */
interface CompiledMapping {
  fields: Partial<Record<FieldName, FieldPath>>;
  samples: FieldPath | null;
  recordsPath: FieldPath | null;
  /** Full-match regular expression of `correctPattern`. */
  correctPattern: RegExp | null;
  /** The `scores` entries, compiled. */
  scores: CompiledScore[];
}

/** One compiled entry of a mapping's `scores`. */
interface CompiledScore {
  path: FieldPath;
  /** The JSON pointer of the entry in the mapping (`/scores/0`), for messages. */
  at: number;
  scorer: string | null;
  fromFile: RegExp | null;
  rule: StepRule;
}
const compiledOf = new WeakMap<MappingSpec, CompiledMapping>();

/**
 * Validates a parsed mapping document: one mapping object or a non-empty list of them. Returns the
 * mappings, or error messages each naming the bad field as a JSON pointer (`/fields/txt: unknown
 * field "txt"`, `/0/records: must be one of ["per-sample","per-problem"]`). Beyond the schema:
 * - every path compiles (mappingPath.ts `compilePath`: JSONPath per RFC 9535, dotted, or `@key`);
 * - `@key` only in record-level fields and only with a `recordsPath` that selects several values;
 * - `samples` only with `records: "per-problem"`, `fields.sampleIndex` only with `per-sample`;
 * - `correctPattern` is a valid regular expression; `correctThreshold` is not combined with
 *   `correctValues` / `correctPattern` (one rule decides what is correct).
 */
export function validateMapping(doc: unknown): { mappings: MappingSpec[] } | { errors: string[] } {
  const list = Array.isArray(doc) ? doc : [doc];
  if (Array.isArray(doc) && doc.length === 0) return { errors: ['/: the list of mappings is empty'] };
  const errors: string[] = [];
  list.forEach((m, i) => {
    const prefix = Array.isArray(doc) ? `/${i}` : '';
    const before = errors.length;
    const validateOne = validatorFor(m);
    if (!validateOne(m)) {
      for (const e of validateOne.errors ?? []) {
        const msg = formatAjvError(e);
        errors.push(prefix + (msg.startsWith('/: ') && prefix ? msg.slice(1) : msg));
      }
      // the paths' own syntax is still checked below (when they are strings), so every error shows at once
      if (!isObject(m) || !isObject(m.fields)) return;
    }
    const spec = m as MappingSpec;
    const compile = (pointer: string, src: unknown, keyAllowed: boolean): FieldPath | null => {
      if (typeof src !== 'string' || src === '') return null;
      if (src === KEY_PATH && !keyAllowed) {
        errors.push(
          `${prefix}${pointer}: ${KEY_PATH} is only allowed in record-level fields (${RECORD_FIELDS.join(', ')}) with a recordsPath that selects several values (such as "$.*")`,
        );
        return null;
      }
      try {
        return compilePath(src);
      } catch (err) {
        errors.push(`${prefix}${pointer}: ${err instanceof Error ? err.message : String(err)}`);
        return null;
      }
    };
    const recordsPath = compile('/recordsPath', spec.recordsPath, false);
    const keyed = recordsPath !== null && !recordsPath.singular;
    const fields: CompiledMapping['fields'] = {};
    for (const [name, src] of Object.entries(spec.fields) as [FieldName, unknown][]) {
      const p = compile(`/fields/${name}`, src, keyed && (RECORD_FIELDS as readonly string[]).includes(name));
      if (p) fields[name] = p;
    }
    const samples = compile('/samples', spec.samples, false);
    if (spec.samples !== undefined && spec.records !== 'per-problem') {
      errors.push(`${prefix}/samples: only allowed with records "per-problem"`);
    }
    if (spec.fields.sampleIndex !== undefined && spec.records !== 'per-sample') {
      errors.push(
        `${prefix}/fields/sampleIndex: only allowed with records "per-sample" (per-problem samples are numbered by position)`,
      );
    }
    let correctPattern: RegExp | null = null;
    if (spec.correctPattern !== undefined) {
      try {
        correctPattern = new RegExp(`^(?:${spec.correctPattern})$`, 'u');
      } catch (err) {
        errors.push(
          `${prefix}/correctPattern: not a regular expression (${err instanceof Error ? err.message : String(err)})`,
        );
      }
    }
    if (
      spec.correctThreshold !== undefined &&
      (spec.correctValues !== undefined || spec.correctPattern !== undefined)
    ) {
      errors.push(
        `${prefix}/correctThreshold: cannot be combined with correctValues or correctPattern (one rule decides what is correct)`,
      );
    }
    const scores: CompiledScore[] = [];
    (spec.scores ?? []).forEach((sc, i) => {
      if (!isObject(sc)) return;
      const p = compile(`/scores/${i}/path`, sc.path, false);
      if ((sc.scorer === undefined) === (sc.scorerFromFile === undefined)) {
        errors.push(
          `${prefix}/scores/${i}: give exactly one of scorer (a name) and scorerFromFile (a regular expression)`,
        );
        return;
      }
      let fromFile: RegExp | null = null;
      if (sc.scorerFromFile !== undefined) {
        try {
          fromFile = new RegExp(`^(?:${sc.scorerFromFile})$`, 'u');
          if (!/\((?!\?)/.test(sc.scorerFromFile.replace(/\\./g, ''))) {
            errors.push(`${prefix}/scores/${i}/scorerFromFile: needs a group, (...), that captures the scorer name`);
          }
        } catch (err) {
          errors.push(
            `${prefix}/scores/${i}/scorerFromFile: not a regular expression (${err instanceof Error ? err.message : String(err)})`,
          );
        }
      }
      if (p) scores.push({ path: p, at: i, scorer: sc.scorer ?? null, fromFile, rule: sc.stepRule ?? 'min' });
    });
    const scoresOnly = spec.scores !== undefined && spec.fields.text === undefined;
    const infoOnly = spec.problemInfo === true;
    if (infoOnly || scoresOnly) {
      const why = infoOnly
        ? 'problemInfo mappings give facts about problems, not samples'
        : 'a mapping with scores but no fields.text gives scores for samples other files define';
      for (const f of ['correct', 'extractedAnswer', 'rewardScore', 'finishReason', 'tokenCount'] as const) {
        if (spec.fields[f] !== undefined)
          errors.push(`${prefix}/fields/${f}: a sample field needs fields.text (${why})`);
      }
      for (const k of ['correctValues', 'correctPattern', 'correctThreshold'] as const) {
        if (spec[k] !== undefined) errors.push(`${prefix}/${k}: only with fields.correct (${why})`);
      }
    }
    if (infoOnly) {
      if (spec.records !== 'per-problem') errors.push(`${prefix}/problemInfo: only with records "per-problem"`);
      for (const k of ['samples', 'scores'] as const) {
        if (spec[k] !== undefined) errors.push(`${prefix}/${k}: not with problemInfo (its records have no samples)`);
      }
      if (spec.fields.text !== undefined)
        errors.push(`${prefix}/fields/text: not with problemInfo (its records have no samples)`);
    }
    if (errors.length === before) compiledOf.set(spec, { fields, samples, recordsPath, correctPattern, scores });
  });
  return errors.length > 0 ? { errors } : { mappings: list as MappingSpec[] };
}

/** The compiled form of a mapping returned by {@link validateMapping} (compiled again if needed). */
function compiled(spec: MappingSpec): CompiledMapping {
  let c = compiledOf.get(spec);
  if (!c) {
    const v = validateMapping(spec);
    if ('errors' in v) throw new Error(`invalid mapping: ${v.errors.join('; ')}`);
    c = compiledOf.get(spec)!;
  }
  return c;
}

/** A mapping that applies to a file. */
export interface ResolvedMapping {
  spec: MappingSpec;
  /** Mapping file path relative to the results folder (POSIX). */
  mappingRelPath: string;
  /** Absolute folder of the mapping file (globs are relative to it). */
  baseDir: string;
  /** Position of the mapping in the mapping file's list; null when the file holds one mapping object. */
  position?: number | null;
  /** Text of the mapping file (to point diagnostics at the line of a field). */
  text?: string;
}

interface LoadedMapping {
  mtimeMs: number;
  size: number;
  text: string;
  result: { mappings: MappingSpec[] } | { errors: string[] };
  /** Whether the document is a list of mappings. */
  isList: boolean;
}
const loadCache = new Map<string, LoadedMapping>();

/** Loads and validates a mapping file (cached by path, modification time and size). `null` when it does not exist. */
async function loadMapping(absPath: string): Promise<LoadedMapping | null> {
  let st: Stats;
  try {
    st = await stat(absPath);
  } catch {
    return null;
  }
  if (!st.isFile()) return null;
  const hit = loadCache.get(absPath);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
  let result: LoadedMapping['result'];
  let text = '';
  let isList = false;
  try {
    const raw = await readFile(absPath, 'utf8');
    text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // jsonc-parser in strict mode finds where a syntax error is (JSON.parse's message may not say).
    const syntax: ParseError[] = [];
    parseJsonc(text, syntax, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    if (syntax.length > 0) {
      const e = syntax[0];
      const line = text.slice(0, e.offset).split('\n').length;
      const column = e.offset - text.lastIndexOf('\n', e.offset - 1);
      result = { errors: [`not valid JSON: ${printParseErrorCode(e.error)} (line ${line} column ${column})`] };
    } else {
      const doc: unknown = JSON.parse(text);
      isList = Array.isArray(doc);
      result = validateMapping(doc);
    }
  } catch (err) {
    result = { errors: [`not valid JSON (${err instanceof Error ? err.message : String(err)})`] };
  }
  const loaded = { mtimeMs: st.mtimeMs, size: st.size, text, result, isList };
  loadCache.set(absPath, loaded);
  return loaded;
}

/**
 * The `files` globs of a valid mapping file given by path (see {@link resolveMapping}); empty when the
 * file is missing or invalid.
 */
export async function mappingFileGlobs(absPath: string): Promise<string[]> {
  const loaded = await loadMapping(path.resolve(absPath));
  return loaded && 'mappings' in loaded.result ? loaded.result.mappings.flatMap((m) => m.files) : [];
}

/**
 * The problems of a mapping file itself, as diagnostics on that file (`relPath`): a JSON syntax error at
 * its line (from the parser's "line L column C"; 0 when the message gives none), schema errors at line
 * 0 naming the field. Empty for a valid or missing file. The indexer records them once, on the
 * mapping file, whichever data files the mapping was meant for.
 */
export async function mappingFileDiagnostics(
  absPath: string,
  relPath: string,
  mustExist = false,
): Promise<Diagnostic[]> {
  const loaded = await loadMapping(absPath);
  if (!loaded && mustExist) {
    return [{ file: relPath, line: 0, message: 'mapping file not found (or not a file); not used', severity: 'error' }];
  }
  if (!loaded || !('errors' in loaded.result)) return [];
  return loaded.result.errors.map((e) => {
    const at = /\(line (\d+) column \d+\)/.exec(e);
    return {
      file: relPath,
      line: at ? Number(at[1]) : 0,
      message: `invalid mapping file: ${e}`,
      severity: 'error' as const,
    };
  });
}

/** Most files {@link unmatchedMappingGlobs} lists under a mapping's folder, and names in its message. */
const SEEN_MAX = 2000;
const SEEN_SHOWN = 8;

/** Up to `max` file paths under `dir` (POSIX, relative to it; breadth first; `.git`, `node_modules` skipped). */
async function filesUnder(dir: string, max: number): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  const queue = [''];
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(path.join(dir, ...rel.split('/').filter(Boolean)), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!['.git', 'node_modules', '.trace-inspector'].includes(e.name)) queue.push(r);
      } else if (e.name !== MAPPING_FILE_NAME) {
        if (files.length >= max) return { files, more: true };
        files.push(r);
      }
    }
  }
  return { files, more: false };
}

/**
 * Mappings whose `files` globs match no file, as warnings on their mapping file: a mapping in the
 * folder (`trace-inspector.mapping.json` among `candidates`) matches paths relative to its own folder,
 * a mapping file given by path (`mappingFile`) paths relative to `root`. A mapping entry is reported
 * when none of its globs matches any file there (an entry with several globs of which one matches is
 * fine). The message names the mapping (its position in a list), the globs, and the files seen there
 * (the first 8 of at most 2000, so a case or extension mismatch shows: globs are case-sensitive).
 * Invalid or missing mapping files give nothing here (their own diagnostics say why).
 * @param candidates the indexer's listed files (POSIX, relative to `root`): every file a mapping's glob
 *   matches is among them, so a glob that matches none of them matches no file.
 */
export async function unmatchedMappingGlobs(
  root: string,
  candidates: readonly string[],
  mappingFile?: string,
): Promise<Diagnostic[]> {
  const top = path.resolve(root);
  const sources: { abs: string; file: string; baseRel: string; given: boolean }[] = candidates
    .filter((c) => path.posix.basename(c) === MAPPING_FILE_NAME)
    .map((c) => {
      const dir = path.posix.dirname(c);
      return { abs: path.join(top, ...c.split('/')), file: c, baseRel: dir === '.' ? '' : dir, given: false };
    });
  if (mappingFile) sources.unshift({ abs: path.resolve(mappingFile), file: mappingFile, baseRel: '', given: true });
  const out: Diagnostic[] = [];
  for (const src of sources) {
    const loaded = await loadMapping(src.abs);
    if (!loaded || !('mappings' in loaded.result)) continue;
    const under = src.baseRel
      ? candidates.filter((c) => c.startsWith(`${src.baseRel}/`)).map((c) => c.slice(src.baseRel.length + 1))
      : candidates;
    const data = under.filter((c) => path.posix.basename(c) !== MAPPING_FILE_NAME);
    let seen: { files: string[]; more: boolean } | undefined;
    for (const [i, m] of loaded.result.mappings.entries()) {
      if (data.some((c) => matchAny(c, m.files))) continue;
      seen ??= await filesUnder(src.baseRel ? path.join(top, ...src.baseRel.split('/')) : top, SEEN_MAX);
      const n = seen.files.length;
      const shown = seen.files.slice(0, SEEN_SHOWN).join(', ');
      const folder = src.given
        ? 'the results folder (a mapping given by path matches paths relative to the results folder)'
        : src.baseRel
          ? `its folder ${src.baseRel}/`
          : 'its folder (the results folder)';
      const files =
        n === 0
          ? 'there is no other file there'
          : `files seen there: ${shown}${n > SEEN_SHOWN ? ` and ${n - SEEN_SHOWN}${seen.more ? '+' : ''} more` : ''}`;
      out.push({
        file: src.file,
        line: 0,
        severity: 'warning',
        message: `mapping${loaded.isList ? ` #${i + 1}` : ''}: "files" ${JSON.stringify(m.files)} matches no file under ${folder}; globs are case-sensitive and a glob without "/" matches the file name in any subfolder; ${files}`,
      });
    }
  }
  return out;
}

/**
 * Why a value is no problem id (a string, number or boolean is one): missing, null, or an object or a
 * list, with its first keys / its length, so "points at an object" is said as such with a way out.
 */
export function notAnId(v: unknown): string {
  if (v === undefined) return 'is missing';
  if (v === null) return 'is null';
  if (Array.isArray(v)) return `is a list of ${v.length} value${v.length === 1 ? '' : 's'}, not a string or number`;
  if (isObject(v)) {
    const keys = Object.keys(v);
    const shown = keys
      .slice(0, 6)
      .map((k) => clip(JSON.stringify(k), 40))
      .join(', ');
    return `is an object (keys: ${shown || 'none'}${keys.length > 6 ? ', ...' : ''}), not a string or number: point fields.problemId at one of its keys`;
  }
  return `is a ${typeof v}, not a string or number`;
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
  mappingFile?: string,
): Promise<{ mapping: ResolvedMapping | null; errors: Diagnostic[] }> {
  const errors: Diagnostic[] = [];
  const top = path.resolve(root);
  if (mappingFile) {
    // A mapping file given by path (read-only folders): globs relative to the results folder; it comes
    // before the folder's own mapping files. Its own errors are reported by the indexer, once.
    const abs = path.resolve(mappingFile);
    const loaded = await loadMapping(abs);
    if (loaded && 'mappings' in loaded.result) {
      const rel = toPosix(path.relative(top, path.resolve(absPath)));
      const i = loaded.result.mappings.findIndex((m) => matchAny(rel, m.files));
      if (i >= 0)
        return {
          mapping: {
            spec: loaded.result.mappings[i],
            mappingRelPath: toPosix(abs),
            baseDir: top,
            position: loaded.isList ? i : null,
            text: loaded.text,
          },
          errors,
        };
    }
  }
  let dir = path.dirname(path.resolve(absPath));
  for (;;) {
    const mPath = path.join(dir, MAPPING_FILE_NAME);
    const loaded = await loadMapping(mPath);
    const mappingRelPath = toPosix(path.relative(top, mPath));
    const result = loaded?.result;
    if (result && 'errors' in result) {
      for (const e of result.errors) {
        errors.push({ file: mappingRelPath, line: 0, message: `invalid mapping file: ${e}`, severity: 'error' });
      }
    } else if (loaded && result) {
      const mappings: MappingSpec[] = result.mappings;
      const rel = toPosix(path.relative(dir, absPath));
      const i = mappings.findIndex((m) => matchAny(rel, m.files));
      if (i >= 0) {
        const spec = mappings[i];
        return {
          mapping: { spec, mappingRelPath, baseDir: dir, position: loaded.isList ? i : null, text: loaded.text },
          errors,
        };
      }
    }
    if (dir === top) break;
    const parent = path.dirname(dir);
    if (parent === dir || path.relative(top, parent).startsWith('..')) break;
    dir = parent;
  }
  return { mapping: null, errors };
}

/**
 * Looks up a path (JSONPath, dotted or numeric segments as in mappingPath.ts) in a JSON value: the one
 * value a singular path selects, the first match of any other; `undefined` when it matches nothing.
 * Kept for callers of the dotted-path era: `getPath(v, 'a.b.0.c')`, `getPath(v, 'history.-1')`.
 */
export function getPath(v: unknown, p: string): unknown {
  return first(compilePath(p), v);
}

/** 1-based line of `key` of a mapping (`["fields", "correct"]`) in its mapping file; 0 when unknown. */
function mappingLine(m: ResolvedMapping, key: (string | number)[]): number {
  if (!m.text) return 0;
  const tree = parseTree(m.text);
  if (!tree) return 0;
  const node = findNodeAtLocation(tree, m.position === null || m.position === undefined ? key : [m.position, ...key]);
  const at = node?.parent?.offset ?? node?.offset;
  return at === undefined ? 0 : m.text.slice(0, at).split('\n').length;
}

/** A {@link VerdictReader} read as a {@link CorrectRule} result (the reader itself warns about strings and scores). */
function fromVerdicts(r: { value: boolean | null; kind: VerdictKind }): ReturnType<CorrectRule['read']> {
  return { value: r.value, kind: r.kind === 'invalid' ? 'invalid' : 'ok' };
}

/** How a mapping reads correctness values (see docs/mapping.md "Correctness"). */
interface CorrectRule {
  read(v: unknown): { value: boolean | null; kind: 'ok' | 'string' | 'invalid' };
  /** The accepted forms, for warnings. */
  accepted: string;
}

/**
 * The correctness rule of a mapping:
 * - `correctValues` / `correctPattern`: a string, number or boolean is correct when it is one of the
 *   values ({@link sameCorrectValue}: `1` matches `"1"` and `"1.0"`, `"1"` matches `1`, `true` matches
 *   `"true"`) or, as its JSON text for numbers and booleans, matches the pattern as a
 *   whole; any other string, number or boolean is incorrect; lists and objects are not verdicts;
 * - `correctThreshold`: a number or numeric string is correct when `>=` the threshold; booleans as is;
 * - neither: {@link toCorrect} (booleans, 0/1 and the strings true/false, yes/no, correct/incorrect, C/I, 1/0).
 * `null` or a path that matches nothing: ungraded, no warning.
 */
function correctRule(spec: MappingSpec, c: CompiledMapping, mappingRelPath: string): CorrectRule {
  const values = spec.correctValues;
  const pattern = c.correctPattern;
  if (values !== undefined || pattern !== null) {
    const parts: string[] = [];
    if (values !== undefined) parts.push(`one of ${JSON.stringify(values)}`);
    if (pattern !== null) parts.push(`a whole match of /${spec.correctPattern}/`);
    return {
      accepted: `a string, number or boolean (correct when it is ${parts.join(' or ')}, else incorrect)`,
      read(v) {
        if (v === null || v === undefined) return { value: null, kind: 'ok' };
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
          return { value: null, kind: 'invalid' };
        }
        const hit =
          (values !== undefined && values.some((x) => sameCorrectValue(x, v))) ||
          (pattern !== null && pattern.test(typeof v === 'string' ? v : JSON.stringify(v)));
        return { value: hit, kind: 'ok' };
      },
    };
  }
  const t = spec.correctThreshold;
  if (t !== undefined) {
    return {
      accepted: `a number or numeric string (correct when >= ${t}), or true/false`,
      read(v) {
        if (v === null || v === undefined) return { value: null, kind: 'ok' };
        if (typeof v === 'boolean') return { value: v, kind: 'ok' };
        const n = typeof v === 'string' || typeof v === 'number' ? toNum(v) : null;
        return n === null ? { value: null, kind: 'invalid' } : { value: n >= t, kind: 'ok' };
      },
    };
  }
  return {
    accepted: `true/false, 1/0, or the strings "true"/"false", "1"/"0" ("1.0"/"0.0"), "yes"/"no", "correct"/"incorrect", "C"/"I" (for other values set correctValues, correctPattern or correctThreshold in ${mappingRelPath})`,
    read(v) {
      const r = toCorrect(v);
      return { value: r.value, kind: r.kind === 'invalid' ? 'invalid' : r.kind === 'string' ? 'string' : 'ok' };
    },
  };
}

/**
 * A dotted path with JSONPath brackets (`resps[*][0]`) read as key names matches nothing: when the same
 * path with `$.` in front matches something in `where` (the first record or sample), the hint
 * `did you mean "$.resps[*][0]"?` (trial 5 finding 9); else null.
 */
function dollarHint(source: string, where: unknown): string | null {
  if (source.startsWith('$') || !/[[\]*]/.test(source)) return null;
  const jp = source.startsWith('[') ? `$${source}` : `$.${source}`;
  try {
    return first(compilePath(jp), where) === undefined
      ? null
      : `did you mean "${jp}"? a path with [ ] or * starts with "$"`;
  } catch {
    return null;
  }
}

/** What a failed required field gives, for the "matched nothing" diagnostic. */
const CONSEQUENCE: Record<FieldName | 'samples', string> = {
  problemId: 'every record is skipped',
  text: 'every sample is skipped',
  samples: 'every record is skipped',
  correct: 'every sample is ungraded',
  rewardScore: 'no sample has a reward score',
  extractedAnswer: 'no sample has an extracted answer',
  finishReason: 'no sample has a finish reason',
  tokenCount: 'no sample has a token count',
  sampleIndex: 'the indexer numbers the samples',
  model: `the model name is the mapping's "model" or the file name`,
  revision: 'no revision is recorded',
  dataset: `the dataset is the mapping's "dataset", the one the file's path names, or "default"`,
  level: 'no difficulty level is recorded',
  subject: 'no subject is recorded',
  question: 'no question is recorded',
  referenceAnswer: 'no reference answer is recorded',
};

/** Held diagnostics of a field that has matched in no record yet, at most this many (the rest counted). */
const MAX_HELD = 1000;

/**
 * Per file: which mapping paths have matched in at least one record. A record-level failure of a
 * required path (missing problem id, text, samples list) is held back while that path has matched in
 * no record yet: when it matches later the held diagnostics are given; when it never matches they are
 * replaced by one diagnostic on the mapping file (`fields.text 'outputs' matched nothing in 20 records
 * of x.json`), so a wrong mapping is one message, not one per record.
 */
class PathStats {
  private readonly matched = new Set<string>();
  private readonly held = new Map<string, { events: ReadEvent[]; more: number }>();

  note(field: string, hit: boolean, out: ReadEvent[]): void {
    if (!hit || this.matched.has(field)) return;
    this.matched.add(field);
    const h = this.held.get(field);
    if (h) {
      out.push(...h.events);
      this.held.delete(field);
    }
  }

  has(field: string): boolean {
    return this.matched.has(field);
  }

  /** Emits `ev` now when `field` has matched before, else holds it. */
  gate(field: string, ev: ReadEvent, out: ReadEvent[]): void {
    if (this.matched.has(field)) {
      out.push(ev);
      return;
    }
    let h = this.held.get(field);
    if (!h) this.held.set(field, (h = { events: [], more: 0 }));
    if (h.events.length < MAX_HELD) h.events.push(ev);
    else h.more++;
  }
}

/**
 * Reads one named score: a number or numeric string as is ({@link scoreNumber}: `-Infinity`, `-inf` are the
 * lowest score); a non-empty list of them as a process reward model's step scores, reduced to one number by
 * `rule` ({@link reduceSteps}) and kept.
 * @returns the score, `'missing'` for null, undefined or NaN, `'invalid'` for anything else (an empty list,
 * a list holding a non-number or NaN, a string that is not a number, an object, steps whose product is
 * undefined: `0 × Infinity`).
 */
export function readScore(v: unknown, scorer: string, rule: StepRule): NamedScore | 'missing' | 'invalid' {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return 'missing';
  if (Array.isArray(v)) {
    if (v.length === 0) return 'invalid';
    const steps: number[] = [];
    for (const x of v) {
      const n = scoreNumber(x);
      if (n === null) return 'invalid';
      steps.push(n);
    }
    const value = reduceSteps(steps, rule);
    return Number.isNaN(value) ? 'invalid' : { scorer, value, steps, rule };
  }
  const n = scoreNumber(v);
  return n === null ? 'invalid' : { scorer, value: n };
}

/** Whether a list read for a parallel-list field holds anything (a `P[*]S` list of only missing values does not). */
function listHit(l: ListResult): boolean {
  return l.kind === 'not-list' || (l.kind === 'list' && (l.list.length === 0 || l.list.some((x) => x !== undefined)));
}

/**
 * Reads records through a mapping. Exported for tests; the `Reader` below resolves the mapping itself.
 *
 * Diagnostics (besides the file-level ones of the JSON/JSONL readers):
 * - per record: a missing or non-scalar problem id, a text that is missing or not a string, a list
 *   that is not a list, parallel lists of different lengths (warning), a `sampleIndex` that is not a
 *   non-negative integer (warning); errors skip the record or sample;
 * - per file: a correctness value that is not a verdict is a warning naming the value and the accepted
 *   forms (the first one at its line, then a count of all of them at line 0);
 * - per file, on the mapping file (at the line of the field): each path that matched nothing in any
 *   record of the file, with the count of records and a hint from the first record (`$.infos is a list
 *   of 20 objects: to take "r" from each element write "$.infos[*].r"`); see {@link PathStats};
 * - when records were read but none gave a sample: `every record failed: ...` (error, line 0).
 */
export async function* readWithMapping(ctx: ReaderContext, m: ResolvedMapping): AsyncGenerator<ReadEvent> {
  const f = mappedFile(ctx, m);
  yield* f.preamble;
  const lower = ctx.relPath.toLowerCase();
  if (lower.endsWith('.json')) yield* readDocumentRecords(f);
  else if (lower.endsWith('.parquet')) yield* readParquetRecords(f);
  else yield* readLineRecords(f);
}

/**
 * The rows of a Parquet file read through a mapping: each row is a record, an object keyed by column (a list or
 * struct column as a JSON list or object), its "line" the row's number (1-based), read one row group at a time
 * (./parquet.ts). Its texts are kept in the index (no line to read them back from). Then the file's summary.
 */
async function* readParquetRecords(f: MappedFile): AsyncGenerator<ReadEvent> {
  yield* readParquet(f.ctx, async function* (src) {
    for await (const { row, line } of src.rows()) {
      checkAbort(f.ctx);
      const out: ReadEvent[] = [];
      const r = recordOf(f, row, undefined, line, '', out);
      yield* out;
      if (r) yield { kind: 'problem', record: r };
    }
    yield* summary(f);
    yield* f.verdicts.finish();
  });
}

/**
 * The records of a JSON document read through a mapping (the list at `recordsPath`, the document's list,
 * or the document itself): every record is held until the last is read, since records of one document
 * share line 1 (an `ungrade` of lines cannot tell them apart); then the file's summary.
 */
async function* readDocumentRecords(f: MappedFile): AsyncGenerator<ReadEvent> {
  const { spec, c, verdicts, ctx, m } = f;
  const doc = await readJsonDocument(ctx);
  if ('error' in doc) {
    yield doc.error;
    return;
  }
  yield* doc.warnings;
  // integers beyond 2^53 (problem ids): the document again, with those read from their source text
  const docValue = withExactIntegers(doc.value, doc.text);
  let records: { value: unknown; key: string | undefined }[];
  if (c.recordsPath) {
    const r = recordsAt(c.recordsPath, docValue);
    if ('missing' in r) {
      const hint = explainMiss(c.recordsPath, docValue);
      yield diag(
        ctx,
        0,
        `records path ${spec.recordsPath} (from ${m.mappingRelPath}) matched nothing${hint ? ` (${hint.replace(/^the record/, 'the document')})` : ''}`,
      );
      return;
    }
    if ('notList' in r) {
      const keyedHint = isObject(r.notList)
        ? `; to read the values of this object as records (keyed by problem id: "problemId": "${KEY_PATH}") write "${c.recordsPath.jsonPath}.*"`
        : '';
      yield diag(
        ctx,
        0,
        `records path ${spec.recordsPath} (from ${m.mappingRelPath}) is ${describeValue(r.notList)}, not a list${keyedHint}`,
      );
      return;
    }
    records = r.records;
  } else {
    records = Array.isArray(docValue)
      ? docValue.map((value) => ({ value, key: undefined }))
      : [{ value: docValue, key: undefined }];
  }
  // Every record of a document shares line 1, so an `ungrade` of lines cannot tell them apart: the
  // records are held until the last one is read, and if the correctness column turns out to hold
  // scores, the verdicts read from 0/1 values are withdrawn here (words stay verdicts, trial 6 finding 3).
  f.numberVerdicts = new Set();
  const held: ReadEvent[] = [];
  for (let i = 0; i < records.length; i++) {
    checkAbort(ctx);
    const { value: o, key } = records[i];
    if (!isObject(o) && !Array.isArray(o)) {
      held.push(
        diag(
          ctx,
          1,
          `record ${key === undefined ? i : JSON.stringify(key)} is not a JSON object or list (got ${typeName(o)}); skipped`,
        ),
      );
      continue;
    }
    const out: ReadEvent[] = [];
    const r = recordOf(f, o, key, 1, `record ${key === undefined ? i : JSON.stringify(key)}: `, out, i);
    held.push(...out);
    if (r) held.push({ kind: 'problem', record: r });
  }
  const finished = verdicts.finish();
  if (verdicts.holdsScores()) for (const s of f.numberVerdicts) s.correct = null;
  yield* held;
  if (records.length === 0) yield diag(ctx, 0, 'no records', 'warning');
  yield* summary(f);
  yield* finished.filter((e) => e.kind !== 'ungrade');
}

/** The records of a JSONL file read through a mapping, one a line (each with its span), then the file's summary. */
async function* readLineRecords(f: MappedFile): AsyncGenerator<ReadEvent> {
  const { verdicts, ctx } = f;

  for await (const item of readJsonLines(ctx)) {
    if (isEvent(item)) {
      yield item;
      continue;
    }
    checkAbort(ctx);
    const out: ReadEvent[] = [];
    const r = recordOf(f, withExactIntegers(item.value, item.text), undefined, item.line, '', out);
    yield* out;
    if (r) yield { kind: 'problem', record: { ...r, span: { offset: item.offset, bytes: item.bytes } } };
  }
  yield* summary(f);
  yield* verdicts.finish();
}

/**
 * What reading one file through a mapping keeps: the mapping compiled, the model and dataset its path
 * names, how its values are graded and scored, and the counts said once at the end of the file
 * ({@link summary}).
 */
function mappedFile(ctx: ReaderContext, m: ResolvedMapping) {
  const spec = m.spec;
  const c = compiled(spec);
  const P = c.fields;
  const src = (name: FieldName): string => spec.fields[name] ?? '';
  const stats = new PathStats();
  const rule = correctRule(spec, c, m.mappingRelPath);
  // no model in the mapping: the file's name (seed tokens out; a generic stem such as `results` names the
  // model after its folder: trial 6 finding 1)
  // A file named only by a training step (verl's `Qwen2.5-7B-GRPO/val_generations/100.jsonl`) names no model: the
  // folder does, the step is its revision (`Qwen2.5-7B-GRPO@step-100`), and step 0 (verl's validation before
  // training) is the model itself, no revision (trial 12 finding 14: was models `100`, `200`, `0`)
  const pathStep =
    spec.model || !/^\d+$/.test(fileStem(ctx.relPath)) || dirSegments(ctx.relPath).length === 0
      ? null
      : fileStep(ctx.relPath);
  const defaultModel =
    spec.model ??
    pathModelName(ctx.relPath, pathStep === null ? fileStem(ctx.relPath) : 'samples', ctx.options?.layoutDatasets);
  // records naming no dataset: the dataset the path names, as the built-in readers take it (util.ts
  // `pathDataset`): a generic stem's dataset (lm-eval's `samples_<task>_<date>` gives the task whole; trial 12
  // finding 1), else the dataset folder's (trial 8 finding 1), never one `default` for two folders or two tasks
  const folderDs = pathDataset(ctx.relPath, fileStem(ctx.relPath), ctx.options?.layoutDatasets);
  // One model named by the mapping over files named by a training step (verl's val_generations/100.jsonl):
  // each step is its own revision (`model@step-100`), a checkpoint, never merged with the other steps as
  // seed shards (trial 5 finding 6). A model named by the file already differs per file.
  const namedModelStep = spec.model ? fileStep(ctx.relPath) : pathStep === 'step-0' ? null : pathStep;
  // Numbers under the default verdict rule: 0/1 are verdicts until the file shows another number (a
  // partial reward, a rating): then its numeric values are scores, ungraded unless a threshold is given
  // to the indexer (VerdictReader). The mapping's own correctValues / correctPattern / correctThreshold win.
  const defaultRule =
    spec.correctValues === undefined && c.correctPattern === null && spec.correctThreshold === undefined;
  const verdicts = new VerdictReader(ctx, src('correct') || 'correct', ctx.options?.correctThreshold);
  const notVerdicts = { count: 0, firstLine: 0 };
  /** correctValues / correctPattern: the values read (distinct, with counts) and how many were correct. */
  const ruleTally = { read: 0, correct: 0, seen: new Map<string, number>() };
  const scoresOnly = c.scores.length > 0 && !P.text;
  const infoOnly = spec.problemInfo === true;
  // The scorers of this file: a fixed name, or the first group of scorerFromFile on the file name.
  const fileName = path.posix.basename(ctx.relPath);
  const scorers: { sc: CompiledScore; scorer: string; rule: StepRule; stat: string }[] = [];
  const preamble: ReadEvent[] = [];
  for (const sc of c.scores) {
    const scorer = sc.scorer ?? sc.fromFile?.exec(fileName)?.[1] ?? '';
    if (scorer === '') {
      preamble.push(
        diag(
          ctx,
          0,
          `scores[${sc.at}].scorerFromFile ${JSON.stringify(spec.scores?.[sc.at]?.scorerFromFile)} (from ${m.mappingRelPath}) does not match the file name ${JSON.stringify(fileName)} (or its group is empty): no scorer name, so the scores of this entry are not read`,
        ),
      );
      continue;
    }
    scorers.push({ sc, scorer, rule: spec.stepRules?.[scorer] ?? sc.rule, stat: `scores[${sc.at}].path` });
  }
  /** Per scorer: score values that are not scores (first one reported at its line), samples without a value. */
  const badScores = new Map<string, { count: number; firstLine: number }>();
  const noScore = new Map<string, { count: number; firstLine: number; what: string }>();
  /** Per-sample records whose `fields.sampleIndex` is no usable index, by why; the first one (said once per file, trial 6 finding 4). */
  const badIndex = {
    missing: 0,
    negative: 0,
    other: 0,
    first: null as { line: number; what: string; value: unknown } | null,
  };
  return {
    spec,
    c,
    P,
    src,
    stats,
    rule,
    defaultModel,
    folderDs,
    namedModelStep,
    defaultRule,
    verdicts,
    notVerdicts,
    ruleTally,
    scoresOnly,
    infoOnly,
    scorers,
    preamble,
    badScores,
    noScore,
    ctx,
    m,
    badIndex,
    recordsSeen: 0,
    samplesRead: 0,
    /** Scores read by a scores-only mapping, records read by a problemInfo mapping. */
    scoresRead: 0,
    infosRead: 0,
    /** The first record, and its first sample element (`samples` mode): where a "matched nothing" hint looks. */
    firstRecord: undefined as unknown,
    firstSampleElement: undefined as unknown,
    /** Whether the last {@link correctOf} read a verdict from a value spelling 0/1 (a score if the column turns out to hold scores). */
    fromNumber: false,
    /** JSON documents: the samples whose verdict came from a 0/1 value (withdrawn if the column holds scores). */
    numberVerdicts: undefined as Set<SampleRecord> | undefined,
  };
}

/** One file being read through a mapping ({@link mappedFile}). */
type MappedFile = ReturnType<typeof mappedFile>;

function correctOf(
  f: MappedFile,
  v: unknown,
  line: number,
  what: string,
  out: ReadEvent[],
  index?: number,
): boolean | null {
  const { src, rule, defaultRule, verdicts, notVerdicts, ruleTally, ctx } = f;
  // the default rule: one rule per file and column (VerdictReader): if the column holds scores, all
  // of its values are scores, strings and numbers alike (trial 6 finding 3)
  const r = defaultRule ? fromVerdicts(verdicts.read(v, line, index)) : rule.read(v);
  f.fromNumber = defaultRule && r.value !== null && spelledNumber(v) !== null;
  if (!defaultRule && r.value !== null) {
    ruleTally.read++;
    if (r.value) ruleTally.correct++;
    const key = JSON.stringify(v);
    if (ruleTally.seen.has(key) || ruleTally.seen.size < 8) ruleTally.seen.set(key, (ruleTally.seen.get(key) ?? 0) + 1);
  }
  if (r.kind === 'invalid') {
    if (notVerdicts.count++ === 0) {
      notVerdicts.firstLine = line;
      out.push(
        diag(
          ctx,
          line,
          `${what}${src('correct')} value ${clip(JSON.stringify(v) ?? String(v), 60)} is not a verdict (accepted: ${rule.accepted}); sample ungraded`,
          'warning',
        ),
      );
    }
  }
  return r.value;
}

/**
 * Per-sample records: `fields.sampleIndex` of the record when it is a non-negative integer, or a string
 * of digits that spells one (`"0"`, `" 12 "`: read as the integer, silently; trial 6 finding 5);
 * undefined (the indexer numbers the sample, the record marked `indexless`) when the mapping has none
 * or the value is missing, negative (`-1`) or not an integer (`1.5`, `"x"`, `"1.0"`): such records are
 * counted and said once per file ({@link summary}), never once per line.
 */
function sampleIndexOf(f: MappedFile, o: unknown, line: number, what: string, out: ReadEvent[]): number | undefined {
  const { P, stats, badIndex } = f;
  if (!P.sampleIndex) return undefined;
  const si = first(P.sampleIndex, o);
  stats.note('fields.sampleIndex', si !== undefined, out);
  if (typeof si === 'number' && Number.isSafeInteger(si) && si >= 0) return si;
  if (typeof si === 'string' && /^\s*\d+\s*$/.test(si)) {
    const n = Number(si);
    if (Number.isSafeInteger(n)) return n;
  }
  if (si === undefined || si === null) badIndex.missing++;
  else if ((typeof si === 'number' || typeof si === 'string') && Number(si) < 0) badIndex.negative++;
  else badIndex.other++;
  badIndex.first ??= { line, what, value: si };
  return undefined;
}

/** One sample's named scores from a getter of each score path; notes which paths matched. */
function scoresOf(
  f: MappedFile,
  get: (p: FieldPath) => unknown,
  line: number,
  what: string,
  out: ReadEvent[],
  noteFields: boolean,
): NamedScore[] {
  const { spec, stats, scorers, badScores, noScore, ctx } = f;
  const got: NamedScore[] = [];
  for (const s of scorers) {
    const v = get(s.sc.path);
    if (noteFields) stats.note(s.stat, v !== undefined, out);
    const r = readScore(v, s.scorer, s.rule);
    if (r === 'missing') {
      const e = noScore.get(s.scorer);
      if (e) e.count++;
      else noScore.set(s.scorer, { count: 1, firstLine: line, what: what.replace(/:\s*$/, '') });
    } else if (r === 'invalid') {
      let b = badScores.get(s.scorer);
      if (!b) {
        badScores.set(s.scorer, (b = { count: 0, firstLine: line }));
        out.push(
          diag(
            ctx,
            line,
            `${what}${spec.scores?.[s.sc.at]?.path} value ${clip(JSON.stringify(v) ?? String(v), 60)} is not a score of ${s.scorer} (accepted: a number, a numeric string, or a non-empty list of numbers: step scores, reduced by ${s.rule}); no ${s.scorer} score for this sample`,
            'warning',
          ),
        );
      }
      b.count++;
    } else got.push(r);
  }
  return got;
}

/** A sample from a getter of its fields; notes which sample paths matched. */
function sampleOf(
  f: MappedFile,
  get: (name: SampleField) => unknown,
  line: number,
  what: string,
  out: ReadEvent[],
  noteFields: boolean,
  getScore: (p: FieldPath) => unknown = () => undefined,
  index?: number,
): SampleRecord | null {
  const { P, src, stats, scorers, ctx } = f;
  const v: Partial<Record<SampleField, unknown>> = {};
  for (const name of SAMPLE_FIELDS) {
    if (!P[name]) continue;
    v[name] = get(name);
    if (noteFields) stats.note(STAT_KEY[name], v[name] !== undefined, out);
  }
  const text = v.text;
  if (text === undefined) {
    stats.gate('fields.text', diag(ctx, line, `${what}${src('text')} is missing; sample skipped`), out);
    return null;
  }
  if (typeof text !== 'string') {
    out.push(diag(ctx, line, `${what}${src('text')} is not a string (got ${typeName(text)}); sample skipped`));
    return null;
  }
  f.fromNumber = false;
  const sample: SampleRecord = {
    text,
    correct: P.correct ? correctOf(f, v.correct, line, what, out, index) : null,
    extractedAnswer: P.extractedAnswer ? toStr(v.extractedAnswer) : null,
    rewardScore: P.rewardScore ? toScore(v.rewardScore) : null,
    finishReason: P.finishReason ? toStr(v.finishReason) : null,
    tokenCount: P.tokenCount ? toNum(v.tokenCount) : null,
    ...(scorers.length ? { scores: scoresOf(f, getScore, line, what, out, noteFields) } : {}),
  };
  if (f.fromNumber) f.numberVerdicts?.add(sample);
  return sample;
}

/**
 * Parallel score lists of a per-problem record (no `samples`): per scorer its list, with a warning when
 * its length differs from `n` samples (`n` null: scores-only, any length).
 */
function scoreLists(f: MappedFile, o: unknown, line: number, what: string, out: ReadEvent[], n: number | null) {
  const { spec, src, stats, scorers, ctx } = f;
  const lists = new Map<FieldPath, readonly unknown[]>();
  for (const s of scorers) {
    const l = listOf(s.sc.path, o);
    stats.note(s.stat, listHit(l), out);
    const scorePath = spec.scores?.[s.sc.at]?.path;
    if (l.kind === 'not-list') {
      out.push(
        diag(
          ctx,
          line,
          `${what}${scorePath} is not a list (got ${typeName(l.value)}); no sample has a ${s.scorer} score`,
          'warning',
        ),
      );
    } else if (l.kind === 'list') {
      if (n !== null && l.list.length !== n) {
        out.push(
          diag(
            ctx,
            line,
            `${what}${src('text')} has ${plural(n, 'sample')} but ${scorePath} has ${l.list.length} ${s.scorer} scores; ${l.list.length < n ? `samples from ${l.list.length} on have no ${s.scorer} score` : `the last ${l.list.length - n} scores are ignored`}`,
            'warning',
          ),
        );
      }
      lists.set(s.sc.path, l.list);
    }
  }
  return lists;
}

/** Scores-only record: the scores of each sample, by sample index (per-sample records: the record's own index, or none). */
function attachedScores(f: MappedFile, o: unknown, line: number, what: string, out: ReadEvent[]) {
  const { spec, c, stats, ctx } = f;
  const found: (NamedScore & { sampleIndex?: number })[] = [];
  const push = (list: NamedScore[], sampleIndex: number | undefined) => {
    for (const x of list) found.push(sampleIndex === undefined ? x : { ...x, sampleIndex });
  };
  if (spec.records === 'per-sample') {
    const index = sampleIndexOf(f, o, line, what, out);
    push(
      scoresOf(f, (p) => first(p, o), line, what, out, true),
      index,
    );
  } else if (c.samples) {
    const l = listOf(c.samples, o);
    stats.note('samples', l.kind !== 'missing', out);
    if (l.kind !== 'list') {
      const d = diag(
        ctx,
        line,
        `${what}${spec.samples} is ${l.kind === 'missing' ? 'missing' : `not a list (got ${typeName(l.value)})`}; skipped`,
      );
      if (l.kind === 'missing') stats.gate('samples', d, out);
      else out.push(d);
      return null;
    }
    if (f.firstSampleElement === undefined && l.list.length > 0) f.firstSampleElement = l.list[0];
    l.list.forEach((el, i) => {
      push(
        scoresOf(f, (p) => first(p, el), line, `${what}${spec.samples}[${i}]: `, out, true),
        i,
      );
    });
  } else {
    const lists = scoreLists(f, o, line, what, out, null);
    const n = Math.max(0, ...[...lists.values()].map((l) => l.length));
    for (let i = 0; i < n; i++)
      push(
        scoresOf(f, (p) => lists.get(p)?.[i], line, `${what}sample ${i}: `, out, false),
        i,
      );
  }
  return found;
}

/** Samples of a per-problem record whose sample fields are parallel lists. */
function parallelSamples(
  f: MappedFile,
  o: unknown,
  line: number,
  what: string,
  out: ReadEvent[],
): SampleRecord[] | null {
  const { P, src, stats, scorers, ctx } = f;
  const lists: Partial<Record<SampleField, ListResult>> = {};
  for (const name of SAMPLE_FIELDS) {
    const p = P[name];
    if (!p) continue;
    lists[name] = listOf(p, o);
    stats.note(STAT_KEY[name], listHit(lists[name]), out);
  }
  const texts = lists.text!;
  if (texts.kind === 'missing') {
    stats.gate('fields.text', diag(ctx, line, `${what}${src('text')} is missing; skipped`), out);
    return null;
  }
  if (texts.kind === 'not-list') {
    out.push(diag(ctx, line, `${what}${src('text')} is not a list (got ${typeName(texts.value)}); skipped`));
    return null;
  }
  const nText = texts.list.length;
  let n = nText;
  for (const name of SAMPLE_FIELDS) {
    const l = lists[name];
    if (name === 'text' || !l) continue;
    if (l.kind === 'list' && l.list.length !== nText) {
      if (name === 'correct') {
        n = Math.min(n, l.list.length);
        out.push(
          diag(
            ctx,
            line,
            `${what}${src('text')} has ${plural(nText, 'sample')} but ${src(name)} has ${l.list.length}; keeping the first ${n}`,
            'warning',
          ),
        );
      } else {
        out.push(
          diag(
            ctx,
            line,
            `${what}${src('text')} has ${plural(nText, 'sample')} but ${src(name)} has ${l.list.length}; ${l.list.length < nText ? `samples from ${l.list.length} on have no ${name}` : `the last ${l.list.length - nText} values are ignored`}`,
            'warning',
          ),
        );
      }
    } else if (l.kind === 'not-list') {
      out.push(
        diag(
          ctx,
          line,
          `${what}${src(name)} is not a list (got ${typeName(l.value)}); ${name === 'correct' ? 'samples are ungraded' : `no sample has ${name}`}`,
          name === 'correct' ? 'error' : 'warning',
        ),
      );
    }
  }
  const at = (name: SampleField, i: number): unknown => {
    const l = lists[name];
    return l?.kind === 'list' ? l.list[i] : undefined;
  };
  const lists2 = scorers.length ? scoreLists(f, o, line, what, out, nText) : new Map<FieldPath, readonly unknown[]>();
  const samples: SampleRecord[] = [];
  for (let i = 0; i < n; i++) {
    const s = sampleOf(
      f,
      (name) => at(name, i),
      line,
      `${what}sample ${i}: `,
      out,
      false,
      (p) => lists2.get(p)?.[i],
      i,
    );
    if (s) {
      s.sampleIndex = i;
      samples.push(s);
    }
  }
  return samples;
}

/**
 * The samples of one record, by the mapping's layout: none (a problem list), scores only, one sample (a
 * per-sample record, with its own index when the mapping gives one), a list of sample objects, or
 * parallel lists. `ok` false: the record is skipped (said in `out`).
 */
function recordSamples(
  f: MappedFile,
  o: unknown,
  line: number,
  what: string,
  out: ReadEvent[],
): {
  samples: SampleRecord[];
  ok: boolean;
  indexless: boolean;
  attached: (NamedScore & { sampleIndex?: number })[] | null;
} {
  const { spec, c, P, stats, scoresOnly, infoOnly, ctx } = f;
  const samples: SampleRecord[] = [];
  let ok = true;
  let indexless = false;
  let attached: (NamedScore & { sampleIndex?: number })[] | null = null;
  if (infoOnly) {
    // facts about the problem only
  } else if (scoresOnly) {
    attached = attachedScores(f, o, line, what, out);
    if (!attached) ok = false;
  } else if (spec.records === 'per-sample') {
    const s = sampleOf(
      f,
      (name) => first(P[name]!, o),
      line,
      what,
      out,
      true,
      (p) => first(p, o),
    );
    if (!s) ok = false;
    else {
      const index = sampleIndexOf(f, o, line, what, out);
      if (index !== undefined) s.sampleIndex = index;
      else if (P.sampleIndex) indexless = true;
      samples.push(s);
    }
  } else if (c.samples) {
    const l = listOf(c.samples, o);
    stats.note('samples', l.kind !== 'missing', out);
    if (l.kind === 'missing') {
      stats.gate('samples', diag(ctx, line, `${what}${spec.samples} is missing; skipped`), out);
      ok = false;
    } else if (l.kind === 'not-list') {
      out.push(diag(ctx, line, `${what}${spec.samples} is not a list (got ${typeName(l.value)}); skipped`));
      ok = false;
    } else {
      if (f.firstSampleElement === undefined && l.list.length > 0) f.firstSampleElement = l.list[0];
      l.list.forEach((el, i) => {
        const s = sampleOf(
          f,
          (name) => first(P[name]!, el),
          line,
          `${what}${spec.samples}[${i}]: `,
          out,
          true,
          (p) => first(p, el),
          i,
        );
        if (s) {
          s.sampleIndex = i;
          samples.push(s);
        }
      });
    }
  } else {
    const ss = parallelSamples(f, o, line, what, out);
    if (ss) samples.push(...ss);
    else ok = false;
  }
  return { samples, ok, indexless, attached };
}

function recordOf(
  f: MappedFile,
  o: unknown,
  key: string | undefined,
  line: number,
  what: string,
  out: ReadEvent[],
  recordIndex?: number,
): ProblemRecord | null {
  const { spec, P, src, stats, defaultModel, folderDs, namedModelStep, scoresOnly, infoOnly, ctx } = f;
  f.recordsSeen++;
  if (f.recordsSeen === 1) f.firstRecord = o;
  const rv: Partial<Record<RecordField, unknown>> = {};
  for (const name of RECORD_FIELDS) {
    const p = P[name];
    if (!p) continue;
    rv[name] = first(p, o, key);
    stats.note(STAT_KEY[name], rv[name] !== undefined, out);
  }
  const { samples, ok, indexless, attached } = recordSamples(f, o, line, what, out);
  let problemId: string | null;
  if (P.problemId) {
    problemId = toStr(rv.problemId);
    if (problemId === null) {
      const d = diag(ctx, line, `${what}problem id ${src('problemId')} ${notAnId(rv.problemId)}; skipped`);
      if (rv.problemId === undefined) stats.gate('fields.problemId', d, out);
      else out.push(d);
      return null;
    }
  } else {
    // No problem id in the data: the problem is keyed by its text.
    problemId = typeof rv.question === 'string' && rv.question.trim() !== '' ? problemTextKey(rv.question) : null;
    if (problemId === null) {
      const d = diag(
        ctx,
        line,
        `${what}problem text ${src('question')} is missing or not a non-empty string (without fields.problemId, problems are keyed by their text); skipped`,
      );
      if (rv.question === undefined) stats.gate('fields.question', d, out);
      else out.push(d);
      return null;
    }
  }
  if (!ok) return null;
  const modelName = toStr(rv.model);
  const revision = toStr(rv.revision);
  // Scores for samples other files define name a model only when the mapping or the data does.
  const model: ModelRef = modelName
    ? { name: modelName, revision, source: 'data' }
    : scoresOnly && !spec.model
      ? { name: '', revision, source: 'path' }
      : { name: defaultModel, revision: revision ?? namedModelStep, source: spec.model ? 'data' : 'path' };
  f.samplesRead += samples.length;
  if (attached) f.scoresRead += attached.length;
  if (infoOnly) f.infosRead++;
  return {
    line,
    ...(recordIndex === undefined ? {} : { record: recordIndex }),
    model,
    dataset: toStr(rv.dataset) || spec.dataset || folderDs || 'default',
    problemId,
    question: P.question ? toStr(rv.question) : null,
    referenceAnswer: P.referenceAnswer ? toReference(rv.referenceAnswer) : null,
    level: P.level ? toLevel(rv.level) : null,
    ...(P.subject ? { subject: toStr(rv.subject) } : {}),
    ...(infoOnly ? { role: 'info' as const } : {}),
    ...(spec.records === 'per-sample' && !infoOnly && !scoresOnly ? { perSample: true } : {}),
    ...(indexless ? { indexless: true } : {}),
    ...(attached ? { role: 'scores' as const, scores: attached as (NamedScore & { sampleIndex: number })[] } : {}),
    samples,
  };
}

/** End of file: paths that matched nothing (on the mapping file), unreadable verdicts, every record failed. */
function* summary(f: MappedFile): Generator<ReadEvent> {
  yield* valueSummary(f);
  if (f.recordsSeen === 0) return;
  yield* pathSummary(f);
}

/** End of file: rules that matched no value, values that are not scores or verdicts, unusable sample indices. */
function* valueSummary(f: MappedFile): Generator<ReadEvent> {
  const { spec, c, src, notVerdicts, ruleTally, badScores, noScore, ctx, m, badIndex } = f;
  if (ruleTally.read > 0 && ruleTally.correct === 0) {
    // a rule that matches nothing is far more often a misspelt value ("passed" for "pass") than a
    // model that failed every sample: say what was seen instead of a silent 0%
    const rules = [
      spec.correctValues !== undefined ? `correctValues ${JSON.stringify(spec.correctValues)}` : '',
      c.correctPattern !== null ? `correctPattern /${spec.correctPattern}/` : '',
      spec.correctThreshold !== undefined ? `correctThreshold ${spec.correctThreshold}` : '',
    ].filter(Boolean);
    const seen = [...ruleTally.seen.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${clip(k, 40)} ${n}`)
      .join(', ');
    const more = ruleTally.seen.size >= 8 ? ', ...' : '';
    yield diag(
      ctx,
      0,
      `${rules.join(' or ')} matched none of the ${ruleTally.read} ${src('correct')} values in this file (seen: ${seen}${more}): every sample is graded incorrect; check the rule in ${m.mappingRelPath}`,
      'warning',
    );
  }
  for (const [scorer, b] of badScores)
    if (b.count > 1)
      yield diag(
        ctx,
        0,
        `${b.count} ${scorer} score values in this file are not scores (first at line ${b.firstLine}); those samples have no ${scorer} score`,
        'warning',
      );
  // at the first such sample's line, named (not the whole file: `file:0` named no record)
  for (const [scorer, { count: n, firstLine, what }] of noScore)
    yield diag(
      ctx,
      firstLine,
      `${n} sample${n === 1 ? ' has' : 's have'} no ${scorer} score in this file (null or missing; first at line ${firstLine}${what ? `, ${what}` : ''})`,
      'warning',
    );
  const bad = badIndex.missing + badIndex.negative + badIndex.other;
  if (bad > 0 && badIndex.first) {
    const f = badIndex.first;
    const why = [
      badIndex.negative ? `${badIndex.negative} negative` : '',
      badIndex.other ? `${badIndex.other} not an integer` : '',
      badIndex.missing ? `${badIndex.missing} missing` : '',
    ].filter(Boolean);
    const got = f.value === undefined ? 'missing' : clip(JSON.stringify(f.value) ?? String(f.value), 40);
    yield diag(
      ctx,
      f.line,
      `${plural(bad, 'record gives', 'records give')} no usable ${src('sampleIndex')} (a non-negative integer: ${why.join(', ')}; first at line ${f.line}${f.what ? `, ${f.what.replace(/:\s*$/, '')}` : ''}: ${got}): ${bad === 1 ? 'its sample is kept and numbered by the indexer with an index' : 'their samples are kept and numbered by the indexer with indices'} no record of the file gives (reported once per file)`,
      'warning',
    );
  }
  if (notVerdicts.count > 1) {
    yield diag(
      ctx,
      0,
      `${src('correct')}: ${notVerdicts.count} values in this file are not verdicts (first at line ${notVerdicts.firstLine}); those samples are ungraded`,
      'warning',
    );
  }
}

/**
 * End of file, when it had records: each mapping path that matched nothing in any record (on the mapping
 * file, at the path's line, with a hint from the first record), and `every record failed` when no record
 * gave a sample (or a score, or a problem).
 */
function* pathSummary(f: MappedFile): Generator<ReadEvent> {
  const { spec, c, P, stats, scoresOnly, infoOnly, scorers, ctx, m } = f;
  const unmatched: string[] = [];
  const check = (field: string, source: string, key: (string | number)[], p: FieldPath, where: unknown) => {
    if (stats.has(field)) return;
    const name = field.replace(/^fields\./, '') as FieldName | 'samples';
    const required = name === 'problemId' || name === 'text' || name === 'samples';
    const hint = where === undefined ? null : (dollarHint(source, where) ?? explainMiss(p, where));
    const whereName = where === f.firstSampleElement && where !== f.firstRecord ? 'first sample' : 'first record';
    unmatched.push(`${field} '${source}'`);
    const hintText =
      hint === null
        ? ''
        : hint.startsWith('the record ')
          ? ` (the ${whereName} ${hint.slice('the record '.length)})`
          : ` (in the ${whereName}, ${hint})`;
    return {
      kind: 'diagnostic' as const,
      diagnostic: {
        file: m.mappingRelPath,
        line: mappingLine(m, key),
        severity: required ? ('error' as const) : ('warning' as const),
        message: `${field} '${source}' matched nothing in ${f.recordsSeen} record${f.recordsSeen === 1 ? '' : 's'} of ${ctx.relPath}; ${CONSEQUENCE[name]}${hintText}`,
      },
    };
  };
  const out: (ReadEvent | undefined)[] = [];
  if (c.samples) out.push(check('samples', spec.samples!, ['samples'], c.samples, f.firstRecord));
  for (const name of [...RECORD_FIELDS, ...SAMPLE_FIELDS, 'sampleIndex'] as const) {
    const p = P[name];
    if (!p || p.kind === 'key') continue;
    const sampleLevel = name !== 'sampleIndex' && (SAMPLE_FIELDS as readonly string[]).includes(name);
    const where = sampleLevel && c.samples ? f.firstSampleElement : f.firstRecord;
    out.push(check(`fields.${name}`, spec.fields[name]!, ['fields', name], p, where));
  }
  for (const s of scorers) {
    if (stats.has(s.stat)) continue;
    const where = c.samples ? f.firstSampleElement : f.firstRecord;
    const hint = where === undefined ? null : explainMiss(s.sc.path, where);
    out.push({
      kind: 'diagnostic',
      diagnostic: {
        file: m.mappingRelPath,
        line: mappingLine(m, ['scores', s.sc.at, 'path']),
        severity: 'warning',
        message: `scores[${s.sc.at}].path '${spec.scores?.[s.sc.at]?.path}' matched nothing in ${f.recordsSeen} record${f.recordsSeen === 1 ? '' : 's'} of ${ctx.relPath}; no sample has a ${s.scorer} score${hint ? ` (in the first record, ${hint.replace(/^the record /, '')})` : ''}`,
      },
    });
  }
  for (const ev of out) if (ev) yield ev;
  if (f.samplesRead + f.scoresRead + f.infosRead === 0) {
    yield diag(
      ctx,
      0,
      `every record failed: none of the ${f.recordsSeen} record${f.recordsSeen === 1 ? '' : 's'} gave ${scoresOnly ? 'a score' : infoOnly ? 'a problem' : 'a sample'} through ${m.mappingRelPath}${unmatched.length ? ` (${unmatched.join(', ')} matched nothing: see the diagnostics of ${m.mappingRelPath})` : ''}`,
    );
  }
}

/**
 * Reads a file through the mapping that applies to it (see {@link resolveMapping}). `detect()` is
 * always false: whether a mapping applies depends on the folder, so `detectFormat` (index.ts) checks
 * mappings itself, before the built-in readers. Without an applicable mapping, `read` gives an error
 * `no mapping file applies to this file`, naming the invalid mapping files on the way, if any (their
 * own errors are diagnostics of the mapping files themselves).
 */
async function* read(ctx: ReaderContext): AsyncGenerator<ReadEvent> {
  const { mapping, errors } = await resolveMapping(ctx.absPath, ctx.root, ctx.options?.mappingFile);
  if (!mapping) {
    const invalid = [...new Set(errors.map((d) => d.file))];
    yield diag(
      ctx,
      0,
      `no ${MAPPING_FILE_NAME} applies to this file${invalid.length ? ` (invalid, so ignored: ${invalid.join(', ')})` : ''}`,
    );
    return;
  }
  yield* readWithMapping(ctx, mapping);
}

/** The mapping-file reader (format id `mapping`). */
export const mappingReader: Reader = { format: 'mapping', detect: () => false, read };
