/**
 * Figures for a paper, drawn in Node (no `vscode`): the CLI's `trace-inspector figure` and the extension's
 * "Export figure…" / "Export data…" (run in the figures worker, ./figuresWorker.ts) both call this module, so a
 * figure exported from the overview and one written by the CLI are the same bytes. The data comes from the
 * overview's computations (./panelData.ts, ./splitsData.ts), the print-style specs from src/shared/printFigures.ts;
 * the spec is compiled and drawn as SVG by the extension host's own bundles (dist/vegaLiteCompiler.js,
 * dist/vegaRenderer.js), and the SVG drawn as PNG by resvg (@resvg/resvg-wasm: one portable WebAssembly file, no
 * per-platform binary in the VSIX) with the DejaVu Sans font shipped in media/fonts (resvg draws no text at all
 * without a font, and the figure's text was laid out with DejaVu Sans's widths). Nothing here reads the editor's
 * theme: the same folder and options give the same bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { terminalJson } from '../cli/output';
import { toolVersion } from '../cli/version';
import { comparisonBase, defaultFocusModel, guessBaseModel, pickModel, pickModels } from '../core/index/labels';
import type { TraceIndex } from '../core/index/traceIndex';
import { noModelMatches, REPORT_REPLICATES } from '../core/report/index';
import { csvCell } from '../core/report/csv';
import { escapeControl } from '../core/text/strings';
import { overviewData, problemData, type Roles, rewardModelsData, trainingData, viewModels } from './panelData';
import { splitsData } from './splitsData';
import { defaultVisibleModels, type VegaLiteCompile } from '../shared/chartSpecs';
import { DEFAULT_GLYPH_WIDTHS, type GlyphWidths } from '../shared/glyphWidths';
import {
  coverageFigure,
  DEFAULT_FIGURE_WIDTH,
  type DrawnFigure,
  type DrawnValue,
  FIGURE_NAMES,
  FIGURE_SEED,
  type FigureData,
  type FigureName,
  passAtKFigure,
  problemFigure,
  rewardModelsFigure,
  splitsFigure,
  trainingFigure,
} from '../shared/printFigures';
import { SPLIT_KINDS, type OverviewData, type SplitKindName } from '../shared/protocol';

/** Options of {@link figureData}. */
export interface FigureOptions {
  /** Substring of the base model's id or label (the report's `--base`); guessed from names when absent. */
  base?: string;
  /**
   * The models to draw, each text picked as `search --model` picks (an exact id, name or label, else a substring
   * of the id or label); absent or empty: the models the overview shows when it
   * opens (chartSpecs `defaultVisibleModels`: every model up to four, else the base, the model in focus and its run's).
   */
  models?: string[];
  /** Bootstrap replicates of the intervals (default the report's {@link REPORT_REPLICATES}, so both agree). */
  replicates?: number;
  /** Width of the figure in px (default {@link DEFAULT_FIGURE_WIDTH}). */
  width?: number;
  /** Checkpoint series to draw (`training`): a substring of its name; the first series when absent. */
  series?: string;
  /** Step pattern of checkpoint series (the report's `--step-pattern`). */
  stepPattern?: string;
  /** pass-at-k: one difficulty level's curves instead of the pooled ones (a value of the folder's levels). */
  level?: string;
  /** splits: the split kind (default: the Splits tab's, the first of level, subject, dataset with two splits). */
  splits?: SplitKindName;
  /** splits: pass@1 per cell (default) or the difference with the base (`relative`). */
  splitsMode?: 'passAt1' | 'relative';
  /** reward-models: the N of best-of-N (default the tab's: 4, else the largest). */
  n?: number;
  /** problem: the problem, by its id in the dataset (`HumanEval/2`, `17`) or `dataset/id`; or its index row id. */
  problem?: string | number;
  /**
   * The base and the model in focus as the extension has them (the user's choice); when given, `base` is not used.
   * The CLI leaves it out: `--base`, else the extension's guess.
   */
  roles?: Roles;
}

/**
 * The provenance JSON written beside a figure (`<out>.json`): which tool drew it from which folder, the
 * models, settings, caption and every value drawn, so a number in a paper can be traced back.
 */
