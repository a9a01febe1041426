/**
 * "Is this sample's reasoning path among the base model's samples?" — computation paths compared,
 * not wording (docs/similarity.md section 6).
 *
 * A sample's path is its distinct computation steps in order of first occurrence (`steps.ts`:
 * equations with a written numeric result, canonicalised by value through the answer equivalence's
 * `numberKey`, so `156 / 3 = 52` and `\frac{156}{3} = 52.00` are one step). A sample is compared
 * with a list of **candidates** (the base samples of the same problem, or for a baseline the OTHER
 * samples of the same model):
 * - `found`: the sample's steps that at least one candidate computes; `shareFound = found / steps`;
 * - `fullPath`: candidates that compute every step of the sample (a superset: the candidate may
 *   compute more steps, and the order of steps is not compared);
 * - `newSteps`: the sample's steps that no candidate computes, in the sample's order.
 *
 * Equal footing (the "n - 1 candidates"): a model sample meets all n base samples, a base
 * sample in the baseline only the n - 1 others. `shareFoundLeaveOneOut` is the model sample's share
 * of steps found averaged over which one of the n base samples is left out: a step that c base
 * samples compute counts 1 when c >= 2, (n - 1)/n when c = 1, 0 when c = 0. `fullPath / candidates`
 * is a share and needs no correction (its leave-one-out average is the same share).
 *
 * A sample without steps (no equation with a numeric result, e.g. arithmetic only in words) has
 * `steps = 0` and `shareFound = null`: it is neither "in the base" nor "new", and summaries count
 * it as left out.
 */
import { type ComputationPath, type ComputationStep, computationPath, pathOfSteps, stepsFromTokens } from './steps';
import type { LexedText } from './tokenize';

/** One sample's path compared with a list of candidates (module comment). */
export interface PathMatch {
  /** Distinct steps of the sample. */
  steps: number;
  /** Steps that at least one candidate computes. */
  found: number;
  /** found / steps; `null` when the sample has no steps. */
  shareFound: number | null;
  /**
   * Share of steps found averaged over which candidate is left out (n - 1 candidates, the baseline's
   * footing); `null` without steps or without candidates. Set only for comparisons with all n base samples.
   */
  shareFoundLeaveOneOut?: number | null;
  /** Candidates that compute every step of the sample (0 when the sample has no steps). */
  fullPath: number;
  /** The most of the sample's steps one candidate computes (= steps when fullPath > 0). */
  bestFound: number;
  /** Candidates compared with. */
  candidates: number;
  /** Steps no candidate computes, in the sample's order (their `display` is for people, `key` for code). */
  newSteps: ComputationStep[];
}

/**
 * Compares one path with candidate step-key sets.
 *
 * @param path the sample's path ({@link computationPath}).
 * @param candidates each candidate's set of step keys.
 * @param leaveOneOut also compute `shareFoundLeaveOneOut` (for a comparison with all n base samples).
 */
export function comparePath(
  path: ComputationPath,
  candidates: readonly ReadonlySet<string>[],
  leaveOneOut = false,
): PathMatch {
  const n = candidates.length;
  const newSteps: ComputationStep[] = [];
  let found = 0;
  let looSum = 0;
  for (let i = 0; i < path.keys.length; i++) {
    let c = 0;
    for (const cand of candidates) if (cand.has(path.keys[i])) c++;
    if (c > 0) found++;
    else newSteps.push(path.steps[i]);
    looSum += c >= 2 ? 1 : c === 1 ? (n - 1) / n : 0;
  }
  let fullPath = 0;
  let bestFound = 0;
  for (const cand of candidates) {
    let f = 0;
    for (const k of path.keys) if (cand.has(k)) f++;
    if (f > bestFound) bestFound = f;
    if (path.keys.length > 0 && f === path.keys.length) fullPath++;
  }
  const steps = path.keys.length;
  return pathMatch(steps, found, fullPath, bestFound, n, newSteps, leaveOneOut ? looSum : undefined);
}

/** The PathMatch of the counts of one comparison (`looSum`: the leave-one-out sum, when asked for). */
function pathMatch(
  steps: number,
  found: number,
  fullPath: number,
  bestFound: number,
  n: number,
  newSteps: ComputationStep[],
  looSum: number | undefined,
): PathMatch {
  const out: PathMatch = {
    steps,
    found,
    shareFound: steps > 0 ? found / steps : null,
    fullPath,
    bestFound,
    candidates: n,
    newSteps,
  };
  if (looSum !== undefined) out.shareFoundLeaveOneOut = steps > 0 && n > 0 ? looSum / steps : null;
  return out;
}

/** Result of {@link problemPaths}: every sample of one problem compared by computation path. */
export interface ProblemPaths {
  /** The base samples' paths (index = base sample index). */
  basePaths: ComputationPath[];
  /** The model samples' paths. */
  modelPaths: ComputationPath[];
  /** Each model sample against all base samples (with the leave-one-out share). */
  model: PathMatch[];
  /** Baseline: each base sample against the OTHER base samples (n - 1 candidates). */
  baseline: PathMatch[];
  /** Each model sample against the OTHER model samples (is the model more uniform than the base?). */
  modelBaseline: PathMatch[];
}

/**
 * The candidates' step keys as an inverted index: each distinct key gets an integer id and the list
 * of candidates (ascending) whose set holds it, so that comparing a path with all candidates costs
 * one pass over the postings of its keys instead of one string-set lookup per (step, candidate).
 */
