/**
 * Compiles the problem view's first charts (pass@k against k, c/n) from Vega-Lite to Vega on the extension
 * host, so that the webview's first paint needs neither Vega-Lite's compiler (dist/charts-vegalite.js,
 * 0.28 MB fetched and compiled by the webview's renderer: in code-server the workbench's) nor its first,
 * cold compile (45-72 ms in the page): docs/performance-log.md, *Seventh round (chart)*. The specs
 * are still written with Vega-Lite (src/shared/chartSpecs.ts); only where they are compiled moves. The
 * compiler (dist/vegaLiteCompiler.js) is loaded and its JIT warmed while the user is idle
 * ({@link ChartCompiler.warm}); until then, or when it cannot be loaded, the webview compiles as before.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ChartLayout, CompiledChart, ProblemData } from '../shared/protocol';
import {
  accuracySpec,
  compiledChart,
  cssVarTheme,
  DEFAULT_CHART_THEME,
  problemCurveSpec,
  themedVegaSpec,
  themeTemplate,
  type VegaLiteCompile,
} from '../shared/chartSpecs';
import { DEFAULT_GLYPH_WIDTHS, type GlyphWidths } from '../shared/glyphWidths';

/**
 * The width (px) of the first drawing when no page has reported its chart layout (the first problem view of a
 * profile): narrower than most editors (the page shows a drawing narrower than its chart element as it is, and
 * none that is wider: webview/charts.ts).
 */
export const FIRST_DRAWING_WIDTH = 600;

/** Vega's SVG output of a Vega spec (dist/vegaRenderer.js `renderSvg`), text measured with `glyphs`. */
export type SvgRender = (spec: unknown, glyphs: GlyphWidths | undefined) => Promise<string>;

/** The problem view's charts compiled by the host (ProblemData `charts`). */
export type ProblemCharts = NonNullable<ProblemData['charts']>;

/**
 * The two charts of the problem view's first paint, compiled with `compile` for a theme of the given
 * contrast: pass@k alone (maj@k and best-of-k unticked, as a new view shows it) and c/n. `token`: the
 * placeholders' random part (src/shared/chartSpecs.ts themeTemplate), fresh per call by default. Throws
 * what the compiler throws.
 */
export function compileProblemCharts(
  compile: VegaLiteCompile,
  d: ProblemData,
  highContrast: boolean,
  token: string = randomBytes(12).toString('hex'),
): ProblemCharts {
  // the series colours are the theme's (placeholders, as the config's), filled in by the webview
  const theme = themeTemplate(highContrast, token);
  return {
    passk: compiledChart(
      compile,
      problemCurveSpec(d.models, d.stats, d.comparisons, { maj: false, best: false }, theme),
      highContrast,
      token,
    ),
    accuracy: compiledChart(compile, accuracySpec(d.models, d.stats, theme), highContrast, token),
  };
}

/**
 * A problem of a base and one model, n = 1024 (the k grid of a large run: 11 points a model), whose charts
 * warm the compiler's and the renderer's JIT.
 */
function warmUpProblem(): ProblemData {
  const n = 1024;
  const curve = (c: number) =>
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].map((k) => ({ k, value: 1 - (1 - c / n) ** k }));
  const stats = (modelId: number, c: number) => ({
    modelId,
    n,
    c,
    samples: n,
    scored: 0,
    accuracy: c / n,
    betaLow: Math.max(0, c / n - 0.02),
    betaHigh: Math.min(1, c / n + 0.02),
    passAtK: curve(c),
    bestOfK: [],
    majAtK: [],
    hasMajAtK: false,
  });
  return {
    problem: {
      id: 1,
      dataset: 'warm-up',
      problemId: '1',
      question: null,
      referenceAnswer: null,
    } as ProblemData['problem'],
    models: [
      { id: 1, label: 'base', displayId: 'base', isBase: true, isFocus: false },
      { id: 2, label: 'model', displayId: 'model', isBase: false, isFocus: true },
    ],
    stats: [stats(1, 20), stats(2, 50)],
    comparisons: [{ modelId: 2, baseModelId: 1, category: 'sharpening', withinNoise: true, saturationK: 4 }],
    baseModelId: 1,
    focusModelId: 2,
    labels: [],
    hasLogprobs: false,
  };
}

/**
 * The host's Vega-Lite compiler, loaded from `modulePath` (dist/vegaLiteCompiler.js) on the first
 * {@link warm}: one `require` and a warm-up compile, 0.1-0.2 s of the host's CPU, done while the user is
 * idle. {@link problemCharts} compiles only once it is warm (a few ms), so a click never waits for the load.
 * With `rendererPath` (dist/vegaRenderer.js, Vega's runtime), {@link drawFirst} draws the charts it compiled
 * as SVG, which a new page shows until its own Vega (a 1 MB script it must compile first) has drawn them:
 * docs/performance-log.md, *Eighth round (chart as SVG)*.
 */
