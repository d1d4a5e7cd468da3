// report.har (reporters/har.ts) from a run result alone: one entry per recorded exchange, oldest
// first, with the request as sent, the response as received (an SSE stream as its text), timings
// that add up, a failed exchange as status 0 with _error, --evidence's trimming said in the comment,
// and --insecure named like in every report.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import { trimEvidence } from '../../harness/runner/trim-evidence.ts';
import type { RunResult } from '../../core/types.ts';
import { renderHar } from '../../reporters/har.ts';
import { check, exchange, fixtureRun, requirement, transcript } from './fixtures.ts';

const HAR_SCHEMAS = createRequire(import.meta.url)('har-schema') as Record<string, object>;

function validHar(har: unknown): unknown[] {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormatsModule.default(ajv);
  for (const s of Object.values(HAR_SCHEMAS)) ajv.addSchema(s);
  ajv.validate('har.json#', har);
  return ajv.errors ?? [];
}

function run(): RunResult {
  const later = exchange('ex-1', { jsonrpc: '2.0', id: 1, method: 'tasks/get' }, { result: {} });
  later.timings = { startedAt: '2026-01-01T00:00:02.000Z', headersMs: 3, totalMs: 4 };
  const failed = exchange('ex-2', { jsonrpc: '2.0', id: 2, method: 'tasks/get' }, {});
  delete failed.response;
  failed.error = { kind: 'reset', message: 'other side closed', code: 'UND_ERR_SOCKET' };
  failed.timings = { startedAt: '2026-01-01T00:00:01.000Z', totalMs: 7 };
  const stream = exchange('ex-3', { jsonrpc: '2.0', id: 3, method: 'message/stream' }, {});
  stream.kind = 'stream';
  const t = transcript('ex-3');
  stream.transcript = t;
  stream.response = { ...stream.response!, headers: t.headers, body: t.raw, bodyBytes: t.bytes };
  stream.timings = { startedAt: '2026-01-01T00:00:00.500Z', headersMs: 8, totalMs: 260 };
  return fixtureRun([
    requirement('2.2/response-id-equals-request-id', 'pass', [
      check('2.2/response-id-equals-request-id', 'pass', {
        evidence: { exchanges: [later], streams: [], deliveries: [] },
      }),
    ]),
    requirement('4.2/stream-content-type-sse', 'fail', [
      check('4.2/stream-content-type-sse', 'fail', {
        evidence: { exchanges: [failed, stream], streams: [t], deliveries: [] },
      }),
    ]),
  ]);
}

describe('report.har', () => {
  it('is HAR 1.2: every exchange, oldest first, streams as their text, timings that add up', () => {
    const har = JSON.parse(renderHar(run())) as Har;
    expect(validHar(har)).toEqual([]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => (e as unknown as { _exchange: string })._exchange)).toEqual([
      'ex-3',
      'ex-2',
      'ex-1',
    ]);
    const [stream, failed, later] = har.log.entries;
    expect(stream!.response.content).toMatchObject({ mimeType: 'text/event-stream', size: 400 });
    expect(stream!.response.content.text).toMatch(/^data: \{"jsonrpc"/);
    expect(stream!.timings).toMatchObject({ wait: 8, receive: 252 });
    expect(failed!.response).toMatchObject({ status: 0, _error: 'reset: other side closed' });
    expect(later!.request.postData).toEqual({
      mimeType: 'application/json',
      text: '{"jsonrpc":"2.0","id":1,"method":"tasks/get"}',
    });
    expect(later!.request.headers).toContainEqual({ name: 'x-api-key', value: '[redacted]' });
    expect(later!.response).toMatchObject({ status: 200, statusText: 'OK' });
    for (const e of har.log.entries) {
      const t = e.timings;
      expect((t.send ?? 0) + t.wait + t.receive).toBeCloseTo(e.time, 3);
    }
  });

  it('holds what --evidence kept, and says how much it left out; --insecure is named', () => {
    const trimmed = trimEvidence(run(), 'failing');
    // As the runner records them.
    trimmed.options.evidence = 'failing';
    trimmed.options.insecure = true;
    const har = JSON.parse(renderHar(trimmed)) as Har;
    expect(validHar(har)).toEqual([]);
    expect(har.log.entries.map((e) => (e as unknown as { _exchange: string })._exchange)).toEqual([
      'ex-3',
      'ex-2',
    ]);
    expect(har.log.comment).toMatch(/--evidence failing: 1 exchange\(s\) of passing checks left out/);
    expect(har.log.comment).toMatch(/TLS not verified \(--insecure\)/);
  });
});
