/**
 * Entry of dist/webview-text.js (IIFE): the rendering pipeline of model output (Markdown, KaTeX,
 * DOMPurify: {@link textLibraries}), published as `globalThis.__traceInspectorText` for the chart views
 * (webview/textApi.ts `textLoader` adds this script to the page when it is first needed). No stylesheet:
 * KaTeX's styles are in dist/webview.css.
 */
import { textLibraries } from './textLibraries';
import type { TextGlobal } from './textApi';

(globalThis as TextGlobal).__traceInspectorText = textLibraries;
