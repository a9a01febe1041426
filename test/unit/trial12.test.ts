/**
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
import type { Report } from '../../src/core/report';
import { cliReport, humanEval, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t12-');

/** Diagnostics as `<severity> <file>: <message>`, sorted. */
const diags = (r: Report) => r.diagnostics.map((d) => `${d.severity} ${d.file}: ${d.message}`).sort();

describe('finding 7: a broken link, a link loop or a folder that cannot be read is named, never skipped silently', () => {
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

describe('finding 1: lm-eval samples_<task>_<date> read through a mapping: the task in the name is the dataset', () => {
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
