// `npm run field`: certifies the reference server under field conditions (bench/field/conditions.ts:
// its `serve` defaults, a 60 requests/min limit, a slow LLM agent, both at once, a remote link with and
// without jitter, late and duplicated webhook deliveries, a runner loaded by two CPU hogs, a 5-minute
// system timeout) with `run --target`, and prints wall time, requests, agent turns, verdict counts,
// MUST requirements exercised and requests per exercised MUST, the run's planned vs actual time (its
// plan, report.json traffic.plan) and false failures (fail or warn where the run without the
// condition, in the same profile, passed) per condition.
// Servers and proxies run in this process on 127.0.0.1:0, each harness run in its own process.
// Never part of `npm test`. Usage: npm run field [-- --only name,name] [-- --profile p] [-- --json file]
// [-- --matrix] (every condition in smoke and standard, and full on the conditions that are not paced:
// the release check: about two hours on 2 shared cores, BENCHMARKS.md "The matrix")
// [-- --breakdown] (each run keeps every exchange, --evidence all, and prints its cost per suite file)
// [-- --keep dir] (each run's reports stay in dir/<profile>/<condition>/, e.g. to read when each file ran)
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey, startReferenceServer } from '../../reference-server/index.ts';
import { loadLegalVariants } from '../../mutants/legal-run.ts';
import { listOf, scriptCommand } from '../../scripts/args.ts';
import { PROFILES } from '../../harness/option-table.ts';
import { breakdownTable, type BreakdownReport } from './breakdown.ts';
import { CONDITIONS, type Condition } from './conditions.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { startRelayedMutant } from '../../mutants/webhook-relay.ts';
import { startReplicaSet } from './replicas.ts';

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
      /** Absent in reports of versions before it. */
      estimateMs?: number;
      fits: string;
      spent: { ms: number };
    };
  };
}

interface Row {
  condition: Condition;
  /** The --profile of the run ('' when the harness chose it). */
  profile: string;
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

/** The target a condition certifies: the reference server, behind a delay proxy or as a legal variant. */
async function startCondition(
  c: Condition,
): Promise<{ baseUrl: string; agentId: string; apiKey: string; args: string[]; close(): Promise<void> }> {
  if (c.legalVariant !== undefined) {
    const variant = (await loadLegalVariants()).find((v) => v.name === c.legalVariant);
    if (variant === undefined) throw new Error(`${c.name}: no legal variant named ${c.legalVariant}`);
    const t = await variant.start();
    return { ...t, args: t.extraArgs ?? [] };
  }
  if (c.webhookRelay !== undefined) {
    const t = await startRelayedMutant(c.webhookRelay);
    return { ...t, args: t.extraArgs ?? [] };
  }
  const key = generateApiKey();
  if (c.replicas !== undefined) {
    const set = await startReplicaSet({
      ...c.replicas,
      server: {
        host: '127.0.0.1',
        port: 0,
        allowPrivateWebhookTargets: true,
        agents: [c.agent(key) as never],
      },
    });
    return {
      baseUrl: set.baseUrl,
      agentId: 'reference-agent',
      apiKey: key,
      args: [],
      close: () => set.close(),
    };
  }
  const server = await startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    allowPrivateWebhookTargets: true,
    agents: [c.agent(key) as never],
  });
  const delayMs = c.delayMs;
  const proxy =
    delayMs === undefined && c.front === undefined
      ? undefined
      : await startDelayProxy(server.baseUrl, {
          ...(delayMs === undefined ? {} : { delayMs: (m, b, h) => delayMs(m, b, h, key) }),
          ...(c.front === undefined ? {} : { front: c.front }),
        });
  return {
    baseUrl: proxy?.baseUrl ?? server.baseUrl,
    agentId: 'reference-agent',
    apiKey: key,
    args: [],
    async close() {
      await proxy?.close();
      await server.close();
    },
  };
}

