// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Temperatures and Hydra folders: Qwen-math files of two temperatures in one folder, Hydra override folders as seeds,
 * a base guessed by name order, level lines.
 *
 * Trial 8 (a fresh user's folders): findings 2d, 3, 4 and 14 — Qwen-math files of two temperatures in one
 * folder dropped as re-runs, Hydra override folders (`seed=0,temperature=0.6`) whose seeds were each other's
 * base, a base guessed by name order without a word, and "(1 problems)". Each test builds the folder it needs
 * in a temporary directory and reads it through the compiled CLI (`report`, text and `--format json`) or a
 * real SQLite index. Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temperatureNeighbourChanges } from '../../src/core/index/discover';
import { indexFolder } from '../../src/core/index/indexer';
import { guessBaseModel } from '../../src/core/index/labels';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { qwenModelAndDataset } from '../../src/core/readers/qwenMath';
import { pathModelName } from '../../src/core/readers/util';
import type { Report } from '../../src/core/report/index';
import { stripSeedTokens } from '../../src/core/grouping/seeds';
import { overviewData } from '../../src/extension/panelData';
import { cli, humanEval, indexed, qwen, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t8-');

const pairs = (r: Report) => r.comparisons.map((c) => `${c.base} <- ${c.model}`);

// Trial 8 finding 2d.
describe('Qwen-math files of two temperatures in one folder are two samplings, not re-runs', () => {
  const file = (m: string, d: string, t: string) => `${m}/math_eval/${d}/test_qwen-boxed_-1_seed0_t${t}_s0_e-1.jsonl`;
  // 3 problems x 4 samples per file; base 1 correct per problem at t0.0, 2 at t0.6; GRPO 3 at t0.0, 4 at t0.6
  const files = {
    [file('Qwen2.5-7B', 'math500', '0.0')]: qwen('TFFF TFFF TFFF'),
    [file('Qwen2.5-7B', 'math500', '0.6')]: qwen('TTFF TTFF TTFF'),
    [file('Qwen2.5-7B-GRPO', 'math500', '0.0')]: qwen('TTTF TTTF TTTF'),
    [file('Qwen2.5-7B-GRPO', 'math500', '0.6')]: qwen('TTTT TTTT TTTT'),
  };

  test('the model name ends with the temperature only when a sibling file differs by it', () => {
    const rel = file('Qwen2.5-7B', 'math500', '0.6');
    const names = ['test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl', 'test_qwen-boxed_-1_seed0_t0.6_s0_e-1.jsonl'];
    assert.equal(qwenModelAndDataset(rel, '/r', names).model.name, 'Qwen2.5-7B_t0.6');
    assert.equal(qwenModelAndDataset(file('Qwen2.5-7B', 'math500', '0.0'), '/r', names).model.name, 'Qwen2.5-7B_t0.0');
    // alone at its temperature (or beside its own metrics file): the plain name
    assert.equal(qwenModelAndDataset(rel, '/r', [names[1]]).model.name, 'Qwen2.5-7B');
    assert.equal(
      qwenModelAndDataset(rel, '/r', [names[1], 'test_qwen-boxed_-1_seed0_t0.6_s0_e-1_metrics.json']).model.name,
      'Qwen2.5-7B',
    );
  });

  test('report: every sample indexed (48), no "re-run or a copy" warning, each model against the base at its temperature', () => {
    const { r, text } = cli(folder(files));
    assert.deepEqual(
      r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`),
      ['Qwen2.5-7B_t0.0 12/3', 'Qwen2.5-7B_t0.6 12/6', 'Qwen2.5-7B-GRPO_t0.0 12/9', 'Qwen2.5-7B-GRPO_t0.6 12/12'],
    );
    assert.equal(
      r.models.reduce((a, m) => a + m.samples, 0),
      48,
    );
    assert.ok(!r.warnings.some((w) => /re-run or a copy|duplicate problem id/.test(w)), r.warnings.join('\n'));
    assert.deepEqual(pairs(r), ['Qwen2.5-7B_t0.0 <- Qwen2.5-7B-GRPO_t0.0', 'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-GRPO_t0.6']);
    assert.doesNotMatch(text, /re-run or a copy/);
  });
});

// Trial 8 finding 2d, incremental.
describe('a file gets its temperature in its name when a sibling at another one comes', () => {
  const file = (t: string) => `Qwen2.5-7B/math_eval/math500/test_qwen-boxed_-1_seed0_t${t}_s0_e-1.jsonl`;

  test('temperatureNeighbourChanges: the group of a file added or removed beside another temperature', () => {
    assert.deepEqual([...temperatureNeighbourChanges([file('0.0')], [file('0.0'), file('0.6')])].sort(), [
      file('0.0'),
      file('0.6'),
    ]);
    assert.deepEqual([...temperatureNeighbourChanges([file('0.0'), file('0.6')], [file('0.0')])], [file('0.0')]);
    assert.deepEqual([...temperatureNeighbourChanges([file('0.0'), file('0.6')], [file('0.0'), file('0.6')])], []);
    // another folder or stem is another group
    assert.deepEqual(
      [...temperatureNeighbourChanges([file('0.0')], [file('0.0'), `x/${file('0.6')}`])],
      [`x/${file('0.6')}`],
    );
  });

  test('index t0.0, add t0.6, index again: Qwen2.5-7B_t0.0 and _t0.6; remove t0.6: Qwen2.5-7B again', async () => {
    const dir = folder({ [file('0.0')]: qwen('TFFF TFFF') });
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['Qwen2.5-7B'],
    );
    writeFileSync(join(dir, file('0.6')), qwen('TTFF TTFF'));
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(
      index
        .models()
        .map((m) => m.name)
        .sort(),
      ['Qwen2.5-7B_t0.0', 'Qwen2.5-7B_t0.6'],
    );
    rmSync(join(dir, file('0.6')));
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['Qwen2.5-7B'],
    );
    index.close();
  });
});

// Trial 8 finding 3.
describe('Hydra override folders seed=N,temperature=T are seeds of one model', () => {
  test('the seed before a comma is a seed token; a seed-and-sampling override folder names no model', () => {
    assert.equal(stripSeedTokens('seed=0,temperature=0.6'), ',temperature=0.6');
    assert.equal(stripSeedTokens('temperature=0.6,seed=1'), 'temperature=0.6');
    assert.equal(pathModelName('Qwen2.5-7B/seed=0,temperature=0.6/samples.jsonl', 'samples'), 'Qwen2.5-7B');
    // an override that names a model keeps it
    assert.equal(pathModelName('runs/model=qwen,seed=0/samples.jsonl', 'samples'), 'model=qwen');
  });

  test('report: seed=1 is never compared with seed=0; both flagged as seed siblings', () => {
    const { r } = cli(
      folder({
        'Qwen2.5-7B/seed=0,temperature=0.6/samples.jsonl_results.jsonl': humanEval('TFFF TFFF'),
        'Qwen2.5-7B/seed=1,temperature=0.6/samples.jsonl_results.jsonl': humanEval('FTFF FTFF'),
        'Qwen2.5-7B-GRPO/seed=0,temperature=0.6/samples.jsonl_results.jsonl': humanEval('TTTF TTTF'),
        'Qwen2.5-7B-GRPO/seed=1,temperature=0.6/samples.jsonl_results.jsonl': humanEval('TTFT TTFT'),
      }),
    );
    assert.equal(r.base, 'Qwen2.5-7B/seed=0,temperature=0.6:Qwen2.5-7B');
    assert.deepEqual(
      r.comparisons.map((c) => c.model),
      [
        'Qwen2.5-7B-GRPO/seed=0,temperature=0.6:Qwen2.5-7B-GRPO',
        'Qwen2.5-7B-GRPO/seed=1,temperature=0.6:Qwen2.5-7B-GRPO',
      ],
    );
    // the base's seed=1 is pooled into the base seed=0 of both comparisons (trial 12 finding 10; was NOT COMPARED)
    assert.deepEqual(r.notCompared, []);
    assert.equal(r.warnings.filter((w) => /the base is the pool of its 2 replicates/.test(w)).length, 1);
    assert.equal(r.warnings.filter((w) => /differ only by a seed-like part/.test(w)).length, 2);
  });
});

// Trial 8 finding 4.
describe('a base guessed by name order only says so', () => {
  const names = {
    'DeepSeek-R1-Distill-Qwen-7B/samples.jsonl_results.jsonl': humanEval('TTTF TTTF'),
    'Open-Reasoner-Zero-7B/samples.jsonl_results.jsonl': humanEval('TTTF TTTF'),
    'Qwen2.5-Math-7B/samples.jsonl_results.jsonl': humanEval('TFFF TFFF'),
    'Qwen2.5-Math-7B-Instruct/samples.jsonl_results.jsonl': humanEval('TTFF TTFF'),
  };
  // the CLI names its flag, the overview the command only (trial 10 finding 10a)
  const note = (base: string, against: string, tied: string, choose = '--base (Choose Base Model)') =>
    `the base is a guess from the names with nothing to go on: no model is named as a base (base, sft, ref, init, pretrained), and ${base} is taken as the base of ${against} only because it is listed first (by run folder and name) beside ${tied}, whose names are as base-like; choose the base with ${choose}`;

  test('report JSON warnings and text name the guess, the tie and how to choose', () => {
    const { r, text } = cli(folder(names));
    assert.equal(r.base, 'DeepSeek-R1-Distill-Qwen-7B:DeepSeek-R1-Distill-Qwen-7B');
    const expected = note(
      'DeepSeek-R1-Distill-Qwen-7B:DeepSeek-R1-Distill-Qwen-7B',
      'Open-Reasoner-Zero-7B:Open-Reasoner-Zero-7B, Qwen2.5-Math-7B:Qwen2.5-Math-7B, Qwen2.5-Math-7B-Instruct:Qwen2.5-Math-7B-Instruct',
      'Qwen2.5-Math-7B:Qwen2.5-Math-7B',
    );
    assert.ok(r.warnings.includes(expected), r.warnings.join('\n'));
    assert.ok(text.includes(`warning: ${expected}`), text);
  });

  test('no note with --base, nor when a name gives the base (Qwen2.5-7B beside -zero, -Instruct, -SimpleRL-Zoo)', () => {
    const chosen = cli(folder(names), ['--base', 'Qwen2.5-Math-7B']).r;
    assert.ok(!chosen.warnings.some((w) => w.startsWith('the base is a guess')), chosen.warnings.join('\n'));
    const { r } = cli(
      folder({
        'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TFFF TFFF'),
        'Qwen2.5-7B-zero/samples.jsonl_results.jsonl': humanEval('TTFF TTFF'),
        'Qwen2.5-7B-Instruct/samples.jsonl_results.jsonl': humanEval('TTFF TTFF'),
        'Qwen2.5-7B-SimpleRL-Zoo/samples.jsonl_results.jsonl': humanEval('TTTF TTTF'),
      }),
    );
    assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
    assert.ok(!r.warnings.some((w) => w.startsWith('the base is a guess')), r.warnings.join('\n'));
  });

  test('the overview says it too, by label', async () => {
    const index = await indexed(folder(names));
    const ms = index.models();
    const base = ms[guessBaseModel(ms)];
    assert.equal(base.label, 'DeepSeek-R1-Distill-Qwen-7B');
    const o = overviewData(index, { baseId: base.id }, 100);
    // by the short names the tree gives the models (trial 13 finding 8)
    assert.ok(
      o.warnings.includes(
        // DeepSeek-R1-Distill-Qwen-7B whole: its family is no other model's (it read `Qwen-7B`, naming another family)
        note(
          'DeepSeek-R1-Distill-Qwen-7B',
          'Zero-7B, Qwen2.5-Math-7B, Instruct',
          'Qwen2.5-Math-7B',
          'the command Trace Inspector: Choose Base Model',
        ),
      ),
      o.warnings.join('\n'),
    );
    assert.ok(
      !overviewData(index, { baseId: base.id, baseIsChoice: true }, 100).warnings.some((w) =>
        w.startsWith('the base is a guess'),
      ),
    );
    index.close();
  });
});

// Trial 8 finding 14.
describe('level lines say "1 problem"', () => {
  test('a level with one problem: "(1 problem)"', () => {
    const { text } = cli(folder({ 'm/math_eval/math500/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl': qwen('TF FF') }));
    assert.match(text, /\n {2}m level 1 \(1 problem\): @1 50\.0/);
    assert.match(text, /\n {2}m level 2 \(1 problem\): @1 0\.0/);
    assert.doesNotMatch(text, /\(1 problems\)/);
  });
});
