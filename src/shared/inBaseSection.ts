/**
 * What the problem view's "In the base distribution?" section shows for one problem (shared by the webview,
 * which draws it, and the unit tests, which check it on the data the host sends): with a model besides the
 * base, a dropdown of those models and the chosen one's samples against the base's; with the base alone (a
 * folder of one model, or a problem only the base has samples for), the base's samples listed without the
 * comparison, and a sentence saying a second model is needed (trial 10 finding 3: an empty dropdown and no
 * sample list, so ↑/↓/j/k had nothing to move through); without a base, nothing to list.
 */
import { ONE_MODEL_NOTE } from './modelRoles';
import type { ProblemData } from './protocol';

export type InBaseSection =
  | {
      kind: 'compare';
      /** The models offered in the dropdown (every model with samples for this problem but the base). */
      models: number[];
      /** The one whose samples are listed: the current choice if offered, else the model in focus, else the first. */
      modelId: number;
    }
  | {
      kind: 'baseOnly';
      /** The base model: its samples are listed (no similarity, no in-base column). */
      modelId: number;
      /** The section's sentence. */
      text: string;
    }
  | { kind: 'noBase'; modelId: undefined };

/**
 * The section for `d` ({@link InBaseSection}); `current` is the model chosen before (kept when still offered).
 */
export function inBaseSection(
  d: Pick<ProblemData, 'models' | 'stats' | 'baseModelId' | 'focusModelId'>,
  current?: number,
): InBaseSection {
  const base = d.models.find((m) => m.id === d.baseModelId);
  if (!base) return { kind: 'noBase', modelId: undefined };
  const others = d.models.filter((m) => m.id !== base.id);
  if (others.length === 0) {
    const n = d.stats.find((s) => s.modelId === base.id)?.samples ?? 0;
    return {
      kind: 'baseOnly',
      modelId: base.id,
      // the folder's only model is not called the base (trial 13 finding 4)
      text: base.onlyModel
        ? `${base.label} is the only model: ${ONE_MODEL_NOTE}. ${n === 1 ? 'Its 1 sample is' : `Its ${n} samples are`} listed below.`
        : `Only the base model ${base.label} has samples for this problem: comparing samples with the base needs a second model (another model's results in the folder). ${n === 1 ? 'Its 1 sample is' : `Its ${n} samples are`} listed below.`,
    };
  }
  const modelId =
    current !== undefined && others.some((m) => m.id === current)
      ? current
      : d.focusModelId !== null && others.some((m) => m.id === d.focusModelId)
        ? d.focusModelId
        : others[0].id;
  return { kind: 'compare', models: others.map((m) => m.id), modelId };
}
