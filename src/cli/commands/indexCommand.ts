import { Command, Option } from 'commander';
import { formatDiagnostics } from '../../core/report/render';
import { terminalJson } from '../output';
import { type IndexCliOptions, runIndex, withIndexOptions } from '../indexing';

/** The `index` command: index every supported results file under a folder (incremental). */
export function addIndexCommand(cmd: Command): void {
  withIndexOptions(cmd.command('index'))
    .description('index every supported results file under <folder> into SQLite (incremental)')
    .argument('<folder>', 'results folder')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (folder: string, opts: IndexCliOptions & { format: string }) => {
      const { index, summary } = await runIndex(folder, opts);
      index.close();
      // nothing indexed (no results file, or none with a readable sample): a failure, not an empty success
      if (summary.samples === 0) process.exitCode = 1;
      if (opts.format === 'json') {
        process.stdout.write(
          `${terminalJson({ filesIndexed: summary.filesIndexed, filesSkipped: summary.filesSkipped, filesRemoved: summary.filesRemoved, samples: summary.samples, annotationsOfChangedFiles: summary.annotationsOfChangedFiles, diagnostics: summary.diagnostics }, 2)}\n`,
        );
      } else {
        process.stdout.write(
          `indexed ${summary.filesIndexed} files, skipped ${summary.filesSkipped} unchanged, removed ${summary.filesRemoved}; ${summary.samples} samples in the index\n`,
        );
        if (summary.diagnostics.length) process.stdout.write(`${formatDiagnostics(summary.diagnostics)}\n`);
      }
    });
}
