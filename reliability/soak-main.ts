// `npm run soak [-- --clients N --duration-s S --json FILE --no-faults]`: the soak run of the reference
// server (reliability/soak.ts), then webhook delivery against every faulty receiver, the ones that
// wait out 5 s attempts included (reliability/webhook-faults.ts). Prints the figures and exits 1 on
// an error beyond the ruled limits, a lost or stuck task, a lost or duplicated webhook event, a
// crash, or a heap past its bound.
import { writeFileSync } from 'node:fs';
import { positiveInt, positiveNumber, scriptCommand } from '../scripts/args.ts';
import { formatBytes } from './figures.ts';
import { runSoak, SOAK_DEFAULTS, soakVerdict } from './soak.ts';
import { runWebhookFaults } from './webhook-faults.ts';

const values = scriptCommand(
  'npm run soak --',
  'Soak the reference server, then deliver webhooks to faulty receivers.',
)
  .option('--clients <n>', 'concurrent clients', positiveInt, SOAK_DEFAULTS.clients)
  .option('--duration-s <s>', 'seconds of load', positiveNumber, SOAK_DEFAULTS.durationMs / 1000)
  .option('--json <file>', 'also write the report as JSON')
  .option('--no-faults', 'skip the webhook fault scenarios')
  .parse()
  .opts<{ clients: number; durationS: number; json?: string; faults: boolean }>();
const durationMs = values.durationS * 1000;
const report = await runSoak({
  clients: values.clients,
  durationMs,
  onSample: (atMs, memory, requests) =>
    process.stdout.write(
      `  ${(atMs / 1000).toFixed(0)} s: ${requests} requests, heap ${formatBytes(memory.heapUsed)}, rss ${formatBytes(memory.rss)}\n`,
    ),
});
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);

const { tasks, webhooks, memory } = report;
const seconds = report.durationMs / 1000;
const table = (record: Record<string, number>): string[] =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `  ${key.padEnd(28)} ${n}`);
const lines = [
  `soak: ${report.clients} clients for ${seconds} s: ${report.requests} requests (${Math.round(report.requests / seconds)} req/s), ${report.resent} resent after an idle close (C-49)`,
  'operations:',
  ...table(report.operations),
  'answers by outcome:',
  ...table(report.outcomes),
  `errors beyond the ruled limits: ${Object.values(report.errors).reduce((a, b) => a + b, 0)}`,
  ...table(report.errors),
  ...report.errorExamples.map((e) => `    ${e}`),
  `tasks: ${tasks.created} created, ${tasks.finalSeen} final, ${tasks.stuck.length} not final ${tasks.stuck.join(' ')}`,
  ...table(tasks.byState),
  `webhook events: ${webhooks.expectedEvents} expected (task.submitted and the final event of each task), ${webhooks.delivered} delivered, ${webhooks.recordedFailed} failed after their retries, ${webhooks.dropped} dropped past the backlog bound (C-50), ${webhooks.canceled} canceled with their evicted task (C-44), ${webhooks.lostCount} lost ${webhooks.lost.join(' ')}`,
  `  server delivery log: ${Object.entries(webhooks.logByStatus)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ')}`,
  `  attempts of failed deliveries: ${Object.entries(webhooks.failedAttemptErrors)
    .map(([why, n]) => `${n} ${why}`)
    .join(', ')}`,
  `  ${webhooks.attemptsReceived} attempts received, ${webhooks.retriedDeliveries} events retried, ${webhooks.duplicates.length} duplicates under another delivery id ${webhooks.duplicates.join(' ')}`,
  `heap used after GC: start ${formatBytes(memory.start.heapUsed)}, peak sample ${formatBytes(Math.max(0, ...memory.samples.map((s) => s.heapUsed)))}, end ${formatBytes(memory.end.heapUsed)}; rss start ${formatBytes(memory.start.rss)}, end ${formatBytes(memory.end.rss)}`,
  `server process: ${report.crashed ? 'CRASHED' : 'alive'}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
if (report.crashed) process.stdout.write(`stderr of the server process:\n${report.stderr}\n`);
const problems = soakVerdict(report);
process.stdout.write(problems.length === 0 ? 'soak PASS\n' : `soak FAIL: ${problems.join('; ')}\n`);

if (values.faults) {
  process.stdout.write('webhook delivery against faulty receivers:\n');
  const faults = await runWebhookFaults({ long: true });
  for (const s of faults.scenarios) {
    const statuses = Object.entries(s.byStatus)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    process.stdout.write(
      `  ${s.name.padEnd(20)} expect ${s.expect.padEnd(9)} ${s.events} events (${statuses}), ${s.attemptsReceived} attempts received, longest ${s.longestMs} ms\n`,
    );
    for (const problem of s.problems) process.stdout.write(`    ${problem}\n`);
    if (s.problems.length > 0) problems.push(`webhook scenario ${s.name}: ${s.problems.length} problems`);
  }
  if (faults.crashed) problems.push('the server process crashed under webhook faults');
}
process.stdout.write(problems.length === 0 ? 'PASS\n' : `FAIL: ${problems.join('; ')}\n`);
process.exit(problems.length === 0 ? 0 : 1);
