import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../bench/gen';
import { searchSamples as cliSearch, searchFooter } from '../../src/cli/main';
import { indexFolder } from '../../src/core/index/indexer';
import { readSampleText } from '../../src/core/index/sampleText';
import {
  buildSearchIndex,
  type SearchIndexProgress,
  searchIndexPercent,
  searchIndexStatus,
  unsearchedSamples,
} from '../../src/core/index/searchIndex';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { searchTerms, searchText } from '../../src/core/index/search';
import { REAL, rolloutLine, tempDir } from './helpers';
import { runCli } from './reliability.support';

/**
 * The full-text index built after the figures (issue 31: core/index/searchIndex.ts): an indexing pass with
 * `fts: false` writes samples and counts only; buildSearchIndex then adds every sample to the full-text index,
 * resumably, and a search meanwhile counts what it could not look through.
 */

/** Folds a word as the index's tokenizer does (unicode61 remove_diacritics 2: case and Latin diacritics). */
function fold(w: string): string {
  return w
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The words of a text as the full-text index is given them (search.ts searchText, cut into letters, digits and marks), folded. */
function tokens(text: string): Set<string> {
  return new Set((searchText(text).match(/[\p{L}\p{N}\p{Co}\p{M}]+/gu) ?? []).map(fold));
}

/** Sample ids whose text holds every term of `query`: a scan of every text, no full-text index. */
function bruteForce(texts: Map<number, Set<string>>, query: string): number[] {
  const terms = searchTerms(query).map(fold);
  const out: number[] = [];
  for (const [id, words] of texts) if (terms.every((t) => words.has(t))) out.push(id);
  return out.sort((a, b) => a - b);
}

/** Sample ids the full-text index matches for `query` (every match). */
function searched(index: TraceIndex, query: string): number[] {
  return index
    .searchSamples(query, { limit: -1 })
    .samples.map((s) => s.id)
    .sort((a, b) => a - b);
}

/** Every sample's text, read from its file, as a token set per sample id. */
async function allTokens(index: TraceIndex): Promise<Map<number, Set<string>>> {
  const ids = index.db.prepare('SELECT id FROM samples ORDER BY id').pluck().all() as number[];
  const out = new Map<number, Set<string>>();
  for (const id of ids) out.set(id, tokens((await readSampleText(index, id)) ?? ''));
  return out;
}

/** Queries from the texts themselves (first, middle and last word of every 5th sample, a pair of words), plus fixed ones. */
function queriesOf(texts: Map<number, Set<string>>): string[] {
  const qs = new Set<string>(['the', 'answer', '12', 'boxed', '答案', 'zzzqqq']);
  let i = 0;
  for (const words of texts.values()) {
    if (i++ % 5 !== 0) continue;
    const w = [...words].filter((x) => /\p{L}{3,}/u.test(x));
    for (const x of [w[0], w[Math.floor(w.length / 2)], w[w.length - 1]]) if (x) qs.add(x);
    if (w.length > 3) qs.add(`${w[1]} ${w[2]}`);
    if (qs.size > 120) break;
  }
  return [...qs];
}

/** A generated Qwen2.5-Math folder (per-problem records) of `problems` x 16 samples x 2 models. */
function generatedFolder(problems: number): string {
  const dir = tempDir();
  generate({ problems, samples: 16, models: 2, meanChars: 200, seed: 3 }, join(dir, 'results'), join(dir, 'm.json'));
  return join(dir, 'results');
}

describe('the full-text index built after the figures', () => {
  test('a pass with fts: false writes the figures only; the build then makes every search exact', async () => {
    const root = generatedFolder(12);
    const index = TraceIndex.open(':memory:');
    const summary = await indexFolder(index, root, { fts: false });
    assert.equal(summary.samples, 12 * 16 * 2);
    assert.deepEqual(searchIndexStatus(index), { samples: 384, indexed: 0 });
    assert.equal(index.searchSamples('answer').total, 0, 'nothing searchable before the build');
    assert.equal(unsearchedSamples(index), 384);
    const built = await buildSearchIndex(index);
    assert.equal(built.added, 384);
    assert.equal(built.cancelled, false);
    assert.deepEqual(searchIndexStatus(index), { samples: 384, indexed: 384 });
    assert.equal(unsearchedSamples(index), 0);
    assert.equal(index.db.prepare('SELECT count(*) FROM samples_fts').pluck().get(), 384);
    // the same matches as the index written with the samples (fts: true) and as a scan of every text
    const inline = TraceIndex.open(':memory:');
    await indexFolder(inline, root);
    const texts = await allTokens(index);
    let nonEmpty = 0;
    for (const q of queriesOf(texts)) {
      const expected = bruteForce(texts, q);
      assert.deepEqual(searched(index, q), expected, `query ${JSON.stringify(q)}`);
      assert.deepEqual(searched(inline, q), expected, `query ${JSON.stringify(q)} (written with the samples)`);
      const problems = (ids: TraceIndex) =>
        ids
          .listProblems({ kind: 'search', query: q }, 0, 1_000_000)
          .map((p) => p.key)
          .sort();
      assert.deepEqual(problems(index), problems(inline), `tree filter ${JSON.stringify(q)}`);
      if (expected.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty > 10, `queries that match: ${nonEmpty}`);
    // witnesses and parts as the inline writing makes them
    const parts = (x: TraceIndex) => x.db.prepare('SELECT count(*) AS n, sum(witnesses) AS w FROM search_parts').get();
    assert.deepEqual(parts(index), parts(inline));
    // a build of a complete index adds nothing
    assert.equal((await buildSearchIndex(index)).added, 0);
    index.close();
    inline.close();
  });

  test('progress: indexed grows chunk by chunk to every sample; the percentage is 100% only when complete', async () => {
    const root = generatedFolder(10);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, root, { fts: false });
    const seen: SearchIndexProgress[] = [];
    await buildSearchIndex(index, { chunkSamples: 50, onProgress: (p) => seen.push(p) });
    assert.deepEqual(seen[0], { samples: 320, indexed: 0, unreadable: 0 });
    assert.deepEqual(seen[seen.length - 1], { samples: 320, indexed: 320, unreadable: 0 });
    // 320 samples in chunks of 50: 0, 50, 100, ..., 300, 320 (then the end once more)
    const steps = [...new Set(seen.map((p) => p.indexed))];
    assert.deepEqual(steps, [0, 50, 100, 150, 200, 250, 300, 320]);
    assert.equal(searchIndexPercent({ samples: 320, indexed: 128 }), '40%');
    assert.equal(searchIndexPercent({ samples: 320, indexed: 319 }), '99%');
    assert.equal(searchIndexPercent({ samples: 320, indexed: 320 }), '100%');
    assert.equal(searchIndexPercent({ samples: 0, indexed: 0 }), '100%');
    index.close();
  });

  test('cancel and resume: a stopped build keeps whole chunks, a search counts the rest, the next build finishes it', async () => {
    const root = generatedFolder(10);
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, root, { fts: false });
    const stop = new AbortController();
    const first = await buildSearchIndex(index, {
      chunkSamples: 64,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.indexed >= 128) stop.abort();
      },
    });
    assert.equal(first.cancelled, true);
    assert.equal(first.indexed, 128, 'two chunks of 64, then stopped');
    assert.equal(index.db.prepare('SELECT count(*) FROM samples_fts').pluck().get(), 128, 'rows only of whole chunks');
    // a search now: what it found among the 128, and the 192 it could not look through, counted
    const texts = await allTokens(index);
    const indexedIds = new Set(
      index.db
        .prepare(
          'SELECT s.id FROM samples s WHERE EXISTS (SELECT 1 FROM search_parts p WHERE s.id BETWEEN p.first_id AND p.last_id)',
        )
        .pluck()
        .all() as number[],
    );
    assert.equal(indexedIds.size, 128);
    const q = queriesOf(texts).find((x) => bruteForce(texts, x).length > 20) as string;
    const all = bruteForce(texts, q);
    assert.deepEqual(
      searched(index, q),
      all.filter((id) => indexedIds.has(id)),
    );
    assert.equal(unsearchedSamples(index), 192);
    const models = index.models();
    const m0 = unsearchedSamples(index, { models: [models[0].id] });
    const m1 = unsearchedSamples(index, { models: [models[1].id] });
    assert.equal(m0 + m1, 192);
    const byVerdict =
      unsearchedSamples(index, { correct: true }) +
      unsearchedSamples(index, { correct: false }) +
      unsearchedSamples(index, { correct: null });
    assert.equal(byVerdict, 192);
    // the CLI's search says it (JSON and footer): 128 looked through, 192 not
    const r = await cliSearch(index, q, { limit: 5 });
    assert.equal(r.notSearched, 192);
    assert.equal(r.searched.samples, 128);
    assert.equal(r.total, all.filter((id) => indexedIds.has(id)).length);
    assert.deepEqual(r.searchIndex, { samples: 320, indexed: 128 });
    assert.ok(
      searchFooter(r).some((l) => l.startsWith('search index: 40% (128 of 320 samples): 192 samples')),
      searchFooter(r).join('\n'),
    );
    // resumed: the rest, and every search exact
    const second = await buildSearchIndex(index);
    assert.equal(second.added, 192);
    assert.equal(second.indexed, 320);
    for (const x of queriesOf(texts)) assert.deepEqual(searched(index, x), bruteForce(texts, x), x);
    const done = await cliSearch(index, q, { limit: 5 });
    assert.equal(done.notSearched, 0);
    assert.equal(done.total, all.length);
    assert.ok(!searchFooter(done).some((l) => l.startsWith('search index')));
    index.close();
  });

  test('a file changed since it was indexed: its samples are left out, counted and the file marked for the next pass', async () => {
    const dir = tempDir();
    const file = join(dir, 'a.jsonl');
    writeFileSync(
      file,
      [0, 1, 2].map((q) => rolloutLine(q, 'm', [true, false], (_q, i) => `word${q}x${i} common`)).join('\n'),
    );
    writeFileSync(
      join(dir, 'b.jsonl'),
      rolloutLine(7, 'm', [true], () => 'other common'),
    );
    const index = TraceIndex.open(join(dir, 'index.db'));
    await indexFolder(index, dir, { fts: false });
    // same size, other text
    writeFileSync(
      file,
      [0, 1, 2].map((q) => rolloutLine(q, 'm', [true, false], (_q, i) => `WORD${q}x${i} common`)).join('\n'),
    );
    const r = await buildSearchIndex(index);
    assert.equal(r.unreadable, 6);
    assert.deepEqual(r.changedFiles, ['a.jsonl']);
    assert.equal(r.indexed, 1);
    assert.ok(index.isFileMarkedChanged('a.jsonl'));
    assert.equal(unsearchedSamples(index), 6);
    // the next pass reads the file again and the build adds its samples
    await indexFolder(index, dir, { fts: false });
    assert.equal((await buildSearchIndex(index)).indexed, 7);
    assert.equal(index.searchSamples('common').total, 7);
    index.close();
  });
});

