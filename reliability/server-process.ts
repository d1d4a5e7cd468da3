// The reference server under test of the reliability runs, alone in its process so that a crash is
// seen as an exit and its memory is not mixed with the driver's: starts from a JSON config file
// (argv[2], the `serve --config` format), prints `ready <baseUrl>`, then answers stdin commands.
//
//   stats       -> `stats {"memory":{...},"deliveries":{"delivered":n,...}}` (memory after a full GC)
//   deliveries  -> `deliveries [...]` (the server's delivery log, C-20)
//   exit        -> closes the server and exits 0
import { createInterface } from 'node:readline';
import { loadConfigFile, startReferenceServer } from '../reference-server/index.ts';

const configPath = process.argv[2];
if (configPath === undefined) throw new Error('usage: server-process.ts <config.json>');
const server = await startReferenceServer(loadConfigFile(configPath));

/** Heap after collecting everything collectable: run with --expose-gc, or the figure includes garbage. */
function memory(): Record<string, number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Two passes: the first may only schedule finalisers whose objects the second frees.
  gc?.();
  gc?.();
  const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, heapTotal, rss, external, arrayBuffers, gc: gc === undefined ? 0 : 1 };
}

function deliveryCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of server.deliveryLog()) counts[record.status] = (counts[record.status] ?? 0) + 1;
  return counts;
}

const commands: Record<string, () => unknown> = {
  stats: () => ({ memory: memory(), deliveries: deliveryCounts() }),
  deliveries: () => server.deliveryLog(),
};

process.stdout.write(`ready ${server.baseUrl}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  if (command === 'exit') break;
  const run = commands[command];
  process.stdout.write(run ? `${command} ${JSON.stringify(run())}\n` : `error unknown command ${command}\n`);
}
await server.close();
process.exit(0);
