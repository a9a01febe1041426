/**
 * The maj@k of the report before issue 11, kept as the benchmark's baseline for the "report with
 * maj@k within 1.5x of today's time" figure (as bench/baseline.py is the indexing baseline): answers
 * grouped by a string normaliser (no CAS), and every k re-grouping every problem's answers
 * (`majAtKDetailed` per problem and k, as `datasetMajAtK` did). The vote itself (exact enumeration or
 * seeded Monte Carlo) is the unchanged `majAtKDetailed`; brace unwrapping is today's `unwrapCommand`
 * (the same loop). Not used by the product.
 */
import { unwrapCommand } from '../src/core/answers/surface';
import { majAtKDetailed, type VoteSample } from '../src/core/metrics';

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
      const r = majAtKDetailed(samples, k, {
        draws: opts.draws,
        seed: (opts.seed + i) >>> 0,
        normalize: legacyNormalizeAnswer,
      });
      if (r.value === null) return;
      s += r.value;
      used++;
    });
    return { k, value: used ? s / used : null, problems: used };
  });
}