export interface FigureProvenance {
  tool: { name: 'trace-inspector'; version: string };
  figure: FigureName;
  folder: string;
  /** The figure's (or the data's) file name, without its folder. */
  file: string;
  /** `svg` or `png`; `json` for the values' own file (Export data… as JSON). */
  format: ExportFormat;
  /** The figure's width in CSS px (its drawn size; a PNG's pixels are `width * scale`). */
  width: number;
  /** PNG: pixels per CSS px; 1 for SVG. */
  scale: number;
  caption: string;
  models: FigureData['models'];
  settings: FigureData['settings'];
  values: DrawnValue[];
}

/** What a figure is written as. */
export const FIGURE_FORMATS = ['svg', 'png'] as const;
export type FigureFormat = (typeof FIGURE_FORMATS)[number];

/** Most pixels a PNG may have on a side (a page at 600 dpi is about 5000). */
export const MAX_PNG_SIDE = 10_000;

/**
 * The roles the overview's data is computed with: `opts.roles` (the extension's); `--base` as the report takes it; else the extension's guess
 * (src/extension/session.ts `baseModel`): the model in focus is the final model of the last run (core
 * `defaultFocusModel`) and the base is that model's own run's base, else the folder's base-like model.
 */
export function figureRoles(index: TraceIndex, opts: FigureOptions): Roles {
  if (opts.roles) return { ...opts.roles, stepPattern: opts.stepPattern ?? opts.roles.stepPattern };
  const models = index.models();
  if (opts.base) {
    const i = pickModel(models, opts.base);
    if (i < 0) throw new Error(noModelMatches('--base', opts.base, models));
    return { baseId: models[i].id, baseIsChoice: true, stepPattern: opts.stepPattern };
  }
  const i = models.length > 0 ? guessBaseModel(models) : -1;
  const guess = i >= 0 ? models[i] : undefined;
  const focus = defaultFocusModel(models);
  const base = (focus && comparisonBase(models, focus, guess, false)) || guess;
  return { baseId: base?.id, focusId: focus?.id, baseIsChoice: false, stepPattern: opts.stepPattern };
}

/**
 * The ids of the models `opts.models` names, each text picked as `search --model` picks (search.ts `pickModels`:
 * the models whose id, name or label equals it, else those whose id or label contains it); undefined when it names
 * none. @throws Error (with the models and the nearest one) for a text that picks no model.
 */
function chosenModels(index: TraceIndex, opts: FigureOptions): Set<number> | undefined {
  if (!opts.models?.length) return undefined;
  const models = viewModels(index);
  const out = new Set<number>();
  for (const q of opts.models) {
    const hits = pickModels(models, q).models;
    if (hits.length === 0) throw new Error(noModelMatches('--model', q, models));
    for (const m of hits) out.add(m.id);
  }
  return out;
}

/**
 * A model's graded samples per problem over its problems with graded samples (of difficulty level `level` when
 * given): `8`, or `2..8` when they differ.
 */
export function nRange(index: TraceIndex, level?: string): Map<number, string> {
  const lo = new Map<number, number>();
  const hi = new Map<number, number>();
  const levels = level === undefined ? undefined : index.levelByProblem();
  for (const r of index.allStats()) {
    if (r.graded === 0 || (levels && levels.get(r.problemId) !== level)) continue;
    lo.set(r.modelId, Math.min(lo.get(r.modelId) ?? Infinity, r.graded));
    hi.set(r.modelId, Math.max(hi.get(r.modelId) ?? 0, r.graded));
  }
  return new Map([...hi].map(([id, h]) => [id, lo.get(id) === h ? `${h}` : `${lo.get(id)}..${h}`]));
}

/** `models` with control characters in their labels escaped (core `escapeControl`: `\x1b`, `\u{202e}`). */
function safeLabels<M extends { label: string }>(models: readonly M[]): M[] {
  return models.map((m) => ({ ...m, label: escapeControl(m.label) }));
}

/**
 * The overview's data of the models drawn, pooled over levels (a one-column figure has no room for facets), or of
 * one level's curves (`opts.level`, pass-at-k).
 * @throws Error for a level the folder does not have.
 */
