/**
 * Named scores in their own files, attached to samples other files define; problems keyed by their
 * text; problem lists; a mapping file given by path. Self-contained folders written by the test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { validateMapping } from '../../src/core/readers/mapping';
import { CSV_HEADER, reportCsv, rewardModelLines } from '../../src/cli/main';
import { buildReport } from '../../src/core/report/index';
import { REWARD_SCORE_SCORER, describeRewardDenominator, rewardModelsReport } from '../../src/core/report/rewardReport';
import { problemTextKey } from '../../src/core/text/strings';
import { tempDir } from './helpers';

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** A folder: samples of one model (2 problems x 3 samples) and two scorers' files, each a list per problem. */
function folder(): string {
  const dir = tempDir('ti-scores-');
  writeFileSync(
    path.join(dir, 'samples.jsonl'),
    jsonl([
      { id: 'a', q: 'What is 1+1?', outs: ['2', '3', '4'], ok: [1, 0, 0] },
      { id: 'b', q: 'What is 2+2?', outs: ['5', '4', '3'], ok: [0, 1, 0] },
    ]),
  );
  mkdirSync(path.join(dir, 'rm'));
  writeFileSync(
    path.join(dir, 'rm/orm.jsonl'),
    jsonl([
      { id: 'a', s: [0.9, 0.1, 0.2] },
      { id: 'b', s: [0.3, 0.8, 0.1] },
      // no such problem: its 2 scores attach to nothing
      { id: 'zzz', s: [0.5, 0.5] },
    ]),
  );
  // a process reward model: step scores, and one sample index beyond the problem's samples
  writeFileSync(
    path.join(dir, 'rm/prm.jsonl'),
    jsonl([
      { id: 'a', s: [[0.9, 0.8], [0.2], [0.7, 0.1]] },
      { id: 'b', s: [[0.5], [0.6, 0.9], [0.4], [0.3]] },
    ]),
  );
  writeFileSync(
    path.join(dir, 'trace-inspector.mapping.json'),
    JSON.stringify([
      {
        files: ['samples.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'id', question: 'q', text: 'outs', correct: 'ok' },
        model: 'm',
      },
      {
        files: ['rm/*.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'id' },
        scores: [{ path: 's', scorerFromFile: '(.+)\\.jsonl' }],
      },
    ]),
  );
  return dir;
}

/**
 * An index of one folder: `out.jsonl` with these per-problem records (id, outs, ok, r: the reward score),
 * mapped with `fields` added to those.
 */
async function rewardScoreIndex(rows: unknown[], fields: Record<string, string> = {}): Promise<TraceIndex> {
  const dir = tempDir('ti-rs-');
  writeFileSync(path.join(dir, 'out.jsonl'), jsonl(rows));
  writeFileSync(
    path.join(dir, 'trace-inspector.mapping.json'),
    JSON.stringify({
      files: ['out.jsonl'],
      records: 'per-problem',
      fields: { problemId: 'id', text: 'outs', correct: 'ok', rewardScore: 'r', ...fields },
    }),
  );
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir, { fts: false });
  return index;
}

describe('scores in their own files', () => {
  test('attach by (dataset, problem, sample index); what attaches to nothing is counted and named', async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const rm = rewardModelsReport(index, { replicates: 20 });
    assert.equal(rm.models.length, 1);
    const r = rm.models[0];
    assert.deepEqual(
      r.scorers.map((s) => s.name),
      ['orm', 'prm'],
    );
    // orm: a: correct 0.9 beats 0.1 and 0.2; b: correct 0.8 beats 0.3, 0.1 -> 1
    assert.equal(r.scorers[0].pairwiseAccuracy, 1);
    // prm (min over steps): a: correct 0.8 vs 0.2, 0.1 -> 2/2; b: correct min(0.6,0.9)=0.6 vs 0.5, 0.4 -> 2/2
    assert.equal(r.scorers[1].pairwiseAccuracy, 1);
    assert.deepEqual(r.stepRules, { prm: 'min' });
    assert.equal(rm.unattachedScores, 3);
    const diags = index.diagnostics().filter((d) => d.file.startsWith('rm/'));
    assert.deepEqual(
      diags.map((d) => [d.file, d.line]),
      [
        ['rm/orm.jsonl', 3],
        ['rm/prm.jsonl', 2],
      ],
    );
    assert.match(
      diags[0].message,
      /^2 orm scores of this file attach to no sample: .*first: line 3, problem "zzz", sample 0/,
    );
    // the real cause (trial 6 finding 7): problem "b" has samples 0 to 2, none with index 3
    assert.equal(
      diags[1].message,
      '1 prm score of this file attaches to no sample: looked for dataset "default", problem "b", sample index 3, any model: model "m" has 3 samples of problem "b" (sample indices 0 to 2), none with sample index 3: the scores give more samples than the problem has, or count them from 1 where the samples count from 0; left out of every figure (first: line 2, problem "b", sample 3)',
    );
    index.close();
  });

  test('several models with the same problem: a score without a model is ambiguous, and says how to fix it', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'samples2.jsonl'), jsonl([{ id: 'a', q: 'What is 1+1?', outs: ['2'], ok: [1] }]));
    const m = [
      {
        files: ['samples*.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'id', question: 'q', text: 'outs', correct: 'ok' },
      },
      {
        files: ['rm/orm.jsonl'],
        records: 'per-problem',
        fields: { problemId: 'id' },
        scores: [{ path: 's', scorer: 'orm' }],
      },
    ];
    writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), JSON.stringify(m));
    rmSync(path.join(dir, 'rm/prm.jsonl'));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const d = index.diagnostics().filter((x) => x.file === 'rm/orm.jsonl');
    assert.ok(
      d.some((x) =>
        /^1 orm score of this file matches samples of several models \(samples, samples2\)/.test(x.message),
      ),
    );
    // naming the model resolves it
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify([m[0], { ...m[1], model: 'samples' }]),
    );
    await indexFolder(index, dir, { fts: false });
    assert.ok(!index.diagnostics().some((x) => /several models/.test(x.message)));
    index.close();
  });

  test('the same samples in every scorer file: the first defines them, the others add scores; removing the first re-reads another', async () => {
    const dir = tempDir('ti-samelayout-');
    const rec = (q: string, sc: unknown[]) => ({ problem: q, refs: ['gold', 'x', 'y'], score: sc });
    writeFileSync(path.join(dir, 'A_reward.json'), JSON.stringify([rec('P one', [3, 1, 2]), rec('P  two', [1, 2, 3])]));
    writeFileSync(path.join(dir, 'B_reward.json'), JSON.stringify([rec('P one', [1, 2, 3]), rec('P two', [2, 2, 1])]));
    const mapping = path.join(tempDir('ti-map-'), 'given.mapping.json');
    writeFileSync(
      mapping,
      JSON.stringify({
        files: ['*_reward.json'],
        records: 'per-problem',
        fields: { question: 'problem', text: 'refs', correct: 'refs' },
        correctValues: ['gold'],
        scores: [{ path: 'score', scorerFromFile: '(.+)_reward\\.json' }],
        model: 'pool',
      }),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { readerOptions: { mappingFile: mapping }, fts: false });
    // "P  two" and "P two" are the same problem (keyed by text, whitespace collapsed)
    assert.equal(index.countProblems(), 2);
    assert.equal(index.listProblems()[0].problemId.length, 13);
    assert.ok(index.listProblems().some((p) => p.problemId === problemTextKey('P two')));
    assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get() as number, 6);
    let r = rewardModelsReport(index, { replicates: 10 }).models[0];
    assert.deepEqual(
      r.scorers.map((s) => [s.name, s.pairwiseAccuracy]),
      [
        // A: problem one 2 of 2 pairs, problem two 0 of 2; B: 0 of 2, then a tie and a win (1.5 of 2)
        ['A', 0.5],
        ['B', 0.375],
      ],
    );
    assert.deepEqual(index.diagnostics(), []);
    rmSync(path.join(dir, 'A_reward.json'));
    await indexFolder(index, dir, { readerOptions: { mappingFile: mapping }, fts: false });
    assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get() as number, 6);
    r = rewardModelsReport(index, { replicates: 10 }).models[0];
    assert.deepEqual(
      r.scorers.map((s) => [s.name, r.problems, s.pairwiseAccuracy]),
      [['B', 2, 0.375]],
    );
    index.close();
  });

  test('the single reward score of the built-in readers is the scorer reward_score', async () => {
    const index = await rewardScoreIndex([{ id: 1, outs: ['a', 'b'], ok: [1, 0], r: [0.2, 0.9] }]);
    const r = rewardModelsReport(index, { replicates: 10 }).models[0];
    assert.deepEqual(
      r.scorers.map((s) => [s.name, s.pairwiseAccuracy]),
      [[REWARD_SCORE_SCORER, 0]],
    );
    index.close();
  });

  test('reward-model figures say their denominator: problems without samples or without a graded sample are left out by reason', async () => {
    const index = await rewardScoreIndex(
      [
        { id: 1, outs: ['a', 'b'], ok: [1, 0], r: [0.2, 0.9], lvl: 1 },
        { id: 2, outs: ['c', 'd', 'e'], ok: [0, 1, 0], r: [0.1, 0.8, 0.3], lvl: 2 },
        // no samples at all, and samples without a verdict: both are the model's problems, left out
        { id: 3, outs: [], ok: [], r: [], lvl: 1 },
        { id: 4, outs: ['f', 'g'], ok: [null, null], r: [0.5, 0.6], lvl: 2 },
      ],
      { level: 'lvl' },
    );
    const rm = rewardModelsReport(index, { replicates: 10 }).models[0];
    assert.equal(rm.total, 4);
    assert.equal(rm.problems, 2);
    assert.deepEqual(rm.leftOut, { noSamples: 1, noGradedSample: 1, incompleteScores: 0, partlyScored: 0 });
    // problem 1 ranks its correct sample last, problem 2 first: 0 of 1 and 2 of 2 pairs
    assert.equal(rm.scorers[0].pairwiseAccuracy, 2 / 3);
    assert.equal(describeRewardDenominator(rm), 'over 2 of 4 problems: 1 has no samples, 1 has no graded sample');
    // best-of-3 is over problem 2 only (problem 1 has 2 samples); 1 correct of 3, ranked first: 1
    const b3 = rm.scorers[0].bestOfN.find((b) => b.n === 3)!;
    assert.deepEqual([b3.value, b3.problems, b3.missing, b3.belowN], [1, 1, 3, 1]);
    assert.equal(
      describeRewardDenominator(rm, b3),
      'over 1 of 4 problems: 1 has no samples, 1 has no graded sample, 1 has n < 3',
    );
    const table = rewardModelLines(rm).join('\n');
    assert.match(
      table,
      /1 scorer compared on the same graded samples, over 2 of 4 problems: 1 has no samples, 1 has no graded sample/,
    );
    assert.match(table, /0\.6667 \(2\/4\)/);
    assert.match(table, /1\.0000 \(1\/4\)/);
    assert.match(table, /best-of-3, pass@3, regret@3: over 1 of 4 problems: .*1 has n < 3/);
    // levels 1 and 2 are strata, but with one scorer there is no correlation across scorers to print
    assert.deepEqual(
      rm.strata.map((x) => [x.by, x.value, x.problems]),
      [
        ['level', '1', 1],
        ['level', '2', 1],
      ],
    );
    assert.doesNotMatch(table, /by stratum/);
    const report = buildReport(index, { replicates: 10 });
    const csv = reportCsv(report).split('\n');
    const cols = CSV_HEADER.split(',');
    const row = csv
      .map((l) => l.split(','))
      .find((c) => c[cols.indexOf('metric')] === 'rm-best-of-n' && c[cols.indexOf('k')] === '3')!;
    const cell = (name: string) => row[cols.indexOf(name)];
    assert.deepEqual(
      ['problems', 'missing', 'no_samples', 'ungraded', 'n_below_k', 'no_reward_score', 'scorer'].map(cell),
      ['1', '3', '1', '1', '1', '0', REWARD_SCORE_SCORER],
    );
    index.close();
  });

  test('a mapping file given by path: missing or invalid is an error on that path; problem lists fill subject and level', async () => {
    const dir = folder();
    writeFileSync(
      path.join(dir, 'list.jsonl'),
      jsonl([
        { problem: 'What is 1+1?', level: 'Level 2', subject: 'Arithmetic' },
        { problem: 'Not indexed', level: 'Level 5', subject: 'X' },
      ]),
    );
    const given = path.join(tempDir('ti-given-'), 'm.json');
    writeFileSync(
      given,
      JSON.stringify({
        files: ['list.jsonl'],
        records: 'per-problem',
        problemInfo: true,
        fields: { problemId: 'id', question: 'problem', level: 'level', subject: 'subject' },
      }),
    );
    // problemId given but the list has none: every record fails, said on the list file
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { readerOptions: { mappingFile: given }, fts: false });
    assert.ok(
      index
        .diagnostics()
        .some(
          (d) => d.file === 'list.jsonl' && /every record failed: none of the 2 records gave a problem/.test(d.message),
        ),
    );
    writeFileSync(
      given,
      JSON.stringify({
        files: ['list.jsonl'],
        records: 'per-problem',
        problemInfo: true,
        fields: { question: 'problem', level: 'level', subject: 'subject' },
      }),
    );
    // samples.jsonl keys problems by id, the list by text: they do not meet, and that is said
    await indexFolder(index, dir, { readerOptions: { mappingFile: given }, fts: false });
    const d = index.diagnostics().find((x) => x.file === 'list.jsonl');
    assert.match(
      d!.message,
      /^0 of the 2 problems listed in this file have samples in the index; 2 listed problems have none \(first at line 1\)/,
    );
    writeFileSync(
      given,
      '{"files": ["x"], "records": "per-problem", "problemInfo": true, "fields": {"question": "q", "text": "t"}}',
    );
    await indexFolder(index, dir, { readerOptions: { mappingFile: given }, fts: false });
    assert.ok(
      index
        .diagnostics()
        .some(
          (x) =>
            x.file === given &&
            x.message === 'invalid mapping file: /fields/text: not with problemInfo (its records have no samples)',
        ),
    );
    const gone = path.join(dir, 'nope.json');
    await indexFolder(index, dir, { readerOptions: { mappingFile: gone }, fts: false });
    assert.ok(index.diagnostics().some((x) => x.file === gone && /mapping file not found/.test(x.message)));
    index.close();
  });

  test('a problem list keyed by text fills level and subject of problems keyed by text', async () => {
    const dir = tempDir('ti-list-');
    writeFileSync(path.join(dir, 's.jsonl'), jsonl([{ q: 'What is 1+1?', outs: ['2', '3'], ok: [1, 0] }]));
    writeFileSync(
      path.join(dir, 'list.jsonl'),
      jsonl([{ problem: 'What is  1+1?', level: 'Level 2', subject: 'Arithmetic' }]),
    );
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify([
        { files: ['s.jsonl'], records: 'per-problem', fields: { question: 'q', text: 'outs', correct: 'ok' } },
        {
          files: ['list.jsonl'],
          records: 'per-problem',
          problemInfo: true,
          fields: { question: 'problem', level: 'level', subject: 'subject' },
        },
      ]),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    const p = index.listProblems()[0];
    assert.deepEqual([p.level, p.subject], ['2', 'Arithmetic']);
    assert.deepEqual(index.levels(), ['2']);
    assert.equal(index.countProblems({ kind: 'level', level: '2' }), 1);
    assert.deepEqual(index.diagnostics(), []);
    index.close();
  });
});

