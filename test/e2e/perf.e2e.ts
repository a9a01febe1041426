/**
 * Speed of the problem view and the preview, measured in a real VS Code (code-server) in Chromium on a
 * generated folder (bench/gen.ts, seed 1): 3 problems x N samples x 2 models (a base model and an RL model),
 * texts of 3-6k characters, plus one RL sample of 300,000 characters. Measured, not asserted (timings depend
 * on the machine; docs/performance.md reports them):
 * - chart: from the click on the problem row's chart icon to the pass@k chart on screen (target <= 1 s): the
 *   host's SVG drawing of it or the page's Vega view, whichever is first; `interactiveMs`: to the Vega view;
 * - similarity list: from the same click to the sample list with similarities, first time, nothing
 *   cached (target <= 2 s); also for a row the user looked at for 1 s before clicking its chart icon (the
 *   selection's similarity job runs meanwhile);
 * - main-thread stalls: the longest gap of a 16 ms heartbeat in the workbench page (in code-server the
 *   webviews share the workbench's renderer), while the problem view opens, while the 300k-character
 *   sample opens in it, and while it renders in the preview (target: none over 200 ms).
 * Two sizes: in CI (`npm test`) a smoke of N = 64 samples per model, which runs every step and every
 * assertion (the chart drawn where it stays, the table under it kept in place, the long sample in both
 * views); with E2E_PERF=full (`npm run bench:e2e`, scripts/bench-e2e.sh) N = 1024, the size the targets are
 * stated for, whose figures the README reports.
 * Results: test-output/e2e/perf.json and the test's output.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { generate } from '../../bench/gen';
import {
  activeEditorTitle,
  clickTreeRow,
  reloadWindow,
  restoreTimes,
  defaultVsixPath,
  outputRoot,
  screenshot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitUntil,
  type Session,
} from './harness';

// Browser globals used inside evaluate callbacks (the project compiles without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const window: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const PerformanceObserver: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const LONG_CHARS = 300_000;
/** E2E_PERF=full: the size the targets are stated for (the bench); else a smoke of the same steps (CI). */
const FULL = process.env.E2E_PERF === 'full';
const SAMPLES = FULL ? 1024 : 64;
const SIZE = `${SAMPLES} x ${SAMPLES}`;

/** Starts a heartbeat in the workbench page: every gap between ticks beyond 16 ms is a stall. */
async function startStallProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = { maxGap: 0, longTasks: [] as number[], timer: 0, observer: undefined as unknown };
    let last = performance.now();
    probe.timer = window.setInterval(() => {
      const now = performance.now();
      probe.maxGap = Math.max(probe.maxGap, now - last - 16);
      last = now;
    }, 16);
    try {
      const obs = new PerformanceObserver((list: { getEntries(): { duration: number }[] }) => {
        for (const e of list.getEntries()) probe.longTasks.push(e.duration);
      });
      obs.observe({ type: 'longtask' });
      probe.observer = obs;
    } catch {
      /* no Long Tasks API */
    }
    window.__tiProbe = probe;
  });
}

/**
 * With E2E_PERF_TRACE=1, a Chromium performance trace of one phase (test-output/e2e/perf-<phase>.trace.json,
 * open it in Chrome DevTools' Performance panel) and, on the test's output, every task of the renderer's
 * main thread over 50 ms (wall and thread CPU time) with what it spent its time on. Off by default: tracing slows the page.
 */
async function startTrace(page: Page): Promise<(phase: string) => Promise<TraceSummary | undefined>> {
  const browser = page.context().browser();
  if (!process.env.E2E_PERF_TRACE || !browser) return async () => undefined;
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8',
      'v8.execute',
      'blink.user_timing',
      // E2E_PERF_TRACE=cpu: with V8's sampling profiler (which functions a long task ran; heavier)
      ...(process.env.E2E_PERF_TRACE === 'cpu' ? ['disabled-by-default-v8.cpu_profiler'] : []),
    ],
  });
  return async (phase: string) => {
    const buf = await browser.stopTracing();
    fs.writeFileSync(path.join(outputRoot, `perf-${phase}.trace.json`), buf);
    const summary = longTasksOfTrace(JSON.parse(buf.toString('utf8')));
    console.log(`[perf] long tasks ${phase}:\n${summary.text}`);
    return summary.figures;
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** thread (CPU) time, microseconds: what the task cost, whatever the machine's load */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string; frame?: string } };
}

