/**
 * Answer equivalence (when two final answers are the same value written differently): the one
 * module every comparison of final answers uses. Policy and sources: `./equivalence.ts`.
 */
export {
  answerCacheStats,
  answerKey,
  type AnswerKind,
  type CanonicalAnswer,
  CACHE_LIMIT,
  canonicalAnswer,
  clearAnswerCache,
  FINGERPRINT_DIGITS,
  numberKey,
  RELATIVE_TOLERANCE,
  SIGNIFICANT_DIGITS,
} from './equivalence';
export {
  encodeReferenceList,
  hasReference,
  keyMatchesReference,
  MIN_PLACES_AGAINST_IRRATIONAL,
  referenceAlternatives,
  sameAnswer,
} from './reference';
export { casLoaded, casStatus } from './cas';
export { measurementUnit, surfaceForm, unicodeToLatex } from './surface';
