// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * The readers' diagnostics: broken links and unreadable folders, lm-eval task files through a mapping, a JSON array
 * file, records not read, summary files the audit does not understand, the score warning.
 *
 * Trial 12 (a fresh user's look at denominators and silent drops), fixed in the order of the brief: 7 broken
 * links and unreadable folders named; 1 lm-eval `samples_<task>_<date>` through a mapping; 9 a model x dataset
 * with no graded sample keeps its CSV row; 17 a JSON array `samples.json`; 18 and 8 "could not be read" texts;
 * 5 summary files the audit does not understand. Each test builds its folder in a temporary directory (the
 * layouts of the trial's report) and reads it through the compiled CLI or the indexer. Every expected value is
 * the one a person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listCandidateFiles } from '../../src/core/readers';
import type { Report } from '../../src/core/report/index';
import { cli, cliReport, humanEval, qwen, tempDir, writeFolder } from './helpers';
import { runCli } from './reliability.support';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t12-');

/** Diagnostics as `<severity> <file>: <message>`, sorted. */
const diags = (r: Report) => r.diagnostics.map((d) => `${d.severity} ${d.file}: ${d.message}`).sort();

// Trial 12 finding 7.
describe('a broken link, a link loop or a folder that cannot be read is named, never skipped silently', () => {
  test('a results file that is a dangling link (into an unmounted disk): an error names it and its target', () => {
    const dir = folder({ 'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF') });
    symlinkSync('/mnt/unmounted-ti-test/samples.jsonl_results.jsonl', join(dir, 'Qwen2.5-7B-GRPO-link.jsonl'));
    const r = cliReport(dir);
    assert.deepEqual(
      r.models.map((m) => m.label),
      ['Qwen2.5-7B'],
    );
    assert.deepEqual(
      diags(r).filter((d) => d.includes('link')),
      [
        'error Qwen2.5-7B-GRPO-link.jsonl: broken symbolic link -> /mnt/unmounted-ti-test/samples.jsonl_results.jsonl (the target does not exist): not read',
      ],
    );
  });

  test('siblings: a dangling link in a model folder, a dangling folder link, a link loop, a broken link to a README', async () => {
    const dir = folder({ 'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF') });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'Qwen2.5-7B-GRPO'));
    symlinkSync('/mnt/unmounted-ti-test/a.jsonl', join(dir, 'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl'));
    symlinkSync('/mnt/unmounted-ti-test/run', join(dir, 'Qwen2.5-7B-PPO'));
    symlinkSync('loop-b.jsonl', join(dir, 'loop-a.jsonl'));
    symlinkSync('loop-a.jsonl', join(dir, 'loop-b.jsonl'));
    symlinkSync('/mnt/unmounted-ti-test/README.md', join(dir, 'README.md'));
    const unreachable: { file: string; reason: string; resultsLike: boolean }[] = [];
    const files = await listCandidateFiles(dir, { unreachable });
    assert.deepEqual(files, ['Qwen2.5-7B/samples.jsonl_results.jsonl']);
    const r = cliReport(dir);
    assert.deepEqual(
      diags(r).filter((d) => / link/.test(d)),
      [
        'error Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl: broken symbolic link -> /mnt/unmounted-ti-test/a.jsonl (the target does not exist): not read',
        'error Qwen2.5-7B-PPO: broken symbolic link -> /mnt/unmounted-ti-test/run (the target does not exist): not read',
        'error loop-a.jsonl: symbolic link loop -> loop-b.jsonl (ELOOP: the links point at each other): not read',
        'error loop-b.jsonl: symbolic link loop -> loop-a.jsonl (ELOOP: the links point at each other): not read',
        'warning README.md: broken symbolic link -> /mnt/unmounted-ti-test/README.md (the target does not exist): not read',
      ],
    );
  });

  test('a folder the user may not read (EACCES) is named (not run as root: root reads every folder)', {
    skip: process.getuid?.() === 0,
  }, async () => {
    const { chmodSync } = await import('node:fs');
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT FF'),
    });
    chmodSync(join(dir, 'Qwen2.5-7B-GRPO'), 0o000);
    try {
      const unreachable: { file: string; reason: string; resultsLike: boolean }[] = [];
      await listCandidateFiles(dir, { unreachable });
      assert.deepEqual(unreachable, [
        {
          file: 'Qwen2.5-7B-GRPO',
          reason: 'folder could not be read (EACCES: permission denied): none of its files is read',
          resultsLike: true,
        },
      ]);
    } finally {
      chmodSync(join(dir, 'Qwen2.5-7B-GRPO'), 0o755);
    }
  });
});

