/**
 * The parallel reader (parse on a worker thread, texts as UTF-8 bytes bound with CAST AS TEXT) must
 * give exactly the index the single-thread path gives: same samples, texts, hashes, verdicts, scores,
 * diagnostics. Tests force it on every file (`parallelReadMinBytes: 0`) and compare whole databases.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { readFileParallel, readerWorkerPath } from '../../src/core/index/parallelRead';
import type { ReadEvent } from '../../src/core/model';
import { readFile } from '../../src/core/readers';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { contentHash } from '../../src/core/text/strings';
import { REAL, tempDir, textsById } from './helpers';

/** Every sample row with its model and problem keys (row ids differ between databases). */
function dump(index: TraceIndex): unknown[] {
  return index.db
    .prepare(
      `SELECT m.key AS model, p.key AS problem, s.sample_index, s.line, s.correct, s.extracted_answer, s.reward_score,
              s.finish_reason, s.token_count, s.content_hash, s.text, typeof(s.text) AS type, s.text_length, f.path
         FROM samples s JOIN models m ON m.id = s.model_id JOIN problems p ON p.id = s.problem_id JOIN files f ON f.id = s.file_id
        ORDER BY f.path, s.id`,
    )
    .all();
}

async function both(root: string): Promise<{ seq: TraceIndex; par: TraceIndex }> {
  const seq = TraceIndex.open(':memory:');
  await indexFolder(seq, root, { parallelReadMinBytes: Infinity });
  const par = TraceIndex.open(':memory:');
  await indexFolder(par, root, { parallelReadMinBytes: 0 });
  return { seq, par };
}

