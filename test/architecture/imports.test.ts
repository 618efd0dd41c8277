// The layers of src/ hold, and no file imports itself back (issue 28): a cycle, even of types,
// ties every file of it to every other, so that a change to one is a change to all.
//   snapshot <- engine <- messages <- report, and sources <- cli: the engine never loads English,
//   a source never renders, a report never reads the cluster. errors.ts and version.ts are
//   shared leaves; index.ts, the library, sits under the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');

/** Every .ts file under src/, relative to it. */
function files(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return e.name.endsWith('.ts') ? [path.relative(src, full)] : [];
  });
}

/** The src/ files a file imports or re-exports from, types included, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(src, file), 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');
  return specs.map((s) => path.normalize(path.join(path.dirname(file), s.replace(/\.js$/, '.ts'))));
}

const graph = new Map(files().map((f) => [f, importsOf(f)]));

/** Strongly connected components of more than one file (Tarjan). */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const layerOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0] ?? file : file === 'index.ts' ? 'library' : 'shared');

/** What each layer may import besides itself and the shared leaves (errors.ts, version.ts). */
const allowed: Record<string, readonly string[]> = {
  snapshot: [],
  engine: ['snapshot'],
  messages: ['engine', 'snapshot'],
  report: ['messages', 'engine', 'snapshot'],
  sources: ['engine', 'snapshot'],
  // The library (src/index.ts): what the CLI and other programs diagnose through.
  library: ['sources', 'report', 'messages', 'engine', 'snapshot'],
  cli: ['library', 'sources', 'report', 'messages', 'engine', 'snapshot'],
  shared: ['engine'],
};

describe('the imports of src/', () => {
  it('reads every file', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
  });

  it('form no cycle, types included', () => {
    expect(cycles()).toEqual([]);
  });

  it('the live source asks the engine through engine/readPlan.ts alone (types aside)', () => {
    const valueImports = (file: string) =>
      [...readFileSync(path.join(src, file), 'utf8').matchAll(/(?:^|\n)\s*import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/g)].map((m) => path.normalize(path.join(path.dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts'))));
    const live = [...graph.keys()].filter((f) => f.startsWith(path.join('sources', 'live') + path.sep));
    expect(live.length).toBeGreaterThan(5);
    const other = live.flatMap((f) => valueImports(f).filter((i) => layerOf(i) === 'engine' && i !== path.join('engine', 'readPlan.ts')).map((i) => `${f} -> ${i}`));
    expect(other).toEqual([]);
  });

  it.each(Object.keys(allowed))('%s imports only the layers below it', (layer) => {
    const crossing = [...graph]
      .filter(([file]) => layerOf(file) === layer)
      .flatMap(([file, imports]) => imports.filter((i) => layerOf(i) !== layer && layerOf(i) !== 'shared' && !allowed[layer]?.includes(layerOf(i))).map((i) => `${file} -> ${i}`));
    expect(crossing).toEqual([]);
  });
});
