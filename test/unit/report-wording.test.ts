// sqlite-parity: skip — the report's wording and denominators; report-golden compares whole reports under node:sqlite
/**
 * How the report words what it shows: `— (k > n)` cells, NOT COMPARED warnings and the training base line by label,
 * the CSV rows of models not compared; the denominators the best-of-k line and the reward-model table state
 * (trial 12 finding 20, moved from folder-links.test.ts).
 *
 * Trial 8 (a fresh user's folders): findings 12 and 13 — how the report words what it shows — and trial 7's
 * leftover: the CSV export naming the models not compared. Each test builds the folder it needs in a
 * temporary directory and reads it through the compiled CLI (`report`, text and `--format json`), the CSV
 * export of that report, or a real SQLite index (the webview's data). Every expected value is the one a
 * person reading the folder would give.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { reportCsv } from '../../src/cli/main';
import { guessBaseModel } from '../../src/core/index/labels';
import { trainingData } from '../../src/extension/panelData';
import { K_ABOVE_N, passAtKCell } from '../../src/shared/passAtKCell';
import { cli, csvRows, humanEval, humanevalMbppFiles, indexed, qwen, writeFolder } from './helpers';

/** A results folder in a temporary directory: file text by relative path. */
const folder = (files: Record<string, string>): string => writeFolder(files, 'ti-t8r-');

/** Trial 7's ungraded base: Qwen2.5-7B without a verdict, Qwen2.5-7B-GRPO graded (2 problems, 4 samples each). */
const UNGRADED_BASE = {
  'Qwen2.5-7B/samples.jsonl': humanEval('UUUU UUUU'),
  'Qwen2.5-7B-GRPO/samples.jsonl_results.jsonl': humanEval('TTFF TFFF'),
};

