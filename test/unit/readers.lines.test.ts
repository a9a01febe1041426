// sqlite-parity: skip — reading records and their diagnostics; the index is only where the records land
/**
 * Line reader, glob matcher and file listing. Byte-exact inputs are written to a temporary folder by
 * the tests themselves (CRLF, BOM, invalid UTF-8, NUL bytes, over-long lines).
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readLineBatches, readLines, type Line } from '../../src/core/readers/lines';
import { globToRegExp, matchGlob } from '../../src/core/readers/glob';
import { listCandidateFiles } from '../../src/core/readers/index';

let dir = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'readers-lines-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: Buffer | string): string {
  const p = path.join(dir, name);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
  return p;
}

/**
 * The lines of a file, each checked against the file's bytes at its `offset` (`bytes` long, ending at a
 * `\n` or the end of the file, and decoding to its text but for a BOM and a `\r`); returned without
 * `offset` (and without `bytes` for lines that were read), as the tests below state them.
 */
/** A line as the tests below state it (no offset). */
type Shown = { line: number; text: string | null; invalidBytes?: number; tooLong?: boolean; bytes?: number };

async function all(p: string, opts: Parameters<typeof readLines>[1] = {}): Promise<Shown[]> {
  const file = readFileSync(p);
  const out: Shown[] = [];
  for await (const l of readLines(p, opts)) {
    const { offset, ...rest } = l;
    const end = offset + l.bytes;
    assert.ok(end === file.length || file[end] === 0x0a, `line ${l.line} ends at a newline`);
    assert.equal(file.subarray(offset, end).indexOf(0x0a), -1, `line ${l.line} holds no newline`);
    assert.ok(offset === 0 || file[offset - 1] === 0x0a, `line ${l.line} starts after a newline`);
    if (l.text === null) {
      out.push(rest);
      continue;
    }
    const raw = file
      .toString('utf8', offset, end)
      .replace(/^\uFEFF/, '')
      .replace(/\r$/, '');
    assert.equal(raw, l.text, `line ${l.line} is the bytes at its offset`);
    const { bytes: _bytes, ...shown } = rest as typeof rest & { bytes: number };
    out.push(shown);
  }
  return out;
}

describe('readLines', () => {
  test('strips BOM and CR, skips blank lines, keeps line numbers, yields a last line without newline', async () => {
    const p = write(
      'a.jsonl',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\r\n\r\n  \n{"b":2}\n\t\n{"c":3}')]),
    );
    for (const chunkBytes of [1, 2, 1024]) {
      assert.deepEqual(
        await all(p, { chunkBytes }),
        [
          { line: 1, text: '{"a":1}' },
          { line: 4, text: '{"b":2}' },
          { line: 6, text: '{"c":3}' },
        ],
        `chunkBytes ${chunkBytes}`,
      );
    }
  });

  test('invalid UTF-8 is replaced by U+FFFD, not thrown', async () => {
    // 0xff is never valid; 0xc3 starts a 2-byte sequence cut short by the newline
    const p = write(
      'bad-utf8.jsonl',
      Buffer.concat([
        Buffer.from('a'),
        Buffer.from([0xff]),
        Buffer.from('b\n'),
        Buffer.from([0xc3]),
        Buffer.from('\nok\n'),
      ]),
    );
    assert.deepEqual(await all(p), [
      { line: 1, text: 'a\uFFFDb', invalidBytes: 1 },
      { line: 2, text: '\uFFFD', invalidBytes: 1 },
      { line: 3, text: 'ok' },
    ]);
  });

  test('invalid bytes are counted per line, in every chunk size; a real U+FFFD in the file is not', async () => {
    // line 1: a real U+FFFD (EF BF BD) and a truncated 3-byte sequence E2 82 (2 bytes, one U+FFFD);
    // line 2: C0 80 (overlong: 2 invalid bytes, 2 U+FFFD), then a valid é; line 3: valid; line 4 (no newline): FE
    const p = write(
      'mixed-utf8.jsonl',
      Buffer.concat([
        Buffer.from('x\uFFFDy', 'utf8'),
        Buffer.from([0xe2, 0x82]),
        Buffer.from('z\n'),
        Buffer.from([0xc0, 0x80]),
        Buffer.from('é\nfine\n', 'utf8'),
        Buffer.from([0xfe]),
      ]),
    );
    for (const chunkBytes of [1, 2, 3, 7, 1024]) {
      assert.deepEqual(
        (await all(p, { chunkBytes })).map((l) => [l.line, (l.text !== null && l.invalidBytes) || 0]),
        [
          [1, 2],
          [2, 2],
          [3, 0],
          [4, 1],
        ],
        `chunkBytes ${chunkBytes}`,
      );
    }
  });

  test('lines and multi-byte characters spanning chunk boundaries are reassembled', async () => {
    const text = 'héllo wörld ✓\nsecond line 日本語\nthird';
    const p = write('chunks.txt', text);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64]) {
      assert.deepEqual(
        (await all(p, { chunkBytes })).map((l) => l.text),
        ['héllo wörld ✓', 'second line 日本語', 'third'],
        `chunkBytes ${chunkBytes}`,
      );
    }
  });

  test('a line over the cap is skipped and reported, with its byte length; later lines still read', async () => {
    // line 2 is 20 bytes; cap 10; tiny chunks force the carried (cross-chunk) path too
    const p = write('long.jsonl', 'short\n01234567890123456789\nafter\n0123456789\nend');
    for (const chunkBytes of [4, 1024]) {
      assert.deepEqual(
        await all(p, { maxLineBytes: 10, chunkBytes }),
        [
          { line: 1, text: 'short' },
          { line: 2, text: null, tooLong: true, bytes: 20 },
          { line: 3, text: 'after' },
          { line: 4, text: '0123456789' },
          { line: 5, text: 'end' },
        ],
        `chunkBytes ${chunkBytes}`,
      );
    }
  });

  test('an over-long last line without newline is reported', async () => {
    const p = write('long-last.jsonl', 'a\n' + 'x'.repeat(50));
    assert.deepEqual(await all(p, { maxLineBytes: 10, chunkBytes: 8 }), [
      { line: 1, text: 'a' },
      { line: 2, text: null, tooLong: true, bytes: 50 },
    ]);
  });

  test('the cap counts UTF-8 bytes, not characters', async () => {
    // 4 characters of 3 bytes each = 12 bytes
    const p = write('cap-bytes.txt', '日本語日\nab\n');
    assert.deepEqual(await all(p, { maxLineBytes: 11 }), [
      { line: 1, text: null, tooLong: true, bytes: 12 },
      { line: 2, text: 'ab' },
    ]);
  });

  test('batches group the lines of one chunk', async () => {
    const p = write('batches.txt', 'a\nb\nc\n');
    const batches: Line[][] = [];
    for await (const b of readLineBatches(p)) batches.push(b);
    assert.equal(batches.length, 1);
    assert.deepEqual(
      batches[0].map((l) => l.text),
      ['a', 'b', 'c'],
    );
  });

  test('an aborted signal stops reading by throwing its reason', async () => {
    const p = write('abort.txt', 'a\nb\n');
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await assert.rejects(all(p, { signal: ac.signal }), /stop/);
  });

  test('a missing file throws (I/O failure of the whole file)', async () => {
    await assert.rejects(all(path.join(dir, 'nope.jsonl')), /ENOENT/);
  });
});

