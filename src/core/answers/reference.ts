/**
 * Comparing an answer with a problem's reference answer: the one decision `report --regrade`,
 * `--tool-grading`, maj@k's "is the winning group correct" and the grader audit's "what the
 * reference says" share. Decided once per distinct (reference, answer key) pair and cached.
 *
 * A reference may be a list of accepted answers (Inspect's `target: ["12", "twelve"]`, a JSON array
 * in other formats): the readers store it with {@link encodeReferenceList}, and an answer matches
 * when it matches any of them.
 *
 * Beyond equal keys (`./equivalence.ts`), the comparison with a reference accepts (each rule is
 * directed: the reference says what it accepts):
 * - what the reference's canonical form accepts (`CanonicalAnswer.accepts`): a numeral in another
 *   base accepts its digits written without a subscript (`1010_2` accepts `1010`, never `10` nor
 *   `1010_{10}`; the key alone cannot tell `1010_{10}` from `1010`, so `sameAnswer` checks that and
 *   {@link keyMatchesReference}, which judges a group by its key, does not);
 * - a reference `name = expression` (`y = 2x+3`, keyed as its value `2x+3`) also accepts the equation
 *   `name - expression = 0` in any arrangement or multiple (`2x - y + 3 = 0`, `equationKey`);
 * - a decimal with at least {@link MIN_PLACES_AGAINST_IRRATIONAL} places against an irrational value
 *   (`~` key): equal when the decimal is the value rounded at its last digit (|D - v| <= half a unit
 *   there) or truncated there (toward zero, less than a unit), within the 12-digit precision of the `~`
 *   key: `1.414214` and `1.414213` are `\sqrt2`, `4.123105625617661` is `\sqrt{17}`; `1.4142` (4 places)
 *   and `1.414215` are not. (Math-Verify rounds both to 6
 *   decimals, so it also calls `0.0000001` and `0.0000002` equal; the rule here scales with the decimal.)
 * Units: when both carry a unit of measurement this module knows and they differ, no match
 * (`5 m` against `5 cm`); see `sameAnswer`.
 */
import { type CanonicalAnswer, canonicalAnswer, equationKey } from './equivalence';

/** Fewest digits after the point a decimal needs to be compared with an irrational reference by rounding. */
export const MIN_PLACES_AGAINST_IRRATIONAL = 6;

/**
 * The stored form of a reference that is a list of accepted answers: one answer as itself, several as
 * a JSON array of strings (`["12","twelve"]`); `null` for none. Numbers become their decimal strings.
 */
export function encodeReferenceList(parts: readonly (string | number)[]): string | null {
  const xs = parts.map((p) => String(p)).filter((p) => p.trim() !== '');
  if (xs.length === 0) return null;
  return xs.length === 1 ? xs[0] : JSON.stringify(xs);
}

/**
 * The accepted answers of a stored reference: the elements of a JSON array of two or more strings
 * ({@link encodeReferenceList}), else the reference itself; `[]` for none. A reference that merely
 * looks like an array of numbers (`[1,2]`, an interval) is one answer.
 */
export function referenceAlternatives(reference: string | null | undefined): string[] {
  if (reference === null || reference === undefined) return [];
  const t = reference.trim();
  if (t.startsWith('["') && t.endsWith('"]')) {
    try {
      const v: unknown = JSON.parse(t);
      if (Array.isArray(v) && v.length > 1 && v.every((x) => typeof x === 'string')) return v as string[];
    } catch {
      // not a list: one answer
    }
  }
  return [reference];
}

/** True when the reference has at least one alternative with an answer key (a usable reference). */
export function hasReference(reference: string | null | undefined): boolean {
  return referenceAlternatives(reference).some((r) => canonicalAnswer(r) !== null);
}

/** The value of an exact terminating-decimal key and its places (`1.414214` -> 6), or `null` (fractions, `~` keys, ...). */
function decimalKey(key: string): { value: number; places: number } | null {
  const m = /^-?\d+(?:\.(\d+))?$/.exec(key);
  return m ? { value: Number(key), places: m[1]?.length ?? 0 } : null;
}

