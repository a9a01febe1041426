/**
 * Embeds the Vega-Lite charts of the problem view, the overview and the Reward models tab. The specs
 * are built by pure functions in src/shared/chartSpecs.ts (re-exported here under their names; node
 * tests import them from there); this file adds what needs the DOM: the theme read from VS Code's CSS
 * variables, and {@link showChart}, which embeds a spec with vega-embed using the AST expression
 * interpreter (`ast: true` + vega-interpreter), so no `eval`/`new Function` runs and the CSP needs no
 * eval permission. Default styles, the actions menu and the tooltip's default style are off (they would
 * inject <style> elements); the equivalent CSS lives in style.css. The charts re-render when the theme changes.
 *
 * Charts are built one at a time, each in two tasks of the page (Vega-Lite compile, then the Vega view)
 * with a turn for the browser before each: in code-server the webview shares the workbench's renderer
 * thread, and building the shell plus every chart of a view in one task stalled the workbench.
 */
import DOMPurify from 'dompurify';
import { CHARTS_READY_EVENT, type ChartsGlobal, type VegaLibraries, type VegaLiteLibrary } from './chartsApi';
import { GLYPH_COUNT, GLYPH_FIRST, GLYPH_SIZE, type GlyphWidths } from '../src/shared/glyphWidths';
import type { OverviewData, ProblemRankingData } from '../src/shared/protocol';
import * as specs from '../src/shared/chartSpecs';
import {
  canvasSpec,
  type ChartTheme,
  chartConfig,
  type OverviewChartOptions,
  type OverviewModel,
  type Spec,
  themedVegaSpec,
} from '../src/shared/chartSpecs';
import type { CompiledChart } from '../src/shared/protocol';
import { lazyScript } from './textApi';
import { mark } from './rpc';

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

/**
 * The chart libraries published under `key` by one of their two scripts (webview/chartsApi.ts):
 * `__traceInspectorVegaLite` (Vega-Lite's compiler, dist/charts-vegalite.js) or `__traceInspectorCharts`
 * (Vega, vega-embed, vega-interpreter, dist/charts-vendor.js). Both start with V8's explicit compile hint
 * and Chromium compiles them in full on background threads, at the same time, as they stream in; the page
 * runs dist/webview.js first (src/extension/panelHtml.ts), so the view's shell is built while they still
 * compile, and a chart's Vega-Lite compile waits only for the first. Resolves when that script has run (at
 * once if it has); rejects when the page has loaded without it (the chart shows the error as text).
 */
function published<K extends keyof ChartsGlobal>(key: K, script: string): Promise<NonNullable<ChartsGlobal[K]>> {
  const get = () => (globalThis as ChartsGlobal)[key] as NonNullable<ChartsGlobal[K]> | undefined;
  const ready = get();
  if (ready) return Promise.resolve(ready);
  let loading = librariesLoading.get(key) as Promise<NonNullable<ChartsGlobal[K]>> | undefined;
  if (!loading) {
    loading = new Promise<NonNullable<ChartsGlobal[K]>>((resolve, reject) => {
      const onReady = () => {
        const l = get();
        if (!l) return; // the other script's event
        window.removeEventListener(CHARTS_READY_EVENT, onReady);
        resolve(l);
      };
      const onLoad = () => {
        const l = get();
        if (l) resolve(l);
        else reject(new Error(`the chart library (${script}) did not load`));
      };
      window.addEventListener(CHARTS_READY_EVENT, onReady);
      // every script of the page has run (or failed) by its load event
      if (document.readyState === 'complete') onLoad();
      else window.addEventListener('load', onLoad, { once: true });
    });
    librariesLoading.set(key, loading);
  }
  return loading;
}

const librariesLoading = new Map<keyof ChartsGlobal, Promise<unknown>>();

/** The `<body>` attribute naming dist/charts-vegalite.js when the page loads it on first need (src/extension/panelHtml.ts). */
export const VEGA_LITE_SCRIPT_ATTRIBUTE = 'data-vegalite-script';

