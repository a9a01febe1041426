/**
 * The fast similarity path (issue 14: each text lexed once for the similarity index and the computation
 * paths, step keys compared through an inverted index, memoised number keys) gives exactly the results
 * of the code before it, on real folders read from ../shared/data/real (run with cwd = the repo root).
 *
 * The digests below are SHA-256 of the JSON of each result computed by the code on main before the
 * change (commit 00ba9cc, `runSimilarityJob`, `runNoveltyJob`, `problemPaths` and `tokenizeWithOffsets`
 * unchanged since): any difference in any number, id, span or step of the results changes them. The step
 * reader's rules changed once since, on purpose (issue 32: units stop at line breaks and display math, rates,
 * repeating decimals, expressions read whole, no operator across a line break, labels continuing a chain;
 * docs/similarity.md section 6): the
 * `job`, `paths` and generated-problem digests are those of that reader; `tokens` did not change. The novel spans
 * changed once, on purpose (issue 34: a run of only common words and punctuation is not a novel span; the
 * novelty scores, in `job`, did not change): the two gsm8k `novelty` digests are those of that rule. The
 * pooled problems have more base samples than the MinHash shortlist (16), so the inverted-index search
 * and the leave-one-out baseline are exercised, not only the exhaustive one.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generate } from '../../bench/gen';
import {
  clearChainMemo,
  comparePath,
  computationPath,
  extractSteps,
  lexText,
  problemPaths,
  prepareBase,
  problemSimilarity,
  sortU32,
  tokenizeWithOffsets,
} from '../../src/core/similarity';
import { clearBaseWorkCache, runNoveltyJob, runSimilarityJob, type SimilarityJob } from '../../src/extension/panelData';

const real = path.resolve(process.cwd(), '../shared/data/real');

function jsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}
function gsm(run: string, file: string): string[] {
  return jsonl<{ rollouts: { text: string }[] }>(path.join(real, 'rlvr-probe-gsm8k', run, file)).flatMap((l) =>
    l.rollouts.map((r) => r.text),
  );
}
const sha = (x: unknown): string => createHash('sha256').update(JSON.stringify(x)).digest('hex');

/** Digests by the code before the change (see the module comment). */
const BEFORE: Record<string, { job: string; paths: string; novelty: string; tokens: string }> = {
  'gsm8k 2048_batched': {
    job: 'ab66acb4f444257ce213d05967ef62a0ec537e792adb7e3018b7f83d941c76d0',
    paths: '471e8454b5f4e10716efebc44f478eef94838bbb32f12ecf3d2378cc2e2a890a',
    novelty: 'e75a24cbd4a54672cd903286d00941c36255a5ca54eea5a9b85b2701feb9e306',
    tokens: '4256f1c2591c72c34d3e4f2d97fa3ff76ccb93bc71297672d3e2a6fe9f391e3b',
  },
  'gsm8k 1024_cuda': {
    job: 'a2fecbad5dde4397b5b0183608ef93e9cf7bdbc60f6da6ff36f21d691e987fa5',
    paths: '988ba5344a27334bd584437128eebc36c0ca24b14151b44534f84ece36479825',
    novelty: 'b13bf16323956790ff132c18f4cfb0d49728d2ba58aa13f2eed928174f2e64a2',
    tokens: 'df8f7a5fd41b8bb2fc7d5f6002e1fe2968ee97cff9b3756a248697d66fc21bd6',
  },
  'qwen25-math': {
    job: '0def5eda1efe28cf2dc6b4eddee12ea5b11b6fa490c2d8da8df4bd6211ea2033',
    paths: '78ea3db0852eeac8810df44c8b7f1d4520279ce3c317d436b4c2f193205088a3',
    novelty: 'ab394374bdc01ea4678124f4621b6cf0c863a27fe83a0103a85bd9d968dc4249',
    tokens: '5895f17054027d07b8a806b485a1d44a486159b43cd88f3d5abaa586924f2730',
  },
};

