/**
 * Trial 14 findings 2 and 3: what the user is told when a results file changes under an open sample.
 * - The "changed since it was indexed" notification is not raised while a re-index that reads the file is
 *   due (the file watcher's, or a pass running or queued), nor when that re-index comes within the grace
 *   period: the new text is shown ~100 ms later and the notification stayed up beside it.
 * - After a pass, the annotations of the files read again are counted: back on their samples, or on no sample
 *   (their sample's text changed: the content hash no longer matches), with where they are; never "kept".
 * Real SQLite and a real folder; the real FolderSession on a `vscode` stub for the notification.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore, annotationFatesMessage, MIRROR_RELATIVE_PATH } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { SourceChangedError } from '../../src/core/index/sampleText';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { FolderSession } from '../../src/extension/session';
import { rolloutLine, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';

/** Results file text: problems 0..2 of model `model`, three samples each; `edit` rewrites one sample's text. */
function results(model: string, edit?: { qid: number; i: number; text: string }): string {
  return `${[0, 1, 2]
    .map((q) =>
      rolloutLine(q, model, [true, false, true], (qq, i, m) =>
        edit && edit.qid === qq && edit.i === i ? edit.text : `${m} solution ${qq}.${i}`,
      ),
    )
    .join('\n')}\n`;
}

const sampleOf = (index: TraceIndex, model: string, qid: number, i: number) =>
  index.db
    .prepare(
      `SELECT s.id FROM samples s JOIN problems p ON p.id = s.problem_id JOIN models m ON m.id = s.model_id
        WHERE m.name = ? AND p.problem_id = ? AND s.sample_index = ?`,
    )
    .pluck()
    .get(model, String(qid), i) as number;

