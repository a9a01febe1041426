/**
 * What RL changes in how models reason (issue 36): per model, and per checkpoint of a training series, the mean
 * length of the samples and their reasoning-marker counts per 1,000 tokens, with bootstrap intervals over
 * problems, split by correct and incorrect samples; and, for each measure, its association with correctness
 * *within* a problem.
 *
 * Measures (from the index: text/markers.ts made them while indexing, no text is read here):
 * - `chars`: the sample's length in Unicode code points;
 * - `tokens`: its length in tokens by the analysis' {@link TokenRule}: the results' own token counts
 *   (`token_count`) when every measured sample has one, else the pieces of text/markers.ts `PIECE_RULE`;
 * - one measure per behaviour of the index's lexicon: marker count x 1000 / tokens (a sample of 0 tokens has
 *   no rate and is left out of those measures, counted in `noTokens`).
 *
 * Means: each problem's mean over its samples (of the split), then the mean over problems, so that a problem
 * with more samples does not weigh more; 95% percentile bootstrap over problems (metrics/bootstrap.ts
 * `bootstrapMeanCI`: seeded, 2000 replicates by default; Efron & Tibshirani 1993).
 *
 * Within-problem association with correctness: for each problem with at least one correct and one incorrect
 * graded sample, d = (mean of its correct samples) - (mean of its incorrect samples); the estimate is the mean
 * of d over those problems, each problem a stratum of equal weight (a stratified comparison: Cochran 1954,
 * Mantel & Haenszel 1959 hold the stratum fixed the same way), with a percentile bootstrap interval over those
 * problems. An interval holding 0 is reported as "no relation" (with no such problem "not computable", with fewer
 * than MIN_WITHIN_PROBLEMS "too few problems"). Comparing correct with incorrect samples
 * across problems instead (`across`) mixes problem difficulty in: a hard problem has both longer answers and
 * fewer correct ones, which reads as "longer answers are wrong" though within each problem length may not
 * matter (Simpson's paradox).
 *
 * Cost: one ordered read of the samples (O(samples), memory O(problems x measures)), then the bootstraps
 * (O(replicates x problems) per interval).
 */
import { readSampleText } from '../index/sampleText';
import { type ModelRow, type TraceIndex, modelDisplayId } from '../index/traceIndex';
import { type BootstrapOptions, bootstrapMeanCI, type MeanCI } from '../metrics/bootstrap';
import { DEFAULT_LEXICON, MARKERS_LEXICON_KEY, MarkerCounter, type MarkerLexicon, PIECE_RULE } from '../text/markers';
import type { MarkerFigures } from '../../shared/protocol';
import { checkpointSeries } from './trajectories';

/** How "tokens" are counted in a figure. */
export interface TokenRule {
  /** `results`: the results files' own token counts; `pieces`: text/markers.ts PIECE_RULE. */
  kind: 'results' | 'pieces';
  /** One line for a figure's caption. */
  description: string;
}

/** A measure of the analysis: `chars`, `tokens` or a behaviour's id. */
export interface MeasureDef {
  id: string;
  label: string;
  /** `characters`, `tokens` or `per 1,000 tokens`. */
  unit: string;
}

/** A mean over problems with its bootstrap interval and the number of problems in it. */
export type ProblemMean = MeanCI & { problems: number };

/** The within-problem difference correct - incorrect of one measure. */
export interface WithinProblem extends ProblemMean {
  /**
   * By the interval: "no relation" when it holds 0; "not computable" when no problem has both a correct and an
   * incorrect sample; "too few problems" when fewer than {@link MIN_WITHIN_PROBLEMS} have (the interval of a
   * handful of differences is little more than their range, so no verdict is drawn from it).
   */
  relation: 'higher when correct' | 'lower when correct' | 'no relation' | 'not computable' | 'too few problems';
}

