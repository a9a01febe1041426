/**
 * Cost growth: the same measures on folders of other shapes than the main bench's (500 problems x 1024
 * samples), so that a cost that grows faster than the work shows:
 *   problems-5k / problems-50k   5,000 and 50,000 problems x 4 samples x 2 models (whole training sets at small n)
 *   checkpoints-100              500 problems x 8 samples x 102 models (a base, an RL model, 100 checkpoints)
 *   models-30                    500 problems x 16 samples x 30 models
 *   scorers-30                   2,000 problems x 10 solutions scored by 30 reward models (RewardMATH layout)
 *   samples-1m                   500 problems x 1024 samples x 2 models (the main bench's folder)
 * For each: index (better-sqlite3, full-text index on), the first tree page, the report, the report with
 * maj@k, the grader audit alone, the overview's data; and the Python baseline's load of the same folder
 * (Qwen2.5-Math layouts). Each shape is measured in its own process (`shapes.js measure <shape>`).
 *
 *   npm run bench -- --shapes [--only a,b] [--out FILE]
 * Writes bench/shapes.json and bench/SHAPES.md (the cost-growth table) after each shape; rows of shapes not
 * measured in this run (--only) are kept from the file. Folders are generated once into bench/data/shapes/
 * (gitignored) and reused.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { indexFolder } from '../src/core/index/indexer';
import { TraceIndex } from '../src/core/index/traceIndex';
import { buildReport } from '../src/core/report/index';
import { graderAudit } from '../src/core/analyses/graderAudit';
import { overviewData } from '../src/extension/panelData';
import { existingManifest, generate, rng, type GenParams } from './gen';

const repo = path.resolve(__dirname, '..', '..', '..');
const dataDir = path.join(repo, 'bench', 'data', 'shapes');
const workDir = path.join(repo, 'bench', 'work', 'shapes');

interface Shape {
  name: string;
  describe: string;
  /** Qwen2.5-Math layout parameters, or a RewardMATH-like folder of scorers. */
  qwen?: GenParams;
  scorers?: { problems: number; solutions: number; scorers: number };
}

export const SHAPES: Shape[] = [
  { name: 'problems-5k', describe: '5,000 problems x 4 samples x 2 models', qwen: gp(5000, 4, 2) },
  { name: 'problems-50k', describe: '50,000 problems x 4 samples x 2 models', qwen: gp(50000, 4, 2) },
  {
    name: 'checkpoints-100',
    describe: '500 problems x 8 samples x 102 models (100 checkpoints)',
    qwen: gp(500, 8, 102),
  },
  { name: 'models-30', describe: '500 problems x 16 samples x 30 models', qwen: gp(500, 16, 30) },
  {
    name: 'scorers-30',
    describe: '2,000 problems x 10 solutions x 30 reward models',
    scorers: { problems: 2000, solutions: 10, scorers: 30 },
  },
  {
    name: 'samples-1m',
    describe: '500 problems x 1024 samples x 2 models',
    qwen: { ...gp(500, 1024, 2), meanChars: 500 },
  },
];

function gp(problems: number, samples: number, models: number): GenParams {
  return { problems, samples, models, meanChars: 400, seed: 1 };
}

/** The folder of a shape, generated unless it is there. */
function ensureFolder(shape: Shape): { root: string; mapping?: string } {
  const root = path.join(dataDir, shape.name, 'results');
  if (shape.qwen) {
    const manifest = path.join(dataDir, shape.name, 'manifest.json');
    if (!existingManifest(shape.qwen, root, manifest)) {
      fs.rmSync(root, { recursive: true, force: true });
      generate(shape.qwen, root, manifest);
    }
    return { root };
  }
  const s = shape.scorers as NonNullable<Shape['scorers']>;
  const mapping = path.join(repo, 'examples', 'mappings', 'rewardmath.mapping.json');
  const done = path.join(dataDir, shape.name, 'done.json');
  if (!fs.existsSync(done) || fs.readFileSync(done, 'utf8') !== JSON.stringify(s)) {
    fs.rmSync(root, { recursive: true, force: true });
    writeScorers(root, s);
    fs.writeFileSync(done, JSON.stringify(s));
  }
  return { root, mapping };
}

/**
 * A RewardMATH-like folder (examples/mappings/rewardmath.mapping.json reads it): `scores/<scorer>_reward.json`
 * per scorer, a JSON list of `{problem, solution_reference[], score[]}`, the first solution the correct one.
 * Scorer s ranks the correct solution above a wrong one with a probability that grows with s.
 */
