// The protocol error codes (spec section 7, JSON-RPC 2.0 section 5.1, CLARIFICATIONS.md C-01..C-23),
// in one frozen table shared by the reference server and the conformance checks.

export const ERROR_CODES = Object.freeze({
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  TASK_NOT_FOUND: -32000,
  TASK_ALREADY_COMPLETED: -32001,
  TASK_ALREADY_CANCELED: -32002,
  CANCELLATION_FAILED: -32003,
  SUBSCRIPTION_FAILED: -32004,
  /** C-01: missing or invalid credential (HTTP 401). */
  UNAUTHORIZED: -32010,
  /** C-23: unknown agent_id (HTTP 404). */
  AGENT_NOT_FOUND: -32011,
  /** C-04: requestsPerMinute exceeded (HTTP 429). */
  RATE_LIMITED: -32012,
} as const);

export type ErrorCodeName = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorCodeName];

/** Default human-readable `error.message` per code. */
export const ERROR_MESSAGES: Readonly<Record<ErrorCode, string>> = Object.freeze({
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32000]: 'Task not found',
  [-32001]: 'Task already completed',
  [-32002]: 'Task already canceled',
  [-32003]: 'Cancellation failed',
  [-32004]: 'Subscription failed',
  [-32010]: 'Unauthorized',
  [-32011]: 'Agent not found',
  [-32012]: 'Rate limit exceeded',
});

/** The eight methods of spec section 4, in spec order. */
export const METHODS = Object.freeze([
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'agent/authenticatedExtendedCard',
] as const);
export type MethodName = (typeof METHODS)[number];

export const TASK_STATES = Object.freeze([
  'submitted',
  'working',
  'completed',
  'failed',
  'canceled',
] as const);
export type TaskState = (typeof TASK_STATES)[number];
export const FINAL_STATES: ReadonlySet<TaskState> = new Set(['completed', 'failed', 'canceled']);

/** Whether a value names a final state (spec 3, rule 1: completed, failed, canceled). */
export function isFinalState(state: unknown): state is TaskState {
  return FINAL_STATES.has(state as TaskState);
}

export const WEBHOOK_EVENTS = Object.freeze([
  'task.submitted',
  'task.working',
  'task.completed',
  'task.failed',
  'task.canceled',
] as const);
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
