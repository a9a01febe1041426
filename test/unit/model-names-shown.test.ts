/**
 * One name per model in every view: short names keep the method, "by RL" only where the names show RL, the
 * lucky-guess advice in the tree, the CSV's base labels.
 *
 * Trial 13 finding 8 (one name per model): every view names a model by the short name of the tree and the status
 * bar, and a short name keeps what tells the method apart. Expected names written out by hand from the folders'
 * model names.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  distinctiveLabels,
  guessBaseModel,
  namesShowRL,
  pairBaseGuessNote,
  shortModelNames,
} from '../../src/core/index/labels';
import { fileTextSource } from '../../src/core/index/sampleText';
import { buildReport } from '../../src/core/report/index';
import { seedSiblingDiagnostics } from '../../src/core/grouping/seeds';
import { reportCsv } from '../../src/cli/main';
import { overviewData, problemData, samplePreview, viewModels } from '../../src/extension/panelData';
import type * as TreeModule from '../../src/extension/problemTree';
import { humanEval, indexed, qwen, REAL, writeFolder } from './helpers';
import { loadWithStub } from './vscodeStub';

const skipReal = existsSync(REAL) ? false : 'real data folder ../shared/data/real not found';

/** Trial 13's own folder "mini": a base and one GRPO checkpoint in the Qwen2.5-Math layout. */
function miniFolder(): string {
  const file = 'math_eval/math500/test_qwen-boxed_-1_seed0_t0.6_s0_e-1.jsonl';
  return writeFolder({
    [`Qwen2.5-Math-1.5B/${file}`]: qwen('TTFF FFFF'),
    [`Qwen2.5-Math-1.5B-GRPO/global_step_200/${file}`]: qwen('TFFF TFFF'),
  });
}

// Trial 13 finding 8.
describe('short names keep the method', () => {
  test('tot-game24: the Tree-of-Thoughts model is propose1_value3_greedy5, not greedy5', {
    skip: skipReal,
  }, async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const models = index.models();
    assert.deepEqual(
      models.map((m) => m.name),
      ['gpt-4_0.7_naive_cot_sample_100', 'gpt-4_0.7_naive_standard_sample_100', 'gpt-4_0.7_propose1_value3_greedy5'],
    );
    assert.deepEqual(distinctiveLabels(models), ['cot_sample_100', 'standard_sample_100', 'propose1_value3_greedy5']);
    index.close();
  });

  test('a short name of settings alone takes in the words no other model has; a shared word stops it', () => {
    const m = (name: string) => ({ run: '', name, revision: null });
    // `8b` names nothing: llama is in no other name
    assert.deepEqual(distinctiveLabels([m('a/qwen-7b'), m('b/qwen-7b'), m('a/llama-8b')]), [
      'a/qwen-7b',
      'b/qwen-7b',
      'llama-8b',
    ]);
    // lr1e-6 beside lr3e-6: `model` is in both names, so the settings stay alone
    assert.deepEqual(distinctiveLabels([m('model-lr1e-6'), m('model-lr3e-6')]), ['lr1e-6', 'lr3e-6']);
    // a bare number takes the word before it, shared or not
    assert.deepEqual(distinctiveLabels([m('global_step_900'), m('global_step_1000')]), ['step_900', 'step_1000']);
    // a short name with a word without a digit is kept
    assert.deepEqual(distinctiveLabels([m('x/rlvr-ppo'), m('x/qwen-sft')]), ['ppo', 'sft']);
    // models of several families (a fresh user's folder): a family no other model is of keeps the whole name, its
    // distinct end alone named nothing (`it`, `Instruct`, `v0.3`, `Qwen-7B`, `mini`); a shared family keeps its ends
    assert.deepEqual(
      distinctiveLabels(
        [
          'DeepSeek-R1-Distill-Qwen-7B',
          'gemma-2-9b-it',
          'Llama-3.1-8B-Instruct',
          'Mistral-7B-Instruct-v0.3',
          'Phi-3-mini',
          'Qwen2.5-Math-7B-base',
          'Qwen2.5-Math-1.5B-GRPO',
          'OLMo-2-7B-RLVR',
          'OLMo-2-7B-SFT',
        ].map((n) => m(n)),
      ),
      [
        'DeepSeek-R1-Distill-Qwen-7B',
        'gemma-2-9b-it',
        'Llama-3.1-8B-Instruct',
        'Mistral-7B-Instruct-v0.3',
        'Phi-3-mini',
        'base',
        'GRPO',
        'RLVR',
        'SFT',
      ],
    );
  });

  test('mini: the GRPO checkpoint is 1.5B-GRPO · step-200 in the tree and in every webview', async () => {
    const index = await indexed(miniFolder());
    const models = index.models();
    const names = shortModelNames(models);
    const grpo = models.find((m) => m.name.includes('GRPO'))!;
    const base = models.find((m) => !m.name.includes('GRPO'))!;
    // the long label the views used to show
    assert.equal(grpo.label, 'Qwen2.5-Math-1.5B-GRPO · global_step_200');
    assert.equal(names.get(grpo.id), '1.5B-GRPO · step-200');
    assert.equal(names.get(base.id), 'Qwen2.5-Math-1.5B');
    assert.deepEqual(
      viewModels(index).map((m) => [m.label, m.displayId]),
      models.map((m) => [names.get(m.id), m.displayId]),
    );
    const roles = { baseId: base.id, focusId: grpo.id };
    const p = index.listProblems()[0];
    // the problem view: its table, legend and headings read the models' labels
    const pd = problemData(index, p.id, roles)!;
    assert.deepEqual(pd.models.map((m) => m.label).sort(), ['1.5B-GRPO · step-200', 'Qwen2.5-Math-1.5B']);
    // the full id stays for the tooltips
    assert.equal(pd.models.find((m) => m.id === grpo.id)?.displayId, grpo.displayId);
    // the preview's Model field
    const sampleId = index.samples(p.id, grpo.id)[0].id;
    const pv = await samplePreview(index, undefined, sampleId, roles, fileTextSource(index));
    assert.equal(pv?.model.label, '1.5B-GRPO · step-200');
    // the overview: table, legends and warnings
    const ov = overviewData(index, roles, 10, 10);
    assert.deepEqual(ov.models.map((m) => m.label).sort(), ['1.5B-GRPO · step-200', 'Qwen2.5-Math-1.5B']);
    for (const w of ov.warnings) assert.ok(!w.includes('global_step_200'), w);
    index.close();
  });
});

