/**
 * The walkthrough's example copy (src/extension/exampleCopy.ts) on real folders: copied once, left alone
 * while current, refreshed when the shipped example changes (or the copy predates stamps), with the
 * user's annotations mirror carried over.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { folderFingerprint, syncExampleCopy } from '../../src/extension/exampleCopy';
import { tempDir } from './helpers';

describe('example copy in global storage', () => {
  test('copied, current, refreshed on a changed example with the annotations kept, refreshed without a stamp', async () => {
    const source = path.join(tempDir(), 'demo');
    mkdirSync(path.join(source, 'm', 'math_eval'), { recursive: true });
    writeFileSync(path.join(source, 'm', 'math_eval', 'a.jsonl'), 'v1\n');
    writeFileSync(path.join(source, 'README.md'), 'readme\n');
    const storage = path.join(tempDir(), 'global');
    const target = path.join(storage, 'demo');

    assert.deepEqual(await syncExampleCopy(source, storage, 'demo'), { folder: target, action: 'copied' });
    assert.equal(readFileSync(path.join(target, 'm', 'math_eval', 'a.jsonl'), 'utf8'), 'v1\n');
    // the user annotates the example (the mirror inside the copy)
    mkdirSync(path.join(target, '.trace-inspector'));
    writeFileSync(path.join(target, '.trace-inspector', 'annotations.jsonl'), '{"label":"wrong"}\n');
    assert.equal((await syncExampleCopy(source, storage, 'demo')).action, 'current');

    // a new extension version ships a changed example: a new file, a changed one, a removed one
    writeFileSync(path.join(source, 'm', 'math_eval', 'a.jsonl'), 'v2\n');
    writeFileSync(path.join(source, 'm', 'math_eval', 'b.jsonl'), 'new\n');
    rmSync(path.join(source, 'README.md'));
    assert.equal((await syncExampleCopy(source, storage, 'demo')).action, 'refreshed');
    assert.equal(readFileSync(path.join(target, 'm', 'math_eval', 'a.jsonl'), 'utf8'), 'v2\n');
    assert.equal(readFileSync(path.join(target, 'm', 'math_eval', 'b.jsonl'), 'utf8'), 'new\n');
    assert.equal(existsSync(path.join(target, 'README.md')), false);
    assert.equal(
      readFileSync(path.join(target, '.trace-inspector', 'annotations.jsonl'), 'utf8'),
      '{"label":"wrong"}\n',
      'annotations kept',
    );
    // no temporary folder left behind; the stamp is beside the copy, not inside it
    assert.deepEqual(readdirSync(storage).sort(), ['demo', 'demo.version']);
    assert.equal(readFileSync(path.join(storage, 'demo.version'), 'utf8').trim(), await folderFingerprint(source));
    assert.equal((await syncExampleCopy(source, storage, 'demo')).action, 'current');

    // a copy made before stamps existed is refreshed once
    rmSync(path.join(storage, 'demo.version'));
    assert.equal((await syncExampleCopy(source, storage, 'demo')).action, 'refreshed');
    assert.equal(existsSync(path.join(target, '.trace-inspector', 'annotations.jsonl')), true);
  });

  test('the fingerprint changes with a path or a content, not with the annotations folder', async () => {
    const a = tempDir();
    writeFileSync(path.join(a, 'x.jsonl'), '1');
    const f1 = await folderFingerprint(a);
    mkdirSync(path.join(a, '.trace-inspector'));
    writeFileSync(path.join(a, '.trace-inspector', 'annotations.jsonl'), 'x');
    assert.equal(await folderFingerprint(a), f1);
    writeFileSync(path.join(a, 'x.jsonl'), '2');
    assert.notEqual(await folderFingerprint(a), f1);
    const b = tempDir();
    writeFileSync(path.join(b, 'y.jsonl'), '1');
    assert.notEqual(await folderFingerprint(b), f1, 'same content, other path');
  });
});
