/**
 * One start indexes once (src/extension/indexPasses.ts): requests while a pass with the same settings
 * runs join it; a request with other settings waits and makes one more pass, however many such requests
 * come; a settings event that leaves the settings in effect as they were needs no pass.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PASS_SETTINGS, PassQueue, passKey, type CancelToken, type PassInputs } from '../../src/extension/indexPasses';

const inputs = (o: Partial<PassInputs> = {}): PassInputs => ({
  include: [],
  exclude: [],
  correctThreshold: undefined,
  scorer: '',
  erroredSamples: 'exclude',
  mappingFile: '/m/rewardmath.mapping.json',
  ...o,
});

/** A pass that ends when `finish` is called; `starts` counts the passes started. */
function passes() {
  const q = new PassQueue<string>();
  const log: string[] = [];
  const finishers: ((v: string) => void)[] = [];
  const start = (name: string) => () => {
    log.push(name);
    return new Promise<string>((resolve) => finishers.push(resolve));
  };
  const finish = async (v: string) => {
    finishers.shift()!(v);
    // let the queue's continuations run
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { q, log, start, finish };
}

describe('index passes: one start, one pass', () => {
  test('passKey: equal settings give one key; another mapping, scorer, threshold or glob another', () => {
    const k = passKey(inputs());
    assert.equal(passKey(inputs()), k);
    assert.notEqual(passKey(inputs({ mappingFile: '' })), k);
    assert.notEqual(passKey(inputs({ scorer: 'match' })), k);
    assert.notEqual(passKey(inputs({ correctThreshold: 0 })), k);
    assert.notEqual(passKey(inputs({ erroredSamples: 'incorrect' })), k);
    assert.notEqual(passKey(inputs({ include: ['**/*.jsonl'] })), k);
    assert.notEqual(passKey(inputs({ exclude: ['x'] })), k);
  });

  test('a request while a pass with the same settings runs joins it: one pass, both get its result', async () => {
    const { q, log, start, finish } = passes();
    const key = passKey(inputs());
    const a = q.request(key, start('activate'));
    const b = q.request(key, start('settings event'));
    assert.equal(q.busy, true);
    await finish('summary 1');
    assert.deepEqual(await Promise.all([a, b]), ['summary 1', 'summary 1']);
    assert.deepEqual(log, ['activate']);
    assert.equal(q.busy, false);
  });

  test('a settings event with the value in effect needs no pass; another value does', async () => {
    const { q, start, finish } = passes();
    const key = passKey(inputs());
    assert.equal(q.isCurrent(key), false, 'before any pass');
    const a = q.request(key, start('activate'));
    assert.equal(q.isCurrent(key), true, 'while the pass runs');
    await finish('done');
    await a;
    // the mapping file given again (same value): the folder is not read again
    assert.equal(q.isCurrent(passKey(inputs())), true);
    assert.equal(q.isCurrent(passKey(inputs({ mappingFile: '/m/other.json' }))), false);
  });

  test('requests with other settings during a pass make exactly one more pass, after it', async () => {
    const { q, log, start, finish } = passes();
    const first = q.request(passKey(inputs()), start('first'));
    const other = passKey(inputs({ scorer: 'match' }));
    const waiting = [
      q.request(other, start('second')),
      q.request(other, start('third')),
      q.request(other, start('4th')),
    ];
    assert.equal(q.isCurrent(other), false, 'the running pass reads the old settings');
    await finish('first done');
    assert.equal(await first, 'first done');
    assert.deepEqual(log, ['first', 'second'], 'one more pass, not three');
    assert.equal(q.isCurrent(other), true);
    await finish('second done');
    assert.deepEqual(await Promise.all(waiting), ['second done', 'second done', 'second done']);
    assert.deepEqual(log, ['first', 'second']);
  });

  test('files changed during a pass: one more pass after it, even with the same settings', async () => {
    const { q, log, start, finish } = passes();
    const key = passKey(inputs());
    const first = q.request(key, start('first'));
    const changed = [q.request(key, start('watch 1'), true), q.request(key, start('watch 2'), true)];
    // a plain request (Index Folder) still joins the running pass
    const joined = q.request(key, start('command'));
    await finish('first done');
    assert.equal(await first, 'first done');
    assert.equal(await joined, 'first done');
    assert.deepEqual(log, ['first', 'watch 1']);
    await finish('after the change');
    assert.deepEqual(await Promise.all(changed), ['after the change', 'after the change']);
    // nothing running: a changed-files request starts a pass at once
    const again = q.request(key, start('watch 3'), true);
    assert.deepEqual(log, ['first', 'watch 1', 'watch 3']);
    await finish('3');
    assert.equal(await again, '3');
  });

  test('a pass that throws ends: the next request starts a new pass', async () => {
    const q = new PassQueue<number>();
    const key = passKey(inputs());
    await assert.rejects(
      q.request(key, () => Promise.reject(new Error('worker failed'))),
      /worker failed/,
    );
    await Promise.resolve();
    assert.equal(q.busy, false);
    assert.equal(await q.request(key, async () => 2), 2);
    // start throwing synchronously is a failed pass too, not a stuck queue
    await assert.rejects(
      q.request(key, () => {
        throw new Error('no worker');
      }),
      /no worker/,
    );
    await Promise.resolve();
    assert.equal(q.busy, false);
  });

  test('Cancel Indexing drops the queued passes: none starts after the running one stops, and it says how many', async () => {
    const { q, log, start, finish } = passes();
    const running = q.request(passKey(inputs()), start('first'));
    const scorer = passKey(inputs({ scorer: 'match' }));
    const queued = [
      q.request(scorer, start('scorer changed')),
      q.request(scorer, start('scorer changed again')),
      q.request(passKey(inputs()), start('files changed'), true),
    ];
    assert.equal(q.queued, 2, 'two passes wait: the new scorer, and the same settings after changed files');
    assert.equal(q.dropQueued(), 2);
    assert.equal(q.queued, 0);
    assert.deepEqual(await Promise.all(queued), [undefined, undefined, undefined], 'dropped requests resolve at once');
    // the running pass, told to stop by the caller, ends (cancelled): nothing starts after it
    await finish('first, cancelled');
    assert.equal(await running, 'first, cancelled');
    assert.deepEqual(log, ['first']);
    assert.equal(q.busy, false);
    assert.equal(
      q.isCurrent(scorer),
      false,
      'the dropped settings are not current: a later settings event starts a pass',
    );
    assert.equal(q.dropQueued(), 0, 'nothing left to drop');
  });

  test('a queued request can be cancelled by its token: it leaves the queue, the others still run', async () => {
    const { q, log, start, finish } = passes();
    const token = (): CancelToken & { cancel(): void } => {
      const listeners = new Set<() => void>();
      const t = {
        isCancellationRequested: false,
        onCancellationRequested(l: () => void) {
          listeners.add(l);
          return { dispose: () => listeners.delete(l) };
        },
        cancel() {
          t.isCancellationRequested = true;
          for (const l of [...listeners]) l();
        },
      };
      return t;
    };
    const first = q.request(passKey(inputs()), start('first'));
    const t1 = token();
    const scorerKey = passKey(inputs({ scorer: 'match' }));
    const cancelled = q.request(scorerKey, start('scorer'), false, t1);
    const other = q.request(passKey(inputs({ correctThreshold: 0.5 })), start('threshold'));
    t1.cancel();
    assert.equal(await cancelled, undefined);
    assert.equal(q.queued, 1);
    await finish('first done');
    assert.equal(await first, 'first done');
    assert.deepEqual(log, ['first', 'threshold'], 'the cancelled request made no pass; the other queued one started');
    await finish('threshold done');
    assert.equal(await other, 'threshold done');
    // a token already cancelled: no pass, whether one runs or not
    const t2 = token();
    t2.cancel();
    assert.equal(await q.request(scorerKey, start('never'), false, t2), undefined);
    assert.deepEqual(log, ['first', 'threshold']);
    // cancelling a request once its pass runs does not drop it from anything (the caller stops the pass)
    const t3 = token();
    const runs = q.request(scorerKey, start('runs'), false, t3);
    t3.cancel();
    await finish('ran');
    assert.equal(await runs, 'ran');
  });

  test('the settings a pass reads (PASS_SETTINGS, watched for changes) are the pass inputs and exist in package.json', () => {
    assert.deepEqual([...PASS_SETTINGS].sort(), Object.keys(inputs()).sort());
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      contributes: {
        configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
      };
    };
    const conf = pkg.contributes.configuration;
    const props = Object.assign({}, ...(Array.isArray(conf) ? conf : [conf]).map((c) => c.properties));
    for (const k of PASS_SETTINGS) assert.ok(`traceInspector.${k}` in props, `traceInspector.${k} is a setting`);
    // include and exclude are among them (a change of either re-indexes: commands.ts)
    assert.ok(PASS_SETTINGS.includes('include') && PASS_SETTINGS.includes('exclude'));
  });
});
