/**
 * The sample preview: one sample rendered for reading (Markdown with math, `<think>` blocks
 * collapsed), under a header with the problem, the model and its role, the verdict, the extracted and
 * reference answers, and the annotation. One preview tab is reused for every sample; the toolbar runs
 * the same commands as the keybindings (next / previous sample and problem, next unannotated,
 * annotate). Model output is rendered by markdown.ts (no raw HTML, inert links, KaTeX without trust)
 * and DOMPurify; a link in it is a span that, when clicked, asks the host, which asks the user.
 */
import { h, replace } from './dom';
import type { TraceRender } from './traceRender';
import type { TextLibraries, TextSource } from './textApi';
import type { Rpc } from './rpc';
import type { PanelState, PreviewAction, SamplePreview } from '../src/shared/protocol';
import { modelRoleTag } from '../src/shared/modelRoles';

/**
 * The preview's handler of the host's `init` messages: the first creates the view in `root`, the next
 * ones (the host reuses one preview tab) show their sample in it. Shared by both webview bundles.
 */
export function previewInit(root: HTMLElement, rpc: Rpc, text: TextSource): (state: PanelState) => PreviewView {
  let view: PreviewView | undefined;
  return (state) => {
    if (view) view.show(state);
    else {
      view = new PreviewView(root, rpc, state, text);
      rpc.setState(state);
      void view.load();
    }
    return view;
  };
}

