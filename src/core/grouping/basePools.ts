/**
 * Replicates of a base model pooled into it: the pairing the CLI report and the extension's overview (and problem
 * panel) both take, so that the two give the base the same samples for the same folder (trial 12 finding 10: the
 * report pooled `Qwen2.5-7B/replicate_1/` and `replicate_2/`, the overview compared with the first alone). Pure: no
 * index writes, no `vscode`.
 */
import { comparisonPairs, type ModelIdentity } from '../index/labels';
import type { StatRow } from '../index/traceIndex';
import { areSeedSiblings } from './seeds';

type Pairable = ModelIdentity & { id: number; run: string };

/**
 * The (base, model) pairs of {@link comparisonPairs} and, per base of a pair (by its id), its replicates: the
 * models that are seed siblings of it (`seeds.ts` `areSeedSiblings`: `replicate_1/` and `replicate_2/`, `rep1/` and
 * `rep2/`, `run-1/` and `run-2/` below one model folder) and in no pair of their own. Their samples are summed
 * into the base's per problem ({@link pooledBaseRows}) in every comparison with it; a base without replicates has
 * no entry. `models` as for comparisonPairs (every model of the index, graded or not).
 */
export function comparisonPairing<M extends Pairable>(
  models: readonly M[],
  base: M | undefined,
  baseIsChoice: boolean,
): { pairs: [M, M][]; pools: Map<number, M[]> } {
  const pairs = comparisonPairs(models, base, baseIsChoice);
  return { pairs, pools: basePools(models, pairs) };
}

/**
 * The replicates of each base of `pairs` (see {@link comparisonPairing}): by base id, in the order of `models`.
 * A model in a pair (as base or model) is nobody's replicate.
 */
export function basePools<M extends Pairable>(
  models: readonly M[],
  pairs: readonly (readonly [M, M])[],
): Map<number, M[]> {
  const inPairs = new Set(pairs.flatMap(([x, y]) => [x.id, y.id]));
  const pools = new Map<number, M[]>();
  for (const b of new Set(pairs.map(([x]) => x))) {
    const reps = models.filter((o) => o.id !== b.id && !inPairs.has(o.id) && areSeedSiblings(o, b));
    if (reps.length > 0) pools.set(b.id, reps);
  }
  return pools;
}

/**
 * The base's per-problem rows with those of its replicates (`pools`, {@link basePools}) summed in: n, c, graded
 * and scored added per problem, the row's `modelId` the base's. `rowsOf(id)` gives a model's rows (any subset of
 * its problems: all, graded only, one problem). A base without replicates: its own rows unchanged.
 */
export function pooledBaseRows(
  baseId: number,
  pools: ReadonlyMap<number, readonly { id: number }[]>,
  rowsOf: (modelId: number) => readonly StatRow[],
): StatRow[] {
  const reps = pools.get(baseId);
  if (!reps) return [...rowsOf(baseId)];
  const sum = new Map<number, StatRow>();
  for (const r of [baseId, ...reps.map((x) => x.id)].flatMap((id) => rowsOf(id))) {
    const t = sum.get(r.problemId);
    sum.set(
      r.problemId,
      t
        ? { ...t, n: t.n + r.n, c: t.c + r.c, graded: t.graded + r.graded, scored: t.scored + r.scored }
        : { ...r, modelId: baseId },
    );
  }
  return [...sum.values()];
}

/** The ids of every model pooled into a base ({@link basePools}). */
export function pooledReplicateIds(pools: ReadonlyMap<number, readonly { id: number }[]>): Set<number> {
  return new Set([...pools.values()].flat().map((x) => x.id));
}

/**
 * The warning naming a base pool: `name` the base's label, `members` the names of the base and its replicates
 * (display ids in the CLI report, labels in the extension).
 */
export function basePoolMessage(name: string, members: readonly string[]): string {
  return `${name}: the base is the pool of its ${members.length} replicates (${members.join(', ')}): seed siblings of one base model, their samples summed per problem in every comparison with it; the models table lists each replicate`;
}

/**
 * `notCompared` (report.ts `notComparedModels`) without the replicates pooled into a base that is in a comparison
 * (`made`: the pairs that became comparisons): they are in its comparisons, not NOT COMPARED. A replicate of a base
 * that is in no comparison stays, with its reason.
 */
export function withoutPooledReplicates<X extends { model: { id: number }; base: { id: number } | undefined }>(
  notCompared: readonly X[],
  pools: ReadonlyMap<number, readonly { id: number }[]>,
  made: readonly (readonly [{ id: number }, { id: number }])[],
): X[] {
  const pooled = pooledReplicateIds(pools);
  return notCompared.filter(
    (x) => !(pooled.has(x.model.id) && x.base !== undefined && made.some(([b]) => b.id === x.base?.id)),
  );
}
