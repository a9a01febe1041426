// sqlite-parity: skip — the Markdown and LaTeX renderers of the report; report-golden compares whole reports under node:sqlite
/**
 * `report --format markdown` and `--format latex` (src/core/report/document.ts through the sections' `document`):
 * the tables are checked by parsing them back, not by a renderer. LaTeX is not compiled here: the test machines
 * and CI have no TeX distribution, and one `pdflatex` run costs seconds of the CI's tight budget; the parse
 * check (balanced braces, every row's `&` count against the `tabular`'s columns, booktabs rules in order, special
 * characters escaped) covers what a compile of these generated tables fails on.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex } from '../../src/core/index/traceIndex';
import {
  buildReport,
  latexEscape,
  markdownEscape,
  reportDocument,
  reportLatex,
  reportMarkdown,
} from '../../src/core/report/index';
import { pct } from '../../src/core/report/render';
import { REAL, tempDir, writeRollouts } from './helpers';

/** The cells of a Markdown pipe-table line (split at `|` not escaped by a backslash). */
function mdCells(line: string): string[] {
  assert.match(line, /^\| .* \|$/, `a table line: ${line}`);
  return line
    .slice(2, -2)
    .split(/(?<!\\) \| /)
    .map((c) => c.trim());
}

/** Every Markdown table of `md`: its header cells, separator cells and rows of cells; asserts their shapes agree. */
function parseMarkdown(md: string): { head: string[]; rows: string[][] }[] {
  const tables: { head: string[]; rows: string[][] }[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('### ')) continue;
    assert.equal(lines[i + 1], '', 'a blank line after the heading');
    const head = mdCells(lines[i + 2]);
    const sep = mdCells(lines[i + 3]);
    assert.equal(sep.length, head.length, 'the separator has a cell per column');
    for (const s of sep) assert.match(s, /^---:?$/);
    const rows: string[][] = [];
    for (let j = i + 4; j < lines.length && lines[j].startsWith('|'); j++) {
      const cells = mdCells(lines[j]);
      assert.equal(cells.length, head.length, `row ${j}: as many cells as the header: ${lines[j]}`);
      rows.push(cells);
    }
    tables.push({ head, rows });
  }
  return tables;
}

/** `&` not escaped as `\&`. */
const ampersands = (line: string) => (line.match(/(?<!\\)&/g) ?? []).length;

/** Checks every tabular of `tex` (braces, rules, `&` per row against the column spec); returns each one's rows. */
function parseLatex(tex: string): { columns: number; rows: string[] }[] {
  // braces balance, escaped ones (\{ \}) aside
  let depth = 0;
  for (const c of tex.replace(/\\[{}]/g, '').replace(/\\textbackslash\{\}/g, '')) {
    if (c === '{') depth++;
    if (c === '}') depth--;
    assert.ok(depth >= 0, 'no } before its {');
  }
  assert.equal(depth, 0, 'braces balance');
  const out: { columns: number; rows: string[] }[] = [];
  for (const m of tex.matchAll(/\\begin\{tabular\}\{([lrc]+)\}\n([\s\S]*?)\n\\end\{tabular\}/g)) {
    const columns = m[1].length;
    const lines = m[2].split('\n');
    assert.equal(lines[0], '\\toprule');
    assert.equal(lines[2], '\\midrule');
    const bottom = lines.indexOf('\\bottomrule');
    assert.ok(bottom > 2, 'a \\bottomrule after the rows');
    const rows = [lines[1], ...lines.slice(3, bottom)];
    for (const r of rows) {
      assert.ok(r.endsWith(' \\\\'), `a row ends with \\\\: ${r}`);
      assert.equal(ampersands(r), columns - 1, `a row has ${columns - 1} &: ${r}`);
    }
    for (const n of lines.slice(bottom + 1)) {
      assert.ok(n.startsWith(`\\multicolumn{${columns}}{`), `a note spans the table: ${n}`);
      assert.equal(ampersands(n), 0);
    }
    out.push({ columns, rows });
  }
  assert.ok(out.length > 0, 'at least one tabular');
  assert.equal(out.length, (tex.match(/\\begin\{tabular\}/g) ?? []).length, 'every tabular parsed');
  return out;
}

