/**
 * Formats nobody here wrote, read as a new user would (lm-evaluation-harness, verl, OpenRLHF, DeepSeek-style
 * JSONL with several samples per line): every sample is indexed or counted where the report and the overview
 * say what a model lost, and a file no reader takes names the worked mapping example that reads it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { knownToolOutput } from '../../src/core/readers/index';
import { buildReport, cappedCount, samplesCut } from '../../src/core/report/index';
import { indexed, writeFolder } from './helpers';

const line = (o: unknown) => JSON.stringify(o);

describe("samples cut off by lists of different lengths are counted in the model's warning", () => {
  test('mapping: 4 responses but 3 verdicts, and 2 bad responses: 3 samples skipped, not 2', async () => {
    const dir = writeFolder({
      'trace-inspector.mapping.json': line({
        files: ['**/*.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'id', question: 'problem', text: 'responses', correct: 'correctness' },
      }),
      'R1-Distill/aime24.jsonl': `${[
        line({ id: 'a', problem: 'p', responses: ['r0', 'r1', 'r2', 'r3'], correctness: [true, false, true] }),
        line({ id: 'b', problem: 'q', responses: ['r0', null, 7, 'r3'], correctness: [true, false, true, true] }),
        line({ id: 'c', problem: 's', responses: ['r0'], correctness: [true, false] }),
      ].join('\n')}\n`,
    });
    const index = await indexed(dir);
    try {
      assert.equal(index.models().length, 1);
      // a: 3 of 4 kept; b: 2 of 4 (null and 7 skipped); c: 1 (the extra verdict costs no sample)
      const n = index.db.prepare('SELECT count(*) FROM samples').pluck().get();
      assert.equal(n, 6);
      const w = buildReport(index).warnings.filter((x) => /skipped/.test(x));
      assert.equal(w.length, 1, w.join('\n'));
      assert.match(w[0], /: 3 samples skipped \(R1-Distill\/aime24\.jsonl:1, R1-Distill\/aime24\.jsonl:2, /);
    } finally {
      index.close();
    }
  });

  test('Qwen-math: code has 3 samples but score has 2: 1 sample skipped, named by file and line', async () => {
    const rec = (idx: number, code: string[], score: boolean[]) =>
      line({ idx, question: `q${idx}`, gt: '1', code, score, pred: code.map(() => '1') });
    const dir = writeFolder({
      'Qwen2.5-7B/math_eval/math500/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl': `${[
        rec(0, ['a', 'b'], [true, false]),
        rec(1, ['a', 'b', 'c'], [true, false]),
      ].join('\n')}\n`,
    });
    const index = await indexed(dir);
    try {
      const w = buildReport(index).warnings.filter((x) => /skipped/.test(x));
      assert.deepEqual(w.length, 1, w.join('\n'));
      assert.match(
        w[0],
        /^Qwen2\.5-7B: 1 sample skipped \(Qwen2\.5-7B\/math_eval\/math500\/test_qwen-boxed_-1_seed0_t0\.0_s0_e-1\.jsonl:2\): left out of every figure/,
      );
    } finally {
      index.close();
    }
  });

  test('samplesCut reads the cut from the warning, 0 when the text list is the shorter', () => {
    assert.equal(samplesCut('code has 3 samples but score has 2; keeping the first 2'), 1);
    assert.equal(samplesCut('$.resps[*][0] has 8 samples but correct has 5; keeping the first 5'), 3);
    assert.equal(samplesCut('responses has 1 sample but correctness has 2; keeping the first 1'), 0);
    assert.equal(samplesCut('sample 1: responses is not a string (got null); sample skipped'), undefined);
  });
});

describe("records skipped as a duplicate problem id are counted in the model's warning", () => {
  test('lm-eval gsm8k: one line per filter, 2 docs x 2 filters: 8 samples read, 2 records skipped and counted', async () => {
    const doc = (d: number, filter: string) =>
      line({
        doc_id: d,
        doc: { question: `q${d}` },
        target: String(d),
        resps: [0, 1, 2, 3].map((k) => [`The answer is ${d + k}`]),
        filtered_resps: [0, 1, 2, 3].map((k) => (filter === 'strict-match' ? '[invalid]' : String(d + k))),
        filter,
        exact_match: 0.25,
      });
    const dir = writeFolder({
      'Qwen__Qwen2.5-7B/trace-inspector.mapping.json': line({
        files: ['samples_gsm8k_*.jsonl'],
        records: 'per-problem',
        model: 'qwen',
        dataset: 'gsm8k',
        fields: {
          problemId: 'doc_id',
          question: 'doc.question',
          referenceAnswer: 'target',
          text: '$.resps[*][0]',
          extractedAnswer: 'filtered_resps',
        },
      }),
      'Qwen__Qwen2.5-7B/samples_gsm8k_2025-01-15T10-20-30.123456.jsonl': `${[
        doc(0, 'strict-match'),
        doc(0, 'flexible-extract'),
        doc(1, 'strict-match'),
        doc(1, 'flexible-extract'),
      ].join('\n')}\n`,
    });
    const index = await indexed(dir);
    try {
      const n = index.db.prepare('SELECT count(*) FROM samples').pluck().get();
      assert.equal(n, 8);
      const w = buildReport(index).warnings.filter((x) => /duplicate/.test(x));
      const f = 'Qwen__Qwen2.5-7B/samples_gsm8k_2025-01-15T10-20-30.123456.jsonl';
      assert.deepEqual(w, [
        `Qwen__Qwen2.5-7B:qwen: 2 records skipped as a duplicate problem id (${f}:2, ${f}:4): the first record of each id is read; each is listed with its reason in the Problems panel (CLI: the diagnostics)`,
      ]);
    } finally {
      index.close();
    }
  });
});

