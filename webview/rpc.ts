/**
 * The webview end of src/shared/protocol.ts: requests with ids and promised replies, validation of
 * every message from the host, and the saved panel state.
 */
import {
  type ChartLayout,
  type FiguresProgress,
  validateHostMessage,
  type HostMessage,
  type PanelState,
  type RequestKind,
  type RequestParams,
  type ResultOf,
  type ViewKind,
  type WebviewMessage,
} from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export class Rpc {
  private readonly api: VsCodeApi;
  private seq = 1;
  private readonly pending = new Map<
    number,
    {
      resolve: (v: unknown) => void;
      reject: (e: Error) => void;
      kind: RequestKind;
      onProgress?: (p: FiguresProgress) => void;
    }
  >();
  onInit: (s: PanelState) => void = () => undefined;
  onChanged: () => void = () => undefined;

  constructor(private readonly view: ViewKind) {
    this.api = acquireVsCodeApi();
    // the messages that came before this script ran (src/extension/panelHtml.ts EARLY_MESSAGES), in order
    const w = window as unknown as { __tiEarlyMessages?: unknown[]; __tiEarlyListener?: (e: MessageEvent) => void };
    if (w.__tiEarlyListener) window.removeEventListener('message', w.__tiEarlyListener);
    const early = [...initDataBlock(), ...(w.__tiEarlyMessages ?? [])];
    w.__tiEarlyMessages = undefined;
    window.addEventListener('message', (e: MessageEvent) => this.receive(e.data));
    // after the caller has set onInit (start() runs before any queued task)
    if (early.length > 0) queueMicrotask(() => this.replay(early));
  }

  /** Handles the messages kept by the page's first script; called once. */
  private replay(messages: unknown[]): void {
    for (const m of messages) this.receive(m);
  }

  start(): void {
    mark('ti:ready');
    this.send({ id: this.seq++, kind: 'ready', view: this.view });
  }

  private send(m: WebviewMessage): void {
    this.api.postMessage(m);
  }

  /** The state of the last init shown (JSON), to skip an init that repeats it. */
  private initKey: string | undefined;

  /** The data the host sent with the init (answers the first matching `getProblem` or `getSamplePreview`, once). */
  private prefetched: Extract<HostMessage, { kind: 'init' }>['prefetched'];

  /**
   * Sends a request; the promise settles with its reply or error. `onProgress` gets the host's `progress`
   * messages for it (the overview's figures, computed in a worker: what is being computed now), until the reply.
   */
  request<K extends RequestKind>(
    kind: K,
    params: RequestParams[K],
    onProgress?: (p: FiguresProgress) => void,
  ): Promise<ResultOf<K>> {
    const f = this.prefetched;
    if (f && f.request === kind) {
      this.prefetched = undefined;
      const same =
        f.request === 'getProblem'
          ? f.problemId === (params as RequestParams['getProblem']).problemId
          : f.sampleId === (params as RequestParams['getSamplePreview']).sampleId;
      if (same) {
        mark('ti:prefetched');
        return Promise.resolve(f.result as ResultOf<K>);
      }
    }
    const id = this.seq++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, kind, onProgress });
      this.send({ id, kind, ...params } as unknown as WebviewMessage);
    });
  }

  /** Tells the host where this page drew its pass@k chart (for the next new view's first charts; no reply). */
  chartLayout(layout: ChartLayout): void {
    this.send({ id: this.seq++, kind: 'chartLayout', layout });
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    this.send({ id: this.seq++, kind: 'log', level, message: message.slice(0, 4000) });
  }

  private receive(data: unknown): void {
    const m = validateHostMessage(data);
    if (typeof m === 'string') {
      console.warn(`Trace Inspector: ignored a message from the host: ${m}`);
      return;
    }
    this.dispatch(m);
  }

  private dispatch(m: HostMessage): void {
    switch (m.kind) {
      case 'init': {
        // the host posts a problem view's init before the page has loaded and again in answer to its
        // `ready` (src/extension/problemPanel.ts postEarlyInit): the same state twice is shown once
        const key = JSON.stringify(m.state);
        if (key === this.initKey) return;
        this.initKey = key;
        mark('ti:init');
        this.prefetched = m.prefetched;
        this.onInit(m.state);
        return;
      }
      case 'changed':
        this.onChanged();
        return;
      case 'reply': {
        const p = this.pending.get(m.replyTo);
        if (!p) return;
        this.pending.delete(m.replyTo);
        if (p.kind !== m.request) p.reject(new Error(`reply to ${p.kind} carried ${m.request}`));
        else p.resolve(m.result);
        return;
      }
      case 'error': {
        const p = this.pending.get(m.replyTo);
        if (!p) return;
        this.pending.delete(m.replyTo);
        p.reject(new Error(m.message));
        return;
      }
      case 'progress':
        this.pending.get(m.replyTo)?.onProgress?.(m.progress);
        return;
    }
  }

  getState(): Partial<PanelState> | undefined {
    const s = this.api.getState();
    return s && typeof s === 'object' ? (s as Partial<PanelState>) : undefined;
  }

  /** Fields merged into every state saved with {@link setState} (the overview's tab, kept by main.ts). */
  stateExtras: Partial<PanelState> = {};

  setState(s: PanelState): void {
    this.api.setState({ ...s, ...this.stateExtras });
  }
}

/**
 * The init message the host wrote into the page (src/extension/panelHtml.ts `initMessage`: a JSON data
 * block, `<script type="application/json" id="ti-init">`, never run), as a list of zero or one message to
 * handle before the posted ones; it is validated as every message from the host is (`receive`). Nothing
 * when the page has none or its text is not JSON (reported on the console).
 */
function initDataBlock(): unknown[] {
  const el = document.getElementById('ti-init');
  if (!el || el.tagName !== 'SCRIPT' || el.getAttribute('type') !== 'application/json') return [];
  try {
    return [JSON.parse(el.textContent ?? '')];
  } catch (e) {
    console.warn(`Trace Inspector: ignored the page's init data: ${(e as Error).message}`);
    return [];
  }
}

/**
 * A User Timing mark (`performance.mark`) named `ti:...`: the e2e speed test (test/e2e/perf.e2e.ts)
 * reads them to say where the time from the click to the chart went. Never throws.
 */
export function mark(name: string): void {
  try {
    performance.mark(name);
  } catch {
    /* no User Timing API */
  }
}
