/**
 * Trial 13 finding 5: after the base / model in focus changed, Next Sample went on through the samples of the
 * model last read (now the base) instead of the model in focus. The Navigator (src/extension/navigation.ts) on a
 * `vscode` stub over a real index of two models; the tree's order lists every problem.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { rolloutLine, tempDir } from './helpers';
import { loadWithStub } from './vscodeStub';

const { Navigator } = loadWithStub<{
  Navigator: new (
    ext: unknown,
  ) => {
    shown(id: number): void;
    step(how: string, arg?: unknown): Promise<void>;
    position(sampleId: number): string | null;
    dispose(): void;
  };
}>('../../src/extension/navigation', {
  window: { onDidChangeActiveTextEditor: () => ({ dispose() {} }), setStatusBarMessage: () => undefined },
  Uri: class Uri {},
});

describe('stepping after the pair changed (trial 13 finding 5)', () => {
  test('Next Sample goes on with the model last read while the pair stays, and restarts at its problem with the new model in focus once it changes', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'run.jsonl'),
      `${[0, 1].flatMap((q) => ['Qwen2.5-7B', 'Qwen2.5-7B-GRPO'].map((m) => rolloutLine(q, m, [true, false, false]))).join('\n')}\n`,
    );
    const index = TraceIndex.open(join(dir, 'i.db'));
    await indexFolder(index, dir);
    const base = index.models().find((m) => !m.label.includes('GRPO'))!;
    const rl = index.models().find((m) => m.label.includes('GRPO'))!;
    const roles = { focus: rl.id, base: base.id };
    const session = {
      index,
      focusModel: () => index.model(roles.focus),
      baseModel: () => index.model(roles.base),
      shortLabel: (m: { label: string }) => m.label,
      folder: { uri: { toString: () => `file://${dir}` } },
    };
    const problems = index.listProblems({ kind: 'all' }).map((p) => p.id);
    const opened: number[] = [];
    const ext = {
      view: { onDidChangeSelection: () => ({ dispose() {} }), visible: false },
      active: () => session,
      tree: { order: () => ({ problems: () => problems, verdicts: [true, false, null] }), filter: { kind: 'all' } },
      openSample: async (a: { sampleId: number }) => {
        opened.push(a.sampleId);
      },
    };
    const nav = new Navigator(ext);
    const samplesOf = (modelId: number, p: number) => index.samples(p, modelId).map((x) => x.id);
    const [rl0, rl1, rl2] = samplesOf(rl.id, problems[0]);
    // reading the RL model's sample 0 of the first problem: Next gives its sample 1
    nav.shown(rl0);
    await nav.step('next');
    assert.deepEqual(opened, [rl1]);
    // the pair unchanged: a base sample read stays with the base (the model of the sample being read)
    const [b0, b1] = samplesOf(base.id, problems[0]);
    nav.shown(b0);
    await nav.step('next');
    assert.deepEqual(opened, [rl1, b1]);
    // the roles swap (Choose Base Model: the RL model): the next step starts the first problem's samples of
    // the model now in focus (the old base), not the old model's next sample; from the preview's sample too
    nav.shown(rl1);
    roles.focus = base.id;
    roles.base = rl.id;
    await nav.step('next');
    assert.deepEqual(opened, [rl1, b1, b0]);
    // from the preview (its keys pass the sample shown): with the pair as when it was shown, its model goes on
    nav.shown(rl2);
    await nav.step('next', { sampleId: rl2 });
    const [rlNext] = samplesOf(rl.id, problems[1]);
    assert.equal(opened[3], rlNext, "the RL model's first sample of the next problem");
    // then the pair changes back: the next step from that preview starts its problem with the model in focus
    roles.focus = rl.id;
    roles.base = base.id;
    nav.shown(opened[3]);
    roles.focus = base.id;
    roles.base = rl.id;
    await nav.step('next', { sampleId: opened[3] });
    assert.equal(opened[4], samplesOf(base.id, problems[1])[0]);
    nav.dispose();
    index.close();
  });

  test("the preview's position line names the models of the filter by the short names the tree and status bar use (trial 13 finding 8)", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'run.jsonl'),
      `${['Qwen2.5-7B', 'Qwen2.5-7B-GRPO'].map((m) => rolloutLine(0, m, [false, false])).join('\n')}\n`,
    );
    const index = TraceIndex.open(join(dir, 'i.db'));
    await indexFolder(index, dir);
    const base = index.models().find((m) => !m.label.includes('GRPO'))!;
    const rl = index.models().find((m) => m.label.includes('GRPO'))!;
    const session = {
      index,
      focusModel: () => rl,
      baseModel: () => base,
      shortLabel: (m: { label: string }) => `short(${m.label})`,
      folder: { uri: { toString: () => `file://${dir}` } },
    };
    const problems = index.listProblems({ kind: 'all' }).map((p) => p.id);
    const ext = {
      view: { onDidChangeSelection: () => ({ dispose() {} }), visible: false },
      active: () => session,
      tree: { order: () => ({ problems: () => problems, verdicts: [true, false, null] }), filter: { kind: 'failing' } },
      openSample: async () => undefined,
    };
    const nav = new Navigator(ext);
    const [first] = index.samples(problems[0], rl.id);
    assert.equal(
      nav.position(first.id),
      `1st of 1 problem (Failing: short(${rl.label}) never solves) · 1st of 2 samples`,
    );
    nav.dispose();
    index.close();
  });
});
