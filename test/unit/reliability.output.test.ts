/**
 * Untrusted model output in every place text is shown outside the webview: the CLI's terminal output
 * (text, table, JSON, CSV, Markdown, LaTeX, progress), exported annotation files, the sample tab's Markdown document and
 * the tree's tooltips. The hostile corpus is test/fixtures/reliability/hostile/traces.jsonl (ANSI and
 * OSC 8 escapes, C1 controls, bidi overrides, HTML, javascript: and http links and images, NUL bytes,
 * backtick fences, a 20 000-character line, hostile model names and problem ids).
 * The extension modules import `vscode`; they are loaded here against a small recording stub.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerCheckDisagreements } from '../../src/core/analyses/graderAudit';
import { AnnotationStore } from '../../src/core/index/annotations';
import { readSampleText } from '../../src/core/index/sampleText';
import { indexFolder } from '../../src/core/index/indexer';
import { TraceIndex, type ModelRow } from '../../src/core/index/traceIndex';
import { csvCell, terminalJson, CSV_HEADER } from '../../src/cli/main';
import { escapeControl, preview } from '../../src/core/text/strings';
import { tempDir } from './helpers';
import { FIX, runCli } from './reliability.support';
import { loadWithStub } from './vscodeStub';

/** Bytes that must never reach a terminal raw: C0 controls but tab and newline, DEL, C1 controls, bidi overrides. */
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE_MODEL = 'base\u001b[31m<img src=x onerror=1>`';
const HOSTILE_PROBLEM = '7\u001b[2J`` ]]\n# injected';

let folder = '';
let dir = '';
before(() => {
  dir = tempDir('rel-out-');
  folder = join(dir, 'results');
  mkdirSync(folder);
  copyFileSync(join(FIX, 'hostile', 'traces.jsonl'), join(folder, 'traces.jsonl'));
  // a hostile file name too (its diagnostic names it): ESC, 8-bit CSI and a bidi override
  writeFileSync(join(folder, 'evil\u001b[2Jname\u009b\u202ex.jsonl'), '');
});

