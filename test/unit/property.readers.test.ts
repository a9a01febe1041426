/**
 * Property-based tests (fast-check) of every reader: random and mutated records (fields replaced by
 * arbitrary JSON, deleted, wrong types; lines truncated, spliced with garbage, NaN literals; random
 * bytes) are written to a file and read with the reader forced and with format detection. For a
 * bounded number of runs (fixed seed, so CI is reproducible): no exception escapes `readFile`, every
 * problem is a diagnostic naming the file and a line within the file, and every record that comes out
 * is well formed. Run with cwd = the repository root.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FormatId, ReadEvent } from '../../src/core/model';
import { makeContext, readFile } from '../../src/core/readers/index';

/** Runs per reader (CI: 150, about 5 s in all); `PROPERTY_RUNS` / `PROPERTY_SEED` explore further locally. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const SEED = Number(process.env.PROPERTY_SEED ?? 20260101);

let root = '';
before(() => {
  root = mkdtempSync(join(tmpdir(), 'rel-prop-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

const text = fc.string({ unit: 'binary', maxLength: 24 });
const verdict = fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 'true', 'false', 'C', 'I', null, 0.5));
const id = fc.oneof(fc.nat({ max: 20 }), fc.constantFrom('a', 'HumanEval/1', ''));

/** A valid-looking record of each JSON format (before mutation; TRL's Parquet files are tested in trl.test.ts). */
const RECORDS: Record<
  Exclude<FormatId, 'inspect' | 'trl'> | 'inspect-sample',
  fc.Arbitrary<Record<string, unknown>>
> = {
  'qwen-math': fc.record({
    idx: id,
    question: text,
    gt: text,
    level: fc.constantFrom('Level 3', 2, null),
    code: fc.array(text, { maxLength: 5 }),
    score: fc.array(verdict, { maxLength: 5 }),
    pred: fc.array(text, { maxLength: 5 }),
    pred_score: fc.array(fc.oneof(fc.double(), fc.array(fc.double(), { maxLength: 2 })), { maxLength: 5 }),
  }),
  rollouts: fc.record({
    qid: id,
    question: text,
    gold: text,
    model_name: fc.constantFrom('m', 'base', ''),
    rollouts: fc.array(
      fc.record({
        rollout: fc.integer({ min: -1, max: 4 }),
        text,
        correct: verdict,
        num_tokens: fc.oneof(fc.nat(), fc.double()),
      }),
      { maxLength: 5 },
    ),
  }),
  flat: fc.record({ task_id: id, completion: text, passed: verdict, prompt: text }),
  tot: fc.record({
    idx: id,
    ys: fc.array(text, { maxLength: 4 }),
    accs: fc.array(verdict, { maxLength: 4 }),
    infos: fc.array(fc.record({ r: fc.oneof(fc.nat({ max: 2 }), fc.double()) }), { maxLength: 4 }),
  }),
  mapping: fc.record({
    meta: fc.record({ id, model: fc.constantFrom('m1', 'm2'), ds: text }),
    outputs: fc.array(text, { maxLength: 4 }),
    labels: fc.array(verdict, { maxLength: 4 }),
    rewards: fc.array(fc.double(), { maxLength: 4 }),
    prompt: text,
    answer: text,
  }),
  'inspect-sample': fc.record({
    id,
    epoch: fc.integer({ min: -1, max: 3 }),
    input: fc.oneof(
      text,
      fc.array(fc.record({ role: fc.constantFrom('user', 'system'), content: text }), { maxLength: 2 }),
    ),
    target: text,
    output: fc.record({
      choices: fc.array(
        fc.record({
          message: fc.record({
            role: fc.constant('assistant'),
            content: fc.oneof(
              text,
              fc.array(fc.record({ type: fc.constantFrom('text', 'reasoning'), text, reasoning: text }), {
                maxLength: 2,
              }),
            ),
          }),
          stop_reason: text,
        }),
        { maxLength: 2 },
      ),
    }),
    scores: fc.dictionary(
      fc.constantFrom('match', 'model_graded'),
      fc.record({ value: fc.oneof(verdict, fc.double(), fc.string()), answer: text }),
    ),
  }),
};

