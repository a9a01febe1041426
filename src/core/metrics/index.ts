/**
 * Metrics as pure functions over plain arrays (no database, no `vscode`): pass@k, bootstrap
 * intervals, Beta intervals, coverage / crossover / categories, best-of-k, maj@k, audit.
 * Definitions and sources: /work/shared/notes/metrics.md and each function's docstring.
 */
export * from './passAtK';
export * from './bootstrap';
export * from './beta';
export * from './coverage';
export * from './bestOfK';
export * from './majority';
export * from './audit';
export * from './rewardModels';
export * from './gains';
