// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Folder names that are datasets, temperatures, seeds, runs or checkpoints rather than models; the rollouts dataset
 * from its question file; evalplus file names.
 *
 * Trial 8 findings fixed after that trial's first round (layout-temperature-files.test.ts): the wrong figures first —
 * 1 dataset folders outside the word list named models and pooled two datasets as `default`; 2a-c temperatures in
 * folder names, in stems with extra tokens and as integers were compared across temperatures; 5 the rollouts
 * reader named every dataset `test` after `data/<ds>/test.jsonl`; then misleading names — 6 Hydra multirun job
 * folders, 7 `run1` seeds, 8 `out/`, `logs/` and dated folders, 9 checkpoint labels without their run, 10 evalplus
 * file names, 11 an unseeded run beside its seeds. Each test builds the folder it needs in a
 * temporary directory and reads it through the compiled CLI (`report --format json`) or a real SQLite index.
 * Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { datasetCounts } from '../../src/core/grouping/datasets';
import { indexFolder } from '../../src/core/index/indexer';
import { isJobFolder } from '../../src/core/grouping/nameTokens';
import { TraceIndex, scaledSteps } from '../../src/core/index/traceIndex';
import { evalplusModelName, evalplusRun, flatRecordDataset } from '../../src/core/readers/flat';
import { qwenModelAndDataset } from '../../src/core/readers/qwenMath';
import { questionFileDataset } from '../../src/core/readers/rollouts';
import {
  datasetKey,
  folderDataset,
  folderTemperature,
  isDatasetName,
  layoutDatasetFolders,
  pathModelName,
  stemTemperature,
} from '../../src/core/readers/util';
import type { Report } from '../../src/core/report/index';
import { stripSeedTokens } from '../../src/core/grouping/seeds';
import { cliReport, flatLines, tempDir, writeFolder, writeRollouts } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t9-');

/** Flat lines (helpers.ts flatLines); task ids `HumanEval/<t>` unless `prefix` says otherwise. */
const flat = (spec: string, prefix = 'HumanEval/'): string => flatLines(spec, prefix);

/** Qwen-math lines from a spec such as `'TF FF'`: problem idx t, one letter per sample. */
function qwen(spec: string): string {
  return spec
    .split(' ')
    .map((word, t) =>
      JSON.stringify({
        idx: t,
        gt: '1',
        code: [...word].map((_v, i) => `answer ${t}.${i}`),
        pred: [...word].map((v) => (v === 'T' ? '1' : '2')),
        score: [...word].map((v) => v === 'T'),
      }),
    )
    .join('\n');
}

/** `report --format json` of the compiled CLI on `dir` (helpers.ts cliReport). */
const report = cliReport;

/** Models as `<id> <samples>/<correct>`, in report order. */
const models = (r: Report) => r.models.map((m) => `${m.id} ${m.samples}/${m.correct}`);
/** Comparisons as `<base id> <- <model id>`. */
const pairs = (r: Report) => r.comparisons.map((c) => `${c.base} <- ${c.model}`);
/** Datasets as `<name> <problems>`. */
const datasets = (r: Report) => r.datasets.map((d) => `${d.dataset} ${d.problems}`);

