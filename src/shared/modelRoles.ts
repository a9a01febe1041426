/**
 * How the views name a model's role and what they offer for a sample, shared by the webview (which draws
 * them) and the unit tests. A folder of one model has no base to compare with: the model is the "only
 * model" (as the tree and the status bar say), and no view offers a comparison that needs two models
 * (trial 13 findings 3 and 4).
 */
import type { ModelInfo } from './protocol';

/** The sentence the views show once where a comparison would be (the tree's wording). */
export const ONE_MODEL_NOTE = 'one model in this folder: nothing to compare it with';

/** The role tag beside a model's name: `only model`, `base`, `in focus`, or null for none. */
export function modelRoleTag(m: Pick<ModelInfo, 'isBase' | 'isFocus' | 'onlyModel'>): string | null {
  return m.onlyModel ? 'only model' : m.isBase ? 'base' : m.isFocus ? 'in focus' : null;
}

/** A tab of the problem view's sample detail. */
export type SampleTab = 'novel' | 'diff' | 'rendered';

/**
 * The tabs of the problem view's sample detail and the one it opens on. With one model (`onlyModel`):
 * Rendered alone and the note {@link ONE_MODEL_NOTE} (no Novel spans / Diff vs nearest base, which need a
 * base sample). Otherwise all three; it opens on Novel spans unless the novelty could not be computed
 * (`noveltyError`, e.g. the sample is the base's), then on Rendered so the text shows first (trial 13
 * finding 3: a red message and no text).
 */
export function sampleDetailTabs(
  onlyModel: boolean,
  noveltyError: boolean,
): { tabs: SampleTab[]; active: SampleTab; note: string | null } {
  if (onlyModel) return { tabs: ['rendered'], active: 'rendered', note: ONE_MODEL_NOTE };
  return { tabs: ['novel', 'diff', 'rendered'], active: noveltyError ? 'rendered' : 'novel', note: null };
}

/**
 * The overview header's models part: `3 models · base model: X` (`none` without a base), or with one
 * model `1 model · only model: X` (trial 13 finding 4: it said "base model: X").
 */
export function overviewModelsLine(
  models: readonly Pick<ModelInfo, 'label' | 'onlyModel'>[],
  base: Pick<ModelInfo, 'label'> | undefined,
): string {
  const only = models.length === 1 && models[0].onlyModel ? models[0] : undefined;
  const count = `${models.length} model${models.length === 1 ? '' : 's'}`;
  return only ? `${count} · only model: ${only.label}` : `${count} · base model: ${base?.label ?? 'none'}`;
}
