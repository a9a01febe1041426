// sqlite-parity: skip — reward-model metrics of a real folder; report-golden runs its report under node:sqlite
/**
 * Reward-model evaluation on the real RewardMATH folder (../shared/data/real/rewardmath-22-scorers,
 * read in place, read-only) through the mapping the project ships (examples/mappings/rewardmath.mapping.json,
 * given by path). Every expected value is computed here from the raw JSON files, independently of the
 * indexer and the metrics: pairwise accuracy by a double loop over (correct, incorrect) pairs, best-of-4
 * by enumerating all 210 4-subsets of each problem's 10 solutions.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { type RewardModelsReport, rewardModelsReport } from '../../src/core/report/rewardReport';
import { tempDir } from './helpers';
import { MAPPING, ROOT, independent, rawFile } from '../support/rewardmath';

const have = fs.existsSync(ROOT);

describe('RewardMATH, 22 scorers on the same 483 x 10 solutions (real folder)', { skip: !have }, () => {
  let index: TraceIndex;
  let rm: RewardModelsReport;
  const dir = tempDir('ti-rewardmath-');

  before(async () => {
    index = TraceIndex.open(path.join(dir, 'index.db'));
    const summary = await indexFolder(index, ROOT, { readerOptions: { mappingFile: MAPPING }, fts: false });
    assert.equal(summary.samples, 4830);
    const section = rewardModelsReport(index, { replicates: 300 });
    assert.equal(section.models.length, 1);
    rm = section.models[0];
  });
  after(() => index.close());

  const scorer = (name: string) => {
    const s = rm.scorers.find((x) => x.name === name);
    assert.ok(s, `scorer ${name}`);
    return s;
  };
  const bo = (name: string, n: number) => scorer(name).bestOfN.find((b) => b.n === n)!;

  test('every scorer file is a scorer, over the same 483 problems of 10 samples, one correct each', () => {
    const files = fs.readdirSync(path.join(ROOT, 'scores')).filter((f) => f.endsWith('_reward.json'));
    assert.equal(files.length, 22);
    assert.deepEqual(rm.scorers.map((s) => s.name).sort(), files.map((f) => f.replace(/_reward\.json$/, '')).sort());
    assert.equal(rm.problems, 483);
    assert.deepEqual(rm.leftOut, { noSamples: 0, noGradedSample: 0, incompleteScores: 0, partlyScored: 0 });
    assert.equal(rm.total, 483);
    assert.deepEqual(rm.ns, [1, 2, 4, 8, 10]);
    // 9 pairs per problem
    for (const s of rm.scorers) assert.equal(s.pairs, 483 * 9);
  });

  test('pairwise accuracy and best-of-4 of every scorer equal the independent computation', () => {
    for (const s of rm.scorers) {
      const want = independent(s.name, true);
      assert.equal(want.problems, 483);
      assert.ok(
        Math.abs(s.pairwiseAccuracy! - want.acc) < 1e-12,
        `${s.name} accuracy ${s.pairwiseAccuracy} vs ${want.acc}`,
      );
      assert.ok(
        Math.abs(bo(s.name, 4).value! - want.bo4) < 1e-12,
        `${s.name} best-of-4 ${bo(s.name, 4).value} vs ${want.bo4}`,
      );
      assert.ok(Math.abs(bo(s.name, 4).passAtN! - want.pass4) < 1e-12);
    }
  });

  test("the issue's figures: ArmoRM, grm_gemma, Math_Shepherd (min over steps), pass@4 = 0.4", () => {
    const r4 = (v: number | null) => Number(v!.toFixed(4));
    assert.deepEqual([r4(scorer('ArmoRM').pairwiseAccuracy), r4(bo('ArmoRM', 4).value)], [0.6814, 0.1707]);
    assert.deepEqual([r4(scorer('grm_gemma').pairwiseAccuracy), r4(bo('grm_gemma', 4).value)], [0.457, 0.073]);
    assert.deepEqual(
      [r4(scorer('Math_Shepherd').pairwiseAccuracy), r4(bo('Math_Shepherd', 4).value)],
      [0.5444, 0.1271],
    );
    assert.equal(rm.stepRules.Math_Shepherd, 'min');
    for (const s of rm.scorers) {
      assert.ok(Math.abs(bo(s.name, 4).passAtN! - 0.4) < 1e-12);
      assert.ok(Math.abs(bo(s.name, 4).regret! - (0.4 - bo(s.name, 4).value!)) < 1e-12);
    }
  });

  test('gpt4o: its file lists 2 problems twice; counted once, 0.7702 / 0.2254 (0.7710 / 0.2259 only when counted twice)', () => {
    const r4 = (v: number) => Number(v.toFixed(4));
    assert.equal(rawFile('gpt4o').length, 485);
    assert.deepEqual([r4(scorer('gpt4o').pairwiseAccuracy!), r4(bo('gpt4o', 4).value!)], [0.7702, 0.2254]);
    const twice = independent('gpt4o', false);
    assert.deepEqual([r4(twice.acc), r4(twice.bo4)], [0.771, 0.2259]);
    // and the repeat is named, with the file and the record
    const d = index.diagnostics().filter((x) => x.file === 'scores/gpt4o_reward.json');
    assert.equal(d.length, 1);
    assert.match(
      d[0].message,
      /^20 scores in this file repeat a sample and scorer .* record 483: problem "#[0-9a-f]{12}" is given again \(first at record 481\)/,
    );
  });

  test('correlations across the 22 scorers: exactly 1 at N = 2 (one correct of 10: best-of-2 = accuracy / 5), lower at larger N', () => {
    assert.equal(rm.correlations[0].spearman, null);
    const c = (n: number) => rm.correlations.find((x) => x.n === n)!;
    assert.ok(Math.abs(c(2).spearman! - 1) < 1e-12 && Math.abs(c(2).kendall! - 1) < 1e-12);
    for (const s of rm.scorers) assert.ok(Math.abs(bo(s.name, 2).value! - s.pairwiseAccuracy! / 5) < 1e-12);
    assert.ok(c(10).spearman! < c(4).spearman!);
    assert.ok(c(4).ciLow! <= c(4).spearman! && c(4).spearman! <= c(4).ciHigh!);
    assert.equal(c(4).scorers, 22);
  });

  test('strata by subject and level from test500.jsonl joined by problem text: 477 matched, 6 counted as unmatched', () => {
    assert.deepEqual(rm.unmatched, { subject: 6, level: 6 });
    const levels = rm.strata.filter((s) => s.by === 'level');
    assert.deepEqual(
      levels.map((s) => s.value),
      ['1', '2', '3', '4', '5'],
    );
    assert.equal(
      rm.strata.filter((s) => s.by === 'subject').reduce((a, s) => a + s.problems, 0),
      477,
    );
    // independent: the problem texts of the score files found in test500.jsonl
    const listed = new Set(
      fs
        .readFileSync(path.join(ROOT, 'math500-subjects/test500.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => (JSON.parse(l) as { problem: string }).problem),
    );
    assert.equal(rawFile('ArmoRM').filter((r) => listed.has(r.problem)).length, 477);
    const diag = index.diagnostics().find((x) => x.file === 'math500-subjects/test500.jsonl');
    assert.match(
      diag!.message,
      /^477 of the 500 problems listed in this file have samples in the index; 23 listed problems have none .*6 indexed problems/,
    );
  });

  test('the report carries the rewardModels section in the shape of the issue', () => {
    const r = buildReport(index, { replicates: 100 });
    const sec = r.rewardModels!;
    assert.equal(sec.unattachedScores, 0);
    const s = sec.scorers[0];
    for (const k of ['name', 'pairwiseAccuracy', 'bestOfN']) assert.ok(k in s);
    for (const k of ['n', 'value', 'passAtN', 'regret']) assert.ok(k in s.bestOfN[0]);
    for (const k of ['n', 'spearman', 'kendall', 'ciLow', 'ciHigh']) assert.ok(k in sec.correlations[0]);
  });
});

describe('RewardMATH step rules per scorer (real folder)', { skip: !have }, () => {
  test('last and product are selectable per scorer; the steps are kept', async () => {
    const dir = tempDir('ti-rewardmath-rules-');
    const shipped = JSON.parse(fs.readFileSync(MAPPING, 'utf8')) as Record<string, unknown>[];
    const m = {
      ...shipped[0],
      files: ['scores/Math_Shepherd_reward.json', 'scores/ReasonEval_7B_reward.json', 'scores/ArmoRM_reward.json'],
      stepRules: { Math_Shepherd: 'product', ReasonEval_7B: 'last' },
    };
    const mapping = path.join(dir, 'rules.mapping.json');
    fs.writeFileSync(mapping, JSON.stringify([m]));
    const index = TraceIndex.open(path.join(dir, 'index.db'));
    try {
      await indexFolder(index, ROOT, { readerOptions: { mappingFile: mapping }, fts: false });
      const rm = rewardModelsReport(index, { replicates: 50 }).models[0];
      assert.deepEqual(rm.stepRules, { Math_Shepherd: 'product', ReasonEval_7B: 'last' });
      for (const [name, rule] of [
        ['Math_Shepherd', 'product'],
        ['ReasonEval_7B', 'last'],
      ] as const) {
        const want = independent(name, true, rule);
        const got = rm.scorers.find((s) => s.name === name)!;
        assert.ok(Math.abs(got.pairwiseAccuracy! - want.acc) < 1e-12, `${name} ${rule}`);
        assert.ok(Math.abs(got.bestOfN.find((b) => b.n === 4)!.value! - want.bo4) < 1e-12);
      }
      // the steps of the first solution of the first problem are kept as read
      const first = rawFile('Math_Shepherd')[0].score[0] as number[];
      const steps = index.db
        .prepare("SELECT steps FROM scores WHERE scorer = 'Math_Shepherd' AND sample_index = 0 AND record = 0")
        .pluck()
        .get() as string;
      assert.deepEqual(JSON.parse(steps), first);
    } finally {
      index.close();
    }
  });
});
