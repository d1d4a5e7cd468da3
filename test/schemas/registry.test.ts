// The Ajv registry API: validators compiled once and shared, the result shape of validate(), the
// dotted paths of C-14's `field` derived from Ajv's JSON pointers, and the conforms() type guard.
import { describe, expect, it } from 'vitest';
import { conforms, getValidator, toDottedPath, validate } from '../../schemas/registry.ts';
import { request, sendResult, userMessage } from './fixtures.ts';

describe('schema registry', () => {
  it('getValidator returns the same compiled function on every call', () => {
    expect(getValidator('message')).toBe(getValidator('message'));
    expect(getValidator('message')).not.toBe(getValidator('part'));
  });

  it('getValidator refuses an unknown name', () => {
    expect(() => getValidator('nope' as never)).toThrow(/unknown schema name: nope/);
  });

  it('validate returns { valid: true } and nothing else for a valid value', () => {
    expect(validate('send-result', sendResult())).toEqual({ valid: true });
  });

  it('validate returns path, keyword and message for each issue', () => {
    const message = { ...userMessage(), messageId: 'not-a-uuid' };
    const result = validate('jsonrpc-request', request('message/send', { message }));
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: 'params.message.messageId', keyword: 'pattern' });
    expect(result.errors[0]?.message).toMatch(/^must match pattern/);
  });

  it('a missing property is named in the path, at any depth', () => {
    const message = userMessage();
    message.parts[1] = { type: 'file', file: { name: 'a', mimeType: 'a/b' } } as never;
    expect(validate('message', message)).toEqual({
      valid: false,
      errors: [
        { path: 'parts[1].file.bytes', keyword: 'required', message: "must have required property 'bytes'" },
      ],
    });
  });

  it('a root-level type error has the empty path', () => {
    expect(validate('message', 'hello')).toEqual({
      valid: false,
      errors: [{ path: '', keyword: 'type', message: 'must be object' }],
    });
  });

  it('validators do not keep state between calls', () => {
    expect(validate('part', { type: 'text' }).valid).toBe(false);
    expect(validate('part', { type: 'text', text: 'x' })).toEqual({ valid: true });
    expect(validate('part', { type: 'file' })).toMatchObject({ errors: [{ path: 'file' }] });
  });

  it('conforms narrows to the generated type', () => {
    const value: unknown = sendResult();
    expect(conforms('send-result', value)).toBe(true);
    if (conforms('send-result', value)) expect(value.status.state).toBe('completed');
    expect(conforms('send-result', { ...sendResult(), final: false })).toBe(false);
  });
});

describe('toDottedPath', () => {
  const value = { message: { parts: [{ file: { bytes: 'x' } }] }, headers: { '0': 'a', 'x-y/z': 'b' } };

  it('writes array indices in brackets and object keys with dots', () => {
    expect(toDottedPath(['message', 'parts', '0', 'file', 'bytes'], value)).toBe(
      'message.parts[0].file.bytes',
    );
  });

  it('keeps a numeric object key as a key', () => {
    expect(toDottedPath(['headers', '0'], value)).toBe('headers.0');
  });

  it('handles the root and keys holding / (unescaped from the pointer by validate)', () => {
    expect(toDottedPath([], value)).toBe('');
    expect(toDottedPath(['headers', 'x-y/z'], value)).toBe('headers.x-y/z');
    expect(validate('webhook-config-input', { url: 'https://a.test', headers: { 'a/b': 1 } })).toMatchObject({
      errors: expect.arrayContaining([expect.objectContaining({ path: 'headers.a/b', keyword: 'type' })]),
    });
  });
});
