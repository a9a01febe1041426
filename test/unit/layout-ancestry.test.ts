// sqlite-parity: skip — how a folder's layout names models, datasets and bases; the index is the CLI's storage only
/**
 * How a name and a folder layout give the model and its base: logging-tool folders, temperature spellings, name
 * ancestry, base replicates, step folders with a temperature below, benchmark folders above the model folders
 * (trial 12 finding 11, once in report-base-pools.test.ts).
 *
 * Trial 12 findings on model naming and pairing, fixed in the order of the brief: 4 logging-tool folders below the
 * logging folder (MLflow `mlruns/<exp>/<run id>/artifacts/`, wandb `files/media/table/`, TensorBoard `events/`) named
 * the model; 12 temperature folders spelt `T=0.8/`, `t=0.6/`, `tmp0.6/`, `sampling_temp_0.8_top_p_0.95/` were no
 * temperature; 3 name ancestry took the shortest base a name extends, and paired a model of another family silently;
 * 10 replicate folders of the base were a base and a NOT COMPARED copy. Each test builds its folder in a temporary
 * directory (writeFolder, flatLines of helpers.ts) and reads it through the compiled CLI (`report --format json`).
 * Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../src/core/report/index';
import { cli, cliReport, flatLines, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t12-');

/** Flat lines, bare problem numbers as task ids (helpers.ts flatLines). */
const flat = (spec: string): string => flatLines(spec);

/** Comparisons as `<base label> <- <model label>`, sorted. */
const pairs = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.comparisons.map((c) => `${label.get(c.base)} <- ${label.get(c.model)}`).sort();
};

