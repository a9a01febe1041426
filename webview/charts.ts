/**
 * Embeds the Vega-Lite charts of the problem view, the overview and the Reward models tab. The specs
 * are built by pure functions in src/shared/chartSpecs.ts (re-exported here under their names; node
 * tests import them from there); this file adds what needs the DOM: the theme read from VS Code's CSS
 * variables, and {@link showChart}, which embeds a spec with vega-embed using the AST expression
 * interpreter (`ast: true` + vega-interpreter), so no `eval`/`new Function` runs and the CSP needs no
 * eval permission. Default styles, the actions menu and the tooltip's default style are off (they would
 * inject <style> elements); the equivalent CSS lives in style.css. The charts re-render when the theme changes.
 */
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';
import type { OverviewData, ProblemRankingData } from '../src/shared/protocol';
import * as specs from '../src/shared/chartSpecs';
import {
  type ChartTheme,
  chartConfig,
  type OverviewChartOptions,
  type OverviewModel,
  type Spec,
} from '../src/shared/chartSpecs';

export {
  accuracySpec,
  COVERAGE_CELLS,
  curveSegments,
  defaultVisibleModels,
  facetLayout,
  type OverviewChartOptions,
  type OverviewModel,
  pplSpec,
  problemCurveRows,
  problemCurveSpec,
  rewardScatterSpec,
  similaritySpec,
  type Spec,
} from '../src/shared/chartSpecs';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/** The chart theme from VS Code's CSS variables (fallbacks: src/shared/chartSpecs.ts DEFAULT_CHART_THEME). */
export function readTheme(): ChartTheme {
  const d = specs.DEFAULT_CHART_THEME;
  const foreground = cssVar('--vscode-editor-foreground', cssVar('--vscode-foreground', d.foreground));
  return {
    foreground,
    muted: cssVar('--vscode-descriptionForeground', foreground),
    grid: cssVar('--vscode-editorWidget-border', cssVar('--vscode-panel-border', d.grid)),
    font: cssVar('--vscode-font-family', d.font),
    highContrast:
      document.body.classList.contains('vscode-high-contrast') ||
      document.body.classList.contains('vscode-high-contrast-light'),
    background: cssVar('--vscode-editor-background', d.background),
    passed: cssVar('--vscode-testing-iconPassed', d.passed),
    failed: cssVar('--vscode-testing-iconFailed', d.failed),
  };
}

/** Vega config from the VS Code theme (light, dark, high contrast). */
export function themeConfig(): Spec {
  return chartConfig(readTheme());
}

/** {@link specs.overviewModels} with the theme's foreground colour for the base model. */
export function overviewModels(d: OverviewData): OverviewModel[] {
  return specs.overviewModels(d, readTheme().foreground);
}

/** {@link specs.overviewCurveSpec} in the theme's colours. */
export function overviewCurveSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  return specs.overviewCurveSpec(d, { foreground: readTheme().foreground, ...opts });
}

/** {@link specs.histogramSpec} in the theme's colours. */
export function histogramSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  return specs.histogramSpec(d, { foreground: readTheme().foreground, ...opts });
}

/** {@link specs.coverageSpec} in the theme's colours. */
export function coverageSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  return specs.coverageSpec(d, { foreground: readTheme().foreground, ...opts });
}

/** {@link specs.rankingStripSpec} in the theme's colours. */
export function rankingStripSpec(r: ProblemRankingData, width: number): Spec {
  return specs.rankingStripSpec(r, width, readTheme());
}

export interface ChartHandle {
  finalize(): void;
}

/**
 * Embeds `spec` into `el`. `onClick` receives the clicked mark's datum (nothing for clicks on the
 * background). Errors are shown as text in `el`, never thrown.
 */
export async function showChart(
  el: HTMLElement,
  spec: Spec,
  onClick?: (datum: Record<string, unknown>) => void,
): Promise<ChartHandle> {
  try {
    const res = await embed(
      el,
      { ...spec, $schema: SCHEMA, config: { ...themeConfig(), ...(spec.config ?? {}) } } as never,
      {
        ast: true,
        expr: expressionInterpreter,
        actions: false,
        defaultStyle: false,
        renderer: 'canvas',
        tooltip: {
          disableDefaultStyle: true,
          theme: document.body.classList.contains('vscode-light') ? 'light' : 'dark',
        },
        logLevel: 0,
      } as never,
    );
    if (onClick) {
      res.view.addEventListener('click', (_e: unknown, item: unknown) => {
        const datum = (item as { datum?: Record<string, unknown> } | null | undefined)?.datum;
        if (datum && typeof datum === 'object') onClick(datum);
      });
    }
    return { finalize: () => res.finalize() };
  } catch (e) {
    el.textContent = `Chart failed: ${(e as Error).message}`;
    return { finalize: () => undefined };
  }
}