/** lm-eval `samples_<task>_<date>.jsonl` lines: docs `first..first+n-1`, one word per doc, one letter per repeat (`T` answers 42). */
const lmEvalLines = (task: string, spec: string, first = 0): string =>
  spec
    .split(' ')
    .map((word, i) =>
      JSON.stringify({
        doc_id: first + i,
        doc: { problem: `${task} problem ${first + i}`, solution: '42' },
        target: '42',
        resps: [...word].map((v, j) => [`solution ${task} ${first + i} rep ${j} answer ${v === 'T' ? 42 : 7}`]),
        filtered_resps: [...word].map((v) => (v === 'T' ? '42' : '7')),
        exact_match: [...word].filter((v) => v === 'T').length / word.length,
      }),
    )
    .join('\n');

/** Problems per (model label, dataset) as `<label> <dataset> <problems>/<samples>`, from the report's `perDataset`. */
const perDataset = (r: Report) => {
  const label = new Map(r.models.map((m) => [m.id, m.label]));
  return r.perDataset.map((d) => `${label.get(d.model)} ${d.dataset} ${d.problems}/${d.samples}`).sort();
};

/** The models' problems by dataset as `<dataset> <problems>`, sorted. */
const datasetsOf = (r: Report) => r.models.flatMap((m) => m.datasets.map((d) => `${d.dataset} ${d.problems}`)).sort();

// Trial 12 finding 1.
describe('lm-eval samples_<task>_<date> read through a mapping: the task in the name is the dataset', () => {
  const mapping = (files: string[], extra: Record<string, unknown> = {}) =>
    JSON.stringify([
      {
        files,
        records: 'per-problem',
        ...extra,
        fields: {
          problemId: 'doc_id',
          question: 'doc.problem',
          referenceAnswer: 'target',
          text: '$.resps[*][0]',
          extractedAnswer: 'filtered_resps',
        },
      },
    ]);
  const ALG = 'samples_minerva_math_algebra_2025-01-15T10-20-30.123456.jsonl';
  const GEO = 'samples_minerva_math_geometry_2025-01-15T10-20-30.123456.jsonl';
  const GEO2 = 'samples_minerva_math_geometry_2025-02-01T09-00-00.000000.jsonl';

  test('two tasks of two models under one glob: two datasets of 4 problems each; the dated re-run adds its doc 4 to geometry', () => {
    const dir = folder({
      'trace-inspector.mapping.json': mapping(['**/samples_minerva_math_*.jsonl']),
      [`Qwen__Qwen2.5-7B/${ALG}`]: lmEvalLines('minerva_math_algebra', 'TFFF TTFF FFFF TTTT'),
      [`Qwen__Qwen2.5-7B/${GEO}`]: lmEvalLines('minerva_math_geometry', 'TFFF FFFF FFFF TFFF'),
      [`Qwen__Qwen2.5-7B-SimpleRL-Zoo/${ALG}`]: lmEvalLines('minerva_math_algebra', 'TTFF TTTF FFFF TTTT'),
      [`Qwen__Qwen2.5-7B-SimpleRL-Zoo/${GEO}`]: lmEvalLines('minerva_math_geometry', 'TTFF FFFF TFFF TTFF'),
      [`Qwen__Qwen2.5-7B-SimpleRL-Zoo/${GEO2}`]: lmEvalLines('minerva_math_geometry', 'TTTT TTTT TTTT TTTT TTFF'),
    });
    const r = cliReport(dir, ['--tool-grading']);
    assert.deepEqual(r.models.map((m) => `${m.label} ${m.samples}`).sort(), [
      'Qwen/Qwen2.5-7B 32',
      'Qwen/Qwen2.5-7B-SimpleRL-Zoo 36',
    ]);
    assert.deepEqual(perDataset(r), [
      'Qwen/Qwen2.5-7B minerva_math_algebra 4/16',
      'Qwen/Qwen2.5-7B minerva_math_geometry 4/16',
      'Qwen/Qwen2.5-7B-SimpleRL-Zoo minerva_math_algebra 4/16',
      'Qwen/Qwen2.5-7B-SimpleRL-Zoo minerva_math_geometry 5/20',
    ]);
    // the re-run's copies of docs 0-3 are what the built-in reader calls a re-run; nothing says "algebra" about geometry
    const dup = diags(r).filter((d) => d.includes('re-run or a copy'));
    assert.equal(dup.length, 1, dup.join('\n'));
    assert.match(
      dup[0],
      new RegExp(`SimpleRL-Zoo/${GEO2.replace(/\./g, '\\.')}: .*4 problems .*${GEO.replace(/\./g, '\\.')}`),
    );
  });

  test("siblings: a dataset stem (gsm8k.jsonl, math500_samples.jsonl) and a dataset folder name the dataset; the mapping's own dataset wins", () => {
    const lines = (spec: string) => lmEvalLines('x', spec);
    const dir = folder({
      'trace-inspector.mapping.json': mapping(['**/*.jsonl']),
      'Qwen2.5-7B/gsm8k.jsonl': lines('TF FF'),
      'Qwen2.5-7B/math500_samples.jsonl': lines('TT FF TF'),
      'Qwen2.5-7B/aime24/results.jsonl': lines('FF'),
    });
    assert.deepEqual(datasetsOf(cliReport(dir, ['--tool-grading'])), ['aime24 1', 'gsm8k 2', 'math500 3']);
    const named = folder({
      'trace-inspector.mapping.json': mapping(['**/*.jsonl'], { dataset: 'mine' }),
      [`Qwen__Qwen2.5-7B/${ALG}`]: lmEvalLines('minerva_math_algebra', 'TFFF TTFF'),
    });
    assert.deepEqual(datasetsOf(cliReport(named, ['--tool-grading'])), ['mine 2']);
  });
});