describe('named scores on per-sample records', () => {
  /** The stored scores of a file, as [problem id, sample index, scorer, value] in sample order. */
  const storedScores = (index: TraceIndex, file: string) =>
    (
      index.db
        .prepare(
          `SELECT p.problem_id AS p, s.sample_index AS i, s.scorer, s.value FROM scores s JOIN files f ON f.id = s.file_id
             JOIN problems p ON p.key = s.problem_key WHERE f.path = ? ORDER BY p.problem_id, s.sample_index, s.scorer`,
        )
        .all(file) as { p: string; i: number; scorer: string; value: number }[]
    ).map((x) => [x.p, x.i, x.scorer, x.value]);
  const samplesOf = (index: TraceIndex) =>
    (
      index.db
        .prepare(
          'SELECT p.problem_id AS p, s.sample_index AS i, s.correct AS c FROM samples s JOIN problems p ON p.id = s.problem_id ORDER BY p.problem_id, s.sample_index',
        )
        .all() as { p: string; i: number; c: number }[]
    ).map((x) => [x.p, x.i, x.c]);

  test('every sample of a problem is read, each with its own scores (not only the first sample of each problem)', async () => {
    const dir = tempDir('ti-ps-scores-');
    writeFileSync(
      path.join(dir, 'out.jsonl'),
      jsonl([
        { id: 'a', t: 'x1', ok: 1, rm: 0.9, j: 7 },
        { id: 'a', t: 'x2', ok: 0, rm: 0.1, j: 2 },
        { id: 'b', t: 'y1', ok: 0, rm: 0.85, j: 3 },
        { id: 'a', t: 'x3', ok: 0, rm: 0.2, j: 4 },
        { id: 'b', t: 'y2', ok: 1, rm: 0.8, j: 9 },
      ]),
    );
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['out.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'id', text: 't', correct: 'ok' },
        scores: [
          { path: 'rm', scorer: 'orm' },
          { path: 'j', scorer: 'judge' },
        ],
        model: 'm',
      }),
    );
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, dir, { fts: false });
    assert.equal(summary.samples, 5);
    assert.deepEqual(samplesOf(index), [
      ['a', 0, 1],
      ['a', 1, 0],
      ['a', 2, 0],
      ['b', 0, 0],
      ['b', 1, 1],
    ]);
    assert.deepEqual(storedScores(index, 'out.jsonl'), [
      ['a', 0, 'judge', 7],
      ['a', 0, 'orm', 0.9],
      ['a', 1, 'judge', 2],
      ['a', 1, 'orm', 0.1],
      ['a', 2, 'judge', 4],
      ['a', 2, 'orm', 0.2],
      ['b', 0, 'judge', 3],
      ['b', 0, 'orm', 0.85],
      ['b', 1, 'judge', 9],
      ['b', 1, 'orm', 0.8],
    ]);
    assert.deepEqual(index.diagnostics(), []);
    // orm: a: the correct sample (0.9) above both others; b: below the other (0.8 < 0.85) -> 2 of 3 pairs;
    // judge: a: 7 above 2 and 4; b: 9 above 3 -> 3 of 3
    const r = rewardModelsReport(index, { replicates: 10 }).models[0];
    assert.deepEqual(
      r.scorers.map((s) => s.name),
      ['judge', 'orm'],
    );
    assert.equal(r.scorers[0].pairwiseAccuracy, 1);
    assert.ok((r.scorers[1].pairwiseAccuracy as number) < 1);
    index.close();
  });

  test('per-sample records adding scores to samples another file defined: each sample its own score, one more counted', async () => {
    const dir = tempDir('ti-ps-added-');
    const rows = [
      { id: 'a', t: 'x1', ok: 1, s: 0.9 },
      { id: 'a', t: 'x2', ok: 0, s: 0.1 },
      { id: 'b', t: 'y1', ok: 0, s: 0.3 },
      { id: 'b', t: 'y2', ok: 1, s: 0.8 },
    ];
    writeFileSync(path.join(dir, 'A_reward.jsonl'), jsonl(rows));
    // the same samples with B's scores, and a third sample of "b" that A does not have
    writeFileSync(
      path.join(dir, 'B_reward.jsonl'),
      jsonl([...rows.map((x, i) => ({ ...x, s: [0.1, 0.9, 0.7, 0.2][i] })), { id: 'b', t: 'y3', ok: 0, s: 0.5 }]),
    );
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*_reward.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'id', text: 't', correct: 'ok' },
        scores: [{ path: 's', scorerFromFile: '(.+)_reward\\.jsonl' }],
        model: 'm',
      }),
    );
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, dir, { fts: false });
    assert.equal(summary.samples, 4);
    assert.deepEqual(storedScores(index, 'A_reward.jsonl'), [
      ['a', 0, 'A', 0.9],
      ['a', 1, 'A', 0.1],
      ['b', 0, 'A', 0.3],
      ['b', 1, 'A', 0.8],
    ]);
    assert.deepEqual(storedScores(index, 'B_reward.jsonl'), [
      ['a', 0, 'B', 0.1],
      ['a', 1, 'B', 0.9],
      ['b', 0, 'B', 0.7],
      ['b', 1, 'B', 0.2],
      ['b', 2, 'B', 0.5],
    ]);
    // the third sample of "b" is in no figure: said on B's file, twice (unlike A's samples; its score attaches to nothing)
    assert.deepEqual(
      index.diagnostics().map((d) => [d.file, d.line, d.severity, d.message]),
      [
        [
          'B_reward.jsonl',
          0,
          'warning',
          '1 record of this file give samples unlike those already indexed; first: line 5: sample 2 of problem "b" is not indexed from A_reward.jsonl; this file\'s scores are attached by sample index all the same',
        ],
        [
          'B_reward.jsonl',
          5,
          'warning',
          '1 B score of this file attaches to no sample: looked for dataset "default", problem "b", sample index 2, model "m": model "m" has 2 samples of problem "b" (sample indices 0 to 1), none with sample index 2: the scores give more samples than the problem has, or count them from 1 where the samples count from 0; left out of every figure (first: line 5, problem "b", sample 2)',
        ],
      ],
    );
    index.close();
  });
});

