/**
 * Notations the CAS step would read wrongly or not at all, read here first: matrices and vectors in
 * any LaTeX environment (the engine does not parse `\begin{array}` and keeps the environment name
 * in its form), and numbers written in another base (`1010_2`: the Compute Engine reads the subscript
 * as a base and gives ten, so `1010_2` would equal `10`; here it is the numeral "1010 in base 2", which
 * equals only other spellings of that numeral). Rules: docs/answer-equivalence.md.
 */

import { forEachTopLevel } from './relations';

/** The keys of a matrix's cells, computed by the caller's full pipeline (null: no value). */
export type CellKey = (cell: string) => string | null;

/** Matrix environments (`vmatrix`/`Vmatrix` are determinants, a number: not read as matrices). */
const MATRIX_RE =
  /^(?:\\left)?\s*[([]?\s*\\begin\s*\{(matrix|pmatrix|bmatrix|Bmatrix|smallmatrix|array)\}\s*(?:\{[^{}]*\})?([\s\S]*?)\\end\s*\{\1\}\s*(?:\\right)?\s*[)\]]?$/;

/** Splits at a top-level separator (outside brackets, `./relations.ts`); `\\` with its spacing argument (`\\[2pt]`) is one. */
function splitTop(s: string, sep: '\\\\' | '&'): string[] {
  const out: string[] = [];
  let start = 0;
  forEachTopLevel(s, (i) => {
    if (sep === '&' ? s[i] !== '&' : !s.startsWith('\\\\', i)) return 0;
    out.push(s.slice(start, i));
    const took = sep === '&' ? 1 : 2 + (/^\s*\[[^\]]*\]/.exec(s.slice(i + 2))?.[0].length ?? 0);
    start = i + took;
    return took;
  });
  out.push(s.slice(start));
  return out;
}

/**
 * The key of a matrix or vector written with `\begin{pmatrix}`, `bmatrix`, `Bmatrix`, `matrix`,
 * `smallmatrix` or `array` (its column specification ignored), optionally inside `\left( .. \right)`,
 * `( .. )` or `[ .. ]`: `M[r1c1,r1c2;r2c1,r2c2]`, each cell by `cellKey`. Rows split at `\\`, cells at
 * `&`; spacing, `\hline` and a final empty row do not count. So `\begin{pmatrix} -2 \\ -14 \end{pmatrix}`,
 * `\begin{bmatrix}-2\\-14\end{bmatrix}` and `\left[\begin{array}{c}-2\\-14\end{array}\right]` are one
 * answer (Math-Verify converts every environment to a SymPy Matrix). `null` when `s` is not one whole
 * matrix, a cell has no value, or the rows have different lengths.
 */
export function matrixKey(s: string, cellKey: CellKey): string | null {
  const m = MATRIX_RE.exec(s.trim());
  if (!m) return null;
  const body = m[2].replace(/\\(?:hline|toprule|midrule|bottomrule)(?![a-zA-Z])|\\cline\s*\{[^{}]*\}/g, ' ');
  const rows = splitTop(body, '\\\\').map((r) => r.trim());
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  if (rows.length === 0) return null;
  const cells = rows.map((r) => splitTop(r, '&').map((c) => cellKey(c.trim())));
  const width = cells[0].length;
  if (cells.some((r) => r.length !== width || r.some((c) => c === null))) return null;
  return `M[${cells.map((r) => r.join(',')).join(';')}]`;
}

/** A numeral with a base subscript: `1010_2`, `1010_{2}`, `(1010)_2`, `\text{1010}_2`, `{1010}_{(2)}`, `A3F_{16}`. */
const BASE_RE =
  /^(?:\(([0-9A-Za-z]+)\)|\{([0-9A-Za-z]+)\}|\\(?:text|mathrm|texttt)\s*\{([0-9A-Za-z]+)\}|([0-9A-Za-z]+))\s*_\s*(?:\{\s*\(?\s*(\d{1,2})\s*\)?\s*\}|(\d))$/;

/** A numeral written in a base: its digits (upper case, no leading zeros) and the base. */
export interface BaseNumeral {
  digits: string;
  base: number;
}

/**
 * A number written in a base from 2 to 36 with a subscript (`1010_2`, `204_{5}`, `(1010)_2`, `FF_{16}`):
 * digits and base; `null` when `s` is not one. A subscript on letters alone is a name (`x_2`, `a_{12}`),
 * except in base 16 (`FF_{16}`). A digit not allowed in the base (`1012_2`) is not a numeral either.
 */
export function baseNumeral(s: string): BaseNumeral | null {
  const m = BASE_RE.exec(s.trim());
  if (!m) return null;
  const raw = m[1] ?? m[2] ?? m[3] ?? m[4];
  const base = Number(m[5] ?? m[6]);
  if (base < 2 || base > 36 || (!/\d/.test(raw) && base !== 16)) return null;
  const digits = raw.toUpperCase();
  for (const c of digits) if (Number.parseInt(c, 36) >= base) return null;
  return { digits: digits.replace(/^0+(?=.)/, ''), base };
}
