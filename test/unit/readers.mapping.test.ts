// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * The mapping file on the shapes evaluation repositories publish (docs/mapping.md has one worked example
 * per shape, the same files as test/fixtures/readers/mapping/), on real folders re-described by a
 * mapping, and a wrong mapping explaining itself. Counts and pass@k are computed by hand in the tests.
 * Run with cwd = the repository root.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { jsonpath } from 'json-p3';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { Diagnostic, ProblemRecord } from '../../src/core/model';
import { makeContext, readFile } from '../../src/core/readers/index';
import { validateMapping } from '../../src/core/readers/mapping';
import { compilePath, dottedToJsonPath, first, listOf } from '../../src/core/readers/mappingPath';
import { buildReport } from '../../src/core/report/index';
import { REAL, tempDir } from './helpers';
import { runCli } from './reliability.support';

const FIX = path.resolve(process.cwd(), 'test/fixtures/readers/mapping');

async function collect(root: string, rel: string) {
  const records: ProblemRecord[] = [];
  const diags: Diagnostic[] = [];
  for await (const ev of readFile(makeContext(root, rel))) {
    if (ev.kind === 'problem') records.push(ev.record);
    else if (ev.kind === 'diagnostic') diags.push(ev.diagnostic);
  }
  return { records, diags, msgs: diags.map((d) => `${d.file}:${d.line}:${d.severity}:${d.message}`) };
}

/** (problem id, n, c) per record. */
const counts = (rs: ProblemRecord[]) =>
  rs.map((r) => [r.problemId, r.samples.length, r.samples.filter((s) => s.correct === true).length]);

/** Unbiased pass@k of one problem, 1 - C(n-c, k)/C(n, k), by direct binomials (small n only). */
function passAtK(n: number, c: number, k: number): number {
  const choose = (a: number, b: number): number => {
    if (b < 0 || b > a) return 0;
    let r = 1;
    for (let i = 1; i <= b; i++) r = (r * (a - b + i)) / i;
    return r;
  };
  return 1 - choose(n - c, k) / choose(n, k);
}

/** Indexes `root` into a fresh in-memory index and returns the report's only model and the diagnostics. */
async function reportOf(root: string) {
  const index = TraceIndex.open(':memory:');
  const summary = await indexFolder(index, root, { fts: false });
  const report = buildReport(index, { replicates: 200 });
  index.close();
  return { summary, report, model: report.models[0] };
}

function assertPassAtK(
  model: { passAtK: { k: number; value: number | null; problems: number; missing: number }[] },
  nc: [number, number][],
  ks: number[],
) {
  for (const k of ks) {
    const p = model.passAtK.find((x) => x.k === k);
    assert.ok(p, `pass@${k} present`);
    const eligible = nc.filter(([n]) => n >= k);
    const expected = eligible.reduce((a, [n, c]) => a + passAtK(n, c, k), 0) / eligible.length;
    assert.ok(Math.abs(p.value! - expected) < 1e-12, `pass@${k}: ${p.value} vs ${expected}`);
    assert.equal(p.problems, eligible.length);
    assert.equal(p.missing, nc.length - eligible.length);
  }
}

