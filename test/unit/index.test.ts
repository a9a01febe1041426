import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFolder } from '../../src/core/index/indexer';
import { SCORED_SAMPLES_SQL, TraceIndex, ftsQuery } from '../../src/core/index/traceIndex';
import { SCHEMA_VERSION, migrations } from '../../src/core/index/schema';
import { AnnotationStore } from '../../src/core/index/annotations';
import { openDatabase } from '../../src/core/index/sqlite';
import { REAL, rawRolloutCounts, rolloutLine, tempDir, textsById } from './helpers';

const RUN = join(REAL, 'rlvr-probe-gsm8k', 'results_2048_batched');

describe('index: real rlvr-probe-gsm8k run', () => {
  test('indexes both models with counts equal to the raw rollouts', async () => {
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, RUN);
    assert.equal(summary.filesIndexed, 2);
    assert.equal(summary.samples, 480);
    // the run's summary.txt is no results file, and is named as such (trial 10 finding 10f)
    assert.deepEqual(
      summary.diagnostics.map((d) => [d.file, d.severity, d.message.split(':')[0]]),
      [['summary.txt', 'info', 'not a results file (no samples read)']],
    );
    const models = index.models();
    assert.deepEqual(
      models.map((m) => [m.displayId, m.problems, m.samples, m.correct]),
      [
        ['expx/qwen-2.5-1.5b-rlvr-ppo@main', 30, 240, 175],
        ['ns-0/qwen-2.5-1.5b-instruct-reasoning-sft@checkpoint-8-of-10', 30, 240, 133],
      ],
    );
    // Per problem, the index agrees with a direct count of the raw file.
    for (const [file, model] of [
      ['rl_raw.jsonl', models[0]],
      ['sft_raw.jsonl', models[1]],
    ] as const) {
      const raw = rawRolloutCounts(join(RUN, file));
      const problems = new Map(index.listProblems().map((p) => [p.id, p.problemId]));
      for (const s of index.modelStats(model.id)) {
        assert.deepEqual(
          { n: s.n, c: s.c },
          raw.get(problems.get(s.problemId)!),
          `${file} qid ${problems.get(s.problemId)}`,
        );
      }
    }
    index.close();
  });

  test('problems line up across runs: the whole folder has 30 problems and 12 models', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, join(REAL, 'rlvr-probe-gsm8k'));
    assert.equal(index.countProblems(), 30);
    assert.equal(index.models().length, 12);
    // Runs that share a model name are told apart by the run folder in the label.
    assert.ok(index.models().some((m) => m.label === 'expx/qwen-2.5-1.5b-rlvr-ppo@step-100 (trajectory/step-100)'));
    index.close();
  });

  test('filters: failing problems are those the model never solves', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, RUN);
    const [rl, sft] = index.models();
    const raw = rawRolloutCounts(join(RUN, 'rl_raw.jsonl'));
    const expected = [...raw].filter(([, v]) => v.c === 0).map(([k]) => k);
    assert.deepEqual(
      index.listProblems({ kind: 'failing', model: rl.id }).map((p) => p.problemId),
      expected,
    );
    assert.equal(expected.length, 1);
    // gained by RL: only RL solves; lost: only SFT solves
    assert.equal(index.countProblems({ kind: 'gained', base: sft.id, model: rl.id }), 1);
    assert.equal(index.countProblems({ kind: 'lost', base: sft.id, model: rl.id }), 0);
    // natural numeric order of problem ids
    assert.deepEqual(
      index.listProblems({ kind: 'all' }, 0, 12).map((p) => p.problemId),
      ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'],
    );
    index.close();
  });

  test('full-text search finds samples by words of their text', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, RUN);
    const hits = index.search('typing speed');
    assert.ok(hits.length > 0);
    const text = await textsById(index);
    for (const h of hits) assert.match(text.get(h.id)!.toLowerCase(), /typing/);
    // punctuation in the query is not FTS syntax
    assert.doesNotThrow(() => index.search('"unbalanced (quote AND OR'));
    assert.equal(index.countProblems({ kind: 'search', query: 'zzzzqqqq-not-present' }), 0);
    // Within a problem, only the samples that match are listed and counted.
    const [rl] = index.models();
    const p0 = index.listProblems({ kind: 'search', query: 'typing speed' })[0];
    const all = index.samples(p0.id, rl.id);
    const matching = index.samples(p0.id, rl.id, { matching: 'typing speed' });
    const expected = all.filter((x) => /typing/i.test(text.get(x.id)!) && /speed/i.test(text.get(x.id)!));
    assert.deepEqual(
      matching.map((x) => x.id),
      expected.map((x) => x.id),
    );
    const counts = index.sampleCounts(p0.id, rl.id, 'typing speed');
    assert.equal(counts.correct + counts.incorrect + counts.ungraded, expected.length);
    // The models with a matching sample under each problem (the tree lists only those): "additions"
    // is in RL samples of one problem and SFT samples of another, recounted from the raw texts.
    const word = 'additions';
    for (const p of index.listProblems({ kind: 'search', query: word })) {
      const expectedModels = index
        .models()
        .filter((m) =>
          index.samples(p.id, m.id).some((x) =>
            (
              text
                .get(x.id)!
                .toLowerCase()
                .match(/[\p{L}\p{N}]+/gu) ?? ([] as string[])
            ).includes(word),
          ),
        )
        .map((m) => m.id);
      assert.ok(expectedModels.length === 1, `one model matches in problem ${p.problemId}`);
      assert.deepEqual([...index.matchingModels(p.id, word)], expectedModels);
    }
    index.close();
  });
});

