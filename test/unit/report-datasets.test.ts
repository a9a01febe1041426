/**
 * Figures per dataset and what is pooled (report, CLI table and CSV, overview, tree, Training tab), maj@k and pass@k
 * denominators, and the audit's rule line.
 *
 * Trial 5 (fresh user, formats researchers have): the figure findings 3, 5, 10 and 11b-d. Fixtures are
 * small copies of the trial's folders in test/fixtures/trial5 (SimpleRL-Zoo / Qwen2.5-Math layout with
 * math500 and aime24 per checkpoint; lm-eval samples of gsm8k and minerva_math_algebra with the
 * trial's mapping). Every value is computed by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AUDIT_RULE_TEXT, auditDiagnostics, auditFolder, auditRules } from '../../src/core/analyses/summaryAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport, MAJ_AT_K_RULE, type Report } from '../../src/core/report/index';
import { ALL_DATASETS, CSV_HEADER, majJudged, reportCsv, reportTable } from '../../src/cli/main';
import { overviewData } from '../../src/extension/panelData';
import { problemLabel, problemsInDatasets } from '../../src/core/grouping/datasets';
import type { FolderSession } from '../../src/extension/session';
import type { ProblemTreeProvider } from '../../src/extension/problemTree';
import { REAL, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';
import { datasetsNote } from '../../src/shared/datasetNote';

const FIX = resolve(process.cwd(), 'test/fixtures/trial5');
const SIMPLERL = join(FIX, 'simplerl');
const LMEVAL = join(FIX, 'lmeval');
const STEP80 = 'checkpoints/simplerl-zoo/global_step_80';
const STEP40 = 'checkpoints/simplerl-zoo/global_step_40';
const BASE = 'Qwen2.5-Math-7B';

async function indexed(dir: string, mappingFile?: string): Promise<TraceIndex> {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir, mappingFile ? { readerOptions: { mappingFile } } : {});
  return index;
}

const near = (a: number | null | undefined, b: number) =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-12, `${a} vs ${b}`);

function perDataset(r: Report, model: string, dataset: string) {
  const d = r.perDataset.find((x) => x.model.endsWith(model) && x.dataset === dataset);
  assert.ok(d, `${model} ${dataset}`);
  return d;
}

// Trial 5 finding 3.
describe('a folder with several datasets gives figures per dataset and says what it pools', async () => {
  const index = await indexed(SIMPLERL);
  const r = buildReport(index, { replicates: 100 });

  test('the report lists the datasets and each model pass@k per dataset (by hand from the score lists)', () => {
    assert.deepEqual(r.datasets, [
      { dataset: 'aime24', problems: 2 },
      { dataset: 'math500', problems: 4 },
    ]);
    // global_step_80: math500 c = 3,3,3,3 of 4 -> pass@1 0.75, pass@2 = 1 - C(1,2)/C(4,2) = 1;
    // aime24 c = 1, 0 of 4 -> pass@1 (1/4 + 0) / 2 = 0.125, pass@2 (1 - C(3,2)/C(4,2) + 0) / 2 = 0.25
    const m80 = perDataset(r, STEP80, 'math500');
    const a80 = perDataset(r, STEP80, 'aime24');
    near(m80.passAtK[0].value, 0.75);
    near(m80.passAtK[1].value, 1);
    near(a80.passAtK[0].value, 0.125);
    near(a80.passAtK[1].value, 0.25);
    assert.deepEqual(
      [a80.problems, a80.samples, a80.correct, m80.problems, m80.samples, m80.correct],
      [2, 8, 1, 4, 16, 12],
    );
    // the base: math500 c = 1 each -> 0.25; aime24 nothing correct -> 0; step 40: math500 c = 2 each -> 0.5
    near(perDataset(r, BASE, 'math500').passAtK[0].value, 0.25);
    near(perDataset(r, BASE, 'aime24').passAtK[0].value, 0);
    near(perDataset(r, STEP40, 'math500').passAtK[0].value, 0.5);
    // the pooled figure is the mean over all 6 problems: 13/24 for step 80, and says which datasets
    const m = r.models.find((x) => x.id.endsWith(STEP80))!;
    near(m.passAtK[0].value, 13 / 24);
    assert.deepEqual(m.datasets, r.datasets);
  });

  test('the CLI table has a dataset column, the pooled row labelled "all datasets", and a line naming the datasets', () => {
    const t = reportTable(r);
    assert.match(
      t,
      /datasets: 6 problems in 2 datasets \(aime24 2, math500 4\): the table gives each dataset's figures/,
    );
    assert.match(
      t,
      /every other figure below \(comparisons, best-of-k, maj@k, training, grader audit\) pools the 2 datasets/,
    );
    const row = (dataset: string) =>
      // the step's label is `<model folder> · <step folder>` (trial 12 finding 16), its id the folder path STEP80
      t
        .split('\n')
        .find((l) => l.startsWith('simplerl-zoo · global_step_80') && new RegExp(`\\s${dataset}\\s`).test(l)) ?? '';
    assert.match(row('aime24'), /\s2\s+8\s+1\s+12\.5 \[/);
    assert.match(row('math500'), /\s4\s+16\s+12\s+75\.0 \[/);
    assert.match(row(ALL_DATASETS), /\s6\s+24\s+13\s+54\.2 \[/);
    assert.match(t.split('\n').find((l) => l.startsWith('model')) ?? '', /^model\s+dataset\s+problems/);
  });

  test('CSV: dataset and datasets columns; per-dataset rows, pooled rows marked "all datasets" with the counts', () => {
    const lines = reportCsv(r).split('\n');
    const cols = CSV_HEADER.split(',');
    // `partly_scored` (reward-model rows only) after them: trial 12 finding 20; `base_label` last: trial 12 finding 22
    assert.deepEqual(cols.slice(-4), ['dataset', 'datasets', 'partly_scored', 'base_label']);
    const rows = lines.slice(1).map((l) => l.split(','));
    for (const x of rows) assert.equal(x.length, cols.length, x.join(','));
    const at = (dataset: string, k: number) =>
      rows.find(
        (x) =>
          x[0].endsWith(STEP80) &&
          x[2] === 'pass@k' &&
          x[3] === String(k) &&
          x[13] === '' &&
          x[14] === '' &&
          x[20] === dataset,
      );
    near(Number(at('aime24', 1)?.[4]), 0.125);
    assert.equal(at('aime24', 1)?.[21], 'aime24:2');
    near(Number(at(ALL_DATASETS, 1)?.[4]), 13 / 24);
    assert.equal(at(ALL_DATASETS, 1)?.[21], 'aime24:2;math500:4');
  });

  test('the overview says "6 problems in 2 datasets (aime24 2, math500 4)" and that it pools them', () => {
    const o = overviewData(index, {}, 50);
    assert.equal(o.problemsText, '6 problems in 2 datasets (aime24 2, math500 4)');
    assert.deepEqual(o.datasets, r.datasets);
    assert.match(o.warnings[0], /^Every figure here pools the 2 datasets \(aime24 2, math500 4 problems\)/);
  });

  test('sibling: lm-eval samples of gsm8k and minerva_math_algebra (mapping) are two datasets too', async () => {
    const lm = await indexed(LMEVAL, join(FIX, 'lmeval.mapping.json'));
    const lr = buildReport(lm, { replicates: 50 });
    assert.deepEqual(lr.datasets, [
      { dataset: 'gsm8k', problems: 4 },
      { dataset: 'minerva_math_algebra', problems: 3 },
    ]);
    // 2 models x 2 datasets; each problem 4 samples (resps), no verdicts
    assert.deepEqual(
      lr.perDataset.map((d) => [d.dataset, d.problems, d.samples, d.ungradedSamples]),
      [
        ['gsm8k', 4, 16, 16],
        ['minerva_math_algebra', 3, 12, 12],
        ['gsm8k', 4, 16, 16],
        ['minerva_math_algebra', 3, 12, 12],
      ],
    );
    lm.close();
  });

  test('sibling: a folder with one dataset keeps its table: no dataset column, no per-dataset rows', async () => {
    const one = tempDir('t5b-one-');
    mkdirSync(join(one, 'm', 'math500'), { recursive: true });
    writeFileSync(
      join(one, 'm', 'math500', 'test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl'),
      `${JSON.stringify({ idx: 0, question: 'q', gt: '1', code: ['a', 'b'], pred: ['1', '2'], score: [true, false] })}\n`,
    );
    const i1 = await indexed(one);
    const r1 = buildReport(i1, { replicates: 20 });
    assert.equal(r1.datasets.length, 1);
    assert.deepEqual(r1.perDataset, []);
    assert.doesNotMatch(reportTable(r1), /datasets:|all datasets|^model\s+dataset/m);
    assert.equal(overviewData(i1, {}, 20).problemsText, '1 problem');
    i1.close();
  });

  test('sibling, real Inspect logs (cais/mmlu 1, popularity 10): a model of one dataset has one row, named by its dataset', async () => {
    const dir = join(REAL, 'inspect-logs');
    const ii = await indexed(dir);
    const ir = buildReport(ii, { replicates: 20 });
    assert.deepEqual(
      ir.datasets.map((d) => d.dataset),
      ['cais/mmlu', 'popularity'],
    );
    const t = reportTable(ir);
    const gpt4o = t.split('\n').filter((l) => l.startsWith('openai/gpt-4o [base]'));
    assert.equal(gpt4o.length, 1, gpt4o.join('\n'));
    assert.match(gpt4o[0], /\scais\/mmlu\s+1\s+1\s/);
    // its CSV rows pool only its own problems: datasets column "cais/mmlu:1", not the folder's
    const m = ir.models.find((x) => x.label === 'openai/gpt-4o')!;
    const rows = reportCsv(ir)
      .split('\n')
      .filter((l) => l.startsWith(`${m.id},`) && l.includes(',pass@k,1,'));
    assert.ok(
      // then partly_scored and base_label, empty
      rows.some((l) => l.endsWith(',all datasets,cais/mmlu:1,,')),
      rows.join('\n'),
    );
    ii.close();
  });

  test('labels: problem ids that repeat across datasets carry the dataset', () => {
    assert.equal(problemLabel({ dataset: 'aime24', problemId: '0' }, true), 'aime24 · 0');
    assert.equal(problemLabel({ dataset: 'aime24', problemId: '0' }, false), '0');
    assert.equal(problemsInDatasets([{ dataset: 'x', problems: 1 }]), '1 problem');
  });
});

// Trial 5 finding 3c and 11b.
describe('the Problems tree names the dataset of a problem, and a reward score as reward', async () => {
  const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
    '../../src/extension/session',
  );
  const { ProblemTreeProvider: Tree } = loadWithStub<{
    ProblemTreeProvider: new (g: () => unknown) => ProblemTreeProvider;
  }>('../../src/extension/problemTree');
  const state = new Map<string, unknown>();
  const storage = tempDir('t5b-tree-');
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: storage },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const folder = { uri: { fsPath: SIMPLERL, toString: () => `file://${SIMPLERL}` }, name: 'simplerl' };
  const s = new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
  await indexFolder(s.index, SIMPLERL);
  const tree = new Tree(() => s);

  test('the two problems "0" read "aime24 · 0" and "math500 · 0"', () => {
    const rows = tree.getChildren() as { type: string }[];
    const labels = rows.filter((r) => r.type === 'problem').map((r) => String(tree.getTreeItem(r as never).label));
    assert.deepEqual(labels, ['aime24 · 0', 'aime24 · 1', 'math500 · 0', 'math500 · 1', 'math500 · 2', 'math500 · 3']);
  });

  test('sibling: two datasets whose problem ids do not repeat keep plain ids (aime24 · only where needed)', async () => {
    const dir = tempDir('t5b-distinct-');
    for (const [ds, ids] of [
      ['aime24', [0, 1]],
      ['math500', [2, 3]],
    ] as const) {
      mkdirSync(join(dir, 'm', ds), { recursive: true });
      writeFileSync(
        join(dir, 'm', ds, 'test_qwen-boxed_-1_seed0_t0.0_s0_e-1.jsonl'),
        ids
          .map((idx) => JSON.stringify({ idx, question: 'q', gt: '1', code: ['a'], pred: ['1'], score: [true] }))
          .join('\n'),
      );
    }
    const s2 = new Session(
      { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'distinct' },
      context,
      { appendLine: () => undefined },
      { clear() {}, set() {} },
    );
    await indexFolder(s2.index, dir);
    const t2 = new Tree(() => s2);
    const rows = t2.getChildren() as { type: string }[];
    assert.deepEqual(
      rows.filter((r) => r.type === 'problem').map((r) => String(t2.getTreeItem(r as never).label)),
      ['0', '1', '2', '3'],
    );
  });

  test('a sample row shows its reward score as "reward 0.100", never "score"', () => {
    const sample = s.index.samples(s.index.listProblems({ kind: 'all' }, 0, 1)[0].id, s.index.models()[0].id, {
      offset: 0,
      limit: 1,
    })[0];
    const d = String(
      tree.getTreeItem({
        type: 'sample',
        sample: { ...sample, rewardScore: 0.1 },
        problemLabel: '',
        modelLabel: '',
      } as never).description,
    );
    assert.match(d, /(^| · )reward 0\.100 · /);
    assert.doesNotMatch(d, /score/);
  });
});

// Trial 5 finding 5.
describe('maj@k and pass@k denominators', async () => {
  // Qwen2.5-Math lines, reference "1", answers 1, 1, 2, 1 in every problem:
  // problem 0 graded true, true, false, true; problem 1 graded on 2 of 4 (null, null, true, false: the
  // verdicts contradict the reference); problem 2 not graded at all.
  const dir = tempDir('t5b-maj-');
  mkdirSync(join(dir, 'm'));
  const line = (idx: number, score: (boolean | null)[]) =>
    JSON.stringify({ idx, question: 'q', gt: '1', code: ['a', 'b', 'c', 'd'], pred: ['1', '1', '2', '1'], score });
  writeFileSync(
    join(dir, 'm', 'res.jsonl'),
    `${[line(0, [true, true, false, true]), line(1, [null, null, true, false]), line(2, [null, null, null, null])].join('\n')}\n`,
  );
  const index = await indexed(dir);

  test('by hand: pass@1 over the 2 graded problems, maj@k over all 3 (each judged by the reference answer)', () => {
    const r = buildReport(index, { replicates: 50, majAtK: true });
    const m = r.models[0];
    // pass@1 = (3/4 + 1/2) / 2 = 0.625 over 2 of 3 problems (problem 2 has no verdict)
    near(m.passAtK[0].value, 0.625);
    assert.deepEqual([m.passAtK[0].problems, m.passAtK[0].missing], [2, 1]);
    // maj@1: 3 of the 4 answers are "1" = the reference in every problem -> 0.75 over all 3 problems;
    // maj@2: of the C(4,2) = 6 pairs, 3 are (1,1) -> 1 and 3 are (1,2) ties -> 1/2: (3 + 1.5) / 6 = 0.75;
    // maj@4: "1" wins 3 to 1 -> 1
    const maj = m.majAtK!;
    assert.deepEqual(
      maj.map((p) => [p.k, p.problems, p.missing, p.byReference]),
      [
        [1, 3, 0, 3],
        [2, 3, 0, 3],
        [4, 3, 0, 3],
      ],
    );
    near(maj[0].value, 0.75);
    near(maj[1].value, 0.75);
    near(maj[2].value, 1);
    // the rule says which samples vote and which problems count; a warning says why maj@1 != pass@1
    assert.equal(r.majAtKRule, MAJ_AT_K_RULE);
    assert.match(MAJ_AT_K_RULE, /every sample of a problem votes \(n = all its samples, with or without a verdict/);
    assert.match(MAJ_AT_K_RULE, /over the problems with samples and a reference answer or a graded sample/);
    const w = r.warnings.find((x) => x.includes('maj@1'));
    assert.ok(w, r.warnings.join('\n'));
    // 12 samples, 6 graded (4 + 2): 6 vote without a verdict; problem 2 only in maj@k; of the 6 graded
    // samples, problem 1's two disagree with the reference ("2" graded true, "1" graded false)
    assert.match(
      w,
      /maj@1 75\.0 \(3 problems\) differs from pass@1 62\.5 \(2 problems, 6 graded samples\): maj@k votes over all 12 samples, 6 of them without a verdict \(in no pass@k\); maj@k counts 1 problem with a reference answer but no graded sample \(in no pass@k\); maj@k judges 3 of its 3 problems by the reference answer, pass@k by the folder's verdicts: 2 of the 6 graded samples with an answer have a verdict that disagrees with the reference answer/,
    );
    assert.match(
      reportTable(r),
      /k=1 75\.0 {2}k=2 75\.0 {2}k=4 100\.0 \(at k=1: all 3 problems judged by the reference answer\)/,
    );
  });

  test('maj@1 equals pass@1 when every sample is graded and the verdicts agree with the reference: no note', async () => {
    const d2 = tempDir('t5b-maj2-');
    mkdirSync(join(d2, 'm'));
    writeFileSync(join(d2, 'm', 'res.jsonl'), `${line(0, [true, true, false, true])}\n`);
    const i2 = await indexed(d2);
    const r = buildReport(i2, { replicates: 20, majAtK: true });
    near(r.models[0].majAtK![0].value, 0.75);
    near(r.models[0].passAtK[0].value, 0.75);
    assert.equal(
      r.warnings.find((x) => x.includes('maj@1')),
      undefined,
    );
    i2.close();
  });

  test('sibling: lm-eval without verdicts (no --tool-grading) has maj@k over all 7 problems, by the reference', async () => {
    const lm = await indexed(LMEVAL, join(FIX, 'lmeval.mapping.json'));
    const r = buildReport(lm, { replicates: 20, majAtK: true });
    for (const m of r.models) {
      // gsm8k: 2 of 4 answers are the target in each of 4 problems -> 1/2; maj@2 (1 + 0 + 4 x 1/2) / 6 = 1/2;
      // minerva: 0.5 and \frac{1}{2} are one answer, the target -> 1 in each of 3: (4 x 0.5 + 3) / 7 = 5/7
      assert.deepEqual([m.majAtK![0].problems, m.majAtK![0].missing], [7, 0]);
      near(m.majAtK![0].value, 5 / 7);
      near(m.majAtK![1].value, 5 / 7);
    }
    lm.close();
  });

  test('11d: the judged line says only what is true', () => {
    assert.equal(majJudged(7, 7), 'all 7 problems judged by the reference answer');
    assert.equal(majJudged(1, 1), 'the 1 problem judged by the reference answer');
    assert.equal(majJudged(0, 3), 'all 3 problems judged by verdicts (no reference answer)');
    assert.equal(
      majJudged(5, 7),
      '5 of 7 problems judged by the reference answer, 2 by verdicts (no reference answer)',
    );
  });

  test('11c: under --tool-grading the "no graded sample" infos say the tool graded those samples', () => {
    const r = buildReport(index, { replicates: 20, toolGrading: true });
    // problem 2: all 4 samples have an answer and the problem a reference -> 4 tool-graded; problem 1: its 2 ungraded
    const p2 = r.diagnostics.find((d) => d.message.startsWith('problem "2"'));
    const p1 = r.diagnostics.find((d) => d.message.startsWith('problem "1"'));
    assert.match(p2?.message ?? '', /counts in "missing" .* — under --tool-grading, 4 of them are graded by the tool/);
    assert.match(p1?.message ?? '', / — under --tool-grading, 2 of them are graded by the tool/);
    assert.equal(r.grading.toolGraded, 6);
    // without --tool-grading the infos are as the indexer wrote them
    const plain = buildReport(index, { replicates: 20 });
    assert.doesNotMatch(plain.diagnostics.map((d) => d.message).join('\n'), /--tool-grading/);
  });

  test('11c sibling: a problem with ONE sample without a verdict ("1 of its 4 samples has no verdict") gets the note too', async () => {
    const d1 = tempDir('t5b-one-');
    mkdirSync(join(d1, 'm'));
    writeFileSync(join(d1, 'm', 'res.jsonl'), `${line(0, [true, null, false, true])}\n`);
    const i1 = await indexed(d1);
    const r = buildReport(i1, { replicates: 20, toolGrading: true });
    const info = r.diagnostics.find((d) => d.message.startsWith('problem "0"'));
    assert.match(info?.message ?? '', /1 of its 4 samples has no verdict/);
    // sample 1 answers "1" = the reference: the tool grades it
    assert.match(info?.message ?? '', / — under --tool-grading, 1 of them is graded by the tool/);
    i1.close();
  });
});

// Trial 5 finding 10.
describe('the audit line says what each figure was recomputed as', async () => {
  const index = await indexed(SIMPLERL);
  const audit = await auditFolder(index, SIMPLERL);

  test("Qwen2.5-Math's acc is recomputed as the accuracy of sample 0 of each problem, and the rule line says so", () => {
    const acc = (path: string) =>
      audit.find((a) => a.file === `${path}/test_qwen-boxed_-1_seed0_t0.0_s0_e-1_metrics.json`);
    // step 80: aime24 sample 0 false, false -> 0, where correct / graded samples would be 1 of 8 = 12.5;
    // math500 sample 0 true, false, true, true -> 75
    assert.deepEqual([acc(`${STEP80}/aime24`)?.stored, acc(`${STEP80}/aime24`)?.recomputed], [17.5, 0]);
    assert.deepEqual([acc(`${STEP80}/math500`)?.stored, acc(`${STEP80}/math500`)?.recomputed], [80, 75]);
    // base math500: sample 0 true, false, false, false -> 25 (the stored 30 disagrees)
    assert.deepEqual([acc(`${BASE}/math500`)?.stored, acc(`${BASE}/math500`)?.recomputed], [30, 25]);
    for (const a of audit) assert.equal(a.rule, 'qwenAcc');
    const r = buildReport(index, { replicates: 20, audit });
    assert.equal(r.auditRules, `recomputed: ${AUDIT_RULE_TEXT.qwenAcc}`);
    assert.match(r.auditRules!, /acc = 100 x accuracy of sample 0 of each problem/);
    assert.doesNotMatch(r.auditRules!, /correct \/ graded samples/);
    assert.match(reportTable(r), /\n {2}\(recomputed: acc = 100 x accuracy of sample 0 of each problem/);
    const diag = auditDiagnostics(SIMPLERL, audit).find(
      (d) => d.file === `${STEP80}/aime24/test_qwen-boxed_-1_seed0_t0.0_s0_e-1_metrics.json`,
    );
    assert.match(
      diag?.message ?? '',
      /acc: this file says 17\.5000, the raw samples give 0 \(acc = 100 x accuracy of sample 0/,
    );
  });

  test('every rule kind is listed only for the entries that have it, in one order', () => {
    const e = (rule: keyof typeof AUDIT_RULE_TEXT) => ({ file: 'f', metric: 'x', stored: 1, recomputed: 0, rule });
    assert.equal(auditRules([]), '');
    assert.equal(
      auditRules([e('qwenAcc'), e('sampleAccuracy'), e('qwenAcc')]),
      `recomputed: ${AUDIT_RULE_TEXT.sampleAccuracy}; ${AUDIT_RULE_TEXT.qwenAcc}`,
    );
    assert.match(AUDIT_RULE_TEXT.sampleAccuracy, /correct \/ graded samples/);
    assert.match(AUDIT_RULE_TEXT.perQuestion, /correct samples of that problem/);
  });
});

// Trial 5 finding 3.
describe('the Training tab says when a series pools several datasets', () => {
  test('datasetsNote names them with their problem counts, and nothing for one dataset', () => {
    const ps = [
      ...['0', '1'].map(() => ({ dataset: 'aime24' })),
      ...['0', '1', '2', '3'].map(() => ({ dataset: 'math500' })),
    ];
    assert.equal(datasetsNote(ps), ' in 2 datasets (aime24 2, math500 4), pooled in every figure');
    assert.equal(datasetsNote(ps.slice(2)), '');
  });
});
