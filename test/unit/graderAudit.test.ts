/**
 * The grader audit, `report --regrade` and `--tool-grading` (issue 11), on the handwritten fixtures
 * test/fixtures/grader-audit and test/fixtures/tool-grading (every expected count worked out by hand
 * in the fixture's README) and on the real folders in ../shared/data/real.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { answerKey } from '../../src/core/answers';
import { graderAudit, graderAuditDiagnostics, regrade } from '../../src/core/analyses/graderAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { REAL, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';

const FIX = resolve(process.cwd(), 'test', 'fixtures');
const cli = resolve(process.cwd(), 'dist', 'cli.js');

async function indexed(folder: string): Promise<TraceIndex> {
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, folder);
  return index;
}

describe('grader audit on the handwritten fixture (two models, five problems)', async () => {
  const index = await indexed(join(FIX, 'grader-audit'));
  const audit = graderAudit(index);

  test('two inconsistent groups: 990 (4 correct, 2 incorrect) and 1/2 (6 correct, 1 incorrect)', () => {
    assert.equal(audit.inconsistent.length, 2);
    const [g990, gHalf] = audit.inconsistent;
    assert.deepEqual(
      [g990.problemId, g990.key, g990.answer, g990.correct, g990.incorrect, g990.referenceSays],
      ['0', '990', '990', 4, 2, true],
    );
    assert.deepEqual(
      g990.spellings.map((s) => [s.answer, s.correct, s.incorrect]),
      [
        ['990', 3, 0],
        ['\\$990.00', 0, 1],
        ['990.0', 1, 0],
        ['990.00', 0, 1],
      ],
    );
    assert.deepEqual(
      g990.models.map((m) => [m.model, m.correct, m.incorrect]),
      [
        ['base', 2, 1],
        ['rl', 2, 1],
      ],
    );
    assert.deepEqual([gHalf.problemId, gHalf.key, gHalf.correct, gHalf.incorrect], ['1', '0.5', 6, 1]);
    // the examples show both verdicts, the incorrect ones first
    assert.deepEqual(
      gHalf.examples.map((e) => [e.answer, e.correct]),
      [
        ['\\frac12', false],
        ['0.5', true],
        ['1/2', true],
        ['0.5', true],
        ['0.5', true],
        ['0.5', true],
      ],
    );
  });

  test('counts: 39 graded samples with an answer in 11 groups of 5 problems; 1 sample without an answer', () => {
    assert.deepEqual(
      [audit.samplesChecked, audit.samplesSkipped, audit.groupsChecked, audit.problemsChecked],
      [39, { noAnswer: 1, ungraded: 0 }, 11, 5],
    );
    assert.deepEqual([audit.problemsInconsistent, audit.samplesInconsistent], [2, 13]);
  });

  test('diagnostics: one warning per group at the line of a minority-verdict sample', () => {
    const d = graderAuditDiagnostics(audit);
    assert.equal(d.length, 2);
    assert.deepEqual(
      d.map((x) => [x.file, x.line, x.severity]),
      [
        ['base/math_eval/spellings/test_qwen-boxed.jsonl', 1, 'warning'],
        ['base/math_eval/spellings/test_qwen-boxed.jsonl', 2, 'warning'],
      ],
    );
    assert.equal(
      d[0].message,
      'grader inconsistency: problem 0: the same answer "990" is graded correct in 4 and incorrect in 2 samples ("990" 3 correct / 0 incorrect; "\\\\$990.00" 0 correct / 1 incorrect; "990.0" 1 correct / 0 incorrect; "990.00" 0 correct / 1 incorrect). The reference "990" equals this value.',
    );
  });

  test('regrade: base 4 folder-incorrect/tool-correct and 1 folder-correct/tool-incorrect; rl 5 and 0', () => {
    const rg = regrade(index);
    const row = (name: string) => rg.models.find((m) => m.model.startsWith(name))!;
    const base = row('base');
    const rl = row('rl');
    assert.deepEqual(
      [base.samples, base.compared, base.agree, base.folderIncorrectToolCorrect, base.folderCorrectToolIncorrect],
      [20, 19, 14, 4, 1],
    );
    assert.deepEqual(base.skipped, { noAnswer: 1, ungraded: 0, noReference: 0 });
    assert.deepEqual(
      [rl.samples, rl.compared, rl.agree, rl.folderIncorrectToolCorrect, rl.folderCorrectToolIncorrect],
      [20, 20, 15, 5, 0],
    );
    assert.equal(rg.disagreements, 10);
    assert.deepEqual(
      base.examples.map((e) => [e.problemId, e.sampleIndex, e.answer, e.reference, e.folder, e.tool, e.line]),
      [
        ['0', 0, '\\$990.00', '990', false, true, 1],
        ['1', 1, '\\frac12', '\\frac{1}{2}', false, true, 2],
        ['3', 0, '10000', '10{,}000', false, true, 4],
        ['3', 1, '10,000', '10{,}000', false, true, 4],
        ['4', 0, '8', '7', true, false, 5],
      ],
    );
  });

  test('the report carries the audit always and the regrade when asked; verdicts are unchanged', () => {
    const before = index.allStats();
    const r = buildReport(index, { regrade: true });
    assert.equal(r.graderAudit.inconsistent.length, 2);
    assert.equal(r.regrade!.disagreements, 10);
    assert.deepEqual(r.grading, { by: 'folder', toolGraded: 0, toolCorrect: 0 });
    assert.equal(buildReport(index).regrade, undefined);
    assert.deepEqual(index.allStats(), before);
  });

  test('the tree filter "grader disagreements" lists problems 0 and 1', () => {
    const tree = loadTree();
    const session = {
      index,
      graderAudit: () => graderAudit(index),
      focusModel: () => undefined,
      baseModel: () => undefined,
    };
    const provider = new tree.ProblemTreeProvider(() => session);
    provider.filter = { kind: 'graderDisagreements' };
    const f = provider.resolveFilter(session) as { kind: string; problemIds: number[] };
    assert.equal(f.kind, 'problems');
    assert.deepEqual(
      f.problemIds.map((id) => index.problem(id)!.problemId),
      ['0', '1'],
    );
    assert.equal(
      tree.describeFilter({ kind: 'graderDisagreements' }),
      'Grader disagreements: the same answer graded correct and incorrect',
    );
  });
});

/** The tree provider with `vscode` replaced by the shared stub. */
function loadTree() {
  return loadWithStub<{
    ProblemTreeProvider: new (g: () => unknown) => { filter: unknown; resolveFilter(s: unknown): unknown };
    describeFilter(f: unknown): string;
  }>('../../src/extension/problemTree');
}

