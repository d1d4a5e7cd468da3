// `npm run fuzz [-- --requests N --seed S --concurrency C --json FILE]`: the full fuzz run of the
// reference server (reliability/fuzz.ts); prints the figures and exits 1 on a violation, a crash or
// a heap that did not return to its baseline.
import { writeFileSync } from 'node:fs';
import { integer, positiveInt, scriptCommand } from '../scripts/args.ts';
import { FUZZ_DEFAULTS, runFuzz } from './fuzz.ts';
import { formatBytes, heapGrowth, HEAP_TOLERANCE_BYTES } from './figures.ts';

const values = scriptCommand('npm run fuzz --', 'Fuzz the reference server with generated hostile requests.')
  .option('--requests <n>', 'requests to send', positiveInt, FUZZ_DEFAULTS.requests)
  .option('--seed <s>', 'generator seed (the same seed sends the same requests)', integer, FUZZ_DEFAULTS.seed)
  .option('--concurrency <c>', 'requests in flight at once', positiveInt, FUZZ_DEFAULTS.concurrency)
  .option('--json <file>', 'also write the report as JSON')
  .parse()
  .opts<{ requests: number; seed: number; concurrency: number; json?: string }>();
const report = await runFuzz({
  requests: values.requests,
  seed: values.seed,
  concurrency: values.concurrency,
  onProgress: (done) => {
    if (done % 10_000 === 0) process.stdout.write(`  ${done} requests\n`);
  },
});
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);

const { baseline, after, afterIdle } = report.memory;
const growth = heapGrowth(baseline, afterIdle);
const lines = [
  `fuzz: ${report.requests} requests, seed ${report.seed}, ${(report.elapsedMs / 1000).toFixed(1)} s (${Math.round((report.requests * 1000) / report.elapsedMs)} req/s)`,
  'cases by kind:',
  ...Object.entries(report.byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `  ${kind.padEnd(24)} ${n}`),
  'answers by outcome:',
  ...Object.entries(report.byOutcome)
    .sort((a, b) => b[1] - a[1])
    .map(([outcome, n]) => `  ${outcome.padEnd(24)} ${n}`),
  `violations: ${report.violationCount}`,
  ...report.violations.slice(0, 20).map((v) => `  #${v.index} ${v.kind}: ${v.reason}\n    ${v.request}`),
  `requests resent after the server closed an idle connection unread (C-49): ${report.retriedAfterIdleClose}`,
  `server process: ${report.crashed ? 'CRASHED' : 'alive'} (${report.exit})`,
  `heap used after GC: baseline ${formatBytes(baseline.heapUsed)}, right after ${formatBytes(after.heapUsed)}, after 4 s idle ${formatBytes(afterIdle.heapUsed)} (${growth >= 0 ? '+' : ''}${formatBytes(growth)}; tolerance ${formatBytes(HEAP_TOLERANCE_BYTES)})`,
  `rss: baseline ${formatBytes(baseline.rss)}, after idle ${formatBytes(afterIdle.rss)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
if (report.crashed) process.stdout.write(`stderr of the server process:\n${report.stderr}\n`);
const ok = report.violationCount === 0 && !report.crashed && growth <= HEAP_TOLERANCE_BYTES;
process.stdout.write(`${ok ? 'PASS' : 'FAIL'}\n`);
process.exit(ok ? 0 : 1);