// Trial 8 finding 1.
describe('dataset folders in any spelling, or told by the layout, name no model and are the dataset', () => {
  test('dataset spellings: case, - and _, _plus, _2024 / 24', () => {
    for (const name of ['HumanEval', 'humaneval_plus', 'MATH-500', 'math_500', 'aime_2024', 'AIME24', 'gsm8k'])
      assert.ok(isDatasetName(name), name);
    for (const name of ['Qwen2.5-7B', 'my_bench', 'samples', 't0.6']) assert.ok(!isDatasetName(name), name);
    assert.equal(datasetKey('aime_2024'), datasetKey('aime24'));
    assert.equal(datasetKey('MATH-500'), 'math500');
    for (const d of ['HumanEval', 'humaneval_plus', 'MATH-500', 'aime_2024'])
      assert.equal(pathModelName(`Qwen2.5-7B-GRPO/${d}/samples.jsonl`, 'samples'), 'Qwen2.5-7B-GRPO', d);
    assert.equal(folderDataset('Qwen2.5-7B/aime_2024/samples.jsonl'), 'aime_2024');
    // a task-id prefix naming the same dataset wins; one naming another (evalplus's HumanEval/0 in humaneval_plus/) does not
    assert.equal(flatRecordDataset('HumanEval/0', 'HumanEval'), 'HumanEval');
    assert.equal(flatRecordDataset('HumanEval/0', 'humaneval_plus'), 'humaneval_plus');
    assert.equal(flatRecordDataset('0', 'MATH-500'), 'MATH-500');
    assert.equal(flatRecordDataset('0', undefined), 'default');
  });

  test('report: models Qwen2.5-7B and -GRPO in 4 datasets; each dataset folder compared with its own, never across', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/HumanEval/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B/humaneval_plus/samples.jsonl': flat('FFFF TFFF'),
        'Qwen2.5-7B/MATH-500/samples.jsonl': flat('TFFF TFFF TFFF', ''),
        'Qwen2.5-7B/aime_2024/samples.jsonl': flat('FFFF FFFF TFFF', ''),
        'Qwen2.5-7B-GRPO/HumanEval/samples.jsonl': flat('TTTF TTFF'),
        'Qwen2.5-7B-GRPO/humaneval_plus/samples.jsonl': flat('TTFF TTTT'),
        'Qwen2.5-7B-GRPO/MATH-500/samples.jsonl': flat('TTTF TTTF TTTF', ''),
        'Qwen2.5-7B-GRPO/aime_2024/samples.jsonl': flat('TFFF FFFF TTFF', ''),
      }),
    );
    assert.deepEqual(datasets(r), ['HumanEval 2', 'MATH-500 3', 'aime_2024 3', 'humaneval_plus 2']);
    assert.deepEqual(
      new Set(r.models.map((m) => m.id.slice(m.id.indexOf(':') + 1))),
      new Set(['Qwen2.5-7B', 'Qwen2.5-7B-GRPO']),
    );
    assert.deepEqual(models(r), [
      'Qwen2.5-7B-GRPO/aime_2024:Qwen2.5-7B-GRPO 12/3',
      'Qwen2.5-7B-GRPO/HumanEval:Qwen2.5-7B-GRPO 8/5',
      'Qwen2.5-7B-GRPO/humaneval_plus:Qwen2.5-7B-GRPO 8/6',
      'Qwen2.5-7B-GRPO/MATH-500:Qwen2.5-7B-GRPO 12/9',
      'Qwen2.5-7B/aime_2024:Qwen2.5-7B 12/1',
      'Qwen2.5-7B/HumanEval:Qwen2.5-7B 8/2',
      'Qwen2.5-7B/humaneval_plus:Qwen2.5-7B 8/1',
      'Qwen2.5-7B/MATH-500:Qwen2.5-7B 12/3',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B/aime_2024:Qwen2.5-7B <- Qwen2.5-7B-GRPO/aime_2024:Qwen2.5-7B-GRPO',
      'Qwen2.5-7B/HumanEval:Qwen2.5-7B <- Qwen2.5-7B-GRPO/HumanEval:Qwen2.5-7B-GRPO',
      'Qwen2.5-7B/humaneval_plus:Qwen2.5-7B <- Qwen2.5-7B-GRPO/humaneval_plus:Qwen2.5-7B-GRPO',
      'Qwen2.5-7B/MATH-500:Qwen2.5-7B <- Qwen2.5-7B-GRPO/MATH-500:Qwen2.5-7B-GRPO',
    ]);
    // every comparison is over the problems of its own dataset: MATH-500 problem 0 is never paired with AIME's
    const math = r.comparisons.find((c) => c.model.includes('MATH-500'));
    assert.equal(math?.problems, 3);
    assert.deepEqual(r.notCompared, []);
  });

  test('layoutDatasetFolders: the same folder under two model folders; never base/RL, step, seed or number folders', () => {
    assert.deepEqual(
      layoutDatasetFolders([
        'Qwen2.5-7B/my_bench/samples.jsonl',
        'Qwen2.5-7B-GRPO/my_bench/samples.jsonl',
        'Qwen2.5-7B/other_bench/samples.jsonl',
        'Qwen2.5-7B-GRPO/other_bench/samples.jsonl',
        'Qwen2.5-7B/once_only/samples.jsonl',
      ]),
      ['my_bench', 'other_bench'],
    );
    assert.deepEqual(
      layoutDatasetFolders([
        'exp1/sft/samples.jsonl',
        'exp2/sft/samples.jsonl',
        'exp1/rl/samples.jsonl',
        'exp2/rl/samples.jsonl',
        'A-GRPO/global_step100/samples.jsonl',
        'A-PPO/global_step100/samples.jsonl',
        'A/seed_42/samples.jsonl',
        'B/seed_42/samples.jsonl',
        'A/0/samples.jsonl',
        'B/0/samples.jsonl',
        'A/t0.6/samples.jsonl',
        'B/t0.6/samples.jsonl',
      ]),
      [],
    );
    assert.equal(pathModelName('Qwen2.5-7B/my_bench/samples.jsonl', 'samples', ['my_bench']), 'Qwen2.5-7B');
    assert.equal(folderDataset('Qwen2.5-7B/my_bench/samples.jsonl', ['my_bench']), 'my_bench');
  });

  test('report: unknown dataset folders (my_bench, other_bench) with the same ids are two datasets, never one default', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/my_bench/samples.jsonl': flat('TFFF TFFF TFFF', ''),
        'Qwen2.5-7B/other_bench/samples.jsonl': flat('FFFF FFFF TFFF', ''),
        'Qwen2.5-7B-GRPO/my_bench/samples.jsonl': flat('TTTF TTTF TTTF', ''),
        'Qwen2.5-7B-GRPO/other_bench/samples.jsonl': flat('TFFF FFFF TTFF', ''),
      }),
    );
    assert.deepEqual(datasets(r), ['my_bench 3', 'other_bench 3']);
    assert.deepEqual(
      new Set(r.models.map((m) => m.id.slice(m.id.indexOf(':') + 1))),
      new Set(['Qwen2.5-7B', 'Qwen2.5-7B-GRPO']),
    );
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B/my_bench:Qwen2.5-7B <- Qwen2.5-7B-GRPO/my_bench:Qwen2.5-7B-GRPO',
      'Qwen2.5-7B/other_bench:Qwen2.5-7B <- Qwen2.5-7B-GRPO/other_bench:Qwen2.5-7B-GRPO',
    ]);
  });

  // Trial 9 finding 2.
  test('benchmark folders above the model folders: the model is never taken for a dataset; each benchmark compared within itself', () => {
    // unknown benchmark names: before, `Qwen2.5-7B` (under two folders) was the dataset and `other_bench` was
    // compared with `my_bench` (problem i of one benchmark against problem i of the other)
    const files = {
      'my_bench/Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF', ''),
      'my_bench/Qwen2.5-7B-GRPO/samples.jsonl': flat('TTTF TTTF TTTF', ''),
      'other_bench/Qwen2.5-7B/samples.jsonl': flat('FFFF FFFF TFFF', ''),
      'other_bench/Qwen2.5-7B-GRPO/samples.jsonl': flat('TFFF FFFF TTFF', ''),
    };
    assert.deepEqual(layoutDatasetFolders(Object.keys(files)), []);
    const r = report(folder(files));
    assert.deepEqual(models(r), [
      'my_bench/Qwen2.5-7B:Qwen2.5-7B 12/3',
      'my_bench/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO 12/9',
      'other_bench/Qwen2.5-7B:Qwen2.5-7B 12/1',
      'other_bench/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO 12/3',
    ]);
    assert.deepEqual(pairs(r), [
      'my_bench/Qwen2.5-7B:Qwen2.5-7B <- my_bench/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
      'other_bench/Qwen2.5-7B:Qwen2.5-7B <- other_bench/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
    ]);
    // known dataset names: gsm8k and math500 were compared with the gsm8k base only (math500 not compared)
    const known = report(
      folder({
        'gsm8k/Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF', ''),
        'gsm8k/Qwen2.5-7B-GRPO/samples.jsonl': flat('TTTF TTTF TTTF', ''),
        'math500/Qwen2.5-7B/samples.jsonl': flat('FFFF FFFF TFFF', ''),
        'math500/Qwen2.5-7B-GRPO/samples.jsonl': flat('TFFF FFFF TTFF', ''),
      }),
    );
    assert.deepEqual(datasets(known), ['gsm8k 3', 'math500 3']);
    assert.deepEqual(pairs(known), [
      'gsm8k/Qwen2.5-7B:Qwen2.5-7B <- gsm8k/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
      'math500/Qwen2.5-7B:Qwen2.5-7B <- math500/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
    ]);
    assert.deepEqual(known.notCompared ?? [], []);
  });

  test('rollouts and mappings too: a dataset folder is the dataset of records naming none', async () => {
    const dir = tempDir('ti-t9-roll-');
    writeRollouts(join(dir, 'Qwen2.5-7B/MATH-500/base_raw.jsonl'), { name: 'Qwen/Qwen2.5-7B', revision: 'main' }, [
      [0, [true, false]],
      [1, [false, false]],
    ]);
    writeRollouts(join(dir, 'Qwen2.5-7B/aime_2024/base_raw.jsonl'), { name: 'Qwen/Qwen2.5-7B', revision: 'main' }, [
      [0, [true, true]],
    ]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(datasetCounts(index), [
      { dataset: 'MATH-500', problems: 2 },
      { dataset: 'aime_2024', problems: 1 },
    ]);
    index.close();
  });
});

