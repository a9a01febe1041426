/**
 * Hostile and broken results folders, indexed end to end (folder -> indexer -> SQLite): every bad
 * case yields a diagnostic naming file, line and reason, the rest of the folder indexes with exact
 * counts, and nothing throws or hangs. Small cases are handwritten fixtures
 * (test/fixtures/reliability/bad, byte-exact: see its .gitattributes); large or dangerous ones (a
 * 200 MB line, zip bombs, deep nesting, symlink loops, files changing mid-index) are generated into a
 * temporary folder by the tests. Run with cwd = the repository root.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { readSampleTexts } from '../../src/core/index/sampleText';
import { TraceIndex } from '../../src/core/index/traceIndex';
import type { Diagnostic } from '../../src/core/model';
import { tempDir } from './helpers';
import { FIX, buildZip, inspectHeader, inspectSample, rolloutLine, runCli } from './reliability.support';

/** `file:line` or `file:entry` (an archive entry: trial 12 finding 24), then severity and message. */
const fmt = (d: Diagnostic) => `${d.file}:${d.entry ?? d.line}:${d.severity}:${d.message}`;

/** Per model display id: [problems, samples, correct]. */
function counts(index: TraceIndex): Record<string, [number, number, number]> {
  return Object.fromEntries(index.models().map((m) => [m.displayId, [m.problems, m.samples, m.correct]]));
}

/** Texts and verdicts of one model's samples of one problem, in sample order. */
async function samplesOf(index: TraceIndex, displayId: string, problemId: string): Promise<[string, boolean | null][]> {
  const m = index.models().find((x) => x.displayId === displayId)!;
  for (const p of index.listProblems({ kind: 'all' }, 0, 100_000).filter((x) => x.problemId === problemId)) {
    const got = await readSampleTexts(index, p.id, m.id);
    if (got.length) return got.map((s) => [s.text, s.correct]);
  }
  return [];
}

