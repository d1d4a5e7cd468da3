// A fleet of agents to certify on loopback, for the fleet test and bench/fleet.ts: one reference
// server hosting several agents (some behind a latency proxy), mutant proxies that each break one
// requirement (mutants/variants/), an agent whose credential is refused, one whose target never
// answers, one that resets every connection and one whose credential variable is unset. Writes the
// fleet file and says what each agent's certification must give.
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { certificationAgent } from '../mutants/proxy.ts';
import { loadVariants } from '../mutants/runner.ts';
import type { MutantTarget } from '../mutants/types.ts';
import { generateApiKey, startReferenceServer } from '../reference-server/index.ts';
import type { FleetAgent, FleetFile, FleetHost, FleetRunOptions } from '../schemas/generated/types.ts';
import { startDelayProxy } from './field/delay-proxy.ts';

/** Variants whose checks are quick and whose run needs no extra option (webhook receivers). */
export const FLEET_VARIANTS = [
  '7-method-not-found-code--answers-32600',
  '2-2-response-jsonrpc-version--success-says-1-0',
  '7-jsonrpc-errors-http-200--invalid-params-http-400',
] as const;

/** The scope every agent of the fleet runs: the union of the variants' requirements. */
export const FLEET_ONLY = [
  '7/method-not-found-code',
  '2.2/response-jsonrpc-version',
  '7/jsonrpc-errors-http-200',
];

export interface Expected {
  /** 0 passed, 1 a gating requirement failed, 2 not run. */
  exitCode: 0 | 1 | 2;
  /** Requirements that must fail (or warn). */
  failing: string[];
  /** The run writes no report (not started, or killed). */
  noReport?: boolean;
}

export interface FleetTargets {
  fleetFile: string;
  /** The variables holding the agents' credentials. */
  env: Record<string, string>;
  expected: Map<string, Expected>;
  close(): Promise<void>;
}

export interface FleetTargetsOptions {
  dir: string;
  /** Healthy agents on the reference server (half of them behind the latency proxy); default 6. */
  healthy?: number;
  /** Delay the latency proxy adds to every request; default 40 ms. */
  latencyMs?: number;
  /** Delay it adds to an agent turn instead (message/send, message/stream: an LLM call); default latencyMs. */
  turnLatencyMs?: number;
  /** Healthy agents reached directly, the others through the latency proxy; default half. */
  direct?: number;
  /** limits.requestsPerMinute on the healthy agents' cards, which each run paces itself by; default 6000. */
  requestsPerMinute?: number;
  /** Include the mutants; default true. */
  mutants?: boolean;
  /** Include the refused, silent, reset and unset-credential agents; default true. */
  broken?: boolean;
  /** The scope of every run (default FLEET_ONLY; [] runs the whole ledger). */
  only?: string[];
  /** More run options for every agent (e.g. a profile). */
  defaults?: FleetRunOptions;
  /** hosts entry of the reference server's origin (its agents reached directly). */
  host?: FleetHost;
}

