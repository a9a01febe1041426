/**
 * Similarity of a model's samples to the base model's samples of the same problem.
 * See docs/similarity.md for the measure and how to read it.
 */
export {
  LexedText,
  SimToken,
  TokenSink,
  lexForSimilarity,
  lexText,
  tokenize,
  tokenizeWithOffsets,
  normalizeForSimilarity,
} from './tokenize';
export {
  DEFAULT_NGRAM,
  DEFAULT_NUM_HASHES,
  DEFAULT_SEED,
  MinHashFamily,
  estimateJaccard,
  hashShingle,
  jaccardSorted,
  makeMinHashFamily,
  minHashSignature,
  positionalShingles,
  sortU32,
  toSortedSet,
} from './shingles';
export {
  BaseIndex,
  BaseSampleBaseline,
  DistributionSummary,
  ModelSampleSimilarity,
  Neighbor,
  NovelSpan,
  NoveltyResult,
  PreparedBase,
  ProblemSimilarity,
  prepareBase,
  baselineOf,
  SimilarityOptions,
  buildBaseIndex,
  nearestBaseSamples,
  novelSpans,
  noveltyScore,
  problemSimilarity,
  summarize,
  textJaccard,
  diffWithNearestBase,
} from './baseIndex';
export { DiffSegment, TokenDiffSegment, WordDiffOptions, tokenDiff, wordDiff } from './diff';
export {
  ComputationPath,
  ComputationStep,
  MAX_DEPTH,
  MAX_LINK_TOKENS,
  clearChainMemo,
  computationPath,
  extractSteps,
  pathOfSteps,
  stepsFromTokens,
} from './steps';
export { PathMatch, ProblemPaths, comparePath, problemPaths } from './paths';
export {
  FolderShingles,
  ModelTextMatch,
  ProblemTextSimilarity,
  ShingleIdf,
  TextMatch,
  buildShingleIdf,
  problemTextSimilarity,
  weightedJaccard,
} from './weighted';
