/**
 * The diagnostics that depend on the whole index rather than one file, rebuilt after each pass
 * ({@link refreshScoreDiagnostics}): named scores that attach to no sample (and why), score lists shorter
 * than their samples, and problem lists against the problems indexed.
 */
import { problemNamer } from '../grouping/datasets';
import { plural } from '../text/strings';
import { type AttachedScore, KEY_SEP, type NoSampleDetail, type TraceIndex, type UnattachedScores } from './traceIndex';

/** Suffix of the `origin` of the diagnostics about attaching scores and problem lists (recomputed each pass). */
const ATTACH_ORIGIN = `${KEY_SEP}scores`;

/**
 * What a score that attaches to no sample looked for and why it found nothing (trial 5 finding 8, trial
 * 6 finding 7): the keys (dataset, problem id, sample index, model), then the key that found nothing,
 * with what the index holds there:
 * - no sample of the problem (`cause` `problem`): the datasets that do have that problem id, else a few
 *   problem ids of the dataset, else the nearest models and datasets indexed (ranked by a model or dataset
 *   equal to one looked for, either way round, at most 4 named);
 * - samples of other models (`model`): their names;
 * - no sample at that index (`index`): how many samples the model has and their index range.
 * `u` is a `no-sample` group of TraceIndex.resolveScores (its `detail` a NoSampleDetail).
 */
function whyNoSample(db: TraceIndex['db'], u: UnattachedScores): string {
  const d = JSON.parse(u.detail) as NoSampleDetail;
  const { model, dataset } = d;
  const pid = u.first.problemId;
  const m = model === null ? 'any model' : `model ${JSON.stringify(model)}`;
  const keys = `looked for dataset ${JSON.stringify(dataset)}, problem ${JSON.stringify(pid)}, sample index ${u.first.sampleIndex}, ${m}`;
  if (d.cause === 'model') {
    const names = (d.models ?? []).map((x) => JSON.stringify(x)).join(', ');
    return `${keys}: problem ${JSON.stringify(pid)} has samples of ${d.models?.length === 1 ? 'model' : 'models'} ${names}, none of ${m}; name the samples' model for the scores (mapping "model" or fields.model)`;
  }
  if (d.cause === 'index' && d.indices) {
    const { model: found, n, min, max } = d.indices;
    const range = n === 1 ? `sample index ${min}` : `sample indices ${min} to ${max}`;
    const hint =
      u.first.sampleIndex > max
        ? ': the scores give more samples than the problem has, or count them from 1 where the samples count from 0'
        : '';
    return `${keys}: model ${JSON.stringify(found)} has ${plural(n, 'sample')} of problem ${JSON.stringify(pid)} (${range}), none with sample index ${u.first.sampleIndex}${hint}`;
  }
  const elsewhere = db
    .prepare(
      `SELECT DISTINCT p.dataset FROM problems p JOIN stats s ON s.problem_id = p.id WHERE p.problem_id = ? AND s.n > 0 ORDER BY p.dataset LIMIT 4`,
    )
    .pluck()
    .all(pid) as string[];
  const none = `${keys}: no sample of problem ${JSON.stringify(pid)} is indexed in dataset ${JSON.stringify(dataset)}`;
  if (elsewhere.length > 0)
    return `${none}; that problem id is indexed in dataset ${elsewhere.map((x) => JSON.stringify(x)).join(', ')}: give the scores that dataset (mapping "dataset" or fields.dataset)`;
  const ids = db
    .prepare(
      `SELECT p.problem_id FROM problems p JOIN stats s ON s.problem_id = p.id WHERE p.dataset = ? AND s.n > 0 GROUP BY p.id ORDER BY p.id LIMIT 3`,
    )
    .pluck()
    .all(dataset) as string[];
  if (ids.length > 0)
    return `${none}; problem ids indexed in that dataset look like ${ids.map((x) => JSON.stringify(x)).join(', ')}`;
  const rows = db
    .prepare(
      `SELECT m.name AS name, p.dataset AS dataset FROM stats s JOIN models m ON m.id = s.model_id
         JOIN problems p ON p.id = s.problem_id GROUP BY m.name, p.dataset
        ORDER BY (m.name = @m) + (p.dataset = @d) + (m.name = @d) + (p.dataset = @m) DESC, m.name, p.dataset`,
    )
    .all({ m: model ?? '', d: dataset }) as { name: string; dataset: string }[];
  const named = rows.slice(0, 4).map((r) => `model ${JSON.stringify(r.name)} (dataset ${JSON.stringify(r.dataset)})`);
  return rows.length === 0
    ? `${none}; no sample is indexed`
    : `${none}, no sample at all in that dataset; indexed: ${named.join(', ')}${rows.length > 4 ? `, and ${rows.length - 4} more` : ''}`;
}

/**
 * Recomputes the diagnostics about named scores that attach to no sample (TraceIndex.resolveScores:
 * no sample, several models' samples, a second score of one sample by one scorer) and about problem
 * lists (listed problems without samples, indexed problems not listed). They depend on every file, so
 * they are rebuilt after each pass; each is shown on the file that gave the scores or the list.
 */