/** One measure of one model. */
export interface MeasureStats {
  measure: string;
  /** Every measured sample (graded or not). */
  all: ProblemMean;
  correct: ProblemMean;
  incorrect: ProblemMean;
  /**
   * The naive comparison: mean over every correct sample minus mean over every incorrect sample, pooled across
   * problems (difficulty mixed in; see the module comment); null without both kinds of sample.
   */
  across: number | null;
  within: WithinProblem;
}

/** The measures of one model. */
export interface ModelMarkers {
  /** Display id and label of the model. */
  model: string;
  label: string;
  /** Its checkpoint series and step, when it is a step of one. */
  series: string | null;
  step: number | null;
  samples: number;
  /** Samples without stored measures (indexed before them: the next indexing pass reads their files again). */
  unmeasured: number;
  /** Measured samples with 0 tokens (no marker rate). */
  noTokens: number;
  measures: MeasureStats[];
}

/** The whole analysis. */
export interface MarkersAnalysis {
  tokenRule: TokenRule;
  /** The lexicon the counts were made with (the index's). */
  lexicon: MarkerLexicon;
  measures: MeasureDef[];
  models: ModelMarkers[];
  /** The checkpoint series: name and its models' display ids in step order. */
  series: { name: string; unit: string; models: string[] }[];
  warnings: string[];
  /** A few markers of each behaviour in context (report --markers: {@link markerExamples}), to judge the lexicon by. */
  examples?: MarkerExample[];
}

/** One marker in its sample, with some text on each side (model output: untrusted text). */
export interface MarkerExample {
  behaviour: string;
  /** The lexicon's phrase that matched. */
  phrase: string;
  /** Display id of the model, the problem's id, the sample's index. */
  model: string;
  problem: string;
  sampleIndex: number;
  /** Up to {@link EXAMPLE_CONTEXT} characters before and after the marker (NFKC, white space made single spaces). */
  before: string;
  marker: string;
  after: string;
}

/** Characters of context on each side of an example's marker. */
export const EXAMPLE_CONTEXT = 50;

/**
 * Up to `perBehaviour` examples of each behaviour of the index's lexicon, from samples of different problems
 * (the first such samples in index order), their texts read from the results files. A sample whose file changed
 * since it was indexed is skipped. Cost: one read of the samples' stored counts (it stops once every behaviour
 * has its examples) and one text read per example.
 */
export async function markerExamples(index: TraceIndex, perBehaviour = 3): Promise<MarkerExample[]> {
  const lexicon = indexLexicon(index);
  const counter = new MarkerCounter(lexicon);
  const nb = lexicon.behaviours.length;
  const chosen: { b: number; id: number; model: string; problem: string; sampleIndex: number }[] = [];
  const problemsOf = Array.from({ length: nb }, () => new Set<number>());
  let full = 0;
  const rows = index.db
    .prepare(
      `SELECT s.id, s.markers, s.problem_id AS pid, s.sample_index AS sampleIndex, p.problem_id AS problem,
              m.run, m.name, m.revision
         FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
        WHERE s.markers IS NOT NULL AND s.markers GLOB '*[1-9]*' ORDER BY s.id`,
    )
    .iterate() as IterableIterator<{
    id: number;
    markers: string;
    pid: number;
    sampleIndex: number;
    problem: string;
    run: string;
    name: string;
    revision: string | null;
  }>;
  for (const r of rows) {
    const counts = r.markers.split(',');
    for (let b = 0; b < nb; b++) {
      const seen = problemsOf[b];
      if (seen.size >= perBehaviour || Number(counts[b] ?? 0) === 0 || seen.has(r.pid)) continue;
      seen.add(r.pid);
      if (seen.size === perBehaviour) full++;
      const model = modelDisplayId(r.run, r.name, r.revision);
      chosen.push({ b, id: r.id, model, problem: r.problem, sampleIndex: r.sampleIndex });
    }
    if (full === nb) break;
  }
  const out: MarkerExample[] = [];
  for (const c of chosen) {
    let text: string | undefined;
    try {
      text = await readSampleText(index, c.id);
    } catch {
      continue;
    }
    if (text === undefined) continue;
    // the offsets of matches are those of the NFKC form, lowercased: the same as the NFKC form's unless
    // lowercasing changed its length (U+0130), when the lowercase form is shown
    const nfkc = text.normalize('NFKC');
    const lower = nfkc.toLowerCase();
    const norm = lower.length === nfkc.length ? nfkc : lower;
    const hit = counter.matches(text).find((x) => x.behaviour === lexicon.behaviours[c.b].id);
    if (!hit) continue;
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    out.push({
      behaviour: hit.behaviour,
      phrase: hit.phrase,
      model: c.model,
      problem: c.problem,
      sampleIndex: c.sampleIndex,
      before: flat(norm.slice(Math.max(0, hit.start - EXAMPLE_CONTEXT), hit.start)),
      marker: flat(norm.slice(hit.start, hit.end)),
      after: flat(norm.slice(hit.end, hit.end + EXAMPLE_CONTEXT)),
    });
  }
  return out.sort(
    (x, y) =>
      lexicon.behaviours.findIndex((b) => b.id === x.behaviour) -
      lexicon.behaviours.findIndex((b) => b.id === y.behaviour),
  );
}