/** Replaces, deletes or retypes fields of a record, or replaces it with arbitrary JSON. */
function mutated(rec: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: rec, weight: 3 },
    {
      arbitrary: fc.tuple(rec, fc.nat(), fc.jsonValue({ maxDepth: 3 })).map(([r, k, v]) => {
        const keys = Object.keys(r);
        return keys.length ? { ...r, [keys[k % keys.length]]: v } : r;
      }),
      weight: 4,
    },
    {
      arbitrary: fc.tuple(rec, fc.nat()).map(([r, k]) => {
        const keys = Object.keys(r);
        const out = { ...r };
        if (keys.length) delete out[keys[k % keys.length]];
        return out;
      }),
      weight: 2,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  );
}

/** Serialises a line, then maybe breaks it: truncated, spliced with garbage, or with a NaN literal. */
function brokenLine(value: unknown): fc.Arbitrary<string> {
  const s = JSON.stringify(value) ?? 'null';
  return fc.oneof(
    { arbitrary: fc.constant(s), weight: 5 },
    { arbitrary: fc.nat({ max: s.length }).map((n) => s.slice(0, n)), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.nat({ max: s.length }), fc.string({ unit: 'binary', maxLength: 6 }))
        .map(([n, g]) => s.slice(0, n) + g + s.slice(n)),
      weight: 1,
    },
    { arbitrary: fc.constant(s.replace(/\d+(\.\d+)?/, 'NaN')), weight: 1 },
  );
}

/** Lines of a JSONL file built from mutated records of `format`, or random bytes. */
function jsonlFile(rec: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Buffer> {
  const lines = fc.array(mutated(rec).chain(brokenLine), { minLength: 1, maxLength: 6 });
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(lines, fc.constantFrom('\n', '\r\n'), fc.boolean())
        .map(([ls, eol, last]) => Buffer.from(ls.join(eol) + (last ? eol : ''))),
      weight: 9,
    },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), weight: 1 },
  );
}

interface Checked {
  records: number;
  diagnostics: number;
}

/** Reads `rel` under `dir` (forced format, then detected) and checks the invariants of every event. */
async function readAndCheck(dir: string, rel: string, format: FormatId, content: Buffer): Promise<Checked> {
  const lineCount = Math.max(1, content.toString('latin1').split('\n').length);
  const out: Checked = { records: 0, diagnostics: 0 };
  for (const f of [format, undefined]) {
    const events: ReadEvent[] = [];
    for await (const ev of readFile(makeContext(dir, rel), f)) events.push(ev);
    for (const ev of events) {
      if (ev.kind === 'diagnostic') {
        const d = ev.diagnostic;
        out.diagnostics++;
        // A mapping path that matched nothing in the file is reported on the mapping file, at the field's line.
        const onMapping = d.file === 'trace-inspector.mapping.json';
        if (!onMapping) assert.equal(d.file, rel);
        const lines = onMapping ? readFileSync(join(dir, d.file), 'utf8').split('\n').length : lineCount;
        assert.ok(
          Number.isInteger(d.line) && d.line >= 0 && d.line <= lines,
          `line ${d.line} of ${lines}: ${d.message}`,
        );
        if (onMapping) assert.match(d.message, /^fields\.\w+ '[^']+' matched nothing in \d+ records? of /);
        assert.ok(d.severity === 'error' || d.severity === 'warning' || d.severity === 'info');
        assert.ok(typeof d.message === 'string' && d.message.length > 0 && d.message.length < 2000);
      } else if (ev.kind === 'ungrade') {
        for (const l of ev.lines) assert.ok(Number.isInteger(l) && l >= 1 && l <= lineCount, `ungrade line ${l}`);
      } else {
        const r = ev.record;
        out.records++;
        assert.ok(
          Number.isInteger(r.line) && r.line >= 1 && r.line <= lineCount,
          `record line ${r.line} of ${lineCount}`,
        );
        assert.equal(typeof r.problemId, 'string');
        assert.equal(typeof r.dataset, 'string');
        assert.equal(typeof r.model.name, 'string');
        for (const s of r.samples) {
          assert.equal(typeof s.text, 'string');
          assert.ok(s.correct === true || s.correct === false || s.correct === null);
          if (s.sampleIndex !== undefined) assert.ok(Number.isInteger(s.sampleIndex) && s.sampleIndex >= 0);
          if (s.rewardScore !== undefined && s.rewardScore !== null) assert.ok(Number.isFinite(s.rewardScore));
        }
      }
    }
  }
  return out;
}

