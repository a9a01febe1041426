/**
 * Keyboard stepping through samples: Next / Previous Sample, Next / Previous Problem and Next
 * Unannotated Sample (keybindings in package.json, active in the Problems tree, a sample tab, the
 * sample preview and the problem view). Each step follows the tree's current filter, grouping and
 * order (sampleOrder.ts), shows the sample in the one preview tab without taking the keyboard away,
 * and selects it in the tree.
 *
 * Where a step starts: the sample the command names (the preview's toolbar passes it; for a sample that
 * left the index, its problem and model: `{ problemId, modelId }`, the place before its first sample), else the last
 * thing the user looked at: the sample shown in the preview or a sample tab, or the node selected in
 * the tree; with nothing yet, the first problem's samples of the model in focus.
 */
import * as vscode from 'vscode';
import { ordinal } from '../core/text/strings';
import { describeFilter, type Node, type ProblemTreeProvider } from './problemTree';
import { type Cursor, nextUnannotatedWrapping, positionOf, type Step, stepFrom } from './sampleOrder';
import { parseSampleUri } from './sampleDocument';
import type { FolderSession } from './session';

export const STEP_COMMANDS: Record<Step, string> = {
  next: 'traceInspector.nextSample',
  previous: 'traceInspector.previousSample',
  nextProblem: 'traceInspector.nextProblem',
  previousProblem: 'traceInspector.previousProblem',
  nextUnannotated: 'traceInspector.nextUnannotated',
};

/**
 * What the stepping uses of the extension state: the members of the Extension (extension.ts) it reads, named
 * here so that this module does not import extension.ts, which imports it.
 */
export interface NavigationHost {
  /** The session of the folder the tree shows, if any. */
  active(): FolderSession | undefined;
  /** Opens a sample (a tree node, a sample URI or a sample id) in a tab or the preview. */
  openSample(arg: unknown, preview?: boolean, preserveFocus?: boolean): Promise<void>;
  readonly tree: ProblemTreeProvider;
  readonly view: vscode.TreeView<Node>;
}