class StepPostings {
  private readonly ids = new Map<string, number>();
  private readonly postings: number[][] = [];
  /**
   * For a key most candidates hold (more than half), the candidates that do NOT hold it, ascending: a path's
   * common keys are counted as +1 for every candidate and -1 for these (fewer), the same counts in fewer steps.
   */
  private readonly missing: (Int32Array | undefined)[] = [];
  /** Scratch per candidate: how many of the current path's keys it holds. */
  private readonly hits: Int32Array;

  constructor(readonly paths: readonly ComputationPath[]) {
    paths.forEach((p, c) => {
      for (const k of p.keys) {
        let id = this.ids.get(k);
        if (id === undefined) {
          id = this.postings.length;
          this.ids.set(k, id);
          this.postings.push([]);
        }
        const list = this.postings[id];
        // a key twice in one path is posted once (candidates come in ascending order: a repeat is the last one)
        if (list.length === 0 || list[list.length - 1] !== c) list.push(c);
      }
    });
    this.hits = new Int32Array(paths.length);
    for (const list of this.postings) {
      if (list.length * 2 <= paths.length) {
        this.missing.push(undefined);
        continue;
      }
      const miss = new Int32Array(paths.length - list.length);
      let m = 0;
      let at = 0;
      for (let c = 0; c < paths.length; c++) {
        if (at < list.length && list[at] === c) at++;
        else miss[m++] = c;
      }
      this.missing.push(miss);
    }
  }

  /**
   * {@link comparePath} of `path` with every candidate's key set except candidate `exclude` (-1: none):
   * the same figures, computed from the postings (the leave-one-out sum is added in the same order).
   */
  compare(path: ComputationPath, exclude: number, leaveOneOut: boolean): PathMatch {
    const n = this.paths.length - (exclude >= 0 ? 1 : 0);
    const hits = this.hits;
    hits.fill(0);
    const newSteps: ComputationStep[] = [];
    let found = 0;
    let looSum = 0;
    let all = 0; // keys counted for every candidate (their `missing` candidates got -1)
    for (let i = 0; i < path.keys.length; i++) {
      const id = this.ids.get(path.keys[i]);
      let c = 0;
      if (id !== undefined) {
        const list = this.postings[id];
        const miss = this.missing[id];
        if (miss !== undefined) {
          all++;
          let excludeMissing = false;
          for (let m = 0; m < miss.length; m++) {
            const cand = miss[m];
            hits[cand]--;
            if (cand === exclude) excludeMissing = true;
          }
          c = list.length - (exclude >= 0 && !excludeMissing ? 1 : 0);
        } else {
          for (const cand of list) {
            if (cand === exclude) continue;
            hits[cand]++;
            c++;
          }
        }
      }
      if (c > 0) found++;
      else newSteps.push(path.steps[i]);
      looSum += c >= 2 ? 1 : c === 1 ? (n - 1) / n : 0;
    }
    const steps = path.keys.length;
    let fullPath = 0;
    let bestFound = 0;
    for (let cand = 0; cand < hits.length; cand++) {
      if (cand === exclude) continue;
      const f = hits[cand] + all;
      if (f > bestFound) bestFound = f;
      if (steps > 0 && f === steps) fullPath++;
    }
    return pathMatch(steps, found, fullPath, bestFound, n, newSteps, leaveOneOut ? looSum : undefined);
  }
}

/**
 * Computation paths of one problem's base and model samples and their comparisons (module comment).
 * Cost: one extraction per text (linear in its length) and, per sample, one pass over the candidates
 * holding each of its steps (an inverted index of step keys; same figures as {@link comparePath}).
 *
 * @param baseTexts base-model samples of the problem (untrusted; non-strings read as `''`).
 * @param modelTexts another model's samples of the same problem.
 * @param lexed the texts' tokens when the caller already has them (`lexText` of each text, same order),
 *   so they are not lexed twice; and `basePaths`, the base texts' paths from an earlier call with the
 *   same base texts (RangeError when their count differs). The result is the same.
 */
export function problemPaths(
  baseTexts: readonly string[],
  modelTexts: readonly string[],
  lexed?: { base?: readonly LexedText[]; model?: readonly LexedText[]; basePaths?: readonly ComputationPath[] },
): ProblemPaths {
  const pathOf = (t: string, lx: LexedText | undefined) =>
    lx ? pathOfSteps(stepsFromTokens(typeof t === 'string' ? t : '', lx.toks, lx.starts, lx.ends)) : computationPath(t);
  if (lexed?.basePaths && lexed.basePaths.length !== baseTexts.length) {
    throw new RangeError(`basePaths has ${lexed.basePaths.length} paths for ${baseTexts.length} base texts`);
  }
  const basePaths = lexed?.basePaths?.slice() ?? baseTexts.map((t, i) => pathOf(t, lexed?.base?.[i]));
  const modelPaths = modelTexts.map((t, i) => pathOf(t, lexed?.model?.[i]));
  const baseIndex = new StepPostings(basePaths);
  const modelIndex = new StepPostings(modelPaths);
  return {
    basePaths,
    modelPaths,
    model: modelPaths.map((p) => baseIndex.compare(p, -1, true)),
    baseline: basePaths.map((p, i) => baseIndex.compare(p, i, false)),
    modelBaseline: modelPaths.map((p, i) => modelIndex.compare(p, i, false)),
  };
}
