// Redaction of secrets (spec 2.11 secret and headers, spec 5 credentials) in evidence values, and
// the truncation marker for long recorded bodies.
import { describe, expect, it } from 'vitest';
import {
  deliveryEvidence,
  redact,
  redactHeaders,
  redactText,
  truncateText,
  type Delivery,
} from '../../../core/evidence.ts';
import { recordRequest, REQUEST_JSON_STRING_CHARS } from '../../../harness/io/target/request-spec.ts';

describe('redact', () => {
  it("replaces secrets in nested strings, and in keys of the agent's data only, leaving the input untouched", () => {
    const input = { a: ['x s3cret y', { s3cret: 1 }], json: { s3cret: 2 }, n: 5, b: null, ok: true };
    const out = redact(input, ['s3cret']);
    expect(out).toEqual({
      a: ['x [redacted] y', { s3cret: 1 }],
      json: { '[redacted]': 2 },
      n: 5,
      b: null,
      ok: true,
    });
    expect(redact({ s3cret: 1 }, ['s3cret'], { keys: true })).toEqual({ '[redacted]': 1 });
    expect(input.a[0]).toBe('x s3cret y');
  });

  it('catches JSON-escaped and percent-encoded forms, longest secret first', () => {
    const secret = 'p"a\\ss word';
    const json = JSON.stringify({ secret });
    expect(redactText(json, [secret]).text).toBe('{"secret":"[redacted]"}');
    expect(redactText(`?k=${encodeURIComponent(secret)}`, [secret]).text).toBe('?k=[redacted]');
    expect(redactText('abcdef', ['abc', 'abcdef'])).toEqual({ text: '[redacted]', count: 1 });
  });

  it('ignores empty secrets and counts occurrences of whole tokens only', () => {
    expect(redactText('a X bXc X', ['', 'X'])).toEqual({ text: 'a [redacted] bXc [redacted]', count: 2 });
    expect(redact('keep', [])).toBe('keep');
  });

  it('redacts header values, arrays included', () => {
    const r = redactHeaders({ 'x-api-key': 'k1', 'set-cookie': ['a=k1', 'b=2'] }, ['k1']);
    expect(r).toEqual({
      headers: { 'x-api-key': '[redacted]', 'set-cookie': ['a=[redacted]', 'b=2'] },
      count: 2,
    });
  });
});

describe('deliveryEvidence', () => {
  it('drops the raw bytes and redacts headers and text', () => {
    const d: Delivery = {
      seq: 1,
      receivedAtMs: 1,
      bodyCompleteAtMs: 2,
      timestamp: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/hooks/t',
      headers: { 'x-tenant': 'tenant-secret' },
      body: Buffer.from('{"v":"tenant-secret"}'),
      text: '{"v":"tenant-secret"}',
      json: { v: 'tenant-secret' },
      bodyBytes: 21,
      bodyTruncated: false,
      response: { status: 200 },
    };
    const e = deliveryEvidence(d, ['tenant-secret']);
    expect('body' in e).toBe(false);
    expect(JSON.stringify(e)).not.toContain('tenant-secret');
    expect(e.headers['x-tenant']).toBe('[redacted]');
  });
});

describe('truncateText', () => {
  it('marks what was cut', () => {
    expect(truncateText('abcdef', 4)).toEqual({ text: 'abcd…[truncated 2 chars]', truncated: true });
    expect(truncateText('abc', 4)).toEqual({ text: 'abc', truncated: false });
  });
});

describe('recorded requests', () => {
  it('keeps a large request out of the record: body cut, long strings of its envelope cut, id kept', () => {
    const bytes = 'A'.repeat(7_000_000);
    const envelope = {
      jsonrpc: '2.0',
      id: 'big-1',
      method: 'message/send',
      params: { message: { parts: [{ type: 'file', file: { name: 'f.bin', bytes } }] } },
    };
    const body = JSON.stringify(envelope);
    const spec = { method: 'POST', url: 'http://t/api', headers: {}, body, envelope };
    const rec = recordRequest(spec as Parameters<typeof recordRequest>[0], [], 256 * 1024);
    expect(rec.body?.length).toBeLessThan(256 * 1024 + 100);
    expect(rec.body).toMatch(/…\[truncated \d+ chars\]$/);
    const json = rec.json as typeof envelope;
    expect(json.id).toBe('big-1');
    const kept = json.params.message.parts[0]?.file.bytes ?? '';
    expect(kept.length).toBeLessThan(REQUEST_JSON_STRING_CHARS + 100);
    expect(kept).toContain(`[truncated ${7_000_000 - REQUEST_JSON_STRING_CHARS} chars]`);
    expect(JSON.stringify(rec).length).toBeLessThan(300 * 1024);
  });

  it('keeps a request within the cap whole, envelope included', () => {
    const envelope = { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 'x'.repeat(5000) } };
    const body = JSON.stringify(envelope);
    const rec = recordRequest(
      { method: 'POST', url: 'u', headers: {}, body, envelope } as Parameters<typeof recordRequest>[0],
      [],
      256 * 1024,
    );
    expect(rec.body).toBe(body);
    expect(rec.json).toEqual(envelope);
  });
});