// Trial 13 finding 9.
describe('no "by RL" where the names show no RL; a guessed base says so above the tree', () => {
  const tree = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');

  test('tot-game24 (prompting methods of GPT-4): Lost / Gained vs base, and the base is marked guessed', {
    skip: skipReal,
  }, async () => {
    const index = await indexed(join(REAL, 'tot-game24'));
    const ms = index.models();
    const base = ms[guessBaseModel(ms)];
    // the trial's pair: Tree-of-Thoughts in focus (Choose Models to Compare), the base as guessed
    const focus = ms.find((m) => m.name.endsWith('greedy5'))!;
    const names = shortModelNames(ms);
    const name = (m: { id: number }) => names.get(m.id)!;
    assert.equal(name(base), 'cot_sample_100');
    assert.equal(name(focus), 'propose1_value3_greedy5');
    assert.equal(namesShowRL(focus), false);
    assert.equal(tree.pairFilterName('lost', focus), 'Lost vs base');
    assert.equal(tree.pairFilterName('gained', focus), 'Gained vs base');
    assert.equal(
      tree.describeFilter({ kind: 'lost' }, focus, base, name),
      'Lost vs base: cot_sample_100 solves, propose1_value3_greedy5 never',
    );
    assert.equal(
      tree.describeFilter({ kind: 'gained' }, focus, base, name),
      'Gained vs base: propose1_value3_greedy5 solves, cot_sample_100 never',
    );
    assert.equal(tree.filterCountLine({ kind: 'lost' }, 3, focus), 'Lost vs base: 3 problems');
    // the overview's warning, for the pair: the line above the tree and the status bar mark the base
    const note = pairBaseGuessNote(base, focus, name(base), name(focus));
    assert.match(note ?? '', /^the base is a guess from the names with nothing to go on/);
    assert.ok(
      overviewData(index, { baseId: base.id }, 10, 10).warnings.some((w) => w.startsWith('the base is a guess')),
    );
    assert.equal(
      tree.pairLine(name(focus), name(base), !!note),
      'propose1_value3_greedy5 vs cot_sample_100 (guessed base)',
    );
    index.close();
  });

  test('mini (GRPO checkpoint): by RL, and a base the names give is not marked', async () => {
    const index = await indexed(miniFolder());
    const ms = index.models();
    const grpo = ms.find((m) => m.name.includes('GRPO'))!;
    const base = ms.find((m) => !m.name.includes('GRPO'))!;
    assert.equal(ms[guessBaseModel(ms)].id, base.id);
    assert.equal(tree.pairFilterName('lost', grpo), 'Lost by RL');
    assert.equal(tree.filterCountLine({ kind: 'gained' }, 1, grpo), 'Gained by RL: 1 problem');
    assert.equal(pairBaseGuessNote(base, grpo, 'Qwen2.5-Math-1.5B', '1.5B-GRPO · step-200'), undefined);
    assert.equal(
      tree.pairLine('1.5B-GRPO · step-200', 'Qwen2.5-Math-1.5B'),
      '1.5B-GRPO · step-200 vs Qwen2.5-Math-1.5B',
    );
    // without a model in focus the filters keep their names
    assert.equal(tree.pairFilterName('lost'), 'Lost by RL');
    index.close();
  });
});

