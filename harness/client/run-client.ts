// `a2a-conformance client -- <command>`: for each scenario, a scenario server (the reference server
// with scripted behaviour) and one run of the user's driver with A2A_TARGET, A2A_AGENT_ID,
// A2A_API_KEY, A2A_SCENARIO (and A2A_FILE); what the server saw and what the driver printed are
// graded against the client requirements of the ledger (rulings C-74 to C-77).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRoleCheck } from '../roles/role-check.ts';
import { roleRunOptions, roleRunResult, type RoleRunOptions } from '../roles/role-run.ts';
import { ConfigError } from '../options.ts';
import { shellQuote } from '../reproduce.ts';
import { selectForRun } from '../runner/select-requirements.ts';
import type { CheckResult, RunResult } from '../../core/types.ts';
import { EVERY_MESSAGE_CHECKS, EVERY_REQUEST_CHECKS } from './client-checks.ts';
import type { ClientCheckDef, ScenarioRun } from './client-evidence.ts';
import { SCENARIO_CHECKS } from './scenario-checks.ts';
import { runDriver } from './driver-process.ts';
import { startScenarioServer } from './scenario-server.ts';
import { startUpstream, type Upstream } from './upstream.ts';
import {
  EVERY_MESSAGE,
  EVERY_REQUEST,
  SCENARIO_REQUIREMENTS,
  SCENARIOS,
  type Scenario,
} from './scenarios.ts';

export interface ClientRunOptions extends Partial<RoleRunOptions> {
  /** The driver: a program and its arguments, run once per scenario. */
  command: string[];
  /** Scenarios to run (default all, in SCENARIOS order). */
  scenarios?: Scenario[];
  /** Budget of one scenario's driver run, after which its process group is killed (default 30000). */
  scenarioTimeoutMs?: number;
  log?: (line: string) => void;
}

/** The file of the `file` scenario: every byte value, and a length that needs Base64 padding. */
export function scenarioFileBytes(): Buffer {
  return Buffer.concat([
    Buffer.from('%A2A sample\n', 'ascii'),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    randomBytes(500),
  ]);
}

export function checksOf(scenario: Scenario): ClientCheckDef[] {
  return [...EVERY_REQUEST_CHECKS, ...EVERY_MESSAGE_CHECKS, ...SCENARIO_CHECKS[scenario]];
}

/** Requirements a set of scenarios grades: the requirements of a scenario not run stay unchecked. */
function gradedBy(scenarios: readonly Scenario[]): Set<string> {
  return new Set([...EVERY_REQUEST, ...EVERY_MESSAGE, ...scenarios.flatMap((s) => SCENARIO_REQUIREMENTS[s])]);
}

async function runScenario(
  scenario: Scenario,
  upstream: Upstream,
  opts: ClientRunOptions,
  budgetMs: number,
  fileDir: string,
): Promise<ScenarioRun> {
  const server = await startScenarioServer(scenario, upstream);
  const env: Record<string, string> = {
    A2A_TARGET: server.baseUrl,
    A2A_AGENT_ID: server.agentId,
    A2A_API_KEY: server.apiKey,
    A2A_SCENARIO: scenario,
  };
  let file: Buffer | undefined;
  if (scenario === 'file') {
    file = scenarioFileBytes();
    env.A2A_FILE = join(fileDir, 'sample.bin');
    writeFileSync(env.A2A_FILE, file);
  }
  try {
    const driver = await runDriver(opts.command, env, budgetMs);
    return {
      scenario,
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
      requests: [...server.requests()],
      driver,
      ...(file === undefined ? {} : { file }),
    };
  } finally {
    await server.close();
  }
}

function reproduceFor(command: readonly string[], scenario: Scenario, id: string): string {
  return `npx a2a-conformance client --scenario ${scenario} --only ${shellQuote(id)} -- ${command.map(shellQuote).join(' ')}`;
}

