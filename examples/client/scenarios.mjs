// What the example driver does in each scenario of `a2a-conformance client` (docs/clients.md):
// each function returns the lines the driver prints.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { A2AError, replyText, text, userMessage } from './a2a-client.mjs';

async function finalOf(events) {
  let last;
  for await (const result of events) last = result;
  return last;
}

export const SCENARIOS = {
  send: async (client) => [replyText(await client.send(userMessage(text('hello'))))],

  stream: async (client) => [replyText(await finalOf(client.stream(userMessage(text('hello')))))],

  'multi-turn': async (client) => {
    const first = await client.send(userMessage(text('first')));
    // Spec 4.9: the contextId of the first answer continues the conversation.
    const second = await client.send(userMessage(text('second')), { contextId: first.contextId });
    return [replyText(first), replyText(second)];
  },

  file: async (client, env) => {
    const bytes = readFileSync(env.A2A_FILE);
    const file = {
      name: basename(env.A2A_FILE),
      mimeType: 'application/octet-stream',
      bytes: bytes.toString('base64'),
    };
    return [replyText(await client.send(userMessage(text('file'), { type: 'file', file })))];
  },

  cancel: async (client) => {
    let state;
    for await (const result of client.stream(userMessage(text('hold')))) {
      if (state === undefined && result.status?.state === 'working') {
        state = (await client.cancel(result.id, 'canceled by the example driver')).status.state;
      }
    }
    return [state ?? 'the task never reached working'];
  },

  retry: async (client) => [replyText(await client.send(userMessage(text('hello'))))],

  error: async (client) => {
    try {
      await client.send(userMessage(text('hello')));
      return ['no error'];
    } catch (e) {
      if (e instanceof A2AError) return [String(e.code)];
      throw e;
    }
  },
};
