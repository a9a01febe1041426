// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * Which model is the base and how models are labelled when a folder holds a pretrained model, its Instruct release
 * and RL runs: the pretrained model is the base, short labels keep the run and the step, a second seed file of a
 * model is merged into it.
 *
 * Regressions of the fresh-user trial 4 (findings 1, 2 and 6; its findings 4, 5 and 12 are in
 * readers.unusable-records.test.ts, 8 in lucky-guess-queue.test.ts): each folder is built here after
 * /work/trial4-scratch (gen.py), indexed into real SQLite and read by the core and the CLI's renderers; the right
 * values are worked out by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { reportTable } from '../../src/cli/main';
import { indexFolder } from '../../src/core/index/indexer';
import {
  comparisonBase,
  defaultFocusModel,
  distinctiveLabels,
  guessBaseModel,
  type ModelIdentity,
} from '../../src/core/index/labels';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { tempDir } from './helpers';
import { QWEN_FILE as FILE, putJsonLines as put, qwenRecord as qwen } from './qwenRecords';

/** The trial's many/ folder: a pretrained model, its Instruct release and three RL runs (4 problems, n = 4). */
function manyFolder(instructName = 'Qwen2.5-Math-7B-Instruct'): string {
  const dir = tempDir('trial4-many-');
  const records = [0, 1, 2, 3].map((i) => qwen(i, [i % 2 === 0, false, true, false]));
  const models = [
    'Qwen2.5-Math-7B',
    instructName,
    ...[100, 200].map((s) => `grpo-lr1e-6/global_step_${s}`),
    ...[100, 200].map((s) => `grpo-lr3e-6/global_step_${s}`),
    'ppo-kl0.01/checkpoint-500',
    'ppo-kl0.01/checkpoint-1000',
  ];
  for (const m of models) put(dir, `${m}/${FILE}`, records);
  return dir;
}

const ids = (ms: ModelIdentity[]) => ms.map((x, i) => ({ ...x, id: i + 1 }));
const named = (...names: string[]) => ids(names.map((name) => ({ run: '', name, revision: null })));

// Trial 4 finding 1.
describe('a pretrained model beside its Instruct release is the base', () => {
  test('many/: base Qwen2.5-Math-7B, focus the final checkpoint of the last run, the CLI says so', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, manyFolder());
    const models = index.models();
    const base = models[guessBaseModel(models)];
    assert.equal(base.displayId, 'Qwen2.5-Math-7B');
    // runs in natural order: grpo-lr1e-6, grpo-lr3e-6, ppo-kl0.01 (the last); its largest step is 1000
    const focus = defaultFocusModel(models);
    assert.equal(focus?.displayId, 'ppo-kl0.01/checkpoint-1000');
    assert.equal(comparisonBase(models, focus!, base, false)?.displayId, 'Qwen2.5-Math-7B');
    const table = reportTable(buildReport(index, { replicates: 50 }));
    assert.match(table, /base model: Qwen2.5-Math-7B \(guessed/);
    // the Instruct model is compared with the base like the RL checkpoints; the base with nothing
    const comparisons = table.slice(table.indexOf('base model:'));
    assert.match(comparisons, /\nQwen2.5-Math-7B-Instruct +4 /);
    assert.doesNotMatch(comparisons, /\nQwen2.5-Math-7B +4 /);
    index.close();
  });

  test('siblings: -Chat, -it, -Instruct-v0.2, _instruct; the plain model is the base, an RL model in focus', () => {
    for (const [plain, variant] of [
      ['Qwen-7B', 'Qwen-7B-Chat'],
      ['gemma-2-9b', 'gemma-2-9b-it'],
      ['Mistral-7B-v0.2', 'Mistral-7B-Instruct-v0.2'],
      ['llama_8b', 'llama_8b_instruct'],
      ['org/Qwen2.5-Math-1.5B', 'org/Qwen2.5-Math-1.5B-Instruct'],
    ]) {
      // the variant listed first: ties would go to it, so the rule (not the order) decides
      const ms = named(variant, plain, 'grpo/global_step_50', 'grpo/global_step_90');
      assert.equal(ms[guessBaseModel(ms)].name, plain, variant);
      assert.equal(defaultFocusModel(ms)?.name, 'grpo/global_step_90', variant);
    }
  });

  test('an Instruct model without its pretrained model stays base-like; an SFT model stays the base', () => {
    const alone = named('Qwen-7B-Instruct', 'Qwen-7B-Instruct-GRPO');
    assert.equal(alone[guessBaseModel(alone)].name, 'Qwen-7B-Instruct');
    // RL starts from the SFT model: it is the base RL is compared with, not the pretrained model
    const sft = named('Qwen-7B', 'Qwen-7B-SFT', 'grpo/step_10');
    assert.equal(sft[guessBaseModel(sft)].name, 'Qwen-7B-SFT');
    // words that merely contain "it"/"chat" are no variant: `Qwen-7B-lit` is no release of `Qwen-7B`
    const lit = named('Qwen-7B-lit', 'Qwen-7B');
    assert.equal(lit[guessBaseModel(lit)].name, 'Qwen-7B-lit', 'a tie goes to the first listed');
  });

  test('no RL model at all: the Instruct model is in focus (the only model besides the base)', () => {
    const ms = named('Qwen-7B', 'Qwen-7B-Instruct');
    assert.equal(defaultFocusModel(ms)?.name, 'Qwen-7B-Instruct');
  });
});

