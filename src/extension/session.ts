import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { auditDiagnostics, auditFolderChecked, notAuditedDiagnostics } from '../core/analyses/summaryAudit';
import { problemIdsRepeat } from '../core/grouping/datasets';
import {
  type AnswerCheckCounts,
  answerCheckDisagreements,
  type GraderAudit,
  graderAudit,
  graderAuditDiagnostics,
} from '../core/analyses/graderAudit';
import { AnnotationStore, annotationFatesMessage, MIRROR_RELATIVE_PATH } from '../core/index/annotations';
import type { IndexProgress, IndexSummary } from '../core/index/indexer';
import { type SearchIndexStatus, searchIndexStatus } from '../core/index/searchIndex';
import { seedSiblingDiagnostics } from '../core/grouping/seeds';
import { comparisonBase, defaultFocusModel, guessBaseModel, shortModelNames } from '../core/index/labels';
import { SourceChangedError, readSampleText, readSampleTexts } from '../core/index/sampleText';
import { sqliteDriver } from '../core/index/sqlite';
import { checkpointSeries } from '../core/analyses/trajectories';
import { TraceIndex, type ModelRow } from '../core/index/traceIndex';
import { type Diagnostic, diagnosticPlace } from '../core/model';
import { type PassInputs, PassQueue, passKey } from './indexPasses';
import type { WorkerReply, WorkerRequest } from './indexWorkerProtocol';
import { passChangedIndex, recheckFoundWork } from './restore';
import type { StatusChange } from './treeFilter';

/** What the index worker's `done` reply says of the grader audit it ran after the pass. */
type WorkerAudit = {
  audit?: GraderAudit;
  answerCheck?: Map<number, Map<number, AnswerCheckCounts>>;
  error?: string;
};

/** How often the tree shows newly committed samples while indexing runs (milliseconds). */
const LIVE_REFRESH_MS = 2000;
/**
 * How long the "changed since it was indexed" notification waits for the file watcher's re-index to be due
 * (ms): the watcher's event can come after the read that failed (its pass starts 1500 ms after the last event).
 */
export const CHANGED_GRACE_MS = 2000;

/** Settings read by the extension (contributed in package.json under `traceInspector.*`). */
export interface Settings {
  kValues: number[];
  pageSize: number;
  autoIndex: boolean;
  include: string[];
  exclude: string[];
  baseModel: string;
  lowAccuracyThreshold: number;
  /** The lucky-guess review queue: problems the model in focus solves at most this often (c/graded). */
  luckyGuessThreshold: number;
  /** List every model under a problem (else the base and the model in focus, the rest behind "N more models"). */
  showAllModels: boolean;
  /** A correctness score >= this is correct; undefined: scores that are not verdicts leave samples ungraded. */
  correctThreshold: number | undefined;
  /** Step pattern of checkpoint series (regular expression source); empty: the built-in one. */
  stepPattern: string;
  /** Inspect AI logs: the scorer (`name` or `name.key`); empty for the default rule (see readers/inspectScorer.ts). */
  scorer: string;
  /** Inspect AI logs: samples that errored without a score are left out (`exclude`) or incorrect (readers/inspect.ts). */
  erroredSamples: 'exclude' | 'incorrect';
  /**
   * A mapping file given by path (`traceInspector.mappingFile`), for folders where a
   * trace-inspector.mapping.json cannot be written: absolute, or relative to the results folder; empty: none.
   */
  mappingFile: string;
}

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration('traceInspector', scope);
  const kValues = (c.get<number[]>('kValues') ?? [1, 8]).filter((k) => Number.isInteger(k) && k >= 1);
  return {
    kValues: kValues.length ? kValues : [1, 8],
    pageSize: Math.max(10, Math.min(5000, c.get<number>('pageSize') ?? 200)),
    autoIndex: c.get<boolean>('autoIndex') ?? true,
    include: c.get<string[]>('include') ?? [],
    exclude: c.get<string[]>('exclude') ?? [],
    baseModel: c.get<string>('baseModel') ?? '',
    lowAccuracyThreshold: c.get<number>('lowAccuracyThreshold') ?? 0.25,
    luckyGuessThreshold: c.get<number>('luckyGuessThreshold') ?? 0.125,
    showAllModels: c.get<boolean>('showAllModels') ?? false,
    correctThreshold: finiteOrUndefined(c.get<unknown>('correctThreshold')),
    stepPattern: c.get<string>('stepPattern') ?? '',
    scorer: (c.get<string>('scorer') ?? '').trim(),
    erroredSamples: c.get<string>('erroredSamples') === 'incorrect' ? 'incorrect' : 'exclude',
    mappingFile: (c.get<string>('mappingFile') ?? '').trim(),
  };
}

function finiteOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * One results folder opened in VS Code: its index (a SQLite file in the workspace's extension
 * storage), its annotations (mirrored into the folder), the chosen base model and the model in
 * focus, and the indexing worker. Everything the tree, commands and webviews show comes from here.
 */
