/**
 * Discovering the files of a folder: links back to a folder holding them, linked folders read once; a JSONL file
 * saved as .json; the denominators of best-of-k and the reward-model table.
 *
 * Trial 12 leftovers in the readers' messages: a link to a folder holding it (`loop -> ../..`) is named and
 * not followed, a linked folder already read is named and read once; a JSONL file saved as `.json`. Each test
 * builds its folder in a temporary directory (the layouts of the trial's report) and reads it through the
 * compiled CLI or the file lister. Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listCandidateFiles } from '../../src/core/readers';
import type { Report } from '../../src/core/report';
import { cli, cliReport, humanEval, qwen, writeFolder } from './helpers';

/** Diagnostics as `<severity> <file>: <message>`, sorted. */
const diags = (r: Report) => r.diagnostics.map((d) => `${d.severity} ${d.file}: ${d.message}`).sort();
type Unreachable = { file: string; reason: string; resultsLike: boolean };

// Trial 12 finding 7 (related).
describe('a link back to a folder holding it is named, every file is read once', () => {
  test('trial layout: files/Qwen2.5-7B/loop -> ../.. (out of the results folder) is not followed and is named', () => {
    // data/ holds the results folder files/ and a sibling folder the user did not point at
    const data = writeFolder({
      'files/Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'files/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT FT'),
      'other/Llama-3.1-8B/samples.jsonl_results.jsonl': humanEval('TT TT TT'),
    });
    symlinkSync('../..', join(data, 'files/Qwen2.5-7B/loop'));
    const r = cliReport(join(data, 'files'));
    assert.deepEqual(r.models.map((m) => m.label).sort(), ['Qwen2.5-7B', 'Qwen2.5-7B-GRPO']);
    // 4 samples each, once (not again through loop/files/...)
    assert.deepEqual(
      r.models.map((m) => m.samples),
      [4, 4],
    );
    assert.deepEqual(
      diags(r).filter((d) => d.includes('link')),
      [
        'warning Qwen2.5-7B/loop: symbolic link loop -> ../.. (a folder above the results folder, which holds it): not followed, its files are read once',
      ],
    );
  });

  test('siblings: a link to the results folder, a link to its own folder, a link to a folder already read', async () => {
    const dir = writeFolder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'runs/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT FT'),
    });
    symlinkSync('..', join(dir, 'Qwen2.5-7B/up'));
    symlinkSync('.', join(dir, 'runs/Qwen2.5-7B-GRPO/self'));
    // sorts before the folder it links to: still the link is the one not read
    symlinkSync('runs/Qwen2.5-7B-GRPO', join(dir, 'A-latest'));
    mkdirSync(join(dir, 'empty'));
    const unreachable: Unreachable[] = [];
    const files = await listCandidateFiles(dir, { unreachable });
    assert.deepEqual(files, [
      'Qwen2.5-7B/samples.jsonl_results.jsonl',
      'runs/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl',
    ]);
    assert.deepEqual(unreachable, [
      {
        file: 'Qwen2.5-7B/up',
        reason: 'symbolic link loop -> .. (the results folder, which holds it): not followed, its files are read once',
        resultsLike: false,
      },
      {
        file: 'runs/Qwen2.5-7B-GRPO/self',
        reason:
          'symbolic link loop -> . (runs/Qwen2.5-7B-GRPO, a folder that holds it): not followed, its files are read once',
        resultsLike: false,
      },
      {
        file: 'A-latest',
        reason: 'symbolic link to a folder already read as runs/Qwen2.5-7B-GRPO: not read twice',
        resultsLike: false,
      },
    ]);
    const r = cliReport(dir);
    assert.deepEqual(r.models.map((m) => [m.label, m.samples]).sort(), [
      ['Qwen2.5-7B', 4],
      ['Qwen2.5-7B-GRPO', 4],
    ]);
    assert.equal(diags(r).filter((d) => d.includes('link')).length, 3);
  });

  test('a link to a folder outside the results folder that does not hold it is still followed (shared data)', async () => {
    const data = writeFolder({
      'files/Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'scratch/grpo/samples.jsonl_results.jsonl': humanEval('TT FT'),
    });
    symlinkSync('../scratch/grpo', join(data, 'files/Qwen2.5-7B-GRPO'));
    const unreachable: Unreachable[] = [];
    const files = await listCandidateFiles(join(data, 'files'), { unreachable });
    assert.deepEqual(files, ['Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl', 'Qwen2.5-7B/samples.jsonl_results.jsonl']);
    assert.deepEqual(unreachable, []);
  });
});