/** Options of {@link reasoningMarkers}. */
export interface MarkersOptions {
  bootstrap?: BootstrapOptions;
  /** Token rule: `auto` (default: results when every measured sample has a token count), `results`, `pieces`. */
  tokens?: 'auto' | 'results' | 'pieces';
  /** Step pattern of the checkpoint series (grouping/series.ts). */
  stepPattern?: string | null;
  /** The index's models, when the caller has them. */
  models?: ModelRow[];
  /**
   * Called before each model's intervals (`done` of `total` models measured): the figures worker's progress, which
   * throws to stop a job a newer request superseded (the error propagates).
   */
  onModel?: (label: string, done: number, total: number) => void;
}

/** The lexicon the index's counts were made with (meta `markers_lexicon`); the shipped one when none is stored. */
export function indexLexicon(index: TraceIndex): MarkerLexicon {
  const stored = index.getMeta(MARKERS_LEXICON_KEY);
  if (stored === undefined) return DEFAULT_LEXICON;
  try {
    return JSON.parse(stored) as MarkerLexicon;
  } catch {
    return DEFAULT_LEXICON;
  }
}

interface SampleRow {
  m: number;
  p: number;
  correct: number | null;
  chars: number | null;
  tokenCount: number | null;
  pieces: number | null;
  markers: string | null;
}

/** Per-problem means of one model, by split: `values[split][measure]` lists one mean per problem. */
interface ModelAcc {
  samples: number;
  unmeasured: number;
  noTokens: number;
  /** [all, correct, incorrect][measure] -> per-problem means. */
  means: number[][][];
  /** [measure] -> per-problem within differences. */
  within: number[][];
  /** [correct, incorrect][measure] -> sum and count over samples (the pooled `across`). */
  pooledSum: Float64Array[];
  pooledCount: Float64Array[];
}

/**
 * The reasoning-marker analysis of the index (see the module comment for every formula).
 * @returns models in the index's order (each with its series and step when it is a checkpoint), the series,
 *   the token rule and the lexicon; warnings name unmeasured samples and a token rule that could not be followed.
 * @throws Error on an invalid step pattern or bootstrap options.
 */
