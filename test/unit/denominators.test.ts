// sqlite-parity: skip — the report's wording and denominators; report-golden compares whole reports under node:sqlite
/**
 * Every figure says what it is computed over, and nothing in a folder is dropped silently (issue 9):
 * folders built here, indexed into real SQLite, reported by the core and the CLI; the right values
 * are computed by hand in the comments. Run with cwd = the repository root.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditFolder } from '../../src/core/analyses/summaryAudit';
import { denominatorMark, describeDenominator } from '../../src/core/metrics/denominators';
import { DIAGNOSTICS_PER_KIND, DiagnosticCap, diagnosticKind } from '../../src/core/index/diagnosticCap';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { Diagnostic } from '../../src/core/model';
import { buildReport } from '../../src/core/report/index';
import { overviewData } from '../../src/extension/panelData';
import { REAL, tempDir } from './helpers';
import { runCli } from './reliability.support';

const fmt = (d: Diagnostic) => `${d.file}:${d.line}:${d.severity}:${d.message}`;

function put(dir: string, rel: string, content: string | Buffer): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), content);
}

/** One Qwen2.5-Math line: `idx`, texts `s0..`, scores as given. */
function qwenLine(idx: number | string, scores: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    idx,
    question: `q${idx}`,
    gt: '1',
    code: scores.map((_, i) => `s${i}`),
    score: scores,
    ...extra,
  });
}

async function indexed(dir: string, options: Parameters<typeof indexFolder>[2] = {}) {
  const index = TraceIndex.open(':memory:');
  const summary = await indexFolder(index, dir, options);
  return { index, summary };
}

