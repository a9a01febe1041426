import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHUNK_CHARS,
  chunkMarkdown,
  planTrace,
  renderTrace,
  splitThink,
  renderMath,
  createMarkdown,
} from '../../webview/markdown';
import { estimatedHeight, splitIntoBlocks } from '../../webview/textBlocks';

const md = createMarkdown();
/** Number of KaTeX formulas in rendered HTML. */
const formulas = (html: string) => (html.match(/<span class="katex">/g) ?? []).length;
const render = (s: string) => renderTrace(s, md);

describe('math delimiters', () => {
  test('dollar amounts stay text', () => {
    for (const s of [
      'He paid $5 and $10 for it.',
      '$1,000 to $2,000',
      'It costs $5, and he pays $3 more',
      '$5 + $3 = $8',
      'from $5.50/$6 down',
      'costs $ 5 and 6 $ total',
    ]) {
      const html = render(s);
      assert.equal(formulas(html), 0, s);
      assert.ok(html.includes('$'), s);
    }
  });
  test('inline and display math render with KaTeX', () => {
    assert.equal(formulas(render('so $x^2$ is')), 1);
    assert.equal(formulas(render('$5 \\times 3 = 15$')), 1);
    assert.equal(formulas(render('\\(a+b\\) and \\[c\\]')), 2);
    assert.equal(formulas(render('$$\n\\frac12\n$$')), 1);
    assert.equal(formulas(render('\\[\n\\sum_i i\n\\]')), 1);
    assert.equal(formulas(render('inline $$x$$ display')), 1);
    assert.ok(render('$$\n\\frac12\n$$').includes('katex-display'));
  });
  test('an invalid closer makes the opening $ literal, and the next $ may open math', () => {
    const html = render('costs $5.00, so $x$ is');
    assert.equal(formulas(html), 1);
    assert.ok(html.includes('costs $5.00, so '));
    assert.ok(html.includes('<annotation encoding="application/x-tex">x</annotation>'));
  });
  test('escaped dollars and code spans are not math', () => {
    assert.equal(formulas(render('\\$5 and \\$6')), 0);
    assert.equal(formulas(render('`$x$` and\n\n```\n$$y$$\n```')), 0);
  });
});