describe('parallel reader', () => {
  test('the reader thread is built next to the indexer (out/ and dist/), so tests exercise it', () => {
    assert.ok(existsSync(readerWorkerPath()), readerWorkerPath());
  });

  for (const folder of [
    'rlvr-probe-gsm8k',
    'qwen25-math-eval-example',
    'tot-game24',
    'humaneval-samples-flat',
    'inspect-logs',
  ]) {
    test(`${folder}: the same index as reading on one thread`, async () => {
      const { seq, par } = await both(join(REAL, folder));
      const a = dump(seq);
      assert.ok(a.length > 0);
      assert.deepEqual(dump(par), a);
      assert.deepEqual(par.diagnostics(), seq.diagnostics());
      assert.deepEqual(par.allStats(), seq.allStats());
      assert.equal(par.db.prepare("SELECT count(*) FROM samples WHERE typeof(text) <> 'text'").pluck().get(), 0);
      seq.close();
      par.close();
    });
  }

  test('hostile texts survive the UTF-8 round trip: NUL, lone surrogates, emoji, RTL overrides, invalid bytes, bad lines', async () => {
    const dir = tempDir();
    const texts = [
      'a\u0000b',
      'lone \ud800 high',
      'lone \udc00 low',
      'emoji 😀 and é',
      '\u202eevil\u202c',
      '',
      '<script>alert(1)</script>',
    ];
    const line = (qid: number, ts: string[]) =>
      JSON.stringify({
        qid,
        model_name: 'm',
        rollouts: ts.map((text, i) => ({ rollout: i, correct: i % 2 === 0, text })),
      });
    // A bad line between good ones, and raw invalid UTF-8 inside a JSON string.
    const raw = Buffer.concat([
      Buffer.from(`${line(0, texts)}\n{not json\n`),
      Buffer.from(
        '{"qid": 2, "model_name": "m", "rollouts": [{"rollout": 0, "correct": true, "text": "bad \xff\xfe bytes"}]}\n',
        'latin1',
      ),
      Buffer.from(`${line(3, ['ok'])}\n`),
    ]);
    writeFileSync(join(dir, 'r.jsonl'), raw);
    const { seq, par } = await both(dir);
    assert.deepEqual(dump(par), dump(seq));
    assert.deepEqual(par.diagnostics(), seq.diagnostics());
    // the bad line, and the two invalid bytes of line 3 (counted, not silently replaced)
    assert.deepEqual(
      par.diagnostics().map((d) => [d.line, d.severity, d.message.replace(/ \(.*/, '')]),
      [
        [2, 'error', 'malformed JSON'],
        [3, 'warning', 'invalid UTF-8: 2 bytes replaced by U+FFFD'],
      ],
    );
    // Each text reads back from the file as the single-thread path read it, its hash is the hash of
    // that text and its stored length its length in code points (the index keeps no copy to compare).
    const read = await textsById(par);
    const rows = (
      par.db.prepare('SELECT id, content_hash, text_length FROM samples ORDER BY id').all() as {
        id: number;
        content_hash: string;
        text_length: number;
      }[]
    ).map((r) => ({ ...r, text: read.get(r.id) as string }));
    // counted by hand: 'a', NUL, 'b'; 'emoji ' 6 + one emoji + ' and é' 6
    assert.deepEqual([rows[0].text_length, rows[3].text_length], [3, 13]);
    assert.equal(rows[0].text, 'a\u0000b');
    assert.equal(rows[3].text, 'emoji 😀 and é');
    // the reader's own text: a lone surrogate written as a JSON escape stays (the UTF-8 copy the index
    // kept before schema migration 11 had U+FFFD there; the content hash, of the UTF-8 bytes, is the same)
    assert.equal(rows[1].text, 'lone \ud800 high');
    assert.equal(contentHash('lone \ud800 high'), contentHash('lone \ufffd high'));
    assert.equal(rows[7].text, 'bad \ufffd\ufffd bytes');
    for (const r of rows) assert.equal(r.content_hash, contentHash(r.text));
    seq.close();
    par.close();
  });

  test('a reader thread that fails mid-file: the file goes on on this thread, same events, nothing twice', async () => {
    const dir = tempDir();
    const line = (qid: number, n: number) =>
      JSON.stringify({
        qid,
        model_name: 'm',
        rollouts: Array.from({ length: n }, (_, i) => ({ rollout: i, correct: i % 2 === 0, text: `q${qid} s${i} é` })),
      });
    // 4 batches of 2000 samples, a bad line, more records.
    const lines = [
      ...Array.from({ length: 16 }, (_, q) => line(q, 500)),
      '{broken',
      ...Array.from({ length: 4 }, (_, q) => line(17 + q, 3)),
    ];
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const ctx = { root: dir, relPath: 'r.jsonl', absPath: file, run: '' };
    const flat = (evs: ReadEvent[]) =>
      evs.map((e) =>
        e.kind === 'diagnostic'
          ? e.diagnostic
          : e.kind === 'ungrade'
            ? e
            : {
                line: e.record.line,
                id: e.record.problemId,
                samples: e.record.samples.map((x) => [x.text, x.correct, x.sampleIndex]),
              },
      );
    const expected: ReadEvent[] = [];
    for await (const ev of readFile(ctx, 'rollouts')) expected.push(ev);
    for (const failAfterBatches of [0, 2]) {
      const got: ReadEvent[] = [];
      const fallbacks: { delivered: number; reason: string }[] = [];
      for await (const ev of readFileParallel(ctx, 'rollouts', {
        failAfterBatches,
        onFallback: (delivered, reason) => fallbacks.push({ delivered, reason }),
      }))
        got.push(ev);
      assert.equal(fallbacks.length, 1, 'the reader thread failed once');
      assert.match(fallbacks[0].reason, new RegExp(`failure injected after ${failAfterBatches} batches`));
      // 4 problems of 500 samples per batch
      assert.equal(fallbacks[0].delivered, 4 * failAfterBatches);
      assert.deepEqual(flat(got), flat(expected));
    }
    // Without a failure, no fallback and the same events.
    const fallbacks: unknown[] = [];
    const got: ReadEvent[] = [];
    for await (const ev of readFileParallel(ctx, 'rollouts', { onFallback: (d) => fallbacks.push(d) })) got.push(ev);
    assert.deepEqual(fallbacks, []);
    assert.deepEqual(flat(got), flat(expected));
  });

  test('an indexing pass uses a small page cache and gives the connection its own setting back', async () => {
    const index = TraceIndex.open(':memory:');
    index.db.pragma('cache_size = -12345');
    await indexFolder(index, join(REAL, 'tot-game24'));
    assert.equal(index.db.pragma('cache_size', { simple: true }), -12345);
    index.close();
  });

  test('cancelled while a file is read on the worker: the file stays partial and the next pass completes it', async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 400 }, (_, q) =>
      JSON.stringify({
        qid: q,
        model_name: 'm',
        rollouts: Array.from({ length: 50 }, (_, i) => ({
          rollout: i,
          correct: i % 3 === 0,
          text: `q${q} s${i} ${'x'.repeat(200)}`,
        })),
      }),
    );
    writeFileSync(join(dir, 'big.jsonl'), `${lines.join('\n')}\n`);
    const index = TraceIndex.open(':memory:');
    const controller = new AbortController();
    const first = await indexFolder(index, dir, {
      parallelReadMinBytes: 0,
      batchSize: 2000,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'index' && p.samples >= 2000) controller.abort();
      },
    });
    assert.equal(first.cancelled, true);
    assert.ok(first.samples > 0 && first.samples < 20000, `${first.samples} samples after the cancel`);
    assert.equal(index.db.prepare('SELECT status FROM files').pluck().get(), 'partial');
    const second = await indexFolder(index, dir, { parallelReadMinBytes: 0 });
    assert.equal(second.cancelled, false);
    assert.equal(second.samples, 20000);
    assert.equal(index.db.prepare('SELECT status FROM files').pluck().get(), 'ready');
    index.close();
  });
});