describe('tool grading (opt-in) of a folder with references and answers but no verdicts', async () => {
  const index = await indexed(join(FIX, 'tool-grading'));

  test('without the option nothing is graded', () => {
    const r = buildReport(index, { majAtK: true });
    assert.equal(r.models[0].sampleAccuracy, null);
    assert.deepEqual(r.models[0].passAtK, []);
    assert.deepEqual(r.grading, { by: 'folder', toolGraded: 0, toolCorrect: 0 });
  });

  test('with it: 7 samples graded (5 correct); pass@1 = (3/4 + 2/3) / 2; the problem without a reference stays ungraded', () => {
    const r = buildReport(index, { majAtK: true, toolGrading: true });
    assert.deepEqual(r.grading, { by: 'folder and tool', toolGraded: 7, toolCorrect: 5 });
    const m = r.models[0];
    assert.equal(m.correct, 5);
    assert.ok(Math.abs(m.passAtK[0].value! - (3 / 4 + 2 / 3) / 2) < 1e-12, `${m.passAtK[0].value}`);
    assert.equal(m.passAtK[0].problems, 2);
    // maj@1 = fraction of samples whose answer equals the reference (no answer scores 0): (3/4 + 2/4) / 2
    assert.ok(Math.abs(m.majAtK![0].value! - (3 / 4 + 2 / 4) / 2) < 1e-12);
    assert.deepEqual([m.majAtK![0].problems, m.majAtK![0].byReference, m.majAtK![0].missing], [2, 2, 1]);
    // the index is not changed: its samples still have no verdict
    assert.equal(index.models()[0].correct, 0);
  });

  test('the CLI labels the tool grading', () => {
    const db = join(tempDir(), 'i.db');
    const out = execFileSync(
      process.execPath,
      [cli, 'report', join(FIX, 'tool-grading'), '--db', db, '--tool-grading', '-q'],
      { encoding: 'utf8' },
    );
    assert.match(
      out,
      /^grading: the folder's verdicts, plus the TOOL'S GRADING of 7 samples that had no verdict \(5 correct/,
    );
    // the audit checks the folder's verdicts: the 10 samples without one are not checked, and the 7 the tool
    // graded are said to be so, not called "ungraded" under the line saying the tool graded them (trial 12 finding 21)
    assert.match(
      out,
      /grader audit: no inconsistency: 0 graded samples .*; 0 without an answer and 10 without a verdict of the folder not checked \(7 of them graded by the tool, not audited\)/,
    );
  });
});

describe('grader audit and regrade on the real folders', async () => {
  test('Qwen2.5-Math example: no inconsistent group; the regrade finds one grader error (idx 72: "10000" vs gt "10{,}000")', async () => {
    const index = await indexed(join(REAL, 'qwen25-math-eval-example'));
    const audit = graderAudit(index);
    assert.equal(audit.inconsistent.length, 0);
    // independently: group pred[] by answer key per problem, and check every group has one verdict
    const raw = readFileSync(join(REAL, 'qwen25-math-eval-example', 'math_cot_100.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { idx: number; gt: string; pred: string[]; score: boolean[] });
    let groups = 0;
    for (const r of raw) {
      const verdicts = new Map<string, Set<boolean>>();
      r.pred.forEach((p, i) => {
        verdicts.set(answerKey(p)!, (verdicts.get(answerKey(p)!) ?? new Set()).add(r.score[i]));
      });
      groups += verdicts.size;
      for (const [k, v] of verdicts) assert.equal(v.size, 1, `idx ${r.idx} answer ${k}`);
    }
    assert.deepEqual([audit.samplesChecked, audit.groupsChecked], [800, groups]);
    // by hand: idx 72 has gt "10{,}000" and its 8th sample answers "10000", graded false by the folder
    const rg = regrade(index);
    assert.equal(rg.disagreements, 1);
    assert.deepEqual(
      rg.models[0].examples.map((e) => [e.problemId, e.sampleIndex, e.answer, e.reference, e.folder, e.tool]),
      [['72', 7, '10000', '10{,}000', false, true]],
    );
    const idx72 = raw.find((r) => r.idx === 72)!;
    assert.deepEqual([idx72.pred[7], idx72.score[7], idx72.gt], ['10000', false, '10{,}000']);
    index.close();
  });

  test('rlvr-probe-gsm8k (12 models, 2880 samples): no inconsistent group, no regrade disagreement', async () => {
    const root = join(REAL, 'rlvr-probe-gsm8k');
    const index = await indexed(root);
    const audit = graderAudit(index);
    assert.equal(audit.inconsistent.length, 0);
    assert.equal(audit.samplesChecked, 2880);
    // independently, from the raw rollouts: within each file and problem, one verdict per parsed value
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (f.endsWith('_raw.jsonl')) files.push(p);
      }
    };
    walk(root);
    assert.equal(files.length, 12);
    for (const f of files)
      for (const l of readFileSync(f, 'utf8').split('\n').filter(Boolean)) {
        const o = JSON.parse(l) as { qid: number; rollouts: { pred_value: number; correct: boolean }[] };
        const v = new Map<string, Set<boolean>>();
        for (const r of o.rollouts)
          v.set(
            answerKey(String(r.pred_value))!,
            (v.get(answerKey(String(r.pred_value))!) ?? new Set()).add(r.correct),
          );
        for (const [k, s] of v) assert.equal(s.size, 1, `${f} qid ${o.qid} ${k}`);
      }
    const rg = regrade(index);
    assert.equal(rg.disagreements, 0);
    assert.equal(
      rg.models.reduce((a, m) => a + m.compared, 0),
      2880,
    );
    index.close();
  });

  test('Inspect logs: the reference " No" equals the answer "No" (words compared case- and space-folded)', async () => {
    const index = await indexed(join(REAL, 'inspect-logs'));
    assert.equal(graderAudit(index).inconsistent.length, 0);
    const rg = regrade(index);
    assert.equal(rg.disagreements, 0);
    assert.equal(
      rg.models.reduce((a, m) => a + m.compared, 0),
      16,
    );
    index.close();
  });
});

describe('problemsInOrder: a few problems in the natural order of the whole list', () => {
  test('on humaneval-samples-flat: the subset in the order listProblems gives them (HumanEval/2 before /10)', async () => {
    const index = TraceIndex.open(':memory:');
    try {
      await indexFolder(index, join(REAL, 'humaneval-samples-flat'), { fts: false });
      const all = index.listProblems({ kind: 'all' }, 0, 1_000_000);
      // every 7th problem, asked for in reverse: the answer is in the whole list's order
      const some = all.filter((_, i) => i % 7 === 0);
      const got = index.problemsInOrder(some.map((p) => p.id).reverse());
      assert.deepEqual(
        got.map((p) => p.id),
        some.map((p) => p.id),
      );
      const names = index.problemsInOrder(all.filter((p) => /^HumanEval\/(2|10)$/.test(p.problemId)).map((p) => p.id));
      assert.deepEqual(
        names.map((p) => p.problemId),
        ['HumanEval/2', 'HumanEval/10'],
      );
      assert.deepEqual(index.problemsInOrder([]), []);
    } finally {
      index.close();
    }
  });
});
