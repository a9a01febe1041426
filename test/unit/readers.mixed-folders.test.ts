// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * One model folder holding files of several formats is one model; a pretty-printed JSON document; diagnostics inside
 * an Inspect .eval; model labels in search results.
 *
 * Trial 12 reader and naming leftovers (helper s8-readers): finding 2, one model per model folder when Qwen-math,
 * flat and rollouts files share it. Each test builds its folder in a temporary directory (writeFolder of helpers.ts)
 * and reads it through the compiled CLI (`report --format json`). Every expected value is the one a person reading
 * the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../src/core/report/index';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnosticPlace } from '../../src/core/model';
import { cli, cliReport, humanEval, indexed, qwen, tempDir, textsById, writeFolder } from './helpers';
import { runCli } from './reliability.support';
import { archive } from './zipArchive';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t12s8-');

/** Models as `<label> <samples>/<correct> [<datasets>]`, sorted. */
const models = (r: Report) =>
  r.models.map((m) => `${m.label} ${m.samples}/${m.correct} [${m.datasets.map((d) => d.dataset).join(',')}]`).sort();

/** Comparisons as `<base label> <- <model label>`, sorted. */
const pairs = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.comparisons.map((c) => `${label.get(c.base)} <- ${label.get(c.model)}`).sort();
};

/** The Qwen-math file name of the trial's layout. */
const QF = 'test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';

/** Rollouts lines (no revision, as the trial's `data/mix`): qid `first + t`, one letter per rollout. */
const rollouts = (model: string | null, spec: string, first = 100): string =>
  spec
    .split(' ')
    .map((word, t) =>
      JSON.stringify({
        qid: first + t,
        question: `r${t}`,
        gold: '1',
        ...(model === null ? {} : { model_name: model }),
        rollouts: [...word].map((v, i) => ({ text: `t${t}.${i}`, correct: v === 'T' })),
      }),
    )
    .join('\n');

