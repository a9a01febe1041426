/**
 * The last silent drops (issue 32): each input below used to lose records, samples or scores without the
 * diagnostics counting them. Every test states the figures the report and the diagnostics must give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { classifyUnreadable } from '../../src/core/report';
import { indexed, qwen, rolloutLine, textsById, writeFolder } from './helpers';

/** `file:line:severity:message` of every diagnostic of an index. */
const diagLines = (index: TraceIndex): string[] =>
  index.diagnostics().map((d) => `${d.file}:${d.line}:${d.severity}:${d.message}`);

/** Sample texts of an index, sorted (read back from the files through each sample's span). */
async function texts(index: TraceIndex): Promise<string[]> {
  return [...(await textsById(index)).values()].sort();
}

describe('several JSON records on one line', () => {
  const flat = (i: number) =>
    JSON.stringify({ task_id: `HumanEval/${i}`, completion: `    return ${i}`, passed: i % 2 === 0 });

  test('flat: every record of a line is read, with its own span; a broken one is counted (1 of the 8, not 2 lines)', async () => {
    const dir = writeFolder({
      'samples.jsonl_results.jsonl': `${[
        flat(0),
        flat(1) + flat(2) + flat(3),
        `${flat(4)} ${flat(5)}{"task_id": "HumanEval/6", "completion": }`,
        flat(7),
      ].join('\n')}\n`,
    });
    const index = await indexed(dir);
    try {
      assert.deepEqual(
        await texts(index),
        [0, 1, 2, 3, 4, 5, 7].map((i) => `    return ${i}`),
      );
      assert.deepEqual(diagLines(index), [
        'samples.jsonl_results.jsonl:2:warning:3 JSON records on one line, with no newline between them: each read as a record of its own',
        'samples.jsonl_results.jsonl:3:warning:3 JSON records on one line, with no newline between them: each read as a record of its own',
        `samples.jsonl_results.jsonl:3:error:record 3 of 3 on this line: malformed JSON (Unexpected token '}', ..."pletion": }" is not valid JSON); skipped`,
      ]);
      const model = index.models()[0];
      const c = classifyUnreadable(index.unreadableRecords(model.id));
      assert.equal(c.unread.length, 1, 'one record lost, counted once');
      // pass@1 over the 7 records read: HumanEval/0, 2, 4 pass
      const stats = index.db.prepare('SELECT sum(c) AS c, sum(graded) AS g FROM stats').get() as {
        c: number;
        g: number;
      };
      assert.deepEqual({ ...stats }, { c: 3, g: 7 });
    } finally {
      index.close();
    }
  });

  test('rollouts, Qwen-math and a mapping file: three records on one line are three problems', async () => {
    const qwenLines = qwen('TF FT TT').split('\n');
    const dir = writeFolder({
      'rl/rollouts.jsonl': `${rolloutLine(0, 'm', [true, false])}${rolloutLine(1, 'm', [true])}  ${rolloutLine(2, 'm', [false])}\n`,
      'qwen/gsm8k/test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl': `${qwenLines.join('')}\n`,
      'map/trace-inspector.mapping.json':
        '{"files": ["*.jsonl"], "records": "per-sample", "fields": {"problemId": "id", "text": "t", "correct": "ok"}}',
      'map/out.jsonl':
        '{"id": 1, "t": "a", "ok": true}{"id": 2, "t": "b", "ok": false}{"id": 3, "t": "c", "ok": true}\n',
    });
    const index = await indexed(dir);
    try {
      const perFile = index.db
        .prepare(
          'SELECT f.path, count(DISTINCT s.problem_id) AS problems, count(*) AS samples FROM samples s JOIN files f ON f.id = s.file_id GROUP BY f.path ORDER BY f.path',
        )
        .all()
        .map((r) => ({ ...(r as object) }));
      assert.deepEqual(perFile, [
        { path: 'map/out.jsonl', problems: 3, samples: 3 },
        { path: 'qwen/gsm8k/test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl', problems: 3, samples: 6 },
        { path: 'rl/rollouts.jsonl', problems: 3, samples: 4 },
      ]);
      assert.equal(diagLines(index).filter((d) => /:error:/.test(d)).length, 0);
      assert.equal((await texts(index)).length, 13, 'every text is read back from its record alone');
    } finally {
      index.close();
    }
  });

  test('a line with invalid UTF-8 before its second record: the spans are the bytes in the file', async () => {
    const dir = writeFolder({});
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(
      join(dir, 'samples.jsonl_results.jsonl'),
      Buffer.concat([
        Buffer.from('{"task_id": "HumanEval/0", "completion": "a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`", "passed": true}${flat(1)}\n`),
      ]),
    );
    const index = TraceIndex.open(':memory:');
    try {
      await indexFolder(index, dir, { fts: false });
      assert.deepEqual(await texts(index), ['    return 1', 'a\uFFFD\uFFFD']);
    } finally {
      index.close();
    }
  });
});
