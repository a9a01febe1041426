/**
 * What git must never track: a worktree's `node_modules` and `.tools` are often symbolic links to another
 * checkout's (docs/development.md), and a pattern with a trailing slash (`node_modules/`) matches directories only,
 * so `git add -A` committed the links, and merging that commit replaced a checkout's real folders with links to
 * themselves. The repository's .gitignore, in a scratch repository, ignores both as folders and as links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './helpers';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

test('node_modules, .tools, out and dist are ignored as folders and as symbolic links', () => {
  const target = tempDir('ti-gitignore-target-');
  for (const kind of ['folder', 'link'] as const) {
    const repo = tempDir('ti-gitignore-');
    git(repo, 'init', '-q');
    copyFileSync(resolve(process.cwd(), '.gitignore'), join(repo, '.gitignore'));
    for (const name of ['node_modules', '.tools', 'out', 'dist']) {
      if (kind === 'folder') {
        mkdirSync(join(repo, name));
        copyFileSync(resolve(process.cwd(), 'package.json'), join(repo, name, 'x.json'));
      } else symlinkSync(target, join(repo, name));
    }
    assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '?? .gitignore\n', kind);
  }
});
