/**
 * Where an RL model's gains in correct samples come from: problems the base model already solves
 * (sharpening) or problems it never solves in its n samples (observed expansion).
 *
 * Source: rlvr_behavior_probe (UnitedSnakes/rlvr_behavior_probe_runpod, summarize_results.py, the
 * numbers of rlvr-probe-gsm8k's summary.json `positive_gain_share_sharpening`): per problem the positive
 * gain max(c_rl - c_sft, 0); the gain "from sharpening" sums it over problems with c_sft > 0, the gain
 * "from expansion" over problems with c_sft = 0; the share is gain_sharpening / (gain_sharpening +
 * gain_expansion), with a paired bootstrap over problems (replicates without any positive gain dropped).
 * The question is Yue et al. 2025's (arXiv:2504.13837): are RL's gains on problems the base model can
 * already solve?
 */
import { type BootstrapOptions, bootstrapRatioOfSums } from './bootstrap';
import type { ProblemPair } from './coverage';
import { checkCounts } from './passAtK';

/**
 * Gain of the model over the base model on one problem, in correct samples at the model's n:
 * c_model - c_base * n_model / n_base. With equal n (the usual case, and rlvr-probe-gsm8k's) this is
 * c_model - c_base exactly; with ragged n the base's count is rescaled to the model's n, so the sign
 * agrees with the categories (positive exactly for sharpening and expansion, see `categorize`).
 * Null when either side has n = 0 (no verdict to compare).
 * @throws RangeError on invalid counts.
 */
export function correctSampleGain(p: ProblemPair): number | null {
  checkCounts(p.base.n, p.base.c);
  checkCounts(p.model.n, p.model.c);
  if (p.base.n === 0 || p.model.n === 0) return null;
  return p.model.n === p.base.n ? p.model.c - p.base.c : p.model.c - (p.base.c * p.model.n) / p.base.n;
}

/** Result of {@link positiveGainShare}. */
export interface PositiveGainShare {
  /**
   * Share of the positive per-problem gains in correct samples that comes from problems the base model
   * solves at least once (c_base >= 1); null when no problem has a positive gain.
   */
  sharpening: number | null;
  /** Share from problems the base model never solves (c_base = 0): 1 - sharpening; null likewise. */
  expansion: number | null;
  /**
   * 95% paired bootstrap interval (over problems) of the sharpening share; the expansion share's interval
   * is [1 - ciHigh, 1 - ciLow]. Null when no replicate has a positive gain.
   */
  ciLow: number | null;
  ciHigh: number | null;
  /** Summed positive gains (correct samples) from problems the base solves, and from the others. */
  gainFromSharpening: number;
  gainFromExpansion: number;
  /** Problems compared (both sides have n >= 1): the denominator of the resampling. */
  problems: number;
  /** Problems with a positive gain. */
  gainedProblems: number;
  /** Bootstrap replicates with a positive total gain (the others have no share and are dropped). */
  replicates: number;
}

/**
 * Share of positive gains in correct samples from sharpening vs expansion, with a seeded paired
 * bootstrap interval (see the module comment for the definition and source). Problems where either
 * side has n = 0 are left out (not counted in `problems`).
 * @param opts replicates (default 2000), seed, level: as every bootstrap in ./bootstrap.
 * @throws RangeError on invalid counts or options.
 */
export function positiveGainShare(pairs: readonly ProblemPair[], opts?: BootstrapOptions): PositiveGainShare {
  const sharp: number[] = [];
  const total: number[] = [];
  let gs = 0;
  let ge = 0;
  let gained = 0;
  for (const p of pairs) {
    const g = correctSampleGain(p);
    if (g === null) continue;
    const pos = Math.max(g, 0);
    const fromSharpening = p.base.c >= 1 ? pos : 0;
    sharp.push(fromSharpening);
    total.push(pos);
    gs += fromSharpening;
    ge += pos - fromSharpening;
    if (pos > 0) gained++;
  }
  const ci = bootstrapRatioOfSums(sharp, total, opts);
  return {
    sharpening: ci.value,
    expansion: ci.value === null ? null : ge / (gs + ge),
    ciLow: ci.ciLow,
    ciHigh: ci.ciHigh,
    gainFromSharpening: gs,
    gainFromExpansion: ge,
    problems: sharp.length,
    gainedProblems: gained,
    replicates: ci.replicates,
  };
}