describe('denominators: every problem of the model is counted', () => {
  test('a model of 4 problems, one with no samples and one with every score null: pass@1 over 2, missing 2 by reason', async () => {
    const dir = tempDir();
    put(
      dir,
      'm/res.jsonl',
      [
        qwenLine(0, [true, false]), // c/n = 1/2
        qwenLine(1, [true, true]), // 2/2
        qwenLine(2, []), // no samples
        qwenLine(3, [null, null]), // no graded sample
      ].join('\n'),
    );
    const { index, summary } = await indexed(dir);
    assert.deepEqual(summary.diagnostics.map(fmt), [
      'm/res.jsonl:3:info:problem "2" of model m has no samples: it counts in "missing" of every figure of this model',
      'm/res.jsonl:4:info:problem "3" of model m has no graded sample (2 samples, none with a verdict): it counts in "missing" of every figure of this model',
    ]);
    const model = index.models()[0];
    assert.deepEqual([model.problems, model.samples, model.emptyProblems, model.ungradedProblems], [4, 6, 1, 1]);
    // neither of them is "failing": they have no verdict
    assert.equal(index.countProblems({ kind: 'failing', model: model.id }), 0);
    assert.equal(index.countProblems({ kind: 'all' }), 4);
    const r = buildReport(index);
    const m = r.models[0];
    assert.equal(m.problems, 4);
    assert.deepEqual(m.leftOut, { noSamples: 1, ungraded: 1 });
    // pass@1 = (1/2 + 2/2) / 2 = 0.75 over 2 of 4; pass@2 = (1 + 1) / 2 = 1 over the same 2
    assert.deepEqual(
      m.passAtK.map((p) => [p.k, p.value, p.problems, p.missing, p.leftOut]),
      [
        [1, 0.75, 2, 2, { noSamples: 1, ungraded: 1, belowK: 0 }],
        [2, 1, 2, 2, { noSamples: 1, ungraded: 1, belowK: 0 }],
      ],
    );
    assert.equal(
      describeDenominator(m.passAtK[0], 1),
      'over 2 of 4 problems: 1 has no samples, 1 has no graded sample',
    );
    assert.ok(r.warnings.some((w) => w.includes('of its 4 problems, 1 has no samples and 1 has no graded sample')));
    index.close();
  });

  test('a ragged problem (n = 1000 of 2048): pass@1024 and pass@2048 are over 5 of 6 problems, and say so in table, CSV and JSON', async () => {
    const dir = tempDir();
    const all = (n: number, v: boolean) => Array.from({ length: n }, () => v);
    // p0..p3 always correct, p4 never, p5 always correct but only 1000 samples
    const lines = [0, 1, 2, 3].map((i) => qwenLine(i, all(2048, true)));
    lines.push(qwenLine(4, all(2048, false)), qwenLine(5, all(1000, true)));
    put(dir, 'm/res.jsonl', lines.join('\n'));
    const tmp = tempDir();
    const db = join(tmp, 'i.db');
    const json = JSON.parse(
      runCli(['report', dir, '--db', db, '--format', 'json', '-q', '--replicates', '100'], tmp).stdout,
    );
    const at = (k: number) => json.models[0].passAtK.find((p: { k: number }) => p.k === k);
    // k <= 512: all 6 problems, 5 of them solved by every draw: 5/6; k = 1024, 2048: p5 has n < k, 4/5
    assert.deepEqual([at(512).value, at(512).problems, at(512).missing], [5 / 6, 6, 0]);
    for (const k of [1024, 2048]) {
      assert.deepEqual([at(k).value, at(k).problems, at(k).missing, at(k).leftOut.belowK], [0.8, 5, 1, 1], `k=${k}`);
    }
    const table = runCli(['report', dir, '--db', db, '-q', '--replicates', '100'], tmp).stdout;
    const row = table.split('\n').find((l) => l.startsWith('m '))!;
    assert.match(row, /83\.3 \[[^\]]+\] {2,}80\.0 \[[^\]]+\] \(5\/6\) {2,}80\.0 \[[^\]]+\] \(5\/6\)$/);
    assert.doesNotMatch(row.slice(0, row.indexOf('80.0')), /\(\d+\/6\)/, 'no mark while every problem counts');
    assert.match(table, /the problem set changes along k: pass@1024 to pass@2048 over 5 of 6 problems: 1 has n < 1024/);
    const csv = runCli(['report', dir, '--db', db, '-q', '--format', 'csv', '--replicates', '100'], tmp).stdout;
    const r2048 = csv
      .split('\n')
      .find((l) => l.includes(',pass@k,2048,'))!
      .split(',');
    // problems, missing, no_samples, ungraded, n_below_k (columns of CSV_HEADER)
    assert.deepEqual([r2048[7], r2048[8], r2048[9], r2048[10], r2048[11]], ['5', '1', '0', '0', '1']);
  });

  test('a problem set per level and per comparison keeps its own denominator', async () => {
    const dir = tempDir();
    const lvl = (level: number) => ({ level: `Level ${level}` });
    put(
      dir,
      'base/math_eval/ds/test_x.jsonl',
      [qwenLine(0, [true, false], lvl(1)), qwenLine(1, [false, false], lvl(1)), qwenLine(2, [true, true], lvl(2))].join(
        '\n',
      ),
    );
    put(
      dir,
      'rl/math_eval/ds/test_x.jsonl',
      [
        qwenLine(0, [true, true], lvl(1)),
        qwenLine(1, [], lvl(1)), // no samples
        qwenLine(2, [true, false], lvl(2)),
        qwenLine(3, [true, false], lvl(2)), // the base has no record of it
      ].join('\n'),
    );
    const { index } = await indexed(dir);
    const r = buildReport(index, { base: 'base', replicates: 100 });
    const rl = r.strata.filter((s) => s.model === 'rl');
    // level 1 of rl: problems 0 and 1 (1 without samples): pass@1 = 2/2 = 1 over 1 of 2
    const l1 = rl.find((s) => s.level === '1')!;
    assert.deepEqual([l1.problems, l1.passAtK[0].value, l1.passAtK[0].problems, l1.passAtK[0].missing], [2, 1, 1, 1]);
    // level 2 of rl: problems 2, 3: pass@1 = (1/2 + 1/2) / 2 = 0.5 over both
    const l2 = rl.find((s) => s.level === '2')!;
    assert.deepEqual([l2.problems, l2.passAtK[0].value, l2.passAtK[0].missing], [2, 0.5, 0]);
    // comparison rl vs base: shared graded problems 0 and 2; problem 1 no samples, problem 3 not in the base
    const c = r.comparisons[0];
    assert.deepEqual(
      [c.problems, c.missing, c.leftOut],
      [2, 2, { noSamples: 1, ungraded: 0, belowK: 0, notInBase: 1, notInModel: 0 }],
    );
    assert.deepEqual(
      c.passAtKDiff.map((d) => [d.k, d.problems, d.missing]),
      [
        [1, 2, 2],
        [2, 2, 2],
      ],
    );
    index.close();
  });
});

