/**
 * Paths of a mapping file (`trace-inspector.mapping.json`): JSONPath as standardised by RFC 9535
 * (https://www.rfc-editor.org/rfc/rfc9535), evaluated by the json-p3 library (which passes the JSONPath
 * Compliance Test Suite), plus the older dotted paths, which are read as a subset of it.
 *
 * Three spellings are accepted:
 * - JSONPath, starting with `$` (the record itself): `$.meta.id`, `$.infos[*].r`, `$['pass@1']`,
 *   `$[0]`, `$.ys[-1]`, `$.runs[?@.ok == true].text`;
 * - a dotted path (the syntax of earlier versions, unchanged in meaning): `meta.id`, `outputs.0`,
 *   `history.-1.content`; segment `s` becomes the child selector `['s']`, and a numeric segment `n`
 *   becomes `[n,'n']` (index `n` of a list, or the member named `n` of an object, as before);
 * - `@key` (record-level fields only): the name under which the record is stored in its parent
 *   object, for records selected from a keyed object (`"recordsPath": "$.*"` on `{"HumanEval/0": ...}`).
 *
 * Pure; no `vscode` import.
 */
import { jsonpath, type JSONPathQuery, type JSONValue } from 'json-p3';
import { isObject, typeName } from './util';

/** The pseudo-path naming the key of a record in a keyed object (see the module comment). */
export const KEY_PATH = '@key';

/** A compiled mapping path. */
export interface FieldPath {
  /** As written in the mapping file. */
  source: string;
  /** How it was written. */
  kind: 'jsonpath' | 'dotted' | 'key';
  /** The JSONPath it stands for (`@key` for the key pseudo-path). */
  jsonPath: string;
  /**
   * Whether it selects at most one value: an RFC 9535 singular query (name and index selectors only)
   * or any dotted path. A non-singular path selects a list of values (a node list).
   */
  singular: boolean;
  /** The compiled query; null for `@key`. */
  query: JSONPathQuery | null;
  /** For a singular path: its steps, evaluated directly ({@link walk}); null otherwise. */
  steps: Step[] | null;
  /**
   * For paths of the form `P[*]S` with P and S singular (`$.infos[*].r`): P selects a list and S is
   * read from each of its elements, so that an element without S keeps its position (as a missing
   * value) instead of shifting the later ones.
   */
  pluck: { list: Step[]; each: Step[] } | null;
}

/**
 * One step of a singular path: the member `name` of an object and/or the element `index` of a list
 * (negative from the end). An RFC 9535 name or index selector gives one of them; a numeric dotted
 * segment (`[0,'0']`) both.
 */
export interface Step {
  name?: string;
  index?: number;
}

/** The steps of segments made only of name and index selectors (child segments); null otherwise. */
function stepsOf(segs: readonly Segment[]): Step[] | null {
  const steps: Step[] = [];
  for (const seg of segs) {
    if (isDescendant(seg)) return null;
    const st: Step = {};
    for (const sel of seg.selectors) {
      if (sel instanceof jsonpath.selectors.NameSelector && st.name === undefined) st.name = sel.name;
      else if (sel instanceof jsonpath.selectors.IndexSelector && st.index === undefined) st.index = sel.index;
      else return null;
    }
    steps.push(st);
  }
  return steps;
}

/**
 * Evaluates singular steps on a JSON value, as RFC 9535 name and index selectors do (a name selects an
 * own member of an object, an index an element of a list, negative from the end; anything else selects
 * nothing), without building the library's node objects: the hot path of reading records. Equal to the
 * library's result (property-tested in test/unit/readers.mapping.test.ts).
 */
export function walk(steps: readonly Step[], v: unknown): unknown {
  let cur = v;
  for (const st of steps) {
    if (Array.isArray(cur)) {
      if (st.index === undefined) return undefined;
      const i = st.index < 0 ? cur.length + st.index : st.index;
      if (i < 0 || i >= cur.length) return undefined;
      cur = cur[i];
    } else if (isObject(cur)) {
      if (st.name === undefined || !Object.hasOwn(cur, st.name)) return undefined;
      cur = cur[st.name];
    } else {
      return undefined;
    }
  }
  return cur;
}

