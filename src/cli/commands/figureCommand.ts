import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { compileStepPattern } from '../../core/grouping/series';
import {
  DEFAULT_FIGURE_WIDTH,
  FIGURE_NAMES,
  figureData,
  figureProvenance,
  loadChartTools,
  renderFigure,
} from '../figure';
import { terminalJson } from '../output';
import { integerOption, type IndexCliOptions, runIndex, stopWithoutSamples, withIndexOptions } from '../indexing';

/**
 * A figure width: px (`336`), or inches (`3.5in`, at 96 px to the inch) or centimetres (`8.5cm`). At least 160 px.
 * @throws InvalidArgumentError otherwise.
 */
export function parseFigureWidth(v: string): number {
  const m = /^(\d+(?:\.\d+)?)(px|in|cm)?$/.exec(v.trim());
  if (!m) throw new InvalidArgumentError('a width in px (336), inches (3.5in) or cm (8.5cm)');
  const x = Number(m[1]);
  const px = Math.round(m[2] === 'in' ? x * 96 : m[2] === 'cm' ? (x * 96) / 2.54 : x);
  if (px < 160) throw new InvalidArgumentError('at least 160 px (1.7 in)');
  return px;
}

/** The `figure` command: index a folder (incrementally) and write one of its charts as SVG with a provenance JSON. */
export function addFigureCommand(cmd: Command): void {
  withIndexOptions(cmd.command('figure'))
    .description(
      `index <folder> (incrementally) and write a chart as SVG for a paper (print style, caption line with the denominators) and its provenance as <out>.json; <name>: ${FIGURE_NAMES.join(', ')}`,
    )
    .argument('<folder>', 'results folder')
    .argument('<name>', `the figure: ${FIGURE_NAMES.join(', ')}`)
    .requiredOption('-o, --output <file>', 'the SVG file to write (the provenance goes to <file>.json)')
    .option(
      '--width <size>',
      `figure width: px, or with a unit (3.5in, 8.5cm); default ${DEFAULT_FIGURE_WIDTH} px (3.5 in, one column)`,
      parseFigureWidth,
    )
    .option('--base <text>', 'base model: a substring of its id or label (default: guessed from names)')
    .option(
      '--model <text>',
      'draw only this model (its id, name or label, else a substring of the id or label, as search --model; repeat for several); default: pass-at-k the models the overview shows when it opens (at most four), coverage every compared pair',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option('--series <text>', 'training: the checkpoint series (a substring of its name; default: the first)')
    .option(
      '--replicates <n>',
      'bootstrap replicates of the intervals (default: as the report, 2000)',
      integerOption(100),
    )
    .option('--step-pattern <regex>', 'checkpoint step pattern for training series (as report --step-pattern)', (v) => {
      try {
        compileStepPattern(v);
      } catch (e) {
        throw new InvalidArgumentError((e as Error).message);
      }
      return v;
    })
    .action(
      async (
        folder: string,
        name: string,
        opts: IndexCliOptions & {
          output: string;
          width?: number;
          base?: string;
          model?: string[];
          series?: string;
          replicates?: number;
          stepPattern?: string;
        },
      ) => {
        if (!(FIGURE_NAMES as readonly string[]).includes(name))
          throw new Error(`unknown figure "${name}": one of ${FIGURE_NAMES.join(', ')}`);
        // before indexing: a build without the chart bundles fails at once
        const tools = loadChartTools();
        const { abs, index, summary } = await runIndex(folder, opts);
        try {
          if (stopWithoutSamples(summary)) return;
          const width = opts.width ?? DEFAULT_FIGURE_WIDTH;
          const fig = figureData(index, name, {
            base: opts.base,
            models: opts.model,
            series: opts.series,
            replicates: opts.replicates,
            stepPattern: opts.stepPattern,
            width,
          });
          const out = resolve(opts.output);
          writeFileSync(out, await renderFigure(tools, fig));
          const provenance = figureProvenance(fig, abs, out, width);
          // as the report's JSON: C1 controls and bidi overrides from the folder's names as \u escapes
          writeFileSync(`${out}.json`, `${terminalJson(provenance, 2)}\n`);
          if (!opts.quiet) process.stderr.write(`wrote ${out} and ${out}.json\n`);
          process.stdout.write(`${fig.caption}\n`);
        } finally {
          index.close();
        }
      },
    );
}