describe('full-text rows held back and inserted together (writer.ts FTS_ROWS_AT_ONCE)', () => {
  /** 60 problems x 150 samples; sample i of problem q holds the word `marker` when (q + i) % 7 === 0, and `gen<g>`. */
  const write = (dir: string, g: number) => {
    const lines = Array.from({ length: 60 }, (_, q) =>
      JSON.stringify({
        qid: q,
        model_name: 'm',
        rollouts: Array.from({ length: 150 }, (_, i) => ({
          rollout: i,
          correct: i % 2 === 0,
          text: `q${q} s${i} gen${g}${(q + i) % 7 === 0 ? ' marker' : ''} ≤ ${'y'.repeat(40)}`,
        })),
      }),
    );
    writeFileSync(join(dir, 'f.jsonl'), `${lines.join('\n')}\n`);
  };
  /** (problem, sample index) of the samples the full-text index finds for `word`, sorted. */
  const found = (index: TraceIndex, word: string) =>
    (
      index.db
        .prepare(
          `SELECT p.problem_id AS q, s.sample_index AS i FROM samples_fts f JOIN samples s ON s.id = f.rowid
             JOIN problems p ON p.id = s.problem_id WHERE samples_fts MATCH ? ORDER BY 0 + p.problem_id, s.sample_index`,
        )
        .all(`"${word}"`) as { q: string; i: number }[]
    ).map((r) => `${r.q}/${r.i}`);
  /** What `found` must give for `marker` among the indexed (problem, sample) pairs, computed from the generator's rule. */
  const expectedMarkers = (index: TraceIndex) =>
    (
      index.db
        .prepare(
          'SELECT p.problem_id AS q, s.sample_index AS i FROM samples s JOIN problems p ON p.id = s.problem_id ORDER BY 0 + p.problem_id, s.sample_index',
        )
        .all() as { q: string; i: number }[]
    )
      .filter((r) => (Number(r.q) + r.i) % 7 === 0)
      .map((r) => `${r.q}/${r.i}`);

  for (const parallelReadMinBytes of [0, Number.POSITIVE_INFINITY]) {
    const how = parallelReadMinBytes === 0 ? 'reader thread' : 'one thread';
    test(`${how}: a new file (batches), a replaced file (one transaction of 9000 samples) and a cancelled pass keep one full-text row per sample`, async () => {
      const dir = tempDir();
      write(dir, 1);
      const index = TraceIndex.open(':memory:');
      const ftsRows = () => index.db.prepare('SELECT count(*) FROM samples_fts').pluck().get() as number;
      // a new file committed in batches of 2500 (not a multiple of the rows held back)
      await indexFolder(index, dir, { parallelReadMinBytes, batchSize: 2500 });
      assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get(), 9000);
      assert.equal(ftsRows(), 9000);
      // by hand: problem q has 22 such samples when i0 = (7 - q % 7) % 7 <= 2 (q % 7 in 0, 5, 6: 9 + 8 + 8 = 25
      // problems of 60), else 21: 60 x 21 + 25 = 1285
      assert.equal(found(index, 'marker').length, 1285);
      assert.deepEqual(found(index, 'marker'), expectedMarkers(index));
      assert.equal(found(index, 'gen1').length, 9000);
      // the file changes: replaced in one transaction, the old rows gone from the full-text index
      write(dir, 2);
      await indexFolder(index, dir, { parallelReadMinBytes, batchSize: 2500 });
      assert.equal(ftsRows(), 9000);
      assert.equal(found(index, 'gen1').length, 0);
      assert.equal(found(index, 'gen2').length, 9000);
      assert.deepEqual(found(index, 'marker'), expectedMarkers(index));
      // cancelled after the first batches of a new copy: the committed samples, each with its row
      write(dir, 3);
      index.db.exec(
        'DELETE FROM samples_fts; DELETE FROM samples; DELETE FROM sample_spans; DELETE FROM files; DELETE FROM stats',
      );
      const controller = new AbortController();
      const r = await indexFolder(index, dir, {
        parallelReadMinBytes,
        batchSize: 2500,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'index' && p.samples >= 2500) controller.abort();
        },
      });
      assert.equal(r.cancelled, true);
      const kept = index.db.prepare('SELECT count(*) FROM samples').pluck().get() as number;
      assert.ok(kept >= 2500 && kept < 9000, `${kept} samples kept`);
      assert.equal(ftsRows(), kept);
      assert.equal(found(index, 'gen3').length, kept);
      assert.deepEqual(found(index, 'marker'), expectedMarkers(index));
      index.close();
    });
  }
});
