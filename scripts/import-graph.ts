// The project's import graph, type imports included: every relative import, export-from and import()
// of a literal path between its own modules (TypeScript's preProcessFile reads them, as the compiler
// does). `npx tsx scripts/import-graph.ts [checkout]` prints its circles, none expected; test/scripts/
// import-graph.test.ts holds the graph to no circle and to the direction of the layers
// (harness/README.md, Layers).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Folders never read: installed packages, generated declarations, reports, measured results. */
const SKIPPED = new Set(['node_modules', 'types', 'reports', 'results', '.git']);
const SOURCE = /\.(ts|mts|js|mjs)$/;

/** Module (path from the root, with `/`) -> the project modules it imports. */
export type ImportGraph = Map<string, Set<string>>;

function sourceFiles(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(root, path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module under `root` and what it imports of the others. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const key = (path: string): string => relative(root, path).split('\\').join('/');
  for (const file of sourceFiles(root)) {
    const imports = new Set<string>();
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (existsSync(target) && statSync(target).isFile()) imports.add(key(target));
    }
    graph.set(key(file), imports);
  }
  return graph;
}

/** The graph's circles: each set of modules that reach one another (Tarjan), sorted; none expected. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      members.push(w);
      if (w === v) break;
    }
    if (members.length > 1 || graph.get(v)?.has(v)) cycles.push(members.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // The project this script belongs to, or the checkout named as the first argument.
  const root = process.argv[2] ?? fileURLToPath(new URL('../', import.meta.url));
  const graph = importGraph(root);
  const cycles = importCycles(graph);
  console.log(`${graph.size} modules, ${cycles.length} import circle(s)`);
  for (const c of cycles) console.log(`  ${c.join(' <-> ')}`);
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
