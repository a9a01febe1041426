import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { AnnotationStore } from '../../src/core/index/annotations';
import { SourceChangedError, readSampleText, readSampleTexts } from '../../src/core/index/sampleText';
import { readLines } from '../../src/core/readers/lines';
import { REAL, tempDir } from './helpers';

/** Every (problem, model) pair of an index. */
function pairs(index: TraceIndex): { p: number; m: number }[] {
  return index.db.prepare('SELECT problem_id AS p, model_id AS m FROM samples GROUP BY problem_id, model_id').all() as {
    p: number;
    m: number;
  }[];
}

describe('sample texts read from the results files', () => {
  const folders = readdirSync(REAL).filter((f) => statSync(join(REAL, f)).isDirectory());

  for (const folder of folders) {
    test(`every sample of the real folder ${folder}: the text read from its file equals the text the reader produced`, async () => {
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, join(REAL, folder));
      let checked = 0;
      for (const { p, m } of pairs(index)) {
        for (const s of await readSampleTexts(index, p, m)) {
          // the reader's text, as the index stored it while indexing
          assert.equal(s.text, index.sample(s.id)!.text, `sample ${s.id}`);
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
    let n = 0;
    for (const { p, m } of pairs(index)) {
      for (const s of await readSampleTexts(index, p, m)) {
        assert.equal(s.text, index.sample(s.id)!.text);
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
    for (const l of lines) {
      const again = [];
      for await (const x of readLines(file, { range: { start: l.offset, end: l.offset + (l.bytes as number) } }))
        again.push(x.text);
      assert.deepEqual(again, [l.text]);
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
  for (const [what, edit] of edits) {
    test(`${what}: reading the text throws an error naming the file; re-indexing restores it, annotations kept`, async () => {
      const f = folder();
      const index = TraceIndex.open(join(f.dir, 'index.db'));
      await indexFolder(index, f.dir);
      const id = await firstSampleOfProblem(index, '1');
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

  test('an index from before migration 9 (no spans) reads the copy it keeps', async () => {
    const f = folder();
    const index = TraceIndex.open(join(f.dir, 'index.db'));
    await indexFolder(index, f.dir);
    index.db.exec('DELETE FROM sample_spans');
    rmSync(f.file);
    const id = await firstSampleOfProblem(index, '2');
    assert.equal(await readSampleText(index, id), 'text 2.1 面积');
    index.close();
  });
});
