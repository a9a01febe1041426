/**
 * `trace-inspector index` says what became of the annotations on the files it read again, as the extension
 * does after a pass (trial 14: the CLI said nothing): on stderr, `[annotations] ... back on ... / ... on no
 * sample now: problem P sample I (file:line)`, and in `--format json` as `annotationsOfChangedFiles`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { indexFolder } from '../../src/core/index/indexer';
import { AnnotationStore } from '../../src/core/index/annotations';
import { rolloutLine, tempDir } from './helpers';
import { runCli } from './reliability.support';

describe('CLI index: the annotations of the files read again', () => {
  test('one back on its sample, one on no sample (its text changed), named with file and line', async () => {
    const dir = tempDir();
    const tmp = tempDir('ti-cli-fates-');
    const db = join(tmp, 'i.db');
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, `${rolloutLine(0, 'm', [true])}\n${rolloutLine(1, 'm', [true, false])}\n`);
    const index = TraceIndex.open(db);
    await indexFolder(index, dir);
    const store = new AnnotationStore(index);
    const m = index.models()[0].id;
    for (const p of index.listProblems()) {
      const s = index.samples(p.id, m).at(-1);
      assert.ok(s);
      store.set(store.refOf(s.id)!, ['lucky guess'], '');
    }
    index.close();
    // problem 1's sample 1 gets another text; problem 0's line is unchanged
    writeFileSync(
      file,
      `${rolloutLine(0, 'm', [true])}\n${rolloutLine(1, 'm', [true, false], (q, i) => (i === 1 ? 'a different trace' : `solution ${q}.${i}`))}\n`,
    );
    const text = runCli(['index', dir, '--db', db], tmp);
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stderr,
      /\[annotations\] 1 annotation of the files read again is back on its sample; 1 annotation is on no sample now: its sample's text changed \(or the sample left the folder\): problem 1 sample 1 \(r\.jsonl:2\)\. It is shown nowhere; its labels and note are in \.trace-inspector\/annotations\.jsonl\n/,
    );
    // nothing read again: nothing said
    const again = runCli(['index', dir, '--db', db, '--format', 'json'], tmp);
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /\[annotations\]/);
    assert.deepEqual(JSON.parse(again.stdout).annotationsOfChangedFiles, { onSample: 0, onNoSample: 0, orphaned: [] });
  });

  test('--format json carries the counts and the annotations on no sample', async () => {
    const dir = tempDir();
    const tmp = tempDir('ti-cli-fates-');
    const db = join(tmp, 'i.db');
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, `${rolloutLine(3, 'm', [false, true])}\n`);
    const index = TraceIndex.open(db);
    await indexFolder(index, dir);
    const store = new AnnotationStore(index);
    const [s0] = index.samples(index.listProblems()[0].id, index.models()[0].id);
    store.set(store.refOf(s0.id)!, ['grader error'], 'n');
    index.close();
    writeFileSync(file, `${rolloutLine(3, 'm', [false, true], (q, i) => `other ${q}.${i}`)}\n`);
    const r = runCli(['index', dir, '--db', db, '--format', 'json'], tmp);
    assert.equal(r.status, 0, r.stderr);
    const fates = JSON.parse(r.stdout).annotationsOfChangedFiles;
    assert.equal(fates.onSample, 0);
    assert.equal(fates.onNoSample, 1);
    assert.equal(fates.orphaned.length, 1);
    assert.equal(fates.orphaned[0].path, 'r.jsonl');
    assert.equal(fates.orphaned[0].line, 1);
    assert.equal(fates.orphaned[0].sampleIndex, 0);
  });
});