// Trial 13 finding 11 (rest).
describe('the lucky-guess advice is visible in the tree, not only on hover', () => {
  const tree = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');

  test('tot-game24 (n = 5, threshold 12.5%): a second row says to raise the setting to 1/5 and opens it', () => {
    const rows = tree.noMatchRows('Lucky guesses? m correct, solving at most 12.5%', 5, 0.125);
    assert.equal(rows.length, 2);
    const [first, advice] = rows as Extract<TreeModule.Node, { type: 'message' }>[];
    assert.equal(first.text, 'No problems match this filter');
    assert.equal(first.command?.command, 'traceInspector.clearFilter');
    assert.match(first.tooltip ?? '', /^No problems match: Lucky guesses\? m correct, solving at most 12\.5% \(/);
    assert.match(
      first.tooltip ?? '',
      /raise the setting traceInspector\.luckyGuessThreshold to at least 1\/5\)\. Click to clear the filter\.$/,
    );
    // the advice in the row's first words (a tree row is cut at the side bar's edge), why in its description
    assert.equal(advice.text, 'Raise luckyGuessThreshold to 1/5');
    assert.equal(advice.description, 'n ≤ 5 per problem: no rate can be ≤ 12.5%');
    assert.deepEqual(advice.command?.arguments, ['traceInspector.luckyGuessThreshold']);
    assert.equal(advice.command?.command, 'workbench.action.openSettings');
    assert.match(
      advice.tooltip ?? '',
      /^With at most 5 graded samples per problem the smallest non-zero rate is 1\/5 \(20%\)/,
    );
  });

  test('a queue that can fill (n = 8 at 12.5%), and other filters: one row', () => {
    assert.equal(tree.noMatchRows('Lucky guesses? m correct, solving at most 12.5%', 8, 0.125).length, 1);
    assert.deepEqual(
      tree.noMatchRows('Failing: m never solves', 0, 0).map((r) => (r.type === 'message' ? r.text : '')),
      ['No problems match this filter'],
    );
  });
});

// Trial 12 finding 22 (rest).
describe('the CSV names each base by its label; the Problems panel by the tree names', () => {
  test('runs/Qwen2.5-7B{,-GRPO}: base_label Qwen2.5-7B beside the base id on the comparison rows', async () => {
    const dir = writeFolder({
      'runs/Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('FT TT'),
      'runs/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT TF'),
    });
    const index = await indexed(dir);
    const csv = reportCsv(buildReport(index, { replicates: 20 })).split('\n');
    const cols = csv[0].split(',');
    assert.equal(cols[cols.length - 1], 'base_label');
    const rows = csv.slice(1).map((l) => l.split(','));
    for (const c of rows) assert.equal(c.length, cols.length, c.join(','));
    const cell = (c: string[], name: string) => c[cols.indexOf(name)];
    const diff = rows.filter((c) => cell(c, 'metric') === 'pass@k-diff');
    assert.ok(diff.length > 0);
    for (const c of diff) {
      assert.equal(cell(c, 'base'), 'runs/Qwen2.5-7B:Qwen2.5-7B');
      assert.equal(cell(c, 'base_label'), 'Qwen2.5-7B');
      assert.equal(cell(c, 'label'), 'Qwen2.5-7B-GRPO');
    }
    // rows without a base leave it empty
    assert.ok(rows.filter((c) => cell(c, 'metric') === 'pass@k').every((c) => cell(c, 'base_label') === ''));
    index.close();
  });

  test('seed siblings in the Problems panel: named by the names given (the extension: the tree short names)', async () => {
    const dir = writeFolder({
      'runs/qwen-grpo-seed0/samples.jsonl_results.jsonl': humanEval('TF'),
      'runs/qwen-grpo-seed1/samples.jsonl_results.jsonl': humanEval('FT'),
    });
    const index = await indexed(dir);
    const names = shortModelNames(index.models());
    const [d] = seedSiblingDiagnostics(
      index.models(),
      (id) => index.firstFileOf(id),
      (m) => names.get(m.id)!,
    );
    assert.ok(d);
    const [a, b] = index.models().map((m) => names.get(m.id)!);
    assert.ok(d.message.includes(`(${a}, ${b})`), d.message);
    // the display id was the default (runs/...:...)
    assert.match(seedSiblingDiagnostics(index.models(), (id) => index.firstFileOf(id))[0].message, /runs\//);
    assert.ok(!d.message.includes('runs/'), d.message);
    index.close();
  });
});
