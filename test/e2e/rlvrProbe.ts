/**
 * What the end-to-end suites share about the real folder ../shared/data/real/rlvr-probe-gsm8k: where it
 * is, and how a suite opens a writable copy of it in a fresh VS Code with the project's VSIX, the SFT
 * model of results_2048_batched as base model (so its RL model is the model in focus), dark theme.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  defaultVsixPath,
  repoRoot,
  showTreeView,
  startSession,
  treeRowDetails,
  waitUntil,
  workspaceCopy,
  type Session,
  type TreeRow,
} from './harness';

export const RLVR_PROBE = path.resolve(repoRoot, '..', 'shared', 'data', 'real', 'rlvr-probe-gsm8k');

/** c/n per qid straight from a raw rollout file (independent of the extension). */
export function rawCounts(file: string): Map<string, { n: number; c: number; texts: string[] }> {
  const out = new Map<string, { n: number; c: number; texts: string[] }>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { qid: number; rollouts: { correct: boolean; text: string }[] };
    out.set(String(r.qid), {
      n: r.rollouts.length,
      c: r.rollouts.filter((x) => x.correct).length,
      texts: r.rollouts.map((x) => x.text),
    });
  }
  return out;
}

/**
 * Whether one of `texts` holds `word` as the full-text index tokenises (runs of letters and digits,
 * case-folded), recomputed here independently of the extension.
 */
export function holdsWord(texts: string[], word: string): boolean {
  return texts.some((t) => (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? ([] as string[])).includes(word));
}

/** The qids, in numeric order, of the problems with a sample holding `word` in any raw file of the folder. */
export function problemsHoldingWord(word: string): string[] {
  const hits = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('_raw.jsonl'))
        for (const [q, v] of rawCounts(p)) if (holdsWord(v.texts, word)) hits.add(q);
    }
  };
  walk(RLVR_PROBE);
  return [...hits].sort((a, b) => Number(a) - Number(b));
}

/** The raw counts of results_2048_batched's RL model (`rl`) and its SFT base (`sft`), per qid. */
export function batchedRunCounts(): { rl: ReturnType<typeof rawCounts>; sft: ReturnType<typeof rawCounts> } {
  const run = path.join(RLVR_PROBE, 'results_2048_batched');
  return { rl: rawCounts(path.join(run, 'rl_raw.jsonl')), sft: rawCounts(path.join(run, 'sft_raw.jsonl')) };
}

/**
 * Shows the Problems view and waits until it lists the folder's 30 problems with problem 0's final
 * counts (rows appear as soon as the first batch is committed; the counts are final once both files of
 * results_2048_batched are in). Returns the problem rows.
 */
export async function waitForAllProblems(s: Session): Promise<TreeRow[]> {
  const { rl, sft } = batchedRunCounts();
  await showTreeView(s.page, 'Trace Inspector', 'Problems');
  const r0Prefix = `base ${sft.get('0')!.c}/8 · model ${rl.get('0')!.c}/8`;
  return waitUntil(
    s.page,
    async () => {
      const r = (await treeRowDetails(s.page, 'Problems')).filter((x) => x.level === 1);
      return r.length === 30 && r[0].description.startsWith(r0Prefix) ? r : undefined;
    },
    { timeoutMs: 120_000, what: `30 problem rows, the first one reading '${r0Prefix}'` },
  );
}

/**
 * Starts a session named `name` on a fresh copy of the folder; returns it and the copy's path. `env` is
 * added to the server's environment (and so the extension host's).
 */
export async function startOnRlvrProbe(
  name: string,
  env?: Record<string, string>,
): Promise<{ session: Session; workspace: string }> {
  const vsix = defaultVsixPath();
  assert.ok(vsix, 'a VSIX (npm run package) is needed');
  const workspace = workspaceCopy(RLVR_PROBE, `${name}-rlvr-probe-gsm8k`);
  const session = await startSession({
    name,
    vsix,
    folder: workspace,
    env,
    settings: {
      'traceInspector.baseModel': 'results_2048_batched:ns-0',
      'workbench.colorTheme': 'Default Dark Modern',
    },
  });
  return { session, workspace };
}