describe('safety', () => {
  test('raw HTML is escaped text', () => {
    const html = render('<script>alert(1)</script><img src=x onerror=alert(1)><svg onload=alert(1)>');
    assert.ok(!/<script|<img|<svg/i.test(html));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });
  test('links are inert text; javascript: links are not links at all', () => {
    const html = render(
      '[x](javascript:alert(1)) [y](https://example.com/a?b=1) ![pic](https://example.com/p.png) <https://example.com>',
    );
    assert.ok(!html.includes('<a '));
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('<span class="md-link" title="https://example.com/a?b=1">y</span>'));
    assert.ok(html.includes('[x](javascript:alert(1))'));
    assert.ok(html.includes('<span class="md-image" title="https://example.com/p.png">[image: pic]</span>'));
  });
  test('KaTeX \\href, \\url, \\includegraphics and \\htmlClass do not produce links, images or classes', () => {
    for (const tex of [
      '\\href{javascript:alert(1)}{x}',
      '\\url{https://evil.example}',
      '\\includegraphics{https://evil.example/a.png}',
      '\\htmlClass{x}{y}',
      '\\htmlStyle{background:url(https://evil.example)}{z}',
    ]) {
      const html = renderMath(tex, false);
      assert.ok(
        !/<a |href=|<img|src=|class="x"|url\(https/.test(html.replace(/<annotation[\s\S]*?<\/annotation>/g, '')),
        tex,
      );
    }
  });
  test('commands KaTeX refuses keep their visible text (link text, URL, image path, body), and nothing is live', () => {
    /** Text a reader sees: the HTML rendering without the MathML copy, tags stripped, KaTeX's spacing glyphs dropped. */
    const seen = (html: string) =>
      html
        .replace(/<span class="katex-mathml">[\s\S]*?<\/math><\/span>/g, '')
        .replace(/<[^>]+>/g, '')
        .replace(/[\u200b\s]+/g, '');
    const cases: [string, string][] = [
      ['\\href{javascript:alert(1)}{clickhere}', 'clickhere'],
      ['\\href {https://x.example/a%20b} {x+y}', 'x+y'],
      ['\\url{https://evil.example/a_b#c~d%20e}', 'https://evil.example/a_b#c~d%20e'],
      ['\\includegraphics{https://evil.example/a.png}', '[image:https://evil.example/a.png]'],
      ['\\includegraphics[width=3cm]{fig_1.png}', '[image:fig_1.png]'],
      ['\\htmlClass{x}{visible}', 'visible'],
      ['\\htmlId{i}{idtext}', 'idtext'],
      ['\\htmlStyle{background:url(https://evil.example)}{styled}', 'styled'],
      ['\\htmlData{a=b}{datatext}', 'datatext'],
      ['\\def\\h{\\href}\\h{u}{viaDef}', 'viaDef'],
    ];
    for (const [tex, visible] of cases) {
      const html = renderMath(tex, false);
      assert.ok(!html.includes('katex-error'), `${tex}: ${html}`);
      assert.equal(seen(html), visible, tex);
      const live = html.replace(/<annotation[\s\S]*?<\/annotation>/g, '');
      assert.ok(!/<a |href=|<img|src=|class="x"|id="i"|data-a|url\(https/.test(live), tex);
    }
  });
  test('macro bombs stop at maxExpand and render as an error, not a hang', () => {
    const t0 = Date.now();
    const html = renderMath('\\def\\a{\\a\\a}\\a', false);
    assert.ok(Date.now() - t0 < 2000);
    assert.ok(html.includes('katex-error') || html.includes('math-raw'));
  });
  test('\\gdef in one formula does not leak into the next', () => {
    renderMath('\\gdef\\foo{BAR}\\foo', false);
    const html = renderMath('\\foo', false);
    assert.ok(!html.includes('BAR'));
  });
  test('very long formulas are shown as code', () => {
    const html = renderMath('x+'.repeat(3000), false);
    assert.ok(html.startsWith('<code class="math-raw">'));
  });
});

describe('think blocks', () => {
  test('split at tags, including a closing tag without an opening one', () => {
    assert.deepEqual(splitThink('<think>a</think>b'), [
      { think: true, text: 'a', closed: true },
      { think: false, text: 'b', closed: true },
    ]);
    assert.deepEqual(splitThink('pre</think>post'), [
      { think: true, text: 'pre', closed: true },
      { think: false, text: 'post', closed: true },
    ]);
    assert.deepEqual(splitThink('x<THINK>unclosed'), [
      { think: false, text: 'x', closed: true },
      { think: true, text: 'unclosed', closed: false },
    ]);
    assert.deepEqual(splitThink('plain'), [{ think: false, text: 'plain', closed: true }]);
  });
  test('think parts render as collapsed details with a word count', () => {
    const html = render('<think>one two $3 three</think>**Answer**: 6');
    assert.ok(html.startsWith('<details class="think"><summary>Thinking · 4 words</summary>'));
    assert.ok(!html.includes('<details class="think" open'));
    assert.ok(html.includes('<strong>Answer</strong>: 6'));
  });
});

describe('incremental rendering: chunkMarkdown and planTrace', () => {
  /** A long trace: paragraphs, fenced code with blank lines, display math over several lines, a list. */
  const para = (i: number) => `Step ${i}: we compute $x_${i}^2 = ${i * i}$ and carry on with the sum so far.`;
  const blocks: string[] = [];
  for (let i = 0; i < 400; i++) {
    blocks.push(para(i));
    if (i % 37 === 0) blocks.push('```python\nx = 1\n\n\ny = 2  # blank lines inside the fence\n```');
    if (i % 53 === 0) blocks.push('$$\n\\sum_{k=1}^{n} k\n\n= \\frac{n(n+1)}{2}\n$$');
    if (i % 71 === 0) blocks.push('~~~~\n~~~\nnot a close\n\n~~~~');
  }
  const text = blocks.join('\n\n');

  test('the pieces join back to the text, and none is cut inside a fence or display math', () => {
    const pieces = chunkMarkdown(text, 2000);
    assert.ok(pieces.length > 5, `${pieces.length} pieces`);
    assert.equal(pieces.join(''), text);
    for (const p of pieces) {
      // each piece opens and closes its fences and $$ blocks: an even number of fence lines and of $$ lines
      const fenceLines = p.split('\n').filter((l) => /^```/.test(l)).length;
      assert.equal(fenceLines % 2, 0, p.slice(0, 200));
      const mathLines = p.split('\n').filter((l) => l.trim() === '$$').length;
      assert.equal(mathLines % 2, 0, p.slice(0, 200));
      const tildeOpen = p.split('\n').filter((l) => l === '~~~~').length;
      assert.equal(tildeOpen % 2, 0, 'a ~~~ line does not close a ~~~~ fence');
    }
  });

  test('rendered piece by piece it is the same HTML as rendered whole', () => {
    const md = createMarkdown();
    const whole = md.render(text);
    const pieces = chunkMarkdown(text, 2000)
      .map((p) => md.render(p))
      .join('');
    assert.equal(pieces, whole);
  });

  test('short text is one piece; a text without line breaks stays one piece; a long run without blank lines is cut at a line', () => {
    assert.deepEqual(chunkMarkdown('short', 100), ['short']);
    const oneLine = 'x'.repeat(50_000);
    assert.deepEqual(chunkMarkdown(oneLine, 1000), [oneLine]);
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const pieces = chunkMarkdown(lines, 1000);
    assert.ok(pieces.length > 1);
    assert.equal(pieces.join(''), lines);
    for (const p of pieces.slice(0, -1)) assert.ok(p.endsWith('\n') && p.length <= 8 * 1000 + 20, `${p.length}`);
  });

  test('by default a piece holds about 1,000 characters (the unit of work between two checks of a render slice)', () => {
    // the perf.e2e trace of the preview: pieces of 2,500 math-dense characters held the renderer's thread
    // 0.2 s each under load; the default is now 1,000 (a piece ends at the first blank line after it)
    assert.equal(CHUNK_CHARS, 1000);
    const pieces = planTrace(text)[0].chunks;
    assert.equal(pieces.join(''), text);
    const longestBlock = Math.max(...blocks.map((b) => b.length)) + 2;
    for (const p of pieces.slice(0, -1)) assert.ok(p.length >= 1000 && p.length <= 1000 + longestBlock, `${p.length}`);
    assert.ok(pieces.length >= Math.floor(text.length / (1000 + longestBlock)), `${pieces.length} pieces`);
  });

  test('planTrace keeps think parts apart, with their word counts and pieces', () => {
    const plan = planTrace(`<think>${'word '.repeat(3000)}</think>${text}`, 2000);
    assert.equal(plan.length, 2);
    assert.deepEqual([plan[0].think, plan[0].words, plan[0].closed], [true, 3000, true]);
    assert.equal(plan[0].chunks.join(''), 'word '.repeat(3000));
    assert.equal(plan[1].think, false);
    assert.equal(plan[1].chunks.join(''), text);
  });
});

describe('splitIntoBlocks (long span and diff views laid out block by block)', () => {
  test('cuts at the first line break at or after the block size; texts and wraps kept', () => {
    // 'aaaa\n' x 3 = 15 chars in a plain piece, then a marked piece 'bb\ncc\n'
    const blocks = splitIntoBlocks([{ text: 'aaaa\naaaa\naaaa\n' }, { text: 'bb\ncc\n', wrap: 'mark' }], 7);
    // block 1: 'aaaa\naaaa\n' (10 chars: the first '\n' at or after 7 chars is at index 9)
    // block 2: 'aaaa\n' + 'bb\n' (8 chars; the marked piece is cut after 'bb\n')
    // block 3: 'cc\n'
    assert.deepEqual(blocks, [
      [{ text: 'aaaa\naaaa\n' }],
      [{ text: 'aaaa\n' }, { text: 'bb\n', wrap: 'mark' }],
      [{ text: 'cc\n', wrap: 'mark' }],
    ]);
  });

  test('short text is one block; a long line stays whole; joined text is the input', () => {
    assert.deepEqual(splitIntoBlocks([{ text: 'short' }], 4000), [[{ text: 'short' }]]);
    assert.deepEqual(splitIntoBlocks([], 10), [[]]);
    const line = 'x'.repeat(50);
    assert.deepEqual(splitIntoBlocks([{ text: `${line}\nend` }], 10), [[{ text: `${line}\n` }], [{ text: 'end' }]]);
    const pieces = Array.from({ length: 200 }, (_, i) => ({ text: `${i}`.repeat(i % 7) + (i % 3 ? '\n' : ' ') }));
    const blocks = splitIntoBlocks(pieces, 40);
    const joined = blocks
      .flat()
      .map((p) => p.text)
      .join('');
    assert.equal(joined, pieces.map((p) => p.text).join(''));
    assert.ok(blocks.length > 10, String(blocks.length));
    for (const b of blocks.slice(0, -1)) {
      const t = b.map((p) => p.text).join('');
      assert.ok(t.length >= 40 && t.endsWith('\n'), JSON.stringify(t));
    }
  });
});

describe('a long sample rendered as it is scrolled to: the boxes of its pieces not rendered yet', () => {
  test('estimatedHeight: 40 px a line of width / 7.2 characters, 600 px wide when not known, one line at least', () => {
    // 1,000 characters at 600 px: 83 a line, 13 lines (the perf e2e's math-heavy pieces took 500-640 px)
    assert.equal(estimatedHeight(1000, 600), 520);
    assert.equal(estimatedHeight(1000, 0), 520, 'a hidden tab: 600 px');
    assert.equal(estimatedHeight(1000, 1200), 280);
    assert.equal(estimatedHeight(0, 600), 40);
    assert.equal(estimatedHeight(1000, 50), 2000, 'at least 20 characters a line');
  });
});
