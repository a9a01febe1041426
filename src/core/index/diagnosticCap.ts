import type { Diagnostic } from '../model';

/** Diagnostics kept per file and kind; the rest of that kind are counted in one summary diagnostic. */
export const DIAGNOSTICS_PER_KIND = 50;

/** The part of a cross-file duplicate diagnostic that names the file holding the first copy (writer.ts). */
const DUPLICATE_OF = ' already indexed from ';

/**
 * The kind of a diagnostic message: the message with its details blanked (quoted text, parenthesised
 * text, numbers), so that `malformed JSON (Unexpected token } at position 12)` at every line of a
 * pretty-printed file is one kind, and `rollouts[3].text is missing` and `rollouts[7].text is missing`
 * are one kind. A cross-file duplicate keeps the file it names (the indexer re-reads a file when the
 * file its duplicates point at changes, so each of those files must stay named).
 */
export function diagnosticKind(severity: Diagnostic['severity'], message: string): string {
  const at = message.lastIndexOf(DUPLICATE_OF);
  const head = at >= 0 ? message.slice(0, at) : message;
  const tail = at >= 0 ? message.slice(at) : '';
  let k = head.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  // innermost parentheses first, until none is left: `(... (line 1 column 2))` is one detail
  for (let prev = ''; prev !== k; ) {
    prev = k;
    k = k.replace(/\([^()]*\)/g, '');
  }
  return `${severity}:${k.replace(/\d+/g, '#')}${tail}`;
}

/**
 * Caps the diagnostics of one file per kind ({@link diagnosticKind}): the first
 * {@link DIAGNOSTICS_PER_KIND} of a kind are written as they come; the others are counted, and
 * {@link finish} writes one more diagnostic per capped kind, at the line of the first left out:
 * `and N more like this, the first at line L: <its message>`. So forcing a line reader on a
 * pretty-printed JSON file gives a few dozen diagnostics, not one per line, and none is lost silently.
 */
export class DiagnosticCap {
  private readonly kinds = new Map<
    string,
    {
      count: number;
      first?: { line: number; severity: Diagnostic['severity']; message: string; file: string; entry?: string };
    }
  >();

  constructor(
    /**
     * Writes one diagnostic; `file` is the file it is shown on (the file read, or a mapping file); `entry` the
     * archive entry it is at, instead of a line (model.ts `Diagnostic.entry`).
     */
    private readonly write: (
      line: number,
      severity: Diagnostic['severity'],
      message: string,
      file: string,
      entry?: string,
    ) => void,
    private readonly perKind = DIAGNOSTICS_PER_KIND,
  ) {}

  /** Adds one diagnostic shown on `file`, at `line` or archive `entry` (capped per file shown on and kind). */
  add(line: number, severity: Diagnostic['severity'], message: string, file = '', entry?: string): void {
    const key = `${file}\x1f${diagnosticKind(severity, message)}`;
    let k = this.kinds.get(key);
    if (!k) this.kinds.set(key, (k = { count: 0 }));
    k.count++;
    if (k.count <= this.perKind) this.write(line, severity, message, file, entry);
    else k.first ??= { line, severity, message, file, ...(entry ? { entry } : {}) };
  }

  /** Writes the summary of every capped kind (call once, after the file's last diagnostic). */
  finish(): void {
    for (const k of this.kinds.values()) {
      if (!k.first) continue;
      const more = k.count - this.perKind;
      const at = k.first.entry ? k.first.entry : `line ${k.first.line}`;
      this.write(
        k.first.line,
        k.first.severity,
        `and ${more} more like this, the first at ${at}: ${k.first.message}`,
        k.first.file,
        k.first.entry,
      );
    }
    this.kinds.clear();
  }
}