/**
 * Vega-Lite's compiler and vega-util's logger (dist/charts-vegalite.js). The overview's page loads it as
 * one of its scripts ({@link published}); the problem view's, whose first charts come compiled from the
 * host (ProblemData `charts`), adds it on the first chart it compiles itself (`<body data-vegalite-script>`,
 * webview/textApi.ts `lazyScript`).
 */
export function vegaLiteLibrary(): Promise<VegaLiteLibrary> {
  return lazyOrPublished(VEGA_LITE_SCRIPT_ATTRIBUTE, '__traceInspectorVegaLite', 'charts-vegalite.js', {
    what: 'chart compiler script (charts-vegalite.js)',
    mark: 'ti:vegalite-loaded',
  });
}

/** Per `<body>` attribute, the loader of the script it names (webview/textApi.ts `lazyScript`). */
const lazyLoaders = new Map<string, () => Promise<unknown>>();

/**
 * The chart libraries published under `key`: loaded on first need from the script `<body>` names in
 * `attribute` when it names one (webview/textApi.ts `lazyScript`), else a script of the page ({@link published}).
 */
function lazyOrPublished<K extends keyof ChartsGlobal>(
  attribute: string,
  key: K,
  script: string,
  opts: { what: string; mark: string },
): Promise<NonNullable<ChartsGlobal[K]>> {
  if (!document.body.hasAttribute(attribute)) return published(key, script);
  let load = lazyLoaders.get(attribute);
  if (!load) {
    load = lazyScript(document, attribute, () => (globalThis as ChartsGlobal)[key], opts);
    lazyLoaders.set(attribute, load);
  }
  return load() as Promise<NonNullable<ChartsGlobal[K]>>;
}

/**
 * vega-embed (with Vega) and vega-interpreter (dist/charts-vendor.js): a script of the page ({@link published}),
 * or, for a new problem view whose first chart the host drew, loaded when first asked for
 * (`<body data-charts-script>`, after that drawing is on screen).
 */
export function vegaLibraries(): Promise<VegaLibraries> {
  return lazyOrPublished(CHARTS_SCRIPT_ATTRIBUTE, '__traceInspectorCharts', 'charts-vendor.js', {
    what: 'chart library script (charts-vendor.js)',
    mark: 'ti:charts-loaded',
  });
}

/** Whether Vega (dist/charts-vendor.js) has run on this page. */
export function vegaLoaded(): boolean {
  return (globalThis as ChartsGlobal).__traceInspectorCharts !== undefined;
}

/** The `<body>` attribute naming dist/charts-vendor.js when the page loads it after its first paint (src/extension/panelHtml.ts). */
const CHARTS_SCRIPT_ATTRIBUTE = 'data-charts-script';

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
    focus: cssVar('--vscode-charts-blue', d.focus),
  };
}

/** Vega config from the VS Code theme (light, dark, high contrast). */
export function themeConfig(): Spec {
  return chartConfig(readTheme());
}

/** The theme's colours of the base model (foreground) and of the model in focus (focus), for the overview's specs. */
function modelColorOpts(): { foreground: string; focus: string } {
  const t = readTheme();
  return { foreground: t.foreground, focus: t.focus };
}

/** {@link specs.overviewModels} with the theme's colours for the base model and the model in focus. */
export function overviewModels(d: OverviewData): OverviewModel[] {
  const t = modelColorOpts();
  return specs.overviewModels(d, t.foreground, t.focus);
}

/** {@link specs.overviewCurveSpec} in the theme's colours. */
export function overviewCurveSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  return specs.overviewCurveSpec(d, { ...modelColorOpts(), ...opts });
}

/** {@link specs.histogramSpec} in the theme's colours. */
export function histogramSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  return specs.histogramSpec(d, { ...modelColorOpts(), ...opts });
}

