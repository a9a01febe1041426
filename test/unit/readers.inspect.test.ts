// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * Inspect AI logs as people have them: several scorers per sample (the scorer choice, dict-valued
 * scores, numeric scores), partial credit, the newer `.eval` archives (log format version 3 with
 * chunked samples, Zstandard-compressed entries) and layouts this reader does not know. Archives are
 * written with fflate (a maintained zip writer) and read by the reader's yauzl. Counts and pass@k are
 * computed by hand. Run with cwd = the repository root.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { Diagnostic, ProblemRecord } from '../../src/core/model';
import { type ReaderOptions, makeContext } from '../../src/core/readers/index';
import { createInspectReader } from '../../src/core/readers/inspect';
import { buildReport } from '../../src/core/report/index';
import { overviewData } from '../../src/extension/panelData';
import { tempDir } from './helpers';
import { runCli } from './reliability.support';
import { type Entry, archive } from './zipArchive';

const header = (version = 2) =>
  JSON.stringify({
    version,
    status: 'success',
    eval: { task: 'arith', model: 'openai/gpt-x', dataset: { name: 'arith-ds' } },
  });

/** An Inspect sample: `scores` as given; output text in choices[0]. */
function sample(id: number | string, epoch: number, text: string, scores: Record<string, unknown>, extra = {}) {
  return {
    id,
    epoch,
    input: [{ role: 'user', content: `question ${id}` }],
    target: 'ok',
    output: { choices: [{ message: { role: 'assistant', content: text }, stop_reason: 'stop' }] },
    scores,
    ...extra,
  };
}

async function collect(root: string, rel: string, options?: ReaderOptions, reader = createInspectReader()) {
  const records: ProblemRecord[] = [];
  const diags: Diagnostic[] = [];
  for await (const ev of reader.read(makeContext(root, rel, undefined, options))) {
    if (ev.kind === 'problem') records.push(ev.record);
    else if (ev.kind === 'diagnostic') diags.push(ev.diagnostic);
  }
  // a diagnostic at an archive entry is placed by the entry, not a line (trial 12 finding 24)
  return { records, msgs: diags.map((d) => `${d.entry ?? d.line}:${d.severity}:${d.message}`) };
}

/** [problem id, n, correct, graded] per record. */
const counts = (rs: ProblemRecord[]) =>
  rs.map((r) => [
    r.problemId,
    r.samples.length,
    r.samples.filter((s) => s.correct === true).length,
    r.samples.filter((s) => s.correct !== null).length,
  ]);

function passAtK(n: number, c: number, k: number): number {
  let q = 1;
  for (let i = 0; i < k; i++) q *= (n - c - i) / (n - i);
  return 1 - Math.max(0, q);
}

/**
 * Three problems x 2 epochs, two scorers: `rubric` (a dict of metrics: accuracy 0/1 and f1) first, then
 * `match` (C/I). By hand: match gives c = 2, 1, 0; rubric.accuracy gives c = 1, 1, 2.
 */
function twoScorerSamples() {
  const v = (acc: number, m: string) => ({
    rubric: { value: { accuracy: acc, f1: acc * 0.5 + 0.25 }, answer: 'r' },
    match: { value: m, answer: 'm' },
  });
  return [
    sample(1, 1, 'a', v(1, 'C')),
    sample(1, 2, 'b', v(0, 'C')),
    sample(2, 1, 'c', v(1, 'I')),
    sample(2, 2, 'd', v(0, 'C')),
    sample(3, 1, 'e', v(1, 'I')),
    sample(3, 2, 'f', v(1, 'I')),
  ];
}

function twoScorerFolder(): string {
  const dir = tempDir('ti-inspect-');
  const ss = twoScorerSamples();
  writeFileSync(
    path.join(dir, 'two.eval'),
    archive([
      { name: 'header.json', data: header() },
      ...ss.map((s) => ({ name: `samples/${s.id}_epoch_${s.epoch}.json`, data: JSON.stringify(s) })),
    ]),
  );
  writeFileSync(
    path.join(dir, 'two.json'),
    JSON.stringify({ version: 2, eval: JSON.parse(header()).eval, samples: ss }),
  );
  return dir;
}