// Trial 8 finding 13.
describe('a pass@k cell with k above the model\'s n says "— (k > n)"', () => {
  // trial 8's t9: checkpoints with n = 8 against a base with n = 4, so the series' k = 8 is above the base's n
  const QM = 'math_eval/math500/test_qwen-boxed_-1_seed0_t0.6_s0_e-1.jsonl';
  const files = {
    [`Qwen2.5-7B/${QM}`]: qwen('TFFF TFFF TFFF TFFF'),
    [`Qwen2.5-7B-GRPO/checkpoint-100/${QM}`]: qwen('TTFFFFFF TTFFFFFF TTFFFFFF TTFFFFFF'),
    [`Qwen2.5-7B-GRPO/checkpoint-200/${QM}`]: qwen('TTTTFFFF TTTTFFFF TTTTFFFF TTTTFFFF'),
  };

  test('text: the training table\'s base pass@8 is "— (k > n)", with the line that says why and no "(a/b)" line', () => {
    const { r, text } = cli(folder(files));
    assert.equal(r.trajectories.length, 1);
    assert.equal(r.trajectories[0].k, 8);
    const table = text.slice(text.indexOf('training: '));
    const row = (step: number) => table.split('\n').find((l) => l.startsWith(`${step} `)) ?? '';
    // step, problems, samples, correct, accuracy, pass@1, pass@8, base pass@1, base pass@8, paired, ...
    assert.match(
      row(100),
      /^100 +4 +32 +8 +25\.0 +25\.0 \[25\.0,25\.0\] +100\.0 \[100\.0,100\.0\] +25\.0 \[25\.0,25\.0\] +— \(k > n\) +4 /,
    );
    assert.match(
      row(200),
      /^200 +4 +32 +16 +50\.0 +50\.0 \[50\.0,50\.0\] +100\.0 \[100\.0,100\.0\] +25\.0 \[25\.0,25\.0\] +— \(k > n\) +4 /,
    );
    assert.doesNotMatch(text, /— \[—,—\] \(0\/4\)/);
    assert.match(table, /\n {2}— \(k > n\): k is above the model's largest number of graded samples per problem/);
    assert.doesNotMatch(table, /\(a\/b\)/);
  });

  test('JSON and CSV: the base point at k = 8 has no value, over 0 of its 4 problems, all 4 with n < 8', () => {
    const { r } = cli(folder(files), [], { text: false });
    for (const s of r.trajectories[0].steps) {
      const p = s.basePassAtK.find((x) => x.k === 8);
      assert.deepEqual(p && [p.value, p.ciLow, p.ciHigh, p.problems, p.missing, p.leftOut.belowK], [
        null,
        null,
        null,
        0,
        4,
        4,
      ]);
    }
    const rows = csvRows(reportCsv(r), 'base-pass@k').filter((c) => c[3] === '8');
    assert.equal(rows.length, 2);
    // value, ci_low, ci_high empty; problems 0, missing 4, no_samples 0, ungraded 0, n_below_k 4; steps 100, 200
    for (const c of rows) assert.deepEqual(c.slice(4, 12), ['', '', '', '0', '4', '0', '0', '4']);
    assert.deepEqual(
      rows.map((c) => c[15]),
      ['100', '200'],
    );
  });

  test('webview: the training table\'s cell (passAtKCell on trainingData) is "— (k > n)" too', async () => {
    const index = await indexed(folder(files));
    const ms = index.models();
    const d = trainingData(index, { baseId: ms[guessBaseModel(ms)].id }, 100);
    index.close();
    const st = d.series[0].steps[0];
    const fmt = (v: number | null) => (v === null ? '—' : v.toFixed(3));
    const mark = (p: { problems: number; missing: number }) =>
      p.missing > 0 ? ` (${p.problems} of ${p.problems + p.missing})` : '';
    const cell = (pts: typeof st.passAtK, k: number) =>
      passAtKCell(
        pts.find((x) => x.k === k),
        fmt,
        mark,
        ', ',
      );
    assert.equal(cell(st.basePassAtK, 8), K_ABOVE_N);
    assert.equal(cell(st.basePassAtK, 1), '0.250 [0.250, 0.250]');
    assert.equal(cell(st.passAtK, 8), '1.000 [1.000, 1.000]');
    // no point at all (a k the series has not): a bare dash, not "k > n"
    assert.equal(cell(st.basePassAtK, 2), '—');
  });

  test('passAtKCell: a value over some problems carries its mark; a point over none is "— (k > n)"', () => {
    const pct = (v: number | null) => (v === null ? '—' : (100 * v).toFixed(1));
    const mark = (p: { problems: number; missing: number }) =>
      p.missing ? ` (${p.problems}/${p.problems + p.missing})` : '';
    assert.equal(
      passAtKCell({ value: 0.5, ciLow: 0.25, ciHigh: 0.75, problems: 3, missing: 1 }, pct, mark),
      '50.0 [25.0,75.0] (3/4)',
    );
    assert.equal(
      passAtKCell({ value: null, ciLow: null, ciHigh: null, problems: 0, missing: 4 }, pct, mark),
      '— (k > n)',
    );
    assert.equal(passAtKCell(undefined, pct, mark), '—');
  });
});

// Trial 8 finding 12.
describe('NOT COMPARED warnings and the training base line name models by label', () => {
  test('an ungraded base: the warning and the JSON reason by label (ids stay in model and base)', () => {
    const { r, text } = cli(folder(UNGRADED_BASE));
    const reason =
      "its base Qwen2.5-7B has no graded sample (no verdict in its files: ungraded), so pass@k cannot be compared; grade the base's samples, or choose another base with --base";
    const x = r.notCompared.find((e) => e.kind === 'baseUngraded');
    assert.deepEqual(x && [x.model, x.base, x.reason], [
      'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
      'Qwen2.5-7B:Qwen2.5-7B',
      reason,
    ]);
    const warnings = r.warnings.filter((w) => w.includes('NOT COMPARED'));
    assert.deepEqual(warnings, [
      'Qwen2.5-7B: NOT COMPARED with any model: it is the base of Qwen2.5-7B-GRPO, none of which could be compared with it (see their lines)',
      `Qwen2.5-7B-GRPO: NOT COMPARED with any model: ${reason}`,
    ]);
    assert.ok(text.includes(`\nwarning: Qwen2.5-7B-GRPO: NOT COMPARED with any model: ${reason}\n`), text);
    assert.doesNotMatch(text, /NOT COMPARED.*Qwen2\.5-7B(-GRPO)?:Qwen2\.5-7B/);
  });

  test('labels that carry the path (--base of another dataset): warning, list and JSON say the same', () => {
    const dir = folder(humanevalMbppFiles());
    const { r, text } = cli(dir, ['--base', 'Qwen2.5-7B/mbpp']);
    const label = new Map(r.models.map((m) => [m.id, m.label]));
    const base = label.get('Qwen2.5-7B/mbpp:Qwen2.5-7B');
    assert.equal(base, 'Qwen2.5-7B (Qwen2.5-7B/mbpp)');
    const reason = `it has no graded problem in common with its base ${base} (2 graded problems of its own, 3 graded problems of the base's, none the same: other datasets or problem ids?); choose another base with --base`;
    for (const id of ['Qwen2.5-7B-GRPO/humaneval:Qwen2.5-7B-GRPO', 'Qwen2.5-7B/humaneval:Qwen2.5-7B']) {
      const name = label.get(id) ?? '';
      assert.match(name, /\/humaneval\)$/);
      assert.equal(r.notCompared.find((x) => x.model === id)?.reason, reason);
      assert.ok(r.warnings.includes(`${name}: NOT COMPARED with any model: ${reason}`), r.warnings.join('\n'));
      assert.ok(text.includes(`\n  ${name}: ${reason}\n`), text);
    }
  });

  test('the training section names its base by label', () => {
    const { r, text } = cli(
      folder({
        'Qwen2.5-7B/samples.jsonl_results.jsonl': humanEval('TF FF'),
        'Qwen2.5-7B-GRPO/checkpoint-100/results.jsonl': humanEval('TT FF'),
        'Qwen2.5-7B-GRPO/checkpoint-200/results.jsonl': humanEval('TT TF'),
      }),
    );
    assert.equal(r.trajectories[0].steps[0].base, 'Qwen2.5-7B:Qwen2.5-7B');
    assert.match(text, /\n {2}base: Qwen2\.5-7B\n/);
  });
});