/** Busy child processes (a core's worth of load each), stopped by their PID. */
function startHogs(n: number): () => void {
  const hogs = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return () => {
    for (const hog of hogs) if (hog.pid !== undefined && hog.exitCode === null) process.kill(hog.pid);
  };
}

async function certify(
  c: Condition,
  profile: string | undefined,
  extraArgs: string[],
  log: (line: string) => void,
  keep: string | undefined,
): Promise<Row> {
  const target = await startCondition(c);
  const label = profile === undefined ? c.name : `${profile}/${c.name}`;
  const out =
    keep === undefined
      ? await mkdtemp(join(tmpdir(), `a2a-field-${c.name}-`))
      : join(keep, profile ?? '', c.name);
  if (keep !== undefined) await mkdir(out, { recursive: true });
  const stopHogs = startHogs(c.cpuHogs ?? 0);
  try {
    const args = ['--target', target.baseUrl, '--agent-id', target.agentId, '--api-key', target.apiKey];
    log(`${label}: ${c.what}...`);
    const started = performance.now();
    const exit = await runHarness([
      ...args,
      '--out',
      out,
      '--quiet',
      ...target.args,
      ...(c.args ?? []),
      ...(profile === undefined ? [] : ['--profile', profile]),
      ...extraArgs,
    ]);
    const wallS = Math.round((performance.now() - started) / 100) / 10;
    let report: Report | undefined;
    try {
      report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    } catch {
      report = undefined;
    }
    log(`${label}: exit ${exit} in ${wallS} s`);
    return { condition: c, profile: profile ?? '', wallS, exit, report };
  } finally {
    stopHogs();
    await target.close();
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

/** The plan's estimate (report.json traffic.plan.estimateMs) vs the suites' actual wall time, in s. */
function plannedVsActual(report: Report | undefined): string {
  const plan = report?.traffic?.plan;
  if (plan === undefined) return '-';
  const s = (ms: number): number => Math.round(ms / 1000);
  const fits =
    plan.fits === 'everything' ? '' : ` (${plan.fits === 'part' ? 'phase 1 did not fit' : 'breadth cut'})`;
  return `${s(plan.estimateMs ?? plan.coverage.ms + plan.breadth.ms)} / ${s(plan.spent.ms)}${fits}`;
}

/** `profile/condition`, or the condition alone when the harness chose the profile. */
function labelOf(row: Row): string {
  return row.profile === '' ? row.condition.name : `${row.profile}/${row.condition.name}`;
}

/** The run without any condition in the same profile as `row`. */
function withoutOf(rows: readonly Row[], row: Row): Row | undefined {
  return rows.find((r) => r.condition.name === 'without' && r.profile === row.profile);
}

/** The false-failures cell: a deployment broken on purpose shows its failures as the expected finding. */
function falseFailureCell(row: Row, without: Row | undefined, ff: string[]): string {
  if (row === without) return '-';
  if (row.condition.broken !== undefined) return `expected (${row.condition.broken}): ${ff.length} failed`;
  return ff.length === 0 ? '0' : `${ff.length}: ${ff.join(', ')}`;
}

function table(rows: Row[]): string {
  const head =
    '| profile | condition | wall s | x without | planned / actual s (suites) | requests | MUST exercised | requests per exercised MUST | agent turns | turn p50/p95 ms | waited s (summed over checks) | 429s | pass | fail | warn | not-exercised | error | false failures | exit |';
  const lines = [head, `|${' --- |'.repeat(19)}`];
  for (const row of rows) {
    const without = withoutOf(rows, row);
    const r = row.report;
    const v = r?.summary.byVerdict ?? {};
    const t = r?.traffic;
    const ratio =
      without !== undefined && row !== without ? `${Math.round((row.wallS / without.wallS) * 10) / 10}` : '';
    const ff = falseFailures(row, without);
    lines.push(
      `| ${row.profile || '(default)'} | ${row.condition.what} | ${row.wallS} | ${ratio} | ${plannedVsActual(r)} | ${t?.requests ?? '?'} | ${mustExercised(r) ?? '?'} | ${requestsPerMust(r)} | ${t?.agentTurns ?? '?'} | ${t?.turnLatencyMs.p50 ?? '-'}/${t?.turnLatencyMs.p95 ?? '-'} | ${t === undefined ? '?' : Math.round(t.rateLimit.waitedMs / 1000)} | ${t?.rateLimit.rateLimitedAnswers ?? '?'} | ${v.pass ?? 0} | ${v.fail ?? 0} | ${v.warn ?? 0} | ${v['not-exercised'] ?? 0} | ${v.error ?? 0} | ${falseFailureCell(row, without, ff)} | ${row.exit} |`,
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
  .option(
    '--profile <profiles>',
    'the --profile of every harness run; several, comma-separated, run the conditions in each',
    listOf(PROFILES),
  )
  .option('--matrix', 'every condition in smoke and standard, and full on the conditions that are not paced')
  .option('--json <file>', 'also write the rows as JSON')
  .option('--breakdown', "keep every exchange (--evidence all) and print each run's cost per suite file")
  .option('--keep <dir>', "keep each run's reports in <dir>/<condition>/ (with --breakdown: every exchange)")
  .parse()
  .opts<{
    only?: string[];
    profile?: string[];
    matrix?: boolean;
    json?: string;
    breakdown?: boolean;
    keep?: string;
  }>();
const only = values.only ?? CONDITIONS.map((c) => c.name);
// The run without any condition comes first: every other row is compared with it.
const chosen = CONDITIONS.filter((c) => c.name === 'without' || only.includes(c.name));
const extra = values.breakdown === true ? ['--evidence', 'all'] : [];
const log = (line: string): void => void process.stderr.write(`${line}\n`);
/** Each profile with the conditions it runs on; the run without any condition first in each. */
const plan: Array<[string | undefined, Condition[]]> =
  values.matrix === true
    ? [
        ['smoke', chosen],
        ['standard', chosen],
        ['full', chosen.filter((c) => c.paced !== true)],
      ]
    : (values.profile ?? [undefined]).map((p): [string | undefined, Condition[]] => [p, chosen]);
const rows: Row[] = [];
for (const [profile, conditions] of plan) {
  for (const c of conditions) rows.push(await certify(c, profile, extra, log, values.keep));
}
process.stdout.write(`${table(rows)}\n`);
for (const row of rows) {
  if (values.breakdown === true && row.report !== undefined) {
    const report = row.report as unknown as BreakdownReport;
    process.stdout.write(`\n${labelOf(row)}: cost per suite file\n\n${breakdownTable(report)}\n`);
  }
  if (row.exit !== 0 && row.report !== undefined) {
    const errors = row.report.harnessErrors.slice(0, 3).map((e) => e.message);
    process.stdout.write(
      `\n${labelOf(row)}: exit ${row.exit}: ${row.report.exitReason} ${JSON.stringify(errors)}\n`,
    );
  }
  const ne =
    row.report?.requirements.filter((r) => r.verdict === 'not-exercised' || r.verdict === 'error') ?? [];
  if (ne.length > 0 && ne.length <= 12) {
    process.stdout.write(
      `\n${labelOf(row)}: ${ne.map((r) => `${r.id} (${r.verdict}: ${r.message ?? r.checks?.find((k) => k.message)?.message ?? ''})`).join('; ')}\n`,
    );
  } else if (ne.length > 12) {
    process.stdout.write(`\n${labelOf(row)}: ${ne.length} requirements not exercised or in error\n`);
  }
}
if (values.json !== undefined) {
  const data = rows.map((r) => ({
    condition: r.condition.name,
    profile: r.profile,
    wallS: r.wallS,
    exit: r.exit,
    traffic: r.report?.traffic,
    byVerdict: r.report?.summary.byVerdict,
    mustExercised: mustExercised(r.report),
    falseFailures: falseFailures(r, withoutOf(rows, r)),
  }));
  await writeFile(values.json, `${JSON.stringify(data, null, 2)}\n`);
}