describe('only files read to the end', () => {
  test('the samples of a file a stopped pass left partial are not added until a pass finishes the file', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.jsonl'),
      Array.from({ length: 40 }, (_, q) => rolloutLine(q, 'm', [true, false], (_q, i) => `word${q}x${i} common`)).join(
        '\n',
      ),
    );
    const index = TraceIndex.open(join(dir, 'index.db'));
    const stop = new AbortController();
    const first = await indexFolder(index, dir, {
      fts: false,
      batchSize: 10,
      parallelReadMinBytes: Number.POSITIVE_INFINITY,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.samples > 0) stop.abort();
      },
    });
    assert.equal(first.cancelled, true);
    const written = index.db.prepare('SELECT count(*) FROM samples').pluck().get() as number;
    assert.ok(written > 0 && written < 80, `samples of the partial file: ${written}`);
    const r = await buildSearchIndex(index);
    assert.equal(r.added, 0, 'nothing of a partial file');
    assert.equal(unsearchedSamples(index), written, 'counted as not searched');
    await indexFolder(index, dir, { fts: false });
    assert.equal((await buildSearchIndex(index)).indexed, 80);
    assert.equal(index.searchSamples('common').total, 80);
    index.close();
  });
});

describe('search exactness on every real folder (built after the figures)', () => {
  const folders = readdirSync(REAL).filter((f) => statSync(join(REAL, f)).isDirectory());
  for (const folder of folders) {
    test(`${folder}: every query's matches are the samples whose text holds every word`, async () => {
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, join(REAL, folder), { fts: false });
      const built = await buildSearchIndex(index);
      assert.equal(built.unreadable, 0);
      assert.equal(built.indexed, built.samples);
      const texts = await allTokens(index);
      let nonEmpty = 0;
      for (const q of queriesOf(texts)) {
        const expected = bruteForce(texts, q);
        assert.deepEqual(searched(index, q), expected, `query ${JSON.stringify(q)}`);
        if (expected.length > 0) nonEmpty++;
      }
      if (texts.size > 0 && [...texts.values()].some((w) => w.size > 0)) assert.ok(nonEmpty > 0, 'some queries match');
      index.close();
    });
  }
});

