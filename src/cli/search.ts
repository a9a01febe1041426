import { safe } from '../core/report/render';
import { readSampleText, readSampleTexts } from '../core/index/sampleText';
import { type SearchIndexStatus, searchIndexStatus, unsearchedSamples } from '../core/index/searchIndex';
import { searchIndexLine } from './indexing';
import { type ModelRow, TraceIndex } from '../core/index/traceIndex';
import { type Diagnostic, diagnosticPlace } from '../core/model';
import { noModelMatches, partialWarning, unreadableWarning } from '../core/report/index';
import { problemNamer } from '../core/grouping/datasets';
import { holdsAsTyped, searchTerms, snippet } from '../core/index/search';
import { plural } from '../core/text/strings';
import { pickModels } from '../core/index/labels';

export { pickModels };

/** One match of `trace-inspector search` (the JSON output's `matches[]`). */
export interface SearchMatch {
  problemId: string;
  dataset: string;
  /** The problem's name as every message gives it (datasets.ts `problemNamer`: `gsm8k · 2` when ids repeat across datasets). */
  problem: string;
  /** The model's display id (`run:name@revision`). */
  model: string;
  /**
   * The model's label, as the report's tables and the tree name it (`Qwen/Qwen2.5-7B` for the id
   * `Qwen__Qwen2.5-7B:Qwen/Qwen2.5-7B`): the text lines name the model by it (trial 12 finding 22).
   */
  modelLabel: string;
  sampleIndex: number;
  /** The sample's verdict; null when ungraded. */
  correct: boolean | null;
  /** The text around the first matched term, the term between « and » (search.ts `snippet`). */
  snippet: string;
  /**
   * Whether the text holds the query as typed (search.ts `holdsAsTyped`: its characters in order and next
   * to each other); false for a sample the index matched by the query's words apart or out of order.
   */
  asTyped: boolean;
}

/** What a `trace-inspector search` looked through: the denominators of its counts (trial 14 finding 10). */
export interface SearchScope {
  /** The models searched, in the index's order: display id and label. */
  models: { model: string; modelLabel: string }[];
  /** Samples of those models with the verdict asked for (every sample the search looked at). */
  samples: number;
  /** Problems with at least one such sample. */
  problems: number;
  /** The filters applied: `--model` text and how it matched (`exact`: equal to one model's id, name or label), and the verdict. */
  filters: {
    model: string | null;
    modelMatch: 'exact' | 'substring' | null;
    verdict: 'correct' | 'incorrect' | null;
  };
}

/** The `search` command's result ({@link searchSamples}). */
export interface SearchResult {
  query: string;
  asTyped: boolean;
  /** Samples the full-text index matched (every word, anywhere). */
  indexMatches: number;
  /** Samples counted as matches: `indexMatches`, or with `asTyped` those holding the query as typed. */
  total: number;
  /** Problems the `total` matches are in. */
  problems: number;
  matches: SearchMatch[];
  searched: SearchScope;
  /**
   * Samples of the models and verdict searched that are not in the full-text index yet (its build was left
   * for later or stopped, or a file changed since it was indexed): not looked through, so the counts above may
   * be short by matches among them. 0 when the full-text index is complete.
   */
  notSearched: number;
  /** How far the full-text index is built: `indexed` of `samples` (core `searchIndexStatus`). */
  searchIndex: SearchIndexStatus;
  /**
   * Every error diagnostic of the folder: a file, record, line or sample that was not indexed, so its text
   * is in no search (trial 14 finding 4: a count must never be silently over less than the folder).
   */
  diagnostics: Diagnostic[];
  /** The same said per searched model (report.ts `unreadableWarning`, `partialWarning`), and for files no model is read from. */
  warnings: string[];
}

/** Thrown for a query with no word to search for (`''`, `'+'`, `'*'`): a usage error, not a search that found nothing. */
export class EmptyQueryError extends Error {}

