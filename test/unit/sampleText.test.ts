// sqlite-parity: skip — sample text read back from the results files
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { RECLAIM_KEY, SCHEMA_VERSION } from '../../src/core/index/schema';
import { AnnotationStore } from '../../src/core/index/annotations';
import { SourceChangedError, readSampleText, readSampleTexts } from '../../src/core/index/sampleText';
import { readLines } from '../../src/core/readers/lines';
import { makeContext, readFile } from '../../src/core/readers';
import type { FormatId } from '../../src/core/model';
import { codePoints, contentHash } from '../../src/core/text/strings';
import { REAL, tempDir } from './helpers';

/** Every (problem, model) pair of an index. */
function pairs(index: TraceIndex): { p: number; m: number }[] {
  return index.db.prepare('SELECT problem_id AS p, model_id AS m FROM samples GROUP BY problem_id, model_id').all() as {
    p: number;
    m: number;
  }[];
}

/**
 * The text each reader produces for every record of every indexed file, read with the readers alone
 * (not through the index), keyed by file, record line and position among the record's samples.
 */
async function readerTexts(index: TraceIndex, root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const files = index.db.prepare('SELECT path, format FROM files WHERE format IS NOT NULL').all() as {
    path: string;
    format: FormatId;
  }[];
  for (const f of files)
    for await (const ev of readFile(makeContext(root, f.path), f.format)) {
      if (ev.kind !== 'problem') continue;
      ev.record.samples.forEach((s, i) => {
        out.set(`${f.path}\u0000${ev.record.line}\u0000${i}`, s.text);
      });
    }
  return out;
}

/** Where each sample of an index is: file, line, position in its record (null without a span), hash, the stored copy. */
function whereOf(
  index: TraceIndex,
): Map<number, { file: string; line: number; recPos: number | null; hash: string; copy: string }> {
  const rows = index.db
    .prepare(
      `SELECT s.id, f.path AS file, s.line, sp.rec_pos AS recPos, s.content_hash AS hash, s.text AS copy
         FROM samples s JOIN files f ON f.id = s.file_id LEFT JOIN sample_spans sp ON sp.sample_id = s.id`,
    )
    .all() as { id: number; file: string; line: number; recPos: number | null; hash: string; copy: string }[];
  return new Map(rows.map((r) => [r.id, r]));
}

