// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * Every reader on the project's own small handwritten fixtures (test/fixtures/readers/), with the
 * exact records and diagnostics expected, plus bad-input files written to a temporary folder.
 * Run with cwd = the repository root.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Diagnostic, ProblemRecord } from '../../src/core/model';
import { detectFile, detectFormat, makeContext, readFile } from '../../src/core/readers/index';
import { createInspectReader, inspectScore } from '../../src/core/readers/inspect';
import { getPath, resolveMapping, validateMapping } from '../../src/core/readers/mapping';
import { qwenModelAndDataset } from '../../src/core/readers/qwenMath';
import { flatDataset, flatModelName } from '../../src/core/readers/flat';
import { totModelName } from '../../src/core/readers/tot';
import type { FormatId } from '../../src/core/model';
import type { Reader } from '../../src/core/readers/types';

const FIX = path.resolve(process.cwd(), 'test/fixtures/readers');

interface Collected {
  records: ProblemRecord[];
  diags: Diagnostic[];
  /** `line:severity:message` of every diagnostic, in order. */
  msgs: string[];
}

async function collect(root: string, rel: string, format?: FormatId, reader?: Reader): Promise<Collected> {
  const records: ProblemRecord[] = [];
  const diags: Diagnostic[] = [];
  const ctx = makeContext(root, rel);
  const it = reader ? reader.read(ctx) : readFile(ctx, format);
  for await (const ev of it) {
    if (ev.kind === 'problem') records.push(ev.record);
    else if (ev.kind === 'diagnostic') diags.push(ev.diagnostic);
  }
  // a diagnostic at an archive entry is placed by the entry, not a line (trial 12 finding 24)
  return { records, diags, msgs: diags.map((d) => `${d.entry ?? d.line}:${d.severity}:${d.message}`) };
}

const texts = (r: ProblemRecord): string[] => r.samples.map((s) => s.text);
const corrects = (r: ProblemRecord): (boolean | null)[] => r.samples.map((s) => s.correct);

