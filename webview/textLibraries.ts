/**
 * The safe rendering pipeline of model output (markdown.ts: markdown-it + KaTeX; sanitize.ts: DOMPurify;
 * traceRender.ts: a long sample a piece at a time), as one object. The sample preview's bundle imports
 * it directly (webview/preview.ts); the chart views load it as a script of their own,
 * dist/webview-text.js (webview/textBundle.ts), after the first chart or when a sample is opened
 * (webview/textApi.ts), so that opening a problem view does not parse and run it before the chart.
 */
import { renderTrace } from './markdown';
import { setSanitizedHtml } from './sanitize';
import { renderTraceInto } from './traceRender';
import type { TextLibraries } from './textApi';

export const textLibraries: TextLibraries = { renderTrace, setSanitizedHtml, renderTraceInto };