describe('property: readers never throw; every problem is a diagnostic with file and line', () => {
  const MAPPING = readFileSync(
    join(process.cwd(), 'test/fixtures/readers/mapping/parallel/trace-inspector.mapping.json'),
    'utf8',
  );
  const seen: Record<string, Checked> = {};

  for (const format of ['qwen-math', 'rollouts', 'flat', 'mapping'] as const) {
    test(`${format}: random and mutated JSONL`, async () => {
      const dir = join(root, format);
      mkdirSync(dir, { recursive: true });
      if (format === 'mapping') writeFileSync(join(dir, 'trace-inspector.mapping.json'), MAPPING);
      const total: Checked = { records: 0, diagnostics: 0 };
      let n = 0;
      await fc.assert(
        fc.asyncProperty(jsonlFile(RECORDS[format]), async (content) => {
          const rel = `f${n++}.jsonl`;
          writeFileSync(join(dir, rel), content);
          const c = await readAndCheck(dir, rel, format, content);
          total.records += c.records;
          total.diagnostics += c.diagnostics;
        }),
        { numRuns: RUNS, seed: SEED },
      );
      seen[format] = total;
      // the generators reach both sides: good records and diagnostics
      assert.ok(total.records > RUNS / 2 && total.diagnostics > RUNS / 2, JSON.stringify(total));
    });
  }

  test('tot: random and mutated JSON arrays', async () => {
    const dir = join(root, 'tot', 'logs', 'game24');
    mkdirSync(dir, { recursive: true });
    let n = 0;
    const total: Checked = { records: 0, diagnostics: 0 };
    const doc = fc.oneof(
      { arbitrary: fc.array(mutated(RECORDS.tot), { maxLength: 5 }).chain((a) => brokenLine(a)), weight: 9 },
      { arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(doc, async (s) => {
        const rel = `logs/game24/gpt-4_0.7_mini_start0_end${n++}.json`;
        const content = Buffer.from(s, s.startsWith('[') ? 'utf8' : 'latin1');
        writeFileSync(join(root, 'tot', rel), content);
        const c = await readAndCheck(join(root, 'tot'), rel, 'tot', content);
        total.records += c.records;
        total.diagnostics += c.diagnostics;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    assert.ok(total.records > 0 && total.diagnostics > 0, JSON.stringify(total));
  });

  test('inspect: random and mutated .json logs', async () => {
    const dir = join(root, 'inspect');
    mkdirSync(dir, { recursive: true });
    let n = 0;
    const total: Checked = { records: 0, diagnostics: 0 };
    const header = fc.record({ task: text, model: fc.constantFrom('m/x', ''), dataset: fc.record({ name: text }) });
    const log = fc.record({
      version: fc.constantFrom(2, '2'),
      status: fc.constant('success'),
      eval: header,
      samples: fc.array(mutated(RECORDS['inspect-sample']), { maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(mutated(log as fc.Arbitrary<Record<string, unknown>>).chain(brokenLine), async (s) => {
        const rel = `log${n++}.json`;
        const content = Buffer.from(s);
        writeFileSync(join(dir, rel), content);
        const c = await readAndCheck(dir, rel, 'inspect', content);
        total.records += c.records;
        total.diagnostics += c.diagnostics;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    assert.ok(total.records > 0 && total.diagnostics > 0, JSON.stringify(total));
  });
});