describe('sample texts read from the results files', () => {
  const folders = readdirSync(REAL).filter((f) => statSync(join(REAL, f)).isDirectory());

  for (const folder of folders) {
    test(`every sample of the real folder ${folder}: the text read from its file equals the text the reader produced`, async () => {
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, join(REAL, folder));
      const produced = await readerTexts(index, join(REAL, folder));
      const where = whereOf(index);
      let checked = 0;
      for (const { p, m } of pairs(index)) {
        for (const s of await readSampleTexts(index, p, m)) {
          const w = where.get(s.id)!;
          if (w.recPos === null) {
            // whole-document .json and .eval: the copy the index keeps, the reader's text when indexed
            assert.equal(contentHash(s.text), w.hash, `sample ${s.id}`);
          } else {
            // the text the reader produces for that record now, read independently of the index
            assert.equal(s.text, produced.get(`${w.file}\u0000${w.line}\u0000${w.recPos}`), `sample ${s.id}`);
            // and no copy of it in the index (schema migration 11)
            assert.equal(w.copy, '', `sample ${s.id} keeps no copy`);
          }
          assert.equal(codePoints(s.text), index.sample(s.id)!.length, `sample ${s.id}: stored length`);
          // opened alone (the record kept in memory after the first of its samples): the same text
          assert.equal(await readSampleText(index, s.id), s.text, `sample ${s.id} opened alone`);
          checked++;
        }
      }
      const total = index.db.prepare('SELECT count(*) FROM samples').pluck().get() as number;
      assert.equal(checked, total);
      // rewardmath-22-scorers holds scores of solutions whose texts are not in its files: no samples
      if (folder !== 'rewardmath-22-scorers') assert.ok(total > 0);
      // the line-based files are read from the file, not from the copy
      const spans = index.db
        .prepare(
          `SELECT count(*) FROM samples s JOIN files f ON f.id = s.file_id JOIN sample_spans sp ON sp.sample_id = s.id
            WHERE f.path NOT LIKE '%.json' AND f.path NOT LIKE '%.eval'`,
        )
        .pluck()
        .get() as number;
      const lineBased = index.db
        .prepare(
          `SELECT count(*) FROM samples s JOIN files f ON f.id = s.file_id
            WHERE f.path LIKE '%.jsonl' OR f.path LIKE '%.ndjson'`,
        )
        .pluck()
        .get() as number;
      assert.equal(spans, lineBased);
      index.close();
    });
  }

  test('the parallel reader carries each record span across threads (real rlvr-probe-gsm8k run)', async () => {
    const run = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, run, { parallelReadMinBytes: 0 });
    const produced = await readerTexts(index, run);
    const where = whereOf(index);
    let n = 0;
    for (const { p, m } of pairs(index)) {
      for (const s of await readSampleTexts(index, p, m)) {
        const w = where.get(s.id)!;
        assert.equal(s.text, produced.get(`${w.file}\u0000${w.line}\u0000${w.recPos}`));
        n++;
      }
    }
    assert.equal(n, 480);
    index.close();
  });

  test('line offsets: reading a line range gives exactly that line (CRLF, BOM, multi-byte text, blank lines)', async () => {
    const dir = tempDir();
    const file = join(dir, 'x.jsonl');
    writeFileSync(file, '\uFEFF{"a":"é"}\r\n\n  \n{"b":"面积"}\n{"c":1}');
    const lines = [];
    for await (const l of readLines(file)) lines.push(l);
    assert.deepEqual(
      lines.map((l) => [l.line, l.text, l.offset, l.bytes]),
      [
        [1, '{"a":"é"}', 0, 14], // BOM 3 + 10 bytes + \r
        [4, '{"b":"面积"}', 19, 14], // 2 blank lines (1 + 3 bytes) after line 1's \n at 14
        [5, '{"c":1}', 34, 7],
      ],
    );
    const whole = readFileSync(file);
    for (const l of lines) {
      const range = { start: l.offset, end: l.offset + (l.bytes as number) };
      const again = [];
      for await (const x of readLines(file, { range })) again.push(x.text);
      assert.deepEqual(again, [l.text]);
      // the same bytes given already read (sampleText.ts reads a record itself): the same line, the file not opened
      const given = [];
      for await (const x of readLines(join(dir, 'not-there.jsonl'), {
        range,
        bytes: whole.subarray(range.start, range.end),
      }))
        given.push([x.line, x.text, x.offset, x.bytes]);
      assert.deepEqual(given, [[1, l.text, l.offset, l.bytes]]);
    }
    // small chunks: lines across chunk boundaries keep their offsets
    const small = [];
    for await (const l of readLines(file, { chunkBytes: 4 })) small.push([l.offset, l.bytes]);
    assert.deepEqual(
      small,
      lines.map((l) => [l.offset, l.bytes]),
    );
  });
});

