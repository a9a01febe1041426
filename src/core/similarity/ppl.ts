/**
 * Perplexity of samples under the base model, read from the log-probability sidecar a results folder
 * may carry (`.trace-inspector/base-logprobs.jsonl`, format in docs/problem-view.md).
 *
 * PPL_base(Y) = exp(-(1/T) sum_t log p_base(y_t | x, y_<t)) (Yue et al. 2025, "Does Reinforcement
 * Learning Really Incentivize Reasoning Capacity in LLMs Beyond the Base Model?", arXiv:2504.13837,
 * sec. 4): the paper compares the distribution of PPL_base over RL samples with that over the base
 * model's own samples; low PPL_base for RL samples means they are likely under the base model. The
 * log-probabilities come from a forward pass of the base model that this tool does not run; the
 * sidecar is how a folder brings them.
 *
 * Layers: {@link parseLogprobSidecar} is a pure parser (text -> entries and diagnostics with file and
 * line); {@link readPplSidecar} resolves entries to indexed samples; {@link pplReport} summarises per
 * model and per comparison for the report. Every line is either a point or counted in `skipped` with a
 * diagnostic naming its line (the diagnostics list is capped, the count is not).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../model';
import type { ModelRow, TraceIndex } from '../index/traceIndex';
import { quantileSorted } from '../metrics/bootstrap';
import { readTextFileSync } from '../text/textFile';

/** Where the base-model log-probability sidecar is looked for, relative to the results folder. */
export const LOGPROB_SIDECAR = '.trace-inspector/base-logprobs.jsonl';

/** Diagnostics kept per read (the `skipped` count covers every bad line). */
export const PPL_DIAGNOSTICS_CAP = 50;

/** One well-formed sidecar line: the total log-probability of one sample's tokens under the base model. */
export interface LogprobEntry {
  /** 1-based line in the sidecar. */
  line: number;
  /** Dataset, or null when the line leaves it out (allowed when the folder has one dataset). */
  dataset: string | null;
  /** Problem id as a string (numbers are stringified from their source text). */
  problemId: string;
  /** Model display id (`run:name@revision`) or label, as written. */
  model: string;
  /** 0-based sample index within (model, problem). */
  sampleIndex: number;
  /** Sum of natural-log token probabilities (<= 0). */
  sumLogprob: number;
  /** Number of tokens T (>= 1). */
  tokens: number;
}

/**
 * PPL = exp(-sumLogprob / tokens).
 * @param sumLogprob sum of natural-log token probabilities (<= 0 for probabilities <= 1)
 * @param tokens number of tokens, >= 1
 * @throws RangeError when `tokens` < 1 or either input is not finite
 */
export function perplexity(sumLogprob: number, tokens: number): number {
  if (!Number.isFinite(sumLogprob) || !Number.isFinite(tokens) || tokens < 1)
    throw new RangeError(`perplexity needs a finite sum and tokens >= 1 (got ${sumLogprob}, ${tokens})`);
  return Math.exp(-sumLogprob / tokens);
}

/**
 * Parses the sidecar's text: one JSON object per line with `problemId` (string or integer), `model`,
 * `sampleIndex` (integer >= 0), optional `dataset`, and either `tokenLogprobs` (finite numbers <= 0) or
 * `sumLogprob` (finite, <= 0) with `tokens` (integer >= 1). Empty lines are ignored; a leading UTF-8 BOM is
 * stripped. Every other line becomes one diagnostic (warning) naming `file` and the line.
 */
