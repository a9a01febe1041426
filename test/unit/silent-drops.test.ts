/**
 * The last silent drops (issue 32): each input below used to lose records, samples or scores without the
 * diagnostics counting them. Every test states the figures the report and the diagnostics must give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { parseStepsJson, stepsJson } from '../../src/core/index/traceIndex';
import { inspectScore } from '../../src/core/readers/inspectScorer';
import { readScore } from '../../src/core/readers/mapping';
import { scoreNumber } from '../../src/core/readers/util';
import { type Report, classifyUnreadable } from '../../src/core/report/index';
import { rankingStripSpec } from '../../src/shared/chartSpecs';
import { type ProblemRankingData, wireScore } from '../../src/shared/protocol';
import { cli, indexed, qwen, rolloutLine, textsById, writeFolder } from './helpers';
import { buildZip, inspectHeader } from './reliability.support';

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

describe('-Infinity and Infinity reward scores are the lowest and highest scores, NaN is missing', () => {
  test('best-of-k: a -Infinity sample loses every comparison and stays in the pool (literal, "-inf", -1e999)', async () => {
    const dir = writeFolder({
      // problem 0: a correct sample at -Infinity (Python's literal), an incorrect one at 0.2, one at NaN (no score)
      // problem 1: correct at "-inf", incorrect at -1e999 (a double's -Infinity), correct at 1
      'qwen/gsm8k/test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl': [
        '{"idx": 0, "gt": "1", "code": ["a", "b", "c"], "pred": ["1", "2", "2"], "score": [true, false, false], "pred_score": [[-Infinity], [0.2], [NaN]]}',
        '{"idx": 1, "gt": "1", "code": ["d", "e", "f"], "pred": ["1", "2", "1"], "score": [true, false, true], "pred_score": [["-inf"], [-1e999], [1.0]]}',
      ].join('\n'),
    });
    const { r } = cli(dir, [], { text: false });
    const m = r.models[0];
    // problem 0: best-of-1 = 1/2 (two scored samples), best-of-2 = 0 (0.2 beats -Infinity)
    // problem 1: best-of-1 = 2/3; best-of-2 = 2/3 (1.0 first) + 1/3 x 1/2 (the two -Infinity tie) = 5/6; best-of-3 = 1
    assert.deepEqual(
      m.bestOfK.map((p) => [p.k, Number(p.value?.toFixed(6)), p.problems, p.missing]),
      [
        [1, Number(((1 / 2 + 2 / 3) / 2).toFixed(6)), 2, 0],
        [2, Number(((0 + 5 / 6) / 2).toFixed(6)), 2, 0],
        [3, 1, 1, 1],
      ],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => `${d.line}:${d.severity}:${d.message}`),
      [
        '1:warning:1 non-standard number (NaN) read as missing value (a missing verdict leaves its sample ungraded: in no figure; a missing reward score leaves it out of best-of-k); 1 non-standard number (Infinity, -Infinity) read as number (a reward score of -Infinity is the lowest score, Infinity the highest; neither is a verdict)',
      ],
    );
  });

  test('reward models: -Infinity scores tie with each other, lose to every finite score, and keep the problem in the common set', async () => {
    const dir = writeFolder({
      'rm/trace-inspector.mapping.json': JSON.stringify({
        files: ['*.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'id', text: 't', correct: 'ok' },
        scores: [
          { path: '$.A', scorer: 'A' },
          { path: '$.B', scorer: 'B' },
        ],
      }),
      // samples a (correct), b, c; scorer A: -Infinity (literal), "-inf", 0.1; scorer B: 0.9, "-Infinity", "-INF"
      'rm/out.jsonl':
        '{"id": 0, "t": ["a", "b", "c"], "ok": [true, false, false], "A": [-Infinity, "-inf", 0.1], "B": [0.9, "-Infinity", "-INF"]}\n',
    });
    const rm = cli(dir, [], { text: false }).r.rewardModels;
    assert.ok(rm, 'a reward-model section');
    assert.equal(rm.problems, 1, 'the problem is in the common set');
    const by = Object.fromEntries(rm.scorers.map((s) => [s.name, s]));
    // A: (a, b) both -Infinity: a tie, 1/2; (a, c): a loses; B: a beats both
    assert.deepEqual([by.A.pairwiseAccuracy, by.A.pairs, by.A.ties], [0.25, 2, 1]);
    assert.deepEqual([by.B.pairwiseAccuracy, by.B.pairs, by.B.ties], [1, 2, 0]);
    const bon = (name: string) => by[name].bestOfN.map((p) => Number(p.value?.toFixed(6)));
    // A at N=2: c (0.1, incorrect) first with 2/3, the tied pair {a, b} 1/3 x 1/2; B: a first
    assert.deepEqual(bon('A'), [Number((1 / 3).toFixed(6)), Number((1 / 6).toFixed(6)), 0]);
    assert.deepEqual(bon('B'), [Number((1 / 3).toFixed(6)), Number((2 / 3).toFixed(6)), 1]);
  });

  test('the spellings of a score: numbers, -inf / Infinity strings, NaN none; step scores keep -Infinity in the index', () => {
    const cases: [unknown, number | null][] = [
      [-Infinity, -Infinity],
      [1e999, Infinity],
      ['-inf', -Infinity],
      [' +Inf ', Infinity],
      ['-Infinity', -Infinity],
      ['infinity', Infinity],
      ['0.25', 0.25],
      [Number.NaN, null],
      ['nan', null],
      ['inf.', null],
      [null, null],
    ];
    for (const [v, want] of cases) assert.equal(scoreNumber(v), want, `scoreNumber(${String(v)})`);
    assert.deepEqual(inspectScore('-inf'), { correct: null, reward: -Infinity });
    assert.deepEqual(inspectScore(Number.NaN), { correct: null, reward: null });
    assert.deepEqual(readScore([0.5, '-inf'], 'prm', 'min'), {
      scorer: 'prm',
      value: -Infinity,
      steps: [0.5, -Infinity],
      rule: 'min',
    });
    assert.equal(readScore([0, Infinity], 'prm', 'product'), 'invalid', '0 x Infinity has no value');
    assert.equal(stepsJson([0.5, -Infinity]), '[0.5,"-Infinity"]');
    assert.deepEqual(parseStepsJson(stepsJson([0.5, -Infinity, Infinity])), [0.5, -Infinity, Infinity]);
  });

  test('a webview message keeps -Infinity (JSON would make it null, "not scored"): the ranking strip puts it last', () => {
    const data: ProblemRankingData = {
      problemId: 1,
      modelId: 1,
      label: '0',
      question: null,
      samples: [0, 1, 2].map((i) => ({ sampleId: 10 + i, sampleIndex: i, correct: i === 0, preview: `s${i}` })),
      scorers: [
        { name: 'A', scores: [-Infinity, 0.2, -Infinity].map(wireScore), steps: [null, null, null], rule: null },
      ],
    };
    const sent = JSON.parse(JSON.stringify(data)) as ProblemRankingData;
    assert.deepEqual(sent.scorers[0].scores, ['-Infinity', 0.2, '-Infinity']);
    const rows = (rankingStripSpec(sent, 600).data as { values: Record<string, unknown>[] }).values;
    assert.deepEqual(
      rows.map((r) => [r.position, r.sample, r.score, r.verdict]),
      [
        [1, 1, '0.2', 'incorrect'],
        [2, 0, '-Infinity (tied)', 'correct'],
        [3, 2, '-Infinity (tied)', 'incorrect'],
      ],
    );
    assert.equal(wireScore(Number.NaN), null);
  });
});

describe('two different problems under one id in one model files', () => {
  const line = (qid: number, question: string, gold: string, text: string) =>
    JSON.stringify({ qid, question, gold, model_name: 'm', rollouts: [{ rollout: 0, text, correct: true }] });

  test('said to differ (question, reference answer), never "duplicate"; a true duplicate stays one; a re-read other file is compared', async () => {
    const dir = writeFolder({
      'runs/a.jsonl': [
        line(0, 'What is 2 + 2?', '4', 'a0'),
        line(1, 'What is 5 - 1?', '4', 'a1'),
        line(0, 'What is 3 + 3?', '6', 'a2'),
        line(1, 'What is  5 - 1?\n', '4', 'a3'),
      ].join('\n'),
      'runs/b.jsonl': [line(0, 'What is 2 + 2?', '4', 'b0'), line(1, 'What is 5 - 1?', 'four', 'b1')].join('\n'),
      'map/trace-inspector.mapping.json':
        '{"files": ["*.jsonl"], "records": "per-sample", "model": "p", "fields": {"problemId": "id", "question": "q", "text": "t", "correct": "ok"}}',
      'map/out.jsonl': [
        '{"id": 0, "q": "Find x.", "t": "x1", "ok": true}',
        '{"id": 0, "q": "Find x.", "t": "x2", "ok": false}',
        '{"id": 0, "q": "Find y.", "t": "y1", "ok": true}',
      ].join('\n'),
    });
    const expected = [
      'map/out.jsonl:3:warning:problem id "0" of model p names two different problems: question differs (first at line 1); skipped',
      'runs/a.jsonl:3:warning:problem id "0" of model m names two different problems: question and reference answer differ (first at line 1); skipped',
      'runs/a.jsonl:4:warning:duplicate problem id "1" (first at line 2); skipped',
      'runs/b.jsonl:1:warning:duplicate problem id "0" for model m: already indexed from runs/a.jsonl; skipped',
      'runs/b.jsonl:2:warning:problem id "1" of model m names two different problems: reference answer differs from the problem already indexed from runs/a.jsonl; skipped',
    ];
    const index = TraceIndex.open(':memory:');
    try {
      await indexFolder(index, dir, { fts: false });
      const warnings = diagLines(index).filter((d) => /:warning:/.test(d));
      assert.deepEqual(warnings, expected);
      assert.deepEqual(await texts(index), ['a0', 'a1', 'x1', 'x2']);
      // b.jsonl alone read again (a.jsonl unchanged, not read): its record is compared with a.jsonl's, read from its bytes
      const { appendFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      appendFileSync(join(dir, 'runs/b.jsonl'), '\n');
      const again = await indexFolder(index, dir, { fts: false });
      assert.equal(again.filesIndexed, 1);
      assert.deepEqual(
        diagLines(index).filter((d) => /:warning:/.test(d)),
        expected,
      );
      // a.jsonl gone: b.jsonl's records, skipped because of it, are read again and indexed
      const { rmSync } = await import('node:fs');
      rmSync(join(dir, 'runs/a.jsonl'));
      await indexFolder(index, dir, { fts: false });
      assert.deepEqual(await texts(index), ['b0', 'b1', 'x1', 'x2']);
    } finally {
      index.close();
    }
  });
});

describe('Inspect samples that errored (error set, no score)', () => {
  /** One sample entry: `value` a verdict of scorer `match`, or `error` a sample that errored (no output, no score). */
  const sample = (id: number, epoch: number, v: { value?: string; error?: string }) =>
    JSON.stringify({
      id,
      epoch,
      input: [{ role: 'user', content: `question ${id}` }],
      target: '4',
      output: v.error
        ? { model: 'm', choices: [] }
        : { choices: [{ message: { role: 'assistant', content: `answer ${id}.${epoch}` }, stop_reason: 'stop' }] },
      scores: v.error ? null : { match: { value: v.value, answer: 'a' } },
      ...(v.error ? { error: { message: v.error, traceback: 'Traceback ...' } } : {}),
    });
  // problem 1: C, I; problem 2: errored, C; problem 3: errored twice
  const entries: [number, number, { value?: string; error?: string }][] = [
    [1, 1, { value: 'C' }],
    [1, 2, { value: 'I' }],
    [2, 1, { error: 'RuntimeError: sandbox died' }],
    [2, 2, { value: 'C' }],
    [3, 1, { error: 'TimeoutError: 600 s' }],
    [3, 2, { error: 'TimeoutError: 600 s' }],
  ];
  const folder = (): string => {
    const dir = writeFolder({
      'logs/b.json': JSON.stringify({
        version: 2,
        eval: { task: 'arith', model: 'test/model-b', dataset: { name: 'arith-ds' } },
        samples: entries.map(([id, e, v]) => JSON.parse(sample(id, e, v))),
      }),
    });
    writeFileSync(
      join(dir, 'logs/a.eval'),
      buildZip([
        { name: 'header.json', data: Buffer.from(inspectHeader('test/model-a')) },
        ...entries.map(([id, e, v]) => ({
          name: `samples/${id}_epoch_${e}.json`,
          data: Buffer.from(sample(id, e, v)),
        })),
      ]),
    );
    return dir;
  };
  const perModel = (r: Report) =>
    r.models.map((m) => [
      m.id.split('/').pop(),
      m.samples,
      m.ungradedSamples,
      m.correct,
      m.leftOut.ungraded,
      m.passAtK[0].value,
    ]);

  test('left out by default, as Inspect leaves them out of its metrics; the log counts them per model, each names its error', () => {
    const { r } = cli(folder(), ['--base', 'test/model-a'], { text: false });
    // pass@1: problem 1 1/2, problem 2 1/1 (its errored epoch left out), problem 3 ungraded (missing)
    assert.deepEqual(perModel(r), [
      ['model-a', 6, 3, 2, 1, 0.75],
      ['model-b', 6, 3, 2, 1, 0.75],
    ]);
    const shown = r.diagnostics
      .filter((d) => /errored/.test(d.message))
      .map((d) => `${d.file}:${d.entry ?? d.line}:${d.message}`);
    assert.deepEqual(shown, [
      "logs/a.eval:0:3 of 6 samples of model test/model-a errored (error set, no score): left out of every figure over graded samples and of maj@k's votes, as Inspect's own metrics leave them out of their denominator; to count them as failures give --errored-samples incorrect (setting traceInspector.erroredSamples)",
      "logs/a.eval:samples/2_epoch_1.json:sample 2 epoch 1 errored (no output text, no score): RuntimeError: sandbox died; left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics",
      "logs/a.eval:samples/3_epoch_1.json:sample 3 epoch 1 errored (no output text, no score): TimeoutError: 600 s; left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics",
      "logs/a.eval:samples/3_epoch_2.json:sample 3 epoch 2 errored (no output text, no score): TimeoutError: 600 s; left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics",
      "logs/b.json:0:3 of 6 samples of model test/model-b errored (error set, no score): left out of every figure over graded samples and of maj@k's votes, as Inspect's own metrics leave them out of their denominator; to count them as failures give --errored-samples incorrect (setting traceInspector.erroredSamples)",
      "logs/b.json:1:sample 2 epoch 1 errored (no output text, no score): RuntimeError: sandbox died; left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics",
      "logs/b.json:1:sample 3 epoch 1 errored (no output text, no score): TimeoutError: 600 s; left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics",
      "logs/b.json:1:sample 3 epoch 2 errored (no output text, no score): TimeoutError: 600 s; left out of every figure over graded samples and of maj@k's votes, as Inspect leaves it out of its metrics",
    ]);
    assert.ok(!r.diagnostics.some((d) => /has no output text/.test(d.message)), 'never "no output text" alone');
  });

  test('maj@k: a sample that errored does not vote (no output), as it is in no pass@k; the note counts them', () => {
    // answers: C samples say 4 (the target), I samples 5: problem 1 votes 4, 5; problem 2 votes 4 (its errored
    // epoch no vote); problem 3 has no vote (both epochs errored): ungraded, as in pass@k
    const withAnswer = (id: number, epoch: number, v: { value?: string; error?: string }) => {
      const o = JSON.parse(sample(id, epoch, v));
      if (o.scores) o.scores.match.answer = v.value === 'C' ? '4' : '5';
      return o;
    };
    const dir = writeFolder({
      'logs/b.json': JSON.stringify({
        version: 2,
        eval: { task: 'arith', model: 'test/model-b', dataset: { name: 'arith-ds' } },
        samples: entries.map(([id, e, v]) => withAnswer(id, e, v)),
      }),
    });
    const { r } = cli(dir, ['--maj-at-k'], { text: false });
    const m = r.models[0];
    // maj@1: problem 1 one vote in two is 4 (0.5), problem 2 its one vote is 4 (1): 0.75 over 2 problems, as pass@1
    assert.deepEqual(
      m.majAtK?.map((p) => [p.k, p.value, p.problems, p.missing, p.leftOut.ungraded]),
      [
        [1, 0.75, 2, 1, 1],
        [2, 0.5, 1, 2, 1],
      ],
    );
    assert.equal(m.passAtK[0].value, 0.75);
    assert.ok(
      r.warnings.includes(
        'logs/b.json:test/model-b: 3 samples that errored (finish reason error, no verdict) do not vote in maj@k (no output), as they are in no pass@k',
      ),
      r.warnings.join('\n'),
    );
  });

  test('--errored-samples incorrect counts them as failures (pass@1 1/3), and says so', () => {
    const { r } = cli(folder(), ['--base', 'test/model-a', '--errored-samples', 'incorrect'], { text: false });
    // pass@1: problem 1 1/2, problem 2 1/2, problem 3 0/2
    assert.deepEqual(
      perModel(r).map((x) => [...x.slice(0, 5), Number((x[5] as number).toFixed(6))]),
      [
        ['model-a', 6, 0, 2, 0, Number((1 / 3).toFixed(6))],
        ['model-b', 6, 0, 2, 0, Number((1 / 3).toFixed(6))],
      ],
    );
    assert.ok(
      r.diagnostics.some(
        (d) =>
          d.file === 'logs/a.eval' &&
          d.message ===
            "3 of 6 samples of model test/model-a errored (error set, no score): counted as incorrect, failures in n (--errored-samples incorrect, setting traceInspector.erroredSamples); by default they are left out of every figure, as Inspect's own metrics leave them out",
      ),
    );
  });
});
