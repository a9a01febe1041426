/**
 * The overview panel's figures come from the figures worker (dist/figuresWorker.js of this checkout: `npm run
 * build`), not from the extension host's thread: the panel posts the worker's steps as `progress` messages
 * answering the webview's request, then the reply, which equals overviewData computed in-thread with the panel's
 * roles (issue 31). Two requests in a row (the page reloads its figures after a change) both get the newer
 * figures. The panel runs on a recording `vscode` stub with a fake webview, over a real index of real
 * rlvr-probe-gsm8k.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { indexFolder } from '../../src/core/index/indexer';
import { overviewData } from '../../src/extension/panelData';
import type { FolderSession } from '../../src/extension/session';
import type { HostMessage } from '../../src/shared/protocol';
import { REAL, tempDir } from './helpers';
import { Emitter, fakePanel, loadWithStub, type PanelStubState, panelStub, realFolderSession } from './vscodeStub';

const current: PanelStubState = { commands: new Map() };
const { FolderSession: Session } = loadWithStub<{ FolderSession: new (...a: unknown[]) => FolderSession }>(
  '../../src/extension/session',
  { EventEmitter: Emitter },
);
const { registerPanels } = loadWithStub<{
  registerPanels: (c: unknown, g: () => FolderSession | undefined) => { dispose(): void }[];
}>('../../src/extension/problemPanel', panelStub(current));

test('the overview posts the worker’s progress, then the figures overviewData gives in-thread', async () => {
  const dir = join(REAL, 'rlvr-probe-gsm8k');
  const { session: s, context } = realFolderSession(Session, dir, tempDir('ti-overview-panel-'));
  await indexFolder(s.index, dir);
  const fake = fakePanel<HostMessage>();
  current.panel = fake.panel;
  current.commands = new Map();
  const disposables = registerPanels(context, () => s);
  try {
    await current.commands.get('traceInspector.openOverview')!();
    const answered = (id: number) =>
      fake.posted.find((m) => (m.kind === 'reply' || m.kind === 'error') && m.replyTo === id);
    fake.send({ id: 1, kind: 'getOverview' });
    for (let i = 0; i < 600 && !answered(1); i++) await sleep(50);
    const reply = answered(1);
    assert.ok(reply?.kind === 'reply', JSON.stringify(reply));
    const roles = {
      baseId: s.baseModel()?.id,
      focusId: s.focusModel()?.id,
      baseIsChoice: !s.baseModelIsGuess(),
      stepPattern: '',
    };
    const expected = overviewData(s.index, roles);
    assert.deepEqual(reply.result, expected);
    assert.equal(
      (disposables[0] as unknown as { figures: { usedWorker: boolean } }).figures.usedWorker,
      true,
      'computed in the worker thread',
    );
    const progress = fake.posted.flatMap((m) => (m.kind === 'progress' && m.replyTo === 1 ? [m.progress] : []));
    const steps = expected.models.length + expected.coverage.length;
    assert.deepEqual(
      progress.map((p) => `${p.done}/${p.total}`),
      Array.from({ length: steps }, (_, i) => `${i}/${steps}`),
    );
    assert.ok(
      fake.posted.findIndex((m) => m.kind === 'progress') < fake.posted.indexOf(reply),
      'the progress comes before the figures',
    );
    // the page reloads its figures twice in a row (a re-index, then a base change): both get the newer ones
    fake.send({ id: 2, kind: 'getOverview' });
    fake.send({ id: 3, kind: 'getOverview' });
    for (let i = 0; i < 600 && !(answered(2) && answered(3)); i++) await sleep(50);
    const [r2, r3] = [answered(2), answered(3)];
    assert.ok(r2?.kind === 'reply' && r3?.kind === 'reply', JSON.stringify([r2, r3]));
    assert.deepEqual(r2.result, expected);
    assert.deepEqual(r3.result, expected);
  } finally {
    for (const d of disposables) d.dispose();
    s.dispose();
  }
});