export function parseLogprobSidecar(
  text: string,
  file: string = LOGPROB_SIDECAR,
): { entries: LogprobEntry[]; diagnostics: Diagnostic[] } {
  const entries: LogprobEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const bad = (line: number, why: string) => diagnostics.push({ file, line, message: why, severity: 'warning' });
  for (const [i, raw] of text.split('\n').entries()) {
    const line = i + 1;
    const src = raw.trim();
    if (!src) continue;
    let o: unknown;
    try {
      o = JSON.parse(src);
    } catch {
      bad(line, 'not valid JSON');
      continue;
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      bad(line, 'expected a JSON object');
      continue;
    }
    const r = o as Record<string, unknown>;
    const problemId =
      typeof r.problemId === 'string'
        ? r.problemId
        : Number.isSafeInteger(r.problemId)
          ? String(r.problemId)
          : undefined;
    if (problemId === undefined) {
      bad(line, 'problemId must be a string or an integer');
      continue;
    }
    if (typeof r.model !== 'string' || !r.model) {
      bad(line, 'model must be a non-empty string (display id or label)');
      continue;
    }
    if (!Number.isSafeInteger(r.sampleIndex) || (r.sampleIndex as number) < 0) {
      bad(line, 'sampleIndex must be an integer >= 0');
      continue;
    }
    if (r.dataset !== undefined && typeof r.dataset !== 'string') {
      bad(line, 'dataset must be a string when given');
      continue;
    }
    let sumLogprob: number;
    let tokens: number;
    if (Array.isArray(r.tokenLogprobs)) {
      if (!r.tokenLogprobs.every((x) => typeof x === 'number' && Number.isFinite(x) && x <= 0)) {
        bad(line, 'tokenLogprobs must be finite numbers <= 0');
        continue;
      }
      sumLogprob = (r.tokenLogprobs as number[]).reduce((a, x) => a + x, 0);
      tokens = r.tokenLogprobs.length;
    } else if (typeof r.sumLogprob === 'number' && Number.isSafeInteger(r.tokens)) {
      if (!Number.isFinite(r.sumLogprob) || r.sumLogprob > 0) {
        bad(line, 'sumLogprob must be a finite number <= 0');
        continue;
      }
      sumLogprob = r.sumLogprob;
      tokens = r.tokens as number;
    } else {
      bad(line, 'needs tokenLogprobs, or sumLogprob and tokens');
      continue;
    }
    if (tokens < 1) {
      bad(line, 'no tokens');
      continue;
    }
    entries.push({
      line,
      dataset: typeof r.dataset === 'string' ? r.dataset : null,
      problemId,
      model: r.model,
      sampleIndex: r.sampleIndex as number,
      sumLogprob,
      tokens,
    });
  }
  return { entries, diagnostics };
}

/** One sample with its perplexity under the base model. */
export interface PplPoint {
  modelId: number;
  problemId: number;
  sampleId: number;
  /** The sample's verdict (null when ungraded). */
  correct: boolean | null;
  ppl: number;
}

/** What {@link readPplSidecar} found. */
export interface PplRead {
  /** False when the folder has no sidecar (then everything else is empty). */
  available: boolean;
  /** Sidecar path relative to the folder, when available. */
  source: string | null;
  points: PplPoint[];
  /** Lines that are malformed or match no indexed sample (every one; `diagnostics` is capped). */
  skipped: number;
  /** The first {@link PPL_DIAGNOSTICS_CAP} reasons, each with file and line. */
  diagnostics: Diagnostic[];
}

/**
 * Reads `<root>/.trace-inspector/base-logprobs.jsonl` and resolves every line to an indexed sample:
 * `model` matches a model's display id or label, `(dataset, problemId)` a problem (`dataset` may be
 * left out when the index has one dataset), `sampleIndex` a sample of that model and problem.
 * With `onlyProblemId`, lines of other problems are ignored (neither points nor skipped).
 * @param root the results folder, or undefined (then nothing is available)
 */