describe('report --format markdown and latex on real folders', async () => {
  const qwen = TraceIndex.open(':memory:');
  await indexFolder(qwen, join(REAL, 'qwen25-math-eval-example'));
  const qr = buildReport(qwen, { replicates: 200 });
  const tot = TraceIndex.open(':memory:');
  await indexFolder(tot, join(REAL, 'tot-game24'));
  const tr = buildReport(tot, { replicates: 200 });

  test("markdown: header, separator and rows agree; pass@k cells are the table's rounding of the JSON", () => {
    const [t] = parseMarkdown(reportMarkdown(qr));
    const m = qr.models[0];
    assert.deepEqual(t.head, ['model', 'problems', 'samples', ...m.passAtK.map((p) => `pass@${p.k}`)]);
    assert.deepEqual(t.rows[0].slice(0, 3), ['math\\_cot\\_100', '100', '800']);
    assert.deepEqual(
      t.rows[0].slice(3),
      m.passAtK.map((p) => `${pct(p.value)} [${pct(p.ciLow)}, ${pct(p.ciHigh)}]`),
    );
  });

  test('report --format markdown and latex on the command line (dist/cli.js) print the same tables', () => {
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const dir = join(REAL, 'qwen25-math-eval-example');
    const db = join(tempDir(), 'i.db');
    const run = (format: string) =>
      execFileSync(
        process.execPath,
        [cli, 'report', dir, '--db', db, '-q', '--replicates', '200', '--format', format],
        {
          encoding: 'utf8',
        },
      );
    assert.equal(run('markdown'), `${reportMarkdown(qr)}\n`);
    assert.equal(run('latex'), `${reportLatex(qr)}\n`);
  });

  test('--k chooses the pass@k columns of both formats; a k no model has is an error naming the ks', () => {
    const [t] = parseMarkdown(reportMarkdown(qr, { ks: [1, 8] }));
    const m = qr.models[0];
    assert.deepEqual(t.head, ['model', 'problems', 'samples', 'pass@1', 'pass@8']);
    const at = (k: number) => m.passAtK.find((p) => p.k === k);
    assert.deepEqual(
      t.rows[0].slice(3),
      [at(1), at(8)].map((p) => `${pct(p?.value)} [${pct(p?.ciLow)}, ${pct(p?.ciHigh)}]`),
    );
    assert.match(reportLatex(qr, { ks: [8] }), /pass@8/);
    assert.doesNotMatch(reportLatex(qr, { ks: [8] }), /pass@4/);
    assert.throws(() => reportMarkdown(qr, { ks: [3] }), /--k 3: no model has pass@k at that k; the ks are 1, 2, 4, 8/);
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const out = execFileSync(
      process.execPath,
      [
        cli,
        'report',
        join(REAL, 'qwen25-math-eval-example'),
        '--db',
        join(tempDir(), 'i.db'),
        '-q',
        '--replicates',
        '200',
        '--format',
        'markdown',
        '--k',
        '8,1',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(out, `${reportMarkdown(qr, { ks: [1, 8] })}\n`);
  });

  test('--k at a k one model has and another does not: "not computed" below its n, "k > n" above, each in the legend', () => {
    // tot-game24: two models with n = 100 (ks 1, 2, 4, ..., 64, 100), one with n = 5 (ks 1, 2, 4, 5)
    const md = reportMarkdown(tr, { ks: [1, 5, 100] });
    const [t] = parseMarkdown(md);
    const cell = (row: number, k: number) => t.rows[row][t.head.indexOf(`pass@${k}`)];
    const byN = (n: number) => tr.models.findIndex((m) => Math.max(...m.passAtK.map((p) => p.k)) === n);
    assert.equal(cell(byN(100), 5), 'not computed');
    assert.match(cell(byN(100), 100), /^\d/);
    assert.match(cell(byN(5), 5), /^\d/);
    assert.equal(cell(byN(5), 100), '— (k \\> n)');
    assert.match(md, /not computed: pass@k is computed at k = 1, 2, 4, 8, \.\.\. and each model's largest n/);
    assert.match(md, /k is above the model's largest number of graded samples per problem/);
  });

  test('markdown and latex of three models and two comparisons: both tables, the same cells', () => {
    const md = parseMarkdown(reportMarkdown(tr));
    const tex = parseLatex(reportLatex(tr));
    const doc = reportDocument(tr);
    assert.deepEqual(
      doc.map((d) => d.title),
      ['pass@k per model', 'model against base'],
    );
    assert.equal(md.length, 2);
    assert.deepEqual(
      tex.map((t) => t.columns),
      doc.map((d) => d.head.length),
    );
    assert.equal(md[1].rows.length, tr.comparisons.length);
    // a model with n = 5 beside n = 100: its cells above k = 5 say so
    assert.ok(md[0].rows.some((r) => r.includes('— (k \\> n)')));
    assert.ok(reportLatex(tr).includes('--- (k \\textgreater{} n)'));
  });
});

describe('report tables of a folder with problems left out and a model name full of special characters', async () => {
  const dir = tempDir('ti-doc-');
  const odd = 'org/rl_50%&#$x{y}~^\\z';
  writeRollouts(join(dir, 'base', 'results.jsonl'), { name: 'org/base-model', revision: 'main' }, [
    [1, [true, false, false, false]],
    [2, [false, false, false, false]],
    [3, [true, true, false, false]],
  ]);
  // problem 2 with two samples (n < k at k = 4), problem 3 with none
  writeRollouts(join(dir, 'rl', 'results.jsonl'), { name: odd, revision: 'main' }, [
    [1, [true, true, true, false]],
    [2, [true, false]],
    [3, []],
  ]);
  const index = TraceIndex.open(':memory:');
  await indexFolder(index, dir);
  const r = buildReport(index, { base: 'base-model', replicates: 200 });
  const rl = r.models.find((m) => m.label.includes('rl_50'));

  test('the special characters are escaped in LaTeX and Markdown, and the tables still parse', () => {
    assert.ok(rl, `the RL model is in the report: ${r.models.map((m) => m.label).join(', ')}`);
    const tex = reportLatex(r);
    parseLatex(tex);
    assert.ok(tex.includes(latexEscape(rl.label)));
    assert.ok(
      latexEscape(odd).endsWith('rl\\_50\\%\\&\\#\\$x\\{y\\}\\textasciitilde{}\\textasciicircum{}\\textbackslash{}z'),
    );
    const md = reportMarkdown(r);
    parseMarkdown(md);
    assert.ok(md.includes(markdownEscape(rl.label)));
  });

  test('footnotes say which problems are left out and why', () => {
    const [models, comparisons] = reportDocument(r);
    const row = models.rows.find((x) => x.cells[0].includes('rl_50'));
    assert.deepEqual(row?.notes, [1]);
    assert.match(
      models.notes[0],
      /of its 3 problems, 1 has no samples: left out of every value; fewer than k graded samples \(n < k\): 1 problem at k = 4, left out at that k/,
    );
    assert.ok(models.legend.some((l) => l.startsWith('(a/b)')));
    assert.ok(
      comparisons.notes.some((n) =>
        /over 2 of the 3 problems of the two models; left out: 1 without the model's samples/.test(n),
      ),
    );
    const md = reportMarkdown(r);
    assert.match(md, /\| org\/rl\\_50.*\[\^1-1\] \|/);
    assert.match(md, /^\[\^1-1\]: org\/rl\\_50/m);
    assert.match(reportLatex(r), /\\textsuperscript\{1\}org\/rl\\_50/);
  });
});