export function refreshScoreDiagnostics(index: TraceIndex): void {
  const db = index.db;
  db.prepare('DELETE FROM diagnostics WHERE origin LIKE ?').run(`%${ATTACH_ORIGIN}`);
  const ins = db.prepare('INSERT INTO diagnostics (file, line, severity, message, origin) VALUES (?, ?, ?, ?, ?)');
  const resolved = index.resolveScores();
  for (const d of shortScoreLists(index, resolved.attached))
    ins.run(d.file, d.line, 'warning', d.message, `${d.file}${ATTACH_ORIGIN}`);
  for (const u of resolved.unattached) {
    const at = u.first.record === null ? `line ${u.first.line}` : `record ${u.first.record}`;
    const what = `${u.count} ${u.scorer} score${u.count === 1 ? '' : 's'} of this file`;
    const one = u.count === 1;
    const first = `first: ${at}, problem ${JSON.stringify(u.first.problemId)}, sample ${u.first.sampleIndex}`;
    const message =
      u.reason === 'no-sample'
        ? `${what} ${one ? 'attaches' : 'attach'} to no sample: ${whyNoSample(db, u)}; left out of every figure (${first})`
        : u.reason === 'ambiguous'
          ? `${what} ${one ? 'matches' : 'match'} samples of several models (${u.detail}) and ${one ? 'attaches' : 'attach'} to none: name the model in the mapping ("model" or fields.model) (${first})`
          : `${what} ${one ? 'scores a sample' : 'score samples'} that ${u.detail} also scores as ${u.scorer}; the score from ${u.detail} is used (${first})`;
    ins.run(u.file, u.first.line, 'warning', message, `${u.file}${ATTACH_ORIGIN}`);
  }
  for (const c of index.problemInfoCoverage()) {
    const unmatched = c.listed - c.matched;
    if (unmatched === 0 && c.notListed === 0) continue;
    const parts = [`${c.matched} of the ${c.listed} problems listed in this file have samples in the index`];
    if (unmatched > 0)
      parts.push(
        `${unmatched} listed problem${unmatched === 1 ? ' has' : 's have'} none (first at line ${c.unmatchedFirst})`,
      );
    if (c.notListed > 0)
      parts.push(
        `${c.notListed} indexed problem${c.notListed === 1 ? ' of its dataset is' : 's of its datasets are'} not listed here (no level or subject from this list)`,
      );
    ins.run(c.file, 0, 'warning', parts.join('; '), `${c.file}${ATTACH_ORIGIN}`);
  }
}

/**
 * Scores files that score some samples of a (model, problem) but not all: a score list shorter than
 * the samples (`"s": [0.1, 0.1, 0.9]` for 4 samples), a per-sample file missing a sample. One warning
 * per file and scorer, at the first such problem's line: how many samples in how many problems have no
 * score, the first problem and its first sample without one. Those samples are in no best-of-k over
 * that scorer. A (model, problem) the file gives no score for at all is not counted (a file may score a
 * subset of the problems).
 */
function shortScoreLists(
  index: TraceIndex,
  attached: readonly AttachedScore[],
): { file: string; line: number; message: string }[] {
  const groups = new Map<
    string,
    { file: string; scorer: string; modelId: number; problemId: number; line: number; got: Set<number> }
  >();
  for (const a of attached) {
    const k = [a.file, a.scorer, a.modelId, a.problemId].join(KEY_SEP);
    const g = groups.get(k);
    if (g) {
      g.got.add(a.sampleIndex);
      g.line = Math.min(g.line, a.line);
    } else
      groups.set(k, {
        file: a.file,
        scorer: a.scorer,
        modelId: a.modelId,
        problemId: a.problemId,
        line: a.line,
        got: new Set([a.sampleIndex]),
      });
  }
  const indices = index.db
    .prepare('SELECT sample_index FROM samples WHERE model_id = ? AND problem_id = ? ORDER BY sample_index')
    .pluck();
  // with its dataset when the folder's problem ids repeat across datasets (trial 6 finding 6)
  const name = problemNamer(index);
  const byFile = new Map<
    string,
    {
      file: string;
      scorer: string;
      samples: number;
      problems: number;
      first: { line: number; problem: string; sample: number; n: number };
    }
  >();
  for (const g of groups.values()) {
    const all = indices.all(g.modelId, g.problemId) as number[];
    const missing = all.filter((i) => !g.got.has(i));
    if (missing.length === 0) continue;
    const k = `${g.file}${KEY_SEP}${g.scorer}`;
    const e = byFile.get(k);
    const first = {
      line: g.line,
      problem: name(g.problemId),
      sample: missing[0],
      n: all.length,
    };
    if (!e) byFile.set(k, { file: g.file, scorer: g.scorer, samples: missing.length, problems: 1, first });
    else {
      e.samples += missing.length;
      e.problems++;
      if (first.line < e.first.line) e.first = first;
    }
  }
  return [...byFile.values()].map((e) => ({
    file: e.file,
    line: e.first.line,
    message: `${e.samples} sample${e.samples === 1 ? '' : 's'} in ${e.problems} problem${e.problems === 1 ? '' : 's'} ${e.samples === 1 ? 'has' : 'have'} no ${e.scorer} score in this file while other samples of the problem do (a score list shorter than the samples?): those samples are in no best-of-k over ${e.scorer} (first: line ${e.first.line}, problem ${JSON.stringify(e.first.problem)}, sample ${e.first.sample} of its ${e.first.n})`,
  }));
}