export class PreviewView {
  private render: TraceRender | undefined;
  private question: TraceRender | undefined;
  private generation = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly rpc: Rpc,
    private state: PanelState,
    /** The rendering pipeline of model output (built into dist/preview.js; loaded by dist/webview.js). */
    private readonly text: TextSource,
  ) {
    // Links in model output are inert spans; a click asks the host (which asks the user) to open one.
    root.addEventListener('click', (e) => {
      const link = (e.target as Element | null)?.closest?.('.md-link');
      const url = link?.getAttribute('title');
      if (url && /^https?:\/\//i.test(url)) void this.rpc.request('openLink', { url }).catch(() => undefined);
    });
  }

  /** Shows another sample in the same view (the host reuses one preview tab). */
  show(state: PanelState): void {
    this.state = state;
    this.rpc.setState(state);
    void this.load();
  }

  rerenderCharts(): void {
    /* no charts */
  }

  async load(): Promise<void> {
    const gen = ++this.generation;
    const id = this.state.sampleId;
    if (id === undefined) {
      replace(this.root, h('p', { className: 'muted' }, 'No sample selected.'));
      return;
    }
    try {
      const [p, lib] = await Promise.all([this.rpc.request('getSamplePreview', { sampleId: id }), this.text()]);
      if (gen !== this.generation) return;
      // the host found the sample again by its keys: after a re-index it has another row id (trial 14 finding 1)
      this.state = {
        ...this.state,
        sampleId: p.id,
        problemKey: `${p.problem.dataset}\x1f${p.problem.problemId}`,
        sampleIndex: p.sampleIndex,
      };
      this.rpc.setState(this.state);
      // the same sample again (the index, once ready, confirms what the restore cache showed): not rendered again
      if (this.shown && sameSample(this.shown, p)) this.updateShown(p);
      else this.renderSample(p, lib);
      this.shown = p;
    } catch (e) {
      if (gen === this.generation) this.renderError((e as Error).message, id);
    }
  }

  /**
   * The sample could not be shown (it left the index, its file changed, no folder yet): the reason, with
   * the steps through the tree's order, the problem view and a retry, so the tab is never a dead end (the
   * host steps from the sample's problem when the sample is gone: problemPanel.ts goneSampleAction).
   */
  private renderError(message: string, sampleId: number): void {
    this.shown = undefined;
    replace(
      this.root,
      h(
        'header',
        { className: 'preview-head' },
        h('h1', null, 'Sample not shown'),
        h(
          'div',
          { className: 'actions', role: 'toolbar', 'aria-label': 'sample navigation' },
          this.button('‹ Previous', 'Previous sample (Alt+[)', 'previousSample', sampleId),
          this.button('Next ›', 'Next sample (Alt+])', 'nextSample', sampleId),
          h(
            'vscode-button',
            {
              appearance: 'secondary',
              id: 'preview-retry',
              title: 'Load the sample again',
              'aria-label': 'Load the sample again',
              onclick: () => void this.load(),
            },
            'Reload',
          ),
          h(
            'vscode-button',
            {
              appearance: 'icon',
              title: 'Open the problem view',
              'aria-label': 'Open the problem view',
              onclick: () => this.action('openProblemView', sampleId),
            },
            '↗',
          ),
        ),
      ),
      h('p', { className: 'error', id: 'preview-error' }, `Could not load the sample: ${message}`),
    );
  }

  private action(action: PreviewAction, sampleId: number): void {
    void this.rpc.request('previewAction', { action, sampleId }).catch(() => undefined);
  }

  private button(label: string, title: string, action: PreviewAction, sampleId: number): HTMLElement {
    return h(
      'vscode-button',
      { appearance: 'secondary', title, 'aria-label': title, onclick: () => this.action(action, sampleId) },
      label,
    );
  }

  /** What the view shows now, to tell whether a new answer changes it. */
  private shown: SamplePreview | undefined;

  /** The note of data kept from before a window reload (restoreCache.ts) while the index is not ready. */
  private cachedNote(p: SamplePreview): HTMLElement | null {
    return p.cachedAt === undefined
      ? null
      : h(
          'p',
          { className: 'muted', id: 'preview-cached', role: 'status' },
          "As it was before the window reload: the folder's index is not ready yet; this sample is checked against it when it is.",
        );
  }

  /** The same sample, answered again: the cached note and the position follow it, the text stays as rendered. */
  private updateShown(p: SamplePreview): void {
    const note = this.cachedNote(p);
    const old = this.root.querySelector('#preview-cached');
    if (old && note) old.replaceWith(note);
    else if (old) old.remove();
    else if (note) this.root.querySelector('#preview-fields')?.before(note);
    const position = this.root.querySelector('#preview-position');
    if (position && p.position) position.textContent = p.position;
  }

  private renderSample(p: SamplePreview, lib: TextLibraries): void {
    this.render?.cancel();
    this.question?.cancel();
    const verdict = p.correct === true ? 'correct' : p.correct === false ? 'incorrect' : 'ungraded';
    const mark = p.correct === true ? '✓' : p.correct === false ? '✗' : '?';
    const role = modelRoleTag(p.model);
    const field = (name: string, value: string | number | null | undefined, code = false) =>
      value === null || value === undefined || value === ''
        ? null
        : h('div', { className: 'field' }, h('dt', null, name), h('dd', null, code ? h('code', null, value) : value));
    const body = h('div', { className: 'trace', id: 'preview-text', 'data-sample-index': p.sampleIndex });
    const progress = h('span', { className: 'muted', id: 'preview-progress', role: 'status' });
    const question = h('div', { className: 'trace question', id: 'preview-question' });
    replace(
      this.root,
      h(
        'header',
        { className: 'preview-head' },
        h(
          'h1',
          null,
          h('span', { className: `verdict ${verdict}`, 'aria-label': verdict, title: verdict }, mark),
          ` Problem ${p.problem.problemId} · sample ${p.sampleIndex}`,
        ),
        h(
          'div',
          { className: 'actions', role: 'toolbar', 'aria-label': 'sample navigation' },
          this.button('‹ Previous', 'Previous sample (Alt+[)', 'previousSample', p.id),
          this.button('Next ›', 'Next sample (Alt+])', 'nextSample', p.id),
          this.button('Next unannotated', 'Next unannotated sample (Alt+U)', 'nextUnannotated', p.id),
          this.button('Annotate…', 'Annotate this sample (Alt+A)', 'annotate', p.id),
          h(
            'vscode-button',
            {
              appearance: 'icon',
              title: 'Open as text',
              'aria-label': 'Open as text',
              onclick: () => this.action('openText', p.id),
            },
            '≡',
          ),
          h(
            'vscode-button',
            {
              appearance: 'icon',
              title: 'Open the problem view',
              'aria-label': 'Open the problem view',
              onclick: () => this.action('openProblemView', p.id),
            },
            '↗',
          ),
        ),
      ),
      p.position ? h('p', { className: 'muted position', id: 'preview-position' }, p.position) : null,
      this.cachedNote(p),
      h(
        'dl',
        { className: 'fields', id: 'preview-fields' },
        h(
          'div',
          { className: 'field' },
          h('dt', null, 'Model'),
          h('dd', { title: p.model.displayId }, p.model.label, role ? h('span', { className: 'tag' }, role) : null),
        ),
        // the answer check's second opinion beside the folder's verdict, never in its place (trial 10 finding 1)
        p.answerCheck
          ? h(
              'div',
              { className: 'field', id: 'preview-answer-check' },
              h('dt', null, 'Verdict'),
              h('dd', { className: 'answer-check' }, p.answerCheck),
            )
          : field('Verdict', verdict),
        field('Answer', p.extractedAnswer, true),
        field('Reference', p.problem.referenceAnswer, true),
        field('Reward score', p.rewardScore),
        field('Finish', p.finishReason),
        field(
          'Length',
          `${p.fullLength.toLocaleString('en-US')} characters${p.tokenCount !== null ? `, ${p.tokenCount} tokens` : ''}`,
        ),
        field('Dataset', `${p.problem.dataset}${p.problem.level ? ` · level ${p.problem.level}` : ''}`),
        field('Source', p.source, true),
        p.labels.length
          ? h(
              'div',
              { className: 'field' },
              h('dt', null, 'Labels'),
              h(
                'dd',
                { id: 'preview-labels' },
                p.labels.map((l) => h('span', { className: 'label-chip' }, l)),
              ),
            )
          : null,
        field('Note', p.note),
      ),
      p.problem.question ? h('details', { className: 'question-box' }, h('summary', null, 'Question'), question) : null,
      h('h2', null, 'Sample ', progress),
      p.truncated
        ? h(
            'p',
            { className: 'warning' },
            `Showing the first ${p.text.length.toLocaleString('en-US')} of ${p.fullLength.toLocaleString('en-US')} characters; open it as text for the rest.`,
          )
        : null,
      body,
    );
    // the question is collapsed: rendered after the sample's first piece, not in the same task
    if (p.problem.question) this.question = lib.renderTraceInto(question, p.problem.question, undefined, 0);
    this.render = lib.renderTraceInto(body, p.text, (done, total) => {
      progress.textContent = done < total ? `(rendering… ${Math.round((100 * done) / total)}%)` : '';
    });
    // its top is on screen now (the first slice renders at once): when (the e2e suite times restored tabs by it)
    body.setAttribute('data-shown-at', String(Date.now()));
    // a long sample is rendered as it is scrolled to (traceRender.ts): the browser's find sees what is rendered
    if (body.hasAttribute('data-virtual'))
      body.before(
        h(
          'p',
          { className: 'muted', id: 'preview-virtual-note' },
          'A long sample: rendered as you scroll. To search all of it, open it as text (≡).',
        ),
      );
  }
}

/**
 * Whether two answers show the same sample the same way: everything but when the restore cache kept it
 * (`cachedAt`) and where the sample sits in the tree (`position`, updated in place).
 */
export function sameSample(a: SamplePreview, b: SamplePreview): boolean {
  const strip = (p: SamplePreview) => JSON.stringify({ ...p, cachedAt: undefined, position: undefined });
  return strip(a) === strip(b);
}
