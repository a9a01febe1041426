/**
 * JSON for a terminal: `JSON.stringify` escapes C0 controls (ESC, BEL, NUL...) but leaves DEL, the C1
 * controls (U+0080..U+009F, including the 8-bit CSI U+009B) and the bidi overrides raw; they are
 * written as `\uXXXX` escapes here. The output is still valid JSON that parses to the same value.
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
