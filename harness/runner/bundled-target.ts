// Starts the bundled reference server on an ephemeral loopback port as the target of a run with no
// --target (`npm run certify`). Loaded dynamically: the harness never imports the server's code.
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../options.ts';

export interface BundledTarget {
  baseUrl: string;
  agentId: string;
  auth: { apiKey?: string; bearer?: string };
  /** The same agent's credential in the other header form (spec 5), for the both-forms checks. */
  alternateAuth: { apiKey?: string; bearer?: string };
  close(): Promise<void>;
}

interface ServerAgent {
  id: string;
  apiKeys: string[];
  bearerTokens: string[];
}

interface ServerModule {
  startReferenceServer(options: {
    host?: string;
    port?: number;
    allowPrivateWebhookTargets?: boolean;
    agents?: Array<Record<string, unknown>>;
  }): Promise<{ baseUrl: string; agents: ServerAgent[]; close(): Promise<void> }>;
}

const SERVER_MODULE = '../../reference-server/index.ts';

/**
 * The agent `certify` checks: the reference defaults, tuned so every requirement can be exercised
 * within the run's budget. A 2 s system timeout (C-05) lets the timeout checks see it fire; 200 ms
 * keep-alives put `: ping` comments (spec 4.2) inside short streams; 6000 requests per minute leave
 * room for the property suites, while the rate-limit check (run last) can still reach the limit.
 */
export function certificationAgent(id: string, key: string): Record<string, unknown> {
  return {
    id,
    name: 'Reference agent',
    description: 'The a2a-conformance reference agent (docs/directives.md)',
    apiKeys: [key],
    bearerTokens: [key],
    limits: { requestsPerMinute: 6000, concurrentTasks: 4, maxMessageLength: 100_000 },
    systemTimeoutMs: 2000,
    keepAliveMs: 200,
  };
}

export async function startBundledTarget(agentId?: string): Promise<BundledTarget> {
  const mod = (await import(SERVER_MODULE)) as ServerModule;
  // C-19: the bundled server lets webhooks reach the harness's loopback receiver.
  const key = randomBytes(32).toString('base64url');
  const server = await mod.startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    allowPrivateWebhookTargets: true,
    agents: [certificationAgent(agentId ?? 'reference-agent', key)],
  });
  const agent = agentId === undefined ? server.agents[0] : server.agents.find((a) => a.id === agentId);
  if (agent === undefined) {
    await server.close();
    const known = server.agents.map((a) => a.id).join(', ');
    throw new ConfigError(`the bundled reference server has no agent '${agentId}' (agents: ${known})`);
  }
  return {
    baseUrl: server.baseUrl,
    agentId: agent.id,
    auth: { apiKey: key },
    alternateAuth: { bearer: key },
    close: () => server.close(),
  };
}
