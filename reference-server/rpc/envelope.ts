// Reads the JSON-RPC request envelope (spec 2.1) from a request body: parse error (-32700),
// batches (C-12), notifications (C-11), id types (C-13), jsonrpc "2.0", method and params shape (C-02).
import { rpcError, type RpcErrorObject, type RpcId } from './errors.ts';

export interface RpcRequest {
  id: string | number;
  method: string;
  /** Absent, or a structured value (object or array); methods reject arrays themselves. */
  params: Record<string, unknown> | unknown[] | undefined;
}

export type EnvelopeResult =
  { ok: true; request: RpcRequest } | { ok: false; id: RpcId; error: RpcErrorObject };

function isValidId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function invalid(id: RpcId, details: string, field?: string): EnvelopeResult {
  const data: Record<string, unknown> = { details };
  if (field !== undefined) data.field = field;
  return { ok: false, id, error: rpcError('INVALID_REQUEST', data) };
}

/** Best-effort id of a body, for errors raised before the envelope is read (C-01 "id echoed when readable"). */
export function readableId(body: string): RpcId {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const id = (parsed as { id?: unknown }).id;
    return isValidId(id) ? id : null;
  } catch {
    return null;
  }
}

export function readEnvelope(body: string): EnvelopeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {
      ok: false,
      id: null,
      error: rpcError('PARSE_ERROR', { details: 'the request body is not valid JSON' }),
    };
  }
  if (Array.isArray(parsed)) return invalid(null, 'batch requests are not supported');
  if (typeof parsed !== 'object' || parsed === null)
    return invalid(null, 'the request must be a JSON object');
  const envelope = parsed as Record<string, unknown>;
  if (!('id' in envelope)) return invalid(null, 'id is required (notifications are not supported)', 'id');
  if (!isValidId(envelope.id)) return invalid(null, 'id must be a string or an integer', 'id');
  const id = envelope.id;
  if (envelope.jsonrpc !== '2.0') return invalid(id, 'jsonrpc must be "2.0"', 'jsonrpc');
  if (typeof envelope.method !== 'string') return invalid(id, 'method must be a string', 'method');
  const params = envelope.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    return invalid(id, 'params must be an object', 'params');
  }
  return { ok: true, request: { id, method: envelope.method, params: params as RpcRequest['params'] } };
}
