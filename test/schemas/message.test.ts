// Field tables 2.3 (Message), 2.4 (Part), 2.5 (File) and 2.6 (message params) against their schemas,
// with the invalid values of ruling C-14 (UUID v4, role, part types, Base64 without a data: prefix).
import { describe, expect, it } from 'vitest';
import { validate } from '../../schemas/registry.ts';
import {
  UUID,
  agentMessage,
  expectCase,
  expectOnly,
  expectValid,
  userMessage,
  type InvalidCase,
} from './fixtures.ts';

describe('2.3 Message', () => {
  it('2.3 accepts a user message with text and file parts, and upper-case UUID hex', () => {
    expectValid('message', userMessage());
    expectValid('message', { ...userMessage(), messageId: UUID.toUpperCase() });
    expectValid('message', { ...userMessage(), extra: { tolerated: true } });
  });

  const cases: InvalidCase[] = [
    { rule: 'role is required', mutate: (m) => delete m.role, path: 'role', keyword: 'required' },
    {
      rule: 'role must be user in requests',
      mutate: (m) => (m.role = 'agent'),
      path: 'role',
      keyword: 'const',
    },
    {
      rule: 'messageId is required',
      mutate: (m) => delete m.messageId,
      path: 'messageId',
      keyword: 'required',
    },
    {
      rule: 'messageId is a UUID (v1 refused)',
      mutate: (m) => (m.messageId = '3f2504e0-4f89-11d3-9a0c-0305e82c3301'),
      path: 'messageId',
      keyword: 'pattern',
    },
    {
      rule: 'messageId has the RFC 4122 variant',
      mutate: (m) => (m.messageId = '3f2504e0-4f89-41d3-ca0c-0305e82c3301'),
      path: 'messageId',
      keyword: 'pattern',
    },
    { rule: 'messageId is a string', mutate: (m) => (m.messageId = 7), path: 'messageId', keyword: 'type' },
    { rule: 'parts is required', mutate: (m) => delete m.parts, path: 'parts', keyword: 'required' },
    { rule: 'parts is an array', mutate: (m) => (m.parts = {}), path: 'parts', keyword: 'type' },
    { rule: 'parts is not empty (C-14)', mutate: (m) => (m.parts = []), path: 'parts', keyword: 'minItems' },
  ];
  for (const c of cases) it(`2.3 refuses: ${c.rule}`, () => expectCase('message', userMessage, c));

  it('2.8 agent replies carry role agent and parts', () => {
    expectValid('agent-message', agentMessage());
    expectValid('agent-message', { ...agentMessage(), messageId: 'any-id' });
    expectOnly('agent-message', { ...agentMessage(), role: 'user' }, 'role', 'const');
    expectOnly('agent-message', { role: 'agent' }, 'parts', 'required');
  });
});

describe('2.4 Part', () => {
  it('2.4 accepts text parts (empty text too) and file parts', () => {
    expectValid('part', { type: 'text', text: '' });
    expectValid('part', { type: 'file', file: { name: 'a', mimeType: 'image/png', bytes: '' } });
    expectValid('text-part', { type: 'text', text: 'x' });
    expectValid('file-part', { type: 'file', file: { name: 'a', mimeType: 'a/b', bytes: 'QQ==' } });
  });

  it('2.4 selects the branch by type, so only that branch reports', () => {
    expectOnly('part', { type: 'text' }, 'text', 'required');
    expectOnly('part', { type: 'file' }, 'file', 'required');
    expectOnly('part', { type: 'text', text: 5 }, 'text', 'type');
  });

  it('2.4 refuses part types other than text and file (C-14), and a missing type', () => {
    expectOnly('part', { type: 'image', url: 'x' }, 'type', 'discriminator');
    expectOnly('part', { text: 'x' }, 'type', 'discriminator');
  });

  it('2.4 reports the path inside the message', () => {
    const message = userMessage();
    message.parts[1] = { type: 'file' } as never;
    expectOnly('message', message, 'parts[1].file', 'required');
  });
});

