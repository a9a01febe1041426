/**
 * Similarity on real samples: rlvr-probe-gsm8k (SFT model = base model, PPO-RLVR child = RL model),
 * read from ../shared/data/real (run the tests with cwd = the repo root).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBaseIndex, problemSimilarity, textJaccard, tokenize, wordDiff } from '../../src/core/similarity';

const dir = path.resolve(process.cwd(), '../shared/data/real/rlvr-probe-gsm8k/results_2048_batched');

interface Line {
  qid: number;
  rollouts: { text: string }[];
}

function load(file: string): Line[] {
  return fs
    .readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
}

describe('similarity on real samples (rlvr-probe-gsm8k, qid 0)', {
  skip: !fs.existsSync(dir) && `missing ${dir}`,
}, () => {
  const sft = load('sft_raw.jsonl');
  const rl = load('rl_raw.jsonl');
  const base = sft.find((l) => l.qid === 0)!.rollouts.map((r) => r.text);
  const model = rl.find((l) => l.qid === 0)!.rollouts.map((r) => r.text);

  test('problem 0: 8 base and 8 RL samples, sane ranges, exact against brute force', () => {
    assert.equal(base.length, 8);
    assert.equal(model.length, 8);
    const res = problemSimilarity(base, model);
    for (const m of res.model) {
      // 8 base samples <= shortlist: the index scores every base sample exactly
      const brute = Math.max(...base.map((b) => textJaccard(model[m.sampleIndex], b)));
      assert.equal(m.similarity, brute);
      // same problem, same template ("<think>\nFirst, I need to ..."): related but never a copy
      assert.ok(m.similarity! > 0.05 && m.similarity! < 0.5, `sample ${m.sampleIndex}: ${m.similarity}`);
      assert.ok(m.novelty > 0 && m.novelty < 0.7, `sample ${m.sampleIndex}: novelty ${m.novelty}`);
      assert.ok(m.tokenCount > 150);
    }
    for (const b of res.baseline) {
      assert.notEqual(b.nearestOther!.baseIndex, b.baseIndex);
      assert.ok(b.similarity! > 0.03 && b.similarity! < 0.5);
    }
    // figures measured on this file (regression guard: the measure is deterministic)
    assert.equal(res.summary.modelSimilarity.median!.toFixed(4), '0.2065');
    assert.equal(res.summary.baselineSimilarity.median!.toFixed(4), '0.1655');
    // RL sample 0 computes "47 WPM for 10 minutes": the approach no base sample takes
    assert.equal(res.model[0].similarity!.toFixed(4), '0.0911');
    assert.ok(res.model[0].novelty > 0.5);
    assert.equal(res.model[0].baselinePercentile, 1 / 8);
    // six of the eight RL samples are closer to a base sample than any base sample is to another
    const baselineMax = res.summary.baselineSimilarity.max!;
    assert.deepEqual(
      res.model.filter((m) => m.similarity! > baselineMax).map((m) => m.sampleIndex),
      [1, 2, 4, 5, 6, 7],
    );
  });

  test('determinism: identical results on a second run and with a fresh index', () => {
    assert.deepEqual(problemSimilarity(base, model), problemSimilarity(base, model));
    const a = buildBaseIndex(base).novelty(model[3]);
    const b = buildBaseIndex(base).novelty(model[3]);
    assert.deepEqual(a, b);
  });

  test('novel spans partition the original text and point at the RL-only computation', () => {
    const text = model[0];
    const r = buildBaseIndex(base).novelty(text);
    let pos = 0;
    for (const s of r.spans) {
      assert.equal(s.start, pos);
      pos = s.end;
    }
    assert.equal(pos, text.length);
    const novelText = r.spans
      .filter((s) => s.novel)
      .map((s) => text.slice(s.start, s.end))
      .join(' | ');
    assert.ok(novelText.includes('47 \\times 10 = 470'), novelText.slice(0, 300));
    // the spans hold the novel tokens but runs of common words alone (docs/similarity.md): at most the count, and
    // most of it on this sample
    const novelTokens = r.spans
      .filter((s) => s.novel)
      .reduce((n, s) => n + tokenize(text.slice(s.start, s.end)).length, 0);
    assert.ok(novelTokens <= r.novelTokenCount && novelTokens >= 0.8 * r.novelTokenCount, `${novelTokens}`);
  });

  test('a base sample queried against its own base finds itself with similarity 1 and novelty 0', () => {
    const index = buildBaseIndex(base);
    for (let i = 0; i < base.length; i++) {
      assert.deepEqual(index.nearest(base[i], 1), [{ baseIndex: i, similarity: 1 }]);
      assert.equal(index.novelty(base[i]).noveltyScore, 0);
    }
  });

  test('shortlist path on a pooled base of all 240 SFT samples stays close to brute force', () => {
    const pool = sft.flatMap((l) => l.rollouts.map((r) => r.text));
    assert.equal(pool.length, 240);
    const index = buildBaseIndex(pool);
    const exact = buildBaseIndex(pool, { shortlist: pool.length });
    const rlPool = rl.flatMap((l) => l.rollouts.map((r) => r.text));
    let same = 0;
    for (let j = 0; j < rlPool.length; j += 6) {
      const a = index.nearest(rlPool[j], 1)[0];
      const e = exact.nearest(rlPool[j], 1)[0];
      assert.ok(
        a.similarity <= e.similarity && e.similarity - a.similarity < 0.05,
        `rl ${j}: ${a.similarity} vs ${e.similarity}`,
      );
      if (a.baseIndex === e.baseIndex) same++;
    }
    assert.ok(same >= 35, `same nearest for ${same} of 40`);
  });

  test('diffs against the nearest base sample: token diff rebuilds the RL sample exactly', () => {
    const index = buildBaseIndex(base);
    for (let j = 0; j < model.length; j++) {
      const r = index.diffWithNearest(model[j], base)!;
      assert.equal(r.baseIndex, index.nearest(model[j], 1)[0].baseIndex);
      const modelSide = r.segments.filter((s) => !s.removed);
      assert.equal(modelSide.map((s) => s.value).join(''), model[j]);
      assert.ok(r.segments.some((s) => s.added) && r.segments.some((s) => s.removed));
    }
    // jsdiff's diffWords on the raw texts keeps the words but not always the exact whitespace
    // (here "(WPM)." comes back as "(WPM) ."), so compare without whitespace.
    const best = index.nearest(model[6], 1)[0];
    const segs = wordDiff(base[best.baseIndex], model[6], { ignoreCase: false })!;
    const squash = (s: string) => s.replace(/\s+/g, '');
    assert.equal(
      squash(
        segs
          .filter((s) => !s.removed)
          .map((s) => s.value)
          .join(''),
      ),
      squash(model[6]),
    );
    assert.equal(
      squash(
        segs
          .filter((s) => !s.added)
          .map((s) => s.value)
          .join(''),
      ),
      squash(base[best.baseIndex]),
    );
  });
});