// Trial 12 finding 2.
describe('Qwen-math, flat and rollouts files in one model folder are one model', () => {
  test('data/mix2: <model>/math_eval/gsm8k/test_qwen-boxed_*.jsonl beside <model>/humaneval/samples.jsonl_results.jsonl', () => {
    const r = cliReport(
      folder({
        [`Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF TF'),
        'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF TF'),
        [`Qwen2.5-7B-GRPO/math_eval/gsm8k/${QF}`]: qwen('TT FF FF'),
        'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    // was: four models `Qwen2.5-7B (.)`, `Qwen2.5-7B (Qwen2.5-7B/humaneval)`, ... the humaneval copies NOT COMPARED
    assert.deepEqual(models(r), ['Qwen2.5-7B 10/4 [HumanEval,gsm8k]', 'Qwen2.5-7B-GRPO 10/5 [HumanEval,gsm8k]']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO']);
    assert.deepEqual(r.notCompared, []);
  });

  test('data/mix: and a rollouts file <model>/gsm8k_rollouts.jsonl (model_name the folder, and without model_name)', () => {
    for (const named of [true, false]) {
      const r = cliReport(
        folder({
          [`Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF TF'),
          'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF TF'),
          'Qwen2.5-7B/gsm8k_rollouts.jsonl': rollouts(named ? 'Qwen2.5-7B' : null, 'F T'),
          [`Qwen2.5-7B-GRPO/math_eval/gsm8k/${QF}`]: qwen('TT FF FF'),
          'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
          'Qwen2.5-7B-GRPO/gsm8k_rollouts.jsonl': rollouts(named ? 'Qwen2.5-7B-GRPO' : null, 'T T'),
        }),
      );
      // was: a third copy of each model (run `Qwen2.5-7B`), NOT COMPARED
      assert.deepEqual(
        models(r),
        ['Qwen2.5-7B 12/5 [HumanEval,gsm8k]', 'Qwen2.5-7B-GRPO 12/7 [HumanEval,gsm8k]'],
        `model_name ${named}`,
      );
      assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO'], `model_name ${named}`);
      assert.deepEqual(r.notCompared, [], `model_name ${named}`);
    }
  });

  test('siblings: a results root and an org folder, eval/ instead of math_eval/, a flat file right in the model folder', () => {
    const r = cliReport(
      folder({
        [`results/Qwen/Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF'),
        'results/Qwen/Qwen2.5-7B/HumanEval/samples.jsonl': humanEval('TF TF'),
        [`results/Qwen2.5-7B-GRPO/eval/gsm8k/${QF}`]: qwen('TT FF'),
        'results/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(models(r), ['Qwen/Qwen2.5-7B 8/3 [HumanEval,gsm8k]', 'Qwen2.5-7B-GRPO 8/5 [HumanEval,gsm8k]']);
    assert.deepEqual(pairs(r), ['Qwen/Qwen2.5-7B <- Qwen2.5-7B-GRPO']);
  });

  test('siblings: flat and rollouts files without Qwen-math (<model>/math500_rollouts.jsonl beside <model>/humaneval/)', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/math500_rollouts.jsonl': rollouts('Qwen2.5-7B', 'TF FF'),
        'Qwen2.5-7B/humaneval/samples.jsonl_results.jsonl': humanEval('TF TF'),
        'Qwen2.5-7B-GRPO/math500_rollouts.jsonl': rollouts('Qwen2.5-7B-GRPO', 'TT TF'),
        'Qwen2.5-7B-GRPO/humaneval/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(models(r), ['Qwen2.5-7B 8/3 [HumanEval,math500]', 'Qwen2.5-7B-GRPO 8/6 [HumanEval,math500]']);
    assert.deepEqual(pairs(r), ['Qwen2.5-7B <- Qwen2.5-7B-GRPO']);
  });

  test('kept apart: another model name, a temperature variant, seed folders', () => {
    const r = cliReport(
      folder({
        [`Qwen2.5-7B/math_eval/gsm8k/${QF}`]: qwen('TF FF'),
        // rollouts naming another model stay that model
        'Qwen2.5-7B/gsm8k_rollouts.jsonl': rollouts('org/other-model', 'T T'),
        // a sampling at another temperature is a variant of the model, not the model
        'Qwen2.5-7B/humaneval/samples_t0.6.jsonl': humanEval('TF TF'),
        // seed folders stay seed siblings
        'Qwen2.5-7B/seed_1/samples.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(r.models.map((m) => m.id.slice(m.id.indexOf(':') + 1)).sort(), [
      'Qwen2.5-7B',
      'Qwen2.5-7B',
      'Qwen2.5-7B_t0.6',
      'org/other-model',
    ]);
    assert.deepEqual(r.models.map((m) => m.id).sort(), [
      'Qwen2.5-7B',
      'Qwen2.5-7B/humaneval:Qwen2.5-7B_t0.6',
      'Qwen2.5-7B/seed_1:Qwen2.5-7B',
      'Qwen2.5-7B:org/other-model',
    ]);
  });
});

/** Diagnostics as `<severity> <file>:<line>: <message>`, sorted. */
const diags = (r: Report) => r.diagnostics.map((d) => `${d.severity} ${d.file}:${d.line}: ${d.message}`).sort();

describe('a pretty-printed JSON object saved as .json is one document, not one "malformed JSON" per line', () => {
  const sample = { task_id: 'HumanEval/0', completion: '    return 1\n', passed: true };
  const qwenRecord = { idx: 7, gt: '1', code: ['a', 'b'], score: [true, false], pred: ['1', '2'] };

  test('one human-eval sample (indent=2), a Qwen-math record, with a BOM and a blank line before it: read, texts readable', async () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF'),
      'Qwen2.5-7B-GRPO/samples.json': `${JSON.stringify(sample, null, 2)}\n`,
      'Qwen2.5-7B-PPO/test.json': `\uFEFF\n${JSON.stringify(qwenRecord, null, 4)}`,
    });
    const r = cliReport(dir);
    // was: 5 and 16 errors `malformed JSON (...)`, one per line, and the models missing
    assert.deepEqual(diags(r), []);
    assert.deepEqual(r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`).sort(), [
      'Qwen2.5-7B 2/1',
      'Qwen2.5-7B-GRPO 1/1',
      'Qwen2.5-7B-PPO 2/1',
    ]);
    // the sample texts are read back from the file (the record's span is the whole file)
    const index = await indexed(dir);
    try {
      const texts = [...(await textsById(index)).values()].sort();
      assert.deepEqual(texts, ['    return 00', '    return 01', '    return 1\n', 'a', 'b']);
    } finally {
      index.close();
    }
  });

  test('an object holding a list of samples, an invalid pretty-printed object: one error each, naming what and where', () => {
    const text = JSON.stringify(sample, null, 2);
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF'),
        'A/samples.json': JSON.stringify({ model: 'm', samples: [sample, sample] }, null, 2),
        // cut inside the completion string on line 3
        'B/samples.json': text.slice(0, text.indexOf('return') + 3),
      }),
    );
    const errors = diags(r).filter((d) => !d.startsWith('info'));
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.equal(
      errors[0],
      `error A/samples.json:0: a JSON object whose "samples" is a list of 2 flat records, not JSONL: not read (flat results are one JSON object per line); write them one per line: jq -c '.samples[]' samples.json > samples.jsonl`,
    );
    assert.match(
      errors[1],
      /^error B\/samples\.json:3: malformed JSON \(.*\): not read \(a \.json file is read as one JSON document, or as JSONL when its first line is a JSON object\)$/,
    );
  });

  test('siblings unchanged: a pretty-printed array (one error), a JSONL file with one bad line (one error at it), compact one-line .json', () => {
    const r = cliReport(
      folder({
        'A/samples.json': JSON.stringify([sample, sample], null, 2),
        'B/samples.jsonl_results.jsonl': `${humanEval('T')}\n{"task_id": bad\n${humanEval('F', 1)}\n`,
        'C/samples.json': JSON.stringify(sample),
      }),
    );
    assert.deepEqual(diags(r), [
      `error A/samples.json:0: a JSON array of 2 flat records, not JSONL: not read (flat results are one JSON object per line); write them one per line: jq -c '.[]' samples.json > samples.jsonl`,
      `error B/samples.jsonl_results.jsonl:2: malformed JSON (Unexpected token 'b', "{"task_id": bad" is not valid JSON)`,
    ]);
    assert.deepEqual(r.models.map((m) => `${m.label} ${m.samples}`).sort(), ['B 2', 'C 1']);
  });
});

