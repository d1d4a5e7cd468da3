// The reference server as a benchmark target, in its own process. The profile (argv[2]) picks the
// agent limits; every profile lifts requestsPerMinute (spec 8, C-04) to the config maximum so the
// rate limit never caps throughput, and keeps the other limits at their defaults unless the scenario
// needs more (1,000 concurrent streams need maxStreams and concurrentTasks above 100 and 4).
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { AgentConfigInput, ReferenceServerOptions } from '../../reference-server/index.ts';
import { serveChild } from './ipc.ts';

const RATE = { requestsPerMinute: 1_000_000 };

function agents(profile: string, key: string): AgentConfigInput[] {
  const base = { apiKeys: [key], limits: { ...RATE } };
  switch (profile) {
    case 'send': // message/send throughput: the shipped defaults (concurrentTasks 4, maxTasks 10,000)
      return [{ id: 'bench', ...base }];
    case 'streams':
      return [{ id: 'bench', ...base, limits: { ...RATE, concurrentTasks: 1000 }, maxStreams: 2000 }];
    case 'store-small': // an (almost) empty store: at most 100 tasks retained
      return [{ id: 'bench', ...base, maxTasks: 100 }];
    case 'store-large': // 100,000 tasks retained (C-44 cap raised from 10,000)
      return [{ id: 'bench', ...base, maxTasks: 100_000 }];
    case 'webhooks':
      return [
        { id: 'bench', ...base },
        { id: 'retry', ...base },
      ];
    default:
      throw new Error(`unknown profile ${profile}`);
  }
}

const profile = process.argv[2] ?? 'send';
const key = randomBytes(24).toString('base64url');
// BENCH_REFERENCE_ENTRY runs another copy of the server (e.g. an older commit) for before/after figures.
const entry = process.env.BENCH_REFERENCE_ENTRY;
const { startReferenceServer } = (await import(
  entry === undefined ? '../../reference-server/index.ts' : pathToFileURL(entry).href
)) as {
  startReferenceServer: (
    options: ReferenceServerOptions,
  ) => Promise<{ baseUrl: string; close(): Promise<void> }>;
};
const server = await startReferenceServer({
  host: '127.0.0.1',
  port: 0,
  // C-19: the webhook receiver of the benchmark listens on loopback.
  allowPrivateWebhookTargets: true,
  agents: agents(profile, key),
});
serveChild({ baseUrl: server.baseUrl, apiKey: key, profile }, {}, () => server.close());
