// Routes one valid JSON-RPC request to its method handler (spec 4; C-02, C-41): methods the agent
// does not serve answer -32601 with data.method; handler failures become error responses.
import { METHODS, type MethodName } from '../../schemas/error-codes.ts';
import { METHOD_HANDLERS } from '../methods/index.ts';
import type { MethodContext } from '../methods/context.ts';
import type { RpcRequest } from './envelope.ts';
import { errorResponse, rpcError, RpcFailure, successResponse, type RpcResponse } from './errors.ts';

export type DispatchOutcome = { kind: 'json'; status: number; response: RpcResponse } | { kind: 'streamed' };

function isMethodName(method: string): method is MethodName {
  return (METHODS as readonly string[]).includes(method);
}

export async function dispatch(
  base: Omit<MethodContext, 'id' | 'params'>,
  request: RpcRequest,
): Promise<DispatchOutcome> {
  const { id, method } = request;
  const served = base.runtime.config.capabilities.supportedMethods;
  if (!isMethodName(method) || !served.includes(method)) {
    return {
      kind: 'json',
      status: 200,
      response: errorResponse(id, rpcError('METHOD_NOT_FOUND', { method })),
    };
  }
  try {
    const outcome = await METHOD_HANDLERS[method]({ ...base, id, params: request.params });
    if ('streamed' in outcome) return { kind: 'streamed' };
    return { kind: 'json', status: 200, response: successResponse(id, outcome.result) };
  } catch (error) {
    if (error instanceof RpcFailure) {
      return { kind: 'json', status: error.httpStatus, response: errorResponse(id, error.error) };
    }
    process.stderr.write(`reference-server: ${method} failed: ${(error as Error)?.stack ?? String(error)}\n`);
    return { kind: 'json', status: 200, response: errorResponse(id, rpcError('INTERNAL_ERROR')) };
  }
}