describe('qwen-math reader', () => {
  test('bad-input fixture: every bad line gives its diagnostic, every good line its record', async () => {
    const rel = 'qwen/mymodel/math.jsonl';
    assert.equal(await detectFormat(path.join(FIX, rel), rel, FIX), 'qwen-math');
    const c = await collect(FIX, rel);
    assert.ok(c.diags.every((d) => d.file === rel));
    assert.deepEqual(c.msgs.slice(0, 5), [
      '3:error:code is not an array (got string); line skipped',
      '5:warning:code has 3 samples but score has 2; keeping the first 2',
      '6:warning:missing idx; using "line 6" as the problem id',
      // Python's NaN literal: the line is read, the value is missing (score null: ungraded)
      '7:warning:1 non-standard number (NaN) read as missing value (a missing verdict leaves its sample ungraded: in no figure; a missing reward score leaves it out of best-of-k)',
      // V8 wording of JSON errors is not ours: check the prefix
      c.msgs[4],
    ]);
    assert.match(c.msgs[4], /^8:error:malformed JSON \(.*\)$/);
    assert.deepEqual(c.msgs.slice(5, 8), [
      '9:warning:1 score value is not a boolean or 0/1; that sample is ungraded',
      '10:error:code[1] is not a string (got number); sample skipped, and its verdict (score true) is lost with it',
      '11:error:record is not a JSON object (got array)',
    ]);
    assert.match(c.msgs[8], /^12:error:malformed JSON \(.*\); truncated last line\?$/);
    // the strings warning comes after the file's last record (only then is it known that the column
    // holds no scores, trial 6 finding 3), naming the line of the first string
    assert.equal(
      c.msgs[9],
      '4:warning:score values are strings; read as verdicts ("true" here as correct; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)',
    );
    assert.equal(c.msgs.length, 10);

    assert.deepEqual(
      c.records.map((r) => [r.line, r.problemId]),
      [
        [1, '0'],
        [4, '2'],
        [5, '3'],
        [6, 'line 6'],
        [7, '5'],
        [9, '6'],
        [10, '7'],
      ],
    );
    assert.deepEqual(c.records[4].samples, [
      { sampleIndex: 0, text: 'n', correct: null, extractedAnswer: null, rewardScore: null, finishReason: null },
    ]);
    const r0 = c.records[0];
    assert.deepEqual(r0.model, { name: 'mymodel', revision: null, source: 'path' });
    assert.equal(r0.dataset, 'math');
    assert.equal(r0.question, '1+1?');
    assert.equal(r0.referenceAnswer, '2');
    assert.equal(r0.level, '1');
    assert.deepEqual(r0.samples, [
      { sampleIndex: 0, text: 'a', correct: true, extractedAnswer: '2', rewardScore: 0.5, finishReason: null },
      { sampleIndex: 1, text: 'b', correct: false, extractedAnswer: '3', rewardScore: -1.25, finishReason: null },
    ]);
    assert.deepEqual(corrects(c.records[1]), [true, false, true]); // "true"/"false" strings
    assert.deepEqual(texts(c.records[2]), ['p', 'q']); // min(3, 2)
    assert.deepEqual(corrects(c.records[3]), [true]); // score 1
    assert.deepEqual(corrects(c.records[5]), [true, null]); // "maybe" -> ungraded
    assert.deepEqual(
      c.records[6].samples.map((s) => [s.sampleIndex, s.text]),
      [[0, 'k']],
    ); // code[1] = 7 skipped
  });

  test('limit-of-RLVR layout: model from the path above math_eval, dataset from the folder; pred_score as number[]', async () => {
    const rel = 'qwen/Qwen2.5-Math-7B/math_eval/math500/test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl';
    const c = await collect(FIX, rel);
    assert.deepEqual(c.msgs, []);
    assert.equal(c.records.length, 2);
    assert.deepEqual(c.records[0].model, { name: 'qwen/Qwen2.5-Math-7B', revision: null, source: 'path', run: '' });
    assert.equal(c.records[0].dataset, 'math500');
    assert.equal(c.records[0].referenceAnswer, '4'); // number gt stringified
    assert.equal(c.records[0].level, '3');
    assert.deepEqual(
      c.records[0].samples.map((s) => [s.rewardScore, s.finishReason]),
      [
        [0.9, 'stop'],
        [0.1, 'length'],
      ],
    );
  });

  test('model and dataset naming rules', () => {
    assert.deepEqual(qwenModelAndDataset('math_cot_100.jsonl', '/x/qwen25-math-eval-example'), {
      model: { name: 'math_cot_100', revision: null, source: 'path' },
      dataset: 'math_cot_100',
    });
    assert.deepEqual(qwenModelAndDataset('math/test_a.jsonl', '/x/Qwen2.5-7B'), {
      model: { name: 'Qwen2.5-7B', revision: null, source: 'path', run: '' },
      dataset: 'math',
    });
    assert.deepEqual(qwenModelAndDataset('org/m/eval/aime24/x.jsonl', '/r'), {
      model: { name: 'org/m', revision: null, source: 'path', run: '' },
      dataset: 'aime24',
    });
  });
});

describe('rollouts reader', () => {
  test('dataset from run_config.json question_file; diagnostics for bad rollouts', async () => {
    const rel = 'rollouts/run_a/raw.jsonl';
    const c = await collect(FIX, rel);
    assert.deepEqual(c.msgs, [
      '2:error:rollouts is not an array (got object); line skipped',
      '3:warning:rollout numbers are missing, invalid or repeated; using positions as sample indices',
      '3:error:rollouts[1].text is not a string (got number); sample skipped, and its verdict (correct 1) is lost with it',
      '4:warning:missing model_name; using the name "raw" from the file path (its folder when the file name is generic; reported once per file)',
      // 0.5 beside verdicts (true, false, "true") is partial credit: graded not correct, one warning per file given
      // after its last record (trial 12 finding 6; it was a score that left the sample ungraded); the string
      // "true" is a verdict, said once
      '4:warning:correct: 1 sample with partial credit (a number strictly between 0 and 1 among verdicts, e.g. 0.5 here): partial credit counted as not correct (pass requires full credit; it stays in n); to count a score >= x as correct, give --correct-threshold x (setting traceInspector.correctThreshold)',
      '3:warning:correct values are strings; read as verdicts ("true" here as correct; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)',
    ]);
    assert.deepEqual(
      c.records.map((r) => r.problemId),
      ['0', '2', '3'],
    );
    assert.ok(c.records.every((r) => r.dataset === 'q'));
    assert.deepEqual(c.records[0].model, { name: 'org/m', revision: 'r1', source: 'data' });
    assert.deepEqual(c.records[0].samples, [
      { sampleIndex: 0, text: 't0', correct: true, extractedAnswer: '4', finishReason: 'stop', tokenCount: 12 },
      { sampleIndex: 1, text: 't1', correct: false, extractedAnswer: '5', finishReason: null, tokenCount: null },
    ]);
    assert.equal(c.records[0].question, 'q0');
    assert.equal(c.records[0].referenceAnswer, '4');
    assert.deepEqual(c.records[1].model, { name: 'org/m', revision: null, source: 'data' });
    assert.deepEqual(c.records[2].model, { name: 'raw', revision: null, source: 'path' });
    assert.deepEqual(corrects(c.records[2]), [false]);
  });

  test('without run_config.json the dataset field is used; without rollout numbers, positions', async () => {
    const c = await collect(FIX, 'rollouts/run_b/raw.jsonl');
    assert.deepEqual(c.msgs, []);
    assert.equal(c.records[0].dataset, 'gsm8k');
    assert.deepEqual(
      c.records[0].samples.map((s) => [s.sampleIndex, s.text, s.correct]),
      [
        [0, 'z', true],
        [1, 'w', false],
      ],
    );
  });
});