/** Models as `<label> <samples>/<correct>`, sorted. */
const models = (r: Report) => r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`).sort();

// Trial 12 finding 4.
describe('logging-tool folders below the logging folder (mlruns/<exp>/<run>/artifacts, wandb media/table, tensorboard events) name no model', () => {
  test('MLflow, wandb, TensorBoard and Lightning layouts: the model folder above the logging folder names the model', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-PPO/mlruns/0/3f2a9c1e8b7d4e6f/artifacts/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-DPO/mlruns/12/abcdef0123456789abcdef0123456789/artifacts/eval/samples.jsonl':
          flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/wandb/run-20250115_102030-abc123/files/media/table/samples.jsonl': flat('TTTT TTTT TTTT'),
        'Qwen2.5-7B-KTO/tensorboard/events/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-RLOO/lightning_logs/version_0/samples.jsonl': flat('TTTF TTTF TTTF'),
        // siblings: a run id right below the experiment, a tracking server's mlartifacts/, wandb media/images,
        // tb_logs/<...>/events
        'Qwen2.5-7B-DAPO/mlruns/0/abc123/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-REINFORCE/mlartifacts/3/7b2c0d9e/artifacts/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-SimpleRL/wandb/latest-run/files/media/images/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-Zero/tb_logs/plugins/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // was: models `artifacts` (twice), `table`, `events`, `abc123`
    assert.deepEqual(models(r), [
      'Qwen2.5-7B 12/3',
      'Qwen2.5-7B-DAPO 12/6',
      'Qwen2.5-7B-DPO 12/9',
      'Qwen2.5-7B-GRPO 12/12',
      'Qwen2.5-7B-KTO 12/6',
      'Qwen2.5-7B-PPO 12/6',
      'Qwen2.5-7B-REINFORCE 12/9',
      'Qwen2.5-7B-RLOO 12/9',
      'Qwen2.5-7B-SimpleRL 12/6',
      'Qwen2.5-7B-Zero 12/12',
    ]);
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B <- Qwen2.5-7B-DAPO',
      'Qwen2.5-7B <- Qwen2.5-7B-DPO',
      'Qwen2.5-7B <- Qwen2.5-7B-GRPO',
      'Qwen2.5-7B <- Qwen2.5-7B-KTO',
      'Qwen2.5-7B <- Qwen2.5-7B-PPO',
      'Qwen2.5-7B <- Qwen2.5-7B-REINFORCE',
      'Qwen2.5-7B <- Qwen2.5-7B-RLOO',
      'Qwen2.5-7B <- Qwen2.5-7B-SimpleRL',
      'Qwen2.5-7B <- Qwen2.5-7B-Zero',
    ]);
    assert.deepEqual(r.notCompared, []);
    // `artifacts/` of two MLflow runs is no dataset folder
    assert.deepEqual(
      r.datasets.map((d) => d.dataset),
      ['default'],
    );
  });

  test('a dataset folder below MLflow artifacts/ is compared with the base copy of that dataset; mlruns/<name>/ still names a model', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/gsm8k/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/math500/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-PPO/mlruns/0/3f2a9c1e8b7d4e6f/artifacts/gsm8k/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-PPO/mlruns/0/3f2a9c1e8b7d4e6f/artifacts/math500/samples.jsonl': flat('TTTT TTTT TTTT'),
        'mlruns/Qwen2.5-7B-GRPO/gsm8k/samples.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B (Qwen2.5-7B/gsm8k) <- Qwen2.5-7B-GRPO',
      'Qwen2.5-7B (Qwen2.5-7B/gsm8k) <- Qwen2.5-7B-PPO (Qwen2.5-7B-PPO/mlruns/0/3f2a9c1e8b7d4e6f/artifacts/gsm8k)',
      'Qwen2.5-7B (Qwen2.5-7B/math500) <- Qwen2.5-7B-PPO (Qwen2.5-7B-PPO/mlruns/0/3f2a9c1e8b7d4e6f/artifacts/math500)',
    ]);
    assert.deepEqual(r.notCompared, []);
  });
});

// Trial 12 finding 12.
describe('T=0.8/, t=0.6/, tmp0.6/, sampling_temp_0.8_top_p_0.95/ are temperatures; the cross-temperature warning is true', () => {
  test('data/greedy: the RL model at 0.8 (T=0.8/, sampling_temp_0.8_top_p_0.95/) against the base at 0.8, greedy against t0.0', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples_t0.0.jsonl': flat('T F F'),
        'Qwen2.5-7B/samples_temperature=0.8.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/greedy/samples.jsonl': flat('T T F'),
        'Qwen2.5-7B-GRPO/T=0.8/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/sampling_temp_0.8_top_p_0.95/samples.jsonl': flat('TTTF TTTF TTTF'),
      }),
    );
    // was: models `T=0.8` and `sampling_temp_0.8_top_p_0.95` against the greedy base, the base at 0.8 NOT COMPARED
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B_t0.0 <- Qwen2.5-7B-GRPO_greedy',
      'Qwen2.5-7B_temperature0.8 <- Qwen2.5-7B-GRPO_t0.8',
      'Qwen2.5-7B_temperature0.8 <- Qwen2.5-7B-GRPO_temp0.8',
    ]);
    assert.deepEqual(r.notCompared, []);
    assert.deepEqual(r.warnings, []);
  });

  test('siblings: t=0.6/, tmp0.6/, temperature=0.7/, temp-0.6/, top_k_20_temp0.6_n8/ folders and a T=0.6 file stem', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/t0.6/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B/temperature=0.7/samples.jsonl': flat('TTFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/t=0.6/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-PPO/tmp0.6/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-DPO/temperature=0.7/samples.jsonl': flat('TTTT TTTT TTTT'),
        'Qwen2.5-7B-RLOO/temp-0.6/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-DAPO/top_k_20_temp0.6_n8/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-KTO/samples_T=0.6.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // was: models `t=0.6`, `tmp0.6`, ... compared across temperatures with a warning that the base had no sampling at theirs
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-DAPO_temp0.6',
      'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-GRPO_t0.6',
      'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-KTO_t0.6',
      'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-PPO_tmp0.6',
      'Qwen2.5-7B_t0.6 <- Qwen2.5-7B-RLOO_temp0.6',
      'Qwen2.5-7B_temperature0.7 <- Qwen2.5-7B-DPO_temperature0.7',
    ]);
    assert.deepEqual(r.warnings, []);
  });

  test('a model whose name gives no temperature against the base at t0: the warning says its temperature is unknown, not that the base lacks it', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples_t0.0.jsonl': flat('T F F'),
        'Qwen2.5-7B/samples_t0.8.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/my_run/samples.jsonl': flat('TTFF TTFF TTFF'),
      }),
    );
    const w = r.warnings.filter((x) => /across sampling temperatures/.test(x));
    assert.equal(w.length, 1, r.warnings.join('\n'));
    // was: "no sampling of the base at the model's temperature" (the base has samplings at t0 and t0.8)
    assert.doesNotMatch(w[0], /no sampling of the base at the model's temperature/);
    assert.match(w[0], /the model's temperature is unknown/);
  });
});

// Trial 12 finding 3.
describe('name ancestry takes the longest base the name extends; a model of another family is never paired silently', () => {
  test('data/naming4: Instruct-GRPO against Qwen2.5-7B-Instruct; Llama-3.1-8B-Instruct-DAPO against the Qwen base with a warning naming both', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples.jsonl_results.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-Instruct/samples.jsonl_results.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-Instruct-GRPO/samples.jsonl_results.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-SimpleRL-Zoo/samples.jsonl_results.jsonl': flat('TTFF TTFF TTFF'),
        'Llama-3.1-8B-Instruct-DAPO/samples.jsonl_results.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // was: all four against Qwen2.5-7B, no warning
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B <- Llama-3.1-8B-Instruct-DAPO',
      'Qwen2.5-7B <- Qwen2.5-7B-Instruct',
      'Qwen2.5-7B <- Qwen2.5-7B-SimpleRL-Zoo',
      'Qwen2.5-7B-Instruct <- Qwen2.5-7B-Instruct-GRPO',
    ]);
    const w = r.warnings.filter((x) => /another family/.test(x));
    assert.equal(w.length, 1, r.warnings.join('\n'));
    assert.match(
      w[0],
      /^Llama-3\.1-8B-Instruct-DAPO is compared with Qwen2\.5-7B, a model of another family \(llama, not qwen\)/,
    );
    assert.match(w[0], /--base/);
  });

  test('siblings: -Chat and _instruct spellings; each Qwen line under a guessed Llama base stays in its family; a distilled Qwen model warned', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B_instruct/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B_instruct_ppo/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-Chat/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-Chat-DPO/samples.jsonl': flat('TTTT TTTT TTTT'),
        'Llama-3.1-8B-Instruct/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Llama-3.1-8B-Instruct-GRPO/samples.jsonl': flat('TTTF TTTF TTTF'),
        'DeepSeek-R1-Distill-Qwen-7B/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // the guessed base is Llama-3.1-8B-Instruct (an `Instruct` with no plain Llama beside it); was: every Qwen model
    // against it, silently
    assert.deepEqual(pairs(r), [
      'Llama-3.1-8B-Instruct <- DeepSeek-R1-Distill-Qwen-7B',
      'Llama-3.1-8B-Instruct <- Llama-3.1-8B-Instruct-GRPO',
      'Llama-3.1-8B-Instruct <- Qwen2.5-7B',
      'Qwen2.5-7B <- Qwen2.5-7B-Chat',
      'Qwen2.5-7B <- Qwen2.5-7B_instruct',
      'Qwen2.5-7B-Chat <- Qwen2.5-7B-Chat-DPO',
      'Qwen2.5-7B_instruct <- Qwen2.5-7B_instruct_ppo',
    ]);
    // each pair across families is named, the pair within a family is not
    const w = r.warnings.filter((x) => /another family/.test(x));
    assert.deepEqual(w.map((x) => x.split(', a model of another family')[0]).sort(), [
      'DeepSeek-R1-Distill-Qwen-7B is compared with Llama-3.1-8B-Instruct',
      'Qwen2.5-7B is compared with Llama-3.1-8B-Instruct',
    ]);
  });
});

// Trial 12 finding 10.
describe('replicate folders of the base (replicate_1/ + replicate_2/, rep1/ + rep2/, run-1/ + run-2/) are one pooled base', () => {
  for (const [a, b] of [
    ['replicate_1', 'replicate_2'],
    ['rep1', 'rep2'],
    ['run-1', 'run-2'],
  ])
    test(`Qwen2.5-7B/${a}/ + ${b}/: every RL model compared with both replicates' samples, none NOT COMPARED`, () => {
      const r = cliReport(
        folder({
          [`Qwen2.5-7B/${a}/samples.jsonl`]: flat('TT FF FF'),
          [`Qwen2.5-7B/${b}/samples.jsonl`]: flat('FF FF FF'),
          'Qwen2.5-7B-GRPO/seed_1/samples.jsonl': flat('TT TT FF'),
          'Qwen2.5-7B-GRPO/seed_2/samples.jsonl': flat('TT TT FF'),
          'Qwen2.5-7B-PPO/samples.jsonl': flat('TT TT FF'),
        }),
      );
      // was: `Qwen2.5-7B/${b}` NOT COMPARED (a seed sibling of the base), the comparisons over the first replicate only
      assert.deepEqual(r.notCompared, []);
      assert.equal(r.comparisons.length, 3);
      for (const c of r.comparisons) {
        assert.equal(c.base, `Qwen2.5-7B/${a}:Qwen2.5-7B`);
        assert.equal(c.problems, 3);
        // pass@1: model (1 + 1 + 0) / 3; pooled base (2/4 + 0 + 0) / 3 = 1/6 (the first replicate alone: 1/3)
        const d1 = c.passAtKDiff.find((d) => d.k === 1);
        assert.ok(d1);
        assert.ok(d1.diff !== null && Math.abs(d1.diff - (2 / 3 - 1 / 6)) < 1e-9, String(d1.diff));
      }
      const pool = r.warnings.filter((w) => /the base is the pool of its 2 replicates/.test(w));
      assert.equal(pool.length, 1, r.warnings.join('\n'));
      assert.match(pool[0], new RegExp(`Qwen2\\.5-7B/${b}:Qwen2\\.5-7B`));
    });
});

