/**
 * Helpers of the reliability tests: result-file generators, a minimal zip writer (for zip bombs and
 * corrupt archives generated at test time, never committed), and a runner for the CLI in a child
 * process that reports its peak RSS.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/** The compiled CLI next to the compiled tests (`out/src/cli/main.js`): always the code under test. */
export const CLI = resolve(__dirname, '../../src/cli/main.js');

/** The reliability fixtures (run the tests with cwd = the repository root). */
export const FIX = resolve(process.cwd(), 'test/fixtures/reliability');

/** One line of the per-problem rollouts format. */
export function rolloutLine(
  qid: number | string,
  model: string,
  correct: (boolean | null)[],
  text = (i: number) => `${model} q${qid} s${i}`,
): string {
  return JSON.stringify({
    qid,
    question: `question ${qid}`,
    gold: String(qid),
    model_name: model,
    rollouts: correct.map((c, i) => ({ rollout: i, correct: c, text: text(i) })),
  });
}

/**
 * Writes a rollouts file of `problems` lines with `perProblem` samples each; sample i of problem q is
 * correct when (q + i + salt) % 3 === 0. Returns the number of correct samples.
 */
export function writeRollouts(
  path: string,
  model: string,
  problems: number,
  perProblem: number,
  salt = 0,
  pad = 4,
): number {
  const fd = openSync(path, 'w');
  let correct = 0;
  try {
    let buf: string[] = [];
    for (let q = 0; q < problems; q++) {
      const cs = Array.from({ length: perProblem }, (_, i) => (q + i + salt) % 3 === 0);
      correct += cs.filter(Boolean).length;
      buf.push(
        rolloutLine(
          q,
          model,
          cs,
          (i) => `Sample ${i} of problem ${q} (${salt}): ${'the answer follows from the steps. '.repeat(pad)}`,
        ),
      );
      if (buf.length >= 500) {
        writeSync(fd, `${buf.join('\n')}\n`);
        buf = [];
      }
    }
    if (buf.length) writeSync(fd, `${buf.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return correct;
}

/** A zip entry: `data` is compressed with deflate; `declaredSize` overrides the recorded uncompressed size (a lying header). */
export interface ZipEntry {
  name: string;
  data: Buffer;
  declaredSize?: number;
}

/** Builds a zip archive (deflate, no data descriptors) with local headers and a central directory. */
export function buildZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const comp = deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const usize = e.declaredSize ?? e.data.length;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(0, 6);
    lh.writeUInt16LE(8, 8);
    lh.writeUInt16LE(0, 10);
    lh.writeUInt16LE(0x21, 12);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(comp.length, 18);
    lh.writeUInt32LE(usize, 22);
    lh.writeUInt16LE(name.length, 26);
    lh.writeUInt16LE(0, 28);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(0, 8);
    ch.writeUInt16LE(8, 10);
    ch.writeUInt16LE(0, 12);
    ch.writeUInt16LE(0x21, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(comp.length, 20);
    ch.writeUInt32LE(usize, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, comp);
    centrals.push(ch, name);
    offset += lh.length + name.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An Inspect header and one sample entry, as the `.eval` reader expects them. */
export function inspectHeader(model = 'test/model-z'): string {
  return JSON.stringify({
    version: 2,
    status: 'success',
    eval: { task: 'arith', model, dataset: { name: 'arith-ds' } },
  });
}

export function inspectSample(id: number, epoch: number, content: string, value: string): string {
  return JSON.stringify({
    id,
    epoch,
    input: [{ role: 'user', content: `question ${id}` }],
    target: '4',
    output: { choices: [{ message: { role: 'assistant', content }, stop_reason: 'stop' }] },
    scores: { match: { value, answer: content } },
  });
}

/** Result of {@link runCli}: exit status, signal, output, and peak resident set size in KiB. */
export interface CliRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  maxRssKiB: number;
}

/**
 * Runs the compiled CLI in a child Node process and returns its output and peak RSS (measured by a
 * `--require` hook that writes `process.resourceUsage().maxRSS` on exit; portable, no /usr/bin/time).
 */
export function runCli(args: string[], tmp: string, timeoutMs = 60_000): CliRun {
  const hook = join(tmp, 'rss-hook.js');
  const out = join(tmp, `rss-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(
    hook,
    "process.on('exit', () => require('fs').writeFileSync(process.env.RSS_OUT, String(process.resourceUsage().maxRSS)));\n",
  );
  const r: SpawnSyncReturns<string> = spawnSync(process.execPath, ['--require', hook, CLI, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, RSS_OUT: out },
    maxBuffer: 64 * 1024 * 1024,
  });
  let rss = -1;
  try {
    rss = Number(readFileSync(out, 'utf8'));
  } catch {
    // the child did not exit normally
  }
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, maxRssKiB: rss };
}

/** Starts the CLI asynchronously (for kill and concurrency tests). */
export function startCli(args: string[]) {
  return spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
