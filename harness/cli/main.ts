// Entry of the a2a-conformance CLI (bin/a2a-conformance.js, `npm run certify`, `npm run serve`).
// Exits with the code main() decides (stdout and stderr are synchronous on Linux pipes and files),
// except after `serve`, whose server keeps the process alive.
import { main } from './program.ts';
import { KEEP_RUNNING } from './serve-command.ts';

const code = await main(process.argv, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
});
if (code !== KEEP_RUNNING) process.exit(code);
