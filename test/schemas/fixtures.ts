// Hand-written valid wire objects for the schema tests (spec sections 2.1-2.14, 6.2-6.3), and the
// helpers that break one rule of a valid object and assert the exact path and keyword refused.
import { expect } from 'vitest';
import { validate, type SchemaName, type ValidationIssue } from '../../schemas/registry.ts';

export const UUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
export const TS = '2025-01-01T12:00:00.000Z';

export const userMessage = () => ({
  role: 'user',
  messageId: UUID,
  parts: [
    { type: 'text', text: 'hello' },
    { type: 'file', file: { name: 'a.txt', mimeType: 'text/plain', bytes: 'aGVsbG8=' } },
  ],
});

export const agentMessage = () => ({ role: 'agent', parts: [{ type: 'text', text: 'hi' }] });

export const progress = () => ({ current: 1, total: 3, message: 'step 1 of 3' });

export const completedStatus = () => ({ state: 'completed', message: agentMessage() });

export const sendResult = () => ({ id: 't1', contextId: 'c1', status: completedStatus(), final: true });

export const webhookConfig = () => ({
  url: 'https://example.test/hook',
  headers: { Authorization: 'Bearer x', 'X-Team': 'a' },
  events: ['task.completed', 'task.failed'],
  retryPolicy: { maxRetries: 3, backoffMultiplier: 2, initialDelay: 1 },
  secret: 's3cret',
});

export const storedConfig = () => ({
  url: 'https://example.test/hook',
  events: ['task.completed'],
  retryPolicy: { maxRetries: 3, backoffMultiplier: 2, initialDelay: 1 },
  createdAt: TS,
  lastUsed: null,
});

export const extendedCard = () => ({
  agent: {
    id: 'echo',
    name: 'Echo',
    description: 'Repeats the message',
    version: '1.0.0',
    type: 'llm',
    status: 'active',
  },
  capabilities: {
    supportedMethods: ['message/send', 'tasks/get'],
    fileUpload: { supported: true, maxFileSize: 5242880, supportedTypes: ['text/plain'] },
    streaming: true,
    multiTurn: true,
    webhooks: true,
  },
  limits: { requestsPerMinute: 600, concurrentTasks: 4, maxMessageLength: 100000 },
  metrics: { totalRequests: 10, averageResponseTime: 12.5, successRate: 90 },
});

const EVENT_DATA = {
  'task.submitted': { taskId: 't1', submittedAt: TS, estimatedDuration: 3000 },
  'task.working': { taskId: 't1', startedAt: TS, progress: progress() },
  'task.completed': {
    taskId: 't1',
    status: { state: 'completed', message: agentMessage() },
    contextId: 'c1',
    duration: 3104,
    completedAt: TS,
  },
  'task.failed': {
    taskId: 't1',
    status: { state: 'failed', error: { code: 'agent_error', message: 'boom' } },
    duration: 20,
    failedAt: TS,
  },
  'task.canceled': { taskId: 't1', reason: 'Canceled by client', canceledAt: TS },
} as const;

export type EventName = keyof typeof EVENT_DATA;
export const EVENT_NAMES = Object.keys(EVENT_DATA) as EventName[];

export const webhookPayload = (event: EventName = 'task.completed') => ({
  event,
  timestamp: TS,
  agentId: 'echo',
  taskId: 't1',
  data: structuredClone(EVENT_DATA[event]) as Record<string, unknown>,
  delivery: { attempt: 1, maxAttempts: 4 },
});

export const webhookHeaders = () => ({
  'content-type': 'application/json',
  'x-webhook-event': 'task.completed',
  'x-webhook-signature': `sha256=${'ab'.repeat(32)}`,
  'x-webhook-delivery': UUID,
  'user-agent': 'A2A-Reference-Webhook/0.1.0',
  'x-team': 'a',
});

export function request(method: string, params?: unknown, id: unknown = 'r1'): Record<string, unknown> {
  const envelope: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (params !== undefined) envelope.params = params;
  return envelope;
}

/** The issues of an invalid value; fails the test when the value is valid. */
export function issuesOf(name: SchemaName, value: unknown): ValidationIssue[] {
  const result = validate(name, value);
  if (result.valid) throw new Error(`expected ${name} to refuse ${JSON.stringify(value).slice(0, 300)}`);
  return result.errors;
}

export function expectValid(name: SchemaName, value: unknown): void {
  expect(validate(name, value)).toEqual({ valid: true });
}

/** The value breaks exactly one rule: a single issue at `path` with `keyword`. */
export function expectOnly(name: SchemaName, value: unknown, path: string, keyword: string): void {
  expect(issuesOf(name, value).map((i) => ({ path: i.path, keyword: i.keyword }))).toEqual([
    { path, keyword },
  ]);
}

/** Some issue is at `path` with `keyword` (used where a union reports each branch). */
export function expectIssue(name: SchemaName, value: unknown, path: string, keyword: string): void {
  expect(issuesOf(name, value)).toContainEqual(expect.objectContaining({ path, keyword }));
}

export interface InvalidCase {
  /** The rule broken, in the spec's or a ruling's words. */
  rule: string;
  mutate: (value: Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  path: string;
  keyword: string;
}

/** Applies one case to a fresh copy of `valid` and asserts the single resulting issue. */
export function expectCase(name: SchemaName, valid: () => object, invalid: InvalidCase): void {
  const value = structuredClone(valid()) as Record<string, unknown>;
  invalid.mutate(value);
  expectOnly(name, value, invalid.path, invalid.keyword);
}
