/**
 * A run folder moved into the open results folder (`mv run-7 results/`) gets one watcher event, for the directory:
 * the results-file watcher (`**\/*.{jsonl,json,eval}`) hears nothing of the files inside it, so the folder was never
 * indexed (editing or `cp -r` worked). The directory watcher schedules the same debounced re-index when the directory
 * holds results files, and when a deleted (moved-out) directory held indexed ones. The real Extension on a `vscode`
 * stub, real folders on disk, a real index.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Extension } from '../../src/extension/extension';
import { holdsResultsFiles } from '../../src/extension/folderWatch';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { rolloutLine, writeFolder } from './helpers';
import { Emitter, loadExtension } from './vscodeStub';

type Uri = { fsPath: string; path: string; toString(): string };
const uri = (p: string): Uri => ({ fsPath: p, path: p, toString: () => `file://${p}` });

test('holdsResultsFiles: a directory with a results file at any depth; not one with other files, nor a file', () => {
  const root = mkdtempSync(join(tmpdir(), 'folder-watch-'));
  try {
    mkdirSync(join(root, 'run-7', 'seed-0'), { recursive: true });
    writeFileSync(join(root, 'run-7', 'seed-0', 'samples.jsonl'), '{}\n');
    mkdirSync(join(root, 'notes', '.trace-inspector'), { recursive: true });
    writeFileSync(join(root, 'notes', 'a.txt'), 'x');
    writeFileSync(join(root, 'notes', '.trace-inspector', 'annotations.jsonl'), '{}\n');
    assert.equal(holdsResultsFiles(join(root, 'run-7')), true);
    assert.equal(holdsResultsFiles(join(root, 'notes')), false);
    assert.equal(holdsResultsFiles(join(root, 'notes', 'a.txt')), false);
    assert.equal(holdsResultsFiles(join(root, 'missing')), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a directory moved in with results files, or moved out holding indexed files, starts one debounced re-index', async () => {
  const root = mkdtempSync(join(tmpdir(), 'folder-watch-'));
  const folder = { uri: uri(root), name: 'results', index: 0 };
  const watchers: { glob: string; create: Emitter<Uri>; delete: Emitter<Uri> }[] = [];
  const { Extension: Ext } = loadExtension<{ Extension: new (context: unknown) => Extension }>({
    workspaceFolders: [folder],
    isTrusted: true,
    workspace: {
      createFileSystemWatcher: (glob: string) => {
        const w = { glob, create: new Emitter<Uri>(), delete: new Emitter<Uri>() };
        watchers.push(w);
        return { onDidChange: () => ({}), onDidCreate: w.create.event, onDidDelete: w.delete.event, dispose() {} };
      },
      getWorkspaceFolder: () => folder,
      onDidChangeWorkspaceFolders: () => ({ dispose() {} }),
    },
  });
  const ext = new Ext({ workspaceState: { get: () => undefined, update: async () => undefined } });
  const indexed: string[] = [];
  (ext as unknown as { index: (m: string) => Promise<void> }).index = async (m) => {
    indexed.push(m);
  };
  const held = new Set(['old-run']);
  (ext as unknown as { sessions: Map<string, unknown> }).sessions.set(folder.uri.toString(), {
    index: { hasFilesUnder: (rel: string) => held.has(rel) },
  });
  try {
    ext.watch();
    const dirs = watchers.find((w) => w.glob === '**/*');
    assert.ok(dirs, 'a watcher on every path');
    mkdirSync(join(root, 'run-7', 'seed-0'), { recursive: true });
    writeFileSync(join(root, 'run-7', 'seed-0', 'samples.jsonl'), '{}\n');
    mkdirSync(join(root, 'plots'));
    writeFileSync(join(root, 'plots', 'a.png'), 'x');
    dirs.create.fire(uri(join(root, 'plots')));
    dirs.delete.fire(uri(join(root, 'other-run')));
    await new Promise((r) => setTimeout(r, 1700));
    assert.deepEqual(indexed, [], 'no results files came or went');
    // moved in, and moved out: each once, after the watcher's debounce (1.5 s)
    dirs.create.fire(uri(join(root, 'run-7')));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(indexed, [], 'debounced');
    dirs.delete.fire(uri(join(root, 'old-run')));
    await new Promise((r) => setTimeout(r, 1700));
    assert.deepEqual(indexed, ['watch']);
    dirs.create.fire(uri(join(root, 'run-7')));
    await new Promise((r) => setTimeout(r, 1700));
    assert.deepEqual(indexed, ['watch', 'watch'], 'moved in');
    dirs.delete.fire(uri(join(root, 'old-run')));
    await new Promise((r) => setTimeout(r, 1700));
    assert.deepEqual(indexed, ['watch', 'watch', 'watch'], 'moved out');
  } finally {
    ext.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('hasFilesUnder: a folder that holds indexed files (at any depth), not one whose name only starts the same', async () => {
  const folder = writeFolder({ 'run-7/seed-0/samples.jsonl': `${rolloutLine(1, 'm', [true, false])}\n` });
  const index = TraceIndex.open(':memory:');
  try {
    await indexFolder(index, folder);
    assert.equal(index.hasFilesUnder('run-7'), true);
    assert.equal(index.hasFilesUnder('run-7/seed-0'), true);
    assert.equal(index.hasFilesUnder('run'), false);
    assert.equal(index.hasFilesUnder('run-70'), false);
  } finally {
    index.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
