/**
 * The host side of the problem view and overview protocol, on the real rlvr-probe-gsm8k folder
 * (read in place from ../shared/data/real; run from the repository root). Expected values are
 * computed by hand from the raw rollouts: problem qid 0 has 7/8 correct for the SFT model and 6/8
 * for the PPO model in results_2048_batched; over the folder the PPO model has 175/240 correct
 * samples and solves 29/30 problems, the SFT model 133/240 and 28/30 (see the data README).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TraceIndex, type ModelRow } from '../../src/core/index/traceIndex';
import { indexFolder } from '../../src/core/index/indexer';
import { buildReport } from '../../src/core/report/index';
import { guessBaseModel } from '../../src/core/index/labels';
import { majAtK, normalizeAnswer } from '../../src/core/metrics/majority';
import { AnnotationStore } from '../../src/core/index/annotations';
import { fileTextSource, readSampleText, readSampleTexts } from '../../src/core/index/sampleText';
import {
  accuracyBin,
  overviewData,
  pplData,
  problemData,
  readSimilarityCache,
  resolveFilter,
  runNoveltyJob,
  runSimilarityJob,
  majorityJob,
  runMajorityJob,
  samplePage,
  samplePreview,
  sampleText,
  readSimilarityFilesJob,
  similarityFilesJob,
  similarityParams,
  withAnswersInBase,
  writeSimilarityCache,
} from '../../src/extension/panelData';
import { SimilarityRunner } from '../../src/extension/similarityRunner';

const FOLDER = path.resolve(process.cwd(), '../shared/data/real/rlvr-probe-gsm8k');

describe('problem view data on rlvr-probe-gsm8k', { skip: !fs.existsSync(FOLDER) && 'real data not present' }, () => {
  let index: TraceIndex;
  let rl: ModelRow;
  let sft: ModelRow;
  let p0: number;
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ti-panel-'));
    index = TraceIndex.open(path.join(tmp, 'index.db'), { readonly: false });
    await indexFolder(index, FOLDER, { include: ['results_2048_batched/**'] });
    const models = index.models();
    rl = models.find((m) => m.name.includes('rlvr-ppo'))!;
    sft = models.find((m) => m.name.includes('sft'))!;
    assert.ok(rl && sft, `models: ${models.map((m) => m.displayId).join(', ')}`);
    p0 = index.listProblems({ kind: 'all' }, 0, 1)[0].id;
    assert.equal(index.problem(p0)!.problemId, '0');
  });
  after(() => {
    index?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('problemData: c/n, pass@k, Beta interval, category and saturation point of problem 0', () => {
    const d = problemData(index, p0, { baseId: sft.id, focusId: rl.id })!;
    assert.deepEqual(
      d.models.map((m) => m.id),
      [sft.id, rl.id],
      'base model first',
    );
    assert.equal(d.baseModelId, sft.id);
    assert.equal(d.focusModelId, rl.id);
    const s = d.stats.find((x) => x.modelId === sft.id)!;
    const r = d.stats.find((x) => x.modelId === rl.id)!;
    assert.deepEqual([s.c, s.n, r.c, r.n], [7, 8, 6, 8]);
    assert.deepEqual(
      s.passAtK.map((p) => p.k),
      [1, 2, 4, 8],
    );
    assert.equal(s.passAtK[0].value, 0.875);
    assert.equal(s.passAtK[1].value, 1); // n - c = 1 < k = 2
    assert.equal(r.passAtK[0].value, 0.75);
    assert.ok(Math.abs(r.passAtK[1].value! - 27 / 28) < 1e-12); // 1 - C(2,2)/C(8,2)
    assert.equal(r.passAtK[3].value, 1);
    assert.ok(s.betaLow! < 0.875 && 0.875 < s.betaHigh! && s.betaHigh! < 1);
    // base leads at every k until both are 1: at k=2 base 1 vs 27/28; from k=3 (> 8 - 6) both solve every
    // k-subset. That meeting is saturation, not a crossover (there is no per-problem crossover). 6/8 against
    // 7/8 is a regression whose 95% Jeffreys intervals overlap: within noise.
    assert.deepEqual(d.comparisons, [
      { modelId: rl.id, baseModelId: sft.id, category: 'regression', withinNoise: true, saturationK: 3 },
    ]);
    assert.deepEqual(r.bestOfK, [], 'no reward scores in this folder');
    assert.deepEqual([r.majAtK, r.hasMajAtK], [[], true], 'extracted answers exist: maj@k can be asked for');
    assert.equal(problemData(index, 999_999, {}), undefined);
  });

  test('maj@k on demand (majorityJob in the worker): the curves of core majAtK over the raw answers', () => {
    const curves = runMajorityJob(majorityJob(index, p0));
    const rlCurve = curves.find((c) => c.modelId === rl.id)!;
    assert.deepEqual(
      rlCurve.majAtK.map((x) => x.k),
      [1, 2, 4, 8],
    );
    // maj@1 = the share of samples whose answer is right when the answer group holds a correct sample: c/n here
    assert.ok(Math.abs(rlCurve.majAtK[0].value! - 6 / 8) < 1e-12, String(rlCurve.majAtK[0].value));
    const expected = index.answers(p0, rl.id);
    const reference = index.problem(p0)?.referenceAnswer;
    assert.equal(rlCurve.majAtK[3].value, majAtK(expected, 8, { reference }));
    assert.equal(curves.length, 2, 'both models have extracted answers');
  });

  test('samplePage: correct samples first, paged across the verdict groups', () => {
    const all = samplePage(index, p0, rl.id, 0, 100);
    assert.equal(all.total, 8);
    assert.deepEqual(
      all.samples.map((s) => s.correct),
      [true, true, true, true, true, true, false, false],
    );
    const second = samplePage(index, p0, rl.id, 5, 5);
    assert.deepEqual(
      second.samples.map((s) => s.id),
      all.samples.slice(5).map((s) => s.id),
    );
    assert.equal(samplePage(index, p0, rl.id, 8, 5).samples.length, 0);
  });

  test('sampleText carries the annotation written through the store', async () => {
    const store = new AnnotationStore(index);
    const id = samplePage(index, p0, rl.id, 0, 1).samples[0].id;
    store.set(store.refOf(id)!, ['lucky guess'], 'checked by hand');
    const t = (await sampleText(index, store, id, fileTextSource(index)))!;
    assert.deepEqual([t.labels, t.note, t.truncated], [['lucky guess'], 'checked by hand', false]);
    assert.equal(t.text, await readSampleText(index, id));
  });

  test('samplePreview: the header fields of a sample are those of its raw rollout', async () => {
    const store = new AnnotationStore(index);
    const row = samplePage(index, p0, rl.id, 0, 8).samples.find((x) => x.sampleIndex === 3)!;
    store.set(store.refOf(row.id)!, ['grader error'], 'n');
    const raw = fs
      .readFileSync(path.join(FOLDER, 'results_2048_batched', 'rl_raw.jsonl'), 'utf8')
      .split('\n')
      .map((l) => (l.trim() ? JSON.parse(l) : undefined))
      .find((r) => r?.qid === 0) as { question: string; gold: string; rollouts: { correct: boolean; text: string }[] };
    const p = (await samplePreview(
      index,
      store,
      row.id,
      { baseId: sft.id, focusId: rl.id },
      fileTextSource(index),
      'sample 1 of 2',
    ))!;
    assert.equal(p.problem.problemId, '0');
    assert.equal(p.problem.question, raw.question);
    assert.equal(p.text, raw.rollouts[3].text);
    assert.equal(p.correct, raw.rollouts[3].correct);
    assert.equal(p.fullLength, raw.rollouts[3].text.length);
    assert.deepEqual([p.model.id, p.model.isFocus, p.model.isBase], [rl.id, true, false]);
    assert.deepEqual([p.labels, p.note, p.position, p.truncated], [['grader error'], 'n', 'sample 1 of 2', false]);
    assert.match(p.source, /^results_2048_batched\/rl_raw\.jsonl:1$/);
    store.remove(store.refOf(row.id)!);
    assert.equal(await samplePreview(index, store, 987654321, {}, fileTextSource(index)), undefined);
  });

  test('overviewData: dataset pass@1 / pass@8 and coverage match the raw rollouts', () => {
    const o = overviewData(index, { baseId: sft.id, focusId: rl.id }, 200);
    const at = (m: number, k: number) => o.curves.find((c) => c.modelId === m && c.k === k && c.level === null)!;
    assert.ok(Math.abs(at(rl.id, 1).value! - 175 / 240) < 1e-12);
    assert.ok(Math.abs(at(rl.id, 8).value! - 29 / 30) < 1e-12);
    assert.ok(Math.abs(at(sft.id, 1).value! - 133 / 240) < 1e-12);
    assert.ok(Math.abs(at(sft.id, 8).value! - 28 / 30) < 1e-12);
    assert.ok(at(rl.id, 1).ciLow! < 175 / 240 && 175 / 240 < at(rl.id, 1).ciHigh!);
    const cov = o.coverage.find((c) => c.modelId === rl.id)!;
    assert.deepEqual(
      { ...cov },
      {
        modelId: rl.id,
        baseModelId: sft.id,
        problems: 30,
        n: { model: { min: 8, max: 8 }, base: { min: 8, max: 8 } },
        missing: 0,
        over: 'over all 30 problems',
        baseOnly: 0,
        modelOnly: 1,
        both: 28,
        neither: 1,
        crossoverK: cov.crossoverK,
        crossoverKind: null,
        crossoverAheadK: null,
        crossoverKMax: 8,
        crossoverKMaxRagged: 8,
        saturationK: cov.saturationK,
        crossoverInterval: cov.crossoverInterval,
        leaderAtK1: 'model',
        leaderAtK1WithinNoise: false,
        differentGraders: null,
      },
    );
    // RL leads at every k up to 8 (pass@8 29/30 against 28/30): no crossover, no saturation (different maxima).
    assert.deepEqual([cov.crossoverK, cov.saturationK], [null, null]);
    assert.equal(
      o.histograms.filter((h) => h.modelId === rl.id).reduce((a, h) => a + h.count, 0),
      30,
    );
    assert.equal(o.problems, 30);
  });

  test('answer in base: per RL sample, the SFT samples with the same final answer (and the correct ones), from the raw rollouts', async () => {
    const raw = (file: string) =>
      new Map(
        fs
          .readFileSync(path.join(FOLDER, 'results_2048_batched', file), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(
            (l) =>
              JSON.parse(l) as {
                qid: number;
                rollouts: { rollout: number; pred_value: number | null; correct: boolean }[];
              },
          )
          .map((r) => [String(r.qid), r.rollouts]),
      );
    const rlRaw = raw('rl_raw.jsonl');
    const sftRaw = raw('sft_raw.jsonl');
    let checked = 0;
    let notInBase = 0;
    for (const p of index.listProblems({ kind: 'all' }, 0, 100)) {
      const samples = await readSampleTexts(index, p.id, rl.id);
      const stub = {
        samples: samples.map((x) => ({
          sampleId: x.id,
          sampleIndex: x.sampleIndex,
          correct: x.correct,
          similarity: null,
          novelty: 0,
          baselinePercentile: null,
          nearest: [],
        })),
        baseline: [],
        summary: {} as never,
      };
      const body = withAnswersInBase(index, p.id, sft.id, rl.id, stub);
      assert.equal(body.baseSamples, 8);
      for (const x of body.samples) {
        const mine = rlRaw.get(p.problemId)!.find((r) => r.rollout === x.sampleIndex)!;
        const key = normalizeAnswer(mine.pred_value === null ? null : String(mine.pred_value));
        const same = sftRaw
          .get(p.problemId)!
          .filter((b) => b.pred_value !== null && normalizeAnswer(String(b.pred_value)) === key);
        assert.deepEqual(
          x.answerInBase,
          key === null ? null : { count: same.length, correct: same.filter((b) => b.correct).length },
          `qid ${p.problemId} #${x.sampleIndex}`,
        );
        checked++;
        if (x.answerInBase?.count === 0) notInBase++;
      }
    }
    assert.equal(checked, 240);
    assert.ok(notInBase > 0, 'some RL answers are not among the SFT answers');
  });

  test('resolveFilter turns chart clicks into problem lists', () => {
    const gained = resolveFilter(index, { kind: 'coverageCell', base: sft.id, model: rl.id, cell: 'modelOnly' });
    assert.equal(gained.kind, 'problems');
    assert.equal((gained as { problemIds: number[] }).problemIds.length, 1);
    const neither = resolveFilter(index, { kind: 'coverageCell', base: sft.id, model: rl.id, cell: 'neither' }) as {
      problemIds: number[];
    };
    assert.equal(neither.problemIds.length, 1);
    const perfect = resolveFilter(index, { kind: 'accuracyBin', model: rl.id, bin: 11 }) as {
      problemIds: number[];
      title: string;
    };
    const expected = index.modelStats(rl.id).filter((r) => r.c === r.graded).length;
    assert.equal(perfect.problemIds.length, expected);
    assert.match(perfect.title, /accuracy 1$/);
    assert.deepEqual(resolveFilter(index, { kind: 'level', level: '2' }), { kind: 'level', level: '2' });
    assert.deepEqual(
      [
        accuracyBin(8, 0),
        accuracyBin(8, 1),
        accuracyBin(10, 3),
        accuracyBin(8, 7),
        accuracyBin(20, 19),
        accuracyBin(8, 8),
      ],
      [0, 2, 3, 9, 10, 11],
    );
  });

  test('similarity: job result, cache round trip, and the worker gives the same answer', async () => {
    const job = await readSimilarityFilesJob(similarityFilesJob(index, p0, sft.id, rl.id));
    assert.equal(job.base.length, 8);
    assert.equal(job.model.length, 8);
    const body = runSimilarityJob(job);
    assert.equal(body.samples.length, 8);
    assert.equal(body.baseline.length, 8);
    for (const s of body.samples) {
      assert.ok(s.similarity! > 0 && s.similarity! <= 1);
      assert.equal(s.nearest[0].similarity, s.similarity);
      assert.ok(job.base.some((b) => b.id === s.nearest[0].baseSampleId));
    }
    const params = similarityParams(index, p0, sft.id, rl.id);
    assert.equal(readSimilarityCache(index, p0, sft.id, rl.id, params), undefined);
    writeSimilarityCache(index, p0, sft.id, rl.id, params, body);
    assert.deepEqual(readSimilarityCache(index, p0, sft.id, rl.id, params), body);
    assert.equal(readSimilarityCache(index, p0, sft.id, rl.id, params.replace('"n":3', '"n":4')), undefined);

    const workerPath = path.resolve(__dirname, '../../src/extension/similarityWorker.js');
    const runner = new SimilarityRunner(workerPath);
    try {
      runner.start(); // started before the job (as the panel does while it reads the texts), then used by it
      runner.start();
      const viaWorker = await runner.run(job);
      assert.equal(runner.usedWorker, true);
      assert.deepEqual(viaWorker, body);
      const nov = await runner.run({ kind: 'novelty', text: job.model[0].text, base: job.base });
      assert.deepEqual(nov, runNoveltyJob({ kind: 'novelty', text: job.model[0].text, base: job.base }));
      assert.equal(
        nov.spans.map((s) => nov.text.slice(s.start, s.end)).join(''),
        job.model[0].text,
        'spans tile the text',
      );
      assert.ok(nov.spans.some((s) => s.novel) && nov.spans.some((s) => !s.novel));
      const model = nov
        .diff!.filter((d) => !d.removed)
        .map((d) => d.value)
        .join('');
      assert.equal(model, job.model[0].text, 'the diff rebuilds the model text');
      assert.equal(nov.nearest!.sampleId, body.samples[0].nearest[0].baseSampleId);
    } finally {
      await runner.dispose();
    }
    const inline = new SimilarityRunner(path.join(tmp, 'missing-worker.js'));
    inline.start(); // no worker file: nothing to start, jobs run in-process
    assert.deepEqual(await inline.run(job), body);
    assert.equal(inline.usedWorker, false);
  });

  test('pplData reads the base log-prob sidecar and reports bad lines', () => {
    const root = path.join(tmp, 'folder');
    fs.mkdirSync(path.join(root, '.trace-inspector'), { recursive: true });
    assert.equal(pplData(root, index, p0).available, false);
    const lines = [
      JSON.stringify({ problemId: 0, model: rl.displayId, sampleIndex: 0, tokenLogprobs: [-1, -1] }),
      JSON.stringify({
        dataset: 'gsm8k_subset',
        problemId: '0',
        model: sft.label,
        sampleIndex: 1,
        sumLogprob: -4,
        tokens: 2,
      }),
      JSON.stringify({ problemId: '1', model: rl.displayId, sampleIndex: 0, tokenLogprobs: [-1] }),
      '{not json',
      JSON.stringify({ problemId: '0', model: 'nope', sampleIndex: 0, tokenLogprobs: [-1] }),
      JSON.stringify({ problemId: '0', model: rl.displayId, sampleIndex: 0, tokenLogprobs: [0.5] }),
    ];
    fs.writeFileSync(path.join(root, '.trace-inspector', 'base-logprobs.jsonl'), lines.join('\n'));
    const d = pplData(root, index, p0);
    assert.equal(d.available, true);
    assert.equal(d.points.length, 2);
    assert.ok(Math.abs(d.points[0].ppl - Math.E) < 1e-12);
    assert.ok(Math.abs(d.points[1].ppl - Math.E ** 2) < 1e-12);
    assert.deepEqual(
      d.points.map((p) => p.modelId),
      [rl.id, sft.id],
    );
    assert.equal(d.skipped, 3);
    assert.deepEqual(d.diagnostics, [
      '.trace-inspector/base-logprobs.jsonl:4: not valid JSON',
      '.trace-inspector/base-logprobs.jsonl:5: model "nope" is not in the index',
      '.trace-inspector/base-logprobs.jsonl:6: tokenLogprobs must be finite numbers <= 0',
    ]);
  });
});

describe('overview coverage on the whole rlvr-probe-gsm8k folder (several runs)', {
  skip: !fs.existsSync(FOLDER) && 'real data not present',
}, () => {
  let index: TraceIndex;
  before(async () => {
    index = TraceIndex.open(':memory:');
    await indexFolder(index, FOLDER);
  });
  after(() => index?.close());

  test('with a guessed base, each run is compared with its own base: the same pairs and counts as the CLI report', () => {
    const models = index.models();
    const report = buildReport(index);
    // The guess the extension starts with, whichever run it falls in.
    const guessed = models[guessBaseModel(models)];
    const o = overviewData(index, { baseId: guessed.id, baseIsChoice: false }, 200);
    const byDisplay = new Map(models.map((m) => [m.id, m.displayId]));
    const rows = o.coverage.map((c) => ({
      base: byDisplay.get(c.baseModelId),
      model: byDisplay.get(c.modelId),
      baseOnly: c.baseOnly,
      modelOnly: c.modelOnly,
      both: c.both,
      neither: c.neither,
      crossoverK: c.crossoverK,
      saturationK: c.saturationK,
      leaderAtK1: c.leaderAtK1,
      noneShare: c.crossoverInterval?.noneShare,
    }));
    const expected = report.comparisons.map((c) => ({
      base: c.base,
      model: c.model,
      ...c.coverage,
      crossoverK: c.crossoverK,
      saturationK: c.saturationK,
      leaderAtK1: c.leaderAtK1,
      // the overview bootstraps with 200 replicates here, the report with 2000: only the presence agrees
      noneShare: c.crossoverInterval === null ? undefined : rows.find((r) => r.model === c.model)?.noneShare,
    }));
    assert.deepEqual(rows, expected);
    // No SFT copy is compared as if it were an RL model, and every RL model's base is the SFT of its own run.
    for (const c of o.coverage) {
      const b = models.find((m) => m.id === c.baseModelId)!;
      const m = models.find((x) => x.id === c.modelId)!;
      assert.equal(b.run, m.run, `${m.displayId} compared with ${b.displayId}`);
      assert.match(b.name, /sft/);
      assert.doesNotMatch(m.name, /sft/);
    }
    // The problem view pairs models the same way: each model against its own run's base, none for a base.
    const p4 = index.listProblems({ kind: 'all' }, 0, 100).find((p) => p.problemId === '4')!;
    const pd = problemData(index, p4.id, { baseId: guessed.id, baseIsChoice: false })!;
    const pairsOfReport = new Set(report.comparisons.map((c) => `${c.base} -> ${c.model}`));
    assert.ok(pd.comparisons.length > 0);
    for (const c of pd.comparisons)
      assert.ok(
        pairsOfReport.has(`${byDisplay.get(c.baseModelId)} -> ${byDisplay.get(c.modelId)}`),
        `${byDisplay.get(c.modelId)} vs ${byDisplay.get(c.baseModelId)}`,
      );
    // A chosen base: every other model against it.
    const chosen = overviewData(index, { baseId: guessed.id, baseIsChoice: true }, 200);
    assert.equal(chosen.coverage.length, models.length - 1);
    assert.ok(chosen.coverage.every((c) => c.baseModelId === guessed.id));
  });
});