/** A member name as an RFC 9535 string literal: `'a b'`. */
function nameLiteral(name: string): string {
  const escaped = name
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/[\u0000-\u001f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `'${escaped}'`;
}

/** Quotes a member name as an RFC 9535 name selector: `['a b']`. */
function nameSelector(name: string): string {
  return `[${nameLiteral(name)}]`;
}

/**
 * The JSONPath a dotted path stands for: `a.b.0.c` -> `$['a']['b'][0,'0']['c']`, `h.-1` ->
 * `$['h'][-1,'-1']` (a numeric segment indexes a list, or names an object member, as dotted paths always did).
 */
export function dottedToJsonPath(dotted: string): string {
  return `$${dotted
    .split('.')
    .map((seg) =>
      /^-?\d+$/.test(seg) && Number.isSafeInteger(Number(seg))
        ? `[${Number(seg)},${nameLiteral(seg)}]`
        : nameSelector(seg),
    )
    .join('')}`;
}

type Segment = JSONPathQuery['segments'][number];

function isDescendant(s: Segment): boolean {
  return s.toString().startsWith('..');
}

function isSingularSegment(s: Segment): boolean {
  if (isDescendant(s) || s.selectors.length !== 1) return false;
  const sel = s.selectors[0];
  return sel instanceof jsonpath.selectors.NameSelector || sel instanceof jsonpath.selectors.IndexSelector;
}

function isWildcardSegment(s: Segment): boolean {
  return !isDescendant(s) && s.selectors.length === 1 && s.selectors[0] instanceof jsonpath.selectors.WildcardSelector;
}

/**
 * Compiles a mapping path (see the module comment). Throws an `Error` whose message says what is
 * wrong (the library's syntax message for JSONPath, with the offending position).
 */
export function compilePath(source: string): FieldPath {
  if (source === KEY_PATH) {
    return { source, kind: 'key', jsonPath: KEY_PATH, singular: true, query: null, steps: null, pluck: null };
  }
  const kind = source.startsWith('$') ? 'jsonpath' : 'dotted';
  if (kind === 'dotted' && (source === '' || source.startsWith('.') || source.endsWith('.'))) {
    throw new Error('must be a JSONPath starting with "$" or a dotted path (no leading or trailing ".")');
  }
  const jp = kind === 'jsonpath' ? source : dottedToJsonPath(source);
  let query: JSONPathQuery;
  try {
    query = jsonpath.compile(jp);
  } catch (err) {
    throw new Error(`not a JSONPath (RFC 9535): ${err instanceof Error ? err.message : String(err)}`);
  }
  const singular = kind === 'dotted' || query.singularQuery();
  const steps = singular ? stepsOf(query.segments) : null;
  let pluck: FieldPath['pluck'] = null;
  if (!singular) {
    const segs = query.segments;
    const star = segs.findIndex((s) => !isSingularSegment(s));
    if (star >= 0 && isWildcardSegment(segs[star]) && segs.slice(star + 1).every(isSingularSegment)) {
      pluck = { list: stepsOf(segs.slice(0, star))!, each: stepsOf(segs.slice(star + 1))! };
    }
  }
  return { source, kind, jsonPath: jp, singular, query, steps, pluck };
}

/**
 * The value a path selects in `v`: for a singular path its one value, for a non-singular one the
 * first value it matches; `undefined` when it matches nothing. `@key` gives `key` (undefined when the
 * record has none).
 */
export function first(p: FieldPath, v: unknown, key?: string): unknown {
  if (p.kind === 'key') return key;
  if (p.steps) return walk(p.steps, v);
  const node = p.query!.match(v as JSONValue);
  return node === undefined ? undefined : node.value;
}

/** What {@link listOf} found. */
export type ListResult =
  | { kind: 'list'; list: unknown[] }
  /** the path matched nothing */
  | { kind: 'missing' }
  /** a singular path (or the list part of a `P[*]S` path) selected something that is not a list */
  | { kind: 'not-list'; value: unknown };

/**
 * A path read as a list of per-sample values (parallel lists of a per-problem record):
 * - a singular path must select a list (`outputs`, `$.code_list`): that list;
 * - `P[*]S` (`$.infos[*].r`): S of every element of the list P, in order; an element without S gives
 *   `undefined` at its position;
 * - any other non-singular path (a filter, a slice, `..`): the values it matches, in document order.
 */
export function listOf(p: FieldPath, v: unknown): ListResult {
  if (p.singular) {
    const x = first(p, v);
    if (x === undefined) return { kind: 'missing' };
    return Array.isArray(x) ? { kind: 'list', list: x } : { kind: 'not-list', value: x };
  }
  if (p.pluck) {
    const l = walk(p.pluck.list, v);
    if (l === undefined) return { kind: 'missing' };
    if (!Array.isArray(l)) return { kind: 'not-list', value: l };
    const each = p.pluck.each;
    return { kind: 'list', list: each.length > 0 ? l.map((e) => walk(each, e)) : l };
  }
  const values = p.query!.query(v as JSONValue).values();
  return values.length === 0 ? { kind: 'missing' } : { kind: 'list', list: values };
}

/**
 * The records a path selects in a document, each with its key (the name of the nearest object member
 * on its location: `HumanEval/0` for `$.*` on `{"HumanEval/0": ...}`; undefined for elements of a
 * top-level list). A singular path must select a list (its elements are the records); a non-singular
 * path's matches are the records.
 */
export function recordsAt(
  p: FieldPath,
  doc: unknown,
): { records: { value: unknown; key: string | undefined }[] } | { missing: true } | { notList: unknown } {
  if (p.singular) {
    const x = first(p, doc);
    if (x === undefined) return { missing: true };
    if (!Array.isArray(x)) return { notList: x };
    return { records: x.map((value) => ({ value, key: undefined })) };
  }
  const nodes = p.query!.query(doc as JSONValue).nodes;
  if (nodes.length === 0) return { missing: true };
  return {
    records: nodes.map((n) => {
      let key: string | undefined;
      for (let i = n.location.length - 1; i >= 0 && key === undefined; i--) {
        const part = n.location[i];
        if (typeof part === 'string') key = part;
      }
      return { value: n.value, key };
    }),
  };
}

/** Short description of a JSON value for hints: `a list of 100 objects`, `an object with keys r, ...`. */
export function describeValue(v: unknown): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return 'an empty list';
    const types = [...new Set(v.slice(0, 50).map(typeName))];
    return `a list of ${v.length} ${types.length === 1 ? `${types[0]}${v.length === 1 ? '' : 's'}` : 'values'}`;
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return 'an empty object';
    const shown = keys.slice(0, 8).map((k) => JSON.stringify(k));
    return `an object with keys ${shown.join(', ')}${keys.length > 8 ? `, ... (${keys.length} keys)` : ''}`;
  }
  return `${typeName(v) === 'object' ? 'an' : 'a'} ${typeName(v)}`;
}