export function readPplSidecar(root: string | undefined, index: TraceIndex, onlyProblemId?: number): PplRead {
  const none: PplRead = { available: false, source: null, points: [], skipped: 0, diagnostics: [] };
  if (!root) return none;
  const path = join(root, ...LOGPROB_SIDECAR.split('/'));
  if (!existsSync(path) || !statSync(path).isFile()) return none;
  const parsed = parseLogprobSidecar(readTextFileSync(path));
  const problems = index.db.prepare('SELECT id, dataset, problem_id AS problemId FROM problems').all() as {
    id: number;
    dataset: string;
    problemId: string;
  }[];
  const datasets = new Set(problems.map((p) => p.dataset));
  const onlyDataset = datasets.size === 1 ? [...datasets][0] : null;
  const problemIdOf = new Map(problems.map((p) => [`${p.dataset}\x1f${p.problemId}`, p.id]));
  const only = onlyProblemId !== undefined ? problems.find((p) => p.id === onlyProblemId) : undefined;
  const models = index.models();
  const modelOf = (name: string): ModelRow | undefined =>
    models.find((m) => m.displayId === name) ?? models.find((m) => m.label === name);
  const sampleOf = index.db.prepare(
    'SELECT id, correct FROM samples WHERE problem_id = ? AND model_id = ? AND sample_index = ?',
  );
  const out: PplRead = { available: true, source: LOGPROB_SIDECAR, points: [], skipped: 0, diagnostics: [] };
  // a malformed line of another problem is still malformed: it is reported with one problem's view too
  const skipped: Diagnostic[] = [...parsed.diagnostics];
  const bad = (d: Diagnostic) => skipped.push(d);
  const warn = (line: number, message: string): Diagnostic => ({
    file: LOGPROB_SIDECAR,
    line,
    message,
    severity: 'warning',
  });
  for (const e of parsed.entries) {
    const dataset = e.dataset ?? onlyDataset;
    if (only && (e.problemId !== only.problemId || (dataset !== null && dataset !== only.dataset))) continue;
    if (dataset === null) {
      bad(warn(e.line, `dataset is needed: the index has ${datasets.size} datasets`));
      continue;
    }
    const pid = problemIdOf.get(`${dataset}\x1f${e.problemId}`);
    if (pid === undefined) {
      bad(
        warn(
          e.line,
          `problem ${JSON.stringify(e.problemId)} of dataset ${JSON.stringify(dataset)} is not in the index`,
        ),
      );
      continue;
    }
    const m = modelOf(e.model);
    if (!m) {
      bad(warn(e.line, `model ${JSON.stringify(e.model)} is not in the index`));
      continue;
    }
    const s = sampleOf.get(pid, m.id, e.sampleIndex) as { id: number; correct: number | null } | undefined;
    if (!s) {
      bad(warn(e.line, `no sample ${e.sampleIndex} of ${m.label} for problem ${e.problemId}`));
      continue;
    }
    out.points.push({
      modelId: m.id,
      problemId: pid,
      sampleId: s.id,
      correct: s.correct === null ? null : s.correct === 1,
      ppl: perplexity(e.sumLogprob, e.tokens),
    });
  }
  out.skipped = skipped.length;
  out.diagnostics = skipped.sort((a, b) => a.line - b.line).slice(0, PPL_DIAGNOSTICS_CAP);
  return out;
}

/** Distribution of PPL_base over one model's samples. */
export interface PplSummary {
  model: string;
  /** Samples with a PPL value. */
  samples: number;
  /** Problems those samples belong to. */
  problems: number;
  /** Of which correct (verdict true). */
  correct: number;
  /** Quartiles (linear interpolation between order statistics, type 7) and mean; null without samples. */
  q1: number | null;
  median: number | null;
  q3: number | null;
  mean: number | null;
}

/** The report's PPL section: per model, and per compared (base, model) pair. */
export interface PplReport {
  source: string;
  models: PplSummary[];
  /**
   * model median / base median, over each side's own samples with a PPL value: below 1 means the
   * model's samples are more likely under the base model than the base model's own samples are.
   */
  comparisons: { base: string; model: string; medianRatio: number | null }[];
  skipped: number;
  diagnostics: Diagnostic[];
}

/**
 * Summarises {@link readPplSidecar}'s points per model (quartiles, mean) and compares each model with its
 * base by the ratio of medians.
 * @param pairs (base, model) pairs to compare, as the report compares them
 */
export function pplReport(
  read: PplRead,
  models: readonly ModelRow[],
  pairs: readonly [ModelRow, ModelRow][],
): PplReport {
  const byModel = new Map<number, PplPoint[]>();
  for (const p of read.points) {
    const list = byModel.get(p.modelId) ?? [];
    list.push(p);
    byModel.set(p.modelId, list);
  }
  const summaries = new Map<number, PplSummary>();
  for (const m of models) {
    const pts = byModel.get(m.id) ?? [];
    const v = Float64Array.from(pts.map((p) => p.ppl)).sort();
    const has = v.length > 0;
    summaries.set(m.id, {
      model: m.displayId,
      samples: v.length,
      problems: new Set(pts.map((p) => p.problemId)).size,
      correct: pts.filter((p) => p.correct === true).length,
      q1: has ? quantileSorted(v, 0.25) : null,
      median: has ? quantileSorted(v, 0.5) : null,
      q3: has ? quantileSorted(v, 0.75) : null,
      mean: has ? v.reduce((a, x) => a + x, 0) / v.length : null,
    });
  }
  const comparisons = pairs.map(([b, m]) => {
    const bm = summaries.get(b.id)?.median ?? null;
    const mm = summaries.get(m.id)?.median ?? null;
    return { base: b.displayId, model: m.displayId, medianRatio: bm !== null && mm !== null ? mm / bm : null };
  });
  return {
    source: read.source ?? LOGPROB_SIDECAR,
    models: [...summaries.values()].filter((s) => s.samples > 0),
    comparisons,
    skipped: read.skipped,
    diagnostics: read.diagnostics,
  };
}
