/**
 * Splits of a folder's problems (issue 35): by the dataset's difficulty level, by a field of the records
 * (subject, dataset), by content cluster of the problem text (textClusters.ts), or by a user file listing
 * problem ids per split. Every problem is in at most one split; problems in none are counted and named.
 * Pure: reads the index, never the file system (a split file's text is given by the caller).
 */

import { PROBLEM_LEVEL_SQL, PROBLEM_SUBJECT_SQL, type TraceIndex } from '../index/traceIndex';
import { datasetName, problemLabel } from '../grouping/datasets';
import { type ClusterOptions, clusterTexts } from './textClusters';

/** How the problems are split. */
export type SplitKind =
  | { kind: 'level' }
  | { kind: 'subject' }
  | { kind: 'dataset' }
  | ({ kind: 'cluster' } & Pick<ClusterOptions, 'k' | 'seed' | 'restarts'>)
  /** `text`: the split file's contents; `file`: its name for messages. */
  | { kind: 'file'; file: string; text: string };

/** One problem as the splits see it. */
export interface SplitProblem {
  id: number;
  key: string;
  dataset: string;
  problemId: string;
  question: string | null;
  level: string | null;
  subject: string | null;
  /** The problem's name in messages and lists (its id, with the dataset when ids repeat across datasets). */
  name: string;
}

/** One split: its name (what a model can be trained on), label, problems and, for clusters, what it is about. */
export interface Split {
  /** `3` (a level), `Algebra`, `2` (cluster 2), `test`. */
  name: string;
  /** `level 3`, `subject Algebra`, `cluster 2: apples, pies, ...`, `test`. */
  label: string;
  /** Problem row ids (index order). */
  problems: number[];
  /** Clusters: top terms of the cluster's centroid. */
  terms?: string[];
  /** Clusters: three problems nearest the centroid (names and texts, texts cut at 200 characters). */
  examples?: { problem: string; text: string }[];
}

/** The splits of a folder's problems. */
export interface SplitDefinition {
  kind: SplitKind['kind'];
  /** How the splits were made, in words (stated in every output). */
  method: string;
  splits: Split[];
  /** Problems in no split, with why (no level, no subject, no text, not listed in the file). */
  unassigned: { problems: number[]; why: string };
  /** Problems of the index, by row id. */
  problems: Map<number, SplitProblem>;
  /** Notes: ids of a split file that name no problem, and the like. */
  warnings: string[];
}

const QUESTION_SQL = `coalesce(p.question, (SELECT i.question FROM problem_info i JOIN files fi ON fi.id = i.file_id
  WHERE i.problem_key = p.key AND i.question IS NOT NULL ORDER BY fi.path, i.line LIMIT 1))`;

/** Every problem of the index with its level, subject and text, in one query (index order: row id). */
export function splitProblems(index: TraceIndex): Map<number, SplitProblem> {
  const rows = index.db
    .prepare(
      `SELECT p.id, p.key, p.dataset, p.problem_id AS problemId, ${QUESTION_SQL} AS question,
              ${PROBLEM_LEVEL_SQL} AS level, ${PROBLEM_SUBJECT_SQL} AS subject FROM problems p ORDER BY p.id`,
    )
    .all() as Omit<SplitProblem, 'name'>[];
  const datasetsOf = new Map<string, Set<string>>();
  for (const r of rows) {
    const s = datasetsOf.get(r.problemId) ?? new Set<string>();
    s.add(r.dataset);
    datasetsOf.set(r.problemId, s);
  }
  const repeat = [...datasetsOf.values()].some((s) => s.size > 1);
  return new Map(rows.map((r) => [r.id, { ...r, name: problemLabel(r, repeat) }]));
}

const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Splits by a value of each problem (level, subject, dataset), in natural order of the values. */
function byValue(
  problems: Map<number, SplitProblem>,
  value: (p: SplitProblem) => string | null,
  label: (v: string) => string,
): { splits: Split[]; unassigned: number[] } {
  const groups = new Map<string, number[]>();
  const unassigned: number[] = [];
  for (const p of problems.values()) {
    const v = value(p);
    if (v === null || v === '') {
      unassigned.push(p.id);
      continue;
    }
    const g = groups.get(v) ?? [];
    g.push(p.id);
    groups.set(v, g);
  }
  const names = [...groups.keys()].sort((a, b) => NATURAL.compare(a, b));
  return { splits: names.map((n) => ({ name: n, label: label(n), problems: groups.get(n) as number[] })), unassigned };
}