/** The main-thread tasks over 50 ms of a trace and, per task, the time of its largest direct kinds of work. */
/**
 * The longest main-thread task of a phase, in wall and thread (CPU) time, overall and among the tasks that
 * ran the webview's script (the CPU figure does not grow with the machine's load).
 */
interface TraceSummary {
  longestTaskMs: number;
  longestTaskCpuMs: number;
  longestWebviewTaskMs: number;
  longestWebviewTaskCpuMs: number;
  /**
   * The gap between two beats of the heartbeat (the workbench's 16 ms interval timer: the timer that
   * fired most) holding the most CPU time of the main thread's tasks: the stall in CPU time, which
   * counts a chain of tasks that kept the workbench's timer waiting, not only the longest task.
   */
  heartbeatGap: { wallMs: number; cpuMs: number; tasks: number; longestTaskCpuMs: number };
}

function longTasksOfTrace(trace: { traceEvents: TraceEvent[] } | TraceEvent[]): {
  text: string;
  figures: TraceSummary;
} {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = events.filter((e) => e.ph === 'X' && e.dur !== undefined && main.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000);
  const lines: string[] = [];
  const figures: TraceSummary = {
    longestTaskMs: 0,
    longestTaskCpuMs: 0,
    longestWebviewTaskMs: 0,
    longestWebviewTaskCpuMs: 0,
    heartbeatGap: { wallMs: 0, cpuMs: 0, tasks: 0, longestTaskCpuMs: 0 },
  };
  const ms = (us: number | undefined) => Math.round((us ?? 0) / 1000);
  for (const t of tasks) {
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0));
    const parts = new Map<string, number>();
    for (const e of inside) {
      if (
        ![
          'FunctionCall',
          'EvaluateScript',
          'v8.compile',
          'v8.compileModule',
          'Layout',
          'UpdateLayoutTree',
          'ParseHTML',
          'MajorGC',
          'MinorGC',
          'V8.GC_MARK_COMPACTOR',
          'Paint',
          'TimerFire',
          'v8.parseOnBackground',
          'PrePaint',
          'Layerize',
          'HitTest',
          'ParseAuthorStyleSheet',
        ].includes(e.name)
      )
        continue;
      const d = e.args?.data;
      const where = d?.url
        ? ` ${d.url.split('/').pop()?.split('?')[0]}${d.functionName ? `:${d.functionName}` : ''}`
        : '';
      const key = `${e.name}${where}`;
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0) / 1000);
    }
    figures.longestTaskMs = Math.max(figures.longestTaskMs, ms(t.dur));
    figures.longestTaskCpuMs = Math.max(figures.longestTaskCpuMs, ms(t.tdur));
    if ([...parts.keys()].some((k) => / (webview|preview|charts-vendor|charts-vegalite)\.js/.test(k))) {
      figures.longestWebviewTaskMs = Math.max(figures.longestWebviewTaskMs, ms(t.dur));
      figures.longestWebviewTaskCpuMs = Math.max(figures.longestWebviewTaskCpuMs, ms(t.tdur));
    }
    const top = [...parts.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 6)
      .map(([k, ms]) => `${Math.round(ms)} ms ${k}`)
      .join('; ');
    lines.push(
      `  ${Math.round((t.dur ?? 0) / 1000)} ms (CPU ${Math.round((t.tdur ?? 0) / 1000)} ms) at ${Math.round((t.ts - tasks[0].ts) / 1000)} ms: ${top}`,
    );
  }
  // the heartbeat: the timer that fired most on the main thread
  const byTimer = new Map<unknown, number[]>();
  for (const e of onMain) {
    if (e.name !== 'TimerFire') continue;
    const id = (e.args?.data as { timerId?: unknown } | undefined)?.timerId;
    byTimer.set(id, [...(byTimer.get(id) ?? []), e.ts]);
  }
  const beats = [...byTimer.values()].sort((a, b) => b.length - a.length)[0]?.sort((a, b) => a - b) ?? [];
  const allTasks = onMain.filter((e) => e.name === 'RunTask');
  // from the second gap: the first holds the start of tracing (with E2E_PERF_TRACE=cpu, the profiler's)
  for (let i = 2; i < beats.length; i++) {
    const inGap = allTasks.filter((e) => e.ts >= beats[i - 1] && e.ts < beats[i]);
    const cpu = inGap.reduce((a, e) => a + (e.tdur ?? 0), 0);
    if (cpu / 1000 > figures.heartbeatGap.cpuMs)
      figures.heartbeatGap = {
        wallMs: ms(beats[i] - beats[i - 1]),
        cpuMs: ms(cpu),
        tasks: inGap.length,
        longestTaskCpuMs: ms(Math.max(0, ...inGap.map((e) => e.tdur ?? 0))),
      };
  }
  return { text: lines.join('\n'), figures };
}

