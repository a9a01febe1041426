/**
 * What the end-to-end suites share about the real folder ../shared/data/real/rlvr-probe-gsm8k: where it
 * is, and how a suite opens a writable copy of it in a fresh VS Code with the project's VSIX, the SFT
 * model of results_2048_batched as base model (so its RL model is the model in focus), dark theme.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { defaultVsixPath, repoRoot, startSession, workspaceCopy, type Session } from './harness';

export const RLVR_PROBE = path.resolve(repoRoot, '..', 'shared', 'data', 'real', 'rlvr-probe-gsm8k');

/** Starts a session named `name` on a fresh copy of the folder; returns it and the copy's path. */
export async function startOnRlvrProbe(name: string): Promise<{ session: Session; workspace: string }> {
  const vsix = defaultVsixPath();
  assert.ok(vsix, 'a VSIX (npm run package) is needed');
  const workspace = workspaceCopy(RLVR_PROBE, `${name}-rlvr-probe-gsm8k`);
  const session = await startSession({
    name,
    vsix,
    folder: workspace,
    settings: {
      'traceInspector.baseModel': 'results_2048_batched:ns-0',
      'workbench.colorTheme': 'Default Dark Modern',
    },
  });
  return { session, workspace };
}
