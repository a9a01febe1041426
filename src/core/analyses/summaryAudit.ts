import { parse } from 'csv-parse/sync';
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { categorize, datasetPassAtK } from '../metrics';
import type { TraceIndex, ModelRow } from '../index/traceIndex';
import type { Diagnostic } from '../model';
import { listCandidateFiles } from '../readers';
import { parseJsonTolerant, readTextFileSync } from '../text/textFile';

/** One disagreement between a figure a results folder stores and the figure recomputed from its samples. */
export interface AuditEntry {
  /** Summary file, relative to the results folder. */
  file: string;
  /** Name of the figure in that file (`sft_pass_at_k`, `c_rl[qid=3]`, `acc`). */
  metric: string;
  stored: number;
  recomputed: number;
  /** What was recomputed for this figure: the key of its rule in {@link AUDIT_RULE_TEXT}. */
  rule: AuditRule;
}

/** The kinds of figure the audit recomputes, each with its own rule ({@link AUDIT_RULE_TEXT}). */
export type AuditRule = 'sampleAccuracy' | 'passAtK' | 'categories' | 'perQuestion' | 'qwenAcc';

const TOLERANCE = 1e-6;

/**
 * Compares the summaries a results folder carries with figures recomputed from its raw samples by the
 * report's rules ({@link AUDIT_RULE_TEXT}), and returns each disagreement. Understood summaries:
 * - `summary.json` with a `metrics` object using `<alias>_sample_accuracy`, `<alias>_pass_at_k`
 *   (at `metrics.k`) and `sharpening_questions` / `observed_expansion_questions` /
 *   `regression_questions` / `unchanged_questions` (rlvr_behavior_probe). Aliases map to models of
 *   the same run folder through `run_config.json`'s `<alias>_model`, else by name substring.
 *   Its `unchanged` counts problems neither model solves as unchanged, so we compare it with our
 *   `unchanged + unsolved`.
 * - `per_question.csv` with `qid` and `c_<alias>` columns: per-problem correct counts (rows of problems
 *   the model has no indexed samples for, e.g. a malformed line, are not compared).
 * - `<stem>_*metrics.json` beside `<stem>.jsonl` (Qwen2.5-Math evaluation): `acc` = 100 x the mean
 *   over problems of the first sample's correctness (the file's own first sample of each problem: a seed
 *   shard's samples are numbered after those of the shard read before it), rounded to 0.1 (their `evaluate.py`), so the
 *   tolerance there is 0.05.
 * Files that cannot be read or parsed are skipped (they are not results files); {@link auditFolderChecked}
 * says which files were checked and which were not.
 */
export async function auditFolder(index: TraceIndex, root: string): Promise<AuditEntry[]> {
  return (await auditFolderChecked(index, root)).entries;
}

/** What {@link auditFolderChecked} did: the disagreements, and every summary file checked or not. */
export interface AuditResult {
  /** The figures that disagree ({@link auditFolder}). */
  entries: AuditEntry[];
  /** Summary files with at least one figure compared, and how many figures each (agreeing or not). */
  checked: { file: string; figures: number }[];
  /** Summary files with no figure the audit could compare, each with why (the keys or columns it found). */
  notChecked: { file: string; reason: string }[];
}

/**
 * {@link auditFolder} with what was checked (trial 12 finding 5): so that "checked and agrees" and "not
 * checked" never look the same. A summary file (`summary.json`, `per_question.csv`, `*_metrics.json`) with no
 * figure compared is in `notChecked` with its reason: `no figure the audit knows (keys: sft_sample_accuracy,
 * rl_sample_accuracy)`, or the figures it knows that name no model of its run or no samples file. Files in
 * path order.
 */
export async function auditFolderChecked(index: TraceIndex, root: string): Promise<AuditResult> {
  const result: AuditResult = { entries: [], checked: [], notChecked: [] };
  const files = await listCandidateFiles(root, { include: ['summary.json', 'per_question.csv', '*_metrics.json'] });
  const models = index.models();
  for (const rel of files) {
    const base = posix.basename(rel);
    const run = posix.dirname(rel) === '.' ? '' : posix.dirname(rel);
    const out: AuditOut = { entries: result.entries, compared: 0, why: '' };
    try {
      if (base === 'summary.json') auditSummary(index, root, rel, run, models, out);
      else if (base === 'per_question.csv') auditPerQuestion(index, root, rel, run, models, out);
      else if (/_metrics\.json$/.test(base)) auditQwenMetrics(index, root, rel, run, out);
      else continue;
    } catch (err) {
      out.why ||= `could not be read or parsed (${clipText((err as Error).message ?? String(err), 80)})`;
    }
    if (out.compared > 0) result.checked.push({ file: rel, figures: out.compared });
    else result.notChecked.push({ file: rel, reason: out.why || 'no figure the audit knows' });
  }
  return result;
}

