/**
 * A small glob matcher for relative POSIX paths (no dependency, same behaviour on every Node version).
 *
 * Syntax:
 * - `*` matches any run of characters except `/`; `?` one character except `/`;
 * - `**` as a whole path segment matches zero or more segments (`a/**` matches `a/x` and `a/x/y`;
 *   `**` + `/b` matches `b` and `x/y/b`);
 * - `[abc]`, `[a-z]`, `[!abc]` character classes; `{a,b}` alternatives (not nested);
 * - a pattern without `/` matches the file name in any folder (like `.gitignore`): `*.jsonl`
 *   matches `a/b/c.jsonl`; a pattern with `/` is matched against the whole relative path;
 * - a leading `./` is ignored; matching is case-sensitive.
 */

const cache = new Map<string, RegExp>();

function escapeRe(ch: string): string {
  return /[.+^$()|\\/]/.test(ch) ? `\\${ch}` : ch;
}

/** Compiles a glob (see the module doc) to an anchored RegExp over the whole relative path. */
export function globToRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let p = pattern.replace(/\\/g, '/');
  if (p.startsWith('./')) p = p.slice(2);
  if (!p.includes('/')) p = `**/${p}`;
  let re = '';
  let i = 0;
  let inBrace = false;
  while (i < p.length) {
    const ch = p[i];
    if (ch === '*') {
      if (p[i + 1] === '*') {
        const atStart = i === 0 || p[i - 1] === '/';
        const atEnd = i + 2 === p.length || p[i + 2] === '/';
        if (atStart && atEnd) {
          if (i + 2 === p.length) {
            re += '.*';
            i += 2;
          } else {
            re += '(?:[^/]*/)*';
            i += 3;
          }
          continue;
        }
        re += '[^/]*';
        i += 2;
        continue;
      }
      re += '[^/]*';
      i++;
    } else if (ch === '?') {
      re += '[^/]';
      i++;
    } else if (ch === '[') {
      const end = p.indexOf(']', i + 2);
      if (end === -1) {
        re += '\\[';
        i++;
        continue;
      }
      let cls = p.slice(i + 1, end);
      if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
      re += `[${cls.replace(/\\/g, '\\\\')}]`;
      i = end + 1;
    } else if (ch === '{' && !inBrace) {
      inBrace = true;
      re += '(?:';
      i++;
    } else if (ch === '}' && inBrace) {
      inBrace = false;
      re += ')';
      i++;
    } else if (ch === ',' && inBrace) {
      re += '|';
      i++;
    } else {
      re += escapeRe(ch);
      i++;
    }
  }
  if (inBrace) re += ')';
  const out = new RegExp(`^${re}$`);
  cache.set(pattern, out);
  return out;
}

/** Whether relative POSIX path `relPath` matches glob `pattern` (see the module doc for the syntax). */
export function matchGlob(relPath: string, pattern: string): boolean {
  return globToRegExp(pattern).test(relPath);
}

/** Whether `relPath` matches any of `patterns` (false for an empty list). */
export function matchAny(relPath: string, patterns: readonly string[]): boolean {
  for (const p of patterns) if (matchGlob(relPath, p)) return true;
  return false;
}