describe('scores that are not verdicts', () => {
  // rewards strictly between 0 and 1 and no verdict beside them: a column of scores (a 1.0 among them would make
  // them partial credit, counted not correct: trial 12 finding 6, readers.verdicts.test.ts)
  const TOT =
    '[{"idx":0,"ys":["a","b"],"infos":[{"r":0.9},{"r":0.3}]},{"idx":1,"ys":["c","d"],"infos":[{"r":0.2},{"r":0.1}]}]';

  test('Tree-of-Thought partial rewards: no verdicts by default; with threshold 0.9: pass@1 0.25, pass@2 0.5', async () => {
    const dir = tempDir();
    put(dir, 'logs/crosswords/cot.json', TOT);
    const index = TraceIndex.open(':memory:');
    const first = await indexFolder(index, dir);
    // one diagnostic for the file, naming the option; every sample ungraded
    assert.deepEqual(first.diagnostics.filter((d) => d.severity === 'warning').map(fmt), [
      'logs/crosswords/cot.json:1:warning:infos[].r values are scores, not verdicts (values other than 0/1, e.g. 0.9): every infos[].r value of this file that spells a number is a score (numbers and numeric strings alike), so its 4 scores other than 0/1 are ungraded (true/false and words such as "yes" stay verdicts); to count a score >= x as correct, give --correct-threshold x (setting traceInspector.correctThreshold)',
    ]);
    let m = buildReport(index, { replicates: 100 }).models[0];
    assert.deepEqual([m.problems, m.passAtK, m.leftOut], [2, [], { noSamples: 0, ungraded: 2 }]);
    // the same index, a threshold: every file is read again
    const second = await indexFolder(index, dir, { readerOptions: { correctThreshold: 0.9 } });
    assert.equal(second.filesIndexed, 1);
    m = buildReport(index, { replicates: 100 }).models[0];
    // problem 0: 1 of 2 correct (0.9 >= 0.9), problem 1: 0 of 2. pass@1 = (1/2 + 0) / 2; pass@2 = (1 + 0) / 2
    assert.deepEqual(
      m.passAtK.map((p) => [p.k, p.value, p.missing]),
      [
        [1, 0.25, 0],
        [2, 0.5, 0],
      ],
    );
    assert.deepEqual(second.diagnostics.map(fmt), [
      'logs/crosswords/cot.json:1:info:4 infos[].r values are scores other than 0/1, read as verdicts with the threshold 0.9 (a score >= 0.9 is correct)',
    ]);
    // an unchanged folder with the same threshold is not read again; back to none: read again
    assert.equal((await indexFolder(index, dir, { readerOptions: { correctThreshold: 0.9 } })).filesIndexed, 0);
    assert.equal((await indexFolder(index, dir)).filesIndexed, 1);
    assert.deepEqual(buildReport(index, { replicates: 100 }).models[0].passAtK, []);
    index.close();
  });

  test('the CLI takes --correct-threshold (and refuses a non-number)', () => {
    const dir = tempDir();
    put(dir, 'cot.json', TOT);
    const tmp = tempDir();
    const r = runCli(
      ['report', dir, '--db', join(tmp, 'i.db'), '--format', 'json', '-q', '--correct-threshold', '0.9'],
      tmp,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).models[0].passAtK.map((p: { value: number }) => p.value),
      [0.25, 0.5],
    );
    const bad = runCli(['report', dir, '--db', join(tmp, 'i.db'), '--correct-threshold', 'high'], tmp);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /expected a number/);
  });

  test('a JSONL file whose scores turn out, further down, not to be verdicts: the verdicts read before are withdrawn', async () => {
    // rollouts: line 1 correct 1/0 (verdicts, so far), line 3 correct 1.5: the file holds scores
    const dir = tempDir();
    const line = (qid: number, cs: unknown[]) =>
      JSON.stringify({ qid, model_name: 'm', rollouts: cs.map((c, i) => ({ rollout: i, text: `t${i}`, correct: c })) });
    put(dir, 'r.jsonl', [line(0, [1, 0]), line(1, [true, false]), line(2, [1.5, 1])].join('\n'));
    for (const parallelReadMinBytes of [Number.POSITIVE_INFINITY, 0]) {
      const { index } = await indexed(dir, { parallelReadMinBytes });
      const verdicts = (
        index.db.prepare('SELECT line, correct FROM samples ORDER BY line, sample_index').all() as {
          line: number;
          correct: number | null;
        }[]
      ).map((r) => [r.line, r.correct]);
      // booleans stay verdicts; every number (1/0 of line 1 included) is a score: ungraded
      assert.deepEqual(
        verdicts,
        [
          [1, null],
          [1, null],
          [2, 1],
          [2, 0],
          [3, null],
          [3, null],
        ],
        `parallelReadMinBytes ${parallelReadMinBytes}`,
      );
      assert.deepEqual(
        index.allStats().map((s) => [s.n, s.graded, s.c]),
        [
          [2, 0, 0],
          [2, 2, 1],
          [2, 0, 0],
        ],
      );
      index.close();
    }
  });

  test('best-of-k only where samples carry a reward score: none for Inspect logs (their scores are the verdicts)', async () => {
    const { index } = await indexed(join(REAL, 'inspect-logs'));
    const r = buildReport(index, { replicates: 100 });
    assert.ok(r.models.length > 0);
    assert.ok(r.models.some((m) => m.passAtK.length > 0));
    for (const m of r.models) assert.deepEqual(m.bestOfK, [], m.id);
    index.close();
  });

  test('best-of-k counts the graded problems without a reward score in missing', async () => {
    const dir = tempDir();
    put(
      dir,
      'm/res.jsonl',
      [
        qwenLine(0, [true, false], { pred_score: [[0.9], [0.1]] }), // the top-scored sample is correct: 1
        qwenLine(1, [false, true], { pred_score: [[0.9], [0.1]] }), // the top-scored one is wrong: 0
        qwenLine(2, [true, true]), // graded, no reward score
      ].join('\n'),
    );
    const { index } = await indexed(dir);
    const m = buildReport(index, { replicates: 100 }).models[0];
    assert.deepEqual(
      m.bestOfK.map((p) => [p.k, p.value, p.problems, p.missing, p.leftOut.noScore]),
      [
        [1, 0.5, 2, 1, 1], // (1/2 + 1/2) / 2: at k = 1 the chosen sample is a random one
        [2, 0.5, 2, 1, 1], // (1 + 0) / 2
      ],
    );
    index.close();
  });
});

