/**
 * One measured phase of the benchmark, run in its own process so that its peak RSS is its own:
 *   node out/bench/phase.js <phase> <json args>
 * Prints one JSON line (the phase's result, with `maxRssMB` and `wallMs`) as the last line of stdout.
 * Phases: gen, floor, index, probe, fts, sizes, reindex, queries, report, reportMaj, simOne, simAll, bd-read,
 * bd-hash, bd-filehash, bd-insert. The driver is bench/run.ts. The phase's process uses the SQLite driver
 * TRACE_INSPECTOR_SQLITE_DRIVER chooses (default: better-sqlite3) and says which in its result.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSampleText, readSampleTexts } from '../src/core/index/sampleText';
import { buildSearchIndex } from '../src/core/index/searchIndex';
import { TraceIndex, ftsQuery } from '../src/core/index/traceIndex';
import { indexFolder, type IndexProgress } from '../src/core/index/indexer';
import { buildReport } from '../src/core/report/index';
import { answerCacheStats, casLoaded, clearAnswerCache } from '../src/core/answers';
import { graderAudit } from '../src/core/analyses/graderAudit';
import { legacyMajAtKCurve } from './legacyMajority';
import { readFile } from '../src/core/readers';
import { contentHash } from '../src/core/text/strings';
import { searchText } from '../src/core/index/search';
import { bestOfKCurve, kGrid, passAtKSeries } from '../src/core/metrics';
import { guessBaseModel } from '../src/core/index/labels';
import { sqliteDriver } from '../src/core/index/sqlite';
import * as zlib from 'node:zlib';
import { problemSimilarity } from '../src/core/similarity';
import { generate, rng, type GenParams } from './gen';

const MB = 1e6;

function maxRssMB(): number {
  // resourceUsage().maxRSS is in kilobytes (KiB) on Linux; VmHWM in /proc is the same figure.
  let hwm: number | null = null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) hwm = Number(m[1]);
  } catch {
    // not Linux
  }
  return ((hwm ?? process.resourceUsage().maxRSS) * 1024) / MB;
}

/** Results files of the generated folder (sorted relative paths ending in .jsonl). */
function resultFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(root);
  return out;
}

function bytesOf(files: string[]): number {
  return files.reduce((a, f) => a + fs.statSync(f).size, 0);
}

/** Size of the database file plus its WAL (after a checkpoint the WAL is empty). */
function dbBytes(db: string): number {
  let n = 0;
  for (const suffix of ['', '-wal']) {
    try {
      n += fs.statSync(db + suffix).size;
    } catch {
      // absent
    }
  }
  return n;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** Streams a file in 1 MiB chunks and calls `onLine(buffer, start, end)` for every non-empty line. */
async function eachLine(file: string, onLine: (buf: Buffer, start: number, end: number) => void): Promise<void> {
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  let carry: Buffer[] = [];
  for await (const raw of stream) {
    const chunk = raw as Buffer;
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, pos);
      if (nl === -1) {
        if (pos < chunk.length) carry.push(chunk.subarray(pos));
        break;
      }
      if (carry.length > 0) {
        carry.push(chunk.subarray(pos, nl));
        const joined = Buffer.concat(carry);
        carry = [];
        if (joined.length > 0) onLine(joined, 0, joined.length);
      } else if (nl > pos) {
        onLine(chunk, pos, nl);
      }
      pos = nl + 1;
    }
  }
  if (carry.length > 0) {
    const joined = Buffer.concat(carry);
    if (joined.length > 0) onLine(joined, 0, joined.length);
  }
}

type Args = Record<string, unknown>;

/** The base model (guessed from names, as the report does) and the other models. */
function baseAndOthers(index: TraceIndex) {
  const models = index.models();
  const b = Math.max(0, guessBaseModel(models));
  return { models, base: models[b], others: models.filter((_, i) => i !== b) };
}

