/**
 * The report's tables for a paper (`report --format markdown`, `--format latex`): sections give their tables
 * as {@link DocTable}s (src/core/report/section.ts `document`), format-neutral plain text; this module renders
 * them as GitHub-flavoured Markdown or as LaTeX tabulars in booktabs style. Cells hold the same rounded numbers
 * as the text table (src/core/report/render.ts `pct`, shared/passAtKCell.ts).
 */

/** A table of the report for a paper: plain text cells (escaped by each renderer). */
export interface DocTable {
  /** The table's title (a Markdown heading, a LaTeX comment and caption text). */
  title: string;
  head: string[];
  /** Per column: left- or right-aligned (numbers right). */
  align: ('l' | 'r')[];
  /** Rows of `head.length` cells; `notes`: 1-based numbers of the table's {@link DocTable.notes} the row refers to. */
  rows: { cells: string[]; notes?: number[] }[];
  /** Numbered footnotes (problems left out and why), referred to by rows. */
  notes: string[];
  /** Lines under the table that every row shares (what the intervals are, what `(a/b)` means). */
  legend: string[];
}

/**
 * `s` for a GitHub-flavoured Markdown table cell: backslash, the characters that start emphasis, code or
 * HTML (`` * _ ` < > ``) and the cell separator `|` escaped with a backslash; line breaks as spaces.
 */
export function markdownEscape(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/[\\`*_|<>]/g, (c) => `\\${c}`);
}

/** Characters outside ASCII the report writes, as LaTeX that pdfLaTeX reads without a Unicode font. */
const LATEX_UNICODE: Record<string, string> = {
  '—': '---',
  '–': '--',
  '·': '\\textperiodcentered{}',
  '≥': '$\\geq$',
  '≤': '$\\leq$',
  '…': '\\ldots{}',
  '×': '$\\times$',
  '−': '$-$',
  // OT1, LaTeX's default font encoding, has no < > | in text: they would print as ¡ ¿ —
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/**
 * `s` as LaTeX text: the ten special characters escaped (`\ { } _ % & # $ ~ ^`: `\textbackslash{}`, `\{`,
 * `\}`, `\_`, `\%`, `\&`, `\#`, `\$`, `\textasciitilde{}`, `\textasciicircum{}`), `< > |` as `\textless{}`,
 * `\textgreater{}`, `\textbar{}` (the default OT1 encoding prints `¡ ¿ —` for them), the dashes, `·`, `≥`, `≤`, `…`,
 * `×` and `−` the report writes as LaTeX of their own; other characters are left as they are (UTF-8 input,
 * LaTeX's default since 2018). Line breaks become spaces.
 */
export function latexEscape(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/[\\{}_%&#$~^—–·≥≤…×−<>|]/g, (c) => {
    if (c === '\\') return '\\textbackslash{}';
    if (c === '~') return '\\textasciitilde{}';
    if (c === '^') return '\\textasciicircum{}';
    return LATEX_UNICODE[c] ?? `\\${c}`;
  });
}

/**
 * The tables as Markdown: per table a `###` heading, a pipe table (header, a separator row with `:` on the
 * right of right-aligned columns, one line per row, each with the header's number of cells), footnote marks
 * `[^t-n]` (GitHub footnotes, `t` the table's number) after the first cell, then the legend (lines ending in two
 * spaces: line breaks) and, after a blank line, the footnotes.
 */
export function markdownTables(tables: readonly DocTable[]): string {
  return tables
    .map((t, ti) => {
      const mark = (n: number) => `[^${ti + 1}-${n}]`;
      const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
      const out = [
        `### ${markdownEscape(t.title)}`,
        '',
        line(t.head.map(markdownEscape)),
        line(t.align.map((a) => (a === 'r' ? '---:' : '---'))),
        ...t.rows.map((r) =>
          line(r.cells.map((c, j) => markdownEscape(c) + (j === 0 ? (r.notes ?? []).map(mark).join('') : ''))),
        ),
      ];
      if (t.legend.length) out.push('', ...t.legend.map((l) => `${markdownEscape(l)}  `));
      // after a blank line: a line under a footnote's definition would continue the footnote
      if (t.notes.length) out.push('', ...t.notes.map((n, i) => `${mark(i + 1)}: ${markdownEscape(n)}`));
      return out.join('\n');
    })
    .join('\n\n');
}

/**
 * The tables as LaTeX: per table a `tabular` in booktabs style (`\toprule`, `\midrule`, `\bottomrule`; the
 * preamble needs `\usepackage{booktabs}`), its column spec from `align`, every row `head.length` cells
 * joined by `&`, footnote marks `\textsuperscript{n}` after the first cell, the footnotes and legend under
 * the rule as `\multicolumn` rows spanning the table (`p{...}` of `\linewidth`, so long notes wrap), each cell
 * escaped by {@link latexEscape}. A `%` comment line names the table; no float or caption, so the table can
 * go into any `table` environment.
 */
export function latexTables(tables: readonly DocTable[]): string {
  return tables
    .map((t) => {
      const cols = t.head.length;
      const row = (cells: string[]) => `${cells.join(' & ')} \\\\`;
      const note = (text: string) => `\\multicolumn{${cols}}{p{0.95\\linewidth}}{\\footnotesize ${text}} \\\\`;
      const out = [
        `% ${latexEscape(t.title)}`,
        `\\begin{tabular}{${t.align.join('')}}`,
        '\\toprule',
        row(t.head.map(latexEscape)),
        '\\midrule',
        ...t.rows.map((r) =>
          row(
            r.cells.map(
              (c, j) => latexEscape(c) + (j === 0 && r.notes?.length ? `\\textsuperscript{${r.notes.join(',')}}` : ''),
            ),
          ),
        ),
        '\\bottomrule',
        ...t.notes.map((n, i) => note(`\\textsuperscript{${i + 1}}${latexEscape(n)}`)),
        ...t.legend.map((l) => note(latexEscape(l))),
        '\\end{tabular}',
      ];
      return out.join('\n');
    })
    .join('\n\n');
}
