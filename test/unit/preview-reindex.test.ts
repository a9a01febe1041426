/**
 * The sample preview follows its sample across a re-index of its results file (trial 14 finding 1): a
 * re-index deletes the file's sample rows and writes new ones, so the preview finds its sample again by
 * its keys (problem key, model key, sample index: the keys of a sample tab's URI), shows the new text,
 * and, when the sample is really gone, names it by problem, model and index (never a row id) and says
 * where Next / Previous go on from. Real SQLite, a real folder re-indexed after an edit.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { fileTextSource } from '../../src/core/index/sampleText';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { goneSampleMessage, goneSamplePlace, previewSampleId, samplePreview } from '../../src/extension/panelData';
import { rolloutLine, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';

const text = (q: number, i: number, model: string) => `${model} solution ${q}.${i}`;

describe('sample preview after a re-index', () => {
  test('finds the same sample by its keys with its new row id and its new text', async () => {
    const dir = tempDir('ti-preview-reindex-');
    try {
      const rl = (edited: string) =>
        [0, 1, 2]
          .map((q) =>
            rolloutLine(q, 'rl', [true, false, true], (qq, i, m) => (qq === 2 && i === 1 ? edited : text(qq, i, m))),
          )
          .join('\n');
      // the edited file sorts first: its new rows come after every other file's (row ids are never reused)
      writeFileSync(join(dir, 'a-rl.jsonl'), `${rl(text(2, 1, 'rl'))}\n`);
      writeFileSync(
        join(dir, 'b-base.jsonl'),
        `${[0, 1, 2].map((q) => rolloutLine(q, 'base', [true, false])).join('\n')}\n`,
      );
      const index = TraceIndex.open(':memory:');
      const store = new AnnotationStore(index);
      await indexFolder(index, dir);
      const model = index.models().find((m) => m.name === 'rl')!;
      const problem = index.db.prepare("SELECT id, key FROM problems WHERE problem_id = '2'").get() as {
        id: number;
        key: string;
      };
      const oldId = index.db
        .prepare('SELECT id FROM samples WHERE problem_id = ? AND model_id = ? AND sample_index = 1')
        .pluck()
        .get(problem.id, model.id) as number;
      // what the preview's state holds (problemPanel.ts showSamplePreview: the keys of annotations.refOf)
      const ref = store.refOf(oldId)!;
      const state = { sampleId: oldId, problemKey: ref.problemKey, modelKey: ref.modelKey, sampleIndex: 1 };
      assert.equal(previewSampleId(index, state), oldId, 'before the edit: the row id it was opened with');

      // the sample's text rewritten (longer), as in the trial; the file is then indexed again
      writeFileSync(join(dir, 'a-rl.jsonl'), `${rl('rl solution 2.1, checked again and rewritten')}\n`);
      await indexFolder(index, dir);
      assert.equal(
        index.sample(oldId),
        undefined,
        'the old row is gone (the trial\'s "Sample 37 is not in the index")',
      );
      const newId = previewSampleId(index, state);
      assert.ok(newId !== undefined && newId !== oldId, `new row id ${newId} (was ${oldId})`);
      const p = (await samplePreview(index, store, newId, {}, fileTextSource(index)))!;
      assert.deepEqual(
        [p.problem.problemId, p.sampleIndex, p.model.id, p.text],
        ['2', 1, model.id, 'rl solution 2.1, checked again and rewritten'],
      );

      // problem 2's record removed from the file: the sample is gone; its problem (the base has it) and model remain
      writeFileSync(
        join(dir, 'a-rl.jsonl'),
        `${[0, 1].map((q) => rolloutLine(q, 'rl', [true, false, true], (qq, i, m) => text(qq, i, m))).join('\n')}\n`,
      );
      await indexFolder(index, dir);
      assert.equal(previewSampleId(index, { ...state, sampleId: newId }), undefined);
      const place = goneSamplePlace(index, state);
      assert.deepEqual(place, { problemId: problem.id, modelId: model.id }, 'Next / Previous go on from here');
      const message = goneSampleMessage(index, { ...state, sampleId: newId });
      assert.match(message, /^Sample 1 of problem 2 by rl@main is no longer in the index: its results file changed/);
      assert.ok(!message.includes(String(newId)) && !message.includes(String(oldId)), `no row id: ${message}`);
      assert.match(message, /Next and Previous go on from its problem/);

      // a preview state without keys (an old saved state) still finds a sample by its row id
      const other = index.db.prepare('SELECT id FROM samples LIMIT 1').pluck().get() as number;
      assert.equal(previewSampleId(index, { sampleId: other }), other);
      assert.equal(previewSampleId(index, { sampleId: oldId }), undefined);
      index.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the keys after a re-index of the sample being read', () => {
  const { Navigator } = loadWithStub<{
    Navigator: new (
      ext: unknown,
    ) => {
      shown(id: number): void;
      followed(from: number, to: number): void;
      step(how: string, arg?: unknown): Promise<void>;
      dispose(): void;
    };
  }>('../../src/extension/navigation', {
    window: { onDidChangeActiveTextEditor: () => ({ dispose() {} }), setStatusBarMessage: () => undefined },
    Uri: class Uri {},
  });

  test('Next goes on from the followed sample, and from the place of a sample that is gone', async () => {
    const dir = tempDir('ti-preview-nav-');
    try {
      const file = (edit: string) =>
        `${[0, 1, 2].map((q) => rolloutLine(q, 'rl', [true, false, true], (qq, i) => (qq === 0 && i === 1 ? edit : `s ${qq}.${i}`))).join('\n')}\n`;
      writeFileSync(join(dir, 'a-rl.jsonl'), file('s 0.1'));
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      const rl = index.models()[0];
      const folder = { uri: { toString: () => `file://${dir}` } };
      const session = {
        index,
        focusModel: () => rl,
        baseModel: () => rl,
        shortLabel: (m: { label: string }) => m.label,
        folder,
      };
      const problems = () => index.listProblems({ kind: 'all' }).map((p) => p.id);
      const opened: number[] = [];
      const nav = new Navigator({
        view: { onDidChangeSelection: () => ({ dispose() {} }), visible: false },
        active: () => session,
        tree: { order: () => ({ problems, verdicts: [true, false, null] }), filter: { kind: 'all' } },
        openSample: async (a: { sampleId: number }) => {
          opened.push(a.sampleId);
        },
      });
      const idOf = (q: number, i: number) => {
        const p = index.listProblems({ kind: 'all' }).find((x) => x.problemId === String(q))!;
        return index.samples(p.id, rl.id).find((x) => x.sampleIndex === i)!.id;
      };
      const old0 = idOf(0, 0);
      nav.shown(old0);
      writeFileSync(join(dir, 'a-rl.jsonl'), file('s 0.1, rewritten longer'));
      await indexFolder(index, dir);
      const new0 = idOf(0, 0);
      assert.notEqual(new0, old0);
      nav.followed(old0, new0); // what the preview's host does when it finds its sample again
      await nav.step('next');
      // problem 0's samples in the tree's order: correct (0, 2) then incorrect (1): Next from sample 0 is sample 2
      assert.deepEqual(opened, [idOf(0, 2)], 'from the sample read, not from the first problem again');

      // a sample gone: the preview's buttons pass its problem and model; Next starts at that problem's first sample
      const p1 = index.listProblems({ kind: 'all' }).find((x) => x.problemId === '1')!.id;
      await nav.step('next', { problemId: p1, modelId: rl.id, folder: folder.uri.toString() });
      assert.deepEqual(opened, [idOf(0, 2), idOf(1, 0)]);
      nav.dispose();
      index.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
