import { Command } from 'commander';
import { reportCsv, reportTable } from '../core/report/index';
import { CSV_HEADER, csvCell } from '../core/report/csv';
import { ALL_DATASETS } from '../core/report/render';
import { majJudged } from '../core/report/sections/majAtK';
import { pathLines } from '../core/report/sections/paths';
import { rewardModelLines } from '../core/report/sections/rewardModels';
import { trajectoryLines } from '../core/report/sections/trajectories';
import { escapeControl } from '../core/text/strings';
import { addExportCommand } from './commands/exportCommand';
import { addFigureCommand } from './commands/figureCommand';
import { addIndexCommand } from './commands/indexCommand';
import { addInfoCommand } from './commands/infoCommand';
import { addMcpCommand } from './commands/mcpCommand';
import { addReportCommand } from './commands/reportCommand';
import { addSearchCommand } from './commands/searchCommand';
import { addSqlCommand } from './commands/sqlCommand';
import { toolVersion } from './version';

// the report's renderers, where tests written against the CLI module import them from
export {
  ALL_DATASETS,
  CSV_HEADER,
  csvCell,
  majJudged,
  pathLines,
  reportCsv,
  reportTable,
  rewardModelLines,
  trajectoryLines,
};
// what tests and scripts written against the CLI module import from it
export { defaultDbPath, doneLine, noSamplesMessage } from './indexing';
export { terminalJson } from './output';
export {
  EmptyQueryError,
  pickModels,
  type SearchMatch,
  type SearchResult,
  type SearchScope,
  searchFooter,
  searchSamples,
} from './search';

/** Builds the command-line program (exported for tests). */
export function program(): Command {
  const cmd = new Command('trace-inspector')
    .description('Index sampled reasoning traces and report base-vs-RL metrics (pass@k, coverage, best-of-k).')
    .version(toolVersion())
    .showHelpAfterError('(run with --help for usage)');

  addInfoCommand(cmd);
  addIndexCommand(cmd);
  addReportCommand(cmd);
  addSearchCommand(cmd);
  addSqlCommand(cmd);
  addMcpCommand(cmd);
  addExportCommand(cmd);
  addFigureCommand(cmd);
  return cmd;
}

if (require.main === module) {
  program()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`trace-inspector: ${escapeControl((e as Error).message ?? String(e))}\n`);
      process.exit(1);
    });
}
