/**
 * Hints that point at the fix: "did you mean" for mapping keys and model filters (edit
 * distance, fastest-levenshtein), what a problem id that is no scalar is, and how a string verdict such
 * as "yes" was read. Expected values are written out by hand.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ModelRow } from '../../src/core/index/traceIndex';
import { mulberry32 } from '../../src/core/metrics/bootstrap';
import { crossoverBootstrap } from '../../src/core/metrics/coverage';
import { makeContext, readFile } from '../../src/core/readers/index';
import { notAnId, validateMapping } from '../../src/core/readers/mapping';
import { didYouMean, nearSubstring, stringVerdictWarning } from '../../src/core/readers/util';
import { noModelMatches } from '../../src/core/report/index';
import { CROSSOVER_NOTE, crossoverText, sharePct } from '../../src/shared/claims';
import { tempDir } from './helpers';

describe('did you mean', () => {
  test('edit distance picks the near miss among all the known keys, case-only differences first', () => {
    const fields = ['problemId', 'text', 'correct', 'model', 'revision', 'dataset', 'level', 'question'];
    assert.deepEqual(didYouMean('txt', fields), ['text']);
    assert.deepEqual(didYouMean('corect', fields), ['correct']);
    assert.deepEqual(didYouMean('problemID', fields), ['problemId']);
    assert.deepEqual(didYouMean('problem_id', fields), ['problemId']);
    assert.deepEqual(didYouMean('modle', fields), ['model']);
    assert.deepEqual(didYouMean('xyz', fields), []);
    assert.deepEqual(didYouMean('text', fields), [], 'a known key is no typo');
  });

  test('every unknown mapping key, at the top and in fields, names its near miss and lists every key there', () => {
    const r = validateMapping({
      files: ['*.jsonl'],
      record: 'per-sample',
      fields: { problemID: 'id', txt: 'out', corect: 'ok', refAnswer: 'gt' },
    });
    assert.ok('errors' in r);
    const errs = (r as { errors: string[] }).errors;
    const unknown = errs.filter((e) => e.includes('unknown field'));
    assert.deepEqual(
      unknown.map((e) => e.replace(/; the fields here are .*/, '')),
      [
        '/: unknown field "record" (did you mean "records"?)',
        '/fields: unknown field "problemID" (did you mean "problemId"?)',
        '/fields: unknown field "txt" (did you mean "text"?)',
        '/fields: unknown field "corect" (did you mean "correct"?)',
        '/fields: unknown field "refAnswer"',
      ],
    );
    // every key of fields is listed (15 of them), not a few
    const listed = unknown[1].replace(/.*; the fields here are /, '').split(', ');
    assert.equal(listed.length, 15);
    for (const k of ['problemId', 'text', 'correct', 'referenceAnswer', 'extractedAnswer', 'sampleIndex', 'tokenCount'])
      assert.ok(listed.includes(k), k);
  });

  test('--base / --model that match no model: the nearest model, or none', () => {
    const m = (id: number, displayId: string, label: string) => ({ id, displayId, label }) as ModelRow;
    const models = [
      m(1, 'logs:gpt-4_naive_cot_sample_100', 'gpt-4_naive_cot_sample_100'),
      m(2, 'logs:gpt-4_naive_standard_sample_100', 'gpt-4_naive_standard_sample_100'),
      m(3, 'runs:qwen2.5-math-7b@grpo-step-500', 'qwen2.5-math-7b'),
    ];
    // by hand: "naive_cto" -> window "naive_co" (delete t) = 1; -> "naive_st" (c -> s, delete o) = 2
    assert.equal(nearSubstring('naive_cto', 'gpt-4_naive_cot_sample_100'), 1);
    assert.equal(nearSubstring('naive_cto', 'gpt-4_naive_standard_sample_100'), 2);
    assert.equal(nearSubstring('bfs', 'gpt-4_naive_cot'), null);
    assert.equal(
      noModelMatches('--base', 'naive_cto', models),
      'no model matches --base "naive_cto" (did you mean "logs:gpt-4_naive_cot_sample_100"?); models: logs:gpt-4_naive_cot_sample_100, logs:gpt-4_naive_standard_sample_100, runs:qwen2.5-math-7b@grpo-step-500',
    );
    assert.match(
      noModelMatches('--model', 'grpo-stpe', models),
      /\(did you mean "runs:qwen2\.5-math-7b@grpo-step-500"\?\)/,
    );
    assert.match(noModelMatches('--model', 'QWEN3', models), /did you mean "runs:qwen2\.5-math-7b@grpo-step-500"/);
    assert.equal(
      noModelMatches('--model', 'bfs', models),
      'no model matches --model "bfs"; models: logs:gpt-4_naive_cot_sample_100, logs:gpt-4_naive_standard_sample_100, runs:qwen2.5-math-7b@grpo-step-500',
    );
    assert.equal(noModelMatches('--base', 'x', []), 'no model matches --base "x"; models: none');
  });
});

