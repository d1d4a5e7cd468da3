// The wrong-Content-Type target: the reference server behind a proxy that relabels every answer
// `text/plain` (JSON-RPC answers and SSE streams alike, spec 4 and 4.2). The bodies stay right, so
// only the checks that read the Content-Type should find fault.
import { relay } from '../../harness/kit/loopback.ts';
import { startReferenceServer } from '../../reference-server/index.ts';
import { AGENT_ID, API_KEY, startFixture, type HostileTarget } from './fixture-kit.ts';

const WRONG_TYPE = 'text/plain; charset=utf-8';

export async function startContentTypeProxy(): Promise<HostileTarget> {
  // As the bundled target of `certify` (harness/runner/bundled-target.ts): loopback webhooks allowed.
  const upstream = await startReferenceServer({
    allowPrivateWebhookTargets: true,
    agents: [
      {
        id: AGENT_ID,
        apiKeys: [API_KEY],
        bearerTokens: [API_KEY],
        limits: { requestsPerMinute: 6000, concurrentTasks: 4, maxMessageLength: 100_000 },
        systemTimeoutMs: 2000,
        keepAliveMs: 200,
      },
    ],
  });
  const counters = { relabelled: 0 };
  const target = await startFixture(
    (r) => {
      const { 'transfer-encoding': _chunked, ...sent } = r.req.headers;
      void relay(r.req, r.res, upstream.baseUrl, {
        headers: { ...sent, 'content-length': String(Buffer.byteLength(r.text)) },
        body: r.text,
        answerHeaders: (headers) => {
          if (headers['content-type'] === undefined) return headers;
          counters.relabelled += 1;
          return { ...headers, 'content-type': WRONG_TYPE };
        },
      });
    },
    // The suites' limit checks send bodies of several MiB: forward them whole.
    { stats: () => counters, keepRequestBytes: 64 * 1024 * 1024 },
  );
  return {
    ...target,
    stats: () => target.stats(),
    close: async () => {
      await target.close();
      await upstream.close();
    },
  };
}
