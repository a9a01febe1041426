/**
 * The maj@k of the report before issue 11, kept as the benchmark's baseline for the "report with
 * maj@k within 1.5x of today's time" figure (as bench/baseline.py is the indexing baseline): answers
 * grouped by a string normaliser (no CAS), and every k re-grouping every problem's answers
 * (`majAtKDetailed` per problem and k, as `datasetMajAtK` did). The vote itself is the one of that time
 * (exact enumeration of count vectors up to 200000 nodes, else a seeded Monte Carlo estimate), kept here
 * verbatim since the product computes maj@k exactly from the answer groups' counts (issue 31); the
 * groups are today's `voteGroups`; brace unwrapping is today's `unwrapCommand` (the same loop). Not used
 * by the product.
 */
import { unwrapCommand } from '../src/core/answers/surface';
import { mulberry32, type VoteGroups, type VoteSample, voteGroups } from '../src/core/metrics';

const NUMBER_RE = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?$/;

/** Canonical decimal string of a plain number ("1,000.50" -> "1000.5"), or null if not a number. */
function canonicalNumber(s: string): string | null {
  const m = NUMBER_RE.exec(s);
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  let int = (m[2] ?? '0').replace(/,/g, '').replace(/^0+(?=\d)/, '');
  if (int === '') int = '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  const sign = m[1] === '-' && body !== '0' ? '-' : '';
  return sign + body;
}

/**
 * Normalizes an extracted final answer for voting. Two answers are equivalent iff their normalized
 * strings are equal. Steps, in order:
 * 1. trim; unwrap `\boxed{...}` and `\fbox{...}` (brace-matched, anywhere);
 * 2. drop `\left` / `\right` (not `\rightarrow`), the LaTeX spaces `\!`, `\,`, `\;`, `\:`, `\ `,
 *    dollar signs (`\$` and `$`); `\dfrac` / `\tfrac` -> `\frac`; `\%` -> `%`;
 * 3. remove all whitespace; strip trailing `.`;
 * 4. unwrap a whole-answer `\text{X}` to X, and drop a unit `\text{...}` / `\mbox{...}` / `\mathrm{...}`
 *    that directly follows a number (`16\,\text{hours}` -> `16`);
 * 5. numbers: `1,000` -> `1000` (only valid thousands grouping), `1.50` -> `1.5`, `007` -> `7`,
 *    `.5` -> `0.5`, `+5` -> `5`, `-0` -> `0` (string rewriting, no float rounding).
 * Not handled (kept distinct): fractions vs decimals (`\frac{1}{2}` vs `0.5`), percent vs plain
 * (`50%` vs `50`), reordered expressions.
 * @returns the normalized answer, or `null` for `null`/empty input (no answer).
 */
export function legacyNormalizeAnswer(answer: string | null | undefined): string | null {
  if (answer === null || answer === undefined) return null;
  let s = String(answer).trim();
  s = unwrapCommand(s, 'boxed');
  s = unwrapCommand(s, 'fbox');
  s = s.replace(/\\left(?![a-zA-Z])/g, '').replace(/\\right(?![a-zA-Z])/g, '');
  s = s.replace(/\\[!,;:]/g, '').replace(/\\ /g, '');
  s = s.replace(/\\\$/g, '').replace(/\$/g, '');
  s = s.replace(/\\[dt]frac(?![a-zA-Z])/g, '\\frac');
  s = s.replace(/\\%/g, '%');
  s = s.replace(/\s+/g, '');
  s = s.replace(/\.+$/, '');
  const whole = /^\\(?:text|textbf|mathrm|mbox)\{([^{}]*)\}$/.exec(s);
  if (whole) s = whole[1].replace(/\.+$/, '');
  const unit = /^([+-]?[\d.,]*\d)\\(?:text|mbox|mathrm)\{[^{}]*\}$/.exec(s);
  if (unit) s = unit[1];
  const num = canonicalNumber(s);
  if (num !== null) s = num;
  return s === '' ? null : s;
}

/** The pre-issue-11 dataset maj@k curve: per k, per problem, groups rebuilt with {@link legacyNormalizeAnswer}. */
export function legacyMajAtKCurve(
  problems: readonly (readonly VoteSample[])[],
  ks: readonly number[],
  opts: { draws: number; seed: number },
): { k: number; value: number | null; problems: number }[] {
  return ks.map((k) => {
    let s = 0;
    let used = 0;
    problems.forEach((samples, i) => {
      if (samples.length < k) return;
      const gr = voteGroups(samples, { normalize: legacyNormalizeAnswer });
      if (gr === null) return;
      s += legacyVote(gr, k, { draws: opts.draws, seed: (opts.seed + i) >>> 0 }).value;
      used++;
    });
    return { k, value: used ? s / used : null, problems: used };
  });
}

