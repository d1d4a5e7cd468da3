// `npm run bench`: every scenario in one run, servers in their own processes on loopback, then the
// environment and the Markdown tables on stdout and the whole result in bench/results/<time>.json.
// Never part of `npm test`. Options: bench/lib/settings.ts (--duration, --rounds, --only, --cpu-prof).
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { environment, markdown, type BenchResults } from './lib/report.ts';
import { readSettings } from './lib/settings.ts';
import { round } from './lib/stats.ts';
import { benchCertify } from './scenarios/certify.ts';
import { benchMemory } from './scenarios/memory.ts';
import { benchSend } from './scenarios/send.ts';
import { benchStreams } from './scenarios/streams.ts';
import { benchWebhooks } from './scenarios/webhooks.ts';

const RESULTS_DIR = new URL('results/', import.meta.url);
const settings = readSettings();
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const started = performance.now();
const results: BenchResults = { startedAt: new Date().toISOString(), environment: environment(), settings };

for (const scenario of settings.only) {
  log(`${scenario}...`);
  if (scenario === 'send') results.send = await benchSend(settings, log);
  if (scenario === 'streams') results.streams = await benchStreams(settings, log);
  if (scenario === 'webhooks') results.webhooks = await benchWebhooks(settings, log);
  if (scenario === 'memory') results.memory = await benchMemory(settings, log);
  if (scenario === 'certify') results.certify = await benchCertify(log);
}
results.totalS = round((performance.now() - started) / 1000);

await mkdir(RESULTS_DIR, { recursive: true });
const file = new URL(`${results.startedAt.replaceAll(':', '-')}.json`, RESULTS_DIR);
await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${markdown(results)}\n\nResults: ${fileURLToPath(file)}\n`);
