// The reference server a client scenario fronts (spec 5, C-77): one agent whose API key works in
// both header forms. Loaded dynamically, as the bundled target is: the harness never imports the
// server's code.
interface ServerModule {
  startReferenceServer(options: {
    host?: string;
    port?: number;
    agents?: Array<Record<string, unknown>>;
  }): Promise<{ baseUrl: string; close(): Promise<void> }>;
}

const SERVER_MODULE = '../../reference-server/index.ts';

export interface Upstream {
  baseUrl: string;
  agentId: string;
  apiKey: string;
  close(): Promise<void>;
}

/** The reference server the scenario fronts: one agent whose key works in both header forms (C-77). */
export async function startUpstream(apiKey: string, agentId = 'scenario-agent'): Promise<Upstream> {
  const mod = (await import(SERVER_MODULE)) as ServerModule;
  const server = await mod.startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    agents: [
      {
        id: agentId,
        name: 'Scenario agent',
        apiKeys: [apiKey],
        bearerTokens: [apiKey],
        // The front sends its own pings; a long system timeout keeps the held task alive for the scenario.
        keepAliveMs: 60_000,
        systemTimeoutMs: 120_000,
        limits: { requestsPerMinute: 6000, concurrentTasks: 8, maxMessageLength: 100_000 },
      },
    ],
  });
  return { baseUrl: server.baseUrl, agentId, apiKey, close: () => server.close() };
}