describe('mapping validation of scores', () => {
  const base = { files: ['*.json'], records: 'per-problem', fields: { problemId: 'id' } };
  const errors = (m: unknown) => {
    const v = validateMapping(m);
    return 'errors' in v ? v.errors : [];
  };
  test('each scores entry has exactly one way to name its scorer, a valid step rule, a group in scorerFromFile', () => {
    assert.deepEqual(errors({ ...base, scores: [{ path: 's' }] }), [
      '/scores/0: give exactly one of scorer (a name) and scorerFromFile (a regular expression)',
    ]);
    assert.deepEqual(errors({ ...base, scores: [{ path: 's', scorerFromFile: 'rm_.+' }] }), [
      '/scores/0/scorerFromFile: needs a group, (...), that captures the scorer name',
    ]);
    assert.ok(
      errors({ ...base, scores: [{ path: 's', scorer: 'x', stepRule: 'mean' }] })[0].startsWith(
        '/scores/0/stepRule: must be one of',
      ),
    );
    assert.deepEqual(
      errors({ ...base, scores: [{ path: 's', scorer: 'x' }], fields: { problemId: 'id', correct: 'c' } }),
      [
        '/fields/correct: a sample field needs fields.text (a mapping with scores but no fields.text gives scores for samples other files define)',
      ],
    );
  });
  test('without problemId a question keys the problem; without both, problemId is required', () => {
    assert.deepEqual(errors({ files: ['x'], records: 'per-problem', fields: { question: 'q', text: 't' } }), []);
    assert.deepEqual(errors({ files: ['x'], records: 'per-problem', fields: { text: 't' } }), [
      '/fields/problemId: required field is missing',
    ]);
  });
});