/**
 * The `search` command's result: samples of the index whose text holds every term of `query`
 * (TraceIndex.searchSamples), of the models `model` picks ({@link pickModels}; every model when absent;
 * an error listing the models when none does), with the verdict asked for; `total` counts every match
 * (`problems` the problems they are in), `matches` the first `limit`, each with its snippet and
 * whether it holds the query as typed. `indexMatches` is what the full-text index matched (every term,
 * anywhere); with `asTyped` only the samples holding the query as typed are kept and counted (`total`):
 * every sample the index matched is read from its results file and checked, so it costs one read per
 * record of a matched sample. `searched` is what was looked through (models, samples, problems, filters);
 * `diagnostics` and `warnings` what of the folder was not indexed. Throws EmptyQueryError for a query
 * with no word (search.ts `searchTerms` empty), SourceChangedError (naming the file) when a file changed
 * since indexing.
 */
export async function searchSamples(
  index: TraceIndex,
  query: string,
  opts: { model?: string; correct?: boolean; limit: number; asTyped?: boolean },
): Promise<SearchResult> {
  if (searchTerms(query).length === 0)
    throw new EmptyQueryError(
      `nothing to search for: the query ${JSON.stringify(query)} has no words (punctuation and symbols are not indexed)`,
    );
  const models = index.models();
  let picked: ModelRow[] = models;
  let modelMatch: 'exact' | 'substring' | null = null;
  if (opts.model !== undefined) {
    const p = pickModels(models, opts.model);
    if (p.models.length === 0) throw new Error(noModelMatches('--model', opts.model, models));
    picked = p.models;
    modelMatch = p.match;
  }
  const ids = opts.model !== undefined ? picked.map((m) => m.id) : undefined;
  const byId = new Map(models.map((m) => [m.id, m]));
  const filter = { models: ids, correct: opts.correct };
  // with asTyped every match of the index is checked (LIMIT -1: no limit in SQLite), else the first `limit`
  const found = index.searchSamples(query, { ...filter, limit: opts.asTyped ? -1 : opts.limit });
  const indexMatches = found.total;
  let total = found.total;
  let problems = found.problems;
  // the samples to show, with their texts (read from the results files, checked against their content hash)
  const shown: { sample: (typeof found.samples)[number]; text: string }[] = [];
  if (opts.asTyped) {
    // the matches come a problem and model at a time: their texts are read in one go and only the texts of
    // the samples shown are kept
    total = 0;
    const held = new Set<number>();
    let group = '';
    let texts = new Map<number, string>();
    for (const s of found.samples) {
      const key = `${s.problemId}:${s.modelId}`;
      if (key !== group) {
        group = key;
        texts = new Map((await readSampleTexts(index, s.problemId, s.modelId)).map((t) => [t.id, t.text]));
      }
      const text = texts.get(s.id) ?? '';
      if (!holdsAsTyped(text, query)) continue;
      total++;
      held.add(s.problemId);
      if (shown.length < opts.limit) shown.push({ sample: s, text });
    }
    problems = held.size;
  } else {
    for (const s of found.samples) shown.push({ sample: s, text: (await readSampleText(index, s.id)) ?? '' });
  }
  const name = problemNamer(index);
  const matches: SearchMatch[] = shown.map(({ sample: s, text }) => {
    const p = index.problem(s.problemId);
    return {
      problemId: p?.problemId ?? '',
      dataset: p?.dataset ?? '',
      problem: p ? name(s.problemId) : '',
      model: byId.get(s.modelId)?.displayId ?? '',
      modelLabel: byId.get(s.modelId)?.label ?? '',
      sampleIndex: s.sampleIndex,
      correct: s.correct,
      snippet: snippet(text, query),
      asTyped: holdsAsTyped(text, query),
    };
  });
  const counts = index.searchedCounts(filter);
  const notSearched = unsearchedSamples(index, filter);
  const searched: SearchScope = {
    models: picked.map((m) => ({ model: m.displayId, modelLabel: m.label })),
    // the samples looked through: those in the full-text index
    samples: counts.samples - notSearched,
    problems: counts.problems,
    filters: {
      model: opts.model ?? null,
      modelMatch,
      verdict: opts.correct === true ? 'correct' : opts.correct === false ? 'incorrect' : null,
    },
  };
  const { diagnostics, warnings } = notIndexed(index, picked, models);
  return {
    query,
    asTyped: opts.asTyped === true,
    indexMatches,
    total,
    problems,
    matches,
    searched,
    notSearched,
    searchIndex: searchIndexStatus(index),
    diagnostics,
    warnings,
  };
}