describe('a JSONL file saved as .json is read as JSONL, not "too large to look inside"', () => {
  test('human-eval samples one per line in samples.json (with a trailing newline): read, with an info naming it', () => {
    const dir = writeFolder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/samples.json': `${humanEval('TT FT')}\n`,
    });
    const r = cliReport(dir);
    assert.deepEqual(r.models.map((m) => [m.label, m.samples]).sort(), [
      ['Qwen2.5-7B', 4],
      ['Qwen2.5-7B-GRPO', 4],
    ]);
    assert.deepEqual(
      diags(r).filter((d) => d.includes('samples.json:')),
      [
        'info Qwen2.5-7B-GRPO/samples.json: one JSON object per line (JSONL) in a .json file: read as JSONL (flat); renaming it samples.jsonl says so',
      ],
    );
    assert.ok(!diags(r).some((d) => d.includes('too large')));
  });

  test('siblings: Qwen-math records in test.json without a trailing newline, and with a BOM', () => {
    const dir = writeFolder({
      'Qwen2.5-7B/test.json': qwen('TF FF TT'),
      'Qwen2.5-7B-GRPO/test.json': `\uFEFF${qwen('TT TT FT')}\n`,
    });
    const r = cliReport(dir);
    assert.deepEqual(r.models.map((m) => [m.label, m.samples]).sort(), [
      ['Qwen2.5-7B', 6],
      ['Qwen2.5-7B-GRPO', 6],
    ]);
    assert.equal(diags(r).filter((d) => d.includes('read as JSONL (qwen-math)')).length, 2);
  });

  test('a pretty-printed single object is not JSONL: no JSONL info; it is read as one document (as in readers.mixed-folders)', () => {
    const one = { task_id: 'HumanEval/0', completion: 'x', passed: true };
    const dir = writeFolder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': `${JSON.stringify(one)}\n`,
      'M2/config.json': `${JSON.stringify({ lr: 1, model: 'q' }, null, 2)}\n`,
      'M2/samples.json': `${JSON.stringify(one, null, 2)}\n`,
    });
    const r = cliReport(dir);
    assert.ok(!diags(r).some((d) => d.includes('JSONL')));
    assert.deepEqual(r.models.map((m) => [m.label, m.samples]).sort(), [
      ['M2', 1],
      ['Qwen2.5-7B', 1],
    ]);
    assert.deepEqual(
      diags(r).filter((d) => d.includes('config.json')),
      [
        'info M2/config.json: not a results file: no reader recognises the first element (keys: lr, model); describe the format in a trace-inspector.mapping.json',
      ],
    );
  });
});

// Trial 12 finding 20.
describe('the best-of-k line and the reward-model table say their denominators', () => {
  test('a problem scored on some samples only: the best-of-k line says it counts with those, the table drops it', () => {
    const line = (idx: number, score: boolean[], ps: (number[] | null)[]) =>
      JSON.stringify({
        idx,
        gt: '2',
        code: score.map((_, i) => `t${idx}.${i}`),
        score,
        pred: score.map(() => '2'),
        pred_score: ps,
      });
    const dir = writeFolder({
      'Qwen2.5-Math-7B/math500/test.jsonl': [
        line(0, [true, true, false, true], [[0.9], [0.9], [0.3], [0.2]]),
        line(1, [false, true, true, false], [[0.5], [0.6], null, [0.1]]),
        line(2, [false, false], [[0.2], [0.3]]),
        line(3, [false, true, false, false], [[0.4], [0.1], [0.2], [0.3]]),
      ].join('\n'),
    });
    const { text } = cli(dir);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('best-of-k (reward-model selection'));
    assert.ok(at >= 0, text);
    assert.equal(
      lines[at + 2],
      "  (over each problem's graded samples that have a reward score, a problem scored on some samples only counting with those; the reward-model table below drops such a problem, its best-of-N is over the problems every scorer scored completely, so the two can differ at one k)",
    );
    assert.ok(
      lines.some((l) => l.startsWith('reward models on the samples of')),
      text,
    );
  });
});
