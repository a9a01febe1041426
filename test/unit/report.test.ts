import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditDiagnostics, auditFolder } from '../../src/core/analyses/summaryAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { normalizeAnswer } from '../../src/core/metrics/majority';
import { buildReport } from '../../src/core/report/index';
import { escapeControl } from '../../src/core/text/strings';
import { assertDocumentedShape, documentedShape, REAL, rawRolloutCounts, tempDir } from './helpers';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');

/** Unbiased pass@k from the binomial form, in exact rational arithmetic with BigInt (an independent oracle for small n). */
function passAtKExact(n: number, c: number, k: number): number {
  const choose = (a: number, b: number): bigint => {
    if (b < 0 || b > a) return 0n;
    let r = 1n;
    for (let i = 1; i <= b; i++) r = (r * BigInt(a - b + i)) / BigInt(i);
    return r;
  };
  return 1 - Number(choose(n - c, k)) / Number(choose(n, k));
}

describe('report on rlvr-probe-gsm8k results_2048_batched (SFT as base)', async () => {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, RUN);
  const audit = await auditFolder(index, RUN);
  const report = buildReport(index, { base: 'sft', audit });
  const rl = report.models.find((m) => m.id.startsWith('expx/'))!;
  const sft = report.models.find((m) => m.id.startsWith('ns-0/'))!;

  test('problems, samples, correct per model', () => {
    assert.equal(report.schemaVersion, 1);
    assert.equal(report.base, sft.id);
    assert.deepEqual([sft.problems, sft.samples, sft.correct], [30, 240, 133]);
    assert.deepEqual([rl.problems, rl.samples, rl.correct], [30, 240, 175]);
  });

  test('pass@1, 2, 4, 8 equal the mean of the exact per-problem formula over the raw rollouts', () => {
    for (const [m, file] of [
      [sft, 'sft_raw.jsonl'],
      [rl, 'rl_raw.jsonl'],
    ] as const) {
      const raw = [...rawRolloutCounts(join(RUN, file)).values()];
      assert.deepEqual(
        m.passAtK.map((p) => p.k),
        [1, 2, 4, 8],
      );
      for (const p of m.passAtK) {
        const expected = raw.reduce((a, r) => a + passAtKExact(r.n, r.c, p.k), 0) / raw.length;
        assert.ok(Math.abs(p.value! - expected) < 1e-12, `${m.id} pass@${p.k}: ${p.value} vs ${expected}`);
        assert.ok(p.ciLow! <= p.value! && p.value! <= p.ciHigh!);
      }
    }
    // the figures the data README quotes
    assert.equal(sft.passAtK[0].value, 133 / 240);
    assert.ok(Math.abs(sft.passAtK[3].value! - 28 / 30) < 1e-12);
    assert.ok(Math.abs(rl.passAtK[3].value! - 29 / 30) < 1e-12);
  });

  test('coverage and categories match a direct recount of the raw rollouts', () => {
    const b = rawRolloutCounts(join(RUN, 'sft_raw.jsonl'));
    const m = rawRolloutCounts(join(RUN, 'rl_raw.jsonl'));
    const cov = { baseOnly: 0, modelOnly: 0, both: 0, neither: 0 };
    const cat = { sharpening: 0, expansion: 0, regression: 0, unchanged: 0, unsolved: 0 };
    for (const [qid, bc] of b) {
      const mc = m.get(qid)!;
      const bs = bc.c > 0;
      const ms = mc.c > 0;
      if (bs && ms) cov.both++;
      else if (bs) cov.baseOnly++;
      else if (ms) cov.modelOnly++;
      else cov.neither++;
      if (!bs && !ms) cat.unsolved++;
      else if (!bs) cat.expansion++;
      else if (mc.c > bc.c) cat.sharpening++;
      else if (mc.c < bc.c) cat.regression++;
      else cat.unchanged++;
    }
    assert.equal(report.comparisons.length, 1);
    const c = report.comparisons[0];
    assert.deepEqual(c.coverage, cov);
    assert.deepEqual(c.coverage, { baseOnly: 0, modelOnly: 1, both: 28, neither: 1 });
    assert.deepEqual(c.categories, cat);
    // RL leads at k = 1 and the SFT model never catches up by k = 8 on this run
    assert.equal(c.leaderAtK1, 'model');
    assert.equal(c.crossoverK, null);
  });

  test('audit lists the summary.json disagreements with the raw rollouts', () => {
    const byMetric = new Map(report.audit.filter((a) => a.file === 'summary.json').map((a) => [a.metric, a]));
    assert.equal(byMetric.get('sft_sample_accuracy')?.stored, 0.5333333333333333);
    assert.equal(byMetric.get('sft_sample_accuracy')?.recomputed, 133 / 240);
    assert.equal(byMetric.get('sft_pass_at_k')?.stored, 0.8666666666666667);
    assert.ok(Math.abs(byMetric.get('sft_pass_at_k')!.recomputed - 28 / 30) < 1e-12);
    assert.equal(byMetric.get('rl_sample_accuracy')?.recomputed, 175 / 240);
    assert.ok(Math.abs(byMetric.get('rl_pass_at_k')!.recomputed - 29 / 30) < 1e-12);
    // per_question.csv stores 0 correct for qid 13 where the rollouts have 3
    const q13 = report.audit.find((a) => a.metric === 'c_sft[qid=13]');
    assert.deepEqual([q13?.stored, q13?.recomputed], [0, 3]);
  });

  test('audit: a problem whose line could not be read is not reported as "recomputed 0"', async () => {
    const dir = tempDir();
    for (const f of ['rl_raw.jsonl', 'sft_raw.jsonl', 'per_question.csv', 'summary.json', 'run_config.json']) {
      if (existsSync(join(RUN, f))) copyFileSync(join(RUN, f), join(dir, f));
    }
    // Break the RL record of qid 4 (line 5): that problem has no RL samples in the index.
    const lines = readFileSync(join(dir, 'rl_raw.jsonl'), 'utf8').split('\n');
    assert.equal(JSON.parse(lines[4]).qid, 4);
    lines[4] = lines[4].slice(0, 100);
    writeFileSync(join(dir, 'rl_raw.jsonl'), lines.join('\n'));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const audit = await auditFolder(index, dir);
    assert.equal(
      audit.find((a) => a.metric === 'c_rl[qid=4]'),
      undefined,
    );
    // the disagreement that is real is still found
    assert.deepEqual(
      audit.filter((a) => a.metric === 'c_sft[qid=13]').map((a) => [a.stored, a.recomputed]),
      [[0, 3]],
    );
    index.close();
  });

  test('audit entries become warnings at the line of the figure in the summary file', () => {
    const d = auditDiagnostics(RUN, report.audit);
    const acc = d.find((x) => x.message.startsWith('sft_sample_accuracy'))!;
    assert.deepEqual([acc.file, acc.severity], ['summary.json', 'warning']);
    assert.match(readFileSync(join(RUN, 'summary.json'), 'utf8').split('\n')[acc.line - 1], /"sft_sample_accuracy"/);
    assert.equal(
      acc.message,
      'sft_sample_accuracy: this file says 0.5333, the raw samples give 0.5542 (<alias>_sample_accuracy = correct / graded samples of the model (samples without a verdict are in no figure))',
    );
    const q13 = d.find((x) => x.message.startsWith('c_sft[qid=13]'))!;
    assert.match(readFileSync(join(RUN, 'per_question.csv'), 'utf8').split('\n')[q13.line - 1], /^13,/);
  });

  test('maj@8 votes on pred_value (the parsed answer): a direct vote count over the raw rollouts', async () => {
    const m = buildReport(index, { base: 'sft', majAtK: true }).models.find((x) => /sft/.test(x.id))!;
    const lines = readFileSync(join(RUN, 'sft_raw.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { qid: number; rollouts: { pred_value: number | null; correct: boolean }[] });
    const perProblem = lines.map((l) => {
      // plurality of the parsed values over all 8 samples; a tie splits the credit; a value counts as correct if any sample with it is
      const groups = new Map<string, { size: number; correct: boolean }>();
      for (const r of l.rollouts) {
        if (r.pred_value === null || r.pred_value === undefined) continue;
        const g = groups.get(String(r.pred_value)) ?? { size: 0, correct: false };
        g.size++;
        g.correct ||= r.correct;
        groups.set(String(r.pred_value), g);
      }
      const max = Math.max(0, ...[...groups.values()].map((g) => g.size));
      const winners = [...groups.values()].filter((g) => g.size === max && max > 0);
      return { qid: l.qid, v: winners.length ? winners.filter((g) => g.correct).length / winners.length : 0 };
    });
    const expected = perProblem.reduce((a, p) => a + p.v, 0) / perProblem.length;
    const at8 = m.majAtK!.find((p) => p.k === 8)!;
    assert.ok(Math.abs(at8.value! - expected) < 1e-12, `maj@8 ${at8.value} vs ${expected}`);
    // qid 22: "\$8,\!096" and "The optimal choice provides \$8,096" are one parsed value: a 4-4 tie, credit 0.5
    assert.equal(perProblem.find((p) => p.qid === 22)!.v, 0.5);
  });

  test('bootstrap intervals are reproducible with the same seed', () => {
    const again = buildReport(index, { base: 'sft', audit });
    assert.deepEqual(again.models, report.models);
  });
});

describe('report on the whole rlvr-probe-gsm8k folder (several runs)', async () => {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, join(REAL, 'rlvr-probe-gsm8k'));

  test('without --base each RL model is compared with the SFT model of its own run', () => {
    const r = buildReport(index);
    assert.equal(r.comparisons.length, 6);
    for (const c of r.comparisons) {
      const run = (id: string) => id.slice(0, id.indexOf(':'));
      assert.equal(run(c.base), run(c.model), `${c.model} vs ${c.base}`);
      assert.match(c.base, /qwen-2\.5-1\.5b-instruct-reasoning-sft/);
      assert.match(c.model, /rlvr-ppo/);
    }
    // checkpoints in natural order
    assert.deepEqual(
      r.models
        .filter((m) => m.run.startsWith('trajectory/'))
        .map((m) => m.run)
        .filter((x, i, a) => a.indexOf(x) === i),
      ['trajectory/step-100', 'trajectory/step-300', 'trajectory/step-500', 'trajectory/step-1000'],
    );
  });

  test('--base step-100 picks step-100, not step-1000', () => {
    const r = buildReport(index, { base: 'rlvr-ppo@step-100', replicates: 200 });
    assert.equal(r.base, 'trajectory/step-100:expx/qwen-2.5-1.5b-rlvr-ppo@step-100');
    assert.equal(r.comparisons.length, 11);
  });
});

