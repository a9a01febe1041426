/**
 * What the overview and the problem view say beside their figures: n differing between compared models, the grader
 * audit's answer check, one-model folders, an empty coverage table, the command to choose the base, the legend and
 * the table layout.
 *
 * Fresh-user trial 10 findings in the overview, the problem view and the preview (/work/trial10-scratch/REPORT.md):
 * 2 the overview's coverage compared greedy5 (5 samples per problem) with the base (100) without the CLI's
 * "n differs" warning or any n; 1 the grader audit's verdict on qwen problem 72 sample 7 (`10000` vs `10{,}000`)
 * shown nowhere in the extension; 3 the problem view of a one-model folder with no sample list; 9 the overview's
 * coverage table of one model with headers and no rows; 10a the base-guess warning naming the CLI's --base to
 * extension users; 10d the one-model legend symbol over the model name (rendered by vega headless); 10e the
 * coverage table cut in a narrow editor (a static check of the view and its style). Each test reads the real folder (by path, never copied into the repository) into a real
 * SQLite index and checks the data the view is sent; every expected value is the one a person counting the
 * folder gives.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerCheckDisagreements, answerCheckSummary } from '../../src/core/analyses/graderAudit';
import { guessBaseModel } from '../../src/core/index/labels';
import { fileTextSource } from '../../src/core/index/sampleText';
import { buildReport } from '../../src/core/report/index';
import { overviewData, problemData, samplePage, samplePreview, sampleText } from '../../src/extension/panelData';
import { overviewCurveSpec } from '../../src/shared/chartSpecs';
import { inBaseSection } from '../../src/shared/inBaseSection';
import { indexed, REAL } from './helpers';

// Trial 10 finding 2.
describe('the overview says n differs between the compared models, as the CLI does', () => {
  test('tot-game24: greedy5 (5 per problem) against the base (100 per problem): the CLI warning and n per model', async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const ms = index.models();
    const base = ms[guessBaseModel(ms)];
    const greedy = ms.find((m) => m.label.includes('greedy5'));
    assert.ok(greedy, ms.map((m) => m.label).join(', '));
    const o = overviewData(index, { baseId: base.id }, 50, 50);
    const row = o.coverage.find((c) => c.modelId === greedy.id);
    assert.ok(row);
    assert.equal(row.baseModelId, base.id);
    assert.equal(row.problems, 100);
    // n per model over the 100 compared problems: 5 samples each for greedy5, 100 each for the base
    assert.deepEqual(row.n, { model: { min: 5, max: 5 }, base: { min: 100, max: 100 } });
    // named by the short names the tree and the overview's table give the models (trial 13 finding 8)
    const expected = `propose1_value3_greedy5 vs cot_sample_100: n differs between problems or models (5..100); at k above 5 some problems are left out`;
    assert.equal(row.nDiffers, expected);
    assert.ok(o.warnings.includes(expected), o.warnings.join('\n'));
    // the CLI report's warning list has the same text (named by display id there)
    const r = buildReport(index, { replicates: 20 });
    assert.ok(
      r.warnings.includes(
        `${greedy.displayId} vs ${base.displayId}: n differs between problems or models (5..100); at k above 5 some problems are left out`,
      ),
      r.warnings.join('\n'),
    );
    // the other model has 100 per problem too: no warning, n 100 / 100
    const other = o.coverage.find((c) => c.modelId !== greedy.id);
    assert.ok(other);
    assert.deepEqual(other.n, { model: { min: 100, max: 100 }, base: { min: 100, max: 100 } });
    assert.equal(other.nDiffers, undefined);
    index.close();
  });
});

// Trial 10 finding 1.
describe("the grader audit's answer check is shown beside the folder's verdict", () => {
  const NOTE = 'folder: incorrect · answer check: equivalent to the reference (grader audit)';

  test('qwen25-math-eval-example problem 72 sample 7 (10000 against 10{,}000): the note in the list, detail and preview, and the problem row', async () => {
    const index = await indexed(join(REAL, 'qwen25-math-eval-example'));
    const [model] = index.models();
    const p72 = index.listProblems({ kind: 'all' }, 0, 1000).find((p) => p.problemId === '72');
    assert.ok(p72);
    assert.equal(p72.referenceAnswer, '10{,}000');
    // the CLI's `report --regrade` flags this one sample of the folder, and nothing else
    const r = buildReport(index, { replicates: 20, regrade: true });
    assert.equal(r.regrade?.disagreements, 1);
    assert.deepEqual(
      r.regrade?.models[0].examples.map((e) => [e.problemId, e.sampleIndex, e.answer, e.folder, e.tool]),
      [['72', 7, '10000', false, true]],
    );
    // the tree's marker: problem 72 only, one sample of the model, graded incorrect, equivalent to the reference
    const all = answerCheckDisagreements(index);
    assert.deepEqual([...all.keys()], [p72.id]);
    const counts = all.get(p72.id)?.get(model.id);
    assert.deepEqual(counts, { folderIncorrectToolCorrect: 1, folderCorrectToolIncorrect: 0 });
    assert.deepEqual(answerCheckDisagreements(index, p72.id), all);
    assert.equal(
      answerCheckSummary(counts),
      "answer check (grader audit): 1 sample graded incorrect by the folder has an answer equivalent to the reference (the folder's verdicts stay the verdicts)",
    );
    // the problem view's sample list: the folder's verdict stays (incorrect), the note beside it, on sample 7 only
    const page = samplePage(index, p72.id, model.id, 0, 100);
    assert.equal(page.total, 8);
    const flagged = page.samples.filter((x) => x.answerCheck !== undefined);
    assert.deepEqual(
      flagged.map((x) => [x.sampleIndex, x.correct, x.extractedAnswer, x.answerCheck]),
      [[7, false, '10000', NOTE]],
    );
    // the detail and the preview header
    const texts = fileTextSource(index);
    const id = flagged[0].id;
    const t = await sampleText(index, undefined, id, texts);
    assert.deepEqual([t?.correct, t?.answerCheck], [false, NOTE]);
    const pv = await samplePreview(index, undefined, id, { baseId: model.id }, texts);
    assert.deepEqual([pv?.correct, pv?.answerCheck], [false, NOTE]);
    // a sample where the two agree carries no note
    const other = page.samples.find((x) => x.sampleIndex !== 7);
    assert.ok(other);
    assert.equal((await samplePreview(index, undefined, other.id, {}, texts))?.answerCheck, undefined);
    index.close();
  });
});

// Trial 10 finding 3.
describe("the problem view of a one-model folder lists the base's samples and says a second model is needed", () => {
  test("qwen25-math-eval-example (one model), problems 0 and 6: the base's 8 samples, no empty dropdown", async () => {
    const index = await indexed(join(REAL, 'qwen25-math-eval-example'));
    const [model] = index.models();
    for (const id of ['0', '6']) {
      const p = index.listProblems({ kind: 'all' }, 0, 1000).find((x) => x.problemId === id);
      assert.ok(p);
      const d = problemData(index, p.id, { baseId: model.id, focusId: model.id });
      assert.ok(d);
      const section = inBaseSection(d);
      assert.deepEqual(section, {
        kind: 'baseOnly',
        modelId: model.id,
        // the folder's only model is not called the base (trial 13 finding 4)
        text: `${model.label} is the only model: one model in this folder: nothing to compare it with. Its 8 samples are listed below.`,
      });
      // the list the view asks for: the base's 8 samples, correct first (↑/↓/j/k move through them)
      const page = samplePage(index, p.id, section.modelId, 0, 100);
      assert.equal(page.total, 8);
      assert.equal(page.samples.length, 8);
    }
    index.close();
  });

  test('tot-game24 (three models): the dropdown offers the two models that are not the base, the focus chosen', async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const ms = index.models();
    const base = ms[guessBaseModel(ms)];
    const focus = ms.find((m) => m.label.includes('greedy5'));
    assert.ok(focus);
    const p = index.listProblems({ kind: 'all' }, 0, 1)[0];
    const d = problemData(index, p.id, { baseId: base.id, focusId: focus.id });
    assert.ok(d);
    const section = inBaseSection(d);
    assert.equal(section.kind, 'compare');
    assert.equal(section.modelId, focus.id);
    assert.deepEqual(
      section.kind === 'compare' ? [...section.models].sort() : [],
      ms
        .filter((m) => m.id !== base.id)
        .map((m) => m.id)
        .sort(),
    );
    index.close();
  });
});

// Trial 10 finding 9.
describe('the overview says why the coverage table has no row', () => {
  for (const [folder, label] of [
    ['qwen25-math-eval-example', 'math_cot_100'],
    ['humaneval-samples-flat', undefined],
  ] as const)
    test(`${folder} (one model): no coverage row, and the note says a second model is needed`, async () => {
      const index = await indexed(join(REAL, folder));
      const ms = index.models();
      assert.equal(ms.length, 1);
      if (label) assert.equal(ms[0].label, label);
      const o = overviewData(index, { baseId: ms[0].id }, 20, 20);
      assert.deepEqual(o.coverage, []);
      assert.equal(
        o.coverageNote,
        `No coverage: the folder has one model with graded samples (${ms[0].label}); coverage compares a model with its base model, so it needs a second model.`,
      );
      index.close();
    });

  test('tot-game24 (three models): rows and no note', async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const ms = index.models();
    const o = overviewData(index, { baseId: ms[guessBaseModel(ms)].id }, 20, 20);
    assert.equal(o.coverage.length, 2);
    assert.equal(o.coverageNote, undefined);
    index.close();
  });
});

// Trial 10 finding 10a.
describe('the overview names the command to choose the base, never the CLI flag', () => {
  test('tot-game24, base guessed by name order: the overview says "the command Trace Inspector: Choose Base Model", the CLI keeps --base', async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const ms = index.models();
    const o = overviewData(index, { baseId: ms[guessBaseModel(ms)].id }, 20, 20);
    const guess = o.warnings.filter((w) => w.startsWith('the base is a guess'));
    assert.equal(guess.length, 1, o.warnings.join('\n'));
    assert.ok(guess[0].endsWith('; choose the base with the command Trace Inspector: Choose Base Model'), guess[0]);
    assert.ok(!o.warnings.some((w) => w.includes('--base')), o.warnings.join('\n'));
    const r = buildReport(index, { replicates: 20 });
    assert.ok(
      r.warnings.some(
        (w) => w.startsWith('the base is a guess') && w.endsWith('; choose the base with --base (Choose Base Model)'),
      ),
      r.warnings.join('\n'),
    );
    index.close();
  });
});

// vega and vega-lite are ES modules with a top-level await: loaded by URL (as chartSpecs.test.ts does)
const importEsm = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

// Trial 10 finding 10d.
describe('the one-model overview legend draws its symbol beside the model name, not over it', () => {
  test('humaneval-samples-flat: the legend symbol ends before the label starts (stroke width 2, not NaN)', async () => {
    const vl = (await importEsm(pathToFileURL(require.resolve('vega-lite')).href)) as {
      compile(spec: unknown): { spec: unknown };
    };
    const vega = (await importEsm(pathToFileURL(require.resolve('vega')).href)) as typeof import('vega');
    const index = await indexed(join(REAL, 'humaneval-samples-flat'));
    const [m] = index.models();
    const o = overviewData(index, { baseId: m.id }, 20, 20);
    const spec = { ...overviewCurveSpec(o), width: 480 };
    const compiled = vl.compile({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...spec }).spec;
    const view = new vega.View(vega.parse(compiled as never), { renderer: 'none' });
    const svg = await view.toSVG();
    view.finalize();
    const symbol = svg.match(
      /role-legend-symbol"><path transform="translate\(([-\d.]+),[-\d.]+\)" d="M-([\d.]+),0L[\d.]+,0"[^>]*stroke-width="([^"]+)"/,
    );
    const label = svg.match(/role-legend-label"><text[^>]*transform="translate\(([-\d.]+),[-\d.]+\)"[^>]*>([^<]*)</);
    assert.ok(symbol && label, svg.slice(svg.indexOf('role-legend'), svg.indexOf('role-legend') + 600));
    // the folder's only model: no "(base)" and the plain line's width (trial 13 finding 4)
    assert.equal(label[2], m.label);
    assert.equal(symbol[3], '2');
    // the symbol (a stroke centred at x, half-width w) ends left of the label's first letter
    assert.ok(Number(symbol[1]) + Number(symbol[2]) < Number(label[1]), `${symbol[0]} / ${label[0]}`);
    index.close();
  });
});

// Trial 10 finding 10e.
describe('the coverage table scrolls sideways in a narrow editor instead of cutting its last column', () => {
  test('the table sits in a .table-scroll box and its crossover column keeps a width (static check of view and style)', () => {
    const view = readFileSync('webview/overviewView.ts', 'utf8');
    assert.match(
      view,
      /className: 'table-scroll', id: 'coverage-scroll' },\s*h\(\s*'table',\s*\{ className: 'stats', id: 'coverage-table' \}/,
    );
    const css = readFileSync('webview/style.css', 'utf8');
    assert.match(css, /\.table-scroll \{\s*overflow-x: auto;/);
    assert.match(css, /#coverage-table td\.crossover \{\s*min-width: 16em;/);
  });
});