const phases: Record<string, (a: Args) => Promise<Record<string, unknown>>> = {
  /** Generates the synthetic folder. */
  async gen(a) {
    const m = generate(a.params as GenParams, a.root as string, a.manifest as string);
    return { manifest: m };
  },

  /** The floor: stream every file and JSON.parse every line, storing nothing. */
  async floor(a) {
    const files = resultFiles(a.root as string);
    const t0 = performance.now();
    let lines = 0;
    let samples = 0;
    for (const f of files) {
      await eachLine(f, (buf, s, e) => {
        const o = JSON.parse(buf.toString('utf8', s, e)) as { code?: unknown[] };
        lines++;
        if (Array.isArray(o.code)) samples += o.code.length;
      });
    }
    const ms = performance.now() - t0;
    return { ms, lines, samples, bytes: bytesOf(files) };
  },

  /** Full index (with the full-text index, written with the samples; `fts: false` leaves it out) into a fresh database. */
  async index(a) {
    const db = a.db as string;
    const t0 = performance.now();
    const index = TraceIndex.open(db);
    const progress: { t: number; phase: IndexProgress['phase']; samples: number; file?: string }[] = [];
    const summary = await indexFolder(index, a.root as string, {
      fts: a.fts !== false,
      batchSize: (a.batchSize as number | undefined) ?? undefined,
      onProgress: (p) => progress.push({ t: performance.now() - t0, phase: p.phase, samples: p.samples, file: p.file }),
    });
    const ms = performance.now() - t0;
    const tc = performance.now();
    index.db.pragma('wal_checkpoint(TRUNCATE)');
    const checkpointMs = performance.now() - tc;
    const models = index
      .models()
      .map((m) => ({ name: m.name, problems: m.problems, samples: m.samples, correct: m.correct }));
    const problems = index.countProblems();
    index.close();
    // per-file: time from the file's first progress event to the next file's (or the end)
    const perFile: { file: string; ms: number }[] = [];
    let cur = null as { file: string; t: number } | null;
    for (const p of progress) {
      if (p.phase === 'index' && p.file && p.file !== cur?.file) {
        if (cur) perFile.push({ file: cur.file, ms: p.t - cur.t });
        cur = { file: p.file, t: p.t };
      }
    }
    if (cur) perFile.push({ file: cur.file, ms: ms - cur.t });
    return {
      ms,
      checkpointMs,
      firstCommitMs: summary.firstCommitMs,
      samples: summary.samples,
      samplesWritten: summary.samplesWritten,
      diagnostics: summary.diagnostics.length,
      firstDiagnostics: summary.diagnostics.slice(0, 5),
      filesIndexed: summary.filesIndexed,
      models,
      problems,
      perFile,
      dbBytes: dbBytes(db),
    };
  },

  /**
   * Polls the index from another process until the first problem is queryable (a problem row, its
   * per-model counts and a page of its samples), and reports the time since `startEpochMs`.
   */
  async probe(a) {
    const db = a.db as string;
    const start = a.startEpochMs as number;
    const deadline = start + ((a.timeoutMs as number | undefined) ?? 120000);
    let index: TraceIndex | null = null;
    let polls = 0;
    while (Date.now() < deadline) {
      polls++;
      try {
        if (!index && fs.existsSync(db)) index = TraceIndex.open(db, { readonly: true, busyTimeoutMs: 50 });
        if (index) {
          const p = index.listProblems({ kind: 'all' }, 0, 1)[0];
          const st = p ? index.problemStats(p.id).find((s) => s.n > 0) : undefined;
          const rows = st ? index.samples(p.id, st.modelId, { limit: 50 }) : [];
          if (rows.length > 0) {
            const queryableMs = Date.now() - start;
            index.close();
            return { queryableMs, polls, problemId: p.problemId, samplesSeen: rows.length };
          }
        }
      } catch {
        try {
          index?.close();
        } catch {
          // ignore
        }
        index = null;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return { queryableMs: null, polls };
  },

  /** Builds the full-text index of an index written with `fts: false` (core buildSearchIndex: after the figures). */
  async searchIndex(a) {
    const db = a.db as string;
    const t0 = performance.now();
    const index = TraceIndex.open(db);
    const r = await buildSearchIndex(index);
    const ms = performance.now() - t0;
    index.db.pragma('wal_checkpoint(TRUNCATE)');
    index.close();
    return { ms, added: r.added, indexed: r.indexed, samples: r.samples, unreadable: r.unreadable };
  },

  /** Counts the samples in the full-text index (written after the figures by the searchIndex phase). */
  async fts(a) {
    const db = a.db as string;
    const index = TraceIndex.open(db);
    const t0 = performance.now();
    const r = { added: index.db.prepare('SELECT count(*) FROM samples_fts').pluck().get() as number };
    const ms = performance.now() - t0;
    index.db.pragma('wal_checkpoint(TRUNCATE)');
    index.close();
    return { ms, added: r.added, dbBytes: dbBytes(db) };
  },

  /** Space per table and index (SQLite's dbstat), grouped by table. */
  async sizes(a) {
    const index = TraceIndex.open(a.db as string, { readonly: true });
    const rows = index.db
      .prepare(
        `SELECT d.name AS name, coalesce(m.tbl_name, d.name) AS tbl, m.type AS type, sum(d.pgsize) AS bytes,
                sum(d.payload) AS payload, sum(d.unused) AS unused
           FROM dbstat d LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY d.name ORDER BY bytes DESC`,
      )
      .all() as { name: string; tbl: string; type: string | null; bytes: number; payload: number; unused: number }[];
    const text = index.db
      .prepare('SELECT sum(length(CAST(text AS BLOB))) AS textBytes, count(*) AS n FROM samples')
      .get() as {
      textBytes: number;
      n: number;
    };
    index.close();
    return { objects: rows, sampleTextBytes: text.textBytes, samples: text.n };
  },

  /** Re-indexes the unchanged folder (FTS on, as the extension does: nothing to add). */
  async reindex(a) {
    const index = TraceIndex.open(a.db as string);
    const t0 = performance.now();
    const s = await indexFolder(index, a.root as string);
    const ms = performance.now() - t0;
    index.close();
    return {
      ms,
      filesSkipped: s.filesSkipped,
      filesIndexed: s.filesIndexed,
      samplesWritten: s.samplesWritten,
      samples: s.samples,
    };
  },

  /** Latency of the queries the tree and the problem view make, with the index at full size. */
  async queries(a) {
    const index = TraceIndex.open(a.db as string, { readonly: true });
    const iterations = (a.iterations as number | undefined) ?? 100;
    const r = rng(4242);
    const { models, base, others } = baseAndOthers(index);
    const model = others[0] ?? base;
    const problems = index.listProblems({ kind: 'all' }, 0, 10000);
    const totalProblems = index.countProblems();
    const pick = () => problems[Math.floor(r() * problems.length)];
    const sampleIds = index.db.prepare('SELECT id FROM samples WHERE id % 997 = 0').pluck().all() as number[];
    const searches = ['Lucía', 'discriminant', 'sum of roots', 'Pythagorean theorem', 'Marcus marbles', '194'];

    const cases: { name: string; what: string; run: (i: number) => unknown }[] = [
      { name: 'models', what: 'models() with totals (tree root, model mode)', run: () => index.models() },
      {
        name: 'problemsPage',
        what: 'countProblems + listProblems(all, page of 200) (tree root)',
        run: () => {
          const offset = Math.floor(r() * Math.max(1, totalProblems - 200));
          return [index.countProblems({ kind: 'all' }), index.listProblems({ kind: 'all' }, offset, 200)];
        },
      },
      {
        name: 'problemsPageLost',
        what: 'count + list(lost: base solves, model never; page of 200) (tree filter)',
        run: () => [
          index.countProblems({ kind: 'lost', base: base.id, model: model.id }),
          index.listProblems({ kind: 'lost', base: base.id, model: model.id }, 0, 200),
        ],
      },
      {
        name: 'problemsPageLowAccuracy',
        what: 'count + list(lowAccuracy < 0.2; page of 200) (tree filter)',
        run: () => [
          index.countProblems({ kind: 'lowAccuracy', model: model.id, threshold: 0.2 }),
          index.listProblems({ kind: 'lowAccuracy', model: model.id, threshold: 0.2 }, 0, 200),
        ],
      },
      {
        name: 'problemModels',
        what: "problemStats(problem) + models() (one problem's models)",
        run: () => [index.problemStats(pick().id), index.models()],
      },
      {
        name: 'modelStats',
        what: "modelStats(model) (model mode: one model's problems)",
        run: (i) => index.modelStats(models[i % models.length].id),
      },
      {
        name: 'verdictCounts',
        what: 'sampleCounts(problem, model) (verdict nodes)',
        run: (i) => index.sampleCounts(pick().id, models[i % models.length].id),
      },
      {
        name: 'samplesPage',
        what: 'samples(problem, model, {correct: false, limit 200}) (one page of samples)',
        run: (i) => index.samples(pick().id, models[i % models.length].id, { correct: false, offset: 0, limit: 200 }),
      },
      {
        name: 'samplesPageDeep',
        what: 'samples(problem, model, {offset 800, limit 200}) (a later page)',
        run: (i) => index.samples(pick().id, models[i % models.length].id, { offset: 800, limit: 200 }),
      },
      {
        name: 'sampleText',
        what: 'sample(id) and its text read from the results file, hash checked (open a sample)',
        run: () => {
          const id = sampleIds[Math.floor(r() * sampleIds.length)];
          return Promise.all([index.sample(id), readSampleText(index, id)]);
        },
      },
      {
        name: 'sampleTextNext',
        what: 'the same for the next sample of the problem just opened (its line kept in memory: read and compared, not parsed)',
        run: (i) => {
          const id = sampleIds[0] + 1 + (i % 512);
          return Promise.all([index.sample(id), readSampleText(index, id)]);
        },
      },
      {
        name: 'passAtK',
        what: "problemStats + pass@k for k = 1..n per model (one problem's pass@k data)",
        run: () => index.problemStats(pick().id).map((s) => passAtKSeries(s.graded, s.c)),
      },
      {
        name: 'search',
        what: 'search(query, 200) (full-text search of sample text)',
        run: (i) => index.search(searches[i % searches.length], 200),
      },
      {
        name: 'problemsPageSearch',
        what: 'listProblems(search filter, every match) (tree search filter: once per new query, then paged from memory)',
        run: (i) => index.listProblems({ kind: 'search', query: searches[i % searches.length] }, 0, 1_000_000),
      },
      {
        name: 'problemsPageSearchCommon',
        what: "listProblems(search filter 'sum of roots', a term in most samples) (tree search filter, worst case)",
        run: () => index.listProblems({ kind: 'search', query: 'sum of roots' }, 0, 1_000_000),
      },
    ];
    const out: Record<string, unknown>[] = [];
    for (const c of cases) {
      for (let i = 0; i < 5; i++) await c.run(i); // warm-up (statement cache, page cache)
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < iterations; i++) {
        const t0 = performance.now();
        const res = await c.run(i);
        times.push(performance.now() - t0);
        if (Array.isArray(res)) rows += res.length;
      }
      times.sort((x, y) => x - y);
      out.push({
        name: c.name,
        what: c.what,
        iterations,
        p50: quantile(times, 0.5),
        p95: quantile(times, 0.95),
        max: times[times.length - 1],
        meanRows: rows / iterations,
      });
    }
    // why the search filter costs what it costs: samples matched per term, and the filter's time for it
    const searchTerms = searches.map((q) => {
      const t0 = performance.now();
      const matches = index.db
        .prepare('SELECT count(*) FROM samples_fts WHERE samples_fts MATCH ?')
        .pluck()
        .get(ftsQuery(q)) as number;
      const t1 = performance.now();
      const problemsMatched = index.listProblems({ kind: 'search', query: q }, 0, 1_000_000).length;
      return {
        query: q,
        samplesMatched: matches,
        ftsCountMs: t1 - t0,
        problemsMatched,
        filterCountMs: performance.now() - t1,
      };
    });
    index.close();
    return { cases: out, searchTerms, problems: totalProblems, models: models.length };
  },

  /** The full report (every pass@k curve with bootstrap intervals, comparisons, strata). */
  async report(a) {
    const index = TraceIndex.open(a.db as string, { readonly: true });
    const runs: number[] = [];
    let summary: Record<string, unknown> = {};
    for (let i = 0; i < ((a.runs as number | undefined) ?? 3); i++) {
      const t0 = performance.now();
      const rep = buildReport(index);
      runs.push(performance.now() - t0);
      summary = {
        base: rep.base,
        models: rep.models.map((m) => ({
          id: m.id,
          problems: m.problems,
          samples: m.samples,
          passAt1: m.passAtK[0]?.value,
          ks: m.passAtK.length,
          bestOfK: m.bestOfK.length,
        })),
        comparisons: rep.comparisons.map((c) => ({ model: c.model, crossoverK: c.crossoverK, coverage: c.coverage })),
        strata: rep.strata.length,
      };
    }
    // the best-of-k part of the report on its own: loading every sample's score, then the curve
    // (as the report does it: one query per model for every sample's score and verdict, then bestOfKCurve)
    let bestOfKLoadMs = 0;
    let bestOfKComputeMs = 0;
    for (const m of index.models()) {
      if (m.scored === 0) continue;
      const tl = performance.now();
      const perProblem = [...index.scoredSamplesByProblem(m.id).values()];
      const tc = performance.now();
      const maxN = perProblem.reduce((a, x) => Math.max(a, x.length), 0);
      if (maxN > 0) bestOfKCurve(perProblem, kGrid(maxN));
      bestOfKLoadMs += tc - tl;
      bestOfKComputeMs += performance.now() - tc;
    }
    index.close();
    const sorted = [...runs].sort((x, y) => x - y);
    return { runs, firstMs: runs[0], medianMs: quantile(sorted, 0.5), bestOfKLoadMs, bestOfKComputeMs, summary };
  },

  /**
   * The report with maj@k (answer equivalence, issue 11) against the report with maj@k as it was
   * before (bench/legacyMajority.ts: string normaliser, groups rebuilt at every k), in one process:
   * one report to warm up the JIT (discarded; it loads the CAS if some answer needs it, which is then
   * counted in neither figure); the report without maj@k and the grader audit alone (it did not exist
   * before), both with every answer key cached; the maj@k part as before (loading each model's answers +
   * the legacy curve); then, with the key cache emptied, the report with maj@k (its first run computes
   * every distinct answer's key; later runs find them cached).
   * Before = report - grader audit + legacy maj@k; now = first report with maj@k.
   */
  async reportMaj(a) {
    const index = TraceIndex.open(a.db as string, { readonly: true });
    const draws = 2000;
    const seed = 12345;
    // wall and CPU time (user + system of this process: steadier on a shared machine) of one step
    const timed = <T>(fn: () => T): { value: T; ms: number; cpuMs: number } => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const value = fn();
      const c = process.cpuUsage(c0);
      return { value, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
    };
    buildReport(index); // JIT warm-up, and every answer key cached (the CAS loaded if an answer needs it)
    const report = timed(() => buildReport(index));
    const audit = timed(() => graderAudit(index));
    const legacy = timed(() => {
      const out: Record<string, { k: number; value: number | null }[]> = {};
      for (const m of index.models()) {
        const perProblem = [...index.answersByProblem(m.id).values()];
        const maxN = perProblem.reduce((x, p) => Math.max(x, p.length), 0);
        out[m.displayId] = legacyMajAtKCurve(perProblem, kGrid(maxN), { draws, seed });
      }
      return out;
    });
    clearAnswerCache();
    const runs: { ms: number; cpuMs: number }[] = [];
    let maj: Record<string, { k: number; value: number | null; byReference: number }[]> = {};
    for (let i = 0; i < ((a.runs as number | undefined) ?? 3); i++) {
      const r = timed(() => buildReport(index, { majAtK: true }));
      runs.push({ ms: r.ms, cpuMs: r.cpuMs });
      maj = Object.fromEntries(r.value.models.map((m) => [m.id, m.majAtK ?? []]));
    }
    const cache = answerCacheStats();
    const samples = index.models().reduce((x, m) => x + m.samples, 0);
    index.close();
    // how far the new values are from the legacy ones (reference rule and equivalence; informational)
    let maxDiff = 0;
    for (const [id, curve] of Object.entries(maj))
      for (const p of curve) {
        const l = legacy.value[id]?.find((x) => x.k === p.k);
        if (l?.value != null && p.value !== null) maxDiff = Math.max(maxDiff, Math.abs(l.value - p.value));
      }
    const sorted = runs.map((r) => r.ms).sort((x, y) => x - y);
    return {
      samples,
      // the CAS is loaded only when some answer is not a plain number or a simple fraction or radical
      casLoaded: casLoaded(),
      reportMs: report.ms,
      auditMs: audit.ms,
      auditInconsistent: audit.value.inconsistent.length,
      legacyMajMs: legacy.ms,
      beforeMs: report.ms - audit.ms + legacy.ms,
      beforeCpuMs: report.cpuMs - audit.cpuMs + legacy.cpuMs,
      nowMs: runs[0].ms,
      nowCpuMs: runs[0].cpuMs,
      runs,
      firstMs: runs[0].ms,
      medianMs: quantile(sorted, 0.5),
      distinctAnswers: cache.size,
      keysComputed: cache.misses,
      keyLookups: cache.hits + cache.misses,
      maxDiffVsLegacy: maxDiff,
    };
  },

  /** Similarity of one problem: every model sample against every base sample of that problem. */
  async simOne(a) {
    const index = TraceIndex.open(a.db as string, { readonly: true });
    const { base, others } = baseAndOthers(index);
    const model = others[0] ?? base;
    const problems = index.listProblems({ kind: 'all' }, 0, 10000);
    const p = problems[Math.floor(problems.length / 2)];
    const runs: { loadMs: number; computeMs: number; totalMs: number }[] = [];
    let result: Record<string, unknown> = {};
    for (let i = 0; i < ((a.runs as number | undefined) ?? 3); i++) {
      const t0 = performance.now();
      const bt = (await readSampleTexts(index, p.id, base.id)).map((s) => s.text);
      const mt = (await readSampleTexts(index, p.id, model.id)).map((s) => s.text);
      const t1 = performance.now();
      const sim = problemSimilarity(bt, mt);
      const t2 = performance.now();
      runs.push({ loadMs: t1 - t0, computeMs: t2 - t1, totalMs: t2 - t0 });
      result = {
        problem: p.problemId,
        baseSamples: bt.length,
        modelSamples: mt.length,
        modelSimilarityMedian: sim.summary.modelSimilarity.median,
        baselineSimilarityMedian: sim.summary.baselineSimilarity.median,
      };
    }
    index.close();
    return {
      runs,
      firstMs: runs[0].totalMs,
      medianMs: quantile(
        runs.map((r) => r.totalMs).sort((x, y) => x - y),
        0.5,
      ),
      ...result,
    };
  },

  /** Similarity of every problem of every non-base model against the base model (the whole folder). */
  async simAll(a) {
    const index = TraceIndex.open(a.db as string, { readonly: true });
    const { models, base, others } = baseAndOthers(index);
    const problems = index.listProblems({ kind: 'all' }, 0, 10000);
    const limitMs = (a.limitMs as number | undefined) ?? Infinity;
    const t0 = performance.now();
    let pairs = 0;
    let loadMs = 0;
    let samples = 0;
    let truncated = false;
    outer: for (const m of others) {
      for (const p of problems) {
        if (performance.now() - t0 > limitMs) {
          truncated = true;
          break outer;
        }
        const tl = performance.now();
        const bt = (await readSampleTexts(index, p.id, base.id)).map((s) => s.text);
        const mt = (await readSampleTexts(index, p.id, m.id)).map((s) => s.text);
        loadMs += performance.now() - tl;
        problemSimilarity(bt, mt);
        pairs++;
        samples += bt.length + mt.length;
      }
    }
    const ms = performance.now() - t0;
    const totalPairs = problems.length * (models.length - 1);
    index.close();
    return {
      ms,
      pairs,
      totalPairs,
      truncated,
      loadMs,
      samples,
      projectedMs: truncated ? (ms / pairs) * totalPairs : ms,
    };
  },

  /** Breakdown of the floor: streaming and UTF-8 decoding every line, without JSON.parse. */
  async 'bd-decode'(a) {
    const files = resultFiles(a.root as string);
    const t0 = performance.now();
    let chars = 0;
    for (const f of files) await eachLine(f, (buf, s, e) => (chars += buf.toString('utf8', s, e).length));
    return { ms: performance.now() - t0, chars };
  },

  /** Breakdown: the qwen-math reader alone (read, parse, build records), storing nothing. */
  async 'bd-read'(a) {
    const root = a.root as string;
    const files = resultFiles(root);
    const t0 = performance.now();
    let samples = 0;
    let chars = 0;
    for (const f of files) {
      const rel = path.relative(root, f).split(path.sep).join('/');
      for await (const ev of readFile({ root, relPath: rel, absPath: f, run: path.posix.dirname(rel) }, 'qwen-math')) {
        if (ev.kind === 'problem') {
          samples += ev.record.samples.length;
          for (const s of ev.record.samples) chars += s.text.length;
        }
      }
    }
    return { ms: performance.now() - t0, samples, chars };
  },

  /** Breakdown: the reader plus the per-sample content hash (SHA-1 of each text). */
  async 'bd-hash'(a) {
    const root = a.root as string;
    const files = resultFiles(root);
    const t0 = performance.now();
    let samples = 0;
    let hashMs = 0;
    for (const f of files) {
      const rel = path.relative(root, f).split(path.sep).join('/');
      for await (const ev of readFile({ root, relPath: rel, absPath: f, run: path.posix.dirname(rel) }, 'qwen-math')) {
        if (ev.kind === 'problem') {
          const th = performance.now();
          for (const s of ev.record.samples) contentHash(s.text);
          hashMs += performance.now() - th;
          samples += ev.record.samples.length;
        }
      }
    }
    return { ms: performance.now() - t0, hashMs, samples };
  },

  /** Breakdown: the whole-file SHA-1 the indexer computes before reading a new or changed file. */
  async 'bd-filehash'(a) {
    const files = resultFiles(a.root as string);
    const t0 = performance.now();
    for (const f of files) {
      await new Promise<void>((resolve, reject) => {
        const h = createHash('sha1');
        fs.createReadStream(f, { highWaterMark: 1 << 20 })
          .on('data', (c) => h.update(c))
          .on('error', reject)
          .on('end', () => {
            h.digest('hex');
            resolve();
          });
      });
    }
    return { ms: performance.now() - t0 };
  },

  /**
   * Breakdown: the reader plus the sample INSERT alone (same statement and schema as the indexer, 20000
   * samples per transaction; no model/problem upserts, no stats). Variants: `plain` (constant content
   * hash), `hash` (real content hash), `notext` (empty text: the cost of storing the text),
   * `noidx` (without the secondary indexes on samples), `spans` (empty text, as the indexer writes a JSONL
   * sample since schema migration 11, plus its `sample_spans` row), `fts` (`spans` plus the full-text row
   * of searchText(text), as the indexer's writer thread does; `searchMs` and `ftsMs` time searchText and
   * the FTS5 INSERT alone).
   */
  async 'bd-insert'(a) {
    const root = a.root as string;
    const db = a.db as string;
    const variant = a.variant as 'plain' | 'hash' | 'notext' | 'noidx' | 'spans' | 'fts';
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(db + suffix, { force: true });
    const files = resultFiles(root);
    const index = TraceIndex.open(db);
    const d = index.db;
    if (variant === 'noidx')
      d.exec('DROP INDEX samples_by_model_problem; DROP INDEX samples_by_file_line; DROP INDEX samples_scored;');
    const ins = d.prepare(
      `INSERT INTO samples (file_id, line, model_id, problem_id, sample_index, correct, extracted_answer,
         reward_score, finish_reason, token_count, content_hash, text, text_length)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const span = d.prepare('INSERT INTO sample_spans (sample_id, rec_offset, rec_bytes, rec_pos) VALUES (?, ?, ?, ?)');
    const fts = d.prepare('INSERT INTO samples_fts(rowid, text) VALUES (?, ?)');
    const noText = variant === 'notext' || variant === 'spans' || variant === 'fts';
    let searchMs = 0;
    let ftsMs = 0;
    const ids = new Map<string, number>();
    const idOf = (k: string) => {
      let v = ids.get(k);
      if (v === undefined) ids.set(k, (v = ids.size + 1));
      return v;
    };
    const t0 = performance.now();
    let samples = 0;
    let inBatch = 0;
    d.exec('BEGIN');
    for (let fi = 0; fi < files.length; fi++) {
      const f = files[fi];
      const rel = path.relative(root, f).split(path.sep).join('/');
      for await (const ev of readFile({ root, relPath: rel, absPath: f, run: path.posix.dirname(rel) }, 'qwen-math')) {
        if (ev.kind !== 'problem') continue;
        const r = ev.record;
        const mid = idOf(`m${r.model.name}`);
        const pid = idOf(`p${r.dataset}/${r.problemId}`);
        for (let pos = 0; pos < r.samples.length; pos++) {
          const s = r.samples[pos];
          const { lastInsertRowid } = ins.run(
            fi + 1,
            r.line,
            mid,
            pid,
            s.sampleIndex ?? 0,
            s.correct === null ? null : s.correct ? 1 : 0,
            s.extractedAnswer ?? null,
            s.rewardScore ?? null,
            s.finishReason ?? null,
            null,
            variant === 'hash' ? contentHash(s.text) : '0123456789abcdef',
            noText ? '' : s.text,
            s.text.length,
          );
          if ((variant === 'spans' || variant === 'fts') && r.span)
            span.run(lastInsertRowid, r.span.offset, r.span.bytes, pos);
          if (variant === 'fts') {
            const t0s = performance.now();
            const st = searchText(s.text);
            const t1s = performance.now();
            fts.run(lastInsertRowid, st);
            ftsMs += performance.now() - t1s;
            searchMs += t1s - t0s;
          }
          samples++;
          if (++inBatch >= 20000) {
            d.exec('COMMIT');
            d.exec('BEGIN');
            inBatch = 0;
          }
        }
      }
    }
    d.exec('COMMIT');
    const ms = performance.now() - t0;
    d.pragma('wal_checkpoint(TRUNCATE)');
    index.close();
    const bytes = dbBytes(db);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(db + suffix, { force: true });
    return { ms, samples, variant, dbBytes: bytes, ...(variant === 'fts' ? { searchMs, ftsMs } : {}) };
  },

  /**
   * Breakdown of space: the full-text index rebuilt in a separate database file with another FTS5
   * `detail` option (`full`: positions; `column`: columns only; `none`: rowids only, what the index
   * uses since schema migration 4), for its size and build time.
   */
  async 'bd-fts'(a) {
    const other = a.other as string;
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(other + suffix, { force: true });
    const index = TraceIndex.open(a.db as string); // writable: an attached database inherits read-only
    const d = index.db;
    d.prepare('ATTACH DATABASE ? AS alt').run(other);
    d.exec(
      `CREATE VIRTUAL TABLE alt.fts USING fts5 (text, content='', contentless_delete=1, tokenize='unicode61', detail=${a.detail as string})`,
    );
    // the texts come from the folder (the index keeps no copy since schema migration 11), numbered as read
    const insert = d.prepare('INSERT INTO alt.fts(rowid, text) VALUES (?, ?)');
    let id = 0;
    let ms = 0;
    d.exec('BEGIN');
    for await (const text of folderTexts(a.root as string)) {
      const t0 = performance.now();
      insert.run(++id, text);
      ms += performance.now() - t0;
    }
    d.exec('COMMIT');
    d.exec('DETACH DATABASE alt');
    index.close();
    const bytes = dbBytes(other);
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(other + suffix, { force: true });
    return { ms, detail: a.detail, bytes };
  },

  /** Breakdown of space: what per-sample compression of the text would save (every 8th sample, scaled up). */
  async 'bd-compress'(a) {
    const texts: string[] = [];
    let n = 0;
    for await (const text of folderTexts(a.root as string)) if (n++ % 8 === 0) texts.push(text);
    const raw = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    const out: Record<string, { bytes: number; ms: number; ratio: number }> = {};
    const run = (name: string, f: (b: Buffer) => Buffer) => {
      const c0 = process.cpuUsage();
      let n = 0;
      for (const t of texts) n += f(Buffer.from(t)).length;
      const c = process.cpuUsage(c0);
      // CPU time (user + system) for every 8th sample, times 8
      out[name] = { bytes: n * 8, ms: ((c.user + c.system) / 1000) * 8, ratio: n / raw };
    };
    run('deflate1', (b) => zlib.deflateRawSync(b, { level: 1 }));
    run('deflate6', (b) => zlib.deflateRawSync(b, { level: 6 }));
    const z = zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer };
    if (typeof z.zstdCompressSync === 'function') run('zstd', (b) => z.zstdCompressSync!(b));
    return { rawBytes: raw * 8, sampled: texts.length, codecs: out };
  },
};

/** Every sample text of the bench folder (qwen-math files), in file order, as the reader produces it. */
async function* folderTexts(root: string): AsyncGenerator<string> {
  for (const f of resultFiles(root)) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    for await (const ev of readFile({ root, relPath: rel, absPath: f, run: path.posix.dirname(rel) }, 'qwen-math'))
      if (ev.kind === 'problem') for (const s of ev.record.samples) yield s.text;
  }
}

async function main(): Promise<void> {
  const [name, json] = process.argv.slice(2);
  const fn = phases[name];
  if (!fn) {
    console.error(`unknown phase ${name}; phases: ${Object.keys(phases).join(', ')}`);
    process.exit(2);
  }
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const result = await fn(json ? (JSON.parse(json) as Args) : {});
  const c = process.cpuUsage(c0);
  // cpuMs (user + system of this process during the phase) next to wallMs shows how much other load on the machine slowed it
  process.stdout.write(
    '\n' +
      JSON.stringify({
        phase: name,
        ...result,
        // the SQLite driver this process used (TRACE_INSPECTOR_SQLITE_DRIVER picks it; run.ts sets it for the node:sqlite phases)
        sqliteDriver: sqliteDriver().name,
        wallMs: performance.now() - t0,
        cpuMs: (c.user + c.system) / 1000,
        maxRssMB: maxRssMB(),
      }) +
      '\n',
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
