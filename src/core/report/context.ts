import type { DatasetCount } from '../grouping/datasets';
import { toolVerdicts } from '../analyses/graderAudit';
import { guessBaseModel, pickModel } from '../index/labels';
import type { ModelRow, StatRow, TraceIndex } from '../index/traceIndex';
import { nearSubstring } from '../readers/util';
import { type ModelSamples, type SampleScan, scanSamples } from '../index/sampleScan';
import type { Report, ReportOptions } from './types';

/**
 * Bootstrap replicates of the report's intervals, and of the overview's comparison figures (crossover
 * interval, lead at k = 1 within noise), so that the two show the same figures for the same data.
 */
export const REPORT_REPLICATES = 2000;

/**
 * What every section of the report computes from (src/core/report/sections): the index, the options, the
 * models and their per-problem statistics (under --tool-grading with the tool's verdicts added), the
 * bootstrap options, the base model and how it was chosen, and the report's warnings, which the sections
 * add to in their order. The comparisons section leaves its pairing here for the sections after it.
 */
export interface ReportContext {
  index: TraceIndex;
  options: ReportOptions;
  /** The tool's verdicts by model and problem (`--tool-grading`); undefined without it. */
  tool: ReturnType<typeof toolVerdicts> | undefined;
  /** Samples the tool graded, and of them correct (0 without --tool-grading). */
  toolGraded: number;
  toolCorrect: number;
  /** Every model of the index, its `correct` with the tool's correct verdicts added. */
  models: ModelRow[];
  /** Per (model, problem) statistics, `graded` and `c` with the tool's verdicts added. */
  stats: StatRow[];
  /** `stats` by model row id. */
  byModel: Map<number, StatRow[]>;
  boot: { replicates: number; seed: number };
  base: ModelRow | undefined;
  baseSource: Report['baseSource'];
  /** Set by the datasets section: every dataset of the folder with its problem count. */
  datasets?: DatasetCount[];
  /** The report's warnings, in the order the sections add them. */
  warnings: string[];
  /**
   * Every sample's verdict, reward score and answer, read once (../sampleScan.ts) for the grader audit,
   * best-of-k and its warnings, maj@k and the reward-model section.
   */
  scan: SampleScan;
  /** One model's part of {@link scan}. */
  samplesOf: (m: ModelRow) => ModelSamples;
  /**
   * Set by the comparisons section: the (base, model) pairs to compare (replicates of a base pooled into
   * it), and those actually compared (a graded problem in common), whose reasoning paths `paths` adds.
   */
  pairing?: {
    pairsToCompare: [ModelRow, ModelRow][];
    pathPairs: [ModelRow, ModelRow][];
  };
}

/**
 * The context of a report ({@link ReportContext}): the tool's verdicts added under --tool-grading, the
 * base model chosen by `options.base` or guessed from names (none for a folder of seeds of one model).
 * @throws Error when `options.base` matches no model ({@link noModelMatches}) or several.
 */
export function reportContext(index: TraceIndex, options: ReportOptions): ReportContext {
  const tool = options.toolGrading ? toolVerdicts(index) : undefined;
  let toolGraded = 0;
  let toolCorrect = 0;
  const models = index.models().map((m) => {
    const t = tool?.get(m.id);
    if (!t) return m;
    let c = 0;
    for (const v of t.values()) {
      toolGraded += v.graded;
      toolCorrect += v.correct;
      c += v.correct;
    }
    return { ...m, correct: m.correct + c };
  });
  const stats = index.allStats().map((r) => {
    const t = tool?.get(r.modelId)?.get(r.problemId);
    return t ? { ...r, graded: r.graded + t.graded, c: r.c + t.correct } : r;
  });
  const byModel = new Map<number, StatRow[]>();
  for (const s of stats) {
    const list = byModel.get(s.modelId) ?? [];
    list.push(s);
    byModel.set(s.modelId, list);
  }
  const boot = { replicates: options.replicates ?? REPORT_REPLICATES, seed: options.seed ?? 12345 };
  const warnings: string[] = [];

  let baseIdx = -1;
  let baseSource: Report['baseSource'] = 'none';
  if (options.base) {
    baseIdx = pickModel(models, options.base);
    if (baseIdx < 0) throw new Error(noModelMatches('--base', options.base, models));
    baseSource = 'option';
  } else if (models.length > 0) {
    baseIdx = guessBaseModel(models);
    // -1: the folder holds only seeds of one model, never each other's base (trial 6 finding 2)
    baseSource = baseIdx >= 0 ? 'guess' : 'none';
  }
  const base = baseIdx >= 0 ? models[baseIdx] : undefined;
  const scan = scanSamples(
    index,
    models.map((m) => m.id),
  );
  const samplesOf = (m: ModelRow) => scan.get(m.id) as ModelSamples;
  return {
    index,
    options,
    tool,
    toolGraded,
    toolCorrect,
    models,
    stats,
    byModel,
    boot,
    base,
    baseSource,
    warnings,
    scan,
    samplesOf,
  };
}

/**
 * The error text for a model filter (`--base`, `--model`: a case-insensitive substring of a model's id
 * or label) that matches no model: the models, and "did you mean" the models whose id or label holds a
 * near miss of the text ({@link nearSubstring}: edit distance at most a third of its length; the nearest
 * ones only).
 */
export function noModelMatches(option: string, text: string, models: readonly ModelRow[]): string {
  const dist = models.map((m) => nearSubstring(text, `${m.displayId}\n${m.label}`));
  const best = Math.min(...dist.map((d) => d ?? Number.POSITIVE_INFINITY));
  const near = models.filter((_, i) => dist[i] === best);
  const list = models.map((m) => m.displayId).join(', ');
  return `no model matches ${option} "${text}"${near.length ? ` (did you mean ${near.map((m) => `"${m.displayId}"`).join(' or ')}?)` : ''}; models: ${list || 'none'}`;
}