/** The `report --format csv` of the compiled CLI on `dir` (a fresh index), as lines. */
const csvOf = (dir: string, extra: string[] = []): string[] => {
  const tmp = tempDir('ti-t12-csv-');
  const run = runCli(
    ['report', dir, '--db', join(tmp, 'i.db'), '-q', '--replicates', '100', '--format', 'csv', ...extra],
    tmp,
  );
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split('\n');
};

/** CSV pass@k rows of a label at k = 1 as `<dataset> problems=<p> missing=<m> no_samples=<s> ungraded=<u> value=<v>`. */
const passRows = (lines: string[], label: string) => {
  const head = lines[0].split(',');
  const col = (cells: string[], name: string) => cells[head.indexOf(name)];
  return lines
    .slice(1)
    .map((l) => l.split(','))
    .filter(
      (c) =>
        col(c, 'label') === label && col(c, 'metric') === 'pass@k' && col(c, 'k') === '1' && col(c, 'level') === '',
    )
    .map(
      (c) =>
        `${col(c, 'dataset')} problems=${col(c, 'problems')} missing=${col(c, 'missing')} no_samples=${col(c, 'no_samples')} ungraded=${col(c, 'ungraded')} value=${col(c, 'value')}`,
    )
    .sort();
};

// Trial 12 finding 9.
describe('a model with no graded sample on a dataset keeps its CSV row and its JSON leftOut', () => {
  test('GRPO: HumanEval/0-2 without a verdict, one problem of dataset default graded: a HumanEval row with problems 0, missing 3, ungraded 3', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': `${humanEval('TF FF TT')}\n${JSON.stringify({ task_id: 7, completion: 'x', passed: false })}`,
      'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': `${humanEval('UU UU UU')}\n${JSON.stringify({ task_id: 7, completion: 'y', passed: true })}`,
    });
    const lines = csvOf(dir);
    assert.deepEqual(passRows(lines, 'Qwen2.5-7B-GRPO'), [
      'HumanEval problems=0 missing=3 no_samples=0 ungraded=3 value=',
      'all datasets problems=1 missing=3 no_samples=0 ungraded=3 value=1',
      'default problems=1 missing=0 no_samples=0 ungraded=0 value=1',
    ]);
    const r = cliReport(dir);
    const grpo = r.models.find((m) => m.label === 'Qwen2.5-7B-GRPO')?.id;
    assert.deepEqual(
      r.perDataset.filter((d) => d.model === grpo).map((d) => [d.dataset, d.passAtK.length, d.leftOut]),
      [
        ['HumanEval', 0, { noSamples: 0, ungraded: 3 }],
        ['default', 1, { noSamples: 0, ungraded: 0 }],
      ],
    );
  });

  test('sibling: a model with no graded sample at all still has its pooled pass@k row (one dataset, named)', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
      'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('UU UU'),
    });
    assert.deepEqual(passRows(csvOf(dir), 'Qwen2.5-7B-GRPO'), [
      'HumanEval problems=0 missing=2 no_samples=0 ungraded=2 value=',
    ]);
  });
});