/**
 * Waits until the workbench page has been quiet for `quietMs` (no gap of a 16 ms heartbeat over 50 ms),
 * so that a phase's figures are not those of what the step before it left running (the text tab of the
 * long sample loads its Markdown grammar and tokenizes after it shows). Gives up after `timeoutMs` and
 * says so on the test's output.
 */
async function waitForQuiet(page: Page, what: string, quietMs = 1000, timeoutMs = 30_000): Promise<void> {
  const quiet = await page.evaluate(
    ({ quietMs, timeoutMs }) =>
      new Promise<boolean>((resolve) => {
        const start = performance.now();
        let last = start;
        let since = start;
        const timer = window.setInterval(() => {
          const now = performance.now();
          if (now - last > 16 + 50) since = now;
          last = now;
          if (now - since >= quietMs || now - start >= timeoutMs) {
            window.clearInterval(timer);
            resolve(now - since >= quietMs);
          }
        }, 16);
      }),
    { quietMs, timeoutMs },
  );
  if (!quiet) console.log(`[perf] the workbench was not quiet for ${quietMs} ms within ${timeoutMs} ms before ${what}`);
}

/**
 * The frame (of any webview) whose document has an element matching the CSS `selector` and, if given,
 * an `h1` starting with `h1Prefix`, polled every 100 ms with the document's own `querySelector`. Not
 * Playwright's `frame.$` / `waitForSelector` (nor the harness's `webviewWith`, which uses them) while a
 * probe runs: their selector engine walks every element and shadow root of the document on each poll,
 * and on the rendered 300k-character sample one poll took 100-150 ms of CPU on the renderer's main
 * thread (a CPU profile of the preview phase showed Playwright's `_queryCSS` in those tasks), which the
 * heartbeat then counted as the page's stall.
 */
async function frameWith(
  page: Page,
  selector: string,
  opts: { what: string; timeoutMs?: number; h1Prefix?: string; frame?: Frame },
): Promise<Frame> {
  return waitUntil(
    page,
    async () => {
      for (const f of opts.frame ? [opts.frame] : page.frames()) {
        const h1 = await f
          .evaluate(
            (sel: string) =>
              document.querySelector(sel) ? ((document.querySelector('h1')?.textContent as string) ?? '') : null,
            selector,
          )
          .catch(() => null);
        if (h1 !== null && (!opts.h1Prefix || h1.startsWith(opts.h1Prefix))) return f;
      }
      return undefined;
    },
    { timeoutMs: opts.timeoutMs ?? 120_000, what: opts.what },
  );
}

/**
 * Where the time from the click (`t0`, epoch ms) to the chart went, as ms from the click: when the
 * webview's outer and inner documents started loading (`frame:outer`, `frame:inner`), when its
 * scripts and stylesheet were fetched (`fetch:NAME` start and `fetched:NAME` end), and the webview's
 * own `ti:` User Timing marks (webview/rpc.ts `mark`: script evaluated, ready sent, init received,
 * problem data taken from the init (`ti:prefetched`), shell built, similarity received) and measures
 * (`ti:compile:ID` Vega-Lite compile and `ti:embed:ID` Vega view of a chart element, as durations in ms).
 */