describe('bad input: the handwritten folder', () => {
  test('each bad file is a diagnostic with file, line and reason; every good record indexes', async () => {
    const index = TraceIndex.open(':memory:');
    const s = await indexFolder(index, join(FIX, 'bad'));
    assert.equal(s.cancelled, false);
    const got = s.diagnostics.map(fmt);
    // V8's own parse messages are not ours to pin: checked by prefix (and the truncation hint by suffix).
    const malformed = got.filter((m) => m.includes(':error:malformed JSON ('));
    assert.deepEqual(
      malformed.map((m) => m.slice(0, m.indexOf(':error:'))),
      ['badutf8.jsonl:2', 'midbad.jsonl:2', 'truncated.jsonl:3'],
    );
    assert.ok(malformed[2].endsWith('; truncated last line?'), malformed[2]);
    assert.ok(!malformed[1].endsWith('; truncated last line?'), 'a bad line mid-file is not called truncated');
    assert.deepEqual(
      got.filter((m) => !m.includes(':error:malformed JSON (')),
      [
        // C3 before "(" and FF: two bytes; the line still parses
        'badutf8.jsonl:1:warning:invalid UTF-8: 2 bytes replaced by U+FFFD',
        'badutf8.jsonl:2:warning:invalid UTF-8: 2 bytes replaced by U+FFFD',
        'binary.jsonl:0:error:binary file (NUL bytes in the first 64 KiB); not read',
        'corrupt.eval:0:error:corrupt .eval archive (End of central directory record signature not found. Either not a zip file, or file is truncated.)',
        'dup/dup-a.jsonl:3:warning:duplicate problem id "0" (first at line 1); skipped',
        'dup/dup-b.jsonl:1:warning:duplicate problem id "1" for model dup: already indexed from dup/dup-a.jsonl; skipped',
        'empty.jsonl:0:error:empty file',
        // Python's json.dumps literals: each value is missing, the line is read
        'nan.jsonl:1:warning:1 non-standard number (NaN) read as missing value (a missing verdict leaves its sample ungraded: in no figure; a missing reward score leaves it out of best-of-k)',
        'nan.jsonl:1:info:problem "0" of model nan has no graded sample (1 sample, none with a verdict): it counts in "missing" of every figure of this model',
        'nan.jsonl:2:warning:1 non-standard number (Infinity, -Infinity) read as number (a reward score of -Infinity is the lowest score, Infinity the highest; neither is a verdict)',
        'nan.jsonl:3:warning:1 non-standard number (Infinity, -Infinity) read as number (a reward score of -Infinity is the lowest score, Infinity the highest; neither is a verdict)',
        // line 5's score 2 is not a verdict: every score of the file that spells a number is ungraded, line
        // 2's 1/0 and line 1's "1" too; line 1's "true", "False", "no" stay verdicts (trial 6 finding 3)
        'qwen/scores.jsonl:1:info:problem "0" of model qwen: 1 of its 4 samples has no verdict (ungraded): it is in no figure; its n is the 3 graded',
        'qwen/scores.jsonl:2:info:problem "1" of model qwen has no graded sample (3 samples, none with a verdict): it counts in "missing" of every figure of this model',
        'qwen/scores.jsonl:3:info:problem "2" of model qwen has no graded sample (2 samples, none with a verdict): it counts in "missing" of every figure of this model',
        'qwen/scores.jsonl:4:warning:code has 8 samples but score has 7; keeping the first 7',
        'qwen/scores.jsonl:5:warning:1 score value is not a boolean or 0/1; that sample is ungraded',
        'qwen/scores.jsonl:5:warning:score values are scores, not verdicts (values other than 0/1, e.g. 2): every score value of this file that spells a number is a score (numbers and numeric strings alike), so its 1 score other than 0/1 and its 4 values 0/1 ("1", 1, 0) are ungraded (true/false and words such as "yes" stay verdicts); to count a score >= x as correct, give --correct-threshold x (setting traceInspector.correctThreshold)',
        'qwen/scores.jsonl:5:info:problem "4" of model qwen has no graded sample (2 samples, none with a verdict): it counts in "missing" of every figure of this model',
      ],
    );
    // [problems, samples, correct] per model, counted by hand from the fixture files
    assert.deepEqual(counts(index), {
      bom: [2, 2, 1], // BOM stripped: line 1 parses
      crlf: [2, 3, 2], // CR stripped, the blank CRLF line skipped
      good: [1, 3, 2],
      mid: [2, 3, 1], // lines 1 and 3 around the bad line 2
      nan: [4, 4, 2], // NaN read as a missing verdict (qid 0 ungraded); Infinity, -Infinity and 1e999 are numbers, no token count
      trunc: [2, 3, 2], // the cut last line is lost, the two before it are not
      utf8: [2, 2, 1], // invalid bytes inside a string become U+FFFD; a line of only invalid bytes is malformed
      'dup:dup': [3, 4, 2], // dup-a q0 [T], q1 [F,F]; dup-b q1 skipped (first file wins), q2 [T]
      'qwen:qwen': [5, 18, 5], // problem 1's 1/0/1 and problem 0's "1" are scores (the file also holds a 2): not correct
    });
    assert.deepEqual(await samplesOf(index, 'bom', '0'), [['bom q0 s0', true]]);
    assert.deepEqual(await samplesOf(index, 'crlf', '0'), [
      ['crlf q0 s0', true],
      ['crlf q0 s1', true],
    ]);
    assert.deepEqual(await samplesOf(index, 'utf8', '0'), [['caf\uFFFD(\uFFFD end', true]]);
    assert.deepEqual(await samplesOf(index, 'dup:dup', '1'), [
      ['dup q1 s0', false],
      ['dup q1 s1', false],
    ]);
    // score as strings, 0/1, null, 8 codes with 7 scores, invalid values
    assert.deepEqual(
      (await samplesOf(index, 'qwen:qwen', '0')).map((x) => x[1]),
      [true, false, null, false],
    );
    assert.deepEqual(
      (await samplesOf(index, 'qwen:qwen', '1')).map((x) => x[1]),
      [null, null, null],
    );
    assert.deepEqual(
      (await samplesOf(index, 'qwen:qwen', '2')).map((x) => x[1]),
      [null, null],
    );
    assert.deepEqual(
      (await samplesOf(index, 'qwen:qwen', '3')).map((x) => x[0]),
      ['s0', 's1', 's2', 's3', 's4', 's5', 's6'],
    );
    assert.deepEqual(
      (await samplesOf(index, 'qwen:qwen', '4')).map((x) => x[1]),
      [null, null],
    );
    assert.equal(index.db.pragma('integrity_check', { simple: true }), 'ok');
    index.close();
  });
});

