/**
 * Discovering the files of a folder: links back to a folder holding them are named and not followed, a linked
 * folder already read is read once, a link to a folder outside that does not hold it is followed.
 *
 * Trial 12 leftovers in the readers' messages: a link to a folder holding it (`loop -> ../..`) is named and
 * not followed, a linked folder already read is named and read once (the JSONL file saved as `.json` is in
 * readers.jsonl-in-json.test.ts, the best-of-k denominators in report-wording.test.ts). Each test
 * builds its folder in a temporary directory (the layouts of the trial's report) and reads it through the
 * compiled CLI or the file lister. Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listCandidateFiles } from '../../src/core/readers';
import type { Report } from '../../src/core/report/index';
import { cliReport, humanEval, writeFolder } from './helpers';

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
