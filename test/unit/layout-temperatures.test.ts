// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Temperatures in model folder names and the training table per dataset: each model compared with the base at its
 * temperature and in its dataset.
 *
 * Trial 9 findings on training tables and temperatures (wrong figures): 3 the training table's base column taken
 * from another dataset in verl's layout; 4 a temperature in a model folder name (`Qwen2.5-7B_t1.0/`) not read as
 * the temperature; 5 a plain file the base of every temperature variant. Each test builds the folder it needs in a
 * temporary directory (writeFolder) and reads it through the compiled CLI (`report --format json`). Every expected
 * value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { Report } from '../../src/core/report/index';
import { cliReport, flatLines, qwen, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t10b-');

/** Flat lines, bare problem numbers as task ids (helpers.ts flatLines). */
const flat = (spec: string): string => flatLines(spec);

/** Comparisons as `<base id> <- <model id>`. */
const pairs = (r: Report) => r.comparisons.map((c) => `${c.base} <- ${c.model}`);

// Trial 9 finding 3.
describe('the training table compares each dataset of a verl run with the base in that dataset', () => {
  test('Qwen2.5-7B/{gsm8k,math500} and Qwen2.5-7B-GRPO/global_step_N/{gsm8k,math500}: math500 base pass@1 50.0, not gsm8k 25.0', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/gsm8k/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/math500/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/global_step_100/gsm8k/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/global_step_100/math500/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/global_step_200/gsm8k/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/global_step_200/math500/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // every checkpoint of each dataset compared with the base's copy of that dataset (math500 was NOT COMPARED)
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B/gsm8k:Qwen2.5-7B <- Qwen2.5-7B-GRPO/global_step_100/gsm8k:global_step_100',
      'Qwen2.5-7B/math500:Qwen2.5-7B <- Qwen2.5-7B-GRPO/global_step_100/math500:global_step_100',
      'Qwen2.5-7B/gsm8k:Qwen2.5-7B <- Qwen2.5-7B-GRPO/global_step_200/gsm8k:global_step_200',
      'Qwen2.5-7B/math500:Qwen2.5-7B <- Qwen2.5-7B-GRPO/global_step_200/math500:global_step_200',
    ]);
    assert.deepEqual(r.notCompared, []);
    // two series, one per dataset; each step's base column is the base in the series' own dataset
    const series = new Map(r.trajectories.map((t) => [t.name, t]));
    assert.deepEqual([...series.keys()].sort(), [
      'Qwen2.5-7B-GRPO/global_step_*/gsm8k:global_step_*',
      'Qwen2.5-7B-GRPO/global_step_*/math500:global_step_*',
    ]);
    const at1 = (xs: { k: number; value: number | null }[]) => xs.find((p) => p.k === 1)?.value;
    for (const [name, base, basePass1, pass1] of [
      ['Qwen2.5-7B-GRPO/global_step_*/gsm8k:global_step_*', 'Qwen2.5-7B/gsm8k:Qwen2.5-7B', 0.25, [0.5, 0.75]],
      ['Qwen2.5-7B-GRPO/global_step_*/math500:global_step_*', 'Qwen2.5-7B/math500:Qwen2.5-7B', 0.5, [0.75, 1]],
    ] as const) {
      const t = series.get(name);
      assert.ok(t, name);
      assert.deepEqual(
        t.steps.map((s) => s.step),
        [100, 200],
      );
      assert.deepEqual(
        t.steps.map((s) => s.base),
        [base, base],
        name,
      );
      assert.deepEqual(
        t.steps.map((s) => at1(s.basePassAtK)),
        [basePass1, basePass1],
        name,
      );
      assert.deepEqual(
        t.steps.map((s) => at1(s.passAtK)),
        [...pass1],
        name,
      );
      assert.deepEqual(
        t.steps.map((s) => s.pairedProblems),
        [3, 3],
      );
    }
  });
});

