// A short slice of the fuzz run (reliability/fuzz.ts; `npm run fuzz` sends 100,000): fast-check
// generated hostile requests against a reference server in a child process. Every answer must be a
// well-formed JSON-RPC response on a ruled HTTP status (checked with the JSON Schemas), the process
// must survive, and its heap after GC must come back to the baseline.
import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../reliability/response-check.ts';
import { runFuzz } from '../../reliability/fuzz.ts';
import { HEAP_TOLERANCE_BYTES, heapGrowth } from '../../reliability/figures.ts';

describe('fuzzing the reference server (spec 2, 4, 7; C-02, C-03, C-42, C-47)', () => {
  it('answers 600 hostile requests with ruled errors, survives, and returns to its heap baseline', async () => {
    const report = await runFuzz({ requests: 600, warmup: 150, concurrency: 12, seed: 7, idleMs: 3500 });
    expect(report.violations).toEqual([]);
    expect(report.crashed).toBe(false);
    // The slice reaches every layer: HTTP refusals, envelope and params errors, results.
    for (const outcome of [
      '200 -32700',
      '200 -32600',
      '200 -32602',
      '401 -32010',
      '415 -32600',
      '200 result',
    ]) {
      expect(report.byOutcome[outcome], outcome).toBeGreaterThan(0);
    }
    expect(heapGrowth(report.memory.baseline, report.memory.afterIdle)).toBeLessThanOrEqual(
      HEAP_TOLERANCE_BYTES,
    );
  }, 90_000);
});

describe('the answer judge (reliability/response-check.ts)', () => {
  const error = (code: number, data?: object) =>
    JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message: 'm', ...(data ? { data } : {}) } });

  it('accepts ruled statuses with their codes and refuses everything else', () => {
    expect(checkResponse(200, 'application/json', error(-32700), 'POST').ok).toBe(true);
    expect(checkResponse(401, 'application/json', error(-32010, { reason: 'missing' }), 'POST').ok).toBe(
      true,
    );
    expect(checkResponse(413, 'application/json', error(-32600), 'POST').ok).toBe(true);
    expect(checkResponse(500, 'application/json', error(-32603), 'POST').ok).toBe(false); // not ruled
    expect(checkResponse(401, 'application/json', error(-32600), 'POST').ok).toBe(false); // wrong code
    expect(checkResponse(200, 'application/json', error(-32010, { reason: 'missing' }), 'POST').ok).toBe(
      false,
    );
    expect(checkResponse(200, 'text/html', error(-32700), 'POST').ok).toBe(false);
    expect(checkResponse(200, 'application/json', '{"jsonrpc":"2.0"', 'POST').ok).toBe(false);
    expect(checkResponse(200, 'application/json', error(-32602, { details: 'x' }), 'POST').ok).toBe(false); // no field
    expect(checkResponse(200, 'application/json', error(-1), 'POST').ok).toBe(false); // not in the table
    expect(checkResponse(200, 'application/json', error(-32600, [] as unknown as object), 'POST').ok).toBe(
      false,
    );
  });

  it('checks a result against its method schema and an SSE stream for one final event', () => {
    const result = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't' } });
    expect(checkResponse(200, 'application/json', result, 'POST').ok).toBe(true);
    expect(checkResponse(200, 'application/json', result, 'POST', 'tasks/get').ok).toBe(false);
    const event = (state: string, final: boolean) =>
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', status: { state }, final } })}\n\n`;
    expect(
      checkResponse(200, 'text/event-stream', event('submitted', false) + event('canceled', true), 'POST').ok,
    ).toBe(true);
    expect(checkResponse(200, 'text/event-stream', event('submitted', false), 'POST').ok).toBe(false);
    const twice = event('canceled', true) + event('canceled', true);
    expect(checkResponse(200, 'text/event-stream', twice, 'POST').ok).toBe(false);
    // A completed event without its reply message breaks the stream-event schema.
    expect(checkResponse(200, 'text/event-stream', event('completed', true), 'POST').ok).toBe(false);
  });
});