describe('index: incremental', () => {
  test('skips unchanged files, replaces changed ones, removes deleted ones', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.jsonl'),
      `${rolloutLine(0, 'base-model', [true, false])}\n${rolloutLine(1, 'base-model', [false, false])}\n`,
    );
    writeFileSync(join(dir, 'b.jsonl'), `${rolloutLine(0, 'rl-model', [true, true])}\n`);
    const index = TraceIndex.open(join(dir, '.db', 'index.db'));
    const first = await indexFolder(index, dir);
    assert.deepEqual([first.filesIndexed, first.filesSkipped, first.samples], [2, 0, 6]);

    const again = await indexFolder(index, dir);
    assert.deepEqual([again.filesIndexed, again.filesSkipped, again.samplesWritten], [0, 2, 0]);

    // Touched but same content: skipped by hash.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, 'a.jsonl'), later, later);
    const touched = await indexFolder(index, dir);
    assert.deepEqual([touched.filesIndexed, touched.filesSkipped], [0, 2]);

    // Changed: replaced, counts follow.
    appendFileSync(join(dir, 'b.jsonl'), `${rolloutLine(1, 'rl-model', [true, false, false])}\n`);
    const changed = await indexFolder(index, dir);
    assert.deepEqual([changed.filesIndexed, changed.filesSkipped, changed.samples], [1, 1, 9]);
    const rl = index.models().find((m) => m.name === 'rl-model')!;
    assert.deepEqual([rl.problems, rl.samples, rl.correct], [2, 5, 3]);

    // Deleted: its samples, model and stats disappear.
    rmSync(join(dir, 'b.jsonl'));
    const removed = await indexFolder(index, dir);
    assert.equal(removed.filesRemoved, 1);
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['base-model'],
    );
    assert.equal(removed.samples, 4);
    index.close();
  });

  test('problem lists restricted to the problems one model has samples for', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), [0, 1, 2].map((q) => rolloutLine(q, 'base-model', [q === 0])).join('\n'));
    writeFileSync(join(dir, 'b.jsonl'), [1, 2, 3].map((q) => rolloutLine(q, 'rl-model', [false])).join('\n'));
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const rl = index.models().find((m) => m.name === 'rl-model')!;
    assert.equal(index.countProblems(), 4);
    assert.deepEqual(
      index.listProblems({ kind: 'all' }, 0, 10, rl.id).map((p) => p.problemId),
      ['1', '2', '3'],
    );
    assert.equal(index.countProblems({ kind: 'all' }, rl.id), 3);
    // paging within the restriction
    assert.deepEqual(
      index.listProblems({ kind: 'all' }, 1, 1, rl.id).map((p) => p.problemId),
      ['2'],
    );
    index.close();
  });

  test('rebuilding the index (clear, then index) keeps the sample counts and the annotations (it once duplicated every sample)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), `${rolloutLine(0, 'm', [true, false, true])}\n`);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const store = new AnnotationStore(index);
    const s0 = index.samples(index.listProblems()[0].id, index.models()[0].id)[0];
    store.set(store.refOf(s0.id)!, ['grader error'], '');
    for (let i = 0; i < 2; i++) {
      index.clearIndexedData();
      assert.equal(index.models().length, 0);
      await indexFolder(index, dir);
      assert.deepEqual(
        index.models().map((m) => [m.samples, m.correct]),
        [[3, 2]],
        `rebuild ${i + 1}`,
      );
    }
    assert.deepEqual(index.samples(index.listProblems()[0].id, index.models()[0].id)[0].labels, ['grader error']);
    assert.equal(index.db.prepare('SELECT count(*) FROM samples').pluck().get(), 3);
    index.close();
  });

  test('a pass without the full-text index leaves it out; the next pass with it adds the samples without reading any file again', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.jsonl'),
      [0, 1, 2].map((q) => rolloutLine(q, 'm', [true, false], (_q, i) => `word${q}x${i} common`)).join('\n'),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir, { fts: false });
    assert.equal(index.search('common').length, 0, 'nothing searchable after a pass without it');
    const again = await indexFolder(index, dir);
    assert.equal(
      again.filesIndexed,
      0,
      'the unchanged file is not read again: its texts are read back for the full-text index',
    );
    assert.equal(index.search('common').length, 6);
    assert.equal(index.search('word2x1').length, 1);
    // and a further pass has nothing to do
    assert.equal((await indexFolder(index, dir)).filesIndexed, 0);
    assert.equal(index.search('common').length, 6);
    index.close();
  });

  test('a schema-version-1 database is migrated to the current version and its full-text search works', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.jsonl'),
      [0, 1].map((q) => rolloutLine(q, 'm', [true], () => `alpha${q} beta`)).join('\n'),
    );
    const dbPath = join(dir, 'db', 'index.db');
    // Write a version-1 database by hand, as the first release did.
    mkdirSync(join(dir, 'db'));
    const v1 = openDatabase(dbPath);
    v1.exec(migrations[0] as string);
    v1.pragma('user_version = 1');
    v1.close();
    let index = TraceIndex.open(dbPath);
    assert.equal(index.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    await indexFolder(index, dir);
    assert.deepEqual(
      index.listProblems({ kind: 'search', query: 'alpha1' }).map((p) => p.problemId),
      ['1'],
    );
    index.close();
    // Re-opening does not migrate again; an unchanged folder keeps its full-text index.
    index = TraceIndex.open(dbPath);
    await indexFolder(index, dir);
    assert.equal(index.countProblems({ kind: 'search', query: 'beta' }), 2);
    index.close();
  });

  test('ftsQuery: the words of the input, quoted, joined by AND; never FTS syntax', () => {
    assert.equal(ftsQuery('sum of roots'), '"sum" "of" "roots"');
    assert.equal(ftsQuery('x^2+1'), '"x" "2" "1"');
    assert.equal(ftsQuery('"unbalanced (quote AND OR NEAR(a b)'), '"unbalanced" "quote" "AND" "OR" "NEAR" "a" "b"');
    assert.equal(ftsQuery('Lucía naïve Lucía'), '"Lucía" "naïve"');
    assert.equal(ftsQuery('  --- !!! '), '""');
  });

  test('migration 4: a version-3 full-text index (positions, problem column) is replaced by one without positions, rebuilt on the next pass', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.jsonl'),
      [0, 1].map((q) => rolloutLine(q, 'm', [true, false], (_q, i) => `alpha${q} beta x^2+${i}`)).join('\n'),
    );
    const dbPath = join(dir, 'index.db');
    const v3 = openDatabase(dbPath);
    for (const sql of migrations.slice(0, 3)) v3.exec(sql as string);
    v3.prepare('INSERT INTO samples_fts(rowid, text, problem_id) VALUES (1, ?, 1)').run('stale words');
    v3.prepare("INSERT INTO meta(key, value) VALUES ('fts_max_id', '1')").run();
    v3.pragma('user_version = 3');
    v3.close();
    const index = TraceIndex.open(dbPath);
    assert.equal(index.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.match(
      index.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'samples_fts'").pluck().get() as string,
      /detail=none/,
    );
    assert.equal(index.getMeta('fts_max_id'), undefined);
    assert.equal(index.search('stale').length, 0);
    await indexFolder(index, dir);
    assert.deepEqual(
      index.listProblems({ kind: 'search', query: 'alpha1 beta' }).map((p) => p.problemId),
      ['1'],
    );
    // words joined by punctuation are words of their own, found anywhere in the sample
    assert.equal(index.search('x^2+1').length, 2);
    assert.equal(index.search('x^2+0 alpha0').length, 1);
    index.close();
  });

  test('migration 3: best-of-k reads the covering index of scored samples, with the same result as before it', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'index.db');
    let index = TraceIndex.open(dbPath);
    await indexFolder(index, join(REAL, 'qwen25-math-eval-example'));
    const model = index.models().find((m) => m.scored > 0)!;
    assert.ok(model, 'the Qwen2.5-Math example has reward scores (pred_score)');
    const before = index.scoredSamplesByProblem(model.id);
    // Turn the database back into a version-2 one, as the previous release left it.
    index.db.exec('DROP INDEX samples_scored');
    index.db.pragma('user_version = 2');
    index.close();
    index = TraceIndex.open(dbPath);
    assert.equal(index.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    const plan = (index.db.prepare(`EXPLAIN QUERY PLAN ${SCORED_SAMPLES_SQL}`).all(model.id) as { detail: string }[])
      .map((r) => r.detail)
      .join('; ');
    assert.match(plan, /USING COVERING INDEX samples_scored/);
    const after = index.scoredSamplesByProblem(model.id);
    assert.deepEqual(
      [...after.entries()].sort((a, b) => a[0] - b[0]),
      [...before.entries()].sort((a, b) => a[0] - b[0]),
    );
    assert.equal(
      [...after.values()].reduce((a, l) => a + l.length, 0),
      model.scored,
    );
    index.close();
  });

  test('editing the mapping file re-reads the folder; its errors are reported once, on the mapping file, at the right line', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'rl'));
    const line = (id: number) => JSON.stringify({ id, out: [`a${id}`, `b${id}`], ok: [true, false] });
    writeFileSync(join(dir, 'rl', 'out.jsonl'), [0, 1].map((i) => line(i)).join('\n'));
    const mapping = (model: string, textField = 'text') =>
      JSON.stringify(
        {
          files: ['**/out.jsonl'],
          records: 'per-problem',
          fields: { problemId: 'id', [textField]: 'out', correct: 'ok' },
          model,
        },
        null,
        2,
      );
    const MAP = join(dir, 'trace-inspector.mapping.json');
    writeFileSync(MAP, mapping('rl'));
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir);
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['rl'],
    );
    // A new model name in the mapping: the unchanged data files are read again.
    writeFileSync(MAP, mapping('grpo-step200'));
    const again = await indexFolder(index, dir);
    assert.equal(again.filesIndexed, 1);
    assert.deepEqual(
      index.models().map((m) => m.name),
      ['grpo-step200'],
    );
    // An invalid mapping: one error per problem, on the mapping file; the data files are no longer read through it.
    writeFileSync(MAP, mapping('rl', 'txt'));
    await indexFolder(index, dir);
    assert.deepEqual(
      index.diagnostics().map((d) => [d.file, d.line, d.message]),
      [
        // the data file, no longer described, says why it is not read
        [
          'rl/out.jsonl',
          0,
          'not a results file: no reader recognises the first JSON object line (keys: id, out, ok); describe the format in a trace-inspector.mapping.json',
        ],
        ['trace-inspector.mapping.json', 0, 'invalid mapping file: /fields/text: required field is missing'],
        [
          'trace-inspector.mapping.json',
          0,
          `invalid mapping file: /fields: unknown field "txt" (did you mean "text"?); the fields here are problemId, text, subject, correct, model, revision, dataset, level, question, referenceAnswer, extractedAnswer, rewardScore, finishReason, tokenCount, sampleIndex`,
        ],
      ],
    );
    assert.equal(
      index.models().some((m) => m.name === 'grpo-step200'),
      false,
    );
    // A JSON syntax error is reported at its line.
    writeFileSync(MAP, '{\n  "files": ["**/out.jsonl"],\n  "records": per-problem\n}');
    await indexFolder(index, dir);
    assert.deepEqual(
      index.diagnostics().map((d) => [d.file, d.line]),
      [
        ['rl/out.jsonl', 0],
        ['trace-inspector.mapping.json', 3],
      ],
    );
    // Fixed again: the samples come back; an unchanged folder is then skipped.
    writeFileSync(MAP, mapping('rl'));
    await indexFolder(index, dir);
    assert.deepEqual(index.diagnostics(), []);
    assert.deepEqual(
      index.models().map((m) => [m.name, m.samples]),
      [['rl', 4]],
    );
    const unchanged = await indexFolder(index, dir);
    assert.equal(unchanged.filesIndexed, 0);
    index.close();
  });

  test('a bad line is a diagnostic with file and line; the good records still index', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.jsonl'), `${rolloutLine(0, 'm', [true])}\n{not json\n${rolloutLine(2, 'm', [false])}\n`);
    const index = TraceIndex.open(':memory:');
    const s = await indexFolder(index, dir);
    assert.equal(s.samples, 2);
    assert.equal(s.diagnostics.length, 1);
    assert.equal(s.diagnostics[0].file, 'r.jsonl');
    assert.equal(s.diagnostics[0].line, 2);
    index.close();
  });

  test('a duplicate problem in the same file keeps the first record and reports the second', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.jsonl'), `${rolloutLine(0, 'm', [true])}\n${rolloutLine(0, 'm', [false, false])}\n`);
    const index = TraceIndex.open(':memory:');
    const s = await indexFolder(index, dir);
    assert.equal(s.samples, 1);
    assert.match(s.diagnostics[0].message, /duplicate problem id "0" \(first at line 1\)/);
    assert.equal(s.diagnostics[0].line, 2);
    index.close();
  });

  test('a cancelled pass leaves a database that opens and the next pass completes', async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 50 }, (_, i) => rolloutLine(i, 'm', [true, false, true, false])).join('\n');
    writeFileSync(join(dir, 'r.jsonl'), `${lines}\n`);
    const dbPath = join(dir, '.db', 'index.db');
    const index = TraceIndex.open(dbPath);
    const controller = new AbortController();
    const s = await indexFolder(index, dir, {
      signal: controller.signal,
      batchSize: 20,
      onProgress: (p) => {
        if (p.samples >= 40) controller.abort();
      },
    });
    assert.equal(s.cancelled, true);
    index.close();
    const reopened = TraceIndex.open(dbPath);
    const done = await indexFolder(reopened, dir);
    assert.equal(done.cancelled, false);
    assert.equal(done.samples, 200);
    reopened.close();
  });
});

