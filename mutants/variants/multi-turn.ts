// Multi-turn conversations (spec 2.6, 2.7, 4.9): each variant changes how contextId travels.
import { randomUUID } from 'node:crypto';
import { mutant } from '../define.ts';
import type { ProxyCall } from '../proxy.ts';
import type { Variant } from '../types.ts';

const SENDS = new Set(['message/send', 'message/stream']);
const hasContext = (call: ProxyCall): boolean => typeof call.params?.contextId === 'string';
let firstContext: string | undefined;

const variants: Variant[] = [
  mutant({
    breaks: '4.9/context-id-continues',
    slug: 'new-context-each-time',
    area: 'multi-turn',
    description: 'a message sent with a contextId is answered with a fresh contextId',
    hooks: {
      json: {
        'message/send': (body, { call }) => {
          if (hasContext(call) && body?.result !== undefined) body.result.contextId = randomUUID();
        },
      },
      sseEvent: (payload, { call }) => {
        if (call.method === 'message/stream' && hasContext(call) && payload?.result !== undefined) {
          payload.result.contextId = randomUUID();
        }
      },
    },
  }),
  mutant({
    breaks: '4.9/context-id-distinct',
    slug: 'one-shared-context',
    area: 'multi-turn',
    description: 'messages sent without contextId all join the first conversation the server opened',
    hooks: {
      request: (call) => {
        if (call.method === undefined || !SENDS.has(call.method) || call.params === undefined)
          return undefined;
        if (hasContext(call) || firstContext === undefined) return undefined;
        return { ...(call.json as object), params: { ...call.params, contextId: firstContext } };
      },
      json: {
        'message/send': (body) => {
          if (typeof body?.result?.contextId === 'string') firstContext ??= body.result.contextId;
        },
      },
    },
  }),
  mutant({
    breaks: '4.9/context-id-returned',
    slug: 'no-context-id-on-first',
    area: 'multi-turn',
    description: 'the answer to the first message of a conversation leaves out contextId',
    hooks: {
      json: {
        'message/send': (body, { call }) => {
          if (!hasContext(call) && body?.result !== undefined) delete body.result.contextId;
        },
      },
      sseEvent: (payload, { call }) => {
        if (call.method === 'message/stream' && !hasContext(call) && payload?.result !== undefined) {
          delete payload.result.contextId;
        }
      },
    },
  }),
  mutant({
    breaks: '2.6/context-id-optional',
    slug: 'context-id-required',
    area: 'multi-turn',
    description: 'a message without contextId is refused with -32602',
    hooks: {
      answer: (call, res) => {
        if (
          call.method === undefined ||
          !SENDS.has(call.method) ||
          call.params === undefined ||
          hasContext(call)
        ) {
          return false;
        }
        const error = {
          code: -32602,
          message: 'Invalid params',
          data: { details: 'contextId is required', field: 'contextId' },
        };
        const body = JSON.stringify({ jsonrpc: '2.0', id: call.id, error });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
        return true;
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '4-9-context-id-returned--no-context-id-on-first',
  '2-6-context-id-optional--context-id-required',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
