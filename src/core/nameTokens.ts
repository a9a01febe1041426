/**
 * Name tokens shared by the model-naming rules of the readers (readers/util.ts `pathModelName`), seeds (seeds.ts)
 * and checkpoint series (series.ts): dates and times, and Hydra multirun job folders. Pure; no imports.
 */

/**
 * A date or time in a name, with the separator before it (global): `_2025-01-01`, `-2025-01-15T10-20-30.123456`,
 * `10-20-30` (Hydra's `outputs/2025-01-15/10-20-30`), `20250115`, `_20250116_110000`, `2025_01_15-10_20_30`, and
 * TensorBoard's `Jan15_10-20-30` (trial 8 finding 8). Such a stamp names a run's time, not a model.
 */
export const DATE_TIME_TOKEN =
  /(?:^|[-_.])(?:\d{4}-\d{2}-\d{2}(?:[T_]\d{2}[-:]\d{2}(?:[-:]\d{2}(?:\.\d+)?)?)?|\d{2}[-:]\d{2}[-:]\d{2}(?:\.\d+)?|20\d{6}(?:[-_T]\d{6})?|\d{4}_\d{2}_\d{2}(?:[-_T]\d{2}_\d{2}_\d{2})?|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\d{1,2}_\d{2}-\d{2}-\d{2})(?=[-_.]|$)/g;

/** Whether a whole folder name is a date or time ({@link DATE_TIME_TOKEN}: `2025-01-15`, `10-20-30`). */
export function isDateTimeName(name: string): boolean {
  return name !== '' && name.replace(DATE_TIME_TOKEN, '') === '';
}

/**
 * Whether folder `i` of a path's folders is a Hydra multirun job folder: a number right below a date or time folder
 * (`multirun/2025-01-15/10-20-30/0/`; trial 8 finding 6). Jobs of one sweep are runs of one model (seeds or
 * settings), like seed folders: no model of their own.
 */
export function isJobFolder(dirs: readonly string[], i: number): boolean {
  return i > 0 && /^\d+$/.test(dirs[i]) && isDateTimeName(dirs[i - 1]);
}
