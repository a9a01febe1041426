/**
 * The user docs hold together: every relative link and image in README.md and docs/**.md points at a file of
 * the repository that the VSIX ships (so the extension page's links work offline: .vscodeignore), every
 * `#anchor` names a heading of its target page (GitHub's heading ids), the README's "Read more" index links
 * every docs page, and the README stays a landing page (at most 300 lines, no narration of how faults were
 * found: that history belongs in tests and commit messages).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';

const ROOT = process.cwd();
const md = new MarkdownIt({ html: true });

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

/** Every .md file under docs/, repository-relative, in a stable order. */
function docsPages(dir = 'docs'): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...docsPages(rel));
    else if (name.endsWith('.md')) out.push(rel);
  }
  return out;
}

/** The plain text of an inline token (text and code spans, markup dropped), as GitHub slugs it. */
function inlineText(token: Token): string {
  return (token.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('');
}

/**
 * GitHub's heading id (github-slugger): lower case, every character that is not a letter, mark, digit,
 * `_`, `-` or space removed, spaces as `-`; a repeated id gets `-1`, `-2`, ...
 */
function anchorsOf(file: string): Set<string> {
  const tokens = md.parse(readFileSync(path.join(ROOT, file), 'utf8'), {});
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const base = inlineText(tokens[i + 1])
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  });
  return ids;
}

/** Every link and image target of a page (code spans and blocks are not links), with its line. */
function linksOf(file: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  for (const t of md.parse(readFileSync(path.join(ROOT, file), 'utf8'), {})) {
    if (t.type !== 'inline') continue;
    for (const c of t.children ?? []) {
      const target = c.type === 'link_open' ? c.attrGet('href') : c.type === 'image' ? c.attrGet('src') : null;
      if (target !== null) out.push({ target: String(target), line: (t.map?.[0] ?? 0) + 1 });
    }
  }
  return out;
}

const PAGES = ['README.md', ...docsPages()];

/**
 * Whether the VSIX ships a repository file: it matches one of .vscodeignore's `!` patterns (every pattern there
 * is a file, or a folder as `folder/**`), so a link to it works on the extension's page, offline.
 */
function shipped(file: string): boolean {
  return readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1).trim())
    .some((p) => (p.endsWith('/**') ? file.startsWith(p.slice(0, -2)) : file === p));
}

describe('README and docs', () => {
  test('every relative link and image resolves to a file in the repository, every anchor to a heading', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const { target, line } of linksOf(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, vscode: ...
        checked++;
        const [rawPath, anchor] = target.split('#', 2);
        const file =
          rawPath === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(rawPath)));
        if (file.startsWith('../') || path.isAbsolute(file) || !existsSync(path.join(ROOT, file))) {
          broken.push(`${page}:${line}: ${target}: no file ${file} in the repository`);
          continue;
        }
        if (!shipped(file)) broken.push(`${page}:${line}: ${target}: ${file} is not in the VSIX (.vscodeignore)`);
        if (anchor === undefined) continue;
        if (!file.endsWith('.md')) {
          broken.push(`${page}:${line}: ${target}: an anchor into a file that is not Markdown`);
          continue;
        }
        if (!anchors.has(file)) anchors.set(file, anchorsOf(file));
        if (!anchors.get(file)?.has(anchor))
          broken.push(`${page}:${line}: ${target}: no heading #${anchor} in ${file}`);
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(checked > 50, `${checked} relative links checked`);
  });

  test('the anchors are GitHub heading ids (punctuation dropped, code kept, repeats numbered)', () => {
    const ids = anchorsOf('docs/mapping.md');
    for (const id of ['tree-of-thought-ys--infosr', 'a-list-of-problems-with-graded_list-livecodebench', 'paths'])
      assert.ok(ids.has(id), id);
  });

  test("the README's Read more index links every docs page", () => {
    const linked = new Set(
      linksOf('README.md')
        .map((l) => l.target.split('#')[0])
        .filter((t) => t.startsWith('docs/') && t.endsWith('.md')),
    );
    assert.deepEqual(
      docsPages().filter((p) => !linked.has(p)),
      [],
    );
  });

  test('the README is a landing page: at most 300 lines; no page narrates "trial N finding M"', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 300, `README.md has ${readme.split('\n').length} lines`);
    const narrated = PAGES.filter((p) => /\btrial \d+ findings? \d+/i.test(readFileSync(path.join(ROOT, p), 'utf8')));
    assert.deepEqual(narrated, []);
  });
});