// Trial 8 finding 2.
describe('temperatures in folders, in stems with extra tokens, and integer ones', () => {
  test('folder and stem temperatures are read, the model keeps its folder name', () => {
    assert.equal(folderTemperature('t0.6'), 't0.6');
    assert.equal(folderTemperature('temp_1.0'), 'temp1.0');
    assert.equal(folderTemperature('temp0.6'), 'temp0.6');
    assert.equal(folderTemperature('t0'), 't0');
    assert.equal(folderTemperature('Qwen2.5-7B_t0.6'), undefined);
    assert.equal(folderTemperature('flan-t5'), undefined);
    assert.equal(stemTemperature('samples_n4_t0')?.variant, 't0');
    assert.equal(stemTemperature('samples_temp1')?.variant, 'temp1');
    assert.equal(pathModelName('Qwen2.5-7B/t0.6/samples.jsonl', 'samples'), 'Qwen2.5-7B_t0.6');
    assert.equal(pathModelName('Qwen2.5-7B/temp_1.0/samples.jsonl', 'samples'), 'Qwen2.5-7B_temp1.0');
    assert.equal(pathModelName('Qwen2.5-7B/samples_n4_temp0.6.jsonl', 'samples_n4_temp0.6'), 'Qwen2.5-7B_temp0.6');
    assert.equal(
      pathModelName('Qwen2.5-7B/samples_n4_temperature_1.0.jsonl', 'samples_n4_temperature_1.0'),
      'Qwen2.5-7B_temperature1.0',
    );
    assert.equal(pathModelName('Qwen2.5-7B/samples_n4_t0.jsonl', 'samples_n4_t0'), 'Qwen2.5-7B_t0');
    assert.equal(
      qwenModelAndDataset('Qwen2.5-7B/temp0.6/math_eval/math500/test_qwen-boxed_-1_seed0_t0.6_s0_e-1.jsonl', '/r').model
        .name,
      'Qwen2.5-7B_t0.6',
    );
  });

  test('2a report: temperature folders t0.6/ and temp_1.0/: each model against the base at its temperature', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/t0.6/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B/temp_1.0/samples.jsonl': flat('FFFF FFFF'),
        'Qwen2.5-7B-GRPO/t0.6/samples.jsonl': flat('TTTF TTTF'),
        'Qwen2.5-7B-GRPO/temp_1.0/samples.jsonl': flat('TTFF TTFF'),
      }),
    );
    assert.deepEqual(models(r), [
      'Qwen2.5-7B-GRPO/t0.6:Qwen2.5-7B-GRPO_t0.6 8/6',
      'Qwen2.5-7B-GRPO/temp_1.0:Qwen2.5-7B-GRPO_temp1.0 8/4',
      'Qwen2.5-7B/t0.6:Qwen2.5-7B_t0.6 8/2',
      'Qwen2.5-7B/temp_1.0:Qwen2.5-7B_temp1.0 8/0',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B/t0.6:Qwen2.5-7B_t0.6 <- Qwen2.5-7B-GRPO/t0.6:Qwen2.5-7B-GRPO_t0.6',
      'Qwen2.5-7B/temp_1.0:Qwen2.5-7B_temp1.0 <- Qwen2.5-7B-GRPO/temp_1.0:Qwen2.5-7B-GRPO_temp1.0',
    ]);
  });

  test('2b report: Qwen layout temp0.0/ and temp0.6/ folders: models _t0.0 / _t0.6, compared at the same temperature', () => {
    const file = (m: string, t: string) =>
      `${m}/temp${t}/math_eval/math500/test_qwen-boxed_-1_seed0_t${t}_s0_e-1.jsonl`;
    const r = report(
      folder({
        [file('Qwen2.5-7B', '0.0')]: qwen('TFFF TFFF'),
        [file('Qwen2.5-7B', '0.6')]: qwen('TTFF TTFF'),
        [file('Qwen2.5-7B-GRPO', '0.0')]: qwen('TTTF TTTF'),
        [file('Qwen2.5-7B-GRPO', '0.6')]: qwen('TTTT TTTT'),
      }),
    );
    assert.deepEqual(
      r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`),
      ['Qwen2.5-7B_t0.0 8/2', 'Qwen2.5-7B_t0.6 8/4', 'Qwen2.5-7B-GRPO_t0.0 8/6', 'Qwen2.5-7B-GRPO_t0.6 8/8'],
    );
    assert.deepEqual(pairs(r), ['Qwen2.5-7B_t0.0 <- Qwen2.5-7B-GRPO_t0.0', 'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-GRPO_t0.6']);
  });

  test('2c report: samples_n4_temp0.6, samples_n4_temperature_1.0, samples_n4_t0: compared at the same temperature', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/samples_n4_temp0.6.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B/samples_n4_temperature_1.0.jsonl': flat('FFFF FFFF'),
        'Qwen2.5-7B/samples_n4_t0.jsonl': flat('TFFF FFFF'),
        'Qwen2.5-7B-GRPO/samples_n4_temp0.6.jsonl': flat('TTTF TTTF'),
        'Qwen2.5-7B-GRPO/samples_n4_temperature_1.0.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-GRPO/samples_n4_t0.jsonl': flat('TTTT TFFF'),
      }),
    );
    assert.deepEqual(models(r), [
      'Qwen2.5-7B:Qwen2.5-7B_t0 8/1',
      'Qwen2.5-7B:Qwen2.5-7B_temp0.6 8/2',
      'Qwen2.5-7B:Qwen2.5-7B_temperature1.0 8/0',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t0 8/5',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_temp0.6 8/6',
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_temperature1.0 8/4',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B:Qwen2.5-7B_t0 <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t0',
      'Qwen2.5-7B:Qwen2.5-7B_temp0.6 <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_temp0.6',
      'Qwen2.5-7B:Qwen2.5-7B_temperature1.0 <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_temperature1.0',
    ]);
  });
});

// Trial 8 finding 5.
describe('rollouts question_file data/<ds>/test.jsonl names the dataset <ds>, not test', () => {
  test('questionFileDataset: the parent folder when the stem is a split name', () => {
    assert.equal(questionFileDataset('data/gsm8k/test.jsonl'), 'gsm8k');
    assert.equal(questionFileDataset('data\\math500\\validation.jsonl'), 'math500');
    assert.equal(questionFileDataset('data/gsm8k_subset.jsonl'), 'gsm8k_subset');
    assert.equal(questionFileDataset('test.jsonl'), 'test');
  });

  test('report: two run folders with qids 0..2 each: datasets gsm8k 3 and math500 3 (6 problems)', () => {
    const dir = tempDir('ti-t9-q-');
    for (const ds of ['gsm8k', 'math500']) {
      writeRollouts(join(dir, `eval_${ds}/base_raw.jsonl`), { name: 'Qwen/Qwen2.5-7B', revision: 'main' }, [
        [0, [true, false]],
        [1, [false, false]],
        [2, [true, true]],
      ]);
      writeRollouts(join(dir, `eval_${ds}/grpo_raw.jsonl`), { name: 'me/Qwen2.5-7B-GRPO', revision: 'main' }, [
        [0, [true, true]],
        [1, [true, false]],
        [2, [true, true]],
      ]);
      writeFileSync(
        join(dir, `eval_${ds}/run_config.json`),
        JSON.stringify({ question_file: `data/${ds}/test.jsonl` }),
      );
    }
    const r = report(dir);
    assert.deepEqual(datasets(r), ['gsm8k 3', 'math500 3']);
    assert.deepEqual(pairs(r), [
      'eval_gsm8k:Qwen/Qwen2.5-7B@main <- eval_gsm8k:me/Qwen2.5-7B-GRPO@main',
      'eval_math500:Qwen/Qwen2.5-7B@main <- eval_math500:me/Qwen2.5-7B-GRPO@main',
    ]);
  });
});

// Trial 8 finding 6.
describe('Hydra multirun job folders are runs of the model above, flagged as seed siblings', () => {
  test('multirun/<date>/<time>/{0,1}/: model Qwen2.5-7B-GRPO twice, a seed-sibling warning, no "differ only in a number"', () => {
    assert.ok(isJobFolder(['m', 'multirun', '2025-01-15', '10-20-30', '0'], 4));
    assert.ok(!isJobFolder(['checkpoints', '100'], 1));
    assert.equal(
      pathModelName('Qwen2.5-7B-GRPO/multirun/2025-01-15/10-20-30/0/samples.jsonl', 'samples'),
      'Qwen2.5-7B-GRPO',
    );
    const r = report(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-GRPO/multirun/2025-01-15/10-20-30/0/samples.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-GRPO/multirun/2025-01-15/10-20-30/1/samples.jsonl': flat('TTTF TTTF'),
      }),
    );
    const job = (n: number) => `Qwen2.5-7B-GRPO/multirun/2025-01-15/10-20-30/${n}:Qwen2.5-7B-GRPO`;
    assert.deepEqual(models(r), ['Qwen2.5-7B:Qwen2.5-7B 8/2', `${job(0)} 8/4`, `${job(1)} 8/6`]);
    assert.deepEqual(pairs(r), [`Qwen2.5-7B:Qwen2.5-7B <- ${job(0)}`, `Qwen2.5-7B:Qwen2.5-7B <- ${job(1)}`]);
    assert.deepEqual(
      r.warnings.filter((w) => /seed-like part/.test(w)).map((w) => /\(([^)]*)\)/.exec(w)?.[1]),
      [`${job(0)}, ${job(1)}`],
    );
    assert.ok(!r.warnings.some((w) => /differ only in a number/.test(w)), r.warnings.join('\n'));
  });
});

// Trial 8 finding 7.
describe('run1 / run-2 / _run2 are seeds', () => {
  test('_run1 + _run2 files in one folder merge into one model; run-1/ run-2/ folders are seed siblings', () => {
    assert.equal(stripSeedTokens('Qwen2.5-7B-RLOO_run1'), 'Qwen2.5-7B-RLOO');
    assert.equal(stripSeedTokens('run-2'), '');
    // a dated run folder is no run number
    assert.equal(stripSeedTokens('run_20250116_110000'), 'run_20250116_110000');
    const merged = report(
      folder({
        'Qwen2.5-7B.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-RLOO_run1.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-RLOO_run2.jsonl': flat('TTTF TTTF'),
      }),
    );
    assert.deepEqual(models(merged), ['Qwen2.5-7B 8/2', 'Qwen2.5-7B-RLOO 16/10']);
    assert.deepEqual(pairs(merged), ['Qwen2.5-7B <- Qwen2.5-7B-RLOO']);
    const folders = report(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-DAPO/run-1/samples.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-DAPO/run-2/samples.jsonl': flat('TTTF TTTF'),
      }),
    );
    assert.deepEqual(models(folders), [
      'Qwen2.5-7B:Qwen2.5-7B 8/2',
      'Qwen2.5-7B-DAPO/run-1:Qwen2.5-7B-DAPO 8/4',
      'Qwen2.5-7B-DAPO/run-2:Qwen2.5-7B-DAPO 8/6',
    ]);
    assert.deepEqual(
      folders.warnings.filter((w) => /seed-like part/.test(w)).map((w) => /\(([^)]*)\)/.exec(w)?.[1]),
      ['Qwen2.5-7B-DAPO/run-1:Qwen2.5-7B-DAPO, Qwen2.5-7B-DAPO/run-2:Qwen2.5-7B-DAPO'],
    );
  });
});

// Trial 8 finding 8.
describe('out/, logs/ and dated folders name no model', () => {
  test('out, logs, 2025_01_15-10_20_30, run_20250116_110000, Jan15_10-20-30: the model folder above names the model', () => {
    for (const dir of ['out', 'logs', '2025_01_15-10_20_30', 'run_20250116_110000', 'Jan15_10-20-30'])
      assert.equal(pathModelName(`Qwen2.5-7B-GRPO/${dir}/samples.jsonl`, 'samples'), 'Qwen2.5-7B-GRPO', dir);
    const r = report(
      folder({
        'Qwen2.5-7B/2025_01_15-10_20_30/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-GRPO/out/samples.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-PPO/Jan15_10-20-30/samples.jsonl': flat('TTTF TTTF'),
      }),
    );
    assert.deepEqual(r.models.map((m) => m.label).sort(), ['Qwen2.5-7B', 'Qwen2.5-7B-GRPO', 'Qwen2.5-7B-PPO']);
    assert.equal(r.base, 'Qwen2.5-7B/2025_01_15-10_20_30:Qwen2.5-7B');
  });
});

// Trial 8 finding 11.
describe('an unseeded run beside its seeds is in the seed warning', () => {
  test('Qwen2.5-7B-GRPO/, -s1/ and _seed2/: one warning naming all three; each still compared with Qwen2.5-7B', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-GRPO/samples.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-GRPO-s1/samples.jsonl': flat('TTTF TTTF'),
        'Qwen2.5-7B-GRPO_seed2/samples.jsonl': flat('TTTT TTTT'),
      }),
    );
    assert.deepEqual(
      r.warnings.filter((w) => /seed-like part/.test(w)).map((w) => /\(([^)]*)\)/.exec(w)?.[1]),
      ['Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO, Qwen2.5-7B-GRPO_seed2:Qwen2.5-7B-GRPO, Qwen2.5-7B-GRPO-s1:Qwen2.5-7B-GRPO'],
    );
    assert.equal(r.comparisons.length, 3);
    assert.ok(r.comparisons.every((c) => c.base === 'Qwen2.5-7B:Qwen2.5-7B'));
  });
});

// Trial 8 finding 9.
describe('checkpoint labels keep their run; steps written with k sort by step', () => {
  test('global_step100, ckpt/global_step100_hf, global_step_100/actor/huggingface/eval: labels name the model folder', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-GRPO/global_step100/samples.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-PPO/ckpt/global_step100_hf/samples.jsonl': flat('TTTF TTFF'),
        'Qwen2.5-7B-RLOO/global_step_100/actor/huggingface/eval/samples.jsonl': flat('TTTT TTFF'),
      }),
    );
    assert.deepEqual(
      r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`),
      [
        'Qwen2.5-7B 8/2',
        'Qwen2.5-7B-GRPO · global_step100 8/4',
        'Qwen2.5-7B-PPO · global_step100_hf 8/5',
        'Qwen2.5-7B-RLOO · global_step_100 8/6',
      ],
    );
  });

  test('step_500, step_1k, step_2k: listed by step', () => {
    assert.equal(scaledSteps('Qwen2.5-7B-GRPO/step_1k'), 'Qwen2.5-7B-GRPO/step_1000');
    assert.equal(scaledSteps('Qwen2.5-7B'), 'Qwen2.5-7B');
    const r = report(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B-GRPO/step_1k/samples.jsonl': flat('TTTF TTFF'),
        'Qwen2.5-7B-GRPO/step_2k/samples.jsonl': flat('TTTT TTFF'),
        'Qwen2.5-7B-GRPO/step_500/samples.jsonl': flat('TTFF TTFF'),
      }),
    );
    assert.deepEqual(
      r.models.map((m) => m.label),
      ['Qwen2.5-7B', 'Qwen2.5-7B-GRPO · step_500', 'Qwen2.5-7B-GRPO · step_1k', 'Qwen2.5-7B-GRPO · step_2k'],
    );
  });
});

