// HTTP load through autocannon (in this process; the servers run in their own): fixed duration or
// fixed request count, fixed connections; latency percentiles from every 2xx response's own time
// (autocannon's histogram keeps whole milliseconds, too coarse for loopback latencies).
import autocannon from 'autocannon';
import { ascending, percentile } from './stats.ts';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** One body for every request, or a function giving the next body. */
  body: string | (() => string);
  connections: number;
  /** Seconds of load; ignored when `amount` is set. */
  durationS?: number;
  /** Exactly this many requests. */
  amount?: number;
}

export interface LoadResult {
  /** 2xx responses per second. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  durationS: number;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const { body } = opts;
  const request =
    typeof body === 'string'
      ? { method: 'POST' as const, body }
      : {
          method: 'POST' as const,
          setupRequest: (req: autocannon.Request) => ({ ...req, body: body() }),
        };
  const latencies: number[] = [];
  let ok = 0;
  const started = performance.now();
  const options: autocannon.Options = {
    url: opts.url,
    headers: { 'content-type': 'application/json', ...opts.headers },
    connections: opts.connections,
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.durationS ?? 5 }),
    requests: [request],
    timeout: 30,
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    // The callback form returns the instance, whose `response` event carries each request's own time.
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode >= 300) return;
      ok += 1;
      latencies.push(responseTime);
    });
  });
  const durationS = (performance.now() - started) / 1000;
  const sorted = ascending(latencies);
  return {
    rps: ok / durationS,
    ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    durationS,
  };
}
