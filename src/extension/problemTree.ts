import * as vscode from 'vscode';
import { SourceChangedError } from '../core/index/sampleText';
import { type Diagnostic, diagnosticPlace } from '../core/model';
import { passAtK } from '../core/metrics';
import type { ModelRow, ProblemFilter, ProblemRow, SampleRow, StatRow } from '../core/index/traceIndex';
import { problemIdsRepeat, problemLabel } from '../core/grouping/datasets';
import { preview } from '../core/text/strings';
import { answerCheckDisagreements, answerCheckSummary } from '../core/analyses/graderAudit';
import { luckyGuessAdvice, luckyGuessHint, percent } from '../core/text/thresholds';
import { namesShowRL } from '../core/index/labels';
import type { TreeOrder } from './sampleOrder';
import type { TreeFilter } from './treeFilter';
import { readSettings, type FolderSession } from './session';
import { trainingFilterTitle, trainingProblemIds, trainingSeries } from './panelData';
import {
  type SplitPassAt1,
  type SplitRow,
  type TreeSplitKind,
  splitPassAt1,
  splitRowDescription,
  splitRows,
} from './splitGrouping';

/** How the tree is grouped. */
export type TreeMode = 'problem' | 'model' | 'split';

export type { TreeFilter } from './treeFilter';

/** Tree nodes. Every node carries what its children query needs; ids are stable across refreshes. */
export type Node =
  /** `split`: the split row it is under (the tree grouped by split), for its id. */
  | { type: 'problem'; problem: ProblemRow; modelId?: number; split?: string }
  /** A split of the problems (the tree grouped by split), with the pass@1 of the model in focus and the base over it. */
  | {
      type: 'split';
      kind: TreeSplitKind;
      row: SplitRow;
      method: string;
      focus?: { name: string; pass: SplitPassAt1 };
      base?: { name: string; pass: SplitPassAt1 };
      /** Under a filter, how many of its problems the filter keeps; undefined without a filter. */
      shown?: number;
    }
  | { type: 'model'; model: ModelRow; problemId?: number }
  /** Under a problem: the models other than the base and the model in focus, behind one node. */
  | { type: 'moreModels'; problemId: number; problemKey: string; models: ModelRow[] }
  | { type: 'verdict'; problemId: number; modelId: number; verdict: boolean | null; count: number }
  | { type: 'sample'; sample: SampleRow; problemLabel: string; modelLabel: string }
  | { type: 'more'; parentId: string; offset: number; load: () => void }
  | {
      type: 'message';
      text: string;
      command?: vscode.Command;
      /** Shown dimmed after the text; the tooltip is the whole of it. */
      description?: string;
      tooltip?: string;
      /** A codicon id (default `info`). */
      icon?: string;
    };