// Trial 8 finding 10.
describe('evalplus file names give the model and the temperature; the datasets are one model', () => {
  test('Qwen--Qwen2.5-7B_vllm_temp_0.0 -> Qwen/Qwen2.5-7B at 0.0, humaneval/ and mbpp/ pooled', () => {
    assert.equal(evalplusModelName('Qwen--Qwen2.5-7B_vllm_temp_0.0'), 'Qwen/Qwen2.5-7B_t0.0');
    assert.equal(evalplusModelName('samples'), undefined);
    assert.equal(evalplusRun('humaneval/Qwen--Qwen2.5-7B_vllm_temp_0.0.jsonl_results.jsonl'), '');
    const mbpp = (spec: string) => flat(spec, 'Mbpp/');
    const r = report(
      folder({
        'humaneval/Qwen--Qwen2.5-7B_vllm_temp_0.0.jsonl_results.jsonl': flat('TFFF TFFF'),
        'humaneval/Qwen--Qwen2.5-7B-GRPO_vllm_temp_0.0.jsonl_results.jsonl': flat('TTFF TTTF'),
        'mbpp/Qwen--Qwen2.5-7B_vllm_temp_0.0.jsonl_results.jsonl': mbpp('FFFF TFFF TFFF'),
        'mbpp/Qwen--Qwen2.5-7B-GRPO_vllm_temp_0.0.jsonl_results.jsonl': mbpp('TFFF TTFF TTTT'),
      }),
    );
    assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B_t0.0 20/4', 'Qwen/Qwen2.5-7B-GRPO_t0.0 20/12']);
    assert.deepEqual(datasets(r), ['HumanEval 2', 'Mbpp 3']);
    assert.deepEqual(pairs(r), ['Qwen/Qwen2.5-7B_t0.0 <- Qwen/Qwen2.5-7B-GRPO_t0.0']);
    assert.equal(r.comparisons[0].problems, 5);
  });
});
