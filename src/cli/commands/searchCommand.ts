import { Command, Option } from 'commander';
import { formatDiagnostics, safe } from '../../core/report/render';
import { searchTerms } from '../../core/index/search';
import { terminalJson } from '../output';
import { type IndexCliOptions, runIndex, withIndexOptions, integerOption } from '../indexing';
import { searchFooter, searchSamples } from '../search';

/** Error diagnostics `search` lists on stderr; the rest are counted (the JSON and `index` list them all). */
const SEARCH_DIAGNOSTICS_SHOWN = 20;

/** The `search` command: the samples whose text holds every word of a query. */
export function addSearchCommand(cmd: Command): void {
  withIndexOptions(cmd.command('search'))
    .description(
      'index <folder> (incrementally) and list the samples whose text holds every word of <query> (any script; the search filter of the Problems tree)',
    )
    .argument('<folder>', 'results folder')
    .argument('<query>', 'words that must all occur in the sample text (case, width and Latin accents ignored)')
    .option(
      '--no-search-index',
      'do not build the rest of the full-text index first: search what it holds, and count the samples not looked through',
    )
    .option(
      '--model <text>',
      'only the model whose id, name or label is this text (case-insensitive), else the models whose id or label contains it',
    )
    .addOption(new Option('--correct', 'only samples graded correct').conflicts('incorrect'))
    .addOption(new Option('--incorrect', 'only samples graded incorrect'))
    .option(
      '--as-typed',
      'only samples holding the query as typed (its characters in order and next to each other); every sample the index matched is read from its file and checked',
    )
    .option('--limit <n>', 'list at most n matches (the total counts all)', integerOption(0))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(
      async (
        folder: string,
        query: string,
        opts: IndexCliOptions & {
          model?: string;
          correct?: boolean;
          incorrect?: boolean;
          limit?: number;
          asTyped?: boolean;
          format: string;
        },
      ) => {
        // a query with no word is a usage error, said before indexing (trial 14 finding 7)
        if (searchTerms(query).length === 0) {
          process.stderr.write(
            `trace-inspector: nothing to search for: the query ${safe(JSON.stringify(query))} has no words (punctuation and symbols are not indexed)\n`,
          );
          process.exitCode = 2;
          return;
        }
        const { index } = await runIndex(folder, opts, true);
        try {
          const correct = opts.correct ? true : opts.incorrect ? false : undefined;
          const result = await searchSamples(index, query, {
            model: opts.model,
            correct,
            limit: opts.limit ?? 20,
            asTyped: opts.asTyped,
          });
          // what was not indexed is said on stderr in either format (trial 14 finding 4)
          for (const w of result.warnings) process.stderr.write(`warning: ${safe(w)}\n`);
          if (result.diagnostics.length > 0) {
            const n = result.diagnostics.length;
            process.stderr.write(
              `${formatDiagnostics(result.diagnostics.slice(0, SEARCH_DIAGNOSTICS_SHOWN))}\n${n > SEARCH_DIAGNOSTICS_SHOWN ? `and ${n - SEARCH_DIAGNOSTICS_SHOWN} more errors (trace-inspector index lists them all)\n` : ''}`,
            );
          }
          if (opts.format === 'json') {
            process.stdout.write(`${terminalJson(result, 2)}\n`);
            return;
          }
          const verdict = (c: boolean | null) => (c === null ? 'ungraded' : c ? 'correct' : 'incorrect');
          for (const m of result.matches) {
            // the problem named as in every warning (trial 7 finding 12)
            process.stdout.write(
              `${safe(m.problem)}  ${safe(m.modelLabel || m.model)}  #${m.sampleIndex}  ${verdict(m.correct)}${m.asTyped ? '' : '  (words apart)'}\n    ${safe(m.snippet)}\n`,
            );
          }
          process.stdout.write(`${searchFooter(result).join('\n')}\n`);
        } finally {
          index.close();
        }
      },
    );
}