describe('Inspect: which scorer gives the verdicts', () => {
  test('default: the first scorer whose values are verdicts; a dict-valued first scorer is passed over, and said so', async () => {
    const dir = twoScorerFolder();
    for (const rel of ['two.eval', 'two.json']) {
      const c = await collect(dir, rel);
      assert.deepEqual(counts(c.records), [
        ['1', 2, 2, 2],
        ['2', 2, 1, 2],
        ['3', 2, 0, 2],
      ]);
      assert.deepEqual(c.msgs, [
        '0:warning:verdicts from scorer "match"; passed over "rubric" (a dict (keys: accuracy, f1)): not verdicts (choose a scorer with --scorer <name> or <name>.<key>, setting traceInspector.scorer)',
      ]);
      assert.equal(c.records[0].samples[0].extractedAnswer, 'm');
    }
  });

  test('--scorer name.key reads one metric of a dict-valued scorer; --scorer name picks that scorer', async () => {
    const dir = twoScorerFolder();
    const acc = await collect(dir, 'two.eval', { scorer: 'rubric.accuracy' });
    assert.deepEqual(acc.msgs, []);
    assert.deepEqual(counts(acc.records), [
      ['1', 2, 1, 2],
      ['2', 2, 1, 2],
      ['3', 2, 2, 2],
    ]);
    assert.equal(acc.records[0].samples[0].extractedAnswer, 'r');
    // f1 values (0.75, 0.25) are scores, not verdicts: ungraded, kept as reward scores
    const f1 = await collect(dir, 'two.json', { scorer: 'rubric.f1' });
    assert.deepEqual(
      counts(f1.records).map((r) => r[3]),
      [0, 0, 0],
    );
    assert.deepEqual(
      f1.records[0].samples.map((s) => s.rewardScore),
      [0.75, 0.25],
    );
    assert.deepEqual(f1.msgs, [
      '0:warning:scorer "rubric.f1" gives values that are not verdicts in all 6 samples (for example 0.75; verdicts are C/I/P/N, booleans, 0/1); those are ungraded, a number is kept as the reward score',
    ]);
    const match = await collect(dir, 'two.eval', { scorer: 'match' });
    assert.deepEqual(match.msgs, []);
    assert.deepEqual(
      counts(match.records).map((r) => r[2]),
      [2, 1, 0],
    );
  });

  test('a dict-valued scorer without a key, an absent scorer, a key on a plain value: ungraded, with the reason', async () => {
    const dir = twoScorerFolder();
    const dict = await collect(dir, 'two.eval', { scorer: 'rubric' });
    assert.ok(dict.records.every((r) => r.samples.every((s) => s.correct === null)));
    assert.deepEqual(dict.msgs, [
      '0:error:scorer "rubric" has a dict (keys: accuracy, f1) values, not verdicts, in all 6 samples; those are ungraded (name one metric: --scorer rubric.<key>)',
    ]);
    const absent = await collect(dir, 'two.eval', { scorer: 'exact' });
    assert.deepEqual(absent.msgs, [
      '0:error:scorer "exact" (--scorer, setting traceInspector.scorer) is missing in all 6 samples of this log (its scorers: "rubric", "match"); those samples are ungraded',
    ]);
    const notDict = await collect(dir, 'two.eval', { scorer: 'match.value' });
    assert.deepEqual(notDict.msgs, [
      `0:error:--scorer match.value names a key, but the scorer's value is not a dict in all 6 samples (for example "C"); those are ungraded`,
    ]);
  });

  test('only dict-valued scorers: ungraded, and the log says how to name a metric', async () => {
    const dir = tempDir('ti-inspect-');
    const ss = twoScorerSamples().map((s) => ({ ...s, scores: { rubric: s.scores.rubric } }));
    writeFileSync(
      path.join(dir, 'd.json'),
      JSON.stringify({ version: 2, eval: JSON.parse(header()).eval, samples: ss }),
    );
    const c = await collect(dir, 'd.json');
    assert.deepEqual(
      counts(c.records).map((r) => r[3]),
      [0, 0, 0],
    );
    assert.deepEqual(c.msgs, [
      '0:warning:no scorer of this log gives verdicts ("rubric" (a dict (keys: accuracy, f1))); samples ungraded: to read one metric of "rubric" use --scorer rubric.<key> (setting traceInspector.scorer)',
    ]);
  });

  test('partial credit P: not correct for pass@k, no reward score (0.5 restates the verdict); pass@k by hand', async () => {
    const dir = tempDir('ti-inspect-');
    const ss = [
      sample(1, 1, 'a', { m: { value: 'P' } }),
      sample(1, 2, 'b', { m: { value: 'C' } }),
      sample(2, 1, 'c', { m: { value: 'P' } }),
      sample(2, 2, 'd', { m: { value: 'N' } }),
    ];
    writeFileSync(
      path.join(dir, 'p.json'),
      JSON.stringify({ version: 2, eval: JSON.parse(header()).eval, samples: ss }),
    );
    const c = await collect(dir, 'p.json');
    assert.deepEqual(counts(c.records), [
      ['1', 2, 1, 2],
      ['2', 2, 0, 2],
    ]);
    assert.deepEqual(
      c.records.flatMap((r) => r.samples.map((s) => s.rewardScore)),
      [null, null, null, null],
    );
    assert.deepEqual(c.msgs, [
      '0:warning:2 of 4 samples have partial credit "P" (scorer "m"): counted as not correct for pass@k; its value 0.5 restates the verdict and is no reward score',
    ]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const m = buildReport(index, { replicates: 100 }).models[0];
    assert.equal(m.passAtK[0].value, (1 / 2 + 0) / 2);
    assert.equal(m.passAtK.find((p) => p.k === 2)!.value, (1 + 0) / 2);
    index.close();
  });

  test('the scorer option reaches the index (a change re-reads the logs) and the CLI (--scorer)', async () => {
    const dir = twoScorerFolder();
    const index = TraceIndex.open(path.join(dir, 'i.db'));
    const correctOf = () => buildReport(index, { replicates: 100 }).models.map((m) => m.correct);
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(correctOf(), [3, 3]); // match: 2 + 1 + 0, in each of the two logs
    await indexFolder(index, dir, { fts: false, readerOptions: { scorer: 'rubric.accuracy' } });
    assert.deepEqual(correctOf(), [4, 4]); // accuracy: 1 + 1 + 2
    const pass2 = buildReport(index, { replicates: 100 }).models[0].passAtK.find((p) => p.k === 2)!.value!;
    assert.ok(Math.abs(pass2 - (passAtK(2, 1, 2) + passAtK(2, 1, 2) + passAtK(2, 2, 2)) / 3) < 1e-12);
    const again = await indexFolder(index, dir, { fts: false, readerOptions: { scorer: 'rubric.accuracy' } });
    assert.equal(again.filesIndexed, 0, 'unchanged files and options: nothing re-read');
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(correctOf(), [3, 3]);
    index.close();

    const tmp = tempDir();
    const r = runCli(
      ['report', dir, '--db', path.join(tmp, 'c.db'), '--scorer', 'rubric.accuracy', '--format', 'json', '-q'],
      tmp,
    );
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { models: { correct: number; samples: number }[] };
    assert.deepEqual(
      report.models.map((m) => [m.samples, m.correct]),
      [
        [6, 4],
        [6, 4],
      ],
    );
    const bad = runCli(['report', dir, '--db', path.join(tmp, 'd.db'), '--scorer', ' '], tmp);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /expected a scorer name/);
  });
});