function overviewFigureData(
  index: TraceIndex,
  opts: FigureOptions,
  roles: Roles,
  replicates: number,
  fig: FigureName,
): OverviewData {
  const d = overviewData(index, roles, replicates, replicates);
  const level = fig === 'pass-at-k' ? (opts.level ?? null) : null;
  if (level !== null && !d.levels.includes(level))
    throw new Error(
      d.levels.length
        ? `no difficulty level "${escapeControl(level)}": the levels are ${d.levels.map((l) => escapeControl(l)).join(', ')}`
        : 'the folder’s problems have no difficulty levels: no per-level figure',
    );
  // without --model: the models the overview shows when it opens (at most four: the base, the model in focus
  // and its run's other models), so that a folder of many checkpoints gives a readable figure
  // (pass@k; the coverage figure, a bar a pair, shows every pair)
  const chosen = chosenModels(index, opts) ?? (fig === 'pass-at-k' ? defaultVisibleModels(d.models) : undefined);
  const keep = (id: number) => !chosen || chosen.has(id);
  return {
    ...d,
    levels: [],
    // names from the folder with control characters escaped: they reach the SVG's text (where XML allows none
    // of them), the caption and the terminal
    models: safeLabels(d.models).filter(
      (m) => keep(m.id) || (fig === 'coverage' && d.coverage.some((c) => c.baseModelId === m.id && keep(c.modelId))),
    ),
    curves: d.curves.filter((c) => c.level === level && keep(c.modelId)),
    // a model's coverage bar comes with its base, named or not
    coverage: d.coverage.filter((c) => keep(c.modelId)),
  };
}

/** The training figure of the series `opts.series` picks (the first without it). @throws Error without one. */
function trainingFigureOf(index: TraceIndex, roles: Roles, opts: FigureOptions, width: number, replicates: number) {
  const t = trainingData(index, roles, replicates);
  const found = opts.series ? t.series.find((x) => x.name.includes(opts.series as string)) : t.series[0];
  // names from the folder with control characters escaped, as for the other figures
  const s = found && {
    ...found,
    name: escapeControl(found.name),
    steps: found.steps.map((st) => ({
      ...st,
      label: escapeControl(st.label),
      baseLabel: st.baseLabel === null ? null : escapeControl(st.baseLabel),
    })),
  };
  if (!s)
    throw new Error(
      t.series.length
        ? `no checkpoint series matches "${opts.series}": ${t.series.map((x) => escapeControl(x.name)).join(', ')}`
        : 'the folder has no checkpoint series (models of one run at several training steps): no training figure',
    );
  return { drawn: trainingFigure(s, width, replicates), settings: { series: s.name, stepPattern: t.stepPattern } };
}

/**
 * The problem `opts.problem` names: an index row id (a number), or a text matching a problem's id, `dataset/id`
 * or `dataset id`. @throws Error when none or several match.
 */
function pickProblem(index: TraceIndex, q: string | number | undefined): number {
  if (q === undefined) throw new Error('the problem figure needs a problem (--problem <id>)');
  if (typeof q === 'number') return q;
  const all = index.listProblems({ kind: 'all' }, 0, 10_000_000);
  const hits = all.filter((p) =>
    [p.problemId, `${p.dataset}/${p.problemId}`, `${p.dataset} ${p.problemId}`].includes(q),
  );
  if (hits.length === 1) return hits[0].id;
  throw new Error(
    hits.length === 0
      ? `no problem "${escapeControl(q)}" in the folder`
      : `"${escapeControl(q)}" names ${hits.length} problems (${hits
          .map((p) => `${p.dataset}/${p.problemId}`)
          .slice(0, 5)
          .join(', ')}): give dataset/id`,
  );
}

