// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * Readers on the real third-party results folders in ../shared/data/real (never copied into the repo).
 * Expected counts were computed independently from the raw files (python json) and, for the
 * rlvr-probe folder, match its README (SFT 133/240, RL 175/240 correct in results_2048_batched).
 * Run with cwd = the repository root; skipped when the folder is absent.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, ProblemRecord } from '../../src/core/model';
import { detectFile, listCandidateFiles, makeContext, readFile } from '../../src/core/readers/index';

const REAL = path.resolve(process.cwd(), '../shared/data/real');
const skip = !existsSync(REAL) ? 'real data folder ../shared/data/real not found' : false;

async function collect(root: string, rel: string): Promise<{ records: ProblemRecord[]; diags: Diagnostic[] }> {
  const records: ProblemRecord[] = [];
  const diags: Diagnostic[] = [];
  for await (const ev of readFile(makeContext(root, rel))) {
    if (ev.kind === 'problem') records.push(ev.record);
    else if (ev.kind === 'diagnostic') diags.push(ev.diagnostic);
  }
  return { records, diags };
}

function summary(records: ProblemRecord[]) {
  const samples = records.reduce((n, r) => n + r.samples.length, 0);
  const correct = records.reduce((n, r) => n + r.samples.filter((s) => s.correct === true).length, 0);
  const solved = records.filter((r) => r.samples.some((s) => s.correct === true)).length;
  return { problems: records.length, samples, correct, solved };
}

