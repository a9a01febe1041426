/**
 * The label picker's rules (Annotate Sample…, Alt+A), apart from VS Code's quick pick so they are
 * testable: which items it lists for the typed text and which labels Enter saves.
 */

/** The label picker's hint: what its keys do (checked by the keyboard e2e test). */
export const LABEL_PICKER_HINT =
  'Enter saves the typed label exactly (a new one unless it is listed) · ↓, Space to check listed labels, Enter saves them';

/** Description of the typed text's own item in the list. */
export const NEW_LABEL_DESCRIPTION = 'new label';

/** One item of the label picker; `typed` marks the typed text's own item. */
export interface LabelItem {
  label: string;
  description?: string;
  alwaysShow?: boolean;
  typed?: true;
}

/** The listed label the text names: equal to it case-insensitively (after trimming), else undefined. */
export function listedLabel(labels: readonly string[], text: string): string | undefined {
  const t = text.trim().toLowerCase();
  return t ? labels.find((l) => l.toLowerCase() === t) : undefined;
}

/**
 * The picker's items for the typed text: `listed` (the same objects, so checked items stay checked),
 * preceded by the typed text as its own first item ("new label", always shown) whenever the trimmed text
 * is not empty and is not exactly a listed label (case-insensitively). Trial 13 finding 2: typing `error`
 * while `grader error` was listed offered no `error` item and Enter saved `grader error`.
 */
export function labelPickerItems(listed: readonly LabelItem[], typed: string): LabelItem[] {
  const t = typed.trim();
  if (
    !t ||
    listedLabel(
      listed.map((i) => i.label),
      t,
    )
  )
    return [...listed];
  return [{ label: t, description: NEW_LABEL_DESCRIPTION, alwaysShow: true, typed: true }, ...listed];
}

/**
 * The labels Enter saves: the checked listed labels (in their order), plus the typed text when it is not
 * empty: exactly as typed (trimmed), or the listed label it equals case-insensitively. A typed text that is
 * only part of a listed label (`error` beside `grader error`) is a new label, never the listed one.
 * The typed item itself, when checked with Space, counts as the typed text. No duplicates.
 */
export function labelsOnAccept(labels: readonly string[], checked: readonly LabelItem[], typed: string): string[] {
  const out: string[] = [];
  const add = (l: string) => {
    if (!out.includes(l)) out.push(l);
  };
  for (const i of checked) add(listedLabel(labels, i.label) ?? i.label.trim());
  const t = typed.trim();
  if (t) add(listedLabel(labels, t) ?? t);
  return out;
}
