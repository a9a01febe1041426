import { Command, Option } from 'commander';
import { formatDiagnostics } from '../../core/report/render';
import { terminalJson } from '../output';
import { searchIndexStatus } from '../../core/index/searchIndex';
import { type IndexCliOptions, runIndex, searchIndexLine, withIndexOptions } from '../indexing';

/** The `index` command: index every supported results file under a folder (incremental). */
export function addIndexCommand(cmd: Command): void {
  withIndexOptions(cmd.command('index'))
    .description(
      'index every supported results file under <folder> into SQLite (incremental), then build the full-text index of the sample texts',
    )
    .argument('<folder>', 'results folder')
    .option(
      '--no-search-index',
      'stop once the figures are ready: leave the full-text index to a later index or search (searches meanwhile count the samples they could not look through)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (folder: string, opts: IndexCliOptions & { format: string }) => {
      const { index, summary, search } = await runIndex(folder, opts, true);
      const searchStatus = search ?? searchIndexStatus(index);
      index.close();
      // nothing indexed (no results file, or none with a readable sample): a failure, not an empty success
      if (summary.samples === 0) process.exitCode = 1;
      if (opts.format === 'json') {
        process.stdout.write(
          `${terminalJson({ filesIndexed: summary.filesIndexed, filesSkipped: summary.filesSkipped, filesRemoved: summary.filesRemoved, samples: summary.samples, searchIndex: { samples: searchStatus.samples, indexed: searchStatus.indexed }, annotationsOfChangedFiles: summary.annotationsOfChangedFiles, diagnostics: summary.diagnostics }, 2)}\n`,
        );
      } else {
        process.stdout.write(
          `indexed ${summary.filesIndexed} files, skipped ${summary.filesSkipped} unchanged, removed ${summary.filesRemoved}; ${summary.samples} samples in the index\n`,
        );
        if (searchStatus.indexed < searchStatus.samples) process.stdout.write(`${searchIndexLine(searchStatus)}\n`);
        if (summary.diagnostics.length) process.stdout.write(`${formatDiagnostics(summary.diagnostics)}\n`);
      }
    });
}
