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