describe('real data', { skip }, () => {
  const root = path.join(REAL, 'rlvr-probe-gsm8k');

  test('rlvr-probe-gsm8k results_2048_batched: RL 30 x 8, 175 correct; SFT 133 correct; shared dataset', async () => {
    const rl = await collect(root, 'results_2048_batched/rl_raw.jsonl');
    assert.deepEqual(rl.diags, []);
    assert.deepEqual(summary(rl.records), { problems: 30, samples: 240, correct: 175, solved: 29 });
    assert.ok(rl.records.every((r) => r.samples.length === 8));
    assert.deepEqual(rl.records[0].model, { name: 'expx/qwen-2.5-1.5b-rlvr-ppo', revision: 'main', source: 'data' });
    assert.deepEqual(
      rl.records.map((r) => r.problemId),
      Array.from({ length: 30 }, (_, i) => String(i)),
    );
    assert.deepEqual(
      rl.records[0].samples.map((s) => s.sampleIndex),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal(rl.records[0].referenceAnswer, '52');
    assert.equal(rl.records[0].samples[0].extractedAnswer, '57');
    assert.equal(rl.records[0].samples[0].correct, false);

    const sft = await collect(root, 'results_2048_batched/sft_raw.jsonl');
    assert.deepEqual(sft.diags, []);
    assert.deepEqual(summary(sft.records), { problems: 30, samples: 240, correct: 133, solved: 28 });
    assert.deepEqual(sft.records[0].model, {
      name: 'ns-0/qwen-2.5-1.5b-instruct-reasoning-sft',
      revision: 'checkpoint-8-of-10',
      source: 'data',
    });
    for (const r of [...rl.records, ...sft.records]) assert.equal(r.dataset, 'gsm8k_subset');
  });

  test('rlvr-probe-gsm8k: checkpoints carry their revision; question file and summaries are not results', async () => {
    const step = await collect(root, 'trajectory/step-300/rl_raw.jsonl');
    assert.deepEqual(summary(step.records).correct, 149);
    assert.equal(step.records[0].model.revision, 'step-300');
    const old = await collect(root, 'results_1024_cuda/rl_raw.jsonl');
    assert.equal(old.records[0].model.revision, null); // no model_revision in that run
    assert.equal(
      (await detectFile(path.join(root, 'data/gsm8k_subset.jsonl'), 'data/gsm8k_subset.jsonl', root)).skipped,
      'unrecognized',
    );
    assert.equal(
      (
        await detectFile(
          path.join(root, 'results_2048_batched/summary.json'),
          'results_2048_batched/summary.json',
          root,
        )
      ).skipped,
      'non-result',
    );
  });

  test('qwen25-math-eval-example: 100 problems x 8 samples with reward scores, 728 correct', async () => {
    const rel = 'qwen25-math-eval-example/math_cot_100.jsonl';
    const c = await collect(REAL, rel);
    assert.deepEqual(c.diags, []);
    assert.deepEqual(summary(c.records), { problems: 100, samples: 800, correct: 728, solved: 96 });
    assert.ok(
      c.records.every((r) => r.samples.length === 8 && r.samples.every((s) => typeof s.rewardScore === 'number')),
    );
    const r0 = c.records[0];
    assert.deepEqual(r0.model, { name: 'qwen25-math-eval-example', revision: null, source: 'path' });
    assert.equal(r0.dataset, 'math_cot_100');
    assert.equal(r0.problemId, '0');
    assert.equal(r0.referenceAnswer, '420');
    assert.equal(r0.level, '3');
    assert.deepEqual(
      r0.samples.map((s) => s.rewardScore),
      [3.546875, 3.515625, 3.46875, 3.46875, 3.265625, 3.328125, 3.5, 3.4375],
    );
    assert.equal(r0.samples[0].extractedAnswer, '420');
  });

  test('humaneval-samples-flat: 164 tasks x 10 samples, 1078 passed; the ungraded samples file is superseded', async () => {
    const dir = 'humaneval-samples-flat/hEvalData';
    const c = await collect(REAL, `${dir}/hEvalTest35_noExp_1dPro_1CPT_500Tkns_10SPT_Samples.jsonl_results.jsonl`);
    assert.deepEqual(c.diags, []);
    assert.equal(c.records.length, 1640);
    const perTask = new Map<string, number>();
    for (const r of c.records) perTask.set(r.problemId, (perTask.get(r.problemId) ?? 0) + r.samples.length);
    assert.equal(perTask.size, 164);
    assert.ok([...perTask.values()].every((n) => n === 10));
    assert.equal(summary(c.records).correct, 1078);
    assert.deepEqual(c.records[0].model, {
      name: 'hEvalTest35_noExp_1dPro_1CPT_500Tkns_10SPT_Samples',
      revision: null,
      source: 'path',
    });
    assert.equal(c.records[0].dataset, 'HumanEval');
    const ungraded = `${dir}/hEvalTest35_noExp_1dPro_1CPT_500Tkns_10SPT_Samples.jsonl`;
    assert.equal((await detectFile(path.join(REAL, ungraded), ungraded, REAL)).skipped, 'superseded');
  });

  test('tot-game24: three methods as models, 100 problems each, labels from accs and infos[].r', async () => {
    const dir = 'tot-game24/logs/game24';
    const expect: Record<string, [string, number, number, number]> = {
      'gpt-4_0.7_naive_cot_sample_100_start900_end1000.json': ['gpt-4_0.7_naive_cot_sample_100', 10000, 403, 49],
      'gpt-4_0.7_naive_standard_sample_100_start900_end1000.json': [
        'gpt-4_0.7_naive_standard_sample_100',
        10000,
        734,
        33,
      ],
      'gpt-4_0.7_propose1_value3_greedy5_start900_end1000.json': ['gpt-4_0.7_propose1_value3_greedy5', 500, 119, 69],
    };
    for (const [file, [model, samples, correct, solved]] of Object.entries(expect)) {
      const c = await collect(REAL, `${dir}/${file}`);
      assert.deepEqual(c.diags, [], file);
      assert.deepEqual(summary(c.records), { problems: 100, samples, correct, solved }, file);
      assert.equal(c.records[0].model.name, model);
      assert.equal(c.records[0].dataset, 'game24');
      assert.equal(c.records[0].problemId, '900');
      assert.equal(c.records[0].question, '4 5 6 10'); // row 900 of tot-game24/24.csv
      assert.equal(c.records[99].question, '4 9 10 13');
    }
  });

  test('inspect-logs: .eval and .json logs', async () => {
    const cases: [string, string, string, number, number][] = [
      ['inspect-logs/tests/log/test_eval_log/log_read_sample.eval', 'ollama/gemma3', 'popularity', 1, 1],
      ['inspect-logs/tests/log/test_eval_log/log_read_sample.json', 'ollama/gemma3', 'popularity', 1, 1],
      [
        'inspect-logs/tests/scorer/logs/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval',
        'openai/gpt-4o-mini',
        'popularity',
        10,
        8,
      ],
      ['inspect-logs/tests/analysis/test_logs_choices/mmlu-summary-choices.eval', 'openai/gpt-4o', 'cais/mmlu', 1, 0],
      [
        'inspect-logs/tests/analysis/test_logs/2025-05-12T20-28-13-04-00_popularity.json',
        'openai/gpt-4o-mini',
        'popularity',
        3,
        2,
      ],
    ];
    for (const [rel, model, dataset, problems, correct] of cases) {
      const c = await collect(REAL, rel);
      assert.deepEqual(c.diags, [], rel);
      assert.deepEqual([c.records.length, summary(c.records).correct], [problems, correct], rel);
      const { grader, ...ref } = c.records[0].model;
      assert.deepEqual(ref, { name: model, revision: null, source: 'data', run: rel }, rel);
      assert.match(grader ?? '', /^scorer "\w+"$/, rel);
      assert.equal(c.records[0].dataset, dataset, rel);
    }
    // unscored run: samples are ungraded, not incorrect
    const unscored = await collect(
      REAL,
      'inspect-logs/tests/scorer/logs/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval',
    );
    assert.equal(unscored.records.length, 10);
    assert.ok(unscored.records.every((r) => r.samples.every((s) => s.correct === null)));
    const mmlu = await collect(REAL, 'inspect-logs/tests/analysis/test_logs_choices/mmlu-summary-choices.eval');
    assert.deepEqual(
      mmlu.records[0].samples.map((s) => [s.text, s.extractedAnswer, s.correct]),
      [['ANSWER: C', 'C', false]],
    );
    assert.equal(mmlu.records[0].referenceAnswer, 'A');
  });

  test('listing the whole real folder: every file has the expected format or skip reason', async () => {
    // Counted per top-level folder, so a folder added to ../shared/data/real later is checked for
    // "a format or a reason" without changing the expectations of the folders known here.
    const files = await listCandidateFiles(REAL);
    const byFolder: Record<string, Record<string, number>> = {};
    for (const f of files) {
      const d = await detectFile(path.join(REAL, f), f, REAL);
      const key = d.format ?? `skip:${d.skipped}`;
      assert.ok(d.format || d.skipped, `${f}: neither a format nor a skip reason`);
      const top = f.split('/')[0];
      const counts = (byFolder[top] ??= {});
      counts[key] = (counts[key] ?? 0) + 1;
      // files that are not read say why, once (info); the others have no diagnostic
      if (d.skipped === 'unrecognized' || d.skipped === 'superseded') {
        assert.equal(d.diagnostics.length, 1, f);
        assert.equal(d.diagnostics[0].severity, 'info', f);
        assert.match(d.diagnostics[0].message, /^not a results file: /, f);
      } else assert.deepEqual(d.diagnostics, [], f);
    }
    const expected: Record<string, Record<string, number>> = {
      'humaneval-samples-flat': { flat: 1, 'skip:superseded': 1 },
      'inspect-logs': { inspect: 6 },
      'qwen25-math-eval-example': { 'qwen-math': 1 },
      'rlvr-probe-gsm8k': { rollouts: 12, 'skip:non-result': 12, 'skip:unrecognized': 1 }, // data/gsm8k_subset.jsonl: questions only
      'tot-game24': { tot: 3 },
      // 22 scorer files (scores without texts or verdicts), RewardMATH_direct.json, test500.jsonl:
      // none is a results file on its own (a mapping file describes them; see docs/mapping.md)
      'rewardmath-22-scorers': { 'skip:unrecognized': 24 },
    };
    for (const [folder, counts] of Object.entries(expected)) assert.deepEqual(byFolder[folder], counts, folder);
  });
});
