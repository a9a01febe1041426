import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { compileStepPattern } from '../../core/grouping/series';
import {
  DEFAULT_PNG_SCALE,
  type ExportFormat,
  exportFigure,
  figureData,
  loadChartTools,
  loadPngRenderer,
} from '../../extension/figureExport';
import { DEFAULT_FIGURE_WIDTH, FIGURE_NAMES } from '../../shared/printFigures';
import { SPLIT_KINDS, type SplitKindName } from '../../shared/protocol';
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

/**
 * A PNG's scale: pixels per CSS px (`3`), or dots per inch (`300dpi`, at 96 CSS px to the inch). Above 0, at most 20.
 * @throws InvalidArgumentError otherwise.
 */
export function parseScale(v: string): number {
  const m = /^(\d+(?:\.\d+)?)(dpi)?$/.exec(v.trim());
  const x = m ? (m[2] ? Number(m[1]) / 96 : Number(m[1])) : Number.NaN;
  if (!(x > 0 && x <= 20))
    throw new InvalidArgumentError('pixels per px above 0 and at most 20 (3), or dots per inch (300dpi)');
  return x;
}

/** The format `-o <file>` asks for by its extension: .svg, .png, .csv or .json (the values drawn). */
export function outputFormat(file: string): ExportFormat {
  const ext = extname(file).toLowerCase().slice(1);
  if (ext === 'svg' || ext === 'png' || ext === 'csv' || ext === 'json') return ext;
  throw new Error(`-o ${file}: the file's extension says the format: .svg, .png (figure), .csv or .json (its values)`);
}

/** The `figure` command: index a folder (incrementally) and write one of its charts as SVG with a provenance JSON. */
export function addFigureCommand(cmd: Command): void {
  withIndexOptions(cmd.command('figure'))
    .description(
      `index <folder> (incrementally) and write a chart as SVG or PNG for a paper (print style, caption line with the denominators) and its provenance as <out>.json, or the values it draws as CSV or JSON; <name>: ${FIGURE_NAMES.join(', ')}`,
    )
    .argument('<folder>', 'results folder')
    .argument('<name>', `the figure: ${FIGURE_NAMES.join(', ')}`)
    .requiredOption(
      '-o, --output <file>',
      'the file to write, its format by extension: .svg or .png (the figure; its provenance goes to <file>.json), .csv or .json (the values drawn)',
    )
    .option(
      '--scale <n>',
      `PNG: pixels per px of the figure (default ${DEFAULT_PNG_SCALE}: 288 dpi), or dots per inch (300dpi)`,
      parseScale,
    )
    .option('--level <level>', 'pass-at-k: the curves of one difficulty level (default: all problems pooled)')
    .option(
      '--splits <kind>',
      `splits: the split kind (${SPLIT_KINDS.join(', ')}; default: as the Splits tab)`,
      (v) => {
        if (!(SPLIT_KINDS as readonly string[]).includes(v))
          throw new InvalidArgumentError(`one of ${SPLIT_KINDS.join(', ')}`);
        return v;
      },
    )
    .option('--relative', 'splits: each cell against the base on the same split (default: pass@1)')
    .option('--n <n>', 'reward-models: the N of best-of-N (default 4, else the largest)', integerOption(1))
    .option('--problem <id>', 'problem: the problem (its id, or dataset/id)')
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
          scale?: number;
          level?: string;
          splits?: SplitKindName;
          relative?: boolean;
          n?: number;
          problem?: string;
        },
      ) => {
        if (!(FIGURE_NAMES as readonly string[]).includes(name))
          throw new Error(`unknown figure "${name}": one of ${FIGURE_NAMES.join(', ')}`);
        // said before the figure is computed (seconds on a large folder), not as the file system's ENOENT after
        const outDir = dirname(resolve(opts.output));
        if (!existsSync(outDir) || !statSync(outDir).isDirectory())
          throw new Error(`no folder ${outDir} to write ${opts.output} in: create it first`);
        const format = outputFormat(opts.output);
        // before indexing: a build without the chart bundles, the PNG renderer or its font fails at once
        const tools = loadChartTools();
        const png = format === 'png' ? await loadPngRenderer() : undefined;
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
            level: opts.level,
            splits: opts.splits,
            splitsMode: opts.relative ? 'relative' : undefined,
            n: opts.n,
            problem: opts.problem,
            width,
          });
          const out = resolve(opts.output);
          const file = await exportFigure(fig, abs, { format, scale: opts.scale, file: out }, tools, png);
          writeFileSync(out, file.bytes);
          if (file.provenance !== undefined) writeFileSync(`${out}.json`, file.provenance);
          if (!opts.quiet)
            process.stderr.write(`wrote ${out}${file.provenance !== undefined ? ` and ${out}.json` : ''}\n`);
          process.stdout.write(`${fig.caption}\n`);
        } finally {
          index.close();
        }
      },
    );
}
