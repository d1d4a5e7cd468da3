#!/usr/bin/env node
// Builds the package's JavaScript entry points when it is packed (`prepack`): tsc (tsconfig.build.json)
// writes a .js beside every TypeScript module that harness/index.ts and reference-server/index.ts
// reach, and its declarations under types/ (beside the sources, a user's compiler would read the
// shipped .ts instead of the .d.ts), so that the paths a module reads relative to itself (package.json,
// suites/, spec/, schemas/, the report page's assets) hold in the package as in a clone, and plain
// Node imports the API with no loader. `--clean` (`postpack`) deletes exactly the files the build
// wrote, as listed in .package-build.json, so a clone goes back to sources only. Its messages go to
// stderr: inside npm's lifecycle, stdout is npm's (`npm pack --json` prints only JSON there).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = join(ROOT, '.package-build.json');

/** The directories the build created for declarations (types/...) go once they are empty. */
function removeEmptyParents(dir) {
  // ROOT ends with a separator: the root itself never matches.
  while (dir.startsWith(ROOT) && existsSync(dir) && readdirSync(dir).length === 0) {
    rmdirSync(dir);
    dir = dirname(dir);
  }
}

function clean() {
  if (!existsSync(MANIFEST)) return 0;
  const files = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  for (const file of files) {
    rmSync(join(ROOT, file), { force: true });
    removeEmptyParents(dirname(join(ROOT, file)));
  }
  rmSync(MANIFEST, { force: true });
  return files.length;
}

/**
 * tsc keeps `./x.ts` specifiers in declaration files (microsoft/TypeScript#61037): a user's
 * compiler would then load our sources instead of the declarations. Point them at `./x.js`, which
 * resolves to the `./x.d.ts` beside it.
 */
function rewriteDeclarationSpecifiers(text) {
  return text.replace(/((?:from\s+|import\s*\(\s*)['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1$2.js$3');
}

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function tsc(flag) {
  return spawnSync(process.execPath, [TSC, '-p', 'tsconfig.build.json', flag], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

/** Hand-written scripts the build would overwrite (and the clean step then delete): none may exist. */
function clashes() {
  const inputs = tsc('--listFilesOnly')
    .stdout.split('\n')
    .map((f) => relative(ROOT, resolve(f.trim())));
  return inputs
    .filter(
      (f) =>
        f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('..') && !f.startsWith('node_modules'),
    )
    .map((f) => f.replace(/\.ts$/, '.js'))
    .filter((f) => existsSync(join(ROOT, f)));
}

function build() {
  const removed = clean();
  if (removed > 0) console.error(`removed ${removed} file(s) of an earlier build`);
  const clash = clashes();
  if (clash.length > 0) {
    console.error(
      `build refused: it would overwrite ${clash.join(', ')} (a script beside a module of the same name)`,
    );
    return 1;
  }
  const run = tsc('--listEmittedFiles');
  const emitted = [...run.stdout.matchAll(/^TSFILE: (.+)$/gm)].map((m) =>
    relative(ROOT, resolve(m[1].trim())),
  );
  writeFileSync(MANIFEST, `${JSON.stringify(emitted, null, 2)}\n`);
  if (run.status !== 0) {
    process.stderr.write(run.stdout.replace(/^TSFILE: .+\n/gm, '') + run.stderr);
    clean();
    console.error('build failed: tsc -p tsconfig.build.json');
    return 1;
  }
  for (const file of emitted.filter((f) => f.endsWith('.d.ts'))) {
    const path = join(ROOT, file);
    writeFileSync(path, rewriteDeclarationSpecifiers(readFileSync(path, 'utf8')));
  }
  console.error(`built ${emitted.length} file(s) beside the sources (listed in .package-build.json)`);
  return 0;
}

if (process.argv.includes('--clean')) {
  console.error(`removed ${clean()} built file(s)`);
} else {
  process.exitCode = build();
}
