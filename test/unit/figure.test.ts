// sqlite-parity: skip — the figures' drawing and captions, not storage; report-golden runs the report's queries under node:sqlite
/**
 * `trace-inspector figure` (src/extension/figureExport.ts, shared with the extension's export) on real folders: the SVG of pass@k drawn by the extension host's
 * own bundles (built here from scripts/build.mjs's options, so they are the sources under test) read back
 * (the points' positions) and compared with the report's JSON; the same bytes on a second run; coverage and
 * training against the report's comparisons and trajectories; the --width parser.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path, { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type * as esbuild from 'esbuild';
import { outputFormat, parseFigureWidth, parseScale } from '../../src/cli/commands/figureCommand';
import { parse } from 'csv-parse/sync';
import {
  type ChartTools,
  exportFigure,
  figureData,
  figureProvenance,
  loadChartTools,
  loadPngRenderer,
  pngSize,
  renderFigure,
} from '../../src/extension/figureExport';
import { rewardModelsData } from '../../src/extension/panelData';
import { OKABE_ITO, wrapCaption } from '../../src/shared/printFigures';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { REAL, tempDir, writeRollouts } from './helpers';

const root = path.resolve(__dirname, '..', '..', '..');

/** dist/vegaLiteCompiler.js and dist/vegaRenderer.js as scripts/build.mjs builds them, in a temporary folder. */
async function buildChartTools(): Promise<ChartTools> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esb = require('esbuild') as typeof esbuild;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { builds } = require(path.join(root, 'scripts', 'build.mjs')) as {
    builds: (esbuild.BuildOptions & { outfile: string })[];
  };
  const dir = tempDir('ti-figure-tools-');
  for (const bundle of ['vegaLiteCompiler.js', 'vegaRenderer.js']) {
    const options = builds.find((b) => b.outfile === `dist/${bundle}`);
    assert.ok(options, `scripts/build.mjs builds dist/${bundle}`);
    await esb.build({
      ...options,
      absWorkingDir: root,
      outfile: join(dir, bundle),
      sourcemap: false,
      logLevel: 'silent',
    });
  }
  return loadChartTools([join(dir, 'missing'), dir]);
}

