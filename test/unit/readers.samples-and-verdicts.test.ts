// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * Reading samples and verdicts: per-sample mapping records, compressed files and archives, verdict strings, steps
 * against seeds in file names, path hints, scores that attach to no sample, the worked examples of docs/mapping.md,
 * repeated lines.
 *
 * Regressions of the fresh-user trial 5 (readers and indexing: findings 1, 2, 4, 6, 7, 8, 9, 11a/e/f/g).
 * Each folder is built here after /work/trial5-scratch, indexed into real SQLite; the right values are
 * worked out by hand in the comments.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { isSeedShard } from '../../src/core/index/writer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { mulberry32 } from '../../src/core/metrics/bootstrap';
import { flatModelName } from '../../src/core/readers/flat';
import { decimalString, fileStep, toCorrect } from '../../src/core/readers/util';
import { problemTextKey } from '../../src/core/text/strings';
import { tempDir } from './helpers';

function put(dir: string, rel: string, lines: unknown[]): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

function putMapping(dir: string, mapping: unknown, rel = 'trace-inspector.mapping.json'): void {
  mkdirSync(join(dir, ...rel.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, ...rel.split('/')), JSON.stringify(mapping));
}

/** The trial's sidx/ mapping: per-sample records, problem `pid`, sample index `sid`, verdict `ok`. */
const SIDX_MAPPING = {
  files: ['*.jsonl'],
  records: 'per-sample',
  fields: { problemId: 'pid', sampleIndex: 'sid', text: 'out', correct: 'ok' },
  model: 'rl',
};

const rec = (pid: number, sid: number, ok: boolean) => ({ pid, sid, out: `p${pid} s${sid}`, ok });

/** (problem id, sample index, verdict) of every indexed sample, sorted. */
function indexed(index: TraceIndex): string[] {
  return (
    index.db
      .prepare(
        `SELECT p.problem_id AS p, s.sample_index AS i, s.correct AS c FROM samples s JOIN problems p ON p.id = s.problem_id
         ORDER BY p.problem_id, s.sample_index`,
      )
      .all() as { p: string; i: number; c: number }[]
  ).map((r) => `${r.p}/${r.i}=${r.c}`);
}

const messages = (index: TraceIndex) =>
  index.diagnostics().map((d) => `${d.file}:${d.line}: ${d.severity}: ${d.message}`);

