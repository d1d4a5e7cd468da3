// `npm run field`: certifies the reference server under field conditions (its `serve` defaults, a
// 60 requests/min limit, a slow LLM agent, both at once, a remote link, a 5-minute system timeout) with
// `run --target` in the default profile, and prints wall time, requests, agent turns, verdict counts,
// MUST requirements exercised and requests per exercised MUST, the run's planned vs actual time (its
// plan, report.json traffic.plan) and false failures (fail or warn where the run without the
// condition passed) per condition.
// Servers and proxies run in this process on 127.0.0.1:0, each harness run in its own process.
// Never part of `npm test`. Usage: npm run field [-- --only name,name] [-- --profile p] [-- --json file]
// [-- --breakdown] (each run keeps every exchange, --evidence all, and prints its cost per suite file)
// [-- --keep dir] (each run's reports stay in dir/<condition>/, e.g. to read when each file ran)
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey, startReferenceServer } from '../../reference-server/index.ts';
import { listOf, scriptCommand } from '../../scripts/args.ts';
import { breakdownTable, type BreakdownReport } from './breakdown.ts';
import { CONDITIONS, type Condition } from './conditions.ts';
import { startDelayProxy } from './delay-proxy.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Report {
  exitCode: number;
  exitReason: string;
  harnessErrors: Array<{ message: string }>;
  durationMs: number;
  summary: { byVerdict: Record<string, number> };
  requirements: Array<{
    id: string;
    level: string;
    verdict: string;
    message?: string;
    checks?: Array<{ message?: string }>;
  }>;
  traffic?: {
    requests: number;
    agentTurns: number;
    turnLatencyMs: { p50: number | null; p95: number | null };
    rateLimit: { waitedMs: number; rateLimitedAnswers: number };
    plan?: {
      coverage: { ms: number };
      breadth: { ms: number };
      fits: string;
      spent: { ms: number };
    };
  };
}

interface Row {
  condition: Condition;
  wallS: number;
  exit: number;
  report: Report | undefined;
}

function runHarness(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'harness/cli/main.ts', 'run', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 2));
  });
}

async function certify(
  c: Condition,
  extraArgs: string[],
  log: (line: string) => void,
  keep: string | undefined,
): Promise<Row> {
  const key = generateApiKey();
  const server = await startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    allowPrivateWebhookTargets: true,
    agents: [c.agent(key) as never],
  });
  const proxy =
    c.delayMs === undefined
      ? undefined
      : await startDelayProxy(server.baseUrl, { delayMs: (m, b, h) => c.delayMs!(m, b, h, key) });
  const out = keep === undefined ? await mkdtemp(join(tmpdir(), `a2a-field-${c.name}-`)) : join(keep, c.name);
  if (keep !== undefined) await mkdir(out, { recursive: true });
  try {
    const target = proxy?.baseUrl ?? server.baseUrl;
    const args = ['--target', target, '--agent-id', 'reference-agent', '--api-key', key, '--out', out];
    log(`${c.name}: ${c.what}...`);
    const started = performance.now();
    const exit = await runHarness([...args, '--quiet', ...(c.args ?? []), ...extraArgs]);
    const wallS = Math.round((performance.now() - started) / 100) / 10;
    let report: Report | undefined;
    try {
      report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    } catch {
      report = undefined;
    }
    log(`${c.name}: exit ${exit} in ${wallS} s`);
    return { condition: c, wallS, exit, report };
  } finally {
    await proxy?.close();
    await server.close();
    if (keep === undefined) await rm(out, { recursive: true, force: true });
  }
}

/** Requirements graded fail or warn here that passed without the condition. */
function falseFailures(row: Row, without: Row | undefined): string[] {
  if (row.report === undefined || without?.report === undefined) return [];
  const passed = new Set(without.report.requirements.filter((r) => r.verdict === 'pass').map((r) => r.id));
  return row.report.requirements
    .filter((r) => (r.verdict === 'fail' || r.verdict === 'warn') && passed.has(r.id))
    .map((r) => r.id);
}

const EXERCISED = new Set(['pass', 'fail', 'warn', 'info']);

/** MUST requirements that got a verdict (not not-exercised, error or not-applicable). */
function mustExercised(report: Report | undefined): number | undefined {
  return report?.requirements.filter((r) => r.level === 'MUST' && EXERCISED.has(r.verdict)).length;
}

/** Requests per exercised MUST requirement: what a verdict costs on this agent. */
function requestsPerMust(report: Report | undefined): string {
  const must = mustExercised(report);
  const requests = report?.traffic?.requests;
  if (must === undefined || requests === undefined) return '?';
  return must === 0 ? '-' : String(Math.round((requests / must) * 10) / 10);
}