describe('annotations', () => {
  test('survive re-indexing, a rewritten file with the same samples, and deleting the index', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, `${rolloutLine(0, 'm', [true, false])}\n`);
    const dbPath = join(dir, 'cache', 'index.db');
    let index = TraceIndex.open(dbPath);
    await indexFolder(index, dir);
    const mirror = join(dir, '.trace-inspector', 'annotations.jsonl');
    let store = new AnnotationStore(index, mirror);
    const sample = index.samples(index.listProblems()[0].id, index.models()[0].id)[1];
    const ref = store.refOf(sample.id)!;
    store.set(ref, ['lucky guess', ' lucky guess ', ''], 'answer right, steps wrong', new Date('2026-01-01T00:00:00Z'));
    assert.deepEqual(store.get(ref)?.labels, ['lucky guess']);

    // The file is rewritten with the same samples (new mtime, new row ids): the annotation stays attached.
    copyFileSync(file, `${file}.tmp`);
    rmSync(file);
    writeFileSync(file, `\n${rolloutLine(0, 'm', [true, false])}\n`);
    await indexFolder(index, dir);
    const again = index.samples(index.listProblems()[0].id, index.models()[0].id)[1];
    assert.deepEqual(again.labels, ['lucky guess']);
    rmSync(`${file}.tmp`);

    // The index is deleted: the mirror restores the annotation.
    index.close();
    rmSync(join(dir, 'cache'), { recursive: true });
    index = TraceIndex.open(dbPath);
    await indexFolder(index, dir);
    store = new AnnotationStore(index, mirror);
    const r = store.importJsonl(mirror);
    assert.equal(r.added, 1);
    const restored = index.samples(index.listProblems()[0].id, index.models()[0].id)[1];
    assert.deepEqual(restored.labels, ['lucky guess']);
    assert.equal(store.get(store.refOf(restored.id)!)?.note, 'answer right, steps wrong');
    index.close();
  });

  test('an annotation does not re-attach to a sample whose text changed', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, `${rolloutLine(0, 'm', [true])}\n`);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const store = new AnnotationStore(index);
    const s0 = index.samples(index.listProblems()[0].id, index.models()[0].id)[0];
    store.set(store.refOf(s0.id)!, ['grader error'], '');
    writeFileSync(file, `${rolloutLine(0, 'm', [true], () => 'a different trace')}\n`);
    await indexFolder(index, dir);
    const s1 = index.samples(index.listProblems()[0].id, index.models()[0].id)[0];
    assert.deepEqual(s1.labels, []);
    assert.equal(store.all().length, 1, 'the orphaned annotation is kept, not dropped');
    index.close();
  });

  test('mirror conflicts: the later updatedAt wins; equal times prefer the mirror; bad lines are diagnostics', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.jsonl'), `${rolloutLine(0, 'm', [true, false])}\n`);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const mirror = join(dir, '.trace-inspector', 'annotations.jsonl');
    const store = new AnnotationStore(index, mirror);
    const s = index.samples(index.listProblems()[0].id, index.models()[0].id)[0];
    const ref = store.refOf(s.id)!;
    store.set(ref, ['truncated'], 'mine', new Date('2026-02-01T00:00:00Z'));
    const older = {
      ...ref,
      labels: ['reward hacking'],
      note: 'older edit',
      updatedAt: '2026-01-01T00:00:00.000Z',
      deleted: false,
    };
    const newer = {
      ...ref,
      labels: ['correct reasoning'],
      note: 'newer edit',
      updatedAt: '2026-03-01T00:00:00.000Z',
      deleted: false,
    };
    mkdirSync(join(dir, 'in'), { recursive: true });
    writeFileSync(join(dir, 'in', 'a.jsonl'), `${JSON.stringify(older)}\n`);
    assert.equal(store.importJsonl(join(dir, 'in', 'a.jsonl')).unchanged, 1);
    assert.equal(store.get(ref)?.note, 'mine');
    writeFileSync(join(dir, 'in', 'b.jsonl'), `${JSON.stringify(newer)}\nnot json\n{"problemKey":"x"}\n`);
    const r = store.importJsonl(join(dir, 'in', 'b.jsonl'), 'in/b.jsonl');
    assert.equal(r.updated, 1);
    assert.equal(store.get(ref)?.note, 'newer edit');
    assert.deepEqual(
      r.diagnostics.map((d) => [d.file, d.line]),
      [
        ['in/b.jsonl', 2],
        ['in/b.jsonl', 3],
      ],
    );
    index.close();
  });
});

