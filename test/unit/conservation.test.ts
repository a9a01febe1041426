/**
 * The conservation law of reading (issue 9), on generated and mutated folders in every reader format
 * (Qwen2.5-Math, rollouts, flat human-eval, Tree-of-Thought, Inspect `.json` and `.eval`, a mapping
 * file): every record and sample written into the files is either indexed or named in a diagnostic of
 * its file (its line, element, sample or entry), and the counts add up: samples indexed = samples
 * written - samples the mutations drop (known to the generator, not read from the indexer); every
 * model's problems are the problems written (with or without samples); and every figure of the report
 * is over `problems` of them with the rest in `missing`, reason by reason.
 *
 * Mutations: a malformed line, a NaN literal, an empty sample list, every verdict null, a text that is
 * not a string, a missing id, a duplicate id, an element that is not an object, invalid UTF-8, a BOM,
 * CRLF line ends. Seeded (mulberry32), so a failure reproduces; `CONSERVATION_SEEDS` runs more seeds.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { mulberry32 } from '../../src/core/metrics/bootstrap';
import type { Diagnostic } from '../../src/core/model';
import { buildReport } from '../../src/core/report/index';
import { REAL, tempDir } from './helpers';
import { buildZip, inspectHeader } from './reliability.support';

const SEEDS = Number(process.env.CONSERVATION_SEEDS ?? 6);

type Mutation =
  | 'good'
  | 'malformed'
  | 'nan'
  | 'empty'
  | 'allNull'
  | 'badText'
  | 'noId'
  | 'dup'
  | 'notObject'
  | 'badUtf8';

type Format = 'qwen-math' | 'rollouts' | 'flat' | 'tot' | 'inspect-json' | 'inspect-eval' | 'mapping';

/** The mutations each format can express (a record of a format without a sample list cannot be empty...). */
const MUTATIONS: Record<Format, Mutation[]> = {
  'qwen-math': ['good', 'malformed', 'nan', 'empty', 'allNull', 'badText', 'noId', 'dup', 'badUtf8'],
  rollouts: ['good', 'malformed', 'nan', 'empty', 'allNull', 'badText', 'noId', 'dup', 'badUtf8'],
  flat: ['good', 'malformed', 'nan', 'allNull', 'badText', 'noId', 'badUtf8'],
  tot: ['good', 'nan', 'empty', 'allNull', 'badText', 'noId', 'dup', 'notObject', 'badUtf8'],
  'inspect-json': ['good', 'nan', 'allNull', 'noId', 'notObject', 'badUtf8'],
  'inspect-eval': ['good', 'malformed', 'nan', 'allNull', 'badUtf8'],
  mapping: ['good', 'malformed', 'nan', 'empty', 'allNull', 'badText', 'noId', 'dup', 'badUtf8'],
};

/** One generated problem of one model: what was written, and what the law expects of it. */
interface Gen {
  id: number;
  mutation: Mutation;
  /** Verdicts as written (before the mutation touches them). */
  verdicts: boolean[];
  /** Expected: the problem is one of the model's problems in the index. */
  kept: boolean;
  /** Expected verdicts of the indexed samples (null: ungraded). */
  indexed: (boolean | null)[];
  /** Samples written but not indexed, and how the diagnostic that names them is recognised. */
  dropped: number;
  names?: (d: Diagnostic) => boolean;
}

const FF = '\u0000FF\u0000'; // placeholder for a raw 0xFF byte, replaced when the file is written

/** Writes text with raw invalid bytes where {@link FF} stands, optionally with a BOM and CRLF line ends. */
function writeBytes(path: string, text: string, bom: boolean, crlf: boolean): void {
  const body = crlf ? text.replace(/\n/g, '\r\n') : text;
  const parts = body.split(FF).map((p) => Buffer.from(p, 'utf8'));
  const withBad: Buffer[] = [];
  parts.forEach((p, i) => {
    if (i > 0) withBad.push(Buffer.from([0xff]));
    withBad.push(p);
  });
  writeFileSync(path, Buffer.concat([...(bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : []), ...withBad]));
}

/** JSON with `NaN` in place of the string marker `"__NaN__"` (as Python's json.dumps writes it). */
const withNaN = (json: string) => json.replace(/"__NaN__"/g, 'NaN');
const NAN = '__NaN__';

/** A problem that a later duplicate can repeat: indexed under its own id. */
const isTarget = (g: Gen) => !['malformed', 'notObject', 'dup', 'noId'].includes(g.mutation);

/**
 * Generates one model's problems for a format: ids 0..count-1, each with 2..4 samples, verdicts
 * random, one mutation each (a duplicate only after a kept problem, so it has something to repeat).
 */
