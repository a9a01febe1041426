/**
 * What counts as a long sample in the views, shared by the extension host and the webviews: a sample of
 * more than {@link LONG_SAMPLE_CHARS} characters. The preview and the problem view's Rendered tab render
 * only the part of it near what is shown (webview/traceRender.ts); its text tab opens as plain text, which the
 * editor does not tokenize (src/extension/sampleDocument.ts `sampleUri`). docs/read-samples.md says so.
 */

/**
 * Characters above which a sample is long: 40 pieces of 1,000 characters, a few screens of rendered text.
 * At or below it the preview keeps the whole sample in the page (the browser's find sees all of it) and the
 * text tab is Markdown.
 */
export const LONG_SAMPLE_CHARS = 40_000;
