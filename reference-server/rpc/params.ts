// Hand-written readers of method params (spec 4.3-4.8): each failure is -32602 with data
// {details, field} naming the exact dotted path (C-14); unknown fields are ignored (C-36).
import { fail, invalidParams } from './errors.ts';

export type Params = Record<string, unknown>;

/** Normalises the envelope's params: absent -> undefined (or {} when optional), arrays refused. */
export function paramsObject(params: unknown, required: boolean): Params {
  if (params === undefined) {
    if (required) fail(invalidParams('params', 'params is required'));
    return {};
  }
  if (Array.isArray(params)) fail(invalidParams('params', 'params must be an object, not an array'));
  return params as Params;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function requireString(value: unknown, field: string): string {
  if (value === undefined) fail(invalidParams(field, `${field} is required`));
  if (typeof value !== 'string')
    fail(invalidParams(field, `${field} must be a string, got ${typeName(value)}`));
  if (value.length === 0) fail(invalidParams(field, `${field} must not be empty`));
  return value;
}

export function optionalString(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : requireString(value, field);
}

export function optionalBoolean(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    fail(invalidParams(field, `${field} must be a boolean, got ${typeName(value)}`));
  return value;
}

export function requireObject(value: unknown, field: string): Params {
  if (value === undefined) fail(invalidParams(field, `${field} is required`));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(invalidParams(field, `${field} must be an object, got ${typeName(value)}`));
  }
  return value as Params;
}

/** tasks/get (4.3), tasks/cancel (4.4), tasks/resubscribe (4.5). */
export function readTaskId(params: Params): string {
  return requireString(params.taskId, 'taskId');
}

/** C-34: the default cancel reason; an empty reason counts as none. */
export const DEFAULT_CANCEL_REASON = 'Canceled by client';

export function readCancelParams(params: Params): { taskId: string; reason: string } {
  const taskId = readTaskId(params);
  const reason = params.reason;
  if (reason === undefined || reason === '') return { taskId, reason: DEFAULT_CANCEL_REASON };
  if (typeof reason !== 'string')
    fail(invalidParams('reason', `reason must be a string, got ${typeName(reason)}`));
  return { taskId, reason };
}

export function readResubscribeParams(params: Params): { taskId: string; includeHistory: boolean } {
  return {
    taskId: readTaskId(params),
    includeHistory: optionalBoolean(params.includeHistory, 'includeHistory', false),
  };
}

/** 4.8 and C-30: both flags optional booleans. */
export function readCardParams(params: Params): { includeCapabilities: boolean; includeMetrics: boolean } {
  return {
    includeCapabilities: optionalBoolean(params.includeCapabilities, 'includeCapabilities', true),
    includeMetrics: optionalBoolean(params.includeMetrics, 'includeMetrics', false),
  };
}