/** A TCP server that accepts and then never answers (`hang`) or resets at once (`reset`). */
export async function rawServer(mode: 'hang' | 'reset'): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    if (mode === 'reset') return void socket.resetAndDestroy();
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function startFleetTargets(opts: FleetTargetsOptions): Promise<FleetTargets> {
  const healthy = opts.healthy ?? 6;
  const env: Record<string, string> = {};
  const expected = new Map<string, Expected>();
  const agents: FleetAgent[] = [];
  const closers: Array<() => Promise<void>> = [];
  const add = (agent: FleetAgent, key: string | undefined, exp: Expected): void => {
    agents.push(agent);
    if (key !== undefined) env[agent.apiKeyEnv!] = key;
    expected.set(agent.name, exp);
  };
  const envName = (name: string): string => `FLEET_KEY_${name.replace(/\W/g, '_').toUpperCase()}`;

  const keys = Array.from({ length: healthy + 1 }, () => generateApiKey());
  const ids = keys.map((_, i) => `agent-${String(i + 1).padStart(2, '0')}`);
  const server = await startReferenceServer({
    // The harness's webhook receiver is on loopback (C-19 refuses private targets by default).
    allowPrivateWebhookTargets: true,
    host: '127.0.0.1',
    port: 0,
    agents: ids.map((id, i) => {
      const agent = certificationAgent(id, keys[i]!);
      if (opts.requestsPerMinute === undefined) return agent;
      return { ...agent, limits: { ...agent.limits, requestsPerMinute: opts.requestsPerMinute } };
    }),
  });
  closers.push(() => server.close());
  const latency = opts.latencyMs ?? 40;
  const turn = opts.turnLatencyMs ?? latency;
  const slow = await startDelayProxy(server.baseUrl, {
    delayMs: (method) => (method === 'message/send' || method === 'message/stream' ? turn : latency),
  });
  closers.push(() => slow.close());
  const direct = opts.direct ?? Math.floor(healthy / 2);
  for (let i = 0; i < healthy; i += 1) {
    const name = `healthy-${i < direct ? 'direct' : 'slow'}-${i + 1}`;
    const target = i < direct ? server.baseUrl : slow.baseUrl;
    add({ name, target, agentId: ids[i]!, apiKeyEnv: envName(name) }, keys[i], { exitCode: 0, failing: [] });
  }

  const wanted: readonly string[] = opts.mutants === false ? [] : FLEET_VARIANTS;
  const variants = (await loadVariants()).filter((v) => wanted.includes(v.name));
  for (const v of variants) {
    const t: MutantTarget = await v.start();
    closers.push(() => t.close());
    const name = `mutant-${v.name}`.slice(0, 120);
    add({ name, target: t.baseUrl, agentId: t.agentId, apiKeyEnv: envName(name) }, t.apiKey, {
      exitCode: v.expect === 'fail' ? 1 : 0,
      failing: [v.breaks],
    });
  }

  if (opts.broken ?? true) {
    const refusedId = ids[healthy]!;
    add(
      { name: 'refused', target: server.baseUrl, agentId: refusedId, apiKeyEnv: envName('refused') },
      `wrong-${generateApiKey()}`,
      { exitCode: 2, failing: [] },
    );
    const hang = await rawServer('hang');
    closers.push(() => hang.close());
    add(
      { name: 'silent', target: hang.url, agentId: 'a', apiKeyEnv: envName('silent'), killAfterMs: 4_000 },
      generateApiKey(),
      { exitCode: 2, failing: [], noReport: true },
    );
    const reset = await rawServer('reset');
    closers.push(() => reset.close());
    add({ name: 'reset', target: reset.url, agentId: 'a', apiKeyEnv: envName('reset') }, generateApiKey(), {
      exitCode: 2,
      failing: [],
    });
    add(
      {
        name: 'unset-credential',
        target: server.baseUrl,
        agentId: ids[0]!,
        apiKeyEnv: 'FLEET_KEY_NEVER_SET',
      },
      undefined,
      {
        exitCode: 2,
        failing: [],
        noReport: true,
      },
    );
  }

  const fleet: FleetFile = {
    $schema: 'https://a2a-conformance.dev/schemas/fleet-file.schema.json',
    defaults: {
      ...(opts.only === undefined || opts.only.length > 0 ? { only: opts.only ?? FLEET_ONLY } : {}),
      seed: 20240601,
      runs: 20,
      ...opts.defaults,
    },
    ...(opts.host === undefined ? {} : { hosts: { [server.baseUrl]: opts.host } }),
    agents,
  };
  const fleetFile = join(opts.dir, 'a2a-fleet.json');
  writeFileSync(fleetFile, `${JSON.stringify(fleet, null, 2)}\n`);
  return {
    fleetFile,
    env,
    expected,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}