function generate(format: Format, rnd: () => number, count: number): Gen[] {
  const out: Gen[] = [];
  const allowed = MUTATIONS[format];
  for (let id = 0; id < count; id++) {
    let mutation = allowed[Math.floor(rnd() * allowed.length)];
    if (mutation === 'dup' && !out.some(isTarget)) mutation = 'good';
    const n = 2 + Math.floor(rnd() * 3);
    const verdicts = Array.from({ length: n }, () => rnd() < 0.5);
    out.push({ id, mutation, verdicts, kept: true, indexed: [...verdicts], dropped: 0 });
  }
  return out;
}

/** A file written, with the problems it holds. */
type Written = { file: string; gens: Gen[] };

/** Writes one model's problems in `format` into `dir`, filling in each Gen's expectations. */
function write(format: Format, dir: string, gens: Gen[], rnd: () => number): Written {
  const bom = rnd() < 0.3;
  const crlf = rnd() < 0.3;
  const text = (g: Gen, i: number) => `p${g.id} s${i}${g.mutation === 'badUtf8' && i === 0 ? FF : ''} text`;
  const lineOf = new Map<Gen, number>();
  const byLine = (g: Gen) => (d: Diagnostic) => d.line === lineOf.get(g) && d.severity !== 'info';
  // the first earlier problem indexed under its own id
  const dupOf = (g: Gen) => gens.slice(0, gens.indexOf(g)).find(isTarget)!;
  // the effect of each mutation on what is indexed (a per-format exception below where it differs)
  for (const g of gens) {
    const m = g.mutation;
    if (m === 'malformed' || m === 'notObject' || m === 'dup') {
      g.kept = false;
      g.indexed = [];
      g.dropped = g.verdicts.length;
    } else if (m === 'empty') g.indexed = [];
    else if (m === 'allNull') g.indexed = g.verdicts.map(() => null);
    else if (m === 'nan') g.indexed = g.verdicts.map((v, i) => (i === 0 ? null : v));
    else if (m === 'badText') {
      g.indexed = g.verdicts.filter((_, i) => i !== 1);
      g.dropped = 1;
    }
  }
  const lines: string[] = [];
  const push = (g: Gen | null, line: string) => {
    lines.push(line);
    if (g && !lineOf.has(g)) lineOf.set(g, lines.length);
  };
  let file = '';
  switch (format) {
    case 'qwen-math':
    case 'rollouts':
    case 'mapping': {
      file = format === 'qwen-math' ? 'qwen/res.jsonl' : format === 'rollouts' ? 'roll/r.jsonl' : 'map/d.jsonl';
      for (const g of gens) {
        const m = g.mutation;
        const id = m === 'dup' ? dupOf(g).id : g.id;
        const texts = m === 'empty' ? [] : g.verdicts.map((_, i) => (m === 'badText' && i === 1 ? 7 : text(g, i)));
        const vs =
          m === 'empty' ? [] : g.verdicts.map((v, i) => (m === 'allNull' ? null : m === 'nan' && i === 0 ? NAN : v));
        let rec: Record<string, unknown>;
        if (format === 'qwen-math') rec = { idx: id, question: `q${id}`, code: texts, score: vs };
        else if (format === 'rollouts')
          rec = {
            qid: id,
            model_name: 'roll',
            rollouts: texts.map((t, i) => ({ rollout: i, text: t, correct: vs[i] })),
          };
        else rec = { pid: id, outs: texts, oks: vs };
        if (m === 'noId') delete rec[format === 'qwen-math' ? 'idx' : format === 'rollouts' ? 'qid' : 'pid'];
        let line = withNaN(JSON.stringify(rec));
        if (m === 'malformed') line = line.slice(0, Math.max(5, Math.floor(line.length / 2)));
        push(g, line);
        g.names = byLine(g);
        // a missing id: the Qwen and rollouts readers use "line L"; the mapping reader skips the record
        if (m === 'noId' && format === 'mapping') {
          g.kept = false;
          g.dropped = g.verdicts.length;
          g.indexed = [];
        }
      }
      if (format === 'mapping') {
        mkdirSync(join(dir, 'map'), { recursive: true });
        writeFileSync(
          join(dir, 'map', 'trace-inspector.mapping.json'),
          JSON.stringify({
            files: ['*.jsonl'],
            records: 'per-problem',
            model: 'map',
            fields: { problemId: 'pid', text: 'outs', correct: 'oks' },
          }),
        );
      }
      break;
    }
    case 'flat': {
      file = 'flat/f_results.jsonl';
      // one line per sample; the mutation hits the problem's first line (its second for badText)
      for (const g of gens) {
        const m = g.mutation;
        g.kept = true;
        g.indexed = [];
        g.dropped = 0;
        let dropLine = -1;
        g.verdicts.forEach((v, i) => {
          const rec: Record<string, unknown> = {
            task_id: `T/${g.id}`,
            completion: m === 'badText' && i === 1 ? 7 : text(g, i),
            passed: m === 'allNull' ? null : m === 'nan' && i === 0 ? NAN : v,
          };
          if (m === 'noId' && i === 0) delete rec.task_id;
          let line = withNaN(JSON.stringify(rec));
          if (m === 'malformed' && i === 0) line = line.slice(0, 10);
          lines.push(line);
          const gone = (m === 'malformed' || m === 'noId') && i === 0 ? true : m === 'badText' && i === 1;
          if (gone) {
            g.dropped++;
            dropLine = lines.length;
          } else g.indexed.push(m === 'allNull' || (m === 'nan' && i === 0) ? null : v);
        });
        g.names = (d) => d.line === dropLine && d.severity !== 'info';
      }
      break;
    }
    case 'tot': {
      file = 'tot/g/method.json';
      const elements = gens.map((g, p) => {
        const m = g.mutation;
        if (m === 'notObject') {
          g.names = (d) => d.message.includes(`element ${p} `);
          return JSON.stringify('not an object');
        }
        const id = m === 'dup' ? dupOf(g).id : g.id;
        const rec: Record<string, unknown> = {
          idx: id,
          ys: m === 'empty' ? [] : g.verdicts.map((_, i) => (m === 'badText' && i === 1 ? 7 : text(g, i))),
          accs:
            m === 'empty' ? [] : g.verdicts.map((v, i) => (m === 'allNull' ? null : m === 'nan' && i === 0 ? NAN : v)),
        };
        if (m === 'noId') delete rec.idx; // the array position is the id
        g.names =
          m === 'dup'
            ? (d) => d.message.startsWith(`duplicate problem id "${id}"`)
            : (d) => d.message.includes(`element ${p}:`);
        return withNaN(JSON.stringify(rec));
      });
      lines.push(`[${elements.join(',\n')}]`);
      break;
    }
    case 'inspect-json':
    case 'inspect-eval': {
      // every problem is a sample id with one epoch per sample; the mutation hits epoch 1
      const objects: { g: Gen; epoch: number; json: string; i: number }[] = [];
      for (const g of gens) {
        g.verdicts.forEach((v, e) => {
          const m = g.mutation;
          const value = m === 'allNull' ? null : m === 'nan' && e === 0 ? NAN : v ? 'C' : 'I';
          const rec: Record<string, unknown> = {
            id: g.id,
            epoch: e + 1,
            output: { completion: text(g, e) },
            scores: { match: { value } },
          };
          if (m === 'noId' && e === 0) delete rec.id;
          let json = m === 'notObject' && e === 0 ? '5' : withNaN(JSON.stringify(rec));
          if (m === 'malformed' && e === 0) json = json.slice(0, 12);
          objects.push({ g, epoch: e + 1, json, i: objects.length });
        });
        const m = g.mutation;
        // one epoch object lost (not the whole problem: the other epochs keep it)
        if (m === 'noId' || m === 'notObject' || m === 'malformed') {
          g.kept = g.verdicts.length > 1;
          g.indexed = g.verdicts.slice(1);
          g.dropped = 1;
          const i = objects.find((o) => o.g === g && o.epoch === 1)!.i;
          g.names =
            format === 'inspect-json'
              ? (d) => d.message.startsWith(`samples[${i}] `)
              : // the archive entry is the diagnostic's place (trial 12 finding 24), not a line
                (d) => d.entry === `samples/${g.id}_epoch_1.json`;
        }
      }
      if (format === 'inspect-json') {
        file = 'insp/log.json';
        lines.push(
          `{"version": 2, "eval": {"task": "t", "model": "insp-json"}, "samples": [${objects.map((o) => o.json).join(',\n')}]}`,
        );
      } else {
        file = 'insp/log.eval';
        mkdirSync(join(dir, 'insp'), { recursive: true });
        const entries = [
          { name: 'header.json', data: Buffer.from(inspectHeader('insp-eval')) },
          ...objects.map((o) => ({
            name: `samples/${o.g.id}_epoch_${o.epoch}.json`,
            // a raw 0xFF byte where the placeholder stands
            data: Buffer.concat(
              o.json
                .split(FF)
                .flatMap((part, k) => (k ? [Buffer.from([0xff]), Buffer.from(part)] : [Buffer.from(part)])),
            ),
          })),
        ];
        writeFileSync(join(dir, file), buildZip(entries));
        return { file, gens };
      }
      break;
    }
  }
  mkdirSync(join(dir, ...file.split('/').slice(0, -1)), { recursive: true });
  writeBytes(join(dir, ...file.split('/')), `${lines.join('\n')}\n`, bom, crlf);
  return { file, gens };
}

