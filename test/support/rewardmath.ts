/**
 * The real RewardMATH folder (../shared/data/real/rewardmath-22-scorers, read-only) and figures computed
 * straight from its raw JSON files, independently of the indexer and the metrics: pairwise accuracy by
 * a double loop over (correct, incorrect) pairs, best-of-4 and pass@4 by enumerating every 4-subset of a
 * problem's solutions. Shared by the unit test and the end-to-end test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root: tests run from it (unit) or find it from their own path (e2e). */
const repo = path.resolve(__dirname, '..', '..', '..');

export const ROOT = path.resolve(repo, '..', 'shared', 'data', 'real', 'rewardmath-22-scorers');
/** The mapping the project ships for it. */
export const MAPPING = path.join(repo, 'examples', 'mappings', 'rewardmath.mapping.json');

export interface RawRecord {
  problem: string;
  solution_reference: string[];
  score: (number | number[])[];
}

export const rawFile = (scorer: string): RawRecord[] =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'scores', `${scorer}_reward.json`), 'utf8')) as RawRecord[];

export type Rule = 'min' | 'last' | 'product';
const reduce = (s: number | number[], rule: Rule): number => {
  if (!Array.isArray(s)) return s;
  if (rule === 'last') return s[s.length - 1];
  if (rule === 'product') return s.reduce((a, b) => a * b, 1);
  return Math.min(...s);
};

/** Pairwise accuracy pooled over pairs and best-of-4, straight from a score file; `dedupe` keeps the first record of a problem text. */
export function independent(
  scorer: string,
  dedupe: boolean,
  rule: Rule = 'min',
): { acc: number; bo4: number; pass4: number; problems: number } {
  const seen = new Set<string>();
  let credit = 0;
  let pairs = 0;
  let bo4 = 0;
  let pass4 = 0;
  let problems = 0;
  for (const r of rawFile(scorer)) {
    if (dedupe && seen.has(r.problem)) continue;
    seen.add(r.problem);
    const s = r.score.map((x) => reduce(x, rule));
    const c = r.solution_reference.map((x) => x === 'human_to_GPT-4');
    for (let i = 0; i < s.length; i++)
      for (let j = 0; j < s.length; j++)
        if (c[i] && !c[j]) {
          pairs++;
          credit += s[i] > s[j] ? 1 : s[i] === s[j] ? 0.5 : 0;
        }
    // every 4-subset: the best score wins, ties broken uniformly (share of correct among the tied best)
    let sum = 0;
    let subsets = 0;
    let withCorrect = 0;
    const n = s.length;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        for (let d = b + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const idx = [a, b, d, e];
            const best = Math.max(...idx.map((i) => s[i]));
            const top = idx.filter((i) => s[i] === best);
            sum += top.filter((i) => c[i]).length / top.length;
            if (idx.some((i) => c[i])) withCorrect++;
            subsets++;
          }
    bo4 += sum / subsets;
    pass4 += withCorrect / subsets;
    problems++;
  }
  return { acc: credit / pairs, bo4: bo4 / problems, pass4: pass4 / problems, problems };
}