describe('nothing lost while reading', () => {
  test("Python's NaN is a missing value, -Infinity the lowest reward score; the problem stays (a NaN reward no longer drops it)", async () => {
    const dir = tempDir();
    put(
      dir,
      'm/res.jsonl',
      [
        '{"idx": 0, "code": ["a", "b"], "score": [true, false], "pred_score": [[NaN], [0.5]]}',
        '{"idx": 1, "code": ["c"], "score": [true], "pred_score": [[-Infinity]], "note": "NaN in a string stays"}',
        qwenLine(2, [false]),
      ].join('\n'),
    );
    const { index, summary } = await indexed(dir);
    assert.deepEqual(summary.diagnostics.map(fmt), [
      'm/res.jsonl:1:warning:1 non-standard number (NaN) read as missing value (a missing verdict leaves its sample ungraded: in no figure; a missing reward score leaves it out of best-of-k)',
      'm/res.jsonl:2:warning:1 non-standard number (Infinity, -Infinity) read as number (a reward score of -Infinity is the lowest score, Infinity the highest; neither is a verdict)',
    ]);
    const m = index.models()[0];
    // scored: problem 0's 0.5 and problem 1's -Infinity (issue 32: the lowest score, not a missing one)
    assert.deepEqual([m.problems, m.samples, m.correct, m.scored], [3, 4, 2, 2]);
    index.close();
  });

  test('integer ids beyond 2^53 stay distinct in every reader, with no "duplicate id" warning', async () => {
    const a = '9196877626998784';
    const b = '9196877626998785'; // the same double as a
    assert.equal(Number(a), Number(b));
    const dir = tempDir();
    const ids = [a, b];
    put(dir, 'qwen/res.jsonl', ids.map((id) => `{"idx": ${id}, "code": ["x"], "score": [true]}`).join('\n'));
    put(
      dir,
      'roll/r.jsonl',
      ids.map((id) => `{"qid": ${id}, "model_name": "r", "rollouts": [{"text": "x", "correct": true}]}`).join('\n'),
    );
    put(
      dir,
      'flat/f_results.jsonl',
      ids.map((id) => `{"task_id": ${id}, "completion": "x", "passed": true}`).join('\n'),
    );
    put(dir, 'tot/g/t.json', `[${ids.map((id) => `{"idx": ${id}, "ys": ["x"], "accs": [true]}`).join(',')}]`);
    put(
      dir,
      'insp/log.json',
      `{"version": 2, "eval": {"task": "t", "model": "i"}, "samples": [${ids
        .map((id) => `{"id": ${id}, "epoch": 1, "output": {"completion": "x"}, "scores": {"s": {"value": "C"}}}`)
        .join(',')}]}`,
    );
    put(dir, 'map/d.jsonl', ids.map((id) => `{"pid": ${id}, "out": "x", "ok": true}`).join('\n'));
    put(
      dir,
      'map/trace-inspector.mapping.json',
      JSON.stringify({
        files: ['d.jsonl'],
        records: 'per-sample',
        model: 'mp',
        fields: { problemId: 'pid', text: 'out', correct: 'ok' },
      }),
    );
    const { index, summary } = await indexed(dir);
    assert.deepEqual(summary.diagnostics.map(fmt), []);
    const models = index.models();
    assert.equal(models.length, 6);
    for (const m of models) {
      const got = index
        .listProblems({ kind: 'all' }, 0, 100, m.id)
        .map((p) => p.problemId)
        .sort();
      assert.deepEqual(got, ids, m.displayId);
    }
    index.close();
  });

  test('a UTF-8 BOM is stripped in every file read: results of each format, mapping file, summaries, CSV, run_config, 24.csv', async () => {
    const BOM = '\uFEFF';
    const dir = tempDir();
    // results files of each format
    put(dir, 'qwen/res.jsonl', BOM + qwenLine(0, [true]));
    put(dir, 'tot/g/t.json', `${BOM}[{"idx": 0, "ys": ["x"], "accs": [true]}]`);
    put(dir, 'tot/24.csv', `${BOM}Rank,Puzzles\n1,1 1 4 6\n`);
    put(
      dir,
      'insp/log.json',
      `${BOM}{"version": 2, "eval": {"task": "t", "model": "i"}, "samples": [{"id": 1, "epoch": 1, "output": {"completion": "x"}, "scores": {"s": {"value": "C"}}}]}`,
    );
    // a mapping file with a BOM: its data file is listed and read
    put(dir, 'map/d.txt', '{"pid": 1, "out": "x", "ok": true}\n');
    put(
      dir,
      'map/trace-inspector.mapping.json',
      BOM +
        JSON.stringify({
          files: ['*.txt'],
          records: 'per-sample',
          model: 'mp',
          fields: { problemId: 'pid', text: 'out', correct: 'ok' },
        }),
    );
    // the real rollouts run with BOMs on run_config.json, summary.json and per_question.csv
    const run = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');
    for (const f of ['rl_raw.jsonl', 'sft_raw.jsonl']) put(dir, `roll/${f}`, readFileSync(join(run, f)));
    for (const f of ['run_config.json', 'summary.json', 'per_question.csv'])
      put(dir, `roll/${f}`, BOM + readFileSync(join(run, f), 'utf8'));
    const { index, summary } = await indexed(dir);
    // 24.csv is named: read for the puzzles only, no samples (trial 10 finding 10f)
    assert.deepEqual(summary.diagnostics.map(fmt), [
      'tot/24.csv:0:info:not a results file (no samples read): Game-of-24 puzzles, read only for the questions of the Tree-of-Thought logs under its folder',
    ]);
    const byName = new Map(index.models().map((m) => [m.name, m]));
    for (const name of ['qwen', 't', 'i', 'mp']) assert.equal(byName.get(name)?.samples, 1, name);
    // 24.csv's puzzle reaches the ToT problem; run_config's question file names the rollouts' dataset
    const tot = index.listProblems({ kind: 'all' }, 0, 100, byName.get('t')!.id)[0];
    assert.equal(tot.question, '1 1 4 6');
    const rolloutDatasets = new Set(
      index
        .models()
        .filter((m) => m.run === 'roll')
        .flatMap((m) => index.listProblems({ kind: 'all' }, 0, 100, m.id).map((p) => p.dataset)),
    );
    assert.deepEqual([...rolloutDatasets], ['gsm8k_subset']);
    // the audit finds what it finds without the BOMs (a BOM used to hide summary.json's findings)
    const plain = tempDir();
    for (const f of ['rl_raw.jsonl', 'sft_raw.jsonl', 'run_config.json', 'summary.json', 'per_question.csv'])
      put(plain, `roll/${f}`, readFileSync(join(run, f)));
    const ref = await indexed(plain);
    const expected = await auditFolder(ref.index, plain);
    const audit = await auditFolder(index, dir);
    assert.ok(expected.some((a) => a.file === 'roll/summary.json' && a.metric === 'sft_pass_at_k'));
    assert.ok(expected.some((a) => a.file === 'roll/per_question.csv'));
    assert.deepEqual(audit, expected);
    ref.index.close();
    index.close();
  });

  test('a broken first record does not hide the format of the file (found by the conservation law)', async () => {
    const dir = tempDir();
    put(
      dir,
      'f_results.jsonl',
      ['{"completion": "a", "passed": true}', '{"task_id": "T/1", "completion": "b", "passed": false}'].join('\n'),
    );
    put(dir, 'g/t.json', '["not an object", {"idx": 0, "ys": ["x"], "accs": [true]}]');
    const { index, summary } = await indexed(dir);
    assert.deepEqual(summary.diagnostics.map(fmt), [
      'f_results.jsonl:1:error:missing task_id; line skipped',
      'g/t.json:1:error:element 0 is not an object (got string); skipped',
    ]);
    assert.deepEqual(
      index.models().map((m) => [m.name, m.samples]),
      [
        ['f', 1],
        ['t', 1],
      ],
    );
    index.close();
  });

  test('invalid UTF-8 in a whole-document file is a warning with its line and byte count', async () => {
    const dir = tempDir();
    put(
      dir,
      'g/t.json',
      Buffer.concat([
        Buffer.from('[\n{"idx": 0, "ys": ["a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"], "accs": [true]}\n]'),
      ]),
    );
    const { index, summary } = await indexed(dir);
    assert.deepEqual(summary.diagnostics.map(fmt), ['g/t.json:2:warning:invalid UTF-8: 2 bytes replaced by U+FFFD']);
    assert.equal(index.models()[0].samples, 1);
    index.close();
  });

  test('files that are not results are listed once each, with why; `index` fails when nothing is indexed', () => {
    const dir = tempDir();
    put(dir, 'questions.jsonl', '{"qid": 0, "question": "q"}\n');
    put(dir, 'config.json', '{"lr": 0.1}');
    put(dir, 'summary.json', '{"metrics": {}}'); // a known summary: no diagnostic
    const tmp = tempDir();
    const r = runCli(['index', dir, '--db', join(tmp, 'i.db'), '--format', 'json', '-q'], tmp);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no samples found/);
    const out = JSON.parse(r.stdout) as { diagnostics: Diagnostic[] };
    assert.deepEqual(out.diagnostics.map(fmt), [
      'config.json:0:info:not a results file: no reader recognises the first element (keys: lr); describe the format in a trace-inspector.mapping.json',
      'questions.jsonl:0:info:not a results file: no reader recognises the first JSON object line (keys: qid, question); describe the format in a trace-inspector.mapping.json',
    ]);
    // a second pass (nothing changed) still lists them once, and still fails
    const again = runCli(['index', dir, '--db', join(tmp, 'i.db'), '--format', 'json', '-q'], tmp);
    assert.equal(again.status, 1);
    assert.equal((JSON.parse(again.stdout) as { diagnostics: Diagnostic[] }).diagnostics.length, 2);
    put(dir, 'm/res.jsonl', qwenLine(0, [true]));
    assert.equal(runCli(['index', dir, '--db', join(tmp, 'i.db'), '-q'], tmp).status, 0);
  });
});

