// The import graph (scripts/import-graph.ts), type imports included: no circle anywhere, and imports
// that point down the layers (harness/README.md, Layers) where lint's rules (eslint.config.js) do not
// reach: the reference server and the loopback kit stand apart, harness/io/ below the check API, the
// check API apart from the runner, and nothing of the product reaches into the project's own tools.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../../scripts/import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const graph = importGraph(ROOT);

/** Where a module may import from: the folders (or files) it may name, itself included. */
const LAYERS: Array<{ from: string; only: string[]; why: string }> = [
  {
    from: 'reference-server/',
    only: ['reference-server/', 'schemas/'],
    why: 'the reference server stands on the schemas alone, never on the harness',
  },
  { from: 'harness/kit/', only: ['harness/kit/'], why: 'the loopback kit stands on node alone' },
  {
    from: 'harness/io/',
    only: ['harness/io/', 'harness/kit/', 'core/', 'schemas/'],
    why: 'the I/O of the engine is below the check API and the runner',
  },
  { from: 'schemas/', only: ['schemas/'], why: 'the schemas are the bottom layer' },
  { from: 'requirements/', only: ['requirements/', 'schemas/'], why: 'the ledger stands on the schemas' },
];

/** What may not import what (prefixes). */
const NEVER: Array<{ from: string[]; to: string[]; why: string }> = [
  {
    from: ['harness/check/'],
    to: ['harness/runner/', 'harness/cli/', 'harness/fleet/', 'harness/client/', 'harness/receiver/'],
    why: "the check API (suites' side) never reaches into the runner or the roles",
  },
  {
    from: ['harness/', 'core/', 'reporters/', 'reference-server/', 'suites/', 'schemas/', 'requirements/'],
    to: ['mutants/', 'bench/', 'reliability/', 'test/', 'scripts/', 'examples/'],
    why: "the product never imports the project's own tools and tests",
  },
];

// The harness starts the reference server by path (import() of a constant) only where it runs it: as
// the bundled target, as the client role's upstream, and for `serve` and `explain`.
const STARTS_REFERENCE_SERVER = [
  'harness/cli/requirement-trace.ts',
  'harness/cli/serve-command.ts',
  'harness/client/upstream.ts',
  'harness/runner/bundled-target.ts',
];

describe('the import graph', () => {
  it('has no circle, type imports included', () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a circle made of type imports, and none in a tree without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "import { c } from './c.ts';\nexport type B = string;\nc();\n");
      writeFileSync(join(dir, 'c.ts'), 'export function c(): void {}\n');
      expect(importCycles(importGraph(dir))).toEqual([]);
      writeFileSync(join(dir, 'c.ts'), "export type { A } from './a.ts';\nexport function c(): void {}\n");
      expect(importCycles(importGraph(dir))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('points down the layers', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      for (const to of imports) {
        for (const layer of LAYERS) {
          if (file.startsWith(layer.from) && !layer.only.some((p) => to.startsWith(p)))
            wrong.push(`${file} -> ${to}: ${layer.why}`);
        }
        for (const rule of NEVER) {
          if (rule.from.some((p) => file.startsWith(p)) && rule.to.some((p) => to.startsWith(p)))
            wrong.push(`${file} -> ${to}: ${rule.why}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names the reference server in the harness only where it starts it', () => {
    const naming = [...graph.keys()].filter(
      (f) =>
        f.startsWith('harness/') &&
        /['"](\.\.\/)+reference-server\//.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(naming.sort()).toEqual(STARTS_REFERENCE_SERVER);
  });
});
