import * as vscode from 'vscode';
import { problemNamer } from '../core/grouping/datasets';
import { answerCheckNote } from '../core/analyses/graderAudit';
import { SourceChangedError } from '../core/index/sampleText';
import type { SampleDetail } from '../core/index/traceIndex';
import type { FolderSession } from './session';
import { LONG_SAMPLE_CHARS } from '../shared/longSample';

/** Whether a sample of `length` characters is long (its text tab is plain text): more than {@link LONG_SAMPLE_CHARS}. */
export function isLongSample(length: number): boolean {
  return length > LONG_SAMPLE_CHARS;
}

export const SAMPLE_SCHEME = 'trace-sample';

/** What a sample URI names: stable keys (row ids change when the folder is re-indexed). */
export interface SampleAddress {
  folder: string;
  problemKey: string;
  modelKey: string;
  sampleIndex: number;
}

/**
 * `trace-sample:/<problem>/<model>/problem <id> · <model> · sample <i>.md?<keys>`: readable path, keys in the
 * query; `.txt` instead of `.md` for a long sample ({@link isLongSample}).
 */
export function sampleUri(session: FolderSession, sample: SampleDetail | { id: number }): vscode.Uri | undefined {
  const ref = session.annotations.refOf(sample.id);
  const detail = session.index.sample(sample.id);
  if (!ref || !detail) return undefined;
  const problem = session.index.problem(detail.problemId);
  const model = session.index.model(detail.modelId);
  const clean = (s: string) => s.replace(/[\\/:*?"<>|#%\u0000-\u001f]/g, '_').slice(0, 60);
  const query = new URLSearchParams({
    folder: session.folder.uri.toString(),
    p: ref.problemKey,
    m: ref.modelKey,
    i: String(ref.sampleIndex),
  }).toString();
  return vscode.Uri.from({
    scheme: SAMPLE_SCHEME,
    // The tab shows the last segment: make it say which problem (with its dataset when the folder's problem
    // ids repeat across datasets: trial 6 finding 6), model and sample.
    // A long sample is plain text (`.txt`): the editor does not tokenize it (as Markdown, a 300,000-character
    // sample held the workbench 1.16 s when its tab opened). The name decides the language, also after a reload.
    path: `/${clean(problem?.problemId ?? 'problem')}/${clean(model?.label ?? 'model')}/problem ${clean(problem ? problemNamer(session.index)(problem.id) : '?')} · ${clean(model ? session.shortLabel(model) : 'model')} · sample ${ref.sampleIndex}${isLongSample(detail.length) ? '.txt' : '.md'}`,
    query,
  });
}

export function parseSampleUri(uri: vscode.Uri): SampleAddress | undefined {
  if (uri.scheme !== SAMPLE_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const folder = q.get('folder');
  const p = q.get('p');
  const m = q.get('m');
  const i = Number(q.get('i'));
  if (folder === null || p === null || m === null || !Number.isInteger(i)) return undefined;
  return { folder, problemKey: p, modelKey: m, sampleIndex: i };
}

const fence = (text: string) => {
  // A fence longer than any backtick run in the text, so model output cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
};

/** One header line: `- **name:** value`, the value in a code span (so no Markdown in it is live). */
function field(name: string, value: string | number | null | undefined, code = true): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value).replace(/\s+/g, ' ').trim();
  if (!code) return `- **${name}:** ${text}\n`;
  // A backtick run longer than any in the value, padded when the value starts or ends with a backtick.
  const ticks = '`'.repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `- **${name}:** ${ticks}${pad}${text}${pad}${ticks}\n`;
}

/**
 * The read-only text of a sample tab: a Markdown header (problem, reference answer, model,
 * correctness, extracted answer, reward score, finish reason, length, annotation) followed by the
 * sample text unchanged. Shown as plain text in the editor (Markdown language mode for its
 * outline, plain text for a long sample); Open Sample Preview renders the sample in the project's own
 * preview instead.
 */
export function renderSample(session: FolderSession, d: SampleDetail): string {
  const problem = session.index.problem(d.problemId);
  const model = session.index.model(d.modelId);
  const ref = session.annotations.refOf(d.id);
  const ann = ref ? session.annotations.get(ref) : undefined;
  const verdict = d.correct === null ? 'ungraded' : d.correct ? 'correct' : 'incorrect';
  // Ids and names come from the data: one line, no control characters, Markdown-escaped.
  const title = (v: string) =>
    v
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/([\\`*[\]<>#|~])/g, '\\$1');
  // the model's short name, as the tree and the preview name it; the full id is the Model field (trial 13 finding 8)
  let out = `# Problem ${title(problem?.problemId ?? '?')} · ${title(model ? session.shortLabel(model) : '?')} · sample ${d.sampleIndex}\n\n`;
  out += field('Dataset', problem?.dataset);
  out += field('Level', problem?.level);
  out += field('Reference answer', problem?.referenceAnswer);
  out += field('Model', model?.displayId);
  // the grader audit's answer check beside the folder's verdict, never in its place (trial 10 finding 1)
  out += field(
    'Correctness',
    answerCheckNote(d.correct, d.extractedAnswer, problem?.referenceAnswer) ?? verdict,
    false,
  );
  out += field('Extracted answer', d.extractedAnswer);
  out += field('Reward score', d.rewardScore);
  out += field('Finish reason', d.finishReason);
  out += field('Length', `${d.length} characters${d.tokenCount !== null ? `, ${d.tokenCount} tokens` : ''}`, false);
  out += field('Source', `${d.file}:${d.line}`);
  if (ann) {
    out += field('Labels', ann.labels.join(', '));
    out += field('Note', ann.note);
  }
  if (problem?.question) {
    const f = fence(problem.question);
    out += `\n## Question\n\n${f}text\n${problem.question}\n${f}\n`;
  }
  out += `\n## Sample\n\n${d.text}\n`;
  return out;
}

/**
 * Serves sample documents from the index as a read-only file system (`trace-sample:`). A file system
 * rather than a content provider so that sample tabs come back after a window reload: resolving a
 * `trace-sample:` editor fires the `onFileSystem:trace-sample` activation event and waits for this
 * provider, where a content provider registered a moment too late leaves the tab closed. The text is
 * {@link renderSample}'s; its modification time moves when annotations or the index change, and open
 * sample tabs reload.
 */
/** How many served sample addresses {@link SampleDocumentProvider} remembers for its refreshes. */
const SERVED_MAX = 500;

export class SampleDocumentProvider implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  /** Bumped on every refresh: the mtime of every sample document. */
  private version = Date.now();
  /**
   * The sample addresses served lately (newest last, at most {@link SERVED_MAX}): a refresh tells VS Code
   * that each of them changed, not only the open documents, since the workbench may keep the text of a
   * closed sample tab and show it again on reopening (after a re-index, the text it kept would be stale).
   */
  private readonly served = new Map<string, vscode.Uri>();

  constructor(private readonly sessionFor: (folder: string) => FolderSession | undefined) {}

  /** The document text of a sample address (a message when it cannot be served). */
  async text(uri: vscode.Uri): Promise<string> {
    this.served.delete(uri.toString());
    this.served.set(uri.toString(), uri);
    if (this.served.size > SERVED_MAX) this.served.delete(this.served.keys().next().value as string);
    const a = parseSampleUri(uri);
    if (!a) return 'Not a sample address.';
    const session = this.sessionFor(a.folder);
    if (!session) return 'The results folder of this sample is not open.';
    const id = session.index.findSample(a.problemKey, a.modelKey, a.sampleIndex);
    const d = id !== undefined ? session.index.sample(id) : undefined;
    if (!d) return 'This sample is no longer in the index (its results file changed or was removed).';
    try {
      // the text is read from the results file, checked against the hash stored when it was indexed
      const text = await session.sampleText(d.id);
      if (text === undefined) return 'This sample is no longer in the index (its results file changed or was removed).';
      return renderSample(session, { ...d, text });
    } catch (e) {
      if (!(e instanceof SourceChangedError)) throw e;
      // never "annotations are kept": one whose sample's text changed is shown on no sample after the re-index (trial 14 finding 2)
      return `${e.file} changed since it was indexed: this sample's text is not shown until the folder is indexed again (Trace Inspector: Index Folder; with automatic indexing on, the folder is indexed again shortly). An annotation stays on its sample when the sample's text is unchanged.`;
    }
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return {
      type: vscode.FileType.File,
      ctime: this.version,
      mtime: this.version,
      size: Buffer.byteLength(await this.text(uri), 'utf8'),
      permissions: vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return Buffer.from(await this.text(uri), 'utf8');
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  /** Re-renders open sample documents, and any the workbench may have kept (after an annotation or a re-index). */
  refreshAll(): void {
    this.version = Date.now();
    const uris = new Map(this.served);
    for (const d of vscode.workspace.textDocuments)
      if (d.uri.scheme === SAMPLE_SCHEME) uris.set(d.uri.toString(), d.uri);
    if (uris.size) this.emitter.fire([...uris.values()].map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