/**
 * Reads a split file: a JSON object `{"train": ["0", "1"], "test": ["2"]}` (ids as strings or numbers), or
 * lines `problem_id,split` (comma or tab; a first line `problem_id,split` is a header). An id is a problem
 * id, or `dataset/problem id` where ids repeat across datasets.
 * @returns the split of each listed id, in file order of the splits.
 * @throws Error naming the file and line on a malformed line, an id listed in two splits, or JSON that is
 *   not an object of lists.
 */
export function parseSplitFile(file: string, text: string): { order: string[]; splitOf: Map<string, string> } {
  const order: string[] = [];
  const splitOf = new Map<string, string>();
  const add = (id: string, split: string, where: string) => {
    const had = splitOf.get(id);
    if (had !== undefined && had !== split)
      throw new Error(`${file}${where}: problem ${id} is listed in two splits ("${had}" and "${split}")`);
    splitOf.set(id, split);
    if (!order.includes(split)) order.push(split);
  };
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (e) {
      throw new Error(`${file}: not valid JSON: ${(e as Error).message}`);
    }
    for (const [split, ids] of Object.entries(parsed as Record<string, unknown>)) {
      if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string' && typeof x !== 'number'))
        throw new Error(`${file}: split "${split}" must be a list of problem ids (strings or numbers)`);
      for (const id of ids) add(String(id), split, '');
    }
    return { order, splitOf };
  }
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const cells = line.split(/[,\t]/).map((c) => c.trim());
    if (i === 0 && cells[0].toLowerCase() === 'problem_id') return;
    if (cells.length !== 2 || cells[0] === '' || cells[1] === '')
      throw new Error(`${file}:${i + 1}: expected "problem_id,split", got "${line.slice(0, 80)}"`);
    add(cells[0], cells[1], `:${i + 1}`);
  });
  return { order, splitOf };
}

/** Splits from a split file (see {@link parseSplitFile}). */
function fromFile(
  problems: Map<number, SplitProblem>,
  file: string,
  text: string,
): { splits: Split[]; unassigned: number[]; warnings: string[] } {
  const { order, splitOf } = parseSplitFile(file, text);
  const groups = new Map<string, number[]>(order.map((s) => [s, []]));
  const unassigned: number[] = [];
  const used = new Set<string>();
  for (const p of problems.values()) {
    const full = `${p.dataset}/${p.problemId}`;
    const id = splitOf.has(full) ? full : splitOf.has(p.problemId) ? p.problemId : undefined;
    if (id === undefined) unassigned.push(p.id);
    else {
      used.add(id);
      (groups.get(splitOf.get(id) as string) as number[]).push(p.id);
    }
  }
  const unknown = [...splitOf.keys()].filter((id) => !used.has(id));
  const warnings = unknown.length
    ? [
        `${file}: ${unknown.length} listed id${unknown.length === 1 ? '' : 's'} name${unknown.length === 1 ? 's' : ''} no problem of the folder (${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', ...' : ''}): left out`,
      ]
    : [];
  return {
    splits: order.map((s) => ({ name: s, label: s, problems: groups.get(s) as number[] })),
    unassigned,
    warnings,
  };
}

/**
 * The splits of the index's problems by `kind` (see {@link SplitKind}); every problem of the index is in one
 * split or in `unassigned`, each list in natural order of the problem names (not of the files). Clusters are computed over the problems that have a text (numbered by size).
 * @throws Error as {@link parseSplitFile}; RangeError on invalid cluster options.
 */
export function defineSplits(index: TraceIndex, kind: SplitKind): SplitDefinition {
  const def = splitsOfKind(splitProblems(index), kind);
  // problems by name, then key: the same lists whatever order the files were read in (row ids follow it)
  const order = (a: number, b: number) => {
    const pa = def.problems.get(a) as SplitProblem;
    const pb = def.problems.get(b) as SplitProblem;
    return NATURAL.compare(pa.name, pb.name) || (pa.key < pb.key ? -1 : pa.key > pb.key ? 1 : 0);
  };
  for (const s of def.splits) s.problems.sort(order);
  def.unassigned.problems.sort(order);
  return def;
}