// Trial 4 finding 2.
describe('short model labels keep the run and the step', () => {
  test('many/: `<run> · step-<n>` for checkpoint folders; the pretrained model whole, its release by what it adds', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, manyFolder());
    const models = index.models();
    const labels = distinctiveLabels(models);
    assert.deepEqual(models.map((m, i) => `${m.displayId} -> ${labels[i]}`).sort(), [
      'Qwen2.5-Math-7B -> Qwen2.5-Math-7B',
      'Qwen2.5-Math-7B-Instruct -> Instruct',
      'grpo-lr1e-6/global_step_100 -> grpo-lr1e-6 · step-100',
      'grpo-lr1e-6/global_step_200 -> grpo-lr1e-6 · step-200',
      'grpo-lr3e-6/global_step_100 -> grpo-lr3e-6 · step-100',
      'grpo-lr3e-6/global_step_200 -> grpo-lr3e-6 · step-200',
      'ppo-kl0.01/checkpoint-1000 -> ppo-kl0.01 · step-1000',
      'ppo-kl0.01/checkpoint-500 -> ppo-kl0.01 · step-500',
    ]);
    for (const l of labels) assert.ok(l.length <= 25, l);
    index.close();
  });

  test('siblings: step-N, ckpt_N, iter_N under one run; a long run name shortened to its distinct end', () => {
    assert.deepEqual(distinctiveLabels(named('qwen-base', 'qwen-grpo/step-100', 'qwen-grpo/step-200')), [
      'qwen-base',
      'qwen-grpo · step-100',
      'qwen-grpo · step-200',
    ]);
    assert.deepEqual(distinctiveLabels(named('exp/a/ckpt_3', 'exp/b/iter_0001000')), ['a · step-3', 'b · step-1000']);
    assert.deepEqual(
      distinctiveLabels(named('qwen2.5-7b-grpo-lr1e-6-kl0/global_step_5', 'qwen2.5-7b-grpo-lr3e-6-kl0/global_step_5')),
      ['lr1e-6-kl0 · step-5', 'lr3e-6-kl0 · step-5'],
    );
    // the same last run folder under two parents: the distinct end of the whole run path
    assert.deepEqual(distinctiveLabels(named('seed1/grpo/step_5', 'seed2/grpo/step_5')), [
      'seed1/grpo · step-5',
      'seed2/grpo · step-5',
    ]);
  });
});

// Trial 4 finding 6.
describe('a second seed file of the same model is merged, not skipped line by line', () => {
  test('rl-dup/: test_qwen_seed1.jsonl beside test_qwen.jsonl gives n = 8 per problem and one info, no duplicate warning', async () => {
    const dir = tempDir('trial4-dup-');
    // seed 0: 1 of 4 correct on every problem; seed 1: 3 of 4: together 4 of 8
    put(
      dir,
      'qwen-base/math_eval/synth/test_qwen.jsonl',
      [0, 1, 2].map((i) => qwen(i, [true, false, false, false])),
    );
    put(
      dir,
      'qwen-base/math_eval/synth/test_qwen_seed1.jsonl',
      [0, 1, 2].map((i) => qwen(i, [true, true, true, false])),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const [m] = index.models();
    assert.equal(m.samples, 24);
    assert.equal(m.correct, 12);
    const d = index.diagnostics();
    assert.deepEqual(
      d.filter((x) => x.message.includes('duplicate')),
      [],
    );
    const info = d.filter((x) => x.message.includes('seed shard'));
    assert.equal(info.length, 1);
    assert.equal(info[0].file, 'qwen-base/math_eval/synth/test_qwen_seed1.jsonl');
    assert.match(
      info[0].message,
      /of 3 problems that already have samples .* from qwen-base\/math_eval\/synth\/test_qwen.jsonl/,
    );
    // sample indices 0..7 per problem, none twice
    const r = buildReport(index, { replicates: 20 });
    assert.equal(r.models[0].passAtK.find((p) => p.k === 8)?.value, 1);
    index.close();
  });

  test('isSeedShard: the seed spellings merge; another version of the file does not', async () => {
    const { isSeedShard } = await import('../../src/core/index/writer');
    const d = 'm/math_eval/synth/';
    for (const b of [
      'test_qwen_seed1.jsonl',
      'test_qwen-seed1.jsonl',
      'test_qwen.seed1.jsonl',
      'test_qwen_seed_1.jsonl',
      'test_qwen_s1.jsonl',
      'test_qwen_run1.jsonl',
    ])
      assert.ok(isSeedShard(`${d}test_qwen.jsonl`, `${d}${b}`), b);
    assert.ok(
      isSeedShard(
        `${d}test_qwen25-math-cot_-1_seed0_t1.0_s0_e-1.jsonl`,
        `${d}test_qwen25-math-cot_-1_seed1_t1.0_s0_e-1.jsonl`,
      ),
    );
    assert.ok(!isSeedShard(`${d}test_qwen.jsonl`, `${d}test_qwen_v2.jsonl`));
    assert.ok(!isSeedShard(`${d}test_qwen.jsonl`, `other/test_qwen_seed1.jsonl`));
    assert.ok(!isSeedShard(`${d}test_qwen.jsonl`, `${d}test_qwen.jsonl`));
  });

  test('a copy under another name is still a duplicate: skipped with its warning', async () => {
    const dir = tempDir('trial4-dup2-');
    put(
      dir,
      'qwen-base/math_eval/synth/test_qwen.jsonl',
      [0, 1].map((i) => qwen(i, [true, false])),
    );
    put(
      dir,
      'qwen-base/math_eval/synth/test_qwen_copy.jsonl',
      [0, 1].map((i) => qwen(i, [true, false])),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.equal(index.models()[0].samples, 4);
    assert.equal(index.diagnostics().filter((x) => x.message.includes('duplicate problem id')).length, 2);
    index.close();
  });
});