/** The warnings of a report that say a comparison crosses sampling temperatures. */
const crossTemperature = (r: Report) => r.warnings.filter((w) => w.includes('across sampling temperatures'));

// Trial 9 finding 4.
describe('a temperature in a model folder name is the temperature', () => {
  test('Qwen2.5-7B_t0.6/, _t1.0/, -GRPO_t0.6/, -GRPO_t1.0/: each compared at its temperature, the base never with itself', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B_t0.6/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B_t1.0/samples.jsonl': flat('FFFF FFFF FFFF'),
        'Qwen2.5-7B-GRPO_t0.6/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO_t1.0/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-PPO_temp1.2/samples.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    // before: every model against Qwen2.5-7B_t0.6, also Qwen2.5-7B_t1.0 (the base against itself: regression 3)
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B_t0.6:Qwen2.5-7B_t0.6 <- Qwen2.5-7B-GRPO_t0.6:Qwen2.5-7B-GRPO_t0.6',
      'Qwen2.5-7B_t1.0:Qwen2.5-7B_t1.0 <- Qwen2.5-7B-GRPO_t1.0:Qwen2.5-7B-GRPO_t1.0',
      'Qwen2.5-7B_t0.6:Qwen2.5-7B_t0.6 <- Qwen2.5-7B-PPO_temp1.2:Qwen2.5-7B-PPO_temp1.2',
    ]);
    // GRPO at 1.0 against the base at 1.0 (c = 0): expansion on all 3 problems (against 0.6 it was sharpening)
    const at1 = r.comparisons.find((c) => c.model.startsWith('Qwen2.5-7B-GRPO_t1.0'));
    assert.equal(at1?.categories.expansion, 3);
    assert.equal(at1?.categories.sharpening, 0);
  });
});

// Trial 9 finding 5.
describe('the base at the same temperature before a plain file; a comparison across temperatures warned', () => {
  test('samples.jsonl beside samples_t0.6.jsonl: -GRPO_t0.6 against Qwen2.5-7B_t0.6, never the plain file; the base never against itself', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/samples_t0.6.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/samples_t0.6.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // before: Qwen2.5-7B_t0.6 and -GRPO_t0.6 both against the plain Qwen2.5-7B
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B:Qwen2.5-7B <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
      'Qwen2.5-7B:Qwen2.5-7B_t0.6 <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t0.6',
    ]);
    const t06 = r.comparisons.find((c) => c.model.endsWith('GRPO_t0.6'));
    assert.equal(t06?.categories.sharpening, 3);
    assert.deepEqual(crossTemperature(r), []);
  });

  test('a base sampled only at t0.0 and RL at t0.6 and t1.0: compared, each comparison warned as crossing temperatures', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples_t0.0.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/samples_t0.6.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/samples_t1.0.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B:Qwen2.5-7B_t0.0 <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t0.6',
      'Qwen2.5-7B:Qwen2.5-7B_t0.0 <- Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO_t1.0',
    ]);
    assert.deepEqual(
      crossTemperature(r).map((w) => w.slice(0, w.indexOf(':'))),
      ['Qwen2.5-7B-GRPO_t0.6 vs Qwen2.5-7B_t0.0', 'Qwen2.5-7B-GRPO_t1.0 vs Qwen2.5-7B_t0.0'],
    );
    assert.match(crossTemperature(r)[0], /model at t0\.6, base at t0\)/);
  });

  test('model folders with temperatures: the model at 1.2 without a base at 1.2 is warned', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B_t0.6/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO_t0.6/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO_temp1.2/samples.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    assert.deepEqual(
      crossTemperature(r).map((w) => w.slice(0, w.indexOf(':'))),
      ['Qwen2.5-7B-PPO_temp1.2 vs Qwen2.5-7B_t0.6'],
    );
  });
});