describe('bad input: generated cases', () => {
  test('symlink loops, very deep nesting and zip bombs: diagnostics, the rest indexes, no hang', async () => {
    const dir = tempDir('rel-gen-');
    writeFileSync(join(dir, 'good.jsonl'), `${rolloutLine(0, 'good', [true, false])}\n`);
    // symlink loops: to the folder itself, to its parent, and two links pointing at each other
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'inner.jsonl'), `${rolloutLine(1, 'good', [true])}\n`);
    symlinkSync('..', join(dir, 'sub', 'up'));
    symlinkSync('.', join(dir, 'self'));
    symlinkSync('b-link.jsonl', join(dir, 'a-link.jsonl'));
    symlinkSync('a-link.jsonl', join(dir, 'b-link.jsonl'));
    // 100 000 nested arrays as a whole line and inside a record
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    writeFileSync(
      join(dir, 'deep.jsonl'),
      `${deep}\n{"qid": 5, "model_name": "deep", "rollouts": [{"text": ${deep}, "correct": true}, {"text": "fine", "correct": true}]}\n`,
    );
    // zip bomb 1: a sample entry whose header claims 100 bytes but inflates to 64 MiB
    // zip bomb 2: an entry that honestly declares 1 GiB (refused before inflating)
    const good = inspectSample(1, 1, 'four', 'C');
    writeFileSync(
      join(dir, 'bomb.eval'),
      buildZip([
        { name: 'header.json', data: Buffer.from(inspectHeader()) },
        { name: 'samples/1_epoch_1.json', data: Buffer.from(good) },
        { name: 'samples/2_epoch_1.json', data: Buffer.alloc(64 * 1024 * 1024, 0x20), declaredSize: 100 },
        { name: 'samples/3_epoch_1.json', data: Buffer.from('{}'), declaredSize: 1024 * 1024 * 1024 },
        { name: 'samples/4_epoch_1.json', data: Buffer.from(inspectSample(4, 1, 'five', 'I')) },
      ]),
    );
    // a truncated archive: the first half of a valid one
    const whole = buildZip([
      { name: 'header.json', data: Buffer.from(inspectHeader()) },
      { name: 'samples/1_epoch_1.json', data: Buffer.from(good) },
    ]);
    writeFileSync(join(dir, 'cut.eval'), whole.subarray(0, Math.floor(whole.length / 2)));

    const index = TraceIndex.open(':memory:');
    const t0 = Date.now();
    const s = await indexFolder(index, dir);
    assert.ok(Date.now() - t0 < 30_000, 'no hang');
    const got = s.diagnostics.map(fmt);
    assert.deepEqual(
      got.filter((m) => !m.startsWith('bomb.eval') && !m.startsWith('cut.eval')),
      [
        // the loop is named (trial 12 finding 7), not only survived
        'a-link.jsonl:0:error:symbolic link loop -> b-link.jsonl (ELOOP: the links point at each other): not read',
        'b-link.jsonl:0:error:symbolic link loop -> a-link.jsonl (ELOOP: the links point at each other): not read',
        'deep.jsonl:1:error:record is not a JSON object (got array)',
        'deep.jsonl:2:error:rollouts[0].text is not a string (got array); sample skipped, and its verdict (correct true) is lost with it',
        // links to a folder holding them: named, not followed (trial 12 finding 7, related)
        'self:0:warning:symbolic link loop -> . (the results folder, which holds it): not followed, its files are read once',
        'sub/up:0:warning:symbolic link loop -> .. (the results folder, which holds it): not followed, its files are read once',
      ],
    );
    const bomb = got.filter((m) => m.startsWith('bomb.eval'));
    assert.equal(bomb.length, 2, bomb.join('\n'));
    // diagnostics are listed by file and line: the declared-size refusal (line 0) first
    assert.equal(
      bomb[0],
      'bomb.eval:0:error:samples/3_epoch_1.json: entry samples/3_epoch_1.json is too large (1073741824 bytes > 268435456 bytes); skipped',
    );
    // the lying header is caught after the first inflated block, not after 64 MiB
    assert.match(
      bomb[1],
      /^bomb\.eval:samples\/2_epoch_1\.json:error:too many bytes in the stream\. expected 100\. got at least \d+; skipped$/,
    );
    assert.ok(Number(/at least (\d+)/.exec(bomb[1])![1]) <= 1024 * 1024, bomb[1]);
    const cut = got.filter((m) => m.startsWith('cut.eval'));
    assert.equal(cut.length, 1);
    assert.match(cut[0], /^cut\.eval:0:error:corrupt \.eval archive \(/);
    assert.deepEqual(counts(index), {
      // `sub/up` and `self` lead back into the folder: each real folder is walked once
      good: [1, 2, 1],
      'sub:good': [1, 1, 1],
      deep: [1, 1, 1],
      'bomb.eval:test/model-z': [2, 2, 1],
    });
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a 200 MB single line: skipped with a diagnostic, the rest indexes, peak memory bounded (CLI in a child process)', async () => {
    const dir = tempDir('rel-huge-');
    const folder = join(dir, 'results');
    mkdirSync(folder);
    const MiB = 1024 * 1024;
    const fd = openSync(join(folder, 'huge.jsonl'), 'w');
    const head = '{"qid": 0, "model_name": "huge", "rollouts": [{"text": "';
    const chunk = Buffer.alloc(MiB, 'a');
    writeSync(fd, head);
    for (let i = 0; i < 200; i++) writeSync(fd, chunk);
    const tail = '", "correct": true}]}\n';
    writeSync(fd, tail);
    writeSync(fd, `${rolloutLine(1, 'huge', [true, false])}\n`);
    closeSync(fd);
    writeFileSync(join(folder, 'ok.jsonl'), `${rolloutLine(0, 'ok', [true])}\n`);
    const lineBytes = head.length + 200 * MiB + tail.length - 1;
    // a file that is nothing but one line over the cap (65 MiB, no newline): its format cannot be detected
    const fd2 = openSync(join(folder, 'one-line.jsonl'), 'w');
    writeSync(fd2, '{"x": "');
    for (let i = 0; i < 65; i++) writeSync(fd2, chunk);
    writeSync(fd2, '"}');
    closeSync(fd2);

    const t0 = Date.now();
    const r = runCli(['index', folder, '--db', join(dir, 'index.db'), '--format', 'json', '-q'], dir);
    const elapsed = Date.now() - t0;
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { filesIndexed: number; samples: number; diagnostics: Diagnostic[] };
    assert.deepEqual([out.filesIndexed, out.samples], [2, 3]);
    assert.deepEqual(out.diagnostics.map(fmt), [
      `huge.jsonl:1:error:line too long (${lineBytes} bytes > 67108864 bytes); skipped`,
      `one-line.jsonl:1:error:line too long (${65 * MiB + 9} bytes > 67108864 bytes) and none of the other first lines is a JSON object; not read`,
    ]);
    // Holding the line would need its 200 MiB buffer plus its decoded string (>= 400 MiB); the reader
    // keeps at most the 64 MiB line cap. Measured: about 200 MiB for the whole CLI process.
    assert.ok(r.maxRssKiB > 0 && r.maxRssKiB < 320 * 1024, `peak RSS ${r.maxRssKiB} KiB`);
    assert.ok(elapsed < 60_000, `took ${elapsed} ms`);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('files that change while they are indexed', () => {
  test('a file appended to during indexing (a run in progress): the pass completes; the next pass has exact counts', async () => {
    const dir = tempDir('rel-grow-');
    const file = join(dir, 'grow.jsonl');
    writeFileSync(file, `${Array.from({ length: 30 }, (_, q) => rolloutLine(q, 'live', [true, false])).join('\n')}\n`);
    const index = TraceIndex.open(join(dir, '.db', 'index.db'));
    let appended = false;
    const first = await indexFolder(index, dir, {
      batchSize: 10,
      onProgress: (p) => {
        if (!appended && p.phase === 'index' && p.samples >= 10) {
          appended = true;
          // the writer appends whole lines and then half of one (it is still writing)
          appendFileSync(
            file,
            `${rolloutLine(30, 'live', [true, true])}\n${rolloutLine(31, 'live', [false]).slice(0, 25)}`,
          );
        }
      },
    });
    assert.equal(appended, true);
    assert.equal(first.cancelled, false);
    // Whatever the first pass saw, it is consistent: at least the 30 original problems.
    assert.ok(counts(index).live[0] >= 30, JSON.stringify(counts(index)));
    // The writer finishes the line; the next pass re-reads the changed file and matches it exactly.
    appendFileSync(file, `${rolloutLine(31, 'live', [false]).slice(25)}\n`);
    const second = await indexFolder(index, dir);
    assert.equal(second.filesIndexed, 1);
    assert.deepEqual(second.diagnostics, []);
    assert.deepEqual(counts(index).live, [32, 63, 32]); // 30 x [T,F], q30 [T,T], q31 [F]
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a file deleted or made unreadable mid-index: a diagnostic for it, the rest indexes, stale diagnostics go away', async () => {
    const dir = tempDir('rel-vanish-');
    for (const n of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, `${n}.jsonl`), `${rolloutLine(0, n, [true])}\n`);
    const index = TraceIndex.open(join(dir, '.db', 'index.db'));
    let done = false;
    const s = await indexFolder(index, dir, {
      onProgress: (p) => {
        if (!done && p.phase === 'index' && p.file === 'a.jsonl') {
          done = true;
          rmSync(join(dir, 'b.jsonl'));
          // unreadable: a folder where the file was (EISDIR; chmod 000 does not stop root)
          rmSync(join(dir, 'c.jsonl'));
          mkdirSync(join(dir, 'c.jsonl'));
          if (process.getuid?.() !== 0) chmodSync(join(dir, 'd.jsonl'), 0o000);
        }
      },
    });
    const got = s.diagnostics.map(fmt);
    assert.match(got[0], /^b\.jsonl:0:error:cannot read file: ENOENT/);
    assert.match(got[1], /^c\.jsonl:0:error:cannot read file: EISDIR|^c\.jsonl:0:error:indexing failed: EISDIR/);
    const unreadable = process.getuid?.() !== 0;
    assert.equal(got.length, unreadable ? 3 : 2, got.join('\n'));
    if (unreadable) assert.match(got[2], /^d\.jsonl:0:error:.*EACCES/);
    assert.deepEqual(Object.keys(counts(index)), unreadable ? ['a'] : ['a', 'd']);
    // The next pass: b is gone and c is a folder; their diagnostics must not linger.
    rmSync(join(dir, 'c.jsonl'), { recursive: true });
    if (unreadable) chmodSync(join(dir, 'd.jsonl'), 0o644);
    const again = await indexFolder(index, dir);
    assert.deepEqual(again.diagnostics.map(fmt), []);
    assert.deepEqual(Object.keys(counts(index)), ['a', 'd']);
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a duplicate skipped because another file had it is indexed once that file is gone', async () => {
    const dir = tempDir('rel-dup-');
    writeFileSync(join(dir, 'a.jsonl'), `${rolloutLine(0, 'm', [true])}\n${rolloutLine(1, 'm', [true])}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${rolloutLine(1, 'm', [false, false])}\n${rolloutLine(2, 'm', [true])}\n`);
    const index = TraceIndex.open(':memory:');
    const s = await indexFolder(index, dir);
    assert.deepEqual(s.diagnostics.map(fmt), [
      'b.jsonl:1:warning:duplicate problem id "1" for model m: already indexed from a.jsonl; skipped',
    ]);
    assert.deepEqual(counts(index).m, [3, 3, 3]);
    // a.jsonl is removed: b.jsonl's problem 1 is no longer a duplicate and must appear
    rmSync(join(dir, 'a.jsonl'));
    const after = await indexFolder(index, dir);
    assert.deepEqual(after.diagnostics.map(fmt), []);
    assert.deepEqual(counts(index).m, [2, 3, 1]);
    assert.deepEqual(await samplesOf(index, 'm', '1'), [
      ['m q1 s0', false],
      ['m q1 s1', false],
    ]);
    // a.jsonl comes back: it is first in order again, but b.jsonl already holds problem 1 now, so a's copy is the duplicate
    writeFileSync(join(dir, 'a.jsonl'), `${rolloutLine(0, 'm', [true])}\n${rolloutLine(1, 'm', [true])}\n`);
    const back = await indexFolder(index, dir);
    assert.deepEqual(back.diagnostics.map(fmt), [
      'a.jsonl:2:warning:duplicate problem id "1" for model m: already indexed from b.jsonl; skipped',
    ]);
    assert.deepEqual(counts(index).m, [3, 4, 2]);
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('bad input copied into a live folder', () => {
  test("re-indexing the bad folder after a good one keeps the good models and adds the bad folder's diagnostics", async () => {
    const dir = tempDir('rel-mix-');
    cpSync(join(FIX, 'bad'), join(dir, 'bad'), { recursive: true });
    writeFileSync(join(dir, 'clean.jsonl'), `${rolloutLine(0, 'clean', [true, true])}\n`);
    const index = TraceIndex.open(join(dir, '.db', 'index.db'));
    const s1 = await indexFolder(index, dir);
    const again = await indexFolder(index, dir);
    assert.equal(again.filesIndexed, 0, 'unchanged bad files are not re-read');
    assert.deepEqual(again.diagnostics.map(fmt), s1.diagnostics.map(fmt), 'diagnostics of unchanged files are kept');
    assert.deepEqual(counts(index).clean, [1, 2, 2]);
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
