// JSON-RPC error and response objects (spec 2.2 and 7; C-02, C-40): codes come only from the
// frozen table in schemas/error-codes.ts; error.data, when present, is always an object.
import { ERROR_CODES, ERROR_MESSAGES, type ErrorCodeName } from '../../schemas/error-codes.ts';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/** A JSON-RPC id as accepted by C-13: a string or a safe integer; null when unreadable. */
export type RpcId = string | number | null;

export type RpcResponse =
  { jsonrpc: '2.0'; id: RpcId; result: unknown } | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorObject };

export function rpcError(
  name: ErrorCodeName,
  data?: Record<string, unknown>,
  message?: string,
): RpcErrorObject {
  const code = ERROR_CODES[name];
  const error: RpcErrorObject = { code, message: message ?? ERROR_MESSAGES[code] };
  if (data !== undefined) error.data = data;
  return error;
}

/** C-14: -32602 naming the exact field by its dotted path. */
export function invalidParams(
  field: string,
  details: string,
  extra?: Record<string, unknown>,
): RpcErrorObject {
  return rpcError('INVALID_PARAMS', { details, field, ...extra });
}

/** Thrown by parameter readers and method handlers; the dispatcher turns it into an error response. */
export class RpcFailure extends Error {
  constructor(
    readonly error: RpcErrorObject,
    /** 200 for JSON-RPC-level errors (C-03); 503 when streams are saturated (C-42). */
    readonly httpStatus = 200,
  ) {
    super(error.message);
    this.name = 'RpcFailure';
  }
}

export function fail(error: RpcErrorObject, httpStatus = 200): never {
  throw new RpcFailure(error, httpStatus);
}

export function successResponse(id: RpcId, result: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: RpcId, error: RpcErrorObject): RpcResponse {
  return { jsonrpc: '2.0', id, error };
}
