// `npm run webhook-faults`: webhook delivery against faulty receivers (reliability/webhook-faults.ts),
// the scenarios that wait out 5 s attempts included; prints each scenario and exits 1 on a problem.
import { runWebhookFaults } from './webhook-faults.ts';

const report = await runWebhookFaults({ long: true });
for (const s of report.scenarios) {
  const statuses = Object.entries(s.byStatus)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  process.stdout.write(
    `${s.name.padEnd(20)} expect ${s.expect.padEnd(9)} ${s.events} events (${statuses}), ${s.attemptsReceived} attempts received, longest ${s.longestMs} ms${s.problems.length > 0 ? `\n  ${s.problems.join('\n  ')}` : ''}\n`,
  );
}
const failed = report.crashed || report.scenarios.some((s) => s.problems.length > 0);
if (report.crashed) process.stdout.write(`server process crashed:\n${report.stderr}\n`);
process.stdout.write(failed ? 'FAIL\n' : 'PASS\n');
process.exit(failed ? 1 : 0);