describe('report on the Qwen2.5-Math example', async () => {
  const dir = join(REAL, 'qwen25-math-eval-example');
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const report = buildReport(index);
  const raw = readFileSync(join(dir, 'math_cot_100.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { score: boolean[]; pred_score: number[][]; level: number | string });

  test('pass@k from score[]', () => {
    const m = report.models[0];
    assert.deepEqual([m.problems, m.samples], [100, 800]);
    for (const p of m.passAtK) {
      const expected =
        raw.reduce((a, r) => a + passAtKExact(r.score.length, r.score.filter(Boolean).length, p.k), 0) / raw.length;
      assert.ok(Math.abs(p.value! - expected) < 1e-12, `pass@${p.k}`);
    }
  });

  test('best-of-k from pred_score: best-of-1 = pass@1, best-of-8 = correctness of the top-scored sample', () => {
    const m = report.models[0];
    assert.deepEqual(
      m.bestOfK.map((b) => b.k),
      [1, 2, 4, 8],
    );
    assert.ok(Math.abs(m.bestOfK[0].value! - m.passAtK[0].value!) < 1e-12);
    // With all 8 samples, best-of-8 picks the highest score (ties: the mean correctness of the tied group).
    const top = raw.map((r) => {
      const scores = r.pred_score.map((s) => s[s.length - 1]);
      const max = Math.max(...scores);
      const tied = scores.map((s, i) => (s === max ? i : -1)).filter((i) => i >= 0);
      return tied.filter((i) => r.score[i]).length / tied.length;
    });
    const expected = top.reduce((a, b) => a + b, 0) / top.length;
    assert.ok(Math.abs(m.bestOfK[3].value! - expected) < 1e-12, `${m.bestOfK[3].value} vs ${expected}`);
  });

  test('maj@k (asked for): maj@1 and maj@8 equal a direct vote count over pred[], judged by the reference gt', () => {
    assert.equal(report.models[0].majAtK, undefined, 'absent unless asked for');
    const m = buildReport(index, { majAtK: true }).models[0];
    assert.deepEqual(
      m.majAtK!.map((p) => p.k),
      [1, 2, 4, 8],
    );
    // every problem has a reference (gt), so a group is correct iff its value equals the reference
    const votes = raw.map((r) => {
      const answers = (r as unknown as { pred: string[] }).pred.map((a) => normalizeAnswer(a));
      const ref = normalizeAnswer((r as unknown as { gt: string }).gt);
      const groups = new Map<string, { size: number; correct: boolean }>();
      answers.forEach((a) => {
        if (a === null) return;
        const g = groups.get(a) ?? { size: 0, correct: a === ref };
        g.size++;
        groups.set(a, g);
      });
      const n = answers.length;
      // k = 1: one random sample; it scores when it has an answer whose group holds a correct sample.
      const maj1 = answers.filter((a) => a !== null && groups.get(a)!.correct).length / n;
      // k = n: the plurality answer of all samples; a tie splits the credit.
      const max = Math.max(0, ...[...groups.values()].map((g) => g.size));
      const winners = [...groups.values()].filter((g) => g.size === max && max > 0);
      const majN = winners.length ? winners.filter((g) => g.correct).length / winners.length : 0;
      return { maj1, majN };
    });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    assert.ok(Math.abs(m.majAtK![0].value! - mean(votes.map((v) => v.maj1))) < 1e-12, `maj@1 ${m.majAtK![0].value}`);
    assert.ok(Math.abs(m.majAtK![3].value! - mean(votes.map((v) => v.majN))) < 1e-12, `maj@8 ${m.majAtK![3].value}`);
    assert.equal(m.majAtK![3].problems, 100);
    assert.equal(m.majAtK![3].byReference, 100);
    // By hand: the one place the reference and the folder's verdicts disagree is idx 72, whose 8th sample
    // answers "10000" against gt "10{,}000" and is graded incorrect. By the reference it is correct, so
    // maj@1 = pass@1 + (1/8)/100 = 0.91 + 0.00125; maj@8 is unchanged ("9999" wins 3 votes).
    assert.ok(Math.abs(m.passAtK[0].value! - 0.91) < 1e-12);
    assert.ok(Math.abs(m.majAtK![0].value! - 0.91125) < 1e-12, `maj@1 ${m.majAtK![0].value}`);
  });

  test('per-level strata exist for levels 1-5 and add up to the problems', () => {
    const levels = report.strata.map((s) => s.level);
    assert.deepEqual(levels, ['1', '2', '3', '4', '5']);
    assert.equal(
      report.strata.reduce((a, s) => a + s.problems, 0),
      100,
    );
  });
});

describe('CLI', () => {
  const cli = join(process.cwd(), 'dist', 'cli.js');

  test('index --format json prints the summary; report --format json has the documented shape', () => {
    const db = join(tempDir(), 'i.db');
    const out = JSON.parse(
      execFileSync(process.execPath, [cli, 'index', RUN, '--db', db, '--format', 'json', '-q'], { encoding: 'utf8' }),
    );
    assert.deepEqual(Object.keys(out), [
      'filesIndexed',
      'filesSkipped',
      'filesRemoved',
      'samples',
      'searchIndex',
      'annotationsOfChangedFiles',
      'diagnostics',
    ]);
    // index waits for the full-text index: every sample is in it
    assert.deepEqual(out.searchIndex, { samples: 480, indexed: 480 });
    // the shape docs/cli.md documents is the real one
    assertDocumentedShape(out, documentedShape('docs/cli.md', '## `index`'));
    assert.deepEqual([out.filesIndexed, out.samples], [2, 480]);
    const again = JSON.parse(
      execFileSync(process.execPath, [cli, 'index', RUN, '--db', db, '--format', 'json', '-q'], { encoding: 'utf8' }),
    );
    assert.deepEqual([again.filesIndexed, again.filesSkipped], [0, 2]);
    const r = JSON.parse(
      execFileSync(process.execPath, [cli, 'report', RUN, '--db', db, '--base', 'sft', '--format', 'json', '-q'], {
        encoding: 'utf8',
      }),
    );
    assert.equal(r.schemaVersion, 1);
    for (const key of ['models', 'comparisons', 'strata', 'audit', 'diagnostics'])
      assert.ok(Array.isArray(r[key]), key);
    assert.deepEqual(Object.keys(r.models[0].passAtK[0]).slice(0, 4), ['k', 'value', 'ciLow', 'ciHigh']);
    assert.equal(r.comparisons[0].coverage.modelOnly, 1);
  });

  test("--input-format forces the reader for result files but still skips the folder's summaries", () => {
    const out = JSON.parse(
      execFileSync(
        process.execPath,
        [cli, 'index', RUN, '--db', join(tempDir(), 'i.db'), '--input-format', 'rollouts', '--format', 'json', '-q'],
        { encoding: 'utf8' },
      ),
    );
    // the run's summary.txt is named as no results file (trial 10 finding 10f), nothing else
    assert.deepEqual(
      [
        out.filesIndexed,
        out.samples,
        out.diagnostics.map((d: { file: string; severity: string }) => [d.file, d.severity]),
      ],
      [2, 480, [['summary.txt', 'info']]],
    );
  });

  test('report --maj-at-k adds the maj@k line to the table and the curve to the JSON', () => {
    const dir = join(REAL, 'qwen25-math-eval-example');
    const db = join(tempDir(), 'i.db');
    const table = execFileSync(process.execPath, [cli, 'report', dir, '--db', db, '--maj-at-k', '-q'], {
      encoding: 'utf8',
    });
    assert.match(
      table,
      /maj@k \(majority vote over extracted answers grouped by answer equivalence, %\):\n {2}\(every sample of a problem votes[^\n]*\)\n {2}.*: k=1 91\.1 {2}k=2 \d+\.\d {2}k=4 \d+\.\d {2}k=8 \d+\.\d \(at k=1: all 100 problems judged by the reference answer\)/,
    );
    const plain = execFileSync(process.execPath, [cli, 'report', dir, '--db', db, '-q'], { encoding: 'utf8' });
    assert.doesNotMatch(plain, /maj@k/);
    const json = JSON.parse(
      execFileSync(process.execPath, [cli, 'report', dir, '--db', db, '--maj-at-k', '500', '--format', 'json', '-q'], {
        encoding: 'utf8',
      }),
    );
    assert.deepEqual(
      json.models[0].majAtK.map((p: { k: number }) => p.k),
      [1, 2, 4, 8],
    );
    const bad = spawnSync(process.execPath, [cli, 'report', dir, '--db', db, '--maj-at-k', '7', '-q'], {
      encoding: 'utf8',
    });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--maj-at-k.*argument '7' is invalid\. expected an integer >= 100/);
    // One line and a pointer to --help, not the whole help text.
    assert.match(bad.stderr, /\(run with --help for usage\)/);
    assert.doesNotMatch(bad.stderr, /Options:/);
  });

  test('report --format csv: one row per model, metric and k (pass@k with its interval, best-of-k, maj@k), the same values as the JSON', () => {
    const dir = join(REAL, 'qwen25-math-eval-example');
    const db = join(tempDir(), 'i.db');
    const json = JSON.parse(
      execFileSync(process.execPath, [cli, 'report', dir, '--db', db, '--maj-at-k', '--format', 'json', '-q'], {
        encoding: 'utf8',
      }),
    );
    const csv = execFileSync(
      process.execPath,
      [cli, 'report', dir, '--db', db, '--maj-at-k', '--format', 'csv', '-q'],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n');
    assert.equal(
      csv[0],
      'model,label,metric,k,value,ci_low,ci_high,problems,missing,no_samples,ungraded,n_below_k,no_reward_score,level,series,step,scorer,base,not_in_base,not_in_model,dataset,datasets,partly_scored,base_label',
    );
    const rows = csv.slice(1).map((l) => l.split(','));
    const m = json.models[0];
    for (const [metric, points] of [
      ['pass@k', m.passAtK],
      ['best-of-k', m.bestOfK],
      ['maj@k', m.majAtK],
    ] as const) {
      const got = rows.filter((r) => r[2] === metric && r[13] === '');
      assert.equal(got.length, 4, metric);
      got.forEach((r, i) => {
        assert.equal(Number(r[3]), points[i].k);
        assert.equal(Number(r[4]), points[i].value);
        // 100 problems, every one with 8 graded samples: all of them, nothing missing
        assert.deepEqual([r[7], r[8], r[9], r[10], r[11]].map(Number), [100, 0, 0, 0, 0], metric);
      });
    }
    assert.equal(Number(rows.find((r) => r[2] === 'pass@k')![5]), m.passAtK[0].ciLow);
    // per difficulty level: the level's problems; problems + missing = the level's size in the JSON
    const levelRows = rows.filter((r) => r[13] !== '');
    assert.ok(levelRows.length > 0);
    for (const r of levelRows) {
      const s = json.strata.find((x: { level: string }) => x.level === r[13]);
      assert.equal(Number(r[7]) + Number(r[8]), s.problems, r.join(','));
    }
    // the reward score is the scorer reward_score of the reward-model rows (last column): every sample is
    // scored and graded here, so its best-of-N is the model's best-of-k
    const rm = rows.filter((r) => r[2] === 'rm-best-of-n');
    assert.deepEqual(
      rm.map((r) => [r[16], Number(r[3]), Number(r[4])]),
      m.bestOfK.map((b: { k: number; value: number }) => ['reward_score', b.k, b.value]),
    );
  });

  test('the audit says its figures come from the records that could be read when a results line is broken', () => {
    const dir = tempDir();
    for (const f of ['rl_raw.jsonl', 'sft_raw.jsonl', 'per_question.csv', 'summary.json', 'run_config.json']) {
      if (existsSync(join(RUN, f))) copyFileSync(join(RUN, f), join(dir, f));
    }
    const lines = readFileSync(join(dir, 'sft_raw.jsonl'), 'utf8').split('\n');
    lines[3] = lines[3].slice(0, 50);
    writeFileSync(join(dir, 'sft_raw.jsonl'), lines.join('\n'));
    const out = execFileSync(
      process.execPath,
      [cli, 'report', dir, '--db', join(tempDir(), 'i.db'), '--base', 'sft', '-q'],
      { encoding: 'utf8' },
    );
    assert.match(
      out,
      /audit: figures stored in the folder that disagree with the raw samples \(67 figures in 2 files checked\):\n {2}\(recomputed from the records that could be read: 1 error in the results files, listed below\)/,
    );
    assert.match(out, /sft_raw\.jsonl:4: error: malformed JSON/);
    const clean = execFileSync(
      process.execPath,
      [cli, 'report', RUN, '--db', join(tempDir(), 'i.db'), '--base', 'sft', '-q'],
      { encoding: 'utf8' },
    );
    assert.doesNotMatch(clean, /recomputed from the records that could be read/);
  });

  test('report on a folder without samples fails (exit 1) and prints no empty table', () => {
    const res = spawnSync(process.execPath, [cli, 'report', tempDir(), '--db', join(tempDir(), 'i.db'), '-q'], {
      encoding: 'utf8',
    });
    assert.equal(res.status, 1);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /no samples found in/);
  });

  test('an unknown --base is an error that names the models', () => {
    const res = spawnSync(
      process.execPath,
      [cli, 'report', RUN, '--db', join(tempDir(), 'i.db'), '--base', 'nonexistent', '-q'],
      { encoding: 'utf8' },
    );
    assert.equal(res.status, 1);
    assert.match(res.stderr, /no model matches --base "nonexistent"/);
  });

  test('model output cannot inject terminal escapes', () => {
    assert.equal(escapeControl('a\x1b[31mred\x07\u009b2J'), 'a\\x1b[31mred\\x07\\x9b2J');
    assert.equal(escapeControl('line1\nline2', true), 'line1\nline2');
  });
});