async function webviewSteps(frame: Frame, t0: number): Promise<Record<string, number>> {
  const read = (f: Frame) =>
    f.evaluate(() => ({
      origin: performance.timeOrigin,
      marks: performance
        .getEntriesByType('mark')
        .filter((e) => e.name.startsWith('ti:'))
        .map((e) => ({ name: e.name, at: e.startTime })),
      measures: performance
        .getEntriesByType('measure')
        .filter((e) => e.name.startsWith('ti:'))
        .map((e) => ({ name: e.name, ms: e.duration })),
      resources: (
        performance.getEntriesByType('resource') as unknown as {
          name: string;
          startTime: number;
          responseEnd: number;
        }[]
      )
        .filter((e) => /(webview|preview|charts-vendor|charts-vegalite)\.(js|css)/.test(e.name))
        .map((e) => ({ name: e.name.split('/').pop()?.split('?')[0] ?? '', start: e.startTime, end: e.responseEnd })),
    }));
  const inner = await read(frame);
  const outer = frame.parentFrame() ? await read(frame.parentFrame() as Frame).catch(() => undefined) : undefined;
  const at = (origin: number, t: number) => Math.round(origin + t - t0);
  const steps: Record<string, number> = {};
  if (outer) steps['frame:outer'] = at(outer.origin, 0);
  steps['frame:inner'] = at(inner.origin, 0);
  for (const r of inner.resources) {
    steps[`fetch:${r.name}`] = at(inner.origin, r.start);
    steps[`fetched:${r.name}`] = at(inner.origin, r.end);
  }
  for (const m of inner.marks) steps[m.name] = at(inner.origin, m.at);
  for (const m of inner.measures) steps[`${m.name} (ms)`] = Math.round(m.ms);
  return steps;
}

/** Stops the heartbeat; the longest stall (ms) and the long tasks (ms) seen since it started. */
async function stopStallProbe(page: Page): Promise<{ maxStallMs: number; longTasksMs: number[] }> {
  return page.evaluate(() => {
    const p = window.__tiProbe;
    window.clearInterval(p.timer);
    (p.observer as { disconnect(): void } | undefined)?.disconnect();
    return { maxStallMs: Math.round(p.maxGap), longTasksMs: p.longTasks.map((d: number) => Math.round(d)) };
  });
}

/**
 * The longest heartbeat gap (ms) this smoke allows the long sample's phases: the target is 200 ms, checked here
 * in a generous form, on a machine whose 1-minute load per core is at most {@link STALL_CHECK_MAX_LOAD} (above it,
 * the figures are recorded, not checked: with 10 runnable tasks a core, a task of 60 ms of CPU took 500 ms of
 * wall time in a trace of this test). Before the long sample was virtualised, scrolling the preview was a
 * 1.27 s stall, opening its text tab 1.16 s and showing the problem view's Rendered tab 0.87 s.
 */
const STALL_LIMIT_MS = 1000;
/** The 1-minute load average per core above which the stalls are not checked against {@link STALL_LIMIT_MS}. */
const STALL_CHECK_MAX_LOAD = 4;

/**
 * Scrolls the page of `frame` (a webview) from top to bottom as a reader jumping through it: `steps` jumps of
 * an equal share of its height, each followed by `pauseMs` (the pieces near the new place render meanwhile).
 */