describe('trace-inspector index --no-search-index', () => {
  test('stops at the figures; search builds the rest first, or with --no-search-index counts what it did not look through', () => {
    const root = generatedFolder(6);
    const tmp = tempDir();
    const db = join(tmp, 'i.db');
    const idx = runCli(['index', root, '--db', db, '--no-search-index', '--format', 'json', '-q'], tmp);
    assert.equal(idx.status, 0, idx.stderr);
    assert.deepEqual(JSON.parse(idx.stdout).searchIndex, { samples: 192, indexed: 0 });
    const partial = runCli(['search', root, 'the', '--db', db, '--no-search-index', '--format', 'json', '-q'], tmp);
    assert.equal(partial.status, 0, partial.stderr);
    const p = JSON.parse(partial.stdout);
    assert.equal(p.notSearched, 192);
    assert.equal(p.total, 0);
    assert.equal(p.searched.samples, 0);
    const text = runCli(['search', root, 'the', '--db', db, '--no-search-index', '-q'], tmp);
    assert.match(
      text.stdout,
      /search index: 0% \(0 of 192 samples\): 192 samples of the models searched not looked through/,
    );
    // index without the flag builds it (progress on stderr without -q)
    const full = runCli(['index', root, '--db', db], tmp);
    assert.equal(full.status, 0, full.stderr);
    assert.match(full.stderr, /\[search index\] 192 samples added/);
    assert.doesNotMatch(full.stdout, /search index:/);
    const s = runCli(['search', root, 'the', '--db', db, '--format', 'json', '-q'], tmp);
    const j = JSON.parse(s.stdout);
    assert.equal(j.notSearched, 0);
    assert.equal(j.searched.samples, 192);
    assert.ok(j.total > 0);
  });
});
