// sqlite-parity: skip — the export's messages and bytes, not storage; figure.test.ts covers the figures' values
/**
 * The views' "Export figure…" / "Export data…" (issue 38) up to the file's bytes, without VS Code:
 * - the webview's `exportFigure` request is checked field by field (src/shared/protocol.ts), and names no colour or
 *   theme: only what picks the chart's content;
 * - the host's export job (src/extension/figuresWorkerProtocol.ts `exportJob`) is what the worker accepts, and a job
 *   with a theme (or any other field) is refused;
 * - run in the figures worker thread (FiguresRunner, out/src/extension/figuresWorker.js), the job gives the bytes
 *   and the provenance the CLI writes for the same figure (dist/cli.js), the same bytes twice: an export cannot
 *   depend on the editor's theme, which nothing of the job carries.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { figureRoles, pngSize } from '../../src/extension/figureExport';
import { FiguresRunner } from '../../src/extension/figuresRunner';
import { exportJob, formatOf, validateFiguresJob } from '../../src/extension/figuresWorkerProtocol';
import { validateWebviewMessage } from '../../src/shared/protocol';
import { REAL, tempDir } from './helpers';

const workerPath = path.resolve(__dirname, '../../src/extension/figuresWorker.js');

test('exportFigure requests: the chart and what picks its content, nothing else', () => {
  const ok = [
    { id: 1, kind: 'exportFigure', figure: 'pass-at-k', data: false, models: ['a@main', 'b@main'] },
    { id: 2, kind: 'exportFigure', figure: 'splits', data: true, splits: 'level', relative: true },
    { id: 3, kind: 'exportFigure', figure: 'problem', data: false, problemId: 17 },
    { id: 4, kind: 'exportFigure', figure: 'reward-models', data: false, models: ['m'], n: 4 },
    { id: 5, kind: 'exportFigure', figure: 'training', data: true, series: 'ppo' },
  ];
  for (const m of ok) assert.deepEqual(validateWebviewMessage(m), m);
  const bad: [unknown, string][] = [
    [
      { id: 1, kind: 'exportFigure', figure: 'histogram', data: false },
      'exportFigure: figure must be one of pass-at-k, coverage, training, reward-models, splits, problem',
    ],
    [{ id: 1, kind: 'exportFigure', figure: 'pass-at-k' }, 'exportFigure: data must be a boolean'],
    [
      { id: 1, kind: 'exportFigure', figure: 'pass-at-k', data: false, theme: 'dark' },
      'exportFigure: unexpected field "theme"',
    ],
    [
      { id: 1, kind: 'exportFigure', figure: 'pass-at-k', data: false, models: [1] },
      'exportFigure: models must be a list of at most 1000 display ids',
    ],
    [
      { id: 1, kind: 'exportFigure', figure: 'problem', data: false, problemId: 0 },
      'exportFigure: problemId must be a positive integer',
    ],
    [
      { id: 1, kind: 'exportFigure', figure: 'splits', data: false, splits: 'file' },
      'exportFigure: splits must be one of level, subject, dataset, cluster or absent',
    ],
  ];
  for (const [m, why] of bad) assert.equal(validateWebviewMessage(m), why);
});

test("the host's job: the format by the chosen file's extension, the worker accepts it and nothing more", () => {
  assert.equal(formatOf('/a/b.PNG', false), 'png');
  assert.equal(formatOf('/a/b', false), 'svg');
  assert.equal(formatOf('/a/b.json', true), 'json');
  assert.equal(formatOf('/a/b.svg', true), 'csv');
  const job = exportJob(
    { figure: 'splits', data: false, splits: 'level', relative: true },
    { baseId: 1, baseIsChoice: true },
    { format: 'png', file: '/x/s.png', folder: '/x', width: 336, scale: 3 },
  );
  assert.deepEqual(job.options, { splits: 'level', splitsMode: 'relative' });
  assert.deepEqual(
    exportJob(
      { figure: 'pass-at-k', data: true, models: ['a'], level: '3' },
      {},
      { format: 'csv', file: '/x/p.csv', folder: '/x', width: 336, scale: 1 },
    ).options,
    { models: ['a'], level: '3' },
  );
  assert.deepEqual(validateFiguresJob(job), job);
  assert.equal(validateFiguresJob({ ...job, theme: 'Dark+' }), 'job exportFigure: unexpected field "theme"');
  assert.equal(
    validateFiguresJob({ ...job, options: { ...job.options, colors: ['#fff'] } }),
    'job exportFigure: options: unexpected field "colors"',
  );
  assert.equal(validateFiguresJob({ ...job, scale: 0 }), 'job exportFigure: scale in (0, 20]');
});

describe('an export run in the figures worker', async () => {
  const dir = path.join(REAL, 'qwen25-math-eval-example');
  const dbPath = path.join(tempDir('ti-export-'), 'index.db');
  const index = TraceIndex.open(dbPath);
  await indexFolder(index, dir);
  const runner = new FiguresRunner(workerPath);
  // the extension's roles with a guessed base (session.ts baseModel), as the CLI guesses them
  const roles = figureRoles(index, {});
  after(async () => {
    await runner.dispose();
    index.close();
  });
  const run = (file: string, format: 'svg' | 'png' | 'csv', scale = 3) =>
    runner.run(
      'export',
      { dbPath, index },
      exportJob({ figure: 'pass-at-k', data: format === 'csv' }, roles, {
        format,
        file,
        folder: dir,
        width: 336,
        scale,
      }),
    );

  test('the SVG and its provenance are the bytes the CLI writes, the same twice; a PNG at the scale asked', async () => {
    const out = path.join(tempDir(), 'pass.svg');
    execFileSync(process.execPath, [
      path.join(process.cwd(), 'dist', 'cli.js'),
      'figure',
      dir,
      'pass-at-k',
      '-o',
      out,
      '--db',
      path.join(tempDir(), 'i.db'),
      '-q',
    ]);
    const a = await run(out, 'svg');
    assert.ok(runner.usedWorker, 'ran in the worker thread');
    const b = await run(out, 'svg');
    assert.ok(Buffer.from(a.bytes).equals(readFileSync(out)), 'the CLI’s SVG');
    assert.ok(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), 'the same bytes twice');
    assert.equal(a.provenance, readFileSync(`${out}.json`, 'utf8'), 'the CLI’s provenance, byte for byte');
    const png = await run(path.join(tempDir(), 'p.png'), 'png', 2);
    assert.equal(pngSize(png.bytes).width, 672);
    const csv = await run(path.join(tempDir(), 'p.csv'), 'csv');
    assert.match(
      Buffer.from(csv.bytes).toString('utf8'),
      /^model,k,value,ciLow,ciHigh,problems,missing\nmath_cot_100,1,/,
    );
  });
});
