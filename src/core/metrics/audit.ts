/**
 * Audit helper: compare the figures a results folder reports about itself (its own summary.json)
 * with the figures recomputed from its raw samples. Real folders disagree with themselves (e.g.
 * rlvr-probe-gsm8k's summary.json says SFT sample accuracy 0.533 while its raw rollouts give
 * 133/240 = 0.554), so the product flags such disagreements instead of trusting either silently.
 */

/** A figure that differs between the stored summary and the recomputation. */
export interface FigureDisagreement {
  /** Metric name (the key in both records). */
  metric: string;
  /** Stored value; `null` when the metric is only in the recomputed record. */
  stored: number | null;
  /** Recomputed value; `null` when the metric is only in the stored record. */
  recomputed: number | null;
}

/**
 * Lists the metrics whose stored and recomputed values disagree.
 *
 * Two finite values agree when |stored - recomputed| <= tol * max(1, |stored|, |recomputed|)
 * (absolute for values up to 1 such as rates, relative for large counts). Two NaNs agree; equal
 * infinities agree. A metric present on one side only is reported with `null` on the other side.
 * Output is sorted by metric name.
 *
 * @param tol non-negative tolerance, default 1e-9.
 * @throws RangeError for a negative or NaN tol.
 */
export function compareFigures(
  stored: Readonly<Record<string, number>>,
  recomputed: Readonly<Record<string, number>>,
  tol = 1e-9,
): FigureDisagreement[] {
  if (!(tol >= 0)) throw new RangeError(`tol must be >= 0, got ${String(tol)}`);
  const out: FigureDisagreement[] = [];
  const keys = new Set([...Object.keys(stored), ...Object.keys(recomputed)]);
  for (const metric of [...keys].sort()) {
    const hasS = Object.hasOwn(stored, metric);
    const hasR = Object.hasOwn(recomputed, metric);
    if (!hasS || !hasR) {
      out.push({ metric, stored: hasS ? stored[metric] : null, recomputed: hasR ? recomputed[metric] : null });
      continue;
    }
    const a = stored[metric];
    const b = recomputed[metric];
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    if (a === b) continue;
    if (Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b)))
      continue;
    out.push({ metric, stored: a, recomputed: b });
  }
  return out;
}
