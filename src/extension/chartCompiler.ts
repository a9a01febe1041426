/**
 * Compiles the problem view's first charts (pass@k against k, c/n) from Vega-Lite to Vega on the extension
 * host, so that the webview's first paint needs neither Vega-Lite's compiler (dist/charts-vegalite.js,
 * 0.28 MB fetched and compiled by the webview's renderer: in code-server the workbench's) nor its first,
 * cold compile (45-72 ms in the page): docs/performance-log.md, *Seventh round (chart)*. The specs
 * are still written with Vega-Lite (src/shared/chartSpecs.ts); only where they are compiled moves. The
 * compiler (dist/vegaLiteCompiler.js) is loaded and its JIT warmed while the user is idle
 * ({@link ChartCompiler.warm}); until then, or when it cannot be loaded, the webview compiles as before.
 */
import { randomBytes } from 'node:crypto';
import type { ProblemData } from '../shared/protocol';
import { accuracySpec, compiledChart, problemCurveSpec, type VegaLiteCompile } from '../shared/chartSpecs';

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
  return {
    passk: compiledChart(
      compile,
      problemCurveSpec(d.models, d.stats, d.comparisons, { maj: false, best: false }),
      highContrast,
      token,
    ),
    accuracy: compiledChart(compile, accuracySpec(d.models, d.stats), highContrast, token),
  };
}

/** A small problem (a base and one model, n = 8) whose charts warm the compiler's JIT. */
function warmUpProblem(): ProblemData {
  const curve = (c: number) => [1, 2, 4, 8].map((k) => ({ k, value: Math.min(1, (c * k) / 8) }));
  const stats = (modelId: number, c: number) => ({
    modelId,
    n: 8,
    c,
    samples: 8,
    scored: 0,
    accuracy: c / 8,
    betaLow: Math.max(0, c / 8 - 0.2),
    betaHigh: Math.min(1, c / 8 + 0.2),
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
    stats: [stats(1, 2), stats(2, 5)],
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
 */
export class ChartCompiler {
  private compile: VegaLiteCompile | undefined;
  private failed = false;

  constructor(
    private readonly modulePath: string,
    /** Where a load failure is reported (once); the webview then compiles the charts itself. */
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** Whether the compiler is loaded and warmed. */
  get ready(): boolean {
    return this.compile !== undefined;
  }

  /** Loads the compiler and compiles a small problem's charts once (JIT warm-up). Idempotent; never throws. */
  warm(): void {
    if (this.compile || this.failed) return;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(this.modulePath) as { compile?: VegaLiteCompile };
      if (typeof m.compile !== 'function') throw new Error('it has no compile function');
      compileProblemCharts(m.compile, warmUpProblem(), false);
      this.compile = m.compile;
    } catch (e) {
      this.failed = true;
      this.log(
        `[problem view] the host's chart compiler (${this.modulePath}) did not load: ${(e as Error).message}; the webview compiles the charts`,
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
}