function splitsOfKind(problems: Map<number, SplitProblem>, kind: SplitKind): SplitDefinition {
  switch (kind.kind) {
    case 'level': {
      const r = byValue(
        problems,
        (p) => p.level,
        (v) => `level ${v}`,
      );
      return {
        kind: 'level',
        method: "the dataset's own difficulty levels (the records' or a problem list's level field)",
        ...r,
        unassigned: { problems: r.unassigned, why: 'no level' },
        problems,
        warnings: [],
      };
    }
    case 'subject':
    case 'dataset': {
      const r = byValue(
        problems,
        (p) => (kind.kind === 'subject' ? p.subject : datasetName(p.dataset)),
        (v) => `${kind.kind} ${v}`,
      );
      return {
        kind: kind.kind,
        method: `the records' ${kind.kind} field`,
        ...r,
        unassigned: { problems: r.unassigned, why: `no ${kind.kind}` },
        problems,
        warnings: [],
      };
    }
    case 'file': {
      const r = fromFile(problems, kind.file, kind.text);
      return {
        kind: 'file',
        method: `problem ids per split listed in ${kind.file}`,
        splits: r.splits,
        unassigned: { problems: r.unassigned, why: `not listed in ${kind.file}` },
        problems,
        warnings: r.warnings,
      };
    }
    case 'cluster': {
      const withText = [...problems.values()].filter((p) => p.question !== null && p.question.trim() !== '');
      const byKey = new Map(withText.map((p) => [p.key, p]));
      const c = clusterTexts(
        withText.map((p) => ({ key: p.key, text: p.question as string })),
        { k: kind.k, seed: kind.seed, restarts: kind.restarts },
      );
      const noText = [...problems.values()].filter((p) => !byKey.has(p.key)).map((p) => p.id);
      const noTerms = c.noTerms.map((k) => (byKey.get(k) as SplitProblem).id);
      const splits = c.clusters.map((cl) => ({
        name: String(cl.id),
        label: `cluster ${cl.id}: ${cl.terms.join(', ')}`,
        problems: cl.members.map((k) => (byKey.get(k) as SplitProblem).id),
        terms: cl.terms,
        examples: cl.examples.map((k) => {
          const p = byKey.get(k) as SplitProblem;
          const t = (p.question as string).replace(/\s+/g, ' ').trim();
          return { problem: p.name, text: t.length > 200 ? `${t.slice(0, 199)}…` : t };
        }),
      }));
      const why = [
        noText.length ? `${noText.length} without a problem text` : '',
        noTerms.length
          ? `${noTerms.length} with no word kept (numbers, LaTeX commands, stop words and words of one problem only are left out)`
          : '',
      ].filter((s) => s !== '');
      return {
        kind: 'cluster',
        method: c.k === 0 ? noClustersMethod(problems.size, withText.length) : c.method,
        splits,
        unassigned: { problems: [...noText, ...noTerms], why: why.join('; ') || 'none' },
        problems,
        warnings: clusterCountWarnings(kind.k, c.k, splits.length, withText.length - noTerms.length),
      };
    }
  }
}

/** The method line when no cluster could be formed: no problem has a text, or no text has a word kept. */
function noClustersMethod(problems: number, withText: number): string {
  return withText === 0
    ? `no clusters could be formed: none of the ${problems} problems has a problem text to cluster`
    : `no clusters could be formed: none of the ${withText} problem texts has a word kept (numbers, LaTeX commands, stop words and words of one problem only are left out)`;
}

/**
 * Warnings when the clusters are fewer than `--clusters` asked for: k lowered to the problems with words
 * (`used` < `requested`), or k-means left some clusters empty (`formed` < `used`). None without a request.
 */
function clusterCountWarnings(
  requested: number | undefined,
  used: number,
  formed: number,
  withWords: number,
): string[] {
  if (requested === undefined || formed >= requested) return [];
  if (used < requested)
    return [
      `--clusters ${requested}: only ${withWords} problems have words to cluster, so k = ${used}${formed < used ? ` (${formed} clusters not empty)` : ''}`,
    ];
  return [
    `--clusters ${requested}: k-means left ${requested - formed} of the ${requested} clusters empty, so ${formed} clusters are reported`,
  ];
}
