// sqlite-parity: skip — the grader audit's cost at scale; graderAudit.test runs it under node:sqlite
/**
 * The grader audit at scale (issue 31): on generated folders of 2,000 and 20,000 problems x 2 models x 4 samples in
 * the Qwen2.5-Math layout, with a noisy grader so that many problems have groups of equivalent answers graded
 * both ways. Every figure and group is checked against the same audit computed here straight from the records
 * written; and the cost per problem stays flat from 2,000 to 20,000 problems (a ratio, not a time).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_NAME } from '../../bench/gen';
import { answerKey } from '../../src/core/answers';
import { graderAudit } from '../../src/core/analyses/graderAudit';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { mulberry32 } from '../../src/core/metrics';
import { tempDir } from './helpers';

const MODELS = ['base', 'rl'];
const DATASET = 'ds';
const SAMPLES = 4;

/** One sample of a group, where it was written. */
interface Member {
  model: string;
  i: number;
  line: number;
  a: string;
  c: boolean;
}

interface Rec {
  idx: number;
  gt: string;
  pred: string[];
  score: boolean[];
}

/**
 * Writes `problems` problems per model. Answers are the reference or one of two wrong values, each written in
 * one of several equivalent spellings (`7`, `7.0`, `\boxed{7}`, `7.00`), or missing (''); the grader is right
 * 90% of the time, so equivalent answers of one problem are often graded both ways.
 */
function writeFolder(root: string, problems: number, seed: number): Record<string, Rec[]> {
  const r = mulberry32(seed);
  const spell = (v: number) => [`${v}`, `${v}.0`, `\\boxed{${v}}`, `${v}.00`][Math.floor(r() * 4)];
  const out: Record<string, Rec[]> = {};
  for (const model of MODELS) {
    const recs: Rec[] = [];
    for (let p = 0; p < problems; p++) {
      const gt = p % 89;
      const pred: string[] = [];
      const score: boolean[] = [];
      for (let s = 0; s < SAMPLES; s++) {
        const x = r();
        const v = x < 0.5 ? gt : x < 0.75 ? gt + 1 : gt + 2;
        pred.push(r() < 0.03 ? '' : spell(v));
        const right = v === gt;
        score.push(r() < 0.9 ? right : !right);
      }
      recs.push({ idx: p, gt: String(gt), pred, score });
    }
    const dir = join(root, model, 'math_eval', DATASET);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, FILE_NAME),
      `${recs.map((x) => JSON.stringify({ ...x, question: `q${x.idx}`, level: 'Level 1', code: x.pred.map((a) => `so \\boxed{${a}}`) })).join('\n')}\n`,
    );
    out[model] = recs;
  }
  return out;
}

/** The audit's figures computed from the records: per problem, samples grouped by answer key across models. */
function expectedAudit(data: Record<string, Rec[]>) {
  const byProblem = new Map<number, Map<string, Member[]>>();
  let checked = 0;
  let noAnswer = 0;
  for (const model of MODELS)
    for (const [line, rec] of data[model].entries())
      for (const [i, a] of rec.pred.entries()) {
        const key = answerKey(a);
        if (key === null) {
          noAnswer++;
          continue;
        }
        checked++;
        let groups = byProblem.get(rec.idx);
        if (!groups) byProblem.set(rec.idx, (groups = new Map()));
        const g = groups.get(key) ?? [];
        g.push({ model, i, line: line + 1, a, c: rec.score[i] });
        groups.set(key, g);
      }
  const bad: { problem: number; key: string; members: Member[] }[] = [];
  let groupsChecked = 0;
  for (const [problem, groups] of byProblem) {
    groupsChecked += groups.size;
    for (const [key, members] of groups)
      if (members.some((m) => m.c) && members.some((m) => !m.c)) bad.push({ problem, key, members });
  }
  return { checked, noAnswer, problemsChecked: byProblem.size, groupsChecked, bad };
}

async function indexed(root: string): Promise<TraceIndex> {
  const index = TraceIndex.open(join(root, 'index.db'));
  await indexFolder(index, join(root, 'results'));
  return index;
}

