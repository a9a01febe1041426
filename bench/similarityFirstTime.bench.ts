/**
 * CPU and wall time of one problem's similarity job the first time, as the similarity worker runs it for the
 * problem view: the texts read from the results files (`readSimilarityFilesJob`: one parse per model's record,
 * content hashes checked) and the whole job (`runSimilarityJob`: nearest base samples, novelty, baseline,
 * computation paths), in a fresh process (cold JIT, nothing kept). Issue 12's target: < 1 s. Not a test: prints
 * one line per run (the first is the first time; later ones, with `reps` > 1, other problems or the same one).
 *
 *   node out/bench/similarityFirstTime.bench.js <folder made by bench/gen.ts> <index db> [problem] [reps]
 *
 * The folder is indexed into `<index db>` when that file does not exist (the folder itself is only read).
 * Figures: until the list's stage (`onList`) and the whole job, each including the read of the texts.
 */
import * as fs from 'node:fs';
import { indexFolder } from '../src/core/index/indexer';
import { guessBaseModel } from '../src/core/index/labels';
import { TraceIndex } from '../src/core/index/traceIndex';
import { readSimilarityFilesJob, runSimilarityJob, similarityFilesJob } from '../src/extension/panelData';

async function main(): Promise<void> {
  const [folder, db, problemArg, repsArg] = process.argv.slice(2);
  if (!folder || !db) throw new Error('usage: similarityFirstTime.bench.js <folder> <db> [problem] [reps]');
  if (!fs.existsSync(db)) {
    const ix = TraceIndex.open(db);
    await indexFolder(ix, folder);
    ix.close();
  }
  const index = TraceIndex.open(db, { readonly: true });
  const models = index.models();
  const b = Math.max(0, guessBaseModel(models));
  const base = models[b];
  const model = models.find((_, i) => i !== b)!;
  const problems = index.listProblems({ kind: 'all' }, 0, 10000);
  const first = Number(problemArg ?? 0);
  const reps = Number(repsArg ?? 1);
  for (let r = 0; r < reps; r++) {
    const p = problems[(first + r) % problems.length];
    const files = similarityFilesJob(index, p.id, base.id, model.id);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const job = await readSimilarityFilesJob(files);
    const cRead = process.cpuUsage(c0);
    const tRead = performance.now() - t0;
    let list = { wall: 0, cpu: 0 };
    const res = runSimilarityJob(job, true, () => {
      const c = process.cpuUsage(c0);
      list = { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
    });
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    console.log(
      `problem ${p.problemId} (${job.base.length} x ${job.model.length}): read ${((cRead.user + cRead.system) / 1000).toFixed(0)} ms CPU ` +
        `(${tRead.toFixed(0)} wall); list ${list.cpu.toFixed(0)} ms CPU (${list.wall.toFixed(0)} wall); ` +
        `whole job ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (${wall.toFixed(0)} wall); ` +
        `similarity median ${res.summary.modelSimilarity.median?.toFixed(4)}`,
    );
  }
  index.close();
}

void main();
