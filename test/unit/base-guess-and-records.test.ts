/**
 * The base guess beside Instruct releases, short labels with run and step, unreadable records and short score lists
 * named at their line, seed files merged, the lucky-guess queue's hint, one info per ungraded model.
 *
 * Regressions of the fresh-user trial 4: each folder is built here after /work/trial4-scratch (gen.py),
 * indexed into real SQLite and read by the core and the CLI's renderers; the right values are worked
 * out by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
import { buildReport } from '../../src/core/report';
import { tempDir } from './helpers';

function put(dir: string, rel: string, lines: unknown[]): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** One Qwen2.5-Math record with the given verdicts (answer "1" when correct, else "2"). */
function qwen(idx: number, scores: boolean[]) {
  return {
    idx,
    question: `q${idx}`,
    gt: '1',
    code: scores.map((s) => `\\boxed{${s ? 1 : 2}}`),
    score: scores,
    pred: scores.map((s) => (s ? '1' : '2')),
  };
}

const FILE = 'math_eval/math500/test_qwen25-math-cot_-1_seed0_t1.0_s0_e-1.jsonl';

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

// Trial 4 finding 4.
describe('a record that could not be read is named as such, with file and line', () => {
  /** rl-mut/: base 4 problems; step-100's last record truncated (line 4), step-200's line 2 bad JSON. */
  function mutFolder(): string {
    const dir = tempDir('trial4-mut-');
    const rec = (i: number) => JSON.stringify(qwen(i, [true, false]));
    const write = (rel: string, lines: string[]) => {
      mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
      writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${l}\n`).join(''));
    };
    write('qwen-base/math_eval/synth/test_qwen.jsonl', [0, 1, 2, 3].map(rec));
    write('qwen-grpo/step-100/math_eval/synth/test_qwen.jsonl', [rec(0), rec(1), rec(2), rec(3).slice(0, 40)]);
    write('qwen-grpo/step-200/math_eval/synth/test_qwen.jsonl', [rec(0), '{idx: 1, "score": [true]}', rec(2), rec(3)]);
    return dir;
  }
  const FILE100 = 'qwen-grpo/step-100/math_eval/synth/test_qwen.jsonl';
  const FILE200 = 'qwen-grpo/step-200/math_eval/synth/test_qwen.jsonl';

  test('the report and the overview count the unreadable records of each model and say where', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, mutFolder());
    const byName = new Map(index.models().map((m) => [m.displayId, m]));
    assert.deepEqual(
      index.unreadableRecords(byName.get('qwen-grpo/step-100')!.id).map((d) => `${d.file}:${d.line}`),
      [`${FILE100}:4`],
    );
    assert.deepEqual(
      index.unreadableRecords(byName.get('qwen-grpo/step-200')!.id).map((d) => `${d.file}:${d.line}`),
      [`${FILE200}:2`],
    );
    assert.deepEqual(index.unreadableRecords(byName.get('qwen-base')!.id), []);
    const r = buildReport(index, { replicates: 50 });
    // step-100 lacks problem 3 (its record is the truncated line 4): not "has no record of it"
    const cmp = r.warnings.find((w) => w.startsWith('qwen-grpo/step-100 vs qwen-base'));
    assert.equal(
      cmp,
      `qwen-grpo/step-100 vs qwen-base: compared over 3 of the 4 problems of the two models: 1 only qwen-base has it: qwen-grpo/step-100 has no readable record of it (problem "3"); 1 record of qwen-grpo/step-100 could not be read (${FILE100}:4)`,
    );
    assert.ok(
      r.warnings.includes(
        `qwen-grpo/step-200: 1 record could not be read (${FILE200}:2): left out of every figure; each is listed with its reason in the Problems panel (CLI: the diagnostics)`,
      ),
      r.warnings.join('\n'),
    );
    const { overviewData } = await import('../../src/extension/panelData');
    const base = byName.get('qwen-base')!;
    const o = overviewData(index, { baseId: base.id, baseIsChoice: true }, 50);
    // the overview says the same with the models' labels: the two models' unreadable records, and the
    // reason of both comparisons (step-200's bad line 2 was problem 1's record: it lacks problem 1)
    const unreadable = o.warnings.filter((w) => w.includes('could not be read ('));
    assert.equal(unreadable.length, 4, o.warnings.join('\n'));
    assert.ok(o.warnings.some((w) => w.includes(`has no readable record of it (problem "1"); 1 record of`)));
    assert.ok(o.warnings.some((w) => w.includes(`has no readable record of it (problem "3"); 1 record of`)));
    index.close();
  });
});

// Trial 4 finding 5.
describe('reward-model score lists shorter than the samples, and null scores, at their line', () => {
  /** rl-rm3/: qwen-base, 3 problems of 4 samples; rm/<scorer>.jsonl scores them per problem (`s` lists). */
  function rmFolder(bad: unknown[]): string {
    const dir = tempDir('trial4-rm-');
    put(
      dir,
      'qwen-base/math_eval/synth/test_qwen.jsonl',
      [0, 1, 2].map((i) => qwen(i, [true, false, true, false])),
    );
    writeFileSync(
      join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify([
        {
          files: ['rm/*.jsonl'],
          records: 'per-problem',
          fields: { problemId: 'id' },
          scores: [{ path: 's', scorerFromFile: '(.+)\\.jsonl' }],
          model: 'qwen-base',
          dataset: 'synth',
        },
      ]),
    );
    put(
      dir,
      'rm/orm_good.jsonl',
      [0, 1, 2].map((id) => ({ id, s: [0.9, 0.1, 0.8, 0.2] })),
    );
    put(dir, 'rm/orm_bad.jsonl', bad);
    return dir;
  }
  const messages = async (dir: string) => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const out = index.diagnostics().map((d) => `${d.file}:${d.line}: ${d.message}`);
    index.close();
    return out;
  };

  test('a list of 3 scores for 4 samples (line 2) and one of 2 (line 3): one warning at line 2 counting 3 samples', async () => {
    const d = await messages(
      rmFolder([
        { id: 0, s: [0.1, 0.2, 0.3, 0.4] },
        { id: 1, s: [0.1, 0.2, 0.9] },
        { id: 2, s: [0.5, 0.6] },
      ]),
    );
    // problem 1 lacks sample 3, problem 2 samples 2 and 3: 3 samples in 2 problems; orm_good is complete
    assert.deepEqual(
      d.filter((m) => m.includes('while other samples')),
      [
        'rm/orm_bad.jsonl:2: 3 samples in 2 problems have no orm_bad score in this file while other samples of the problem do (a score list shorter than the samples?): those samples are in no best-of-k over orm_bad (first: line 2, problem "1", sample 3 of its 4)',
      ],
    );
  });

  test('siblings: a per-problem file that leaves out a whole problem is no short list; a complete file says nothing', async () => {
    const d = await messages(
      rmFolder([
        { id: 0, s: [0.1, 0.2, 0.3, 0.4] },
        { id: 2, s: [0.5, 0.6, 0.7, 0.8] },
      ]),
    );
    assert.deepEqual(
      d.filter((m) => m.includes('orm_')),
      [],
    );
  });

  test('a null score is named at its line with its sample, not at line 0', async () => {
    const d = await messages(
      rmFolder([
        { id: 0, s: [0.1, 0.2, 0.3, 0.4] },
        { id: 1, s: [0.1, 0.2, null, 0.4] },
        { id: 2, s: [null, 0.6, null, 0.8] },
      ]),
    );
    assert.ok(
      d.includes(
        'rm/orm_bad.jsonl:2: 3 samples have no orm_bad score in this file (null or missing; first at line 2, sample 2)',
      ),
      d.join('\n'),
    );
    assert.ok(!d.some((m) => m.startsWith('rm/orm_bad.jsonl:0:')), d.join('\n'));
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
    const { isSeedShard } = await import('../../src/core/index/indexer');
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

// Trial 4 finding 8.
describe('the lucky-guess queue at n = 4 says why it is empty, and 1/8 reads 12.5%', () => {
  test('percent keeps one decimal when it is not a whole percent', async () => {
    const { percent } = await import('../../src/core/thresholds');
    assert.equal(percent(0.125), '12.5%');
    assert.equal(percent(0.25), '25%');
    assert.equal(percent(1 / 3), '33.3%');
    assert.equal(percent(1), '100%');
  });

  test('n = 4 (max graded from the index): 1/4 = 25% > 12.5%, the setting named; n = 8 or 16: no hint', async () => {
    const { luckyGuessHint } = await import('../../src/core/thresholds');
    const dir = tempDir('trial4-lucky-');
    put(
      dir,
      'm-grpo/step-1/math_eval/synth/test_qwen.jsonl',
      [0, 1].map((i) => qwen(i, [true, false, false, i === 0])),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const n = index.maxGraded(index.models()[0].id);
    assert.equal(n, 4);
    assert.equal(
      luckyGuessHint(n, 0.125),
      'with at most 4 graded samples per problem the smallest non-zero rate is 1/4 (25%), above 12.5%: no problem can match; raise the setting traceInspector.luckyGuessThreshold to at least 1/4',
    );
    assert.equal(luckyGuessHint(8, 0.125), undefined, '1/8 = 12.5% can match');
    assert.equal(luckyGuessHint(16, 0.125), undefined);
    assert.equal(luckyGuessHint(0, 0.125), undefined);
    index.close();
  });
});

// Trial 4 finding 12.
describe('a model with no graded sample in a file gets one info, not one per problem', () => {
  test('the real Inspect log without scores: one info naming the model and its 10 problems', async () => {
    const root = '../shared/data/real/inspect-logs';
    const rel = 'tests/scorer/logs/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval';
    const index = TraceIndex.open(join(tempDir('trial4-unscored-'), 'i.db'));
    await indexFolder(index, root);
    const infos = index
      .diagnostics()
      .filter((d) => d.file === rel && /graded sample/.test(d.message))
      .map((d) => `${d.line}:${d.message}`);
    // said of the whole archive (line 0), not of line 1 of a zip (trial 12 finding 24)
    assert.deepEqual(infos, [
      '0:model openai/gpt-4o-mini has no graded sample in this file: none of its 10 problems ("1", "2", "3", ...; 10 samples) has a verdict: they count in "missing" of every figure of this model',
    ]);
    index.close();
  });

  test('a file where only some problems are ungraded still names each of them', async () => {
    const dir = tempDir('trial4-someungraded-');
    // problem 0 graded; problems 1 and 2 without any verdict (score null)
    put(dir, `m/${FILE}`, [
      qwen(0, [true, false]),
      { ...qwen(1, [true, true]), score: [null, null] },
      { ...qwen(2, [true]), score: [null] },
    ]);
    const index = TraceIndex.open(join(dir, 'i.db'));
    await indexFolder(index, dir);
    const infos = index
      .diagnostics()
      .filter((d) => /no graded sample/.test(d.message))
      .map((d) => `${d.line}:${d.message.slice(0, 40)}`);
    assert.deepEqual(infos, [
      '2:problem "1" of model m has no graded sam',
      '3:problem "2" of model m has no graded sam',
    ]);
    index.close();
  });
});