/** An Inspect sample of problem `id` at `epoch`: `verdict` C / I, or none (no score: ungraded); `text` its output. */
const inspectSample = (id: string, epoch: number, verdict: 'C' | 'I' | null, text = `answer ${id}.${epoch}`) => ({
  id,
  epoch,
  input: [{ role: 'user', content: `question ${id}` }],
  target: '4',
  output: { choices: [{ message: { role: 'assistant', content: text }, stop_reason: 'stop' }] },
  scores: verdict === null ? {} : { match: { value: verdict, answer: '4' } },
});

/** An Inspect `.eval` archive of `model`: its header and one entry per sample (or the raw text given). */
const evalLog = (model: string, entries: Record<string, object | string>): Buffer =>
  archive([
    { name: 'header.json', data: JSON.stringify({ version: 2, status: 'success', eval: { task: 'gsm', model } }) },
    ...Object.entries(entries).map(([name, v]) => ({ name, data: typeof v === 'string' ? v : JSON.stringify(v) })),
  ]);

// Trial 12 finding 24.
describe('diagnostics about a sample of an Inspect .eval name its entry, not line 1 of a zip', () => {
  test('an ungraded epoch, an unreadable entry, a sample without text: <file>.eval:samples/<id>_epoch_<n>.json', () => {
    const dir = writeFolder({ 'logs/x.jsonl': humanEval('TF') }, 'ti-t12s8-eval-');
    const id = '12345678901234567890';
    writeFileSync(
      join(dir, 'logs/2025-03-01T10-00-00_gsm_base.eval'),
      evalLog('hf/Qwen2.5-7B', {
        [`samples/${id}_epoch_1.json`]: inspectSample(id, 1, 'C'),
        [`samples/${id}_epoch_2.json`]: inspectSample(id, 2, 'I'),
        [`samples/${id}_epoch_3.json`]: inspectSample(id, 3, null),
        [`samples/${id}_epoch_4.json`]: inspectSample(id, 4, 'C'),
        'samples/2_epoch_1.json': { ...inspectSample('2', 1, 'C'), output: {} },
        'samples/2_epoch_2.json': '{"id": 2, "epoch": 2, "input": ',
      }),
    );
    const { r, text } = cli(dir);
    const evalDiags = r.diagnostics.filter((d) => d.file.endsWith('.eval'));
    assert.deepEqual(
      evalDiags.map((d) => [diagnosticPlace(d), d.line, d.severity]).sort(),
      [
        ['logs/2025-03-01T10-00-00_gsm_base.eval', 0, 'warning'],
        ['logs/2025-03-01T10-00-00_gsm_base.eval:samples/12345678901234567890_epoch_3.json', 0, 'info'],
        ['logs/2025-03-01T10-00-00_gsm_base.eval:samples/2_epoch_1.json', 0, 'warning'],
        ['logs/2025-03-01T10-00-00_gsm_base.eval:samples/2_epoch_2.json', 0, 'error'],
      ],
      evalDiags.map((d) => JSON.stringify(d)).join('\n'),
    );
    // the text report prints the same place (was `logs/2025-03-01T10-00-00_gsm_base.eval:1: info: ...`)
    assert.ok(
      text.includes(
        `logs/2025-03-01T10-00-00_gsm_base.eval:samples/${id}_epoch_3.json: info: problem "${id}" of model hf/Qwen2.5-7B: 1 of its 4 samples has no verdict (ungraded)`,
      ),
      text,
    );
    assert.ok(!/\.eval:1\b/.test(text), text);
    assert.ok(
      text.includes(
        'logs/2025-03-01T10-00-00_gsm_base.eval:samples/2_epoch_1.json: warning: sample 2 epoch 1 has no output text',
      ),
      text,
    );
    // the entry that could not be read is named where the model's unread records are counted
    assert.ok(
      r.warnings.some((w) =>
        w.includes('could not be read (logs/2025-03-01T10-00-00_gsm_base.eval:samples/2_epoch_2.json)'),
      ),
      r.warnings.join('\n'),
    );
    // a line-based file keeps its lines, with no entry
    const jsonl = r.diagnostics.filter((d) => d.file === 'logs/x.jsonl');
    assert.ok(jsonl.every((d) => d.entry === undefined));
  });

  test('sibling: an .eval with no verdict at all is said once for the whole archive (no line, no entry)', () => {
    const dir = writeFolder({ 'logs/x.jsonl': humanEval('TF') }, 'ti-t12s8-eval-');
    writeFileSync(
      join(dir, 'logs/run.eval'),
      evalLog('openai/gpt-4o-mini', {
        'samples/1_epoch_1.json': inspectSample('1', 1, null),
        'samples/2_epoch_1.json': inspectSample('2', 1, null),
      }),
    );
    const r = cliReport(dir);
    const info = r.diagnostics.filter((d) => d.file === 'logs/run.eval' && d.severity === 'info');
    assert.deepEqual(
      info.map((d) => [diagnosticPlace(d), d.message.slice(0, 62)]),
      [['logs/run.eval', 'model openai/gpt-4o-mini has no graded sample in this file: no']],
    );
  });
});