// Trial 7 leftover.
describe('the CSV has a row for every model not compared, with its reason', () => {
  test("an ungraded base: both models in not-compared rows, so the CSV names all the folder's models", () => {
    const { r } = cli(folder(UNGRADED_BASE), [], { text: false });
    const csv = reportCsv(r);
    const rows = csv
      .split('\n')
      .map((l) => l.split(','))
      .filter((c) => c[2].startsWith('not-compared:'));
    // model, label, metric, problems (graded), base, dataset, datasets
    assert.deepEqual(
      rows.map((c) => [c[0], c[1], c[2], c[7], c[17], c[20], c[21]]),
      [
        ['Qwen2.5-7B:Qwen2.5-7B', 'Qwen2.5-7B', 'not-compared:baseOfNone', '0', '', 'HumanEval', 'HumanEval:2'],
        [
          'Qwen2.5-7B-GRPO:Qwen2.5-7B-GRPO',
          'Qwen2.5-7B-GRPO',
          'not-compared:baseUngraded',
          '2',
          'Qwen2.5-7B:Qwen2.5-7B',
          'HumanEval',
          'HumanEval:2',
        ],
      ],
    );
    // the ungraded base has no pass@k curve: one pass@k row without a value names it, its 2 problems missing as
    // ungraded (trial 12 finding 9; it had no pass@k row at all before)
    assert.deepEqual(
      csvRows(csv, 'pass@k')
        .filter((c) => c[0] === 'Qwen2.5-7B:Qwen2.5-7B')
        .map((c) => c.slice(3, 12)),
      [['1', '', '', '', '0', '2', '0', '2', '0']],
    );
    const named = new Set(
      csv
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    );
    assert.deepEqual([...named].sort(), r.models.map((m) => m.id).sort());
  });

  test('--base of another dataset: one comparison, the two models of the other dataset as noCommonProblem', () => {
    const { r } = cli(folder(humanevalMbppFiles()), ['--base', 'Qwen2.5-7B/mbpp'], { text: false });
    const rows = csvRows(reportCsv(r), 'not-compared:noCommonProblem').map((c) => [c[0], c[7], c[17]]);
    assert.deepEqual(rows.sort(), [
      ['Qwen2.5-7B-GRPO/humaneval:Qwen2.5-7B-GRPO', '2', 'Qwen2.5-7B/mbpp:Qwen2.5-7B'],
      ['Qwen2.5-7B/humaneval:Qwen2.5-7B', '2', 'Qwen2.5-7B/mbpp:Qwen2.5-7B'],
    ]);
    assert.equal(rows.length, r.notCompared.length);
  });
});

// Trial 12 finding 20.
describe('the best-of-k line and the reward-model table say their denominators', () => {
  test('a problem scored on some samples only: the best-of-k line says it counts with those, the table drops it', () => {
    const line = (idx: number, score: boolean[], ps: (number[] | null)[]) =>
      JSON.stringify({
        idx,
        gt: '2',
        code: score.map((_, i) => `t${idx}.${i}`),
        score,
        pred: score.map(() => '2'),
        pred_score: ps,
      });
    const dir = writeFolder({
      'Qwen2.5-Math-7B/math500/test.jsonl': [
        line(0, [true, true, false, true], [[0.9], [0.9], [0.3], [0.2]]),
        line(1, [false, true, true, false], [[0.5], [0.6], null, [0.1]]),
        line(2, [false, false], [[0.2], [0.3]]),
        line(3, [false, true, false, false], [[0.4], [0.1], [0.2], [0.3]]),
      ].join('\n'),
    });
    const { text } = cli(dir);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('best-of-k (reward-model selection'));
    assert.ok(at >= 0, text);
    assert.equal(
      lines[at + 2],
      "  (over each problem's graded samples that have a reward score, a problem scored on some samples only counting with those; the reward-model table below drops such a problem, its best-of-N is over the problems every scorer scored completely, so the two can differ at one k)",
    );
    assert.ok(
      lines.some((l) => l.startsWith('reward models on the samples of')),
      text,
    );
  });
});