/** One figure of the folder once its roles, width and replicates are known (see {@link figureData}). */
function drawnFigure(
  index: TraceIndex,
  fig: FigureName,
  opts: FigureOptions,
  roles: Roles,
  width: number,
  replicates: number,
): { drawn: DrawnFigure; settings: FigureData['settings'] } {
  switch (fig) {
    case 'training':
      return trainingFigureOf(index, roles, opts, width, replicates);
    case 'reward-models': {
      const rm = rewardModelsData(index, replicates);
      const chosen = chosenModels(index, opts);
      const i = chosen ? rm.models.findIndex((m) => chosen.has(m.modelId)) : 0;
      const safe = { ...rm, models: rm.models.map((m) => ({ ...m, label: escapeControl(m.label) })) };
      const drawn = rewardModelsFigure(safe, width, Math.max(0, i), opts.n);
      return { drawn, settings: { n: Number(drawn.values[0]?.n ?? 0) } };
    }
    case 'splits': {
      const d = splitsData(index, roles, opts.splits, undefined, replicates);
      const safe = { ...d, models: safeLabels(d.models) };
      return { drawn: splitsFigure(safe, width, opts.splitsMode, replicates), settings: { splits: d.kind, k: d.k } };
    }
    case 'problem': {
      const id = pickProblem(index, opts.problem);
      const d = problemData(index, id, roles);
      if (!d) throw new Error(`no problem of row id ${id} in the index`);
      return {
        drawn: problemFigure({ ...d, models: safeLabels(d.models) }, width),
        settings: { problem: `${d.problem.dataset}/${d.problem.problemId}` },
      };
    }
    case 'pass-at-k':
    case 'coverage': {
      const d = overviewFigureData(index, opts, roles, replicates, fig);
      if (fig === 'coverage') return { drawn: coverageFigure(d, width), settings: {} };
      const level = opts.level === undefined ? undefined : escapeControl(opts.level);
      const drawn = passAtKFigure(d, nRange(index, opts.level), width, replicates, level);
      return { drawn, settings: level === undefined ? {} : { level } };
    }
  }
}

/**
 * The figure `name` of the indexed folder: its print-style Vega-Lite spec, caption and the values it draws.
 * pass@k and coverage come from the overview's data (./panelData.ts `overviewData`) pooled over difficulty levels
 * (or of one level, `opts.level`), with the report's replicates and seed (so the intervals equal
 * `report --format json`'s); training from the Training tab's (`trainingData`), reward-models from the Reward models
 * tab's (`rewardModelsData`), splits from the Splits tab's (./splitsData.ts), problem from the problem view's
 * (`problemData`). Takes no theme: the print style is its own.
 * @throws Error for an unknown name, a `--base`/`--model`/`--level`/`--problem` matching nothing, or a figure the
 *   folder has no data for (no graded samples, no compared pair, no checkpoint series, no reward scores, no splits),
 *   with why.
 */
export function figureData(index: TraceIndex, name: string, opts: FigureOptions = {}): FigureData {
  if (!(FIGURE_NAMES as readonly string[]).includes(name))
    throw new Error(`unknown figure "${name}": one of ${FIGURE_NAMES.join(', ')}`);
  if (opts.splits !== undefined && !SPLIT_KINDS.includes(opts.splits))
    throw new Error(`unknown split kind "${opts.splits}": one of ${SPLIT_KINDS.join(', ')}`);
  const width = opts.width ?? DEFAULT_FIGURE_WIDTH;
  const replicates = opts.replicates ?? REPORT_REPLICATES;
  const roles = figureRoles(index, opts);
  const base = roles.baseId === undefined ? undefined : index.model(roles.baseId);
  const fig = name as FigureName;
  const { drawn, settings } = drawnFigure(index, fig, opts, roles, width, replicates);
  return {
    name: fig,
    width,
    ...drawn,
    settings: {
      base: base?.displayId ?? null,
      baseSource: opts.roles
        ? opts.roles.baseIsChoice
          ? 'chosen'
          : 'guess'
        : opts.base
          ? 'option'
          : base
            ? 'guess'
            : 'none',
      replicates,
      seed: FIGURE_SEED,
      interval: '95% percentile bootstrap over problems',
      ...(opts.models?.length ? { models: opts.models.join(', ') } : {}),
      ...settings,
    },
  };
}

/** Vega-Lite's compiler and Vega's SVG renderer (the extension host's bundles). */
export interface ChartTools {
  compile: VegaLiteCompile;
  renderSvg: (spec: unknown, glyphs: GlyphWidths | undefined) => Promise<string>;
}