/** Where the audit of one file writes: the disagreements, how many figures it compared, why none (when none). */
interface AuditOut {
  entries: AuditEntry[];
  compared: number;
  why: string;
}

/** `s` cut to `max` characters with `...`. */
function clipText(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

/** Up to 8 keys or columns as `a, b, c, ... (12 keys)`. */
function keyList(keys: readonly string[], what = 'keys'): string {
  const shown = keys.slice(0, 8).map((k) => clipText(k, 40));
  return `${what}: ${shown.join(', ') || 'none'}${keys.length > 8 ? `, ... (${keys.length} ${what})` : ''}`;
}

/**
 * The info diagnostics of the summary files the audit did not check (`notChecked` of {@link auditFolderChecked}),
 * one per file at line 0: `summary file not audited: no figure the audit knows (keys: accuracy, num_samples); it
 * checks summary.json metrics.<alias>_sample_accuracy / _pass_at_k / *_questions, per_question.csv c_<alias>
 * columns, *_metrics.json acc`.
 */
export function notAuditedDiagnostics(notChecked: AuditResult['notChecked']): Diagnostic[] {
  return notChecked.map((x) => ({
    file: x.file,
    line: 0,
    severity: 'info' as const,
    message: `summary file not audited: ${x.reason}; the audit checks summary.json "metrics": {"<alias>_sample_accuracy", "<alias>_pass_at_k", "*_questions"}, per_question.csv qid + c_<alias> columns, *_metrics.json "acc"`,
  }));
}

/** A summary's JSON (BOM stripped, Python's NaN / Infinity read as null). */
function readJson(root: string, rel: string): unknown {
  return parseJsonTolerant(readTextFileSync(join(root, ...rel.split('/')))).value;
}

/** Resolves a summary's alias (`sft`, `rl`) to a model of the same run. */
function aliasModel(root: string, run: string, alias: string, models: ModelRow[]): ModelRow | undefined {
  const inRun = models.filter((m) => m.run === run);
  const cfgPath = join(root, ...(run ? run.split('/') : []), 'run_config.json');
  if (existsSync(cfgPath)) {
    try {
      const cfg = parseJsonTolerant(readTextFileSync(cfgPath)).value as Record<string, unknown>;
      const name = cfg[`${alias}_model`];
      if (typeof name === 'string') {
        const hit = inRun.find((m) => m.name === name);
        if (hit) return hit;
      }
    } catch {
      // fall through to name matching
    }
  }
  const hits = inRun.filter((m) => m.name.toLowerCase().includes(alias.toLowerCase()));
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * What the audit recomputes for each kind of figure, in the words the report prints: the report's own
 * rules (src/core/metrics/denominators.ts) where the folder's figure has the report's meaning, so that a figure
 * it flags disagrees with the folder, not with a second definition (trial 3 finding 3: ungraded samples
 * were left in n, 4/12 against the report's 4/10, and a problem without samples was a regression); the
 * folder's own definition where it has another one (Qwen2.5-Math's `acc` is the accuracy of each
 * problem's first sample: trial 5 finding 10, the line said "correct / graded samples").
 */
export const AUDIT_RULE_TEXT: Record<AuditRule, string> = {
  sampleAccuracy:
    '<alias>_sample_accuracy = correct / graded samples of the model (samples without a verdict are in no figure)',
  passAtK:
    '<alias>_pass_at_k = mean of unbiased pass@k (k = metrics.k) over the problems with a graded sample and n >= k, n = graded samples',
  categories:
    '*_questions = categories over the problems both models have graded samples for (a problem without samples is not a regression; unchanged_questions = unchanged + unsolved)',
  perQuestion: 'c_<alias>[qid] = correct samples of that problem (problems without indexed samples not compared)',
  qwenAcc:
    "acc = 100 x accuracy of sample 0 of each problem (a seed shard: its own file's first sample), rounded to 0.1 (Qwen2.5-Math evaluate.py; a sample 0 without a verdict counts as incorrect)",
};

/**
 * The rule line of a list of audit entries: the rule of each kind of figure in it, in the order of
 * {@link AUDIT_RULE_TEXT} (`recomputed: acc = 100 x accuracy of sample 0 of each problem ...`); empty
 * string for no entries.
 */
export function auditRules(entries: readonly AuditEntry[]): string {
  const kinds = new Set(entries.map((e) => e.rule));
  const texts = (Object.keys(AUDIT_RULE_TEXT) as AuditRule[])
    .filter((k) => kinds.has(k))
    .map((k) => AUDIT_RULE_TEXT[k]);
  return texts.length ? `recomputed: ${texts.join('; ')}` : '';
}

/** Per-problem counts by the report's rules ({@link AUDIT_RULE_TEXT}): n = graded samples; problems without one are left out. */
function countsOf(index: TraceIndex, model: ModelRow): Map<number, { n: number; c: number }> {
  return new Map(
    index
      .modelStats(model.id)
      .filter((s) => s.graded > 0)
      .map((s) => [s.problemId, { n: s.graded, c: s.c }]),
  );
}

function push(
  out: AuditOut,
  file: string,
  metric: string,
  stored: number,
  recomputed: number,
  rule: AuditRule,
  tol = TOLERANCE,
): void {
  out.compared++;
  if (!(Math.abs(stored - recomputed) <= tol)) out.entries.push({ file, metric, stored, recomputed, rule });
}

function auditSummary(
  index: TraceIndex,
  root: string,
  rel: string,
  run: string,
  models: ModelRow[],
  out: AuditOut,
): void {
  const doc = readJson(root, rel) as { metrics?: Record<string, unknown> };
  const m = doc?.metrics;
  out.why = `no figure the audit knows (${keyList(doc && typeof doc === 'object' ? Object.keys(doc) : [])}; no "metrics" object)`;
  if (!m || typeof m !== 'object') return;
  out.why = `no figure the audit knows in "metrics" (${keyList(Object.keys(m))})`;
  const k = typeof m.k === 'number' ? m.k : undefined;
  const aliases = new Set<string>();
  for (const [key, value] of Object.entries(m)) {
    if (typeof value !== 'number') continue;
    const acc = /^([a-z0-9]+)_sample_accuracy$/i.exec(key);
    const pak = /^([a-z0-9]+)_pass_at_k$/i.exec(key);
    const alias = acc?.[1] ?? pak?.[1];
    if (!alias) continue;
    aliases.add(alias);
    const model = aliasModel(root, run, alias, models);
    if (!model) {
      out.why = `its figures name no model of its folder (alias "${alias}")`;
      continue;
    }
    if (acc) {
      const graded = [...countsOf(index, model).values()].reduce((a, p) => a + p.n, 0);
      if (graded > 0) push(out, rel, key, value, model.correct / graded, 'sampleAccuracy');
    }
    if (pak && k !== undefined) {
      const v = datasetPassAtK([...countsOf(index, model).values()], k).value;
      if (v !== null) push(out, rel, key, value, v, 'passAtK');
    }
  }
  // Category counts between the first two aliases (`sft` -> base, `rl` -> model).
  const [baseAlias, modelAlias] = ['sft', 'rl'].every((a) => aliases.has(a)) ? ['sft', 'rl'] : [...aliases];
  if (!baseAlias || !modelAlias) return;
  const bm = aliasModel(root, run, baseAlias, models);
  const mm = aliasModel(root, run, modelAlias, models);
  if (!bm || !mm) return;
  const bc = countsOf(index, bm);
  const mc = countsOf(index, mm);
  const counts = { sharpening: 0, expansion: 0, regression: 0, unchanged: 0, unsolved: 0 };
  for (const [pid, b] of bc) {
    const x = mc.get(pid);
    if (x) counts[categorize(b, x)]++;
  }
  const stored: [string, number][] = [
    ['sharpening_questions', counts.sharpening],
    ['observed_expansion_questions', counts.expansion],
    ['regression_questions', counts.regression],
    ['unchanged_questions', counts.unchanged + counts.unsolved],
  ];
  for (const [key, recomputed] of stored)
    if (typeof m[key] === 'number') push(out, rel, key, m[key] as number, recomputed, 'categories');
}

function auditPerQuestion(
  index: TraceIndex,
  root: string,
  rel: string,
  run: string,
  models: ModelRow[],
  out: AuditOut,
): void {
  const text = readTextFileSync(join(root, ...rel.split('/')));
  const rows = parseCsv(text);
  out.why = `no figure the audit knows (${keyList(rows[0] ?? [], 'columns')}${rows.length < 2 ? '; no rows' : ''})`;
  if (rows.length < 2) return;
  const header = rows[0];
  const qidCol = header.indexOf('qid');
  if (qidCol < 0) return;
  const problemsByKey = new Map<string, number>();
  for (const p of index.listProblems({ kind: 'all' }, 0, 10000)) problemsByKey.set(p.problemId, p.id);
  header.forEach((col, j) => {
    const alias = /^c_([a-z0-9]+)$/i.exec(col)?.[1];
    if (!alias) return;
    const model = aliasModel(root, run, alias, models);
    if (!model) return;
    const counts = countsOf(index, model);
    for (const row of rows.slice(1)) {
      const qid = row[qidCol];
      const stored = Number(row[j]);
      const pid = problemsByKey.get(qid);
      // A problem this model has no indexed samples for (a bad or missing line) is not "0 correct": skip it.
      const recomputed = pid === undefined ? undefined : counts.get(pid)?.c;
      if (recomputed === undefined || !Number.isFinite(stored)) continue;
      push(out, rel, `${col}[qid=${qid}]`, stored, recomputed, 'perQuestion');
    }
  });
}

function auditQwenMetrics(index: TraceIndex, root: string, rel: string, run: string, out: AuditOut): void {
  const doc = readJson(root, rel) as Record<string, unknown>;
  out.why = `no figure the audit knows (${keyList(doc && typeof doc === 'object' ? Object.keys(doc) : [])}; it checks "acc")`;
  if (!doc || typeof doc !== 'object' || typeof doc.acc !== 'number') return;
  out.why = 'no samples file of its name beside it (acc is checked against <stem>.jsonl)';
  const stem = posix.basename(rel).replace(/_metrics\.json$/, '');
  // The samples file whose stem starts the metrics file's name, in the same folder.
  const file = index.db
    .prepare(`SELECT id, path FROM files WHERE path LIKE ? ESCAPE '\\' ORDER BY length(path) DESC`)
    .all(`${(run ? `${run}/` : '').replace(/[\\%_]/g, (c) => `\\${c}`)}%.jsonl`) as { id: number; path: string }[];
  const match = file.find((f) => stem.startsWith(posix.basename(f.path).replace(/\.jsonl$/, '')));
  if (!match) return;
  // each problem's first sample *of this file*: a seed shard merged after another file has its samples
  // numbered after those (4..7, not 0..3), so `sample_index = 0` found none of them (trial 7 finding 7)
  const firsts = index.db
    .prepare(
      `SELECT s.correct FROM samples s
       WHERE s.file_id = ? AND s.sample_index =
         (SELECT MIN(t.sample_index) FROM samples t WHERE t.file_id = s.file_id AND t.problem_id = s.problem_id)`,
    )
    .pluck()
    .all(match.id) as (number | null)[];
  if (firsts.length === 0) return;
  const acc = Math.round((1000 * firsts.reduce<number>((a, c) => a + (c === 1 ? 1 : 0), 0)) / firsts.length) / 10;
  push(out, rel, 'acc', doc.acc, acc, 'qwenAcc', 0.05 + 1e-9);
}

/** Parses CSV text into rows of fields (csv-parse: RFC 4180 quoting, CRLF or LF, BOM, ragged rows). */
export function parseCsv(text: string): string[][] {
  return parse(text, {
    bom: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
  }) as string[][];
}

/**
 * The audit as warnings on the summary files themselves (for an editor's Problems panel): each entry
 * at the line of its figure: the line holding `"metric":` in a JSON summary, the row of `qid=N` in a
 * CSV (`c_rl[qid=13]` -> the line whose first field is 13), else line 1.
 */
export function auditDiagnostics(root: string, entries: readonly AuditEntry[]): Diagnostic[] {
  const lines = new Map<string, string[]>();
  const linesOf = (file: string) => {
    let l = lines.get(file);
    if (!l) {
      try {
        l = readTextFileSync(join(root, ...file.split('/'))).split(/\r?\n/);
      } catch {
        l = [];
      }
      lines.set(file, l);
    }
    return l;
  };
  const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(4));
  return entries.map((a) => {
    const text = linesOf(a.file);
    const qid = /\[qid=([^\]]+)\]$/.exec(a.metric)?.[1];
    const index =
      qid !== undefined
        ? text.findIndex((l, i) => i > 0 && l.split(',')[0] === qid)
        : text.findIndex((l) => l.includes(`"${a.metric}"`));
    return {
      file: a.file,
      line: index >= 0 ? index + 1 : 1,
      severity: 'warning' as const,
      message: `${a.metric}: this file says ${fmt(a.stored)}, the raw samples give ${fmt(a.recomputed)} (${AUDIT_RULE_TEXT[a.rule]})`,
    };
  });
}