export class FolderSession implements vscode.Disposable {
  readonly index: TraceIndex;
  readonly annotations: AnnotationStore;
  readonly dbPath: string;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after indexing, base/focus changes and annotation edits. */
  readonly onDidChange = this.changed.event;
  private readonly statusChanged = new vscode.EventEmitter<StatusChange>();
  /**
   * Fires when the work after a pass's files were read moves on ({@link afterPassWork}: `afterPass`, the status bar
   * and the view's message change), when it ends with the grader audit's results (`passEnded`: the tree's markers
   * and its grader-disagreements filter change too) and as the full-text index builds (`search`: what a search
   * finds changes, nothing else). Never the figures (those changed when the files were read: {@link onDidChange}).
   */
  readonly onDidChangeStatus = this.statusChanged.event;
  /**
   * The pass running in the worker; `quiet` while it is a re-check that found nothing to read yet
   * (restore.ts isQuietRecheck: the views are not told that it runs); `afterPass` once every file is read: what
   * runs until the pass ends (the worker's grader audit, then the host's checks of the folder's own summaries).
   */
  private running:
    | { worker: Worker; done: Promise<IndexSummary | undefined>; quiet: boolean; afterPass?: string }
    | undefined;
  /**
   * The full-text index being built in a worker after a pass (core `buildSearchIndex`): how far it is, and
   * its end (resolves when the worker stopped, whatever the reason).
   */
  private searchBuild: { worker: Worker; status: SearchIndexStatus; done: Promise<void> } | undefined;
  /** {@link searchIndex} when no build runs, once per index state. */
  private searchStatusCache: SearchIndexStatus | undefined;
  /** The folder's indexing passes: one at a time, requests with the running pass's settings join it. */
  private readonly passes = new PassQueue<IndexSummary | undefined>();
  private lastSummary: IndexSummary | undefined;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.OutputChannel,
    private readonly diagnostics: vscode.DiagnosticCollection,
  ) {
    const storage = context.storageUri?.fsPath ?? context.globalStorageUri.fsPath;
    const id = createHash('sha1').update(folder.uri.fsPath).digest('hex').slice(0, 12);
    this.dbPath = join(storage, `index-${id}.db`);
    this.index = TraceIndex.open(this.dbPath);
    this.annotations = new AnnotationStore(this.index, join(folder.uri.fsPath, ...MIRROR_RELATIVE_PATH.split('/')));
  }

  get root(): string {
    return this.folder.uri.fsPath;
  }

  /** Appends a line to the extension's output channel (Trace Inspector). */
  log(line: string): void {
    this.output.appendLine(line);
  }

  /** When each changed file was last reported (a tooltip or a page may ask for many of its samples at once). */
  private readonly changedReported = new Map<string, number>();
  /** Changed files whose notification waits {@link CHANGED_GRACE_MS} for the file watcher's re-index. */
  private readonly changedWaiting = new Set<string>();
  /** Changed files not notified because a re-index was due: the end of that pass is logged for them. */
  private readonly changedAwaitingPass = new Set<string>();
  /** The grace timers of {@link changedWaiting}, cleared when the session is disposed (its index is closed then). */
  private readonly graceTimers = new Set<ReturnType<typeof setTimeout>>();

  /**
   * Whether the extension's file watcher has a re-index of this folder due (its debounce timer runs):
   * set by the extension (extension.ts `watch`); false by default.
   */
  reindexDue: () => boolean = () => false;

  /** Whether a pass will read the folder's changed files soon: one runs or waits, or the watcher's is due. */
  private reindexComing(): boolean {
    return this.running !== undefined || this.passes.queued > 0 || this.reindexDue();
  }

  /**
   * The text of a sample, read from its results file (core sampleText.ts). When the file changed since
   * it was indexed, tells the user which file (at most once a minute per file), offers to index the
   * folder again (annotations are kept: they follow the sample's keys and content hash), and throws the
   * {@link SourceChangedError}: a wrong text is never shown.
   */
  async sampleText(sampleId: number): Promise<string | undefined> {
    return this.sourceChecked(() => readSampleText(this.index, sampleId));
  }

  /** Texts of every sample of a model for one problem (see {@link sampleText}). */
  async sampleTexts(
    problemId: number,
    modelId: number,
  ): Promise<{ id: number; sampleIndex: number; correct: boolean | null; text: string }[]> {
    return this.sourceChecked(() => readSampleTexts(this.index, problemId, modelId));
  }

  /**
   * `read` (texts read anywhere: this thread, or the similarity worker from a SimilarityFilesJob), with a
   * {@link SourceChangedError} told to the user (see {@link sampleText}) and its file marked for the next
   * indexing pass (TraceIndex.markFileChanged; the core's own reads mark it already, marking twice is harmless).
   */
  async sourceChecked<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (e instanceof SourceChangedError) {
        this.index.markFileChanged(e.file);
        this.reportChanged(e);
      }
      throw e;
    }
  }

  /**
   * Tells the user that `e.file` changed since it was indexed (at most once a minute per file), unless a
   * re-index that reads it is coming (trial 14 finding 3: the notification stayed up beside the new text
   * the automatic pass showed 100 ms later): then only the output channel says so, and the end of that pass
   * is logged. With automatic indexing on (and a trusted workspace) the file watcher's event may come after
   * the failed read: the notification waits {@link CHANGED_GRACE_MS} and is not shown when a pass is then
   * due or has read the file again (TraceIndex.isFileMarkedChanged).
   */
  private reportChanged(e: SourceChangedError): void {
    const last = this.changedReported.get(e.file) ?? 0;
    if (Date.now() - last < 60_000 || this.changedWaiting.has(e.file)) return;
    this.output.appendLine(`[${new Date().toISOString()}] ${e.message}`);
    const show = () => {
      if (this.reindexComing() || !this.index.isFileMarkedChanged(e.file)) {
        this.changedAwaitingPass.add(e.file);
        this.output.appendLine(`[index] ${e.file}: not notified: a re-index of the folder is due and reads it again`);
        return;
      }
      this.changedReported.set(e.file, Date.now());
      const n = this.annotationsIn(e.file);
      const annotations =
        n === 0
          ? ''
          : ` ${n === 1 ? '1 annotation is' : `${n} annotations are`} on its samples: re-indexing puts each back on its sample when that sample's text is unchanged; one whose sample's text changed is then on no sample (it stays in ${MIRROR_RELATIVE_PATH}).`;
      void vscode.window
        .showWarningMessage(
          `Trace Inspector: ${e.file} changed since it was indexed, so its sample texts are not shown until the folder is indexed again.${annotations}`,
          'Index Folder',
        )
        .then((c) => c && vscode.commands.executeCommand('traceInspector.index'));
    };
    if (!(readSettings(this.folder).autoIndex && vscode.workspace.isTrusted) || this.reindexComing()) {
      show();
      return;
    }
    this.changedWaiting.add(e.file);
    const timer = setTimeout(() => {
      this.graceTimers.delete(timer);
      this.changedWaiting.delete(e.file);
      show();
    }, CHANGED_GRACE_MS);
    timer.unref?.();
    this.graceTimers.add(timer);
  }

  /** How many live annotations are on samples of results file `file` (relative path). */
  private annotationsIn(file: string): number {
    try {
      return this.annotations.countOnFile(file);
    } catch {
      return 0;
    }
  }

  /**
   * Whether an indexing pass runs and the views say so: a quiet re-check of an existing index (started
   * with the extension, restore.ts) counts only once it finds a file to read; until then the views show
   * the index as it is and nothing says "Indexing".
   */
  get isIndexing(): boolean {
    return !!this.running && !this.running.quiet && this.running.afterPass === undefined;
  }

  /**
   * What still runs after the running pass read every file (the index then holds every figure, final): `grader
   * audit` (in the worker), then `checking the folder's own summaries`; undefined otherwise and during a quiet
   * re-check. The views then say that it runs, never "Indexing" nor done.
   */
  get afterPassWork(): string | undefined {
    return this.running && !this.running.quiet ? this.running.afterPass : undefined;
  }

  /** Whether a pass the views know of runs: its files are read ({@link isIndexing}) or its after-pass work runs. */
  get passRunning(): boolean {
    return !!this.running && !this.running.quiet;
  }

  /** Sets the running pass's after-pass work (see {@link afterPassWork}) and tells the views. */
  private setAfterPass(work: string): void {
    if (!this.running) return;
    this.running.afterPass = work;
    if (!this.running.quiet) this.statusChanged.fire('afterPass');
  }

  get summary(): IndexSummary | undefined {
    return this.lastSummary;
  }

  fireChanged(): void {
    // (not the answer check: it changes with a pass only, which sets it at its end)
    this.modelsCache = undefined;
    this.partialCache = undefined;
    this.changed.fire();
  }

  /** Short labels by model id (core `shortModelNames`), for the models of {@link models}. */
  private shortCache: { models: ModelRow[]; labels: Map<number, string> } | undefined;

  /**
   * A model's short label, the one name every view gives it (tree rows, status bar, tab titles, filter texts;
   * the webviews get the same from panelData): what tells it apart from the folder's other models first
   * (`ppo@main · 2048_batched`). The full id goes in tooltips.
   */
  shortLabel(m: Pick<ModelRow, 'id' | 'label'>): string {
    const models = this.models();
    if (this.shortCache?.models !== models) {
      this.shortCache = { models, labels: shortModelNames(models) };
    }
    return this.shortCache.labels.get(m.id) ?? m.label;
  }

  private graderAuditCache: GraderAudit | undefined;

  /**
   * The grader audit of the indexed samples (groups of equivalent answers graded both ways; core
   * `graderAudit`): the one the indexing worker computed after its last pass, else computed here once;
   * undefined while a pass runs (its worker computes it after reading the files: {@link onDidChangeStatus}
   * fires when it is in).
   */
  graderAudit(): GraderAudit | undefined {
    if (this.running) return undefined;
    return (this.graderAuditCache ??= graderAudit(this.index));
  }

  private answerCheckCache: Map<number, Map<number, AnswerCheckCounts>> | undefined;

  /**
   * Per problem row id and model row id, the samples whose folder verdict the grader audit's answer check
   * (answer equivalent to the reference) contradicts (core `answerCheckDisagreements`; `report --regrade`'s
   * disagreements); computed once per index pass by the indexing worker, for the tree's marker on problem rows
   * (trial 10 finding 1), else here once; undefined while a pass runs (as {@link graderAudit}).
   */
  answerCheck(): Map<number, Map<number, AnswerCheckCounts>> | undefined {
    if (this.running) return undefined;
    return (this.answerCheckCache ??= answerCheckDisagreements(this.index));
  }

  /**
   * Models with totals; cached until the next change (every tree row asks for the base and focus
   * models). While indexing runs, the change events of committed batches clear it.
   */
  private modelsCache: ModelRow[] | undefined;

  models(): ModelRow[] {
    return (this.modelsCache ??= this.index.models());
  }

  private stepsCache:
    | { key: string; models: ModelRow[]; steps: Map<number, { step: number; series: string }> }
    | undefined;

  /**
   * The step and series of every model that is a checkpoint of a training series (core
   * `checkpointSeries` with the `traceInspector.stepPattern` setting; an invalid pattern falls back to
   * the built-in one). Cached until the models, the base or the setting change.
   */
  checkpointSteps(): Map<number, { step: number; series: string }> {
    const models = this.models();
    const base = this.baseModel();
    const baseIsChoice = !this.baseModelIsGuess();
    const pattern = readSettings(this.folder).stepPattern;
    const key = `${base?.id ?? ''}|${baseIsChoice}|${pattern}`;
    if (this.stepsCache?.key === key && this.stepsCache.models === models) return this.stepsCache.steps;
    let found: ReturnType<typeof checkpointSeries>;
    try {
      found = checkpointSeries(models, { base, baseIsChoice, stepPattern: pattern });
    } catch {
      found = checkpointSeries(models, { base, baseIsChoice });
    }
    const steps = new Map<number, { step: number; series: string }>();
    for (const s of found.series) for (const st of s.steps) steps.set(st.model.id, { step: st.step, series: s.name });
    this.stepsCache = { key, models, steps };
    return steps;
  }

  private stateKey(what: string): string {
    return `traceInspector.${what}:${this.folder.uri.toString()}`;
  }

  /**
   * The base model: the workspace's stored choice, else the `traceInspector.baseModel` setting
   * (substring of id or label), else a guess from names (within the focus model's run when the user
   * chose a focus model there).
   */
  baseModel(): ModelRow | undefined {
    const models = this.models();
    if (models.length === 0) return undefined;
    const stored = this.context.workspaceState.get<string>(this.stateKey('base'));
    const byKey = stored ? models.find((m) => m.key === stored) : undefined;
    if (byKey) return byKey;
    const setting = readSettings(this.folder).baseModel.trim().toLowerCase();
    if (setting) {
      const hit = models.find(
        (m) => m.displayId.toLowerCase().includes(setting) || m.label.toLowerCase().includes(setting),
      );
      if (hit) return hit;
    }
    // A guess: the base of the model in focus (chosen, else the default: the final model of the last
    // run) within its run folder when the run holds other models (as the CLI report compares runs
    // within themselves), else the folder's base-like model.
    const focusKey = this.context.workspaceState.get<string>(this.stateKey('focus'));
    const focus = (focusKey ? models.find((m) => m.key === focusKey) : undefined) ?? defaultFocusModel(models);
    const guess = models[guessBaseModel(models)];
    return (focus && comparisonBase(models, focus, guess, false)) || guess;
  }

  /** Whether the base model is a stored/configured choice rather than a guess. */
  baseModelIsGuess(): boolean {
    const stored = this.context.workspaceState.get<string>(this.stateKey('base'));
    return !(stored && this.models().some((m) => m.key === stored)) && !readSettings(this.folder).baseModel.trim();
  }

  async setBaseModel(model: ModelRow | undefined): Promise<void> {
    await this.context.workspaceState.update(this.stateKey('base'), model?.key);
    this.modelsCache = undefined;
    this.changed.fire();
  }

  /**
   * The model in focus (the one "failing", "lost by RL", ... filters are about): the stored
   * choice; else, while the base is a guess, the final model of the last run (core
   * `defaultFocusModel`: largest training step or none); else (a chosen base) that same model when it is in the
   * base model's run and is not the base, else the first non-base model in the base model's run, else the first
   * non-base model, else (a folder of one model) the base model.
   *
   * While indexing runs, a model not indexed yet is not replaced by another: when the stored choice
   * is not in the index yet, or no model besides the base is, this is `undefined` (pending), so that
   * no row shows one model's figures under the name of the model in focus ({@link focusPending}).
   */
  focusModel(): ModelRow | undefined {
    const models = this.models();
    const stored = this.context.workspaceState.get<string>(this.stateKey('focus'));
    const byKey = stored ? models.find((m) => m.key === stored) : undefined;
    if (byKey) return byKey;
    if (stored && this.isIndexing) return undefined;
    const base = this.baseModel();
    const others = models.filter((m) => m.id !== base?.id);
    if (others.length === 0 && this.isIndexing) return undefined;
    const final = defaultFocusModel(models);
    if (this.baseModelIsGuess()) {
      if (final) return final;
    } else if (final && final.id !== base?.id && final.run === base?.run) {
      // a chosen base does not change which model is under study: an RL-named `rl` beside `other-01` stays in focus
      return final;
    }
    return others.find((m) => m.run === base?.run) ?? others[0] ?? base;
  }

  /** Whether the user chose the model in focus (else it is the default, see {@link focusModel}). */
  focusModelIsChoice(): boolean {
    const stored = this.context.workspaceState.get<string>(this.stateKey('focus'));
    return !!stored && this.models().some((m) => m.key === stored);
  }

  /** Whether the first-open note on the pair compared was shown for this folder; marks it shown. */
  async pairNoticeDue(): Promise<boolean> {
    const key = this.stateKey('pairNotice');
    if (this.context.workspaceState.get<boolean>(key)) return false;
    await this.context.workspaceState.update(key, true);
    return true;
  }

  /**
   * Whether the index may not hold every model of the folder yet: indexing runs, or the last pass
   * was cancelled, or files were left half-read by an interrupted pass.
   */
  indexIncomplete(): boolean {
    if (this.isIndexing || this.lastSummary?.cancelled) return true;
    this.partialCache ??= this.index.partialFiles();
    return this.partialCache > 0;
  }

  /** {@link TraceIndex.partialFiles}, cached like the models until the next change. */
  private partialCache: number | undefined;

  /**
   * The model in focus is not known yet because the index is incomplete: none is indexed besides the
   * base model (or the stored choice is not indexed yet). Rows then show the base model's figures
   * under its own name and say the model is still to come.
   */
  focusPending(): boolean {
    if (!this.indexIncomplete()) return false;
    const focus = this.focusModel();
    if (focus && this.context.workspaceState.get<string>(this.stateKey('focus')) === focus.key) return false;
    return !focus || focus.id === this.baseModel()?.id;
  }

  /**
   * Cancel Indexing: stops the running indexing pass (committed batches stay; the next pass redoes the
   * unfinished file) and drops the passes queued behind it (a settings change or changed files during
   * the pass), which would otherwise start as soon as it stops. Returns how many queued passes were
   * dropped (said in the output channel); the settings in effect then differ from the index's until
   * the next pass (a settings event or **Index Folder** starts it).
   */
  cancelIndexing(): number {
    const dropped = this.passes.dropQueued();
    this.running?.worker.postMessage({ type: 'cancel' } satisfies WorkerRequest);
    if (dropped > 0)
      this.output.appendLine(
        `[index] ${this.folder.name}: cancelled; ${dropped} queued ${dropped === 1 ? 'pass' : 'passes'} dropped`,
      );
    return dropped;
  }

  async setFocusModel(model: ModelRow | undefined): Promise<void> {
    await this.context.workspaceState.update(this.stateKey('focus'), model?.key);
    this.modelsCache = undefined;
    this.changed.fire();
  }

  /**
   * Indexes the folder in a worker thread (its own database connection; the UI keeps reading
   * committed data through WAL). Resolves with the summary, or undefined when cancelled or failed.
   * One pass at a time ({@link PassQueue}): while a pass with the same settings runs, the request
   * joins it (resolves with its summary); while one with other settings runs (a setting changed
   * during the pass), or with `folderChanged` (results files changed: the running pass may have read
   * them before), it waits for it, then runs its own. `token` cancels the request while it waits
   * (resolves undefined, no pass) and stops its pass once it runs.
   */
  async reindex(
    token?: vscode.CancellationToken,
    onProgress?: (p: IndexProgress) => void,
    folderChanged = false,
    quiet = false,
  ): Promise<IndexSummary | undefined> {
    const inputs = this.passInputs();
    return this.passes.request(
      passKey(inputs),
      () => this.runPass(inputs, token, onProgress, quiet),
      folderChanged,
      token,
    );
  }

  /**
   * Whether the folder is (or, when the running pass ends, will be) indexed with the settings in effect
   * now: a settings event that leaves them as they were needs no pass. False before the first pass.
   */
  indexSettingsCurrent(): boolean {
    return this.passes.isCurrent(passKey(this.passInputs()));
  }

  /** The settings in effect that an indexing pass reads the folder with (the mapping file made absolute). */
  private passInputs(): PassInputs {
    const settings = readSettings(this.folder);
    return {
      include: settings.include,
      exclude: settings.exclude,
      correctThreshold: settings.correctThreshold,
      scorer: settings.scorer,
      erroredSamples: settings.erroredSamples,
      mappingFile: settings.mappingFile ? resolve(this.root, settings.mappingFile) : '',
    };
  }

  /** The worker's request for one indexing pass of this folder with `inputs`. */
  private indexRequest(inputs: PassInputs): WorkerRequest {
    return {
      type: 'index',
      root: this.root,
      dbPath: this.dbPath,
      include: [...inputs.include],
      exclude: [...inputs.exclude],
      correctThreshold: inputs.correctThreshold,
      scorer: inputs.scorer,
      erroredSamples: inputs.erroredSamples,
      mappingFile: inputs.mappingFile,
      // the worker opens its own connection: with this process's driver (one SQLite per process)
      sqliteDriver: sqliteDriver().name,
    };
  }

  /**
   * One indexing pass in the worker (see {@link reindex}; only {@link passes} calls it). `quiet`: a re-check
   * of an existing index (restore.ts isQuietRecheck): the views are told nothing until it finds a file to
   * read (restore.ts recheckFoundWork), and nothing at its end when it changed nothing (passChangedIndex).
   */
  private async runPass(
    inputs: PassInputs,
    token?: vscode.CancellationToken,
    onProgress?: (p: IndexProgress) => void,
    quiet = false,
  ): Promise<IndexSummary | undefined> {
    // a request that waited for another pass and was cancelled meanwhile
    if (token?.isCancellationRequested) return undefined;
    // a pass writes the index: the full-text index's build stops (its chunks committed so far stay) and starts
    // again after the pass
    await this.stopSearchIndex();
    const worker = new Worker(join(this.context.extensionUri.fsPath, 'dist', 'indexWorker.js'));
    const request = this.indexRequest(inputs);
    const shown = { samples: 0, at: Date.now() };
    let workerAudit: WorkerAudit | undefined;
    // the views were told when the files were read (figures final): the pass's end changes only the status
    let filesReadShown = false;
    let audited: GraderAudit | undefined;
    const done = new Promise<IndexSummary | undefined>((resolve) => {
      worker.on('message', (m: WorkerReply) => {
        if (m.type === 'progress') {
          // a quiet re-check that reads a file from now on is announced as any pass (the views say "Indexing")
          if (this.running?.quiet && recheckFoundWork(m.progress)) {
            this.running.quiet = false;
            this.partialCache = undefined;
            this.changed.fire();
          }
          if (m.progress.notice) this.output.appendLine(`[index] ${this.folder.name}: ${m.progress.notice}`);
          onProgress?.(m.progress);
          // Committed batches are readable at once (WAL): show them, at most every 2 s.
          const now = Date.now();
          if (m.progress.samples !== shown.samples && now - shown.at >= LIVE_REFRESH_MS) {
            shown.samples = m.progress.samples;
            shown.at = now;
            this.fireChanged();
          }
        } else if (m.type === 'afterPass') {
          // every file is read: the views show the final figures now and say what still runs
          this.setAfterPass(m.work);
          if (this.running && !this.running.quiet) {
            filesReadShown = true;
            this.fireChanged();
          }
        } else if (m.type === 'done') {
          workerAudit = {
            audit: m.graderAudit,
            answerCheck: m.answerCheck && new Map(m.answerCheck.map(([p, byModel]) => [p, new Map(byModel)])),
            error: m.graderAuditError,
          };
          resolve(m.summary);
        } else if (m.type === 'error') {
          this.output.appendLine(`[index] failed: ${m.message}`);
          void vscode.window.showErrorMessage(`Trace Inspector: indexing failed: ${m.message}`);
          resolve(undefined);
        }
      });
      worker.on('error', (e) => {
        this.output.appendLine(`[index] worker error: ${e.message}`);
        resolve(undefined);
      });
      worker.on('exit', () => resolve(undefined));
    });
    const sub = token?.onCancellationRequested(() => worker.postMessage({ type: 'cancel' } satisfies WorkerRequest));
    this.running = { worker, done, quiet };
    // Views say at once that indexing runs (not "Index incomplete" until the first batch is shown); a quiet
    // re-check says it only when it finds something to read.
    this.partialCache = undefined;
    if (!quiet) this.changed.fire();
    let imported = 0;
    let result: IndexSummary | undefined;
    worker.postMessage(request);
    try {
      const summary = await done;
      result = summary;
      if (summary) ({ imported, audited } = await this.afterPass(summary, workerAudit));
      return summary;
    } finally {
      sub?.dispose();
      // a quiet re-check that found nothing to read and changed nothing: the views keep what they show
      const unchanged = this.running?.quiet === true && !passChangedIndex(result, imported);
      this.running = undefined;
      await worker.terminate();
      this.modelsCache = undefined;
      // the worker's audit describes the index after this pass (none: computed again when asked for)
      this.graderAuditCache = audited ?? workerAudit?.audit;
      this.answerCheckCache = workerAudit?.answerCheck;
      this.partialCache = undefined;
      this.searchStatusCache = undefined;
      // the figures were shown when the files were read; annotations imported or a cancelled pass change them again
      if (!unchanged && (!filesReadShown || imported > 0 || !!result?.cancelled)) this.changed.fire();
      this.statusChanged.fire('passEnded');
      // the full-text index of what the pass wrote, after the figures (not after a pass the user stopped)
      if (result && !result.cancelled) this.startSearchIndex();
    }
  }

  /**
   * What the extension does when a pass ends with a summary: logs it and the annotations' fates, imports the
   * annotation mirror, checks the folder's summaries and its grader, and publishes every diagnostic. Returns
   * how many annotations the mirror added or updated and the grader audit used.
   */
  private async afterPass(
    summary: IndexSummary,
    workerAudit: WorkerAudit | undefined,
  ): Promise<{ imported: number; audited: GraderAudit | undefined }> {
    this.lastSummary = summary;
    this.output.appendLine(
      `[index] ${this.folder.name}: ${summary.filesIndexed} indexed, ${summary.filesSkipped} unchanged, ${summary.filesRemoved} removed; ${summary.samples} samples (${summary.elapsedMs} ms)${summary.cancelled ? ' — cancelled' : ''}`,
    );
    if (summary.annotationsReattached > 0)
      this.output.appendLine(
        `[annotations] ${summary.annotationsReattached} moved with their samples to the samples' new model, problem or sample index`,
      );
    // what became of the annotations of the files read again: never "kept" for one shown on no sample
    const fates = annotationFatesMessage(summary.annotationsOfChangedFiles, MIRROR_RELATIVE_PATH);
    if (fates) {
      this.output.appendLine(`[annotations] ${fates}`);
      if (summary.annotationsOfChangedFiles.onNoSample > 0)
        void vscode.window.showWarningMessage(`Trace Inspector: ${fates}.`);
    }
    for (const file of this.changedAwaitingPass)
      this.output.appendLine(`[index] ${file}: indexed again; its sample texts are shown again`);
    this.changedAwaitingPass.clear();
    const mirror = this.annotations.importJsonl(this.annotations.mirrorPath!, MIRROR_RELATIVE_PATH);
    const imported = mirror.added + mirror.updated;
    if (mirror.added || mirror.updated)
      this.output.appendLine(
        `[annotations] restored ${mirror.added} and updated ${mirror.updated} from ${MIRROR_RELATIVE_PATH}`,
      );
    this.setAfterPass('checking the folder’s own summaries');
    const audit = await this.summaryAuditDiagnostics();
    const { diagnostics: grader, audited } = this.graderAuditDiagnostics(workerAudit);
    // named as the tree names the models (trial 12 finding 22)
    const seeds = seedSiblingDiagnostics(
      this.index.models(),
      (id) => this.index.firstFileOf(id),
      (m) => this.shortLabel(m),
    );
    this.publishDiagnostics([...this.index.diagnostics(), ...mirror.diagnostics, ...audit, ...grader, ...seeds]);
    return { imported, audited };
  }

  /**
   * The folder's own summaries checked against its raw samples: warnings on the summary files, and an info on
   * each summary file the audit did not understand (trial 12 finding 5). Logged; none when the audit fails.
   */
  private async summaryAuditDiagnostics(): Promise<Diagnostic[]> {
    try {
      const checked = await auditFolderChecked(this.index, this.root);
      const audit = [...auditDiagnostics(this.root, checked.entries), ...notAuditedDiagnostics(checked.notChecked)];
      if (checked.entries.length)
        this.output.appendLine(
          `[audit] ${checked.entries.length} figures in the folder's summaries disagree with the raw samples (see the Problems panel)`,
        );
      else if (checked.checked.length)
        this.output.appendLine(
          `[audit] ${checked.checked.reduce((a, x) => a + x.figures, 0)} figures in ${checked.checked.length} summary files checked against the raw samples: all agree`,
        );
      if (checked.notChecked.length)
        this.output.appendLine(
          `[audit] ${checked.notChecked.length} summary files not audited (see the Problems panel)`,
        );
      return audit;
    } catch (e) {
      this.output.appendLine(`[audit] skipped: ${(e as Error).message}`);
      return [];
    }
  }

  /**
   * The folder's grader checked against itself: equivalent answers of one problem graded both ways (computed
   * by the worker; here only if the worker could not). Logged; no diagnostics when the audit fails.
   */
  private graderAuditDiagnostics(workerAudit: WorkerAudit | undefined): {
    diagnostics: Diagnostic[];
    audited: GraderAudit | undefined;
  } {
    try {
      if (workerAudit?.error) throw new Error(workerAudit.error);
      const ga = workerAudit?.audit ?? graderAudit(this.index);
      const diagnostics = graderAuditDiagnostics(ga, problemIdsRepeat(this.index));
      if (ga.inconsistent.length)
        this.output.appendLine(
          `[grader audit] ${ga.inconsistent.length} groups of equivalent answers graded both correct and incorrect in ${ga.problemsInconsistent} problems (filter: Grader disagreements; see the Problems panel)`,
        );
      return { diagnostics, audited: ga };
    } catch (e) {
      this.output.appendLine(`[grader audit] skipped: ${(e as Error).message}`);
      return { diagnostics: [], audited: undefined };
    }
  }

  /**
   * How much of the index the full-text search looks through: `indexed` of `samples` (core
   * `searchIndexStatus`), live while the build runs ({@link searchIndexBuilding}). The search filter says
   * "search index: 40%" and counts the samples not looked through until `indexed` reaches `samples`.
   */
  searchIndex(): SearchIndexStatus {
    if (this.searchBuild) return this.searchBuild.status;
    this.searchStatusCache ??= searchIndexStatus(this.index);
    return this.searchStatusCache;
  }

  /** Whether the full-text index is being built (in a worker, after a pass). */
  get searchIndexBuilding(): boolean {
    return this.searchBuild !== undefined;
  }

  /**
   * Builds the full-text index of the samples not in it yet, in a worker (its own connection, as a pass), unless
   * it is complete or a build or pass runs. Progress fires {@link onDidChangeStatus} (at most every
   * {@link LIVE_REFRESH_MS}: the tree's search filter lists more problems as it goes), and its end
   * {@link onDidChange} is not needed: the figures do not change, only what a search finds.
   */
  startSearchIndex(): void {
    if (this.searchBuild || this.running) return;
    const status = searchIndexStatus(this.index);
    this.searchStatusCache = status;
    if (status.indexed >= status.samples) return;
    const worker = new Worker(join(this.context.extensionUri.fsPath, 'dist', 'indexWorker.js'));
    let shown = Date.now();
    const done = new Promise<void>((resolve) => {
      worker.on('message', (m: WorkerReply) => {
        if (!this.searchBuild || this.searchBuild.worker !== worker) return;
        if (m.type === 'searchProgress') {
          this.searchBuild.status = { samples: m.progress.samples, indexed: m.progress.indexed };
          const now = Date.now();
          if (now - shown >= LIVE_REFRESH_MS) {
            shown = now;
            this.statusChanged.fire('search');
          }
        } else if (m.type === 'searchDone') {
          const r = m.summary;
          this.output.appendLine(
            `[search index] ${this.folder.name}: ${r.added} samples added (${r.elapsedMs} ms); ${r.indexed} of ${r.samples} searchable${r.cancelled ? ' — stopped' : ''}`,
          );
          for (const f of r.changedFiles)
            this.output.appendLine(
              `[search index] ${f} changed since it was indexed: its samples are in no search until it is indexed again`,
            );
          void worker.terminate();
        } else if (m.type === 'error') {
          this.output.appendLine(`[search index] failed: ${m.message}`);
          void worker.terminate();
        }
      });
      worker.on('error', (e) => this.output.appendLine(`[search index] worker error: ${e.message}`));
      worker.on('exit', () => resolve());
    });
    this.searchBuild = { worker, status, done };
    void done.then(() => {
      if (this.searchBuild?.worker !== worker) return;
      this.searchBuild = undefined;
      this.searchStatusCache = undefined;
      this.statusChanged.fire('search');
    });
    worker.postMessage({
      type: 'searchIndex',
      dbPath: this.dbPath,
      sqliteDriver: sqliteDriver().name,
    } satisfies WorkerRequest);
    this.statusChanged.fire('search');
  }

  /** Stops the full-text index's build, if one runs (what it committed stays; {@link startSearchIndex} goes on from there). */
  private async stopSearchIndex(): Promise<void> {
    const build = this.searchBuild;
    if (!build) return;
    build.worker.postMessage({ type: 'cancel' } satisfies WorkerRequest);
    await build.done;
    this.searchBuild = undefined;
    this.searchStatusCache = undefined;
  }

  /**
   * Shows parse problems in the Problems panel (file and line) and the output channel. A diagnostic at an entry of
   * an archive (an Inspect `.eval` zip: `Diagnostic.entry`) has no line: it is shown on the archive's first line,
   * its message starting with the entry (`samples/3_epoch_2.json: ...`).
   */
  publishDiagnostics(diags: Diagnostic[]): void {
    this.diagnostics.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const d of diags) {
      const line = d.entry ? 0 : Math.max(0, d.line - 1);
      const diag = new vscode.Diagnostic(
        new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
        d.entry ? `${d.entry}: ${d.message}` : d.message,
        d.severity === 'error'
          ? vscode.DiagnosticSeverity.Error
          : d.severity === 'warning'
            ? vscode.DiagnosticSeverity.Warning
            : vscode.DiagnosticSeverity.Information,
      );
      diag.source = 'Trace Inspector';
      const list = byFile.get(d.file) ?? [];
      list.push(diag);
      byFile.set(d.file, list);
      this.output.appendLine(`[diagnostic] ${diagnosticPlace(d)}: ${d.message.replace(/[\u0000-\u001f]/g, ' ')}`);
    }
    // a mapping file given by path (traceInspector.mappingFile) is named by its absolute path
    for (const [file, list] of byFile)
      this.diagnostics.set(
        isAbsolute(file) ? vscode.Uri.file(file) : vscode.Uri.joinPath(this.folder.uri, ...file.split('/')),
        list,
      );
  }

  dispose(): void {
    for (const t of this.graceTimers) clearTimeout(t);
    this.graceTimers.clear();
    void this.running?.worker.terminate();
    void this.searchBuild?.worker.terminate();
    this.index.close();
    this.changed.dispose();
    this.statusChanged.dispose();
  }
}