/** {@link specs.coverageSpec} in the theme's colours. */
export function coverageSpec(d: OverviewData, opts: OverviewChartOptions = {}): Spec {
  return specs.coverageSpec(d, { ...modelColorOpts(), ...opts });
}

/** {@link specs.rankingStripSpec} in the theme's colours. */
export function rankingStripSpec(r: ProblemRankingData, width: number): Spec {
  return specs.rankingStripSpec(r, width, readTheme());
}

export interface ChartHandle {
  finalize(): void;
}

/**
 * Gives the browser a turn (input, paint, the workbench's own tasks) before the caller goes on: the
 * caller continues in a task queued behind the tasks already waiting, at normal priority
 * (`scheduler.postTask` where the browser has it, else a zero-delay timer). Not `scheduler.yield()`:
 * its continuation runs before the other queued tasks of its priority, the workbench's among them (in
 * code-server the webviews share the workbench's thread), so a chain of yielded tasks held the
 * workbench's timers and messages as one long task would (a 16 ms heartbeat in the workbench saw one
 * 0.28 s gap while the problem view opened, its longest task being 158 ms).
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (
    globalThis as { scheduler?: { postTask?: (cb: () => void, o?: { priority?: string }) => Promise<void> } }
  ).scheduler;
  if (typeof scheduler?.postTask === 'function')
    return scheduler.postTask(() => undefined, { priority: 'user-visible' });
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The chart being built (charts are built one after the other, see the module's doc). */
let chartQueue: Promise<unknown> = Promise.resolve();

/**
 * Embeds `spec` into `el`. `onClick` receives the clicked mark's datum (nothing for clicks on the
 * background). Errors are shown as text in `el`, never thrown. Charts are built in the order asked,
 * one at a time, each in two tasks (Vega-Lite compile, Vega view) after a yield to the browser; a chart
 * whose element has left the page by its turn, or for whose element a newer chart was asked since, is not
 * built (its handle does nothing).
 */
export function showChart(
  el: HTMLElement,
  spec: Spec,
  onClick?: (datum: Record<string, unknown>) => void,
  opts: ChartOptions = {},
): Promise<ChartHandle> {
  // only the last chart asked for an element is built (a theme change re-asks while others still wait)
  const ticket = (latestAsked.get(el) ?? 0) + 1;
  latestAsked.set(el, ticket);
  const current = () => el.isConnected && latestAsked.get(el) === ticket;
  const shown: Shown = { live: false, first: false };
  if (opts.firstSvg && !opts.batchRows) {
    const box = staticChart(opts.firstSvg);
    const width = Number(box.querySelector('svg')?.getAttribute('width'));
    // never scaled (trial 15 finding 1: a drawing for a wider editor group, shrunk into a narrow one, was
    // unreadable and the page jumped when Vega's chart came): one wider than the element is not shown
    if (width > 0 && width <= el.clientWidth + 1) {
      shown.staticBox = box;
      // the width (px) the host drew it at (the e2e suite checks it is the last page's chart width)
      el.setAttribute('data-first-svg-width', String(width));
      replaceChildren(el, box);
      mark(`ti:svg:${el.id}`);
      firstShown(shown, opts);
    } else {
      // the room the chart will take is kept (its height does not depend on the width: the plot's is fixed and
      // the legend's columns too), so that what is below it does not jump when it comes (trial 15b finding 1)
      const height = Number(box.querySelector('svg')?.getAttribute('height'));
      if (height > 0) el.style.minHeight = `${height}px`;
      mark(`ti:svg-too-wide:${el.id}`);
    }
  }
  const built = chartQueue.then(() => buildChart(el, spec, current, onClick, opts, shown));
  chartQueue = built.catch(() => undefined);
  return built;
}

