// Timelines for report.html: an SSE stream's events, comments and close in arrival order (spec 4.2,
// C-31), and webhook delivery attempts per delivery id with the measured delay before each retry
// beside the delay the retry policy asks for (spec 2.11, 6, C-20: initialDelay x multiplier^(n-1)).
import { requestOf, type Delivery, type Exchange, type StreamTranscript } from '../../core/evidence.ts';

export interface StreamPoint {
  atMs: number;
  kind: 'headers' | 'event' | 'comment' | 'close';
  label: string;
  final?: boolean;
  error?: boolean;
}

export interface StreamTimeline {
  exchangeId: string;
  status?: number;
  contentType?: string;
  closedBy: StreamTranscript['closedBy'];
  points: StreamPoint[];
  /** Points left out beyond the cap. */
  omitted: number;
}

/** What an event says in a few words: the task state, `final`, or the JSON-RPC error code. */
function eventLabel(e: StreamTranscript['events'][number]): string {
  const json = e.json as {
    result?: { status?: { state?: unknown }; final?: unknown };
    error?: { code?: unknown };
  };
  if (e.isError) return `error ${String(json?.error?.code ?? '')}`.trim();
  const state = json?.result?.status?.state;
  if (typeof state === 'string') return `${state}${e.isFinal ? ' (final)' : ''}`;
  if (e.parseError !== undefined) return `unparsable data: ${e.data.slice(0, 60)}`;
  return e.data.slice(0, 60);
}

export function streamTimeline(t: StreamTranscript, maxPoints: number): StreamTimeline {
  const points: StreamPoint[] = [];
  if (t.headersMs !== undefined)
    points.push({
      atMs: t.headersMs,
      kind: 'headers',
      label: `HTTP ${t.status ?? '?'} ${t.contentType ?? ''}`.trim(),
    });
  // A transcript cut or built by hand may lack its lists: it shows what it has.
  for (const e of [...(t.events ?? []), ...(t.afterFinal ?? [])]) {
    points.push({ atMs: e.atMs, kind: 'event', label: eventLabel(e), final: e.isFinal, error: e.isError });
  }
  for (const c of t.comments ?? []) points.push({ atMs: c.atMs, kind: 'comment', label: `:${c.text}` });
  if (t.closedAtMs !== undefined) {
    const why = t.budgetExceeded ? ` (${t.budgetExceeded} budget)` : t.error ? ` (${t.error.message})` : '';
    points.push({ atMs: t.closedAtMs, kind: 'close', label: `closed by ${t.closedBy}${why}` });
  }
  points.sort((a, b) => a.atMs - b.atMs);
  const timeline: StreamTimeline = {
    exchangeId: t.exchangeId,
    closedBy: t.closedBy,
    points: points.slice(0, maxPoints),
    omitted: Math.max(0, points.length - maxPoints),
  };
  if (t.status !== undefined) timeline.status = t.status;
  if (t.contentType !== undefined) timeline.contentType = t.contentType;
  return timeline;
}

export interface RetryPolicy {
  maxRetries: number;
  backoffMultiplier: number;
  initialDelay: number;
  /** `configured`: read from the set request of the check; `default`: spec 2.11 defaults. */
  source: 'configured' | 'default';
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 3,
  backoffMultiplier: 2,
  initialDelay: 1,
  source: 'default',
});

export interface Attempt {
  attempt: number;
  /** Ms since the group's first attempt arrived. */
  atMs: number;
  outcome: string;
  /** Ms from the previous attempt's answer (or failure) to this attempt's arrival. */
  measuredDelayMs?: number;
  /** initialDelay x backoffMultiplier^(n-1) seconds for retry n, in ms. */
  expectedDelayMs?: number;
}

export interface WebhookTimeline {
  deliveryId: string;
  event: string;
  path: string;
  policy: RetryPolicy;
  attempts: Attempt[];
}

type Recorded = Omit<Delivery, 'body'>;

function header(d: Recorded, name: string): string | undefined {
  const v = d.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

function outcomeOf(d: Recorded): string {
  const r = d.response;
  if (r.reset) return 'connection reset by the receiver';
  if (r.hang) return 'receiver did not answer';
  const delay = r.delayMs ? ` after ${r.delayMs} ms` : '';
  return r.status === undefined ? 'no answer recorded' : `answered ${r.status}${delay}`;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The retryPolicy of the configuration, in the check's exchanges, whose url reaches this path. */
export function policyFor(path: string, exchanges: readonly Exchange[]): RetryPolicy {
  for (const ex of exchanges) {
    const params = (requestOf(ex).json as { params?: { config?: { url?: unknown; retryPolicy?: unknown } } })
      ?.params;
    const config = params?.config;
    if (typeof config?.url !== 'string' || !config.url.endsWith(path)) continue;
    const p = (config.retryPolicy ?? {}) as Record<string, unknown>;
    return {
      maxRetries: num(p.maxRetries) ?? DEFAULT_RETRY_POLICY.maxRetries,
      backoffMultiplier: num(p.backoffMultiplier) ?? DEFAULT_RETRY_POLICY.backoffMultiplier,
      initialDelay: num(p.initialDelay) ?? DEFAULT_RETRY_POLICY.initialDelay,
      source: config.retryPolicy === undefined ? 'default' : 'configured',
    };
  }
  return { ...DEFAULT_RETRY_POLICY };
}

export function expectedDelayMs(policy: RetryPolicy, retry: number): number {
  return Math.round(policy.initialDelay * policy.backoffMultiplier ** (retry - 1) * 1000);
}

function attemptsOf(group: Recorded[], policy: RetryPolicy): Attempt[] {
  const first = group[0]!.receivedAtMs;
  return group.map((d, i) => {
    const n = num((d.json as { delivery?: { attempt?: unknown } })?.delivery?.attempt) ?? i + 1;
    const a: Attempt = { attempt: n, atMs: Math.round(d.receivedAtMs - first), outcome: outcomeOf(d) };
    const prev = group[i - 1];
    if (prev !== undefined) {
      a.measuredDelayMs = Math.round(d.receivedAtMs - (prev.response.atMs ?? prev.bodyCompleteAtMs));
      a.expectedDelayMs = expectedDelayMs(policy, n - 1);
    }
    return a;
  });
}

/** Deliveries grouped by X-Webhook-Delivery (one id per event per configuration, C-20). */
export function webhookTimelines(
  deliveries: readonly Recorded[],
  exchanges: readonly Exchange[],
): WebhookTimeline[] {
  const groups = new Map<string, Recorded[]>();
  for (const d of [...deliveries].sort((a, b) => a.receivedAtMs - b.receivedAtMs)) {
    const id = header(d, 'x-webhook-delivery') ?? `seq-${d.seq}`;
    groups.set(id, [...(groups.get(id) ?? []), d]);
  }
  return [...groups].map(([deliveryId, group]) => {
    const first = group[0]!;
    const policy = policyFor(first.path, exchanges);
    const event =
      header(first, 'x-webhook-event') ?? String((first.json as { event?: unknown })?.event ?? '?');
    return { deliveryId, event, path: first.path, policy, attempts: attemptsOf(group, policy) };
  });
}