describe('sample runs (what the search filter maps matches to problems with)', () => {
  test('a record whose samples were all skipped writes no run; the runs cover the samples exactly', async () => {
    const dir = tempDir('ti-runs-');
    // per-sample records with their own sample index: problem 1's index 0 comes twice (the second skipped), with
    // problem 2's samples written before and after it
    writeFileSync(
      join(dir, 'trace-inspector.mapping.json'),
      JSON.stringify({
        files: ['*.jsonl'],
        records: 'per-sample',
        fields: { problemId: 'q', text: 'resp', correct: 'ok', sampleIndex: 'k', model: 'who' },
      }),
    );
    const row = (q: number, k: number) =>
      JSON.stringify({ q, k, resp: `problem ${q} sample ${k}`, ok: k % 2 === 0, who: 'm' });
    writeFileSync(join(dir, 'gen.jsonl'), [row(1, 0), row(2, 0), row(1, 0), row(2, 1), row(1, 1)].join('\n'));
    const index = TraceIndex.open(':memory:');
    try {
      const summary = await indexFolder(index, dir);
      assert.ok(
        summary.diagnostics.some((d) => d.line === 3 && /duplicate sample index 0/.test(d.message)),
        JSON.stringify(summary.diagnostics),
      );
      const runs = index.db
        .prepare('SELECT first_id AS f, last_id AS l, problem_id AS p FROM sample_runs ORDER BY first_id')
        .all() as { f: number; l: number; p: number }[];
      const samples = index.db.prepare('SELECT id, problem_id AS p FROM samples ORDER BY id').all() as {
        id: number;
        p: number;
      }[];
      assert.equal(samples.length, 4);
      // the skipped record wrote a run (0, 0): the runs no longer added up to the samples, and the search filter
      // fell back to its slow path for the whole index
      assert.equal(
        runs.reduce((n, r) => n + r.l - r.f + 1, 0),
        samples.length,
        JSON.stringify(runs),
      );
      for (const x of samples)
        assert.equal(runs.find((r) => r.f <= x.id && x.id <= r.l)?.p, x.p, `sample ${x.id} ${JSON.stringify(runs)}`);
    } finally {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