/** The row of a split (the tree grouped by split): its figures first, its denominators in the description and tooltip. */
function splitItem(node: Extract<Node, { type: 'split' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(node.row.label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = nodeId(node);
  item.contextValue = 'split';
  item.iconPath = new vscode.ThemeIcon(node.row.unassigned ? 'circle-slash' : 'layers');
  item.description = splitRowDescription(node.row, node.focus, node.base, node.shown);
  const who = [node.base && `base ${node.base.name}`, node.focus && `model ${node.focus.name}`].filter(Boolean);
  const filtered = node.shown === undefined ? '' : '; over the whole split, not only the problems the filter keeps';
  item.tooltip = `${node.row.label}\n${item.description}${who.length ? ` (${who.join(', ')})` : ''}\nSplit by ${node.method}. pass@1: the mean over the split's graded problems of c/n${filtered}.`;
  return item;
}

/** The diagnostic message of a file no reader recognises (src/core/readers/index.ts `unrecognized`). */
const NOT_A_RESULTS_FILE = 'not a results file: ';

/**
 * The one row of a folder with no sample in the index, saying what is true: indexing runs; results files were read
 * but every record failed; files were looked at and no reader recognised any of them ("No reader recognised 25
 * files: see why", the first file's reason as its description, a click showing the Problems panel where each file
 * says why); or nothing was indexed yet (a click indexes). `diagnostics`: the index's, looked at only in that case.
 */
export function emptyFolderRow(indexing: boolean, resultFiles: number, diagnostics: readonly Diagnostic[]): Node {
  if (indexing) return { type: 'message', text: 'Indexing…' };
  const problems = { command: 'workbench.actions.view.problems', title: 'Show Problems' };
  if (resultFiles > 0)
    return {
      type: 'message',
      text: `No samples: ${resultFiles} results file${resultFiles === 1 ? ' was' : 's were'} read but every record failed (see the Problems panel)`,
      command: problems,
    };
  const unread = diagnostics.filter((d) => d.message.startsWith(NOT_A_RESULTS_FILE));
  const files = new Set(unread.map((d) => d.file)).size;
  if (files > 0) {
    const why = `${unread[0].file}: ${unread[0].message.slice(NOT_A_RESULTS_FILE.length)}`;
    return {
      type: 'message',
      text: `No reader recognised ${files} file${files === 1 ? '' : 's'}: see why`,
      description: why,
      tooltip: `${why}\nEvery file's reason is in the Problems panel; docs/mapping.md says how to describe a format (trace-inspector.mapping.json).`,
      icon: 'warning',
      command: problems,
    };
  }
  return {
    type: 'message',
    text: 'No samples indexed yet. Index this folder',
    command: { command: 'traceInspector.index', title: 'Index Folder' },
  };
}

/**
 * The tree item id of a node that can be a root row (problem, model, "Load more"), as getTreeItem sets
 * it; undefined for a message row (no id: VS Code keys it by its label).
 */
export function nodeId(node: Node): string | undefined {
  switch (node.type) {
    case 'problem':
      if (node.split !== undefined) return `x:${node.split}/p:${node.problem.key}`;
      return node.modelId !== undefined ? `m:${node.modelId}/p:${node.problem.key}` : `p:${node.problem.key}`;
    case 'split':
      return `x:${node.kind}:${node.row.key}`;
    case 'model':
      return node.problemId !== undefined ? `p:${node.problemId}/m:${node.model.key}` : `m:${node.model.key}`;
    case 'more':
      return `${node.parentId}:more:${node.offset}`;
    default:
      return undefined;
  }
}

/**
 * Why the base-vs-model filters (Lost by RL, Gained by RL) have nothing to compare, or undefined when
 * they do: one model in the folder (`one model in this folder (math_cot_100): nothing to compare it
 * with`), no base or no model in focus, or the model in focus is the base (trial 10 finding 6: a folder
 * with one model offered "Gained by RL: math_cot_100 solves, base math_cot_100 never does").
 * `modelCount` counts the folder's models; names are the short labels shown.
 */
export function noComparisonReason(
  modelCount: number,
  base: { id: number; name: string } | undefined,
  focus: { id: number; name: string } | undefined,
): string | undefined {
  if (modelCount <= 1) {
    const only = focus ?? base;
    return `one model in this folder${only ? ` (${only.name})` : ''}: nothing to compare it with`;
  }
  if (!base || !focus) return 'no base model and model in focus to compare (Compare Models…)';
  if (base.id === focus.id)
    return `the model in focus is the base model (${base.name}): choose another with Compare Models…`;
  return undefined;
}

/**
 * The rows of a tree no problem matches: `No problems match this filter` (click: Clear Filter; the filter in its
 * tooltip), and for a lucky-guess queue that can never
 * fill (`maxGraded` graded samples per problem at most, above `threshold`: core `luckyGuessHint`) a second row that
 * says what to do in its first words (`Raise luckyGuessThreshold to 1/5`, why as its description, the whole hint on
 * hover) and opens the setting (trial 13 finding 11: the advice was only in the hover of a row cut at
 * "No problems match: Lucky guesses? …"). `maxGraded` 0 for other filters.
 */
export function noMatchRows(filterText: string, maxGraded: number, threshold: number): Node[] {
  const hint = luckyGuessHint(maxGraded, threshold);
  const advice = luckyGuessAdvice(maxGraded, threshold);
  // the filter is already said above the tree: the row says what to do (trial 14 finding 11: it repeated the
  // filter's text and was cut at the side bar's width)
  const first: Node = {
    type: 'message',
    text: 'No problems match this filter',
    description: 'click to show all',
    tooltip: `No problems match: ${filterText}${hint ? ` (${hint})` : ''}. Click to clear the filter.`,
    command: { command: 'traceInspector.clearFilter', title: 'Clear Filter' },
  };
  if (!advice || !hint) return [first];
  return [
    first,
    {
      type: 'message',
      text: advice.label,
      description: advice.description,
      tooltip: `${hint[0].toUpperCase()}${hint.slice(1)}.`,
      icon: 'settings-gear',
      command: {
        command: 'workbench.action.openSettings',
        title: 'Open the setting',
        arguments: ['traceInspector.luckyGuessThreshold'],
      },
    },
  ];
}

/**
 * The pair compared, short, for the line above the tree and the status bar: `ppo@main vs sft · 2048_batched` (a run
 * both names end with is said once: `ppo@main · 2048_batched` and `sft · 2048_batched`), with `(guessed base)` after
 * the base when the overview warns that it is a guess (`propose1_value3_greedy5 vs cot_sample_100 (guessed base)`:
 * trial 13 finding 9).
 */
export function pairLine(focus: string, base: string, guessed = false): string {
  const run = / · [^·]+$/.exec(focus)?.[0];
  const pair =
    run && base.endsWith(run)
      ? `${focus.slice(0, -run.length)} vs ${base.slice(0, -run.length)}${run}`
      : `${focus} vs ${base}`;
  return guessed ? `${pair} (guessed base)` : pair;
}

/**
 * The name of the base-vs-model filters: `Lost by RL` / `Gained by RL` when the model in focus's names show RL
 * training (core `namesShowRL`) or there is no model in focus, else `Lost vs base` / `Gained vs base` (trial 13
 * finding 9: tot-game24 compares prompting methods of GPT-4, no RL).
 */
export function pairFilterName(kind: 'lost' | 'gained', focus?: Pick<ModelRow, 'run' | 'name' | 'revision'>): string {
  const rl = !focus || namesShowRL(focus);
  return `${kind === 'lost' ? 'Lost' : 'Gained'} ${rl ? 'by RL' : 'vs base'}`;
}

/**
 * Describes a filter for the view description, the quick pick, the step messages and the preview's position line.
 * `name` names the models: the session's `shortLabel`, the one name every view gives a model (trial 13 finding 8:
 * a default of the full label made one status message say both names): without models (`describeFilter(f)`) the
 * filter says `model` and `base`.
 */
export function describeFilter(f: TreeFilter): string;
export function describeFilter(
  f: TreeFilter,
  focus: ModelRow | undefined,
  base: ModelRow | undefined,
  name: (m: ModelRow) => string,
): string;
export function describeFilter(
  f: TreeFilter,
  focus?: ModelRow,
  base?: ModelRow,
  name: (m: ModelRow) => string = () => 'model',
): string {
  const m = focus ? name(focus) : 'model';
  switch (f.kind) {
    case 'all':
      return 'All problems';
    case 'failing':
      return `Failing: ${m} never solves`;
    case 'lost':
      return `${pairFilterName('lost', focus)}: ${base ? name(base) : 'base'} solves, ${m} never`;
    case 'gained':
      return `${pairFilterName('gained', focus)}: ${m} solves, ${base ? name(base) : 'base'} never`;
    case 'lowAccuracy':
      return `Low accuracy: ${m} below ${percent(f.threshold ?? 0.25)}`;
    case 'luckyGuess':
      return `Lucky guesses? ${m} correct, solving at most ${percent(f.threshold ?? 0.125)}`;
    case 'level':
      return `Level ${f.level}`;
    case 'label':
      return `Label: ${f.label}`;
    case 'search':
      // the index's matches: every word anywhere in a sample, not the query as typed (the CLI's `search --as-typed`)
      return `Search: every word of "${f.query}", anywhere in a sample`;
    case 'graderDisagreements':
      return 'Grader disagreements: the same answer graded correct and incorrect';
    case 'problems':
      return f.title ?? `${f.problemIds.length} selected problems`;
    case 'training':
      return (
        f.title ??
        `${f.which === 'lost' ? 'Lost during training' : 'Solved only at late steps'}${f.series ? ` (${f.series})` : ''}`
      );
  }
}

/**
 * A filter in a few words, for the line above the tree (the models it is about are named after it); `focus` words
 * the base-vs-model filters ({@link pairFilterName}).
 */
export function shortFilter(f: TreeFilter, focus?: ModelRow): string {
  switch (f.kind) {
    case 'failing':
      return 'Failing';
    case 'lost':
    case 'gained':
      return pairFilterName(f.kind, focus);
    case 'lowAccuracy':
      return f.threshold !== undefined ? `Low accuracy (< ${Math.round(100 * f.threshold)}%)` : 'Low accuracy';
    case 'luckyGuess':
      return 'Lucky guesses?';
    default:
      return describeFilter(f);
  }
}

/**
 * The line above the tree for a filter and its count of problems: `Failing: 3 problems`; a filter whose
 * name ends with `?` takes no colon (`Lucky guesses? 2 problems`: trial 13 finding 11, was "?:"). `focus` (the model
 * in focus) words the base-vs-model filters (`Lost vs base: 2 problems` without RL in its names).
 */
export function filterCountLine(f: TreeFilter, n: number, focus?: ModelRow): string {
  const name = shortFilter(f, focus);
  return `${name}${name.endsWith('?') ? '' : ':'} ${n} problem${n === 1 ? '' : 's'}`;
}

const passIcon = new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
const failIcon = new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
const partialIcon = new vscode.ThemeIcon('circle-large-outline', new vscode.ThemeColor('testing.iconQueued'));
const ungradedIcon = new vscode.ThemeIcon('question');
const noSamplesIcon = new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
/** No record at all of the model in focus for the problem (another model has one): not "ungraded" (trial 10 finding 7). */
const noRecordIcon = new vscode.ThemeIcon('dash', new vscode.ThemeColor('disabledForeground'));

/**
 * The state of a model on a problem, as the tree shows it: `none` (no record), `noSamples` (a record
 * without samples), `ungraded` (samples, none graded), else by verdicts. The first two and `ungraded`
 * are left out of every figure (counted in `missing`), so they are never shown as failing.
 */
export type ProblemState = 'none' | 'noSamples' | 'ungraded' | 'failing' | 'partial' | 'solved';

export function problemState(s: Pick<StatRow, 'n' | 'c' | 'graded'> | undefined): ProblemState {
  if (!s) return 'none';
  if (s.n === 0) return 'noSamples';
  if (s.graded === 0) return 'ungraded';
  return s.c === 0 ? 'failing' : s.c === s.graded ? 'solved' : 'partial';
}

/**
 * The icon of a problem state: ✓ solved, ✗ failing, ○ partly solved, ? ungraded (samples without a
 * verdict), a slashed circle for a record without samples, a dash for no record of the model at all.
 */
export function stateIcon(state: ProblemState): vscode.ThemeIcon {
  switch (state) {
    case 'noSamples':
      return noSamplesIcon;
    case 'none':
      return noRecordIcon;
    case 'ungraded':
      return ungradedIcon;
    case 'failing':
      return failIcon;
    case 'solved':
      return passIcon;
    case 'partial':
      return partialIcon;
  }
}

/** Largest configured k that `n` reaches (pass@k for n < k is undefined and never shown). */
function treeK(kValues: number[], n: number): number | undefined {
  return [...kValues].sort((a, b) => b - a).find((k) => k <= n);
}

/**
 * A model's counts on a problem, in parts: `[c/g, u ungraded?, pass@k x?]` over graded samples (pass@k
 * at the largest of `kValues` that g reaches, k > 1); `['no samples']` / `['N ungraded']` for the
 * states left out of the figures; `['—']` without a record.
 */
export function countParts(s: Pick<StatRow, 'n' | 'c' | 'graded'> | undefined, kValues: number[]): string[] {
  const state = problemState(s);
  if (!s || state === 'none') return ['—'];
  if (state === 'noSamples') return ['no samples'];
  // "0/n" would read as n failures
  if (state === 'ungraded') return [`${s.n} ungraded`];
  const k = treeK(kValues, s.graded);
  const p = k && k > 1 ? passAtK(s.graded, s.c, k) : null;
  const ungraded = s.n - s.graded;
  return [
    `${s.c}/${s.graded}`,
    ...(ungraded > 0 ? [`${ungraded} ungraded`] : []),
    ...(p !== null && k ? [`pass@${k} ${p.toFixed(2)}`] : []),
  ];
}

/**
 * A model's counts on a problem: `c/n · pass@k` over graded samples; `c/g · u ungraded` when some
 * samples have no verdict; `no samples` / `N ungraded` for the states left out of the figures.
 */
export function fmtCounts(s: Pick<StatRow, 'n' | 'c' | 'graded'> | undefined, kValues: number[]): string {
  return countParts(s, kValues).join(' · ');
}

/**
 * The description of a model's row under a problem: its c/n (or state) FIRST, then its role
 * (`base`, `focus`), its checkpoint step, then the rest (`1/100 · focus · pass@64 0.64`). VS Code cuts
 * a row at the side bar's edge from the end, so the figure must come right after the name: `focus ·
 * 1/100` was cut to `focus · 1/1…`, read as solved (trial 10 finding 4).
 */
export function modelRowDescription(
  role: 'base' | 'focus' | 'only model' | '',
  step: number | undefined,
  st: Pick<StatRow, 'n' | 'c' | 'graded'> | undefined,
  kValues: number[],
): string {
  const [first, ...rest] = countParts(st, kValues);
  return [first, role, step !== undefined ? `step ${step}` : '', ...rest].filter(Boolean).join(' · ');
}

/** Longest model row label kept whole under a problem (characters), so the c/n after it fits the default side bar. */
export const MODEL_LABEL_MAX = 24;

/**
 * Model labels shortened to fit a tree row beside their figure: a label longer than `max` characters
 * (code points) is cut at the end with `…`, but never shorter than needed to tell it from every other
 * label of `labels` (one character past the longest prefix it shares with another), so the rows stay
 * distinct (`mini · popularity_dPiJifoWeEQBrxkf.eval` -> `mini · popularity_dPiJif…`). Same order as
 * `labels`; labels of `max` or fewer characters, and labels that would not get shorter, come back whole.
 */
export function fitLabels(labels: readonly string[], max = MODEL_LABEL_MAX): string[] {
  const cps = labels.map((l) => [...l]);
  return cps.map((a, i) => {
    if (a.length <= max) return labels[i];
    let need = max - 1;
    cps.forEach((b, j) => {
      if (j === i || labels[j] === labels[i]) return;
      let p = 0;
      while (p < a.length && p < b.length && a[p] === b[p]) p++;
      need = Math.max(need, p + 1);
    });
    return need + 1 >= a.length ? labels[i] : `${a.slice(0, need).join('')}…`;
  });
}

/**
 * A model's figures on one problem for its tooltip: `1 of 100 samples correct`, with
 * the ungraded samples counted (`3 of 8 graded samples correct, 2 ungraded`); `no samples` / `N samples,
 * none graded` / `no record of this problem` for the states without a figure.
 */
export function problemTooltipFigures(st: Pick<StatRow, 'n' | 'c' | 'graded'> | undefined): string {
  const state = problemState(st);
  if (!st || state === 'none') return 'no record of this problem';
  if (state === 'noSamples') return 'its record has no samples';
  if (state === 'ungraded') return `${st.n} sample${st.n === 1 ? '' : 's'}, none graded`;
  const u = st.n - st.graded;
  return `${st.c} of ${st.graded} ${u > 0 ? 'graded ' : ''}sample${st.graded === 1 ? '' : 's'} correct${u > 0 ? `, ${u} ungraded` : ''}`;
}

/**
 * The tooltip line of a problem the model in focus has no record of: `No samples from <model> (other models
 * have some)`. `unreadable`: the records of the model's files that could not be read (TraceIndex
 * `unreadableRecords`); when there are any, the line says so with their places (the first 3), since this
 * problem's record may be one of them (trial 14 finding 4: a record that failed to parse read as missing output).
 */
export function noRecordText(
  model: string,
  unreadable: readonly Pick<Diagnostic, 'file' | 'line' | 'entry'>[] = [],
): string {
  const line = `No samples from ${model} (other models have some)`;
  if (unreadable.length === 0) return line;
  const places = unreadable.slice(0, 3).map(diagnosticPlace).join(', ');
  const more = unreadable.length > 3 ? `, and ${unreadable.length - 3} more` : '';
  const n = unreadable.length;
  return `${line}; ${n} record${n === 1 ? '' : 's'} of its files could not be read (${places}${more}): this problem's may be among them (see Problems)`;
}

/**
 * The description of a sample's row: its labels FIRST (`labels: arith slip` or `note`; the end of a
 * row is cut at the default side-bar width), then `answer …`, `reward …`, `N chars`. The row's icon is
 * its verdict whether annotated or not (trial 10 finding 10b).
 */
export function sampleDescription(
  x: Pick<SampleRow, 'extractedAnswer' | 'rewardScore' | 'length' | 'labels' | 'hasNote'>,
): string {
  const bits: string[] = [];
  if (x.labels.length) bits.push(`labels: ${x.labels.join(', ')}`);
  else if (x.hasNote) bits.push('note');
  if (x.extractedAnswer !== null) bits.push(`answer ${preview(x.extractedAnswer, 24)}`);
  if (x.rewardScore !== null) bits.push(`reward ${x.rewardScore.toFixed(3)}`);
  bits.push(`${x.length} chars`);
  return bits.join(' · ');
}

/** A model's totals over the whole folder: `100 problems, 10000 samples, 734 correct`. */
function folderTotals(m: Pick<ModelRow, 'problems' | 'samples' | 'correct'>): string {
  return `${m.problems} problems, ${m.samples} samples, ${m.correct} correct`;
}

/** `c/n` of the base model on a problem, or its state when it has no verdict there. */
function shortCounts(s: Pick<StatRow, 'n' | 'c' | 'graded'> | undefined): string {
  const state = problemState(s);
  if (!s || state === 'none') return '—';
  if (state === 'noSamples') return 'no samples';
  if (state === 'ungraded') return `${s.n} ungraded`;
  return `${s.c}/${s.graded}`;
}

/** `step 300 · ` for a checkpoint of a training series, else empty. */
function stepText(s: FolderSession, m: ModelRow): string {
  const st = s.checkpointSteps().get(m.id);
  return st ? `step ${st.step} · ` : '';
}

/**
 * Model rows in the order given, except that the checkpoints of a training series are listed together,
 * by step number (step-300 before step-1000, ckpt-500 before ckpt-2k), where the series' first member
 * stands.
 */
export function groupCheckpoints<M extends { id: number }>(
  ordered: readonly M[],
  steps: ReadonlyMap<number, { step: number; series: string }>,
): M[] {
  const out: M[] = [];
  const done = new Set<string>();
  for (const m of ordered) {
    const st = steps.get(m.id);
    if (!st) {
      out.push(m);
      continue;
    }
    if (done.has(st.series)) continue;
    done.add(st.series);
    out.push(
      ...ordered
        .filter((x) => steps.get(x.id)?.series === st.series)
        .sort((a, b) => (steps.get(a.id)?.step ?? 0) - (steps.get(b.id)?.step ?? 0)),
    );
  }
  return out;
}

/**
 * The Problems tree: problem -> model -> correct/incorrect -> sample, or model -> problem ->
 * correct/incorrect -> sample. No node returns more than a page of children (setting
 * `traceInspector.pageSize`); a "Load more" node fetches the next page.
 */
export class ProblemTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | Node[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /**
   * The root rows last handed to VS Code (the very objects: VS Code keys its row handles by them), or
   * undefined when VS Code has not fetched the root since the last full refresh.
   */
  private lastRoot: Node[] | undefined;
  /**
   * The root rows a whole-tree refresh computed to compare with {@link lastRoot} and found different:
   * the next `getChildren(undefined)` (VS Code fetching the root after that refresh) returns them
   * instead of querying the index again. Cleared by every refresh and by that fetch.
   */
  private comparedRoot: Node[] | undefined;
  mode: TreeMode = 'problem';
  /** What the tree groups by in `split` mode (Group by Split…). */
  splitKind: TreeSplitKind = 'level';
  /** The split rows of `splitKind`, computed once per index state (cleared by every full refresh). */
  private splitCache: { kind: TreeSplitKind; nodes: Node[] } | undefined;
  /** The problem ids the current filter keeps, for the rows under a split (cleared by every full refresh). */
  private filteredIds: Set<number> | undefined;
  filter: TreeFilter = { kind: 'all' };
  /** How many items of each paged parent are shown (parent id -> count). */
  private readonly shown = new Map<string, number>();
  /** Problem count under the current filter (for the view's description and message). */
  lastCount = 0;

  constructor(private readonly getSession: () => FolderSession | undefined) {}

  /** Problems matching the last full-text search, computed once per query and index state (a common word matches most samples). */
  private searchCache: { query: string; problemIds: number[] } | undefined;
  /** Problems of the last training filter, computed once per filter and index state. */
  private trainingCache: { filter: string; problemIds: number[]; title: string } | undefined;
  /** Whether problem ids repeat across datasets (problem rows then name their dataset), once per index state. */
  private datasetCache: boolean | undefined;

  /**
   * Refreshes `node` and its children, or the whole tree. A whole-tree refresh whose root rows are the
   * same rows as those shown (same ids, same order) refreshes those rows instead of the root: the rows
   * get their new labels and children, but keep their handles in VS Code's extension host. A root
   * refresh drops every handle until VS Code has fetched the root again, and a click on a row's inline
   * action (Open Problem View) landing in that window reached the command without its row, which then
   * asked for a problem with a quick pick (the tree refreshes every 2 s while indexing, and when a pass
   * ends). Rows added, removed or reordered still refresh the root.
   */
  refresh(node?: Node): void {
    if (node) {
      this.emitter.fire(node);
      return;
    }
    this.shown.clear();
    this.searchCache = undefined;
    this.trainingCache = undefined;
    this.datasetCache = undefined;
    this.splitCache = undefined;
    this.filteredIds = undefined;
    const same = this.sameRootRows();
    if (same) this.emitter.fire(same);
    else {
      const compared = this.comparedRoot;
      this.fireRoot();
      this.comparedRoot = compared;
    }
  }

  /** A refresh of the root: VS Code fetches it again (and forgets every row until then). */
  private fireRoot(): void {
    this.lastRoot = undefined;
    this.comparedRoot = undefined;
    this.emitter.fire(undefined);
  }

  /**
   * The root rows shown, updated in place to the current data, when the current root rows are the same
   * rows (same tree item ids in the same order, every one with an id); undefined otherwise, and then
   * the rows computed to compare are kept in {@link comparedRoot} for VS Code's next fetch of the root
   * (the root query runs once per refresh, not once to compare and once more to fetch).
   */
  private sameRootRows(): Node[] | undefined {
    this.comparedRoot = undefined;
    const shown = this.lastRoot;
    if (!shown?.length) return undefined;
    const next = this.rootRows();
    const differ = () => {
      this.comparedRoot = next;
      return undefined;
    };
    if (next.length !== shown.length) return differ();
    for (let i = 0; i < next.length; i++) {
      const id = nodeId(next[i]);
      if (id === undefined || id !== nodeId(shown[i])) return differ();
    }
    // same rows: the objects VS Code knows take the new data (a node's fields are all its data)
    for (let i = 0; i < next.length; i++) Object.assign(shown[i], next[i]);
    return [...shown];
  }

  dispose(): void {
    this.emitter.dispose();
  }

  /** Whether the folder's problem ids repeat across datasets (cached until the next full refresh). */
  private datasets(s: FolderSession): boolean {
    if (this.datasetCache === undefined) this.datasetCache = problemIdsRepeat(s.index);
    return this.datasetCache;
  }

  /** Resolves the user-level filter into an index filter with the current base / focus models. */
  resolveFilter(s: FolderSession): ProblemFilter | { kind: 'problems'; problemIds: number[] } {
    const f = this.filter;
    const focus = s.focusModel();
    const base = s.baseModel();
    switch (f.kind) {
      case 'failing':
        return focus ? { kind: 'failing', model: focus.id } : { kind: 'all' };
      case 'lost':
        return focus && base ? { kind: 'lost', model: focus.id, base: base.id } : { kind: 'all' };
      case 'gained':
        return focus && base ? { kind: 'gained', model: focus.id, base: base.id } : { kind: 'all' };
      case 'lowAccuracy':
        return focus
          ? {
              kind: 'lowAccuracy',
              model: focus.id,
              threshold: f.threshold ?? readSettings(s.folder).lowAccuracyThreshold,
            }
          : { kind: 'all' };
      case 'luckyGuess':
        return focus
          ? {
              kind: 'luckyGuess',
              model: focus.id,
              threshold: f.threshold ?? readSettings(s.folder).luckyGuessThreshold,
            }
          : { kind: 'all' };
      case 'training': {
        const key = JSON.stringify(f);
        if (this.trainingCache?.filter !== key) {
          const all = trainingSeries(s.index, {
            baseId: base?.id,
            focusId: focus?.id,
            baseIsChoice: !s.baseModelIsGuess(),
            stepPattern: readSettings(s.folder).stepPattern,
          }).trajectories;
          const t = f.series
            ? all.find((x) => x.name === f.series)
            : (all.find((x) => focus !== undefined && x.ids.models.includes(focus.id)) ?? all[0]);
          this.trainingCache = {
            filter: key,
            problemIds: t ? trainingProblemIds(t, f.which) : [],
            title: t ? trainingFilterTitle(t, f.which) : 'No checkpoint series in this folder',
          };
        }
        return { kind: 'problems', problemIds: this.trainingCache.problemIds };
      }
      case 'search': {
        if (this.searchCache?.query !== f.query) {
          const problemIds = s.index.listProblems({ kind: 'search', query: f.query }, 0, 1_000_000).map((p) => p.id);
          this.searchCache = { query: f.query, problemIds };
        }
        return { kind: 'problems', problemIds: this.searchCache.problemIds };
      }
      case 'graderDisagreements': {
        // problems with a group of equivalent answers graded both ways (the session caches the audit)
        // none while a pass runs: its worker's audit comes when it ends (the tree's message says it runs)
        const ids = [...new Set((s.graderAudit()?.inconsistent ?? []).map((g) => g.problemRowId))];
        return { kind: 'problems', problemIds: ids };
      }
      default:
        return f;
    }
  }

  private problemPage(
    s: FolderSession,
    offset: number,
    limit: number,
    withModel?: number,
  ): { rows: ProblemRow[]; total: number } {
    const f = this.resolveFilter(s);
    if (f.kind === 'problems') {
      const has = withModel === undefined ? undefined : new Set(s.index.modelStats(withModel).map((x) => x.problemId));
      const ids = f.problemIds.filter((id) => !has || has.has(id));
      return {
        rows: ids
          .slice(offset, offset + limit)
          .map((id) => s.index.problem(id))
          .filter((p): p is ProblemRow => !!p),
        total: ids.length,
      };
    }
    return {
      rows: limit > 0 ? s.index.listProblems(f, offset, limit, withModel) : [],
      total: s.index.countProblems(f, withModel),
    };
  }

  private paged<T>(
    parentId: string,
    total: number,
    fetch: (offset: number, limit: number) => T[],
    toNode: (t: T) => Node,
    page: number,
    parent?: Node,
  ): Node[] {
    const count = this.shown.get(parentId) ?? page;
    const items = fetch(0, count).map(toNode);
    if (total > count) {
      items.push({
        type: 'more',
        parentId,
        offset: count,
        load: () => {
          this.shown.set(parentId, count + page);
          if (parent) this.emitter.fire(parent);
          else this.fireRoot();
        },
      });
    }
    return items;
  }

  getChildren(node?: Node): Node[] {
    if (node) return this.rows(node);
    const rows = this.comparedRoot ?? this.rows(undefined);
    this.comparedRoot = undefined;
    this.lastRoot = rows;
    return rows;
  }

  /** The root rows (problems, models in model grouping, or one message row). */
  private rootRows(): Node[] {
    return this.rows(undefined);
  }

  /** The children of `node` (the root rows when undefined); an error becomes a message row. */
  private rows(node: Node | undefined): Node[] {
    const s = this.getSession();
    if (!s) return [];
    const settings = readSettings(s.folder);
    const page = settings.pageSize;
    try {
      if (!node) {
        if (s.index.models().length === 0) {
          const files = Object.values(s.index.resultFilesByFormat()).reduce((a, n) => a + n, 0);
          return [emptyFolderRow(s.isIndexing, files, files > 0 || s.isIndexing ? [] : s.index.diagnostics())];
        }
        if (this.mode === 'model') {
          const steps = s.checkpointSteps();
          return groupCheckpoints(s.models(), steps).map((m) => ({ type: 'model', model: m }) as Node);
        }
        if (this.mode === 'split') return this.splitNodes(s);
        const { total } = this.problemPage(s, 0, 0);
        this.lastCount = total;
        if (total === 0) {
          const f = this.filter;
          const focus = s.focusModel();
          return noMatchRows(
            describeFilter(f, focus, s.baseModel(), (m) => s.shortLabel(m)),
            f.kind === 'luckyGuess' && focus ? s.index.maxGraded(focus.id) : 0,
            f.kind === 'luckyGuess' ? (f.threshold ?? readSettings(s.folder).luckyGuessThreshold) : 0,
          );
        }
        return this.paged(
          'root',
          total,
          (o, l) => this.problemPage(s, o, l).rows,
          (p) => ({ type: 'problem', problem: p }),
          page,
        );
      }
      switch (node.type) {
        case 'problem': {
          if (node.modelId !== undefined) return this.verdictNodes(s, node.problem.id, node.modelId);
          const { shown, more } = this.modelsUnder(s, node.problem.id);
          const rows: Node[] = shown.map((m) => ({ type: 'model', model: m, problemId: node.problem.id }));
          if (more.length)
            rows.push({ type: 'moreModels', problemId: node.problem.id, problemKey: node.problem.key, models: more });
          return rows;
        }
        case 'moreModels':
          return node.models.map((m) => ({ type: 'model', model: m, problemId: node.problemId }));
        case 'split': {
          const kept = this.keptByFilter(s);
          const ids = kept ? node.row.problemIds.filter((id) => kept.has(id)) : node.row.problemIds;
          return this.paged(
            nodeId(node) as string,
            ids.length,
            (o, l) =>
              ids
                .slice(o, o + l)
                .map((id) => s.index.problem(id))
                .filter((p): p is ProblemRow => !!p),
            (p) => ({ type: 'problem', problem: p, split: node.row.key }),
            page,
            node,
          );
        }
        case 'model': {
          if (node.problemId !== undefined) return this.verdictNodes(s, node.problemId, node.model.id);
          const id = `m:${node.model.key}`;
          const { total } = this.problemPage(s, 0, 0, node.model.id);
          return this.paged(
            id,
            total,
            (o, l) => this.problemPage(s, o, l, node.model.id).rows,
            (p) => ({ type: 'problem', problem: p, modelId: node.model.id }),
            page,
            node,
          );
        }
        case 'verdict': {
          const id = `v:${node.problemId}:${node.modelId}:${node.verdict}`;
          const problem = s.index.problem(node.problemId);
          const model = s.index.model(node.modelId);
          return this.paged(
            id,
            node.count,
            (o, l) =>
              s.index.samples(node.problemId, node.modelId, {
                correct: node.verdict,
                offset: o,
                limit: l,
                matching: this.matching,
              }),
            (sample) => ({
              type: 'sample',
              sample,
              problemLabel: problem ? problemLabel(problem, this.datasets(s)) : '',
              modelLabel: model?.label ?? '',
            }),
            page,
            node,
          );
        }
        default:
          return [];
      }
    } catch (e) {
      return [{ type: 'message', text: `Error: ${(e as Error).message}` }];
    }
  }

  /**
   * The tree's order for stepping through samples (sampleOrder.ts): its problem list under the current
   * filter (in model grouping, the model's problems), its verdict groups (the lucky-guess review queue
   * keeps correct samples only), and the search query samples must match.
   */
  order(s: FolderSession): TreeOrder {
    return {
      problems: (modelId) =>
        this.problemPage(s, 0, 1_000_000, this.mode === 'model' ? modelId : undefined).rows.map((p) => p.id),
      verdicts: this.filter.kind === 'luckyGuess' ? [true] : [true, false, null],
      matching: this.matching,
    };
  }

  /** The tree node of a sample (for `TreeView.reveal`). */
  sampleNode(s: FolderSession, sample: SampleRow): Node {
    return {
      type: 'sample',
      sample,
      problemLabel: ((p) => (p ? problemLabel(p, this.datasets(s)) : ''))(s.index.problem(sample.problemId)),
      modelLabel: s.index.model(sample.modelId)?.label ?? '',
    };
  }

  /**
   * Makes the pages that hold `sample` long enough to list it (its verdict group's page and the
   * problem list's), so that revealing it finds it among its parent's children.
   */
  showPagesOf(s: FolderSession, sample: SampleRow): void {
    const page = readSettings(s.folder).pageSize;
    const need = (id: string, position: number) => {
      if (position < 0) return;
      const want = Math.ceil((position + 1) / page) * page;
      if ((this.shown.get(id) ?? page) < want) this.shown.set(id, want);
    };
    const group = s.index.samples(sample.problemId, sample.modelId, {
      correct: sample.correct,
      limit: 1_000_000,
      matching: this.matching,
    });
    need(
      `v:${sample.problemId}:${sample.modelId}:${sample.correct}`,
      group.findIndex((x) => x.id === sample.id),
    );
    const model = s.index.model(sample.modelId);
    const problems = this.order(s).problems(sample.modelId);
    need(this.mode === 'model' && model ? `m:${model.key}` : 'root', problems.indexOf(sample.problemId));
  }

  /** Parents of nodes, for `TreeView.reveal` (the tree's grouping decides them). */
  getParent(node: Node): Node | undefined {
    const s = this.getSession();
    if (!s) return undefined;
    const modelRow = (id: number) => s.models().find((m) => m.id === id);
    switch (node.type) {
      case 'sample': {
        const x = node.sample;
        const c = s.index.sampleCounts(x.problemId, x.modelId, this.matching);
        const count = x.correct === true ? c.correct : x.correct === false ? c.incorrect : c.ungraded;
        return { type: 'verdict', problemId: x.problemId, modelId: x.modelId, verdict: x.correct, count };
      }
      case 'verdict': {
        if (this.mode === 'model') {
          const problem = s.index.problem(node.problemId);
          return problem && { type: 'problem', problem, modelId: node.modelId };
        }
        const model = modelRow(node.modelId);
        return model && { type: 'model', model, problemId: node.problemId };
      }
      case 'model': {
        const problem = node.problemId !== undefined ? s.index.problem(node.problemId) : undefined;
        if (!problem) return undefined;
        const { more } = this.modelsUnder(s, problem.id);
        return more.some((m) => m.id === node.model.id)
          ? { type: 'moreModels', problemId: problem.id, problemKey: problem.key, models: more }
          : { type: 'problem', problem };
      }
      case 'moreModels': {
        const problem = s.index.problem(node.problemId);
        return problem && { type: 'problem', problem };
      }
      case 'problem': {
        const model = node.modelId !== undefined ? modelRow(node.modelId) : undefined;
        return model && { type: 'model', model };
      }
      default:
        return undefined;
    }
  }

  /** The full-text query samples must match while the search filter is on (only matching samples are listed). */
  private get matching(): string | undefined {
    return this.filter.kind === 'search' ? this.filter.query : undefined;
  }

  /**
   * The models listed under a problem: the base model and the model in focus first, then the others
   * in run and name order (the checkpoints of a series together, by step). With more than one other model and `traceInspector.showAllModels` off,
   * the others go behind an "N more models" node (`more`). Under the search filter, only the models
   * with a matching sample.
   */
  modelsUnder(s: FolderSession, problemId: number): { shown: ModelRow[]; more: ModelRow[] } {
    const models = new Map(s.models().map((m) => [m.id, m]));
    const base = s.baseModel();
    const focus = s.focusModel();
    const rank = (m: ModelRow) => (m.id === base?.id ? 0 : m.id === focus?.id ? 1 : 2);
    const matching = this.matching === undefined ? undefined : s.index.matchingModels(problemId, this.matching);
    const all = s.index
      .problemStats(problemId)
      .map((st) => models.get(st.modelId))
      .filter((m): m is ModelRow => !!m && (matching === undefined || matching.has(m.id)))
      .sort((a, b) => rank(a) - rank(b) || a.displayId.localeCompare(b.displayId, 'en', { numeric: true }));
    const first = all.filter((m) => rank(m) < 2);
    // checkpoints of one training series together, in step order
    const rest = groupCheckpoints(
      all.filter((m) => rank(m) === 2),
      s.checkpointSteps(),
    );
    if (readSettings(s.folder).showAllModels || rest.length < 2) return { shown: [...first, ...rest], more: [] };
    return { shown: first, more: rest };
  }

  private fitted: { models: ModelRow[]; labels: Map<number, string> } | undefined;

  /** A model's short label cut to fit a row under a problem ({@link fitLabels}; cached per model list). */
  private fittedLabel(s: FolderSession, m: ModelRow): string {
    const models = s.models();
    if (this.fitted?.models !== models) {
      const labels = fitLabels(models.map((x) => s.shortLabel(x)));
      this.fitted = { models, labels: new Map(models.map((x, i) => [x.id, labels[i]])) };
    }
    return this.fitted.labels.get(m.id) ?? s.shortLabel(m);
  }

  /**
   * The root rows of the tree grouped by split: one per split of {@link splitKind} (and one for the problems in
   * none), each with the pass@1 of the model in focus and the base over its problems; a message row when the
   * folder has no split of that kind. Computed once per index state: O(problems) (clusters: the clustering).
   */
  private splitNodes(s: FolderSession): Node[] {
    const kind = this.splitKind;
    if (this.splitCache?.kind !== kind) {
      const { rows, method } = splitRows(s.index, kind);
      const focus = s.focusModel();
      const base = s.baseModel();
      const passes = (id: number | undefined) =>
        id === undefined ? undefined : splitPassAt1(rows, s.index.modelStats(id));
      const fp = passes(focus?.id);
      const bp = passes(base?.id);
      const nodes: Node[] = rows.map((row, i) => ({
        type: 'split',
        kind,
        row,
        method,
        focus: focus && fp ? { name: s.shortLabel(focus), pass: fp[i] } : undefined,
        base: base && bp ? { name: s.shortLabel(base), pass: bp[i] } : undefined,
      }));
      this.splitCache = { kind, nodes };
    }
    const all = this.splitCache.nodes;
    // under a filter, the splits holding a problem it keeps (the others would read "0 of N problems")
    const kept = this.keptByFilter(s);
    const keptIn = (n: Node) =>
      n.type === 'split' ? n.row.problemIds.filter((id) => kept?.has(id) ?? true).length : 0;
    const nodes = kept
      ? all.flatMap((n) => {
          const shown = keptIn(n);
          return shown > 0 ? [{ ...n, shown } as Node] : [];
        })
      : all;
    this.lastCount = nodes.reduce((a, n) => a + (n.type === 'split' ? (n.shown ?? n.row.problemIds.length) : 0), 0);
    if (kept && all.length > 0 && nodes.length === 0) {
      return [
        {
          type: 'message',
          text: 'No problem of any split matches the filter',
          description: 'Clear Filter to show every split',
          command: { command: 'traceInspector.clearFilter', title: 'Clear Filter' },
        },
      ];
    }
    if (nodes.length === 0 || nodes.every((n) => n.type === 'split' && n.row.unassigned)) {
      const what = { level: 'a difficulty level', subject: 'a subject', dataset: 'a dataset', cluster: 'a text' }[kind];
      return [
        {
          type: 'message',
          text: `No problem has ${what}`,
          description: 'Group by Split… to choose another kind',
          command: { command: 'traceInspector.groupBySplit', title: 'Group by Split…' },
        },
      ];
    }
    return nodes;
  }

  /** The problems the current filter keeps (undefined: every problem), once per index state. */
  private keptByFilter(s: FolderSession): Set<number> | undefined {
    if (this.filter.kind === 'all') return undefined;
    if (!this.filteredIds) {
      const f = this.resolveFilter(s);
      this.filteredIds = new Set(
        f.kind === 'problems' ? f.problemIds : s.index.listProblems(f, 0, 1_000_000).map((p) => p.id),
      );
    }
    return this.filteredIds;
  }

  private verdictNodes(s: FolderSession, problemId: number, modelId: number): Node[] {
    const c = s.index.sampleCounts(problemId, modelId, this.matching);
    const out: Node[] = [];
    if (c.correct) out.push({ type: 'verdict', problemId, modelId, verdict: true, count: c.correct });
    if (c.incorrect) out.push({ type: 'verdict', problemId, modelId, verdict: false, count: c.incorrect });
    if (c.ungraded) out.push({ type: 'verdict', problemId, modelId, verdict: null, count: c.ungraded });
    return out;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const s = this.getSession();
    const kValues = s ? readSettings(s.folder).kValues : [1, 8];
    switch (node.type) {
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.command = node.command;
        item.iconPath = new vscode.ThemeIcon(node.icon ?? 'info');
        if (node.description) item.description = node.description;
        if (node.tooltip) item.tooltip = node.tooltip;
        return item;
      }
      case 'split':
        return splitItem(node);
      case 'more': {
        const item = new vscode.TreeItem('Load more…');
        item.id = nodeId(node);
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: 'traceInspector.loadMore', title: 'Load more', arguments: [node] };
        item.contextValue = 'loadMore';
        return item;
      }
      case 'problem': {
        const p = node.problem;
        // ids repeating across datasets: the row names its dataset (aime24 #0 and math500 #0 are two rows `0` otherwise)
        const item = new vscode.TreeItem(
          problemLabel(p, s ? this.datasets(s) : false),
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = nodeId(node);
        item.contextValue = 'problem';
        if (s) {
          const stats = s.index.problemStats(p.id);
          const pending = node.modelId === undefined && s.focusPending();
          const focus = node.modelId !== undefined ? s.index.model(node.modelId) : pending ? undefined : s.focusModel();
          const base = s.baseModel();
          const fs = stats.find((x) => x.modelId === focus?.id);
          const bs = stats.find((x) => x.modelId === base?.id);
          // Figures not in the index yet say so (never another model's figures under this name).
          const missing = s.isIndexing ? 'indexing…' : s.indexIncomplete() ? 'not indexed (indexing stopped)' : '—';
          const parts: string[] = [];
          if (pending) {
            // The base is named "base" only when it is the user's choice: a guess from the models indexed
            // so far may be the RL model (its file read first), so the row names the model itself.
            if (base)
              parts.push(
                `${s.baseModelIsGuess() ? s.shortLabel(base) : 'base'} ${bs ? fmtCounts(bs, kValues) : missing}`,
              );
            parts.push(`model: ${s.isIndexing ? 'indexing…' : 'not indexed (indexing stopped)'}`);
          } else {
            // two figures: c/n each, no pass@k (it cut off at the default width; the model rows under
            // the problem and its tooltip give it: trial 10 finding 4)
            const both = node.modelId === undefined && base && base.id !== focus?.id;
            if (both) parts.push(`base ${bs ? shortCounts(bs) : missing}`);
            if (focus)
              parts.push(
                `${node.modelId === undefined ? 'model ' : ''}${fs ? (both ? shortCounts(fs) : fmtCounts(fs, kValues)) : missing}`,
              );
          }
          // a marker where the grader audit's answer check contradicts a verdict of the folder (the tooltip
          // says which; trial 10 finding 1); not while indexing, when the samples still change
          const checked = s.isIndexing ? undefined : s.answerCheck()?.get(p.id);
          item.description = `${checked ? '⚑ ' : ''}${parts.join(' · ')}${p.question ? ` — ${preview(p.question, 60)}` : ''}`;
          item.iconPath = !fs && s.isIndexing ? new vscode.ThemeIcon('loading~spin') : stateIcon(problemState(fs));
        }
        return item;
      }
      case 'moreModels': {
        const n = node.models.length;
        const item = new vscode.TreeItem(`${n} more models`, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `p:${node.problemKey}/more`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        const solved = s
          ? s.index.problemStats(node.problemId).filter((x) => node.models.some((m) => m.id === x.modelId) && x.c > 0)
              .length
          : 0;
        item.description = `${solved} of ${n} solve it`;
        item.tooltip =
          'Models other than the base model and the model in focus (setting traceInspector.showAllModels lists them all)';
        item.contextValue = 'moreModels';
        return item;
      }
      case 'model': {
        const m = node.model;
        const item = new vscode.TreeItem(s ? s.shortLabel(m) : m.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = nodeId(node);
        item.contextValue = 'model';
        if (s) {
          const base = s.baseModel();
          const focus = s.focusModel();
          // The role first: a narrow side bar cuts the end of the description, not its start.
          const role = m.id === base?.id ? 'base · ' : m.id === focus?.id ? 'focus · ' : '';
          if (node.problemId !== undefined) {
            const st = s.index.problemStats(node.problemId).find((x) => x.modelId === m.id);
            // the figure right after the name, the name cut to fit (trial 10 finding 4)
            item.label = this.fittedLabel(s, m);
            item.description = modelRowDescription(
              s.models().length === 1 ? 'only model' : m.id === base?.id ? 'base' : m.id === focus?.id ? 'focus' : '',
              s.checkpointSteps().get(m.id)?.step,
              st,
              kValues,
            );
            item.iconPath = stateIcon(problemState(st));
            // a record without samples has nothing to expand
            if (st && st.n === 0) item.collapsibleState = vscode.TreeItemCollapsibleState.None;
          } else {
            const left = [
              m.emptyProblems ? `${m.emptyProblems} without samples` : '',
              m.ungradedProblems ? `${m.ungradedProblems} ungraded` : '',
            ].filter(Boolean);
            item.description = `${role}${stepText(s, m)}${m.problems} problems${left.length ? ` (${left.join(', ')})` : ''} · ${m.correct}/${m.graded} correct${m.samples > m.graded ? ` · ${m.samples - m.graded} samples ungraded` : ''}${m.partial ? ' · partial: indexing not finished' : ''}${s.isIndexing ? ' · indexing…' : ''}`;
            item.iconPath = new vscode.ThemeIcon(m.id === base?.id ? 'home' : m.id === focus?.id ? 'target' : 'hubot');
          }
        }
        return item;
      }
      case 'verdict': {
        const label = node.verdict === true ? 'correct' : node.verdict === false ? 'incorrect' : 'ungraded';
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `v:${node.problemId}:${node.modelId}:${label}`;
        item.description =
          this.matching !== undefined ? `${node.count} matching "${this.matching}"` : String(node.count);
        item.iconPath = node.verdict === true ? passIcon : node.verdict === false ? failIcon : ungradedIcon;
        item.contextValue = 'verdict';
        return item;
      }
      case 'sample': {
        const x = node.sample;
        const item = new vscode.TreeItem(`sample ${x.sampleIndex}`);
        item.id = `s:${x.id}`;
        item.description = sampleDescription(x);
        // the icon stays the verdict, annotated or not (a tag icon hid ✓/✗: trial 10 finding 10b)
        item.iconPath = x.correct === true ? passIcon : x.correct === false ? failIcon : ungradedIcon;
        item.contextValue = x.labels.length || x.hasNote ? 'sample.annotated' : 'sample';
        item.command = { command: 'traceInspector.openSample', title: 'Open Sample', arguments: [{ sampleId: x.id }] };
        return item;
      }
    }
  }

  /** Tooltips load lazily: only when the user hovers. Model output is shown as plain text. */
  async resolveTreeItem(item: vscode.TreeItem, node: Node): Promise<vscode.TreeItem> {
    const s = this.getSession();
    if (!s) return item;
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.supportHtml = false;
    if (node.type === 'problem') {
      const p = node.problem;
      md.appendMarkdown(`**Problem** `).appendText(`${p.dataset} / ${p.problemId}`);
      if (p.level) md.appendMarkdown(' · level ').appendText(p.level);
      if (p.referenceAnswer)
        md.appendMarkdown('\n\n**Reference answer:** ').appendText(preview(p.referenceAnswer, 200));
      if (p.question) md.appendMarkdown('\n\n').appendText(preview(p.question, 600));
      const models = new Map(s.models().map((m) => [m.id, m]));
      md.appendMarkdown('\n\n');
      const stats = s.index.problemStats(p.id);
      // the model in focus without any record here says so (its icon is a dash, not "?": trial 10 finding 7)
      const focus = node.modelId !== undefined ? s.index.model(node.modelId) : s.focusModel();
      if (focus && !stats.some((x) => x.modelId === focus.id))
        md.appendMarkdown('**')
          .appendText(noRecordText(s.shortLabel(focus), s.index.unreadableRecords(focus.id)))
          .appendMarkdown('**\n\n');
      const checked = answerCheckDisagreements(s.index, p.id).get(p.id);
      for (const st of stats) {
        const check = checked?.get(st.modelId);
        md.appendMarkdown('- ')
          .appendText(
            `${models.get(st.modelId)?.label ?? st.modelId}: ${fmtCounts(st, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])}${check ? ` · ⚑ ${answerCheckSummary(check)}` : ''}`,
          )
          .appendMarkdown('\n');
      }
    } else if (node.type === 'sample') {
      const d = s.index.sample(node.sample.id);
      if (d) {
        md.appendText(
          `${node.modelLabel} · problem ${node.problemLabel} · sample ${d.sampleIndex} · ${d.correct === null ? 'ungraded' : d.correct ? 'correct' : 'incorrect'}`,
        );
        // the text is read from its results file; a file changed since indexing is named instead
        let text: string;
        try {
          text = (await s.sampleText(d.id)) ?? '';
        } catch (e) {
          text = e instanceof SourceChangedError ? e.message : `text not readable: ${(e as Error).message}`;
        }
        md.appendMarkdown('\n\n').appendText(preview(text, 500));
        const a = s.annotations.get(s.annotations.refOf(d.id)!);
        if (node.sample.labels.length) md.appendMarkdown('\n\n**Labels:** ').appendText(node.sample.labels.join(', '));
        if (a?.note) md.appendMarkdown('\n\n**Note:** ').appendText(a.note);
      }
    } else if (node.type === 'model') {
      const m = node.model;
      const role =
        m.id === s.baseModel()?.id ? ' (base model)' : m.id === s.focusModel()?.id ? ' (model in focus)' : '';
      // under a problem: this problem's figures first, the folder-wide totals labelled as such (trial 10 finding 5)
      if (node.problemId !== undefined) {
        const st = s.index.problemStats(node.problemId).find((x) => x.modelId === m.id);
        const p = s.index.problem(node.problemId);
        md.appendText(`${m.displayId}${role}\n`);
        md.appendMarkdown('\n\n**This problem** ')
          .appendText(`(${p ? problemLabel(p, this.datasets(s)) : node.problemId}): ${problemTooltipFigures(st)}`)
          .appendMarkdown('\n\n**Whole folder** ')
          .appendText(`(all of this model's problems): ${folderTotals(m)}`);
      } else md.appendText(`${m.displayId}${role}\n${folderTotals(m)}`);
      if (m.emptyProblems || m.ungradedProblems)
        md.appendMarkdown('\n\n').appendText(
          `Left out of every figure (counted in "missing"): ${m.emptyProblems} problem(s) without samples, ${m.ungradedProblems} without a graded sample.`,
        );
    } else return item;
    item.tooltip = md;
    return item;
  }
}