/** How {@link showChart} builds a chart. */
export interface ChartOptions {
  /**
   * With more inline rows than this (`spec.data.values`), the chart is built with the first `batchRows`
   * rows and the rest are added `batchRows` at a time, each batch in a task of its own after a turn for
   * the browser (Vega's dataflow encodes only the new points; src/shared/chartSpecs.ts `batchedSpec`): a
   * Vega view of 2,048 points in one task held the renderer's thread 110-150 ms (in code-server the
   * workbench's). Only for specs whose scales' domains are all given by the spec (else every batch would
   * encode every point again). The chart's promise resolves when every row is in.
   */
  batchRows?: number;
  /**
   * The chart as the host compiled it (ProblemData `charts`: the same spec, compiled to Vega with
   * placeholder theme colours), drawn instead of compiling `spec` when it fits the page (same contrast, the
   * element laid out, no batches); otherwise `spec` is compiled here as usual.
   */
  compiled?: CompiledChart;
  /**
   * The chart drawn as SVG by the host (CompiledChart `svg`: the host's Vega, the theme as CSS variables, at the
   * chart width and glyph widths a page of the same editor group reported), shown at once until this page's Vega
   * view of the chart is drawn, which then takes its place (the page must first load dist/charts-vendor.js,
   * 0.5 MB). Never scaled: one wider than the element is not shown (its height is kept for the chart).
   * Sanitized (DOMPurify, SVG profile) before it reaches the page.
   */
  firstSvg?: string;
  /** Called once, when the chart is first on screen: its SVG drawing or its Vega view, whichever is first. */
  onShown?: () => void;
}

/** What of a chart asked by {@link showChart} is on screen. */
interface Shown {
  /** The Vega view is drawn. */
  live: boolean;
  /** `onShown` was called. */
  first: boolean;
  /** The element holding the host's SVG drawing, while it is shown. */
  staticBox?: HTMLElement;
}

function firstShown(shown: Shown, opts: ChartOptions): void {
  if (shown.first) return;
  shown.first = true;
  opts.onShown?.();
}

function replaceChildren(el: HTMLElement, ...nodes: Node[]): void {
  while (el.firstChild) el.firstChild.remove();
  el.append(...nodes);
}

/**
 * The host's SVG drawing of a chart (Vega's SVG output) as an element, through DOMPurify with its SVG profile
 * only (no HTML, no script, no event handler, no foreign object, no external reference kept): the host's
 * Vega escapes the model names it writes, and this is the second line.
 */
function staticChart(svg: string): HTMLElement {
  const box = document.createElement('div');
  box.className = 'chart-static';
  box.append(
    DOMPurify.sanitize(svg, {
      USE_PROFILES: { svg: true },
      ADD_ATTR: ['role', 'aria-roledescription'],
      RETURN_DOM_FRAGMENT: true,
    }),
  );
  return box;
}

/** Glyph widths measured by this page, per font family. */
const glyphCache = new Map<string, GlyphWidths>();

/**
 * The widths of the printable ASCII characters in `family`, normal and bold, at {@link GLYPH_SIZE} px, as this
 * page's canvas measures them (src/shared/glyphWidths.ts): the host lays out its SVG drawing of a chart with
 * them, so that it takes the room the page's own chart will. Undefined without a 2D canvas.
 */
export function measureGlyphs(family: string): GlyphWidths | undefined {
  const kept = glyphCache.get(family);
  if (kept) return kept;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return undefined;
  const row = (weight: string) => {
    ctx.font = `${weight}${GLYPH_SIZE}px ${family}`;
    return Array.from({ length: GLYPH_COUNT }, (_, i) =>
      Math.min(1000, ctx.measureText(String.fromCharCode(GLYPH_FIRST + i)).width),
    );
  };
  const w = { normal: row(''), bold: row('bold ') };
  glyphCache.set(family, w);
  return w;
}

/** Per chart element, the number of the last chart asked for it. */
const latestAsked = new WeakMap<HTMLElement, number>();

const NO_CHART: ChartHandle = { finalize: () => undefined };

