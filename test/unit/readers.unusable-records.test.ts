// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * What the readers could not use is named where it is: a record that could not be read (with file and line, counted
 * per model in the report and the overview), reward-model score lists shorter than the samples and null scores (at
 * their line), a model with no graded sample in a file (one info, not one per problem).
 *
 * Regressions of the fresh-user trial 4 (findings 4, 5 and 12; moved from its test file, now
 * layout-base-guess.test.ts): each folder is built here after /work/trial4-scratch (gen.py), indexed into real
 * SQLite; the right values are worked out by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { tempDir } from './helpers';
import { QWEN_FILE as FILE, putJsonLines as put, qwenRecord as qwen } from './qwenRecords';

// Trial 4 finding 4.
describe('a record that could not be read is named as such, with file and line', () => {
  /** rl-mut/: base 4 problems; step-100's last record truncated (line 4), step-200's line 2 bad JSON. */
  function mutFolder(): string {
    const dir = tempDir('trial4-mut-');
    const rec = (i: number) => JSON.stringify(qwen(i, [true, false]));
    const write = (rel: string, lines: string[]) => {
      mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
      writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${l}\n`).join(''));
    };
    write('qwen-base/math_eval/synth/test_qwen.jsonl', [0, 1, 2, 3].map(rec));
    write('qwen-grpo/step-100/math_eval/synth/test_qwen.jsonl', [rec(0), rec(1), rec(2), rec(3).slice(0, 40)]);
    write('qwen-grpo/step-200/math_eval/synth/test_qwen.jsonl', [rec(0), '{idx: 1, "score": [true]}', rec(2), rec(3)]);
    return dir;
  }
  const FILE100 = 'qwen-grpo/step-100/math_eval/synth/test_qwen.jsonl';
  const FILE200 = 'qwen-grpo/step-200/math_eval/synth/test_qwen.jsonl';

  test('the report and the overview count the unreadable records of each model and say where', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, mutFolder());
    const byName = new Map(index.models().map((m) => [m.displayId, m]));
    assert.deepEqual(
      index.unreadableRecords(byName.get('qwen-grpo/step-100')!.id).map((d) => `${d.file}:${d.line}`),
      [`${FILE100}:4`],
    );
    assert.deepEqual(
      index.unreadableRecords(byName.get('qwen-grpo/step-200')!.id).map((d) => `${d.file}:${d.line}`),
      [`${FILE200}:2`],
    );
    assert.deepEqual(index.unreadableRecords(byName.get('qwen-base')!.id), []);
    const r = buildReport(index, { replicates: 50 });
    // step-100 lacks problem 3 (its record is the truncated line 4): not "has no record of it"
    const cmp = r.warnings.find((w) => w.startsWith('qwen-grpo/step-100 vs qwen-base'));
    assert.equal(
      cmp,
      `qwen-grpo/step-100 vs qwen-base: compared over 3 of the 4 problems of the two models: 1 only qwen-base has it: qwen-grpo/step-100 has no readable record of it (problem "3"); 1 record of qwen-grpo/step-100 could not be read (${FILE100}:4)`,
    );
    assert.ok(
      r.warnings.includes(
        `qwen-grpo/step-200: 1 record could not be read (${FILE200}:2): left out of every figure; each is listed with its reason in the Problems panel (CLI: the diagnostics)`,
      ),
      r.warnings.join('\n'),
    );
    const { overviewData } = await import('../../src/extension/panelData');
    const base = byName.get('qwen-base')!;
    const o = overviewData(index, { baseId: base.id, baseIsChoice: true }, 50);
    // the overview says the same with the models' labels: the two models' unreadable records, and the
    // reason of both comparisons (step-200's bad line 2 was problem 1's record: it lacks problem 1)
    const unreadable = o.warnings.filter((w) => w.includes('could not be read ('));
    assert.equal(unreadable.length, 4, o.warnings.join('\n'));
    assert.ok(o.warnings.some((w) => w.includes(`has no readable record of it (problem "1"); 1 record of`)));
    assert.ok(o.warnings.some((w) => w.includes(`has no readable record of it (problem "3"); 1 record of`)));
    index.close();
  });
});

// Trial 4 finding 5.
describe('reward-model score lists shorter than the samples, and null scores, at their line', () => {
  /** rl-rm3/: qwen-base, 3 problems of 4 samples; rm/<scorer>.jsonl scores them per problem (`s` lists). */
  function rmFolder(bad: unknown[]): string {
    const dir = tempDir('trial4-rm-');
    put(
      dir,
      'qwen-base/math_eval/synth/test_qwen.jsonl',
      [0, 1, 2].map((i) => qwen(i, [true, false, true, false])),
    );
    writeFileSync(
      join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify([
        {
          files: ['rm/*.jsonl'],
          records: 'per-problem',
          fields: { problemId: 'id' },
          scores: [{ path: 's', scorerFromFile: '(.+)\\.jsonl' }],
          model: 'qwen-base',
          dataset: 'synth',
        },
      ]),
    );
    put(
      dir,
      'rm/orm_good.jsonl',
      [0, 1, 2].map((id) => ({ id, s: [0.9, 0.1, 0.8, 0.2] })),
    );
    put(dir, 'rm/orm_bad.jsonl', bad);
    return dir;
  }
  const messages = async (dir: string) => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const out = index.diagnostics().map((d) => `${d.file}:${d.line}: ${d.message}`);
    index.close();
    return out;
  };

  test('a list of 3 scores for 4 samples (line 2) and one of 2 (line 3): one warning at line 2 counting 3 samples', async () => {
    const d = await messages(
      rmFolder([
        { id: 0, s: [0.1, 0.2, 0.3, 0.4] },
        { id: 1, s: [0.1, 0.2, 0.9] },
        { id: 2, s: [0.5, 0.6] },
      ]),
    );
    // problem 1 lacks sample 3, problem 2 samples 2 and 3: 3 samples in 2 problems; orm_good is complete
    assert.deepEqual(
      d.filter((m) => m.includes('while other samples')),
      [
        'rm/orm_bad.jsonl:2: 3 samples in 2 problems have no orm_bad score in this file while other samples of the problem do (a score list shorter than the samples?): those samples are in no best-of-k over orm_bad (first: line 2, problem "1", sample 3 of its 4)',
      ],
    );
  });

  test('siblings: a per-problem file that leaves out a whole problem is no short list; a complete file says nothing', async () => {
    const d = await messages(
      rmFolder([
        { id: 0, s: [0.1, 0.2, 0.3, 0.4] },
        { id: 2, s: [0.5, 0.6, 0.7, 0.8] },
      ]),
    );
    assert.deepEqual(
      d.filter((m) => m.includes('orm_')),
      [],
    );
  });

  test('a null score is named at its line with its sample, not at line 0', async () => {
    const d = await messages(
      rmFolder([
        { id: 0, s: [0.1, 0.2, 0.3, 0.4] },
        { id: 1, s: [0.1, 0.2, null, 0.4] },
        { id: 2, s: [null, 0.6, null, 0.8] },
      ]),
    );
    assert.ok(
      d.includes(
        'rm/orm_bad.jsonl:2: 3 samples have no orm_bad score in this file (null or missing; first at line 2, sample 2)',
      ),
      d.join('\n'),
    );
    assert.ok(!d.some((m) => m.startsWith('rm/orm_bad.jsonl:0:')), d.join('\n'));
  });
});

// Trial 4 finding 12.
describe('a model with no graded sample in a file gets one info, not one per problem', () => {
  test('the real Inspect log without scores: one info naming the model and its 10 problems', async () => {
    const root = '../shared/data/real/inspect-logs';
    const rel = 'tests/scorer/logs/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval';
    const index = TraceIndex.open(join(tempDir('trial4-unscored-'), 'i.db'));
    await indexFolder(index, root);
    const infos = index
      .diagnostics()
      .filter((d) => d.file === rel && /graded sample/.test(d.message))
      .map((d) => `${d.line}:${d.message}`);
    // said of the whole archive (line 0), not of line 1 of a zip (trial 12 finding 24)
    assert.deepEqual(infos, [
      '0:model openai/gpt-4o-mini has no graded sample in this file: none of its 10 problems ("1", "2", "3", ...; 10 samples) has a verdict: they count in "missing" of every figure of this model',
    ]);
    index.close();
  });

  test('a file where only some problems are ungraded still names each of them', async () => {
    const dir = tempDir('trial4-someungraded-');
    // problem 0 graded; problems 1 and 2 without any verdict (score null)
    put(dir, `m/${FILE}`, [
      qwen(0, [true, false]),
      { ...qwen(1, [true, true]), score: [null, null] },
      { ...qwen(2, [true]), score: [null] },
    ]);
    const index = TraceIndex.open(join(dir, 'i.db'));
    await indexFolder(index, dir);
    const infos = index
      .diagnostics()
      .filter((d) => /no graded sample/.test(d.message))
      .map((d) => `${d.line}:${d.message.slice(0, 40)}`);
    assert.deepEqual(infos, [
      '2:problem "1" of model m has no graded sam',
      '3:problem "2" of model m has no graded sam',
    ]);
    index.close();
  });
});
