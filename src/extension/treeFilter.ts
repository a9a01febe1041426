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