/**
 * What of the folder is in no search (trial 14 finding 4): every error diagnostic (a file, line, record or
 * sample not indexed), and the warnings `report` gives for the searched models (records that could not be
 * read, samples skipped, a partly indexed model), plus one for the errors of files no model's sample comes
 * from (a file every record of which failed), with their places (the first three).
 */
function notIndexed(
  index: TraceIndex,
  searched: readonly ModelRow[],
  all: readonly ModelRow[],
): { diagnostics: Diagnostic[]; warnings: string[] } {
  const diagnostics = index.diagnostics().filter((d) => d.severity === 'error');
  const warnings: string[] = [];
  const attributed = new Set<string>();
  const key = (d: Diagnostic) => `${d.file}\n${d.line}\n${d.entry ?? ''}\n${d.message}`;
  for (const m of all) {
    const lines = index.unreadableRecords(m.id);
    for (const d of lines) attributed.add(key(d));
    if (!searched.includes(m)) continue;
    if (m.partial) warnings.push(partialWarning(m.label));
    const w = unreadableWarning(m.label, index.recordsWithSamplesLost(m.id));
    if (w) warnings.push(w);
  }
  const other = diagnostics.filter((d) => !attributed.has(key(d)));
  if (other.length > 0) {
    const where = other.slice(0, 3).map((d) => diagnosticPlace(d));
    warnings.push(
      `${plural(other.length, 'error')} in files no searched sample is read from, or about a whole file (${where.join(', ')}${other.length > 3 ? ` and ${other.length - 3} more` : ''}): what they name is in no search`,
    );
  }
  return { diagnostics, warnings };
}

/** The lines `search` prints under its matches: what was counted over what (trial 14 finding 10). */
export function searchFooter(r: SearchResult): string[] {
  const out: string[] = [];
  const s = (n: number) => (n === 1 ? '' : 's');
  out.push(
    r.asTyped
      ? `${r.matches.length} of ${r.total} sample${s(r.total)} holding the query as typed shown (of ${r.indexMatches} the full-text index matched, each checked against its text)`
      : `${r.matches.length} of ${r.total} matching sample${s(r.total)} shown`,
  );
  const sc = r.searched;
  const verdict = sc.filters.verdict ? `${sc.filters.verdict} ` : '';
  const what = r.asTyped ? 'holding the query as typed' : 'matching';
  out.push(
    `${r.total} ${what} sample${s(r.total)} in ${plural(r.problems, 'problem')}, of ${sc.samples} ${verdict}sample${s(sc.samples)} searched (${plural(sc.problems, 'problem')}, ${plural(sc.models.length, 'model')})`,
  );
  const names = sc.models.map((m) => safe(m.modelLabel || m.model));
  const shownNames =
    names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ');
  const how =
    sc.filters.model === null
      ? 'every model'
      : sc.filters.modelMatch === 'exact'
        ? `--model "${safe(sc.filters.model)}": equal to its id, name or label`
        : `--model "${safe(sc.filters.model)}": contained in id or label`;
  const filters = [how, ...(sc.filters.verdict ? [`--${sc.filters.verdict}`] : [])];
  out.push(`models searched: ${shownNames} (${filters.join('; ')})`);
  if (r.notSearched > 0)
    out.push(
      `${searchIndexLine(r.searchIndex)}: ${plural(r.notSearched, `${verdict}sample`)} of the models searched not looked through (trace-inspector index builds the rest)`,
    );
  const apart = r.matches.filter((m) => !m.asTyped).length;
  if (!r.asTyped && apart > 0) {
    out.push(
      `${apart} of the ${r.matches.length} shown hold the query's words apart or in another order, not as typed (the index keeps no positions); --as-typed keeps only the samples holding it as typed`,
    );
  }
  return out;
}
