// Public entry of the reference server: startReferenceServer() hosts one or more deterministic
// agents behind the JSON-RPC service of spec/a2a-jsonrpc-service.md (all sections) on node:http.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Checker } from './agents/config-check.ts';
import { checkServerOptions } from './agents/config-file.ts';
import { resolveAgentConfigs } from './agents/config.ts';
import { createAgentRuntime, type AgentRuntime } from './agents/runtime.ts';
import { httpServerOptions, HTTP_LIMITS, installClientErrorHandler } from './http/limits.ts';
import { createRequestHandler } from './http/server.ts';
import { openStore } from './store/index.ts';
import type { AgentConfigInput, ReferenceServer, ReferenceServerOptions } from './types.ts';
import { WEBHOOK_USER_AGENT } from './version.ts';
import { createWebhookService } from './webhooks/index.ts';

export type * from './types.ts';
export type { AttemptRecord, DeliveryRecord, DeliveryStatus } from './webhooks/types.ts';
export { AGENT_DEFAULTS, DEFAULT_SUPPORTED_TYPES, maxBodyBytes } from './agents/config.ts';
export { ConfigError } from '../schemas/config-error.ts';
export { loadConfigFile, parseConfigText } from './agents/config-file.ts';
export { DIRECTIVE_PREFIX, directivePart, type Directive } from './agent/directives.ts';

export const DEFAULT_AGENT_ID = 'reference-agent';
/** C-42: task-level webhook configurations per agent. */
const WEBHOOK_TASK_CONFIGS_PER_AGENT = 1000;

/** A random credential: 32 bytes of entropy, URL-safe so it travels in any header. */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The agent hosted when none is configured; its key works in both header forms (C-37). */
export function defaultAgent(id = DEFAULT_AGENT_ID, apiKey = generateApiKey()): AgentConfigInput {
  return { id, apiKeys: [apiKey], bearerTokens: [apiKey] };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function closeServer(server: Server, runtimes: Iterable<AgentRuntime>): Promise<void> {
  for (const runtime of runtimes) {
    for (const stream of [...runtime.streams]) stream.end();
    runtime.engine.close();
  }
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Blocked message/send calls and idle keep-alive sockets would otherwise hold close() open.
    server.closeAllConnections();
  });
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const { agents: agentInputs, ...serverOptions } = options;
  const check = new Checker();
  checkServerOptions(serverOptions, check);
  check.throwIfAny();
  const agents = resolveAgentConfigs(agentInputs ?? [defaultAgent()]);
  const store = await openStore(options.store);
  const webhooks = createWebhookService({
    configs: store.configs(WEBHOOK_TASK_CONFIGS_PER_AGENT),
    ...(store.outbox === undefined ? {} : { outbox: store.outbox }),
    userAgent: WEBHOOK_USER_AGENT,
    allowPrivateTargets: options.allowPrivateWebhookTargets ?? false,
    ...(options.deliveryLogSize === undefined ? {} : { deliveryLogSize: options.deliveryLogSize }),
    ...(options.maxPendingDeliveries === undefined
      ? {}
      : { maxPendingDeliveries: options.maxPendingDeliveries }),
  });
  const runtimes = new Map(agents.map((agent) => [agent.id, createAgentRuntime(agent, webhooks, store)]));
  const handler = createRequestHandler({ runtimes, corsOrigins: options.corsOrigins ?? ['*'], webhooks });
  const timeouts = {
    headersTimeoutMs: options.headersTimeoutMs ?? HTTP_LIMITS.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? HTTP_LIMITS.requestTimeoutMs,
  };
  const server = createServer(httpServerOptions(timeouts), handler);
  installClientErrorHandler(server, timeouts);
  const host = options.host ?? '127.0.0.1';
  let address: AddressInfo;
  try {
    address = await listen(server, options.port ?? 0, host);
  } catch (error) {
    await closeServer(server, runtimes.values()).catch(() => undefined);
    await webhooks.close();
    await store.close();
    throw error;
  }
  const hostPart = address.address.includes(':') ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${hostPart}:${address.port}`,
    agents,
    store: store.kind,
    deliveryLog: () => webhooks.deliveryLog(),
    close() {
      closing ??= closeServer(server, runtimes.values())
        .then(() => webhooks.close())
        .then(() => store.close());
      return closing;
    },
  };
}
