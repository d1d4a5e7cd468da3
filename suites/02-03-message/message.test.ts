// 2.3 Message: the request rules on role, messageId and parts (C-14: -32602 with data.details, and
// data.field at SHOULD level), and the agent's reply carrying role "agent" in results and events.
import { randomUUID } from 'node:crypto';
import { isObject } from '../../schemas/json.ts';
import { suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { expectInvalidParams } from '../support/errors.ts';
import { textPart } from '../support/messages.ts';
import type { JsonObject } from '../support/rpc.ts';
import { sentAndStreamed, sharedSample } from '../support/samples.ts';
import { statusOf } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 2, turns: 0 },
  concurrent: true,
});

function message(overrides: JsonObject, omit?: string): JsonObject {
  const m: JsonObject = {
    role: 'user',
    messageId: randomUUID(),
    parts: [textPart('2.3 check')],
    ...overrides,
  };
  if (omit !== undefined) delete m[omit];
  return m;
}

async function send(c: CheckContext, msg: JsonObject) {
  return c.rpc('message/send', { message: msg });
}

verifies('2.3/role-required', 'a message without role gets -32602 with details', async (c) => {
  expectInvalidParams(c, await send(c, message({}, 'role')), 'message.role', false);
});

verifies('2.3/role-user', 'roles "agent", "system" and "User" get -32602 naming message.role', async (c) => {
  for (const role of ['agent', 'system', 'User']) {
    expectInvalidParams(c, await send(c, message({ role })), 'message.role', true, `role "${role}"`);
  }
});

verifies('2.3/message-id-required', 'a message without messageId gets -32602 with details', async (c) => {
  expectInvalidParams(c, await send(c, message({}, 'messageId')), 'message.messageId', false);
});

const NOT_V4: ReadonlyArray<[string, string]> = [
  ['not a UUID', 'message-1'],
  ['a UUID v1', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
  ['a v4 with a wrong variant', '3b241101-e2bb-4255-ccaf-712c1e1b3e1f'],
  ['a v4 inside braces', `{${randomUUID()}}`],
  ['the empty string', ''],
];

verifies(
  '2.3/message-id-uuid-v4',
  'messageIds that are not UUID v4 get -32602 naming message.messageId',
  async (c) => {
    for (const [label, messageId] of NOT_V4) {
      expectInvalidParams(c, await send(c, message({ messageId })), 'message.messageId', true, label);
    }
  },
);

verifies('2.3/parts-required', 'a message without parts gets -32602 with details', async (c) => {
  expectInvalidParams(c, await send(c, message({}, 'parts')), 'message.parts', false);
});

const NOT_PARTS: ReadonlyArray<[string, unknown]> = [
  ['an empty array', []],
  ['an object', { type: 'text', text: 'not in an array' }],
  ['a string', 'hello'],
];

verifies(
  '2.3/parts-non-empty-array',
  'parts that are empty or not an array get -32602 naming message.parts',
  async (c) => {
    for (const [label, parts] of NOT_PARTS) {
      expectInvalidParams(c, await send(c, message({ parts })), 'message.parts', true, `parts ${label}`);
    }
  },
);

/** The agent's messages of a plain send and a plain stream (when served). */
const replies = sharedSample(
  'message/send result and message/stream events',
  { requests: 2, turns: 2 },
  async (c) => {
    const { send, streamed = [] } = await sentAndStreamed(c, 'reply role sample');
    return { send, streamed };
  },
);

function agentMessages(results: readonly (JsonObject | undefined)[]): JsonObject[] {
  return results.map((r) => statusOf(r)?.message).filter((m): m is JsonObject => isObject(m));
}

verifies(
  '2.3/reply-role-agent',
  'every agent message in results and stream events has role "agent"',
  async (c) => {
    const { send, streamed } = await replies(c);
    const found = agentMessages([send, ...streamed]);
    if (found.length === 0) c.notExercised('no result or event carried status.message (no task completed)');
    found.forEach((m, i) => c.check(`agent message ${i + 1} of ${found.length}: role`, m.role, 'agent'));
  },
);
