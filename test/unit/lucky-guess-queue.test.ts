/**
 * The lucky-guess queue says why it is empty when no problem can match: with at most n graded samples per problem
 * the smallest non-zero rate is 1/n, and the hint names the setting to raise; percentages keep one decimal.
 *
 * Regression of the fresh-user trial 4 finding 8 (moved from its test file, now layout-base-guess.test.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { tempDir } from './helpers';
import { putJsonLines as put, qwenRecord as qwen } from './qwenRecords';

// Trial 4 finding 8.
describe('the lucky-guess queue at n = 4 says why it is empty, and 1/8 reads 12.5%', () => {
  test('percent keeps one decimal when it is not a whole percent', async () => {
    const { percent } = await import('../../src/core/text/thresholds');
    assert.equal(percent(0.125), '12.5%');
    assert.equal(percent(0.25), '25%');
    assert.equal(percent(1 / 3), '33.3%');
    assert.equal(percent(1), '100%');
  });

  test('n = 4 (max graded from the index): 1/4 = 25% > 12.5%, the setting named; n = 8 or 16: no hint', async () => {
    const { luckyGuessHint } = await import('../../src/core/text/thresholds');
    const dir = tempDir('trial4-lucky-');
    put(
      dir,
      'm-grpo/step-1/math_eval/synth/test_qwen.jsonl',
      [0, 1].map((i) => qwen(i, [true, false, false, i === 0])),
    );
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, dir);
    const n = index.maxGraded(index.models()[0].id);
    assert.equal(n, 4);
    assert.equal(
      luckyGuessHint(n, 0.125),
      'with at most 4 graded samples per problem the smallest non-zero rate is 1/4 (25%), above 12.5%: no problem can match; raise the setting traceInspector.luckyGuessThreshold to at least 1/4',
    );
    assert.equal(luckyGuessHint(8, 0.125), undefined, '1/8 = 12.5% can match');
    assert.equal(luckyGuessHint(16, 0.125), undefined);
    assert.equal(luckyGuessHint(0, 0.125), undefined);
    index.close();
  });
});