export class ChartCompiler {
  private compile: VegaLiteCompile | undefined;
  private render: SvgRender | undefined;
  private failed = false;

  constructor(
    private readonly modulePath: string,
    /** Where a load failure is reported (once); the webview then compiles the charts itself. */
    private readonly log: (message: string) => void = () => undefined,
    private readonly rendererPath?: string,
  ) {}

  /** Whether the compiler is loaded and warmed. */
  get ready(): boolean {
    return this.compile !== undefined;
  }

  /**
   * Loads the compiler and compiles a small problem's charts once (JIT warm-up); then the renderer, which
   * draws them once (in a font family of its own: Vega keeps measured widths by font). Idempotent; never
   * throws; resolves when both are warm or failed (a renderer that fails leaves the compiler in use).
   */
  async warm(): Promise<void> {
    if (this.compile || this.failed) return;
    let warmCharts: ProblemCharts;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(this.modulePath) as { compile?: VegaLiteCompile };
      if (typeof m.compile !== 'function') throw new Error('it has no compile function');
      warmCharts = compileProblemCharts(m.compile, warmUpProblem(), false);
      this.compile = m.compile;
    } catch (e) {
      this.failed = true;
      this.log(
        `[problem view] the host's chart compiler (${this.modulePath}) did not load: ${(e as Error).message}; the webview compiles the charts`,
      );
      return;
    }
    if (!this.rendererPath) return;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const r = require(this.rendererPath) as { renderSvg?: SvgRender };
      if (typeof r.renderSvg !== 'function') throw new Error('it has no renderSvg function');
      const spec = themedVegaSpec(warmCharts.passk, { ...DEFAULT_CHART_THEME, font: 'ti-warm-up' }, 480);
      await r.renderSvg(spec, undefined);
      this.render = r.renderSvg;
    } catch (e) {
      this.log(
        `[problem view] the host's chart renderer (${this.rendererPath}) did not load: ${(e as Error).message}; the page draws the first charts itself`,
      );
    }
  }

  /**
   * The problem view's first charts compiled for a theme of the given contrast, or undefined when the
   * compiler is not warm yet (or failed to load, or failed on this problem: reported, and the webview
   * compiles them itself).
   */
  problemCharts(d: ProblemData, highContrast: boolean): ProblemCharts | undefined {
    if (!this.compile) return undefined;
    try {
      return compileProblemCharts(this.compile, d, highContrast);
    } catch (e) {
      this.log(`[problem view] problem ${d.problem.id}: charts not compiled on the host: ${(e as Error).message}`);
      return undefined;
    }
  }

  /**
   * `charts` with the pass@k chart drawn as SVG (CompiledChart `svg`) for a new page's first paint: theme colours
   * and font as CSS `var()`s (src/shared/chartSpecs.ts cssVarTheme), at `layout`'s width with its glyph widths
   * (what a page in the same editor group reported), or {@link FIRST_DRAWING_WIDTH} px and
   * {@link DEFAULT_GLYPH_WIDTHS} without one. A chart the renderer fails on is left without (reported); without the renderer (not loaded or not warm
   * yet) `charts` is returned as it is. Never rejects.
   */
  async drawFirst(charts: ProblemCharts, layout: ChartLayout | undefined): Promise<ProblemCharts> {
    const render = this.render;
    if (!render) return charts;
    const glyphs = layout?.glyphs ?? DEFAULT_GLYPH_WIDTHS;
    const width = layout?.width ?? FIRST_DRAWING_WIDTH;
    // Vega keeps each text's measured width by font: a family name of the glyph table's own after the theme's
    // (never used by the page: VS Code's font list ends in a generic family) keeps another table's widths out
    const table = createHash('sha256').update(JSON.stringify(glyphs)).digest('hex').slice(0, 12);
    const draw = async (c: CompiledChart): Promise<CompiledChart> => {
      const theme = cssVarTheme(c.highContrast);
      const spec = themedVegaSpec(c, { ...theme, font: `${theme.font}, ti-glyphs-${table}` }, width);
      if (!spec) return c;
      try {
        return { ...c, svg: await render(spec, glyphs) };
      } catch (e) {
        this.log(`[problem view] a first chart not drawn on the host: ${(e as Error).message}`);
        return c;
      }
    };
    // the pass@k chart only: each drawing holds back the page's HTML by its time (40-60 ms of this thread)
    return { ...charts, passk: await draw(charts.passk) };
  }
}
