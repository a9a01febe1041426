/**
 * English function words for the novel-span display (docs/similarity.md, "Novel spans"): a run of novel
 * tokens made only of these words and punctuation marks is shown as not novel, so that a lone "the" or
 * "his" the base never wrote in that 3-gram is not highlighted as new reasoning. Lower case, as the
 * similarity tokenizer yields words. The list is the closed classes of English (articles, pronouns,
 * prepositions, conjunctions, auxiliaries, common adverbs of degree); content words (nouns, verbs such as
 * "multiply", numbers, math) are never in it.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an the this that these those it its it's he him his she her hers they them their theirs we us our ours " +
    'i me my mine you your yours one ones itself himself herself themselves ourselves myself yourself ' +
    'and or but nor so yet if then than as because while although though whether either neither both ' +
    'of in on at to from by for with about into onto over under after before between through during without ' +
    'within along across per up down out off above below near upon ' +
    'is are was were be been being am do does did has have had having will would shall should can ' +
    'could may might must ' +
    'not no also just only very too quite rather even still again already now here there ' +
    'which who whom whose what when where why how all any each every some such same other another ' +
    "let let's s 't"
  ).split(/\s+/),
);

/** Whether a similarity token is punctuation (one code point of Unicode class P). */
export function isPunctuationToken(token: string): boolean {
  return /^\p{P}$/u.test(token);
}

/** Whether a run of tokens is made only of {@link STOPWORDS} and punctuation (true for an empty run). */
export function isStopwordRun(tokens: readonly string[]): boolean {
  return tokens.every((t) => STOPWORDS.has(t) || isPunctuationToken(t));
}
