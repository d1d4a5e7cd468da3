// `a2a-conformance serve`: starts the bundled reference server from flags, environment variables
// (A2A_HOST, A2A_PORT, A2A_AGENT_ID, A2A_API_KEY, A2A_CONFIG, A2A_STORE) or a JSON config file, prints the
// base URL then `agent <id>` / `api-key <key>` lines on stdout, and closes cleanly on SIGINT/SIGTERM.
import { compileAll } from '../schemas/registry.ts';
import { serverConfigError } from './agents/config-check.ts';
import { loadConfigFile } from './agents/config-file.ts';
import { AGENT_ID_PATTERN } from './agents/config.ts';
import { isStoreSpec, STORE_FORMS } from './store/index.ts';
import { defaultAgent, DEFAULT_AGENT_ID, generateApiKey, startReferenceServer } from './index.ts';
import type { AgentConfig, AgentConfigInput, ReferenceServer, ReferenceServerOptions } from './types.ts';

export interface ServeOptions {
  host?: string;
  port?: number | string;
  agentId?: string;
  apiKey?: string;
  /** Path of a JSON config file (agents/config-file.ts). */
  config?: string;
  /** `memory` or a `redis://` URL shared by replicas (store/index.ts). */
  store?: string;
}

export interface ServeIo {
  env?: NodeJS.ProcessEnv;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
  /** Install SIGINT/SIGTERM handlers that close the server and exit (default true). */
  handleSignals?: boolean;
}

function parsePort(value: number | string | undefined): number | undefined {
  // An empty A2A_PORT is unset (effectiveOptions); an empty --port is a mistake, refused below.
  if (value === undefined) return undefined;
  const port = typeof value === 'number' ? value : Number(value);
  if (
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535 ||
    (typeof value === 'string' && !/^\d+$/.test(value))
  ) {
    throw serverConfigError([`port: must be an integer from 0 to 65535 (got ${JSON.stringify(value)})`]);
  }
  return port;
}

/** Flags win over environment variables; empty variables count as unset. */
function effectiveOptions(options: ServeOptions, env: NodeJS.ProcessEnv): ServeOptions {
  const fromEnv = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  return {
    host: options.host ?? fromEnv('A2A_HOST'),
    port: options.port ?? fromEnv('A2A_PORT'),
    agentId: options.agentId ?? fromEnv('A2A_AGENT_ID'),
    apiKey: options.apiKey ?? fromEnv('A2A_API_KEY'),
    config: options.config ?? fromEnv('A2A_CONFIG'),
    store: options.store ?? fromEnv('A2A_STORE'),
  };
}

/** Without a config file: one agent whose key (given or generated) works as x-api-key and Bearer. */
function serverOptions(options: ServeOptions): ReferenceServerOptions {
  const base: ReferenceServerOptions = options.config === undefined ? {} : loadConfigFile(options.config);
  const agentId = options.agentId;
  if (agentId !== undefined && !AGENT_ID_PATTERN.test(agentId)) {
    throw serverConfigError([
      `agent id: must match ${String(AGENT_ID_PATTERN)} (got ${JSON.stringify(agentId)})`,
    ]);
  }
  if (base.agents === undefined) {
    // The bundled server is the harness's target and its webhook receiver listens on loopback (C-19).
    base.allowPrivateWebhookTargets ??= true;
    base.agents = [defaultAgent(agentId ?? DEFAULT_AGENT_ID, options.apiKey ?? generateApiKey())];
  } else if (agentId !== undefined && !base.agents.some((agent) => agent.id === agentId)) {
    throw serverConfigError([`agent id: "${agentId}" is not an agent of ${options.config}`]);
  } else if (options.apiKey !== undefined) {
    const target = base.agents.find(
      (agent) => agent.id === (agentId ?? base.agents?.[0]?.id),
    ) as AgentConfigInput;
    target.apiKeys = [...(target.apiKeys ?? []), options.apiKey];
    target.bearerTokens = [...(target.bearerTokens ?? []), options.apiKey];
  }
  if (options.store !== undefined) {
    if (!isStoreSpec(options.store)) {
      throw serverConfigError([`store: must be ${STORE_FORMS} (got ${JSON.stringify(options.store)})`]);
    }
    base.store = options.store;
  }
  const host = options.host;
  const port = parsePort(options.port);
  if (host !== undefined) base.host = host;
  if (port !== undefined) base.port = port;
  return base;
}

/** The stdout contract: base URL first, then the selected agent, then the others. */
export function startupLines(server: ReferenceServer, selectedId?: string): string[] {
  const ordered: AgentConfig[] = [...server.agents].sort(
    (a, b) => Number(b.id === selectedId) - Number(a.id === selectedId),
  );
  const lines = [server.baseUrl];
  for (const agent of ordered) {
    lines.push(`agent ${agent.id}`);
    const key = agent.apiKeys[0];
    if (key !== undefined) lines.push(`api-key ${key}`);
    else lines.push(`bearer-token ${agent.bearerTokens[0] as string}`);
  }
  return lines;
}

export async function runServe(options: ServeOptions = {}, io: ServeIo = {}): Promise<ReferenceServer> {
  const effective = effectiveOptions(options, io.env ?? process.env);
  const config = serverOptions(effective);
  // The schemas compile on first use: a served agent compiles them before its first request.
  compileAll();
  const server = await startReferenceServer(config);
  const stdout = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const stderr = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (const line of startupLines(server, effective.agentId)) stdout(line);
  const store = server.store === 'memory' ? '' : `, ${server.store} store`;
  stderr(`reference server listening on ${server.baseUrl}/api/v1/a2a/{agent_id}${store} (Ctrl+C to stop)`);
  if (io.handleSignals ?? true) {
    const stop = (signal: NodeJS.Signals): void => {
      stderr(`reference server: ${signal}, closing`);
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  return server;
}