describe('mapping shapes (docs/mapping.md worked examples)', () => {
  test('1+2+3: HumanEval results keyed by task id, [code, result] pairs, correct when result is "passed"', async () => {
    const c = await collect(path.join(FIX, 'humaneval-keyed'), 'codegen-2b_results.json');
    assert.deepEqual(c.msgs, []);
    // by hand from the fixture: HumanEval/0 one "passed" of 3; /1 none of 2 ("timed out" is incorrect); /2 two of 4
    assert.deepEqual(counts(c.records), [
      ['HumanEval/0', 3, 1],
      ['HumanEval/1', 2, 0],
      ['HumanEval/2', 4, 2],
    ]);
    const r0 = c.records[0];
    assert.equal(r0.dataset, 'humaneval');
    assert.deepEqual(r0.model, { name: 'codegen-2b_results', revision: null, source: 'path' });
    assert.equal(r0.samples[1].text, '    for i in range(len(numbers)):\n        ...\n');
    assert.deepEqual(
      r0.samples.map((s) => [s.sampleIndex, s.correct]),
      [
        [0, false],
        [1, true],
        [2, false],
      ],
    );
    const { model, summary } = await reportOf(path.join(FIX, 'humaneval-keyed'));
    assert.deepEqual(summary.diagnostics, []);
    assert.deepEqual([model.problems, model.samples, model.correct], [3, 9, 3]);
    assert.ok(Math.abs(model.passAtK[0].value! - (1 / 3 + 0 + 2 / 4) / 3) < 1e-12);
    // pass@2 by hand: 1 - C(2,2)/C(3,2) = 2/3; 0; 1 - C(2,2)/C(4,2) = 5/6 -> mean 1/2
    assert.ok(Math.abs(model.passAtK.find((p) => p.k === 2)!.value! - 0.5) < 1e-12);
    assertPassAtK(
      model,
      [
        [3, 1],
        [2, 0],
        [4, 2],
      ],
      [1, 2, 4],
    );
  });

  test('sibling: a keyed object whose values are objects; correctPattern on numbers written as strings', async () => {
    const c = await collect(path.join(FIX, 'keyed-objects'), 'run.json');
    assert.deepEqual(c.msgs, []);
    // "1.0", "1", "1.00" match 1(\.0+)? as a whole; "0.0", "0" and "10" do not
    assert.deepEqual(counts(c.records), [
      ['0', 3, 2],
      ['1', 2, 1],
      ['2', 3, 0],
    ]);
    assert.deepEqual(
      c.records.map((r) => [r.question, r.referenceAnswer, r.model.name]),
      [
        ['1+1?', '2', 'my-model'],
        ['2+2?', '4', 'my-model'],
        ['3+3?', '6', 'my-model'],
      ],
    );
    assert.deepEqual(
      c.records[0].samples.map((s) => s.extractedAnswer),
      ['2', '3', '2'],
    );
    const { model } = await reportOf(path.join(FIX, 'keyed-objects'));
    assertPassAtK(
      model,
      [
        [3, 2],
        [2, 1],
        [3, 0],
      ],
      [1, 2],
    );
  });

  test('a list of problems with graded_list (LiveCodeBench): parallel lists, level from difficulty', async () => {
    const root = path.join(FIX, 'livecodebench');
    const c = await collect(root, 'Scenario.codegeneration_4_0.2_eval_all.json');
    assert.deepEqual(c.msgs, []);
    assert.deepEqual(counts(c.records), [
      ['abc301_a', 4, 2],
      ['2848', 4, 0],
      ['1873_h', 4, 1],
    ]);
    assert.deepEqual(
      c.records.map((r) => [r.level, r.question, r.dataset, r.model.name]),
      [
        ['easy', 'Print 1.', 'livecodebench', 'deepseek-coder-6.7b'],
        ['medium', 'Sort.', 'livecodebench', 'deepseek-coder-6.7b'],
        ['hard', 'Graph.', 'livecodebench', 'deepseek-coder-6.7b'],
      ],
    );
    const { model, report } = await reportOf(root);
    // by hand: pass@1 = (2/4 + 0 + 1/4)/3 = 1/4; pass@2 = (5/6 + 0 + 1/2)/3 = 4/9; pass@4 = (1 + 0 + 1)/3
    assert.ok(Math.abs(model.passAtK[0].value! - 0.25) < 1e-12);
    assert.ok(Math.abs(model.passAtK.find((p) => p.k === 2)!.value! - 4 / 9) < 1e-12);
    assert.ok(Math.abs(model.passAtK.find((p) => p.k === 4)!.value! - 2 / 3) < 1e-12);
    // the file's own pass@1 field agrees with what the samples give
    const doc = JSON.parse(readFileSync(path.join(root, 'Scenario.codegeneration_4_0.2_eval_all.json'), 'utf8')) as {
      'pass@1': number;
    }[];
    assert.ok(Math.abs(doc.reduce((a, p) => a + p['pass@1'], 0) / doc.length - 0.25) < 1e-12);
    assert.deepEqual(report.strata.map((s) => [s.level, s.problems]).sort(), [
      ['easy', 1],
      ['hard', 1],
      ['medium', 1],
    ]);
  });

  test('Tree-of-Thought ys + infos[].r: a field plucked from every element, with a threshold', async () => {
    const root = path.join(FIX, 'tot-crosswords');
    const c = await collect(root, 'crosswords.json');
    assert.deepEqual(c.msgs, []);
    // r >= 1 is correct: [1, .6, .4, 1] -> 2; [.2, .4, 0, .8] -> 0; [1, 1, 1, .9] -> 3; [.5, .5] -> 0
    assert.deepEqual(counts(c.records), [
      ['0', 4, 2],
      ['5', 4, 0],
      ['10', 4, 3],
      ['15', 2, 0],
    ]);
    assert.deepEqual(
      c.records[0].samples.map((s) => s.rewardScore),
      [1, 0.6, 0.4, 1],
    );
    const { model } = await reportOf(root);
    assertPassAtK(
      model,
      [
        [4, 2],
        [4, 0],
        [4, 3],
        [2, 0],
      ],
      [1, 2, 4],
    );
    assert.equal(model.passAtK.find((p) => p.k === 4)!.missing, 1);
  });

  test('several parallel lists: each read at the same position; a shorter one leaves its values missing, with a warning', async () => {
    const c = await collect(path.join(FIX, 'parallel-several'), 'gen.jsonl');
    assert.deepEqual(c.msgs, [
      'gen.jsonl:2:warning:outs has 2 samples but rm has 1; samples from 1 on have no rewardScore',
    ]);
    assert.deepEqual(
      c.records.map((r) =>
        r.samples.map((s) => [s.text, s.correct, s.rewardScore, s.extractedAnswer, s.tokenCount, s.sampleIndex]),
      ),
      [
        [
          ['a', true, 0.9, '1', 10, 0],
          ['b', false, 0.1, '2', 20, 1],
          ['c', true, 0.8, '1', 30, 2],
        ],
        [
          ['d', false, 0.3, '4', 5, 0],
          ['e', false, null, '5', 6, 1],
        ],
      ],
    );
  });

  test('the JSON examples of docs/mapping.md are valid mappings, and the worked examples are the fixtures', () => {
    const md = readFileSync(path.resolve(process.cwd(), 'docs/mapping.md'), 'utf8');
    const blocks = [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
    const mappings = blocks.map((b) => JSON.parse(b) as unknown).filter((v) => JSON.stringify(v).includes('"files"'));
    assert.ok(mappings.length >= 5, `${mappings.length} mappings in docs/mapping.md`);
    for (const m of mappings) assert.ok('mappings' in validateMapping(m), JSON.stringify(validateMapping(m)));
    for (const dir of ['humaneval-keyed', 'livecodebench', 'tot-crosswords']) {
      const fixture = JSON.parse(readFileSync(path.join(FIX, dir, 'trace-inspector.mapping.json'), 'utf8')) as unknown;
      assert.ok(
        mappings.some((m) => JSON.stringify(m) === JSON.stringify(fixture)),
        `docs/mapping.md shows the mapping of ${dir}`,
      );
    }
  });
});

describe('mapping paths', () => {
  test('dotted paths are JSONPath: same values, numeric segments index lists or name members', () => {
    assert.equal(dottedToJsonPath('a.b.0.c'), "$['a']['b'][0,'0']['c']");
    assert.equal(dottedToJsonPath('h.-1'), "$['h'][-1,'-1']");
    const doc = { a: { b: [{ c: 1 }, { c: 2 }], '0': 'zero' }, h: ['x', 'y'], "it's": { 'a b': 3 } };
    assert.equal(first(compilePath('a.b.0.c'), doc), 1);
    assert.equal(first(compilePath('a.b.-1.c'), doc), 2);
    assert.equal(first(compilePath('a.0'), doc), 'zero');
    assert.equal(first(compilePath('h.-1'), doc), 'y');
    assert.equal(first(compilePath("it's.a b"), doc), 3);
    assert.equal(first(compilePath('a.x'), doc), undefined);
    assert.equal(first(compilePath('a.b.c'), doc), undefined, 'a dotted name on a list does not pluck (as before)');
    assert.equal(first(compilePath("$['it\\'s']['a b']"), doc), 3);
  });

  test('singular paths are evaluated as json-p3 evaluates them; dotted paths as the dotted evaluator of earlier versions did', () => {
    /** The dotted-path evaluator of earlier versions (main before JSONPath), the oracle for dotted paths. */
    const legacyGetPath = (v: unknown, dotted: string): unknown => {
      let cur: unknown = v;
      for (const seg of dotted.split('.')) {
        if (Array.isArray(cur)) {
          if (!/^-?\d+$/.test(seg)) return undefined;
          const i = Number(seg);
          cur = cur[i < 0 ? cur.length + i : i];
        } else if (cur !== null && typeof cur === 'object') {
          cur = Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
        } else {
          return undefined;
        }
        if (cur === undefined) return undefined;
      }
      return cur;
    };
    const key = fc.constantFrom('a', 'b', '0', '1', '-1', 'x y', "it's");
    const doc = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null)),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    const seg = fc.oneof(key, fc.integer({ min: -3, max: 3 }).map(String));
    fc.assert(
      fc.property(doc, fc.array(seg, { minLength: 1, maxLength: 4 }), (d, segs) => {
        const dotted = segs.join('.');
        if (dotted.startsWith('$') || dotted.startsWith('.') || dotted.endsWith('.')) return;
        const p = compilePath(dotted);
        assert.deepEqual(first(p, d), legacyGetPath(d, dotted), dotted);
        // the same path in RFC 9535 bracket notation, through the library and through the fast path
        const rfc = `$${segs.map((x) => (/^-?\d+$/.test(x) ? `[${x}]` : `['${x.replace(/'/g, "\\'")}']`)).join('')}`;
        const viaLibrary = jsonpath.query(rfc, d as never).values();
        assert.deepEqual(first(compilePath(rfc), d), viaLibrary[0], rfc);
        assert.ok(viaLibrary.length <= 1);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  test('listOf: a singular path names a list; P[*]S keeps positions; other non-singular paths give their matches', () => {
    const rec = {
      ys: ['a', 'b', 'c'],
      infos: [{ r: 1 }, {}, { r: 0 }],
      runs: [
        { ok: true, t: 'x' },
        { ok: false, t: 'y' },
      ],
    };
    assert.deepEqual(listOf(compilePath('ys'), rec), { kind: 'list', list: ['a', 'b', 'c'] });
    assert.deepEqual(listOf(compilePath('$.infos[*].r'), rec), { kind: 'list', list: [1, undefined, 0] });
    assert.deepEqual(listOf(compilePath('$.runs[?@.ok == true].t'), rec), { kind: 'list', list: ['x'] });
    assert.deepEqual(listOf(compilePath('$.nope[*].r'), rec), { kind: 'missing' });
    assert.deepEqual(listOf(compilePath('$.ys[0]'), rec), { kind: 'not-list', value: 'a' });
  });

  test('validation names the field: bad JSONPath, misplaced @key, bad regex, two correctness rules', () => {
    const base = { files: ['*.json'], records: 'per-problem', fields: { problemId: 'id', text: 'ys' } };
    const errs = (m: object) => {
      const v = validateMapping(m);
      return 'errors' in v ? v.errors : [];
    };
    assert.match(errs({ ...base, fields: { problemId: 'id', text: '$.ys[' } })[0], /^\/fields\/text: not a JSONPath/);
    assert.match(errs({ ...base, fields: { problemId: '@key', text: 'ys' } })[0], /^\/fields\/problemId: @key is only/);
    assert.match(
      errs({ ...base, recordsPath: '$.*', fields: { problemId: 'id', text: '@key' } })[0],
      /^\/fields\/text: @key is only/,
    );
    assert.deepEqual(errs({ ...base, recordsPath: '$.*', fields: { problemId: '@key', text: 'ys' } }), []);
    assert.match(errs({ ...base, correctPattern: '(' })[0], /^\/correctPattern: not a regular expression/);
    assert.match(
      errs({ ...base, correctValues: ['ok'], correctThreshold: 1 })[0],
      /^\/correctThreshold: cannot be combined/,
    );
    assert.match(errs({ ...base, correctValues: [] })[0], /^\/correctValues: must NOT have fewer than 1 items/);
  });
});

/** A results folder in a temporary directory: files by relative path. */
function folder(files: Record<string, string>): string {
  const dir = tempDir('ti-mapping-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('a wrong mapping explains itself', () => {
  const crosswords = readFileSync(path.join(FIX, 'tot-crosswords', 'crosswords.json'), 'utf8');
  const mapping = (correct: string, text = 'ys') =>
    `{\n  "files": ["*.json"],\n  "records": "per-problem",\n  "fields": {\n    "problemId": "idx",\n    "text": "${text}",\n    "correct": "${correct}"\n  },\n  "correctThreshold": 1\n}\n`;

  test('a path that matches nothing is one diagnostic on the mapping file, at its line, with the count and a fix', async () => {
    const dir = folder({ 'crosswords.json': crosswords, 'trace-inspector.mapping.json': mapping('infos.r') });
    const c = await collect(dir, 'crosswords.json');
    assert.deepEqual(c.msgs, [
      'trace-inspector.mapping.json:7:warning:fields.correct \'infos.r\' matched nothing in 4 records of crosswords.json; every sample is ungraded (in the first record, $.infos is a list of 4 objects: to take "r" from each element write "$.infos[*].r")',
    ]);
    assert.ok(c.records.every((r) => r.samples.every((s) => s.correct === null)));
    // indexed: the diagnostic is on the mapping file; the report says ungraded, not 0 correct
    const index = TraceIndex.open(path.join(dir, 'index.db'));
    await indexFolder(index, dir, { fts: false });
    // and the 4 problems, now without a graded sample, are one info on the data file naming the model and
    // counting them (issue 9; one line, not one per problem, since none of the file's problems is graded)
    assert.deepEqual(
      index.diagnostics().map((d) => `${d.file}:${d.line}:${d.severity}`),
      ['crosswords.json:1:info', 'trace-inspector.mapping.json:7:warning'],
    );
    assert.match(index.diagnostics()[0].message, /has no graded sample in this file: none of its 4 problems \(/);
    assert.equal(buildReport(index, { replicates: 100 }).models[0].sampleAccuracy, null);
    // fixing the mapping re-reads the folder and the diagnostic goes with the reading that gave it
    writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), mapping('$.infos[*].r'));
    await indexFolder(index, dir, { fts: false });
    assert.deepEqual(index.diagnostics(), []);
    assert.equal(buildReport(index, { replicates: 100 }).models[0].correct, 5);
    index.close();
  });

  test('every record failing is said as such, once, not once per record; the CLI does not say "no supported format"', async () => {
    const dir = folder({
      'crosswords.json': crosswords,
      'trace-inspector.mapping.json': mapping('$.infos[*].r', 'outputs'),
    });
    const c = await collect(dir, 'crosswords.json');
    assert.deepEqual(c.msgs, [
      'trace-inspector.mapping.json:6:error:fields.text \'outputs\' matched nothing in 4 records of crosswords.json; every sample is skipped (the first record is an object with keys "idx", "ys", "infos")',
      "crosswords.json:0:error:every record failed: none of the 4 records gave a sample through trace-inspector.mapping.json (fields.text 'outputs' matched nothing: see the diagnostics of trace-inspector.mapping.json)",
    ]);
    const tmp = tempDir();
    const r = runCli(['report', dir, '--db', path.join(tmp, 'i.db'), '-q'], tmp);
    assert.equal(r.status, 1);
    assert.doesNotMatch(r.stderr, /no file in a supported format/);
    assert.match(
      r.stderr,
      /no samples found in .*: 1 results file was recognised \(1 through a mapping file\) but gave no sample/,
    );
    assert.match(r.stderr, /crosswords\.json: error: every record failed/);
    assert.match(r.stderr, /trace-inspector\.mapping\.json:6: error: fields\.text 'outputs' matched nothing/);
  });

  test('a failure held while a path never matched is given once the path matches in a later record', async () => {
    const lines = [
      { id: 1, x: 'no t' },
      { id: 2, x: 'no t' },
      { id: 3, t: 'hello' },
    ].map((o) => JSON.stringify(o));
    const dir = folder({
      'd.jsonl': `${lines.join('\n')}\n`,
      'trace-inspector.mapping.json':
        '{"files": ["*.jsonl"], "records": "per-sample", "fields": {"problemId": "id", "text": "t"}}',
    });
    const c = await collect(dir, 'd.jsonl');
    assert.deepEqual(c.msgs, [
      'd.jsonl:1:error:t is missing; sample skipped',
      'd.jsonl:2:error:t is missing; sample skipped',
    ]);
    assert.deepEqual(counts(c.records), [['3', 1, 0]]);
  });

  test('a correctness value that is not a verdict names the value and the accepted forms; the rest are counted', async () => {
    const lines = ['maybe', true, 'perhaps', 0, [1]].map((ok, i) => JSON.stringify({ id: i, t: `s${i}`, ok }));
    const dir = folder({
      'd.jsonl': `${lines.join('\n')}\n`,
      'trace-inspector.mapping.json':
        '{"files": ["*.jsonl"], "records": "per-sample", "fields": {"problemId": "id", "text": "t", "correct": "ok"}}',
    });
    const c = await collect(dir, 'd.jsonl');
    assert.deepEqual(c.msgs, [
      'd.jsonl:1:warning:ok value "maybe" is not a verdict (accepted: true/false, 1/0, or the strings "true"/"false", "1"/"0" ("1.0"/"0.0"), "yes"/"no", "correct"/"incorrect", "C"/"I" (for other values set correctValues, correctPattern or correctThreshold in trace-inspector.mapping.json)); sample ungraded',
      'd.jsonl:0:warning:ok: 3 values in this file are not verdicts (first at line 1); those samples are ungraded',
    ]);
    assert.deepEqual(
      c.records.map((r) => r.samples[0].correct),
      [null, true, null, false, null],
    );
  });

  test('a records path on a keyed object says how to read its values', async () => {
    const dir = folder({
      'r.json': '{"eval": {"a": [1], "b": [2]}}',
      'trace-inspector.mapping.json':
        '{"files": ["r.json"], "records": "per-problem", "recordsPath": "eval", "samples": "$", "fields": {"problemId": "id", "text": "$[0]"}}',
    });
    const c = await collect(dir, 'r.json');
    assert.deepEqual(c.msgs, [
      `r.json:0:error:records path eval (from trace-inspector.mapping.json) is an object with keys "a", "b", not a list; to read the values of this object as records (keyed by problem id: "problemId": "@key") write "$['eval'].*"`,
    ]);
  });
});

describe('mapping on real folders (linked, never copied)', () => {
  test("tot-game24 naive_cot: ys + $.infos[*].r through a mapping gives the built-in ToT reader's counts", async () => {
    const file = 'gpt-4_0.7_naive_cot_sample_100_start900_end1000.json';
    const real = path.join(REAL, 'tot-game24', 'logs', 'game24', file);
    const dir = tempDir('ti-tot-');
    symlinkSync(real, path.join(dir, file));
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*.json'],
        records: 'per-problem',
        fields: { problemId: 'idx', text: 'ys', correct: '$.infos[*].r' },
      }),
    );
    const mapped = await collect(dir, file);
    assert.deepEqual(mapped.msgs, []);
    const builtin = await collect(path.join(REAL, 'tot-game24'), `logs/game24/${file}`);
    assert.equal(mapped.records.length, 100);
    assert.deepEqual(counts(mapped.records), counts(builtin.records));
    // independently from the raw file: r == 1 counts as correct
    const raw = JSON.parse(readFileSync(real, 'utf8')) as { idx: number; infos: { r: number }[] }[];
    assert.deepEqual(
      counts(mapped.records).map(([, n, c]) => [n, c]),
      raw.map((p) => [p.infos.length, p.infos.filter((i) => i.r === 1).length]),
    );
  });

  test('humaneval-samples-flat: correct from the "result" string ("passed") equals the file\'s own "passed" flag', async () => {
    const file = 'hEvalTest35_noExp_1dPro_1CPT_500Tkns_10SPT_Samples.jsonl_results.jsonl';
    const dir = tempDir('ti-he-');
    symlinkSync(path.join(REAL, 'humaneval-samples-flat', 'hEvalData', file), path.join(dir, file));
    const builtin = await collect(dir, file);
    assert.deepEqual(builtin.msgs, []);
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*_results.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'task_id', text: 'completion', correct: 'result' },
        correctValues: ['passed'],
        model: 'gpt-3.5',
      }),
    );
    const mapped = await collect(dir, file);
    assert.deepEqual(mapped.msgs, []);
    assert.equal(mapped.records.length, 1640);
    assert.deepEqual(
      mapped.records.map((r) => [r.problemId, r.samples[0].text, r.samples[0].correct]),
      builtin.records.map((r) => [r.problemId, r.samples[0].text, r.samples[0].correct]),
    );
    const correct = mapped.records.filter((r) => r.samples[0].correct).length;
    assert.ok(correct > 0 && correct < 1640, `${correct} passed`);
  });
});

