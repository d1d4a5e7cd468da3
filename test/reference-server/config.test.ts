// Configuration of the reference server (spec 2.14, 8; C-46): defaults, validation errors that name
// the field, and the JSON config file format.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConfigFile,
  parseConfigText,
  startReferenceServer,
} from '../../reference-server/index.ts';
import { AGENT_DEFAULTS, resolveAgentConfigs } from '../../reference-server/agents/config.ts';

function problemsOf(action: () => unknown): string[] {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('agent configuration', () => {
  it('fills every default', () => {
    const [agent] = resolveAgentConfigs([{ id: 'a', apiKeys: ['k'] }]);
    expect(agent).toMatchObject({
      id: 'a',
      name: 'a',
      version: AGENT_DEFAULTS.version,
      status: 'active',
      bearerTokens: [],
      limits: { requestsPerMinute: 600, concurrentTasks: 4, maxMessageLength: 100000 },
      capabilities: {
        streaming: true,
        multiTurn: true,
        webhooks: true,
        fileUpload: { supported: true, maxFileSize: 5242880 },
      },
      systemTimeoutMs: 300000,
      keepAliveMs: 15000,
      maxTasks: 10000,
      maxStreams: 100,
    });
  });

  it('names each invalid field with the value it got', () => {
    const problems = problemsOf(() =>
      resolveAgentConfigs([
        {
          id: 'bad id',
          apiKeys: [''],
          status: 'asleep',
          limits: { requestsPerMinute: 0, concurrentTasks: 1.5, extra: 1 },
          capabilities: {
            streaming: 'yes',
            supportedMethods: ['message/send', 'tasks/list'],
            fileUpload: { supportedTypes: ['nope'] },
          },
          keepAliveMs: 1,
        } as never,
      ]),
    );
    const expected = [
      'agents[0].id: must match',
      'agents[0].apiKeys[0]: must be a non-empty string (got "")',
      'agents[0].status: must be one of active, inactive, maintenance (got "asleep")',
      'agents[0].limits.extra: unknown field',
      'agents[0].limits.requestsPerMinute: must be an integer from 1 to 1000000 (got 0)',
      'agents[0].limits.concurrentTasks: must be an integer from 1 to 1000 (got 1.5)',
      'agents[0].capabilities.streaming: must be a boolean (got "yes")',
      'agents[0].capabilities.supportedMethods[1]: must be one of',
      'agents[0].capabilities.fileUpload.supportedTypes[0]: must match',
      'agents[0].keepAliveMs: must be an integer from 10 to 3600000 (got 1)',
    ];
    for (const text of expected)
      expect(
        problems.some((problem) => problem.startsWith(text)),
        text,
      ).toBe(true);
  });

  it('requires a credential, unique ids and methods consistent with the capability flags', () => {
    const problems = problemsOf(() =>
      resolveAgentConfigs([
        { id: 'a' },
        { id: 'b', apiKeys: ['k'], capabilities: { streaming: false, supportedMethods: ['message/stream'] } },
        { id: 'b', apiKeys: ['k'] },
      ]),
    );
    expect(problems).toContain('agents[0]: needs at least one credential in apiKeys or bearerTokens');
    expect(
      problems.some((p) => p.startsWith('agents[1].capabilities.supportedMethods[0]: is disabled')),
    ).toBe(true);
    expect(problems.some((p) => p.startsWith('agents[2].id: duplicates another agent id'))).toBe(true);
    expect(problemsOf(() => resolveAgentConfigs([]))).toEqual([
      'agents: must be a non-empty array of agents (got [])',
    ]);
  });

  it('refuses invalid server options in startReferenceServer', async () => {
    await expect(startReferenceServer({ port: 70000 })).rejects.toBeInstanceOf(ConfigError);
    await expect(startReferenceServer({ corsOrigins: [] })).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('config file', () => {
  it('loads a valid file with every section', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-config-'));
    const path = join(dir, 'server.json');
    const config = {
      host: '127.0.0.1',
      port: 0,
      corsOrigins: ['https://app.example'],
      allowPrivateWebhookTargets: true,
      agents: [
        {
          id: 'echo',
          apiKeys: ['k1'],
          bearerTokens: ['t1'],
          limits: { concurrentTasks: 2 },
          systemTimeoutMs: 5000,
        },
      ],
    };
    writeFileSync(path, JSON.stringify(config));
    const options = loadConfigFile(path);
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      corsOrigins: ['https://app.example'],
      allowPrivateWebhookTargets: true,
    });
    expect(options.agents?.[0]).toMatchObject({
      id: 'echo',
      limits: { concurrentTasks: 2, requestsPerMinute: 600 },
      systemTimeoutMs: 5000,
    });
  });

  it('reports unreadable files, bad JSON and bad fields with the file name', () => {
    expect(problemsOf(() => loadConfigFile('/nonexistent/a2a.json'))[0]).toBe(
      '/nonexistent/a2a.json: cannot read the config file (ENOENT)',
    );
    expect(problemsOf(() => parseConfigText('{', 'c.json'))[0]).toMatch(/^c\.json: not valid JSON/);
    const problems = problemsOf(() =>
      parseConfigText(
        JSON.stringify({ port: 'x', prot: 1, agents: [{ id: 'a', apiKeys: ['k'] }] }),
        'c.json',
      ),
    );
    expect(problems).toEqual([
      'c.json: config.prot: unknown field (allowed: host, port, corsOrigins, allowPrivateWebhookTargets, headersTimeoutMs, requestTimeoutMs, deliveryLogSize, maxPendingDeliveries, store, agents)',
      'c.json: port: must be an integer from 0 to 65535 (got "x")',
    ]);
    expect(problemsOf(() => parseConfigText('[]', 'c.json'))).toContain(
      'c.json: config: must be an object (got [])',
    );
  });

  it('takes store "memory" or a redis:// URL and refuses anything else by name', () => {
    const agents = [{ id: 'a', apiKeys: ['k'] }];
    expect(
      parseConfigText(JSON.stringify({ store: 'redis://10.0.0.5:6379/2', agents }), 'c.json').store,
    ).toBe('redis://10.0.0.5:6379/2');
    expect(
      problemsOf(() => parseConfigText(JSON.stringify({ store: 'mysql://db', agents }), 'c.json')),
    ).toEqual(['c.json: store: must be "memory", or a redis:// or rediss:// URL (got "mysql://db")']);
  });
});

describe('startReferenceServer', () => {
  it('rejects when the port is taken, leaving nothing running', async () => {
    const first = await startReferenceServer({ agents: [{ id: 'a', apiKeys: ['k'] }] });
    try {
      const port = Number(new URL(first.baseUrl).port);
      await expect(
        startReferenceServer({ port, agents: [{ id: 'a', apiKeys: ['k'] }] }),
      ).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await first.close();
    }
  });

  it('hosts a default agent with a generated key valid in both header forms', async () => {
    const server = await startReferenceServer();
    try {
      const [agent] = server.agents;
      expect(agent?.id).toBe('reference-agent');
      expect(agent?.apiKeys).toEqual(agent?.bearerTokens);
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await server.close();
    }
  });
});