describe('what a value is, said as it is', () => {
  test('a problem id that is no scalar: missing, null, an object, a list', () => {
    assert.equal(notAnId(undefined), 'is missing');
    assert.equal(notAnId(null), 'is null');
    assert.equal(
      notAnId({ x: 1, y: 2 }),
      'is an object (keys: "x", "y"), not a string or number: point fields.problemId at one of its keys',
    );
    assert.equal(
      notAnId({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1 }),
      'is an object (keys: "a", "b", "c", "d", "e", "f", ...), not a string or number: point fields.problemId at one of its keys',
    );
    assert.equal(notAnId([1, 2]), 'is a list of 2 values, not a string or number');
    assert.equal(notAnId([]), 'is a list of 0 values, not a string or number');
  });

  test('string verdicts: the first one met is named with how it was read', () => {
    assert.equal(
      stringVerdictWarning('passed', 'yes', true),
      'passed values are strings; read as verdicts ("yes" here as correct; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)',
    );
    assert.match(
      stringVerdictWarning('ok', 'No', false),
      /^ok values are strings; read as verdicts \("No" here as incorrect;/,
    );
    assert.match(stringVerdictWarning('ok', 'I', false), /\("I" here as incorrect;/);
  });

  test('through a mapping: "yes" / "no" verdicts and a problem id pointing at an object, on their lines', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'meta', text: 'out', correct: 'ok' },
      }),
    );
    writeFileSync(
      path.join(dir, 'a.jsonl'),
      [
        { meta: 'p1', out: 'a', ok: 'yes' },
        { meta: 'p1', out: 'b', ok: 'no' },
        { meta: { id: 'p2', split: 'test' }, out: 'c', ok: 'yes' },
        { meta: ['p3'], out: 'd', ok: 'yes' },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    const msgs: string[] = [];
    const verdicts: (boolean | null)[] = [];
    for await (const ev of readFile(makeContext(dir, 'a.jsonl'))) {
      if (ev.kind === 'diagnostic')
        msgs.push(`${ev.diagnostic.line}:${ev.diagnostic.severity}:${ev.diagnostic.message}`);
      if (ev.kind === 'problem') verdicts.push(...ev.record.samples.map((s) => s.correct));
    }
    assert.deepEqual(verdicts, [true, false]);
    // the strings warning comes after the file's last record (only then is it known that the column
    // holds no scores, trial 6 finding 3); it names its line
    assert.deepEqual(msgs.sort(), [
      '1:warning:ok values are strings; read as verdicts ("yes" here as correct; "true", "yes", "correct", "C", "1", "1.0" are correct and "false", "no", "incorrect", "I", "0", "0.0" incorrect, in any case) (reported once per file)',
      '3:error:problem id meta is an object (keys: "id", "split"), not a string or number: point fields.problemId at one of its keys; skipped',
      '4:error:problem id meta is a list of 1 value, not a string or number; skipped',
    ]);
  });
});

