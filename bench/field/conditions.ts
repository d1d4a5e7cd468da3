// The field conditions of `npm run field` (bench/field/main.ts): deployments of the reference server
// that a proxy rewriting single exchanges cannot express (a rate limit, a system timeout, latency on
// every request), and the faults of the infrastructure in front of a deployed agent (front.ts: a cold
// start, a rolling deploy, an unannounced throttle, resets, answers cut short; a slow webhook relay).
// A condition that proves a freedom of the ledger (requirements/freedoms.ts) names it in `freedoms`;
// test/requirements/freedoms.test.ts checks every name.
import type { IncomingHttpHeaders } from 'node:http';
import { isAgentTurnRequest } from '../../harness/io/target/agent-turn.ts';
import { defaultAgent } from '../../reference-server/index.ts';
import type { RelayMutation } from '../../mutants/webhook-relay.ts';
import type { FrontOptions } from './front.ts';
import type { ReplicaSetOptions } from './replicas.ts';

/** The agent of `npm run certify` (harness/runner/bundled-target.ts), certified here through --target. */
function tunedAgent(key: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...defaultAgent('reference-agent', key),
    limits: { requestsPerMinute: 6000, concurrentTasks: 4, maxMessageLength: 100_000 },
    systemTimeoutMs: 2000,
    keepAliveMs: 200,
    ...extra,
  };
}

/**
 * A request an LLM agent takes to its model: a well-formed message (a malformed one is refused before
 * any LLM call) carrying the agent's credential (a refused one creates nothing, spec 5).
 */
function llmTurn(body: unknown, headers: IncomingHttpHeaders, key: string): boolean {
  return (
    isAgentTurnRequest(body) && (headers['x-api-key'] === key || headers.authorization === `Bearer ${key}`)
  );
}

export interface Condition {
  name: string;
  what: string;
  agent: (key: string) => Record<string, unknown>;
  /** Milliseconds a proxy holds a request of this method before forwarding it; none: no proxy. */
  delayMs?: (method: string | undefined, body: unknown, headers: IncomingHttpHeaders, key: string) => number;
  args?: string[];
  /** The freedoms of the ledger (requirements/freedoms.ts) this condition proves tolerated. */
  freedoms?: readonly string[];
  /**
   * The condition is this legal variant of mutants/legal/ (the certification agent behind the proxy
   * and webhook relay that vary one freedom), run as it is: `agent` and `delayMs` are not used.
   */
  legalVariant?: string;
  /** Busy processes beside the run (a core's worth of load each), stopped by PID after it. */
  cpuHogs?: number;
  /** Requests are paced (a rate limit): `npm run field -- --matrix` runs no `full` profile on it. */
  paced?: boolean;
  /**
   * Replicas of the reference server behind the loopback balancer (bench/field/balancer.ts), each
   * hosting `agent`; `shared` puts them on one throwaway redis-server, `isolated` gives each its memory.
   */
  replicas?: Pick<ReplicaSetOptions, 'count' | 'mode' | 'store'>;
  /** Why this deployment is broken on purpose: its failures are the expected finding, not false ones. */
  broken?: string;
  /** The infrastructure in front of the agent (front.ts), played by the field proxy. */
  front?: FrontOptions;
  /**
   * Webhook deliveries pass through this relay (mutants/webhook-relay.ts) to the harness's receiver;
   * the agent is then the certification agent of the mutants, and `agent` is not used.
   */
  webhookRelay?: RelayMutation;
}

const NOT_SHARED = 'replicas that do not share task state: a task made on one is "not found" on the next';

