import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { readSampleTexts } from '../../src/core/index/sampleText';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { Report } from '../../src/core/report/index';
import { runCli } from './reliability.support';

/** The shared real results folders (read-only; never copied into the repository). Tests run from the repository root. */
export const REAL = resolve(process.cwd(), '../shared/data/real');

/** A fresh temporary folder. */
export function tempDir(prefix = 'ti-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A results folder in a fresh temporary folder: each file's text by its `/`-separated relative path. */
export function writeFolder(files: Record<string, string>, prefix = 'ti-folder-'): string {
  const dir = tempDir(prefix);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** Per-problem correct counts recomputed straight from a rollout JSONL file (independent of our readers). */
export function rawRolloutCounts(file: string): Map<string, { n: number; c: number }> {
  const out = new Map<string, { n: number; c: number }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line) as { qid: number; rollouts: { correct: boolean }[] };
    out.set(String(rec.qid), { n: rec.rollouts.length, c: rec.rollouts.filter((r) => r.correct).length });
  }
  return out;
}

/** All k-subsets of 0..n-1, in lexicographic order (the exact maj@k and best-of-k tests enumerate them). */
export function* subsets(n: number, k: number, start = 0, acc: number[] = []): Generator<number[]> {
  if (acc.length === k) {
    yield [...acc];
    return;
  }
  for (let i = start; i <= n - (k - acc.length); i++) {
    acc.push(i);
    yield* subsets(n, k, i + 1, acc);
    acc.pop();
  }
}

/**
 * Writes a small per-problem rollouts JSONL file (the `rollouts` reader's format) for hand-made runs:
 * one line per `[qid, verdicts]`, one rollout per verdict, the rollout's text given by `text(i)`
 * (default `x` repeated i + 1 times). Creates the folder.
 */
export function writeRollouts(
  file: string,
  model: { name: string; revision: string },
  rows: [number, boolean[]][],
  text: (i: number) => string = (i) => 'x'.repeat(i + 1),
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    rows
      .map(([qid, verdicts]) =>
        JSON.stringify({
          qid,
          question: `q${qid}`,
          gold: '1',
          model_name: model.name,
          model_revision: model.revision,
          rollouts: verdicts.map((v, i) => ({ rollout: i, text: text(i), correct: v })),
        }),
      )
      .join('\n'),
  );
}

/**
 * One line of a rollouts JSONL file (the rlvr-probe format: `qid, question, gold, model_name, model_revision,
 * rollouts[{rollout, correct, text, pred_token}]`): problem `qid`, one rollout per verdict of `correct`, the
 * rollout's text given by `text(qid, i, model, correct)` (default `solution <qid>.<i>`), its answer the qid when correct.
 */
export function rolloutLine(
  qid: number,
  model: string,
  correct: boolean[],
  text: (qid: number, i: number, model: string, correct: boolean) => string = (q, i) => `solution ${q}.${i}`,
): string {
  return JSON.stringify({
    qid,
    question: `question ${qid}`,
    gold: String(qid),
    model_name: model,
    model_revision: 'main',
    rollouts: correct.map((c, i) => ({
      rollout: i,
      correct: c,
      text: text(qid, i, model, c),
      pred_token: c ? String(qid) : 'x',
    })),
  });
}

/**
 * The text of every sample of an index by sample id, read as the product reads it: from the results
 * files (sampleText.ts `readSampleTexts`, hash checked), one (problem, model) at a time.
 */
export async function textsById(index: TraceIndex): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const pairs = index.db
    .prepare('SELECT problem_id AS p, model_id AS m FROM samples GROUP BY problem_id, model_id')
    .all() as { p: number; m: number }[];
  for (const { p, m } of pairs) for (const s of await readSampleTexts(index, p, m)) out.set(s.id, s.text);
  return out;
}

/**
 * Flat lines (`task_id`, `completion`, `passed`) from a spec such as `'TF FF'`: one word per problem, one letter
 * per sample (`T` passed, `F` failed); the task id is `<prefix><t>` (`HumanEval/0` with prefix `HumanEval/`, or the
 * bare number `"0"` as in MATH-500, GSM8K and AIME files with the default `''`). Completions differ between samples.
 */
export function flatLines(spec: string, prefix = ''): string {
  return spec
    .split(' ')
    .flatMap((word, t) =>
      [...word].map((v, i) =>
        JSON.stringify({ task_id: `${prefix}${t}`, completion: `    return ${t}${i}`, passed: v === 'T' }),
      ),
    )
    .join('\n');
}

/**
 * HumanEval `*_results.jsonl` lines (the flat reader's format) from a spec such as `'TF FF'`: one word per
 * problem `HumanEval/t` (t counted from `first`), one letter per sample in order: `T` passed, `F` failed
 * (`passed` and `result` fields), `U` neither field (a sample without a verdict: ungraded). The
 * completion `    return <t><i>` differs between samples.
 */