describe('CLI table: a k the model has no point at says why (trial 1 polish)', () => {
  test('n = 3 next to n = 8: pass@3 of the n = 8 model is "not computed", pass@4 and pass@8 of the n = 3 model "k > n"', () => {
    const dir = tempDir();
    const rows = (name: string, rev: string, problems: [number, boolean[]][]) =>
      problems
        .map(([q, v]) =>
          JSON.stringify({
            qid: q,
            question: `q${q}`,
            gold: '1',
            model_name: name,
            model_revision: rev,
            rollouts: v.map((c, i) => ({ rollout: i, text: `x${i}`, correct: c })),
          }),
        )
        .join('\n');
    mkdirSync(path.join(dir, 'r'));
    writeFileSync(
      path.join(dir, 'r', 'base.jsonl'),
      rows('m', 'base', [
        [1, [true, false, false]],
        [2, [false, false, false]],
      ]),
    );
    const eight = (c: number) => Array.from({ length: 8 }, (_, i) => i < c);
    writeFileSync(
      path.join(dir, 'r', 'rl.jsonl'),
      rows('m', 'rl', [
        [1, eight(2)],
        [2, eight(1)],
      ]),
    );
    const out = execFileSync(
      process.execPath,
      [
        path.join(process.cwd(), 'dist', 'cli.js'),
        'report',
        dir,
        '--db',
        path.join(tempDir(), 'i.db'),
        '-q',
        '--replicates',
        '100',
      ],
      { encoding: 'utf8' },
    );
    const lines = out.split('\n');
    const header = lines[0].trim().split(/\s{2,}/);
    assert.deepEqual(header.slice(-5), ['pass@1', 'pass@2', 'pass@3', 'pass@4', 'pass@8']);
    const cells = (label: string) =>
      lines
        .find((l) => l.startsWith(label))!
        .trim()
        .split(/\s{2,}/);
    // base n = 3: pass@3 = (1 + 0) / 2 = 50.0; no pass@4, pass@8
    assert.deepEqual(cells('m@base').slice(-3), ['50.0 [0.0,100.0]', '— (k > n)', '— (k > n)']);
    // rl n = 8: pass@4 = (1 - C(6,4)/C(8,4) + 1 - C(7,4)/C(8,4)) / 2 = (1 - 15/70 + 1 - 35/70) / 2 = 0.642857
    const rl = cells('m@rl');
    assert.equal(rl[rl.length - 3], 'not computed');
    assert.match(rl[rl.length - 2], /^64\.3 /);
    assert.match(
      out,
      /^not computed: pass@k is computed at k = 1, 2, 4, 8, \.\.\. and each model's largest n \(m@rl: n = 8\)/m,
    );
    assert.match(out, /^— \(k > n\): k is above the model's largest number of graded samples per problem/m);
  });
});

describe('crossover bootstrap: replicates counted at k = 1 are said as such (trial 3 wording)', () => {
  test('n = 1: the base leads 2/3 vs 1/3; a replicate crosses at k = 1 exactly when it draws problem 3 at least twice', () => {
    // problems 1, 2: base 1/1, model 0/1; problem 3: base 0/1, model 1/1. With n = 1 only k = 1 exists, so
    // every replicate with a crossover has it at k = 1: the model (trailing in the data) is ahead or level in
    // the resample iff w3 >= w1 + w2, i.e. w3 >= 2 of 3 draws. Recomputed with the same seeded draws, in the
    // resampler's order (problems listed by their counts' key: problem 3's "1,0,1,1" first, then 1 and 2).
    const pairs = [
      { problemKey: '1', base: { n: 1, c: 1 }, model: { n: 1, c: 0 } },
      { problemKey: '2', base: { n: 1, c: 1 }, model: { n: 1, c: 0 } },
      { problemKey: '3', base: { n: 1, c: 0 }, model: { n: 1, c: 1 } },
    ];
    const R = 500;
    const rand = mulberry32(777);
    let hits = 0;
    for (let r = 0; r < R; r++) {
      let w3 = 0;
      for (let i = 0; i < 3; i++) if (Math.floor(rand() * 3) === 0) w3++;
      if (w3 >= 2) hits++;
    }
    const iv = crossoverBootstrap(pairs, { seed: 777, replicates: R })!;
    assert.equal(iv.atK1Share, hits / R);
    assert.equal(iv.noneShare, 1 - hits / R);
    assert.ok(hits > 0 && hits < R);
    const text = crossoverText({ crossoverK: null, saturationK: null, leaderAtK1: 'base', crossoverInterval: iv });
    assert.equal(
      text,
      `none (base leads); model ahead or level at some k in ${sharePct(hits / R)} of replicates [k 1], already at k = 1 in ${sharePct(hits / R)}`,
    );
    assert.match(
      CROSSOVER_NOTE,
      /where that model is already ahead or level at k = 1 in the resample, the replicate counts k = 1/,
    );
  });
});