describe('2.5 File', () => {
  const file = () => ({ name: 'report.pdf', mimeType: 'application/pdf; charset=binary', bytes: 'YWJj' });

  it('2.5 accepts every padding form', () => {
    for (const bytes of ['', 'YQ==', 'YWI=', 'YWJj', 'YWJjZA==', '+/+/'])
      expectValid('file', { ...file(), bytes });
  });

  const cases: InvalidCase[] = [
    { rule: 'name is required', mutate: (f) => delete f.name, path: 'name', keyword: 'required' },
    { rule: 'mimeType is required', mutate: (f) => delete f.mimeType, path: 'mimeType', keyword: 'required' },
    {
      rule: 'mimeType is type/subtype',
      mutate: (f) => (f.mimeType = 'pdf'),
      path: 'mimeType',
      keyword: 'pattern',
    },
    { rule: 'bytes is required', mutate: (f) => delete f.bytes, path: 'bytes', keyword: 'required' },
    {
      rule: 'bytes has no data: prefix',
      mutate: (f) => (f.bytes = 'data:text/plain;base64,YWJj'),
      path: 'bytes',
      keyword: 'pattern',
    },
    {
      rule: 'bytes length is a multiple of 4',
      mutate: (f) => (f.bytes = 'YWJ'),
      path: 'bytes',
      keyword: 'pattern',
    },
    {
      rule: 'bytes padding only at the end',
      mutate: (f) => (f.bytes = 'YQ==YWJj'),
      path: 'bytes',
      keyword: 'pattern',
    },
    {
      rule: 'bytes has no whitespace',
      mutate: (f) => (f.bytes = 'YWJj\nYWJj'),
      path: 'bytes',
      keyword: 'pattern',
    },
    {
      rule: 'bytes uses the standard alphabet',
      mutate: (f) => (f.bytes = 'YW-_'),
      path: 'bytes',
      keyword: 'pattern',
    },
  ];
  for (const c of cases) it(`2.5 refuses: ${c.rule}`, () => expectCase('file', file, c));

  it('2.5 checks a 5 MiB file (7 MB of Base64) without overflowing the regexp stack', () => {
    const bytes = Buffer.alloc(5 * 1024 * 1024, 7).toString('base64');
    expectValid('file', { ...file(), bytes });
    expectOnly('file', { ...file(), bytes: `${bytes}!` }, 'bytes', 'pattern');
    expectOnly('file', { ...file(), bytes: bytes.slice(1) }, 'bytes', 'pattern');
  });
});

describe('2.6 Message params', () => {
  const params = () => ({ message: userMessage(), contextId: 'c1', sessionId: 's1', id: 'task-1' });

  it('2.6 accepts the full params and the message alone', () => {
    expectValid('message-params', params());
    expectValid('message-params', { message: userMessage() });
  });

  const cases: InvalidCase[] = [
    { rule: 'message is required', mutate: (p) => delete p.message, path: 'message', keyword: 'required' },
    { rule: 'contextId is a string', mutate: (p) => (p.contextId = 1), path: 'contextId', keyword: 'type' },
    {
      rule: 'sessionId is a string',
      mutate: (p) => (p.sessionId = true),
      path: 'sessionId',
      keyword: 'type',
    },
    { rule: 'id is a string', mutate: (p) => (p.id = {}), path: 'id', keyword: 'type' },
    {
      rule: 'nested Base64 is checked (C-14 field path)',
      mutate: (p) => (p.message.parts[1].file.bytes = 'data:;base64,'),
      path: 'message.parts[1].file.bytes',
      keyword: 'pattern',
    },
  ];
  for (const c of cases) it(`2.6 refuses: ${c.rule}`, () => expectCase('message-params', params, c));

  it('2.6 reports every broken field at once (allErrors)', () => {
    const result = validate('message-params', { message: { role: 'agent', parts: [] } });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual([
      'message.messageId',
      'message.parts',
      'message.role',
    ]);
  });
});
