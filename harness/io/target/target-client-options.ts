// What a target client is and takes (target-client.ts makes one): its options, each request's
// overrides, and the TargetClient interface a check and the runner work with.
import type { Exchange } from '../../../core/evidence.ts';
import type { TrafficGovernor } from '../traffic/governor.ts';
import type { TrafficTally } from '../traffic/tallies.ts';
import type { NetworkSettings } from './network.ts';
import type { EnvelopeOptions, HeaderOverrides } from './request-spec.ts';
import type { SseOptions, SseStream } from './sse-reader.ts';

export type { HeaderOverrides } from './request-spec.ts';

export interface TargetClientOptions {
  baseUrl: string;
  agentId: string;
  auth: { apiKey?: string; bearer?: string };
  /** Total deadline per request, headers and body included. Default 10000. */
  timeoutMs?: number;
  /** Response bytes read before giving up with 'body-too-large'. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Strings redacted from all evidence, besides the credentials. */
  secrets?: string[];
  /** Characters of each body kept in the record. Default 256 KiB. */
  recordBodyChars?: number;
  /** Exchanges kept; the oldest are dropped beyond it (see droppedExchanges()). Default 10000. */
  maxExchanges?: number;
  /** The run's traffic governor (pace, Retry-After, concurrency); none: requests go out at once. */
  governor?: TrafficGovernor;
  /** Where this client's requests are counted (a check's tally). */
  tally?: TrafficTally;
  /**
   * Send at once whatever the pace and hand rate-limited answers to the caller: only for the checks
   * that exceed the rate limit on purpose (C-04). The requests still count in the pace's window.
   */
  bypassPacing?: boolean;
  /**
   * Send task-creating requests whatever the agent's limits.concurrentTasks: only for the checks that
   * fill or overflow the agent's slots on purpose (C-21). They neither wait for a task slot nor hold one.
   */
  overflowTasks?: boolean;
  /** Aborts waits on the governor (the check's budget). */
  signal?: AbortSignal;
  /** TLS, proxy and the extra headers sent on every request (below the harness's own). */
  network?: NetworkSettings;
}

export interface RequestOverrides {
  headers?: HeaderOverrides;
  /** Path (joined to baseUrl) or absolute URL replacing the agent path. */
  path?: string;
  /** Agent id for the default path, instead of the client's. */
  agentId?: string;
  /** HTTP method instead of POST. */
  httpMethod?: string;
  /** Per-request total deadline (rpc only; streams use their budgets). */
  timeoutMs?: number;
}

/**
 * Room in the agent's pace for requests that must follow this one closely: a resubscribe that must
 * find the task it starts still running, on an agent whose window may be full by then (a paced run
 * lets the next request out up to a window later). `{ keep: n }`: this request leaves only once the
 * window has room for it and n more, counted now; `{ prepaid: true }`: a follow-up whose place was
 * kept, let out at once (a Retry-After pause still holds it). Nothing on an unpaced run.
 */
export type PaceRoom = { keep: number } | { prepaid: true };

export interface RpcOptions extends RequestOverrides, EnvelopeOptions {
  /** Sent verbatim instead of the JSON envelope. */
  rawBody?: string | Buffer;
  /** Its place in the agent's pace, kept for or by a follow-up (PaceRoom). */
  pace?: PaceRoom;
  /**
   * Called when the request leaves for the agent, after any wait on the pace, a Retry-After or a
   * task slot (again for each resend): a check that watches for what the request makes starts its
   * window then, not when it asked.
   */
  onSent?: () => void;
}

export interface StreamOptions extends RpcOptions, SseOptions {}

export interface RawRequest {
  /** Default GET. */
  method?: string;
  /** Joined to baseUrl; default the agent path. */
  path?: string;
  /** Absolute URL, instead of path. */
  url?: string;
  headers?: HeaderOverrides;
  body?: string | Buffer;
  /** Add the configured credential headers. Default false: raw sends only what is given. */
  auth?: boolean;
  timeoutMs?: number;
}

export interface TargetClient {
  readonly baseUrl: string;
  readonly agentId: string;
  /** `/api/v1/a2a/{agentId}` for this client's agent or another one. */
  agentPath(agentId?: string): string;
  rpc(method: string, params?: unknown, opts?: RpcOptions): Promise<Exchange>;
  stream(method: string, params?: unknown, opts?: StreamOptions): Promise<SseStream>;
  raw(req: RawRequest): Promise<Exchange>;
  exchanges(): Exchange[];
  droppedExchanges(): number;
  addSecrets(...secrets: string[]): void;
  /** Every secret this client redacts: the credentials and those given or added (never values the harness made up). */
  secrets(): readonly string[];
  /**
   * Requests this client sent that the target has not answered yet: a plain request until its answer
   * is read, a stream until it ends. Requests still waiting to be let out (the pace) are not counted.
   */
  unanswered(): number;
  close(): Promise<void>;
}
