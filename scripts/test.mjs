// `npm test` (and test:unit, test:e2e): obtains what the tests need that npm does not install
// (Debian's Chromium for the browser tests, test/support/chromium.ts), then runs the project's tests
// with vitest; the summary reporter prints the closing `N passed, N failed` line and vitest's exit
// code is passed through. When Chromium cannot be obtained the run goes on: the browser tests fail,
// each naming the command that installs it.
import { spawnSync } from 'node:child_process';
import { tsImport } from 'tsx/esm/api';

const { obtainChromium } = await tsImport('../test/support/chromium.ts', import.meta.url);
const problem = obtainChromium((line) => process.stderr.write(`npm test: ${line}\n`));
if (problem !== undefined) process.stderr.write(`npm test: ${problem}\n`);

/**
 * The Redis store tests run Debian's redis-server: installed here when missing and apt-get can (as
 * root, as in CI); otherwise those tests fail naming the command to run.
 */
function obtainRedisServer() {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  const install = () =>
    spawnSync('apt-get', ['install', '-y', 'redis-server'], { stdio: 'ignore' }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    install();
  }
}

obtainRedisServer();
const args = ['vitest', 'run', ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