describe('Inspect: newer .eval archives', () => {
  const long = `Solve: ${'x '.repeat(80)}?`;

  /** A log format version 3 archive: sample 1 chunked with its question in the attachments, sample 2 chunked, sample 3 a monolith. */
  function v3(method: Entry['method']): Buffer {
    const shell = (id: number, epoch: number, text: string, value: string, input: unknown) => ({
      id,
      epoch,
      input,
      target: '42',
      output: { completion: text, choices: [{ message: { role: 'assistant', content: text }, stop_reason: 'stop' }] },
      scores: { match: { value, answer: text } },
      message_refs: [[0, 2]],
      sequences: { messages: [2], events: [1], calls: [], attachments: [1] },
    });
    const parts = (id: number, epoch: number, value: string, text: string, level: string): Entry[] => {
      const p = `samples/${id}_epoch_${epoch}`;
      return [
        { name: `${p}/sample.json`, data: JSON.stringify(shell(id, epoch, text, value, 'attachment://0')), method },
        { name: `${p}/metadata.json`, data: JSON.stringify({ level }), method },
        { name: `${p}/skeleton.json`, data: '{}', method },
        {
          name: `${p}/messages/0.json`,
          data: JSON.stringify([
            { role: 'user', content: 'attachment://0' },
            { role: 'assistant', content: text },
          ]),
          method,
        },
        { name: `${p}/events/0.json`, data: '[{"event": "model"}]', method },
        { name: `${p}/events/stats.json`, data: '{}', method },
        { name: `${p}/attachments/0.json`, data: JSON.stringify([long]), method },
      ];
    };
    return archive([
      { name: 'header.json', data: header(3), method },
      ...parts(1, 1, 'C', '42', 'easy'),
      ...parts(1, 2, 'I', '41', 'easy'),
      ...parts(2, 1, 'I', '7', 'hard'),
      ...parts(2, 2, 'I', '8', 'hard'),
      {
        name: 'samples/3_epoch_1.json',
        data: JSON.stringify(sample(3, 1, '42', { match: { value: 'C' } })),
        method,
      },
      { name: 'summaries.json', data: '[]', method },
    ]);
  }

  for (const method of ['deflate', 'zstd'] as const) {
    test(`version 3, chunked samples (sample.json, metadata.json, chunks; ${method} entries): read, with attachments resolved`, async () => {
      const dir = tempDir('ti-inspect-');
      writeFileSync(path.join(dir, 'v3.eval'), v3(method));
      const c = await collect(dir, 'v3.eval');
      assert.deepEqual(c.msgs, []);
      assert.deepEqual(counts(c.records), [
        ['1', 2, 1, 2],
        ['2', 2, 0, 2],
        ['3', 1, 1, 1],
      ]);
      assert.equal(c.records[0].question, long, 'attachment://0 resolved from attachments/0.json');
      assert.deepEqual(
        c.records.map((r) => r.level),
        ['easy', 'hard', null],
      );
      assert.deepEqual(
        c.records[0].samples.map((s) => [s.text, s.extractedAnswer, s.finishReason]),
        [
          ['42', '42', 'stop'],
          ['41', '41', 'stop'],
        ],
      );
      assert.equal(c.records[2].question, 'question 3');
      const index = TraceIndex.open(':memory:');
      const s = await indexFolder(index, dir, { fts: false });
      assert.equal(s.samples, 5);
      const m = buildReport(index, { replicates: 100 }).models[0];
      assert.deepEqual([m.problems, m.samples, m.correct], [3, 5, 2]);
      assert.ok(Math.abs(m.passAtK[0].value! - (1 / 2 + 0 + 1) / 3) < 1e-12);
      const p2 = m.passAtK.find((p) => p.k === 2)!;
      assert.deepEqual([p2.value, p2.problems, p2.missing], [(1 + 0) / 2, 2, 1]);
      index.close();
    });
  }

  test('version 2 archive with Zstandard entries reads like its deflated twin', async () => {
    const dir = tempDir('ti-inspect-');
    const ss = twoScorerSamples();
    for (const method of ['deflate', 'zstd', 'store'] as const) {
      writeFileSync(
        path.join(dir, `${method}.eval`),
        archive([
          { name: 'header.json', data: header(), method },
          ...ss.map((s) => ({ name: `samples/${s.id}_epoch_${s.epoch}.json`, data: JSON.stringify(s), method })),
        ]),
      );
    }
    const d = await collect(dir, 'deflate.eval');
    for (const method of ['zstd', 'store']) {
      const z = await collect(dir, `${method}.eval`);
      assert.deepEqual(z.msgs, d.msgs);
      assert.deepEqual(
        z.records,
        d.records.map((r) => ({ ...r, model: { ...r.model, run: `${method}.eval` } })),
      );
    }
    assert.equal(d.records.length, 3);
  });

  test('a Zstandard zip bomb is stopped at the cap; corrupt Zstandard data and unknown methods are named', async () => {
    const dir = tempDir('ti-inspect-');
    writeFileSync(
      path.join(dir, 'bomb.eval'),
      archive([
        { name: 'header.json', data: header(), method: 'zstd' },
        {
          name: 'samples/1_epoch_1.json',
          data: JSON.stringify(sample(1, 1, 'a', { m: { value: 'C' } })),
          method: 'zstd',
        },
        {
          name: 'samples/2_epoch_1.json',
          data: Buffer.alloc(8 * 1024 * 1024, 0x20),
          method: 'zstd',
          declaredSize: 100,
        },
        { name: 'samples/3_epoch_1.json', data: 'not zstd at all', method: 93 },
        { name: 'samples/4_epoch_1.json', data: '{}', method: 14 },
      ]),
    );
    const c = await collect(dir, 'bomb.eval', undefined, createInspectReader({ maxEntryBytes: 1024 * 1024 }));
    assert.deepEqual(c.msgs, [
      '0:error:samples/2_epoch_1.json: entry samples/2_epoch_1.json is too large (over 1048576 bytes); skipped',
      'samples/3_epoch_1.json:error:Zstandard data: invalid zstd data; skipped',
      '0:error:samples/4_epoch_1.json: entry samples/4_epoch_1.json uses zip compression method 14, not read; skipped',
    ]);
    assert.deepEqual(counts(c.records), [['1', 1, 1, 1]]);
  });

  test('entries in no known layout and a newer log version are diagnosed, not silently read as nothing', async () => {
    const dir = tempDir('ti-inspect-');
    writeFileSync(
      path.join(dir, 'v4.eval'),
      archive([
        { name: 'header.json', data: header(4) },
        { name: 'samples/1/epoch_1/shell.json', data: '{}' },
        { name: 'samples/2/epoch_1/shell.json', data: '{}' },
      ]),
    );
    const c = await collect(dir, 'v4.eval');
    assert.deepEqual(c.msgs, [
      '0:warning:log format version 4 is newer than this reader knows (up to 3); samples are read where their layout is known',
      '0:error:2 entries under samples/ in no known layout (samples/<id>_epoch_<n>.json, or samples/<id>_epoch_<n>/sample.json with its chunks), not read: samples/1/epoch_1/shell.json, samples/2/epoch_1/shell.json',
    ]);
    assert.equal(c.records.length, 0);
    writeFileSync(path.join(dir, 'empty.eval'), archive([{ name: 'header.json', data: header(3) }]));
    assert.deepEqual((await collect(dir, 'empty.eval')).msgs, [
      '0:warning:Inspect log has no samples (header-only log)',
    ]);
  });
});