// Trial 5 finding 1.
describe('per-sample mapping records with fields.sampleIndex are all samples', () => {
  test('in order (the trial sidx/ folder): 2 problems x 3 samples, one correct each', async () => {
    const dir = tempDir('t5a-sidx-');
    putMapping(dir, SIDX_MAPPING);
    put(dir, 'rl.jsonl', [
      rec(0, 0, true),
      rec(0, 1, false),
      rec(0, 2, false),
      rec(1, 0, true),
      rec(1, 1, false),
      rec(1, 2, false),
    ]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.deepEqual(indexed(index), ['0/0=1', '0/1=0', '0/2=0', '1/0=1', '1/1=0', '1/2=0']);
    // per problem n = 3, c = 1: pass@1 = 1/3 each
    assert.deepEqual(
      index.allStats().map((s) => [s.n, s.c]),
      [
        [3, 1],
        [3, 1],
      ],
    );
    assert.deepEqual(
      messages(index).filter((m) => /duplicate/.test(m)),
      [],
    );
    index.close();
  });

  test('out of order and interleaved problems: each sample at its own index', async () => {
    const dir = tempDir('t5a-sidx-order-');
    putMapping(dir, SIDX_MAPPING);
    put(dir, 'rl.jsonl', [
      rec(1, 2, true),
      rec(0, 1, false),
      rec(1, 0, false),
      rec(0, 2, true),
      rec(0, 0, false),
      rec(1, 1, false),
    ]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.deepEqual(indexed(index), ['0/0=0', '0/1=0', '0/2=1', '1/0=0', '1/1=0', '1/2=1']);
    assert.deepEqual(
      messages(index).filter((m) => /duplicate|skipped/.test(m)),
      [],
    );
    index.close();
  });

  test('split across seed shards: the second shard numbered after the first; split parts keep their indices', async () => {
    const dir = tempDir('t5a-sidx-shards-');
    putMapping(dir, { ...SIDX_MAPPING, files: ['**/*.jsonl'] });
    // seed shards restart at 0: 2 + 2 samples of problem 0 -> indices 0, 1 and 2, 3
    put(dir, 'shards/rl_seed0.jsonl', [rec(0, 0, true), rec(0, 1, false)]);
    put(dir, 'shards/rl_seed1.jsonl', [rec(0, 1, true), rec(0, 0, false)]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, join(dir));
    // model rl (one run folder: shards): sample 0 of seed1 -> 2 + 0 = 2, sample 1 -> 3
    assert.deepEqual(indexed(index), ['0/0=1', '0/1=0', '0/2=0', '0/3=1']);
    assert.ok(messages(index).some((m) => /rl_seed1\.jsonl:0: info: records \(this file is a seed shard/.test(m)));
    index.close();

    // parts that are not seed shards but split the indices (0, 1 | 2): 3 samples at their indices
    const dir2 = tempDir('t5a-sidx-parts-');
    putMapping(dir2, SIDX_MAPPING);
    put(dir2, 'part-a.jsonl', [rec(0, 0, true), rec(0, 1, false)]);
    put(dir2, 'part-b.jsonl', [rec(0, 2, true)]);
    const index2 = TraceIndex.open(':memory:');
    await indexFolder(index2, dir2);
    assert.deepEqual(indexed(index2), ['0/0=1', '0/1=0', '0/2=1']);
    index2.close();
  });

  test('a repeated sample index: named as a duplicate sample index, not a duplicate problem id', async () => {
    const dir = tempDir('t5a-sidx-dup-');
    putMapping(dir, SIDX_MAPPING);
    put(dir, 'rl.jsonl', [rec(0, 0, true), rec(0, 1, false), rec(0, 1, true), rec(1, 0, false)]);
    put(dir, 'rl2.jsonl', [rec(1, 0, true), rec(1, 1, true)]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    // rl.jsonl line 3 repeats index 1 of problem 0 (the first kept); rl2.jsonl line 1 repeats index 0 of problem 1
    assert.deepEqual(indexed(index), ['0/0=1', '0/1=0', '1/0=0', '1/1=1']);
    const dups = messages(index).filter((m) => /duplicate/.test(m));
    assert.deepEqual(dups, [
      'rl.jsonl:3: warning: duplicate sample index 1 of problem "0" (first at line 2); skipped',
      'rl2.jsonl:1: warning: duplicate sample index 0 of problem "1" for model rl: already indexed from rl.jsonl; skipped',
    ]);
    index.close();
  });
});

// Trial 5 finding 1.
describe('conservation of per-sample mapping folders', () => {
  /**
   * Generated per-sample folders (seeded): problems with 1..4 samples in shuffled order, some records
   * repeated (same problem and sample index, so a duplicate), some with the sample index left out (the
   * indexer numbers those), split over one or two files. Law: records written = samples indexed +
   * samples named as skipped in the diagnostics (counting "and N more like this" summaries).
   */
  for (const seed of [1, 2, 3, 4, 5]) {
    test(`seed ${seed}`, async () => {
      const rnd = mulberry32(seed);
      const dir = tempDir(`t5a-conserve-${seed}-`);
      putMapping(dir, SIDX_MAPPING);
      const lines: Record<string, unknown>[] = [];
      let dupsWritten = 0;
      for (let p = 0; p < 30; p++) {
        const n = 1 + Math.floor(rnd() * 4);
        for (let i = 0; i < n; i++) {
          const r: Record<string, unknown> = rec(p, i, rnd() < 0.5);
          lines.push(r);
          if (rnd() < 0.15) {
            lines.push({ ...r, ok: !r.ok });
            dupsWritten++;
          }
        }
      }
      // shuffle (Fisher-Yates), then split in two files at a random point
      for (let i = lines.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
      const cut = Math.floor(rnd() * lines.length);
      put(dir, 'a.jsonl', lines.slice(0, cut));
      put(dir, 'b.jsonl', lines.slice(cut));
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      const samples = index.db.prepare('SELECT count(*) FROM samples').pluck().get() as number;
      let named = 0;
      for (const d of index.diagnostics()) {
        if (!/skipped$/.test(d.message)) continue;
        const more = /^and (\d+) more like this/.exec(d.message);
        named += more ? Number(more[1]) : 1;
      }
      assert.equal(samples + named, lines.length);
      assert.equal(named, dupsWritten);
      index.close();
    });
  }
});

// Trial 5 finding 2.
describe('compressed files and archives are never skipped silently', () => {
  const QWEN = { idx: 0, question: 'q0', gt: '1', code: ['\\boxed{1}'], score: [true], pred: ['1'] };
  const SUFFIXES: [string, string][] = [
    ['test_qwen.jsonl.gz', 'compressed (gzip): not read; decompress it: gunzip -k test_qwen.jsonl.gz'],
    ['res.json.gz', 'compressed (gzip): not read; decompress it: gunzip -k res.json.gz'],
    [
      'samples.jsonl_results.jsonl.gz',
      'compressed (gzip): not read; decompress it: gunzip -k samples.jsonl_results.jsonl.gz',
    ],
    ['log.eval.gz', 'compressed (gzip): not read; decompress it: gunzip -k log.eval.gz'],
    ['OUT.JSONL.GZ', 'compressed (gzip): not read; decompress it: gunzip -k OUT.JSONL.GZ'],
    ['a.jsonl.zst', 'compressed (zstd): not read; decompress it: unzstd a.jsonl.zst'],
    ['a.jsonl.bz2', 'compressed (bzip2): not read; decompress it: bunzip2 -k a.jsonl.bz2'],
    ['a.jsonl.xz', 'compressed (xz): not read; decompress it: unxz -k a.jsonl.xz'],
    ['run.tar', 'archive (tar): not read; extract it: tar -xf run.tar'],
    ['run.tar.gz', 'archive (tar, gzip): not read; extract it: tar -xzf run.tar.gz'],
    ['run.tgz', 'archive (tar, gzip): not read; extract it: tar -xzf run.tgz'],
    ['run.zip', 'archive (zip): not read; extract it: unzip run.zip'],
    ["it's here.jsonl.gz", "compressed (gzip): not read; decompress it: gunzip -k 'it'\\''s here.jsonl.gz'"],
  ];

  test('one info per compressed file or archive, the readable file beside it still read', async () => {
    const dir = tempDir('t5a-gz-');
    put(dir, 'step_100/test_qwen.jsonl', [QWEN]);
    // the bytes do not matter: the name says compressed (a real gzip of a results file here)
    const { gzipSync } = await import('node:zlib');
    for (const [name] of SUFFIXES) writeFileSync(join(dir, 'step_100', name), gzipSync(`${JSON.stringify(QWEN)}\n`));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get(), 1);
    const infos = index
      .diagnostics()
      .filter((d) => d.file !== 'step_100/test_qwen.jsonl')
      .map((d) => `${d.file}:${d.line}: ${d.severity}: ${d.message}`)
      .sort();
    const want = SUFFIXES.map(([name, msg]) => `step_100/${name}:0: info: ${msg}, then index the folder again`).sort();
    assert.deepEqual(infos, want);
    // a forced format does not read them either
    const forced = TraceIndex.open(':memory:');
    await indexFolder(forced, dir, { format: 'qwen-math' });
    assert.equal(forced.db.prepare('SELECT count(*) FROM samples').pluck().get(), 1);
    assert.equal(forced.diagnostics().filter((d) => /^compressed|^archive/.test(d.message)).length, SUFFIXES.length);
    forced.close();
    index.close();
  });

  test('the CLI shows the info in the table and in the JSON diagnostics', () => {
    const dir = tempDir('t5a-gz-cli-');
    put(dir, 'm/test_qwen.jsonl', [QWEN]);
    writeFileSync(join(dir, 'm', 'test_more.jsonl.gz'), 'not really gzip');
    const run = (...extra: string[]) =>
      execFileSync(
        process.execPath,
        [join(process.cwd(), 'dist', 'cli.js'), 'report', dir, '--db', join(tempDir('t5a-db-'), 'i.db'), ...extra],
        { encoding: 'utf8' },
      );
    const msg = 'compressed (gzip): not read; decompress it: gunzip -k test_more.jsonl.gz, then index the folder again';
    assert.ok(run('--replicates', '100').includes(`m/test_more.jsonl.gz: info: ${msg}`));
    const json = JSON.parse(run('--replicates', '100', '--format', 'json')) as {
      diagnostics: { file: string; severity: string; message: string }[];
    };
    assert.deepEqual(
      json.diagnostics.filter((d) => d.file === 'm/test_more.jsonl.gz').map((d) => [d.severity, d.message]),
      [['info', msg]],
    );
  });
});

// Trial 5 finding 4.
describe('verdict strings as str(float) writes them ("1.0", "0.0") are verdicts in every reader', () => {
  test('decimalString and toCorrect: the spellings of 1 and 0 are verdicts, other numbers are not', () => {
    const cases: [unknown, number | null, boolean | null][] = [
      ['1.0', 1, true],
      ['0.0', 0, false],
      ['1.', 1, true],
      ['0.00', 0, false],
      [' 1 ', 1, true],
      ['+1.000', 1, true],
      ['-0', -0, false],
      ['1e0', 1, true],
      ['True', null, true],
      ['FALSE', null, false],
      ['0.5', 0.5, null],
      ['.5', 0.5, null],
      ['2', 2, null],
      ['0x1', null, null],
      ['Infinity', null, null],
      ['', null, null],
      ['1/1', null, null],
      [1, null, true],
    ];
    for (const [v, n, c] of cases) {
      assert.equal(decimalString(v), n, `decimalString(${JSON.stringify(v)})`);
      assert.equal(toCorrect(v).value, c, `toCorrect(${JSON.stringify(v)})`);
    }
  });

  // seven spellings, as verdicts: 1 0 1 1 0 1 0 (4 correct of 7)
  const SPELT = ['1.0', '0.0', '1.', ' 1 ', '0.00', 'True', 'FALSE'];
  const WANT = [1, 0, 1, 1, 0, 1, 0];
  const verdictsOf = (index: TraceIndex) =>
    (
      index.db.prepare('SELECT correct FROM samples ORDER BY line, sample_index').pluck().all() as (number | null)[]
    ).map((x) => x);

  /** One folder per reader, the seven spellings as the correctness values of one problem's samples. */
  const folders: Record<string, (dir: string, values: unknown[]) => void> = {
    'qwen-math': (dir, values) =>
      put(dir, 'm/test_qwen.jsonl', [
        {
          idx: 0,
          question: 'q',
          gt: '1',
          code: values.map((_, i) => `t${i}`),
          pred: values.map(() => '1'),
          score: values,
        },
      ]),
    rollouts: (dir, values) =>
      put(dir, 'm/rollouts.jsonl', [
        {
          qid: 0,
          question: 'q',
          gold: '1',
          model_name: 'm',
          rollouts: values.map((v, i) => ({ rollout: i, text: `t${i}`, correct: v })),
        },
      ]),
    flat: (dir, values) =>
      put(
        dir,
        'm/samples.jsonl_results.jsonl',
        values.map((v, i) => ({ task_id: 'HumanEval/0', completion: `t${i}`, passed: v })),
      ),
    mapping: (dir, values) => {
      putMapping(dir, {
        files: ['*.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'pid', text: 'out', correct: 'ok' },
        model: 'm',
      });
      put(
        dir,
        'm.jsonl',
        values.map((v, i) => ({ pid: 0, out: `t${i}`, ok: v })),
      );
    },
  };

  for (const [reader, write] of Object.entries(folders)) {
    test(`${reader}: "1.0", "0.0", "1.", " 1 ", "0.00", "True", "FALSE" read as verdicts, one warning`, async () => {
      const dir = tempDir(`t5a-spelt-${reader}-`);
      write(dir, SPELT);
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      assert.deepEqual(verdictsOf(index), WANT);
      const d = index.diagnostics();
      assert.equal(
        d.filter((x) => / values are strings; read as verdicts \("1.0" here as correct;/.test(x.message)).length,
        1,
      );
      assert.deepEqual(
        d.filter((x) => x.severity !== 'info' && !/values are strings/.test(x.message)).map((x) => x.message),
        [],
      );
      index.close();
    });

    test(`${reader}: "0.5" among them is partial credit, graded not correct; the 0/1 values stay verdicts`, async () => {
      const dir = tempDir(`t5a-half-${reader}-`);
      write(dir, ['1.0', '0.5', '0.0', '1.00']);
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      // trial 12 finding 6: a number strictly between 0 and 1 among 0/1 verdicts is partial credit, counted not
      // correct (pass requires full credit), never left out of n (it was ungraded, with every 0/1 of the file)
      assert.deepEqual(verdictsOf(index), [1, 0, 0, 1]);
      assert.ok(
        index
          .diagnostics()
          .some((x) =>
            /1 sample with partial credit .*e\.g\. "?0\.5"? here\): partial credit counted as not correct/.test(
              x.message,
            ),
          ),
      );
      index.close();
      // with a threshold they are verdicts again: >= 0.5 correct
      const t = TraceIndex.open(':memory:');
      await indexFolder(t, dir, { readerOptions: { correctThreshold: 0.5 } });
      assert.deepEqual(verdictsOf(t), [1, 1, 0, 1]);
      t.close();
    });
  }
});

/** (model label, problem, n, c) of every stat row, sorted. */
function statsByModel(index: TraceIndex): string[] {
  return (
    index.db
      .prepare(
        `SELECT m.name || coalesce('@' || m.revision, '') AS model, p.problem_id AS p, s.n, s.c FROM stats s
         JOIN models m ON m.id = s.model_id JOIN problems p ON p.id = s.problem_id ORDER BY model, p.problem_id`,
      )
      .all() as { model: string; p: string; n: number; c: number }[]
  ).map((r) => `${r.model} ${r.p} ${r.n}/${r.c}`);
}

// Trial 5 finding 6.
describe('files of one model named by training steps are checkpoints, not seed shards', () => {
  const verlLine = (p: number, ok: boolean) => ({
    input: `Problem ${p}`,
    output: `w ${ok}`,
    gts: '0',
    score: ok ? 1.0 : 0.0,
  });
  const MAP = {
    files: ['**/*.jsonl'],
    records: 'per-sample',
    model: 'grpo',
    fields: { question: 'input', text: 'output', referenceAnswer: 'gts', correct: 'score' },
  };
  const NAMES: [string, string, string][] = [
    ['0.jsonl', '100.jsonl', 'step-'],
    ['global_step_100.jsonl', 'global_step_200.jsonl', 'step-'],
    ['step-100.jsonl', 'step-200.jsonl', 'step-'],
    ['val_step100.jsonl', 'val_step200.jsonl', 'step-'],
    ['checkpoint_500.jsonl', 'checkpoint_1000.jsonl', 'step-'],
  ];
  for (const [a, b] of NAMES) {
    test(`mapping naming one model: ${a} and ${b} are two checkpoints`, async () => {
      const dir = tempDir('t5a-verl-');
      putMapping(dir, MAP);
      // step a: problem 0 has 1 of 2 correct; step b: 2 of 2
      put(dir, `val_generations/${a}`, [verlLine(0, true), verlLine(0, false)]);
      put(dir, `val_generations/${b}`, [verlLine(0, true), verlLine(0, true)]);
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      const [sa, sb] = [a, b].map((f) => fileStep(f));
      assert.notEqual(sa, null);
      assert.notEqual(sa, sb);
      const key = problemTextKey('Problem 0');
      assert.deepEqual(statsByModel(index), [`grpo@${sa} ${key} 2/1`, `grpo@${sb} ${key} 2/2`].sort());
      assert.deepEqual(
        index.diagnostics().filter((d) => /seed shard/.test(d.message)),
        [],
      );
      index.close();
    });
  }

  test('the model named by the data: merged as before, but a warning names the steps', async () => {
    const dir = tempDir('t5a-verl-data-');
    putMapping(dir, { ...MAP, model: undefined, fields: { ...MAP.fields, model: 'who' } });
    put(dir, 'val_generations/0.jsonl', [{ ...verlLine(0, true), who: 'grpo' }]);
    put(dir, 'val_generations/100.jsonl', [{ ...verlLine(0, false), who: 'grpo' }]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.deepEqual(statsByModel(index), [`grpo ${problemTextKey('Problem 0')} 2/1`]);
    const w = index.diagnostics().filter((d) => d.severity === 'warning');
    assert.equal(w.length, 1);
    assert.equal(w[0].file, 'val_generations/100.jsonl');
    assert.match(
      w[0].message,
      /val_generations\/0\.jsonl hold samples of the same model .* different training steps \(step-100, step-0\): checkpoints, not seed shards/,
    );
    index.close();
  });

  test('isSeedShard: step numbers are not seeds; seeds are', () => {
    assert.equal(isSeedShard('v/0.jsonl', 'v/100.jsonl'), false);
    assert.equal(isSeedShard('v/global_step_100.jsonl', 'v/global_step_200.jsonl'), false);
    assert.equal(isSeedShard('v/step-100.jsonl', 'v/step-200.jsonl'), false);
    assert.equal(isSeedShard('v/samples_seed0.jsonl_results.jsonl', 'v/samples_seed1.jsonl_results.jsonl'), true);
    assert.equal(isSeedShard('v/test_qwen_seed0_t1.0.jsonl', 'v/test_qwen_seed1_t1.0.jsonl'), true);
  });
});

// Trial 5 finding 7.
describe('HumanEval seed shards in one model folder are one model', () => {
  const he = (task: number, passed: boolean) => ({ task_id: `HumanEval/${task}`, completion: `c${passed}`, passed });
  const PAIRS: [string, string][] = [
    ['samples_seed0.jsonl_results.jsonl', 'samples_seed1.jsonl_results.jsonl'],
    ['samples_seed_0.jsonl_results.jsonl', 'samples_seed_1.jsonl_results.jsonl'],
    ['samples-seed0_results.jsonl', 'samples-seed1_results.jsonl'],
    ['samples.Seed0.jsonl', 'samples.Seed1.jsonl'],
  ];
  for (const [a, b] of PAIRS) {
    // the generic stem `samples` names the model after its folder (trial 6 finding 1)
    test(`${a} + ${b}: model "codellama", n = 2 + 2`, async () => {
      const dir = tempDir('t5a-flatseeds-');
      put(dir, `codellama/${a}`, [he(0, true), he(0, false), he(1, false), he(1, false)]);
      put(dir, `codellama/${b}`, [he(0, true), he(0, true), he(1, true), he(1, false)]);
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      // problem 0: T F + T T = 4/3; problem 1: F F + T F = 4/1
      assert.deepEqual(statsByModel(index), ['codellama HumanEval/0 4/3', 'codellama HumanEval/1 4/1']);
      assert.equal(index.models().length, 1);
      index.close();
    });
  }
  test('flatModelName keeps a name that is only a seed at the root (else its folder), and other numbers', () => {
    assert.equal(flatModelName('seed1.jsonl'), 'seed1');
    // a stem that is only a seed names no model: its folder does (trial 6 finding 2)
    assert.equal(flatModelName('x/seed1.jsonl'), 'x');
    assert.equal(flatModelName('x/codegen-6b_results.jsonl'), 'codegen-6b');
    assert.equal(flatModelName('x/run_seed12.jsonl_results.jsonl'), 'run');
  });
});

// Trial 5 finding 9.
describe('a path with [*] but no "$" hints at its $-form', () => {
  const doc = (id: number) => ({ doc_id: id, doc: { question: `q${id}` }, target: '1', resps: [['a'], ['b']] });
  const CASES: [string, string | null][] = [
    ['resps[*][0]', '$.resps[*][0]'],
    ['[resps][*]', null], // not a path that matches in its $-form either: no hint
    ['resps[0][0]', '$.resps[0][0]'],
  ];
  for (const [path, want] of CASES) {
    test(`fields.text '${path}'`, async () => {
      const dir = tempDir('t5a-dollar-');
      putMapping(dir, {
        files: ['*.jsonl'],
        records: 'per-problem',
        model: 'm',
        fields: { problemId: 'doc_id', question: 'doc.question', text: path },
      });
      put(dir, 'samples_gsm8k.jsonl', [doc(0), doc(1)]);
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      const miss = index
        .diagnostics()
        .filter((d) => d.file === 'trace-inspector.mapping.json' && /matched nothing/.test(d.message));
      assert.equal(miss.length, 1);
      assert.equal(miss[0].message.includes(`did you mean "${want}"?`), want !== null, miss[0].message);
      index.close();
    });
  }
});

// Trial 5 finding 8.
describe('scores that attach to no sample say what they looked for and what is indexed', () => {
  test('scores for model "policy", samples of model "rmfile" in dataset "policy"', async () => {
    const dir = tempDir('t5a-rm-');
    putMapping(dir, [
      {
        files: ['gen/*.jsonl'],
        records: 'per-problem',
        model: 'rmfile',
        dataset: 'policy',
        fields: { problemId: 'idx', text: 'outs', correct: 'ok' },
      },
      {
        files: ['rm/*.jsonl'],
        records: 'per-problem',
        model: 'policy',
        dataset: 'policy',
        fields: { problemId: 'idx' },
        scores: [{ path: 's', scorerFromFile: '(.+)\\.jsonl' }],
      },
    ]);
    put(dir, 'gen/g.jsonl', [
      { idx: 0, outs: ['a', 'b'], ok: [true, false] },
      { idx: 1, outs: ['c', 'd'], ok: [false, false] },
    ]);
    put(dir, 'rm/orm-7b.jsonl', [
      { idx: 0, s: [0.9, 0.1] },
      { idx: 1, s: [0.2, 0.3] },
    ]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const w = index.diagnostics().filter((d) => /attach to no sample/.test(d.message));
    assert.equal(w.length, 1);
    // 4 scores (2 problems x 2 samples), none attaches: model "policy" has no samples; the message names
    // the keys looked for and the one that found nothing (trial 6 finding 7)
    assert.equal(
      w[0].message,
      '4 orm-7b scores of this file attach to no sample: looked for dataset "policy", problem "0", sample index 0, model "policy": problem "0" has samples of model "rmfile", none of model "policy"; name the samples\' model for the scores (mapping "model" or fields.model); left out of every figure (first: line 1, problem "0", sample 0)',
    );
    index.close();
  });
});

/** The JSON block of docs/mapping.md after `<!-- example: name -->`. */
function docExample(name: string): unknown {
  const doc = readFileSync(join(process.cwd(), 'docs', 'mapping.md'), 'utf8');
  const at = doc.indexOf(`<!-- example: ${name} -->`);
  assert.ok(at >= 0, `docs/mapping.md has the ${name} example`);
  const m = /```json\n([\s\S]*?)```/.exec(doc.slice(at));
  return JSON.parse(m![1]);
}

// Trial 5 finding 11e/f.
describe('the worked examples of docs/mapping.md index as written', () => {
  const lmDoc = (id: number, answers: string[], target: string) => ({
    doc_id: id,
    doc: { question: `Q${id}`, problem: `P${id}` },
    target,
    resps: answers.map((a) => [`... so the answer is ${a}.`]),
    filtered_resps: answers,
    filter: 'strict-match',
    exact_match: answers.filter((a) => a === target).length / answers.length,
  });

  test('lm-evaluation-harness: one doc per line, 4 repeats each; a dated re-run: one summary warning', async () => {
    const dir = tempDir('t5a-lmeval-');
    const m = 'my-org__qwen-grpo-step500';
    putMapping(dir, docExample('lm-eval'), `${m}/trace-inspector.mapping.json`);
    const gsm = [
      lmDoc(0, ['1', '2', '1', '2'], '1'),
      lmDoc(1, ['2', '2', '2', '3'], '2'),
      lmDoc(2, ['5', '5', '5', '5'], '4'),
    ];
    put(dir, `${m}/samples_gsm8k_2025-03-01T10-00-00.123456.jsonl`, gsm);
    put(dir, `${m}/samples_gsm8k_2025-03-02T11-30-00.654321.jsonl`, gsm);
    put(dir, `${m}/samples_minerva_math_2025-03-01T10-00-00.123456.jsonl`, [lmDoc(0, ['x', 'y'], 'x')]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    // 3 gsm8k docs x 4 + 1 minerva doc x 2 = 14 samples, ungraded (exact_match is a mean, not mapped)
    const rows = index.db
      .prepare(
        `SELECT p.dataset AS d, p.problem_id AS p, p.question AS q, count(*) AS n, group_concat(s.extracted_answer, '') AS a,
                sum(s.correct IS NOT NULL) AS graded
           FROM samples s JOIN problems p ON p.id = s.problem_id GROUP BY p.id ORDER BY p.dataset, p.problem_id`,
      )
      .all();
    assert.deepEqual(rows, [
      { d: 'gsm8k', p: '0', q: 'Q0', n: 4, a: '1212', graded: 0 },
      { d: 'gsm8k', p: '1', q: 'Q1', n: 4, a: '2223', graded: 0 },
      { d: 'gsm8k', p: '2', q: 'Q2', n: 4, a: '5555', graded: 0 },
      { d: 'minerva_math', p: '0', q: 'P0', n: 2, a: 'xy', graded: 0 },
    ]);
    assert.deepEqual(
      index.models().map((x) => x.name),
      ['qwen-grpo-step500'],
    );
    // the re-run: 3 per-line warnings and one for the file naming the kept one
    const rerun = index.diagnostics().filter((d) => d.file.includes('2025-03-02') && d.severity === 'warning');
    assert.equal(rerun.filter((d) => /already indexed from .*; skipped$/.test(d.message)).length, 3);
    const summary = rerun.filter((d) => d.line === 0);
    assert.equal(summary.length, 1);
    assert.match(
      summary[0].message,
      /^3 problems of this file are already indexed for the same model from my-org__qwen-grpo-step500\/samples_gsm8k_2025-03-01T10-00-00\.123456\.jsonl \(a re-run or a copy\?\)/,
    );
    index.close();
  });

  test('verl: val_generations/<step>.jsonl, one model named: one revision per step', async () => {
    const dir = tempDir('t5a-verl-doc-');
    putMapping(dir, docExample('verl'));
    const line = (p: number, ok: number) => ({ input: `Problem ${p}`, output: `w${ok}`, gts: '0', score: ok, step: 0 });
    put(dir, 'qwen2.5-7b-grpo/val_generations/0.jsonl', [line(0, 1), line(0, 0), line(1, 0), line(1, 0)]);
    put(dir, 'qwen2.5-7b-grpo/val_generations/100.jsonl', [line(0, 1), line(0, 1), line(1, 1), line(1, 0)]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const [k0, k1] = [problemTextKey('Problem 0'), problemTextKey('Problem 1')];
    assert.deepEqual(
      statsByModel(index),
      [
        `qwen2.5-7b-grpo@step-0 ${k0} 2/1`,
        `qwen2.5-7b-grpo@step-0 ${k1} 2/0`,
        `qwen2.5-7b-grpo@step-100 ${k0} 2/2`,
        `qwen2.5-7b-grpo@step-100 ${k1} 2/1`,
      ].sort(),
    );
    index.close();
  });

  test('OpenRLHF: rollouts.jsonl per global_step folder, reward >= 1 correct, the reward kept', async () => {
    const dir = tempDir('t5a-orl-doc-');
    putMapping(dir, docExample('openrlhf'));
    const r = (p: number, reward: number) => ({ prompt: `Solve ${p}`, output: `a${reward}`, label: String(p), reward });
    put(dir, 'global_step100/rollouts.jsonl', [r(0, 1.0), r(0, -0.5), r(0, 0.2), r(0, 1.0)]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    // rewards 1, -0.5, 0.2, 1: correct T F F T -> 4/2
    assert.deepEqual(statsByModel(index), [`qwen-ppo ${problemTextKey('Solve 0')} 4/2`]);
    assert.deepEqual(
      index.db.prepare('SELECT reward_score FROM samples ORDER BY sample_index').pluck().all(),
      [1, -0.5, 0.2, 1],
    );
    index.close();
  });
});

// Trial 5 finding 11a.
describe('a per-sample line repeated exactly is kept and counted in one info', () => {
  const he = (task: number, c: string, passed: boolean) => ({ task_id: `HumanEval/${task}`, completion: c, passed });
  test('flat HumanEval: line 3 repeats line 2; same text with another verdict is no repeat', async () => {
    const dir = tempDir('t5a-repeat-');
    put(dir, 'codegen-base/samples.jsonl_results.jsonl', [
      he(0, 'a', true),
      he(0, 'b', false),
      he(0, 'b', false), // the repeat
      he(0, 'b', true), // same text, another verdict: not a repeat
      he(1, 'b', false), // same as the line before it, but another problem
    ]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    // all 5 kept: problem 0 n = 4 (2 correct), problem 1 n = 1
    assert.deepEqual(statsByModel(index), ['codegen-base HumanEval/0 4/2', 'codegen-base HumanEval/1 1/0']);
    assert.deepEqual(
      index.diagnostics().map((d) => `${d.line}: ${d.severity}: ${d.message}`),
      [
        '3: info: 1 sample of this file repeats the sample before it of the same problem exactly (same text and verdict; first at line 3, problem "HumanEval/0"): kept as samples of their own (identical samples are common when sampling, short code completions above all: they count as separate samples, as they should; only a line pasted twice by mistake would need removing)',
      ],
    );
    index.close();
  });

  test('mapping per-sample records: two repeats counted in one info', async () => {
    const dir = tempDir('t5a-repeat-map-');
    putMapping(dir, { ...SIDX_MAPPING, fields: { problemId: 'pid', text: 'out', correct: 'ok' } });
    put(dir, 'rl.jsonl', [rec(0, 0, true), rec(0, 0, true), rec(1, 0, false), rec(1, 0, false)]);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get(), 4);
    const info = index.diagnostics().filter((d) => /repeat/.test(d.message));
    assert.equal(info.length, 1);
    assert.match(info[0].message, /^2 samples of this file repeat the sample before it .*first at line 2, problem "0"/);
    index.close();
  });
});
