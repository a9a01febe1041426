// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * How the layout names models and seeds: generic file stems, seeds of one model, problems named with their dataset,
 * the base guess.
 *
 * Trial 6 (a fresh user on folders nobody here wrote): findings 1, 2, 6 and 10 — how models are named,
 * seeds of one model, dataset-qualified problem names, and the base guess. The trial's folders are lost;
 * each test rebuilds the layout it needs in a temporary folder and reads it into a real SQLite index (and,
 * where the base guess shows, through the compiled CLI's `report --format json`). Every expected value is
 * the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport, type Report } from '../../src/core/report/index';
import { problemIdsRepeat, problemNamer } from '../../src/core/grouping/datasets';
import { graderAudit, graderAuditDiagnostics } from '../../src/core/analyses/graderAudit';
import { areSeedSiblings, seedSiblingDiagnostics, seedSiblings } from '../../src/core/grouping/seeds';
import { defaultFocusModel, guessBaseModel } from '../../src/core/index/labels';
import { unrecognisedCheckpoints } from '../../src/core/grouping/series';
import { pathModelName } from '../../src/core/readers/util';
import { flatModelName } from '../../src/core/readers/flat';
import { totModelName } from '../../src/core/readers/tot';
import { overviewData } from '../../src/extension/panelData';
import { cliReport, humanEval, indexed, REAL, tempDir, writeFolder, writeRollouts } from './helpers';
import { runCli } from './reliability.support';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t6-');

const T = true;
const F = false;

/** The report of `dir` (in-memory index) and the index (closed by the caller). */
async function reportOf(dir: string, base?: string): Promise<{ index: TraceIndex; r: Report }> {
  const index = await indexed(dir);
  return { index, r: buildReport(index, { replicates: 100, ...(base ? { base } : {}) }) };
}

/** Each model as `displayId n/c` (samples / correct). */
const models = (r: Report) => r.models.map((m) => `${m.id} ${m.samples}/${m.correct}`);
/** Each comparison as `model vs base`. */
const pairs = (r: Report) => r.comparisons.map((c) => `${c.model} vs ${c.base}`);
const seedWarnings = (r: Report) => r.warnings.filter((w) => /differ only by a seed-like part/.test(w));
const baseNotes = (r: Report) => r.warnings.filter((w) => w.startsWith('no model is named as a base'));