describe('conservation: every record and sample written is indexed or named, and the counts add up', () => {
  const formats = Object.keys(MUTATIONS) as Format[];
  for (let seed = 1; seed <= SEEDS; seed++) {
    test(`seed ${seed}: every format in one folder${seed % 2 === 0 ? ' (parallel reader)' : ''}`, async () => {
      const rnd = mulberry32(seed * 7919);
      const dir = tempDir('conservation-');
      const written = formats.map((f) => write(f, dir, generate(f, rnd, 6 + Math.floor(rnd() * 8)), rnd));
      const index = TraceIndex.open(':memory:');
      const summary = await indexFolder(index, dir, {
        parallelReadMinBytes: seed % 2 === 0 ? 0 : Number.POSITIVE_INFINITY,
      });
      const diagsOf = (file: string) => summary.diagnostics.filter((d) => d.file === file);
      const models = index.models();
      assert.equal(models.length, written.length, models.map((m) => m.displayId).join(', '));
      for (const { file, gens } of written) {
        const what = `${file} (seed ${seed}: ${gens.map((g) => g.mutation).join(' ')})`;
        // 1. whatever is not indexed is named by a diagnostic of its file
        for (const g of gens.filter((x) => x.dropped > 0))
          assert.ok(
            diagsOf(file).some((d) => g.names!(d)),
            `${what}: problem ${g.id} (${g.mutation}) not named`,
          );
        // 2. samples indexed = samples written - samples dropped
        const fileId = index.db.prepare('SELECT id FROM files WHERE path = ?').pluck().get(file) as number;
        const indexedSamples = index.db.prepare('SELECT count(*) FROM samples WHERE file_id = ?').pluck().get(fileId);
        // an empty record writes no sample
        const writtenSamples = gens.reduce((a, g) => a + (g.mutation === 'empty' ? 0 : g.verdicts.length), 0);
        const dropped = gens.reduce((a, g) => a + g.dropped, 0);
        assert.equal(indexedSamples, writtenSamples - dropped, `${what}: samples`);
        // 3. the model's problems: every kept problem, with or without samples, with its verdicts
        const modelId = index.db
          .prepare(
            'SELECT DISTINCT model_id FROM samples WHERE file_id = ? UNION SELECT model_id FROM empty_records WHERE file_id = ?',
          )
          .pluck()
          .all(fileId, fileId) as number[];
        assert.equal(modelId.length, 1, what);
        const model = models.find((m) => m.id === modelId[0])!;
        const kept = gens.filter((g) => g.kept);
        assert.equal(model.problems, kept.length, `${what}: problems`);
        const stats = index
          .modelStats(model.id)
          .map((s) => [s.n, s.graded, s.c])
          .sort();
        const expected = kept
          .map((g) => [
            g.indexed.length,
            g.indexed.filter((v) => v !== null).length,
            g.indexed.filter((v) => v === true).length,
          ])
          .sort();
        assert.deepEqual(stats, expected, `${what}: per-problem n, graded, c`);
        assert.equal(model.emptyProblems, kept.filter((g) => g.indexed.length === 0).length, what);
        assert.equal(
          model.ungradedProblems,
          kept.filter((g) => g.indexed.length > 0 && g.indexed.every((v) => v === null)).length,
          what,
        );
      }
      // 4. every figure: problems + missing = the model's problems; missing = the sum of its reasons
      // (also with the tool's grading, which lets maj@k and best-of-k use problems without a verdict)
      const report = buildReport(index, { replicates: 50, majAtK: true });
      const sum = (l: object) => Object.values(l).reduce<number>((a, v) => a + ((v as number | undefined) ?? 0), 0);
      for (const r of [report, buildReport(index, { replicates: 50, majAtK: true, toolGrading: true })])
        for (const m of r.models) {
          for (const p of [...m.passAtK, ...m.bestOfK, ...(m.majAtK ?? [])]) {
            assert.equal(p.problems + p.missing, m.problems, `${m.id} k=${p.k}`);
            assert.equal(sum(p.leftOut), p.missing, `${m.id} k=${p.k}`);
          }
          assert.equal(m.leftOut.noSamples + m.leftOut.ungraded <= m.problems, true);
        }
      for (const s of report.strata)
        for (const p of s.passAtK) assert.equal(p.problems + p.missing, s.problems, `${s.model} level ${s.level}`);
      // 5. nothing else: every diagnostic names a file that was written
      const files = new Set(written.map((w) => w.file));
      for (const d of summary.diagnostics) assert.ok(files.has(d.file), `${d.file}: ${d.message}`);
      index.close();
    });
  }
});