describe('a results file changed after indexing', () => {
  /** A folder with one rollouts file: 3 problems x 2 samples. */
  function folder(): { dir: string; file: string; lines: string[] } {
    const dir = tempDir();
    const file = join(dir, 'run.jsonl');
    const lines = [0, 1, 2].map((q) =>
      JSON.stringify({
        qid: q,
        question: `q${q}`,
        gold: '1',
        model_name: 'm',
        model_revision: 'main',
        rollouts: [0, 1].map((i) => ({ rollout: i, text: `text ${q}.${i} 面积`, correct: i === 0 })),
      }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    return { dir, file, lines };
  }

  async function firstSampleOfProblem(index: TraceIndex, problemId: string): Promise<number> {
    const p = index.listProblems({ kind: 'all' }).find((x) => x.problemId === problemId)!;
    return index.samples(p.id, index.models()[0].id)[1].id;
  }

  const edits: [string, (f: { file: string; lines: string[] }) => void][] = [
    [
      'a text edited in place',
      ({ file }) => writeFileSync(file, readFileSync(file, 'utf8').replace('text 1.1', 'TEXT 1.1')),
    ],
    [
      'a line inserted before (offsets shift)',
      ({ file, lines }) => writeFileSync(file, `{"qid":9}\n${lines.join('\n')}\n`),
    ],
    ['the file truncated', ({ file }) => truncateSync(file, 10)],
    ['the file removed', ({ file }) => rmSync(file)],
  ];
  test('a sample read again after its record was read (kept in memory) sees an edit that keeps the size and times', async () => {
    const f = folder();
    const index = TraceIndex.open(join(f.dir, 'index.db'));
    await indexFolder(index, f.dir);
    const id = await firstSampleOfProblem(index, '1');
    const p = index.sample(id)!.problemId;
    const m = index.models()[0].id;
    // both samples of the record, one after the other: the second comes from the record read for the first
    assert.equal(await readSampleText(index, id), 'text 1.1 面积');
    assert.equal(await readSampleText(index, id - 1), 'text 1.0 面积');
    assert.deepEqual(
      (await readSampleTexts(index, p, m)).map((s) => s.text),
      ['text 1.0 面积', 'text 1.1 面积'],
    );
    // same length, same modification time: only the bytes tell
    const before = statSync(f.file);
    writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('text 1.1', 'text 1.7'));
    utimesSync(f.file, before.atime, before.mtime);
    assert.equal(statSync(f.file).size, before.size);
    await assert.rejects(readSampleText(index, id), SourceChangedError);
    await assert.rejects(readSampleTexts(index, p, m), SourceChangedError);
    // the other problems' records are unchanged: still read
    const other = await firstSampleOfProblem(index, '2');
    assert.equal(await readSampleText(index, other), 'text 2.1 面积');
    // put back byte for byte: the text is the indexed one again
    writeFileSync(f.file, `${f.lines.join('\n')}\n`);
    assert.equal(await readSampleText(index, id), 'text 1.1 面积');
    index.close();
  });

  for (const [what, edit] of edits) {
    test(`${what}: reading the text throws an error naming the file; re-indexing restores it, annotations kept`, async () => {
      const f = folder();
      const index = TraceIndex.open(join(f.dir, 'index.db'));
      await indexFolder(index, f.dir);
      const id = await firstSampleOfProblem(index, '1');
      // no copy in the index to fall back on: the text comes from the file alone
      assert.equal(index.db.prepare('SELECT text FROM samples WHERE id = ?').pluck().get(id), '');
      assert.equal(await readSampleText(index, id), 'text 1.1 面积');
      const store = new AnnotationStore(index);
      store.set(store.refOf(id)!, ['checked'], 'note');
      edit(f);
      await assert.rejects(readSampleText(index, id), (e: unknown) => {
        assert.ok(e instanceof SourceChangedError);
        assert.equal(e.file, 'run.jsonl');
        assert.match(e.message, /^run\.jsonl changed since it was indexed/);
        return true;
      });
      const p = index.sample(id)!.problemId;
      await assert.rejects(readSampleTexts(index, p, index.models()[0].id), SourceChangedError);
      if (what === 'the file removed') {
        index.close();
        return;
      }
      // re-indexing (what the extension offers) gives the current text; the annotation stays where its sample is
      writeFileSync(f.file, `${f.lines.join('\n')}\n`);
      appendFileSync(f.file, '');
      await indexFolder(index, f.dir);
      const again = await firstSampleOfProblem(index, '1');
      assert.equal(await readSampleText(index, again), 'text 1.1 面积');
      assert.deepEqual(store.get(store.refOf(again)!)?.labels, ['checked']);
      index.close();
    });
  }

  test('a same-size edit with the old modification time put back: caught on read, and the next pass re-reads the file', async () => {
    const f = folder();
    const then = 1_700_000_000; // whole seconds: put back exactly
    utimesSync(f.file, then, then);
    const index = TraceIndex.open(join(f.dir, 'index.db'));
    await indexFolder(index, f.dir);
    const id = await firstSampleOfProblem(index, '1');
    const before = statSync(f.file);
    writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('text 1.1', 'TEXT 1.1'));
    utimesSync(f.file, then, then);
    assert.equal(statSync(f.file).size, before.size);
    assert.equal(statSync(f.file).mtimeMs, before.mtimeMs);
    // a pass alone cannot see this edit (size and mtime are what it recorded): the text read catches it
    await indexFolder(index, f.dir);
    await assert.rejects(readSampleText(index, id), SourceChangedError);
    // ... and marks the file, so the pass the user is offered reads it again (before the fix it was
    // skipped forever and the text stayed unreadable)
    const summary = await indexFolder(index, f.dir);
    assert.equal(summary.filesSkipped, 0);
    assert.equal(await readSampleText(index, await firstSampleOfProblem(index, '1')), 'TEXT 1.1 面积');
    index.close();
  });

  /**
   * The folder indexed, then put back to what schema 10 stored (a copy of every text, no text_length
   * column), `noSpans` also without spans (an index from before migration 9 not read again yet).
   */
  async function schema10(f: { dir: string }, noSpans: boolean): Promise<string> {
    const db = join(f.dir, 'index.db');
    const index = TraceIndex.open(db);
    await indexFolder(index, f.dir);
    const store = new AnnotationStore(index);
    store.set(store.refOf(await firstSampleOfProblem(index, '2'))!, ['checked'], 'kept');
    // the copies schema 10 kept: the readers' texts (with spans: made long, so that emptying them frees pages)
    const texts = await readerTexts(index, f.dir);
    const set = index.db.prepare('UPDATE samples SET text = ? WHERE id = ?');
    for (const [id, w] of whereOf(index))
      set.run(`${texts.get(`${w.file}\u0000${w.line}\u0000${w.recPos}`)}${noSpans ? '' : ' '.repeat(50_000)}`, id);
    if (noSpans) index.db.exec('DELETE FROM sample_spans');
    index.db.exec('ALTER TABLE samples DROP COLUMN text_length');
    index.db.pragma('user_version = 10');
    index.close();
    return db;
  }

  test('migration 11 (an index of schema 10): the copies of samples with a span are emptied, lengths stored, annotations kept', async () => {
    const f = folder();
    const db = await schema10(f, false);
    const before = statSync(db).size;
    const index = TraceIndex.open(db);
    assert.equal(index.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(index.db.prepare(`SELECT count(*) FROM samples WHERE text <> ''`).pluck().get(), 0);
    const id = await firstSampleOfProblem(index, '2');
    // the length of the copy schema 10 kept: 'text 2.1 面积' (11 code points, counted by hand) and the padding
    assert.equal(index.sample(id)!.length, 11 + 50_000);
    assert.equal(await readSampleText(index, id), 'text 2.1 面积');
    const store = new AnnotationStore(index);
    const a = store.get(store.refOf(id)!)!;
    assert.deepEqual([a.labels, a.note], [['checked'], 'kept']);
    // the space is given back at the end of the next indexing pass (which reads the files again for
    // migration 13's search witnesses; migration 11 itself asks for no reading)
    assert.equal(index.db.prepare('SELECT count(*) FROM meta WHERE key = ?').pluck().get(RECLAIM_KEY), 1);
    const pass = await indexFolder(index, f.dir);
    assert.equal(pass.filesIndexed, index.db.prepare('SELECT count(*) FROM files').pluck().get());
    assert.equal(index.db.prepare('SELECT count(*) FROM meta WHERE key = ?').pluck().get(RECLAIM_KEY), 0);
    const idAfter = await firstSampleOfProblem(index, '2');
    assert.deepEqual(store.get(store.refOf(idAfter)!)?.labels, ['checked']);
    index.close();
    // the space of 6 copies of 50 000 bytes each is given back (VACUUM): the file is less than half its size
    assert.ok(before > 300_000, `schema 10 file ${before} bytes`);
    assert.ok(statSync(db).size < before / 2, `${statSync(db).size} of ${before} bytes`);
    // opened again: nothing more to do
    const again = TraceIndex.open(db);
    assert.equal(await readSampleText(again, idAfter), 'text 2.1 面积');
    again.close();
  });

  test('migration 11 on an index without spans keeps the copies (read from them, even with the file gone) until the next pass', async () => {
    const f = folder();
    const db = await schema10(f, true);
    const index = TraceIndex.open(db);
    assert.equal(index.db.prepare(`SELECT count(*) FROM samples WHERE text = ''`).pluck().get(), 0);
    const id = await firstSampleOfProblem(index, '2');
    // 'text 2.1 面积': 11 code points, counted by hand
    assert.equal(index.sample(id)!.length, 11);
    const saved = readFileSync(f.file);
    rmSync(f.file);
    assert.equal(await readSampleText(index, id), 'text 2.1 面积');
    // the next pass reads the file again: spans written, copies gone
    writeFileSync(f.file, saved);
    index.db.exec(`UPDATE files SET status = 'partial'`);
    await indexFolder(index, f.dir);
    assert.equal(index.db.prepare(`SELECT count(*) FROM samples WHERE text <> ''`).pluck().get(), 0);
    const again = await firstSampleOfProblem(index, '2');
    assert.equal(await readSampleText(index, again), 'text 2.1 面积');
    index.close();
  });

  test('migration 11 runs again on a database that has its column (user_version set back by hand)', async () => {
    const f = folder();
    const db = await schema10(f, false);
    const index = TraceIndex.open(db);
    assert.equal(index.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    // the column exists once, whatever user_version said
    index.db.pragma('user_version = 10');
    index.close();
    const twice = TraceIndex.open(db);
    assert.equal(twice.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(await readSampleText(twice, await firstSampleOfProblem(twice, '2')), 'text 2.1 面积');
    twice.close();
  });
});