// Trial 12 finding 15.
describe('a step folder with a temperature folder below it keeps the model name in its label', () => {
  test('Qwen2.5-7B-GRPO/math500/global_step_N/{temperature_0.6,greedy}/ and Qwen2.5-7B-PPO/math500/checkpoint-500/t0.6/: <model> · <step>_<temperature>', () => {
    const r = cliReport(
      folder({
        'Qwen2.5-7B/math500/greedy/samples.jsonl': flat('T F F'),
        'Qwen2.5-7B/math500/temperature_0.6/samples.jsonl': flat('TFFF TFFF TFFF'),
        'Qwen2.5-7B-GRPO/math500/global_step_100/temperature_0.6/samples.jsonl': flat('TTFF TTFF TTFF'),
        'Qwen2.5-7B-GRPO/math500/global_step_200/temperature_0.6/samples.jsonl': flat('TTTF TTTF TTTF'),
        'Qwen2.5-7B-GRPO/math500/global_step_200/greedy/samples.jsonl': flat('T T F'),
        'Qwen2.5-7B-PPO/math500/checkpoint-500/t0.6/samples.jsonl': flat('TTTT TTTT TTTT'),
      }),
    );
    // was: `global_step_100_temperature0.6`, `global_step_200_greedy`, `checkpoint-500_t0.6` (the model name lost)
    assert.deepEqual(pairs(r), [
      'Qwen2.5-7B_greedy <- Qwen2.5-7B-GRPO · global_step_200_greedy',
      'Qwen2.5-7B_temperature0.6 <- Qwen2.5-7B-GRPO · global_step_100_temperature0.6',
      'Qwen2.5-7B_temperature0.6 <- Qwen2.5-7B-GRPO · global_step_200_temperature0.6',
      'Qwen2.5-7B_temperature0.6 <- Qwen2.5-7B-PPO · checkpoint-500_t0.6',
    ]);
  });
});

