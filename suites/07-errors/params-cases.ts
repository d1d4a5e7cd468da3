// Invalid params per method (spec 2.3-2.6, 2.11, 4.3-4.8; C-14): requests missing one required member
// and requests with one invalid value, each with the dotted path (relative to params) that the
// -32602 error's data.field must name.
import { randomUUID } from 'node:crypto';
import { pathValue } from '../support/card.ts';
import { CARD, type JsonObject } from '../support/rpc.ts';
import { SET } from '../support/webhooks.ts';

export interface ParamsCase {
  label: string;
  method: string;
  /** The request's params, built anew at each call: a case run again sends a fresh message (messageId). */
  params: () => JsonObject;
  field: string;
}

const text = { type: 'text', text: 'conformance' };

function message(fields: JsonObject, drop?: string): JsonObject {
  const m: JsonObject = { role: 'user', messageId: randomUUID(), parts: [text], ...fields };
  if (drop !== undefined) delete m[drop];
  return m;
}

function sendAndStream(label: string, params: () => JsonObject, field: string): ParamsCase[] {
  return ['message/send', 'message/stream'].map((method) => ({
    label: `${method} ${label}`,
    method,
    params,
    field,
  }));
}

function missingCases(fileUpload: boolean): ParamsCase[] {
  const file = (f: JsonObject) => ({ message: message({ parts: [{ type: 'file', file: f }] }) });
  return [
    ...sendAndStream('without message', () => ({}), 'message'),
    ...sendAndStream(
      'without message.messageId',
      () => ({ message: message({}, 'messageId') }),
      'message.messageId',
    ),
    ...sendAndStream('without message.role', () => ({ message: message({}, 'role') }), 'message.role'),
    ...sendAndStream('without message.parts', () => ({ message: message({}, 'parts') }), 'message.parts'),
    ...sendAndStream(
      'with a part without type',
      () => ({ message: message({ parts: [{ text: 'x' }] }) }),
      'message.parts[0].type',
    ),
    ...sendAndStream(
      'with a text part without text',
      () => ({ message: message({ parts: [{ type: 'text' }] }) }),
      'message.parts[0].text',
    ),
    ...(fileUpload
      ? [
          ...sendAndStream(
            'with a file part without file',
            () => ({ message: message({ parts: [{ type: 'file' }] }) }),
            'message.parts[0].file',
          ),
          ...sendAndStream(
            'with a file without bytes',
            () => file({ name: 'a.txt', mimeType: 'text/plain' }),
            'message.parts[0].file.bytes',
          ),
          ...sendAndStream(
            'with a file without name',
            () => file({ mimeType: 'text/plain', bytes: 'aGk=' }),
            'message.parts[0].file.name',
          ),
          ...sendAndStream(
            'with a file without mimeType',
            () => file({ name: 'a.txt', bytes: 'aGk=' }),
            'message.parts[0].file.mimeType',
          ),
        ]
      : []),
    { label: 'tasks/get without taskId', method: 'tasks/get', params: () => ({}), field: 'taskId' },
    {
      label: 'tasks/cancel without taskId',
      method: 'tasks/cancel',
      params: () => ({ reason: 'x' }),
      field: 'taskId',
    },
    {
      label: 'tasks/resubscribe without taskId',
      method: 'tasks/resubscribe',
      params: () => ({}),
      field: 'taskId',
    },
    { label: `${SET} without config`, method: SET, params: () => ({}), field: 'config' },
    { label: `${SET} without config.url`, method: SET, params: () => ({ config: {} }), field: 'config.url' },
  ];
}

function invalidValueCases(): ParamsCase[] {
  return [
    ...sendAndStream('with role "agent"', () => ({ message: message({ role: 'agent' }) }), 'message.role'),
    ...sendAndStream(
      'with a messageId that is not a UUID',
      () => ({ message: message({ messageId: 'not-a-uuid' }) }),
      'message.messageId',
    ),
    ...sendAndStream(
      'with an empty parts array',
      () => ({ message: message({ parts: [] }) }),
      'message.parts',
    ),
    ...sendAndStream(
      'with a part of type "image"',
      () => ({ message: message({ parts: [{ type: 'image', text: 'x' }] }) }),
      'message.parts[0].type',
    ),
    {
      label: 'tasks/get with a numeric taskId',
      method: 'tasks/get',
      params: () => ({ taskId: 42 }),
      field: 'taskId',
    },
    {
      label: 'tasks/cancel with a numeric reason',
      method: 'tasks/cancel',
      params: () => ({ taskId: randomUUID(), reason: 5 }),
      field: 'reason',
    },
    {
      label: 'tasks/resubscribe with includeHistory "yes"',
      method: 'tasks/resubscribe',
      params: () => ({ taskId: randomUUID(), includeHistory: 'yes' }),
      field: 'includeHistory',
    },
    {
      label: `${SET} with a url that is not absolute`,
      method: SET,
      params: () => ({ config: { url: 'hooks/here' } }),
      field: 'config.url',
    },
    {
      label: `${CARD} with includeMetrics "yes"`,
      method: CARD,
      params: () => ({ includeMetrics: 'yes' }),
      field: 'includeMetrics',
    },
  ];
}

/** Missing-member cases (spec 7 row -32602) or invalid-value cases (C-14). */
export function invalidParamsCases(card: unknown, missing: boolean): ParamsCase[] {
  return missing
    ? missingCases(pathValue(card, 'capabilities.fileUpload.supported') !== false)
    : invalidValueCases();
}

/** The field's own name: `message.parts[0].file.bytes` -> `bytes`, `message.parts` -> `parts`. */
export function leafName(field: string): string {
  return (
    field
      .replace(/\[\d+\]/g, '')
      .split('.')
      .at(-1) ?? field
  );
}
