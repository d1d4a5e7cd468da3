// Starts the bundled reference server on an ephemeral loopback port as the target of a run with no
// --target (`npm run certify`). Loaded dynamically: the harness never imports the server's code.
import { ConfigError } from '../options.ts';

export interface BundledTarget {
  baseUrl: string;
  agentId: string;
  auth: { apiKey?: string; bearer?: string };
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
  }): Promise<{ baseUrl: string; agents: ServerAgent[]; close(): Promise<void> }>;
}

const SERVER_MODULE = '../../reference-server/index.ts';

export async function startBundledTarget(agentId?: string): Promise<BundledTarget> {
  const mod = (await import(SERVER_MODULE)) as ServerModule;
  // C-19: the bundled server lets webhooks reach the harness's loopback receiver.
  const server = await mod.startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    allowPrivateWebhookTargets: true,
  });
  const agent = agentId === undefined ? server.agents[0] : server.agents.find((a) => a.id === agentId);
  if (agent === undefined) {
    await server.close();
    const known = server.agents.map((a) => a.id).join(', ');
    throw new ConfigError(`the bundled reference server has no agent '${agentId}' (agents: ${known})`);
  }
  const auth =
    agent.apiKeys[0] !== undefined ? { apiKey: agent.apiKeys[0] } : { bearer: agent.bearerTokens[0]! };
  return { baseUrl: server.baseUrl, agentId: agent.id, auth, close: () => server.close() };
}