// Trial 12 finding 17.
describe('a samples.json that is one JSON array of records gets one clear error, never "malformed JSON" per line', () => {
  const records = [0, 1, 2].flatMap((t) =>
    [0, 1].map((i) => ({ task_id: `HumanEval/${t}`, completion: `c ${t} ${i}`, passed: i === 0 })),
  );
  test('pretty-printed (indent=2) and compact arrays of flat samples, an array of Qwen-math records: one error each, naming the file', () => {
    const qwenRecords = [0, 1].map((t) => ({
      idx: t,
      gt: '1',
      code: ['a', 'b'],
      pred: ['1', '2'],
      score: [true, false],
    }));
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF TT'),
      'pretty/samples.json': JSON.stringify(records, null, 2),
      'compact/samples.json': JSON.stringify(records),
      'qwen/math_eval/gsm8k/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.json': JSON.stringify(qwenRecords, null, 2),
    });
    const r = cliReport(dir);
    assert.deepEqual(
      r.models.map((m) => m.label),
      ['Qwen2.5-7B'],
    );
    assert.deepEqual(
      diags(r).filter((d) => !d.startsWith('info') || d.includes('JSON')),
      [
        "error compact/samples.json: a JSON array of 6 flat records, not JSONL: not read (flat results are one JSON object per line); write them one per line: jq -c '.[]' samples.json > samples.jsonl",
        "error pretty/samples.json: a JSON array of 6 flat records, not JSONL: not read (flat results are one JSON object per line); write them one per line: jq -c '.[]' samples.json > samples.jsonl",
        "error qwen/math_eval/gsm8k/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.json: a JSON array of 2 qwen-math records, not JSONL: not read (qwen-math results are one JSON object per line); write them one per line: jq -c '.[]' test_qwen-boxed_-1_seed0_t0.0_s0_e-1.json > test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl",
      ],
    );
  });

  test('siblings kept as before: the same records as JSONL are read; an array of numbers is no results file (info)', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl': records.map((x) => JSON.stringify(x)).join('\n'),
      'Qwen2.5-7B/ids.json': '[1, 2, 3]',
    });
    const r = cliReport(dir);
    assert.deepEqual(
      r.models.map((m) => `${m.label} ${m.samples}/${m.correct}`),
      ['Qwen2.5-7B 6/3'],
    );
    assert.deepEqual(diags(r), [
      'info Qwen2.5-7B/ids.json: not a results file: the first element is not an object (describe the format in a trace-inspector.mapping.json)',
    ]);
  });
});

