// The transport fault policy (harness/io/target/faults.ts): the report's kinds each have one policy,
// a code classifies as one kind, what still counts as an answer, and which requests are sent again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange, IoError } from '../../../core/evidence.ts';
import {
  answerFault,
  classifyError,
  completeAnswer,
  countFault,
  FAULTS,
  faultsAbsorbed,
  READ_ATTEMPTS,
  resendWaitMs,
  sendResendingReads,
  sumFaults,
  transientFault,
  type FaultCounts,
} from '../../../harness/io/target/faults.ts';
import { BodyTooLargeError } from '../../../harness/io/target/io-errors.ts';

const REPORT_SCHEMA = JSON.parse(
  readFileSync(new URL('../../../schemas/report.schema.json', import.meta.url), 'utf8'),
) as { $defs: { ioError: { properties: { kind: { enum: string[] } } } } };

function socketError(code: string): Error {
  return new Error('fetch failed', { cause: Object.assign(new Error(code.toLowerCase()), { code }) });
}

function exchange(error?: IoError, status?: number): Exchange {
  return {
    kind: 'rpc',
    request: { method: 'POST', url: 'http://127.0.0.1:1/', headers: {} },
    timings: {},
    ...(error === undefined ? {} : { error }),
    ...(status === undefined ? {} : { response: { status, headers: {}, bodyText: '' } }),
  } as unknown as Exchange;
}