export function reasoningMarkers(index: TraceIndex, opts: MarkersOptions = {}): MarkersAnalysis {
  const lexicon = indexLexicon(index);
  const models = opts.models ?? index.models();
  const warnings: string[] = [];
  const withCount = index.db
    .prepare('SELECT count(*) AS measured, count(token_count) AS counted FROM samples WHERE piece_count IS NOT NULL')
    .get() as { measured: number; counted: number };
  const allCounted = withCount.measured > 0 && withCount.counted === withCount.measured;
  let kind: TokenRule['kind'] = opts.tokens === 'pieces' ? 'pieces' : allCounted ? 'results' : 'pieces';
  if (opts.tokens === 'results' && !allCounted) {
    warnings.push(
      `token counts: ${withCount.measured - withCount.counted} of ${withCount.measured} samples carry none in the results; pieces are used instead`,
    );
    kind = 'pieces';
  }
  const tokenRule: TokenRule = {
    kind,
    description: kind === 'results' ? "tokens: the results' own token counts" : `tokens approximated as ${PIECE_RULE}`,
  };
  const measures: MeasureDef[] = [
    { id: 'chars', label: 'Length', unit: 'characters' },
    { id: 'tokens', label: 'Length', unit: 'tokens' },
    ...lexicon.behaviours.map((b) => ({ id: b.id, label: b.label, unit: 'per 1,000 tokens' })),
  ];
  const accs = accumulate(index, measures.length, kind);
  const { series, warnings: seriesWarnings } = checkpointSeries(models, { stepPattern: opts.stepPattern });
  warnings.push(...seriesWarnings);
  const stepOf = new Map<number, { series: string; step: number }>();
  for (const s of series) for (const st of s.steps) stepOf.set(st.model.id, { series: s.name, step: st.step });
  const out: ModelMarkers[] = [];
  let unmeasured = 0;
  for (const [done, m] of models.entries()) {
    const a = accs.get(m.id);
    if (!a) continue;
    opts.onModel?.(m.label, done, models.length);
    unmeasured += a.unmeasured;
    const st = stepOf.get(m.id);
    out.push({
      model: m.displayId,
      label: m.label,
      series: st?.series ?? null,
      step: st?.step ?? null,
      samples: a.samples,
      unmeasured: a.unmeasured,
      noTokens: a.noTokens,
      measures: measures.map((d, k) => measureStats(d.id, a, k, opts.bootstrap)),
    });
  }
  if (unmeasured > 0)
    warnings.push(
      `${unmeasured} samples have no measures yet (indexed before they were stored): index the folder again to count them`,
    );
  return {
    tokenRule,
    lexicon,
    measures,
    models: out,
    series: series.map((s) => ({ name: s.name, unit: s.unit, models: s.steps.map((x) => x.model.displayId) })),
    warnings,
  };
}

/** The fewest problems with both a correct and an incorrect sample for a within-problem verdict. */
export const MIN_WITHIN_PROBLEMS = 10;

function problemMean(values: number[], opts: BootstrapOptions | undefined): ProblemMean {
  return { ...bootstrapMeanCI(values, opts), problems: values.length };
}

function measureStats(id: string, a: ModelAcc, k: number, opts: BootstrapOptions | undefined): MeasureStats {
  const [all, correct, incorrect] = a.means.map((split) => problemMean(split[k], opts));
  const w = problemMean(a.within[k], opts);
  const relation: WithinProblem['relation'] =
    w.problems === 0 || w.low === null || w.high === null
      ? 'not computable'
      : w.problems < MIN_WITHIN_PROBLEMS
        ? 'too few problems'
        : w.low <= 0 && w.high >= 0
          ? 'no relation'
          : w.low > 0
            ? 'higher when correct'
            : 'lower when correct';
  const [pc, pi] = a.pooledCount;
  const across = pc[k] > 0 && pi[k] > 0 ? a.pooledSum[0][k] / pc[k] - a.pooledSum[1][k] / pi[k] : null;
  return { measure: id, all, correct, incorrect, across, within: { ...w, relation } };
}

/**
 * One ordered read of the samples: per model, per problem, the mean of each measure over the problem's samples
 * of each split, and the within-problem differences. Samples without measures are counted, not used.
 */