describe('Inspect: the default scorer is chosen from every sample (trial 1, finding 1)', () => {
  /**
   * 3 problems x 3 epochs; `f1` (a continuous metric, 1.0 in the first sample) listed before `exact`
   * (C/I). By hand from `exact`: c = 2, 2, 0 of 3, pass@1 = (2/3 + 2/3 + 0) / 3 = 4/9 = 44.4%. The old
   * rule (first scorer whose value is a verdict in the first sample) took f1 and gave 75%.
   */
  function f1Samples() {
    const f1 = [1.0, 0.5, 0.3, 0.2, 1.0, 0.7, 0.1, 0, 0.4];
    const exact = ['C', 'C', 'I', 'I', 'C', 'C', 'I', 'I', 'I'];
    return f1.map((v, i) =>
      sample(Math.floor(i / 3) + 1, (i % 3) + 1, `t${i}`, { f1: { value: v }, exact: { value: exact[i] } }),
    );
  }

  test('a continuous metric that is 1.0 in the first sample is passed over, and the log names the scorer chosen', async () => {
    const dir = tempDir('ti-inspect-');
    const ss = f1Samples();
    writeFileSync(
      path.join(dir, 'f.json'),
      JSON.stringify({ version: 2, eval: JSON.parse(header()).eval, samples: ss }),
    );
    const entries = ss.map((s) => ({ name: `samples/${s.id}_epoch_${s.epoch}.json`, data: JSON.stringify(s) }));
    writeFileSync(path.join(dir, 'f.eval'), archive([{ name: 'header.json', data: header() }, ...entries]));
    // with summaries.json (what a finished run writes): the survey reads it instead of every sample
    const summaries = ss.map((s) => ({ id: s.id, epoch: s.epoch, scores: s.scores }));
    writeFileSync(
      path.join(dir, 'g.eval'),
      archive([
        { name: 'header.json', data: header() },
        { name: 'summaries.json', data: JSON.stringify(summaries) },
        ...entries,
      ]),
    );
    for (const rel of ['f.json', 'f.eval', 'g.eval']) {
      const c = await collect(dir, rel);
      assert.deepEqual(counts(c.records), [
        ['1', 3, 2, 3],
        ['2', 3, 2, 3],
        ['3', 3, 0, 3],
      ]);
      assert.deepEqual(c.msgs, [
        '0:warning:verdicts from scorer "exact"; passed over "f1" (values that are not verdicts in 6 of 9 samples, for example 0.5): not verdicts (choose a scorer with --scorer <name> or <name>.<key>, setting traceInspector.scorer)',
      ]);
      assert.equal(c.records[0].model.grader, 'scorer "exact"');
    }
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const report = buildReport(index, { replicates: 100 });
    assert.equal(report.models.length, 3);
    for (const m of report.models) assert.ok(Math.abs(m.passAtK[0].value! - 4 / 9) < 1e-12, `${m.passAtK[0].value}`);
    assert.deepEqual(
      index.models().map((m) => m.grader),
      ['scorer "exact"', 'scorer "exact"', 'scorer "exact"'],
    );
    index.close();
  });

  test('a first sample that lacks the verdict scorer does not change the choice; the samples without it are counted', async () => {
    const dir = tempDir('ti-inspect-');
    const ss = f1Samples();
    ss[0] = { ...ss[0], scores: { f1: { value: 1.0 } } };
    writeFileSync(
      path.join(dir, 'f.json'),
      JSON.stringify({ version: 2, eval: JSON.parse(header()).eval, samples: ss }),
    );
    const c = await collect(dir, 'f.json');
    assert.deepEqual(counts(c.records), [
      ['1', 3, 1, 2],
      ['2', 3, 2, 3],
      ['3', 3, 0, 3],
    ]);
    assert.ok(
      c.msgs.includes(
        '0:warning:scorer "exact" is missing in 1 of 9 samples of this log (its scorers: "f1", "exact"); those samples are ungraded',
      ),
      c.msgs.join('\n'),
    );
  });
});