/** What a step starts from, kept up to date as the user moves around. */
export class Navigator implements vscode.Disposable {
  private cursor: Cursor | undefined;
  /** The pair ({@link pair}) when the cursor was set. */
  private cursorPair: string | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly ext: NavigationHost) {
    this.subs.push(
      ext.view.onDidChangeSelection((e) => {
        const c = e.selection.length === 1 ? this.cursorOfNode(e.selection[0]) : undefined;
        if (c) this.setCursor(c);
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        const id = e ? this.sampleOfUri(e.document.uri) : undefined;
        if (id !== undefined) this.setCursor({ sampleId: id });
      }),
    );
  }

  /** Forgets the starting point (the tree now shows another folder, whose row ids differ). */
  reset(): void {
    this.setCursor(undefined);
  }

  /** The sample the user last looked at or selected, if the last thing was a sample. */
  currentSample(): number | undefined {
    return this.cursor && 'sampleId' in this.cursor ? this.cursor.sampleId : undefined;
  }

  /**
   * The sample being read got row id `to` in a re-index (it had `from`; the preview found it again by its
   * keys): the starting point follows it when it was that sample, so the keys go on from it.
   */
  followed(from: number, to: number): void {
    if (this.cursor && 'sampleId' in this.cursor && this.cursor.sampleId === from)
      this.cursor = { ...this.cursor, sampleId: to };
  }

  /** Records the sample the user is reading (a preview or a sample tab was opened). */
  shown(sampleId: number): void {
    this.setCursor({ sampleId });
  }

  /** The base and the model in focus now, as a key ('' without a folder). */
  private pair(): string {
    const s = this.ext.active();
    return s ? `${s.focusModel()?.id}:${s.baseModel()?.id}` : '';
  }

  private setCursor(c: Cursor | undefined): void {
    this.cursor = c;
    this.cursorPair = c ? this.pair() : undefined;
  }

  /**
   * `c`, or, when the base or the model in focus changed since the user looked at it and it is a sample of a
   * model other than the one in focus now, the place before the first sample of its problem for the model in
   * focus (trial 13 finding 5: after the pair changed, the keys went on through the old model's samples, now
   * the base's, in a "Lost by RL" list of the new model in focus). Without a change of pair a step stays with
   * the model of the sample being read.
   */
  private refocused(c: Cursor): Cursor {
    if (!('sampleId' in c) || this.cursorPair === undefined || this.cursorPair === this.pair()) return c;
    const s = this.ext.active();
    const sample = s?.index.sample(c.sampleId);
    const focus = s?.focusModel();
    return sample && focus && sample.modelId !== focus.id ? { problemId: sample.problemId, modelId: focus.id } : c;
  }

  private sampleOfUri(uri: vscode.Uri): number | undefined {
    const a = parseSampleUri(uri);
    const s = this.ext.active();
    return a && s ? s.index.findSample(a.problemKey, a.modelKey, a.sampleIndex) : undefined;
  }

  /** A tree node as a starting point: a sample, or the place before the first sample under the node. */
  private cursorOfNode(node: Node): Cursor | undefined {
    const s = this.ext.active();
    switch (node.type) {
      case 'sample':
        return { sampleId: node.sample.id };
      case 'verdict':
        return { problemId: node.problemId, modelId: node.modelId };
      case 'model':
        if (node.problemId !== undefined) return { problemId: node.problemId, modelId: node.model.id };
        return this.firstProblem(node.model.id);
      case 'problem': {
        const modelId = node.modelId ?? s?.focusModel()?.id;
        return modelId !== undefined ? { problemId: node.problem.id, modelId } : undefined;
      }
      default:
        return undefined;
    }
  }

  /** Before the first sample of the first problem the tree lists for `modelId`. */
  private firstProblem(modelId: number): Cursor | undefined {
    const s = this.ext.active();
    const first = s ? this.ext.tree.order(s).problems(modelId)[0] : undefined;
    return first !== undefined ? { problemId: first, modelId } : undefined;
  }

  /** Where a command invoked with `arg` starts: the sample or node it names, else the last one seen. */
  private start(arg: unknown): Cursor | undefined {
    if (arg && typeof arg === 'object') {
      const a = arg as { sampleId?: unknown; type?: string; folder?: unknown };
      // A sample of another workspace folder (a preview left from before a switch): start as if fresh.
      if (typeof a.folder === 'string' && a.folder !== this.ext.active()?.folder.uri.toString())
        return this.start(undefined);
      // the sample shown in the preview (its toolbar and keys pass it): as the cursor when it is the one seen last
      if (typeof a.sampleId === 'number')
        return this.cursor && 'sampleId' in this.cursor && this.cursor.sampleId === a.sampleId
          ? this.refocused(this.cursor)
          : { sampleId: a.sampleId };
      // the place of a sample that left the index (the preview's buttons then: trial 14 finding 1)
      const at = arg as { problemId?: unknown; modelId?: unknown };
      if (typeof at.problemId === 'number' && typeof at.modelId === 'number' && a.type === undefined)
        return { problemId: at.problemId, modelId: at.modelId };
      if (typeof a.type === 'string') return this.cursorOfNode(arg as Node);
    }
    if (arg instanceof vscode.Uri) {
      const id = this.sampleOfUri(arg);
      if (id !== undefined) return { sampleId: id };
    }
    const s = this.ext.active();
    if (this.cursor && 'sampleId' in this.cursor && !s?.index.sample(this.cursor.sampleId)) this.setCursor(undefined);
    if (this.cursor) return this.refocused(this.cursor);
    const focus = s?.focusModel();
    return focus ? this.firstProblem(focus.id) : undefined;
  }

  /** Runs one step: shows the sample in the preview (keyboard stays put) and selects it in the tree. */
  async step(how: Step, arg?: unknown): Promise<void> {
    const s = this.ext.active();
    if (!s) return;
    const from = this.start(arg);
    if (!from) {
      vscode.window.setStatusBarMessage('Trace Inspector: no samples to step through', 4000);
      return;
    }
    const order = this.ext.tree.order(s);
    // Next Unannotated wraps to the first unannotated sample of the list, as editors' find does, and says so.
    const wrap = how === 'nextUnannotated' ? nextUnannotatedWrapping(s.index, order, from) : undefined;
    const sample = how === 'nextUnannotated' ? wrap?.sample : stepFrom(s.index, order, from, how);
    if (wrap?.wrapped)
      vscode.window.setStatusBarMessage(
        '$(debug-restart) Trace Inspector: no unannotated sample after this one: wrapped to the first',
        5000,
      );
    if (!sample) {
      const model = s.index.model('sampleId' in from ? (s.index.sample(from.sampleId)?.modelId ?? -1) : from.modelId);
      const what = how === 'nextUnannotated' ? 'unannotated sample' : how.endsWith('Problem') ? 'problem' : 'sample';
      const where = how.startsWith('previous')
        ? 'before this one'
        : how === 'nextUnannotated'
          ? 'other than this one'
          : 'after this one';
      vscode.window.setStatusBarMessage(
        `$(info) Trace Inspector: no ${what} ${where} for ${model ? s.shortLabel(model) : 'this model'} (${describeFilter(this.ext.tree.filter, s.focusModel(), s.baseModel(), (m) => s.shortLabel(m))})`,
        5000,
      );
      return;
    }
    this.setCursor({ sampleId: sample.id });
    if (this.ext.view.visible) {
      // Pressed in the tree (the keybinding says so): the tree's keyboard cursor moves along, so
      // Enter and the arrow keys go on from the sample shown; elsewhere the keyboard stays where it is.
      // Before the preview shows the sample: a key pressed as soon as it is shown (Alt+A) must not have its
      // picker lose the focus to the tree's reveal finishing after it (clean-clone CI, keyboard e2e).
      const focus = !!arg && typeof arg === 'object' && (arg as { focusTree?: unknown }).focusTree === true;
      this.ext.tree.showPagesOf(s, sample);
      await this.ext.view
        .reveal(this.ext.tree.sampleNode(s, sample), { select: true, focus })
        .then(undefined, () => undefined); // a node the tree cannot show (a page not loaded yet) is no error
    }
    await this.ext.openSample({ sampleId: sample.id }, true, true);
  }

  /**
   * "2nd of 5 problems (Failing: …) · 3rd of 8 samples" for the preview's header: positions in the tree's
   * list, as ordinals so that they are not read as the problem id and sample index beside them ("Problem 4
   * · sample 0"; trial 4 finding 12); null outside the tree's list.
   */
  position(sampleId: number): string | null {
    const s = this.ext.active();
    if (!s) return null;
    const p = positionOf(s.index, this.ext.tree.order(s), sampleId);
    if (!p) return null;
    const f = this.ext.tree.filter;
    const filter =
      f.kind === 'all' ? '' : ` (${describeFilter(f, s.focusModel(), s.baseModel(), (m) => s.shortLabel(m))})`;
    return `${ordinal(p.problem)} of ${p.problems} problem${p.problems === 1 ? '' : 's'}${filter} · ${ordinal(p.sample)} of ${p.samples} sample${p.samples === 1 ? '' : 's'}`;
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}

/**
 * Registers the five stepping commands (argument: `{ sampleId }`, a tree node, or nothing; the
 * tree's keybindings pass `{ focusTree: true }`).
 */
export function registerNavigation(nav: Navigator): vscode.Disposable[] {
  return (Object.keys(STEP_COMMANDS) as Step[]).map((how) =>
    vscode.commands.registerCommand(STEP_COMMANDS[how], (arg?: unknown) => nav.step(how, arg)),
  );
}
