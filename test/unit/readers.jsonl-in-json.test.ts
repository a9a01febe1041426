// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * A file of one JSON object per line saved as `.json` is read as JSONL (with an info naming it), whatever its
 * reader and with or without a trailing newline or a BOM; a pretty-printed single object is one document.
 *
 * Trial 12 leftover (moved from folder-links.test.ts). Each test builds its folder in a temporary directory and
 * reads it through the compiled CLI. Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../src/core/report/index';
import { cliReport, humanEval, qwen, writeFolder } from './helpers';

/** Diagnostics as `<severity> <file>: <message>`, sorted. */
const diags = (r: Report) => r.diagnostics.map((d) => `${d.severity} ${d.file}: ${d.message}`).sort();

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