describe('a correctness rule that matches no value is reported, not a silent 0% (trial 1, finding 3)', () => {
  /** EvalPlus-style results: 3 problems x (5, 5, 4) samples with base_status pass 6, fail 6, timeout 2. */
  function evalplus(): string {
    const statuses = [
      ['pass', 'pass', 'fail', 'fail', 'timeout'],
      ['pass', 'pass', 'pass', 'fail', 'fail'],
      ['pass', 'fail', 'fail', 'timeout'],
    ];
    const ev: Record<string, unknown> = {};
    statuses.forEach((ss, q) => {
      ev[`HumanEval/${q}`] = ss.map((st, i) => ({ solution: `def f${q}_${i}(): pass`, base_status: st }));
    });
    return JSON.stringify({ date: 'x', eval: ev });
  }
  const mapping = (rule: Record<string, unknown>) =>
    JSON.stringify({
      files: ['*.json'],
      records: 'per-problem',
      recordsPath: '$.eval.*',
      samples: '$',
      fields: { problemId: '@key', text: '$.solution', correct: '$.base_status' },
      model: 'm',
      ...rule,
    });

  test('correctValues, correctPattern and correctThreshold that match nothing say what was seen; a right rule is silent', async () => {
    const dir = tempDir('ti-map-');
    writeFileSync(path.join(dir, 'evalplus.json'), evalplus());
    const expectWarning = async (rule: Record<string, unknown>, ruleText: string, seen: string) => {
      writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), mapping(rule));
      const c = await collect(dir, 'evalplus.json');
      assert.deepEqual(
        c.records.map((r) => r.samples.length),
        [5, 5, 4],
      );
      assert.ok(c.records.every((r) => r.samples.every((s) => s.correct === false)));
      assert.deepEqual(c.msgs, [
        `evalplus.json:0:warning:${ruleText} matched none of the 14 $.base_status values in this file (seen: ${seen}): every sample is graded incorrect; check the rule in trace-inspector.mapping.json`,
      ]);
    };
    await expectWarning({ correctValues: ['passed'] }, 'correctValues ["passed"]', '"pass" 6, "fail" 6, "timeout" 2');
    await expectWarning(
      { correctPattern: 'PASS|success' },
      'correctPattern /PASS|success/',
      '"pass" 6, "fail" 6, "timeout" 2',
    );
    // the right rule: c = 2, 3, 1 by hand, no diagnostic
    writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), mapping({ correctValues: ['pass'] }));
    const ok = await collect(dir, 'evalplus.json');
    assert.deepEqual(ok.msgs, []);
    assert.deepEqual(
      ok.records.map((r) => r.samples.filter((s) => s.correct).length),
      [2, 3, 1],
    );
    // the sibling rule: a threshold above every score
    writeFileSync(
      path.join(dir, 'scores.jsonl'),
      [0.2, 0.5, 0.7].map((x, i) => JSON.stringify({ id: i, out: `t${i}`, score: x })).join('\n'),
    );
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'id', text: 'out', correct: 'score' },
        correctThreshold: 0.9,
        model: 'm',
      }),
    );
    const th = await collect(dir, 'scores.jsonl');
    assert.deepEqual(th.msgs, [
      'scores.jsonl:0:warning:correctThreshold 0.9 matched none of the 3 score values in this file (seen: 0.2 1, 0.5 1, 0.7 1): every sample is graded incorrect; check the rule in trace-inspector.mapping.json',
    ]);
    // the CLI's index --format json lists it
    const tmp = tempDir();
    writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), mapping({ correctValues: ['passed'] }));
    const r = runCli(['index', dir, '--db', path.join(tmp, 'i.db'), '--format', 'json'], tmp);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /correctValues \[\\"passed\\"\] matched none of the 14/);
  });
});