describe('annotations of a re-indexed file: how many are back on their samples, how many on none', () => {
  test('a sample whose text changed leaves its annotation on no sample, and the message says so', async () => {
    const dir = tempDir('ti-fates-');
    try {
      writeFileSync(join(dir, 'a-rl.jsonl'), results('rl'));
      writeFileSync(join(dir, 'b-base.jsonl'), results('base'));
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, dir);
      const store = new AnnotationStore(index);
      store.set(store.refOf(sampleOf(index, 'rl', 0, 0))!, ['kept text'], 'its text does not change');
      store.set(store.refOf(sampleOf(index, 'rl', 1, 2))!, ['한국어-nfd'], 'its text is rewritten');
      store.set(store.refOf(sampleOf(index, 'base', 2, 1))!, ['other file'], 'its file is not read again');
      assert.equal(store.countOnFile('a-rl.jsonl'), 2);

      // problem 1 sample 2 rewritten (as an NFC pass over the results would): its content hash changes
      writeFileSync(join(dir, 'a-rl.jsonl'), results('rl', { qid: 1, i: 2, text: 'rl solution 1.2, rewritten' }));
      const summary = await indexFolder(index, dir);
      const f = summary.annotationsOfChangedFiles;
      assert.deepEqual([f.onSample, f.onNoSample], [1, 1], 'the base file was not read again: not counted');
      assert.equal(f.orphaned.length, 1);
      assert.deepEqual(
        { path: f.orphaned[0].path, line: f.orphaned[0].line, sampleIndex: f.orphaned[0].sampleIndex },
        { path: 'a-rl.jsonl', line: 2, sampleIndex: 2 },
      );
      assert.equal(store.countOnFile('a-rl.jsonl'), 1, 'one annotation left on the file');
      const message = annotationFatesMessage(f, MIRROR_RELATIVE_PATH)!;
      assert.equal(
        message,
        "1 annotation of the files read again is back on its sample; 1 annotation is on no sample now: its sample's text changed (or the sample left the folder): problem 1 sample 2 (a-rl.jsonl:2). It is shown nowhere; its labels and note are in .trace-inspector/annotations.jsonl",
      );
      assert.ok(!/kept/.test(message));

      // a pass that reads nothing again says nothing about annotations
      const again = await indexFolder(index, dir);
      assert.deepEqual([again.annotationsOfChangedFiles.onSample, again.annotationsOfChangedFiles.onNoSample], [0, 0]);
      assert.equal(annotationFatesMessage(again.annotationsOfChangedFiles, MIRROR_RELATIVE_PATH), undefined);
      index.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the "changed since it was indexed" notification', () => {
  const warnings: string[] = [];
  const settings: Record<string, unknown> = { autoIndex: true };
  const { FolderSession: Session, CHANGED_GRACE_MS } = loadWithStub<{
    FolderSession: new (...a: unknown[]) => FolderSession;
    CHANGED_GRACE_MS: number;
  }>('../../src/extension/session', {
    window: {
      showWarningMessage: async (m: string) => {
        warnings.push(m);
        return undefined;
      },
      showInformationMessage: async () => undefined,
    },
    workspace: {
      getConfiguration: () => ({ get: (k: string) => settings[k] }),
      textDocuments: [],
      isTrusted: true,
    },
  });

  function open(dir: string): FolderSession {
    const state = new Map<string, unknown>();
    const storage = tempDir('ti-notice-storage-');
    const context = {
      storageUri: { fsPath: storage },
      globalStorageUri: { fsPath: storage },
      extensionUri: { fsPath: storage },
      workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
    };
    const folder = { uri: { fsPath: dir, toString: () => `file://${dir}` }, name: 'notice' };
    return new Session(folder, context, { appendLine: () => undefined }, { clear() {}, set() {} });
  }

  test('not raised while a re-index is due or comes within the grace period; raised otherwise, without "kept"', async () => {
    const dir = tempDir('ti-notice-');
    try {
      writeFileSync(join(dir, 'a-rl.jsonl'), results('rl'));
      writeFileSync(join(dir, 'b-base.jsonl'), results('base'));
      writeFileSync(join(dir, 'c-sft.jsonl'), results('sft'));
      const s = open(dir);
      await indexFolder(s.index, dir);
      const rejects = (p: Promise<unknown>) => assert.rejects(p, (e) => e instanceof SourceChangedError);

      // 1. the watcher's re-index is due: the failed read does not notify
      s.reindexDue = () => true;
      writeFileSync(join(dir, 'a-rl.jsonl'), results('rl', { qid: 0, i: 0, text: 'rl solution 0.0, longer now' }));
      await rejects(s.sampleText(sampleOf(s.index, 'rl', 0, 0)));
      assert.deepEqual(warnings, [], 'a re-index is due: no notification');

      // 2. nothing due at the read, but the file is read again within the grace period (the watcher's pass)
      s.reindexDue = () => false;
      writeFileSync(join(dir, 'b-base.jsonl'), results('base', { qid: 0, i: 0, text: 'base solution 0.0, longer' }));
      await rejects(s.sampleText(sampleOf(s.index, 'base', 0, 0)));
      await indexFolder(s.index, dir);
      await new Promise((r) => setTimeout(r, CHANGED_GRACE_MS + 200));
      assert.deepEqual(warnings, [], 'the file was read again within the grace period: no notification');
      assert.equal(s.index.isFileMarkedChanged('b-base.jsonl'), false);

      // 3. automatic indexing off: no re-index comes, the notification is raised at once, naming the annotations
      settings.autoIndex = false;
      const id = sampleOf(s.index, 'sft', 1, 1);
      s.annotations.set(s.annotations.refOf(id)!, ['checked'], '');
      writeFileSync(join(dir, 'c-sft.jsonl'), results('sft', { qid: 0, i: 0, text: 'sft solution 0.0, longer' }));
      await rejects(s.sampleText(id));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /c-sft\.jsonl changed since it was indexed, so its sample texts are not shown/);
      assert.match(
        warnings[0],
        /1 annotation is on its samples: .*on no sample \(it stays in \.trace-inspector\/annotations\.jsonl\)/,
      );
      assert.ok(!/kept/.test(warnings[0]), warnings[0]);

      // 4. the session is closed during the grace period: no notification, nothing read from the closed index
      settings.autoIndex = true;
      writeFileSync(join(dir, 'a-rl.jsonl'), results('rl', { qid: 1, i: 1, text: 'rl solution 1.1, longer now' }));
      s.reindexDue = () => false;
      await indexFolder(s.index, dir);
      writeFileSync(join(dir, 'a-rl.jsonl'), results('rl', { qid: 1, i: 1, text: 'rl solution 1.1, longer again' }));
      await rejects(s.sampleText(sampleOf(s.index, 'rl', 1, 1)));
      const thrown: unknown[] = [];
      const onError = (e: unknown) => thrown.push(e);
      process.on('uncaughtException', onError);
      s.dispose();
      await new Promise((r) => setTimeout(r, CHANGED_GRACE_MS + 200));
      process.off('uncaughtException', onError);
      assert.deepEqual(thrown, [], 'the grace timer ran after dispose');
      assert.equal(warnings.length, 1, 'no notification after the session closed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
