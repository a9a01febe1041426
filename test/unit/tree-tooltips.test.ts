/**
 * The tooltip of a problem whose record of the model in focus could not be read names the unreadable records.
 *
 * Fresh-user trial 14 finding 4, the tree's side: a problem whose record of the model in focus could not be
 * read showed "No samples from <model> (other models have some)", as if the model had produced nothing. The
 * tooltip line now names the model's unreadable records (real SQLite, a folder written by the test).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type * as TreeModule from '../../src/extension/problemTree';
import { writeFolder } from './helpers';
import { loadWithStub } from './vscodeStub';

const { noRecordText } = loadWithStub<typeof TreeModule>('../../src/extension/problemTree');

const line = (model: string, qid: number) =>
  JSON.stringify({
    qid: String(qid),
    question: `q${qid}`,
    gold: '12',
    model_name: model,
    rollouts: [{ rollout: 0, text: `answer ${qid}`, correct: true }],
  });

// Trial 14 finding 4.
describe('the tooltip of a problem the model in focus has no record of', () => {
  test('names the records of its files that could not be read, since the problem may be one of them', async () => {
    const rl = [0, 1, 2].map((q) => line('rl-model', q));
    rl.push('{"qid": "3" "question": "q3"}'); // line 4: not JSON
    const dir = writeFolder({
      'base-model/rollouts.jsonl': `${[0, 1, 2, 3].map((q) => line('base-model', q)).join('\n')}\n`,
      'rl-model/rollouts.jsonl': `${rl.join('\n')}\n`,
    });
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const model = index.models().find((m) => m.name === 'rl-model');
    assert.ok(model);
    const unreadable = index.unreadableRecords(model.id);
    assert.equal(
      noRecordText('rl-model', unreadable),
      "No samples from rl-model (other models have some); 1 record of its files could not be read (rl-model/rollouts.jsonl:4): this problem's may be among them (see Problems)",
    );
    const base = index.models().find((m) => m.name === 'base-model');
    assert.ok(base);
    // a model whose files were read whole: the line as before
    assert.equal(
      noRecordText('base-model', index.unreadableRecords(base.id)),
      'No samples from base-model (other models have some)',
    );
    index.close();
  });

  test('more than 3 unreadable records: the first 3 named and how many more', () => {
    const d = (line: number) => ({ file: 'a.jsonl', line });
    assert.equal(
      noRecordText('m', [d(2), d(5), d(9), d(11), d(12)]),
      "No samples from m (other models have some); 5 records of its files could not be read (a.jsonl:2, a.jsonl:5, a.jsonl:9, and 2 more): this problem's may be among them (see Problems)",
    );
  });
});