describe('CLI output', () => {
  test('terminalJson and csvCell escape what JSON.stringify and CSV quoting leave raw', () => {
    assert.equal(terminalJson({ a: 'x\u001b[2J\u009b\u007f\u202e' }), '{"a":"x\\u001b[2J\\u009b\\u007f\\u202e"}');
    assert.deepEqual(JSON.parse(terminalJson({ a: 'x\u001b\u009b\\\u009b' })), { a: 'x\u001b\u009b\\\u009b' });
    assert.equal(csvCell('m\u001b[31m'), 'm\\x1b[31m');
    assert.equal(csvCell('=HYPERLINK("http://evil.example")'), `"'=HYPERLINK(""http://evil.example"")"`);
    assert.equal(csvCell('a,b\nc'), '"a,b\\nc"');
    assert.equal(csvCell('-1+2'), "'-1+2");
  });

  test('index and report in every format: no raw control, C1 or bidi character reaches the terminal; JSON keeps the exact values', () => {
    const db = join(dir, 'cli.db');
    const runs = {
      'index text (with progress)': runCli(['index', folder, '--db', db], dir),
      'index json': runCli(['index', folder, '--db', join(dir, 'cli2.db'), '--format', 'json', '-q'], dir),
      'report table': runCli(['report', folder, '--db', db, '--base', 'base', '-q'], dir),
      'report json': runCli(['report', folder, '--db', db, '--base', 'base', '--format', 'json', '-q'], dir),
      'report csv': runCli(['report', folder, '--db', db, '--base', 'base', '--format', 'csv', '-q'], dir),
      'report markdown': runCli(['report', folder, '--db', db, '--base', 'base', '--format', 'markdown', '-q'], dir),
      'report latex': runCli(['report', folder, '--db', db, '--base', 'base', '--format', 'latex', '-q'], dir),
      'figure pass-at-k': runCli(
        ['figure', folder, 'pass-at-k', '-o', join(dir, 'fig.svg'), '--db', db, '--base', 'base', '-q'],
        dir,
      ),
    };
    for (const [name, r] of Object.entries(runs)) {
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      const bad = FORBIDDEN.exec(r.stdout) ?? FORBIDDEN.exec(r.stderr);
      assert.equal(bad, null, `${name}: raw U+${bad?.[0].charCodeAt(0).toString(16)} at ${bad?.index}`);
    }
    assert.match(
      runs['index text (with progress)'].stdout,
      /^evil\\x1b\[2Jname\\x9b\\u\{202e\}x\.jsonl: error: empty file$/m,
    );
    assert.match(runs['report table'].stdout, /^base\\x1b\[31m<img src=x onerror=1>`@r\\u\{202e\}1 \[base\]/m);
    const index = JSON.parse(runs['index json'].stdout) as { diagnostics: { file: string; message: string }[] };
    assert.deepEqual(index.diagnostics, [
      { file: 'evil\u001b[2Jname\u009b\u202ex.jsonl', line: 0, severity: 'error', message: 'empty file' },
    ]);
    const report = JSON.parse(runs['report json'].stdout) as { models: { id: string; label: string }[] };
    assert.deepEqual(report.models.map((m) => m.id).sort(), [`${HOSTILE_MODEL}@r\u202e1`, 'rl\u009b31m'].sort());
    // Markdown: the model name's HTML and backtick escaped, so it renders as text; LaTeX: its special characters
    assert.match(
      runs['report markdown'].stdout,
      /^\| base\\\\x1b\[31m\\<img src=x onerror=1\\>\\`@r\\\\u\{202e\}1 \(base\) \|/m,
    );
    assert.match(
      runs['report latex'].stdout,
      /^base\\textbackslash\{\}x1b\[31m\\textless\{\}img src=x onerror=1\\textgreater\{\}`@r/m,
    );
    // the figure's SVG is XML, which allows no C0 control: names are escaped in the legend and the caption
    const svg = readFileSync(join(dir, 'fig.svg'), 'utf8');
    assert.equal(FORBIDDEN.exec(svg), null);
    // (the label is the tree's short name of the model)
    assert.ok(svg.includes('>src=x onerror=1&gt;`@r\\u{202e}1 (base)</text>'), 'the base named, escaped');
    assert.ok(svg.includes('>rl\\x9b31m</text>'));
    assert.equal(FORBIDDEN.exec(readFileSync(join(dir, 'fig.svg.json'), 'utf8')), null);
    const csv = runs['report csv'].stdout.trim().split('\n');
    assert.equal(csv[0], CSV_HEADER);
    assert.ok(
      csv
        .slice(1)
        .every((l) => l.startsWith('base\\x1b[31m<img src=x onerror=1>`@r\\u{202e}1,') || l.startsWith('rl\\x9b31m,')),
      csv.join('\n'),
    );
  });
});

describe('exported annotations', () => {
  test('hostile labels and notes: every line of the export and the mirror is valid JSON and imports back unchanged', async () => {
    const index = TraceIndex.open(':memory:');
    await indexFolder(index, folder);
    const mirror = join(dir, 'mirror', 'annotations.jsonl');
    const store = new AnnotationStore(index, mirror);
    const model = index.models().find((m) => m.name === HOSTILE_MODEL)!;
    const problem = index.listProblems().find((p) => p.problemId === HOSTILE_PROBLEM)!;
    const samples = index.samples(problem.id, model.id);
    assert.equal(samples.length, 11);
    const notes = [
      'line1\nline2\r\n"quoted"',
      '\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007',
      '\u2028\u2029 separators \u0000 nul',
      '<script>x</script> `` ``` ',
      '\ud800 lone surrogate',
    ];
    for (const [i, note] of notes.entries())
      store.set(store.refOf(samples[i].id)!, [`label\n${i}`, '\u202eevil'], note, new Date(Date.UTC(2026, 0, i + 1)));
    const out = join(dir, 'export.jsonl');
    assert.equal(store.exportJsonl(out), 5);
    for (const file of [out, mirror]) {
      const lines = readFileSync(file, 'utf8').split('\n');
      assert.equal(lines.pop(), '', 'ends with a newline');
      assert.equal(lines.length, 5);
      for (const l of lines) assert.doesNotThrow(() => JSON.parse(l), l);
    }
    const fresh = TraceIndex.open(':memory:');
    await indexFolder(fresh, folder);
    const restored = new AnnotationStore(fresh);
    assert.deepEqual(restored.importJsonl(out).added, 5);
    const expectNotes = notes.map((n) => n.replace('\ud800', '\ufffd')); // a lone surrogate cannot be stored as UTF-8
    assert.deepEqual(
      restored
        .all()
        .map((a) => a.note)
        .sort(),
      expectNotes.sort(),
    );
    index.close();
    fresh.close();
  });
});

describe('editor surfaces (extension modules on a vscode stub)', () => {
  let index: TraceIndex;
  let annotations: AnnotationStore;
  let session: Record<string, unknown>;
  before(async () => {
    index = TraceIndex.open(':memory:');
    await indexFolder(index, folder);
    annotations = new AnnotationStore(index);
    const models = index.models();
    session = {
      index,
      annotations,
      folder: { uri: { toString: () => 'file:///results' } },
      models: () => models,
      checkpointSteps: () => new Map(),
      baseModel: () => models.find((m) => m.name === HOSTILE_MODEL),
      focusModel: () => models.find((m) => m.name !== HOSTILE_MODEL),
      shortLabel: (m: ModelRow) => m.label,
      isIndexing: false,
      indexIncomplete: () => false,
      focusPending: () => false,
      baseModelIsGuess: () => false,
      sampleText: (id: number) => readSampleText(index, id),
      answerCheck: () => answerCheckDisagreements(index),
    };
  });

  test('tree tooltips: untrusted, no HTML, and every model-derived string goes through appendText (escaped)', async () => {
    const { ProblemTreeProvider } = loadWithStub<{
      ProblemTreeProvider: new (
        g: () => unknown,
      ) => {
        getTreeItem(n: unknown): { tooltip?: unknown; label: string; description?: string };
        resolveTreeItem(i: unknown, n: unknown): Promise<{ tooltip?: unknown }>;
      };
    }>('../../src/extension/problemTree');
    const tree = new ProblemTreeProvider(() => session);
    const fixed = new Set([
      '**Problem** ',
      ' · level ',
      '\n\n**Reference answer:** ',
      '\n\n',
      '- ',
      '\n',
      '\n\n**Note:** ',
      // trial 10: a model row's figures on this problem and the whole folder's, labelled; a sample's labels;
      // the model in focus without a record of the problem
      '\n\n**This problem** ',
      '\n\n**Whole folder** ',
      '\n\n**Labels:** ',
      '**',
      '**\n\n',
    ]);
    let checked = 0;
    const check = async (node: unknown) => {
      const item = tree.getTreeItem(node);
      const md = (await tree.resolveTreeItem(item, node)).tooltip as {
        isTrusted: boolean;
        supportHtml: boolean;
        segments: { kind: string; value: string }[];
      };
      assert.equal(md.isTrusted, false);
      assert.equal(md.supportHtml, false);
      for (const seg of md.segments)
        if (seg.kind === 'markdown')
          assert.ok(fixed.has(seg.value), `markdown segment from data: ${JSON.stringify(seg.value)}`);
      assert.ok(!/\n/.test(item.description ?? ''), 'descriptions stay on one line');
      checked++;
    };
    for (const problem of index.listProblems()) {
      await check({ type: 'problem', problem });
      for (const m of index.models() as ModelRow[]) {
        await check({ type: 'model', model: m, problemId: problem.id });
        for (const sample of index.samples(problem.id, m.id)) {
          annotations.set(
            annotations.refOf(sample.id)!,
            ['x'],
            `note <img src=x onerror=1> [l](javascript:1) ${sample.sampleIndex}`,
          );
          await check({ type: 'sample', sample, problemLabel: problem.problemId, modelLabel: m.label });
        }
      }
    }
    assert.equal(checked, 2 + 4 + 22);
  });

  test('preview(): one line, at most max characters, for every hostile text', () => {
    const texts = readFileSync(join(FIX, 'hostile', 'traces.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .flatMap((l) => (JSON.parse(l) as { rollouts: { text: string }[] }).rollouts.map((r) => r.text));
    assert.equal(texts.length, 22);
    for (const t of texts) {
      const p = preview(t, 80);
      assert.ok(p.length <= 80 && !/[\n\r]/.test(p), JSON.stringify(p));
    }
    assert.equal(preview(`long ${'x'.repeat(20000)} end`, 10), 'long xxxx…');
    assert.equal(escapeControl(preview('a\u001b[2J\nb')), 'a\\x1b[2J b');
  });

  test('sample document: header values stay inside their code spans; the sample text follows unchanged', async () => {
    const { renderSample } = loadWithStub<{ renderSample: (s: unknown, d: unknown) => string }>(
      '../../src/extension/sampleDocument',
    );
    for (const m of index.models()) {
      for (const p of index.listProblems()) {
        for (const row of index.samples(p.id, m.id)) {
          const d = { ...index.sample(row.id)!, text: (await readSampleText(index, row.id))! };
          const doc = renderSample(session, d);
          const body = `\n## Sample\n\n${d.text}\n`;
          assert.ok(doc.endsWith(body), 'the text is appended unchanged after the header');
          const head = doc.slice(0, doc.length - body.length).split('\n## Question\n')[0];
          const fieldLines = head.split('\n').filter((l) => l.startsWith('- **'));
          assert.ok(fieldLines.length >= 5);
          for (const l of fieldLines) {
            const m2 = /^- \*\*([A-Za-z ]+):\*\* (.*)$/.exec(l);
            assert.ok(m2, l);
            const value = m2[2];
            if (m2[1] === 'Correctness' || m2[1] === 'Length') continue;
            const ticks = /^`+/.exec(value)![0];
            // the span closes only at the end: the value holds no backtick run of the fence's length
            assert.ok(value.endsWith(ticks) && value.length >= 2 * ticks.length, l);
            const inner = value.slice(ticks.length, value.length - ticks.length);
            assert.ok(!(inner.match(/`+/g) ?? []).some((run) => run.length === ticks.length), l);
          }
        }
      }
    }
  });

  test('sample document: a problem id or model name cannot start a new Markdown line in the title', async () => {
    const { renderSample } = loadWithStub<{ renderSample: (s: unknown, d: unknown) => string }>(
      '../../src/extension/sampleDocument',
    );
    const m = index.models().find((x) => x.name === HOSTILE_MODEL)!;
    const p = index.listProblems().find((x) => x.problemId === HOSTILE_PROBLEM)!;
    const id = index.samples(p.id, m.id)[0].id;
    const doc = renderSample(session, { ...index.sample(id)!, text: await readSampleText(index, id) });
    assert.equal(doc.split('\n')[1], '', 'the title is one line');
    assert.ok(!doc.split('\n').includes('# injected'));
  });
});