// Trial 9 finding 8.
describe('the Qwen-math temperature naming is decided per model, over its dataset folders', () => {
  /** A Qwen-math file of `model` in dataset folder `ds`, seed `seed`, temperature `t`. */
  const file = (model: string, ds: string, t: string, seed = 0) =>
    `${model}/math_eval/${ds}/test_qwen-boxed_-1_seed${seed}_t${t}_s0_e-1.jsonl`;

  test('aime24 at t0.6 alone in its folder, math500 at t0.0 and t0.6: Qwen2.5-7B_t0.6 across both datasets', () => {
    const files: Record<string, string> = {};
    for (const [m, c] of [
      ['Qwen2.5-7B', 'TFFF'],
      ['Qwen2.5-7B-zero', 'TTTF'],
    ] as const) {
      files[file(m, 'math500', '0.6', 0)] = qwen(`${c} ${c}`);
      files[file(m, 'math500', '0.6', 1)] = qwen(`${c} ${c}`);
      files[file(m, 'math500', '0.0')] = qwen(`${c} ${c}`);
      files[file(m, 'aime24', '0.6')] = qwen(`${c} ${c} ${c}`);
    }
    const r = cliReport(folder(files));
    // before: the aime24 files kept the plain names (the base `Qwen2.5-7B` of aime24 only), and the four math500
    // models were NOT COMPARED
    assert.deepEqual(
      r.models.map((m) => `${m.id} ${m.samples}`),
      ['Qwen2.5-7B_t0.0 8', 'Qwen2.5-7B_t0.6 28', 'Qwen2.5-7B-zero_t0.0 8', 'Qwen2.5-7B-zero_t0.6 28'],
    );
    assert.deepEqual(pairs(r), ['Qwen2.5-7B_t0.0 <- Qwen2.5-7B-zero_t0.0', 'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-zero_t0.6']);
    assert.deepEqual(r.notCompared, []);
  });

  test('incremental: a t0.0 file added in math500/ renames the t0.6 file of aime24/ (read again), and back when it goes', async () => {
    const dir = folder({ [file('Qwen2.5-7B', 'aime24', '0.6')]: qwen('TFFF TFFF') });
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['Qwen2.5-7B'],
    );
    const added = join(dir, file('Qwen2.5-7B', 'math500', '0.0'));
    mkdirSync(join(dir, 'Qwen2.5-7B/math_eval/math500'), { recursive: true });
    writeFileSync(added, qwen('TTFF TTFF'));
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(
      index
        .models()
        .map((m) => m.name)
        .sort(),
      ['Qwen2.5-7B_t0.0', 'Qwen2.5-7B_t0.6'],
    );
    rmSync(added);
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['Qwen2.5-7B'],
    );
    index.close();
  });
});

// Trial 9 finding 10.
describe('Hydra outputs/<date>/<time>/ of the base against multirun/<date>/<time>/<job>/ of the RL run', () => {
  test('each PPO job in math500/ compared with the base in math500/, the base at the top with nothing', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/outputs/2025-01-15/10-20-30/samples.jsonl': flat('TFFF TFFF'),
        'Qwen2.5-7B/outputs/2025-01-15/10-20-30/math500/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-PPO/multirun/2025-01-15/10-20-30/0/math500/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO/multirun/2025-01-15/10-20-30/1/math500/samples.jsonl': flat('TTTT TTTF TTTF'),
      }),
    );
    // before: both PPO jobs NOT COMPARED (no problem in common with the base's top folder), the base's math500
    // copy 'no base model'
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B/outputs/2025-01-15/10-20-30/math500:Qwen2.5-7B <- Qwen2.5-7B-PPO/multirun/2025-01-15/10-20-30/0/math500:Qwen2.5-7B-PPO',
      'Qwen2.5-7B/outputs/2025-01-15/10-20-30/math500:Qwen2.5-7B <- Qwen2.5-7B-PPO/multirun/2025-01-15/10-20-30/1/math500:Qwen2.5-7B-PPO',
    ]);
    assert.deepEqual(
      r.comparisons.map((c) => c.problems),
      [3, 3],
    );
  });
});