/**
 * The vote of that time on one problem's groups (n >= k): exact enumeration of the count vectors when it
 * visits at most `exactLimit` nodes (default 200000), else the mean over `draws` seeded random k-subsets.
 * Also the tests' enumeration oracle (with a large `exactLimit`) and Monte Carlo reference.
 */
export function legacyVote(
  gr: VoteGroups,
  k: number,
  opts: { draws: number; seed: number; exactLimit?: number },
): { value: number; method: 'exact' | 'monte-carlo' } {
  const exact = exactMaj(gr, gr.n, k, opts.exactLimit ?? 200000);
  if (exact !== null) return { value: exact, method: 'exact' };
  return { value: monteCarloMaj(gr, gr.n, k, opts.draws, opts.seed), method: 'monte-carlo' };
}

function logFactorials(n: number): Float64Array {
  const lf = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) lf[i] = lf[i - 1] + Math.log(i);
  return lf;
}

/** Exact expectation by enumerating count vectors; returns null if the node budget is exceeded. */
function exactMaj(gr: VoteGroups, n: number, k: number, limit: number): number | null {
  const G = gr.sizes.length;
  const lf = logFactorials(n);
  const lnC = (a: number, b: number): number => lf[a] - lf[b] - lf[a - b];
  const lnTotal = lnC(n, k);
  // suffix capacity: samples available in groups g.. plus the null group
  const suffix = new Array<number>(G + 1).fill(0);
  suffix[G] = gr.nullCount;
  for (let g = G - 1; g >= 0; g--) suffix[g] = suffix[g + 1] + gr.sizes[g];
  const x = new Array<number>(G).fill(0);
  let nodes = 0;
  let total = 0;
  let aborted = false;
  const rec = (g: number, remaining: number, lnW: number): void => {
    if (aborted) return;
    if (++nodes > limit) {
      aborted = true;
      return;
    }
    if (g === G) {
      nodes += G;
      // remaining samples come from the null group
      const w = Math.exp(lnW + lnC(gr.nullCount, remaining) - lnTotal);
      let m = 0;
      for (let i = 0; i < G; i++) if (x[i] > m) m = x[i];
      if (m === 0) return; // only unanswered samples drawn: no winner, credit 0
      let winners = 0;
      let good = 0;
      for (let i = 0; i < G; i++) {
        if (x[i] === m) {
          winners++;
          good += gr.correct[i];
        }
      }
      total += (w * good) / winners;
      return;
    }
    const lo = Math.max(0, remaining - suffix[g + 1]);
    const hi = Math.min(gr.sizes[g], remaining);
    for (let v = lo; v <= hi; v++) {
      x[g] = v;
      rec(g + 1, remaining - v, lnW + lnC(gr.sizes[g], v));
    }
    x[g] = 0;
  };
  rec(0, k, 0);
  return aborted ? null : Math.min(1, Math.max(0, total));
}

function monteCarloMaj(gr: VoteGroups, n: number, k: number, draws: number, seed: number): number {
  const G = gr.sizes.length;
  const pool = new Int32Array(n);
  let p = 0;
  for (let g = 0; g < G; g++) for (let i = 0; i < gr.sizes[g]; i++) pool[p++] = g;
  for (let i = 0; i < gr.nullCount; i++) pool[p++] = -1;
  const counts = new Int32Array(G);
  const seen = new Uint8Array(G);
  const rand = mulberry32(seed);
  let total = 0;
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(rand() * (n - i));
      const t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
      if (pool[i] >= 0) counts[pool[i]]++;
    }
    let m = 0;
    for (let i = 0; i < k; i++) if (pool[i] >= 0 && counts[pool[i]] > m) m = counts[pool[i]];
    if (m > 0) {
      let winners = 0;
      let good = 0;
      for (let i = 0; i < k; i++) {
        const g = pool[i];
        if (g >= 0 && counts[g] === m && !seen[g]) {
          seen[g] = 1;
          winners++;
          good += gr.correct[g];
        }
      }
      total += good / winners;
    }
    for (let i = 0; i < k; i++) {
      const g = pool[i];
      if (g >= 0) {
        counts[g] = 0;
        seen[g] = 0;
      }
    }
  }
  return total / draws;
}