describe('the transport fault policy', () => {
  it("has one policy per kind of the report's ioError.kind, and a code names one kind", () => {
    expect(Object.keys(FAULTS).sort()).toEqual([...REPORT_SCHEMA.$defs.ioError.properties.kind.enum].sort());
    const codes = Object.values(FAULTS).flatMap((f) => f.codes);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('classifies a failure by its code (or its cause), the harness deadline and the body cap', () => {
    for (const [kind, policy] of Object.entries(FAULTS)) {
      for (const code of policy.codes)
        expect(classifyError(socketError(code), false)).toMatchObject({ kind, code });
    }
    expect(classifyError(socketError('ECONNRESET'), true).kind).toBe('timeout');
    expect(classifyError(new BodyTooLargeError(16), true).kind).toBe('body-too-large');
    expect(classifyError(new Error('odd'), false)).toEqual({ kind: 'other', message: 'odd' });
    expect(classifyError(socketError('ECONNRESET'), false).message).toBe('fetch failed (econnreset)');
  });

  it('counts an answer cut by a fault as no answer, except a body over its cap', () => {
    expect(completeAnswer(exchange(undefined, 200))).toBe(true);
    expect(completeAnswer(exchange({ kind: 'body-too-large', message: 'cap' }, 200))).toBe(true);
    expect(completeAnswer(exchange({ kind: 'reset', message: 'cut' }, 200))).toBe(false);
    expect(completeAnswer(exchange({ kind: 'timeout', message: 'late' }, 200))).toBe(false);
    expect(completeAnswer(exchange({ kind: 'connect', message: 'refused' }))).toBe(false);
  });

  it('sends a read again while it meets a fault that resends reads, at most three times, and nothing else', async () => {
    const sends = async (method: string, first: Exchange): Promise<number> => {
      let n = 0;
      const answers = [first, exchange(undefined, 200)];
      const last = await sendResendingReads(method, async () => answers[n++]!);
      if (n === 2) {
        expect(first.error?.message).toMatch(/sent again/);
        expect(last).toBe(answers[1]);
      }
      return n;
    };
    expect(await sends('tasks/get', exchange({ kind: 'reset', message: 'closed' }))).toBe(2);
    expect(await sends('agent/authenticatedExtendedCard', exchange({ kind: 'reset', message: 'x' }))).toBe(2);
    expect(await sends('tasks/get', exchange({ kind: 'cut-short', message: 'cut' }, 200))).toBe(2);
    expect(await sends('tasks/get', exchange({ kind: 'gateway', message: '503' }, 503))).toBe(2);
    expect(await sends('message/send', exchange({ kind: 'reset', message: 'closed' }))).toBe(1);
    expect(await sends('message/send', exchange({ kind: 'gateway', message: '503' }, 503))).toBe(1);
    expect(await sends('tasks/cancel', exchange({ kind: 'reset', message: 'closed' }))).toBe(1);
    expect(await sends('tasks/get', exchange({ kind: 'timeout', message: 'late' }))).toBe(1);
    expect(await sends('tasks/get', exchange(undefined, 200))).toBe(1);
    let n = 0;
    await sendResendingReads('tasks/get', async () => {
      n += 1;
      return exchange({ kind: 'reset', message: 'again' });
    });
    expect(n).toBe(READ_ATTEMPTS);
  });

  it("tells a gateway, a throttle and an error page from the agent's own answers", () => {
    const rpcError = { jsonrpc: '2.0', id: '1', error: { code: -32603, message: 'busy' } };
    expect(answerFault(503, { 'content-type': 'text/plain' }, undefined)?.kind).toBe('gateway');
    expect(answerFault(502, {}, undefined)?.kind).toBe('gateway');
    expect(answerFault(504, { 'content-type': 'text/html' }, undefined)?.kind).toBe('gateway');
    expect(answerFault(429, { 'content-type': 'text/plain' }, undefined)?.kind).toBe('throttled');
    expect(answerFault(500, { 'content-type': 'text/html; charset=utf-8' }, undefined)?.kind).toBe(
      'foreign-body',
    );
    // The agent's own answers: a JSON-RPC body whatever the status (C-42's 503, C-04's 429).
    expect(answerFault(503, { 'content-type': 'application/json' }, rpcError)).toBeUndefined();
    expect(answerFault(429, { 'content-type': 'application/json' }, rpcError)).toBeUndefined();
    expect(answerFault(500, { 'content-type': 'text/plain' }, undefined)).toBeUndefined();
    expect(answerFault(404, { 'content-type': 'text/html' }, undefined)).toBeUndefined();
    expect(answerFault(200, { 'content-type': 'text/html' }, undefined)).toBeUndefined();
  });

  it('waits out Retry-After in seconds or as an HTTP date before a resend, else backs off', () => {
    const withHeaders = (headers: Record<string, string>, totalMs = 40): Exchange =>
      ({
        ...exchange({ kind: 'gateway', message: '503' }, 503),
        response: { status: 503, headers, body: '' },
        timings: { totalMs },
      }) as unknown as Exchange;
    expect(resendWaitMs(withHeaders({ 'retry-after': '2' }), 0, 60_000)).toBe(2000);
    const at = new Date(Date.now() + 3_000).toUTCString();
    const ms = resendWaitMs(withHeaders({ 'retry-after': at }), 0, 60_000);
    expect(ms).toBeGreaterThan(1_000);
    expect(ms).toBeLessThanOrEqual(3_000);
    expect(resendWaitMs(withHeaders({ 'retry-after': '600' }), 0, 5_000)).toBe(5_000);
    expect(resendWaitMs(withHeaders({}), 0, 60_000)).toBe(0);
    expect(resendWaitMs(withHeaders({}), 1, 60_000)).toBe(80);
    expect(resendWaitMs(withHeaders({}), 2, 60_000)).toBe(160);
  });

  it('counts faults by kind, retried or not, and sums them with the lost ones', () => {
    const a: FaultCounts = {};
    const b: FaultCounts = {};
    countFault(a, exchange({ kind: 'reset', message: 'x' }), true);
    countFault(a, exchange({ kind: 'reset', message: 'x' }), false);
    countFault(b, exchange({ kind: 'gateway', message: 'x' }, 503), true);
    countFault(b, exchange(undefined, 200), false);
    countFault(b, exchange({ kind: 'body-too-large', message: 'cap' }, 200), false);
    const sum = sumFaults([a, undefined, b]);
    expect(sum).toEqual({
      reset: { count: 2, retried: 1, reRun: 0, lost: 1 },
      gateway: { count: 1, retried: 1, reRun: 0, lost: 0 },
    });
    expect(faultsAbsorbed(sum)).toBe(2);
    expect(sumFaults([{}, undefined])).toBeUndefined();
  });

  it('names the transient fault an exchange met, for a check that may run again', () => {
    expect(transientFault(exchange({ kind: 'gateway', message: '503' }, 503))).toBe('gateway');
    expect(transientFault(exchange({ kind: 'reset', message: 'x' }))).toBe('reset');
    expect(transientFault(exchange({ kind: 'body-too-large', message: 'cap' }, 200))).toBeUndefined();
    expect(transientFault(exchange(undefined, 200))).toBeUndefined();
  });
});
