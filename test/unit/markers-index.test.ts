import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MARKERS_LEXICON_KEY, indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { DEFAULT_LEXICON, MARKERS_FILE, MarkerCounter, mergeLexicon } from '../../src/core/text/markers';
import { rolloutLine, writeFolder } from './helpers';

const TEXTS = [
  'Wait, actually the sum is 12. Let me check: 5 + 7 = 12. Verified.',
  'First, we need to find x. Working backwards from 24, x = 6.',
  'ＷＡＩＴ… hmm — let’s verify: 6 × 4 = 24 ✓ 等等',
  'The answer is 42.',
];

function folder(): string {
  return writeFolder({
    'm.jsonl': [0, 1].map((q) => rolloutLine(q, 'm', [true, false, true, false], (_q, i) => TEXTS[i])).join('\n'),
  });
}

type Row = { text_length: number; piece_count: number; markers: string };
const rows = (index: TraceIndex) =>
  index.db
    .prepare('SELECT text_length, piece_count, markers FROM samples ORDER BY problem_id, sample_index')
    .all() as Row[];

describe('measures stored at index time', () => {
  test('each sample has its code points, pieces and marker counts, the same on one thread and with the parallel reader', async () => {
    const dir = folder();
    const counter = new MarkerCounter(DEFAULT_LEXICON);
    const expected = [...TEXTS, ...TEXTS].map((t) => {
      const m = counter.measure(t);
      return { text_length: m.chars, piece_count: m.pieces, markers: m.markers.join(',') };
    });
    // hand-checked: sample 0 holds wait, actually (backtracking) and let me check (verification); "Verified" is
    // not a phrase; sample 1 a subgoal ("we need to find") and backward chaining ("working backwards")
    assert.equal(expected[0].markers, '1,2,0,0');
    assert.equal(expected[1].markers, '0,0,1,1');
    assert.equal(expected[2].markers, '1,2,0,0');
    assert.equal(expected[3].markers, '0,0,0,0');
    for (const parallelReadMinBytes of [Number.POSITIVE_INFINITY, 0]) {
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir, { parallelReadMinBytes });
      assert.deepEqual(rows(index), expected, `parallelReadMinBytes ${parallelReadMinBytes}`);
      assert.deepEqual(JSON.parse(index.getMeta(MARKERS_LEXICON_KEY) ?? 'null'), DEFAULT_LEXICON);
      index.close();
    }
  });

  test("the folder's lexicon counts too; a change of it reads every file again; a malformed one is a warning", async () => {
    const dir = folder();
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const again = await indexFolder(index, dir);
    assert.equal(again.filesIndexed, 0, 'unchanged lexicon: nothing read again');
    mkdirSync(join(dir, '.trace-inspector'));
    const additions = { behaviours: { answer: { phrases: ['the answer is'] } } };
    writeFileSync(join(dir, MARKERS_FILE), JSON.stringify(additions));
    const changed = await indexFolder(index, dir);
    assert.equal(changed.filesIndexed, 1, 'the lexicon changed: the file is read again');
    assert.deepEqual(
      rows(index).map((r) => r.markers),
      ['1,2,0,0,0', '0,0,1,1,0', '1,2,0,0,0', '0,0,0,0,1', '1,2,0,0,0', '0,0,1,1,0', '1,2,0,0,0', '0,0,0,0,1'],
    );
    assert.deepEqual(
      JSON.parse(index.getMeta(MARKERS_LEXICON_KEY) ?? 'null'),
      mergeLexicon(DEFAULT_LEXICON, additions).lexicon,
    );
    writeFileSync(join(dir, MARKERS_FILE), '{"behaviours": {"answer": {"phrases": "the answer"}}}');
    const bad = await indexFolder(index, dir);
    assert.equal(bad.filesIndexed, 1, 'back to the shipped lexicon: read again');
    assert.ok(
      bad.diagnostics.some(
        (d) => d.file === MARKERS_FILE && d.severity === 'warning' && /answer\.phrases must be a list/.test(d.message),
      ),
    );
    assert.equal(rows(index)[3].markers, '0,0,0,0');
    index.close();
  });
});
