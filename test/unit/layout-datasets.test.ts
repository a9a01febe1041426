// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * How a folder's layout gives the dataset: a dataset in a flat file name or a rollouts stem, one dataset spelt two
 * ways, versions of a known dataset, lm-eval task files.
 *
 * Trial 9 findings on datasets fixed after that trial (this file): 1 a dataset in a flat file's name
 * (`Qwen2.5-7B/math500.jsonl`) was ignored, so files of other datasets were merged as seed shards of one dataset's
 * problems or became models; 6 rollouts files named by dataset (`gsm8k_rollouts.jsonl`) lost the second file's
 * samples as "a re-run or a copy?"; 9 a dataset spelt differently by the base and the RL run (`MATH-500` vs
 * `math500`) was two datasets, never compared. Each test builds the folder it needs in a temporary directory and reads
 * it through the compiled CLI (`report --format json`) or a real SQLite index. Every expected value is the one a
 * person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { datasetCounts } from '../../src/core/grouping/datasets';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import {
  datasetKey,
  datasetSpellings,
  isDatasetName,
  isGenericStem,
  pathModelName,
  stemDataset,
} from '../../src/core/readers/util';
import type { Report } from '../../src/core/report/index';
import { cliReport, flatLines, tempDir, writeFolder, writeRollouts } from './helpers';
import { runCli } from './reliability.support';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t10-');

/** Flat lines, bare problem numbers as task ids (helpers.ts flatLines). */
const flat = (spec: string): string => flatLines(spec);

/** `report --format json` of the compiled CLI on `dir` (helpers.ts cliReport). */
const report = cliReport;