describe('flat reader', () => {
  test('one record per line without sampleIndex; task_id prefix is the dataset', async () => {
    const rel = 'flat/model_x.jsonl_results.jsonl';
    const c = await collect(FIX, rel);
    assert.deepEqual(c.msgs, [
      '3:error:missing task_id; line skipped',
      '4:error:completion is not a string (got null); line skipped, and its verdict (passed true) is lost with it',
      '5:warning:passed values are strings; read as verdicts ("yes" here as correct; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)',
    ]);
    assert.deepEqual(
      c.records.map((r) => [r.line, r.dataset, r.problemId, texts(r)[0], corrects(r)[0]]),
      [
        [1, 'HumanEval', 'HumanEval/0', 'a', true],
        [2, 'HumanEval', 'HumanEval/0', 'b', false],
        [5, 'HumanEval', 'HumanEval/1', 'd', true],
      ],
    );
    assert.ok(c.records.every((r) => r.samples.length === 1 && r.samples[0].sampleIndex === undefined));
    assert.deepEqual(c.records[0].model, { name: 'model_x', revision: null, source: 'path' });
  });

  test('the ungraded samples file next to its results file is skipped; a lone one is read ungraded (CRLF file)', async () => {
    assert.deepEqual(await detectFile(path.join(FIX, 'flat/model_x.jsonl'), 'flat/model_x.jsonl', FIX), {
      format: null,
      skipped: 'superseded',
      diagnostics: [
        {
          file: 'flat/model_x.jsonl',
          line: 0,
          message:
            'not a results file: the same samples with their grades are in model_x.jsonl_results.jsonl or model_x_results.jsonl (human-eval), which is read instead',
          severity: 'info',
        },
      ],
    });
    const c = await collect(FIX, 'flat/solo.jsonl');
    assert.deepEqual(c.msgs, ['1:warning:no passed field: samples are ungraded (reported once per file)']);
    assert.deepEqual(
      c.records.map((r) => [r.dataset, r.problemId, texts(r)[0], corrects(r)[0]]),
      [
        ['default', '7', 'c', null],
        ['default', '7', 'e', null],
      ],
    );
  });

  test('naming helpers', () => {
    assert.equal(flatModelName('a/run.jsonl_results.jsonl'), 'run');
    assert.equal(flatModelName('run_results.jsonl'), 'run');
    assert.equal(flatModelName('run.jsonl'), 'run');
    assert.equal(flatDataset('HumanEval/3'), 'HumanEval');
    assert.equal(flatDataset('Mbpp/2/x'), 'Mbpp');
    assert.equal(flatDataset('17'), 'default');
  });
});