// Trial 12 finding 22 (search part).
describe('search result lines name the model by its label, the JSON keeps the id', () => {
  test('runs/Qwen2.5-7B-GRPO/samples.jsonl: the line says Qwen2.5-7B-GRPO, not runs/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO', () => {
    const dir = folder({
      'runs/Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('F'),
      'runs/Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('T'),
    });
    const tmp = tempDir('ti-t12s8-search-');
    const text = runCli(['search', dir, 'return', '--db', join(tmp, 'i.db'), '-q'], tmp);
    assert.equal(text.status, 0, text.stderr);
    const lines = text.stdout.split('\n').filter((l) => l.startsWith('HumanEval/0'));
    // was: `HumanEval/0  runs/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO  #0  correct`
    assert.deepEqual(lines.sort(), [
      'HumanEval/0  Qwen2.5-7B  #0  incorrect',
      'HumanEval/0  Qwen2.5-7B-GRPO  #0  correct',
    ]);
    const json = JSON.parse(
      runCli(['search', dir, 'return', '--db', join(tmp, 'i.db'), '-q', '--format', 'json'], tmp).stdout,
    );
    assert.deepEqual(json.matches.map((m: { model: string; modelLabel: string }) => [m.model, m.modelLabel]).sort(), [
      ['runs/Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO', 'Qwen2.5-7B-GRPO'],
      ['runs/Qwen2.5-7B:Qwen2.5-7B', 'Qwen2.5-7B'],
    ]);
  });
});
