/** Dataset wording shared by the host and the webviews (no imports: the webview bundles it). */
/**
 * The series' datasets when it has several (trial 5 finding 3: figures pooled math500 and aime24
 * without saying so): ` in 2 datasets (aime24 2, math500 4), pooled in every figure`; empty for one.
 */
export function datasetsNote(problems: readonly { dataset: string }[]): string {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.dataset, (counts.get(p.dataset) ?? 0) + 1);
  if (counts.size < 2) return '';
  const list = [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([d, n]) => `${d || '(no dataset)'} ${n}`);
  return ` in ${counts.size} datasets (${list.join(', ')}), pooled in every figure`;
}