describe('conservation of files: every file of the folder is indexed or named (trial 10 finding 10f)', () => {
  /** Whether a diagnostic names `file` (as its file, or in its message's list of files). */
  const names = (d: Diagnostic, file: string) => d.file === file || d.message.includes(file);

  test('a puzzles table, notes, configs, docs, images and a LICENSE beside a results file are each named', async () => {
    const dir = tempDir('conservation-files-');
    mkdirSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(
      join(dir, 'logs', 'gpt-4_0.7_naive_cot_sample_2_start0_end1.json'),
      JSON.stringify([{ idx: 0, ys: ['1+2*3*4=25\nAnswer: 1+2*3*4 = 24', 'x'], infos: [{ r: 1 }, { r: 0 }] }]),
    );
    const others = {
      '24.csv': 'Rank,Puzzles\n1,1 1 4 6\n',
      'tables/scores.csv': 'a,b\n1,2\n',
      'notes.txt': 'what I tried\n',
      'config.yaml': 'k: 1\n',
      'README.md': '# runs\n',
      'docs/more.md': 'more\n',
      'plot.png': '\u0089PNG',
      'logs/plot2.png': '\u0089PNG',
      LICENSE: 'MIT\n',
    };
    for (const [f, text] of Object.entries(others)) {
      mkdirSync(join(dir, ...f.split('/').slice(0, -1)), { recursive: true });
      writeFileSync(join(dir, ...f.split('/')), text);
    }
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, dir);
    const read = new Set(index.db.prepare('SELECT path FROM files WHERE format IS NOT NULL').pluck().all() as string[]);
    assert.deepEqual([...read], ['logs/gpt-4_0.7_naive_cot_sample_2_start0_end1.json']);
    for (const f of Object.keys(others))
      assert.ok(
        summary.diagnostics.some((d) => d.severity === 'info' && names(d, f)),
        `${f} is neither read nor named: ${JSON.stringify(summary.diagnostics)}`,
      );
    // data-like files one info each, saying no samples are read; the rest one info per kind, counted
    const csv = summary.diagnostics.find((d) => d.file === 'tables/scores.csv')!;
    assert.match(csv.message, /^not a results file \(no samples read\): no reader takes \.csv files/);
    // the puzzles table of the ToT log under its folder: read for its questions, no samples
    const puzzles = summary.diagnostics.find((d) => d.file === '24.csv')!;
    assert.match(
      puzzles.message,
      /^not a results file \(no samples read\): Game-of-24 puzzles, read only for the questions/,
    );
    const md = summary.diagnostics.filter((d) => d.message.includes('.md file'));
    assert.deepEqual(
      md.map((d) => d.message),
      ['not a results file: 2 .md files not read (README.md, docs/more.md)'],
    );
    assert.ok(
      summary.diagnostics.some(
        (d) => d.message === 'not a results file: 2 .png files not read (logs/plot2.png, plot.png)',
      ),
    );
    assert.ok(
      summary.diagnostics.some(
        (d) => d.message === 'not a results file: 1 file without an extension not read (LICENSE)',
      ),
    );
    // the next pass says it once, not twice; a file removed is no longer named
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, '24.csv'));
    const again = await indexFolder(index, dir);
    assert.equal(again.diagnostics.filter((d) => d.message.includes('.md file')).length, 1);
    assert.equal(again.diagnostics.filter((d) => d.file === '24.csv').length, 0);
    index.close();
  });

  test('real tot-game24: 24.csv (the puzzles, no samples) and LICENSE are named, the three logs read', async (t) => {
    const root = join(REAL, 'tot-game24');
    if (!existsSync(root)) return t.skip('real data folder not found');
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, root);
    assert.equal(index.db.prepare('SELECT count(*) FROM files WHERE format IS NOT NULL').pluck().get(), 3);
    const csv = summary.diagnostics.filter((d) => d.file === '24.csv');
    assert.equal(csv.length, 1);
    assert.equal(csv[0].severity, 'info');
    assert.equal(
      csv[0].message,
      'not a results file (no samples read): Game-of-24 puzzles, read only for the questions of the Tree-of-Thought logs under its folder',
    );
    assert.ok(summary.diagnostics.some((d) => d.file === 'LICENSE' && d.severity === 'info'));
    index.close();
  });
});
