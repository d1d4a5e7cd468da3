// Readers of a JSON-RPC response body (spec 2.2, 7): they return what is there, typed loosely, so a
// check can record the actual value even when the target sent something malformed.
import type { AnsweredExchange } from '../../harness/check/index.ts';
import { isObject } from '../../schemas/json.ts';

export interface RpcResponse {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** The response object, or undefined when the body is not a JSON object. */
export function responseOf(ex: AnsweredExchange): RpcResponse | undefined {
  return isObject(ex.response.json) ? (ex.response.json as RpcResponse) : undefined;
}

/** The error member when it is an object. */
export function errorOf(ex: AnsweredExchange): RpcResponse['error'] | undefined {
  const error = responseOf(ex)?.error;
  return isObject(error) ? error : undefined;
}