/** Models as `<label> <samples>/<correct>`, sorted. */
const models = (r: Report) => r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`).sort();
/** Comparisons as `<base label> <- <model label>: <problems>`. */
const pairs = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.comparisons.map((c) => `${label.get(c.base) ?? c.base} <- ${label.get(c.model) ?? c.model}: ${c.problems}`);
};
/** Datasets as `<name> <problems>`. */
const datasets = (r: Report) => r.datasets.map((d) => `${d.dataset} ${d.problems}`);
/** Per model and dataset as `<model label> <dataset> <samples>/<correct>`, sorted. */
const perDataset = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.perDataset.map((d) => `${label.get(d.model) ?? d.model} ${d.dataset} ${d.samples}/${d.correct}`).sort();
};

// Trial 9 finding 1.
describe('a dataset in a flat file name is the file dataset, never seed shards, never a model', () => {
  test('stemDataset: the dataset of a stem that names no model, as spelt', () => {
    assert.equal(stemDataset('gsm8k'), 'gsm8k');
    assert.equal(stemDataset('math500'), 'math500');
    assert.equal(stemDataset('aime_2024_samples'), 'aime_2024');
    assert.equal(stemDataset('MATH-500_samples'), 'MATH-500');
    assert.equal(stemDataset('gsm8k_rollouts'), 'gsm8k');
    assert.equal(stemDataset('samples_t0.6_aime24'), 'aime24');
    assert.equal(stemDataset('samples'), undefined);
    // a model name with a dataset word in it keeps it (trial 9 finding 14): no dataset
    assert.equal(stemDataset('Qwen2.5-Math-7B-gsm8k-sft'), undefined);
    // `aime_2024_samples` and `MATH-500_samples` name no model (they became models `aime_2024_samples (Qwen2.5-7B)`)
    assert.ok(isGenericStem('aime_2024_samples'));
    assert.ok(isGenericStem('MATH-500_samples'));
    assert.equal(pathModelName('Qwen2.5-7B/aime_2024_samples.jsonl', 'aime_2024_samples'), 'Qwen2.5-7B');
  });

  test('report: Qwen2.5-7B/{gsm8k,math500,aime_2024_samples}.jsonl: three datasets, two models, compared per dataset', () => {
    // task ids 0..2 in every file; base c = 1, 0, 1 per problem, GRPO c = 3, 2, 3 (of 4)
    const r = report(
      folder({
        'Qwen2.5-7B/gsm8k.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/math500.jsonl': flat('FFFF FFFF FFFF'),
        'Qwen2.5-7B/aime_2024_samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/gsm8k.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/math500.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/aime_2024_samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    assert.deepEqual(datasets(r), ['aime_2024 3', 'gsm8k 3', 'math500 3']);
    // n = 4 per problem (not 8: math500 was read as seed shards of gsm8k's problems), 36 samples per model
    assert.deepEqual(models(r), ['Qwen2.5-7B 36/6', 'Qwen2.5-7B-GRPO 36/24']);
    assert.deepEqual(perDataset(r), [
      'Qwen2.5-7B aime_2024 12/3',
      'Qwen2.5-7B gsm8k 12/3',
      'Qwen2.5-7B math500 12/0',
      'Qwen2.5-7B-GRPO aime_2024 12/9',
      'Qwen2.5-7B-GRPO gsm8k 12/9',
      'Qwen2.5-7B-GRPO math500 12/6',
    ]);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO: 9']);
    const [c] = r.comparisons;
    // gsm8k and aime: c 1 -> 3 (sharpening); math500: 0 -> 2 (expansion)
    assert.equal(c.categories.sharpening, 6);
    assert.equal(c.categories.expansion, 3);
    assert.equal(c.categories.regression, 0);
    assert.ok(!r.warnings.some((w) => /seed shard/.test(w)), r.warnings.join('\n'));
  });

  test('report: gsm8k_samples, aime24_samples, MATH-500_samples: three datasets, no model named by a file', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/gsm8k_samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B/aime24_samples.jsonl': flat('FFFF TFFF'),
        'Qwen2.5-7B/MATH-500_samples.jsonl': flat('TFFF FFFF'),
        'Qwen2.5-7B-GRPO/gsm8k_samples.jsonl': flat('TTFF TTFF'),
        'Qwen2.5-7B-GRPO/aime24_samples.jsonl': flat('TFFF TTFF'),
        'Qwen2.5-7B-GRPO/MATH-500_samples.jsonl': flat('TTTT FFFF'),
      }),
    );
    assert.deepEqual(datasets(r), ['MATH-500 2', 'aime24 2', 'gsm8k 2']);
    assert.deepEqual(models(r), ['Qwen2.5-7B 24/4', 'Qwen2.5-7B-GRPO 24/11']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO: 6']);
    assert.deepEqual(r.notCompared, []);
  });
});

// Trial 9 finding 6.
describe('rollouts files named by dataset, without run_config.json: the dataset from the stem', () => {
  test('index: {gsm8k,math500}_rollouts.jsonl of two models: two datasets, all 48 samples, no re-run warning', async () => {
    const dir = tempDir('ti-t10-roll-');
    const base = { name: 'Qwen/Qwen2.5-7B', revision: 'main' };
    const rl = { name: 'me/Qwen2.5-7B-GRPO', revision: 'main' };
    const rows = (c: number): [number, boolean[]][] =>
      [0, 1, 2].map((q) => [q, [0, 1, 2, 3].map((i) => i < c)] as [number, boolean[]]);
    writeRollouts(join(dir, 'Qwen2.5-7B/gsm8k_rollouts.jsonl'), base, rows(1));
    writeRollouts(join(dir, 'Qwen2.5-7B/math500_rollouts.jsonl'), base, rows(0));
    writeRollouts(join(dir, 'Qwen2.5-7B-GRPO/gsm8k_rollouts.jsonl'), rl, rows(3));
    writeRollouts(join(dir, 'Qwen2.5-7B-GRPO/math500_rollouts.jsonl'), rl, rows(2));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(datasetCounts(index), [
      { dataset: 'gsm8k', problems: 3 },
      { dataset: 'math500', problems: 3 },
    ]);
    index.close();
    const r = report(dir);
    // 48 samples (24 were left out as "already indexed ... a re-run or a copy?")
    assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B@main 24/3', 'me/Qwen2.5-7B-GRPO@main 24/15']);
    assert.deepEqual(perDataset(r), [
      'Qwen/Qwen2.5-7B@main gsm8k 12/3',
      'Qwen/Qwen2.5-7B@main math500 12/0',
      'me/Qwen2.5-7B-GRPO@main gsm8k 12/9',
      'me/Qwen2.5-7B-GRPO@main math500 12/6',
    ]);
    assert.deepEqual(pairs(r), ['Qwen/Qwen2.5-7B@main <- me/Qwen2.5-7B-GRPO@main: 6']);
    assert.ok(!r.warnings.some((w) => /re-run or a copy/.test(w)), r.warnings.join('\n'));
  });
});

// Trial 9 finding 9.
describe('a dataset spelt differently by the base and the RL run is one dataset, compared', () => {
  test('datasetSpellings: one spelling per dataset spelt two ways, whatever the file order', () => {
    const paths = [
      'Qwen2.5-7B/MATH-500/samples.jsonl',
      'Qwen2.5-7B/aime_2024/samples.jsonl',
      'Qwen2.5-7B-GRPO/math500/samples.jsonl',
      'Qwen2.5-7B-GRPO/aime24/samples.jsonl',
      'Qwen2.5-7B-GRPO/gsm8k/samples.jsonl',
      'Qwen2.5-7B/gsm8k/samples.jsonl',
    ];
    const expected = { aime24: 'aime24', math500: 'MATH-500' };
    assert.deepEqual(datasetSpellings(paths), expected);
    assert.deepEqual(datasetSpellings([...paths].reverse()), expected);
    // two spellings side by side under one model are two folders kept apart: two datasets
    assert.deepEqual(
      datasetSpellings([
        'Qwen2.5-7B/HumanEvalPlus/samples.jsonl',
        'Qwen2.5-7B/humaneval-plus/samples.jsonl',
        'Qwen2.5-7B-GRPO/HumanEvalPlus/samples.jsonl',
        'Qwen2.5-7B-GRPO/humaneval-plus/samples.jsonl',
      ]),
      {},
    );
    // the spelling of the most files wins
    assert.deepEqual(
      datasetSpellings(['a/math500/x.jsonl', 'b/math500/x.jsonl', 'c/MATH-500/x.jsonl', 'd/math500.jsonl']),
      { math500: 'math500' },
    );
  });

  test('report: MATH-500/ and aime_2024/ of the base, math500/ and aime24/ of GRPO: two datasets, each compared', () => {
    // ids 0..2 in every file; base c = 1 per problem, GRPO c = 3 on MATH-500 and 2 on AIME (of 4)
    const r = report(
      folder({
        'Qwen2.5-7B/MATH-500/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/aime_2024/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/math500/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/aime24/samples.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    // two datasets, one spelling each (there were four, and no comparison at all)
    assert.deepEqual(datasets(r), ['MATH-500 3', 'aime24 3']);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B (Qwen2.5-7B/aime_2024) <- Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO/aime24): 3',
      'Qwen2.5-7B (Qwen2.5-7B/MATH-500) <- Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO/math500): 3',
    ]);
    const math = r.comparisons.find((c) => c.model.includes('math500'));
    assert.equal(math?.categories.sharpening, 3);
    assert.deepEqual(r.notCompared, []);
  });
});

// Trial 9 finding 9 (kept apart).
describe('two spellings side by side under each model stay two datasets, each compared with its own', () => {
  test('report: HumanEvalPlus/ beside humaneval-plus/ under both models', () => {
    const he = (spec: string) =>
      spec
        .split(' ')
        .flatMap((w, t) =>
          [...w].map((v, i) => JSON.stringify({ task_id: `HumanEval/${t}`, completion: `x${i}`, passed: v === 'T' })),
        )
        .join('\n');
    const r = report(
      folder({
        'Qwen2.5-7B/HumanEvalPlus/samples.jsonl': he('TFFF TFFF'),
        'Qwen2.5-7B/humaneval-plus/samples.jsonl': he('FFFF FFFF'),
        'Qwen2.5-7B-GRPO/HumanEvalPlus/samples.jsonl': he('TTTF TTTF'),
        'Qwen2.5-7B-GRPO/humaneval-plus/samples.jsonl': he('TTFF TTFF'),
      }),
    );
    assert.deepEqual(datasets(r), ['HumanEvalPlus 2', 'humaneval-plus 2']);
    assert.deepEqual(pairs(r).sort(), [
      'Qwen2.5-7B (Qwen2.5-7B/HumanEvalPlus) <- Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO/HumanEvalPlus): 2',
      'Qwen2.5-7B (Qwen2.5-7B/humaneval-plus) <- Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO/humaneval-plus): 2',
    ]);
    assert.deepEqual(r.notCompared, []);
  });
});

// Trial 9 finding 7.
describe('a version of a known dataset (livecodebench_v5/) under the RL model only is a dataset, no model', () => {
  test('isDatasetName: a known dataset with a version; its own dataset by key', () => {
    for (const name of ['livecodebench_v5', 'LiveCodeBench-v6', 'mbpp_v2']) assert.ok(isDatasetName(name), name);
    for (const name of ['v5', 'my_bench_v5', 'samples_v2']) assert.ok(!isDatasetName(name), name);
    assert.notEqual(datasetKey('livecodebench_v5'), datasetKey('livecodebench'));
    assert.equal(pathModelName('Qwen2.5-7B-GRPO/livecodebench_v5/samples.jsonl', 'samples'), 'Qwen2.5-7B-GRPO');
  });

  test('report: Qwen2.5-7B-GRPO/livecodebench_v5/ is GRPO on livecodebench_v5, never paired with the base problems', () => {
    const r = report(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/livecodebench_v5/samples.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    assert.deepEqual(datasets(r), ['default 3', 'livecodebench_v5 3']);
    // there was a model `livecodebench_v5`, compared with the base's default problems (sharpening 3)
    assert.deepEqual(models(r), [
      'Qwen2.5-7B 12/3',
      'Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO) 12/9',
      'Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO/livecodebench_v5) 12/6',
    ]);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO (Qwen2.5-7B-GRPO): 3']);
    assert.deepEqual(
      r.notCompared.map((n) => `${n.model} ${n.kind}`),
      ['Qwen2.5-7B-GRPO/livecodebench_v5:Qwen2.5-7B-GRPO noCommonProblem'],
    );
  });
});

/** lm-eval-harness samples lines: problem `doc_id` t, 4 responses, the first `c[t]` right (`filtered_resps` = target). */
function lmEval(task: string, c: number[]): string {
  return c
    .map((ci, t) =>
      JSON.stringify({
        doc_id: t,
        doc: { problem: `${task} doc ${t}` },
        target: `${10 + t}`,
        resps: [0, 1, 2, 3].map((i) => [`The answer is ${i < ci ? 10 + t : t}.`]),
        filtered_resps: [0, 1, 2, 3].map((i) => `${i < ci ? 10 + t : t}`),
      }),
    )
    .join('\n');
}

// Trial 9 finding 11.
describe('lm-eval samples_<task>_<date> files name no model; Qwen__Qwen2.5-7B is Qwen/Qwen2.5-7B', () => {
  test('pathModelName: any lm-eval task; the org__name folder of lm-eval files only', () => {
    const stem = 'samples_minerva_math_algebra_2025-01-15T10-20-30.123456';
    assert.ok(isGenericStem(stem));
    assert.equal(pathModelName(`Qwen__Qwen2.5-7B/${stem}.jsonl`, stem), 'Qwen/Qwen2.5-7B');
    assert.equal(pathModelName(`me__Qwen2.5-7B-GRPO/${stem}.jsonl`, stem), 'me/Qwen2.5-7B-GRPO');
    // another file in such a folder keeps the folder's name
    assert.equal(pathModelName('Qwen__Qwen2.5-7B/samples.jsonl', 'samples'), 'Qwen__Qwen2.5-7B');
  });

  test('report: two tasks (gsm8k, minerva_math_algebra) of two models with a mapping: one model each, both compared', () => {
    const mapping = ['gsm8k', 'minerva_math_algebra'].map((task) => ({
      files: [`**/samples_${task}_*.jsonl`],
      records: 'per-problem',
      dataset: task,
      fields: {
        problemId: 'doc_id',
        question: 'doc.problem',
        referenceAnswer: 'target',
        text: '$.resps[*][0]',
        extractedAnswer: 'filtered_resps',
      },
    }));
    const date = '2025-01-15T10-20-30.123456';
    const dir = folder({
      'trace-inspector.mapping.json': JSON.stringify(mapping),
      [`Qwen__Qwen2.5-7B/samples_gsm8k_${date}.jsonl`]: lmEval('gsm8k', [1, 1, 1]),
      [`Qwen__Qwen2.5-7B/samples_minerva_math_algebra_${date}.jsonl`]: lmEval('minerva', [0, 0, 0]),
      [`me__Qwen2.5-7B-GRPO/samples_gsm8k_${date}.jsonl`]: lmEval('gsm8k', [3, 3, 3]),
      [`me__Qwen2.5-7B-GRPO/samples_minerva_math_algebra_${date}.jsonl`]: lmEval('minerva', [2, 2, 2]),
    });
    const tmp = tempDir('ti-t10-cli-');
    const run = runCli(
      ['report', dir, '--db', join(tmp, 'i.db'), '-q', '--replicates', '100', '--tool-grading', '--format', 'json'],
      tmp,
    );
    assert.equal(run.status, 0, run.stderr);
    const r = JSON.parse(run.stdout) as Report;
    assert.deepEqual(datasets(r), ['gsm8k 3', 'minerva_math_algebra 3']);
    // the minerva files were models `samples_minerva_math_algebra_… (Qwen__Qwen2.5-7B)`, never compared
    assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B 24/3', 'me/Qwen2.5-7B-GRPO 24/15']);
    assert.deepEqual(pairs(r), ['Qwen/Qwen2.5-7B <- me/Qwen2.5-7B-GRPO: 6']);
    assert.deepEqual(r.notCompared, []);
  });
});
