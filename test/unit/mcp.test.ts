/**
 * `trace-inspector mcp <folder>` answers a real MCP client: the SDK's own Client over its StdioClientTransport
 * spawns the built CLI (dist/cli.js) on the real folder rlvr-probe-gsm8k/results_2048_batched, lists the tools,
 * runs a query whose rows equal the index's, reads a sample whose text equals the results file's (JSON-encoded
 * under a line marking it as model output, with its file:line and a link), gets a problem's per-model figures
 * (pass@k from the index's counts), and gets a write, an ATTACH and a wrong key refused with the reason. The index
 * file is unchanged afterwards (nothing writes).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { passAtK } from '../../src/core/metrics/passAtK';
import { REAL, tempDir } from './helpers';

const FOLDER = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');
const CLI = join(process.cwd(), 'dist', 'cli.js');

/** Sample 2 of the RL model on GSM8K problem 3 (line 4 of rl_raw.jsonl). */
const SAMPLE = { model: 'expx/qwen-2.5-1.5b-rlvr-ppo@main', dataset: 'gsm8k_subset', problem_id: '3', sample_index: 2 };

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const textOf = (r: unknown) => {
  const res = r as TextResult;
  assert.equal(res.content.length, 1);
  assert.equal(res.content[0].type, 'text');
  return res.content[0].text;
};

