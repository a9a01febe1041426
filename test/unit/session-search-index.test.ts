/**
 * The extension builds the full-text index after a pass, in its indexing worker (issue 31: the figures first). A real
 * FolderSession (on the `vscode` stub, its worker from dist/, a real folder): the pass writes no full-text row, the
 * build starts when the pass ends, its progress is what the search filter's line says, and once it ends every search
 * is exact (the same matches as the index written with the samples). A new pass stops the build; the build goes on
 * after it. Needs `npm run build` (dist/indexWorker.js).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import type { SearchIndexStatus } from '../../src/core/index/searchIndex';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { FolderSession } from '../../src/extension/session';
import { REAL, tempDir } from './helpers';
import { Emitter, loadWithStub, realFolderSession } from './vscodeStub';

/** Resolves once `ok()` holds, checking every 20 ms (rejects after `ms`). */
async function until(ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('FolderSession: the full-text index is built in the worker after the pass, with progress; searches then exact', async () => {
  const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
    '../../src/extension/session',
    {
      EventEmitter: Emitter,
      Range: class {},
      Diagnostic: class {},
      DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2 },
      Uri: { file: (f: string) => f, joinPath: (...p: unknown[]) => p.join('/') },
      window: { showWarningMessage: async () => undefined, showErrorMessage: async () => undefined },
    },
  );
  const dir = join(REAL, 'rlvr-probe-gsm8k');
  const { session: s } = realFolderSession(Session, dir, tempDir('ti-search-index-'));
  try {
    const seen: { building: boolean; status: SearchIndexStatus }[] = [];
    s.onDidChangeStatus(() => seen.push({ building: s.searchIndexBuilding, status: { ...s.searchIndex() } }));
    const summary = await s.reindex();
    const samples = summary?.samples ?? 0;
    assert.ok(samples > 1000, `samples ${samples}`);
    // the pass ended with no full-text row: the build started in the worker
    assert.equal(s.searchIndexBuilding, true);
    assert.equal(s.searchIndex().samples, samples);
    assert.ok(s.searchIndex().indexed < samples);
    // a pass meanwhile stops it (what it committed stays) and it goes on after the pass
    const again = await s.reindex(undefined, undefined, true);
    assert.equal(again?.filesIndexed, 0);
    await until(() => !s.searchIndexBuilding);
    assert.deepEqual(s.searchIndex(), { samples, indexed: samples });
    // the views were told while it ran and at its end
    assert.ok(seen.some((x) => x.building && x.status.indexed < samples));
    assert.deepEqual(seen[seen.length - 1], { building: false, status: { samples, indexed: samples } });
    // exact: the same matches as an index written with its full-text rows
    const inline = TraceIndex.open(':memory:');
    await indexFolder(inline, dir);
    for (const q of ['the', 'answer', 'total', '12', 'apples', 'zzzz']) {
      const ids = (x: TraceIndex) =>
        x
          .searchSamples(q, { limit: -1 })
          .samples.map((r) => `${r.problemId}/${r.modelId}/${r.sampleIndex}`)
          .sort();
      assert.deepEqual(ids(s.index), ids(inline), q);
    }
    inline.close();
  } finally {
    s.dispose();
  }
});