function writeScorers(root: string, s: NonNullable<Shape['scorers']>): void {
  fs.mkdirSync(path.join(root, 'scores'), { recursive: true });
  const refs = ['human_to_GPT-4', ...Array.from({ length: s.solutions - 1 }, (_, j) => `generator-${j}`)];
  for (let k = 0; k < s.scorers; k++) {
    const r = rng(1000 + k);
    const skill = 0.3 + (0.6 * k) / s.scorers;
    const list = Array.from({ length: s.problems }, (_, p) => ({
      problem: `Problem ${p}: find the value of $x$ such that $${p % 97}x + ${p % 13} = ${p}$.`,
      solution_reference: refs,
      score: refs.map((_, j) => Math.round(((j === 0 ? skill : 0) + r()) * 1e4) / 1e4),
    }));
    fs.writeFileSync(
      path.join(root, 'scores', `scorer-${String(k).padStart(2, '0')}_reward.json`),
      JSON.stringify(list),
    );
  }
}

/** Wall and CPU milliseconds of one call. */
function timed<T>(fn: () => T): { value: T; ms: number; cpuMs: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

interface ShapeResult {
  shape: string;
  describe: string;
  samples: number;
  problems: number;
  models: number;
  bytes: number;
  indexMs: number;
  treePageMs: number;
  reportMs: number;
  reportCpuMs: number;
  reportMajMs: number;
  graderAuditMs: number;
  overviewMs: number;
  pythonLoadMs: number | null;
  load1: [number, number];
}

function folderBytes(root: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += fs.statSync(p).size;
    }
  };
  walk(root);
  return total;
}

/** Measures one shape in this process; prints one JSON line. */
async function measure(name: string): Promise<void> {
  const shape = SHAPES.find((s) => s.name === name);
  if (!shape) throw new Error(`no shape ${name}: ${SHAPES.map((s) => s.name).join(', ')}`);
  const load0 = os.loadavg()[0];
  const { root, mapping } = ensureFolder(shape);
  fs.mkdirSync(workDir, { recursive: true });
  const db = path.join(workDir, `${name}.db`);
  for (const sfx of ['', '-wal', '-shm']) fs.rmSync(db + sfx, { force: true });
  const index = TraceIndex.open(db);
  const t0 = performance.now();
  // to figures-ready, as the CLI and the extension index (the full-text index is built after it: searchIndex.ts)
  await indexFolder(index, root, { fts: false, ...(mapping ? { readerOptions: { mappingFile: mapping } } : {}) });
  const indexMs = performance.now() - t0;
  const page = () => {
    index.countProblems({ kind: 'all' });
    return index.listProblems({ kind: 'all' }, 0, 200).length;
  };
  page();
  const pages = Array.from({ length: 5 }, () => timed(page).ms).sort((a, b) => a - b);
  const report = timed(() => buildReport(index));
  const reportMaj = timed(() => buildReport(index, { majAtK: true }));
  const audit = timed(() => graderAudit(index));
  const overview = timed(() => overviewData(index, {}));
  const models = index.models();
  let pythonLoadMs: number | null = null;
  if (shape.qwen) {
    const py = spawnSync(
      'python3',
      [path.join(repo, 'bench', 'baseline.py'), root, path.join(workDir, `${name}.py.db`)],
      {
        encoding: 'utf8',
      },
    );
    if (py.status === 0) pythonLoadMs = JSON.parse(py.stdout.trim().split('\n').pop() ?? '{}').loadMs ?? null;
  }
  const out: ShapeResult = {
    shape: name,
    describe: shape.describe,
    samples: models.reduce((a, m) => a + m.samples, 0),
    problems: index.countProblems({ kind: 'all' }),
    models: models.length,
    bytes: folderBytes(root),
    indexMs,
    treePageMs: pages[2],
    reportMs: report.ms,
    reportCpuMs: report.cpuMs,
    reportMajMs: reportMaj.ms,
    graderAuditMs: audit.ms,
    overviewMs: overview.ms,
    pythonLoadMs,
    load1: [load0, os.loadavg()[0]],
  };
  index.close();
  console.log(JSON.stringify(out));
}