async function buildChart(
  el: HTMLElement,
  spec: Spec,
  current: () => boolean,
  onClick: ((datum: Record<string, unknown>) => void) | undefined,
  opts: ChartOptions,
  shown: Shown,
): Promise<ChartHandle> {
  try {
    await yieldToBrowser();
    if (!current()) return NO_CHART;
    const { first, later } = specs.batchedSpec(spec, opts.batchRows ?? 0);
    const fitWidth = first.width === 'container' && ('mark' in first || 'layer' in first) ? el.clientWidth : 0;
    const theme = readTheme();
    // compiled by the host (the same Vega-Lite spec, src/shared/chartSpecs.ts compiledChart): only the theme's
    // colours and the element's width are put in; no Vega-Lite on this page for it
    let vgSpec: Spec | undefined =
      opts.compiled && later.length === 0 ? themedVegaSpec(opts.compiled, theme, fitWidth) : undefined;
    const precompiled = vgSpec !== undefined;
    if (precompiled) mark(`ti:precompiled:${el.id}`);
    else {
      // Vega-Lite -> Vega in a task of its own (what vega-embed would do inside its one task); it needs only
      // dist/charts-vegalite.js, so it may run while Chromium still compiles dist/charts-vendor.js
      const { compile, logger } = await vegaLiteLibrary();
      if (!current()) return NO_CHART;
      const t0 = performance.now();
      // drawn on a canvas: no ARIA descriptions per mark (CANVAS_CONFIG, in canvasSpec), which only SVG output carries
      vgSpec = compile(canvasSpec(first, theme, fitWidth) as never, { logger: logger(0) }).spec as Spec;
      measure(`ti:compile:${el.id}`, t0);
    }
    const { embed, expressionInterpreter } = await vegaLibraries();
    // a turn for the browser between the compile's task and the view's (none to split for the host's spec)
    if (!precompiled) await yieldToBrowser();
    if (!current()) return NO_CHART;
    const t1 = performance.now();
    // drawn in a box of its own, kept hidden while the host's drawing is on screen, which it then replaces
    // in one task (vega-embed clears the element it is given before its view has drawn)
    const live = document.createElement('div');
    if (shown.staticBox?.isConnected) {
      live.hidden = true;
      replaceChildren(el, shown.staticBox, live);
    } else replaceChildren(el, live);
    const res = await embed(
      live,
      vgSpec as never,
      {
        mode: 'vega',
        // vega-embed's default for a Vega spec; off as it is for the Vega-Lite specs it compiles itself
        hover: false,
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
    measure(`ti:embed:${el.id}`, t1);
    shown.live = true;
    shown.staticBox?.remove();
    shown.staticBox = undefined;
    live.hidden = false;
    firstShown(shown, opts);
    for (const rows of later) {
      await yieldToBrowser();
      if (!current()) break;
      const t2 = performance.now();
      await res.view.insert(specs.BATCHED_DATA, rows).runAsync();
      measure(`ti:batch:${el.id}`, t2);
    }
    if (onClick) {
      res.view.addEventListener('click', (_e: unknown, item: unknown) => {
        const datum = (item as { datum?: Record<string, unknown> } | null | undefined)?.datum;
        if (datum && typeof datum === 'object') onClick(datum);
      });
    }
    if (fitWidth > 0 && typeof ResizeObserver === 'function') {
      // the element's width changing (window or panel resized) fits the chart again; its height does not
      let width = fitWidth;
      const observer = new ResizeObserver(() => {
        const w = el.clientWidth;
        if (w > 0 && w !== width) {
          width = w;
          void res.view.width(w).runAsync();
        }
      });
      observer.observe(el);
      return {
        finalize: () => {
          observer.disconnect();
          res.finalize();
        },
      };
    }
    return { finalize: () => res.finalize() };
  } catch (e) {
    el.textContent = `Chart failed: ${(e as Error).message}`;
    return NO_CHART;
  }
}

/** A User Timing measure from `start` (performance.now()) to now, for the e2e speed test; never throws. */
function measure(name: string, start: number): void {
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch {
    /* no User Timing API */
  }
}