describe('tot reader', () => {
  test('accs and infos[].r labels, question from 24.csv, bad elements reported', async () => {
    const rel = 'tot/logs/game24/gpt-4_0.7_mini_start0_end3.json';
    const c = await collect(FIX, rel);
    assert.deepEqual(c.msgs, [
      '1:warning:element 1: ys has 3 outputs but infos has 2; outputs without a label are ungraded',
      '1:error:element 2: ys[1] is not a string (got number); sample skipped',
      '1:error:element 3 is not an object (got string); skipped',
      '1:error:element 4: ys is missing; skipped',
      '1:warning:element 5: missing idx; using array position 5',
    ]);
    assert.deepEqual(
      c.records.map((r) => [r.problemId, r.question, corrects(r)]),
      [
        ['0', '1 1 4 6', [false, true]],
        ['1', '1 1 11 11', [true, false, null]], // quoted CSV field
        ['2', '1 1 3 8', [false]],
        ['5', '2 3 4 5', [false]], // question from steps[0].x
      ],
    );
    assert.deepEqual(c.records[0].model, { name: 'gpt-4_0.7_mini', revision: null, source: 'path' });
    assert.equal(c.records[0].dataset, 'game24');
    assert.equal(
      totModelName('x/gpt-4_0.7_naive_cot_sample_100_start900_end1000.json'),
      'gpt-4_0.7_naive_cot_sample_100',
    );
  });
});

