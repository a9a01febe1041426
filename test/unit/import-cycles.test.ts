/**
 * The modules of src/ and webview/ import one another without a cycle, type-only imports included: a cycle
 * means two modules cannot be read, tested or moved one without the other, and a layer that imports the layer
 * above it. The graph is read with TypeScript's own pre-processor (every `import`, `export ... from`,
 * `import type` and `import()`), relative specifiers resolved as tsc resolves them here (`x.ts`, `x.tsx`,
 * `x/index.ts`); packages are outside the graph.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();

/** Every .ts/.tsx file under `dir` (absolute), declaration files left out, in a stable order. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file a relative specifier of `from` names, or undefined for a package or a file that is not there. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => existsSync(c));
}

/** The import graph of the source files under `dirs`: each file (absolute) and the files it imports. */
function importGraph(dirs: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(sourceFiles)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = importedFiles.map((f) => resolveImport(file, f.fileName)).filter((f) => f !== undefined);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/**
 * The import cycles of `graph`: one per strongly connected component of more than one file (or a file that
 * imports itself), given as a path `a -> b -> ... -> a` through that component. Tarjan's algorithm, linear in
 * files + imports.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.map((c) => cycleThrough(graph, new Set(c), c[c.length - 1]));
}

/** A shortest path from `start` back to itself inside `component` (breadth first). */
function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, component: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const w of graph.get(queue[i]) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const between: string[] = [];
        for (let v = queue[i]; v !== start; v = cameFrom.get(v) as string) between.unshift(v);
        return [start, ...between, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, queue[i]);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

describe('src/ and webview/ have no import cycle', () => {
  test('the graph is read: extension.ts imports commands.ts; commands.ts imports labels.ts', () => {
    const graph = importGraph([path.join(ROOT, 'src')]);
    assert.ok(graph.size > 50, `${graph.size} files`);
    const deps = (f: string) => graph.get(path.join(ROOT, f)) ?? [];
    assert.ok(deps('src/extension/extension.ts').includes(path.join(ROOT, 'src/extension/commands.ts')));
    assert.ok(deps('src/extension/commands.ts').includes(path.join(ROOT, 'src/core/index/labels.ts')));
  });

  test('no cycle, type-only imports included', () => {
    const cycles = importCycles(importGraph([path.join(ROOT, 'src'), path.join(ROOT, 'webview')]));
    const shown = cycles.map((c) => c.map((f) => path.relative(ROOT, f)).join(' -> '));
    assert.deepEqual(shown, []);
  });

  test('a cycle through a type-only import and an index.ts is found and shown as a path', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b + 1;\n");
      writeFileSync(path.join(dir, 'b.ts'), "export { c as b } from './c';\n");
      mkdirSync(path.join(dir, 'c'));
      writeFileSync(path.join(dir, 'c', 'index.ts'), "import type { A } from '../a';\nexport const c = 1;\n");
      writeFileSync(path.join(dir, 'd.ts'), "import { a } from './a';\nimport 'vscode';\n");
      const cycles = importCycles(importGraph([dir]));
      const shown = cycles.map((c) => c.map((f) => path.relative(dir, f)).join(' -> '));
      assert.deepEqual(shown, [['a.ts', 'b.ts', 'c/index.ts', 'a.ts'].join(' -> ')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