function accumulate(index: TraceIndex, nMeasures: number, kind: TokenRule['kind']): Map<number, ModelAcc> {
  const accs = new Map<number, ModelAcc>();
  // per split: sums and counts of the current problem
  const sum = [0, 1, 2].map(() => new Float64Array(nMeasures));
  const cnt = [0, 1, 2].map(() => new Float64Array(nMeasures));
  let cur: ModelAcc | null = null;
  let curKey = '';
  const flush = () => {
    if (!cur) return;
    for (let s = 0; s < 3; s++)
      for (let k = 0; k < nMeasures; k++) if (cnt[s][k] > 0) cur.means[s][k].push(sum[s][k] / cnt[s][k]);
    for (let k = 0; k < nMeasures; k++)
      if (cnt[1][k] > 0 && cnt[2][k] > 0) cur.within[k].push(sum[1][k] / cnt[1][k] - sum[2][k] / cnt[2][k]);
    for (let s = 0; s < 3; s++) {
      sum[s].fill(0);
      cnt[s].fill(0);
    }
  };
  const rows = index.db
    .prepare(
      `SELECT model_id AS m, problem_id AS p, correct, text_length AS chars, token_count AS tokenCount,
              piece_count AS pieces, markers
         FROM samples ORDER BY model_id, problem_id`,
    )
    .iterate() as IterableIterator<SampleRow>;
  const values = new Float64Array(nMeasures);
  for (const r of rows) {
    const key = `${r.m}:${r.p}`;
    if (key !== curKey) {
      flush();
      curKey = key;
      cur = accs.get(r.m) ?? null;
      if (!cur) {
        cur = newAcc(nMeasures);
        accs.set(r.m, cur);
      }
    }
    const a = cur as ModelAcc;
    a.samples++;
    if (r.pieces === null || r.markers === null || r.chars === null) {
      a.unmeasured++;
      continue;
    }
    const tokens = kind === 'results' ? (r.tokenCount ?? 0) : r.pieces;
    values[0] = r.chars;
    values[1] = tokens;
    const counts = r.markers === '' ? [] : r.markers.split(',');
    if (tokens <= 0) a.noTokens++;
    const splits = r.correct === null ? [0] : r.correct === 1 ? [0, 1] : [0, 2];
    for (let k = 0; k < nMeasures; k++) {
      let v: number;
      if (k < 2) v = values[k];
      else if (tokens <= 0) continue;
      else v = (Number(counts[k - 2] ?? 0) * 1000) / tokens;
      for (const s of splits) {
        sum[s][k] += v;
        cnt[s][k]++;
        if (s > 0) {
          a.pooledSum[s - 1][k] += v;
          a.pooledCount[s - 1][k]++;
        }
      }
    }
  }
  flush();
  return accs;
}

function newAcc(n: number): ModelAcc {
  return {
    samples: 0,
    unmeasured: 0,
    noTokens: 0,
    means: [0, 1, 2].map(() => Array.from({ length: n }, () => [] as number[])),
    within: Array.from({ length: n }, () => [] as number[]),
    pooledSum: [new Float64Array(n), new Float64Array(n)],
    pooledCount: [new Float64Array(n), new Float64Array(n)],
  };
}

/**
 * The figures of some models from the analysis (the overview's Training and Models tabs, shared/protocol.ts): each
 * entry names a model by display id and the place `at` it is drawn at (a step, a label); an entry whose model the
 * analysis lacks is left out. Undefined when none of them has a measured sample.
 */
export function markerFigures<X extends number | string>(
  a: MarkersAnalysis,
  entries: readonly { at: X; model: string }[],
): MarkerFigures<X> | undefined {
  const byId = new Map(a.models.map((m) => [m.model, m]));
  const out: MarkerFigures<X> = {
    tokenRule: a.tokenRule.description,
    measures: a.measures,
    points: [],
    within: [],
    unmeasured: 0,
  };
  let measured = 0;
  for (const { at, model } of entries) {
    const m = byId.get(model);
    if (!m) continue;
    out.unmeasured += m.unmeasured;
    measured += m.samples - m.unmeasured;
    for (const s of m.measures) {
      for (const split of ['correct', 'incorrect'] as const) {
        const v = s[split];
        out.points.push({
          at,
          measure: s.measure,
          split,
          mean: v.mean,
          low: v.low,
          high: v.high,
          problems: v.problems,
        });
      }
      const w = s.within;
      out.within.push({
        at,
        measure: s.measure,
        mean: w.mean,
        low: w.low,
        high: w.high,
        problems: w.problems,
        relation: w.relation,
      });
    }
  }
  return measured > 0 ? out : undefined;
}
