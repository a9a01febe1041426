import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { renderTrace, splitThink, renderMath, createMarkdown } from '../../webview/markdown';

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