/** The folders the bundles are looked for in: this bundle's own (dist/), then the project's dist/ seen from out/. */
const BUNDLE_DIRS = [__dirname, resolve(__dirname, '..', '..', '..', 'dist')];

/**
 * Loads dist/vegaLiteCompiler.js and dist/vegaRenderer.js from the first of `dirs` that holds both (default:
 * the bundle's own folder, then the project's dist/ seen from the compiled sources in out/).
 * @throws Error naming the folders looked in when none holds them (`npm run build` makes them).
 */
export function loadChartTools(dirs: readonly string[] = BUNDLE_DIRS): ChartTools {
  for (const dir of dirs) {
    const c = join(dir, 'vegaLiteCompiler.js');
    const r = join(dir, 'vegaRenderer.js');
    if (!existsSync(c) || !existsSync(r)) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { compile } = require(c) as { compile: VegaLiteCompile };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { renderSvg } = require(r) as { renderSvg: ChartTools['renderSvg'] };
    return { compile, renderSvg };
  }
  throw new Error(
    `figures need vegaLiteCompiler.js and vegaRenderer.js beside the bundle (looked in ${dirs.join(', ')}; npm run build makes them)`,
  );
}

/**
 * The figure as an SVG document: compiled with `tools.compile`, rendered by `tools.renderSvg` with the
 * default glyph widths (DejaVu Sans; no canvas measures text in Node). The same figure gives
 * the same bytes. Rejects with Vega's error for a spec it cannot draw.
 */
export async function renderFigure(tools: ChartTools, fig: FigureData): Promise<string> {
  const vega = JSON.parse(JSON.stringify(tools.compile(fig.spec).spec));
  const svg = await tools.renderSvg(vega, DEFAULT_GLYPH_WIDTHS);
  return svg.endsWith('\n') ? svg : `${svg}\n`;
}

/** Draws an SVG document as PNG at `scale` pixels per CSS px (see {@link loadPngRenderer}). */
export type PngRenderer = (svg: string, scale: number) => Uint8Array;

type Resvg = typeof import('@resvg/resvg-wasm');
let resvgModule: Promise<Resvg> | undefined;

/** The first of `names` found in the first of `dirs` that holds one. @throws Error naming what it looked for. */
function findFile(dirs: readonly string[], names: readonly string[]): string {
  for (const dir of dirs) for (const n of names) if (existsSync(join(dir, n))) return join(dir, n);
  throw new Error(`PNG figures need ${names[0]} (looked in ${dirs.join(', ')}; npm run build copies it)`);
}

/**
 * The PNG renderer: resvg (@resvg/resvg-wasm 2.6.2, WebAssembly: the same code on every platform) given the
 * shipped DejaVu Sans (media/fonts/DejaVuSans.ttf) as its only font and no system fonts, so a PNG is the same
 * bytes on every machine and its text is laid out with the widths the SVG was (the SVG names Helvetica and Arial
 * first; resvg falls back to DejaVu Sans, which the SVG also names). Without any font resvg draws no text at all.
 * Looks for dist/resvg.wasm and media/fonts beside the bundle's folder (default: dist/ of the bundle, then of
 * the project). The WebAssembly module is initialised once per process.
 * @throws Error naming what it looked for when the WebAssembly file or the font is missing.
 */
export async function loadPngRenderer(dirs: readonly string[] = BUNDLE_DIRS): Promise<PngRenderer> {
  const wasm = findFile(dirs, ['resvg.wasm']);
  const font = readFileSync(
    findFile(
      dirs.map((d) => join(d, '..', 'media', 'fonts')),
      ['DejaVuSans.ttf'],
    ),
  );
  resvgModule ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const m = require('@resvg/resvg-wasm') as Resvg;
    await m.initWasm(readFileSync(wasm));
    return m;
  })();
  const { Resvg } = await resvgModule;
  return (svg, scale) => {
    const r = new Resvg(svg, {
      fitTo: { mode: 'zoom', value: scale },
      font: {
        fontBuffers: [font],
        loadSystemFonts: false,
        defaultFontFamily: 'DejaVu Sans',
        sansSerifFamily: 'DejaVu Sans',
      },
    });
    const image = r.render();
    const png = image.asPng();
    image.free();
    r.free();
    return png;
  };
}