export const CONDITIONS: Condition[] = [
  { name: 'without', what: 'the certify agent (6,000/min, 2 s system timeout)', agent: (k) => tunedAgent(k) },
  {
    name: 'serve',
    what: '`serve` defaults (600/min, 5 min system timeout)',
    agent: (k) => defaultAgent('reference-agent', k),
    freedoms: ['task.system-timeout', 'limits.values'],
    paced: true,
  },
  {
    name: 'rate-60',
    what: 'limited to 60 requests/min',
    freedoms: ['deployment.rate-limit'],
    paced: true,
    agent: (k) =>
      tunedAgent(k, { limits: { requestsPerMinute: 60, concurrentTasks: 4, maxMessageLength: 100_000 } }),
  },
  {
    name: 'slow-turns',
    what: '1.5 s before every task-creating request',
    freedoms: ['deployment.turn-latency'],
    agent: (k) => tunedAgent(k),
    delayMs: (_m, body, headers, key) => (llmTurn(body, headers, key) ? 1500 : 0),
  },
  {
    name: 'link-40ms',
    what: '40 ms added to every request',
    agent: (k) => tunedAgent(k),
    delayMs: () => 40,
    freedoms: ['deployment.network-latency'],
  },
  {
    name: 'link-jitter',
    what: '20 to 60 ms added to every request (answers may overtake each other)',
    agent: (k) => tunedAgent(k),
    delayMs: () => 20 + Math.round(Math.random() * 40),
    freedoms: ['deployment.network-latency'],
  },
  {
    name: 'webhooks-late',
    what: 'every webhook delivery held 2 to 3 s (an outbox queue)',
    agent: (k) => tunedAgent(k),
    legalVariant: 'webhook-delivery-late',
    freedoms: ['webhook.delivery-latency'],
  },
  {
    name: 'webhooks-twice',
    what: 'every webhook delivery sent twice, same X-Webhook-Delivery',
    agent: (k) => tunedAgent(k),
    legalVariant: 'webhook-delivery-twice',
    freedoms: ['webhook.duplicate-delivery'],
  },
  {
    name: 'cpu-hogs',
    what: 'two busy processes beside the run (a loaded CI runner)',
    agent: (k) => tunedAgent(k),
    cpuHogs: 2,
  },
  {
    name: 'slow-rate-60',
    what: '1.5 s per task-creating request and 60 requests/min',
    paced: true,
    agent: (k) =>
      tunedAgent(k, { limits: { requestsPerMinute: 60, concurrentTasks: 4, maxMessageLength: 100_000 } }),
    delayMs: (_m, body, headers, key) => (llmTurn(body, headers, key) ? 1500 : 0),
  },
  {
    name: 'slow-turns-5min',
    what: '1.5 s before every task-creating request, 5-minute system timeout',
    freedoms: ['deployment.turn-latency', 'task.system-timeout'],
    agent: (k) => tunedAgent(k, { systemTimeoutMs: 300_000 }),
    delayMs: (_m, body, headers, key) => (llmTurn(body, headers, key) ? 1500 : 0),
  },
  {
    name: 'rate-60-5min',
    what: 'limited to 60 requests/min, 5-minute system timeout',
    freedoms: ['deployment.rate-limit', 'task.system-timeout'],
    paced: true,
    agent: (k) =>
      tunedAgent(k, {
        limits: { requestsPerMinute: 60, concurrentTasks: 4, maxMessageLength: 100_000 },
        systemTimeoutMs: 300_000,
      }),
  },
  {
    name: 'turns-beyond-timeout',
    what: '15-20 s before every task-creating request (beyond --timeout-ms 10000, the stream held until the turn ends), 4 task slots, 5-minute system timeout',
    freedoms: ['deployment.turn-latency'],
    agent: (k) => tunedAgent(k, { systemTimeoutMs: 300_000 }),
    delayMs: (_m, body, headers, key) => (llmTurn(body, headers, key) ? 15_000 + Math.random() * 5_000 : 0),
    args: ['--timeout-ms', '10000'],
  },
  {
    name: 'replicas-3-shared',
    what: '3 replicas on one Redis behind a round-robin balancer',
    agent: (k) => tunedAgent(k),
    replicas: { count: 3, mode: 'round-robin', store: 'shared' },
  },
  {
    name: 'replicas-3-shared-sticky',
    what: '3 replicas on one Redis behind a sticky (per-connection) balancer',
    agent: (k) => tunedAgent(k),
    replicas: { count: 3, mode: 'sticky', store: 'shared' },
  },
  {
    name: 'replicas-2-isolated',
    what: '2 replicas, each with its own memory, behind a round-robin balancer (broken on purpose)',
    agent: (k) => tunedAgent(k),
    replicas: { count: 2, mode: 'round-robin', store: 'isolated' },
    broken: NOT_SHARED,
  },
  {
    name: 'replicas-2-isolated-sticky',
    what: '2 replicas, each with its own memory, behind a sticky balancer (broken on purpose)',
    agent: (k) => tunedAgent(k),
    replicas: { count: 2, mode: 'sticky', store: 'isolated' },
    broken: NOT_SHARED,
  },
  {
    name: 'timeout-5min',
    what: '5-minute system timeout',
    freedoms: ['task.system-timeout'],
    agent: (k) => tunedAgent(k, { systemTimeoutMs: 300_000 }),
  },
  {
    name: 'cold-start',
    what: 'a serverless cold start: nothing answered until 12 s after the first request (beyond --timeout-ms 10000)',
    agent: (k) => tunedAgent(k),
    front: { coldStartMs: 12_000 },
    args: ['--timeout-ms', '10000'],
  },
  {
    name: 'rolling-deploy',
    what: 'a rolling deploy: for 4 s, 10 s into the run and every 2 minutes after, every request gets 503 (text/html, Retry-After 2)',
    agent: (k) => tunedAgent(k),
    front: { deploy: { firstAfterMs: 10_000, everyMs: 120_000, forMs: 4_000, retryAfterS: 2 } },
  },
  {
    name: 'gateway-throttle',
    what: 'a gateway throttle the card does not announce: 20 requests/s (429, text/plain, Retry-After as an HTTP date)',
    agent: (k) => tunedAgent(k),
    front: { throttle: { limit: 20, windowMs: 1_000 } },
  },
  {
    name: 'resets',
    what: 'one connection in a hundred reset (half before the request reaches the agent, half after)',
    agent: (k) => tunedAgent(k),
    front: { reset: (n) => (n % 100 !== 50 ? undefined : n % 200 === 50 ? 'before' : 'after') },
  },
  {
    name: 'cut-short',
    what: 'one answer in about a hundred cut short (half its body, then the connection closes)',
    agent: (k) => tunedAgent(k),
    front: { cutShort: (n) => n % 97 === 13 },
  },
  {
    name: 'turns-stream-first',
    what: 'every task works 16 s (beyond --timeout-ms 10000), its stream announcing it at once; 4 task slots, 5-minute system timeout',
    freedoms: ['deployment.turn-latency'],
    agent: (k) => tunedAgent(k, { systemTimeoutMs: 300_000, turnMs: 16_000 }),
    args: ['--timeout-ms', '10000'],
  },
  {
    name: 'webhooks-relay-2s',
    what: 'every webhook attempt about 2 s in transit (a relay between agent and receiver)',
    agent: (k) => tunedAgent(k),
    webhookRelay: { holdMs: () => 1_800 + Math.random() * 400, origins: 256 },
    freedoms: ['webhook.delivery-latency'],
  },
];