async function gradeScenario(
  run: ScenarioRun,
  ids: ReadonlySet<string>,
  command: readonly string[],
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const def of checksOf(run.scenario).filter((d) => ids.has(d.requirementId))) {
    results.push(
      await runRoleCheck({
        requirementId: def.requirementId,
        title: def.title.startsWith(`${run.scenario}:`) ? def.title : `${run.scenario}: ${def.title}`,
        reproduce: reproduceFor(command, run.scenario, def.requirementId),
        fn: (rec, ev) => def.check(run, rec, ev),
      }),
    );
  }
  return results;
}

export async function certifyClient(opts: ClientRunOptions): Promise<RunResult> {
  if (opts.command.length === 0)
    throw new ConfigError('client needs a command after --, e.g. client -- node my-driver.mjs');
  const startedAt = new Date();
  const options = roleRunOptions(opts, opts.scenarioTimeoutMs ?? 30_000);
  const selected = selectForRun(options, 'client');
  const ids = new Set(selected.map((r) => r.id));
  // Without --scenario, only the scenarios that grade a selected requirement run (--only 4.2/* runs stream and cancel).
  const scenarios = SCENARIOS.filter((s) =>
    opts.scenarios === undefined ? [...gradedBy([s])].some((id) => ids.has(id)) : opts.scenarios.includes(s),
  );
  const log = opts.log ?? (() => undefined);
  const apiKey = randomBytes(24).toString('base64url');
  const upstream = await startUpstream(apiKey);
  const fileDir = mkdtempSync(join(tmpdir(), 'a2a-client-'));
  const checks: CheckResult[] = [];
  let couldNotRun: string | null = null;
  try {
    log(`a2a-conformance client: ${opts.command.join(' ')}, scenarios ${scenarios.join(', ')}`);
    for (const scenario of scenarios) {
      // Interrupted (SIGINT, SIGTERM): the scenario under way ended; no other starts.
      if (opts.signal?.aborted === true) break;
      const run = await runScenario(scenario, upstream, opts, options.timeoutMs, fileDir);
      if (run.driver.spawnError !== undefined) {
        couldNotRun = run.driver.spawnError;
        break;
      }
      const graded = await gradeScenario(run, ids, opts.command);
      const failed = graded.filter((c) => c.status !== 'pass').length;
      log(
        `  ${scenario.padEnd(10)} exit ${run.driver.killed ? 'killed' : run.driver.exitCode}, ${run.requests.length} request(s), ${graded.length} check(s)${failed > 0 ? `, ${failed} not passed` : ''}`,
      );
      checks.push(...graded);
    }
  } finally {
    rmSync(fileDir, { recursive: true, force: true });
    await upstream.close();
  }
  const graded = gradedBy(scenarios);
  const unchecked = new Map(
    selected
      .filter((r) => !graded.has(r.id))
      .map((r) => [r.id, `not graded: its scenario was not run (${scenariosOf(r.id).join(', ')})`]),
  );
  const result = roleRunResult({
    role: 'client',
    target: opts.command.join(' '),
    selected,
    checks,
    unchecked,
    reachability: {
      reachable: couldNotRun === null,
      authenticated: true,
      message: couldNotRun ?? 'driver started',
      durationMs: 0,
    },
    harnessErrors: couldNotRun === null ? [] : [{ message: couldNotRun }],
    couldNotRun,
    startedAt,
    options,
    secrets: [apiKey],
  });
  return result;
}

function scenariosOf(id: string): Scenario[] {
  return SCENARIOS.filter((s) => SCENARIO_REQUIREMENTS[s].includes(id));
}

/** Every check of the client mode, per scenario, as `list` and `explain` show them. */
export function clientCheckList(): Array<{ requirementId: string; title: string }> {
  return SCENARIOS.flatMap((s) =>
    checksOf(s).map((c) => ({
      requirementId: c.requirementId,
      title: c.title.startsWith(`${s}:`) ? c.title : `${s}: ${c.title}`,
    })),
  );
}
