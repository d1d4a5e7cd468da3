// The browser the tests of report.html, fleet.html and report.har open pages in: Debian's Chromium,
// driven by playwright-core (nothing is downloaded). `npm test` (scripts/test.mjs) installs it with
// apt-get when it is missing; where it cannot (no root, no apt-get), the tests that need it fail with
// the one command that installs it, never a skip.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The Chromium executable: CHROMIUM_PATH when set (any Chromium build), else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH !== undefined && env.CHROMIUM_PATH !== ''
    ? env.CHROMIUM_PATH
    : '/usr/bin/chromium';
}

const APT_INSTALL = ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'];

function succeeds(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

const isRoot = (): boolean => process.getuid?.() === 0;
const hasApt = (): boolean => succeeds('sh', ['-c', 'command -v apt-get']);

/** The one command that makes Chromium available on this machine. */
export function installCommand(): string {
  if (!hasApt()) return 'install Chromium, then run the tests with CHROMIUM_PATH=/path/to/chromium npm test';
  return `${isRoot() ? '' : 'sudo '}${APT_INSTALL.join(' ')}`;
}

/** Why the browser tests cannot run here (with the command that fixes it), or undefined when they can. */
export function chromiumProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = chromiumPath(env);
  if (existsSync(path)) return undefined;
  return `the browser tests need Chromium at ${path}, which is missing: ${installCommand()}`;
}

/**
 * Installs Debian's Chromium when it is missing and this process may (root, or sudo without a
 * password, and apt-get). Returns what is still wrong, or undefined when Chromium is there.
 */
export function obtainChromium(log: (line: string) => void): string | undefined {
  if (chromiumProblem() === undefined) return undefined;
  if (chromiumPath() !== '/usr/bin/chromium' || !hasApt()) return chromiumProblem();
  const sudo = isRoot() ? [] : ['sudo', '-n'];
  if (sudo.length > 0 && !succeeds('sudo', ['-n', 'true'])) return chromiumProblem();
  log(`Chromium is missing (the browser tests need it): ${APT_INSTALL.join(' ')}`);
  const run = (args: string[]): boolean => {
    const [command, ...rest] = [...sudo, ...args];
    const result = spawnSync(command!, rest, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (result.status !== 0 && result.stderr) log(result.stderr.trim());
    return result.status === 0;
  };
  // The package lists may be absent or stale on a fresh machine: refresh them once, then retry.
  if (!run(APT_INSTALL)) {
    log('apt-get install failed; apt-get update, then once more');
    if (run(['apt-get', 'update'])) run(APT_INSTALL);
  }
  return chromiumProblem();
}
