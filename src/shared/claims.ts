/**
 * How a base-vs-model comparison's claims are worded, shared by the CLI table and the overview (no
 * `vscode`, no DOM), so that both say the same thing: a crossover k with its bootstrap interval, "no
 * crossover" with its reason (a tie at k = 1, a tie only at saturation, or a lead kept to the end),
 * and a lead at k = 1 that the paired bootstrap cannot tell from 0 marked as within noise.
 */

/** Bootstrap interval of the crossover k as data (src/core/metrics/coverage.ts `CrossoverInterval`). */
export interface CrossoverIntervalData {
  low: number | null;
  high: number | null;
  noneShare: number;
  /** Share of replicates whose crossover is k = 1 (the trailing model already ahead or level there); absent: unknown. */
  atK1Share?: number;
  replicates: number;
}

/** The fields of a comparison that {@link crossoverText} words (a subset of the report's ComparisonReport). */
export interface CrossoverClaim {
  crossoverK: number | null;
  saturationK: number | null;
  leaderAtK1: 'base' | 'model' | 'tie';
  leaderAtK1WithinNoise?: boolean;
  crossoverInterval: CrossoverIntervalData | null;
  /** At the crossover k: the trailing model strictly ahead, or only level (metrics `CrossoverResult.kind`). */
  crossoverKind?: 'ahead' | 'level' | null;
  /** Smallest k from which the trailing model is strictly ahead before saturation; null if never. */
  crossoverAheadK?: number | null;
}

/** A share 0..1 as a whole percent ("12%"; "<1%" for a share above 0 that rounds to 0). */
export function sharePct(x: number): string {
  const p = Math.round(100 * x);
  return p === 0 && x > 0 ? '<1%' : p === 100 && x < 1 ? '>99%' : `${p}%`;
}

/**
 * One line for a comparison's crossover k:
 * - `5 (ahead) [3–9]`, `7 (level: never ahead) [2–7]`, `7 (level: ahead from k = 9)`: whether the
 *   trailing model is strictly ahead at the crossover k or only level with the leader (equal within
 *   1e-12), then the 2.5–97.5 percentiles of the bootstrap over problems among replicates that have a
 *   crossover), then `, none in 12%` when some replicates have none;
 * - `none: tied at saturation from k = 52` when the two are level only because both are saturated;
 * - `none (tied at k = 1)`, `none (model leads)`;
 * then, when no crossover is claimed but some replicates have one, `; base ahead or level at some k in 3% of
 * replicates [k 2–40]` (the trailing model named);
 * in both cases, when some replicates have their crossover at k = 1 (the trailing model of the whole data
 * already ahead or level at k = 1 in the resample: the k = 1 lead reversed, not a crossing along k),
 * `, already at k = 1 in 5%`; and `; lead at k = 1 within noise` when the paired interval of pass@1 holds 0.
 */
export function crossoverText(c: CrossoverClaim): string {
  const iv = c.crossoverInterval;
  const range =
    iv && iv.low !== null && iv.high !== null ? (iv.low === iv.high ? `${iv.low}` : `${iv.low}–${iv.high}`) : '';
  let out: string;
  if (c.crossoverK !== null) {
    const kind =
      c.crossoverKind === 'ahead'
        ? ' (ahead)'
        : c.crossoverKind === 'level'
          ? c.crossoverAheadK != null
            ? ` (level: ahead from k = ${c.crossoverAheadK})`
            : ' (level: never ahead)'
          : '';
    out = `${c.crossoverK}${kind}${range ? ` [${range}]` : ''}${iv && iv.noneShare > 0 ? `, none in ${sharePct(iv.noneShare)}` : ''}${atK1(iv)}`;
  } else {
    out =
      c.leaderAtK1 === 'tie'
        ? 'none (tied at k = 1)'
        : c.saturationK !== null
          ? `none: tied at saturation from k = ${c.saturationK}`
          : `none (${c.leaderAtK1} leads)`;
    if (iv && iv.noneShare < 1) {
      const trailing = c.leaderAtK1 === 'model' ? 'base' : 'model';
      out += `; ${trailing} ahead or level at some k in ${sharePct(1 - iv.noneShare)} of replicates [k ${range}]${atK1(iv)}`;
    }
  }
  if (c.leaderAtK1 !== 'tie' && c.leaderAtK1WithinNoise) out += '; lead at k = 1 within noise';
  return out;
}

/** `, already at k = 1 in 5%` when some bootstrap replicates have their crossover at k = 1; else empty. */
function atK1(iv: CrossoverClaim['crossoverInterval']): string {
  return iv?.atK1Share ? `, already at k = 1 in ${sharePct(iv.atK1Share)}` : '';
}

/** What the crossover figures mean, printed under the tables that show them. */
export const CROSSOVER_NOTE =
  'crossover k: the smallest k at which the model trailing at k = 1 is ahead or level (equal within 1e-12) before both ' +
  'saturate (within 1e-9 of their common maximum, the share of problems each solves at least once); ' +
  '"(ahead)" or "(level: ...)" says whether the trailing model is strictly ahead there or only level, and from which k it is ahead, if ever; ' +
  '[2.5%–97.5%] of a bootstrap over problems among the replicates that have one, and the share that have none. ' +
  'Each replicate follows the model that trails at k = 1 in the whole data; where that model is already ahead or level at ' +
  'k = 1 in the resample, the replicate counts k = 1 ("already at k = 1 in x%": the k = 1 lead reversed, not a crossing along k).';

/** The fields of a comparison that {@link crossoverScope} words. */
export interface CrossoverScope {
  crossoverK: number | null;
  problems: number;
  missing: number;
  /** The largest k searched (the smallest n over the compared problems). */
  crossoverKMax: number;
  /** The largest k a shrinking problem set would have allowed. */
  crossoverKMaxRagged: number;
}

/**
 * What the crossover k is computed over, appended to {@link crossoverText}: `; searched k ≤ 2 only` when
 * no crossover was found and the search stopped at the smallest n of the compared problems (beyond it the problem set would change
 * with k, which can fake a crossover), then the comparison's `(a/b)` when it leaves problems out.
 */
export function crossoverScope(c: CrossoverScope): string {
  const limited =
    c.crossoverK === null && c.crossoverKMax < c.crossoverKMaxRagged ? `; searched k ≤ ${c.crossoverKMax} only` : '';
  const mark = c.missing > 0 ? ` (${c.problems}/${c.problems + c.missing})` : '';
  return `${limited}${mark}`;
}
