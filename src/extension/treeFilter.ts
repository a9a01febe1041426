/**
 * The filter of the Problems tree as the user chose it: its own module (below problemTree.ts, session.ts and
 * restore.ts) because restore.ts keeps it across reloads and problemTree.ts imports the session that imports
 * restore.ts.
 */

/** The filter of the problem list, as the user chose it (model ids are resolved at query time). */
export type TreeFilter =
  | { kind: 'all' }
  | { kind: 'failing' }
  | { kind: 'lost' }
  | { kind: 'gained' }
  | { kind: 'lowAccuracy'; threshold?: number }
  /** The review queue of likely lucky guesses: correct samples on problems the model solves at most `threshold` of the time. */
  | { kind: 'luckyGuess'; threshold?: number }
  | { kind: 'level'; level: string }
  | { kind: 'label'; label: string }
  | { kind: 'search'; query: string }
  | { kind: 'graderDisagreements' }
  | { kind: 'problems'; problemIds: number[]; title?: string }
  /**
   * Problems of a training series (checkpoints of one run): `lost` = lost during training (solved at an
   * earlier step, not at the last one), `late` = solved only at late steps. `series` names the series;
   * absent: the series of the model in focus, else the first one.
   */
  | { kind: 'training'; which: 'lost' | 'late'; series?: string; title?: string };

/**
 * What a folder session's status event changed: `afterPass`, the after-pass work's step (status bar and the view's
 * message only); `passEnded`, the grader audit's markers and its filter as well; `search`, the full-text index's
 * progress (only what a search filter finds).
 */
export type StatusChange = 'afterPass' | 'passEnded' | 'search';

/**
 * Whether a status change must refresh the Problems tree under a filter of this kind: at a pass's end always (the
 * grader audit's markers), for the full-text index's progress only under a search filter, never for an after-pass
 * step. A refresh re-creates every row, and an inline action clicked meanwhile reaches its command without its row
 * (VS Code passes no argument), so refreshes that change nothing are avoided.
 */
export function treeRefreshNeeded(change: StatusChange, filter: TreeFilter['kind']): boolean {
  return change === 'passEnded' || (change === 'search' && filter === 'search');
}