describe('Inspect: compared models graded by different scorers are flagged (trial 1, finding 2)', () => {
  /** A log of `model` with the given samples (scores as given). */
  function log(model: string, samples: unknown[]) {
    return JSON.stringify({
      version: 2,
      eval: { task: 'qa', model, dataset: { name: 'qa-ds' } },
      samples,
    });
  }
  // base: model_graded_fact only. c = 1, 1 of 3: pass@1 = 1/3.
  const baseSamples = [
    ['C', 'I', 'I'],
    ['I', 'C', 'I'],
  ].flatMap((vs, q) => vs.map((v, e) => sample(q + 1, e + 1, `b${q}${e}`, { model_graded_fact: { value: v } })));
  // rl: `match` says C, C, I / C, I, I (pass@1 = 1/2); model_graded_fact says I, I, C / I, C, I (pass@1 = 1/3)
  const match = ['C', 'C', 'I', 'C', 'I', 'I'];
  const mgf = ['I', 'I', 'C', 'I', 'C', 'I'];
  const rlBoth = match.map((m, i) =>
    sample(Math.floor(i / 3) + 1, (i % 3) + 1, `r${i}`, {
      match: { value: m },
      ...(i === 0 ? {} : { model_graded_fact: { value: mgf[i] } }),
    }),
  );

  test('a pair graded by different scorers: report, CLI table and overview say so', async () => {
    const dir = tempDir('ti-inspect-');
    writeFileSync(path.join(dir, 'base.json'), log('hf/base-m', baseSamples));
    writeFileSync(
      path.join(dir, 'rl.json'),
      log(
        'hf/rl-m',
        rlBoth.map((x) => ({ ...x, scores: { match: x.scores.match } })),
      ),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const r = buildReport(index, { replicates: 100, base: 'base-m' });
    const byLabel = new Map(r.models.map((m) => [m.id.includes('rl-m') ? 'rl' : 'base', m]));
    assert.equal(byLabel.get('base')!.grader, 'scorer "model_graded_fact"');
    assert.equal(byLabel.get('rl')!.grader, 'scorer "match"');
    assert.ok(Math.abs(byLabel.get('rl')!.passAtK[0].value! - 1 / 2) < 1e-12);
    assert.ok(Math.abs(byLabel.get('base')!.passAtK[0].value! - 1 / 3) < 1e-12);
    assert.equal(r.comparisons.length, 1);
    assert.deepEqual(r.comparisons[0].differentGraders, {
      base: 'scorer "model_graded_fact"',
      model: 'scorer "match"',
    });
    assert.equal(r.warnings.filter((w) => w.includes('GRADED DIFFERENTLY')).length, 1);
    const ov = overviewData(index, { baseId: index.models().find((m) => m.displayId.includes('base-m'))!.id }, 50);
    assert.deepEqual(
      ov.coverage.map((c) => c.differentGraders),
      [{ base: 'scorer "model_graded_fact"', model: 'scorer "match"' }],
    );
    assert.equal(ov.warnings.filter((w) => w.includes('GRADED DIFFERENTLY')).length, 1);
    index.close();

    const tmp = tempDir();
    const cli = runCli(['report', dir, '--db', path.join(tmp, 'c.db'), '--base', 'base-m', '-q'], tmp);
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /\[GRADED DIFFERENTLY\]/);
    assert.match(
      cli.stdout,
      /verdicts: .*by scorer "model_graded_fact".*by scorer "match"|verdicts: .*by scorer "match".*by scorer "model_graded_fact"/,
    );
  });

  test('a first sample without the base scorer no longer decides: both graded by model_graded_fact, no flag', async () => {
    const dir = tempDir('ti-inspect-');
    writeFileSync(path.join(dir, 'base.json'), log('hf/base-m', baseSamples));
    // order of the widest sample: match, model_graded_fact; match is a verdict everywhere, so it is chosen
    // unless model_graded_fact comes first: write it first in every sample that has it
    writeFileSync(
      path.join(dir, 'rl.json'),
      log(
        'hf/rl-m',
        rlBoth.map((x, i) => ({
          ...x,
          scores: i === 0 ? x.scores : { model_graded_fact: { value: mgf[i] }, match: { value: match[i] } },
        })),
      ),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const r = buildReport(index, { replicates: 100, base: 'base-m' });
    const rl = r.models.find((m) => m.id.includes('rl-m'))!;
    assert.equal(rl.grader, 'scorer "model_graded_fact"');
    // model_graded_fact: problem 1 has 2 graded samples (I, C: c = 1), problem 2 has I, C, I: (1/2 + 1/3) / 2
    assert.ok(Math.abs(rl.passAtK[0].value! - (1 / 2 + 1 / 3) / 2) < 1e-12, `${rl.passAtK[0].value}`);
    assert.deepEqual(
      r.comparisons.map((c) => c.differentGraders),
      [null],
    );
    index.close();
  });
});

describe("a reasoning model's sample: its reasoning is in the text", () => {
  test('reasoning blocks before the answer are read, though output.completion holds the answer alone; a redacted one is not', async () => {
    const dir = tempDir('ti-inspect-');
    const withContent = (id: number, content: unknown[]) =>
      sample(
        id,
        1,
        '',
        { match: { value: 'C' } },
        {
          output: {
            completion: 'The answer is 4.',
            choices: [{ message: { role: 'assistant', content }, stop_reason: 'stop' }],
            usage: { output_tokens: 1010, reasoning_tokens: 1000 },
          },
        },
      );
    writeFileSync(
      path.join(dir, 'log.json'),
      JSON.stringify({
        ...JSON.parse(header()),
        samples: [
          withContent(1, [
            { type: 'reasoning', reasoning: 'Hmm. Wait, let me verify: 2 + 2 = 4.' },
            { type: 'text', text: 'The answer is 4.' },
          ]),
          withContent(2, [
            { type: 'reasoning', reasoning: 'gAAAAABencrypted', redacted: true },
            { type: 'text', text: 'The answer is 4.' },
          ]),
        ],
      }),
    );
    const c = await collect(dir, 'log.json');
    assert.deepEqual(
      c.records.map((r) => r.samples[0].text),
      ['Hmm. Wait, let me verify: 2 + 2 = 4.\n\nThe answer is 4.', 'The answer is 4.'],
    );
  });
});