// Trial 6 finding 1.
describe('a generic file stem names the model after its folder', () => {
  // Folders sort RL first (qwen-grpo < qwen-sft): with both models named `samples`, the tie went to the
  // first listed and the base came out inverted.
  const SPELLINGS = [
    'samples.jsonl_results.jsonl',
    'samples-s1.jsonl_results.jsonl',
    'samples_seed0.jsonl_results.jsonl',
    'samples_results.jsonl',
    'results.jsonl',
    'seed0_results.jsonl',
    'generations.jsonl',
    'completions.jsonl',
  ];
  for (const file of SPELLINGS) {
    test(`qwen-grpo/${file} and qwen-sft/${file}: models qwen-grpo and qwen-sft, base qwen-sft`, async () => {
      const dir = folder({
        [`qwen-grpo/${file}`]: humanEval('TT TF'),
        [`qwen-sft/${file}`]: humanEval('TF FF'),
      });
      const { index, r } = await reportOf(dir);
      assert.deepEqual(models(r), ['qwen-grpo:qwen-grpo 4/3', 'qwen-sft:qwen-sft 4/1']);
      assert.equal(r.base, 'qwen-sft:qwen-sft');
      assert.equal(r.baseSource, 'guess');
      assert.deepEqual(pairs(r), ['qwen-grpo:qwen-grpo vs qwen-sft:qwen-sft']);
      assert.deepEqual(baseNotes(r), []);
      index.close();
    });
  }

  test('the trial layout through the CLI: base/samples.jsonl_results.jsonl and rl/samples.jsonl_results.jsonl', () => {
    const dir = folder({
      'rl/samples.jsonl_results.jsonl': humanEval('TT TF'),
      'base/samples.jsonl_results.jsonl': humanEval('TF FF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), ['base:base 4/1', 'rl:rl 4/3']);
    assert.equal(r.base, 'base:base');
    assert.deepEqual(pairs(r), ['rl:rl vs base:base']);
    // the CLI table marks the base by its folder's name
    const tmp = tempDir('ti-t6-cli-');
    const table = runCli(['report', dir, '--db', join(tmp, 'i.db'), '-q', '--replicates', '100'], tmp).stdout;
    assert.match(table, /^base \[base\]/m);
    // the comparison section names models by label, as the model table does (trial 7 finding 13)
    assert.match(table, /^base model: base \(guessed; change with --base\)$/m);
  });

  test('a name that is not generic keeps its file name; a generic file at the root keeps its stem', () => {
    assert.equal(flatModelName('codegen/codegen-350M_samples_seed1.jsonl_results.jsonl'), 'codegen-350M_samples');
    assert.equal(flatModelName('samples.jsonl_results.jsonl'), 'samples');
    assert.equal(flatModelName('starcoder-sft/samples.jsonl_results.jsonl'), 'starcoder-sft');
    assert.equal(pathModelName('a/llama-7b-s1.jsonl', 'llama-7b-s1'), 'llama-7b');
  });

  test('ToT: a generic stem is named after the folder above the task (dataset) folder', async () => {
    assert.equal(totModelName('gpt-4/game24/results.json'), 'gpt-4');
    assert.equal(totModelName('game24/results.json'), 'results');
    const tot = (accs: boolean[][]) =>
      JSON.stringify(accs.map((a, idx) => ({ idx, ys: a.map((_, i) => `y${i}`), accs: a })));
    const dir = folder({
      'gpt-4-sft/game24/results.json': tot([[T, F]]),
      'gpt-4-rl/game24/results.json': tot([[T, T]]),
    });
    const { index, r } = await reportOf(dir);
    assert.deepEqual(models(r), ['gpt-4-rl/game24:gpt-4-rl 2/2', 'gpt-4-sft/game24:gpt-4-sft 2/1']);
    assert.equal(r.base, 'gpt-4-sft/game24:gpt-4-sft');
    assert.deepEqual(r.datasets, [{ dataset: 'game24', problems: 1 }]);
    index.close();
  });

  test('rollouts without model_name and a mapping without a model: the folder names the model', async () => {
    const rollouts = (verdicts: boolean[]) =>
      JSON.stringify({
        qid: 0,
        question: 'q0',
        gold: '1',
        rollouts: verdicts.map((correct, i) => ({ text: `t${i}`, correct })),
      });
    const r1 = await reportOf(
      folder({ 'qwen-sft/outputs.jsonl': rollouts([T, F]), 'qwen-ppo/outputs.jsonl': rollouts([T, T]) }),
    );
    assert.deepEqual(models(r1.r), ['qwen-ppo:qwen-ppo 2/2', 'qwen-sft:qwen-sft 2/1']);
    assert.equal(r1.r.base, 'qwen-sft:qwen-sft');
    r1.index.close();
    const mapping = JSON.stringify({
      files: ['**/*.jsonl'],
      records: 'per-sample',
      fields: { problemId: 'pid', text: 'out', correct: 'ok' },
    });
    const line = (pid: number, ok: boolean) => JSON.stringify({ pid, out: `o${pid}${ok}`, ok });
    const r2 = await reportOf(
      folder({
        'trace-inspector.mapping.json': mapping,
        'm-grpo/results.jsonl': [line(0, T), line(0, T)].join('\n'),
        'm-sft/results.jsonl': [line(0, T), line(0, F)].join('\n'),
      }),
    );
    assert.deepEqual(models(r2.r), ['m-grpo:m-grpo 2/2', 'm-sft:m-sft 2/1']);
    assert.equal(r2.r.base, 'm-sft:m-sft');
    r2.index.close();
  });
});

// Trial 6 finding 2.
describe("seeds of one model are one model, or seed siblings that are never each other's base", () => {
  // Seed files in one model folder, beside an SFT folder: one model, its samples merged (2 + 2 per problem).
  const IN_ONE_FOLDER: [string, string, string][] = [
    ['seed0.jsonl', 'seed1.jsonl', 'qwen-rl'],
    ['samples-s0.jsonl', 'samples-s1.jsonl', 'qwen-rl'],
    ['samples_s0.jsonl_results.jsonl', 'samples_s1.jsonl_results.jsonl', 'qwen-rl'],
    ['seed0_samples.jsonl', 'seed1_samples.jsonl', 'qwen-rl'],
    ['seed0_results.jsonl', 'seed1_results.jsonl', 'qwen-rl'],
    ['qwen-s0.jsonl', 'qwen-s1.jsonl', 'qwen'],
    ['qwen_s0.jsonl', 'qwen_s1.jsonl', 'qwen'],
    ['qwen-seed0.jsonl', 'qwen-seed1.jsonl', 'qwen'],
  ];
  for (const [a, b, name] of IN_ONE_FOLDER) {
    test(`qwen-rl/${a} + qwen-rl/${b}: one model "${name}", n = 2 + 2, compared with the SFT model`, async () => {
      const dir = folder({
        [`qwen-rl/${a}`]: humanEval('TF FF'),
        [`qwen-rl/${b}`]: humanEval('TT TF'),
        'qwen-sft/samples.jsonl': humanEval('FF FF'),
      });
      const { index, r } = await reportOf(dir);
      // problem 0: T F + T T; problem 1: F F + T F -> 8 samples, 4 correct
      assert.deepEqual(models(r), [`qwen-rl:${name} 8/4`, 'qwen-sft:qwen-sft 4/0']);
      assert.equal(r.base, 'qwen-sft:qwen-sft');
      assert.deepEqual(pairs(r), [`qwen-rl:${name} vs qwen-sft:qwen-sft`]);
      assert.deepEqual(seedWarnings(r), []);
      index.close();
    });
  }

  test('seed folders only (seed0/, seed1/; CLI): two seed siblings, no base, the report says so', () => {
    const dir = folder({
      'seed0/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'seed1/samples.jsonl_results.jsonl': humanEval('TT TF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), ['seed0:seed0 4/1', 'seed1:seed1 4/3']);
    assert.equal(r.base, null);
    assert.equal(r.baseSource, 'none');
    assert.deepEqual(pairs(r), []);
    // each is named as not compared, for want of a base (trial 7 finding 5)
    assert.deepEqual(
      r.notCompared.map((x) => [x.model, x.kind]),
      [
        ['seed0:seed0', 'noBase'],
        ['seed1:seed1', 'noBase'],
      ],
    );
    assert.deepEqual(seedWarnings(r), [
      '2 models differ only by a seed-like part of their names (seed0:seed0, seed1:seed1): seed siblings, probably seeds of one model, yet read and reported as different models; none is guessed as the base of another; to merge them give them one model name (a file name without the seed in one folder, fields.model in a mapping), or rename them if they are different models',
    ]);
  });

  test('the overview names seed siblings too, and a guessed checkpoint base', async () => {
    const seeds = await indexed(
      folder({
        'seed0/samples.jsonl_results.jsonl': humanEval('TF FF'),
        'seed1/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(
      overviewData(seeds, {}, 100)
        .warnings.filter((w) => /differ only by a seed-like part/.test(w))
        .map((w) => /\(([^)]*)\)/.exec(w)?.[1]),
      ['seed0, seed1'],
    );
    seeds.close();
    const ckpts = await indexed(
      folder({
        'coder-grpo/global_step_900.jsonl': humanEval('TF FF'),
        'coder-grpo/global_step_1000.jsonl': humanEval('TT TF'),
      }),
    );
    const ms = ckpts.models();
    const base = ms[guessBaseModel(ms)];
    assert.equal(base.name, 'global_step_900');
    // named by the short names the tree gives the models (trial 13 finding 8)
    assert.deepEqual(
      overviewData(ckpts, { baseId: base.id }, 100).warnings.filter((w) => w.startsWith('no model is named as a base')),
      [
        `no model is named as a base (base, sft, ref, init, pretrained): the earliest training step, step_900 (step 900), is taken as the base of step_1000; choose another with the command Trace Inspector: Choose Base Model`,
      ],
    );
    assert.deepEqual(
      overviewData(ckpts, { baseId: base.id, baseIsChoice: true }, 100).warnings.filter((w) =>
        w.startsWith('no model is named'),
      ),
      [],
    );
    ckpts.close();
  });

  test('qwen-s0/ and qwen-s1/ folders: models "qwen" of two runs, seed siblings, no base, no "differ only in a number" warning', async () => {
    const dir = folder({
      'qwen-s0/results.jsonl': humanEval('TF'),
      'qwen-s1/results.jsonl': humanEval('TT'),
    });
    const { index, r } = await reportOf(dir);
    assert.deepEqual(models(r), ['qwen-s0:qwen 2/1', 'qwen-s1:qwen 2/2']);
    assert.equal(r.base, null);
    assert.deepEqual(pairs(r), []);
    assert.equal(seedWarnings(r).length, 1);
    assert.match(seedWarnings(r)[0], /\(qwen-s0:qwen, qwen-s1:qwen\): seed siblings/);
    assert.deepEqual(
      r.warnings.filter((w) => /differ only in a number/.test(w)),
      [],
    );
    index.close();
  });

  test('base/seed0, base/seed1, rl/seed0, rl/seed1 (CLI): models named base and rl; base/seed1 is not compared with base/seed0', () => {
    const dir = folder({
      'base/seed0/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'base/seed1/samples.jsonl_results.jsonl': humanEval('FF TF'),
      'rl/seed0/samples.jsonl_results.jsonl': humanEval('TT TF'),
      'rl/seed1/samples.jsonl_results.jsonl': humanEval('TT TT'),
    });
    const r = cliReport(dir);
    assert.deepEqual(models(r), ['base/seed0:base 4/1', 'base/seed1:base 4/1', 'rl/seed0:rl 4/3', 'rl/seed1:rl 4/4']);
    assert.equal(r.base, 'base/seed0:base');
    assert.deepEqual(pairs(r), ['rl/seed0:rl vs base/seed0:base', 'rl/seed1:rl vs base/seed0:base']);
    assert.deepEqual(
      seedWarnings(r).map((w) => /\(([^)]*)\)/.exec(w)?.[1]),
      ['base/seed0:base, base/seed1:base', 'rl/seed0:rl, rl/seed1:rl'],
    );
  });

  test('global_step_N/seedK_results.jsonl beside an SFT model: one model per step, seeds merged, each step against the SFT', async () => {
    const dir = folder({
      'coder-grpo/global_step_100/seed0_results.jsonl': humanEval('TF FF'),
      'coder-grpo/global_step_100/seed1_results.jsonl': humanEval('TF FT'),
      'coder-grpo/global_step_200/seed0_results.jsonl': humanEval('TT TF'),
      'coder-grpo/global_step_200/seed1_results.jsonl': humanEval('TT TT'),
      'coder-sft/samples.jsonl_results.jsonl': humanEval('FF FF'),
    });
    const { index, r } = await reportOf(dir);
    assert.deepEqual(models(r), [
      'coder-grpo/global_step_100:global_step_100 8/3',
      'coder-grpo/global_step_200:global_step_200 8/7',
      'coder-sft:coder-sft 4/0',
    ]);
    assert.equal(r.base, 'coder-sft:coder-sft');
    assert.deepEqual(pairs(r), [
      'coder-grpo/global_step_100:global_step_100 vs coder-sft:coder-sft',
      'coder-grpo/global_step_200:global_step_200 vs coder-sft:coder-sft',
    ]);
    assert.deepEqual(seedWarnings(r), []);
    index.close();
  });

  test('ToT: ..._seed0_start0_end2.json and ..._seed1_... are one model; seed0.json and seed1.json are named after the folder above the task', async () => {
    const tot = (accs: boolean[][]) =>
      JSON.stringify(accs.map((a, idx) => ({ idx, ys: a.map((_, i) => `y${idx}${i}`), accs: a })));
    const dir = folder({
      'logs/game24/gpt-4_0.7_cot_seed0_start0_end2.json': tot([
        [T, F],
        [F, F],
      ]),
      'logs/game24/gpt-4_0.7_cot_seed1_start0_end2.json': tot([
        [T, T],
        [F, T],
      ]),
      'tot-sft/game24/seed0.json': tot([
        [F, F],
        [F, F],
      ]),
      'tot-sft/game24/seed1.json': tot([
        [T, F],
        [F, F],
      ]),
    });
    const { index, r } = await reportOf(dir);
    assert.deepEqual(models(r), ['logs/game24:gpt-4_0.7_cot 8/4', 'tot-sft/game24:tot-sft 8/1']);
    assert.equal(r.base, 'tot-sft/game24:tot-sft');
    assert.deepEqual(seedWarnings(r), []);
    index.close();
  });

  test('rollouts: seed files without model_name are one model; model_name qwen-s0 / qwen-s1 in the data are seed siblings, no base', async () => {
    const tmp = tempDir('ti-t6-roll-');
    const rows: [number, boolean[]][] = [
      [0, [T, F]],
      [1, [F, T]],
    ];
    writeRollouts(join(tmp, 'named/a.jsonl'), { name: 'qwen-s0', revision: '' }, rows);
    writeRollouts(join(tmp, 'named/b.jsonl'), { name: 'qwen-s1', revision: '' }, rows);
    const { index, r } = await reportOf(join(tmp, 'named'));
    assert.deepEqual(models(r), ['qwen-s0 4/2', 'qwen-s1 4/2']);
    assert.equal(r.base, null);
    assert.deepEqual(pairs(r), []);
    assert.equal(seedWarnings(r).length, 1);
    // the Problems panel gets the same warning, on the first file of the first model
    assert.deepEqual(
      seedSiblingDiagnostics(index.models(), (id) => index.firstFileOf(id)).map((d) => `${d.file}:${d.severity}`),
      ['a.jsonl:warning'],
    );
    index.close();

    const line = (qid: number, verdicts: boolean[]) =>
      JSON.stringify({
        qid,
        question: `q${qid}`,
        gold: '1',
        rollouts: verdicts.map((correct, i) => ({ text: `t${qid}${i}`, correct })),
      });
    const dir = folder({
      'qwen-rl/seed0.jsonl': [line(0, [T, F]), line(1, [F, F])].join('\n'),
      'qwen-rl/seed1.jsonl': [line(0, [T, T]), line(1, [T, F])].join('\n'),
      'qwen-base/seed0.jsonl': [line(0, [F, F]), line(1, [F, F])].join('\n'),
    });
    const r2 = await reportOf(dir);
    assert.deepEqual(models(r2.r), ['qwen-base:qwen-base 4/0', 'qwen-rl:qwen-rl 8/4']);
    assert.equal(r2.r.base, 'qwen-base:qwen-base');
    assert.deepEqual(pairs(r2.r), ['qwen-rl:qwen-rl vs qwen-base:qwen-base']);
    r2.index.close();
  });

  test('mapping: per-sample seed files without a model are one model; fields.model m-seed0 / m-seed1 are seed siblings', async () => {
    const line = (pid: number, ok: boolean, who?: string) =>
      JSON.stringify({ pid, out: `o${pid}${ok}`, ok, ...(who ? { who } : {}) });
    const mapping = (model: boolean) =>
      JSON.stringify({
        files: ['**/*.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'pid', text: 'out', correct: 'ok', ...(model ? { model: 'who' } : {}) },
      });
    const one = await reportOf(
      folder({
        'trace-inspector.mapping.json': mapping(false),
        'rl/seed0.jsonl': [line(0, T), line(0, F)].join('\n'),
        'rl/seed1.jsonl': [line(0, T), line(0, T)].join('\n'),
        'sft/seed0.jsonl': [line(0, F), line(0, F)].join('\n'),
      }),
    );
    assert.deepEqual(models(one.r), ['rl:rl 4/3', 'sft:sft 2/0']);
    assert.equal(one.r.base, 'sft:sft');
    assert.deepEqual(pairs(one.r), ['rl:rl vs sft:sft']);
    one.index.close();

    const two = await reportOf(
      folder({
        'trace-inspector.mapping.json': mapping(true),
        'all.jsonl': [line(0, T, 'm-seed0'), line(0, F, 'm-seed0'), line(0, T, 'm-seed1'), line(0, T, 'm-seed1')].join(
          '\n',
        ),
      }),
    );
    assert.deepEqual(models(two.r), ['m-seed0 2/1', 'm-seed1 2/2']);
    assert.equal(two.r.base, null);
    assert.deepEqual(pairs(two.r), []);
    assert.match(seedWarnings(two.r)[0] ?? '', /\(m-seed0, m-seed1\): seed siblings/);
    two.index.close();
  });

  test("seed siblings in the base guess: never each other's base; sizes and other names are no seeds", () => {
    const m = (run: string, name: string) => ({ run, name, revision: null });
    assert.equal(areSeedSiblings(m('', 'qwen-s0'), m('', 'qwen-s1')), true);
    assert.equal(areSeedSiblings(m('rl/seed0', 'rl'), m('rl/seed1', 'rl')), true);
    assert.equal(areSeedSiblings(m('', 'qwen'), m('', 'qwen-s1')), false);
    assert.equal(areSeedSiblings(m('', 'llama-7b'), m('', 'llama-13b')), false);
    assert.equal(areSeedSiblings(m('', 'qwen-s0'), m('', 'qwen-s0')), false);
    assert.equal(guessBaseModel([m('', 'seed0'), m('', 'seed1')]), -1);
    // no base: the model in focus is still chosen (the extension's default pair), without throwing
    assert.equal(
      defaultFocusModel([
        { ...m('seed0', 'seed0'), id: 1 },
        { ...m('seed1', 'seed1'), id: 2 },
      ])?.id,
      2,
    );
    // a model with something other than its seeds to be the base of stays eligible
    assert.equal(guessBaseModel([m('', 'seed0'), m('', 'seed1'), m('', 'other')]), 0);
    assert.equal(guessBaseModel([m('', 'only')]), 0);
    assert.deepEqual(
      seedSiblings([m('', 'a-s0'), m('', 'b'), m('', 'a-s1')]).map((g) => g.map((x) => x.name)),
      [['a-s0', 'a-s1']],
    );
    // `-s0` / `-s1` numbers are seeds, not checkpoint numbers; `ck100` / `ck200` still are
    assert.deepEqual(unrecognisedCheckpoints([m('', 'qwen-s0'), m('', 'qwen-s1')]), []);
    assert.deepEqual(unrecognisedCheckpoints([m('', 'ck100'), m('', 'ck200')]), [{ models: ['ck100', 'ck200'] }]);
  });
});

// Trial 6 finding 6.
describe('problems are named with their dataset when problem ids repeat across datasets', () => {
  /** A Qwen2.5-Math line: problem `idx` with one sample per verdict, answers `preds` (default "1"). */
  const qline = (idx: number, score: boolean[], level: string | null, preds?: string[]) =>
    JSON.stringify({
      idx,
      question: `q${idx}`,
      gt: '1',
      ...(level ? { level } : {}),
      code: score.map((_, i) => `c${idx}${i}`),
      score,
      // distinct wrong answers: only the answers given in `preds` can make a grader inconsistency
      pred: preds ?? score.map((ok, i) => (ok ? '1' : `w${i}`)),
    });
  const file = (m: string, d: string) => `${m}/math_eval/${d}/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl`;
  // math (levels) and gsm8k (no level), ids 0 and 1 in both; rl has no record of gsm8k 1.
  // sft's math 0: answer "2" graded correct in one sample and incorrect in the other (grader audit).
  const files = {
    [file('sft', 'math')]: [qline(0, [T, F], 'Level 1', ['2', '2']), qline(1, [F, F], 'Level 2')].join('\n'),
    [file('sft', 'gsm8k')]: [qline(0, [T, F], null), qline(1, [F, F], null)].join('\n'),
    [file('rl', 'math')]: [qline(0, [T, T], 'Level 1'), qline(1, [T, F], 'Level 2')].join('\n'),
    [file('rl', 'gsm8k')]: [qline(0, [T, T], null)].join('\n'),
  };

  test('comparison warnings, no-level lists and the overview name "gsm8k · 1", not "1"', async () => {
    const { index, r } = await reportOf(folder(files));
    assert.equal(problemIdsRepeat(index), true);
    assert.equal(r.base, 'sft');
    const cmp = r.warnings.find((w) => w.startsWith('rl vs sft: compared over'));
    assert.equal(
      cmp,
      'rl vs sft: compared over 3 of the 4 problems of the two models: 1 only sft has it: rl has no record of it (problem "gsm8k · 1")',
    );
    assert.deepEqual(
      r.noLevel.map((x) => [x.model, x.named]),
      [
        ['rl', ['gsm8k · 0']],
        ['sft', ['gsm8k · 0', 'gsm8k · 1']],
      ],
    );
    assert.ok(
      r.warnings.includes(
        'sft: 2 of its 4 problems have no level (problems "gsm8k · 0", "gsm8k · 1"): in no level\'s figures (pass@k by difficulty level)',
      ),
      r.warnings.join('\n'),
    );
    const o = overviewData(index, {}, 100);
    assert.ok(
      o.warnings.some((w) => w.includes('no level (problems "gsm8k · 0", "gsm8k · 1")')),
      o.warnings.join('\n'),
    );
    index.close();
  });

  test('the grader audit and problemNamer name "math · 0"; a row id not in the index is its number', async () => {
    const index = await indexed(folder(files));
    const diags = graderAuditDiagnostics(graderAudit(index), problemIdsRepeat(index));
    assert.equal(diags.length, 1);
    assert.match(
      diags[0].message,
      /^grader inconsistency: problem math · 0: the same answer "2" is graded correct in 1 and incorrect in 1 samples/,
    );
    const name = problemNamer(index);
    const ids = index.db.prepare('SELECT id FROM problems ORDER BY dataset, problem_id').pluck().all() as number[];
    assert.deepEqual(ids.map(name), ['gsm8k · 0', 'gsm8k · 1', 'math · 0', 'math · 1']);
    assert.equal(name(9999), '9999');
    index.close();
  });

  test('best-of-k and checkpoint step warnings name "gsm8k · 1" too', async () => {
    // two GRPO checkpoints and an SFT model; reward scores (pred_score) on math only; step 200 lacks gsm8k 1
    const scored = (idx: number, score: boolean[]) =>
      JSON.stringify({ ...JSON.parse(qline(idx, score, 'Level 1')), pred_score: score.map((ok) => [ok ? 0.9 : 0.1]) });
    const step = (n: number) => `grpo/global_step_${n}`;
    const dir = folder({
      [file('sft', 'math')]: [qline(0, [T, F], 'Level 1'), qline(1, [F, F], 'Level 1')].join('\n'),
      [file('sft', 'gsm8k')]: [qline(0, [T, F], 'Level 1'), qline(1, [F, F], 'Level 1')].join('\n'),
      [file(step(100), 'math')]: [scored(0, [T, F]), scored(1, [T, F])].join('\n'),
      [file(step(100), 'gsm8k')]: [qline(0, [T, T], 'Level 1'), qline(1, [F, F], 'Level 1')].join('\n'),
      [file(step(200), 'math')]: [scored(0, [T, T]), scored(1, [T, F])].join('\n'),
      [file(step(200), 'gsm8k')]: [qline(0, [T, T], 'Level 1')].join('\n'),
    });
    const { index, r } = await reportOf(dir);
    assert.equal(r.base, 'sft');
    assert.ok(
      r.warnings.includes(
        `${step(100)}: best-of-k leaves out 2 of its 4 problems whose graded samples have no reward score (problems "gsm8k · 0", "gsm8k · 1")`,
      ),
      r.warnings.join('\n'),
    );
    const stepWarning = r.warnings.find((w) => /^series .* step 200: figures over/.test(w));
    assert.match(
      stepWarning ?? '',
      /1 not in this checkpoint's results \(problem "gsm8k · 1"\)/,
      r.warnings.join('\n'),
    );
    index.close();
  });

  test('control: one dataset keeps the bare problem id ("1")', async () => {
    const { index, r } = await reportOf(
      folder({
        [file('sft', 'math')]: [qline(0, [T, F], 'Level 1'), qline(1, [F, F], 'Level 2')].join('\n'),
        [file('rl', 'math')]: [qline(0, [T, T], 'Level 1')].join('\n'),
      }),
    );
    assert.equal(
      r.warnings.find((w) => w.startsWith('rl vs sft')),
      'rl vs sft: compared over 1 of the 2 problems of the two models: 1 only sft has it: rl has no record of it (problem "1")',
    );
    assert.equal(
      problemNamer(index)(index.db.prepare("SELECT id FROM problems WHERE problem_id = '1'").pluck().get() as number),
      '1',
    );
    index.close();
  });
});

// Trial 6 finding 10.
describe("the base is a base-like model, never a run's own earliest checkpoint when there is one", () => {
  test('coder-grpo/global_step_{900,1000}.jsonl beside coder-sft (CLI): every checkpoint against coder-sft', () => {
    const dir = folder({
      'coder-grpo/global_step_900.jsonl': humanEval('TF FF'),
      'coder-grpo/global_step_1000.jsonl': humanEval('TT TF'),
      'coder-sft/samples.jsonl_results.jsonl': humanEval('FF FF'),
    });
    const r = cliReport(dir);
    assert.equal(r.base, 'coder-sft:coder-sft');
    // not global_step_1000 against its run's earliest step, global_step_900
    assert.deepEqual(pairs(r), [
      'coder-grpo:global_step_900 vs coder-sft:coder-sft',
      'coder-grpo:global_step_1000 vs coder-sft:coder-sft',
    ]);
    assert.deepEqual(baseNotes(r), []);
  });

  test('checkpoints only (CLI): the earliest step is the base, and the report warns, naming it', () => {
    const dir = folder({
      'coder-grpo/global_step_900.jsonl': humanEval('TF FF'),
      'coder-grpo/global_step_1000.jsonl': humanEval('TT TF'),
    });
    const r = cliReport(dir);
    assert.equal(r.base, 'coder-grpo:global_step_900');
    assert.deepEqual(pairs(r), ['coder-grpo:global_step_1000 vs coder-grpo:global_step_900']);
    assert.deepEqual(baseNotes(r), [
      'no model is named as a base (base, sft, ref, init, pretrained): the earliest training step, coder-grpo:global_step_900 (step 900), is taken as the base of coder-grpo:global_step_1000; choose another with --base (Choose Base Model)',
    ]);
  });

  test('ckpt-500 and ckpt-2k (ckpt-2k first in text order): the base is step 500, the model in focus step 2000', async () => {
    const { index, r } = await reportOf(
      folder({ 'coder-grpo/ckpt-500.jsonl': humanEval('TF FF'), 'coder-grpo/ckpt-2k.jsonl': humanEval('TT TF') }),
    );
    // listed by step since trial 8 finding 9 (ckpt-2k is 2000: after ckpt-500), not in text order
    assert.deepEqual(models(r), ['coder-grpo:ckpt-500 4/1', 'coder-grpo:ckpt-2k 4/3']);
    assert.equal(r.base, 'coder-grpo:ckpt-500');
    assert.deepEqual(baseNotes(r), [
      'no model is named as a base (base, sft, ref, init, pretrained): the earliest training step, coder-grpo:ckpt-500 (step 500), is taken as the base of coder-grpo:ckpt-2k; choose another with --base (Choose Base Model)',
    ]);
    assert.equal(defaultFocusModel(index.models())?.name, 'ckpt-2k');
    index.close();
  });

  test("an SFT model at a checkpoint revision stays its run's base beside a pretrained base of another run; no warning", async () => {
    const tmp = tempDir('ti-t6-sftckpt-');
    const rows: [number, boolean[]][] = [
      [0, [T, F]],
      [1, [F, F]],
    ];
    writeRollouts(join(tmp, 'pretrained/r.jsonl'), { name: 'qwen-base', revision: '' }, rows);
    writeRollouts(
      join(tmp, 'trajectory/step-100/sft.jsonl'),
      { name: 'qwen-sft', revision: 'checkpoint-8-of-10' },
      rows,
    );
    writeRollouts(join(tmp, 'trajectory/step-100/rl.jsonl'), { name: 'qwen-ppo', revision: 'step-100' }, rows);
    const { index, r } = await reportOf(tmp);
    assert.equal(r.base, 'pretrained:qwen-base');
    assert.deepEqual(pairs(r), [
      'trajectory/step-100:qwen-ppo@step-100 vs trajectory/step-100:qwen-sft@checkpoint-8-of-10',
    ]);
    assert.deepEqual(baseNotes(r), []);
    index.close();
  });

  test("real rlvr-probe-gsm8k: every PPO model against its own run's SFT (at checkpoint-8-of-10), no base-guess warning", async () => {
    const { index, r } = await reportOf(join(REAL, 'rlvr-probe-gsm8k'));
    assert.equal(r.comparisons.length, 6);
    for (const c of r.comparisons) {
      assert.match(c.model, /qwen-2\.5-1\.5b-rlvr-ppo/);
      assert.equal(c.base.split(':')[0], c.model.split(':')[0], `${c.model} vs ${c.base}`);
      assert.match(c.base, /instruct-reasoning-sft/);
    }
    assert.deepEqual(baseNotes(r), []);
    assert.deepEqual(seedWarnings(r), []);
    index.close();
  });

  test('equally base-like checkpoints listed latest first: the earliest step is the guess', () => {
    const m = (name: string) => ({ run: 'r', name, revision: null });
    assert.equal(guessBaseModel([m('ppo_step_200'), m('rl_step_100')]), 1);
    assert.equal(guessBaseModel([m('global_step_300'), m('global_step_100'), m('global_step_200')]), 1);
  });

  test('an RL-named guessed base is named in a warning; a base chosen with --base is not', () => {
    const dir = folder({
      'qwen-grpo/samples.jsonl': humanEval('TF'),
      'qwen-ppo/samples.jsonl': humanEval('TT'),
    });
    const r = cliReport(dir);
    assert.equal(r.base, 'qwen-grpo:qwen-grpo');
    assert.deepEqual(baseNotes(r), [
      'no model is named as a base (base, sft, ref, init, pretrained): qwen-grpo:qwen-grpo, whose name says RL training, is taken as the base of qwen-ppo:qwen-ppo; choose another with --base (Choose Base Model)',
    ]);
    const chosen = cliReport(dir, ['--base', 'qwen-ppo']);
    assert.equal(chosen.base, 'qwen-ppo:qwen-ppo');
    assert.equal(chosen.baseSource, 'option');
    assert.deepEqual(baseNotes(chosen), []);
  });
});