/**
 * Why a path matched nothing in `v`, for a hint: the longest leading part of the path that does match,
 * what it holds, and when that is a list and the next step names a member, the JSONPath that takes the
 * member from every element: `'infos' is a list of 100 objects: to take "r" from each element write
 * "$['infos'][*]['r']"`. Null when nothing can be said (no leading part matches and `v` is a record).
 */
export function explainMiss(p: FieldPath, v: unknown): string | null {
  if (!p.query) return null;
  const segs = p.query.segments;
  for (let k = segs.length - 1; k >= 0; k--) {
    const prefix = new jsonpath.JSONPathQuery(p.query.environment, segs.slice(0, k));
    const node = prefix.match(v as JSONValue);
    if (node === undefined) continue;
    const where = k === 0 ? 'the record' : prefix.toString();
    const held = node.value;
    const next = segs[k].selectors[0];
    if (Array.isArray(held) && next instanceof jsonpath.selectors.NameSelector && isObject(held[0])) {
      const rest = segs.slice(k + 1).map((s) => s.toString());
      const fix = jsonpath.compile(`${prefix.toString()}[*]${nameSelector(next.name)}${rest.join('')}`).toString();
      return `${where} is ${describeValue(held)}: to take ${JSON.stringify(next.name)} from each element write "${fix}"`;
    }
    return `${where} is ${describeValue(held)}`;
  }
  return null;
}
