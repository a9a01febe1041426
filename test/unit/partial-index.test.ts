/**
 * Issue 19, partial results: while only some models are indexed (indexing running, or stopped), the
 * tree never shows one model's figures under another's name, and no model is shown without a name.
 * Real SQLite, the real folder rlvr-probe-gsm8k/results_1024_cuda (its RL file `rl_raw.jsonl` is read
 * before `sft_raw.jsonl`), the real FolderSession and tree provider on a `vscode` stub.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { modelLabels } from '../../src/core/index/labels';
import { passAtK } from '../../src/core/metrics';
import { buildReport } from '../../src/core/report/index';
import { reportTable } from '../../src/cli/main';
import { overviewData } from '../../src/extension/panelData';
import type { FolderSession } from '../../src/extension/session';
import type { ProblemTreeProvider } from '../../src/extension/problemTree';
import { REAL, rawRolloutCounts, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_1024_cuda');

function openSession(): FolderSession {
  const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
    '../../src/extension/session',
  );
  const state = new Map<string, unknown>();
  const storage = tempDir('ti-partial-');
  const context = {
    storageUri: { fsPath: storage },
    globalStorageUri: { fsPath: storage },
    extensionUri: { fsPath: storage },
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => state.set(k, v) },
  };
  const folder = { uri: { fsPath: RUN, toString: () => `file://${RUN}` }, name: 'results_1024_cuda' };
  const output = { appendLine: () => undefined };
  return new Session(folder, context, output, { clear() {}, set() {} });
}

function tree(s: FolderSession): ProblemTreeProvider {
  const { ProblemTreeProvider: Tree } = loadWithStub<{
    ProblemTreeProvider: new (g: () => unknown) => ProblemTreeProvider;
  }>('../../src/extension/problemTree');
  return new Tree(() => s);
}

describe('a folder indexed in two steps (the first one stopped inside the RL file)', async () => {
  const s = openSession();
  const controller = new AbortController();
  // Stop once the first batch of the first results file (rl_raw.jsonl, 5 problems per batch) is committed.
  const first = await indexFolder(s.index, RUN, {
    batchSize: 40,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.phase === 'index' && p.samples > 0) controller.abort();
    },
  });
  const rlRaw = rawRolloutCounts(join(RUN, 'rl_raw.jsonl'));
  const sftRaw = rawRolloutCounts(join(RUN, 'sft_raw.jsonl'));

  test('step 1: the index holds part of the RL model, named, and knows it is incomplete', () => {
    assert.equal(first.cancelled, true);
    const models = s.index.models();
    assert.equal(models.length, 1);
    assert.match(models[0].name, /rlvr-ppo/);
    // No label is stored until a pass ends; the one shown is the one the pass would store.
    assert.notEqual(models[0].label, '');
    assert.deepEqual(
      models.map((m) => m.label),
      modelLabels(models),
    );
    assert.equal(s.index.partialFiles(), 1);
    assert.equal(s.indexIncomplete(), true);
    assert.equal(s.focusPending(), true, 'no model besides the (guessed) base is indexed');
  });

  test('step 1: every problem row shows the RL figures under the RL name and says the rest is not indexed', () => {
    const t = tree(s);
    const rows = t.getChildren() as { type: string; problem?: { id: number; problemId: string } }[];
    const problems = rows.filter((r) => r.type === 'problem');
    assert.ok(problems.length >= 5 && problems.length < 30, `${problems.length} problems so far`);
    for (const r of problems) {
      const d = String(t.getTreeItem(r as never).description);
      const raw = rlRaw.get(r.problem!.problemId)!;
      const p8 = passAtK(raw.n, raw.c, 8)!.toFixed(2);
      assert.ok(
        d.startsWith(`qwen-2.5-1.5b-rlvr-ppo ${raw.c}/${raw.n} · pass@8 ${p8} · model: not indexed (indexing stopped)`),
        d,
      );
      assert.doesNotMatch(d, /\bbase\b/, 'the RL model is not called the base');
    }
  });

  test('step 1: the model row, the report and the CLI mark the RL model as partial (trial 1, finding 8)', () => {
    const t = tree(s);
    t.mode = 'model';
    const rows = t.getChildren() as { type: string; model?: { partial: boolean; graded: number; correct: number } }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].model!.partial, true);
    const d = String(t.getTreeItem(rows[0] as never).description);
    // the figures read so far, by hand from the stored counts
    const sum = s.index.allStats().reduce((a, r) => [a[0] + r.c, a[1] + r.graded], [0, 0]);
    assert.match(d, new RegExp(` · ${sum[0]}/${sum[1]} correct · partial: indexing not finished`), d);
    const r = buildReport(s.index, { replicates: 50 });
    assert.deepEqual(
      r.models.map((m) => m.partial),
      [true],
    );
    assert.ok(
      r.warnings.some((w) => /PARTIAL: some of its samples come from a file whose indexing did not finish/.test(w)),
    );
    assert.match(reportTable(r), /\[PARTIAL\]/);
    const ov = overviewData(s.index, {}, 50);
    assert.equal(ov.models[0].partial, true);
    assert.match(ov.models[0].label, / \(partial\)$/);
    assert.ok(ov.warnings.some((w) => /PARTIAL/.test(w)));
  });

  test('step 2: after the second pass both models show their own figures under their roles', async () => {
    const second = await indexFolder(s.index, RUN);
    assert.equal(second.cancelled, false);
    s.fireChanged();
    // the session's own last summary is not set by a direct indexFolder call; partial files are gone
    assert.equal(s.index.partialFiles(), 0);
    assert.equal(s.indexIncomplete(), false);
    assert.equal(s.focusPending(), false);
    assert.match(s.baseModel()!.name, /sft/);
    assert.match(s.focusModel()!.name, /rlvr-ppo/);
    assert.deepEqual(
      s.index.models().map((m) => m.partial),
      [false, false],
    );
    const t = tree(s);
    const problems = (t.getChildren() as { type: string; problem?: { problemId: string } }[]).filter(
      (r) => r.type === 'problem',
    );
    assert.equal(problems.length, 30);
    for (const r of problems) {
      const d = String(t.getTreeItem(r as never).description);
      const b = sftRaw.get(r.problem!.problemId)!;
      const m = rlRaw.get(r.problem!.problemId)!;
      assert.ok(
        // two figures: c/n each (pass@k is on the model rows under it; trial 10 finding 4)
        d === `base ${b.c}/${b.n} · model ${m.c}/${m.n}` || d.startsWith(`base ${b.c}/${b.n} · model ${m.c}/${m.n} — `),
        d,
      );
    }
    s.dispose();
  });
});
