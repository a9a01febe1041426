/**
 * A change of the include/exclude globs re-indexes (commands.ts watches PASS_SETTINGS): results files
 * newly left out leave the index, counted in one diagnostic while they stay out; their annotations are
 * kept (index and mirror) and come back on the same samples when the files are listed again.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationStore } from '../../src/core/index/annotations';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { rolloutLine, tempDir } from './helpers';

/** Sample texts that name their model (the same qid and rollout differ between models). */
const named = (q: number, i: number, m: string) => `${m} solution ${q}.${i}`;

const excludedDiag = (index: TraceIndex) =>
  index.diagnostics().filter((d) => d.message.includes('not listed by the include/exclude settings'));

describe('include/exclude: files left out leave the index, their annotations come back', () => {
  test('excluded files: counted in one diagnostic while out; annotations kept in the mirror and back on the same sample', async () => {
    const dir = tempDir('ti-exclude-');
    writeFileSync(join(dir, 'base.jsonl'), `${rolloutLine(0, 'base', [true, false], named)}\n`);
    writeFileSync(join(dir, 'rl.jsonl'), `${rolloutLine(0, 'rl', [true, true], named)}\n`);
    writeFileSync(join(dir, 'rl2.jsonl'), `${rolloutLine(0, 'rl2', [false, true], named)}\n`);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    assert.equal(index.models().length, 3);
    const mirror = join(dir, '.trace-inspector', 'annotations.jsonl');
    const store = new AnnotationStore(index, mirror);
    const p = index.listProblems()[0];
    const rl = index.models().find((m) => m.name === 'rl')!;
    store.set(
      store.refOf(index.samples(p.id, rl.id)[1].id)!,
      ['lucky guess'],
      'note',
      new Date('2026-01-01T00:00:00Z'),
    );

    const out = await indexFolder(index, dir, { exclude: ['rl*.jsonl'] });
    assert.equal(out.filesExcluded, 2);
    assert.equal(out.filesRemoved, 2);
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['base'],
    );
    assert.equal(out.samples, 2, 'only base.jsonl samples are counted');
    const d = excludedDiag(index);
    assert.equal(d.length, 1);
    assert.equal(d[0].file, 'rl.jsonl');
    assert.equal(d[0].severity, 'info');
    assert.match(d[0].message, /^2 results files not listed by the include\/exclude settings \(this one and 1 more\)/);
    // the annotation stays in the index and the mirror
    assert.equal(store.all().length, 1);
    store.importJsonl(mirror, '.trace-inspector/annotations.jsonl');
    assert.match(readFileSync(mirror, 'utf8'), /lucky guess/);

    // the next pass with the same globs: nothing re-read, the count stays
    const again = await indexFolder(index, dir, { exclude: ['rl*.jsonl'] });
    assert.equal(again.filesExcluded, 0, 'none left in this pass');
    assert.equal(again.filesIndexed, 0);
    assert.equal(excludedDiag(index).length, 1);
    assert.match(excludedDiag(index)[0].message, /^2 results files/);

    // one excluded file deleted: no longer counted
    rmSync(join(dir, 'rl2.jsonl'));
    await indexFolder(index, dir, { exclude: ['rl*.jsonl'] });
    assert.match(excludedDiag(index)[0].message, /^1 results file not listed .*\(this one\)/);

    // listed again: the samples and the annotation come back, the diagnostic goes
    const back = await indexFolder(index, dir);
    assert.equal(back.filesIndexed, 1);
    assert.deepEqual(excludedDiag(index), []);
    const rlAgain = index.models().find((m) => m.name === 'rl')!;
    assert.deepEqual(
      index.samples(index.listProblems()[0].id, rlAgain.id).map((s) => s.labels),
      [[], ['lucky guess']],
    );
    index.close();
  });

  test('an include glob that leaves files out counts them the same way; a deleted file is not counted', async () => {
    const dir = tempDir('ti-include-');
    writeFileSync(join(dir, 'a.jsonl'), `${rolloutLine(0, 'a', [true], named)}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${rolloutLine(0, 'b', [true], named)}\n`);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const s = await indexFolder(index, dir, { include: ['a.jsonl'] });
    assert.equal(s.filesExcluded, 1);
    assert.equal(excludedDiag(index)[0].file, 'b.jsonl');
    const gone = await indexFolder(index, dir);
    assert.equal(gone.filesIndexed, 1);
    rmSync(join(dir, 'b.jsonl'));
    const del = await indexFolder(index, dir);
    assert.equal(del.filesRemoved, 1);
    assert.equal(del.filesExcluded, 0, 'deleted, not excluded');
    assert.deepEqual(excludedDiag(index), []);
    index.close();
  });
});