describe('fast similarity = the results before it, on real folders', {
  skip: !fs.existsSync(real) && `missing ${real}`,
}, () => {
  const qwen = () =>
    jsonl<{ code: string[] }>(path.join(real, 'qwen25-math-eval-example/math_cot_100.jsonl')).flatMap((l) => l.code);
  // every rollout of a run pooled into one "problem": 240 base x 240 RL samples; MATH: 400 x 400
  const cases: Record<string, () => [string[], string[]]> = {
    'gsm8k 2048_batched': () => [
      gsm('results_2048_batched', 'sft_raw.jsonl'),
      gsm('results_2048_batched', 'rl_raw.jsonl'),
    ],
    'gsm8k 1024_cuda': () => [gsm('results_1024_cuda', 'sft_raw.jsonl'), gsm('results_1024_cuda', 'rl_raw.jsonl')],
    'qwen25-math': () => {
      const all = qwen();
      return [all.slice(0, 400), all.slice(400)];
    },
  };

  for (const [name, load] of Object.entries(cases)) {
    test(`${name}: similarity job, novelty jobs, paths and tokens unchanged`, () => {
      const [b, m] = load();
      assert.ok(b.length >= 240 && m.length >= 240);
      const job: SimilarityJob = {
        kind: 'problem',
        base: b.map((text, i) => ({ id: i + 1, sampleIndex: i, correct: i % 2 === 0, text })),
        model: m.map((text, i) => ({ id: 10000 + i, sampleIndex: i, correct: i % 3 !== 0, text })),
      };
      clearBaseWorkCache();
      const nov = [0, 1, 2].map((j) => runNoveltyJob({ kind: 'novelty', text: m[j], base: job.base }));
      assert.deepEqual(
        {
          job: sha(runSimilarityJob(job)),
          paths: sha(problemPaths(b, m)),
          novelty: sha(nov),
          tokens: sha(b.concat(m).map(tokenizeWithOffsets)),
        },
        BEFORE[name],
      );
      // after the similarity job the worker keeps its base index, and the novelty jobs use it: the same results
      assert.equal(
        sha([0, 1, 2].map((j) => runNoveltyJob({ kind: 'novelty', text: m[j], base: job.base }))),
        BEFORE[name].novelty,
        'novelty with the kept base index',
      );
    });
  }

  test('lexed once = lexed by each part (similarity and paths), and paths = comparePath with the candidate sets', () => {
    const [b, m] = cases['gsm8k 2048_batched']();
    const lexed = { base: b.map(lexText), model: m.map(lexText) };
    const opts = { n: 3, numHashes: 64, topK: 3 };
    assert.deepEqual(problemSimilarity(b, m, opts, lexed), problemSimilarity(b, m, opts));
    const fast = problemPaths(b, m, lexed);
    assert.deepEqual(fast, problemPaths(b, m));
    // the comparisons as the paths module defines them: comparePath against the candidates' key sets
    const baseSets = b.map((t) => new Set(computationPath(t).keys));
    const modelSets = m.map((t) => new Set(computationPath(t).keys));
    const others = (sets: Set<string>[], i: number) => sets.filter((_, j) => j !== i);
    assert.deepEqual(
      fast.model,
      fast.modelPaths.map((p) => comparePath(p, baseSets, true)),
    );
    assert.deepEqual(
      fast.baseline,
      fast.basePaths.map((p, i) => comparePath(p, others(baseSets, i))),
    );
    assert.deepEqual(
      fast.modelBaseline,
      fast.modelPaths.map((p, i) => comparePath(p, others(modelSets, i))),
    );
    // the pooled problem has shared steps and new ones, so the comparisons can differ
    assert.ok(fast.model.some((x) => x.fullPath > 0) && fast.model.some((x) => x.newSteps.length > 0));
  });
  test('token ids: one id per token string (lexText ids), and the index gives the same results with or without them', () => {
    const [b, m] = cases['gsm8k 1024_cuda']();
    const lexed = b.concat(m).map(lexText);
    const epoch = lexed[0].epoch;
    assert.ok(epoch !== undefined && epoch >= 0);
    const idOf = new Map<string, number>();
    const strOf = new Map<number, string>();
    for (const lx of lexed) {
      assert.equal(lx.epoch, epoch);
      assert.equal(lx.ids?.length, lx.toks.length);
      lx.toks.forEach((tok, t) => {
        const id = lx.ids![t];
        assert.equal(idOf.get(tok) ?? id, id, `one id for ${tok}`);
        assert.equal(strOf.get(id) ?? tok, tok, `one token for id ${id}`);
        idOf.set(tok, id);
        strOf.set(id, tok);
      });
    }
    assert.ok(idOf.size > 100);
    // the index reads the vocabulary by token id when the lexed texts have ids; without them, by the strings
    const opts = { n: 3, numHashes: 64, topK: 3 };
    const noIds = (lx: ReturnType<typeof lexText>) => ({ toks: lx.toks, starts: lx.starts, ends: lx.ends });
    const withIds = { base: lexed.slice(0, b.length), model: lexed.slice(b.length) };
    const expected = problemSimilarity(b, m, opts, { base: withIds.base.map(noIds), model: withIds.model.map(noIds) });
    assert.deepEqual(problemSimilarity(b, m, opts, withIds), expected);
    // base with ids, queries without (and the other way round): the same
    assert.deepEqual(problemSimilarity(b, m, opts, { base: withIds.base, model: withIds.model.map(noIds) }), expected);
    assert.deepEqual(problemSimilarity(b, m, opts, { base: withIds.base.map(noIds), model: withIds.model }), expected);
    // ids of another epoch (as after the token table was emptied: other numbers for the same strings) are not
    // mixed with the index's: here every id swapped with its neighbour (read with the base's ids, wrong tokens)
    const otherEpoch = withIds.model.map((lx) => ({
      ...lx,
      ids: lx.ids!.map((g) => g ^ 1),
      epoch: (lx.epoch as number) + 1,
    }));
    assert.deepEqual(problemSimilarity(b, m, opts, { base: withIds.base, model: otherEpoch }), expected);
  });

  test('a base kept from an earlier job (another model, same base) gives the results of a fresh job', () => {
    const [b, m] = cases['qwen25-math']();
    const job = (model: string[]): SimilarityJob => ({
      kind: 'problem',
      base: b.map((text, i) => ({ id: i + 1, sampleIndex: i, correct: i % 2 === 0, text })),
      model: model.map((text, i) => ({ id: 10000 + i, sampleIndex: i, correct: i % 3 !== 0, text })),
    });
    const other = m.slice().reverse().slice(0, 300);
    clearBaseWorkCache();
    const fresh = runSimilarityJob(job(other));
    clearBaseWorkCache();
    assert.equal(sha(runSimilarityJob(job(m))), BEFORE['qwen25-math'].job);
    assert.deepEqual(runSimilarityJob(job(other)), fresh); // base kept from the job before
    assert.equal(sha(runSimilarityJob(job(m))), BEFORE['qwen25-math'].job); // and kept again
    // a different base (one text changed) is not mistaken for the kept one
    const changed = job(m);
    changed.base[5] = { ...changed.base[5], text: `${changed.base[5].text} 47 + 52 = 99.` };
    const viaKept = runSimilarityJob(changed);
    clearBaseWorkCache();
    assert.deepEqual(viaKept, runSimilarityJob(changed));
    assert.notEqual(sha(viaKept), BEFORE['qwen25-math'].job);
  });

  test('a prepared base must match the base texts and options', () => {
    const prepared = prepareBase(['a b c d', 'b c d e', 'c d e f'], { numHashes: 16 });
    assert.throws(() => problemSimilarity(['a b c d', 'b c d e'], ['x'], { numHashes: 16 }, { prepared }), RangeError);
    assert.throws(
      () => problemSimilarity(['a b c d', 'b c d e', 'c d e f'], ['x'], { numHashes: 32 }, { prepared }),
      RangeError,
    );
    assert.deepEqual(
      problemSimilarity(['a b c d', 'b c d e', 'c d e f'], ['a b c x'], { numHashes: 16 }, { prepared }),
      problemSimilarity(['a b c d', 'b c d e', 'c d e f'], ['a b c x'], { numHashes: 16 }),
    );
  });
  test('edge spellings of numbers, digit groups and units: tokens, steps and paths as before', () => {
    // the step parser and the lexer check these by character codes now (they used regular expressions)
    const cases = [
      '1,000 + 2,000.50 = 3,000.5 dollars',
      '8,\\!096 / 2 = 4,\\!048',
      '1{,}000 \\times 3 = 3{,}000',
      '12. + 3 = 15.',
      '1.2.3 + 1 = 2',
      '0.50 + 0.25 = 0.75',
      '5 métres + 3 métres = 8 métres',
      '5 Meters + 3 METERS = 8 meters',
      "3 o'clock + 2 = 5",
      '4 (blue) + 6 (red) = 10',
      '10 km/h \\times 2 h = 20 km',
      '10 miles per hour x 3 = 30',
      '3 x 17 = 51',
      '20\\% \\times 50 = 10',
      '1/5 = 20%',
      '\\frac{156}{3} = 52.00 ≈ 52',
      '2^{10} = 1024',
      '\\sqrt{16} = 4',
      '−3 + 5 = 2',
      '1234 + 1 = 1235',
      '123.456 + 0 = 123.456',
      '999,999 + 1 = 1,000,000',
      'ÄÖ 5 + 5 = 10 Äpfel',
      '- 5 + 3 = 8\n- 2 + 2 = 4',
      '7 ＋ 3 = 10',
      '1.5e3 + 1 = 1501',
      '٣ + ٤ = ٧',
      '5 µm + 5 µm = 10 µm',
    ];
    const out = cases.map((c) => [tokenizeWithOffsets(c), extractSteps(c), computationPath(c)]);
    // issue 32: `1.5e3 + 1 = 1501` gives no step (`3 + 1`, after the letter `e` it touches, was read as one), and
    // `- 5 + 3 = 8\n- 2 + 2 = 4` gives `2 + 2 = 4` (was `8 - 2 + 2 = 4` across the line's bullet)
    assert.equal(out.filter(([, steps]) => (steps as unknown[]).length > 0).length, 23);
    // digest of the same by the code before the change (the step reader of issue 32)
    assert.equal(sha(out), 'e314c8fdd6a294c4bb4b69e123b49658f8109d0876f41decb051f70bbbdc767b');
  });

  test('a problem most of whose samples share a preamble (a MinHash value and a step held by most samples) gives the results before the change', () => {
    // a seeded synthetic problem: 4 of 5 samples start with the same sentence, so some MinHash values are held by
    // most base samples and the step `47 + 52 = 99` by most samples (the counts through the samples missing them)
    let seed = 12345;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const words = [
      'apples',
      'so',
      'the',
      'total',
      'is',
      'we',
      'add',
      'then',
      'each',
      'box',
      'holds',
      'Marcus',
      'per',
      'hour',
    ];
    const preamble = 'Let us think step by step. Marcus has 47 apples and buys 52 more, so 47 + 52 = 99 apples. ';
    const text = (i: number): string => {
      let t = i % 5 === 0 ? '' : preamble;
      const n = 20 + Math.floor(rnd() * 40);
      for (let k = 0; k < n; k++) {
        const a = 1 + Math.floor(rnd() * 60);
        const b = 1 + Math.floor(rnd() * 9);
        t += rnd() < 0.5 ? `${words[Math.floor(rnd() * words.length)]} ` : `$${a} \\times ${b} = ${a * b}$, `;
      }
      return t;
    };
    const base = Array.from({ length: 300 }, (_, i) => text(i));
    const model = Array.from({ length: 120 }, (_, i) => text(i + 1));
    const job: SimilarityJob = {
      kind: 'problem',
      base: base.map((t, i) => ({ id: i + 1, sampleIndex: i, correct: i % 2 === 0, text: t })),
      model: model.map((t, i) => ({ id: 10000 + i, sampleIndex: i, correct: i % 3 !== 0, text: t })),
    };
    clearBaseWorkCache();
    // digest by main's code before this change (commit 510e5a8)
    assert.equal(sha(runSimilarityJob(job)), '7c87beb768dd72e68ea007d49a18de529386adc87a4abadc37bcc796e7e98d71');
  });

  test('steps of a chain seen before (in another place, line or text end) are the steps of a fresh parse', () => {
    // the same chain text in contexts that change what the parser sees: a list bullet, the end of the text right
    // after it, a longer chain after it, an alignment `&`, a unit or a variable after it, thousands groups
    const texts = [
      '- 5 + 3 = 8\n- 2 + 2 = 4',
      'so - 5 + 3 = 8 and - 2 + 2 = 4',
      'Then:\n- 5 + 3 = 8',
      'Then: - 5 + 3 = 8',
      'So, 31 \\times 3 = 93',
      'So, 31 \\times 3 = 93 + 7 = 100',
      'So, 31 \\times 3 = 93 + 8 = 101',
      'So, 31 \\times 3 = 93 + 8 = 101 + 1 = 102',
      'x - 5 + 3 = 8',
      '31 \\times 3 = 93',
      'We get 31 \\times 3 = 93 + 7 = 100 beads.',
      'We get 31 \\times 3 = 93 beads, then 93 + 7 = 100.',
      'We get 31 \\times 3 = 93x + 1',
      '\\begin{align} 31 \\times 3 &= 93 \\\\ 93 + 7 &= 100 \\end{align}',
      '1,000 + 2,000 = 3,000',
      '1,\\!000 + 2,\\!000 = 3,\\!000',
      '\\frac{47+52+57}{3} = \\frac{156}{3} = 52',
      '47 + 52 = 99 + 57 = 156',
      '47 + 52 = 99 + 57',
      '52 = \\frac{156}{3}',
      `${'1 + '.repeat(30)}1 = 31`,
      `${'1 + '.repeat(60)}1 = 61`,
    ];
    const fresh = texts.map((t) => {
      clearChainMemo();
      return extractSteps(t);
    });
    clearChainMemo();
    // every text after all the others (their chains kept), twice, in both orders
    const order = [...texts, ...texts.slice().reverse()];
    const seen = order.map((t) => extractSteps(t));
    for (const [i, t] of order.entries()) assert.deepEqual(seen[i], fresh[texts.indexOf(t)], t);
    assert.ok(fresh.filter((x) => x.length > 0).length >= 12);
  });

  test('a generated problem (bench/gen.ts, 512 x 512 samples of ~4.5k characters) gives the results before the change', () => {
    // issue 12's similarity round (branch s10-sim): token ids, scratch buffers, no spans the job drops; the digests
    // are by the code before it (main at be8e9c8): the list's stage, the result, the result with the base kept
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ti-sim-gen-'));
    try {
      const manifest = generate(
        { problems: 1, samples: 512, models: 2, meanChars: 4500, seed: 7 },
        path.join(dir, 'folder'),
        path.join(dir, 'manifest.json'),
      );
      const texts = (model: string) =>
        (
          JSON.parse(
            fs.readFileSync(path.join(dir, 'folder', manifest.files.find((f) => f.model === model)!.path), 'utf8'),
          ) as { code: string[] }
        ).code;
      const job: SimilarityJob = {
        kind: 'problem',
        base: texts('Qwen2.5-7B').map((text, i) => ({ id: i + 1, sampleIndex: i, correct: i % 2 === 0, text })),
        model: texts('Qwen2.5-7B-SimpleRL-Zoo').map((text, i) => ({
          id: 10000 + i,
          sampleIndex: i,
          correct: i % 3 !== 0,
          text,
        })),
      };
      clearBaseWorkCache();
      clearChainMemo();
      let list: unknown;
      const result = runSimilarityJob(job, true, (l) => {
        list = l;
      });
      const kept = runSimilarityJob(job);
      assert.deepEqual(
        { list: sha(list), result: sha(result), kept: sha(kept) },
        {
          list: '490c5754f7e2219ecf8ccd8538f875c9d41bb4912adc0c2c643b19b09d2ac6d1',
          result: 'ebe05af3c965add6e1381eeef207d3aa9455f949acd80c5884ccd95fae020c45',
          kept: 'ebe05af3c965add6e1381eeef207d3aa9455f949acd80c5884ccd95fae020c45',
        },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('one left-hand side with many right-hand sides: every chain kept gives the steps of a fresh parse', () => {
    // the chain memo's key covers the tokens up to two after the relation; entries of one key still differ later
    const texts: string[] = [];
    for (let i = 0; i < 12; i++) {
      texts.push(`So, 31 \\times 3 = ${93 + i} + 7 = ${100 + i}`);
      texts.push(`So, 31 \\times 3 = ${93 + i} + ${8 + i} = ${101 + 2 * i}.`);
      texts.push(`So, 31 \\times 3 = ${93 + i} + 7 = ${100 + i} + 1 = ${101 + i} apples`);
      // the same length, different after the key's tokens: a wrong (inconsistent) result instead of the right one
      texts.push(`So, 31 \\times 3 = ${93 + i} + 7 = ${100 + i} and we go on from here`);
      texts.push(`So, 31 \\times 3 = ${93 + i} + 7 = ${107 + i} and we go on from here`);
    }
    const fresh = texts.map((t) => {
      clearChainMemo();
      return extractSteps(t);
    });
    clearChainMemo();
    for (let pass = 0; pass < 2; pass++) {
      for (const [i, t] of texts.entries()) assert.deepEqual(extractSteps(t), fresh[i], t);
    }
    assert.ok(fresh.every((x) => x.length >= 2));
  });

  test('sortU32 sorts as TypedArray.prototype.sort does', () => {
    let seed = 99;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const n of [0, 1, 2, 63, 64, 65, 1000, 5000]) {
      for (const gen of [
        () => rnd(),
        () => rnd() & 0xff, // only the lowest byte varies (three passes skipped)
        () => (rnd() & 0xff) << 24, // only the highest byte varies
        () => 0xffffffff - (rnd() % 3),
        () => 7,
      ]) {
        const a = Uint32Array.from({ length: n }, gen);
        const expected = a.slice().sort();
        assert.deepEqual(sortU32(a), expected, `n = ${n}`);
      }
    }
  });
});
