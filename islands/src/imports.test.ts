// No import loop among the islands' modules: a loop makes evaluation order depend on which
// module a page happens to load first, and ties together chunks that should load apart. A lazy
// `import()` counts too: `mount` (loaded lazily by the runtime, with React) once imported the
// runtime back for one helper.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// `import x from './a'`, `import type { T } from './a'`, `export { y } from './a'`,
// `import './a.css'`, and `import('./a')`.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative imports of one file, static and lazy, as absolute paths of source files. */
function localImports(file: string, text: string, files: Set<string>): string[] {
  const found: string[] = [];
  for (const match of [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]) {
    const base = resolve(dirname(file), match[1]);
    const target = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => files.has(f));
    if (target) found.push(target);
  }
  return found;
}

/** The first import loop found (as a list of files, the first repeated at the end), or null. */
function findLoop(graph: Map<string, string[]>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): string[] | null => {
    if (onPath.has(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return null;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
    return null;
  };
  for (const file of graph.keys()) {
    const loop = visit(file);
    if (loop) return loop;
  }
  return null;
}

describe('islands/src', () => {
  it('finds loops the way it should', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findLoop(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(findLoop(new Map([['a', ['b']], ['b', []]]))).toBeNull();
    const files = new Set(['/s/runtime.ts', '/s/mount.tsx', '/s/actionable.ts']);
    const text = "import { a } from './actionable';\nimport type {\n  T,\n} from './mount';\nconst m = import('./runtime');";
    expect(localImports('/s/x.ts', text, files)).toEqual(['/s/actionable.ts', '/s/mount.tsx', '/s/runtime.ts']);
  });

  it('has no import loop, lazy imports included', () => {
    const files = sources(SRC);
    const known = new Set(files);
    const graph = new Map(files.map((f) => [f, localImports(f, readFileSync(f, 'utf8'), known)]));
    const loop = findLoop(graph);
    expect(loop?.map((f) => relative(SRC, f)) ?? null).toBeNull();
  });
});