describe('a mapping whose files glob matches no file says so (trial 1, polish)', () => {
  const spec = (files: string[]) => ({
    files,
    records: 'per-sample',
    fields: { problemId: 'id', text: 'out', correct: 'ok' },
  });
  const line = `${JSON.stringify({ id: '1', out: 'a', ok: true })}\n`;
  const warningsOf = async (dir: string, mappingFile?: string) => {
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, dir, {
      fts: false,
      ...(mappingFile ? { readerOptions: { mappingFile } } : {}),
    });
    const w = index
      .diagnostics()
      .filter((d) => /matches no file/.test(d.message))
      .map((d) => `${d.file}:${d.severity}:${d.message}`);
    index.close();
    return { w, samples: summary.samples };
  };

  test('in the folder, in a subfolder, given by path, in a list; the files seen are named; it clears once a file matches', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'runs'), { recursive: true });
    writeFileSync(path.join(dir, 'runs', 'm.JSONL'), line);
    writeFileSync(path.join(dir, 'runs', 'notes.txt'), 'x');
    writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), JSON.stringify(spec(['*.jsonl'])));
    const a = await warningsOf(dir);
    assert.equal(a.samples, 0);
    assert.deepEqual(a.w, [
      'trace-inspector.mapping.json:warning:mapping: "files" ["*.jsonl"] matches no file under its folder (the results folder); globs are case-sensitive and a glob without "/" matches the file name in any subfolder; files seen there: runs/m.JSONL, runs/notes.txt',
    ]);
    // the CLI's "no samples" line points at it
    const tmp = tempDir();
    const cli = runCli(['report', dir, '--db', path.join(tmp, 'cli.db'), '-q'], tmp);
    assert.match(
      cli.stderr,
      /no file in a supported format, and a mapping whose "files" match no file \(trace-inspector\.mapping\.json: see the warning below\)/,
    );
    // a list: only the entry that matches nothing; an entry with one matching glob of two is fine
    writeFileSync(
      path.join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify([spec(['*.JSONL', '*.json']), spec(['results/*.jsonl'])]),
    );
    const b = await warningsOf(dir);
    assert.equal(b.samples, 1);
    assert.equal(b.w.length, 1);
    assert.match(
      b.w[0],
      /^trace-inspector\.mapping\.json:warning:mapping #2: "files" \["results\/\*\.jsonl"\] matches no file/,
    );
    // a mapping in a subfolder matches paths relative to it
    writeFileSync(path.join(dir, 'trace-inspector.mapping.json'), JSON.stringify(spec(['*.JSONL'])));
    writeFileSync(path.join(dir, 'runs', 'trace-inspector.mapping.json'), JSON.stringify(spec(['runs/*.JSONL'])));
    const c = await warningsOf(dir);
    assert.equal(c.w.length, 1);
    assert.ok(
      c.w[0].startsWith(
        'runs/trace-inspector.mapping.json:warning:mapping: "files" ["runs/*.JSONL"] matches no file under its folder runs/; ',
      ),
      c.w[0],
    );
    assert.match(c.w[0], /files seen there: m\.JSONL, notes\.txt$/);
    // the file appears: the warning is gone on the next pass
    writeFileSync(path.join(dir, 'runs', 'trace-inspector.mapping.json'), JSON.stringify(spec(['*.JSONL'])));
    assert.deepEqual((await warningsOf(dir)).w, []);
  });

  test('a mapping given by path: globs relative to the results folder; many files are cut to 8 with a count', async () => {
    const dir = tempDir();
    for (let i = 0; i < 11; i++) writeFileSync(path.join(dir, `s${String(i).padStart(2, '0')}.jsonl`), line);
    const outside = path.join(tempDir(), 'my.mapping.json');
    writeFileSync(outside, JSON.stringify(spec(['samples/*.jsonl'])));
    const a = await warningsOf(dir, outside);
    assert.equal(a.w.length, 1);
    assert.ok(
      a.w[0].startsWith(
        `${outside}:warning:mapping: "files" ["samples/*.jsonl"] matches no file under the results folder (a mapping given by path matches paths relative to the results folder)`,
      ),
    );
    assert.match(a.w[0], /files seen there: s00\.jsonl, s01\.jsonl, .*, s07\.jsonl and 3 more$/);
    writeFileSync(outside, JSON.stringify(spec(['*.jsonl'])));
    const b = await warningsOf(dir, outside);
    assert.deepEqual(b.w, []);
    assert.equal(b.samples, 11);
  });
});