async function jumpThrough(frame: Frame, steps = 10, pauseMs = 300): Promise<void> {
  for (let i = 1; i <= steps; i++) {
    await frame.evaluate((f: number) => {
      const el = document.scrollingElement;
      el.scrollTop = f * (el.scrollHeight - el.clientHeight);
    }, i / steps);
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

/** Turns the mouse wheel `turns` times (600 px up each, 60 ms apart) over the webview of `frame`. */
async function wheelUp(page: Page, frame: Frame, turns = 8): Promise<void> {
  const box = await (await frame.frameElement()).boundingBox();
  if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < turns; i++) {
    await page.mouse.wheel(0, -600);
    await new Promise((r) => setTimeout(r, 60));
  }
}

/**
 * What of a virtualised sample is in the page of `frame`: its pieces (`.trace-chunk` boxes in `selector`),
 * those rendered (not `.pending`), and whether its last piece is rendered.
 */
async function piecesInPage(
  frame: Frame,
  selector: string,
): Promise<{ pieces: number; rendered: number; lastRendered: boolean; virtual: boolean }> {
  return frame.evaluate((selector: string) => {
    const el = document.querySelector(selector);
    const boxes = el ? [...el.querySelectorAll('.trace-chunk')] : [];
    const done = (b: { classList: { contains(c: string): boolean } } | undefined) =>
      !!b && !b.classList.contains('pending');
    return {
      pieces: boxes.length,
      rendered: boxes.filter(done).length,
      lastRendered: done(boxes[boxes.length - 1]),
      virtual: el?.getAttribute('data-virtual') === 'true',
    };
  }, selector);
}

/**
 * {@link piecesInPage} once the last piece of the sample in `selector` is rendered (the page scrolled to its end),
 * or after 20 s; with `endMs`, how long that took from the call (the rendering near the end, on a loaded machine).
 */
async function endRendered(
  page: Page,
  frame: Frame,
  selector: string,
): Promise<Awaited<ReturnType<typeof piecesInPage>> & { endMs: number }> {
  const t0 = Date.now();
  const last = await waitUntil(
    page,
    async () => {
      const p = await piecesInPage(frame, selector);
      return p.lastRendered || Date.now() - t0 > 20_000 ? p : undefined;
    },
    { timeoutMs: 30_000, what: 'the end of the sample rendered' },
  );
  return { ...last, endMs: Date.now() - t0 };
}

describe(`problem view and preview speed on ${SIZE} samples (measured, reported)`, { timeout: 900_000 }, () => {
  let s: Session;
  const results: Record<string, unknown> = {};

  before(async () => {
    const folder = path.join(outputRoot, 'workspace', 'perf');
    fs.rmSync(folder, { recursive: true, force: true });
    const manifest = generate(
      { problems: 3, samples: SAMPLES, models: 2, meanChars: 4500, seed: 1 },
      folder,
      path.join(outputRoot, 'perf-manifest.json'),
    );
    // One RL sample of 300k characters: problem 0, sample 0 (its own text, repeated paragraph by paragraph).
    const rl = manifest.files.find((f) => f.model.includes('SimpleRL'))!;
    const file = path.join(folder, rl.path);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const rec = JSON.parse(lines[0]) as { code: string[] };
    let long = '';
    for (let i = 0; long.length < LONG_CHARS; i++) long += `${i ? '\n\n' : ''}Part ${i + 1}.\n\n${rec.code[0]}`;
    rec.code[0] = long.slice(0, LONG_CHARS);
    lines[0] = JSON.stringify(rec);
    fs.writeFileSync(file, lines.join('\n'));
    results.folder = {
      size: FULL ? 'full' : 'smoke',
      problems: 3,
      samplesPerModel: SAMPLES,
      models: 2,
      meanChars: Math.round(manifest.meanSampleChars),
      longSampleChars: LONG_CHARS,
    };
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({ name: 'perf', vsix, folder, settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
  });

  after(async () => {
    // The machine is shared: its load is part of every figure.
    results.machine = { cpus: os.cpus().length, loadAverage1m: os.loadavg()[0].toFixed(1) };
    fs.writeFileSync(path.join(outputRoot, 'perf.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`[perf] ${JSON.stringify(results)}`);
    await s?.close();
  });

  /** The width (px) of the last problem view's pass@k chart (undefined before the first). */
  let lastChartWidth: number | undefined;

  /** Opens the problem view of `problem` from its row's chart icon; times chart and similarity list from the click. */
  async function openProblemView(
    problem: string,
    lookMs = 0,
  ): Promise<{
    frame: Frame;
    chartMs: number;
    interactiveMs: number;
    similarityMs: number;
    steps: Record<string, number>;
  }> {
    await clickTreeRow(s.page, VIEW, problem);
    const action = s.page.locator('.monaco-list-row.selected .action-label[aria-label="Open Problem View"]').first();
    await action.waitFor({ state: 'visible', timeout: 10_000 });
    // a user who looks at the selected row before clicking its chart icon (the selection's similarity job runs meanwhile)
    if (lookMs > 0) await new Promise((r) => setTimeout(r, lookMs));
    const t0 = Date.now();
    await action.click();
    const frame = await frameWith(s.page, '#chart-passk[data-rendered-at]', {
      h1Prefix: `Problem ${problem} `,
      what: `the chart of problem ${problem}`,
    });
    const chartAt = Number(await frame.$eval('#chart-passk', (e) => e.getAttribute('data-rendered-at')));
    const chartTop = () => frame.$eval('#chart-passk', (e) => Math.round(e.getBoundingClientRect().top));
    const topAtFirstPaint = await chartTop();
    const tableTop = () => frame.$eval('#stats-table', (e) => Math.round(e.getBoundingClientRect().top));
    const tableAtFirstPaint = await tableTop();
    // the chart's Vega view (tooltips) drawn in place of the host's SVG drawing of it
    await frameWith(s.page, '#chart-passk[data-interactive-at] canvas', { frame, what: 'the Vega view of the chart' });
    const interactiveAt = Number(await frame.$eval('#chart-passk', (e) => e.getAttribute('data-interactive-at')));
    assert.equal(await frame.$$eval('#chart-passk .chart-static', (els) => els.length), 0, 'the SVG drawing replaced');
    // the host drew it at the width the last page reported (600 px before any did)
    const firstSvgWidth = await frame.$eval('#chart-passk', (e) => e.getAttribute('data-first-svg-width'));
    assert.equal(firstSvgWidth, String(lastChartWidth ?? 600), 'the SVG drawing at the last chart width');
    lastChartWidth = await frame.$eval('#chart-passk', (e) => e.clientWidth);
    // nothing above the chart moves once it is on screen (trial 15 finding 3: the statement's Markdown, loaded
    // after the first chart, moved the view down 13 px)
    await frameWith(s.page, '#question[data-rendered]', { frame, what: 'the statement rendered' });
    const moved = (await chartTop()) - topAtFirstPaint;
    assert.ok(Math.abs(moved) <= 2, `the chart where it was first drawn (moved ${moved} px)`);
    // nor the table under the c/n chart, whose room is kept until it is drawn (trial 15b finding 2)
    await frameWith(s.page, '#chart-accuracy canvas', { frame, what: 'the c/n chart' });
    const tableMoved = (await tableTop()) - tableAtFirstPaint;
    assert.ok(Math.abs(tableMoved) <= 6, `the table where it was (moved ${tableMoved} px)`);
    await frameWith(s.page, '#sample-list[data-rendered-at]', { frame, timeoutMs: 300_000, what: 'the sample list' });
    const listAt = Number(await frame.$eval('#sample-list', (e) => e.getAttribute('data-rendered-at')));
    const steps = await webviewSteps(frame, t0);
    // the extension host's steps of the similarity job (SimilarityData `hostSteps`, epoch ms): `host:start` the
    // job asked for, `host:texts` where the texts are looked up (the worker reads them), `host:posted` handed to the worker, `host:done` its result
    // back, `host:warmed` the worker's idle warm-up ended (negative: before the click)
    const hostSteps = await frame.$eval('#sample-list', (e) => e.getAttribute('data-host-steps'));
    for (const [k, at] of Object.entries(JSON.parse(hostSteps ?? '{}') as Record<string, number>))
      steps[`host:${k}`] = at - t0;
    return { frame, chartMs: chartAt - t0, interactiveMs: interactiveAt - t0, similarityMs: listAt - t0, steps };
  }

  test(`problem view of a ${SIZE} problem, first time: chart and similarity list from the click; stalls`, async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      await waitUntil(
        s.page,
        async () => ((await treeRowDetails(s.page, VIEW)).filter((r) => r.level === 1).length === 3 ? true : undefined),
        {
          timeoutMs: 180_000,
          what: 'the 3 problems indexed',
        },
      );
      // let indexing and the first-open work settle before measuring
      await waitUntil(
        s.page,
        async () => ((await s.page.locator('.part.statusbar').innerText()).includes('Indexing') ? undefined : true),
        {
          timeoutMs: 180_000,
          what: 'indexing to finish',
        },
      );
      await waitForQuiet(s.page, 'opening the problem view');
      await startStallProbe(s.page);
      const stopProfile = await startTrace(s.page);
      const { chartMs, interactiveMs, similarityMs, steps } = await openProblemView('1');
      const trace = await stopProfile('open');
      results.problemView = {
        chartMs,
        interactiveMs,
        similarityMsFirstTime: similarityMs,
        ...(await stopStallProbe(s.page)),
        steps,
        trace,
      };
      await screenshot(s.page, 'perf-1-problem-view');
    } catch (e) {
      await s.fail(e, 'perf-1');
    }
  });

  test('the 300k-character sample in the problem view and in the preview: stalls', async () => {
    try {
      const { frame, chartMs, interactiveMs, similarityMs, steps } = await openProblemView('0');
      results.problemViewWithLongSample = { chartMs, interactiveMs, similarityMsFirstTime: similarityMs, steps };
      const row = await frame.$$eval('.sample-row', (els) =>
        els.findIndex((e) => (e.querySelector('.idx')?.textContent ?? '') === '#0'),
      );
      assert.ok(row >= 0, 'the long sample #0 is listed');
      await waitForQuiet(s.page, 'opening the long sample');
      await startStallProbe(s.page);
      const stopLongProfile = await startTrace(s.page);
      const t0 = Date.now();
      await frame.locator('.sample-row').nth(row).click();
      await frameWith(s.page, '#trace-rendered[data-rendered]', { frame, what: 'the long sample rendered' });
      await frameWith(s.page, '#novel-spans', { frame, what: 'the novel spans of the long sample' });
      const longTrace = await stopLongProfile('long-sample');
      results.longSampleInProblemView = {
        openMs: Date.now() - t0,
        ...(await stopStallProbe(s.page)),
        trace: longTrace,
      };
      await screenshot(s.page, 'perf-2-long-sample');
      // its Rendered tab shown, then scrolled through: only the pieces near what is shown are in the page
      await waitForQuiet(s.page, 'the Rendered tab');
      await startStallProbe(s.page);
      const stopTabProfile = await startTrace(s.page);
      const t2 = Date.now();
      await frame.click('#tab-rendered');
      await frameWith(s.page, '#trace-rendered .trace-chunk:not(.pending)', { frame, what: 'the Rendered tab filled' });
      const showMs = Date.now() - t2;
      await jumpThrough(frame);
      const inTab = await endRendered(s.page, frame, '#trace-rendered');
      await screenshot(s.page, 'perf-2b-rendered-tab-end');
      await wheelUp(s.page, frame);
      const tabTrace = await stopTabProfile('rendered-tab');
      results.longSampleRenderedTab = { showMs, ...(await stopStallProbe(s.page)), pieces: inTab, trace: tabTrace };
      // (the problem view is sent the first 200,000 characters: MAX_TEXT, 200 pieces or so)
      assert.ok(inTab.virtual && inTab.pieces >= 150, `the Rendered tab virtualised (${JSON.stringify(inTab)})`);
      assert.ok(inTab.lastRendered, 'scrolled to its end, the Rendered tab shows its last piece');
      assert.ok(inTab.rendered <= 60, `at most 60 of ${inTab.pieces} pieces in the page (${inTab.rendered})`);
      // its text tab: plain text (.txt), which the editor does not tokenize; the stall until 3 s after it shows
      await waitForQuiet(s.page, 'the text tab');
      await startStallProbe(s.page);
      const stopTextProfile = await startTrace(s.page);
      const t3 = Date.now();
      await frame.click('.detail-head vscode-button[aria-label="Open in an editor"]');
      await waitUntil(
        s.page,
        async () =>
          (await s.page.locator('.tabs-container .tab.active').innerText()).includes('sample 0') ? true : undefined,
        {
          what: 'the text tab of the long sample',
        },
      );
      const textTabMs = Date.now() - t3;
      await new Promise((r) => setTimeout(r, 3000));
      const textTrace = await stopTextProfile('text-tab');
      results.longSampleTextTab = { showMs: textTabMs, ...(await stopStallProbe(s.page)), trace: textTrace };
      assert.match((await activeEditorTitle(s.page)) ?? '', /sample 0\.txt$/, 'the long sample opens as plain text');
      // from the text tab's title-bar button, not the command palette: typing a command into the palette
      // is itself a 0.5-0.7 s task of the workbench (a Chromium trace showed it), which is not the preview's
      const previewButton = s.page.locator('.editor-actions .action-label[aria-label^="Open Sample Preview"]').first();
      await previewButton.waitFor({ state: 'visible', timeout: 10_000 });
      await waitForQuiet(s.page, 'the preview');
      await startStallProbe(s.page);
      const stopPreviewProfile = await startTrace(s.page);
      const t1 = Date.now();
      await previewButton.click();
      await frameWith(s.page, '#preview-text[data-sample-index="0"][data-rendered]', {
        what: 'the long sample rendered in the preview',
      });
      const trace = await stopPreviewProfile('preview');
      results.longSampleInPreview = { renderMs: Date.now() - t1, ...(await stopStallProbe(s.page)), trace };
      await screenshot(s.page, 'perf-3-long-sample-preview');
      // the preview scrolled through, jumps then the wheel
      const preview = await frameWith(s.page, '#preview-text[data-sample-index="0"][data-rendered]', {
        what: 'the preview',
      });
      await waitForQuiet(s.page, 'scrolling the preview');
      await startStallProbe(s.page);
      const stopScrollProfile = await startTrace(s.page);
      await jumpThrough(preview);
      const inPreview = await endRendered(s.page, preview, '#preview-text');
      await screenshot(s.page, 'perf-3b-long-sample-preview-end');
      await wheelUp(s.page, preview);
      const scrollTrace = await stopScrollProfile('preview-scroll');
      results.longSampleScrollInPreview = { ...(await stopStallProbe(s.page)), pieces: inPreview, trace: scrollTrace };
      assert.ok(inPreview.virtual && inPreview.pieces >= 250, `the preview virtualised (${JSON.stringify(inPreview)})`);
      assert.ok(inPreview.lastRendered, 'scrolled to its end, the preview shows its last piece');
      assert.ok(
        inPreview.rendered <= 60,
        `at most 60 of ${inPreview.pieces} pieces in the page (${inPreview.rendered})`,
      );
      // the issue's no-stall target (200 ms), in a generous form (STALL_LIMIT_MS): figures above are the record
      const load = os.loadavg()[0] / os.cpus().length;
      if (load > STALL_CHECK_MAX_LOAD)
        console.log(`[perf] stalls not checked: load ${load.toFixed(1)} per core (> ${STALL_CHECK_MAX_LOAD})`);
      else
        for (const phase of [
          'longSampleInProblemView',
          'longSampleRenderedTab',
          'longSampleTextTab',
          'longSampleInPreview',
          'longSampleScrollInPreview',
        ]) {
          const stall = (results[phase] as { maxStallMs: number }).maxStallMs;
          assert.ok(
            stall < STALL_LIMIT_MS,
            `${phase}: a stall of ${stall} ms (limit ${STALL_LIMIT_MS} ms, target 200 ms)`,
          );
        }
    } catch (e) {
      await s.fail(e, 'perf-2');
    }
  });

  test('problem view of a problem whose row was selected 1 s before the click on its chart icon', async () => {
    try {
      await waitForQuiet(s.page, 'the third problem');
      const { chartMs, interactiveMs, similarityMs, steps } = await openProblemView('2', 1000);
      results.problemViewAfterSelection = {
        lookMs: 1000,
        chartMs,
        interactiveMs,
        similarityMsFirstTime: similarityMs,
        steps,
      };
    } catch (e) {
      await s.fail(e, 'perf-3');
    }
  });
  // the bench only (E2E_PERF=full): a reload costs the smoke half a minute, and test/e2e/restore.e2e.ts checks
  // the restored tabs' content in CI (and prints the same times)
  test('after a window reload: the problem view and the preview of the long sample, from the activation', {
    skip: !FULL && 'the bench only (E2E_PERF=full)',
  }, async () => {
    try {
      // on screen when the window reloads: the last problem view and, in its group, the long sample's preview
      await s.page.locator('.tabs-container .tab', { hasText: '#0 ·' }).first().click();
      await frameWith(s.page, '#preview-text[data-sample-index="0"][data-rendered]', { what: 'the preview in front' });
      await reloadWindow(s.page);
      // (the problem view is timed when it is on screen too: in a group of its own)
      const [view, preview] = await Promise.all([
        frameWith(s.page, '#chart-passk[data-rendered-at]', {
          what: 'the restored problem view',
          timeoutMs: 60_000,
        }).catch(() => undefined),
        frameWith(s.page, '#preview-text[data-shown-at]', { what: 'the restored preview' }),
      ]);
      const times = {
        ...(view ? await restoreTimes(view, 'problemViewMs') : {}),
        ...(await restoreTimes(preview, 'previewMs')),
      };
      results.restore = times;
      await screenshot(s.page, 'perf-4-restored');
    } catch (e) {
      await s.fail(e, 'perf-4');
    }
  });
});