/** The fastest of two runs of the audit, in ms per problem. */
function msPerProblem(index: TraceIndex, problems: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    graderAudit(index);
    best = Math.min(best, performance.now() - t0);
  }
  return best / problems;
}

describe('grader audit on generated folders with many inconsistent problems (issue 31)', async () => {
  const small = tempDir();
  writeFolder(join(small, 'results'), 2000, 7);
  const smallIndex = await indexed(small);
  const large = tempDir();
  const data = writeFolder(join(large, 'results'), 20000, 11);
  const largeIndex = await indexed(large);

  test('20,000 problems: every figure and every inconsistent group as computed from the records', () => {
    const want = expectedAudit(data);
    const got = graderAudit(largeIndex);
    // thousands of problems with groups graded both ways (the old audit read every sample once per such problem)
    assert.ok(want.bad.length > 5000, `${want.bad.length} inconsistent groups`);
    assert.deepEqual(
      [got.samplesChecked, got.samplesSkipped, got.problemsChecked, got.groupsChecked],
      [want.checked, { noAnswer: want.noAnswer, ungraded: 0 }, want.problemsChecked, want.groupsChecked],
    );
    assert.equal(got.problemsInconsistent, new Set(want.bad.map((b) => b.problem)).size);
    assert.equal(
      got.samplesInconsistent,
      want.bad.reduce((a, b) => a + b.members.length, 0),
    );
    // in problem order (ids are numbers here)
    const order = got.inconsistent.map((g) => Number(g.problemId));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
    );
    const wantByKey = new Map(want.bad.map((b) => [`${b.problem}|${b.key}`, b]));
    assert.equal(got.inconsistent.length, wantByKey.size);
    for (const g of got.inconsistent) {
      const w = wantByKey.get(`${g.problemId}|${g.key}`);
      assert.ok(w, `problem ${g.problemId} key ${g.key} is not inconsistent`);
      const yes = w.members.filter((m) => m.c).length;
      assert.deepEqual([g.correct, g.incorrect, g.reference], [yes, w.members.length - yes, String(w.problem % 89)]);
      assert.equal(g.referenceSays, answerKey(String(w.problem % 89)) === g.key);
      const spellings = new Map<string, { answer: string; correct: number; incorrect: number }>();
      for (const m of w.members) {
        const sp = spellings.get(m.a) ?? { answer: m.a, correct: 0, incorrect: 0 };
        if (m.c) sp.correct++;
        else sp.incorrect++;
        spellings.set(m.a, sp);
      }
      assert.deepEqual(
        g.spellings,
        [...spellings.values()].sort(
          (a, b) => b.correct + b.incorrect - (a.correct + a.incorrect) || a.answer.localeCompare(b.answer),
        ),
      );
      assert.deepEqual(
        g.models,
        MODELS.map((model) => {
          const of = w.members.filter((m) => m.model === model);
          return { model, correct: of.filter((m) => m.c).length, incorrect: of.filter((m) => !m.c).length };
        }).filter((m) => m.correct + m.incorrect > 0),
      );
      // examples: real members at their file and line, both verdicts, as many as there are up to 6
      assert.equal(g.examples.length, Math.min(6, w.members.length));
      assert.ok(g.examples.some((e) => e.correct) && g.examples.some((e) => !e.correct));
      for (const e of g.examples) {
        const m: Member | undefined = w.members.find((x) => x.model === e.model && x.i === e.sampleIndex);
        assert.ok(m, `example ${e.model} #${e.sampleIndex}`);
        assert.deepEqual(
          [e.answer, e.correct, e.file, e.line],
          [m.a, m.c, `${e.model}/math_eval/${DATASET}/${FILE_NAME}`, m.line],
        );
      }
    }
  });

  test('the cost per problem stays flat: 20,000 problems cost less than 3 times as much per problem as 2,000', () => {
    graderAudit(smallIndex); // answer keys cached for both (the first test ran the large one)
    const ratio = msPerProblem(largeIndex, 20000) / msPerProblem(smallIndex, 2000);
    assert.ok(ratio < 3, `time per problem at 20,000 / at 2,000 = ${ratio.toFixed(2)}`);
    console.log(`grader audit: time per problem at 20,000 / at 2,000 problems = ${ratio.toFixed(2)}`);
  });
});