// Trial 12 findings 18 and 8.
describe('"could not be read" only for records not read; a graded sample dropped for want of text says its verdict was lost', () => {
  const QM = 'math_eval/gsm8k/test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl';
  const warningOf = (r: Report, model: string) =>
    r.warnings.filter((w) => w.startsWith(`${model}: `) && w.includes('Problems panel'));

  test('Qwen-math: score null (read, ungraded), code[1] null with score true (sample skipped, verdict lost), code a string (line skipped)', () => {
    const lines = [
      { idx: 0, gt: '1', code: ['a', null, 'c'], pred: ['1', '1', '2'], score: [true, true, false] },
      { idx: 1, gt: '1', code: ['a', 'b'], pred: ['1', '2'], score: null },
      { idx: 2, gt: '1', code: 'oops', pred: ['1'], score: [true] },
      { idx: 3, gt: '1', code: ['a'], pred: ['1'], score: [true] },
    ];
    const r = cliReport(folder({ [`Qwen2.5-Math-7B/${QM}`]: lines.map((l) => JSON.stringify(l)).join('\n') }));
    assert.deepEqual(warningOf(r, 'Qwen2.5-Math-7B'), [
      `Qwen2.5-Math-7B: 1 record could not be read (Qwen2.5-Math-7B/${QM}:3): left out of every figure; 1 sample skipped (Qwen2.5-Math-7B/${QM}:1): left out of every figure: 1 of them graded, its verdict lost; 1 record has no verdict (Qwen2.5-Math-7B/${QM}:2): read and indexed, ungraded (their problems count in "missing"); each is listed with its reason in the Problems panel (CLI: the diagnostics)`,
    ]);
    assert.ok(
      diags(r).includes(
        `error Qwen2.5-Math-7B/${QM}: code[1] is not a string (got null); sample skipped, and its verdict (score true) is lost with it`,
      ),
      diags(r).join('\n'),
    );
    // counts add up: problems 0, 1, 3 indexed (line 3 not read); samples 2 + 2 + 1 (code[1] skipped); problem 1's 2 ungraded
    const m = r.models[0];
    assert.deepEqual([m.problems, m.samples, m.ungradedSamples, m.correct], [3, 5, 2, 2]);
  });

  test('siblings: rollouts (a rollout not an object, one without text but with correct false) and flat (completion null, passed true)', () => {
    const dir = folder({
      'rl/run_raw.jsonl': JSON.stringify({
        model_alias: 'rl',
        model_name: 'org/m-rl',
        qid: 0,
        question: 'q',
        gold: '1',
        rollouts: [{ text: 'a', correct: true }, { text: 'b' }, 'oops', { correct: false }],
      }),
      'flatm/samples.jsonl_results.jsonl': [
        JSON.stringify({ task_id: 'HumanEval/0', completion: 'x', passed: true }),
        JSON.stringify({ task_id: 'HumanEval/1', completion: null, passed: true }),
      ].join('\n'),
    });
    const r = cliReport(dir);
    const all = r.warnings.filter((w) => w.includes('Problems panel')).sort();
    assert.deepEqual(all, [
      'flatm:flatm: 1 record could not be read (flatm/samples.jsonl_results.jsonl:2): left out of every figure: 1 of them graded, its verdict lost; each is listed with its reason in the Problems panel (CLI: the diagnostics)',
      'rl:org/m-rl: 2 samples skipped (rl/run_raw.jsonl:1, rl/run_raw.jsonl:1): left out of every figure: 1 of them graded, its verdict lost; each is listed with its reason in the Problems panel (CLI: the diagnostics)',
    ]);
  });
});

// Trial 12 finding 5.
describe('a summary file the audit does not understand is named; one checked that agrees says so', () => {
  const rollouts = (alias: string, spec: string) =>
    spec
      .split(' ')
      .map((word, q) =>
        JSON.stringify({
          model_alias: alias,
          model_name: `org/m-${alias}`,
          qid: q,
          question: `q${q}`,
          gold: '3',
          rollouts: [...word].map((v, i) => ({ rollout: i, correct: v === 'T', text: `roll ${q} ${i}` })),
        }),
      )
      .join('\n');
  const QM = 'math_eval/math500/test_qwen-boxed_-1_seed0_t0.0_s0_e-1';

  test('summary.json without "metrics", per_question.csv with other columns, *_metrics.json with "accuracy": one info each naming its keys', () => {
    const dir = folder({
      'sft_raw.jsonl': rollouts('sft', 'TF FF'),
      'rl_raw.jsonl': rollouts('rl', 'TT TF'),
      'summary.json': JSON.stringify({ sft_sample_accuracy: 0.25, rl_sample_accuracy: 0.8 }),
      'per_question.csv': 'qid,sft_n_correct,rl_n_correct\n0,1,2\n1,1,1\n',
      [`Qwen2.5-Math-7B/${QM}.jsonl`]: qwen('TF FF'),
      [`Qwen2.5-Math-7B/${QM}_qwen-boxed_metrics.json`]: JSON.stringify({ num_samples: 2, accuracy: 90.0 }),
    });
    const r = cliReport(dir);
    assert.deepEqual(r.audit, []);
    assert.equal(r.auditChecked, undefined);
    const tail =
      'the audit checks summary.json "metrics": {"<alias>_sample_accuracy", "<alias>_pass_at_k", "*_questions"}, per_question.csv qid + c_<alias> columns, *_metrics.json "acc"';
    assert.deepEqual(
      diags(r).filter((d) => d.includes('not audited')),
      [
        `info Qwen2.5-Math-7B/${QM}_qwen-boxed_metrics.json: summary file not audited: no figure the audit knows (keys: num_samples, accuracy; it checks "acc"); ${tail}`,
        `info per_question.csv: summary file not audited: no figure the audit knows (columns: qid, sft_n_correct, rl_n_correct); ${tail}`,
        `info summary.json: summary file not audited: no figure the audit knows (keys: sft_sample_accuracy, rl_sample_accuracy; no "metrics" object); ${tail}`,
      ],
    );
  });

  test('siblings: the authors\' shape that agrees says "checked, all agree" (text, JSON auditChecked); one that disagrees counts what was checked', () => {
    const agree = folder({
      'sft_raw.jsonl': rollouts('sft', 'TF FF'),
      'rl_raw.jsonl': rollouts('rl', 'TT TF'),
      'summary.json': JSON.stringify({ metrics: { sft_sample_accuracy: 0.25, rl_sample_accuracy: 0.75 } }),
      'per_question.csv': 'qid,c_sft,c_rl\n0,1,2\n1,0,1\n',
    });
    const { r, text } = cli(agree);
    assert.deepEqual(r.audit, []);
    assert.deepEqual(r.auditChecked, { files: 2, figures: 6 });
    assert.match(text, /\naudit: 6 figures stored in 2 summary files checked against the raw samples: all agree\n/);
    assert.deepEqual(
      diags(r).filter((d) => d.includes('not audited')),
      [],
    );
    const disagree = folder({
      'sft_raw.jsonl': rollouts('sft', 'TF FF'),
      'rl_raw.jsonl': rollouts('rl', 'TT TF'),
      'per_question.csv': 'qid,c_sft,c_rl\n0,1,2\n1,1,1\n',
    });
    const d = cli(disagree);
    assert.deepEqual(
      d.r.audit.map((a) => `${a.metric} ${a.stored} ${a.recomputed}`),
      ['c_sft[qid=1] 1 0'],
    );
    assert.match(
      d.text,
      /\naudit: figures stored in the folder that disagree with the raw samples \(4 figures in 1 file checked\):\n/,
    );
  });
});

