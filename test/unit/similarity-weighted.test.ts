/**
 * IDF-weighted shingle similarity, containment and equal-footing baselines (docs/similarity.md
 * section 7): hand-computed values and brute-force recomputations of the leave-one-out averages.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildShingleIdf,
  FolderShingles,
  problemTextSimilarity,
  textJaccard,
  weightedJaccard,
} from '../../src/core/similarity';

const close = (a: number | null, b: number, msg?: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${msg ?? ''} ${a} vs ${b}`);

describe('IDF over problems', () => {
  test('boilerplate-only overlap: Jaccard well above 0, weighted similarity 0', () => {
    const fs = new FolderShingles();
    const boiler = '<think> First, I need to work this out step by step. **Final Answer:**';
    const problems = [
      [`${boiler} apples and pears cost 3 dollars`, `${boiler} the apples cost three dollars each`],
      [`${boiler} a train leaves at noon going west`],
      [`${boiler} the triangle has sides five and twelve`],
    ];
    const sets = problems.map((p) => p.map((t) => fs.set(t)));
    const idf = buildShingleIdf(sets);
    const model = fs.set(`${boiler} we count the oranges in every basket twice`);
    const plain = textJaccard(`${boiler} we count the oranges in every basket twice`, problems[0][0]);
    assert.ok(plain > 0.3, `Jaccard ${plain}`);
    assert.equal(weightedJaccard(model, sets[0][0], idf), 0);
    const r = problemTextSimilarity(sets[0], [model], idf);
    assert.equal(r.model[0].weightedJaccard, 0);
    assert.ok(r.model[0].jaccard! > 0.3);
    // containment: the boilerplate shingles are found (unweighted) but weigh nothing
    assert.ok(r.model[0].containment! > 0.4);
    assert.equal(r.model[0].weightedContainment, 0);
  });

  test('weights by hand: ln((P + 1) / (df + 1)); weighted Jaccard by hand', () => {
    // one-token texts: the shingle is the whole text
    const fs = new FolderShingles();
    const [a, b, c, d] = ['alpha', 'beta', 'gamma', 'delta'].map((t) => fs.set(t));
    const merge = (...xs: Uint32Array[]) => Uint32Array.from(new Set(xs.flatMap((x) => [...x]))).sort();
    // P = 3: alpha in 3 problems, beta in 1, gamma in 0; delta in 2
    const idf = buildShingleIdf([[merge(a, b)], [merge(a, d)], [a, d]]);
    close(idf.weight(a[0]), Math.log(4 / 4));
    close(idf.weight(b[0]), Math.log(4 / 2));
    close(idf.weight(c[0]), Math.log(4 / 1));
    close(idf.weight(d[0]), Math.log(4 / 3));
    // {alpha, beta, gamma} vs {beta, delta}: shared beta; union alpha+beta+gamma+delta
    const wb = Math.log(2);
    const expected = wb / (0 + wb + Math.log(4) + Math.log(4 / 3));
    close(weightedJaccard(merge(a, b, c), merge(b, d), idf), expected);
    assert.equal(weightedJaccard(new Uint32Array(0), new Uint32Array(0), idf), 1);
    assert.equal(weightedJaccard(a, new Uint32Array(0), idf), 0);
  });
});

describe('containment and equal footing', () => {
  const fs = new FolderShingles();
  const base = [
    'the farmer has 12 cows and buys 5 more so he has 17 cows in total now',
    'the farmer had 12 cows then bought 5 more cows giving 17 cows',
    'we add 12 and 5 to get 17 cows for the farmer',
    'twelve cows plus five cows is seventeen cows',
  ];
  const model = ['the farmer has 12 cows and buys 5 more', 'we add 12 and 5 to get 17 cows for the farmer today'];
  const bs = base.map((t) => fs.set(t));
  const ms = model.map((t) => fs.set(t));
  const idf = buildShingleIdf([bs, [fs.set('an unrelated problem about trains')]]);
  const r = problemTextSimilarity(bs, ms, idf);

  test('a compressed subset of a base trace: containment 1, Jaccard low', () => {
    assert.equal(r.model[0].containment, 1);
    assert.ok(r.model[0].jaccard! < 0.5);
    close(r.model[0].jaccard, textJaccard(model[0], base[0]));
  });

  test('leave-one-out averages equal a brute-force recomputation with each base sample left out', () => {
    const n = bs.length;
    for (let m = 0; m < ms.length; m++) {
      let jac = 0;
      let wjac = 0;
      let cont = 0;
      for (let left = 0; left < n; left++) {
        const rest = bs.filter((_, j) => j !== left);
        const rr = problemTextSimilarity(rest, [ms[m]], idf).model[0];
        assert.equal(rr.candidates, n - 1);
        jac += rr.jaccard!;
        wjac += rr.weightedJaccard!;
        cont += rr.containment!;
      }
      const loo = r.model[m].leaveOneOut;
      close(loo.jaccard, jac / n, `jaccard m${m}`);
      close(loo.weightedJaccard, wjac / n, `weighted m${m}`);
      close(loo.containment, cont / n, `containment m${m}`);
      assert.ok(loo.jaccard! <= r.model[m].jaccard!);
    }
  });

  test('baselines: each base sample against n - 1 others, each model sample against m - 1 others', () => {
    assert.deepEqual(
      r.baseline.map((b) => b.candidates),
      [3, 3, 3, 3],
    );
    for (let i = 0; i < bs.length; i++) {
      const others = bs.filter((_, j) => j !== i);
      const direct = problemTextSimilarity(others, [bs[i]], idf).model[0];
      close(r.baseline[i].jaccard, direct.jaccard!, `base ${i}`);
      close(r.baseline[i].weightedJaccard, direct.weightedJaccard!, `base ${i}`);
      close(r.baseline[i].containment, direct.containment!, `base ${i}`);
    }
    assert.equal(r.modelBaseline[0].candidates, 1);
    close(r.modelBaseline[0].jaccard, textJaccard(model[0], model[1]));
  });

  test('one base sample: no leave-one-out value; no base sample: nulls', () => {
    const one = problemTextSimilarity([bs[0]], [ms[0]], idf);
    assert.equal(one.model[0].leaveOneOut.jaccard, null);
    assert.equal(one.baseline[0].jaccard, null);
    assert.equal(one.baseline[0].candidates, 0);
    const none = problemTextSimilarity([], [ms[0]], idf);
    assert.equal(none.model[0].jaccard, null);
    assert.equal(none.model[0].containment, null);
  });
});
