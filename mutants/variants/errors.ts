// Error codes and their `data` (spec 7): each variant changes one member of one kind of JSON-RPC
// error object the reference server sends.
import { randomUUID } from 'node:crypto';
import { mutant } from '../define.ts';
import { sendJson, type JsonHook, type ProxyHooks } from '../proxy.ts';
import type { Variant } from '../types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorObject = Record<string, any>;

/** A JSON hook applied to error responses with this code only. */
function onError(code: number, rewrite: (error: ErrorObject) => void): Record<string, JsonHook> {
  return {
    '*': (body) => {
      if (body?.error?.code === code) rewrite(body.error);
    },
  };
}

/**
 * tasks/get with an empty taskId answers the agent's latest task, as a server that tests the id for
 * truthiness ("no id: the latest") would; without a task seen yet, it makes one first.
 */
function emptyIdMeansLatest(): ProxyHooks {
  let latest: unknown;
  return {
    json: {
      'message/send': (body) => {
        if (typeof body?.result?.id === 'string') latest = body.result.id;
      },
    },
    answer: async (call, res, upstream) => {
      if (call.method !== 'tasks/get' || call.params?.taskId !== '') return false;
      if (latest === undefined) {
        const parts = [{ type: 'text', text: 'latest task' }];
        latest = (
          await upstream('message/send', { message: { role: 'user', messageId: randomUUID(), parts } })
        )?.result?.id;
      }
      const got = await upstream('tasks/get', { taskId: latest });
      return sendJson(res, { ...got, id: call.id });
    },
  };
}

const variants: Variant[] = [
  mutant({
    breaks: '7/empty-task-id-error',
    slug: 'empty-means-latest-task',
    area: 'errors',
    description: 'tasks/get with an empty taskId answers the latest task of the agent instead of an error',
    hooks: emptyIdMeansLatest(),
  }),
  mutant({
    breaks: '7/method-not-found-code',
    slug: 'answers-32600',
    area: 'errors',
    description: 'an unknown method is answered with -32600 instead of -32601',
    hooks: { json: onError(-32601, (e) => (e.code = -32600)) },
  }),
  mutant({
    breaks: '7/invalid-params-details',
    slug: 'no-details',
    area: 'errors',
    description: '-32602 errors carry data.field but no data.details',
    hooks: { json: onError(-32602, (e) => delete e.data?.details) },
  }),
  mutant({
    breaks: '7/invalid-params-field',
    slug: 'no-field',
    area: 'errors',
    description: '-32602 errors carry data.details but no data.field',
    hooks: { json: onError(-32602, (e) => delete e.data?.field) },
  }),
  mutant({
    breaks: '7/task-not-found-data',
    slug: 'no-suggestion',
    area: 'errors',
    description: '-32000 errors carry data.taskId but no data.suggestion',
    hooks: { json: onError(-32000, (e) => delete e.data?.suggestion) },
  }),
  mutant({
    breaks: '7/error-code-integer',
    slug: 'code-as-string',
    area: 'errors',
    description: 'the -32601 code is sent as the string "-32601"',
    hooks: { json: onError(-32601, (e) => (e.code = String(e.code))) },
  }),
  mutant({
    breaks: '7/error-data-object',
    slug: 'data-as-string',
    area: 'errors',
    description: 'the data of -32601 errors is a JSON string instead of an object',
    hooks: { json: onError(-32601, (e) => (e.data = JSON.stringify(e.data))) },
  }),
  mutant({
    breaks: '7/cancellation-failed-data',
    slug: 'no-current-state',
    area: 'errors',
    description: '-32003 errors carry data.taskId but no data.currentState',
    hooks: { json: onError(-32003, (e) => delete e.data?.currentState) },
  }),
  mutant({
    breaks: '7/subscription-failed-data',
    slug: 'no-reason',
    area: 'errors',
    description: '-32004 errors carry data.taskId but no data.reason',
    hooks: { json: onError(-32004, (e) => delete e.data?.reason) },
  }),
  mutant({
    breaks: '7/jsonrpc-errors-http-200',
    slug: 'invalid-params-http-400',
    area: 'errors',
    description: '-32602 errors are sent with HTTP 400',
    hooks: {
      json: {
        '*': (body, { head }) => {
          if (body?.error?.code === -32602) head.status = 400;
        },
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '7-invalid-params-field--no-field',
  '7-error-code-integer--code-as-string',
  '7-error-data-object--data-as-string',
  '7-cancellation-failed-data--no-current-state',
  '7-task-not-found-data--no-suggestion',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