export function humanEval(spec: string, first = 0): string {
  const line = (t: number, i: number, v: string) =>
    JSON.stringify({
      task_id: `HumanEval/${t}`,
      completion: `    return ${t}${i}`,
      ...(v === 'U' ? {} : { passed: v === 'T', result: v === 'T' ? 'passed' : 'failed' }),
    });
  return spec
    .split(' ')
    .flatMap((word, t) => [...word].map((v, i) => line(first + t, i, v)))
    .join('\n');
}

/**
 * `report` of the compiled CLI on `dir` (`-q`, 100 bootstrap replicates, a fresh index in a temporary
 * folder, `extra` arguments after these): the `--format json` report, and the text table of the same index
 * (`text`; `''` with `{ text: false }`, which runs the CLI once). Fails the test on a non-zero exit.
 */
export function cli(dir: string, extra: string[] = [], opts: { text?: boolean } = {}): { r: Report; text: string } {
  const tmp = tempDir('ti-cli-');
  const args = ['report', dir, '--db', join(tmp, 'i.db'), '-q', '--replicates', '100', ...extra];
  const json = runCli([...args, '--format', 'json'], tmp);
  assert.equal(json.status, 0, json.stderr);
  if (opts.text === false) return { r: JSON.parse(json.stdout) as Report, text: '' };
  const text = runCli(args, tmp);
  assert.equal(text.status, 0, text.stderr);
  return { r: JSON.parse(json.stdout) as Report, text: text.stdout };
}

/** The JSON report of {@link cli} alone (the CLI run once). */
export const cliReport = (dir: string, extra: string[] = []): Report => cli(dir, extra, { text: false }).r;

/** `dir` indexed into a fresh in-memory index (full-text search off); the caller closes it. */
export async function indexed(dir: string): Promise<TraceIndex> {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir, { fts: false });
  return index;
}

/**
 * Qwen2.5-Math `math_eval` lines from a spec such as `'TF FF'`: one word per problem, idx t (level t + 1,
 * reference `1`), one letter per sample: `T` predicts `1` and is scored correct, `F` predicts `2`, incorrect.
 */
export function qwen(spec: string): string {
  return spec
    .split(' ')
    .map((word, t) =>
      JSON.stringify({
        idx: t,
        gt: '1',
        level: t + 1,
        code: [...word].map((_v, i) => `answer ${t}.${i}`),
        pred: [...word].map((v) => (v === 'T' ? '1' : '2')),
        score: [...word].map((v) => v === 'T'),
      }),
    )
    .join('\n');
}

/**
 * Trial 7's folder of two datasets whose problem ids never meet, for `writeFolder`: Qwen2.5-7B and
 * Qwen2.5-7B-GRPO, each with `humaneval/` (problems HumanEval/0-1) and `mbpp/` (HumanEval/10-12) HumanEval
 * results. With `--base Qwen2.5-7B/mbpp` the two humaneval models have no graded problem in common with the base.
 */
export function humanevalMbppFiles(): Record<string, string> {
  return {
    'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF FF'),
    'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
    'Qwen2.5-7B/mbpp/samples.jsonl_results.jsonl': humanEval('TF FF TT', 10),
    'Qwen2.5-7B-GRPO/mbpp/samples.jsonl_results.jsonl': humanEval('TT TF TT', 10),
  };
}

/** The CSV rows of one metric (column 3), cells split at commas (for CSVs whose cells hold none). */
export const csvRows = (csv: string, metric: string): string[][] =>
  csv
    .split('\n')
    .map((l) => l.split(','))
    .filter((c) => c[2] === metric);

/**
 * The JSON shape a docs page documents in its first code block after `heading` (a line of the page, e.g.
 * "## `index`"), written as keys only: `{"a", "b": [{"c"}], "d": {"e"}}`. Returns it as JSON with `null` for each
 * bare key, so a test can compare its keys with a command's real output ({@link assertDocumentedShape}).
 */
export function documentedShape(page: string, heading: string): unknown {
  const md = readFileSync(resolve(process.cwd(), page), 'utf8');
  const at = md.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `${page} has the heading ${heading}`);
  const block = /\n```[a-z]*\n([\s\S]*?)\n```/.exec(md.slice(at));
  assert.ok(block, `${page} documents a shape under ${heading}`);
  return JSON.parse(block[1].replace(/"(\w+)"(?!\s*:)/g, '"$1": null'));
}

/**
 * Asserts that `actual` has the keys, in order, that the documented shape lists at every level (objects by
 * key; a documented list by its first element against the real list's first element, when the list has one).
 */
export function assertDocumentedShape(actual: unknown, documented: unknown, at = '$'): void {
  if (documented === null) return;
  if (Array.isArray(documented)) {
    assert.ok(Array.isArray(actual), `${at} is a list`);
    if (documented.length && actual.length) assertDocumentedShape(actual[0], documented[0], `${at}[0]`);
    return;
  }
  assert.ok(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${at} is an object`);
  const doc = documented as Record<string, unknown>;
  const real = actual as Record<string, unknown>;
  assert.deepEqual(Object.keys(real), Object.keys(doc), `the keys of ${at} are the documented ones`);
  for (const k of Object.keys(doc)) assertDocumentedShape(real[k], doc[k], `${at}.${k}`);
}
