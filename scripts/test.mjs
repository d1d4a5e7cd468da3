// `npm test`: runs the project's tests with vitest; the summary reporter prints the closing
// `N passed, N failed` line and vitest's exit code is passed through.
import { spawnSync } from 'node:child_process';

const args = ['vitest', 'run', ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
