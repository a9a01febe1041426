/**
 * After a pass has read every file, the indexing worker runs the grader audit (seconds on a large folder) before the
 * pass ends (issue 31: the tree said "Indexing: figures so far" meanwhile). A real FolderSession (on the `vscode`
 * stub, its worker from dist/, a real folder): once the files are read it is no longer indexing, says what still
 * runs, shows the final figures, and computes no audit on the host's thread; the audit and the answer check's
 * markers come from the worker, equal to the core's on the same index. The Extension's side: index-after-pass.test.ts.
 * Needs `npm run build` (dist/indexWorker.js).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { answerCheckDisagreements, graderAudit } from '../../src/core/analyses/graderAudit';
import type { FolderSession } from '../../src/extension/session';
import { REAL, tempDir } from './helpers';
import { Emitter, loadWithStub, realFolderSession } from './vscodeStub';

test('FolderSession: once every file is read the views see the final figures and what still runs; the audit comes from the worker', async () => {
  const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
    '../../src/extension/session',
    {
      EventEmitter: Emitter,
      // the folder's diagnostics (published at the pass's end)
      Range: class {},
      Diagnostic: class {},
      DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2 },
      Uri: { file: (f: string) => f, joinPath: (...p: unknown[]) => p.join('/') },
      window: { showWarningMessage: async () => undefined, showErrorMessage: async () => undefined },
    },
  );
  const dir = join(REAL, 'qwen25-math-eval-example');
  const { session: s } = realFolderSession(Session, dir, tempDir('ti-after-pass-'));
  try {
    const seen: { event: string; indexing: boolean; work: string | undefined; audit: boolean; marks: boolean }[] = [];
    const record = (event: string) =>
      seen.push({
        event,
        indexing: s.isIndexing,
        work: s.afterPassWork,
        audit: s.graderAudit() !== undefined,
        marks: s.answerCheck() !== undefined,
      });
    s.onDidChange(() => record('changed'));
    s.onDidChangeStatus(() => record('status'));
    const summary = await s.reindex();
    assert.equal(summary?.samples, 800);
    // the files read: the figures shown (changed) while the grader audit runs, not indexing any more
    const filesRead = seen.findIndex((x) => x.event === 'changed' && !x.indexing);
    assert.ok(filesRead >= 0, JSON.stringify(seen));
    assert.deepEqual(seen[filesRead], {
      event: 'changed',
      indexing: false,
      work: 'grader audit',
      audit: false,
      marks: false,
    });
    // the host's own after-pass check is said too, then the end: the audit and the markers are in
    assert.ok(seen.some((x) => x.event === 'status' && x.work === 'checking the folder’s own summaries'));
    assert.deepEqual(seen[seen.length - 1], {
      event: 'status',
      indexing: false,
      work: undefined,
      audit: true,
      marks: true,
    });
    // the figures did not change at the end: no second refresh of the views
    assert.equal(seen.filter((x) => x.event === 'changed' && !x.indexing).length, 1, JSON.stringify(seen));
    assert.deepEqual(s.answerCheck(), answerCheckDisagreements(s.index));
    assert.deepEqual(s.graderAudit(), graderAudit(s.index));
    assert.ok(s.answerCheck()!.size > 0, 'the folder has verdicts its answer check contradicts');
  } finally {
    s.dispose();
  }
});