describe('diagnostics are capped per file and kind', () => {
  test('a line reader forced on a pretty-printed JSON file: 50 per kind, then "and N more like this"', async () => {
    const dir = tempDir();
    // 300 elements of 4 lines each, pretty-printed: no line is a JSON object on its own
    const doc = JSON.stringify(
      Array.from({ length: 300 }, (_, i) => ({ idx: i, ys: ['a'], accs: [true] })),
      null,
      1,
    );
    put(dir, 'big.json', doc);
    const lines = doc.split('\n');
    const { index, summary } = await indexed(dir, { format: 'qwen-math' });
    // computed without the indexer: each line either fails JSON.parse or is a JSON value that is no object
    let malformed = 0;
    let notObject = 0;
    for (const l of lines) {
      if (!l.trim()) continue;
      try {
        const v = JSON.parse(l);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) notObject++;
      } catch {
        malformed++;
      }
    }
    const byKind = new Map<string, Diagnostic[]>();
    for (const d of summary.diagnostics) {
      const k = diagnosticKind(d.severity, d.message.replace(/^and \d+ more like this, the first at line \d+: /, ''));
      byKind.set(k, [...(byKind.get(k) ?? []), d]);
    }
    let accounted = 0;
    for (const [kind, ds] of byKind) {
      const more = ds.filter((d) => d.message.startsWith('and '));
      assert.ok(ds.length - more.length <= DIAGNOSTICS_PER_KIND, kind);
      assert.ok(more.length <= 1, kind);
      accounted +=
        ds.length - more.length + more.reduce((a, d) => a + Number(/^and (\d+) more/.exec(d.message)![1]), 0);
    }
    // every bad line is named or counted, and the whole stays short (was one line per bad line)
    assert.equal(accounted, malformed + notObject);
    assert.ok(summary.diagnostics.length < 150, String(summary.diagnostics.length));
    assert.ok(malformed + notObject > 1000);
    index.close();
  });

  test('the cap keeps a cross-file duplicate per file it names', () => {
    const written: string[] = [];
    const cap = new DiagnosticCap((line, _s, m) => written.push(`${line}:${m}`), 2);
    for (let i = 1; i <= 4; i++)
      cap.add(i, 'warning', `duplicate problem id "${i}" for model m: already indexed from a.jsonl; skipped`);
    cap.add(9, 'warning', 'duplicate problem id "9" for model m: already indexed from b.jsonl; skipped');
    cap.finish();
    assert.deepEqual(written, [
      '1:duplicate problem id "1" for model m: already indexed from a.jsonl; skipped',
      '2:duplicate problem id "2" for model m: already indexed from a.jsonl; skipped',
      '9:duplicate problem id "9" for model m: already indexed from b.jsonl; skipped',
      '3:and 2 more like this, the first at line 3: duplicate problem id "3" for model m: already indexed from a.jsonl; skipped',
    ]);
  });
});

describe('the overview says what its points are computed over', () => {
  test('a point over fewer than all problems carries missing and the reason', async () => {
    const dir = tempDir();
    put(
      dir,
      'm/res.jsonl',
      [qwenLine(0, [true, false]), qwenLine(1, [true, true, false, false]), qwenLine(2, [])].join('\n'),
    );
    const { index } = await indexed(dir);
    const d = overviewData(index, {}, 100);
    assert.deepEqual(
      d.curves.map((c) => [c.k, c.problems, c.missing, c.over]),
      [
        [1, 2, 1, 'over 2 of 3 problems: 1 has no samples'],
        [2, 2, 1, 'over 2 of 3 problems: 1 has no samples'],
        [4, 1, 2, 'over 1 of 3 problems: 1 has no samples, 1 has n < 4'],
      ],
    );
    assert.equal(denominatorMark(d.curves[2]), ' (1/3)');
    assert.ok(d.warnings.some((w) => w.includes('over 2 of 3 problems: 1 has no samples')));
    index.close();
  });
});