describe('glob', () => {
  test('patterns without a slash match the file name in any folder', () => {
    assert.equal(matchGlob('a/b/c.jsonl', '*.jsonl'), true);
    assert.equal(matchGlob('c.jsonl', '*.jsonl'), true);
    assert.equal(matchGlob('a/b/c.json', '*.jsonl'), false);
  });
  test('* does not cross folders; ** does', () => {
    assert.equal(matchGlob('runs/x.jsonl', 'runs/*.jsonl'), true);
    assert.equal(matchGlob('runs/a/x.jsonl', 'runs/*.jsonl'), false);
    assert.equal(matchGlob('runs/a/x.jsonl', 'runs/**/*.jsonl'), true);
    assert.equal(matchGlob('runs/x.jsonl', 'runs/**/*.jsonl'), true);
    assert.equal(matchGlob('runs/a/b', 'runs/**'), true);
  });
  test('?, classes, braces, and regex characters are literal where they should be', () => {
    assert.equal(matchGlob('step-1.jsonl', 'step-?.jsonl'), true);
    assert.equal(matchGlob('step-10.jsonl', 'step-?.jsonl'), false);
    assert.equal(matchGlob('a/x.eval', 'a/*.{json,eval}'), true);
    assert.equal(matchGlob('a/x.csv', 'a/*.{json,eval}'), false);
    assert.equal(matchGlob('r1.jsonl', 'r[0-9].jsonl'), true);
    assert.equal(matchGlob('rx.jsonl', 'r[!0-9].jsonl'), true);
    assert.equal(matchGlob('axjsonl', 'a.jsonl'), false);
    assert.equal(globToRegExp('./a/(b).json').test('a/(b).json'), true);
  });
});

describe('listCandidateFiles', () => {
  test('walks recursively, sorts, skips node_modules/.git/.trace-inspector, applies include/exclude, survives symlink loops', async () => {
    const root = path.join(dir, 'tree');
    mkdirSync(root, { recursive: true });
    write('tree/b.jsonl', '{}\n');
    write('tree/a/x.json', '{}');
    write('tree/a/notes.txt', 'x');
    write('tree/a/deep/z.eval', 'PK');
    write('tree/node_modules/m.jsonl', '{}\n');
    write('tree/.git/g.json', '{}');
    write('tree/.trace-inspector/index.json', '{}');
    write('tree/tmp/t.jsonl', '{}\n');
    symlinkSync(root, path.join(root, 'a', 'loop'));
    symlinkSync(path.join(root, 'missing'), path.join(root, 'broken.jsonl'));
    assert.deepEqual(await listCandidateFiles(root), ['a/deep/z.eval', 'a/x.json', 'b.jsonl', 'tmp/t.jsonl']);
    assert.deepEqual(await listCandidateFiles(root, { exclude: ['tmp'] }), ['a/deep/z.eval', 'a/x.json', 'b.jsonl']);
    assert.deepEqual(await listCandidateFiles(root, { include: ['*.txt', 'a/**/*.eval'] }), [
      'a/deep/z.eval',
      'a/notes.txt',
    ]);
  });

  test('files named by a mapping file are listed even with other extensions', async () => {
    const root = path.join(dir, 'mapped');
    write(
      'mapped/sub/trace-inspector.mapping.json',
      JSON.stringify({ files: ['*.txt'], records: 'per-sample', fields: { problemId: 'id', text: 't' } }),
    );
    write('mapped/sub/d.txt', '{"id":1,"t":"x"}\n');
    write('mapped/e.txt', 'not listed');
    assert.deepEqual(await listCandidateFiles(root), ['sub/d.txt', 'sub/trace-inspector.mapping.json']);
  });
});
