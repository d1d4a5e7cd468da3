// Picks the suite files a run with --only needs, so that a run of a few sections loads a few files
// instead of all of them (each costs seconds to load). A file is kept when it, or a local module it
// imports, spells a selected requirement id, or when it spells no id at all (it may build them).
// Nothing here orders the files: their own declarations do (suiteFile(), harness/runner/schedule.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ID_LITERAL = /['"`](\d+(?:\.\d+)?\/[a-z0-9.-]+)['"`]/g;
const LOCAL_IMPORT = /from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'support' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every id literal of a file and of the suite modules it imports (support/ and the harness excluded). */
function idsOf(file: string, suitesDir: string, seen = new Set<string>()): Set<string> {
  const ids = new Set<string>();
  if (seen.has(file)) return ids;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return ids;
  }
  for (const m of text.matchAll(ID_LITERAL)) ids.add(m[1]!);
  for (const m of text.matchAll(LOCAL_IMPORT)) {
    const target = resolve(dirname(file), m[1]!);
    const inSuites = relative(suitesDir, target);
    if (inSuites.startsWith('..') || inSuites.split(sep)[0] === 'support') continue;
    for (const id of idsOf(target, suitesDir, seen)) ids.add(id);
  }
  return ids;
}

/** Every suite file, relative to `root` and `/`-separated, in path order. */
export function allSuiteFiles(root: string, suitesDir: string): string[] {
  return testFiles(suitesDir)
    .sort()
    .map((file) => relative(root, file).split(sep).join('/'));
}

/**
 * The suite files (relative to `root`, `/`-separated) that may register one of `selected`; undefined
 * when every file is needed (no narrowing possible or wanted).
 */
export function suiteFilesFor(
  root: string,
  suitesDir: string,
  selected: readonly string[],
): string[] | undefined {
  const wanted = new Set(selected);
  let files: string[];
  try {
    files = testFiles(suitesDir).sort();
  } catch {
    return undefined;
  }
  const kept = files.filter((file) => {
    const ids = idsOf(file, suitesDir);
    return ids.size === 0 || [...ids].some((id) => wanted.has(id));
  });
  if (kept.length === files.length) return undefined;
  return kept.map((file) => relative(root, file).split(sep).join('/'));
}