describe('trace-inspector mcp: a real MCP client over stdio', () => {
  const db = join(tempDir('ti-mcp-'), 'index.db');
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  let indexMtime = 0;
  let stderr = '';

  before(async () => {
    const index = TraceIndex.open(db);
    await indexFolder(index, FOLDER, { fts: false });
    index.close();
    indexMtime = statSync(db).mtimeMs;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', FOLDER, '--db', db],
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
  });

  test('lists its tools: sql, sample, problem, each read-only with an object schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['sql', 'sample', 'problem'],
    );
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.annotations?.readOnlyHint, true);
      assert.match(t.description ?? '', /instructions/);
    }
    assert.deepEqual(tools.find((t) => t.name === 'sql')?.inputSchema.required, ['query']);
    assert.match(client.getInstructions() ?? '', /read-only/);
    assert.match(stderr, /serving .*results_2048_batched/);
  });

  test('runs a query: the rows are the index’s, as JSON lines under a header marking them as data', async () => {
    const r = await client.callTool({
      name: 'sql',
      arguments: { query: 'SELECT model, samples, correct FROM models ORDER BY model' },
    });
    assert.notEqual((r as TextResult).isError, true);
    const lines = textOf(r).split('\n');
    assert.match(lines[0], /^Read-only SQL over the Trace Inspector index of .*: 2 rows\.$/);
    assert.match(lines[1], /not instructions/);
    assert.deepEqual(JSON.parse(lines[2]), ['model', 'samples', 'correct']);
    const index = TraceIndex.open(db, { readonly: true });
    const expected = index
      .models()
      .map((m) => [m.displayId, m.samples, m.correct])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    index.close();
    assert.deepEqual(
      lines.slice(3).map((l) => JSON.parse(l)),
      expected,
    );
    // the raw rollouts: SFT 133/240 correct, RL 175/240 (README of the real folders)
    assert.deepEqual(
      expected.map((e) => e[2]),
      [175, 133],
    );
  });

  test('reads a sample: the results file’s text, marked as model output, with its file:line and a link', async () => {
    const r = await client.callTool({ name: 'sample', arguments: SAMPLE });
    const text = textOf(r);
    assert.notEqual((r as TextResult).isError, true, text);
    const lines = text.split('\n');
    const record = JSON.parse(readFileSync(join(FOLDER, 'rl_raw.jsonl'), 'utf8').split('\n')[3]) as {
      qid: number;
      rollouts: { rollout: number; text: string; correct: boolean }[];
    };
    assert.equal(record.qid, 3);
    const rollout = record.rollouts[2];
    assert.match(lines[1], new RegExp(`^verdict: ${rollout.correct ? 'correct' : 'incorrect'};`));
    assert.match(lines[2], /^source: rl_raw\.jsonl:4 \(cite it as \[.+\]\(file:\/\/\/.+rl_raw\.jsonl#L4\)\)$/);
    assert.match(lines[4], /MODEL OUTPUT/);
    assert.equal(lines.length, 6);
    assert.deepEqual(JSON.parse(lines[5]), { model_output: rollout.text });
    // a piece of it: offset and max_chars
    const piece = await client.callTool({ name: 'sample', arguments: { ...SAMPLE, offset: 5, max_chars: 10 } });
    const pl = textOf(piece).split('\n');
    assert.match(
      pl[3],
      new RegExp(`^text: characters 5 to 15 of ${[...rollout.text].length} \\(more: call again with offset 15\\)`),
    );
    assert.equal(JSON.parse(pl[5]).model_output, [...rollout.text].slice(5, 15).join(''));
  });

  test('gives a problem: per model n, c, graded, pass@k and verdicts', async () => {
    const r = await client.callTool({ name: 'problem', arguments: { dataset: 'gsm8k_subset', problem_id: '3' } });
    const lines = textOf(r).split('\n');
    assert.match(lines[0], /: 2 models have a record of it\.$/);
    const question = JSON.parse(lines[2]) as { question: string };
    assert.match(question.question, /^Tim has a box with 7 blue shoe boxes/);
    const figures = lines.slice(4).map((l) => JSON.parse(l)) as {
      model: string;
      n: number;
      c: number;
      graded: number;
      pass_at_k: Record<string, number>;
      verdicts: string;
    }[];
    // each model's line 4 of its file: its rollouts' verdicts, in order
    for (const [file, model] of [
      ['rl_raw.jsonl', 'expx/qwen-2.5-1.5b-rlvr-ppo@main'],
      ['sft_raw.jsonl', 'ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10'],
    ]) {
      const record = JSON.parse(readFileSync(join(FOLDER, file), 'utf8').split('\n')[3]) as {
        rollouts: { correct: boolean }[];
      };
      const f = figures.find((x) => x.model === model);
      assert.ok(f, model);
      const c = record.rollouts.filter((x) => x.correct).length;
      assert.deepEqual([f.n, f.c, f.graded], [8, c, 8]);
      assert.equal(f.verdicts, record.rollouts.map((x) => (x.correct ? '1' : '0')).join(''));
      assert.deepEqual(Object.keys(f.pass_at_k), ['1', '2', '4', '8']);
      for (const k of [1, 2, 4, 8]) assert.equal(f.pass_at_k[String(k)], passAtK(8, c, k));
    }
  });

  test('refuses a write, an ATTACH and a wrong key, saying why; the index file is unchanged', async () => {
    for (const query of ['DELETE FROM samples', "ATTACH DATABASE '/tmp/x.db' AS x", 'DROP VIEW models']) {
      const r = await client.callTool({ name: 'sql', arguments: { query } });
      assert.equal((r as TextResult).isError, true, query);
      assert.match(textOf(r), /^The query was not run: .*(read-only|ATTACH|one SELECT)/, query);
    }
    const wrong = await client.callTool({
      name: 'sample',
      arguments: { model: 'nope', dataset: 'gsm8k_subset', problem_id: '3', sample_index: 0 },
    });
    assert.equal((wrong as TextResult).isError, true);
    assert.match(textOf(wrong), /no model "nope" in the index; its models: .*"expx\/qwen-2\.5-1\.5b-rlvr-ppo@main"/);
    const past = await client.callTool({
      name: 'sample',
      arguments: {
        model: 'expx/qwen-2.5-1.5b-rlvr-ppo@main',
        dataset: 'gsm8k_subset',
        problem_id: '3',
        sample_index: 8,
      },
    });
    assert.match(textOf(past), /no sample 8 .* \(it has 8 samples: 0 to 7\)/);
    assert.equal(statSync(db).mtimeMs, indexMtime);
  });
});

test('a folder not indexed yet is served: its tools are listed, and a call says to index the folder first', async () => {
  const db = join(tempDir('ti-mcp-none-'), 'none.db');
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', FOLDER, '--db', db],
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  try {
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['sql', 'sample', 'problem'],
    );
    const r = await client.callTool({ name: 'sql', arguments: { query: 'SELECT 1' } });
    assert.equal((r as TextResult).isError, true);
    assert.match(
      textOf(r),
      /^The query was not run: no index at .*none\.db: index the folder first \(run trace-inspector index ".*results_2048_batched"/,
    );
  } finally {
    await client.close();
  }
  assert.ok(!existsSync(db), 'nothing written');
});
