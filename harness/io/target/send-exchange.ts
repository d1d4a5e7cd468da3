// One HTTP exchange with the target (spec 4): the request sent and its body read under one total
// deadline (the caller's), the body decoded and capped as it arrives, the answer recorded as evidence
// on the exchange and every failure classified into ex.error, never thrown.
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import type { Exchange } from '../../../core/evidence.ts';
import { decodedBody, readCapped, type BodyAccumulator } from './body-reader.ts';
import { answerFault, classifyError } from './faults.ts';
import type { RequestSpec } from './request-spec.ts';
import { recordResponse } from './response-record.ts';

/** What an exchange needs of its client. */
export interface ExchangeWire {
  dispatcher: Dispatcher;
  /** Bytes of a body read at most (the rest is never buffered). */
  maxBodyBytes: number;
  /** Characters of a body kept in the record. */
  recordChars: number;
  secrets: readonly string[];
  /** The client's requests in flight: close() aborts them. */
  inflight: Set<AbortController>;
}

/** Sends `spec`, records its answer (or its failure) on `ex`, and resolves with `ex`. */
export async function sendExchange(
  wire: ExchangeWire,
  spec: RequestSpec,
  timeoutMs: number,
  ex: Exchange,
): Promise<Exchange> {
  const t0 = performance.now();
  const acc: BodyAccumulator = { chunks: [], bytes: 0 };
  const res = await transmit(wire, spec, timeoutMs, ex, acc, t0);
  if (res !== undefined) {
    const complete = ex.error === undefined;
    ex.response = recordResponse(res.statusCode, res.headers, acc, complete, wire.secrets, wire.recordChars);
    // A complete answer that is not the agent's (a gateway's 503, a throttle's 429, an error page).
    if (complete) {
      const fault = answerFault(res.statusCode, res.headers, ex.response.json);
      if (fault !== undefined) ex.error = fault;
    }
  }
  ex.timings.totalMs = elapsed(t0);
  return ex;
}

/** Sends and reads the body into `acc` under one total deadline; failures land in ex.error. */
async function transmit(
  wire: ExchangeWire,
  spec: RequestSpec,
  timeoutMs: number,
  ex: Exchange,
  acc: BodyAccumulator,
  t0: number,
): Promise<Dispatcher.ResponseData | undefined> {
  const controller = new AbortController();
  wire.inflight.add(controller);
  let deadlineHit = false;
  const timer = setTimeout(() => {
    deadlineHit = true;
    controller.abort();
  }, timeoutMs);
  let res: Dispatcher.ResponseData | undefined;
  try {
    res = await request(spec.url, {
      dispatcher: wire.dispatcher,
      method: spec.method as Dispatcher.HttpMethod,
      headers: spec.headers,
      body: spec.body ?? null,
      signal: controller.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    ex.timings.headersMs = elapsed(t0);
    // What the request advertised (a raw request may send none): named when a coding is not decoded.
    const advertised = spec.headers['accept-encoding'] ?? null;
    const body = decodedBody(res.headers['content-encoding'], res.body, advertised);
    await readCapped(body, acc, wire.maxBodyBytes);
  } catch (err) {
    ex.error = classifyError(err, deadlineHit, res !== undefined);
    if (deadlineHit) {
      const phase = res === undefined ? 'waiting for response headers' : 'reading the body';
      ex.error.message = `no complete response within ${timeoutMs} ms (${phase}): ${ex.error.message}`;
    }
    res?.body.destroy();
  } finally {
    clearTimeout(timer);
    wire.inflight.delete(controller);
  }
  return res;
}

function elapsed(t0: number): number {
  return Math.round((performance.now() - t0) * 10) / 10;
}
