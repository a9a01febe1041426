// sqlite-parity: skip — ratios of cost between shapes; the same queries run under node:sqlite in report-golden
/**
 * Cost grows with the work, not faster: the report's sections measured on two generated folders of the
 * same shape, 2,000 and 20,000 problems (x 4 samples x 2 models, bench/gen.ts), must cost at most 3 times
 * as much per problem on the larger one. The grader is wrong on a quarter of the verdicts and wrong answers
 * fall on two values, so that most problems have groups of equivalent answers graded both ways (the grader
 * audit's work). A ratio of two CPU times in one process, not a timed test: a scan over problems inside a
 * loop over problems (or per-replicate work proportional to the problems) makes it about 10. Absolute
 * times and the other shapes are in `npm run bench -- --shapes`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../bench/gen';
import { ANNOTATED_SAMPLES_SQL, annotatedSamples } from '../../src/core/index/annotationFates';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import { buildReport } from '../../src/core/report/index';
import { graderAudit } from '../../src/core/analyses/graderAudit';
import { overviewData } from '../../src/extension/panelData';
import { buildSplitsReport } from '../../src/core/analyses/splits';
import { tempDir } from './helpers';

/** Growth bound: CPU time per problem at 20k over that at 2k. */
const MAX_GROWTH = 3;

/** The smaller of two runs' CPU milliseconds (user + system of this process). */
function cpuMs(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 2; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  return best;
}

const SECTIONS: Record<string, (index: TraceIndex) => unknown> = {
  report: (index) => buildReport(index),
  'report with maj@k': (index) => buildReport(index, { majAtK: true }),
  'grader audit': (index) => graderAudit(index),
  'overview data': (index) => overviewData(index, {}),
  'split matrix by level': (index) => buildSplitsReport(index, { splits: { kind: 'level' } }),
  'split matrix by content cluster': (index) => buildSplitsReport(index, { splits: { kind: 'cluster', k: 6 } }),
};

describe('cost growth: 2,000 and 20,000 problems x 4 samples x 2 models', () => {
  const dir = tempDir('ti-growth-');
  const indexes = new Map<number, TraceIndex>();
  before(async () => {
    for (const problems of [2000, 20000]) {
      const root = join(dir, `p${problems}`);
      // a noisy grader (a verdict in four wrong) and wrong answers among two values: most problems have
      // groups of equivalent answers graded both ways, so that the grader audit's work on inconsistent
      // groups grows with the problems too
      generate(
        { problems, samples: 4, models: 2, meanChars: 200, seed: 3, graderNoise: 0.25, wrongAnswers: 2 },
        root,
        `${root}.manifest.json`,
      );
      const index = TraceIndex.open(':memory:');
      await indexFolder(index, root, { fts: false });
      indexes.set(problems, index);
    }
  });
  after(() => {
    for (const i of indexes.values()) i.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the folders exercise the grader audit: an inconsistent group in half the problems or more', (t) => {
    for (const [problems, index] of indexes) {
      const audit = graderAudit(index);
      t.diagnostic(
        `${problems} problems: ${audit.inconsistent.length} inconsistent groups in ${audit.problemsInconsistent} problems`,
      );
      assert.ok(
        audit.problemsInconsistent >= problems / 2,
        `${audit.problemsInconsistent} of ${problems} problems with an inconsistent group`,
      );
    }
  });

  for (const [name, run] of Object.entries(SECTIONS))
    test(`${name}: per-problem cost at 20k <= ${MAX_GROWTH}x that at 2k`, (t) => {
      const small = indexes.get(2000) as TraceIndex;
      const large = indexes.get(20000) as TraceIndex;
      run(small); // warm-up: JIT and caches (answer keys) of this process
      const a = cpuMs(() => run(small)) / 2000;
      const b = cpuMs(() => run(large)) / 20000;
      t.diagnostic(`${(a * 1000).toFixed(1)} -> ${(b * 1000).toFixed(1)} µs of CPU a problem (${(b / a).toFixed(2)}x)`);
      assert.ok(
        b <= MAX_GROWTH * a,
        `${name}: ${(b * 1000).toFixed(1)} µs a problem at 20k against ${(a * 1000).toFixed(1)} µs at 2k (${(b / a).toFixed(1)}x)`,
      );
    });
});

describe('an indexing pass costs nothing per sample for the annotations', () => {
  test('the annotations drive the query of the annotated samples: no scan of the samples table', () => {
    const index = TraceIndex.open(':memory:');
    try {
      const plan = (index.db.prepare(`EXPLAIN QUERY PLAN ${ANNOTATED_SAMPLES_SQL}`).all() as { detail: string }[]).map(
        (r) => r.detail,
      );
      // each pass ran it; SQLite's own choice scanned every sample first (170 ms a pass at a million samples)
      assert.match(plan[0], /^SCAN a\b/, plan.join('\n'));
      assert.ok(!plan.some((d) => /^SCAN s\b/.test(d)), plan.join('\n'));
      // an annotated sample's rank among the equal texts of its line reads that line, not the file before it
      assert.ok(
        plan.some((d) => /^SEARCH s2 USING INDEX samples_by_file_line \(file_id=\? AND line=\?/.test(d)),
        plan.join('\n'),
      );
      // and with no live annotation it asks nothing of the samples
      assert.deepEqual(annotatedSamples(index.db), []);
    } finally {
      index.close();
    }
  });
});
