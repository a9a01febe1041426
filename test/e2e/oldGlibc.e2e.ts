/**
 * The VSIX on a host where better-sqlite3's native module cannot load (a cluster node with glibc older
 * than 2.34, reached over Remote-SSH), in a real VS Code (code-server) in a real browser. The host is
 * simulated by preloading test/fixtures/sqlite/old-glibc.cjs into code-server's processes (NODE_OPTIONS,
 * inherited by the extension host), which makes the addon's dlopen fail with the error Node gives there.
 * The extension must activate, say in its log that it uses node:sqlite and why, index the real folder
 * rlvr-probe-gsm8k on its indexing thread (same counts as the raw files), and search sample text (FTS5).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  answerQuickInput,
  repoRoot,
  runCommand,
  screenshot,
  treeRowDetails,
  visibleText,
  waitUntil,
  type Session,
} from './harness';
import { batchedRunCounts, problemsHoldingWord, startOnRlvrProbe, waitForAllProblems } from './rlvrProbe';

const VIEW = 'Problems';
const OLD_GLIBC = path.join(repoRoot, 'test', 'fixtures', 'sqlite', 'old-glibc.cjs');

describe('Trace Inspector where better-sqlite3 cannot load (glibc < 2.34)', { timeout: 600_000 }, () => {
  let s: Session;

  before(async () => {
    ({ session: s } = await startOnRlvrProbe('old-glibc', {
      NODE_OPTIONS: `--require ${OLD_GLIBC}`,
      TRACE_INSPECTOR_SQLITE_DRIVER: '',
    }));
  });

  after(async () => {
    await s?.close();
  });

  test('indexes the folder on node:sqlite: 30 problems with the raw files’ counts', async () => {
    try {
      const { rl, sft } = batchedRunCounts();
      for (const r of await waitForAllProblems(s)) {
        const want = `base ${sft.get(r.label)!.c}/8 · model ${rl.get(r.label)!.c}/8`;
        assert.ok(r.description.startsWith(want), `${r.label}: ${r.description}`);
      }
      await screenshot(s.page, 'old-glibc-1-tree');
    } catch (e) {
      await s.fail(e, 'old-glibc-1');
    }
  });

  test('the log says node:sqlite is used and why (the loader’s GLIBC_2.34 error)', async () => {
    try {
      await runCommand(s.page, 'Trace Inspector: Show Log');
      // the line is the log's first and scrolled away by the diagnostics: filter the output view to it
      const filter = s.page.locator('.part.panel input[placeholder^="Filter"]');
      await filter.fill('SQLite driver');
      const text = await waitUntil(
        s.page,
        async () => {
          // the panel may draw its filter box again as the log view opens, dropping what was typed
          if ((await filter.inputValue().catch(() => '')) !== 'SQLite driver')
            await filter.fill('SQLite driver', { timeout: 2000 }).catch(() => undefined);
          // Monaco renders spaces as no-break spaces: compare with whitespace folded
          const t = (await s.page.locator('.part.panel').innerText()).replace(/\s+/g, ' ');
          return /\[sqlite\] SQLite driver: node:sqlite/.test(t) ? t : undefined;
        },
        { what: 'the [sqlite] line in the Trace Inspector log' },
      );
      assert.match(
        text,
        /\[sqlite\] SQLite driver: node:sqlite \(SQLite [\d.]+, built into Node [\d.]+\); better-sqlite3 cannot be loaded on this host: .*GLIBC_2\.34' not found/,
      );
      assert.doesNotMatch(await visibleText(s.page), /cannot open the index/);
      await screenshot(s.page, 'old-glibc-2-log');
    } catch (e) {
      await s.fail(e, 'old-glibc-2');
    }
  });

  test('searching sample text works (FTS5 of node:sqlite)', async () => {
    try {
      const word = 'additions';
      const expected = problemsHoldingWord(word);
      assert.ok(expected.length > 0 && expected.length < 30, expected.join(','));
      await runCommand(s.page, 'Trace Inspector: Search Sample Text…');
      await answerQuickInput(s.page, { text: word });
      await waitUntil(
        s.page,
        async () => {
          const r = (await treeRowDetails(s.page, VIEW)).filter((x) => x.level === 1).map((x) => x.label);
          return r.join(',') === expected.join(',') ? r : undefined;
        },
        { what: `the problems ${expected.join(', ')} matching "${word}"` },
      );
      await screenshot(s.page, 'old-glibc-3-search');
    } catch (e) {
      await s.fail(e, 'old-glibc-3');
    }
  });
});