function runChild(name: string): Promise<ShapeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, 'measure', name], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`shape ${name} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'));
    });
  });
}

const s1 = (ms: number | null) =>
  ms === null ? '–' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;

/** The cost-growth table (Markdown). */
export function shapesTable(results: readonly ShapeResult[], when: string): string {
  const lines = [
    '## Cost growth',
    '',
    `Measured by \`npm run bench -- --shapes\` on ${when}: ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores; load (1-min average) per row.`,
    'Each shape in its own process; index with the full-text index; report = `report --format json` without maj@k (its',
    'first run, JIT included); tree page = count and first 200 problems (median of 5); baseline = bench/baseline.py',
    "loading the same folder (Python's json + sqlite3).",
    '',
    'Wall times stretch with the load (a process at `nice` 5 on a machine with load 20 gets a fraction of a core): the',
    "report's CPU time (user + system of its process) is what to compare across runs.",
    '',
    '| shape | samples | index | tree page | report | report, CPU | report, maj@k | grader audit | overview data | baseline load | report / baseline | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results)
    lines.push(
      `| ${r.describe} | ${r.samples.toLocaleString('en-US')} | ${s1(r.indexMs)} | ${s1(r.treePageMs)} | ${s1(r.reportMs)} | ${s1(r.reportCpuMs)} | ${s1(r.reportMajMs)} | ${s1(r.graderAuditMs)} | ${s1(r.overviewMs)} | ${s1(r.pythonLoadMs)} | ${r.pythonLoadMs ? `${(r.reportMs / r.pythonLoadMs).toFixed(2)}x` : '–'} | ${r.load1.map((x) => x.toFixed(1)).join('–')} |`,
    );
  const a = results.find((r) => r.shape === 'problems-5k');
  const b = results.find((r) => r.shape === 'problems-50k');
  if (a && b)
    lines.push(
      '',
      `Ten times the problems (5k -> 50k): index ${(b.indexMs / a.indexMs).toFixed(1)}x, report ${(b.reportMs / a.reportMs).toFixed(1)}x, ` +
        `report with maj@k ${(b.reportMajMs / a.reportMajMs).toFixed(1)}x, grader audit ${(b.graderAuditMs / a.graderAuditMs).toFixed(1)}x, ` +
        `overview data ${(b.overviewMs / a.overviewMs).toFixed(1)}x (target: <= 12x).`,
    );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === 'measure') return measure(args[1]);
  if (args[0] === 'table') {
    // bench/SHAPES.md again from bench/shapes.json (the table's layout changed, nothing measured)
    const file = args[1] ?? path.join(repo, 'bench', 'shapes.json');
    const d = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(
      path.join(path.dirname(file), 'SHAPES.md'),
      shapesTable(d.results, `${d.date} UTC, commit ${d.commit}`),
    );
    return;
  }
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
  const outFile = args.includes('--out') ? args[args.indexOf('--out') + 1] : path.join(repo, 'bench', 'shapes.json');
  // shapes measured before (an earlier run, or one with --only) are kept; each shape's row is written as
  // soon as it is measured, so that a run stopped half-way keeps what it measured
  const results: ShapeResult[] = fs.existsSync(outFile)
    ? (JSON.parse(fs.readFileSync(outFile, 'utf8')).results as ShapeResult[]).filter((r) =>
        SHAPES.some((s) => s.name === r.shape),
      )
    : [];
  const write = () => {
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim();
    const ordered = SHAPES.flatMap((s) => results.filter((r) => r.shape === s.name));
    fs.writeFileSync(outFile, `${JSON.stringify({ date: when, commit, results: ordered }, null, 2)}\n`);
    fs.writeFileSync(
      path.join(path.dirname(outFile), 'SHAPES.md'),
      shapesTable(ordered, `${when} UTC, commit ${commit}`),
    );
  };
  for (const s of SHAPES) {
    if (only && !only.includes(s.name)) continue;
    process.stderr.write(`[shapes] ${s.name}: ${s.describe}\n`);
    const r = await runChild(s.name);
    process.stderr.write(
      `[shapes] ${s.name}: report ${s1(r.reportMs)}, maj@k ${s1(r.reportMajMs)}, overview ${s1(r.overviewMs)}\n`,
    );
    const at = results.findIndex((x) => x.shape === r.shape);
    if (at >= 0) results[at] = r;
    else results.push(r);
    write();
  }
  process.stderr.write(`[shapes] wrote ${path.relative(repo, outFile)} and SHAPES.md\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
