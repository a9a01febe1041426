/**
 * The Problems view's row for a folder with no sample says what is true (issue 34 item 5): files no reader
 * recognises are counted and the click shows why, not "No samples indexed yet. Index this folder".
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type * as TreeModule from '../../src/extension/problemTree';
import { writeFolder } from './helpers';
import { loadWithStub } from './vscodeStub';

const { emptyFolderRow } = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');

describe("the Problems view's row of a folder without samples", () => {
  test('three JSON files no reader recognises: "No reader recognised 3 files: see why", the first reason, Problems', async () => {
    const dir = writeFolder({
      'a/config.json': JSON.stringify({ learning_rate: 1e-5, epochs: 3 }),
      'b/notes.json': JSON.stringify({ author: 'x', date: '2026-01-01' }),
      'c/table.jsonl': `${JSON.stringify({ step: 1, loss: 0.5 })}\n${JSON.stringify({ step: 2, loss: 0.4 })}\n`,
    });
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const files = Object.values(index.resultFilesByFormat()).reduce((a, n) => a + n, 0);
    assert.equal(files, 0);
    const row = emptyFolderRow(false, files, index.diagnostics());
    assert.equal(row.type, 'message');
    if (row.type !== 'message') return;
    assert.equal(row.text, 'No reader recognised 3 files: see why');
    assert.match(row.description ?? '', /^a\/config\.json: no reader recognises .*keys: learning_rate, epochs/);
    assert.equal(row.command?.command, 'workbench.actions.view.problems');
    index.close();
  });

  test('indexing, records that all failed, and a folder never indexed keep their own rows', () => {
    const d = {
      file: 'x.json',
      line: 0,
      message: 'not a results file: no reader recognises a JSON object',
      severity: 'info' as const,
    };
    assert.deepEqual(emptyFolderRow(true, 0, [d]), { type: 'message', text: 'Indexing…' });
    const failed = emptyFolderRow(false, 2, [d]);
    assert.ok(
      failed.type === 'message' &&
        failed.text.startsWith('No samples: 2 results files were read but every record failed'),
    );
    const none = emptyFolderRow(false, 0, []);
    assert.ok(none.type === 'message' && none.text === 'No samples indexed yet. Index this folder');
    assert.equal(none.type === 'message' && none.command?.command, 'traceInspector.index');
    const one = emptyFolderRow(false, 0, [d, { ...d, line: 3 }]);
    assert.ok(one.type === 'message' && one.text === 'No reader recognised 1 file: see why', JSON.stringify(one));
  });
});