// Trial 12 finding 11.
describe('benchmark folders above the model folders', () => {
  const BENCH = {
    'gsm8k/Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
    'gsm8k/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF TF'),
    'aime24/Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
    'my_hard_set/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF FF'),
  };
  const label = (r: ReturnType<typeof cliReport>, id: string | null) => r.models.find((m) => m.id === id)?.label;

  test('data/bench: my_hard_set is a dataset with no base, NOT COMPARED for that; the header says each run has its own base', () => {
    const { r, text } = cli(writeFolder(BENCH));
    // was: dataset `default` for my_hard_set
    assert.deepEqual(
      r.datasets.map((d) => d.dataset),
      ['aime24', 'gsm8k', 'my_hard_set'],
    );
    assert.deepEqual(
      r.comparisons.map((c) => `${label(r, c.base)} <- ${label(r, c.model)}`),
      ['Qwen2.5-7B (gsm8k/Qwen2.5-7B) <- Qwen2.5-7B-GRPO (gsm8k/Qwen2.5-7B-GRPO)'],
    );
    // was: my_hard_set's GRPO paired with the aime24 copy ("no graded problem in common ... other datasets?"), the
    // aime24 copy `baseOfNone`
    assert.deepEqual(
      r.notCompared.map((x) => [label(r, x.model), x.kind, x.folder ?? null]),
      [
        ['Qwen2.5-7B (aime24/Qwen2.5-7B)', 'baseCopyOfNone', null],
        ['Qwen2.5-7B-GRPO (my_hard_set/Qwen2.5-7B-GRPO)', 'noBaseInFolder', 'my_hard_set'],
      ],
    );
    assert.match(r.notCompared[1].reason, /no copy of its base .* was evaluated in its benchmark folder my_hard_set\//);
    // was: `base model: Qwen2.5-7B (aime24/Qwen2.5-7B) (guessed; change with --base)` above a table without a base column
    assert.doesNotMatch(text, /^base model: /m);
    assert.match(text, /^base models: each run's own/m);
    assert.match(text, /^base\s+model\s+problems/m);
    assert.match(text, /^Qwen2\.5-7B \(gsm8k\/Qwen2\.5-7B\)\s+Qwen2\.5-7B-GRPO \(gsm8k\/Qwen2\.5-7B-GRPO\)\s+3\s/m);
  });

  test('siblings: a base copy in my_hard_set is its base; unknown benchmark names only and a base at the root are as before', () => {
    const withBase = cliReport(
      writeFolder({ ...BENCH, 'my_hard_set/Qwen2.5-7B/samples.jsonl': flatLines('FF FF TF') }),
    );
    assert.deepEqual(
      withBase.comparisons.map((c) => `${label(withBase, c.base)} <- ${label(withBase, c.model)}`).sort(),
      [
        'Qwen2.5-7B (gsm8k/Qwen2.5-7B) <- Qwen2.5-7B-GRPO (gsm8k/Qwen2.5-7B-GRPO)',
        'Qwen2.5-7B (my_hard_set/Qwen2.5-7B) <- Qwen2.5-7B-GRPO (my_hard_set/Qwen2.5-7B-GRPO)',
      ],
    );
    assert.ok(withBase.datasets.some((d) => d.dataset === 'my_hard_set'));
    // no known benchmark among them (trial 8 finding 1): the folders are run folders, each RL model against its own copy
    const unknown = cliReport(
      writeFolder({
        'bench_a/Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
        'bench_b/Qwen2.5-7B/samples.jsonl': flatLines('FF FF TF'),
        'bench_b/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF FF'),
      }),
    );
    assert.deepEqual(
      unknown.comparisons.map((c) => `${label(unknown, c.base)} <- ${label(unknown, c.model)}`),
      ['Qwen2.5-7B (bench_b/Qwen2.5-7B) <- Qwen2.5-7B-GRPO'],
    );
    // the base at the root of the folder (evaluated under no benchmark folder): the RL model's base is still it, as
    // before (their problems are of other datasets, so it is NOT COMPARED for that, not for a missing base copy)
    const root = cliReport(
      writeFolder({
        'Qwen2.5-7B/samples.jsonl': flatLines('TF FF TT'),
        'gsm8k/Qwen2.5-7B-GRPO/samples.jsonl': flatLines('TT TF TF'),
      }),
    );
    assert.deepEqual(
      root.notCompared.map((x) => [label(root, x.model), x.kind, label(root, x.base)]),
      [
        ['Qwen2.5-7B-GRPO', 'noCommonProblem', 'Qwen2.5-7B'],
        ['Qwen2.5-7B', 'baseOfNone', undefined],
      ],
    );
  });
});