/** A written decimal against an irrational value (`~` key): rounded or truncated at its last digit. */
function decimalMatchesIrrational(decimal: string, approx: string): boolean {
  const d = decimalKey(decimal);
  if (!d || d.places < MIN_PLACES_AGAINST_IRRATIONAL || !approx.startsWith('~')) return false;
  const v = Number(approx.slice(1));
  if (!Number.isFinite(v)) return false;
  // rounded at the last digit (half a unit), or truncated there (toward zero, less than a unit); the `~`
  // key holds 12 significant digits, so no finer comparison than that is possible
  const unit = 10 ** -d.places;
  const slack = 1e-11 * Math.abs(v);
  if (Math.abs(d.value - v) <= unit / 2 + slack) return true;
  return (
    Math.sign(d.value) !== -Math.sign(v) &&
    Math.abs(d.value) <= Math.abs(v) + slack &&
    Math.abs(v) - Math.abs(d.value) < unit + slack
  );
}

/** Whether an answer key matches one reference alternative's canonical form (no units). */
function keyMatches(ref: CanonicalAnswer, key: string): boolean {
  if (key === ref.key || ref.accepts?.includes(key)) return true;
  // `y = 2x+3` accepts the equation however rearranged (`2x - y + 3 = 0`)
  if (ref.labelled && key.startsWith('eq(') && equationKey(ref.labelled.name, ref.labelled.value) === key) return true;
  return decimalMatchesIrrational(key, ref.key) || decimalMatchesIrrational(ref.key, key);
}

/** Most (reference, answer key) decisions kept; beyond it the cache starts over (decisions do not change). */
const PAIR_CACHE_LIMIT = 200_000;
const pairCache = new Map<string, boolean>();

/**
 * Whether an answer with canonical key `key` matches the reference (any of its alternatives), by the
 * rules of this module (units aside). Decided once per distinct (reference, key) pair and cached; maj@k
 * judges a winning answer group by it, so every spelling of one group gets the same decision.
 * `false` when the reference has no usable alternative.
 */
export function keyMatchesReference(key: string, reference: string | null | undefined): boolean {
  if (reference === null || reference === undefined) return false;
  const id = `${key}\u0000${reference}`;
  const hit = pairCache.get(id);
  if (hit !== undefined) return hit;
  const out = referenceAlternatives(reference).some((r) => {
    const c = canonicalAnswer(r);
    return c !== null && keyMatches(c, key);
  });
  if (pairCache.size >= PAIR_CACHE_LIMIT) pairCache.clear();
  pairCache.set(id, out);
  return out;
}

/**
 * Whether an answer matches the reference: its key matches one alternative ({@link keyMatchesReference})
 * and the two do not carry different units of measurement (`5 m` vs `5 cm`, `\frac12 \text{ cm}` vs
 * `\frac12 \text{ cm}^2`; a unit on one side only, or a unit `measurementUnit` does not know, is no
 * difference: `16 hours` is `16`). This is the comparison with a reference (`--regrade`,
 * `--tool-grading`); grouping (maj@k's vote, the grader audit) uses the keys alone, because "same
 * value, no conflicting unit" is not transitive (5 m ~ 5 ~ 5 cm). `false` when either is no answer.
 * @param answer the sample's extracted answer.
 * @param reference the problem's reference answer (a list of accepted answers: {@link encodeReferenceList}).
 */
export function sameAnswer(answer: string | null | undefined, reference: string | null | undefined): boolean {
  const a = canonicalAnswer(answer);
  if (a === null || reference === null || reference === undefined) return false;
  return referenceAlternatives(reference).some((r) => {
    const c = canonicalAnswer(r);
    if (c === null || !keyMatchesReference(a.key, r) || (a.unit && c.unit && a.unit !== c.unit)) return false;
    // `1010_2` accepts the digits `1010` written alone, not `1010_{10}` (one thousand and ten)
    return !(a.subscript !== undefined && a.key !== c.key && c.accepts?.includes(a.key));
  });
}