/** `{ width, height }` of a PNG, from its IHDR chunk. @throws Error for bytes that are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || sig.some((b, i) => png[i] !== b)) throw new Error('not a PNG file');
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

/** The provenance of `fig` written as `file` (its name is kept, not the folder) from `folder`. */
export function figureProvenance(
  fig: FigureData,
  folder: string,
  file: string,
  width: number,
  format: ExportFormat = 'svg',
  scale = 1,
): FigureProvenance {
  return {
    tool: { name: 'trace-inspector', version: toolVersion() },
    figure: fig.name,
    folder,
    file: basename(file),
    format,
    width,
    scale,
    caption: fig.caption,
    models: fig.models,
    settings: fig.settings,
    values: fig.values,
  };
}

/**
 * The values a figure draws as CSV: one row per value, the columns every key of the values in order of first
 * appearance; text cells as the report's CSV writes untrusted text (core `csvCell`: control characters escaped,
 * a leading `= + - @` quoted off), numbers as JavaScript writes them (every digit: the exact values drawn), null
 * empty. Ends with a line break.
 */
export function figureValuesCsv(values: readonly DrawnValue[]): string {
  const keys: string[] = [];
  for (const v of values) for (const k of Object.keys(v)) if (!keys.includes(k)) keys.push(k);
  const cell = (x: string | number | null | undefined) =>
    x === null || x === undefined ? '' : typeof x === 'number' ? String(x) : csvCell(x);
  return [keys.join(','), ...values.map((v) => keys.map((k) => cell(v[k])).join(','))].map((l) => `${l}\n`).join('');
}

/** What a figure or its data is written as. */
export type ExportFormat = FigureFormat | 'csv' | 'json';

/** One export: the file's bytes and, for a figure, the provenance JSON to write beside it (`<file>.json`). */
export interface ExportedFile {
  bytes: Uint8Array;
  /** The provenance JSON's text (figures only; the data's JSON is the provenance itself). */
  provenance?: string;
  caption: string;
}

/** Options of {@link exportFigure}: the format, the PNG's scale (default 3: 288 px per inch), the file's name. */
export interface ExportOptions {
  format: ExportFormat;
  scale?: number;
  file: string;
}

/** The PNG's default scale: 3 pixels per CSS px, 288 per inch. */
export const DEFAULT_PNG_SCALE = 3;

/**
 * The bytes of figure `fig` of `folder` in `o.format`: an SVG or PNG (with its provenance JSON), or the values it
 * draws as CSV or JSON (the provenance object, which holds them). Used by the CLI and the extension alike, so both
 * write the same bytes. A PNG is `round(width * scale)` pixels wide.
 * @throws Error for a scale that is not positive or gives a side over {@link MAX_PNG_SIDE} pixels.
 */
export async function exportFigure(
  fig: FigureData,
  folder: string,
  o: ExportOptions,
  tools: ChartTools,
  png?: PngRenderer,
): Promise<ExportedFile> {
  // as the report's JSON: C1 controls and bidi overrides from the folder's names as \u escapes
  const json = (p: FigureProvenance) => terminalJson(p, 2);
  const width = fig.width;
  const enc = (s: string) => new TextEncoder().encode(s);
  if (o.format === 'csv') return { bytes: enc(figureValuesCsv(fig.values)), caption: fig.caption };
  const scale = o.format === 'png' ? (o.scale ?? DEFAULT_PNG_SCALE) : 1;
  const prov = figureProvenance(fig, folder, o.file, width, o.format, scale);
  if (o.format === 'json') return { bytes: enc(`${json(prov)}\n`), caption: fig.caption };
  const svg = await renderFigure(tools, fig);
  if (o.format === 'svg') return { bytes: enc(svg), provenance: `${json(prov)}\n`, caption: fig.caption };
  if (!(scale > 0) || width * scale > MAX_PNG_SIDE)
    throw new Error(`a PNG scale must be above 0 and give at most ${MAX_PNG_SIDE} px a side (width ${width} px)`);
  const draw = png ?? (await loadPngRenderer());
  return { bytes: draw(svg, scale), provenance: `${json(prov)}\n`, caption: fig.caption };
}
