// Checks a directory the harness will write reports into, before the first request: a run must not
// spend its agent turns and only then find that --out names a file, sits on a read-only file system
// or cannot be written. A problem is a ConfigError (exit 2) that names the path and the fix.
import { accessSync, constants, mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from './options.ts';

/** Why an errno stops a write, in words a user acts on. */
const WRITE_ERRORS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'it is a directory',
  ENAMETOOLONG: 'the name is too long',
};

/** `--out reports/x cannot be written (read-only file system): ...`: the message of a failed write. */
export function describeWriteError(e: unknown, flag: string, path: string): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const why = (code !== undefined ? WRITE_ERRORS[code] : undefined) ?? (e as Error | undefined)?.message;
  return `${flag} ${path} cannot be written (${why ?? 'unknown error'}): give ${flag} a directory you can write, e.g. ${flag} ./reports`;
}

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The nearest path at or above `abs` that exists (the root always does). */
function existingAncestor(abs: string): string {
  let at = abs;
  while (statOf(at) === undefined && dirname(at) !== at) at = dirname(at);
  return at;
}

/**
 * Makes sure `dir` is (or can be made) a directory the harness can write `files` into: it is created
 * when missing, a probe file is written and removed, and each of `files` already there must be a
 * writable file. `flag` names the option in the message (`--out`).
 */
export function checkOutputDir(dir: string, flag: string, files: readonly string[] = []): string {
  const abs = resolve(dir);
  const ancestor = existingAncestor(abs);
  if (!statOf(ancestor)!.isDirectory()) {
    throw new ConfigError(
      ancestor === abs
        ? `${flag} ${dir} is a file, not a directory: give ${flag} a directory (it is created when missing), e.g. ${flag} ./reports`
        : `${flag} ${dir} cannot be made: ${ancestor} is a file, not a directory; give ${flag} a directory under a directory, e.g. ${flag} ./reports`,
    );
  }
  try {
    mkdirSync(abs, { recursive: true });
    // access() says nothing of a full disk, and root passes it everywhere: a real write answers.
    const probe = join(abs, `.a2a-conformance-write-check-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    throw new ConfigError(describeWriteError(e, flag, dir));
  }
  for (const name of files) {
    const file = join(abs, name);
    const stat = statOf(file);
    if (stat === undefined) continue;
    if (stat.isDirectory())
      throw new ConfigError(
        `${flag} ${dir}: ${name} there is a directory, so the report cannot be written: remove it or give ${flag} another directory`,
      );
    try {
      accessSync(file, constants.W_OK);
    } catch (e) {
      throw new ConfigError(describeWriteError(e, flag, join(dir, name)));
    }
  }
  return abs;
}

/**
 * The same check for an option that names one file to write (a stream of events, a log): its
 * directory as checkOutputDir() checks it, and the file, when it is there, a writable file.
 */
export function checkOutputFile(file: string, flag: string): string {
  const abs = resolve(file);
  if (statOf(abs)?.isDirectory() === true)
    throw new ConfigError(`${flag} ${file} is a directory: give ${flag} a file to write`);
  const ancestor = existingAncestor(dirname(abs));
  if (!statOf(ancestor)!.isDirectory())
    throw new ConfigError(`${flag} ${file} cannot be made: ${ancestor} is a file, not a directory`);
  checkOutputDir(dirname(abs), flag, [basename(abs)]);
  return abs;
}