describe('inspect reader', () => {
  test('.eval: epochs grouped per sample id in id order; scores C/I/P/1.0; content blocks; bad entry reported', async () => {
    const c = await collect(FIX, 'inspect/good.eval');
    assert.equal(c.msgs.length, 2);
    assert.match(c.msgs[0], /^samples\/3_epoch_1\.json:error:malformed JSON \(.*\); skipped$/);
    // the partial-credit policy is stated, with its count (4 samples read: 2/1, 2/2, 3/2, 10/1)
    assert.equal(
      c.msgs[1],
      '0:warning:1 of 4 samples have partial credit "P" (scorer "match"): counted as not correct for pass@k; its value 0.5 restates the verdict and is no reward score',
    );
    assert.deepEqual(
      c.records.map((r) => r.problemId),
      ['2', '3', '10'],
    );
    const [p2, p3, p10] = c.records;
    assert.deepEqual(p2.model, {
      name: 'test/model-a',
      revision: null,
      source: 'data',
      run: 'inspect/good.eval',
      grader: 'scorer "match"',
    });
    assert.equal(p2.dataset, 'arith-ds');
    assert.equal(p2.question, 'question 2'); // last user message
    assert.equal(p2.referenceAnswer, '4');
    assert.equal(p2.level, 'easy');
    assert.deepEqual(p2.samples, [
      {
        sampleIndex: 0,
        text: 'four',
        correct: true,
        extractedAnswer: '4',
        // the scorer's value makes the verdict: no reward-model score (best-of-k would repeat pass@k)
        rewardScore: null,
        finishReason: 'stop',
        tokenCount: 3,
      },
      {
        sampleIndex: 1,
        text: 'five',
        correct: false,
        extractedAnswer: '5',
        rewardScore: null,
        finishReason: 'max_tokens',
        tokenCount: 7,
      },
    ]);
    assert.deepEqual(
      p3.samples.map((s) => [s.text, s.correct, s.rewardScore]),
      [['partial', false, null]],
    );
    assert.deepEqual(
      p10.samples.map((s) => [s.text, s.correct, s.rewardScore]),
      [['think\n\n4', true, null]],
    );
  });

  test('.eval zip bomb: an entry over the cap is refused, the rest is read', async () => {
    const reader = createInspectReader({ maxEntryBytes: 1024 * 1024 });
    const c = await collect(FIX, 'inspect/bomb.eval', undefined, reader);
    assert.deepEqual(c.msgs, [
      '0:error:samples/2_epoch_1.json: entry samples/2_epoch_1.json is too large (2097152 bytes > 1048576 bytes); skipped',
    ]);
    assert.deepEqual(
      c.records.map((r) => r.problemId),
      ['1'],
    );
  });

  test('.eval total cap stops reading', async () => {
    // uncompressed sizes: header.json 120, samples 2_epoch_1 350, 2_epoch_2 356, 3_epoch_1 9, 3_epoch_2 353
    const reader = createInspectReader({ maxTotalBytes: 900 });
    const c = await collect(FIX, 'inspect/good.eval', undefined, reader);
    assert.equal(c.msgs.length, 2);
    assert.match(c.msgs[0], /^samples\/3_epoch_1\.json:error:malformed JSON/);
    assert.equal(c.msgs[1], '0:error:archive exceeds 900 uncompressed bytes; stopped before samples/3_epoch_2.json');
    assert.deepEqual(
      c.records.map((r) => r.problemId),
      ['2'],
    );
  });

  test('corrupt, header-less and empty .eval files give one diagnostic and no records', async () => {
    const corrupt = await collect(FIX, 'inspect/corrupt.eval');
    assert.equal(corrupt.records.length, 0);
    assert.equal(corrupt.msgs.length, 1);
    assert.match(corrupt.msgs[0], /^0:error:corrupt \.eval archive \(/);
    const noHeader = await collect(FIX, 'inspect/noheader.eval');
    assert.deepEqual(noHeader.msgs, ['0:error:no header.json or _journal/start.json in the .eval archive; not read']);
    assert.equal(noHeader.records.length, 0);
  });

  test('.json log: samples grouped by id in first-appearance order, epochs sorted', async () => {
    const c = await collect(FIX, 'inspect/log.json');
    assert.deepEqual(c.msgs, [
      '1:error:samples[3] has no id; skipped',
      '1:warning:sample c epoch 1 has no output text',
      // sample c has an empty scores object: counted (trial 1, finding 1: the samples without the chosen scorer)
      '0:warning:scorer "match" is missing in 1 of 4 samples of this log (its scorers: "match"); those samples are ungraded',
    ]);
    assert.deepEqual(
      c.records.map((r) => [r.problemId, texts(r), corrects(r), r.referenceAnswer]),
      [
        // a target list is stored as the accepted answers, any of which is right (issue 32; was joined "Yes | Y")
        ['b', ['Yes', 'No'], [true, false], '["Yes","Y"]'],
        ['a', ['Yes'], [true], 'Yes'],
        ['c', [''], [null], null],
      ],
    );
    assert.equal(c.records[0].dataset, 'popularity'); // no dataset.name: the task
  });

  test('score values follow inspect value_to_float', () => {
    assert.deepEqual(inspectScore('C'), { correct: true, reward: 1 });
    assert.deepEqual(inspectScore('I'), { correct: false, reward: 0 });
    assert.deepEqual(inspectScore('N'), { correct: false, reward: 0 });
    assert.deepEqual(inspectScore('P'), { correct: false, reward: 0.5 });
    // a number other than 0/1 is a score, not a verdict: kept as the reward, the sample ungraded
    assert.deepEqual(inspectScore(0.25), { correct: null, reward: 0.25 });
    assert.deepEqual(inspectScore(1), { correct: true, reward: 1 });
    assert.deepEqual(inspectScore(0), { correct: false, reward: 0 });
    assert.deepEqual(inspectScore('1.0'), { correct: true, reward: 1 });
    assert.deepEqual(inspectScore(' no '), { correct: false, reward: 0 });
    assert.deepEqual(inspectScore(true), { correct: true, reward: 1 });
    assert.deepEqual(inspectScore({ a: 1 }), { correct: null, reward: null });
    assert.deepEqual(inspectScore(['C']), { correct: null, reward: null });
    assert.deepEqual(inspectScore(Number.NaN), { correct: null, reward: null });
  });
});

describe('mapping reader', () => {
  test('per-problem parallel lists, dotted paths, field and constant fallbacks', async () => {
    const rel = 'mapping/parallel/data.jsonl';
    assert.equal(await detectFormat(path.join(FIX, rel), rel, FIX), 'mapping');
    assert.equal(
      await detectFormat(path.join(FIX, 'mapping/parallel/notes.txt'), 'mapping/parallel/notes.txt', FIX),
      null,
    );
    const c = await collect(FIX, rel);
    assert.deepEqual(c.msgs, [
      '2:warning:outputs has 1 sample but labels has 2; keeping the first 1',
      '3:error:problem id meta.id is missing; skipped',
      '4:error:outputs is not a list (got string); skipped',
    ]);
    assert.equal(c.records.length, 2);
    assert.deepEqual(c.records[0], {
      line: 1,
      model: { name: 'm1', revision: null, source: 'data' },
      dataset: 'd1',
      problemId: '1',
      question: 'p1',
      referenceAnswer: 'a1',
      level: null,
      samples: [
        {
          sampleIndex: 0,
          text: 'o1',
          correct: true,
          extractedAnswer: null,
          rewardScore: 0.75,
          finishReason: null,
          tokenCount: null,
        },
        {
          sampleIndex: 1,
          text: 'o2',
          correct: false,
          extractedAnswer: null,
          rewardScore: 0.2,
          finishReason: null,
          tokenCount: null,
        },
      ],
      // the record is the file's first line (its bytes, counted here from the fixture)
      span: { offset: 0, bytes: readFileSync(path.join(FIX, rel)).indexOf(0x0a) },
    });
    assert.deepEqual(c.records[1].model, { name: 'data', revision: null, source: 'path' });
    assert.equal(c.records[1].dataset, 'fallback-ds');
  });

  test('per-problem list of sample objects with a correctness threshold (mapping file holding a list)', async () => {
    const c = await collect(FIX, 'mapping/objects/runs/r.jsonl');
    assert.deepEqual(c.msgs, ['1:error:gens[1]: out is not a string (got number); sample skipped']);
    assert.deepEqual(c.records[0].model, { name: 'const-model', revision: null, source: 'data' });
    assert.deepEqual(
      c.records[0].samples.map((s) => [
        s.sampleIndex,
        s.text,
        s.correct,
        s.extractedAnswer,
        s.finishReason,
        s.tokenCount,
      ]),
      [
        [0, 'g0', true, '3', 'stop', 10],
        [2, 'g2', false, null, null, null],
      ],
    );
  });

  test('per-sample records in a .json document at recordsPath', async () => {
    const c = await collect(FIX, 'mapping/persample/data.json');
    assert.deepEqual(c.msgs, [
      '1:error:record 2 is not a JSON object or list (got number); skipped',
      // said once per file, after the last record (trial 6 finding 4)
      '1:warning:1 record gives no usable k (a non-negative integer: 1 negative; first at line 1, record 1: -1): its sample is kept and numbered by the indexer with an index no record of the file gives (reported once per file)',
      '1:warning:score values are strings; read as verdicts ("correct" here as correct; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)',
    ]);
    assert.deepEqual(
      c.records.map((r) => r.samples.map((s) => [s.sampleIndex, s.text, s.correct])),
      [[[0, 'r0', true]], [[undefined, 'r1', false]]],
    );
  });

  test('nearest mapping whose globs match wins, searching up to the root', async () => {
    const abs = path.join(FIX, 'mapping/nested/sub/d.jsonl');
    const { mapping, errors } = await resolveMapping(abs, FIX);
    assert.deepEqual(errors, []);
    assert.equal(mapping?.mappingRelPath, 'mapping/nested/trace-inspector.mapping.json');
    const c = await collect(FIX, 'mapping/nested/sub/d.jsonl');
    assert.deepEqual(
      c.records.map((r) => [r.model.name, r.problemId, texts(r)]),
      [['outer', '1', ['hello']]],
    );
  });

  test('an invalid mapping is reported naming the mapping file and the bad fields, and is ignored', async () => {
    const rel = 'mapping/invalid/data.jsonl';
    const det = await detectFile(path.join(FIX, rel), rel, FIX);
    assert.equal(det.format, 'flat');
    // The data file is read as if the mapping were absent; the errors belong to the mapping file, once.
    assert.deepEqual(det.diagnostics, []);
    const mrel = 'mapping/invalid/trace-inspector.mapping.json';
    const mdet = await detectFile(path.join(FIX, mrel), mrel, FIX);
    assert.equal(mdet.format, null);
    assert.deepEqual(mdet.diagnostics, [
      {
        file: mrel,
        line: 0,
        severity: 'error',
        message: 'invalid mapping file: /records: must be one of ["per-sample","per-problem"]',
      },
      {
        file: mrel,
        line: 0,
        severity: 'error',
        message: 'invalid mapping file: /fields/text: required field is missing',
      },
      {
        file: mrel,
        line: 0,
        severity: 'error',
        message: `invalid mapping file: /fields: unknown field "txt" (did you mean "text"?); the fields here are problemId, text, subject, correct, model, revision, dataset, level, question, referenceAnswer, extractedAnswer, rewardScore, finishReason, tokenCount, sampleIndex`,
      },
    ]);
    const c = await collect(FIX, rel);
    assert.equal(c.diags.length, 0);
    assert.deepEqual(
      c.records.map((r) => r.problemId),
      ['T/1'],
    );
  });

  test('validateMapping semantic rules and list prefixes; getPath', () => {
    assert.deepEqual(
      validateMapping([{ files: ['*'], records: 'per-sample', samples: 'x', fields: { problemId: 'a', text: 'b' } }]),
      {
        errors: ['/0/samples: only allowed with records "per-problem"'],
      },
    );
    assert.deepEqual(validateMapping({ files: [], records: 'per-sample', fields: { problemId: 'a.', text: 'b' } }), {
      errors: [
        '/files: must NOT have fewer than 1 items',
        '/fields/problemId: must be a JSONPath starting with "$" or a dotted path (no leading or trailing ".")',
      ],
    });
    assert.deepEqual(validateMapping([]), { errors: ['/: the list of mappings is empty'] });
    assert.equal(getPath({ a: [{ b: 1 }, { b: 2 }] }, 'a.-1.b'), 2);
    assert.equal(getPath({ a: [{ b: 1 }] }, 'a.x'), undefined);
    assert.equal(getPath({ a: 'str' }, 'a.length'), undefined);
  });
});

describe('bad input files', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'readers-bad-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const put = (rel: string, content: string | Buffer): void => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  };

  test('a record without its id gets "line L": no collision with a real id, no shift after a line that fails to parse', async () => {
    const line = (q: number | null) =>
      JSON.stringify({
        ...(q === null ? {} : { qid: q }),
        model_name: 'm',
        rollouts: [{ rollout: 0, correct: true, text: `t${q}` }],
      });
    // line 3 has no qid (qid 2 is line 4's); in the second file line 2 does not parse, line 3 has no qid either
    put('ids/a.jsonl', [line(0), line(1), line(null), line(2)].join('\n'));
    put('ids/b.jsonl', [line(0), '{broken', line(null), line(2)].join('\n'));
    const a = await collect(dir, 'ids/a.jsonl', 'rollouts');
    assert.deepEqual(
      a.records.map((r) => r.problemId),
      ['0', '1', 'line 3', '2'],
    );
    assert.deepEqual(a.msgs, ['3:warning:missing qid; using "line 3" as the problem id']);
    const b = await collect(dir, 'ids/b.jsonl', 'rollouts');
    assert.deepEqual(
      b.records.map((r) => r.problemId),
      ['0', 'line 3', '2'],
    );
  });

  test('empty file: detection and each JSONL reader give "empty file" at line 0', async () => {
    put('empty.jsonl', '');
    put('blank.jsonl', '\n  \n');
    for (const rel of ['empty.jsonl', 'blank.jsonl']) {
      assert.deepEqual(await detectFile(path.join(dir, rel), rel, dir), {
        format: null,
        skipped: 'empty',
        diagnostics: [{ file: rel, line: 0, message: 'empty file', severity: 'error' }],
      });
      assert.deepEqual((await collect(dir, rel)).msgs, ['0:error:empty file']);
      for (const f of ['qwen-math', 'rollouts', 'flat', 'tot'] as const) {
        const c = await collect(dir, rel, f);
        assert.deepEqual([c.msgs, c.records.length], [['0:error:empty file'], 0], `${f} ${rel}`);
      }
    }
  });

  test('binary file with a .jsonl name: one diagnostic, no records', async () => {
    put('bin.jsonl', Buffer.from([0x7b, 0x00, 0x01, 0x02, 0x0a, 0xff, 0x00]));
    const c = await collect(dir, 'bin.jsonl');
    assert.deepEqual(c.msgs, ['0:error:binary file (NUL bytes in the first 64 KiB); not read']);
    const forced = await collect(dir, 'bin.jsonl', 'qwen-math');
    assert.deepEqual(forced.msgs, ['0:error:binary file (NUL bytes in the first 64 KiB); not read']);
    assert.equal(forced.records.length, 0);
  });

  test('very deep nesting does not crash; the record is reported and later lines read', async () => {
    const deep = '['.repeat(200000) + ']'.repeat(200000);
    put(
      'deep.jsonl',
      [
        '{"idx": 0, "code": ["a"], "score": [true]}',
        deep,
        `{"idx": 1, "code": [${deep}], "score": [true]}`,
        '{"idx": 2, "code": ["b"], "score": [false]}',
      ].join('\n') + '\n',
    );
    const c = await collect(dir, 'deep.jsonl', 'qwen-math');
    assert.deepEqual(
      c.records.map((r) => [r.problemId, texts(r)]),
      [
        ['0', ['a']],
        ['1', []],
        ['2', ['b']],
      ],
    );
    // V8 parses deep arrays iteratively; if an engine throws RangeError instead, the message says so
    assert.equal(c.msgs.length, 2);
    assert.match(c.msgs[0], /^2:error:(record is not a JSON object \(got array\)|JSON nesting too deep)/);
    assert.match(c.msgs[1], /^3:error:(code\[0\] is not a string \(got array\); sample skipped|JSON nesting too deep)/);
  });

  test('an Infinity literal is read as the number (a reward score could be it), no verdict: the sample is ungraded, with warnings', async () => {
    put(
      'inf.jsonl',
      '{"task_id": "A/1", "completion": "x", "passed": Infinity}\n{"task_id": "A/1", "completion": "y", "passed": true}\n',
    );
    const c = await collect(dir, 'inf.jsonl', 'flat');
    assert.deepEqual(c.msgs, [
      '1:warning:1 non-standard number (Infinity, -Infinity) read as number (a reward score of -Infinity is the lowest score, Infinity the highest; neither is a verdict)',
      '1:warning:passed is not a boolean (got number); sample ungraded',
    ]);
    assert.deepEqual(
      c.records.map((r) => [texts(r)[0], corrects(r)[0]]),
      [
        ['x', null],
        ['y', true],
      ],
    );
  });

  test('a malformed first line does not prevent detection', async () => {
    put(
      'firstbad.jsonl',
      '{"qid": 0, "rollouts": [\n{"qid": 1, "model_name": "m", "rollouts": [{"text": "t", "correct": true}]}\n',
    );
    const c = await collect(dir, 'firstbad.jsonl');
    assert.equal(c.msgs.length, 1);
    assert.match(c.msgs[0], /^1:error:malformed JSON \(/);
    assert.deepEqual(
      c.records.map((r) => r.problemId),
      ['1'],
    );
  });

  test('JSONL that is not JSON at all, and JSON no reader knows', async () => {
    put('text.jsonl', 'hello\nworld\n');
    assert.deepEqual(await detectFile(path.join(dir, 'text.jsonl'), 'text.jsonl', dir), {
      format: null,
      skipped: 'not-json',
      diagnostics: [
        {
          file: 'text.jsonl',
          line: 0,
          severity: 'error',
          message: 'not a JSONL results file: none of the first 2 lines is a JSON object',
        },
      ],
    });
    put('questions.jsonl', '{"qid": 0, "question": "q", "gold": "1"}\n');
    // listed once, with why: a folder that yields nothing explains itself
    const why =
      'not a results file: no reader recognises the first JSON object line (keys: qid, question, gold); describe the format in a trace-inspector.mapping.json';
    assert.deepEqual(await detectFile(path.join(dir, 'questions.jsonl'), 'questions.jsonl', dir), {
      format: null,
      skipped: 'unrecognized',
      diagnostics: [{ file: 'questions.jsonl', line: 0, severity: 'info', message: why }],
    });
    assert.deepEqual((await collect(dir, 'questions.jsonl')).msgs, [`0:info:${why}`]);
  });

  test('non-result files are skipped by name', async () => {
    for (const rel of [
      'summary.json',
      'r/run_config.json',
      'x_metrics.json',
      'trace-inspector.mapping.json',
      '.trace-inspector/a.jsonl',
    ]) {
      put(rel, '{"task_id": "a", "completion": "b"}\n');
      const det = await detectFile(path.join(dir, rel), rel, dir);
      assert.deepEqual([det.format, det.skipped], [null, 'non-result'], rel);
      // A mapping file is never read as results; what is wrong with it as a mapping is its own diagnostics.
      if (rel === 'trace-inspector.mapping.json')
        assert.ok(
          det.diagnostics.length > 0 &&
            det.diagnostics.every((d) => d.file === rel && /^invalid mapping file: /.test(d.message)),
        );
      else assert.deepEqual(det.diagnostics, [], rel);
    }
  });

  test('a missing file gives "cannot read file" instead of throwing', async () => {
    const c = await collect(dir, 'gone.jsonl', 'flat');
    assert.equal(c.msgs.length, 1);
    assert.match(c.msgs[0], /^0:error:cannot read file \(ENOENT/);
  });

  test('an aborted signal throws out of readFile', async () => {
    put('ok.jsonl', '{"task_id": "A/1", "completion": "x", "passed": true}\n');
    const ac = new AbortController();
    ac.abort();
    const run = async (): Promise<void> => {
      for await (const ev of readFile(makeContext(dir, 'ok.jsonl', ac.signal), 'flat')) void ev;
    };
    await assert.rejects(run(), { name: 'AbortError' });
  });
});