/** The plan's estimate (both phases, at this agent's pace) vs the suites' actual wall time, in s. */
function plannedVsActual(report: Report | undefined): string {
  const plan = report?.traffic?.plan;
  if (plan === undefined) return '-';
  const s = (ms: number): number => Math.round(ms / 1000);
  const fits =
    plan.fits === 'everything' ? '' : ` (${plan.fits === 'part' ? 'phase 1 did not fit' : 'breadth cut'})`;
  return `${s(plan.coverage.ms + plan.breadth.ms)} / ${s(plan.spent.ms)}${fits}`;
}

function table(rows: Row[]): string {
  const without = rows.find((r) => r.condition.name === 'without');
  const head =
    '| condition | wall s | x without | planned / actual s (suites) | requests | MUST exercised | requests per exercised MUST | agent turns | turn p50/p95 ms | waited s (summed over checks) | 429s | pass | fail | warn | not-exercised | error | false failures | exit |';
  const lines = [head, `|${' --- |'.repeat(18)}`];
  for (const row of rows) {
    const r = row.report;
    const v = r?.summary.byVerdict ?? {};
    const t = r?.traffic;
    const ratio =
      without !== undefined && row !== without ? `${Math.round((row.wallS / without.wallS) * 10) / 10}` : '';
    const ff = falseFailures(row, without);
    lines.push(
      `| ${row.condition.what} | ${row.wallS} | ${ratio} | ${plannedVsActual(r)} | ${t?.requests ?? '?'} | ${mustExercised(r) ?? '?'} | ${requestsPerMust(r)} | ${t?.agentTurns ?? '?'} | ${t?.turnLatencyMs.p50 ?? '-'}/${t?.turnLatencyMs.p95 ?? '-'} | ${t === undefined ? '?' : Math.round(t.rateLimit.waitedMs / 1000)} | ${t?.rateLimit.rateLimitedAnswers ?? '?'} | ${v.pass ?? 0} | ${v.fail ?? 0} | ${v.warn ?? 0} | ${v['not-exercised'] ?? 0} | ${v.error ?? 0} | ${row === without ? '-' : ff.length === 0 ? 0 : `${ff.length}: ${ff.join(', ')}`} | ${row.exit} |`,
    );
  }
  return lines.join('\n');
}

const values = scriptCommand('npm run field --', 'Certify the reference server under field conditions.')
  .option(
    '--only <names>',
    'conditions to run, comma-separated (the run without any always runs)',
    listOf(CONDITIONS.map((c) => c.name)),
  )
  .option('--profile <profile>', 'the --profile of every harness run')
  .option('--json <file>', 'also write the rows as JSON')
  .option('--breakdown', "keep every exchange (--evidence all) and print each run's cost per suite file")
  .option('--keep <dir>', "keep each run's reports in <dir>/<condition>/ (with --breakdown: every exchange)")
  .parse()
  .opts<{ only?: string[]; profile?: string; json?: string; breakdown?: boolean; keep?: string }>();
const only = values.only ?? CONDITIONS.map((c) => c.name);
// The run without any condition comes first: every other row is compared with it.
const chosen = CONDITIONS.filter((c) => c.name === 'without' || only.includes(c.name));
const extra = [
  ...(values.profile === undefined ? [] : ['--profile', values.profile]),
  ...(values.breakdown === true ? ['--evidence', 'all'] : []),
];
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const rows: Row[] = [];
for (const c of chosen) rows.push(await certify(c, extra, log, values.keep));
process.stdout.write(`${table(rows)}\n`);
for (const row of rows) {
  if (values.breakdown === true && row.report !== undefined) {
    const report = row.report as unknown as BreakdownReport;
    process.stdout.write(`\n${row.condition.name}: cost per suite file\n\n${breakdownTable(report)}\n`);
  }
  if (row.exit !== 0 && row.report !== undefined) {
    const errors = row.report.harnessErrors.slice(0, 3).map((e) => e.message);
    process.stdout.write(
      `\n${row.condition.name}: exit ${row.exit}: ${row.report.exitReason} ${JSON.stringify(errors)}\n`,
    );
  }
  const ne =
    row.report?.requirements.filter((r) => r.verdict === 'not-exercised' || r.verdict === 'error') ?? [];
  if (ne.length > 0 && ne.length <= 12) {
    process.stdout.write(
      `\n${row.condition.name}: ${ne.map((r) => `${r.id} (${r.verdict}: ${r.message ?? r.checks?.find((k) => k.message)?.message ?? ''})`).join('; ')}\n`,
    );
  } else if (ne.length > 12) {
    process.stdout.write(`\n${row.condition.name}: ${ne.length} requirements not exercised or in error\n`);
  }
}
if (values.json !== undefined) {
  const data = rows.map((r) => ({
    condition: r.condition.name,
    wallS: r.wallS,
    exit: r.exit,
    traffic: r.report?.traffic,
    byVerdict: r.report?.summary.byVerdict,
    mustExercised: mustExercised(r.report),
    falseFailures: falseFailures(r, rows[0]),
  }));
  await writeFile(values.json, `${JSON.stringify(data, null, 2)}\n`);
}
