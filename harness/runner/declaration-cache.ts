// The collected checks and their declarations (suiteFile(), verifies()), kept between runs while the
// suites do not change: collecting them costs a load of every suite file (seconds) that the run then
// pays again. The key is a hash of every file under suites/ and of the modules that resolve a
// declaration, so an edit, a rename or a new file collects afresh. The cache is only ever what a
// collection returned; a failed read or write just collects.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Listing } from './list-checks.ts';

const RESOLVERS = ['harness/check/cost.ts', 'harness/check/verifies.ts'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The cache key of a collection of `files` (undefined: every suite file) from `root`. */
export function declarationsKey(root: string, files: readonly string[] | undefined): string | undefined {
  try {
    const hash = createHash('sha256');
    hash.update(JSON.stringify(files ?? null));
    const paths = [...filesUnder(join(root, 'suites')), ...RESOLVERS.map((f) => join(root, f))].sort();
    for (const path of paths) {
      hash.update(relative(root, path));
      hash.update('\u0000');
      hash.update(readFileSync(path));
    }
    return hash.digest('hex').slice(0, 32);
  } catch {
    return undefined;
  }
}

const cacheDir = (): string => join(tmpdir(), 'a2a-conformance-declarations');

export function readDeclarations(key: string | undefined): Listing | undefined {
  if (key === undefined) return undefined;
  try {
    const listing = JSON.parse(readFileSync(join(cacheDir(), `${key}.json`), 'utf8')) as Listing;
    return Array.isArray(listing.checks) && listing.errors.length === 0 ? listing : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a collection that loaded without errors (written whole, then renamed into place). */
export function writeDeclarations(key: string | undefined, listing: Listing): void {
  if (key === undefined || listing.errors.length > 0) return;
  try {
    mkdirSync(cacheDir(), { recursive: true });
    const path = join(cacheDir(), `${key}.json`);
    const part = `${path}.${process.pid}.part`;
    writeFileSync(part, JSON.stringify(listing));
    renameSync(part, path);
  } catch {
    // No cache: the next run collects again.
  }
}