/** The plot's size: the first group background with a non-empty size (`d="M0,0h<w>v<h>..."`). */
function plotSize(svg: string): { width: number; height: number } {
  const m = /class="background" aria-hidden="true" d="M0,0h([\d.]+)v([\d.]+)/.exec(svg);
  assert.ok(m, 'the SVG has a plot background');
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** The centres of the symbols (points) of every symbol mark, with their fill. */
function symbolCentres(svg: string): { x: number; y: number; fill: string }[] {
  const out: { x: number; y: number; fill: string }[] = [];
  for (const g of svg.matchAll(/<g class="mark-symbol role-mark[^>]*[^/]>(.*?)<\/g>/g))
    for (const p of g[1].matchAll(/<path transform="translate\(([-\d.e]+),([-\d.e]+)\)"[^>]*?fill="([^"]+)"/g))
      out.push({ x: Number(p[1]), y: Number(p[2]), fill: p[3] });
  return out;
}

let tools: ChartTools;
before(async () => {
  tools = await buildChartTools();
});

describe('figure pass-at-k on the Qwen2.5-Math example', async () => {
  const dir = join(REAL, 'qwen25-math-eval-example');
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const report = buildReport(index);

  test("the points drawn are the report's pass@k, the intervals in the provenance are the report's", async () => {
    const fig = figureData(index, 'pass-at-k');
    const svg = await renderFigure(tools, fig);
    const { width, height } = plotSize(svg);
    const points = symbolCentres(svg).sort((a, b) => a.x - b.x);
    const passAtK = report.models[0].passAtK;
    assert.equal(points.length, passAtK.length, 'one point per k of the report');
    const maxK = Math.max(...passAtK.map((p) => p.k));
    for (const [i, p] of passAtK.entries()) {
      // y: linear [0, 1] -> [height, 0]; x: log2 k over [1, max k] -> [0, width]
      assert.ok(Math.abs(1 - points[i].y / height - (p.value as number)) < 1e-9, `pass@${p.k}: y`);
      assert.ok(Math.abs(points[i].x - (width * Math.log2(p.k)) / Math.log2(maxK)) < 1e-6, `pass@${p.k}: x`);
      assert.equal(points[i].fill, OKABE_ITO[0]);
    }
    const prov = figureProvenance(fig, dir, join(tempDir(), 'p.svg'), 336);
    assert.deepEqual(
      prov.values.map((v) => [v.k, v.value, v.ciLow, v.ciHigh, v.problems, v.missing]),
      passAtK.map((p) => [p.k, p.value, p.ciLow, p.ciHigh, p.problems, p.missing]),
    );
    assert.match(prov.tool.version, /^\d+\.\d+\.\d+/);
    assert.equal(prov.file, 'p.svg');
    assert.equal(prov.format, 'svg');
    assert.equal(prov.caption, '100 problems, n = 8; 95% bootstrap intervals over problems (2000 replicates)');
    assert.ok(svg.includes('>100 problems, n = 8; 95% bootstrap intervals over'), 'the caption is drawn');
    assert.ok(svg.includes('fill="#FFFFFF"'), 'white background');
    assert.ok(!/var\(--vscode/.test(svg), 'no editor theme variable');
  });

  test('the same folder gives the same bytes', async () => {
    const a = await renderFigure(tools, figureData(index, 'pass-at-k', { width: 400 }));
    const b = await renderFigure(tools, figureData(index, 'pass-at-k', { width: 400 }));
    assert.equal(a, b);
    assert.match(a, /^<svg[^>]* width="400"/);
  });

  test('the CLI bundle (dist/cli.js) writes the same figure and its provenance beside it, and prints the caption', async () => {
    const out = join(tempDir(), 'pass.svg');
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const stdout = execFileSync(
      process.execPath,
      [cli, 'figure', dir, 'pass-at-k', '-o', out, '--db', join(tempDir(), 'i.db'), '-q'],
      { encoding: 'utf8' },
    );
    const fig = figureData(index, 'pass-at-k');
    assert.equal(stdout, `${fig.caption}\n`);
    assert.equal(readFileSync(out, 'utf8'), await renderFigure(tools, fig));
    const prov = JSON.parse(readFileSync(`${out}.json`, 'utf8'));
    assert.deepEqual(prov, JSON.parse(JSON.stringify(figureProvenance(fig, dir, out, 336))));
  });

  test('-o into a folder that does not exist: said by name before anything is computed, nothing written', () => {
    const missing = join(tempDir(), 'no', 'such');
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const db = join(tempDir(), 'i.db');
    const r = spawnSync(
      process.execPath,
      [cli, 'figure', dir, 'pass-at-k', '-o', join(missing, 'x.png'), '--db', db, '-q'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      new RegExp(`no folder ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to write .*x\\.png in: create it first`),
    );
    assert.ok(!existsSync(missing));
  });

  test('a folder of one model has no coverage or training figure, and says why', () => {
    assert.throws(() => figureData(index, 'coverage'), /compar|one model/i);
    assert.throws(() => figureData(index, 'training'), /no checkpoint series/);
    assert.throws(
      () => figureData(index, 'histogram'),
      /unknown figure "histogram": one of pass-at-k, coverage, training, reward-models, splits, problem/,
    );
  });

  test("--level: one difficulty level's curve is the report's stratum", () => {
    const fig = figureData(index, 'pass-at-k', { level: '3' });
    const stratum = report.strata.find((s) => s.level === '3');
    assert.ok(stratum);
    assert.deepEqual(
      fig.values.map((v) => [v.k, v.value, v.ciLow, v.ciHigh]),
      stratum.passAtK.map((p) => [p.k, p.value, p.ciLow, p.ciHigh]),
    );
    assert.match(fig.caption, new RegExp(`^level 3; ${stratum.problems} problems, n = 8; `));
    assert.equal(fig.settings.level, '3');
    assert.throws(
      () => figureData(index, 'pass-at-k', { level: '9' }),
      /no difficulty level "9": the levels are 1, 2, 3, 4, 5/,
    );
  });

  test("splits: a cell per level, pass@1 drawn as the cells' labels", async () => {
    const fig = figureData(index, 'splits');
    assert.equal(fig.settings.splits, 'level');
    assert.deepEqual(
      fig.values.map((v) => v.split),
      ['1', '2', '3', '4', '5'],
    );
    const svg = await renderFigure(tools, fig);
    for (const v of fig.values)
      assert.ok(svg.includes(`>${((v.value as number) * 100).toFixed(1)}</text>`), `${v.split}`);
    assert.match(fig.caption, /^100 problems in 5 splits by difficulty level, n = 8; cells: pass@1/);
  });

  test("reward-models: a point per scorer at N = 4, the tab's best-of-N and pairwise accuracy", async () => {
    const fig = figureData(index, 'reward-models');
    const rm = rewardModelsData(index, 2000).models[0];
    assert.deepEqual(
      fig.values.map((v) => [v.scorer, v.pairwiseAccuracy, v.bestOfN]),
      rm.scorers.map((s) => [s.name, s.pairwiseAccuracy, s.bestOfN.find((b) => b.n === 4)?.value]),
    );
    assert.match(fig.caption, /^math_cot_100: 1 scorer; .*best-of-4 over all 100 problems/);
    assert.match(await renderFigure(tools, fig), /<svg/);
  });

  test("problem: one problem's pass@k by its id, the caption its c/n", () => {
    const fig = figureData(index, 'problem', { problem: '17' });
    assert.match(fig.caption, /^problem 17 \(math_cot_100\); math_cot_100 4\/8 correct/);
    assert.equal(fig.values.find((v) => v.k === 1)?.value, 0.5);
    assert.throws(() => figureData(index, 'problem', { problem: 'nosuch' }), /no problem "nosuch"/);
  });

  test('problem: the base model is drawn in black', async () => {
    const dir = join(REAL, 'rlvr-probe-gsm8k');
    const idx = TraceIndex.open(':memory:');
    await indexFolder(idx, dir);
    const fig = figureData(idx, 'problem', { problem: '0', replicates: 200 });
    const base = fig.models.find((m) => m.base);
    assert.ok(base, 'the problem has its base model');
    const svg = await renderFigure(tools, fig);
    const lines = [...svg.matchAll(/<g class="mark-line role-mark[^>]*>(.*?)<\/g>/g)].map((m) => m[1]);
    assert.ok(
      lines.some((l) => l.includes('stroke="#000000"')),
      'a black curve',
    );
    idx.close();
  });

  test('PNG: round(width x scale) pixels wide, the same bytes twice, its text drawn with the shipped font', async () => {
    const png = await loadPngRenderer();
    const fig = figureData(index, 'pass-at-k');
    const svg = await renderFigure(tools, fig);
    const svgHeight = Number(/^<svg[^>]* height="([\d.]+)"/.exec(svg)?.[1]);
    const a = await exportFigure(fig, dir, { format: 'png', scale: 2.5, file: 'p.png' }, tools, png);
    const b = await exportFigure(fig, dir, { format: 'png', scale: 2.5, file: 'p.png' }, tools, png);
    assert.deepEqual(pngSize(a.bytes), { width: Math.round(336 * 2.5), height: Math.round(svgHeight * 2.5) });
    assert.ok(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), 'same bytes');
    // the same SVG without its text: a PNG with text has more ink, so more bytes than one without
    const noText = png(svg.replace(/<text[^>]*>[^<]*<\/text>/g, ''), 2.5);
    assert.ok(a.bytes.length > noText.length * 1.3, `text drawn (${a.bytes.length} vs ${noText.length} bytes)`);
    const prov = JSON.parse(new TextDecoder().decode(Buffer.from(a.provenance ?? '')));
    assert.deepEqual([prov.format, prov.scale, prov.width, prov.file], ['png', 2.5, 336, 'p.png']);
    await assert.rejects(
      exportFigure(fig, dir, { format: 'png', scale: 40, file: 'p.png' }, tools, png),
      /at most 10000 px a side/,
    );
    await assert.rejects(loadPngRenderer([join(tempDir(), 'none')]), /resvg\.wasm/);
  });

  test('the values drawn as CSV and JSON: every value exactly, as the provenance lists them', async () => {
    const fig = figureData(index, 'pass-at-k');
    const csv = await exportFigure(fig, dir, { format: 'csv', file: 'p.csv' }, tools);
    const rows = parse(Buffer.from(csv.bytes).toString('utf8'), { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => [r.model, Number(r.k), Number(r.value), Number(r.ciLow), Number(r.ciHigh)]),
      fig.values.map((v) => [v.model, v.k, v.value, v.ciLow, v.ciHigh]),
    );
    assert.equal(csv.provenance, undefined);
    const json = await exportFigure(fig, dir, { format: 'json', file: 'p.json' }, tools);
    const data = JSON.parse(Buffer.from(json.bytes).toString('utf8'));
    assert.deepEqual(data.values, fig.values);
    assert.deepEqual([data.format, data.file], ['json', 'p.json']);
    assert.equal(data.folder, dir);
  });

  test('the CLI writes a PNG at --scale 300dpi', () => {
    const out = join(tempDir(), 'pass.png');
    execFileSync(process.execPath, [
      join(process.cwd(), 'dist', 'cli.js'),
      'figure',
      dir,
      'pass-at-k',
      '-o',
      out,
      '--scale',
      '300dpi',
      '--db',
      join(tempDir(), 'i.db'),
      '-q',
    ]);
    assert.equal(pngSize(readFileSync(out)).width, Math.round((336 * 300) / 96));
    assert.equal(JSON.parse(readFileSync(`${out}.json`, 'utf8')).format, 'png');
  });
});

describe('figure coverage and training on the RLVR probe', async () => {
  const dir = join(REAL, 'rlvr-probe-gsm8k');
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const report = buildReport(index, { replicates: 200 });

  test("coverage: a bar a compared pair, the report's four counts", async () => {
    const fig = figureData(index, 'coverage', { replicates: 200 });
    const label = new Map(report.models.map((m) => [m.id, m.label]));
    const fromReport = report.comparisons
      .map((c) => [c.model, c.coverage.baseOnly, c.coverage.modelOnly, c.coverage.both, c.coverage.neither])
      .sort();
    const drawn = fig.values
      .map((v) => {
        const m = fig.models.find((x) => x.label === v.model);
        return [m?.id ?? '', v.baseOnly, v.modelOnly, v.both, v.neither];
      })
      .sort();
    assert.equal(label.size > 0, true);
    assert.deepEqual(drawn, fromReport);
    assert.match(
      fig.caption,
      /30 problems both models have graded samples for, n = 8; solved: at least one correct sample/,
    );
    assert.match(await renderFigure(tools, fig), /<svg/);
  });

  test('--model picks models as search does; a coverage bar comes with its base, a pass@k figure draws only those named', () => {
    const cov = figureData(index, 'coverage', { models: ['ppo@step-1000'], replicates: 200 });
    assert.deepEqual(
      cov.values.map((v) => [v.model, v.base]),
      [['ppo@step-1000', 'sft · step-1000']],
    );
    assert.deepEqual(
      cov.models.map((m) => [m.label, m.base]),
      [
        ['ppo@step-1000', false],
        ['sft · step-1000', true],
      ],
    );
    const pass = figureData(index, 'pass-at-k', { models: ['ppo@step-1000', 'ppo@step-100'], replicates: 200 });
    assert.deepEqual(pass.models.map((m) => m.label).sort(), ['ppo@step-100', 'ppo@step-1000']);
    assert.throws(() => figureData(index, 'pass-at-k', { models: ['nosuch'] }), /no model matches --model "nosuch"/);
  });

  test("the figure in the README and docs is this folder's pass@k as exported (SVG, PNG at scale 2)", async () => {
    const fig = figureData(index, 'pass-at-k');
    const images = path.join(root, 'docs', 'images');
    assert.equal(await renderFigure(tools, fig), readFileSync(join(images, 'figure-pass-at-k.svg'), 'utf8'));
    const png = await exportFigure(fig, dir, { format: 'png', scale: 2, file: 'figure-pass-at-k.png' }, tools);
    assert.ok(Buffer.from(png.bytes).equals(readFileSync(join(images, 'figure-pass-at-k.png'))), 'the PNG as exported');
  });

  test("training: pass@1 per checkpoint is the report's trajectory", async () => {
    const fig = figureData(index, 'training', { replicates: 200 });
    const t = report.trajectories[0];
    const drawn = fig.values.filter((v) => v.who === 'checkpoint' && v.k === 1).map((v) => [v.step, v.value]);
    assert.deepEqual(
      drawn,
      t.steps.map((s) => [s.step, s.passAtK.find((p) => p.k === 1)?.value]),
    );
    assert.match(fig.caption, /4 checkpoints, 30 problems, n = 8; base dashed/);
    assert.match(await renderFigure(tools, fig), /<svg/);
  });
});

describe('figure captions of a folder with problems left out', async () => {
  const dir = tempDir('ti-figure-left-');
  writeRollouts(join(dir, 'base', 'results.jsonl'), { name: 'org/base-model', revision: 'main' }, [
    [1, [true, false, false, false]],
    [2, [false, false, false, false]],
    [3, [true, true, false, false]],
  ]);
  // problem 2 with two samples (n < k at k = 4), problem 3 with none
  writeRollouts(join(dir, 'rl', 'results.jsonl'), { name: 'org/rl-model', revision: 'main' }, [
    [1, [true, true, true, false]],
    [2, [true, false]],
    [3, []],
  ]);
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);

  test('pass@k: n by model with its range, hollow points named; the SVG draws them hollow', async () => {
    const fig = figureData(index, 'pass-at-k', { base: 'base-model', replicates: 200 });
    assert.match(
      fig.caption,
      /^3 problems, n = 4 \(base-model@main\), 2\.\.4 \(rl-model@main\); .*hollow points: over fewer problems/,
    );
    assert.ok(fig.values.some((v) => (v.missing as number) > 0));
    assert.match(await renderFigure(tools, fig), /<path transform="translate\([^)]*\)" d="[^"]*" stroke="#0072B2"/);
  });

  test('coverage: the problems of the pair and the one left out', () => {
    const fig = figureData(index, 'coverage', { base: 'base-model', replicates: 200 });
    assert.match(
      fig.caption,
      /^2 problems both models have graded samples for, n = 4 \(base\), 2\.\.4 \(model\); .*left out: 1 problem \(/,
    );
  });
});

test('--width: px, inches at 96 px, cm; too narrow or unreadable is an error', () => {
  assert.equal(parseFigureWidth('336'), 336);
  assert.equal(parseFigureWidth('3.5in'), 336);
  assert.equal(parseFigureWidth('8.5cm'), 321);
  assert.throws(() => parseFigureWidth('100'), /at least 160/);
  assert.throws(() => parseFigureWidth('wide'), /a width/);
});

test('--scale: pixels per px or dpi; the format by the file extension', () => {
  assert.equal(parseScale('2'), 2);
  assert.equal(parseScale('300dpi'), 300 / 96);
  assert.throws(() => parseScale('0'), /above 0/);
  assert.equal(outputFormat('a/b.PNG'), 'png');
  assert.equal(outputFormat('x.csv'), 'csv');
  assert.throws(() => outputFormat('x.pdf'), /\.svg, \.png/);
});

test('the caption wraps at spaces to the width', () => {
  assert.deepEqual(wrapCaption('aa bb cc dd', 5), ['aa bb', 'cc dd']);
  assert.deepEqual(wrapCaption('a', 5), ['a']);
});

test('without the chart bundles the figure command says where it looked', () => {
  const missing = join(tempDir(), 'none');
  assert.ok(!existsSync(join(missing, 'vegaRenderer.js')));
  assert.throws(() => loadChartTools([missing]), /vegaLiteCompiler\.js and vegaRenderer\.js .*npm run build/);
});