// Trial 12 finding 23.
describe('a problem the base has no record of is said so, not "has no graded sample"', () => {
  test('base with problems 0-2 (2 ungraded), GRPO with 0-4: 3 and 4 "only GRPO has them: the base has no record of them"; 2 ungraded in the base', () => {
    const dir = folder({
      'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF UU'),
      'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TT TF TT TF FF'),
    });
    const r = cliReport(dir);
    assert.deepEqual(
      r.warnings.filter((w) => w.includes('compared over')),
      [
        'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO vs Qwen2.5-7B:Qwen2.5-7B: compared over 2 of the 5 problems of the two models: 1 Qwen2.5-7B:Qwen2.5-7B has no graded sample of it (problem "HumanEval/2"); 2 only Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO has them: Qwen2.5-7B:Qwen2.5-7B has no record of them (problems "HumanEval/3", "HumanEval/4")',
      ],
    );
  });
});

// Trial 12 finding 19.
describe('the score warning lists the 0/1 spellings the file holds, not every spelling a 0/1 could have', () => {
  const flat = (values: unknown[]) =>
    values
      .map((v, i) => JSON.stringify({ task_id: `HumanEval/${i % 5}`, completion: `    return ${i}`, passed: v }))
      .join('\n');
  const warning = (dir: string) =>
    cli(dir, [], { text: false }).r.diagnostics.filter((d) => / values are scores, not verdicts/.test(d.message));

  // (the trial's 0.37 among 1s is partial credit since trial 12 finding 6, counted not correct: a score outside [0, 1]
  // makes the column scores, as 0.37 did)
  test('nine 1s and one 37 (the trial layout, a score outside [0, 1]): "its 9 values 0/1 (1)"', () => {
    const dir = folder({
      'Qwen2.5-Coder-7B-GRPO/seed_2/samples.jsonl_results.jsonl': flat([1, 1, 1, 1, 1, 1, 1, 1, 1, 37]),
    });
    const w = warning(dir);
    assert.equal(w.length, 1);
    assert.match(w[0].message, /its 1 score other than 0\/1 and its 9 values 0\/1 \(1\) are ungraded/);
  });

  test('siblings: strings and numbers in order of first sight ("1.0", 0, "0"), each once', () => {
    const dir = folder({ 'm/samples.jsonl_results.jsonl': flat(['1.0', 0, '0', 2.5, '1.0', 0]) });
    const w = warning(dir);
    assert.equal(w.length, 1);
    assert.match(w[0].message, /its 1 score other than 0\/1 and its 5 values 0\/1 \("1\.0", 0, "0"\) are ungraded/);
  });
});