describe('the model warning counts the lines past the diagnostics cap (50 per file and kind)', () => {
  test('53 malformed lines, 55 duplicate ids, 52 cut lists: 53 records, 55 duplicates, at least 52 samples', async () => {
    const rec = (idx: number, code: string[]) =>
      line({ idx, question: `q${idx}`, gt: '1', code, score: [true, false], pred: code.map(() => '1') });
    const lines: string[] = [];
    for (let i = 0; i < 55; i++) lines.push(rec(i, ['a', 'b']), rec(i, ['a', 'b']));
    for (let i = 100; i < 152; i++) lines.push(rec(i, ['a', 'b', 'c']));
    for (let i = 0; i < 53; i++) lines.push('{"idx": 7, "question": ');
    const dir = writeFolder({
      'Qwen2.5-7B/math_eval/math500/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl': `${lines.join('\n')}\n`,
    });
    const index = await indexed(dir);
    try {
      assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get(), 55 * 2 + 52 * 2);
      const w = buildReport(index).warnings.filter((x) => /skipped/.test(x));
      assert.equal(w.length, 1, w.join('\n'));
      assert.match(w[0], /^Qwen2\.5-7B: 53 records could not be read \(/);
      assert.match(w[0], /; at least 52 samples skipped \(/);
      assert.match(w[0], /; 55 records skipped as a duplicate problem id \(/);
    } finally {
      index.close();
    }
  });

  test('cappedCount reads N and the shared message', () => {
    assert.deepEqual(cappedCount('and 12 more like this, the first at line 60: malformed JSON (x: y); line skipped'), {
      n: 12,
      message: 'malformed JSON (x: y); line skipped',
    });
    assert.deepEqual(cappedCount('malformed JSON; line skipped'), { n: 1, message: 'malformed JSON; line skipped' });
  });
});

describe('a file of a tool with a worked mapping example says which example reads it', () => {
  test('lm-eval, verl and OpenRLHF lines name their tool and docs/mapping.md; other keys do not', async () => {
    const dir = writeFolder({
      'Qwen__Qwen2.5-7B/samples_gsm8k_2025-01-15T10-20-30.123456.jsonl': `${line({
        doc_id: 0,
        doc: { question: 'q' },
        target: '1',
        resps: [['a']],
        filtered_resps: ['a'],
        filter: 'strict-match',
        exact_match: 1,
      })}\n`,
      'grpo/val_generations/100.jsonl': `${line({ input: 'p', output: 'o', gts: '1', score: 1, step: 100 })}\n`,
      'ppo/global_step10/rollouts.jsonl': `${line({ prompt: 'p', output: 'o', label: '1', reward: 1 })}\n`,
      'other/x.jsonl': `${line({ prompt: 'p', completion: 'o' })}\n`,
    });
    const index = await indexed(dir);
    try {
      const infos = index
        .diagnostics()
        .filter((d) => /not a results file/.test(d.message))
        .map((d) => `${d.file}: ${d.message.replace(/^.*\); /, '')}`);
      const how =
        'read it with a trace-inspector.mapping.json as in docs/mapping.md#worked-examples-lm-evaluation-harness-verl-openrlhf';
      assert.deepEqual(infos.sort(), [
        `Qwen__Qwen2.5-7B/samples_gsm8k_2025-01-15T10-20-30.123456.jsonl: it looks like lm-evaluation-harness --log_samples output: ${how}`,
        `grpo/val_generations/100.jsonl: it looks like verl's validation generations (trainer.validation_data_dir): ${how}`,
        'other/x.jsonl: describe the format in a trace-inspector.mapping.json',
        `ppo/global_step10/rollouts.jsonl: it looks like an OpenRLHF rollout dump: ${how}`,
      ]);
      assert.equal(knownToolOutput(['doc_id', 'resps']), undefined);
    } finally {
      index.close();
    }
  });
});
