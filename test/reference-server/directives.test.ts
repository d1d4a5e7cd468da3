// The a2a:directive contract (docs/directives.md): parsing rules, the exact reply format, invalid
// directives failing the task, and multi-turn replies over real HTTP (spec 4.9).
import { describe, expect, it } from 'vitest';
import { contentText, NO_DIRECTIVE, parseDirectives } from '../../reference-server/agent/directives.ts';
import { replyText } from '../../reference-server/agent/reply.ts';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import type { Part } from '../../reference-server/types.ts';
import { AGENT_A, directive, filePart, sendParams, startServer, userMessage } from './support.ts';

const text = (value: string): Part => ({ type: 'text', text: value });

describe('directives.md 1 detection', () => {
  it('treats a whole text part starting with a2a:directive as the directive and keeps the rest as content', () => {
    const parsed = parseDirectives([text('hello'), text('  a2a:directive {"delayMs": 5}\n'), text('world')]);
    expect(parsed).toEqual({
      ok: true,
      directive: { ...NO_DIRECTIVE, delayMs: 5 },
      contentTexts: ['hello', 'world'],
    });
  });

  it('leaves look-alikes as plain content', () => {
    for (const value of ['a2a:directives {}', 'A2A:directive {}', 'say a2a:directive {}']) {
      expect(parseDirectives([text(value)])).toEqual({
        ok: true,
        directive: { ...NO_DIRECTIVE },
        contentTexts: [value],
      });
    }
    expect(parseDirectives([text('a2a:directive{"turn":true}')])).toMatchObject({
      ok: true,
      directive: { turn: true },
    });
  });

  it('refuses invalid directives with a reason', () => {
    const cases = [
      'a2a:directive',
      'a2a:directive {nope}',
      'a2a:directive [1]',
      'a2a:directive {"delay":1}',
      'a2a:directive {"delayMs":-1}',
      'a2a:directive {"delayMs":1.5}',
      'a2a:directive {"progressSteps":101}',
      'a2a:directive {"fail":""}',
      'a2a:directive {"echoFiles":"yes"}',
      'a2a:directive {"fail":"x","runUntilCanceled":true}',
      'a2a:directive {} trailing',
    ];
    for (const value of cases) expect(parseDirectives([text(value)]).ok, value).toBe(false);
    expect(parseDirectives([text('a2a:directive {}'), text('a2a:directive {}')]).ok).toBe(false);
  });

  it('computes content without directive parts', () => {
    expect(
      contentText([text('a'), text('a2a:directive {}'), filePart('f', 'text/plain', 'x'), text('b')]),
    ).toBe('a\nb');
  });
});

describe('directives.md 4 reply format', () => {
  it('renders echo, file, turn and history lines as compact JSON', () => {
    const parts = [filePart('a b.txt', 'text/plain', 'hi'), filePart('z', 'image/png', Buffer.alloc(7))];
    const reply = replyText({
      directive: { ...NO_DIRECTIVE, echoFiles: true, turn: true },
      content: 'line1\n"q"',
      parts,
      turn: 3,
      history: ['hello', 'how are you'],
    });
    expect(reply).toBe(
      [
        'echo "line1\\n\\"q\\""',
        'file {"name":"a b.txt","mimeType":"text/plain","bytes":2}',
        'file {"name":"z","mimeType":"image/png","bytes":7}',
        'turn 3',
        'history ["hello","how are you"]',
      ].join('\n'),
    );
  });
});

function replyOf(result: Record<string, unknown>): string {
  return (result.status as { message: { parts: Array<{ text: string }> } }).message.parts[0]!.text;
}

describe('4.9 multi-turn and files over HTTP', () => {
  it('continues a conversation: same contextId, turn number and earlier user messages', async () => {
    const h = await startServer();
    const first = await h.rpc('message/send', { ...sendParams('hello'), sessionId: 's-1' });
    const contextId = first.result.contextId as string;
    const second = await h.rpc('message/send', {
      ...sendParams('how are you', directive({ delayMs: 1 })),
      contextId,
    });
    expect(second.result.contextId).toBe(contextId);
    const params = {
      message: userMessage(
        'and now?',
        filePart('a.txt', 'text/plain', 'hi'),
        directive({ echoFiles: true, turn: true }),
      ),
      contextId,
    };
    const third = await h.rpc('message/send', params);
    expect(third.result.contextId).toBe(contextId);
    expect(replyOf(third.result)).toBe(
      'echo "and now?"\nfile {"name":"a.txt","mimeType":"text/plain","bytes":2}\nturn 3\nhistory ["hello","how are you"]',
    );
    const fresh = await h.rpc('message/send', sendParams('new', directive({ turn: true })));
    expect(fresh.result.contextId).not.toBe(contextId);
    expect(replyOf(fresh.result)).toBe('echo "new"\nturn 1\nhistory []');
  });

  it('keeps contexts per agent and refuses contextId when multiTurn is false (C-15)', async () => {
    const h = await startServer({
      agents: [AGENT_A, { id: 'agent-b', apiKeys: ['test-key-b'], capabilities: { multiTurn: false } }],
    });
    const first = await h.rpc('message/send', sendParams('hello'));
    const elsewhere = await h.rpc(
      'message/send',
      { ...sendParams('x'), contextId: first.result.contextId },
      { agentId: 'agent-b' },
    );
    expect(elsewhere.error).toMatchObject({ code: ERROR_CODES.INVALID_PARAMS, data: { field: 'contextId' } });
  });

  it('fails the task with invalid_directive for a bad directive, without a JSON-RPC error', async () => {
    const h = await startServer();
    const reply = await h.rpc('message/send', sendParams('x', text('a2a:directive {"delayMs":"soon"}')));
    expect(reply.result).toMatchObject({
      final: true,
      status: { state: 'failed', error: { code: 'invalid_directive' } },
    });
    expect((reply.result.status as { error: { message: string } }).error.message).toContain('delayMs');
  });

  it('waits delayMs before replying', async () => {
    const h = await startServer();
    const started = Date.now();
    await h.rpc('message/send', sendParams(directive({ delayMs: 120 })));
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
  });
});
